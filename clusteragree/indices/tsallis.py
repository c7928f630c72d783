"""Adjusted mutual information of Tsallis entropy of order q (AMI_q).

Romano, S., Vinh, N. X., Bailey, J. & Verspoor, K. (2016), "Adjusting for chance clustering
comparison measures", JMLR 17, generalise the adjusted mutual information with the Tsallis
q-entropy H_q(p) = (1 - sum_i p_i^q) / (q - 1):

    MI_q = H_q(x) + H_q(y) - H_q(x, y) = (1 - sum_i (a_i/n)^q - sum_j (b_j/n)^q
                                          + sum_ij (n_ij/n)^q) / (q - 1),
    AMI_q = (MI_q - E[MI_q]) / ((H_q(x) + H_q(y)) / 2 - E[MI_q]),

with E under fixed margins (the permutation null). Given the margins, MI_q is affine in
sum_ij n_ij^q and the denominator is a constant, so E[MI_q] needs only E[sum_ij n_ij^q], a sum
over each cell's hypergeometric law Hypergeom(n, a_i, b_j) (``clusteragree._hypergeom``), and
the exact null mean of AMI_q is 0. Two members are known indices: q = 2 is the adjusted Rand
index (MI_2 is affine in sum n_ij^2, as ARI is), and q -> 1 is the adjusted mutual information
with the arithmetic mean (Shannon entropy), which ``q=1`` computes.

The standardised form divides by the exact null standard deviation instead:

    SMI_q = (MI_q - E[MI_q]) / sd[MI_q] = sign(q - 1) (P - E[P]) / sd[P],   P = sum_ij n_ij^q,

with Var[P] from the same sums over pairs of cells as the exact Var[MI]
(``clusteragree._hypergeom_var.variance_of_power_sum``); q = 2 is the standardised Rand index
(``sri``) and q = 1 the standardised mutual information (``smi``, with its moments). For
q != 1 the variance is exact only (about the time of the exact Var[MI]: 0.5 s for a 10 x 10
table with n = 10^5); a table predicted to take more than ``SLOW_SECONDS`` warns first.
"""

from __future__ import annotations

import math
import warnings
from functools import lru_cache

import numpy as np

from .._hypergeom import _distinct_sizes, _pair_chunks
from .._hypergeom_var import variance_of_power_sum
from ._common import identical, ratio
from ._registry import get_index, register
from .standardised import SECONDS_PER_WORK, _key, _per_margins, exact_variance_work

__all__ = ["expected_power_sum", "power_sum_moments", "SLOW_SECONDS"]

#: ``smi_tsallis`` warns before an exact variance predicted to take longer than this.
SLOW_SECONDS = 10.0

_ROMANO16 = ("Romano, Vinh, Bailey & Verspoor (2016), Adjusting for chance clustering "
             "comparison measures, JMLR 17")


@lru_cache(maxsize=512)
def _power_sum(a: tuple, b: tuple, q: float) -> float:
    sa, wa, sb, wb, n = _distinct_sizes(np.array(a), np.array(b))
    total = 0.0
    for w, _, _, cell, k, pmf in _pair_chunks(sa, wa, sb, wb, n):
        total += float((w[cell] * pmf * k.astype(float) ** q).sum())
    return total


def expected_power_sum(rows, cols, q: float) -> float:
    """E[sum_ij n_ij^q] over the tables with the given margins (fixed margins; each cell
    hypergeometric; cached per margins and q).

    >>> round(expected_power_sum([2, 2], [2, 2], 2.0), 12)   # s = 8 w.p. 1/3, 4 w.p. 2/3
    5.333333333333
    """
    return _power_sum(*_key(rows, cols), float(q))


@lru_cache(maxsize=512)
def _power_moments(a: tuple, b: tuple, q: float) -> tuple[float, float]:
    seconds = exact_variance_work(a, b) * SECONDS_PER_WORK
    if seconds > SLOW_SECONDS:
        warnings.warn(f"the exact null variance of sum n_ij^{q:g} for this {len(a)} x {len(b)} "
                      f"table (n = {sum(a)}) takes about {seconds:.0f} s; a Monte Carlo z "
                      f"(agreement_test(..., method='patefield')) is quicker", UserWarning,
                      stacklevel=2)
    return _power_sum(a, b, q), variance_of_power_sum(np.array(a), np.array(b), q)


def power_sum_moments(rows, cols, q: float) -> tuple[float, float]:
    """Exact (E[P], Var[P]) of P = sum_ij n_ij^q under fixed margins (cached).

    >>> m, v = power_sum_moments([2, 2], [2, 2], 2.0)   # P = 8 w.p. 1/3, 4 w.p. 2/3
    >>> round(m, 10), round(v, 10)
    (5.3333333333, 3.5555555556)
    """
    return _power_moments(*_key(rows, cols), float(_check_q(q)))


def _check_q(q):
    if isinstance(q, bool) or not isinstance(q, (int, float)) or not math.isfinite(q) or q <= 0:
        raise ValueError(f"q must be a positive number (the order of the Tsallis entropy; "
                         f"2 gives the adjusted Rand index, 1 the adjusted mutual information), "
                         f"got {q!r}")
    return float(q)


@register(name="ami_tsallis", title="Adjusted mutual information of Tsallis order q (AMI_q)",
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
    c = np.asarray(counts, dtype=float)
    a, b = c.sum(axis=-1), c.sum(axis=-2)
    n = a.sum(axis=-1)
    sa = ((a / n[..., None]) ** q).sum(axis=-1)
    sb = ((b / n[..., None]) ** q).sum(axis=-1)
    sab = ((c / n[..., None, None]) ** q).sum(axis=(-2, -1))
    hx, hy = (1 - sa) / (q - 1), (1 - sb) / (q - 1)
    mi = (1 - sa - sb + sab) / (q - 1)
    esab = np.array(_per_margins(a, b, c.shape[:-2], lambda r, s: expected_power_sum(r, s, q)))
    emi = (1 - sa - sb + esab.reshape(c.shape[:-2]) / n**q) / (q - 1)
    avg = (hx + hy) / 2
    scale = 1e-12 * np.maximum(1.0, np.abs(avg))
    num = np.where(np.abs(mi - emi) <= scale, 0.0, mi - emi)
    den = np.where(np.abs(avg - emi) <= scale, 0.0, avg - emi)
    return ratio(num, den, identical(c.astype(np.int64)), 1.0, 0.0)


@register(name="smi_tsallis", title="Standardised mutual information of Tsallis order q (SMI_q)",
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
    c = np.asarray(counts, dtype=float)
    batch = c.shape[:-2]
    moments = _per_margins(c.sum(axis=-1), c.sum(axis=-2), batch,
                           lambda r, s: power_sum_moments(r, s, q))
    mean = np.array([m for m, _ in moments]).reshape(batch)
    sd = np.sqrt(np.array([max(v, 0.0) for _, v in moments])).reshape(batch)
    p = (c ** q).sum(axis=(-2, -1))
    dev = p - mean
    dev = np.where(np.abs(dev) <= 1e-12 * np.maximum(1.0, np.abs(p)), 0.0, dev)
    return np.sign(q - 1) * np.where(sd > 0, dev / np.where(sd > 0, sd, 1.0), 0.0)
