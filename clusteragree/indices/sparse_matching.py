"""Set-matching indices and element-centric similarity from the non-zero cells of a table.

For partitions into many clusters the table is kept sparse (``clusteragree.sparse_tables``):
its non-zero cells as a ``scipy.sparse.csr_array`` (no empty row or column) and its margins.
The indices here are computed from them, equal to their dense forms
(``clusteragree.indices.matching``, ``element_centric_table``):

* purity, inverse purity, the Van Dongen measures and the F-measure need each row's or column's
  largest cell (or largest F_kq, 0 on an empty cell), taken over the stored cells;
* accuracy, criterion H with optimal pairing and PSI need a maximum-weight one-to-one pairing
  of rows and columns, found on the non-zero cells by
  ``scipy.sparse.csgraph.min_weight_full_bipartite_matching`` (LAPJVsp; Carpaneto, Martello &
  Toth 1988). It needs a matching that covers the smaller side: each row k gets its own
  dummy column of weight C, and each real cell the weight w + C, so that every full matching of
  the rows weighs K C plus its real weights and the heaviest one is the heaviest pairing of
  the cells (a row on its dummy is a row left unpaired, as a zero cell pairs it). The total is
  then summed from the real cells of the matching alone, without the shift;
* element-centric similarity of two partitions is (1/n) sum_ij n_ij^2 / max(a_i, b_j).
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.sparse.csgraph import min_weight_full_bipartite_matching

__all__ = ["column_maxima", "row_maxima", "purity_sparse", "inverse_purity_sparse",
           "van_dongen_sparse", "van_dongen_similarity_sparse", "f_measure_sparse",
           "best_pairing_sparse", "accuracy_sparse", "criterion_h_sparse", "psi_sparse",
           "psi_distance_sparse", "element_centric_sparse"]


def row_maxima(cells, values=None) -> np.ndarray:
    """The largest stored value of each row of a CSR array with no empty row (``values``:
    other values on the same cells)."""
    data = cells.data if values is None else values
    return np.maximum.reduceat(data, cells.indptr[:-1])


def column_maxima(cells, values=None) -> np.ndarray:
    """The largest stored value of each column (no empty column)."""
    csr = sparse.csr_array((cells.data if values is None else values, cells.indices,
                            cells.indptr), shape=cells.shape)
    csc = csr.tocsc()  # each column's stored values together (explicit zeros are kept)
    return np.maximum.reduceat(csc.data, csc.indptr[:-1])


def _n(rows) -> float:
    return float(np.asarray(rows).sum())


def purity_sparse(cells, rows, cols) -> float:
    """Purity = (1/n) sum_q max_k n_kq, from the non-zero cells.

    >>> cells = sparse.csr_array(np.array([[3, 0], [1, 2]]))
    >>> float(purity_sparse(cells, cells.sum(axis=1), cells.sum(axis=0)))
    0.8333333333333334
    """
    return float(column_maxima(cells).sum()) / _n(rows)


def inverse_purity_sparse(cells, rows, cols) -> float:
    """Inverse purity = (1/n) sum_k max_q n_kq, from the non-zero cells."""
    return float(row_maxima(cells).sum()) / _n(rows)


def van_dongen_sparse(cells, rows, cols) -> float:
    """NVD = (2n - sum_k max_q n_kq - sum_q max_k n_kq) / (2n), from the non-zero cells."""
    n = _n(rows)
    best = float(row_maxima(cells).sum()) + float(column_maxima(cells).sum())
    return (2 * n - best) / (2 * n)


def van_dongen_similarity_sparse(cells, rows, cols) -> float:
    """1 - NVD, from the non-zero cells."""
    return 1.0 - van_dongen_sparse(cells, rows, cols)


def f_measure_sparse(cells, rows, cols, reference="x") -> float:
    """F = sum_k (a_k/n) max_q 2 n_kq / (a_k + b_q), from the non-zero cells (a zero cell has
    F_kq = 0, below every stored one); ``reference="y"`` swaps the roles of x and y."""
    a, b = np.asarray(rows, dtype=float), np.asarray(cols, dtype=float)
    if reference == "y":
        cells, a, b = sparse.csr_array(cells.T), b, a
    r = np.repeat(np.arange(cells.shape[0]), np.diff(cells.indptr))
    f = 2 * cells.data / (a[r] + b[cells.indices])
    return float((a * row_maxima(cells, f)).sum()) / _n(rows)


def best_pairing_sparse(cells, weights=None) -> tuple[float, np.ndarray, np.ndarray]:
    """The heaviest one-to-one pairing of rows and columns on the non-zero cells.

    Parameters
    ----------
    cells : scipy.sparse.csr_array
        The table's non-zero cells (K x Q).
    weights : ndarray, optional
        Positive weights of the stored cells (default: the counts).

    Returns
    -------
    total : float
        The largest total weight of a pairing (cells paired with zero cells add nothing).
    rows, cols : ndarray of int
        The paired cells (non-zero ones only).

    Examples
    --------
    >>> total, r, c = best_pairing_sparse(sparse.csr_array(np.array([[1, 4], [3, 0]])))
    >>> total, r.tolist(), c.tolist()
    (7.0, [0, 1], [1, 0])
    """
    K, Q = cells.shape
    w = np.asarray(cells.data if weights is None else weights, dtype=float)
    shift = 1.0  # every real cell w + 1, every dummy 1: see the module docstring
    coo = sparse.coo_array((w + shift, (np.repeat(np.arange(K), np.diff(cells.indptr)),
                                        cells.indices)), shape=(K, Q))
    dummies = sparse.coo_array((np.full(K, shift), (np.arange(K), Q + np.arange(K))),
                               shape=(K, Q + K))
    graph = sparse.csr_array(sparse.hstack([coo, sparse.coo_array((K, K))]) + dummies)
    row_ind, col_ind = min_weight_full_bipartite_matching(graph, maximize=True)
    real = col_ind < Q
    r, c = row_ind[real], col_ind[real]
    lookup = sparse.csr_array((w, cells.indices, cells.indptr), shape=(K, Q))
    total = float(np.asarray(lookup[r, c]).sum()) if r.size else 0.0
    return total, r, c


def accuracy_sparse(cells, rows, cols) -> float:
    """Accuracy = (1/n) max over one-to-one pairings of sum n_kq, from the non-zero cells."""
    return best_pairing_sparse(cells)[0] / _n(rows)


def criterion_h_sparse(cells, rows, cols, pairing="greedy") -> float:
    """Criterion H with ``pairing="optimal"`` from the non-zero cells; the greedy pairing
    (the default) takes the cells one by one and needs the dense table."""
    if pairing != "optimal":
        K, Q = cells.shape
        raise ValueError(f"index 'criterion_h' with pairing='greedy' needs the dense {K:,} x "
                         f"{Q:,} table; on a sparse table pass pairing='optimal' (= 1 - "
                         "accuracy), or the dense table (tab.to_dense()) if it fits")
    return 1.0 - accuracy_sparse(cells, rows, cols)


def psi_sparse(cells, rows, cols, simplified=False, clip=True) -> float:
    """PSI (Rezaei & Franti 2016) from the non-zero cells: S by a sparse pairing of the
    Braun-Banquet similarities n_kq / max(a_k, b_q), E from the sorted cluster sizes."""
    a, b = np.asarray(rows, dtype=float), np.asarray(cols, dtype=float)
    K, Q = cells.shape
    if K == 1 and Q == 1:
        return 1.0
    r = np.repeat(np.arange(K), np.diff(cells.indptr))
    similarity = cells.data / np.maximum(a[r], b[cells.indices])
    S = best_pairing_sparse(cells, similarity)[0]
    if simplified:
        E = 1.0
    else:
        m = min(K, Q)
        E = float(np.minimum(np.sort(a)[::-1][:m], np.sort(b)[::-1][:m]).sum()) / float(a.sum())
    value = (S - E) / (max(K, Q) - E)
    return max(value, 0.0) if clip else value


def psi_distance_sparse(cells, rows, cols, simplified=False) -> float:
    """1 - PSI, from the non-zero cells."""
    return 1.0 - psi_sparse(cells, rows, cols, simplified=simplified, clip=True)


def element_centric_sparse(cells, rows, cols, alpha=0.9) -> float:
    """Element-centric similarity of two partitions, (1/n) sum_ij n_ij^2 / max(a_i, b_j),
    from the non-zero cells (independent of ``alpha``; Gates et al. 2019)."""
    a, b = np.asarray(rows, dtype=float), np.asarray(cols, dtype=float)
    r = np.repeat(np.arange(cells.shape[0]), np.diff(cells.indptr))
    data = cells.data.astype(float)
    terms = np.sort(data * data / np.maximum(a[r], b[cells.indices]))
    return float(terms.sum()) / float(a.sum())
