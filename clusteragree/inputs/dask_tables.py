"""The contingency table of two labellings held by Dask: data beyond one machine's memory.

``crosstab`` (and so every index, test and report) takes two Dask arrays, two Dask Series (the
columns of a Dask DataFrame, hence Parquet files on disk or on a cluster), or column names with
``data=`` a Dask DataFrame. The table is built by a partition-wise count and a sum: each pair of
partitions is cross-tabulated in memory (``crosstab`` on the partition: its checks, its fast
paths), kept as its labels and non-zero cells (CSR), and the tables are summed in a tree (labels
united, equal cells added); then everything runs on the table, dense or sparse as ``crosstab``
decides. Memory is bounded by one partition per worker and the distinct non-empty cells.

The work runs on Dask's current scheduler: a ``dask.distributed.Client`` when one is active
(a ``LocalCluster`` or a cluster), else Dask's default for the collection.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["is_dask", "is_dask_series", "dask_cells", "SPLIT_EVERY", "DENSE_SUM_CELLS"]

#: How many partitions' tables are summed at each node of the reduction tree.
SPLIT_EVERY = 8
#: Partial sums with at most this many cells are dense arrays (32 MB), larger ones CSR.
DENSE_SUM_CELLS = 1 << 22


def is_dask(obj) -> bool:
    """Whether ``obj`` is a Dask collection (array, Series, DataFrame), without importing Dask.

    Examples
    --------
    >>> is_dask([0, 1]), is_dask(np.zeros(3))
    (False, False)
    """
    return type(obj).__module__.startswith("dask") and hasattr(obj, "__dask_graph__")


def is_dask_series(obj) -> bool:
    """Whether ``obj`` is a Dask Series (a column of a Dask DataFrame; it has a name)."""
    return _kind(obj) == "series"


def _kind(obj) -> str:
    """"array" (a 1-D Dask array), "series" (a Dask Series) or "memory"."""
    if not is_dask(obj):
        return "memory"
    import dask.array as da

    if isinstance(obj, da.Array):
        return "array"
    if hasattr(obj, "to_delayed") and getattr(obj, "ndim", None) == 1:
        return "series"
    return "other"


def _partitions(x, y, names):
    """The paired partitions of x and y, as two lists of delayed objects."""
    kx, ky = _kind(x), _kind(y)
    import dask.array as da

    if "other" in (kx, ky):
        bad = names[0] if kx == "other" else names[1]
        raise TypeError(f"{bad} is a Dask collection that is not 1-D labels: pass a 1-D Dask "
                        "array or one column (Series) of a Dask DataFrame")
    if kx == "memory" or ky == "memory":  # one in memory: chunked as the Dask array
        dask_one, mem = (x, y) if kx != "memory" else (y, x)
        if _kind(dask_one) != "array":
            raise TypeError(
                f"{names[0]} and {names[1]} must both be Dask collections of the same kind, or "
                "a Dask array and a numpy array: a Dask Series is paired with a Dask Series "
                "(partition by partition)")
        mem = np.asarray(mem)
        if mem.ndim != 1 or np.isnan(dask_one.shape[0]) or mem.shape[0] != dask_one.shape[0]:
            raise ValueError(f"{names[0]} and {names[1]} must label the same objects: shapes "
                             f"{np.shape(x)} and {np.shape(y)}")
        mem = da.from_array(mem, chunks=dask_one.chunks)
        x, y = (dask_one, mem) if kx != "memory" else (mem, dask_one)
        kx = ky = "array"
    if kx != ky:
        raise TypeError(f"{names[0]} is a Dask {kx} and {names[1]} a Dask {ky}: pass two Dask "
                        "arrays or two Dask Series (e.g. two columns of one Dask DataFrame)")
    if kx == "array":
        for arg, arr in zip(names, (x, y)):
            if arr.ndim != 1:
                raise ValueError(f"{arg} must be 1-D cluster labels, got a Dask array of shape "
                                 f"{arr.shape}")
            if any(np.isnan(c) for c in arr.chunks[0]):
                raise ValueError(f"{arg} is a Dask array of unknown chunk sizes: call "
                                 f"{arg}.compute_chunk_sizes() first")
        if x.shape[0] != y.shape[0]:
            raise ValueError(f"{names[0]} and {names[1]} must label the same objects: "
                             f"{names[0]} has {x.shape[0]:,} labels, {names[1]} has "
                             f"{y.shape[0]:,}")
        if y.chunks != x.chunks:
            y = y.rechunk(x.chunks)
        return list(x.to_delayed().ravel()), list(y.to_delayed().ravel())
    if x.npartitions != y.npartitions:
        raise ValueError(f"{names[0]} and {names[1]} are Dask Series of {x.npartitions} and "
                         f"{y.npartitions} partitions: they are paired partition by partition, "
                         "so they need the same partitions (two columns of one DataFrame have "
                         "them)")
    return list(x.to_delayed()), list(y.to_delayed())


def _partition_cells(xp, yp, count, dropna: bool, join: str):
    """The table of one pair of partitions as (x labels, y labels, counts: a dense array or
    a CSR array, as ``count`` (``crosstab``) chose); None when every object is dropped or the
    partition is empty."""
    if len(xp) != len(yp):
        raise ValueError(f"x and y must label the same objects: a partition holds {len(xp)} "
                         f"labels of x and {len(yp)} of y")
    if dropna:
        keep = ~(np.asarray(pd.isna(xp), dtype=bool) | np.asarray(pd.isna(yp), dtype=bool))
        if not keep.all():
            xp, yp = xp[keep], yp[keep]
    if len(xp) == 0:
        return None
    tab = count(xp, yp, join=join)
    cells = tab.cells if hasattr(tab, "cells") else np.asarray(tab.counts)
    return np.asarray(tab.row_labels), np.asarray(tab.col_labels), cells


def _union(labels):
    """The distinct labels of several label arrays, sorted where sortable."""
    values = np.concatenate(labels)
    try:
        return np.asarray(pd.factorize(values, sort=True)[1])
    except TypeError:  # labels of mixed, unorderable types
        return np.asarray(pd.factorize(values, sort=False)[1])


def _sum_cells(*parts):
    """The sum of partitions' tables: their labels united, equal cells added; dense when the
    united table has at most ``DENSE_SUM_CELLS`` cells, else CSR (O(non-zero cells))."""
    from scipy.sparse import coo_array

    parts = [p for p in parts if p is not None]
    if len(parts) <= 1:
        return parts[0] if parts else None
    ux, uy = _union([p[0] for p in parts]), _union([p[1] for p in parts])
    where = [(pd.Index(ux).get_indexer(lx), pd.Index(uy).get_indexer(ly), cells)
             for lx, ly, cells in parts]
    if len(ux) * len(uy) <= DENSE_SUM_CELLS:
        total = np.zeros((len(ux), len(uy)), dtype=np.int64)
        for ri, ci, cells in where:
            if isinstance(cells, np.ndarray):
                total[np.ix_(ri, ci)] += cells
            else:
                coo = cells.tocoo()
                np.add.at(total, (ri[coo.row], ci[coo.col]), coo.data)
        return ux, uy, total
    rows, cols, counts = [], [], []
    for ri, ci, cells in where:
        coo = coo_array(cells)
        rows.append(ri[coo.row])
        cols.append(ci[coo.col])
        counts.append(coo.data.astype(np.int64, copy=False))
    total = coo_array((np.concatenate(counts), (np.concatenate(rows), np.concatenate(cols))),
                      shape=(len(ux), len(uy))).tocsr()  # duplicates summed
    return ux, uy, total


def dask_cells(x, y, count, *, dropna: bool = False, join: str = "exact", names=("x", "y")):
    """The non-zero cells of the table of two Dask labellings, computed on Dask.

    Parameters
    ----------
    x, y : dask.array.Array or dask.dataframe.Series
        Two 1-D Dask arrays (or one Dask array and a numpy array), or two Dask Series with the
        same partitions (paired partition by partition; within a partition, two Series are
        paired by their index as ``crosstab`` pairs them).
    count : callable
        ``count(x_part, y_part, join=...)``: the table of one pair of partitions in memory
        (``clusteragree.crosstab``, passed in so that this module does not import it).
    dropna : bool, default False
        Leave out objects with a missing label (else a missing label is an error).
    join : {"exact"}, default "exact"
        Only "exact": an inner join across partitions could drop objects unseen.
    names : (str, str)
        The argument names used in messages.

    Returns
    -------
    row_labels, col_labels : ndarray
        The labels of x and of y, sorted where sortable.
    cells : ndarray or scipy.sparse.csr_array
        The counts (int64), rows and columns in the order of the labels: dense up to
        ``DENSE_SUM_CELLS`` cells, else CSR.

    Examples
    --------
    >>> import dask.array as da
    >>> x = da.from_array(np.array([0, 0, 1, 1, 1]), chunks=2)
    >>> y = da.from_array(np.array([5, 5, 5, 6, 6]), chunks=2)
    >>> from clusteragree import crosstab
    >>> row_labels, col_labels, cells = dask_cells(x, y, crosstab)
    >>> row_labels.tolist(), col_labels.tolist(), cells.tolist()
    ([0, 1], [5, 6], [[2, 0], [1, 2]])
    """
    import dask

    if join != "exact":
        raise ValueError("join='inner' is not available for Dask inputs: objects are paired "
                         "partition by partition, and an inner join could leave out objects "
                         "whose partners sit in another partition without saying so")
    xs, ys = _partitions(x, y, names)
    parts = [dask.delayed(_partition_cells)(a, b, count, dropna, join) for a, b in zip(xs, ys)]
    while len(parts) > 1:
        parts = [dask.delayed(_sum_cells)(*parts[i:i + SPLIT_EVERY])
                 for i in range(0, len(parts), SPLIT_EVERY)]
    (total,) = dask.compute(parts[0])
    if total is None:
        raise ValueError("no object is labelled in both x and y once missing labels are "
                         "dropped" if dropna else "x and y are empty: at least one object is "
                         "needed")
    return total
