"""Building blocks shared by the index families, all vectorised over a batch ``(..., K, Q)``.

Two additive cell statistics carry every pair-counting and every information index once the
margins are fixed, so the exact null law of one statistic gives those of all its indices:

    s = sum_ij n_ij^2            (pair counting: a11 = (s - n) / 2)
    t = sum_ij n_ij log n_ij     (information: H(x, y) = log n - t / n)
"""

from __future__ import annotations

import numpy as np

__all__ = ["ratio", "identical", "same_memberships", "per_table", "sum_of_squares", "sum_xlogx",
           "STATISTICS", "STATISTIC_NAMES", "xlogx", "compact_tables"]


def ratio(num, den, same, optimum: float, fallback: float) -> np.ndarray:
    """``num / den`` for an index whose value on identical partitions is ``optimum``.

    ``same`` marks identical partitions: they get ``optimum`` exactly (the formula gives it up
    to rounding, or 0/0 when a clustering is a single cluster or all singletons); any other
    vanishing denominator gives ``fallback`` (the registry's degenerate-case rule). Reflexive
    indices evaluated table by table pass ``same=False``: the registry gives identical
    partitions their optimum (``TableIndex.on_counts``)."""
    if isinstance(num, float) and isinstance(den, float) and isinstance(same, bool):
        # one table in Python floats (``pairs.pair_state``): the same IEEE quotient
        return np.asarray(optimum if same else fallback if den == 0 else num / den)
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    if num.ndim == 0 and den.ndim == 0 and np.ndim(same) == 0:  # one table: float arithmetic
        value = optimum if same else fallback if den == 0 else float(num) / float(den)
        return np.asarray(value, dtype=float)  # the same IEEE quotient, as a 0-d array
    zero = den == 0
    out = num / np.where(zero, 1.0, den)
    return np.where(same, optimum, np.where(zero, fallback, out))


def compact_tables(tables: np.ndarray):
    """A batch of tables grouped by their numbers of non-empty rows and columns, the empty
    ones removed, as ``ContingencyTable`` removes them from one table.

    Parameters
    ----------
    tables : numpy.ndarray
        A batch of tables, shape (B, K, Q).

    Returns
    -------
    list of (numpy.ndarray, numpy.ndarray)
        (positions in the batch, tables of shape (m, K', Q')) for each pair (K', Q') of
        numbers of non-empty rows and columns; the non-empty rows and columns are kept in
        their order.

    See Also
    --------
    clusteragree.ContingencyTable : Drops the empty rows and columns of one table.

    Examples
    --------
    >>> [(w.tolist(), t.tolist()) for w, t in compact_tables(np.array([[[1, 0], [2, 0]]]))]
    [([0], [[[1], [2]]])]
    """
    rows_on = tables.sum(axis=2) > 0
    cols_on = tables.sum(axis=1) > 0
    k, q = rows_on.sum(axis=1), cols_on.sum(axis=1)
    groups = []
    for kk, qq in sorted(set(zip(k.tolist(), q.tolist()))):
        where = np.flatnonzero((k == kk) & (q == qq))
        sub = tables[where]
        # stable sort puts the non-empty rows and columns first, in their order
        r_order = np.argsort(~rows_on[where], axis=1, kind="stable")[:, :kk]
        c_order = np.argsort(~cols_on[where], axis=1, kind="stable")[:, :qq]
        sub = np.take_along_axis(sub, r_order[:, :, None], axis=1)
        sub = np.take_along_axis(sub, c_order[:, None, :], axis=2)
        groups.append((where, sub))
    return groups


def identical(counts: np.ndarray) -> np.ndarray:
    """True for each table of a batch whose two partitions are the same (up to labels): every
    row and every column has at most one non-zero cell.

    >>> identical(np.array([[[2, 0], [0, 3]], [[2, 1], [0, 3]]])).tolist()
    [True, False]
    """
    nonzero = np.asarray(counts) > 0
    return (nonzero.sum(axis=-1) <= 1).all(axis=-1) & (nonzero.sum(axis=-2) <= 1).all(axis=-1)


def same_memberships(U: np.ndarray, V: np.ndarray) -> bool:
    """Whether two membership matrices (objects in rows) are one clustering: the same
    memberships for every object up to the order of the clusters, clusters with no
    membership at all (all-zero columns) left aside.

    An index's value does not depend on the order of the clusters, so neither may its rule
    for a vanishing denominator (equal clusterings take the optimum).

    Examples
    --------
    >>> U = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
    >>> same_memberships(U, U[:, ::-1]), same_memberships(U, np.c_[U, np.zeros(3)])
    (True, True)
    >>> same_memberships(U, np.eye(3))
    False
    """
    U, V = U[:, U.any(axis=0)], V[:, V.any(axis=0)]
    if U.shape != V.shape:
        return False
    return bool(np.array_equal(U[:, np.lexsort(U[::-1])], V[:, np.lexsort(V[::-1])]))


def per_table(counts: np.ndarray, func) -> np.ndarray:
    """Apply ``func(table) -> float`` to every table of a batch (for indices built on a
    combinatorial matching, which has no closed vectorised form)."""
    flat = counts.reshape((-1,) + counts.shape[-2:])
    out = np.fromiter((func(t) for t in flat), dtype=float, count=len(flat))
    return out.reshape(counts.shape[:-2])


def _cells(counts: np.ndarray) -> np.ndarray:
    return counts.reshape(counts.shape[:-2] + (-1,))


#: Tables of more objects than this have sums of squares beyond int64 (n^2 > 2^62): their
#: pair counts are computed in Python integers, exact at any n.
INT64_SAFE_N = 2**31


def needs_big_integers(n) -> bool:
    """True when a table of n objects (or any of a batch) overflows int64 sums of squares."""
    n = np.asarray(n)
    return bool(n.size) and int(n.max()) > INT64_SAFE_N


def sum_of_squares(counts: np.ndarray, total: int | None = None) -> np.ndarray:
    """s = sum_ij n_ij^2 of each table: int64, or Python integers (an object array) for tables
    of more than 2^31 objects, so that it is exact at any n. ``total``: one table's n, when
    the caller knows it (a ``ContingencyTable``'s), so that it is not counted again."""
    if counts.ndim == 2:  # one table: its total alone says whether int64 holds the squares
        cells = counts.ravel()
        if total is None:
            total = int(np.add.reduce(cells)) if cells.size else 0
        if total > INT64_SAFE_N:
            big = cells.astype(object)
            return (big * big).sum()
        return cells.dot(cells)  # exact in int64 below 2^31 objects
    cells = _cells(counts)
    if cells.size and needs_big_integers(cells.sum(axis=-1)):
        big = cells.astype(object)
        return (big * big).sum(axis=-1)
    return np.einsum("...i,...i->...", cells, cells)


def xlogx(values) -> np.ndarray:
    """v log v elementwise, with 0 log 0 = 0 (v >= 0)."""
    v = np.asarray(values, dtype=float)
    return v * np.log(np.where(v > 0, v, 1.0))  # log 1 = 0 where v = 0: no warning to silence


def sum_xlogx(counts: np.ndarray, total: int | None = None) -> np.ndarray:
    """t = sum_ij n_ij log n_ij of each table (a look-up table of k log k when counts are small,
    so that every table of a batch gets bit-identical terms). ``total`` is taken, as by
    ``sum_of_squares``, and not needed."""
    cells = _cells(counts)
    top = int(cells.max()) if cells.size else 0
    if top <= 4 * cells.size + 1024:
        lut = xlogx(np.arange(top + 1))
        return lut[cells].sum(axis=-1)
    return xlogx(cells).sum(axis=-1)


#: The additive statistics by the name the registry uses (``TableIndex.statistic``):
#: ``f(counts, total=None)``, ``total`` one table's n when the caller knows it.
STATISTICS = {"s": sum_of_squares, "t": sum_xlogx}
#: Their names for people: an index tested under fixed margins tests this statistic.
STATISTIC_NAMES = {"s": "sum n_ij^2", "t": "sum n_ij log n_ij"}
