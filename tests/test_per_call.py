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
