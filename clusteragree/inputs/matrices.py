"""Similarity matrices: co-association, consensus and similarity matrices (n x n), as arrays or as
DataFrames that name their objects in their index and columns.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .memberships import float_array

__all__ = ["frame_matrix", "is_labelled_matrix", "check_similarity_matrix", "check_same_objects", "looks_like_similarity_matrix"]


def frame_matrix(M: pd.DataFrame, name: str, objects=None) -> pd.DataFrame:
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


def is_labelled_matrix(M) -> bool:
    """A square DataFrame whose columns are the labels of its index (the objects)."""
    return (isinstance(M, pd.DataFrame) and M.shape[0] == M.shape[1] and M.index.is_unique
            and M.columns.is_unique and set(M.index) == set(M.columns))


def check_similarity_matrix(M, name: str = "M", objects=None) -> np.ndarray:
    """A square, symmetric similarity / co-association / consensus matrix with finite entries.

    A DataFrame must name the same objects in its index and its columns; its rows and columns
    are put in the order of ``objects`` (or of its index)."""
    if isinstance(M, pd.DataFrame) and M.shape[0] == M.shape[1]:
        M = frame_matrix(M, name, objects)
    arr = float_array(M, name, "a numeric square matrix")
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


def looks_like_similarity_matrix(arr: np.ndarray) -> bool:
    """A square symmetric array with a unit diagonal reads as a similarity matrix (for indices
    that take both memberships and matrices)."""
    return (arr.ndim == 2 and arr.shape[0] == arr.shape[1] and arr.shape[0] > 1
            and np.allclose(np.diag(arr), 1.0) and np.allclose(arr, arr.T))
