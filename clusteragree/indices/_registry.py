"""The one registry of agreement indices: every index declared once (``register``), and looked
up by name (``get_index``, ``one_index``).

Each index is declared once, next to its formula, with ``@register(...)``, which builds its
record (``clusteragree.indices._records``: ``Index``, ``PairIndex``;
``clusteragree.indices._table_index``: ``TableIndex``) and files it under its name and aliases
in ``REGISTRY``. The lookups match a name without regard to case, spaces or hyphens, and refuse
a group name (``register_groups``), an index of the literature that is not implemented
(``declare_unavailable``) or an unknown name, each with its own message.
"""

from __future__ import annotations

from .._validate import suggest
from ._records import REGISTRY, Index, PairIndex
from ._table_index import TableIndex

__all__ = ["register", "get_index", "REGISTRY", "all_names"]


_ALIASES: dict[str, str] = {}
#: Named groups of indices ("paired", "all", ...; filled by ``clusteragree.indices``), so that a
#: group given where one index is needed is told so rather than matched to a similar name.
_GROUPS: dict[str, tuple[str, tuple[str, ...]]] = {}
#: Indices of the literature that have a name here but no implementation, with the reason
#: (filled by the family modules with ``declare_unavailable``), so that asking for one is
#: refused with the reason rather than as an unknown name.
_UNAVAILABLE: dict[str, str] = {}


def _normal(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def register_groups(groups) -> None:
    """Make the group names known to ``get_index`` (for its error message)."""
    for name, members in groups.items():
        _GROUPS[_normal(name)] = (name, tuple(members))


def declare_unavailable(names, reason: str) -> None:
    """Name indices of the literature that are not implemented, and say why.

    ``get_index`` then refuses each name with ``reason`` instead of as an unknown name.
    """
    for name in names:
        key = _normal(name)
        if key in REGISTRY or key in _ALIASES:
            raise ValueError(f"index {name!r} is implemented; it cannot be declared unavailable")
        _UNAVAILABLE[key] = reason


def register(**meta):
    """Decorator: declare an index ``meta['name']``.

    An index of a contingency table (no ``inputs=``, or ``inputs=("table",)``) becomes a
    ``TableIndex``: the decorated function takes a batch of tables, ``func(counts, **options)``;
    or, for an index that is a function of an additive statistic (``statistic=`` and
    ``state=`` given), the family's state built by ``state(stat, rows, cols)``. An index that
    reads the clusterings themselves (``inputs=`` memberships, covers or matrices) becomes a
    ``PairIndex`` and must declare the ``kinds`` of clustering it takes.
    """
    record = TableIndex if tuple(meta.get("inputs", ("table",))) == ("table",) else PairIndex

    def wrap(func):
        rec = record(func=func, **meta)
        for key in (rec.name, *rec.aliases):
            if key in REGISTRY or key in _ALIASES:
                raise ValueError(f"index name {key!r} declared twice")
            if key in _UNAVAILABLE:
                raise ValueError(f"index name {key!r} is declared unavailable; remove that "
                                 "declaration when implementing it")
        REGISTRY[rec.name] = rec
        for alias in rec.aliases:
            _ALIASES[alias] = rec.name
        func.index = rec
        return func

    return wrap


def all_names() -> list[str]:
    return list(REGISTRY) + list(_ALIASES)


def is_record(obj) -> bool:
    """Whether ``obj`` is an index record already (a ``TableIndex`` or ``PairIndex``), so that
    a caller given a name or a record looks the name up and passes the record on, without
    asking the registry again.

    Parameters
    ----------
    obj : object
        A name, a record, or anything else.

    Returns
    -------
    bool
        True for a ``TableIndex`` or a ``PairIndex``.

    See Also
    --------
    get_index : The record of a name.

    Examples
    --------
    >>> is_record("ari"), is_record(get_index("ari"))
    (False, True)
    """
    return isinstance(obj, Index)


def one_index(index, hint: str = "") -> Index:
    """The record of one index, given as a name or a record; anything else (a list of names,
    a number) is refused with a ``TypeError`` that names the argument and, in ``hint``, what
    to call for several.

    Parameters
    ----------
    index : str or Index
        A name or alias of ``ca.list_indices()``, or a record.
    hint : str, optional
        A sentence appended to the error (e.g. "for several use compare()").

    Returns
    -------
    Index
        The record (``get_index``).

    See Also
    --------
    get_index : The lookup itself.

    Examples
    --------
    >>> one_index("ari").name
    'adjusted_rand'
    """
    if not isinstance(index, (str, Index)):
        raise TypeError(f"index must be one index name (a str or an Index record), got "
                        f"{index!r}" + (f"; {hint}" if hint else ""))
    return get_index(index)


def get_index(index) -> Index:
    """The registry record of an index.

    Names are matched without regard to case, spaces or hyphens; a group name ("paired",
    "all", ...) or an unknown name is refused with a suggestion.

    Parameters
    ----------
    index : str or Index
        A name or an alias of ``ca.list_indices()`` (e.g. "adjusted_rand" or "ari"), or a
        record (returned as it is).

    Returns
    -------
    Index
        The index's record: a ``TableIndex`` or a ``PairIndex``.

    Raises
    ------
    TypeError
        ``index`` is neither a string nor a record.
    ValueError
        An unknown name, the name of a group of indices, or the name of an index of the
        literature that is not implemented (the message says why).

    See Also
    --------
    clusteragree.indices.evaluate : An index on a table or a batch of tables.
    clusteragree.list_indices : The catalogue of the indices.

    Examples
    --------
    >>> rec = get_index("ARI")
    >>> rec.name, rec.title
    ('adjusted_rand', 'Adjusted Rand index (Hubert & Arabie)')
    >>> get_index(rec) is rec
    True
    """
    if isinstance(index, Index):
        return index
    if not isinstance(index, str):
        raise TypeError(f"index must be an index name (str), got {type(index).__name__}")
    if index in REGISTRY:  # a registry name as it is (they are normal already)
        return REGISTRY[index]
    key = _normal(index)
    key = _ALIASES.get(key, key)
    if key not in REGISTRY and key in _GROUPS:
        name, members = _GROUPS[key]
        shown = ", ".join(members[:8]) + (f", ... ({len(members)} in all)"
                                          if len(members) > 8 else "")
        raise ValueError(
            f"{name!r} is a group of indices ({shown}), and one index is needed here; pass one "
            f"of them, or use compare(indices={name!r}) for the whole group"
        )
    if key not in REGISTRY and key in _UNAVAILABLE:
        raise ValueError(f"index {index!r} is not available in clusteragree: {_UNAVAILABLE[key]}")
    if key not in REGISTRY:
        raise ValueError(
            f"unknown index {index!r}." + suggest(key, all_names())
            + " ca.list_indices() lists them all."
        )
    return REGISTRY[key]
