"""Weighted cross-validation (Amorim 2015) and subsampling stability with 13AGRI (Horta &
Campello 2015): the procedures checked against independent computations on small data."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.cluster import AgglomerativeClustering, KMeans
from sklearn.datasets import make_blobs

import clusteragree as ca
from clusteragree.studies.stability import (QUASI_ZERO, _pairwise_agri, external_table,
                                    subsample_stability, weighted_cv)

TRIANGLE = [[0, 0], [6, 0], [3, 5]]  # three equally far-apart centres


@pytest.fixture(scope="module")
def blobs():
    X, y = make_blobs(n_samples=120, centers=TRIANGLE, cluster_std=0.6, random_state=3)
    return X, y


class Recorder:
    """A tiny estimator with fit/predict (no scikit-learn base class): nearest of the k
    quantile points of the first feature of the rows it was fitted on; it records those rows."""

    fitted_on: list = []

    def __init__(self, n_clusters=2):
        self.n_clusters = n_clusters

    def fit(self, X):
        Recorder.fitted_on.append(X.copy())
        q = (np.arange(self.n_clusters) + 0.5) / self.n_clusters
        self.centres_ = np.quantile(X[:, 0], q)
        return self

    def predict(self, X):
        return np.abs(X[:, :1] - self.centres_[None, :]).argmin(axis=1)

    def predict_proba(self, X):
        w = np.exp(-np.abs(X[:, :1] - self.centres_[None, :]))
        return w / w.sum(axis=1, keepdims=True)


class Rule:
    """predict ignores the fit: the sign of the first feature."""

    n_clusters = 2

    def fit(self, X):
        return self

    def predict(self, X):
        return (X[:, 0] > 0).astype(int)


# -- weighted cross-validation ---------------------------------------------------------------

@pytest.mark.parametrize("algorithm", ["kmeans", "em"])
def test_separated_blobs_give_a_near_diagonal_table_on_all_objects(blobs, algorithm):
    X, _ = blobs
    tab = weighted_cv(X, 3, algorithm, seed=1)
    assert tab.n == len(X) and tab.shape == (3, 3)
    assert tab.names == ("training", "test")
    assert ca.agreement(tab, index="ari") > 0.95
    # near-diagonal: each training cluster goes (almost) whole into one test cluster
    assert tab.counts.max(axis=1).sum() >= 0.97 * len(X)


def test_uniform_noise_is_much_less_stable_than_blobs(blobs):
    X, _ = blobs
    noise = np.random.default_rng(5).uniform(size=(120, 5))
    on_blobs = weighted_cv(X, 3, seed=2, repeats=3, indices="ari")["adjusted_rand"]
    on_noise = weighted_cv(noise, 3, seed=2, repeats=3, indices="ari")["adjusted_rand"]
    assert on_blobs.min() > 0.95
    assert on_noise.mean() < 0.6 < on_blobs.min()


def test_same_seed_same_table_and_repeats_are_reproducible(blobs):
    X, _ = blobs
    noise = np.random.default_rng(0).normal(size=(80, 3))
    for alg in ("kmeans", "em"):
        assert weighted_cv(noise, 4, alg, seed=7) == weighted_cv(noise, 4, alg, seed=7)
    a = weighted_cv(noise, 4, seed=7, repeats=3, indices=["ari", "nmi"], n_init=2)
    b = weighted_cv(noise, 4, seed=7, repeats=3, indices=["ari", "nmi"], n_init=2)
    pd.testing.assert_frame_equal(a, b)
    assert a["repeat"].tolist() == [0, 1, 2] and (a["n"] == 80).all()
    assert a["adjusted_rand"].nunique() > 1  # the repeats are different splits
    # each row is the index of its own table: recompute from the split's own stream
    tabs = [weighted_cv(noise, 4, seed=child.spawn(2)[0], n_init=2)
            for child in np.random.default_rng(7).spawn(3)]
    np.testing.assert_allclose(a["adjusted_rand"], [ca.agreement(t, index="ari") for t in tabs])
    assert a["k_training"].tolist() == [t.shape[0] for t in tabs]


def test_the_two_clusterings_are_fitted_on_complementary_halves_and_assign_everyone():
    X = np.column_stack([np.arange(41.0), np.zeros(41)])
    Recorder.fitted_on = []
    weighted_cv(X, 2, Recorder(), seed=3)
    first, second = (set(f[:, 0]) for f in Recorder.fitted_on)
    assert len(first) == 20 and len(second) == 21  # n // 2 and the rest
    assert first.isdisjoint(second) and first | second == set(X[:, 0])
    # a rule that ignores the fit labels everyone the same way twice: a diagonal table over n
    Y = np.random.default_rng(1).normal(size=(30, 2))
    tab = weighted_cv(Y, 2, Rule(), seed=0)
    expected = np.bincount((Y[:, 0] > 0).astype(int))
    np.testing.assert_array_equal(tab.counts, np.diag(expected))


def test_quasi_zero_weights_are_fitting_on_the_half():
    """The thesis' weighted fit (unit weights on the half, 1e-10 on the rest) and the fit on
    the half alone give the same partition of all objects (k-means from the same start)."""
    X, _ = make_blobs(n_samples=200, centers=4, cluster_std=2.0, random_state=4)
    half = np.random.default_rng(0).permutation(200)[:100]
    weights = np.full(200, QUASI_ZERO)
    weights[half] = 1.0
    start = X[half[:4]]
    on_half = KMeans(4, init=start, n_init=1).fit(X[half]).predict(X)
    weighted = KMeans(4, init=start, n_init=1).fit(X, sample_weight=weights).predict(X)
    np.testing.assert_array_equal(on_half, weighted)


def test_iadjust_columns_come_from_patefield_tables():
    X = np.random.default_rng(6).normal(size=(60, 2))
    df = weighted_cv(X, 3, seed=4, repeats=2, indices=["rand", "ari"], n_sim=400)
    assert {"rand_adjusted", "rand_pvalue", "adjusted_rand_adjusted"} <= set(df.columns)
    # ARI is already centred: its IADJUST value stays close to it; Rand moves towards ARI
    np.testing.assert_allclose(df["adjusted_rand_adjusted"], df["adjusted_rand"], atol=0.05)
    assert (df["rand_adjusted"] < df["rand"]).all()
    assert df["rand_pvalue"].between(0, 1).all()
    # the same as compare() on the repeat's own table with its own null stream
    child = np.random.default_rng(4).spawn(2)[1]
    fit_rng, null_rng = child.spawn(2)
    tab = weighted_cv(X, 3, seed=fit_rng)
    res = ca.compare(tab, indices=["rand"], method="patefield", n_sim=400, seed=null_rng)
    assert df.loc[1, "rand_adjusted"] == pytest.approx(res.loc["rand", "adjusted_mean"])
    assert df.attrs["null"].startswith("IADJUST")


def test_a_custom_estimator_with_fit_and_predict_works_and_one_without_predict_is_refused(blobs):
    X, _ = blobs
    tab = weighted_cv(X, 3, Recorder(), seed=0)
    assert tab.n == len(X)
    with pytest.raises(TypeError, match="AgglomerativeClustering has no predict"):
        weighted_cv(X, 3, AgglomerativeClustering())
    with pytest.raises(TypeError, match="estimator instance"):
        weighted_cv(X, 3, KMeans)

    class NoK:
        def fit(self, X):
            return self

        def predict(self, X):
            return np.zeros(len(X), int)

    with pytest.raises(ValueError, match="n_clusters or n_components"):
        weighted_cv(X, 3, NoK())


def test_external_table_has_classes_in_rows(blobs):
    X, y = blobs
    names = np.array(["a", "b", "c"])[y]
    tab = external_table(X, names, 3, "em", seed=1)
    assert tab.names == ("class", "cluster") and tab.row_labels.tolist() == ["a", "b", "c"]
    assert ca.agreement(tab, index="ari") > 0.95
    np.testing.assert_array_equal(tab.row_sums, np.bincount(y))
    frame = pd.DataFrame(X, index=np.arange(len(X))[::-1])
    with pytest.raises(ValueError, match="index differs"):
        external_table(frame, pd.Series(y), 3)
    with pytest.raises(ValueError, match="X has 120 rows, y has 119"):
        external_table(X, y[:-1], 3)
    with pytest.raises(ValueError, match="1 missing"):
        external_table(X, np.where(np.arange(120) == 5, None, names), 3)


# -- subsampling stability -------------------------------------------------------------------

def test_subsample_stability_picks_the_true_k_on_separated_blobs():
    X, _ = make_blobs(n_samples=90, centers=TRIANGLE, cluster_std=0.6, random_state=1)
    res = subsample_stability(X, ks=range(2, 6), algorithm="em", n_subsamples=6, seed=1)
    assert res.best_k == 3
    table = res.table.set_index("k")
    assert table.loc[3, "stability"] > 0.95
    assert table["n_pairs"].eq(15).all()
    assert res.prototypes[3].shape == (90, 3)  # memberships of ALL objects
    assert res.subsamples.shape == (6, 72)  # 80% of 90
    assert "best k = 3" in repr(res)


def test_stability_is_the_mean_pairwise_agri_of_memberships_of_all_objects():
    """Recompute Algorithm 2 independently from the recorded subsamples."""
    X = np.random.default_rng(2).normal(size=(40, 2))
    res = subsample_stability(X, ks=[2, 3], algorithm=Recorder(), n_subsamples=4,
                              fraction=0.5, seed=3)
    assert res.table.attrs["memberships"] == "probabilistic"
    for k in (2, 3):
        U = [Recorder(k).fit(X[rows]).predict_proba(X) for rows in res.subsamples]
        M = np.array([[ca.agreement(u, v, index="agri") for v in U] for u in U])
        np.testing.assert_allclose(res.agreements[k], M, atol=1e-12)
        row = res.table.set_index("k").loc[k]
        upper = M[np.triu_indices(4, 1)]
        assert row["stability"] == pytest.approx(upper.mean())
        assert row["sd"] == pytest.approx(np.std(upper, ddof=1))
        assert row["prototype"] == np.argmax(M.sum(axis=1))
        np.testing.assert_allclose(res.prototypes[k], U[int(row["prototype"])])
    assert res.best_k == res.table["k"][res.table["stability"].idxmax()]


def test_subsamples_are_drawn_once_without_replacement_and_are_reproducible():
    X = np.random.default_rng(3).normal(size=(50, 2))
    a = subsample_stability(X, ks=[2, 3, 4], algorithm="kmeans", n_subsamples=5, seed=9,
                            n_init=1)
    b = subsample_stability(X, ks=[2, 3, 4], algorithm="kmeans", n_subsamples=5, seed=9,
                            n_init=1)
    pd.testing.assert_frame_equal(a.table, b.table)
    assert a.subsamples.shape == (5, 40)
    assert all(len(set(s)) == 40 for s in a.subsamples)
    # the streams of one k do not depend on the other ks asked for
    c = subsample_stability(X, ks=[3], algorithm="kmeans", n_subsamples=5, seed=9,
                            n_init=1)
    np.testing.assert_array_equal(c.agreements[3], a.agreements[3])
    assert a.table.attrs["memberships"] == "hard"


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(3, 5), st.integers(0, 2**32 - 1))
def test_hard_memberships_take_the_ari_shortcut_which_equals_agri(k, B, seed):
    """13AGRI = ARI on exclusive hard clusterings (Horta & Campello 2015)."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, k, size=(B, 12))
    U = [np.eye(k)[lab] for lab in labels]
    M = _pairwise_agri(U, hard=True)
    for i in range(B):
        for j in range(B):
            expected = ca.agreement(labels[i], labels[j], index="ari") if i != j else 1.0
            assert M[i, j] == pytest.approx(expected, abs=1e-12)
            assert M[i, j] == pytest.approx(ca.agreement(U[i], U[j], index="agri"), abs=1e-9)


# -- inputs checked before work --------------------------------------------------------------

def test_bad_data_is_refused_naming_x_and_counting():
    X = np.random.default_rng(0).normal(size=(20, 2))
    bad = X.copy()
    bad[[1, 4], 0] = np.nan
    bad[7, 1] = np.inf
    with pytest.raises(ValueError, match=r"X has 2 NaN and 1 infinite entries \(the first in "
                                         r"row 1, column 0\)"):
        weighted_cv(bad, 2)
    with pytest.raises(ValueError, match=r"X must be 2-D.*reshape\(-1, 1\)"):
        weighted_cv(X[:, 0], 2)
    with pytest.raises(TypeError, match="X must hold numbers"):
        weighted_cv([["a", "b"]] * 10, 2)
    with pytest.raises(TypeError, match=r"column\(s\) \['s'\] are not numeric"):
        subsample_stability(pd.DataFrame({"x": range(10), "s": list("abcdefghij")}))


@pytest.mark.parametrize("k, error, match", [
    (1, ValueError, r"2 <= k < n = 20"), (20, ValueError, r"2 <= k < n"),
    (11, ValueError, r"more clusters than the 10 objects in each half"),
    (True, TypeError, "whole number"), (2.5, TypeError, "whole number"),
])
def test_bad_k_is_refused(k, error, match):
    X = np.random.default_rng(0).normal(size=(20, 2))
    with pytest.raises(error, match=match):
        weighted_cv(X, k)


def test_bad_options_are_refused_before_any_fit():
    X = np.random.default_rng(0).normal(size=(20, 2))
    with pytest.raises(ValueError, match="Did you mean 'kmeans'"):
        weighted_cv(X, 2, "kmean")
    with pytest.raises(ValueError, match="repeats must be >= 1"):
        weighted_cv(X, 2, repeats=0)
    with pytest.raises(TypeError, match="pass repeats="):
        weighted_cv(X, 2, null=True)
    with pytest.raises(ValueError, match="unknown index|Did you mean"):
        weighted_cv(X, 2, repeats=1, indices="jacard")
    for fraction in (0, 1, 1.5):
        with pytest.raises(ValueError, match="fraction must lie strictly between 0 and 1"):
            subsample_stability(X, fraction=fraction)
    with pytest.raises(ValueError, match="more clusters than the 4 objects in each subsample"):
        subsample_stability(X, ks=[2, 5], fraction=0.2)
    with pytest.raises(ValueError, match="ks lists 3 more than once"):
        subsample_stability(X, ks=[3, 3])
    with pytest.raises(ValueError, match="n_subsamples must be >= 3"):
        subsample_stability(X, n_subsamples=2)
    with pytest.raises(ValueError, match="kmeans gives hard labels"):
        subsample_stability(X, algorithm="kmeans", memberships="proba")
    with pytest.raises(TypeError, match="needs an estimator with predict_proba"):
        subsample_stability(X, algorithm=Rule(), memberships="proba")
    with pytest.raises(ValueError, match="Did you mean 'hard'"):
        subsample_stability(X, memberships="hrad")


def test_fits_run_on_one_thread_unless_told_otherwise():
    from threadpoolctl import threadpool_info

    seen = []

    class Probe(Rule):
        def fit(self, X):
            seen.append({p["num_threads"] for p in threadpool_info()})
            return self

    X = np.random.default_rng(0).normal(size=(20, 2))
    weighted_cv(X, 2, Probe(), seed=0)
    assert seen and all(s <= {1} for s in seen)
    weighted_cv(X, 2, Probe(), seed=0, threads=None)  # the libraries' own default
    with pytest.raises(ValueError, match="threads must be >= 1"):
        weighted_cv(X, 2, threads=0)
