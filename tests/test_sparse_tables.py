"""Sparse contingency tables (issue 21, item 1): many clusters kept as their non-zero cells."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse
from sklearn import metrics

import clusteragree as ca
from clusteragree.indices import REGISTRY, TableIndex, evaluate, evaluate_sparse
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


# -- issue 29, item 4: counts beyond 2**53 are refused, sparse as dense ------------------------

def _too_many():
    """The refusal the dense path gives, naming x."""
    return (r"^x \(a table of counts, since y is not given\) holds more than 2\*\*53 objects "
            r"in a table: counts this large cannot be held exactly in double precision")


def _huge_tables():
    """Tables of more than 2**53 objects whose int64 sums overflow (to 2**53 + 5, to
    -2**63, past int64), in every form a table is given."""
    i = np.arange(2049)
    wraps = sparse.csr_array((np.r_[np.full(2048, 2**53, dtype=np.int64), 5], (i % 64, i // 64)))
    dense = [[2**62, 0], [0, 2**62]], [[2**63 - 1, 12], [2**63 - 1, 0]]
    out = {"csr 2,048 x 2**53 + 5": wraps}  # once ARI 2.0 and Rand -1.4e17
    for k, table in enumerate(dense):
        out[f"list {k}"] = table
        out[f"object {k}"] = np.array(table, dtype=object)
        out[f"uint64 {k}"] = np.array(table, dtype=np.uint64)
        out[f"float {k}"] = np.array(table, dtype=float)
        out[f"csr uint64 {k}"] = sparse.csr_array(np.array(table, dtype=np.uint64))
        out[f"csr float {k}"] = sparse.csr_array(np.array(table, dtype=float))
        out[f"batch {k}"] = np.array([[[1, 0], [0, 1]], table], dtype=object)
    out["int64 0"] = np.array(dense[0])
    out["csr int64 0"] = sparse.csr_array(np.array(dense[0]))  # once "n = -9223372036854775808"
    out["csc uint64 2**64 - 1"] = sparse.csc_array(np.array([[2**64 - 1, 0], [0, 1]],
                                                            dtype=np.uint64))
    # duplicate entries of one cell, each below 2**53, summing past it
    out["coo duplicates"] = sparse.coo_array((np.full(4, 2**52 + 1, dtype=np.int64),
                                              ([0, 0, 1, 1], [0, 0, 1, 1])), shape=(2, 2))
    return out


@pytest.mark.parametrize("name", list(_huge_tables()))
def test_more_than_2_to_the_53_objects_is_refused_in_every_form(name):
    """The sparse twin of a refused dense table used to give ARI 2.0, a negative n or an
    OverflowError: every form is refused, before any work, with the dense path's message."""
    table = _huge_tables()[name]
    with pytest.raises(ValueError, match=_too_many()):
        ca.agreement(table, index=["adjusted_rand", "rand"])
    if not name.startswith("batch"):
        with pytest.raises(ValueError, match=_too_many()):
            ca.agreement_test(table, index="rand", method="permutation", n_sim=9, seed=1)


def test_2_to_the_53_objects_exactly_are_taken_sparse_as_dense():
    """The bound itself is allowed, and the sparse table gives the dense table's values."""
    table = np.array([[2**52, 0], [1, 2**52 - 1]], dtype=np.uint64)
    dense = ca.agreement(table, index=["adjusted_rand", "rand"])
    for cells in (sparse.csr_array(table), sparse.coo_array(table.astype(float))):
        assert ca.agreement(cells, index=["adjusted_rand", "rand"]).tolist() == dense.tolist()
    with pytest.raises(ValueError, match=r"^cells holds more than 2\*\*53"):
        SparseContingencyTable(sparse.csr_array(np.array([[2**53, 1]], dtype=np.uint64)))


# -- one table protocol (issue 34 item 3) ----------------------------------------------------------

@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 2**32 - 1))
@settings(max_examples=30, deadline=None)
def test_dense_and_sparse_tables_answer_the_same_questions_alike(K, Q, seed):
    """Margins, n, shape, pairs, non-zero cells and the dense table: the same answers from both
    kinds of table, which tell themselves apart by ``dense`` alone."""
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 6, size=(K, Q)) * (rng.random((K, Q)) < 0.6)
    counts[0, 0] += 1
    dense = ca.ContingencyTable(counts)
    cells = SparseContingencyTable(sparse.csr_array(counts))
    assert dense.dense and not cells.dense
    for tab in (dense, cells):
        assert tab.shape == dense.counts.shape and tab.n == int(counts.sum())
        np.testing.assert_array_equal(tab.row_sums, dense.counts.sum(axis=1))
        np.testing.assert_array_equal(tab.col_sums, dense.counts.sum(axis=0))
        assert tab.pairs == dense.pairs and tab.nnz == np.count_nonzero(counts)
        np.testing.assert_array_equal(tab.values, dense.counts[dense.counts > 0])
        np.testing.assert_array_equal(tab.cells.toarray(), dense.counts)
        assert tab.to_dense() == dense
    assert dense.to_dense() is dense


def test_each_index_record_says_whether_it_evaluates_sparse_cells():
    """``Index.sparse_cells`` is what ``evaluate_sparse`` does: an index it names is computed
    from the cells (as on the dense table), any other is refused as needing the dense table."""
    counts = np.array([[6, 2, 0], [1, 5, 2], [0, 1, 7]])
    dense = ca.ContingencyTable(counts)
    tab = SparseContingencyTable(sparse.csr_array(counts))
    able = 0
    for name, rec in REGISTRY.items():
        if not isinstance(rec, TableIndex) and rec.on_table is None:
            assert not rec.sparse_cells, name  # no form on a table at all
            continue
        if rec.sparse_cells:
            able += 1
            # criterion H's greedy pairing reads the dense table; its optimal one the cells
            opts = {**rec.options, **({"pairing": "optimal"} if "pairing" in rec.options else {})}
            got = evaluate_sparse(rec, tab, opts)
            want = float(evaluate(name, dense.counts, **opts))
            assert got == pytest.approx(want, rel=1e-12, abs=1e-12), name
        else:
            with pytest.raises(ValueError, match="needs the dense"):
                evaluate_sparse(rec, tab, dict(rec.options))
    assert able >= len(SPARSE_INDICES) + 5
