"""Adjusted mutual information of Tsallis entropy of order q (AMI_q).

Romano, S., Vinh, N. X., Bailey, J. & Verspoor, K. (2016), "Adjusting for chance clustering
comparison measures", JMLR 17, generalise the adjusted mutual information with the Tsallis
q-entropy H_q(p) = (1 - sum_i p_i^q) / (q - 1):

    MI_q = H_q(x) + H_q(y) - H_q(x, y) = (1 - sum_i (a_i/n)^q - sum_j (b_j/n)^q
                                          + sum_ij (n_ij/n)^q) / (q - 1),
    AMI_q = (MI_q - E[MI_q]) / ((H_q(x) + H_q(y)) / 2 - E[MI_q]),

with E under fixed margins (the permutation null). Given the margins, MI_q is affine in
sum_ij n_ij^q and the denominator is a constant, so E[MI_q] needs only E[sum_ij n_ij^q], a sum
over each cell's hypergeometric law Hypergeom(n, a_i, b_j) (``clusteragree._moments.cells``), and
the exact null mean of AMI_q is 0. Two members are known indices: q = 2 is the adjusted Rand
index (MI_2 is affine in sum n_ij^2, as ARI is), and q -> 1 is the adjusted mutual information
with the arithmetic mean (Shannon entropy), which ``q=1`` computes.

The standardised form divides by the exact null standard deviation instead:

    SMI_q = (MI_q - E[MI_q]) / sd[MI_q] = sign(q - 1) (P - E[P]) / sd[P],   P = sum_ij n_ij^q,

with Var[P] from the same sums over pairs of cells as the exact Var[MI]
(``clusteragree._moments.mi_variance.variance_of_power_sum``); q = 2 is the standardised Rand index
(``sri``) and q = 1 the standardised mutual information (``smi``, with its moments). For
q != 1 the variance is exact only (about the time of the exact Var[MI]: 0.5 s for a 10 x 10
table with n = 10^5); a table predicted to take more than ``SLOW_SECONDS`` warns first.

Large q. Computed as written, sum (n_ij / n)^q vanishes against the 1 beside it (all digits of
MI_q - E[MI_q] are lost by q ~ 20 on a table of 60 objects) and n_ij^q passes the double range
(q ~ 200). Both forms are ratios in which 1 / (q - 1) and n^q cancel:

    AMI_q = (P - E[P]) / ((A + B) / 2 - E[P]),     A = sum_i a_i^q,  B = sum_j b_j^q,

so every sum is taken of (x / M)^q, M the largest margin (SMI_q: the largest value its sums
cover), each term at most 1. E[P] is summed where n_ij^q P(n_ij) lies, which a large q moves
into the far upper tail of the cell's law (``clusteragree._moments.cells.tilted_windows``; the
weights are log-concave), so it is exact for any q; beyond q = 10^19 every (x / M)^q with x < M
is 0 in double precision and the value is the q -> infinity limit, (N - E[N]) /
((R + C) / 2 - E[N]) with N the cells equal to M and R, C the margins equal to M (so 1 on
identical partitions, and 0 when no cell can reach M). The exact variance sums over each
cell's window of its law only (the pairs of cells leave no room for the tilted tails): where
n_ij^q or n_ij^(2q) weighs values outside the windows
(``clusteragree._moments.mi_variance.power_sum_within_windows``), ``smi_tsallis`` refuses, naming the
largest order these margins allow (165 for two clusters of 1000 against two of 1000; no bound
on small tables, whose windows are the whole support).

Near q = 1. Written as above, P - E[P] is the difference of two sums of size n that agree to
about |q - 1| t: at q = 1 + 1e-12 every digit is lost (AMI_q was exactly 0 on [[20, 10],
[10, 20]], 0.0702 at q = 1). Within ``NEAR_ONE`` of 1 the sums are taken of
(x^q - x) / (q - 1) = x log x exprel((q - 1) log x) instead
(``clusteragree._moments.cells.tsallis_terms``): P = n + (q - 1) P', so P - E[P] =
(q - 1) (P' - E[P']), sd[P] = |q - 1| sd[P'] and (A + B) / 2 - E[P] = (q - 1)
((A' + B') / 2 - E[P']), and AMI_q and SMI_q are the same ratios of the primed sums, which tend
to t, its mean and its variance as q -> 1 with nothing cancelling: the values are continuous
through q = 1 (within 1e-12 of the AMI and SMI at q = 1 +- 1e-12, as the tests check against
50-digit sums).
"""

from __future__ import annotations

import math
import warnings
from functools import lru_cache

import numpy as np

from .._moments.cells import T_CAP, expected_scaled_power_sum, expected_tsallis_sum, tsallis_terms
from .._moments.mi_variance import (power_sum_scale, power_sum_within_windows,
                                    variance_of_power_sum, variance_of_tsallis_sum_bound)
from ._common import identical, ratio
from ._registry import get_index, register
from .information import AMI_RTOL
from .standardised import SECONDS_PER_WORK, margins_key, per_margins, exact_variance_work

__all__ = ["expected_power_sum", "power_sum_moments", "SLOW_SECONDS", "NEAR_ONE"]

#: ``smi_tsallis`` warns before an exact variance predicted to take longer than this.
SLOW_SECONDS = 10.0
#: Orders within this of 1 (other than 1) take the sums as sum (x^q - x) / (q - 1)
#: (module docstring, "Near q = 1").
NEAR_ONE = 0.01

_ROMANO16 = ("Romano, Vinh, Bailey & Verspoor (2016), Adjusting for chance clustering "
             "comparison measures, JMLR 17")


@lru_cache(maxsize=1024)
def _power_sum(a: tuple, b: tuple, q: float, scale: float) -> float:
    return expected_scaled_power_sum(np.array(a), np.array(b), q, scale)


def _largest_margin(a: tuple, b: tuple) -> int:
    return max(a[-1] if a else 1, b[-1] if b else 1)


def expected_power_sum(rows, cols, q: float, scale: float = 1.0) -> float:
    """E[sum_ij (n_ij / scale)^q] over the tables with the given margins (fixed margins; each
    cell hypergeometric, summed where its law weighted by n_ij^q lies, which a large q moves
    into the upper tail; cached per margins, q and scale). A scale such as the largest margin
    keeps the value within the double range for any q.

    >>> round(expected_power_sum([2, 2], [2, 2], 2.0), 12)   # s = 8 w.p. 1/3, 4 w.p. 2/3
    5.333333333333
    >>> f"{expected_power_sum([30, 30], [30, 30], 10**6, scale=30):.4g}"  # -> 4 / C(60, 30)
    '3.382e-17'
    """
    q = _check_q(q)
    a, b = margins_key(rows, cols)
    if q * math.log(max(_largest_margin(a, b) / _check_scale(scale), 1.0)) > 700.0:
        raise OverflowError(f"E[sum n_ij^q] at q = {q:g} may exceed the double range (cells up "
                            f"to {_largest_margin(a, b)}); pass scale= (e.g. the largest "
                            f"margin) for E[sum (n_ij / scale)^q]")
    return _power_sum(a, b, q, float(scale))


def _check_scale(scale):
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) \
            or not math.isfinite(scale) or scale <= 0:
        raise ValueError(f"scale must be a positive number, got {scale!r}")
    return float(scale)


@lru_cache(maxsize=1024)
def _reach(a: tuple, b: tuple, q: float) -> bool:
    return power_sum_within_windows(np.array(a), np.array(b), q)


def _order_bound(a: tuple, b: tuple, q: float) -> float:
    """The largest order (below q, three significant digits, rounded down) whose exact
    variance the margins allow (``power_sum_within_windows`` fails from some order on: the
    weighted laws only move up with the order)."""
    good, bad = 0.0, q
    for _ in range(60):
        mid = 0.5 * (good + bad)
        if _reach(a, b, mid):
            good = mid
        else:
            bad = mid
        if bad - good <= 1e-4 * bad:
            break
    if good <= 0.0:
        return 0.0
    step = 10.0 ** (math.floor(math.log10(good)) - 2)
    return math.floor(good / step) * step


def _check_reach(a: tuple, b: tuple, q: float) -> None:
    if _reach(a, b, q):
        return
    bound = _order_bound(a, b, q)
    raise ValueError(
        f"smi_tsallis: q = {q:g} is beyond the exact null variance for these margins "
        f"({len(a)} x {len(b)} table, n = {sum(a)}): with weights n_ij^q the variance of "
        f"sum n_ij^q lies in the far upper tails of the cells' laws, outside the windows the "
        f"exact sums cover; q <= {bound:g} here (the bound depends on the margins; "
        f"ami_tsallis, which needs only the null mean, takes any q)")


@lru_cache(maxsize=512)
def _variance_scale(a: tuple, b: tuple, q: float) -> float:
    """The scale of ``smi_tsallis``'s sums, the largest value of the variance's windows (so
    nothing overflows at any q), once the order is known to be within reach (else the error
    of ``_check_reach``) and after warning of a slow variance."""
    _check_reach(a, b, q)
    seconds = exact_variance_work(a, b) * SECONDS_PER_WORK
    if seconds > SLOW_SECONDS:
        warnings.warn(f"the exact null variance of sum n_ij^{q:g} for this {len(a)} x {len(b)} "
                      f"table (n = {sum(a)}) takes about {seconds:.0f} s; a Monte Carlo z "
                      f"(agreement_test(..., method='patefield')) is quicker", UserWarning,
                      stacklevel=3)
    return float(power_sum_scale(np.array(a), np.array(b)))


@lru_cache(maxsize=512)
def _power_moments(a: tuple, b: tuple, q: float, scale: float) -> tuple[float, float]:
    return (_power_sum(a, b, q, scale),
            variance_of_power_sum(np.array(a), np.array(b), q, scale))


def power_sum_moments(rows, cols, q: float, scale: float = 1.0) -> tuple[float, float]:
    """Exact (E[P], Var[P]) of P = sum_ij (n_ij / scale)^q under fixed margins (cached). Beyond
    the order the margins allow (a large q puts the variance in the far tails of the cells'
    laws) it refuses, naming the largest order it can give; a scale such as the largest
    margin keeps the values within the double range.

    >>> m, v = power_sum_moments([2, 2], [2, 2], 2.0)   # P = 8 w.p. 1/3, 4 w.p. 2/3
    >>> round(m, 10), round(v, 10)
    (5.3333333333, 3.5555555556)
    """
    q, scale = _check_q(q), _check_scale(scale)
    a, b = margins_key(rows, cols)
    top = _variance_scale(a, b, q)
    if q * math.log(max(top / scale, 1.0)) > 300.0:
        raise OverflowError(f"Var[sum n_ij^q] at q = {q:g} may exceed the double range (cells "
                            f"up to {top:g}); pass scale= (e.g. {top:g})")
    return _power_moments(a, b, q, scale)


def _check_q(q):
    if isinstance(q, bool) or not isinstance(q, (int, float)) or not math.isfinite(q) or q <= 0:
        raise ValueError(f"q must be a positive number (the order of the Tsallis entropy; "
                         f"2 gives the adjusted Rand index, 1 the adjusted mutual information), "
                         f"got {q!r}")
    return float(q)


@register(name="ami_tsallis", whole_counts_reason=(
              "its expected MI_q is a law of integer tables, hypergeometric cells of whole "
              "margins"),
          title="Adjusted mutual information of Tsallis order q (AMI_q)",
          kind="similarity", range=(-math.inf, 1.0), optimum=1.0, symmetric=True,
          aliases=("ami_q", "tsallis_ami"), options={"q": 2.0}, family="information",
          reference=_ROMANO16)
def ami_tsallis(counts, q=2.0):
    """AMI_q = (MI_q - E[MI_q]) / ((H_q(x) + H_q(y)) / 2 - E[MI_q]) with Tsallis entropies of
    order q and the exact E under fixed margins; q = 2 is ARI, q = 1 the AMI (arithmetic).

    >>> round(ca.agreement([[30, 20], [10, 20]], index="ami_tsallis", q=2), 6)  # = ARI
    0.051241
    >>> round(ca.agreement([[30, 20], [10, 20]], index="ami_tsallis", q=1.5), 6)
    0.048577
    """
    q = _check_q(q)
    if q == 1.0:  # the Shannon limit: the adjusted mutual information, arithmetic mean
        return get_index("adjusted_mutual_info").on_counts(np.asarray(counts, dtype=np.int64))
    if abs(q - 1.0) <= NEAR_ONE:
        return _ami_near_one(counts, q)
    c = np.asarray(counts, dtype=float)
    a, b = c.sum(axis=-1), c.sum(axis=-2)
    # (MI_q - E[MI_q]) / (mean of H_q - E[MI_q]): the 1 / (q - 1) and the constant terms of
    # the entropies cancel, leaving (P - E[P]) / ((A + B) / 2 - E[P]) with P, A, B the sums of
    # n_ij^q, a_i^q, b_j^q; all are divided by M^q, M the largest margin (no overflow)
    m = np.maximum(a.max(axis=-1), b.max(axis=-1))
    qe = min(q, T_CAP)
    with np.errstate(under="ignore"):
        sa = ((a / m[..., None]) ** qe).sum(axis=-1)
        sb = ((b / m[..., None]) ** qe).sum(axis=-1)
        p = ((c / m[..., None, None]) ** qe).sum(axis=(-2, -1))
    ep = np.array(per_margins(a, b, c.shape[:-2], lambda r, s: _power_sum(
        *margins_key(r, s), q, float(max(r.max(), s.max()))))).reshape(c.shape[:-2])
    avg = (sa + sb) / 2
    # P = E[P] up to rounding (margins that allow one table): no deviation to show
    num = np.where(np.abs(p - ep) <= 1e-12 * np.maximum(p, ep), 0.0, p - ep)
    den = np.where(np.abs(avg - ep) <= 1e-12 * np.maximum(avg, ep), 0.0, avg - ep)
    return ratio(num, den, identical(c.astype(np.int64)), 1.0, 0.0)


@register(name="smi_tsallis", whole_counts_reason=(
              "its mean and variance are exact moments over the integer tables with the "
              "observed margins"),
          title="Standardised mutual information of Tsallis order q (SMI_q)",
          kind="similarity", range=(-math.inf, math.inf), optimum=math.inf, symmetric=True,
          reflexive=False, aliases=("smi_q", "tsallis_smi"), options={"q": 2.0},
          family="information", reference=_ROMANO16)
def smi_tsallis(counts, q=2.0):
    """SMI_q = (MI_q - E[MI_q]) / sd[MI_q] with Tsallis entropies of order q, the exact mean
    and variance under fixed margins; q = 2 is ``sri``, q = 1 is ``smi``. 0 when the margins
    allow one value (sd = 0).

    >>> round(ca.agreement([[30, 20], [10, 20]], index="smi_tsallis", q=2), 4)  # = SRI
    3.041
    >>> round(ca.agreement([[30, 20], [10, 20]], index="smi_tsallis", q=1.5), 4)
    3.0406
    """
    q = _check_q(q)
    if q == 1.0:  # the Shannon limit: SMI with its own moments (exact, or asymptotic if large)
        return get_index("smi").on_counts(np.asarray(counts, dtype=np.int64))
    if abs(q - 1.0) <= NEAR_ONE:
        return _smi_near_one(counts, q)
    c = np.asarray(counts, dtype=float)
    batch = c.shape[:-2]

    def moments(rows, cols):
        a, b = margins_key(rows, cols)
        scale = _variance_scale(a, b, q)
        return (scale,) + _power_moments(a, b, q, scale)

    # everything in units of scale^q (the largest value of the variance's windows)
    found = per_margins(c.sum(axis=-1), c.sum(axis=-2), batch, moments)
    scale, mean, var = (np.array([m[i] for m in found]).reshape(batch) for i in range(3))
    sd = np.sqrt(np.maximum(var, 0.0))
    qe = min(q, T_CAP)
    with np.errstate(under="ignore", over="ignore", invalid="ignore"):
        p = ((c / scale[..., None, None]) ** qe).sum(axis=(-2, -1))
        # P = E[P] up to rounding (margins that allow one table): no deviation to show
        same = np.isfinite(p) & (np.abs(p - mean) <= 1e-12 * np.maximum(p, mean))
        z = np.where(same, 0.0, p - mean) / np.where(sd > 0, sd, 1.0)
    huge = ~np.isfinite(z)
    if huge.any():
        # an observed table far beyond the windows: P / scale^q may pass the double range,
        # where E[P] is negligible beside it and z = P / sd (inf only beyond the double range)
        with np.errstate(divide="ignore", under="ignore", over="ignore"):
            logs = qe * np.log(c / scale[..., None, None])
            top = logs.max(axis=(-2, -1))
            log_p = top + np.log(np.exp(logs - top[..., None, None]).sum(axis=(-2, -1)))
            z = np.where(huge, np.exp(log_p - np.log(np.where(sd > 0, sd, 1.0))), z)
    return np.sign(q - 1) * np.where(sd > 0, z, 0.0)


# -- near q = 1: the sums of (x^q - x) / (q - 1) (module docstring, "Near q = 1")

@lru_cache(maxsize=1024)
def _near_mean(a: tuple, b: tuple, q: float) -> float:
    return expected_tsallis_sum(np.array(a), np.array(b), q)


@lru_cache(maxsize=512)
def _near_variance(a: tuple, b: tuple, q: float) -> float:
    _variance_scale(a, b, q)  # the checks and the warning of a slow variance
    return variance_of_tsallis_sum_bound(np.array(a), np.array(b), q)[0]


def _near_sums(counts, q):
    """The counts as floats, with P' = sum (n_ij^q - n_ij) / (q - 1) of each table, and
    A', B' of its margins (``tsallis_terms``)."""
    c = np.asarray(counts, dtype=float)
    a, b = c.sum(axis=-1), c.sum(axis=-2)
    return (c, a, b, tsallis_terms(c, q).sum(axis=(-2, -1)), tsallis_terms(a, q).sum(axis=-1),
            tsallis_terms(b, q).sum(axis=-1))


def _ami_near_one(counts, q):
    """AMI_q = (P' - E[P']) / ((A' + B') / 2 - E[P']) (the sums of ``_near_sums``: the
    1 / (q - 1), the n's and the n^q cancel as in the general form)."""
    c, a, b, p, sa, sb = _near_sums(counts, q)
    ep = np.array(per_margins(a, b, c.shape[:-2], lambda r, s: _near_mean(
        *margins_key(r, s), q))).reshape(c.shape[:-2])
    avg = (sa + sb) / 2
    # as the AMI's: differences below AMI_RTOL of n (MI in nats times n) are rounding
    scale = AMI_RTOL * np.maximum(c.sum(axis=(-2, -1)), np.abs(avg))
    num = np.where(np.abs(p - ep) <= scale, 0.0, p - ep)
    den = np.where(np.abs(avg - ep) <= scale, 0.0, avg - ep)
    return ratio(num, den, identical(c.astype(np.int64)), 1.0, 0.0)


def _smi_near_one(counts, q):
    """SMI_q = (P' - E[P']) / sd[P'] (the sums of ``_near_sums``; sign(q - 1) (P - E[P]) /
    sd[P] with P = n + (q - 1) P')."""
    c, a, b, p, _, _ = _near_sums(counts, q)
    batch = c.shape[:-2]

    def moments(rows, cols):
        key = margins_key(rows, cols)
        return _near_mean(*key, q), _near_variance(*key, q)

    found = per_margins(a, b, batch, moments)
    mean, var = (np.array([m[i] for m in found]).reshape(batch) for i in range(2))
    sd = np.sqrt(np.maximum(var, 0.0))
    scale = AMI_RTOL * np.maximum(c.sum(axis=(-2, -1)), np.abs(p))
    dev = np.where(np.abs(p - mean) <= scale, 0.0, p - mean)
    return np.where(sd > 0, dev / np.where(sd > 0, sd, 1.0), 0.0)
