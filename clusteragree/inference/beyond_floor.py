"""P-values beyond the Monte Carlo floor: the saddlepoint approximation and importance sampling
beside a Monte Carlo p-value at its floor 1/(B + 1), for the tests of ``agreement_test`` and
``compare``.

Under fixed margins (model "perm") a Monte Carlo p-value with no simulated table as extreme
as the observed one says only p < 1/(B + 1). Every index that is a monotone function of
s = sum n_ij^2 or t = sum n_ij log n_ij has as its p-value a tail probability of that
statistic, which two methods reach far below the floor:

* ``clusteragree.nulls.saddlepoint.saddlepoint_tail`` (``SADDLEPOINT_ACCURACY``): a fraction
  of a second, but refused outside the domain where it was measured to be right (small
  tables, lower tails, and the far tails where real clusterings usually are);
* ``clusteragree.nulls.importance.tail_probability`` (``ACCURACY``): seconds to a minute, with
  its standard error.

``add_beyond_floor`` gives such tests their p-value beyond the floor (a new ``PValue``, which
the test takes), one estimate per statistic and tail (the indices of one test group share it,
as they share the Monte Carlo law), as the call's
``NullSpec(beyond_floor=...)`` asks: by default (None) the saddlepoint wherever it answers;
True adds importance sampling, as the check of the saddlepoint or alone where the saddlepoint
is refused; False neither. Importance sampling draws from a random stream of its own (a child
of the call's seed). Each test at the floor left without a p-value beyond it says why in its
``beyond_floor_note`` (the p-value's note). The Monte Carlo ``pvalue`` is not changed.
"""

from __future__ import annotations

import math

import numpy as np

from .._validate import child_generator
from ..indices import STATISTIC_NAMES, STATISTICS
from ..nulls.importance import DEFAULT_N_SIM, RunsDisagree, TooSlow, tail_probability
from ..nulls.saddlepoint import OutsideDomain, saddlepoint_tail
from .pvalues import PValue, PValueSpec

__all__ = ["add_beyond_floor", "MAX_SECONDS", "ACCURACY", "SADDLEPOINT_ACCURACY"]

#: The longest an importance-sampling estimate may be predicted to take (seconds); longer
#: ones are skipped, with a note (``tail_probability``'s ``max_seconds``). A 4 x 4 table of
#: 846 objects at p = 1e-63 takes about 7 s.
MAX_SECONDS = 60.0

#: The saddlepoint approximation's measured accuracy (benchmarks/bench_saddlepoint.py), in one
#: sentence for notes and reports.
SADDLEPOINT_ACCURACY = (
    "the saddlepoint approximation (Lugannani-Rice on a Laplace approximation of the "
    "cumulant generating function over tables); where it answers, it was within 6.4% of the "
    "exact p on small tables (550 cases, p from 1e-2 to 1e-100) and within 8% of importance "
    "sampling "
    "on 10 x 10 tables of 10,000 objects to p = 1e-30, and it is refused where the tilted tables "
    "are far from Gaussian")

#: The estimator's measured accuracy against the exact law (benchmarks/bench_saddlepoint.py),
#: in one sentence for notes and reports.
ACCURACY = ("importance sampling of tables tilted toward the observed value (10,000 tables); "
            "against the exact law on 158 cases (2 x 2 to 4 x 5 tables, p from 1e-3 to "
            "1e-100) its median error was 2.4% of p and its 95% interval covered the exact p "
            "in 99%, and in all of 35 harder ones (near-equal margins, p from 1e-20 to "
            "1e-60; at most 2.3 standard errors off)")

_SPAWN = 2  # the child of the call's seed sequence (the intervals' bootstrap takes 1)


def _conclude(pvalues, members, names, statistic, sp, why, est, slow, importance) -> list:
    """Record what the saddlepoint (``sp``, or the reason ``why`` it was refused) and
    importance sampling (``est``, or ``slow``: why there is none; asked for or not:
    ``importance``) give the tests of one group; returns the note of the check, if any."""
    if not importance:  # the saddlepoint alone (the default)
        if sp is not None:
            _record(pvalues, members, sp.log_pvalue, math.nan, "saddlepoint")
        else:
            _refused(pvalues, members, f"{names}: no p-value beyond the Monte Carlo floor "
                     f"(the saddlepoint approximation is refused: {why}; "
                     "NullSpec(beyond_floor=True) estimates it by importance sampling)")
        return []
    if sp is not None:
        check = None if est is None else _check_text(sp.log_pvalue, est)
        _record(pvalues, members, sp.log_pvalue, math.nan, "saddlepoint", check)
        return [] if check is None else [f"{names}: the saddlepoint p checked by {check}"]
    if est is not None:
        _record(pvalues, members, est.log_pvalue, est.relative_se, "importance")
    else:
        _refused(pvalues, members, f"{names}: no p-value beyond the Monte Carlo floor "
                 f"(the saddlepoint approximation is refused: {why}; importance sampling "
                 f"of the tail of {statistic} {slow})")
    return []


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


def _outside(exc: OutsideDomain) -> str:
    """The reason of a refused saddlepoint as a clause after "is refused:", without its advice
    on methods ("a cell's variance grows ...", "it handles at most 400 cells, ...")."""
    text = str(exc).split("; use method=")[0]
    text = text.removeprefix("the saddlepoint approximation is refused here: ")
    if text.startswith("the saddlepoint approximation "):
        text = "it " + text.removeprefix("the saddlepoint approximation ")
    return text


def _record(pvalues, members, log_p: float, rse: float, method: str,
            check: str | None = None):
    """Give the p-values of a group's tests (position -> test) one tail estimate (natural
    log; a two-sided test doubles the observed side, at most 1)."""
    for i, t in members.items():
        lp = min(0.0, log_p + math.log(2.0)) if t.alternative == "two-sided" else log_p
        pvalues[i] = pvalues[i].beyond_floor(PValue.tail_of(lp, rse, method, check))


def _refused(pvalues, members, note: str):
    """Give the p-values of a group's tests (by position) the note why they have no p-value
    beyond the floor."""
    for i in members:
        pvalues[i] = pvalues[i].beyond_floor(note=note)


def _check_text(sp_log: float, est) -> str:
    """The importance-sampling check of a saddlepoint p, in words."""
    diff = (math.exp(sp_log - est.log_pvalue) - 1) / est.relative_se if est.relative_se else 0
    p = math.exp(est.log_pvalue)
    shown = (f"{p:.2g}" if p > 0 else f"1e{est.log_pvalue / math.log(10):.1f}")
    return (f"importance sampling {shown} ± {100 * est.relative_se:.2g}%, the saddlepoint p "
            f"{abs(diff):.1f} of its standard errors {'above' if diff >= 0 else 'below'} it")


def add_beyond_floor(tests, clusterings, settings: PValueSpec, seed=None,
                     progress: bool = False) -> tuple[list, list[str]]:
    """The p-values of the tests, with the p-value beyond the floor where the Monte Carlo
    p-value is at its floor (``PValue.beyond_floor``: the estimate, or the note why there is
    none), for the tests to take; the tests are left as they are.

    The saddlepoint approximation is tried first (``settings.saddlepoint``: ``beyond_floor``
    None or True); with ``beyond_floor=True`` (``settings.importance``: seconds to a minute
    per test group, so it is asked for, not given unasked) importance sampling follows, as
    its check where it answered (the saddlepoint p is kept, the check printed beside it) or
    in its place where it was refused.

    Parameters
    ----------
    tests : list of AgreementTest
        The tests of one call, in their order.
    clusterings : Clusterings
        Their clusterings (the observed table).
    settings : PValueSpec
        The call's p-value settings (its ``beyond_floor``).
    seed : None, int, SeedSequence or Generator, optional
        The call's seed: importance sampling draws from a stream of its own.
    progress : bool, default False
        Show importance sampling's progress bar.

    Returns
    -------
    pvalues : list of PValue
        Each test's p-value, in their order: its own, or a new one with what lies beyond the
        floor.
    notes : list of str
        The notes of the tests at the floor left without a p-value beyond it, one per reason,
        and of the checks.
    """
    pvalues = [t.pvalue_detail for t in tests]
    floor = [i for i, t in enumerate(tests) if _at_floor(t)]
    if not floor or not settings.saddlepoint:
        return pvalues, []
    table = clusterings.table
    groups: dict = {}
    for i in floor:
        t = tests[i]
        stat = t.record.monotone_in
        if stat is None:
            if not settings.importance:  # not asked for by name: no note either
                continue
            _refused(pvalues, [i], (
                f"{t.index}: no p-value beyond the Monte Carlo floor (the saddlepoint and "
                "importance sampling reach tails of s = sum n_ij^2 or t = sum n_ij log n_ij, "
                "and this index is not a monotone function of either given the margins)"))
        elif table is None or not table.dense:
            if not settings.importance:
                continue
            _refused(pvalues, [i], f"{t.index}: no p-value beyond the Monte Carlo floor (it "
                                   "needs the dense table)")
        else:
            groups.setdefault((stat, _side(t)), {})[i] = t
    rng = _generator(seed) if groups and settings.importance else None
    counts = None if not groups else np.asarray(table.counts, dtype=np.int64)
    checks = []
    for (stat, side), members in groups.items():
        value = float(STATISTICS[stat](counts))
        names = ", ".join(t.index for t in members.values())
        why = slow = est = None
        try:
            sp = saddlepoint_tail(table.row_sums, table.col_sums, value, stat, side)
        except OutsideDomain as exc:
            sp, why = None, _outside(exc)
        if rng is not None:  # importance sampling asked for: as the check, or in its place
            try:
                est = tail_probability(table.row_sums, table.col_sums, value, stat, side,
                                       DEFAULT_N_SIM, int(rng.integers(2**63)),
                                       max_seconds=MAX_SECONDS, progress=progress)
            except RunsDisagree as exc:  # it ran, and refused its own answer
                slow = f"refused: {exc}"
            except TooSlow as exc:
                slow = f"skipped: {exc}"
        checks += _conclude(pvalues, members, names, STATISTIC_NAMES[stat], sp, why, est, slow,
                            rng is not None)
    notes = list(dict.fromkeys(pvalues[i].note for i in floor if pvalues[i].note))
    return pvalues, notes + checks
