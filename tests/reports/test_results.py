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
