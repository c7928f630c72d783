"""The catalogue of agreement indices: one registry of ``Index`` records.

Every index is a ``TableIndex`` (a function of the contingency table of two partitions) or a
``PairIndex`` (a function of what two clusterings say about each pair of objects), both
``Index`` records. This package is the indices' public interface for the rest of
``clusteragree``: the null engine (``clusteragree.nulls``) and the tests of agreement
(``clusteragree.inference.agreement_tests``) import what they need from here, never from its private modules:
the records (``index_records``), the one conversion of a call's input for them (``entry``),
their evaluation on a table or a batch of tables (``evaluate``, ``evaluate_checked``,
``evaluate_sparse``, ``values_on_tables``; on tables of sums of non-integer sample weights,
``evaluate_weighted``), ``STATISTICS`` for the table indices' additive
statistics; ``evaluate_pairwise``, ``pair_vectors``, ``gather_objects`` and, for the bootstrap
(``clusteragree.intervals.engine``), ``evaluate_resample`` for the indices of object pairs.

>>> import clusteragree as ca
>>> tab = ca.ContingencyTable([[30, 20], [10, 20]])          # Amorim (2015), Table 6a
>>> ca.agreement(tab, index=["rand", "jaccard"]).round(4).to_dict()
{'rand': 0.5253, 'jaccard': 0.3644}
"""

from __future__ import annotations

import functools
import types
import warnings

import pandas as pd

from .._docs import fill_doc
from . import pairs, information, matching, fuzzy, fuzzy_reviewed, matrices  # noqa: F401, I001
from . import association, overlapping, standardised, mari, reduced, fuzzy_campello  # noqa: F401, I001
from . import tsallis, catalogue  # noqa: F401, I001
from .._validate import check_options, suggest
from ._common import STATISTIC_NAMES, STATISTICS, compact_tables
from ._pairwise import (ResampleRefused, evaluate_pairwise, evaluate_resample, gather_objects,
                        pair_vectors)
from ._records import Index, PairIndex
from ._table_index import TableIndex
from ._registry import REGISTRY, get_index, is_record, one_index, register_groups
from ._evaluate import (entry, evaluate, evaluate_checked, evaluate_sparse, evaluate_table,
                        evaluate_weighted, values_on_tables)
from .catalogue import ABBREVIATIONS, abbreviation, catalogue_markdown
from .mari import mari_null_moments

__all__ = ["list_indices", "catalogue_markdown", "abbreviation", "ABBREVIATIONS", "get_index", "one_index", "is_record",
           "evaluate", "evaluate_checked", "evaluate_sparse", "evaluate_table", "evaluate_weighted",
           "values_on_tables",
           "entry", "index_records", "resolve_indices", "resolve_call",
           "mari_null_moments",
           "group_members", "skip_undefined",
           "split_options", "GROUPS",
           "Index", "TableIndex", "PairIndex", "REGISTRY",
           # what the null engine and the tests of agreement use (``clusteragree.nulls``,
           # ``clusteragree.inference.agreement_tests``): the additive statistics of table
           # indices, and the pair vectors of indices of object pairs
           "STATISTICS", "STATISTIC_NAMES", "compact_tables", "evaluate_pairwise", "pair_vectors",
           "gather_objects", "evaluate_resample", "ResampleRefused"]

#: Named groups of indices. "common": the indices users look for first. "paired" and "simple" are the eight indices of paired agreement and
#: the indices of simple agreement of Amorim, M. J. (2015), "On clustering stability", PhD
#: thesis, ISCTE - University Institute of Lisbon (VI is the thesis' "NVI").
GROUPS: dict[str, tuple[str, ...]] = {
    # the indices users look for first (scikit-learn's ARI and AMI among them): compare's
    # default
    "common": ("adjusted_rand", "adjusted_mutual_info", "nmi_sum", "rand", "jaccard",
               "fowlkes_mallows", "variation_of_information"),
    "paired": ("rand", "gower_legendre", "jaccard", "czekanowski", "goodman_kruskal",
               "sokal_sneath", "sokal_sneath2", "fowlkes_mallows"),
    "simple": ("nmi_min", "nmi_sqrt", "nmi_sum", "nmi_joint", "variation_of_information"),
    "pair counting": tuple(k for k, v in REGISTRY.items() if v.family == "pair counting"),
    "information": tuple(k for k, v in REGISTRY.items()
                         if v.family == "information" and v.kind != "statistic"),
    "set matching": tuple(k for k, v in REGISTRY.items() if v.family == "set matching"),
    "fuzzy": tuple(k for k, v in REGISTRY.items() if v.family == "fuzzy"),
    "matrix": tuple(k for k, v in REGISTRY.items() if v.family == "matrix"),
    "overlapping": tuple(k for k, v in REGISTRY.items() if v.family == "overlapping"),
    # every index of a contingency table (the fuzzy and matrix ones need the clusterings)
    "all": tuple(k for k, v in REGISTRY.items()
                 if v.kind != "statistic" and isinstance(v, TableIndex)),
}
register_groups(GROUPS)


def group_members(index) -> set[str]:
    """The names that ``index`` asks for only as members of a group ("all", "paired", ...).

    An index of a group that is not defined for the table at hand is reported as NA, while an
    index named on its own raises: this says which is which.

    Parameters
    ----------
    index : str, Index or list of them
        What a caller asked for: a name, an alias, a group or a list of them.

    Returns
    -------
    set of str
        The names of the indices asked for through a group and not named on their own.

    See Also
    --------
    resolve_indices : Every index asked for.
    skip_undefined : Evaluate the indices, leaving out the group members not defined.

    Examples
    --------
    >>> sorted(group_members(["simple", "nmi_min"]))
    ['nmi_joint', 'nmi_sqrt', 'nmi_sum', 'variation_of_information']
    >>> group_members("jaccard")
    set()
    """
    if isinstance(index, str):
        return set(GROUPS[index]) if index in GROUPS else set()
    if isinstance(index, Index):
        return set()
    named = {get_index(n).name for n in index if isinstance(n, (str, Index)) and n not in GROUPS}
    grouped = set().union(*(GROUPS[n] for n in index if isinstance(n, str) and n in GROUPS))
    return grouped - named


def resolve_indices(index) -> tuple[list[str], bool]:
    """Index names from a name, an alias, a group name or a list.

    Parameters
    ----------
    index : str, Index or list of them
        A name or an alias (``list_indices()``), a group (``GROUPS``: "paired", "simple",
        "pair counting", "information", "set matching", "fuzzy", "matrix", "overlapping",
        "all") or a list of them.

    Returns
    -------
    names : list of str
        The registry names, in the order asked, each once.
    single : bool
        True when one index was named on its own (not a group, not a list): ``agreement``
        then returns a float rather than a Series.

    Raises
    ------
    TypeError
        ``index`` is neither a name nor a list of names.
    ValueError
        An unknown name (with a did-you-mean), or an empty list.

    See Also
    --------
    list_indices : The names, aliases and groups' members.
    group_members : The names asked for only through a group.

    Examples
    --------
    >>> resolve_indices("ari")
    (['adjusted_rand'], True)
    >>> resolve_indices(["ari", "simple", "nmi_min"])
    (['adjusted_rand', 'nmi_min', 'nmi_sqrt', 'nmi_sum', 'nmi_joint', 'variation_of_information'], False)
    """
    if isinstance(index, str):
        if index in GROUPS:
            return list(GROUPS[index]), False
        return [get_index(index).name], True
    if isinstance(index, Index):
        return [index.name], True
    try:
        names = list(index)
    except TypeError:
        raise TypeError(
            f"index must be a name, a group ({', '.join(GROUPS)}) or a list of names, "
            f"got {type(index).__name__}"
        ) from None
    if not names:
        raise ValueError("index is an empty list: name at least one index")
    out: list[str] = []
    for name in names:
        for resolved in resolve_indices(name)[0]:
            if resolved not in out:
                out.append(resolved)
    return out, False


def index_records(indices) -> list[Index]:
    """The records of the indices a call asks for, looked up once for the whole call.

    Parameters
    ----------
    indices : str, Index or list of them
        A name, an alias, a group, a record or a list of them (``resolve_indices``).

    Returns
    -------
    list of Index
        The records, in the order asked, each once.

    See Also
    --------
    resolve_indices : Their names.

    Examples
    --------
    >>> [r.name for r in index_records(["ari", "jaccard"])]
    ['adjusted_rand', 'jaccard']
    """
    names, _ = resolve_indices(indices)
    return [get_index(n) for n in names]


def resolve_call(index, options) -> tuple[tuple[str, ...], bool, list[Index], dict]:
    """The indices a public call asks for, each with its checked options, in one step.

    A call naming its index by a string and giving no option (the commonest call) is resolved
    once per string and remembered: the lookup, the options' defaults and the checks are not
    made again on every call. Anything else is resolved as it is given, with the same errors.

    Parameters
    ----------
    index : str, Index or list of them
        What the call asked for (``resolve_indices``).
    options : dict
        The options the call passed (``**options``).

    Returns
    -------
    names : tuple of str
        The registry names, in the order asked, each once.
    single : bool
        True when one index was named on its own (``resolve_indices``).
    recs : list of Index
        Their records.
    opts : dict
        Index name -> its checked options, defaults filled in (a read-only mapping).

    Raises
    ------
    TypeError, ValueError
        As ``resolve_indices``, ``split_options`` and the options' checks raise.

    See Also
    --------
    resolve_indices : The names alone.
    split_options : Which index takes which option.

    Examples
    --------
    >>> names, single, recs, opts = resolve_call("ari", {})
    >>> names, single, recs[0].name, dict(opts["adjusted_rand"])
    (('adjusted_rand',), True, 'adjusted_rand', {})
    >>> dict(resolve_call(["mi", "rand"], {"base": 2})[3]["mutual_info"])
    {'base': 2}
    """
    if not options and isinstance(index, str):
        names, single, recs, opts = _resolved(index)
        return names, single, list(recs), opts
    names, single = resolve_indices(index)
    recs = [get_index(n) for n in names]
    per = split_options(names, options)
    return tuple(names), single, recs, {
        r.name: check_options(per[r.name], r.options, f"index {r.name!r}") for r in recs}


@functools.lru_cache(maxsize=512)
def _resolved(index: str):
    """``resolve_call`` of an index string with no option, remembered (a failed lookup is
    not: it raises again, with its message). The registry refuses a name declared twice, so
    what a string resolves to never changes; the options are read-only mappings, shared."""
    names, single = resolve_indices(index)
    recs = tuple(get_index(n) for n in names)
    opts = types.MappingProxyType(
        {r.name: types.MappingProxyType(check_options({}, r.options, r.name)) for r in recs})
    return tuple(names), single, recs, opts


def skip_undefined(names, optional, evaluate_one):
    """Evaluate indices, leaving out the members of a group that are not defined here.

    An index of a group (``optional``) that is not defined for the input (``evaluate_one``
    raises ValueError, e.g. kappa on a non-square table) is left out with its reason, and one
    warning names them all; any other error propagates.

    Parameters
    ----------
    names : list of str
        The indices to evaluate.
    optional : set of str
        The names asked for only as members of a group (``group_members``).
    evaluate_one : callable
        ``evaluate_one(name)`` gives the value of one index.

    Returns
    -------
    values : dict
        Index name -> value, for the indices evaluated.
    reasons : dict
        Index name -> why it is not defined, for the indices left out.

    Raises
    ------
    ValueError
        An index named on its own is not defined, or none is.

    Warns
    -----
    UserWarning
        Naming the group members left out, with their reasons.

    See Also
    --------
    group_members : Which names are optional.

    Examples
    --------
    >>> import warnings
    >>> def one(name):
    ...     if name == "kappa":
    ...         raise ValueError("needs a square table")
    ...     return 0.5
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     skip_undefined(["rand", "kappa"], {"kappa"}, one)
    ({'rand': 0.5}, {'kappa': 'needs a square table'})
    >>> str(caught[0].message)
    '1 index(es) of the group are not defined here and are reported as NA: kappa: needs a square table'
    """
    values, reasons = {}, {}
    for name in names:
        try:
            values[name] = evaluate_one(name)
        except ValueError as exc:
            if name not in optional:
                raise
            reasons[name] = str(exc)
    if reasons:
        warnings.warn(
            f"{len(reasons)} index(es) of the group are not defined here and are reported as "
            f"NA: {'; '.join(f'{k}: {v}' for k, v in reasons.items())}",
            UserWarning, stacklevel=3)
    if not values:
        raise ValueError(next(iter(reasons.values())))
    return values, reasons


def split_options(names, options):
    """Give each index the options it takes.

    Parameters
    ----------
    names : list of str
        Registry names of the indices asked for.
    options : dict
        The options a caller passed (``**options``).

    Returns
    -------
    dict
        Index name -> the options it takes (an empty dict for an index that takes none of
        them).

    Raises
    ------
    TypeError
        An option that no index takes (with a did-you-mean).

    See Also
    --------
    list_indices : The options of each index (column ``options``).

    Examples
    --------
    >>> split_options(["mutual_info", "rand"], {"base": 2})
    {'mutual_info': {'base': 2}, 'rand': {}}
    """
    per = {name: {} for name in names}
    for key, value in options.items():
        takers = [n for n in names if key in REGISTRY[n].options]
        if not takers:
            known = sorted({o for n in names for o in REGISTRY[n].options})
            where = f"index {names[0]!r}" if len(names) == 1 else "the requested indices"
            raise TypeError(
                f"unknown option {key!r} for {where} (options: {', '.join(known) or 'none'})."
                + suggest(key, known)
            )
        for n in takers:
            per[n][key] = value
    return per


def _exact_moments(rec: Index) -> str:
    """What the closed forms give under the null (method="hypergeometric" / "exact")."""
    if isinstance(rec, TableIndex):
        return "mean, variance" if rec.linear and rec.statistic in ("s", "t") else ""
    return "mean" if rec.pair_mean is not None else ""


def _kinds_of(rec: Index) -> str:
    """The kinds of clustering an index of two clusterings takes ('' for a table index)."""
    if not isinstance(rec, PairIndex):
        return ""
    text = ", ".join(rec.kinds)
    return text if not rec.kinds_y else f"x: {text}; y: {', '.join(rec.kinds_y)}"


@fill_doc
def list_indices(family: str | None = None) -> pd.DataFrame:
    """The catalogue of agreement indices: the registry as a DataFrame, one row per index.

    Parameters
    ----------
    family : str, optional
        One family only: "pair counting", "pairs of pairs", "information", "set matching",
        "association", "fuzzy", "matrix" or "overlapping".

    Returns
    -------
    DataFrame
        Indexed by name, with the index's ``title``, ``family``, ``kind`` ("similarity",
        "distance" or "statistic": no fixed optimum), ``input`` (what it is computed from:
        "table", or memberships, matrices, ...), ``kinds`` (the kinds of clustering it is
        defined for: exclusive hard, fuzzy, non-exclusive hard, possibilistic,
        non-exhaustive hard, similarity matrix; empty for indices of a contingency table),
        ``range``, ``optimum``, ``symmetric``, ``reflexive`` (whether a clustering compared
        with itself always reaches the optimum: False for russel_rao, mutual_info, smi, ...;
        see ``clusteragree.indices``), ``real_counts`` (whether it is defined on a table
        of real-valued counts, sums of non-integer sample weights: False for the adjusted
        and standardised indices whose null moments are laws of integer tables, ...; see
        ``evaluate_weighted``), ``statistic`` (s or t: the additive cell
        statistic it is a function of, given the margins), ``exact_moments`` (the null
        moments that have a closed form), ``vectorised``, ``options`` (with their defaults),
        ``aliases`` and ``reference`` (each index's source: authors, year, title).

    Raises
    ------
    ValueError
        An unknown family.

    See Also
    --------
    clusteragree.agreement : Evaluate indices.
    clusteragree.get_index : One index's registry record.
    catalogue_markdown : The catalogue as the user guide's tables.

    References
    ----------
    {ref:hubert1985}, 193-218.

    Vinh, N. X., Epps, J. & Bailey, J. (2010), "Information theoretic measures for clusterings
    comparison: variants, properties, normalization and correction for chance", Journal of
    Machine Learning Research 11, 2837-2854.

    {ref:amorim2015}.

    {ref:horta2015}.

    Rezaei, M. & Franti, P. (2016), "Set matching measures for external cluster validity",
    IEEE Transactions on Knowledge and Data Engineering 28(8).

    Zhang, S., Wong, H.-S. & Shen, Y. (2012), "Generalized adjusted Rand indices for cluster
    ensembles", Pattern Recognition 45(6).

    Examples
    --------
    >>> import clusteragree as ca
    >>> df = ca.list_indices()
    >>> df.loc["jaccard", ["family", "kind", "range"]].tolist()
    ['pair counting', 'similarity', '[0, 1]']
    >>> ca.list_indices("information").loc["mutual_info", "options"]
    'base=None'
    >>> df.loc[["rand", "russel_rao", "mutual_info"], "reflexive"].tolist()
    [True, False, False]
    """
    rows = []
    for rec in REGISTRY.values():
        if family is not None and rec.family != family:
            continue
        rows.append({
            "name": rec.name,
            "title": rec.title,
            "family": rec.family,
            "kind": rec.kind,
            "input": ", ".join(rec.inputs),
            "kinds": _kinds_of(rec),
            "range": f"[{rec.range[0]:g}, {rec.range[1]:g}]",
            "optimum": rec.optimum,
            "symmetric": rec.symmetric,
            "reflexive": rec.reflexive,
            "real_counts": rec.real_counts,
            "statistic": (rec.statistic if isinstance(rec, TableIndex) else None) or "",
            "exact_moments": _exact_moments(rec),
            "vectorised": rec.vectorised,
            "options": ", ".join(f"{k}={v!r}" for k, v in rec.options.items()),
            "aliases": ", ".join(rec.aliases),
            "reference": rec.reference,
        })
    if not rows:
        families = sorted({r.family for r in REGISTRY.values()})
        raise ValueError(f"family must be one of {families}, got {family!r}")
    return pd.DataFrame(rows).set_index("name")
