"""The one registry of agreement indices.

Each index is declared once, next to its formula, with ``@register(...)``. The record says what
the index is (family, similarity or distance, range, optimum, symmetry, reference), which inputs
it takes, which keyword options it has, and what it does on degenerate tables. It is of one of
two kinds, with a common base ``Index``: a ``TableIndex`` is a function of the contingency
table of two partitions (and, for most, of an additive statistic of it); a ``PairIndex``
compares what two clusterings (memberships, covers, similarity matrices) say about each pair
of objects, and declares the kinds of clustering it is defined for. ``evaluate`` is the single
entry point that validates a table (or a batch of tables, shape ``(..., K, Q)``), fills in
options and calls the vectorised function of a table index.

Degenerate tables are decided here, once, for every index:

* n < 2: pair-counting indices need at least one pair of objects and raise ``ValueError``.
* A ratio whose denominator vanishes (one clustering is a single cluster, or all singletons)
  takes the index's optimum when the two clusterings are identical (the table has one non-zero
  cell in every non-empty row and column), and otherwise 0 (no agreement can be shown; e.g. NMI
  when one clustering has a single cluster, as in scikit-learn), except homogeneity and
  completeness, which are 1 as their definitions say. The tests check it on such tables.
* ``reflexive=True`` (the default) declares that the index takes its optimum whenever a
  clustering is compared with itself. For a reflexive index evaluated table by table (no
  additive ``statistic``), ``TableIndex.on_counts`` gives identical partitions the optimum itself,
  so its function only needs a fallback for a vanishing denominator
  (``_common.ratio(num, den, False, optimum, fallback)``). Indices computed from an additive
  statistic (the pair-counting and information families, whose exact laws never see a table)
  carry the identity in their state (``same``) and apply the rule through
  ``_common.ratio(num, den, same, optimum, fallback)``. ``reflexive=False``: indices with no
  fixed optimum (mutual information, Russel-Rao, the statistics) and fuzzy measures that equal
  fuzzy clusterings need not bring to their optimum; the tests check every flag on (x, x).
* A result is never nan: a nan left over would be a bug, and ``evaluate`` raises on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from ..inputs import KINDS, MATRIX_KIND
from ..tables import check_counts
from .._validate import check_options, suggest
from ..inputs.memberships import describe_kind, kind_phrase, or_list
from ._common import STATISTICS, identical

__all__ = ["Index", "TableIndex", "PairIndex", "register", "get_index", "evaluate",
           "evaluate_checked", "REGISTRY",
           "all_names"]


@dataclass(frozen=True, kw_only=True)
class Index:
    """What the registry knows about one index, whatever it compares: the fields both kinds
    of index have. Every index is a ``TableIndex`` (a function of the contingency table of two
    partitions) or a ``PairIndex`` (a function of what two clusterings say about each pair of
    objects: memberships, covers, similarity matrices); ``register`` builds the right one."""

    name: str
    func: Callable[..., np.ndarray]
    family: str
    kind: str  # "similarity", "distance" or "statistic"
    range: tuple[float, float]
    optimum: float  # the best value: the maximum of a similarity, the minimum of a distance
    symmetric: bool
    reference: str
    title: str
    inputs: tuple[str, ...]  # ("table",), or the formats of the clusterings a PairIndex reads
    aliases: tuple[str, ...] = ()
    options: dict = field(default_factory=dict)
    min_n: int = 1
    min_n_reason: str = "a pair to count"  # why min_n objects, for the error below it
    vectorised: bool = True
    # Does the index take its optimum when a clustering is compared with itself (for every
    # clustering of the kinds it accepts)? See the module docstring.
    reflexive: bool = True
    # (counts, **options) -> a line saying how the index is computed on this table when that
    # depends on the table (an exact or approximate part), or None; ``agreement_test`` prints it
    describe: Callable | None = None

    def __post_init__(self):
        if type(self) is Index:
            raise TypeError("an index is a TableIndex or a PairIndex, not a bare Index")
        if self.kind not in ("similarity", "distance", "statistic"):
            raise ValueError(f"bad kind {self.kind!r} for {self.name}")

    @property
    def higher_is_better(self) -> bool:
        return self.kind != "distance"

    def __call__(self, counts, **options) -> np.ndarray:
        return evaluate(self, counts, **options)


@dataclass(frozen=True, kw_only=True)
class TableIndex(Index):
    """An index of the contingency table of two partitions, vectorised over a batch of tables
    ``(..., K, Q)``; its null laws are laws of random tables (``clusteragree.nulls``)."""

    inputs: tuple[str, ...] = ("table",)
    statistic: str | None = None  # "s": function of sum n_ij^2 given the margins; "t": of sum n log n
    state: Callable | None = None  # (statistic, rows, cols) -> the family's state for ``func``
    linear: bool = False  # affine in its statistic given the margins: closed-form null moments
    # Affine in the family's sums (a11, p, q; or H(x), H(y), MI) with coefficients that depend
    # on n only: its mean under any random model is its value at the mean state.
    affine_state: bool = False
    mean_state: Callable | None = None  # (dict of expected sums) -> the family's state

    def __post_init__(self):
        super().__post_init__()
        if self.inputs != ("table",):
            raise ValueError(f"table index {self.name!r} takes inputs ('table',), "
                             f"got {self.inputs}")
        if self.statistic is not None and self.statistic not in STATISTICS:
            raise ValueError(f"index {self.name!r}: statistic must be one of "
                             f"{sorted(STATISTICS)}, got {self.statistic!r}")
        if (self.statistic is None) != (self.state is None):
            raise ValueError(f"index {self.name!r}: statistic= and state= go together")

    def of_statistic(self, stat, rows, cols, **options) -> np.ndarray:
        """The index from its additive statistic and the margins (rows (..., K), cols (..., Q)),
        without the tables: how exact laws of ``s`` or ``t`` become laws of the index.
        Options are used as given (``evaluate`` checks them)."""
        if self.state is None:
            raise ValueError(f"index {self.name!r} is not a function of an additive statistic")
        return self.func(self.state(stat, rows, cols), **options)

    def on_counts(self, counts: np.ndarray, **options) -> np.ndarray:
        """The index on a validated int64 batch of tables (no checks)."""
        if self.state is None:
            values = self.func(counts, **options)
            if self.reflexive and self._default_options(options):
                # identical partitions take the optimum (the registry's rule); an option that
                # changes what "identical" means (kappa's matching=) leaves it to the index
                values = np.where(identical(counts), self.optimum, values)
            return values
        stat = STATISTICS[self.statistic](counts)
        return self.of_statistic(stat, counts.sum(axis=-1), counts.sum(axis=-2), **options)

    def _default_options(self, options) -> bool:
        for key, value in options.items():
            default = self.options.get(key)
            if value is default:
                continue
            if not isinstance(value, (str, bool, int, float)) or value != default:
                return False
        return True


@dataclass(frozen=True, kw_only=True)
class PairIndex(Index):
    """An index of object pairs: it compares two clusterings (memberships, covers, similarity
    matrices) pair by pair (see ``indices/_pairwise.py``); its nulls permute y's objects or
    its pair values."""

    representation: Callable | None = None  # (x validated, kind) -> tuple of n x n matrices
    prepare: Callable | None = None  # (xs, ys, **options) -> constants that permutations keep
    inputs_y: tuple[str, ...] | None = None  # y's input formats when they differ from x's
    pair_mean: Callable | None = None  # (xs, ys, **constants, **options) -> exact null mean
    value: Callable | None = None  # (X, Y, **options) -> the index without pair vectors
    # The kinds of clustering the index's definition covers (``inputs.KINDS``: exclusive
    # hard, fuzzy, non-exclusive hard, possibilistic, non-exhaustive hard, similarity matrix),
    # for x and, when they differ, for y; checked once, at the entry
    # (``inputs.Clusterings.pair``), so an index never sees a kind it is not defined for.
    # ``kinds_note`` says why the definition leaves the other kinds out.
    kinds: tuple[str, ...]
    kinds_y: tuple[str, ...] | None = None
    kinds_note: str = ""

    def __post_init__(self):
        super().__post_init__()
        if not self.inputs or "table" in self.inputs:
            raise ValueError(f"index {self.name!r} of object pairs reads the clusterings "
                             f"themselves, not a table; got inputs {self.inputs}")
        for kinds in (self.kinds, self.kinds_y or self.kinds):
            if not kinds or not set(kinds) <= set(KINDS):
                raise ValueError(f"index {self.name!r} must declare the kinds of clustering "
                                 f"it takes, among {KINDS}; got {kinds}")
        if ("matrix" in self.inputs) != (MATRIX_KIND in self.kinds):
            raise ValueError(f"index {self.name!r}: 'matrix' inputs and the kind "
                             f"{MATRIX_KIND!r} go together")

    def accepted_kinds(self, y: bool = False) -> tuple[str, ...]:
        """The kinds of clustering x (or y) may be for this index of two clusterings."""
        return (self.kinds_y or self.kinds) if y else self.kinds

    def check_kind(self, kind: str, U: np.ndarray, name: str, y: bool = False) -> None:
        """Refuse a clustering of a kind the index is not defined for: the error names the
        argument, its kind (and the row that makes it so), the index, the kinds it takes and
        why, and indices that do take this kind."""
        accepted = self.accepted_kinds(y)
        if kind in accepted:
            return
        takers = [r.name for r in sorted(REGISTRY.values(), key=lambda r: r.family != self.family)
                  if isinstance(r, PairIndex) and kind in r.accepted_kinds(y)
                  and r.name != self.name]
        listed = ", ".join(takers[:5]) + (", ..." if len(takers) > 5 else "")
        if accepted == (MATRIX_KIND,):
            raise ValueError(
                f"{name} must be a square (n x n) similarity matrix for index {self.name!r} "
                f"({self.title}), got memberships of shape {U.shape}: {kind_phrase(kind)} "
                f"({describe_kind(U, kind)}); ca.coassociation({name}) gives the "
                "co-association matrix of a clustering")
        raise ValueError(
            f"{name} is {kind_phrase(kind)} ({describe_kind(U, kind)}), which index "
            f"{self.name!r} ({self.title}) is not defined for: it takes "
            f"{or_list(accepted)} {'inputs' if MATRIX_KIND in accepted else 'clusterings'}"
            + (f" for {name}" if self.kinds_y else "")
            + (f" ({self.kinds_note})" if self.kinds_note else "")
            + (f". Indices that take {kind} inputs: {listed}" if takers else ""))


REGISTRY: dict[str, Index] = {}
_ALIASES: dict[str, str] = {}
#: Named groups of indices ("paired", "all", ...; filled by ``clusteragree.indices``), so that a
#: group given where one index is needed is told so rather than matched to a similar name.
_GROUPS: dict[str, tuple[str, tuple[str, ...]]] = {}


def _normal(name: str) -> str:
    return name.strip().lower().replace("-", "_").replace(" ", "_")


def register_groups(groups) -> None:
    """Make the group names known to ``get_index`` (for its error message)."""
    for name, members in groups.items():
        _GROUPS[_normal(name)] = (name, tuple(members))


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
        REGISTRY[rec.name] = rec
        for alias in rec.aliases:
            _ALIASES[alias] = rec.name
        func.index = rec
        return func

    return wrap


def all_names() -> list[str]:
    return list(REGISTRY) + list(_ALIASES)


def get_index(index) -> Index:
    """The registry record of ``index`` (a name, an alias or a record)."""
    if isinstance(index, Index):
        return index
    if not isinstance(index, str):
        raise TypeError(f"index must be an index name (str), got {type(index).__name__}")
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
    if key not in REGISTRY:
        raise ValueError(
            f"unknown index {index!r}." + suggest(key, all_names())
            + " ca.list_indices() lists them all."
        )
    return REGISTRY[key]


def evaluate(index, counts, **options) -> np.ndarray:
    """Evaluate an index on a table or a batch of tables ``(..., K, Q)``.

    Returns a float array of shape ``counts.shape[:-2]`` (a 0-d array for one table).
    """
    rec = get_index(index)
    opts = check_options(options, rec.options, f"index {rec.name!r}")
    if not isinstance(rec, TableIndex):
        raise ValueError(
            f"index {rec.name!r} compares {' or '.join(rec.inputs)} inputs, not a contingency "
            f"table: call ca.agreement(x, y, index={rec.name!r}) with the two clusterings"
        )
    return evaluate_checked(rec, check_counts(counts), opts)


def evaluate_checked(rec: TableIndex, arr: np.ndarray, opts: dict) -> np.ndarray:
    """``evaluate`` on counts and options already checked at the entry of a public function.

    Parameters
    ----------
    rec : TableIndex
        The index's record.
    arr : numpy.ndarray
        A checked int64 table or batch of tables, shape ``(..., K, Q)``.
    opts : dict
        The index's checked options, defaults filled in.

    Returns
    -------
    numpy.ndarray
        The index on each table, shape ``arr.shape[:-2]``.

    Raises
    ------
    ValueError
        A table with fewer objects than the index needs.

    See Also
    --------
    evaluate : The same, checking the counts and options first.

    Examples
    --------
    >>> rec = get_index("rand")
    >>> float(evaluate_checked(rec, np.array([[30, 20], [10, 20]]), {}))
    0.5253164556962026
    """
    if rec.min_n > 1:
        n_min = int(arr.sum(axis=(-2, -1)).min())
        if n_min < rec.min_n:
            raise ValueError(
                f"index {rec.name!r} needs at least {rec.min_n} objects ({rec.min_n_reason}), "
                f"got a table with n = {n_min}"
            )
    values = np.asarray(rec.on_counts(arr, **opts), dtype=float)
    if np.isnan(values).any():  # pragma: no cover - a degenerate case the registry missed
        raise RuntimeError(f"index {rec.name!r} gave nan; please report this table")
    return values
