"""Contingency tables of two clusterings and the pair counts derived from them.

``crosstab(x, y)`` cross-classifies two labellings of the same objects; ``x`` gives the rows and
``y`` the columns (in validation, pass the reference classes as ``x`` and the clustering as ``y``,
the order of scikit-learn's ``labels_true, labels_pred``). ``ContingencyTable`` holds the counts
``n_kq``, the margins and the labels; ``tab.pairs`` gives the 2 x 2 table of object pairs

    a11 = sum_kq C(n_kq, 2)            (together in x and in y)
    a10 = sum_k C(n_k+, 2) - a11       (together in x only)
    a01 = sum_q C(n_+q, 2) - a11       (together in y only)
    a00 = C(n, 2) - a11 - a10 - a01    (apart in both)

as exact Python integers ({ref:amorim2015}, App. B eqs 6-9).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ._docs import fill, fill_doc

__doc__ = fill(__doc__)

__all__ = ["ContingencyTable", "PairCounts", "pair_counts", "margin_table", "check_total",
           "X_TABLE"]


@fill_doc
@dataclass(frozen=True)
class PairCounts:
    """The 2 x 2 table of object pairs (exact integers).

    Every pair-counting index (Rand, Jaccard, Fowlkes-Mallows, the adjusted Rand index, ...)
    is a function of these four counts of the C(n, 2) pairs of objects. Iterating gives
    ``(a11, a10, a01, a00)``.

    Parameters
    ----------
    a11 : int
        Pairs together in both clusterings.
    a10 : int
        Pairs together in x (the rows) only.
    a01 : int
        Pairs together in y (the columns) only.
    a00 : int
        Pairs apart in both clusterings.

    See Also
    --------
    pair_counts : The pair counts of a table of counts.
    ContingencyTable.pairs : The pair counts of a table.

    References
    ----------
    {ref:hubert1985}, 193-218.

    {ref:amorim2015}, App. B eqs 6-9.

    Examples
    --------
    >>> pc = ca.crosstab([0, 0, 1, 1], [0, 0, 0, 1]).pairs
    >>> pc
    PairCounts(a11=1, a10=1, a01=2, a00=2)
    >>> pc.total, (pc.a11 + pc.a00) / pc.total          # the Rand index
    (6, 0.5)
    """

    a11: int
    a10: int
    a01: int
    a00: int

    @property
    def total(self) -> int:
        """The number of pairs of objects, C(n, 2) = a11 + a10 + a01 + a00."""
        return self.a11 + self.a10 + self.a01 + self.a00

    def as_array(self) -> np.ndarray:
        """The counts as a 2 x 2 table.

        Returns
        -------
        ndarray of Python ints, shape (2, 2)
            [[a11, a10], [a01, a00]]: rows together / apart in x, columns together / apart
            in y (object dtype, so that the counts stay exact).
        """
        return np.array([[self.a11, self.a10], [self.a01, self.a00]], dtype=object)

    def __iter__(self):
        return iter((self.a11, self.a10, self.a01, self.a00))


def _choose2(values) -> int:
    """Sum of C(v, 2) over integer values, as an exact Python int."""
    return sum(int(v) * (int(v) - 1) // 2 for v in np.asarray(values).ravel())


@fill_doc
def pair_counts(counts) -> PairCounts:
    """Exact pair counts (a11, a10, a01, a00) of one contingency table.

    With n_kq the counts, n_k+ and n_+q the margins and C(m, 2) = m (m - 1) / 2:
    a11 = sum_kq C(n_kq, 2), a10 = sum_k C(n_k+, 2) - a11, a01 = sum_q C(n_+q, 2) - a11 and
    a00 = C(n, 2) - a11 - a10 - a01, in exact integer arithmetic.

    Parameters
    ----------
    counts : array-like of int, shape (K, Q)
        A table of non-negative whole counts.

    Returns
    -------
    PairCounts
        The four counts, as Python ints.

    See Also
    --------
    ContingencyTable.pairs : The same, cached on a table.
    crosstab : The table of two labellings.

    References
    ----------
    {ref:hubert1985}, 193-218.

    {ref:amorim2015}, App. B eqs 6-9.

    Examples
    --------
    >>> pair_counts([[30, 20], [10, 20]])          # Amorim (2015), Table 6a
    PairCounts(a11=860, a10=800, a01=700, a00=800)
    """
    arr = check_counts(counts, allow_batch=False)
    a11 = _choose2(arr)
    rows = _choose2(arr.sum(axis=1))
    cols = _choose2(arr.sum(axis=0))
    n = int(arr.sum())
    total = n * (n - 1) // 2
    return PairCounts(a11=a11, a10=rows - a11, a01=cols - a11, a00=total - rows - cols + a11)


@fill_doc
class ContingencyTable:
    """Cross-classification of two clusterings of the same n objects.

    Parameters
    ----------
    counts : array-like of shape (K, Q)
        Non-negative whole counts; ``counts[k, q]`` objects are in cluster k of x and q of y.
        Empty rows and columns are dropped (with their labels).
    row_labels, col_labels : sequence, optional
        Cluster labels of the rows (x) and columns (y); default 0..K-1 and 0..Q-1.
    names : (str, str), default ("x", "y")
        Names of the two clusterings, used in printing.

    Attributes
    ----------
    counts : ndarray of int64, shape (K, Q)
        The counts (read-only).
    row_sums, col_sums : ndarray
        The margins: cluster sizes of x and of y.
    n : int
        The number of objects.
    pairs : PairCounts
        Exact pair counts a11, a10, a01, a00.
    row_labels, col_labels : ndarray
        The cluster labels of the rows and columns.
    names : (str, str)
        The names of x and y.
    dense : bool
        True: the table holds its dense counts (a ``SparseContingencyTable``, which answers
        the same questions, holds its non-zero cells only).
    nnz, values, cells
        The number of non-zero cells, their counts and the cells as a sparse array, as a
        ``SparseContingencyTable`` gives them.

    See Also
    --------
    crosstab : The table of two labellings.
    pair_counts : Pair counts of a table of counts.
    clusteragree.agreement : Indices of agreement of a table.

    References
    ----------
    {ref:hubert1985}, 193-218.

    {ref:amorim2015}.

    Examples
    --------
    >>> tab = ContingencyTable([[30, 20], [10, 20]])          # Amorim (2015), Table 6a
    >>> tab.n, tab.row_sums.tolist(), tab.col_sums.tolist()
    (80, [50, 30], [40, 40])
    >>> tab.pairs.a11          # C(30,2) + C(20,2) + C(10,2) + C(20,2)
    860
    """

    def __init__(self, counts, row_labels=None, col_labels=None, names=("x", "y")):
        arr = check_counts(counts, allow_batch=False)
        K, Q = arr.shape
        row_labels = check_axis_labels(row_labels, K, "row_labels")
        col_labels = check_axis_labels(col_labels, Q, "col_labels")
        if not (isinstance(names, (tuple, list)) and len(names) == 2):
            raise TypeError(f"names must be a pair of names (x, y), got {names!r}")
        self._hold(arr, row_labels, col_labels, names, owned=False)

    def _hold(self, arr, row_labels, col_labels, names, owned: bool, n: int | None = None
              ) -> None:
        """Keep checked counts, their empty rows and columns dropped (with their labels).
        ``owned``: ``arr`` was made for this table (it is kept, read-only, when it has no empty
        row or column); otherwise the table keeps a copy. The margins and n are counted here,
        once (read-only, as a sparse table keeps them); ``n``, when given, is the total the
        counting already knows (the number of labels counted)."""
        rows, cols = _margins(arr)
        if owned and np.count_nonzero(rows) == len(rows) and np.count_nonzero(cols) == len(cols):
            self._counts = np.ascontiguousarray(arr)
        else:
            keep_r, keep_c = rows > 0, cols > 0
            self._counts = np.ascontiguousarray(arr[keep_r][:, keep_c])
            row_labels, col_labels = row_labels[keep_r], col_labels[keep_c]
            rows, cols = rows[keep_r], cols[keep_c]  # the empty rows held no column's objects
        self._counts.setflags(write=False)
        rows.setflags(write=False)
        cols.setflags(write=False)
        self._row_sums, self._col_sums = rows, cols
        self._n = int(np.add.reduce(rows)) if n is None else n
        self.row_labels = row_labels
        self.col_labels = col_labels
        self.names = (str(names[0]), str(names[1]))
        self._pairs = None

    # -- the numbers ------------------------------------------------------------------------
    #: The table holds its dense K x Q counts (``SparseContingencyTable.dense`` is False): the
    #: one question that code serving both kinds of table asks to tell them apart.
    dense = True

    @property
    def counts(self) -> np.ndarray:
        """The K x Q counts (int64, read-only)."""
        return self._counts

    @property
    def row_sums(self) -> np.ndarray:
        """Cluster sizes of x (n_k+; int64, read-only)."""
        return self._row_sums

    @property
    def col_sums(self) -> np.ndarray:
        """Cluster sizes of y (n_+q; int64, read-only)."""
        return self._col_sums

    @property
    def n(self) -> int:
        """Number of objects."""
        return self._n

    @property
    def shape(self) -> tuple[int, int]:
        """(K, Q): the numbers of clusters of x (rows) and of y (columns)."""
        return self._counts.shape

    @property
    def pairs(self) -> PairCounts:
        """Exact pair counts a11, a10, a01, a00 (see module docstring)."""
        if self._pairs is None:
            self._pairs = pair_counts(self._counts)
        return self._pairs

    @property
    def nnz(self) -> int:
        """The number of non-zero cells."""
        return int(np.count_nonzero(self._counts))

    @property
    def values(self) -> np.ndarray:
        """The non-zero counts (int64, in row-major order of their cells)."""
        return self._counts[self._counts > 0]

    @property
    def cells(self):
        """The non-zero cells, a ``scipy.sparse.csr_array`` of int64 counts."""
        from scipy import sparse

        return sparse.csr_array(self._counts)

    def to_dense(self) -> "ContingencyTable":
        """The dense table: this one (a sparse table answers with its dense copy).

        Returns
        -------
        ContingencyTable
            The table itself.

        See Also
        --------
        clusteragree.crosstab : A table of two labellings, sparse when it has many clusters.

        Examples
        --------
        >>> tab = ContingencyTable([[30, 20], [10, 20]])
        >>> tab.to_dense() is tab, tab.dense, tab.nnz, tab.values.tolist()
        (True, True, 4, [30, 20, 10, 20])
        """
        return self

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self._counts, dtype=dtype)

    def transpose(self) -> "ContingencyTable":
        """The same table with the roles of x and y swapped (also ``tab.T``).

        Returns
        -------
        ContingencyTable
            The Q x K table of y (rows) against x (columns), labels and names swapped.
        """
        return ContingencyTable(
            self._counts.T, self.col_labels, self.row_labels, names=self.names[::-1]
        )

    T = property(transpose)

    def to_frame(self, margins: bool = False) -> pd.DataFrame:
        """The table as a DataFrame.

        Parameters
        ----------
        margins : bool, default False
            Add a "Sum" row and column (like R's ``addmargins(table(x, y))``).

        Returns
        -------
        DataFrame
            The counts, indexed by the row labels and with the column labels as columns,
            the axes named after x and y.

        Examples
        --------
        >>> ca.crosstab(["a", "a", "b"], [1, 2, 2]).to_frame(margins=True)
        y    1  2  Sum
        x             
        a    1  1    2
        b    0  1    1
        Sum  1  2    3
        """
        df = pd.DataFrame(
            self._counts,
            index=pd.Index(self.row_labels, name=self.names[0]),
            columns=pd.Index(self.col_labels, name=self.names[1]),
        )
        if margins:
            df = df.copy()
            df.columns = df.columns.astype(object)
            df.index = df.index.astype(object)
            df["Sum"] = df.sum(axis=1)
            df.loc["Sum"] = df.sum(axis=0)
        return df

    def __repr__(self) -> str:
        K, Q = self.shape
        head = f"ContingencyTable: {K} x {Q}, n = {self.n}  (rows: {self.names[0]}, columns: {self.names[1]})"
        return head + "\n" + self.to_frame(margins=True).to_string()

    def _repr_html_(self) -> str:
        K, Q = self.shape
        return (
            f"<p><b>ContingencyTable</b> {K} &times; {Q}, n = {self.n}</p>"
            + self.to_frame(margins=True).to_html()
        )

    def __eq__(self, other) -> bool:
        if not isinstance(other, ContingencyTable):
            return NotImplemented
        return (
            self.shape == other.shape
            and np.array_equal(self._counts, other._counts)
            and np.array_equal(self.row_labels, other.row_labels)
            and np.array_equal(self.col_labels, other.col_labels)
        )

    __hash__ = None


#: A table of at most this many cells has its margins summed by dot products with ones (on a
#: small table a numpy reduction along an axis costs about twice as much per call; on a large
#: one the reduction is faster).
_DOT_CELLS = 256
_ONES = np.ones(_DOT_CELLS, dtype=np.int64)
_ONES.setflags(write=False)


def _margins(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The row and column sums of a K x Q table of int64 counts (exact integers either way)."""
    if 0 < arr.size <= _DOT_CELLS and arr.dtype == _ONES.dtype:
        K, Q = arr.shape
        return arr.dot(_ONES[:Q]), _ONES[:K].dot(arr)
    return np.add.reduce(arr, axis=1), np.add.reduce(arr, axis=0)


def counted_table(counts: np.ndarray, row_labels: np.ndarray, col_labels: np.ndarray,
                  names, n: int | None = None) -> ContingencyTable:
    """The table of counts the package has just made from labels, not checked again.

    ``crosstab`` counts two label vectors it has checked: its counts are int64, 2-D,
    non-negative, of a positive total below 2**53, with one label per row and per column, so
    ``ContingencyTable``'s checks of a user's table (``check_counts``, ``check_axis_labels``)
    would only repeat what the counting guarantees. Tables given by a user go through
    ``ContingencyTable(...)``, which checks everything before any work.

    Parameters
    ----------
    counts : ndarray of int64, shape (K, Q)
        Counts made for this table (kept as they are, read-only, when no row or column is
        empty).
    row_labels, col_labels : ndarray
        One label per row and per column.
    names : (hashable, hashable)
        The names of x and y.
    n : int, optional
        The total of the counts when the counting knows it (the number of labels counted);
        default: summed from the margins.

    Returns
    -------
    ContingencyTable
        The table, its empty rows and columns dropped with their labels.

    See Also
    --------
    ContingencyTable : The checked constructor, for tables from outside the package.

    Examples
    --------
    >>> counted_table(np.array([[2, 0], [0, 0]]), np.arange(2), np.arange(2), ("x", "y")).counts
    array([[2]])
    """
    table = ContingencyTable.__new__(ContingencyTable)
    table._hold(counts, row_labels, col_labels, names, owned=True, n=n)
    return table


def table_of_counts(x) -> ContingencyTable:
    """``x`` given alone (no y) as one K x Q table of counts: checked once (``as_counts``,
    which names the argument in its errors) and held, a copy, as a ContingencyTable.

    Parameters
    ----------
    x : array-like, shape (K, Q)
        Non-negative whole counts.

    Returns
    -------
    ContingencyTable
        The table, rows and columns labelled 0..K-1 and 0..Q-1, its empty ones dropped.

    Raises
    ------
    TypeError, ValueError
        ``x`` is not one table of counts (as ``as_counts`` says).

    See Also
    --------
    ContingencyTable : The same table, with labels and names.

    Examples
    --------
    >>> table_of_counts([[3, 1], [0, 2]]).n
    6
    """
    arr = as_counts(x, allow_batch=False)
    table = ContingencyTable.__new__(ContingencyTable)
    table._hold(arr, np.arange(arr.shape[0]), np.arange(arr.shape[1]), ("x", "y"), owned=False)
    return table


def check_axis_labels(labels, size: int, name: str) -> np.ndarray:
    if labels is None:
        return np.arange(size)
    out = np.asarray(labels if not isinstance(labels, pd.Index) else labels.to_numpy())
    if out.ndim != 1 or len(out) != size:
        raise ValueError(f"{name} must have one label per {name[:3]} ({size}), got {len(out)}")
    return out


# -- cross-classification --------------------------------------------------------------------


def as_counts(x, allow_batch: bool = True) -> np.ndarray:
    """x given alone: a K x Q table of counts (or a batch of them), checked."""
    if not isinstance(x, (str, bytes)):
        try:
            one_d = np.ndim(x) == 1
        except ValueError:
            one_d = False
        if one_d:
            raise TypeError(
                "y is missing: pass two clusterings x and y, or x alone as a K x Q table of "
                "counts (x here is 1-D, like labels)")
    return check_counts(x, X_TABLE,
                        allow_batch=allow_batch)


@fill_doc
def margin_table(rows, cols) -> np.ndarray:
    """A table with the given margins, by the north-west corner rule.

    Any table with these margins defines the same permutation null (both margins fixed), so
    this one serves to ask for the null law of margins alone.

    Parameters
    ----------
    %(rows, cols)s

    Returns
    -------
    ndarray of int64, shape (K, Q)
        A table whose row sums are ``rows`` and column sums ``cols``.

    See Also
    --------
    clusteragree.nulls.null_distribution : The null law of an index given a table.
    clusteragree.nulls.random_tables : Random tables with given margins.

    Examples
    --------
    >>> nd = ca.nulls.null_distribution(margin_table([50, 30], [40, 40]), index="rand")
    >>> round(nd.mean, 5)                          # Amorim (2015), Table 8
    0.49968
    >>> margin_table([3, 2], [1, 4]).tolist()
    [[1, 2], [0, 2]]
    """
    r = np.asarray(rows, dtype=np.int64).ravel().copy()
    c = np.asarray(cols, dtype=np.int64).ravel().copy()
    if r.size == 0 or c.size == 0 or (r < 0).any() or (c < 0).any():
        raise ValueError("rows and cols must be non-empty, non-negative margins")
    if r.sum() != c.sum() or r.sum() == 0:
        raise ValueError(f"rows and cols must have the same positive total, got {r.sum()} and "
                         f"{c.sum()}")
    out = np.zeros((r.size, c.size), dtype=np.int64)
    i = j = 0
    while i < r.size and j < c.size:
        m = min(r[i], c[j])
        out[i, j] = m
        r[i] -= m
        c[j] -= m
        if r[i] == 0:
            i += 1
        else:
            j += 1
    return out


#: The largest number of objects a table may hold: every count and pair count is then exact
#: (integers up to 2^53 are exact in double precision; sums of squares use Python integers).
MAX_COUNT = 2**53


#: How an error names ``x`` given alone, as a table of counts (dense or sparse).
X_TABLE = "x (a table of counts, since y is not given)"


def _too_large(name: str) -> str:
    return (f"{name} holds more than 2**53 objects in a table: counts this large cannot be "
            "held exactly in double precision, which every index needs")


def check_total(values, name: str) -> None:
    """Refuse counts of one table whose total passes 2**53, in any dtype, before any sum that
    could overflow.

    Each count is compared with 2**53 in its own dtype (exact for int64, uint64 and float64),
    then the counts are summed in floats, whose rounding cannot take a total above 2**53
    below 2**52; only a total that comes near is summed again in exact Python integers.

    Parameters
    ----------
    values : array-like
        The non-negative whole counts of one table (any shape; the non-zero cells of a sparse
        table), already checked to be such.
    name : str
        The argument's name, for the error.

    Raises
    ------
    ValueError
        The counts hold more than 2**53 objects.

    See Also
    --------
    ContingencyTable : Its counts are checked the same way.

    Examples
    --------
    >>> check_total(np.array([2**52, 2**52], dtype=np.uint64), "counts")   # 2**53: exact
    >>> check_total([2**53, 1], "counts")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: counts holds more than 2**53 objects in a table: ...
    """
    v = np.asarray(values).ravel()
    if v.dtype != object:
        if not v.size:
            return
        if v.max() > MAX_COUNT:
            raise ValueError(_too_large(name))
        if v.sum(dtype=float) < MAX_COUNT / 2:
            return
    if sum(int(c) for c in v.tolist()) > MAX_COUNT:
        raise ValueError(_too_large(name))


def check_counts(counts, name: str = "counts", *, allow_batch: bool = True) -> np.ndarray:
    """Return a contingency table (or a batch of them) as an int64 array of shape (..., K, Q).

    Counts must be finite, non-negative whole numbers; a table needs at least one object.
    """
    try:
        arr = np.asarray(counts)
    except ValueError as exc:
        raise TypeError(f"{name} must be a 2-D table of counts: {exc}") from None
    if arr.dtype == object and arr.size and all(
            isinstance(v, numbers.Integral) for v in arr.ravel().tolist()):
        if max(abs(int(v)) for v in arr.ravel().tolist()) > MAX_COUNT:
            raise ValueError(_too_large(name))
    kind = arr.dtype.kind
    if kind not in "biufc":  # numbers or booleans (objects, strings, dates are not counts)
        raise TypeError(f"{name} must hold numbers (counts), got dtype {arr.dtype}")
    if kind == "c":
        raise TypeError(f"{name} must hold real counts, got complex numbers")
    if arr.ndim < 2:
        raise ValueError(
            f"{name} must be a 2-D table (K rows x Q columns), got {arr.ndim}-D input of shape "
            f"{arr.shape}; for two label vectors use crosstab(x, y)"
        )
    if arr.ndim > 2 and not allow_batch:
        raise ValueError(f"{name} must be one 2-D table, got shape {arr.shape}")
    if arr.shape[-1] == 0 or arr.shape[-2] == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape}): a table needs a row and a column")
    if kind == "f":
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} contains NaN or infinite values; counts must be finite")
        if np.any(arr != np.round(arr)):
            raise ValueError(f"{name} must hold whole numbers (counts of objects), got fractions")
    if not arr.size:  # an empty batch of tables
        return arr.astype(np.int64, copy=False)
    if kind in "if" and arr.min() < 0:  # unsigned and boolean counts cannot be negative
        raise ValueError(f"{name} must be non-negative counts, got a negative value {arr.min()}")
    # each table's total in floats: 0 exactly when the table is empty (non-negative counts)
    approx = arr.sum(axis=(-2, -1), dtype=float).ravel()
    if approx.max() >= MAX_COUNT / 2:
        near = np.flatnonzero(approx >= MAX_COUNT / 2)  # check these in exact integers
        flat = arr.reshape((-1,) + arr.shape[-2:])
        if any(sum(int(v) for v in flat[i].ravel().tolist()) > MAX_COUNT for i in near):
            raise ValueError(_too_large(name))
    if np.any(approx == 0):
        raise ValueError(f"{name} has a table with no objects (all counts are 0)")
    return arr.astype(np.int64, copy=False)
