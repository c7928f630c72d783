"""What the tail-only methods (``method="importance"``, ``"saddlepoint"``) share: the tail
estimate, the answers that need no method (one row or column, a value beyond every table),
their refusals, and the law of an index built from tail probabilities of s or t.

Every pair-counting index is a monotone function of s = sum n_ij^2 and every information
index of t = sum n_ij log n_ij given the margins, so the p-value of an index is a tail
probability P(S >= s_obs) or P(S <= s_obs) of one additive cell statistic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validate import check_choice
from ..indices import STATISTICS
from ._laws import TailLaw

__all__ = ["TailEstimate", "cell_statistic", "tail_margins", "settled_tail",
           "log_p_of_maximum",
           "check_tail_request", "index_tail", "tail_laws"]


@dataclass(frozen=True)
class TailEstimate:
    """An estimated tail probability, in logarithms.

    Attributes
    ----------
    log_pvalue : float
        log p (natural logarithm); -inf when no table can be in the tail.
    relative_se : float
        The standard error of p over p (0 when p is known exactly; nan for an approximation
        without one).
    runs : tuple of float
        Each run's log estimate (importance sampling).
    exact : bool
        The answer needs no estimate (one row or column; a value beyond every table).
    """

    log_pvalue: float
    relative_se: float
    runs: tuple = ()
    exact: bool = False

    @property
    def pvalue(self) -> float:
        """p = exp(log p) (0.0 below the smallest double: read ``log_pvalue``)."""
        return math.exp(self.log_pvalue) if self.log_pvalue > -math.inf else 0.0


def cell_statistic(x, statistic: str) -> np.ndarray:
    """f(x) of each cell: x^2 ("s") or x log x ("t", 0 at 0)."""
    x = np.asarray(x, dtype=float)
    if statistic == "s":
        return x * x
    return x * np.log(np.where(x > 0, x, 1.0))


def tail_margins(rows, cols, value, statistic: str, alternative: str):
    """Checked arguments of a tail probability: the positive margins (empty rows and columns
    dropped), the value as a float and the side's sign (+1 "greater", -1 "less")."""
    check_choice(statistic, "statistic", ("s", "t"))
    check_choice(alternative, "alternative", ("greater", "less"))
    if isinstance(value, bool) or not np.isfinite(value):
        raise ValueError(f"value must be a finite number, got {value!r}")
    a = np.asarray(rows, dtype=np.int64).ravel()
    b = np.asarray(cols, dtype=np.int64).ravel()
    if a.size == 0 or b.size == 0 or (a < 0).any() or (b < 0).any() or a.sum() != b.sum() \
            or a.sum() == 0:
        raise ValueError("rows and cols must be non-negative margins with the same positive "
                         f"total, got {a.tolist()} and {b.tolist()}")
    return a[a > 0], b[b > 0], float(value), 1.0 if alternative == "greater" else -1.0


def settled_tail(a, b, value: float, statistic: str, sign: float):
    """The tail when it needs no estimate, else None: one row or one column (one table), or
    a value beyond every table's (0) or short of every table's (1).

    Every table has S in [low, high]: f is convex (Jensen: S >= K Q f(n / (K Q))) and
    superadditive on the integers (a row's cells give at most f(a_i))."""
    tol = 1e-9 * max(1.0, abs(value))
    if len(a) == 1 or len(b) == 1:  # one table: S is known
        only = float(cell_statistic(b if len(a) == 1 else a, statistic).sum())
        inside = sign * (only - value) >= -tol
        return TailEstimate(0.0 if inside else -math.inf, 0.0, exact=True)
    n, cells = float(a.sum()), len(a) * len(b)
    low = cells * float(cell_statistic(n / cells, statistic))
    high = min(float(cell_statistic(a, statistic).sum()), float(cell_statistic(b, statistic).sum()))
    if sign * (value - (high if sign > 0 else low)) > tol:  # beyond every table
        return TailEstimate(-math.inf, 0.0, exact=True)
    if sign * (value - (low if sign > 0 else high)) <= tol:  # every table is in the tail
        return TailEstimate(0.0, 0.0, exact=True)
    if sign > 0 and value >= high - tol:  # at the largest S: the tables that attain it
        log_p = log_p_of_maximum(a, b, statistic)
        if log_p is not None:
            return TailEstimate(log_p, 0.0, exact=True)
    return None


#: The most states (remaining column capacities) counted when rows are assigned to columns.
MAX_ASSIGNMENT_STATES = 100_000


def log_p_of_maximum(a, b, statistic: str):
    """log P(S = max S) under fixed margins, where the bound S <= min(sum f(a), sum f(b)) is
    attained; None where it is not (or counting the tables would take too long).

    f (x^2 or x log x) is strictly superadditive on the positive integers, so S = sum_i f(a_i)
    exactly for the tables whose every row lies in one column: a map of rows to columns with
    column sums b. Each such table has probability prod a_i! prod b_j! / (n! prod n_ij!) =
    prod b_j! / n!, so P(S = sum f(a)) = N prod b_j! / n!, N the number of such maps (the same
    with rows and columns exchanged). Where sum f(a) = sum f(b) the tables are the
    one-to-one matchings of equal margins (a permutation of a diagonal table): N = prod m_v!,
    m_v the number of rows of each size v (0 unless the margins are the same multiset).
    Elsewhere N is counted by assigning rows in turn (at most ``MAX_ASSIGNMENT_STATES``
    remaining capacities of the columns). The p-value of a perfect 10 x 10 diagonal table of
    100 objects needs no sampling: 10! 10!^10 / 100!."""
    a = [int(v) for v in a]
    b = [int(v) for v in b]
    n = sum(a)
    fa = float(cell_statistic(np.array(a), statistic).sum())
    fb = float(cell_statistic(np.array(b), statistic).sum())
    tol = 1e-9 * max(1.0, abs(fa), abs(fb))
    if abs(fa - fb) <= tol:
        if sorted(a) != sorted(b):
            return None
        log_n = sum(math.lgamma(a.count(v) + 1) for v in set(a))
        return log_n + sum(math.lgamma(v + 1) for v in b) - math.lgamma(n + 1)
    if fa > fb:  # the columns attain the smaller bound: exchange
        a, b = b, a
    count = _assignments(tuple(sorted(a, reverse=True)), tuple(sorted(b)))
    if not count:
        return None
    return math.log(count) + sum(math.lgamma(v + 1) for v in b) - math.lgamma(n + 1)


def _assignments(rows, cols):
    """The number of maps of the rows (sizes) to the columns whose sizes sum to the columns'
    capacities; None beyond ``MAX_ASSIGNMENT_STATES`` states."""
    memo: dict = {}

    def count(i, caps):
        if i == len(rows):
            return 1
        key = (i, caps)
        if key in memo:
            return memo[key]
        if len(memo) > MAX_ASSIGNMENT_STATES:
            raise OverflowError
        total = 0
        for j, c in enumerate(caps):
            if c >= rows[i]:
                new = list(caps)
                new[j] = c - rows[i]
                # columns of equal remaining capacity are counted apart: keep their order
                total += count(i + 1, tuple(new))
        memo[key] = total
        return total
    try:
        return count(0, cols)
    except (OverflowError, RecursionError):
        return None


def check_tail_request(req, method: str):
    """Refuse, by name and before any work, an index that is not an affine function of s or
    t given the margins (its p-value is a tail of s or t, but its mean and the printed test
    need closed forms)."""
    for rec in req.indices:
        if rec.monotone_in is None:
            raise ValueError(
                f"method={method!r} gives tail probabilities of s = sum n_ij^2 or t = sum "
                f"n_ij log n_ij, and index {rec.name!r} is not a monotone function of either "
                "given the margins; use method='exact' or 'patefield'")
        if not rec.linear:
            raise ValueError(
                f"method={method!r} needs an index affine in its statistic (for its null mean "
                f"and z), and {rec.name!r} is a non-linear function of {rec.monotone_in}; its "
                f"p-value is that of any affine index of {rec.monotone_in} (e.g. "
                f"{'rand' if rec.monotone_in == 's' else 'mutual_info'!r}), which "
                f"method={method!r} gives")


def index_tail(rec, options, rows, cols, observed, statistic_tail):
    """``tail(t, alternative)`` of an index: the index value mapped to its statistic (exactly
    at the observed value; by root finding elsewhere), and ``statistic_tail(value, side)``,
    the tail of the statistic."""
    from scipy.optimize import brentq

    increasing = rec.kind != "distance"
    n = float(np.sum(rows))
    top = n * n if rec.statistic == "s" else n * math.log(n) + 1.0

    def index_of(stat):
        return float(rec.of_statistic(np.array([stat]), rows, cols, **options)[0])

    def statistic_of(t):
        if t == observed[0]:
            return observed[1]
        g0, g1 = index_of(0.0) - t, index_of(top) - t
        if g0 * g1 > 0:  # beyond every table: the whole law is on one side
            return -math.inf if (g0 > 0) == increasing else math.inf
        return brentq(lambda v: index_of(v) - t, 0.0, top, xtol=1e-12 * top, rtol=1e-15)

    def tail(t, alternative):
        stat = statistic_of(t)
        side = alternative if increasing else {"greater": "less", "less": "greater"}[alternative]
        if not math.isfinite(stat):
            inside = (stat < 0) == (side == "greater")
            return TailEstimate(0.0 if inside else -math.inf, 0.0, exact=True)
        return statistic_tail(stat, side)
    return tail


def tail_laws(req, statistic_tail, words=None, details=None) -> dict:
    """The NullDistribution of each index of a request from tail probabilities of its
    statistic: ``statistic_tail(rows, cols, value, statistic, side, seed)`` gives one;
    ``words(estimate)`` says how it was obtained, for printing (``TailLaw``)."""
    from .hypergeometric import index_moments

    rows, cols = req.margins
    counts = np.asarray(req.table.counts, dtype=np.int64)
    out = {}
    for rec in req.indices:
        opts = req.options[rec.name]
        stat = float(STATISTICS[rec.statistic](counts))
        observed = (float(rec.of_statistic(np.array([stat]), rows, cols, **opts)[0]), stat)
        seed = int(req.rng.integers(2**63)) if req.method.monte_carlo else None

        def of_statistic(value, side, rec=rec, seed=seed):
            return statistic_tail(rows, cols, value, rec.statistic, side, seed)
        tail = index_tail(rec, opts, rows, cols, observed, of_statistic)
        law = TailLaw(tail, moments=lambda rec=rec, opts=opts: index_moments(rec, rows, cols,
                                                                               **opts),
                      n_sim=req.n_sim if req.method.monte_carlo else None, words=words)
        out[rec.name] = req.null_of(rec, tail=law, details=details)
    return out
