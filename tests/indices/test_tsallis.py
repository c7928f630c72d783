"""AMI_q and SMI_q (Tsallis entropy of order q): the known members (q = 2 is ARI and SRI, q = 1
the AMI and SMI), the mean and variance of the power sum against every table with the margins,
a null mean of exactly 0, and the z of the exact law."""

import math
import re
import warnings
from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clusteragree as ca
from scipy.stats import hypergeom

from clusteragree._moments import cells
from clusteragree._moments.squares import moments_of_s
from clusteragree._moments.mi_variance import (power_sum_scale, variance_of_power_sum,
                                               variance_of_power_sum_bound,
                                               variance_of_tsallis_sum_bound)
from clusteragree.indices.tsallis import expected_power_sum, power_sum_moments
from clusteragree.nulls.enumeration import count_tables, enumerate_tables

tables = st.tuples(st.integers(2, 4), st.integers(2, 4)).flatmap(
    lambda kq: st.lists(st.lists(st.integers(0, 12), min_size=kq[1], max_size=kq[1]),
                        min_size=kq[0], max_size=kq[0]))


def _usable(t):
    t = np.array(t)
    return t.sum() >= 2 and (t.sum(axis=1) > 0).sum() >= 1 and (t.sum(axis=0) > 0).sum() >= 1


@settings(max_examples=60, deadline=None, derandomize=True)
@given(tables)
def test_q2_is_the_adjusted_rand_index_and_q1_the_ami(t):
    if not _usable(t):
        return
    got = ca.agreement(t, index=["ami_tsallis", "adjusted_rand", "ami", "smi_tsallis", "sri",
                                 "smi"])
    assert got["ami_tsallis"] == pytest.approx(got["adjusted_rand"], rel=1e-9, abs=1e-12)
    assert got["smi_tsallis"] == pytest.approx(got["sri"], rel=1e-8, abs=1e-9)
    q1 = ca.agreement(t, index=["ami_tsallis", "smi_tsallis"], q=1)
    assert q1["ami_tsallis"] == pytest.approx(got["adjusted_mutual_info"], rel=1e-9, abs=1e-12)
    assert q1["smi_tsallis"] == pytest.approx(got["smi"], rel=1e-12, abs=1e-12)


def test_q_near_one_tends_to_the_ami():
    t = [[12, 3, 1], [2, 9, 4], [0, 5, 11]]
    ami = ca.agreement(t, index="ami")
    gaps = [abs(ca.agreement(t, index="ami_tsallis", q=1 + h) - ami) for h in (1e-2, 1e-3, 1e-4)]
    assert gaps[0] > gaps[1] > gaps[2] and gaps[2] < 1e-4


def _random_margins(rng, limit=4000):
    while True:
        K, Q = (int(v) for v in rng.integers(2, 5, size=2))
        n = int(rng.integers(max(K, Q), 26))
        a = rng.multinomial(n - K, rng.dirichlet(np.ones(K))) + 1
        b = rng.multinomial(n - Q, rng.dirichlet(np.ones(Q))) + 1
        if count_tables(a, b, limit=limit) <= limit:
            return a, b


@pytest.mark.parametrize("q", [0.5, 1.5, 2.0, 3.0])
def test_expected_power_sum_equals_the_sum_over_every_table(q):
    rng = np.random.default_rng(int(q * 10))
    for _ in range(6):
        a, b = _random_margins(rng)
        tabs, prob = enumerate_tables(a, b)
        exact = float((prob * (tabs.astype(float) ** q).sum(axis=(1, 2))).sum())
        assert expected_power_sum(a, b, q) == pytest.approx(exact, rel=1e-12)
        # within the stated bound too, plus the reference's own rounding (a sum of fewer than
        # 4,000 terms of one sign, each within a few u: below 1e-12 of it)
        assert abs(expected_power_sum(a, b, q) - exact) <= (_law_rtol(a, b, q) + 1e-12) * exact
        var = float((prob * ((tabs.astype(float) ** q).sum(axis=(1, 2)) - exact) ** 2).sum())
        assert variance_of_power_sum(a, b, q) == pytest.approx(var, rel=1e-10)
        assert power_sum_moments(a, b, q) == pytest.approx((exact, var), rel=1e-10)


@pytest.mark.parametrize("q", [0.5, 1.5, 3.0])
def test_smi_q_is_the_z_of_the_exact_law(q):
    rng = np.random.default_rng(int(q * 100))
    for _ in range(5):
        a, b = _random_margins(rng)
        tabs, prob = enumerate_tables(a, b)
        power = (tabs.astype(float) ** q).sum(axis=(1, 2))
        mean = float((prob * power).sum())
        sd = float(np.sqrt((prob * (power - mean) ** 2).sum()))
        observed = tabs[int(rng.integers(len(tabs)))]
        z = np.sign(q - 1) * ((observed.astype(float) ** q).sum() - mean) / sd
        assert ca.agreement(observed, index="smi_tsallis", q=q) == pytest.approx(
            z, rel=1e-9, abs=1e-9)


def test_power_sum_variance_at_q2_is_the_exact_variance_of_s_at_large_n():
    rng = np.random.default_rng(8)
    for K, n in ((5, 10**4), (10, 10**5)):
        a = rng.multinomial(n - K, rng.dirichlet(np.full(K, 0.5))) + 1
        b = rng.multinomial(n - K, rng.dirichlet(np.full(K, 0.5))) + 1
        _, var_s = moments_of_s(a, b)
        assert variance_of_power_sum(a, b, 2.0) == pytest.approx(float(var_s), rel=1e-10)


@pytest.mark.parametrize("q", [0.5, 1.5, 3.0])
def test_exact_null_mean_is_zero(q):
    # given the margins AMI_q is affine in sum n_ij^q with a constant denominator
    nd = ca.nulls.null_distribution([[4, 1, 0], [1, 3, 2], [0, 1, 4]], index="ami_tsallis",
                                    method="exact", q=q)
    assert abs(nd.mean) < 1e-12


def test_identical_partitions_and_bad_q():
    assert ca.agreement([0, 0, 1, 1, 2], [2, 2, 0, 0, 1], index="ami_tsallis", q=1.5) == 1.0
    for bad in (0, -1, math.inf, "2", True):
        with pytest.raises(ValueError, match="q must be a positive number"):
            ca.agreement([[3, 1], [1, 3]], index="ami_tsallis", q=bad)


@pytest.mark.parametrize("name", ["ami_tsallis", "smi_tsallis"])
def test_a_batch_of_tables_matches_table_by_table(name):
    tabs = ca.nulls.patefield.random_tables([8, 9, 10], [8, 9, 10], n_sim=20, seed=3)
    batch = ca.get_index(name).on_counts(np.asarray(tabs), q=2.5)
    one = [ca.agreement(tab, index=name, q=2.5) for tab in tabs]
    np.testing.assert_allclose(batch, one, rtol=1e-12)
    mixed = np.stack([np.asarray(tabs[0]), np.array([[20, 4, 3], [2, 5, 1], [1, 1, 1]])])
    np.testing.assert_allclose(ca.get_index(name).on_counts(mixed, q=2.5),
                               [ca.agreement(t, index=name, q=2.5) for t in mixed], rtol=1e-12)


# -- large orders: the sums of n_ij^q pass the double range from q ~ 200 on (n = 60), and the
# definition's 1 - sum (a_i / n)^q - ... loses every digit of MI_q - E[MI_q] well before that.
# The references below are exact rationals, from the definitions, over every table.

def _exact_tables(a, b):
    """Every table with row sums a and column sums b, with its probability under fixed margins
    (a Fraction: prod a_i! prod b_j! / (n! prod n_ij!))."""
    def fill(rows, cols):
        if len(rows) == 1:
            yield (tuple(cols),)
            return
        def first(total, cols):
            if len(cols) == 1:
                if total <= cols[0]:
                    yield (total,)
                return
            for v in range(min(total, cols[0]) + 1):
                for rest in first(total - v, cols[1:]):
                    yield (v,) + rest
        for row in first(rows[0], cols):
            for rest in fill(rows[1:], [c - r for c, r in zip(cols, row)]):
                yield (row,) + rest
    n = sum(a)
    top = math.prod(map(math.factorial, a)) * math.prod(map(math.factorial, b))
    out = [(t, Fraction(top, math.factorial(n) * math.prod(math.factorial(x) for r in t
                                                            for x in r)))
           for t in fill(list(a), list(b))]
    assert sum(p for _, p in out) == 1
    return out


def _exact_ami_smi(table, q):
    """AMI_q and SMI_q by Romano et al.'s definitions with Tsallis entropies
    H_q(p) = (1 - sum p^q) / (q - 1), in exact rationals (integer q); SMI_q is rounded once,
    from its exact square."""
    a = [sum(r) for r in table]
    b = [sum(c) for c in zip(*table)]
    n = sum(a)

    def h(sizes):
        return (1 - sum(Fraction(x, n) ** q for x in sizes)) / (q - 1)

    def mi(t):
        return h(a) + h(b) - h([x for r in t for x in r])

    law = _exact_tables(a, b)
    mean = sum(p * mi(t) for t, p in law)
    var = sum(p * (mi(t) - mean) ** 2 for t, p in law)
    dev = mi(tuple(map(tuple, table))) - mean
    ami = dev / ((h(a) + h(b)) / 2 - mean)
    smi = (1 if dev > 0 else -1) * math.sqrt(dev * dev / var) if var and dev else 0.0
    return float(ami), smi


_SMALL = [[[20, 10], [10, 20]], [[4, 1, 0], [1, 3, 2], [0, 1, 4]], [[5, 2], [1, 4], [0, 3]]]


@pytest.mark.parametrize("q", [20, 50, 400])
@pytest.mark.parametrize("table", _SMALL)
def test_large_orders_equal_the_exact_rationals(table, q):
    ami, smi = _exact_ami_smi(table, q)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = ca.agreement(table, index=["ami_tsallis", "smi_tsallis"], q=q)
    assert got["ami_tsallis"] == pytest.approx(ami, rel=1e-12)
    assert got["smi_tsallis"] == pytest.approx(smi, rel=1e-12)


def _exact_2x2(A, n, q, k):
    """AMI_q and SMI_q of the 2 x 2 table with both margins (A, n - A) and n_11 = k, exactly:
    the table is n_11 = x, n_12 = n_21 = A - x, n_22 = n - 2A + x with P(x) = C(A, x)
    C(n - A, A - x) / C(n, A); given the margins AMI_q = (P - E[P]) / ((S_a + S_b) / 2 - E[P]),
    P = sum n_ij^q, S = sum a_i^q (the terms 1 / (q - 1) and n^q of the definition cancel), and
    SMI_q = (P - E[P]) / sd[P]."""
    def power(x):
        return x ** q + 2 * (A - x) ** q + (n - 2 * A + x) ** q
    xs = range(max(0, 2 * A - n), A + 1)
    w = [math.comb(A, x) * math.comb(n - A, A - x) for x in xs]
    p = [power(x) for x in xs]
    mean = Fraction(sum(wi * pi for wi, pi in zip(w, p)), sum(w))
    var = Fraction(sum(wi * pi * pi for wi, pi in zip(w, p)), sum(w)) - mean * mean
    dev = power(k) - mean
    ami = dev / (A ** q + (n - A) ** q - mean)
    return float(ami), (1 if dev > 0 else -1) * math.sqrt(dev * dev / var)


U = 2.0 ** -53


def _law_rtol(a, b, q=None):
    """The stated bound on the relative error of E[sum f(n_ij)] for f >= 0 as the package sums
    it (``expected_scaled_power_sum``, ``expected_tsallis_sum``): terms P(k) f(k) >= 0, P(k)
    from the ratios of neighbours accumulated over the cell's window (W values, log P within
    M of its value at the window's start: each step within u (3 + |step|), each addition
    within u of the partial sum), normalised by their sum (W u), f(k) within (q + 8) u (a
    power of k / s) or 8 u: each term within u (W (4 + 2 M) + q + 16), and so the sum. W and M
    from the windows of ``clusteragree._moments.cells`` (the tilted ones when ``q`` is given),
    M from scipy's log-pmf (within 1e-3 here)."""
    n = int(sum(a))
    A, B = (v.ravel() for v in np.meshgrid(np.unique(a), np.unique(b), indexing="ij"))
    lo, hi = cells.cell_windows(A, B, n)
    if q is not None:
        tlo, thi = cells.tilted_windows(A, B, n, q)
        lo, hi = np.minimum(lo, tlo), np.maximum(hi, thi)
    worst = 0.0
    for al, bl, l0, h0 in zip(A, B, lo, hi):
        logp = hypergeom.logpmf(np.arange(l0, h0 + 1), n, al, bl)
        worst = max(worst, len(logp) * (4 + 2 * (float(np.abs(logp - logp[0]).max()) + 1e-3)))
    return U * (worst + (q or 0.0) + 16)


def _smi_bound(P, E, var, var_bound, P_rtol, E_rtol):
    """A first-order bound on the error of (P - E) / sqrt(var) from those of P, E and var."""
    z = (P - E) / math.sqrt(var)
    return (P_rtol * abs(P) + E_rtol * abs(E)) / math.sqrt(var) + abs(z) * var_bound / (2 * var)


@pytest.mark.parametrize("A, n, k", [(1000, 2000, 520), (300, 1000, 100)])
def test_large_orders_where_the_mean_lies_in_the_far_tail(A, n, k):
    # with n_ij^q weighing them, values the plain law leaves out (P < e^-45) carry E[P]
    table = [[k, A - k], [A - k, n - 2 * A + k]]
    for q in (50, 400):
        ami, smi = _exact_2x2(A, n, q, k)
        assert ca.agreement(table, index="ami_tsallis", q=q) == pytest.approx(ami, rel=1e-12)
    # the variance's sums cover the cells' windows only: beyond an order they refuse, and name
    # it; up to that order they are exact
    with pytest.raises(ValueError, match=r"q = 400 is beyond .* q <= [0-9.]+ here") as err:
        ca.agreement(table, index="smi_tsallis", q=400)
    bound = float(re.search(r"q <= ([0-9.]+) here", str(err.value)).group(1))
    assert 20 < bound < 400
    # issue 29: at q = 165 SMI_q was off by 8.7e-10 relatively on a machine of CI's kind (the
    # FFT's rounding in Var[P]; 1.1e-10 here). Within the stated bounds of its parts: P (four
    # powers of x / s, each within (q + 2) u), E[P] (``_law_rtol``) and Var[P]
    # (``variance_of_power_sum_bound``)
    a = b = [A, n - A]
    for q in (20, math.floor(bound)):
        _, smi = _exact_2x2(A, n, q, k)
        got = ca.agreement(table, index="smi_tsallis", q=q)
        scale = float(power_sum_scale(a, b))
        P = float(sum((Fraction(x) / Fraction(scale)) ** q for r in table for x in r))
        E, _ = power_sum_moments(a, b, q, scale)
        var, var_bound = variance_of_power_sum_bound(a, b, q, scale)
        tol = _smi_bound(P, E, var, var_bound, (q + 6) * U, _law_rtol(a, b, q))
        assert abs(got - smi) <= tol, (got, smi, tol)
        assert tol < 1e-10 * abs(smi), tol / abs(smi)  # below the errors of issue 29


@pytest.mark.parametrize("name", ["ami_tsallis", "smi_tsallis"])
@pytest.mark.parametrize("table", _SMALL)
def test_large_orders_are_continuous_in_q(name, table):
    # near q = 400 the values are either at their limit or on their way to it geometrically
    # (a ratio of sums of powers): one sign, and log |value| nearly straight in q
    values = np.array([ca.agreement(table, index=name, q=q)
                       for q in (399, 399.5, 400, 400.5, 401)])
    assert np.isfinite(values).all() and len(set(np.sign(values))) == 1 and values[0] != 0
    logs = np.log(np.abs(values))
    assert np.abs(np.diff(logs)).max() < 0.5
    assert np.abs(np.diff(logs, 2)).max() < 1e-3


def _limits(table):
    """The q -> infinity limits of AMI_q and SMI_q from the definitions. Divided by M^q, M
    the largest margin, sum (x / M)^q tends to the number of x equal to M, so AMI_q tends to
    (N - E[N]) / ((R + C) / 2 - E[N]), N the cells equal to M and R, C the margins equal to M.
    SMI_q is scale-free: with m the largest value a cell can take (the smaller of the largest
    margins), it tends to (N_m - E[N_m]) / sd[N_m], N_m the cells equal to m."""
    a = [sum(r) for r in table]
    b = [sum(c) for c in zip(*table)]
    big, m = max(a + b), min(max(a), max(b))
    law = _exact_tables(a, b)

    def count(t, v):
        return sum(x == v for r in t for x in r)

    e_big = sum(p * count(t, big) for t, p in law)
    ami = (count(table, big) - e_big) / (Fraction(a.count(big) + b.count(big), 2) - e_big)
    e_m = sum(p * count(t, m) for t, p in law)
    v_m = sum(p * (count(t, m) - e_m) ** 2 for t, p in law)
    dev = count(table, m) - e_m
    return float(ami), (1 if dev > 0 else -1) * math.sqrt(dev * dev / v_m)


@pytest.mark.parametrize("table", _SMALL)
def test_very_large_orders_give_the_limits_of_the_definition(table):
    ami, smi = _limits(table)
    for q in (10**6, 1e300):
        got = ca.agreement(table, index=["ami_tsallis", "smi_tsallis"], q=q)
        assert got["ami_tsallis"] == pytest.approx(ami, rel=1e-12)
        assert got["smi_tsallis"] == pytest.approx(smi, rel=1e-12)


def test_large_orders_leak_no_warning_and_keep_a_null_mean_of_zero():
    table = [[20, 10], [10, 20]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for q in (400, 10**6):
            assert np.isfinite(ca.agreement(table, index="ami_tsallis", q=q))
            assert np.isfinite(ca.agreement(table, index="smi_tsallis", q=q))
        nd = ca.nulls.null_distribution(table, index="ami_tsallis", method="exact", q=400)
        assert abs(nd.mean) < 1e-12  # the law merges values within its tie tolerance
        # table by table: most values are about -2 / C(60, 30) ~ -1.7e-17, the two identical
        # tables 1 with probability 1 / C(60, 30) each, and with the exact probabilities the
        # mean is 0 to 1e-15 of that
        law = _exact_tables([30, 30], [30, 30])
        values = ca.get_index("ami_tsallis").on_counts(np.array([t for t, _ in law]), q=400)
        assert abs(float(sum(Fraction(v) * p for v, (_, p) in zip(values, law)))) < 1e-32
        identical = [[30, 0], [0, 30]]
        assert ca.agreement(identical, index="ami_tsallis", q=10**6) == 1.0
        assert ca.agreement(identical, index="smi_tsallis", q=10**6) > 0


@pytest.mark.parametrize("name", ["ami_tsallis", "smi_tsallis"])
def test_a_batch_at_a_large_order_matches_table_by_table(name):
    tabs = np.asarray(ca.nulls.patefield.random_tables([8, 9, 10], [8, 9, 10], n_sim=20, seed=4))
    mixed = np.stack([tabs[0], np.array([[20, 4, 3], [2, 5, 1], [1, 1, 1]])])
    for batch in (tabs, mixed):
        np.testing.assert_allclose(ca.get_index(name).on_counts(batch, q=400),
                                   [ca.agreement(t, index=name, q=400) for t in batch],
                                   rtol=1e-12)


def test_scaled_power_sums_at_a_large_order():
    # E[sum (n_ij / 30)^q] -> 4 P(n_11 = 30) = 4 / C(60, 30); unscaled it passes the range
    exact = Fraction(sum(p * sum(Fraction(x, 30) ** 400 for r in t for x in r)
                         for t, p in _exact_tables([30, 30], [30, 30])))
    assert expected_power_sum([30, 30], [30, 30], 400, scale=30) == pytest.approx(
        float(exact), rel=1e-12)
    mean, _ = power_sum_moments([30, 30], [30, 30], 400, scale=30)
    assert mean == pytest.approx(float(exact), rel=1e-12)
    with pytest.raises(OverflowError, match="pass scale="):
        expected_power_sum([30, 30], [30, 30], 400)


# -- near q = 1: the sums of (x^q - x) / (q - 1), against 60-digit sums over every table

def _exact_near_one(table, q, digits=60):
    """AMI_q and SMI_q from the sums P' = sum (x^q - x) / (q - 1) (x log x at q = 1) over every
    table (``_exact_tables``' exact probabilities), with x^q = exp(q ln x) in ``digits``
    digits: AMI_q = (P' - E[P']) / ((A' + B') / 2 - E[P']), SMI_q = (P' - E[P']) / sd[P']
    (the 1 / (q - 1), the n's and the n^q of the definitions cancel, as in the module)."""
    getcontext().prec = digits
    Q = Decimal(q)

    def f(x):
        if x == 0:
            return Decimal(0)
        X = Decimal(x)
        return X * X.ln() if Q == 1 else ((Q * X.ln()).exp() - X) / (Q - 1)

    a = [sum(r) for r in table]
    b = [sum(c) for c in zip(*table)]
    law = [(sum(f(x) for r in t for x in r), Decimal(p.numerator) / Decimal(p.denominator))
           for t, p in _exact_tables(a, b)]
    mean = sum(p * v for v, p in law)
    var = sum(p * (v - mean) ** 2 for v, p in law)
    dev = sum(f(x) for r in table for x in r) - mean
    avg = (sum(f(x) for x in a) + sum(f(x) for x in b)) / 2
    return dev / (avg - mean), dev / var.sqrt()


def _near_one_bounds(table, q):
    """Stated bounds on the rounding of AMI_q and SMI_q near q = 1 (``_near_sums`` of the
    module): P', A', B' sums of terms >= 0 each within 8 u (``tsallis_terms``) and 4 more u
    for adding them up; E[P'] within ``_law_rtol``; Var[P'] within its bound
    (``variance_of_tsallis_sum_bound``). At q = 1 the AMI and SMI take MI = (t - sum a log a
    - sum b log b + n log n) / n (each term within 2 u, three additions) and E[MI], a sum of
    signed terms P(k) (k / n) log(n k / (a b)) each within ``_law_rtol`` + 4 u, against
    their absolute values."""
    t = np.asarray(table, dtype=float)
    a, b, n = t.sum(axis=1), t.sum(axis=0), float(t.sum())
    f = cells.tsallis_terms
    P, A, B = (float(f(v, q).sum()) for v in (t, a, b))
    E = float(cells.expected_tsallis_sum(a, b, q))
    var, var_bound = variance_of_tsallis_sum_bound(a, b, q)
    law = _law_rtol(a.astype(int), b.astype(int))
    dev, den = P - E, (A + B) / 2 - E
    if q != 1.0:
        d_dev, d_den = 12 * U * P + law * E, 12 * U * (A + B) / 2 + law * E
    else:  # in units of t: MI n and E[MI] n
        sizes = P + A + B + n * math.log(n)
        e_abs = sum(float((hypergeom.pmf(k, int(n), int(ai), int(bj)) * k * np.abs(
            np.log(n * np.maximum(k, 1) / (ai * bj)))).sum())
            for ai in a for bj in b for k in [np.arange(0, int(min(ai, bj)) + 1)])
        d_dev = 6 * U * sizes + (law + 4 * U) * e_abs
        d_den = d_dev + 8 * U * (A + B)
    ami, smi = dev / den, dev / math.sqrt(var)
    return ((d_dev + abs(ami) * d_den) / abs(den),
            d_dev / math.sqrt(var) + abs(smi) * var_bound / (2 * var))


@pytest.mark.parametrize("table", _SMALL)
def test_values_near_q_1_are_continuous(table):
    # issue 29: ami_tsallis at q = 1 +- 1e-12 was exactly 0 on [[20, 10], [10, 20]], where q = 1
    # and q = 1 +- 1e-9 gave the AMI (0.0702): the sums of n^q differed from their means by
    # (q - 1) times what matters. Each value is within its stated bound (below 1e-10 of it)
    # of the 60-digit one at its q, and so within the exact change (of order q - 1) plus both
    # bounds of the value at q = 1
    at_one = ca.agreement(table, index=["ami_tsallis", "smi_tsallis"], q=1)
    exact_one = _exact_near_one(table, 1.0)
    bounds_one = _near_one_bounds(table, 1.0)
    for i, name in enumerate(["ami_tsallis", "smi_tsallis"]):
        assert abs(Decimal(at_one[name]) - exact_one[i]) <= Decimal(bounds_one[i])
    for h in (1e-15, 1e-12, 1e-9, 1e-6):
        for q in (1 + h, 1 - h):
            got = ca.agreement(table, index=["ami_tsallis", "smi_tsallis"], q=q)
            exact = _exact_near_one(table, q)
            bounds = _near_one_bounds(table, q)
            for i, name in enumerate(["ami_tsallis", "smi_tsallis"]):
                assert abs(Decimal(got[name]) - exact[i]) <= Decimal(bounds[i]), (name, q)
                assert abs(got[name] - at_one[name]) <= (
                    float(abs(exact[i] - exact_one[i])) + bounds[i] + bounds_one[i]), (name, q)
                assert bounds[i] < 1e-10 * abs(got[name])
