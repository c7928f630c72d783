"""Set-matching indices and element-centric similarity on a sparse table equal their dense
forms: purity, the Van Dongen and F-measures from row and column maxima of the stored cells,
accuracy, criterion H (optimal) and PSI from a sparse bipartite matching, element-centric
similarity from its closed form."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse

import clusteragree as ca
from clusteragree.indices import evaluate_sparse, get_index
from clusteragree.sparse_tables import SparseContingencyTable

SPARSE_FORMS = [("purity", {}), ("inverse_purity", {}), ("van_dongen", {}),
                ("van_dongen_similarity", {}), ("f_measure", {}), ("f_measure", {"reference": "y"}),
                ("accuracy", {}), ("criterion_h", {"pairing": "optimal"}), ("psi", {}),
                ("psi", {"simplified": True}), ("psi", {"clip": False}), ("psi_distance", {}),
                ("element_centric", {})]


@st.composite
def sparse_tables(draw):
    K, Q = draw(st.integers(1, 9)), draw(st.integers(1, 9))
    density = draw(st.sampled_from([0.15, 0.4, 1.0]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    counts = rng.integers(1, draw(st.sampled_from([2, 5, 1000])), size=(K, Q))
    counts = counts * (rng.random((K, Q)) < density)
    counts[rng.integers(0, K), rng.integers(0, Q)] += 1  # at least one object
    return counts


def dense_value(name, counts, opts):
    rows, cols = np.flatnonzero(counts.sum(axis=1)), np.flatnonzero(counts.sum(axis=0))
    table = counts[np.ix_(rows, cols)]
    if name == "element_centric":
        x = np.repeat(np.arange(table.shape[0]), table.sum(axis=1))
        y = np.concatenate([np.repeat(np.arange(table.shape[1]), r) for r in table])
        return float(ca.agreement(x, y, index=name))
    return float(ca.agreement(table, index=name, **opts))


@settings(max_examples=80, deadline=None, derandomize=True)
@given(counts=sparse_tables(), which=st.integers(0, len(SPARSE_FORMS) - 1))
def test_each_sparse_form_equals_the_dense_index(counts, which):
    name, opts = SPARSE_FORMS[which]
    tab = SparseContingencyTable(sparse.csr_array(counts))
    if tab.n < get_index(name).min_n:
        return
    if name == "element_centric" and tab.n < 2:  # a similarity of pairs of objects
        with pytest.raises(ValueError, match="needs n >= 2"):
            evaluate_sparse(get_index(name), tab, opts)
        return
    got = evaluate_sparse(get_index(name), tab, opts)
    assert got == pytest.approx(dense_value(name, counts, opts), rel=1e-12, abs=1e-12)


def test_indices_of_many_clusters_from_labels_through_the_sparse_table():
    rng = np.random.default_rng(0)
    n, K = 20_000, 3_000
    x = rng.integers(0, K, n)
    y = np.where(rng.random(n) < 0.6, x, rng.integers(0, K, n))
    sp = ca.crosstab(x, y)
    assert isinstance(sp, SparseContingencyTable)
    dense = sp.to_dense()
    for name in ("purity", "van_dongen", "accuracy", "psi"):
        assert float(ca.agreement(x, y, index=name)) == pytest.approx(
            float(ca.agreement(dense, index=name)), rel=1e-12)
    ecs = float(ca.agreement(x, y, index="element_centric"))  # from the cells, not n x n
    counts, a, b = dense.counts, dense.row_sums, dense.col_sums
    assert ecs == pytest.approx((counts ** 2 / np.maximum.outer(a, b)).sum() / n, rel=1e-12)


def test_what_still_needs_the_dense_table_is_refused_by_name():
    tab = ca.crosstab(np.arange(3000), np.arange(3000) // 2, sparse=True)
    with pytest.raises(ValueError, match="pairing='greedy' needs the dense 3,000 x 1,500 table"):
        ca.agreement(tab, index="criterion_h")
    with pytest.raises(ValueError, match="'kappa' needs the dense 3,000 x 1,500 table"):
        ca.agreement(tab, index="kappa")
