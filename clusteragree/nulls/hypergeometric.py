"""Closed forms under fixed margins (the generalized hypergeometric null).

Moments of s = sum n_ij^2: exact rationals from the product form of the cells'
falling-factorial moments (``clusteragree._moments.squares.moments_of_s``, re-exported here).

Every index marked ``linear`` in the registry is affine in its statistic given the margins,
I = alpha + beta s (the L family of Albatineh et al. 2006: rand, adjusted_rand, czekanowski,
fowlkes_mallows, russel_rao, ...), so E[I] = alpha + beta E[s] and Var[I] = beta^2 Var[s].

Moments of t = sum n_ij log n_ij: E[t] = sum_ij E[n_ij log n_ij] from the cells' hypergeometric
laws (``clusteragree._moments.cells``), and Var[t] = n^2 Var[MI] from the joint laws of pairs of cells
(Romano, Bailey, Nguyen & Verspoor 2014, "Standardized mutual information for clustering
comparisons: one step further in adjustment for chance", ICML; ``clusteragree._moments.mi_variance``),
which give the exact mean and variance of every information index that is affine in t (MI, the
NMIs with fixed normalisers, VI, AMI, SMI, ...); E[MI] is Vinh et al.'s expected mutual
information. The variance is computed only when it is read (``NullDistribution.var``): about
0.2 s for a 10 x 10 table of 10^4 objects, 2 s at 10^5.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .._docs import fill_doc
from .._moments.cells import expected_xlogx_sum
from .._moments.squares import moments_of_s
from .._moments.mi_variance import DEFAULT_MAX_SECONDS, n_mi_variance
from ..indices import get_index
from ..indices.standardised import check_exact_variance_time
from ._methods import NullMethod, register_method

__all__ = ["moments_of_s", "mean_of_t", "var_of_t", "index_moments"]


def mean_of_t(rows, cols) -> float:
    """Exact E[t], t = sum n_ij log n_ij, under fixed margins (cell laws, distinct (a, b) once)."""
    return expected_xlogx_sum(rows, cols)


def var_of_t(rows, cols) -> float:
    """Exact Var[t], t = sum n_ij log n_ij, under fixed margins (= n^2 Var[MI]); cached per
    margins (their order does not matter), since it can take minutes on large tables.

    >>> bool(abs(var_of_t([2, 2], [2, 2]) / 16 - np.log(2) ** 2 * 2 / 9) < 1e-15)
    True
    """
    key = (tuple(sorted(int(v) for v in np.ravel(rows) if v > 0)),
           tuple(sorted(int(v) for v in np.ravel(cols) if v > 0)))
    return _var_of_t(*key)


@lru_cache(maxsize=256)
def _var_of_t(rows: tuple, cols: tuple) -> float:
    return n_mi_variance(rows, cols)


class Deferred:
    """A number computed when first read with ``float()`` (the closed-form variance of an
    information index costs a double sum over pairs of cells: it is not paid unless used)."""

    def __init__(self, compute):
        self._compute = compute
        self._value = None

    def __float__(self) -> float:
        if self._value is None:
            self._value = float(self._compute())
        return self._value

    def __repr__(self) -> str:
        return "Deferred(not computed)" if self._value is None else repr(self._value)


def _check_linear(rec):
    table = not rec.on_pairs  # an index of object pairs has no table statistic
    if not (table and rec.linear):
        stat = {"s": "s", "t": "t"}.get(rec.statistic if table else None, "a cell sum")
        raise ValueError(
            f"index {rec.name!r} has no closed-form null moments (it is not affine in {stat}); "
            "use method='exact', 'patefield' or 'permutation'"
            + ("; ca.mari_null_moments gives the exact moments of its numerator and denominator"
               if rec.name == "mari" else "")
        )


@fill_doc
def index_moments(index, rows, cols, *, max_seconds=DEFAULT_MAX_SECONDS, **options) -> dict:
    """Closed-form null moments of an index that is affine in its statistic given the margins.

    Under the permutation model (both margins fixed), an index marked ``linear`` in the
    registry is I = alpha + beta x given the margins, with x = s = sum n_ij^2 (the L family
    of pair-counting indices: rand, adjusted_rand, czekanowski, fowlkes_mallows, ...) or
    x = t = sum n_ij log n_ij (the information indices: MI, the NMIs with fixed normalisers,
    VI, AMI, ...), so E[I] = alpha + beta E[x] and Var[I] = beta^2 Var[x]. E[s] and Var[s] are
    exact rationals; E[t] comes from the cells' hypergeometric laws (Vinh et al.'s expected
    mutual information) and Var[t] from the joint laws of pairs of cells (Romano et al.).

    Parameters
    ----------
    %(index)s
    %(rows, cols)s
    max_seconds : float, default 60
        The exact variance of an information index is refused, before any work, when its
        time predicted from the margins is above this.
    %(**options)s

    Returns
    -------
    dict
        ``{"mean": E[I], "var": Var[I]}``.

    Raises
    ------
    ValueError
        An index that is not affine in its statistic (use ``method="exact"``, "patefield" or
        "permutation"), or a variance over its time budget.

    See Also
    --------
    clusteragree.nulls.null_distribution : ``method="hypergeometric"`` gives these moments.
    moments_of_s : The exact moments of s.

    References
    ----------
    Albatineh, A. N., Niewiadomska-Bugaj, M. & Mihalko, D. (2006), "On similarity indices and
    correction for chance agreement", Journal of Classification 23.

    Vinh, N. X., Epps, J. & Bailey, J. (2010), "Information theoretic measures for clusterings
    comparison: variants, properties, normalization and correction for chance", Journal of
    Machine Learning Research 11, 2837-2854.

    Romano, S., Bailey, J., Nguyen, V. & Verspoor, K. (2014), "Standardized mutual information
    for clustering comparisons: one step further in adjustment for chance", Proceedings of
    the 31st International Conference on Machine Learning (ICML).

    Examples
    --------
    >>> m = index_moments("rand", [50, 30], [40, 40])          # Amorim (2015), Table 8
    >>> round(m["mean"], 5)
    0.49968
    >>> m = index_moments("mutual_info", [3, 2], [2, 3])
    >>> round(m["mean"], 6), round(m["var"], 6)
    (0.162939, 0.044283)
    """
    if "max_seconds" in get_index(index).options:  # smi's own budget for its moments
        options["max_seconds"] = max_seconds
    return _index_moments(index, rows, cols, False, max_seconds, **options)


def _far_point_of_s(mean_s, rows, cols):
    """A second point at which to read the slope of an index affine in s: halfway from E[s] to
    the largest s the margins allow, min(sum a_i^2, sum b_j^2) (a11 <= min(p, q)).

    The two points are a sizeable part of s's range apart, so the index changes by a sizeable
    part of its own range between them and the slope keeps its digits at any n: a step of a
    few units is lost in rounding once s passes 2**53 (n of about 10**8), which made the
    variance 0 and z infinite.
    """
    top = min(sum(int(v) ** 2 for v in rows), sum(int(v) ** 2 for v in cols))
    return mean_s + (top - mean_s) / 2


def _far_point_of_t(mean_t, rows, cols):
    """A second point at which to read the slope of an index affine in t = sum n_ij log n_ij:
    halfway from E[t] to the largest t the margins allow, min(sum a_i log a_i, sum b_j log b_j)
    (n_ij <= a_i, so sum_j n_ij log n_ij <= a_i log a_i).

    The formulas of these indices add t to sums of a log a, b log b and n log n: each value
    is within a few u (n log n + sum a log a + sum b log b) / n of the exact one, times the
    index's slope, so beta from two points (t1 - t0) apart is within ``slope_rtol`` of the
    exact slope; a step of one unit of t lost the most digits.
    """
    def xlogx(v):
        v = np.asarray(v, dtype=float)
        v = v[v > 0]
        return float((v * np.log(v)).sum())

    top = min(xlogx(rows), xlogx(cols))
    return mean_t + (top - mean_t) / 2


def slope_rtol(rows, cols) -> float:
    """The bound on the relative error of the slope beta of an index affine in t (as
    ``index_moments`` reads it, from E[t] and ``_far_point_of_t``): 16 u (|t1| + sum a log a
    + sum b log b + n log n) / (t1 - t0), u = 2^-53 (each of the two values of the index
    within 8 u of those sums, in units of its slope). ``index_moments``' variance
    beta^2 Var[t] is then within 2 slope_rtol of the exact one, plus the rounding of Var[t]
    (``clusteragree._moments.mi_variance.n_mi_variance_bound``)."""
    rows = np.asarray(rows, dtype=float)
    cols = np.asarray(cols, dtype=float)
    n = float(rows.sum())
    t0 = mean_of_t(rows, cols)
    t1 = _far_point_of_t(t0, rows, cols)
    sizes = sum(float((v[v > 0] * np.log(v[v > 0])).sum()) for v in (rows, cols)) \
        + n * np.log(n)
    return 16 * 2.0 ** -53 * (abs(t1) + sizes) / (t1 - t0)


def _index_moments(index, rows, cols, deferred, variance_seconds=DEFAULT_MAX_SECONDS,
                   **options) -> dict:
    rec = get_index(index)
    _check_linear(rec)
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    if rec.statistic == "s":
        mean_s, var_s = moments_of_s(rows, cols)
        # alpha + beta s: the mean by linearity, beta from the formula at two real points
        s0 = float(mean_s)
        f0 = float(rec.of_statistic(np.float64(s0), rows, cols, **options))
        if var_s == 0:
            return {"mean": f0, "var": 0.0}
        s1 = float(_far_point_of_s(mean_s, rows, cols))
        f1 = float(rec.of_statistic(np.float64(s1), rows, cols, **options))
        beta = (f1 - f0) / (s1 - s0)
        return {"mean": f0, "var": beta * beta * float(var_s)}
    mean_t = mean_of_t(rows, cols)
    f0 = float(rec.of_statistic(np.float64(mean_t), rows, cols, **options))

    def slope():
        # alpha + beta t: beta from the formula at E[t] and halfway to the largest t the
        # margins allow (``_far_point_of_t``), when the index is affine between them (checked
        # at the midpoint): the two values are a sizeable part of t's range apart, so beta
        # keeps its digits (``slope_rtol``). A step of one unit of t lost up to 4e-10 of it
        # (Var[MI] of a 2 x 2 table of 1000 objects), and E[t] - 1 may already be where MI
        # is clipped at 0.
        far = _far_point_of_t(mean_t, rows, cols)
        if far > mean_t:
            f1, fm = (float(rec.of_statistic(np.float64(t), rows, cols, **options))
                      for t in (far, (mean_t + far) / 2))
            if abs(fm - (f0 + f1) / 2) <= 1e-9 * (abs(f0) + abs(f1)):
                return (f1 - f0) / (far - mean_t)
        # else either side of the mean, one unit of t away when both sides agree (few digits
        # lost), else closer (an index clipped to its range, e.g. NMI <= 1, may be flat a
        # unit past the mean; it is affine on the support)
        for step in (max(1.0, 1e-6 * abs(mean_t)), max(1e-3, 1e-9 * abs(mean_t))):
            up, down = (float(rec.of_statistic(np.float64(mean_t + h), rows, cols, **options))
                        for h in (step, -step))
            beta_up, beta_down = (up - f0) / step, (f0 - down) / step
            if abs(beta_up - beta_down) <= 1e-8 * max(abs(beta_up), abs(beta_down)):
                return (up - down) / (2 * step)
        return max(beta_up, beta_down, key=abs)

    def var():
        # refused from the numbers of clusters first: reading every cell's window to predict
        # the time took 2.8 GB on 4,909 x 4,912 clusters
        check_exact_variance_time(rows, cols, variance_seconds, (
            f"method='hypergeometric' needs it for the null variance of {rec.name!r}: pass "
            "max_seconds= a larger budget to wait for it, or use method='patefield' (Monte "
            "Carlo; method='permutation' on a sparse table)"))
        v = var_of_t(rows, cols)
        return slope() ** 2 * v if v > 0 else 0.0

    return {"mean": f0, "var": Deferred(var) if deferred else var()}


# -- the method record -------------------------------------------------------------------------

def _check_request(req):
    for rec in req.indices:
        _check_linear(rec)


def _moments_law(req):
    rows, cols = req.margins
    return {rec.name: req.null_of(rec, moments=_index_moments(rec, rows, cols, True,
                                                              req.spec.max_seconds,
                                                              **req.options[rec.name]))
            for rec in req.indices}


register_method(NullMethod(
    name="hypergeometric", model="perm", title="Agreement test (closed-form moments)",
    description="closed-form mean and variance under fixed margins",
    law=_moments_law, check=_check_request, sparse=True))
