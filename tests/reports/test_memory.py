"""Reports of clusterings held in memory (issue 29): ``ca.report("agreement", x=..., y=...)``,
``data=`` with column names, ``table=``; what is written, where, and what the report says."""

from __future__ import annotations

import html
import importlib
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import clusteragree as ca
from clusteragree.reports.helpers import load_clusterings
from clusteragree.reports.memory import (inputs_folder, publish_memory_inputs,
                                         read_memory_inputs, write_memory_inputs)

rp = importlib.import_module("clusteragree.reports.runner")
render = importlib.import_module("clusteragree.reports.render")  # where the notebook runs
X, SPECIES = ca.load_dataset("iris")
CLUSTERS = pd.Series(np.r_[np.zeros(50, int), np.ones(45, int), np.full(55, 2)],
                     name="cluster")
STATLOG = ca.load_dataset("statlog_em")


def test_report_parameters_is_exported():
    assert ca.report_parameters is rp.report_parameters and "report_parameters" in ca.__all__
    assert "in_memory" in ca.report_parameters("agreement").index


@pytest.mark.parametrize("given, file, parameters, note", [
    (dict(x=SPECIES, y=CLUSTERS), "data.csv", {"x_column": "class", "y_column": "cluster"},
     "in memory: x, a pandas Series 'class' of 150 labels; y, a pandas Series 'cluster' of "
     "150 labels"),
    (dict(x=list(SPECIES), y=CLUSTERS.to_numpy()), "data.csv",
     {"x_column": "x", "y_column": "y"},
     "in memory: x, a list of 150 labels; y, a numpy array of 150 labels"),
    (dict(data=pd.DataFrame({"cls": SPECIES, "k": CLUSTERS}), x="cls", y="k"), "data.csv",
     {"x_column": "cls", "y_column": "k"},
     "in memory: columns cls (x) and k (y) of a DataFrame of 150 rows"),
    (dict(table=STATLOG), "table.csv", {},
     "in memory: a contingency table (a ContingencyTable, 4 x 4, n = 846)"),
    (dict(x=STATLOG), "table.csv", {},
     "in memory: a contingency table (a ContingencyTable, 4 x 4, n = 846)"),
    (dict(table=STATLOG.to_frame()), "table.csv", {},
     "in memory: a contingency table (a DataFrame, 4 x 4, n = 846)"),
    (dict(table=np.array([[12, 2], [3, 10]])), "table.csv", {},
     "in memory: a contingency table (a numpy array, 2 x 2, n = 27)"),
])
def test_each_kind_of_input_is_written_and_read_back_as_the_same_table(given, file, parameters,
                                                                       note, tmp_path):
    inputs = read_memory_inputs(given)
    assert (inputs.file, inputs.parameters, inputs.note) == (file, parameters, note)
    params = write_memory_inputs(inputs, tmp_path / "stage", shown_as="r-inputs")
    key = "table_file" if file == "table.csv" else "data_file"
    assert Path(params[key]) == tmp_path / "stage" / file
    assert params["in_memory"] == f"{note}; written to r-inputs/{file} beside the report"
    back, _ = load_clusterings(**{k: v for k, v in params.items() if k != "in_memory"})
    expected = ca.crosstab(given["x"], given["y"], data=given.get("data")) \
        if "y" in given else inputs.table
    assert np.array_equal(back.counts, expected.counts)
    assert list(map(str, back.row_labels)) == list(map(str, expected.row_labels))


def test_series_are_paired_by_their_index_in_the_written_file(tmp_path):
    x = pd.Series(["a", "b", "a", "b"], index=[3, 2, 1, 0], name="cls")
    y = pd.Series([1, 1, 2, 2], index=[0, 1, 2, 3], name="k")
    params = write_memory_inputs(read_memory_inputs({"x": x, "y": y}), tmp_path)
    written = pd.read_csv(params["data_file"])
    assert written.to_dict("list") == {"cls": ["a", "b", "a", "b"], "k": [2, 2, 1, 1]}
    assert np.array_equal(load_clusterings(
        data_file=params["data_file"], x_column="cls", y_column="k")[0].counts,
        ca.crosstab(x, y).counts)


@pytest.mark.parametrize("kwargs, message", [
    (dict(x=[1, 2, 1]), "x and y go together"),
    (dict(x=[1, 2, 1], y=[1, 2]), "x and y must label the same objects"),
    (dict(x=[1, 2, None], y=[1, 2, 2]), "missing labels"),
    (dict(table=[[1, 2], [3, 4]], x=[1, 2]), "either as a table .* not both"),
    (dict(x=[1, 2, 1], y=[1, 2, 2], table_file="t.csv"),
     "either in memory \\(x, y\\) or by table_file, not both"),
    (dict(data=pd.DataFrame({"a": [1, 2]}), x="a", y="b"), "y='b' is not a column of data"),
    (dict(table=[[1, -2], [3, 4]]), "non-negative"),
    (dict(x=["01", "1", "1", "2"], y=[1, 2, 2, 1]), "the labels do not survive a CSV file"),
    # issue 45, trap 10: dates were refused as "labels whose text is a number"
    (dict(x=list(pd.to_datetime(["2020-01-01", "2020-01-02", "2020-01-03"] * 2)),
          y=[0, 1, 2, 0, 1, 1]), "dates, times and other objects come back as other labels"),
    (dict(name="null-distributions", x=[1, 2], y=[1, 2]),
     "report 'null-distributions' has no parameter 'x'"),
])
def test_bad_in_memory_inputs_are_refused_before_the_notebook(kwargs, message, tmp_path,
                                                              monkeypatch):
    monkeypatch.setattr(render, "_execute", lambda *a, **k: pytest.fail("notebook started"))
    kwargs = dict(kwargs)
    name = kwargs.pop("name", "agreement")
    with pytest.raises((ValueError, TypeError), match=message):
        ca.report(name, output=tmp_path / "r.html", **kwargs)
    assert not inputs_folder(tmp_path / "r.html").exists(), "nothing left beside the report"


def _fake_render(monkeypatch, seen, fail=False):
    def execute(notebook, out, params, progress):
        seen.append(dict(params))
        source = params.get("data_file") or params.get("table_file")
        assert Path(source).is_file(), "the notebook reads a file that exists"
        if fail:
            raise rp.ReportError("the report failed in cell 3")
        out.write_text("{}")

    monkeypatch.setattr(render, "_execute", execute)
    monkeypatch.setattr(render, "_normalise", lambda path: None)
    monkeypatch.setattr(render, "_render_html", lambda path, code: "<head></head><body></body>")


def test_inputs_go_beside_the_report_and_a_failed_report_keeps_the_earlier_ones(tmp_path,
                                                                              monkeypatch):
    seen = []
    _fake_render(monkeypatch, seen)
    out = tmp_path / "mine" / "agreement.html"
    assert ca.report("agreement", output=out, x=SPECIES, y=CLUSTERS, progress=False) == out
    folder = tmp_path / "mine" / "agreement-inputs"
    assert sorted(p.name for p in folder.iterdir()) == ["data.csv"]
    assert seen[0]["x_column"] == "class" and seen[0]["in_memory"].endswith(
        "written to agreement-inputs/data.csv beside the report")
    stamp = rp.read_fingerprint(out)  # the file by its name: the staging folder is gone
    assert '"data_file": "data.csv"' in stamp and str(tmp_path) not in stamp
    _fake_render(monkeypatch, seen, fail=True)
    with pytest.raises(rp.ReportError):
        ca.report("agreement", output=out, table=STATLOG, progress=False)
    assert sorted(p.name for p in folder.iterdir()) == ["data.csv"], "the earlier inputs stay"
    _fake_render(monkeypatch, seen)
    ca.report("agreement", output=out, table=STATLOG, progress=False)
    assert sorted(p.name for p in folder.iterdir()) == ["table.csv"], "one report, one file"


def test_publish_replaces_the_earlier_input_file(tmp_path):
    folder = tmp_path / "r-inputs"
    folder.mkdir()
    (folder / "table.csv").write_text("old")
    staged = tmp_path / "data.csv"
    staged.write_text("x,y\n1,2\n")
    assert publish_memory_inputs(staged, folder) == folder / "data.csv"
    assert sorted(p.name for p in folder.iterdir()) == ["data.csv"] and not staged.exists()


# -- rendered (slow) ------------------------------------------------------------------------

def _text(path: Path) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", path.read_text("utf-8"))))


@pytest.mark.slow  # papermill: a quick render
def test_report_of_two_series_two_sided_names_them_and_reads_two_sided(tmp_path):
    out = ca.report("agreement", output=tmp_path / "iris.html", x=SPECIES, y=CLUSTERS,
                    alternative="two-sided", method="patefield", quick=True, progress=False)
    body = _text(out)
    data = body[body.index("Data:"):body.index("Run:")]
    assert "in memory: x, a pandas Series 'class' of 150 labels; y, a pandas Series " \
           "'cluster' of 150 labels; written to iris-inputs/data.csv beside the report" in data
    assert "groups of class (rows)" in data and "groups of cluster (columns)" in data
    assert (tmp_path / "iris-inputs" / "data.csv").is_file()
    reading = body[body.index("Reading"):body.index("Session info")]
    assert "differ from chance at the 5% level" in reading and "beyond chance" not in reading
    # the report: the table's floor 2/(B + 1), the reading's 1/(B + 1) and "beyond"
    floors = set(re.findall(r"< (\S+) \(0 of 2,000\)", body))
    assert floors == {"0.001"}, floors  # 2/(B + 1) = 0.0009995 to 3 digits, B = 2,000
    assert "can give is 0.001 (2/(B + 1)" in reading and "0.0005" not in reading
    assert str(tmp_path) not in out.read_text("utf-8"), "files by name, not by path"


@pytest.mark.slow  # papermill: a quick render
def test_report_of_a_table_in_memory(tmp_path):
    out = ca.report("agreement", output=tmp_path / "t.html", table=STATLOG.to_frame(),
                    quick=True, progress=False)
    data = _text(out)
    data = data[data.index("Data:"):data.index("Run:")]
    assert "in memory: a contingency table (a DataFrame, 4 x 4, n = 846); written to " \
           "t-inputs/table.csv beside the report" in data and "n = 846 objects" in data
