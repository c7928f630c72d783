"""Trees as inputs (``clusteragree.inputs.trees``) and ``ca.compare_hierarchies``: Bk at every
cut against scikit-learn, its null moments against the enumeration of all permutations, the
per-cut p-values against ``agreement_test``, refusals, and the simultaneous band."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from scipy.cluster.hierarchy import cut_tree, linkage

import clusteragree as ca
from clusteragree.inputs.trees import align_hierarchies, as_hierarchy

sklearn_metrics = pytest.importorskip("sklearn.metrics")
sklearn_cluster = pytest.importorskip("sklearn.cluster")


def _data(n, seed=0, dim=3):
    return np.random.default_rng(seed).normal(size=(n, dim))


def _merge_order_cut(Z, n, k):
    """The cut into k clusters by union-find over the first n - k merges (the definition)."""
    parent = list(range(2 * n - 1))

    def find(x):
        while parent[x] != x:
            x = parent[x]
        return x

    for i in range(n - k):
        parent[find(int(Z[i, 0]))] = n + i
        parent[find(int(Z[i, 1]))] = n + i
    return np.unique([find(x) for x in range(n)], return_inverse=True)[1]


@pytest.mark.parametrize("method", ["ward", "single", "average", "complete", "centroid"])
def test_cuts_are_scipys_and_have_k_clusters(method):
    """Every cut has exactly k clusters and is the first n - k merges; on a monotone tree
    without ties that is scipy's cut_tree (which, on the inversions of centroid linkage,
    returns fewer clusters than asked)."""
    X = _data(30, seed=1)
    Z = linkage(X, method)
    tree = as_hierarchy(Z)
    ks = list(range(1, 30))
    ours = tree.cuts(ks)
    theirs = cut_tree(Z, n_clusters=ks).T
    for i, k in enumerate(ks):
        assert len(np.unique(ours[i])) == k
        assert sklearn_metrics.adjusted_rand_score(ours[i], _merge_order_cut(Z, 30, k)) == 1.0 \
            or k == 1
        if tree.monotone:
            assert sklearn_metrics.adjusted_rand_score(ours[i], theirs[i]) == 1.0 or k == 1
    if method == "centroid":
        assert not tree.monotone


def test_cuts_with_tied_heights_follow_the_merge_order():
    """Tied heights (repeated points): every cut still has exactly k clusters, the first
    n - k merges of the linkage's rows (scipy's cut_tree departs from this on ties)."""
    X = np.round(_data(25, seed=2, dim=2), 1)
    X[:8] = X[0]
    Z = linkage(X, "complete")
    tree = as_hierarchy(Z)
    for k in range(1, 26):
        cut = tree.cut(k)
        assert len(np.unique(cut)) == k
        assert sklearn_metrics.adjusted_rand_score(cut, _merge_order_cut(Z, 25, k)) == 1.0


def test_bk_at_every_cut_is_sklearns_fowlkes_mallows():
    X = _data(24, seed=3)
    Za, Zb = linkage(X, "ward"), linkage(X, "single")
    res = ca.compare_hierarchies(Za, Zb, n_permutations=49, seed=0, method="permutation")
    ks = res.curve["k"].tolist()
    assert ks == list(range(2, 24))
    A, B = cut_tree(Za, n_clusters=ks).T, cut_tree(Zb, n_clusters=ks).T
    want = [sklearn_metrics.fowlkes_mallows_score(A[i], B[i]) for i in range(len(ks))]
    np.testing.assert_allclose(res.curve["statistic"], want, rtol=1e-12, atol=1e-15)


def _enumerated_moments(a, b):
    """Mean and variance of Bk over all n! relabellings of b's leaves."""
    n, k = len(a), int(a.max()) + 1
    q = int(b.max()) + 1
    values = []
    for perm in itertools.permutations(range(n)):
        t = np.bincount(a * q + b[list(perm)], minlength=k * q).reshape(k, q)
        T = (t ** 2).sum() - n
        P = (t.sum(1) ** 2).sum() - n
        Q = (t.sum(0) ** 2).sum() - n
        values.append(T / math.sqrt(P * Q))
    values = np.array(values)
    return values.mean(), values.var()


def test_bk_moments_are_those_of_all_permutations():
    n = 8
    X = _data(n, seed=4, dim=2)
    Za, Zb = linkage(X, "average"), linkage(_data(n, seed=5, dim=2), "complete")
    res = ca.compare_hierarchies(Za, Zb, k=[2, 3, 5], n_permutations=19, seed=0)
    A, B = as_hierarchy(Za).cuts([2, 3, 5]), as_hierarchy(Zb).cuts([2, 3, 5])
    for i, row in res.curve.iterrows():
        mean, var = _enumerated_moments(A[i], B[i])
        assert row["null_mean"] == pytest.approx(mean, rel=1e-12)
        assert row["null_sd"] ** 2 == pytest.approx(var, rel=1e-12)
        # Fowlkes & Mallows' (1983) mean: sqrt(P_k Q_k) / (n (n - 1))
        P = (np.bincount(A[i]) ** 2).sum() - n
        Q = (np.bincount(B[i]) ** 2).sum() - n
        assert row["null_mean"] == pytest.approx(math.sqrt(P * Q) / (n * (n - 1)), rel=1e-12)


def test_pvalue_per_cut_is_agreement_test_of_the_cuts():
    X = _data(16, seed=6)
    Za, Zb = linkage(X, "ward"), linkage(X, "average")
    A, B = as_hierarchy(Za).cuts([2, 4, 8]), as_hierarchy(Zb).cuts([2, 4, 8])
    for alternative in ("two-sided", "greater"):
        res = ca.compare_hierarchies(Za, Zb, k=[2, 4, 8], method="exact", n_permutations=19,
                                     seed=0, alternative=alternative)
        for i, row in res.curve.iterrows():
            test = ca.agreement_test(A[i], B[i], index="fowlkes_mallows", method="exact",
                                     alternative=alternative)
            assert row["pvalue"] == test.pvalue
            assert row["pvalue_method"] == "exact"
            low, high = test.null.quantile([0.025, 0.975] if alternative == "two-sided"
                                            else [0.05, 0.95])
            assert row["band_high_pointwise"] == high
            if alternative == "two-sided":
                assert row["band_low_pointwise"] == low


def test_another_index_of_the_table():
    X = _data(14, seed=7)
    Za, Zb = linkage(X, "ward"), linkage(X, "complete")
    res = ca.compare_hierarchies(Za, Zb, index="adjusted_rand", k=[3, 5], n_permutations=19,
                                 seed=0)
    A, B = as_hierarchy(Za).cuts([3, 5]), as_hierarchy(Zb).cuts([3, 5])
    for i, row in res.curve.iterrows():
        assert row["statistic"] == pytest.approx(
            sklearn_metrics.adjusted_rand_score(A[i], B[i]), rel=1e-12)
        assert row["null_mean"] == pytest.approx(0.0, abs=1e-12)


def test_agglomerative_clustering_gives_the_linkages_curve():
    X = _data(20, seed=8)
    model = sklearn_cluster.AgglomerativeClustering(n_clusters=None, distance_threshold=0,
                                                    linkage="ward").fit(X)
    by_model = ca.compare_hierarchies(model, linkage(X, "average"), n_permutations=49, seed=3,
                                      method="patefield", n_sim=100)
    by_linkage = ca.compare_hierarchies(linkage(X, "ward"), linkage(X, "average"),
                                        n_permutations=49, seed=3, method="patefield",
                                        n_sim=100)
    cols = ["k", "statistic", "null_mean", "null_sd", "band_low", "band_high"]
    pd.testing.assert_frame_equal(by_model.curve[cols], by_linkage.curve[cols], rtol=1e-10)


def _erl_pvalue_by_hand(curves, alternative):
    """The extreme rank length p-value of curve 0 among the curves (rows), by the
    definition: pointwise counts of curves at least as far out, each curve's counts sorted
    increasingly, curves compared as Python tuples (lexicographically)."""
    N, m = curves.shape
    counts = np.empty((N, m), dtype=int)
    for j in range(m):
        col = curves[:, j]
        for i in range(N):
            ge = int((col >= col[i]).sum())
            le = int((col <= col[i]).sum())
            counts[i, j] = {"greater": ge, "less": le}.get(alternative, min(ge, le))
    keys = [tuple(sorted(row)) for row in counts]
    return np.array([sum(kk <= keys[i] for kk in keys) / N for i in range(N)])


@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_the_simultaneous_band_is_the_extreme_rank_envelope(alternative, monkeypatch):
    """The global p-value and the band are those of the extreme rank length ordering of the
    observed and permuted curves, recomputed here by hand from the same permutations."""
    from clusteragree.inference import hierarchies as mod

    X = _data(30, seed=9)
    Za, Zb = linkage(X, "ward"), linkage(_data(30, seed=10), "ward")
    seen = {}
    original = mod._joint_permutations

    def spy(*args, **kwargs):
        seen["permuted"] = original(*args, **kwargs)
        return seen["permuted"]

    monkeypatch.setattr(mod, "_joint_permutations", spy)
    res = ca.compare_hierarchies(Za, Zb, n_permutations=99, seed=1, method="permutation",
                                 alternative=alternative)
    c = res.curve
    curves = np.vstack([c["statistic"].to_numpy()[None, :], seen["permuted"]])
    pvals = _erl_pvalue_by_hand(curves, alternative)
    assert res.global_pvalue == pytest.approx(pvals[0], abs=1e-12)
    kept = curves[pvals > 0.05 + 1e-12]
    np.testing.assert_array_equal(c["band_high"], kept.max(axis=0))
    if alternative == "two-sided":
        np.testing.assert_array_equal(c["band_low"], kept.min(axis=0))
    else:
        assert np.isneginf(c["band_low"]).all()  # one-sided: no lower limit
        assert np.isneginf(c["band_low_pointwise"]).all()
    # the permuted curves themselves: those kept lie inside the band, by construction
    assert ((kept <= c["band_high"].to_numpy()) & (kept >= c["band_low"].to_numpy())).all()


def test_outside_the_band_means_a_small_global_pvalue():
    X = _data(40, seed=13)
    res = ca.compare_hierarchies(linkage(X, "ward"), linkage(X, "average"),
                                 n_permutations=199, seed=2, method="permutation")
    above, below = res.outside()
    assert above  # the two trees of one data set agree beyond chance
    assert res.global_pvalue <= res.alpha
    assert res.global_pvalue == pytest.approx(1 / 200)


def test_leaves_are_aligned_by_label():
    X = _data(12, seed=11)
    Za = linkage(X, "ward")
    names = [f"leaf{i}" for i in range(12)]
    order = np.random.default_rng(0).permutation(12)
    a = as_hierarchy(Za, leaves=names)
    parts = [pd.Series(as_hierarchy(linkage(X, "average")).cut(k), index=names).iloc[order]
             for k in range(1, 13)]
    b = as_hierarchy(parts)
    shuffled = ca.compare_hierarchies(a, b, n_permutations=19, seed=0, method="patefield",
                                      n_sim=50)
    plain = ca.compare_hierarchies(Za, linkage(X, "average"), n_permutations=19, seed=0,
                                   method="patefield", n_sim=50)
    np.testing.assert_allclose(shuffled.curve["statistic"], plain.curve["statistic"])


def test_refusals_name_what_is_wrong():
    with pytest.raises(ValueError, match="not nested"):
        as_hierarchy([[0, 0, 1, 1], [0, 1, 1, 2]])
    with pytest.raises(ValueError, match="not a valid linkage"):
        as_hierarchy(np.array([[0.0, 1.0, 1.0, 2.0], [0.0, 2.0, 2.0, 3.0]]))
    with pytest.raises(ValueError, match="different leaves"):
        align_hierarchies(as_hierarchy(linkage(_data(5), "ward"), leaves=list("abcde")),
                          as_hierarchy(linkage(_data(5), "ward"), leaves=list("abcdz")))
    with pytest.raises(ValueError, match="different leaves"):
        ca.compare_hierarchies(linkage(_data(5), "ward"), linkage(_data(6), "ward"))
    with pytest.raises(ValueError, match="compute_distances=True"):
        as_hierarchy(sklearn_cluster.AgglomerativeClustering(n_clusters=2).fit(_data(10)))
    with pytest.raises(ValueError, match="compute_full_tree=True"):
        X = _data(40)
        graph = pytest.importorskip("sklearn.neighbors").kneighbors_graph(X, 10)
        as_hierarchy(sklearn_cluster.AgglomerativeClustering(
            n_clusters=5, connectivity=graph, compute_distances=True,
            compute_full_tree=False).fit(X))
    with pytest.raises(ValueError, match="contingency table"):
        ca.compare_hierarchies(linkage(_data(6), "ward"), linkage(_data(6), "ward"),
                               index="agri")
    with pytest.raises(TypeError, match="a tree is"):
        as_hierarchy(3.0)
    with pytest.raises(ValueError, match="inversion"):
        Z = linkage(np.array([[0.0, 0.0], [1.0, 0.0], [0.5, 0.9]]), "centroid")
        tree = as_hierarchy(Z)
        assert not tree.monotone
        tree.check_monotone("the cophenetic correlation")


def test_printing_frame_and_plot(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    X = _data(15, seed=12)
    res = ca.compare_hierarchies(linkage(X, "ward"), linkage(X, "single"), k=[2, 3, 4],
                                 n_permutations=19, seed=0, progress=False)
    text = str(res)
    assert "fowlkes_mallows" in text and "simultaneous band" in text
    assert "outside the simultaneous band" in text
    assert "<table>" in res._repr_html_()
    assert res.to_frame()["k"].tolist() == [2, 3, 4]
    ax = res.plot()
    ax.figure.savefig(tmp_path / "bk.png")


# --- the pass over the merges (clusteragree.inputs.tree_cuts) ---------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from clusteragree.inputs.tree_cuts import (merge_arrays, pairs_together_by_merges,  # noqa: E402
                                           passes, size_power_sums)


def _pairs_by_tables(x, y):
    t = np.bincount(x * (y.max() + 1) + y).astype(np.int64)
    return int((t * (t - 1) // 2).sum())


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 40), seed=st.integers(0, 10**6),
       methods=st.sampled_from([("ward", "single"), ("average", "complete"),
                                ("centroid", "median"), ("single", "single")]))
def test_the_pass_counts_the_pairs_of_every_cut(n, seed, methods):
    """a11 at every cut, plain and with tree b's leaves permuted and reordered by label, is
    the pair count of the two cuts' table; the margins' power sums are the cuts' sizes."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, 2)), 1)  # ties too
    a = as_hierarchy(linkage(X, methods[0]))
    b = as_hierarchy(linkage(rng.normal(size=(n, 2)), methods[1])).reordered(
        rng.permutation(n))
    perm = rng.permutation(n)
    plain = pairs_together_by_merges(a, b)
    permuted = pairs_together_by_merges(a, b, perm)
    sums = size_power_sums(a, powers=(2, 3))
    for k in range(1, n + 1):
        x, y = a.cut(k), b.cut(k)
        assert plain[n - k] == _pairs_by_tables(x, y)
        assert permuted[n - k] == _pairs_by_tables(x, y[perm])
        sizes = np.bincount(x)
        assert sums[2][n - k] == (sizes ** 2).sum()
        assert sums[3][n - k] == (sizes ** 3).sum()


def test_passes_keep_the_steps_asked():
    X = _data(50, seed=21)
    a, b = as_hierarchy(linkage(X, "ward")), as_hierarchy(linkage(X, "average"))
    perms = np.stack([np.random.default_rng(i).permutation(50) for i in range(3)])
    steps = np.array([48, 0, 10, 30])
    got = passes(merge_arrays(a, b), perms, steps)
    for p in range(3):
        full = pairs_together_by_merges(a, b, perms[p])
        np.testing.assert_array_equal(got[p], full[steps])


def test_fowlkes_mallows_moments_are_the_exact_moments_at_every_cut():
    """Fowlkes & Mallows' closed form, vectorised over all cuts of two trees of 150 leaves,
    equals the package's exact moments of s (rational arithmetic) to 1e-12 relative."""
    from clusteragree.inference.hierarchies import fowlkes_mallows_moments

    X = _data(150, seed=22)
    Za, Zb = linkage(X, "ward"), linkage(_data(150, seed=23), "average")
    res = ca.compare_hierarchies(Za, Zb, n_permutations=0, method="normal")
    A, B = as_hierarchy(Za).cuts(res.curve["k"]), as_hierarchy(Zb).cuts(res.curve["k"])
    for i, row in res.curve.iterrows():
        ra, rb = np.bincount(A[i]), np.bincount(B[i])
        mom = ca.nulls.index_moments("fowlkes_mallows", ra, rb)
        assert row["null_mean"] == pytest.approx(mom["mean"], rel=1e-12)
        assert row["null_sd"] ** 2 == pytest.approx(mom["var"], rel=1e-12)
        m, v = fowlkes_mallows_moments(150, (ra ** 2).sum(), (ra ** 3).sum(), (rb ** 2).sum(),
                                       (rb ** 3).sum())
        assert row["null_mean"] == m and row["null_sd"] ** 2 == pytest.approx(v, rel=1e-15)


@pytest.mark.parametrize("index", ["adjusted_rand", "rand", "jaccard"])
def test_other_pair_indices_by_the_pass_and_cut_by_cut_agree(index):
    """The pass (trees as linkages) and the cut-by-cut path (the same trees as nested
    partitions) give the same curve, moments and permuted curves for the same seed."""
    n = 40
    X = _data(n, seed=24)
    Za, Zb = linkage(X, "ward"), linkage(X, "complete")
    parts = [as_hierarchy(Zb).cut(k) for k in range(1, n + 1)]
    fast = ca.compare_hierarchies(Za, Zb, index=index, n_permutations=39, seed=5,
                                  method="permutation")
    slow = ca.compare_hierarchies(Za, parts, index=index, n_permutations=39, seed=5,
                                  method="permutation")
    assert fast.all_cuts_pass and not slow.all_cuts_pass
    cols = ["statistic", "band_low", "band_high", "pvalue"]
    np.testing.assert_allclose(fast.curve[cols], slow.curve[cols], rtol=1e-12, atol=1e-14)
    rec = ca.get_index(index)
    if rec.linear:
        np.testing.assert_allclose(fast.curve["null_mean"], slow.curve["null_mean"],
                                   rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(fast.curve["null_sd"], slow.curve["null_sd"], rtol=1e-8)
    A, B = as_hierarchy(Za).cuts(fast.curve["k"]), as_hierarchy(Zb).cuts(fast.curve["k"])
    want = [ca.agreement(A[i], B[i], index=index) for i in range(len(A))]
    np.testing.assert_allclose(fast.curve["statistic"], want, rtol=1e-12, atol=1e-14)


def test_the_same_seed_gives_the_same_result_whatever_n_jobs():
    X = _data(60, seed=25)
    Za, Zb = linkage(X, "ward"), linkage(X, "single")
    one = ca.compare_hierarchies(Za, Zb, n_permutations=99, seed=7, method="permutation")
    two = ca.compare_hierarchies(Za, Zb, n_permutations=99, seed=7, method="permutation",
                                 n_jobs=2)
    pd.testing.assert_frame_equal(one.curve, two.curve)
    assert one.global_pvalue == two.global_pvalue


def test_without_permutations_there_is_no_simultaneous_band():
    X = _data(30, seed=26)
    res = ca.compare_hierarchies(linkage(X, "ward"), linkage(X, "average"), n_permutations=0)
    assert "band_high" not in res.curve and math.isnan(res.global_pvalue)
    assert (res.curve["pvalue_method"] == "normal approximation (exact moments)").all()
    few = ca.compare_hierarchies(linkage(X, "ward"), linkage(X, "average"), n_permutations=0,
                                 k=range(2, 22))
    assert (few.curve["pvalue_method"] == "exact").all()  # 20 cuts: each cut's own test
    assert "none (n_permutations = 0)" in str(res)
    with pytest.raises(ValueError, match="band='pointwise'"):
        res.outside()
    assert res.outside("pointwise")[0]
    assert "pointwise" in res.sentence()
    with pytest.raises(ValueError, match="n_permutations >= 1"):
        ca.compare_hierarchies(linkage(X, "ward"), linkage(X, "average"), n_permutations=0,
                               method="permutation")


def test_many_cuts_take_the_joint_permutations_pvalue():
    n = 60
    X = _data(n, seed=27)
    res = ca.compare_hierarchies(linkage(X, "ward"), linkage(X, "average"),
                                 n_permutations=49, seed=0)
    assert len(res.curve) == n - 2 > 20
    assert (res.curve["pvalue_method"] == "Monte Carlo (49 joint permutations)").all()
    assert res.curve["pvalue"].min() == pytest.approx(2 / 50)  # two-sided: twice 1 / 50
    assert res.sentence().startswith("tree_a and tree_b departed from chance at some cut")


def test_a_cut_by_cut_computation_too_large_is_refused():
    from clusteragree.inference import hierarchies as mod

    X = _data(30, seed=28)
    parts = [as_hierarchy(linkage(X, "average")).cut(k) for k in range(1, 31)]
    with pytest.raises(ValueError, match="give fewer cuts"):
        old = mod.MAX_TABULATED
        try:
            mod.MAX_TABULATED = 1000
            ca.compare_hierarchies(linkage(X, "ward"), parts, index="nmi")
        finally:
            mod.MAX_TABULATED = old


def test_work_larger_than_the_memory_is_refused_before_it_starts(monkeypatch):
    from clusteragree import _memory

    monkeypatch.setattr(_memory, "available_memory", lambda: 10_000)
    X = _data(30, seed=29)
    with pytest.raises(MemoryError, match="give fewer cuts"):
        ca.compare_hierarchies(linkage(X, "ward"), linkage(X, "average"))
    with pytest.raises(MemoryError, match="random sample of the leaves"):
        ca.cophenetic_test(linkage(X, "ward"), linkage(X, "average"))


def test_names_and_the_normal_pvalues_floor():
    X = _data(200, seed=30)
    res = ca.compare_hierarchies(linkage(X, "ward"), linkage(X, "average"), n_permutations=0,
                                 method="normal", names=("ward", "average"))
    assert res.names[0].startswith("ward (") and "ward and average" in res.sentence()
    p = res.curve["pvalue"]
    assert (p > 0).all() and p.min() == np.finfo(float).tiny  # far tails: never 0
    ct = ca.cophenetic_test(linkage(X[:30], "ward"), linkage(X[:30], "average"),
                            n_permutations=9, seed=0, names=("ward", "average"))
    assert "cophenetic correlation of ward and average" in ct.sentence()
    for bad in ("ward", ("ward",), ("ward", "")):
        with pytest.raises(ValueError, match="names"):
            ca.compare_hierarchies(linkage(X, "ward"), linkage(X, "average"), names=bad)
