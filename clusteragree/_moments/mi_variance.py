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

a triple sum per pair of cells, as in Romano et al. (2014), Theorem 1. Centring each cell's
term at its mean (and using f, not n log n, whose linear parts cancel over the table because
sum_c n_c log mu_c is fixed by the margins) keeps the terms of order one: no cancellation of
large numbers.

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
Probabilities inside a window come from the ratio of neighbours (one log per term; no
differences of log-factorials of size n log n), normalised by the window's sum.

Hankel products by FFT. Each double sum over two cells' windows has the form
sum_(k, m) x(k) y(m) h(k + m) (a factor of each value and one of their sum, ``n_mi_variance``):
a Hankel matrix times a vector, i.e. a correlation, O(W log W) by FFT instead of O(W^2). FFT
rounding is absolute, about 1e-16 times the norms of the inputs; the factors are tilted to a
maximum of 1, and each conditional mean is the ratio of two such products whose denominator,
inside the window, falls off from its peak no faster than the cell's own law (a less concave
law with the same mode), so the rounding stays below that of the sums themselves: on 400
random tables (n = 10 to 10^5, 1 to 10 clusters a side, lopsided to equal margins) the FFT and
the direct products agreed to 3e-12 relatively. Rounding of the result itself: n log n and
the log factorials carry absolute errors of about 1e-16 n log n, and Var[n MI] is of order
the number of cells, so two orders of summation (a table and its transpose) differ by about
1e-10 relatively at n = 10^5 and 1e-9 at n = 10^6, with direct products as with the FFT.
"""

from __future__ import annotations

import numpy as np
import scipy.fft as sfft
from scipy.special import gammaln

from .cells import T_CAP, log_weight, positive_margins, tilted_mode

__all__ = ["LOG_TAIL_VAR", "LOG_TAIL_POWER", "variance_of_mi", "n_mi_variance",
           "variance_of_power_sum", "power_sum_scale", "power_sum_within_windows",
           "variance_work", "check_variance_time", "SECONDS_PER_WORK", "DEFAULT_MAX_SECONDS"]

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


def _laws(P, d, s):
    """Window laws of Hypergeom(P, d, s) for arrays of parameters (shape S): returns
    values x (S + (W,), clipped to each window) and pmf (0 outside each window), built from
    the ratio of neighbours p(x) / p(x-1) = (s - x + 1)(d - x + 1) / (x (P - s - d + x))
    (one log per term, accumulated and normalised by the window's sum)."""
    P, d, s = (np.asarray(v, dtype=np.int64) for v in np.broadcast_arrays(P, d, s))
    lo, hi = _windows(P, d, s)
    W = int((hi - lo).max()) + 1 if lo.size else 1
    x = lo[..., None] + np.arange(W)
    inside = x <= hi[..., None]
    xc = np.minimum(x, hi[..., None])
    xf = xc.astype(float)
    sf, df = s[..., None].astype(float), d[..., None].astype(float)
    rest = (P - s - d)[..., None].astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        step = np.log((sf - xf + 1) * (df - xf + 1) / (xf * (rest + xf)))
    step[..., 0] = 0.0
    step = np.where(inside, step, 0.0)
    logw = np.cumsum(step, axis=-1)
    logw -= logw.max(axis=-1, keepdims=True)
    w = np.where(inside, np.exp(logw), 0.0)
    return xc, w / w.sum(axis=-1, keepdims=True)


_margins = positive_margins


def _n_mi_variance_direct(rows, cols) -> float:
    """Var[n MI] by the conditional laws term by term (slow; the tests' second opinion)."""
    a, b, n = _margins(rows, cols)
    K, Q = len(a), len(b)
    if K < 2 or Q < 2:
        return 0.0
    xlx = np.zeros(n + 1)
    xlx[1:] = np.arange(1, n + 1) * np.log(np.arange(1, n + 1, dtype=float))
    logmu = np.log(a.astype(float))[:, None] + np.log(b.astype(float))[None, :] - np.log(n)

    # marginal laws of the cells, (K, Q, W)
    k, pk = _laws(n, a[:, None], b[None, :])
    ef = (pk * (xlx[k] - k * logmu[..., None])).sum(axis=-1)  # E[f(n_ij)]

    def psi(i, j, x):  # psi_ij(x) for index arrays i, j broadcast against x
        return xlx[x] - x * logmu[i, j] - ef[i, j]

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
    a, b, n = _margins(rows, cols)
    if len(a) < 2 or len(b) < 2 or a.max() == 1 or b.max() == 1:
        return 0.0  # one table, or every cell 0 or 1: t = 0 on every table
    logmu = np.log(a.astype(float))[:, None] + np.log(b.astype(float))[None, :] - np.log(n)
    return _n_variance(a, b, n, _xlogx, logmu)


def _xlogx(x):
    """x log x (0 at 0) of integers x."""
    x = x.astype(float)
    return x * np.log(np.where(x > 0, x, 1.0))


def variance_of_power_sum(rows, cols, q: float, scale: float = 1.0) -> float:
    """Var[sum_ij (n_ij / scale)^q] under fixed margins, by the same sums as ``n_mi_variance``
    with f(x) = (x / scale)^q. A term alpha_i + beta_j in the slope of f leaves the variance
    unchanged (its sum over the table is fixed by the margins); the two-way additive part of
    the tangent slope f'(mu_ij) at the cells' means is taken out, so that the centred terms stay
    small. Powers are taken of x / scale: with ``scale`` at least the largest value of the
    windows (``power_sum_scale``) nothing overflows for any q. The sums cover each cell's
    window of its law: they are exact only where the weights x^q and x^(2q) leave the windows
    no more of their mass than the law does (``power_sum_within_windows``).

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
    with np.errstate(under="ignore"):
        mu = np.outer(a.astype(float), b.astype(float)) / n
        tangent = q / scale * (mu / scale) ** (q - 1)
    additive = (tangent.mean(axis=1, keepdims=True) + tangent.mean(axis=0, keepdims=True)
                - tangent.mean())

    def power(x):
        with np.errstate(under="ignore"):
            return (x / scale) ** q

    return _n_variance(a, b, n, power, additive)


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
            H = _view(h, self.W, axis=-1)
            return sum(np.einsum("...v,...v->...", np.einsum("...w,...wv->...v", x, H), y)
                       for x, y in pairs)
        conv = sum(x * y for x, y in pairs)  # Re(conj(h) conv), weighted: a dot of the parts
        return np.einsum("...i,...i->...", (h * self.weight).view(np.float64),
                         conv.view(np.float64))


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


def _sum_factor(lf, R, c, base, t, theta, theta_t):
    """C(R, c - s) exp(-theta s) on s = base + t (0 where c - s is outside [0, R]), over its
    largest value (``_tilted``); R, c, base, theta broadcast against each other (shape S),
    theta_t = theta t against S + t.shape. Where c - s is within [0, R] on every s, the log
    factorials are slices of ``lf`` (no index per value)."""
    L = len(t)
    R, c, base = np.broadcast_arrays(R, c, base)
    d = c - base  # c - s at t = 0
    logw = (lf[R] - theta * base)[..., None]
    if (d >= L - 1).all() and (d <= R).all():
        rows = _view(lf, L)
        logw = logw - rows[d - (L - 1)][..., ::-1]  # log (c - s)!
        logw -= rows[R - d]  # log (R - c + s)!
        logw -= theta_t
        return _tilted(logw)
    top = d[..., None] - t
    ok = (top >= 0) & (top <= R[..., None])
    np.clip(top, 0, R[..., None], out=top)
    logw = logw - lf[top]
    logw -= lf[R[..., None] - top]
    logw -= theta_t
    return _tilted(logw, ok)


def _n_variance(a, b, n, f, slope, fft_from=None) -> float:
    """Var[sum_ij f(n_ij)] for f a function of arrays of counts, centring each cell's term with
    ``slope`` (K, Q), which must be additive (alpha_i + beta_j): see ``n_mi_variance``.

    Both double sums are Hankel products (``_Hankel``): the factor of the sum s of the two
    values depends on the pair of rows (columns) but not on its order, so each unordered pair
    is prepared once and serves both orders. The table is taken the way of less work (rows the
    shorter side, mostly: pairs of rows cost more than pairs of columns), the rows by decreasing
    width of their windows: the pairs (i, i' > i) and the row i itself then need only the
    width of row i."""
    fft_from = FFT_MIN_WIDTH if fft_from is None else fft_from
    a, b, widths, transposed, order, work = _oriented(a, b, n)
    slope = (slope.T if transposed else slope)[order]  # Var[t] is that of the transposed table
    K, Q = len(a), len(b)
    lf = np.arange(1.0, n + 3.0)
    gammaln(lf, out=lf)  # log x!, x = 0..n+1 (in place: 8 bytes an object)
    k, pk = _laws(n, a[:, None], b[None, :])  # marginal laws, (K, Q, W)
    fk = f(k) - k * slope[..., None]
    ef = (pk * fk).sum(axis=-1)  # E[f(n_ij)] (less the centring slope)
    psik = fk - ef[..., None]
    total = float((pk * psik * psik).sum())
    inside = pk > 0
    lo = k[..., 0]
    # Hs(i, j', m) = sum_(i' != i) E[psi_i'j'(l) | n_ij' = m], l = n_i'j' on its window: the
    # law of l is proportional to C(a_i', l) C(n - a_i - a_i', b_j' - m - l), the first factor
    # the same for every i, the second a function of s = m + l and of {i, i'}. Factors are
    # tilted by exp(+-theta_c x), theta_c the slope of log C(a_i', l) at its conditional mean.
    theta_c = np.log(b / (n - b))
    fa = _tilted(lf[a][:, None, None] - lf[k] - lf[a[:, None, None] - k]
                 + theta_c[:, None] * k, inside)  # (K, Q, W)
    hs = np.zeros(k.shape)
    j, p = np.triu_indices(Q, 1)  # the pairs of columns j < j'
    spectra = (-1, 0, None, None)  # the rows' spectra: FFT length, first row, psi, 1
    for i in _rows(K, work * SECONDS_PER_WORK):
        W = int(widths[i])
        t = np.arange(2 * W - 1)
        N = sfft.next_fast_len(2 * W - 1, real=True) if W >= fft_from else 0
        if N and 2 * W - 1 <= spectra[0] <= 1.25 * N:
            N = spectra[0]  # the rows' spectra of a wider row serve (within 25% of the best)
        hankel = _Hankel(W, N)
        if N != spectra[0] or not N:
            spectra = (N, i, hankel.cospectrum(fa[i:, :, :W] * psik[i:, :, :W]),
                       hankel.cospectrum(fa[i:, :, :W]))
        num_a, den_a = spectra[2][i - spectra[1]:], spectra[3][i - spectra[1]:]
        for x in _blocks(np.arange(i + 1, K), Q * (2 * W - 1)):  # rows (i, x > i): both ways
            fc = hankel.spectrum(_sum_factor(
                lf, (n - a[i] - a[x])[:, None], b[None, :], lo[i][None, :] + lo[x], t,
                theta_c[None, :], theta_c[:, None] * t))  # (len(x), Q, 2W-1) over its max
            hs[i, :, :W] += _ratio(hankel.times(fc, num_a[x - i]),
                                   hankel.times(fc, den_a[x - i]), inside[i, :, :W]).sum(axis=0)
            hs[x, :, :W] += _ratio(hankel.times(fc, num_a[0]), hankel.times(fc, den_a[0]),
                                   inside[x, :, :W])
        # -- same row: joint law of (n_ij = k, n_ij' = m) proportional to C(b_j, k) C(b_j', m)
        # C(n - b_j - b_j', a_i - k - m), s = k + m, for j < j' (both ways)
        theta = np.log(a[i] / (n - a[i]))
        ki = k[i, :, :W]  # (Q, W)
        fb = _tilted(lf[b][:, None] - lf[ki] - lf[b[:, None] - ki] + theta * ki,
                     inside[i, :, :W])  # (Q, W)
        # psi_ij(k) on the left, psi_ij'(m) + Hs(i, j', m) on the right, and the weights alone
        left, right, ones = (hankel.spectrum(fb * v) for v in (
            psik[i, :, :W], psik[i, :, :W] + hs[i, :, :W], 1.0))
        for jj, pp in zip(_blocks(j, 2 * W - 1), _blocks(p, 2 * W - 1)):
            fc = hankel.spectrum(_sum_factor(lf, n - b[jj] - b[pp], a[i], lo[i][jj] + lo[i][pp],
                                             t, theta, theta * t))
            z = hankel.form(fc, (ones[jj], ones[pp]))
            num = hankel.form(fc, (left[jj], right[pp]), (left[pp], right[jj]))
            total += float((num / np.where(z > 0, z, 1.0)).sum())
        total += float((pk[i] * psik[i] * hs[i]).sum())
    return max(total, 0.0)


def variance_of_mi(rows, cols) -> float:
    """Exact Var[MI] (nats^2) under fixed margins: Var[n MI] / n^2.

    >>> v = variance_of_mi([2, 2], [2, 2])   # MI is log 2 with probability 1/3, else 0
    >>> bool(abs(v - np.log(2) ** 2 * (1 / 3) * (2 / 3)) < 1e-15)
    True
    """
    n = float(np.asarray(rows).sum())
    return n_mi_variance(rows, cols) / (n * n)
