"""Noise labels, partial references and sample weights (issue 43), each against an independent
computation: singletons = the labels with each noise object given a fresh label by hand; drop =
the labels subset by hand; integer weights = the objects repeated; exact laws under singletons =
brute force over every permutation of the objects."""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clusteragree as ca
from clusteragree.inputs.objects import Coverage

RNG = np.random.default_rng(20261127)


def _labels(n=60, k=3, noise=0.2, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, k, n)
    y = np.where(rng.random(n) < 0.7, x, rng.integers(0, k, n))
    x = np.where(rng.random(n) < noise, -1, x)
    y = np.where(rng.random(n) < noise, -1, y)
    return x, y


def _fresh(labels, side_noise=True):
    """Each -1 a label of its own, by hand."""
    out = list(labels)
    nxt = max(labels) + 1
    for i, v in enumerate(out):
        if v == -1 and side_noise:
            out[i] = nxt
            nxt += 1
    return np.array(out)


TABLE_INDICES = [name for name, row in ca.list_indices().iterrows() if row["input"] == "table"]


# -- the policies against hand-made labels ----------------------------------------------------

@pytest.mark.parametrize("index", TABLE_INDICES)
def test_every_table_index_under_each_policy_is_the_hand_made_labels(index):
    x, y = _labels(seed=1)
    keep = (x != -1) & (y != -1)
    hand = {"cluster": (x, y), "singletons": (_fresh(x), _fresh(y)), "drop": (x[keep], y[keep])}
    for policy, (hx, hy) in hand.items():
        try:
            expected = ca.agreement(hx, hy, index=index, noise="cluster")
        except (ValueError, TypeError) as exc:  # not defined here: refused the same way
            with pytest.raises(type(exc)):
                ca.agreement(x, y, index=index, noise=policy)
            continue
        got = ca.agreement(x, y, index=index, noise=policy)
        assert got == pytest.approx(expected, rel=1e-12, abs=1e-12), (index, policy)


@pytest.mark.filterwarnings("ignore::clusteragree.NoiseLabelWarning")  # the side not covered
@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(-1, 3), st.integers(-1, 3)), min_size=3, max_size=40),
       st.sampled_from(["x", "y", "both"]))
def test_singletons_and_drop_on_one_side_are_the_hand_made_labels(pairs, side):
    x = np.array([p[0] for p in pairs])
    y = np.array([p[1] for p in pairs])
    on_x, on_y = side in ("x", "both"), side in ("y", "both")
    hx = _fresh(x) if on_x else x
    hy = _fresh(y) if on_y else y
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ca.NoiseLabelWarning)
        expected = ca.agreement(hx, hy, index="rand")
    assert ca.agreement(x, y, index="rand", noise=ca.Noise("singletons", side=side)) == (
        pytest.approx(expected, abs=1e-12))
    keep = ~(((x == -1) & on_x) | ((y == -1) & on_y))
    if keep.sum() >= 2:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ca.NoiseLabelWarning)
            expected = ca.agreement(x[keep], y[keep], index="rand")
        got = ca.agreement(x, y, index="rand", noise=ca.Noise("drop", side=side))
        assert got == pytest.approx(expected, abs=1e-12)


def test_drop_where_every_object_is_noise_is_refused_naming_the_policy():
    with pytest.raises(ValueError, match="noise='drop' leaves no object"):
        ca.agreement_test([-1] * 10, [0, 1] * 5, noise="drop")
    with pytest.raises(ValueError, match="noise='drop'"):
        ca.agreement_matrix({"a": [-1] * 6, "b": [0, 1] * 3}, noise="drop")


def test_the_noise_convention_warns_once_and_not_when_noise_is_given():
    x, y = _labels(seed=2)
    with pytest.warns(ca.NoiseLabelWarning, match="counted as one cluster"):
        ca.agreement(x, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ca.agreement(x, y, noise="cluster")  # chosen: silent
        ca.agreement(x + 1, y + 1)  # no -1
        ca.agreement(np.where(x == -1, -2, x), y + 1)  # other negative labels: not the convention


def test_the_warning_points_at_the_callers_line():
    x, y = _labels(seed=3)
    with pytest.warns(ca.NoiseLabelWarning) as record:
        ca.adjust(x, y)
    assert record[0].filename == __file__


def test_a_label_named_unknown_is_a_partial_reference():
    ref = np.array(["a", "a", "b", "b", "unknown", "unknown", "a", "b"], dtype=object)
    clu = np.array([0, 0, 1, 1, 0, 1, 1, 1])
    got = ca.agreement_test(ref, clu, noise=ca.Noise("drop", label="unknown", side="x"))
    keep = ref != "unknown"
    assert got.statistic == pytest.approx(ca.agreement(ref[keep], clu[keep]), abs=1e-15)
    assert "6 of 8 objects compared (75%)" in str(got)
    nan_ref = pd.Series(np.where(keep, ref, None))
    cov = ca.compare(nan_ref, pd.Series(clu), indices=["ari"], dropna=True,
                     interval=None).attrs["coverage"]
    assert (cov.n_given, cov.n_compared, cov.missing) == (8, 6, (2, 0))


def test_every_result_states_the_policy_and_coverage():
    x, y = _labels(seed=4)
    n_x, n_y = int((x == -1).sum()), int((y == -1).sum())
    kept = int(((x != -1) & (y != -1)).sum())
    text = str(ca.agreement_test(x, y, noise="drop", method="hypergeometric"))
    assert f"left out: {n_x} in x, {n_y} in y; {kept} of {len(x)} objects compared" in text
    frame = ca.compare(x, y, indices=["ari", "nmi"], noise="singletons", interval=None,
                       method="hypergeometric")
    assert any("as singletons" in note for note in frame.attrs["notes"])
    assert "as singletons" in ca.format_results(frame)
    assert "as singletons" in frame._repr_html_()
    ci = ca.confidence_interval(x, y, noise="drop", method="jackknife")
    assert "objects compared" in repr(ci)
    nd = ca.nulls.null_distribution(x, y, noise="drop", method="hypergeometric")
    assert nd.details["n_compared"] == kept and "objects compared" in repr(nd)


# -- null laws follow the policy ----------------------------------------------------------------

def test_exact_law_under_singletons_is_the_brute_force_over_permutations():
    x = np.array([0, 0, 1, 1, -1, -1, 2])
    y = np.array([0, 1, 1, 1, 0, -1, 0])
    fx, fy = _fresh(x), _fresh(y)
    observed = ca.agreement(x, y, index="rand", noise="singletons")
    values = []
    for perm in itertools.permutations(range(len(fy))):  # fixed margins: permute y's objects
        values.append(ca.agreement(fx, fy[list(perm)], index="rand"))
    values = np.array(values)
    brute = np.mean(values >= observed - 1e-12)
    test = ca.agreement_test(x, y, index="rand", noise="singletons", method="exact")
    assert test.pvalue == pytest.approx(brute, rel=1e-9)
    nd = ca.nulls.null_distribution(x, y, index="rand", method="exact", noise="singletons")
    assert nd.mean == pytest.approx(values.mean(), rel=1e-9)


def test_drop_conditions_the_law_on_the_objects_kept():
    x, y = _labels(n=40, seed=5)
    keep = (x != -1) & (y != -1)
    a = ca.agreement_test(x, y, noise="drop", method="exact")
    b = ca.agreement_test(x[keep], y[keep], method="exact")
    assert a.pvalue == b.pvalue and a.statistic == b.statistic


# -- sample weights -------------------------------------------------------------------------

def test_integer_weights_are_the_objects_repeated():
    x, y = _labels(n=40, noise=0, seed=6)
    w = np.random.default_rng(6).integers(0, 4, len(x))
    rx, ry = np.repeat(x, w), np.repeat(y, w)
    for index in ("adjusted_rand", "ami", "nmi", "jaccard", "vi"):
        assert ca.agreement(x, y, index=index, sample_weight=w) == pytest.approx(
            ca.agreement(rx, ry, index=index), rel=1e-12, abs=1e-12)
    got = ca.agreement_test(x, y, sample_weight=w, method="exact")
    want = ca.agreement_test(rx, ry, method="exact")
    assert got.pvalue == pytest.approx(want.pvalue, rel=1e-12)
    ci = ca.confidence_interval(x, y, sample_weight=w, method="jackknife")
    cj = ca.confidence_interval(rx, ry, method="jackknife")
    assert (ci.low, ci.high) == pytest.approx((cj.low, cj.high), rel=1e-12)
    r = np.random.default_rng(7).integers(0, 3, len(x))
    d1 = ca.difference_test(r, x, y, sample_weight=w)
    d2 = ca.difference_test(np.repeat(r, w), rx, ry)
    assert d1.pvalue == pytest.approx(d2.pvalue, rel=1e-12)


def _c2(m):
    return m * (m - 1) / 2


def test_weighted_ari_is_its_formula_on_the_table_of_weight_sums():
    x, y = _labels(n=50, noise=0, seed=8)
    w = np.random.default_rng(8).uniform(0.2, 3.0, len(x))
    table = np.zeros((x.max() + 1, y.max() + 1))
    np.add.at(table, (x, y), w)
    a = _c2(table).sum()
    b, c = _c2(table.sum(1)).sum(), _c2(table.sum(0)).sum()
    e = b * c / _c2(table.sum())
    expected = (a - e) / ((b + c) / 2 - e)
    assert ca.agreement(x, y, sample_weight=w) == pytest.approx(expected, rel=1e-12)


def test_non_integer_weights_are_refused_by_null_methods_naming_sample_weight():
    x, y = _labels(n=30, noise=0, seed=9)
    w = np.full(len(x), 0.5)
    for call in (lambda: ca.agreement_test(x, y, sample_weight=w),
                 lambda: ca.compare(x, y, sample_weight=w),
                 lambda: ca.nulls.null_distribution(x, y, sample_weight=w),
                 lambda: ca.difference_test(x, y, x, sample_weight=w)):
        with pytest.raises(ValueError, match="sample_weight"):
            call()


def test_weighted_interval_covers_its_estimate_and_is_seeded():
    x, y = _labels(n=80, noise=0, seed=10)
    w = np.random.default_rng(10).uniform(0.5, 2.0, len(x))
    a = ca.confidence_interval(x, y, sample_weight=w, n_resamples=499, seed=1)
    b = ca.confidence_interval(x, y, sample_weight=w, n_resamples=499, seed=1)
    assert (a.low, a.high) == (b.low, b.high)
    assert a.low < a.statistic < a.high and a.resampling == "objects"
    assert "sample weights" in repr(a)


@pytest.mark.parametrize("bad, match", [
    ([1, 2], "2 weights for"), ([1.0] * 5 + [-1.0], "negative"), ([0.0] * 6, "every object 0"),
    ([np.nan] * 6, "NaN"), ("abc", "1-D array")])
def test_bad_weights_are_refused_by_name(bad, match):
    with pytest.raises((TypeError, ValueError), match=match):
        ca.agreement([0, 0, 1, 1, 2, 2], [0, 1, 1, 1, 2, 2], sample_weight=bad)


def test_noise_needs_labels_not_a_table_and_a_known_policy():
    with pytest.raises(TypeError, match="not a contingency table"):
        ca.agreement([[3, 1], [0, 4]], noise="drop")
    with pytest.raises(ValueError, match="noise"):
        ca.agreement([0, 1], [0, 1], noise="ignore")
    with pytest.raises(TypeError, match="noise must be"):
        ca.agreement([0, 1], [0, 1], noise=-1)


def test_matrix_drop_compares_each_pair_on_the_objects_noise_in_neither():
    rng = np.random.default_rng(11)
    cl = {k: np.where(rng.random(50) < 0.2, -1, rng.integers(0, 3, 50)) for k in "abc"}
    m = ca.agreement_matrix(cl, noise="drop", index="rand")
    for i, j in (("a", "b"), ("a", "c"), ("b", "c")):
        keep = (cl[i] != -1) & (cl[j] != -1)
        assert m.statistic.loc[i, j] == pytest.approx(
            ca.agreement(cl[i][keep], cl[j][keep], index="rand"), abs=1e-12)
    assert "left out" in m.title


def test_coverage_in_words():
    cov = Coverage(10, 8, missing=(2, 0))
    assert cov.describe() == "missing labels left out: 2 in x; 8 of 10 objects compared (80%)"
    assert math.isclose(cov.share_compared, 0.8)


def test_matrix_integer_weights_are_the_objects_repeated():
    rng = np.random.default_rng(12)
    cl = {k: rng.integers(0, 3, 40) for k in "abc"}
    w = rng.integers(0, 3, 40)
    m = ca.agreement_matrix(cl, index="adjusted_rand", sample_weight=w, reference="c",
                            test=True, seed=1, n_sim=199)
    rep = {k: np.repeat(v, w) for k, v in cl.items()}
    r = ca.agreement_matrix(rep, index="adjusted_rand", reference="c", test=True, seed=1,
                            n_sim=199)
    np.testing.assert_allclose(m.statistic.to_numpy(float), r.statistic.to_numpy(float),
                               rtol=1e-12)
    d1 = m.reference_differences["pvalue"].to_numpy(float)
    d2 = r.reference_differences["pvalue"].to_numpy(float)
    np.testing.assert_allclose(d1, d2, rtol=1e-12)
    with pytest.raises(ValueError, match="whole numbers"):
        ca.agreement_matrix(cl, sample_weight=w + 0.5)


def test_a_policy_that_would_miss_noise_written_as_text_is_refused():
    x = np.array(["0", "0", "1", "-1", "1", "-1"], dtype=object)
    y = [0, 0, 1, 1, 1, 0]
    with pytest.raises(ValueError, match="holds the text '-1'"):
        ca.agreement(x, y, noise="drop")
    assert ca.agreement(x, y, noise=ca.Noise("drop", label="-1")) == 1.0


def test_singletons_with_integer_weights_are_the_objects_repeated():
    x = np.array([0, 0, 1, 1, -1, -1, 2, 2])
    y = np.array([0, 0, 1, 1, 1, -1, 2, 0])
    w = np.array([1, 2, 1, 3, 2, 3, 1, 2])
    rx, ry = np.repeat(x, w), np.repeat(y, w)
    for index in ("adjusted_rand", "nmi_sum", "jaccard"):
        want = ca.agreement(rx, ry, index=index, noise="singletons")
        assert ca.agreement(x, y, index=index, noise="singletons", sample_weight=w) == (
            pytest.approx(want, abs=1e-12))
    m = ca.agreement_matrix({"x": x, "y": y, "z": x[::-1]}, noise="singletons",
                            sample_weight=w, index="rand")
    r = ca.agreement_matrix({"x": rx, "y": ry, "z": np.repeat(x[::-1], w)},
                            noise="singletons", index="rand")
    np.testing.assert_allclose(m.statistic.to_numpy(float), r.statistic.to_numpy(float),
                               atol=1e-12)


def test_a_policy_on_one_side_still_warns_of_the_other_sides_minus_one():
    x, y = _labels(seed=13)
    with pytest.warns(ca.NoiseLabelWarning, match="^y uses the label -1"):
        ca.agreement(x, y, noise=ca.Noise("drop", side="x"))


def test_the_matrix_reference_frame_says_how_many_objects_each_comparison_kept():
    rng = np.random.default_rng(14)
    cl = {k: np.where(rng.random(40) < 0.2, -1, rng.integers(0, 3, 40)) for k in "rab"}
    m = ca.agreement_matrix(cl, reference="r", noise="drop", index="rand")
    for name in "ab":
        assert m.reference.loc[name, "n_compared"] == int(((cl["r"] != -1)
                                                           & (cl[name] != -1)).sum())
