"""Two hierarchical clusterings compared at every cut: Fowlkes & Mallows' Bk plot with exact
per-cut null laws and a simultaneous band across the cuts.

At each k the two trees are cut into k clusters and their contingency table is scored by the
index (Bk, the Fowlkes-Mallows index, by default). Under the permutation model (the leaves of
one tree relabelled at random; both cuts' cluster sizes fixed) each cut has the package's own
null law (``agreement_test``) and, for an index affine in s = sum n_ij^2 or t, its exact
mean and variance (``clusteragree.nulls.index_moments``). The simultaneous band comes from
joint permutations of tree_b's leaves: one permutation relabels every cut of tree_b at once,
so the maximum over k of |z_k| has the joint law across k, and its 1 - alpha quantile gives a
band whose family-wise error is alpha.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .._validate import check_fraction, check_positive_int, check_seed
from ..indices import evaluate_checked, resolve_call
from ..inputs.trees import align_hierarchies, as_hierarchy
from ..nulls import index_moments
from .agreement_tests import agreement_test
from .hierarchy_results import HierarchyComparison

__all__ = ["compare_hierarchies"]

#: Cells of the batches of permuted tables (permutations x k x k) built at once.
BATCH_CELLS = 4_000_000


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


def _table(x: np.ndarray, y: np.ndarray, k: int) -> np.ndarray:
    return np.bincount(x * k + y, minlength=k * k).reshape(k, k)


def _pointwise(res, mean: float, sd: float, alpha: float):
    """(low, high, how) of the pointwise band of one cut: the null law's quantiles, or the
    normal band from the moments when the law is not at hand."""
    nd = res.null
    if nd.has_law:
        low, high = (float(v) for v in np.atleast_1d(nd.quantile([alpha / 2, 1 - alpha / 2])))
        return low, high, "exact quantiles" if nd.is_exact else f"{nd.method} quantiles"
    z = _normal_quantile(1 - alpha / 2)
    return mean - z * sd, mean + z * sd, "normal (moments)"


def _normal_quantile(p: float) -> float:
    from scipy.stats import norm

    return float(norm.ppf(p))


def _critical_value(maxima: np.ndarray, alpha: float) -> float:
    """The Monte Carlo critical value of max |z|: the ceil((1 - alpha)(P + 1))-th smallest of
    the P permuted maxima (the observed curve counted as one more draw), inf beyond them."""
    P = len(maxima)
    r = math.ceil((1 - alpha) * (P + 1))
    return float(np.sort(maxima)[r - 1]) if r <= P else math.inf


def compare_hierarchies(tree_a, tree_b, index="fowlkes_mallows", k=None, method="auto",
                        alpha=0.05, n_permutations=999, seed=None, *, alternative=None,
                        n_sim=None, progress=False, **options) -> HierarchyComparison:
    """Compare two hierarchical clusterings at every cut, with pointwise and simultaneous bands.

    At each k both trees are cut into k clusters and the index is computed on the
    contingency table n_ij of the two cuts. By default the index is Fowlkes & Mallows' Bk:

    .. math:: B_k = \\frac{T_k}{\\sqrt{P_k Q_k}}, \\quad T_k = \\sum_{ij} n_{ij}^2 - n,
              \\; P_k = \\sum_i n_{i+}^2 - n, \\; Q_k = \\sum_j n_{+j}^2 - n,

    affine in s = sum n_ij^2 given the margins, so its exact null mean and variance under
    the permutation model follow from those of s (E[Bk] = sqrt(P_k Q_k) / (n (n - 1)), and
    Var[Bk] = Var[s] / (P_k Q_k)), as do those of every index affine in s or in
    t = sum n_ij log n_ij; other indices take the moments of their null law. Each cut is
    tested by ``agreement_test`` (the exact law where it fits, else Monte Carlo, named).

    The simultaneous band: the leaves of tree_b are permuted ``n_permutations`` times; each
    permutation relabels every cut of tree_b at once, and gives the curve z_k = (I_k - E I_k)
    / sd I_k over the cuts; with q the 1 - alpha quantile of max_k |z_k| over the
    permutations, the band mean_k +- q sd_k holds the whole null curve with probability
    1 - alpha (the family-wise error of "outside the band at some k" is alpha), and
    ``global_pvalue`` is the permutation p-value of the observed max_k |z_k|.

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
        The per-cut tests' method (``agreement_test``): "auto" takes the exact law where it
        fits, else Monte Carlo.
    alpha : float, default 0.05
        The level of both bands (pointwise: alpha / 2 in each tail; simultaneous:
        family-wise).
    n_permutations : int, default 999
        Joint permutations of tree_b's leaves for the simultaneous band.
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The only source of randomness (the permutations, then the per-cut tests).
    alternative : {"greater", "less", "two-sided"}, optional
        The per-cut tests' alternative (default: the index's, "greater" for a similarity).
    n_sim : int, optional
        Monte Carlo size of the per-cut tests (default: the method's own).
    progress : bool, default False
        A progress bar (tqdm) over the permutations.
    **options
        The index's options.

    Returns
    -------
    HierarchyComparison
        ``curve`` (one row per k: ``k``, ``statistic``, ``null_mean``, ``null_sd``, ``pvalue``,
        ``pvalue_method``, ``band_low_pointwise``, ``band_high_pointwise``, ``band_low``,
        ``band_high``), ``critical_value``, ``global_pvalue``, ``to_frame()``, ``plot()``.

    Raises
    ------
    ValueError
        Trees on different leaves, an index that is not an index of the table, or cuts
        that a tree does not have.

    See Also
    --------
    agreement_test : The test of one cut.
    clusteragree.nulls.index_moments : The exact null moments of an index affine in s or t.

    References
    ----------
    Fowlkes, E. B. & Mallows, C. L. (1983), "A method for comparing two hierarchical
    clusterings", Journal of the American Statistical Association 78, 553-569.

    Hubert, L. & Arabie, P. (1985), "Comparing partitions", Journal of Classification 2,
    193-218.

    Westfall, P. H. & Young, S. S. (1993), "Resampling-based multiple testing: examples and
    methods for p-value adjustment", Wiley.

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
    names, _, recs, opts = resolve_call(index, dict(options))
    rec, opt = recs[0], opts[names[0]]
    if rec.on_pairs:
        raise ValueError(f"index {rec.name!r} compares two clusterings' memberships or "
                         "matrices; the cuts of trees are compared by an index of their "
                         "contingency table")
    alpha = check_fraction(alpha, "alpha")
    n_permutations = check_positive_int(n_permutations, "n_permutations")
    rng = check_seed(seed)
    a = as_hierarchy(tree_a, "tree_a" if not hasattr(tree_a, "describe") else tree_a.name)
    b = as_hierarchy(tree_b, "tree_b" if not hasattr(tree_b, "describe") else tree_b.name)
    a, b = align_hierarchies(a, b)
    ks = _ks(k, a, b)
    A, B = a.cuts(ks), b.cuts(ks)
    n, m = a.n, len(ks)
    stat, mean, sd = np.empty(m), np.empty(m), np.empty(m)
    tables = []
    for i, kk in enumerate(ks):
        t = _table(A[i], B[i], kk)
        tables.append(t)
        stat[i] = float(evaluate_checked(rec, t, opt))
        if rec.linear:
            mom = index_moments(rec.name, t.sum(axis=1), t.sum(axis=0), **opt)
            mean[i], sd[i] = mom["mean"], math.sqrt(max(mom["var"], 0.0))
        else:
            mean[i] = sd[i] = np.nan
    permuted = _permuted_values(rec, opt, A, B, ks, n_permutations, rng, progress)
    rows = []
    for i, kk in enumerate(ks):
        res = agreement_test(A[i], B[i], index=rec.name, method=method, n_sim=n_sim,
                             seed=rng, alternative=alternative, **options)
        if not rec.linear:
            mean[i], sd[i] = res.null.mean, res.null.std
        low, high, how = _pointwise(res, mean[i], sd[i], alpha)
        rows.append({"k": kk, "statistic": stat[i], "null_mean": mean[i], "null_sd": sd[i],
                     "pvalue": res.pvalue, "pvalue_method": res.pvalue_detail.method,
                     "band_low_pointwise": low, "band_high_pointwise": high,
                     "pointwise_method": how, "alternative": res.alternative})
    maxima = _max_abs_z(permuted, mean, sd)
    q = _critical_value(maxima, alpha)
    curve = pd.DataFrame(rows)
    curve["band_low"] = mean - q * sd
    curve["band_high"] = mean + q * sd
    observed = _max_abs_z(stat, mean, sd)
    global_p = (1 + int((maxima >= observed - 1e-12 * max(1.0, observed)).sum())) / (
        n_permutations + 1)
    return HierarchyComparison(
        curve=curve, index=rec.name, names=(a.describe(), b.describe()), n=n, alpha=alpha,
        n_permutations=n_permutations, critical_value=q, global_pvalue=global_p,
        method=method, moments="exact (affine in its statistic)" if rec.linear
        else "of each cut's null law")


def _max_abs_z(values: np.ndarray, mean: np.ndarray, sd: np.ndarray) -> np.ndarray:
    """max over k (the last axis) of |z_k|; cuts whose null sd is 0 count as z = 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(sd > 0, np.abs(values - mean) / np.where(sd > 0, sd, 1.0), 0.0)
    return z.max(axis=-1)


def _permuted_values(rec, opt, A, B, ks, n_permutations, rng, progress) -> np.ndarray:
    """The index at every cut for each joint permutation of tree_b's leaves, (P, m).

    A batch of permutations relabels every cut of tree_b at once; for each cut, the batch's
    tables are counted by one bincount (permutation p's cell (i, j) at p k^2 + i k + j) and
    scored by one call of the index on the batch.
    """
    n, m = A.shape[1], len(ks)
    out = np.empty((n_permutations, m))
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=n_permutations, desc="joint permutations of tree_b's leaves",
                   unit="perm", disable=None)
    kmax = max(ks)
    per = max(1, min(n_permutations, BATCH_CELLS // max(kmax * kmax, n)))
    done = 0
    while done < n_permutations:
        P = min(per, n_permutations - done)
        perms = rng.permuted(np.tile(np.arange(n), (P, 1)), axis=1)
        values = out[done:done + P]
        for i, kk in enumerate(ks):
            codes = (A[i][None, :] * kk + B[i][perms]
                     + (np.arange(P) * kk * kk)[:, None])
            counts = np.bincount(codes.ravel(), minlength=P * kk * kk).reshape(P, kk, kk)
            values[:, i] = evaluate_checked(rec, counts, opt)
        done += P
        if progress:
            bar.update(P)
    if progress:
        bar.close()
    return out
