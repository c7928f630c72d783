"""Indices of covers: overlapping (non-exclusive hard) clusterings.

A cover is a binary membership matrix U (n objects x K clusters, U_ik = 1 when object i is in
cluster k): an object may be in several clusters or in none (an all-zero row); every cluster
holds an object. Covers may also be given as lists of sets of objects, converted at the entry
(``clusteragree.inputs.sets_to_memberships``); 1-D labels are partitions, the special case.
The indices are computed from the two covers themselves, and their null laws come from random
permutations of y's objects (``ca.agreement_test(..., method="permutation")``).

With J = U U^T (J_ij: the number of clusters objects i and j share), T = U^T V (T_kl = |U_k and
V_l|), a_k, b_l the cluster sizes and d_i = sum_k U_ik the number of clusters of object i:

* ``element_centric``: S = (1/n) sum_i [1 - (1/(2 alpha)) sum_j |p_i(j) - q_i(j)|], p_i the
  personalised PageRank of the cluster-induced element graph from object i (Gates et al. 2019);
  on two partitions S = (1/n) sum_kq n_kq^2 / max(a_k, b_q), a function of their table;
* ``omega``: (agreement - expected) / (1 - expected) on the number of shared clusters J_ij of the
  pairs (Collins & Dent 1988); the adjusted Rand index on partitions;
* ``onmi_lfk`` and ``onmi_mgh``: mutual information of the clusters as binary variables,
  normalised as Lancichinetti, Fortunato & Kertesz (2009) and McDaid, Greene & Hurley (2011);
* ``geometric_accuracy`` (Nepusz et al. 2012), ``classification_error`` and ``overlap_quality``
  (Ahn et al. 2010), as in the clusim package (Gates & Ahn), with the differences documented
  at each index.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from ..inputs import COVER_KIND
from .._validate import check_real
from ._common import ratio, same_memberships
from ._pairwise import row_blocks, upper, upper_of_block
from ._registry import register
from .sparse_matching import element_centric_sparse

__all__ = ["affinity_matrix", "element_centric_table", "element_centric_of_covers"]

_OV = dict(family="overlapping", inputs=("cover",), vectorised=False,
           kinds=("exclusive hard", "non-exclusive hard", COVER_KIND),
           kinds_note="they compare covers, sets of objects: 0/1 memberships")
_GATES = ('Gates, A. J., Wood, I. B., Hetrick, W. P. & Ahn, Y.-Y. (2019), "Element-centric '
          'clustering comparison unifies overlaps and hierarchy", Scientific Reports 9')
_CLUSIM = ('as in the clusim package of Gates, A. J. & Ahn, Y.-Y. (2019), "CluSim: a python '
           'package for calculating clustering similarity", Journal of Open Source Software 4')


def _log_base(base):
    if base is None:
        return 1.0
    base = check_real(base, "base", "a logarithm base > 1")
    if base <= 1:
        raise ValueError(f"base must be > 1, got {base:g}")
    return math.log(base)


def _check_alpha(alpha) -> float:
    alpha = check_real(alpha, "alpha", "a number in (0, 1)")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha (the probability that the walk goes on) must be in (0, 1), "
                         f"got {alpha:g}")
    return alpha


# -- element-centric similarity -------------------------------------------------------------

def _walk_parts(B, alpha):
    """G and C (n x K) of a cover B: the personalised PageRank from object i is
    p_i(j) = c_i delta_ij + (1 - alpha) alpha (G C^T)_ij, c_i = 1 - alpha (1 for an object in
    no cluster, whose walk stays at i).

    The cluster-induced element graph has the transition matrix W = R C^T, R = B / d (each
    object steps to one of its clusters), C = B / a (each cluster to one of its objects);
    p_i = (1 - alpha) e_i (I - alpha W)^-1, and Woodbury's identity gives
    (I - alpha R C^T)^-1 = I + alpha R (I_K - alpha C^T R)^-1 C^T: G = R (I_K - alpha C^T R)^-1,
    solved cluster component by component (clusters sharing objects)."""
    deg, size = B.sum(axis=1), B.sum(axis=0)
    R = B / np.where(deg > 0, deg, 1.0)[:, None]
    C = B / np.where(size > 0, size, 1.0)  # an empty cluster has no edge: a zero column
    M = np.eye(B.shape[1]) - alpha * (C.T @ R)
    n_comp, comp = connected_components(csr_matrix(B.T @ B), directed=False)
    G = np.zeros_like(R)
    sizes = np.bincount(comp, minlength=n_comp)
    single = sizes[comp] == 1  # a cluster that shares no object: M is 1 x 1 there
    G[:, single] = R[:, single] / np.diag(M)[single]
    for c in np.flatnonzero(sizes > 1):
        ks = np.flatnonzero(comp == c)
        rows = np.flatnonzero(B[:, ks].any(axis=1))
        G[np.ix_(rows, ks)] = np.linalg.solve(M[np.ix_(ks, ks)].T, R[np.ix_(rows, ks)].T).T
    return G, C, np.where(deg > 0, 1.0 - alpha, 1.0)


def affinity_matrix(U, alpha=0.9):
    """The element-centric affinities of a cover (n x n; row i is the personalised PageRank
    distribution p_i of a walk from object i that goes on with probability ``alpha`` and
    restarts at i with probability 1 - alpha). For inspection and tests: the index itself
    never builds this n x n matrix.

    >>> affinity_matrix([[1, 0], [1, 0], [0, 1]], alpha=0.9).round(2).tolist()
    [[0.55, 0.45, 0.0], [0.45, 0.55, 0.0], [0.0, 0.0, 1.0]]
    """
    from ..inputs.memberships import check_cover

    alpha = _check_alpha(alpha)
    G, C, c = _walk_parts(check_cover(U, "U"), alpha)
    return np.diag(c) + (1 - alpha) * alpha * (G @ C.T)


def _row_patterns(B):
    """Codes 0..P-1 of the distinct rows of B (objects with the same clusters)."""
    view = np.ascontiguousarray(B).view(np.dtype((np.void, B.dtype.itemsize * B.shape[1])))
    return np.unique(view.ravel(), return_inverse=True)[1].ravel()


def element_centric_table(counts, alpha=0.9):
    """Element-centric similarity of two partitions from their contingency table, vectorised
    over a batch ``(..., K, Q)``: S = (1/n) sum_kq n_kq^2 / max(a_k, b_q), whatever alpha
    (checked, and otherwise unused).

    Derivation (Gates et al. 2019, with the walk of ``element_centric``). In the
    cluster-induced graph of a partition, object i steps to its one cluster C(i) and on to one
    of its |C(i)| objects, so the transition matrix W has W_ij = 1/|C(i)| for j in C(i):
    uniform on C(i), and e_i W^t is that same uniform law for every t >= 1. The personalised
    PageRank p_i = (1 - alpha) e_i (I - alpha W)^-1 = (1 - alpha) sum_t alpha^t e_i W^t is
    p_i(j) = (1 - alpha) delta_ij + alpha [j in C(i)] / |C(i)|. With A = A(i), B = B(i) the
    clusters of i in the two partitions, a = |A|, b = |B|, c = |A and B|, the restart terms
    cancel and sum_j |p_i(j) - q_i(j)| = alpha [c |1/a - 1/b| + (a - c)/a + (b - c)/b]
    = 2 alpha (1 - c / max(a, b)), so object i scores 1 - (1/(2 alpha)) sum_j |...| =
    c / max(a, b). The n_kq objects of cell (k, q) have c = n_kq, a = a_k, b = b_q.

    Parameters
    ----------
    counts : array-like of int
        A K x Q contingency table or a batch of them, shape ``(..., K, Q)``, n >= 1.
    alpha : float, default 0.9
        The walk's probability of going on, in (0, 1): checked, and otherwise unused.

    Returns
    -------
    ndarray of float
        S for each table, shape ``counts.shape[:-2]``; the terms are summed in sorted order,
        so S does not depend on the order of the clusters, nor on that of x and y.

    References
    ----------
    Gates, A. J., Wood, I. B., Hetrick, W. P. & Ahn, Y.-Y. (2019), "Element-centric
    clustering comparison unifies overlaps and hierarchy", Scientific Reports 9.

    Examples
    --------
    >>> float(element_centric_table(np.array([[2, 0], [1, 1]])))  # (4/2 + 1/3 + 1/2) / 4
    0.5416666666666666
    """
    _check_alpha(alpha)
    counts = np.asarray(counts)
    a = counts.sum(axis=-1)[..., :, None]
    b = counts.sum(axis=-2)[..., None, :]
    larger = np.maximum(a, b).astype(float)
    cells = counts * (counts / np.where(larger > 0, larger, 1.0))  # n_kq^2 / max(a_k, b_q)
    # summed in sorted order: the same value whatever the order of the clusters (and of x, y)
    terms = np.sort(cells.reshape(cells.shape[:-2] + (-1,)), axis=-1)
    return terms.sum(axis=-1) / counts.sum(axis=(-2, -1))


def _partition_table(U, V):
    """The contingency table of two covers that are both partitions (one cluster per object:
    0/1 rows summing to 1), or None. Row sums and labels by products with a vector (fast on
    n x K memberships, exact on 0/1 entries)."""
    K, Q = U.shape[1], V.shape[1]
    if not (np.all(U @ np.ones(K) == 1) and np.all(V @ np.ones(Q) == 1)):
        return None
    x = (U @ np.arange(K, dtype=float)).astype(np.intp)
    y = (V @ np.arange(Q, dtype=float)).astype(np.intp)
    return np.bincount(x * Q + y, minlength=K * Q).reshape(K, Q)


@register(name="element_centric", title="Element-centric similarity", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=True, aliases=("element_sim", "ecs"),
          options={"alpha": 0.9}, reference=_GATES, on_table=element_centric_table,
          on_sparse=element_centric_sparse, **_OV)
def element_centric(U, V, alpha=0.9):
    """Element-centric similarity S = (1/n) sum_i [1 - (1/(2 alpha)) sum_j |p_i(j) - q_i(j)|].

    p_i is the personalised PageRank distribution from object i on the cluster-induced element
    graph of U (a walk steps from an object to one of its clusters and on to one of that
    cluster's objects, each uniformly; it goes on with probability ``alpha`` and restarts at i
    with probability 1 - alpha, as clusim's ``alpha``), q_i that of V; 1/(2 alpha) normalises the
    L1 distance, at most 2 alpha since both keep 1 - alpha at i (Gates et al. 2019). An object
    in no cluster keeps its walk at itself (p_i = e_i), as a singleton cluster would. On
    partitions S = (1/n) sum_i |A(i) and B(i)| / max(|A(i)|, |B(i)|), A(i) and B(i) the
    clusters of object i, whatever alpha: two partitions are compared by this closed form on
    their contingency table (``element_centric_table``, which derives it), other covers by
    ``element_centric_of_covers``.

    >>> import clusteragree as ca
    >>> ca.agreement([0, 0, 1, 1], [0, 0, 0, 1], index="element_centric")  # 13/24, rounded
    0.5416666666666666
    """
    alpha = _check_alpha(alpha)
    table = _partition_table(U, V)
    if table is not None:
        return float(element_centric_table(table))
    return element_centric_of_covers(U, V, alpha)


def element_centric_of_covers(U, V, alpha=0.9):
    """``element_centric`` of two covers (binary memberships, n x K and n x Q) by the general
    computation, without the n x n affinities: p_i(j) - q_i(j) depends only on the clusters
    of i and of j in both covers, so the sum runs over the distinct (U row, V row) patterns.

    >>> U, V = np.eye(2)[[0, 0, 1, 1]], np.eye(2)[[0, 0, 0, 1]]
    >>> round(element_centric_of_covers(U, V), 12)        # the closed form on partitions
    0.541666666667
    """
    alpha = _check_alpha(alpha)
    n = U.shape[0]
    Gu, Cu, cu = _walk_parts(U, alpha)
    Gv, Cv, cv = _walk_parts(V, alpha)
    pu, pv = _row_patterns(U), _row_patterns(V)
    keys = pu.astype(np.int64) * (int(pv.max()) + 1) + pv
    _, rep, counts = np.unique(keys, return_index=True, return_counts=True)
    Gu, Cu, Gv, Cv = Gu[rep], Cu[rep], Gv[rep], Cv[rep]
    step = (cu - cv)[rep]
    scale = (1 - alpha) * alpha
    dist = np.empty(len(rep))
    for start, stop in row_blocks(len(rep)):
        H = scale * (Gu[start:stop] @ Cu.T - Gv[start:stop] @ Cv.T)
        diag = H[np.arange(stop - start), np.arange(start, stop)]
        dist[start:stop] = (np.abs(H) @ counts - np.abs(diag)
                            + np.abs(diag + step[start:stop]))
    scores = 1.0 - dist / (2 * alpha)
    return float(np.clip(scores @ counts / n, 0.0, 1.0))


# -- omega -------------------------------------------------------------------------------------

@register(name="omega", title="Omega index", kind="similarity", range=(-math.inf, 1.0),
          pair_bytes=24,
          optimum=1.0, symmetric=True,
          reference='Collins, L. M. & Dent, C. W. (1988), "Omega: a general formulation of the '
                    'Rand index of cluster recovery suitable for non-disjoint solutions", '
                    "Multivariate Behavioral Research 23", weighted=lambda U, _ku, V, _kv,
          counts: _omega_of_resample(U, V, counts), **_OV)
def omega(U, V):
    """Omega = (obs - exp) / (1 - exp) over the M = n(n - 1)/2 pairs of objects:
    obs = (1/M) #{i < j: J^U_ij = J^V_ij} (the pairs on whose number of shared clusters U and V
    agree), exp = (1/M^2) sum_t N^U_t N^V_t, N_t the number of pairs sharing t clusters. The
    adjusted Rand index on partitions; 1 when every pair agrees.

    >>> import clusteragree as ca
    >>> round(ca.agreement([0, 0, 1, 1, 2], [0, 0, 1, 2, 2], index="omega"), 12)  # ARI: .6/1.6
    0.375
    """
    n = U.shape[0]
    top = int(max(U.sum(axis=1).max(), V.sum(axis=1).max())) + 1
    joint = np.zeros(top * top, dtype=np.int64)
    for start, stop in row_blocks(n):
        ju = upper_of_block(U[start:stop] @ U.T, start).astype(np.int64)
        jv = upper_of_block(V[start:stop] @ V.T, start).astype(np.int64)
        joint += np.bincount(ju * top + jv, minlength=top * top)
    return _omega_of_joint(joint.reshape(top, top), n * (n - 1) / 2)


def _omega_of_resample(U, V, counts):
    """Omega on a resample of the objects: U, V's distinct objects drawn ``counts`` times,
    pair (i, k) counted w_i w_k times (``evaluate_resample``)."""
    top = int(max(U.sum(axis=1).max(), V.sum(axis=1).max())) + 1
    ju, jv = (upper(M @ M.T).astype(np.int64) for M in (U, V))
    weights = upper(np.multiply.outer(counts, counts)).astype(float)
    joint = np.bincount(ju * top + jv, weights=weights, minlength=top * top)
    return _omega_of_joint(joint.reshape(top, top), weights.sum())


def _omega_of_joint(joint, m):
    """Omega from the joint counts of the pairs by their numbers of shared clusters."""
    obs = np.trace(joint) / m
    expected = float(joint.sum(axis=1) @ joint.sum(axis=0)) / (m * m)
    return float(ratio(obs - expected, 1.0 - expected, obs == 1.0, 1.0, 0.0))


# -- overlapping normalised mutual information -----------------------------------------------

def _h(p):
    """-p log p elementwise, 0 at p = 0."""
    p = np.asarray(p, dtype=float)
    return -p * np.log(np.where(p > 0, p, 1.0))


def _conditional_entropies(U, V):
    """H(X_k), H(Y_l), H(X_k | Y) and H(Y_l | X) of the clusters as binary variables
    (Lancichinetti et al. 2009, appendix B): H(X_k | Y) is the smallest H(X_k | Y_l) over the
    Y_l with h(P11) + h(P00) > h(P10) + h(P01) (the pairs that are more alike than opposite),
    and H(X_k) when there is none."""
    n = U.shape[0]
    T = U.T @ V
    a, b = U.sum(axis=0)[:, None], V.sum(axis=0)[None, :]
    p11, p10, p01 = T / n, (a - T) / n, (b - T) / n
    p00 = np.maximum(1.0 - p11 - p10 - p01, 0.0)
    hx = (_h(a / n) + _h(1 - a / n)).ravel()
    hy = (_h(b / n) + _h(1 - b / n)).ravel()
    joint = _h(p11) + _h(p10) + _h(p01) + _h(p00)
    alike = _h(p11) + _h(p00) > _h(p10) + _h(p01)
    x_given = np.where(alike, joint - hy[None, :], np.inf).min(axis=1)
    y_given = np.where(alike, joint - hx[:, None], np.inf).min(axis=0)
    x_given = np.minimum(np.where(np.isinf(x_given), hx, x_given), hx)
    y_given = np.minimum(np.where(np.isinf(y_given), hy, y_given), hy)
    return hx, hy, np.maximum(x_given, 0.0), np.maximum(y_given, 0.0)


_ONMI_NOTE = ("Lancichinetti, A., Fortunato, S. & Kertesz, J. (2009), \"Detecting the overlapping "
              "and hierarchical community structure in complex networks\", New Journal of "
              "Physics 11")


@register(name="onmi_lfk", title="Overlapping NMI (Lancichinetti, Fortunato & Kertesz)",
          kind="similarity", range=(0.0, 1.0), optimum=1.0, symmetric=True,
          aliases=("onmi",), reference=_ONMI_NOTE + ", appendix B", objects_only=True, **_OV)
def onmi_lfk(U, V):
    """ONMI_LFK = 1 - (1/2) [mean_k H(X_k | Y) / H(X_k) + mean_l H(Y_l | X) / H(Y_l)].

    Each cluster is a binary variable over the objects (X_k = 1 for the objects of U's k-th
    cluster); P11 = |X_k and Y_l| / n and so on, h(p) = -p log p, H(X_k | Y_l) = H(X_k, Y_l) -
    H(Y_l); H(X_k | Y) = min H(X_k | Y_l) over the Y_l with h(P11) + h(P00) > h(P10) + h(P01),
    or H(X_k) when no Y_l qualifies. A cluster of all n objects (H = 0) carries no information
    and counts 1 (not explained); identical covers give 1.

    >>> import clusteragree as ca
    >>> ca.agreement([{0, 1, 2}, {2, 3}], [{0, 1, 2}, {2, 3}], index="onmi_lfk")
    1.0
    """
    if same_memberships(U, V):
        return 1.0
    hx, hy, x_given, y_given = _conditional_entropies(U, V)
    nx = np.where(hx > 0, x_given / np.where(hx > 0, hx, 1.0), 1.0)
    ny = np.where(hy > 0, y_given / np.where(hy > 0, hy, 1.0), 1.0)
    return float(np.clip(1.0 - 0.5 * (nx.mean() + ny.mean()), 0.0, 1.0))


@register(name="onmi_mgh", title="Overlapping NMI, max-normalised (McDaid, Greene & Hurley)",
          kind="similarity", range=(0.0, 1.0), optimum=1.0, symmetric=True,
          aliases=("onmi_max",),
          reference='McDaid, A. F., Greene, D. & Hurley, N. (2011), "Normalized mutual '
                    'information to evaluate overlapping community finding algorithms", '
                    "arXiv:1110.2515", objects_only=True, **_OV)
def onmi_mgh(U, V):
    """ONMI_max = I(X : Y) / max(H(X), H(Y)) with H(X) = sum_k H(X_k), H(X | Y) =
    sum_k H(X_k | Y) (the conditional entropies of ``onmi_lfk``, not normalised cluster by
    cluster) and I(X : Y) = (1/2) [H(X) - H(X | Y) + H(Y) - H(Y | X)]; 0 when both entropies
    are 0 and the covers differ, 1 for identical covers.

    >>> import clusteragree as ca
    >>> round(ca.agreement([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1], index="onmi_mgh"), 4)
    0.4591
    """
    same = same_memberships(U, V)
    if same:
        return 1.0
    hx, hy, x_given, y_given = _conditional_entropies(U, V)
    info = max(0.5 * (hx.sum() - x_given.sum() + hy.sum() - y_given.sum()), 0.0)
    return float(np.clip(ratio(info, max(hx.sum(), hy.sum()), False, 1.0, 0.0), 0.0, 1.0))


# -- the cover indices of clusim ---------------------------------------------------------------

@register(name="geometric_accuracy", title="Geometric accuracy", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=False, reflexive=False,
          reference='Nepusz, T., Yu, H. & Paccanaro, A. (2012), "Detecting overlapping protein '
                    'complexes in protein-protein interaction networks", Nature Methods 9; '
                    + _CLUSIM, objects_only=True, **_OV)
def geometric_accuracy(U, V):
    """GA = sqrt(Sn PPV), Sn = sum_k max_l T_kl / sum_k a_k (x's clusters the reference
    complexes), PPV = sum_l max_k T_kl / sum_kl T_kl, T = U^T V. 1 on identical partitions;
    below 1 on identical overlapping covers (PPV's denominator counts each shared object once
    per pair of clusters), as Nepusz et al. (2012) and clusim define it.

    >>> import clusteragree as ca
    >>> round(ca.agreement([0, 0, 1, 1], [0, 0, 0, 1], index="geometric_accuracy"), 4)  # Sn = PPV = 3/4
    0.75
    """
    T = U.T @ V
    sn = T.max(axis=1).sum() / U.sum()
    ppv = ratio(T.max(axis=0).sum(), T.sum(), False, 1.0, 0.0)
    return float(np.sqrt(sn * ppv))


@register(name="classification_error", title="Classification error", kind="distance",
          range=(0.0, 1.0), optimum=0.0, symmetric=False,
          reference="Purity of Zhao, Y. & Karypis, G. (2001), \"Criterion functions for "
                    "document clustering\", University of Minnesota TR 01-40; " + _CLUSIM,
          objects_only=True, **_OV)
def classification_error(U, V):
    """CE = 1 - sum_(c in C) max_(c' in C') |c and c'| / sum_(c in C) |c|: the clusters C of
    the covering with fewer clusters (y's when both have as many) each matched to the cluster
    of the other with which it shares most objects. On partitions the denominator is n and CE
    is clusim's 1 - purity; on overlapping covers clusim divides by n, which can make its value
    negative, so the total membership of C is used here (CE = 0 for identical covers).

    >>> import clusteragree as ca
    >>> ca.agreement([0, 0, 1, 1], [0, 0, 0, 1], index="classification_error")
    0.25
    """
    T = U.T @ V
    if V.shape[1] <= U.shape[1]:
        matched, total = T.max(axis=0).sum(), V.sum()
    else:
        matched, total = T.max(axis=1).sum(), U.sum()
    return float(max(1.0 - matched / total, 0.0))


@register(name="overlap_quality", title="Overlap quality", kind="similarity",
          range=(0.0, math.inf), optimum=math.inf, symmetric=True, options={"base": None},
          reflexive=False,
          reference='Ahn, Y.-Y., Bagrow, J. P. & Lehmann, S. (2010), "Link communities reveal '
                    'multiscale complexity in networks", Nature 466; ' + _CLUSIM,
          objects_only=True, **_OV)
def overlap_quality(U, V, base=None):
    """Mutual information between the numbers of clusters d^U_i and d^V_i each object is in
    (0 for an object in no cluster): sum_st p_st log(p_st / (p_s. p_.t)), p_st the share of
    objects in s clusters of U and t of V (Ahn et al. 2010), in nats (``base=2``: bits, as
    clusim). clusim 0.4 returns H(d^U) + H(d^V) + H(d^U, d^V) instead (a sign slip: the mutual
    information subtracts the joint entropy). 0 on two partitions (every object in one
    cluster); like the mutual information it has no fixed maximum.

    >>> import clusteragree as ca
    >>> U = [[1, 0], [1, 1], [0, 1], [1, 0]]
    >>> ca.agreement(U, U, index="overlap_quality", base=2)   # H(1, 2, 1, 1) in bits
    0.8112781244591328
    """
    scale = _log_base(base)
    du, dv = U.sum(axis=1).astype(np.int64), V.sum(axis=1).astype(np.int64)
    top = int(max(du.max(), dv.max())) + 1
    P = np.bincount(du * top + dv, minlength=top * top).reshape(top, top) / U.shape[0]
    pu, pv = P.sum(axis=1), P.sum(axis=0)
    mi = (_h(pu).sum() + _h(pv).sum() - _h(P).sum())
    return float(max(mi, 0.0) / scale)
