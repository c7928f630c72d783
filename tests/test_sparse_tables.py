"""Sparse contingency tables (issue 21, item 1): many clusters kept as their non-zero cells."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse
from sklearn import metrics

import clusteragree as ca
from clusteragree.indices import REGISTRY, TableIndex, evaluate_sparse
from clusteragree.sparse_tables import SparseContingencyTable, use_sparse

#: Every index computed on a sparse table: the functions of sum n_ij^2 or sum n_ij log n_ij.
SPARSE_INDICES = [name for name, rec in REGISTRY.items()
                  if isinstance(rec, TableIndex) and rec.statistic is not None]


@given(st.integers(1, 7), st.integers(1, 7), st.integers(0, 2**32 - 1))
@settings(max_examples=30, deadline=None)
def test_sparse_and_dense_tables_give_every_index_equal_to_1e12(K, Q, seed):
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 6, size=(K, Q)) * (rng.random((K, Q)) < 0.6)
    if counts.sum() < 4:
        counts[0, 0] += 4
    dense = ca.ContingencyTable(counts)
    tab = SparseContingencyTable(sparse.csr_array(counts))
    assert tab.shape == dense.shape and tab.pairs == dense.pairs
    for name in SPARSE_INDICES:
        rec = REGISTRY[name]
        if dense.n < rec.min_n:
            continue
        want = float(ca.agreement(dense, index=name))
        got = evaluate_sparse(rec, tab, {k: v for k, v in rec.options.items()})
        assert got == pytest.approx(want, rel=1e-12, abs=1e-12), name


def test_crosstab_keeps_many_clusters_sparse_and_agrees_with_scikit_learn():
    rng = np.random.default_rng(3)
    n, K = 20_000, 2_000
    x = rng.integers(0, K, n)
    y = np.where(rng.random(n) < 0.6, x, rng.integers(0, K, n))
    assert use_sparse(K, K, n)
    tab = ca.crosstab(x, y)
    assert isinstance(tab, SparseContingencyTable) and tab.n == n
    assert tab.nnz == len(set(zip(x.tolist(), y.tolist())))
    dense = ca.crosstab(x, y, sparse=False)
    np.testing.assert_array_equal(tab.cells.toarray(), dense.counts)
    got = ca.agreement(x, y, index=["ari", "ami", "nmi", "vi"])
    assert got["adjusted_rand"] == pytest.approx(metrics.adjusted_rand_score(x, y), rel=1e-12)
    assert got["adjusted_mutual_info"] == pytest.approx(
        metrics.adjusted_mutual_info_score(x, y), rel=1e-9)
    assert got["nmi_sum"] == pytest.approx(metrics.normalized_mutual_info_score(x, y),
                                           rel=1e-12)
    assert got["variation_of_information"] == pytest.approx(
        float(ca.agreement(dense, index="vi")), rel=1e-12)


def test_a_small_table_stays_dense_and_sparse_can_be_asked_for():
    x, y = [0, 0, 1, 1, 2], [0, 1, 1, 1, 2]
    assert isinstance(ca.crosstab(x, y), ca.ContingencyTable)
    tab = ca.crosstab(x, y, sparse=True)
    assert isinstance(tab, SparseContingencyTable)
    assert tab.to_dense() == ca.crosstab(x, y)
    assert float(ca.agreement(tab, index="ari")) == pytest.approx(
        float(ca.agreement(x, y, index="ari")), rel=1e-12)


def test_a_scipy_sparse_matrix_is_read_as_a_table():
    m = sparse.coo_matrix(([30, 20, 10, 20], ([0, 0, 1, 1], [0, 1, 0, 1])), shape=(3, 2))
    tab = SparseContingencyTable(m)
    assert tab.shape == (2, 2) and tab.n == 80  # the empty row is dropped
    assert float(ca.agreement(m, index="ari")) == pytest.approx(
        float(ca.agreement([[30, 20], [10, 20]], index="ari")), rel=1e-12)


def test_what_a_sparse_table_cannot_give_is_refused_by_name():
    tab = ca.crosstab(list(range(3000)), [i // 2 for i in range(3000)], sparse=True)
    with pytest.raises(ValueError, match="'kappa' needs the dense 3,000 x 1,500 table"):
        ca.agreement(tab, index="kappa")
    with pytest.raises(ValueError, match="method='patefield' needs the dense table, and this "
                                         "sparse table has 3,000 x 1,500 cells"):
        ca.agreement_test(tab, index="ari", method="patefield", n_sim=10)
    with pytest.raises(ValueError, match="its dense counts would take"):
        tab.counts  # noqa: B018
    with pytest.raises(TypeError, match="sparse must be"):
        ca.crosstab([0, 1], [0, 1], sparse="yes")


@pytest.mark.parametrize("cells, message", [
    (np.array([[1, 2]]), "scipy.sparse array"),
    (sparse.csr_array(np.array([[1, -2]])), "non-negative"),
    (sparse.csr_array(np.array([[1.5, 2.0]])), "whole counts"),
    (sparse.csr_array((2, 2), dtype=np.int64), "no objects"),
])
def test_bad_sparse_tables_are_refused(cells, message):
    with pytest.raises((TypeError, ValueError), match=message):
        SparseContingencyTable(cells)
