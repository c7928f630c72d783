"""The index records: what the registry knows about one index (``Index``, the fields every
index has) and the record of an index of object pairs (``PairIndex``).

A record says what the index is (family, similarity or distance, range, optimum, symmetry,
reference), which inputs it takes, which keyword options it has, and what it does on degenerate
tables. It is of one of two kinds, with a common base ``Index``: a ``TableIndex``
(``clusteragree.indices._table_index``) is a function of the contingency table of two
partitions (and, for most, of an additive statistic of it); a ``PairIndex`` compares what two
clusterings (memberships, covers, similarity matrices) say about each pair of objects, and
declares the kinds of clustering it is defined for; it lives beside the base, which asks
whether a record is one (``on_pairs``). ``clusteragree.indices._registry`` builds the records
(``@register(...)``, next to each formula) and looks them up; ``clusteragree.indices._evaluate``
evaluates them (``evaluate``, the single entry point that validates a table or a batch of
tables, shape ``(..., K, Q)``, fills in options and calls the vectorised function of a table
index).

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
* A result is never nan: a nan left over would be a bug, and the evaluation raises on it.

Real-valued counts. A table of sums of non-integer weights (``sample_weight``) is evaluated by
``evaluate_weighted`` for the indices declared ``real_counts=True`` (formulas of the cells
and margins: pair counts C(m, 2) = m (m - 1) / 2 of real m, entropies, matchings); an index
whose definition needs whole counts (a null law of integer tables, a count of objects) says
why in ``whole_counts_reason`` and is refused. The rules above hold there too, n being the
total weight; a value that is nan, or for an index of the pair counts outside its range (pair
counts of cells or margins lighter than 1 are negative), is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .._docs import PARAMETERS, fill
from ..inputs import KINDS, MATRIX_KIND
from ..inputs.memberships import describe_kind, kind_phrase, or_list
from .. import _memory

__all__ = ["Index", "PairIndex", "fill_fields", "REGISTRY"]

#: Every index record by its name: filled by ``_registry.register`` as the families are
#: imported, kept here beside the records so that a record names the others (the indices to
#: use instead, in its refusals) without importing the registry that imports it.
REGISTRY: dict[str, "Index"] = {}

#: The fields every index record has (``Index``), written once for the three record classes.
_FIELDS = {"name, ..., describe": """\
name : str
    The index's name in the registry (e.g. "adjusted_rand").
func : callable
    The function that computes the index (what it takes depends on the kind of record: see
    the class description).
family : str
    Its family ("pair counting", "information", "set matching", "fuzzy", ...).
kind : {"similarity", "distance", "statistic"}
    A similarity (larger is closer), a distance (smaller is closer) or a test statistic.
range : tuple of float
    The smallest and largest values the index can take (``-inf`` / ``inf`` when unbounded).
optimum : float
    Its best value: the maximum of a similarity, the minimum of a distance.
symmetric : bool
    Whether swapping the two clusterings leaves the index unchanged.
reference : str
    Where the index is defined (authors and year), as ``ca.list_indices()`` prints it.
title : str
    Its name in words (e.g. "Adjusted Rand index (Hubert & Arabie)").
inputs : tuple of str
    What it reads: ``("table",)``, or the formats of the clusterings ("membership",
    "matrix", "cover").
aliases : tuple of str, default ()
    Other names ``get_index`` accepts (e.g. "ari").
options : dict, optional
    The index's keyword options with their defaults (default: none).
min_n : int, default 1
    The fewest objects the index is defined for; ``evaluate`` refuses smaller tables.
min_n_reason : str, default "a pair to count"
    Why ``min_n`` objects are needed, for that error message.
vectorised : bool, default True
    Whether ``func`` works on a batch of tables (or of pair vectors) at once.
reflexive : bool, default True
    Whether the index takes its optimum whenever a clustering is compared with itself (for
    every clustering of the kinds it takes); see the module docstring.
describe : callable, optional
    ``describe(counts, **options)``: a line saying how the index is computed on this table
    when that depends on the table (an exact or an approximate part), or None; printed by
    ``agreement_test``.
on_sparse : callable, optional
    ``on_sparse(cells, rows, cols, **options)``: the index of two partitions from the
    non-zero cells of their table (a ``scipy.sparse.csr_array``, no empty row or column) and
    its margins, for a sparse table (``clusteragree.sparse_tables``), when it is not a function
    of s or t (those are computed from the cells by ``of_statistic``); None: the index
    needs the dense table.
real_counts : bool, default False
    Whether the index's definition holds for real-valued counts: a table of sums of
    non-integer weights (``sample_weight``), on which ``evaluate_weighted`` computes it (pair
    counts C(m, 2) = m (m - 1) / 2, entropies and matchings of real m). False, the default,
    until the index is declared for them: it is then refused on such a table.
whole_counts_reason : str, default ""
    Why an index with ``real_counts=False`` needs whole counts (e.g. "its expected mutual
    information is a law of integer tables"), for that refusal; empty for an index that was
    not checked."""}


def fill_fields(cls):
    """Put the shared field text (``_FIELDS``) and ``_docs.PARAMETERS`` into a docstring."""
    cls.__doc__ = fill(cls.__doc__, {**PARAMETERS, **_FIELDS})
    return cls


@fill_fields
@dataclass(frozen=True, kw_only=True)
class Index:
    """What the registry knows about one index, whatever it compares.

    The fields both kinds of index have. Every index is a ``TableIndex`` (a function of the
    contingency table of two partitions) or a ``PairIndex`` (a function of what two
    clusterings say about each pair of objects: memberships, covers, similarity matrices);
    ``register`` builds the right one, and a bare ``Index`` is refused. A record describes
    its index; ``clusteragree.indices.evaluate(rec, table)`` evaluates it.

    Parameters
    ----------
    %(name, ..., describe)s

    Raises
    ------
    TypeError
        A bare ``Index`` (neither a ``TableIndex`` nor a ``PairIndex``).
    ValueError
        A ``kind`` other than "similarity", "distance" or "statistic".

    See Also
    --------
    get_index : The record of an index name or alias.
    clusteragree.indices.evaluate : An index on a table or a batch of tables.
    clusteragree.list_indices : The catalogue of the registered indices.

    Examples
    --------
    >>> rec = ca.get_index("ari")
    >>> isinstance(rec, Index), type(rec).__name__, rec.name, rec.kind, rec.range
    (True, 'TableIndex', 'adjusted_rand', 'similarity', (-1.0, 1.0))
    >>> round(float(rec.on_counts(np.array([[30, 20], [10, 20]]))), 5)   # Amorim (2015), Table 8
    0.05124
    """

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
    # (cells, rows, cols, **options) -> the index from a sparse table's non-zero cells (CSR)
    on_sparse: Callable | None = None
    # Is the definition one of real-valued counts (sums of non-integer sample weights)? Off
    # unless declared, so that an index nobody checked is refused on weighted tables.
    real_counts: bool = False
    whole_counts_reason: str = ""  # why not, for that refusal

    def __post_init__(self):
        if type(self) is Index:
            raise TypeError("an index is a TableIndex or a PairIndex, not a bare Index")
        if self.kind not in ("similarity", "distance", "statistic"):
            raise ValueError(f"bad kind {self.kind!r} for {self.name}")
        if self.real_counts and self.whole_counts_reason:
            raise ValueError(f"index {self.name!r}: real_counts=True takes no "
                             "whole_counts_reason")

    @property
    def higher_is_better(self) -> bool:
        """Whether a larger value means closer clusterings (False for a distance)."""
        return self.kind != "distance"

    @property
    def on_pairs(self) -> bool:
        """Whether the index compares two clusterings object pair by object pair (a
        ``PairIndex``: memberships, covers, similarity matrices) rather than by their
        contingency table (a ``TableIndex``). The one question callers ask of an index's kind:
        the record answers it, so no module outside ``indices/`` tests a record's type."""
        return isinstance(self, PairIndex)

    @property
    def of_hard_tables(self) -> Callable | None:
        """The index of two hard partitions as a function of a batch of their contingency
        tables, ``f(counts, **options)``, or None (an index of memberships or matrices only):
        a table index's registry function, a pair index's ``on_table`` form."""
        return getattr(self, "on_table", None) if self.on_pairs else self.func

    @property
    def sparse_cells(self) -> bool:
        """Whether the index is evaluated from a sparse table's non-zero cells and margins
        (``on_sparse``, or for a table index its additive ``statistic``), without the dense
        table."""
        return self.on_sparse is not None

    @property
    def monotone_in(self) -> str | None:
        """The additive statistic of the table ("s" = sum n_ij^2, "t" = sum n_ij log n_ij) of
        which the index is a monotone function given both margins (increasing for a
        similarity, decreasing for a distance), so that under fixed margins its test is the
        test of that statistic; None when there is none."""
        return None


@fill_fields
@dataclass(frozen=True, kw_only=True)
class PairIndex(Index):
    """An index of object pairs.

    It compares two clusterings (memberships, covers, similarity matrices) by what they say
    about each pair of objects (``clusteragree.indices._pairwise``); its nulls permute y's
    objects or its pair values. It declares the kinds of clustering its definition covers,
    and a clustering of another kind is refused by name (``check_kind``).
    ``func(xs, ys, **constants, **options)`` takes the pair vectors of x's and y's
    representations (y's with a leading batch axis of permutations) or, for an index with no
    ``representation``, ``func(X, Y, **options)`` the two clusterings.

    Parameters
    ----------
    %(name, ..., describe)s
    representation : callable, optional
        ``representation(X, format)``: the tuple of n x n matrices a clustering is compared
        by (e.g. J = U U^T); it may offer ``.rows`` to build them by blocks of rows. None: the
        index reads the clusterings themselves.
    prepare : callable, optional
        ``prepare(xs, ys, **options)``: a dict of constants that permutations of y keep (e.g.
        an expected value), passed to ``func``.
    inputs_y : tuple of str, optional
        y's input formats when they differ from x's (``inputs``).
    pair_mean : callable, optional
        ``pair_mean(xs, ys, **constants, **options)``: the exact mean under the permutation
        nulls (both have the same mean), or None.
    value : callable, optional
        ``value(X, format_x, Y, format_y, **options)``: the same value without the pair
        vectors (a memory-lean direct form), or None.
    on_table : callable, optional
        ``on_table(counts, **options)``: the index of two hard partitions from their
        contingency table, vectorised over a batch ``(..., K, Q)`` (a closed form, e.g.
        element-centric similarity's), so that ``evaluate`` takes tables; None: none.
    kinds : tuple of str
        The kinds of clustering the index's definition covers (``_validate.KINDS``:
        "exclusive hard", "fuzzy", "non-exclusive hard", "possibilistic", "non-exhaustive
        hard", "similarity matrix"), for x and, unless ``kinds_y`` is given, for y.
    kinds_y : tuple of str, optional
        The kinds y may be, when they differ from x's.
    kinds_note : str, default ""
        Why the definition leaves the other kinds out (for the error message).
    pair_bytes : float, optional
        The memory the index's computation holds, in bytes per pair of objects (n^2 pairs),
        for an index that builds n x n matrices or pair vectors at once (measured, and held by
        a test); a larger n than the available memory allows is refused before any work
        (``check_memory``). None: the index is computed by blocks of rows or from the
        clusterings' small summaries.
    objects_only : bool, default False
        The index is a function of sums over the objects alone (e.g. of U^T V), never over
        pairs of objects: a bootstrap resample of the objects is its rows repeated, an object
        drawn twice counting twice (``evaluate_resample``).
    weighted : callable, optional
        ``weighted(X, format_x, Y, format_y, counts, **options)``: the index on a bootstrap
        resample of the objects, given as the distinct drawn objects and their
        multiplicities w (``counts``), its pairs the pairs of distinct objects i < k, each
        counted w_i w_k times (the copies of one object form no pair; ``evaluate_resample``).
        An index with a ``representation`` needs none (its pair vectors are weighted), nor
        an ``objects_only`` one; any other index without it gets no bootstrap interval.

    Raises
    ------
    ValueError
        ``inputs`` that name a table, ``kinds`` missing or unknown, or "matrix" inputs
        without the kind "similarity matrix" (or the reverse).

    See Also
    --------
    TableIndex : An index of the contingency table.
    evaluate_pairwise : A pair index on two validated clusterings.
    clusteragree.agreement : Any index on two clusterings.

    Examples
    --------
    >>> rec = ca.get_index("ndc")
    >>> type(rec).__name__, rec.inputs, rec.kinds
    ('PairIndex', ('membership', 'matrix'), ('exclusive hard', 'fuzzy', 'similarity matrix'))
    >>> U = [[1.0, 0.0], [0.8, 0.2], [0.1, 0.9], [0.0, 1.0]]
    >>> ca.agreement(U, [0, 0, 1, 1], index=rec)
    0.85
    """

    representation: Callable | None = None  # (x validated, kind) -> tuple of n x n matrices
    prepare: Callable | None = None  # (xs, ys, **options) -> constants that permutations keep
    inputs_y: tuple[str, ...] | None = None  # y's input formats when they differ from x's
    pair_mean: Callable | None = None  # (xs, ys, **constants, **options) -> exact null mean
    value: Callable | None = None  # (X, Y, **options) -> the index without pair vectors
    on_table: Callable | None = None  # (counts, **options) -> the index of two partitions
    # The kinds of clustering the index's definition covers (``inputs.KINDS``: exclusive
    # hard, fuzzy, non-exclusive hard, possibilistic, non-exhaustive hard, similarity matrix),
    # for x and, when they differ, for y; checked once, at the entry
    # (``inputs.Clusterings.pair``), so an index never sees a kind it is not defined for.
    # ``kinds_note`` says why the definition leaves the other kinds out.
    kinds: tuple[str, ...]
    kinds_y: tuple[str, ...] | None = None
    kinds_note: str = ""
    pair_bytes: float | None = None  # bytes held per pair of objects, when n x n at once
    # How a bootstrap resample of the objects is evaluated (``_pairwise.evaluate_resample``):
    # rows repeated (an index of per-object sums), or by ``weighted`` on the distinct objects
    # and their multiplicities (the copies of one object form no pair).
    objects_only: bool = False
    weighted: Callable | None = None  # (X, kx, Y, ky, counts, **options) -> the index

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
        if self.on_table is not None and not ("exclusive hard" in self.kinds
                                              and "exclusive hard" in self.accepted_kinds(True)):
            raise ValueError(f"index {self.name!r}: on_table= is for an index defined on "
                             "hard partitions (the kind 'exclusive hard')")

    def check_memory(self, n: int) -> None:
        """Refuse, before any work, n objects whose n x n matrices cannot fit in memory.

        Parameters
        ----------
        n : int
            The number of objects.

        Raises
        ------
        MemoryError
            ``pair_bytes * n**2`` is more than the share of the available memory a
            computation may take (``_memory.USABLE_SHARE``); the message names the index, n,
            the memory needed and available, and indices of the same kinds of clustering that
            need no n x n matrix.

        Examples
        --------
        >>> ca.get_index("bri08p").check_memory(100)  # 100 x 100 matrices: nothing to refuse
        """
        avail = _memory.available_memory()
        if self.pair_bytes is None or avail is None:
            return
        need = self.pair_bytes * float(n) ** 2
        if need <= _memory.USABLE_SHARE * avail:
            return
        lean = [r.name for r in REGISTRY.values() if isinstance(r, PairIndex)
                and r.pair_bytes is None and r.on_table is None and r.name != self.name
                and set(r.inputs) & set(self.inputs) and set(self.kinds) <= set(r.kinds)]
        raise MemoryError(
            f"index {self.name!r} ({self.title}) holds n x n matrices of the objects' pairs: "
            f"n = {n:,} objects need about {need / 2**30:.1f} GiB, and "
            f"{avail / 2**30:.1f} GiB are available. Compare a random sample of the objects, "
            "or use an index that needs no n x n matrix"
            + (f" ({', '.join(lean[:6])})" if lean else ""))

    def accepted_kinds(self, y: bool = False) -> tuple[str, ...]:
        """The kinds of clustering x (or y) may be for this index of two clusterings.

        Parameters
        ----------
        y : bool, default False
            The kinds of y (``kinds_y`` when the index declares it) rather than of x.

        Returns
        -------
        tuple of str
            The kinds (``_validate.KINDS``).

        Examples
        --------
        >>> rec = ca.get_index("ari_mp")
        >>> rec.accepted_kinds(), rec.accepted_kinds(y=True)
        (('similarity matrix',), ('exclusive hard',))
        """
        return (self.kinds_y or self.kinds) if y else self.kinds

    def check_kind(self, kind: str, U: np.ndarray, name: str, y: bool = False) -> None:
        """Refuse a clustering of a kind the index is not defined for.

        The error names the argument, its kind (and the row that makes it so), the index, the
        kinds it takes and why, and indices that do take this kind.

        Parameters
        ----------
        kind : str
            The clustering's kind (``_validate.KINDS``).
        U : ndarray
            The clustering (memberships or a similarity matrix), for the error message.
        name : str
            The argument's name ("x" or "y"), for the error message.
        y : bool, default False
            Check against the kinds y may be (``accepted_kinds(y=True)``).

        Raises
        ------
        ValueError
            The index is not defined for this kind of clustering.

        Examples
        --------
        >>> rec = ca.get_index("bc")
        >>> rec.check_kind("exclusive hard", np.eye(2), "x")           # accepted: None
        >>> U = np.array([[0.5, 0.5], [0.0, 1.0]])
        >>> rec.check_kind("fuzzy", U, "x")                  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        ValueError: x is ... which index 'bc' (...) is not defined for: ...
        """
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
