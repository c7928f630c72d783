"""The null engine: from a null specification to null laws, through the registry of models and
methods.

``plan(clusterings, indices, spec, options)`` turns the converted clusterings, the index
records and one ``NullSpec`` into checked ``NullRequest`` records (one per kind of index, table
indices and indices of object pairs, and per method when ``method="auto"`` chooses one per test
group), so every bad argument is an error before any work;
``run`` hands each request to its method's ``law``. The public functions
``null_distributions`` and ``null_distribution`` convert their arguments once and take these two
steps.

Following ``n_sim`` from a call to a sampler: the call's ``n_sim=`` (or a NullSpec's) is put in
the spec by ``NullSpec.of``; ``_n_sim_for`` resolves it against the chosen method (its default,
or a refusal for a method that draws nothing) into ``NullRequest.n_sim``; the method's ``law``
passes ``req.n_sim`` to its sampler.
"""

from __future__ import annotations

from dataclasses import replace

from .._docs import fill_doc
from ..indices import (Index, entry, evaluate_table, group_members, one_index,
                       index_records, skip_undefined, split_options)
from ..inputs import Clusterings
from .._validate import check_options
from ._methods import MODELS, PAIR_MODELS, PARTITION_MODELS, get_method, get_model, methods_of
from ._request import NullRequest, check_memory
from .distribution import NullDistribution
from .spec import NullSpec, misplaced_settings

__all__ = ["plan", "run", "null_distributions", "null_distribution"]


def _model_for(recs, spec: NullSpec):
    """The model record of a group of indices (all table indices, or all pair indices)."""
    name = spec.model or "perm"
    if recs[0].on_pairs:
        if name == "perm":
            return get_model("objects")
        mod = get_model(name)
        if mod.inputs == "pairs":
            return mod
        raise ValueError(
            f"model={name!r} ({mod.title}) is a random model of partitions; index "
            f"{recs[0].name!r} compares memberships or similarity matrices, whose nulls permute "
            f"y's objects or pair values: use model='objects' or model='pairs'")
    mod = get_model(name)
    if spec.reference is not None and not mod.one_sided:
        one_sided = [m for m, r in MODELS.items() if r.one_sided]
        raise ValueError(f"reference= names the clustering a one-sided model keeps fixed "
                         f"({one_sided}); model={name!r} is not one-sided")
    if mod.inputs != "table":
        raise ValueError(f"model={name!r} ({mod.title}) is a null for indices of object pairs "
                         f"(fuzzy and matrix); index {recs[0].name!r} takes partitions: use "
                         f"one of the models {list(PARTITION_MODELS)}")
    return mod


def _n_sim_for(method, spec: NullSpec, auto: bool):
    """The Monte Carlo size of a request: the spec's, or the method's default."""
    if method.monte_carlo:
        return method.default_n_sim if spec.n_sim is None else spec.n_sim
    if spec.n_sim is not None and not auto:
        mc = [m for m in methods_of(method.model) if get_method(m, method.model).monte_carlo]
        raise ValueError(f"n_sim is for Monte Carlo methods, not method={method.name!r} "
                         f"(under model={method.model!r}: {mc})")
    return None


def _check_sparse(method_rec, clusterings) -> None:
    if clusterings.table is not None and not method_rec.serves(clusterings.table):
        K, Q = clusterings.table.shape
        able = [m for m in methods_of(method_rec.model)
                if get_method(m, method_rec.model).sparse]
        what = (f"under model={method_rec.model!r} a sparse table takes method='auto' or "
                f"{able}" if able else
                f"no method of model={method_rec.model!r} serves a sparse table (model='perm' "
                "does), and tab.to_dense() makes the dense table when it fits in memory")
        raise ValueError(
            f"method={method_rec.name!r} needs the dense table, and this sparse table has "
            f"{K:,} x {Q:,} cells ({clusterings.table.nnz:,} non-zero); {what}")


def _request(recs, options, clusterings, model, method_rec, spec, rng, auto, observed):
    _check_sparse(method_rec, clusterings)
    if spec.exhaustive is not None and "exhaustive" not in method_rec.options:
        raise ValueError(f"exhaustive= is for permutation methods, not method="
                         f"{method_rec.name!r}")
    req = NullRequest(indices=tuple(recs), options=options, clusterings=clusterings,
                      model=model, method=method_rec, spec=spec,
                      n_sim=_n_sim_for(method_rec, spec, auto), rng=rng, auto=auto,
                      observed={r.name: observed[r.name] for r in recs if r.name in observed})
    if method_rec.monte_carlo:
        check_memory(req.n_sim, len(recs), clusterings.n, method_rec.bytes_per_object)
    if method_rec.check is not None:
        method_rec.check(req)
    return req


def _test_groups(recs) -> list[list[Index]]:
    """The indices split by the law that serves them: the law of s (pair counting), of t
    (information), and the others (``statistic`` None: under "perm", one enumeration of the
    tables serves them all)."""
    groups: dict = {}
    for rec in recs:
        groups.setdefault(getattr(rec, "statistic", None), []).append(rec)
    return list(groups.values())


def _merged(reqs) -> NullRequest:
    """One request for the indices of several checked requests of one method."""
    if len(reqs) == 1:
        return reqs[0]
    observed = {k: v for req in reqs for k, v in req.observed.items()}
    return replace(reqs[0], indices=tuple(r for req in reqs for r in req.indices),
                   observed=observed)


def _choose(recs, options, clusterings, model, spec, rng, observed) -> list[NullRequest]:
    """The checked requests of one kind of index.

    A method named is one request. ``method="auto"`` (and no method named) is decided per test
    group (``_test_groups``: the indices of s, those of t, the others): each group takes the
    first of the model's ``auto`` methods whose check passes for it (the exact law when its
    own law fits, else Monte Carlo), so a law too large for one group sends only that group
    to Monte Carlo. A Monte Carlo method is tried on all the groups still without a method at
    once, so the indices it serves share its random tables. The requests of one method are
    merged into one."""
    method = spec.method or "auto"  # no method named: "auto"
    if method != "auto":
        return [_request(recs, options, clusterings, model, get_method(method, model), spec,
                         rng, False, observed)]
    chosen: dict[str, list[NullRequest]] = {}
    refusals = []
    pending = _test_groups(recs)
    for name in model.auto:
        if not pending:
            break
        method_rec = get_method(name, model)
        tries = [[r for g in pending for r in g]] if method_rec.monte_carlo else pending
        pending = []
        for group in tries:
            try:
                req = _request(group, options, clusterings, model, method_rec, spec, rng,
                               True, observed)
            except (ValueError, MemoryError) as exc:  # too large, too slow, or not for this
                which = f" for {[r.name for r in group]}" if len(tries) > 1 else ""
                refusals.append(f"{name}{which}: {exc}")
                pending.append(group)
            else:
                chosen.setdefault(name, []).append(req)
    if pending:
        raise ValueError("method='auto' found no method for this request: "
                         + "; ".join(refusals))
    return [_merged(reqs) for reqs in chosen.values()]


def _observed_value(rec: Index, table, options) -> float:
    """An index on the observed table (its counts and options checked at the entry)."""
    return float(evaluate_table(rec, table, options))


def _index_options(recs, options) -> dict:
    """Each index's options, checked and with defaults filled in; a null setting given where
    an index option goes is named."""
    options = dict(options or {})
    misplaced_settings(options, {k for r in recs for k in r.options})
    names = [r.name for r in recs]
    per = split_options(names, options)
    return {r.name: check_options(per[r.name], r.options, f"index {r.name!r}") for r in recs}


def plan(clusterings: Clusterings, recs, spec: NullSpec, options=None, *,
         optional=frozenset()) -> list[NullRequest]:
    """Checked requests for the null laws of some indices, before any work.

    Every method's size check is run here: a law too large for the spec's budgets, or an
    index a method cannot do, is refused before anything is drawn.

    Parameters
    ----------
    clusterings : Clusterings
        The clusterings as the entry converted them (``clusteragree.inputs.as_clusterings``).
    recs : list of Index
        The index records, looked up once (``index_records``).
    spec : NullSpec
        The random model, the method and their settings.
    options : dict, optional
        The index options given to the public call (each goes to the indices that take it).
    optional : set of str, optional
        Names asked for only as members of a group: left out, with their reason in
        ``request.not_defined``, when they are not defined for this table.

    Returns
    -------
    list of NullRequest
        One request per kind of index (table indices; indices of object pairs) and, under
        ``method="auto"``, per method chosen (the exact law for the test groups whose law fits,
        one Monte Carlo request for the others).

    See Also
    --------
    run : Computes the laws of the requests.

    Examples
    --------
    >>> from clusteragree.inputs import as_clusterings
    >>> reqs = plan(as_clusterings([[30, 20], [10, 20]]), index_records("rand"),
    ...             NullSpec(method="exact"))
    >>> reqs[0].method.name, reqs[0].model.name
    ('exact', 'perm')
    """
    per = _index_options(recs, options)
    rng = spec.generator()
    groups = [g for g in ([r for r in recs if not r.on_pairs],
                          [r for r in recs if r.on_pairs]) if g]
    if spec.model in PAIR_MODELS and len(groups) > 1:
        raise ValueError(f"model={spec.model!r} is a null for indices of object pairs; compare "
                         "them and the indices of a contingency table in two calls")
    models = [_model_for(g, spec) for g in groups]
    for r in recs:  # the clusterings of the pair indices, read and checked here, before any work
        if r.on_pairs:
            clusterings.pair(r)
    if clusterings.table is not None:
        n = clusterings.table.n
        short = [r for r in recs if not r.on_pairs and r.min_n > n]
        if short:
            need = ", ".join(f"{r.name} needs at least {r.min_n} objects" for r in short)
            raise ValueError(f"too few objects for the index: {need}; got n = {n}")
    # the observed values of the table indices: cheap, and a bad option value fails here; an
    # index of a group that is not defined for this table is left out with its reason
    by_name = {r.name: r for r in recs}
    table_names = [r.name for r in recs if not r.on_pairs]
    observed, not_defined = ({}, {}) if not table_names else skip_undefined(
        table_names, optional,
        lambda name: _observed_value(by_name[name], clusterings.table, per[name]))
    if not_defined:
        groups = [[r for r in g if r.name not in not_defined] for g in groups]
        models = [m for g, m in zip(groups, models) if g]
        groups = [g for g in groups if g]
    requests = [req for g, mod in zip(groups, models)
                for req in _choose(g, {r.name: per[r.name] for r in g}, clusterings, mod, spec,
                                   rng, observed)]
    for req in requests:
        req.not_defined = not_defined
    return requests


def run(requests) -> dict:
    """The null laws of planned requests.

    Parameters
    ----------
    requests : list of NullRequest
        From ``plan``.

    Returns
    -------
    dict
        Index name -> NullDistribution.

    See Also
    --------
    plan : Makes the requests.

    Examples
    --------
    >>> from clusteragree.inputs import as_clusterings
    >>> laws = run(plan(as_clusterings([[30, 20], [10, 20]]), index_records("rand"),
    ...                 NullSpec(method="exact")))
    >>> round(laws["rand"].mean, 5)
    0.49968
    """
    out: dict[str, NullDistribution] = {}
    for req in requests:
        out.update(req.method.law(req))
    return out


def _stated(laws: dict, clusterings) -> dict:
    """The laws with the objects they are laws of in their details, when not all as given
    (a noise policy, objects left out, weights): their printout says it."""
    coverage = clusterings.coverage
    if coverage is not None and coverage.notable:
        for law in laws.values():
            law.details["objects"] = coverage.describe(clusterings.names)
            law.details["n_compared"] = coverage.n_compared
    return laws


@fill_doc
def null_distributions(x, indices="paired", method="exact", *, y=None, model=None, n_sim=None,
                       seed=None, data=None, dropna=False, join="exact",
                       noise=None, sample_weight=None,
                       **options) -> dict[str, NullDistribution]:
    """Null distributions of several indices, all from the same random tables or permutations.

    Parameters
    ----------
    x : array-like, Series, DataFrame, str or ContingencyTable
        The first clustering (``y=`` the second), or a table alone; see
        ``null_distribution``.
    %(indices)s
    method : str, NullSpec or scipy.stats.PermutationMethod, default "exact"
        How the laws are obtained (see ``null_distribution``).
    y : array-like, Series, DataFrame or str, optional
        The second clustering.
    %(model)s
    %(n_sim)s
    %(seed)s
    %(data)s
    %(dropna)s
    %(join)s
    %(noise)s
    %(sample_weight)s
    %(**options)s

    Returns
    -------
    dict
        Index name -> NullDistribution.

    See Also
    --------
    null_distribution : One index.
    clusteragree.compare : The tests of many indices.

    References
    ----------
    {ref:amorim2015}.

    Examples
    --------
    >>> nds = ca.nulls.null_distributions([[30, 20], [10, 20]], ["rand", "jaccard"], "exact")
    >>> round(nds["rand"].mean, 5), round(nds["jaccard"].mean, 5)   # Amorim (2015), Table 8
    (0.49968, 0.34143)
    """
    spec = NullSpec.of(method, model=model, n_sim=n_sim, seed=seed)
    recs = index_records(indices)
    clusterings = entry(x, y, data, dropna, join, recs, noise=noise,
                        sample_weight=sample_weight)
    laws = _stated(run(plan(clusterings, recs, spec, options, optional=group_members(indices))),
                   clusterings)
    return {r.name: laws[r.name] for r in recs if r.name in laws}  # in the order asked


@fill_doc
def null_distribution(x, y=None, index="adjusted_rand", method="exact", *, model=None,
                      n_sim=None, seed=None, data=None, dropna=False, join="exact",
                      noise=None, sample_weight=None, **options) -> NullDistribution:
    """The null distribution of an index for the observed clusterings.

    Parameters
    ----------
    %(x, y)s
    index : str or Index, default "adjusted_rand"
        The index: a name or an alias of ``ca.list_indices()`` (e.g. "rand", "jaccard",
        "nmi_sqrt"); the default of every function of one index.
    method : str, NullSpec or scipy.stats.PermutationMethod, default "exact"
        How the law is obtained, by the names a test takes (``clusteragree.agreement_test``,
        whose default is "auto": the exact law when it fits the budgets, else Monte Carlo):
        here the default is "exact", the exact law or a refusal before any work.
    %(model)s
    %(n_sim)s
    %(seed)s
    %(data)s
    %(dropna)s
    %(join)s
    %(noise)s
    %(sample_weight)s
    %(**options)s

    Returns
    -------
    NullDistribution
        The exact law, a sampled law or closed-form moments, with the model and method named.

    See Also
    --------
    null_distributions : Several indices on the same null tables.
    clusteragree.agreement_test : The test of the observed value against this law.
    NullSpec : A method with its settings.

    References
    ----------
    {ref:amorim2015}.

    {ref:patefield1981}.

    {ref:gates2017}.

    Examples
    --------
    >>> tab = ca.ContingencyTable([[30, 20], [10, 20]])
    >>> nd = ca.nulls.null_distribution(tab, index="jaccard", method="patefield", seed=1)
    >>> nd.n_sim, abs(nd.mean - 0.34143) < 0.002      # exact mean 0.34143 (Amorim 2015)
    (17000, True)
    """
    rec = one_index(index, "for several use null_distributions() or compare()")
    spec = NullSpec.of(method, model=model, n_sim=n_sim, seed=seed)
    clusterings = entry(x, y, data, dropna, join, [rec], noise=noise,
                        sample_weight=sample_weight)
    return _stated(run(plan(clusterings, [rec], spec, options)), clusterings)[rec.name]
