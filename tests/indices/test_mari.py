"""Null moments of MARI (Sundqvist, Chiquet & Rigaill 2023, "Adjusting the adjusted Rand
Index", Computational Statistics 38): ``ca.mari_null_moments``.

Independent computations: every table with the given margins (``enumerate_tables`` for the list,
the probabilities recomputed here as exact fractions from f(M) = prod a_i! prod b_j! /
(n! prod n_ij!)), every distinct permutation of a label vector, and under the multinomial null
every pair of label vectors or every table with its multinomial probability. The numerator and
denominator are recomputed on each table from their definitions, in exact arithmetic.
"""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clusteragree as ca
from clusteragree._moments.mari import fixed_margin_moments
from clusteragree.nulls.enumeration import count_tables, enumerate_tables
from clusteragree.nulls.hypergeometric import moments_of_s

KEYS = ("mean_numerator", "var_numerator", "mean_denominator", "var_denominator",
        "cov_numerator_denominator")


def _num_den(tab):
    """D = a11 - E and G = (p + q)/2 - E of one table, exactly (module docstring of mari)."""
    t = [[int(v) for v in row] for row in tab]
    a = [sum(r) for r in t]
    b = [sum(c) for c in zip(*t)]
    n = sum(a)
    a11 = sum(v * (v - 1) // 2 for r in t for v in r)
    p = sum(x * (x - 1) // 2 for x in a)
    q = sum(x * (x - 1) // 2 for x in b)
    L = sum(t[i][j] * a[i] * b[j] for i in range(len(a)) for j in range(len(b)))
    s = sum(v * v for r in t for v in r)
    Q = p * q - a11 - (2 * n + L - s - sum(x * x for x in a) - sum(x * x for x in b))
    e = Fraction(2 * Q, (n - 2) * (n - 3))
    return a11 - e, Fraction(p + q, 2) - e


def _moments(weighted):
    """The five exact moments from (weight, D, G) triples whose weights sum to 1."""
    weighted = list(weighted)
    assert sum(w for w, _, _ in weighted) == 1
    ed = sum(w * d for w, d, _ in weighted)
    eg = sum(w * g for w, _, g in weighted)
    return {"mean_numerator": ed,
            "var_numerator": sum(w * (d - ed) ** 2 for w, d, _ in weighted),
            "mean_denominator": eg,
            "var_denominator": sum(w * (g - eg) ** 2 for w, _, g in weighted),
            "cov_numerator_denominator": sum(w * (d - ed) * (g - eg) for w, d, g in weighted)}


def _by_tables(a, b):
    tables, _ = enumerate_tables(a, b)
    n = int(sum(a))
    const = math.prod(math.factorial(int(x)) for x in [*a, *b])
    for t in tables:
        w = Fraction(const, math.factorial(n) * math.prod(math.factorial(int(v)) for v in t.ravel()))
        yield (w, *_num_den(t))


def _random_margins(rng, max_tables=3000):
    while True:
        K, Q = (int(v) for v in rng.integers(2, 5, size=2))
        n = int(rng.integers(max(K, Q, 4), 31))
        a = rng.multinomial(n - K, rng.dirichlet(np.ones(K))) + 1
        b = rng.multinomial(n - Q, rng.dirichlet(np.ones(Q))) + 1
        if count_tables(a, b, limit=max_tables) <= max_tables:
            return a.tolist(), b.tolist()


# -- fixed margins -----------------------------------------------------------------------------

def test_exact_moments_equal_the_enumeration_of_all_tables():
    rng = np.random.default_rng(20)
    shapes = set()
    for _ in range(24):
        a, b = _random_margins(rng)
        shapes.add((len(a), len(b)))
        got = ca.mari_null_moments(a, b)
        want = _moments(_by_tables(a, b))
        for key in KEYS:
            assert got[key] == want[key], (a, b, key)  # exact rational equality
        assert got["mean_numerator"] == 0
    assert len(shapes) >= 5


def test_exact_moments_equal_all_permutations_of_a_label_vector():
    """n = 8: the law of the table from the distinct relabellings of y against a fixed x."""
    x = [0, 0, 0, 1, 1, 1, 2, 2]
    y0 = [0, 0, 0, 1, 1, 2, 2, 2]
    perms = set(itertools.permutations(y0))
    w = Fraction(1, len(perms))
    triples = []
    for y in perms:
        tab = np.zeros((3, 3), dtype=int)
        np.add.at(tab, (x, list(y)), 1)
        triples.append((w, *_num_den(tab)))
    got = ca.mari_null_moments([3, 3, 2], [3, 2, 3])
    want = _moments(triples)
    for key in KEYS:
        assert got[key] == want[key], key


def test_moments_of_s_agree_with_the_hypergeometric_module():
    for a, b in [([50, 30], [40, 40]), ([7, 5, 3, 1], [6, 6, 4]), ([20] * 10, [25] * 8)]:
        m = fixed_margin_moments(a, b)
        assert (m["mean_s"], m["var_s"]) == moments_of_s(a, b)
        assert m["mean_L"] == Fraction(sum(x * x for x in a) * sum(x * x for x in b), sum(a))


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_property_symmetric_centred_and_equal_to_the_enumeration(data):
    """Hypothesis: random margins, 2 or 3 rows and columns, n = 4 .. 15."""
    rows = data.draw(st.lists(st.integers(1, 5), min_size=2, max_size=3).filter(
        lambda r: sum(r) >= 4))
    n = sum(rows)
    cuts = data.draw(st.lists(st.integers(1, n - 1), min_size=1, max_size=2, unique=True))
    cols = [hi - lo for lo, hi in zip([0, *sorted(cuts)], [*sorted(cuts), n])]
    got = ca.mari_null_moments(rows, cols)
    swapped = ca.mari_null_moments(cols, rows)
    assert got["mean_numerator"] == 0 and got["var_numerator"] >= 0
    for key in KEYS:
        assert got[key] == swapped[key]
    want = _moments(_by_tables(rows, cols))
    for key in KEYS:
        assert got[key] == want[key], key


@pytest.mark.parametrize("a, b", [([10, 10, 10], [15, 15]), ([8, 7, 6, 5], [9, 9, 8]),
                                  ([30, 20, 10], [25, 20, 15]), ([20, 15, 5], [10] * 4)])
def test_delta_method_mean_and_variance_of_mari_against_the_enumeration(a, b):
    """E[MARI] is not 0 (G is random and correlated with D) but tiny: about -Cov(D, G)/E[G]^2,
    the second-order delta term. Over these tables (n = 26 to 60) sd(G)/E[G] is below 4e-4 and
    the neglected terms are of higher order in it: measured relative errors are at most about
    5e-4 for the mean and for the variance. The tolerances 1e-2 and 2e-3 still reject the
    first-order mean (0) and a wrong covariance or variance."""
    tables, prob = enumerate_tables(a, b)
    values = ca.agreement(tables, index="mari")
    mean = float((prob * values).sum())
    var = float((prob * (values - mean) ** 2).sum())
    got = ca.mari_null_moments(a, b)
    assert abs(mean) > 1e-7
    assert got["mean_mari_approx"] == pytest.approx(mean, rel=1e-2)
    assert got["var_mari_approx"] == pytest.approx(var, rel=2e-3)


# -- the multinomial null ----------------------------------------------------------------------

def test_multinomial_moments_equal_all_pairs_of_label_vectors():
    pi, rho = [Fraction(1, 3), Fraction(2, 3)], [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]
    for n in (4, 5):
        triples = []
        for x in itertools.product(range(2), repeat=n):
            wx = math.prod(pi[i] for i in x)
            for y in itertools.product(range(3), repeat=n):
                tab = np.zeros((2, 3), dtype=int)
                np.add.at(tab, (list(x), list(y)), 1)
                triples.append((wx * math.prod(rho[j] for j in y), *_num_den(tab)))
        got = ca.mari_null_moments([1, 2], [1, 1, 2], model="multinomial", n=n)
        want = _moments(triples)
        assert got["mean_numerator"] == 0
        for key in KEYS:
            assert got[key] == want[key], (n, key)


def _compositions(n, k):
    if k == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _compositions(n - first, k - 1):
            yield (first, *rest)


def _multinomial_tables(pi, rho, n):
    cells = [p * r for p in pi for r in rho]
    for c in _compositions(n, len(cells)):
        w = Fraction(math.factorial(n), math.prod(math.factorial(v) for v in c))
        yield w * math.prod(p ** v for p, v in zip(cells, c)), np.reshape(c, (len(pi), len(rho)))


@pytest.mark.parametrize("n", [6, 9, 12])
def test_multinomial_moments_equal_all_tables(n):
    rows, cols = [2, 3, 5], [2, 5]        # probabilities (0.2, 0.3, 0.5) and (2/7, 5/7)
    pi = [Fraction(v, 10) for v in rows]
    rho = [Fraction(v, 7) for v in cols]
    want = _moments((w, *_num_den(t)) for w, t in _multinomial_tables(pi, rho, n))
    got = ca.mari_null_moments(rows, cols, model="multinomial", n=n)
    for key in KEYS:
        assert got[key] == want[key], key


def test_multinomial_delta_method_against_the_exact_law():
    """n = 30, 2 x 3: the tables' multinomial law (3 * 10^5 tables) and MARI on each as the
    registry decides it (identical partitions 1, a vanishing denominator 0). Measured relative
    errors 1e-3 (mean) and 4e-3 (variance); the tolerances are 2e-2."""
    pi, rho = np.array([0.3, 0.7]), np.array([0.2, 0.3, 0.5])
    n = 30
    comps = np.array(list(_compositions(n, 6)))
    logw = (math.lgamma(n + 1) - np.sum([[math.lgamma(v + 1) for v in c] for c in comps], axis=1)
            + comps @ np.log(np.outer(pi, rho).ravel()))
    w = np.exp(logw)
    values = ca.agreement(comps.reshape(-1, 2, 3), index="mari")
    mean = float((w * values).sum())
    var = float((w * (values - mean) ** 2).sum())
    got = ca.mari_null_moments([3, 7], [2, 3, 5], model="multinomial", n=n)
    assert got["mean_mari_approx"] == pytest.approx(mean, rel=2e-2)
    assert got["var_mari_approx"] == pytest.approx(var, rel=2e-2)


def test_multinomial_n_defaults_to_the_total_of_counts():
    a = ca.mari_null_moments([30, 50], [40, 40], model="multinomial")
    b = ca.mari_null_moments([0.375, 0.625], [0.5, 0.5], model="multinomial", n=80)
    assert a["n"] == 80 and all(a[k] == b[k] for k in KEYS)


# -- degenerate cases and bad input ------------------------------------------------------------

def test_degenerate_margins():
    single = ca.mari_null_moments([5], [5])           # one table, both one cluster: MARI = 1
    assert single["mean_mari_approx"] == 1.0 and single["var_numerator"] == 0
    one_table = ca.mari_null_moments([3, 3, 3], [9])  # one table, D = 0 < G: MARI = 0
    assert one_table["mean_mari_approx"] == 0.0 and one_table["var_mari_approx"] == 0.0
    assert ca.agreement([[3], [3], [3]], index="mari") == 0.0


@pytest.mark.parametrize("args, kwargs, match", [
    (([3, 2], [4]), {}, "same total"),
    (([2, 1], [3]), {}, "at least 4"),
    (([3, -1, 2], [4]), {}, "rows must hold non-negative"),
    (([[2, 2]], [4]), {}, "rows must be a non-empty 1-D"),
    (([4], [2.5, 1.5]), {}, "cols must hold non-negative integers"),
    (([4], [4]), {"n": 4}, "n is only for model='multinomial'"),
    (([0.5, 0.5], [1.0]), {"model": "multinomial"}, "n .* is needed"),
    (([2, 1], [3]), {"model": "multinomial"}, "n .* is needed"),
    (([0.5, 0.5], [1.0]), {"model": "multinomial", "n": 3}, "n must be an integer >= 4"),
    (([0, 0], [1.0]), {"model": "multinomial", "n": 5}, "rows must be a non-empty"),
    (([4], [4]), {"model": "binomial"}, "model must be one of"),
])
def test_bad_input_raises_a_clear_error(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        ca.mari_null_moments(*args, **kwargs)


def test_hypergeometric_method_points_to_mari_null_moments():
    with pytest.raises(ValueError, match="mari_null_moments"):
        ca.nulls.null_distribution([[30, 20], [10, 20]], index="mari", method="hypergeometric")
