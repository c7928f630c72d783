"""Tail probabilities beyond the Monte Carlo floor: sequential Monte Carlo over tables tilted
toward the observed statistic (``method="importance"``).

Under fixed margins (model ``"perm"``) a table M has the generalized hypergeometric
probability P(M) = prod a_i! prod b_j! / (n! prod n_ij!). Every pair-counting index is a
monotone function of s = sum n_ij^2 and every information index of t = sum n_ij log n_ij, so
its p-value is a tail probability P(S >= s_obs) (or P(S <= s_obs)) of one additive cell
statistic S. Where that probability is far below 1/B, B Patefield tables see no table as
extreme; this module estimates it without that floor.

The estimator: the tilts pi_tau(M) = P(M) exp(tau G(M)) / Z(tau), tau >= 0, of the
statistic capped at the tail's edge, G = min(S, s) (for the lower tail G = min(-S, -s)),
bridge the null (tau = 0) and the tail, since G = s on the event:

    P(S >= s) = Z(tau) exp(-tau s) P_tau(S >= s),    Z(tau) = E[exp(tau G)],

and for a tau under which a good share of the tables are in the tail, the weight of every
table in it is the same: an importance sampler whose relative error does not grow with the rarity
of the event. (Uncapped, exp(tau S) keeps pulling beyond s: on a 10 x 10 table of 10**4
objects the tilt that reaches s sent much of its mass to tables with whole rows in one cell,
far beyond s and far rarer than the tail, across a transition the moves below cannot cross.)
pi_tau cannot be drawn directly, so a population of tables is carried from the null to it
(sequential Monte Carlo with tempering; Del Moral, Doucet & Jasra 2006; Neal 2001, annealed
importance sampling):

1. B tables are drawn from the null exactly (Patefield's algorithm, ``random_tables``).
2. The tilt grows in steps tau_k = tau_{k-1} + d, each d chosen so that the incremental
   weights exp(d G) keep an effective sample size of B / 2; log Z is accumulated as the log
   mean of those weights; the tables are resampled (systematic resampling) in proportion to
   them and moved by a Markov chain that leaves pi_tau invariant (below), in rounds, until
   S has forgotten its value before the moves (its correlation with it below 0.1).
3. It stops before the first tilt that would put half the tables' weight in the tail (so
   that the last tables moved are a mixed sample, of which, by the effective sample size,
   at least about 15% are in the tail); the estimate is Z(tau) times the mean of
   exp(-tau G) 1{S >= s} over the tables.

The moves: a random 2 x 2 sub-table (rows i, i', columns j, j') keeps its margins when d is
added to n_ij and n_i'j' and taken from n_ij' and n_i'j. The ordered sub-table is drawn with
probability proportional to w_i w_i' v_j v_j' (w and v the row and column margins, scaled to
1..16), which puts the moves where the large cells are, and d >= 1 is one plus a geometric
number of steps, its scale sqrt(m / 2 + 1) set by the smallest margin m of the sub-table
(which the move keeps); the sub-table with its columns swapped is as likely and moves the
same cells by -d, so the proposal is symmetric, and it is accepted by Metropolis' rule (the
four cells' -sum log n! and the change of tau G). A round makes 2 K Q such moves per table,
and on small tables (n K Q <= 40,000) K Q / 8 heat-bath steps, each drawing a sub-table's d
from its exact conditional law over all its feasible values (which can swap two rows' large
counts).
Both kernels are checked exactly: their transition matrices, computed from the proposal law
on every 3 x 3 table of 8 objects, leave pi_tau invariant, and the code's steps follow them
(``tests/nulls/test_importance.py``).

The tilts and the rounds of moves at each (each step keeping an effective sample size of
B / 2, up to the tilt before the one that would put half the weight in the tail; rounds
until S's correlation with its value before the level's moves is below 0.1, or stops
falling: 6 rounds lowering it by less than a tenth, where what is left is between modes
that these moves do not cross) are chosen by a pilot run and then fixed, so each of the
``N_RUNS`` runs that follow is unbiased (the normalising constants of sequential Monte Carlo
with resampling are; Del Moral 2004, "Feynman-Kac formulae", Theorem 7.4.2); tilts chosen
from the same tables biased the estimate by about -3% at p = 1e-3 and -10% at 1e-30. A
pilot whose correlation still falls after 60 rounds refuses (``NotMixed``). The estimate is
the runs' mean, its standard error their spread over sqrt(runs) (or, where they are skewed,
that implied by the spread of their logarithms, if larger: ``_relative_se``), and at least
``MIN_RELATIVE_SE`` = 5% (the spread of 10 skewed runs is itself noisy and small by chance
as often as not), carried in logarithms so that tails below the smallest double stay
finite. Where the runs' logarithms spread by more than ``MAX_LOG_SD`` = 0.6 (beyond every
case of the benchmark) it refuses (``RunsDisagree``): skewed runs rarely show their large
values, and their mean's error cannot be stated. Where the relative standard error is above
``MAX_RELATIVE_SE`` = 10%, batches of ``N_RUNS`` more runs are made on the pilot's schedule
(each unbiased), up to ``MAX_BATCHES`` = 4 batches (within ``max_seconds``), and an estimate
still above it is refused (``RunsDisagree``). At the largest value of S the tail is exact
(the tables that attain it, ``_tails.log_p_of_maximum``), before any sampling.

Why the rounds: an unbiased run can still be useless. With one round per level, on a 4 x 4
table of 100 objects at p = 3.9e-37 (near-equal margins: the tail is 24 alignments of rows
with columns, and the tilted law turns to them abruptly), 200 runs had a median of 0.69 of
the exact p, a 95th percentile of 1.95 and a maximum of 9.8 (log-sd 0.55): unbiased, but the
mean of 10 such runs is usually low and their spread understates its error (estimates 25% to
46% low at 2 to 6.7 stated standard errors). Near that tilt one round left S correlated 0.7
with its value before; with rounds until the correlation is below 0.1 (and the capped tilt),
200 runs had a mean of 0.98 +- 0.01, a median of 0.97, a maximum of 1.43 and a log-sd of
0.13, and 19 of the 20 intervals of 10 runs covered the exact p.

Accuracy (``benchmarks/bench_saddlepoint.py``, 158 cases against the exact law: 2 x 2 to
4 x 5, n 50 to 800, p 1e-3 to 1e-100, s and t, both tails): median error 2.4% of p, worst
-11.5% (a 3 x 3 table of 400 objects, s, p = 1e-100, stated standard error 7.2% after 20
runs), within 10% in 99% of the cases; the 95% interval (mean +- t_{R-1} standard errors, R
the runs) covered the exact p in 99.4% (before issue 45's floor and extra runs: 96.8%, the
worst +17.8% at a stated 10.2%; 93% with uniform sub-tables and rounds of 4 K Q moves; 92%
before the rounds and the capped tilt). On 35 hard cases (``--hard``: near-equal margins,
4 x 4 and 3 x 3 tables of 60 to 200 objects, p 1e-20 to 1e-60) it covered all (94% before
issue 45; 89% with uniform sub-tables; 80% before the rounds, worst -55% and +58%, up to 9.7
standard errors), median error 3.1%, at most 2.1 standard errors off. Median time per estimate 0.4 s
on the 158 cases and 1.2 s on the hard ones (1.3 s and 3.7 s with uniform sub-tables and
rounds of 4 K Q moves of scale sqrt(m / 8)). On 10 x 10 tables of 10**4 objects it agrees
with 17,000 Patefield tables at p = 0.01 and 0.001 and with the saddlepoint approximation to
p = 1e-30 (within 2 standard errors in 15 of 16 cases), and reaches p = 1e-30 with a standard
error of 2.7% to 4.8% in 7.2 to 7.6 s (three seeds, an idle machine; 17,000 Patefield tables:
0.14 s; with uniform sub-tables 14.7 s, and 48.8 s with margins 2,000 to 500, now 8.5 s). At
ARI 0.009 on such a table (p about 1e-120) the tilted law turns abruptly (a first-order
transition: from near independence to tables near the diagonal) and the runs disagree (over
factors of 10 to 60 with 1,000 tables each, and for one seed of three with 10,000): refused
(``RunsDisagree``).

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

__all__ = ["tail_probability", "TailEstimate", "TooSlow", "NotMixed", "RunsDisagree",
           "DEFAULT_N_SIM", "MAX_LOG_SD", "MAX_RELATIVE_SE", "MAX_BATCHES", "MIN_RELATIVE_SE",
           "N_RUNS", "MIN_PER_RUN"]

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
_WEIGHT_LEVELS = 16  # sub-tables' selection weights: the margins scaled to 1..16
_PAIR_LIST = 2**16  # the longest list of weighted pairs a draw picks from
_MOVES = 2  # Metropolis moves per table and round, per cell
_STEP_SCALE = 2.0  # a step's d is about sqrt(m / _STEP_SCALE), m the sub-table's smallest margin
_EXACT_MOVES_WORK = 40_000  # n K Q up to which each round adds K Q / 8 exact sub-table steps
_MIXED = 0.1  # a level's moves stop when S's correlation with its value before them is below
_MAX_ROUNDS = 60  # rounds of moves per level at most, while the correlation still falls
_PLATEAU, _PLATEAU_DROP = 6, 0.1  # a plateau: 6 rounds lowered the correlation by < 10%


class TooSlow(RuntimeError):
    """The estimate would take longer than the time allowed (``tail_probability``'s
    ``max_seconds``): raised by the pilot run, before the runs that cost the most."""


class NotMixed(TooSlow):
    """The moves did not mix: at some tilt of the pilot run, S kept a correlation of at least
    0.1 with its value before the level's moves after the most rounds allowed (60), so the
    runs' spread would understate their error. Raised by the pilot, before the runs; a
    ``TooSlow`` (more moves than allowed would be needed), so a caller that skips a slow
    estimate skips this one too."""


class RunsDisagree(TooSlow):
    """The runs disagree too much for their mean's error to be stated: the standard deviation
    of their logarithms is above ``MAX_LOG_SD``. More tables per run (a larger ``n_sim``)
    narrow their spread; a ``TooSlow``, so a caller that skips a slow estimate skips this one
    too."""


#: The largest spread of the runs' logarithms (standard deviation, natural log) whose mean is
#: given with an error. The benchmark's 193 cases spread up to 0.54, and their intervals
#: covered the exact p in 97%; on a 10 x 10 table of 10**4 objects at p about 1e-120 the runs of
#: 1,000 tables spread by 0.8 to 1.6 and their means were 0.15 to 0.44 of that of runs of
#: 10,000 tables (-119.75 +- 11%), once at 2.8 of the standard errors they stated; runs of
#: 10,000 tables still spread by more than 0.6 for one seed of three (a run at -119.05).
MAX_LOG_SD = 0.6


#: The largest relative standard error given (issue 45): above it, batches of ``N_RUNS`` more
#: runs (on the pilot's schedule) are added, up to ``MAX_BATCHES`` batches in all, and if it
#: is still above, the estimate is refused (``RunsDisagree``). Three estimates of the
#: benchmark with a relative s.e. of 12% to 21% were 15% to 23% off.
MAX_RELATIVE_SE = 0.10

#: The most batches of ``N_RUNS`` runs of ``n_sim // N_RUNS`` tables an estimate may take
#: (``MAX_RELATIVE_SE``): up to 4 n_sim tables.
MAX_BATCHES = 4

#: The smallest relative standard error stated (issue 45). The spread of 10 skewed runs is
#: itself noisy, and small by chance as often as not: estimates 5% to 10% off were given with
#: relative standard errors of 1.5% to 3.8% (up to 4.3 of them off); see ``_relative_se``.
MIN_RELATIVE_SE = 0.05


def _weighted_pairs(margins):
    """Ordered pairs (k, k2), k != k2, each listed w_k w_k2 times (divided by their common
    factor), w the margins scaled to 1..``_WEIGHT_LEVELS`` and rounded: a uniform draw from
    the lists picks a pair with probability proportional to w_k w_k2. Returns the two lists."""
    K = len(margins)
    levels = _WEIGHT_LEVELS
    while levels > 1 and levels**2 * K * (K - 1) > _PAIR_LIST:
        levels //= 2  # many rows: coarser weights, so that the lists stay short
    w = np.maximum(1, np.rint(levels * np.asarray(margins) / np.max(margins))).astype(np.int64)
    k, k2 = (g.ravel() for g in np.meshgrid(np.arange(K), np.arange(K), indexing="ij"))
    keep = k != k2
    k, k2 = k[keep], k2[keep]
    reps = w[k] * w[k2]
    reps //= np.gcd.reduce(reps)
    return np.repeat(k, reps), np.repeat(k2, reps)


class _SubtableDraw:
    """Random ordered 2 x 2 sub-tables of B tables of shape (K, Q): rows i != i2 drawn with
    probability proportional to w_i w_i2, columns j != j2 independently in proportion to
    v_j v_j2 (``_weighted_pairs`` of the row and column margins).

    Any such law keeps the moves' proposal symmetric: the sub-table with its columns swapped,
    (i, i2, j2, j), is as likely as (i, i2, j, j2), and moves the same four cells the other
    way. Weighting by the margins puts the steps where the large cells are, which carry most
    of the variance of s and t: on a 10 x 10 table of 10**4 objects with margins 2,000 to 500,
    S forgot its value in about a third of the rounds of uniform sub-tables."""

    def __init__(self, rows, cols, B):
        K, Q = len(rows), len(cols)
        i, i2 = _weighted_pairs(rows)
        j, j2 = _weighted_pairs(cols)
        self.base = np.arange(B) * (K * Q)  # where each table starts in the flat array
        if len(i) * len(j) <= _PAIR_LIST:  # one draw over every (row pair, column pair)
            i, j = np.repeat(i, len(j)), np.tile(j, len(i))
            i2, j2 = np.repeat(i2, len(j2)), np.tile(j2, len(i2))
            self.offsets = [np.ascontiguousarray(o) for o in
                            (i * Q + j, i2 * Q + j2, i * Q + j2, i2 * Q + j)]
            self.rows = self.cols = None
        else:  # one draw for the row pair and one for the column pair
            self.rows, self.cols = (i * Q, i2 * Q), (j, j2)

    def __call__(self, rng, idx):
        """The flat indices of each table's four cells (i, j), (i2, j2), (i, j2), (i2, j),
        written into ``idx`` (4, B)."""
        B = len(self.base)
        if self.rows is None:
            pick = rng.integers(len(self.offsets[0]), size=B)
            for k in range(4):
                np.add(self.offsets[k].take(pick), self.base, out=idx[k])
            return idx
        r = rng.integers(len(self.rows[0]), size=B)
        c = rng.integers(len(self.cols[0]), size=B)
        row, row2 = self.rows[0].take(r), self.rows[1].take(r)
        row += self.base
        row2 += self.base
        col, col2 = self.cols[0].take(c), self.cols[1].take(c)
        np.add(row, col, out=idx[0])
        np.add(row2, col2, out=idx[1])
        np.add(row, col2, out=idx[2])
        np.add(row2, col, out=idx[3])
        return idx


def _tilt(S, cap):
    """G = min(sign S, u) for ``cap`` = (sign, u): the statistic the tilt exp(tau G) sees,
    capped at the tail's edge u = sign value."""
    sign, u = cap
    return np.minimum(sign * S, u)


def _squares(fk):
    """Whether the cell terms f(k), k = 0..n, are k^2 (the statistic s) with n below 2^25:
    then every f(k), difference of two and sum of four such differences is an integer below
    2^53, exact in floating point, so the change of S a move makes can be computed in
    integers and gives the same floats."""
    n = len(fk) - 1
    return n < 2**25 and np.array_equal(fk, np.arange(n + 1.0) ** 2)


def _move(T, tau, cell_terms, rng, sweeps, cap):
    """``sweeps`` Metropolis steps per table on random 2 x 2 sub-tables, each leaving
    P(M) exp(tau G(M)) invariant, G = min(sign S, u) (``cap`` = (sign, u); see the module
    docstring); T is changed in place. ``cell_terms`` = (log k!, f(k)) for k = 0..n, looked
    up by the cells.

    A step draws an ordered sub-table (rows i != i2, columns j != j2; ``_SubtableDraw``) and
    adds d >= 1 to n_ij and n_i'j', taking it from n_ij' and n_i'j; d is one plus a geometric
    number of steps, drawn by inversion of an exponential, with success probability
    1 / sqrt(m / 2 + 1) for the smallest margin m of the sub-table (which the move keeps).
    The sub-table with its columns swapped moves the same cells by -d, equally likely: the
    proposal is symmetric, and Metropolis' rule applies."""
    lfact, fk = cell_terms
    B, K, Q = T.shape
    n = len(lfact) - 1
    # the tables in the smallest integers that hold every cell (0..n), so that the random
    # cells each step reads and writes span less memory; copied back at the end
    cell = np.int16 if n < 2**15 else np.int32 if n < 2**31 else np.int64
    work = np.ascontiguousarray(T, dtype=cell)
    flat = work.reshape(-1)  # the four cells of each step are gathered by flat index
    draw = _SubtableDraw(T[0].sum(axis=1), T[0].sum(axis=0), B)
    # 1 + floor(E / -log(1 - q)), E ~ Exp(1), is geometric on 1, 2, ... with success q; for
    # each smallest margin m = 0..n, q = 1 / sqrt(m / 2 + 1) (m = 0: q = 1, always d = 1)
    with np.errstate(divide="ignore"):
        rate = -1.0 / np.log1p(-1.0 / np.sqrt(np.arange(n + 1) / _STEP_SCALE + 1.0))
    idx = np.empty((4, B), dtype=np.intp)
    new = np.empty((4, B), dtype=np.int64)
    square = _squares(fk)
    terms = None if square else np.stack([lfact, fk], axis=1)
    S = fk[T].sum(axis=(1, 2))
    G = _tilt(S, cap)
    for _ in range(sweeps):
        draw(rng, idx)
        old = flat.take(idx).astype(np.int64)  # rows x11, x22, x12, x21
        x11, x22, x12, x21 = old
        small = np.minimum(x11 + x12, x21 + x22)
        np.minimum(small, np.minimum(x11 + x21, x12 + x22), out=small)
        e = rng.standard_exponential(B)
        e *= rate.take(small)
        d = e.astype(np.int64)  # floor, e >= 0
        d += 1
        np.add(old[:2], d, out=new[:2])
        np.subtract(old[2:], d, out=new[2:])
        ok = np.minimum(new[2], new[3]) >= 0  # n_ij + d, n_i'j' + d >= 0
        # (cells out of range, of a move that is refused, are clipped to look-ups never used)
        if square:  # the change of s, exactly: 2 d (x11 + x22 - x12 - x21) + 4 d^2
            change = (d * (4 * d + 2 * (x11 + x22 - x12 - x21))).astype(float)
            dl = lfact.take(new, mode="clip")
            dl -= lfact.take(old)
            dl = dl[0] + dl[1] + dl[2] + dl[3]
        else:  # log k! and f(k) side by side: one look-up of each cell for both
            both = terms.take(new, axis=0, mode="clip")
            both -= terms.take(old, axis=0)
            both = both[0] + both[1] + both[2] + both[3]
            dl, change = both[:, 0], both[:, 1]
        S_new = S + change
        G_new = _tilt(S_new, cap)
        log_ratio = tau * (G_new - G) - dl
        accept = ok & (np.log(rng.random(B)) < log_ratio)
        S = np.where(accept, S_new, S)
        G = np.where(accept, G_new, G)
        flat.put(idx, np.where(accept, new, old).astype(cell))
    T[...] = work
    return T


def _heat_bath(T, tau, cell_terms, rng, sweeps, cap):
    """``sweeps`` heat-bath steps per table: a random 2 x 2 sub-table's d drawn exactly from
    its law under P(M) exp(tau G(M)) given the rest (G as in ``_move``), over all its
    feasible values, so that one step can swap two rows' large counts."""
    lfact, fk = cell_terms
    B, K, Q = T.shape
    n = len(lfact) - 1
    work = np.ascontiguousarray(T)
    flat = work.reshape(-1)  # the four cells of each step are gathered by flat index
    draw = _SubtableDraw(T[0].sum(axis=1), T[0].sum(axis=0), B)
    ar = np.arange(B)
    signs = np.array([1, 1, -1, -1])[:, None]
    idx = np.empty((4, B), dtype=np.intp)
    # the look-ups of a cell over the W values of d are W consecutive entries of a table (of
    # the reversed table for the cells d is taken from), padded past n with entries only
    # infeasible values of d see
    pad = np.zeros(n + 1)
    up = (np.concatenate((lfact, pad)), np.concatenate((fk, pad)))
    down = (np.concatenate((lfact[::-1], pad)), np.concatenate((fk[::-1], pad)))
    square = _squares(fk)
    S = fk[work].sum(axis=(1, 2))
    for _ in range(sweeps):
        draw(rng, idx)
        old = flat[idx]  # rows x11, x22, x12, x21
        x11, x22, x12, x21 = old
        lo, hi = -np.minimum(x11, x22), np.minimum(x12, x21)
        W = int((hi - lo).max()) + 1
        ok = np.arange(W) <= (hi - lo)[:, None]  # (B, W): d = lo + 0..W-1
        # the cells x11 + d, x22 + d, x12 - d, x21 - d over the W values of d
        starts = (x11 + lo, x22 + lo, n - x12 + lo, n - x21 + lo)
        ways = (up, up, down, down)
        lc = [np.lib.stride_tricks.sliding_window_view(w[0], W)[k]
              for w, k in zip(ways, starts)]
        if square:  # the change of s, exactly: 2 d (x11 + x22 - x12 - x21) + 4 d^2
            d = lo[:, None] + np.arange(W)
            change = (d * (4 * d + 2 * (x11 + x22 - x12 - x21)[:, None])).astype(float)
        else:
            change = sum(np.lib.stride_tricks.sliding_window_view(w[1], W)[k] - fk[o][:, None]
                         for w, k, o in zip(ways, starts, old))
        logp = tau * _tilt(S[:, None] + change, cap) - (lc[0] + lc[1] + lc[2] + lc[3])
        logp = np.where(ok, logp, -np.inf)
        logp -= logp.max(axis=1, keepdims=True)
        cum = np.cumsum(np.exp(logp), axis=1)
        u = rng.random(B) * cum[:, -1]
        pick = np.minimum((cum < u[:, None]).sum(axis=1), W - 1)
        S = S + change[ar, pick]
        flat[idx] = old + signs * (lo + pick)
    if work is not T:
        T[...] = work
    return T


def _next_step(G, B):
    """The increase d of the tilt whose incremental weights exp(d G) keep an effective
    sample size of B / 2 (bisection; the ESS decreases in d)."""
    spread = float(G.std())
    if spread == 0:
        return math.inf

    def ess(d):
        lw = d * G
        w = np.exp(lw - lw.max())
        return w.sum() ** 2 / (w * w).sum()

    lo, hi = 0.0, 1.0 / spread
    while ess(hi) > B / 2:
        if hi * spread > _MAX_STEP:  # most tables share the largest G: tilt on regardless
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


def _correlation(x, y):
    """Pearson's correlation of x and y; 0 where either is constant (nothing left to mix)."""
    sx, sy = float(x.std()), float(y.std())
    if sx == 0 or sy == 0:
        return 0.0
    return float(np.mean((x - x.mean()) * (y - y.mean())) / (sx * sy))


def _runs(a, b, statistic, value, sign, B, R, rng, schedule=None, deadline=None, bar=None):
    """R sequential Monte Carlo runs of B tables each, moved together (one array of R B
    tables): the log of each run's estimate of the tail, and its schedule, a list of (tilt,
    rounds of moves) pairs.

    Without a ``schedule`` the tilts are chosen from the tables as they go (each step keeps an
    effective sample size of B / 2; stop before the step that would put half the tables'
    weight in the tail, or when half the tables are in it), and each
    level's moves are repeated until the capped statistic G's correlation with its value
    before them is below ``_MIXED`` (``NotMixed`` after ``_MAX_ROUNDS``): a pilot, whose
    estimate is biased by those choices (about -3% at p = 1e-3, -10% at 1e-30 on the
    benchmark). With the pilot's ``schedule`` fixed in advance, each run is unbiased.
    ``deadline`` (a ``time.monotonic()`` value): raise ``TooSlow`` when a level or a round of
    moves ends after it; ``bar``: a progress bar advanced once per level."""
    K, Q = len(a), len(b)
    T = np.array(random_tables(a, b, n_sim=R * B, seed=rng), dtype=np.int64).reshape(R, B, K, Q)
    tol = 1e-9 * max(1.0, abs(value))
    cap = (sign, sign * value)
    S = STATISTICS[statistic](T)  # (R, B)
    G = _tilt(S, cap)
    k = np.arange(int(a.sum()) + 1)
    cell_terms = (gammaln(k + 1.0), cell_statistic(k, statistic))
    log_z, tau, plan = np.zeros(R), 0.0, []
    for level in range(_MAX_LEVELS + 1):
        if schedule is None:
            hit = (sign * (S - value) >= -tol).ravel()
            if hit.mean() >= 0.5:
                break
            d = _next_step(G.ravel(), R * B)
            if not math.isfinite(d):  # every table has the same S, and none is in the tail
                return np.full(R, -math.inf), plan
            lw = d * G.ravel()
            w = np.exp(lw - lw.max())
            if w[hit].sum() >= 0.5 * w.sum():  # the next tilt would reach the tail: stop here
                break
            new, rounds = tau + d, None
        else:
            if level == len(schedule):
                break
            new, rounds = schedule[level]
        for r in range(R):
            lw = (new - tau) * G[r]
            log_z[r] += float(logsumexp(lw)) - math.log(B)
            w = np.exp(lw - lw.max())
            cum = np.cumsum(w / w.sum())
            idx = np.minimum(np.searchsorted(cum, (rng.random() + np.arange(B)) / B), B - 1)
            T[r] = T[r, idx]
            G[r], S[r] = G[r, idx], S[r, idx]
        tau = new
        if deadline is not None and time.monotonic() > deadline:
            raise TooSlow(f"more than {level + 1} tilts were needed")
        before, done, corrs = S.ravel().copy(), 0, []
        while True:
            moved = _move(T.reshape(-1, K, Q), tau, cell_terms, rng, _MOVES * K * Q, cap)
            if int(a.sum()) * K * Q <= _EXACT_MOVES_WORK:  # small tables: exact steps too
                moved = _heat_bath(moved, tau, cell_terms, rng, max(1, K * Q // 8), cap)
            T = moved.reshape(R, B, K, Q)
            S = STATISTICS[statistic](T)
            G = _tilt(S, cap)
            done += 1
            if rounds is not None:
                if done == rounds:
                    break
                continue
            corrs.append(_correlation(before, S.ravel()))
            corr = corrs[-1]
            if corr < _MIXED:
                break
            if done > _PLATEAU and corr > (1 - _PLATEAU_DROP) * corrs[-1 - _PLATEAU]:
                break  # a plateau: what is left is between modes these moves do not cross
            if done == _MAX_ROUNDS:
                raise NotMixed(
                    f"importance sampling did not mix here: at tilt {level + 1} the tables' "
                    f"{statistic} kept a correlation of {corr:.2f} with its value before "
                    f"{_MAX_ROUNDS} rounds of moves (margins {a.tolist()} x {b.tolist()}), so "
                    "the runs' spread would understate their error; use the exact law where "
                    "it fits (method='exact')")
            if deadline is not None and time.monotonic() > deadline:
                raise TooSlow(f"more than {done} rounds of moves were needed at tilt "
                              f"{level + 1}")
        plan.append((new, done))
        if bar is not None:
            bar.update()
    else:
        raise ValueError(
            f"importance sampling found no table with {statistic} at or beyond {value:.10g} "
            f"after {_MAX_LEVELS} tilts (margins {a.tolist()} x {b.tolist()}): the value may "
            "lie beyond every table with these margins")
    hit = sign * (S - value) >= -tol
    out = log_z + logsumexp(np.where(hit, -tau * G, -np.inf), axis=1) - math.log(B)
    return out, plan


@fill_doc
def tail_probability(rows, cols, value: float, statistic: str = "s",
                     alternative: str = "greater", n_sim: int = DEFAULT_N_SIM,
                     seed=None, max_seconds: float | None = None,
                     progress: bool = False) -> TailEstimate:
    """P(S >= value) or P(S <= value) under fixed margins, far below the Monte Carlo floor.

    S = sum n_ij^2 ("s") or sum n_ij log n_ij ("t") of a table drawn with the given margins
    (the permutation model). The estimate is the mean of ``N_RUNS`` independent sequential
    Monte Carlo runs, each unbiased, over tables tilted by exp(tau S) toward the tail (see
    the module docstring); its standard error is their spread over sqrt(runs), or, where the
    runs are skewed, that of the mean of log-normal runs with their log-variance, if larger.

    Parameters
    ----------
    %(rows, cols)s
    %(value, statistic)s
    alternative : {"greater", "less"}, default "greater"
        The upper tail P(S >= value) or the lower tail P(S <= value); values within a
        relative 1e-9 of ``value`` count as in the tail.
    n_sim : int, default 10,000
        Tables over the first ``N_RUNS`` runs (at least ``MIN_PER_RUN`` = 500 per run); up to
        ``MAX_BATCHES`` times as many where the relative standard error is above
        ``MAX_RELATIVE_SE``.
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
        ``log_pvalue`` (natural log, finite below the smallest double), ``relative_se``
        (at least ``MIN_RELATIVE_SE`` = 5%, at most ``MAX_RELATIVE_SE`` = 10%; the 95%
        interval is p +- t_{R-1}(0.975) relative_se p, R the runs: 2.262 for 10), each
        run's log estimate; exact (``relative_se`` 0) for one row or one column, whose only
        table gives S, and at the largest value of S (the probability of the tables that
        attain it, in closed form: ``_tails.log_p_of_maximum``), before any sampling.

    Raises
    ------
    ValueError
        Bad margins, an unknown statistic or alternative, or fewer than 500 tables per run.
    TooSlow
        The estimate is predicted to take longer than ``max_seconds``.
    RunsDisagree
        (a ``TooSlow``) The runs' logarithms spread by more than ``MAX_LOG_SD`` (or a run
        found no table in the tail), or the relative standard error is still above
        ``MAX_RELATIVE_SE`` after ``MAX_BATCHES`` batches of ``N_RUNS`` runs: their mean's
        error cannot be stated.
    NotMixed
        (a ``TooSlow``) The pilot's moves did not mix at some tilt within 60 rounds, so the
        runs' spread would understate their error.

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
    except NotMixed:
        raise
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
        batch = time.monotonic()
        runs, _ = _runs(a, b, statistic, float(value), sign, per, N_RUNS, rng, schedule,
                        bar=bar)
        batch = time.monotonic() - batch
        if not np.isfinite(runs).any():
            return TailEstimate(-math.inf, math.inf, tuple(runs.tolist()))
        spread = float(np.std(runs, ddof=1)) if np.isfinite(runs).all() else math.inf
        if spread > MAX_LOG_SD:
            logs = np.sort(runs / math.log(10))
            raise RunsDisagree(
                f"the {N_RUNS} runs of importance sampling disagree: their log10 estimates run "
                f"from {logs[0]:.2f} to {logs[-1]:.2f} (the standard deviation of their "
                f"logarithms is {spread:.2g}, above {MAX_LOG_SD}), so their mean's error cannot "
                f"be stated; more tables per run (n_sim above {n_sim:,}) narrow their spread, "
                "or use method='exact' where the exact law fits")
        # a noisy estimate: more runs on the same schedule (each unbiased), then refuse
        while (_raw_relative_se(runs) > MAX_RELATIVE_SE and len(runs) < MAX_BATCHES * N_RUNS
               and (max_seconds is None
                    or time.monotonic() - start + batch <= max_seconds)):
            more, _ = _runs(a, b, statistic, float(value), sign, per, N_RUNS, rng, schedule)
            runs = np.concatenate([runs, more])
    finally:
        if bar is not None:
            bar.close()
    rse = _raw_relative_se(runs)
    if not rse <= MAX_RELATIVE_SE:
        raise RunsDisagree(
            f"importance sampling is too noisy here: after {len(runs)} runs of {per:,} tables "
            f"its relative standard error is {rse:.0%}, above {MAX_RELATIVE_SE:.0%}, so its "
            f"error cannot be stated reliably; more tables (n_sim above "
            f"{per * len(runs):,}) lower it, or use method='exact' where the exact law fits")
    top = runs.max()
    scaled = np.exp(runs - top)
    log_p = float(top + math.log(scaled.mean()))
    return TailEstimate(min(log_p, 0.0), _relative_se(runs), tuple(runs.tolist()))


def _relative_se(runs):
    """The relative standard error stated: ``_raw_relative_se``, at least ``MIN_RELATIVE_SE``.

    The spread of a few skewed runs is itself noisy: on the stored runs of the benchmark's
    193 cases (158 against the exact law, 35 hard ones; before issue 45) the interval of
    +- t_9 raw standard errors covered the exact p in 96.4% (94.9% below 1e-30), and its 7
    misses were 5% to 10% off at raw standard errors of 1.5% to 3.8% (up to 4.3 of them);
    with the floor the same runs cover 99.5% (98.7% below 1e-30). See
    ``benchmarks/results/saddlepoint.md`` for runs with other seeds."""
    return max(_raw_relative_se(runs), MIN_RELATIVE_SE)


def _raw_relative_se(runs):
    """The standard error of the runs' mean over the mean: from their spread, or, where the
    runs are skewed, from the spread of their logarithms (the mean of R log-normal runs with
    log-variance v has a relative standard error sqrt((e^v - 1) / R)), whichever is larger.

    Skewed runs rarely show their large values, so their own spread understates it: on a
    10 x 10 table of 10**4 objects at p = 1.8e-120, 10 runs spread over a factor of 60
    (log-sd 1.6) stated 45% from their spread and 121% from their logarithms (and such runs
    are refused: ``MAX_LOG_SD``)."""
    scaled = np.exp(runs - runs.max())
    spread = float(scaled.std(ddof=1) / math.sqrt(len(runs)) / scaled.mean())
    lognormal = math.sqrt(math.expm1(float(runs.var(ddof=1))) / len(runs))
    return max(spread, lognormal)


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
