"""The null engine: methods and models as records, one result schema, every index kind through
the same calls, and every bad argument refused before any work."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
import pytest

import clusteragree as ca
from clusteragree.intervals import resampling_generator
from clusteragree.inference.agreement_tests import RESULT_COLUMNS
from clusteragree.nulls import NullMethod, register_method
from clusteragree.nulls._methods import unregister_method
from clusteragree.nulls.network import _count_sorted_states, estimate_dp_work

TAB = ca.ContingencyTable([[30, 20], [10, 20]])
RNG = np.random.default_rng(2)
U = RNG.dirichlet([1, 1, 1], size=12)  # fuzzy memberships of 12 objects
V = np.clip(U + RNG.normal(0, 0.05, U.shape), 0.01, None)
V /= V.sum(axis=1, keepdims=True)


# ---------------------------------------------------------------------------------------------
# A new null is one record
# ---------------------------------------------------------------------------------------------

@pytest.fixture
def toy_method():
    """A toy Monte Carlo null: the index on tables of one labelling cyclically shifted."""

    def law(req):
        x, y = ca.nulls.permutation.table_to_codes(req.table.counts)
        n = len(x)
        shifts = [np.roll(y, k) for k in range(req.n_sim)]
        tables = np.stack([ca.crosstab(x, s).counts for s in shifts])
        return {rec.name: req.null_of(rec, samples=rec.on_counts(tables, **req.options[rec.name]),
                                      details={"shifts": n})
                for rec in req.indices}

    rec = register_method(NullMethod(
        name="toy_shift", model="perm", title="Toy shift test",
        description="cyclic shifts of y", law=law, monte_carlo=True, default_n_sim=7))
    yield rec
    unregister_method("toy_shift", "perm")


def test_a_toy_method_works_through_every_caller_by_one_record(toy_method):
    res = ca.agreement_test(TAB, index="rand", method="toy_shift")
    assert res.null.n_sim == 7 and res.method == "toy_shift"
    text = str(res)
    assert "Toy shift test" in text and "cyclic shifts of y" in text
    df = ca.compare(TAB, indices=["rand", "jaccard"], method="toy_shift", n_sim=5)
    assert (df["method"] == "toy_shift").all() and (df["n_sim"] == 5).all()
    assert ca.adjust(TAB, index="rand", method="toy_shift") == pytest.approx(
        res.adjusted["mean"])
    assert ("toy_shift", "perm") in ca.nulls.list_nulls().index
    with pytest.raises(ValueError, match=r"method='toy_shift' is not available under "
                                         r"model='num'"):
        ca.agreement_test(TAB, index="rand", method="toy_shift", model="num")


# ---------------------------------------------------------------------------------------------
# One result schema
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("x, y, indices, method", [
    (TAB, None, ["rand", "nmi_sum", "purity"], "exact"),
    (TAB, None, ["rand", "mutual_info"], "hypergeometric"),
    (TAB, None, ["rand", "vi"], "patefield"),
    (U, V, ["ndc", "agri", "aci"], "permutation"),
    (ca.coassociation([0, 0, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2]),
     ca.coassociation([0, 1, 1, 1, 2, 2]), ["ari_mm", "sms"], "permutation"),
])
def test_compare_rows_are_agreement_test_rows(x, y, indices, method):
    df = ca.compare(x, y, indices=indices, method=method, seed=3)
    assert tuple(df.columns) == RESULT_COLUMNS
    intervals = ("ci_low", "ci_high", "ci_closed", "ci_method", "ci_level")
    for name in df.index:
        res = ca.agreement_test(x, y, index=name, method=method, seed=3)
        row = res.to_frame()
        assert tuple(row.columns) == RESULT_COLUMNS
        assert row[list(intervals)].isna().all(axis=None)  # a test makes its interval on request
        assert df.loc[name, "ci_level"] == 0.95
        if name == df.index[0] or method != "permutation":
            # the first index, and every table index, sees the bootstrap stream from its start
            if name == "ari_mm":
                # 6 objects: some of the 9,999 resamples draw one object six times, which
                # forms no pair (its copies are no pair, issue 30): no bootstrap interval
                with pytest.raises(ValueError, match="single object"):
                    res.confidence_interval(method="BCa", seed=resampling_generator(3))
                # "auto" (the jackknife, and this test's own law) has one, in both
                ci = res.confidence_interval(seed=resampling_generator(3))
                assert (df.loc[name, "ci_low"], df.loc[name, "ci_high"]) == (ci.low, ci.high)
            else:
                ci = res.confidence_interval(seed=resampling_generator(3))
                assert (df.loc[name, "ci_low"], df.loc[name, "ci_high"]) == (ci.low, ci.high)
        for col in set(RESULT_COLUMNS) - set(intervals):
            a, b = df.loc[name, col], row.loc[name, col]
            if pd.isna(a) or pd.isna(b):
                assert pd.isna(a) and pd.isna(b), (name, col)
            else:
                assert a == b or a == pytest.approx(b, rel=1e-12), (name, col)


def test_what_a_method_cannot_give_is_NA_and_summary_is_the_null_part():
    df = ca.compare(TAB, indices=["rand", "mutual_info"], method="hypergeometric")
    assert df["pvalue"].isna().all() and df["null_median"].isna().all()
    assert pd.isna(df.loc["mutual_info", "adjusted_mean"])  # no fixed optimum
    assert str(df["pvalue"].dtype) == "Float64"
    nd = ca.nulls.null_distribution(TAB, index="rand", method="exact")
    summary = nd.summary()
    row = ca.agreement_test(TAB, index="rand", method="exact").to_frame().loc["rand"]
    for key, value in summary.items():
        if pd.isna(value):
            assert pd.isna(row[key]), key
        else:
            assert row[key] == value, key


def test_fuzzy_tests_use_the_permutation_null_and_the_exact_mean():
    res = ca.agreement_test(U, V, index="ndc", method="permutation", n_sim=300, seed=1)
    exact = ca.nulls.null_distribution(U, V, index="ndc", method="exact")
    assert res.null.model == "objects" and exact.model == "objects"
    assert abs(res.null.mean - exact.mean) < 4 * res.null.mean_se
    assert res.pvalue < 0.01
    # the exact mean adjusts the index, but a test asked for method="exact" needs the law:
    # refused, never a p-value of nan
    for test in (lambda: ca.agreement_test(U, V, index="ndc", method="exact"),
                 lambda: ca.compare(U, V, indices=["ndc", "agri"], method="exact")):
        with pytest.raises(ValueError, match=r"method='exact' gives the exact null mean of "
                                             r"'ndc' here, not its law .* use a Monte Carlo "
                                             r"method \('permutation' under model='objects'\)"):
            test()
    x, y = np.repeat([0, 1, 2], 20), np.tile([0, 1, 2], 20)  # n = 60: too many partitions
    mean_only = ca.nulls.null_distribution(x, y, index="rand", method="exact", model="num1")
    assert not mean_only.has_law and ca.adjust(x, y, index="rand", method="exact",
                                               model="num1") < 0
    with pytest.raises(ValueError, match=r"'simulation' under model='num1'"):
        ca.agreement_test(x, y, index="rand", method="exact", model="num1")
    pairs = ca.agreement_test(U, V, index="ndc", model="pairs", n_sim=300, seed=1)
    assert pairs.null.model == "pairs" and "pair values" in str(pairs)
    assert ca.adjust(U, V, index="ndc", method="exact") == pytest.approx(
        (res.statistic - exact.mean) / (1 - exact.mean))


# ---------------------------------------------------------------------------------------------
# Exact methods decide before they work
# ---------------------------------------------------------------------------------------------

def test_count_of_dynamic_programme_states_equals_a_brute_force_count():
    import itertools

    for caps, total in [([5, 3, 2], 6), ([4, 4, 4, 1], 7), ([6, 2], 5), ([3], 2)]:
        brute = {tuple(sorted(v, reverse=True))
                 for v in itertools.product(*(range(c + 1) for c in caps)) if sum(v) == total}
        assert _count_sorted_states(sorted(caps, reverse=True), total) == len(brute)


def _random_margins(rng, max_side, max_n):
    """Positive margins of a random table: K, Q in 2..max_side - 1, n in 10..max_n - 1."""
    K, Q = rng.integers(2, max_side, size=2)
    n = int(rng.integers(10, max_n))
    return rng.multinomial(n - K, np.ones(K) / K) + 1, rng.multinomial(n - Q, np.ones(Q) / Q) + 1


@pytest.mark.parametrize("statistic", ["s", "t"])
def test_estimate_is_not_below_the_size_of_the_law(statistic):
    # the law's support is at most the entries of the programme's last step, so an estimate
    # below it would be an estimate below the true size
    rng = np.random.default_rng(11)
    for _ in range(12):
        rows, cols = _random_margins(rng, 5, 60)
        values, _ = ca.nulls.statistic_law(rows, cols, statistic, max_work=10**9)
        assert estimate_dp_work(rows, cols, statistic) >= len(values), (rows, cols)


def test_the_estimate_with_a_limit_decides_as_the_full_estimate():
    # with stop_above the estimate stops once past its limit (a refusal costs milliseconds at
    # any n); it must decide every comparison with a limit as the full estimate does
    rng = np.random.default_rng(7)
    for _ in range(40):
        rows, cols = _random_margins(rng, 6, 200)
        for stat in ("s", "t"):
            full = estimate_dp_work(rows, cols, stat)
            for limit in (1e2, 1e4, 1e6):
                assert (estimate_dp_work(rows, cols, stat, stop_above=limit) > limit) == \
                    (full > limit), (rows, cols, stat, limit)


@pytest.mark.parametrize("table, index", [
    (np.array([[20, 10, 10, 10], [10, 20, 10, 10], [10, 10, 20, 10], [10, 10, 10, 20]]), "ari"),
    ("statlog_em", "nmi_sum"),
])
def test_too_large_exact_laws_are_refused_in_milliseconds(table, index):
    tab = ca.load_dataset(table) if isinstance(table, str) else table
    t = time.perf_counter()
    with pytest.raises(ValueError, match=r"needs more than .* entries .* more than max_work"):
        ca.nulls.null_distribution(tab, index=index, method="exact")
    assert time.perf_counter() - t < 0.5
    res = ca.agreement_test(tab, index=index, method="auto", n_sim=500, seed=1)
    assert res.method == "patefield" and res.null.details["auto"]
    assert "chosen by method='auto'" in str(res)


def test_auto_takes_the_exact_law_when_it_fits():
    res = ca.agreement_test(TAB, index="jaccard", method="auto", seed=1)
    assert res.method == "exact" and res.null.is_exact


#: iris species against its EM clustering (scikit-learn's GaussianMixture(3, random_state=1);
#: the issue's table, exact ARI p = 1.03e-62) and its k-means clustering (3 x 3, n = 150), and
#: a table of 300 objects whose law of s is exact in 0.2 s but whose law of t has about 6e7
#: entries (15 s).
IRIS_EM = [[0, 50, 0], [45, 0, 5], [0, 0, 50]]
IRIS = [[50, 0, 0], [0, 48, 2], [0, 14, 36]]
LARGE_T = [[100, 0, 0], [0, 90, 10], [0, 30, 70]]
#: The indices of the agreement report (notebooks/agreement.ipynb): the paired (s), the ARI (s),
#: and three information indices (t).
REPORT_INDICES = ["paired", "adjusted_rand", "adjusted_mutual_info", "nmi_sum",
                  "variation_of_information"]
T_INDICES = ["adjusted_mutual_info", "nmi_sum", "variation_of_information"]


@pytest.mark.parametrize("table", [IRIS_EM, IRIS])
def test_auto_gives_iris_the_exact_laws_of_s_and_of_t(table):
    # issue 29, item 12: one information index whose law failed the size estimate sent every
    # index to Monte Carlo (twelve p-values at the floor 1/17001); the law of t on iris has
    # 2.4e6 entries, within max_work, and the estimate now says so
    df = ca.compare(table, indices=REPORT_INDICES, method="auto", n_sim=200, seed=1,
                    interval=None)
    assert len(df) == 12 and (df["method"] == "exact").all(), df["method"]
    assert df["n_sim"].isna().all() and (df["pvalue_se"] == 0).all()
    exact = ca.compare(table, indices=REPORT_INDICES, method="exact", interval=None)
    assert df["pvalue"].tolist() == exact["pvalue"].tolist()
    assert 0 < df.loc["adjusted_rand", "pvalue"] < 1e-50  # not the floor 1/(n_sim + 1)


def test_the_exact_p_value_of_iris_em_is_the_sum_over_every_table():
    # an independent check of the issue's 1.0e-62: all 849,666 tables with iris' margins
    # enumerated, P(s >= s_obs) summed over the 6 as extreme; each probability is the exp of
    # sums of log-gamma values up to about 600 (some 1e-13 relative each way), far below 1e-10
    tables, probs = ca.nulls.enumerate_tables([50, 50, 50], [45, 50, 55], max_tables=10**6)
    s = (tables.astype(np.int64) ** 2).sum(axis=(1, 2))
    brute = probs[s >= (np.array(IRIS_EM) ** 2).sum()].sum()
    p = ca.agreement_test(IRIS_EM, index="adjusted_rand").pvalue
    assert p == pytest.approx(brute, rel=1e-10) and p == pytest.approx(1.028e-62, rel=1e-3)


def test_auto_sends_only_the_group_whose_law_is_too_large_to_monte_carlo():
    df = ca.compare(LARGE_T, indices=REPORT_INDICES, method="auto", n_sim=300, seed=1,
                    interval=None)
    s_rows = [i for i in df.index if i not in T_INDICES]
    assert (df.loc[s_rows, "method"] == "exact").all() and df.loc[s_rows, "n_sim"].isna().all()
    assert (df.loc[T_INDICES, "method"] == "patefield").all()
    assert (df.loc[T_INDICES, "n_sim"] == 300).all()
    # the Monte Carlo group is drawn as it would be alone: the same 300 tables for its indices
    alone = ca.nulls.null_distributions(LARGE_T, T_INDICES, "patefield", n_sim=300, seed=1)
    auto = ca.nulls.null_distributions(LARGE_T, REPORT_INDICES, "auto", n_sim=300, seed=1)
    for name in T_INDICES:
        assert np.array_equal(auto[name].samples, alone[name].samples)
        assert auto[name].details["auto"]
    assert list(auto) == list(df.index)  # the laws in the order asked
    res = ca.agreement_test(LARGE_T, index="nmi_sum", method="auto", n_sim=300, seed=1)
    assert res.method == "patefield" and "chosen by method='auto'" in str(res)


def test_auto_under_a_random_partition_model_is_decided_per_group_too():
    x = [0, 0, 0, 1, 1, 1, 2, 2]
    y = [0, 0, 1, 1, 1, 2, 2, 2]
    laws = ca.nulls.null_distributions(x, ["rand", "vi"], "auto", y=y, model="num1", seed=1)
    assert {nd.method for nd in laws.values()} == {"exact"}


def _largest_step(monkeypatch, rows, cols, statistic):
    """The entries of the programme's largest step, times the key length, counted as the
    programme merges them."""
    from clusteragree.nulls import network

    added, alive = {}, []  # alive: a step's object keeps its id while the programme runs
    for cls in (network._RunningSums, network._DenseSums):
        def add(self, cols, probs, _orig=cls.add):
            if id(self) not in added:  # a freed step's id could be reused by the next step,
                alive.append(self)     # whose entries would then be counted with its own
            added[id(self)] = added.get(id(self), 0) + len(probs)
            return _orig(self, cols, probs)
        monkeypatch.setattr(cls, "add", add)
    ca.nulls.statistic_law(rows, cols, statistic, max_work=10**12)
    top = max(max(rows), max(cols))
    width = 1 if statistic == "s" else len(network._primes_upto(top))
    return max(added.values()) * width


@pytest.mark.parametrize("rows, cols, statistic", [
    ([50, 50, 50], [50, 62, 38], "s"), ([50, 50, 50], [50, 62, 38], "t"),
    ([50, 50, 50], [50, 54, 46], "t"), ([30, 30, 30], [30, 30, 30], "t"),
    ([40, 40], [10] * 8, "t"), ([16, 16, 16], [12, 12, 12, 12], "s"),
])
def test_the_estimate_counts_exchangeable_rows_once(monkeypatch, rows, cols, statistic):
    # rows of equal margins give one state and one value whatever their order: the estimate
    # was 6 to 7 times the size of the iris laws (t: 1.5e7 against 2.4e6, over max_work) and
    # 890 times that of 2 x 8 tables of t; now at least the size, and at most 5.5 times it
    true = _largest_step(monkeypatch, rows, cols, statistic)
    est = estimate_dp_work(rows, cols, statistic)
    assert true <= est <= 5.5 * true, (est, true)
    if rows[0] == 50:  # the iris tables: within 30%
        assert est <= 1.3 * true and est <= ca.nulls.exact.DEFAULT_MAX_WORK


def test_the_estimate_is_not_below_the_largest_step(monkeypatch):
    rng = np.random.default_rng(5)
    for _ in range(10):
        rows, cols = _random_margins(rng, 5, 80)
        if rng.random() < 0.5:  # equal row margins, the case the row symmetry changes
            rows = np.full(len(rows), max(2, int(rows.mean())))
            cols = rng.multinomial(int(rows.sum()) - len(cols), np.ones(len(cols)) / len(cols)) + 1
        for statistic in ("s", "t"):
            if estimate_dp_work(rows, cols, statistic) > 3e5:
                continue
            assert estimate_dp_work(rows, cols, statistic) >= _largest_step(
                monkeypatch, rows.tolist(), cols.tolist(), statistic), (rows, cols, statistic)


def test_compositions_up_to_exchangeable_rows_match_a_brute_force_count():
    import itertools

    from clusteragree.nulls.network import _first_column_orbits

    for caps, total in [([5, 5, 5], 6), ([50, 50, 50], 38), ([4, 4, 2, 2, 2], 5),
                        ([6] * 6, 6), ([10, 10, 3], 9), ([1, 1, 1, 1], 2), ([7, 3], 4)]:
        vectors = [v for v in itertools.product(*(range(c + 1) for c in caps))
                   if sum(v) == total]
        orbits = {tuple(sorted(zip(caps, v))) for v in vectors}
        assert _first_column_orbits(np.array(caps), total, float(len(vectors))) == len(orbits)


# ---------------------------------------------------------------------------------------------
# Bad arguments, before any work
# ---------------------------------------------------------------------------------------------

def test_one_n_sim_rule_and_one_exhaustive_rule():
    with pytest.raises(ValueError, match=r"n_sim is for Monte Carlo methods, not "
                                         r"method='exact'"):
        ca.agreement_test(TAB, index="rand", method="exact", n_sim=100)
    with pytest.raises(ValueError, match=r"exhaustive= is for permutation methods"):
        ca.agreement_test(TAB, index="rand",
                          method=ca.NullSpec(method="patefield", exhaustive=True))
    small = [[2, 1], [1, 2]]
    forced = ca.nulls.null_distribution(small, index="rand", n_sim=50, seed=1,
                                        method=ca.NullSpec(method="permutation",
                                                           exhaustive=False))
    assert forced.is_sampled and forced.n_sim == 50
    fuzzy = ca.nulls.null_distribution(U[:6], V[:6], index="ndc", n_sim=40, seed=1,
                                       method=ca.NullSpec(method="permutation",
                                                          exhaustive=False))
    assert fuzzy.is_sampled  # the direct-measure and pair permutations obey exhaustive= too
    direct = ca.nulls.null_distribution(U[:6], V[:6], index="ri09", n_sim=40, seed=1,
                                        method=ca.NullSpec(method="permutation",
                                                           exhaustive=False))
    assert direct.is_sampled and direct.n_sim == 40


def test_bad_option_values_fail_before_the_null_is_drawn():
    t = time.perf_counter()
    with pytest.raises(ValueError, match=r"base must be a positive number other than 1"):
        ca.agreement_test(TAB, index="vi", base=1, n_sim=10**7, seed=1)
    assert time.perf_counter() - t < 0.5


def test_iadjust_takes_a_method():
    df = ca.iadjust(TAB, method="exact")
    assert (df["method"] == "exact").all() and df["n_sim"].isna().all()


def test_model_and_null_misuse_name_the_arguments():
    with pytest.raises(ValueError, match=r"model='pairs' .* is a null for indices of object "
                                         r"pairs"):
        ca.agreement_test(TAB, index="rand", model="pairs")
    with pytest.raises(TypeError, match=r"null= is now the model: pass model='objects' or "
                                        r"model='pairs'"):
        ca.agreement_test(U, V, index="ndc", null="pairs")
    with pytest.raises(ValueError, match=r"model='objects' .* is a null for indices of object "
                                         r"pairs"):
        ca.agreement_test(TAB, index="rand", model="objects")
    with pytest.raises(ValueError, match=r"model='pairs' is a null for indices of object "
                                         r"pairs; compare them and the indices of a "
                                         r"contingency table in two calls"):
        ca.compare(U[:, :2].argmax(axis=1), V[:, :2].argmax(axis=1), indices=["rand", "ndc"],
                   model="pairs")
    with pytest.raises(ValueError, match=r"model='perm' is given twice, and the NullSpec "
                                         r"passed as method= says model='num'"):
        ca.agreement_test(TAB, index="rand", method=ca.NullSpec(model="num"), model="perm")


def test_a_null_setting_passed_as_a_keyword_points_to_the_spec():
    with pytest.raises(TypeError, match=r"max_tables= is a setting of the null, not an option "
                                        r"of the index: pass method=ca.NullSpec"):
        ca.agreement_test(TAB, index="rand", method="exact", max_tables=10)
    # an index that takes an option of that name gets it (f_measure's reference=)
    f_x = ca.agreement_test(TAB, index="f_measure", method="exact")
    f_y = ca.agreement_test(TAB, index="f_measure", method="exact", reference="y")
    assert f_y.statistic == pytest.approx(ca.agreement(TAB, index="f_measure", reference="y"))
    assert f_x.statistic == pytest.approx(ca.agreement(TAB, index="f_measure"))


def test_a_spec_and_the_top_level_shorthand_give_the_same_law():
    short = ca.nulls.null_distribution(TAB, index="jaccard", method="patefield", n_sim=500,
                                       seed=4)
    spec = ca.nulls.null_distribution(TAB, index="jaccard",
                                      method=ca.NullSpec(method="patefield", n_sim=500, seed=4))
    np.testing.assert_array_equal(short.samples, spec.samples)
    mixed = ca.nulls.null_distribution(TAB, index="jaccard", method=ca.NullSpec("patefield"),
                                       n_sim=500, seed=4)
    np.testing.assert_array_equal(short.samples, mixed.samples)


def test_scipy_permutation_method_is_read_as_a_spec():
    from scipy.stats import PermutationMethod

    ours = ca.nulls.null_distribution(TAB, index="rand", method="permutation", n_sim=300,
                                      seed=2)
    theirs = ca.nulls.null_distribution(TAB, index="rand",
                                        method=PermutationMethod(n_resamples=300,
                                                                 rng=np.random.default_rng(2)))
    assert theirs.method == "permutation" and theirs.n_sim == 300
    np.testing.assert_array_equal(np.sort(ours.samples), np.sort(theirs.samples))


def test_ami_on_a_batch_equals_ami_table_by_table():
    sims = ca.nulls.random_tables([30, 20, 9], [25, 24, 10], n_sim=50, seed=4)
    other = ca.nulls.random_tables([12, 40, 7], [30, 29], n_sim=30, seed=5)
    mixed = np.zeros((80, 3, 3), dtype=np.int64)
    mixed[:50] = sims
    mixed[50:, :, :2] = other
    batch = ca.agreement(mixed, index="ami")
    single = [ca.agreement(t, index="ami") for t in mixed]
    assert np.allclose(batch, single, rtol=0, atol=1e-14)


def test_monte_carlo_values_that_cannot_fit_are_refused_at_once(monkeypatch):
    from clusteragree import _memory

    monkeypatch.setattr(_memory, "available_memory", lambda: 100 * 2**20)
    t = time.perf_counter()
    with pytest.raises(MemoryError, match=r"n_sim=10,000,000 draws of 2 index\(es\) need "
                                          r"0\.3 GiB .* 0\.1 GiB are available"):
        ca.compare(TAB, indices=["rand", "ari"], method="patefield", n_sim=10**7)
    assert time.perf_counter() - t < 0.5


def test_streamed_monte_carlo_equals_one_big_batch():
    # the law is evaluated batch by batch; the values must be those of the whole set of tables
    tables = ca.nulls.random_tables([30, 20, 9], [25, 24, 10], n_sim=300_000, seed=8)
    nd = ca.nulls.null_distribution([[20, 5, 5], [3, 15, 2], [2, 4, 3]], index="jaccard",
                                    method="patefield", n_sim=300_000, seed=8)
    assert np.array_equal(nd.samples, ca.agreement(tables, index="jaccard"))


def test_too_few_objects_names_each_index_and_its_minimum():
    with pytest.raises(ValueError, match=r"mari needs at least 4 objects; got n = 3"):
        ca.nulls.null_distribution([[2, 0], [0, 1]], index="mari", method="exact")
    with pytest.raises(ValueError, match=r"rand needs at least 2 objects; got n = 1"):
        ca.agreement_test([[1]], index="rand")


# -- issue 29, item 9: scipy's PermutationMethod, named as the user gave it ---------------------

@pytest.mark.parametrize("B", [0, -3, 2.5, "many"])
def test_permutation_method_with_a_bad_size_is_refused_by_its_own_name(B):
    """n_resamples=0 used to be refused as "n_sim must be >= 1", an argument never passed."""
    from scipy.stats import PermutationMethod

    with pytest.raises(ValueError, match=rf"^method=PermutationMethod\(n_resamples={B!r}\): "
                                         r"n_resamples must be a whole number >= 1 .* or "
                                         r"np.inf \(every permutation\)") as info:
        ca.agreement_test(TAB, index="rand", method=PermutationMethod(n_resamples=B))
    assert "n_sim" not in str(info.value)
    with pytest.raises(ValueError, match=r"n_sim=10 and method=PermutationMethod\(n_resamples"
                                         r"=10\) both give the number of permutations"):
        ca.agreement_test(TAB, index="rand", method=PermutationMethod(n_resamples=10), n_sim=10)


def test_permutation_method_with_infinite_resamples_takes_every_permutation():
    """As in scipy, n_resamples=np.inf is every permutation: the exact law (it used to be
    refused as "n_sim must be a whole number"). 9 objects: 9! = 362,880 permutations, beyond
    the 8 objects that are enumerated by default; its p-value is the exact law's (a sum of
    at most 9! terms of 1/9!: rounding below 1e-10 relative)."""
    from scipy.stats import PermutationMethod

    table = [[4, 1], [1, 3]]
    every = ca.agreement_test(table, index="ari", method=PermutationMethod(n_resamples=np.inf))
    assert every.method == "permutation" and every.null.is_exact
    exact = ca.agreement_test(table, index="ari", method="exact")
    assert every.pvalue == pytest.approx(exact.pvalue, rel=1e-10)
    assert every.null.mean == pytest.approx(exact.null.mean, rel=1e-10, abs=1e-12)
    # memberships of 7 objects: the 5,040 permutations of y's objects
    rng = np.random.default_rng(0)
    U = rng.random((7, 3))
    U /= U.sum(axis=1, keepdims=True)
    res = ca.agreement_test(U, U[::-1], index="agri", method=PermutationMethod(n_resamples=np.inf))
    assert res.null.is_exact and res.null.values.size <= 5040


def test_permutation_method_with_infinite_resamples_refuses_too_many_by_its_name():
    from scipy.stats import PermutationMethod

    every = PermutationMethod(n_resamples=np.inf)
    with pytest.raises(ValueError, match=r"every permutation of 80 labels \(about 7.16e118 "
                                         r"permutations\), asked by exhaustive=True or by "
                                         r"method=PermutationMethod\(n_resamples=np.inf\), is "
                                         r"too many .* method='exact' gives the law"):
        ca.agreement_test(TAB, index="rand", method=every)
    U = np.random.default_rng(1).random((12, 2))
    with pytest.raises(ValueError, match=r"every permutation of 12 objects \(479,001,600 "
                                         r"permutations\).*PermutationMethod\(n_resamples=np.inf"
                                         r"\)") as info:
        ca.agreement_test(U, U, index="agri", method=every)
    assert "method='exact'" not in str(info.value)
