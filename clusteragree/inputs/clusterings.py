"""The one conversion at the entry: two clusterings (or a table) become one ``Clusterings``
record at the first line of every public function, and only that record goes down.

What a caller may give:

* a ``ContingencyTable`` or a K x Q array of counts (``x`` alone);
* two label vectors, two pandas Series, or two column names with ``data=``;
* two membership matrices (objects x clusters) or similarity matrices (n x n), as arrays or
  pandas DataFrames;
* covers (overlapping clusterings) as binary membership matrices or as lists of sets of
  objects, one set a cluster: these become binary membership matrices here, at the entry
  (``inputs.memberships.sets_to_memberships`` says how the objects are numbered).

Two pandas objects (Series of labels, DataFrames of memberships or similarity matrices, in any
mix) are paired by their index, as pandas aligns: the same labels in any order, or with
``join="inner"`` the labels in both; index sets that differ are otherwise an error, and so are
duplicate labels. A similarity matrix given as a DataFrame names its objects in its index and
its columns alike, and both are put in the paired order. Anything else (an array or a list,
and a pandas object against one) is paired by position, as two Series are against an array.

The record holds the contingency table when the indices asked for need one (hard partitions:
labels or one-hot memberships), and the two clusterings for the indices of two clusterings
(memberships, covers, similarity matrices). For each such index it reads them once in the
format the index takes, finds their kind (exclusive hard, fuzzy, non-exclusive hard,
possibilistic, non-exhaustive hard, similarity matrix) and refuses a kind the index's
definition does not cover (``PairIndex.kinds``), before any work. Nothing below the entry converts
or validates the clusterings again.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._docs import fill_doc
from .._validate import check_choice
from ..tables import ContingencyTable, as_counts
from .crosstab import as_table, crosstab, data_columns, is_table
from .dask_tables import is_dask
from .labels import JOINS, common_objects, is_indexed, take_objects
from .objects import (Coverage, WeightedTable, as_noise, select_objects, warn_noise_convention,
                      weighted_table)
from .matrices import (check_same_objects, check_similarity_matrix, frame_matrix,
                       is_labelled_matrix, looks_like_similarity_matrix)
from .memberships import (COVER_KIND, MATRIX_KIND, check_no_empty_cluster, float_array,
                          is_labels, read_memberships, sets_to_memberships)
from .resampling import (CHUNK_CELLS, bootstrap_objects, leave_one_out_objects,
                         leave_one_out_tables, multinomial_draws)

__all__ = ["Clusterings", "as_clusterings", "check_clustering"]


def _name_of(obj, default: str) -> str:
    name = getattr(obj, "name", None) if isinstance(obj, pd.Series) else None
    return str(name) if name is not None else default


class Clusterings:
    """Two clusterings as the entry leaves them (build it with ``as_clusterings``).

    Parameters
    ----------
    table : ContingencyTable or None
        The contingency table (None when the inputs are not hard partitions or no index of a
        table was asked for).
    x, y : array-like or pandas object, optional
        The two clusterings themselves, kept for the indices of two clusterings (memberships,
        covers, similarity matrices); None when only the table is needed.
    names : (str, str), default ("x", "y")
        The names of x and y, for printing.
    objects : pandas.Index, optional
        The index labels that pair two pandas clusterings, in x's order (None: by position).
    counts : numpy.ndarray, optional
        A checked batch of tables of shape (..., K, Q), when ``table`` is None
        (``ca.agreement`` on a batch); otherwise the table's counts.
    coverage : Coverage, optional
        Which objects were compared (a noise policy, objects left out, sample weights);
        None: all as given.
    weighted : WeightedTable, optional
        The table of weight sums, with non-integer ``sample_weight`` (``table`` is then None).

    Attributes
    ----------
    table : ContingencyTable or None
        As given.
    names : (str, str)
        As given.

    See Also
    --------
    as_clusterings : Build the record from what a public function was given.
    clusteragree.crosstab : The table of two labellings.

    Examples
    --------
    >>> from clusteragree.inputs import as_clusterings
    >>> clus = as_clusterings([0, 0, 1, 1], [0, 1, 1, 1])
    >>> clus.describe(), clus.n, clus.table.counts.tolist()
    ('x and y (2 x 2 table, n = 4)', 4, [[1, 1], [0, 2]])
    """

    def __init__(self, table: ContingencyTable | None, x=None, y=None, names=("x", "y"),
                 objects=None, counts=None, coverage: Coverage | None = None,
                 weighted: WeightedTable | None = None):
        self.table = table
        #: which objects were compared (noise, missing labels, weights); None: all as given
        self.coverage = coverage
        #: the table of weight sums, with non-integer ``sample_weight`` (``table`` is then None)
        self.weighted = weighted
        # the counts of the table, or of a batch of tables (``as_clusterings(batch=True)``)
        # (None for a sparse table, which has no dense counts)
        self.counts = (counts if table is None else table.counts if table.dense else None)
        self._x, self._y = x, y
        self._objects = objects  # index labels pairing two pandas clusterings, or None
        self.names = (str(names[0]), str(names[1]))
        self._pairs: dict = {}
        self._labels_table = None  # False once known not to be a dense table of two labellings

    @property
    def has_clusterings(self) -> bool:
        """True when the two clusterings themselves are here (not only their table)."""
        return self._x is not None

    def pair(self, rec):
        """The two clusterings read for an index of two clusterings.

        They are read once per input format (the same objects, n >= 2); each clustering's
        kind is checked against the kinds the index takes (``PairIndex.check_kind``) at every
        call.

        Parameters
        ----------
        rec : Index
            The index's registry record (``ca.get_index(name)``).

        Returns
        -------
        tuple
            ``(X, format_x, Y, format_y)``: each clustering as an array in the format the
            index takes ("membership", "matrix", "partition" or "cover").

        Raises
        ------
        TypeError
            Only the table is here (the clusterings were given as a table).
        ValueError
            A kind of clustering the index does not take, or fewer than two objects.
        MemoryError
            More objects than the index's n x n matrices leave room for
            (``PairIndex.check_memory``).

        Examples
        --------
        >>> from clusteragree.inputs import as_clusterings
        >>> U = [[1.0, 0.0], [0.8, 0.2], [0.1, 0.9], [0.0, 1.0]]
        >>> clus = as_clusterings(U, [0, 0, 1, 1], table=False, pairs=["agri"])
        >>> X, fx, Y, fy = clus.pair(ca.get_index("agri"))
        >>> fx, fy, Y.tolist()
        ('membership', 'membership', [[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0]])
        """
        if not self.has_clusterings:
            raise TypeError(
                f"index {rec.name!r} compares the two clusterings themselves (memberships or "
                "similarity matrices), not a contingency table: pass x and y, not a table")
        key = (rec.inputs, rec.inputs_y or rec.inputs)
        if key in self._pairs:  # read for another index of the same formats
            X, fx, kx, Y, fy, ky = self._pairs[key]
            rec.check_kind(kx, X, self.names[0])
            rec.check_kind(ky, Y, self.names[1], y=True)
            rec.check_memory(X.shape[0])
            return X, fx, Y, fy
        try:  # before reading: reading a similarity matrix takes memory of its own
            n = self.n
        except ValueError:  # a ragged input: reading it says what is wrong
            n = 0
        rec.check_memory(n)
        X, fx, kx = check_clustering(self._x, self.names[0], key[0], self._objects)
        rec.check_kind(kx, X, self.names[0])
        Y, fy, ky = check_clustering(self._y, self.names[1], key[1], self._objects)
        rec.check_kind(ky, Y, self.names[1], y=True)
        check_same_objects(X.shape[0], Y.shape[0], self.names)
        if X.shape[0] < 2:
            raise ValueError(f"index {rec.name!r} compares pairs of objects: needs n >= 2")
        self._pairs[key] = (X, fx, kx, Y, fy, ky)
        return X, fx, Y, fy

    def labels_table(self):
        """The contingency table of x and y (dense, or sparse for partitions into many
        clusters) when both were given as label vectors (two
        hard partitions of n >= 2 objects), for an index of two clusterings with a form on the
        table (``PairIndex.on_table``); None otherwise, and for inputs that ``pair`` refuses
        (missing labels, lengths that differ), so that its message is the one given.

        Returns
        -------
        ContingencyTable, SparseContingencyTable or None
            The table of the two labellings (built once), or None.

        Examples
        --------
        >>> from clusteragree.inputs import as_clusterings
        >>> clus = as_clusterings([0, 0, 1], [1, 1, 1], table=False, pairs=["ecs"])
        >>> clus.labels_table().counts.tolist()
        [[2], [1]]
        """
        if self._labels_table is None:
            self._labels_table = False
            if self.has_clusterings and is_labels(self._x) and is_labels(self._y):
                try:
                    tab = as_table(take_objects(self._x, self._objects),
                                   take_objects(self._y, self._objects))
                except (TypeError, ValueError):
                    tab = None
                if tab is not None and tab.n >= 2:  # dense, or sparse for many clusters
                    self._labels_table = tab
        return self._labels_table or None

    # -- the resampling batches (``clusteragree.inputs.resampling``) -------------------------

    def leave_one_out_tables(self, chunk_cells: int = CHUNK_CELLS):
        """The table with one object left out of each non-empty cell: the jackknife's tables.

        Parameters
        ----------
        chunk_cells : int, default ``CHUNK_CELLS``
            The most cells of the tables of one chunk.

        Yields
        ------
        tables : numpy.ndarray, shape (b, K, Q)
            The table less one in each of the next b non-empty cells (``np.nonzero`` order).
        weights : numpy.ndarray, shape (b,)
            Their counts: how many objects each table stands for.

        Examples
        --------
        >>> from clusteragree.inputs import as_clusterings
        >>> clus = as_clusterings([[2, 0], [1, 1]])
        >>> [w.tolist() for _, w in clus.leave_one_out_tables()]
        [[2, 1, 1]]
        """
        yield from leave_one_out_tables(np.asarray(self.table.counts), chunk_cells)

    def bootstrap_tables(self, n_resamples: int, rng: np.random.Generator,
                         chunk_cells: int = CHUNK_CELLS):
        """Bootstrap resamples of the objects as tables: multinomial draws of the cells.

        Each chunk is drawn from ``rng`` when it is asked for, so the memory a bootstrap
        takes does not grow with ``n_resamples``.

        Parameters
        ----------
        n_resamples : int
            The resamples.
        rng : numpy.random.Generator
            The source of randomness.
        chunk_cells : int, default ``CHUNK_CELLS``
            The most cells of the tables of one chunk.

        Yields
        ------
        numpy.ndarray, shape (b, K, Q)
            The next b resampled tables.

        Examples
        --------
        >>> from clusteragree.inputs import as_clusterings
        >>> clus = as_clusterings([[2, 0], [1, 1]])
        >>> [t.shape for t in clus.bootstrap_tables(3, np.random.default_rng(0))]
        [(3, 2, 2)]
        """
        counts = np.asarray(self.table.counts)
        n = int(counts.sum())
        p = (counts / n).ravel()
        for draws in multinomial_draws(n, p, n_resamples, rng, p.size, chunk_cells):
            yield draws.reshape(-1, *counts.shape)

    def leave_one_out_objects(self):
        """The objects with each one left out in turn: the jackknife of an index of pairs.

        Yields
        ------
        numpy.ndarray of int, shape (n - 1,)
            The objects kept (``resampled_pair`` takes them from the clusterings).

        Examples
        --------
        >>> from clusteragree.inputs import as_clusterings
        >>> clus = as_clusterings([0, 0, 1], [0, 1, 1], table=False, pairs=["ndc"])
        >>> [idx.tolist() for idx in clus.leave_one_out_objects()]
        [[1, 2], [0, 2], [0, 1]]
        """
        yield from leave_one_out_objects(self.n)

    def bootstrap_objects(self, n_resamples: int, rng: np.random.Generator):
        """Bootstrap resamples of the objects, each drawn when it is asked for.

        Parameters
        ----------
        n_resamples : int
            The resamples.
        rng : numpy.random.Generator
            The source of randomness.

        Yields
        ------
        numpy.ndarray of int, shape (n,)
            The objects drawn (``resampled_pair`` takes them from the clusterings).

        Examples
        --------
        >>> from clusteragree.inputs import as_clusterings
        >>> clus = as_clusterings([0, 0, 1], [0, 1, 1], table=False, pairs=["ndc"])
        >>> [idx.shape for idx in clus.bootstrap_objects(2, np.random.default_rng(0))]
        [(3,), (3,)]
        """
        yield from bootstrap_objects(self.n, n_resamples, rng)

    @property
    def n(self) -> int:
        """The number of objects (with integer weights: of the objects repeated)."""
        if self.weighted is not None:
            return len(self.weighted.object_weights)
        if self.table is not None:
            return self.table.n
        if self._objects is not None:
            return len(self._objects)
        return int(np.shape(self._x)[0])

    def describe(self) -> str:
        """The two clusterings in words, for the ``data:`` line of a printed test.

        Returns
        -------
        str
            "x and y (2 x 3 table, n = 80)", or the shapes of the two clusterings.
        """
        left, right = self.names
        if self.weighted is not None:
            K, Q = self.weighted.shape
            text = f"{left} and {right} ({K} x {Q} table of weight sums)"
        elif self.table is not None:
            K, Q = self.table.shape
            text = f"{left} and {right} ({K} x {Q} table, n = {self.table.n})"
        else:
            sx = np.shape(take_objects(self._x, self._objects))
            sy = np.shape(take_objects(self._y, self._objects))
            text = (f"{left} and {right} ({' x '.join(map(str, sx))} and "
                    f"{' x '.join(map(str, sy))})")
        if self.coverage is not None and self.coverage.notable:
            text += "; " + self.coverage.describe(self.names)
        return text


@fill_doc
def as_clusterings(x, y=None, *, data=None, dropna: bool = False, join: str = "exact",
                   table: bool = True, pairs=(), batch: bool = False, noise=None,
                   sample_weight=None) -> Clusterings:
    """Convert what a public function was given, once.

    Parameters
    ----------
    %(x, y)s
        A ``Clusterings`` record is returned as it is.
    %(data)s
    %(dropna)s
    %(join)s
    table : bool, default True
        Build the contingency table (the inputs must then be hard partitions).
    pairs : sequence of str, default ()
        The names of the indices of object pairs asked for, if any: the two clusterings are
        then kept for them, and must be given as two clusterings, not as a table.
    batch : bool, default False
        ``x`` alone may be a batch of tables of shape (..., K, Q) (``ca.agreement``), kept as
        ``counts`` (its ``table`` is then None).
    %(noise)s
    %(sample_weight)s

    Returns
    -------
    Clusterings
        The record every public function passes down.

    Raises
    ------
    TypeError, ValueError
        Inputs that are not two clusterings of the same objects (or a table), or a kind of
        clustering that ``table`` or ``pairs`` cannot take.

    See Also
    --------
    Clusterings : The record.
    clusteragree.crosstab : The table of two labellings.

    Examples
    --------
    >>> import pandas as pd
    >>> x = pd.Series([0, 0, 1, 1], index=list("abcd"))
    >>> y = pd.Series([1, 1, 0, 0], index=list("dcba"))   # x's labels in another order
    >>> as_clusterings(x, y).table.counts.tolist()        # paired by the index
    [[2, 0], [0, 2]]
    """
    pairs = list(pairs)
    noise = as_noise(noise)
    if noise is not None or sample_weight is not None or (
            dropna is True and _partial_labels(x, y, data)):
        return _selected(x, y, data, dropna, join, table, pairs, noise, sample_weight)
    if (table and not pairs and data is None and type(x) is np.ndarray
            and type(y) is np.ndarray and x.ndim == 1 and y.ndim == 1):
        # two 1-D numpy label vectors, the commonest call: what follows would only find that
        # they are not Dask, sets, pandas or 2-D; crosstab checks them
        tab = crosstab(x, y, dropna=dropna, join=join)
        if tab.dense:  # sorted labels (a sparse table's may not be)
            warn_noise_convention(tab.row_labels, tab.col_labels, tab.names)
        return Clusterings(tab, names=tab.names)
    if isinstance(x, Clusterings):
        if y is not None or data is not None:
            raise TypeError("pass either a Clusterings record or x and y, not both")
        if table and x.table is None:
            raise TypeError("these clusterings have no contingency table (they are not hard "
                            "partitions): use an index of the 'fuzzy' or 'matrix' family")
        if pairs and not x.has_clusterings:
            raise TypeError(f"index {pairs[0]!r} needs the two clusterings, not a table")
        return x
    check_choice(join, "join", JOINS)
    if is_dask(x) or is_dask(y) or is_dask(data):
        if pairs:
            raise TypeError(
                f"index {pairs[0]!r} compares the two clusterings object by object, and Dask "
                "inputs are counted into their contingency table: use the indices of the table "
                "(pair counting, information, matching), or .compute() the clusterings")
        tab = crosstab(x, y, data=data, dropna=dropna, join=join)
        return Clusterings(tab, names=tab.names)
    objects = None
    if data is None and y is not None:
        x, y = sets_to_memberships(x, y)
        if is_indexed(x) and is_indexed(y):  # paired by their index, whatever they hold
            objects = common_objects(x, y, join)
    given_table = isinstance(x, ContingencyTable) or (y is None and data is None)
    if pairs and (given_table or data is not None):
        raise TypeError(
            f"index {pairs[0]!r} compares the two clusterings themselves (memberships or "
            "similarity matrices), not a contingency table or columns of data=: call it with "
            "x and y")
    if (batch and table and not pairs and y is None and data is None
            and not isinstance(x, ContingencyTable)):
        try:
            many = np.ndim(x) > 2
        except ValueError:  # ragged nested lists: as_table names the problem
            many = False
        if many:  # a batch of tables of shape (..., K, Q), checked once
            return Clusterings(None, counts=as_counts(x))
    tab = as_table(take_objects(x, objects), take_objects(y, objects), data=data,
                   dropna=dropna, join=join) if table else None
    names = tab.names if tab is not None else (_name_of(x, "x"), _name_of(y, "y"))
    if tab is not None and not given_table:
        warn_noise_convention(tab.row_labels, tab.col_labels, names)
    elif tab is None and is_labels(x) and is_labels(y):
        warn_noise_convention(*(np.unique(np.asarray(v)) if np.asarray(v).dtype.kind == "i"
                                else () for v in (x, y)), names)
    return Clusterings(tab, x if pairs else None, y if pairs else None, names=names,
                       objects=objects if pairs else None)


def _partial_labels(x, y, data) -> bool:
    """Two label vectors (or two columns of pandas data) that ``dropna=True`` may leave
    objects out of: their record states how many (``Coverage``)."""
    if data is not None:
        return isinstance(data, pd.DataFrame)
    return (y is not None and not isinstance(x, Clusterings) and not is_dask(x)
            and not is_dask(y) and is_labels(x) and is_labels(y))


def _selected(x, y, data, dropna, join, table, pairs, noise, sample_weight) -> Clusterings:
    """The record of two label vectors with a noise policy or sample weights
    (``clusteragree.inputs.objects``): the policy applied and the objects selected once,
    then the table counted, of weight sums for non-integer weights."""
    what = "noise=" if sample_weight is None else "sample_weight="
    if isinstance(x, Clusterings):
        raise TypeError(f"{what} applies to labels, and these clusterings were converted "
                        "already: pass the labels")
    if data is not None:
        if is_dask(data):
            raise TypeError(f"{what} with Dask data: .compute() the two columns first")
        x, y, names = data_columns(data, x, y)
    elif y is None or is_table(x) and not is_labels(x):
        raise TypeError(f"{what} needs the label of each object, not a contingency table: "
                        "pass the two clusterings' labels")
    else:
        names = (_name_of(x, "x"), _name_of(y, "y"))
    if is_dask(x) or is_dask(y):
        raise TypeError(f"{what} with Dask inputs: .compute() the labels first")
    for obj, name in zip((x, y), names):
        if not is_labels(obj):
            raise TypeError(f"{what} applies to label vectors (hard partitions), and {name} is "
                            "not one (memberships, a cover or a similarity matrix): pass labels")
    xs, ys, weights, coverage = select_objects(x, y, names=names, dropna=dropna, join=join,
                                               noise=noise, sample_weight=sample_weight)
    if coverage.weights == "real":
        if pairs:
            raise TypeError(
                f"index {pairs[0]!r} compares the objects pair by pair, and non-integer "
                "sample_weight gives a table of weight sums: use an index of the table")
        wt = weighted_table(xs, ys, weights, names)
        return Clusterings(None, names=names, coverage=coverage, weighted=wt)
    tab = None
    if table and weights is not None:  # whole numbers: the table of the objects repeated
        wt = weighted_table(xs, ys, weights, names)
        tab = ContingencyTable(np.rint(wt.counts).astype(np.int64), wt.row_labels,
                               wt.col_labels, names)
    elif table:
        tab = crosstab(pd.Series(xs, name=names[0]), pd.Series(ys, name=names[1]))
    if tab is not None and (noise is None or noise.side != "both"):
        # labels as given on a side no policy covers: -1 there is one cluster, said once
        rows = tab.row_labels if noise is None or noise.side == "y" else ()
        cols = tab.col_labels if noise is None or noise.side == "x" else ()
        warn_noise_convention(rows, cols, names)
    if pairs and weights is not None:  # the indices of object pairs see the objects repeated
        reps = weights.astype(np.int64)
        xs, ys = np.repeat(xs, reps), np.repeat(ys, reps)
    return Clusterings(tab, xs if pairs else None, ys if pairs else None, names=names,
                       coverage=coverage)


def check_clustering(obj, name: str, accepted, objects=None) -> tuple[np.ndarray, str, str]:
    """One clustering for an index of two clusterings, in the input format the index reads
    (``accepted``: "membership", "matrix", "partition" or "cover"): returns (float array,
    format, kind), the kind one of ``KINDS`` (the index's record checks it).

    ``objects``: the index labels that pair a pandas clustering with the other one (rows, and
    for a similarity matrix given as a DataFrame rows and columns, are taken in that order);
    None to take the clustering as it is (a DataFrame similarity matrix still has its columns
    put in the order of its rows)."""
    rows = take_objects(obj, objects)
    if "matrix" in accepted:
        if accepted == ("matrix",):
            shape = obj.shape if isinstance(obj, pd.DataFrame) else (
                () if is_labels(obj) else np.shape(obj))
            if len(shape) != 2 or shape[0] != shape[1]:
                # not a matrix: read as the clustering it is, whose kind the record refuses
                try:
                    U, kind = read_memberships(rows, name)
                except (TypeError, ValueError):
                    raise ValueError(f"{name} must be a square (n x n) similarity matrix, got "
                                     f"shape {shape}") from None
                return U, "membership", kind
            return check_similarity_matrix(obj, name, objects), "matrix", MATRIX_KIND
        if not is_labels(obj) and np.ndim(obj) == 2:
            # a DataFrame is a matrix only when its columns name its objects; an array when it
            # is square, symmetric and has a unit diagonal
            if isinstance(obj, pd.DataFrame):
                candidate = frame_matrix(obj, name, objects) if is_labelled_matrix(obj) else None
            else:
                candidate = obj
            if candidate is not None:
                arr = float_array(candidate, name, "a numeric membership or similarity matrix")
                if looks_like_similarity_matrix(arr):
                    return check_similarity_matrix(arr, name), "matrix", MATRIX_KIND
    fmt = next((f for f in ("membership", "partition", "cover") if f in accepted), None)
    if fmt is None:  # pragma: no cover - the registry declares one of these formats
        raise ValueError(f"{name}: this index takes {' or '.join(accepted)} inputs")
    if "matrix" not in accepted:
        # a similarity matrix given to an index of memberships is not read as n objects in n
        # clusters: its kind is named and the index's record refuses it (the identity, all
        # singletons, reads the same both ways and stays a partition)
        if is_labelled_matrix(obj):
            M = frame_matrix(obj, name, objects)
        elif isinstance(obj, pd.DataFrame) or is_labels(obj):
            M = None
        else:
            M = obj
        shape = np.shape(M) if M is not None else ()
        if len(shape) == 2 and shape[0] == shape[1] > 1:  # square: read it to see
            try:
                arr = float_array(M, name, "a numeric matrix")
            except TypeError:
                arr = None
            if (arr is not None and looks_like_similarity_matrix(arr)
                    and not np.array_equal(arr, np.eye(arr.shape[0]))):
                return arr, fmt, MATRIX_KIND
    U, kind = read_memberships(rows, name)
    if fmt == "cover" and kind in ("exclusive hard", "non-exclusive hard", COVER_KIND):
        check_no_empty_cluster(U, name)
    return U, fmt, kind
