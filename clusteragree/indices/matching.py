"""Set-matching indices: clusters are matched or paired, then their overlaps are counted.

Following Rezaei & Franti (2016), with x (rows) the reference classes and y (columns)
the clustering, n_kq the overlaps, a_k = n_k+ and b_q = n_+q:

    purity          = (1/n) sum_q max_k n_kq      (each cluster matched to its best class)
    inverse_purity  = (1/n) sum_k max_q n_kq
    f_measure       = sum_k (a_k/n) max_q 2 n_kq / (a_k + b_q)   (Larsen & Aone 1999; the "FM"
                      of Rezaei & Franti is this F-measure, not Fowlkes-Mallows)
    van_dongen      = (2n - sum_k max_q n_kq - sum_q max_k n_kq) / (2n)   (normalised, NVD)
    criterion_h     = 1 - (1/n) sum over paired clusters of n_kq  (greedy or optimal pairing)
    accuracy        = (1/n) sum over optimally paired clusters of n_kq
    kappa           = Cohen's kappa of the table after optimal matching
    psi             = (S - E) / (max(K, Q) - E), S = sum over optimal pairs of n_kq/max(a_k, b_q)

Every index is vectorised over a batch of tables ``(..., K, Q)`` (null laws evaluate them on
thousands of random tables). An optimal one-to-one pairing is found by enumerating all the
pairings of a small table at once for the whole batch (``pairings``: up to 5 x 5, 4 x 6,
3 x 11, 2 x 39, 1 x Q; the largest sum is the exact optimum), and by
``scipy.optimize.linear_sum_assignment`` once per distinct table of a larger one; a greedy
pairing takes min(K, Q) steps over the batch.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
from scipy.optimize import linear_sum_assignment

from .._validate import check_choice
from ._common import compact_tables, needs_big_integers
from ._registry import register
from .sparse_matching import (accuracy_sparse, criterion_h_sparse, f_measure_sparse,
                              inverse_purity_sparse, psi_distance_sparse, psi_sparse,
                              purity_sparse, van_dongen_similarity_sparse, van_dongen_sparse)

_MATCH = dict(family="set matching")
_REZAEI = ('Rezaei, M. & Franti, P. (2016), "Set matching measures for external cluster '
           'validity", IEEE Transactions on Knowledge and Data Engineering 28(8)')


def best_pairing_total(weights: np.ndarray) -> float:
    """Largest total weight of a one-to-one pairing of rows and columns (one table)."""
    r, c = linear_sum_assignment(weights, maximize=True)
    return float(weights[r, c].sum())


#: A batch of K x Q tables is paired by enumerating its P = max! / (max - min)! one-to-one
#: pairings (min = min(K, Q) cells each) when P * min is at most this; above, by
#: ``linear_sum_assignment`` once per distinct table (crossover measured with
#: benchmarks/bench_matching.py: about 4,000 cells, 6 x 6 or 4 x 7 tables, on 5,000 tables).
ENUMERATION_CELLS = 3000
_CHUNK = 1 << 20  # pairing sums held at once (B x P), 8 MB
_FEW = 16  # tables paired one by one without looking for repeated ones


@functools.lru_cache(maxsize=64)
def pairings(K: int, Q: int) -> np.ndarray | None:
    """Every one-to-one pairing of the rows and columns of a K x Q table, as the flat cell
    positions (k Q + q) it takes, shape (P, min(K, Q)); None when they are too many to
    enumerate (``ENUMERATION_CELLS``).

    >>> pairings(2, 3).tolist()    # row 0 with column q0 and row 1 with another column q1
    [[0, 4], [0, 5], [1, 3], [1, 5], [2, 3], [2, 4]]
    """
    small, large = min(K, Q), max(K, Q)
    if math.perm(large, small) * small > ENUMERATION_CELLS:
        return None
    perms = np.array(list(itertools.permutations(range(large), small)), dtype=np.intp)
    perms = perms.reshape(-1, small)
    if K <= Q:  # perms[p, k]: the column of row k
        cells = np.arange(K) * Q + perms
    else:  # perms[p, q]: the row of column q
        cells = perms * Q + np.arange(Q)
    cells.setflags(write=False)
    return cells


def cells_first(batch: np.ndarray) -> np.ndarray:
    """A batch of tables ``(..., K, Q)`` as one contiguous column per table, shape
    (K Q, B): sums over cells then run along the batch (fast), not along a short last axis."""
    K, Q = batch.shape[-2:]
    return np.ascontiguousarray(batch.reshape(-1, K * Q).T)


def pairing_sums(columns: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """The total weight of each pairing ``cells`` (``pairings``, shape (P, m)) on each table
    of a batch given cells first (``cells_first``, shape (K Q, B)): shape (P, B), in the
    dtype of ``columns`` (exact for integer counts), each sum taken in the order of ``cells``.
    """
    B = columns.shape[1]
    step = max(1, _CHUNK // len(cells))
    if B <= step:
        return _sums_of(columns, cells)
    out = np.empty((len(cells), B), dtype=columns.dtype)
    for start in range(0, B, step):
        out[:, start:start + step] = _sums_of(columns[:, start:start + step], cells)
    return out


def _sums_of(columns, cells):
    total = columns[cells[:, 0]]
    for j in range(1, cells.shape[1]):
        total += columns[cells[:, j]]
    return total


@functools.lru_cache(maxsize=16)
def _hash_multipliers(width: int) -> np.ndarray:
    return np.random.default_rng(0).integers(1, 2**62, size=width) | 1


def distinct_rows(flat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a 2-D array (in no particular order) and, for each row, the
    position of its own among them: ``np.unique(flat, axis=0, return_inverse=True)`` up to
    the order, found by a 64-bit hash of each row (checked) in a tenth of its time.

    >>> rows, inverse = distinct_rows(np.array([[1, 2], [3, 4], [1, 2]]))
    >>> len(rows), rows[inverse].tolist()
    (2, [[1, 2], [3, 4], [1, 2]])
    """
    flat = np.ascontiguousarray(flat)
    bits = flat.view(np.int64) if flat.dtype.itemsize == 8 else flat.astype(np.int64)
    with np.errstate(over="ignore"):
        keys = bits @ _hash_multipliers(bits.shape[1])  # wraps around: a hash
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    if not np.array_equal(flat[first][inverse], flat):  # two rows share a hash
        return np.unique(flat, axis=0, return_inverse=True)
    return flat[first], inverse.ravel()


def optimal_pairings(weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rows and columns of an optimal one-to-one pairing (largest total) of each table
    of a batch ``(B, K, Q)``, both of shape (B, min(K, Q)): ``linear_sum_assignment`` once
    per distinct table."""
    B, K, Q = weights.shape
    if B < _FEW:
        distinct, inverse = weights, np.arange(B)
    else:
        distinct, inverse = distinct_rows(weights.reshape(B, K * Q))
    rows = np.empty((len(distinct), min(K, Q)), dtype=np.intp)
    cols = np.empty_like(rows)
    for i, w in enumerate(distinct.reshape(-1, K, Q)):
        rows[i], cols[i] = linear_sum_assignment(w, maximize=True)
    return rows[inverse], cols[inverse]


def best_pairing_totals(weights: np.ndarray) -> np.ndarray:
    """``best_pairing_total`` of every table of a batch ``(..., K, Q)``, vectorised: the
    maximum over all one-to-one pairings when they are few (``pairings``), otherwise
    ``linear_sum_assignment`` once per distinct table. Float results.

    >>> best_pairing_totals(np.array([[[1, 4], [3, 0]], [[5, 1], [2, 2]]])).tolist()
    [7.0, 7.0]
    """
    weights = np.asarray(weights)
    K, Q = weights.shape[-2:]
    return _best_of_columns(cells_first(weights), K, Q).reshape(weights.shape[:-2])


def _best_of_columns(columns: np.ndarray, K: int, Q: int) -> np.ndarray:
    """``best_pairing_totals`` of a batch given cells first, shape (K Q, B): shape (B,)."""
    cells = pairings(K, Q)
    if cells is None:
        weights = columns.T.reshape(-1, K, Q)
        rows, cols = optimal_pairings(weights)
        return weights[np.arange(len(weights))[:, None], rows, cols].sum(axis=1).astype(float)
    return pairing_sums(columns, cells).max(axis=0).astype(float)


def greedy_pairing_totals(counts: np.ndarray) -> np.ndarray:
    """Greedy pairing of every table of a batch ``(..., K, Q)`` of counts: take the largest
    remaining cell (the first in row-major order among equal ones), remove its row and
    column, repeat min(K, Q) times. Float results.

    >>> greedy_pairing_totals(np.array([[10, 9], [9, 0]])).tolist()   # 10 + 0 (optimal: 18)
    10.0
    """
    K, Q = counts.shape[-2:]
    # a copy (used cells become -1): int64 counts, or floats for real-valued ones (weights)
    kind = np.float64 if np.asarray(counts).dtype.kind == "f" else np.int64
    left = counts.reshape(-1, K, Q).astype(kind)
    rows = np.arange(len(left))
    total = np.zeros(len(left), dtype=kind)
    for _ in range(min(K, Q)):
        flat = left.reshape(len(left), K * Q).argmax(axis=1)
        r, c = np.divmod(flat, Q)
        total += left[rows, r, c]
        left[rows, r, :] = -1
        left[rows, :, c] = -1
    return total.astype(float).reshape(counts.shape[:-2])


def _n(counts):
    return counts.sum(axis=(-2, -1)).astype(float)


@register(name="purity", real_counts=True, title="Purity (of y's clusters w.r.t. x's classes)", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=False,
          reference="Zhao & Karypis (2001); " + _REZAEI, on_sparse=purity_sparse, **_MATCH)
def purity(counts):
    """Purity = (1/n) sum_q max_k n_kq: each cluster of y is matched to its largest class of x.

    >>> float(purity(np.array([[3, 0], [1, 2]])))
    0.8333333333333334
    """
    return counts.max(axis=-2).sum(axis=-1) / _n(counts)


@register(name="inverse_purity", real_counts=True, title="Inverse purity (of x's classes w.r.t. y's clusters)",
          kind="similarity", range=(0.0, 1.0), optimum=1.0, symmetric=False, aliases=("mhm",),
          reference="Amigo et al. (2009); " + _REZAEI, on_sparse=inverse_purity_sparse,
          **_MATCH)
def inverse_purity(counts):
    """Inverse purity = (1/n) sum_k max_q n_kq (purity with the roles of x and y swapped).

    It is also the "Meila-Heckerman measure" of Wagner & Wagner (2007, "Comparing
    clusterings - an overview") and of mclustcomp ("mhm"), x the clustering compared with the
    classes y."""
    return counts.max(axis=-1).sum(axis=-1) / _n(counts)


@register(name="f_measure", real_counts=True, title="F-measure (class-weighted best match)", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=False, options={"reference": "x"},
          reference="Larsen & Aone (1999); " + _REZAEI, on_sparse=f_measure_sparse, **_MATCH)
def f_measure(counts, reference="x"):
    """F = sum_k (a_k/n) max_q F_kq with F_kq = 2 n_kq / (a_k + b_q), the harmonic mean of
    precision n_kq/b_q and recall n_kq/a_k. ``reference="x"`` (default) takes the rows as the
    classes; ``reference="y"`` the columns.

    >>> round(float(f_measure(np.array([[3, 0], [1, 2]]))), 4)
    0.8286
    """
    check_choice(reference, "reference", ("x", "y"))
    if reference == "y":
        counts = np.swapaxes(counts, -1, -2)
    a = counts.sum(axis=-1).astype(float)
    b = counts.sum(axis=-2).astype(float)
    both = a[..., :, None] + b[..., None, :]
    f = 2 * counts / np.where(both > 0, both, 1.0)  # an empty class and cluster share nothing
    return (a * f.max(axis=-1)).sum(axis=-1) / _n(counts)


@register(name="van_dongen", real_counts=True, title="Van Dongen distance (normalised, NVD)", kind="distance",
          range=(0.0, 1.0), optimum=0.0, symmetric=True, aliases=("nvd",),
          reference="van Dongen (2000); " + _REZAEI, on_sparse=van_dongen_sparse, **_MATCH)
def van_dongen(counts):
    """NVD = (2n - sum_k max_q n_kq - sum_q max_k n_kq) / (2n)."""
    best = counts.max(axis=-1).sum(axis=-1) + counts.max(axis=-2).sum(axis=-1)
    n = _n(counts)
    return (2 * n - best) / (2 * n)


@register(name="van_dongen_similarity", real_counts=True, title="Van Dongen similarity (1 - NVD)",
          kind="similarity", range=(0.0, 1.0), optimum=1.0, symmetric=True,
          reference="van Dongen (2000); " + _REZAEI, on_sparse=van_dongen_similarity_sparse, **_MATCH)
def van_dongen_similarity(counts):
    """1 - NVD = (sum_k max_q n_kq + sum_q max_k n_kq) / (2n)."""
    return 1.0 - van_dongen(counts)


@register(name="criterion_h", real_counts=True, title="Criterion H (Meila & Heckerman)", kind="distance",
          range=(0.0, 1.0), optimum=0.0, symmetric=True, options={"pairing": "greedy"},
          reference="Meila & Heckerman (2001); " + _REZAEI, on_sparse=criterion_h_sparse, **_MATCH)
def criterion_h(counts, pairing="greedy"):
    """H = 1 - (1/n) sum_(k,q) paired n_kq. ``pairing="greedy"`` (the original: repeatedly pair
    the largest remaining overlap) or ``"optimal"`` (largest total overlap)."""
    check_choice(pairing, "pairing", ("greedy", "optimal"))
    pair = greedy_pairing_totals if pairing == "greedy" else best_pairing_totals
    return 1.0 - pair(counts) / _n(counts)


@register(name="accuracy", real_counts=True, title="Accuracy after optimal matching", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=True, aliases=("matching_accuracy",),
          reference="Meila & Heckerman (2001); " + _REZAEI, on_sparse=accuracy_sparse, **_MATCH)
def accuracy(counts):
    """Accuracy = (1/n) max over one-to-one pairings of sum n_kq (= 1 - criterion H with
    optimal pairing).

    >>> float(accuracy(np.array([[1, 4], [3, 0]])))
    0.875
    """
    return best_pairing_totals(counts) / _n(counts)


def _matched_square(counts: np.ndarray, matching) -> np.ndarray:
    """Columns of each table of a batch ``(..., K, Q)`` summed onto the rows they are matched
    to: K x K tables."""
    K = counts.shape[-2]
    out = np.zeros(counts.shape[:-1] + (K,), dtype=counts.dtype)
    for q, k in enumerate(matching):
        out[..., k] += counts[..., q]
    return out


def _check_matching(matching, K: int, Q: int) -> np.ndarray:
    m = np.asarray(matching)
    if m.ndim != 1 or len(m) != Q or not np.issubdtype(m.dtype, np.integer):
        raise ValueError(
            f"matching must give, for each of the {Q} columns, the row (0..{K - 1}) it is "
            f"matched to; got {matching!r}"
        )
    if m.min() < 0 or m.max() >= K:
        raise ValueError(f"matching must hold row positions 0..{K - 1}, got {m.tolist()}")
    return m


@register(name="kappa", whole_counts_reason=(
              "its optimal matching of a table too large to enumerate (6 x 6 and up) breaks "
              "ties by a chance term below one count, which only whole counts keep apart"),
          title="Cohen's kappa after optimal matching", kind="similarity",
          range=(-1.0, 1.0), optimum=1.0, symmetric=True, options={"matching": None},
          reference="Cohen (1960); Reilly et al. (2005)", **_MATCH)
def kappa(counts, matching=None):
    """Cohen's kappa (p_o - p_e) / (1 - p_e) of the square table obtained by matching.

    With ``matching=None`` the two clusterings must have as many clusters (K = Q non-empty
    rows and columns) and the columns are permuted to the one-to-one matching of largest
    agreement (trace); among tied matchings, the one with the smallest chance agreement, so
    that relabelling clusters never changes kappa. Cohen's kappa compares two ratings on the
    same categories, and here a category is a cluster: an empty row or column is no cluster
    (``ContingencyTable`` drops it), so every table, alone or in a batch, is read by its
    non-empty rows and columns; a table with 4 non-empty rows and 3 non-empty columns is
    refused, whatever zeros pad it. Otherwise ``matching[q]`` is the row that column q is
    matched to; columns matched to the same row are merged (so K != Q is allowed).
    """
    K, Q = counts.shape[-2:]
    if matching is not None:
        matching = _check_matching(matching, K, Q)
        return _kappa_of_square(_matched_square(counts, matching))
    rows_on, cols_on = counts.sum(axis=-1) > 0, counts.sum(axis=-2) > 0
    k, q = rows_on.sum(axis=-1), cols_on.sum(axis=-1)
    if np.any(k != q):
        raise ValueError(_kappa_refusal(counts.shape, k, q))
    if K != Q or not (rows_on.all() and cols_on.all()):  # empty clusters: left out
        flat = counts.reshape((-1, K, Q))
        out = np.empty(len(flat))
        for where, sub in compact_tables(flat):
            out[where] = kappa(sub)
        return out.reshape(counts.shape[:-2])
    cells = pairings(K, K)
    if cells is None:
        return _kappa_by_assignment(counts)
    cols = cells_first(counts)  # (K K, B)
    table = cols.reshape(K, K, -1)
    a, b = table.sum(axis=1), table.sum(axis=0)  # (K, B)
    n = a.sum(axis=0)
    if needs_big_integers(n):  # a_k b_q beyond int64: products in floats
        a, b = a.astype(float), b.astype(float)
    chance = (a[:, None, :] * b[None, :, :]).reshape(K * K, -1)  # a_k b_q of each cell
    trace = pairing_sums(cols, cells)  # (P, B)
    best = trace.argmax(axis=0)
    # Largest agreement first; among equally large matchings the one with the smallest
    # chance agreement sum a_k b_q (so the result does not depend on cluster order).
    top = trace == trace[best, np.arange(len(best))]
    tied = np.flatnonzero(top.sum(axis=0) > 1)
    if tied.size:
        tied_chance = pairing_sums(chance[:, tied], cells)
        tied_chance[~top[:, tied]] = tied_chance.max() + 1
        best[tied] = tied_chance.argmin(axis=0)
    picked = cells[best].T  # (K, B): the cells of each table's matching
    columns = np.arange(len(best))
    values = _kappa_formula(cols[picked, columns].sum(axis=0),
                            chance[picked, columns].sum(axis=0), n.astype(float))
    return values.reshape(counts.shape[:-2])


def _kappa_refusal(shape, k, q) -> str:
    """Why kappa refuses a table (or a batch) whose numbers of non-empty rows ``k`` and
    columns ``q`` differ: the first such table named, with its non-empty clusters."""
    K, Q = shape[-2:]
    first = tuple(int(i) for i in np.argwhere(np.asarray(k != q))[0]) if np.ndim(k) else ()
    kk, qq = int(np.asarray(k)[first]), int(np.asarray(q)[first])
    where = f"table {first if len(first) > 1 else first[0]} of the batch is" if first else "got"
    padded = "" if (kk, qq) == (K, Q) else (f" whose non-empty rows and columns (the "
                                            f"clusters) make a {kk} x {qq} table")
    return (f"kappa needs as many clusters in x as in y ({where} a {K} x {Q} table{padded}); "
            "pass matching=[row of column 0, row of column 1, ...] to merge columns onto rows")


def _kappa_formula(trace, chance, n):
    """(p_o - p_e) / (1 - p_e), p_o = trace / n, p_e = chance / n^2; p_e = 1 only when both
    clusterings are one single cluster: identical, kappa = 1."""
    po = trace / n
    pe = chance / (n * n)
    return np.where(pe != 1, (po - pe) / np.where(pe != 1, 1 - pe, 1.0), 1.0)


def _kappa_of_square(sq):
    """Cohen's kappa of each square table of a batch (..., K, K)."""
    n = sq.sum(axis=(-2, -1)).astype(float)
    chance = (sq.sum(axis=-1) * sq.sum(axis=-2)).sum(axis=-1)
    return _kappa_formula(np.trace(sq, axis1=-2, axis2=-1), chance, n)


def _kappa_by_assignment(counts):
    """Kappa of each square table of a batch after its optimal matching found by
    ``linear_sum_assignment`` on the agreement less a chance term below one count, which
    only breaks ties (for tables too large to enumerate their matchings)."""
    K = counts.shape[-1]
    flat = counts.reshape(-1, K, K)
    n2 = flat.sum(axis=(1, 2)).astype(float) ** 2
    a, b = flat.sum(axis=2), flat.sum(axis=1)
    weights = flat - a[:, :, None] * b[:, None, :] / (n2[:, None, None] + 1.0)
    _, cols = optimal_pairings(weights)  # rows 0..K-1 in order
    square = np.take_along_axis(flat, cols[:, None, :], axis=2)  # columns matched to rows
    return _kappa_of_square(square).reshape(counts.shape[:-2])


def _psi(counts, simplified: bool, clip: bool) -> np.ndarray:
    """PSI of each table of a batch ``(..., K, Q)``. Empty rows and columns change nothing
    but K and Q: their similarities are 0 (an optimal pairing of the other clusters extends
    to them at no cost) and their sizes 0 (the last terms of E)."""
    K, Q = counts.shape[-2:]
    table = cells_first(counts).reshape(K, Q, -1)
    a = table.sum(axis=1).astype(float)  # (K, B)
    b = table.sum(axis=0).astype(float)  # (Q, B)
    larger = np.maximum(a[:, None, :], b[None, :, :])
    similarity = table / np.where(larger > 0, larger, 1.0)  # Braun-Banquet; 0 if both empty
    S = _best_of_columns(similarity.reshape(K * Q, -1), K, Q)
    k, q = (a > 0).sum(axis=0), (b > 0).sum(axis=0)  # the non-empty clusters
    if simplified:
        E = 1.0
    else:
        m = min(K, Q)
        top_a = -np.sort(-a, axis=0)[:m]
        top_b = -np.sort(-b, axis=0)[:m]
        E = np.minimum(top_a, top_b).sum(axis=0) / a.sum(axis=0)
    one = (k == 1) & (q == 1)  # max(k, q) >= 2 > E otherwise (E <= 1)
    value = np.where(one, 1.0, (S - E) / np.where(one, 2.0, np.maximum(k, q) - E))
    value = np.maximum(value, 0.0) if clip else value
    return value.reshape(counts.shape[:-2])


@register(name="psi", real_counts=True, title="Pair sets index (PSI)", kind="similarity", range=(0.0, 1.0),
          optimum=1.0, symmetric=True, options={"simplified": False, "clip": True},
          reference=_REZAEI, on_sparse=psi_sparse, **_MATCH)
def psi(counts, simplified=False, clip=True):
    """Pair sets index of Rezaei & Franti (2016, eqs 14-20).

    S = max over one-to-one pairings of sum n_kq / max(a_k, b_q) (Braun-Banquet similarity),
    E = sum_r min(a_(r), b_(r)) / n with both size lists sorted in decreasing order (the
    similarity of the expected table, which the paper calls the expected value: it is not the
    null mean of S, so PSI is slightly positive on random partitions),
    PSI = (S - E) / (max(K, Q) - E) if S >= E, 0 if S < E (``clip=False`` keeps the negative
    value), 1 if K = Q = 1. ``simplified=True`` takes E = 1 (the metric form, eq 20).

    >>> round(float(psi(np.array([[40, 0], [5, 35]]))), 4)  # (1.7639 - 0.9375) / (2 - 0.9375)
    0.7778
    """
    if not isinstance(simplified, bool) or not isinstance(clip, bool):
        raise TypeError("simplified and clip must be True or False")
    return _psi(counts, simplified, clip)


@register(name="psi_distance", real_counts=True, title="Pair sets index, distance form (1 - PSI)",
          kind="distance", range=(0.0, 1.0), optimum=0.0, symmetric=True,
          options={"simplified": False}, reference=_REZAEI, on_sparse=psi_distance_sparse, **_MATCH)
def psi_distance(counts, simplified=False):
    """1 - PSI (Rezaei & Franti 2016, eq 19; with ``simplified=True`` a metric, eq 20)."""
    return 1.0 - psi(counts, simplified=simplified, clip=True)
