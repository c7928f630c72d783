"""``.sentence()`` of every result type (issue 45, item 3): one APA sentence to paste into a
paper, its numbers those of the result, p in APA form, no "nan", and "beyond chance" only where
the test shows it."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

import clusteragree as ca
from clusteragree._display import apa_bound, apa_interval, apa_number, apa_pvalue
from clusteragree.indices import abbreviation

KM = pd.Series([0, 0, 1, 1, 2, 2, 0, 1, 2, 1], name="kmeans")
SPECIES = pd.Series([0, 0, 1, 1, 2, 1, 0, 1, 2, 2], name="species")


def _two(v: float) -> str:
    """A number to 2 decimals, formatted here independently of the package."""
    return f"{v:.2f}"


def _check(text: str) -> None:
    assert isinstance(text, str) and text.endswith(".")
    assert "nan" not in text.lower() and "NA" not in re.findall(r"\bNA\b", text)


# -- the formatting helpers -------------------------------------------------------------------

def test_apa_pvalues_have_no_leading_zero_and_bounds():
    assert apa_pvalue(0.0312) == "p = .031"
    assert apa_pvalue(0.000999) == "p < .001"
    assert apa_pvalue(0.0) == "p < .001"
    assert apa_pvalue(1.0) == "p > .999"
    assert apa_pvalue(math.nan) == "" and apa_pvalue(pd.NA) == ""
    assert apa_bound(1 / 10000) == "p < .0001"
    assert apa_bound(1 / 1000) == "p < .001"
    assert apa_bound(1 / 17001) == "p < .00006"  # rounded up: the bound stays true


def test_apa_numbers_keep_their_sign_and_leave_out_nan():
    assert apa_number(-0.054) == "-0.05" and apa_number(0.4321, 3) == "0.432"
    assert apa_number(math.nan) == "" and apa_number(None) == ""
    assert apa_interval(math.nan, 0.5, 0.95) == ""
    assert apa_interval(-0.1, 0.5, 0.9, closed="right") == "90% CI (-0.10, 0.50]"


def test_the_abbreviations_papers_use():
    assert [abbreviation(i) for i in ("ari", "ami", "nmi", "rand", "jaccard", "vi")] == [
        "ARI", "AMI", "NMI", "Rand", "Jaccard", "VI"]
    assert abbreviation("peirce") == ca.get_index("peirce").title  # the registry's title


# -- AgreementTest ----------------------------------------------------------------------------

def test_agreement_sentence_has_the_tests_numbers():
    res = ca.agreement_test(KM, SPECIES, index="ari", interval="auto", seed=1)
    text = res.sentence()
    _check(text)
    ci = res.interval
    assert f"ARI = {_two(res.statistic)}" in text
    assert f"{_two(ci.low)}, {_two(ci.high)}" in text and "95% CI" in text
    assert f"p = .{round(res.pvalue * 1000):03d}" in text
    assert "exact permutation test" in text and "n = 10 objects" in text
    assert text.startswith("kmeans agreed with species beyond chance")
    assert res.pvalue < 0.05
    assert res.sentence(digits=3).count(f"{res.statistic:.3f}") == 1


def test_no_interval_no_ci_and_digits():
    res = ca.agreement_test([[30, 20], [10, 20]], index="rand", method="exact")
    text = res.sentence()
    _check(text)
    assert "CI" not in text and "n = 80 objects" in text
    assert text.startswith("The two clusterings agreed beyond chance")


def test_beyond_chance_only_when_significant():
    res = ca.agreement_test([[5, 4], [4, 5]], index="ari", method="exact")
    assert res.pvalue >= 0.05
    text = res.sentence()
    _check(text)
    assert "beyond chance" not in text and "no more than chance would give" in text
    assert f"ARI = {_two(res.statistic)}" in text and text.count("-") >= 1  # negative ARI
    # a distance: agreement is its lower tail
    vi = ca.agreement_test([[12, 2], [3, 10]], index="vi", method="exact")
    assert vi.pvalue < 0.05 and "beyond chance" in vi.sentence()
    vi = ca.agreement_test([[5, 4], [4, 5]], index="vi", method="exact")
    assert vi.pvalue >= 0.05 and "beyond chance" not in vi.sentence()


def test_a_significant_test_of_the_other_tail_is_not_agreement():
    res = ca.agreement_test([[4, 4, 4], [4, 4, 4], [4, 4, 4]], index="ari", method="exact",
                            alternative="less")
    assert res.pvalue < 0.05
    text = res.sentence()
    assert "beyond chance" not in text and "less than chance would give" in text


def test_monte_carlo_floor_and_beyond_it():
    res = ca.agreement_test([[15, 1, 0], [1, 14, 1], [0, 1, 15]], index="rand",
                            method="patefield", n_sim=999, seed=1)
    assert res.n_extreme == 0
    text = res.sentence()
    _check(text)
    assert "p < .001" in text and "Monte Carlo permutation test (999 Patefield tables)" in text
    big = np.full((10, 10), 95)
    big[np.diag_indices(10)] = 145
    res = ca.agreement_test(big, index="ari", n_sim=999, seed=1)
    text = res.sentence()
    _check(text)
    assert "p < .001 (beyond the floor p ≈ 1.9e-15, saddlepoint approximation)" in text


def test_moments_only_give_no_p_and_no_chance_claim():
    res = ca.agreement_test([[30, 20], [10, 20]], index="rand", method="hypergeometric")
    text = res.sentence()
    _check(text)
    assert "p " not in text and "chance would give" not in text and "beyond" not in text
    assert "hypergeometric moments" in text and f"z = {_two(res.zscore)}" in text


def test_noise_dropped_is_said():
    x = np.r_[np.repeat([0, 1, 2], 6), [-1, -1, -1]]
    y = np.r_[np.repeat([0, 1, 2], 6), [0, 1, 2]]
    res = ca.agreement_test(x, y, index="ari", noise="drop")
    text = res.sentence()
    _check(text)
    cov = res.clusterings.coverage
    assert f"n = {cov.n_compared} of {cov.n_given} objects, noise left out" in text
    res = ca.agreement_test(x, y, index="ari", noise="singletons")
    assert "n = 21 objects, noise as singletons" in res.sentence()


# -- DifferenceTest ---------------------------------------------------------------------------

def _three():
    ref = np.repeat([0, 1, 2], 20)
    a, b = ref.copy(), ref.copy()
    a[::10], b[::3] = 0, 0
    return ref, a, b


def test_difference_sentence():
    ref, a, b = _three()
    res = ca.difference_test(ref, a, b, index="ari")
    text = res.sentence()
    _check(text)
    assert res.pvalue < 0.05
    assert text.startswith("a agreed with the reference better than b")
    assert f"ΔARI = {_two(res.statistic)}" in text
    assert f"95% CI [{_two(res.low)}, {_two(res.high)}]" in text
    assert f"t({res.df:g}) = {_two(res.tstat)}" in text
    assert f"p = .{round(res.pvalue * 1000):03d}" in text and "n = 60 objects" in text
    # the better one is named first (here the second, "b"); not significant: no "better"
    swapped = ca.difference_test(ref, b, a, index="ari").sentence()
    assert swapped.startswith("b agreed with the reference better than a")
    same = ca.difference_test(ref, a, a.copy(), index="ari")
    assert "better" not in same.sentence() and "did not differ detectably" in same.sentence()
    _check(same.sentence())


def test_difference_of_a_distance_reads_its_sign():
    ref, a, b = _three()
    res = ca.difference_test(ref, a, b, index="vi")
    assert res.statistic < 0 and res.pvalue < 0.05
    assert res.sentence().startswith("a agreed with the reference better than b")
    assert f"ΔVI = {_two(res.statistic)}" in res.sentence()


# -- ConfidenceInterval -----------------------------------------------------------------------

def test_interval_sentence():
    ci = ca.confidence_interval([[30, 5], [4, 25]], index="ari", method="percentile",
                                n_resamples=999, seed=1)
    text = ci.sentence()
    _check(text)
    assert text == (f"ARI = {_two(ci.statistic)}, 95% CI [{_two(ci.low)}, {_two(ci.high)}] "
                    "(percentile bootstrap, 999 resamples).")


def test_interval_without_bounds_says_why():
    from clusteragree.intervals import ConfidenceInterval

    ci = ConfidenceInterval("adjusted_rand", 0.2, math.nan, math.nan, 0.95, "BCa", 999, math.nan,
                            np.empty(0), reason="the index is undefined on some resamples")
    text = ci.sentence()
    _check(text)
    assert text == ("ARI = 0.20; no 95% CI (BCa bootstrap, 999 resamples): the index is "
                    "undefined on some resamples.")


# -- AgreementMatrix --------------------------------------------------------------------------

def _clusterings():
    rng = np.random.default_rng(0)
    truth = np.repeat([0, 1, 2], 20)
    out = {"truth": truth}
    for name, errors in (("km", 5), ("hc", 15), ("rnd", 60)):
        c = truth.copy()
        i = rng.choice(60, errors, replace=False)
        c[i] = rng.integers(0, 3, errors)
        out[name] = c
    return out


def test_matrix_sentence():
    m = ca.agreement_matrix(_clusterings(), index="ari", test=True, seed=1)
    text = m.sentence()
    _check(text)
    values = m.rows["statistic"].astype(float)
    assert f"ranged from {_two(values.min())} to {_two(values.max())}" in text
    n_sig = int((m.rows["pvalue_adjusted"].astype(float) < 0.05).sum())
    assert f"{n_sig} of 6 pairs agreed beyond chance after Holm adjustment" in text
    assert "exact permutation tests" in text
    plain = ca.agreement_matrix(_clusterings(), index="ari").sentence()
    _check(plain)
    assert "(no tests)" in plain and "beyond chance" not in plain


def test_matrix_sentence_names_the_best_against_the_reference():
    m = ca.agreement_matrix(_clusterings(), index="ari", test=True, seed=1, reference="truth")
    text = m.sentence()
    _check(text)
    best = m.reference["statistic"].astype(float).idxmax()
    value = m.reference.loc[best, "statistic"]
    assert f"against the reference truth, {best} agreed best (ARI = {_two(value)}" in text


def test_matrix_sentence_under_noise():
    cl = _clusterings()
    cl["km"] = np.where(np.arange(60) < 5, -1, cl["km"])
    text = ca.agreement_matrix(cl, index="ari", noise="drop").sentence()
    _check(text)
    assert "noise left out" in text


# -- ClusterAgreement -------------------------------------------------------------------------

def test_cluster_sentence():
    x = pd.Series(np.repeat([0, 1, 2], 10), name="km")
    y = pd.Series(np.r_[np.repeat([0, 1], 10), np.repeat([2, 3], 5)], name="truth")
    res = ca.cluster_agreement(x, y)
    text = res.sentence()
    _check(text)
    n_sig = int((res.pairs["pvalue_adjusted"] < 0.05).sum())
    assert text.startswith(f"Of 3 clusters of km and 4 of truth, {res.n_tests} pairs were "
                           f"matched one-to-one, {n_sig} of them overlapping beyond chance "
                           "after Holm adjustment")
    assert "the largest split: km cluster 2 over truth clusters 2 (50%) and 3 (50%)" in text
    assert "n = 30 objects" in text


def test_cluster_sentence_under_noise():
    x = np.r_[np.repeat([0, 1], 10), [-1] * 4]
    y = np.r_[np.repeat([0, 1], 10), [0, 1, 0, 1]]
    text = ca.cluster_agreement(x, y, noise="drop").sentence()
    _check(text)
    assert "n = 20 of 24 objects, noise left out" in text


# -- ClusterStability -------------------------------------------------------------------------

def test_stability_sentence_groups_by_hennigs_reading():
    X, _ = ca.load_dataset("iris")

    def petals(data):
        return np.digitize(data[:, 2], [2.5, 5.0])

    res = ca.cluster_stability(X, petals, n_resamples=5, seed=1, progress=False)
    text = res.sentence()
    _check(text)
    assert text.startswith("All 3 clusters were highly stable")
    assert "over B = 5 bootstrap resamples (Hennig, 2007)" in text

    summary = pd.DataFrame({"cluster": [0, 1, 2], "mean_jaccard": [0.95, 0.66, 1.0],
                            "reading": ["highly stable", "patterns, membership doubtful",
                                        "highly stable"]})
    mixed = ca.studies.clusterwise.ClusterStability(
        summary=summary, jaccard=pd.DataFrame(), labels=np.empty(0), resamples=(),
        n_clusters=np.empty(0), settings=dict(res.settings, n_resamples=100))
    assert mixed.sentence() == (
        "Of 3 clusters, 2 were highly stable (clusters 0 and 2: mean bootstrap Jaccard 0.95 "
        "and 1.00) and 1 doubtful (cluster 1: 0.66) over B = 100 bootstrap resamples "
        "(Hennig, 2007).")


def test_every_result_type_has_a_sentence_method_documented():
    from clusteragree.inference.cluster_results import ClusterAgreement
    from clusteragree.inference.difference_results import DifferenceTest
    from clusteragree.inference.matrix import AgreementMatrix
    from clusteragree.inference.results import AgreementTest
    from clusteragree.intervals import ConfidenceInterval
    from clusteragree.studies.clusterwise import ClusterStability

    for cls in (AgreementTest, DifferenceTest, ConfidenceInterval, AgreementMatrix,
                ClusterAgreement, ClusterStability):
        doc = cls.sentence.__doc__
        assert "Parameters" in doc and "Returns" in doc and ">>>" in doc, cls
