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
    res = ca.compare_hierarchies(Za, Zb, n_permutations=49, seed=0, method="patefield",
                                 n_sim=200)
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
    res = ca.compare_hierarchies(Za, Zb, k=[2, 4, 8], method="exact", n_permutations=19,
                                 seed=0)
    A, B = as_hierarchy(Za).cuts([2, 4, 8]), as_hierarchy(Zb).cuts([2, 4, 8])
    for i, row in res.curve.iterrows():
        test = ca.agreement_test(A[i], B[i], index="fowlkes_mallows", method="exact")
        assert row["pvalue"] == test.pvalue
        assert row["pvalue_method"] == "exact"


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


def test_the_simultaneous_band_contains_the_moment_band():
    """q, the 95% quantile of max_k |z_k|, is above the pointwise normal quantile, so
    mean +- q sd contains mean +- 1.96 sd at every k (the exact-quantile pointwise band of a
    very discrete law at fine cuts can reach beyond it: see the report of issue 46)."""
    X = _data(30, seed=9)
    res = ca.compare_hierarchies(linkage(X, "ward"), linkage(_data(30, seed=10), "ward"),
                                 n_permutations=199, seed=1, method="patefield", n_sim=200)
    c = res.curve
    assert res.critical_value > 1.96
    z = 1.959963984540054
    assert (c["band_low"] <= c["null_mean"] - z * c["null_sd"] + 1e-12).all()
    assert (c["band_high"] >= c["null_mean"] + z * c["null_sd"] - 1e-12).all()
    coarse = c["k"] <= 10  # where the laws are not a few atoms
    assert (c.loc[coarse, "band_low"] <= c.loc[coarse, "band_low_pointwise"]).all()
    assert (c.loc[coarse, "band_high"] >= c.loc[coarse, "band_high_pointwise"]).all()
    assert 0 < res.global_pvalue <= 1


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
