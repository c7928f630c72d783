"""Huge tables: every method gives the right number or refuses, before any work.

The moments are checked in exact rational arithmetic (``fractions``), up to n = 2**53 objects:
the exact moments of s = sum n_ij^2 (``moments_of_s``, checked against every table elsewhere)
turned into the moments of each index by its own affine formula, written out here in Fractions.
"""

from __future__ import annotations

import math
import time
import tracemalloc
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clusteragree as ca
from clusteragree._moments.combinatorics import count_compositions, count_compositions_upto
from clusteragree.nulls import moments_of_s
from clusteragree.nulls.hypergeometric import index_moments
from clusteragree.nulls.patefield import MAX_N

HUGE = [[2**40, 1], [1, 2**40]]


def _pairs(rows, cols):
    n = sum(rows)
    p = sum(a * (a - 1) // 2 for a in rows)
    q = sum(b * (b - 1) // 2 for b in cols)
    return n, p, q, n * (n - 1) // 2


def _exact_index_moments(index, rows, cols):
    """E and Var of an index affine in a11 = (s - n) / 2, in Fractions: I = c0 + c1 a11."""
    n, p, q, T = _pairs(rows, cols)
    mean_s, var_s = moments_of_s(rows, cols)
    mean_a, var_a = (mean_s - n) / 2, var_s / 4
    coef = {  # I = c0 + c1 * a11
        "rand": (Fraction(T - p - q, T), Fraction(2, T)),
        "russel_rao": (Fraction(0), Fraction(1, T)),
        "wallace_x": (Fraction(0), Fraction(1, p)),
        "mirkin": (Fraction(2 * (p + q), n * n), Fraction(-4, n * n)),
        "adjusted_rand": (-Fraction(p * q, T) / (Fraction(p + q, 2) - Fraction(p * q, T)),
                          1 / (Fraction(p + q, 2) - Fraction(p * q, T))),
    }[index]
    return coef[0] + coef[1] * mean_a, coef[1] ** 2 * var_a


MARGINS = [
    ([2**40 + 1] * 2, [2**40 + 1] * 2),  # the issue's table
    ([2**52, 2**52], [2**52 - 7, 2**52 + 7]),  # n = 2**53
    ([3, 2**45, 2**44 + 9], [2**45 + 1, 2**44 + 11]),
    ([10**8 + 3, 10**8 - 1, 5], [2 * 10**8, 7]),
]


@pytest.mark.parametrize("rows, cols", MARGINS)
@pytest.mark.parametrize("index", ["rand", "adjusted_rand", "russel_rao", "wallace_x", "mirkin"])
def test_closed_form_moments_are_right_to_1e9_up_to_2_to_the_53(rows, cols, index):
    mean, var = _exact_index_moments(index, rows, cols)
    got = index_moments(index, rows, cols)
    assert got["var"] == pytest.approx(float(var), rel=1e-9)
    assert abs(got["mean"] - float(mean)) <= 1e-9 * abs(float(mean)) + 1e-12


def test_the_issue_table_has_its_exact_z():
    res = ca.agreement_test(HUGE, index="ari", method="hypergeometric")
    rows = cols = [2**40 + 1] * 2
    n, p, q, T = _pairs(rows, cols)
    a11 = 2 * (2**40 * (2**40 - 1) // 2)
    expected = Fraction(p * q, T)
    observed = (a11 - expected) / (Fraction(p + q, 2) - expected)
    mean, var = _exact_index_moments("adjusted_rand", rows, cols)
    z = float((observed - mean) / Fraction(math.isqrt(int(var * 10**60)), 10**30))
    assert math.isfinite(res.zscore) and res.zscore == pytest.approx(z, rel=1e-9)
    assert z > 1e12


def test_patefield_refuses_tables_its_sampler_gets_wrong():
    # scipy's sampler returned the extreme table every time for these margins
    with pytest.raises(ValueError, match=r"Patefield's sampler is used up to n = 1e\+08"):
        ca.nulls.random_tables([2**40 + 1] * 2, [2**40 + 1] * 2, n_sim=3, seed=1)
    with pytest.raises(ValueError, match=r"method='hypergeometric'"):
        ca.agreement_test(HUGE, index="ari", method="patefield", seed=1)
    # one table only is no sampling: allowed at any n
    assert ca.nulls.random_tables([2**40], [2**39, 2**39], n_sim=2, seed=1).tolist() == \
        [[[2**39, 2**39]]] * 2


def test_patefield_is_right_at_its_bound():
    # the 2 x 2 law at n = MAX_N: n11 is hypergeometric; 4,000 draws match its mean and sd
    m = MAX_N // 2
    tables = ca.nulls.random_tables([m, m], [m, m], n_sim=4000, seed=3)
    n11 = tables[:, 0, 0].astype(float)
    sd = math.sqrt(m * 0.5 * 0.5 * m / (2 * m - 1))
    assert abs(n11.mean() - m / 2) < 5 * sd / math.sqrt(4000)
    assert n11.std() == pytest.approx(sd, rel=0.06)


def test_exact_refuses_naming_the_budget_and_auto_falls_back_to_the_moments():
    with pytest.raises(ValueError, match=r"more than max_work=10,000,000"):
        ca.agreement_test(HUGE, index="ari", method="exact")
    res = ca.agreement_test(HUGE, index="ari", method="auto")
    assert res.method == "hypergeometric" and res.zscore > 1e12
    # an index with no closed-form moments: every method says why it cannot
    with pytest.raises(ValueError, match=r"exact: .*patefield: .*hypergeometric: "):
        ca.agreement_test(HUGE, index="jaccard", method="auto")


@pytest.mark.parametrize("kw", [dict(method="permutation"), dict(model="num",
                                                                   method="simulation")])
def test_object_samplers_refuse_what_memory_cannot_hold(kw):
    with pytest.raises(MemoryError, match=r"each draw relabels the n = 2,199,023,255,554"):
        ca.agreement_test(HUGE, index="ari", n_sim=10, seed=1, **kw)


@pytest.mark.parametrize("index", ["ari", "jaccard", "nmi", "mutual_info"])
def test_the_exact_size_estimate_refuses_cheaply(index):
    # 10 x 10, n = 10**4: the estimate once took 5-6 s and 360 MB before refusing
    tab = np.random.default_rng(1).multinomial(10**4, np.ones(100) / 100).reshape(10, 10)
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match="more than max_work"):
            ca.nulls.null_distribution(tab, index=index, method="exact")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.integers(0, 7), min_size=1, max_size=15), st.integers(0, 40),
       st.sampled_from([0, 1, 3, 20, 10**6]))
def test_bounded_composition_count_is_the_exact_count_up_to_its_limit(caps, total, limit):
    exact = count_compositions(tuple(caps), total)
    assert count_compositions_upto(caps, total, limit) == min(exact, limit + 1)


def test_bounded_composition_count_costs_nothing_at_any_n():
    t = time.perf_counter()
    assert count_compositions_upto([2**52] * 3, 2**52, 10**7) == 10**7 + 1
    assert count_compositions_upto([2**52, 1], 2**52, 10**7) == 2  # few, at any n
    assert count_compositions_upto([2**40] * 5, 7, 10**30) == math.comb(7 + 4, 4)
    assert time.perf_counter() - t < 5  # a guard against a loop over the total, not a timing


# ---------------------------------------------------------------------------------------------
# Long exact variances: predicted, refused past a budget the caller can raise, with progress
# ---------------------------------------------------------------------------------------------

def _table(K, n, seed=2):
    rng = np.random.default_rng(seed)
    return rng.multinomial(n, rng.dirichlet(np.ones(K * K))).reshape(K, K)


def test_a_long_exact_variance_is_refused_before_any_work_naming_its_time():
    from clusteragree._moments.mi_variance import SECONDS_PER_WORK, variance_work

    tab = _table(50, 10**6)  # the issue's 50 x 50 table with n = 10**6: once minutes, silent
    seconds = variance_work(tab.sum(axis=1), tab.sum(axis=0)) * SECONDS_PER_WORK
    assert seconds > 2  # seconds since the FFT
    budget = seconds / 4
    t = time.perf_counter()
    with pytest.raises(ValueError, match=r"would take about .* s \(predicted from the margins\)"
                                         rf", more than max_seconds={budget:g}"):
        ca.agreement_test(tab, index="smi",
                          method=ca.NullSpec(method="hypergeometric", max_seconds=budget))
    with pytest.raises(ValueError, match=r"pass max_seconds=\d+ to wait for it, or "
                                         r"moments='auto'"):
        ca.agreement(tab, index="smi", moments="exact", max_seconds=budget)
    assert time.perf_counter() - t < 5  # refused by the prediction, not after the work


def test_the_mean_alone_pays_no_variance():
    tab = _table(50, 10**6)
    # adjusting by the null mean needs no variance: no refusal, even with a tiny budget
    value = ca.adjust(tab, index="nmi",
                      method=ca.NullSpec(method="hypergeometric", max_seconds=1e-6))
    assert np.isfinite(value)


def test_auto_moments_keep_within_the_budget():
    tab = _table(10, 10**5)
    exact = ca.agreement(tab, index="smi", moments="exact")
    cheap = ca.agreement(tab, index="smi", max_seconds=1e-6)  # auto, over budget: asymptotic
    asym = ca.agreement(tab, index="smi", moments="asymptotic")
    assert cheap == asym and cheap != exact


def test_a_long_exact_variance_shows_its_progress(monkeypatch, capsys):
    from clusteragree._moments import mi_variance

    monkeypatch.setattr(mi_variance, "PROGRESS_SECONDS", 0.0)
    mi_variance.n_mi_variance([30, 20, 25], [40, 35])
    err = capsys.readouterr().err
    # one step a row of the shorter side (the sums run over pairs of rows of the table taken
    # with its rows the shorter side: here the 2 columns)
    assert "exact null variance (about" in err and "/2 [" in err


def test_max_seconds_is_checked_before_any_work():
    with pytest.raises(ValueError, match="max_seconds must be a positive number"):
        ca.NullSpec(method="hypergeometric", max_seconds=0)
    with pytest.raises(TypeError, match="max_seconds must be a positive number of seconds"):
        ca.NullSpec(max_seconds="60")


def test_chunked_moments_and_density_equal_numpy_and_scipy(monkeypatch):
    # Monte Carlo laws are summed in chunks so that using a law of 10**7 draws adds no copy
    # of it (peak memory: benchmarks/bench_memory.py); many chunks here, and a ragged last one
    from scipy import stats

    from clusteragree.nulls import _laws

    monkeypatch.setattr(_laws, "_CHUNK", 977)
    nd = ca.nulls.null_distribution([[30, 12, 8], [10, 25, 15], [5, 9, 36]], index="ari",
                                    method="patefield", n_sim=20_000, seed=4)
    s = nd.samples
    assert nd.var == pytest.approx(s.var(ddof=1), rel=1e-12)
    assert nd.skewness == pytest.approx(stats.skew(s, bias=False), rel=1e-10)
    x = nd.quantile(0.5)
    f = float(stats.gaussian_kde(s)(x)[0])
    assert nd.quantile_se(0.5) == pytest.approx(math.sqrt(0.25 / s.size) / f, rel=1e-10)
