"""Memberships and covers: a fuzzy, probabilistic, overlapping or possibilistic clustering as an
(objects x clusters) matrix, its kind (Horta & Campello 2015, "Comparing hard and overlapping
clusterings", JMLR 16, sec. 3), and covers given as lists of sets of objects.
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from .._validate import describe_object
from .labels import check_labels

__all__ = ["MEMBERSHIP_KINDS", "COVER_KIND", "MATRIX_KIND", "KINDS", "KIND_DEFINITIONS", "float_array", "classify_memberships", "describe_kind", "is_labels", "read_memberships", "check_memberships", "check_cover", "check_no_empty_cluster", "sets_to_memberships", "or_list", "kind_phrase"]


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


def float_array(obj, name: str, what: str) -> np.ndarray:
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


def is_labels(U) -> bool:
    return isinstance(U, pd.Series) or (not isinstance(U, pd.DataFrame) and np.ndim(U) == 1)


def read_memberships(U, name: str = "U") -> tuple[np.ndarray, str]:
    """A membership matrix (objects x clusters) and its kind (``classify_memberships``).

    Entries must lie in [0, 1]; 1-D hard labels become one-hot memberships. A row of zeros (an
    object in no cluster) is allowed in 0/1 memberships only (a cover: the kind is then
    'non-exhaustive hard'); fuzzy and possibilistic memberships give every object some
    membership (Horta & Campello 2015, eq 1c)."""
    if is_labels(U):
        return _labels_to_memberships(U, name), "exclusive hard"
    arr = float_array(U, name, "a numeric membership matrix (objects x clusters)")
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
    check_no_empty_cluster(arr, name)
    return arr


def check_no_empty_cluster(arr: np.ndarray, name: str) -> None:
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
                        f"sets), got {describe_object(obj)}")
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
