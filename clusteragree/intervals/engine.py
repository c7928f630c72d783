"""Confidence intervals for every index: the jackknife, its "auto" rules, the bootstrap.

An index computed on n objects estimates the index of the population the objects were drawn
from; its interval comes from the index's sampling distribution, not from its null law (the
null asks what chance alone would give, the interval how far the estimate may be from its
target). Four methods (``METHODS``):

* "auto" (the default): the jackknife on the index's own scale, the test of independence
  inverted at the index's independence value, an exact one-sided bound at perfect agreement
  (``clusteragree.intervals.rules`` states and derives the rules);
* "jackknife": the plain jackknife t interval. The jackknife leaves one object out: for a
  table, one count out of one cell, K x Q tables weighted by their counts, not n; for an
  index of object pairs each of the n objects in turn;
* "percentile" and "BCa" (bias corrected and accelerated; Efron 1987): the bootstrap, the
  objects resampled with replacement (Efron & Tibshirani 1993), as ``scipy.stats.bootstrap``
  computes them (``tests/test_intervals.py`` checks them against it). For a table index,
  resampling the n objects is a multinomial draw of the table's cells, so B resamples are one
  (B, K, Q) batch of tables, drawn in chunks of bounded memory and evaluated like any batch of
  random tables (each by its own margins, its empty rows and columns left out where the index
  depends on the table's shape). For an index of object pairs (fuzzy memberships, covers,
  similarity matrices) a resample is the distinct drawn objects with their multiplicities
  w_i: each pair of distinct objects counts w_i w_k times, and the copies of one object form
  no pair (``clusteragree.indices.evaluate_resample``).

``benchmarks/bench_coverage.py`` measures the coverage of each method on a grid of
populations.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
from scipy.special import ndtr, ndtri

from .._docs import fill_doc
from .._validate import check_choice, check_options, check_real
from ..indices import (Index, ResampleRefused, evaluate_checked, evaluate_pairwise,
                       evaluate_resample, get_index, one_index, values_on_tables)
from ..inputs import Clusterings, as_clusterings
from ..nulls import NullSpec
from ..nulls.engine import plan, run
from .result import ConfidenceInterval
from .rules import (cuts_at_independence, independence_value, invert_independence_test,
                    jackknife_interval, off_matching_bound, on_matching, perfect_bound,
                    population_twin)
from .spec import (BOOTSTRAP_METHODS, CHUNK_CELLS, TEST_N_SIM, IntervalSpec, check_level,
                   check_method, interval_spec_of)

__all__ = ["confidence_interval", "interval_of", "intervals_of", "interval_from_draws",
           "independence_laws"]

# -- tables: the multinomial bootstrap -------------------------------------------------------

def _not_defined(exc: Exception, where: str) -> str:
    """The reason an index has no interval: it refused some of the tables it was given."""
    return (f"it is not defined on some {where}, and leaving those out would bias the "
            f"interval; on one: {exc}")


def _table_values(recs, options: dict, tables: np.ndarray, failed: dict, where: str) -> dict:
    """Several indices on a batch of tables, each table by its own margins (empty rows and
    columns handled as the null engine handles them). An index that refuses a table of the
    batch (kappa on a resample that lost a cluster of one clustering only) goes into
    ``failed`` with its reason, and the others are evaluated without it; an index already in
    ``failed`` is not evaluated again."""
    live = [r for r in recs if r.name not in failed]
    try:
        return values_on_tables(live, {r.name: options[r.name] for r in live}, tables)
    except ValueError:  # find the indices that refuse, and keep the others
        out = {}
        for rec in live:
            try:
                out.update(values_on_tables([rec], {rec.name: options[rec.name]}, tables))
            except ValueError as exc:
                failed[rec.name] = _not_defined(exc, where)
        return out


def _table_resamples(recs, options, counts, n_resamples, rng, failed=None) -> dict:
    """The indices on ``n_resamples`` multinomial resamples of the table ``counts``, the
    same resampled tables for every index (drawn once, in chunks of bounded memory); an
    index not defined on a resample goes into ``failed`` with its reason."""
    failed = {} if failed is None else failed
    n = int(counts.sum())
    p = (counts / n).ravel()
    chunk = max(1, min(n_resamples, CHUNK_CELLS // p.size))
    out = {r.name: np.full(n_resamples, np.nan) for r in recs}
    for start in range(0, n_resamples, chunk):
        stop = min(n_resamples, start + chunk)
        tables = rng.multinomial(n, p, size=stop - start).reshape(-1, *counts.shape)
        for name, values in _table_values(recs, options, tables, failed,
                                          "bootstrap resamples of the objects").items():
            out[name][start:stop] = values
    return out


def _table_jackknife(recs, options, counts, failed=None) -> dict:
    """The leave-one-object-out values of table indices: name -> (values, weights), one
    value per non-empty cell (its count less one), weighted by the cell's count; an index
    not defined on a leave-one-out table goes into ``failed`` with its reason."""
    failed = {} if failed is None else failed
    rows, cols = np.nonzero(counts)
    tables = np.repeat(counts[None], len(rows), axis=0)
    tables[np.arange(len(rows)), rows, cols] -= 1
    weights = counts[rows, cols].astype(float)
    values = _table_values(recs, options, tables, failed,
                           "tables with one object left out (BCa's jackknife)")
    return {name: (v, weights) for name, v in values.items()}


# -- objects: indices of object pairs ---------------------------------------------------------

def _take(M, fmt, idx):
    """A clustering's objects ``idx`` (rows; rows and columns of a similarity matrix). A
    cluster none of whose objects was drawn is no cluster of the resample, and is left out,
    as a resampled table leaves out its empty rows and columns (the entry refuses empty
    clusters, so no index need define its value on one); a resample that holds no cluster
    at all (only objects in none: a cover) is one on which the index is not defined."""
    if fmt == "matrix":
        return M[np.ix_(idx, idx)]
    sub = M[idx]
    drawn = sub.any(axis=0)
    if drawn.all():
        return sub
    if not drawn.any():
        raise ValueError("a resample drew only objects that are in no cluster of one "
                         "clustering, which then has no cluster")
    return sub[:, drawn]


def _pair_value(rec, pair, options, idx) -> float:
    """The index on the objects ``idx``: the distinct objects drawn, each weighted by how
    often it was drawn; the copies of one object form no pair (``evaluate_resample``)."""
    objects, counts = np.unique(idx, return_counts=True)
    X, fx, Y, fy = pair
    return evaluate_resample(rec, (_take(X, fx, objects), fx, _take(Y, fy, objects), fy),
                             options, counts)


def _pair_resamples(rec, options, pair, n, n_resamples, rng, failed) -> np.ndarray:
    """The index on ``n_resamples`` resamples of the objects; an index not defined on one
    goes into ``failed`` with its reason (and the rest are not drawn)."""
    out = np.full(n_resamples, np.nan)
    for b in range(n_resamples):
        try:
            out[b] = _pair_value(rec, pair, options, rng.integers(0, n, n))
        except ResampleRefused as exc:
            failed[rec.name] = str(exc)
            break
        except ValueError as exc:
            failed[rec.name] = _not_defined(exc, "bootstrap resamples of the objects")
            break
    return out


def _pair_jackknife(rec, options, pair, n, failed):
    """The leave-one-object-out values of an index of object pairs, or None (the reason in
    ``failed``)."""
    everyone = np.arange(n)
    try:
        values = np.array([_pair_value(rec, pair, options, np.delete(everyone, i))
                           for i in range(n)])
    except ValueError as exc:
        failed[rec.name] = _not_defined(exc, "leave-one-out resamples (BCa's jackknife)")
        return None
    return values, np.ones(n)


# -- the intervals ----------------------------------------------------------------------------

def _acceleration(values: np.ndarray, weights: np.ndarray) -> float:
    """BCa's acceleration from weighted jackknife values (Efron & Tibshirani 1993, eq 14.15):
    a = sum w d^3 / (6 (sum w d^2)^(3/2)), d = mean - value; 0 when the jackknife values are
    all equal."""
    mean = np.sum(weights * values) / np.sum(weights)
    d = mean - values
    den = np.sum(weights * d ** 2)
    if not den > 0:
        return 0.0
    return float(np.sum(weights * d ** 3) / (6.0 * den ** 1.5))


def _bca_levels(boot, statistic, alpha, accel):
    """The two quantile levels of BCa (Efron 1987); z0 counts ties half, as scipy does."""
    B = boot.size
    below = (np.count_nonzero(boot < statistic) + np.count_nonzero(boot <= statistic)) / (2 * B)
    z0 = float(ndtri(below))
    if not math.isfinite(z0):
        return z0, math.nan, math.nan
    levels = []
    for z in (ndtri(alpha), -ndtri(alpha)):
        num = z0 + z
        levels.append(float(ndtr(z0 + num / (1 - accel * num))))
    return z0, levels[0], levels[1]


def interval_of(clusterings: Clusterings, rec: Index, options: dict, spec: IntervalSpec, *,
                seed=None, undefined: str = "raise", law=None) -> ConfidenceInterval:
    """The interval of one index on clusterings already converted and checked.

    The entry of a public function that has already converted its clusterings (and checked
    the index's options) calls this directly, e.g. the interval of a test's index. The spec
    was checked when it was made: nothing of it is checked again.

    Parameters
    ----------
    clusterings : Clusterings
        The two clusterings as ``clusteragree.inputs.as_clusterings`` left them (a table for
        a table index; the clusterings themselves for an index of object pairs).
    rec : Index
        The index's record (``ca.get_index(name)``).
    options : dict
        The index's checked options, defaults filled in.
    spec : IntervalSpec
        The interval: method, level, resamples and its own seed, if any.
    seed : None, int, SeedSequence or Generator, optional
        The seed of the call the interval belongs to (already checked): without a seed of
        its own the spec draws a stream of it (``IntervalSpec.generator``).
    undefined : {"raise", "na"}, default "raise"
        An index not defined on some resample (see ``intervals_of``): refused, or an
        interval of nan bounds with the reason.
    law : NullDistribution, optional
        "auto": the index's permutation law, when the caller has it (a test's own).

    Returns
    -------
    ConfidenceInterval
        The interval, with the bootstrap distribution.

    Raises
    ------
    ValueError
        Too few objects for the index (or, for a method that leaves one out, for its
        jackknife: one object less), or (``undefined="raise"``) an index not defined on some
        resample.

    See Also
    --------
    confidence_interval : The public entry, which converts and checks its arguments.

    Examples
    --------
    >>> from clusteragree.inputs import as_clusterings
    >>> spec = ca.IntervalSpec(method="percentile", confidence_level=0.9, n_resamples=999,
    ...                        seed=0)
    >>> ci = interval_of(as_clusterings([[30, 5], [4, 25]]), ca.get_index("jaccard"), {}, spec)
    >>> ci.method, ci.confidence_level, bool(ci.low < ci.statistic < ci.high)
    ('percentile', 0.9, True)
    """
    return intervals_of(clusterings, [rec], {rec.name: options}, spec, seed=seed,
                        undefined=undefined,
                        laws=None if law is None else {rec.name: law})[rec.name]


def intervals_of(clusterings: Clusterings, recs, options: dict, spec: IntervalSpec, *,
                 seed=None, undefined: str = "raise", laws=None) -> dict:
    """The intervals of several indices on the same resamples (or the same jackknife).

    The table indices are evaluated on one batch of resampled tables (and one jackknife), as
    ``compare`` evaluates them on one batch of null tables; the indices of object pairs
    resample the objects, each in turn. ``interval_of`` is this for one index.

    An index may not be defined on every resample: a resample of a square table may lose a
    cluster of one clustering and not of the other, and kappa, which matches the clusters
    one to one, refuses it. Leaving such resamples out would condition the bootstrap on
    every cluster being drawn and bias the interval, so the index gets no interval; the
    others, on the same resamples, are not affected.

    Parameters
    ----------
    clusterings : Clusterings
        The two clusterings, converted and checked (``as_clusterings``).
    recs : sequence of Index
        The indices' records.
    options : dict
        Index name -> its checked options.
    spec : IntervalSpec
        The intervals: method, level, resamples and their own seed, if any (checked when it
        was made: nothing of it is checked again).
    seed : None, int, SeedSequence or Generator, optional
        The seed of the call the intervals belong to (already checked): without a seed of
        its own the spec draws a stream of it (``IntervalSpec.generator``).
    undefined : {"raise", "na"}, default "raise"
        An index not defined on some resample (or on a leave-one-out table): "raise" refuses
        the call with the reason; "na" gives that index an interval of nan bounds with the
        reason in ``ConfidenceInterval.reason`` (``compare``'s notes).
    laws : dict, optional
        "auto": index name -> its NullDistribution under the permutation null (the test of
        independence it inverts), when the caller has them (``compare``); the others are
        drawn here (``independence_laws``).

    Returns
    -------
    dict
        Index name -> ConfidenceInterval.

    Raises
    ------
    ValueError
        Too few objects for an index (or, for BCa, for its jackknife: one object less), or
        (``undefined="raise"``) an index not defined on some resample.

    See Also
    --------
    interval_of : One index.

    Examples
    --------
    >>> from clusteragree.inputs import as_clusterings
    >>> recs = [ca.get_index("rand"), ca.get_index("adjusted_rand")]
    >>> spec = ca.IntervalSpec(method="percentile", n_resamples=999, seed=1)
    >>> cis = intervals_of(as_clusterings([[30, 5], [4, 25]]), recs, {"rand": {},
    ...                    "adjusted_rand": {}}, spec)
    >>> sorted(cis), cis["rand"].n_resamples
    (['adjusted_rand', 'rand'], 999)
    """
    check_choice(undefined, "undefined", ("raise", "na"))
    confidence_level, method = spec.confidence_level, spec.method
    n_resamples, rng = spec.n_resamples, spec.generator(seed)
    n = clusterings.n
    jackknifed = method != "percentile"
    need = max(r.min_n for r in recs) + (1 if jackknifed else 0)
    if n < max(need, 2):
        rec = max(recs, key=lambda r: r.min_n)
        what = "and one more for the jackknife" if jackknifed else ""
        raise ValueError(f"index {rec.name!r} needs at least {rec.min_n} objects {what}; a "
                         f"{method} interval needs n >= {max(need, 2)}, got n = {n}")
    if method == "auto":
        laws = dict(laws or {})
        missing = [r for r in recs if r.name not in laws]
        if missing:
            laws.update(independence_laws(clusterings, missing, options, rng))
    make = (_interval if method in BOOTSTRAP_METHODS
            else lambda *a, **k: _jackknife_ci(*a, **k, laws=laws or {}))
    tables = [r for r in recs if not r.on_pairs]
    out, failed = {}, {}
    if tables:
        counts = np.asarray(clusterings.table.counts)
        statistics = {rec.name: float(evaluate_checked(rec, counts, options[rec.name]))
                      for rec in tables}
        boots = (_table_resamples(tables, options, counts, n_resamples, rng, failed)
                 if method in BOOTSTRAP_METHODS else {})
        jackknives = {}
        if jackknifed:  # once for all the table indices
            jackknives = _table_jackknife(tables, options, counts, failed)
        for rec in tables:
            out[rec.name] = make(rec, statistics[rec.name], boots.get(rec.name),
                                 lambda name=rec.name: jackknives[name], confidence_level,
                                 method, "cells", failed.get(rec.name),
                                 context=(options[rec.name], counts))
    for rec in recs:
        if rec.on_pairs:
            pair = clusterings.pair(rec)
            opts = options[rec.name]
            statistic = evaluate_pairwise(rec, pair, opts)
            boot = (_pair_resamples(rec, opts, pair, n, n_resamples, rng, failed)
                    if method in BOOTSTRAP_METHODS else None)
            jack = None
            if jackknifed and rec.name not in failed:
                jack = _pair_jackknife(rec, opts, pair, n, failed)
            out[rec.name] = make(rec, statistic, boot, lambda jack=jack: jack,
                                 confidence_level, method, "objects", failed.get(rec.name),
                                 context=(opts, None))
    if failed and undefined == "raise":
        name, reason = next(iter(failed.items()))
        raise ValueError(f"no bootstrap interval for {name!r}: {reason}")
    return {r.name: out[r.name] for r in recs}


def _interval(rec, statistic, boot, jackknife, confidence_level, method,
              resampling, reason=None, context=None) -> ConfidenceInterval:
    """One interval from the index's estimate and its bootstrap distribution; ``jackknife``
    gives BCa's (values, weights) when called; ``reason``: why the index has none (it is
    not defined on some resample)."""
    alpha = (1 - confidence_level) / 2
    z0 = accel = math.nan
    n_resamples = boot.size
    if reason:
        low = high = math.nan
    elif np.isnan(boot).any():
        low = high = math.nan
        reason = (f"index {rec.name!r} is not defined on {int(np.isnan(boot).sum())} of the "
                  f"{n_resamples} resamples")
        warnings.warn(f"{reason}: no interval", stacklevel=4)
    else:
        if method == "BCa":
            accel = _acceleration(*jackknife())
            z0, lo_level, hi_level = _bca_levels(boot, statistic, alpha, accel)
        else:
            lo_level, hi_level = alpha, 1 - alpha
        if math.isnan(lo_level) or math.isnan(hi_level):
            low = high = math.nan
            reason = ("its BCa interval cannot be computed: every resample lies on one side "
                      "of the estimate; method='percentile' gives one")
            warnings.warn(f"the BCa interval of {rec.name!r} cannot be computed: every "
                          "resample lies on one side of the estimate; use "
                          "method='percentile'", stacklevel=4)
        else:
            low, high = (float(v) for v in np.quantile(boot, [lo_level, hi_level]))
    se = float(np.std(boot, ddof=1)) if n_resamples > 1 else math.nan
    return ConfidenceInterval(index=rec.name, statistic=float(statistic), low=low, high=high,
                              confidence_level=confidence_level, method=method,
                              n_resamples=n_resamples, standard_error=se,
                              bootstrap_distribution=boot, resampling=resampling, bias=z0,
                              acceleration=accel, reason=reason or "")


def independence_laws(clusterings: Clusterings, recs, options: dict, rng) -> dict:
    """Each index's law under the permutation null: the test of independence "auto" inverts.

    The law is exact where ``NullSpec(method="auto")`` finds it within its budgets, else a
    Monte Carlo law of ``TEST_N_SIM`` tables (or permutations); the indices that share their
    options are one request (one batch of tables).

    Parameters
    ----------
    clusterings : Clusterings
        The clusterings, converted and checked.
    recs : sequence of Index
        The indices.
    options : dict
        Index name -> its checked options.
    rng : numpy.random.Generator
        The source of randomness of a Monte Carlo law.

    Returns
    -------
    dict
        Index name -> NullDistribution.

    See Also
    --------
    clusteragree.intervals.rules.invert_independence_test : What "auto" does with the test.

    Examples
    --------
    >>> from clusteragree.inputs import as_clusterings
    >>> laws = independence_laws(as_clusterings([[30, 5], [4, 25]]),
    ...                          [ca.get_index("rand")], {"rand": {}}, np.random.default_rng(1))
    >>> laws["rand"].is_exact
    True
    """
    groups: dict = {}
    for rec in recs:
        key = tuple(sorted((k, repr(v)) for k, v in options[rec.name].items()))
        groups.setdefault(key, []).append(rec)
    laws = {}
    for group in groups.values():
        spec = NullSpec(method="auto", n_sim=TEST_N_SIM, seed=rng)
        laws.update(run(plan(clusterings, group, spec, dict(options[group[0].name]))))
    return laws


def _na(rec, statistic, confidence_level, method, resampling, reason, warn=True):
    """An interval of nan bounds, with its reason (and a warning)."""
    if warn:
        warnings.warn(f"no interval for {rec.name!r}: {reason}", stacklevel=5)
    return ConfidenceInterval(index=rec.name, statistic=float(statistic), low=math.nan,
                              high=math.nan, confidence_level=confidence_level, method=method,
                              n_resamples=0, standard_error=math.nan,
                              bootstrap_distribution=np.empty(0), resampling=resampling,
                              reason=reason)


def _at_optimum(rec, statistic) -> bool:
    """Whether the estimate is the index's value at perfect agreement."""
    opt = float(rec.optimum)
    return math.isfinite(opt) and abs(statistic - opt) <= 1e-12 * max(1.0, abs(opt))


def _twin_jackknife(rec, options, counts):
    """The estimate, leave-one-out values and weights of the index whose population value
    ``rec`` shares (``interval_rules.population_twin``), on the table ``counts``; None
    without a twin, a table, or where the twin is not defined on the table."""
    name = population_twin(rec, options) if counts is not None else None
    if name is None:
        return None
    twin, failed = get_index(name), {}
    statistic = _table_values([twin], {name: {}}, counts[None], failed, "the table")
    jack = _table_jackknife([twin], {name: {}}, counts, failed)
    if failed:
        return None
    return twin, float(statistic[name][0]), *jack[name]


def _jackknife_ci(rec, statistic, boot, jackknife, confidence_level, method, resampling,
                  reason=None, context=None, laws=None) -> ConfidenceInterval:
    """The "jackknife" interval, or "auto"'s (``clusteragree.intervals.rules``)."""
    options, counts = context
    if reason:
        return _na(rec, statistic, confidence_level, method, resampling, reason, warn=False)
    if method == "auto" and counts is not None and on_matching(counts) \
            and _at_optimum(rec, statistic):
        bound = perfect_bound(rec, options, counts, confidence_level)
        if (counts > 0).sum() < 2 or not math.isfinite(bound):
            return _na(rec, statistic, confidence_level, "auto", resampling,
                       "the two clusterings are the same partition and the index has no "
                       "one-sided bound there (one cluster, or not defined near it)")
        low, high = sorted((bound, float(rec.optimum)))
        return ConfidenceInterval(
            index=rec.name, statistic=float(statistic), low=low, high=high,
            confidence_level=confidence_level, method="exact bound at perfect agreement",
            n_resamples=0, standard_error=0.0, bootstrap_distribution=np.empty(0),
            resampling=resampling,
            note=("one-sided: every object lies on a one-to-one matching of the clusters, so "
                  "every resample agrees perfectly; the bound is the least agreement of a "
                  "population with these cluster sizes and at most "
                  f"{100 * off_matching_bound(int(counts.sum()), confidence_level):.3g}% of "
                  "its objects off the matching (the exact binomial bound)"))
    values, weights = jackknife()
    law = (laws or {}).get(rec.name)
    pvalue = math.nan
    if method == "auto" and law is not None:
        pvalue = law.pvalue(statistic, "greater" if rec.higher_is_better else "less")
    rejected = method == "auto" and not pvalue > 1 - confidence_level
    if np.all(values == values[0]) and (method != "auto" or rejected):
        return _na(rec, statistic, confidence_level, method, resampling,
                   "every leave-one-out value is the same: the jackknife has no spread to "
                   "make an interval from")
    notes, made_from = [], (rec, statistic, values, weights)
    twin = _twin_jackknife(rec, options, counts) if rejected else None
    if twin is not None:
        made_from = twin
        notes.append(f"made from {twin[0].name}'s jackknife: {rec.name}'s population value "
                     f"is {twin[0].name}'s, and its chance adjustment hides the plug-in bias "
                     "from its own jackknife")
    ji = jackknife_interval(*made_from, confidence_level, rescaled=rejected)
    low, high, closed, used = ji.low, ji.high, "both", "jackknife"
    if ji.scale != "identity":
        notes.append(f"jackknife t interval on the {ji.scale} scale, widened by its bias "
                     "correction")
    if method == "auto" and law is not None:
        value = independence_value(rec, options, counts, law.mean)
        cut = cuts_at_independence(rec, options, counts, confidence_level)
        low, high, closed, did = invert_independence_test(rec, low, high, pvalue,
                                                          confidence_level, value, cut)
        if did in ("contains", "excludes"):
            used = "jackknife, independence test inverted"
            notes.append(f"the test of independence (p = {pvalue:.3g}) "
                         f"{'does not reject' if did == 'contains' else 'rejects'} it: the "
                         f"interval {did} the independence value {value:.4g}")
        elif did == "rejects":
            notes.append(f"the test of independence rejects it (p = {pvalue:.3g}); the "
                         "independence value depends on the unequal cluster sizes and is not "
                         "cut off")
    lo_range, hi_range = (float(v) for v in rec.range)
    low, high = max(low, lo_range), min(high, hi_range)
    if low == lo_range and closed in ("both", "left"):
        notes.append(f"one-sided: bounded below by the index's least value {lo_range:g}")
    if high == hi_range and closed in ("both", "right"):
        notes.append(f"one-sided: bounded above by the index's greatest value {hi_range:g}")
    if not low <= statistic <= high:
        notes.append("the interval excludes the estimate: the estimate's bias (the "
                     "jackknife's correction) exceeds its spread")
    return ConfidenceInterval(index=rec.name, statistic=float(statistic), low=float(low),
                              high=float(high), confidence_level=confidence_level, method=used,
                              n_resamples=0, standard_error=ji.standard_error,
                              bootstrap_distribution=np.empty(0), resampling=resampling,
                              closed=closed, note="; ".join(notes),
                              independence_pvalue=pvalue)


def interval_from_draws(index, statistic, bootstrap=None, jackknife=None, *,
                        confidence_level=0.95, method="BCa", resampling="cells", law=None,
                        table=None, options=None) -> ConfidenceInterval:
    """An interval from bootstrap draws already made: the index's values on the resamples.

    ``confidence_interval`` draws the resamples and calls this computation; a coverage study
    (``benchmarks/bench_coverage.py``) draws the resamples of many samples in one batch and
    asks for each sample's interval from its draws, so that the interval it measures is the
    one ``confidence_interval`` gives on the same draws.

    Parameters
    ----------
    index : str or Index
        The index (its name labels the interval).
    statistic : float
        The index on the observed clusterings (the estimate).
    bootstrap : array-like, shape (n_resamples,), optional
        The index on each resample (at least 2); a nan (the index not defined on that
        resample) gives an interval of nan bounds with the reason, and a warning. Needed
        for "BCa" and "percentile".
    jackknife : tuple of two array-likes, optional
        The leave-one-object-out values and their weights (for a table: one value per
        non-empty cell, weighted by the cell's count; for objects: n values of weight 1).
        Needed for every method but "percentile".
    confidence_level : float, default 0.95
        The nominal coverage, in (0, 1).
    method : {"BCa", "percentile"}, default "BCa"
        As in ``confidence_interval``.
    resampling : {"cells", "objects"}, default "cells"
        How the draws were made (recorded in the interval).
    law : NullDistribution, optional
        "auto": the index's law under the permutation null (``independence_laws``).
    table : array-like, optional
        "auto", table index: the observed table (its margins give the independence value;
        a table on a matching gets the exact one-sided bound).
    options : dict, optional
        "auto": the index's checked options (default: its defaults).

    Returns
    -------
    ConfidenceInterval
        The interval, as ``confidence_interval`` computes it from these draws.

    Raises
    ------
    TypeError, ValueError
        A bad argument, named (BCa without a jackknife among them).

    See Also
    --------
    confidence_interval : Draws the resamples and computes the interval.

    Examples
    --------
    The percentile interval of ``confidence_interval``, again from its own draws:

    >>> ci = confidence_interval([[30, 5], [4, 25]], index="rand", method="percentile",
    ...                          n_resamples=999, seed=1)
    >>> again = interval_from_draws("rand", ci.statistic, ci.bootstrap_distribution,
    ...                             method="percentile")
    >>> (again.low, again.high) == (ci.low, ci.high), again.method
    (True, 'percentile')
    """
    rec = get_index(index)
    level = check_level(confidence_level)
    method = check_method(method)
    check_choice(resampling, "resampling", ("cells", "objects"))
    statistic = check_real(statistic, "statistic", "a number")
    boot = None
    if method in BOOTSTRAP_METHODS:
        if bootstrap is None:
            raise ValueError(f"method={method!r} needs bootstrap=, the index on each resample")
        boot = np.asarray(bootstrap, dtype=float)
        if boot.ndim != 1 or boot.size < 2:
            raise ValueError(f"bootstrap must be a 1-D array of at least 2 values, got shape "
                             f"{boot.shape}")
    jack = None
    if method != "percentile":
        if jackknife is None or len(jackknife) != 2:
            raise ValueError(f"method={method!r} needs jackknife=(values, weights), the "
                             "leave-one-object-out values and their weights")
        jack = tuple(np.asarray(v, dtype=float) for v in jackknife)
        if jack[0].ndim != 1 or jack[0].shape != jack[1].shape or jack[0].size < 1:
            raise ValueError(f"jackknife must be two 1-D arrays of the same length, got "
                             f"shapes {jack[0].shape} and {jack[1].shape}")
    if method in BOOTSTRAP_METHODS:
        return _interval(rec, statistic, boot, lambda: jack, level, method, resampling)
    counts = None if table is None else np.asarray(table)
    opts = dict(rec.options) if options is None else options
    return _jackknife_ci(rec, statistic, None, lambda: jack, level, method, resampling,
                         context=(opts, counts), laws={rec.name: law} if law else {})



@fill_doc
def confidence_interval(x, y=None, index="adjusted_rand", *, interval=None,
                        confidence_level=None, method=None, n_resamples=None, seed=None,
                        data=None, dropna=False, join="exact", **options) -> ConfidenceInterval:
    """A bootstrap confidence interval of an index: the objects resampled with replacement.

    The interval's target is the index of the population the n objects were drawn from (for
    a table index, the index of the population's cell proportions p_ij, which the index on
    n p_ij approaches as n grows; not the mean of the index on samples of n). For a table
    index, resampling the objects is a multinomial draw of the table's cells, so the
    resamples are drawn as tables and evaluated in one batch; an index of object pairs
    resamples the rows of the membership matrices (rows and columns of similarity matrices)
    and evaluates each resample in turn.

    Parameters
    ----------
    %(x, y)s
    index : str or Index, default "adjusted_rand"
        The index: a name or an alias of ``ca.list_indices()`` (e.g. "rand", "jaccard",
        "nmi_sqrt"); the default of every function of one index.
    interval : None, float, str, dict or IntervalSpec, optional
        The interval's settings in one value, as ``compare`` takes them: a level, a method
        name, a dict of ``IntervalSpec`` fields or a spec. None (the default): the keywords
        below. A keyword given beside it must say what it says (else a ValueError).
    confidence_level : float, optional
        The nominal coverage, in (0, 1); default 0.95 (or ``interval``'s).
    method : {"auto", "jackknife", "BCa", "percentile"}, optional
        Default "auto" (or ``interval``'s). "auto" (``clusteragree.intervals.rules``): the
        jackknife t interval, made on a scale that frees the index of its bounds and widened
        by its bias correction; the test of
        independence (the index against its permutation null, one-sided towards agreement,
        at level 1 - confidence_level) inverted at the index's independence value, which the
        interval contains when the test does not reject and leaves out when it does; and at
        perfect agreement (every object on a one-to-one matching of the clusters) an exact
        one-sided bound. "jackknife": the plain jackknife t interval (pseudovalues' mean -/+
        t times their standard error). "percentile": the alpha/2 and 1 - alpha/2 quantiles
        of the bootstrap distribution. "BCa": bias corrected and accelerated (Efron 1987),
        its acceleration from the jackknife. The bootstrap ones as ``scipy.stats.bootstrap``
        computes them. Every interval is clipped to the index's range.
    n_resamples : int, optional
        The number of bootstrap resamples (at least 2; "BCa" and "percentile" only); default
        9999 (or ``interval``'s).
    seed : None, int, SeedSequence or Generator, optional
        The only source of randomness (``numpy.random.default_rng(seed)``; the spec's
        ``seed``): the same seed gives the same result. None draws fresh entropy.
    %(data)s
    %(dropna)s
    %(join)s
    %(**options)s

    Returns
    -------
    ConfidenceInterval
        ``.low``, ``.high``, ``.closed`` (which bounds belong to it), ``.confidence_level``,
        ``.method`` (what made it), ``.note`` (how "auto" made it: its scale, the test's
        p-value, a one-sided bound), ``.statistic`` (the index on the data),
        ``.standard_error`` and ``.bootstrap_distribution``; unpacks as ``low, high``. An
        interval that cannot be made has bounds of nan, a warning and the reason in
        ``.reason``: BCa when every resample lies on one side of the estimate; the jackknife
        when every leave-one-out value is the same (and "auto" then only if the test of
        independence rejects); "auto" on two identical partitions of one cluster.

    Raises
    ------
    TypeError, ValueError
        A bad argument, named.
    ValueError
        The index is not defined on some resample (or leave-one-out table) of the objects:
        kappa, which matches the clusters one to one, on a resample of a square table that
        lost a cluster of one clustering and not of the other. The bootstrap distribution is
        the index on every resample; computing it on the resamples where the index is
        defined alone would condition on each cluster being drawn, and bias the interval
        (towards resamples that keep the small clusters), so none is given and the reason is
        named. ``compare`` gives that index's row an NA interval and the reason in its notes.

    See Also
    --------
    scipy.stats.bootstrap : The same intervals, resampling the objects' labels.
    clusteragree.agreement : The index itself.
    clusteragree.agreement_test : The index against its null law (agreement by chance).

    Notes
    -----
    The bootstrap and the jackknife treat the objects as a random sample of a population.
    Near independence MI, NMI and VI (and ARI when a clustering has equal cluster sizes) are
    not asymptotically normal at rate sqrt(n): the bootstrap intervals (first-order
    percentile, second-order BCa; Efron & Tibshirani 1993, ch. 14, 22) and the plain
    jackknife then miss their level, which is why "auto" decides the independence value by
    the test; near perfect agreement they fall short too. ``benchmarks/bench_coverage.py``
    measures every method's coverage on a grid of populations (the user guide's benchmarks
    page shows its table).
    For the adjusted Wallace coefficient Severiano et al. (2011) give an
    analytic interval (Wallace's variance within each cluster of x, the chance term taken as
    fixed), which the benchmark compares.

    References
    ----------
    Efron, B. (1987), "Better bootstrap confidence intervals", Journal of the American
    Statistical Association 82.

    Efron, B. & Tibshirani, R. J. (1993), "An Introduction to the Bootstrap", Chapman & Hall.

    Severiano, A., Pinto, F. R., Ramirez, M. & Carrico, J. A. (2011), "Adjusted Wallace
    coefficient as a measure of congruence between typing methods", Journal of Clinical
    Microbiology 49.

    Examples
    --------
    >>> tab = ca.ContingencyTable([[30, 5], [4, 25]])
    >>> ci = confidence_interval(tab, index="adjusted_rand", seed=1)
    >>> round(ci.statistic, 3), ci.method
    (0.509, 'jackknife, independence test inverted')
    >>> round(ci.low, 2), round(ci.high, 2), ci.closed
    (0.18, 0.72, 'both')
    >>> ci = confidence_interval(tab, index="adjusted_rand", method="BCa", seed=1)
    >>> ci.method, ci.n_resamples, round(ci.low, 2), round(ci.high, 2)
    ('BCa', 9999, 0.27, 0.76)

    The same settings in one spec, as ``compare`` takes them:

    >>> spec = ca.IntervalSpec(method="BCa", seed=1)
    >>> again = confidence_interval(tab, index="adjusted_rand", interval=spec)
    >>> (again.low, again.high) == (ci.low, ci.high)
    True
    """
    rec = one_index(index)
    spec = interval_spec_of(interval, confidence_level=confidence_level, method=method,
                            n_resamples=n_resamples, seed=seed)
    opts = check_options(options, rec.options, f"index {rec.name!r}")
    clusterings = as_clusterings(x, y, data=data, dropna=dropna, join=join,
                                 table=not rec.on_pairs, pairs=[rec.name] if rec.on_pairs else [])
    return interval_of(clusterings, rec, opts, spec)
