"""Two hierarchical clusterings compared at every cut: Fowlkes & Mallows' Bk plot with exact
null moments, per-cut tests and a simultaneous band across the cuts.

At each k both trees are cut into k clusters and their contingency table is scored by the
index (Bk, the Fowlkes-Mallows index, by default). The null is the permutation model: tree
b's leaves relabelled at random, which relabels every cut of b at once and keeps every cut's
cluster sizes. For an index of the pair counts and two trees given as linkages, the curve at
every k comes from one pass over the merges (``clusteragree.inputs.tree_cuts``), and each
joint permutation from one more pass; other indices and trees given as partitions are
tabulated cut by cut. The simultaneous band is a global envelope of the joint permutations'
curves, ranked by extreme rank length (Myllymaki et al. 2017): the range, cut by cut, of the
curves not among the alpha share most extreme over all cuts together.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .. import _memory
from .._validate import check_choice, check_fraction, check_positive_int, check_seed
from ..indices import evaluate_checked, resolve_call
from ..indices.pairs import pair_state_of_pair_counts
from ..inputs.tree_cuts import merge_arrays, passes, size_power_sums
from ..inputs.trees import align_hierarchies, as_hierarchy
from ..nulls import index_moments
from .agreement_tests import agreement_test
from .hierarchy_results import HierarchyComparison

__all__ = ["compare_hierarchies", "fowlkes_mallows_moments", "read_trees"]

#: Cells of the batches of permuted tables (permutations x k x k) built at once.
BATCH_CELLS = 4_000_000
#: With method="auto", each cut gets the package's own test (``agreement_test``) when there
#: are at most this many cuts (a few cuts asked for by k=); beyond, the joint permutations'
#: p-value of each cut (an exact law of a fine cut can take seconds).
MAX_TESTED_CUTS = 20
#: Cells the cut-by-cut path may tabulate in all (permutations x cuts x leaves) before it
#: refuses and says what to do instead.
MAX_TABULATED = 3_000_000_000
METHODS_OF_CUTS = ("auto", "permutation", "normal")
ALTERNATIVES = ("two-sided", "greater", "less")


def fowlkes_mallows_moments(n, sum_a2, sum_a3, sum_b2, sum_b3):
    """Fowlkes & Mallows' (1983) mean and variance of Bk under the permutation model.

    With P_k = sum a_i^2 - n, Q_k = sum b_j^2 - n (a, b the cluster sizes of the two cuts),
    P'_k = sum a_i (a_i - 1)(a_i - 2) and Q'_k likewise:

    .. math:: E[B_k] = \\frac{\\sqrt{P_k Q_k}}{n (n - 1)}, \\qquad
              Var[B_k] = \\frac{2}{n (n-1)} + \\frac{4 P'_k Q'_k}{n (n-1) (n-2) P_k Q_k}
              + \\frac{(P_k - 2 - 4 P'_k / P_k)(Q_k - 2 - 4 Q'_k / Q_k)}{n (n-1) (n-2) (n-3)}
              - \\frac{P_k Q_k}{n^2 (n-1)^2}.

    Vectorised over the cuts (arrays of the sums); n >= 4 and P_k, Q_k > 0 (no cut into
    singletons only).

    Parameters
    ----------
    n : int
        The number of leaves.
    sum_a2, sum_a3, sum_b2, sum_b3 : array-like
        sum a_i^2, sum a_i^3 of the first cut's cluster sizes, and of the second's.

    Returns
    -------
    mean, var : numpy.ndarray
        E[Bk] and Var[Bk], floats.

    See Also
    --------
    clusteragree.nulls.index_moments : The exact moments of an index of one table.
    compare_hierarchies : Uses them at every cut.

    References
    ----------
    Fowlkes, E. B. & Mallows, C. L. (1983), "A method for comparing two hierarchical
    clusterings", Journal of the American Statistical Association 78, 553-569.

    Examples
    --------
    >>> m, v = fowlkes_mallows_moments(80, 50**2 + 30**2, 50**3 + 30**3, 3200, 2 * 40**3)
    >>> mom = ca.nulls.index_moments("fowlkes_mallows", [50, 30], [40, 40])
    >>> bool(np.isclose(m, mom["mean"], rtol=1e-12) and np.isclose(v, mom["var"], rtol=1e-12))
    True
    """
    n = float(n)
    P = np.asarray(sum_a2, dtype=float) - n
    Q = np.asarray(sum_b2, dtype=float) - n
    P3 = np.asarray(sum_a3, dtype=float) - 3 * np.asarray(sum_a2, dtype=float) + 2 * n
    Q3 = np.asarray(sum_b3, dtype=float) - 3 * np.asarray(sum_b2, dtype=float) + 2 * n
    n1, n2, n3 = n * (n - 1), n * (n - 1) * (n - 2), n * (n - 1) * (n - 2) * (n - 3)
    mean = np.sqrt(P * Q) / n1
    var = (2 / n1 + 4 * P3 * Q3 / (n2 * P * Q) + (P - 2 - 4 * P3 / P) * (Q - 2 - 4 * Q3 / Q) / n3
           - P * Q / n1 ** 2)
    return mean, var


def read_trees(tree_a, tree_b, names=None):
    """The two trees read once (``as_hierarchy``), named, and aligned by leaf label.

    Parameters
    ----------
    tree_a, tree_b : linkage matrix, AgglomerativeClustering, nested partitions or Hierarchy
        The trees.
    names : (str, str), optional
        Their names (default: a ``Hierarchy``'s own, else "tree_a" and "tree_b").

    Returns
    -------
    (Hierarchy, Hierarchy)
        The trees, the second's leaves in the first's order.

    Raises
    ------
    ValueError
        ``names`` that are not two strings, or trees on different leaves.

    See Also
    --------
    clusteragree.as_hierarchy : Read one tree.

    Examples
    --------
    >>> a, b = read_trees([[0, 0, 1, 1]], [[0, 1, 1, 1]], names=("first", "second"))
    >>> a.describe(), b.cut(2).tolist()
    ('first (partitions, n = 4 leaves, 1 cuts)', [0, 1, 1, 1])
    """
    if names is not None:
        if isinstance(names, str) or len(names) != 2 or not all(
                isinstance(v, str) and v for v in names):
            raise ValueError(f"names: two non-empty strings (the trees' names), got {names!r}")
    defaults = [t.name if hasattr(t, "describe") else d
                for t, d in ((tree_a, "tree_a"), (tree_b, "tree_b"))]
    a, b = (as_hierarchy(t, name) for t, name in zip((tree_a, tree_b), names or defaults))
    return align_hierarchies(a, b)


def _ks(k, a, b) -> list[int]:
    """The cuts compared: those given, or every k from 2 to n - 1 that both trees have."""
    common = sorted(set(a.ks.tolist()) & set(b.ks.tolist()))
    if k is None:
        out = [v for v in common if 2 <= v <= a.n - 1]
        if not out:
            raise ValueError(f"the trees have no cut in common with 2 <= k <= n - 1 = {a.n - 1}"
                             f" ({a.name}: {a.ks.tolist()[:8]}, {b.name}: {b.ks.tolist()[:8]})")
        return out
    out = sorted({int(v) for v in np.atleast_1d(k)})
    bad = [v for v in out if not 2 <= v <= a.n - 1]
    if bad:
        raise ValueError(f"k: cuts into {bad} clusters have a null law of one point: give k "
                         f"between 2 and n - 1 = {a.n - 1}")
    for tree in (a, b):
        missing = [v for v in out if v not in set(tree.ks.tolist())]
        if missing:
            raise ValueError(f"k: {tree.name} has no cut into {missing} clusters")
    return out


class _PairCurves:
    """The curve of an index of the pair counts at the cuts ks, from passes over the merges
    (two trees given as linkages)."""

    def __init__(self, rec, opt, a, b, ks):
        self.rec, self.opt, self.n, self.ks = rec, opt, a.n, ks
        self.steps = a.n - np.asarray(ks)  # cut into k clusters = after n - k merges
        self.arrays = merge_arrays(a, b)
        sa, sb = size_power_sums(a), size_power_sums(b)
        self.sums = [np.asarray(s[p][self.steps], dtype=float) for s in (sa, sb) for p in (2, 3)]
        self.p = (sa[2][self.steps] - a.n) // 2
        self.q = (sb[2][self.steps] - a.n) // 2

    def values(self, together) -> np.ndarray:
        st = pair_state_of_pair_counts(together, self.p, self.q, self.n)
        return np.asarray(self.rec.func(st, **self.opt), dtype=float)

    def observed(self) -> np.ndarray:
        return self.permuted(np.arange(self.n, dtype=np.int64)[None, :])[0]

    def moments(self):
        """Exact null mean and sd at each cut: Fowlkes & Mallows' for Bk; for another index
        affine in a11, its values at E[a11] and at E[a11] + sd[a11]."""
        n = self.n
        mean_b, var_b = fowlkes_mallows_moments(n, *self.sums)
        if self.rec.name == "fowlkes_mallows":
            return mean_b, np.sqrt(np.maximum(var_b, 0.0))
        P, Q = 2.0 * self.p, 2.0 * self.q  # P_k = sum a^2 - n = 2 p
        mean11 = P * Q / (2 * n * (n - 1))  # E[a11] = E[T_k] / 2, T_k = Bk sqrt(P_k Q_k)
        sd11 = np.sqrt(np.maximum(var_b, 0.0)) * np.sqrt(P * Q) / 2
        m = self.values(mean11)
        return m, np.abs(self.values(mean11 + sd11) - m)

    def permuted(self, perms) -> np.ndarray:
        return self.values(passes(self.arrays, perms, self.steps))


class _TableCurves:
    """The curve of any table index at the cuts ks, cut by cut (one batched tabulation of
    many permutations per cut)."""

    def __init__(self, rec, opt, a, b, ks):
        self.rec, self.opt, self.ks = rec, opt, ks
        self.A, self.B = a.cuts(ks), b.cuts(ks)

    def permuted(self, perms) -> np.ndarray:
        perms = np.asarray(perms)
        P = len(perms)
        out = np.empty((P, len(self.ks)))
        for i, kk in enumerate(self.ks):
            codes = (self.A[i][None, :] * kk + self.B[i][perms]
                     + (np.arange(P) * kk * kk)[:, None])
            counts = np.bincount(codes.ravel(), minlength=P * kk * kk).reshape(P, kk, kk)
            out[:, i] = evaluate_checked(self.rec, counts, self.opt)
        return out

    def observed(self) -> np.ndarray:
        return self.permuted(np.arange(self.A.shape[1])[None, :])[0]

    def moments(self):
        if not self.rec.linear:
            return None
        mean, sd = np.empty(len(self.ks)), np.empty(len(self.ks))
        for i, kk in enumerate(self.ks):
            rows = np.bincount(self.A[i], minlength=kk)
            cols = np.bincount(self.B[i], minlength=kk)
            mom = index_moments(self.rec.name, rows, cols, **self.opt)
            mean[i], sd[i] = mom["mean"], math.sqrt(max(mom["var"], 0.0))
        return mean, sd


#: Bytes per cell of the (permutations + 1) x cuts curves while the envelope is ranked: the
#: values, their sorted copy, two counts and the sorted extremeness keys.
ENVELOPE_BYTES_PER_CELL = 44


def _check_memory(n_permutations: int, cuts: int) -> None:
    """Refuse, before any work, an envelope larger than the memory this machine has."""
    need = ENVELOPE_BYTES_PER_CELL * (n_permutations + 1) * cuts
    avail = _memory.available_memory()
    if avail is not None and need > _memory.USABLE_SHARE * avail:
        raise MemoryError(
            f"the simultaneous band of {n_permutations} permutations at {cuts:,} cuts needs "
            f"about {need / 2**30:.1f} GiB and {avail / 2**30:.1f} GiB are available: give "
            "fewer cuts (k=, e.g. range(2, 1001): the coarse cuts are where trees differ), "
            "fewer permutations, or n_permutations=0 for the moments' bands alone")


def _counts_beyond(values: np.ndarray, ref: np.ndarray):
    """For each row of ``values`` (R, m), how many rows of ``ref`` (P, m) are >= it and <= it,
    cut by cut (ties counted: the values come from one formula, so equal tables tie)."""
    srt = np.sort(ref, axis=0)
    P = ref.shape[0]
    ge = np.empty(values.shape, dtype=np.int64)
    le = np.empty(values.shape, dtype=np.int64)
    for j in range(values.shape[1]):
        col = srt[:, j]
        ge[:, j] = P - np.searchsorted(col, values[:, j], side="left")
        le[:, j] = np.searchsorted(col, values[:, j], side="right")
    return ge, le


def _pvalues(ge, le, P: int, alternative: str, plus_one: bool):
    """Per-cut permutation p-values from the counts beyond: (1 + count) / (P + 1) for the
    observed curve (``plus_one``), count / P for a permuted curve among the permutations."""
    if plus_one:
        g, l_ = (1 + ge) / (P + 1), (1 + le) / (P + 1)
    else:
        g, l_ = ge / P, le / P
    if alternative == "greater":
        return g
    if alternative == "less":
        return l_
    return np.minimum(1.0, 2 * np.minimum(g, l_))


def _order_statistics(srt_desc, srt_asc, j_high, j_low):
    """Band edges at each cut from the permuted values sorted both ways: the j-th largest
    (``j_high``) and the j-th smallest (``j_low``); +-inf where j < 1 (no value is beyond) or
    where the side is not asked (None)."""
    P = srt_desc.shape[0]
    out = []
    for j, srt, edge in ((j_high, srt_desc, np.inf), (j_low, srt_asc, -np.inf)):
        out.append(np.full(srt.shape[1], edge) if j is None or j < 1 else srt[min(j, P) - 1])
    return out


def _extremeness(counts_ge, counts_le, alternative: str) -> np.ndarray:
    """Each curve's pointwise extremeness at each cut, as a count of curves at least as far
    out in the direction tested (smaller is more extreme)."""
    if alternative == "greater":
        return counts_ge
    if alternative == "less":
        return counts_le
    return np.minimum(counts_ge, counts_le)


def _envelope(obs, permuted, alpha: float, alternative: str):
    """The global extreme rank length envelope: (band_low, band_high, global p).

    The observed curve and the permuted ones form a pool of N curves, exchangeable under
    the null. Each curve's pointwise counts (how many curves of the pool are at least as
    far out at that cut) are sorted increasingly; curves are ordered by these vectors
    lexicographically (the extreme rank length: the curve with the smallest count, ties
    broken by the next smallest, ...). The global p-value is the share of curves at least
    as extreme as the observed one; the band is the range, cut by cut, of the curves whose
    p-value is above alpha.
    """
    pool = np.vstack([obs[None, :], permuted])
    N, m = pool.shape
    ge, le = _counts_beyond(pool, pool)
    score = np.sort(_extremeness(ge, le, alternative), axis=1).astype(">u4")
    keys = np.ascontiguousarray(score).view(np.dtype((np.void, 4 * m))).ravel()
    _, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    pvalue = np.cumsum(counts)[inverse.ravel()] / N  # share at least as extreme
    kept = pool[pvalue > alpha + 1e-12]
    low = kept.min(axis=0) if alternative != "greater" else np.full(m, -np.inf)
    high = kept.max(axis=0) if alternative != "less" else np.full(m, np.inf)
    return low, high, float(pvalue[0])


def compare_hierarchies(tree_a, tree_b, index="fowlkes_mallows", k=None, method="auto",
                        alpha=0.05, n_permutations=999, seed=None, *, alternative="two-sided",
                        names=None, n_sim=None, n_jobs=None, progress=False, **options) -> HierarchyComparison:
    """Compare two hierarchical clusterings at every cut, with pointwise and simultaneous bands.

    At each k both trees are cut into k clusters and the index is computed on the
    contingency table n_ij of the two cuts. By default the index is Fowlkes & Mallows' Bk:

    .. math:: B_k = \\frac{T_k}{\\sqrt{P_k Q_k}}, \\quad T_k = \\sum_{ij} n_{ij}^2 - n,
              \\; P_k = \\sum_i n_{i+}^2 - n, \\; Q_k = \\sum_j n_{+j}^2 - n,

    with Fowlkes & Mallows' exact null mean and variance under the permutation model
    (``clusteragree.inference.hierarchies.fowlkes_mallows_moments``); every index affine in the pair counts has its exact
    moments too. For an index of the pair counts and two trees given as linkages, every
    cut comes from one pass over the merges, O(n log n) (``clusteragree.inputs.tree_cuts``):
    all cuts of two trees of 10,000 leaves in a fraction of a second.

    The null: tree b's leaves relabelled at random (one permutation relabels every cut of b
    at once). The simultaneous band is a global envelope (Myllymaki et al. 2017's extreme
    rank length envelope) from ``n_permutations`` such joint permutations: the observed
    curve and the permuted ones are ranked at every cut (in ``alternative``'s direction),
    each curve's pointwise ranks sorted from its most extreme, and the curves ordered by
    these sorted ranks; ``global_pvalue`` is the share of curves at least as extreme as the
    observed one, and the band, cut by cut, is the range of the curves whose global
    p-value is above alpha. The null curve leaves it somewhere with probability at most
    alpha (the family-wise error of "outside the band at some k"; a benchmark measures
    it). Unlike a band of mean +- q sd, it follows each cut's own (skewed, discrete) law.

    Parameters
    ----------
    tree_a, tree_b : linkage matrix, AgglomerativeClustering, nested partitions or Hierarchy
        The two trees (``clusteragree.inputs.trees.as_hierarchy``), on the same leaves:
        aligned by label when both name them (partitions as pandas Series, or ``Hierarchy``
        records built with ``leaves=``), else by position.
    index : str, default "fowlkes_mallows"
        An index of the contingency table (``ca.list_indices()``).
    k : int or sequence of int, optional
        The cuts compared (default: every k from 2 to n - 1 that both trees have).
    method : str, default "auto"
        The per-cut p-values: "auto" gives each cut the package's own test
        (``agreement_test``: the exact law where it fits, else Monte Carlo) when there are
        at most 20 cuts (as ``k=`` gives), and otherwise the joint permutations' p-value; "permutation" the
        joint permutations' p-value (1 + count) / (P + 1) at every cut; "normal" the normal
        approximation from the exact moments (the Bk plot's classical line); or any method
        of ``agreement_test`` ("exact", "patefield", ...) at every cut.
    alpha : float, default 0.05
        The level of both bands (pointwise: alpha / 2 in each tail when two-sided).
    n_permutations : int, default 999
        Joint permutations of tree b's leaves for the simultaneous band (0: no permutation,
        no simultaneous band; the pointwise band is then the normal band of the moments).
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The only source of randomness (the permutations, then the per-cut tests).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        The direction of the bands, of the global test and of the per-cut tests:
        "two-sided" an envelope of the null curve; "greater" the upper line of the Bk plot
        (agreement beyond chance).
    names : (str, str), optional
        The two trees' names in the printed result, the plot and the sentence (default: the
        names of ``Hierarchy`` records, else "tree_a" and "tree_b").
    n_sim : int, optional
        Monte Carlo size of the per-cut tests, when they are run (default: the method's
        own).
    n_jobs : int, optional
        Processes for the joint permutations (joblib; default 1). The same seed gives the
        same result whatever n_jobs.
    progress : bool, default False
        A progress bar (tqdm) over the permutations.
    **options
        The index's options.

    Returns
    -------
    HierarchyComparison
        ``curve`` (one row per k: ``k``, ``statistic``, ``null_mean``, ``null_sd``,
        ``pvalue``, ``pvalue_method``, ``band_low_pointwise``, ``band_high_pointwise``,
        ``band_low``, ``band_high``), ``global_pvalue``, ``to_frame()``,
        ``plot()``, ``sentence()``.

    Raises
    ------
    ValueError
        Trees on different leaves, an index that is not an index of the table, cuts that a
        tree does not have, or a cut-by-cut computation too large to run (the message says
        how large and what to give instead).
    MemoryError
        A simultaneous band larger than this machine's memory (the message says how much
        it needs and what to give instead).

    See Also
    --------
    agreement_test : The test of one cut.
    cophenetic_test : The trees' cophenetic correlation, with a Mantel test.

    References
    ----------
    Fowlkes, E. B. & Mallows, C. L. (1983), "A method for comparing two hierarchical
    clusterings", Journal of the American Statistical Association 78, 553-569.

    Myllymaki, M., Mrkvicka, T., Grabarnik, P., Seijo, H. & Hahn, U. (2017), "Global envelope
    tests for spatial processes", Journal of the Royal Statistical Society B 79, 381-404.

    Examples
    --------
    >>> from scipy.cluster.hierarchy import linkage
    >>> X = ca.load_dataset("iris")[0].iloc[::5].to_numpy()
    >>> res = ca.compare_hierarchies(linkage(X, "ward"), linkage(X, "single"), k=[2, 3, 6],
    ...                              n_permutations=199, seed=1)
    >>> res.curve[["k", "statistic"]].round(3).to_dict("list")
    {'k': [2, 3, 6], 'statistic': [1.0, 0.723, 0.816]}
    >>> bool((res.curve["statistic"] > res.curve["band_high"]).all())
    True
    """
    index_names, _, recs, opts = resolve_call(index, dict(options))
    rec, opt = recs[0], opts[index_names[0]]
    if rec.on_pairs:
        raise ValueError(f"index {rec.name!r} compares two clusterings' memberships or "
                         "matrices; the cuts of trees are compared by an index of their "
                         "contingency table")
    alpha = check_fraction(alpha, "alpha")
    alternative = check_choice(alternative, "alternative", ALTERNATIVES)
    method = str(method)
    if n_permutations != 0:
        n_permutations = check_positive_int(n_permutations, "n_permutations")
    if method == "permutation" and n_permutations == 0:
        raise ValueError("method='permutation' takes each cut's p-value from the joint "
                         "permutations: give n_permutations >= 1 (e.g. 999)")
    n_jobs = 1 if n_jobs is None else check_positive_int(n_jobs, "n_jobs")
    rng = check_seed(seed)
    a, b = read_trees(tree_a, tree_b, names)
    ks = _ks(k, a, b)
    n, m = a.n, len(ks)
    fast = (rec.statistic == "s" and a.linkage is not None and b.linkage is not None
            and n >= 4)
    curves = _PairCurves(rec, opt, a, b, ks) if fast else _TableCurves(rec, opt, a, b, ks)
    if not fast and n_permutations * m * n > MAX_TABULATED:
        raise ValueError(
            f"{n_permutations} permutations of {m} cuts of {n} leaves tabulated cut by cut "
            f"is {n_permutations * m * n:.3g} cells: give fewer cuts (k=), fewer "
            "permutations, or an index of the pair counts on trees given as linkages "
            "(one pass over the merges serves every cut)")
    _check_memory(n_permutations, m)
    stat = curves.observed()
    moments = curves.moments()
    permuted = _joint_permutations(curves, n, n_permutations, rng, n_jobs, progress)
    if moments is None:  # no closed form: the moments of the permuted curves
        moments = (permuted.mean(axis=0), permuted.std(axis=0, ddof=1)) if len(permuted) \
            else (np.full(m, np.nan), np.full(m, np.nan))
        moment_source = f"Monte Carlo ({n_permutations} joint permutations)"
    else:
        moment_source = ("exact (Fowlkes & Mallows 1983)" if rec.name == "fowlkes_mallows"
                         else "exact (affine in the pair counts)" if fast
                         else "exact (affine in its statistic)")
    mean, sd = moments
    curve = pd.DataFrame({"k": ks, "statistic": stat, "null_mean": mean, "null_sd": sd})
    _per_cut(curve, a, b, rec, method, alpha, alternative, permuted, rng, n_sim, options)
    if n_permutations:
        low, high, global_p = _envelope(stat, permuted, alpha, alternative)
        lo_r, hi_r = rec.range
        curve["band_low"] = _clip_tested(low, lo_r, hi_r)
        curve["band_high"] = _clip_tested(high, lo_r, hi_r)
    else:
        global_p = math.nan
    return HierarchyComparison(
        curve=curve, index=rec.name, names=(a.describe(), b.describe()), n=n, alpha=alpha,
        n_permutations=n_permutations, global_pvalue=global_p,
        method=method, moments=moment_source, alternative=alternative,
        all_cuts_pass=fast)


def _clip_tested(edge, lo: float, hi: float) -> np.ndarray:
    """A band edge within the index's range; an infinite edge (the side a one-sided
    alternative does not test: no limit there) stays infinite."""
    edge = np.asarray(edge, dtype=float)
    return np.where(np.isinf(edge), edge, np.clip(edge, lo, hi))


def _per_cut(curve, a, b, rec, method, alpha, alternative, permuted, rng, n_sim,
             options) -> None:
    """The per-cut p-values and the pointwise band, in place."""
    from scipy.stats import norm

    m = len(curve)
    P = len(permuted)
    tested = method not in METHODS_OF_CUTS or (method == "auto" and m <= MAX_TESTED_CUTS)
    if method == "auto" and not tested:
        method = "permutation" if P else "normal"
    lo_r, hi_r = rec.range
    if tested:
        A, B = (a.cuts(curve["k"]), b.cuts(curve["k"]))
        rows = []
        for i in range(m):
            res = agreement_test(A[i], B[i], index=rec.name, method=method, seed=rng,
                                 n_sim=n_sim, alternative=alternative, **options)
            nd = res.null
            if nd.has_law:
                qs = [alpha / 2, 1 - alpha / 2] if alternative == "two-sided" else \
                    [alpha, 1 - alpha]
                low, high = (float(v) for v in np.atleast_1d(nd.quantile(qs)))
                how = "exact quantiles" if nd.is_exact else f"{nd.method} quantiles"
            else:
                z = norm.ppf(1 - alpha / (2 if alternative == "two-sided" else 1))
                low, high = curve["null_mean"][i] - z * curve["null_sd"][i], \
                    curve["null_mean"][i] + z * curve["null_sd"][i]
                how = "normal (exact moments)"
            rows.append((res.pvalue, res.pvalue_detail.method, low, high, how))
        pv, pm, low, high, how = map(list, zip(*rows))
    elif method == "permutation":
        ge, le = _counts_beyond(curve["statistic"].to_numpy()[None, :], permuted)
        pv = _pvalues(ge, le, P, alternative, plus_one=True)[0]
        pm = f"Monte Carlo ({P} joint permutations)"
        # outside at level alpha: (1 + count beyond) / (P + 1) <= alpha (per tail when
        # two-sided), i.e. beyond the j-th most extreme permuted value
        srt = np.sort(permuted, axis=0)
        j = math.floor(alpha * (P + 1) / (2 if alternative == "two-sided" else 1) + 1e-9)
        high, low = _order_statistics(srt[::-1], srt, j, j)
        how = "Monte Carlo quantiles (joint permutations)"
    else:  # normal, from the exact moments
        z = (curve["statistic"] - curve["null_mean"]) / curve["null_sd"].where(
            curve["null_sd"] > 0)
        upper, lower = norm.sf(z.fillna(0)), norm.cdf(z.fillna(0))
        pv = {"greater": upper, "less": lower}.get(alternative,
                                                   np.minimum(1, 2 * np.minimum(upper, lower)))
        # a tail beyond the doubles' range is given as the smallest positive double, never 0
        pv = np.maximum(np.where(curve["null_sd"] > 0, pv, 1.0), np.finfo(float).tiny)
        pm = "normal approximation (exact moments)"
        zq = norm.ppf(1 - alpha / (2 if alternative == "two-sided" else 1))
        low = curve["null_mean"] - zq * curve["null_sd"]
        high = curve["null_mean"] + zq * curve["null_sd"]
        how = "normal (exact moments)"
    if alternative == "greater":
        low = np.full(m, -np.inf)
    elif alternative == "less":
        high = np.full(m, np.inf)
    curve["pvalue"] = np.asarray(pv, dtype=float)
    curve["pvalue_method"] = pm
    curve["band_low_pointwise"] = _clip_tested(low, lo_r, hi_r)
    curve["band_high_pointwise"] = _clip_tested(high, lo_r, hi_r)
    curve["pointwise_method"] = how


def _permuted_chunk(curves, perms) -> np.ndarray:
    """The curves of a chunk of permutations, scored in batches of at most BATCH_CELLS
    cells (the cut-by-cut path's tables) or all at once (the pass)."""
    if isinstance(curves, _PairCurves):
        return curves.permuted(perms)
    per = max(1, BATCH_CELLS // max(max(curves.ks) ** 2, perms.shape[1]))
    return np.concatenate([curves.permuted(perms[i:i + per])
                           for i in range(0, len(perms), per)], axis=0)


#: Permutations drawn at a time (the same stream whatever the path and n_jobs).
CHUNK = 32


def _joint_permutations(curves, n: int, n_permutations: int, rng, n_jobs: int,
                        progress: bool) -> np.ndarray:
    """The curve for each joint permutation of tree b's leaves, (P, cuts): the permutations
    drawn here in one stream, CHUNK at a time (the same whatever n_jobs and path)."""
    m = len(curves.ks)
    if n_permutations == 0:
        return np.empty((0, m))

    def chunks():
        done = 0
        while done < n_permutations:
            P = min(CHUNK, n_permutations - done)
            yield rng.permuted(np.tile(np.arange(n, dtype=np.int64), (P, 1)), axis=1)
            done += P

    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n_permutations, desc="joint permutations of tree_b's leaves",
                   unit="perm", disable=None)
    if n_jobs > 1 and n_permutations > CHUNK:
        from joblib import Parallel, delayed

        results = Parallel(n_jobs=n_jobs, return_as="generator")(
            delayed(_permuted_chunk)(curves, c) for c in chunks())
    else:
        results = (_permuted_chunk(curves, c) for c in chunks())
    out = []
    for r in results:
        out.append(r)
        if bar is not None:
            bar.update(len(r))
    if bar is not None:
        bar.close()
    return np.concatenate(out, axis=0)
