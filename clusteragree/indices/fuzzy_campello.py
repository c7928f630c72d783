"""Campello's fuzzy Rand indices (07CRI, 07CARI) and fuzzy transfer distance (10CF, 10CFn).

Memberships U, V have objects in rows (the papers write the transpose) and may be of any of the
four kinds: exclusive or non-exclusive hard, fuzzy or possibilistic (every object with some
membership; the review's Table 2 lists all four for both constructions).

**07CRI, 07CARI** (Campello, R. J. G. B. (2007), "A fuzzy extension of the Rand index and other
related indexes for clustering and classification assessment", Pattern Recognition Letters 28).
The pair variables of the Rand index are cardinalities of intersections of sets of object pairs,
a = |same in U and same in V|, and so on. With fuzzy sets of pairs, intersection by the minimum
t-norm, union by the maximum and the sigma-count as cardinality, a pair (i, j) is

    in the same cluster of U to the degree   S^U_ij = max_r min(U_ir, U_jr),
    in different clusters of U to the degree D^U_ij = max_(r != s) min(U_ir, U_js),

and, summing over the unordered pairs i < j,

    a = sum min(S^U, S^V),  b = sum min(S^U, D^V),  c = sum min(D^U, S^V),  d = sum min(D^U, D^V),
    07CRI = (a + d) / (a + b + c + d),
    07CARI = (a - (a + b)(a + c) / T) / (((a + b) + (a + c)) / 2 - (a + b)(a + c) / T),  T = a+b+c+d.

On exclusive hard partitions S and D are the 0/1 indicators of "together" and "apart", so
07CRI = Rand and 07CARI = ARI. They are not reflexive on fuzzy clusterings: a pair shared half
and half is both "together" and "apart" to degree 1/2, so 07CRI(U, U) < 1.
D is computed without the double loop over clusters: if the clusters where objects i and j have
their largest memberships differ, D_ij = min(max U_i, max U_j); otherwise it is the larger of
min(first of i, second of j) and min(second of i, first of j) (any other pair of distinct
clusters is dominated by one of these).

**10CF, 10CFn** (Campello, R. J. G. B. (2010), "Generalized external indexes for comparing data
partitions with overlapping categories", Pattern Recognition Letters 31). The fuzzy transfer
distance F_TD(U, V) is the least total membership that must be given to or taken from the objects
of U to make it equivalent to V (equal up to the order of clusters): the clusterings are padded
with empty clusters to k = max(k_U, k_V) each, cluster r of U is matched one-to-one with cluster
pi(r) of V, and

    F_TD = min over matchings pi of sum_r sum_i |U_ir - V_i,pi(r)|,
    10CF = 1 - F_TD,    10CFn = 1 - F_TD / (n max(k_U, k_V)).

The matching is a linear assignment problem (``scipy.optimize.linear_sum_assignment``; the
optimum of the transportation relaxation is attained at a matching). On exclusive hard
partitions F_TD is twice the transfer distance (the fewest objects to move; each move takes one
membership away and gives one), F_TD = 2 (n - max_pi sum_r n_r,pi(r)) = 2 n (1 - accuracy).
10CF = 1 exactly when U and V are equivalent; it is not bounded below. As in the review of
Horta, D. & Campello, R. J. G. B. (2015), "Comparing hard and overlapping clusterings", JMLR 16,
the counts of clusters are the columns of U and V, empty ones included.

Both constructions are implemented as that review describes them (fuzzy-set operations on pairs
with the minimum and maximum; the transfer distance as the best one-to-one matching of padded
clusters); tests check them by brute force from the definitions, against Rand, ARI and the
transfer distance on hard partitions, and against the linear-programming relaxation.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import linear_sum_assignment

from ..inputs import MEMBERSHIP_KINDS
from ._pairwise import repeat_pairs
from ._registry import register
from .fuzzy_reviewed import ari_from_pairs

__all__ = ["pair_degrees_07", "fuzzy_transfer_distance"]

_C07 = ('Campello, R. J. G. B. (2007), "A fuzzy extension of the Rand index and other related '
        'indexes for clustering and classification assessment", Pattern Recognition Letters 28')
_C10 = ('Campello, R. J. G. B. (2010), "Generalized external indexes for comparing data '
        'partitions with overlapping categories", Pattern Recognition Letters 31')
_MEMBERSHIP = dict(family="fuzzy", inputs=("membership",), symmetric=True, optimum=1.0,
                   kinds=MEMBERSHIP_KINDS)  # the review's Table 2: all four kinds


def pair_degrees_07(U) -> tuple[np.ndarray, np.ndarray]:
    """(S, D) over the unordered pairs i < j (in ``np.triu_indices(n, 1)`` order): the degrees
    to which objects i and j are in the same cluster, S = max_r min(U_ir, U_jr), and in
    different clusters, D = max_(r != s) min(U_ir, U_js).

    >>> S, D = pair_degrees_07(np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]]))
    >>> S.tolist(), D.tolist()
    ([0.5, 0.0, 0.5], [0.5, 1.0, 0.5])
    """
    U = np.asarray(U, dtype=float)
    n, k = U.shape
    i, j = np.triu_indices(n, k=1)
    same = np.zeros(len(i))
    for r in range(k):
        np.maximum(same, np.minimum(U[i, r], U[j, r]), out=same)
    order = np.argsort(-U, axis=1, kind="stable")
    top = order[:, 0]
    first = U[np.arange(n), top]
    second = U[np.arange(n), order[:, 1]] if k > 1 else np.zeros(n)
    apart = np.where(top[i] != top[j], np.minimum(first[i], first[j]),
                     np.maximum(np.minimum(first[i], second[j]),
                                np.minimum(second[i], first[j])))
    return same, apart


def _pairs_07(U, V, counts=None):
    """a, b, c, d of Campello (2007); with ``counts``, over a resample's pairs: the distinct
    objects drawn ``counts`` times, pair (i, k) counted w_i w_k times (``evaluate_resample``)."""
    su, du = pair_degrees_07(U)
    sv, dv = pair_degrees_07(V)
    if counts is not None:
        su, du, sv, dv = (repeat_pairs(v, counts) for v in (su, du, sv, dv))
    return (np.minimum(su, sv).sum(), np.minimum(su, dv).sum(), np.minimum(du, sv).sum(),
            np.minimum(du, dv).sum())


@register(name="cri07", reflexive=False, title="Campello's fuzzy Rand index (07CRI)",
          pair_bytes=48,
          kind="similarity", range=(0.0, 1.0), min_n=2, reference=_C07, **_MEMBERSHIP,
          weighted=lambda U, _ku, V, _kv, counts: _cri07(*_pairs_07(U, V, counts)))
def cri07(U, V):
    """07CRI = (a + d) / (a + b + c + d) with a = sum_(i<j) min(S^U_ij, S^V_ij), ... (the pair
    degrees of ``pair_degrees_07``); the Rand index on hard partitions.

    >>> U = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    >>> round(ca.agreement(U, [0, 0, 1], index="cri07"), 6)   # a, b, c, d = 1/2, 1/2, 1/2, 3/2
    0.666667
    """
    return _cri07(*_pairs_07(U, V))


def _cri07(a, b, c, d):
    total = a + b + c + d
    return float((a + d) / total) if total > 0 else 0.0


@register(name="cari07", reflexive=False, title="Campello's fuzzy adjusted Rand index (07CARI)",
          pair_bytes=48,
          kind="similarity", range=(-math.inf, 1.0), min_n=2, reference=_C07, **_MEMBERSHIP,
          weighted=lambda U, _ku, V, _kv, counts: _cari07(*_pairs_07(U, V, counts)))
def cari07(U, V):
    """07CARI: the adjusted Rand index (a - e) / ((a + b + a + c) / 2 - e), e = (a + b)(a + c) / T,
    T = a + b + c + d, from Campello's fuzzy pair variables; ARI on hard partitions. When the
    denominator vanishes (every pair wholly together or wholly apart in both clusterings, and
    alike) the value is 1 if the pair variables show no disagreement (b = c = 0), else 0.

    >>> U = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    >>> round(ca.agreement(U, [0, 0, 1], index="cari07"), 6)  # (1/2 - 1/3) / (1 - 1/3)
    0.25
    """
    return _cari07(*_pairs_07(U, V))


def _cari07(a, b, c, d):
    return float(ari_from_pairs(a, b, c, d, b == 0 and c == 0))


def fuzzy_transfer_distance(U, V) -> float:
    """F_TD(U, V) = min over one-to-one matchings pi of the clusters (both padded with empty
    clusters to max(k_U, k_V)) of sum_r sum_i |U_ir - V_i,pi(r)| (Campello 2010).

    >>> fuzzy_transfer_distance(np.eye(3)[[0, 0, 1, 1]], np.eye(3)[[1, 1, 0, 2]])  # one move
    2.0
    """
    U = np.asarray(U, dtype=float)
    V = np.asarray(V, dtype=float)
    k = max(U.shape[1], V.shape[1])
    Up = np.pad(U, ((0, 0), (0, k - U.shape[1])))
    Vp = np.pad(V, ((0, 0), (0, k - V.shape[1])))
    cost = np.abs(Up[:, :, None] - Vp[:, None, :]).sum(axis=0)
    rows, cols = linear_sum_assignment(cost)
    return float(cost[rows, cols].sum())


@register(name="cf10", title="Campello's fuzzy transfer similarity (10CF)", kind="similarity",
          range=(-math.inf, 1.0), reference=_C10, objects_only=True, **_MEMBERSHIP)
def cf10(U, V):
    """10CF = 1 - F_TD(U, V), F_TD the fuzzy transfer distance (``fuzzy_transfer_distance``);
    1 - 2 n (1 - accuracy) on hard partitions.

    >>> ca.agreement([0, 0, 1, 1], [1, 1, 0, 2], index="cf10")
    -1.0
    """
    return 1.0 - fuzzy_transfer_distance(U, V)


@register(name="cf10n", title="Campello's normalised fuzzy transfer similarity (10CFn)",
          kind="similarity", range=(0.0, 1.0), reference=_C10, objects_only=True,
          **_MEMBERSHIP)
def cf10n(U, V):
    """10CFn = 1 - F_TD(U, V) / (n max(k_U, k_V)), in [0, 1].

    k_U and k_V count the clusters with some membership: a column of zeros is no cluster (a
    fuzzy or possibilistic partition gives each cluster a positive total membership), and
    F_TD already pads the smaller clustering with empty clusters, so such a column changes
    neither term.

    >>> ca.agreement([0, 0, 1, 1], [1, 1, 0, 2], index="cf10n")   # 1 - 2 / (4 * 3)
    0.8333333333333334
    """
    U, V = np.asarray(U, dtype=float), np.asarray(V, dtype=float)
    k = max(int(U.any(axis=0).sum()), int(V.any(axis=0).sum()))
    return 1.0 - fuzzy_transfer_distance(U, V) / (U.shape[0] * k)
