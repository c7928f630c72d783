"""Exact null moments of the numerator and denominator of MARI, under fixed margins and under
the multinomial null (private; the public face is ``clusteragree.mari_null_moments``).

MARI = D / G with (Sundqvist, Chiquet & Rigaill 2023, "Adjusting the adjusted Rand Index",
Computational Statistics 38; notation of ``clusteragree.indices.mari``)

    D = a11 - E,   G = (p + q) / 2 - E,   E = Q / M,   M = C(n - 2, 2),
    Q = p q - a11 - (2n + L - s - sum a_i^2 - sum b_j^2),  s = sum n_ij^2,  L = sum n_ij a_i b_j.

Given the margins, n, p, q, sum a_i^2, sum b_j^2 are constants and a11 = (s - n) / 2, so

    Q = p q - 3n/2 + sum a_i^2 + sum b_j^2 + s/2 - L =: k + s/2 - L,
    D = -n/2 - k/M + (1/2 - 1/(2M)) s + L/M,    G = (p + q)/2 - k/M - s/(2M) + L/M,

both affine in (s, L). Their means, variances and covariance therefore need only E[s], E[L],
Var[s], Var[L] and Cov[s, L], which are sums over cells and pairs of distinct cells of weighted
falling-factorial moments E[(n_c)_r (n_c')_u] (r + u <= 4). Those have the product form

    E[(n_c)_r (n_c')_u] = R C / (n)_(r+u),  R = (a_i)_(r+u) if i = k else (a_i)_r (a_k)_u,

(C likewise with the columns), and with cell weights that factor into a row part and a column
part (1 for s, a_i b_j for L) every double sum over pairs of cells splits into sums over rows
times sums over columns: O(K + Q) integer operations, in exact rational arithmetic.

E[D] = 0 exactly: a random relabelling of y sends a fixed object pair to a uniformly random pair,
so each of the p M ordered couples (P together in x, P' disjoint from P) has P' together in y
with probability q / C(n, 2); E[Q] / M = p q / C(n, 2) = E[a11].
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from .combinatorics import falling_factorial as _ff

__all__ = ["check_margins", "check_weights", "fixed_margin_moments", "multinomial_moments"]

# x^k in the falling-factorial basis: x^k = sum_r S(k, r) (x)_r (Stirling numbers, 2nd kind)
_STIRLING = {1: {1: 1}, 2: {2: 1, 1: 1}, 3: {3: 1, 2: 3, 1: 1}, 4: {4: 1, 3: 6, 2: 7, 1: 1}}


def check_margins(rows, cols):
    """Non-zero margins as lists of ints; ValueError naming the argument otherwise."""
    out = []
    for name, m in (("rows", rows), ("cols", cols)):
        arr = np.asarray(m)
        if arr.ndim != 1 or arr.size == 0 or not np.issubdtype(arr.dtype, np.number):
            raise ValueError(f"{name} must be a non-empty 1-D sequence of cluster sizes, "
                             f"got {m!r}")
        if (arr < 0).any() or (arr != np.round(arr)).any():
            raise ValueError(f"{name} must hold non-negative integers (cluster sizes), got {m!r}")
        out.append([int(v) for v in arr if v > 0])
    a, b = out
    if sum(a) != sum(b):
        raise ValueError(f"rows and cols must have the same total, got {sum(a)} and {sum(b)}")
    if sum(a) < 4:
        raise ValueError(f"MARI needs at least 4 objects (rows and cols sum to {sum(a)})")
    return a, b


def check_weights(rows, cols, n):
    """Category probabilities (Fractions) from non-negative weights, and the number of objects
    n (default: the common total of integer ``rows`` and ``cols``)."""
    out = []
    for name, w in (("rows", rows), ("cols", cols)):
        arr = np.asarray(w)
        if (arr.ndim != 1 or arr.size == 0 or not np.issubdtype(arr.dtype, np.number)
                or not np.isfinite(arr).all() or (arr < 0).any() or arr.sum() <= 0):
            raise ValueError(f"{name} must be a non-empty 1-D sequence of non-negative category "
                             f"weights (cluster sizes or probabilities) with a positive sum, "
                             f"got {w!r}")
        fr = [Fraction(int(v)) if v == int(v) else Fraction(float(v)) for v in arr.tolist()]
        out.append([v / sum(fr) for v in fr if v > 0])
    if n is None:
        totals = [np.asarray(w).sum() for w in (rows, cols)]
        if not all(t == int(t) for t in totals) or totals[0] != totals[1] or totals[0] < 4:
            raise ValueError("n (the number of objects) is needed unless rows and cols are "
                             "cluster sizes with the same total of at least 4, got totals "
                             f"{[float(t) for t in totals]}")
        n = int(totals[0])
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 4:
        raise ValueError(f"n must be an integer >= 4 (MARI needs 4 objects), got {n!r}")
    return out[0], out[1], int(n)


class _Cells:
    """Weighted sums over the cells of a random table with margins a, b (fixed-margin null).

    A statistic X = sum_c w_c n_c^k is given as (wa, wb, k) with w_(i,j) = wa_i wb_j."""

    def __init__(self, a, b):
        self.a, self.b, self.n = a, b, sum(a)

    def _single(self, r, wa, wb):
        """sum_c wa_i wb_j E[(n_c)_r]."""
        ra = sum(w * _ff(x, r) for w, x in zip(wa, self.a))
        rb = sum(w * _ff(x, r) for w, x in zip(wb, self.b))
        return Fraction(ra * rb, _ff(self.n, r))

    def _cross(self, r, u, fa, fb, ga, gb):
        """sum over ordered pairs of distinct cells c, c' of f_c g_c' E[(n_c)_r (n_c')_u]."""
        def split(f, g, m):
            same = sum(x * y * _ff(v, r + u) for x, y, v in zip(f, g, m))
            diff = (sum(x * _ff(v, r) for x, v in zip(f, m))
                    * sum(y * _ff(v, u) for y, v in zip(g, m))
                    - sum(x * y * _ff(v, r) * _ff(v, u) for x, y, v in zip(f, g, m)))
            return same, diff
        sa, da = split(fa, ga, self.a)
        sb, db = split(fb, gb, self.b)
        return Fraction(sa * db + da * sb + da * db, _ff(self.n, r + u))

    def mean(self, x):
        wa, wb, k = x
        return sum(c * self._single(r, wa, wb) for r, c in _STIRLING[k].items())

    def product_mean(self, x, y):
        """E[X Y] = sum_c (same cell) + sum_{c != c'} (distinct cells)."""
        (fa, fb, k), (ga, gb, m) = x, y
        wa = [f * g for f, g in zip(fa, ga)]
        wb = [f * g for f, g in zip(fb, gb)]
        same = sum(c * self._single(r, wa, wb) for r, c in _STIRLING[k + m].items())
        distinct = sum(cr * cu * self._cross(r, u, fa, fb, ga, gb)
                       for r, cr in _STIRLING[k].items() for u, cu in _STIRLING[m].items())
        return same + distinct


def fixed_margin_moments(rows, cols) -> dict:
    """Exact (Fraction) E, Var of s and L, their covariance, and the affine coefficients of D
    and G in (1, s, L), under fixed margins."""
    a, b = check_margins(rows, cols)
    cells = _Cells(a, b)
    n = cells.n
    s = ([1] * len(a), [1] * len(b), 2)
    L = (a, b, 1)
    es, el = cells.mean(s), cells.mean(L)
    vs = cells.product_mean(s, s) - es * es
    vl = cells.product_mean(L, L) - el * el
    csl = cells.product_mean(s, L) - es * el
    p = sum(x * (x - 1) // 2 for x in a)
    q = sum(x * (x - 1) // 2 for x in b)
    M = Fraction((n - 2) * (n - 3), 2)
    k = p * q - Fraction(3 * n, 2) + sum(x * x for x in a) + sum(x * x for x in b)
    num = (-Fraction(n, 2) - k / M, Fraction(1, 2) - 1 / (2 * M), 1 / M)
    den = (Fraction(p + q, 2) - k / M, -1 / (2 * M), 1 / M)

    def mean(c):
        return c[0] + c[1] * es + c[2] * el

    def cov(c, d):
        return c[1] * d[1] * vs + c[2] * d[2] * vl + (c[1] * d[2] + c[2] * d[1]) * csl

    return {"mean_s": es, "var_s": vs, "mean_L": el, "var_L": vl, "cov_s_L": csl,
            "numerator": num, "denominator": den,
            "mean_numerator": mean(num), "var_numerator": cov(num, num),
            "mean_denominator": mean(den), "var_denominator": cov(den, den),
            "cov_numerator_denominator": cov(num, den), "pairs": (p, q, n)}


# -- the multinomial null (x and y independent, each object's labels drawn iid) -----------------
#
# Each object's pair of labels is drawn independently, x with probabilities pi, y with rho. Each
# 4-set of objects holds 6 object pairs and the 6 ordered couples of disjoint pairs; every pair
# lies in M 4-sets and every couple in one, so D = (1/M) sum_S k_D(S) and G = (1/M) sum_S k_G(S),
#   k_D = sum_P [x and y together on P] - sum_(P,P') [x together on P][y together on P'],
#   k_G = sum_P ([x together on P] + [y together on P]) / 2 - sum_(P,P') (same),
# U-statistics of order 4 (Hoeffding 1948): Cov(sum_S k, sum_S k') =
# C(n, 4) sum_c C(4, c) C(n - 4, 4 - c) zeta_c, zeta_c = Cov(k(S), k'(S')) for |S & S'| = c. The
# expectation of a product of "together" indicators factorises into x and y parts, each the
# product over the connected classes of its equalities of sum_k pi_k^(class size).

_PAIRS = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
_COUPLES = [(P, tuple(v for v in range(4) if v not in P)) for P in _PAIRS]  # 6 ordered couples
_HALF = Fraction(1, 2)
_KERNELS = {
    "numerator": [(1, [P], [P]) for P in _PAIRS] + [(-1, [P], [R]) for P, R in _COUPLES],
    "denominator": ([(_HALF, [P], []) for P in _PAIRS] + [(_HALF, [], [P]) for P in _PAIRS]
                    + [(-1, [P], [R]) for P, R in _COUPLES]),
}


def _together(edges, power_sums):
    """E[prod over edges of [u, v same label]] for iid labels: product over classes."""
    parent = {}

    def find(u):
        while parent.setdefault(u, u) != u:
            u = parent[u]
        return u
    for u, v in edges:
        parent[find(u)] = find(v)
    sizes: dict = {}
    for u in list(parent):
        r = find(u)
        sizes[r] = sizes.get(r, 0) + 1
    out = Fraction(1)
    for m in sizes.values():
        out *= power_sums[m]
    return out


def _kernel_moment(k1, k2, shift, px, py):
    """E[k1(0, 1, 2, 3) k2(objects)], k2's positions moved by ``shift``."""
    total = Fraction(0)
    for c1, x1, y1 in k1:
        for c2, x2, y2 in k2:
            x = x1 + [(shift[u], shift[v]) for u, v in x2]
            y = y1 + [(shift[u], shift[v]) for u, v in y2]
            total += c1 * c2 * _together(x, px) * _together(y, py)
    return total


def multinomial_moments(row_probs, col_probs, n: int) -> dict:
    """Exact (Fraction) means, variances and covariance of D and G under the multinomial null."""
    def power_sums(w):  # over a common denominator: integer powers, one division each
        d = math.lcm(*(v.denominator for v in w))
        nums = [v.numerator * (d // v.denominator) for v in w]
        return {m: Fraction(sum(x ** m for x in nums), d ** m) for m in range(1, 9)}
    px, py = power_sums(row_probs), power_sums(col_probs)
    scale = Fraction(n * (n - 1), 12)  # C(n, 4) / M
    means = {k: sum(c * _together(x, px) * _together(y, py) for c, x, y in kern)
             for k, kern in _KERNELS.items()}

    def cov(k1, k2):
        var_u = Fraction(0)
        for c in range(1, 5):
            weight = Fraction(math.comb(4, c) * math.comb(n - 4, 4 - c), math.comb(n, 4))
            if weight:
                shift = list(range(c)) + list(range(4, 8 - c))
                zeta = (_kernel_moment(_KERNELS[k1], _KERNELS[k2], shift, px, py)
                        - means[k1] * means[k2])
                var_u += weight * zeta
        return scale * scale * var_u

    return {"mean_numerator": scale * means["numerator"],
            "var_numerator": cov("numerator", "numerator"),
            "mean_denominator": scale * means["denominator"],
            "var_denominator": cov("denominator", "denominator"),
            "cov_numerator_denominator": cov("numerator", "denominator")}
