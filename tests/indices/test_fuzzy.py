"""Tests of the indices of fuzzy memberships and similarity matrices (13FRI, 13AFRI, 13GRI,
13AGRI, NDC, ACI, ARImm, ARImp), their exact and permutation nulls, and the input checks.

Every reference value is computed here, independently of the package:

* pair quantities from their definitions, pair by pair (J = U U^T, S = t t^T - J; Horta &
  Campello 2015, eq 13; E(i, j) = 1 - (1/2) sum_k |U_ik - U_jk|, Amodio et al. 2015; t0, t1, t2
  of Zhang, Wong & Shen 2012, eq 14),
* null means by brute force: every object permutation (``itertools.permutations``, each one a
  call of ``ca.agreement``), every permutation of the pair values, or the O(m^2) double sum
  (1/m) sum_i sum_j f(x_i, y_j),
* the Rand and adjusted Rand indices by scikit-learn,
* values printed in the papers: Horta, D. & Campello, R. J. G. B. (2015), "Comparing hard and
  overlapping clusterings", JMLR 16; Zhang, S., Wong, H.-S. & Shen, Y. (2012), "Generalized
  adjusted Rand indices for cluster ensembles", Pattern Recognition 45(6); Amodio, S.,
  D'Ambrosio, A., Iorio, C. & Siciliano, R. (2015), "Adjusted concordance index, an extension
  of the adjusted Rand index to fuzzy partitions" (STAD Research Report 03/2015; Journal of
  Classification, 2021); one misprint, in Zhang et al.'s example, is corrected where it is used.

Memberships have the objects in rows (the papers write the transpose). All randomness is seeded
and the hypothesis tests are derandomized. Indices refuse the membership kinds they are not
defined for (ACCEPTS), and tests check those refusals too.
"""

from __future__ import annotations

import functools
import itertools
import math
import tempfile

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from sklearn.metrics import adjusted_rand_score, rand_score

import clusteragree as ca
from clusteragree.indices import _streamed, fuzzy
from clusteragree.indices._common import ratio
from clusteragree.indices._pairwise import sum_of_abs_diff, sum_of_min
from clusteragree.indices.fuzzy import membership_matrices
from clusteragree.indices.matrices import ari_mm_block_sums, ari_mm_from_sums

TOL = 1e-10  # reductions against scikit-learn
ID_TOL = 1e-12  # the same quantity computed two ways

SETTINGS = dict(deadline=None, derandomize=True, database=None, max_examples=120,
                suppress_health_check=[HealthCheck.too_slow])

FUZZY_INDICES = ("fri", "afri", "gri", "agri", "ndc", "aci")
ADJUSTED = ("afri", "agri", "aci")
ALL_KINDS = ("exclusive hard", "fuzzy", "non-exclusive hard", "possibilistic")
FC_KINDS = ("exclusive hard", "fuzzy")
#: The membership kinds each index takes (Horta & Campello 2015, sec. 4: 13FRI and 13AFRI are
#: defined for fuzzy clusterings, and sec. 4.3 shows 13FRI failing on others; 13GRI / 13AGRI
#: take all four; Amodio et al. 2015: E = 1 - |.|_1 / 2 lies in [0, 1] only for fuzzy
#: memberships).
ACCEPTS = {"fri": FC_KINDS, "afri": FC_KINDS, "gri": ALL_KINDS, "agri": ALL_KINDS,
           "ndc": FC_KINDS, "aci": FC_KINDS}


def test_the_registry_takes_the_kinds_the_papers_define_each_index_for():
    for name, kinds in ACCEPTS.items():
        assert set(ca.get_index(name).kinds) - {"similarity matrix"} == set(kinds), name


# ---------------------------------------------------------------------------------------------
# Independent reference machinery
# ---------------------------------------------------------------------------------------------

def one_hot(labels) -> np.ndarray:
    _, codes = np.unique(np.asarray(labels), return_inverse=True)
    out = np.zeros((len(codes), codes.max() + 1))
    out[np.arange(len(codes)), codes] = 1.0
    return out


def pairs_of(n):
    return list(itertools.combinations(range(n), 2))


def upper_vec(M) -> np.ndarray:
    M = np.asarray(M, float)
    return np.array([M[i, j] for i, j in pairs_of(M.shape[0])])


def j_and_s(U):
    """Horta & Campello (2015): J_ij = sum_k U_ik U_jk (share a cluster), S_ij = t_i t_j - J_ij."""
    U = np.asarray(U, float)
    t = U.sum(axis=1)
    n = len(U)
    J = np.array([[sum(U[i, k] * U[j, k] for k in range(U.shape[1])) for j in range(n)]
                  for i in range(n)])
    return J, np.outer(t, t) - J


def equivalence(U) -> np.ndarray:
    """Amodio et al. (2015): E_P(i, j) = 1 - (1/2) sum_k |P_ik - P_jk|."""
    U = np.asarray(U, float)
    n = len(U)
    return np.array([[1.0 - 0.5 * np.abs(U[i] - U[j]).sum() for j in range(n)]
                     for i in range(n)])


def fuzzy_abcd(U, V):
    """Horta & Campello (2015) eq 13, pair by pair: (a, b, c, d) and (sum T^U, sum T^V) over
    i < j."""
    JU, SU = j_and_s(U)
    JV, SV = j_and_s(V)
    a = b = c = d = tu = tv = 0.0
    for i, j in pairs_of(len(JU)):
        ai, di = min(JU[i, j], JV[i, j]), min(SU[i, j], SV[i, j])
        a += ai
        d += di
        b += min(JU[i, j] - ai, SV[i, j] - di)
        c += min(JV[i, j] - ai, SU[i, j] - di)
        tu += JU[i, j] + SU[i, j]
        tv += JV[i, j] + SV[i, j]
    return a, b, c, d, tu, tv


def brute_cross_mean(x, y, f):
    """(1/m^2) sum_i sum_j f(x_i, y_j): the mean of sum_i f(x_i, y_pi(i)) / m over all pi."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    return float(f(x[:, None], y[None, :]).sum()) / (len(x) * len(y))


def expected_fri_gri(U, V):
    """E[fri], E[gri] under object permutations: E[a] = (1/m) sum sum min(J^U, J^V) (eq 18)."""
    JU, SU = j_and_s(U)
    JV, SV = j_and_s(V)
    m = len(JU) * (len(JU) - 1) // 2
    ea = m * brute_cross_mean(upper_vec(JU), upper_vec(JV), np.minimum)
    ed = m * brute_cross_mean(upper_vec(SU), upper_vec(SV), np.minimum)
    a, b, c, d, tu, tv = fuzzy_abcd(U, V)
    return (ea + ed) / (a + b + c + d), (ea + ed) / max(tu, tv)


def expected_ndc(U, V):
    return 1.0 - brute_cross_mean(upper_vec(equivalence(U)), upper_vec(equivalence(V)),
                                  lambda p, q: np.abs(p - q))


def arimm_sums(P, Q):
    p, q = upper_vec(P), upper_vec(Q)
    return float(p @ q), float(p.sum()), float(q.sum())


def arimm_formula(P, Q):
    """Zhang, Wong & Shen (2012) eq 15 from sums over the pairs i < j."""
    t0, t1, t2 = arimm_sums(P, Q)
    m = len(P) * (len(P) - 1) / 2
    t3 = t1 * t2 / m
    return (t0 - t3) / (0.5 * (t1 + t2) - t3)


def object_perm_values(U, V, index, matrix=False):
    """ca.agreement(U, V permuted) for every permutation of the objects of V."""
    V = np.asarray(V) if not isinstance(V, np.ndarray) else V
    out = []
    for p in itertools.permutations(range(len(V))):
        p = list(p)
        Vp = V[p][:, p] if matrix else V[p]
        out.append(ca.agreement(U, Vp, index=index))
    return out


# -- random clusterings of the four kinds -------------------------------------------------------

def random_fuzzy(rng, n, k):
    return rng.dirichlet(np.full(k, 0.7), size=n)


def random_possibilistic(rng, n, k):
    # fuzzy rows scaled by per-object totals from 0.2 to 1.8 (capped at 1 per entry), so that
    # T^U_ij and T^V_ij cross
    return np.minimum(random_fuzzy(rng, n, k) * rng.uniform(0.2, 1.8, size=(n, 1)), 1.0)


def random_nehc(rng, n, k):
    U = (rng.random((n, k)) < 0.4).astype(float)
    empty = U.sum(axis=1) == 0
    U[empty, rng.integers(k, size=empty.sum())] = 1.0
    if k > 1:  # at least one object in two clusters
        U[rng.integers(n), rng.choice(k, size=2, replace=False)] = 1.0
    return U


def random_labels(rng, n, k):
    return rng.integers(0, k, size=n)


GENERATORS = {"exclusive hard": random_labels, "fuzzy": random_fuzzy,
              "non-exclusive hard": random_nehc, "possibilistic": random_possibilistic}


def clustering_pair(kind, n, seed):
    rng = np.random.default_rng(seed)
    gen = GENERATORS[kind]
    return gen(rng, n, 3), gen(rng, n, 2)


# ---------------------------------------------------------------------------------------------
# 1. Reductions on exclusive hard clusterings (property-based)
# ---------------------------------------------------------------------------------------------

@st.composite
def labelling(draw, n):
    form = draw(st.sampled_from(["random", "random", "random", "one cluster", "singletons"]))
    if form == "one cluster":
        return [draw(st.integers(0, 3))] * n
    if form == "singletons":
        return list(draw(st.permutations(range(n))))
    k = draw(st.integers(1, n))
    return draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))


@st.composite
def label_pairs(draw):
    n = draw(st.integers(2, 40))
    x = draw(labelling(n))
    how = draw(st.sampled_from(["independent", "independent", "same", "relabelled"]))
    if how == "same":
        y = list(x)
    elif how == "relabelled":  # the same partition under other label names
        y = [f"c{9 - v}" if isinstance(v, int) else v for v in x]
    else:
        y = draw(labelling(n))
    return np.asarray(x), np.asarray(y)


DEGENERATE = [
    ([0, 0, 0, 0], [0, 0, 0, 0]),      # one cluster, identical
    ([0, 1, 2, 3], [3, 2, 1, 0]),      # all singletons, identical
    ([0, 0, 0, 0], [0, 1, 2, 3]),      # one cluster vs singletons (RI 0)
    ([0, 1], [0, 0]),                  # n = 2
    ([0, 1], [5, 7]),
    ([0, 0, 1, 1, 2], [0, 0, 0, 0, 0]),
    ([0, 0, 1, 1, 2], [0, 1, 2, 3, 4]),
    ([0, 0, 1, 1], [1, 1, 0, 0]),      # identical up to label names
]


def _with_examples(f):
    for x, y in DEGENERATE:
        f = example(xy=(np.asarray(x), np.asarray(y)))(f)
    return f


def _crisp_value(name, x, y):
    if name == "ari_mm":
        return ca.agreement(ca.coassociation(x), ca.coassociation(y), index="ari_mm")
    if name == "ari_mp":
        return ca.agreement(ca.coassociation(x), y, index="ari_mp")
    if name == "aci":
        return ca.agreement(x, y, index="aci", expectation="exact")
    return ca.agreement(x, y, index=name)


@pytest.mark.parametrize("name", ["agri", "afri", "aci", "ari_mm", "ari_mp"])
@settings(**SETTINGS)
@given(xy=label_pairs())
@_with_examples
def test_adjusted_indices_reduce_to_adjusted_rand(name, xy):
    x, y = xy
    assert abs(_crisp_value(name, x, y) - adjusted_rand_score(x, y)) <= TOL


@pytest.mark.parametrize("name", ["gri", "fri", "ndc"])
@settings(**SETTINGS)
@given(xy=label_pairs())
@_with_examples
def test_fuzzy_rand_indices_reduce_to_rand(name, xy):
    x, y = xy
    assert abs(ca.agreement(x, y, index=name) - rand_score(x, y)) <= TOL


@pytest.mark.parametrize("name", ["fri", "afri", "gri", "agri", "ndc", "aci", "ari_mm", "ari_mp"])
@pytest.mark.parametrize("x", [[0, 0, 0, 0, 0], [0, 1, 2, 3, 4], [0, 0, 1, 1, 2], [0, 1]])
def test_identical_partitions_give_exactly_one(name, x):
    # includes the 0/0 cases (one cluster, all singletons) of the adjusted indices
    assert _crisp_value(name, np.array(x), np.array(x).copy()) == 1.0


# ---------------------------------------------------------------------------------------------
# 2. Worked examples of the papers
# ---------------------------------------------------------------------------------------------

P_TOY = np.array([[.29, .71], [.79, .21], [.41, .59], [.88, .12]])  # Amodio et al. 2015, P'
Q_TOY = np.array([[.94, .06], [.05, .95], [.53, .47], [.89, .11]])  # Amodio et al. 2015, Q'


@functools.lru_cache(maxsize=None)
def toy_pair_permutation_ndc():
    """NDC of Amodio et al.'s toy for all 6! = 720 permutations of Q's pair similarities."""
    p, q = upper_vec(equivalence(P_TOY)), upper_vec(equivalence(Q_TOY))
    return np.array([1.0 - np.abs(p - q[list(perm)]).mean()
                     for perm in itertools.permutations(range(len(q)))])


@functools.lru_cache(maxsize=None)
def toy_object_permutation_ndc():
    p = upper_vec(equivalence(P_TOY))
    out = []
    for perm in itertools.permutations(range(4)):
        out.append(1.0 - np.abs(p - upper_vec(equivalence(Q_TOY[list(perm)]))).mean())
    return np.array(out)


def test_amodio_fuzzy_toy_ndc():
    value = ca.agreement(P_TOY, Q_TOY, index="ndc")
    assert round(value, 4) == 0.6367  # Amodio et al. 2015: "NDC = 0.6367"
    mine = 1.0 - np.abs(upper_vec(equivalence(P_TOY)) - upper_vec(equivalence(Q_TOY))).mean()
    assert value == pytest.approx(mine, abs=ID_TOL)


def test_amodio_fuzzy_toy_expected_ndc():
    brute = toy_pair_permutation_ndc()
    assert len(brute) == 720
    assert round(brute.mean(), 4) == 0.6972  # Amodio et al.: mean over all 720 orders
    exact = ca.nulls.null_distribution(P_TOY, Q_TOY, index="ndc", method="exact")
    assert exact.mean == pytest.approx(brute.mean(), abs=ID_TOL)
    assert exact.mean == pytest.approx(expected_ndc(P_TOY, Q_TOY), abs=ID_TOL)


def test_amodio_fuzzy_toy_aci():
    aci = ca.agreement(P_TOY, Q_TOY, index="aci")
    assert round(aci, 3) == -0.2  # Amodio et al. eq 4.2: (.6367 - .6972) / (1 - .6972) = -.200
    ndc, e = ca.agreement(P_TOY, Q_TOY, index="ndc"), toy_pair_permutation_ndc().mean()
    assert aci == pytest.approx((ndc - e) / (1 - e), abs=ID_TOL)
    assert ca.agreement(P_TOY, Q_TOY, index="aci", clip_negative=True) == 0.0  # Amodio et al. sec 4


def test_amodio_crisp_toy():
    P = [[1, 0], [1, 0], [0, 1], [1, 0]]
    Q = [[1, 0], [0, 1], [0, 1], [1, 0]]
    # Amodio et al. 2015: a = 1, b = 2, c = 1, d = 2 (pair counts), RI = 0.5, ARI = 0
    a, b, c, d, _, _ = fuzzy_abcd(P, Q)
    assert (a, b, c, d) == (1, 2, 1, 2)
    for name in ("ndc", "fri", "gri", "rand"):
        assert ca.agreement(P, Q, index=name) == pytest.approx(0.5, abs=ID_TOL), name
    for name in ("aci", "afri", "agri", "adjusted_rand"):
        assert ca.agreement(P, Q, index=name) == pytest.approx(0.0, abs=ID_TOL), name
    assert ca.agreement(ca.coassociation(P), ca.coassociation(Q),
                        index="ari_mm") == pytest.approx(0.0, abs=ID_TOL)


M1 = [[0, 1, 0], [1, 0, 0], [0, 0, 0]]
# Zhang, Wong & Shen (2012), the "uncertainty" example: M(2) is printed asymmetric, with 0.5 on
# the diagonal; the intended matrix is symmetric (for it ARImm(M2, M2) = 0.4, as printed)
M2 = [[0, .5, 0], [.5, 0, 0], [0, 0, 0]]


def test_zhang_uncertainty_example():
    assert ca.agreement(M1, M1, index="ari_mm") == pytest.approx(1.0, abs=ID_TOL)
    assert ca.agreement(M2, M2, index="ari_mm") == pytest.approx(0.4, abs=ID_TOL)
    # M1 against M2 by hand: t0 = .5, t1 = 1, t2 = .5, t3 = 1/6 -> (1/3) / (7/12) = 4/7
    assert ca.agreement(M1, M2, index="ari_mm") == pytest.approx(4 / 7, abs=ID_TOL)
    assert arimm_formula(np.array(M1), np.array(M2)) == pytest.approx(4 / 7, abs=ID_TOL)


def test_zhang_printed_asymmetric_matrix_is_refused():
    printed = [[0, .5, 0], [0, .5, 0], [0, 0, 0]]  # as printed (a misprint, see M2)
    with pytest.raises(ValueError, match=r"y must be symmetric"):
        ca.agreement(M2, printed, index="ari_mm")


U_42 = np.array([[.8, .4], [.4, .8]])  # Horta & Campello 2015, sec. 4.2 (objects in rows)
V_42 = np.array([[.6, .4], [.4, .6]])


def test_horta_campello_section_4_2_example():
    JU, SU = membership_matrices(U_42)
    JV, SV = membership_matrices(V_42)
    assert JU[0, 1] == pytest.approx(0.64, abs=ID_TOL)
    assert SU[0, 1] == pytest.approx(0.80, abs=ID_TOL)
    assert JV[0, 1] == pytest.approx(0.48, abs=ID_TOL)
    assert SV[0, 1] == pytest.approx(0.52, abs=ID_TOL)
    a, b, c, d, tu, tv = fuzzy_abcd(U_42, V_42)  # printed: a = .48, d = .52, b = c = 0
    assert (a, b, c, d) == pytest.approx((0.48, 0.0, 0.0, 0.52), abs=ID_TOL)
    assert (tu, tv) == pytest.approx((1.44, 1.0), abs=ID_TOL)
    # eq 14 would give (a + d) / (a + b + c + d) = 1 to these different clusterings: the
    # flaw the section shows; 13FRI is defined for fuzzy clusterings, and U is possibilistic
    assert (a + d) / (a + b + c + d) == pytest.approx(1.0, abs=ID_TOL)
    for name in ("fri", "afri"):
        with pytest.raises(ValueError, match=rf"^x is a possibilistic clustering .*index "
                                             rf"'{name}'.* takes exclusive hard or fuzzy"):
            ca.agreement(U_42, V_42, index=name)
    assert ca.agreement(U_42, V_42, index="gri") == pytest.approx(1 / 1.44, abs=ID_TOL)


@pytest.mark.parametrize("x", [0.1, 0.5, 0.9, 1.0])
def test_horta_campello_scaled_fuzzy_clustering(x):
    """Eq 14 gives 1 to (U, xU) for every x in (0, 1] (Horta & Campello 2015, sec. 4.3:
    b = c = 0), which is why 13FRI and 13AFRI take fuzzy clusterings only and refuse xU
    (possibilistic for x < 1), while gri(U, xU) = x^2 (a + d = x^2 sum T^U, the larger total
    is sum T^U): < 1 unless x = 1."""
    U = random_fuzzy(np.random.default_rng(42), 8, 3)
    a, b, c, d, _, _ = fuzzy_abcd(U, x * U)
    assert b == pytest.approx(0.0, abs=ID_TOL) and c == pytest.approx(0.0, abs=ID_TOL)
    for name in ("fri", "afri"):
        if x < 1:
            with pytest.raises(ValueError, match=r"^y is a possibilistic clustering"):
                ca.agreement(U, x * U, index=name)
        else:
            assert ca.agreement(U, x * U, index=name) == 1.0
    gri = ca.agreement(U, x * U, index="gri")
    assert gri == pytest.approx(x * x, abs=ID_TOL)
    if x < 1:
        assert gri < 1
        assert ca.agreement(U, x * U, index="agri") < 1


# ---------------------------------------------------------------------------------------------
# 3. Exact means under the permutation nulls
# ---------------------------------------------------------------------------------------------

EXHAUSTIVE_N = {"fuzzy": 6, "exclusive hard": 5, "non-exclusive hard": 5, "possibilistic": 5}


@functools.lru_cache(maxsize=None)
def exhaustive_object_values(kind):
    """Every index on (U, V[perm]) for all n! permutations of V's objects: one call each."""
    U, V = clustering_pair(kind, EXHAUSTIVE_N[kind], seed=10)
    names = [n for n in FUZZY_INDICES if kind in ACCEPTS[n]]
    rows = [ca.agreement(U, V[list(p)], index=names)
            for p in itertools.permutations(range(len(V)))]
    return U, V, pd.DataFrame(rows)


def _mean_params(indices, exact_mean=False):
    """(index, kind) for the kinds the index takes (fri's exact mean: fuzzy kinds only)."""
    out = []
    for name in indices:
        kinds = FC_KINDS if (exact_mean and name == "fri") else ACCEPTS[name]
        out += [pytest.param(name, kind, id=f"{name}-{kind}") for kind in kinds]
    return out


@pytest.mark.parametrize("name,kind", _mean_params(ADJUSTED))
def test_adjusted_index_has_mean_zero_over_all_object_permutations(name, kind):
    _, _, values = exhaustive_object_values(kind)
    assert values[name].std() > 0.01  # the permutations do move the index
    assert abs(values[name].mean()) <= ID_TOL


@pytest.mark.parametrize("name,kind", _mean_params(("fri", "gri", "ndc"), exact_mean=True))
def test_exact_mean_equals_mean_over_all_object_permutations(name, kind):
    U, V, values = exhaustive_object_values(kind)
    assert values[name].std() > 0.01
    exact = ca.nulls.null_distribution(U, V, index=name, method="exact")
    assert exact.is_exact is False and exact.method == "exact"  # a mean only, no law
    assert exact.mean == pytest.approx(values[name].mean(), abs=ID_TOL)


def test_fri_on_non_fuzzy_clusterings_is_refused_where_its_denominator_moves():
    # Eq 14 on these non-exclusive hard clusterings, by brute force: a + b + c + d =
    # sum min(T^U, T^V) changes under permutation, eq 14 gives 0.875, its mean over the 24
    # object permutations is 0.93056, and eq 17 (dividing by the observed a + b + c + d) would
    # give 1.04167, above the maximum. 13FRI is defined for fuzzy clusterings (T = 1): every
    # call refuses these, naming their kind, and points to 13GRI / 13AGRI.
    U = np.array([[0, 0, 1], [0, 0, 1], [0, 1, 0], [1, 1, 1]], float)
    V = np.array([[0, 0, 1], [0, 1, 0], [1, 1, 1], [0, 0, 1]], float)

    def eq14(U, V):
        a, b, c, d, _, _ = fuzzy_abcd(U, V)
        return (a + d) / (a + b + c + d)

    assert eq14(U, V) == pytest.approx(0.875)
    moved = [eq14(U, V[list(p)]) for p in itertools.permutations(range(4))]
    assert np.mean(moved) == pytest.approx(0.930556, abs=1e-6)
    fri_e, _ = expected_fri_gri(U, V)
    assert fri_e == pytest.approx(1.041667, abs=1e-6)
    calls = [lambda: ca.agreement(U, V, index="fri"), lambda: ca.agreement(U, V, index="afri"),
             lambda: ca.nulls.null_distribution(U, V, index="fri", method="exact"),
             lambda: ca.nulls.null_distribution(U, V, index="fri", method="permutation")]
    for call in calls:
        with pytest.raises(ValueError, match=r"^x is a non-exclusive hard clustering .*row 3 "
                                             r"is in 3.*use gri / agri"):
            call()
    assert ca.nulls.null_distribution(U, V, index="gri", method="exact").mean == \
        pytest.approx(expected_fri_gri(U, V)[1], abs=ID_TOL)


@pytest.mark.parametrize("name", ["ndc", "aci"])
@pytest.mark.parametrize("U", [[[1, 1, 0], [0, 0, 1]], [[1, .9, 0], [0, 0, 1]]])
def test_ndc_refuses_memberships_that_do_not_sum_to_one(name, U):
    # E = 1 - |.|_1 / 2 would be -0.5 (resp. -0.45) for these rows: outside [0, 1]
    with pytest.raises(ValueError, match=rf"^x is a (non-exclusive hard|possibilistic) "
                                         rf"clustering .*index '{name}'.*sum to 1"):
        ca.agreement(U, [0, 0], index=name)


def consensus_pair(n, seed, fuzzy=False):
    rng = np.random.default_rng(seed)
    if fuzzy:  # co-membership degrees of fuzzy clusterings (diagonal below 1)
        return (ca.coassociation(random_fuzzy(rng, n, 3), random_fuzzy(rng, n, 3)),
                ca.coassociation(random_fuzzy(rng, n, 2)))
    return (ca.coassociation(*[rng.integers(0, 3, n) for _ in range(4)]),
            ca.coassociation(*[rng.integers(0, 2, n) for _ in range(5)]))


@pytest.mark.parametrize("fuzzy", [False, True])
def test_ari_mm_has_mean_zero_over_all_object_permutations(fuzzy):
    P, Q = consensus_pair(6, seed=11, fuzzy=fuzzy)
    values = object_perm_values(P, Q, "ari_mm", matrix=True)
    assert len(values) == 720
    assert abs(np.mean(values)) <= ID_TOL
    assert np.std(values) > 0.01  # the check is not vacuous


def test_ari_mp_has_mean_zero_over_all_object_permutations():
    P, _ = consensus_pair(6, seed=12)
    y = np.array([0, 0, 1, 1, 1, 2])
    values = [ca.agreement(P, y[list(p)], index="ari_mp")
              for p in itertools.permutations(range(6))]
    assert abs(np.mean(values)) <= ID_TOL
    assert np.std(values) > 0.01


def test_pair_and_object_permutations_share_the_mean_not_the_variance():
    """Amodio et al.'s toy (n = 4, m = 6): all 6! permutations of the pair similarities and all 4!
    permutations of the objects give the same mean NDC, and different variances (object
    permutations move the pairs of one object together): 0.0036741 vs 0.0032432."""
    by_pairs, by_objects = toy_pair_permutation_ndc(), toy_object_permutation_ndc()
    assert by_pairs.mean() == pytest.approx(by_objects.mean(), abs=ID_TOL)
    assert by_pairs.var() == pytest.approx(0.0036741358, abs=1e-9)
    assert by_objects.var() == pytest.approx(0.0032432099, abs=1e-9)
    for null, brute in (("pairs", by_pairs), ("objects", by_objects)):
        nd = ca.nulls.null_distribution(P_TOY, Q_TOY, index="ndc", method="permutation",
                                        model=null)
        assert nd.is_exact
        assert nd.mean == pytest.approx(brute.mean(), abs=ID_TOL)
        assert nd.var == pytest.approx(brute.var(), abs=ID_TOL)
    # the same for ari_mm on the toy's equivalence matrices
    EP, EQ = equivalence(P_TOY), equivalence(Q_TOY)
    pairs_nd = ca.nulls.null_distribution(EP, EQ, index="ari_mm", method="permutation",
                                          model="pairs")
    objects_nd = ca.nulls.null_distribution(EP, EQ, index="ari_mm", method="permutation",
                                            model="objects")
    assert pairs_nd.mean == pytest.approx(0.0, abs=ID_TOL)
    assert objects_nd.mean == pytest.approx(0.0, abs=ID_TOL)
    assert abs(pairs_nd.var - objects_nd.var) > 1e-3 * pairs_nd.var


MC_N = 12


@functools.lru_cache(maxsize=None)
def mc_inputs():
    U, V = clustering_pair("fuzzy", MC_N, seed=21)
    P, Q = consensus_pair(MC_N, seed=22)
    fri_e, gri_e = expected_fri_gri(U, V)
    exact = {"fri": fri_e, "gri": gri_e, "ndc": expected_ndc(U, V),
             "afri": 0.0, "agri": 0.0, "aci": 0.0, "ari_mm": 0.0}
    return U, V, P, Q, exact


@pytest.mark.parametrize("null", ["objects", "pairs"])
@pytest.mark.parametrize("name", ["fri", "afri", "gri", "agri", "ndc", "aci", "ari_mm"])
def test_monte_carlo_null_mean_agrees_with_exact_mean(name, null):
    U, V, P, Q, exact = mc_inputs()
    x, y = (P, Q) if name == "ari_mm" else (U, V)
    nd = ca.nulls.null_distribution(x, y, index=name, method="permutation", model=null,
                                    n_sim=5000, seed=2024)
    assert not nd.is_exact and nd.n_sim == 5000
    assert nd.mean_se > 0
    assert abs(nd.mean - exact[name]) <= 4 * nd.mean_se, (nd.mean, exact[name], nd.mean_se)
    if name in ("fri", "gri", "ndc"):
        exact_nd = ca.nulls.null_distribution(x, y, index=name, method="exact", model=null)
        assert exact_nd.mean == pytest.approx(exact[name], abs=ID_TOL)


def test_permutation_null_is_reproducible_with_a_seed():
    U, V, _, _, _ = mc_inputs()
    a = ca.nulls.null_distribution(U, V, index="agri", method="permutation", n_sim=200, seed=5)
    b = ca.nulls.null_distribution(U, V, index="agri", method="permutation", n_sim=200, seed=5)
    c = ca.nulls.null_distribution(U, V, index="agri", method="permutation", n_sim=200, seed=6)
    assert np.array_equal(a.samples, b.samples)
    assert not np.array_equal(a.samples, c.samples)


def test_aci_monte_carlo_expectation_close_to_exact():
    """expectation="monte_carlo" estimates E[NDC] from n_perm pair permutations; the exact E and
    the standard deviation of one draw come from all 720 permutations of Amodio et al.'s toy."""
    n_perm = 20000
    ndc = ca.agreement(P_TOY, Q_TOY, index="ndc")
    exact_e, sd = toy_pair_permutation_ndc().mean(), toy_pair_permutation_ndc().std()
    aci_mc = ca.agreement(P_TOY, Q_TOY, index="aci", expectation="monte_carlo", n_perm=n_perm,
                          seed=3)
    e_mc = (ndc - aci_mc) / (1 - aci_mc)  # the expectation the package used
    assert abs(e_mc - exact_e) <= 4 * sd / math.sqrt(n_perm)
    assert aci_mc != ca.agreement(P_TOY, Q_TOY, index="aci")  # it is an estimate
    assert aci_mc == ca.agreement(P_TOY, Q_TOY, index="aci", expectation="monte_carlo",
                                  n_perm=n_perm, seed=3)
    # a larger data set, with the per-draw sd estimated here
    U, V, _, _, _ = mc_inputs()
    ndc = ca.agreement(U, V, index="ndc")
    aci_mc = ca.agreement(U, V, index="aci", expectation="monte_carlo", n_perm=n_perm, seed=4)
    p, q = upper_vec(equivalence(U)), upper_vec(equivalence(V))
    rng = np.random.default_rng(99)
    draws = [1 - np.abs(p - q[rng.permutation(len(q))]).mean() for _ in range(2000)]
    e_mc = (ndc - aci_mc) / (1 - aci_mc)
    assert abs(e_mc - expected_ndc(U, V)) <= 4 * np.std(draws) / math.sqrt(n_perm)


# ---------------------------------------------------------------------------------------------
# 4. The sort-based expectation against O(m^2) brute force
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["fuzzy", "possibilistic", "non-exclusive hard"])
def test_exact_expectation_against_brute_force_double_sum(kind):
    U, V = clustering_pair(kind, 30, seed=31)
    fri_e, gri_e = expected_fri_gri(U, V)
    gri_nd = ca.nulls.null_distribution(U, V, index="gri", method="exact")
    assert gri_nd.mean == pytest.approx(gri_e, abs=ID_TOL)
    # agri from the brute-force expectation and a pair-by-pair gri
    a, b, c, d, tu, tv = fuzzy_abcd(U, V)
    gri = (a + d) / max(tu, tv)
    assert ca.agreement(U, V, index="gri") == pytest.approx(gri, abs=ID_TOL)
    assert ca.agreement(U, V, index="agri") == pytest.approx((gri - gri_e) / (1 - gri_e),
                                                             abs=ID_TOL)
    if kind == "fuzzy":  # fri's expectation is exact for fuzzy clusterings (Corollary 1)
        assert a + b + c + d == pytest.approx(30 * 29 / 2, abs=1e-9)
        assert ca.nulls.null_distribution(U, V, index="fri", method="exact").mean == \
            pytest.approx(fri_e, abs=ID_TOL)
        fri = (a + d) / (a + b + c + d)
        assert ca.agreement(U, V, index="fri") == pytest.approx(fri, abs=ID_TOL)
        assert ca.agreement(U, V, index="afri") == pytest.approx((fri - fri_e) / (1 - fri_e),
                                                                 abs=ID_TOL)
    if kind not in ACCEPTS["ndc"]:
        return
    aci_e = expected_ndc(U, V)
    ndc = 1 - np.abs(upper_vec(equivalence(U)) - upper_vec(equivalence(V))).mean()
    assert ca.agreement(U, V, index="ndc") == pytest.approx(ndc, abs=ID_TOL)
    assert ca.agreement(U, V, index="aci") == pytest.approx((ndc - aci_e) / (1 - aci_e),
                                                            abs=ID_TOL)


_tied = st.sampled_from([0.0, 0.25, 0.5, 0.5, 0.75, 1.0])
_value = st.one_of(_tied, st.floats(0.0, 1.0, allow_nan=False))


@settings(**SETTINGS)
@given(x=st.lists(_value, min_size=1, max_size=60), y=st.lists(_value, min_size=1, max_size=60))
@example(x=[1.0, 3.0], y=[2.0, 2.0])
@example(x=[0.5, 0.5, 0.5], y=[0.5, 0.5])
@example(x=[0.0], y=[0.0, 1.0, 0.0])
def test_sum_of_min_and_abs_diff_against_outer_products(x, y):
    x, y = np.array(x), np.array(y)
    assert sum_of_min(x, y) == pytest.approx(np.minimum.outer(x, y).sum(), rel=1e-12, abs=1e-12)
    assert sum_of_abs_diff(x, y) == pytest.approx(np.abs(np.subtract.outer(x, y)).sum(),
                                                  rel=1e-12, abs=1e-12)


def test_sum_of_min_and_abs_diff_on_random_vectors_with_ties():
    rng = np.random.default_rng(41)
    for _ in range(20):
        x = rng.integers(0, 6, size=rng.integers(1, 400)) / 5.0
        y = np.concatenate([rng.integers(0, 6, size=rng.integers(0, 300)) / 5.0,
                            rng.random(rng.integers(1, 100))])
        rng.shuffle(y)
        assert sum_of_min(x, y) == pytest.approx(np.minimum.outer(x, y).sum(), rel=1e-12)
        assert sum_of_abs_diff(x, y) == pytest.approx(np.abs(x[:, None] - y[None, :]).sum(),
                                                      rel=1e-12)
        assert sum_of_min(x, y) == pytest.approx(sum_of_min(y, x), rel=1e-12)


# ---------------------------------------------------------------------------------------------
# 5. Kinds of clusterings; hard labels wherever memberships go
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("U,kind", [
    ([[1, 0], [0, 1], [1, 0]], "exclusive hard"),
    ([0, 1, 1, 2], "exclusive hard"),
    (["a", "b", "a"], "exclusive hard"),
    ([[1], [1], [1]], "exclusive hard"),
    ([[.2, .8], [1, 0]], "fuzzy"),
    ([[.1, .2, .7], [1 / 3, 1 / 3, 1 / 3]], "fuzzy"),
    ([[1, 1], [0, 1]], "non-exclusive hard"),
    ([[1, 0, 1], [1, 0, 0]], "non-exclusive hard"),
    ([[.2, .3], [1, 0]], "possibilistic"),
    ([[.5], [1]], "possibilistic"),
    ([[1, 1], [.5, .5]], "possibilistic"),
])
def test_membership_kind(U, kind):
    assert ca.membership_kind(U) == kind
    if np.ndim(U) == 2:
        assert ca.membership_kind(pd.DataFrame(U)) == kind


@pytest.mark.parametrize("kind", list(GENERATORS))
def test_membership_kind_of_random_clusterings(kind):
    rng = np.random.default_rng(51)
    for n, k in ((5, 2), (20, 4), (50, 3)):
        U = GENERATORS[kind](rng, n, k)
        assert ca.membership_kind(U) == kind
        if kind == "exclusive hard":
            assert ca.membership_kind(one_hot(U)) == kind


@pytest.mark.parametrize("name", FUZZY_INDICES)
def test_hard_labels_equal_their_one_hot_memberships(name):
    rng = np.random.default_rng(61)
    labels = np.array(["b", "a", "c", "a", "b", "b", "c", "a", "b"])
    other = rng.integers(0, 3, size=9)
    V = random_fuzzy(rng, 9, 3)
    H, O = one_hot(labels), one_hot(other)
    expected = ca.agreement(H, V, index=name)
    assert ca.agreement(labels, V, index=name) == pytest.approx(expected, abs=ID_TOL)
    assert ca.agreement(pd.Series(labels), V, index=name) == pytest.approx(expected, abs=ID_TOL)
    assert ca.agreement(V, labels, index=name) == pytest.approx(
        ca.agreement(V, H, index=name), abs=ID_TOL)
    assert ca.agreement(labels, other, index=name) == pytest.approx(
        ca.agreement(H, O, index=name), abs=ID_TOL)
    # the order of the clusters (columns) does not matter
    assert ca.agreement(H[:, ::-1], V[:, [2, 0, 1]], index=name) == pytest.approx(
        expected, abs=ID_TOL)
    if name in ("fri", "gri", "ndc"):
        assert ca.nulls.null_distribution(labels, V, index=name, method="exact").mean == \
            pytest.approx(ca.nulls.null_distribution(H, V, index=name, method="exact").mean,
                          abs=ID_TOL)


def test_hard_labels_in_matrix_indices():
    rng = np.random.default_rng(62)
    labels = rng.integers(0, 3, size=10)
    P, _ = consensus_pair(10, seed=63)
    H = one_hot(labels)
    assert ca.agreement(P, labels, index="ari_mp") == pytest.approx(
        ca.agreement(P, H, index="ari_mp"), abs=ID_TOL)
    assert ca.agreement(P, labels, index="ari_mp") == pytest.approx(
        arimm_formula(P, H @ H.T), abs=ID_TOL)
    np.testing.assert_allclose(ca.coassociation(labels), H @ H.T, rtol=0, atol=0)
    np.testing.assert_allclose(ca.coassociation(labels, H[:, ::-1]), H @ H.T, rtol=0, atol=0)


def test_coassociation_is_the_share_of_clusterings():
    x, y, z = [0, 0, 1, 1], [0, 1, 1, 1], [2, 2, 2, 0]
    M = ca.coassociation(x, y, z)
    for i in range(4):
        for j in range(4):
            share = np.mean([c[i] == c[j] for c in (x, y, z)])
            assert M[i, j] == pytest.approx(share, abs=ID_TOL)


def test_square_unit_diagonal_array_is_a_similarity_matrix_for_ndc():
    # ndc takes fuzzy memberships (rows sum to 1) or similarity matrices; a square symmetric
    # array with a unit diagonal is read as a similarity matrix. The only fuzzy membership matrix
    # of that shape is the identity, for which both readings give the same E.
    U = np.array([[1, .2, .7], [.2, 1, .4], [.7, .4, 1]])
    V = np.array([[.3, .7], [.5, .5], [.9, .1]])
    assert ca.membership_kind(U) == "possibilistic"
    mine = 1 - np.abs(upper_vec(U) - upper_vec(equivalence(V))).mean()
    assert ca.agreement(U, V, index="ndc") == pytest.approx(mine, abs=ID_TOL)
    eye = np.eye(3)
    assert np.array_equal(equivalence(eye), eye)
    assert ca.agreement(eye, V, index="ndc") == pytest.approx(
        1 - np.abs(upper_vec(eye) - upper_vec(equivalence(V))).mean(), abs=ID_TOL)


# -- ranges -------------------------------------------------------------------------------------

def _range_params():
    return [pytest.param(name, kind, id=f"{name}-{kind}")
            for name in FUZZY_INDICES for kind in ACCEPTS[name]]


def sparse_possibilistic(rng, n, k):
    """Possibilistic memberships with row totals up to k: strong memberships (0.5 to 1) in a
    random subset of the clusters."""
    U = rng.uniform(0.5, 1, (n, k)) * (rng.random((n, k)) < 0.5)
    empty = U.sum(axis=1) == 0
    U[empty, rng.integers(k, size=empty.sum())] = 0.7
    return U


RANGE_GENERATORS = dict(GENERATORS, possibilistic=sparse_possibilistic)


@pytest.mark.parametrize("name,kind", _range_params())
def test_values_stay_in_the_registered_range(name, kind):
    lo, hi = ca.get_index(name).range
    rng = np.random.default_rng(71)
    values = []
    for _ in range(60):
        n = int(rng.integers(3, 9))
        U = RANGE_GENERATORS[kind](rng, n, int(rng.integers(1, 5)))
        V = RANGE_GENERATORS[kind](rng, n, int(rng.integers(1, 5)))
        values.append(ca.agreement(U, V, index=name))
        values.append(ca.agreement(U, U, index=name))
        values.append(ca.agreement(U, random_labels(rng, n, 3), index=name))
    values = np.array(values)
    assert np.all(values >= lo - ID_TOL) and np.all(values <= hi + ID_TOL), \
        (values.min(), values.max())
    assert ca.agreement(U, U, index=name) == 1.0  # reflexive


# ---------------------------------------------------------------------------------------------
# 6. Bad input
# ---------------------------------------------------------------------------------------------

U3 = [[.2, .8], [.5, .5], [1, 0]]
V3 = [[.3, .7], [.6, .4], [.1, .9]]


@pytest.mark.parametrize("name", FUZZY_INDICES)
@pytest.mark.parametrize("x,y,match", [
    (U3, [[-.1, 1.1], [.5, .5], [0, 1]], r"^y must hold memberships in \[0, 1\]"),
    ([[1.2, 0], [.5, .5], [0, 1]], V3, r"^x must hold memberships in \[0, 1\]"),
    (U3, [[0, 0], [.5, .5], [0, 1]], r"^y has objects with no membership.*row 0"),
    ([[.5, .5], [0, 0], [0, 1]], V3, r"^x has objects with no membership.*row 1"),
    (U3, [[1, 0], [0, 1]], r"x and y must describe the same objects: x has 3, y has 2"),
    ([[np.nan, 1], [.5, .5], [0, 1]], V3, r"^x contains NaN"),
    (U3, [[.5, .5], [np.nan, .5], [0, 1]], r"^y contains NaN"),
    ([0, np.nan, 1], V3, r"^x contains missing labels"),
    (U3, [[np.inf, 0], [.5, .5], [0, 1]], r"^y must hold memberships in \[0, 1\]"),
])
def test_bad_memberships_name_the_argument(name, x, y, match):
    with pytest.raises(ValueError, match=match):
        ca.agreement(x, y, index=name)


@pytest.mark.parametrize("x,y,match", [
    (np.ones((3, 2)), np.eye(3), r"^x must be a square \(n x n\) similarity matrix.*\(3, 2\)"),
    (np.eye(3), np.ones((2, 3)), r"^y must be a square"),
    (np.eye(3), [[1, .5, 0], [.2, 1, 0], [0, 0, 1]], r"^y must be symmetric: y\[0, 1\] = 0.5"),
    ([[1, 0, .3], [0, 1, 0], [0, 0, 1]], np.eye(3), r"^x must be symmetric"),
    (np.eye(3), np.eye(4), r"x and y must describe the same objects: x has 3, y has 4"),
    (np.eye(3), [[1, np.nan, 0], [np.nan, 1, 0], [0, 0, 1]], r"^y contains NaN"),
    ([0, 1, 1], np.eye(3), r"^x must be a square"),
])
def test_bad_similarity_matrices_name_the_argument(x, y, match):
    with pytest.raises(ValueError, match=match):
        ca.agreement(x, y, index="ari_mm")


def test_ari_mp_needs_a_hard_partition():
    with pytest.raises(ValueError, match=r"^y is a fuzzy clustering .*index 'ari_mp'.* takes "
                                         r"exclusive hard clusterings for y"):
        ca.agreement(np.eye(3), V3, index="ari_mp")
    with pytest.raises(ValueError, match=r"^x must be symmetric"):
        ca.agreement([[1, .3, 0], [0, 1, 0], [0, 0, 1]], [0, 0, 1], index="ari_mp")


@pytest.mark.parametrize("name", FUZZY_INDICES + ("ari_mm",))
def test_fuzzy_index_on_a_contingency_table_alone(name):
    tab = ca.ContingencyTable([[3, 1], [1, 2]])
    with pytest.raises(TypeError, match=rf"index '{name}' compares the two clusterings"):
        ca.agreement(tab, index=name)
    with pytest.raises(TypeError, match=rf"index '{name}' compares the two clusterings"):
        ca.nulls.null_distribution(tab, index=name)
    with pytest.raises(ValueError, match=rf"index '{name}' compares .* not a contingency table"):
        ca.indices.evaluate(name, [[3, 1], [1, 2]])


@pytest.mark.parametrize("counts,y", [([[1, 0], [0, 1]], [0, 1]),
                                      ([[3, 1], [1, 2]], [[.3, .7], [.6, .4]])])
@pytest.mark.parametrize("name", ["agri", "ndc"])
def test_fuzzy_index_on_a_contingency_table_with_y(name, counts, y):
    with pytest.raises((TypeError, ValueError), match=r"ContingencyTable|contingency table"):
        ca.agreement(ca.ContingencyTable(counts), y, index=name)


@pytest.mark.parametrize("method", ["patefield", "hypergeometric"])
@pytest.mark.parametrize("name", ["agri", "ndc", "ari_mm"])
def test_table_methods_refused_for_pair_indices(name, method):
    x, y = (np.eye(3), ca.coassociation([0, 0, 1])) if name == "ari_mm" else (U3, V3)
    with pytest.raises(ValueError, match=rf"method='{method}' is not available under "
                                         r"model='objects'.*its methods are"):
        ca.nulls.null_distribution(x, y, index=name, method=method)


def test_bad_null_options():
    with pytest.raises(ValueError, match=r"^model must be one of \['perm', .*'objects', 'pairs'\]"):
        ca.nulls.null_distribution(U3, V3, index="agri", method="permutation", model="rows")
    with pytest.raises(ValueError, match=r"^expectation must be one of"):
        ca.agreement(U3, V3, index="aci", expectation="mc")
    with pytest.raises(ValueError, match=r"exact null mean of 'aci' is not known"):
        ca.nulls.null_distribution(U3, V3, index="aci", method="exact",
                                   expectation="monte_carlo")
    with pytest.raises(TypeError, match=r"unknown option 'n_perm'"):
        ca.agreement(U3, V3, index="agri", n_perm=10)
    with pytest.raises(ValueError, match=r"needs n >= 2"):
        ca.agreement([[1.0]], [[1.0]], index="agri")


@pytest.mark.parametrize("name", ["rand", "adjusted_rand", "jaccard"])
def test_contingency_index_on_non_hard_memberships(name):
    with pytest.raises(ValueError, match=r"^x is a fuzzy clustering: contingency-table indices"):
        ca.agreement(U3, [0, 1, 1], index=name)
    with pytest.raises(ValueError, match=r"^y is a possibilistic clustering"):
        ca.agreement([0, 1, 1], [[.2, .3], [.5, .1], [1, 1]], index=name)
    with pytest.raises(ValueError, match=r"^x is a non-exclusive hard clustering"):
        ca.agreement([[1, 1], [0, 1], [1, 0]], [0, 1, 1], index=name)
    # hard one-hot memberships are fine, and give the value of the labels
    H = one_hot([0, 1, 1])
    assert ca.agreement(H, [0, 0, 1], index=name) == ca.agreement([0, 1, 1], [0, 0, 1],
                                                                  index=name)


def test_coassociation_errors_name_the_clustering():
    with pytest.raises(ValueError, match=r"clusterings\[1\] has 2 objects, the first has 3"):
        ca.coassociation([0, 1, 1], [0, 1])
    with pytest.raises(ValueError, match=r"^clusterings\[0\] must hold memberships in \[0, 1\]"):
        ca.coassociation([[-1, 2]])
    with pytest.raises(TypeError, match=r"at least one clustering"):
        ca.coassociation()


# ---------------------------------------------------------------------------------------------
# 7. ARImm from block sums (Zhang, Wong & Shen's distributed computation)
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("groups", [
    [range(0, 6), range(6, 12)],
    [range(0, 4), range(4, 8), range(8, 12)],
    [range(0, 3), range(3, 7), range(7, 12)],
    [[0, 5, 7, 11], [1, 2, 9], [3, 4, 6, 8, 10]],  # not contiguous
])
@pytest.mark.parametrize("seed", [0, 1])
def test_ari_mm_from_block_sums(groups, seed):
    P, Q = consensus_pair(12, seed=100 + seed, fuzzy=bool(seed))
    total = np.zeros(3)
    for a, ga in enumerate(groups):
        for b, gb in enumerate(groups):
            ia, ib = np.array(list(ga)), np.array(list(gb))
            if a == b:
                total += ari_mm_block_sums(P[np.ix_(ia, ia)], Q[np.ix_(ia, ia)], diagonal=True)
            elif a < b:
                total += ari_mm_block_sums(P[np.ix_(ia, ib)], Q[np.ix_(ia, ib)])
    assert total == pytest.approx(np.array(arimm_sums(P, Q)), abs=1e-9)
    value = ari_mm_from_sums(total, 12)
    assert value == pytest.approx(ca.agreement(P, Q, index="ari_mm"), abs=ID_TOL)
    assert value == pytest.approx(arimm_formula(P, Q), abs=ID_TOL)


def test_ari_mm_block_sums_on_partitions_give_ari():
    rng = np.random.default_rng(111)
    x, y = rng.integers(0, 3, 12), rng.integers(0, 4, 12)
    P, Q = ca.coassociation(x), ca.coassociation(y)
    top, bottom = np.arange(5), np.arange(5, 12)
    sums = (ari_mm_block_sums(P[np.ix_(top, top)], Q[np.ix_(top, top)], diagonal=True)
            + ari_mm_block_sums(P[np.ix_(bottom, bottom)], Q[np.ix_(bottom, bottom)],
                                diagonal=True)
            + ari_mm_block_sums(P[np.ix_(top, bottom)], Q[np.ix_(top, bottom)]))
    assert ari_mm_from_sums(sums, 12) == pytest.approx(adjusted_rand_score(x, y), abs=TOL)
    with pytest.raises(ValueError, match=r"blocks differ in shape"):
        ari_mm_block_sums(P[:3, :4], Q[:4, :3])


@pytest.mark.parametrize("name", ["fri", "gri", "ndc", "agri", "afri", "aci"])
def test_blockwise_values_equal_the_full_pair_vectors(name, monkeypatch):
    from clusteragree.indices import _pairwise

    rng = np.random.default_rng(7)
    U = rng.dirichlet([1, 1, 1], size=41)
    V = rng.dirichlet([2, 1], size=41)
    rec = ca.get_index(name)
    pair = (U, "membership", V, "membership")
    xs = tuple(_pairwise.upper(M) for M in rec.representation(U, "membership"))
    ys = tuple(_pairwise.upper(M) for M in rec.representation(V, "membership"))
    const = rec.prepare(xs, ys) if rec.prepare else {}
    full = float(rec.func(xs, ys, **const))
    monkeypatch.setattr(_pairwise, "BLOCK_CELLS", 100)  # blocks of two or three rows
    assert _pairwise.evaluate_pairwise(rec, pair, dict(rec.options)) == pytest.approx(
        full, rel=1e-12, abs=1e-12)
    assert np.array_equal(_pairwise.pair_vectors(rec, pair)[0][0], xs[0])


# ---------------------------------------------------------------------------------------------
# 7. sum_of_min by a sample sort through temporary files (13AGRI within a memory budget)
# ---------------------------------------------------------------------------------------------

def memberships(kind, n, seed):
    """A pair of membership arrays of the kind (hard labels one-hot encoded)."""
    U, V = clustering_pair(kind, n, seed)
    return (one_hot(U), one_hot(V)) if kind == "exclusive hard" else (U, V)


def budget_for(total, buckets):
    """A budget whose open buckets each take about 1/buckets of ``total`` values (at most
    ``buckets`` splitters)."""
    return 2 * _streamed.BYTES_PER_VALUE * -(-total // buckets)


@pytest.fixture
def spill_log(monkeypatch):
    """The number of splitters of every spill (one per vector and level of splitting)."""
    log = []
    spill = _streamed._spill

    def logged(values, splitters, folder, side):
        log.append(len(splitters))
        return spill(values, splitters, folder, side)

    monkeypatch.setattr(_streamed, "_spill", logged)
    return log


@pytest.fixture
def private_tmp(tmp_path, monkeypatch):
    """A temporary folder of its own for the spilled values, to check that none is left."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


@settings(**SETTINGS)
@given(x=st.lists(_value, min_size=0, max_size=80), y=st.lists(_value, min_size=0, max_size=80),
       buckets=st.sampled_from([2, 5, 40]), chunk=st.integers(1, 30))
@example(x=[0.5] * 30, y=[0.5] * 20 + [0.25], buckets=40, chunk=3)  # one value holds all
@example(x=[], y=[1.0, 2.0], buckets=5, chunk=1)
def test_streamed_sum_of_min_against_outer_products(x, y, buckets, chunk):
    budget = budget_for(len(x) + len(y), buckets)
    got = _streamed.streamed_sum_of_min(_streamed.array_values(x, chunk),
                                        _streamed.array_values(y, chunk), budget)
    want = np.minimum.outer(np.array(x), np.array(y)).sum() if x and y else 0.0
    assert got == pytest.approx(want, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("buckets", [1, 4, 300])
@pytest.mark.parametrize("ties", ["continuous", "few values", "one heavy value"])
def test_streamed_sum_of_min_equals_the_in_memory_sort(buckets, ties, spill_log, private_tmp):
    rng = np.random.default_rng(buckets)
    x, y = rng.random(30_000), rng.gamma(2.0, 0.3, 20_000)
    if ties == "few values":
        x, y = np.round(x * 4) / 4, np.round(y * 4) / 4
    elif ties == "one heavy value":  # most of the mass on one value, as with hard memberships
        x[: 25_000], y[5_000:] = 0.5, 0.5
    budget = budget_for(len(x) + len(y), buckets)
    got = _streamed.streamed_sum_of_min(_streamed.array_values(x, 7_000),
                                        _streamed.array_values(y, 7_000), budget)
    assert got == pytest.approx(sum_of_min(x, y), rel=1e-12)
    if buckets == 1:  # fits the budget: summed in memory, nothing spilled
        assert spill_log == []
    else:
        assert 0 < spill_log[0] <= buckets
        assert ties != "continuous" or spill_log[0] > buckets // 2
    assert list(private_tmp.iterdir()) == []


def test_bucket_sizes_stay_near_the_budget_with_the_default_sample(monkeypatch):
    rng = np.random.default_rng(5)
    x, y = rng.dirichlet([1, 1], 40_000)[:, 0] ** 2, rng.random(40_000)
    budget = budget_for(len(x) + len(y), 50)
    sizes = []
    within = _streamed._within
    monkeypatch.setattr(_streamed, "_within", lambda b, nx, ny, *a: (
        sizes.append(nx + ny), within(b, nx, ny, *a))[1])
    got = _streamed.streamed_sum_of_min(_streamed.array_values(x), _streamed.array_values(y),
                                        budget)
    assert got == pytest.approx(sum_of_min(x, y), rel=1e-12)
    assert len(sizes) > 40
    assert max(sizes) * _streamed.BYTES_PER_VALUE <= budget  # no bucket had to be split again


@pytest.mark.parametrize("max_depth", [0, 1, 4])
def test_buckets_a_bad_sample_leaves_too_large_are_split_again(max_depth, monkeypatch,
                                                               spill_log):
    """A sampler that sees only the smallest values puts nearly all of them in the last bucket:
    it is split again from its files (or, at the deepest level, summed in memory)."""
    monkeypatch.setattr(_streamed, "MAX_DEPTH", max_depth)
    rng = np.random.default_rng(6)
    x, y = rng.random(20_000), rng.random(15_000)

    def blind(v):
        return _streamed.Values(len(v), _streamed.array_values(v, 4_000).chunks,
                                lambda k: np.sort(v)[:k] / 100)

    budget = budget_for(len(x) + len(y), 10)
    got = _streamed.streamed_sum_of_min(blind(x), blind(y), budget)
    assert got == pytest.approx(sum_of_min(x, y), rel=1e-12)
    assert len(spill_log) == 2 * (1 + min(max_depth, 1))  # re-split once: the file sample is fair


@settings(**SETTINGS)
@given(splitters=st.lists(st.one_of(_value, st.floats(-1e3, 1e3)), min_size=1, max_size=40,
                          unique=True),
       values=st.lists(st.one_of(_value, st.floats(-2e3, 2e3)), max_size=60),
       cells=st.sampled_from([1, 7, 2**16]))
@example(splitters=[1.0, 1.0 + 2**-52], values=[1.0, 1.0 + 2**-52, 1.0 - 2**-53, 2.0],
         cells=2**16)
@example(splitters=[0.3], values=[0.3, 0.29, 0.31], cells=7)
@example(splitters=[0.0, 5e-324], values=[0.0, 1e-300, 0.5], cells=1)  # cells / 5e-324 = inf
@example(splitters=[1.7976931348623157e308, -1e292], values=[-1e308, 0.0], cells=7)  # hi - lo = inf
def test_grid_buckets_equal_binary_search(splitters, values, cells):
    s = np.sort(np.array(splitters))
    v = np.array(values + [np.nextafter(t, d) for t in splitters[:5] for d in (-9.0, 9.0)]
                 + splitters[:5])
    want = 2 * np.searchsorted(s, v, side="left") + np.isin(v, s)
    got = _streamed._bucket_of(v, s, _streamed._grid(s, cells))
    assert np.array_equal(got, want)


@pytest.mark.parametrize("which", [0, 1])
def test_pair_values_by_blocks_equal_the_upper_triangles(which, monkeypatch):
    from clusteragree.indices import _pairwise

    U = random_possibilistic(np.random.default_rng(8), 37, 3)
    want = _pairwise.upper(membership_matrices(U)[which])
    for cells in (37, 100, 37 * 37, 10**6):  # blocks of 1, 2, 37 rows, one block
        monkeypatch.setattr(_pairwise, "BLOCK_CELLS", cells)
        got = fuzzy._pair_values(U, which).load()
        np.testing.assert_allclose(got, want, rtol=1e-15, atol=1e-15)
    sample = fuzzy._pair_values(U, which).sample(50)  # pair values of a subset of the objects
    assert 50 <= len(sample) < 200
    assert np.abs(sample[:, None] - want[None, :]).min(axis=1).max() <= 1e-15


@pytest.mark.parametrize("kind", ALL_KINDS)
@pytest.mark.parametrize("buckets", [3, 30, 600])
def test_streamed_expectation_equals_the_in_memory_one(kind, buckets, monkeypatch, spill_log):
    from clusteragree.indices._pairwise import pair_vectors

    n = 120
    U, V = memberships(kind, n, seed=buckets)
    xs, ys = pair_vectors(ca.get_index("agri"), (U, "membership", V, "membership"))
    in_memory = fuzzy._expected_agreement(xs, ys)
    monkeypatch.setattr(_streamed, "MEMORY_BUDGET", budget_for(n * (n - 1), buckets))
    assert fuzzy._streamed_expected_agreement(U, V) == pytest.approx(in_memory, rel=1e-12)
    assert len(spill_log) >= 4 and max(spill_log) > 0  # J and S, x and y: all bucketed


@pytest.mark.parametrize("kind", ALL_KINDS)
def test_streamed_agri_against_brute_force(kind, monkeypatch, spill_log):
    n = 14
    U, V = memberships(kind, n, seed=71)
    _, gri_e = expected_fri_gri(U, V)
    a, _, _, d, tu, tv = fuzzy_abcd(U, V)
    gri = (a + d) / max(tu, tv)
    in_memory = ca.agreement(U, V, index="agri")
    monkeypatch.setattr(_streamed, "MEMORY_BUDGET", budget_for(n * (n - 1), 5))
    streamed = ca.agreement(U, V, index="agri")
    assert spill_log  # the budget did force the sample sort
    assert streamed == pytest.approx((gri - gri_e) / (1 - gri_e), abs=ID_TOL)
    assert streamed == pytest.approx(in_memory, abs=ID_TOL)


def test_agri_on_identical_and_hard_clusterings_through_the_sample_sort(monkeypatch):
    monkeypatch.setattr(_streamed, "MEMORY_BUDGET", 2_000)
    x, y = np.random.default_rng(9).integers(0, 4, size=(2, 90))
    assert ca.agreement(x, y, index="agri") == pytest.approx(adjusted_rand_score(x, y),
                                                             abs=TOL)
    U = random_fuzzy(np.random.default_rng(10), 60, 3)
    assert ca.agreement(U, U, index="agri") == 1.0


def test_spilled_values_are_removed(private_tmp, monkeypatch):
    seen = []
    within = _streamed._within
    monkeypatch.setattr(_streamed, "_within", lambda *a: (
        seen.append(sorted(p.name for p in private_tmp.rglob("*.f8"))), within(*a))[1])
    U, V = memberships("fuzzy", 80, seed=12)
    monkeypatch.setattr(_streamed, "MEMORY_BUDGET", budget_for(80 * 79, 20))
    ca.agreement(U, V, index="agri")
    assert seen and any(seen)  # values were written to files in the temporary folder...
    assert list(private_tmp.iterdir()) == []  # ...and nothing is left


@pytest.mark.parametrize("where", ["spilling y", "summing a bucket"])
def test_spilled_values_are_removed_when_an_error_stops_the_work(where, private_tmp,
                                                                 monkeypatch):
    rng = np.random.default_rng(13)
    x = _streamed.array_values(rng.random(5_000), 500)

    def failing_chunks():
        yield rng.random(500)
        raise RuntimeError("stopped")

    y = _streamed.Values(5_000, failing_chunks, lambda k: rng.random(k))
    if where == "summing a bucket":
        y = _streamed.array_values(rng.random(5_000), 500)
        monkeypatch.setattr(_streamed, "sum_of_min", lambda *a: (_ for _ in ()).throw(
            RuntimeError("stopped")))
    with pytest.raises(RuntimeError, match="stopped"):
        _streamed.streamed_sum_of_min(x, y, budget_for(10_000, 10))
    assert list(private_tmp.iterdir()) == []


# -- the pair sums of 13FRI / 13GRI / 13AGRI, as they were before issue 34 ----------------------

def _same_before(xs, ys):
    return np.all([np.all(np.isclose(x, y, rtol=0, atol=1e-12), axis=-1)
                   for x, y in zip(xs, ys)], axis=0)


def _abcd_before(xs, ys):
    (Ju, Su), (Jv, Sv) = xs, ys
    a_ij, d_ij = np.minimum(Ju, Jv), np.minimum(Su, Sv)
    a, d = a_ij.sum(axis=-1), d_ij.sum(axis=-1)
    b = np.minimum(Ju - a_ij, Sv - d_ij).sum(axis=-1)
    c = np.minimum(Jv - a_ij, Su - d_ij).sum(axis=-1)
    return a, b, c, d


def _gri_before(xs, ys):
    a, b, c, d = _abcd_before(xs, ys)
    tu = xs[0].sum(axis=-1) + xs[1].sum(axis=-1)
    tv = ys[0].sum(axis=-1) + ys[1].sum(axis=-1)
    return ratio(a + d, np.maximum(tu, tv), _same_before(xs, ys), 1.0, 0.0)


def _pair_vectors_of(U):
    return tuple(fuzzy.upper(M) for M in fuzzy.membership_matrices(U))


@pytest.mark.parametrize("n, K, Q", [(2, 2, 2), (9, 3, 2), (40, 4, 5), (120, 3, 3)])
def test_pair_sums_equal_the_implementation_before_issue_34(n, K, Q):
    """Issue 34 (issue 30's note): 13GRI / 13AGRI take a + d and the agreement flag in one
    buffer, with one maximum per vector for ``_same``; 13FRI's b and c reuse a's and d's
    memory. On random fuzzy, hard and identical clusterings, one pair vector against a batch
    of permuted ones as the permutation null evaluates them and one against one, every value
    equals the former implementation's exactly (the same floating-point operations)."""
    rng = np.random.default_rng(n * 100 + K * 10 + Q)
    fuzzy_U = rng.dirichlet(np.ones(K), n)
    hard_V = np.eye(Q)[rng.integers(0, Q, n)]
    for U, V in [(fuzzy_U, rng.dirichlet(np.ones(Q), n)), (fuzzy_U, hard_V),
                 (hard_V, hard_V), (fuzzy_U, fuzzy_U), (fuzzy_U, fuzzy_U + 1e-13)]:
        xs, ys = _pair_vectors_of(U), _pair_vectors_of(V)
        perms = np.array([rng.permutation(n) for _ in range(7)] + [np.arange(n)])
        batch = tuple(np.stack([fuzzy.upper(M[np.ix_(p, p)]) for p in perms])
                      for M in fuzzy.membership_matrices(V))
        for other in (ys, batch):
            np.testing.assert_array_equal(fuzzy._same(xs, other), _same_before(xs, other))
            for got, want in zip(fuzzy._abcd(xs, other), _abcd_before(xs, other)):
                np.testing.assert_array_equal(got, want)
            gri = _gri_before(xs, other)
            np.testing.assert_array_equal(fuzzy.gri(xs, other), gri)
            expected = fuzzy._prepare_gri(xs, ys)["expected"]
            np.testing.assert_array_equal(
                fuzzy.agri(xs, other, expected),
                ratio(gri - expected, 1.0 - expected, _same_before(xs, other), 1.0, 0.0))
        # the value of ca.agreement: the same sums by blocks of rows
        sums, same = np.zeros(6), True
        for bx, by in fuzzy._pair_blocks(U, "membership", V, "membership",
                                         fuzzy._membership_rows):
            sums[:4] += _abcd_before(bx, by)
            sums[4] += bx[0].sum() + bx[1].sum()
            sums[5] += by[0].sum() + by[1].sum()
            same = same and bool(_same_before(bx, by))
        a, b, c, d, tu, tv = sums
        assert fuzzy._gri_value(U, "membership", V, "membership") == float(
            ratio(a + d, max(tu, tv), same, 1.0, 0.0))
        assert fuzzy._fri_value(U, "membership", V, "membership") == float(
            ratio(a + d, a + b + c + d, same, 1.0, 0.0))
