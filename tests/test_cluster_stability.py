"""ca.cluster_stability: cluster-wise stability by resampling (Hennig 2007; fpc's clusterboot).

The Jaccard of every cluster in every resample is redone here by a loop written apart from the
package's (the same resamples, read from the result or redrawn from the documented seeding),
schemes are checked against their definitions, and the means of k-means and Ward on iris and
wine are compared with R's ``fpc::clusterboot`` (``tests/data/clusterboot_r.json``, made by
``tests/data/clusterboot_r.R``).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import clusteragree as ca
from clusteragree.inputs import NoiseLabelWarning
from clusteragree.studies.clusterwise import best_match_jaccard, draw_resample

DATA = Path(__file__).parent / "data"


def blobs(n_per=15, sep=20.0, seed=0):
    """Three tight, far-apart groups in two dimensions."""
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0], [sep, 0.0], [0.0, sep]])
    return np.vstack([c + rng.normal(size=(n_per, 2)) for c in centres])


def by_first_column(data):
    """A fixed rule: the sign and size of the first column (no fit, no randomness)."""
    return np.digitize(data[:, 0], [-0.5, 0.5])


def hand_jaccard(original, new):
    """Each original cluster's best Jaccard among the new clusters, by sets."""
    out = []
    for c in np.unique(original):
        C = set(np.flatnonzero(original == c))
        best = 0.0
        for d in np.unique(new):
            D = set(np.flatnonzero(new == d))
            best = max(best, len(C & D) / len(C | D))
        out.append(best)
    return out


def test_bootstrap_jaccard_is_the_hand_loop_over_the_same_resamples():
    X = np.random.default_rng(3).normal(size=(40, 2))
    res = ca.cluster_stability(X, by_first_column, n_resamples=6, seed=11, progress=False)
    assert res.jaccard.shape == (6, 3)
    for i, rows in enumerate(res.resamples):
        expected = hand_jaccard(res.labels[rows], by_first_column(X[rows]))
        np.testing.assert_allclose(res.jaccard.iloc[i].to_numpy(), expected, rtol=1e-12)
    np.testing.assert_allclose(res.summary["mean_jaccard"], res.jaccard.mean(axis=0))


def test_bootstrap_resamples_are_the_distinct_objects_of_the_documented_draws():
    """Resample i: child i + 1 of SeedSequence(seed), its first child the draw of n objects
    with replacement, each distinct object kept once in the order first drawn (fpc's
    multipleboot = FALSE)."""
    n, B, seed = 30, 4, 5
    X = np.random.default_rng(0).normal(size=(n, 2))
    res = ca.cluster_stability(X, by_first_column, n_resamples=B, seed=seed, progress=False)
    children = np.random.SeedSequence(seed).spawn(B + 1)[1:]
    for rows, child in zip(res.resamples, children):
        draw = np.random.default_rng(child.spawn(2)[0]).integers(n, size=n)
        distinct = list(dict.fromkeys(draw.tolist()))
        assert rows.tolist() == distinct


def test_a_fixed_clusterer_on_separated_blobs_is_perfectly_stable():
    X = blobs()
    for scheme in ("bootstrap", "subset", "noise"):
        res = ca.cluster_stability(X, by_first_column_blobs, scheme=scheme, n_resamples=8,
                                   seed=1, progress=False)
        np.testing.assert_allclose(res.summary["mean_jaccard"], 1.0)
        assert res.summary["recovered"].tolist() == [8, 8, 8]
        assert res.summary["dissolved"].tolist() == [0, 0, 0]
        assert set(res.summary["reading"]) == {"highly stable"}


def by_first_column_blobs(data):
    """The blobs' groups by rule: first column beyond 10, second beyond 10, else."""
    return np.where(data[:, 0] > 10, 1, np.where(data[:, 1] > 10, 2, 0))


def test_kmeans_on_separated_blobs_has_mean_jaccard_one():
    KMeans = pytest.importorskip("sklearn.cluster").KMeans
    res = ca.cluster_stability(blobs(), KMeans(3, n_init=3), n_resamples=6, seed=2,
                               progress=False)
    np.testing.assert_allclose(res.summary["mean_jaccard"], 1.0)
    assert res.summary["size"].tolist() == [15, 15, 15]


def test_subset_draws_floor_share_n_distinct_objects_and_matches_the_hand_loop():
    X = np.random.default_rng(4).normal(size=(41, 2))
    res = ca.cluster_stability(X, by_first_column, scheme="subset", subset_share=0.3,
                               n_resamples=5, seed=3, progress=False)
    for i, rows in enumerate(res.resamples):
        assert len(rows) == 12 == len(set(rows.tolist()))  # floor(0.3 * 41)
        expected = hand_jaccard(res.labels[rows], by_first_column(X[rows]))
        np.testing.assert_allclose(res.jaccard.iloc[i].to_numpy(), expected, rtol=1e-12)
    assert res.settings["subset_size"] == 12


def test_noise_replaces_objects_within_the_box_and_compares_the_others_only():
    n, B, seed, share = 200, 6, 9, 0.2
    X = np.random.default_rng(5).normal(size=(n, 3)) * [1.0, 3.0, 0.5]
    res = ca.cluster_stability(X, by_first_column, scheme="noise", noise_share=share,
                               n_resamples=B, seed=seed, progress=False)
    cov = np.cov(X, rowvar=False)
    values, vectors = np.linalg.eigh(cov)
    children = np.random.SeedSequence(seed).spawn(B + 1)[1:]
    replaced_counts = []
    for i, (rows, child) in enumerate(zip(res.resamples, children)):
        drawn_rows, data, compared = draw_resample(
            X, "noise", np.random.default_rng(child.spawn(2)[0]), noise_share=share)
        assert drawn_rows.tolist() == rows.tolist() == compared.tolist()
        replaced = np.setdiff1d(np.arange(n), rows)
        replaced_counts.append(len(replaced))
        np.testing.assert_array_equal(data[rows], X[rows])  # kept objects untouched
        z = (data[replaced] - X.mean(axis=0)) @ vectors  # coordinates on the principal axes
        assert (np.abs(z) <= 4 * np.sqrt(values) + 1e-9).all()
        # the clusterer saw all n points; only the objects kept are compared
        expected = hand_jaccard(res.labels[rows], by_first_column(data)[rows])
        np.testing.assert_allclose(res.jaccard.iloc[i].to_numpy(), expected, rtol=1e-12)
    # each object replaced with probability 0.2: 240 of 1200 expected, sd about 14
    assert 180 < sum(replaced_counts) < 300


def test_the_same_seed_gives_the_same_result_with_one_or_two_jobs():
    KMeans = pytest.importorskip("sklearn.cluster").KMeans
    X = np.random.default_rng(6).normal(size=(60, 2))  # no structure: k-means varies
    est = KMeans(3, n_init=1)
    one = ca.cluster_stability(X, est, n_resamples=8, seed=4, n_jobs=1, progress=False)
    two = ca.cluster_stability(X, est, n_resamples=8, seed=4, n_jobs=2, progress=False)
    pd.testing.assert_frame_equal(one.jaccard, two.jaccard)
    pd.testing.assert_frame_equal(one.summary, two.summary)
    assert all((a == b).all() for a, b in zip(one.resamples, two.resamples))
    assert one.jaccard.to_numpy().std() > 0  # the random starts did differ
    again = ca.cluster_stability(X, est, n_resamples=8, seed=5, progress=False)
    assert not np.allclose(again.jaccard, one.jaccard)


def test_each_resample_gets_its_own_random_state():
    seen = []

    def record(data, random_state):
        seen.append(random_state)
        return by_first_column(data)

    ca.cluster_stability(np.random.default_rng(0).normal(size=(20, 2)), record,
                         n_resamples=4, seed=1, progress=False)
    assert len(seen) == 5 and len(set(seen)) == 5  # the original fit and four resamples


def test_noise_policies():
    X = blobs()

    def with_noise(data):  # the points far along the diagonal are noise
        labels = by_first_column_blobs(data)
        return np.where(np.abs(data[:, 0] - data[:, 1]) < 1.0, -1, labels)

    with pytest.warns(NoiseLabelWarning):
        given = ca.cluster_stability(X, with_noise, n_resamples=3, seed=1, progress=False)
    assert -1 in given.summary["cluster"].tolist()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        kept = ca.cluster_stability(X, with_noise, n_resamples=3, seed=1, noise="cluster",
                                    progress=False)
        dropped = ca.cluster_stability(X, with_noise, n_resamples=3, seed=1, noise="drop",
                                       progress=False)
    pd.testing.assert_frame_equal(given.jaccard, kept.jaccard)
    assert -1 not in dropped.summary["cluster"].tolist()
    assert dropped.settings["n_noise"] == int((with_noise(X) == -1).sum())
    assert "no cluster of their own" in repr(dropped)


def test_noise_counts_against_a_match():
    # original cluster 0 = objects 0-3; the resample calls object 3 noise
    orig = np.array([0, 0, 0, 0, 1, 1])
    new = np.array([0, 0, 0, -1, 1, 1])
    assert best_match_jaccard(orig, new, 2).tolist() == [0.75, 1.0]
    # object 4 was noise originally and sits in the resample's cluster 1
    assert best_match_jaccard(np.array([0, 0, -1, 1]), np.array([0, 0, 1, 1]), 2).tolist() \
        == [1.0, 0.5]
    # a lone noise object as a singleton candidate: 1 / |C'|
    lone = best_match_jaccard(np.array([0]), np.array([-1]), 1, singletons=np.array([True]))
    assert lone.tolist() == [1.0]
    assert best_match_jaccard(np.array([0]), np.array([-1]), 1).tolist() == [0.0]


def test_dissolved_and_recovered_follow_fpc():
    """fpc: dissolved when Jaccard <= dissolution, recovered when Jaccard > recover."""
    X = np.random.default_rng(3).normal(size=(40, 2))
    res = ca.cluster_stability(X, by_first_column, n_resamples=10, seed=2, progress=False,
                               dissolution=0.6, recover=0.8)
    J = res.jaccard.to_numpy()
    assert res.summary["dissolved"].tolist() == (J <= 0.6).sum(axis=0).tolist()
    assert res.summary["recovered"].tolist() == (J > 0.8).sum(axis=0).tolist()
    np.testing.assert_allclose(res.summary["se"], J.std(axis=0, ddof=1) / np.sqrt(10))


def test_printed_html_frame_and_plot():
    res = ca.cluster_stability(blobs(), by_first_column_blobs, n_resamples=3, seed=1,
                               progress=False)
    text = repr(res)
    for part in ("B = 3", "bootstrap", "by_first_column_blobs", "<= 0.5", "> 0.75",
                 "0.85 highly stable", "Hennig 2007", "highly stable"):
        assert part in text, part
    assert "one row per cluster" in res._repr_html_()
    frame = res.to_frame()
    assert frame.attrs["scheme"] == "bootstrap" and len(frame) == 3
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ax = res.plot()
    assert ax.get_ylabel() == "Jaccard of the best match"
    plt.close("all")


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(data=pd.DataFrame({"a": ["x", "y", "z"]})), TypeError, "not numeric"),
    (dict(clusterer=42), TypeError, "fit_predict"),
    (dict(n_resamples=1), ValueError, "n_resamples must be >= 2"),
    (dict(subset_share=1.5), ValueError, "subset_share"),
    (dict(noise_share=0.0), ValueError, "noise_share"),
    (dict(dissolution=1.0), ValueError, "dissolution"),
    (dict(scheme="jitter"), ValueError, "scheme"),
    (dict(noise=ca.Noise("drop", side="x")), ValueError, "side"),
    (dict(clusterer=lambda d: np.zeros(len(d) - 1)), ValueError, "one label per object"),
    (dict(n_jobs=0), TypeError, "n_jobs"),
])
def test_bad_input_is_refused_by_name(kwargs, error, match):
    args = dict(data=np.random.default_rng(0).normal(size=(20, 2)), clusterer=by_first_column,
                n_resamples=3, progress=False)
    args.update(kwargs)
    data, clusterer = args.pop("data"), args.pop("clusterer")
    with pytest.raises(error, match=match):
        ca.cluster_stability(data, clusterer, **args)


def test_a_class_instead_of_an_estimator_is_refused():
    KMeans = pytest.importorskip("sklearn.cluster").KMeans
    with pytest.raises(TypeError, match=r"pass KMeans\(\.\.\.\)"):
        ca.cluster_stability(blobs(), KMeans, progress=False)


@pytest.mark.slow
def test_dask_client_gives_the_same_result():
    distributed = pytest.importorskip("dask.distributed")
    X = np.random.default_rng(3).normal(size=(40, 2))
    here = ca.cluster_stability(X, by_first_column, n_resamples=4, seed=7, progress=False)
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:
        there = ca.cluster_stability(X, by_first_column, n_resamples=4, seed=7, client=client,
                                     progress=False)
    pd.testing.assert_frame_equal(here.jaccard, there.jaccard)


# -- beside R's fpc::clusterboot ----------------------------------------------------------------

#: Python's resamples per case; R's are in the file (500).
B_PYTHON = 200

#: Clusters are compared when their original clusterings in R and Python agree this well
#: (Jaccard of the two clusters' objects); all twelve agree exactly (1.0) as the file stands.
MATCH = 0.95

#: The tolerance in combined Monte Carlo standard errors, sqrt(se_R^2 + se_Python^2) with
#: se = sd / sqrt(B): a difference of 4 s.e. has probability 6e-5 under equal means, so the
#: test fails on a real difference of definition (about 0.01-0.05 of Jaccard here), not on
#: chance.
N_SE = 4


def _r_cases():
    return json.loads((DATA / "clusterboot_r.json").read_text())["cases"]


def _case_data(name):
    X = ca.load_dataset(name)[0].to_numpy(dtype=float)
    return (X - X.mean(axis=0)) / X.std(axis=0, ddof=1) if name == "wine" else X  # R's scale()


@pytest.mark.parametrize("key", sorted(_r_cases()))
def test_means_agree_with_fpc_clusterboot_within_monte_carlo_error(key):
    cluster = pytest.importorskip("sklearn.cluster")
    case = _r_cases()[key]
    X = _case_data(case["data"])
    est = (cluster.KMeans(3, n_init=10) if case["method"] == "kmeans"
           else cluster.AgglomerativeClustering(3, linkage="ward"))
    res = ca.cluster_stability(X, est, n_resamples=B_PYTHON, seed=case["seed"], progress=False)
    r_partition = np.asarray(case["partition"])
    compared = 0
    for j in range(len(case["mean"])):
        r_objects = r_partition == j + 1
        overlap = [np.sum(r_objects & (res.labels == c)) / np.sum(r_objects | (res.labels == c))
                   for c in res.summary["cluster"]]
        best = int(np.argmax(overlap))
        if overlap[best] < MATCH:
            continue  # another local optimum in one language: not the same cluster
        row = res.summary.iloc[best]
        se = np.hypot(case["sd"][j] / np.sqrt(case["B"]), row["se"])
        assert abs(row["mean_jaccard"] - case["mean"][j]) <= N_SE * se + 1e-12, (
            key, j + 1, case["mean"][j], row["mean_jaccard"], se)
        compared += 1
    assert compared == 3  # every cluster of these four clusterings is the same in R and here
