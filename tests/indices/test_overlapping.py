"""Indices of covers (overlapping clusterings): each against a brute-force computation written
here from its paper's definition, closed forms on partitions, clusim 0.4 where installed, the
lists-of-sets input, refusals, and the permutation null."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import adjusted_rand_score

import clusteragree as ca
from clusteragree.indices import evaluate
from clusteragree.inputs.memberships import sets_to_memberships
from clusteragree.indices.overlapping import affinity_matrix

NAMES = ["element_centric", "omega", "onmi_lfk", "onmi_mgh", "geometric_accuracy",
         "classification_error", "overlap_quality"]


def random_cover(rng, n, k, p=0.35, uncovered=True):
    """A random cover: each object in each cluster with probability p; no empty cluster; with
    ``uncovered=False`` every object in some cluster."""
    U = (rng.random((n, k)) < p).astype(float)
    if not uncovered:
        U[U.sum(axis=1) == 0, rng.integers(k)] = 1
    for col in np.flatnonzero(U.sum(axis=0) == 0):
        U[rng.integers(n), col] = 1
    return U


def one_hot(labels):
    labels = np.asarray(labels)
    return (labels[:, None] == np.unique(labels)[None, :]).astype(float)


# -- brute force, from the definitions --------------------------------------------------------

def brute_affinity(U, alpha):
    """Personalised PageRank on the cluster-induced element graph, from its definition: a walk
    steps object -> one of its clusters -> one of that cluster's objects (uniformly); an
    object in no cluster has a self loop; P = (1 - alpha) (I - alpha W)^-1."""
    n, k = U.shape
    W = np.zeros((n, n))
    for i in range(n):
        mine = [c for c in range(k) if U[i, c]]
        if not mine:
            W[i, i] = 1.0
        for c in mine:
            members = [j for j in range(n) if U[j, c]]
            for j in members:
                W[i, j] += 1.0 / len(mine) / len(members)
    return (1 - alpha) * np.linalg.inv(np.eye(n) - alpha * W)


def brute_element_centric(U, V, alpha):
    P, Q = brute_affinity(U, alpha), brute_affinity(V, alpha)
    return float(np.mean(1 - np.abs(P - Q).sum(axis=1) / (2 * alpha)))


def closed_form_element_centric(x, y):
    x, y = np.asarray(x), np.asarray(y)
    scores = [np.sum((x == x[i]) & (y == y[i])) / max(np.sum(x == x[i]), np.sum(y == y[i]))
              for i in range(len(x))]
    return float(np.mean(scores))


def brute_omega(U, V):
    n = len(U)
    pairs = list(itertools.combinations(range(n), 2))
    tu = [int(U[i] @ U[j]) for i, j in pairs]
    tv = [int(V[i] @ V[j]) for i, j in pairs]
    m = len(pairs)
    obs = sum(a == b for a, b in zip(tu, tv)) / m
    exp = sum(tu.count(t) * tv.count(t) for t in set(tu) | set(tv)) / m ** 2
    return 1.0 if obs == 1 else (obs - exp) / (1 - exp)


def h(p):
    return -p * math.log(p) if p > 0 else 0.0


def brute_conditional(A, B, slip=False):
    """[(H(A_k), H(A_k | B))] by Lancichinetti et al. (2009), appendix B; ``slip=True`` uses
    h(1 - P11) for h(P00), as clusim 0.4 does."""
    n = len(A)
    out = []
    for k in range(A.shape[1]):
        a = A[:, k].sum() / n
        hx, best = h(a) + h(1 - a), None
        for col in range(B.shape[1]):
            b = B[:, col].sum() / n
            p11 = (A[:, k] * B[:, col]).sum() / n
            p10, p01, p00 = a - p11, b - p11, 1 - a - b + p11
            alike = h(p11) + (h(1 - p11) if slip else h(p00))
            if alike > h(p10) + h(p01):
                cond = alike + h(p10) + h(p01) - (h(b) + h(1 - b))
                best = cond if best is None else min(best, cond)
        out.append((hx, hx if best is None else best))
    return out


def brute_onmi_lfk(U, V, slip=False):
    def norm(A, B):
        return np.mean([c / hx if hx > 0 else 1.0 for hx, c in brute_conditional(A, B, slip)])
    return 1 - 0.5 * (norm(U, V) + norm(V, U))


def brute_onmi_mgh(U, V):
    xs, ys = brute_conditional(U, V), brute_conditional(V, U)
    hx, hy = sum(e for e, _ in xs), sum(e for e, _ in ys)
    info = 0.5 * (hx - sum(c for _, c in xs) + hy - sum(c for _, c in ys))
    return info / max(hx, hy)


def clusters(U):
    return [set(np.flatnonzero(U[:, k])) for k in range(U.shape[1])]


def brute_geometric_accuracy(U, V):
    cu, cv = clusters(U), clusters(V)
    T = np.array([[len(a & b) for b in cv] for a in cu])
    sn = sum(max(len(a & b) for b in cv) for a in cu) / sum(len(a) for a in cu)
    ppv = sum(max(len(a & b) for a in cu) for b in cv) / T.sum()
    return math.sqrt(sn * ppv)


def brute_classification_error(U, V):
    cu, cv = clusters(U), clusters(V)
    small, other = (cv, cu) if len(cv) <= len(cu) else (cu, cv)
    return 1 - sum(max(len(a & b) for b in other) for a in small) / sum(map(len, small))


def entropy(counts):
    p = np.asarray(list(counts), float)
    p = p[p > 0] / p.sum()
    return float(-(p * np.log(p)).sum())


def brute_overlap_quality(U, V):
    du, dv = U.sum(axis=1).astype(int), V.sum(axis=1).astype(int)
    joint = {}
    for a, b in zip(du, dv):
        joint[a, b] = joint.get((a, b), 0) + 1
    return (entropy(np.bincount(du)) + entropy(np.bincount(dv)) - entropy(joint.values()))


BRUTE = {"omega": brute_omega, "onmi_lfk": brute_onmi_lfk, "onmi_mgh": brute_onmi_mgh,
         "geometric_accuracy": brute_geometric_accuracy,
         "classification_error": brute_classification_error,
         "overlap_quality": brute_overlap_quality}


# -- against the brute force ------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
def test_every_index_equals_its_brute_force_on_random_covers(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 25))
    U = random_cover(rng, n, int(rng.integers(1, 5)), uncovered=seed % 2 == 0)
    V = random_cover(rng, n, int(rng.integers(1, 5)), uncovered=seed % 3 == 0)
    got = ca.agreement(U, V, index=NAMES)
    for name, brute in BRUTE.items():
        assert got[name] == pytest.approx(brute(U, V), abs=1e-10), name
    for alpha in (0.9, 0.5, 0.15):
        assert ca.agreement(U, V, index="element_centric", alpha=alpha) == pytest.approx(
            brute_element_centric(U, V, alpha), abs=1e-10)


def test_affinity_matrix_is_the_personalised_pagerank():
    rng = np.random.default_rng(3)
    U = random_cover(rng, 15, 4)
    for alpha in (0.9, 0.3):
        A = affinity_matrix(U, alpha=alpha)
        np.testing.assert_allclose(A, brute_affinity(U, alpha), atol=1e-12)
        np.testing.assert_allclose(A.sum(axis=1), 1.0, atol=1e-12)


def test_many_singleton_clusters_and_one_big_component():
    rng = np.random.default_rng(4)
    U = np.hstack([np.eye(12), random_cover(rng, 12, 3)])   # singletons and overlapping ones
    V = one_hot(rng.integers(0, 3, 12))
    assert ca.agreement(U, V, index="element_centric") == pytest.approx(
        brute_element_centric(U, V, 0.9), abs=1e-10)


labels = st.integers(2, 25).flatmap(
    lambda n: st.tuples(st.lists(st.integers(0, 3), min_size=n, max_size=n),
                        st.lists(st.integers(0, 4), min_size=n, max_size=n)))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(labels, st.sampled_from([0.9, 0.5, 0.05]))
def test_on_partitions_element_centric_has_its_closed_form_and_omega_is_ari(xy, alpha):
    x, y = xy
    got = ca.agreement(one_hot(x), one_hot(y), index="element_centric", alpha=alpha)
    assert got == pytest.approx(closed_form_element_centric(x, y), abs=1e-10)
    assert ca.agreement(x, y, index="element_centric", alpha=alpha) == pytest.approx(got)
    ari = adjusted_rand_score(x, y)
    assert ca.agreement(x, y, index="omega") == pytest.approx(ari, abs=1e-10)
    # classification error on partitions is clusim's 1 - purity (its smaller clustering matched)
    kx, ky = len(set(x)), len(set(y))
    tab = ca.crosstab(x, y).counts
    purity = (tab.max(axis=0).sum() if ky <= kx else tab.max(axis=1).sum()) / len(x)
    assert ca.agreement(x, y, index="classification_error") == pytest.approx(1 - purity)


covers = st.integers(3, 14).flatmap(lambda n: st.tuples(
    st.lists(st.lists(st.booleans(), min_size=3, max_size=3), min_size=n, max_size=n),
    st.lists(st.lists(st.booleans(), min_size=2, max_size=2), min_size=n, max_size=n),
    st.permutations(range(n))))


def _fix(rows):
    U = np.array(rows, float)
    return U[:, U.sum(axis=0) > 0] if U.any() else None


@settings(max_examples=50, deadline=None, derandomize=True)
@given(covers)
def test_symmetry_and_invariance_under_relabelling(data):
    U, V, perm = _fix(data[0]), _fix(data[1]), list(data[2])
    if U is None or V is None:
        return
    got = ca.agreement(U, V, index=NAMES)
    moved = ca.agreement(U[perm][:, ::-1], V[perm][:, ::-1], index=NAMES)  # objects, clusters
    swapped = ca.agreement(V, U, index=NAMES)
    for name in NAMES:
        assert moved[name] == pytest.approx(got[name], abs=1e-10), name
        rec = ca.get_index(name)
        lo, hi = rec.range
        assert lo - 1e-12 <= got[name] <= hi + 1e-12, name
        if rec.symmetric:
            assert swapped[name] == pytest.approx(got[name], abs=1e-10), name


@pytest.mark.parametrize("seed", range(3))
def test_identical_covers_take_the_optimum(seed):
    U = random_cover(np.random.default_rng(seed), 12, 4)
    got = ca.agreement(U, U[:, ::-1], index=NAMES)
    for name in ("element_centric", "omega", "onmi_lfk", "onmi_mgh", "classification_error"):
        assert got[name] == pytest.approx(ca.get_index(name).optimum, abs=1e-12), name
    assert got["overlap_quality"] == pytest.approx(brute_overlap_quality(U, U))


def test_degenerate_covers_are_decided_not_nan():
    everything = np.ones((5, 1))
    two = one_hot([0, 0, 1, 1, 1])
    for U, V in ((everything, two), (two, everything), (everything, everything)):
        got = ca.agreement(U, V, index=NAMES)
        assert not got.isna().any()
    assert ca.agreement(everything, everything, index="onmi_lfk") == 1.0
    assert ca.agreement(everything, two, index="onmi_mgh") == 0.0  # H(X) = 0: nothing shared


# -- lists of sets ----------------------------------------------------------------------------

def test_lists_of_sets_with_labels_are_the_matrices_of_the_union_of_objects():
    x = [{"a", "b", "c"}, {"c", "d"}]
    y = [frozenset({"a", "b"}), {"c", "d", "e"}]   # "e" is in none of x's clusters
    U, V = sets_to_memberships(x, y)
    assert U.tolist() == [[1, 0], [1, 0], [1, 1], [0, 1], [0, 0]]
    assert V.tolist() == [[1, 0], [1, 0], [0, 1], [0, 1], [0, 1]]
    got = ca.agreement(x, y, index=NAMES)
    want = ca.agreement(U, V, index=NAMES)
    assert np.allclose(got.to_numpy(), want.to_numpy())
    test = ca.agreement_test(x, y, index="omega", method="permutation", n_sim=99, seed=1)
    assert test.statistic == want["omega"]


def test_a_list_of_sets_against_a_matrix_holds_row_positions():
    V = one_hot([0, 0, 1, 1, 2])
    x = [{0, 1, 2}, {2, 3}]   # object 4 is in no cluster of x
    U = np.array([[1, 0], [1, 0], [1, 1], [0, 1], [0, 0]], float)
    for name in NAMES:
        assert ca.agreement(x, V, index=name) == ca.agreement(U, V, index=name)
        assert ca.agreement(V, x, index=name) == ca.agreement(V, U, index=name)
    assert ca.agreement(x, [0, 0, 1, 1, 2], index="omega") == ca.agreement(U, V, index="omega")


def test_bad_lists_of_sets_are_refused():
    V = one_hot([0, 0, 1, 1])
    with pytest.raises(ValueError, match="x's cluster 1 is an empty set"):
        ca.agreement([{0, 1}, set()], V, index="omega")
    with pytest.raises(ValueError, match="row positions 0..3"):
        ca.agreement([{0, 1}, {2, 4}], V, index="omega")
    with pytest.raises(ValueError, match="row positions"):
        ca.agreement([{"a", 1}], V, index="omega")


def test_covers_are_checked():
    V = one_hot([0, 0, 1, 1])
    with pytest.raises(ValueError, match=r"^x is a fuzzy clustering .*index 'omega'.* takes "
                                         r"exclusive hard, non-exclusive hard or non-exhaustive"):
        ca.agreement([[0.5, 0.5], [1, 0], [0, 1], [1, 0]], V, index="omega")
    with pytest.raises(ValueError, match="clusters with no object"):
        ca.agreement([[1, 0], [1, 0], [1, 0], [1, 0]], V, index="omega")
    with pytest.raises(ValueError, match="must describe the same objects"):
        ca.agreement(one_hot([0, 1, 1]), V, index="omega")
    with pytest.raises(ValueError, match=r"alpha .* must be in \(0, 1\)"):
        ca.agreement(V, V, index="element_centric", alpha=1.0)
    with pytest.raises(ValueError, match="base must be > 1"):
        ca.agreement(V, V, index="overlap_quality", base=1)
    # an object in no cluster is allowed (an all-zero row)
    assert ca.agreement([[1, 0], [1, 0], [0, 1], [0, 0]], V, index="omega") == pytest.approx(
        brute_omega(np.array([[1, 0], [1, 0], [0, 1], [0, 0]], float), V))


# -- registry and nulls -----------------------------------------------------------------------

def test_listed_with_their_references():
    df = ca.list_indices("overlapping")
    assert set(NAMES) <= set(df.index)
    assert (df.loc[NAMES, "input"] == "cover").all()
    assert df.loc["element_centric", "reference"].startswith("Gates")
    assert "Collins" in df.loc["omega", "reference"]
    assert "McDaid" in df.loc["onmi_mgh", "reference"]


@pytest.mark.parametrize("name", NAMES)
def test_permutation_null_of_each_index(name):
    rng = np.random.default_rng(5)
    U, V = random_cover(rng, 20, 3), random_cover(rng, 20, 4)
    res = ca.agreement_test(U, V, index=name, method="permutation", n_sim=99, seed=1)
    again = ca.agreement_test(U, V, index=name, method="permutation", n_sim=99, seed=1)
    assert 0 < res.pvalue <= 1 and res.pvalue == again.pvalue
    assert res.statistic == pytest.approx(ca.agreement(U, V, index=name))


def test_exhaustive_null_is_the_law_over_all_permutations_of_y():
    # n = 6: all 720 permutations of y's objects, each index recomputed by brute force
    U = np.array([[1, 0], [1, 0], [1, 1], [0, 1], [0, 1], [1, 0]], float)
    V = one_hot([0, 0, 1, 1, 2, 2])
    perms = list(itertools.permutations(range(6)))
    for name in ("omega", "geometric_accuracy"):
        nd = ca.nulls.null_distribution(U, V, index=name, method="permutation")
        assert nd.is_exact
        want = np.mean([BRUTE[name](U, V[list(p)]) for p in perms])
        assert nd.mean == pytest.approx(want, abs=1e-12)


# -- clusim 0.4 as an oracle (a development dependency, not needed in CI) ----------------------

@pytest.fixture
def clusim_sim(monkeypatch):
    """clusim.sim, with its element-centric graph built densely: clusim 0.4 calls .tolist() on a
    scipy sparse matrix, which newer scipy returns where older returned a numpy matrix."""
    pytest.importorskip("clusim")
    import scipy.sparse as sp
    from clusim import clusimelement, sim

    class Dense:
        csr_matrix = sp.csr_matrix

        @staticmethod
        def coo_matrix(*args, **kwargs):
            return np.asmatrix(sp.coo_matrix(*args, **kwargs).toarray())

    monkeypatch.setattr(clusimelement, "spsparse", Dense)
    return sim


def to_clusim(U):
    from clusim.clustering import Clustering

    return Clustering(elm2clu_dict={i: [int(k) for k in np.flatnonzero(U[i])]
                                    for i in range(len(U))})


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_against_clusim(clusim_sim, seed):
    sim = clusim_sim
    rng = np.random.default_rng(seed)
    n = 25
    U = random_cover(rng, n, 4, uncovered=False)   # clusim's elements are the covered objects
    V = random_cover(rng, n, 3, p=0.45, uncovered=False)
    cu, cv = to_clusim(U), to_clusim(V)
    got = ca.agreement(U, V, index=NAMES)
    assert got["element_centric"] == pytest.approx(sim.element_sim(cu, cv), abs=1e-8)
    assert ca.agreement(U, V, index="element_centric", alpha=0.6) == pytest.approx(
        sim.element_sim(cu, cv, alpha=0.6), abs=1e-8)
    assert got["omega"] == pytest.approx(sim.omega_index(cu, cv), abs=1e-10)
    assert got["geometric_accuracy"] == pytest.approx(sim.geometric_accuracy(cu, cv), abs=1e-12)
    # clusim's onmi writes h(1 - P11) for h(P00) in the joint entropy (checked on the brute
    # force with that slip); ours follows the paper
    assert sim.onmi(cu, cv) == pytest.approx(brute_onmi_lfk(U, V, slip=True), abs=1e-10)
    # clusim's overlap quality is H(dU) + H(dV) + H(dU, dV) in bits; ours is their MI
    du, dv = U.sum(axis=1).astype(int), V.sum(axis=1).astype(int)
    hu, hv = entropy(np.bincount(du)), entropy(np.bincount(dv))
    huv = entropy(np.unique(du * 100 + dv, return_counts=True)[1])
    assert sim.overlap_quality(cu, cv) == pytest.approx((hu + hv + huv) / math.log(2))
    assert got["overlap_quality"] == pytest.approx(hu + hv - huv, abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_against_clusim_on_partitions(clusim_sim, seed):
    sim = clusim_sim
    rng = np.random.default_rng(seed)
    x, y = rng.integers(0, 4, 30), rng.integers(0, 3, 30)
    U, V = one_hot(x), one_hot(y)
    cu, cv = to_clusim(U), to_clusim(V)
    got = ca.agreement(x, y, index=NAMES)
    assert got["element_centric"] == pytest.approx(sim.element_sim(cu, cv), abs=1e-10)
    assert got["omega"] == pytest.approx(sim.omega_index(cu, cv), abs=1e-10)
    assert got["classification_error"] == pytest.approx(sim.classification_error(cu, cv))
    assert got["geometric_accuracy"] == pytest.approx(sim.geometric_accuracy(cu, cv))


# -- element-centric similarity of two partitions: the closed form on their table --------------

@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(st.integers(2, 300), st.integers(1, 12), st.integers(1, 12), st.integers(0, 2**32 - 1),
       st.sampled_from([0.9, 0.5, 0.05, 0.999]))
def test_element_centric_of_partitions_is_the_general_path_to_1e12(n, K, Q, seed, alpha):
    """The closed form (labels in, or one-hot memberships) against the general cover path
    (Woodbury solves over the distinct row patterns), which never assumes partitions."""
    from clusteragree.indices.overlapping import element_centric_of_covers

    rng = np.random.default_rng(seed)
    x = rng.integers(0, K, n)
    y = np.where(rng.random(n) < 0.5, x % Q, rng.integers(0, Q, n))  # some agreement
    general = element_centric_of_covers(one_hot(x), one_hot(y), alpha)
    closed = ca.agreement(x, y, index="element_centric", alpha=alpha)
    assert closed == pytest.approx(general, rel=1e-12, abs=1e-12)
    # the same value from memberships (clusters in another order), with x and y swapped
    assert ca.agreement(one_hot(x), one_hot(y), index="ecs", alpha=alpha) == closed
    assert ca.agreement(y, x, index="ecs") == closed
    table = ca.crosstab(x, y).counts
    assert float(evaluate("element_centric", table, alpha=alpha)) == pytest.approx(
        general, rel=1e-12, abs=1e-12)


def test_element_centric_closed_form_equals_the_brute_force_pagerank():
    rng = np.random.default_rng(21)
    for n in (2, 3, 9, 20):
        x, y = rng.integers(0, 3, n), rng.integers(0, 4, n)
        for alpha in (0.9, 0.2):
            assert ca.agreement(x, y, index="element_centric", alpha=alpha) == pytest.approx(
                brute_element_centric(one_hot(x), one_hot(y), alpha), abs=1e-12)


def test_element_centric_on_a_batch_of_tables():
    from clusteragree.nulls.patefield import random_tables
    from clusteragree.nulls.permutation import table_to_codes

    batch = random_tables([30, 20, 10], [25, 25, 5, 5], 200, seed=3)
    batch[0] = [[30, 0, 0, 0], [0, 20, 0, 0], [0, 0, 5, 5]]  # y splits a cluster of x
    got = evaluate("element_centric", batch.reshape(4, 50, 3, 4))
    assert got.shape == (4, 50)
    for t, value in zip(batch[:40], got.ravel()[:40]):
        x, y = table_to_codes(t)
        assert value == ca.agreement(x, y, index="element_centric")
    identical = evaluate("ecs", [[[3, 0], [0, 4]], [[0, 5], [2, 0]]])
    assert identical.tolist() == [1.0, 1.0]
    # the table form is only for indices that have one, and needs two objects and alpha in (0, 1)
    with pytest.raises(ValueError, match="not a contingency table"):
        evaluate("omega", [[3, 0], [0, 4]])
    with pytest.raises(ValueError, match="needs n >= 2"):
        evaluate("ecs", [[1, 0], [0, 0]])
    with pytest.raises(ValueError, match="alpha"):
        evaluate("ecs", [[3, 0], [0, 4]], alpha=1.0)


def test_element_centric_takes_the_general_path_unless_both_are_partitions():
    """A cover against a partition, or with an object in no cluster, is not a table's index."""
    rng = np.random.default_rng(8)
    U = random_cover(rng, 14, 3)
    x = rng.integers(0, 3, 14)
    for alpha in (0.9, 0.4):
        assert ca.agreement(U, x, index="element_centric", alpha=alpha) == pytest.approx(
            brute_element_centric(U, one_hot(x), alpha), abs=1e-10)


def test_element_centric_from_labels_keeps_the_entry_rules():
    """Labels in go straight to their table (``Clusterings.labels_table``): Series are paired
    by their index as for memberships, and what the memberships path refuses is refused with
    its message; the test's statistic is the same value."""
    import pandas as pd

    rng = np.random.default_rng(5)
    x = pd.Series(rng.integers(0, 3, 30), index=[f"o{i}" for i in range(30)])
    y = pd.Series(rng.integers(0, 4, 30), index=x.index[::-1])
    value = ca.agreement(x, y, index="ecs")
    assert value == ca.agreement(one_hot(x.to_numpy()), one_hot(y[x.index].to_numpy()),
                                 index="ecs")
    with pytest.warns(UserWarning, match="left out 10"):
        inner = ca.agreement(x, y.iloc[:20], index="ecs", join="inner")
    assert inner == ca.agreement(x[y.index[:20]].to_numpy(), y.iloc[:20].to_numpy(), index="ecs")
    test = ca.agreement_test(x, y, index="ecs", n_sim=20, seed=1)
    assert test.statistic == value
    with pytest.raises(ValueError, match="missing labels"):
        ca.agreement([0, 1, np.nan, 1], [0, 1, 1, 1], index="ecs")
    # dropna=True leaves the object out, as for every index of labels (issue 43: partial
    # references), where it used to be refused for the indices of object pairs
    assert ca.agreement([0, 1, np.nan, 1], [0, 1, 1, 1], index="ecs", dropna=True) == (
        ca.agreement([0, 1, 1], [0, 1, 1], index="ecs"))
    with pytest.raises(ValueError, match="same objects"):
        ca.agreement([0, 1, 1], [0, 1], index="ecs")
    with pytest.raises(ValueError, match="needs n >= 2"):
        ca.agreement([0], [0], index="ecs")
    both = ca.agreement(x, y, index=["ari", "ecs"])
    assert both["element_centric"] == value


def test_element_centric_of_a_cover_with_an_empty_cluster_ignores_it():
    """An empty cluster adds no edge to the cluster-induced element graph (Gates et al.
    2019), so the similarity is that of the cover without it (it used to give nan, from a
    bootstrap resample that drew none of a cluster's objects: issue 29, item 2)."""
    from clusteragree.indices.overlapping import element_centric_of_covers

    U = np.array([[1, 0], [1, 1], [0, 1], [0, 0], [1, 0], [0, 1]], dtype=float)
    V = np.array([[1, 0], [1, 0], [0, 1], [0, 1], [0, 1], [1, 1]], dtype=float)
    padded = np.c_[U[:, :1], np.zeros(6), U[:, 1:]]
    assert element_centric_of_covers(padded, V) == pytest.approx(
        element_centric_of_covers(U, V), rel=1e-14)
