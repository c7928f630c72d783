"""Building blocks of the reports (clusteragree.reports.helpers) and the results' HTML display."""

from __future__ import annotations

import importlib
import re

import numpy as np
import pandas as pd
import pytest

import clusteragree as ca
from clusteragree.reports import helpers as reporting
from clusteragree._display import significant
from clusteragree.reports.helpers import load_clusterings

TAB6A = ca.load_dataset("thesis_table6a")


# -- inputs --------------------------------------------------------------------------------

def test_every_source_gives_the_same_table(tmp_path):
    x = ["a", "a", "b", "b", "b", "c", "a", "c"]
    y = ["1", "2", "2", "2", "1", "1", "1", "2"]
    expected = ca.crosstab(x, y)
    (tmp_path / "x.txt").write_text("\n".join(x) + "\n\n")   # trailing blank lines are fine
    (tmp_path / "y.txt").write_text("\n".join(y))
    pd.DataFrame({"cls": x, "cl": y}).to_csv(tmp_path / "d.csv", index=False)
    expected.to_frame().to_csv(tmp_path / "t.csv")
    from_labels, said_labels = load_clusterings(x_file=str(tmp_path / "x.txt"),
                                                y_file=str(tmp_path / "y.txt"))
    from_data, said_data = load_clusterings(data_file=str(tmp_path / "d.csv"), x_column="cls",
                                            y_column="cl")
    from_table, said_table = load_clusterings(table_file=str(tmp_path / "t.csv"))
    # the report names the files, not the folders they were in
    assert said_labels == "the labels in x.txt (rows) and y.txt (columns)"
    assert said_data == "columns cls (rows) and cl (columns) of d.csv"
    assert said_table == "the contingency table in t.csv"
    assert str(tmp_path) not in said_labels + said_data + said_table
    for tab in (from_labels, from_data, from_table):
        assert np.array_equal(tab.counts, expected.counts)
        assert list(map(str, tab.row_labels)) == ["a", "b", "c"]
    assert load_clusterings("thesis_table6a")[0] == TAB6A


@pytest.mark.parametrize("kwargs, exc, message", [
    (dict(table_file="t.csv", data_file="d.csv"), ValueError, "one source"),
    (dict(x_file="x.txt"), ValueError, "x_file and y_file go together"),
    (dict(x_file="gap.txt", y_file="x.txt"), ValueError, "line 2 is blank"),
    (dict(x_file="x.txt", y_file="short.txt"), ValueError, "x_file has 3 labels and y_file 2"),
    (dict(data_file="d.csv", x_column="cls", y_column="nope"), (KeyError, ValueError), "nope"),
    (dict(table_file="missing.csv"), FileNotFoundError, "table_file: no such file"),
    (dict(dataset="nope"), ValueError, "unknown data set"),
])
def test_bad_sources_are_named(kwargs, exc, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "x.txt").write_text("a\nb\nc\n")
    (tmp_path / "gap.txt").write_text("a\n\nc\n")
    (tmp_path / "short.txt").write_text("a\nb\n")
    (tmp_path / "t.csv").write_text(",1,2\na,1,2\n")
    pd.DataFrame({"cls": [0, 1], "cl": [1, 0]}).to_csv(tmp_path / "d.csv", index=False)
    with pytest.raises(exc, match=message):
        load_clusterings(**kwargs)


#: Input files a user may give by mistake (issue 29, item 10): the error names the parameter
#: and the file and says what the file must hold, before the notebook starts.
BAD_FILES = [
    ("table_file", b"", "the file is empty"),
    ("table_file", b",A,B\n", "a header row and no rows below it"),
    ("table_file", b",A,B\nr\xe9,1,2\ns,3,4\n", r"not UTF-8 text \(byte 0xe9 on line 2"),
    ("table_file", b"PK\x03\x04\x14\x00\x06\x00\x08\x00", "a binary file, not text"),
    ("table_file", b",A,B\nr,1,x\ns,3,4\n", "column 'B' holds 'x' in row 'r', not a count"),
    ("table_file", b",A,B\nr,1,\ns,3,4\n", "column 'B' holds an empty cell in row 'r'"),
    ("table_file", b"a\nb\n", "one column only"),
    ("table_file", b",A,B\nr,1,-2\ns,3,4\n", "non-negative"),
    ("data_file", b"", "the file is empty"),
    ("data_file", b"cls,cl\n", "a header row and no rows below it"),
    ("data_file", b"cls,cl\n\xe9t\xe9,1\n", "not UTF-8 text"),
    ("x_file", b"caf\xe9\nb\n", r"not UTF-8 text \(byte 0xe9 on line 1"),
    ("x_file", b"\x00\x01\x02", "a binary file"),
    ("x_file", b"\n\n", "the file is empty"),
]


@pytest.mark.parametrize("name, content, problem", BAD_FILES)
def test_unreadable_input_files_name_parameter_file_and_what_is_expected(name, content, problem,
                                                                          tmp_path):
    from clusteragree.reports.helpers import EXPECTED

    path = tmp_path / "given.csv"
    path.write_bytes(content)
    (tmp_path / "y.txt").write_text("a\nb\n")
    kwargs = {name: str(path)}
    kwargs.update({"data_file": dict(x_column="cls", y_column="cl"),
                   "x_file": dict(y_file=str(tmp_path / "y.txt"))}.get(name, {}))
    with pytest.raises(ValueError) as info:
        load_clusterings(**kwargs)
    message = str(info.value)
    assert message.startswith(f"{name} '{path}': ") and re.search(problem, message), message
    assert message.endswith("expected " + EXPECTED[name])


@pytest.mark.parametrize("name, content, problem", [BAD_FILES[i] for i in (0, 1, 2, 3)])
def test_cli_refuses_an_unreadable_file_before_the_notebook(name, content, problem, tmp_path,
                                                             capsys, monkeypatch):
    from clusteragree import cli

    render = importlib.import_module("clusteragree.reports.render")
    monkeypatch.setattr(render, "_execute", lambda *a, **k: pytest.fail("notebook started"))
    path = tmp_path / "given.csv"
    path.write_bytes(content)
    argv = ["report", "-p", f"{name}={path}", "-o", str(tmp_path / "r.html")]
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    err = capsys.readouterr().err
    assert stop.value.code == 2 and len(err.strip().splitlines()) == 1
    assert f"{name} '{path}'" in err and re.search(problem, err) and "expected a CSV" in err


def test_a_column_not_in_the_data_file_is_named(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("cls,cl\na,1\nb,2\n")
    with pytest.raises(ValueError, match=r"y_column 'cluster' is not a column of data_file "
                                         r"'.*d\.csv'; its columns: cls, cl"):
        load_clusterings(data_file=str(path), x_column="cls", y_column="cluster")


# -- null means by method and random models --------------------------------------------------

def test_null_means_by_method_agree_with_each_other():
    names = ["rand", "jaccard", "czekanowski", "sokal_sneath2", "nmi_sum"]
    nulls = ca.nulls.null_distributions(TAB6A, names, "patefield", n_sim=4000, seed=3)
    means = reporting.null_means_by_method(TAB6A, names, nulls)
    exact = {n: ca.nulls.null_distribution(TAB6A, index=n, method="exact").mean for n in names}
    for n in names:
        assert means.loc[n, "exact"] == pytest.approx(exact[n], abs=1e-12)
        assert abs(means.loc[n, "Monte Carlo"] - exact[n]) < 4 * means.loc[n, "Monte Carlo s.e."]
    for n in ("rand", "czekanowski", "nmi_sum"):   # closed forms are exact
        assert means.loc[n, "closed form"] == pytest.approx(exact[n], abs=1e-12)
    assert pd.isna(means.loc["jaccard", "closed form"])
    # Amorim (2015) Table 7, APPROX: E[J] 0.340; the identity is nearly exact
    assert round(float(means.loc["jaccard", "regression (A & N-B 2011)"]), 3) == 0.340
    assert means.loc["jaccard", "identity + delta method"] == pytest.approx(exact["jaccard"],
                                                                           abs=1e-5)
    assert pd.isna(means.loc["rand", "regression (A & N-B 2011)"])


def test_models_side_by_side():
    models = reporting.models_side_by_side(TAB6A, n_sim=3000, seed=2)
    assert list(models.index) == list(reporting.MODELS)
    ari = ca.agreement(TAB6A, index="adjusted_rand")
    assert models.loc["perm", "Rand adjusted"] == pytest.approx(ari, abs=1e-12)
    for model in reporting.MODELS:
        exact = ca.nulls.null_distribution(TAB6A, index="rand", model=model,
                                           method="exact").mean
        assert models.loc[model, "E[Rand]"] == pytest.approx(exact, abs=1e-12)
    # NMI adjusted under perm is AMI (arithmetic mean), up to the Monte Carlo error of E[NMI]
    ami = ca.agreement(TAB6A, index="adjusted_mutual_info")
    assert models.loc["perm", "NMI adjusted"] == pytest.approx(ami, abs=0.01)


def test_random_models_of_a_million_labels_are_left_out_saying_why():
    """issue 45, trap 9 d: ca.report of 10**6 labels in quick mode gave no report in 400 s,
    stuck in the random models (the Rand index's closed-form mean under num computed the
    expected MI it never reads, 9 s at n = 5,000 and growing as n^2; under all the Bell numbers
    of n, O(n^2); NMI from random partitions of all the objects). The report now leaves the
    section out above RANDOM_MODELS_MAX_N objects, saying why, and a pair-counting mean under
    num no longer computes the expected MI."""
    import time

    import nbformat

    from clusteragree.reports.catalogue import notebooks_dir

    assert reporting.random_models_left_out(reporting.RANDOM_MODELS_MAX_N) == ""
    text = reporting.random_models_left_out(10**6)
    assert text.startswith("The random models are left out for n = 1,000,000 objects")
    assert f"{reporting.RANDOM_MODELS_MAX_N:,} objects" in text
    (cell,) = [c for c in nbformat.read(str(notebooks_dir() / "agreement.ipynb"), 4).cells
               if "models_side_by_side" in c.source]
    assert cell.source.index("random_models_left_out(tab.n)") < cell.source.index(
        "models_side_by_side")
    table = ca.ContingencyTable([[400_000, 100_000], [100_000, 400_000]])
    start = time.perf_counter()
    mean = ca.nulls.null_distribution(table, index="rand", model="num", method="exact").mean
    assert time.perf_counter() - start < 5
    assert mean == pytest.approx(0.5, abs=1e-5)  # two random halves: half the pairs agree


def test_plots_have_a_panel_per_index_and_mark_the_observed_value():
    import matplotlib.pyplot as plt

    names = ["rand", "jaccard", "variation_of_information", "nmi_sum"]
    nulls = ca.nulls.null_distributions(TAB6A, names, "patefield", n_sim=500, seed=1)
    observed = ca.agreement(TAB6A, index=names)
    fig = reporting.plot_null_grid(nulls, observed, ncols=3)
    visible = [ax for ax in fig.axes if ax.get_visible()]
    # a title too long for its panel breaks before the method (the grid is a page wide)
    assert [ax.get_title().replace("\n", " ") for ax in visible] == [f"{n} (patefield)"
                                                                      for n in names]
    plt.close(fig)
    results = ca.compare(TAB6A, indices=names, method="patefield", n_sim=500, seed=1)
    fig = reporting.plot_adjusted(results, nulls)
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == names
    plt.close(fig)


def test_far_observed_value_keeps_the_law_on_scale():
    import matplotlib.pyplot as plt

    nd = ca.nulls.null_distribution([[300, 10], [10, 300]], index="rand", method="patefield",
                                    n_sim=500, seed=1)
    ax = nd.plot(0.9)
    lo, hi = ax.get_xlim()
    assert hi < 0.9 and lo <= nd.quantile(0.01)   # the law's scale, not the observed value's
    assert any("observed 0.9" in t.get_text() for t in ax.texts)
    plt.close(ax.figure)
    ax = nd.plot(nd.median)                       # an observed value inside: a plain line
    assert not ax.texts
    plt.close(ax.figure)


# -- HTML display in Jupyter -----------------------------------------------------------------

def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def test_agreement_test_html_shows_the_printed_numbers():
    res = ca.agreement_test(TAB6A, index="jaccard", method="patefield", n_sim=2000, seed=1)
    html = res._repr_html_()
    printed = str(res)
    for number in re.findall(r"= (-?[0-9.]+(?:e-?\d+)?)", printed):
        assert number in _text(html), number
    assert "both margins fixed" in html and "2,000 Patefield tables" in html
    assert html.count("data:image/png;base64,") == 1


def test_null_distribution_and_compare_html():
    nd = ca.nulls.null_distribution(TAB6A, index="rand", method="exact")
    html = nd._repr_html_()
    assert "exact law" in html and f"{significant(nd.mean)}" in html and "<img" in html
    moments = ca.nulls.null_distribution(TAB6A, index="rand", method="hypergeometric")
    assert "<img" not in moments._repr_html_()            # no law, no plot
    df = ca.compare(TAB6A, indices=["rand", "jaccard"], method="exact")
    html = df._repr_html_()
    assert "null: both margins fixed" in html
    assert significant(float(df.loc["jaccard", "null_mean"])) in html
    assert isinstance(df, pd.DataFrame) and isinstance(df[["statistic"]], type(df))


@pytest.mark.parametrize("value, text", [
    (0.123456, "0.1235"), (2.0, "2.000"), (-0.000123456, "-0.0001235"), (1e-7, "1.000e-07"),
    (123456.0, "1.235e+05"), (17000, "17,000"), (None, "NA"), (float("nan"), "NA"),
    (pd.NA, "NA"), (float("inf"), "inf"), (0.0, "0"), ("perm", "perm"),
])
def test_significant_digits(value, text):
    assert significant(value) == text


# -- the footer --------------------------------------------------------------------------------

def test_session_info_names_versions_generator_and_seed_and_no_clock():
    import platform

    import scipy
    import statsmodels

    text = reporting.session_info(42).data
    for name, version in [("clusteragree", ca.__version__), ("numpy", np.__version__),
                          ("scipy", scipy.__version__), ("pandas", pd.__version__),
                          ("statsmodels", statsmodels.__version__),
                          ("Python", platform.python_version())]:
        assert f"{name} {version}" in text
    assert "PCG64" in text and "seed 42" in text
    assert not re.search(r"\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}", text), "no date or time"
    assert reporting.session_info(42).data == text, "the same footer twice"


def test_report_p_values_write_a_floor_as_a_bound_with_its_count():
    from clusteragree.reports.helpers import pvalue_text

    floor = ca.compare(ca.load_dataset("statlog_em"), indices=["rand"], method="patefield",
                       n_sim=999, seed=1)
    assert pvalue_text(floor).tolist() == ["< 0.001 (0 of 999)"]
    tab = ca.ContingencyTable([[30, 20], [10, 20]])
    above = ca.compare(tab, indices=["rand"], method="patefield", n_sim=999, seed=1)
    k = int(above.loc["rand", "n_extreme"])
    assert k > 0 and pvalue_text(above).iloc[0].endswith(f"({k} of 999)")
    exact = ca.compare(tab, indices=["rand"], method="exact")
    assert pvalue_text(exact).iloc[0] == "0.0368"


# -- the reading follows the alternative tested (issue 29, item 15) --------------------------

STATLOG = ca.load_dataset("statlog_em")


def _first_line(alternative, indices=("rand", "adjusted_rand"), n_sim=199):
    df = ca.compare(STATLOG, indices=list(indices), n_sim=n_sim, seed=1,
                    alternative=alternative, interval=None)
    return df, reporting.reading(df).splitlines()[0]


def test_two_sided_reading_says_differs_and_gives_the_tables_floor():
    """The issue's report: two-sided, 17,000 tables; the table printed the floor
    '< 0.0001176' and the reading 'the smallest p-value ... is 5.882e-05' and 'beyond chance'."""
    df, line = _first_line("two-sided", n_sim=17_000)
    floor = reporting.pvalue_text(df).iloc[0]
    assert floor == "< 0.000118 (0 of 17,000)"
    assert "0.000118 (2/(B + 1)" in line and "5.88e-05" not in line
    assert "2 differ from chance at the 5% level" in line and "beyond chance" not in line
    assert "two-sided p-value" in line and "with more agreement than chance" in line


@pytest.mark.parametrize("alternative, finds, floor", [
    (None, "2 show agreement beyond chance at the 5% level", "0.005 (1/(B + 1))"),
    ("greater", "2 show agreement beyond chance at the 5% level", "0.005 (1/(B + 1))"),
    ("less", "0 show agreement below chance at the 5% level", "0.005 (1/(B + 1))"),
    ("two-sided", "2 differ from chance at the 5% level", "0.01 (2/(B + 1)"),
])
def test_reading_follows_the_alternative(alternative, finds, floor):
    df, line = _first_line(alternative)
    assert line.startswith("* Of 2 indices, " + finds), line
    assert f"can give is {floor}" in line, line
    # every floor the table prints is the one the reading gives
    table_floor = reporting.pvalue_text(df).str.extract(r"< (\S+) \(0 of")[0].dropna()
    assert set(table_floor) <= {floor.split()[0]}
    words = ("beyond chance", "below chance", "differ from chance")
    said = line.replace("(two-sided tests: agreement above or below chance)", "")
    assert [w for w in words if w in said] == [w for w in words if w in finds], line


def test_reading_of_mixed_tails_names_each_group():
    """alternative="greater" tests a distance for more distance than chance: less agreement."""
    _, line = _first_line("greater", indices=("rand", "vi"))
    assert "1 was tested for agreement beyond chance (rand) and 1 shows agreement beyond " \
           "chance at the 5% level" in line
    assert "1 was tested for agreement below chance (variation_of_information) and 0 show " \
           "agreement below chance" in line


def test_two_sided_reading_says_on_which_side_and_exact_laws_have_no_floor():
    df = ca.compare([[12, 2], [3, 10]], indices=["rand", "vi"], method="exact",
                    alternative="two-sided", interval=None)
    line = reporting.reading(df).splitlines()[0]
    assert line == ("* Of 2 indices, 2 differ from chance at the 5% level (two-sided tests: "
                    "agreement above or below chance), all of them with more agreement than "
                    "chance.")


def test_reading_compares_interval_widths_on_the_adjusted_scale_only():
    """Issue 33: the reading compared VI's interval width (in nats) with ARI's. The widths it
    compares are on the adjusted scale: ARI's (max 1) divided by 1 - E[ARI], VI's (a distance,
    min 0) by E[VI] - 0."""
    df = ca.compare(STATLOG, indices=["adjusted_rand", "vi"], n_sim=199, seed=1)
    widths = reporting.adjusted_widths(df)
    f = df[["statistic", "null_mean", "ci_low", "ci_high"]].astype(float)
    ari, vi = f.loc["adjusted_rand"], f.loc["variation_of_information"]
    assert widths["adjusted_rand"] == pytest.approx(
        (ari.ci_high - ari.ci_low) / (1 - ari.null_mean), rel=1e-12)
    assert widths["variation_of_information"] == pytest.approx(
        (vi.ci_high - vi.ci_low) / vi.null_mean, rel=1e-12)
    line = [s for s in reporting.reading(df).splitlines() if "wide" in s][0]
    assert "On the adjusted scale" in line
    assert significant(widths.max()) in line and significant(widths.min()) in line
    raw = (f.ci_high - f.ci_low)
    assert significant(raw["variation_of_information"]) not in line


def test_reading_says_why_an_adjusted_value_falls_far_below_zero():
    """Issue 33: under model="all" the adjusted Rand fell to -26 on a scale read as
    '0 = chance, 1 = perfect' with no word on why: chance gives Rand about 0.99 there."""
    df = ca.compare(STATLOG, indices=["rand", "adjusted_rand"], model="all", n_sim=200, seed=1,
                    interval=None)
    adjusted = float(df.loc["rand", "adjusted_mean"])
    assert adjusted < -1
    line = [s for s in reporting.reading(df).splitlines() if "not below" in s][0]
    assert f"rand adjusted is {significant(adjusted)}" in line
    assert significant(float(df.loc["rand", "null_mean"])) in line
    same = ca.compare(STATLOG, indices=["rand", "adjusted_rand"], n_sim=200, seed=1,
                      interval=None)
    assert not any("not below" in s for s in reporting.reading(same).splitlines())
