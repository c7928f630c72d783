"""The jackknife: pseudovalues, their standard error, the t interval, and method="jackknife".

One object left out at a time (for a table, one count out of each non-empty cell, weighted by
the cell's count; for an index of object pairs, each of the n objects in turn), the
pseudovalues' mean is the bias-corrected estimate and their standard error the jackknife's
(Quenouille 1956; Tukey 1958; Efron & Tibshirani 1993, ch. 11): ``pseudovalues``, shared by the
intervals, by the rules of "auto" (``clusteragree.intervals.rules``) and by the paired
difference test (``clusteragree.inference.difference``). ``jackknife_interval`` is the t
interval, plain or on the index's own scale; ``jackknife_result`` clips an interval to the
index's range and says where it is one-sided; the record of method "jackknife" is the plain t
interval.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ..indices import Index
from ._methods import Draws, IntervalMethod, register_interval_method
from .result import ConfidenceInterval

__all__ = ["IDENTITY", "JackknifeInterval", "Scale", "jackknife_interval", "jackknife_result",
           "no_interval", "pseudovalues", "scale_of", "SAME_VALUES"]

#: Why the jackknife makes no interval when every leave-one-out value is the same.
SAME_VALUES = ("every leave-one-out value is the same: the jackknife has no spread to make an "
               "interval from")


@dataclass(frozen=True)
class Scale:
    """A monotone map of an index's range onto the real line, and back (``scale_of``)."""

    name: str
    forward: object
    inverse: object

    def fits(self, values) -> bool:
        """Whether every value maps to a finite number (none on a bound of the range)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return bool(np.all(np.isfinite(self.forward(np.asarray(values, dtype=float)))))


#: The identity scale.
IDENTITY = Scale("identity", lambda v: v, lambda z: z)


def scale_of(rec: Index) -> Scale:
    """The scale on which the jackknife of ``rec`` is made, from the index's range [lo, hi].

    Both bounds finite: atanh(2 (v - lo) / (hi - lo) - 1) (Fisher's z for a correlation-like
    index); lo alone finite: log(v - lo); hi alone: -log(hi - v); neither: the identity.

    Parameters
    ----------
    rec : Index
        The index's record.

    Returns
    -------
    Scale
        ``.name``, ``.forward`` and ``.inverse`` (numpy functions).

    Examples
    --------
    >>> s = scale_of(ca.get_index("rand"))
    >>> s.name, float(s.forward(0.5)), round(float(s.inverse(s.forward(0.9))), 12)
    ('atanh', 0.0, 0.9)
    """
    lo, hi = (float(v) for v in rec.range)
    if math.isfinite(lo) and math.isfinite(hi):
        width = hi - lo
        return Scale("atanh", lambda v: np.arctanh(2 * (v - lo) / width - 1),
                     lambda z: lo + width * (np.tanh(z) + 1) / 2)
    if math.isfinite(lo):
        return Scale("log", lambda v: np.log(v - lo), lambda z: lo + np.exp(z))
    if math.isfinite(hi):
        return Scale("log", lambda v: -np.log(hi - v), lambda z: hi - np.exp(-z))
    return IDENTITY


@dataclass(frozen=True)
class JackknifeInterval:
    """A jackknife t interval (``jackknife_interval``): bounds, and what they came from."""

    low: float
    high: float
    center: float  # the bias-corrected estimate (on the index's own scale)
    standard_error: float  # the jackknife standard error of the index (its own scale)
    scale: str  # the scale the interval was made on


def pseudovalues(statistic: float, values, weights, n: float) -> tuple[float, float]:
    """The jackknife's bias-corrected estimate and standard error, from weighted leave-one-out
    values: pseudovalues p_i = n theta - (n - 1) theta_(i), their weighted mean and the
    standard error sqrt(sum w (p - mean)^2 / ((n - 1) n)) of that mean.

    Parameters
    ----------
    statistic : float
        The estimate on all n objects.
    values, weights : numpy.ndarray
        The leave-one-out values and how many objects each stands for.
    n : float
        The number of objects (the sum of the weights).

    Returns
    -------
    (float, float)
        The mean of the pseudovalues and its standard error.

    Examples
    --------
    >>> x = np.array([1.0, 2.0, 4.0, 7.0])
    >>> center, se = pseudovalues(x.mean(), (x.sum() - x) / 3, np.ones(4), 4.0)
    >>> float(center), round(se, 4)
    (3.5, 1.3229)
    """
    ps = n * statistic - (n - 1) * values
    center = float(np.sum(weights * ps) / n)
    var = float(np.sum(weights * (ps - center) ** 2)) / ((n - 1) * n)
    return center, math.sqrt(max(var, 0.0))


def jackknife_interval(rec: Index, statistic: float, values, weights,
                       confidence_level: float, rescaled: bool = False) -> JackknifeInterval:
    """The jackknife t interval of an index; rescaled, and widened by its bias correction.

    With n objects (n = sum of the weights), theta the estimate and theta_(i) the index with
    object i left out, on a scale z = g(theta): pseudovalues p_i = n z - (n - 1) z_(i), their
    mean zbar (the bias-corrected estimate) and standard error
    s = sqrt(sum (p_i - zbar)^2 / (n (n - 1))); t is the 1 - alpha/2 quantile of Student's t
    with n - 1 degrees of freedom. Plain (``rescaled=False``, ``method="jackknife"``): g the
    identity and the interval zbar -/+ t s. Rescaled ("auto" once independence is rejected):
    g of ``scale_of``, and the interval g^-1 of [zbar - t s - max(b, 0), zbar + t s +
    max(-b, 0)], widened on its side by b = g(theta) - g(theta_J), the index's own bias
    correction (theta_J the mean of the pseudovalues of theta itself) carried to the scale
    (g(theta) - zbar where theta_J lies outside the range). The curvature of g alone widens
    nothing: an index that the jackknife finds unbiased (a U-statistic, as Rand's pair
    counts) is not widened. Where a value lies on a bound of the range (g infinite) the
    identity scale is used.

    Parameters
    ----------
    rec : Index
        The index's record (its range sets the scale).
    statistic : float
        The index on all n objects.
    values, weights : array-like
        The leave-one-out values and how many objects each stands for (a table: one value
        per non-empty cell, weighted by its count; objects: n values of weight 1).
    confidence_level : float
        The nominal coverage.
    rescaled : bool, default False
        Make the interval on the index's scale, widened by the bias correction.

    Returns
    -------
    JackknifeInterval

    References
    ----------
    Efron, B. & Tibshirani, R. J. (1993), "An Introduction to the Bootstrap", ch. 11.

    Examples
    --------
    The jackknife of the mean is the t interval:

    >>> x = np.array([1.0, 2.0, 4.0, 7.0])
    >>> n = x.size
    >>> loo = (x.sum() - x) / (n - 1)
    >>> ji = jackknife_interval(ca.get_index("mutual_info"), x.mean(), loo, np.ones(n), 0.95)
    >>> ji.scale, round(ji.standard_error, 4), round(float(np.std(x, ddof=1) / 2), 4)
    ('identity', 1.3229, 1.3229)
    >>> t = float(stats.t.ppf(0.975, 3))
    >>> bool(np.isclose(ji.low, x.mean() - t * ji.standard_error))
    True
    """
    values = np.asarray(values, dtype=float)
    weights = np.asarray(weights, dtype=float)
    n = float(weights.sum())
    t = float(stats.t.ppf(0.5 + confidence_level / 2, n - 1))
    scale = scale_of(rec) if rescaled else IDENTITY
    if not scale.fits(np.append(values, statistic)):
        scale = IDENTITY
    z, zv = float(scale.forward(statistic)), scale.forward(values)
    zbar, s = pseudovalues(z, zv, weights, n)
    center, se = pseudovalues(statistic, values, weights, n)
    b = 0.0
    if rescaled:  # the index's own bias correction, carried to the scale
        with np.errstate(divide="ignore", invalid="ignore"):
            b = z - float(scale.forward(center))
        if not math.isfinite(b):
            b = z - zbar
    lo = float(scale.inverse(zbar - t * s - max(b, 0.0)))
    hi = float(scale.inverse(zbar + t * s + max(-b, 0.0)))
    return JackknifeInterval(lo, hi, center, se, scale.name)



def no_interval(d: Draws, method: str, reason: str, warn: bool = True) -> ConfidenceInterval:
    """An interval of nan bounds with its reason (and a warning).

    Parameters
    ----------
    d : Draws
        The index's estimate and draws.
    method : str
        The method asked for.
    reason : str
        Why there is no interval.
    warn : bool, default True
        Warn (an index not defined on some resample is not warned again: its caller says so).

    Returns
    -------
    ConfidenceInterval
        Bounds of nan, ``reason`` set.
    """
    if warn:
        warnings.warn(f"no interval for {d.rec.name!r}: {reason}", stacklevel=5)
    return ConfidenceInterval(index=d.rec.name, statistic=float(d.statistic), low=math.nan,
                              high=math.nan, confidence_level=d.confidence_level,
                              method=method, n_resamples=0, standard_error=math.nan,
                              bootstrap_distribution=np.empty(0), resampling=d.resampling,
                              reason=reason)


def jackknife_result(d: Draws, low: float, high: float, closed: str, method: str, notes: list,
                     standard_error: float, pvalue: float = math.nan) -> ConfidenceInterval:
    """A jackknife interval clipped to the index's range, its notes saying where it is
    one-sided and whether it leaves out the estimate.

    Parameters
    ----------
    d : Draws
        The index's estimate and draws.
    low, high : float
        The bounds before clipping.
    closed : {"both", "left", "right"}
        Which bounds belong to the interval.
    method : str
        What made it.
    notes : list of str
        How it was made (the clipping's notes are added).
    standard_error : float
        The jackknife's standard error.
    pvalue : float, optional
        The p-value of the test of independence "auto" inverted.

    Returns
    -------
    ConfidenceInterval
        The interval.
    """
    rec, statistic = d.rec, d.statistic
    lo_range, hi_range = (float(v) for v in rec.range)
    low, high = max(low, lo_range), min(high, hi_range)
    if low == lo_range and closed in ("both", "left"):
        notes.append(f"one-sided: bounded below by the index's least value {lo_range:g}")
    if high == hi_range and closed in ("both", "right"):
        notes.append(f"one-sided: bounded above by the index's greatest value {hi_range:g}")
    if not low <= statistic <= high:
        notes.append("the interval excludes the estimate: the estimate's bias (the "
                     "jackknife's correction) exceeds its spread")
    return ConfidenceInterval(index=rec.name, statistic=float(statistic), low=float(low),
                              high=float(high), confidence_level=d.confidence_level,
                              method=method, n_resamples=0, standard_error=standard_error,
                              bootstrap_distribution=np.empty(0), resampling=d.resampling,
                              closed=closed, note="; ".join(notes),
                              independence_pvalue=pvalue)


def _jackknife(d: Draws) -> ConfidenceInterval:
    """Method "jackknife": the plain t interval of the pseudovalues, clipped to the range."""
    if d.reason:
        return no_interval(d, "jackknife", d.reason, warn=False)
    values, weights = d.jackknife
    if np.all(values == values[0]):
        return no_interval(d, "jackknife", SAME_VALUES)
    ji = jackknife_interval(d.rec, d.statistic, values, weights, d.confidence_level)
    return jackknife_result(d, ji.low, ji.high, "both", "jackknife", [], ji.standard_error)


register_interval_method(IntervalMethod(
    "jackknife", "the jackknife", _jackknife, jackknife=True))
