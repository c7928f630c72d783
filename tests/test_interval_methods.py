"""The interval methods as records of a registry (issue 42, item 2): each record says what its
method needs (bootstrap resamples, the jackknife, the test of independence) and makes the
interval from it; the engine draws only what the record asks for, and the names a spec takes
are the registered ones."""

from __future__ import annotations

import math

import numpy as np
import pytest

import clusteragree as ca
from clusteragree.inputs import as_clusterings
from clusteragree.intervals import (METHODS, ConfidenceInterval, IntervalMethod, IntervalSpec,
                                    get_interval_method, interval_methods, intervals_of,
                                    register_interval_method)
from clusteragree.intervals import engine
from clusteragree.intervals._methods import unregister_interval_method
from clusteragree.intervals.spec import fewest_objects

TAB = np.array([[18, 4, 2], [3, 15, 5], [1, 4, 12]])


def test_the_four_methods_are_records_that_say_what_they_need():
    assert METHODS == tuple(interval_methods()) == ("auto", "jackknife", "BCa", "percentile")
    needs = {name: (m.bootstrap, m.jackknife, m.independence_test)
             for name in METHODS for m in [get_interval_method(name)]}
    assert needs == {"auto": (False, True, True), "jackknife": (False, True, False),
                     "BCa": (True, True, False), "percentile": (True, False, False)}
    assert ca.intervals.BOOTSTRAP_METHODS == ("BCa", "percentile")
    for name in METHODS:
        assert get_interval_method(name.upper()).name == name
        assert IntervalSpec(method=name.lower()).method == name


def test_an_unknown_method_is_refused_with_the_registered_names():
    with pytest.raises(ValueError, match=r"^method must be one of \['auto', 'jackknife', "
                                         r"'BCa', 'percentile'\].*Did you mean 'BCa'"):
        get_interval_method("bcaa")
    with pytest.raises(TypeError, match="interval method name"):
        get_interval_method(3)
    with pytest.raises(ValueError, match="declared twice"):
        register_interval_method(IntervalMethod("bca", "again", lambda d: None))


@pytest.mark.parametrize("name", METHODS)
def test_one_rule_of_the_fewest_objects(name):
    """An index needs rec.min_n objects; a method that leaves one out one more."""
    method = get_interval_method(name)
    for index in ("rand", "adjusted_rand", "nmi_sum", "kappa"):
        rec = ca.get_index(index)
        assert method.needs(rec) == IntervalSpec(method=name).needs(rec) == max(
            rec.min_n + method.jackknife, 2) == fewest_objects(rec, method.jackknife)


def test_the_difference_test_takes_the_same_rule():
    rec = ca.get_index("adjusted_rand")
    need = max(3, fewest_objects(rec, leave_one_out=True))
    x = np.arange(need - 1) % 2
    with pytest.raises(ValueError, match=f"needs at least {need} objects"):
        ca.difference_test(x, x, x, index="adjusted_rand")


@pytest.fixture
def toy():
    """A toy method that needs what the test says and records the draws it was given."""
    seen = []

    def add(name, **needs):
        def make(d):
            seen.append(d)
            low, high = (float(v) for v in d.rec.range)
            return ConfidenceInterval(d.rec.name, d.statistic, low, high, d.confidence_level,
                                      name, 0 if d.bootstrap is None else d.bootstrap.size,
                                      math.nan, np.empty(0), d.resampling)
        register_interval_method(IntervalMethod(name, "a toy", make, **needs))
        return seen

    yield add
    for name in ("toy", "toy_all"):
        unregister_interval_method(name)


def test_the_engine_draws_only_what_a_method_needs(toy, monkeypatch):
    seen = toy("toy")
    for name in ("table_bootstrap", "table_jackknife", "independence_laws"):
        def refuse(*args, name=name, **kwargs):
            raise AssertionError(f"{name} ran")
        monkeypatch.setattr(engine, name, refuse)
    ci = ca.confidence_interval(TAB, index="rand", method="toy")
    assert (ci.low, ci.high, ci.method) == (0.0, 1.0, "toy")
    (d,) = seen
    assert d.bootstrap is None and d.jackknife is None and d.law is None and d.reason == ""
    assert d.statistic == ca.agreement(TAB, index="rand") and d.counts.tolist() == TAB.tolist()
    assert IntervalSpec(method="TOY").describe() == "95% intervals by a toy"
    assert "toy" in interval_methods()


def test_the_engine_hands_a_method_the_draws_it_declared(toy):
    seen = toy("toy_all", bootstrap=True, jackknife=True, independence_test=True)
    spec = IntervalSpec(method="toy_all", n_resamples=99, seed=3)
    recs = [ca.get_index("rand"), ca.get_index("nmi_sum")]
    cis = intervals_of(as_clusterings(TAB), recs, {"rand": {}, "nmi_sum": {}}, spec)
    assert [d.rec.name for d in seen] == ["rand", "nmi_sum"]
    bca = ca.confidence_interval(TAB, index="rand", method="BCa", n_resamples=99, seed=3)
    auto = ca.confidence_interval(TAB, index="rand", seed=3)
    d = seen[0]
    np.testing.assert_array_equal(d.bootstrap, bca.bootstrap_distribution)
    rows, cols = np.nonzero(TAB)
    values, weights = d.jackknife
    np.testing.assert_array_equal(weights, TAB[rows, cols])
    assert values.shape == (rows.size,)
    assert d.law is not None and d.law.pvalue(d.statistic, "greater") == pytest.approx(
        auto.independence_pvalue)
    assert cis["rand"].n_resamples == 99
    assert "describe" not in vars(IntervalMethod)  # a record, not a class per method
    assert IntervalSpec(method="toy_all", n_resamples=99).describe() == (
        "95% toy_all intervals, 99 bootstrap resamples of the objects")


def test_compare_takes_a_registered_method(toy):
    toy("toy")
    df = ca.compare(TAB, indices=["rand", "jaccard"], method="exact", interval="toy")
    assert (df["ci_method"] == "toy").all() and (df["ci_high"] == 1.0).all()
