"""Campello's 07CRI / 07CARI and 10CF / 10CFn: definitions by brute force, hard-partition
reductions (Rand, ARI, the transfer distance), a hand-worked example, and the assignment
against its linear-programming relaxation."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog
from sklearn.metrics import adjusted_rand_score, rand_score

import clusteragree as ca
from clusteragree.indices.fuzzy_campello import fuzzy_transfer_distance, pair_degrees_07

labels = st.integers(2, 14).flatmap(
    lambda n: st.tuples(st.lists(st.integers(0, 3), min_size=n, max_size=n),
                        st.lists(st.integers(0, 2), min_size=n, max_size=n)))


def degrees_by_definition(U):
    """S_ij = max_r min(U_ir, U_jr), D_ij = max_(r != s) min(U_ir, U_js), literally."""
    n, k = U.shape
    S, D = [], []
    for i, j in itertools.combinations(range(n), 2):
        S.append(max(min(U[i, r], U[j, r]) for r in range(k)))
        D.append(max([min(U[i, r], U[j, s]) for r in range(k) for s in range(k) if r != s],
                     default=0.0))
    return np.array(S), np.array(D)


def cri_by_definition(U, V):
    su, du = degrees_by_definition(U)
    sv, dv = degrees_by_definition(V)
    a, b = np.minimum(su, sv).sum(), np.minimum(su, dv).sum()
    c, d = np.minimum(du, sv).sum(), np.minimum(du, dv).sum()
    t = a + b + c + d
    e = (a + b) * (a + c) / t
    den = (2 * a + b + c) / 2 - e  # 0 only when b = c = 0 and a = 0 or d = 0: no disagreement
    return (a + d) / t, (a - e) / den if den > 1e-12 * t else 1.0


def transfer_distance_by_moves(x, y):
    """The fewest objects of x to move to another (possibly new) cluster so that x becomes y up
    to the names of the clusters: try every one-to-one naming of y's clusters by x's (padded)."""
    x, y = np.asarray(x), np.asarray(y)
    xs, ys = sorted(set(x)), sorted(set(y))
    names = xs + [f"new{i}" for i in range(len(ys))]
    best = len(x)
    for image in itertools.permutations(names, len(ys)):
        f = dict(zip(ys, image))
        best = min(best, sum(xi != f[yi] for xi, yi in zip(x, y)))
    return best


def ftd_by_permutations(U, V):
    k = max(U.shape[1], V.shape[1])
    Up = np.pad(U, ((0, 0), (0, k - U.shape[1])))
    Vp = np.pad(V, ((0, 0), (0, k - V.shape[1])))
    return min(np.abs(Up - Vp[:, list(p)]).sum() for p in itertools.permutations(range(k)))


def ftd_by_linprog(U, V):
    """The transportation (Birkhoff polytope) relaxation: min sum_rt C_rt P_rt over doubly
    stochastic P; its optimum equals the best matching (Birkhoff-von Neumann)."""
    k = max(U.shape[1], V.shape[1])
    Up = np.pad(U, ((0, 0), (0, k - U.shape[1])))
    Vp = np.pad(V, ((0, 0), (0, k - V.shape[1])))
    C = np.abs(Up[:, :, None] - Vp[:, None, :]).sum(axis=0)
    A = np.vstack([np.kron(np.eye(k), np.ones(k)), np.kron(np.ones(k), np.eye(k))])
    res = linprog(C.ravel(), A_eq=A, b_eq=np.ones(2 * k), bounds=(0, None), method="highs")
    return res.fun


def random_memberships(rng, n, k, kind):
    if kind == "fuzzy":
        return rng.dirichlet(np.full(k, 0.7), size=n)
    if kind == "possibilistic":
        U = rng.uniform(size=(n, k)) * (rng.uniform(size=(n, k)) < 0.7)
        U[U.sum(axis=1) == 0, 0] = 0.5  # every object needs some membership
        return U
    U = (rng.uniform(size=(n, k)) < 0.4).astype(float)  # non-exclusive hard
    U[U.sum(axis=1) == 0, 0] = 1.0
    return U


@settings(max_examples=60, deadline=None, derandomize=True)
@given(labels)
def test_reductions_on_hard_partitions(xy):
    x, y = xy
    n = len(x)
    got = ca.agreement(x, y, index=["cri07", "cari07", "cf10", "cf10n"])
    assert got["cri07"] == pytest.approx(rand_score(x, y), abs=1e-12)
    assert got["cari07"] == pytest.approx(adjusted_rand_score(x, y), abs=1e-12)
    # F_TD is twice the transfer distance: each move takes one membership and gives one
    td = transfer_distance_by_moves(x, y)
    assert got["cf10"] == pytest.approx(1 - 2 * td, abs=1e-12)
    k = max(len(set(x)), len(set(y)))
    assert got["cf10n"] == pytest.approx(1 - 2 * td / (n * k), abs=1e-12)


@pytest.mark.parametrize("kind", ["fuzzy", "possibilistic", "non-exclusive hard"])
def test_pair_degrees_and_indices_equal_their_definitions(kind):
    rng = np.random.default_rng(7)
    for _ in range(8):
        n, ku, kv = rng.integers(2, 9), rng.integers(1, 5), rng.integers(1, 5)
        U, V = random_memberships(rng, n, ku, kind), random_memberships(rng, n, kv, kind)
        S, D = pair_degrees_07(U)
        S0, D0 = degrees_by_definition(U)
        np.testing.assert_allclose(S, S0, rtol=0, atol=0)
        np.testing.assert_allclose(D, D0, rtol=0, atol=0)
        cri, cari = cri_by_definition(U, V)
        got = ca.agreement(U, V, index=["cri07", "cari07"])
        assert got["cri07"] == pytest.approx(cri, rel=1e-12)
        assert got["cari07"] == pytest.approx(cari, rel=1e-12, abs=1e-12)


def test_pair_degrees_with_ties_in_the_largest_membership():
    # both of object 0's clusters tie: "apart" from object 1 is min(1/2, 1/2) either way
    U = np.array([[0.5, 0.5, 0.0], [0.5, 0.5, 0.0], [0.2, 0.2, 0.6]])
    S, D = pair_degrees_07(U)
    S0, D0 = degrees_by_definition(U)
    np.testing.assert_array_equal(S, S0)
    np.testing.assert_array_equal(D, D0)


def test_hand_worked_example():
    # U: object 0 in cluster 1, object 1 half in each, object 2 in cluster 2; V = [0, 0, 1].
    # Pairs (0,1), (0,2), (1,2): S^U = 1/2, 0, 1/2; D^U = 1/2, 1, 1/2; S^V = 1, 0, 0; D^V = 0,1,1
    # a = 1/2, b = 0 + 0 + 1/2 = 1/2, c = 1/2, d = 0 + 1 + 1/2 = 3/2: 07CRI = 2/3,
    # 07CARI = (1/2 - 1/3) / (1 - 1/3) = 1/4.
    U = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    got = ca.agreement(U, [0, 0, 1], index=["cri07", "cari07", "cf10", "cf10n"])
    assert got["cri07"] == pytest.approx(2 / 3, rel=1e-15)
    assert got["cari07"] == pytest.approx(1 / 4, rel=1e-15)
    # clusters matched in order: |1-1|+|.5-1|+0 + 0+|.5-0|+0 = 1, so 10CF = 0, 10CFn = 1 - 1/6
    assert got["cf10"] == pytest.approx(0.0, abs=1e-15)
    assert got["cf10n"] == pytest.approx(5 / 6, rel=1e-15)


@pytest.mark.parametrize("kind", ["fuzzy", "possibilistic", "non-exclusive hard"])
def test_transfer_distance_is_the_best_matching(kind):
    rng = np.random.default_rng(11)
    for _ in range(10):
        n, ku, kv = rng.integers(2, 12), rng.integers(1, 6), rng.integers(1, 6)
        U, V = random_memberships(rng, n, ku, kind), random_memberships(rng, n, kv, kind)
        ftd = fuzzy_transfer_distance(U, V)
        assert ftd == pytest.approx(ftd_by_permutations(U, V), rel=1e-12, abs=1e-12)
        assert ftd == pytest.approx(ftd_by_linprog(U, V), rel=1e-9, abs=1e-9)
        assert ftd == pytest.approx(fuzzy_transfer_distance(V, U), rel=1e-12, abs=1e-12)
        k = max(U.any(axis=0).sum(), V.any(axis=0).sum())  # a column of zeros is no cluster
        assert ca.agreement(U, V, index="cf10") == pytest.approx(1 - ftd, rel=1e-12)
        assert 0 <= ca.agreement(U, V, index="cf10n") == pytest.approx(1 - ftd / (n * k))


def test_cf10_is_one_exactly_on_equivalent_clusterings_and_cri07_is_not_reflexive():
    rng = np.random.default_rng(3)
    U = rng.dirichlet(np.ones(3), size=10)
    assert ca.agreement(U, U[:, [2, 0, 1]], index="cf10") == 1.0
    assert ca.agreement(U, np.hstack([U, np.zeros((10, 1))]), index="cf10") == 1.0
    assert ca.agreement(U, U[:, [2, 0, 1]], index="cf10n") == 1.0
    assert ca.agreement(U, np.hstack([U, np.zeros((10, 1))]), index="cf10n") == 1.0
    # a fuzzy pair is partly together and partly apart: 07CRI(U, U) < 1
    assert ca.agreement(U, U, index="cri07") < 1.0
    assert not ca.get_index("cri07").reflexive and ca.get_index("cf10").reflexive


def test_symmetry_and_the_permutation_null():
    rng = np.random.default_rng(5)
    U, V = rng.dirichlet(np.ones(3), size=7), rng.dirichlet(np.ones(2), size=7)
    for name in ("cri07", "cari07", "cf10", "cf10n"):
        assert ca.agreement(U, V, index=name) == pytest.approx(ca.agreement(V, U, index=name))
    res = ca.agreement_test(U, V, index="cri07", method="permutation", n_sim=200, seed=1)
    assert 0 < res.pvalue <= 1 and np.isfinite(res.null.mean)
    # the exact permutation law: all 7! orderings of V's objects
    exact = ca.agreement_test(U, V, index="cf10n")  # 7! orderings: enumerated
    perms = [ca.agreement(U, V[list(p)], index="cf10n")
             for p in itertools.permutations(range(7))]
    assert exact.null.mean == pytest.approx(np.mean(perms), rel=1e-12)
