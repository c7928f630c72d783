"""The interval methods "jackknife" and "auto": each rule against an independent computation."""

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import clusteragree as ca
from clusteragree.inputs import as_clusterings
from clusteragree.intervals.jackknife import jackknife_interval, scale_of
from clusteragree.intervals.rules import (cuts_at_independence, equal_sizes,
                                         independence_value, independence_value_se,
                                         invert_independence_test, off_matching_bound,
                                         on_matching, perfect_bound)
from clusteragree.intervals import independence_laws, interval_from_draws, intervals_of


def _labels(table):
    """Object labels (x, y) of a table."""
    table = np.asarray(table)
    x, y = [], []
    for i in range(table.shape[0]):
        for j in range(table.shape[1]):
            x += [i] * int(table[i, j])
            y += [j] * int(table[i, j])
    return np.array(x), np.array(y)


@pytest.mark.parametrize("index", ["adjusted_rand", "jaccard", "nmi_sum",
                                   "variation_of_information"])
def test_jackknife_matches_a_direct_loop_over_the_objects(index):
    table = np.array([[12, 3, 1], [2, 9, 4], [1, 2, 10]])
    x, y = _labels(table)
    n = x.size
    theta = ca.agreement(x, y, index=index)
    loo = np.array([ca.agreement(np.delete(x, i), np.delete(y, i), index=index)
                    for i in range(n)])
    ps = n * theta - (n - 1) * loo
    se = ps.std(ddof=1) / math.sqrt(n)
    t = stats.t.ppf(0.975, n - 1)
    ci = ca.confidence_interval(table, index=index, method="jackknife")
    assert ci.method == "jackknife" and ci.n_resamples == 0
    lo, hi = ca.get_index(index).range  # the interval is clipped to the index's range
    assert ci.low == pytest.approx(max(lo, ps.mean() - t * se), rel=1e-9, abs=1e-12)
    assert ci.high == pytest.approx(min(hi, ps.mean() + t * se), rel=1e-9, abs=1e-12)
    assert ci.standard_error == pytest.approx(se, rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["rand", "adjusted_rand", "variation_of_information", "mutual_info",
                        "nmi_max"]), st.floats(0.01, 0.99))
def test_scale_maps_the_range_onto_the_line_and_back(index, u):
    rec = ca.get_index(index)
    lo, hi = rec.range
    v = lo + u * (hi - lo) if math.isfinite(hi) else lo + u * 10
    s = scale_of(rec)
    assert float(s.inverse(s.forward(v))) == pytest.approx(v, rel=1e-9, abs=1e-12)
    assert s.forward(v + 1e-3) > s.forward(v)  # increasing


@pytest.mark.parametrize("index", ["rand", "adjusted_rand", "jaccard", "fowlkes_mallows",
                                   "nmi_sum", "nmi_max", "variation_of_information",
                                   "mutual_info"])
def test_independence_value_is_the_index_of_the_independent_population(index):
    table = np.array([[30, 20, 5], [10, 40, 15]])
    r, c = table.sum(1) / table.sum(), table.sum(0) / table.sum()
    big = np.rint(np.outer(r, c) * 1e8).astype(np.int64)  # the population, up to 1e-8
    expected = ca.agreement(big, index=index)
    assert independence_value(ca.get_index(index), {}, table) == pytest.approx(
        expected, abs=1e-6)


def test_independence_value_is_zero_for_the_indices_adjusted_by_their_exact_mean():
    table = np.array([[30, 20, 5], [10, 40, 15]])
    assert independence_value(ca.get_index("adjusted_mutual_info"), {}, table, 0.003) == 0.0
    assert independence_value(ca.get_index("kappa"), {}, table, 0.1) == 0.1  # its null mean


def test_test_inversion_contains_the_value_iff_the_test_does_not_reject():
    ari, vi = ca.get_index("adjusted_rand"), ca.get_index("variation_of_information")
    assert invert_independence_test(ari, 0.02, 0.3, 0.2, 0.95, 0.0) == (
        0.0, 0.3, "both", "contains")
    assert invert_independence_test(ari, -0.01, 0.3, 0.01, 0.95, 0.0) == (
        0.0, 0.3, "right", "excludes")
    assert invert_independence_test(ari, 0.05, 0.3, 0.01, 0.95, 0.0) == (
        0.05, 0.3, "both", "excludes")
    # a distance: independence is its largest value, cut from above
    assert invert_independence_test(vi, 0.5, 1.5, 0.01, 0.95, 1.2) == (
        0.5, 1.2, "left", "excludes")
    assert invert_independence_test(ari, 0.1, 0.3, math.nan, 0.95, 0.0)[3] == ""


@pytest.mark.parametrize("index", ["adjusted_rand", "nmi_sum", "rand"])
def test_auto_contains_the_independence_value_iff_the_exact_test_accepts(index):
    """Test inversion against the exact law: over tables near independence, the interval
    holds the independence value exactly when the exact one-sided p-value exceeds alpha."""
    rng = np.random.default_rng(3)
    rec = ca.get_index(index)
    seen = set()
    for _ in range(40):
        table = rng.multinomial(40, np.full(4, 0.25)).reshape(2, 2) + np.eye(2, dtype=int) * \
            rng.integers(0, 6)
        if (table.sum(0) == 0).any() or (table.sum(1) == 0).any():
            continue
        law = ca.nulls.null_distribution(table, index=index, method="exact")
        theta = ca.agreement(table, index=index)
        p = law.pvalue(theta, "greater")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ci = ca.confidence_interval(table, index=index, method="auto")
        if ci.method.startswith("exact bound"):
            continue
        value = independence_value(rec, {}, table)
        assert ci.independence_pvalue == pytest.approx(p, rel=1e-12)
        if p > 0.05:
            assert ci.contains(value), (table.tolist(), p, ci)
        elif cuts_at_independence(rec, {}, table, 0.95):
            assert not ci.contains(value), (table.tolist(), p, ci)
        seen.add(p > 0.05)
    assert seen == {True, False}  # both branches were exercised


def test_the_cut_rule_cuts_margin_free_values_and_margin_dependent_ones_at_equal_sizes():
    equal, unequal = np.array([[40, 11], [9, 40]]), np.array([[70, 5], [10, 15]])
    ari, rand, vi = (ca.get_index(i) for i in ("adjusted_rand", "rand",
                                               "variation_of_information"))
    assert equal_sizes(equal, 0.95) and not equal_sizes(unequal, 0.95)
    assert cuts_at_independence(ari, {}, unequal, 0.95)  # 0 whatever the sizes
    assert cuts_at_independence(rand, {}, equal, 0.95)
    assert not cuts_at_independence(rand, {}, unequal, 0.95)
    assert not cuts_at_independence(vi, {}, unequal, 0.95)
    ci = ca.confidence_interval(unequal, index="rand")
    assert "not cut off" in ci.note and ci.closed == "both"
    assert math.isnan(independence_value_se(ca.get_index("kappa"), {}, unequal))


def test_off_matching_bound_is_scipys_exact_one_sided_bound():
    for n in (5, 50, 1234):
        ci = stats.binomtest(0, n, alternative="less").proportion_ci(0.95, method="exact")
        assert off_matching_bound(n, 0.95) == pytest.approx(ci.high, rel=1e-12)


def test_perfect_table_gets_the_exact_one_sided_bound():
    table = np.array([[0, 20, 0], [15, 0, 0], [0, 0, 15]])
    assert on_matching(table) and not on_matching([[5, 1], [0, 7]])
    ci = ca.confidence_interval(table, index="adjusted_rand")
    assert ci.method == "exact bound at perfect agreement" and ci.high == 1.0
    # the least ARI of the candidate populations, computed here by hand
    eps = 1 - 0.05 ** (1 / 50)
    w = np.array([20, 15, 15]) / 50
    worst = math.inf
    for i in range(3):
        for j in range(3):
            if i != j:
                p = np.diag(w * (1 - eps))
                p[i, j] += eps
                A, B, S = (p.sum(1) ** 2).sum(), (p.sum(0) ** 2).sum(), (p ** 2).sum()
                worst = min(worst, (S - A * B) / ((A + B) / 2 - A * B))
    off = np.outer(w, w)
    np.fill_diagonal(off, 0)
    p = np.diag(w * (1 - eps)) + eps * off / off.sum()
    A, B, S = (p.sum(1) ** 2).sum(), (p.sum(0) ** 2).sum(), (p ** 2).sum()
    worst = min(worst, (S - A * B) / ((A + B) / 2 - A * B))
    assert ci.low == pytest.approx(worst, abs=1e-5)  # 10^6 objects: rounding below 1e-5
    assert ci.low == perfect_bound(ca.get_index("adjusted_rand"), {}, table, 0.95)
    assert "one-sided" in ci.note
    vi = ca.confidence_interval(table, index="variation_of_information")
    assert vi.low == 0.0 and vi.high > 0  # a distance: bounded above


def test_degenerate_jackknife_is_na_with_its_reason():
    table = np.array([[10, 0], [0, 10]])
    with pytest.warns(UserWarning, match="no spread"):
        ci = ca.confidence_interval(table, index="rand", method="jackknife")
    assert math.isnan(ci.low) and "no spread" in ci.reason
    one = np.array([[10, 0], [0, 0]])
    with pytest.warns(UserWarning, match="same partition"):
        ci = ca.confidence_interval(one, index="rand", method="auto")
    assert math.isnan(ci.high) and "one cluster" in ci.reason


def test_auto_from_draws_is_the_packages_interval():
    table = np.array([[20, 6, 2], [4, 18, 5], [3, 2, 25]])
    recs = [ca.get_index("adjusted_rand"), ca.get_index("variation_of_information")]
    opts = {r.name: {} for r in recs}
    cl = as_clusterings(table)
    laws = independence_laws(cl, recs, opts, np.random.default_rng(0))
    cis = intervals_of(cl, recs, opts, ca.IntervalSpec(n_resamples=2, seed=0), laws=laws)
    for rec in recs:
        rows, cols = np.nonzero(table)
        loo = []
        for i, j in zip(rows, cols):
            t = table.copy()
            t[i, j] -= 1
            loo.append(ca.agreement(t, index=rec.name))
        again = interval_from_draws(rec, ca.agreement(table, index=rec.name), None,
                                    (np.array(loo), table[rows, cols]), method="auto",
                                    law=laws[rec.name], table=table)
        assert (again.low, again.high, again.closed) == (
            cis[rec.name].low, cis[rec.name].high, cis[rec.name].closed)
        assert "independence" in again.method


def test_rescaled_jackknife_stays_inside_the_range_and_widens_towards_the_bias():
    rec = ca.get_index("nmi_sum")
    values = np.array([0.95, 0.97, 0.99, 0.96])
    plain = jackknife_interval(rec, 0.97, values, np.ones(4), 0.95)
    scaled = jackknife_interval(rec, 0.97, values, np.ones(4), 0.95, rescaled=True)
    assert scaled.scale == "atanh" and 0 <= scaled.low and scaled.high <= 1
    assert plain.scale == "identity"


def test_an_interval_that_leaves_out_its_own_estimate_says_why():
    """VI near independence: the plug-in entropies are biased downwards by about (K-1)/(2n);
    the bias-corrected interval may start above the estimate, and its note says so."""
    table = np.array([[13, 12], [12, 13]])
    ci = ca.confidence_interval(table, index="variation_of_information")
    value = independence_value(ca.get_index("variation_of_information"), {}, table)
    assert ci.contains(value)                           # the test accepts: log 4 is in
    assert not ci.contains(ci.statistic)
    assert "excludes the estimate" in ci.note
    nmi = ca.confidence_interval(table, index="nmi_sum")  # and NMI stops at its bound
    assert nmi.low == 0.0 and "one-sided" in nmi.note


@pytest.mark.parametrize("average,twin", [("arithmetic", "nmi_sum"), ("geometric", "nmi_sqrt"),
                                          ("min", "nmi_min"), ("max", "nmi_max")])
def test_ami_once_independence_is_rejected_takes_the_interval_of_its_population_twin(
        average, twin):
    # AMI's expected MI vanishes as n grows, so its population value is the NMI's of the same
    # mean: once the test rejects independence, AMI's interval is the NMI's jackknife interval
    # (bounds equal to the NMI's own "auto" interval, which targets the same value).
    table = np.array([[30, 5, 2], [4, 25, 3], [1, 2, 20]])
    ami = ca.confidence_interval(table, index="ami", method="auto", average=average)
    nmi = ca.confidence_interval(table, index=twin, method="auto")
    assert ami.independence_pvalue < 0.05
    assert (ami.low, ami.high, ami.closed) == (nmi.low, nmi.high, nmi.closed)
    assert ami.standard_error == nmi.standard_error
    assert f"made from {twin}'s jackknife" in ami.note
    assert ami.statistic == pytest.approx(ca.agreement(table, index="ami", average=average))


def test_ami_keeps_its_own_jackknife_where_independence_is_not_rejected():
    table = np.array([[10, 9], [9, 10]])
    ami = ca.confidence_interval(table, index="ami", method="auto")
    values = []
    for i, j in zip(*np.nonzero(table)):
        t = table.copy()
        t[i, j] -= 1
        values += [ca.agreement(t, index="ami")] * int(table[i, j])
    n = table.sum()
    pseudo = n * ami.statistic - (n - 1) * np.array(values)
    assert ami.independence_pvalue > 0.05
    assert "made from" not in ami.note
    assert ami.standard_error == pytest.approx(np.std(pseudo, ddof=1) / np.sqrt(n), rel=1e-9)


def test_rescaled_jackknife_of_an_unbiased_index_is_not_widened():
    """Rand's pair counts are U-statistics: the jackknife's bias correction of Rand is 0
    (to rounding), so the rescaled interval is g^-1(zbar -/+ t s) with nothing added, while
    NMI's (biased) is widened by its correction carried to the scale."""
    table = np.array([[14, 3, 1], [2, 12, 2], [1, 2, 11]])
    rows, cols = np.nonzero(table)
    n = int(table.sum())
    t = stats.t.ppf(0.975, n - 1)
    for name, widened in (("rand", False), ("nmi_sum", True)):
        rec = ca.get_index(name)
        loo = []
        for i, j in zip(rows, cols):
            u = table.copy()
            u[i, j] -= 1
            loo.append(ca.agreement(u, index=name))
        loo, w = np.array(loo), table[rows, cols].astype(float)
        est = ca.agreement(table, index=name)
        ji = jackknife_interval(rec, est, loo, w, 0.95, rescaled=True)
        z, zl = np.arctanh(2 * est - 1), np.arctanh(2 * loo - 1)
        ps = n * z - (n - 1) * zl
        zbar = np.sum(w * ps) / n
        s = np.sqrt(np.sum(w * (ps - zbar) ** 2) / (n * (n - 1)))
        bare = ((np.tanh(zbar - t * s) + 1) / 2, (np.tanh(zbar + t * s) + 1) / 2)
        if widened:
            assert ji.low < bare[0] - 1e-3 and ji.high == pytest.approx(bare[1], abs=1e-12)
        else:
            assert (ji.low, ji.high) == pytest.approx(bare, abs=1e-12)
