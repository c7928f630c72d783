"""Null laws of sparse contingency tables (partitions into many clusters): the closed-form
moments equal the dense table's, the label-permutation draws follow the exact law of the
permutation model, ``method="auto"`` (and the default) choose a method that serves a sparse
table and say so, and every method or index that needs the dense table is refused by name
before any work."""

from __future__ import annotations

import contextlib
import tracemalloc

import numpy as np
import pytest
from scipy import stats

import clusteragree as ca
from clusteragree.nulls.network import statistic_law
from clusteragree.nulls.sparse import permuted_cell_counts


def labels(n, K, keep=0.3, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, K, n)
    return x, np.where(rng.random(n) < keep, x, rng.integers(0, K, n))


@pytest.mark.parametrize("index", ["adjusted_rand", "rand", "nmi_sum",
                                   "adjusted_mutual_info"])
def test_closed_form_moments_of_a_sparse_table_equal_the_dense_tables(index):
    x, y = labels(400, 12, seed=1)
    sparse, dense = ca.crosstab(x, y, sparse=True), ca.crosstab(x, y, sparse=False)
    a = ca.nulls.null_distribution(sparse, index=index, method="hypergeometric")
    b = ca.nulls.null_distribution(dense, index=index, method="hypergeometric")
    assert a.mean == pytest.approx(b.mean, rel=1e-12, abs=1e-15)
    assert a.std == pytest.approx(b.std, rel=1e-12)
    ta = ca.agreement_test(sparse, index=index, method="hypergeometric")
    tb = ca.agreement_test(dense, index=index, method="hypergeometric")
    assert ta.statistic == pytest.approx(tb.statistic, rel=1e-12)
    assert ta.zscore == pytest.approx(tb.zscore, rel=1e-9)


@pytest.mark.parametrize("statistic", ["s", "t"])
def test_label_permutations_of_a_sparse_table_follow_the_exact_law(statistic):
    counts = np.array([[3, 1, 0, 1], [0, 2, 2, 0], [1, 0, 3, 2]])
    rows, cols = counts.sum(axis=1), counts.sum(axis=0)
    values, probs = statistic_law(rows, cols, statistic)
    rng = np.random.default_rng(7)
    cells = [permuted_cell_counts(rows, cols, rng) for _ in range(6000)]
    assert all(int(c.sum()) == rows.sum() and (c > 0).all() for c in cells)
    if statistic == "s":
        drawn = np.array([int((c * c).sum()) for c in cells], dtype=float)
    else:
        drawn = np.array([float((c * np.log(c)).sum()) for c in cells])
    where = np.searchsorted(values, drawn - 1e-9)
    assert np.allclose(values[where], drawn, atol=1e-9)  # every draw is a value of the law
    observed = np.bincount(where, minlength=len(values))
    expected = probs * len(drawn)
    big = expected >= 5  # chi-square on the cells with enough expectation, the rest pooled
    obs = np.append(observed[big], observed[~big].sum())
    exp = np.append(expected[big], expected[~big].sum())
    obs, exp = obs[exp > 0], exp[exp > 0]
    assert stats.chisquare(obs, exp).pvalue > 1e-3


def test_the_permutation_law_on_a_sparse_table_matches_the_dense_one():
    x, y = labels(3000, 300, seed=2)
    sparse, dense = ca.crosstab(x, y, sparse=True), ca.crosstab(x, y, sparse=False)
    laws = [ca.nulls.null_distributions(t, ["adjusted_rand", "rand", "nmi_sum"],
                                        method="permutation", n_sim=1500, seed=3)
            for t in (sparse, dense)]
    for name in ("adjusted_rand", "rand", "nmi_sum"):
        a, b = laws[0][name].samples, laws[1][name].samples
        assert stats.ks_2samp(a, b).pvalue > 1e-3
        assert laws[0][name].details["sparse"] is True
    exact_mean = ca.nulls.null_distribution(sparse, index="rand", method="hypergeometric").mean
    assert laws[0]["rand"].mean == pytest.approx(exact_mean, abs=4 * laws[0]["rand"].std
                                                 / np.sqrt(1500))


def test_the_default_method_on_a_sparse_table_is_auto_and_says_which_it_took():
    x, y = labels(3000, 300, seed=4)
    tab = ca.crosstab(x, y, sparse=True)
    res = ca.agreement_test(tab, index="adjusted_rand", seed=1)
    assert res.null.method == "permutation" and res.null.details["auto"] is True
    assert "chosen by method='auto'" in str(res)
    quick = ca.agreement_test(tab, index="adjusted_rand",
                              method=ca.NullSpec(method="auto", max_seconds=1e-6))
    assert quick.null.method == "hypergeometric"  # the draws would take too long
    # a dense table keeps its default (Patefield's sampler)
    small = ca.crosstab(*labels(300, 6, seed=4))
    assert ca.agreement_test(small, index="adjusted_rand", seed=1).null.method == "patefield"


def test_methods_and_indices_that_need_the_dense_table_are_refused_by_name():
    x, y = labels(3000, 300, seed=5)
    tab = ca.crosstab(x, y, sparse=True)
    with pytest.raises(ValueError, match=r"method='patefield' needs the dense table.* x 300 "
                                         r".*\['hypergeometric', 'permutation'\]"):
        ca.nulls.null_distribution(tab, index="adjusted_rand", method="patefield")
    with pytest.raises(ValueError, match="method='exact' needs the dense table"):
        ca.nulls.null_distribution(tab, index="adjusted_rand", method="exact")
    with pytest.raises(ValueError, match="no method of model='num' serves a sparse table"):
        ca.agreement_test(tab, index="adjusted_rand", model="num")
    with pytest.raises(ValueError, match=r"\['purity'\] need the dense table of each random "
                                         "draw"):
        ca.agreement_test(tab, index="purity", method="permutation")
    with pytest.raises(ValueError, match="'kappa' needs the dense .* x 300 table"):
        ca.agreement_test(tab, index="kappa", method="permutation")


@pytest.mark.parametrize("counts", [[[3, 1, 2]], [[2], [1], [4]], [[1, 0], [0, 1]], [[2]],
                                    [[1, 1]], [[2, 1, 0], [0, 1, 3]]])
def test_small_and_degenerate_sparse_tables_agree_with_the_exact_law(counts):
    counts = np.array(counts)
    sparse_tab = ca.crosstab(*_labels_of(counts), sparse=True)
    exact = ca.nulls.null_distribution(counts, index="rand", method="exact")
    drawn = ca.nulls.null_distribution(sparse_tab, index="rand", method="permutation",
                                       n_sim=3000, seed=2)
    values, probs = exact.values, exact.probabilities
    if len(values) == 1:  # one table: every draw is it
        assert np.all(drawn.samples == values[0])
        return
    freq = np.array([np.mean(np.isclose(drawn.samples, v)) for v in values])
    assert freq.sum() == pytest.approx(1.0)  # every draw is a value of the exact law
    assert np.abs(freq - probs).max() < 4 * np.sqrt(0.25 / 3000) + 1e-9
    moments = ca.nulls.null_distribution(sparse_tab, index="rand", method="hypergeometric")
    assert moments.mean == pytest.approx(exact.mean, rel=1e-12)


def _labels_of(counts):
    rows, cols = np.nonzero(counts)
    reps = counts[rows, cols]
    return np.repeat(rows, reps), np.repeat(cols, reps)


def test_each_permutation_draw_keeps_both_margins():
    rows, cols = np.array([5, 1, 7, 2]), np.array([3, 3, 9])
    keys = np.empty(rows.sum(), dtype=np.int64)
    rng = np.random.default_rng(11)
    for _ in range(50):
        cells = permuted_cell_counts(rows, cols, rng, keys=keys)
        assert cells.sum() == rows.sum()
        table = np.bincount(keys, minlength=rows.size * cols.size).reshape(rows.size, cols.size)
        np.testing.assert_array_equal(table.sum(axis=1), rows)  # the sorted keys of the draw
        np.testing.assert_array_equal(table.sum(axis=0), cols)
        np.testing.assert_array_equal(np.sort(table[table > 0]), np.sort(cells))


def test_compare_on_a_sparse_table_tests_and_says_why_it_has_no_intervals():
    x, y = labels(5000, 1500, seed=6)
    res = ca.compare(x, y, indices=["adjusted_rand", "nmi_sum"], seed=1)
    assert res["method"].tolist() == ["permutation", "permutation"]
    assert res["pvalue"].notna().all() and res["ci_low"].isna().all()
    assert any("no intervals: the" in note and "is sparse" in note
               for note in res.attrs["notes"])
    assert "no intervals" in str(ca.format_results(res))


def _no_variance_work(monkeypatch):
    """Make the windowed work estimate of the exact Var[MI] (every cell's window: 2.8 GB on
    4,909 x 4,912 clusters) fail if it is called."""
    from clusteragree._moments import mi_variance
    from clusteragree.indices import standardised

    def refused(*args):
        raise AssertionError("the windows of every cell were read")

    monkeypatch.setattr(mi_variance, "variance_work", refused)
    monkeypatch.setattr(standardised, "variance_work", refused)


@pytest.mark.parametrize("index", ["mutual_info", "adjusted_mutual_info", "smi"])
def test_hypergeometric_variance_on_many_clusters_is_refused_from_the_margins(index,
                                                                              monkeypatch):
    """Issue 29, item 8: 20,000 labels in about 5,000 clusters a side (4,909 x 4,912 cells) took
    8-40 s of CPU and 2.8 GB to predict the exact variance's time before refusing. The number
    of clusters alone bounds the work (``variance_work_floor``): the refusal reads no cell's
    window, allocates little, and names the method and what to use instead."""
    rng = np.random.default_rng(0)
    tab = ca.crosstab(rng.integers(0, 5000, 20_000), rng.integers(0, 5000, 20_000), sparse=True)
    assert tab.shape == (4909, 4912)
    _no_variance_work(monkeypatch)
    tracemalloc.start()
    try:
        with pytest.warns(UserWarning) if index == "smi" else contextlib.nullcontext():
            nd = ca.nulls.null_distribution(tab, index=index, method="hypergeometric")
        with pytest.raises(ValueError, match=r"4909 x 4912.*at least .* s .*method='hypergeo"
                                             r"metric'.*method='permutation' on a sparse"):
            nd.var
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 50e6  # bytes; reading the windows took 2.8e9


def test_smi_on_ten_thousand_clusters_a_side_stays_within_memory(monkeypatch):
    """Issue 29, item 8: smi on 10**4 x 10**4 clusters of 10**5 objects ended in numpy's
    MemoryError (the work estimate and the effective cell count each built K x Q arrays). The
    asymptotic moments need the margins only; the warning gives the exact variance's time as a
    lower bound."""
    rng = np.random.default_rng(0)
    tab = ca.crosstab(rng.integers(0, 10**4, 10**5), rng.integers(0, 10**4, 10**5), sparse=True)
    assert tab.shape == (10**4, 10**4)
    _no_variance_work(monkeypatch)
    tracemalloc.start()
    try:
        with pytest.warns(UserWarning, match=r"asymptotic variance.*at least .* s here"):
            value = ca.agreement(tab, index="smi")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert np.isfinite(value)
    assert peak < 50e6
    mi, emi = ca.agreement(tab, index="mutual_info"), ca.nulls.null_distribution(
        tab, index="mutual_info", method="hypergeometric").mean
    assert np.sign(value) == np.sign(mi - emi)
