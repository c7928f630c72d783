"""agreement_test, adjust, compare, iadjust and the NullDistribution's own behaviour."""

import math

import matplotlib
import numpy as np
import pandas as pd
import pytest

import clusteragree as ca
from clusteragree.intervals import resampling_generator
from clusteragree.nulls import NullDistribution

matplotlib.use("Agg")

TAB = ca.ContingencyTable([[30, 20], [10, 20]])


def test_compare_has_the_design_columns_and_same_tables_for_all_indices():
    df = ca.compare(TAB, indices=["rand", "czekanowski", "adjusted_rand"], n_sim=3000, seed=5)
    for col in ("statistic", "null_mean", "null_median", "null_sd", "null_skewness", "pvalue",
                "adjusted_mean", "adjusted_median", "zscore", "method"):
        assert col in df.columns
    # Rand and Czekanowski adjust to the same value on the same tables (both are affine in a11
    # with the same (1 - alpha)/beta; Amorim 2015, Ch.4): this holds draw by draw only if every
    # index saw the same simulated tables.
    assert df.loc["rand", "adjusted_mean"] == pytest.approx(df.loc["czekanowski", "adjusted_mean"])
    assert df.loc["rand", "pvalue"] == df.loc["czekanowski", "pvalue"]


def test_hypergeometric_compare_leaves_what_it_cannot_give_missing():
    df = ca.compare(TAB, indices=["rand", "nmi_sum"], method="hypergeometric")
    assert pd.isna(df.loc["rand", "null_median"]) and pd.isna(df.loc["nmi_sum", "pvalue"])
    exact = ca.compare(TAB, indices=["rand", "nmi_sum"], method="exact")
    assert df.loc["rand", "null_mean"] == pytest.approx(exact.loc["rand", "null_mean"], abs=1e-12)
    assert df.loc["rand", "null_sd"] == pytest.approx(exact.loc["rand", "null_sd"], abs=1e-12)
    assert df.loc["nmi_sum", "null_mean"] == pytest.approx(exact.loc["nmi_sum", "null_mean"],
                                                           abs=1e-12)
    with pytest.raises(ValueError, match="no closed-form null moments"):
        ca.compare(TAB, indices=["jaccard"], method="hypergeometric")


def test_iadjust_reports_the_thesis_share_pvalue():
    df = ca.iadjust(TAB, n_sim=2000, seed=2)
    assert list(df.index) == list(ca.indices.GROUPS["paired"])
    nd = ca.nulls.null_distribution(TAB, index="jaccard", method="patefield", n_sim=2000, seed=2)
    obs = ca.agreement(TAB, index="jaccard")
    assert df.loc["jaccard", "pvalue"] == np.mean(nd.samples >= obs - 1e-12)


def test_iadjust_computes_no_intervals_unless_asked(monkeypatch):
    """Issue 29, item 11: IADJUST has no intervals, and compare's bootstrap (9,999 resamples)
    made iadjust cost 3.5 times scipy's sampling instead of 2. None is computed by default;
    interval= (compare's) asks for them."""
    import clusteragree.inference.agreement_tests as inference

    def no_bootstrap(*args, **kwargs):
        raise AssertionError("the bootstrap ran")

    with monkeypatch.context() as m:
        m.setattr(inference, "intervals_of", no_bootstrap)
        df = ca.iadjust(TAB, n_sim=500, seed=2)
    assert df[["ci_low", "ci_high", "ci_level"]].isna().all().all()
    asked = ca.iadjust(TAB, n_sim=500, seed=2, interval=0.9)
    assert (asked["ci_level"] == 0.9).all()
    assert (asked["ci_low"] < asked["ci_high"]).all()
    pd.testing.assert_series_equal(df["pvalue"], asked["pvalue"])  # the same null laws


#: 10 x 10, n = 10**4, z = 11: every Monte Carlo p at its floor, in the saddlepoint's domain.
FAR = np.full((10, 10), 95) + 50 * np.eye(10, dtype=np.int64)
FLOOR_COLUMNS = ["pvalue_beyond_floor", "pvalue_beyond_floor_se", "log10_pvalue_beyond_floor",
                 "beyond_floor_method"]


def test_iadjust_computes_no_pvalue_beyond_the_floor_unless_asked(monkeypatch):
    """Issue 42, item 5: the thesis computes none, and the saddlepoint was 42% of iadjust's
    time; a NullSpec asks for it (None: the saddlepoint; True: importance sampling too)."""
    import clusteragree.inference.beyond_floor as beyond

    def no_saddlepoint(*args, **kwargs):
        raise AssertionError("the saddlepoint ran")

    with monkeypatch.context() as m:
        m.setattr(beyond, "saddlepoint_tail", no_saddlepoint)
        df = ca.iadjust(FAR, indices=["rand", "ari", "nmi_sum"], n_sim=99, seed=1)
        spec = ca.NullSpec(method="patefield", n_sim=99, seed=1, plus_one=False,
                           beyond_floor=False)
        off = ca.iadjust(FAR, indices=["rand", "ari", "nmi_sum"], method=spec)
    assert (df["n_extreme"] == 0).all() and (df["pvalue"] == 0).all()  # at the floor
    assert df[FLOOR_COLUMNS].isna().all().all()
    assert df.attrs["beyond_floor_notes"] == []
    pd.testing.assert_frame_equal(df, off)
    # None, the NullSpec's own default: the saddlepoint, where it answers
    spec = ca.NullSpec(method="patefield", n_sim=99, seed=1, plus_one=False)
    on = ca.iadjust(FAR, indices=["rand", "ari"], method=spec)
    assert (on["beyond_floor_method"] == "saddlepoint").all()
    assert ((on["pvalue_beyond_floor"] > 1e-16) & (on["pvalue_beyond_floor"] < 1e-14)).all()
    pd.testing.assert_series_equal(on["pvalue"], df.loc[["rand", "adjusted_rand"], "pvalue"])
    assert any(n.startswith("pvalue_beyond_floor:") for n in on.attrs["beyond_floor_notes"])
    # True: importance sampling too (here in place of a refused saddlepoint; a small table)
    small = [[15, 1, 0], [1, 14, 1], [0, 1, 15]]
    spec = ca.NullSpec(method="patefield", n_sim=99, seed=1, plus_one=False, beyond_floor=True)
    on = ca.iadjust(small, indices=["rand"], method=spec)
    assert on.loc["rand", "beyond_floor_method"] == "importance"
    assert 0 < on.loc["rand", "pvalue_beyond_floor"] < 1 / 100
    assert ca.iadjust(small, indices=["rand"], n_sim=99, seed=1)[FLOOR_COLUMNS].isna().all().all()
    # compare keeps its default: the saddlepoint
    cmp = ca.compare(FAR, indices=["rand"], method="patefield", n_sim=99, seed=1, interval=None)
    assert cmp.loc["rand", "beyond_floor_method"] == "saddlepoint"


def test_adjust_for_a_distance_and_for_a_quantile():
    nd = ca.nulls.null_distribution(TAB, index="vi", method="exact")
    vi = ca.agreement(TAB, index="vi")
    assert nd.adjust(vi) == pytest.approx((nd.mean - vi) / (nd.mean - 0.0))
    assert ca.adjust(TAB, index="vi", method="exact") == pytest.approx(nd.adjust(vi))
    q = nd.quantile(0.99)
    assert nd.adjust(vi, center=0.99) == pytest.approx((q - vi) / q)
    with pytest.raises(ValueError, match="center must be"):
        nd.adjust(vi, center="mode")


def test_mutual_information_needs_an_explicit_maximum():
    nd = ca.nulls.null_distribution(TAB, index="mutual_info", method="exact")
    mi = ca.agreement(TAB, index="mutual_info")
    with pytest.raises(ValueError, match="no fixed optimum"):
        nd.adjust(mi)
    hmin = min(ca.agreement(TAB, index="entropy_x"), ca.agreement(TAB, index="entropy_y"))
    assert nd.adjust(mi, optimum=hmin) == pytest.approx((mi - nd.mean) / (hmin - nd.mean))


def test_point_mass_null_follows_the_registry_rule():
    # one cluster against one cluster: a single possible table, so the null is a point mass
    tab = ca.ContingencyTable([[4]])
    nd = ca.nulls.null_distribution(tab, index="nmi_sum", method="exact")
    assert nd.var == 0 and nd.adjust(1.0) == 1.0 and nd.zscore(1.0) == 0.0


def test_point_mass_at_the_optimum_is_decided_up_to_rounding():
    # singletons against singletons: one table, on which MI = log 3; with optimum = log 3 the
    # adjustment is 0/0 and the registry's rule gives 1 (the observed value is the optimum).
    # An optimum one or a few roundings away (log 3 computed another way) must give the same,
    # not 0 ((I - c) / (max - c) = 0 / 1e-15).
    x = [0, 1, 2]
    exact = ca.adjust(x, x, index="mutual_info", method="exact", optimum=math.log(3))
    assert exact == 1.0
    for optimum in (math.log(3) * (1 + 1e-15), math.log(3) * (1 - 1e-15),
                    math.nextafter(math.log(3), 2.0), -math.log(1 / 3)):
        assert ca.adjust(x, x, index="mutual_info", method="exact", optimum=optimum) == exact
    nd = ca.nulls.null_distribution(x, x, index="mutual_info", method="exact")
    assert nd.zscore(math.log(3) * (1 + 1e-15)) == 0.0
    # a value that is not tied with the point is still told apart
    assert nd.adjust(1.0, optimum=math.log(3)) == 0.0 and nd.zscore(1.0) == -math.inf
    # a distance: VI is 0 on the only table; its minimum passed as a rounding away from 0
    vi = ca.nulls.null_distribution(x, x, index="variation_of_information", method="exact")
    assert vi.adjust(0.0, optimum=1e-17) == vi.adjust(0.0) == 1.0


def test_null_distribution_validates_its_law():
    with pytest.raises(ValueError, match="exactly one"):
        NullDistribution("rand", "exact")
    with pytest.raises(ValueError, match="sum to 1"):
        NullDistribution("rand", "exact", values=[0.1, 0.2], probabilities=[0.5, 0.4])
    nd = NullDistribution("rand", "exact", values=[0.2, 0.1, 0.2], probabilities=[0.25, 0.5, 0.25])
    assert nd.values.tolist() == [0.1, 0.2] and nd.probabilities.tolist() == [0.5, 0.5]
    assert nd.median == 0.1 and nd.cdf(0.1) == 0.5 and nd.pvalue(0.2) == 0.5
    with pytest.raises(TypeError, match="observed must be a number"):
        nd.pvalue("high")


def test_monte_carlo_standard_errors():
    nd = ca.nulls.null_distribution(TAB, index="rand", method="patefield", n_sim=4000, seed=9)
    assert nd.mean_se == pytest.approx(nd.std / math.sqrt(4000))
    obs = 0.5
    p = nd.pvalue(obs, plus_one=False)
    assert nd.pvalue_se(obs) == pytest.approx(math.sqrt(p * (1 - p) / 4000))
    lo, hi = nd.pvalue_ci(obs, confidence=0.99)
    assert lo < p < hi and hi - lo == pytest.approx(2 * 2.5758293 * nd.pvalue_se(obs), rel=1e-6)
    lo_e, hi_e = nd.pvalue_ci(obs, method="exact")
    assert lo_e < p < hi_e
    assert nd.quantile_se(0.5) > 0


def test_plot_returns_axes_for_exact_and_sampled_laws():
    nd = ca.nulls.null_distribution(TAB, index="jaccard", method="exact")
    ax = nd.plot(observed=ca.agreement(TAB, index="jaccard"))
    assert len(ax.lines) >= 3  # mean, median, observed
    nd2 = ca.nulls.null_distribution(TAB, index="jaccard", method="patefield", n_sim=500, seed=1)
    assert nd2.plot().get_xlabel().startswith("jaccard")
    with pytest.raises(ValueError, match="moments only"):
        ca.nulls.null_distribution(TAB, index="rand", method="hypergeometric").plot()


def test_same_seed_same_numbers_and_generator_accepted():
    a = ca.nulls.null_distribution(TAB, index="rand", method="patefield", n_sim=300, seed=11)
    b = ca.nulls.null_distribution(TAB, index="rand", method="patefield", n_sim=300, seed=11)
    c = ca.nulls.null_distribution(TAB, index="rand", method="patefield", n_sim=300,
                                   seed=np.random.default_rng(11))
    assert np.array_equal(a.samples, b.samples) and np.array_equal(a.samples, c.samples)


def test_labels_and_table_give_the_same_test():
    x = np.repeat([0, 0, 1, 1], [30, 20, 10, 20])
    y = np.repeat([0, 1, 0, 1], [30, 20, 10, 20])
    r1 = ca.agreement_test(x, y, index="jaccard", method="exact")
    r2 = ca.agreement_test(TAB, index="jaccard", method="exact")
    assert r1.pvalue == r2.pvalue and r1.statistic == r2.statistic
    assert "x and y (2 x 2 table, n = 80)" in str(r1)
    frame = r2.to_frame()
    assert frame.loc["jaccard", "statistic"] == r2.statistic and len(frame) == 1


def test_n_sim_only_for_monte_carlo():
    with pytest.raises(ValueError, match="n_sim is for Monte Carlo"):
        ca.nulls.null_distribution(TAB, index="rand", method="exact", n_sim=10)


def test_one_hot_hard_memberships_work_like_labels_everywhere():
    x, y = [0, 0, 1, 2, 2, 1], [1, 1, 0, 0, 0, 1]
    U, V = np.eye(3)[x], np.eye(2)[y]
    assert ca.agreement(U, V, index="jaccard") == ca.agreement(x, y, index="jaccard")
    a = ca.nulls.null_distribution(U, V, index="jaccard", method="exact")
    b = ca.nulls.null_distribution(x, y, index="jaccard", method="exact")
    assert np.array_equal(a.values, b.values) and np.allclose(a.probabilities, b.probabilities)
    with pytest.raises(ValueError, match="x is a fuzzy clustering"):
        ca.agreement_test([[0.4, 0.6]] * 6, V, index="jaccard", method="exact")


def test_a_p_value_at_the_monte_carlo_floor_is_a_bound_with_its_count():
    # the reproducer: n = 846, no simulated table as extreme as the observed one
    res = ca.agreement_test(ca.load_dataset("statlog_em"), index="sokal_sneath",
                            method="patefield", seed=1)
    B = res.null.n_sim
    assert res.n_extreme == 0 and res.pvalue == pytest.approx(1 / (B + 1))
    assert np.isnan(res.pvalue_se)  # never a standard error as large as the estimate
    # Clopper-Pearson's one-sided bound for 0 of B: 1 - 0.05 ** (1 / B), about 3 / B
    assert res.pvalue_upper == pytest.approx(1 - 0.05 ** (1 / B), rel=1e-9)
    text = str(res)
    assert "p-value < 5.88e-05 (0 of 17,000 simulated values as extreme; one-sided 95% upper " \
           "bound 0.000176)" in text and "s.e." not in text
    row = res.to_frame().loc["sokal_sneath"]
    assert row["n_extreme"] == 0 and pd.isna(row["pvalue_se"])
    df = ca.compare(ca.load_dataset("statlog_em"), indices=["rand", "jaccard"],
                    method="patefield", n_sim=500, seed=1)
    assert (df["n_extreme"] == 0).all() and df["pvalue_se"].isna().all()
    assert "<0.002" in ca.format_results(df, ["pvalue"])


def test_a_p_value_above_the_floor_keeps_its_error_and_says_its_count():
    tab = ca.ContingencyTable([[30, 20], [10, 20]])
    res = ca.agreement_test(tab, index="rand", method="patefield", n_sim=2000, seed=1)
    k = int(np.sum(res.null.samples >= res.statistic - 1e-9 * abs(res.statistic)))
    assert res.n_extreme == k > 0 and res.pvalue == pytest.approx((k + 1) / 2001)
    assert f"{k:,} of 2,000 simulated values as extreme" in str(res)
    from scipy import stats

    bound = stats.binomtest(k, 2000, alternative="less").proportion_ci(0.95).high
    assert res.pvalue_upper == pytest.approx(bound) and res.pvalue_upper > res.pvalue
    exact = ca.agreement_test(tab, index="rand", method="exact")
    assert exact.n_extreme is None and np.isnan(exact.pvalue_upper)
    assert pd.isna(exact.to_frame().loc["rand", "n_extreme"])


def test_a_test_gives_the_bootstrap_interval_of_its_index():
    data = ca.load_dataset("statlog_em")
    res = ca.agreement_test(data, index="jaccard", n_sim=200, seed=1)
    ci = res.confidence_interval(n_resamples=999, seed=3)
    same = ca.confidence_interval(data, index="jaccard", n_resamples=999, seed=3)
    assert (ci.low, ci.high) == (same.low, same.high)
    assert ci.low < res.statistic < ci.high and ci.confidence_level == 0.95


def test_z_beside_a_skewed_law_carries_its_caveat():
    skewed = ca.agreement_test([[20, 2], [1, 4]], index="rand", method="exact")
    assert skewed.null.skewness > 1
    assert f"z = {skewed.zscore:.4g} (null skewness {skewed.null.skewness:.3g}: read the " \
           "p-value, not a normal tail of z)" in str(skewed)
    assert "null skewness" in skewed._repr_html_()
    from clusteragree.inference.results import _z_caveat

    normal = NullDistribution("rand", "patefield",
                              samples=np.random.default_rng(1).normal(0.5, 0.01, 4000))
    assert abs(normal.skewness) < 0.5 and _z_caveat(normal) == ""
    moments = ca.nulls.null_distribution([[20, 2], [1, 4]], index="rand",
                                         method="hypergeometric")
    assert _z_caveat(moments) == ""  # no law, no skewness to show


# -- one test per statistic, and the intervals of compare (issue 20, items 3 and 5) ------------

def test_indices_monotone_in_one_statistic_are_one_test_under_fixed_margins():
    """The pair-counting indices are functions of sum n_ij^2 and the information indices of
    sum n_ij log n_ij given the margins: on the same random tables their p-values are equal,
    and compare counts them as one test each."""
    tab = ca.ContingencyTable([[14, 9, 7], [8, 12, 6], [5, 7, 11]])  # p-values not at the floor
    names = ["rand", "adjusted_rand", "jaccard", "mirkin", "nmi_sum", "adjusted_mutual_info",
             "variation_of_information", "purity"]
    df = ca.compare(tab, indices=names, method="patefield", n_sim=4000, seed=5,
                    interval=None)
    s = ["rand", "adjusted_rand", "jaccard", "mirkin"]
    t = ["nmi_sum", "adjusted_mutual_info", "variation_of_information"]
    assert (df.loc[s, "test_group"] == "sum n_ij^2").all()
    assert (df.loc[t, "test_group"] == "sum n_ij log n_ij").all()
    assert pd.isna(df.loc["purity", "test_group"])
    assert 0.001 < df.loc["rand", "pvalue"] < 0.5
    assert df.loc[s, "pvalue"].nunique() == 1 and df.loc[t, "pvalue"].nunique() == 1
    assert df.loc["rand", "pvalue"] != df.loc["nmi_sum", "pvalue"]
    assert df.attrs["n_tests"] == 3  # s, t and purity
    exact = ca.compare(tab, indices=s, method="exact", interval=None)
    assert exact["pvalue"].max() - exact["pvalue"].min() < 1e-12


def test_the_test_group_names_its_tail_and_needs_fixed_margins():
    tab = ca.ContingencyTable([[14, 9, 7], [8, 12, 6], [5, 7, 11]])
    kw = dict(indices=["rand", "vi"], method="exact", interval=None)
    assert ca.compare(tab, alternative="less", **kw)["test_group"].tolist() == [
        "sum n_ij^2, lower tail", "sum n_ij log n_ij"]  # vi "less" is the agreement tail
    assert set(ca.compare(tab, alternative="two-sided", **kw)["test_group"]) == {
        "sum n_ij^2, two-sided", "sum n_ij log n_ij, two-sided"}
    other = ca.compare(tab, indices=["rand", "jaccard"], model="num", n_sim=200, seed=1,
                       interval=None)
    assert other["test_group"].isna().all() and other.attrs["n_tests"] == 2
    moments = ca.compare(tab, indices=["rand", "nmi_sum"], method="hypergeometric",
                         interval=None)
    assert moments["test_group"].isna().all()  # no law, no test


def test_compare_gives_each_index_its_bootstrap_interval_without_touching_the_nulls():
    tab = ca.load_dataset("statlog_em")
    names = ["rand", "adjusted_rand", "nmi_sum"]
    with_ci = ca.compare(tab, indices=names, n_sim=500, seed=2)
    without = ca.compare(tab, indices=names, n_sim=500, seed=2, interval=None)
    cols = ["null_mean", "null_median", "null_sd", "pvalue"]
    pd.testing.assert_frame_equal(with_ci[cols], without[cols])
    assert without[["ci_low", "ci_high", "ci_level"]].isna().all(axis=None)
    for name in names:  # the same resampled tables for every index: each equals its own call
        ci = ca.confidence_interval(tab, index=name, seed=resampling_generator(2))
        assert (with_ci.loc[name, "ci_low"], with_ci.loc[name, "ci_high"]) == (ci.low, ci.high)
        assert with_ci.loc[name, "ci_level"] == 0.95
    again = ca.compare(tab, indices=names, n_sim=500, seed=2, interval=0.9)
    assert (again["ci_high"] - again["ci_low"] < with_ci["ci_high"] - with_ci["ci_low"]).all()


@pytest.mark.parametrize("level, match", [
    (0, "confidence_level"), (1, "confidence_level"), (95, "confidence_level"),
    ("0.95", "method must be one of"), (True, "must be None")])
def test_compare_refuses_a_bad_confidence_level_before_any_work(level, match):
    with pytest.raises((ValueError, TypeError), match=r"^interval.*" + match):
        ca.compare([[5, 1], [1, 5]], interval=level, n_sim=10**9)
    # the level alone was confidence_level= before it travelled in interval=: named
    with pytest.raises(TypeError, match="confidence_level= is a setting of the interval"):
        ca.compare([[5, 1], [1, 5]], confidence_level=0.9, n_sim=10**9)


def test_compare_notes_an_index_too_small_for_its_interval():
    df = ca.compare([[1, 0], [0, 1]], indices=["rand"], method="exact")
    assert pd.isna(df.loc["rand", "ci_low"])
    assert any("no interval for rand" in note for note in df.attrs["notes"])


# -- one default index, "auto" by default (issue 29, item 13) ----------------------------------

def test_the_functions_of_one_index_share_one_default_index_and_tests_default_to_auto():
    import inspect

    single = [ca.agreement, ca.agreement_test, ca.adjust, ca.confidence_interval,
              ca.nulls.null_distribution]
    assert {inspect.signature(f).parameters["index"].default for f in single} == \
        {"adjusted_rand"}
    # compare: the indices users look for first (issue 45, trap 6); iadjust: the thesis' eight
    assert inspect.signature(ca.compare).parameters["indices"].default == "common"
    assert inspect.signature(ca.iadjust).parameters["indices"].default == "paired"
    assert {"adjusted_rand", "adjusted_mutual_info"} <= set(ca.compare([[5, 1], [1, 5]],
                                                                       interval=None).index)
    for test in (ca.agreement_test, ca.adjust, ca.compare):
        assert inspect.signature(test).parameters["method"].default == "auto", test
    # the thesis' IADJUST keeps its Patefield tables; the interval's method is auto (issue 30)
    assert inspect.signature(ca.iadjust).parameters["method"].default == "patefield"
    # confidence_interval's keywords default to None (not given: the spec's own, "auto")
    assert inspect.signature(ca.confidence_interval).parameters["method"].default is None
    assert ca.IntervalSpec().method == "auto"


def test_a_small_table_gets_its_exact_law_by_default():
    # the case: a 3 x 3 table of 9 objects was tested with 17,000 Patefield tables
    x, y = [0, 0, 0, 1, 1, 1, 2, 2, 2], [0, 0, 1, 1, 1, 2, 2, 2, 0]
    res = ca.agreement_test(x, y)
    exact = ca.agreement_test(x, y, index="adjusted_rand", method="exact")
    assert res.index == "adjusted_rand" and res.method == "exact"
    assert res.pvalue == exact.pvalue and res.pvalue_se == 0
    assert "chosen by method='auto'" in str(res)
    df = ca.compare(x, y, interval=None)
    assert (df["method"] == "exact").all() and df["n_sim"].isna().all()
    # adjusting the ARI by its exact null mean (0 under "perm") gives the ARI, as adjusting
    # the Rand index (the old default) did
    assert ca.adjust(x, y) == pytest.approx(ca.agreement(x, y), abs=1e-12)
    assert ca.adjust(x, y) == pytest.approx(ca.adjust(x, y, index="rand"), abs=1e-12)
    # a NullSpec that names no method is "auto" too
    spec = ca.agreement_test(x, y, method=ca.NullSpec(max_work=10**6))
    assert spec.method == "exact"
    ci = ca.confidence_interval(x, y, n_resamples=200, seed=1)
    assert ci.statistic == ca.agreement(x, y, index="adjusted_rand")


def test_iadjust_keeps_the_thesis_patefield_tables():
    df = ca.iadjust([[3, 1, 0], [0, 2, 1], [1, 0, 2]], n_sim=300, seed=1)
    assert (df["method"] == "patefield").all() and (df["n_sim"] == 300).all()


# -- p-values printed to 3 significant digits (issue 29, item 14) ------------------------------

SHARP = [[40, 0, 0], [0, 35, 5], [0, 5, 35]]  # exact p-values 8.4e-41 (s) and 7.9e-43 (t)


def test_printed_p_values_have_three_significant_digits_and_never_show_a_positive_p_as_0():
    df = ca.compare(SHARP, indices=["rand", "vi"], method="exact", interval=None)
    assert 0 < df["pvalue"].max() < 1e-40
    texts = [f"{p:.3g}" for p in df["pvalue"]]  # 8.4e-41, 7.9e-43
    printed = str(df[["statistic", "pvalue", "pvalue_se"]])
    rows = {line.split()[0]: line.split()[1:] for line in printed.splitlines()[2:]}
    assert rows["rand"][1:] == [texts[0], "0"] and rows["variation_of_information"][1:] == \
        [texts[1], "0"], printed
    with pd.option_context("display.width", 400, "display.max_columns", None):
        assert all(t in repr(df) for t in texts)  # the whole frame, as print(df) shows it
    assert all(t in ca.format_results(df, ["pvalue"]) for t in texts)
    assert all(f">{t}<" in df._repr_html_() for t in texts)
    res = ca.agreement_test(SHARP, index="rand", method="exact")
    assert f"p-value = {texts[0]}\n" in str(res) and texts[0] in res._repr_html_()
    exact = ca.agreement_test([[30, 20], [10, 20]], index="rand", method="exact")
    assert "p-value = 0.0368\n" in str(exact)  # 0.036834...: 3 digits, as R prints


def test_monte_carlo_p_values_are_printed_to_three_digits_with_their_floor():
    res = ca.agreement_test([[4, 2], [1, 3]], index="rand", method="patefield", n_sim=999,
                            seed=1)
    p = res.pvalue
    assert f"p-value = {p:.3g} (Monte Carlo s.e. {res.pvalue_se:.2g};" in str(res)
    df = ca.compare(SHARP, indices=["rand"], method="patefield", n_sim=999, seed=1,
                    interval=None)
    assert df.loc["rand", "n_extreme"] == 0
    assert "<0.001 " in str(df[["pvalue", "pvalue_se", "pvalue_upper"]]) + " "
    thesis = ca.compare(SHARP, indices=["rand"], n_sim=999, seed=1, interval=None,
                        method=ca.NullSpec("patefield", plus_one=False))
    assert thesis.loc["rand", "pvalue"] == 0
    assert str(thesis[["pvalue"]]).split()[-1] == "0"  # the thesis' share 0/B is 0


def test_an_exact_p_value_below_the_floats_is_printed_as_a_bound_not_as_0():
    # 1 / C(1200, 600) ~ 2.5e-360 underflows: an exact p is never 0
    df = ca.compare([[600, 0], [0, 600]], indices=["rand"], method="exact",
                    interval=None)
    assert df.loc["rand", "pvalue"] == 0
    assert "<1e-300" in str(df[["pvalue"]]) and "<1e-300" in ca.format_results(df)
    res = ca.agreement_test([[600, 0], [0, 600]], index="rand", method="exact")
    assert "p-value < 1e-300\n" in str(res)
