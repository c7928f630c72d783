"""The record of an index of the contingency table of two partitions (``TableIndex``).

A ``TableIndex`` is an ``Index`` (``clusteragree.indices._records``: the fields every index has,
and the rules for degenerate tables, which ``TableIndex.on_counts`` applies) whose function is
vectorised over a batch of tables; most are functions of an additive statistic of the table
given its margins (``STATISTICS``). ``register`` (``clusteragree.indices._registry``) builds one
for every index declared without ``inputs=``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ._common import STATISTICS, identical
from ._records import Index, fill_fields

__all__ = ["TableIndex"]


@fill_fields
@dataclass(frozen=True, kw_only=True)
class TableIndex(Index):
    """An index of the contingency table of two partitions.

    Its function is vectorised over a batch of tables ``(..., K, Q)``; its null laws are laws
    of random tables (``clusteragree.nulls``). Most pair-counting and information indices are
    functions of an additive statistic of the table given its margins (``statistic``), which
    is how the exact laws of ``s`` or ``t`` become laws of the index (``of_statistic``).
    ``func(counts, **options)`` takes a batch of tables or, for an index with a
    ``statistic``, ``func(state, **options)`` the family's state built by ``state``.

    Parameters
    ----------
    %(name, ..., describe)s
    statistic : {"s", "t"}, optional
        The additive statistic the index is a function of, given the margins: "s" = sum
        n_ij^2 (pair counting), "t" = sum n_ij log n_ij (information); None: none.
    state : callable, optional
        ``state(stat, rows, cols)``: the family's state that ``func`` reads (given with
        ``statistic``, and only with it).
    linear : bool, default False
        Affine in its statistic given the margins, so its null moments have a closed form.
    affine_state : bool, default False
        Affine in the family's sums (a11, p, q; or H(x), H(y), MI) with coefficients that
        depend on n only: its mean under any random model is its value at the mean state.
    mean_state : callable, optional
        ``mean_state(sums)``: the family's state from a dict of expected sums (for
        ``affine_state`` indices).

    Raises
    ------
    ValueError
        ``inputs`` other than ``("table",)``, an unknown ``statistic``, or a ``statistic``
        without a ``state`` (or the reverse).

    See Also
    --------
    PairIndex : An index of object pairs.
    clusteragree.indices.evaluate : A table index on a table or a batch of tables.
    register : The decorator that declares an index.

    Examples
    --------
    >>> rec = ca.get_index("rand")
    >>> rec.statistic, rec.linear, rec.inputs
    ('s', True, ('table',))
    >>> tables = np.array([[[30, 20], [10, 20]], [[5, 0], [0, 5]]])
    >>> rec.on_counts(tables).round(5)                   # a batch of two tables
    array([0.52532, 1.     ])
    """

    inputs: tuple[str, ...] = ("table",)
    # "s": a function of sum n_ij^2 given the margins; "t": of sum n_ij log n_ij
    statistic: str | None = None
    state: Callable | None = None  # (statistic, rows, cols) -> the family's state for ``func``
    linear: bool = False  # affine in its statistic given the margins: closed-form null moments
    # Affine in the family's sums (a11, p, q; or H(x), H(y), MI) with coefficients that depend
    # on n only: its mean under any random model is its value at the mean state.
    affine_state: bool = False
    mean_state: Callable | None = None  # (dict of expected sums) -> the family's state

    @property
    def monotone_in(self) -> str | None:
        """The statistic of which this index is a monotone function given both margins.

        Returns
        -------
        str or None
            ``statistic`` ("s" or "t") for a similarity (increasing) or a distance
            (decreasing); None for a statistic such as an entropy, which the margins fix.

        See Also
        --------
        clusteragree.AgreementTest.test_group : The tests this makes one test.

        Examples
        --------
        >>> ca.get_index("jaccard").monotone_in, ca.get_index("entropy_x").monotone_in
        ('s', None)
        """
        if self.statistic is None or self.kind == "statistic":
            return None  # entropies (constant given the margins), counts of pairs
        return self.statistic

    @property
    def sparse_cells(self) -> bool:
        """Whether the index is evaluated from a sparse table's non-zero cells and margins.

        Returns
        -------
        bool
            True for an index of sum n_ij^2 or sum n_ij log n_ij given the margins (its
            ``statistic``: every term of the sum is a non-zero cell) and for an index with a
            form on the cells (``on_sparse``); False: it needs the dense table.

        See Also
        --------
        clusteragree.indices.evaluate_sparse : The index on a sparse table.

        Examples
        --------
        >>> [ca.get_index(name).sparse_cells for name in ("ari", "purity", "kappa")]
        [True, True, False]
        """
        return self.statistic is not None or self.on_sparse is not None

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
        """The index from its additive statistic and the margins, without the tables.

        This is how exact laws of ``s`` or ``t`` become laws of the index. Options are used as
        given (``clusteragree.indices.evaluate`` checks them).

        Parameters
        ----------
        stat : array-like of float
            Values of the index's statistic (``statistic``: s = sum n_ij^2 or t = sum n_ij
            log n_ij), shape ``(...)``.
        rows, cols : array-like of int
            The row margins, shape ``(..., K)``, and the column margins, shape ``(..., Q)``
            (broadcast against ``stat``).
        **options
            The index's options, already checked.

        Returns
        -------
        ndarray of float
            The index for each value of the statistic.

        Raises
        ------
        ValueError
            The index is not a function of an additive statistic.

        Examples
        --------
        >>> rec = ca.get_index("rand")
        >>> tab = np.array([[30, 20], [10, 20]])           # s = sum n_ij^2 = 1800
        >>> rec.of_statistic(np.array([1800, 2200]), tab.sum(axis=1), tab.sum(axis=0))
        array([0.52531646, 0.65189873])
        """
        if self.state is None:
            raise ValueError(f"index {self.name!r} is not a function of an additive statistic")
        return self.func(self.state(stat, rows, cols), **options)

    def on_counts(self, counts: np.ndarray, **options) -> np.ndarray:
        """The index on a validated int64 batch of tables (no checks).

        Identical partitions take the index's optimum (the registry's rule) when the index is
        ``reflexive`` and the options are its defaults; ``evaluate`` is the checked entry.

        Parameters
        ----------
        counts : ndarray of int64
            A table or a batch of tables, shape ``(..., K, Q)``, already validated.
        **options
            The index's options, already checked.

        Returns
        -------
        ndarray of float
            The index of each table, shape ``counts.shape[:-2]``.

        Examples
        --------
        >>> ca.get_index("jaccard").on_counts(np.array([[30, 20], [10, 20]]))
        array(0.36440678)
        """
        if self.state is None:
            values = self.func(counts, **options)
            if self.reflexive and self._default_options(options):
                # identical partitions take the optimum (the registry's rule); an option that
                # changes what "identical" means (kappa's matching=) leaves it to the index
                values = np.where(identical(counts), self.optimum, values)
            return values
        stat = STATISTICS[self.statistic](counts)
        return self.of_statistic(stat, np.add.reduce(counts, axis=-1),
                                 np.add.reduce(counts, axis=-2), **options)

    def _default_options(self, options) -> bool:
        for key, value in options.items():
            default = self.options.get(key)
            if value is default:
                continue
            if not isinstance(value, (str, bool, int, float)) or value != default:
                return False
        return True
