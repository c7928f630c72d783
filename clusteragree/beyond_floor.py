"""P-values beyond the Monte Carlo floor: the importance-sampling tail beside a Monte Carlo
p-value at its floor 1/(B + 1), for the tests of ``agreement_test`` and ``compare``.

Under fixed margins (model "perm") a Monte Carlo p-value with no simulated table as extreme
as the observed one says only p < 1/(B + 1). Every index that is a monotone function of
s = sum n_ij^2 or t = sum n_ij log n_ij has as its p-value a tail probability of that
statistic, which ``clusteragree.nulls.importance.tail_probability`` estimates far below the
floor (sequential Monte Carlo over tilted tables; on 158 cases against the exact law a median
error of 2.5% of p, the 95% interval covering the exact p in 93%, and 89% on 35 hard cases).
``add_beyond_floor`` adds that estimate to such tests, one estimate per statistic and tail
(the indices of one test group share it, as they share the Monte Carlo law), from a random
stream of its own (a child of the call's seed), and says in each test's
``beyond_floor_note`` why a test at the floor has none. The Monte Carlo ``pvalue`` is not
changed.
"""

from __future__ import annotations

import math

import numpy as np

from ._validate import child_generator
from .indices import STATISTIC_NAMES, STATISTICS
from .nulls.importance import DEFAULT_N_SIM, TooSlow, tail_probability

__all__ = ["add_beyond_floor", "wanted", "MAX_SECONDS", "ACCURACY"]

#: The longest an estimate may be predicted to take (seconds); longer ones are skipped, with a
#: note (``tail_probability``'s ``max_seconds``).
MAX_SECONDS = 20.0

#: The estimator's measured accuracy against the exact law (benchmarks/bench_saddlepoint.py),
#: in one sentence for notes and reports.
ACCURACY = ("importance sampling of tables tilted toward the observed value (10,000 tables); "
            "against the exact law on 158 cases (2 x 2 to 4 x 5 tables, p from 1e-3 to "
            "1e-100) its median error was 2.5% of p and its 95% interval covered the exact p "
            "in 93%, and in 89% of 35 harder ones (near-equal margins, p from 1e-20 to "
            "1e-60; worst -16%)")

_SPAWN = 2  # the child of the call's seed sequence (the intervals' bootstrap takes 1)


def wanted(spec) -> bool:
    """Whether a call's NullSpec asks for the tail beyond the floor: its ``beyond_floor``
    (off by default, so it is asked for, not given unasked; its accuracy: ``ACCURACY``)."""
    return bool(spec.beyond_floor)


def _generator(seed) -> np.random.Generator:
    """A stream of the call's seed of its own (a Generator goes on with its stream), so the
    null's tables and the intervals' resamples are the same with and without this."""
    return child_generator(seed, _SPAWN)


def _at_floor(test) -> bool:
    """A Monte Carlo p-value under fixed margins with no simulated table as extreme."""
    nd = test.null
    return nd.is_sampled and nd.model == "perm" and test.n_extreme == 0


def _side(test) -> str:
    """The tail of the statistic (s or t) that is the test's p-value: "greater" or "less"
    (a two-sided test: the tail the observed value is in)."""
    side = test.alternative
    if side == "two-sided":
        side = "greater" if test.statistic >= test.null.mean else "less"
    if test.record.kind == "distance":  # a distance decreases in its statistic
        side = {"greater": "less", "less": "greater"}[side]
    return side


def add_beyond_floor(tests, clusterings, spec) -> list[str]:
    """Add the importance-sampling p-value to the tests whose Monte Carlo p-value is at its
    floor, in place (``pvalue_beyond_floor``, ``pvalue_beyond_floor_se``,
    ``log10_pvalue_beyond_floor``; ``beyond_floor_note`` where it is not estimated).

    Parameters
    ----------
    tests : list of AgreementTest
        The tests of one call, in their order.
    clusterings : Clusterings
        Their clusterings (the observed table).
    spec : NullSpec
        The call's spec (``wanted`` decides; its seed and ``progress`` are used).

    Returns
    -------
    list of str
        The notes of the tests at the floor left without an estimate, one per reason.
    """
    floor = [t for t in tests if _at_floor(t)]
    if not floor or not wanted(spec):
        return []
    table = clusterings.table
    groups: dict = {}
    for t in floor:
        stat = t.record.monotone_in
        if stat is None:
            t.beyond_floor_note = (
                f"{t.index}: no p-value beyond the Monte Carlo floor (importance sampling "
                "estimates tails of s = sum n_ij^2 or t = sum n_ij log n_ij, and this index "
                "is not a monotone function of either given the margins)")
        elif table is None or not table.dense:
            t.beyond_floor_note = (f"{t.index}: no p-value beyond the Monte Carlo floor "
                                   "(importance sampling needs the dense table)")
        else:
            groups.setdefault((stat, _side(t)), []).append(t)
    rng = _generator(spec.seed) if groups else None
    counts = None if not groups else np.asarray(table.counts, dtype=np.int64)
    for (stat, side), members in groups.items():
        value = float(STATISTICS[stat](counts))
        try:
            est = tail_probability(table.row_sums, table.col_sums, value, stat, side,
                                   DEFAULT_N_SIM, int(rng.integers(2**63)),
                                   max_seconds=MAX_SECONDS, progress=spec.progress)
        except TooSlow as exc:
            names = ", ".join(t.index for t in members)
            for t in members:
                t.beyond_floor_note = (
                    f"{names}: no p-value beyond the Monte Carlo floor (importance sampling of "
                    f"the tail of {STATISTIC_NAMES[stat]} skipped: {exc})")
            continue
        for t in members:
            log_p = est.log_pvalue
            if t.alternative == "two-sided":
                log_p = min(0.0, log_p + math.log(2.0))
            p = math.exp(log_p) if log_p > -math.inf else 0.0
            t.pvalue_beyond_floor = p
            t.pvalue_beyond_floor_se = p * est.relative_se
            t.beyond_floor_rse = est.relative_se
            t.log10_pvalue_beyond_floor = log_p / math.log(10.0)
            t.beyond_floor_method = "importance"
    return list(dict.fromkeys(t.beyond_floor_note for t in floor if t.beyond_floor_note))
