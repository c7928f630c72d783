"""Exact Var[MI] under fixed margins, and the standardised indices SMI and SRI.

Independent computations: the exact null law (``method="exact"``: a dynamic programme over the
columns with t kept in exact prime exponents), a second implementation of Var[MI] by the
conditional laws term by term, and Patefield's random tables.
"""

import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import hypergeom

import clusteragree as ca
from clusteragree._moments.mi_variance import _n_mi_variance_direct, n_mi_variance, variance_of_mi
from clusteragree.indices.standardised import (
    AUTO_MAX_WORK,
    AUTO_MAX_WORK_SPARSE,
    SPARSE_ERROR,
    exact_variance_work,
    mi_null_moments,
    smi_moments_method,
    smi_sd_error_bound,
    variance_work_floor,
)
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


# -- asymptotic moments beyond exact reach (moments="asymptotic" / "auto") -----------------------

def _emi_by_scipy(a, b):
    """E[MI] (nats) summed cell by cell over scipy's hypergeometric pmf (Vinh et al.'s formula,
    written independently of clusteragree._moments.cells)."""
    n = int(np.sum(a))
    total = 0.0
    for ai in a:
        for bj in b:
            k = np.arange(max(1, ai + bj - n), min(ai, bj) + 1)
            p = hypergeom.pmf(k, n, ai, bj)
            total += float(np.sum(p * k / n * np.log(n * k / (ai * bj))))
    return total


def _grid(seed=2024, count=80):
    """Seeded random margins, K and Q in 2..10, n from 60 to 2 10^4 (exact variance cheap)."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        K, Q = (int(v) for v in rng.integers(2, 11, size=2))
        n = int(np.exp(rng.uniform(np.log(60), np.log(20_000))))
        if K * Q * n > 10**6:
            continue
        alpha = float(rng.choice([0.5, 1.0, 20.0]))
        a = rng.multinomial(n - K, rng.dirichlet(alpha * np.ones(K))) + 1
        b = rng.multinomial(n - Q, rng.dirichlet(alpha * np.ones(Q))) + 1
        out.append(margin_table(a, b))
    return out


def test_the_asymptotic_variance_is_df_q_squared_over_2_n_squared():
    """Var[MI] ~ df q^2 / (2 n^2), q = 2 n E[MI] / df, E[MI] exact (checked against scipy)."""
    for a, b in [([30, 50], [40, 40]), ([5, 7, 9, 11], [12, 10, 10]), ([100] * 6, [60] * 10)]:
        n, df = sum(a), (len(a) - 1) * (len(b) - 1)
        emi = _emi_by_scipy(a, b)
        q = 2 * n * emi / df
        m, v = mi_null_moments(a, b, moments="asymptotic")
        assert m == pytest.approx(emi, rel=1e-10)
        assert v == pytest.approx(df * q * q / (2 * n * n), rel=1e-10)
        assert mi_null_moments(a, b) == pytest.approx((emi, variance_of_mi(a, b)), rel=1e-10)


def test_the_asymptotic_sd_is_within_its_stated_bound_of_the_exact_one():
    """On a seeded grid (K, Q in 2..10, n up to 2 10^4, lopsided to balanced margins):
    |sd_asymptotic / sd_exact - 1| <= smi_sd_error_bound = min(0.5 / c, 6 / c^2), c the
    effective cell count (df / sum 1 / max(a_i b_j / n, 1/2)); so SMI_asymptotic / SMI_exact =
    sd_exact / sd_asymptotic is within bound / (1 - bound) of 1. The grid reaches bounds below
    1e-4, where an unscaled (2 df) or once-scaled (2 df q) variance would be off by 1e-3."""
    bounds = []
    for tab in _grid():
        a, b = tab.sum(axis=1), tab.sum(axis=0)
        m_ex, v_ex = mi_null_moments(a, b, moments="exact")
        m_as, v_as = mi_null_moments(a, b, moments="asymptotic")
        assert m_as == m_ex
        bound = smi_sd_error_bound(a, b)
        rel = math.sqrt(v_as / v_ex) - 1
        assert abs(rel) <= bound, (tab.tolist(), rel, bound)
        bounds.append(bound)
        # SMI of a table with these margins, both ways
        x = ca.agreement(tab, index="smi", moments="exact")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            y = ca.agreement(tab, index="smi", moments="asymptotic")
        assert y == pytest.approx(x / (1 + rel), rel=1e-9, abs=1e-12)
        if bound < 0.5:
            assert y == pytest.approx(x, rel=bound / (1 - bound) + 1e-12, abs=1e-12)
    assert min(bounds) < 1e-4 and max(bounds) > 0.05  # dense and sparse tables were both met


def test_auto_is_exact_on_small_tables_and_asymptotic_at_50_x_50_with_n_a_million():
    assert smi_moments_method([[30, 20], [10, 20]]) == "exact"
    assert smi_moments_method(np.full((10, 10), 100)) == "exact"   # n = 10^4
    rng = np.random.default_rng(3)
    big = rng.multinomial(10**6, np.full(2500, 1 / 2500)).reshape(50, 50)
    assert smi_moments_method(big) == "asymptotic"
    assert smi_moments_method(big, moments="exact") == "exact"
    assert smi_moments_method(np.full((10, 10), 100), moments="asymptotic") == "asymptotic"
    assert exact_variance_work(big.sum(1), big.sum(0)) > AUTO_MAX_WORK
    # margins given as a pair; degenerate margins are exact (nothing to approximate)
    assert smi_moments_method(([20_000] * 50, [20_000] * 50)) == "asymptotic"
    assert smi_moments_method(([10**6], [5 * 10**5] * 2)) == "exact"


def test_auto_pays_for_exact_moments_a_little_longer_where_the_approximation_is_poor():
    # 40 x 40 margins, n = 10^6, with rows of 20 and 138 objects: the bound is above 1%, so
    # auto stays exact past the 2 s budget (up to 10 s); a dense table does not
    rest = 10**6 - 20 - 138
    a = [20, 138] + [rest // 38] * 37 + [rest - rest // 38 * 37]
    b = [25_000] * 40
    work = exact_variance_work(a, b)
    assert smi_sd_error_bound(a, b) > SPARSE_ERROR
    assert AUTO_MAX_WORK < work <= AUTO_MAX_WORK_SPARSE
    assert smi_moments_method((a, b)) == "exact"
    dense = [20_000] * 50, [20_000] * 50   # 50 x 50, n = 10^6
    assert AUTO_MAX_WORK < exact_variance_work(*dense) <= AUTO_MAX_WORK_SPARSE
    assert smi_sd_error_bound(*dense) < SPARSE_ERROR
    assert smi_moments_method(dense) == "asymptotic"


def test_asymptotic_moments_warn_on_sparse_tables_only():
    sparse = margin_table([5, 40, 60, 95], [50] * 4)   # a row of 5: effective cell count 4
    with pytest.warns(UserWarning, match=r"sparse 4 x 4 table .*mean cell count 12.5.*"
                                         r"moments='exact' gives the exact value"):
        ca.agreement(sparse, index="smi", moments="asymptotic")
    dense = margin_table([2500] * 4, [2500] * 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ca.agreement(dense, index="smi", moments="asymptotic")
        ca.agreement(sparse, index="smi")  # auto: exact here, no warning
    assert smi_sd_error_bound(dense.sum(1), dense.sum(0)) < SPARSE_ERROR
    assert smi_sd_error_bound(sparse.sum(1), sparse.sum(0)) > SPARSE_ERROR


def test_asymptotic_moments_keep_the_degenerate_cases_and_batches():
    for tab in ([[1, 1, 1, 1, 1]], np.eye(4, dtype=int), [[3, 0], [0, 0]], [[2, 3]]):
        assert ca.agreement(np.asarray(tab), index="smi", moments="asymptotic") == 0.0
    tabs = np.array([[[500, 100], [200, 600]], [[400, 200], [300, 500]], [[100, 500], [600, 200]]])
    batch = ca.agreement(tabs, index="smi", moments="asymptotic")
    for got, tab in zip(batch, tabs):
        assert got == pytest.approx(ca.agreement(tab, index="smi", moments="asymptotic"),
                                    rel=1e-12)
    # the cache keys on the method: exact, then asymptotic, then exact on the same margins
    tab = np.array([[3000, 2000], [1000, 2000]])
    exact = ca.agreement(tab, index="smi", moments="exact")
    approx = ca.agreement(tab, index="smi", moments="asymptotic")
    assert approx != exact
    assert ca.agreement(tab, index="smi", moments="exact") == exact


def test_bad_moments_option_raises_naming_it():
    for call in (lambda: ca.agreement([[3, 1], [1, 3]], index="smi", moments="approximate"),
                 lambda: smi_moments_method([[3, 1], [1, 3]], moments="fast"),
                 lambda: mi_null_moments([4], [4], moments="Exact")):
        with pytest.raises(ValueError, match="moments must be one of"):
            call()


def test_agreement_test_names_the_moments_and_the_count_used():
    tab = [[30, 20], [10, 20]]
    res = ca.agreement_test(tab, index="smi", n_sim=99, seed=1)
    assert "smi moments: exact mean and variance" in str(res)
    with pytest.warns(UserWarning, match="sparse 2 x 2 table"):  # n = 80: effective cells 4.7
        res = ca.agreement_test(tab, index="smi", n_sim=99, seed=1, moments="asymptotic")
    text = str(res)
    assert "smi moments: exact mean of MI; variance asymptotic (Williams-scaled chi-square" in text
    assert text.index("index: smi") < text.index("smi moments:") < text.index("observed =")
    assert "smi moments" in res._repr_html_()
    res = ca.agreement_test(tab, index="rmi", n_sim=99, seed=1)
    assert "rmi count: log Omega counted exactly" in str(res)
    res = ca.agreement_test(tab, index="rmi", n_sim=99, seed=1, count="approximate")
    assert "Newman-Cantwell-Young approximation" in str(res)
    assert "moments" not in str(ca.agreement_test(tab, index="rand", n_sim=99, seed=1))
    # compare keeps the notes beside its frame and shows them in the frame's caption
    df = ca.compare(tab, indices=["rand", "smi", "rmi"], n_sim=99, seed=1)
    assert df.attrs["notes"] == ["smi moments: exact mean and variance of MI under fixed margins",
                                 "rmi count: log Omega counted exactly"]
    assert "smi moments: exact mean and variance" in df._repr_html_()
    assert "notes" in ca.compare(tab, indices=["rand"], n_sim=99, seed=1).attrs


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


def test_the_work_floor_is_below_the_work():
    """variance_work_floor = K Q (K + Q - 2) / 2 bounds the windowed work from below (each
    window holds a value) on equal, lopsided and one-object margins; 0 where Var[MI] = 0."""
    rng = np.random.default_rng(4)
    for _ in range(60):
        K, Q = int(rng.integers(2, 40)), int(rng.integers(2, 40))
        n = int(rng.integers(max(K, Q), 10**5))
        a = _random_margins(rng, K, Q, n)[0] if rng.random() < 0.5 else \
            np.bincount(rng.integers(0, K, n), minlength=K)
        b = np.bincount(rng.choice(Q, n, p=rng.dirichlet(np.ones(Q) * rng.choice([0.3, 5]))),
                        minlength=Q)
        assert variance_work_floor(a, b) <= exact_variance_work(a, b)
    for a, b in (([5], [2, 3]), ([1, 1, 1], [2, 1]), ([3, 3], [6])):
        assert variance_work_floor(a, b) == exact_variance_work(a, b) == 0


def test_explicit_exact_smi_on_many_clusters_is_refused_from_the_numbers_of_clusters(
        monkeypatch):
    """moments='exact' on 2,000 x 2,000 clusters: refused by the floor (at least about 500 s),
    without reading every cell's window (issue 29, item 8)."""
    from clusteragree._moments import mi_variance
    from clusteragree.indices import standardised

    def refused(*args):
        raise AssertionError("the windows of every cell were read")

    monkeypatch.setattr(mi_variance, "variance_work", refused)
    monkeypatch.setattr(standardised, "variance_work", refused)
    margins = ([5] * 2000, [5] * 2000)
    with pytest.raises(ValueError, match=r"2000 x 2000.*at least .* s .*max_seconds=60.*"
                                         r"pass max_seconds=\d+ or more"):
        ca.agreement(margin_table(*margins), index="smi", moments="exact")
    assert smi_moments_method(margins) == "asymptotic"
