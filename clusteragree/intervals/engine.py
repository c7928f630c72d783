"""The interval engine: draws what each index's method needs, once, and has it make the interval.

An index computed on n objects estimates the index of the population the objects were drawn
from; its interval comes from the index's sampling distribution, not from its null law (the
null asks what chance alone would give, the interval how far the estimate may be from its
target). Four methods, each a record of ``clusteragree.intervals._methods`` (``METHODS``):

* "auto" (the default): the jackknife on the index's own scale, the test of independence
  inverted at the index's independence value, an exact one-sided bound at perfect agreement
  (``clusteragree.intervals.rules`` states and derives the rules);
* "jackknife": the plain jackknife t interval (``clusteragree.intervals.jackknife``). The
  jackknife leaves one object out: for a table, one count out of one cell, K x Q tables
  weighted by their counts, not n; for an index of object pairs each of the n objects in turn;
* "percentile" and "BCa" (bias corrected and accelerated; Efron 1987): the bootstrap, the
  objects resampled with replacement (``clusteragree.intervals.bootstrap``).

The engine takes the ``IntervalSpec`` whole (checked when it was made), asks the method's
record what it needs and draws it once for all the indices of a call: the law of the test of
independence (``independence_laws``), the bootstrap resamples and the leave-one-out values,
which the input records yield in batches and ``clusteragree.intervals.resamples`` evaluates
(all the table indices on one batch of resampled tables). ``benchmarks/bench_coverage.py``
measures the coverage of each method on a grid of populations.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .._docs import fill_doc
from .._validate import check_choice, check_options, check_real
from ..indices import Index, evaluate_checked, evaluate_pairwise, get_index, one_index
from ..inputs import Clusterings, as_clusterings
from ..nulls import NullSpec
from ..nulls.engine import plan, run
from ._methods import Draws, get_interval_method
from .resamples import pair_bootstrap, pair_jackknife, table_bootstrap, table_jackknife
from .result import ConfidenceInterval
from .spec import TEST_N_SIM, IntervalSpec, check_level, interval_spec_of
from .weighted import weighted_interval

__all__ = ["confidence_interval", "interval_of", "intervals_of", "interval_from_draws",
           "independence_laws"]

# -- the intervals ----------------------------------------------------------------------------

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
        Too few objects for an index (for a method that leaves one out: its minimum and
        one more), or (``undefined="raise"``) an index not defined on some resample.

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
    method = get_interval_method(spec.method)
    rng = spec.generator(seed)
    n, need = clusterings.n, max(method.needs(r) for r in recs)
    if n < need:
        rec = max(recs, key=lambda r: r.min_n)
        what = "and one more for the jackknife" if method.jackknife else ""
        raise ValueError(f"index {rec.name!r} needs at least {rec.min_n} objects {what}; a "
                         f"{method.name} interval needs n >= {need}, got n = {n}")
    laws = dict(laws or {})
    if method.independence_test:
        missing = [r for r in recs if r.name not in laws]
        if missing:
            laws.update(independence_laws(clusterings, missing, options, rng))
    out, failed = {}, {}  # failed: index name -> Refusal (not defined on some resample)

    def draws(rec, statistic, resampling, counts, boot, jack) -> Draws:
        """What the method asked for, of one index."""
        return Draws(rec, float(statistic), spec.confidence_level, resampling,
                     options[rec.name], counts, boot, jack, laws.get(rec.name),
                     failed[rec.name].reason if rec.name in failed else "")

    tables = [r for r in recs if not r.on_pairs]
    if tables:
        counts = np.asarray(clusterings.table.counts)
        statistics = {rec.name: float(evaluate_checked(rec, counts, options[rec.name]))
                      for rec in tables}
        boots = (table_bootstrap(tables, options, clusterings, spec.n_resamples, rng, failed)
                 if method.bootstrap else {})
        jackknives = {}
        if method.jackknife:  # once for all the table indices
            jackknives = table_jackknife(tables, options, clusterings.leave_one_out_tables(),
                                         failed)
        for rec in tables:
            out[rec.name] = method.make(draws(rec, statistics[rec.name], "cells", counts,
                                              boots.get(rec.name), jackknives.get(rec.name)))
    for rec in recs:
        if rec.on_pairs:
            pair = clusterings.pair(rec)
            opts = options[rec.name]
            statistic = evaluate_pairwise(rec, pair, opts)
            boot = (pair_bootstrap(rec, opts, clusterings, pair, spec.n_resamples, rng, failed)
                    if method.bootstrap else None)
            jack = None
            if method.jackknife and rec.name not in failed:
                jack = pair_jackknife(rec, opts, clusterings, pair, failed)
            out[rec.name] = method.make(draws(rec, statistic, "objects", None, boot, jack))
    if failed and undefined == "raise":
        name, refusal = next(iter(failed.items()))
        raise ValueError(f"no bootstrap interval for {name!r}: {refusal.reason}")
    return {r.name: out[r.name] for r in recs}


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
    method = get_interval_method(method)
    check_choice(resampling, "resampling", ("cells", "objects"))
    statistic = check_real(statistic, "statistic", "a number")
    boot = None
    if method.bootstrap:
        if bootstrap is None:
            raise ValueError(f"method={method.name!r} needs bootstrap=, the index on each "
                             "resample")
        boot = np.asarray(bootstrap, dtype=float)
        if boot.ndim != 1 or boot.size < 2:
            raise ValueError(f"bootstrap must be a 1-D array of at least 2 values, got shape "
                             f"{boot.shape}")
    jack = None
    if method.jackknife:
        if jackknife is None or len(jackknife) != 2:
            raise ValueError(f"method={method.name!r} needs jackknife=(values, weights), the "
                             "leave-one-object-out values and their weights")
        jack = tuple(np.asarray(v, dtype=float) for v in jackknife)
        if jack[0].ndim != 1 or jack[0].shape != jack[1].shape or jack[0].size < 1:
            raise ValueError(f"jackknife must be two 1-D arrays of the same length, got "
                             f"shapes {jack[0].shape} and {jack[1].shape}")
    counts = None if table is None else np.asarray(table)
    opts = dict(rec.options) if options is None else options
    return method.make(Draws(rec, statistic, level, resampling, opts, counts, boot, jack, law))


@fill_doc
def confidence_interval(x, y=None, index="adjusted_rand", *, interval=None,
                        confidence_level=None, method=None, n_resamples=None, seed=None,
                        data=None, dropna=False, join="exact", noise=None, sample_weight=None,
                        **options) -> ConfidenceInterval:
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
    %(noise)s
    %(sample_weight)s
        With weights that are not whole numbers, the objects are resampled with their
        weights (a bootstrap of the objects: "auto" is then "BCa").
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
                                 table=not rec.on_pairs, pairs=[rec.name] if rec.on_pairs else [],
                                 noise=noise, sample_weight=sample_weight)
    if clusterings.weighted is not None:
        ci = weighted_interval(clusterings.weighted, rec, opts, spec)
    else:
        ci = interval_of(clusterings, rec, opts, spec)
    if clusterings.coverage is not None and clusterings.coverage.notable:
        ci = replace(ci, coverage=clusterings.coverage.describe(clusterings.names))
    return ci
