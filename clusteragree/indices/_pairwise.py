"""Indices of object pairs for inputs that are not partitions (memberships, similarity matrices).

Such an index compares, pair by pair, what two clusterings say about each object pair: a
*representation* turns one clustering into n x n matrices (e.g. J = U U^T, the degree to which
two objects share a cluster), and the index is a function of their upper triangles (vectors of
m = n(n - 1)/2 pair values), vectorised over a leading batch axis of the second clustering's
vectors. Null models then only permute:

* objects: y's matrices reindexed by a permutation pi of the objects, M[pi][:, pi] (the
  Mantel / QAP null: it keeps each matrix's structure);
* pairs: y's pair vectors permuted directly (the null of Amodio, S., D'Ambrosio, A., Iorio, C.
  & Siciliano, R. (2015), "Adjusted concordance index, an extension of the adjusted Rand index
  to fuzzy partitions", STAD Research Report 03/2015; Journal of Classification, 2021).

Both nulls move each of y's pair values to a uniformly random pair, so any statistic that is a
sum over pairs of f(x_ij, y_ij) has the same mean under both: (1/m) sum_ij sum_kl f(x_ij, y_kl).
Their variances differ, because object permutations move the m pair values in dependent blocks
(all pairs of one object move together) while pair permutations move them independently.

``sum_of_min`` and ``sum_of_abs_diff`` give those all-cross-pair sums in O(m log m) by sorting
(the idea of Algorithm 1 of {ref:horta2015}, written with prefix sums and a
binary search instead of its two merge loops; the printed loops compare x_i <= y_j at step 8 and
x_i > y_j at step 16 and lack the decrement i <- i - 1 after the first inner loop, all corrected
here).
"""

from __future__ import annotations

import math

import numpy as np

from .._docs import fill

__doc__ = fill(__doc__)

__all__ = ["upper", "upper_index", "sum_of_min", "sum_of_abs_diff", "gather_objects",
           "repeat_pairs", "evaluate_resample", "ResampleRefused"]


def upper_index(n: int):
    """Row and column indices of the strict upper triangle of an n x n matrix."""
    return np.triu_indices(n, k=1)


def upper(M: np.ndarray) -> np.ndarray:
    """The strict upper triangle of a square matrix as a vector of length n(n-1)/2."""
    return M[upper_index(M.shape[0])]


def gather_objects(M: np.ndarray, perms: np.ndarray) -> np.ndarray:
    """The upper triangles of a matrix with its objects permuted: the objects null.

    For each permutation pi, the strict upper triangle of M[pi][:, pi] (the Mantel / QAP
    null: the matrix's structure is kept, its objects relabelled). Row and column takes keep
    memory access sequential (a direct gather of m scattered entries per permutation is
    several times slower for large n).

    Parameters
    ----------
    M : ndarray, shape (n, n)
        A representation of y (e.g. J = U U^T).
    perms : ndarray of int, shape (B, n)
        B permutations of the n objects, one a row.

    Returns
    -------
    ndarray of float, shape (B, m)
        The m = n(n - 1)/2 pair values of each permuted matrix, in the order of ``upper``.

    See Also
    --------
    upper : The upper triangle of one matrix.
    pair_vectors : The pair vectors of two clusterings.

    Examples
    --------
    >>> M = np.arange(16.0).reshape(4, 4)
    >>> upper(M)
    array([ 1.,  2.,  3.,  6.,  7., 11.])
    >>> gather_objects(M, np.array([[0, 1, 2, 3], [3, 2, 1, 0]]))
    array([[ 1.,  2.,  3.,  6.,  7., 11.],
           [14., 13., 12.,  9.,  8.,  4.]])
    """
    n = M.shape[0]
    iu, ju = upper_index(n)
    flat = iu * n + ju
    out = np.empty((len(perms), len(flat)))
    for b, pi in enumerate(perms):
        out[b] = M.take(pi, axis=0).take(pi, axis=1).ravel().take(flat)
    return out


def _below(x, y):
    """For each x_i: k_i = #{j: y_j < x_i}, the sum of those y_j, and the total of y."""
    ys = np.sort(np.asarray(y, float))
    prefix = np.concatenate(([0.0], np.cumsum(ys)))
    k = np.searchsorted(ys, x, side="left")  # x sorted by the caller: sequential search
    return k, prefix[k], prefix[-1], len(ys)


def sum_of_min(x: np.ndarray, y: np.ndarray) -> float:
    """sum_i sum_j min(x_i, y_j) over all cross pairs, in O(m log m) by sorting y:
    sum_j min(x_i, y_j) = (sum of the y_j below x_i) + x_i #{j: y_j >= x_i}
    (Horta & Campello 2015, eq 24).

    >>> sum_of_min(np.array([1.0, 3.0]), np.array([2.0, 2.0]))   # 1 + 1 + 2 + 2
    6.0
    """
    x = np.sort(np.asarray(x, float))
    k, below, _, ny = _below(x, y)
    return float(below.sum() + (x * (ny - k)).sum())


def sum_of_abs_diff(x: np.ndarray, y: np.ndarray) -> float:
    """sum_i sum_j |x_i - y_j| over all cross pairs, in O(m log m) by sorting y.

    >>> sum_of_abs_diff(np.array([1.0, 3.0]), np.array([2.0, 2.0]))
    4.0
    """
    x = np.sort(np.asarray(x, float))
    k, below, total, ny = _below(x, y)
    return float((x * k - below).sum() + ((total - below) - x * (ny - k)).sum())


# -- evaluation on validated clusterings (``clusteragree.inputs.Clusterings.pair``) ----------

#: Pair values computed at once when a representation is built by blocks of rows.
BLOCK_CELLS = 2_000_000


def row_blocks(n: int):
    """(start, stop) of blocks of rows holding about BLOCK_CELLS cells of an n x n matrix."""
    step = max(1, BLOCK_CELLS // max(n, 1))
    for start in range(0, n, step):
        yield start, min(n, start + step)


def upper_of_block(block: np.ndarray, start: int) -> np.ndarray:
    """The entries (i, j), j > i, of the rows start.. of an n x n matrix (row-major order, as
    ``upper``)."""
    rows = np.arange(start, start + block.shape[0])
    return block[np.arange(block.shape[1])[None, :] > rows[:, None]]


def _upper_vectors(rec, X, kind):
    """Upper-triangle vectors of a clustering's representation, built by blocks of rows when
    the representation offers it (no n x n matrix is held)."""
    by_rows = getattr(rec.representation, "rows", None)
    if by_rows is None:
        return tuple(upper(M) for M in rec.representation(X, kind))
    parts = [tuple(upper_of_block(B, start) for B in blocks)
             for start, blocks in by_rows(X, kind)]
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(len(parts[0])))


def pair_vectors(rec, pair):
    """The pair vectors of two clusterings: the upper triangles of their representations.

    Each clustering is turned into the index's n x n matrices (``rec.representation``), built
    by blocks of rows when the representation offers it (no n x n matrix is then held), and
    each matrix into the vector of its m = n(n - 1)/2 pair values (the order of ``upper``).

    Parameters
    ----------
    rec : PairIndex
        The index's registry record; it must have a ``representation``.
    pair : tuple
        The validated clusterings ``(X, format_x, Y, format_y)``
        (``clusteragree.inputs.Clusterings.pair``).

    Returns
    -------
    xs, ys : tuple of ndarray
        The pair vectors of x's and of y's representations, one vector (shape (m,)) per
        matrix of the representation.

    See Also
    --------
    evaluate_pairwise : The index on the two clusterings.
    gather_objects : y's pair vectors under permutations of its objects.

    Examples
    --------
    >>> from clusteragree.inputs import as_clusterings
    >>> U = [[1.0, 0.0], [0.8, 0.2], [0.1, 0.9], [0.0, 1.0]]
    >>> rec = ca.get_index("ndc")
    >>> xs, ys = pair_vectors(rec, as_clusterings(U, [0, 0, 1, 1], table=False,
    ...                                           pairs=["ndc"]).pair(rec))
    >>> xs[0].round(2), ys[0]                           # pairs (0,1), (0,2), ..., (2,3)
    (array([0.8, 0.1, 0. , 0.3, 0.2, 0.9]), array([1., 0., 0., 0., 0., 1.]))
    """
    X, kx, Y, ky = pair
    return _upper_vectors(rec, X, kx), _upper_vectors(rec, Y, ky)


def evaluate_pairwise(rec, pair, options) -> float:
    """An index of object pairs on two validated clusterings (no checks).

    The index is computed from the two clusterings directly (no ``representation``), by its
    memory-lean direct form (``value``), or from the pair vectors (``pair_vectors``) and the
    constants of ``prepare``. ``clusteragree.agreement`` is the checked entry.

    Parameters
    ----------
    rec : PairIndex
        The index's registry record.
    pair : tuple
        The validated clusterings ``(X, format_x, Y, format_y)``
        (``clusteragree.inputs.Clusterings.pair``).
    options : dict
        The index's options, already checked.

    Returns
    -------
    float
        The index.

    See Also
    --------
    pair_vectors : The pair vectors the index is computed from.
    clusteragree.agreement : Any index on two clusterings, checked.

    Examples
    --------
    >>> from clusteragree.inputs import as_clusterings
    >>> U = [[1.0, 0.0], [0.8, 0.2], [0.1, 0.9], [0.0, 1.0]]
    >>> rec = ca.get_index("ndc")
    >>> pair = as_clusterings(U, [0, 0, 1, 1], table=False, pairs=["ndc"]).pair(rec)
    >>> evaluate_pairwise(rec, pair, {}), ca.agreement(U, [0, 0, 1, 1], index="ndc")
    (0.85, 0.85)
    """
    X, kx, Y, ky = pair
    if rec.representation is None:  # an index computed directly from the two clusterings
        value = float(rec.func(X, Y, **options))
    elif rec.value is not None:  # a memory-lean direct form of the same value
        value = float(rec.value(X, kx, Y, ky, **options))
    else:
        xs, ys = pair_vectors(rec, pair)
        const = rec.prepare(xs, ys, **options) if rec.prepare else {}
        value = float(rec.func(xs, ys, **const, **options))
    if math.isnan(value):  # never a silent nan: a case the index's definition missed
        raise RuntimeError(f"index {rec.name!r} gave nan on these clusterings; please report "
                           "them")
    return value


# -- bootstrap resamples of the objects -------------------------------------------------------

class ResampleRefused(ValueError):
    """An index with no evaluation on a resample of the objects that leaves out the pairs of an
    object's copies (``evaluate_resample``): it gets no bootstrap interval."""


def repeat_pairs(v: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """A pair vector of distinct objects (the order of ``upper``) as the pair vector of their
    resample: pair (i, k) repeated w_i w_k times, the pairs of one object's copies absent.

    >>> repeat_pairs(np.array([1.0, 2.0, 3.0]), np.array([2, 1, 1]))   # pairs 01, 02, 12
    array([1., 1., 2., 2., 3.])
    """
    return np.repeat(v, upper(np.multiply.outer(counts, counts)))


def _rows_repeated(M, fmt, counts):
    """A clustering's distinct objects, each repeated as often as it was drawn."""
    idx = np.repeat(np.arange(len(counts)), counts)
    return M[np.ix_(idx, idx)] if fmt == "matrix" else M[idx]


def evaluate_resample(rec, pair, options, counts) -> float:
    """An index of object pairs on a bootstrap resample of the objects (no checks).

    The resample is the empirical population of the drawn objects: the distinct objects, each
    with its multiplicity w_i (sum w_i = n). A sum over the resample's pairs is the sum over
    the pairs i < k of distinct objects of w_i w_k f(i, k): the copies of one object form no
    pair (counted as a pair they would agree perfectly in both clusterings, by construction,
    and bias the resampled index upwards). An index of per-object sums (``objects_only``) sees
    the rows repeated; one with a ``representation`` its pair vectors repeated
    (``repeat_pairs``); any other its ``weighted`` form. Multiplicities all 1 give the index
    itself (``evaluate_pairwise``).

    Parameters
    ----------
    rec : PairIndex
        The index's registry record.
    pair : tuple
        The validated clusterings ``(X, format_x, Y, format_y)`` of the distinct drawn
        objects.
    options : dict
        The index's options, already checked.
    counts : ndarray of int, shape (k,)
        How many times each of the k objects was drawn (each at least 1).

    Returns
    -------
    float
        The index on the resample.

    Raises
    ------
    ResampleRefused
        The index has no such evaluation (it counts pairs but has no ``weighted`` form).
    ValueError
        An index of pairs on a resample of a single object, which has no pair: the index is
        not defined there.

    See Also
    --------
    evaluate_pairwise : The index on the clusterings themselves.
    clusteragree.confidence_interval : Its bootstrap resamples the objects this way.

    Examples
    --------
    >>> from clusteragree.inputs import as_clusterings
    >>> P = np.array([[1, .9, .1], [.9, 1, .2], [.1, .2, 1]])
    >>> Q = np.array([[1, .8, .3], [.8, 1, .1], [.3, .1, 1]])
    >>> rec = ca.get_index("ari_mm")
    >>> pair = as_clusterings(P, Q, table=False, pairs=["ari_mm"]).pair(rec)
    >>> evaluate_resample(rec, pair, {}, np.ones(3, int)) == evaluate_pairwise(rec, pair, {})
    True
    >>> round(evaluate_resample(rec, pair, {}, np.array([2, 1, 1])), 6)  # object 0 twice
    0.410339
    >>> idx = [0, 0, 1, 2]                     # its rows repeated: the copies' pair counted
    >>> round(ca.agreement(P[np.ix_(idx, idx)], Q[np.ix_(idx, idx)], index="ari_mm"), 6)
    0.510067
    """
    counts = np.asarray(counts)
    if np.all(counts == 1):
        return evaluate_pairwise(rec, pair, options)
    X, kx, Y, ky = pair
    if rec.objects_only:
        return evaluate_pairwise(rec, (_rows_repeated(X, kx, counts), kx,
                                       _rows_repeated(Y, ky, counts), ky), options)
    if len(counts) < 2:  # no two distinct objects: no pair (an object's copies form none)
        raise ValueError("a resample drew a single object (n times), which forms no pair of "
                         "objects")
    if rec.representation is not None:
        xs, ys = (tuple(repeat_pairs(v, counts) for v in vs) for vs in pair_vectors(rec, pair))
        const = rec.prepare(xs, ys, **options) if rec.prepare else {}
        value = float(rec.func(xs, ys, **const, **options))
    elif rec.weighted is not None:
        value = float(rec.weighted(X, kx, Y, ky, counts, **options))
    else:
        raise ResampleRefused(
            f"index {rec.name!r} has no form on a bootstrap resample of the objects that "
            "leaves out the pairs of an object's copies (resampling its rows would count the "
            "pair of an object drawn twice as two objects agreeing perfectly, and bias the "
            "interval upwards)")
    if math.isnan(value):
        raise RuntimeError(f"index {rec.name!r} gave nan on a resample of these clusterings; "
                           "please report them")
    return value
