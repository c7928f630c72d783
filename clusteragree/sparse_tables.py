"""Contingency tables of many clusters, kept as their non-zero cells.

Two partitions of n objects into K and Q clusters have at most n non-zero cells, however large
K x Q is: 10**4 clusters each make a dense table of 10**8 cells (800 MB), while the objects
fill at most 10**6 of them. ``SparseContingencyTable`` keeps the non-zero cells
(``scipy.sparse``) and the margins, built from the labels in O(n) memory; every index that
depends on the table only through sum n_ij^2 or sum n_ij log n_ij and the margins (the
pair-counting and information families: ARI, AMI, NMI, VI, Rand, Jaccard, ...) is computed
from them (``clusteragree.indices.evaluate_sparse``), and an index that needs the dense table
refuses with the table's size.

``crosstab`` makes one when the dense table would be large and mostly zeros
(``use_sparse``); ``SparseContingencyTable(matrix)`` reads any scipy sparse matrix of counts.
"""

from __future__ import annotations

import numpy as np

from .tables import ContingencyTable, PairCounts, check_axis_labels, check_total

__all__ = ["SparseContingencyTable", "use_sparse", "DENSE_CELLS", "DENSE_BYTES"]

#: Tables of at most this many cells are kept dense whatever their fill (8 MB of int64).
DENSE_CELLS = 1 << 20

#: The memory a dense table may take when an index needs it (``to_dense``): 1 GB.
DENSE_BYTES = 1 << 30


def use_sparse(K: int, Q: int, n: int) -> bool:
    """Whether a K x Q table of n objects is kept sparse: more than ``DENSE_CELLS`` cells and
    more than 4 cells per object (so that at least three quarters of it are zeros).

    Parameters
    ----------
    K, Q : int
        The numbers of clusters.
    n : int
        The number of objects.

    Returns
    -------
    bool
        True for a sparse table.

    See Also
    --------
    SparseContingencyTable : The sparse table.

    Examples
    --------
    >>> use_sparse(4, 4, 846), use_sparse(10**4, 10**4, 10**6)
    (False, True)
    """
    cells = int(K) * int(Q)
    return cells > DENSE_CELLS and cells > 4 * int(n)


class SparseContingencyTable:
    """The cross-classification of two clusterings, kept as its non-zero cells.

    Parameters
    ----------
    cells : scipy.sparse array or matrix, shape (K, Q)
        Non-negative whole counts (duplicates are summed, zeros dropped). Empty rows and
        columns are dropped with their labels, as ``ContingencyTable`` drops them.
    row_labels, col_labels : sequence, optional
        Cluster labels of the rows (x) and columns (y); default 0..K-1 and 0..Q-1.
    names : (str, str), default ("x", "y")
        Names of the two clusterings.
    name : str, default "cells"
        How errors name the counts (the entry passes the argument's name).

    Attributes
    ----------
    cells : scipy.sparse.csr_array
        The non-zero counts (int64).
    row_sums, col_sums : ndarray of int64
        The margins.
    n : int
        The number of objects.
    shape : (int, int)
        (K, Q).
    nnz : int
        The number of non-zero cells.
    dense : bool
        False: the table holds its non-zero cells only (``counts`` is refused; ``to_dense()``
        makes the dense table). It answers the questions a ``ContingencyTable`` answers
        (margins, n, shape, pairs, nnz, values, cells, to_dense).

    See Also
    --------
    ContingencyTable : The dense table.
    clusteragree.crosstab : Makes one when the dense table would be large and mostly zeros.

    Examples
    --------
    >>> from scipy import sparse
    >>> tab = SparseContingencyTable(sparse.csr_array(np.array([[30, 20], [10, 20]])))
    >>> tab.n, tab.nnz, tab.pairs.a11
    (80, 4, 860)
    >>> tab.to_dense().counts.tolist()
    [[30, 20], [10, 20]]
    """

    def __init__(self, cells, row_labels=None, col_labels=None, names=("x", "y"), *,
                 name="cells"):
        from scipy import sparse

        if not sparse.issparse(cells):
            raise TypeError(f"{name} must be a scipy.sparse array or matrix, got "
                            f"{type(cells).__name__}; a dense table is a ContingencyTable")
        if cells.ndim != 2 or 0 in cells.shape:
            raise ValueError(f"{name} must be a K x Q table with a row and a column, got shape "
                             f"{cells.shape}")
        # the entries as given (a duplicate is a part of its cell): checked before any sum,
        # so that no count or total overflows int64 on the way
        data = sparse.coo_array(cells).data
        if data.dtype.kind not in "iub":
            if data.dtype.kind != "f" or not np.all(np.isfinite(data)) or np.any(
                    data != np.round(data)):
                raise ValueError(f"{name} must hold whole counts of objects (finite integers)")
        if data.size and data.min() < 0:
            raise ValueError(f"{name} must be non-negative counts, got {data.min()}")
        check_total(data, name)  # at most 2**53 objects: every sum below is exact in int64
        m = sparse.csr_array(cells, dtype=np.int64)
        m.sum_duplicates()
        m.eliminate_zeros()
        rows = np.asarray(m.sum(axis=1)).ravel()
        cols = np.asarray(m.sum(axis=0)).ravel()
        n = int(rows.sum())
        if n == 0:
            raise ValueError(f"{name} has no objects (all counts are 0)")
        keep_r, keep_c = rows > 0, cols > 0
        row_labels = check_axis_labels(row_labels, m.shape[0], "row_labels")
        col_labels = check_axis_labels(col_labels, m.shape[1], "col_labels")
        if not (keep_r.all() and keep_c.all()):
            m = m[np.flatnonzero(keep_r)][:, np.flatnonzero(keep_c)]
            rows, cols = rows[keep_r], cols[keep_c]
            row_labels, col_labels = row_labels[keep_r], col_labels[keep_c]
        if not (isinstance(names, (tuple, list)) and len(names) == 2):
            raise TypeError(f"names must be a pair of names (x, y), got {names!r}")
        self.cells = m
        self.row_sums, self.col_sums = rows, cols
        self.row_sums.setflags(write=False)
        self.col_sums.setflags(write=False)
        self.row_labels, self.col_labels = row_labels, col_labels
        self.names = (str(names[0]), str(names[1]))
        self._pairs = None

    #: The table holds its non-zero cells only (``ContingencyTable.dense`` is True).
    dense = False

    @property
    def n(self) -> int:
        """Number of objects."""
        return int(self.row_sums.sum())

    @property
    def shape(self) -> tuple[int, int]:
        """(K, Q): the numbers of clusters of x (rows) and of y (columns)."""
        return self.cells.shape

    @property
    def nnz(self) -> int:
        """The number of non-zero cells."""
        return int(self.cells.nnz)

    @property
    def values(self) -> np.ndarray:
        """The non-zero counts (int64, in row-major order of their cells)."""
        return self.cells.data

    @property
    def pairs(self) -> PairCounts:
        """Exact pair counts a11, a10, a01, a00, from the non-zero cells and the margins."""
        if self._pairs is None:
            def choose2(v):
                return sum(int(c) * (int(c) - 1) // 2 for c in v.tolist())
            a11, rows, cols = choose2(self.values), choose2(self.row_sums), choose2(self.col_sums)
            total = self.n * (self.n - 1) // 2
            self._pairs = PairCounts(a11=a11, a10=rows - a11, a01=cols - a11,
                                     a00=total - rows - cols + a11)
        return self._pairs

    @property
    def counts(self):
        """Refused: a sparse table has no dense counts (``to_dense()`` makes them)."""
        K, Q = self.shape
        raise ValueError(f"this {K:,} x {Q:,} table is sparse ({self.nnz:,} non-zero cells): "
                         f"its dense counts would take {8 * K * Q / 1e6:,.0f} MB; use "
                         "tab.to_dense() if you need them")

    def to_dense(self) -> ContingencyTable:
        """The dense table (refused above ``DENSE_BYTES`` of memory).

        Returns
        -------
        ContingencyTable
            The same counts, labels and names.
        """
        K, Q = self.shape
        if 8 * K * Q > DENSE_BYTES:
            raise ValueError(f"the dense {K:,} x {Q:,} table would take {8 * K * Q / 1e9:,.1f} "
                             f"GB (more than {DENSE_BYTES / 1e9:.1f} GB)")
        return ContingencyTable(self.cells.toarray(), self.row_labels, self.col_labels,
                                names=self.names)

    def __repr__(self) -> str:
        K, Q = self.shape
        return (f"SparseContingencyTable: {K:,} x {Q:,}, n = {self.n:,}, {self.nnz:,} non-zero "
                f"cells  (rows: {self.names[0]}, columns: {self.names[1]})")
