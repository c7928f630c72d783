"""Building blocks of the reports (clusteragree.reports.helpers) and the results' HTML display."""

from __future__ import annotations

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


def test_plots_have_a_panel_per_index_and_mark_the_observed_value():
    import matplotlib.pyplot as plt

    names = ["rand", "jaccard", "variation_of_information", "nmi_sum"]
    nulls = ca.nulls.null_distributions(TAB6A, names, "patefield", n_sim=500, seed=1)
    observed = ca.agreement(TAB6A, index=names)
    fig = reporting.plot_null_grid(nulls, observed, ncols=3)
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in visible] == [f"{n} (patefield)" for n in names]
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
    assert pvalue_text(floor).tolist() == ["< 0.001000 (0 of 999)"]
    tab = ca.ContingencyTable([[30, 20], [10, 20]])
    above = ca.compare(tab, indices=["rand"], method="patefield", n_sim=999, seed=1)
    k = int(above.loc["rand", "n_extreme"])
    assert k > 0 and pvalue_text(above).iloc[0].endswith(f"({k} of 999)")
    exact = ca.compare(tab, indices=["rand"], method="exact")
    assert pvalue_text(exact).iloc[0] == "0.03683"
