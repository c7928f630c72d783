"""AMI_q and SMI_q (Tsallis entropy of order q): the known members (q = 2 is ARI and SRI, q = 1
the AMI and SMI), the mean and variance of the power sum against every table with the margins,
a null mean of exactly 0, and the z of the exact law."""

import math
import re
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clusteragree as ca
from clusteragree._moments.squares import moments_of_s
from clusteragree._moments.mi_variance import variance_of_power_sum
from clusteragree.indices.tsallis import expected_power_sum, power_sum_moments
from clusteragree.nulls.exact import count_tables, enumerate_tables

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
    for q in (20, math.floor(bound)):
        _, smi = _exact_2x2(A, n, q, k)
        assert ca.agreement(table, index="smi_tsallis", q=q) == pytest.approx(smi, rel=1e-11)


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
