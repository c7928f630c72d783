"""Indices for fuzzy, probabilistic, overlapping and possibilistic clusterings.

Memberships are arrays U of shape (n_objects, n_clusters) (objects in rows, like
``predict_proba``; the papers write the transpose), entries in [0, 1]; hard labels are turned
into one-hot memberships. ``membership_kind(U)`` says which of the four kinds U is.

Horta & Campello (2015), with T = J + S:

    J = U U^T        (J_ij: degree to which objects i and j share a cluster)
    S = t t^T - J    (t = U 1, row totals: degree to which they are in different clusters)
    a = sum_(i<j) min(J^U, J^V),  d = sum min(S^U, S^V)
    b = sum min(J^U - min(J^U, J^V), S^V - min(S^U, S^V)),  c likewise with U and V swapped
    fri  = (a + d) / (a + b + c + d)                        (13FRI, eq 14)
    gri  = (a + d) / max(sum T^U, sum T^V)                  (13GRI, eq 22 and Prop. 5)
    afri, agri = (I - E[I]) / (1 - E[I])                    (13AFRI, 13AGRI)

fri and afri are defined for fuzzy (and exclusive hard) clusterings only, where T = 1 for every
pair; gri and agri take all four kinds (the registry refuses other kinds at the entry, see
``PairIndex.kinds``). On other clusterings 13FRI ignores the part of one clustering's totals T that
exceeds the other's: b and c vanish whenever J^U >= J^V and S^U >= S^V pair by pair, so
13FRI(U, xU) = 1 for every x in (0, 1] (Horta & Campello 2015, sec. 4.3, which is why they
define 13GRI). E[I] is the exact mean over independent permutations of the objects of U and V: the denominators are
constant under that null and E[a] = (1/m) sum_(i<j) sum_(k<l)
min(J^U_ij, J^V_kl) (eq 18), computed in O(m log m) by sorting (``_pairwise.sum_of_min``);
``ca.agreement(..., index="agri")`` regenerates the pair values block by block of rows and, when
they do not fit ``_streamed.MEMORY_BUDGET``, sums by a sample sort through temporary files
(``_streamed``): exact, in memory bounded by the budget (the files take 16 bytes a pair).

Hullermeier et al. (2012) / Amodio et al. (2015): E_P(i, j) = 1 - ||P(i) - P(j)||, the
normalised L1 norm (1/2) sum_k |.|, and

    ndc = 1 - (1/m) sum_(i<j) |E_P(i, j) - E_Q(i, j)|     (normalised degree of concordance)
    aci = (ndc - E[ndc]) / (1 - E[ndc])                     (adjusted concordance index)

E[ndc] = 1 - (1/m^2) sum_(i<j) sum_(k<l) |E_P(i, j) - E_Q(k, l)|, the exact mean over all m!
permutations of the pairwise similarities (and over object permutations), in O(m log m); the
paper's Monte Carlo estimate is available with ``expectation="monte_carlo"``.

On exclusive hard clusterings fri = gri = ndc = rand and afri = agri = aci = adjusted_rand.

ndc and aci take fuzzy (or exclusive hard) memberships, whose E lies in [0, 1] (with rows that do
not sum to 1, 1 - (1/2)|.|_1 can be negative), or similarity matrices (square, symmetric, unit diagonal: no fuzzy membership matrix but the identity looks
like that, and for it both readings agree). ndc is also Hullermeier & Rifqi's 09HI (alias
``hi09``) with the normalised L1 norm (the experiments of Horta & Campello (2015) use the
Euclidean norm, which leaves [0, 1]). The other measures Horta & Campello (2015) review are in
``fuzzy_reviewed``.
"""

from __future__ import annotations

import math

import numpy as np

from .._docs import cite, fill_doc
from ..inputs import MATRIX_KIND, MEMBERSHIP_KINDS
from .._validate import check_choice, check_positive_int
from .._validate import check_seed
from ..inputs.memberships import read_memberships
from ._common import ratio
from ._pairwise import row_blocks, sum_of_abs_diff, sum_of_min, upper, upper_of_block
from ._registry import register
from ._streamed import Values, streamed_sum_of_min

__all__ = ["membership_kind", "membership_matrices", "equivalence_matrix", "MEMBERSHIP_KINDS"]

_HORTA = cite("horta2015")
_AMODIO = ("Hullermeier et al. (2012); Amodio, S., D'Ambrosio, A., Iorio, C. & Siciliano, R. "
           '(2015), "Adjusted concordance index, an extension of the adjusted Rand index to '
           'fuzzy partitions", STAD Research Report 03/2015 (Journal of Classification, 2021)')


@fill_doc
def membership_kind(U) -> str:
    """The kind of a clustering given by its memberships (Horta & Campello 2015, sec. 3).

    Parameters
    ----------
    U : array-like, shape (n_objects, n_clusters) or (n_objects,)
        Memberships in [0, 1], objects in rows (like ``predict_proba``); 1-D hard labels are
        read as one-hot memberships.

    Returns
    -------
    str
        "exclusive hard" (one 1 per row: a partition), "fuzzy" (rows summing to 1),
        "non-exclusive hard" (0/1, an object in several clusters), "possibilistic" (any
        other memberships, every object with some) or, for 0/1 memberships that leave an
        object in no cluster (a cover), "non-exhaustive hard".

    Raises
    ------
    ValueError
        Memberships outside [0, 1], NaN, an empty matrix, or an object with no membership in
        non-0/1 memberships.

    See Also
    --------
    clusteragree.list_indices : The kinds each index takes (column ``kinds``).
    clusteragree.agreement : Indices of fuzzy and overlapping clusterings.

    References
    ----------
    {ref:horta2015}.

    Examples
    --------
    >>> membership_kind([0, 1, 1])
    'exclusive hard'
    >>> membership_kind([[0.2, 0.8], [1.0, 0.0]])
    'fuzzy'
    >>> membership_kind([[1, 1], [0, 1], [0, 0]])
    'non-exhaustive hard'
    """
    return read_memberships(U)[1]


def membership_matrices(U, kind="membership"):
    """J = U U^T and S = t t^T - J of a membership matrix (objects x clusters)."""
    J = U @ U.T
    t = U.sum(axis=1)
    return J, np.subtract(np.outer(t, t), J, out=np.outer(t, t))


def equivalence_matrix(U, kind="membership"):
    """E(i, j) = 1 - (1/2) sum_k |U_ik - U_jk|; a similarity matrix is taken as it is."""
    if kind == "matrix":
        return (U,)
    n = U.shape[0]
    dist = np.zeros((n, n))
    for k in range(U.shape[1]):
        col = U[:, k]
        dist += np.abs(col[:, None] - col[None, :])
    return (1.0 - 0.5 * dist,)


def _membership_rows(U, kind="membership"):
    """(start, (J rows, S rows)) by blocks of rows: J = U U^T and S = t t^T - J without the
    n x n matrices."""
    t = U.sum(axis=1)
    for start, stop in row_blocks(U.shape[0]):
        J = U[start:stop] @ U.T
        yield start, (J, np.outer(t[start:stop], t) - J)


def _equivalence_rows(U, kind="membership"):
    """(start, (E rows,)) by blocks of rows of the equivalence (or similarity) matrix."""
    if kind == "matrix":
        for start, stop in row_blocks(U.shape[0]):
            yield start, (U[start:stop],)
        return
    for start, stop in row_blocks(U.shape[0]):
        dist = np.zeros((stop - start, U.shape[0]))
        for k in range(U.shape[1]):
            dist += np.abs(U[start:stop, k, None] - U[None, :, k])
        yield start, (1.0 - 0.5 * dist,)


membership_matrices.rows = _membership_rows
equivalence_matrix.rows = _equivalence_rows


def _pair_blocks(X, kx, Y, ky, rows):
    """Pairs of upper-triangle blocks of x's and y's representations, row block by row block."""
    for (start, bx), (_, by) in zip(rows(X, kx), rows(Y, ky)):
        yield (tuple(upper_of_block(B, start) for B in bx),
               tuple(upper_of_block(B, start) for B in by))


def _abcd_sums(X, kx, Y, ky, apart: bool = True):
    """a, b, c, d, sum T^U, sum T^V and whether the clusterings agree on every pair, summed
    by blocks of rows (memory O(n x block), no pair vector of length n(n-1)/2); with
    ``apart=False`` b and c are left at 0 (13GRI and 13AGRI do not use them)."""
    sums = np.zeros(6)
    same = True
    for xs, ys in _pair_blocks(X, kx, Y, ky, _membership_rows):
        if apart:
            sums[:4] += _abcd(xs, ys)
        else:
            sums[[0, 3]] += (np.minimum(xs[0], ys[0]).sum(axis=-1),
                             np.minimum(xs[1], ys[1]).sum(axis=-1))
        sums[4] += xs[0].sum() + xs[1].sum()
        sums[5] += ys[0].sum() + ys[1].sum()
        same = same and bool(_same(xs, ys))
    return (*sums, same)


def _fri_value(X, kx, Y, ky):
    a, b, c, d, _, _, same = _abcd_sums(X, kx, Y, ky)
    return float(ratio(a + d, a + b + c + d, same, 1.0, 0.0))


def _gri_value(X, kx, Y, ky):
    a, b, c, d, tu, tv, same = _abcd_sums(X, kx, Y, ky, apart=False)
    return float(ratio(a + d, max(tu, tv), same, 1.0, 0.0))


def _ndc_value(X, kx, Y, ky):
    """NDC summed by blocks of rows: 1 - (sum over pairs of |E_P - E_Q|) / m."""
    total, m = 0.0, 0
    for xs, ys in _pair_blocks(X, kx, Y, ky, _equivalence_rows):
        total += float(np.abs(xs[0] - ys[0]).sum())
        m += xs[0].size
    return 1.0 - total / m


#: Two pair values closer than this are equal (the clusterings agree on the pair).
_SAME_TOL = 1e-12


def _same(xs, ys, buffer=None):
    """Whether the clusterings agree on every pair: |x - y| <= 1e-12 for every pair value
    (``np.isclose(x, y, rtol=0, atol=1e-12)`` on finite values, which these are), by one
    maximum per vector; ``buffer`` (of the broadcast shape) is used for |x - y|."""
    same = None
    for x, y in zip(xs, ys):
        diff = np.subtract(x, y, out=buffer) if buffer is not None else np.subtract(x, y)
        np.abs(diff, out=diff)
        close = (diff.max(axis=-1) <= _SAME_TOL) if diff.shape[-1] else np.ones(
            diff.shape[:-1], dtype=bool)
        same = close if same is None else same & close
    return same


def _pair_buffer(xs, ys) -> np.ndarray:
    """An array of the broadcast shape of the pair vectors, for their elementwise steps."""
    return np.empty(np.broadcast_shapes(*(v.shape for v in (*xs, *ys))))


def _abcd(xs, ys):
    (Ju, Su), (Jv, Sv) = xs, ys
    a_ij, d_ij = np.minimum(Ju, Jv), np.minimum(Su, Sv)
    a, d = a_ij.sum(axis=-1), d_ij.sum(axis=-1)
    b = np.minimum(Ju - a_ij, Sv - d_ij).sum(axis=-1)
    # c's steps in a_ij's and d_ij's memory (the same numbers, two arrays fewer)
    c_left = np.subtract(Jv, a_ij, out=a_ij) if a_ij.shape == np.shape(Jv) else Jv - a_ij
    c_right = np.subtract(Su, d_ij, out=d_ij) if d_ij.shape == np.shape(Su) else Su - d_ij
    c = np.minimum(c_left, c_right, out=c_left).sum(axis=-1)
    return a, b, c, d


def _grand(xs, ys):
    """What 13GRI and 13AGRI take from the pair vectors: a + d (the pairs' agreement,
    sum min(J^U, J^V) + sum min(S^U, S^V), as ``_abcd`` sums them; b and c are not needed),
    max(sum T^U, sum T^V) and whether the clusterings agree on every pair, the elementwise
    steps in one buffer."""
    (Ju, Su), (Jv, Sv) = xs, ys
    buffer = _pair_buffer(xs, ys)
    a = np.minimum(Ju, Jv, out=buffer).sum(axis=-1)
    d = np.minimum(Su, Sv, out=buffer).sum(axis=-1)
    tu = Ju.sum(axis=-1) + Su.sum(axis=-1)
    tv = Jv.sum(axis=-1) + Sv.sum(axis=-1)
    return a + d, np.maximum(tu, tv), _same(xs, ys, buffer)


def _expected_agreement(xs, ys):
    """E[a] + E[d] under independent object permutations (Horta & Campello (2015), eqs 18-19)."""
    (Ju, Su), (Jv, Sv) = xs, ys
    m = Ju.shape[-1]
    return (sum_of_min(Ju, Jv) + sum_of_min(Su, Sv)) / m


def _pair_values(U, which):
    """The upper-triangle values of J (``which=0``) or S (``which=1``) of memberships U as
    ``Values``: regenerated block of rows by block of rows at every pass, sampled from the
    pairs of a random subset of the objects (each pair of objects equally likely to be in it)."""
    n, t = U.shape[0], U.sum(axis=1)

    def chunks():  # the columns j > start of rows start..stop - 1 only
        for start, stop in row_blocks(n):
            B = U[start:stop] @ U[start + 1:].T
            if which == 1:
                B = np.subtract(np.outer(t[start:stop], t[start + 1:]), B, out=B)
            yield upper_of_block(B, -1)  # row r, column c: objects start + r, start + 1 + c

    def sample(k):
        size = min(n, math.isqrt(2 * k) + 2)
        objects = np.sort(np.random.default_rng(0).choice(n, size, replace=False))
        return upper(membership_matrices(U[objects])[which])

    return Values(n * (n - 1) // 2, chunks, sample)


def _streamed_expected_agreement(X, Y):
    """E[a] + E[d] = (sum_of_min(J^U, J^V) + sum_of_min(S^U, S^V)) / m (Horta & Campello
    (2015), eqs 18-19) from the memberships, one vector pair at a time, each in memory when it
    fits ``_streamed.MEMORY_BUDGET`` and otherwise by a sample sort through temporary files
    (``_streamed.streamed_sum_of_min``): no pair vector of length m = n(n-1)/2 is held."""
    n = X.shape[0]
    m = n * (n - 1) // 2
    return sum(streamed_sum_of_min(_pair_values(X, w), _pair_values(Y, w)) for w in (0, 1)) / m


def _agri_value(X, kx, Y, ky):
    """13AGRI from the memberships: a, d and the totals summed by blocks of rows, E[a] + E[d]
    within a memory budget (``_streamed_expected_agreement``)."""
    a, _, _, d, tu, tv, same = _abcd_sums(X, kx, Y, ky, apart=False)
    total = max(tu, tv)
    gri = ratio(a + d, total, same, 1.0, 0.0)
    expected = _streamed_expected_agreement(X, Y) / total if total else 1.0
    return float(ratio(gri - expected, 1.0 - expected, same, 1.0, 0.0))


def _prepare_fri(xs, ys):
    """E[13FRI] = (E[a] + E[d]) / (a + b + c + d) (Horta & Campello (2015), eq 17): the
    denominator a + b + c + d = sum min(T^U, T^V) = n(n - 1)/2 is constant under the null
    because fuzzy and exclusive hard clusterings, the only ones 13FRI takes, have T = 1
    (Corollary 1)."""
    a, b, c, d = _abcd(xs, ys)
    total = a + b + c + d  # constant under the null here
    return {"expected": float(_expected_agreement(xs, ys) / total) if total else 1.0}


def _prepare_gri(xs, ys):
    total = max(float(xs[0].sum() + xs[1].sum()), float(ys[0].sum() + ys[1].sum()))
    return {"expected": float(_expected_agreement(xs, ys) / total) if total else 1.0}


_JS = dict(family="fuzzy", inputs=("membership",), representation=membership_matrices,
           symmetric=True, kind="similarity", optimum=1.0, kinds=MEMBERSHIP_KINDS)
#: 13FRI and 13AFRI: fuzzy clusterings (exclusive hard ones are fuzzy too)
_FRI = dict(_JS, kinds=("exclusive hard", "fuzzy"),
            kinds_note="13FRI compares fuzzy clusterings, where every object's memberships sum "
                       "to 1; on others it ignores the part of one clustering's totals that "
                       "exceeds the other's and can give 1 to different clusterings (Horta & "
                       "Campello 2015, sec. 4.3), so use gri / agri (13GRI / 13AGRI)")


def _zero_mean(xs, ys, **_):
    """Adjusted indices have null mean 0 exactly (their denominators are constant)."""
    return 0.0


@register(name="fri", title="Frand index (13FRI)", range=(0.0, 1.0), aliases=("frand",),
          reference=_HORTA + ", eq 14", value=_fri_value,
          pair_mean=lambda xs, ys: _prepare_fri(xs, ys)["expected"], **_FRI)
def fri(xs, ys):
    """13FRI = (a + d) / (a + b + c + d) (Horta & Campello 2015, eq 14), for fuzzy (and
    exclusive hard) clusterings; the Rand index on exclusive hard clusterings.

    Other kinds are refused: with memberships that need not sum to 1, b = c = 0 whenever
    J^U >= J^V and S^U >= S^V on every pair, whatever the surplus (sec. 4.3):

    >>> ca.agreement(np.full((4, 2), 0.9), [0, 1, 0, 1], index="fri")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: x is a possibilistic clustering (...), which index 'fri' ...
    """
    a, b, c, d = _abcd(xs, ys)
    return ratio(a + d, a + b + c + d, _same(xs, ys), 1.0, 0.0)


@register(name="afri", title="Adjusted frand index (13AFRI)", range=(-math.inf, 1.0),
          pair_bytes=40,
          reference=_HORTA + ", section 4.1", prepare=_prepare_fri, pair_mean=_zero_mean, **_FRI)
def afri(xs, ys, expected):
    """13AFRI = (13FRI - E[13FRI]) / (1 - E[13FRI]), E over object permutations (exact)."""
    return ratio(fri(xs, ys) - expected, 1.0 - expected, _same(xs, ys), 1.0, 0.0)


@register(name="gri", title="Grand index (13GRI)", range=(0.0, 1.0), aliases=("grand",),
          value=_gri_value,
          reference=_HORTA + ", eq 22",
          pair_mean=lambda xs, ys: _prepare_gri(xs, ys)["expected"], **_JS)
def gri(xs, ys):
    """13GRI = (a + d) / max(sum T^U, sum T^V), T = J + S; 13FRI on fuzzy clusterings."""
    agree, total, same = _grand(xs, ys)
    return ratio(agree, total, same, 1.0, 0.0)


@register(name="agri", title="Adjusted grand index (13AGRI)", range=(-math.inf, 1.0),
          reference=_HORTA + ", section 5", prepare=_prepare_gri, pair_mean=_zero_mean,
          value=_agri_value, **_JS)
def agri(xs, ys, expected):
    """13AGRI = (13GRI - E[13GRI]) / (1 - E[13GRI]), E the exact mean over independent
    permutations of the objects; equal to the adjusted Rand index on exclusive hard
    clusterings.

    >>> round(ca.agreement([0, 0, 1, 1, 2], [0, 0, 1, 2, 2], index="agri"), 12)  # ARI: .6/1.6
    0.375
    """
    agree, total, same = _grand(xs, ys)  # 13GRI's parts, computed once
    return ratio(ratio(agree, total, same, 1.0, 0.0) - expected, 1.0 - expected, same, 1.0,
                 0.0)


def _prepare_aci(xs, ys, expectation="exact", n_perm=1000, seed=None, clip_negative=False):
    x, y = xs[0], ys[0]
    m = x.shape[-1]
    check_choice(expectation, "expectation", ("exact", "monte_carlo"))
    if expectation == "exact":
        return {"expected": 1.0 - sum_of_abs_diff(x, y) / (m * m)}
    rng = check_seed(seed)
    n_perm = check_positive_int(n_perm, "n_perm")
    draws = [1.0 - np.abs(x - y[rng.permutation(m)]).mean() for _ in range(n_perm)]
    return {"expected": float(np.mean(draws))}


_E = dict(family="fuzzy", inputs=("membership", "matrix"), representation=equivalence_matrix,
          symmetric=True, kind="similarity", optimum=1.0,
          kinds=("exclusive hard", "fuzzy", MATRIX_KIND),
          kinds_note="its similarity E = 1 - (1/2)|P(i) - P(j)|_1 lies in [0, 1] only when "
                     "every object's memberships sum to 1")


@register(name="ndc", title="Normalised degree of concordance (fuzzy Rand; 09HI)",
          range=(0.0, 1.0), aliases=("hi09",), value=_ndc_value,
          reference=_AMODIO + ", eq 3.6",
          pair_mean=lambda xs, ys: _prepare_aci(xs, ys)["expected"], **_E)
def ndc(xs, ys):
    """NDC = 1 - mean_(i<j) |E_P(i, j) - E_Q(i, j)|; the Rand index on hard partitions.

    >>> P = [[.29, .71], [.79, .21], [.41, .59], [.88, .12]]      # Amodio et al. (2015): toy P'
    >>> Q = [[.94, .06], [.05, .95], [.53, .47], [.89, .11]]
    >>> round(ca.agreement(P, Q, index="ndc"), 4)
    0.6367
    """
    return 1.0 - np.abs(xs[0] - ys[0]).mean(axis=-1)


@register(name="aci", title="Adjusted concordance index", range=(-math.inf, 1.0),
          pair_bytes=40,
          reference=_AMODIO + ", eq 4.2", prepare=_prepare_aci,
          pair_mean=lambda xs, ys, expected, expectation="exact", **_: (
              0.0 if expectation == "exact" else None),
          options={"expectation": "exact", "n_perm": 1000, "seed": None,
                   "clip_negative": False}, **_E)
def aci(xs, ys, expected, expectation="exact", n_perm=1000, seed=None, clip_negative=False):
    """ACI = (NDC - E[NDC]) / (1 - E[NDC]), E[NDC] the exact mean over all permutations of the
    pairwise similarities (``expectation="monte_carlo"``: the paper's estimate from ``n_perm``
    random permutations); ``clip_negative=True`` sets negative values to 0 as the paper
    suggests.

    >>> P = [[.29, .71], [.79, .21], [.41, .59], [.88, .12]]
    >>> Q = [[.94, .06], [.05, .95], [.53, .47], [.89, .11]]
    >>> round(ca.agreement(P, Q, index="aci"), 3)                  # Amodio et al. (2015): -0.200
    -0.2
    """
    value = ratio(ndc(xs, ys) - expected, 1.0 - expected, _same(xs, ys), 1.0, 0.0)
    return np.maximum(value, 0.0) if clip_negative else value
