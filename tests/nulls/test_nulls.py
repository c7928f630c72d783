"""Statistical tests of ``clusteragree.nulls``: exact laws, closed forms, Monte Carlo nulls,
p-values and chance adjustment.

Every reference value here is computed independently of the package: tables are enumerated by a
plain recursion (or ``itertools.product``), their probabilities come from the generalized
hypergeometric formula in exact rational arithmetic (``math.factorial`` and ``fractions``), and
Monte Carlo output is judged by goodness-of-fit tests against those exact laws. Printed values
come from the thesis: Amorim, M. J. (2015), "On clustering stability", PhD thesis, ISCTE -
University Institute of Lisbon. All randomness is seeded.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
import statistics
import time
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import clusteragree as ca
from clusteragree.indices import REGISTRY, TableIndex, evaluate
from clusteragree.nulls import (count_tables, enumerate_tables, moments_of_s, n_sim_for,
                                null_distribution, null_distributions, statistic_law)
from clusteragree.nulls.hypergeometric import index_moments

TABLE_6A = [[30, 20], [10, 20]]  # Amorim 2015, Ch.2 Table 6a (margins (50, 30) x (40, 40))


# ---------------------------------------------------------------------------------------------
# Independent reference machinery
# ---------------------------------------------------------------------------------------------

class _TooMany(Exception):
    pass


def _vectors(total, caps):
    """All tuples v with 0 <= v_j <= caps_j and sum v = total (plain recursion)."""
    if len(caps) == 1:
        if 0 <= total <= caps[0]:
            yield (total,)
        return
    rest = sum(caps[1:])
    for v in range(max(0, total - rest), min(total, caps[0]) + 1):
        for tail in _vectors(total - v, caps[1:]):
            yield (v,) + tail


def brute_tables(rows, cols, cap=None):
    """Every table with the margins, filled row by row (the last row is what is left)."""
    rows, cols = [int(r) for r in rows], [int(c) for c in cols]
    assert sum(rows) == sum(cols)
    out = []

    def rec(i, colrem, acc):
        if i == len(rows) - 1:
            assert sum(colrem) == rows[-1]
            out.append(tuple(acc) + (tuple(colrem),))
            if cap is not None and len(out) > cap:
                raise _TooMany
            return
        for v in _vectors(rows[i], colrem):
            rec(i + 1, tuple(c - x for c, x in zip(colrem, v)), acc + [v])

    rec(0, tuple(cols), [])
    return out


def naive_count(rows, cols):
    """Count tables by trying every cell value (itertools.product): only for tiny margins."""
    K, Q = len(rows), len(cols)
    ranges = [range(min(rows[i], cols[j]) + 1) for i in range(K) for j in range(Q)]
    count = 0
    for cells in itertools.product(*ranges):
        m = [cells[i * Q:(i + 1) * Q] for i in range(K)]
        if all(sum(m[i]) == rows[i] for i in range(K)) and all(
                sum(m[i][j] for i in range(K)) == cols[j] for j in range(Q)):
            count += 1
    return count


def ghg_probability(table, rows, cols) -> Fraction:
    """prod a_i! prod b_j! / (n! prod n_ij!) as an exact fraction (Amorim 2015, App. A eq 5)."""
    num = math.prod(math.factorial(a) for a in rows) * math.prod(math.factorial(b) for b in cols)
    den = math.factorial(sum(rows)) * math.prod(math.factorial(c) for r in table for c in r)
    return Fraction(num, den)


class BruteLaw:
    """All tables with given margins and their exact probabilities."""

    def __init__(self, rows, cols, cap=None):
        self.rows, self.cols = [int(r) for r in rows], [int(c) for c in cols]
        self.tuples = brute_tables(self.rows, self.cols, cap)
        self.exact = [ghg_probability(t, self.rows, self.cols) for t in self.tuples]
        self.probs = np.array([float(p) for p in self.exact])
        self.tables = np.array(self.tuples, dtype=np.int64).reshape(
            len(self.tuples), len(self.rows), len(self.cols))

    def index_values(self, index, **options):
        return np.asarray(evaluate(index, self.tables, **options), dtype=float)

    def law_of(self, values, decimals=10):
        """Distinct values (rounded to group float noise) with their summed probabilities."""
        keys = np.round(np.asarray(values, dtype=float), decimals)
        support = np.unique(keys)
        probs = np.array([self.probs[keys == k].sum() for k in support])
        return support, probs


def random_margins(rng, kmax, qmax, nmin, nmax):
    K = int(rng.integers(1, kmax + 1))
    Q = int(rng.integers(1, qmax + 1))
    n = int(rng.integers(max(nmin, K, Q), nmax + 1))
    rows = 1 + rng.multinomial(n - K, rng.dirichlet(np.ones(K) * rng.choice([0.5, 2.0, 10.0])))
    cols = 1 + rng.multinomial(n - Q, rng.dirichlet(np.ones(Q) * rng.choice([0.5, 2.0, 10.0])))
    return [int(r) for r in rows], [int(c) for c in cols]


def margin_laws(seed, how_many, kmax, qmax, nmin, nmax, cap, extra=()):
    """``how_many`` random margin sets whose enumeration has at most ``cap`` tables."""
    rng = np.random.default_rng(seed)
    out = [BruteLaw(r, c) for r, c in extra]
    while len(out) < how_many:
        rows, cols = random_margins(rng, kmax, qmax, nmin, nmax)
        try:
            out.append(BruteLaw(rows, cols, cap))
        except _TooMany:
            continue
    return out


EDGE_MARGINS = [([5], [2, 3]), ([2, 3], [5]), ([1, 1, 1, 1], [1, 1, 1, 1]), ([3, 3], [3, 3]),
                ([4, 1], [1, 1, 1, 1, 1]), ([2, 2, 2], [3, 3]), ([6, 1, 1], [2, 2, 2, 2])]


@functools.lru_cache(maxsize=None)
def small_laws():
    """Laws for the closed-form tests: 200 margin sets, n <= 12, K, Q <= 4."""
    return margin_laws(2024, 200, 4, 4, 2, 12, 400, EDGE_MARGINS)


def chisquare_pooled(observed, expected_probs, min_expected=5.0):
    """Chi-square goodness of fit, pooling the rarest cells until every expected count >= 5."""
    observed = np.asarray(observed, dtype=float)
    expected = np.asarray(expected_probs, dtype=float) * observed.sum()
    order = np.argsort(expected, kind="stable")
    obs_bins, exp_bins = [], []
    acc_o = acc_e = 0.0
    for i in order:
        acc_o += observed[i]
        acc_e += expected[i]
        if acc_e >= min_expected:
            obs_bins.append(acc_o)
            exp_bins.append(acc_e)
            acc_o = acc_e = 0.0
    if acc_e > 0 or acc_o > 0:  # leftover mass (the largest cells come last: never happens
        obs_bins[-1] += acc_o   # unless everything is tiny) goes into the last bin
        exp_bins[-1] += acc_e
    assert len(obs_bins) >= 3, "too few bins for a meaningful test"
    return stats.chisquare(obs_bins, exp_bins).pvalue, len(obs_bins)


def rand_fraction(table) -> Fraction:
    """The Rand index of a table as an exact fraction, from its pair counts."""
    cells = [c for r in table for c in r]
    n = sum(cells)
    rows = [sum(r) for r in table]
    cols = [sum(c) for c in zip(*table)]
    pairs = math.comb(n, 2)
    a11 = sum(math.comb(c, 2) for c in cells)
    a00 = pairs - sum(math.comb(a, 2) for a in rows) - sum(math.comb(b, 2) for b in cols) + a11
    return Fraction(a11 + a00, pairs)


# ---------------------------------------------------------------------------------------------
# 1. Enumeration
# ---------------------------------------------------------------------------------------------

def test_count_tables_equals_itertools_product_on_tiny_margins():
    rng = np.random.default_rng(1)
    seen = 0
    for _ in range(60):
        rows, cols = random_margins(rng, 3, 3, 1, 7)
        if math.prod(min(a, b) + 1 for a in rows for b in cols) > 50_000:
            continue
        assert count_tables(rows, cols) == naive_count(rows, cols), (rows, cols)
        seen += 1
    assert seen >= 40


def test_count_tables_equals_recursive_enumeration():
    rng = np.random.default_rng(2)
    for _ in range(120):
        rows, cols = random_margins(rng, 4, 4, 1, 14)
        try:
            expected = len(brute_tables(rows, cols, cap=20_000))
        except _TooMany:
            continue
        assert count_tables(rows, cols) == expected, (rows, cols)
        # the margins' order and the transpose do not matter
        assert count_tables(cols[::-1], rows) == expected


def test_count_tables_limit_returns_limit_plus_one_only_above_it():
    rng = np.random.default_rng(3)
    for _ in range(60):
        rows, cols = random_margins(rng, 4, 4, 2, 12)
        try:
            true = len(brute_tables(rows, cols, cap=5000))
        except _TooMany:
            continue
        for limit in (1, max(1, true - 1), true, true + 1, 10 * true):
            got = count_tables(rows, cols, limit=limit)
            assert got == (true if true <= limit else limit + 1), (rows, cols, limit)


def test_enumerate_tables_lists_each_table_once_with_hypergeometric_probability():
    laws = margin_laws(4, 60, 4, 4, 1, 12, 3000, EDGE_MARGINS)
    for law in laws:
        tables, probs = enumerate_tables(law.rows, law.cols)
        K, Q = len(law.rows), len(law.cols)
        assert tables.shape == (len(law.tuples), K, Q)
        listed = [tuple(map(tuple, t)) for t in tables.tolist()]
        assert len(set(listed)) == len(listed), "a table is listed twice"
        assert set(listed) == set(law.tuples)
        assert (tables.sum(axis=2) == law.rows).all() and (tables.sum(axis=1) == law.cols).all()
        assert (tables >= 0).all()
        exact = dict(zip(law.tuples, law.exact))
        for t, p in zip(listed, probs):
            assert p == pytest.approx(float(exact[t]), rel=1e-12, abs=1e-15)
        assert probs.sum() == pytest.approx(1.0, abs=1e-12)
        assert sum(law.exact) == 1  # the formula itself sums to exactly 1


def test_count_tables_limit_is_exact_for_many_singleton_rows():
    rows, cols = [1] * 12, [11, 1]
    true = len(brute_tables(rows, cols))
    assert true == 12 and count_tables(rows, cols) == 12
    assert count_tables(rows, cols, limit=100) == true


def test_enumeration_of_few_tables_with_many_singleton_rows():
    rows, cols = [1] * 20, [19, 1]
    tables, probs = enumerate_tables(rows, cols)
    assert len(tables) == len(brute_tables(rows, cols)) == 20
    np.testing.assert_allclose(probs, 1 / 20, rtol=1e-12)
    table = [[1, 0]] * 19 + [[0, 1]]
    nd = null_distribution(table, index="purity", method="exact")
    # each cluster's best class holds one object: every table has purity 2/20
    assert nd.values.tolist() == pytest.approx([0.1]) and nd.probabilities.tolist() == [1.0]


def test_enumerate_tables_refuses_above_max_tables():
    rows, cols = [4, 3, 3], [3, 3, 4]
    true = len(brute_tables(rows, cols))
    tables, _ = enumerate_tables(rows, cols, max_tables=true)  # exactly at the limit: fine
    assert len(tables) == true
    with pytest.raises(ValueError, match="max_tables"):
        enumerate_tables(rows, cols, max_tables=true - 1)


# ---------------------------------------------------------------------------------------------
# 2. The dynamic programme
# ---------------------------------------------------------------------------------------------

def _brute_statistic_laws(law):
    """Laws of s = sum n^2 and t = sum n log n by aggregation over the enumerated tables.

    t values are grouped by the exact integer prod n^n (equal t <=> equal product)."""
    s_law, t_law = {}, {}
    for table, p in zip(law.tuples, law.exact):
        cells = [c for r in table for c in r]
        s = sum(c * c for c in cells)
        s_law[s] = s_law.get(s, 0) + p
        key = math.prod(c ** c for c in cells)
        t = math.fsum(c * math.log(c) for c in cells if c > 1)
        value, prob = t_law.get(key, (t, 0))
        t_law[key] = (value, prob + p)
    s_vals = sorted(s_law)
    t_items = sorted(t_law.values(), key=lambda vp: vp[0])
    return ((np.array(s_vals, float), np.array([float(s_law[s]) for s in s_vals])),
            (np.array([v for v, _ in t_items]), np.array([float(p) for _, p in t_items])))


def test_statistic_law_matches_brute_force_on_random_margins():
    extra = EDGE_MARGINS + [([10, 5, 3, 2], [8, 6, 4, 2]), ([14, 3, 2, 1], [11, 5, 3, 1]),
                            ([8, 8, 2, 2], [12, 4, 2, 2]), ([6, 5, 5, 4], [17, 1, 1, 1]),
                            ([2, 8, 2, 8], [5, 10, 5]), ([20], [7, 7, 6]), ([1] * 6, [2, 2, 2])]
    laws = margin_laws(5, 140, 4, 4, 1, 20, 5000, extra)
    assert sum(1 for law in laws if len(law.rows) == 4 and len(law.cols) == 4) >= 8
    assert max(sum(law.rows) for law in laws) >= 18
    for law in laws:
        (s_v, s_p), (t_v, t_p) = _brute_statistic_laws(law)
        v, p = statistic_law(law.rows, law.cols, "s")
        assert v.tolist() == s_v.tolist(), (law.rows, law.cols)
        np.testing.assert_allclose(p, s_p, rtol=0, atol=1e-12, err_msg=str((law.rows, law.cols)))
        v, p = statistic_law(law.rows, law.cols, "t")
        assert len(v) == len(t_v), (law.rows, law.cols)
        np.testing.assert_allclose(v, t_v, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(p, t_p, rtol=0, atol=1e-12, err_msg=str((law.rows, law.cols)))


def _exact_moments_of_s_by_cells(rows, cols):
    """E[s] = sum_ij E[n_ij^2]; each cell is hypergeometric with mean ab/n and variance
    ab(n-a)(n-b)/(n^2(n-1))."""
    n = sum(rows)
    total = Fraction(0)
    for a in rows:
        for b in cols:
            mean = Fraction(a * b, n)
            var = Fraction(a * b * (n - a) * (n - b), n * n * (n - 1))
            total += var + mean * mean
    return total


def test_statistic_law_of_3x6_margins_matches_closed_form_moments():
    rows, cols = [20, 20, 20], [10] * 6
    start = time.perf_counter()
    v, p = statistic_law(rows, cols, "s")
    elapsed = time.perf_counter() - start
    assert elapsed < 20, f"the dynamic programme took {elapsed:.1f} s"
    assert p.sum() == pytest.approx(1.0, abs=1e-12)
    mean = float(v @ p)
    var = float(((v - mean) ** 2) @ p)
    m_s, v_s = moments_of_s(rows, cols)
    assert m_s == _exact_moments_of_s_by_cells(rows, cols)  # 13800/59 = 233.898...
    assert mean == pytest.approx(float(m_s), rel=1e-9)
    assert var == pytest.approx(float(v_s), rel=1e-9)
    # 18 cells of at most 10 summing to 60: s <= 60 * 10 = 600 (cells of 10 and 0: attained);
    # s is least for cells as equal as possible, six 4s and twelve 3s (rows 4,4,3,3,3,3 shifted
    # cyclically make every column 10): 6 * 16 + 12 * 9 = 204
    assert v.max() == 600 and v.min() == 204


def _count_rowwise(rows, cols):
    """Count tables row by row: enumerate the rows but the last two; the second-to-last row is
    counted by the coefficient of x^a in prod_j (1 + x + ... + x^{r_j}) (the last is forced)."""

    @functools.lru_cache(maxsize=None)
    def coefficient(caps, total):
        poly = [1]
        for c in caps:
            new = [0] * min(len(poly) + c, total + 1)
            for i, w in enumerate(poly):
                for k in range(min(c, total - i) + 1):
                    new[i + k] += w
            poly = new
        return poly[total] if total < len(poly) else 0

    @functools.lru_cache(maxsize=None)
    def ways(i, colrem):
        if i == len(rows) - 1:
            return 1
        if i == len(rows) - 2:
            return coefficient(colrem, rows[i])
        return sum(ways(i + 1, tuple(sorted(c - x for c, x in zip(colrem, v))))
                   for v in _vectors(rows[i], colrem))

    return ways(0, tuple(sorted(cols)))


def test_count_tables_3x6_against_a_rowwise_count():
    rows, cols = [20, 20, 20], [10] * 6
    # the row-wise counter itself agrees with brute force on small margins
    for r, c in [([3, 2, 2], [2, 2, 1, 2]), ([4, 4, 4], [3, 3, 3, 3]), ([5, 1, 2, 2], [4, 6])]:
        assert _count_rowwise(r, c) == len(brute_tables(r, c))
    independent = _count_rowwise(rows, cols)
    assert count_tables(rows, cols) == independent
    # measured (and confirmed by the row-wise generating-function count): 331,838,001 tables
    assert independent == 331_838_001


# ---------------------------------------------------------------------------------------------
# 3. Closed forms
# ---------------------------------------------------------------------------------------------

# indices of a contingency table (other input kinds have no fixed-margins table null)
LINEAR = [k for k, v in REGISTRY.items() if isinstance(v, TableIndex) and v.linear]
NONLINEAR = [k for k, v in REGISTRY.items() if isinstance(v, TableIndex) and not v.linear]


@pytest.mark.parametrize("name", LINEAR)
def test_index_moments_equal_the_moments_over_all_tables(name):
    rec = REGISTRY[name]
    laws = [law for law in small_laws() if sum(law.rows) >= rec.min_n]
    if name == "adjusted_mutual_info":  # evaluating it table by table is slow: fewer margins
        laws = [law for law in laws if len(law.tuples) <= 60][:40]
    assert len(laws) >= 40
    for law in laws:
        values = law.index_values(name)
        mean = float(law.probs @ values)
        got = index_moments(name, law.rows, law.cols)
        where = f"{name} {law.rows} x {law.cols}"
        assert got["mean"] == pytest.approx(mean, rel=1e-12, abs=1e-12), where
        var = float(law.probs @ (values - mean) ** 2)
        assert got["var"] == pytest.approx(var, rel=1e-10, abs=1e-12), where


@pytest.mark.parametrize("name", NONLINEAR)
def test_index_moments_refuse_nonlinear_indices(name):
    with pytest.raises(ValueError, match="closed-form"):
        index_moments(name, [3, 2], [2, 3])


def test_hypergeometric_method_gives_the_moments_and_no_quantiles():
    law = BruteLaw([5, 4, 3], [6, 6])
    tab = law.tables[0]
    for name in ("rand", "adjusted_rand", "fowlkes_mallows", "nmi_sum"):
        nd = null_distribution(tab, index=name, method="hypergeometric")
        values = law.index_values(name)
        mean = float(law.probs @ values)
        assert nd.mean == pytest.approx(mean, rel=1e-12, abs=1e-12)
        var = float(law.probs @ (values - mean) ** 2)
        assert nd.var == pytest.approx(var, rel=1e-10, abs=1e-12)
        for ask in (lambda: nd.median, lambda: nd.quantile(0.9), lambda: nd.pvalue(0.5),
                    lambda: nd.cdf(0.5)):
            with pytest.raises(ValueError, match="hypergeometric"):
                ask()
    with pytest.raises(ValueError, match="closed-form"):
        null_distribution(tab, index="jaccard", method="hypergeometric")


# ---------------------------------------------------------------------------------------------
# 4. Agreement of the methods
# ---------------------------------------------------------------------------------------------

SMALL_TABLES = [[[2, 1], [1, 2]], [[2, 0, 1], [0, 2, 1]], [[2, 1, 0], [1, 1, 0], [0, 0, 2]]]
MIXED_INDICES = ["rand", "adjusted_rand", "jaccard", "sokal_sneath", "nmi_sum", "nmi_joint",
                 "variation_of_information", "adjusted_mutual_info", "purity", "psi",
                 "van_dongen", "accuracy"]


def _assert_same_law(a, b):
    assert a.is_exact and b.is_exact
    np.testing.assert_allclose(a.values, b.values, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(a.probabilities, b.probabilities, rtol=0, atol=1e-12)


@pytest.mark.parametrize("table", SMALL_TABLES, ids=["2x2n6", "2x3n6", "3x3n7"])
@pytest.mark.parametrize("name", MIXED_INDICES)
def test_exact_law_equals_exhaustive_permutation_law(table, name):
    exact = null_distribution(table, index=name, method="exact")
    perm = null_distribution(table, index=name, method="permutation")
    assert perm.details["exhaustive"] and perm.is_exact
    _assert_same_law(exact, perm)
    # and both equal the law from our own enumeration
    law = BruteLaw(np.sum(table, axis=1), np.sum(table, axis=0))
    support, probs = law.law_of(law.index_values(name))
    np.testing.assert_allclose(exact.values, support, rtol=1e-9, atol=1e-10)
    np.testing.assert_allclose(exact.probabilities, probs, rtol=0, atol=1e-12)


def test_exhaustive_permutation_with_n_equal_8():
    table = [[3, 1], [1, 3]]
    for name in ("rand", "nmi_max"):
        perm = null_distribution(table, index=name, method="permutation")
        assert perm.details["exhaustive"]
        _assert_same_law(null_distribution(table, index=name, method="exact"), perm)


@pytest.mark.parametrize("rows, cols, seed", [([3, 2, 2], [4, 3], 11),
                                              ([4, 3, 3], [2, 4, 4], 12),
                                              ([6, 6], [3, 3, 3, 3], 13)])
def test_patefield_tables_follow_the_generalized_hypergeometric_law(rows, cols, seed):
    law = BruteLaw(rows, cols)
    where = {t: i for i, t in enumerate(law.tuples)}
    sims = ca.nulls.random_tables(rows, cols, n_sim=20_000, seed=seed)
    assert (sims.sum(axis=2) == rows).all() and (sims.sum(axis=1) == cols).all()
    counts = np.zeros(len(law.tuples))
    for t in sims.tolist():
        counts[where[tuple(map(tuple, t))]] += 1  # KeyError: a table outside the support
    p, bins = chisquare_pooled(counts, law.probs)
    assert bins >= 5
    assert p > 1e-3, f"chi-square p = {p:.2g} on {bins} bins"


def test_patefield_null_of_an_index_follows_its_exact_law():
    table = [[3, 1, 1], [1, 3, 1], [0, 1, 3]]
    law = BruteLaw(np.sum(table, axis=1), np.sum(table, axis=0), cap=50_000)
    support, probs = law.law_of(law.index_values("jaccard"))
    nd = null_distribution(table, index="jaccard", method="patefield", n_sim=20_000, seed=21)
    idx = np.minimum(np.searchsorted(support, nd.samples - 1e-9), len(support) - 1)
    assert np.allclose(support[idx], nd.samples, atol=1e-9), "a value outside the exact support"
    p, _ = chisquare_pooled(np.bincount(idx, minlength=len(support)), probs)
    assert p > 1e-3, f"chi-square p = {p:.2g}"


@pytest.mark.parametrize("name, seed", [("jaccard", 31), ("nmi_sum", 32), ("purity", 33)])
def test_random_permutations_follow_the_exact_law(name, seed):
    table = [[3, 1, 0], [1, 2, 1], [0, 1, 3]]  # n = 12 > 8: random permutations
    law = BruteLaw(np.sum(table, axis=1), np.sum(table, axis=0))
    support, probs = law.law_of(law.index_values(name))
    nd = null_distribution(table, index=name, method="permutation", n_sim=20_000, seed=seed)
    assert nd.is_sampled and nd.n_sim == 20_000 and not nd.details["exhaustive"]
    idx = np.minimum(np.searchsorted(support, nd.samples - 1e-9), len(support) - 1)
    assert np.allclose(support[idx], nd.samples, atol=1e-9), "a value outside the exact support"
    p, bins = chisquare_pooled(np.bincount(idx, minlength=len(support)), probs)
    assert p > 1e-3, f"chi-square p = {p:.2g} on {bins} bins"


# ---------------------------------------------------------------------------------------------
# 5. P-values
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("rows, cols", [([5, 4, 3], [4, 4, 4]), ([6, 4], [3, 3, 2, 2]),
                                        ([7, 5], [6, 6])])
@pytest.mark.parametrize("name", ["rand", "nmi_sum", "purity", "variation_of_information"])
def test_exact_pvalue_is_the_tail_probability_and_has_valid_size(rows, cols, name):
    law = BruteLaw(rows, cols)
    values = law.index_values(name)
    nd = null_distribution(law.tables[0], index=name, method="exact")
    alternative = "less" if REGISTRY[name].kind == "distance" else "greater"
    for alt in (alternative, "two-sided"):
        pvals = np.array([nd.pvalue(v, alt) for v in values])
        ge = np.array([law.probs[values >= v - 1e-9].sum() for v in values])
        le = np.array([law.probs[values <= v + 1e-9].sum() for v in values])
        tail = {"greater": ge, "less": le, "two-sided": np.minimum(1, 2 * np.minimum(ge, le))}
        np.testing.assert_allclose(pvals, tail[alt], rtol=1e-9, atol=1e-12)
        for alpha in (0.01, 0.05, 0.1):
            size = float(law.probs[pvals <= alpha].sum())  # P_H0(p <= alpha), exactly
            assert size <= alpha + 1e-12, (alt, alpha, size)


def test_exact_pvalue_counts_ties_at_support_points():
    nd = null_distribution(TABLE_6A, index="rand", method="exact")
    # exact rational Rand values and probabilities of all 31 tables (n11 = 10..40)
    law = {}
    for k in range(10, 41):
        table = [[k, 50 - k], [40 - k, k - 10]]
        r = rand_fraction(table)
        law[r] = law.get(r, 0) + Fraction(math.comb(50, k) * math.comb(30, 40 - k),
                                           math.comb(80, 40))
    support = sorted(law)
    for i, v in enumerate(support):
        at = float(sum(law[w] for w in support[i:]))
        assert nd.pvalue(float(v)) == pytest.approx(at, rel=1e-9, abs=1e-15)  # P(T >= t)
        if i + 1 < len(support):
            between = float((v + support[i + 1]) / 2)
            assert nd.pvalue(between) == pytest.approx(float(sum(law[w] for w in support[i + 1:])),
                                                       rel=1e-9, abs=1e-15)
    # the observed value computed from the table (another floating route) is a support point
    observed = ca.agreement(ca.ContingencyTable(TABLE_6A), index="rand")
    t = rand_fraction(TABLE_6A)
    expected = float(sum(p for v, p in law.items() if v >= t))
    assert nd.pvalue(observed) == pytest.approx(expected, rel=1e-9)


def test_monte_carlo_pvalue_formulas_by_hand():
    table = [[8, 3, 2], [2, 7, 3], [1, 2, 9]]
    nd = null_distribution(table, index="rand", method="patefield", n_sim=999, seed=41)
    B = nd.n_sim
    s = nd.samples
    observed = ca.agreement(table, index="rand")
    for t in (observed, float(np.median(s)), float(s[0]), float(s.max()), float(s.min())):
        k_ge = int(np.sum(s >= t - 1e-12))
        k_le = int(np.sum(s <= t + 1e-12))
        assert nd.pvalue(t, plus_one=False) == k_ge / B
        assert nd.pvalue(t) == (1 + k_ge) / (B + 1)
        assert nd.pvalue(t, "less", plus_one=False) == k_le / B
        assert nd.pvalue(t, "less") == (1 + k_le) / (B + 1)
    # a sample value itself counts (ties included): at the maximum the count is its multiplicity
    top = float(s.max())
    assert nd.pvalue(top, plus_one=False) == np.sum(s == top) / B > 0
    assert nd.pvalue(top + 1e-3, plus_one=False) == 0.0


def test_monte_carlo_pvalues_are_uniform_under_h0():
    """200 independent label pairs (n = 60, three labels each): y independent of x, so given the
    margins the table has the null law and the observed value is exchangeable with the B = 999
    Patefield values.

    * The package's p = (1 + #{T_b >= t}) / (B + 1) is then super-uniform: P(p <= u) <= u for
      every u (exactly uniform on the grid k / (B + 1) without ties, conservative with ties).
      A one-sided KS test (H0: the p-values' cdf lies below the uniform cdf) is therefore valid
      for this discrete statistic and catches anti-conservative p-values.
    * Breaking ties at random and jittering within the grid step gives
      p* = (#{T_b > t} + J - V) / (B + 1), J uniform on {1, ..., #{T_b = t} + 1}, V ~ U(0, 1):
      exactly U(0, 1) under H0, so a two-sided KS test of p* is exact. It checks that the
      simulated null is the right law (not merely conservative).
    """
    rng = np.random.default_rng(51)
    B = 999
    p_pkg, p_star = [], []
    for i in range(200):
        x = rng.integers(0, 3, 60)
        y = rng.integers(0, 3, 60)
        nd = null_distribution(x, y, index="rand", method="patefield", n_sim=B, seed=1000 + i)
        t = ca.agreement(x, y, index="rand")
        s = nd.samples
        tol = 1e-9
        ge, gt = int(np.sum(s >= t - tol)), int(np.sum(s > t + tol))
        p = nd.pvalue(t)
        assert p == (1 + ge) / (B + 1)
        p_pkg.append(p)
        j = rng.integers(1, ge - gt + 2)
        p_star.append((gt + j - rng.random()) / (B + 1))
    assert stats.kstest(p_star, "uniform").pvalue > 1e-3
    assert stats.kstest(p_pkg, "uniform", alternative="greater").pvalue > 1e-3
    # and they are not degenerate: a fair share of small p-values
    assert 0.02 < np.mean(np.array(p_pkg) <= 0.2) < 0.4


def test_iadjust_reports_the_thesis_share_of_simulated_values():
    # Amorim 2015: the p-value is the share of simulated values >= the observed one (the
    # printed pseudocode of Ch.4 Table 4 compares the other way round, against the text)
    names = list(ca.indices.GROUPS["paired"])
    frame = ca.iadjust(TABLE_6A, n_sim=3000, seed=61)
    nulls = null_distributions(TABLE_6A, names, "patefield", n_sim=3000, seed=61)
    for name in names:
        s = nulls[name].samples
        t = ca.agreement(TABLE_6A, index=name)
        assert frame.loc[name, "pvalue"] == np.sum(s >= t - 1e-9 * max(1, abs(t))) / 3000
        assert frame.loc[name, "null_mean"] == pytest.approx(s.mean(), rel=1e-12)


# ---------------------------------------------------------------------------------------------
# 6. Values printed in the thesis
# ---------------------------------------------------------------------------------------------

TABLE_8 = {  # Amorim 2015, Table 8: (IADJUST mean, TABLES LIST mean, TABLES LIST adjusted)
    "rand": (0.49970, 0.49968, 0.05124),
    "gower_legendre": (0.66635, 0.66634, 0.06730),
    "jaccard": (0.34144, 0.34143, 0.03490),
    "czekanowski": (0.50902, 0.50900, 0.05124),
    "sokal_sneath": (0.24975, 0.24973, 0.03498),
    "nmi_min": (0.00967, 0.00965, 0.04188),
}


@pytest.mark.parametrize("name", list(TABLE_8))
def test_thesis_table8_exact_mean_and_adjusted(name):
    _, mean, adjusted = TABLE_8[name]
    nd = null_distribution(TABLE_6A, index=name, method="exact")
    observed = ca.agreement(ca.ContingencyTable(TABLE_6A), index=name)
    assert round(nd.mean, 5) == pytest.approx(mean, abs=1e-12)
    assert round(nd.adjust(observed, center="mean"), 5) == pytest.approx(adjusted, abs=1e-12)
    # the enumeration of the 31 tables gives the same mean
    law = BruteLaw([50, 30], [40, 40])
    assert nd.mean == pytest.approx(float(law.probs @ law.index_values(name)), rel=1e-12)


def test_thesis_table8_iadjust_column_within_monte_carlo_error():
    names = list(TABLE_8)
    exact = null_distributions(TABLE_6A, names, "exact")
    mc = null_distributions(TABLE_6A, names, "patefield", seed=2015)
    for name in names:
        nd = mc[name]
        assert nd.n_sim == 17_000
        se = nd.mean_se
        assert se == pytest.approx(nd.std / math.sqrt(17_000))
        assert abs(nd.mean - exact[name].mean) < 3 * se, name
        # the thesis' own IADJUST means are within the same Monte Carlo error
        assert abs(TABLE_8[name][0] - exact[name].mean) < 3 * se + 5e-6, name


# Amorim 2015, App. A Table 11, first column: n11 -> (Rand, probability) as printed
TABLE_11 = {40: ("0.778481", "9.555E-14"), 39: ("0.741772", "1.042E-11"),
            38: ("0.707595", "4.912E-10"), 37: ("0.675949", "1.34E-08"),
            36: ("0.646835", "2.391E-07"), 35: ("0.620253", "2.984E-06"),
            34: ("0.596203", "2.719E-05"), 33: ("0.574684", "0.0001865"),
            32: ("0.555696", "0.0009829"), 31: ("0.539241", "0.0040464"),
            30: ("0.525316", "0.0131712"), 29: ("0.513924", "0.0342109"),
            28: ("0.505063", "0.0714023"), 27: ("0.498734", "0.120357"),
            26: ("0.494937", "0.1644162"), 25: ("0.493671", "0.1823924")}


def _half_ulp_of_print(text):
    """Half a unit in the last printed digit."""
    return 0.5 * 10.0 ** Decimal(text).as_tuple().exponent


def test_thesis_table11_all_tables_and_the_law_of_rand():
    tables, probs = enumerate_tables([50, 30], [40, 40])
    n11 = tables[:, 0, 0]
    assert len(tables) == 31 and sorted(n11.tolist()) == list(range(10, 41))
    by_n11 = dict(zip(n11.tolist(), probs))
    for k in range(10, 41):
        closed = math.comb(50, k) * math.comb(30, 40 - k) / math.comb(80, 40)
        assert by_n11[k] == pytest.approx(closed, rel=1e-12)
    for k, (rand, prob) in TABLE_11.items():
        assert abs(by_n11[k] - float(prob)) <= _half_ulp_of_print(prob), k
        value = ca.agreement([[k, 50 - k], [40 - k, k - 10]], index="rand")
        assert abs(value - float(rand)) <= _half_ulp_of_print(rand), k
    assert by_n11[25] == pytest.approx(0.1823924, abs=5e-8)
    assert by_n11[40] == pytest.approx(9.555e-14, rel=1e-3)
    # Rand(n11) = Rand(50 - n11): the 31 tables give a law of Rand with 16 atoms
    nd = null_distribution(TABLE_6A, index="rand", method="exact")
    assert len(nd.values) == 16
    expected = {float(TABLE_11[k][0]): by_n11[k] + (by_n11[50 - k] if k != 25 else 0.0)
                for k in TABLE_11}
    for v, p in zip(nd.values, nd.probabilities):
        key = min(expected, key=lambda w: abs(w - v))
        assert abs(key - v) < 1e-6
        assert p == pytest.approx(expected[key], rel=1e-9, abs=1e-20)
    # "one easily finds the average Rand value (0.500)"
    assert round(nd.mean, 3) == 0.500


def test_statlog_iadjust_adjusted_values():
    # Amorim 2015, Ch.4: GL_a = 0.17, SoS_a = 0.114 and R_a = 0.143
    frame = ca.iadjust(ca.load_dataset("statlog_em"), seed=2015)
    adj = frame["adjusted_mean"]
    assert round(adj["rand"], 3) == 0.143
    assert round(adj["gower_legendre"], 2) == 0.17
    assert round(adj["sokal_sneath"], 3) == 0.114
    assert (frame["n_sim"] == 17_000).all()


# ---------------------------------------------------------------------------------------------
# 7. Median versus mean adjustment
# ---------------------------------------------------------------------------------------------

def test_median_and_mean_adjustment_differ_on_a_skewed_null():
    """Two balanced clusterings of n = 8 into 4 + 4. The table is fixed by n11 ~ Hypergeom(8,4,4)
    (probabilities 1, 16, 36, 16, 1 over 70), and Rand depends on |n11 - 2| only:
    Rand = 3/7 (n11 = 2, prob 36/70), 4/7 (n11 = 1 or 3, prob 32/70), 1 (n11 = 0 or 4, 2/70).
    The law is skewed to the right: median 3/7 < mean 25/49, skewness > 0. For the table
    [[3, 1], [1, 3]] (Rand 4/7): mean adjustment 1/8, median adjustment 1/4."""
    law = {Fraction(3, 7): Fraction(36, 70), Fraction(4, 7): Fraction(32, 70),
           Fraction(1): Fraction(2, 70)}
    for k in range(5):
        t = [[k, 4 - k], [4 - k, k]]
        assert rand_fraction(t) in law
    mean = sum(v * p for v, p in law.items())
    assert mean == Fraction(25, 49)
    var = sum((v - mean) ** 2 * p for v, p in law.items())
    skew = float(sum((v - mean) ** 3 * p for v, p in law.items())) / float(var) ** 1.5
    table = [[3, 1], [1, 3]]
    nd = null_distribution(table, index="rand", method="exact")
    assert nd.mean == pytest.approx(float(mean), rel=1e-12)
    assert nd.median == pytest.approx(3 / 7, rel=1e-12)
    assert nd.skewness == pytest.approx(skew, rel=1e-9)
    assert skew > 2
    observed = ca.agreement(table, index="rand")
    assert observed == pytest.approx(4 / 7)
    assert nd.adjust(observed, center="mean") == pytest.approx(1 / 8, rel=1e-12)
    assert nd.adjust(observed, center="median") == pytest.approx(1 / 4, rel=1e-12)
    assert ca.adjust(table, index="rand", method="exact", center="median") == pytest.approx(0.25)
    assert ca.adjust(table, index="rand", method="exact", center="mean") == pytest.approx(0.125)
    res = ca.agreement_test(table, index="rand", method="exact")
    assert res.adjusted["mean"] == pytest.approx(0.125) and res.adjusted["median"] == \
        pytest.approx(0.25)


def test_quantile_adjustment_uses_the_quantile_as_centre():
    law = BruteLaw([50, 30], [40, 40])
    exact_values = [rand_fraction(t) for t in law.tuples]
    cum, q99 = Fraction(0), None
    for v in sorted(set(exact_values)):
        cum += sum(p for w, p in zip(exact_values, law.exact) if w == v)
        if cum >= Fraction(99, 100):
            q99 = v
            break
    nd = null_distribution(TABLE_6A, index="rand", method="exact")
    assert nd.quantile(0.99) == pytest.approx(float(q99), rel=1e-12)
    for table in (TABLE_6A, [[38, 12], [2, 28]]):
        obs = ca.agreement(table, index="rand")
        expected = (obs - float(q99)) / (1 - float(q99))
        assert nd.adjust(obs, center=0.99) == pytest.approx(expected, rel=1e-12)
        assert ca.adjust(table, index="rand", method="exact", center=0.99) == \
            pytest.approx(expected, rel=1e-12)
    # the P99 centre is stricter than the mean: the table 6a is below chance's 99th percentile
    assert nd.adjust(ca.agreement(TABLE_6A, index="rand"), center=0.99) < 0


def test_exact_quantiles_are_the_smallest_value_with_cdf_at_least_q():
    for rows, cols, name in [([50, 30], [40, 40], "rand"), ([4, 4], [4, 4], "rand"),
                             ([5, 4, 3], [4, 4, 4], "nmi_sum"), ([3, 3], [2, 2, 2], "purity")]:
        law = BruteLaw(rows, cols)
        support, probs = law.law_of(law.index_values(name))
        exact_cdf = np.cumsum(probs)
        nd = null_distribution(law.tables[0], index=name, method="exact")
        grid = sorted(set(np.round(exact_cdf, 12).tolist()) | {0.0, 0.01, 0.25, 0.5, 0.75, 0.99,
                                                                1.0})
        for q in grid:
            want = support[np.flatnonzero(exact_cdf >= q - 1e-12)[0]]
            assert nd.quantile(q) == pytest.approx(want, rel=1e-9), (rows, cols, name, q)
        np.testing.assert_allclose(nd.cdf(support), exact_cdf, rtol=1e-9, atol=1e-15)


def test_index_options_reach_the_exact_null():
    law = BruteLaw([5, 4, 3], [6, 6])
    for base in (2, 10):
        nd = null_distribution(law.tables[0], index="mutual_info", method="exact", base=base)
        mean_nats = float(law.probs @ law.index_values("mutual_info"))
        assert nd.mean == pytest.approx(mean_nats / math.log(base), rel=1e-12)
        hyper = null_distribution(law.tables[0], index="mutual_info", method="hypergeometric",
                                  base=base)
        assert hyper.mean == pytest.approx(mean_nats / math.log(base), rel=1e-12)


def test_monte_carlo_nulls_are_reproducible_from_the_seed():
    for method in ("patefield", "permutation"):
        a = null_distribution(TABLE_6A, index="jaccard", method=method, n_sim=500, seed=7)
        b = null_distribution(TABLE_6A, index="jaccard", method=method, n_sim=500,
                              seed=np.random.default_rng(7))
        c = null_distribution(TABLE_6A, index="jaccard", method=method, n_sim=500, seed=8)
        assert np.array_equal(a.samples, b.samples)
        assert not np.array_equal(a.samples, c.samples)


# ---------------------------------------------------------------------------------------------
# 8. Bad input
# ---------------------------------------------------------------------------------------------

def test_misspelled_method_lists_the_methods():
    for call in (lambda: null_distribution(TABLE_6A, index="rand", method="exactt"),
                 lambda: ca.agreement_test(TABLE_6A, index="rand", method="exactt"),
                 lambda: ca.adjust(TABLE_6A, index="rand", method="exactt")):
        with pytest.raises(ValueError) as err:
            call()
        for method in ("exact", "hypergeometric", "patefield", "permutation"):
            assert method in str(err.value)
        assert "exactt" in str(err.value)


@pytest.mark.parametrize("n_sim", [0, -5, 1.5, "100", True])
def test_bad_n_sim(n_sim):
    with pytest.raises((TypeError, ValueError), match="n_sim"):
        null_distribution(TABLE_6A, index="rand", method="patefield", n_sim=n_sim, seed=1)


def test_n_sim_with_an_exact_method_is_refused():
    with pytest.raises(ValueError, match="n_sim"):
        null_distribution(TABLE_6A, index="rand", method="exact", n_sim=100)


def test_bad_seed_names_seed():
    for call in (lambda: null_distribution(TABLE_6A, index="rand", method="patefield",
                                           seed="abc"),
                 lambda: null_distribution(TABLE_6A, index="rand", method="exact", seed="abc"),
                 lambda: ca.agreement_test(TABLE_6A, index="rand", seed="abc")):
        with pytest.raises(TypeError, match="seed"):
            call()


def test_misspelled_alternative():
    with pytest.raises(ValueError, match="greater"):
        ca.agreement_test(TABLE_6A, index="rand", method="exact", alternative="greatr")
    nd = null_distribution(TABLE_6A, index="rand", method="exact")
    with pytest.raises(ValueError, match="alternative"):
        nd.pvalue(0.5, alternative="greatr")


def test_too_many_tables_to_enumerate_names_max_tables():
    with pytest.raises(ValueError, match="max_tables"):
        null_distribution([[3, 2, 1], [1, 2, 3]], index="purity",
                          method=ca.NullSpec("exact", max_tables=5))
    start = time.perf_counter()
    with pytest.raises(ValueError, match="max_tables"):  # the Statlog table: far too many
        null_distribution(ca.load_dataset("statlog_em"), index="purity", method="exact")
    assert time.perf_counter() - start < 5, "the refusal should come before any enumeration"


@pytest.mark.parametrize("name", ["variation_of_information", "mirkin", "van_dongen"])
def test_distance_default_alternative_is_less(name):
    table = [[4, 1, 0], [1, 3, 1], [0, 1, 4]]
    res = ca.agreement_test(table, index=name, method="exact")
    assert res.alternative == "less"
    assert "less than" in str(res)
    law = BruteLaw(np.sum(table, axis=1), np.sum(table, axis=0))
    values = law.index_values(name)
    observed = ca.agreement(table, index=name)
    assert res.pvalue == pytest.approx(float(law.probs[values <= observed + 1e-9].sum()),
                                       rel=1e-9)
    assert res.pvalue < 0.05  # a near-diagonal table is closer than chance
    mean = float(law.probs @ values)
    assert res.null.mean == pytest.approx(mean, rel=1e-12)
    # a distance is adjusted as (c - I) / (c - min), min = 0
    assert res.adjusted["mean"] == pytest.approx((mean - observed) / mean, rel=1e-12)


# ---------------------------------------------------------------------------------------------
# 9. Monte Carlo size
# ---------------------------------------------------------------------------------------------

def test_n_sim_for_thesis_eq_26():
    # T >= (1/4) (z / error)^2 with z = Phi^-1(0.995) = 2.576 (printed to three decimals)
    z = round(statistics.NormalDist().inv_cdf(1 - 0.01 / 2), 3)
    assert z == 2.576
    expected = math.ceil(Fraction(1, 4) * (Fraction("2.576") / Fraction("0.01")) ** 2)
    assert expected == 16590
    assert n_sim_for(0.01, 0.99) == expected
    z_exact = statistics.NormalDist().inv_cdf(0.995)
    assert n_sim_for(0.01, 0.99, z_decimals=None) == math.ceil(0.25 * (z_exact / 0.01) ** 2)
    z95 = round(statistics.NormalDist().inv_cdf(0.975), 3)  # 1.96
    assert n_sim_for(0.05, 0.95) == math.ceil(Fraction(1, 4) * (Fraction(str(z95)) / Fraction(
        "0.05")) ** 2)


# ---------------------------------------------------------------------------------------------
# 10. Printing and frames
# ---------------------------------------------------------------------------------------------

def test_agreement_test_prints_like_htest_and_gives_a_one_row_frame(capsys):
    cls = pd.Series(["a"] * 30 + ["b"] * 10 + ["a"] * 20 + ["b"] * 20, name="cls")
    clu = pd.Series([1] * 40 + [2] * 40, name="cluster")
    res = ca.agreement_test(cls, clu, index="rand", method="exact")
    print(res)
    out = capsys.readouterr().out
    data_line = [line for line in out.splitlines() if line.startswith("data:")]
    assert len(data_line) == 1
    assert "cls" in data_line[0] and "cluster" in data_line[0] and "n = 80" in data_line[0]
    assert "rand" in out and "p-value" in out and "alternative hypothesis" in out
    expected_rand = float(rand_fraction(ca.crosstab(cls, clu).counts.tolist()))
    # the p-value as printed (4 significant digits), computed by hand from the 31 tables
    law = BruteLaw([50, 30], [40, 40])
    observed = rand_fraction(ca.crosstab(cls, clu).counts.tolist())
    hand_p = float(sum(p for t, p in zip(law.tuples, law.exact) if rand_fraction(t) >= observed))
    assert re.search(r"p-value = ([0-9.e-]+)", out).group(1) == f"{hand_p:.3g}"
    frame = res.to_frame()
    assert frame.shape[0] == 1 and list(frame.index) == ["rand"]
    assert frame["statistic"].iloc[0] == pytest.approx(expected_rand, rel=1e-12)
    assert frame["pvalue"].iloc[0] == pytest.approx(hand_p, rel=1e-9)


def test_agreement_test_of_an_index_without_a_fixed_maximum():
    res = ca.agreement_test(TABLE_6A, index="mutual_info", method="exact")
    law = BruteLaw([50, 30], [40, 40])
    values = law.index_values("mutual_info")
    observed = ca.agreement(TABLE_6A, index="mutual_info")
    assert res.pvalue == pytest.approx(float(law.probs[values >= observed - 1e-9].sum()),
                                       rel=1e-9)
    assert "p-value" in str(res)
