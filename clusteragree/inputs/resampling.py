"""The resampling batches of the input records: objects left out, objects drawn with replacement.

The jackknife and the bootstrap resample the objects. For a table the objects are its counts:
leaving one object out of cell (i, j) is the table less one there (one table per non-empty
cell, standing for that cell's count of objects); leaving two out is one table per pair of
non-empty cells (or a cell holding two); a bootstrap resample is a multinomial draw of the
cells. These tables are yielded in chunks of at most ``CHUNK_CELLS`` cells, so the memory a
jackknife or a bootstrap takes does not grow with the table's cells or ``n_resamples``. For
the clusterings themselves (an index of object pairs) a resample is an array of object
indices, and ``resampled_pair`` takes the drawn objects of the two clusterings.

``Clusterings`` (two clusterings) and ``ThreeWay`` (a reference and two clusterings) yield
their batches through these functions; ``clusteragree.intervals`` and the paired difference
test evaluate the indices on them. Nothing here evaluates an index.
"""

from __future__ import annotations

import numpy as np

__all__ = ["CHUNK_CELLS", "leave_one_out_tables", "leave_two_out_tables", "multinomial_draws",
           "leave_one_out_objects", "bootstrap_objects", "resampled_pair"]

#: Cells of the resampled tables held at once (int64: 8 bytes each), so the memory a
#: bootstrap or a jackknife of a table takes does not grow with ``n_resamples`` or the cells.
CHUNK_CELLS = 2_000_000


def leave_one_out_tables(counts: np.ndarray, chunk_cells: int = CHUNK_CELLS):
    """The table with one object left out of each non-empty cell, in chunks.

    Parameters
    ----------
    counts : numpy.ndarray of int, shape (K, Q)
        The table.
    chunk_cells : int, default ``CHUNK_CELLS``
        The most cells of the tables of one chunk (at least one table a chunk).

    Yields
    ------
    tables : numpy.ndarray, shape (b, K, Q)
        The table less one in each of the next b non-empty cells (``np.nonzero`` order).
    weights : numpy.ndarray, shape (b,)
        Their counts: how many objects each table stands for.

    Examples
    --------
    >>> [(t.tolist(), w.tolist()) for t, w in leave_one_out_tables(np.array([[2, 0], [1, 1]]))]
    [([[[1, 0], [1, 1]], [[2, 0], [0, 1]], [[2, 0], [1, 0]]], [2, 1, 1])]
    """
    rows, cols = np.nonzero(counts)
    chunk = max(1, chunk_cells // counts.size)
    for start in range(0, rows.size, chunk):
        r, c = rows[start:start + chunk], cols[start:start + chunk]
        tables = np.repeat(counts[None], r.size, axis=0)
        tables[np.arange(r.size), r, c] -= 1
        yield tables, counts[r, c]


def leave_two_out_tables(counts: np.ndarray, chunk_cells: int = CHUNK_CELLS):
    """The table with two objects left out, of each pair of non-empty cells u <= v, in chunks.

    The cells are numbered in ``np.nonzero`` order; u == v where the cell holds two objects
    or more.

    Parameters
    ----------
    counts : numpy.ndarray of int, shape (K, Q)
        The table.
    chunk_cells : int, default ``CHUNK_CELLS``
        The most cells of the tables of one chunk.

    Yields
    ------
    u, v : numpy.ndarray of int, shape (b,)
        The next b pairs of cells.
    tables : numpy.ndarray, shape (b, K, Q)
        The table less one in cell u and one in cell v, for each pair.

    Examples
    --------
    >>> [(u.tolist(), v.tolist()) for u, v, _ in leave_two_out_tables(np.array([[2, 1]]))]
    [([0, 0], [0, 1])]
    """
    rows, cols = np.nonzero(counts)
    p, q = np.triu_indices(rows.size)
    ok = (p != q) | (counts[rows, cols][p] >= 2)
    p, q = p[ok], q[ok]
    chunk = max(1, chunk_cells // counts.size)
    for start in range(0, p.size, chunk):
        pp, qq = p[start:start + chunk], q[start:start + chunk]
        tables = np.repeat(counts[None], pp.size, axis=0)
        at = np.arange(pp.size)
        np.subtract.at(tables, (at, rows[pp], cols[pp]), 1)
        np.subtract.at(tables, (at, rows[qq], cols[qq]), 1)
        yield pp, qq, tables


def multinomial_draws(n: int, p: np.ndarray, n_resamples: int, rng: np.random.Generator,
                      cells_per_draw: int, chunk_cells: int = CHUNK_CELLS):
    """``n_resamples`` multinomial draws of n objects into cells of probabilities p, in chunks.

    The draws come from ``rng`` in order, chunk by chunk (``rng.multinomial(n, p, size=b)``),
    each chunk drawn only when it is asked for.

    Parameters
    ----------
    n : int
        The objects.
    p : numpy.ndarray, shape (m,)
        The cells' probabilities.
    n_resamples : int
        The draws.
    rng : numpy.random.Generator
        The source of randomness.
    cells_per_draw : int
        The cells each draw will hold once made into its tables (the chunk's measure).
    chunk_cells : int, default ``CHUNK_CELLS``
        The most cells of one chunk.

    Yields
    ------
    numpy.ndarray of int, shape (b, m)
        The next b draws.

    Examples
    --------
    >>> chunks = multinomial_draws(10, np.full(4, 0.25), 5, np.random.default_rng(0), 4, 8)
    >>> [c.shape for c in chunks]
    [(2, 4), (2, 4), (1, 4)]
    """
    chunk = max(1, chunk_cells // cells_per_draw)
    for start in range(0, n_resamples, chunk):
        stop = min(n_resamples, start + chunk)
        yield rng.multinomial(n, p, size=stop - start)


def leave_one_out_objects(n: int):
    """The objects 0..n-1 with each one left out in turn.

    Parameters
    ----------
    n : int
        The objects.

    Yields
    ------
    numpy.ndarray of int, shape (n - 1,)
        The objects kept, object i left out (i = 0, 1, ...).

    Examples
    --------
    >>> [idx.tolist() for idx in leave_one_out_objects(3)]
    [[1, 2], [0, 2], [0, 1]]
    """
    everyone = np.arange(n)
    for i in range(n):
        yield np.delete(everyone, i)


def bootstrap_objects(n: int, n_resamples: int, rng: np.random.Generator):
    """Resamples of the objects 0..n-1 with replacement, each drawn when it is asked for.

    Parameters
    ----------
    n : int
        The objects.
    n_resamples : int
        The resamples.
    rng : numpy.random.Generator
        The source of randomness (``rng.integers(0, n, n)`` a resample).

    Yields
    ------
    numpy.ndarray of int, shape (n,)
        The objects drawn.

    Examples
    --------
    >>> [idx.shape for idx in bootstrap_objects(4, 2, np.random.default_rng(0))]
    [(4,), (4,)]
    """
    for _ in range(n_resamples):
        yield rng.integers(0, n, n)


def _take(M: np.ndarray, fmt: str, idx: np.ndarray) -> np.ndarray:
    """A clustering's objects ``idx`` (rows; rows and columns of a similarity matrix). A
    cluster none of whose objects was drawn is no cluster of the resample, and is left out,
    as a resampled table leaves out its empty rows and columns (the entry refuses empty
    clusters, so no index need define its value on one); a resample that holds no cluster
    at all (only objects in none: a cover) is one on which the index is not defined."""
    if fmt == "matrix":
        return M[np.ix_(idx, idx)]
    sub = M[idx]
    drawn = sub.any(axis=0)
    if drawn.all():
        return sub
    if not drawn.any():
        raise ValueError("a resample drew only objects that are in no cluster of one "
                         "clustering, which then has no cluster")
    return sub[:, drawn]


def resampled_pair(pair, idx) -> tuple[tuple, np.ndarray]:
    """Two clusterings on a resample of their objects: the distinct objects drawn, and how
    often each was drawn.

    Parameters
    ----------
    pair : tuple
        ``(X, format_x, Y, format_y)`` as ``Clusterings.pair`` reads them.
    idx : array-like of int
        The objects drawn (``bootstrap_objects``, ``leave_one_out_objects``).

    Returns
    -------
    pair : tuple
        ``(X', format_x, Y', format_y)``: the distinct drawn objects' rows (rows and columns
        of a similarity matrix), a cluster with none of them left out.
    counts : numpy.ndarray of int
        How many times each distinct object was drawn.

    Raises
    ------
    ValueError
        The resample holds no cluster of one clustering (only objects in none of a cover).

    See Also
    --------
    clusteragree.indices.evaluate_resample : The index on the objects and their counts.

    Examples
    --------
    >>> U = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
    >>> (X, fx, Y, fy), counts = resampled_pair((U, "membership", U, "membership"), [0, 0, 1])
    >>> X.tolist(), counts.tolist()
    ([[1.0], [1.0]], [2, 1])
    """
    objects, counts = np.unique(idx, return_counts=True)
    X, fx, Y, fy = pair
    return (_take(X, fx, objects), fx, _take(Y, fy, objects), fy), counts
