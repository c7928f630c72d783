"""Tail probabilities of s and t under fixed margins by a saddlepoint approximation whose
cumulant generating function is a Laplace approximation over tables (``method="saddlepoint"``).

Under fixed margins a table x has P(x) = exp(c0 - sum lgamma(x_ij + 1)), and the p-value of
every pair-counting index is a tail of s = sum f(x_ij) with f(x) = x^2, of every information
index a tail of t, f(x) = x log x. The approximation is univariate, on S itself:

1. **The tilted mode.** With h_tau(x) = lgamma(x + 1) - tau f(x) on real x > 0, m(tau)
   minimises sum h_tau(x_ij) over real tables with the margins: Newton's method on the
   (K - 1)(Q - 1) free cells x_ij, i < K, j < Q (the last row and column follow), whose
   Hessian A^T D A has D = diag(h_tau''(m)); it must be positive definite (a cell's
   h_tau'' may be negative: that of s is 1/m - 2 tau, and a free cell moves four cells).
   At tau = 0, m_ij is about a_i b_j / n.
2. **The Laplace approximation** of Z(tau) = sum over tables exp(-sum h_tau) (the free cells
   are the integer lattice, of unit covolume) to second order ({ref:tierney1986}):

       L(tau) = -sum h_tau(m) - 1/2 log det(A^T D A) + eps(tau),
       eps = -1/8 sum_c h4_c C_cc^2 + 1/8 sum_cc' h3_c C_cc C_cc' C_c'c' h3_c'
             + 1/12 sum_cc' h3_c C_cc'^3 h3_c',

   with C = A (A^T D A)^-1 A^T the conditional covariance of the cells and h3, h4 the third
   and fourth derivatives of h_tau at m (eps is the usual 1 - h4 s^4 / 8 + 5 h3^2 s^6 / 24 of
   one dimension). K(tau) = L(tau) - L(0) (the constants cancel, and much of the error).
3. **Its derivatives.** K'(tau) = sum f(m(tau)) + g'(tau) (envelope theorem on the first
   term) and K''(tau) = f'(m)^T C f'(m) + g''(tau), g = L + sum h_tau(m) the log-determinant
   and eps, whose derivatives are taken by 5-point central differences (step 1e-2 standard
   deviations of S in tau; the mode is solved to machine precision, from the neighbouring
   tilt). With equal margins of one side the mode does not move and all of K'' comes from g:
   the quadratic s behaves like a chi-square.
4. **Lugannani & Rice** ({ref:lugannani1980}) in the r* form: K'(tau^) = s', w = sgn(tau^)
   sqrt(2 (tau^ s' - K(tau^))), r* = w + log(u / w) / w, log P(S >= s) = log_ndtr(-r*)
   (log_ndtr(r*) for P(S <= s)). s lives on a lattice (s = n mod 2, span 2; 2 x Q tables
   whose column margins share their parity: span 4): Daniels' second continuity correction
   ({ref:daniels1987}), s' = s -+ span / 2 and u = (2 / span) sinh(tau^ span / 2)
   sqrt(K''(tau^)). t has no lattice: s' = t, u = tau^ sqrt(K''(tau^)) (continuous). Where
   |w| < 1e-4 (p near 1/2) the normal approximation Phi((s' - K'(0)) / sqrt(K''(0))) is used.

**When it is good, and when it is refused.** The approximation treats the tilted law of the
tables as close to a Gaussian around one mode. Measured against the exact law
(``benchmarks/bench_saddlepoint.py``), it is refused (``OutsideDomain``, with the reason and
what to use instead) unless, at tau^:

* the table has at least ``MIN_FREE_CELLS`` = 3 free cells (2 x 2, 2 x 3 and 3 x 2 tables
  have sparse supports that no continuous approximation follows; the exact law is fast there);
* every tilted cell is at least ``MIN_CELL`` = 5 and has a conditional standard deviation of
  at least ``MIN_CELL_SD`` = 2 (so the lattice of tables is fine on the scale of the law: this
  refuses most lower tails, whose few most uniform tables are a handful of lattice points);
* every tilted cell has an effective size of at least ``MIN_EFFECTIVE_CELL`` = 1.6: its null
  mean a_i b_j / n over the growth of its conditional variance from tau = 0 (issue 45: the far
  tails of small tables, where the tilted law averages over few tables; a 3 x 3 table of 60
  objects at p = 1.3e-6 was 13% off, and at 1e-8 to 1e-15 tables of 60 objects were off by
  factors of 2.5 to 220);
* no cell's variance has grown more than ``MAX_SPREAD`` = 8 times its null value (the chi-square
  like widening of s and t near the end of their tilts: the far tails of small tables);
* every cell's standardized third derivative |h3| C_cc^1.5 is at most ``MAX_SKEW`` = 0.4 (the
  Laplace expansion's own parameter);
* and the tilted mode exists with a positive definite Hessian and K'' > 0 on the way.

Inside these bounds the worst measured error was +6.4% (median 1.4%; a 3 x 3 table of 400
objects, s, p = 1e-3), but the bounds leave little of small tables: of 188 cases with p <= 1e-3
on 2 x 2 to 4 x 5 tables of 50 to 1,000 objects it answered 13, all near 1e-3 (and at p from
0.01 to 0.3 within 5%). The 158 of them were all near p = 1e-3 or far beyond; on a broader
set of 392 cases (issue 45: 24 margins, n 30 to 200, p from 1e-2 to 1e-20 at every depth;
the bound ``MIN_EFFECTIVE_CELL`` set on 277 and checked on 115) it answered 32, all within
5.7% (19 at p <= 1e-3, within 3.5%; two of them exact, at the largest value). Before that
bound it had answered 48 of the 277, 15 of them more than 10% off. On 10 x 10 tables of 10**4 objects (many large cells: its home) it
agreed with importance sampling within 2.0 of the sampler's standard errors (at most 7.7%
apart) at p from 1e-2 to 1e-30 (t to 1e-30, s to 1e-20 with equal margins) in 0.008 to 0.034 s
(median 0.014 s; 17,000 Patefield tables: 0.14 s). The
p-value has no standard error (``relative_se`` is nan): it is an approximation, not an
estimate.

Why not the issue's double saddlepoint: independent Poisson cells conditioned on the margins
(Skovgaard 1987) give a conditional variance of s twice the exact one; see
``clusteragree/nulls/importance.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.linalg.lapack import dpotrf, dpotrs, dtrtrs
from scipy.special import gammaln, log_ndtr, psi, zeta

from .._docs import fill, fill_doc
from ._methods import NullMethod, register_method
from ._tails import TailEstimate, check_tail_request, settled_tail, tail_laws, tail_margins

__all__ = ["LaplaceCGF", "TiltedMode", "OutsideDomain", "saddlepoint_tail", "lattice_span",
           "MIN_FREE_CELLS", "MIN_CELL", "MIN_CELL_SD", "MIN_EFFECTIVE_CELL", "MAX_SPREAD",
           "MAX_SKEW", "MAX_CELLS"]

#: The fewest free cells, (K - 1)(Q - 1), of a table the approximation answers for.
MIN_FREE_CELLS = 3

#: The smallest tilted cell m_ij(tau^) allowed.
MIN_CELL = 5.0

#: The smallest conditional standard deviation of a tilted cell, sqrt(C_cc), allowed.
MIN_CELL_SD = 2.0

#: The smallest effective size of a tilted cell: its null mean a_i b_j / n over the growth of its
#: conditional variance from tau = 0 to tau^ (issue 45: below it, on tables of 60 to 120
#: objects at p 1e-3 to 1e-15, the errors ran from 10% to a factor of 200).
MIN_EFFECTIVE_CELL = 1.6

#: The largest growth of a cell's conditional variance from tau = 0 to tau^ allowed.
MAX_SPREAD = 8.0

#: The largest standardized third derivative |h3_c| C_cc^1.5 of a tilted cell allowed.
MAX_SKEW = 0.4

#: The most cells (K Q) a table may have: the conditional covariance is K Q x K Q.
MAX_CELLS = 400

_ADVICE = ("use method='exact' where the exact law fits (method='auto' takes it), else "
           "method='importance'")


class OutsideDomain(ValueError):
    """The saddlepoint approximation is refused here: the tilted law is not close enough to a
    Gaussian around one mode (see the module docstring: small or few tilted cells, a spread
    or skewness beyond the measured bounds, no positive definite mode)."""


def _f(x, statistic):
    """The cell statistic f (x^2 or x log x) at x."""
    return x * x if statistic == "s" else x * np.log(x)


def _f_derivatives(x, statistic):
    """f, f', f'', f''', f'''' of the cell statistic (x^2 or x log x) at x."""
    if statistic == "s":
        z = np.zeros_like(x)
        return x * x, 2.0 * x, z + 2.0, z, z
    lx = np.log(x)
    return x * lx, lx + 1.0, 1.0 / x, -1.0 / (x * x), 2.0 / (x * x * x)


@dataclass
class TiltedMode:
    """The Laplace approximation of log E exp(tau S) at one tilt, with its pieces.

    Attributes
    ----------
    tau : float
        The tilt.
    mode : ndarray
        The tilted mode m(tau) (K x Q real table with the margins).
    log_z : float
        L(tau) = -sum h_tau(m) - (1/2) log det(A^T D A) + eps(tau), up to a constant.
    g : float
        The part of L beyond -sum h_tau(m): -(1/2) log det + eps.
    eps : float
        The second-order Laplace correction eps(tau).
    mean_main : float
        sum f(m): d/dtau of -sum h_tau(m) (envelope theorem).
    var_main : float
        f'(m)^T C f'(m): d/dtau of sum f(m(tau)) (C the conditional covariance).
    """

    tau: float
    mode: np.ndarray
    log_z: float
    g: float
    eps: float
    mean_main: float
    var_main: float
    cell_var: np.ndarray
    skewness: float


class LaplaceCGF:
    """K(tau) = log E exp(tau S) under fixed margins, by a Laplace approximation over tables.

    Parameters
    ----------
    rows, cols : array-like of int
        Positive margins (at least two of each) with the same total.
    statistic : {"s", "t"}
        s = sum n_ij^2 or t = sum n_ij log n_ij.
    """

    def __init__(self, rows, cols, statistic="s"):
        self.a = np.asarray(rows, dtype=float)
        self.b = np.asarray(cols, dtype=float)
        self.statistic = statistic
        self.K, self.Q = len(self.a), len(self.b)
        self.n = float(self.a.sum())
        K, Q = self.K, self.Q
        self.d = (K - 1) * (Q - 1)
        # the free cells (i < K - 1, j < Q - 1) determine the table: x = x0 + A z
        A = np.zeros((K, Q, K - 1, Q - 1))
        for i in range(K - 1):
            for j in range(Q - 1):
                A[i, j, i, j] = 1.0
                A[i, Q - 1, i, j] = -1.0
                A[K - 1, j, i, j] = -1.0
                A[K - 1, Q - 1, i, j] = 1.0
        self.A = A.reshape(K * Q, self.d)
        # the Hessian's structure (flat indices): pairs of free cells in the same row, with
        # that row; in the same column, with that column; the diagonal
        row, col = (np.broadcast_to(v[:, None], (self.d, self.d)).ravel()
                    for v in np.divmod(np.arange(self.d), Q - 1))
        row2, col2 = (v.reshape(self.d, self.d).T.ravel() for v in (row, col))
        self._same_row = np.flatnonzero(row == row2)
        self._same_col = np.flatnonzero(col == col2)
        self._row_of, self._col_of = row[self._same_row], col[self._same_col]
        self._diagonal = np.arange(self.d) * (self.d + 1)
        self.x0 = (np.outer(self.a, self.b) / self.n).ravel()
        self._cache: dict = {}
        self._last = self.x0
        self.at_zero = self.at(0.0)

    # -- the tilted mode ------------------------------------------------------------------------

    def _h(self, x, tau):
        return float((gammaln(x + 1.0) - tau * _f(x, self.statistic)).sum())

    def _hessian(self, D):
        """A^T diag(D) A on the free cells, from its structure: D_ij on the diagonal, plus
        D_iQ (same row), D_Kj (same column) and D_KQ (all)."""
        K, Q = self.K, self.Q
        Dm = D.reshape(K, Q)
        H = np.full(self.d * self.d, Dm[K - 1, Q - 1])
        H[self._same_row] += Dm[:K - 1, Q - 1][self._row_of]
        H[self._same_col] += Dm[K - 1, :Q - 1][self._col_of]
        H[self._diagonal] += Dm[:K - 1, :Q - 1].ravel()
        return H.reshape(self.d, self.d)

    def _factor(self, D, tau):
        """The upper Cholesky factor R of the Hessian A^T diag(D) A (R^T R; LAPACK's potrf,
        as scipy.linalg.cho_factor calls it, without its checks); OutsideDomain when the
        Hessian is not positive definite."""
        if not np.isfinite(D).all():  # as cho_factor's check
            raise ValueError("array must not contain infs or NaNs")
        R, info = dpotrf(self._hessian(D), lower=0, clean=0)
        if info > 0:
            raise OutsideDomain(f"the tilted law has no interior mode at tau = {tau:.4g}")
        if info < 0:
            raise ValueError(f"LAPACK's potrf reported an illegal value in argument {-info}")
        return R

    def _solve_mode(self, tau, start):
        """Newton's method on the free cells from a table ``start`` with the margins; the
        mode, D = h_tau''(mode) and the upper Cholesky factor of the Hessian there.
        OutsideDomain when the Hessian is not positive definite or a cell would reach 0."""
        x = start.copy()
        value = self._h(x, tau)
        for _ in range(100):
            f1, f2 = _f_derivatives(x, self.statistic)[1:3]
            grad = self.A.T @ (psi(x + 1.0) - tau * f1)
            D = zeta(2, x + 1.0) - tau * f2  # zeta(2, x + 1) = polygamma(1, x + 1)
            R = self._factor(D, tau)
            if not np.isfinite(grad).all():  # as cho_solve's check
                raise ValueError("array must not contain infs or NaNs")
            dz = -dpotrs(R, grad, lower=0)[0]
            dx = self.A @ dz
            decrement = float(-grad @ dz)
            if decrement < 1e-16 * max(1.0, abs(value)):  # one more step: machine precision
                return self._last_step(x + dx, tau)
            t = 1.0
            neg = dx < 0
            if neg.any():
                t = min(1.0, 0.95 * float((x[neg] / -dx[neg]).min()))
            while True:
                new = x + t * dx
                nv = self._h(new, tau)
                if nv <= value - 0.25 * t * decrement or t < 1e-3:
                    break
                t *= 0.5
            if t < 1e-3:
                if decrement < 1e-9:  # a decrease below the rounding of sum h: Newton's
                    return self._last_step(x + dx, tau)  # quadratic convergence, one step
                raise OutsideDomain(f"no tilted mode was found at tau = {tau:.4g}")
            x, value = new, nv
        raise OutsideDomain(f"the tilted mode did not converge at tau = {tau:.4g}")

    def _last_step(self, x, tau):
        """The mode ``x`` after the last Newton step, with D and the Cholesky factor there."""
        if (x <= 0).any():
            raise OutsideDomain(f"a tilted cell reaches 0 at tau = {tau:.4g}")
        D = zeta(2, x + 1.0) - tau * _f_derivatives(x, self.statistic)[2]
        return x, D, self._factor(D, tau)

    def at(self, tau):
        """The ``TiltedMode`` at tilt ``tau`` (kept: each tilt is solved once)."""
        tau = float(tau)
        if tau in self._cache:
            return self._cache[tau]
        if self.statistic == "t" and tau >= 1.0:
            raise OutsideDomain("the statistic t has no tilted mode for tau >= 1")
        m, D, R = self._solve_mode(tau, self._last)
        self._last = m
        f, f1, f2, f3, f4 = _f_derivatives(m, self.statistic)
        h3 = -2.0 * zeta(3, m + 1.0) - tau * f3  # polygamma(2, m + 1) - tau f'''
        h4 = 6.0 * zeta(4, m + 1.0) - tau * f4  # polygamma(3, m + 1) - tau f''''
        B = dtrtrs(R, self.A.T, lower=0, trans=1)[0]  # R^-T A^T
        C = B.T @ B  # A (R^T R)^-1 A^T: the conditional covariance of the cells
        cd = np.diag(C)
        eps = (-float((h4 * cd * cd).sum()) / 8
               + float((h3 * cd) @ C @ (h3 * cd)) / 8
               + float(h3 @ (C * C * C) @ h3) / 12)
        logdet = 2.0 * float(np.log(np.diag(R)).sum())
        g = -0.5 * logdet + eps
        h = float((gammaln(m + 1.0) - tau * f).sum())
        out = TiltedMode(tau, m.reshape(self.K, self.Q), -h + g, g, eps, float(f.sum()),
                         float(f1 @ C @ f1), cd.reshape(self.K, self.Q),
                         float((np.abs(h3) * np.maximum(cd, 0.0) ** 1.5).max()))
        self._cache[tau] = out
        return out

    # -- K and its derivatives ------------------------------------------------------------------

    def cgf(self, tau, rough=False):
        """K(tau), K'(tau), K''(tau) (the approximation), and the mode at tau. ``rough``:
        3-point differences of g (relative error about 1e-4 of g's derivatives; for the
        first steps of the saddlepoint equation) instead of 5-point ones (about 1e-8)."""
        c = self.at(tau)
        eta = self.eta
        if rough:
            lo, hi = self.at(tau - eta).g, self.at(tau + eta).g
            g1, g2 = (hi - lo) / (2 * eta), (hi - 2 * c.g + lo) / (eta * eta)
        else:
            g = [self.at(tau + k * eta).g for k in (-2, -1, 1, 2)]
            g1 = (8 * (g[2] - g[1]) - (g[3] - g[0])) / (12 * eta)
            g2 = (-g[3] + 16 * g[2] - 30 * c.g + 16 * g[1] - g[0]) / (12 * eta * eta)
        if not c.var_main + g2 > 0:
            raise OutsideDomain(f"the approximate K''(tau) is not positive at tau = {tau:.4g}")
        return c.log_z - self.at_zero.log_z, c.mean_main + g1, c.var_main + g2, c

    @property
    def eta(self):
        """The step of the numerical derivatives of g: 1e-2 over the standard deviation of S
        at the centre (found with a smaller step first)."""
        if not hasattr(self, "_eta"):
            z = self.at_zero
            f1 = _f_derivatives(z.mode.ravel(), self.statistic)[1]
            self._eta = 1e-3 / math.sqrt(float((f1 * f1 * z.mode.ravel()).sum()) + 1.0)
            var = self.cgf(0.0)[2]
            self._eta = 1e-2 / math.sqrt(var)
        return self._eta


def lattice_span(rows, cols):
    """The span of the lattice of s = sum n_ij^2 over tables with these margins (positive
    entries): s is even or odd with n, and moves by 2 (d (x_11 + x_22 - x_12 - x_21) + 2) when
    d is added to a 2 x 2 sub-table's diagonal and taken from its other two cells."""
    a = [int(v) for v in rows if v > 0]
    b = [int(v) for v in cols if v > 0]
    if len(a) > len(b):
        a, b = b, a
    if len(a) >= 3:
        return 2
    if len(b) == 2:  # 2 x 2: s(x + 1) - s(x) = 8 x + 4 + 2 n - 4 a_1 - 4 b_1
        return math.gcd(8, (4 + 2 * sum(a) - 4 * a[0] - 4 * b[0]) % 8)
    # 2 x Q: the moves change s by 4 (x_1j - x_1j') - 2 (b_j - b_j') + 4
    return 4 if len({v % 2 for v in b}) == 1 else 2


@fill_doc
def saddlepoint_tail(rows, cols, value: float, statistic: str = "s",
                     alternative: str = "greater") -> TailEstimate:
    """P(S >= value) or P(S <= value) under fixed margins by a saddlepoint approximation.

    S = sum n_ij^2 ("s") or sum n_ij log n_ij ("t") of a table drawn with the given margins
    (the permutation model). Lugannani-Rice on S with K(tau) = log E exp(tau S) from a
    second-order Laplace approximation over tables, and Daniels' continuity correction for
    the lattice of s (see the module docstring). Refused (``OutsideDomain``) where it was
    measured to be unreliable.

    Parameters
    ----------
    %(rows, cols)s
    %(value, statistic)s
    alternative : {"greater", "less"}, default "greater"
        The upper tail P(S >= value) or the lower tail P(S <= value).

    Returns
    -------
    TailEstimate
        ``log_pvalue`` (natural log, finite below the smallest double); ``relative_se`` nan
        (an approximation has no standard error); exact (``relative_se`` 0) for one row or
        one column, a value beyond every table, or the largest value (the probability of the
        tables that attain it, ``_tails.log_p_of_maximum``).

    Raises
    ------
    ValueError
        Bad margins, an unknown statistic or alternative.
    OutsideDomain
        The approximation is refused here (the reason, and the method to use instead).

    See Also
    --------
    clusteragree.nulls.statistic_law : The exact law, where it fits.
    clusteragree.nulls.importance.tail_probability : Importance sampling of the tail.

    References
    ----------
    {ref:lugannani1980}

    {ref:daniels1987}

    {ref:tierney1986}

    Examples
    --------
    >>> from clusteragree.nulls.saddlepoint import saddlepoint_tail
    >>> est = saddlepoint_tail([100, 60, 40], [50, 50, 100], 6302, "s")  # exact: 9.91e-04
    >>> f"{est.pvalue:.3g}"
    '0.00102'
    """
    a, b, value, sign = tail_margins(rows, cols, value, statistic, alternative)
    settled = settled_tail(a, b, value, statistic, sign)
    if settled is not None:
        return settled
    free = (len(a) - 1) * (len(b) - 1)
    if free < MIN_FREE_CELLS:
        raise OutsideDomain(
            f"the saddlepoint approximation needs at least {MIN_FREE_CELLS} free cells, and a "
            f"{len(a)} x {len(b)} table has {free}: its statistic takes too few values for a "
            "continuous approximation; use method='exact' (fast for such tables)")
    if len(a) * len(b) > MAX_CELLS:
        raise OutsideDomain(
            f"the saddlepoint approximation handles at most {MAX_CELLS} cells, and the table "
            f"is {len(a)} x {len(b)}; use method='importance'")
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1):  # small matrices: threads only cost
        try:
            log_p = tilted_log_tail(LaplaceCGF(a, b, statistic), value, sign)
        except OutsideDomain as exc:
            if "use method=" in str(exc):
                raise
            raise OutsideDomain(f"the saddlepoint approximation is refused here: {exc}; "
                                f"{_ADVICE}") from None  # every refusal says what to use
    return TailEstimate(min(log_p, 0.0), math.nan)


def tilted_log_tail(cgf, value, sign):
    """log P(S >= value) (sign 1) or log P(S <= value) (sign -1) from a ``LaplaceCGF``, with
    the domain checked at the saddlepoint (``OutsideDomain`` outside it)."""
    span = lattice_span(cgf.a, cgf.b) if cgf.statistic == "s" else 0.0
    target = value - sign * span / 2
    K0, K1_0, K2_0, _ = cgf.cgf(0.0)
    z = (target - K1_0) / math.sqrt(K2_0)
    if abs(z) < 1e-4:  # the centre: the normal approximation
        return float(log_ndtr(-sign * z))
    try:
        tau = _solve_tilt(cgf, target)
    except OutsideDomain as exc:
        raise OutsideDomain(
            f"the saddlepoint approximation found no tilt tau with K'(tau) = {value:.10g} "
            f"({exc}): the tail is beyond the reach of a Laplace approximation around one "
            f"mode (z = {z:.3g}); {_ADVICE}") from None
    K, K1, K2, mode = cgf.cgf(tau)
    _check_domain(cgf, mode)
    w = math.copysign(math.sqrt(max(2.0 * (tau * target - K), 0.0)), tau)
    if abs(w) < 1e-4:
        return float(log_ndtr(-sign * z))
    if span > 0:
        u = 2.0 / span * math.sinh(tau * span / 2) * math.sqrt(K2)
    else:
        u = tau * math.sqrt(K2)
    r = w + math.log(u / w) / w
    return float(log_ndtr(-sign * r))


def _check_domain(cgf, mode):
    """Refuse, with the reason, a saddlepoint outside the measured domain."""
    why = None
    smallest = float(mode.mode.min())
    sd = math.sqrt(max(float(mode.cell_var.min()), 0.0))
    growth = mode.cell_var / cgf.at_zero.cell_var
    spread = float(growth.max())
    effective = float((cgf.at_zero.mode / growth).min())
    if smallest < MIN_CELL:
        why = f"a tilted cell is {smallest:.3g}, below {MIN_CELL:g}"
    elif sd < MIN_CELL_SD:
        why = (f"a tilted cell's standard deviation is {sd:.3g}, below {MIN_CELL_SD:g} (the "
               "tail holds too few tables for a continuous approximation)")
    elif effective < MIN_EFFECTIVE_CELL:
        why = (f"a tilted cell's effective size (its null mean over the growth of its "
               f"variance) is {effective:.3g}, below {MIN_EFFECTIVE_CELL:g} (the far tail of "
               "a small table: too few tables for a continuous approximation)")
    elif spread > MAX_SPREAD:
        why = (f"a cell's variance grows {spread:.3g} times at the saddlepoint, more than "
               f"{MAX_SPREAD:g} (the far tail of a chi-square-like statistic)")
    elif mode.skewness > MAX_SKEW:
        why = (f"a tilted cell's skewness is {mode.skewness:.3g}, more than {MAX_SKEW:g} (the "
               "tilted law is far from Gaussian)")
    if why is not None:
        raise OutsideDomain(f"the saddlepoint approximation is refused here: {why}; {_ADVICE}")


def _solve_tilt(cgf, target):
    """tau with K'(tau) = target: Newton's method with a bracket, halving steps that leave
    the domain."""
    tau, lo, hi = 0.0, -math.inf, math.inf
    rough = True  # 3-point differences of g until within 1e-4 standard deviations
    for _ in range(200):
        K, K1, K2, _ = cgf.cgf(tau, rough)
        r = K1 - target
        if rough and abs(r) <= 1e-4 * math.sqrt(K2):
            rough, lo, hi = False, -math.inf, math.inf  # the bracket was of the rough K'
            K, K1, K2, _ = cgf.cgf(tau)
            r = K1 - target
        if not rough and (abs(r) <= 1e-8 * math.sqrt(K2)
                          or abs(r / K2) <= 1e-13 * max(abs(tau), 1e-300)):
            return tau  # 1e-8 standard deviations, or tau to rounding
        if r < 0:
            lo = tau
        else:
            hi = tau
        new = tau - r / K2
        if not lo < new < hi:
            new = 0.5 * (lo + hi) if math.isfinite(lo) and math.isfinite(hi) else new
        while True:
            try:
                cgf.cgf(new, rough)
                break
            except OutsideDomain:
                if new > tau:
                    hi = new
                else:
                    lo = new
                new = 0.5 * (tau + new)
                if abs(new - tau) < 1e-12 * max(1.0, abs(tau)):
                    raise
        tau = new
    raise OutsideDomain("the saddlepoint equation K'(tau) = s did not converge")


# -- the method record -------------------------------------------------------------------------

def _check_request(req):
    check_tail_request(req, "saddlepoint")


def _saddlepoint_law(req):
    def tail(rows, cols, value, statistic, side, seed):
        return saddlepoint_tail(rows, cols, value, statistic, side)
    return tail_laws(req, tail, words=lambda est: ("exact" if est.exact
                                                    else "saddlepoint approximation"))


register_method(NullMethod(
    name="saddlepoint", model="perm", title="Agreement test (saddlepoint approximation)",
    description="tail probabilities of s or t by a saddlepoint approximation (Lugannani-Rice "
                "on a Laplace approximation of the cumulant generating function)",
    law=_saddlepoint_law, check=_check_request,
    describe=lambda nd: "saddlepoint approximation of the tail (Lugannani-Rice, Laplace cgf)"))

__doc__ = fill(__doc__)
