"""The entry conversion of three labellings of the same objects (a reference and two clusterings
compared with it): one record of the K x Qa x Qb table's non-empty cells and its two 2-way tables.

``as_three_way`` checks each labelling as ``clusteragree.inputs.labels`` checks one (hashable
labels, no silent missing values), pairs three pandas Series by their index as two are paired
(``join``), and refuses before any work what is not three hard partitions of the same objects
(lengths that differ, memberships, covers, similarity matrices), naming the argument. The
objects are coded once (one code per labelling) and the 3-way table counted by one bincount of
the combined codes; only its non-empty cells are kept, so many clusters cost no dense 3-way
array. A K x Qa x Qb array of counts is read as that table.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from scipy import sparse

from ..tables import check_counts
from .labels import check_labels, common_objects, take_objects
from .objects import Coverage, as_noise, select_labellings, warn_noise_convention
from .resampling import CHUNK_CELLS, leave_one_out_tables, leave_two_out_tables, multinomial_draws

__all__ = ["ThreeWay", "as_three_way", "three_labellings", "three_way_of_codes", "MAX_TABLE_CELLS"]

#: The most cells a 2-way table of the reference with a or b may have (dense int64 tables: the
#: indices of the table take them dense).
MAX_TABLE_CELLS = 10**7

#: The names of the three labellings, for the errors (their arguments' names).
ARGUMENTS = ("reference", "a", "b")

#: The axis of the 3-way table of a and of b.
_AXES = {"a": 1, "b": 2}


@dataclass(frozen=True)
class ThreeWay:
    """Three hard partitions of the same n objects, as their K x Qa x Qb table.

    Attributes
    ----------
    cells : numpy.ndarray of int64, shape (m, 3)
        The non-empty cells (i, j, k): reference cluster i, a's j, b's k.
    weights : numpy.ndarray of int64, shape (m,)
        Their counts.
    shape : (int, int, int)
        K, Qa, Qb.
    names : (str, str, str)
        The names of the reference, a and b (Series names, column names of ``data``, or
        "reference", "a", "b").
    coverage : Coverage, optional
        Which objects were compared (a noise policy, objects left out, integer sample
        weights); None: all as given.

    Examples
    --------
    >>> tw = as_three_way([0, 0, 1, 1], [0, 0, 1, 0], ["u", "v", "v", "v"])
    >>> tw.n, tw.shape, tw.table_a.tolist(), tw.table_b.tolist()
    (4, (2, 2, 2), [[2, 0], [1, 1]], [[1, 1], [0, 2]])
    """

    cells: np.ndarray
    weights: np.ndarray
    shape: tuple
    names: tuple = ARGUMENTS
    coverage: Coverage | None = None

    @property
    def n(self) -> int:
        """The number of objects."""
        return int(self.weights.sum())

    def _table(self, axis: int) -> np.ndarray:
        """The 2-way table of the reference with a (axis 1) or b (axis 2)."""
        K, Q = self.shape[0], self.shape[axis]
        flat = np.bincount(self.cells[:, 0] * Q + self.cells[:, axis], weights=self.weights,
                           minlength=K * Q)
        return np.rint(flat).astype(np.int64).reshape(K, Q)

    @property
    def table_a(self) -> np.ndarray:
        """The K x Qa table of the reference (rows) and a (columns)."""
        return self._table(1)

    @property
    def table_b(self) -> np.ndarray:
        """The K x Qb table of the reference (rows) and b (columns)."""
        return self._table(2)

    # -- the resampling batches (``clusteragree.inputs.resampling``) -------------------------

    def two_way_cells(self, which: str) -> np.ndarray:
        """Each 3-way cell's cell of the 2-way table of the reference with a or b, numbered
        among that table's non-empty cells in ``np.nonzero`` order (the order of its
        ``leave_one_out_tables``).

        Parameters
        ----------
        which : {"a", "b"}
            The 2-way table.

        Returns
        -------
        numpy.ndarray of int, shape (m,)
            One number per non-empty 3-way cell (``cells``).

        Examples
        --------
        >>> tw = as_three_way([0, 0, 1, 1], [0, 0, 1, 0], ["u", "v", "v", "v"])
        >>> tw.cells.tolist(), tw.two_way_cells("a").tolist()
        ([[0, 0, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1]], [0, 0, 1, 2])
        """
        axis = _AXES[which]
        table, Q = self._table(axis), self.shape[axis]
        where = np.full(table.size, -1)
        where[np.flatnonzero(table)] = np.arange(np.count_nonzero(table))
        return where[self.cells[:, 0] * Q + self.cells[:, axis]]

    def leave_one_out_tables(self, which: str, chunk_cells: int = CHUNK_CELLS):
        """The 2-way table of the reference with a or b with one object left out of each of
        its non-empty cells: the jackknife's tables, in chunks.

        Parameters
        ----------
        which : {"a", "b"}
            The 2-way table.
        chunk_cells : int, default ``CHUNK_CELLS``
            The most cells of the tables of one chunk.

        Yields
        ------
        tables : numpy.ndarray, shape (b, K, Q)
            The table less one in each of the next b non-empty cells (``np.nonzero`` order).
        weights : numpy.ndarray, shape (b,)
            Their counts.

        Examples
        --------
        >>> tw = as_three_way([0, 0, 1, 1], [0, 0, 1, 0], ["u", "v", "v", "v"])
        >>> [w.tolist() for _, w in tw.leave_one_out_tables("a")]
        [[2, 1, 1]]
        """
        yield from leave_one_out_tables(self._table(_AXES[which]), chunk_cells)

    def leave_two_out_tables(self, which: str, chunk_cells: int = CHUNK_CELLS):
        """The 2-way table of the reference with a or b with two objects left out, of each
        pair of its non-empty cells u <= v (the corrected jackknife's tables), in chunks.

        Parameters
        ----------
        which : {"a", "b"}
            The 2-way table.
        chunk_cells : int, default ``CHUNK_CELLS``
            The most cells of the tables of one chunk.

        Yields
        ------
        u, v : numpy.ndarray of int, shape (b,)
            The next b pairs of non-empty cells (``np.nonzero`` order; u == v for a cell
            holding two objects or more).
        tables : numpy.ndarray, shape (b, K, Q)
            The table less one in cell u and one in cell v.

        Examples
        --------
        >>> tw = as_three_way([0, 0, 1, 1], [0, 0, 1, 0], ["u", "v", "v", "v"])
        >>> [(u.tolist(), v.tolist()) for u, v, _ in tw.leave_two_out_tables("a")]
        [([0, 0, 0, 1], [0, 1, 2, 2])]
        """
        yield from leave_two_out_tables(self._table(_AXES[which]), chunk_cells)

    def bootstrap_tables(self, n_resamples: int, rng: np.random.Generator,
                         chunk_cells: int = CHUNK_CELLS):
        """Bootstrap resamples of the objects as the two 2-way tables of each: a
        multinomial draw of the 3-way table's non-empty cells, summed into its 2-way tables.

        Each chunk is drawn from ``rng`` when it is asked for, so the memory a bootstrap
        takes does not grow with ``n_resamples``.

        Parameters
        ----------
        n_resamples : int
            The resamples.
        rng : numpy.random.Generator
            The source of randomness.
        chunk_cells : int, default ``CHUNK_CELLS``
            The most cells of one chunk (the 3-way cells of a draw, or its larger 2-way
            table).

        Yields
        ------
        tables_a : numpy.ndarray, shape (b, K, Qa)
            The next b resamples' tables of the reference and a.
        tables_b : numpy.ndarray, shape (b, K, Qb)
            The same resamples' tables of the reference and b.

        Examples
        --------
        >>> tw = as_three_way([0, 0, 1, 1], [0, 0, 1, 0], ["u", "v", "v", "v"])
        >>> [(a.shape, b.shape) for a, b in tw.bootstrap_tables(5, np.random.default_rng(0))]
        [((5, 2, 2), (5, 2, 2))]
        """
        K, Qa, Qb = self.shape
        m = self.weights.size
        ones = np.ones(m, dtype=np.int64)
        into = [sparse.csr_matrix((ones, (np.arange(m), self.cells[:, 0] * Q + self.cells[:, ax])),
                                  shape=(m, K * Q)) for ax, Q in ((1, Qa), (2, Qb))]
        p = self.weights / self.n
        for draws in multinomial_draws(self.n, p, n_resamples, rng, max(m, K * Qa, K * Qb),
                                       chunk_cells):
            yield tuple(np.asarray((M.T @ draws.T).T, dtype=np.int64).reshape(-1, K, Q)
                        for M, Q in zip(into, (Qa, Qb)))

    def describe(self) -> str:
        """The three labellings in words, for the ``data:`` line of a printed test."""
        r, a, b = self.names
        K, Qa, Qb = self.shape
        text = f"reference = {r}, a = {a}, b = {b} (n = {self.n:,}; {K} x {Qa} x {Qb} table)"
        if self.coverage is not None and self.coverage.notable:
            text += "; " + self.coverage.describe((r, f"{a} or {b}"))
        return text


def _refuse_non_labels(obj, name: str) -> None:
    """Memberships, covers and similarity matrices are refused by name, before ``check_labels``
    (whose message speaks of two clusterings)."""
    if isinstance(obj, (list, tuple)) and obj and all(isinstance(s, (set, frozenset))
                                                      for s in obj):
        raise TypeError(f"{name} is a cover (a list of sets of objects): difference_test "
                        "compares hard partitions, one label per object; covers, fuzzy "
                        "memberships and similarity matrices are not supported")
    shape = obj.shape if isinstance(obj, (np.ndarray, pd.DataFrame)) else None
    if shape is None and isinstance(obj, (list, tuple)):
        try:
            shape = np.shape(obj)
        except ValueError:  # ragged: check_labels names it
            shape = None
    if shape is not None and len(shape) == 2 and shape[1] > 1:
        raise TypeError(
            f"{name} is a 2-D array of shape {shape} (memberships or a similarity matrix): "
            "difference_test compares hard partitions, one label per object; fuzzy "
            "memberships, covers and similarity matrices are not supported (for the hard "
            "partition of memberships U pass U.argmax(axis=1))")


def three_labellings(values, data, dropna: bool, join: str, noise=None, sample_weight=None):
    """The three labellings checked, paired, with missing labels dropped or refused and the
    noise policy applied (``clusteragree.inputs.objects.select_labellings``)."""
    names = list(ARGUMENTS)
    if data is not None:
        if not isinstance(data, pd.DataFrame):
            raise TypeError(f"data must be a pandas DataFrame, got {type(data).__name__}")
        got = []
        for arg, value in zip(ARGUMENTS, values):
            if not isinstance(value, str) or value not in data.columns:
                raise ValueError(f"with data=..., {arg} must be a column name of data "
                                 f"(columns: {[str(c) for c in data.columns]}), got {value!r}")
            got.append(data[value])
        values = got
        names = [str(v) for v in (got[0].name, got[1].name, got[2].name)]
    else:
        for i, value in enumerate(values):
            if isinstance(value, pd.Series) and value.name is not None:
                names[i] = str(value.name)
    for arg, value in zip(ARGUMENTS, values):
        _refuse_non_labels(value, arg)
    labs = [check_labels(v, arg) for arg, v in zip(ARGUMENTS, values)]
    if all(isinstance(v, pd.Series) for v in labs) and data is None:
        objects = common_objects(labs[0], labs[1], join, ("reference", "a"))
        labs = [take_objects(v, objects) for v in labs[:2]] + [labs[2]]
        objects = common_objects(labs[0], labs[2], join, ("reference", "b"))
        labs = [take_objects(v, objects) for v in labs]
    for arg, v in zip(ARGUMENTS[1:], labs[1:]):
        if len(v) != len(labs[0]):
            raise ValueError(f"{arg} must label the same objects as reference: reference has "
                             f"{len(labs[0])} labels, {arg} has {len(v)}")
    if not isinstance(dropna, (bool, np.bool_)):
        raise TypeError(f"dropna must be True or False, got {dropna!r}")
    arrays, weights, coverage = select_labellings(labs, tuple(names), "xyy", dropna=dropna,
                                                  noise=noise, sample_weight=sample_weight)
    return arrays, tuple(names), weights, coverage


def _codes(labels) -> tuple[np.ndarray, int]:
    """Integer codes 0..Q-1 of one labelling (in the sorted order of its labels, as
    ``crosstab`` orders a table's rows, where they sort) and Q."""
    try:
        codes, uniques = pd.factorize(labels, sort=True)
    except TypeError:  # labels of mixed, unorderable types
        codes, uniques = pd.factorize(labels, sort=False)
    return codes.astype(np.int64, copy=False), len(uniques)


def as_three_way(reference, a=None, b=None, *, data=None, dropna: bool = False,
                 join: str = "exact", noise=None, sample_weight=None) -> ThreeWay:
    """Three labellings of the same objects (or their 3-way table), converted once.

    Parameters
    ----------
    reference, a, b : array-like, Series or str
        Three hard partitions of the same n objects (one label each), or three column names
        of ``data``; or ``reference`` alone: a K x Qa x Qb array of counts.
    data : DataFrame, optional
        Read the three as column names of ``data``.
    dropna : bool, default False
        Leave out the objects with a missing label in any of the three (else an error).
    join : {"exact", "inner"}, default "exact"
        How three pandas Series are paired by their index (as two are).

    Returns
    -------
    ThreeWay

    Raises
    ------
    TypeError, ValueError
        Not three hard partitions of the same objects, named.

    Examples
    --------
    >>> tw = as_three_way([[[2, 0], [0, 1]], [[0, 0], [1, 3]]])   # a 2 x 2 x 2 table
    >>> tw.n, tw.cells.tolist(), tw.weights.tolist()
    (7, [[0, 0, 0], [0, 1, 1], [1, 1, 0], [1, 1, 1]], [2, 1, 1, 3])
    """
    if isinstance(reference, ThreeWay) and a is None and b is None and data is None:
        return reference  # converted already (``ManyClusterings.three_way``)
    if join not in ("exact", "inner"):
        raise ValueError(f"join must be one of ['exact', 'inner'], got {join!r}")
    if a is None and b is None and data is None:
        if np.ndim(reference) != 3:
            raise TypeError("a and b are missing: pass three labellings reference, a, b of "
                            "the same objects, or reference alone as a K x Qa x Qb array of "
                            f"counts (got an array of {np.ndim(reference)} dimensions)")
        arr = np.asarray(reference)  # checked as one K x (Qa Qb) table: a class of the
        counts = check_counts(arr.reshape(arr.shape[0], -1), "reference",  # reference
                              allow_batch=False).reshape(arr.shape)  # may be empty
        counts = counts[counts.sum(axis=(1, 2)) > 0][:, counts.sum(axis=(0, 2)) > 0]
        counts = counts[:, :, counts.sum(axis=(0, 1)) > 0]
        cells = np.argwhere(counts > 0).astype(np.int64)
        return ThreeWay(cells, counts[tuple(cells.T)].astype(np.int64), counts.shape)
    for arg, value in (("a", a), ("b", b)):
        if value is None:
            raise TypeError(f"{arg} is missing: pass three labellings reference, a, b of the "
                            "same objects")
    noise = as_noise(noise)
    arrays, names, weights, coverage = three_labellings((reference, a, b), data, dropna, join,
                                                        noise, sample_weight)
    if coverage.weights == "real":
        raise ValueError("sample_weight holds weights that are not whole numbers: the paired "
                         "difference test resamples integer tables of objects; integer weights "
                         "(repeated objects) work")
    if weights is not None:
        keep = weights > 0
        arrays, weights = [v[keep] for v in arrays], weights[keep].astype(np.int64)
    (cr, K), (ca_, Qa), (cb, Qb) = (_codes(v) for v in arrays)
    tw = three_way_of_codes((cr, ca_, cb), (K, Qa, Qb), names, weights=weights)
    if noise is None:
        for other, labels in zip(names[1:], arrays[1:]):
            warn_noise_convention(np.unique(arrays[0]) if arrays[0].dtype.kind == "i" else (),
                                  np.unique(labels) if labels.dtype.kind == "i" else (),
                                  (names[0], other))
    return replace(tw, coverage=coverage)


def three_way_of_codes(codes, sizes, names=ARGUMENTS, weights=None) -> ThreeWay:
    """The record of three labellings already coded (codes 0..K-1 of each, every code
    present): the 3-way table's non-empty cells, counted by one bincount of the combined codes
    (``np.unique`` where the table has many more cells than objects).

    Parameters
    ----------
    codes : (array, array, array)
        The integer codes of the reference, a and b.
    sizes : (int, int, int)
        Their numbers of clusters K, Qa, Qb.
    names : (str, str, str), default ("reference", "a", "b")
        Their names.
    weights : numpy.ndarray of int, optional
        How many times each object counts (integer sample weights: repeated objects).

    Returns
    -------
    ThreeWay

    Raises
    ------
    ValueError
        A 2-way table with the reference of more than ``MAX_TABLE_CELLS`` cells.

    Examples
    --------
    >>> tw = three_way_of_codes(([0, 0, 1], [0, 1, 1], [1, 0, 0]), (2, 2, 2))
    >>> tw.n, tw.table_a.tolist()
    (3, [[1, 1], [0, 1]])
    """
    K, Qa, Qb = sizes
    for arg, Q in zip(ARGUMENTS[1:], (Qa, Qb)):
        if K * Q > MAX_TABLE_CELLS:
            raise ValueError(f"the table of reference and {arg} would have {K:,} x {Q:,} "
                             f"cells, more than {MAX_TABLE_CELLS:,}: difference_test evaluates "
                             "dense tables (too many clusters)")
    cr, ca_, cb = (np.asarray(c, dtype=np.int64) for c in codes)
    size = K * Qa * Qb
    keys = (cr * Qa + ca_) * Qb + cb  # size <= 10**7 * n fits in int64
    if weights is not None:  # repeated objects: the same table, counted with multiplicities
        where, inverse = np.unique(keys, return_inverse=True)
        weights = np.bincount(inverse.ravel(), weights=weights).round().astype(np.int64)
    elif size <= max(4 * len(keys), 1 << 16):
        flat = np.bincount(keys, minlength=size)
        where = np.flatnonzero(flat)
        weights = flat[where]
    else:
        where, weights = np.unique(keys, return_counts=True)
    cells = np.stack(np.unravel_index(where, (K, Qa, Qb)), axis=1).astype(np.int64)
    return ThreeWay(cells, weights.astype(np.int64), (K, Qa, Qb), names)
