"""The cophenetic correlation of two trees with a Mantel permutation test of their leaves,
and Baker's gamma beside it (``cophenetic_test``, ``CopheneticTest``).

The cophenetic distance of two leaves is the height at which a tree first joins them
(Sokal & Rohlf 1962); two trees on the same leaves are compared by the correlation of their
cophenetic distances over the n (n - 1) / 2 pairs. Baker's gamma (Baker 1974) compares
ranks only: for each pair, the largest k at which the cut into k clusters keeps the pair
together, correlated by Spearman's rank correlation as R's dendextend computes it; it needs
no heights. Pairs of leaves are not independent, so neither correlation has a usable
textbook p-value: the Mantel test (Mantel 1967) relabels the leaves of the second tree at
random, which keeps each tree's shape and permutes its distance matrix's rows and columns
together.
"""

from __future__ import annotations

import html
import math

import numpy as np
import pandas as pd

from .. import _memory
from .._display import apa_number, apa_pvalue, format_pvalue
from .._validate import check_choice, check_positive_int, check_seed
from .hierarchies import read_trees

__all__ = ["cophenetic_test", "CopheneticTest"]

METHODS = ("pearson", "spearman", "kendall")
ALTERNATIVES = ("greater", "two-sided", "less")
#: Leaves up to which every permutation is enumerated (8! = 40,320).
MAX_ENUMERATED_LEAVES = 8
TITLE = "Mantel test of the cophenetic correlation of two trees"


def _square(condensed: np.ndarray, n: int) -> np.ndarray:
    """The n x n matrix of a condensed vector of pairs."""
    from scipy.spatial.distance import squareform

    return squareform(np.asarray(condensed, dtype=float), checks=False)


def _join_levels(tree) -> np.ndarray:
    """For each pair of leaves (condensed, aligned order), the largest k whose cut keeps it
    together: n - m for a pair first joined by the m-th merge of a linkage (the cophenetic
    distance of the tree whose heights are the merges' ranks); for partitions, the largest
    k given whose partition holds the pair in one cluster (0 if none)."""
    from scipy.cluster.hierarchy import cophenet
    from scipy.spatial.distance import squareform

    n = tree.n
    if tree.linkage is not None:
        Z = tree.linkage.copy()
        Z[:, 2] = np.arange(1, n)
        return _leaf_order_condensed(n - cophenet(Z), tree)
    level = np.zeros((n, n))
    for k in sorted(tree.ks.tolist()):
        cut = tree.cut(k)
        level[cut[:, None] == cut[None, :]] = k
    np.fill_diagonal(level, 0)
    return squareform(level, checks=False)


def _ranks(x: np.ndarray) -> np.ndarray:
    from scipy.stats import rankdata

    return rankdata(x)


class _Correlation:
    """Pearson correlation of a fixed vector u with v permuted by leaves: u and v are
    centred and scaled once (a permutation keeps v's values), so each permutation costs one
    gather and one dot product over the pairs."""

    def __init__(self, u: np.ndarray, v: np.ndarray, n: int):
        self.n = n
        u = (u - u.mean()) / np.sqrt(((u - u.mean()) ** 2).sum())
        v = (v - v.mean()) / np.sqrt(((v - v.mean()) ** 2).sum())
        self.U = _square(u, n)
        self.V = _square(v, n)

    def __call__(self, perm: np.ndarray) -> float:
        return float((self.U * self.V[np.ix_(perm, perm)]).sum() / 2)


def _kendall(u: np.ndarray, v: np.ndarray, n: int):
    from scipy.spatial.distance import squareform
    from scipy.stats import kendalltau

    V = _square(v, n)

    def tau(perm):
        return float(kendalltau(u, squareform(V[np.ix_(perm, perm)], checks=False)).statistic)
    return tau


def _permutation_pvalue(observed: float, values: np.ndarray, alternative: str,
                        enumerated: bool) -> float:
    """The Mantel p-value: (1 + count) / (P + 1) of P random permutations, or count / n! of
    all permutations (the identity among them)."""
    tol = 1e-12 * max(1.0, abs(observed))
    ge = int((values >= observed - tol).sum())
    le = int((values <= observed + tol).sum())
    if not enumerated:
        ge, le, total = ge + 1, le + 1, len(values) + 1
    else:
        total = len(values)
    if alternative == "greater":
        return ge / total
    if alternative == "less":
        return le / total
    return min(1.0, 2 * min(ge, le) / total)


class CopheneticTest:
    """Result of ``cophenetic_test``: the cophenetic correlation and Baker's gamma of two
    trees, each with its Mantel permutation p-value.

    Parameters
    ----------
    statistic : float or None
        The cophenetic correlation (None: a tree without heights).
    pvalue : float or None
        Its p-value.
    bakers_gamma, bakers_gamma_pvalue : float
        Baker's gamma and its p-value from the same permutations.
    method : str
        The correlation ("pearson", "spearman", "kendall").
    alternative : str
        The direction tested.
    n : int
        The number of leaves.
    n_permutations : int
        Permutations made (all n! when ``exact``).
    exact : bool
        Whether every permutation was enumerated.
    names : (str, str)
        The two trees, described.
    null : pandas.DataFrame
        The permuted values, columns ``cophenetic`` and ``bakers_gamma``.

    See Also
    --------
    clusteragree.cophenetic_test : Makes it.
    clusteragree.compare_hierarchies : The trees compared at every cut.

    Examples
    --------
    >>> from scipy.cluster.hierarchy import linkage
    >>> X = ca.load_dataset("iris")[0].iloc[::10].to_numpy()
    >>> res = ca.cophenetic_test(linkage(X, "average"), linkage(X, "complete"),
    ...                          n_permutations=199, seed=0)
    >>> round(res.statistic, 3), res.pvalue
    (0.779, 0.005)
    """

    def __init__(self, statistic, pvalue, bakers_gamma, bakers_gamma_pvalue, method,
                 alternative, n, n_permutations, exact, names, null):
        self.statistic = statistic
        self.pvalue = pvalue
        self.bakers_gamma = float(bakers_gamma)
        self.bakers_gamma_pvalue = float(bakers_gamma_pvalue)
        self.method = method
        self.alternative = alternative
        self.n = int(n)
        self.n_permutations = int(n_permutations)
        self.exact = bool(exact)
        self.names = tuple(names)
        self.null = null

    @property
    def how(self) -> str:
        """The permutations in words."""
        if self.exact:
            return f"exact: all {math.factorial(self.n):,} permutations of the second tree's leaves"
        return f"Mantel test: {self.n_permutations:,} random permutations of the second tree's leaves"

    def to_frame(self) -> pd.DataFrame:
        """One row per statistic: ``statistic``, ``estimate``, ``pvalue``, ``method``,
        ``alternative``, ``n``.

        Returns
        -------
        pandas.DataFrame
            Two rows (one when the trees have no heights).
        """
        rows = []
        if self.statistic is not None:
            rows.append({"statistic": f"cophenetic correlation ({self.method})",
                         "estimate": self.statistic, "pvalue": self.pvalue})
        rows.append({"statistic": "Baker's gamma (Spearman)", "estimate": self.bakers_gamma,
                     "pvalue": self.bakers_gamma_pvalue})
        out = pd.DataFrame(rows)
        out["method"] = self.how
        out["alternative"] = self.alternative
        out["n"] = self.n
        return out

    def _lines(self) -> list[tuple[str, str]]:
        direction = {"greater": "the trees' cophenetic distances are positively associated",
                     "less": "they are negatively associated",
                     "two-sided": "they are associated"}[self.alternative]
        rows = [("data", f"{self.names[0]} and {self.names[1]}")]
        if self.statistic is not None:
            rows.append((f"cophenetic correlation ({self.method})",
                         f"{self.statistic:.4f}, p-value = {format_pvalue(self.pvalue)}"))
        else:
            rows.append(("cophenetic correlation", "not computed: a tree given as partitions "
                                                   "has no heights"))
        rows += [("Baker's gamma", f"{self.bakers_gamma:.4f}, p-value = "
                                   f"{format_pvalue(self.bakers_gamma_pvalue)} (Spearman correlation of "
                                   "the largest k at which each pair is together)"),
                 ("null distribution", self.how),
                 ("alternative hypothesis", direction)]
        return rows

    def __str__(self) -> str:
        rows = self._lines()
        width = max(len(k) for k, _ in rows)
        return "\n".join(["", f"\t{TITLE}", ""] + [f"{k + ':':<{width + 1}} {v}"
                                                    for k, v in rows] + [""])

    def __repr__(self) -> str:
        stat = "None" if self.statistic is None else f"{self.statistic:.4g}"
        return (f"CopheneticTest(statistic={stat}, pvalue={self.pvalue}, "
                f"bakers_gamma={self.bakers_gamma:.4g}, n={self.n})")

    def _repr_html_(self) -> str:
        head = "".join(f"<tr><th style='text-align: left;'>{html.escape(k)}</th>"
                       f"<td style='text-align: left;'>{html.escape(v)}</td></tr>"
                       for k, v in self._lines())
        return f"<h4>{html.escape(TITLE)}</h4><table>{head}</table>"

    def sentence(self) -> str:
        """One sentence for a paper: the correlation, Baker's gamma and their p-values.

        Returns
        -------
        str
            For example "The cophenetic correlation of ward and average was r = .73 (Mantel
            test, 999 permutations, p = .001); Baker's gamma was .68 (p = .001)."
        """
        a, b = (s.split(" (")[0] for s in self.names)
        test = "exact permutation test" if self.exact else \
            f"Mantel test, {self.n_permutations:,} permutations"
        gamma = (f"Baker's gamma was {apa_number(self.bakers_gamma)} ({test}, "
                 f"{apa_pvalue(self.bakers_gamma_pvalue)})")
        if self.statistic is None:
            return f"For {a} and {b}, {gamma}."
        symbol = {"pearson": "r", "spearman": "r_s", "kendall": "tau"}[self.method]
        return (f"The cophenetic correlation of {a} and {b} was {symbol} = "
                f"{apa_number(self.statistic)} ({test}, {apa_pvalue(self.pvalue)}); "
                f"Baker's gamma was {apa_number(self.bakers_gamma)} "
                f"({apa_pvalue(self.bakers_gamma_pvalue)}).")

    def plot(self, ax=None):
        """The permutation laws of both statistics with the observed values marked.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Draw here (default: a new figure).

        Returns
        -------
        matplotlib Axes
            The Axes drawn on.
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 3.5))
        cols = [("cophenetic", self.statistic, "C0",
                 f"cophenetic correlation ({self.method})"),
                ("bakers_gamma", self.bakers_gamma, "C1", "Baker's gamma")]
        for col, obs, color, label in cols:
            if obs is None:
                continue
            ax.hist(self.null[col], bins=40, color=color, alpha=0.4,
                    label=f"{label}: null")
            ax.axvline(obs, color=color, lw=2, label=f"{label}: observed")
        ax.set_xlabel("correlation")
        ax.set_ylabel("permutations")
        ax.set_title(self.how, fontsize="small")
        ax.legend(fontsize="small")
        return ax


def cophenetic_test(tree_a, tree_b, method="pearson", n_permutations=999, seed=None, *,
                    alternative="greater", names=None, progress=False) -> CopheneticTest:
    """The cophenetic correlation of two trees, with a Mantel test, and Baker's gamma.

    The cophenetic distance c(i, j) of two leaves is the height of the merge that first
    joins them. The cophenetic correlation of two trees is the correlation over the
    n (n - 1) / 2 pairs:

    .. math:: r = \\frac{\\sum_{i<j} (c_a(i,j) - \\bar c_a)(c_b(i,j) - \\bar c_b)}
              {\\sqrt{\\sum_{i<j} (c_a(i,j) - \\bar c_a)^2 \\sum_{i<j} (c_b(i,j) - \\bar c_b)^2}}

    (Pearson's; Spearman's on the ranks of the distances; Kendall's tau-b). Baker's gamma
    is Spearman's correlation of K_a(i, j) and K_b(i, j), the largest k at which the cut
    into k clusters keeps i and j together, as R's dendextend (``cor_bakers_gamma``)
    computes it. The p-values are those of the Mantel test: tree b's leaves relabelled at
    random (rows and columns of its distance matrix permuted together), (1 + count) /
    (P + 1) of ``n_permutations`` permutations, or, for at most 8 leaves, the share of all
    n! permutations (exact).

    Parameters
    ----------
    tree_a, tree_b : linkage matrix, AgglomerativeClustering, nested partitions or Hierarchy
        The two trees, on the same leaves (aligned by label when both name them). The
        cophenetic correlation needs heights (a linkage, monotone); Baker's gamma is
        computed for trees given as partitions too.
    method : {"pearson", "spearman", "kendall"}, default "pearson"
        The correlation of the cophenetic distances (Kendall's costs O(n^2 log n) per
        permutation: keep n_permutations small for large trees).
    n_permutations : int, default 999
        Random permutations of tree b's leaves (not used when all are enumerated).
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The permutations' only source of randomness.
    alternative : {"greater", "two-sided", "less"}, default "greater"
        "greater": the trees agree more than chance (a positive correlation).
    names : (str, str), optional
        The two trees' names in the printed result and the sentence (default: the names of
        ``Hierarchy`` records, else "tree_a" and "tree_b").
    progress : bool, default False
        A progress bar (tqdm) over the permutations.

    Returns
    -------
    CopheneticTest
        ``statistic``, ``pvalue``, ``bakers_gamma``, ``bakers_gamma_pvalue``, ``null`` (the
        permuted values), ``to_frame()``, ``sentence()``, ``plot()``.

    Raises
    ------
    ValueError
        Trees on different leaves, fewer than 3 leaves, or a tree whose heights decrease
        (an inversion: its cophenetic distances are not an ultrametric).
    MemoryError
        Trees whose n x n matrices do not fit in this machine's memory.

    See Also
    --------
    compare_hierarchies : The trees compared at every cut (Fowlkes & Mallows' Bk).

    References
    ----------
    Sokal, R. R. & Rohlf, F. J. (1962), "The comparison of dendrograms by objective
    methods", Taxon 11, 33-40.

    Baker, F. B. (1974), "Stability of two hierarchical grouping techniques case I:
    sensitivity to data errors", Journal of the American Statistical Association 69,
    440-445.

    Mantel, N. (1967), "The detection of disease clustering and a generalized regression
    approach", Cancer Research 27, 209-220.

    Galili, T. (2015), "dendextend: an R package for visualizing, adjusting and comparing
    trees of hierarchical clustering", Bioinformatics 31, 3718-3720.

    Examples
    --------
    >>> from scipy.cluster.hierarchy import linkage
    >>> X = ca.load_dataset("iris")[0].iloc[::10].to_numpy()
    >>> res = ca.cophenetic_test(linkage(X, "average"), linkage(X, "complete"),
    ...                          n_permutations=199, seed=0)
    >>> round(res.bakers_gamma, 3), res.bakers_gamma_pvalue
    (0.729, 0.005)
    """
    from scipy.cluster.hierarchy import cophenet

    method = check_choice(method, "method", METHODS)
    alternative = check_choice(alternative, "alternative", ALTERNATIVES)
    n_permutations = check_positive_int(n_permutations, "n_permutations")
    rng = check_seed(seed)
    a, b = read_trees(tree_a, tree_b, names)
    n = a.n
    if n < 3:
        raise ValueError(f"the trees have {n} leaves: a correlation over their pairs needs "
                         "at least 3 leaves")
    need = 8 * 5 * n * n  # two n x n matrices per statistic, and one permuted copy
    avail = _memory.available_memory()
    if avail is not None and need > _memory.USABLE_SHARE * avail:
        raise MemoryError(f"the Mantel test of two trees of {n:,} leaves holds n x n matrices "
                          f"of about {need / 2**30:.1f} GiB and {avail / 2**30:.1f} GiB are "
                          "available: compare the trees on a random sample of the leaves")
    heights = a.linkage is not None and b.linkage is not None
    if heights:
        for tree in (a, b):
            tree.check_monotone("the cophenetic correlation")
        ca_, cb_ = (_leaf_order_condensed(cophenet(t.linkage), t) for t in (a, b))
        if method == "spearman":
            ca_, cb_ = _ranks(ca_), _ranks(cb_)
        cophenetic = _kendall(ca_, cb_, n) if method == "kendall" else \
            _Correlation(ca_, cb_, n)
    levels = _Correlation(_ranks(_join_levels(a)), _ranks(_join_levels(b)), n)
    identity = np.arange(n)
    exact = n <= MAX_ENUMERATED_LEAVES
    if exact:
        import itertools

        perms = (np.array(p) for p in itertools.permutations(range(n)))
        total = math.factorial(n)
    else:
        perms = (rng.permutation(n) for _ in range(n_permutations))
        total = n_permutations
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=total, desc="permutations of tree_b's leaves", unit="perm",
                   disable=None)
    null_c = np.empty(total) if heights else None
    null_g = np.empty(total)
    for i, p in enumerate(perms):
        if heights:
            null_c[i] = cophenetic(p)
        null_g[i] = levels(p)
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    gamma = levels(identity)
    stat = cophenetic(identity) if heights else None
    pvalue = _permutation_pvalue(stat, null_c, alternative, exact) if heights else None
    null = pd.DataFrame({"cophenetic": null_c, "bakers_gamma": null_g} if heights
                        else {"bakers_gamma": null_g})
    return CopheneticTest(
        statistic=stat, pvalue=pvalue, bakers_gamma=gamma,
        bakers_gamma_pvalue=_permutation_pvalue(gamma, null_g, alternative, exact),
        method=method, alternative=alternative, n=n, n_permutations=total, exact=exact,
        names=(a.describe(), b.describe()), null=null)


def _leaf_order_condensed(condensed: np.ndarray, tree) -> np.ndarray:
    """A tree's condensed cophenetic distances, its leaves put in the aligned order."""
    from scipy.spatial.distance import squareform

    if tree.order is None:
        return np.asarray(condensed, dtype=float)
    D = squareform(condensed, checks=False)
    return squareform(D[np.ix_(tree.order, tree.order)], checks=False)
