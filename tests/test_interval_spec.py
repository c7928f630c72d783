"""An interval's settings in one object (``clusteragree.intervals.spec``, issue 30, item 3): the
spec is checked when it is made, every public form of ``interval=`` reads to it, ``compare``
and ``agreement_test`` make the interval it names (the same as ``confidence_interval`` with
those settings), every printed interval names its method, and no public function takes more
than 12 named parameters (``plus_one`` moved into ``NullSpec``).

The tests run over ``clusteragree.intervals.METHODS`` (the registered methods), so they hold
whichever methods the interval engine offers."""

from __future__ import annotations

import dataclasses
import inspect

import numpy as np
import pandas as pd
import pytest

import clusteragree as ca
import clusteragree.inference.agreement_tests as inference
from clusteragree.intervals.spec import IntervalSpec, as_interval_spec, interval_methods
from clusteragree.intervals import METHODS, confidence_interval
from clusteragree.inference.results import RESULT_COLUMNS

TAB = np.array([[18, 4, 2], [3, 15, 5], [1, 4, 12]])  # n = 64, moderate agreement
BIG = 10**9  # a Monte Carlo size that would take minutes if work started before the check
NAMES = interval_methods()  # "auto" and the engine's methods


# -- the spec ---------------------------------------------------------------------------------

def test_the_defaults_are_compares_intervals():
    spec = IntervalSpec()
    assert (spec.method, spec.confidence_level, spec.n_resamples, spec.seed) == (
        "auto", 0.95, 9999, None)
    assert repr(spec) == "IntervalSpec()"
    assert inspect.signature(ca.compare).parameters["interval"].default == spec
    assert ca.IntervalSpec is IntervalSpec and "IntervalSpec" in ca.__all__


@pytest.mark.parametrize("name", NAMES)
def test_a_method_is_named_in_any_case_and_kept_in_its_own_spelling(name):
    for given in (name, name.lower(), name.upper()):
        assert IntervalSpec(method=given).method == name
    assert repr(IntervalSpec(method=name.upper())) == (
        "IntervalSpec()" if name == "auto" else f"IntervalSpec(method={name!r})")
    # the engine takes every method a spec names
    assert IntervalSpec(method=name).method in METHODS


def test_the_spec_is_frozen_and_says_what_it_makes():
    spec = IntervalSpec(method="percentile", confidence_level=0.9, n_resamples=999, seed=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        spec.method = "BCa"
    assert repr(spec) == ("IntervalSpec(method='percentile', confidence_level=0.9, "
                          "n_resamples=999, seed=3)")
    assert spec.describe() == "90% percentile intervals, 999 bootstrap resamples of the objects"
    assert "auto" in IntervalSpec().describe()


@pytest.mark.parametrize("kwargs, error, match", [
    ({"confidence_level": 0}, ValueError, "^confidence_level must be between 0 and 1"),
    ({"confidence_level": 1}, ValueError, "^confidence_level must be between 0 and 1"),
    ({"confidence_level": 95}, ValueError, "^confidence_level must be between 0 and 1"),
    ({"confidence_level": "0.95"}, TypeError, "^confidence_level must be a number"),
    ({"confidence_level": float("nan")}, ValueError, "^confidence_level must be finite"),
    ({"n_resamples": 1}, ValueError, "^n_resamples must be >= 2"),
    ({"n_resamples": 99.5}, TypeError, "^n_resamples must be a whole number"),
    ({"n_resamples": True}, TypeError, "^n_resamples must be a whole number"),
    ({"method": 3}, TypeError, "^method must be an interval method name"),
    ({"method": None}, TypeError, "^method must be an interval method name"),
    ({"method": "percentil"}, ValueError, "Did you mean 'percentile'"),
    ({"method": "bootstrap"}, ValueError, r"^method must be one of \['auto'"),
    ({"seed": -1}, ValueError, "^seed must be a non-negative int"),
    ({"seed": "1"}, TypeError, "^seed must be None"),
])
def test_a_bad_setting_is_refused_when_the_spec_is_made(kwargs, error, match):
    with pytest.raises(error, match=match):
        IntervalSpec(**kwargs)


def test_the_seed_of_the_spec_or_a_stream_of_the_calls():
    draw = IntervalSpec(seed=7).generator(call_seed=1).integers(10**9)
    assert draw == np.random.default_rng(7).integers(10**9)
    gen = np.random.default_rng(5)
    assert IntervalSpec(seed=gen).generator(1) is gen  # a Generator goes on with its stream
    own = IntervalSpec().generator(1).integers(10**9)
    assert own == ca.intervals.resampling_generator(1).integers(10**9)
    assert own != np.random.default_rng(1).integers(10**9)  # not the null's stream


# -- the forms of interval= -------------------------------------------------------------------

@pytest.mark.parametrize("value, expected", [
    (None, None),
    (0.9, IntervalSpec(confidence_level=0.9)),
    (np.float64(0.8), IntervalSpec(confidence_level=0.8)),
    ("percentile", IntervalSpec(method="percentile")),
    ("BCA", IntervalSpec(method="BCa")),
    ({"method": "percentile", "n_resamples": 99}, IntervalSpec(method="percentile",
                                                               n_resamples=99)),
    ({}, IntervalSpec()),
])
def test_every_form_of_interval_reads_to_one_spec(value, expected):
    assert as_interval_spec(value) == expected
    spec = IntervalSpec(n_resamples=50)
    assert as_interval_spec(spec) is spec


@pytest.mark.parametrize("value, error, match", [
    (True, TypeError, r"^interval must be None \(no interval\), a confidence level"),
    ([0.95], TypeError, "^interval must be None .* got list"),
    (95, ValueError, r"^interval=95: confidence_level must be between 0 and 1"),
    ("0.95", ValueError, r"^interval='0.95': method must be one of"),
    ({"level": 0.9}, TypeError, r"^interval got 'level', which is not an IntervalSpec field"),
    ({"n_resample": 9}, TypeError, "Did you mean 'n_resamples'"),
    ({"n_resamples": 1}, ValueError, r"^interval=\{'n_resamples': 1\}: n_resamples must be"),
])
def test_a_bad_interval_is_refused_naming_the_argument(value, error, match):
    with pytest.raises(error, match=match):
        as_interval_spec(value)
    with pytest.raises(error, match=match):  # before any work: a billion tables not drawn
        ca.compare(TAB, indices=["rand"], method="patefield", n_sim=BIG, interval=value)
    with pytest.raises(error, match=match):
        ca.agreement_test(TAB, index="rand", method="patefield", n_sim=BIG, interval=value)


@pytest.mark.parametrize("key", ["confidence_level", "n_resamples"])
def test_an_interval_setting_at_the_top_level_is_sent_to_interval(key):
    for call in (ca.compare, ca.agreement_test, ca.iadjust):
        with pytest.raises(TypeError, match=f"^{key}= is a setting of the interval"):
            call(TAB, method="patefield", n_sim=BIG, **{key: 2})


# -- compare and agreement_test make the interval the spec names -------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_compare_makes_confidence_interval_s_interval_with_the_spec_s_settings(name):
    spec = IntervalSpec(method=name, confidence_level=0.9, n_resamples=499, seed=11)
    df = ca.compare(TAB, indices=["adjusted_rand"], method="exact", interval=spec)
    ci = confidence_interval(TAB, index="adjusted_rand", method=spec.method,
                             confidence_level=0.9, n_resamples=499, seed=11)
    row = df.loc["adjusted_rand"]
    assert (row["ci_low"], row["ci_high"], row["ci_level"]) == (ci.low, ci.high, 0.9)
    assert row["ci_method"] == ci.method
    # the same settings as a dict, and agreement_test with the spec, give the same interval
    again = ca.compare(TAB, indices=["adjusted_rand"], method="exact",
                       interval=dataclasses.asdict(spec))
    pd.testing.assert_frame_equal(df, again)
    res = ca.agreement_test(TAB, index="adjusted_rand", method="exact", interval=spec)
    assert (res.interval.low, res.interval.high, res.interval.method) == (ci.low, ci.high,
                                                                          ci.method)
    mine = res.confidence_interval(confidence_level=0.9, method=name, n_resamples=499, seed=11)
    assert (mine.low, mine.high) == (ci.low, ci.high)


def test_without_a_seed_of_its_own_the_interval_draws_a_stream_of_the_calls_seed():
    df = ca.compare(TAB, indices=["rand", "nmi_sum"], n_sim=300, seed=4,
                    interval={"n_resamples": 299})
    for name in ("rand", "nmi_sum"):
        ci = confidence_interval(TAB, index=name, n_resamples=299,
                                 method=IntervalSpec().method,
                                 seed=ca.intervals.resampling_generator(4))
        assert (df.loc[name, "ci_low"], df.loc[name, "ci_high"]) == (ci.low, ci.high)


def test_no_interval_draws_no_bootstrap_and_leaves_the_nulls_as_they_are(monkeypatch):
    with_ci = ca.compare(TAB, indices=["rand", "vi"], n_sim=300, seed=2, interval=0.9)

    def no_bootstrap(*args, **kwargs):
        raise AssertionError("the bootstrap ran")

    monkeypatch.setattr(inference, "intervals_of", no_bootstrap)
    monkeypatch.setattr(inference, "interval_of", no_bootstrap)
    without = ca.compare(TAB, indices=["rand", "vi"], n_sim=300, seed=2, interval=None)
    assert without[["ci_low", "ci_high", "ci_closed", "ci_method", "ci_level"]].isna().all(
        axis=None)
    cols = ["null_mean", "null_sd", "pvalue"]
    pd.testing.assert_frame_equal(with_ci[cols], without[cols])
    assert "intervals:" not in ca.format_results(without)
    # agreement_test makes none unless asked (as before), iadjust none by default
    res = ca.agreement_test(TAB, index="rand", n_sim=300, seed=2)
    assert res.interval is None and pd.isna(res.to_frame().loc["rand", "ci_method"])
    assert ca.iadjust(TAB, n_sim=300, seed=2)["ci_method"].isna().all()


def test_an_interval_needing_more_objects_is_refused_before_the_test_runs():
    with pytest.raises(ValueError, match="^interval: n = 2 is too few objects"):
        ca.agreement_test([[1, 0], [0, 1]], index="rand", method="patefield", n_sim=BIG,
                          interval=IntervalSpec(method="BCa"))


# -- confidence_interval takes the spec as compare does ----------------------------------------

@pytest.mark.parametrize("interval, keywords", [
    (IntervalSpec(method="BCa", confidence_level=0.9, n_resamples=299, seed=5),
     dict(method="BCa", confidence_level=0.9, n_resamples=299, seed=5)),
    ({"method": "percentile", "n_resamples": 199, "seed": 2},
     dict(method="percentile", n_resamples=199, seed=2)),
    (0.8, dict(confidence_level=0.8)),
    ("jackknife", dict(method="jackknife")),
])
def test_confidence_interval_takes_the_spec_or_its_short_forms(interval, keywords):
    by_keywords = confidence_interval(TAB, index="rand", **keywords)
    by_spec = confidence_interval(TAB, index="rand", interval=interval)
    assert (by_spec.low, by_spec.high, by_spec.method, by_spec.confidence_level) == (
        by_keywords.low, by_keywords.high, by_keywords.method, by_keywords.confidence_level)
    np.testing.assert_array_equal(by_spec.bootstrap_distribution,
                                  by_keywords.bootstrap_distribution)
    # a keyword that says what the spec says is no conflict
    same = confidence_interval(TAB, index="rand", interval=interval, **keywords)
    assert (same.low, same.high) == (by_spec.low, by_spec.high)


def test_a_seed_beside_a_spec_without_one_is_the_specs_seed():
    a = confidence_interval(TAB, index="jaccard", seed=3,
                            interval={"method": "percentile", "n_resamples": 199})
    b = confidence_interval(TAB, index="jaccard", method="percentile", seed=3, n_resamples=199)
    assert (a.low, a.high) == (b.low, b.high)


@pytest.mark.parametrize("interval, keywords, match", [
    (0.9, dict(confidence_level=0.95), r"^confidence_level=0.95 disagrees with interval=0.9"),
    ("percentile", dict(method="BCa"), r"^method='BCa' disagrees with interval='percentile'"),
    ({"n_resamples": 99}, dict(n_resamples=999), r"^n_resamples=999 disagrees"),
    (IntervalSpec(seed=1), dict(seed=2), r"^seed=2 disagrees .* \(its seed is 1\)"),
    (IntervalSpec(seed=np.random.default_rng(1)), dict(seed=1), r"^seed=1 disagrees"),
])
def test_confidence_interval_refuses_a_keyword_that_disagrees_with_the_spec(interval, keywords,
                                                                           match):
    with pytest.raises(ValueError, match=match):
        confidence_interval(TAB, index="rand", interval=interval, **keywords)


def test_confidence_interval_refuses_a_bad_spec_naming_the_argument():
    with pytest.raises(ValueError, match=r"^interval=1.5: confidence_level must be between"):
        confidence_interval(TAB, index="rand", interval=1.5)
    with pytest.raises(TypeError, match=r"^interval got 'level'"):
        confidence_interval(TAB, index="rand", interval={"level": 0.9})


# -- every printed interval names its method ---------------------------------------------------

def test_every_printed_interval_names_its_method():
    spec = IntervalSpec(method="percentile", n_resamples=199, seed=1)
    df = ca.compare(TAB, indices=["rand", "jaccard"], method="exact", interval=spec)
    cols = list(df.columns)
    assert cols.index("ci_method") == cols.index("ci_high") + 2  # after ci_closed
    assert tuple(cols) == RESULT_COLUMNS
    assert (df["ci_method"] == "percentile").all()
    text = ca.format_results(df, ["statistic", "ci_low", "ci_high"])
    assert text.splitlines()[1] == ("intervals: 95% percentile intervals, 199 bootstrap "
                                    "resamples of the objects")
    assert "intervals: 95% percentile intervals" in df._repr_html_()
    res = ca.agreement_test(TAB, index="rand", method="exact", interval=spec)
    assert "95 percent confidence interval (percentile bootstrap, 199 resamples): " in str(res)
    assert res.to_frame().loc["rand", "ci_method"] == "percentile"


def test_a_printed_test_whose_index_has_no_interval_says_why():
    # kappa, which matches clusters one to one, is not defined on the resamples of this table
    # that lose its last row and keep its third column (tests/test_intervals.py, SMALL_ROW)
    tab = np.array([[20, 2, 0], [3, 15, 1], [0, 1, 1]])
    res = ca.agreement_test(tab, index="kappa", method="exact",
                            interval=IntervalSpec(method="percentile", n_resamples=500,
                                                  seed=1))
    assert "not defined on some bootstrap resamples" in res.interval.reason
    assert (f"95 percent confidence interval (percentile bootstrap, 500 resamples): no "
            f"interval, {res.interval.reason}") in str(res)
    assert pd.isna(res.to_frame().loc["kappa", "ci_low"])


# -- plus_one in NullSpec, and no public function above 12 parameters --------------------------

def test_plus_one_travels_in_the_null_spec():
    sharp = [[20, 0], [0, 20]]
    plus = ca.agreement_test(sharp, index="rand", method="patefield", n_sim=99, seed=1)
    share = ca.agreement_test(sharp, index="rand", n_sim=99, seed=1,
                              method=ca.NullSpec("patefield", plus_one=False))
    k = plus.n_extreme
    assert (plus.pvalue, share.pvalue) == ((k + 1) / 100, k / 99)
    assert repr(ca.NullSpec(plus_one=False)) == "NullSpec(plus_one=False)"
    # iadjust: the thesis' share for a named method; a NullSpec says it itself
    thesis = ca.iadjust(sharp, indices=["rand"], n_sim=99, seed=1)
    assert thesis.loc["rand", "pvalue"] == k / 99
    own = ca.iadjust(sharp, indices=["rand"], n_sim=99, seed=1,
                     method=ca.NullSpec("patefield"))
    assert own.loc["rand", "pvalue"] == (k + 1) / 100
    for call in (ca.compare, ca.agreement_test, ca.iadjust, ca.adjust):
        assert "plus_one" not in inspect.signature(call).parameters


def _public_functions():
    """Every public function of the package's face, of ca.nulls and of ca.inference."""
    seen = {}
    for module in (ca, ca.nulls, inference):
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                seen[f"{obj.__module__}.{obj.__qualname__}"] = obj
    return seen


#: The most named parameters of a public function: the method's settings go in one spec
#: (NullSpec, IntervalSpec), so only the data and what selects its objects are parameters.
#: 12 until issue 43 added ``noise=`` and ``sample_weight=``: per-object inputs, taken beside
#: the labels as scikit-learn's metrics take them, not a method's settings.
MOST_PARAMETERS = 14


def test_no_public_function_takes_more_than_14_named_parameters():
    functions = _public_functions()
    assert {"clusteragree.inference.agreement_tests.compare",
            "clusteragree.inference.agreement_tests.agreement_test",
            "clusteragree.nulls.engine.null_distribution"} <= set(functions)
    too_many = {}
    for name, func in functions.items():
        named = [p for p in inspect.signature(func).parameters.values()
                 if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        if len(named) > MOST_PARAMETERS:
            too_many[name] = len(named)
    assert too_many == {}
