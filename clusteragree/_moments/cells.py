"""Laws of single cells of a random table with fixed margins (private, lowest layer).

Under the permutation null (both margins fixed) the cell n_ij of a K x Q table is
hypergeometric: n_ij ~ Hypergeom(n, a_i, b_j), with support max(0, a_i + b_j - n) ..
min(a_i, b_j). Sums over that support (the expected mutual information of Vinh et al. 2010,
Amorim 2015, ch. 5 eq 4, and later moments) need only the part of the support where the probability is
not negligible in double precision.

Window. Hoeffding (1963, Thm. 4) shows that sampling without replacement obeys the bounds of
the binomial with the same number of draws m = min(a, b) and success rate p = max(a, b) / n:
the additive bound P(|X - m p| >= h) <= exp(-2 h^2 / m), and the tighter Chernoff bound
P(X >= m t) <= exp(-m KL(t || p)) for t >= p (likewise below the mean). We keep the values
within h = sqrt(m LOG_TAIL / 2) of the mean (tail mass below e^-45 ~ 3e-20 on each side, one
square root per cell) and, when that still leaves many terms, those with
m KL(t || p) <= LOG_TAIL, found by vectorised bisection.

Probabilities. Inside the window the pmf is built from the exact ratio of neighbours,
p(k+1) / p(k) = (a - k)(b - k) / ((k + 1)(n - a - b + k + 1)), accumulated in logs and normalised
by the window's sum. This avoids differences of log-gammas of size n log n, so the relative error
of each probability stays near machine precision even for n = 10^9.
"""

from __future__ import annotations

import numpy as np
from scipy.special import exprel, gammaln

__all__ = ["LOG_TAIL", "T_CAP", "cell_windows", "cell_laws", "expected_xlogx_sum",
           "expected_mutual_information", "expected_xlogx_of_sizes", "expected_mi_of_sizes",
           "tilted_mode", "tilted_windows", "expected_scaled_power_sum", "log_weight",
           "expected_mutual_information_batch", "tsallis_terms", "expected_tsallis_sum"]

LOG_TAIL = 45.0  # e^-45 ~ 3e-20 per tail: far below double precision relative to the sum
#: Below this many terms in all (within Hoeffding's additive window), no tighter window is
#: searched for.
SMALL_SUPPORT = 20_000


def _kl(t, p):
    """Bernoulli Kullback-Leibler divergence KL(t || p), 0 log 0 = 0 (call under errstate)."""
    a = np.where(t > 0, t * np.log(t / p), 0.0)
    b = np.where(t < 1, (1 - t) * np.log((1 - t) / (1 - p)), 0.0)
    return a + b


def _solve(lo, hi, p, target, increasing, steps):
    """Bisection for t in [lo, hi] with KL(t || p) = target (KL monotone on the interval)."""
    for _ in range(steps):
        mid = 0.5 * (lo + hi)
        above = _kl(mid, p) > target
        if increasing:
            hi = np.where(above, mid, hi)
            lo = np.where(above, lo, mid)
        else:
            lo = np.where(above, mid, lo)
            hi = np.where(above, hi, mid)
    return lo, hi


def cell_windows(a, b, n, log_tail: float = LOG_TAIL):
    """Integer windows [lo, hi] holding all but e^-log_tail of each tail of Hypergeom(n, a, b).

    ``a`` and ``b`` are broadcast against each other (e.g. rows[:, None], cols[None, :]).
    """
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))
    sup_lo = np.maximum(0, a + b - n)
    sup_hi = np.minimum(a, b)
    # Hoeffding's additive bound, P(|X - ab/n| >= h) <= e^-log_tail for h = sqrt(m log_tail / 2)
    # (m = min(a, b) draws): one square root per cell
    mean = a * (b / float(n))
    h = np.sqrt(sup_hi * (log_tail / 2.0)) + 1.0
    sup_lo = np.maximum(sup_lo, np.floor(mean - h).astype(np.int64))
    sup_hi = np.minimum(sup_hi, np.ceil(mean + h).astype(np.int64))
    if int((sup_hi - sup_lo + 1).sum()) <= SMALL_SUPPORT:
        return sup_lo, sup_hi  # few terms: no tighter window is worth its search
    m = np.minimum(a, b).astype(float)
    p = np.maximum(a, b) / float(n)
    with np.errstate(divide="ignore"):
        target = np.where(m > 0, log_tail / np.maximum(m, 1.0), np.inf)
    interior = (p > 0) & (p < 1) & (m > 0)
    pp = np.where(interior, p, 0.5)
    # t must be found to within 1/m (whole values of m t), and a little more for safety
    steps = int(np.ceil(np.log2(max(float(m.max()), 1.0)))) + 6 if m.size else 0
    with np.errstate(divide="ignore", invalid="ignore"):
        # Upper tail: only truncate where the bound at t = 1 already beats the target.
        cut_up = interior & (_kl(np.ones_like(pp), pp) > target)
        _, t_up = _solve(pp.copy(), np.ones_like(pp), pp, target, True, steps)
        cut_lo = interior & (_kl(np.zeros_like(pp), pp) > target)
        t_lo, _ = _solve(np.zeros_like(pp), pp.copy(), pp, target, False, steps)
    # the bisection keeps t_up above and t_lo below the crossing: the windows only widen
    hi = np.where(cut_up, np.minimum(sup_hi, np.ceil(m * t_up).astype(np.int64)), sup_hi)
    lo = np.where(cut_lo, np.maximum(sup_lo, np.floor(m * t_lo).astype(np.int64)), sup_lo)
    return lo, hi


def cell_laws(a, b, n, log_tail: float = LOG_TAIL):
    """The non-negligible part of the law of every cell Hypergeom(n, a_c, b_c).

    Parameters
    ----------
    a, b : 1-D int arrays of equal length C (one entry per cell c)
    n : int, the number of objects

    Returns
    -------
    cell : int array, the cell c of each term
    k : int array, the value of n_c
    pmf : float array, P(n_c = k) (each cell's probabilities sum to 1 up to e^-log_tail)

    >>> cell, k, pmf = cell_laws(np.array([2]), np.array([2]), 4)
    >>> k.tolist(), np.round(pmf * 6, 12).tolist()   # 1/6, 4/6, 1/6
    ([0, 1, 2], [1.0, 4.0, 1.0])
    """
    a = np.asarray(a, dtype=np.int64).ravel()
    b = np.asarray(b, dtype=np.int64).ravel()
    lo, hi = cell_windows(a, b, n, log_tail)
    cell, k, rel, total = _window_log_laws(a, b, n, lo, hi)
    return cell, k, np.exp(rel) / total


def positive_margins(rows, cols):
    """The non-zero row and column margins as int64 arrays, and their common total n."""
    a = np.asarray(rows, dtype=np.int64).ravel()
    b = np.asarray(cols, dtype=np.int64).ravel()
    a, b = a[a > 0], b[b > 0]
    n = int(a.sum())
    if n != int(b.sum()):
        raise ValueError(f"row and column margins must have the same total, got {n} and "
                         f"{int(b.sum())}")
    return a, b, n


def _distinct_sizes(rows, cols):
    """The distinct non-zero margins of each side with their multiplicities, and n."""
    a, b, n = positive_margins(rows, cols)
    ua, ca = np.unique(a, return_counts=True)
    ub, cb = np.unique(b, return_counts=True)
    return ua, ca.astype(float), ub, cb.astype(float), n


#: Terms (cell values) held at once when summing over many pairs of block sizes.
_CHUNK_TERMS = 4_000_000


def _pair_chunks(sa, wa, sb, wb, n):
    """cell_laws over all pairs (a, b) of block sizes, in chunks of bounded memory: yields
    (weight of each pair, a, b, cell, k, pmf) with cell indexing the chunk's pairs."""
    A, B = np.meshgrid(sa, sb, indexing="ij")
    W = np.multiply.outer(wa, wb)
    A, B, W = A.ravel(), B.ravel(), W.ravel()
    width = np.minimum(A, B) - np.maximum(0, A + B - n) + 1  # upper bounds of the windows
    ends = np.cumsum(width)
    start = 0
    while start < len(A):
        stop = int(np.searchsorted(ends, ends[start] - width[start] + _CHUNK_TERMS, "right"))
        stop = max(stop, start + 1)
        cell, k, pmf = cell_laws(A[start:stop], B[start:stop], n)
        yield W[start:stop], A[start:stop], B[start:stop], cell, k, pmf
        start = stop


def _log_table(top: int) -> np.ndarray:
    """log k for k = 0..top (log 0 set to 0: it is always multiplied by k = 0)."""
    out = np.zeros(top + 1)
    out[1:] = np.log(np.arange(1, top + 1, dtype=float))
    return out


def expected_xlogx_of_sizes(sa, wa, sb, wb, n) -> float:
    """E[sum_ij n_ij log n_ij] when x has, on average, ``wa`` blocks of each size ``sa`` and y
    ``wb`` blocks of each size ``sb``, and a block of x and one of y meet like two uniformly
    random subsets (a hypergeometric cell): sum_(a, b) w_a w_b E[H log H]."""
    total = 0.0
    for w, _, _, cell, k, pmf in _pair_chunks(sa, wa, sb, wb, n):
        logk = _log_table(int(k.max()))
        total += float((w[cell] * pmf * k * logk[k]).sum())
    return total


def tsallis_terms(x, q):
    """(x^q - x) / (q - 1) = x log x exprel((q - 1) log x) (0 at x = 0; x log x at q = 1), for
    x >= 0 and q near 1 (|q - 1| log x below about 700): no difference of nearly equal
    numbers, each value within a few u of itself (one log, one exprel, two products).

    >>> round(float(tsallis_terms(np.float64(3.0), 2.0)), 12)   # (9 - 3) / 1
    6.0
    >>> bool(abs(tsallis_terms(np.float64(3.0), 1 + 1e-12) / (3 * np.log(3)) - 1) < 1e-11)
    True
    """
    x = np.asarray(x, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        logx = np.where(x > 0, np.log(np.where(x > 0, x, 1.0)), 0.0)
    return x * logx * exprel((float(q) - 1.0) * logx)


def expected_tsallis_sum(rows, cols, q: float) -> float:
    """E[sum_ij (n_ij^q - n_ij) / (q - 1)] under fixed margins (``tsallis_terms``: E[sum n_ij
    log n_ij] at q = 1), over the windows of each distinct pair of margins, for q near 1
    (where the weights n^q move the laws' mass by a negligible amount): a sum of terms of one
    sign, each within a few u, with the windows' probabilities (``cell_laws``).

    >>> round(expected_tsallis_sum([2, 2], [2, 2], 2.0), 12)   # (E[s] - 4) / 1, E[s] = 16/3
    1.333333333333
    """
    sa, wa, sb, wb, n = _distinct_sizes(rows, cols)
    total = 0.0
    for w, _, _, cell, k, pmf in _pair_chunks(sa, wa, sb, wb, n):
        total += float((w[cell] * pmf * tsallis_terms(k, q)).sum())
    return total


def expected_mi_of_sizes(sa, wa, sb, wb, n) -> float:
    """E[MI] = sum_(a, b) w_a w_b E[(H / n) log(n H / (a b))], H ~ Hypergeom(n, a, b): Vinh et
    al.'s expected mutual information with block sizes of weights ``wa``, ``wb`` (the
    multiplicities of the margins under fixed margins; expected numbers of blocks of each size
    under a random partition model)."""
    total = 0.0
    for w, A, B, cell, k, pmf in _pair_chunks(sa, wa, sb, wb, n):
        keep = k > 0  # k = 0 contributes 0 log 0 = 0
        cell, kf, pmf = cell[keep], k[keep].astype(float), pmf[keep]
        ab = (A.astype(float) * B)[cell]
        # one log of a ratio near 1 per term: summing log k and -log(ab/n) instead would lose
        # the few significant digits E[MI] keeps when it is tiny
        total += float((w[cell] * pmf * kf * np.log(n * kf / ab)).sum())
    return max(total / n, 0.0)


def expected_xlogx_sum(rows, cols) -> float:
    """E[t], t = sum_ij n_ij log n_ij, over all tables with the given margins (exact up to the
    e^-LOG_TAIL window), summing each distinct pair of margins (a, b) once."""
    return expected_xlogx_of_sizes(*_distinct_sizes(rows, cols))


def expected_mutual_information(rows, cols) -> float:
    """E[MI] = sum_ij E[(n_ij / n) log(n n_ij / (a_i b_j))] (Vinh, Epps & Bailey 2010) under
    fixed margins, term by term, over the windows of each distinct pair of margins."""
    return expected_mi_of_sizes(*_distinct_sizes(rows, cols))


def expected_mutual_information_batch(rows, cols) -> np.ndarray:
    """E[MI] of each table of a batch from its margins: ``rows`` (B, K) and ``cols`` (B, Q),
    empty clusters (0) allowed, each table with its own total.

    The term E[(H / n) log(n H / (a b))], H ~ Hypergeom(n, a, b), of each distinct triple
    (a, b, n) in the batch is summed once, over its window (as ``expected_mutual_information``
    sums one table's), and each table adds the terms of its K x Q pairs: tables resampled
    from one table (a bootstrap), whose margins differ but share most of their (a, b) pairs,
    cost little more than one table each.

    >>> rows, cols = np.array([[50, 30], [40, 40]]), np.array([[40, 40], [60, 20]])
    >>> batch = expected_mutual_information_batch(rows, cols)
    >>> bool(np.allclose(batch, [expected_mutual_information(r, c) for r, c in zip(rows, cols)],
    ...                  rtol=1e-12, atol=0))
    True
    """
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    totals = rows.sum(axis=1)
    if not np.array_equal(totals, cols.sum(axis=1)):
        raise ValueError("row and column margins must have the same total in every table")
    out = np.zeros(len(rows))
    for n in np.unique(totals):
        sel = np.flatnonzero(totals == n)
        A = np.broadcast_to(rows[sel][:, :, None], (sel.size, rows.shape[1], cols.shape[1]))
        B = np.broadcast_to(cols[sel][:, None, :], A.shape)
        a_all, b_all = A.ravel(), B.ravel()
        valid = (a_all > 0) & (b_all > 0)
        # one int64 key per pair (a, b <= n): a 1-D unique, far faster than unique rows
        keys, inv = np.unique(a_all[valid] * (int(n) + 1) + b_all[valid], return_inverse=True)
        uniq = np.stack((keys // (int(n) + 1), keys % (int(n) + 1)), axis=1)
        term = np.zeros(len(uniq))
        width = np.minimum(uniq[:, 0], uniq[:, 1]) + 1  # upper bounds of the windows
        ends = np.cumsum(width)
        start = 0
        while start < len(uniq):  # chunks of bounded memory, as _pair_chunks
            stop = int(np.searchsorted(ends, ends[start] - width[start] + _CHUNK_TERMS,
                                       "right"))
            stop = max(stop, start + 1)
            a, b = uniq[start:stop, 0], uniq[start:stop, 1]
            cell, k, pmf = cell_laws(a, b, int(n))
            keep = k > 0
            cell, kf, pmf = cell[keep], k[keep].astype(float), pmf[keep]
            ab = (a.astype(float) * b)[cell]
            term[start:stop] = np.bincount(cell, weights=pmf * kf * np.log(n * kf / ab),
                                           minlength=stop - start)
            start = stop
        per_pair = np.zeros(valid.size)
        per_pair[valid] = term[inv.ravel()]
        out[sel] = np.maximum(per_pair.reshape(sel.size, -1).sum(axis=1) / n, 0.0)
    return out


# -- laws weighted by a power: E[X^t] is carried by the values where P(X = k) k^t is large,
# far in the upper tail when t is large, so the windows above (tails of P alone) miss it.

#: Orders beyond this give the same doubles as this one: a ratio k / s < 1 of integers up to
#: 2^53 has (k / s)^t < e^-800 (0 in double precision), so every such power is already 0.
T_CAP = 1e19


def log_weight(k, a, b, n, t):
    """log P(X = k) + t log k up to a constant in k, X ~ Hypergeom(n, a, b) (log-gamma form:
    for choosing windows only, where an absolute error of eps n log n does not matter)."""
    k = np.asarray(k, dtype=float)
    with np.errstate(divide="ignore"):
        logk = np.log(k)
    return (np.where(k > 0, t * logk, -np.inf) - gammaln(k + 1) - gammaln(a - k + 1)
            - gammaln(b - k + 1) - gammaln(n - a - b + k + 1))


def tilted_mode(a, b, n, t):
    """The mode of k -> P(X = k) k^t over k >= 1 in the support of X ~ Hypergeom(n, a, b)
    (t > 0; arrays broadcast). The law is log-concave and so is k^t: the sequence is unimodal,
    and the mode is the last k whose ratio to its predecessor is at least 1 (bisection on the
    exact ratio of neighbours)."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))
    t = min(float(t), T_CAP)
    lo = np.maximum(1, a + b - n)
    hi = np.minimum(a, b)
    while True:
        active = lo < hi
        if not active.any():
            return lo
        mid = (lo + hi + 1) // 2
        kf = mid.astype(float)
        af, bf = a.astype(float), b.astype(float)
        with np.errstate(divide="ignore", invalid="ignore"):
            step = (np.log((af - kf + 1) * (bf - kf + 1)) - np.log(kf * (n - af - bf + kf))
                    + t * np.log1p(1.0 / (kf - 1)))
        up = active & ((mid == 1) | (step >= 0))
        lo = np.where(up, mid, lo)
        hi = np.where(active & ~up, mid - 1, hi)


def tilted_windows(a, b, n, t, log_tail: float = LOG_TAIL):
    """Integer windows [lo, hi] (k >= 1) holding all but e^-log_tail of sum_k P(X = k) k^t,
    X ~ Hypergeom(n, a, b), t > 0 (arrays broadcast).

    The weights w(k) = P(X = k) k^t are log-concave with mode m (``tilted_mode``). If
    log w(m) - log w(c + 1) > D, the chord from m to c + 1 bounds log w beyond c, so the tail
    past c is at most w(m) e^-D (1 + (c + 1 - m) / D) <= w(m) e^-D (1 + width); with
    D = log_tail + log(1 + width) it is below e^-log_tail of w(m), hence of the total. Each end
    is the last value within D of the mode (bisection on the log-gamma form)."""
    a, b = np.broadcast_arrays(np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64))
    t = min(float(t), T_CAP)
    sup_lo = np.maximum(1, a + b - n)
    sup_hi = np.minimum(a, b)
    mode = tilted_mode(a, b, n, t)
    af, bf = a.astype(float), b.astype(float)
    top = log_weight(mode, af, bf, n, t)
    drop = log_tail + np.log1p((sup_hi - sup_lo + 1).astype(float))

    def within(k):
        return top - log_weight(k, af, bf, n, t) <= drop

    lo, hi = mode.copy(), sup_hi.copy()  # upper end: the last k in [mode, sup_hi] within D
    while (lo < hi).any():
        mid = (lo + hi + 1) // 2
        ok = within(mid)
        lo, hi = np.where(ok, mid, lo), np.where(ok, hi, mid - 1)
    upper = lo
    lo, hi = sup_lo.copy(), mode.copy()  # lower end: the first k in [sup_lo, mode] within D
    while (lo < hi).any():
        mid = (lo + hi) // 2
        ok = within(mid)
        lo, hi = np.where(ok, lo, mid + 1), np.where(ok, mid, hi)
    return lo, upper


def _window_log_laws(a, b, n, lo, hi):
    """The law of each cell c over its window [lo_c, hi_c], X_c ~ Hypergeom(n, a_c, b_c),
    from the ratio of neighbours (as ``cell_laws``; the window must hold all but a negligible
    part of the law): returns cell, k, the log of each weight relative to its window's
    largest, and the sum of the weights of each term's window (P(X_c = k) = e^rel / sum)."""
    width = hi - lo + 1
    starts = np.concatenate(([0], np.cumsum(width)[:-1]))
    cell = np.repeat(np.arange(len(a)), width)
    k = np.arange(int(width.sum())) + np.repeat(lo - starts, width)
    kf = k.astype(float)
    af, bf = np.repeat(a.astype(float), width), np.repeat(b.astype(float), width)
    # log p(k) - log p(k-1) for k > lo (one log of the neighbours' ratio); 0 at window starts
    with np.errstate(divide="ignore", invalid="ignore"):
        step = np.log((af - kf + 1) * (bf - kf + 1) / (kf * (n - af - bf + kf)))
    step[starts] = 0.0
    logp = np.cumsum(step)
    logp -= np.repeat(logp[starts], width)
    logp -= np.repeat(np.maximum.reduceat(logp, starts), width)
    with np.errstate(under="ignore"):
        total = np.add.reduceat(np.exp(logp), starts)
    return cell, k, logp, np.repeat(total, width)


def expected_scaled_power_sum(rows, cols, q: float, scale: float) -> float:
    """E[sum_ij (n_ij / scale)^q] under fixed margins (q > 0), each distinct pair of margins
    once, over windows that hold both the law (``cell_windows``) and its weights k^q
    (``tilted_windows``): a large q moves the expectation into the upper tail. Every term is
    P(k) (k / scale)^q, a product of two numbers at most 1 for a scale at least the largest
    cell (in logs where P(k) alone underflows): nothing overflows, and a term that underflows
    is below 1e-308 of scale^q."""
    sa, wa, sb, wb, n = _distinct_sizes(rows, cols)
    q = min(float(q), T_CAP)
    A, B = (v.ravel() for v in np.meshgrid(sa, sb, indexing="ij"))
    W = np.multiply.outer(wa, wb).ravel()
    blo, bhi = cell_windows(A, B, n)
    tlo, thi = tilted_windows(A, B, n, q)
    lo, hi = np.minimum(blo, tlo), np.maximum(bhi, thi)
    ends = np.cumsum(hi - lo + 1)
    total, start = 0.0, 0
    while start < len(A):
        stop = int(np.searchsorted(ends, ends[start] - (hi[start] - lo[start] + 1)
                                   + _CHUNK_TERMS, "right"))
        stop = max(stop, start + 1)
        part = slice(start, stop)
        cell, k, rel, norm = _window_log_laws(A[part], B[part], n, lo[part], hi[part])
        keep = k > 0  # 0^q = 0
        cell, k, rel, norm = cell[keep], k[keep], rel[keep], norm[keep]
        ratio = k / float(scale)
        with np.errstate(under="ignore"):
            terms = np.exp(rel) / norm * ratio ** q  # P(k) (k / scale)^q
            # in logs where P(k) alone is below the double range (the power carries it back)
            far = rel < -700.0
            if far.any():
                terms[far] = np.exp(rel[far] + q * np.log(ratio[far])) / norm[far]
        total += float((W[part][cell] * terms).sum())
        start = stop
    return total
