"""Issue 34 item 6: an index from two integer label vectors without the structure's cost.

* The count: small-range non-negative integer labels are counted by one ``np.bincount`` of
  ``x * Q + y`` after one maximum per vector (read as unsigned: a negative label is a huge
  number), the table not validated again; any other labels take the general path, the same
  counts.
* One table of a pair-counting index is evaluated in Python floats (``pairs.pair_state``): the
  same IEEE-754 operations (+, -, *, /, sqrt, each correctly rounded) in the same order on the
  same doubles as the batched path, so the values are equal, not merely close.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clusteragree as ca
from clusteragree.indices import REGISTRY
from clusteragree.indices.pairs import pair_state

PAIR_COUNTING = sorted(name for name, rec in REGISTRY.items()
                       if getattr(rec, "state", None) is pair_state)


def test_every_pair_counting_index_is_covered():
    assert len(PAIR_COUNTING) >= 20 and {"adjusted_rand", "rand", "tversky"} <= set(
        PAIR_COUNTING)


@st.composite
def batches(draw):
    """A batch of tables of one shape, n >= 2 each: small counts with many degenerate tables
    (one row, one column, identical partitions, all singletons, empty rows), or counts of
    about 2^32 (sums of squares beyond int64: exact Python integers)."""
    K, Q = draw(st.integers(1, 5)), draw(st.integers(1, 5))
    B = draw(st.integers(1, 12))
    top = draw(st.sampled_from([1, 2, 3, 30]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    tables = rng.integers(0, top + 1, (B, K, Q)) * (rng.random((B, K, Q)) < draw(
        st.sampled_from([0.3, 0.7, 1.0])))
    if draw(st.booleans()):  # identical partitions (up to labels) in part of the batch
        m = min(K, Q)
        tables[: B // 2] = 0
        tables[: B // 2, np.arange(m), np.arange(m)] = rng.integers(1, top + 2, (B // 2, m))
    if draw(st.integers(0, 5)) == 0:
        tables = tables * np.int64(2**32 + 7)
    tables[..., 0, 0] += 2 - np.minimum(tables.sum(axis=(-2, -1)), 2)  # n >= 2
    return tables.astype(np.int64)


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(batches())
def test_one_table_in_python_floats_equals_the_batched_path(tables):
    for name in PAIR_COUNTING:
        rec = REGISTRY[name]
        batched = rec.on_counts(tables)
        one = np.array([float(rec.on_counts(t)) for t in tables])
        np.testing.assert_array_equal(one, batched, err_msg=name)
        if name == "adjusted_rand":
            assert [ca.agreement(t) for t in tables] == one.tolist()


def brute_force_table(x, y):
    """{(x label, y label): count} by a Python loop over the objects."""
    out = {}
    for a, b in zip(np.asarray(x).tolist(), np.asarray(y).tolist()):
        out[(a, b)] = out.get((a, b), 0) + 1
    return out


def table_cells(tab):
    rows, cols = tab.row_labels.tolist(), tab.col_labels.tolist()
    return {(rows[i], cols[j]): int(v) for (i, j), v in np.ndenumerate(tab.counts) if v}


LABEL_DTYPES = ["i1", "i2", "<i4", ">i4", "<i8", ">i8", "u1", "u2", "<u4", ">u8", "?"]


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(dx=st.sampled_from(LABEL_DTYPES), dy=st.sampled_from(LABEL_DTYPES),
       n=st.integers(1, 2**15 + 3), kx=st.integers(1, 70), ky=st.integers(1, 70),
       shift=st.sampled_from([0, 0, 1, -1, 60]), step=st.sampled_from([1, 1, 2]),
       seed=st.integers(0, 2**32 - 1))
def test_the_count_from_zero_equals_a_brute_force_count(dx, dy, n, kx, ky, shift, step, seed):
    # labels from 0 (the one-bincount path), from 1 (an empty row or column dropped), with a
    # negative label or far from 0 (the general path), strided, in either byte order
    rng = np.random.default_rng(seed)
    x = rng.integers(0, kx, n * step) + shift
    y = rng.integers(0, ky, n * step)
    if np.dtype(dx).kind in "u?":
        x = np.abs(x)
    x = (x % 2 if dx == "?" else x).astype(dx)[::step]
    y = (y % 2 if dy == "?" else y).astype(dy)[::step]
    tab = ca.crosstab(x, y)
    assert table_cells(tab) == brute_force_table(x, y)
    assert tab.n == n and tab.row_sums.tolist() == tab.counts.sum(axis=1).tolist()
    assert tab.col_sums.tolist() == tab.counts.sum(axis=0).tolist()
    assert (tab.counts.sum(axis=1) > 0).all() and (tab.counts.sum(axis=0) > 0).all()


def _calls(func, *args):
    import cProfile
    import pstats

    prof = cProfile.Profile()
    prof.runcall(func, *args)
    return pstats.Stats(prof)


def test_an_index_from_numpy_labels_pays_no_structural_glue():
    # before issue 34: 181 function calls and 11 numpy reductions per call (the labels' minima
    # and maxima, the margins and n counted again by the index), the group machinery for one
    # index; before issue 42 (item 5): 114 calls and 7 reductions (the maxima, margins, n and
    # the pair counts' sums, each a ufunc reduction: about 1 us a call on a small table)
    rng = np.random.default_rng(1)
    x, y = rng.integers(0, 10, 10**4), rng.integers(0, 10, 10**4)
    ca.agreement(x, y)  # the index's resolution is remembered from the first call
    stats = _calls(ca.agreement, x, y)
    reductions = sum(v[1] for k, v in stats.stats.items()
                     if k[2] == "<method 'reduce' of 'numpy.ufunc' objects>")
    names = {k[2] for k in stats.stats}
    assert reductions == 0 and stats.total_calls <= 100, (reductions, stats.total_calls)
    assert not names & {"check_counts", "check_axis_labels", "skip_undefined", "min", "max"}


def test_a_table_keeps_its_margins_read_only():
    tab = ca.crosstab(np.array([1, 1, 2, 3]), np.array([0, 0, 0, 4]))
    assert tab.row_sums.tolist() == [2, 1, 1] and tab.col_sums.tolist() == [3, 1]
    assert tab.n == 4 and tab.counts.shape == (3, 2)
    for margin in (tab.row_sums, tab.col_sums):
        with pytest.raises(ValueError, match="read-only"):
            margin[0] = 5
    user = ca.ContingencyTable([[0, 0], [3, 1]])
    assert user.row_sums.tolist() == [4] and user.col_sums.tolist() == [3, 1] and user.n == 4


@pytest.mark.parametrize("call, error, match", [
    (lambda x, y: ca.agreement(x, y, join="outer"), ValueError, "join must be one of"),
    (lambda x, y: ca.agreement(x, y, dropna="yes"), TypeError, "dropna must be True or False"),
    (lambda x, y: ca.agreement(x, y[:-1]), ValueError, "must label the same objects"),
    (lambda x, y: ca.agreement(x[:1], y[:1]), ValueError, "needs at least 2 objects"),
    (lambda x, y: ca.agreement(x, y, index="ari", base=2), TypeError, "unknown option"),
    (lambda x, y: ca.agreement(x, y, index="no_such"), ValueError, "no_such"),
])
def test_numpy_labels_are_still_refused_before_any_work(call, error, match):
    x, y = np.array([0, 0, 1, 1, 2]), np.array([1, 1, 0, 0, 0])
    with pytest.raises(error, match=match):
        call(x, y)


def test_labels_in_the_other_byte_order_are_counted():
    # before: unsigned 64-bit labels in big-endian order failed ("Cannot cast ufunc 'add'
    # output from float64 to int64"); a negative int8 label, read as unsigned, is 255: the
    # sign bit sends it to the general path
    x, y = np.array([0, 1, 1, 2], dtype="i1"), np.array([0, 2, 1, 2], dtype=">u8")
    assert table_cells(ca.crosstab(x, y)) == brute_force_table(x, y)
    x = np.array([-1, 0, 0, 1], dtype="i1")
    assert table_cells(ca.crosstab(x, y)) == brute_force_table(x, y)
    assert ca.crosstab(x, y).row_labels.tolist() == [-1, 0, 1]
