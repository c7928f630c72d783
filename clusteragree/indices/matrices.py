"""Co-association and consensus matrices, and the generalized adjusted Rand indices of
Zhang, Wong & Shen (2012).

For two symmetric n x n matrices P and Q (entries: how strongly two objects go together), with
sums over the m = n(n - 1)/2 pairs i < j (= half the sums over i != j, eq 14):

    t0 = sum P_ij Q_ij,  t1 = sum P_ij,  t2 = sum Q_ij,  t3 = t1 t2 / m
    ari_mm(P, Q) = (t0 - t3) / ((t1 + t2)/2 - t3)                          (eq 15)
    ari_mp(P, y) = ari_mm(P, co-association matrix of the partition y)    (eq 13, Prop. 1)

t3 is the exact mean of t0 under permutation of the objects (or of the pairs): every pair value
of Q lands on each pair of P with probability 1/m. On co-association matrices of two partitions
ari_mm is the adjusted Rand index. The sums are additive over blocks of the matrices, so parties
holding different blocks can combine them (``ari_mm_block_sums`` and ``ari_mm_from_sums``, the
paper's distributed property, eq 29) and a large pair of matrices can be compared block by block
without holding them twice.
"""

from __future__ import annotations

import numpy as np

from ..inputs import MATRIX_KIND

from ..inputs.memberships import check_memberships
from ._common import ratio
from ._pairwise import repeat_pairs, upper
from ._registry import register

__all__ = ["coassociation", "ari_mm_block_sums", "ari_mm_from_sums"]

_ZHANG = ('Zhang, S., Wong, H.-S. & Shen, Y. (2012), "Generalized adjusted Rand indices for '
          'cluster ensembles", Pattern Recognition 45(6)')


def coassociation(*clusterings) -> np.ndarray:
    """The co-association (consensus) matrix of one or more clusterings of the same objects.

    Entry (i, j) is the share of the clusterings that put objects i and j together; for
    memberships U, the mean of U U^T (the co-membership degree). The diagonal is 1 for
    partitions. The matrix compares with a partition or another matrix through the
    generalized adjusted Rand indices (``index="ari_mp"``, ``"ari_mm"``).

    Parameters
    ----------
    *clusterings : array-like
        Label vectors (n,) or membership matrices (n, k) of the same n objects.

    Returns
    -------
    ndarray of float, shape (n, n)
        The symmetric co-association matrix.

    Raises
    ------
    TypeError
        No clustering given.
    ValueError
        Clusterings of different numbers of objects, or memberships outside [0, 1].

    See Also
    --------
    clusteragree.agreement : ``index="ari_mp"`` or ``"ari_mm"`` compare such matrices.

    References
    ----------
    Fred, A. L. N. & Jain, A. K. (2005), "Combining multiple clusterings using evidence
    accumulation", IEEE Transactions on Pattern Analysis and Machine Intelligence 27(6).

    Zhang, S., Wong, H.-S. & Shen, Y. (2012), "Generalized adjusted Rand indices for cluster
    ensembles", Pattern Recognition 45(6).

    Examples
    --------
    >>> coassociation([0, 0, 1], [0, 1, 1])
    array([[1. , 0.5, 0. ],
           [0.5, 1. , 0.5],
           [0. , 0.5, 1. ]])
    """
    if not clusterings:
        raise TypeError("coassociation needs at least one clustering")
    total = None
    for i, c in enumerate(clusterings):
        U = check_memberships(c, f"clusterings[{i}]")
        M = U @ U.T
        if total is not None and M.shape != total.shape:
            raise ValueError(f"clusterings[{i}] has {M.shape[0]} objects, the first has "
                             f"{total.shape[0]}")
        total = M if total is None else total + M
    return total / len(clusterings)


def _matrix(M, kind="matrix"):
    return (M,)


def _partition_matrix(U, kind):
    return (U @ U.T,) if kind == "partition" else (U,)


def _same(xs, ys):
    return np.all(np.isclose(xs[0], ys[0], rtol=0, atol=1e-12), axis=-1)


def _ari_from(t0, t1, t2, m, same):
    """ARImm from its sums; ``same`` (identical matrices) only decides a vanishing denominator:
    ARImm(M, M) < 1 for an uncertain consensus matrix by design (Zhang, Wong & Shen 2012,
    section 4.3)."""
    t3 = t1 * t2 / m
    den = 0.5 * (t1 + t2) - t3
    return ratio(t0 - t3, den, same & (den == 0), 1.0, 0.0)


def ari_mm_block_sums(P_block, Q_block, diagonal: bool = False) -> np.ndarray:
    """(t0, t1, t2) contributed by one block of the two matrices, over its pairs i < j.

    A block on the diagonal (rows and columns the same objects, ``diagonal=True``) counts its
    strict upper triangle; an off-diagonal block (rows before columns) counts all its entries.
    """
    P = np.asarray(P_block, dtype=float)
    Q = np.asarray(Q_block, dtype=float)
    if P.shape != Q.shape:
        raise ValueError(f"blocks differ in shape: {P.shape} and {Q.shape}")
    if diagonal:
        iu = np.triu_indices(P.shape[0], k=1)
        P, Q = P[iu], Q[iu]
    return np.array([float((P * Q).sum()), float(P.sum()), float(Q.sum())])


def ari_mm_from_sums(sums, n: int) -> float:
    """ari_mm from the block sums (t0, t1, t2) added over all blocks (Zhang, Wong & Shen 2012,
    eq 29)."""
    t0, t1, t2 = (float(v) for v in sums)
    m = n * (n - 1) / 2
    t3 = t1 * t2 / m
    den = 0.5 * (t1 + t2) - t3
    if den == 0:
        return 1.0 if t0 == t1 == t2 else 0.0
    return (t0 - t3) / den


_ROW_BLOCK = 512


def _ari_mm_value(P, _kp, Q, _kq):
    """ARImm of two full matrices, summed over blocks of rows: no n x n temporary, so the two
    matrices are never held twice (t0 = (sum P*Q - trace(P*Q)) / 2 by symmetry)."""
    n = P.shape[0]
    total = np.zeros(3)
    for start in range(0, n, _ROW_BLOCK):
        p, q = P[start:start + _ROW_BLOCK], Q[start:start + _ROW_BLOCK]
        total += ((p * q).sum(), p.sum(), q.sum())
    diag = np.array([(np.diag(P) * np.diag(Q)).sum(), np.trace(P), np.trace(Q)])
    return ari_mm_from_sums((total - diag) / 2, n)


def _ari_mp_value(P, _kp, U, _ku):
    """ARImp(P, y) with y's co-association taken through its one-hot U: s0 = sum_k sum over
    pairs in cluster k of P_ij = (sum_k U_k^T P U_k - sum_i P_ii) / 2, in blocks of rows."""
    n = P.shape[0]
    s0 = 0.0
    for start in range(0, n, _ROW_BLOCK):
        s0 += float((U[start:start + _ROW_BLOCK] * (P[start:start + _ROW_BLOCK] @ U)).sum())
    s0 = (s0 - np.trace(P)) / 2
    s1 = (P.sum() - np.trace(P)) / 2
    sizes = U.sum(axis=0)
    s2 = float((sizes * (sizes - 1) / 2).sum())
    return ari_mm_from_sums((s0, s1, s2), n)


@register(name="ari_mm", reflexive=False, title="Adjusted Rand index between two similarity matrices (ARImm)",
          pair_bytes=24,
          family="matrix", inputs=("matrix",), representation=_matrix, kind="similarity",
          range=(-1.0, 1.0), optimum=1.0, symmetric=True, aliases=("arimm",),
          kinds=(MATRIX_KIND,),
          reference=_ZHANG + ", eq 15", pair_mean=lambda xs, ys: 0.0, value=_ari_mm_value)
def ari_mm(xs, ys):
    """ARImm(P, Q) = (t0 - t3) / ((t1 + t2)/2 - t3) over the pairs i < j.

    Zhang, Wong & Shen (2012) print their 'uncertain' example matrix M(2) asymmetric, with 0.5
    on the diagonal; the intended matrix is M2 below, for which ARImm(M2, M2) = 0.4:

    >>> M2 = [[0, .5, 0], [.5, 0, 0], [0, 0, 0]]       # the 'uncertain' matrix, as intended
    >>> round(ca.agreement(M2, M2, index="ari_mm"), 6)
    0.4
    """
    x, y = xs[0], ys[0]
    return _ari_from((x * y).sum(axis=-1), x.sum(axis=-1), y.sum(axis=-1), x.shape[-1],
                     _same(xs, ys))


@register(name="ari_mp", title="Adjusted Rand index between a similarity matrix and a partition "
          "(ARImp)", family="matrix", inputs=("matrix",), inputs_y=("partition",),
          kinds=(MATRIX_KIND,), kinds_y=("exclusive hard",), pair_bytes=24,
          kinds_note="ARImp compares a similarity matrix with a partition (Zhang, Wong & "
                     "Shen 2012, eq 13); ari_mm compares two matrices",
          representation=_partition_matrix, kind="similarity", range=(-1.0, 1.0), optimum=1.0,
          symmetric=False, aliases=("arimp",), reference=_ZHANG + ", eq 13",
          pair_mean=lambda xs, ys: 0.0, value=_ari_mp_value)
def ari_mp(xs, ys):
    """ARImp(M, y) = ARImm(M, co-association matrix of the partition y) (Prop. 1)."""
    return ari_mm(xs, ys)


# -- reference measures of Zhang, Wong & Shen (2012, section 2): plain matrix similarities,
# not chance-adjusted --

_REF = dict(family="matrix", inputs=("matrix",), kind="similarity", symmetric=True, optimum=1.0,
            kinds=(MATRIX_KIND,))


@register(name="nsf", title="Normalised similarity by the Frobenius norm (NSF)", range=(0.0, 1.0),
          pair_bytes=24,
          reference=_ZHANG + ", eq 8", **_REF)
def nsf(P, Q):
    """NSF = 1 - ||P - Q||_F / n^2 (all entries, the diagonal included)."""
    return float(1.0 - np.linalg.norm(P - Q) / P.shape[0] ** 2)


@register(name="kas", title="Kernel alignment similarity (KAS)", range=(-1.0, 1.0),
          pair_bytes=24,
          reference="Cristianini et al. (2002); " + _ZHANG + ", eq 9", **_REF)
def kas(P, Q):
    """KAS = tr(P Q^T) / sqrt(tr(P P^T) tr(Q Q^T)) = sum P*Q / sqrt(sum P^2 sum Q^2)."""
    den = float(np.sqrt((P * P).sum() * (Q * Q).sum()))
    return float(ratio((P * Q).sum(), den, den == 0 and np.array_equal(P, Q), 1.0, 0.0))


@register(name="sms", title="Standardized Mantel statistic (SMS)", range=(-1.0, 1.0),
          pair_bytes=32,
          options={"scaled": False}, reference="Mantel (1967); " + _ZHANG + ", eqs 10-11",
          weighted=lambda P, _kp, Q, _kq, counts, scaled=False: _sms_of(
              repeat_pairs(upper(P), counts), repeat_pairs(upper(Q), counts), scaled), **_REF)
def sms(P, Q, scaled=False):
    """SMS: the correlation of the upper-triangle entries of P and Q (eq 10, with sample standard
    deviations and d - 1); ``scaled=True`` gives sSMS = (1 + SMS) / 2 (eq 11). A constant
    matrix has no correlation: 0 (1 if both are the same)."""
    return _sms_of(upper(P), upper(Q), scaled)


def _sms_of(x, y, scaled):
    """SMS of the pair values x, y of two matrices."""
    dx, dy = x - x.mean(), y - y.mean()
    den = float(np.sqrt((dx * dx).sum() * (dy * dy).sum()))
    r = float(ratio((dx * dy).sum(), den, den == 0 and np.array_equal(x, y), 1.0, 0.0))
    return (1 + r) / 2 if scaled else r
