"""Exact Var[MI] under fixed margins, and the standardised indices SMI and SRI.

Independent computations: the exact null law (``method="exact"``: a dynamic programme over the
columns with t kept in exact prime exponents), a second implementation of Var[MI] by the
conditional laws term by term, and Patefield's random tables.
"""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clusteragree as ca
from clusteragree._hypergeom_var import _n_mi_variance_direct, n_mi_variance, variance_of_mi
from clusteragree.tables import margin_table


def _random_margins(rng, K, Q, n):
    a = rng.multinomial(n - K, rng.dirichlet(np.ones(K))) + 1
    b = rng.multinomial(n - Q, rng.dirichlet(np.ones(Q))) + 1
    return a, b


def _sampled_tables(seed, count):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        K, Q = (int(v) for v in rng.integers(2, 5, size=2))
        n = int(rng.integers(max(K, Q), 41))
        yield margin_table(*_random_margins(rng, K, Q, n))


def _enumerated_tables():
    """Every pair of margins of n = 12 with 2 to 3 clusters a side (sorted), and some 4 x 4."""
    def parts(n, k):
        return [p for p in itertools.combinations_with_replacement(range(1, n + 1), k)
                if sum(p) == n]
    for K, Q in [(2, 2), (2, 3), (3, 3)]:
        for a in parts(12, K):
            for b in parts(12, Q):
                yield margin_table(a, b)
    for a, b in [((10, 10, 10, 10), (10, 10, 10, 10)), ((1, 2, 3, 34), (25, 5, 5, 5)),
                 ((7, 8, 9, 16), (1, 1, 1, 37))]:
        yield margin_table(a, b)


TABLES = list(_sampled_tables(2024, 50)) + list(_enumerated_tables())


def test_variance_of_mi_equals_the_exact_law_on_every_table_tested():
    worst = 0.0
    for tab in TABLES:
        exact = ca.nulls.null_distribution(tab, index="mutual_info", method="exact")
        closed = ca.nulls.null_distribution(tab, index="mutual_info", method="hypergeometric")
        assert closed.var == pytest.approx(exact.var, rel=1e-9, abs=1e-15), tab.tolist()
        worst = max(worst, abs(closed.var - exact.var))
    assert worst < 1e-12


def test_smi_is_the_exact_z_score_of_mi():
    for tab in TABLES[::3]:
        exact = ca.nulls.null_distribution(tab, index="mutual_info", method="exact")
        mi = ca.agreement(tab, index="mutual_info")
        smi = ca.agreement(tab, index="smi")
        assert smi == pytest.approx(exact.zscore(mi), rel=1e-8, abs=1e-9), tab.tolist()


def test_sri_is_the_exact_z_score_of_rand():
    for tab in TABLES[::3]:
        exact = ca.nulls.null_distribution(tab, index="rand", method="exact")
        rand = ca.agreement(tab, index="rand")
        assert ca.agreement(tab, index="sri") == pytest.approx(exact.zscore(rand), rel=1e-9,
                                                               abs=1e-9), tab.tolist()


def test_the_hypergeometric_z_of_mi_and_rand_are_smi_and_sri():
    tab = np.array([[30, 20], [10, 20]])
    for index, standard in (("mutual_info", "smi"), ("rand", "sri")):
        res = ca.agreement_test(tab, index=index, method="hypergeometric")
        nd = ca.nulls.null_distribution(tab, index=index, method="hypergeometric")
        assert nd.zscore(ca.agreement(tab, index=index)) == pytest.approx(
            ca.agreement(tab, index=standard), rel=1e-9)
        assert res is not None
    nd = ca.nulls.null_distribution(tab, index="smi", method="hypergeometric")
    assert nd.mean == pytest.approx(0.0, abs=1e-9) and nd.var == pytest.approx(1.0, rel=1e-9)


def test_every_information_index_gets_its_variance_from_var_of_t():
    tab = np.array([[5, 1, 0], [2, 6, 1], [0, 2, 7]])
    for name in ("nmi_sum", "variation_of_information", "adjusted_mutual_info", "homogeneity"):
        exact = ca.nulls.null_distribution(tab, index=name, method="exact")
        closed = ca.nulls.null_distribution(tab, index=name, method="hypergeometric")
        assert closed.var == pytest.approx(exact.var, rel=1e-9), name


def test_the_fast_variance_equals_the_term_by_term_one_at_larger_n():
    rng = np.random.default_rng(5)
    for K, Q, n in [(5, 4, 300), (3, 6, 1000), (2, 2, 5000)]:
        a, b = _random_margins(rng, K, Q, n)
        assert n_mi_variance(a, b) == pytest.approx(_n_mi_variance_direct(a, b), rel=1e-10)


def test_the_variance_agrees_with_patefield_tables_at_n_10000():
    rng = np.random.default_rng(11)
    a, b = _random_margins(rng, 6, 5, 10_000)
    tab = margin_table(a, b)
    sim = ca.nulls.null_distribution(tab, index="mutual_info", method="patefield", n_sim=4000,
                                     seed=3)
    v = variance_of_mi(a, b)
    # the sample variance of 4000 draws has relative s.e. about sqrt(2 / 4000) ~ 0.022
    assert sim.var == pytest.approx(v, rel=0.1)
    # and n MI is about chi^2 / 2 with (K - 1)(Q - 1) = 20 degrees of freedom: Var ~ 10
    assert 10_000 ** 2 * v == pytest.approx(10.0, rel=0.05)


def test_degenerate_margins_give_zero_variance_and_zero_scores():
    for tab in ([[1, 1, 1, 1, 1]], np.eye(4, dtype=int), [[3, 0], [0, 0]], [[2, 3]]):
        tab = np.asarray(tab)
        assert variance_of_mi(tab.sum(1), tab.sum(0)) == 0.0
        assert ca.agreement(tab, index="smi") == 0.0
        if tab.sum() >= 2:
            assert ca.agreement(tab, index="sri") == 0.0


def test_batches_equal_table_by_table():
    tabs = np.array([[[5, 1], [2, 6]], [[4, 2], [3, 5]], [[1, 5], [6, 2]]])
    for name in ("smi", "sri"):
        batch = ca.agreement(tabs, index=name)
        assert batch.shape == (3,)
        for got, tab in zip(batch, tabs):
            assert got == pytest.approx(ca.agreement(tab, index=name), rel=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.lists(st.integers(0, 6), min_size=3, max_size=3), min_size=2, max_size=3))
def test_standardised_indices_are_symmetric_and_label_free(rows):
    tab = np.array(rows)
    if tab.sum() < 2:
        return
    for name in ("smi", "sri"):
        v = ca.agreement(tab, index=name)
        assert math.isfinite(v)
        assert ca.agreement(tab.T, index=name) == pytest.approx(v, rel=1e-9, abs=1e-9)
        assert ca.agreement(tab[::-1, ::-1], index=name) == pytest.approx(v, rel=1e-9,
                                                                           abs=1e-9)


@pytest.mark.parametrize("method", ["patefield", "permutation"])
@pytest.mark.parametrize("index", ["smi", "sri"])
def test_agreement_test_runs_on_the_new_indices(index, method):
    res = ca.agreement_test([[30, 20], [10, 20]], index=index, method=method, n_sim=200, seed=1)
    assert res is not None


def test_list_indices_has_them_with_references():
    df = ca.list_indices()
    for name in ("smi", "sri"):
        assert "Romano" in df.loc[name, "reference"]


# -- MARI (Sundqvist, Chiquet & Rigaill 2023) ----------------------------------------------------

def _labels(tab):
    tab = np.asarray(tab)
    x = np.repeat(np.arange(tab.shape[0]), tab.sum(axis=1))
    y = np.concatenate([np.repeat(np.arange(tab.shape[1]), row) for row in tab])
    return x, y


def _mari_by_brute_force(tab):
    """The paper's definition on the objects: every ordered couple of disjoint object pairs."""
    x, y = _labels(tab)
    pairs = list(itertools.combinations(range(len(x)), 2))
    quads = together = 0
    for (u, v), (w, z) in itertools.product(pairs, pairs):
        if len({u, v, w, z}) < 4:
            continue
        quads += 1
        together += (x[u] == x[v]) and (y[w] == y[z])
    T = len(pairs)
    a11 = sum((x[u] == x[v]) and (y[u] == y[v]) for u, v in pairs)
    p = sum(x[u] == x[v] for u, v in pairs)
    q = sum(y[u] == y[v] for u, v in pairs)
    e = together / quads * T
    return (a11 - e) / ((p + q) / 2 - e)


def test_mari_equals_its_definition_by_brute_force():
    rng = np.random.default_rng(8)
    checked = 0
    for _ in range(40):
        K, Q = (int(v) for v in rng.integers(2, 4, size=2))
        tab = rng.integers(0, 4, size=(K, Q))
        x, y = _labels(tab)
        if not 4 <= tab.sum() <= 11 or len(set(x)) < 2 or len(set(y)) < 2:
            continue
        assert ca.agreement(tab, index="mari") == pytest.approx(_mari_by_brute_force(tab),
                                                                rel=1e-12), tab.tolist()
        checked += 1
    assert checked >= 15


def test_mari_is_close_to_ari_for_large_n_and_one_on_identical_partitions():
    tab = np.array([[300, 200], [100, 200]])
    assert ca.agreement(tab, index="mari") == pytest.approx(
        ca.agreement(tab, index="adjusted_rand"), abs=1e-3)
    assert ca.agreement(np.diag([3, 4, 5]), index="mari") == 1.0
    with pytest.raises(ValueError, match="at least 4"):
        ca.agreement([[2, 1]], index="mari")


@pytest.mark.parametrize("method", ["patefield", "permutation"])
def test_agreement_test_runs_on_mari(method):
    res = ca.agreement_test([[30, 20], [10, 20]], index="mari", method=method, n_sim=200, seed=1)
    assert res is not None
