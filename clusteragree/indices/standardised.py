"""Standardised indices: an index minus its exact null mean, over its exact null standard
deviation, both under fixed margins (the permutation model, generalized hypergeometric).

    SMI = (MI - E[MI]) / sd[MI]          SRI = (Rand - E[Rand]) / sd[Rand] = (s - E[s]) / sd[s]

(Romano, Bailey, Nguyen & Verspoor 2014, "Standardized mutual information for clustering
comparisons: one step further in adjustment for chance", ICML; Romano, Vinh, Bailey & Verspoor
2016, "Adjusting for chance clustering comparison measures", JMLR 17). E[MI] is Vinh et al.'s
expected mutual information, Var[MI] the exact variance of ``clusteragree._hypergeom_var``; E[s]
and Var[s] (s = sum n_ij^2, Rand affine in s) are exact rationals
(``clusteragree.nulls.hypergeometric.moments_of_s``). A standardised index is a z-score: it has
no fixed optimum, and is 0 when the margins allow a single table (sd = 0).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from .._hypergeom import expected_mutual_information
from .._hypergeom_var import variance_of_mi
from ._registry import register
from .information import AMI_RTOL, info_state

__all__ = ["mi_null_moments", "s_null_moments"]

_ROMANO = ("Romano, Bailey, Nguyen & Verspoor (2014), Standardized mutual information for "
           "clustering comparisons: one step further in adjustment for chance, ICML; Romano, "
           "Vinh, Bailey & Verspoor (2016), Adjusting for chance clustering comparison "
           "measures, JMLR 17")


def _key(rows, cols):
    a = tuple(sorted(int(v) for v in np.asarray(rows).ravel() if v > 0))
    b = tuple(sorted(int(v) for v in np.asarray(cols).ravel() if v > 0))
    return a, b


@lru_cache(maxsize=512)
def _mi_moments(a, b):
    return expected_mutual_information(a, b), variance_of_mi(a, b)


def mi_null_moments(rows, cols) -> tuple[float, float]:
    """Exact (E[MI], Var[MI]) in nats under fixed margins (cached per margins).

    >>> m, v = mi_null_moments([3, 2], [2, 3])
    >>> round(m, 6), round(v, 6)
    (0.162939, 0.044283)
    """
    return _mi_moments(*_key(rows, cols))


@lru_cache(maxsize=512)
def _s_moments(a, b):
    from ..nulls.hypergeometric import moments_of_s  # (the nulls import the indices)

    mean, var = moments_of_s(np.array(a), np.array(b))
    return mean, var


def s_null_moments(rows, cols):
    """Exact (E[s], Var[s]) of s = sum n_ij^2 under fixed margins, as Fractions (cached)."""
    return _s_moments(*_key(rows, cols))


def _per_margins(rows, cols, shape, func):
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


@register(name="smi", linear=True, title="Standardised mutual information", kind="similarity",
          range=(-math.inf, math.inf), optimum=math.inf, symmetric=True, reflexive=False,
          aliases=("standardized_mutual_info", "standardised_mutual_info"),
          reference=_ROMANO, family="information", statistic="t", state=_smi_state)
def smi(S):
    """SMI = (MI - E[MI]) / sd[MI], with the exact mean and variance of MI under fixed margins
    (a z-score: how many null standard deviations MI lies above its null mean).

    >>> round(ca.agreement([[30, 20], [10, 20]], index="smi"), 4)
    3.0395
    """
    st = info_state(S.stat, S.rows, S.cols)
    shape = np.shape(st.mi)
    moments = _per_margins(S.rows, S.cols, shape, mi_null_moments)
    emi = np.array([m for m, _ in moments]).reshape(shape)
    sd = np.sqrt(np.maximum(np.array([v for _, v in moments]).reshape(shape), 0.0))
    num = st.mi - emi
    # MI = E[MI] up to rounding (e.g. margins that allow one table): no deviation to show
    num = np.where(np.abs(num) <= AMI_RTOL * np.maximum(1.0, np.abs(st.mi)), 0.0, num)
    return np.where(sd > 0, num / np.where(sd > 0, sd, 1.0), 0.0)


@register(name="sri", linear=True, title="Standardised Rand index", kind="similarity",
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
    moments = _per_margins(S.rows, S.cols, shape, s_null_moments)
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
