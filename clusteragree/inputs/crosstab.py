"""The contingency table of two hard partitions: ``crosstab`` cross-classifies two labellings of
the same objects (x the rows, y the columns; in validation the reference classes first, the order
of scikit-learn's ``labels_true, labels_pred``); one-hot memberships are read as labels.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._docs import fill_doc
from .._validate import check_bool, check_choice, suggest
from ..sparse_tables import SparseContingencyTable, use_sparse
from ..tables import X_TABLE, ContingencyTable, counted_table, table_of_counts
from .dask_tables import dask_cells, is_dask, is_dask_series
from .labels import JOINS, check_label_pair
from .memberships import read_memberships

__all__ = ["crosstab", "as_table", "is_table"]


_DIRECT_BINCOUNT_LIMIT = 1 << 24  # cells of the label-range grid we accept for direct counting
_CHUNK = 1 << 15  # objects per chunk of the one-pass count: its 2 x 256 KB of keys stay in cache
_CHUNK_CELLS = 1 << 12  # the one-pass count is for tables of at most this many cells


_INT64 = np.iinfo(np.int64)
_NATIVE_INT64 = np.dtype(np.int64)


def _int_values(labels):
    """The labels as an int64 (or narrower integer) numpy array when they are plain integers
    (numpy or a Series of a numpy integer or boolean dtype), else None."""
    if isinstance(labels, pd.Series):
        if not isinstance(labels.dtype, np.dtype):
            return None  # categorical, nullable or string extension dtypes
        labels = labels.to_numpy()
    if labels.dtype.kind == "b":
        return labels.view(np.uint8)
    if labels.dtype.kind not in "iu":
        return None
    if labels.dtype.kind == "u" and labels.dtype.itemsize == 8:  # either byte order
        if int(labels.max()) > _INT64.max:
            return None
        return labels.astype(np.int64)
    return labels


def _grown(lo, hi, a, b):
    """The range [lo, hi] extended to hold [a, b], by at least doubling its span on the side
    that grows (so that a range found chunk by chunk is re-allocated O(log K) times)."""
    span = hi - lo + 1
    if a < lo:
        lo = min(a, max(lo - span, _INT64.min))
    if b > hi:
        hi = max(b, min(hi + span, _INT64.max))
    return lo, hi


def _one_pass_counts(x, y):
    """The dense table of two integer label vectors with small ranges, in one pass.

    The objects are taken in chunks of ``_CHUNK``. In each chunk ``x - xlo`` and ``y - ylo``
    are made in buffers that stay in cache, checked against the current label ranges by one
    maximum each (read as unsigned integers, a label below its range is a huge number), and
    their keys ``(x - xlo) * Q + (y - ylo)`` counted by one ``np.bincount``: the labels are
    read once from memory and no n-long temporary is made (int64 labels from 0 are checked
    and keyed as they are, without the subtractions). The first chunk sets the ranges; a
    chunk outside them grows them, at least doubling the span on the side that grows (so
    O(log K) re-allocations).
    Returns ``(counts, row_labels, col_labels)`` over the ranges (their empty rows and columns
    are dropped by the table), or None when the table would have more than ``_CHUNK_CELLS``
    cells (then per-chunk counts cost more than they save).
    """
    if len(x) <= _CHUNK:
        found = _counts_from_zero(x, y)
        if found is not None:
            return found
    first_x, first_y = x[:_CHUNK], y[:_CHUNK]  # the first chunk sets the ranges exactly
    xlo, xhi, ylo, yhi = (int(first_x.min()), int(first_x.max()), int(first_y.min()),
                          int(first_y.max()))
    if (xhi - xlo + 1) * (yhi - ylo + 1) > _CHUNK_CELLS:
        return None
    if len(x) <= _CHUNK:  # one chunk: its keys counted at once
        return _one_chunk_counts(x, y, xlo, xhi, ylo, yhi)
    counts = np.zeros((xhi - xlo + 1, yhi - ylo + 1), dtype=np.int64)
    size = min(_CHUNK, len(x))
    dx, dy = np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64)
    int64 = x.dtype == np.int64 and y.dtype == np.int64
    for start in range(0, len(x), _CHUNK):
        xc, yc = x[start:start + _CHUNK], y[start:start + _CHUNK]
        kx, ky = dx[:len(xc)], dy[:len(xc)]
        K, Q = counts.shape
        if int64 and xlo == 0 and ylo == 0:  # labels from 0: no offsets to take off
            # the first chunk set the ranges: its labels are inside them
            if not start or (xc.view(np.uint64).max() < K and yc.view(np.uint64).max() < Q):
                np.multiply(xc, Q, out=kx)
                kx += yc
                counts.reshape(-1)[:] += np.bincount(kx, minlength=K * Q)
                continue
        np.subtract(xc, xlo, out=kx, dtype=np.int64)  # exact: labels and ranges fit in int64
        np.subtract(yc, ylo, out=ky, dtype=np.int64)
        if start and (kx.view(np.uint64).max() >= K or ky.view(np.uint64).max() >= Q):
            a, b = min(xlo, int(xc.min())), max(xhi, int(xc.max()))
            c, d = min(ylo, int(yc.min())), max(yhi, int(yc.max()))
            if (b - a + 1) * (d - c + 1) > _CHUNK_CELLS:
                return None
            nxlo, nxhi = _grown(xlo, xhi, a, b)
            nylo, nyhi = _grown(ylo, yhi, c, d)
            if (nxhi - nxlo + 1) * (nyhi - nylo + 1) > _CHUNK_CELLS:
                nxlo, nxhi, nylo, nyhi = a, b, c, d  # no room to grow: what is needed
            grown = np.zeros((nxhi - nxlo + 1, nyhi - nylo + 1), dtype=np.int64)
            grown[xlo - nxlo:xhi - nxlo + 1, ylo - nylo:yhi - nylo + 1] = counts
            counts, xlo, xhi, ylo, yhi = grown, nxlo, nxhi, nylo, nyhi
            K, Q = counts.shape
            np.subtract(xc, xlo, out=kx, dtype=np.int64)
            np.subtract(yc, ylo, out=ky, dtype=np.int64)
        kx *= Q
        kx += ky
        counts.reshape(-1)[:] += np.bincount(kx, minlength=K * Q)
    return counts, np.arange(xlo, xhi + 1), np.arange(ylo, yhi + 1)


def _counts_from_zero(x, y):
    """The dense table of at most ``_CHUNK`` non-negative integer labels of small range, over
    the labels 0..max: one maximum per vector, read as unsigned integers (a negative label has
    its sign bit set, so the one pass checks both ends), and one ``np.bincount`` of
    ``x * Q + y``. Returns ``(counts, row_labels, col_labels)``, or None when a label is
    negative or the grid from 0 would have more than ``_CHUNK_CELLS`` cells (then the ranges'
    minima are needed: ``_one_chunk_counts``)."""
    hx, hy = _unsigned_max(x), _unsigned_max(y)
    if hx is None or hy is None or (hx + 1) * (hy + 1) > _CHUNK_CELLS:
        return None  # a negative label, or a range far from 0
    K, Q = hx + 1, hy + 1
    # native int64 labels times a Python int stay int64; narrower ones are widened first
    keys = x * Q if x.dtype == _NATIVE_INT64 else np.multiply(x, Q, dtype=np.int64)
    keys += y
    counts = np.bincount(keys, minlength=K * Q).reshape(K, Q)
    return counts, np.arange(K), np.arange(Q)


def _unsigned_max(labels):
    """The largest of integer labels read as unsigned integers of the same size and byte order
    (one pass, by ``argmax``, which costs less per call than a ufunc's reduction), or None when
    a label is negative (its sign bit set)."""
    dtype = labels.dtype
    unsigned = labels.view(_UNSIGNED.get(dtype) or dtype.str.replace("i", "u"))
    top = unsigned.item(unsigned.argmax())
    return None if dtype.kind == "i" and top >> (8 * dtype.itemsize - 1) else top


#: The unsigned dtype of each native signed integer dtype (others are spelt out on the way).
_UNSIGNED = {np.dtype(f"i{size}"): np.dtype(f"u{size}") for size in (1, 2, 4, 8)}


def _one_chunk_counts(x, y, xlo, xhi, ylo, yhi):
    """``_one_pass_counts`` of at most ``_CHUNK`` objects, given their label ranges: the keys
    ``(x - xlo) Q + (y - ylo)`` made as ``x Q + y - (xlo Q + ylo)`` (two passes fewer) when
    no term can leave int64, else offsets first; one ``np.bincount``."""
    K, Q = xhi - xlo + 1, yhi - ylo + 1
    offset = xlo * Q + ylo
    if max(-xlo, xhi) * Q + max(-ylo, yhi) + abs(offset) < 2**62:  # every term fits in int64
        keys = np.multiply(x, Q, dtype=np.int64)
        keys += y
        if offset:
            keys -= offset
    else:  # labels near the ends of int64: exact offsets first
        keys = np.subtract(x, xlo, dtype=np.int64)
        keys *= Q
        keys += np.subtract(y, ylo, dtype=np.int64)
    counts = np.bincount(keys, minlength=K * Q).reshape(K, Q)
    return counts, np.arange(xlo, xhi + 1), np.arange(ylo, yhi + 1)


def _codes(labels):
    """Integer codes 0..K-1 and the K labels they stand for (sorted where sortable)."""
    if isinstance(labels, pd.Series) and isinstance(labels.dtype, pd.CategoricalDtype):
        cat = labels.array
        return np.asarray(cat.codes, dtype=np.int64), np.asarray(cat.categories)
    values = labels.to_numpy() if isinstance(labels, pd.Series) else labels
    if values.dtype.kind in "iub" and not (values.dtype.kind == "u" and values.dtype.itemsize == 8
                                           and int(values.max()) > np.iinfo(np.int64).max):
        values = values.astype(np.int64, copy=False)
        lo, hi = int(values.min()), int(values.max())
        if hi - lo < max(2 * len(values), 1024):
            return values - lo, np.arange(lo, hi + 1)
    try:
        codes, uniques = pd.factorize(values, sort=True)
    except TypeError:  # labels of mixed, unorderable types
        codes, uniques = pd.factorize(values, sort=False)
    return codes.astype(np.int64, copy=False), np.asarray(uniques)


@fill_doc
def crosstab(x, y=None, *, data: pd.DataFrame | None = None, dropna: bool = False,
             join: str = "exact", sparse=None) -> ContingencyTable:
    """Cross-classify two labellings of the same objects.

    Parameters
    ----------
    x, y : array-like or Series of hashable labels, Dask arrays or Series, or str
        The two labellings (hard partitions) of the same objects; column names when ``data``
        is given. Two Dask arrays or Dask Series (columns of one Dask DataFrame, paired
        partition by partition) are counted on Dask, partition by partition, and the counts
        summed (``clusteragree.inputs.dask_tables``): the labels need not fit in memory. ``x`` gives the rows, ``y`` the columns (in validation pass the reference
        classes as ``x``, the order of scikit-learn's ``labels_true, labels_pred``). Labels
        may be ints, strings, pandas Series or Categoricals (unused categories are dropped).
    %(data)s
    %(dropna)s
    join : {"exact", "inner"}, default "exact"
        Two pandas Series are paired by their index, as pandas does: with "exact" their
        indexes must hold the same labels (in any order), with "inner" the objects in both are
        kept (a warning says how many were left out). Other inputs are paired by position; an
        (n, 1) array is read as n labels.
    sparse : bool, optional
        Keep only the non-zero cells (``SparseContingencyTable``): for partitions into many
        clusters, where the dense K x Q table would be large and mostly zeros. Default: when
        the table has more than 2**20 cells and more than 4 per object
        (``clusteragree.sparse_tables.use_sparse``).

    Returns
    -------
    ContingencyTable or SparseContingencyTable
        The K x Q counts of the objects in each cluster of x (rows, sorted labels) and of y
        (columns), with the labels; names from the Series' names or the column names.

    See Also
    --------
    ContingencyTable : The table and its pair counts.
    clusteragree.agreement : Indices of agreement of two clusterings or their table.
    pandas.crosstab : The same counts as a DataFrame.

    References
    ----------
    {ref:hubert1985}, 193-218.

    Examples
    --------
    >>> tab = crosstab(["a", "a", "b", "b"], [1, 1, 1, 2])
    >>> tab.counts.tolist()
    [[2, 0], [1, 1]]
    >>> tab.row_labels.tolist(), tab.col_labels.tolist()
    (['a', 'b'], [1, 2])
    """
    check_choice(join, "join", JOINS)
    names = ("x", "y")
    if data is not None:
        x, y, names = data_columns(data, x, y)
    else:
        if y is None:
            raise TypeError("crosstab needs two labellings: crosstab(x, y)")
        names = ("x", "y") if type(x) is np.ndarray and type(y) is np.ndarray else tuple(
            v.name if (isinstance(v, pd.Series) or is_dask_series(v)) and v.name is not None
            else d
            for v, d in ((x, "x"), (y, "y"))
        )
    if sparse is not None:
        check_bool(sparse, "sparse")
    if not (type(x) is np.ndarray and type(y) is np.ndarray) and (is_dask(x) or is_dask(y)):
        check_bool(dropna, "dropna")
        lx, ly, cells = dask_cells(x, y, crosstab, dropna=dropna, join=join)
        if use_sparse(*cells.shape, int(cells.sum())) if sparse is None else sparse:
            from scipy.sparse import csr_array

            return SparseContingencyTable(csr_array(cells), lx, ly, names=names)
        dense = cells if isinstance(cells, np.ndarray) else cells.toarray()
        return ContingencyTable(dense, lx, ly, names=names)
    x, y = check_label_pair(x, y, dropna=dropna, join=join)
    if not sparse:
        ix, iy = _int_values(x), _int_values(y)
        found = None if ix is None or iy is None else _one_pass_counts(ix, iy)
        if found is not None:
            return counted_table(found[0], found[1], found[2], names, n=len(x))
    cx, lx = _codes(x)
    cy, ly = _codes(y)
    K, Q = len(lx), len(ly)
    if use_sparse(K, Q, len(cx)) if sparse is None else sparse:
        from scipy.sparse import coo_array  # duplicates summed by the CSR conversion: O(n)

        cells = coo_array((np.ones(len(cx), dtype=np.int64), (cx, cy)), shape=(K, Q)).tocsr()
        return SparseContingencyTable(cells, lx, ly, names=names)
    if K * Q <= _DIRECT_BINCOUNT_LIMIT:
        counts = np.bincount(cx * Q + cy, minlength=K * Q).reshape(K, Q)
    else:  # too many cells for a dense grid over all label codes: count distinct pairs
        keys, flat = np.unique(cx * np.int64(Q) + cy, return_inverse=True)
        rows, cols = np.unique(keys // Q), np.unique(keys % Q)
        counts = np.zeros((len(rows), len(cols)), dtype=np.int64)
        counts[np.searchsorted(rows, keys // Q), np.searchsorted(cols, keys % Q)] = np.bincount(
            flat.ravel()
        )
        lx, ly = lx[rows], ly[cols]
    return counted_table(counts, lx, ly, names, n=len(cx))


def data_columns(data, x, y):
    """The columns ``x`` and ``y`` of ``data`` (a pandas or Dask DataFrame), and their names;
    each refusal names the argument."""
    if not (isinstance(data, pd.DataFrame) or is_dask(data) and hasattr(data, "columns")):
        raise TypeError(f"data must be a pandas or Dask DataFrame, got {type(data).__name__}")
    for arg, value in (("x", x), ("y", y)):
        if not isinstance(value, str):
            raise TypeError(f"with data=..., {arg} must be a column name, got {value!r}")
        if value not in data.columns:
            cols = [str(c) for c in data.columns]
            raise ValueError(f"{arg}={value!r} is not a column of data (columns: {cols})."
                             + suggest(value, cols))
    return data[x], data[y], (x, y)


def _is_scipy_sparse(obj) -> bool:
    try:
        from scipy.sparse import issparse
    except ImportError:  # pragma: no cover - scipy is a dependency
        return False
    return issparse(obj)


def _is_2d(obj) -> bool:
    if isinstance(obj, np.ndarray):
        return obj.ndim == 2
    if isinstance(obj, (str, bytes, ContingencyTable)):
        return False
    try:
        return np.ndim(obj) == 2
    except ValueError:  # a ragged nested sequence: check_labels says what is wrong
        return False


def is_table(obj) -> bool:
    """Whether a clustering given alone is a table: a ``ContingencyTable``, a
    ``SparseContingencyTable``, a DataFrame or a 2-D array of counts.

    Parameters
    ----------
    obj : object
        What the user gave.

    Returns
    -------
    bool
        True for a table (a ragged nested sequence is not one).

    See Also
    --------
    as_table : The table it is read as.

    Examples
    --------
    >>> is_table([[30, 20], [10, 20]]), is_table([0, 0, 1]), is_table("x")
    (True, False, False)
    """
    if isinstance(obj, (ContingencyTable, SparseContingencyTable, pd.DataFrame)):
        return True
    try:
        return np.ndim(obj) == 2 and not isinstance(obj, (str, bytes))
    except (TypeError, ValueError):  # ragged: not a table
        return False


def _hard_labels(obj, name):
    """Labels of a hard partition given as a 2-D array: an (n, 1) column of labels, or one-hot
    memberships (objects x clusters)."""
    arr = obj.to_numpy() if isinstance(obj, pd.DataFrame) else np.asarray(obj)
    if arr.shape[1] == 1:
        return arr[:, 0]  # a column of labels
    if arr.dtype.kind in "iu" and arr.size and (arr.min() < 0 or arr.max() > 1):
        raise ValueError(
            f"{name} is a 2-D array of shape {arr.shape} holding integers other than 0 and 1: "
            "labels must be 1-D (an (n, 1) column is read as labels), and a membership matrix "
            "(objects x clusters) holds values in [0, 1]")
    U, kind = read_memberships(obj, name)
    if kind != "exclusive hard":
        families = {"non-exclusive hard": "'fuzzy' or 'overlapping' family",
                    "non-exhaustive hard": "'overlapping' family"}.get(kind, "'fuzzy' family")
        raise ValueError(
            f"{name} is a {kind} clustering: contingency-table indices need hard partitions; "
            f"use an index of the {families} (ca.list_indices() says which kinds each takes)"
        )
    return U.argmax(axis=1)


def as_table(x, y=None, *, data=None, dropna: bool = False, join: str = "exact"
             ) -> ContingencyTable:
    """One ContingencyTable from a table, a K x Q array of counts, or two clusterings (label
    vectors, column names with ``data``, (n, 1) columns of labels, or one-hot membership
    matrices of hard partitions)."""
    if isinstance(x, (ContingencyTable, SparseContingencyTable)):
        if y is not None or data is not None:
            raise TypeError("pass either a ContingencyTable or two labellings x, y, not both")
        return x
    if y is None and data is None and _is_scipy_sparse(x):
        return SparseContingencyTable(x, name=X_TABLE)
    if y is None and data is None:
        return table_of_counts(x)
    if data is None and (_is_2d(x) or _is_2d(y)):
        x = _hard_labels(x, "x") if _is_2d(x) else x
        y = _hard_labels(y, "y") if _is_2d(y) else y
    return crosstab(x, y, data=data, dropna=dropna, join=join)
