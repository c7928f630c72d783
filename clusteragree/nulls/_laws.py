"""The ways a null law is known, behind one interface: ``ExactLaw`` (values with their
probabilities), ``SampledLaw`` (Monte Carlo draws), ``Moments`` (closed-form moments only) and
``TailLaw`` (tail probabilities estimated on request, beyond the Monte Carlo floor).

``NullDistribution`` holds one of them and delegates to it what differs between them: the
moments, quantiles, the cdf, tail counts and the p-value read off them, and Monte Carlo
standard errors. Its arguments arrive checked (``NullDistribution`` validates them once);
a law is not checked again here. ``Moments`` has no law: ``has_law`` is False and
``NullDistribution`` refuses quantiles, the cdf and p-values before asking it.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from .._display import format_pvalue

__all__ = ["ExactLaw", "SampledLaw", "Moments", "TailLaw", "TIE_RTOL", "tolerance", "check_levels"]

#: Relative tolerance under which two index values count as tied in p-values and the cdf.
TIE_RTOL = 1e-9

#: Samples per chunk of the moment and density sums (2 MB of float64).
_CHUNK = 1 << 18

#: A Monte Carlo law keeps its distinct values with their counts, instead of a sorted copy of
#: its draws, while they number at most the draws over this (an index of Patefield tables
#: takes one value per value of s or t: a few thousand in 10**7 draws).
_DISTINCT_SHARE = 8


def tolerance(t: float) -> float:
    """The tie tolerance at t: ``TIE_RTOL`` relative, absolute below 1."""
    return TIE_RTOL * max(1.0, abs(t))


def _percent(share: float) -> str:
    """A share as a percentage to 2 significant digits: 0.04 -> "4%"."""
    return f"{format_pvalue(100 * share, 2)}%"


def check_levels(q) -> np.ndarray:
    """Quantile levels as a float array, each in [0, 1]."""
    qa = np.asarray(q, dtype=float)
    if np.any((qa < 0) | (qa > 1)) or np.isnan(qa).any():
        raise ValueError(f"q must lie in [0, 1], got {q!r}")
    return qa


#: Units in the last place (of 1, or of the value when larger) that each value of an index may
#: carry from its own computation: a ratio of differences of pair counts or entropies whose
#: terms are of the order of 1 however small the value. A mean within that of 0 is 0.
VALUE_ULPS = 64


def _mean_of_atoms(values: np.ndarray, probabilities: np.ndarray) -> float:
    """The mean of an exact law, with an exact zero kept zero.

    The sum is correctly rounded (``math.fsum``). Its error bound is the values' own error,
    ``VALUE_ULPS`` units in the last place of max(1, |v|) each, plus the summation's
    (Higham 2002, "Accuracy and Stability of Numerical Algorithms", eq. 4.4); a mean within
    that bound of 0 cannot be told from 0 and is 0: the exact law of an index adjusted by its
    own null mean (ARI, AMI) has mean 0, which a plain sum gives as 1e-16.

    >>> v, p = np.array([0.1, 0.2, -0.3]), np.full(3, 1 / 3)   # mean 0 in exact arithmetic
    >>> float((v * p).sum()) == 0.0, _mean_of_atoms(v, p)
    (False, 0.0)
    """
    terms = values * probabilities
    mean = math.fsum(terms)
    eps = np.finfo(float).eps
    bound = eps * (VALUE_ULPS * float((probabilities * np.maximum(1.0, np.abs(values))).sum())
                   + terms.size * float(np.abs(terms).sum()))
    return 0.0 if abs(mean) <= bound else float(mean)


class ExactLaw:
    """The exact law: sorted ``values`` (ties merged) with their ``probabilities``."""

    has_law = has_variance = True
    samples = None
    n_sim = None
    kind = "exact law"

    def __init__(self, values, probabilities):
        v = np.asarray(values, dtype=float).ravel()
        p = np.asarray(probabilities, dtype=float).ravel()
        if v.shape != p.shape or v.size == 0:
            raise ValueError("values and probabilities must be non-empty and of equal length")
        if np.any(p < 0) or not math.isclose(p.sum(), 1.0, rel_tol=1e-9, abs_tol=1e-9):
            raise ValueError(f"probabilities must be >= 0 and sum to 1 (sum = {p.sum()!r})")
        order = np.argsort(v, kind="stable")
        v, p = v[order], p[order] / p.sum()
        # merge values equal up to rounding into one atom
        new = np.ones(len(v), bool)
        new[1:] = np.diff(v) > TIE_RTOL * np.maximum(1.0, np.abs(v[1:]))
        starts = np.flatnonzero(new)
        self.values = v[starts]
        self.probabilities = np.add.reduceat(p, starts)
        self._cum = np.cumsum(self.probabilities)
        self.mean = _mean_of_atoms(self.values, self.probabilities)

    def what(self) -> str:
        return f"exact law, {len(self.values)} values"

    def var(self) -> float:
        return float(((self.values - self.mean) ** 2 * self.probabilities).sum())

    def skewness(self, sd: float) -> float:
        return float(((((self.values - self.mean) / sd) ** 3) * self.probabilities).sum())

    def quantile(self, qa: np.ndarray):
        """The smallest value with cdf >= q."""
        idx = np.searchsorted(self._cum, qa - 1e-12, side="left")
        return self.values[np.minimum(idx, len(self.values) - 1)]

    def cdf(self, t: np.ndarray, tol: np.ndarray):
        idx = np.searchsorted(self.values, t + tol, side="right")
        return np.where(idx > 0, self._cum[np.maximum(idx - 1, 0)], 0.0)

    def pvalue(self, t: float, alternative: str, plus_one: bool) -> float:
        """P(T >= t) ("greater") or P(T <= t) ("less"), ties counted."""
        tol = tolerance(t)
        if alternative == "greater":
            mass = float(self.probabilities[self.values >= t - tol].sum())
        else:
            mass = float(self.probabilities[self.values <= t + tol].sum())
        return min(1.0, mass)

    def pvalue_se(self, p: float) -> float:
        return 0.0

    def pvalue_ci(self, p: float, confidence: float, method: str):
        return (p, p)

    def mean_se(self) -> float:
        return 0.0

    def quantile_se(self, q) -> float:
        return 0.0


def _distinct_counts(samples: np.ndarray, limit: int):
    """The distinct values of ``samples`` (increasing) and their counts, found chunk by chunk
    (no temporary as large as the samples), or None as soon as they number more than
    ``limit``."""
    values, counts = np.empty(0), np.empty(0, dtype=np.int64)
    for start in range(0, samples.size, _CHUNK):
        u, c = np.unique(samples[start:start + _CHUNK], return_counts=True)
        if values.size:
            values, inverse = np.unique(np.concatenate((values, u)), return_inverse=True)
            # counts below 2**53: exact in the float weights of bincount
            counts = np.bincount(inverse.ravel(), weights=np.concatenate((counts, c)),
                                 minlength=values.size).astype(np.int64)
        else:
            values, counts = u, c.astype(np.int64)
        if values.size > limit:
            return None
    return values, counts


class _SortedDraws:
    """The draws in increasing order, read by position or by value: a sorted copy of them, or,
    when they take few distinct values, those values with their cumulative counts (the same
    answers; 10**7 draws of an index of 3 x 3 tables held 80 MB twice, now once)."""

    def __init__(self, samples: np.ndarray):
        self.size = int(samples.size)
        distinct = _distinct_counts(samples, self.size // _DISTINCT_SHARE)
        if distinct is None:
            self.values, self.counts, self._cum = np.sort(samples), None, None
        else:
            self.values, self.counts = distinct
            self._cum = np.cumsum(self.counts)
        self.first, self.last = float(self.values[0]), float(self.values[-1])

    def searchsorted(self, x, side: str):
        """``np.searchsorted`` on the sorted draws: how many draws are below x ("left") or
        at most x ("right")."""
        i = np.searchsorted(self.values, x, side=side)
        if self._cum is None:
            return i
        return np.where(i > 0, self._cum[np.maximum(i - 1, 0)], 0)

    def at(self, k: np.ndarray) -> np.ndarray:
        """The draws at sorted positions ``k`` (0-based)."""
        if self._cum is None:
            return self.values[k]
        return self.values[np.searchsorted(self._cum, k, side="right")]

    def window(self, lo: float, hi: float):
        """The draws in [lo, hi), in chunks ``(values, weights)`` (weights: None for 1 each)."""
        i0, i1 = (int(i) for i in np.searchsorted(self.values, [lo, hi]))
        for start in range(i0, i1, _CHUNK):
            stop = min(start + _CHUNK, i1)
            yield self.values[start:stop], (None if self.counts is None
                                             else self.counts[start:stop])


class SampledLaw:
    """A law known from Monte Carlo ``samples``, kept in their order, with their sorted values
    (``_SortedDraws``)."""

    has_law = has_variance = True
    values = probabilities = None
    kind = "Monte Carlo law"

    def __init__(self, samples):
        s = np.asarray(samples, dtype=float).ravel()
        if s.size == 0:
            raise ValueError("samples is empty")
        lo, hi = float(s.min()), float(s.max())  # nan if any is: no mask as large as s
        if math.isnan(lo) or math.isnan(hi):
            raise ValueError("samples contain nan")
        self.samples = s
        self._sorted = _SortedDraws(s)
        self.n_sim = int(s.size)
        # a point mass has its value as mean
        self.mean = float(lo if lo == hi else min(max(s.mean(), lo), hi))
        self._moments = None

    def what(self) -> str:
        return f"{self.n_sim} draws"

    def _sample_moments(self):
        """(variance with ddof=1, m2, m3) of the samples about their mean, computed once, in
        chunks: no temporary as large as the samples (10^7 draws are 80 MB)."""
        if self._moments is None:
            B, mean = self.samples.size, float(self.samples.mean())
            s2 = s3 = 0.0
            for start in range(0, B, _CHUNK):
                dev = self.samples[start:start + _CHUNK] - mean
                sq = dev * dev  # plain reductions, not BLAS: no thread start-up
                s2 += float(sq.sum())
                s3 += float((sq * dev).sum())
            self._moments = (s2 / (B - 1), s2 / B, s3 / B)
        return self._moments

    def var(self) -> float:
        """With ddof = 1; 0 for one draw or a point mass."""
        if self.samples.size < 2 or self._sorted.first == self._sorted.last:
            return 0.0
        return self._sample_moments()[0]

    def skewness(self, sd: float) -> float:
        B = self.samples.size
        if B < 3:
            return 0.0
        m2, m3 = self._sample_moments()[1:]
        if m2 == 0:
            return 0.0
        # the adjusted Fisher-Pearson coefficient G1 (scipy.stats.skew(bias=False))
        return m3 / m2**1.5 * math.sqrt(B * (B - 1)) / (B - 2)

    def quantile(self, qa: np.ndarray):
        """numpy's default (R type 7), read off the sorted samples."""
        srt = self._sorted
        h = (srt.size - 1) * qa
        lo = np.floor(h).astype(int)
        hi = np.minimum(lo + 1, srt.size - 1)
        low, high = srt.at(lo), srt.at(hi)
        return low + (h - lo) * (high - low)

    def cdf(self, t: np.ndarray, tol: np.ndarray):
        return self._sorted.searchsorted(t + tol, side="right") / self._sorted.size

    def count(self, t: float, alternative: str) -> int:
        """k, the draws at least as extreme as t ("greater": T >= t; "less": T <= t)."""
        tol = tolerance(t)
        if alternative == "greater":
            return int(self._sorted.size - self._sorted.searchsorted(t - tol, side="left"))
        return int(self._sorted.searchsorted(t + tol, side="right"))

    def pvalue(self, t: float, alternative: str, plus_one: bool) -> float:
        """(1 + k) / (B + 1) or k / B, k the draws at least as extreme as t."""
        return self.pvalue_of_count(self.count(t, alternative), plus_one)

    def pvalue_of_count(self, k: int, plus_one: bool) -> float:
        """(1 + k) / (B + 1) or k / B, of a count k already made (``count``)."""
        total = self._sorted.size
        return (k + 1) / (total + 1) if plus_one else k / total

    def pvalue_se(self, p: float) -> float:
        return math.sqrt(p * (1 - p) / self.n_sim)

    def pvalue_ci(self, p: float, confidence: float, method: str):
        """Clopper-Pearson's ("exact") or the normal interval of the share p, in [0, 1]."""
        B = self.n_sim
        if method == "exact":
            k = round(p * B)
            ci = stats.binomtest(k, B).proportion_ci(confidence_level=confidence)
            return (float(ci.low), float(ci.high))
        z = stats.norm.ppf(1 - (1 - confidence) / 2)
        half = z * math.sqrt(p * (1 - p) / B)
        return (max(0.0, p - half), min(1.0, p + half))

    def std(self) -> float:
        return math.sqrt(max(self.var(), 0.0))

    def mean_se(self) -> float:
        return self.std() / math.sqrt(self.n_sim)

    def quantile_se(self, q) -> float:
        """sqrt(q (1 - q) / B) / f(x_q), f a Gaussian kernel density; 0 for a point mass."""
        x = self.quantile(check_levels(q))
        x = float(x) if x.ndim == 0 else x
        if self.std() == 0:
            return 0.0
        f = self._kernel_density(x)
        return math.sqrt(q * (1 - q) / self.n_sim) / f if f > 0 else math.inf

    def _kernel_density(self, x: float) -> float:
        """The Gaussian kernel density of the samples at x with Scott's bandwidth
        sd B^(-1/5) (``scipy.stats.gaussian_kde``'s default, the same number), summed over
        the samples within 40 bandwidths of x (the others add exp(-800) = 0), which the sorted
        samples give by bisection: no array as large as the samples."""
        B = self.samples.size
        bw = math.sqrt(self._sample_moments()[0]) * B ** (-1 / 5)
        total = 0.0
        for values, weights in self._sorted.window(x - 40 * bw, x + 40 * bw):
            z = (values - x) / bw
            kernel = np.exp(-0.5 * z * z)
            total += float(kernel.sum() if weights is None else kernel @ weights)
        return total / (B * bw * math.sqrt(2 * math.pi))


class Moments:
    """Closed-form moments only: the mean, perhaps the variance (which may be deferred: read
    with ``float`` each time, it may refuse over its time budget)."""

    has_law = False
    values = probabilities = samples = None
    n_sim = None
    kind = "moments only"

    def __init__(self, moments: dict):
        self.moments = dict(moments)
        if "mean" not in self.moments:
            raise ValueError("moments must hold at least the mean")
        self.mean = float(self.moments["mean"])
        self.has_variance = "var" in self.moments

    def what(self) -> str:
        return "moments only"

    def var(self) -> float:
        return float(self.moments["var"])

    def mean_se(self) -> float:
        return 0.0


class TailLaw:
    """Tail probabilities only, each estimated when it is asked for (``method="importance"``):
    no values, samples or quantiles; the mean and variance when closed forms are given.

    ``tail(t, alternative)`` returns an estimate with ``log_pvalue`` and ``relative_se`` for
    alternative "greater" or "less" (each estimate is kept, so a test and its printing ask
    once); ``moments()`` returns {"mean", "var"} or is None; ``words(estimate)`` says how an
    estimate was obtained, for printing (default: importance sampling with its relative
    standard error).
    """

    has_law = False
    has_tail = True
    values = probabilities = samples = None
    kind = "tail probabilities"

    def __init__(self, tail, moments=None, n_sim=None, words=None):
        self._tail = tail
        self._words = words
        self._moments_of = moments
        self._moments = None
        self._cache: dict = {}
        self.n_sim = n_sim
        self.has_variance = self.has_mean = moments is not None

    def what(self) -> str:
        return "tail probabilities"

    def _known_moments(self) -> dict:
        if self._moments is None:
            self._moments = dict(self._moments_of())
        return self._moments

    @property
    def mean(self) -> float:
        return float(self._known_moments()["mean"])

    def var(self) -> float:
        return float(self._known_moments()["var"])

    def estimate(self, t: float, alternative: str):
        """The estimate of P(T >= t) ("greater") or P(T <= t) ("less"), computed once."""
        key = (t, alternative)
        if key not in self._cache:
            self._cache[key] = self._tail(t, alternative)
        return self._cache[key]

    def log_pvalue(self, t: float, alternative: str) -> float:
        """log p; "two-sided": log of twice the smaller tail, capped at 0."""
        if alternative == "two-sided":
            low = min(self.estimate(t, "greater").log_pvalue, self.estimate(t, "less").log_pvalue)
            return min(0.0, low + math.log(2.0))
        return self.estimate(t, alternative).log_pvalue

    def pvalue(self, t: float, alternative: str, plus_one: bool = True) -> float:
        return math.exp(self.log_pvalue(t, alternative))

    def _side(self, t: float, alternative: str):
        """The estimate behind a p-value: the smaller tail's when two-sided."""
        if alternative == "two-sided":
            up, down = self.estimate(t, "greater"), self.estimate(t, "less")
            return up if up.log_pvalue <= down.log_pvalue else down
        return self.estimate(t, alternative)

    def relative_se(self, t: float, alternative: str) -> float:
        """The standard error of the p-value over the p-value."""
        return self._side(t, alternative).relative_se

    def words(self, t: float, alternative: str) -> str:
        """How the p-value was obtained, in a few words: "importance sampling, relative s.e.
        4%"."""
        est = self._side(t, alternative)
        if est.exact:  # one table, a value beyond every table, or the tables at the maximum
            return "exact"
        if self._words is not None:
            return self._words(est)
        return f"importance sampling, relative s.e. {_percent(est.relative_se)}"

    def mean_se(self) -> float:
        return 0.0
