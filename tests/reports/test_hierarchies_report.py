"""The hierarchies report (issue 46, item 4): its parameters, its refusals before any work, its
inputs, tables and reading against direct computations (scipy's cut_tree and cophenet, the
curve of ``compare_hierarchies``), and a quick render of a CSV whose page says what the
numbers say."""

from __future__ import annotations

import importlib
import re

import numpy as np
import pandas as pd
import pytest
from scipy.cluster.hierarchy import cophenet, cut_tree, linkage

import clusteragree as ca
from clusteragree._display import apa_number
from clusteragree.reports import hierarchies as report
from clusteragree.reports.clusters import standardise
from clusteragree.reports.runner import REPORTS, report_parameters

render = importlib.import_module("clusteragree.reports.render")  # where the notebook runs


@pytest.fixture(scope="module")
def wine():
    """Ward and average linkage of the standardised wine measurements, as the report makes
    them, compared with 199 permutations."""
    data = report.load_measurements("wine")
    X = data.X.copy()
    X.loc[:, :] = standardise(X)
    a, Za = report.build_tree(X, "ward", "euclidean", "ward")
    b, Zb = report.build_tree(X, "average", "euclidean", "average")
    res = ca.compare_hierarchies(a, b, method="permutation", n_permutations=199, seed=1)
    ct = ca.cophenetic_test(a, b, n_permutations=199, seed=1)
    return data, X, (a, Za), (b, Zb), res, ct


# -- parameters and registration ------------------------------------------------------------

def test_report_is_registered_with_its_parameters():
    assert "hierarchies" in ca.list_reports().index
    assert REPORTS["hierarchies"].notebook == "hierarchies.ipynb"
    params = report_parameters("hierarchies")
    assert list(params.index) == ["dataset", "data_file", "columns", "class_column",
                                  "label_column", "method_a", "method_b", "metric",
                                  "standardize", "index", "method", "alternative", "alpha",
                                  "n_permutations", "max_k", "seed", "quick"]
    defaults = params["default"].to_dict()
    assert defaults["dataset"] == "wine" and defaults["method_a"] == "ward"
    assert defaults["method_b"] == "average" and defaults["standardize"] is True
    assert defaults["index"] == "fowlkes_mallows" and defaults["n_permutations"] == 999
    assert defaults["alpha"] == 0.05 and defaults["quick"] is False
    assert REPORTS["hierarchies"].quick == {"n_permutations": 199}


# -- refusals before the kernel starts ------------------------------------------------------

BAD = [
    (dict(dataset="statlog_em"), ValueError, "dataset 'statlog_em' holds no measurements"),
    (dict(dataset="wines"), ValueError, "Did you mean 'wine'"),
    (dict(columns="alcohol,sugar"), ValueError, "columns: 'sugar' is not a column"),
    (dict(class_column="class"), ValueError, "class_column and label_column name columns of "
                                             "data_file"),
    (dict(data_file="/no/such/file.csv"), FileNotFoundError, "data_file: no such file"),
    (dict(method_a="centroid"), ValueError, "method_a: centroid linkage can merge below"),
    (dict(method_b="averge"), ValueError, "Did you mean 'average'"),
    (dict(method_b="ward"), ValueError, "method_a and method_b are both 'ward'"),
    (dict(metric="cityblok"), ValueError, "Did you mean 'cityblock'"),
    (dict(metric="cityblock"), ValueError, "ward linkage is defined for Euclidean distances "
                                           "only"),
    (dict(index="agri"), ValueError, "parameter index: 'agri' compares memberships"),
    (dict(index="entropy_x"), ValueError, "parameter index: 'entropy_x' is a statistic"),
    (dict(method="exat"), ValueError, "Did you mean 'exact'"),
    (dict(alternative="up"), ValueError, "parameter alternative must be one of"),
    (dict(alpha=1.5), ValueError, "parameter alpha must be a number strictly between 0 and 1"),
    (dict(n_permutations=0), ValueError, "parameter n_permutations must be >= 1"),
    (dict(max_k=1), ValueError, "parameter max_k must be >= 2"),
]


@pytest.mark.parametrize("kwargs, exc, message", BAD)
def test_bad_input_is_refused_before_work(kwargs, exc, message, monkeypatch):
    monkeypatch.setattr(render, "_execute", lambda *a, **k: pytest.fail("notebook started"))
    with pytest.raises(exc, match=message):
        ca.report("hierarchies", **kwargs)


# -- the inputs -----------------------------------------------------------------------------

def test_a_csv_with_classes_labels_and_a_missing_value(tmp_path):
    X, y = ca.load_dataset("iris")
    frame = X.iloc[::10].copy()
    frame.insert(0, "name", [f"flower{i}" for i in range(len(frame))])
    frame["species"] = y.iloc[::10].to_numpy()
    frame.iloc[2, 1] = np.nan
    path = tmp_path / "flowers.csv"
    frame.to_csv(path, index=False)
    data = report.load_measurements(data_file=str(path), class_column="species",
                                    label_column="name")
    assert data.X.shape == (14, 4) and data.dropped == 1 and data.labelled
    assert "flower2" not in data.X.index and data.X.index[0] == "flower0"
    assert data.classes.index.equals(data.X.index) and data.classes.nunique() == 3
    assert "data_file 'flowers.csv', 4 measurements" in data.source
    some = report.load_measurements(data_file=str(path), columns="sepal length (cm)",
                                    class_column="species")
    assert list(some.X.columns) == ["sepal length (cm)"] and not some.labelled
    with pytest.raises(ValueError, match="'species' of data_file 'flowers.csv' holds 'setosa'"):
        report.load_measurements(data_file=str(path), columns="species")
    with pytest.raises(ValueError, match=r"columns: 'name' of data_file .* not a number"):
        report.load_measurements(data_file=str(path), class_column="species")
    frame.loc[frame.index[1], "name"] = "flower0"
    frame.to_csv(path, index=False)
    with pytest.raises(ValueError, match="label_column: 'name' names 'flower0' more than once"):
        report.load_measurements(data_file=str(path), label_column="name",
                                 class_column="species")


def test_trees_are_scipys_linkages_with_the_leaves_labelled(wine):
    data, X, (a, Za), (b, Zb), _, _ = wine
    assert np.array_equal(Za, linkage(standardise(data.X), "ward"))
    assert a.n == b.n == 178 and a.leaves.equals(X.index)
    for k in (2, 3, 7):  # scipy's cut_tree: the same partitions (no ties in these trees)
        for tree, Z in ((a, Za), (b, Zb)):
            theirs = cut_tree(Z, n_clusters=k).ravel()
            assert report.cut_sizes(tree, k) == sorted(np.bincount(theirs).tolist(),
                                                       reverse=True)
            assert pd.crosstab(tree.cut(k), theirs).gt(0).sum(axis=1).eq(1).all()


# -- the tables and the reading -------------------------------------------------------------

def test_cut_table_ranks_the_cuts_by_z_and_reads_the_band(wine):
    _, _, (a, _), (b, _), res, _ = wine
    table = report.cut_table(res, 20)
    c = res.curve.set_index("k")
    z = (c["statistic"] - c["null_mean"]) / c["null_sd"]
    ranked = z.loc[2:20].sort_values(ascending=False)
    assert [k for _, k in table.index[:4]] == ranked.index[:4].tolist()
    assert [k for _, k in table.index[4:]] == ranked.index[::-1][:4].tolist()
    assert table.index.get_level_values(0).tolist() == ["most"] * 4 + ["least"] * 4
    above, below = res.outside()
    for (_, k), row in table.iterrows():
        assert row["z"] == pytest.approx(z[k], rel=1e-12)
        assert row["Bk"] == c.loc[k, "statistic"]
        assert row["vs the band"] == ("above" if k in above else "below" if k in below
                                      else "inside")
    sizes = report.size_table(table, a, b)
    assert sizes.loc[("least", 3), "clusters of average"] == "174, 3, 1"
    assert sizes.loc[("least", 3), "clusters of ward"] == "64, 58, 56"


def test_few_cuts_are_ranked_in_one_block_and_a_distance_turns_round(wine):
    _, _, (a, _), (b, _), _, _ = wine
    vi = ca.compare_hierarchies(a, b, index="vi", k=[2, 3, 4, 5], method="normal",
                                n_permutations=49, seed=2)
    table = report.cut_table(vi, 20, "distance")
    assert set(table.index.get_level_values(0)) == {"ranked"}
    z = -(vi.curve["statistic"] - vi.curve["null_mean"]) / vi.curve["null_sd"]
    assert table["z"].tolist() == pytest.approx(sorted(z, reverse=True))


def test_cophenetic_table_and_figure_match_scipy(wine):
    _, _, (a, Za), (b, Zb), _, ct = wine
    r = np.corrcoef(cophenet(Za), cophenet(Zb))[0, 1]
    table = report.cophenetic_table(ct)
    assert table.iloc[0]["observed"] == pytest.approx(r, rel=1e-10)
    assert table.iloc[0]["p-value"] == "0.005"  # (1 + 0) / (199 + 1): none as large
    assert table.loc["Baker's gamma (Spearman)", "null mean"] == pytest.approx(
        ct.null["bakers_gamma"].mean())


def test_identical_from_is_the_first_of_the_finest_cuts_that_agree_perfectly(wine):
    _, _, (a, _), (b, _), res, _ = wine
    k0 = report.identical_from(res.curve, 1.0)
    for k in (k0, 177):
        assert ca.agreement(a.cut(k), b.cut(k), index="fowlkes_mallows") == pytest.approx(1)
    assert ca.agreement(a.cut(k0 - 1), b.cut(k0 - 1), index="fowlkes_mallows") < 1
    curve = pd.DataFrame({"k": [2, 3, 4], "statistic": [0.5, 1.0, 0.9]})
    assert report.identical_from(curve, 1.0) is None


def test_reading_is_written_from_the_numbers(wine):
    data, _, (a, _), (b, _), res, ct = wine
    table = report.cut_table(res, 20)
    text = report.reading(res, ct, table, 20, a, b, classes=data.classes)
    above, _ = res.outside()
    inside = [k for k in res.curve["k"] if k not in above]
    assert inside == [2, 3, 4]
    assert "Inside the simultaneous band, at k = 2-4" in text
    assert "agree most beyond chance at k = 8" in text and "least at k = 3" in text
    assert "the clusters of ward hold 64, 58, 56 objects and those of average 174, 3, 1" in text
    assert f"From k = {report.identical_from(res.curve, 1.0)} on" in text
    assert f"r = {apa_number(ct.statistic)}" in text
    assert "Ward and average departed from chance at some cut" in text
    assert "The known classes (3)" in text


def test_figures_draw_without_a_warning(wine, recwarn):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data, _, (a, Za), (b, Zb), res, ct = wine
    fig = report.plot_dendrograms([("ward", "ward", Za), ("average", "average", Zb)],
                                  data.classes, k=3)
    assert len([ax for ax in fig.axes if ax.get_visible()]) == 4
    fig2 = report.plot_bk(res, 20)
    assert [ax.get_xscale() for ax in fig2.axes] == ["log", "linear"]
    assert all(ax.get_title() == "" for ax in fig2.axes), "the API's centred title is cleared"
    fig3 = report.plot_cophenetic(ct, Za, Zb, ("ward", "average"))
    assert len(fig3.axes) == 2
    plt.close("all")
    assert not [w for w in recwarn if "matplotlib" in str(w.filename)]


# -- a quick render -------------------------------------------------------------------------

@pytest.mark.slow  # papermill: seconds
def test_quick_render_of_a_csv_says_what_the_numbers_say(tmp_path):
    X, y = ca.load_dataset("iris")
    frame = X.iloc[::3].copy()
    frame.insert(0, "flower", [f"f{i}" for i in range(len(frame))])
    frame["species"] = y.iloc[::3].to_numpy()
    path = tmp_path / "iris-third.csv"
    frame.to_csv(path, index=False)
    out = ca.report("hierarchies", output=tmp_path / "h.html", quick=True, progress=False,
                    data_file=path, class_column="species", label_column="flower",
                    method_a="complete", method_b="single", max_k=10)
    body = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", out.read_text("utf-8")))
    assert "data_file 'iris-third.csv', 4 measurements" in body and "n = 50 objects" in body
    data = report.load_measurements(data_file=str(path), class_column="species",
                                    label_column="flower")
    Xs = data.X.copy()
    Xs.loc[:, :] = standardise(Xs)
    a, _ = report.build_tree(Xs, "complete", "euclidean", "complete")
    b, _ = report.build_tree(Xs, "single", "euclidean", "single")
    res = ca.compare_hierarchies(a, b, method="permutation", n_permutations=199, seed=1)
    sentence = res.sentence()
    assert sentence[0].upper() + sentence[1:] in body
    ct = ca.cophenetic_test(a, b, n_permutations=199, seed=1)
    assert ct.sentence() in body
    assert "The cuts k = 2 to 10 of most and least agreement" in body
