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
makes each tail at most e^-L. With L = 36 each law drops at most 2 e^-36 ~ 5e-16 of its mass,
and each conditional expectation at most that times max |psi| on the support.
Probabilities inside a window are exp of differences of log-factorials (a table up to n),
normalised by the window's sum.
"""

from __future__ import annotations

import numpy as np
from scipy.special import gammaln

__all__ = ["LOG_TAIL_VAR", "variance_of_mi", "n_mi_variance"]

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


def _laws(P, d, s, lf):
    """Window laws of Hypergeom(P, d, s) for arrays of parameters (shape S): returns
    values x (S + (W,)) and pmf (0 outside each window)."""
    P, d, s = (np.asarray(v, dtype=np.int64) for v in np.broadcast_arrays(P, d, s))
    lo, hi = _windows(P, d, s)
    W = int((hi - lo).max()) + 1 if lo.size else 1
    x = lo[..., None] + np.arange(W)
    inside = x <= hi[..., None]
    xc = np.minimum(x, hi[..., None])
    dd, ss, PP = d[..., None], s[..., None], P[..., None]
    logw = -(lf[xc] + lf[ss - xc] + lf[dd - xc] + lf[PP - ss - dd + xc])
    logw = np.where(inside, logw, -np.inf)
    logw -= logw.max(axis=-1, keepdims=True)
    w = np.exp(logw)
    return xc, w / w.sum(axis=-1, keepdims=True)


def n_mi_variance(rows, cols) -> float:
    """Var[n MI] = Var[sum_ij n_ij log n_ij] under fixed margins (see the module docstring)."""
    a = np.asarray(rows, dtype=np.int64).ravel()
    b = np.asarray(cols, dtype=np.int64).ravel()
    a, b = a[a > 0], b[b > 0]
    n = int(a.sum())
    if n != int(b.sum()):
        raise ValueError(f"row and column margins must have the same total, got {n} and "
                         f"{int(b.sum())}")
    K, Q = len(a), len(b)
    if K < 2 or Q < 2:
        return 0.0
    lf = gammaln(np.arange(n + 2, dtype=float) + 1.0)  # log x!
    xlx = np.zeros(n + 1)
    xlx[1:] = np.arange(1, n + 1) * np.log(np.arange(1, n + 1, dtype=float))
    logmu = np.log(a.astype(float))[:, None] + np.log(b.astype(float))[None, :] - np.log(n)

    # marginal laws of the cells, (K, Q, W)
    k, pk = _laws(n, a[:, None], b[None, :], lf)
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
        m, pm = _laws(n - b[:, None, None], a[i] - kk, succ, lf)
        # Hs(i, j', m) on every m needed: the conditional windows and the marginal window
        off = ~np.eye(Q, dtype=bool)[..., None, None]
        big = np.iinfo(np.int64).max
        lo = np.minimum(np.where(off, m, big).min(axis=(0, 2, 3)), k[i].min(axis=-1))
        hi = np.maximum(np.where(off, m, -1).max(axis=(0, 2, 3)), k[i].max(axis=-1))
        Wm = int((hi - lo).max()) + 1
        mm = np.minimum(lo[:, None] + np.arange(Wm), hi[:, None])  # (Q, Wm)
        others = np.array([r for r in range(K) if r != i])
        # n_i'j' | n_ij' = m ~ Hypergeom(n - a_i, b_j' - m, a_i'): shape (i', j', Wm, Wl)
        ll, pl = _laws(n - a[i], (b[:, None] - mm)[None, :, :], a[others][:, None, None], lf)
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


def variance_of_mi(rows, cols) -> float:
    """Exact Var[MI] (nats^2) under fixed margins: Var[n MI] / n^2.

    >>> round(variance_of_mi([2, 2], [2, 2]) * 1e3, 6)   # MI takes log 2 w.p. 1/3, else 0
    53.378681
    """
    n = float(np.asarray(rows).sum())
    return n_mi_variance(rows, cols) / (n * n)
