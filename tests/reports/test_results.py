"""How a report shows a results frame (``clusteragree.reports.results``)."""


import clusteragree as ca
from clusteragree.reports.helpers import significant
from clusteragree.reports.results import table_of_laws, method_text, table_of_tests

SKEWED = ca.ContingencyTable([[12, 2], [3, 10]])  # n = 27: null skewness about 2.7


def test_the_table_of_tests_says_per_row_which_method_and_which_test():
    df = ca.compare(SKEWED, indices=["rand", "jaccard", "nmi_sum", "purity"], method="auto",
                    seed=1)
    shown = table_of_tests(df)
    assert list(shown.columns) == ["observed", "95% interval", "interval method", "p-value",
                                   "method", "one test of"]
    assert (shown["method"] == "exact").all()
    assert shown.loc["rand", "one test of"] == shown.loc["jaccard", "one test of"] == "sum n_ij^2"
    assert shown.loc["nmi_sum", "one test of"] == "sum n_ij log n_ij"
    assert shown.loc["purity", "one test of"] == ""
    lo, hi = df.loc["rand", ["ci_low", "ci_high"]]
    left = "(" if df.loc["rand", "ci_closed"] == "right" else "["  # an open bound: "(lo, hi]"
    assert shown.loc["rand", "95% interval"] == f"{left}{significant(lo)}, {significant(hi)}]"


def test_the_method_of_a_simulated_row_names_its_draws():
    df = ca.compare(ca.load_dataset("statlog_em"), indices=["rand"], n_sim=999, seed=1,
                    interval=None)
    assert method_text(df).tolist() == ["999 Patefield tables"]
    assert table_of_tests(df).loc["rand", "p-value"] == "< 0.001 (0 of 999)"
    assert table_of_tests(df).loc["rand", "interval"] == "NA"  # no level: no interval
    moments = ca.compare(SKEWED, indices=["rand"], method="hypergeometric",
                         interval=None)
    assert method_text(moments).tolist() == ["closed-form moments"]


def test_z_is_starred_exactly_where_the_null_law_is_skewed():
    df = ca.compare(SKEWED, indices=["rand", "jaccard"], method="exact", interval=None)
    df.loc["jaccard", "null_skewness"] = 0.49  # just below the threshold: a plain z
    df.loc["rand", "null_skewness"] = -0.5  # a skewed law, to the left
    z = table_of_laws(df)["z"]
    assert z["rand"] == significant(df.loc["rand", "zscore"]) + "*"
    assert z["jaccard"] == significant(df.loc["jaccard", "zscore"])


def test_z_at_the_p_floor_is_printed_as_beyond_50_and_the_number_stays_in_the_frame():
    # issue 33: z of 848 to 1,648 where no simulated table was as extreme carries nothing; the
    # statlog tables are far beyond 999 Patefield tables (z about 83 and -100)
    import math

    from clusteragree.inference.results import Z_BEYOND_NOTE, Z_SHOWN, zscore_texts

    df = ca.compare(ca.load_dataset("statlog_em"), indices=["rand", "vi"], method="patefield",
                    n_sim=999, seed=1, interval=None)
    assert (df["n_extreme"] == 0).all() and (df["zscore"].abs() > Z_SHOWN).all()
    assert str(df["zscore"].dtype) == "Float64"  # the schema keeps the number
    assert table_of_laws(df)["z"].tolist() == ["> 50", "< -50"]
    assert zscore_texts(df) == ["> 50", "< -50"]
    assert Z_BEYOND_NOTE in ca.inference.frame_notes(df)
    printed = ca.format_results(df, ["statistic", "pvalue", "zscore"])
    assert "> 50" in printed and "< -50" in printed and Z_BEYOND_NOTE in printed
    assert Z_BEYOND_NOTE not in ca.format_results(df, ["statistic", "pvalue"])
    shown = df._repr_html_()
    assert ">&gt; 50<" in shown and ">&lt; -50<" in shown
    assert "> 50" in df.to_string() and str(round(float(df.loc["rand", "zscore"]), 1)) \
        not in df.to_string()
    test = ca.agreement_test(ca.load_dataset("statlog_em"), index="rand", method="patefield",
                             n_sim=999, seed=1)
    assert test.n_extreme == 0 and "z > 50 (beyond every simulated value" in str(test)
    assert "&gt; 50 (beyond every simulated value" in test._repr_html_()
    assert not math.isnan(test.zscore) and test.zscore > Z_SHOWN


def test_z_is_a_number_off_the_floor_or_within_50():
    from clusteragree.inference.results import Z_BEYOND_NOTE

    exact = ca.compare(SKEWED, indices=["rand"], method="exact", interval=None)
    assert table_of_laws(exact)["z"].tolist() == [significant(exact.loc["rand", "zscore"])
                                                  + "*"]
    # a Monte Carlo law with simulated values as extreme: z printed as it is
    near = ca.compare([[30, 20], [10, 20]], indices=["rand"], method="patefield", n_sim=999,
                      seed=1, interval=None)
    assert int(near.loc["rand", "n_extreme"]) > 0
    shown = table_of_laws(near)["z"]["rand"]
    assert shown.rstrip("*") == significant(near.loc["rand", "zscore"])
    # at the floor but within 50 null sds: the number helps (how far beyond the draws)
    floor = near.copy()
    floor["n_extreme"] = floor["n_extreme"] * 0
    floor.loc["rand", "zscore"] = 49.5
    assert table_of_laws(floor)["z"]["rand"].rstrip("*") == "49.50"
    assert Z_BEYOND_NOTE not in ca.inference.frame_notes(floor)
    floor.loc["rand", "zscore"] = 50.5
    assert table_of_laws(floor)["z"].tolist() == ["> 50"]
    assert Z_BEYOND_NOTE in ca.inference.frame_notes(floor)


def _at_floor_with_estimates():
    """A frame at the Monte Carlo floor with beyond-floor estimates filled in by hand (the
    estimator itself is tested in tests/test_beyond_floor.py; here only how it is shown)."""
    df = ca.compare(ca.load_dataset("statlog_em"), indices=["adjusted_rand", "nmi_sum",
                                                             "purity"],
                    method="patefield", n_sim=99, seed=1, interval=None)
    assert (df["n_extreme"] == 0).all()
    df.loc["adjusted_rand", ["pvalue_beyond_floor", "pvalue_beyond_floor_se",
                             "log10_pvalue_beyond_floor"]] = [2.38e-64, 0.69e-64, -63.62]
    df.loc["nmi_sum", ["pvalue_beyond_floor", "log10_pvalue_beyond_floor"]] = [0.0, -1234.5]
    df["beyond_floor_method"] = df["beyond_floor_method"].astype(object)
    df.loc["adjusted_rand", "beyond_floor_method"] = "importance"
    df.loc["nmi_sum", "beyond_floor_method"] = "saddlepoint"
    return df


def test_the_table_of_tests_shows_p_beyond_the_floor_only_where_there_is_one():
    df = _at_floor_with_estimates()
    shown = table_of_tests(df, intervals=False)
    assert list(shown.columns) == ["observed", "p-value", "method", "p beyond the floor",
                                   "one test of"]
    assert shown.loc["adjusted_rand", "p beyond the floor"] == "≈ 2.4e-64 (IS, s.e. 29%)"
    assert shown.loc["nmi_sum", "p beyond the floor"] == (
        "< 1e-300 (log10 p = -1234.5, saddlepoint)")  # below the smallest double: never 0
    assert shown.loc["purity", "p beyond the floor"] == ""
    assert shown.loc["adjusted_rand", "p-value"] == "< 0.01 (0 of 99)"  # the floor stays
    plain = ca.compare(ca.load_dataset("statlog_em"), indices=["adjusted_rand"],
                       method="patefield", n_sim=99, seed=1, interval=None)
    assert "p beyond the floor" not in table_of_tests(plain).columns


def test_the_reading_gives_the_range_of_the_p_values_beyond_the_floor_and_their_method():
    from clusteragree.reports.helpers import reading
    first = reading(_at_floor_with_estimates()).splitlines()[0]
    # below the smallest double the log10 is written out (it read "1e-1234" for 10**-1234.5,
    # its exponent rounded: a factor of 3 off), as in the table of tests and a printed test
    assert ("Beyond that floor, importance sampling and saddlepoint approximation put the "
            "p-values of these tests between < 1e-300 (log10 p = -1234.5) (nmi_sum) and 2.4e-64 "
            "(adjusted_rand)" in first)
    plain = ca.compare(ca.load_dataset("statlog_em"), indices=["adjusted_rand"],
                       method="patefield", n_sim=99, seed=1, interval=None)
    assert "Beyond that floor" not in reading(plain)
