"""The clusterings report (issue 31, item 3): its parameters, its refusals before any work, its
computations against independent ones (scikit-learn's ARI, a brute-force matching, direct calls
of ``difference_test`` and statsmodels' ``multipletests``), its reading, and quick renders whose
verdict matches the numbers."""

from __future__ import annotations

import importlib
import re
import time

import numpy as np
import pandas as pd
import pytest

import clusteragree as ca
from clusteragree import cli
from clusteragree.reports import clusterings as report
from clusteragree.reports.helpers import load_clusterings_frame, significant
from clusteragree.reports.memory import read_memory_clusterings, write_memory_inputs
from clusteragree.reports.runner import REPORTS, report_parameters

rp = importlib.import_module("clusteragree.reports.runner")  # the module, not ca.report
render = importlib.import_module("clusteragree.reports.render")  # where the notebook runs


def _small_runs(n=120, seed=3):
    """A reference of 3 classes and three clusterings of it: 'good' (5% relabelled), 'fair'
    (40% relabelled) and 'noise' (random)."""
    rng = np.random.default_rng(seed)
    truth = np.repeat([1, 2, 3], n // 3)

    def relabel(share):
        out = truth.copy()
        flip = rng.random(n) < share
        out[flip] = rng.integers(1, 4, flip.sum())
        return out

    return pd.DataFrame({"truth": [f"c{t}" for t in truth], "good": relabel(0.05),
                         "fair": relabel(0.4), "noise": rng.integers(1, 4, n)})


# -- parameters and registration ------------------------------------------------------------

def test_report_is_registered_with_its_parameters():
    assert "clusterings" in ca.list_reports().index
    assert REPORTS["clusterings"].notebook == "clusterings.ipynb"
    params = report_parameters("clusterings")
    assert list(params.index) == ["dataset", "data_file", "columns", "reference", "in_memory",
                                  "index", "model", "method", "noise", "features_file",
                                  "stability_columns", "stability_resamples", "standardize",
                                  "n_sim", "beyond_floor", "multiple", "confidence_level",
                                  "near_identical", "seed", "quick"]
    defaults = params["default"].to_dict()
    assert defaults["dataset"] == "wine_clusterings" and defaults["reference"] == "class"
    assert defaults["index"] == "adjusted_rand" and defaults["multiple"] == "holm"
    assert defaults["columns"] == "" and defaults["quick"] is False
    assert defaults["beyond_floor"] is True
    assert REPORTS["clusterings"].quick == {"n_sim": 2000, "stability_resamples": 20,
                                            "beyond_floor": False}


# -- refusals before the kernel starts ------------------------------------------------------

BAD = [
    (dict(reference="klass"), ValueError,
     r"reference 'klass' is not a column of the built-in data set wine_clusterings.*"
     r"Did you mean 'class'"),
    (dict(columns="kmeans_3, gmm_9"), ValueError,
     r"columns: 'gmm_9' is not a column of the built-in data set"),
    (dict(columns="kmeans_3"), ValueError, "at least two clusterings besides the reference"),
    (dict(columns="class,kmeans_3,gmm_3"), ValueError, "the reference 'class' is among"),
    (dict(columns="kmeans_3,gmm_3,kmeans_3"), ValueError, "'kmeans_3' named more than once"),
    (dict(dataset="wine"), ValueError, "dataset 'wine' is not a set of clusterings"),
    (dict(index="adjusted_rnd"), ValueError, "unknown index 'adjusted_rnd'"),
    (dict(index="entropy_x"), ValueError, "parameter index: 'entropy_x' is a statistic"),
    (dict(index="agri"), ValueError, "parameter index: 'agri' compares memberships"),
    (dict(multiple="holms"), ValueError, "parameter multiple must be one of"),
    (dict(near_identical=1.5), ValueError, r"parameter near_identical must be a share"),
    (dict(model="perms"), ValueError, "parameter model must be one of"),
    (dict(method="exact"), ValueError, "the exact law .* max_work"),
    (dict(confidence_level=95), ValueError, "confidence_level must be between 0 and 1"),
    (dict(data=[1, 2, 3]), TypeError, "data must be a pandas DataFrame"),
    (dict(data=pd.DataFrame({"a": [1], "b": [2], "c": [3]}), x="a"), ValueError,
     "takes its clusterings in memory as data="),
    (dict(data=pd.DataFrame({"a": [1, 2], "b": [1, 2], "c": [1, 2]}), dataset="wine_clusterings"),
     ValueError, "either in memory"),
    (dict(data=pd.DataFrame({"class": ["a", "b"], "k": [1, 2], "h": [1, "1"]})), ValueError,
     "do not survive a CSV file"),
]


@pytest.mark.parametrize("kwargs, exc, message", BAD)
def test_bad_input_is_refused_before_the_notebook_runs(kwargs, exc, message, monkeypatch,
                                                        tmp_path):
    monkeypatch.setattr(render, "_execute",
                        lambda *a, **k: pytest.fail("the notebook was started"))
    start = time.perf_counter()
    with pytest.raises(exc, match=message):
        ca.report("clusterings", output=tmp_path / "r.html", **kwargs)
    assert time.perf_counter() - start < 5
    assert not (tmp_path / "r.html").exists()


def test_a_file_with_a_missing_label_or_a_bad_column_is_refused_naming_it(tmp_path,
                                                                           monkeypatch):
    monkeypatch.setattr(render, "_execute",
                        lambda *a, **k: pytest.fail("the notebook was started"))
    path = tmp_path / "runs.csv"
    path.write_text("cls,a,b\nx,1,1\ny,2,\nx,1,2\n")
    with pytest.raises(ValueError, match=r"column 'b' of data_file 'runs.csv' has 1 missing "
                                         r"label \(empty fields, on line 3"):
        ca.report("clusterings", data_file=path, reference="cls", output=tmp_path / "r.html")
    with pytest.raises(ValueError, match=r"reference 'class' is not a column of data_file "
                                         r"'runs.csv'; its columns: cls, a, b"):
        ca.report("clusterings", data_file=path, output=tmp_path / "r.html")


def test_too_few_objects_and_a_directory_are_refused_naming_data_file(tmp_path, monkeypatch):
    """issue 45, trap 9: a two-row CSV failed inside the notebook after 18 s, naming
    ``interval=None`` (no report parameter); a directory was "no such file"."""
    monkeypatch.setattr(render, "_execute",
                        lambda *a, **k: pytest.fail("the notebook was started"))
    two = tmp_path / "two.csv"
    two.write_text("class,a,b\n1,1,2\n2,2,1\n")
    start = time.perf_counter()
    with pytest.raises(ValueError, match=r"data_file 'two.csv' has 2 objects; the clusterings "
                                         r"report needs at least 3 \(one row per object\)"):
        ca.report("clusterings", data_file=two, output=tmp_path / "r.html")
    assert time.perf_counter() - start < 5
    noisy = tmp_path / "noisy.csv"
    noisy.write_text("class,a,b\n1,1,2\n2,-1,1\n1,-1,2\n2,2,-1\n")
    with pytest.raises(ValueError, match=r"data_file 'noisy.csv' has 2 of its 4 objects "
                                         r"compared by class and a under noise='drop'"):
        ca.report("clusterings", data_file=noisy, noise="drop", output=tmp_path / "r.html")
    with pytest.raises(IsADirectoryError, match=r"data_file '.*' is a directory, not a file; "
                                                r"expected a CSV file"):
        ca.report("clusterings", data_file=tmp_path, output=tmp_path / "r.html")
    assert not (tmp_path / "r.html").exists()


def test_cli_refuses_a_bad_reference_in_one_line(capsys, monkeypatch):
    monkeypatch.setattr(render, "_execute", lambda *a, **k: pytest.fail("notebook started"))
    with pytest.raises(SystemExit) as stop:
        cli.main(["report", "clusterings", "-p", "reference=klass", "-p",
                  "columns=kmeans_3,gmm_3"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "reference 'klass' is not a column" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_the_reference_of_null_distributions_is_still_a_level():
    """``reference`` is a quantile level in one report and a column in another: each is checked
    as its notebook declares it."""
    with pytest.raises(ValueError, match="parameter reference must be a number strictly"):
        rp.coerce_parameters("null-distributions", {"reference": "1.5"})
    assert rp.coerce_parameters("clusterings", {"reference": "truth"}) == {"reference": "truth"}


# -- the inputs -----------------------------------------------------------------------------

def test_loader_defaults_to_every_column_but_the_reference():
    frame, ref, names, source = load_clusterings_frame()
    runs = ca.load_dataset("wine_clusterings")
    assert ref == "class" and names == [c for c in runs.columns if c != "class"]
    assert frame.equals(runs[["class", *names]])
    assert source.startswith("built-in data set wine_clusterings")


def test_in_memory_frame_is_written_and_read_back_as_the_same_partitions(tmp_path):
    runs = _small_runs()
    given = read_memory_clusterings({"data": runs})
    params = write_memory_inputs(given, tmp_path / "clusterings-inputs")
    assert params["in_memory"].startswith("in memory: a DataFrame of 120 rows and 4 columns")
    frame, ref, names, _ = load_clusterings_frame(data_file=params["data_file"],
                                                  reference="truth")
    assert names == ["good", "fair", "noise"]
    for c in runs.columns:
        assert frame[c].tolist() == runs[c].astype(str).tolist()


# -- the computations against independent ones -----------------------------------------------

def test_check_index_takes_agreements_and_refuses_the_rest():
    assert report.check_index("ari").name == "adjusted_rand"
    assert report.check_index("vi").kind == "distance"
    with pytest.raises(ValueError, match="is a statistic"):
        report.check_index("chi_squared")
    with pytest.raises(TypeError, match="must be an index's name"):
        report.check_index(3)


def _matched_share(x, y):
    """The largest share of objects on a one-to-one matching of the clusters (brute force over
    the assignments, scipy's Hungarian algorithm)."""
    from scipy.optimize import linear_sum_assignment

    table = pd.crosstab(np.asarray(x), np.asarray(y)).to_numpy()
    rows, cols = linear_sum_assignment(-table)
    return table[rows, cols].sum() / table.sum()


def test_near_identical_pairs_are_those_matching_the_share():
    runs = ca.load_dataset("wine_clusterings")
    names = [c for c in runs.columns if c != "class"]
    pairs = report.near_identical(runs, names, 0.95)
    expected = {(a, b) for i, a in enumerate(names) for b in names[i + 1:]
                if _matched_share(runs[a], runs[b]) >= 0.95}
    assert set(zip(pairs["x"], pairs["y"])) == expected and expected
    for x, y, share in zip(pairs["x"], pairs["y"], pairs["share"]):
        assert share == pytest.approx(_matched_share(runs[x], runs[y]), abs=1e-12)
    assert list(pairs["share"]) == sorted(pairs["share"], reverse=True)


def test_best_against_others_is_difference_test_with_holm():
    from sklearn.metrics import adjusted_rand_score
    from statsmodels.stats.multitest import multipletests

    runs = _small_runs()
    names = ["good", "fair", "noise"]
    agreements = pd.Series({c: adjusted_rand_score(runs["truth"], runs[c]) for c in names})
    diffs = report.best_against_others(runs, "truth", names, "adjusted_rand",
                                       agreements=agreements, kind="similarity", seed=1)
    assert diffs.attrs["best"] == "good" == agreements.idxmax()
    assert set(diffs.index) == {"fair", "noise"}
    with pytest.warns(UserWarning, match="near independence"):  # noise: kept in the note
        direct = {b: ca.difference_test(runs["truth"], runs["good"], runs[b]) for b in diffs.index}
    for b, res in direct.items():
        assert diffs.loc[b, "statistic"] == pytest.approx(
            agreements["good"] - agreements[b], abs=1e-12)
        assert diffs.loc[b, "pvalue"] == pytest.approx(res.pvalue, rel=1e-12)
        assert (diffs.loc[b, "ci_low"], diffs.loc[b, "ci_high"]) == pytest.approx(
            tuple(res.confidence_interval()), rel=1e-12)
    holm = multipletests(diffs["pvalue"].to_numpy(), method="holm")[1]
    np.testing.assert_allclose(diffs["pvalue_adjusted"], holm, rtol=1e-12)
    assert diffs.loc["noise", "note"].startswith("near independence")
    assert diffs.loc["fair", "note"] == ""


def test_reading_states_the_verdict_from_the_numbers():
    runs = _small_runs()
    names = ["good", "fair", "noise"]
    m = ca.agreement_matrix(runs, reference="truth", test=True, seed=1, interval=0.95)
    diffs = report.best_against_others(runs, "truth", names, "adjusted_rand",
                                       agreements=m.reference["statistic"], kind="similarity",
                                       seed=1)
    pairs = report.near_identical(runs, names, 0.95)
    text = report.reading(m, diffs, pairs, 0.95)
    assert "* **good** agrees best with truth: adjusted_rand = " in text
    assert "beyond what chance gives" in text
    assert diffs.loc["fair", "pvalue_adjusted"] < 0.05
    assert ("The runner-up is **fair** (adjusted_rand = "
            f"{significant(m.reference.loc['fair', 'statistic'])}). good is "
            "distinguishable from it at the 5% level after Holm's adjustment") in text
    assert "No two clusterings put 95% or more" in text
    assert "noise does not agree with truth beyond chance" in text
    assert "The paired tests of good against noise are marked" in text


def _exact_and_floored():
    """kmeans_3 (3 x 3 against the classes: an exact p of 1e-73) and gmm_4 (3 x 4: Monte
    Carlo, at its floor)."""
    runs = ca.load_dataset("wine_clusterings")[["class", "kmeans_3", "gmm_4"]]
    m = ca.agreement_matrix(runs, reference="class", test=True, seed=1, n_sim=200,
                            interval=0.95)
    assert m.reference.loc["kmeans_3", "method"] == "exact"
    assert m.reference.loc["gmm_4", "n_extreme"] == 0
    return runs, m


def test_the_reference_table_shows_the_p_beyond_the_floor_with_its_method():
    """issue 45, trap 9 a: a 3 x 3 table's exact p of 1e-73 sat beside a 3 x 4 table's
    Monte Carlo floor of 5e-3 (here), as if the second agreed less; the agreement report
    shows the p beyond the floor and its method, and now so does this table."""
    runs, m = _exact_and_floored()
    beyond = pd.DataFrame({"pvalue_beyond_floor": [2.43e-74], "pvalue_beyond_floor_se": [1.2e-75],
                           "log10_pvalue_beyond_floor": [-73.615],
                           "beyond_floor_method": ["importance"]},
                          index=pd.Index(["gmm_4"], name="clustering"))
    shown = report.reference_table(m, beyond)
    assert list(shown.columns).index("p beyond the floor") == list(shown.columns).index(
        "p-value") + 1
    assert shown.loc["gmm_4", "p beyond the floor"] == "≈ 2.4e-74 (IS, s.e. 4.9%)"
    assert shown.loc["kmeans_3", "p beyond the floor"] == ""
    assert shown.loc["gmm_4", "p-value"].startswith("< ")  # the floor stays, as a bound
    assert "p beyond the floor" not in report.reference_table(m).columns  # none computed
    quick = report.beyond_floor(runs, "class", m, importance=False, n_sim=200, seed=1)
    assert list(quick.index) == ["gmm_4"] and quick["pvalue_beyond_floor"].isna().all()
    assert quick.attrs["notes"][0].startswith("gmm_4: no p-value beyond the Monte Carlo floor")


@pytest.mark.slow  # importance sampling: about 10 s
def test_the_p_beyond_the_floor_is_that_of_compare_for_the_pair():
    runs, m = _exact_and_floored()
    beyond = report.beyond_floor(runs, "class", m, importance=True, n_sim=200, seed=1)
    alone = ca.compare(runs["class"], runs["gmm_4"], indices=["adjusted_rand"], n_sim=200,
                       seed=1, method=ca.NullSpec(method="auto", beyond_floor=True),
                       interval=None)
    assert beyond.loc["gmm_4", "beyond_floor_method"] == "importance"
    assert beyond.loc["gmm_4", "pvalue_beyond_floor"] == alone.loc["adjusted_rand",
                                                                   "pvalue_beyond_floor"] < 1e-60
    assert report.reference_table(m, beyond).loc["gmm_4", "p beyond the floor"].startswith("≈ ")


def test_tables_never_print_a_p_value_as_0():
    runs = ca.load_dataset("wine_clusterings")[["class", "kmeans_3", "gmm_3", "kmeans_4"]]
    m = ca.agreement_matrix(runs, reference="class", test=True, seed=1, n_sim=200,
                            interval=0.95)
    table = report.reference_table(m)
    assert list(table.index) == ["kmeans_3", "gmm_3", "kmeans_4"]  # best first
    shown = table["p-value"].tolist() + table["p-value (holm-adjusted)"].tolist()
    assert "0" not in shown and all(re.match(r"(<=? )?\d", s) for s in shown)
    assert table.loc["kmeans_4", "p-value"] == "< 0.00498 (0 of 200)"  # a Monte Carlo floor
    assert table.loc["kmeans_4", "p-value (holm-adjusted)"].startswith("<= ")


def test_a_p_value_that_underflowed_is_written_as_a_bound_not_0():
    diffs = pd.DataFrame({"agreement_b": [0.1, 0.5], "statistic": [0.8, 0.4],
                          "standard_error": [0.01, 0.05], "ci_low": [0.78, 0.3],
                          "ci_high": [0.82, 0.5], "pvalue": [0.0, 0.0123],
                          "pvalue_adjusted": [0.0, 0.0123], "note": ["", ""]},
                         index=["far", "near"])
    diffs.attrs.update(best="a", multiple="holm", confidence_level=0.95)
    table = report.difference_table(diffs, "adjusted_rand")
    assert table["p-value"].tolist() == ["< 2.23e-308", "0.0123"]
    assert table["p-value (holm-adjusted)"].tolist() == ["< 2.23e-308", "0.0123"]


# -- quick renders (slow) -------------------------------------------------------------------

def _text(path):
    page = path.read_text("utf-8")
    body = re.sub(r"<style.*?</style>|<script.*?</script>", "", page, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


@pytest.mark.slow  # papermill: seconds
def test_quick_render_of_the_wine_clusterings_gives_the_verdict_of_its_numbers(tmp_path):
    from sklearn.metrics import adjusted_rand_score

    out = ca.report("clusterings", output=tmp_path / "c.html", quick=True, progress=False)
    text = _text(out)
    assert not re.search(r"Traceback|\b[A-Z]\w*(Error|Exception|Warning)\b", text)
    runs = ca.load_dataset("wine_clusterings")
    ari = pd.Series({c: adjusted_rand_score(runs["class"], runs[c])
                     for c in runs.columns[1:]}).sort_values(ascending=False)
    best, runner = ari.index[:2]
    assert f"{best} agrees best with class: adjusted_rand = {ari[best]:.4f}" in text
    assert f"The runner-up is {runner} (adjusted_rand = {ari[runner]:.4f})" in text
    assert re.search(f"{best} is (not )?distinguishable from it at the 5% level after Holm's "
                     "adjustment", text)
    assert "near-identical" in text
    order = [text.index(h) for h in ("How the clusterings agree", "Each clustering against",
                                     "The best clustering against", "Reading ¶")]
    assert order == sorted(order)
    assert _text(out).count("Figure ") >= 2


@pytest.mark.slow  # papermill: seconds
def test_quick_render_of_clusterings_in_memory(tmp_path):
    runs = _small_runs()
    out = ca.report("clusterings", data=runs, reference="truth", output=tmp_path / "m.html",
                    quick=True, progress=False)
    text = _text(out)
    assert "Data: in memory: a DataFrame of 120 rows and 4 columns" in text
    assert "m-inputs/data.csv beside the report" in text
    assert "good agrees best with truth" in text
    assert "good is distinguishable from it at the 5% level" in text
    assert (tmp_path / "m-inputs" / "data.csv").is_file()


@pytest.mark.slow  # papermill: seconds
def test_quick_render_with_a_distance_reads_lower_as_better(tmp_path):
    out = ca.report("clusterings", output=tmp_path / "vi.html", quick=True, progress=False,
                    index="vi", columns="kmeans_3,gmm_3,ward_3", multiple="bonferroni")
    text = _text(out)
    vi = {c: ca.agreement(ca.load_dataset("wine_clusterings")["class"],
                          ca.load_dataset("wine_clusterings")[c], index="vi")
          for c in ("kmeans_3", "gmm_3", "ward_3")}
    best = min(vi, key=vi.get)
    assert f"{best} agrees best with class: variation_of_information = {vi[best]:.4f}" in text
    assert "lower is better" in text and "after Bonferroni's adjustment" in text
    assert "One pair of clusterings puts 95% or more" in text


# -- noise (issue 43) ---------------------------------------------------------------------------

def test_near_identical_follows_the_noise_policy():
    """Two clusterings that differ only in which objects they call noise are near-identical
    once noise is left out of each pair; the noise label is not counted as a cluster."""
    runs = pd.DataFrame({"a": [1, 1, 2, 2, -1, -1], "b": [1, 1, 2, 2, 1, 2],
                         "c": [1, 2, 1, 2, 1, 2]})
    assert near_identical_pairs(runs, None) == []
    drop = ca.Noise("drop")
    out = report.near_identical(runs, ["a", "b", "c"], 0.95, noise=drop)
    assert out[["x", "y", "share", "same_k"]].to_dict("records") == [
        {"x": "a", "y": "b", "share": 1.0, "same_k": True}]


def near_identical_pairs(runs, noise):
    with pytest.warns(ca.NoiseLabelWarning):
        out = report.near_identical(runs, list(runs.columns), 0.95, noise=noise)
    return out[["x", "y"]].to_dict("records")


@pytest.mark.slow  # papermill: seconds
@pytest.mark.parametrize("policy", ["drop", None])
def test_quick_render_of_noise_states_the_policy_and_the_coverage(policy, tmp_path):
    out = ca.report("clusterings", dataset="wine_noise", noise=policy, quick=True,
                    output=tmp_path / "n.html", progress=False)
    text = _text(out)
    assert not re.search(r"Traceback|\b[A-Z]\w*(Error|Exception|Warning)\b", text)
    runs = ca.load_dataset("wine_noise")
    if policy is None:
        assert ("Noise: not chosen: the label -1 of hdbscan_5, hdbscan_10, hdbscan_15, "
                "dbscan_2.0, dbscan_2.2, dbscan_2.4 is counted as one cluster") in text
        return
    assert "Noise: policy drop : the objects labelled -1 are left out" in text
    for column in runs.columns[1:]:
        kept = runs[column] != -1
        ari = ca.agreement(runs.loc[kept, "class"], runs.loc[kept, column])
        assert (f"{column}: {int((~kept).sum())} noise objects, {int(kept.sum())} of 178 "
                "objects compared") in text
        assert f"{column} {ari:.4f}" in text  # the table of each against the reference
