"""Which clusters agree: each cluster of one clustering paired with one of the other.

One index says how much two clusterings agree, not where. ``cluster_agreement`` converts its
input once (``clusteragree.inputs.as_clusterings``), pairs the clusters (one-to-one by the
assignment of maximum total overlap, or each cluster with the cluster of the other side that
holds most of its objects), and computes every figure from the non-zero cells of the table and
its margins: the paired cell's overlap, Jaccard, precision, recall and F1, its exact
hypergeometric p-value, the splits and merges, and the decomposition of the pair-counting
indices into cluster-level indices (Warrens & van der Hoef 2022). A sparse table of 10**4 x
10**4 clusters takes seconds. ``ClusterAgreement`` (``clusteragree.inference.cluster_results``)
holds, prints and draws the result.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .._docs import fill_doc
from .._validate import check_choice, check_real
from ..inputs import as_clusterings
from .cluster_results import ClusterAgreement
from .matrix import adjusted_pvalues, check_multiple
from .results import ResultsFrame

__all__ = ["cluster_agreement", "pair_decomposition", "MATCHES", "DECOMPOSED", "CLUSTER_COLUMNS"]

#: How the clusters of x and y are paired.
MATCHES = ("one-to-one", "majority")

#: The indices ``decomposition`` writes as weighted sums of cluster-level indices.
DECOMPOSED = ("rand", "adjusted_rand", "wallace_x", "wallace_y")

#: The columns of ``ClusterAgreement.to_frame()``: one row per cluster of each side.
CLUSTER_COLUMNS = ("side", "cluster", "partner", "size", "partner_size", "overlap", "jaccard",
                   "precision", "recall", "f1", "pvalue", "pvalue_adjusted", "log10_pvalue",
                   "note")


class _Cells:
    """The non-zero cells of a table (row, column, count; row-major order) and its margins."""

    def __init__(self, tab):
        coo = tab.cells.tocoo()
        rows, cols = coo.row.astype(np.int64), coo.col.astype(np.int64)
        values = coo.data.astype(np.int64)
        self.K, self.Q = tab.shape
        keys = rows * self.Q + cols
        if keys.size > 1 and np.any(np.diff(keys) <= 0):  # row-major, for ``lookup``
            order = np.argsort(keys, kind="stable")
            rows, cols, values, keys = rows[order], cols[order], values[order], keys[order]
        self.rows, self.cols, self.values, self.keys = rows, cols, values, keys
        self.a = np.asarray(tab.row_sums, dtype=np.int64)
        self.b = np.asarray(tab.col_sums, dtype=np.int64)
        self.n = int(tab.n)

    def lookup(self, i: np.ndarray, j: np.ndarray) -> np.ndarray:
        """n_ij of the cells (i, j) (0 where a cell is empty)."""
        keys = i.astype(np.int64) * self.Q + j
        at = np.searchsorted(self.keys, keys)
        found = at < self.keys.size
        found[found] = self.keys[at[found]] == keys[found]
        out = np.zeros(keys.size, dtype=np.int64)
        out[found] = self.values[at[found]]
        return out


def _label_rank(labels) -> np.ndarray:
    """Each label's rank in sorted order (labels that do not sort: their order in the table)."""
    labels = np.asarray(labels)
    try:
        order = np.argsort(labels, kind="stable")
    except TypeError:
        return np.arange(labels.size)
    rank = np.empty(labels.size, dtype=np.int64)
    rank[order] = np.arange(labels.size)
    return rank


def _one_to_one(tab, cells: _Cells) -> tuple[np.ndarray, np.ndarray, str]:
    """The pairing of maximum total overlap: each cluster's partner (-1: none), and how.

    A dense table: ``scipy.optimize.linear_sum_assignment``. A sparse one:
    ``scipy.sparse.csgraph.min_weight_full_bipartite_matching`` on its non-zero cells, with a
    dummy column for each row (cost M, a real cell M - n_ij, M above every count): every row
    can then be matched, so a full matching exists, and its minimum cost K M - sum n_ij is the
    maximum total overlap. Pairs of empty cells (an assignment of a dense table may make them
    when K != Q) are not pairs: those clusters have no partner."""
    K, Q = cells.K, cells.Q
    if tab.dense:
        from scipy.optimize import linear_sum_assignment

        r, c = linear_sum_assignment(np.asarray(tab.counts), maximize=True)
        how = "scipy's linear_sum_assignment"
    else:
        from scipy import sparse
        from scipy.sparse.csgraph import min_weight_full_bipartite_matching

        big = float(cells.values.max()) + 1.0
        rows = np.concatenate([cells.rows, np.arange(K)])
        cols = np.concatenate([cells.cols, Q + np.arange(K)])
        cost = np.concatenate([big - cells.values, np.full(K, big)])
        graph = sparse.csr_array((cost, (rows, cols)), shape=(K, Q + K))
        r, c = min_weight_full_bipartite_matching(graph)
        keep = c < Q
        r, c = r[keep], c[keep]
        how = "scipy's min_weight_full_bipartite_matching on the non-zero cells"
    r, c = np.asarray(r, dtype=np.int64), np.asarray(c, dtype=np.int64)
    keep = cells.lookup(r, c) > 0
    px, py = np.full(K, -1, dtype=np.int64), np.full(Q, -1, dtype=np.int64)
    px[r[keep]], py[c[keep]] = c[keep], r[keep]
    return px, py, how


def _majority(tab, cells: _Cells) -> tuple[np.ndarray, np.ndarray]:
    """Each cluster's partner: the cluster of the other side holding most of its objects, a
    tie to the lower label (the first in the table's order where labels do not sort)."""
    row_rank, col_rank = _label_rank(tab.row_labels), _label_rank(tab.col_labels)

    def first(group, other_rank, size):
        order = np.lexsort((other_rank, -cells.values, group))
        g = group[order]
        starts = np.flatnonzero(np.r_[True, g[1:] != g[:-1]])
        out = np.full(size, -1, dtype=np.int64)
        out[g[starts]] = order[starts]  # the cell of each group's partner
        return out

    at_x = first(cells.rows, col_rank[cells.cols], cells.K)
    at_y = first(cells.cols, row_rank[cells.rows], cells.Q)
    return cells.cols[at_x], cells.rows[at_y]


#: The most terms ``_upper_tail`` sums for a cell before it leaves the cell to scipy.
_TAIL_TERMS = 400


def _log_choose(m: np.ndarray, k: np.ndarray) -> np.ndarray:
    """log C(m, k) through the beta function (as scipy's hypergeom computes its log pmf:
    accurate where log-gammas of large m would cancel)."""
    from scipy.special import betaln

    return -np.log1p(m) - betaln(m - k + 1, k + 1)


def _upper_tail(v, n, a, b):
    """log P(N >= v), N ~ Hypergeom(n, a, b), by summing the pmf upward from v, for the cells
    whose terms fall from the first (v above the mode); NaN where they do not, or where
    ``_TAIL_TERMS`` terms do not reach 1e-17 of the sum (scipy takes those).

    The terms follow p(k + 1) / p(k) = (a - k)(b - k) / ((k + 1)(n - a - b + k + 1)), a ratio
    that falls with k, so above the mode each sum is a short, geometrically converging one:
    a paired cell holds more objects than chance would put there, so nearly every cell is
    one of these. The first term's log-binomials come through the beta function (scipy's
    ``hypergeom.logpmf`` does the same): about 1e-9 in log p for n near 10**6, 1e-13 for
    n near 100, the digits of scipy's ``hypergeom.sf`` (Boost, ~0.3 ms a cell) and far more
    than a printed p-value shows, at a few microseconds a cell."""
    v, a, b = (np.asarray(t, dtype=np.float64) for t in (v, a, b))
    out = np.full(v.size, np.nan)
    top = np.minimum(a, b)
    first = _log_choose(a, v) + _log_choose(n - a, b - v) - _log_choose(np.float64(n), b)
    ratio0 = (a - v) * (b - v) / ((v + 1) * (n - a - b + v + 1))
    live = np.flatnonzero(ratio0 < 1)
    total = np.ones(live.size)
    term = np.ones(live.size)
    k = v[live].copy()
    going = np.arange(live.size)  # positions (in ``live``) still summing
    for _ in range(_TAIL_TERMS):
        going = going[k[going] < top[live][going]]
        if going.size == 0:
            break
        at = live[going]
        kk = k[going]
        term[going] *= (a[at] - kk) * (b[at] - kk) / ((kk + 1) * (n - a[at] - b[at] + kk + 1))
        total[going] += term[going]
        k[going] = kk + 1
        going = going[term[going] > 1e-17 * total[going]]
    done = np.ones(live.size, dtype=bool)
    done[going] = False  # still summing: scipy takes them
    out[live[done]] = first[live[done]] + np.log(total[done])
    return out


def _hypergeometric(cells: _Cells, i: np.ndarray, j: np.ndarray, v: np.ndarray):
    """P(N_ij >= n_ij), N_ij ~ Hypergeom(n, a_i, b_j), and its log10 (finite where the
    p-value underflows to 0): the upward sum of ``_upper_tail`` where it applies, scipy's
    ``hypergeom.sf`` and ``logsf`` elsewhere."""
    from scipy.stats import hypergeom

    a, b = cells.a[i], cells.b[j]
    log_p = _upper_tail(v, cells.n, a, b)
    rest = np.isnan(log_p)
    p = np.exp(log_p)
    if rest.any():
        p[rest] = hypergeom.sf(v[rest] - 1, cells.n, a[rest], b[rest])
        log_p[rest] = np.log(p[rest])
        under = rest & (p == 0)
        if under.any():  # below the smallest double: the log tail says how far
            log_p[under] = hypergeom.logsf(v[under] - 1, cells.n, a[under], b[under])
    p = np.minimum(p, 1.0)
    return p, np.minimum(log_p, 0.0) / math.log(10)


def _splits(tab, cells: _Cells, share: float) -> pd.DataFrame:
    """The clusters of x spread over two or more clusters of y each holding at least ``share``
    of it ("split"), and the clusters of y holding two or more clusters of x each at least
    ``share`` of it ("merge"): one row per part, the largest first."""
    frames = []
    for side, kind, group, other, sizes, labels, other_labels in (
            ("x", "split", cells.rows, cells.cols, cells.a, tab.row_labels, tab.col_labels),
            ("y", "merge", cells.cols, cells.rows, cells.b, tab.col_labels, tab.row_labels)):
        part_share = cells.values / sizes[group]
        big = part_share >= share
        many = np.bincount(group[big], minlength=sizes.size) >= 2
        keep = big & many[group]
        order = np.lexsort((-part_share[keep], group[keep]))
        g, o = group[keep][order], other[keep][order]
        frames.append(pd.DataFrame({
            "side": side, "cluster": pd.array(np.asarray(labels, dtype=object)[g], dtype=object),
            "kind": kind, "part": pd.array(np.asarray(other_labels, dtype=object)[o],
                                           dtype=object),
            "overlap": cells.values[keep][order], "share": part_share[keep][order]}))
    out = pd.concat(frames, ignore_index=True)
    return out.astype({"overlap": "int64", "share": "float64"})


def _notes(splits: pd.DataFrame, side: str, labels, names) -> list:
    """Each cluster's split or merge in words, naming the other clustering ("" for the
    others)."""
    notes = dict.fromkeys(range(len(labels)), "")
    part = splits[splits["side"] == side]
    if part.empty:
        return list(notes.values())
    index = {lab: k for k, lab in enumerate(np.asarray(labels, dtype=object).tolist())}
    other = names[1] if side == "x" else names[0]
    for label, rows in part.groupby("cluster", sort=False):
        words = ", ".join(f"{p} ({s:.0%})" for p, s in zip(rows["part"], rows["share"]))
        verb = "split over" if side == "x" else "merges"
        notes[index[label]] = f"{verb} {other} {words}"
    return list(notes.values())


def _choose2(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, dtype=np.float64)
    return v * (v - 1) / 2


def pair_decomposition(table) -> pd.DataFrame:
    """Write the pair-counting indices of a table as weighted sums of cluster-level indices.

    With a_i, b_j the cluster sizes of x and y, n_ij the cells, C(m, 2) = m (m - 1) / 2,
    t_i = sum_j C(n_ij, 2), s_j = sum_i C(n_ij, 2), P = sum_i C(a_i, 2), R = sum_j C(b_j, 2)
    and N = C(n, 2), each index I is sum of weight * value over its rows, exactly:

    * ``wallace_x`` (a11 / P) over the clusters of x: value t_i / C(a_i, 2) (of the pairs
      inside cluster i of x, the share also together in y), weight C(a_i, 2) / P; and
      ``wallace_y`` likewise over the clusters of y (Warrens & van der Hoef 2022).
    * ``adjusted_rand`` over the clusters of both sides: the adjusted Wallace value of cluster
      i of x, (t_i / C(a_i, 2) - R / N) / (1 - R / N) (its chance-corrected share under fixed
      margins, where E[t_i] = C(a_i, 2) R / N), weight C(a_i, 2) (1 - R / N) / D, and those
      of y with P and R swapped, where D = P + R - 2 P R / N; the weights sum to 1, since the
      ARI is the weighted mean of the two adjusted Wallace indices (Warrens & van der Hoef
      2022; the ARI is also their harmonic mean).
    * ``rand`` over the clusters of both sides: cluster i of x takes part in the C(a_i, 2)
      pairs inside it and, half each with the other cluster, in the a_i (n - a_i) pairs
      across it; its value is the share of those pairs that y treats alike (together inside,
      apart across: t_i + (a_i (n - a_i) - sum_j n_ij (b_j - n_ij)) / 2 of them), its weight
      their number / (2 N); likewise for y. Each side's rows alone sum to the Rand index,
      so the two sides are weighted one half each. (This construction is the package's own,
      checked against the overall index by the tests; it is not taken from the paper.)

    A cluster of one object has no pair inside it: its Wallace and adjusted values are NaN
    with weight 0. Where the overall index's denominator is 0 (a clustering that is all
    singletons, or one cluster, for the adjusted indices) the weights are NaN: the index is
    then set by convention, not by the clusters.

    Parameters
    ----------
    table : ContingencyTable or SparseContingencyTable
        The table of x (rows) and y (columns); only its non-zero cells and margins are read.

    Returns
    -------
    DataFrame
        Columns ``index`` (one of ``DECOMPOSED``), ``side`` ("x" or "y"), ``cluster`` (its
        label), ``weight`` and ``value``; for each index, sum(weight * value) over its rows
        is the index (``ca.agreement(table, index=...)``).

    See Also
    --------
    cluster_agreement : Gives this frame as ``res.decomposition``.

    References
    ----------
    Warrens, M. J. & van der Hoef, H. (2022), "Understanding the adjusted Rand index and other
    partition comparison indices based on counting object pairs", Journal of Classification
    39, 487-509.

    Examples
    --------
    >>> d = pair_decomposition(ca.crosstab([0, 0, 0, 1, 1], [0, 0, 1, 1, 1]))
    >>> d[d["index"] == "wallace_x"].round(4)
           index side cluster  weight   value
    8  wallace_x    x       0    0.75  0.3333
    9  wallace_x    x       1    0.25  1.0000
    """
    return _decomposition(_Cells(table), table.row_labels, table.col_labels)


def _decomposition(cells: _Cells, row_labels, col_labels) -> pd.DataFrame:
    """``pair_decomposition`` of the cells of a table."""
    a, b, n = cells.a, cells.b, cells.n
    ca2, cb2 = _choose2(a), _choose2(b)
    cell2 = _choose2(cells.values)
    t = np.bincount(cells.rows, weights=cell2, minlength=cells.K)
    s = np.bincount(cells.cols, weights=cell2, minlength=cells.Q)
    P, R, N = float(ca2.sum()), float(cb2.sum()), float(_choose2(n))
    frames = []

    def add(index, side, labels, weight, value):
        frames.append(pd.DataFrame({"index": index, "side": side,
                                    "cluster": pd.array(np.asarray(labels, dtype=object),
                                                        dtype=object),
                                    "weight": weight, "value": value}))

    with np.errstate(divide="ignore", invalid="ignore"):
        wx, wy = t / ca2, s / cb2
        nan_x, nan_y = np.full(cells.K, np.nan), np.full(cells.Q, np.nan)
        # Rand: the pairs inside each cluster and half of those across it
        cross_x = a.astype(float) * (n - a)
        cross_y = b.astype(float) * (n - b)
        across_x = np.bincount(cells.rows, weights=cells.values * (b[cells.cols] - cells.values)
                               .astype(float), minlength=cells.K)
        across_y = np.bincount(cells.cols, weights=cells.values * (a[cells.rows] - cells.values)
                               .astype(float), minlength=cells.Q)
        mx, my = ca2 + cross_x / 2, cb2 + cross_y / 2
        gx, gy = t + (cross_x - across_x) / 2, s + (cross_y - across_y) / 2
        add("rand", "x", row_labels, mx / (2 * N) if N > 0 else nan_x, gx / mx)
        add("rand", "y", col_labels, my / (2 * N) if N > 0 else nan_y, gy / my)
        # adjusted Rand: the adjusted Wallace values of both sides' clusters
        D = P + R - 2 * P * R / N if N > 0 else 0.0
        ex, ey = (R / N, P / N) if N > 0 else (np.nan, np.nan)
        add("adjusted_rand", "x", row_labels, ca2 * (1 - ex) / D if D > 0 else nan_x,
            (wx - ex) / (1 - ex))
        add("adjusted_rand", "y", col_labels, cb2 * (1 - ey) / D if D > 0 else nan_y,
            (wy - ey) / (1 - ey))
        # the Wallace indices, each over its own side
        add("wallace_x", "x", row_labels, ca2 / P if P > 0 else nan_x, wx)
        add("wallace_y", "y", col_labels, cb2 / R if R > 0 else nan_y, wy)
    out = pd.concat(frames, ignore_index=True)
    # a cluster with no pair inside it (or an adjusted value whose chance share is 1): no value
    out.loc[~np.isfinite(out["value"].to_numpy(dtype=float)), "value"] = np.nan
    return out


def _check_share(split_share) -> float:
    value = check_real(split_share, "split_share", "a share of a cluster in (0, 0.5]")
    if not 0 < value <= 0.5:
        raise ValueError("split_share must be a share of a cluster in (0, 0.5] (a split has two "
                         f"parts of at least that share each), got {split_share!r}")
    return value


@fill_doc
def cluster_agreement(x, y=None, *, match="one-to-one", multiple="holm", split_share=0.2,
                      data=None, dropna=False, join="exact", noise=None,
                      sample_weight=None) -> ClusterAgreement:
    """Say which clusters of two clusterings agree: each cluster paired, measured and tested.

    Each cluster of x is paired with a cluster of y (and each of y with one of x), and the
    paired cell n_ij of the contingency table is measured by the overlap, the Jaccard index
    n_ij / (a_i + b_j - n_ij), precision, recall and F1, and tested by its exact one-sided
    p-value under fixed margins. Precision and recall are from x's point of view, x the
    reference classes and y the clusters found (scikit-learn's ``labels_true, labels_pred``
    order): precision = n_ij / b_j (the share of the cluster of y that is of class i),
    recall = n_ij / a_i (the share of class i that the cluster of y found), F1 their
    harmonic mean 2 n_ij / (a_i + b_j); the row of a cluster of y reads the same cell.

    Everything is computed from the non-zero cells and the margins, so a sparse table of
    10**4 x 10**4 clusters (``ca.crosstab`` keeps such tables sparse) takes seconds.

    Parameters
    ----------
    x, y : array-like, Series or str
        The two clusterings' labels (hard partitions of the same n objects; in validation
        pass the reference classes as ``x``), or two column names of ``data``. Or ``x``
        alone (``y=None``): a ContingencyTable, a sparse table or a K x Q table of counts.
    match : {"one-to-one", "majority"}, default "one-to-one"
        "one-to-one": the pairing of maximum total overlap (``linear_sum_assignment`` on a
        dense table, ``min_weight_full_bipartite_matching`` on the non-zero cells of a sparse
        one); when K != Q, or when a pairing would join clusters that share no object,
        clusters are left without a partner (NA). "majority": each cluster's partner is the
        cluster of the other side holding most of its objects (many to one; a tie goes to
        the lower label), so a cluster of y may be the partner of several classes.
    multiple : str or None, default "holm"
        The multiplicity adjustment (a method of statsmodels' ``multipletests``: "holm",
        "bonferroni", "fdr_bh", ...) over the distinct paired cells (a cell paired from both
        sides is one test); None: none.
    split_share : float, default 0.2
        A cluster of x spread over two or more clusters of y each holding at least this
        share of it is "split", and a cluster of y holding two or more clusters of x each
        at least this share of it "merges" them; in (0, 0.5].
    %(data)s
    %(dropna)s
    %(join)s
    %(noise)s
    sample_weight : array-like of shape (n,), optional
        Whole-number weights: each object counted that many times. Other weights are
        refused: the p-values are laws of counts.

    Returns
    -------
    ClusterAgreement
        ``to_frame()``: one row per cluster of each side (columns ``CLUSTER_COLUMNS``:
        ``side``, ``cluster``, ``partner``, ``size``, ``partner_size``, ``overlap``,
        ``jaccard``, ``precision``, ``recall``, ``f1``, ``pvalue``, ``pvalue_adjusted``,
        ``log10_pvalue``, ``note``); ``decomposition``, ``splits``, ``plot()``; printed as R
        prints a test.

    Raises
    ------
    ValueError
        An unknown ``match`` or ``multiple``, a ``split_share`` outside (0, 0.5], or
        ``sample_weight`` that are not whole numbers (each before any work on the table).
    TypeError
        Clusterings that are not hard partitions (memberships, covers, similarity matrices).

    See Also
    --------
    agreement : One index of the whole table.
    agreement_matrix : One index over every pair of several clusterings.

    Notes
    -----
    The p-value of a paired cell is P(N_ij >= n_ij) with N_ij ~ Hypergeom(n, a_i, b_j), the
    law of the cell when both margins are fixed: the pmf summed upward from n_ij where the
    cell lies above the mode (its terms then fall geometrically), else
    ``scipy.stats.hypergeom.sf(n_ij - 1, n, a_i, b_j)``; ``log10_pvalue`` stays finite below
    the smallest double. The pairing is
    chosen from the same table to make the overlaps large, so each p-value is conditional on
    the pairing: it tests the cell as if the pair had been named in advance, and is
    optimistic as a test of the search that found it. Read the p-values as a screen of
    which pairs stand above chance, not as a test of the matching.

    ``decomposition`` writes the Rand index, the adjusted Rand index and the two Wallace
    indices as weighted sums of cluster-level indices, as Warrens & van der Hoef (2022) do:
    sum(weight * value) over an index's rows is the index itself
    (``clusteragree.inference.clusters.pair_decomposition`` gives the formulas). The weights grow
    with C(a_i, 2), so a large cluster dominates the overall index and a small one barely
    moves it.

    References
    ----------
    Warrens, M. J. & van der Hoef, H. (2022), "Understanding the adjusted Rand index and other
    partition comparison indices based on counting object pairs", Journal of Classification
    39, 487-509.

    Kuhn, H. W. (1955), "The Hungarian method for the assignment problem", Naval Research
    Logistics Quarterly 2, 83-97.

    Holm, S. (1979), "A simple sequentially rejective multiple test procedure", Scandinavian
    Journal of Statistics 6, 65-70.

    Examples
    --------
    >>> x = [0] * 10 + [1] * 10 + [2] * 10
    >>> y = [0] * 10 + [1] * 5 + [2] * 5 + [2] * 10
    >>> res = ca.cluster_agreement(x, y)
    >>> res.to_frame()[["side", "cluster", "partner", "overlap", "jaccard"]]
      side cluster partner  overlap   jaccard
    0    x       0       0       10       1.0
    1    x       1       1        5       0.5
    2    x       2       2       10  0.666667
    3    y       0       0       10       1.0
    4    y       1       1        5       0.5
    5    y       2       2       10  0.666667
    >>> res.splits[["side", "cluster", "kind", "part", "share"]]
      side cluster   kind part     share
    0    x       1  split    1  0.500000
    1    x       1  split    2  0.500000
    2    y       2  merge    2  0.666667
    3    y       2  merge    1  0.333333
    >>> d = res.decomposition
    >>> ari = d[d["index"] == "adjusted_rand"]
    >>> round(float((ari["weight"] * ari["value"]).sum()), 6) == round(ca.agreement(x, y), 6)
    True
    """
    match = check_choice(match, "match", MATCHES)
    multiple = check_multiple(multiple)
    share = _check_share(split_share)
    clus = as_clusterings(x, y, data=data, dropna=dropna, join=join, noise=noise,
                          sample_weight=sample_weight)
    if clus.weighted is not None:
        raise ValueError(
            "sample_weight holds weights that are not whole numbers: cluster_agreement's "
            "p-values are hypergeometric laws of counts, which a table of weight sums is not; "
            "pass whole-number weights (each object counted that many times)")
    tab = clus.table
    cells = _Cells(tab)
    if match == "one-to-one":
        px, py, how = _one_to_one(tab, cells)
        how_text = f"one-to-one, the pairing of maximum total overlap ({how})"
    else:
        px, py = _majority(tab, cells)
        how_text = ("majority: each cluster paired with the cluster of the other side holding "
                    "most of its objects (a tie to the lower label)")

    # the distinct paired cells: one test each
    xi = np.flatnonzero(px >= 0)
    yj = np.flatnonzero(py >= 0)
    ci = np.concatenate([xi, py[yj]])
    cj = np.concatenate([px[xi], yj])
    keys, first = np.unique(ci * cells.Q + cj, return_index=True)
    ci, cj = ci[first], cj[first]
    cv = cells.lookup(ci, cj)
    p, log10 = _hypergeometric(cells, ci, cj, cv)
    p_adj = adjusted_pvalues(p, multiple)

    pairs = ResultsFrame({
        "x": pd.array(np.asarray(tab.row_labels, dtype=object)[ci], dtype=object),
        "y": pd.array(np.asarray(tab.col_labels, dtype=object)[cj], dtype=object),
        "overlap": cv, "pvalue": p, "pvalue_adjusted": p_adj, "log10_pvalue": log10})
    if (p == 0).any():  # printed "<1e-300", never 0
        pairs.attrs["pvalue_bound"] = {i: "underflow" for i in np.flatnonzero(p == 0)}
    splits = _splits(tab, cells, share)
    sides = []
    for side, partners, sizes, other_sizes, labels, other_labels, own_is_x in (
            ("x", px, cells.a, cells.b, tab.row_labels, tab.col_labels, True),
            ("y", py, cells.b, cells.a, tab.col_labels, tab.row_labels, False)):
        k = partners.size
        has = partners >= 0
        own = np.arange(k)
        i = np.where(has, own if own_is_x else partners, 0)
        j = np.where(has, partners if own_is_x else own, 0)
        at = np.searchsorted(keys, i * cells.Q + j)
        overlap = np.where(has, cells.lookup(i, j), 0)
        a_i, b_j = cells.a[i].astype(float), cells.b[j].astype(float)
        with np.errstate(divide="ignore", invalid="ignore"):
            jac = overlap / (a_i + b_j - overlap)
            prec, rec = overlap / b_j, overlap / a_i
            f1 = 2 * overlap / (a_i + b_j)

        def na_float(v):
            return pd.array(np.where(has, v, np.nan), dtype="Float64")

        def na_int(v):
            out = pd.array(np.where(has, v, 0), dtype="Int64")
            out[~has] = pd.NA
            return out

        partner = np.asarray(other_labels, dtype=object)[np.where(has, partners, 0)]
        partner = np.where(has, partner, pd.NA) if k else partner
        sides.append(pd.DataFrame({
            "side": side,
            "cluster": pd.array(np.asarray(labels, dtype=object), dtype=object),
            "partner": pd.array(partner, dtype=object),
            "size": pd.array(sizes, dtype="Int64"),
            "partner_size": na_int(other_sizes[np.where(has, partners, 0)]),
            "overlap": na_int(overlap),
            "jaccard": na_float(jac), "precision": na_float(prec), "recall": na_float(rec),
            "f1": na_float(f1),
            "pvalue": na_float(p[np.minimum(at, p.size - 1)] if p.size else np.full(k, np.nan)),
            "pvalue_adjusted": na_float(p_adj[np.minimum(at, p.size - 1)] if p.size
                                        else np.full(k, np.nan)),
            "log10_pvalue": na_float(log10[np.minimum(at, p.size - 1)] if p.size
                                     else np.full(k, np.nan)),
            "note": _notes(splits, side, labels, clus.names)}))
    frame = ResultsFrame(pd.concat(sides, ignore_index=True), columns=list(CLUSTER_COLUMNS))
    underflow = frame.index[(frame["pvalue"] == 0).fillna(False).to_numpy(dtype=bool)]
    if len(underflow):  # printed "<1e-300", never 0
        frame.attrs["pvalue_bound"] = {i: "underflow" for i in underflow}
    return ClusterAgreement(
        rows=frame, decomposition=_decomposition(cells, tab.row_labels, tab.col_labels),
        splits=splits, match=match, multiple=multiple, split_share=share, table=tab,
        partners_x=px, partners_y=py, data_name=clus.describe(), matching=how_text,
        pairs=pairs, names=clus.names)
