"""Tail probabilities beyond the Monte Carlo floor: sequential Monte Carlo over tables tilted
toward the observed statistic (``method="importance"``).

Under fixed margins (model ``"perm"``) a table M has the generalized hypergeometric
probability P(M) = prod a_i! prod b_j! / (n! prod n_ij!). Every pair-counting index is a
monotone function of s = sum n_ij^2 and every information index of t = sum n_ij log n_ij, so
its p-value is a tail probability P(S >= s_obs) (or P(S <= s_obs)) of one additive cell
statistic S. Where that probability is far below 1/B, B Patefield tables see no table as
extreme; this module estimates it without that floor.

The estimator: the exponential tilts pi_tau(M) = P(M) exp(tau S(M)) / Z(tau) bridge the null
(tau = 0) and the tail, since

    P(S >= s) = Z(tau) E_tau[exp(-tau S) 1{S >= s}],    Z(tau) = E[exp(tau S)],

and for the tau whose tilted law puts about half its mass at S >= s, the weight
Z(tau) exp(-tau S) is at most Z(tau) exp(-tau s) on the event: an importance sampler whose
relative error does not grow with the rarity of the event. pi_tau cannot be drawn directly,
so a population of tables is carried from the null to it (sequential Monte Carlo with
tempering; Del Moral, Doucet & Jasra 2006; Neal 2001, annealed importance sampling):

1. B tables are drawn from the null exactly (Patefield's algorithm, ``random_tables``).
2. The tilt grows in steps tau_k = tau_{k-1} + d, each d chosen so that the incremental
   weights exp(d S) keep an effective sample size of B / 2; log Z is accumulated as the log
   mean of those weights; the tables are resampled (systematic resampling) in proportion to
   them and moved by a Markov chain that leaves pi_tau invariant (below).
3. It stops at the first tilt under which half the tables are in the tail; the estimate is
   Z(tau) times the mean of exp(-tau S) 1{S >= s} over the tables.

The moves: a random 2 x 2 sub-table (rows i, i', columns j, j') keeps its margins when d is
added to n_ij and n_i'j' and taken from n_ij' and n_i'j. d is proposed symmetrically (a random
sign times one plus a geometric number of steps, its scale sqrt(m / 8 + 1) set by the smallest
margin m of the sub-table, which the move keeps) and accepted by Metropolis' rule on the four
cells (-sum log n! + tau sum f(n)); each level makes 4 K Q such moves per table. (A heat-bath
step over a window of the feasible d was as accurate and 2 to 3 times slower.)

The tilts (each step keeping an effective sample size of B / 2, up to the first tilt under
which half the tables are in the tail) are chosen by a pilot run and then fixed, so each of
the ``N_RUNS`` runs that follow is unbiased (the normalising constants of sequential Monte
Carlo with resampling are; Del Moral 2004, "Feynman-Kac formulae", Theorem 7.4.2); tilts
chosen from the same tables biased the estimate by about -3% at p = 1e-3 and -10% at 1e-30.
The estimate is the runs' mean, its standard error their spread over sqrt(runs), carried in
logarithms so that tails below the smallest double stay finite.

Accuracy (``benchmarks/bench_saddlepoint.py``, 158 cases against the exact law: 2 x 2 to
4 x 5, n 50 to 800, p 1e-3 to 1e-100, s and t, both tails): median error 3.6% of p (0.74
standard errors), worst -29% (7 standard errors; a 2 x 2 table of 800 objects, t, p =
1e-100), within 10% in 88% of the cases; the 95% interval (mean +- t_9 standard errors)
covered the exact p in 92%. On 10 x 10 tables of 10**4 objects it agrees with 17,000
Patefield tables at p = 0.01 and 0.001 and reaches p = 1e-30 with a 5% standard error in
about 12 s (17,000 Patefield tables: 0.15 s). The stated error can be too small: on a 4 x 4
table of 100 objects at p = 3.9e-37 (exact), four seeds gave estimates 25% to 46% low, 2 to 3.6
standard errors off. Read an estimate as its order of magnitude, and use the exact law where it
fits (``method="exact"``, or ``"auto"``, which takes it).

Why not a saddlepoint approximation: the double saddlepoint approximation
of Skovgaard (1987) on independent Poisson cells conditioned on the margins was derived and
measured against the exact law (``benchmarks/bench_saddlepoint.py``) and is wrong at leading
order for these statistics: s and t are non-linear functions of a few (K - 1)(Q - 1) free cells
of large counts, not sums of many small independent terms. Its conditional variance of s was
twice the exact one (3 x 3 tables), its p-values 1.5 to 2 times the exact ones at p = 1e-3,
and, for s, too large by a factor growing without bound in the far tail (5e4 at p = 1e-40),
because the Legendre transform of the cumulant generating function gives the convex hull of
the rate function while {S >= s} is the outside of a convex set. A univariate saddlepoint on S
itself, with a Laplace approximation of its cumulant generating function over tables, is
``method="saddlepoint"`` (``saddlepoint.py``): accurate where it answers, and refused in most
far tails of small tables, where this sampler or the exact law serves.
"""

from __future__ import annotations

import math
import time

import numpy as np
from scipy.special import gammaln, logsumexp

from .._docs import fill_doc
from .._validate import check_positive_int, check_seed
from ..indices import STATISTICS
from ._methods import NullMethod, register_method
from ._tails import (TailEstimate, cell_statistic, check_tail_request, settled_tail,
                     tail_laws, tail_margins)
from .patefield import random_tables

__all__ = ["tail_probability", "TailEstimate", "TooSlow", "DEFAULT_N_SIM", "N_RUNS",
           "MIN_PER_RUN"]

#: Tables over all runs (each run carries DEFAULT_N_SIM // N_RUNS of them).
DEFAULT_N_SIM = 10_000

#: Independent runs whose spread gives the standard error.
N_RUNS = 10

#: The fewest tables a run may carry. Each run is unbiased, but with few tables its estimate
#: is so skewed that the mean of 10 runs is usually too low, by more than its standard error:
#: with 200 tables per run, -50% (standard error 40%) at p = 1e-62 on a 2 x 2 table of 800
#: objects, where 1,000 per run gave errors of -20% to +6%.
MIN_PER_RUN = 500

_MAX_LEVELS = 400  # tilts per run (a tail of 1e-400 took about 60)
_MAX_STEP = 50.0  # a step of the tilt moves the weights of tables one sd apart by at most e^50
_MOVES = 4  # Metropolis moves per table and level, per cell (2 and 8 were less efficient)
_EXACT_MOVES_WORK = 40_000  # n K Q up to which each level adds K Q / 4 exact sub-table steps


class TooSlow(RuntimeError):
    """The estimate would take longer than the time allowed (``tail_probability``'s
    ``max_seconds``): raised by the pilot run, before the runs that cost the most."""


def _subtables(rng, B, K, Q):
    """One random 2 x 2 sub-table per table: rows i != i2, columns j != j2."""
    i = rng.integers(K, size=B)
    i2 = (i + rng.integers(1, K, size=B)) % K
    j = rng.integers(Q, size=B)
    j2 = (j + rng.integers(1, Q, size=B)) % Q
    return i, i2, j, j2


def _move(T, tau, cell_terms, rng, sweeps):
    """``sweeps`` Metropolis steps per table on random 2 x 2 sub-tables, each leaving
    P(M) exp(tau S(M)) invariant (see the module docstring); T is changed in place.
    ``cell_terms`` = (log k!, f(k)) for k = 0..n, looked up by the cells."""
    lfact, fk = cell_terms
    B, K, Q = T.shape
    ar = np.arange(B)
    for _ in range(sweeps):
        i, i2, j, j2 = _subtables(rng, B, K, Q)
        x11, x22, x12, x21 = T[ar, i, j], T[ar, i2, j2], T[ar, i, j2], T[ar, i2, j]
        # d = +-(1 + a geometric number of steps) with a scale set by the sub-table's
        # margins, which the move keeps: a symmetric proposal, so Metropolis' rule applies
        small = np.minimum(np.minimum(x11 + x12, x21 + x22), np.minimum(x11 + x21, x12 + x22))
        scale = np.sqrt(small / 8.0 + 1.0)
        d = rng.geometric(1.0 / scale) * rng.choice((-1, 1), size=B)  # |d| >= 1
        new = (x11 + d, x22 + d, x12 - d, x21 - d)
        ok = (new[0] >= 0) & (new[1] >= 0) & (new[2] >= 0) & (new[3] >= 0)
        safe = [np.where(ok, c, 0) for c in new]
        log_ratio = sum(tau * (fk[c] - fk[o]) - (lfact[c] - lfact[o])
                        for c, o in zip(safe, (x11, x22, x12, x21)))
        accept = ok & (np.log(rng.random(B)) < log_ratio)
        step = np.where(accept, d, 0)
        T[ar, i, j] += step
        T[ar, i2, j2] += step
        T[ar, i, j2] -= step
        T[ar, i2, j] -= step
    return T


def _heat_bath(T, tau, cell_terms, rng, sweeps):
    """``sweeps`` heat-bath steps per table: a random 2 x 2 sub-table's d drawn exactly from
    its law under P(M) exp(tau S(M)) given the rest, over all its feasible values (so a
    tilted law with two modes, which local moves cannot cross, is crossed)."""
    lfact, fk = cell_terms
    B, K, Q = T.shape
    ar = np.arange(B)
    for _ in range(sweeps):
        i, i2, j, j2 = _subtables(rng, B, K, Q)
        x11, x22, x12, x21 = T[ar, i, j], T[ar, i2, j2], T[ar, i, j2], T[ar, i2, j]
        lo, hi = -np.minimum(x11, x22), np.minimum(x12, x21)
        W = int((hi - lo).max()) + 1
        d = lo[:, None] + np.arange(W)[None, :]
        ok = d <= hi[:, None]
        d = np.where(ok, d, 0)
        cells = (x11[:, None] + d, x22[:, None] + d, x12[:, None] - d, x21[:, None] - d)
        logp = sum(np.asarray(tau)[..., None] * fk[c] - lfact[c] for c in cells)
        logp = np.where(ok, logp, -np.inf)
        logp -= logp.max(axis=1, keepdims=True)
        cum = np.cumsum(np.exp(logp), axis=1)
        u = rng.random(B) * cum[:, -1]
        step = d[ar, np.minimum((cum < u[:, None]).sum(axis=1), W - 1)]
        T[ar, i, j] += step
        T[ar, i2, j2] += step
        T[ar, i, j2] -= step
        T[ar, i2, j] -= step
    return T


def _next_step(S, sign, B):
    """The increase d of the tilt whose incremental weights exp(sign d S) keep an effective
    sample size of B / 2 (bisection; the ESS decreases in d)."""
    spread = float(S.std())
    if spread == 0:
        return math.inf

    def ess(d):
        lw = sign * d * S
        w = np.exp(lw - lw.max())
        return w.sum() ** 2 / (w * w).sum()

    lo, hi = 0.0, 1.0 / spread
    while ess(hi) > B / 2:
        if hi * spread > _MAX_STEP:  # most tables share the largest S: tilt on regardless
            return hi
        lo, hi = hi, 2 * hi
    for _ in range(50):
        mid = 0.5 * (lo + hi)
        if ess(mid) > B / 2:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-6 * hi:
            break
    return lo if lo > 0 else hi


def _runs(a, b, statistic, value, sign, B, R, rng, schedule=None, deadline=None, bar=None):
    """R sequential Monte Carlo runs of B tables each, moved together (one array of R B
    tables): the log of each run's estimate of the tail, and the tilts they went through.

    Without a ``schedule`` the tilts are chosen from the tables as they go (each step keeps an
    effective sample size of B / 2; stop when half the tables are in the tail): a pilot, whose
    estimate is biased by those choices (about -3% at p = 1e-3, -10% at 1e-30 on the
    benchmark). With the pilot's ``schedule`` fixed in advance, each run is unbiased.
    ``deadline`` (a ``time.monotonic()`` value): raise ``TooSlow`` when a level ends after it;
    ``bar``: a progress bar advanced once per level."""
    K, Q = len(a), len(b)
    T = np.array(random_tables(a, b, n_sim=R * B, seed=rng), dtype=np.int64).reshape(R, B, K, Q)
    S = STATISTICS[statistic](T)  # (R, B)
    tol = 1e-9 * max(1.0, abs(value))
    k = np.arange(int(a.sum()) + 1)
    cell_terms = (gammaln(k + 1.0), cell_statistic(k, statistic))
    log_z, tau, taus = np.zeros(R), 0.0, []
    for level in range(_MAX_LEVELS + 1):
        if schedule is None:
            if (sign * (S - value) >= -tol).mean() >= 0.5:
                break
            d = _next_step(S.ravel(), sign, R * B)
            if not math.isfinite(d):  # every table has the same S, and none is in the tail
                return np.full(R, -math.inf), taus
            new = tau + sign * d
        else:
            if level == len(schedule):
                break
            new = schedule[level]
        taus.append(new)
        for r in range(R):
            lw = (new - tau) * S[r]
            log_z[r] += float(logsumexp(lw)) - math.log(B)
            w = np.exp(lw - lw.max())
            cum = np.cumsum(w / w.sum())
            idx = np.minimum(np.searchsorted(cum, (rng.random() + np.arange(B)) / B), B - 1)
            T[r] = T[r, idx]
        tau = new
        if deadline is not None and time.monotonic() > deadline:
            raise TooSlow(f"more than {level + 1} tilts were needed")
        moved = _move(T.reshape(-1, K, Q), tau, cell_terms, rng, _MOVES * K * Q)
        if int(a.sum()) * K * Q <= _EXACT_MOVES_WORK:  # small tables: exact sub-table steps too
            moved = _heat_bath(moved, tau, cell_terms, rng, max(1, K * Q // 4))
        T = moved.reshape(R, B, K, Q)
        S = STATISTICS[statistic](T)
        if bar is not None:
            bar.update()
    else:
        raise ValueError(
            f"importance sampling found no table with {statistic} at or beyond {value:.10g} "
            f"after {_MAX_LEVELS} tilts (margins {a.tolist()} x {b.tolist()}): the value may "
            "lie beyond every table with these margins")
    hit = sign * (S - value) >= -tol
    out = log_z + logsumexp(np.where(hit, -tau * S, -np.inf), axis=1) - math.log(B)
    return out, taus


@fill_doc
def tail_probability(rows, cols, value: float, statistic: str = "s",
                     alternative: str = "greater", n_sim: int = DEFAULT_N_SIM,
                     seed=None, max_seconds: float | None = None,
                     progress: bool = False) -> TailEstimate:
    """P(S >= value) or P(S <= value) under fixed margins, far below the Monte Carlo floor.

    S = sum n_ij^2 ("s") or sum n_ij log n_ij ("t") of a table drawn with the given margins
    (the permutation model). The estimate is the mean of ``N_RUNS`` independent sequential
    Monte Carlo runs, each unbiased, over tables tilted by exp(tau S) toward the tail (see
    the module docstring); its standard error is their spread over sqrt(runs).

    Parameters
    ----------
    %(rows, cols)s
    value : float
        The observed value of the statistic.
    statistic : {"s", "t"}, default "s"
        s = sum n_ij^2 (pair-counting indices) or t = sum n_ij log n_ij (information
        indices).
    alternative : {"greater", "less"}, default "greater"
        The upper tail P(S >= value) or the lower tail P(S <= value); values within a
        relative 1e-9 of ``value`` count as in the tail.
    n_sim : int, default 10,000
        Tables over all runs (at least ``MIN_PER_RUN`` = 500 per run).
    %(seed)s
    max_seconds : float, optional
        Refuse (``TooSlow``) an estimate predicted to take longer: the pilot run (one run's
        tables) is given 1 / (1 + ``N_RUNS``) of it, and the runs are predicted to take
        ``N_RUNS`` times the pilot's time. None (default): no limit.
    progress : bool, default False
        A progress bar over the tilts of the runs, shown when they take more than 2 s.

    Returns
    -------
    TailEstimate
        ``log_pvalue`` (natural log, finite below the smallest double), ``relative_se``,
        each run's log estimate; exact (``relative_se`` 0) for one row or one column, whose
        only table gives S.

    Raises
    ------
    ValueError
        Bad margins, an unknown statistic or alternative, or fewer than 500 tables per run.
    TooSlow
        The estimate is predicted to take longer than ``max_seconds``.

    See Also
    --------
    clusteragree.nulls.statistic_law : The exact law, where it fits.
    clusteragree.nulls.random_tables : Patefield's tables (the first step of each run).

    References
    ----------
    Del Moral, P., Doucet, A. & Jasra, A. (2006), "Sequential Monte Carlo samplers", Journal
    of the Royal Statistical Society B 68(3), 411-436.

    Neal, R. M. (2001), "Annealed importance sampling", Statistics and Computing 11, 125-139.

    Chen, Y., Diaconis, P., Holmes, S. P. & Liu, J. S. (2005), "Sequential Monte Carlo
    methods for statistical analysis of tables", Journal of the American Statistical
    Association 100, 109-120.

    Patefield, W. M. (1981), "Algorithm AS 159", Applied Statistics 30(1), 91-97.

    Examples
    --------
    >>> from clusteragree.nulls.importance import tail_probability
    >>> est = tail_probability([30, 20], [25, 25], 906, "s", seed=1)   # exact: 6.31e-06
    >>> bool(abs(est.pvalue / 6.31e-06 - 1) < 5 * est.relative_se + 0.01)
    True
    """
    a, b, value, sign = tail_margins(rows, cols, value, statistic, alternative)
    n_sim = check_positive_int(n_sim, "n_sim")
    if n_sim < MIN_PER_RUN * N_RUNS:
        raise ValueError(f"n_sim must be at least {MIN_PER_RUN * N_RUNS:,} ({N_RUNS} runs of at "
                         f"least {MIN_PER_RUN} tables), got {n_sim:,}")
    rng = check_seed(seed)
    settled = settled_tail(a, b, value, statistic, sign)
    if settled is not None:
        return settled
    per = n_sim // N_RUNS
    start = time.monotonic()
    deadline = None if max_seconds is None else start + max_seconds / (1 + N_RUNS)
    try:
        _, schedule = _runs(a, b, statistic, float(value), sign, per, 1, rng,
                            deadline=deadline)  # the pilot
    except TooSlow as exc:
        raise TooSlow(f"the pilot run took more than {max_seconds / (1 + N_RUNS):.2g} s "
                      f"({exc}), so the estimate would take more than {max_seconds:.3g} s"
                      ) from None
    pilot = time.monotonic() - start
    if max_seconds is not None and pilot * (1 + N_RUNS) > max_seconds:
        raise TooSlow(f"predicted {pilot * (1 + N_RUNS):.3g} s (the pilot run: {pilot:.2g} s, "
                      f"{len(schedule)} tilts), more than {max_seconds:.3g} s")
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(schedule), desc="importance sampling", unit="tilt", delay=2)
    try:
        runs, _ = _runs(a, b, statistic, float(value), sign, per, N_RUNS, rng, schedule,
                        bar=bar)
    finally:
        if bar is not None:
            bar.close()
    if not np.isfinite(runs).any():
        return TailEstimate(-math.inf, math.inf, tuple(runs.tolist()))
    top = runs.max()
    scaled = np.exp(runs - top)
    log_p = float(top + math.log(scaled.mean()))
    rse = float(scaled.std(ddof=1) / math.sqrt(N_RUNS) / scaled.mean())
    return TailEstimate(min(log_p, 0.0), rse, tuple(runs.tolist()))


# -- the method record -------------------------------------------------------------------------

def _check_request(req):
    check_tail_request(req, "importance")


def _importance_law(req):
    def tail(rows, cols, value, statistic, side, seed):
        return tail_probability(rows, cols, value, statistic, side, req.n_sim, seed)
    return tail_laws(req, tail, details={"runs": N_RUNS})


register_method(NullMethod(
    name="importance", model="perm", title="Agreement test (importance sampling of tails)",
    description="tail probabilities of s or t by sequential Monte Carlo over tilted tables",
    law=_importance_law, check=_check_request, monte_carlo=True, default_n_sim=DEFAULT_N_SIM,
    describe=lambda nd: (f"importance sampling of the tail ({N_RUNS} runs of "
                         f"{nd.n_sim // N_RUNS:,} tables tilted toward the observed value)")))
