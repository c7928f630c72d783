"""Agreement, tests and chance adjustment: glue from an index and a null law to a result.

* ``agreement``: the value of one or several indices (no null).
* ``agreement_test``: one index, its null law, p-value and adjusted values, printed like R's
  ``htest``.
* ``adjust``: the chance-adjusted value of one index (a float).
* ``compare``: a table of many indices, all evaluated on the same null tables.
* ``iadjust``: ``compare`` with the thesis' IADJUST defaults (Patefield, 17,000 tables, the
  eight paired indices; Amorim 2015, "On clustering stability", ch. 4).

Every result has one schema (``clusteragree.inference.results``, re-exported here: ``RESULT_COLUMNS``,
``AgreementTest``, ``format_results``): ``compare`` rows are
``agreement_test(...).to_frame()`` rows, whatever the index, model and method; what a method
cannot give is NA, never a missing column. Every index kind works: partitions through their
table, fuzzy memberships and similarity matrices through the permutation nulls.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from .._docs import fill_doc
from .._validate import check_choice, check_real
from ..indices import (Index, entry, evaluate_checked, evaluate_pairwise, evaluate_table,
                       evaluate_weighted, get_index, group_members, index_records, resolve_call,
                       skip_undefined)
from ..intervals import INDEPENDENCE_MODELS, IntervalSpec, interval_of, intervals_of
from ..intervals.spec import as_interval_spec, misplaced_interval_settings
from ..nulls import NullDistribution, NullSpec, plan, run
from ..nulls.distribution import ALTERNATIVES, check_center, test_figures
from .beyond_floor import ACCURACY, SADDLEPOINT_ACCURACY, add_beyond_floor
from .pvalues import PVALUE_BOUND_LEVEL, PValue, PValueSpec
from .results import (FLOAT_COLUMNS, RESULT_COLUMNS, AgreementTest, ResultsFrame,
                      format_results, frame_notes, results_frame, skewed_rows)

__all__ = ["agreement", "AgreementTest", "ResultsFrame", "agreement_test", "agreement_test_of",
           "adjust", "compare", "iadjust", "format_results", "frame_notes", "skewed_rows", "RESULT_COLUMNS",
           "FLOAT_COLUMNS"]


def default_alternative(rec: Index, alternative):
    """The test's alternative, checked: None is the index's own direction ("greater" for a
    similarity, "less" for a distance)."""
    if alternative is None:
        return "less" if rec.kind == "distance" else "greater"
    return check_choice(alternative, "alternative", ALTERNATIVES)


def _observed(rec: Index, request) -> float:
    """The observed value (table indices: computed once, when the request was planned)."""
    if rec.name in request.observed:
        return request.observed[rec.name]
    return evaluate_pairwise(rec, request.clusterings.pair(rec), request.options[rec.name])


def _need_exact_law(rec: Index, nd: NullDistribution) -> None:
    """A test asked for ``method="exact"`` gets the exact law or a refusal, never a p-value
    of nan: the exact mean alone (a large n under a random partition model, an index of
    object pairs) adjusts the index (``adjust``) but tests nothing."""
    if nd.method == "exact" and not nd.has_law and not nd.details.get("auto"):
        raise ValueError(
            f"method='exact' gives the exact null mean of {rec.name!r} here, not its law "
            f"({nd.describe()}), so it gives no p-value: ca.adjust(..., method='exact') "
            f"adjusts by the exact mean; for a test use a Monte Carlo method "
            f"({nd.model_record.default_method!r} under model={nd.model!r})")


def _test_of(rec: Index, nd: NullDistribution, request, alternative: str,
             plus_one: bool) -> AgreementTest:
    """The test of one index from its null law: the one place results are made
    (``alternative`` is checked by the caller; ``plus_one`` is the call's ``PValueSpec``'s)."""
    _need_exact_law(rec, nd)
    observed = _observed(rec, request)
    # every figure in one call (the tail counted once); the alternative was checked on entry
    figures = test_figures(nd, observed, alternative, plus_one, PVALUE_BOUND_LEVEL)
    pvalue = PValue.of(nd, observed, alternative, plus_one, figures)
    note = None
    if rec.describe is not None and request.clusterings.table is not None:
        note = rec.describe(request.clusterings.table.counts, **request.options[rec.name])
    return AgreementTest(statistic=observed, pvalue_detail=pvalue, adjusted=figures["adjusted"],
                         null=nd, index=rec.name, alternative=alternative,
                         data_name=request.clusterings.describe(), zscore=figures["zscore"],
                         note=note, record=rec, clusterings=request.clusterings,
                         options=request.options[rec.name])


@fill_doc
def agreement(x, y=None, index="adjusted_rand", *, data=None, dropna=False, join="exact",
              noise=None, sample_weight=None, **options):
    """Agreement between two clusterings by one or several indices.

    Parameters
    ----------
    %(x, y)s
        ``x`` alone may also be a batch of tables of shape (..., K, Q).
    index : str, Index or list of str, default "adjusted_rand"
        An index name or alias (``ca.list_indices()``), a group ("common", "paired", "simple",
        "pair counting", "information", "set matching", "all") or a list of them.
    %(data)s
    %(dropna)s
    %(join)s
    %(noise)s
    %(sample_weight)s
    %(**options)s

    Returns
    -------
    float, Series, numpy.ndarray or DataFrame
        A float for one index on one table; a Series (indexed by index name) for several;
        an array (one index) or a DataFrame (several) for a batch of tables.

    See Also
    --------
    agreement_test : The index against its null law.
    list_indices : Every index, with its family, range and options.

    References
    ----------
    {ref:hubert1985}.

    {ref:amorim2015}.

    Examples
    --------
    >>> ca.agreement([0, 0, 1, 1], [0, 0, 1, 2], index="jaccard")
    0.5
    >>> ca.agreement([0, 0, 1, 1], [0, 0, 1, 2], index=["rand", "ari"]).round(3).to_dict()
    {'rand': 0.833, 'adjusted_rand': 0.571}
    """
    names, single, recs, opts = resolve_call(index, options)
    clusterings = entry(x, y, data, dropna, join, recs, batch=True, noise=noise,
                        sample_weight=sample_weight, real_weights=True)

    def one(name):
        rec = recs[names.index(name)]
        if rec.on_pairs:
            table = clusterings.labels_table() if rec.of_hard_tables is not None else None
            if table is not None:  # two label vectors: the index's form on their table
                return evaluate_table(rec, table, opts[name])
            return np.asarray(evaluate_pairwise(rec, clusterings.pair(rec), opts[name]))
        if clusterings.weighted is not None:  # non-integer weights: the weight sums
            return evaluate_weighted(rec, clusterings.weighted.counts, opts[name])
        if clusterings.table is not None:  # one table, dense or sparse
            return evaluate_table(rec, clusterings.table, opts[name])
        return evaluate_checked(rec, clusterings.counts, opts[name])  # a batch of tables

    if single:  # one index named on its own: its value, or its error
        value = one(names[0])
        return float(value) if value.ndim == 0 else value
    values, reasons = skip_undefined(names, group_members(index), one)
    first = next(iter(values.values()))
    if first.ndim == 0:
        out = pd.Series({k: float(values[k]) if k in values else pd.NA for k in names},
                        name="agreement", dtype="Float64" if reasons else float)
        out.attrs["not_defined"] = reasons
        return out
    if first.ndim != 1:
        raise ValueError(
            f"several indices on a batch need a 1-D batch of tables, got batch shape {first.shape}"
        )
    out = pd.DataFrame(values)
    out.attrs["not_defined"] = reasons
    return out


@fill_doc
def agreement_test(x, y=None, index="adjusted_rand", method="auto", *, model=None, n_sim=None,
                   seed=None, alternative=None, interval=None, data=None, dropna=False,
                   join="exact", noise=None, sample_weight=None, **options) -> AgreementTest:
    """Test whether two clusterings agree more than chance, by any index.

    Parameters
    ----------
    %(x, y)s
    index : str or Index, default "adjusted_rand"
        The index (``ca.list_indices()``); the default of every function of one index. Under
        the permutation model its test is the test of the Rand index and of every
        pair-counting index (one statistic, sum n_ij^2).
    %(method)s
    %(model)s
    %(n_sim)s
    %(seed)s
    %(alternative)s
    interval : None, float, str, dict or IntervalSpec, default None
        A confidence interval of the index, made with the test (``res.interval``, printed
        with its method, and the ``ci_*`` columns of ``to_frame()``): a level (0.95), a
        method name ("auto", "BCa", "percentile", ...), a dict of ``IntervalSpec`` fields or
        an ``IntervalSpec``. None (default): none; ``res.confidence_interval()`` makes one on
        request. With no seed of its own, its bootstrap draws a stream of ``seed``'s, so the
        null law is the same with and without it.
    %(data)s
    %(dropna)s
    %(join)s
    %(noise)s
    %(sample_weight)s
    %(**options)s

    Returns
    -------
    AgreementTest
        ``statistic``, ``pvalue``, ``pvalue_se``, ``adjusted`` (by the null mean and median),
        ``zscore``, ``null`` (the NullDistribution) and ``to_frame()``.

    Raises
    ------
    ValueError
        ``method="exact"`` where only the exact mean is known (a test needs the law): use
        ``adjust`` for the adjusted value, a Monte Carlo method for the test.

    See Also
    --------
    adjust : The chance-adjusted value alone.
    compare : Many indices on the same null tables.
    clusteragree.nulls.null_distribution : The null law alone.
    NullSpec : A method with its settings.

    References
    ----------
    {ref:amorim2015}.

    {ref:patefield1981}.

    {ref:gates2017}.

    Examples
    --------
    >>> res = ca.agreement_test(ca.load_dataset("statlog_em"), index="sokal_sneath", seed=1)
    >>> round(res.statistic, 3), round(res.adjusted["mean"], 3)   # Amorim (2015): .283, .114
    (0.283, 0.114)
    """
    rec = get_index(index)
    alternative = default_alternative(rec, alternative)
    ispec = as_interval_spec(interval)
    misplaced_interval_settings(options)
    spec = NullSpec.of(method, model=model, n_sim=n_sim, seed=seed)
    clusterings = entry(x, y, data, dropna, join, [rec], noise=noise, sample_weight=sample_weight)
    return agreement_test_of(clusterings, rec, options, spec, alternative, ispec)


def agreement_test_of(clusterings, rec: Index, options: dict, spec: NullSpec,
                      alternative: str, ispec: IntervalSpec | None) -> AgreementTest:
    """One test on clusterings converted once: ``agreement_test`` after its checks and its
    conversion (``agreement_matrix`` hands each pair's record here). Nothing is converted or
    checked again but the index's options, which the null engine's plan reads.

    Parameters
    ----------
    clusterings : Clusterings
        The two clusterings (``clusteragree.inputs.as_clusterings``).
    rec : Index
        The index's record.
    options : dict
        The index's options.
    spec : NullSpec
        The null.
    alternative : str
        "greater", "less" or "two-sided" (checked).
    ispec : IntervalSpec or None
        The interval made with the test, or None.

    Returns
    -------
    AgreementTest
        As ``agreement_test`` returns it.

    See Also
    --------
    agreement_test : The public function: its arguments checked and converted, then this.

    Examples
    --------
    >>> from clusteragree.inputs import as_clusterings
    >>> clus = as_clusterings([0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2])
    >>> res = agreement_test_of(clus, ca.get_index("rand"), {}, ca.NullSpec("exact"),
    ...                         "greater", None)
    >>> res.pvalue == ca.agreement_test(clus, index="rand", method="exact").pvalue
    True
    """
    if ispec is not None and clusterings.n < ispec.needs(rec):  # before the null's checks
        raise ValueError(f"interval: n = {clusterings.n} is too few objects for "
                         f"a {ispec.method} interval of {rec.name!r} (it needs "
                         f"{ispec.needs(rec)}); interval=None tests without one")
    requests = plan(clusterings, [rec], spec, options)
    request = requests[0]
    nd = run(requests)[rec.name]
    settings = PValueSpec.of(spec)  # the p-value's settings, which the null engine passes by
    res = _test_of(rec, nd, request, alternative, settings.plus_one)
    if ispec is not None:
        res.interval = interval_of(request.clusterings, rec, request.options[rec.name], ispec,
                                   seed=spec.seed, undefined="na")
    (pvalue,), _ = add_beyond_floor([res], request.clusterings, settings, spec.seed,
                                    spec.progress)
    return replace(res, pvalue_detail=pvalue)  # the test made with its p-value, whole


@fill_doc
def adjust(x, y=None, index="adjusted_rand", method="auto", center="mean", *, model=None,
           n_sim=None, seed=None, optimum=None, data=None, dropna=False, join="exact",
           noise=None, sample_weight=None,
           **options) -> float:
    """The chance-adjusted value of an index.

    (I - c) / (max - c) for a similarity, (c - I) / (c - min) for a distance, with c the null
    mean, median or a quantile under the chosen random model.

    Parameters
    ----------
    %(x, y)s
    index : str or Index, default "adjusted_rand"
        The index (``ca.list_indices()``); adjusted by its null mean, "rand" gives the ARI
        (and so does the ARI itself under the permutation model, where its null mean is 0).
    %(method)s
    %(center)s
    %(model)s
    %(n_sim)s
    %(seed)s
    optimum : float, optional
        The max (a similarity) or min (a distance); default the index's own (1 for most
        similarities). Needed for an index with no fixed optimum (mutual_info).
    %(data)s
    %(dropna)s
    %(join)s
    %(noise)s
    %(sample_weight)s
    %(**options)s

    Returns
    -------
    float
        The adjusted value (1: the optimum; 0: what chance gives).

    See Also
    --------
    agreement_test : The test, with the adjusted values by mean and median.
    iadjust : The thesis' IADJUST table.

    References
    ----------
    {ref:hubert1985}.

    {ref:amorim2015}.

    {ref:gates2017}.

    Examples
    --------
    >>> round(ca.adjust(ca.ContingencyTable([[30, 20], [10, 20]]), index="jaccard",
    ...                 method="exact"), 4)                      # Amorim (2015), Table 8
    0.0349
    >>> x, y = [0, 0, 0, 1, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2, 2, 2]
    >>> round(ca.adjust(x, y, index="rand", model="num1", method="exact"), 4)  # one-sided ARI
    0.2959
    """
    rec = get_index(index)
    check_center(center)
    if optimum is not None:
        check_real(optimum, "optimum", "a number (the index's max or min)")
    spec = NullSpec.of(method, model=model, n_sim=n_sim, seed=seed)
    requests = plan(entry(x, y, data, dropna, join, [rec], noise=noise, sample_weight=sample_weight), [rec], spec, options)
    nd = run(requests)[rec.name]
    return nd.adjust(_observed(rec, requests[0]), center, optimum=optimum)


@fill_doc
def compare(x, y=None, indices="common", method="auto", *, model=None, n_sim=None, seed=None,
            alternative=None, interval=IntervalSpec(), data=None, dropna=False, join="exact",
            noise=None, sample_weight=None,
            **options) -> pd.DataFrame:
    """Many indices side by side, with their nulls from the same random tables.

    Each row is the test of one index against its null law, with a confidence interval of
    the index itself (by default ``IntervalSpec()``: method "auto", 95%, 9,999 bootstrap
    resamples of the objects, the same resampled tables for every table index; the
    ``ci_method`` column names each row's method). Under fixed margins the indices that are monotone
    functions of the same statistic of the table are one test (``test_group``), and the
    frame says how many distinct tests it holds (``attrs["n_tests"]``).

    Parameters
    ----------
    %(x, y)s
    %(indices)s
    %(method)s
    %(model)s
    %(n_sim)s
    %(seed)s
    %(alternative)s
    interval : None, float, str, dict or IntervalSpec, default IntervalSpec()
        The confidence intervals (``ci_low``, ``ci_high``, ``ci_closed``, ``ci_method``,
        ``ci_level``): a
        level (0.9), a method name ("auto", "BCa", "percentile", ...), a dict of
        ``IntervalSpec`` fields, or an ``IntervalSpec`` (method, confidence_level,
        n_resamples, seed). None: no intervals (their columns NA), e.g. in a simulation study
        where only the tests matter. With no seed of its own, the bootstrap has a random
        stream of its own from ``seed``, so the null laws are the same with and without
        intervals.
    %(data)s
    %(dropna)s
    %(join)s
    %(noise)s
    %(sample_weight)s
    %(**options)s

    Returns
    -------
    ResultsFrame
        Indexed by index name; its rows are ``agreement_test(...).to_frame()`` rows (columns
        ``RESULT_COLUMNS``: statistic, ci_low, ci_high, ci_closed, ci_method, ci_level,
        null_mean, null_median, null_sd, null_skewness, pvalue, pvalue_se, n_extreme,
        pvalue_upper, alternative,
        adjusted_mean, adjusted_median, zscore, kind, model, method, n_sim, test_group).
        What a method cannot give (a median from closed-form moments) is NA; indices with no
        fixed optimum (mutual_info) are not adjusted (NA). ``attrs["n_tests"]`` counts the
        distinct tests (a group of ``test_group`` counts once); ``attrs["notes"]`` says how
        things were computed, and ``attrs["beyond_floor_notes"]`` those of its notes on the
        p-values beyond the Monte Carlo floor (their accuracy, or why there is none).

    See Also
    --------
    agreement_test : One index.
    iadjust : With the thesis' defaults.
    format_results : The frame as text.

    References
    ----------
    {ref:amorim2015}.

    Examples
    --------
    >>> df = ca.compare(ca.ContingencyTable([[30, 20], [10, 20]]), indices="paired",
    ...                 method="exact")
    >>> df.loc[["rand", "sokal_sneath"], ["null_mean", "adjusted_mean"]].round(5)
                  null_mean  adjusted_mean
    index                                 
    rand            0.49968        0.05124
    sokal_sneath    0.24973        0.03498
    """
    recs = index_records(indices)
    sides = {r.name: default_alternative(r, alternative) for r in recs}
    ispec = as_interval_spec(interval)
    misplaced_interval_settings(options)
    spec = NullSpec.of(method, model=model, n_sim=n_sim, seed=seed)
    clusterings = entry(x, y, data, dropna, join, recs, noise=noise, sample_weight=sample_weight)
    requests = plan(clusterings, recs, spec, options, optional=group_members(indices))
    nulls = run(requests)
    not_defined = requests[0].not_defined
    settings = PValueSpec.of(spec)  # the p-value's settings, which the null engine passes by
    tests = [_test_of(rec, nulls[rec.name], req, sides[rec.name], settings.plus_one)
             for req in requests for rec in req.indices]
    order = {r.name: i for i, r in enumerate(recs)}
    tests.sort(key=lambda t: order[t.index])
    notes = [t.note for t in tests if t.note]
    if ispec is not None:
        notes += _add_intervals(tests, clusterings, ispec, spec.seed)
    # after the intervals' draws; each test made again with its p-value, beyond the floor
    pvalues, floor_notes = add_beyond_floor(tests, clusterings, settings, spec.seed,
                                            spec.progress)
    tests = [replace(t, pvalue_detail=p) for t, p in zip(tests, pvalues)]
    methods = {t.beyond_floor_method for t in tests}
    for method, accuracy in (("saddlepoint", SADDLEPOINT_ACCURACY), ("importance", ACCURACY)):
        if method in methods:
            floor_notes.append(f"pvalue_beyond_floor: where the Monte Carlo p-value is at its "
                               f"floor, the p-value by {accuracy}")
    notes += floor_notes
    coverage = clusterings.coverage
    if coverage is not None and coverage.notable:  # which objects, beside every table
        notes.insert(0, f"objects: {coverage.describe(clusterings.names)}")
    frame = results_frame(tests)
    if not_defined:  # group members not defined for this table: rows of NA, reasons in attrs
        frame = frame.reindex(pd.Index([r.name for r in recs], name="index"))
        for col in ("ci_closed", "ci_method", "beyond_floor_method", "alternative", "kind",
                    "model", "method"):
            frame[col] = frame[col].astype(object).where(frame[col].notna(), pd.NA)
        frame.loc[list(not_defined), "kind"] = [r.kind for r in recs if r.name in not_defined]
    frame.attrs.update(data=clusterings.describe(), seed=spec.seed, table=clusterings.table,
                       coverage=coverage,
                       null=sorted({t.null.describe() for t in tests}),
                       not_defined=not_defined, notes=notes, beyond_floor_notes=floor_notes,
                       n_tests=_n_tests(tests),
                       interval=_interval_heading(tests, ispec))
    return frame


#: The bootstrap resamples of ``compare``'s intervals (``IntervalSpec``'s default).
N_RESAMPLES = IntervalSpec().n_resamples


def _add_intervals(tests, clusterings, ispec: IntervalSpec, seed) -> list[str]:
    """Each test's interval as ``ispec`` asks (its stream a child of the call's ``seed``
    unless it has a seed of its own), from one batch of resampled tables for the
    table indices; an index with too few objects for the method (BCa's jackknife needs one
    more) gets none, and a note says why; so do the indices of a sparse table (the bootstrap
    resamples dense tables), and an index not defined on every resample (its bounds NA; the
    other indices keep theirs)."""
    if clusterings.table is not None and not clusterings.table.dense:
        K, Q = clusterings.table.shape
        return [f"no intervals: the {K:,} x {Q:,} table is sparse and the bootstrap resamples "
                "dense tables; tab.to_dense() gives them when it fits in memory"]
    method = ispec.method
    fits = [t for t in tests if clusterings.n >= ispec.needs(t.record)]
    # "auto" inverts the test of independence: the permutation laws of the tests serve it
    laws = {t.index: t.null for t in fits
            if t.null.model in INDEPENDENCE_MODELS and t.null.has_law}
    cis = intervals_of(clusterings, [t.record for t in fits], {t.index: t.options for t in fits},
                       ispec, seed=seed, undefined="na", laws=laws) if fits else {}
    for t in fits:
        t.interval = cis[t.index]
    return [f"no interval for {t.index}: n = {clusterings.n} is too few objects for a "
            f"{method} interval (it needs {ispec.needs(t.record)})" for t in tests
            if t not in fits] + [f"no interval for {t.index}: {t.interval.reason}"
                                 for t in fits if t.interval.reason]


def _interval_heading(tests, ispec: IntervalSpec | None) -> str:
    """What the frame's intervals are, named by the methods that made them (printed above
    the frame by ``format_results``); "" without intervals."""
    made = [t.interval for t in tests if t.interval is not None]
    if ispec is None or not made:
        return ""
    methods = " / ".join(dict.fromkeys(ci.method for ci in made))
    per_row = " (ci_method names each row's)" if len({ci.method for ci in made}) > 1 else ""
    resamples = (f", {ispec.n_resamples:,} bootstrap resamples of the objects"
                 if any(ci.n_resamples for ci in made) else "")
    return f"{100 * ispec.confidence_level:g}% {methods} intervals{per_row}{resamples}"


def _n_tests(tests) -> int:
    """The number of distinct tests: a ``test_group`` counts once."""
    groups = {t.test_group for t in tests if t.test_group is not None}
    return len(groups) + sum(t.test_group is None for t in tests)


@fill_doc
def iadjust(x, y=None, *, indices="paired", method="patefield", n_sim=None, seed=None,
            data=None, dropna=False, join="exact", noise=None, sample_weight=None,
            **options) -> pd.DataFrame:
    """The thesis' IADJUST: ``compare`` with 17,000 Patefield tables and the paired indices.

    The p-value is the thesis' share #{T >= t} / B (``NullSpec(plus_one=False)``, the
    default when the method is named by a string; a NullSpec passed as ``method=`` says it
    itself). IADJUST has no confidence intervals, so none are computed (``ci_low``,
    ``ci_high`` NA) unless asked for with ``interval=`` (a ``compare`` argument): their
    bootstrap would take longer than the tables themselves. Nor does it compute a p-value
    beyond the Monte Carlo floor (``NullSpec(beyond_floor=False)``, the default when the
    method is named by a string: ``pvalue_beyond_floor`` and its columns NA), which would
    add the saddlepoint approximation to the tables' time; a NullSpec passed as ``method=``
    says it itself: ``NullSpec(method="patefield", plus_one=False)`` keeps its default
    ``beyond_floor=None`` (the saddlepoint, where it answers, as in ``compare``), and
    ``beyond_floor=True`` adds importance sampling.

    Parameters
    ----------
    %(x, y)s
    %(indices)s
    method : str or NullSpec, default "patefield"
        Another null may be named (see ``compare``); a name gets the thesis' p-value
        #{T >= t} / B and no p-value beyond the floor, a NullSpec its own ``plus_one``
        ((1 + #{T >= t}) / (B + 1) unless ``plus_one=False``) and ``beyond_floor`` (None:
        the saddlepoint p beyond the floor, where it answers; True: importance sampling too;
        False: none).
    %(n_sim)s
    %(seed)s
    %(data)s
    %(dropna)s
    %(join)s
    %(noise)s
    %(sample_weight)s
    %(**options)s
        Other ``compare`` arguments (``model=``, ``alternative=``, ``interval=``: 0.95 or an
        ``IntervalSpec`` adds ``compare``'s intervals) pass through too.

    Returns
    -------
    ResultsFrame
        As ``compare``; without intervals unless ``interval`` is given, and without p-values
        beyond the Monte Carlo floor unless a NullSpec asks for them.

    See Also
    --------
    compare : The general function.

    References
    ----------
    {ref:amorim2015}.

    Examples
    --------
    >>> df = ca.iadjust([[30, 20], [10, 20]], n_sim=2000, seed=1)
    >>> list(df.index[:3]), int(df["n_sim"].iloc[0]), bool(df["ci_low"].isna().all())
    (['rand', 'gower_legendre', 'jaccard'], 2000, True)

    A 10 x 10 table beyond chance (z = 11): the Monte Carlo p-value at its floor, and a
    p-value beyond it only when a NullSpec asks for one.

    >>> far = np.full((10, 10), 95) + 50 * np.eye(10, dtype=int)
    >>> row = ca.iadjust(far, indices=["rand"], n_sim=99, seed=1).loc["rand"]
    >>> float(row["pvalue"]), row["pvalue_beyond_floor"]
    (0.0, <NA>)
    >>> asked = ca.NullSpec(method="patefield", n_sim=99, seed=1, plus_one=False)
    >>> row = ca.iadjust(far, indices=["rand"], method=asked).loc["rand"]
    >>> float(row["pvalue"]), f"{row['pvalue_beyond_floor']:.2g}", row["beyond_floor_method"]
    (0.0, '1.9e-15', 'saddlepoint')
    """
    options.setdefault("interval", None)  # IADJUST has no intervals
    if not isinstance(method, NullSpec):  # the thesis' share #{T >= t} / B, no p beyond it
        method = replace(NullSpec.of(method, n_sim=n_sim, seed=seed), plus_one=False,
                         beyond_floor=False)
        n_sim = seed = None
    return compare(x, y, indices=indices, method=method, n_sim=n_sim, seed=seed, data=data,
                   dropna=dropna, join=join, noise=noise, sample_weight=sample_weight,
                   **options)
