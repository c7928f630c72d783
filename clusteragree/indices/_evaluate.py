"""The evaluation of indices: a public call's clusterings converted once for its indices, then
the indices on a table, a sparse table or a batch of tables.

``entry`` is the one conversion of a public call's input (``clusteragree.inputs``), for the
index records the call asks for: a contingency table for the table indices, the clusterings
themselves for the indices of object pairs. ``evaluate`` is the checked entry of one index on
a table or a batch of tables ``(..., K, Q)``; ``evaluate_checked`` and ``evaluate_sparse`` take
counts or a sparse table already checked at a public entry; ``values_on_tables`` evaluates
several indices on one batch of tables (random, resampled or enumerated), each additive
statistic computed once. The records (``clusteragree.indices._records``) say what an index is
and how it treats degenerate tables; everything here only calls them, and refuses a nan, which
would be a degenerate case the registry missed. ``evaluate_weighted`` evaluates the indices
declared for real-valued counts on tables of sums of non-integer sample weights, and refuses
the others.
"""

from __future__ import annotations

import math

import numpy as np

from .._docs import fill_doc
from .._validate import check_options
from ..inputs import Clusterings, as_clusterings
from ..tables import check_counts
from ._common import STATISTICS, compact_tables
from ._records import REGISTRY, Index, PairIndex
from ._registry import get_index
from ._table_index import TableIndex
from .information import info_state, real_info_state
from .pairs import pair_state, real_pair_state

__all__ = ["entry", "evaluate", "evaluate_checked", "evaluate_sparse", "evaluate_table",
           "evaluate_weighted", "values_on_tables"]

#: The state of real-valued tables for each family state of integer ones (``TableIndex.state``):
#: an index of real counts that reads a state is evaluated on the same state of real counts.
REAL_STATES = {pair_state: real_pair_state, info_state: real_info_state}
#: A weighted value beyond the index's range by more than this (relative) is refused.
RANGE_RTOL = 1e-9


def entry(x, y, data, dropna, join, recs, batch: bool = False, noise=None,
          sample_weight=None, real_weights: bool = False) -> Clusterings:
    """The one conversion of a public call's clusterings for the indices ``recs``.

    Parameters
    ----------
    x : array-like, Series, DataFrame, str, ContingencyTable or SparseContingencyTable
        The first clustering, or a table alone (a batch of tables with ``batch=True``).
    y : array-like, Series, DataFrame or str, optional
        The second clustering (None with a table).
    data : DataFrame, optional
        The frame that column names in ``x`` and ``y`` refer to.
    dropna : bool
        Leave out the objects with a missing label (else they are refused).
    join : {"exact", "inner"}
        How two labelled clusterings are aligned on their objects.
    recs : list of Index
        The call's index records (``index_records``): a table is made when one of them is a
        table index, and the clusterings are read for the indices of object pairs.
    batch : bool, default False
        ``x`` may be a batch of tables (``clusteragree.agreement``).
    noise : str or Noise, optional
        The noise policy (``clusteragree.inputs.objects``).
    sample_weight : array-like, optional
        One weight per object.
    real_weights : bool, default False
        The call takes non-integer weights (a table of weight sums); otherwise they are
        refused by name.

    Returns
    -------
    Clusterings
        The converted and checked input.

    See Also
    --------
    clusteragree.inputs.as_clusterings : The conversion itself.
    index_records : The records of the indices a call asks for.

    Examples
    --------
    >>> from clusteragree.indices import index_records
    >>> clusterings = entry([0, 0, 1, 1], [0, 1, 1, 1], None, False, "exact",
    ...                     index_records("ari"))
    >>> clusterings.table.counts.tolist()
    [[1, 1], [0, 2]]
    """
    pairs = [r.name for r in recs if isinstance(r, PairIndex)]
    clusterings = as_clusterings(x, y, data=data, dropna=dropna, join=join,
                                 table=len(pairs) < len(recs),  # a table index among them
                                 pairs=pairs, batch=batch, noise=noise,
                                 sample_weight=sample_weight)
    if clusterings.weighted is not None and not real_weights:
        raise ValueError(
            "sample_weight holds weights that are not whole numbers: their table of weight "
            "sums is not a table of counts, and this call's null laws and tests are laws of "
            "integer tables. ca.agreement gives the weighted indices and "
            "ca.confidence_interval their interval (a bootstrap of the weighted objects); "
            "integer weights (repeated objects) work everywhere")
    return clusterings


@fill_doc
def evaluate(index, counts, **options) -> np.ndarray:
    """Evaluate an index on a table or a batch of tables ``(..., K, Q)``.

    The single checked entry of the table indices: it validates the tables and the options,
    refuses tables with fewer objects than the index needs, and applies the registry's rule
    for degenerate tables (see the module docstring).

    Parameters
    ----------
    %(index)s
        An index of the contingency table (``TableIndex``), or an index of object pairs with
        a form on the table of two partitions (``PairIndex.on_table``: element-centric
        similarity); the other indices of object pairs need the clusterings
        (``ca.agreement``).
    counts : array-like of int
        A K x Q table of counts or a batch of them, shape ``(..., K, Q)``.
    %(**options)s

    Returns
    -------
    ndarray of float
        The index of each table, shape ``counts.shape[:-2]`` (a 0-d array for one table).

    Raises
    ------
    TypeError
        An option the index does not take.
    ValueError
        An index of object pairs with no form on a table, a table that is not one of counts,
        or fewer objects than the index needs.

    See Also
    --------
    get_index : The record of an index.
    clusteragree.agreement : An index on two clusterings or a table.

    Examples
    --------
    >>> evaluate("ari", [[30, 20], [10, 20]])              # Amorim (2015), Table 8
    array(0.05124099)
    >>> evaluate("vi", np.array([[[5, 0], [0, 5]], [[3, 2], [2, 3]]]), base=2).round(4)
    array([0.    , 1.9419])
    >>> evaluate("element_centric", [[2, 0], [1, 1]])      # as on the two partitions' labels
    array(0.54166667)
    """
    rec = get_index(index)
    opts = check_options(options, rec.options, f"index {rec.name!r}")
    if isinstance(rec, PairIndex) and rec.on_table is not None:
        arr = check_counts(counts)
        if arr.size and int(arr.sum(axis=(-2, -1)).min()) < 2:
            raise ValueError(f"index {rec.name!r} compares pairs of objects: needs n >= 2")
        return np.asarray(rec.on_table(arr, **opts), dtype=float)
    if not isinstance(rec, TableIndex):
        raise ValueError(
            f"index {rec.name!r} compares {' or '.join(rec.inputs)} inputs, not a contingency "
            f"table: call ca.agreement(x, y, index={rec.name!r}) with the two clusterings"
        )
    return evaluate_checked(rec, check_counts(counts), opts)


def evaluate_checked(rec: TableIndex, arr: np.ndarray, opts: dict) -> np.ndarray:
    """``evaluate`` on counts and options already checked at the entry of a public function.

    Parameters
    ----------
    rec : TableIndex
        The index's record.
    arr : numpy.ndarray
        A checked int64 table or batch of tables, shape ``(..., K, Q)``.
    opts : dict
        The index's checked options, defaults filled in.

    Returns
    -------
    numpy.ndarray
        The index on each table, shape ``arr.shape[:-2]``.

    Raises
    ------
    ValueError
        A table with fewer objects than the index needs.

    See Also
    --------
    evaluate : The same, checking the counts and options first.

    Examples
    --------
    >>> rec = get_index("rand")
    >>> float(evaluate_checked(rec, np.array([[30, 20], [10, 20]]), {}))
    0.5253164556962026
    """
    if rec.min_n > 1:
        _check_n(rec, int(np.add.reduce(arr, axis=None)) if arr.ndim == 2 else int(
            arr.sum(axis=(-2, -1)).min()))
    values = np.asarray(rec.on_counts(arr, **opts), dtype=float)
    if math.isnan(values) if values.ndim == 0 else np.isnan(values).any():  # pragma: no cover
        # a degenerate case the registry missed
        raise RuntimeError(f"index {rec.name!r} gave nan; please report this table")
    return values


def evaluate_sparse(rec: Index, table, opts: dict) -> float:
    """A table index on a sparse table (``SparseContingencyTable``): from its non-zero cells
    and margins, without the dense table.

    Every index that is a function of sum n_ij^2 or sum n_ij log n_ij given the margins (its
    ``statistic``: the pair-counting and information families, AMI and NMI included) is
    computed from the non-zero cells, which hold every term of those sums; an index with a
    form on the cells (``on_sparse``: purity, the Van Dongen and F-measures, accuracy and PSI
    by a sparse bipartite matching, element-centric similarity) from that form; any other
    index needs the dense table and is refused, with the table's size.

    Parameters
    ----------
    rec : Index
        The index's record.
    table : SparseContingencyTable
        The table.
    opts : dict
        The index's checked options, defaults filled in.

    Returns
    -------
    float
        The index.

    Raises
    ------
    ValueError
        An index that needs the dense table, or a table with fewer objects than it needs.

    See Also
    --------
    evaluate_checked : The same on a dense table.

    Examples
    --------
    >>> from scipy import sparse
    >>> from clusteragree.sparse_tables import SparseContingencyTable
    >>> tab = SparseContingencyTable(sparse.csr_array(np.array([[30, 20], [10, 20]])))
    >>> round(evaluate_sparse(get_index("ari"), tab, {}), 8)    # as the dense table's
    0.05124099
    """
    K, Q = table.shape
    if rec.on_sparse is not None and getattr(rec, "statistic", None) is None:
        if isinstance(rec, PairIndex) and table.n < 2:
            raise ValueError(f"index {rec.name!r} compares pairs of objects: needs n >= 2")
        _check_n(rec, table.n)
        return _checked_value(rec, rec.on_sparse(table.cells, table.row_sums, table.col_sums,
                                                 **opts))
    if not rec.sparse_cells:
        raise ValueError(
            f"index {rec.name!r} needs the dense {K:,} x {Q:,} table ({8 * K * Q / 1e6:,.0f} "
            f"MB); on a sparse table the indices of sum n_ij^2 or of sum n_ij log n_ij are "
            "computed (the pair-counting and information families: ca.list_indices() lists "
            "them with their statistic); pass the dense table (tab.to_dense()) if it fits")
    _check_n(rec, table.n)
    stat = STATISTICS[rec.statistic](table.values.reshape(1, -1))  # one 1 x nnz "table"
    return _checked_value(rec, rec.of_statistic(stat, table.row_sums, table.col_sums, **opts))


def _check_n(rec: Index, n: int) -> None:
    """Refuse a table (the smallest of a batch) of fewer objects than the index needs."""
    if n < rec.min_n:
        raise ValueError(f"index {rec.name!r} needs at least {rec.min_n} objects "
                         f"({rec.min_n_reason}), got a table with n = {n}")


def evaluate_table(rec: Index, table, opts: dict) -> np.ndarray:
    """One index on a checked table, dense (``ContingencyTable``) or sparse
    (``SparseContingencyTable``): the one place that tells the two kinds of table apart, by
    the question both answer (``table.dense``).

    Parameters
    ----------
    rec : Index
        A table index, or an index of object pairs with a form on the table of two partitions
        (``PairIndex.on_table``).
    table : ContingencyTable or SparseContingencyTable
        The table, checked at the entry.
    opts : dict
        The index's checked options, defaults filled in.

    Returns
    -------
    numpy.ndarray
        The index, a 0-d array.

    Raises
    ------
    ValueError
        A table with fewer objects than the index needs, or a sparse table for an index that
        needs the dense one (``Index.sparse_cells``).

    See Also
    --------
    evaluate_checked : On dense counts.
    evaluate_sparse : On a sparse table.

    Examples
    --------
    >>> from scipy import sparse
    >>> from clusteragree.sparse_tables import SparseContingencyTable
    >>> from clusteragree.tables import ContingencyTable
    >>> rec = get_index("ari")
    >>> dense = ContingencyTable([[30, 20], [10, 20]])
    >>> cells = SparseContingencyTable(sparse.csr_array(dense.counts))
    >>> [round(float(evaluate_table(rec, tab, {})), 8) for tab in (dense, cells)]
    [0.05124099, 0.05124099]
    """
    if not table.dense:  # many clusters: from the non-zero cells and the margins
        return np.asarray(evaluate_sparse(rec, table, opts))
    if isinstance(rec, PairIndex):  # two partitions: the index's form on their table
        return np.asarray(rec.on_table(table.counts, **opts), dtype=float)
    if rec.statistic is not None:  # as on a sparse table: the margins the table counted once
        n = table.n
        if n < rec.min_n:
            _check_n(rec, n)
        stat = STATISTICS[rec.statistic](table.counts, total=n)
        return np.asarray(_checked_value(
            rec, rec.of_statistic(stat, table.row_sums, table.col_sums, **opts)))
    return evaluate_checked(rec, table.counts, opts)


def _checked_value(rec: Index, value) -> float:
    value = float(value)
    if math.isnan(value):  # pragma: no cover - a degenerate case the registry missed
        raise RuntimeError(f"index {rec.name!r} gave nan; please report this table")
    return value


def values_on_tables(indices, options, tables, margins=None) -> dict:
    """Values of several indices on one batch of tables (shape (B, K, Q)).

    Each additive statistic (s, t) is computed once for all the indices that use it. With
    ``margins=(rows, cols)`` every table has those margins (Patefield, permutations, exact
    enumeration) and the indices need them once; otherwise each table's own margins are used,
    and indices that depend on the table's shape (not on s or t) are evaluated on each table
    with its empty rows and columns removed (random partitions with a varying number of
    clusters are padded with empty ones).

    Parameters
    ----------
    indices : list of TableIndex
        The index records.
    options : dict
        Index name -> its checked options, defaults filled in.
    tables : ndarray of int64
        The batch of tables, shape ``(B, K, Q)``, already checked (drawn, resampled or
        enumerated by the package).
    margins : (ndarray, ndarray), optional
        The row and column margins that every table of the batch has.

    Returns
    -------
    dict
        Index name -> its values on the tables, shape ``(B,)``.

    See Also
    --------
    evaluate_checked : One index on checked counts.

    Examples
    --------
    >>> from clusteragree.indices import index_records
    >>> recs = index_records(["rand", "jaccard"])
    >>> tables = np.array([[[30, 20], [10, 20]], [[5, 0], [0, 5]]])
    >>> {k: v.round(4).tolist() for k, v in values_on_tables(recs, {"rand": {}, "jaccard": {}},
    ...                                                      tables).items()}
    {'rand': [0.5253, 1.0], 'jaccard': [0.3644, 1.0]}
    """
    stats: dict[str, np.ndarray] = {}
    out = {}
    rows = cols = None
    if margins is None:
        rows, cols = tables.sum(axis=2), tables.sum(axis=1)
        padded = bool((rows == 0).any() or (cols == 0).any())
    else:
        rows, cols = margins
        padded = False
    groups = None
    for rec in indices:
        opts = options[rec.name]
        if rec.statistic is not None:
            if rec.statistic not in stats:
                stats[rec.statistic] = STATISTICS[rec.statistic](tables)
            values = rec.of_statistic(stats[rec.statistic], rows, cols, **opts)
        elif not padded:
            values = rec.on_counts(tables, **opts)
        else:
            if groups is None:
                groups = compact_tables(tables)
            values = np.empty(len(tables))
            for where, sub in groups:
                values[where] = rec.on_counts(sub, **opts)
        out[rec.name] = np.asarray(values, dtype=float)
    return out



def evaluate_weighted(rec, counts, options) -> np.ndarray:
    """Evaluate a table index on a table of real-valued counts: sums of sample weights.

    With non-integer ``sample_weight`` the contingency table holds the sums of the objects'
    weights, and the weighted index is its formula on these real counts: pair counts
    C(m, 2) = m (m - 1) / 2 of real m (a11 = sum C(n_ij, 2), p and q of the margins,
    T = C(n, 2)), entropies and matchings of real counts, n the total weight. Only an index
    declared for real counts (``real_counts``) is evaluated; any other is refused before any
    work, with the reason its definition needs whole counts and indices that take weights.
    The registry's rules for degenerate tables hold as on integer tables (identical
    partitions take the optimum; a vanishing denominator the index's fallback), and empty
    rows and columns are left out, as ``ContingencyTable`` leaves them out. A value that is
    nan is refused, and so is a value of an index of the pair counts outside its range:
    cells or margins lighter than 1 have negative pair counts, on which those formulas can
    leave their range (the indices of the pair counts also depend on the weights' scale, as
    C(m, 2) does; the information and matching indices do not).

    Parameters
    ----------
    rec : str or TableIndex
        The index: a name of ``ca.list_indices()`` or a record.
    counts : array-like of float
        One K x Q table of non-negative, finite real counts with a positive total, or a batch
        of them, shape ``(B, K, Q)``.
    options : dict or None
        The index's keyword options (checked here, defaults filled in); None: the defaults.

    Returns
    -------
    numpy.ndarray
        The index of each table, float: a 0-d array for one table, shape ``(B,)`` for a
        batch.

    Raises
    ------
    TypeError
        Counts that are not real numbers, or an option the index does not take.
    ValueError
        An index whose definition needs whole counts (or not declared for real counts, or an
        index of object pairs); counts that are negative, not finite, of the wrong shape or
        with a zero total; a total weight below the index's ``min_n`` (2 for pair counting);
        or a value that is nan (or, for an index of the pair counts, outside its range) on
        this table.

    See Also
    --------
    evaluate : An index on a table of whole counts.
    clusteragree.list_indices : The indices.

    Examples
    --------
    >>> table = np.array([[2.5, 0.5], [1.0, 3.0]])      # sums of the objects' weights
    >>> float(evaluate_weighted("ari", table, None))    # (4.75 - 3.75) / (8.875 - 3.75)
    0.1951219512195122
    >>> float(evaluate_weighted("purity", 10 * table, {}))  # (2.5 + 3) / 7 at any scale
    0.7857142857142857
    >>> evaluate_weighted("nmi", np.stack([table, [[2.0, 0.0], [0.0, 5.0]]]), {}).round(4)
    array([0.2597, 1.    ])
    >>> evaluate_weighted("ami", table, {})               # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: index 'adjusted_mutual_info' needs whole counts (its expected mutual ...
    """
    rec = get_index(rec)
    _refuse_whole_counts(rec)
    opts = check_options(options, rec.options, f"index {rec.name!r}")
    arr = _check_real_counts(counts)
    if arr.size == 0:
        return np.empty(arr.shape[:-2])
    totals = arr.sum(axis=(-2, -1))
    if rec.min_n > 1 and totals.min() < rec.min_n:
        raise ValueError(
            f"index {rec.name!r} needs a total weight of at least {rec.min_n} "
            f"({rec.min_n_reason}), got a table of total weight {float(totals.min()):g}: its "
            "counts are the sums of the weights, so scale sample_weight to sum to the number "
            "of objects, as whole counts do")
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if rec.state is not None:
            values = rec.func(REAL_STATES[rec.state](arr), **opts)
        elif arr.ndim == 2:
            values = rec.on_counts(_drop_empty(arr), **opts)
        else:
            values = np.empty(len(arr))
            for where, sub in compact_tables(arr):
                values[where] = rec.on_counts(sub, **opts)
    values = np.asarray(values, dtype=float).reshape(arr.shape[:-2])
    _check_weighted_values(rec, values)
    return values


def _takers(rec: Index) -> str:
    """Indices that take real-valued counts, of ``rec``'s family first, for a refusal."""
    names = [r.name for r in sorted(REGISTRY.values(), key=lambda r: r.family != rec.family)
             if r.real_counts and r.kind != "statistic"]
    return ", ".join(names[:6]) + ", ..."


def _refuse_whole_counts(rec: Index) -> None:
    """Refuse an index that is not declared for real-valued counts, saying why."""
    if rec.real_counts and isinstance(rec, TableIndex):
        return
    use = (f"with non-integer sample_weight use an index of real-valued counts "
           f"({_takers(rec)}; the column real_counts of ca.list_indices()), or integer "
           "sample_weight")
    if isinstance(rec, PairIndex):
        why = ("compares clusterings object pair by object pair, not a table of real-valued "
               "counts")
    elif rec.whole_counts_reason:
        why = f"needs whole counts ({rec.whole_counts_reason})"
    else:
        why = "is not declared for real-valued counts (sums of non-integer weights)"
    raise ValueError(f"index {rec.name!r} {why}: {use}")


def _check_real_counts(counts) -> np.ndarray:
    """One table or a batch (B, K, Q) of non-negative finite reals, each with a positive total,
    as float64."""
    try:
        arr = np.asarray(counts)
    except ValueError as exc:
        raise TypeError(f"counts must be a 2-D table of real counts: {exc}") from None
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"counts must hold real numbers (sums of weights), got dtype "
                        f"{arr.dtype}")
    if arr.ndim not in (2, 3):
        raise ValueError(f"counts must be a K x Q table or a batch (B, K, Q) of them, got "
                         f"shape {arr.shape}")
    if arr.shape[-1] == 0 or arr.shape[-2] == 0:
        raise ValueError(f"counts is empty (shape {arr.shape}): a table needs a row and a "
                         "column")
    arr = arr.astype(float)
    if not arr.size:
        return arr
    if not np.isfinite(arr).all():
        raise ValueError("counts contains NaN or infinite values; sums of weights must be "
                         "finite")
    if arr.min() < 0:
        raise ValueError(f"counts must be non-negative sums of weights, got {arr.min():g}")
    if (arr.sum(axis=(-2, -1)) <= 0).any():
        raise ValueError("counts has a table with no weight (all counts are 0)")
    return arr


def _drop_empty(table: np.ndarray) -> np.ndarray:
    """One table without its empty rows and columns (as ``ContingencyTable`` drops them)."""
    return table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]


def _check_weighted_values(rec: TableIndex, values: np.ndarray) -> None:
    """Refuse a weighted value that is nan, or outside the range of an index of the pair
    counts (which real counts can make negative; the other formulas of real counts are
    ratios of non-negative sums, within range as on whole counts)."""
    bad = np.isnan(values)
    pairs = rec.state is pair_state
    if pairs:
        lo, hi = rec.range
        tol_lo = RANGE_RTOL * max(1.0, abs(lo)) if math.isfinite(lo) else 0.0
        tol_hi = RANGE_RTOL * max(1.0, abs(hi)) if math.isfinite(hi) else 0.0
        bad |= (values < lo - tol_lo) | (values > hi + tol_hi)
    if not bad.any():
        return
    lo, hi = rec.range
    where = "" if values.ndim == 0 else f" (table {int(np.flatnonzero(bad)[0])} of the batch)"
    value = float(values[bad].ravel()[0]) if values.ndim else float(values)
    why = ("pair counts C(m, 2) = m (m - 1) / 2 are negative for cells or margins lighter "
           "than 1" if pairs else "the weighted table leaves its formula undefined")
    raise ValueError(
        f"index {rec.name!r} is not defined on this table of weights{where}: it gives "
        f"{value:g}, outside its range [{lo:g}, {hi:g}] ({why}); scale sample_weight so that "
        "the objects weigh about 1 each, or use an index that takes any weights, such as "
        "nmi or purity")
