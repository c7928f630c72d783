"""Random models beyond fixed margins (Gates & Ahn 2017): num, num1, all, all1.

Every reference value is computed here independently of the package: set partitions are listed
as restricted growth strings, their tables counted with numpy, and Rand, ARI, MI and NMI
evaluated by their textbook formulas on every pair of partitions; Stirling and Bell numbers come
from exact integer recurrences; Monte Carlo output is judged by chi-square tests.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

import clusteragree as ca
from clusteragree._moments.combinatorics import log_bell, log_stirling2
from clusteragree.nulls.partitions import (Side, _stirling_labels, _surjection_labels,
                                           mean_sums, random_partitions, sides_of)

# ---------------------------------------------------------------------------------------------
# Independent reference machinery
# ---------------------------------------------------------------------------------------------


def set_partitions(n, k=None):
    """Every partition of range(n) as a restricted growth string (numpy array (B, n))."""
    out = []

    def grow(prefix, top):
        if len(prefix) == n:
            if k is None or top + 1 == k:
                out.append(list(prefix))
            return
        for label in range(top + 2):
            grow(prefix + [label], max(top, label))

    grow([0], 0)
    return np.array(out, dtype=np.int64)


def stirling2(n, k):
    table = [[0] * (k + 1) for _ in range(n + 1)]
    table[0][0] = 1
    for m in range(1, n + 1):
        for j in range(1, k + 1):
            table[m][j] = j * table[m - 1][j] + table[m - 1][j - 1]
    return table[n][k]


def bell(n):
    return sum(stirling2(n, k) for k in range(n + 1))


def brute_indices(xs, ys):
    """Rand, ARI, MI (nats) and NMI (arithmetic) of every pair (xs[i], ys[j]), from their
    tables by the textbook formulas; returns a dict of 1-D arrays over all pairs."""
    n = xs.shape[1]
    K, Q = int(xs.max()) + 1, int(ys.max()) + 1
    out = {k: [] for k in ("rand", "adjusted_rand", "mutual_info", "nmi_sum")}
    for x in xs:  # all y at once for each x
        keys = np.arange(len(ys))[:, None] * (K * Q) + x[None, :] * Q + ys
        tab = np.bincount(keys.ravel(), minlength=len(ys) * K * Q).reshape(len(ys), K, Q)
        tab = tab.astype(float)
        a, b = tab.sum(axis=2), tab.sum(axis=1)
        T = n * (n - 1) / 2
        s11 = (tab * (tab - 1) / 2).sum(axis=(1, 2))
        p = (a * (a - 1) / 2).sum(axis=1)
        q = (b * (b - 1) / 2).sum(axis=1)
        out["rand"].append(1 + (2 * s11 - p - q) / T)
        e = p * q / T
        den = (p + q) / 2 - e
        ari = np.where(den == 0, np.where((p == q) & (s11 == p), 1.0, 0.0),
                       (s11 - e) / np.where(den == 0, 1, den))
        out["adjusted_rand"].append(ari)
        with np.errstate(divide="ignore", invalid="ignore"):
            pij = tab / n
            ratio = np.where(tab > 0, tab * n / (a[:, :, None] * b[:, None, :]), 1.0)
            mi = np.maximum((pij * np.log(ratio)).sum(axis=(1, 2)), 0.0)
            hx = -np.where(a > 0, a / n * np.log(np.where(a > 0, a / n, 1)), 0).sum(axis=1)
            hy = -np.where(b > 0, b / n * np.log(np.where(b > 0, b / n, 1)), 0).sum(axis=1)
        same = (np.count_nonzero(tab, axis=(1, 2)) == np.count_nonzero(a, axis=1)) & (
            np.count_nonzero(a, axis=1) == np.count_nonzero(b, axis=1))
        den = (hx + hy) / 2
        nmi = np.where(same, 1.0, np.where(den > 0, mi / np.where(den > 0, den, 1), 0.0))
        out["mutual_info"].append(mi)
        out["nmi_sum"].append(np.minimum(nmi, 1.0))
    return {k: np.concatenate(v) for k, v in out.items()}


def labels_of(sizes):
    return np.repeat(np.arange(len(sizes)), sizes)


# (model, x sizes, y sizes, partitions of x, partitions of y), x the fixed reference
CASES = {
    "num": ((3, 3, 2), (4, 4), lambda: (set_partitions(8, 3), set_partitions(8, 2))),
    "num1": ((3, 3, 3), (3, 3, 2, 1), lambda: (labels_of((3, 3, 3))[None, :],
                                                set_partitions(9, 4))),
    "all": ((2, 2, 2), (3, 3), lambda: (set_partitions(6), set_partitions(6))),
    "all1": ((3, 2, 2, 1), (4, 4), lambda: (labels_of((3, 2, 2, 1))[None, :],
                                             set_partitions(8))),
}
INDICES = ["rand", "adjusted_rand", "mutual_info", "nmi_sum"]


def observed_pair(xsizes, ysizes):
    """Two labellings with the given cluster sizes (the observed clusterings of a case)."""
    x = labels_of(xsizes)
    y = labels_of(ysizes)
    return x, np.random.default_rng(0).permutation(y)


# ---------------------------------------------------------------------------------------------
# Stirling and Bell numbers in log space
# ---------------------------------------------------------------------------------------------

def test_log_stirling_and_bell_equal_exact_integers():
    L = log_stirling2(300, 12)
    for n in (0, 1, 5, 40, 299, 300):
        for k in range(0, 13):
            s = stirling2(n, k)
            if s == 0:
                assert L[n, k] == -math.inf
            else:
                assert L[n, k] == pytest.approx(math.log(s), rel=1e-13, abs=1e-13)
    B = log_bell(200)
    for n in (0, 1, 2, 10, 57, 200):
        assert B[n] == pytest.approx(math.log(bell(n)), rel=1e-13, abs=1e-13)


def test_n_in_the_thousands_does_not_overflow():
    x = np.arange(5000) % 50
    y = (np.arange(5000) * 7 + 3) % 40
    nds = ca.nulls.null_distributions(x, ["rand", "mutual_info", "vi"], "exact", y=y,
                                      model="num")
    rand, mi, vi = (nds[k].mean for k in ("rand", "mutual_info", "variation_of_information"))
    assert all(math.isfinite(v) for v in (rand, mi, vi))
    # two random partitions into 50 and 40 blocks: Rand near 1 - 1/50 - 1/40 + 2/2000
    assert rand == pytest.approx(1 - 1 / 50 - 1 / 40 + 2 / 2000, abs=1e-3)
    assert vi == pytest.approx(np.log(50) + np.log(40) - 2 * mi, abs=0.01)
    # the exact E[MI] against random partitions drawn at that size
    sim = ca.nulls.null_distribution(x, y, index="mutual_info", method="simulation",
                                     model="num", n_sim=400, seed=11)
    assert abs(sim.mean - mi) < 4 * sim.mean_se


# ---------------------------------------------------------------------------------------------
# Exact means and laws against every partition
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("model", list(CASES))
def test_exact_means_equal_brute_force_averages_over_every_partition(model):
    xsizes, ysizes, parts = CASES[model]
    xs, ys = parts()
    brute = brute_indices(xs, ys)
    x, y = observed_pair(xsizes, ysizes)
    nds = ca.nulls.null_distributions(x, INDICES, "exact", y=y, model=model)
    for name in INDICES:
        assert nds[name].is_exact
        assert nds[name].mean == pytest.approx(brute[name].mean(), rel=1e-10, abs=1e-12), name
    # the closed forms (what large n gets) agree with both
    sums = mean_sums(*sides_of(model, xsizes, ysizes))
    for name in ("rand", "mutual_info"):
        rec = ca.get_index(name)
        assert rec.func(rec.mean_state(sums)) == pytest.approx(brute[name].mean(), rel=1e-10)


def test_brute_force_reference_agrees_with_scikit_learn():
    from sklearn import metrics

    xs, ys = set_partitions(6, 3)[::7], set_partitions(6)[::11]
    brute = brute_indices(xs, ys)
    i = 0
    for x in xs:
        for y in ys:
            assert brute["rand"][i] == pytest.approx(metrics.rand_score(x, y))
            assert brute["adjusted_rand"][i] == pytest.approx(
                metrics.adjusted_rand_score(x, y), abs=1e-12)
            assert brute["mutual_info"][i] == pytest.approx(
                metrics.mutual_info_score(x, y), abs=1e-12)
            if len(set(x)) > 1 and len(set(y)) > 1:
                assert brute["nmi_sum"][i] == pytest.approx(
                    metrics.normalized_mutual_info_score(x, y), abs=1e-12)
            i += 1


@pytest.mark.parametrize("model", ["num", "num1", "all", "all1"])
def test_exact_law_equals_the_brute_force_law(model):
    xsizes, ysizes, parts = CASES[model]
    xs, ys = parts()
    values = np.round(brute_indices(xs, ys)["nmi_sum"], 9)
    support, counts = np.unique(values, return_counts=True)
    x, y = observed_pair(xsizes, ysizes)
    nd = ca.nulls.null_distribution(x, y, index="nmi_sum", method="exact", model=model)
    assert np.allclose(nd.values, support, atol=1e-8)
    assert np.allclose(nd.probabilities, counts / counts.sum(), rtol=1e-9)


def test_closed_form_means_hold_where_nothing_can_be_listed():
    # n = 40 has too many size profiles to list: Rand and MI come from the closed forms; they
    # must equal Gates & Ahn's expected Rand index, computed here with exact integers
    n, K, Q = 40, 3, 5
    x, y = np.arange(n) % K, np.arange(n) % Q
    nd = ca.nulls.null_distribution(x, y, index="rand", method="exact", model="num")
    assert not nd.is_exact
    px = Fraction(stirling2(n - 1, K), stirling2(n, K))
    py = Fraction(stirling2(n - 1, Q), stirling2(n, Q))
    assert nd.mean == pytest.approx(float(px * py + (1 - px) * (1 - py)), rel=1e-12)
    # one-sided: the reference's own share of pairs together
    p = Fraction(sum(math.comb(int(a), 2) for a in np.bincount(x)), math.comb(n, 2))
    nd1 = ca.nulls.null_distribution(x, y, index="rand", method="exact", model="num1")
    assert nd1.mean == pytest.approx(float(p * py + (1 - p) * (1 - py)), rel=1e-12)
    ri = ca.agreement(x, y, index="rand")
    one_sided_ari = (ri - nd1.mean) / (1 - nd1.mean)
    assert ca.adjust(x, y, index="rand", model="num1", method="exact") == pytest.approx(
        one_sided_ari, rel=1e-12)


def test_fixed_sides_reproduce_the_permutation_closed_forms():
    rows, cols = [50, 30, 7], [40, 40, 7]
    sums = mean_sums(Side("fixed", 87, 3, tuple(rows)), Side("fixed", 87, 3, tuple(cols)))
    emi = ca.indices.information.expected_mutual_info(rows, cols)
    assert sums["mi"] == pytest.approx(emi, rel=1e-12)
    hyper = ca.nulls.index_moments("rand", rows, cols)["mean"]
    assert ca.get_index("rand").func(ca.get_index("rand").mean_state(sums)) == pytest.approx(
        hyper, rel=1e-13)


def test_reference_y_keeps_y_fixed():
    x, y = observed_pair((3, 3, 2), (4, 2, 2))
    a = ca.nulls.null_distribution(x, y, index="wallace_x",
                                   method=ca.NullSpec("exact", model="num1", reference="y"))
    b = ca.nulls.null_distribution(y, x, index="wallace_y", method="exact", model="num1")
    assert np.allclose(a.values, b.values) and np.allclose(a.probabilities, b.probabilities)


# ---------------------------------------------------------------------------------------------
# Samplers and Monte Carlo laws
# ---------------------------------------------------------------------------------------------

def _canonical(labels):
    """Restricted growth string of each row (labels renamed in order of first appearance)."""
    out = np.empty_like(labels)
    for i, row in enumerate(labels):
        _, first, inv = np.unique(row, return_index=True, return_inverse=True)
        rank = np.argsort(np.argsort(first))
        out[i] = rank[inv]
    return out


@pytest.mark.parametrize("draw, n, k, count", [
    (lambda m, rng: _stirling_labels(6, 3, m, rng), 6, 3, 90),
    (lambda m, rng: _surjection_labels(6, 3, m, rng), 6, 3, 90),
    (lambda m, rng: random_partitions(Side("all", 6), m, rng), 6, None, 203),
    (lambda m, rng: random_partitions(Side("num", 7, 5), m, rng), 7, 5, 140),
])
def test_samplers_are_uniform_over_the_partitions(draw, n, k, count):
    rng = np.random.default_rng(123)
    canon = _canonical(draw(60 * count, rng))
    every = set_partitions(n, k)
    assert len(every) == count
    where = {tuple(p): i for i, p in enumerate(every.tolist())}
    freq = np.bincount([where[tuple(r)] for r in canon.tolist()], minlength=count)
    assert stats.chisquare(freq).pvalue > 1e-3


@pytest.mark.parametrize("model", ["perm", "num", "num1", "all", "all1"])
def test_simulated_laws_agree_with_the_exact_laws(model):
    xsizes, ysizes, _ = CASES["num" if model == "perm" else model]
    x, y = observed_pair(xsizes, ysizes)
    exact = ca.nulls.null_distribution(x, y, index="rand", method="exact", model=model)
    sim = ca.nulls.null_distribution(x, y, index="rand", method="simulation", model=model,
                                     n_sim=20_000, seed=7)
    assert abs(sim.mean - exact.mean) < 4 * sim.mean_se
    idx = np.searchsorted(exact.values, sim.samples - 1e-9)
    assert np.allclose(exact.values[idx], sim.samples, atol=1e-9)
    freq = np.bincount(idx, minlength=len(exact.values))
    expected = exact.probabilities * len(sim.samples)
    big = expected >= 5  # pool the sparse tail into one bin
    f = np.append(freq[big], freq[~big].sum())
    e = np.append(expected[big], expected[~big].sum())
    keep = e > 0
    assert stats.chisquare(f[keep], e[keep]).pvalue > 1e-3


def test_simulation_of_a_large_model_matches_the_closed_form_mean():
    x = np.arange(2000) % 20
    y = (np.arange(2000) * 3) % 15
    mi = ca.nulls.null_distribution(x, y, index="mutual_info", method="exact", model="num")
    assert not mi.is_exact  # n = 2,000: the closed form, not a listed law
    sim = ca.nulls.null_distribution(x, y, index="mutual_info", method="simulation",
                                     model="num", n_sim=300, seed=3)
    assert sim.n_sim == 300 and abs(sim.mean - mi.mean) < 4 * sim.mean_se


# ---------------------------------------------------------------------------------------------
# Errors before work
# ---------------------------------------------------------------------------------------------

X, Y = [0, 0, 1, 1, 2, 2], [0, 1, 1, 0, 2, 2]


def test_unknown_model_and_unsupported_method_name_both():
    with pytest.raises(ValueError, match=r"model must be one of .* got 'numb'.*'num'"):
        ca.agreement_test(X, Y, index="rand", model="numb")
    with pytest.raises(ValueError, match=r"method='patefield' is not available under "
                                         r"model='num'.*\['exact', 'simulation', 'auto'\]"):
        ca.agreement_test(X, Y, index="rand", model="num", method="patefield")


def test_reference_and_model_misuse():
    with pytest.raises(ValueError, match=r"reference= names the clustering a one-sided model"):
        ca.adjust(X, Y, index="rand", method=ca.NullSpec("exact", model="num", reference="x"))
    with pytest.raises(ValueError, match=r"reference must be one of \['x', 'y'\]"):
        ca.adjust(X, Y, index="rand", method=ca.NullSpec("exact", model="num1", reference="z"))
    U = np.eye(3)[X] * 0.8 + 0.1
    U /= U.sum(axis=1, keepdims=True)
    with pytest.raises(ValueError, match=r"model='num' .* is a random model of partitions; "
                                         r"index 'agri'"):
        ca.agreement_test(U, U, index="agri", model="num")


def test_no_closed_form_and_too_large_is_refused_in_milliseconds():
    import time

    x, y = np.arange(300) % 4, np.arange(300) % 5
    t = time.perf_counter()
    with pytest.raises(ValueError, match=r"indices \['adjusted_rand'\] have no closed-form "
                                         r"mean under model='num'.*method='simulation'"):
        ca.nulls.null_distribution(x, y, index="ari", method="exact", model="num")
    assert time.perf_counter() - t < 1.0


def test_auto_takes_the_exact_law_when_small_and_simulation_otherwise():
    small = ca.agreement_test(X, Y, index="ari", model="num", method="auto", seed=1)
    assert small.null.is_exact and small.null.details["auto"]
    x, y = np.arange(300) % 4, np.arange(300) % 5
    big = ca.agreement_test(x, y, index="ari", model="num", method="auto", n_sim=200, seed=1)
    assert big.method == "simulation" and big.null.n_sim == 200
    assert "chosen by method='auto'" in str(big)
