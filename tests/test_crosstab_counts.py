"""The dense table from integer labels is counted in one pass over cache-sized chunks
(``crosstab``'s fast path): it must equal an independent count (pandas.crosstab) for every
integer dtype, at the ends of each dtype's range, with ranges found chunk by chunk, and must
fall back to the general path when the table is too large for it."""

from __future__ import annotations

import importlib

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clusteragree as ca

crosstab_module = importlib.import_module("clusteragree.inputs.crosstab")


def pandas_table(x, y):
    t = pd.crosstab(pd.Series(np.asarray(x).tolist()), pd.Series(np.asarray(y).tolist()))
    return t.to_numpy(), t.index.to_numpy(), t.columns.to_numpy()


def assert_same_as_pandas(x, y):
    tab = ca.crosstab(x, y)
    counts, rows, cols = pandas_table(x, y)
    np.testing.assert_array_equal(tab.counts, counts)
    assert tab.row_labels.tolist() == rows.tolist()
    assert tab.col_labels.tolist() == cols.tolist()


DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


@settings(max_examples=60, deadline=None, derandomize=True)
@given(dtype=st.sampled_from(DTYPES), where=st.sampled_from(["min", "zero", "max"]),
       n=st.integers(1, 3 * 2**15 + 7), kx=st.integers(1, 40), ky=st.integers(1, 60),
       seed=st.integers(0, 2**32 - 1))
def test_the_one_pass_count_equals_pandas_for_every_integer_dtype(dtype, where, n, kx, ky, seed):
    info = np.iinfo(dtype)
    lo = {"min": int(info.min), "zero": 0, "max": int(info.max) - max(kx, ky)}[where]
    rng = np.random.default_rng(seed)
    x = (rng.integers(0, kx, n) + lo).astype(dtype) if lo <= 2**62 else \
        np.array([lo + int(v) for v in rng.integers(0, kx, n)], dtype=dtype)
    y = (rng.integers(0, ky, n) + lo).astype(dtype) if lo <= 2**62 else \
        np.array([lo + int(v) for v in rng.integers(0, ky, n)], dtype=dtype)
    assert_same_as_pandas(x, y)


@pytest.mark.parametrize("order", ["increasing", "decreasing", "alternating"])
def test_ranges_found_chunk_by_chunk_give_the_same_table(order):
    n = 10 * 2**15
    x = np.arange(n) // (n // 40)  # each chunk brings new labels
    if order == "decreasing":
        x = x[::-1].copy()
    if order == "alternating":
        x = np.where(np.arange(n) % 2, x, -x)
    y = (x * 7) % 23 - 11
    assert_same_as_pandas(x, y)


def test_a_table_too_large_for_chunks_takes_the_general_path_with_the_same_result():
    rng = np.random.default_rng(3)
    n = 2**16
    x, y = rng.integers(0, 200, n), rng.integers(0, 100, n)  # 20,000 cells > the chunk limit
    assert crosstab_module._one_pass_counts(x, y) is None
    assert_same_as_pandas(x, y)
    x2, y2 = rng.integers(0, 20, n), rng.integers(0, 30, n)
    assert crosstab_module._one_pass_counts(x2, y2) is not None


def test_booleans_series_and_missing_values_keep_their_meaning():
    rng = np.random.default_rng(4)
    x = rng.random(1000) < 0.3
    y = pd.Series(rng.integers(0, 3, 1000), name="cl")
    tab = ca.crosstab(x, y)
    assert tab.row_labels.tolist() == [0, 1] and tab.names == ("x", "cl")
    assert_same_as_pandas(x, y)
    with pytest.raises(ValueError, match="missing labels"):  # nullable integers may be missing
        ca.crosstab(pd.Series([1, None, 2], dtype="Int64"), [0, 1, 1])
