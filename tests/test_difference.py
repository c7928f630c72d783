"""``difference_test``: Delta = I(reference, a) - I(reference, b), its jackknife standard error,
interval and p-value, checked against direct computations (``ca.agreement`` on the objects, one
object deleted at a time; the structural components of DeLong et al. 1988 for ARI)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scipy import stats

import clusteragree as ca
from clusteragree._display import significant
from clusteragree.inference.difference import DIFFERENCE_COLUMNS
from clusteragree.indices import PairIndex

SETTINGS = dict(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])


def noisy(reference, rho, rng, K=None):
    """The reference with each label replaced by a uniform random one with probability rho."""
    K = int(reference.max()) + 1 if K is None else K
    return np.where(rng.random(reference.size) < rho, rng.integers(0, K, reference.size),
                    reference)


def three(n=60, rho_a=0.2, rho_b=0.4, seed=0, K=3):
    rng = np.random.default_rng(seed)
    ref = rng.integers(0, K, n)
    return ref, noisy(ref, rho_a, rng, K), noisy(ref, rho_b, rng, K)


# -- Delta itself ------------------------------------------------------------------------------

TABLE_INDICES = [n for n in ca.list_indices().index
                 if not isinstance(ca.get_index(n), PairIndex)]


@pytest.mark.parametrize("name", TABLE_INDICES)
def test_delta_is_the_difference_of_the_two_agreements_for_every_table_index(name):
    rec = ca.get_index(name)
    ref, a, b = three(n=60)
    if rec.kind not in ("similarity", "distance"):  # the rule: no agreement, refused by name
        with pytest.raises(ValueError, match=f"{name}.*not a similarity or a distance"):
            ca.difference_test(ref, a, b, index=name)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # strong agreements: no warning of independence
        res = ca.difference_test(ref, a, b, index=name, seed=1)
    expected = ca.agreement(ref, a, index=name) - ca.agreement(ref, b, index=name)
    assert res.statistic == pytest.approx(expected, rel=1e-12, abs=1e-12)
    assert res.agreement_a == pytest.approx(ca.agreement(ref, a, index=name), rel=1e-12,
                                            abs=1e-12)
    assert res.standard_error > 0 and 0 <= res.pvalue <= 1


def fuzzy_three(n=30, seed=4):
    """A fuzzy reference and two fuzzy clusterings of it (every membership positive, so no
    cluster empties when an object is left out)."""
    rng = np.random.default_rng(seed)
    ref = rng.integers(0, 3, n)

    def fuzzy(labels):
        U = np.full((n, 3), 0.05) + 0.3 * rng.random((n, 3))
        U[np.arange(n), labels] += 1
        return U / U.sum(axis=1, keepdims=True)

    return fuzzy(ref), fuzzy(noisy(ref, 0.2, rng, 3)), fuzzy(noisy(ref, 0.5, rng, 3))


@pytest.mark.parametrize("index", ["agri", "fri", "ari_mm"])
def test_memberships_get_the_object_jackknife_equal_to_deleting_rows(index):
    R, A, B = fuzzy_three()
    n = R.shape[0]
    matrix = index == "ari_mm"  # similarity matrices: a row and its column deleted
    if matrix:
        R, A, B = (ca.coassociation(U) for U in (R, A, B))

    def sub(M, k):
        return M[np.ix_(k, k)] if matrix else M[k]

    delta = ca.agreement(R, A, index=index) - ca.agreement(R, B, index=index)
    keep = [np.arange(n) != o for o in range(n)]
    loo = np.array([ca.agreement(sub(R, k), sub(A, k), index=index)
                    - ca.agreement(sub(R, k), sub(B, k), index=index) for k in keep])
    ps = n * delta - (n - 1) * loo
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = ca.difference_test(R, A, B, index=index, seed=1)
    assert res.statistic == pytest.approx(delta, abs=1e-12)
    assert res.estimate == pytest.approx(ps.mean(), abs=1e-10)
    assert res.standard_error == pytest.approx(ps.std(ddof=1) / math.sqrt(n), abs=1e-10)
    assert "each left out in turn" in res.data_name


def test_an_index_of_object_pairs_takes_no_bootstrap_and_names_the_pair_in_its_errors():
    R, A, B = fuzzy_three()
    for method in ("bootstrap", "corrected"):
        with pytest.raises(ValueError, match=rf"method='{method}'.*agri"):
            ca.difference_test(R, A, B, index="agri", method=method)
    with pytest.raises(ValueError, match=r"reference and b"):
        ca.difference_test(R, A, B[:-1], index="agri")


# -- the jackknife against a direct loop -------------------------------------------------------

def direct_jackknife(ref, a, b, index):
    """Delete each object in turn and call ca.agreement: pseudovalues, their mean and s.e."""
    n = ref.size
    delta = ca.agreement(ref, a, index=index) - ca.agreement(ref, b, index=index)
    loo = np.empty(n)
    for o in range(n):
        keep = np.arange(n) != o
        loo[o] = (ca.agreement(ref[keep], a[keep], index=index)
                  - ca.agreement(ref[keep], b[keep], index=index))
    ps = n * delta - (n - 1) * loo
    return ps.mean(), ps.std(ddof=1) / math.sqrt(n)


@pytest.mark.parametrize("index", ["adjusted_rand", "adjusted_mutual_info",
                                   "variation_of_information", "fowlkes_mallows", "nmi_sqrt",
                                   "jaccard", "van_dongen"])
def test_the_jackknife_equals_deleting_each_object_and_calling_agreement(index):
    ref, a, b = three(n=30, rho_a=0.3, rho_b=0.5, seed=3, K=4)
    center, se = direct_jackknife(ref, a, b, index)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = ca.difference_test(ref, a, b, index=index, method="jackknife", seed=1)
    # n = 30 pseudovalues n Delta - (n - 1) Delta_(o): float rounding of 1e-16 grows by n
    assert res.estimate == pytest.approx(center, abs=1e-11)
    assert res.standard_error == pytest.approx(se, abs=1e-11)
    t = stats.t.ppf(0.975, ref.size - 1)
    assert (res.low, res.high) == pytest.approx((center - t * se, center + t * se), abs=1e-10)
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(center / se), ref.size - 1),
                                       rel=1e-9)


@pytest.mark.parametrize("index", ["adjusted_rand", "adjusted_mutual_info",
                                   "variation_of_information"])
def test_the_corrected_variance_equals_deleting_each_pair_of_objects(index):
    ref, a, b = three(n=20, rho_a=0.3, rho_b=0.5, seed=3, K=3)
    n = ref.size

    def delta(keep):
        return (ca.agreement(ref[keep], a[keep], index=index)
                - ca.agreement(ref[keep], b[keep], index=index))

    everyone = np.ones(n, dtype=bool)
    full = delta(everyone)
    one = np.array([delta(np.arange(n) != o) for o in range(n)])
    Q = 0.0
    for o in range(n):
        for p in range(o + 1, n):
            keep = everyone.copy()
            keep[[o, p]] = False
            Q += (full - one[o] - one[p] + delta(keep)) ** 2
    ps = n * full - (n - 1) * one
    v_J = ps.var(ddof=1) / n
    expected = (n / (n - 1)) ** 2 * v_J - (n - 3) / (n - 1) * Q
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = ca.difference_test(ref, a, b, index=index, method="corrected", seed=1)
    assert res.standard_error ** 2 == pytest.approx(expected, rel=1e-9)
    assert res.estimate == pytest.approx(ps.mean(), abs=1e-11)
    assert "corrected jackknife t" in str(res)


def structural_components_variance(ref, a, b):
    """Var(ARI(ref, a) - ARI(ref, b)) by DeLong et al.'s structural components: ARI =
    (u11 - u2 u3) / ((u2 + u3) / 2 - u2 u3) of the pair U-statistics u11 (together in both),
    u2 (in ref), u3 (in the other); per-object components V(o) = mean over o' != o of the
    kernel; Var(u) ~ 4 Cov(V) / n; the delta method."""
    n = ref.size
    same = [np.equal.outer(v, v) for v in (ref, a, b)]
    off = ~np.eye(n, dtype=bool)
    kernels = [same[0] & same[1], same[0] & same[2], same[0], same[1], same[2]]
    u = np.array([k[off].mean() for k in kernels])
    V = np.array([(k & off).sum(axis=1) / (n - 1) for k in kernels])  # 5 x n

    def ari(u11, u2, u3):
        return (u11 - u2 * u3) / ((u2 + u3) / 2 - u2 * u3)

    def delta(u):
        return ari(u[0], u[2], u[3]) - ari(u[1], u[2], u[4])

    h = 1e-6
    grad = np.array([(delta(u + h * e) - delta(u - h * e)) / (2 * h) for e in np.eye(5)])
    return float(grad @ (4 * np.cov(V) / n) @ grad), delta(u)


@pytest.mark.parametrize("n", [200, 1600])
def test_the_jackknife_variance_of_ari_is_delong_structural_components_to_first_order(n):
    ref, a, b = three(n=n, rho_a=0.3, rho_b=0.5, seed=5, K=4)
    var_sc, delta = structural_components_variance(ref, a, b)
    res = ca.difference_test(ref, a, b, seed=1)
    assert res.statistic == pytest.approx(delta, abs=1e-9)
    # the two variances differ by terms of relative order 1/n (the U-statistics' second-order
    # terms and the ratio's curvature): here n times the relative difference is 2.03 at
    # n = 200 and 2.01 at n = 1600 (1% and 0.13%), so a bound of 5 / n
    assert res.standard_error ** 2 == pytest.approx(var_sc, rel=5 / n)


# -- symmetry ----------------------------------------------------------------------------------



@settings(max_examples=40, **SETTINGS)
@given(st.integers(8, 40).flatmap(lambda n: st.tuples(
    *[st.lists(st.integers(0, 3), min_size=n, max_size=n)] * 3)),
    st.sampled_from(["adjusted_rand", "variation_of_information", "nmi_sqrt"]))
def test_swapping_a_and_b_negates_delta_and_the_interval_and_keeps_the_two_sided_p(triple,
                                                                                  index):
    ref, a, b = (np.array(v) for v in triple)
    assume(len(set(ref)) > 1 and len(set(a)) > 1 and len(set(b)) > 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ab = ca.difference_test(ref, a, b, index=index, seed=1)
        ba = ca.difference_test(ref, b, a, index=index, seed=1)
    assert ba.statistic == -ab.statistic
    if math.isnan(ab.pvalue):
        assert math.isnan(ba.pvalue)
        return
    assert ba.standard_error == pytest.approx(ab.standard_error, rel=1e-9, abs=1e-12)
    assert ba.pvalue == pytest.approx(ab.pvalue, rel=1e-9, abs=1e-12)
    assert (ba.low, ba.high) == pytest.approx((-ab.high, -ab.low), rel=1e-9, abs=1e-12)


# -- the regimes -------------------------------------------------------------------------------

@pytest.mark.parametrize("relabel", [False, True])
def test_a_identical_to_b_gives_p_1_and_the_interval_0_0(relabel):
    ref, a, _ = three()
    b = a + 10 if relabel else a.copy()  # the same partition, under other names too
    res = ca.difference_test(ref, a, b, index="adjusted_rand")
    assert (res.statistic, res.pvalue, res.standard_error) == (0.0, 1.0, 0.0)
    assert tuple(res.confidence_interval()) == (0.0, 0.0)
    assert "same partition" in res.note


def test_near_independence_warns_and_notes_which_clustering():
    rng = np.random.default_rng(2)
    ref = rng.integers(0, 3, 80)
    a = rng.integers(0, 3, 80)  # independent of the reference
    b = noisy(ref, 0.2, rng)
    with pytest.warns(UserWarning, match=r"near independence.* a \(p = "):
        res = ca.difference_test(ref, a, b, seed=1)
    assert "a (p = " in res.note and "b (p = " not in res.note
    assert "a (p = " in str(res)


def test_no_spread_with_a_nonzero_difference_is_na_with_the_reason():
    # a = the reference, b one cluster: VI(ref, a) = 0 and VI(ref, b) = log 2 on the objects
    # and on every table with one object left out, so every pseudovalue is -log 2
    ref, a, b = [1, 1, 2, 2], [0, 0, 2, 2], [0, 0, 0, 0]
    with pytest.warns(UserWarning) as record:  # no spread; and both near independence
        res = ca.difference_test(ref, a, b, index="vi")
    assert any("no spread" in str(w.message) for w in record)
    assert res.statistic == pytest.approx(-math.log(2), rel=1e-12)
    assert math.isnan(res.pvalue) and math.isnan(res.standard_error) and math.isnan(res.low)
    assert "no spread" in res.note and "p-value: NA" in str(res)
    assert pd.isna(res.to_frame().loc[0, "pvalue"])


# -- refusals ----------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, error, match", [
    (dict(a=[0, 1, 1]), ValueError, r"a must label the same objects as reference"),
    (dict(b=[0, 1, 1, 0, 1]), ValueError, r"b must label the same objects as reference"),
    (dict(index="no_such_index"), ValueError, r"no_such_index"),
    (dict(index="entropy_x"), ValueError, r"entropy_x.*not a similarity or a distance"),
    (dict(index=["rand", "ari"]), TypeError, r"index must be one index name"),
    (dict(alternative="bigger"), ValueError, r"alternative"),
    (dict(method="wald"), ValueError, r"method"),
    (dict(interval="BCa"), ValueError, r"interval method 'BCa'.*\['auto', 'jackknife'\]"),
    (dict(interval=1.5), ValueError, r"interval"),
    (dict(n_resamples=99), TypeError, r"n_resamples= is a setting of the interval"),
    (dict(confidence_level=0.9), TypeError, r"confidence_level= is a setting of the interval"),
    (dict(a=np.eye(4)), TypeError, r"a is a 2-D array.*hard partitions"),
    (dict(b=[{0, 1}, {2, 3}]), TypeError, r"b is a cover"),
    (dict(a=[0, 1, None, 1]), ValueError, r"a contains missing labels"),
    (dict(b=None), TypeError, r"b is missing"),
])
def test_bad_arguments_are_refused_by_name_before_any_work(kwargs, error, match):
    args = dict(reference=[0, 0, 1, 1], a=[0, 0, 1, 0], b=[0, 1, 1, 1])
    args.update(kwargs)
    with pytest.raises(error, match=match):
        ca.difference_test(**args)


def test_fewer_than_three_objects_are_refused():
    with pytest.raises(ValueError, match=r"at least 3 objects.*n = 2"):
        ca.difference_test([0, 1], [0, 1], [1, 1])


def test_too_many_clusters_for_the_jackknife_are_refused_before_any_work(monkeypatch):
    monkeypatch.setattr("clusteragree.inference.difference.MAX_JACKKNIFE_CELLS", 100)
    ref, a, b = three(n=60)
    with pytest.raises(ValueError, match=r"too many clusters for the jackknife"):
        ca.difference_test(ref, a, b)


def test_no_interval_asked_gives_na_bounds_and_the_same_test():
    ref, a, b = three()
    res, full = ca.difference_test(ref, a, b, interval=None), ca.difference_test(ref, a, b)
    assert res.pvalue == full.pvalue and math.isnan(res.low) and math.isnan(res.high)
    assert "confidence interval" not in str(res)
    assert pd.isna(res.to_frame().loc[0, "ci_low"])


def test_data_columns_and_series_names():
    ref, a, b = three()
    df = pd.DataFrame({"cls": ref, "km": a, "gmm": b})
    res = ca.difference_test("cls", "km", "gmm", data=df)
    assert res.statistic == ca.difference_test(ref, a, b).statistic
    assert "reference = cls, a = km, b = gmm" in res.data_name
    with pytest.raises(ValueError, match=r"b must be a column name of data"):
        ca.difference_test("cls", "km", "nope", data=df)


def test_series_are_paired_by_their_index():
    ref, a, b = three()
    s = [pd.Series(v, index=np.arange(v.size)) for v in (ref, a, b)]
    shuffled = s[2].sample(frac=1.0, random_state=0)
    assert (ca.difference_test(s[0], s[1], shuffled).statistic
            == ca.difference_test(ref, a, b).statistic)


def test_a_three_way_table_with_an_empty_class_is_read_without_it():
    ref, a, b = three()
    counts = np.zeros((4, 3, 3), dtype=int)  # reference class 3: no object (a sample of a
    np.add.at(counts, (ref, a, b), 1)         # population where it is rare)
    assert ca.difference_test(counts).statistic == ca.difference_test(ref, a, b).statistic
    with pytest.raises(ValueError, match="reference"):
        ca.difference_test(np.zeros((2, 2, 2)))


def test_a_three_way_table_of_counts_is_the_same_test():
    ref, a, b = three()
    counts = np.zeros((3, 3, 3), dtype=int)
    np.add.at(counts, (ref, a, b), 1)
    one, two = ca.difference_test(counts), ca.difference_test(ref, a, b)
    assert (one.statistic, one.standard_error) == (two.statistic, two.standard_error)


# -- the result --------------------------------------------------------------------------------

def test_the_printed_block_the_frame_and_the_html():
    ref, a, b = three()
    res = ca.difference_test(ref, a, b, index="adjusted_rand", seed=1)
    text = str(res)
    assert "Paired comparison of two agreements with one reference" in text
    assert f"difference (a - b) = {res.statistic:.6g}" in text
    assert res.method == "corrected"  # "auto" on a small 3-way table
    assert "95 percent confidence interval (corrected jackknife t):" in text
    assert "(jackknife t):" in str(ca.difference_test(ref, a, b, method="jackknife"))
    assert "where the difference is > 0" in text
    frame = res.to_frame()
    assert tuple(frame.columns) == DIFFERENCE_COLUMNS and len(frame) == 1
    assert frame.loc[0, "statistic"] == res.statistic
    assert frame.loc[0, "ci_low"] == res.low and frame.loc[0, "index"] == "adjusted_rand"
    html = res._repr_html_()
    for v in (res.statistic, res.standard_error, res.low, res.high):
        assert significant(v) in html


def test_a_distance_says_that_less_is_closer_and_one_sided_intervals_are_open():
    ref, a, b = three()
    res = ca.difference_test(ref, a, b, index="vi", alternative="less")
    assert "where the difference is < 0" in str(res)
    assert "(a agrees better)" in str(res)
    assert res.low == -math.inf and res.statistic < res.high
    assert res.pvalue < 0.5


def test_the_bootstrap_agrees_with_the_jackknife_on_a_large_sample():
    ref, a, b = three(n=400, rho_a=0.3, rho_b=0.45, seed=7)
    jack = ca.difference_test(ref, a, b)
    boot = ca.difference_test(ref, a, b, method="bootstrap", interval={"n_resamples": 2000},
                              seed=1)
    assert boot.statistic == jack.statistic
    # two estimates of one standard error: the bootstrap's from 2,000 resamples has a
    # relative s.e. of about 1 / sqrt(2 B) = 1.6%; the two differ by O(1/n) besides
    assert boot.standard_error == pytest.approx(jack.standard_error, rel=0.15)
    assert boot.bootstrap_distribution.shape == (2000,)
    assert "paired bootstrap of the objects, 2,000 resamples" in str(boot)


# -- calibration -------------------------------------------------------------------------------

@pytest.mark.slow
def test_the_two_sided_test_holds_its_level_under_equal_population_agreement():
    """300 data sets of n = 100 with rho_a = rho_b = 0.4: the number of rejections at 5% is
    binomial(300, 0.05) if the test is exact; refused only below p = 0.001 of that law."""
    rng = np.random.default_rng(20261125)
    rejections = 0
    for _ in range(300):
        ref = rng.choice(4, size=100, p=[0.4, 0.3, 0.2, 0.1])
        a, b = noisy(ref, 0.4, rng, 4), noisy(ref, 0.4, rng, 4)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rejections += ca.difference_test(ref, a, b, seed=rng).pvalue < 0.05
    assert stats.binomtest(rejections, 300, 0.05).pvalue > 0.001, rejections


@pytest.mark.slow
def test_the_corrected_jackknife_holds_the_level_where_the_plain_one_is_conservative():
    """AMI, n = 100, rho_a = rho_b = 0.6 (weak agreement): over 300 data sets the plain
    jackknife rejects 3.4% of 2,000 at 5% (benchmarks/results/difference.md); the
    corrected one is refused only below p = 0.001 of binomial(300, 0.05)."""
    rng = np.random.default_rng(20261126)
    p = (np.array([0.4, 0.3, 0.2, 0.1])[:, None, None]
         * (0.4 * np.eye(4) + 0.15)[:, :, None] * (0.4 * np.eye(4) + 0.15)[:, None, :])
    rejections = 0
    for _ in range(300):
        table = rng.multinomial(100, p.ravel()).reshape(4, 4, 4)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = ca.difference_test(table, index="adjusted_mutual_info", method="corrected",
                                     seed=rng)
        rejections += res.pvalue < 0.05
    assert stats.binomtest(rejections, 300, 0.05).pvalue > 0.001, rejections


def test_auto_is_the_corrected_jackknife_on_small_tables_and_the_plain_one_on_large(
        monkeypatch):
    from clusteragree.inference import difference

    ref, a, b = three(n=120, seed=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        auto = ca.difference_test(ref, a, b, seed=1)
        corrected = ca.difference_test(ref, a, b, method="corrected", seed=1)
        plain = ca.difference_test(ref, a, b, method="jackknife", seed=1)
        assert auto.method == "corrected"
        assert (auto.standard_error, auto.pvalue, auto.low, auto.high) == (
            corrected.standard_error, corrected.pvalue, corrected.low, corrected.high)
        assert auto.standard_error != plain.standard_error
        monkeypatch.setattr(difference, "AUTO_CELL_PAIRS", 1)  # every table is "large"
        large = ca.difference_test(ref, a, b, seed=1)
    assert large.method == "jackknife"
    assert (large.standard_error, large.pvalue) == (plain.standard_error, plain.pvalue)


def test_auto_falls_back_to_the_plain_jackknife_where_the_corrected_variance_is_not_positive(
        monkeypatch):
    from clusteragree.inference import difference

    ref, a, b = three(n=80, seed=2)
    monkeypatch.setattr(difference, "_second_differences", lambda *args: 1e6)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        auto = ca.difference_test(ref, a, b, seed=1)
        plain = ca.difference_test(ref, a, b, method="jackknife", seed=1)
        forced = ca.difference_test(ref, a, b, method="corrected", seed=1)
    assert auto.method == "jackknife" and "not positive" in auto.note
    assert (auto.standard_error, auto.pvalue) == (plain.standard_error, plain.pvalue)
    assert math.isnan(forced.pvalue) and "not positive" in forced.note


def test_three_objects_give_an_interval_the_difference_can_take_and_no_nan():
    """Issue 45, trap 4: numpy's "invalid value encountered in divide" (ARI on the tables with
    two of 3 objects left out) and an interval [-1.14, 7.47] for a difference in [-2, 2]."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        warnings.simplefilter("ignore", UserWarning)  # near independence, said in the note
        res = ca.difference_test([0, 1, 1], [0, 1, 0], [0, 0, 1])
    assert res.method == "jackknife"  # "auto": no tables with two objects left out
    low, high = res.confidence_interval()
    assert -2 <= low <= high <= 2 and "cut to the differences the index can take" in res.note
    with pytest.raises(ValueError, match=r"needs n >= 4 .* got n = 3: use method='jackknife'"):
        ca.difference_test([0, 1, 1], [0, 1, 0], [0, 0, 1], method="corrected")


@pytest.mark.parametrize("seed", range(6))
def test_every_interval_lies_where_the_difference_can(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(4, 9))
    ref, a, b = (rng.integers(0, 3, n) for _ in range(3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for index in ("adjusted_rand", "rand", "jaccard"):
            width = np.ptp(ca.get_index(index).range)
            for method in ("jackknife", "auto"):
                low, high = ca.difference_test(ref, a, b, index=index, method=method,
                                               seed=seed).confidence_interval()
                assert (np.isnan(low) and np.isnan(high)) or -width <= low <= high <= width


def test_clear_agreement_skips_the_exact_law_of_the_independence_test(monkeypatch):
    """Issue 45: with a reference of unbalanced classes (shares .7 / .2 / .1, n = 300) the
    test of independence computed the exact law of s (0.15 to 0.6 s, against 0.01 s with
    balanced classes). Where the agreement is z >= sqrt(19) null standard deviations out,
    Cantelli's inequality gives p <= 0.05 from the exact mean and variance alone: the law is
    not computed, and the test is the same."""
    from clusteragree.inference import difference

    rng = np.random.default_rng(1)
    ref = rng.choice(3, size=300, p=[0.7, 0.2, 0.1])
    a = np.where(rng.random(300) < 0.7, ref, rng.integers(0, 3, 300))
    b = np.where(rng.random(300) < 0.6, ref, rng.integers(0, 3, 300))
    before = {i: ca.difference_test(ref, a, b, index=i, seed=1)
              for i in ("adjusted_rand", "fowlkes_mallows")}

    def no_law(*args, **kwargs):
        raise AssertionError("the exact law was computed")
    monkeypatch.setattr(difference, "independence_laws", no_law)
    for index, res in before.items():
        again = ca.difference_test(ref, a, b, index=index, seed=1)
        assert again.pvalue == res.pvalue and again.statistic == res.statistic
    noise = rng.integers(0, 3, 300)  # near independence: the law is still asked for
    with pytest.raises(AssertionError, match="exact law was computed"):
        ca.difference_test(ref, a, noise, index="adjusted_rand", seed=1)


def test_cantelli_bound_decides_only_where_it_must_reject():
    """The shortcut rejects exactly when z >= sqrt(1 / 0.05 - 1) = 4.36 (p <= 1 / (1 + z^2)
    <= 0.05 for every law with that mean and variance), towards agreement only."""
    from clusteragree.inference.difference import _rejects_by_cantelli
    from clusteragree.inputs import as_clusterings
    from clusteragree.nulls.hypergeometric import index_moments

    tab = np.array([[40, 5, 5], [3, 25, 2], [2, 4, 24]])
    rec = ca.get_index("adjusted_rand")
    clus = as_clusterings(tab)
    mom = index_moments(rec, tab.sum(1), tab.sum(0))
    sd = math.sqrt(mom["var"])
    assert _rejects_by_cantelli(rec, {}, clus, mom["mean"] + 4.37 * sd, "greater")
    assert not _rejects_by_cantelli(rec, {}, clus, mom["mean"] + 4.35 * sd, "greater")
    assert not _rejects_by_cantelli(rec, {}, clus, mom["mean"] + 5 * sd, "less")
