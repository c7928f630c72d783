"""The measures Horta & Campello review (Horta, D. & Campello, R. J. G. B. (2015), "Comparing
hard and overlapping clusterings", JMLR 16, sec. 3) and the matrix reference measures of Zhang,
S., Wong, H.-S. & Shen, Y. (2012), "Generalized adjusted Rand indices for cluster ensembles",
Pattern Recognition 45(6): reductions on hard partitions, hand-worked fuzzy values, refusals."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import adjusted_rand_score, rand_score

import clusteragree as ca

labels = st.integers(2, 30).flatmap(
    lambda n: st.tuples(st.lists(st.integers(0, 3), min_size=n, max_size=n),
                        st.lists(st.integers(0, 4), min_size=n, max_size=n)))


def pairs_together(x):
    x = np.asarray(x)
    return np.array([x[i] == x[j] for i, j in itertools.combinations(range(len(x)), 2)])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(labels)
def test_reductions_on_hard_partitions(xy):
    x, y = xy
    ri, ari = rand_score(x, y), adjusted_rand_score(x, y)
    got = ca.agreement(x, y, index=["bri08p", "bri08m", "ri09", "bri09", "ari10", "ari10n",
                                    "bari09", "aari10", "aari10n", "csi10", "bc", "ebc09",
                                    "vi03", "mi05"])
    for name in ("bri08p", "bri08m", "ri09", "bri09", "ari10", "ari10n"):
        assert got[name] == pytest.approx(ri, abs=1e-10), name
    for name in ("bari09", "aari10", "aari10n"):
        assert got[name] == pytest.approx(ari, abs=1e-10), name
    # 10CSI is Jaccard on hard partitions; BCubed = 09EBC (min of 0/1 is their product)
    px, py = pairs_together(x), pairs_together(y)
    either = (px | py).sum()
    assert got["csi10"] == pytest.approx((px & py).sum() / either if either else 1.0, abs=1e-10)
    assert got["bc"] == pytest.approx(got["ebc09"], abs=1e-12)
    assert got["vi03"] == pytest.approx(ca.agreement(x, y, index="vi"), abs=1e-10)
    assert got["mi05"] == pytest.approx(ca.agreement(x, y, index="nmi_sum"), abs=1e-10)


def test_bcubed_by_hand():
    # x = [0, 0, 1], y = [0, 1, 1]: per object, |same cluster in both| / |same in x| (self incl.)
    # precision: object 0: {0} / {0, 1} = 1/2, object 1: {1}/{0, 1} = 1/2, object 2: 1/1
    # recall: object 0: 1/1, object 1: {1}/{1, 2} = 1/2, object 2: {2}/{1, 2} = 1/2
    p, r = (0.5 + 0.5 + 1) / 3, (1 + 0.5 + 0.5) / 3
    assert ca.agreement([0, 0, 1], [0, 1, 1], index="bc") == pytest.approx(2 * p * r / (p + r))


def test_ri09_and_d2_11_by_hand_on_fuzzy_memberships():
    U = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0]])
    V = np.array([[0.8, 0.2], [0.8, 0.2], [0.1, 0.9]])
    JU, JV = U @ U.T, V @ V.T
    iu = np.triu_indices(3, k=1)
    pi, su, sv = (JU[iu] * JV[iu]).sum(), JU[iu].sum(), JV[iu].sum()
    assert ca.agreement(U, V, index="ri09") == pytest.approx(1 + (2 * pi - su - sv) / 3)
    H = np.array([[1, 0], [1, 0], [0, 1]], float)
    G = np.array([[1, 0], [0, 1], [0, 1]], float)
    # 11D2 = 1 - (1/n^2) sum_ij |J^U_ij - J^V_ij|: J differs at (0,1), (1,0), (1,2), (2,1)
    assert ca.agreement(H, G, index="d2_11") == pytest.approx(1 - 4 / 9)


def test_anderson_normalisation_and_max_normalisation():
    rng = np.random.default_rng(4)
    U = rng.uniform(0.1, 1, (12, 3))  # possibilistic: N++ != n
    V = rng.uniform(0.1, 1, (12, 2))
    s = ca.agreement(U, V, index=["ari10", "ari10n", "ari11nm"])
    # 10ARIn uses N^ = (n / N++) N: invariant to scaling U, and equal to 10ARI once N++ = n
    assert ca.agreement(0.5 * U, V, index="ari10n") == pytest.approx(s["ari10n"], abs=1e-12)
    scaled = U * (12 / (U.T @ V).sum())
    assert (scaled.T @ V).sum() == pytest.approx(12)
    assert scaled.max() <= 1 and ca.agreement(scaled, V, index="ari10") == pytest.approx(
        s["ari10n"], abs=1e-12)
    assert s["ari10"] != pytest.approx(s["ari10n"])
    top = max(ca.agreement(U, U, index="ari10n"), ca.agreement(V, V, index="ari10n"))
    assert s["ari11nm"] == pytest.approx(s["ari10n"] / top)


def test_information_measures_need_fuzzy_memberships():
    P = np.array([[1.0, 1.0], [0.0, 1.0], [1.0, 0.0]])  # non-exclusive hard
    with pytest.raises(ValueError, match=r"^x is a non-exclusive hard clustering .*index "
                                         r"'vi03'.* takes exclusive hard or fuzzy"):
        ca.agreement(P, [0, 1, 1], index="vi03")
    with pytest.raises(ValueError, match=r"^x is a fuzzy clustering .*index 'bc'.* takes "
                                         r"exclusive hard clusterings"):
        ca.agreement([[0.2, 0.8], [1, 0]], [0, 1], index="bc")


def test_db12_is_zero_for_identical_and_positive_otherwise():
    x, y = [0, 0, 1, 1, 2], [0, 1, 1, 2, 2]
    assert ca.agreement(x, x, index="db12") == 0.0
    assert ca.agreement(x, y, index="db12") > 0


def test_matrix_reference_measures_by_hand():
    P = ca.coassociation([0, 0, 1, 1])
    Q = ca.coassociation([0, 1, 1, 1])
    diff = P - Q
    assert ca.agreement(P, Q, index="nsf") == pytest.approx(1 - np.sqrt((diff**2).sum()) / 16)
    assert ca.agreement(P, Q, index="kas") == pytest.approx(
        (P * Q).sum() / np.sqrt((P**2).sum() * (Q**2).sum()))
    iu = np.triu_indices(4, k=1)
    r = np.corrcoef(P[iu], Q[iu])[0, 1]
    assert ca.agreement(P, Q, index="sms") == pytest.approx(r)
    assert ca.agreement(P, Q, index="sms", scaled=True) == pytest.approx((1 + r) / 2)


def test_direct_measures_have_an_object_permutation_null():
    U = np.array([[1.0, 0.0], [0.5, 0.5], [0.0, 1.0], [0.3, 0.7]])
    V = np.array([[0.8, 0.2], [0.8, 0.2], [0.1, 0.9], [0.5, 0.5]])
    nd = ca.nulls.null_distribution(U, V, index="bri09", method="permutation")
    brute = [ca.agreement(U, V[list(p)], index="bri09") for p in itertools.permutations(range(4))]
    assert nd.is_exact and nd.mean == pytest.approx(np.mean(brute))
    P = ca.coassociation([0, 0, 1, 1, 2])
    Q = ca.coassociation([0, 1, 1, 2, 2])
    nd = ca.nulls.null_distribution(P, Q, index="kas", method="permutation")
    brute = [ca.agreement(P, Q[np.ix_(p, p)], index="kas")
             for p in map(list, itertools.permutations(range(5)))]
    assert nd.mean == pytest.approx(np.mean(brute))
    with pytest.raises(ValueError, match="only the object-permutation null"):
        ca.nulls.null_distribution(U, V, index="bri09", method="permutation", model="pairs")


# Possibilistic typicalities can be tiny (exp(-d^2 / eta) for an outlier is 1e-170 and less):
# indices whose definitions do not change under a scaling of the memberships must give the same
# value there, not nan (|U_i|^2 underflowed to 0 in 09BRI's cosine, U^T U in 11ARInm's N^).
memberships = st.tuples(st.integers(3, 9), st.integers(2, 4), st.integers(2, 4),
                        st.integers(0, 2**32 - 1))


def _fuzzy_pair(n, k, q, seed):
    rng = np.random.default_rng(seed)
    return rng.uniform(1e-3, 1, (n, k)), rng.uniform(1e-3, 1, (n, q))


@settings(max_examples=40, deadline=None, derandomize=True)
@given(memberships, st.integers(-300, 0), st.integers(0, 8))
def test_brouwer_measures_do_not_change_when_an_objects_memberships_are_scaled(m, exponent, row):
    U, V = _fuzzy_pair(*m)
    scaled = U.copy()
    scaled[row % len(U)] *= 10.0**exponent  # 09BRI's J is a cosine: each row's scale drops out
    for name in ("bri09", "bari09"):
        assert ca.agreement(scaled, V, index=name) == pytest.approx(
            ca.agreement(U, V, index=name), rel=1e-10, abs=1e-12)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(memberships, st.integers(-300, 0), st.integers(-300, 0))
def test_normalised_anderson_measures_do_not_change_when_the_memberships_are_scaled(m, eu, ev):
    U, V = _fuzzy_pair(*m)
    for name in ("ari10n", "aari10n", "ari11nm", "aari11nm"):  # N^ = (n / N++) N: scale-free
        assert ca.agreement(U * 10.0**eu, V * 10.0**ev, index=name) == pytest.approx(
            ca.agreement(U, V, index=name), rel=1e-10, abs=1e-12)


# An index does not depend on the order of the clusters, nor on a cluster with no members; nor
# may its rule for a vanishing denominator (equal clusterings take the optimum): the adjusted
# Anderson measures and 03MI/05MI gave 0 for all-singleton (or one-cluster) clusterings whose
# columns came in another order, and 1 in the same order.
PAIR_INDICES = sorted(n for n, r in ca.list_indices().iterrows()
                      if "membership" in r["input"] or r["input"] == "cover")


def _relabelled(M, rng, empty):
    M = M[:, rng.permutation(M.shape[1])]
    if empty:
        M = np.insert(M, rng.integers(0, M.shape[1] + 1), 0.0, axis=1)
    return M


@settings(max_examples=25, deadline=None, derandomize=True)
@given(st.integers(2, 7), st.sampled_from(["singletons", "one", "hard", "fuzzy", "equal"]),
       st.integers(0, 2**32 - 1), st.booleans())
def test_no_index_depends_on_the_order_of_the_clusters_or_on_empty_ones(n, shape, seed, empty):
    rng = np.random.default_rng(seed)
    if shape == "singletons":
        U, V = np.eye(n), np.eye(n)
    elif shape == "one":
        U, V = np.ones((n, 1)), np.ones((n, 1))
    elif shape == "fuzzy":
        U, V = rng.dirichlet(np.ones(3), n), rng.dirichlet(np.ones(2), n)
    else:
        U = np.eye(3)[rng.integers(0, 3, n)]
        V = U.copy() if shape == "equal" else np.eye(2)[rng.integers(0, 2, n)]
    U2, V2 = _relabelled(U, rng, empty), _relabelled(V, rng, empty)
    differ = []
    for name in PAIR_INDICES:
        try:
            before = ca.agreement(U, V, index=name)
        except ValueError:  # a kind of clustering this index does not take
            continue
        try:
            after = ca.agreement(U2, V2, index=name)
        except ValueError as err:  # covers refuse a cluster with no object, by name
            assert empty and "clusters with no object" in str(err), name
            continue
        if after != pytest.approx(before, rel=1e-12, abs=1e-12):
            differ.append((name, before, after))
    assert not differ
