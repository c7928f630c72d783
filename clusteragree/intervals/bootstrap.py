"""The bootstrap intervals, methods "percentile" and "BCa", from the index on resamples.

The objects are resampled with replacement (Efron & Tibshirani 1993) and the index computed on
each resample (``clusteragree.intervals.resamples``); the percentile interval is the alpha/2
and 1 - alpha/2 quantiles of those values, BCa (bias corrected and accelerated; Efron 1987)
moves both quantile levels by the bias z0 (the share of resamples below the estimate, ties
counted half) and the acceleration a (from the jackknife), as ``scipy.stats.bootstrap``
computes them (``tests/test_intervals.py`` checks them against it).
"""

from __future__ import annotations

import math
import warnings
from functools import partial

import numpy as np
from scipy.special import ndtr, ndtri

from ._methods import Draws, IntervalMethod, register_interval_method
from .result import ConfidenceInterval

__all__ = ["acceleration", "bca_levels", "bootstrap_interval"]


def acceleration(values: np.ndarray, weights: np.ndarray) -> float:
    """BCa's acceleration from weighted jackknife values (Efron & Tibshirani 1993, eq 14.15).

    a = sum w d^3 / (6 (sum w d^2)^(3/2)), d = mean - value; 0 when the jackknife values are
    all equal.

    Parameters
    ----------
    values, weights : numpy.ndarray
        The leave-one-out values and how many objects each stands for.

    Returns
    -------
    float
        The acceleration.

    Examples
    --------
    >>> acceleration(np.array([1.0, 1.0, 4.0]), np.ones(3)) < 0
    True
    """
    mean = np.sum(weights * values) / np.sum(weights)
    d = mean - values
    den = np.sum(weights * d ** 2)
    if not den > 0:
        return 0.0
    return float(np.sum(weights * d ** 3) / (6.0 * den ** 1.5))


def bca_levels(boot: np.ndarray, statistic: float, alpha: float,
               accel: float) -> tuple[float, float, float]:
    """The two quantile levels of BCa (Efron 1987); z0 counts ties half, as scipy does.

    Parameters
    ----------
    boot : numpy.ndarray
        The index on each resample.
    statistic : float
        The estimate.
    alpha : float
        The level of each tail, (1 - confidence_level) / 2.
    accel : float
        The acceleration (``acceleration``).

    Returns
    -------
    (float, float, float)
        z0 and the two levels; the levels are nan when every resample lies on one side of
        the estimate (z0 infinite).

    Examples
    --------
    >>> z0, lo, hi = bca_levels(np.array([0.1, 0.2, 0.3, 0.4]), 0.25, 0.025, 0.0)
    >>> z0, round(lo, 3), round(hi, 3)
    (0.0, 0.025, 0.975)
    """
    B = boot.size
    below = (np.count_nonzero(boot < statistic) + np.count_nonzero(boot <= statistic)) / (2 * B)
    z0 = float(ndtri(below))
    if not math.isfinite(z0):
        return z0, math.nan, math.nan
    levels = []
    for z in (ndtri(alpha), -ndtri(alpha)):
        num = z0 + z
        levels.append(float(ndtr(z0 + num / (1 - accel * num))))
    return z0, levels[0], levels[1]


def bootstrap_interval(d: Draws, method: str) -> ConfidenceInterval:
    """The percentile or BCa interval of one index from its bootstrap distribution.

    Parameters
    ----------
    d : Draws
        The estimate, ``d.bootstrap`` (the index on each resample; a nan where the index is
        not defined, which gives no interval, with a warning) and for BCa ``d.jackknife``;
        ``d.reason``: why the index has none (not defined on some resample).
    method : {"BCa", "percentile"}
        The interval.

    Returns
    -------
    ConfidenceInterval
        The interval, with the bootstrap distribution; nan bounds and the reason where it
        cannot be made.
    """
    rec, statistic, boot, reason = d.rec, d.statistic, d.bootstrap, d.reason
    alpha = (1 - d.confidence_level) / 2
    z0 = accel = math.nan
    n_resamples = boot.size
    if reason:
        low = high = math.nan
    elif np.isnan(boot).any():
        low = high = math.nan
        reason = (f"index {rec.name!r} is not defined on {int(np.isnan(boot).sum())} of the "
                  f"{n_resamples} resamples")
        warnings.warn(f"{reason}: no interval", stacklevel=4)
    else:
        if method == "BCa":
            accel = acceleration(*d.jackknife)
            z0, lo_level, hi_level = bca_levels(boot, statistic, alpha, accel)
        else:
            lo_level, hi_level = alpha, 1 - alpha
        if math.isnan(lo_level) or math.isnan(hi_level):
            low = high = math.nan
            reason = ("its BCa interval cannot be computed: every resample lies on one side "
                      "of the estimate; method='percentile' gives one")
            warnings.warn(f"the BCa interval of {rec.name!r} cannot be computed: every "
                          "resample lies on one side of the estimate; use "
                          "method='percentile'", stacklevel=4)
        else:
            low, high = (float(v) for v in np.quantile(boot, [lo_level, hi_level]))
    se = float(np.std(boot, ddof=1)) if n_resamples > 1 else math.nan
    return ConfidenceInterval(index=rec.name, statistic=float(statistic), low=low, high=high,
                              confidence_level=d.confidence_level, method=method,
                              n_resamples=n_resamples, standard_error=se,
                              bootstrap_distribution=boot, resampling=d.resampling, bias=z0,
                              acceleration=accel, reason=reason or "")


register_interval_method(IntervalMethod(
    "BCa", "the bias corrected and accelerated bootstrap (Efron 1987)",
    partial(bootstrap_interval, method="BCa"), bootstrap=True, jackknife=True))
register_interval_method(IntervalMethod(
    "percentile", "the percentile bootstrap", partial(bootstrap_interval, method="percentile"),
    bootstrap=True))
