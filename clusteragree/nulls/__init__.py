"""Agreement by chance: the full null distribution of any index.

>>> import clusteragree as ca
>>> nd = ca.nulls.null_distribution([[30, 20], [10, 20]], index="rand", method="exact")
>>> round(nd.mean, 5), nd.is_exact                 # seed 002 Table 8: 0.49968
(0.49968, True)

Methods (``method=``):

* ``"exact"``: the exact law. Pair-counting and information indices use the network-algorithm
  dynamic programme on s or t (no table is listed); other indices enumerate every table with
  the observed margins (refused above ``max_tables``).
* ``"hypergeometric"``: closed-form mean (and variance for pair counting) of indices affine in
  their statistic; no quantiles.
* ``"patefield"``: ``n_sim`` random tables with the observed margins (default 17,000, the
  thesis' IADJUST).
* ``"permutation"``: ``n_sim`` random permutations of y against x (default 999); all n!
  permutations, an exact law, when n <= 8.

All keep both margins fixed (one labelling randomly permuted against the other) and return a
``NullDistribution``.
"""

from __future__ import annotations

from .._validate import check_choice, check_positive_int, check_seed
from ..indices import get_index, resolve_indices, split_options
from ..indices._common import STATISTICS
from ..indices._registry import Index
from ..tables import as_table
from .distribution import NullDistribution, n_sim_for
from .exact import DEFAULT_MAX_TABLES, count_tables, enumerate_tables, statistic_law
from .hypergeometric import index_moments, moments_of_s
from .patefield import DEFAULT_N_SIM, random_tables
from .permutation import (PAIR_NULLS, permuted_direct_values, permuted_pair_values,
                          permuted_tables, table_to_codes)

__all__ = ["null_distribution", "null_distributions", "pairwise_null", "NullDistribution", "n_sim_for",
           "METHODS", "count_tables", "enumerate_tables", "statistic_law", "random_tables",
           "moments_of_s", "DEFAULT_N_SIM"]

METHODS = ("exact", "hypergeometric", "patefield", "permutation")
DEFAULT_N_PERM = 999
MODEL = "both margins fixed (generalized hypergeometric)"


def _check_table_index(rec: Index, method: str):
    if "table" not in rec.inputs:
        raise ValueError(f"index {rec.name!r} has no table form; method={method!r} needs one "
                         "(use method='permutation')")


def null_distributions(table, indices, method="exact", *, n_sim=None, seed=None,
                       max_tables=DEFAULT_MAX_TABLES, progress=False, **options):
    """Null distributions of several indices on one table, all from the same tables.

    Returns a dict name -> NullDistribution. See ``null_distribution``.
    """
    check_choice(method, "method", METHODS)
    tab = as_table(table)
    names, _ = resolve_indices(indices)
    recs = [get_index(n) for n in names]
    for rec in recs:
        _check_table_index(rec, method)
    per = split_options(names, options)
    rows, cols = tab.row_sums, tab.col_sums
    if method in ("patefield", "permutation"):
        default = DEFAULT_N_SIM if method == "patefield" else DEFAULT_N_PERM
        n_sim = default if n_sim is None else check_positive_int(n_sim, "n_sim")
        rng = check_seed(seed)
    elif n_sim is not None:
        raise ValueError(f"n_sim is for Monte Carlo methods, not method={method!r}")
    if min(int(tab.n), 10**9) < max(r.min_n for r in recs):
        bad = [r.name for r in recs if r.min_n > tab.n]
        raise ValueError(f"indices {bad} need at least 2 objects, got n = {tab.n}")

    out = {}
    details = {"n": tab.n, "shape": tab.shape}
    if method == "hypergeometric":
        for rec in recs:
            out[rec.name] = NullDistribution(rec, method, moments=index_moments(
                rec, rows, cols, **per[rec.name]), model=MODEL, options=per[rec.name],
                details=details)
        return out
    if method == "exact":
        laws, tables = {}, None
        for rec in recs:
            if rec.statistic is not None:
                if rec.statistic not in laws:
                    laws[rec.statistic] = statistic_law(rows, cols, rec.statistic)
                values, probs = laws[rec.statistic]
                index_values = rec.of_statistic(values, rows, cols, **per[rec.name])
                how = f"dynamic programme on {rec.statistic}"
            else:
                if tables is None:
                    tables = enumerate_tables(rows, cols, max_tables=max_tables)
                index_values, probs = rec.on_counts(tables[0], **per[rec.name]), tables[1]
                how = f"enumeration of {len(tables[1]):,} tables"
            out[rec.name] = NullDistribution(rec, "exact", values=index_values,
                                             probabilities=probs, model=MODEL,
                                             options=per[rec.name],
                                             details={**details, "algorithm": how})
        return out

    if method == "patefield":
        sims = random_tables(rows, cols, n_sim, seed=rng, progress=progress)
        weights = None
        details = {**details, "seed": seed, "n_sim": n_sim}
    else:
        x, y = table_to_codes(tab.counts)
        sims, weights = permuted_tables(x, y, n_sim=n_sim, seed=rng, progress=progress)
        details = {**details, "seed": seed, "exhaustive": weights is not None}
    stats = {}
    for rec in recs:
        if rec.statistic is not None:
            if rec.statistic not in stats:
                stats[rec.statistic] = STATISTICS[rec.statistic](sims)
            values = rec.of_statistic(stats[rec.statistic], rows, cols, **per[rec.name])
        else:
            values = rec.on_counts(sims, **per[rec.name])
        if weights is not None:
            out[rec.name] = NullDistribution(rec, "permutation", values=values,
                                             probabilities=weights, model=MODEL,
                                             options=per[rec.name], details=details)
        else:
            out[rec.name] = NullDistribution(rec, method, samples=values, model=MODEL,
                                             options=per[rec.name], details=details)
    return out


_PAIR_MODELS = {
    "objects": "objects of y randomly permuted (Mantel / QAP null: each matrix keeps its "
               "structure)",
    "pairs": "pair values of y randomly permuted (Amodio et al.'s null)",
}


def pairwise_null(x, y, index, method="permutation", *, null="objects", n_sim=None, seed=None,
                  exhaustive=None, progress=False, **options) -> NullDistribution:
    """Null distribution of an index of object pairs (fuzzy memberships, similarity matrices).

    ``method="permutation"``: ``n_sim`` (999) random permutations of y's objects
    (``null="objects"``) or of its pair values (``null="pairs"``), all of them when there are at
    most 8 things to permute; ``method="exact"``: the exact mean under both nulls (they share
    it), where the index has one.
    """
    from .._validate import check_options
    from ..indices._pairwise import pair_vectors

    rec = get_index(index)
    check_choice(null, "null", PAIR_NULLS)
    if method not in ("permutation", "exact"):
        raise ValueError(f"index {rec.name!r} has no contingency table: method={method!r} needs "
                         "one; use method='permutation' (or 'exact' for its exact mean)")
    opts = check_options(options, rec.options, f"index {rec.name!r}")
    if rec.representation is None:  # computed directly from the two clusterings
        if method != "permutation" or null != "objects":
            raise ValueError(f"index {rec.name!r} has only the object-permutation null: use "
                             "method='permutation', null='objects'")
        n_sim = DEFAULT_N_PERM if n_sim is None else n_sim
        values, weights, details = permuted_direct_values(rec, x, y, opts, n_sim=n_sim,
                                                          seed=seed, progress=progress)
        law = ({"values": values, "probabilities": weights} if weights is not None
               else {"samples": values})
        return NullDistribution(rec, "permutation", model=_PAIR_MODELS[null], options=opts,
                                details=details, **law)
    xs, ys, ymats = pair_vectors(rec, x, y)
    const = rec.prepare(xs, ys, **opts) if rec.prepare else {}
    details = {"n": ymats[0].shape[0], "null": null, "seed": seed}
    if method == "exact":
        if rec.pair_mean is None:
            raise ValueError(f"index {rec.name!r} has no exact null mean here; use "
                             "method='permutation'")
        mean = rec.pair_mean(xs, ys, **const, **opts)
        if mean is None:
            raise ValueError(f"the exact null mean of {rec.name!r} is not known with these "
                             f"options {opts}; use method='permutation'")
        return NullDistribution(rec, "exact", moments={"mean": float(mean)},
                                model=_PAIR_MODELS[null] + " (either null: same mean)",
                                options=opts, details=details)
    if n_sim is None:
        n_sim = DEFAULT_N_PERM
    values, weights = permuted_pair_values(rec, xs, ys, ymats, const, opts, null=null,
                                           n_sim=n_sim, seed=check_seed(seed),
                                           exhaustive=exhaustive, progress=progress)
    details["exhaustive"] = weights is not None
    if weights is not None:
        return NullDistribution(rec, "permutation", values=values, probabilities=weights,
                                model=_PAIR_MODELS[null], options=opts, details=details)
    return NullDistribution(rec, "permutation", samples=values, model=_PAIR_MODELS[null],
                            options=opts, details=details)


def null_distribution(x, y=None, index="adjusted_rand", method="exact", *, n_sim=None,
                      seed=None, max_tables=DEFAULT_MAX_TABLES, data=None, dropna=False,
                      progress=False, null="objects", **options) -> NullDistribution:
    """The null distribution of an index for the margins of the observed clusterings.

    Parameters
    ----------
    x, y : two labellings (or column names with ``data=``), or ``x`` alone as a
        ContingencyTable or a K x Q table of counts.
    index : str
        Any index of ``ca.list_indices()``.
    method : {"exact", "hypergeometric", "patefield", "permutation"}
    n_sim : int, optional
        Monte Carlo size (patefield: 17,000; permutation: 999).
    seed : None, int, SeedSequence or Generator
        The only source of randomness.
    max_tables : int
        Enumeration refuses tables counts above this (it says how many there are).
    progress : bool
        Show a progress bar for long Monte Carlo runs.
    null : {"objects", "pairs"}
        For indices of object pairs (fuzzy memberships, similarity matrices): permute y's
        objects (default; the Mantel/QAP null) or its pair values (seed 004's null).
    **options
        Options of the index (e.g. ``base=2``).

    Returns
    -------
    NullDistribution

    Examples
    --------
    >>> import clusteragree as ca
    >>> tab = ca.ContingencyTable([[30, 20], [10, 20]])
    >>> nd = ca.nulls.null_distribution(tab, index="jaccard", method="patefield", seed=1)
    >>> nd.n_sim, abs(nd.mean - 0.34143) < 0.002      # exact mean 0.34143 (seed 002)
    (17000, True)
    """
    check_choice(method, "method", METHODS)
    check_seed(seed)  # a bad seed is an error before any work
    if not isinstance(index, (str, Index)):
        raise TypeError("index must be one index name; for several use compare()")
    rec = get_index(index)
    if "table" not in rec.inputs:
        if y is None or data is not None:
            raise TypeError(f"index {rec.name!r} needs the two clusterings x and y themselves")
        return pairwise_null(x, y, rec, method, null=null, n_sim=n_sim, seed=seed,
                             progress=progress, **options)
    tab = as_table(x, y, data=data, dropna=dropna)
    name = rec.name
    return null_distributions(tab, [name], method, n_sim=n_sim, seed=seed,
                              max_tables=max_tables, progress=progress, **options)[name]
