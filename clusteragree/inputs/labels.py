"""Labels: one labelling checked (hashable labels, no silent missing values), and two labellings
paired, by position or, for two pandas objects, by their index (as pandas aligns: the same labels
in any order, or with ``join="inner"`` the labels in both).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Mapping, Sequence

import numpy as np
import pandas as pd

from .._validate import describe_object

__all__ = ["check_labels", "JOINS", "is_indexed", "common_objects", "take_objects", "check_label_pair",
           "missing_mask"]


def check_labels(labels, name: str) -> pd.Series | np.ndarray:
    """Return ``labels`` as a 1-D array or Series; refuse anything that is not 1-D labels.

    An (n, 1) array or one-column DataFrame is read as n labels. Each refusal names the
    argument, what it got and what is accepted. Labels are told apart as Python values, as a
    dict or a pandas Series of objects tells them: 1 and "1" are two labels (1, 1.0 and True
    are one). A list that mixes strings with other labels is kept as objects (numpy would
    make every label a string, and 1 and "1" one label)."""
    if type(labels) is np.ndarray and labels.ndim == 1 and len(labels):
        return labels  # a 1-D numpy array of labels: what the checks below would return
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
        raise TypeError(f"{name} is a {describe_object(labels)}: pass pd.Series(...) of it (its keys "
                        "become the index that pairs the objects) or list(....values())")
    if isinstance(labels, Iterator):
        raise TypeError(f"{name} is a {describe_object(labels)} (an iterator): pass list(...) of it")
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
            raise TypeError(f"{name} must be {accepted}, got {describe_object(labels)}")
        try:
            out = np.asarray(labels)
        except ValueError:  # ragged nested sequences
            raise TypeError(f"{name} is a ragged nested sequence (items of different lengths): "
                            f"labels must be 1-D, {accepted}") from None
        if out.ndim == 0:
            raise TypeError(f"{name} must be {accepted}, got a 0-d array")
        if out.dtype.kind in "US" and not isinstance(labels, np.ndarray):
            out = _unless_mixed(labels, out)
        if out.ndim == 2 and out.shape[1] == 1:
            out = out[:, 0]  # a column of labels
        if out.ndim != 1:
            raise ValueError(
                f"{name} must be 1-D cluster labels, got an array of shape {out.shape}; an "
                "(n, 1) column is read as labels, and membership matrices (objects x "
                "clusters, values in [0, 1]) are a different kind of input")
    if len(out) == 0:
        raise ValueError(f"{name} is empty: at least one object is needed")
    if out.dtype == object:
        _check_hashable(out, name)
    return out


def _check_hashable(labels, name: str) -> None:
    """Labels are told apart as dict keys are: an unhashable one (a dict, a list) is refused by
    name, not by pandas' bare "unhashable type"."""
    for label in labels:
        try:
            hash(label)
        except TypeError:
            raise TypeError(f"{name} holds the label {label!r}, a {type(label).__name__}, which "
                            "cannot be a cluster label (labels must be hashable: numbers, "
                            "strings, tuples)") from None


def _unless_mixed(labels, strings: np.ndarray) -> np.ndarray:
    """A sequence numpy read as strings, as it is when it holds only strings; as objects when
    it mixes them with other labels (numbers, missing values), so that 1 and "1" stay apart
    and a missing value stays missing."""
    kind = str if strings.dtype.kind == "U" else bytes
    items = labels if strings.ndim == 1 else [v for row in labels for v in row]
    if all(issubclass(t, kind) for t in set(map(type, items))):
        return strings
    if strings.ndim == 1:
        objects = np.empty(len(labels), dtype=object)
        objects[:] = labels
        return objects
    return np.array(labels, dtype=object)


def missing_mask(labels) -> np.ndarray | None:
    """Where labels are missing; None, without a pass, for numpy integers and booleans."""
    if isinstance(labels.dtype, np.dtype) and labels.dtype.kind in "iub":
        return None  # no integer is missing: nothing to look at
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
    labels are refused: objects are paired by their index, which must be unique. ``join`` is
    checked by the public entry (``as_clusterings``, ``crosstab``)."""
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
    reordered or filtered) label vectors. ``join`` is checked by the public entry.
    """
    if (type(x) is np.ndarray and type(y) is np.ndarray and x.ndim == 1 and y.ndim == 1
            and 0 < len(x) == len(y) and x.dtype.kind in "iub" and y.dtype.kind in "iub"
            and (dropna is False or dropna is True)):
        return x, y  # two 1-D integer or boolean arrays of one length: no label is missing
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
    masks = (missing_mask(x), missing_mask(y))
    if masks[0] is None and masks[1] is None:  # integer or boolean labels: none is missing
        return x, y
    missing = {name: mask for name, mask in zip(names, masks)
               if mask is not None and mask.any()}
    if missing:
        if not dropna:
            counts = ", ".join(f"{n}: {int(m.sum())}" for n, m in missing.items())
            raise ValueError(
                f"{' and '.join(missing)} {'contain' if len(missing) > 1 else 'contains'} "
                f"missing labels (NaN/None; {counts}); "
                "pass dropna=True to leave those objects out"
            )
        keep = ~np.logical_or.reduce(list(missing.values()))
        if not keep.any():
            raise ValueError("no object is labelled in both x and y once missing labels are dropped")
        x = x[keep] if isinstance(x, np.ndarray) else x[keep].reset_index(drop=True)
        y = y[keep] if isinstance(y, np.ndarray) else y[keep].reset_index(drop=True)
    return x, y
