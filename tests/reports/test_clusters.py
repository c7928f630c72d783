"""The reports' per-cluster sections (issue 44, item 3): which clusters agree in the agreement
report (``ca.cluster_agreement``) and the stability of each cluster in the clusterings report
(``ca.cluster_stability``): the helpers against the package's own results, the new parameters
checked before the kernel starts (errors naming the parameter), and quick renders (slow)."""

from __future__ import annotations

import importlib
import re
import time

import numpy as np
import pandas as pd
import pytest

import clusteragree as ca
from clusteragree import cli
from clusteragree.reports import clusters as per_cluster
from clusteragree.reports.runner import REPORTS, report_parameters

render = importlib.import_module("clusteragree.reports.render")  # where the notebook runs


def _text(path):
    page = path.read_text("utf-8")
    body = re.sub(r"<style.*?</style>|<script.*?</script>", "", page, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


def _section(text, heading, end):
    start = text.index(heading)
    return text[start:text.index(end, start)]


# -- the agreement report's helpers ---------------------------------------------------------

def test_cluster_table_shows_the_packages_numbers_and_p_values_as_it_prints_them():
    runs = ca.load_dataset("wine_clusterings")
    res = ca.cluster_agreement(runs["class"], runs["kmeans_4"])
    shown = per_cluster.cluster_table(res)
    frame = res.to_frame()
    assert shown["clustering"].tolist() == ["class"] * 3 + ["kmeans_4"] * 4
    assert shown["partner"].tolist()[4] == "none"  # k-means' cluster 2 has no partner
    assert shown["overlap"].tolist()[:3] == [str(v) for v in frame["overlap"][:3]]
    for row, value in zip(shown.itertuples(), frame["jaccard"]):
        assert pd.isna(value) or float(row.Jaccard) == pytest.approx(value, rel=5e-4)
    printed = str(res)
    for p in shown["p (holm-adjusted)"]:
        assert p == "NA" or p in printed  # as the package prints them
    assert shown.attrs["left_out"] == ""


def test_cluster_table_leaves_out_the_clusters_past_its_limit_and_says_so():
    rng = np.random.default_rng(1)
    x, y = rng.integers(0, 40, 2000), rng.integers(0, 35, 2000)
    shown = per_cluster.cluster_table(ca.cluster_agreement(x, y), limit=30)
    assert len(shown) == 60
    assert shown.attrs["left_out"] == "10 clusters of x and 5 clusters of y are not shown"


def test_the_decomposition_adds_up_to_the_ari_with_the_largest_weights_first():
    runs = ca.load_dataset("wine_clusterings")
    res = ca.cluster_agreement(runs["class"], runs["kmeans_4"])
    parts = per_cluster.decomposition_table(res)
    assert parts.attrs["total"] == pytest.approx(ca.agreement(runs["class"], runs["kmeans_4"]))
    assert parts["weight"].is_monotonic_decreasing
    assert parts.iloc[0][["clustering", "cluster", "size"]].tolist() == ["class", "class_1", 71]
    assert per_cluster.decomposition_table(res, limit=3).attrs["left_out"] == 4


def test_splits_and_merges_in_words():
    runs = ca.load_dataset("wine_clusterings")
    res = ca.cluster_agreement(runs["class"], runs["kmeans_4"])
    assert per_cluster.split_sentences(res)[0] == (
        "class_1 of *class* is split over 3 (49%) and 2 (44%) of *kmeans_4*")
    assert per_cluster.split_sentences(ca.cluster_agreement([0, 0, 1, 1], [0, 0, 1, 1])) == []


# -- the clusterings report's helpers -------------------------------------------------------

def test_algorithms_are_read_from_the_names_of_the_built_in_clusterings():
    for name in ca.load_dataset("wine_clusterings").columns[1:]:
        assert per_cluster.algorithm_of(name)[0] in ("kmeans", "ward", "average", "gmm")
    for name in ca.load_dataset("wine_noise").columns[1:]:
        assert per_cluster.algorithm_of(name)[0] in ("hdbscan", "dbscan")
    assert per_cluster.algorithm_of("kmeans") is None and per_cluster.algorithm_of("my_3") is None


def test_the_rerun_of_a_built_in_clustering_is_that_clustering():
    """The stability section reruns the algorithm that made the column: on the standardised
    wine measurements it makes the same partition, so the clusters carry the column's labels."""
    pytest.importorskip("sklearn")
    runs = ca.load_dataset("wine_clusterings")
    X = per_cluster.standardise(per_cluster.builtin_features("wine_clusterings"))
    for column in ("kmeans_3", "ward_2"):
        labels = per_cluster.clusterer_of(column).fit_predict(X)
        assert ca.agreement(labels, runs[column]) == pytest.approx(1.0)
    st = ca.cluster_stability(X, per_cluster.clusterer_of("ward_3"), n_resamples=3, seed=1,
                              progress=False)
    named, words = per_cluster.named_as_column(st, runs["ward_3"])
    assert words == "the same partition"
    assert named.summary["cluster"].tolist() == ["1", "2", "3"]
    assert list(named.jaccard.columns) == ["1", "2", "3"]
    sizes = runs["ward_3"].astype(str).value_counts()
    assert named.summary["size"].tolist() == [sizes[c] for c in ("1", "2", "3")]
    table = per_cluster.stability_table(named.summary)
    assert list(table.columns) == ["size", "mean Jaccard", "sd", "se", "dissolved",
                                   "recovered", "reading"]


def test_a_rerun_that_differs_keeps_its_own_labels_and_says_how_far():
    X = np.array([[0.0], [0.1], [5.0], [5.1], [9.0], [9.2]])
    st = ca.cluster_stability(X, lambda d: (d[:, 0] > 2.5).astype(int), n_resamples=3, seed=1,
                              progress=False)
    named, words = per_cluster.named_as_column(st, ["a", "a", "b", "b", "c", "c"])
    assert words.startswith("ARI ") and named.summary["cluster"].tolist() == ["0", "1"]


# -- parameters -----------------------------------------------------------------------------

def test_the_new_parameters_are_declared_with_their_defaults_and_help(capsys):
    params = report_parameters("clusterings")
    assert params.loc["features_file", "default"] == ""
    assert params.loc["stability_columns", "default"] == ""
    assert params.loc["stability_resamples", "default"] == 100
    assert params.loc["standardize", "default"] is True
    assert REPORTS["clusterings"].quick == {"n_sim": 2000, "stability_resamples": 20,
                                            "beyond_floor": False}
    assert cli.main(["report", "clusterings", "--parameters"]) == 0
    out = capsys.readouterr().out
    for name in ("features_file", "stability_columns", "stability_resamples", "standardize"):
        assert re.search(rf"^{name} ", out, flags=re.M)
    assert "bootstrap resamples per clustering assessed" in out


def _wine_features(tmp_path, rows=None):
    X, _ = ca.load_dataset("wine")
    path = tmp_path / "features.csv"
    (X if rows is None else X.iloc[:rows]).to_csv(path, index=False)
    return path


BAD = [
    (lambda tmp: dict(features_file=tmp / "missing.csv"), FileNotFoundError,
     "features_file: no such file"),
    (lambda tmp: dict(features_file=_wine_features(tmp, rows=170)), ValueError,
     r"features_file '.*features.csv': it has 170 rows and the clusterings 178 objects"),
    (lambda tmp: dict(stability_columns="kmeans_9"), ValueError,
     r"parameter stability_columns: 'kmeans_9' is not one of the clusterings compared"),
    (lambda tmp: dict(stability_resamples=1), ValueError,
     "parameter stability_resamples must be >= 2"),
]


@pytest.mark.parametrize("kwargs, exc, message", BAD)
def test_bad_stability_parameters_are_refused_before_the_kernel_starts(kwargs, exc, message,
                                                                       monkeypatch, tmp_path):
    monkeypatch.setattr(render, "_execute",
                        lambda *a, **k: pytest.fail("the notebook was started"))
    start = time.perf_counter()
    with pytest.raises(exc, match=message):
        ca.report("clusterings", output=tmp_path / "r.html", **kwargs(tmp_path))
    assert time.perf_counter() - start < 5
    assert not (tmp_path / "r.html").exists()


def test_a_features_file_with_text_or_an_unknown_algorithm_is_refused_naming_it(tmp_path,
                                                                                monkeypatch):
    monkeypatch.setattr(render, "_execute",
                        lambda *a, **k: pytest.fail("the notebook was started"))
    X, classes = ca.load_dataset("wine")
    X.assign(name=classes.astype(str)).to_csv(tmp_path / "f.csv", index=False)
    with pytest.raises(ValueError, match=r"features_file .*column 'name' holds 'class_0' on "
                                         r"line 2, not a number"):
        ca.report("clusterings", output=tmp_path / "r.html", features_file=tmp_path / "f.csv")
    runs = ca.load_dataset("wine_clusterings").rename(columns={"kmeans_3": "mine"})
    runs.to_csv(tmp_path / "runs.csv", index=False)
    with pytest.raises(ValueError, match="parameter stability_columns: 'mine' names no "
                                         "algorithm the report can rerun"):
        ca.report("clusterings", output=tmp_path / "r.html", data_file=tmp_path / "runs.csv",
                  stability_columns="mine")


def test_the_command_line_passes_the_features_file(tmp_path, monkeypatch):
    class Started(Exception):
        pass

    seen = {}

    def execute(notebook, out, params, progress):
        seen.update(params)
        raise Started

    monkeypatch.setattr(render, "_execute", execute)
    path = _wine_features(tmp_path)
    with pytest.raises(Started):
        cli.main(["report", "clusterings", "--quick", "-o", str(tmp_path / "r.html"),
                  "-p", f"features_file={path}", "-p", "stability_resamples=5"])
    assert seen["features_file"] == str(path.resolve()) and seen["stability_resamples"] == 5


# -- quick renders (slow) -------------------------------------------------------------------

@pytest.mark.slow  # papermill: seconds
def test_quick_agreement_report_says_which_clusters_agree_with_a_figure(tmp_path):
    out = ca.report("agreement", output=tmp_path / "a.html", quick=True, progress=False)
    page = out.read_text("utf-8")
    assert 'alt="Figure 2 of the section \u201cWhich clusters agree\u201d"' in page \
        or re.search(r'alt="Figure \d+ of the section \u201cWhich clusters agree\u201d"', page)
    text = _text(out)
    section = _section(text, "Which clusters agree", "The null laws")
    res = ca.cluster_agreement(ca.load_dataset("statlog_em"))
    assert "conditional on the pairing" in section and "hypergeometric" in section
    assert "holm-adjusted over the 4 paired cells" in section
    assert "Bus C1 218 279 127 0.3432" in section
    assert "Splits and merges" in section and "Bus of class is split over C1 (58%)" in section
    ari = ca.agreement(ca.load_dataset("statlog_em"))
    assert f"ARI = {ari:.4f}" in section
    assert res.n_tests == 4


@pytest.mark.slow  # papermill: seconds
def test_quick_clusterings_report_has_the_stability_of_the_best_clustering(tmp_path):
    pytest.importorskip("sklearn")
    out = ca.report("clusterings", output=tmp_path / "c.html", quick=True, progress=False)
    page = out.read_text("utf-8")
    assert re.search(r'alt="Figure \d+ of the section \u201ckmeans_3\u201d"', page)
    text = _text(out)
    assert not re.search(r"Traceback|\b[A-Z]\w*(Error|Exception|Warning)\b", text)
    section = _section(text, "How stable is each cluster", "Reading ¶")
    assert ("Assessed: kmeans_3 (the clustering agreeing best with the reference), rerun on "
            "the 13 measurements of the built-in data set wine") in section
    assert "20 bootstrap resamples each, seed 1" in section
    assert "the same partition" in section and "highly stable" in section
    assert "0.85" in section and "dissolved" in section


@pytest.mark.slow  # papermill: seconds
def test_quick_clusterings_report_of_labels_only_says_stability_needs_the_measurements(
        tmp_path):
    runs = ca.load_dataset("wine_clusterings")[["class", "kmeans_3", "ward_3"]]
    runs.to_csv(tmp_path / "runs.csv", index=False)
    out = ca.report("clusterings", data_file=tmp_path / "runs.csv", output=tmp_path / "l.html",
                    quick=True, progress=False)
    section = _section(_text(out), "How stable is each cluster", "Reading ¶")
    assert "needs the measurements of the objects" in section
    assert "features_file" in section
    assert "Figure" not in section
