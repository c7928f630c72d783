"""The null engine: from a request to null laws, through the registry of models and methods.

``plan`` turns the arguments of a public call into checked ``NullRequest`` records (one per
kind of index: table indices and indices of object pairs), so every bad argument is an error
before any work; ``run`` hands each request to its method's ``law``. The public functions
``null_distributions`` and ``null_distribution`` are these two steps.
"""

from __future__ import annotations

from .._validate import (check_bool, check_choice, check_options, check_positive_int, check_real,
                         check_seed)
from ..indices import (evaluate, get_index, group_members, resolve_indices, skip_undefined,
                       split_options)
from ..indices import Index, PairIndex
from ..inputs import as_clusterings
from ._methods import PAIR_MODELS, PARTITION_MODELS, get_method, get_model, methods_of
from ._request import NullRequest, check_memory
from .distribution import NullDistribution
from .._moments.mi_variance import DEFAULT_MAX_SECONDS
from .exact import DEFAULT_MAX_TABLES, DEFAULT_MAX_WORK

__all__ = ["plan", "run", "null_distributions", "null_distribution"]

_REFERENCES = ("x", "y")


def _is_pair_index(rec: Index) -> bool:
    return isinstance(rec, PairIndex)


def _model_for(recs, model, null):
    """The model record of a group of indices (all table indices, or all pair indices)."""
    if _is_pair_index(recs[0]):
        if model == "perm":
            return get_model(null or "objects")
        mod = get_model(model)
        if mod.inputs == "pairs":
            if null is not None and null != mod.name:
                raise ValueError(f"null={null!r} and model={model!r} disagree: give one of them")
            return mod
        raise ValueError(
            f"model={model!r} ({mod.title}) is a random model of partitions; index "
            f"{recs[0].name!r} compares memberships or similarity matrices, whose nulls permute "
            f"y's objects or pair values: use null='objects' or null='pairs'")
    mod = get_model(model)
    if mod.inputs != "table":
        raise ValueError(f"model={model!r} ({mod.title}) is a null for indices of object pairs "
                         f"(fuzzy and matrix); index {recs[0].name!r} takes partitions: use "
                         f"one of the models {list(PARTITION_MODELS)}")
    return mod


def _check_null_and_reference(groups, model, null, reference):
    """null= serves indices of object pairs, reference= one-sided partition models."""
    kinds = {_is_pair_index(g[0]) for g in groups}
    if null is not None:
        check_choice(null, "null", PAIR_MODELS)
        if True not in kinds:
            raise ValueError(f"null={null!r} is for indices of object pairs (fuzzy memberships, "
                             f"similarity matrices); for partitions choose the random model "
                             f"with model= ({list(PARTITION_MODELS)})")
    if reference is not None:
        check_choice(reference, "reference", _REFERENCES)
        mod = get_model(model)
        if not mod.one_sided:
            raise ValueError(f"reference= names the clustering a one-sided model keeps fixed "
                             f"(num1, all1); model={mod.name!r} is not one-sided")


def _n_sim_for(method, n_sim, auto: bool):
    if method.monte_carlo:
        return method.default_n_sim if n_sim is None else check_positive_int(n_sim, "n_sim")
    if n_sim is not None:
        if auto:
            return check_positive_int(n_sim, "n_sim")
        mc = [m for m in methods_of(method.model) if get_method(m, method.model).monte_carlo]
        raise ValueError(f"n_sim is for Monte Carlo methods, not method={method.name!r} "
                         f"(under model={method.model!r}: {mc})")
    return None


def _request(recs, options, clusterings, model, method_rec, *, n_sim, seed, rng, exhaustive,
             max_tables, max_work, max_seconds, progress, reference, auto, observed):
    if exhaustive is not None and "exhaustive" not in method_rec.options:
        raise ValueError(f"exhaustive= is for permutation methods, not method="
                         f"{method_rec.name!r}")
    req = NullRequest(indices=tuple(recs), options=options, clusterings=clusterings,
                      model=model, method=method_rec, n_sim=_n_sim_for(method_rec, n_sim, auto),
                      seed=seed, rng=rng, max_tables=max_tables, max_work=max_work,
                      max_seconds=max_seconds,
                      exhaustive=exhaustive, progress=progress, auto=auto,
                      reference=reference, observed={r.name: observed[r.name]
                                                     for r in recs if r.name in observed})
    if method_rec.monte_carlo:
        check_memory(req.n_sim, len(recs), clusterings.n, method_rec.bytes_per_object)
    if method_rec.check is not None:
        method_rec.check(req)
    return req


def _choose(recs, options, clusterings, model, method, **kw) -> NullRequest:
    """The checked request of one group; ``method="auto"`` takes the first of the model's
    ``auto`` methods whose check passes (exact when it fits, else Monte Carlo)."""
    if method is None:
        method = model.default_method
    if method != "auto":
        return _request(recs, options, clusterings, model, get_method(method, model),
                        auto=False, **kw)
    refusals = []
    for name in model.auto:
        try:
            return _request(recs, options, clusterings, model, get_method(name, model),
                            auto=True, **kw)
        except ValueError as exc:
            refusals.append(f"{name}: {exc}")
    raise ValueError("method='auto' found no method for this request: " + "; ".join(refusals))


def plan(x, indices, method=None, *, y=None, data=None, dropna=False, join="exact", model="perm",
         null=None,
         reference=None, n_sim=None, seed=None, exhaustive=None, max_tables=DEFAULT_MAX_TABLES,
         max_work=DEFAULT_MAX_WORK, max_seconds=DEFAULT_MAX_SECONDS, progress=False,
         options=None) -> list[NullRequest]:
    """Checked requests for the null laws of ``indices``: every argument is validated and
    every method's size check is run here, before any work."""
    names, _ = resolve_indices(indices)
    recs = [get_index(n) for n in names]
    per = split_options(names, dict(options or {}))
    per = {n: check_options(per[n], get_index(n).options, f"index {n!r}") for n in names}
    rng = check_seed(seed)
    check_bool(progress, "progress")
    check_bool(dropna, "dropna")
    if exhaustive is not None:
        check_bool(exhaustive, "exhaustive")
    max_tables = check_positive_int(max_tables, "max_tables")
    max_work = check_positive_int(max_work, "max_work")
    max_seconds = check_real(max_seconds, "max_seconds", "a positive number of seconds")
    if max_seconds <= 0:
        raise ValueError(f"max_seconds must be a positive number of seconds, got {max_seconds}")
    groups = [g for g in ([r for r in recs if not _is_pair_index(r)],
                          [r for r in recs if _is_pair_index(r)]) if g]
    _check_null_and_reference(groups, model, null, reference)
    models = [_model_for(g, model, null) for g in groups]
    clusterings = as_clusterings(x, y, data=data, dropna=dropna, join=join,
                                 table=any(not _is_pair_index(g[0]) for g in groups),
                                 pairs=[r.name for r in recs if _is_pair_index(r)])
    for r in recs:  # the clusterings of the pair indices, validated here, before any work
        if _is_pair_index(r):
            clusterings.pair(r)
    if clusterings.table is not None:
        n = clusterings.table.n
        short = [r for r in recs if not _is_pair_index(r) and r.min_n > n]
        if short:
            need = ", ".join(f"{r.name} needs at least {r.min_n} objects" for r in short)
            raise ValueError(f"too few objects for the index: {need}; got n = {n}")
    # the observed values of the table indices: cheap, and a bad option value fails here; an
    # index of a group that is not defined for this table is left out with its reason
    table_names = [r.name for r in recs if not _is_pair_index(r)]
    observed, not_defined = ({}, {}) if not table_names else skip_undefined(
        table_names, group_members(indices),
        lambda name: float(evaluate(name, clusterings.table.counts, **per[name])))
    if not_defined:
        recs = [r for r in recs if r.name not in not_defined]
        groups = [[r for r in g if r.name not in not_defined] for g in groups]
        models = [m for g, m in zip(groups, models) if g]
        groups = [g for g in groups if g]
    kw = dict(n_sim=n_sim, seed=seed, rng=rng, exhaustive=exhaustive, max_tables=max_tables,
              max_work=max_work, max_seconds=max_seconds, progress=progress,
              reference=reference or "x",
              observed=observed)
    requests = [_choose(g, {r.name: per[r.name] for r in g}, clusterings, mod, method, **kw)
                for g, mod in zip(groups, models)]
    for req in requests:
        req.not_defined = not_defined
    return requests


def run(requests) -> dict:
    """The null laws of planned requests: index name -> NullDistribution."""
    out: dict[str, NullDistribution] = {}
    for req in requests:
        out.update(req.method.law(req))
    return out


def null_distributions(x, indices="paired", method="exact", *, y=None, data=None,
                       dropna=False, join="exact", model="perm", null=None, reference=None, n_sim=None,
                       seed=None, exhaustive=None, max_tables=DEFAULT_MAX_TABLES,
                       max_work=DEFAULT_MAX_WORK, max_seconds=DEFAULT_MAX_SECONDS,
                       progress=False,
                       **options) -> dict[str, NullDistribution]:
    """Null distributions of several indices, all from the same random tables or permutations.

    Takes the arguments of ``null_distribution`` (``x`` a table, or ``x`` and ``y=`` two
    clusterings) with ``indices`` a name, a group or a list; returns a dict
    index name -> NullDistribution.

    >>> nds = ca.nulls.null_distributions([[30, 20], [10, 20]], ["rand", "jaccard"], "exact")
    >>> round(nds["rand"].mean, 5), round(nds["jaccard"].mean, 5)   # Amorim (2015), Table 8
    (0.49968, 0.34143)
    """
    requests = plan(x, indices, method, y=y, data=data, dropna=dropna, join=join, model=model,
                    null=null,
                    reference=reference, n_sim=n_sim, seed=seed, exhaustive=exhaustive,
                    max_tables=max_tables, max_work=max_work, max_seconds=max_seconds,
                    progress=progress,
                    options=options)
    return run(requests)


def null_distribution(x, y=None, index="adjusted_rand", method="exact", *, model="perm",
                      null=None, reference=None, n_sim=None, seed=None, exhaustive=None,
                      max_tables=DEFAULT_MAX_TABLES, max_work=DEFAULT_MAX_WORK,
                      max_seconds=DEFAULT_MAX_SECONDS, data=None,
                      dropna=False, join="exact", progress=False,
                      **options) -> NullDistribution:
    """The null distribution of an index for the observed clusterings.

    Parameters
    ----------
    x, y : two clusterings (labels, column names with ``data=``, membership or similarity
        matrices), or ``x`` alone as a ContingencyTable or a K x Q table of counts.
    index : str
        Any index of ``ca.list_indices()``.
    method : str
        How the law is obtained (``ca.nulls.list_nulls()``): under ``model="perm"``,
        "exact", "hypergeometric", "patefield" or "permutation"; under the random partition
        models, "exact" (exact mean; the full law when n is small) or "simulation"; for
        indices of object pairs, "permutation" or "exact" (the exact mean). "auto" takes the
        exact law when it fits in ``max_tables`` / ``max_work``, else Monte Carlo.
    model : {"perm", "num", "num1", "all", "all1"}
        The random model (Gates & Ahn 2017): both margins fixed (default); random partitions
        with the observed numbers of clusters (two-sided, or one-sided with x fixed); random
        partitions of any number of clusters (two- or one-sided).
    null : {"objects", "pairs"}, optional
        For indices of object pairs (fuzzy memberships, similarity matrices): permute y's
        objects (default; the Mantel/QAP null) or its pair values (Amodio et al.'s null).
    reference : {"x", "y"}, optional
        The clustering a one-sided model keeps fixed (default x, the rows).
    n_sim : int, optional
        Monte Carlo size (Patefield: 17,000; permutation: 999; simulation: 17,000).
    seed : None, int, SeedSequence or Generator
        The only source of randomness.
    exhaustive : bool, optional
        Permutation methods: use all permutations (an exact law); default when n <= 8.
    max_tables, max_work : int
        Exact methods refuse, before any work, laws with more tables to enumerate or a larger
        dynamic programme than these.
    max_seconds : float
        The closed-form variance of an information index (``method="hypergeometric"``) is
        refused, before any work, when its time predicted from the margins is above this
        (default 60 s; a 50 x 50 table with n = 10^6 takes about 100 s); from 5 s on it shows
        a progress bar.
    progress : bool
        Show a progress bar for long Monte Carlo runs.
    **options
        Options of the index (e.g. ``base=2``).

    Returns
    -------
    NullDistribution

    Examples
    --------
    >>> tab = ca.ContingencyTable([[30, 20], [10, 20]])
    >>> nd = ca.nulls.null_distribution(tab, index="jaccard", method="patefield", seed=1)
    >>> nd.n_sim, abs(nd.mean - 0.34143) < 0.002      # exact mean 0.34143 (Amorim 2015)
    (17000, True)
    """
    if not isinstance(index, (str, Index)):
        raise TypeError("index must be one index name; for several use null_distributions() or "
                        "compare()")
    rec = get_index(index)
    return null_distributions(x, [rec.name], method, y=y, data=data, dropna=dropna, join=join,
                              model=model, null=null, reference=reference, n_sim=n_sim,
                              seed=seed, exhaustive=exhaustive, max_tables=max_tables,
                              max_work=max_work, max_seconds=max_seconds, progress=progress,
                              **options)[rec.name]
