"""The measures for general clusterings reviewed by Horta & Campello (2015, sec. 3).

Memberships U, V have objects in rows (the paper writes the transpose); J = U U^T (co-association),
N = U^T V (fuzzy contingency matrix), t = U 1 (per-object membership totals).
On exclusive hard clusterings: bc = ebc09 (BCubed), bri08p = bri08m = bri09 = ri09 = rand,
bari09 = ari10 = adjusted_rand, csi10 = jaccard.

Pair-variable measures (eq 7 with J):  a = sum_(i<j) T(J^U, J^V), b = sum T(J^U, 1 - J^V),
c = sum T(1 - J^U, J^V), d = sum T(1 - J^U, 1 - J^V), with the t-norm T = product (bri08p,
bri09, ri09) or minimum (bri08m, whose J is also built with the minimum), then RI = (a + d)/(a+b+c+d)
and ARI by eq 5.

Each measure takes the kinds of clustering the review's Table 2 lists for it (exclusive hard and
fuzzy: 03VI, 03MI, 05MI, 08BRIp/m, 09RI; exclusive and non-exclusive hard: 09EBC, 10CSI, 11MD,
11D2, 12DB; all four: 09BRI, 09BARI, 10ARI, 10AARI,
10ARIn, 10AARIn, 11ARInm, 11AARInm), and BC exclusive hard
clusterings only (the review defines it for them; with objects in several clusters its
precision passes 1); the registry refuses the other kinds at the entry.

Not implemented (``declare_unavailable`` below: asking for one is refused with the reason):
09CRI/09CARI and 10QRIp/10QRIm, whose papers' definitions could not be read; the review's
one-line summaries do not determine them, and no value is given rather than a guessed one.
Campello's 07CRI/07CARI and 10CF/10CFn are in ``fuzzy_campello``.
"""

from __future__ import annotations

import math

import numpy as np

from .._docs import cite
from ..inputs import MEMBERSHIP_KINDS
from ._common import ratio, same_memberships
from ._pairwise import repeat_pairs
from ._registry import declare_unavailable, register

_HORTA = "reviewed in " + cite("horta2015")


def _ratio(num, den, same):
    """num / den; ``same`` (equal clusterings) decides only a vanishing denominator: most of
    these measures are not reflexive (they need not reach 1 on equal fuzzy clusterings)."""
    return ratio(num, den, same and den == 0, 1.0, 0.0)


# The kinds of clustering each measure was designed for, as the review's Table 2 lists them
# (checked at the entry by the registry: ``PairIndex.kinds``).
_TABLE2 = "the kinds the review's Table 2 lists for it"
_FC = dict(kinds=("exclusive hard", "fuzzy"), kinds_note=_TABLE2)
_HARD = dict(kinds=("exclusive hard", "non-exclusive hard"), kinds_note=_TABLE2)
_ALL = dict(kinds=MEMBERSHIP_KINDS)
_INFO = dict(kinds=("exclusive hard", "fuzzy"), objects_only=True,
             kinds_note="P = U^T V / n is a joint distribution only when every object's "
                        "memberships sum to 1")
_DIRECT = dict(family="fuzzy", inputs=("membership",), symmetric=True, optimum=1.0)


def ari_from_pairs(a, b, c, d, same):
    """The adjusted Rand index from the four (fuzzy) pair counts: a together in both, b and c
    together in one only, d apart in both; ``same`` marks identical clusterings."""
    total = a + b + c + d
    expected = (a + c) * (a + b) / total
    return _ratio(a - expected, ((a + c) + (a + b)) / 2 - expected, same)


# -- information theory on the fuzzy contingency matrix (03VI, 03MI, 05MI) ----------------------

def _info(U, V, name):
    n = U.shape[0]
    P = (U.T @ V) / n
    pr, pc = P.sum(axis=1), P.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        mi = np.where(P > 0, P * np.log(P / np.outer(pr, pc)), 0.0).sum()
        hu = -np.where(pr > 0, pr * np.log(pr), 0.0).sum()  # the paper's H lacks its sign
        hv = -np.where(pc > 0, pc * np.log(pc), 0.0).sum()
    return max(float(mi), 0.0), float(hu), float(hv)


@register(name="vi03", reflexive=False, title="Variation of information on N = U^T V (03VI)", kind="distance",
          range=(0.0, math.inf), optimum=0.0, family="fuzzy", inputs=("membership",),
          symmetric=True, options={"base": None}, reference="Meila (2003); " + _HORTA, **_INFO)
def vi03(U, V, base=None):
    """03VI = H(U) + H(V) - 2 I(U, V) with P = N / n (fuzzy clusterings)."""
    mi, hu, hv = _info(U, V, "vi03")
    return max(hu + hv - 2 * mi, 0.0) / (math.log(base) if base else 1.0)


@register(name="mi03", reflexive=False, title="NMI (sqrt) on N = U^T V (03MI)", kind="similarity",
          range=(0.0, 1.0), reference="Strehl & Ghosh (2003); " + _HORTA, **_INFO, **_DIRECT)
def mi03(U, V):
    """03MI = I(U, V) / sqrt(H(U) H(V)); 0 when an entropy is 0 (1 if U and V are equal)."""
    mi, hu, hv = _info(U, V, "mi03")
    same = same_memberships(U, V)
    return float(_ratio(mi, math.sqrt(hu * hv), same))


@register(name="mi05", reflexive=False, title="NMI (sum) on N = U^T V (05MI)", kind="similarity",
          range=(0.0, 1.0), reference="Fred & Jain (2005); " + _HORTA, **_INFO, **_DIRECT)
def mi05(U, V):
    """05MI = 2 I(U, V) / (H(U) + H(V))."""
    mi, hu, hv = _info(U, V, "mi05")
    return float(_ratio(2 * mi, hu + hv, same_memberships(U, V)))


# -- BCubed and its extension (BC, 09EBC), 11MD, 11D2, 10CSI ----------------------------------

def _f(p, r):
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


@register(name="bc", title="BCubed F (BC)", kind="similarity", range=(0.0, 1.0),
          pair_bytes=32,
          aliases=("bcubed",), reference="Amigo et al. (2009); " + _HORTA + ", eq 8",
          kinds=("exclusive hard",),
          kinds_note="BCubed's precision and recall pass 1 when objects share several "
                     "clusters (J^U J^V > J^U); 09EBC (ebc09) is its extension to them",
          **_DIRECT)
def bc(U, V):
    """BC = harmonic mean of BCP = (1/n) sum_i sum_j J^U_ij J^V_ij / sum_j J^U_ij and BCR
    (the same over sum_j J^V_ij); j runs over all objects, i itself included."""
    JU, JV = U @ U.T, V @ V.T
    both = (JU * JV).sum(axis=1)
    return _f(float((both / JU.sum(axis=1)).mean()), float((both / JV.sum(axis=1)).mean()))


@register(name="ebc09", title="Extended BCubed (09EBC)", kind="similarity", range=(0.0, 1.0),
          pair_bytes=32,
          reference="Amigo et al. (2009); " + _HORTA + ", eq 9", **_HARD, **_DIRECT)
def ebc09(U, V):
    """09EBC: BCubed with min(J^U, J^V) in place of the product; equal to BC on hard
    clusterings."""
    JU, JV = U @ U.T, V @ V.T
    both = np.minimum(JU, JV).sum(axis=1)
    return _f(float((both / JU.sum(axis=1)).mean()), float((both / JV.sum(axis=1)).mean()))


@register(name="md11", title="11MD (Wang)", kind="similarity", range=(0.0, 1.0),
          pair_bytes=40,
          reference="Wang (2010); " + _HORTA, **_HARD, **_DIRECT)
def md11(U, V):
    """11MD = 1 - (1/n) sum_i sum_j |J^U_ij - J^V_ij| / sum_j max(J^U_ij, J^V_ij)."""
    JU, JV = U @ U.T, V @ V.T
    return float(1 - (np.abs(JU - JV).sum(axis=1) / np.maximum(JU, JV).sum(axis=1)).mean())


@register(name="d2_11", title="11D2 (Wang)", kind="similarity", range=(-math.inf, 1.0),
          pair_bytes=24,
          reference="Wang (2010); " + _HORTA, **_HARD, **_DIRECT)
def d2_11(U, V):
    """11D2 = 1 - (1/n^2) sum_(i,j) |J^U_ij - J^V_ij| (Hamming distance of co-association)."""
    n = U.shape[0]
    return float(1 - np.abs(U @ U.T - V @ V.T).sum() / (n * n))


@register(name="csi10", title="10CSI (Campello)", kind="similarity", range=(0.0, 1.0),
          pair_bytes=40,
          reference="Campello (2010); " + _HORTA, **_HARD, **_DIRECT,
          weighted=lambda U, _ku, V, _kv, counts: _csi10(U, V, counts))
def csi10(U, V):
    """10CSI = sum_(i<j) a_ij / sum_(i<j) (a_ij + d_ij) with
    a_ij = min(J^U_ij, J^V_ij) + min(t^U_i, t^V_i) + min(t^U_j, t^V_j) - 2 and
    d_ij = |J^U_ij - J^V_ij| + |t^U_i - t^V_i| + |t^U_j - t^V_j|; Jaccard on hard partitions."""
    JU, JV = U @ U.T, V @ V.T
    tu, tv = U.sum(axis=1), V.sum(axis=1)
    iu, ju = np.triu_indices(U.shape[0], k=1)
    lo, gap = np.minimum(tu, tv), np.abs(tu - tv)
    a = np.minimum(JU[iu, ju], JV[iu, ju]) + lo[iu] + lo[ju] - 2
    d = np.abs(JU[iu, ju] - JV[iu, ju]) + gap[iu] + gap[ju]
    same = np.array_equal(JU, JV) and np.array_equal(tu, tv)
    return float(_ratio(a.sum(), (a + d).sum(), same))


def _csi10(U, V, counts):
    """10CSI on a resample of the objects: U, V's distinct objects drawn ``counts`` times,
    pair (i, k) counted w_i w_k times (``evaluate_resample``)."""
    JU, JV = U @ U.T, V @ V.T
    tu, tv = U.sum(axis=1), V.sum(axis=1)
    iu, ju = np.triu_indices(U.shape[0], k=1)
    lo, gap = np.minimum(tu, tv), np.abs(tu - tv)
    a = np.minimum(JU[iu, ju], JV[iu, ju]) + lo[iu] + lo[ju] - 2
    d = np.abs(JU[iu, ju] - JV[iu, ju]) + gap[iu] + gap[ju]
    w = counts[iu] * counts[ju]
    same = np.array_equal(JU, JV) and np.array_equal(tu, tv)
    return float(_ratio((w * a).sum(), (w * (a + d)).sum(), same))


# -- pair variables from co-association matrices (08BRIp/m, 09RI, 09BRI/09BARI) ---------------

def _pairs_eq7(jx, jy, tnorm):
    a = tnorm(jx, jy).sum()
    b = tnorm(jx, 1 - jy).sum()
    c = tnorm(1 - jx, jy).sum()
    d = tnorm(1 - jx, 1 - jy).sum()
    return a, b, c, d


def _upper(M):
    return M[np.triu_indices(M.shape[0], k=1)]


def _j_min(U):
    """J with the minimum t-norm: J_ij = sum_r min(U_ir, U_jr)."""
    J = np.zeros((U.shape[0], U.shape[0]))
    for r in range(U.shape[1]):
        J += np.minimum.outer(U[:, r], U[:, r])
    return J


def _rand_eq7(jx, jy, tnorm):
    a, b, c, d = _pairs_eq7(jx, jy, tnorm)
    return float(_ratio(a + d, a + b + c + d, bool(np.array_equal(jx, jy))))


def _on_resample(J, of_pairs):
    """The ``weighted`` form of an index ``of_pairs(jx, jy)`` of the upper triangles of J(U)
    and J(V): the same on a resample's pairs, pair (i, k) of distinct objects repeated w_i w_k
    times (``evaluate_resample``)."""
    def weighted(U, _ku, V, _kv, counts):
        return of_pairs(repeat_pairs(_upper(J(U)), counts), repeat_pairs(_upper(J(V)), counts))
    return weighted


def _gram(U):
    return U @ U.T


def _ri09(jx, jy):
    return float(1 + (2 * (jx * jy).sum() - jx.sum() - jy.sum()) / len(jx))


def _bari09(jx, jy):
    return float(ari_from_pairs(*_pairs_eq7(jx, jy, np.multiply), bool(np.array_equal(jx, jy))))


@register(name="bri08p", reflexive=False, title="Borgelt's Rand (product t-norm, 08BRIp)", kind="similarity",
          pair_bytes=32,
          range=(0.0, 1.0), reference="Borgelt (2007); " + _HORTA, **_FC, **_DIRECT,
          weighted=_on_resample(_gram, lambda jx, jy: _rand_eq7(jx, jy, np.multiply)))
def bri08p(U, V):
    """08BRIp: RI from eq 7 with J = U U^T and the product t-norm (fuzzy clusterings)."""
    return _rand_eq7(_upper(U @ U.T), _upper(V @ V.T), np.multiply)


@register(name="bri08m", reflexive=False, title="Borgelt's Rand (minimum t-norm, 08BRIm)", kind="similarity",
          pair_bytes=32,
          range=(0.0, 1.0), reference="Borgelt (2007); " + _HORTA, **_FC, **_DIRECT,
          weighted=_on_resample(_j_min, lambda jx, jy: _rand_eq7(jx, jy, np.minimum)))
def bri08m(U, V):
    """08BRIm: RI from eq 7 with the minimum t-norm in J and in a, b, c, d."""
    return _rand_eq7(_upper(_j_min(U)), _upper(_j_min(V)), np.minimum)


@register(name="ri09", reflexive=False, title="Rovetta & Masulli's Rand (09RI)", kind="similarity",
          pair_bytes=32,
          range=(-math.inf, 1.0), reference="Rovetta & Masulli (2009); " + _HORTA, **_FC,
          weighted=_on_resample(_gram, _ri09), **_DIRECT)
def ri09(U, V):
    """09RI = 1 + (2 pi - sigma_U - sigma_V) / C(n, 2), pi = sum_(i<j) J^U_ij J^V_ij,
    sigma = sum_(i<j) J_ij (the corrected formula the review quotes)."""
    return _ri09(_upper(U @ U.T), _upper(V @ V.T))


def _cosine_j(U):
    """J_ij = U_i . U_j / (|U_i| |U_j|), from the unit rows: each row is first divided by its
    largest membership, so that tiny memberships (possibilistic typicalities such as
    exp(-400)) neither underflow in |U_i|^2 nor make 0/0 (every row has some membership)."""
    W = U / U.max(axis=1, keepdims=True)
    W = W / np.linalg.norm(W, axis=1, keepdims=True)
    return W @ W.T


@register(name="bri09", reflexive=False, title="Brouwer's Rand (09BRI)", kind="similarity", range=(0.0, 1.0),
          pair_bytes=32,
          reference="Brouwer (2009); " + _HORTA, **_ALL, **_DIRECT,
          weighted=_on_resample(_cosine_j, lambda jx, jy: _rand_eq7(jx, jy, np.multiply)))
def bri09(U, V):
    """09BRI: RI from eq 7 with the cosine-normalised co-association J_ij / (|U_i| |U_j|)."""
    return _rand_eq7(_upper(_cosine_j(U)), _upper(_cosine_j(V)), np.multiply)


@register(name="bari09", reflexive=False, title="Brouwer's adjusted Rand (09BARI)", kind="similarity",
          pair_bytes=32,
          range=(-1.0, 1.0), reference="Brouwer (2009); " + _HORTA, **_ALL, **_DIRECT,
          weighted=_on_resample(_cosine_j, _bari09))
def bari09(U, V):
    """09BARI: ARI (eq 5) from the pair variables of 09BRI."""
    return _bari09(_upper(_cosine_j(U)), _upper(_cosine_j(V)))


# -- pair variables from the fuzzy contingency matrix (10ARI, 10ARIn, 11ARInm) ------------------

def _pairs_eq2(N):
    s, r, c, tot = (N * N).sum(), (N.sum(axis=1) ** 2).sum(), (N.sum(axis=0) ** 2).sum(), N.sum()
    a = 0.5 * s - 0.5 * tot
    b = 0.5 * r - 0.5 * s
    cc = 0.5 * c - 0.5 * s
    d = 0.5 * tot**2 - 0.5 * (r + c) + 0.5 * s
    return a, b, cc, d


def _normalised_n(U, V):
    """N^ = (n / N++) N, N = U^T V, which does not change when U or V is multiplied by a
    constant; computed from U / max U and V / max V, and N / max N, so that small memberships
    neither underflow to an N of zeros (0/0) nor overflow n / N++."""
    N = (U / U.max()).T @ (V / V.max())
    top = N.max()
    if not top > 0:
        raise FloatingPointError("U^T V underflows to zero for these memberships (every "
                                 "product U_ir V_it is below 1e-308 after scaling by the "
                                 "largest); N^ = (n / N++) N cannot be computed")
    N = N / top
    return N * (U.shape[0] / N.sum())


def _anderson(U, V, normalised, adjusted):
    N = _normalised_n(U, V) if normalised else U.T @ V
    a, b, c, d = _pairs_eq2(N)
    same = bool(same_memberships(U, V))
    if adjusted:
        return float(ari_from_pairs(a, b, c, d, same))
    return float(_ratio(a + d, a + b + c + d, same))


for _name, _title, _norm, _adj in (("ari10", "Anderson's Rand (10ARI)", False, False),
                                   ("aari10", "Anderson's adjusted Rand (10AARI)", False, True),
                                   ("ari10n", "Anderson's normalised Rand (10ARIn)", True, False),
                                   ("aari10n", "Anderson's normalised adjusted Rand (10AARIn)",
                                    True, True)):
    def _make(norm=_norm, adj=_adj, name=_name):
        def index(U, V):
            return _anderson(U, V, norm, adj)
        index.__doc__ = (f"{name}: {'ARI' if adj else 'RI'} from the pair variables of eq 2 on "
                         f"{'the normalised N^ = (n / N++) N' if norm else 'N = U^T V'}.")
        index.__name__ = name
        return index

    register(name=_name, title=_title, kind="similarity", reflexive=False,
             range=(-math.inf, math.inf), reference="Anderson et al. (2010); " + _HORTA,
             **_ALL, **_DIRECT)(_make())


@register(name="ari11nm", title="Anderson's max-normalised Rand (11ARInm)", kind="similarity",
          range=(-math.inf, math.inf), reference="Anderson et al. (2011); " + _HORTA, **_ALL, **_DIRECT)
def ari11nm(U, V):
    """11ARInm = 10ARIn(U, V) / max(10ARIn(U, U), 10ARIn(V, V))."""
    top = max(_anderson(U, U, True, False), _anderson(V, V, True, False))
    return float(_ratio(_anderson(U, V, True, False), top, bool(same_memberships(U, V))))


@register(name="aari11nm", title="Anderson's max-normalised adjusted Rand (11AARInm)",
          kind="similarity", range=(-math.inf, math.inf),
          reference="Anderson et al. (2011); " + _HORTA, **_ALL, **_DIRECT)
def aari11nm(U, V):
    """11AARInm = 10AARIn(U, V) / max(10AARIn(U, U), 10AARIn(V, V))."""
    top = max(_anderson(U, U, True, True), _anderson(V, V, True, True))
    return float(_ratio(_anderson(U, V, True, True), top, bool(same_memberships(U, V))))


# -- 12DB (Wang 2012) ----------------------------------------------------------------------------

def _ndisc(W):
    """Normalised disconnectivity 2 (1 - sum_ij A_ij / n^2), A_ij = 1 if i and j share a
    cluster."""
    A = (W @ W.T) > 0
    return 2.0 * (1.0 - A.sum() / W.shape[0] ** 2)


@register(name="db12", title="12DB (Wang)", kind="distance", range=(0.0, math.inf),
          pair_bytes=16,
          optimum=0.0, family="fuzzy", inputs=("membership",), symmetric=True,
          reference="Wang (2012); " + _HORTA, **_HARD)
def db12(U, V):
    """12DB = 2 NDisc(R) - NDisc(U) - NDisc(V), R the intersection clustering
    R_(i, (r, t)) = U_ir V_it (non-exclusive hard clusterings)."""
    R = (U[:, :, None] * V[:, None, :]).reshape(U.shape[0], -1)
    return float(2 * _ndisc(R) - _ndisc(U) - _ndisc(V))


# -- measures of the review with a name here but no implementation -----------------------------

declare_unavailable(
    ("cri09", "cari09"),
    "Ceccarelli & Maratea's concordance indices 09CRI/09CARI (2009, \"Concordance indices for "
    "comparing fuzzy, possibilistic, rough and grey partitions\", Int. J. Knowledge Engineering "
    "and Soft Data Paradigms 1(2)) are left out: the paper's pair variables (its equations 14-16 "
    "and 21) could not be read, and the summary in Horta & Campello (2015) does not determine "
    "them (its table sum_i (U_ri + V_ti) is a_r + b_t on hard partitions, with nothing joint in "
    "it). For fuzzy or possibilistic clusterings use e.g. 'gri'/'agri', 'cri07'/'cari07' or "
    "'ari10'/'aari10'.")
declare_unavailable(
    ("qri10p", "qri10m"),
    "Quere, Le Capitaine, Fraisseix & Frelicot's 10QRIp/10QRIm (2010, \"On normalizing fuzzy "
    "coincidence matrices to compare fuzzy and/or possibilistic partitions with the Rand "
    "index\", IEEE ICDM) are left out: how the paper normalises the coincidence matrices with "
    "the t-norm's generator could not be read (only its abstract was at hand), and the summary "
    "in Horta & Campello (2015), a unit diagonal, does not say how, least of all for the "
    "minimum t-norm, which has no generator. The unnormalised forms are 'bri08p'/'bri08m'; "
    "for possibilistic clusterings use e.g. 'gri'/'agri'.")
