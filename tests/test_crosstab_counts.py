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


# -- the per-call cost (issue 34): a table the package made is not checked again ---------------

tables_module = importlib.import_module("clusteragree.tables")


def _counting_checks(monkeypatch):
    """Count the calls of ``check_counts`` (where the tables module and its callers see it)."""
    calls = []
    real = tables_module.check_counts

    def counted(*args, **kwargs):
        calls.append(args[1] if len(args) > 1 else kwargs.get("name", "counts"))
        return real(*args, **kwargs)

    monkeypatch.setattr(tables_module, "check_counts", counted)
    return calls


@pytest.mark.parametrize("x, y", [
    (np.array([0, 0, 1, 2, 2]), np.array([1, 1, 0, 0, 3])),        # one chunk, from 0
    (np.array([-5, 7, 7, -5]), np.array([10**12, 3, 3, 3])),        # offsets, wide range
    (np.arange(100_000) % 7, np.arange(100_000) % 5 - 2),           # several chunks
    (["a", "b", "b"], [2.5, 2.5, 1.0]),                              # factorized labels
    (np.arange(5000) % 100, np.arange(5000) % 61),                  # too many cells for one pass
])
def test_a_table_counted_from_labels_is_not_checked_again(x, y, monkeypatch):
    calls = _counting_checks(monkeypatch)
    tab = ca.crosstab(x, y)
    assert calls == []
    again = ca.ContingencyTable(tab.counts, tab.row_labels, tab.col_labels, names=tab.names)
    assert again == tab and again.names == tab.names and not tab.counts.flags.writeable
    assert len(calls) == 1  # the public constructor checks what it is given
    pd.testing.assert_frame_equal(tab.to_frame(), pd.crosstab(pd.Series(x, name="x"),
                                                              pd.Series(y, name="y")),
                                  check_dtype=False, check_names=False)


def test_a_users_table_is_checked_once_and_refused_before_any_work(monkeypatch):
    calls = _counting_checks(monkeypatch)
    # ARI: a11 = 6, p = q = 12, T = 28: (6 - 144/28) / (12 - 144/28) = 1/8
    assert ca.agreement(np.array([[3, 1], [1, 3]])) == pytest.approx(0.125, abs=1e-15)
    assert calls == ["x (a table of counts, since y is not given)"]  # was checked twice
    for bad, match in [([[1, -1]], "non-negative"), ([[0.5, 1]], "whole numbers"),
                       ([[0, 0]], "no objects"), ([[1, np.nan]], "NaN"),
                       (np.array([[1, 2]], dtype="m8[s]"), "must hold numbers")]:
        with pytest.raises((TypeError, ValueError), match=match):
            ca.agreement(bad)
    user = np.array([[2, 0], [0, 0]])
    tab = ca.ContingencyTable(user)
    assert tab.counts.tolist() == [[2]] and user.flags.writeable  # a copy, the user's untouched
