"""Indices stay right at any n up to 2**53: huge and near-overflow counts against exact rational
(``fractions``) and 40-digit decimal arithmetic written here from the definitions."""

from __future__ import annotations

import math
from decimal import Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clusteragree as ca

getcontext().prec = 40


def exact_pairs(table):
    t = [[int(v) for v in row] for row in table]
    n = sum(map(sum, t))
    a11 = sum(v * (v - 1) // 2 for row in t for v in row)
    p = sum(r * (r - 1) // 2 for r in map(sum, t))
    q = sum(c * (c - 1) // 2 for c in map(sum, zip(*t)))
    T = n * (n - 1) // 2
    return a11, p - a11, q - a11, T - p - q + a11, p, q, T, n


def _sqrt(x: Fraction) -> Decimal:
    return (Decimal(x.numerator) / Decimal(x.denominator)).sqrt()


def exact_index(name, table):
    a11, a10, a01, a00, p, q, T, n = map(Fraction, exact_pairs(table))
    if name == "rand":
        return (a11 + a00) / T
    if name == "adjusted_rand":
        e = p * q / T
        return (a11 - e) / ((p + q) / 2 - e)
    if name == "jaccard":
        return a11 / (a11 + a10 + a01)
    if name == "czekanowski":
        return 2 * a11 / (2 * a11 + a10 + a01)
    if name == "mirkin":
        return 2 * (a10 + a01) / (n * n)
    if name == "wallace_x":
        return a11 / p
    if name == "kulczynski":
        return (a11 / p + a11 / q) / 2
    if name == "mcconnaughey":
        return (a11 * a11 - a10 * a01) / (p * q)
    if name == "goodman_kruskal":
        return (a11 * a00 - a10 * a01) / (a11 * a00 + a10 * a01)
    if name == "sokal_sneath2":
        return a11 / (a11 + 2 * (a10 + a01))
    if name == "fowlkes_mallows":
        return Decimal(a11.numerator) / _sqrt(p * q)
    raise KeyError(name)


def exact_information(name, table):
    t = [[Decimal(int(v)) for v in row] for row in table]
    n = sum(sum(row) for row in t)
    rows = [sum(row) for row in t]
    cols = [sum(c) for c in zip(*t)]

    def h(parts):
        return -sum((v / n) * (v / n).ln() for v in parts if v > 0)

    hx, hy = h(rows), h(cols)
    hxy = h([v for row in t for v in row])
    mi = hx + hy - hxy
    if name == "mutual_info":
        return mi
    if name == "nmi_sum":
        return 2 * mi / (hx + hy)
    if name == "variation_of_information":
        return hx + hy - 2 * mi
    raise KeyError(name)


PAIR_NAMES = ["rand", "adjusted_rand", "jaccard", "czekanowski", "mirkin", "wallace_x",
              "kulczynski", "mcconnaughey", "goodman_kruskal", "sokal_sneath2",
              "fowlkes_mallows"]
INFO_NAMES = ["mutual_info", "nmi_sum", "variation_of_information"]


def close(ours, exact, tol=1e-12):
    exact = float(exact)
    return abs(ours - exact) <= tol * max(1.0, abs(exact))


def test_the_review_case_of_near_overflow_counts():
    # formerly -2.0 and -0.333 with only a warning
    table = [[2**40, 1], [1, 2**40]]
    ours = ca.agreement(table, index=["adjusted_rand", "rand"])
    assert ours["adjusted_rand"] == pytest.approx(float(exact_index("adjusted_rand", table)),
                                                  rel=1e-12)
    assert ours["rand"] == pytest.approx(float(exact_index("rand", table)), rel=1e-12)
    assert ca.ContingencyTable(table).n == 2**41 + 2


@pytest.mark.parametrize("table", [[[2**62, 0], [0, 2**62]], [[2**53, 1], [0, 0]],
                                   np.array([[2**64 - 1, 1], [0, 1]], dtype=np.uint64),
                                   [[2**70, 1], [1, 1]]])
def test_more_than_2_to_the_53_objects_is_refused(table):
    with pytest.raises(ValueError, match=r"more than 2\*\*53 objects"):
        ca.agreement(table, index="rand")


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.integers(2, 4).flatmap(lambda k: st.integers(2, 4).flatmap(
    lambda q: st.lists(st.lists(st.integers(0, 20), min_size=q, max_size=q), min_size=k,
                       max_size=k))),
    st.sampled_from([2**30, 2**40, 3**25, 1]))
def test_scaled_counts_equal_exact_arithmetic(table, scale):
    big = np.array(table, dtype=np.int64) * scale
    if (big.sum(axis=1) == 0).all() or big.sum() < 2:
        return
    tab = ca.ContingencyTable(big)  # drops empty rows and columns
    counts = tab.counts.tolist()
    values = ca.agreement(tab, index=PAIR_NAMES + INFO_NAMES)
    a11, a10, a01, a00, p, q, T, n = exact_pairs(counts)
    for name in PAIR_NAMES:
        try:
            ref = exact_index(name, counts)
        except ZeroDivisionError:
            continue  # a degenerate table: the registry's rule, tested elsewhere
        assert close(values[name], ref), (name, values[name], float(ref))
    if len(counts) > 1 and len(counts[0]) > 1:
        for name in INFO_NAMES:
            assert close(values[name], exact_information(name, counts), 1e-11), name


def test_exact_pair_counts_object_beyond_int64():
    tab = ca.ContingencyTable([[3 * 2**31, 5], [7, 2**32]])
    assert tab.pairs.a11 == math.comb(3 * 2**31, 2) + math.comb(5, 2) + math.comb(7, 2) + \
        math.comb(2**32, 2)


# -- the closed-form variance of the information indices (issue 29, item 7)

def _var_t_of_2x2(a, b, digits=50):
    """Var[t], t = sum n_ij log n_ij, over the 2 x 2 tables with margins a, b: every n_11 with
    its probability C(b1, k) C(n - b1, a1 - k) / C(n, a1) (exact integers), n log n from
    Decimal's ln, in ``digits`` digits."""
    getcontext().prec = digits
    (a1, a2), b1 = a, b[0]
    n = a1 + a2

    def xlx(x):
        return Decimal(x) * Decimal(x).ln() if x > 0 else Decimal(0)

    first = second = Decimal(0)
    for k in range(max(0, a1 + b1 - n), min(a1, b1) + 1):
        p = Decimal(math.comb(b1, k) * math.comb(n - b1, a1 - k)) / Decimal(math.comb(n, a1))
        t = xlx(k) + xlx(a1 - k) + xlx(b1 - k) + xlx(n - a1 - b1 + k)
        first, second = first + p * t, second + p * t * t
    out = second - first * first
    getcontext().prec = 40
    return out


def _check_information_variances(table):
    """Var[MI] = Var[t] / n^2 and Var[VI] = 4 Var[MI] from method="hypergeometric" against the
    50-digit Var[t], within the stated bound: the slope read from the index's formula within
    ``slope_rtol`` (twice that in its square) and Var[t] within ``n_mi_variance_bound``."""
    from clusteragree._moments.mi_variance import n_mi_variance_bound
    from clusteragree.nulls.hypergeometric import slope_rtol
    a = [sum(r) for r in table]
    b = [sum(c) for c in zip(*table)]
    n = sum(a)
    var_t = _var_t_of_2x2(a, b)
    v, v_bound = n_mi_variance_bound(a, b)
    rtol = 2 * slope_rtol(a, b) + v_bound / v
    for name, factor in (("mutual_info", 1), ("variation_of_information", 4)):
        got = ca.nulls.null_distribution(table, index=name, method="hypergeometric").var
        exact = factor * var_t / (n * n)
        assert abs(Decimal(got) - exact) <= Decimal(rtol) * exact, (name, got, exact, rtol)
    return rtol


def test_the_variance_of_mi_of_a_2x2_table_is_exact():
    # issue 29, item 7: 5.015898536222201e-07 where the exact value is 5.0158985341787956e-07
    # (4.1e-10 relative): the slope of MI in t was read from its formula one unit of t either
    # side of E[t], where MI is already clipped at 0 below
    rtol = _check_information_variances([[400, 100], [0, 500]])
    assert rtol < 1e-10


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.integers(2, 1000), st.data())
def test_the_variance_of_mi_of_2x2_tables_is_exact(n, data):
    a1 = data.draw(st.integers(1, n - 1))
    b1 = data.draw(st.integers(1, n - 1))
    k = data.draw(st.integers(max(0, a1 + b1 - n), min(a1, b1)))
    table = [[k, a1 - k], [b1 - k, n - a1 - b1 + k]]
    if max(a1, n - a1) > 1 and max(b1, n - b1) > 1:  # else Var[t] = 0
        _check_information_variances(table)
