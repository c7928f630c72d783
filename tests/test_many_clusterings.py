"""The entry record of K clusterings (``clusteragree.inputs.many``, issue 42 item 3): each
clustering coded once, and what the record gives equal to what the two- and three-clustering
conversions make from the labels themselves."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clusteragree as ca
from clusteragree.inputs.many import ManyClusterings, as_many_clusterings
from clusteragree.inputs.triples import as_three_way


def _labels(seed, n, ks):
    rng = np.random.default_rng(seed)
    return {f"c{i}": rng.integers(0, k, n) for i, k in enumerate(ks)}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 60),
       ks=st.lists(st.integers(1, 6), min_size=3, max_size=5))
def test_the_record_gives_the_tables_the_labels_give(seed, n, ks):
    labels = _labels(seed, n, ks)
    names = list(labels)
    many = as_many_clusterings(labels, reference=names[0])
    assert many.names == tuple(names[1:]) and many.reference == names[0] and many.n == n
    for i in range(len(many.names)):
        for j in range(len(many.names)):
            want = ca.crosstab(labels[many.names[i]], labels[many.names[j]])
            got = many.pair(i, j).table
            np.testing.assert_array_equal(got.counts, want.counts)
            assert list(got.row_labels) == list(want.row_labels)
            assert got.names == (many.names[i], many.names[j])
        ref = ca.crosstab(labels[names[0]], labels[many.names[i]]).counts
        np.testing.assert_array_equal(many.table(-1, i), ref)
    tw = many.three_way(0, 1)
    want = as_three_way(labels[names[0]], labels[names[1]], labels[names[2]])
    np.testing.assert_array_equal(tw.cells, want.cells)
    np.testing.assert_array_equal(tw.weights, want.weights)
    assert tw.shape == want.shape and tw.names == tuple(names[:3])


def test_names_equal_as_text_are_refused_not_merged():
    """Issue 45, trap 3: {1: a, "1": b} read as one clustering against itself."""
    a, b, c = [0, 0, 1, 1], [0, 1, 0, 1], [1, 1, 0, 0]
    with pytest.raises(ValueError, match=r"distinct as text, got 1 and '1'"):
        as_many_clusterings({1: a, "1": b, "c": c})
    with pytest.raises(ValueError, match=r"distinct as text"):
        ca.agreement_matrix({1: a, "1": b, "c": c})
    frame = pd.DataFrame({1: a, "1": b})
    with pytest.raises(ValueError, match="column names must be distinct"):
        as_many_clusterings(frame)


def test_every_refusal_names_what_is_wrong_before_any_work():
    with pytest.raises(TypeError, match="DataFrame .* dict .* list"):
        as_many_clusterings(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="at least two clusterings are needed, got 1 besides"):
        as_many_clusterings({"a": [0, 1], "b": [1, 0]}, reference="a")
    with pytest.raises(ValueError, match=r"reference='z' is not a clustering's name"):
        as_many_clusterings({"a": [0, 1], "b": [1, 0]}, reference="z")
    with pytest.raises(ValueError, match=r"clusterings\['b'\] has 3 labels"):
        as_many_clusterings({"a": [0, 1], "b": [1, 0, 1]})
    with pytest.raises(ValueError, match="missing labels"):
        as_many_clusterings({"a": [0, 1, None], "b": [1, 0, 1]})
    with pytest.raises(ValueError, match="pandas indexes differ"):
        as_many_clusterings([pd.Series([0, 1], index=[1, 2]), pd.Series([0, 1], index=[2, 3])])
    with pytest.raises(TypeError, match="matrix of shape"):
        as_many_clusterings({"a": np.eye(3), "b": [0, 1, 2]})
    many = as_many_clusterings({"a": [0, 1], "b": [1, 0]})
    assert as_many_clusterings(many) is many and isinstance(many, ManyClusterings)
    with pytest.raises(ValueError, match="no reference"):
        many.three_way(0, 1)


def test_a_list_is_named_by_position_and_a_vector_reference_is_named_reference():
    many = as_many_clusterings([[0, 0, 1], [0, 1, 1]], reference=np.array([1, 1, 0]))
    assert many.names == ("1", "2") and many.reference == "reference"
    assert many.pair(-1, 1).describe() == "reference and 2 (2 x 2 table, n = 3)"
