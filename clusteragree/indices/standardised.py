"""Standardised indices: an index minus its exact null mean, over its null standard deviation,
both under fixed margins (the permutation model, generalized hypergeometric).

    SMI = (MI - E[MI]) / sd[MI]          SRI = (Rand - E[Rand]) / sd[Rand] = (s - E[s]) / sd[s]

(Romano, Bailey, Nguyen & Verspoor 2014, "Standardized mutual information for clustering
comparisons: one step further in adjustment for chance", ICML; Romano, Vinh, Bailey & Verspoor
2016, "Adjusting for chance clustering comparison measures", JMLR 17). E[MI] is Vinh et al.'s
expected mutual information, Var[MI] the exact variance of ``clusteragree._moments.mi_variance``; E[s]
and Var[s] (s = sum n_ij^2, Rand affine in s) are exact rationals
(``clusteragree.nulls.hypergeometric.moments_of_s``). A standardised index is a z-score: it has
no fixed optimum, and is 0 when the margins allow a single table (sd = 0).

Beyond exact reach. The exact Var[MI] sums over pairs of cells and the windows of their laws,
by FFT: its time is about ``SECONDS_PER_WORK`` times ``exact_variance_work``, of order
K Q (K + Q) W, W the widest window of a cell's law (5 s and 140 MB for a 50 x 50 table with
n = 10^6). The mean E[MI] stays exact and cheap. For the variance, G = 2 n MI (the
likelihood-ratio statistic of independence) is asymptotically chi-square with
df = (K - 1)(Q - 1) degrees of freedom (K, Q the non-empty rows and columns); the exact mean's
ratio to the chi-square mean, q = 2 n E[MI] / df, scales it, as in Williams, D. A. (1976),
"Improved likelihood ratio tests for complete contingency tables", Biometrika 63:
G ~ q chi2_df, so

    Var[G] = 2 df q^2,   Var[MI] ~ df q^2 / (2 n^2).

Its error depends on how sparse the table is, measured by the effective cell count

    c = (K - 1)(Q - 1) / sum_ij 1 / max(mu_ij, 1/2),   mu_ij = a_i b_j / n

(with equal margins (K - 1)(Q - 1) / (K Q) times the mean cell count n / (K Q); a row or a
column with few objects makes it much smaller, and the mean cell count is then no guide: it
was above 100 on tables with 5% error). Against the exact sd on 882 random tables (2 to 100
clusters a side, n = 13 to 3 10^6, Dirichlet margins from lopsided to equal), the relative
error of the asymptotic sd was at most 0.47 / c and at most 5.8 / c^2; the stated bound is

    |sd_asymptotic / sd_exact - 1| <= min(0.5 / c, 6 / c^2)      (``smi_sd_error_bound``),

below 1% when c >= 25. Measured |sd_asymptotic / sd_exact - 1|:

    c            tables   median    max       bound at the lower end
    [1, 3)         239    4.6e-2    1.4e-1    5e-1
    [3, 10)        177    1.0e-2    5.6e-2    1.7e-1
    [10, 25)        83    9.0e-4    1.1e-2    5e-2
    [25, 100)      113    5.7e-5    2.0e-3    9.6e-3
    [100, 1000)    119    1.5e-6    4.2e-5    6e-4
    50 x 50, n = 10^5, c = 26:  -5.7e-4;   50 x 50, n = 10^6, c = 260:  -3.6e-6 (exact 4.6 s)
    10 x 10, n = 10^5, lopsided margins, c = 5.4:  +1.4e-2

The unscaled variance 2 df and the once-scaled 2 df q were measured on the same tables: their
error falls only like 1/c (median 5.6e-4 and 2.8e-4 for c in [100, 1000)), so q^2 it is. SMI
from the asymptotic moments is the exact SMI times sd_exact / sd_asymptotic (E[MI] is exact).
Option ``moments`` of ``smi``: ``"exact"``, ``"asymptotic"``, or ``"auto"`` (default): exact
when its work is at most ``AUTO_MAX_WORK`` (about 2 s), or at most ``AUTO_MAX_WORK_SPARSE``
(about 10 s) when the asymptotic bound is above ``SPARSE_ERROR`` (1%, c < 25: a few seconds buy
an exact value where the approximation would be poor), else asymptotic. Asymptotic moments on a
table whose bound is above ``SPARSE_ERROR`` warn, with the bound.
``smi_moments_method(table)`` says which moments a table gets; ``agreement_test`` prints it.
"""

from __future__ import annotations

import math
import os
import sys
import warnings
from functools import lru_cache

import numpy as np

from .._moments.cells import expected_mutual_information
from .._moments.squares import moments_of_s
from .._moments.mi_variance import (DEFAULT_MAX_SECONDS, SECONDS_PER_WORK, check_variance_time,
                              variance_of_mi, variance_work)
from .._validate import check_choice
from ._registry import register
from .information import AMI_RTOL, info_state

__all__ = [
    "AUTO_MAX_WORK",
    "AUTO_MAX_WORK_SPARSE",
    "SECONDS_PER_WORK",
    "SPARSE_ERROR",
    "check_exact_variance_time",
    "exact_variance_work",
    "margins_key",
    "mi_null_moments",
    "per_margins",
    "s_null_moments",
    "smi_moments_method",
    "smi_sd_error_bound",
    "variance_work_floor",
]

_ROMANO = ("Romano, Bailey, Nguyen & Verspoor (2014), Standardized mutual information for "
           "clustering comparisons: one step further in adjustment for chance, ICML; Romano, "
           "Vinh, Bailey & Verspoor (2016), Adjusting for chance clustering comparison "
           "measures, JMLR 17")
_MOMENTS = ("auto", "exact", "asymptotic")
#: ``moments="auto"`` computes the variance exactly when ``exact_variance_work`` is at most
#: this, 2 s at ``SECONDS_PER_WORK``, else asymptotically. With equal cluster sizes that is up
#: to n ~ 5 10^7 (10 x 10), 9 10^6 (20 x 20), 2 10^5 (50 x 50); with sizes within a factor of
#: about 3, 4 10^7, 5 10^6, 8 10^4; lopsided sizes (Dirichlet(1)) widen the largest cell's
#: window and bring these down to 4 10^7, 3 10^6, 4 10^4.
AUTO_MAX_WORK = 2.0 / SECONDS_PER_WORK
#: ... and up to this (10 s) on a table where the asymptotic moments' error bound is above
#: ``SPARSE_ERROR``: e.g. a 40 x 40 table with n = 10^6 and rows of 20 and 138 objects (exact
#: 2.6 s; asymptotic sd off by 0.9%, bound 2.3%).
AUTO_MAX_WORK_SPARSE = 10.0 / SECONDS_PER_WORK
#: Asymptotic moments warn when their stated error bound (``smi_sd_error_bound``) is above
#: this relative error of the sd (an effective cell count below 25).
SPARSE_ERROR = 0.01


def margins_key(rows, cols):
    """The positive margins, each sorted, as two tuples of ints: what the null moments depend
    on, and the key of their caches."""
    a = tuple(sorted(int(v) for v in np.asarray(rows).ravel() if v > 0))
    b = tuple(sorted(int(v) for v in np.asarray(cols).ravel() if v > 0))
    return a, b


def _margins_of(table):
    """(rows, cols) from a table, or from a pair ``(rows, cols)`` of margins."""
    if isinstance(table, tuple) and len(table) == 2:
        return table
    from ..tables import as_counts
    counts = as_counts(table)
    return counts.sum(axis=1), counts.sum(axis=0)


def _degenerate(a, b) -> bool:
    """Margins on which t = sum n log n is the same on every table (Var[MI] = 0)."""
    return len(a) < 2 or len(b) < 2 or max(a) == 1 or max(b) == 1


def exact_variance_work(rows, cols) -> float:
    """The work of the exact Var[MI] (``clusteragree._moments.mi_variance.variance_work``):
    about K Q (K + Q) W, W the widest window of a cell's law: for each row, the pairs of cells in
    it and in the other rows, each a Hankel product by FFTs of length about 2 W. The time is
    about ``SECONDS_PER_WORK`` times this.

    >>> f"{exact_variance_work([500] * 10, [500] * 10):.2g}"   # 10 x 10, n = 5000: ~ 0.01 s
    '1.7e+05'
    """
    a, b = margins_key(rows, cols)
    if _degenerate(a, b):
        return 0.0
    return _work(a, b)


def _work(a, b) -> float:
    return variance_work(a, b)


def variance_work_floor(rows, cols) -> float:
    """A lower bound on ``exact_variance_work`` from the numbers of clusters alone,
    K Q (K + Q - 2) / 2, in O(K + Q).

    The work is sum_i [2.1 (K - 1 - i) Q + Q (Q - 1) / 2] W_i + 0.3 n over the rows of the
    table or of its transpose (``clusteragree._moments.mi_variance.variance_work``), and every
    window holds at least one value (W_i >= 1), so it is at least
    2.1 Q K (K - 1) / 2 + K Q (Q - 1) / 2 >= K Q (K + Q - 2) / 2 either way. The exact work
    reads the window of every one of the K Q cells (2.8 GB on 4,909 x 4,912 clusters); the
    floor refuses such margins first.

    >>> rows, cols = [40, 25, 35], [50, 30, 20]
    >>> variance_work_floor(rows, cols), variance_work_floor(rows, cols) <= exact_variance_work(
    ...     rows, cols)
    (18.0, True)
    >>> f"{variance_work_floor([4] * 5000, [4] * 5000):.3g}"   # at least 7,750 s
    '1.25e+11'
    """
    a, b = margins_key(rows, cols)
    if _degenerate(a, b):
        return 0.0
    K, Q = len(a), len(b)
    return K * Q * (K + Q - 2) / 2


def _predicted_seconds(a, b, limit=AUTO_MAX_WORK_SPARSE) -> tuple[float, bool]:
    """(seconds, exact): the predicted time of the exact variance, from ``variance_work`` when
    its floor is at most ``limit`` (reading the windows of the cells then costs little), else
    the floor's time, a lower bound (``exact`` False)."""
    floor = variance_work_floor(a, b)
    if floor > limit:
        return floor * SECONDS_PER_WORK, False
    return _work(a, b) * SECONDS_PER_WORK if floor else 0.0, True


def check_exact_variance_time(rows, cols, max_seconds, how_to_raise: str) -> float:
    """The predicted seconds of the exact Var[MI] on these margins; ``ValueError`` when they are
    above ``max_seconds`` (the message ends with ``how_to_raise``).

    Margins whose floor (``variance_work_floor``) is already over the budget are refused from
    their numbers of clusters, before the windows of the cells are read; the others by
    ``clusteragree._moments.mi_variance.check_variance_time``.
    """
    floor = variance_work_floor(rows, cols) * SECONDS_PER_WORK
    if floor > max_seconds:
        a, b = margins_key(rows, cols)
        raise ValueError(
            f"the exact null variance of these margins ({len(a)} x {len(b)}, n = {sum(a):,}) "
            f"would take at least {floor:.3g} s (predicted from the numbers of clusters), more "
            f"than max_seconds={max_seconds:g}; {how_to_raise}")
    return check_variance_time(rows, cols, max_seconds, how_to_raise)


@lru_cache(maxsize=512)
def _method(a, b, moments) -> str:
    if moments != "auto":
        return moments
    if _degenerate(a, b):
        return "exact"
    if variance_work_floor(a, b) > AUTO_MAX_WORK_SPARSE:
        return "asymptotic"  # over both caps, known from the numbers of clusters
    work = _work(a, b)
    if work <= AUTO_MAX_WORK:
        return "exact"
    if work <= AUTO_MAX_WORK_SPARSE and smi_sd_error_bound(a, b) > SPARSE_ERROR:
        return "exact"
    return "asymptotic"


def _effective_cells(a, b) -> float:
    """c = (K - 1)(Q - 1) / sum_ij 1 / max(a_i b_j / n, 1/2) (module docstring), summed over
    the distinct sizes of each side with their multiplicities (not over the K Q cells)."""
    av, wa = np.unique(np.array(a, dtype=float), return_counts=True)
    bv, wb = np.unique(np.array(b, dtype=float), return_counts=True)
    mu = np.outer(av, bv) / float(sum(a))
    return (len(a) - 1) * (len(b) - 1) / float(wa @ (1.0 / np.maximum(mu, 0.5)) @ wb)


def smi_sd_error_bound(rows, cols) -> float:
    """The stated bound on the relative error of the asymptotic sd of MI,
    min(0.5 / c, 6 / c^2), c the effective cell count (module docstring; it held on every one
    of 882 random tables compared with the exact sd). 0 when Var[MI] = 0 (nothing is
    approximated).

    >>> round(smi_sd_error_bound([500] * 10, [500] * 10), 5)   # c = 50 * 81 / 100 = 40.5
    0.00366
    >>> round(smi_sd_error_bound([5, 995], [500] * 10), 2)      # a row of 5 objects: c = 2.2
    0.22
    """
    a, b = margins_key(rows, cols)
    if _degenerate(a, b):
        return 0.0
    c = _effective_cells(a, b)
    return min(0.5 / c, 6.0 / (c * c))


def _asymptotic_variance(a, b, emi) -> float:
    """Var[MI] ~ df q^2 / (2 n^2), q = 2 n E[MI] / df (module docstring)."""
    if _degenerate(a, b):
        return 0.0
    n = float(sum(a))
    df = (len(a) - 1) * (len(b) - 1)
    q = 2.0 * n * emi / df
    return df * q * q / (2.0 * n * n)


@lru_cache(maxsize=512)
def _mi_moments(a, b, method):
    emi = expected_mutual_information(a, b)
    if method == "exact":
        return emi, variance_of_mi(a, b)
    return emi, _asymptotic_variance(a, b, emi)


def smi_moments_method(table, moments: str = "auto") -> str:
    """Which null moments ``smi`` uses on ``table`` (a contingency table, or a pair
    ``(rows, cols)`` of margins) with option ``moments``: "exact" (mean and variance) or
    "asymptotic" (exact mean, asymptotic variance; module docstring).

    >>> smi_moments_method([[30, 20], [10, 20]])
    'exact'
    >>> smi_moments_method(([20_000] * 50, [20_000] * 50))   # 50 x 50, n = 10^6
    'asymptotic'
    """
    check_choice(moments, "moments", _MOMENTS)
    return _method(*margins_key(*_margins_of(table)), moments)


def mi_null_moments(rows, cols, moments: str = "exact") -> tuple[float, float]:
    """(E[MI], Var[MI]) in nats under fixed margins (cached per margins and method): exact by
    default; ``moments="asymptotic"`` or ``"auto"`` as for ``smi`` (E[MI] is always exact).

    >>> m, v = mi_null_moments([3, 2], [2, 3])
    >>> round(m, 6), round(v, 6)
    (0.162939, 0.044283)
    """
    check_choice(moments, "moments", _MOMENTS)
    a, b = margins_key(rows, cols)
    return _mi_moments(a, b, _method(a, b, moments))


def _user_stacklevel() -> int:
    """The stacklevel of the first caller outside this package (for warnings)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    level, frame = 2, sys._getframe(2)
    while frame is not None and frame.f_code.co_filename.startswith(package):
        level, frame = level + 1, frame.f_back
    return level


def _warn_sparse(a, b):
    n, K, Q = sum(a), len(a), len(b)
    bound = smi_sd_error_bound(a, b)
    seconds, exact = _predicted_seconds(a, b)
    warnings.warn(
        f"smi: asymptotic variance of MI on a sparse {K} x {Q} table (n = {n}, mean cell count "
        f"{n / (K * Q):.3g}, effective cell count {_effective_cells(a, b):.3g}): its sd may be "
        f"off by up to about {bound:.0%} (measured bound min(0.5/c, 6/c^2)), and SMI by as "
        f"much relatively; moments='exact' gives the exact value "
        f"({'about' if exact else 'at least'} {seconds:.2g} s here)",
        UserWarning, stacklevel=_user_stacklevel())


@lru_cache(maxsize=512)
def _s_moments(a, b):
    mean, var = moments_of_s(np.array(a), np.array(b))
    return mean, var


def s_null_moments(rows, cols):
    """Exact (E[s], Var[s]) of s = sum n_ij^2 under fixed margins, as Fractions (cached)."""
    return _s_moments(*margins_key(rows, cols))


def per_margins(rows, cols, shape, func):
    """func(rows, cols) for each table of a batch (a list), computed once per distinct pair
    of margins: a batch that shares its margins (Patefield tables, permutations) costs one."""
    rows = np.broadcast_to(rows, shape + rows.shape[-1:]).reshape(-1, rows.shape[-1])
    cols = np.broadcast_to(cols, shape + cols.shape[-1:]).reshape(-1, cols.shape[-1])
    if len(rows) and (rows == rows[0]).all() and (cols == cols[0]).all():
        return [func(rows[0], cols[0])] * len(rows)
    return [func(r, c) for r, c in zip(rows, cols)]


class _Standard:
    """State of a standardised index: the statistic with its table margins."""

    def __init__(self, stat, rows, cols):
        self.stat = stat
        self.rows = np.asarray(rows, dtype=np.int64)
        self.cols = np.asarray(cols, dtype=np.int64)


def _smi_state(t, rows, cols):
    return _Standard(t, rows, cols)


def _describe_smi(counts, moments="auto", max_seconds=DEFAULT_MAX_SECONDS) -> str:
    if _smi_method(*margins_key(*_margins_of(np.asarray(counts))), moments, max_seconds) == "exact":
        return "smi moments: exact mean and variance of MI under fixed margins"
    return ("smi moments: exact mean of MI; variance asymptotic (Williams-scaled chi-square, "
            "2 n MI ~ q chi2_df, q = 2 n E[MI] / df; relative error of the sd at most "
            f"{smi_sd_error_bound(*_margins_of(np.asarray(counts))):.2g}); moments='exact' "
            "for the exact variance")


def _smi_method(a, b, moments, max_seconds) -> str:
    """smi's moments on margins (a, b): ``_method``, within the caller's time budget (auto
    then takes the asymptotic variance; an explicit "exact" is refused, naming the time)."""
    method = _method(a, b, moments)
    if method != "exact" or _degenerate(a, b):
        return method
    if moments == "auto":  # then the work is at most AUTO_MAX_WORK_SPARSE
        seconds = variance_work(a, b) * SECONDS_PER_WORK
        return "exact" if seconds <= max_seconds else "asymptotic"
    seconds, exact = _predicted_seconds(a, b, max_seconds / SECONDS_PER_WORK)
    check_exact_variance_time(a, b, max_seconds, (
        f"pass max_seconds={_round_up(seconds * 2)} {'to wait for it' if exact else 'or more'}, "
        f"or moments='auto' (exact mean, asymptotic variance: sd within "
        f"{smi_sd_error_bound(a, b):.2g} of the exact one, relatively)"))
    return method


def _round_up(seconds: float) -> int:
    """A round number of seconds at least ``seconds`` (for messages)."""
    step = 10 ** max(0, int(math.log10(max(seconds, 1.0))))
    return int(math.ceil(seconds / step) * step)


@register(name="smi", whole_counts_reason=(
              "its mean and variance are exact moments of MI over the integer tables with the "
              "observed margins"),
          linear=True, title="Standardised mutual information", kind="similarity",
          range=(-math.inf, math.inf), optimum=math.inf, symmetric=True, reflexive=False,
          aliases=("standardized_mutual_info", "standardised_mutual_info"),
          options={"moments": "auto", "max_seconds": DEFAULT_MAX_SECONDS},
          describe=_describe_smi,
          reference=_ROMANO, family="information", statistic="t", state=_smi_state)
def smi(S, moments="auto", max_seconds=DEFAULT_MAX_SECONDS):
    """SMI = (MI - E[MI]) / sd[MI], with the exact mean of MI under fixed margins and its exact
    variance, or beyond exact reach its asymptotic variance (``moments="auto"|"exact"|
    "asymptotic"``; ``smi_moments_method`` says which; module docstring): a z-score, how many
    null standard deviations MI lies above its null mean.

    The exact variance's time is predicted from the margins first (a 50 x 50 table with
    n = 10^6: about 100 s): ``moments="exact"`` refuses above ``max_seconds`` (60), naming the
    prediction, and shows a progress bar from 5 s on; ``"auto"`` never exceeds about 10 s.

    >>> round(ca.agreement([[30, 20], [10, 20]], index="smi"), 4)
    3.0395
    >>> round(ca.agreement([[300, 200], [100, 200]], index="smi", moments="asymptotic"), 2)
    37.48
    """
    check_choice(moments, "moments", _MOMENTS)
    st = info_state(S.stat, S.rows, S.cols)
    shape = np.shape(st.mi)
    sparse = {}

    def moments_of(rows, cols):
        a, b = margins_key(rows, cols)
        method = _smi_method(a, b, moments, max_seconds)
        if method == "asymptotic" and smi_sd_error_bound(a, b) > SPARSE_ERROR:
            sparse[(a, b)] = None
        return _mi_moments(a, b, method)

    pairs = per_margins(S.rows, S.cols, shape, moments_of)
    if sparse:
        _warn_sparse(*max(sparse, key=lambda ab: smi_sd_error_bound(*ab)))
    emi = np.array([m for m, _ in pairs]).reshape(shape)
    sd = np.sqrt(np.maximum(np.array([v for _, v in pairs]).reshape(shape), 0.0))
    num = st.mi - emi
    # MI = E[MI] up to rounding (e.g. margins that allow one table): no deviation to show
    num = np.where(np.abs(num) <= AMI_RTOL * np.maximum(1.0, np.abs(st.mi)), 0.0, num)
    return np.where(sd > 0, num / np.where(sd > 0, sd, 1.0), 0.0)


@register(name="sri", whole_counts_reason=(
              "its mean and variance are exact moments of sum n_ij^2 over integer tables with "
              "the observed margins"),
          linear=True, title="Standardised Rand index", kind="similarity",
          range=(-math.inf, math.inf), optimum=math.inf, symmetric=True, reflexive=False,
          aliases=("standardized_rand", "standardised_rand"), reference=_ROMANO,
          family="pair counting", min_n=2, statistic="s", state=_smi_state)
def sri(S):
    """SRI = (Rand - E[Rand]) / sd[Rand] = (s - E[s]) / sd[s], s = sum n_ij^2, with the exact
    mean and variance under fixed margins (Rand is affine in s given the margins).

    >>> round(ca.agreement([[30, 20], [10, 20]], index="sri"), 4)
    3.041
    """
    shape = np.shape(S.stat)
    moments = per_margins(S.rows, S.cols, shape, s_null_moments)
    stat = np.asarray(S.stat).reshape(-1)
    # s - E[s] = (s - floor E[s]) - frac E[s]: an exact integer difference, then one rounding
    floor = np.array([m.numerator // m.denominator for m, _ in moments], dtype=object)
    frac = np.array([float(m - f) for (m, _), f in zip(moments, floor)])
    sd = np.sqrt(np.array([float(v) for _, v in moments]))
    if stat.dtype == object or np.issubdtype(stat.dtype, np.integer):
        dev = (stat.astype(object) - floor).astype(float) - frac
    else:  # a real-valued s (a null mean): the formula by continuity
        dev = stat - np.array([float(m) for m, _ in moments])
    return np.where(sd > 0, dev / np.where(sd > 0, sd, 1.0), 0.0).reshape(shape)
