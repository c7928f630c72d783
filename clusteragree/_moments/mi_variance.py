"""Exact variance of the mutual information under fixed margins (private).

Under the permutation null (both margins fixed) the variance of MI is a sum over pairs of
cells of covariances of f(n_ij) = n_ij log(n_ij / mu_ij), mu_ij = a_i b_j / n, because
n MI = sum_ij f(n_ij) exactly (Romano, Bailey, Nguyen & Verspoor 2014, "Standardized mutual
information for clustering comparisons: one step further in adjustment for chance", ICML;
Romano, Vinh, Bailey & Verspoor 2016, "Adjusting for chance clustering comparison measures",
JMLR 17). With psi_c = f(n_c) - E[f(n_c)] (each cell's law Hypergeom(n, a_i, b_j)),

    n^2 Var[MI] = sum_c E[psi_c^2] + sum_c sum_(c' != c) E[psi_c psi_c'].

The joint law of two cells comes from conditioning (a uniformly random relabelling):

* same row, n_ij' | n_ij = k  ~  Hypergeom(n - b_j, a_i - k, b_j')  (the other a_i - k objects
  of row i fall uniformly among the n - b_j places outside column j);
* another row, given the whole row i, n_i'j' | row i  ~  Hypergeom(n - a_i, b_j' - n_ij', a_i')
  (the objects outside row i fill the remaining places of the columns uniformly).

So with Hs(i, j', m) = sum_(i' != i) E[psi_i'j'(Hypergeom(n - a_i, b_j' - m, a_i'))],

    sum_(c' != c) E[psi_c psi_c'] = E[psi_ij(k) (Hs(i, j, k)
        + sum_(j' != j) E[psi_ij'(m) + Hs(i, j', m) | n_ij = k])],   k = n_ij,

a triple sum per pair of cells, as in Romano et al. (2014), Theorem 1. Only the variance of
the sum over the table is wanted, so each cell's term may change by c_ij + (alpha_i + beta_j) x
(a constant over the tables): the terms are taken as x log(x / mu) - x + mu (``deviance``,
Loader's bd0: the slope 1 + log mu_ij is additive), each within a few u of itself and of order
one near the means, and centred at their means. n log n itself carries an absolute error of
about u n log n (u = 2^-53), which made Var[n MI] lose digits growing with n (1e-10 at 10^5).

Windows. Each law is summed over a window holding all but e^-LOG_TAIL_VAR of each tail: by
Hoeffding (1963, Thm. 4) a hypergeometric law (d draws, s successes out of P) obeys the
exponential bounds of the binomial Bin(m, p) with m p (1 - p) = sigma^2 the smaller of the two
binomial variances (d, s / P) and (s, d / P); Bernstein's inequality then gives
P(|X - mean| >= h) <= 2 exp(-h^2 / (2 (sigma^2 + h / 3))), and h = L/3 + sqrt(L^2/9 + 2 L sigma^2)
makes each tail at most e^-L. With L = 36 each law drops at most 2 e^-36 ~ 5e-16 of its mass.
``n_mi_variance`` sums each pair of cells over the product of their marginal windows: the joint
mass left out is at most the two cells' tails, 4 e^-36; the conditional sums over n_i'j' given
n_ij' = m run over the marginal window of n_i'j', so what they leave out, weighted by P(m), is
at most that window's tails, 2 e^-36. Each dropped term is at most max |psi|^2 (|psi| <= n log n
at worst, of order one near the means), so the absolute error of n^2 Var[MI] is below
8 e^-36 max |psi|^2 per pair of cells, far below rounding for every table tested (the tests
compare with the exact law, 305 tables, and with the term-by-term sum up to n = 5000).
Probabilities inside a window, and the factors of the joint and conditional laws, come from
the ratios of their neighbours (one log per term, ``_log_run``; no differences of
log-factorials of size n log n, whose absolute errors of about u n log n became relative errors
of the weights), normalised by the window's sum.

Hankel products by FFT. Each double sum over two cells' windows has the form
sum_(k, m) x(k) y(m) h(k + m) (a factor of each value and one of their sum, ``n_mi_variance``):
a Hankel matrix times a vector, i.e. a correlation, O(W log W) by FFT instead of O(W^2).

Rounding. ``n_mi_variance_bound`` (and ``variance_of_power_sum_bound``) give a bound on the
rounding error of the result, first order in u, computed with the sums from the margins:

* the weights: each factor's log weights accumulate one step per value from the window's start
  (each step within u (3 + |step|), each addition within u of its partial sum), so a weight
  within e^-cut of its run's largest is within u ((L - 1) (3 + max |step| + max |log w|)
  + 2 cut + 1) relatively (``_accumulate``; cut = 40 plus twice the log of the range of |psi|
  over its smallest sd: the weights below carry terms below e^-40 of the others); a term of
  the sums, a ratio of sums of products of three such weights over at most W values, within
  u (10 e + 8 W + 16), e the largest of these over all runs (``_term_rtol``);
* the terms: every term is at most sd_c sd_c' (Cauchy-Schwarz), so the sums are within that
  relative error of (sum_c sd_c)^2, twice (the conditional means inside the joint ones);
* the values psi: within the caller's bound of each value (``deviance``: 16 u of it near mu)
  plus their mean's, which moves Var by at most 2 (sum_c sd_c) sum_c rms(error of psi_c);
* the slopes: a slope of f that rounding left non-additive (log mu_ij, within 2.1 u; the
  tangent's additive part for powers) moves Var by at most 2 sd[t] sum_c sd[n_c] |slope error|;
* adding the terms up: u times their number times (sum_c sd_c)^2;
* the FFT: from the transforms' normwise bound (Higham 2002, Thm 24.2: _FFT_ULPS log2(N) u of
  the 2-norm), each product sum_w h[v + w] x[w] is within (2 g + 3 u)(|h|_2 |x|_1 + |h|_1 |x|_2)
  at every v, g = _FFT_ULPS log2(N) u, and each spectral dot product within g (|h|_2 |x|_1 |y|_2
  + 2 |h|_1 |x|_2 |y|_2) + 4 (N + 10) u |h|_1 |x|_2 |y|_2; through the ratios of the
  conditional means (Cauchy-Schwarz over the values, weighted by what an error of each does to
  the sums) and of the joint ones, each vector or pair of products gets a bound, and one whose
  bound is above the direct sums' (``_term_rtol``) is summed directly. The FFT then never
  adds more than the direct sums' own bound: where its rounding cannot meet it (Var[sum
  n_ij^165] of two clusters of 1000 against two of 1000: the absolute rounding of the products
  swamped the tail values n^165 weighs, 2e-10 of the result) the products are direct.

The bound is loose: on 2 x 2 tables up to n = 10^6 and small tables (n <= 400, every table
enumerated) it is 1e-13 to 1e-9 of the variance and the errors measured 1e-16 to 1e-14; on
10 x 10 tables of 10^5 objects it is about 1e-7 (the (sum_c sd_c)^2 of a hundred cells against
a variance of forty, and runs of thousands of values), where two orders of summation agree to
1e-14. The tests hold the values within it.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.fft as sfft
from scipy.special import exprel

from .cells import T_CAP, log_weight, positive_margins, tilted_mode

__all__ = ["LOG_TAIL_VAR", "LOG_TAIL_POWER", "variance_of_mi", "n_mi_variance",
           "variance_of_power_sum", "power_sum_scale", "power_sum_within_windows",
           "variance_work", "check_variance_time", "SECONDS_PER_WORK", "DEFAULT_MAX_SECONDS",
           "n_mi_variance_bound", "variance_of_power_sum_bound", "variance_of_tsallis_sum_bound",
           "deviance"]

LOG_TAIL_VAR = 36.0


def _windows(P, d, s, L=LOG_TAIL_VAR):
    """Integer windows [lo, hi] of Hypergeom(P draws d, successes s) (arrays, broadcast)."""
    P, d, s = (np.asarray(v, dtype=float) for v in np.broadcast_arrays(P, d, s))
    mean = d * s / np.maximum(P, 1.0)
    ps = s / np.maximum(P, 1.0)
    pd = d / np.maximum(P, 1.0)
    var = np.minimum(d * ps * (1 - ps), s * pd * (1 - pd))
    h = L / 3 + np.sqrt(L * L / 9 + 2 * L * var) + 1.0
    lo = np.maximum(np.maximum(0.0, d + s - P), np.floor(mean - h))
    hi = np.minimum(np.minimum(d, s), np.ceil(mean + h))
    return lo.astype(np.int64), hi.astype(np.int64)


def _laws(P, d, s, track=None):
    """Window laws of Hypergeom(P, d, s) for arrays of parameters (shape S): returns
    values x (S + (W,), clipped to each window) and pmf (0 outside each window), built from
    the ratio of neighbours p(x) / p(x-1) = (s - x + 1)(d - x + 1) / (x (P - s - d + x))
    (one log per term, accumulated and normalised by the window's sum). ``track``: a list
    that gets a bound on the relative error of every probability, in units of u
    (``_log_run``, then the normalising sum)."""
    P, d, s = (np.asarray(v, dtype=np.int64) for v in np.broadcast_arrays(P, d, s))
    lo, hi = _windows(P, d, s)
    W = int((hi - lo).max()) + 1 if lo.size else 1
    x = lo[..., None] + np.arange(W)
    inside = x <= hi[..., None]
    xc = np.minimum(x, hi[..., None])
    xf = xc.astype(float)
    sf, df = s[..., None].astype(float), d[..., None].astype(float)
    rest = (P - s - d)[..., None].astype(float)
    runs = [] if track is not None else None
    w = _tilted(_log_run((sf - xf + 1) * (df - xf + 1), xf * (rest + xf), inside, runs),
                inside)
    if track is not None:
        track.append(max(runs) + W + 1.0)
    return xc, w / w.sum(axis=-1, keepdims=True)


_margins = positive_margins


def _n_mi_variance_direct(rows, cols) -> float:
    """Var[n MI] by the conditional laws term by term (slow; the tests' second opinion)."""
    a, b, n = _margins(rows, cols)
    K, Q = len(a), len(b)
    if K < 2 or Q < 2:
        return 0.0
    mu = np.outer(a.astype(float), b.astype(float)) / n  # terms as _deviance_terms'

    # marginal laws of the cells, (K, Q, W)
    k, pk = _laws(n, a[:, None], b[None, :])
    ef = (pk * deviance(k, mu[..., None])).sum(axis=-1)  # E[f(n_ij)]

    def psi(i, j, x):  # psi_ij(x) for index arrays i, j broadcast against x
        return deviance(x, mu[i, j]) - ef[i, j]

    II, JJ = np.arange(K)[:, None, None], np.arange(Q)[None, :, None]
    psik = psi(II, JJ, k)
    total = float((pk * psik * psik).sum())
    for i in range(K):
        # conditional laws of n_ij' given n_ij = k: (j, j', k-window, m-window)
        kk = k[i][:, None, :]  # (Q, 1, Wk)
        succ = np.where(np.eye(Q, dtype=bool), 0, b[None, :])[..., None]  # j' = j: unused
        m, pm = _laws(n - b[:, None, None], a[i] - kk, succ)
        # Hs(i, j', m) on every m needed: the conditional windows and the marginal window
        off = ~np.eye(Q, dtype=bool)[..., None, None]
        big = np.iinfo(np.int64).max
        lo = np.minimum(np.where(off, m, big).min(axis=(0, 2, 3)), k[i].min(axis=-1))
        hi = np.maximum(np.where(off, m, -1).max(axis=(0, 2, 3)), k[i].max(axis=-1))
        Wm = int((hi - lo).max()) + 1
        mm = np.minimum(lo[:, None] + np.arange(Wm), hi[:, None])  # (Q, Wm)
        others = np.array([r for r in range(K) if r != i])
        # n_i'j' | n_ij' = m ~ Hypergeom(n - a_i, b_j' - m, a_i'): shape (i', j', Wm, Wl)
        ll, pl = _laws(n - a[i], (b[:, None] - mm)[None, :, :], a[others][:, None, None])
        e_other = (pl * psi(others[:, None, None, None], np.arange(Q)[None, :, None, None],
                            ll)).sum(axis=-1)  # (i', j', Wm)
        hs = e_other.sum(axis=0)  # (j', Wm)
        j_idx = np.arange(Q)
        # E[psi_ij'(m) + Hs(i, j', m) | k] for j' != j
        m = np.where(off, m, lo[None, :, None, None])  # j' = j: any valid index, weight 0
        v = psi(i, j_idx[None, :, None, None], m) + hs[j_idx[None, :, None, None],
                                                      m - lo[None, :, None, None]]
        cond = (pm * v).sum(axis=-1)  # (j, j', Wk)
        cond[j_idx, j_idx, :] = 0.0
        inner = cond.sum(axis=1) + hs[j_idx[:, None], k[i] - lo[:, None]]  # (j, Wk)
        total += float((pk[i] * psik[i] * inner).sum())
    return max(total, 0.0)


def _tilted(logw, inside=None, axis=-1):
    """exp(logw - max) with zeros outside the window (logw tilted so that its max is near the
    joint mode: no factor of a significant product under- or overflows). Overwrites logw."""
    if inside is not None:
        logw = np.where(inside, logw, -np.inf)
    top = logw.max(axis=axis, keepdims=True)
    logw -= np.where(np.isfinite(top), top, 0.0)
    return np.exp(logw, out=logw)


def n_mi_variance(rows, cols) -> float:
    """Var[n MI] = Var[sum_ij n_ij log n_ij] under fixed margins (see the module docstring).

    Same-row pairs use the joint law of (n_ij, n_ij'),
    P(k, m) = C(b_j, k) C(b_j', m) C(n - b_j - b_j', a_i - k - m) / C(n, a_i), and the other
    rows the conditional law P(l | m) proportional to C(a_i', l) C(n - a_i - a_i', b_j' - m - l):
    both are products of a function of k (or l), one of m and one of the sum, so each double
    sum is a vector-Hankel-vector product over the two cells' windows (no probability is
    computed per pair of values). Each factor is tilted by exp(theta x) with theta the slope
    at the cells' means (the tilts cancel in the product) so that all stay within double range.
    """
    return n_mi_variance_bound(rows, cols)[0]


def n_mi_variance_bound(rows, cols) -> tuple[float, float]:
    """(Var[n MI], a bound on its rounding error): ``n_mi_variance`` and the bound of the
    module docstring, "Rounding" (first order in u = 2^-53).

    >>> v, err = n_mi_variance_bound([400, 600], [500, 500])
    >>> bool(err < 1e-10 * v)
    True
    """
    a, b, n = _margins(rows, cols)
    if len(a) < 2 or len(b) < 2 or a.max() == 1 or b.max() == 1:
        return 0.0, 0.0  # one table, or every cell 0 or 1: t = 0 on every table
    return _n_variance(a, b, n, _deviance_terms)


def _deviance_terms(a, b, n, x):
    """The centred terms of t for cells with margins a (K,) and b (Q,), values x (K, Q, W):
    x log(x / mu) - x + mu, mu = a_i b_j / n (``deviance``), with the bounds ``_n_variance``
    asks for. They differ from x log x by x log mu + (x - mu), linear in x with a slope
    1 + log a_i + log b_j - log n, additive, so the sum over the table differs from t by a
    constant: same variance. mu is rounded (within 2u, a_i b_j below 2^53 exact): the slope
    log mu of each cell is then within 2.1 u of its additive value."""
    mu = np.outer(a.astype(float), b.astype(float)) / n
    g = deviance(x, mu[..., None])
    return g, _deviance_error(x, mu[..., None], g), np.full(mu.shape, 2.1 * _U)


def _deviance_error(x, mu, g):
    """A bound on the rounding error of ``deviance(x, mu)`` = g (module docstring of
    ``deviance``): 16 u g on Loader's series (d = x - mu exact there, as x and mu are within
    a factor of 2; v within 2u, the series' terms of one sign within 40 u and at most 0.22 of
    the first), and u (4 x |log(x / mu)| + |x - mu| + g) elsewhere."""
    x, mu = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(mu, dtype=float))
    near = np.abs(x - mu) < _DEVIANCE_NEAR * (x + mu)
    with np.errstate(divide="ignore", invalid="ignore"):
        far = 4 * np.where(x > 0, np.abs(x * np.log(x / mu)), 0.0) + np.abs(x - mu) + g
    return _U * np.where(near, 16 * g, far)


#: ``deviance`` sums Loader's series where |v| < ``_DEVIANCE_NEAR``, to ``_DEVIANCE_TERMS``
#: terms: the first term left out, 2 x |v|^35 / 35, is below 1e-19 of the sum.
_DEVIANCE_NEAR, _DEVIANCE_TERMS = 0.3, 17


def deviance(x, mu):
    """x log(x / mu) - x + mu (0 log 0 = 0), x >= 0 and mu > 0 (arrays broadcast), to a few ulps
    of the result: Loader's bd0 (2000, "Fast and accurate computation of binomial
    probabilities", as R's dbinom). Where |v| < 0.3, v = (x - mu) / (x + mu), it is
    (x - mu) v + 2 x sum_(j >= 1) v^(2j+1) / (2j + 1): the first term, v^2 (x + mu) >= 0, is
    more than 4 times the rest (2 x |v|^3 / (3 (1 - v^2)) <= 0.22 v^2 (x + mu)), so little
    is lost to cancellation. Elsewhere (x / mu >= 1.85 or <= 0.54) the formula as written is
    at least a quarter of its largest term. Measured against 50-digit values (mu from 0.3 to
    3e6, 16,000 x near and far from mu): relative error below 10 u, u = 2^-53.

    >>> g = deviance(np.float64(1e6 + 1), 1e6)   # 1 / (2 mu) - 1 / (6 mu^2) + 1 / (12 mu^3) ...
    >>> bool(abs(g / (0.5e-6 - 1e-12 / 6 + 1e-18 / 12) - 1) < 4e-16)
    True
    """
    x, mu = np.broadcast_arrays(np.asarray(x, dtype=float), np.asarray(mu, dtype=float))
    d = x - mu
    v = d / (x + mu)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(x > 0, x * np.log(x / mu), 0.0) - d
    near = np.abs(v) < _DEVIANCE_NEAR
    v2 = np.where(near, v * v, 0.0)
    series = np.zeros_like(v2)
    for j in range(_DEVIANCE_TERMS, 0, -1):  # Horner: sum_j v^(2j) / (2j + 1)
        series += 1.0 / (2 * j + 1)
        series *= v2
    return np.where(near, d * v + 2.0 * x * v * series, out)


def variance_of_power_sum(rows, cols, q: float, scale: float = 1.0) -> float:
    """Var[sum_ij (n_ij / scale)^q] under fixed margins, by the same sums as ``n_mi_variance``
    with f(x) = (x / scale)^q. A term alpha_i + beta_j in the slope of f leaves the variance
    unchanged (its sum over the table is fixed by the margins): each term is taken less its
    tangent at the cell's mean, plus the non-additive part of the tangent's slope
    (``_power_terms``), so that the centred terms stay small and nothing cancels, for any q
    (q near 1 included). Powers are taken of x / scale: with ``scale`` at least the largest
    value of the windows (``power_sum_scale``) nothing overflows for any q. The sums cover
    each cell's window of its law: they are exact only where the weights x^q and x^(2q) leave
    the windows no more of their mass than the law does (``power_sum_within_windows``).

    >>> round(variance_of_power_sum([2, 2], [2, 2], 2.0), 12)   # s = 8 w.p. 1/3, 4 w.p. 2/3
    3.555555555556
    """
    a, b, n = _margins(rows, cols)
    if len(a) < 2 or len(b) < 2 or q == 1.0:
        return 0.0  # one table, or sum n_ij = n on every table
    if a.max() == 1 or b.max() == 1:
        return 0.0  # every cell 0 or 1: sum n_ij^q = n on every table
    q = min(float(q), T_CAP)
    lo, hi = _windows(n, a[:, None], b[None, :])
    top = int(hi.max())
    scale = float(scale)
    if q * np.log(top / scale) > 300.0:
        raise OverflowError(f"Var[sum n_ij^q] at q = {q:g} is beyond the double range for "
                            f"cells up to {top} (scale = {scale:g}); pass scale >= {top}")

    return variance_of_power_sum_bound(a, b, q, scale)[0]


def variance_of_power_sum_bound(rows, cols, q: float, scale: float = 1.0):
    """(Var[sum_ij (n_ij / scale)^q], a bound on its rounding error) under fixed margins
    (``variance_of_power_sum``, whose checks it skips; module docstring, "Rounding")."""
    a, b, n = _margins(rows, cols)
    if len(a) < 2 or len(b) < 2 or q == 1.0 or a.max() == 1 or b.max() == 1:
        return 0.0, 0.0
    q = min(float(q), T_CAP)
    unit = _power_unit(q)
    var, bound = _n_variance(a, b, n, _power_terms(q, float(scale), unit))
    return unit * unit * var, unit * unit * bound


def variance_of_tsallis_sum_bound(rows, cols, q: float):
    """(Var[sum_ij (n_ij^q - n_ij) / (q - 1)], a bound on its rounding error) under fixed
    margins, for q near 1 (the unit q - 1 of ``_power_terms``, scale 1): what the Tsallis
    indices need there, where sum n_ij^q itself is n plus (q - 1) t and its variance would
    be (q - 1)^2 Var[t] read through n. At q = 1 it is Var[t] (``n_mi_variance_bound``)."""
    if q == 1.0:
        return n_mi_variance_bound(rows, cols)
    a, b, n = _margins(rows, cols)
    if len(a) < 2 or len(b) < 2 or a.max() == 1 or b.max() == 1:
        return 0.0, 0.0
    if abs(q - 1.0) > 1.0:
        raise ValueError(f"q = {q:g} is not near 1; use variance_of_power_sum_bound")
    return _n_variance(a, b, n, _power_terms(float(q), 1.0, float(q) - 1.0))


def _power_unit(q):
    """The unit of ``_power_terms``: q - 1 up to 1 in size (nothing then cancels as q -> 1),
    else 1."""
    return q - 1.0 if abs(q - 1.0) <= 1.0 else 1.0


def _power_terms(q, scale, unit):
    """The centred terms of sum (x / s)^q / unit (s = ``scale``; ``_power_unit``) for
    ``_n_variance``, with their bounds: for each cell, with mu = a_i b_j / n, z = mu / s,
    eps = q - 1, u = x / mu - 1 and L = log(1 + u),

        c(x) = ((x / s)^q - z^q - q z^q u) / unit
             = (eps / unit) z^q [h(u) + (1 + u) L^2 eps chi(eps L)],

    h(u) = (1 + u) L - u (``deviance`` / mu) and chi(y) = (e^y - 1 - y) / y^2 (a series): the
    power less its tangent at mu, each part of one sign when q > 1 (no cancellation, and
    nothing divided by eps as q -> 1, where c tends to the deviance of MI). Where |eps L| > 1
    (far from mu when q is large) the first form is taken as written (at least 1/7 of its
    largest term there). The tangent's slope sigma_c = q z^(q-1) / (s unit) is not additive:
    sigma_c less its additive part is added back as a linear term. When unit = eps the slope
    is taken less the constant q / (eps s), sigma_c = (q / s) log z exprel(eps log z) (no
    1 / eps as q -> 1)."""
    eps = q - 1.0
    ratio = eps / unit

    def terms(a, b, n, x):
        mu = np.outer(a.astype(float), b.astype(float)) / n
        z = mu / scale
        with np.errstate(under="ignore", divide="ignore", invalid="ignore", over="ignore"):
            log_z = np.log(z)
            if unit == eps:  # the slope less the constant q / (eps s)
                sigma = q / scale * log_z * exprel(eps * log_z)
            else:  # the slope itself: q z^(q - 1) / s
                sigma = q / scale * np.exp(eps * log_z)
            base = np.exp(q * log_z)[..., None]
            mu3 = mu[..., None]
            rel = x / mu3 - 1.0
            L = np.log1p(rel)
            y = eps * L
            near = (np.abs(y) <= 1.0) & (x > 0)
            h = deviance(x, mu3) / mu3
            curve = (1.0 + rel) * L * L * eps * _chi(np.where(near, y, 0.0))
            c_near = ratio * base * (h + curve)
            power = (x / scale) ** q
            c_far = (power - base * (1.0 + q * rel)) / unit
            err_near = _U * abs(ratio) * base * ((18.0 + 3 * q) * (np.abs(h) + np.abs(curve)))
            err_far = _U * ((q + 2.0) * power + (3 * q + 4.0) * base * np.abs(1.0 + q * rel)
                            ) / abs(unit) + _U * np.abs(c_far)
        c = np.where(near, c_near, c_far)
        error = np.where(near, err_near, err_far)
        additive = (sigma.mean(axis=1, keepdims=True) + sigma.mean(axis=0, keepdims=True)
                    - sigma.mean())
        rest = sigma - additive
        values = c + rest[..., None] * (x - mu3)
        error = error + _U * np.abs(rest[..., None] * (x - mu3)) * 3
        slope_error = 4 * _U * (np.abs(sigma) + np.abs(sigma.mean(axis=1, keepdims=True))
                                + np.abs(sigma.mean(axis=0, keepdims=True))
                                + abs(sigma.mean()))
        return values, error, slope_error

    return terms


#: Terms of the series of ``_chi`` (|y| <= 1: the first left out is below 1e-20).
_CHI_TERMS = 20


def _chi(y):
    """(e^y - 1 - y) / y^2 = sum_(k >= 0) y^k / (k + 2)! for |y| <= 1 (Horner; terms of one
    sign or alternating and decreasing: within a few u)."""
    out = np.zeros_like(y)
    for k in range(_CHI_TERMS, -1, -1):
        out = out * y + 1.0 / math.factorial(k + 2)
    return out


#: Seconds per unit of ``variance_work``, calibrated on this package's development machine
#: (2 CPUs, shared): 86 timed exact variances (2 to 100 clusters a side, n = 2 10^3 to
#: 2.5 10^7, equal, Dirichlet(5) and Dirichlet(1) margins, 0.03 to 15 s) took 0.67 to 1.8 times
#: the prediction (median 0.99; the 34 over 0.3 s, 0.67 to 1.16); 50 x 50 and 100 x 100 tables
#: with n = 10^6 took 4.6 s and 19 s for 5.1 s and 21 s predicted (140 MB and 240 MB).
SECONDS_PER_WORK = 6.2e-8
#: The exact variance shows a progress bar when its predicted time is at least this.
PROGRESS_SECONDS = 5.0
#: The longest predicted time an exact variance may take unless the caller allows more.
DEFAULT_MAX_SECONDS = 60.0
#: The cost of a pair of rows at one column (an FFT and four inverse ones) relative to a pair of
#: columns in one row (an FFT and three sums), and the cost per object (the table of log
#: factorials up to n), in units of ``variance_work``: fitted with ``SECONDS_PER_WORK``.
_PAIR_OF_ROWS, _PER_OBJECT = 2.1, 0.3


def _oriented(a, b, n):
    """How ``_n_variance`` takes the table: (a, b, widths, transposed, order, work), the table
    or its transpose (``transposed``), whichever has the less ``_work``, its rows in ``order``
    of decreasing width of their windows (``widths``: each row's widest cell)."""
    best = None
    for transposed, (rows, cols) in enumerate(((a, b), (b, a))):
        lo, hi = _windows(n, rows[:, None], cols[None, :])
        widths = (hi - lo).max(axis=1) + 1
        order = np.argsort(-widths, kind="stable")
        work = _work(n, len(cols), widths[order])
        if best is None or work < best[-1]:
            best = (rows[order], cols, widths[order], bool(transposed), order, work)
    return best


def _work(n, Q, widths) -> float:
    """sum over rows i of [2.1 (K - 1 - i) Q + Q (Q - 1) / 2] W_i, + 0.3 n: the pairs of rows
    (i, i' > i) at each column and the pairs of columns in row i, each FFTs of length about
    2 W_i (W_i the width of row i, decreasing), and the log factorials up to n."""
    K = len(widths)
    units = _PAIR_OF_ROWS * (K - 1 - np.arange(K)) * Q + Q * (Q - 1) / 2
    return float(units @ np.asarray(widths, dtype=float)) + _PER_OBJECT * n


def variance_work(rows, cols) -> float:
    """The work of the exact variance (``_work``): the table (or its transpose, whichever
    costs less; the rows preferably the shorter side), its K rows by decreasing width W_i of
    their windows (the widest cell of each row),

        sum_i [2.1 (K - 1 - i) Q + Q (Q - 1) / 2] W_i  +  0.3 n:

    for each row the pairs of cells in the later rows and in the row itself, each Hankel product
    by FFTs of length about 2 W_i (their time was found linear in W_i from 50 to 12000), and the
    log factorials up to n. The time is about ``SECONDS_PER_WORK`` times this."""
    a, b, n = _margins(rows, cols)
    if len(a) < 2 or len(b) < 2 or a.max() == 1 or b.max() == 1:
        return 0.0  # nothing is summed: the variance is 0
    return _oriented(a, b, n)[-1]


def check_variance_time(rows, cols, max_seconds, how_to_raise: str) -> float:
    """The predicted seconds of the exact variance for these margins; ``ValueError`` when they
    are above ``max_seconds`` (the message ends with ``how_to_raise``)."""
    seconds = variance_work(rows, cols) * SECONDS_PER_WORK
    if seconds > max_seconds:
        a, b, n = _margins(rows, cols)
        raise ValueError(
            f"the exact null variance of these margins ({len(a)} x {len(b)}, n = {n:,}) would "
            f"take about {seconds:.3g} s (predicted from the margins), more than "
            f"max_seconds={max_seconds:g}; {how_to_raise}")
    return seconds


def _rows(K, seconds):
    """The loop over rows, with a progress bar when it is predicted to be long."""
    if seconds < PROGRESS_SECONDS:
        return range(K)
    from tqdm.auto import tqdm

    return tqdm(range(K), desc=f"exact null variance (about {seconds:.0f} s)", unit="row",
                leave=False)


def power_sum_scale(rows, cols) -> int:
    """The largest value of the cells' windows in ``variance_of_power_sum``: the scale that
    keeps every (x / scale)^q at most 1."""
    a, b, n = _margins(rows, cols)
    return int(_windows(n, a[:, None], b[None, :])[1].max())


#: ``power_sum_within_windows`` asks the weighted laws to leave at most e^-this of their mass
#: outside the windows (the windows leave out at most 2 e^-36 of each law itself).
LOG_TAIL_POWER = 30.0
_CHECK_TERMS = 2_000_000


def power_sum_within_windows(rows, cols, q: float) -> bool:
    """Whether the exact sums of ``variance_of_power_sum`` cover Var[sum n_ij^q]: for every
    cell, its law weighted by x^t (t = q and 2q: the mean and the second moment) leaves at
    most e^-LOG_TAIL_POWER of its mass outside the cell's window. A large q moves the mass of
    x^q P(x) into the upper tail, beyond the windows, and the variance with it.

    The weights are log-concave, so past the mode each tail is bounded by its first term and
    the ratio of its first two (a geometric series); the mass inside is summed."""
    a, b, n = _margins(rows, cols)
    if len(a) < 2 or len(b) < 2 or a.max() == 1 or b.max() == 1:
        return True  # nothing to sum: the variance is 0
    q = min(float(q), T_CAP)
    A, B = (v.ravel() for v in np.meshgrid(np.unique(a), np.unique(b), indexing="ij"))
    lo, hi = _windows(n, A, B)
    sup_lo, sup_hi = np.maximum(1, A + B - n), np.minimum(A, B)
    lo = np.maximum(lo, 1)  # x = 0 weighs 0
    Af, Bf = A.astype(float), B.astype(float)
    for t in (q, 2.0 * q):
        mode = tilted_mode(A, B, n, t)
        if ((mode > hi) | (mode < lo)).any():
            return False
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            tails = []
            for edge, step, outside in ((hi + 1, 1, hi < sup_hi), (lo - 1, -1, lo > sup_lo)):
                first = log_weight(edge, Af, Bf, n, t)
                nxt = np.where(outside & (edge + step >= sup_lo) & (edge + step <= sup_hi),
                               log_weight(edge + step, Af, Bf, n, t), -np.inf)
                tail = first - np.log1p(-np.exp(nxt - first))
                tails.append(np.where(outside, tail, -np.inf))
            tail = np.logaddexp(*tails)
        inside = np.empty(len(A))
        width = hi - lo + 1
        ends = np.cumsum(width)
        start = 0
        while start < len(A):
            stop = max(start + 1, int(np.searchsorted(ends, ends[start] - width[start]
                                                      + _CHECK_TERMS, "right")))
            part = slice(start, stop)
            W = int(width[part].max())
            k = lo[part, None] + np.arange(W)
            g = np.where(k <= hi[part, None],
                         log_weight(np.minimum(k, hi[part, None]), Af[part, None],
                                     Bf[part, None], n, t), -np.inf)
            top = g.max(axis=1)
            inside[part] = top + np.log(np.exp(g - top[:, None]).sum(axis=1))
            start = stop
        if (tail - inside > -LOG_TAIL_POWER).any():
            return False
    return True


#: Windows at least this wide take the Hankel products by FFT (O(W log W) each), narrower ones
#: directly (O(W^2)): as fast either way below (measured from W = 4), the FFT 1.2 to 2.7 times
#: faster from W = 40 to 150 (3 to 30 clusters a side). The direct products are the tests'
#: second opinion on the FFT.
FFT_MIN_WIDTH = 16


class _Hankel:
    """Products of W x W Hankel matrices H[v, w] = h[v + w] (h of length 2W - 1) with vectors,
    by FFT over N >= 2W - 1 points (a Hankel product is a correlation, and no wrap-around
    reaches an index v + w <= 2W - 2), or directly when ``N`` is 0. Operands are first made
    spectra (their FFTs, or the arrays themselves), each serving many products."""

    def __init__(self, W, N):
        self.W, self.N = W, N
        # Parseval on a real FFT: the half spectrum stands for both halves, but for the zero
        # frequency (and Nyquist's when N is even)
        self.weight = np.full(N // 2 + 1, 2.0 / max(N, 1))
        self.weight[0] = 1.0 / max(N, 1)
        if N % 2 == 0:
            self.weight[-1] = 1.0 / max(N, 1)

    def spectrum(self, x):
        return sfft.rfft(x, self.N) if self.N else x

    def cospectrum(self, x):
        """The conjugate spectrum: what ``times`` takes for its vectors."""
        return np.conj(sfft.rfft(x, self.N)) if self.N else x

    def times(self, h, x):
        """sum_w h[..., v + w] x[..., w] for v < W (h a spectrum, x a cospectrum)."""
        if not self.N:
            return np.einsum("...vw,...w->...v", _view(h, self.W, axis=-1), x)
        return sfft.irfft(h * x, self.N)[..., :self.W]

    def form(self, h, *pairs):
        """sum over the pairs (x, y) of sum_(w, v) x[..., w] h[..., w + v] y[..., v] (spectra,
        broadcast): the sum over s of h[s] times the convolution of x and y."""
        if not self.N:
            return _direct_form(h, self.W, pairs)
        conv = sum(x * y for x, y in pairs)  # Re(conj(h) conv), weighted: a dot of the parts
        return np.einsum("...i,...i->...", (h * self.weight).view(np.float64),
                         conv.view(np.float64))

    def times_error(self, h, x):
        """A bound on the rounding error of every entry of ``times`` by FFT, from the norms
        ``(1-norm, 2-norm)`` of the real operands h and x (module docstring, "FFT rounding")."""
        g = _fft_gamma(self.N)
        return (2 * g + 3 * _U) * (h[1] * x[0] + h[0] * x[1])

    def form_error(self, h, *pairs):
        """A bound on the rounding error of ``form`` by FFT, from the norms ``(1-norm,
        2-norm)`` of the real operands: h, and x, y of each pair (module docstring,
        "Rounding"): the transforms' errors, and the products and the sum over the spectrum,
        within (N + 10) u of sum_f |H_f X_f Y_f| / N <= 2 |h|_1 |x|_2 |y|_2 (Parseval)."""
        g = _fft_gamma(self.N)
        dot = 4 * (self.N + 10) * _U
        return sum(g * h[1] * np.minimum(x[0] * y[1], x[1] * y[0])
                   + (2 * g + dot) * h[0] * x[1] * y[1] for x, y in pairs)


def _direct_form(h, W, pairs):
    """``_Hankel.form`` directly (real arrays)."""
    H = _view(h, W, axis=-1)
    return sum(np.einsum("...v,...v->...", np.einsum("...w,...wv->...v", x, H), y)
               for x, y in pairs)


def _norms(x, positive=False):
    """(1-norm, 2-norm) of x along its last axis (``positive``: x >= 0)."""
    return (x if positive else np.abs(x)).sum(axis=-1), np.sqrt(_dot(x, x))


def _dot(x, y):
    """sum_i x[..., i] y[..., i]."""
    return np.einsum("...i,...i->...", x, y)


#: The unit roundoff of double precision.
_U = 2.0 ** -53
#: One FFT of length N (forward or inverse) is taken to be within _FFT_ULPS log2(N) u of the
#: exact transform in the 2-norm: Higham (2002), Accuracy and Stability of Numerical
#: Algorithms, Thm 24.2, gives log2(N) eta / (1 - log2(N) eta), eta = mu + gamma_4 (sqrt(2) +
#: mu) ~ 6.7 u for radix 2 with twiddle factors within mu ~ u; pocketfft's radices 3, 4, 5,
#: 7 and 11 take fewer stages than log2(N), each within a few more u. Measured errors are
#: below 1% of the bound.
_FFT_ULPS = 16.0


def _fft_gamma(N):
    return _FFT_ULPS * _U * np.log2(max(N, 2))




_view = np.lib.stride_tricks.sliding_window_view


#: Arrays of values of s are built by blocks of about this many (pairs of rows or of columns
#: at a time): they stay in cache, and memory stays small.
_BLOCK = 1 << 18


def _blocks(items, size):
    """Consecutive slices of ``items``, as many at a time as fit ``_BLOCK`` values of ``size``
    each (at least one)."""
    step = max(1, _BLOCK // size)
    return (items[start:start + step] for start in range(0, len(items), step))


def _ratio(num, den, inside):
    """num / den on the windows (0 elsewhere, and where den is not positive)."""
    return np.divide(num, den, out=np.zeros_like(num), where=inside & (den > 0))


def _log_run(num, den, valid=None, track=None, cut=np.inf):
    """log w along the last axis, 0 near the largest, from the ratios of neighbours
    w[t] / w[t-1] = num[t] / den[t] (float arrays; ``num`` is overwritten) where valid[t] and
    valid[t-1] (the valid t of each run contiguous; all when ``valid`` is None), 0 elsewhere
    (``_accumulate``). num and den are within u each (exact products of integers below 2^53),
    so each step, one log of their ratio, is within u (3 + |step|)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        step = np.log(np.divide(num, den, out=num), out=num)
    return _accumulate(step, valid, track, cut, 3.0)


def _accumulate(step, valid, track, cut, step_error):
    """log w from its steps log w[t] - log w[t-1] (``step``, overwritten; step[0] unused, and
    0 where valid[t] and valid[t-1] do not both hold): their cumulative sum (no difference of
    log factorials of size n log n). Every run here is log-concave (binomial coefficients
    times a geometric tilt): its steps decrease, so |step| is largest at an end of the run,
    and so is |log w| (or at the mode, its largest).

    Rounding: each step within u (step_error + |step|) (the caller's); each addition at most
    u |partial sum|; tilting (``_tilted``) and the exponential within u (2 |log w - max| + 1).
    The weights within e^-cut of the largest are then within u ((L - 1) (step_error
    + max |step| + max |log w|) + 2 min(cut, 2 max |log w|) + 1) relatively, L the length of
    the run (its valid part): ``track``,
    a list, gets the largest of these bounds (units of u); the others are below e^-cut of
    the largest."""
    step[..., 0] = 0.0
    if valid is not None:
        ok = valid[..., 1:] & valid[..., :-1]
        step[..., 1:][~ok] = 0.0
    logw = np.cumsum(step, axis=-1, out=step)
    if track is not None and logw.size:
        L = logw.shape[-1]
        ends = np.maximum(np.abs(logw[..., 1] - logw[..., 0]), np.abs(logw[..., -1]
                                                                       - logw[..., -2])) \
            if L > 1 else np.zeros(logw.shape[:-1])
        top = np.where(valid, logw, -np.inf).max(axis=-1) if valid is not None else \
            logw.max(axis=-1)
        size = np.maximum(np.abs(logw[..., -1]), np.maximum(top, 0.0))
        length = L - 1
        if valid is not None:  # the valid part of the run
            size = np.maximum(size, np.abs(np.where(valid, logw, 0.0)).max(axis=-1))
            length = np.maximum(valid.sum(axis=-1) - 1, 0)
        track.append(float((length * (step_error + ends + size) + 2 * np.minimum(cut, 2 * size)
                            ).max()) + 1.0)
    return logw


def _sum_factor(logs, R, c, base, L, tilt, track=None, cut=np.inf):
    """C(R, c - s) e^(tilt s) on s = base + t, t = 0..L-1 (0 where c - s is outside [0, R]),
    over its largest value (``_tilted``); R, c, base, tilt broadcast against each other
    (shape S), tilt = -theta, theta the slope of the other factor's tilt. Its steps,
    log C(R, m) - log C(R, m + 1) + tilt = log(m + 1) - log(R - m) + tilt (m = c - s), come
    from ``logs`` (log x for x = 0..n + 1, each within u log x): within u (2 log(n + 1) + |tilt|
    + 2 + |step|). Where c - s is within [0, R] on every s, the logs are slices of the table
    (no index per value)."""
    R, c, base, tilt = np.broadcast_arrays(R, c, base, tilt)
    d = c - base  # c - s at t = 0
    error = 2 * np.log(len(logs)) + float(np.abs(tilt).max()) + 2.0
    tilt = tilt[..., None]
    if (d >= L - 1).all() and (d <= R).all():
        rows = _view(logs, L)
        step = rows[d - (L - 2)][..., ::-1] - rows[R - d]  # log(c - s + 1) - log(R - c + s)
        step += tilt
        return _tilted(_accumulate(step, None, track, cut, error))
    m = d[..., None] - np.arange(L)
    valid = (m >= 0) & (m <= R[..., None])
    step = logs[np.clip(m + 1, 1, len(logs) - 1)] - logs[np.clip(R[..., None] - m, 1,
                                                              len(logs) - 1)]
    step += tilt
    return _tilted(_accumulate(step, valid, track, cut, error), valid)


def _n_variance(a, b, n, terms, fft_from=None) -> tuple[float, float]:
    """(Var[sum_ij f_ij(n_ij)], a bound on its rounding error) under fixed margins
    (``n_mi_variance``). ``terms(a, b, n, x)`` gives, for margins a (K,), b (Q,) and values
    x (K, Q, W): f_ij(x), a bound on the rounding error of each value, and a bound on how far
    the slope of each cell's f_ij in x may be from what it should be (K, Q). Only the variance
    of the sum is wanted, so f_ij may differ from the statistic's terms by c_ij + (alpha_i +
    beta_j) x (a constant over the tables): ``terms`` chooses them small (no cancellation);
    what rounding leaves of a non-additive slope is that third output.

    Both double sums are Hankel products (``_Hankel``): the factor of the sum s of the two
    values depends on the pair of rows (columns) but not on its order, so each unordered pair
    is prepared once and serves both orders. The table is taken the way of less work (rows the
    shorter side, mostly: pairs of rows cost more than pairs of columns), the rows by decreasing
    width of their windows: the pairs (i, i' > i) and the row i itself then need only the
    width of row i. Each term taken by FFT comes with a bound on its rounding error, and one
    whose bound is above that of the same term summed directly is summed directly (module
    docstring, "Rounding")."""
    fft_from = FFT_MIN_WIDTH if fft_from is None else fft_from
    total, bound = _n_variance_sums(a, b, n, terms, fft_from)
    return max(total, 0.0), bound


def _n_variance_sums(a, b, n, terms, fft_from):
    """The sums of ``_n_variance``: (Var, the bound on its rounding error)."""
    a, b, widths, _, _, work = _oriented(a, b, n)  # the variance of the table or its transpose
    K, Q = len(a), len(b)
    runs = []  # bounds on the relative errors of the weights, in units of u (``_log_run``)
    k, pk = _laws(n, a[:, None], b[None, :], runs)  # marginal laws, (K, Q, W)
    fk, fk_error, slope_error = terms(a, b, n, k)
    ef = (pk * fk).sum(axis=-1)  # E[f(n_ij)]
    psik = fk - ef[..., None]
    total = float((pk * psik * psik).sum())
    inside = pk > 0
    sd = np.sqrt((pk * psik * psik).sum(axis=-1))  # the scale of each cell's term, (K, Q)
    row_sd = sd.sum(axis=1)
    span = (np.where(inside, psik, np.inf).min(axis=-1), np.where(inside, psik, -np.inf).max(
        axis=-1))  # the range of each cell's psi: a conditional mean of it lies within
    # an error at hs(i, j', m) moves the sums by at most P(n_ij' = m) times |psi_ij'(m)| plus
    # the largest |psi| of the other cells of row i (module docstring, "Rounding")
    largest = np.maximum(-span[0], span[1])
    # weights below e^-cut of their run's largest carry terms below e^-40 of the others: their
    # rounding is not tracked (``_log_run``)
    positive = sd[sd > 0]
    cut = 40.0 + 2 * np.log(max(1.0, largest.max() / positive.min())) if positive.size else 40.0
    weight = pk * (np.abs(psik) + (largest.sum(axis=1)[:, None] - largest)[..., None])
    lo = k[..., 0]
    # Hs(i, j', m) = sum_(i' != i) E[psi_i'j'(l) | n_ij' = m], l = n_i'j' on its window: the
    # law of l is proportional to C(a_i', l) C(n - a_i - a_i', b_j' - m - l), the first factor
    # the same for every i, the second a function of s = m + l and of {i, i'}. Factors are
    # tilted by exp(+-theta_c x), theta_c = log(b_j' / (n - b_j')) the slope of log C(a_i', l)
    # at its conditional mean. Each factor comes from the ratios of its neighbours
    # (``_log_run``): its logs are exact to a few ulps of their own size, where differences of
    # log factorials would carry absolute errors of about 1e-16 n log n.
    af, bf, kf = a.astype(float), b.astype(float), k.astype(float)
    theta_c, theta = np.log(bf / (n - bf)), np.log(af / (n - af))
    with np.errstate(divide="ignore"):
        logs = np.log(np.arange(float(n + 2)))  # log x (x = 0: -inf, never read)
    fa = _tilted(_log_run((af[:, None, None] - kf + 1.0) * bf[:, None],
                          kf * (n - bf)[:, None], inside, runs, cut), inside)  # C(a_i, k) e^(th k)
    fa_psi = fa * psik
    operand_norms = (_norms(fa_psi), _norms(fa, positive=True))  # each (1-norm, 2-norm), (K, Q)
    hs = np.zeros(k.shape)
    fft_bound = 0.0
    term_rtol = 0.0  # the bound on the relative error of a term summed directly (units of u)
    j, p = np.triu_indices(Q, 1)  # the pairs of columns j < j'
    spectra = (-1, 0, None, None)  # the rows' spectra: FFT length, first row, psi, 1
    for i in _rows(K, work * SECONDS_PER_WORK):
        W = int(widths[i])
        N = sfft.next_fast_len(2 * W - 1, real=True) if W >= fft_from else 0
        if N and 2 * W - 1 <= spectra[0] <= 1.25 * N:
            N = spectra[0]  # the rows' spectra of a wider row serve (within 25% of the best)
        hankel = _Hankel(W, N)
        if N != spectra[0] or not N:
            spectra = (N, i, hankel.cospectrum(fa_psi[i:, :, :W]),
                       hankel.cospectrum(fa[i:, :, :W]))
        num_a, den_a = spectra[2][i - spectra[1]:], spectra[3][i - spectra[1]:]
        # -- same row: joint law of (n_ij = k, n_ij' = m) proportional to C(b_j, k) C(b_j', m)
        # C(n - b_j - b_j', a_i - k - m), s = k + m, for j < j' (both ways); its factors
        # tilted by exp(+-theta x), theta = log(a_i / (n - a_i))
        ki = kf[i, :, :W]  # (Q, W)
        fb = _tilted(_log_run((bf[:, None] - ki + 1.0) * af[i], ki * (n - af[i]),
                              inside[i, :, :W], runs, cut), inside[i, :, :W])  # C(b_j, k) e^(th k)
        for x in _blocks(np.arange(i + 1, K), Q * (2 * W - 1)):  # rows (i, x > i): both ways
            raw = _sum_factor(logs, (n - a[i] - a[x])[:, None], b, lo[i] + lo[x], 2 * W - 1,
                              -theta_c, runs, cut)  # (len(x), Q, 2W-1) over its max
            term_rtol = _term_rtol(runs, W)
            fc = hankel.spectrum(raw)
            raw_norms = _norms(raw, positive=True) if N else None
            # E[psi_xj'(l) | n_ij' = m] into hs[i], and E[psi_ij'(m) | n_xj' = l] into hs[x]
            for into, of, pick, mine in ((i, x, x - i, True), (x, i, 0, False)):
                means, error = _conditional_means(
                    hankel, raw, raw_norms, fc, (num_a[pick], den_a[pick]),
                    (fa_psi[of, :, :W], fa[of, :, :W]),
                    tuple(tuple(v[of] for v in norms) for norms in operand_norms),
                    (span[0][of], span[1][of]), weight[into, :, :W],
                    inside[into, :, :W], term_rtol * _U * row_sd[into][..., None] * sd[of])
                hs[into, :, :W] += means.sum(axis=0) if mine else means
                fft_bound += error
        # psi_ij(k) on the left, psi_ij'(m) + Hs(i, j', m) on the right, and the weights alone
        both = psik[i, :, :W] + hs[i, :, :W]
        raws = (fb * psik[i, :, :W], fb * both, fb)
        left, right, ones = (hankel.spectrum(v) for v in raws)
        nl, nr, no = _norms(raws[0]), _norms(raws[1]), _norms(raws[2], positive=True)
        both_sd = np.sqrt((pk[i, :, :W] * both * both).sum(axis=-1))
        for jj, pp in zip(_blocks(j, 2 * W - 1), _blocks(p, 2 * W - 1)):
            raw = _sum_factor(logs, n - b[jj] - b[pp], a[i], lo[i][jj] + lo[i][pp], 2 * W - 1,
                              -theta[i], runs, cut)
            term_rtol = _term_rtol(runs, W)
            fc = hankel.spectrum(raw)
            z = hankel.form(fc, (ones[jj], ones[pp]))
            num = hankel.form(fc, (left[jj], right[pp]), (left[pp], right[jj]))
            mean = num / np.where(z > 0, z, 1.0)
            if N:
                hn = _norms(raw, positive=True)
                error = _ratio_error(
                    num, z, hankel.form_error(hn, (_at(nl, jj), _at(nr, pp)),
                                              (_at(nl, pp), _at(nr, jj))),
                    hankel.form_error(hn, (_at(no, jj), _at(no, pp))))
                scale = sd[i, jj] * both_sd[pp] + sd[i, pp] * both_sd[jj]
                bad = ~(error <= term_rtol * _U * scale)
                if bad.any():  # these pairs directly
                    h, (lj, lp), (rj, rp), (oj, op) = raw[bad], *(
                        (v[jj[bad]], v[pp[bad]]) for v in raws)
                    z_bad = _direct_form(h, W, ((oj, op),))
                    mean[bad] = _direct_form(h, W, ((lj, rp), (lp, rj))) / np.where(
                        z_bad > 0, z_bad, 1.0)
                fft_bound += float(error[~bad].sum())
            total += float(mean.sum())
        total += float((pk[i] * psik[i] * hs[i]).sum())
    # -- the rounding of everything but the FFT (module docstring, "Rounding")
    big = float(sd.sum())  # sum_c sd_c: every term is at most sd_c sd_c'
    rtol = max(_term_rtol(runs, int(widths.max())), max(runs) + 2.0 * k.shape[-1] + 8)
    ef_error = (pk * (fk_error + (max(runs) + k.shape[-1] + 4) * _U * np.abs(fk))).sum(axis=-1)
    psi_error = np.sqrt((pk * (fk_error + ef_error[..., None] + _U * np.abs(psik)) ** 2).sum(
        axis=-1))
    x_sd = np.sqrt((pk * (kf - (pk * kf).sum(axis=-1)[..., None]) ** 2).sum(axis=-1))
    bound = (2 * rtol * _U * big * big  # the weights and the sums of the terms
             + 2 * big * float(psi_error.sum())  # the values of the terms
             + 2 * np.sqrt(max(total, 0.0)) * float((x_sd * slope_error).sum())  # the slopes
             + _U * (K * Q * k.shape[-1] + 4 * K * (K + Q)) * big * big  # adding the terms up
             + fft_bound)
    return total, bound


def _term_rtol(runs, W):
    """A bound on the relative error of one term of the sums taken directly, in units of u:
    three weights of relative error at most max(runs) each and their products, sums over at
    most W values twice, a ratio, and the same again for the conditional means inside it."""
    return 10.0 * max(runs) + 8.0 * W + 16.0


def _at(norms, index):
    return tuple(v[index] for v in norms)


def _ratio_error(num, den, num_error, den_error):
    """A bound on the error of num / den from those of num and den (inf where den is not
    above twice its error)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 2 * den_error,
                        2 * (num_error + np.abs(num / den) * den_error) / den, np.inf)


def _conditional_means(hankel, raw, raw_norms, fc, spectra, operands, norms, span, weight,
                       inside, tolerance):
    """Conditional means of psi, one per value v of the receiving cell: the ratio of the
    Hankel products sum_w h[v + w] x[w] of the sum factor (``raw``, its spectrum ``fc``) with
    f psi and f (``operands``, their cospectra ``spectra`` and their norms), on the windows
    (``inside``); ``span`` = (min psi, max psi) of the cells of the operands.

    By FFT, a vector of means (one sum factor) gets a bound on what its rounding does to the
    variance, sum_v weight(v) |error(v)|: where the denominator is above twice its error bound
    (Cauchy-Schwarz over v of the 2-norm bounds of the products' errors), else the range of
    psi (a mean is clipped to it). A vector whose bound is above ``tolerance`` (that of the
    same means summed directly) is taken directly. Returns (means, the bounds' sum)."""
    num = hankel.times(fc, spectra[0])
    den = hankel.times(fc, spectra[1])
    means = _ratio(num, den, inside)
    if not hankel.N:
        return means, 0.0
    low, high = (v[..., None] for v in span)
    np.clip(means, low, high, out=means, where=inside & np.isfinite(low))
    bound_num = hankel.times_error(raw_norms, norms[0])
    bound_den = hankel.times_error(raw_norms, norms[1])
    sure = den > 2 * bound_den[..., None]
    sure &= inside
    c1 = np.divide(np.broadcast_to(weight, den.shape), den, out=np.zeros_like(den), where=sure)
    c2 = c1 * means
    error = 2 * (np.sqrt(_dot(c1, c1)) * bound_num + np.sqrt(_dot(c2, c2)) * bound_den)
    unsure = inside & ~sure
    if unsure.any():  # a mean in its range
        error += np.where(unsure, weight * (high - low), 0.0).sum(axis=-1)
    bad = ~(error <= tolerance)  # (..., Q): these vectors directly
    if bad.any():
        idx = np.nonzero(bad)
        rows = _view(raw, hankel.W, axis=-1)[idx]  # h[v + w], (bad, W, W)
        lead = idx if operands[0].ndim == raw.ndim else idx[1:]
        num_bad = np.einsum("bvw,bw->bv", rows, operands[0][lead])
        den_bad = np.einsum("bvw,bw->bv", rows, operands[1][lead])
        means[idx] = _ratio(num_bad, den_bad, np.broadcast_to(inside, means.shape)[idx])
    return means, float(error[~bad].sum())


def variance_of_mi(rows, cols) -> float:
    """Exact Var[MI] (nats^2) under fixed margins: Var[n MI] / n^2.

    >>> v = variance_of_mi([2, 2], [2, 2])   # MI is log 2 with probability 1/3, else 0
    >>> bool(abs(v - np.log(2) ** 2 * (1 / 3) * (2 / 3)) < 1e-15)
    True
    """
    n = float(np.asarray(rows).sum())
    return n_mi_variance(rows, cols) / (n * n)
