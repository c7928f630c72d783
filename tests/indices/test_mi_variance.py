"""The exact Var[MI] and Var[sum n_ij^q] under fixed margins
(``clusteragree._moments.mi_variance``): against exact values (a 40-digit sum over the law of
n_11 for 2 x 2 tables up to n = 10^6, a 60-digit sum over every table of small tables, exact
rationals for sum n_ij^q), its Hankel products by FFT against the same products taken
directly, and the whole against the term-by-term sum over the conditional laws.

Tolerances come from the stated bound on the rounding of the variance
(``n_mi_variance_bound``, ``variance_of_power_sum_bound``; module docstring, "Rounding"): a
first-order bound in u = 2^-53, computed from the margins with the sums themselves, that holds
on any machine (the FFT's part is bounded from the transforms' normwise error bounds, and an
FFT product whose bound is above the direct one's is taken directly). It is loose (the errors
measured are 1e-16 to 1e-14, the bounds 1e-13 to 1e-9), so a few tests keep tighter
tolerances that they met before the bound existed, by a factor of 1000 or more.
"""

import math
from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree._moments import mi_variance
from clusteragree._moments.mi_variance import (
    _n_mi_variance_direct,
    deviance,
    n_mi_variance,
    n_mi_variance_bound,
    power_sum_scale,
    variance_of_power_sum,
    variance_of_power_sum_bound,
    variance_work,
)
from clusteragree.nulls.enumeration import count_tables

U = 2.0 ** -53


def _fft_and_direct(func, *args):
    """func(*args) with every Hankel product by FFT, then with every one taken directly."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mi_variance, "FFT_MIN_WIDTH", 0)
        fft = func(*args)
        patch.setattr(mi_variance, "FFT_MIN_WIDTH", 10**9)
        direct = func(*args)
    return fft, direct


def _within_bounds(fft, direct):
    """Two (value, bound) pairs of the same variance agree within the sum of their bounds."""
    return abs(fft[0] - direct[0]) <= fft[1] + direct[1]


def _margins(rng, K, Q, n, alpha):
    """Margins of n objects in K and Q non-empty clusters, sizes from Dirichlet(alpha): small
    alpha gives lopsided margins (clusters of one object next to most of the n)."""
    a = rng.multinomial(n - K, rng.dirichlet(np.full(K, alpha))) + 1
    b = rng.multinomial(n - Q, rng.dirichlet(np.full(Q, alpha))) + 1
    return a, b


@st.composite
def margins(draw, max_log_n=4.3, max_k=10):
    K, Q = draw(st.integers(1, max_k)), draw(st.integers(1, max_k))
    n = max(K, Q, int(10 ** draw(st.floats(1.0, max_log_n))))
    alpha = 10 ** draw(st.floats(-1.0, 1.0))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return _margins(rng, K, Q, n, alpha)


def _close(x, y, rel):
    return abs(x - y) <= rel * max(abs(x), abs(y), 1e-300)


@settings(max_examples=60, deadline=None)
@given(margins())
def test_the_fft_products_equal_the_direct_ones(ab):
    fft, direct = _fft_and_direct(n_mi_variance_bound, *ab)
    assert _within_bounds(fft, direct), (fft, direct)
    assert _close(fft[0], direct[0], 1e-11), (fft, direct)  # as before the bound


@pytest.mark.parametrize("K, Q, alpha", [(10, 10, 100.0), (10, 10, 1.0), (2, 2, 1.0),
                                         (3, 7, 0.3), (10, 1, 1.0)])
def test_the_fft_products_equal_the_direct_ones_at_n_10_5(K, Q, alpha):
    a, b = _margins(np.random.default_rng(K * Q), K, Q, 10**5, alpha)
    fft, direct = _fft_and_direct(n_mi_variance_bound, a, b)
    assert _within_bounds(fft, direct), (fft, direct)
    assert _close(fft[0], direct[0], 1e-11), (fft, direct)


@settings(max_examples=40, deadline=None)
@given(margins(max_log_n=3.7, max_k=8))
def test_the_variance_equals_the_term_by_term_sum(ab):
    fast, slow = n_mi_variance(*ab), _n_mi_variance_direct(*ab)
    assert _close(fast, slow, 1e-10), (fast, slow)


@settings(max_examples=30, deadline=None)
@given(margins(max_log_n=4.0, max_k=6), st.sampled_from([0.5, 1.5, 2.0, 3.0]))
def test_the_power_sums_fft_products_equal_the_direct_ones(ab, q):
    scale = power_sum_scale(*ab)
    fft, direct = _fft_and_direct(variance_of_power_sum_bound, *ab, q, scale)
    assert _within_bounds(fft, direct), (fft, direct)
    assert _close(fft[0], direct[0], 1e-11), (fft, direct)


def test_the_fft_is_not_trusted_beyond_its_bound():
    # issue 29: Var[sum (n_ij / 648)^165] of two clusters of 1000 against two of 1000 by FFT
    # was off by 2.2e-10 here and 1.7e-9 on another machine (the products' rounding, absolute,
    # swamped the tail values n^165 weighs): the FFT's bound is far above the direct one's
    # there, so the products are taken directly, and the variance equals the exact rational
    # within its bound
    A, n, q, scale = 1000, 2000, 165, 648
    xs = range(0, A + 1)
    w = [math.comb(A, x) * math.comb(n - A, A - x) for x in xs]
    p = [Fraction(x ** q + 2 * (A - x) ** q + (n - 2 * A + x) ** q, scale ** q) for x in xs]
    mean = sum(wi * pi for wi, pi in zip(w, p)) / sum(w)
    exact = sum(wi * (pi - mean) ** 2 for wi, pi in zip(w, p)) / sum(w)
    for func in (lambda: variance_of_power_sum_bound([A, A], [A, A], q, scale),
                 lambda: _fft_and_direct(variance_of_power_sum_bound, [A, A], [A, A], q,
                                         scale)[0]):
        var, bound = func()
        assert abs(Fraction(var) - exact) <= bound, (var, float(exact), bound)
        assert bound < 2e-10 * var  # below the error the FFT made


def _var_t_2x2(a, b, digits=40):
    """Var[sum_ij n_ij log n_ij] of the 2 x 2 tables with margins a, b, summed over the whole
    support of n_11 with ``digits`` significant digits (Decimal): probabilities by the ratio of
    neighbours, each n log n from Decimal's ln."""
    getcontext().prec = digits
    n, a1, b1 = a[0] + a[1], a[0], b[0]
    lo, hi = max(0, a1 + b1 - n), min(a1, b1)

    def xlx(x):
        return Decimal(x) * Decimal(x).ln() if x > 0 else Decimal(0)

    p, mass, first, second = Decimal(1), Decimal(0), Decimal(0), Decimal(0)
    for k in range(lo, hi + 1):
        if k > lo:
            p = p * (b1 - k + 1) * (a1 - k + 1) / (k * (n - a1 - b1 + k))
        t = xlx(k) + xlx(a1 - k) + xlx(b1 - k) + xlx(n - a1 - b1 + k)
        mass, first, second = mass + p, first + p * t, second + p * t * t
    var = second / mass - (first / mass) ** 2
    return var if digits > 40 else float(var)


@pytest.mark.parametrize("a, b", [
    ([7, 5], [6, 6]),
    ([500, 500], [400, 600]),   # issue 29, item 7: [[400, 100], [0, 500]]
    ([1200, 800], [1000, 1000]),
    ([3940, 96060], [9413, 90587]),
    ([99_000, 1000], [60_000, 40_000]),
    ([998_500, 1500], [700_000, 300_000]),   # huge counts: n = 10^6
    ([500_000, 500_000], [400_000, 600_000]),
])
def test_2_x_2_variances_equal_a_40_digit_sum(a, b):
    exact = Decimal(_var_t_2x2(a, b, digits=50))
    for func in (n_mi_variance_bound,
                 lambda a, b: _fft_and_direct(n_mi_variance_bound, a, b)[0],
                 lambda a, b: _fft_and_direct(n_mi_variance_bound, a, b)[1]):
        var, bound = func(a, b)
        assert abs(Decimal(var) - exact) <= Decimal(bound), (var, exact, bound)
        assert bound < 2e-9 * var  # the bound means something: 1e-8 was the tolerance before


@settings(max_examples=30, deadline=None)
@given(margins(max_log_n=4.0), st.randoms(use_true_random=False))
def test_the_variance_ignores_order_orientation_and_empty_clusters(ab, random):
    a, b = ab
    v = n_mi_variance_bound(a, b)
    shuffled_a, shuffled_b = list(a), list(b)
    random.shuffle(shuffled_a)
    random.shuffle(shuffled_b)
    for other in (n_mi_variance_bound(shuffled_a + [0], [0] + shuffled_b),
                  n_mi_variance_bound(b, a)):
        assert _within_bounds(other, v), (other, v)
        assert _close(other[0], v[0], 1e-10)
    assert variance_work(b, a) == variance_work(shuffled_a, shuffled_b)


# -- small tables against every table: Var[t] summed over the whole law in 60 digits

def _tables(a, b):
    """Every table with row sums a and column sums b (rows of compositions)."""
    def rows_of(total, caps):
        if len(caps) == 1:
            if total <= caps[0]:
                yield (total,)
            return
        for v in range(max(0, total - sum(caps[1:])), min(total, caps[0]) + 1):
            for tail in rows_of(total - v, caps[1:]):
                yield (v,) + tail
    if len(a) == 1:
        yield (tuple(b),)
        return
    for row in rows_of(a[0], list(b)):
        for rest in _tables(a[1:], [c - r for c, r in zip(b, row)]):
            yield (row,) + rest


def _var_t_by_enumeration(a, b, digits=60):
    """Var[sum n_ij log n_ij] over every table with margins a, b, each with its probability
    prod a_i! prod b_j! / (n! prod n_ij!) (exact integers, then one division in ``digits``
    digits), n log n from Decimal's ln."""
    getcontext().prec = digits
    n = sum(a)
    xlx = [Decimal(0)] + [Decimal(x) * Decimal(x).ln() for x in range(1, n + 1)]
    fact = [math.factorial(x) for x in range(n + 1)]
    top = Decimal(math.prod(fact[x] for x in a) * math.prod(fact[x] for x in b))
    mass = first = second = Decimal(0)
    for table in _tables(list(a), list(b)):
        p = top / Decimal(fact[n] * math.prod(fact[x] for row in table for x in row))
        t = sum(xlx[x] for row in table for x in row)
        mass, first, second = mass + p, first + p * t, second + p * t * t
    assert abs(mass - 1) < Decimal(10) ** (10 - digits)
    return second - first * first


def _small_margins(seed, how_many, limit=20_000):
    """Random margins of 2 x 2 to 3 x 4 tables of up to 400 objects (uniform, lopsided and
    equal cluster sizes) whose tables number at most ``limit``."""
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < how_many:
        K, Q = int(rng.integers(2, 4)), int(rng.integers(2, 5))
        n = int(rng.integers(max(K, Q) + 1, 401))
        alpha = 10 ** rng.uniform(-1, 1)
        a = rng.multinomial(n - K, rng.dirichlet(np.full(K, alpha))) + 1
        b = rng.multinomial(n - Q, rng.dirichlet(np.full(Q, alpha))) + 1
        if a.max() > 1 and b.max() > 1 and count_tables(a, b, limit=limit) <= limit:
            out.append((sorted(a.tolist()), sorted(b.tolist())))
    return out


@pytest.mark.parametrize("a, b", _small_margins(29, 40))
def test_small_tables_variances_equal_the_sum_over_every_table(a, b):
    # issue 29: the exact variance is exact to within its stated bound, which is below 1e-9
    # of it on these tables (n <= 400); with the FFT and with direct products
    exact = _var_t_by_enumeration(a, b)
    for var, bound in (n_mi_variance_bound(a, b),
                       *_fft_and_direct(n_mi_variance_bound, a, b)):
        assert abs(Decimal(var) - exact) <= Decimal(bound), (var, exact, bound)
        assert bound <= 1e-9 * var


def test_the_deviance_is_within_its_bound():
    # x log(x / mu) - x + mu by Loader's series near mu and as written elsewhere, against
    # 50 digits, within the bound of _deviance_error (16 u of it near mu)
    getcontext().prec = 50
    rng = np.random.default_rng(7)
    for mu in (0.3, 1.7, 12.34, 333.5, 1e4 / 7, 123456.789, 3e6):
        x = np.unique(np.round(mu * np.exp(rng.normal(0, 0.7, 500))))
        x = np.concatenate([x, np.arange(max(0, int(mu) - 30), int(mu) + 30)]).astype(float)
        got = deviance(x, mu)
        bound = mi_variance._deviance_error(x, mu, got)
        for xi, gi, bi in zip(x, got, bound):
            X, M = Decimal(int(xi)), Decimal(mu)
            exact = (X * (X / M).ln() if xi > 0 else Decimal(0)) - X + M
            assert abs(Decimal(gi) - exact) <= Decimal(bi), (xi, mu, gi, exact, bi)


def test_degenerate_margins_give_zero():
    assert n_mi_variance([10], [3, 7]) == 0.0 == n_mi_variance([3, 7], [10])
    assert n_mi_variance([1] * 5, [2, 3]) == 0.0 == n_mi_variance([2, 3], [1] * 5)
    assert n_mi_variance([1, 1], [1, 1]) == 0.0 == variance_work([1, 1], [1, 1])
    assert variance_of_power_sum([1] * 4, [2, 2], 2.0) == 0.0
