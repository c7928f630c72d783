"""The analytic power of the package's tests at n objects drawn from a population.

**Test of independence** (``agreement_test``, its default method: the exact permutation law of
the index given the margins, or 17,000 Patefield tables where that law is too large). Given the
margins every index of a test group is a monotone function of s = sum n_ij^2 (pair counting)
or t = sum n_ij log n_ij (information), and the test rejects when the index reaches the null
law's critical value c. The approximation:

* the null law Q of the index at the expected margins (n p_i., n p_.j rounded to whole objects),
  as the package computes it (``null_distribution(..., method="auto")``), and the rejection
  region of its p-value (ties counted, the Monte Carlo p-value (1 + #) / (B + 1)); the
  threshold is taken halfway between the last value not rejected and the first rejected (a
  continuity correction: at n objects the index takes the law's lattice of values);
* at n objects the index is I ~ Q + Delta + L, with Delta = I(p) - I(p_i. p_.j) the
  population's distance from independence and L ~ N(0, sigma^2 / n) its linear (delta-method)
  part, sigma^2 = N v_J from the jackknife variance v_J of the index on a table of
  N = 10**5 objects in the population's proportions (the jackknife the package's intervals
  use; ``JACKKNIFE_OBJECTS``). Q carries the quadratic part and the bias: at independence
  sigma = 0 and the power is the test's size; far from it L dominates and I is normal. For a
  statistic that is a quadratic form (G = 2 n MI), Q + L has the mean and variance of the
  non-central chi-square, df + lambda and 2 df + 4 lambda, the classical approximation
  (Cohen 1988, ch. 7; Agresti 2013, sec. 6.6);
* power = E_Q[Phi((Q + Delta - c) / (sigma / sqrt(n)))], averaged over the law's atoms (or
  its Monte Carlo tables).

**Paired difference test** (``difference_test``: t = Delta_J / s_J with n - 1 degrees of
freedom): Delta = I(p_ref,a) - I(p_ref,b) of the population, s_J^2 = sigma^2 / n with sigma^2
from the jackknife of Delta on the 3-way table of 10**6 objects, and the power that of a t
test with non-centrality Delta sqrt(n) / sigma (non-central t, n - 1 degrees of freedom).

**Interval width**: the expected width of the jackknife t interval, 2 t_{n-1} sigma / sqrt(n).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ..indices import evaluate_checked
from ..inference import difference_test
from ..nulls import null_distribution
from .populations import Population, drop_empty, expected_margins

__all__ = [
    "JACKKNIFE_OBJECTS",
    "Alternative",
    "alternative_of",
    "difference_power",
    "independence_power",
    "interval_width",
    "jackknife_moments",
    "linear_tail",
    "margins_table",
    "rejection_threshold",
]


@dataclass(frozen=True)
class Alternative:
    """What the analytic power needs of a population and an index, computed once (whatever n):
    ``delta`` (distance from independence, or the difference of two agreements), ``sigma``
    (the per-object standard deviation of the index's linear part), ``bias`` (b: the index at
    n objects is off its population value by about b / n, less the same at independence), the two agreements of a
    3-way population (``values``)."""

    delta: float
    sigma: float
    bias: float
    values: tuple


#: The objects of the table in the population's proportions whose jackknife gives sigma and b
#: (the quadratic part adds O(1/N) to sigma^2; b is read to about 5 digits).
JACKKNIFE_OBJECTS = 10**5


def _big_table(pop: Population) -> np.ndarray:
    return np.rint(pop.probabilities * JACKKNIFE_OBJECTS).astype(np.int64)


def jackknife_moments(rec, counts: np.ndarray, options: dict) -> tuple[float, float, float]:
    """The index on a table and its leave-one-object-out jackknife: (value, per-object
    variance N v_J, bias times N), with v_J = (N - 1) / N sum_ij n_ij (I_(ij) - I_.)^2 and
    the bias (N - 1) (I_. - I), I_(ij) the index with one object of cell ij left out and I_.
    their mean over the objects (Quenouille 1956; Efron & Stein 1981)."""
    table = drop_empty(counts)
    N = int(table.sum())
    value = float(evaluate_checked(rec, table, options))
    cells = np.argwhere(table > 0)
    batch = np.repeat(table[None], len(cells), axis=0)
    batch[np.arange(len(cells)), cells[:, 0], cells[:, 1]] -= 1
    loo = np.asarray(evaluate_checked(rec, batch, options), float)
    w = table[cells[:, 0], cells[:, 1]].astype(float)
    mean = float(np.sum(w * loo) / N)
    var = (N - 1) / N * float(np.sum(w * (loo - mean) ** 2))
    return value, N * var, N * (N - 1) * (mean - value)


def alternative_of(pop: Population, rec, options: dict) -> Alternative:
    """Delta, sigma and the O(1/n) bias of a population for an index (module docstring)."""
    counts = _big_table(pop)
    if counts.ndim == 3:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = difference_test(counts, index=rec, method="jackknife", interval=None,
                                  alternative="two-sided", **options)
        values = (res.agreement_a, res.agreement_b)
        return Alternative(res.statistic, res.standard_error * math.sqrt(counts.sum()), 0.0,
                           values)
    p = pop.probabilities
    value, var, bias = jackknife_moments(rec, counts, options)
    independent = np.rint(np.outer(p.sum(axis=1), p.sum(axis=0)) * JACKKNIFE_OBJECTS)
    base, _, bias0 = jackknife_moments(rec, independent.astype(np.int64), options)
    return Alternative(value - base, math.sqrt(max(var, 0.0)), bias - bias0, (value, base))


def margins_table(rows, cols) -> np.ndarray:
    """A table with the given margins (the north-west corner rule): the null law given the
    margins is the same for every such table."""
    rows, cols = list(map(int, rows)), list(map(int, cols))
    out = np.zeros((len(rows), len(cols)), dtype=np.int64)
    i = j = 0
    while i < len(rows) and j < len(cols):
        m = min(rows[i], cols[j])
        out[i, j] = m
        rows[i] -= m
        cols[j] -= m
        if rows[i] == 0:
            i += 1
        else:
            j += 1
    return out


def _atoms(nd):
    """The law's distinct values, sorted, with their probabilities (or counts of tables)."""
    if nd.is_exact:
        return np.asarray(nd.values, float), np.asarray(nd.probabilities, float), None
    values, counts = np.unique(np.asarray(nd.samples, float), return_counts=True)
    return values, counts / counts.sum(), int(counts.sum())


def rejection_threshold(values, weights, n_sim, alpha: float) -> tuple[float, float]:
    """The threshold of the upper-tail test on a law's sorted distinct values, and the test's
    size: the first value whose p-value (P(T >= t), ties counted; (1 + #{T >= t}) / (B + 1)
    for B Monte Carlo tables) is at most alpha, less half the step to the value before it."""
    tail = np.cumsum(weights[::-1])[::-1]
    if n_sim is None:
        pvalues = tail
    else:
        pvalues = (1 + np.rint(tail * n_sim)) / (n_sim + 1)
    ok = np.flatnonzero(pvalues <= alpha * (1 + 1e-9))
    if ok.size == 0:  # nothing in the law rejects: only values above its largest
        step = values[-1] - values[-2] if values.size > 1 else 1.0
        return float(values[-1] + step / 2), 0.0
    first = int(ok[0])
    if first == 0:
        return -math.inf, 1.0
    return float((values[first - 1] + values[first]) / 2), float(tail[first])


def independence_power(pop: Population, n: int, rec, options: dict, alpha: float,
                       alternative: str, alt: Alternative, seed) -> dict:
    """The analytic power of the test of independence at n objects (module docstring); a dict
    with the power, the test's size at the expected margins and the null law's method."""
    rows, cols = expected_margins(pop.probabilities, n)
    if rows.size < 2 or cols.size < 2:
        return {"power": 0.0, "size": 0.0, "null_method": "none (one cluster expected)"}
    nd = null_distribution(margins_table(rows, cols), index=rec, method="auto", seed=seed,
                           **options)
    values, weights, n_sim = _atoms(nd)
    delta = alt.delta + alt.bias / n
    if alternative == "less":  # the lower tail: the same computation on -I
        values, weights, delta = -values[::-1], weights[::-1], -delta
    threshold, size = rejection_threshold(values, weights, n_sim, alpha)
    sd = alt.sigma / math.sqrt(n)
    if sd > 0:
        tail = linear_tail(threshold - values - delta, sd, _cross_cumulant(values, weights, sd))
        power = float(np.sum(weights * tail))
    else:
        power = float(np.sum(weights[values + delta >= threshold]))
    return {"power": min(1.0, max(0.0, power)), "size": size, "null_method": nd.method,
            "null_n_sim": n_sim}


def _cross_cumulant(values, weights, sd) -> float:
    """The third cumulant that the linear part adds through its product with the quadratic
    part: 6 h sd^2 for a quadratic form of h-weighted chi-squares of one degree of freedom,
    h = sd0 skew0 / 4 read from the null law (a law of nu = 8 / skew0^2 equal weights), as
    the non-central chi-square's 8 (nu + 3 lambda) has 24 lambda beyond the central one."""
    mean = float(np.sum(weights * values))
    var = float(np.sum(weights * (values - mean) ** 2))
    if not var > 0:
        return 0.0
    skew = float(np.sum(weights * (values - mean) ** 3)) / var ** 1.5
    return 1.5 * math.sqrt(var) * skew * sd * sd


def linear_tail(x, sd: float, k3: float):
    """P(L >= x) for L of mean 0, standard deviation sd and third cumulant k3: a shifted
    gamma law (Pearson type III) fitted to the three, the normal law when it is symmetric."""
    gamma = k3 / sd ** 3 if sd > 0 else 0.0
    if abs(gamma) < 1e-3:
        return stats.norm.sf(np.asarray(x) / sd)
    shape, scale = 4 / gamma ** 2, sd * abs(gamma) / 2
    z = np.sign(gamma) * np.asarray(x) / scale + shape
    return stats.gamma.sf(z, shape) if gamma > 0 else stats.gamma.cdf(z, shape)


def difference_power(n: int, alpha: float, alternative: str, alt: Alternative) -> float:
    """The analytic power of the paired difference test at n objects (module docstring)."""
    df = n - 1
    if not alt.sigma > 0:
        return 1.0 if alt.delta != 0 else alpha
    ncp = alt.delta * math.sqrt(n) / alt.sigma
    if alternative == "two-sided":
        q = stats.t.ppf(1 - alpha / 2, df)
        return float(stats.nct.sf(q, df, ncp) + stats.nct.cdf(-q, df, ncp))
    q = stats.t.ppf(1 - alpha, df)
    if alternative == "greater":
        return float(stats.nct.sf(q, df, ncp))
    return float(stats.nct.cdf(-q, df, ncp))


def interval_width(n: int, level: float, alt: Alternative) -> float:
    """The expected width of the jackknife t interval at n objects: 2 t_{n-1} sigma / sqrt(n)."""
    return float(2 * stats.t.ppf(0.5 + level / 2, n - 1) * alt.sigma / math.sqrt(n))
