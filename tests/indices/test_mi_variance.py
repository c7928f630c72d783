"""The exact Var[MI] and Var[sum n_ij^q] under fixed margins
(``clusteragree._moments.mi_variance``): its Hankel products by FFT against the same products
taken directly, the whole against the term-by-term sum over the conditional laws, and 2 x 2
tables against a 40-digit sum over the law of n_11 (up to n = 10^6).

Double precision bounds the agreement of any two ways of summing: the values n_ij log n_ij and
the log factorials carry absolute errors of order 1e-16 n log n, and Var[n MI] (of order the
number of cells) is what is left of sums of order n; two orders of the same sums (the table or
its transpose) differ by about 1e-10 relatively at n = 10^5 and 1e-9 at n = 10^6, in the
einsum version before the FFT as well.
"""

from decimal import Decimal, getcontext

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clusteragree._moments import mi_variance
from clusteragree._moments.mi_variance import (
    _n_mi_variance_direct,
    n_mi_variance,
    power_sum_scale,
    variance_of_power_sum,
    variance_work,
)


def _fft_and_direct(func, *args):
    """func(*args) with every Hankel product by FFT, then with every one taken directly."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mi_variance, "FFT_MIN_WIDTH", 0)
        fft = func(*args)
        patch.setattr(mi_variance, "FFT_MIN_WIDTH", 10**9)
        direct = func(*args)
    return fft, direct


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
    fft, direct = _fft_and_direct(n_mi_variance, *ab)
    assert _close(fft, direct, 1e-11), (fft, direct)


@pytest.mark.parametrize("K, Q, alpha", [(10, 10, 100.0), (10, 10, 1.0), (2, 2, 1.0),
                                         (3, 7, 0.3), (10, 1, 1.0)])
def test_the_fft_products_equal_the_direct_ones_at_n_10_5(K, Q, alpha):
    a, b = _margins(np.random.default_rng(K * Q), K, Q, 10**5, alpha)
    fft, direct = _fft_and_direct(n_mi_variance, a, b)
    assert _close(fft, direct, 1e-11), (fft, direct)


@settings(max_examples=40, deadline=None)
@given(margins(max_log_n=3.7, max_k=8))
def test_the_variance_equals_the_term_by_term_sum(ab):
    fast, slow = n_mi_variance(*ab), _n_mi_variance_direct(*ab)
    assert _close(fast, slow, 1e-10), (fast, slow)


@settings(max_examples=30, deadline=None)
@given(margins(max_log_n=4.0, max_k=6), st.sampled_from([0.5, 1.5, 2.0, 3.0]))
def test_the_power_sums_fft_products_equal_the_direct_ones(ab, q):
    scale = power_sum_scale(*ab)
    fft, direct = _fft_and_direct(variance_of_power_sum, *ab, q, scale)
    assert _close(fft, direct, 1e-11), (fft, direct)


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
    return float(second / mass - (first / mass) ** 2)


@pytest.mark.parametrize("a, b, rel", [
    ([7, 5], [6, 6], 1e-13),
    ([1200, 800], [1000, 1000], 1e-11),
    ([3940, 96060], [9413, 90587], 1e-9),
    ([99_000, 1000], [60_000, 40_000], 1e-9),
    ([998_500, 1500], [700_000, 300_000], 1e-8),   # huge counts: n = 10^6
])
def test_2_x_2_variances_equal_a_40_digit_sum(a, b, rel):
    exact = _var_t_2x2(a, b)
    for func in (n_mi_variance, lambda a, b: _fft_and_direct(n_mi_variance, a, b)[0]):
        assert _close(func(a, b), exact, rel), (func(a, b), exact)


@settings(max_examples=30, deadline=None)
@given(margins(max_log_n=4.0), st.randoms(use_true_random=False))
def test_the_variance_ignores_order_orientation_and_empty_clusters(ab, random):
    a, b = ab
    v = n_mi_variance(a, b)
    shuffled_a, shuffled_b = list(a), list(b)
    random.shuffle(shuffled_a)
    random.shuffle(shuffled_b)
    assert _close(n_mi_variance(shuffled_a + [0], [0] + shuffled_b), v, 1e-10)
    assert _close(n_mi_variance(b, a), v, 1e-10)
    assert variance_work(b, a) == variance_work(shuffled_a, shuffled_b)


def test_degenerate_margins_give_zero():
    assert n_mi_variance([10], [3, 7]) == 0.0 == n_mi_variance([3, 7], [10])
    assert n_mi_variance([1] * 5, [2, 3]) == 0.0 == n_mi_variance([2, 3], [1] * 5)
    assert n_mi_variance([1, 1], [1, 1]) == 0.0 == variance_work([1, 1], [1, 1])
    assert variance_of_power_sum([1] * 4, [2, 2], 2.0) == 0.0
