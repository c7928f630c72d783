"""Every input check of the package, in one place.

Each function checks one kind of argument and raises a ``TypeError`` (wrong kind of object) or a
``ValueError`` (right kind, wrong content) whose message names the argument and says what was
expected. Checks run before any work is done, so nothing is silently dropped and no result is a
silent nan.
"""

from __future__ import annotations

import difflib
import numbers
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence

import numpy as np
import pandas as pd

__all__ = [
    "check_clustering",
    "check_labels",
    "check_label_pair",
    "check_counts",
    "check_choice",
    "check_options",
    "check_positive_int",
    "check_bool",
    "check_real",
    "check_seed",
    "check_cover",
    "sets_to_memberships",
    "suggest",
]


def _describe(obj) -> str:
    return type(obj).__name__


def check_labels(labels, name: str) -> pd.Series | np.ndarray:
    """Return ``labels`` as a 1-D array or Series; refuse anything that is not 1-D labels.

    An (n, 1) array or one-column DataFrame is read as n labels. Each refusal names the
    argument, what it got and what is accepted."""
    accepted = "a list, numpy array or pandas Series of cluster labels, one per object"
    if labels is None:
        raise TypeError(f"{name} must be {accepted}, got None")
    if isinstance(labels, (str, bytes)):
        raise TypeError(
            f"{name} must be {accepted}, got the string {labels!r}; a column name is only "
            "understood together with data=DataFrame")
    if isinstance(labels, (set, frozenset)):
        raise TypeError(f"{name} is a set, whose order is arbitrary: labels must follow the "
                        f"objects' order; pass {accepted}")
    if isinstance(labels, Mapping):
        raise TypeError(f"{name} is a {_describe(labels)}: pass pd.Series(...) of it (its keys "
                        "become the index that pairs the objects) or list(....values())")
    if isinstance(labels, Iterator):
        raise TypeError(f"{name} is a {_describe(labels)} (an iterator): pass list(...) of it")
    if isinstance(labels, pd.DataFrame):
        if labels.shape[1] != 1:
            raise TypeError(
                f"{name} must be 1-D cluster labels, got a DataFrame with {labels.shape[1]} "
                "columns; pass one column")
        labels = labels.iloc[:, 0]
    if isinstance(labels, (pd.Series, pd.Index, pd.Categorical)):
        out = pd.Series(labels)
    else:
        if not isinstance(labels, (np.ndarray, Sequence)):
            raise TypeError(f"{name} must be {accepted}, got {_describe(labels)}")
        try:
            out = np.asarray(labels)
        except ValueError:  # ragged nested sequences
            raise TypeError(f"{name} is a ragged nested sequence (items of different lengths): "
                            f"labels must be 1-D, {accepted}") from None
        if out.ndim == 0:
            raise TypeError(f"{name} must be {accepted}, got a 0-d array")
        if out.ndim == 2 and out.shape[1] == 1:
            out = out[:, 0]  # a column of labels
        if out.ndim != 1:
            raise ValueError(
                f"{name} must be 1-D cluster labels, got an array of shape {out.shape}; an "
                "(n, 1) column is read as labels, and membership matrices (objects x "
                "clusters, values in [0, 1]) are a different kind of input")
    if len(out) == 0:
        raise ValueError(f"{name} is empty: at least one object is needed")
    return out


def _missing_mask(labels) -> np.ndarray:
    return np.asarray(pd.isna(labels), dtype=bool)


JOINS = ("exact", "inner")


def _what(objs) -> str:
    kinds = {"Series" if isinstance(o, pd.Series) else "DataFrame" for o in objs}
    if kinds == {"Series"}:
        return "pandas Series"
    if kinds == {"DataFrame"}:
        return "pandas DataFrames"
    return "pandas objects (a Series and a DataFrame)"


def is_indexed(obj) -> bool:
    """A pandas Series or DataFrame: its index names its objects."""
    return isinstance(obj, (pd.Series, pd.DataFrame))


def common_objects(x, y, join: str = "exact", names=("x", "y")) -> pd.Index | None:
    """The index labels that pair the objects of two pandas objects (Series of labels,
    DataFrames of memberships or similarity matrices), in x's order; None when the two indexes
    are already equal (nothing to reorder).

    As pandas aligns: the same labels in any order (``join="exact"``; index sets that differ
    are an error saying how many labels are on one side only), or the labels in both
    (``join="inner"``, with a warning saying how many objects were left out). Duplicate index
    labels are refused: objects are paired by their index, which must be unique."""
    check_choice(join, "join", JOINS)
    for n, s in zip(names, (x, y)):
        if not s.index.is_unique:
            dup = s.index[s.index.duplicated()][0]
            raise ValueError(f"{n}'s index has duplicate labels (e.g. {dup!r}): objects are "
                             "paired by their index, which must be unique")
    if x.index.equals(y.index):
        return None
    only_x = x.index.difference(y.index)
    only_y = y.index.difference(x.index)
    if len(only_x) or len(only_y):
        if join != "inner":
            raise ValueError(
                f"{names[0]} and {names[1]} are {_what((x, y))} whose indexes differ: "
                f"{len(only_x)} label(s) of {names[0]}'s index are not in {names[1]}'s and "
                f"{len(only_y)} of {names[1]}'s are not in {names[0]}'s (objects are paired by "
                "their index); pass join='inner' to keep the objects in both")
        common = x.index.intersection(y.index, sort=False)
        if len(common) == 0:
            raise ValueError(f"{names[0]} and {names[1]} share no index label")
        warnings.warn(f"join='inner' left out {len(only_x)} object(s) of {names[0]} and "
                      f"{len(only_y)} of {names[1]} whose index labels are not in both",
                      UserWarning, stacklevel=4)
        return common
    return x.index


def take_objects(obj, objects):
    """The rows of a pandas object for the index labels ``objects`` (all of them, as they are,
    when ``objects`` is None or ``obj`` is not a pandas object)."""
    if objects is None or not is_indexed(obj):
        return obj
    return obj.loc[objects]


def _align(x: pd.Series, y: pd.Series, join: str, names):
    """Pair two Series by their index (``common_objects``)."""
    objects = common_objects(x, y, join, names)
    return take_objects(x, objects), take_objects(y, objects)


def check_label_pair(x, y, *, dropna: bool = False, names=("x", "y"), join: str = "exact"):
    """Check two label vectors of the same objects; drop or refuse missing labels.

    Two pandas Series are paired by their index (``join="exact"``: the same labels in any
    order; ``"inner"``: the labels in both); otherwise by position. Returns the two (possibly
    reordered or filtered) label vectors.
    """
    check_choice(join, "join", JOINS)
    x = check_labels(x, names[0])
    y = check_labels(y, names[1])
    if isinstance(x, pd.Series) and isinstance(y, pd.Series):
        x, y = _align(x, y, join, names)
    if len(x) != len(y):
        raise ValueError(
            f"{names[0]} and {names[1]} must label the same objects: "
            f"{names[0]} has {len(x)} labels, {names[1]} has {len(y)}"
        )
    if not isinstance(dropna, (bool, np.bool_)):
        raise TypeError(f"dropna must be True or False, got {dropna!r}")
    miss_x, miss_y = _missing_mask(x), _missing_mask(y)
    if miss_x.any() or miss_y.any():
        if not dropna:
            which = [n for n, m in zip(names, (miss_x, miss_y)) if m.any()]
            counts = ", ".join(
                f"{n}: {int(m.sum())}" for n, m in zip(names, (miss_x, miss_y)) if m.any()
            )
            raise ValueError(
                f"{' and '.join(which)} contain missing labels (NaN/None; {counts}); "
                "pass dropna=True to leave those objects out"
            )
        keep = ~(miss_x | miss_y)
        if not keep.any():
            raise ValueError("no object is labelled in both x and y once missing labels are dropped")
        x = x[keep] if isinstance(x, np.ndarray) else x[keep].reset_index(drop=True)
        y = y[keep] if isinstance(y, np.ndarray) else y[keep].reset_index(drop=True)
    return x, y


#: The largest number of objects a table may hold: every count and pair count is then exact
#: (integers up to 2^53 are exact in double precision; sums of squares use Python integers).
MAX_COUNT = 2**53


def _too_large(name: str) -> str:
    return (f"{name} holds more than 2**53 objects in a table: counts this large cannot be "
            "held exactly in double precision, which every index needs")


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
    if arr.dtype == object or not (
        np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_
    ):
        raise TypeError(f"{name} must hold numbers (counts), got dtype {arr.dtype}")
    if np.issubdtype(arr.dtype, np.complexfloating):
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
    if np.issubdtype(arr.dtype, np.floating):
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} contains NaN or infinite values; counts must be finite")
        if np.any(arr != np.round(arr)):
            raise ValueError(f"{name} must hold whole numbers (counts of objects), got fractions")
    if np.any(arr < 0):
        raise ValueError(f"{name} must be non-negative counts, got a negative value {arr.min()}")
    if arr.size:
        approx = arr.sum(axis=(-2, -1), dtype=float).ravel()
        near = np.flatnonzero(approx >= MAX_COUNT / 2)  # check these in exact integers
        flat = arr.reshape((-1,) + arr.shape[-2:])
        if any(sum(int(v) for v in flat[i].ravel().tolist()) > MAX_COUNT for i in near):
            raise ValueError(_too_large(name))
    arr = arr.astype(np.int64, copy=False)
    totals = arr.sum(axis=(-2, -1))
    if np.any(totals == 0):
        raise ValueError(f"{name} has a table with no objects (all counts are 0)")
    return arr


def suggest(name: str, choices: Iterable[str]) -> str:
    """A ' Did you mean ...?' suffix for an unknown name (empty if nothing is close)."""
    close = difflib.get_close_matches(name, list(choices), n=3, cutoff=0.6)
    if not close:
        return ""
    return " Did you mean " + " or ".join(repr(c) for c in close) + "?"


def check_choice(value, name: str, choices: Sequence[str]) -> str:
    """A string option that must be one of ``choices``."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {list(choices)}, got {value!r}")
    if value not in choices:
        raise ValueError(
            f"{name} must be one of {list(choices)}, got {value!r}." + suggest(value, choices)
        )
    return value


def check_options(options: dict, allowed: dict, owner: str) -> dict:
    """Keyword options of an index: refuse unknown names; fill in defaults."""
    unknown = set(options) - set(allowed)
    if unknown:
        bad = sorted(unknown)[0]
        hint = suggest(bad, allowed) if allowed else ""
        known = sorted(allowed) if allowed else "none"
        raise TypeError(f"{owner} got an unknown option {bad!r} (its options: {known}).{hint}")
    merged = dict(allowed)
    merged.update(options)
    return merged


def check_bool(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_real(value, name: str, what: str = "a number") -> float:
    """A finite real number (not a bool, not a string)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be {what}, got {value!r}")
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return float(value)


def check_positive_int(value, name: str, *, minimum: int = 1) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


def check_seed(seed, name: str = "seed") -> np.random.Generator:
    """A numpy Generator from None, an int, a SeedSequence or a Generator."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None or isinstance(seed, np.random.SeedSequence):
        return np.random.default_rng(seed)
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
        raise TypeError(
            f"{name} must be None, a non-negative int, a numpy SeedSequence or Generator, "
            f"got {_describe(seed)} {seed!r}"
        )
    if seed < 0:
        raise ValueError(f"{name} must be a non-negative int, got {seed}")
    return np.random.default_rng(int(seed))


# -- memberships and similarity matrices (fuzzy, overlapping, possibilistic clusterings) -------

#: The four kinds of membership matrices of Horta & Campello (2015, sec. 3): every object has
#: some membership (a row sum above 0).
MEMBERSHIP_KINDS = ("exclusive hard", "fuzzy", "non-exclusive hard", "possibilistic")
#: 0/1 memberships that leave an object in no cluster (a cover, e.g. a list of sets)
COVER_KIND = "non-exhaustive hard"
MATRIX_KIND = "similarity matrix"
#: Every kind of input an index of two clusterings may take (``PairIndex.kinds``).
KINDS = MEMBERSHIP_KINDS + (COVER_KIND, MATRIX_KIND)

KIND_DEFINITIONS = {
    "exclusive hard": "each object in exactly one cluster: labels, or one-hot 0/1 memberships",
    "fuzzy": "memberships in [0, 1], not all 0 or 1, summing to 1 for every object, like "
             "predict_proba",
    "non-exclusive hard": "0/1 memberships, every object in a cluster and some in several "
                          "(an overlapping hard clustering)",
    "possibilistic": "memberships in [0, 1], not all 0 or 1, whose sums differ from 1 for some "
                     "object",
    "non-exhaustive hard": "0/1 memberships that leave some object in no cluster (a cover, "
                           "e.g. a list of sets; objects may also be in several clusters)",
    "similarity matrix": "a symmetric n x n similarity, co-association or consensus matrix",
}


def _float_array(obj, name: str, what: str) -> np.ndarray:
    """``obj`` (array-like or DataFrame) as a float array, or a TypeError naming ``name``."""
    if isinstance(obj, pd.DataFrame):
        obj = obj.to_numpy()
    try:
        return np.asarray(obj, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be {what}") from None


def _row_sum_tolerance(obj, n_clusters: int) -> float:
    """How far from 1 a row of memberships may sum and still count as summing to 1: 1e-9 for
    double precision, more for memberships computed in single or half precision (a float32
    ``predict_proba`` row of k values sums to 1 within about k float32 epsilons)."""
    dtype = (np.result_type(*obj.dtypes) if isinstance(obj, pd.DataFrame)
             else getattr(obj, "dtype", None))
    if dtype is not None and np.issubdtype(dtype, np.floating):
        return max(1e-9, 8.0 * n_clusters * float(np.finfo(dtype).eps))
    return 1e-9


def classify_memberships(U: np.ndarray, atol: float = 1e-9) -> str:
    """The kind of a validated membership matrix (objects x clusters): exclusive hard (0/1, one
    1 per row), non-exclusive hard (0/1, every row a 1, some several), non-exhaustive hard
    (0/1 with an all-zero row), fuzzy (rows sum to 1 within ``atol``) or possibilistic."""
    sums = U.sum(axis=1)
    if np.all((U == 0) | (U == 1)):
        if np.any(sums == 0):
            return COVER_KIND
        return "exclusive hard" if np.all(sums == 1) else "non-exclusive hard"
    return "fuzzy" if np.allclose(sums, 1.0, rtol=0, atol=atol) else "possibilistic"


def describe_kind(U: np.ndarray, kind: str) -> str:
    """What makes ``U`` (validated memberships of that kind) that kind, naming a row."""
    sums = U.sum(axis=1) if kind != MATRIX_KIND else None
    if kind == "possibilistic":
        i = int(np.argmax(np.abs(sums - 1.0)))
        return f"memberships in [0, 1] whose sums are not all 1: row {i} sums to {sums[i]:.4g}"
    if kind == "non-exclusive hard":
        i = int(np.argmax(sums))
        return f"0/1 memberships with objects in several clusters: row {i} is in {int(sums[i])}"
    if kind == COVER_KIND:
        i = int(np.flatnonzero(sums == 0)[0])
        return f"0/1 memberships leaving objects in no cluster: row {i} is in none"
    if kind == MATRIX_KIND:
        return (f"square ({U.shape[0]} x {U.shape[0]}), symmetric, with a unit diagonal; "
                "memberships of n objects in n clusters are read as such from a DataFrame "
                "whose columns are not its index labels")
    return KIND_DEFINITIONS[kind]


def _labels_to_memberships(U, name: str) -> np.ndarray:
    labels = check_labels(U, name)
    if np.asarray(pd.isna(labels)).any():
        raise ValueError(f"{name} contains missing labels (NaN/None)")
    codes, _ = pd.factorize(np.asarray(labels), sort=False)
    out = np.zeros((len(codes), int(codes.max()) + 1))
    out[np.arange(len(codes)), codes] = 1.0
    return out


def _is_labels(U) -> bool:
    return isinstance(U, pd.Series) or (not isinstance(U, pd.DataFrame) and np.ndim(U) == 1)


def read_memberships(U, name: str = "U") -> tuple[np.ndarray, str]:
    """A membership matrix (objects x clusters) and its kind (``classify_memberships``).

    Entries must lie in [0, 1]; 1-D hard labels become one-hot memberships. A row of zeros (an
    object in no cluster) is allowed in 0/1 memberships only (a cover: the kind is then
    'non-exhaustive hard'); fuzzy and possibilistic memberships give every object some
    membership (Horta & Campello 2015, eq 1c)."""
    if _is_labels(U):
        return _labels_to_memberships(U, name), "exclusive hard"
    arr = _float_array(U, name, "a numeric membership matrix (objects x clusters)")
    if arr.ndim != 2:
        raise ValueError(
            f"{name} must be a membership matrix of shape (n_objects, n_clusters) or 1-D labels, "
            f"got shape {arr.shape}"
        )
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape})")
    if np.isnan(arr).any():
        raise ValueError(f"{name} contains NaN memberships")
    if arr.min() < 0 or arr.max() > 1:
        raise ValueError(
            f"{name} must hold memberships in [0, 1], got values from {arr.min():g} to "
            f"{arr.max():g}"
        )
    kind = classify_memberships(arr, _row_sum_tolerance(U, arr.shape[1]))
    if kind == "possibilistic":
        empty = np.flatnonzero(arr.sum(axis=1) == 0)
        if empty.size:
            raise ValueError(
                f"{name} has objects with no membership at all (all-zero rows, e.g. row "
                f"{empty[0]}); every object needs some membership (only 0/1 memberships, a "
                "cover, may leave an object in no cluster)"
            )
    return arr, kind


def check_memberships(U, name: str = "U") -> np.ndarray:
    """A membership matrix of shape (n_objects, n_clusters) with entries in [0, 1] (an all-zero
    row only in 0/1 memberships); 1-D hard labels are turned into one-hot memberships."""
    return read_memberships(U, name)[0]


def _frame_matrix(M: pd.DataFrame, name: str, objects=None) -> pd.DataFrame:
    """A similarity matrix given as a DataFrame: its index and its columns name the same
    objects (in any order); the rows and the columns are both put in the order of ``objects``
    (the labels that pair it with the other clustering), or of its own index."""
    for what, labels in (("index", M.index), ("columns", M.columns)):
        if not labels.is_unique:
            dup = labels[labels.duplicated()][0]
            raise ValueError(f"{name}'s {what} has duplicate labels (e.g. {dup!r}): a "
                             "similarity matrix names each object once")
    only_rows = M.index.difference(M.columns)
    only_cols = M.columns.difference(M.index)
    if len(only_rows) or len(only_cols):
        raise ValueError(
            f"{name} is a DataFrame read as a similarity matrix, whose rows and columns must "
            f"name the same objects: {len(only_rows)} label(s) of its index are not among its "
            f"columns and {len(only_cols)} column label(s) are not in its index; pass "
            "pd.DataFrame(M, index=labels, columns=labels)")
    rows = M.index if objects is None else objects
    return M.loc[rows, rows]


def _is_labelled_matrix(M) -> bool:
    """A square DataFrame whose columns are the labels of its index (the objects)."""
    return (isinstance(M, pd.DataFrame) and M.shape[0] == M.shape[1] and M.index.is_unique
            and M.columns.is_unique and set(M.index) == set(M.columns))


def check_similarity_matrix(M, name: str = "M", objects=None) -> np.ndarray:
    """A square, symmetric similarity / co-association / consensus matrix with finite entries.

    A DataFrame must name the same objects in its index and its columns; its rows and columns
    are put in the order of ``objects`` (or of its index)."""
    if isinstance(M, pd.DataFrame) and M.shape[0] == M.shape[1]:
        M = _frame_matrix(M, name, objects)
    arr = _float_array(M, name, "a numeric square matrix")
    if arr.ndim != 2 or arr.shape[0] != arr.shape[1]:
        raise ValueError(f"{name} must be a square (n x n) similarity matrix, got shape {arr.shape}")
    if arr.shape[0] < 2:
        raise ValueError(f"{name} must relate at least 2 objects, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} contains NaN or infinite entries")
    if not np.allclose(arr, arr.T, rtol=0, atol=1e-12):
        i, j = np.unravel_index(np.argmax(np.abs(arr - arr.T)), arr.shape)
        raise ValueError(
            f"{name} must be symmetric: {name}[{i}, {j}] = {arr[i, j]:g} but "
            f"{name}[{j}, {i}] = {arr[j, i]:g}"
        )
    return arr


def check_same_objects(n_x: int, n_y: int, names=("x", "y")) -> None:
    if n_x != n_y:
        raise ValueError(
            f"{names[0]} and {names[1]} must describe the same objects: {names[0]} has {n_x}, "
            f"{names[1]} has {n_y}"
        )


def _looks_like_similarity_matrix(arr: np.ndarray) -> bool:
    """A square symmetric array with a unit diagonal reads as a similarity matrix (for indices
    that take both memberships and matrices)."""
    return (arr.ndim == 2 and arr.shape[0] == arr.shape[1] and arr.shape[0] > 1
            and np.allclose(np.diag(arr), 1.0) and np.allclose(arr, arr.T))


def check_cover(U, name: str = "U") -> np.ndarray:
    """A cover: a binary membership matrix (n_objects x n_clusters, entries 0 or 1) in which an
    object may be in several clusters or in none (an all-zero row); every cluster needs an
    object (no all-zero column). 1-D hard labels are turned into one-hot memberships."""
    arr, kind = read_memberships(U, name)
    if kind not in ("exclusive hard", "non-exclusive hard", COVER_KIND):
        bad = ~((arr == 0) | (arr == 1))
        i, k = np.argwhere(bad)[0]
        raise ValueError(f"{name} must be a binary (0/1) membership matrix of a cover, got "
                         f"{name}[{i}, {k}] = {arr[i, k]:g} (a {kind} clustering)")
    _check_no_empty_cluster(arr, name)
    return arr


def _check_no_empty_cluster(arr: np.ndarray, name: str) -> None:
    empty = np.flatnonzero(arr.sum(axis=0) == 0)
    if empty.size:
        raise ValueError(f"{name} has clusters with no object (all-zero columns, e.g. column "
                         f"{empty[0]}); drop them")


def _is_list_of_sets(obj) -> bool:
    return (isinstance(obj, (list, tuple)) and len(obj) > 0
            and all(isinstance(s, (set, frozenset)) for s in obj))


def _sorted_objects(objects) -> list:
    try:
        return sorted(objects)
    except TypeError:  # labels of several types: any fixed order will do
        return sorted(objects, key=lambda o: (type(o).__name__, repr(o)))


def _n_rows(obj, name: str) -> int:
    if isinstance(obj, (pd.Series, pd.DataFrame)):
        return len(obj)
    shape = np.shape(obj)
    if not shape:
        raise TypeError(f"{name} must be a clustering (labels, a membership matrix or a list of "
                        f"sets), got {_describe(obj)}")
    return shape[0]


def sets_to_memberships(x, y, names=("x", "y")):
    """Two clusterings of which one or both are lists of sets (one set of objects a cluster)
    as binary membership matrices (objects x clusters, cluster k = the k-th set).

    * Both lists of sets: the objects are the union of all the sets of x and y (any hashable
      labels), in sorted order (an object in y's sets but in none of x's is an object x leaves
      in no cluster, an all-zero row).
    * One list of sets and one matrix or label vector of n objects: the sets hold the row
      positions 0..n-1 of the other clustering; a row in no set is in no cluster.

    Other inputs are returned as they are. An empty set is refused (a cluster needs an object).

    >>> U, V = sets_to_memberships([{"a", "b"}, {"b", "c"}], [{"a", "b", "c"}])
    >>> U.tolist(), V.tolist()
    ([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]], [[1.0], [1.0], [1.0]])
    """
    sets = [_is_list_of_sets(x), _is_list_of_sets(y)]
    if not any(sets):
        return x, y
    pair = [x, y]
    for obj, is_sets, name in zip(pair, sets, names):
        if is_sets:
            for k, s in enumerate(obj):
                if not s:
                    raise ValueError(f"{name}'s cluster {k} is an empty set: a cluster needs "
                                     "an object")
    if all(sets):
        objects = _sorted_objects(set().union(*x, *y))
        index = {o: i for i, o in enumerate(objects)}
        n = len(objects)
    else:
        other = 1 if sets[0] else 0
        n = _n_rows(pair[other], names[other])
        index = None
    out = []
    for obj, is_sets, name in zip(pair, sets, names):
        if not is_sets:
            out.append(obj)
            continue
        U = np.zeros((n, len(obj)))
        for k, s in enumerate(obj):
            if index is not None:
                rows = [index[o] for o in s]
            else:
                bad = [o for o in s if isinstance(o, (bool, np.bool_))
                       or not isinstance(o, numbers.Integral) or not 0 <= o < n]
                if bad:
                    raise ValueError(
                        f"{name}'s cluster {k} holds {bad[0]!r}: a list of sets compared with a "
                        f"clustering of {n} objects must hold their row positions 0..{n - 1} "
                        "(give both clusterings as lists of sets to use other labels)")
                rows = [int(o) for o in s]
            U[rows, k] = 1.0
        out.append(U)
    return out[0], out[1]


def _article(kind: str) -> str:
    return "an" if kind[0] in "aeiou" else "a"


def or_list(items) -> str:
    """'a', 'a or b', 'a, b or c'."""
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def kind_phrase(kind: str) -> str:
    """'a fuzzy clustering', 'an exclusive hard clustering', 'a similarity matrix'."""
    return f"{_article(kind)} {kind}" + ("" if kind == MATRIX_KIND else " clustering")


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
                () if _is_labels(obj) else np.shape(obj))
            if len(shape) != 2 or shape[0] != shape[1]:
                # not a matrix: read as the clustering it is, whose kind the record refuses
                try:
                    U, kind = read_memberships(rows, name)
                except (TypeError, ValueError):
                    raise ValueError(f"{name} must be a square (n x n) similarity matrix, got "
                                     f"shape {shape}") from None
                return U, "membership", kind
            return check_similarity_matrix(obj, name, objects), "matrix", MATRIX_KIND
        if not _is_labels(obj) and np.ndim(obj) == 2:
            # a DataFrame is a matrix only when its columns name its objects; an array when it
            # is square, symmetric and has a unit diagonal
            if isinstance(obj, pd.DataFrame):
                candidate = _frame_matrix(obj, name, objects) if _is_labelled_matrix(obj) else None
            else:
                candidate = obj
            if candidate is not None:
                arr = _float_array(candidate, name, "a numeric membership or similarity matrix")
                if _looks_like_similarity_matrix(arr):
                    return check_similarity_matrix(arr, name), "matrix", MATRIX_KIND
    fmt = next((f for f in ("membership", "partition", "cover") if f in accepted), None)
    if fmt is None:  # pragma: no cover - the registry declares one of these formats
        raise ValueError(f"{name}: this index takes {' or '.join(accepted)} inputs")
    if "matrix" not in accepted:
        # a similarity matrix given to an index of memberships is not read as n objects in n
        # clusters: its kind is named and the index's record refuses it (the identity, all
        # singletons, reads the same both ways and stays a partition)
        if _is_labelled_matrix(obj):
            M = _frame_matrix(obj, name, objects)
        elif isinstance(obj, pd.DataFrame) or _is_labels(obj):
            M = None
        else:
            M = obj
        shape = np.shape(M) if M is not None else ()
        if len(shape) == 2 and shape[0] == shape[1] > 1:  # square: read it to see
            try:
                arr = _float_array(M, name, "a numeric matrix")
            except TypeError:
                arr = None
            if (arr is not None and _looks_like_similarity_matrix(arr)
                    and not np.array_equal(arr, np.eye(arr.shape[0]))):
                return arr, fmt, MATRIX_KIND
    U, kind = read_memberships(rows, name)
    if fmt == "cover" and kind in ("exclusive hard", "non-exclusive hard", COVER_KIND):
        _check_no_empty_cluster(U, name)
    return U, fmt, kind
