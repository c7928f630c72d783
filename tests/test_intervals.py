"""Bootstrap confidence intervals (``clusteragree.intervals``): the multinomial bootstrap of a
table is the bootstrap of its objects, its intervals are scipy's, and its coverage is near the
nominal one."""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pytest
from scipy import stats

import clusteragree as ca
from clusteragree.indices import evaluate_resample
from clusteragree.inputs import as_clusterings
from clusteragree.intervals import ConfidenceInterval, confidence_interval, interval_of

TAB = np.array([[18, 4, 2], [3, 15, 5], [1, 4, 12]])  # n = 64, moderate agreement


def _labels(counts):
    """The object-level labels of a table: one (row, column) pair per object."""
    K, Q = counts.shape
    cells = np.repeat(np.arange(K * Q), counts.ravel())
    return cells // Q, cells % Q


def _label_statistic(index, K, Q):
    """The index of object labels, vectorised over leading axes (for scipy.stats.bootstrap):
    the labels of each resample are counted into a table."""
    def statistic(x, y, axis=-1):
        x, y = np.moveaxis(x, axis, -1), np.moveaxis(y, axis, -1)
        lead, n = x.shape[:-1], x.shape[-1]
        x, y = x.reshape(-1, n), y.reshape(-1, n)
        m = x.shape[0]
        codes = np.arange(m)[:, None] * (K * Q) + x * Q + y
        tables = np.bincount(codes.ravel(), minlength=m * K * Q).reshape(m, K, Q)
        return np.asarray(ca.agreement(tables, index=index)).reshape(lead)
    return statistic


def _scipy_interval(counts, index, method, B, seed):
    x, y = _labels(counts)
    res = stats.bootstrap((x, y), _label_statistic(index, *counts.shape), paired=True,
                          vectorized=True, n_resamples=B, method=method,
                          rng=np.random.default_rng(seed))
    return res.confidence_interval, res.standard_error


# -- the multinomial bootstrap is the object bootstrap ---------------------------------------

def test_the_bootstrap_law_of_a_tiny_table_is_the_multinomial_law():
    """n = 5 objects in a 2 x 2 table: every resample is one of the 56 tables with n = 5; their
    frequencies match the multinomial probabilities, and the percentile interval is the
    quantiles of the draws."""
    counts = np.array([[2, 1], [0, 2]])
    ci = confidence_interval(counts, index="rand", method="percentile", n_resamples=40_000,
                             seed=3, confidence_level=0.8)
    p = counts.ravel() / counts.sum()
    law = {}
    for cells in itertools.product(range(6), repeat=4):
        if sum(cells) != 5:
            continue
        tab = np.array(cells).reshape(2, 2)
        prob = stats.multinomial.pmf(cells, 5, p)
        if prob > 0:
            value = round(float(ca.agreement(tab, index="rand")), 12)
            law[value] = law.get(value, 0.0) + prob
    values = np.round(ci.bootstrap_distribution, 12)
    for value, prob in law.items():
        freq = np.mean(values == value)
        assert abs(freq - prob) < 4 * math.sqrt(prob * (1 - prob) / values.size) + 1e-12
    assert set(np.unique(values)) <= set(law)
    # the percentile interval by hand
    assert (ci.low, ci.high) == pytest.approx(
        tuple(np.quantile(ci.bootstrap_distribution, [0.1, 0.9])), rel=1e-12)
    # and, the law being known, the exact 10% and 90% quantiles of the bootstrap law
    support = np.array(sorted(law))
    cdf = np.cumsum([law[v] for v in support])
    assert ci.low == support[np.searchsorted(cdf, 0.1)]
    assert ci.high == support[np.searchsorted(cdf, 0.9)]


@pytest.mark.parametrize("method", ["percentile", "BCa"])
@pytest.mark.parametrize("index", ["adjusted_rand", "rand"])
def test_intervals_agree_with_scipy_bootstrap_of_the_labels(index, method):
    """Resampling the n objects' labels (scipy.stats.bootstrap, paired) and drawing the table's
    cells give intervals equal within the Monte Carlo error of B = 9999 resamples."""
    ours = confidence_interval(TAB, index=index, method=method, n_resamples=9999, seed=11)
    (low, high), se = _scipy_interval(TAB, index, method, 9999, 12)
    assert ours.standard_error == pytest.approx(se, rel=0.05)
    # an endpoint's Monte Carlo sd is about 0.03 standard errors at B = 9999
    assert abs(ours.low - low) < 0.15 * se
    assert abs(ours.high - high) < 0.15 * se
    assert ours.statistic == pytest.approx(ca.agreement(TAB, index=index))


def test_the_cell_jackknife_is_the_object_jackknife():
    """BCa's acceleration from one object out of each cell (weighted by its count) equals the
    acceleration from leaving out each of the n objects in turn."""
    from clusteragree.intervals.bootstrap import acceleration
    from clusteragree.intervals.resamples import table_jackknife

    counts = np.array([[5, 2, 0], [1, 4, 3]])
    rec = ca.get_index("adjusted_rand")
    x, y = _labels(counts)
    stat = _label_statistic("adjusted_rand", 2, 3)
    keep = ~np.eye(x.size, dtype=bool)
    objects = stat(np.broadcast_to(x, keep.shape)[keep].reshape(x.size, -1),
                   np.broadcast_to(y, keep.shape)[keep].reshape(x.size, -1))
    a_objects = acceleration(objects, np.ones(x.size))
    batches = as_clusterings(counts).leave_one_out_tables()
    a_cells = acceleration(*table_jackknife([rec], {rec.name: {}}, batches)[rec.name])
    assert a_cells == pytest.approx(a_objects, rel=1e-12, abs=1e-15)
    assert a_cells != 0


def test_resampled_tables_with_empty_rows_are_evaluated_without_them():
    """n = 12 with a row of one object: many resamples lose it; AMI (which depends on the
    table's shape) is then the AMI of the smaller table."""
    counts = np.array([[5, 1], [1, 4], [1, 0]])
    ci = confidence_interval(counts, index="adjusted_mutual_info", method="percentile",
                             n_resamples=2000, seed=4)
    assert np.isfinite(ci.bootstrap_distribution).all()
    rng = np.random.default_rng(4)
    first = rng.multinomial(12, (counts / 12).ravel()).reshape(3, 2)
    kept = first[first.sum(axis=1) > 0][:, first.sum(axis=0) > 0]
    assert ci.bootstrap_distribution[0] == pytest.approx(
        ca.agreement(kept, index="adjusted_mutual_info"))


def test_the_same_seed_gives_the_same_interval_and_labels_give_the_table_interval():
    a = confidence_interval(TAB, index="jaccard", method="BCa", n_resamples=500, seed=7)
    x, y = _labels(TAB)
    b = confidence_interval(x, y, index="jaccard", method="BCa", n_resamples=500, seed=7)
    assert (a.low, a.high) == (b.low, b.high)
    assert isinstance(a, ConfidenceInterval) and tuple(a) == (a.low, a.high)
    assert "jaccard" in repr(a) and "95% BCa" in repr(a)
    assert a.resampling == "cells" and math.isfinite(a.bias) and math.isfinite(a.acceleration)


def test_a_table_every_resample_reproduces_gives_a_point_interval():
    counts = np.array([[6, 0], [0, 4]])
    for method in ("percentile", "BCa"):
        ci = confidence_interval(counts, index="adjusted_rand", method=method,
                                 n_resamples=200, seed=1)
        assert (ci.low, ci.high) == (1.0, 1.0)


def test_interval_of_takes_converted_clusterings_and_the_spec_whole():
    rec = ca.get_index("nmi_sum")
    spec = ca.IntervalSpec(method="bca", confidence_level=0.9, n_resamples=999, seed=2)
    ci = interval_of(as_clusterings(TAB), rec, {}, spec)
    again = confidence_interval(TAB, index="nmi_sum", confidence_level=0.9, method="BCa",
                                n_resamples=999, seed=2)
    assert (ci.low, ci.high) == (again.low, again.high) and ci.confidence_level == 0.9
    assert ci.method == "BCa"
    # without a seed of its own the spec draws a stream of the call's seed
    unseeded = dataclasses.replace(spec, seed=None)
    child = interval_of(as_clusterings(TAB), rec, {}, unseeded, seed=2)
    stream = confidence_interval(TAB, index="nmi_sum", confidence_level=0.9, method="BCa",
                                 n_resamples=999, seed=ca.intervals.resampling_generator(2))
    assert (child.low, child.high) == (stream.low, stream.high) != (ci.low, ci.high)
    # the spec's values were checked when it was made
    with pytest.raises(ValueError, match="confidence_level"):
        ca.IntervalSpec(confidence_level=95)


# -- indices of object pairs -----------------------------------------------------------------

def _resampled(index, X, Y, idx):
    """The index on the resample ``idx`` of the objects, as ``evaluate_resample`` defines it."""
    rec = ca.get_index(index)
    objects, counts = np.unique(idx, return_counts=True)
    take = (lambda M: M[np.ix_(objects, objects)]) if X.shape == (len(X), len(X)) else (
        lambda M: M[objects])
    pair = as_clusterings(take(X), take(Y), table=False, pairs=[rec.name]).pair(rec)
    return evaluate_resample(rec, pair, {}, counts)


@pytest.mark.parametrize("index", ["ndc", "agri"])
def test_fuzzy_memberships_resample_their_objects(index):
    rng = np.random.default_rng(5)
    U = rng.dirichlet(np.full(3, 0.5), 40)
    V = np.clip(U[:, :2] + rng.dirichlet(np.ones(2), 40), 0, None)
    V /= V.sum(axis=1, keepdims=True)
    ci = confidence_interval(U, V, index=index, method="BCa", n_resamples=60, seed=9)
    assert ci.resampling == "objects" and ci.bootstrap_distribution.shape == (60,)
    assert ci.statistic == pytest.approx(ca.agreement(U, V, index=index))
    assert ci.low <= ci.high and np.isfinite([ci.low, ci.high]).all()
    # the first resample is the index on the objects the seeded generator drew first, each
    # weighted by how often it was drawn: the copies of one object form no pair (issue 30;
    # the rows repeated, U[idx], counted them)
    idx = np.random.default_rng(9).integers(0, 40, 40)
    assert ci.bootstrap_distribution[0] == pytest.approx(_resampled(index, U, V, idx))
    assert ci.bootstrap_distribution[0] != pytest.approx(
        ca.agreement(U[idx], V[idx], index=index))
    pct = confidence_interval(U, V, index=index, method="percentile", n_resamples=60, seed=9)
    assert (pct.low, pct.high) == pytest.approx(
        tuple(np.quantile(pct.bootstrap_distribution, [0.025, 0.975])), rel=1e-12)


def test_similarity_matrices_resample_rows_and_columns():
    rng = np.random.default_rng(6)
    x, y = rng.integers(0, 3, 30), rng.integers(0, 3, 30)
    M = (x[:, None] == x[None, :]).astype(float)
    S = 0.5 * (M + (y[:, None] == y[None, :]))
    ci = confidence_interval(M, S, index="ndc", method="percentile", n_resamples=30, seed=1)
    idx = np.random.default_rng(1).integers(0, 30, 30)
    assert ci.bootstrap_distribution[0] == pytest.approx(_resampled("ndc", M, S, idx))
    assert ci.bootstrap_distribution[0] != pytest.approx(  # the copies' pairs left out
        ca.agreement(M[np.ix_(idx, idx)], S[np.ix_(idx, idx)], index="ndc"))


# -- arguments --------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, error, match", [
    ({"confidence_level": 1.5}, ValueError, "confidence_level"),
    ({"confidence_level": "0.95"}, TypeError, "confidence_level"),
    ({"method": "bac"}, ValueError, "method.*Did you mean 'BCa'"),
    ({"method": 1}, TypeError, "method"),
    ({"n_resamples": 1}, ValueError, "n_resamples"),
    ({"n_resamples": 99.5}, TypeError, "n_resamples"),
    ({"seed": -1}, ValueError, "seed"),
    ({"index": ["rand", "jaccard"]}, TypeError, "index"),
    ({"index": "rnad"}, ValueError, "rand"),
    ({"base": 2}, TypeError, "unknown option 'base'"),
])
def test_bad_arguments_are_refused_by_name(kwargs, error, match):
    kwargs = {"index": "rand", **kwargs}
    with pytest.raises(error, match=match):
        confidence_interval(TAB, **kwargs)


def test_too_few_objects_are_refused():
    with pytest.raises(ValueError, match="n >= 3"):
        confidence_interval([[1, 0], [0, 1]], index="rand", n_resamples=10)
    ci = confidence_interval([[1, 0], [0, 1]], index="rand", method="percentile",
                             n_resamples=10, seed=0)
    assert ci.low <= ci.high


def test_the_options_of_the_index_are_used():
    a = confidence_interval(TAB, index="adjusted_mutual_info", average="max",
                            method="percentile", n_resamples=200, seed=3)
    b = confidence_interval(TAB, index="adjusted_mutual_info", method="percentile",
                            n_resamples=200, seed=3)
    assert a.statistic == pytest.approx(ca.agreement(TAB, index="adjusted_mutual_info",
                                                     average="max"))
    assert a.statistic != b.statistic


# -- coverage ---------------------------------------------------------------------------------

def test_the_rand_interval_covers_the_population_rand_about_95_percent():
    """200 samples of n = 200 from a 3 x 3 population: the percentile and BCa intervals of
    Rand cover the population's Rand (its cell proportions' index) close to 95% of the time
    (the binomial sd of the coverage is 1.5 points)."""
    p = np.array([[0.22, 0.05, 0.03], [0.04, 0.25, 0.04], [0.03, 0.04, 0.30]])
    p /= p.sum()
    truth = float(ca.agreement(np.rint(p * 10**7).astype(np.int64), index="rand"))
    rng = np.random.default_rng(2024)
    hits = {"percentile": 0, "BCa": 0}
    for _ in range(200):
        sample = rng.multinomial(200, p.ravel()).reshape(3, 3)
        for method in hits:
            ci = confidence_interval(sample, index="rand", method=method, n_resamples=999,
                                     seed=rng)
            hits[method] += ci.low <= truth <= ci.high
    for method, h in hits.items():
        assert 0.88 <= h / 200 <= 0.99, (method, h / 200)


# -- issue 29, items 1 and 2: an index not defined on some resample ---------------------------

#: A valid square table whose last row holds 2 of its 43 objects: about one resample in
#: eight loses that row and keeps the third column (whose other object is in row 1), and
#: kappa, which matches the clusters one to one, is not defined on such a 2 x 3 table.
SMALL_ROW = np.array([[20, 2, 0], [3, 15, 1], [0, 1, 1]])


def test_an_index_not_defined_on_a_resample_gets_no_interval_and_the_others_keep_theirs():
    """compare(indices=["ari", "kappa"]) used to crash on the first such resample."""
    import pandas as pd

    df = ca.compare(SMALL_ROW, indices=["ari", "kappa"], n_sim=200, seed=1, interval="BCa")
    assert pd.isna(df.loc["kappa", "ci_low"]) and pd.isna(df.loc["kappa", "ci_high"])
    assert df.loc["kappa", "statistic"] == pytest.approx(ca.agreement(SMALL_ROW, index="kappa"))
    notes = [n for n in df.attrs["notes"] if n.startswith("no interval for kappa")]
    assert len(notes) == 1
    assert "not defined on some bootstrap resamples" in notes[0]
    assert "bias" in notes[0] and "as many clusters in x as in y" in notes[0]
    # ARI's interval is the one it gets alone, from the same resamples
    alone = ca.compare(SMALL_ROW, indices=["ari"], n_sim=200, seed=1, interval="BCa")
    cols = ["ci_low", "ci_high"]
    assert df.loc["adjusted_rand", cols].tolist() == alone.loc["adjusted_rand", cols].tolist()
    assert df.loc["adjusted_rand", "ci_low"] < 0.53 < df.loc["adjusted_rand", "ci_high"]


@pytest.mark.slow  # every index, each with 9,999 resamples: about 40 s
def test_compare_all_on_a_table_whose_resamples_lose_a_cluster():
    """compare(indices="all") on a valid square table: kappa's bootstrap interval alone is
    NA (a resample may lose a cluster); "auto" (the jackknife) gives every index one."""
    df = ca.compare(SMALL_ROW, indices="all", n_sim=200, seed=1, interval="BCa")
    missing = df.index[df["ci_low"].isna()].tolist()
    assert missing == ["kappa"]
    assert any(n.startswith("no interval for kappa") for n in df.attrs["notes"])


def test_confidence_interval_of_kappa_refuses_when_a_resample_loses_a_cluster():
    """Alone, kappa's interval is refused with its reason: the interval from the resamples
    where kappa is defined would be conditioned on every cluster being drawn (biased)."""
    with pytest.raises(ValueError, match=r"no bootstrap interval for 'kappa': it is not "
                                         r"defined on some bootstrap resamples.*bias.*as many "
                                         r"clusters in x as in y"):
        confidence_interval(SMALL_ROW, index="kappa", method="BCa", seed=1)
    with pytest.raises(ValueError, match="no bootstrap interval for 'kappa'"):
        ca.agreement_test(SMALL_ROW, index="kappa", n_sim=100, seed=1).confidence_interval(
            method="BCa", seed=1)
    # where no resample can lose a cluster in practice, kappa has its interval
    ci = confidence_interval([[30, 5], [4, 25]], index="kappa", method="BCa",
                             n_resamples=999, seed=1)
    assert ci.low < ci.statistic < ci.high and ci.reason == ""


#: Two covers of 6 objects (issue 29, item 2); object 3 is in no cluster of C1.
C1 = np.array([[1, 0], [1, 1], [0, 1], [0, 0], [1, 0], [0, 1]])
C2 = np.array([[1, 0], [1, 0], [0, 1], [0, 1], [0, 1], [1, 1]])


def test_a_resample_of_covers_that_draws_no_object_of_a_cluster_leaves_it_out():
    """A resample that misses every object of a cluster used to give element_centric nan (a
    division by the empty cluster's size) and a RuntimeError; the cluster is no cluster of
    the resample, as a resampled table's empty row is none."""
    for seed in range(3):  # omega's resamples weight the pairs; none is nan
        ci = confidence_interval(C1, C2, index="omega", method="BCa", n_resamples=200,
                                 seed=seed)
        assert np.isfinite(ci.bootstrap_distribution).all() and ci.low <= ci.high
    # element_centric has no form that leaves out the pairs of an object's copies (issue 30):
    # no interval, and the reason
    with pytest.raises(ValueError, match="element_centric.*copies"):
        confidence_interval(C1, C2, index="element_centric", method="BCa", n_resamples=200,
                            seed=0)
    # onmi_lfk on a resample that missed C1's second cluster is onmi_lfk of what was drawn
    rng = np.random.default_rng(0)
    draws = [rng.integers(0, 6, 6) for _ in range(200)]
    ci = confidence_interval(C1, C2, index="onmi_lfk", n_resamples=200, seed=0,
                             method="percentile")
    first = next(b for b, idx in enumerate(draws) if not C1[idx].any(axis=0).all()
                 and C1[idx].any() and C2[idx].any(axis=0).all())
    idx = draws[first]
    U = C1[idx][:, C1[idx].any(axis=0)]
    assert ci.bootstrap_distribution[first] == pytest.approx(
        ca.agreement(U, C2[idx], index="onmi_lfk"), rel=1e-12)


def test_a_resample_with_no_cluster_at_all_has_no_interval():
    """Half the objects of this cover are in no cluster: some resamples draw only those, and
    the cover has no cluster there (the entry refuses such a cover): no interval."""
    U = np.array([[1, 0], [0, 1], [0, 0], [0, 0], [0, 0], [1, 1]])
    with pytest.raises(ValueError, match=r"no bootstrap interval for 'omega'.*no cluster"):
        confidence_interval(U, C2, index="omega", method="BCa", n_resamples=500, seed=1)


@pytest.mark.slow  # three indices of covers, 9,999 resamples each, one by one: about 15 s
def test_compare_of_covers_with_permutation_nulls_and_intervals():
    """The issue's call used to end in "index 'element_centric' gave nan ... please report":
    every interval is now a number, or NA with its reason."""
    names = ["omega", "element_centric", "onmi_lfk"]
    auto = ca.compare(C1.tolist(), C2.tolist(), indices=names, method="permutation", n_sim=99,
                      seed=2)
    assert auto[["ci_low", "ci_high"]].notna().all().all()  # the jackknife: every index
    df = ca.compare(C1.tolist(), C2.tolist(), indices=names, method="permutation", n_sim=99,
                    seed=2, interval="BCa")
    # element_centric's bootstrap is refused (the copies of an object drawn twice, issue 30)
    assert df.loc["element_centric", ["ci_low", "ci_high"]].isna().all()
    df = df.drop(index="element_centric")
    assert df[["ci_low", "ci_high"]].notna().all().all()
    assert (df["ci_low"] <= df["statistic"]).all() and (df["statistic"] <= df["ci_high"]).all()


def test_interval_from_draws_is_the_interval_of_those_draws():
    from clusteragree.intervals.engine import interval_from_draws

    for method in ("BCa", "percentile"):
        ci = confidence_interval(TAB, index="jaccard", method=method, n_resamples=999, seed=4)
        boot = ci.bootstrap_distribution
        jack = None
        if method == "BCa":  # the jackknife the package takes: one object out of each cell
            rows, cols = np.nonzero(TAB)
            tables = np.repeat(TAB[None], len(rows), axis=0)
            tables[np.arange(len(rows)), rows, cols] -= 1
            jack = (ca.agreement(tables, index="jaccard"), TAB[rows, cols])
        again = interval_from_draws("jaccard", ci.statistic, boot, jack, method=method)
        assert (again.low, again.high, again.method) == (ci.low, ci.high, method)
        assert again.acceleration == pytest.approx(ci.acceleration, abs=1e-15, nan_ok=True)


@pytest.mark.parametrize("kwargs, match", [
    (dict(bootstrap=[0.5]), "at least 2 values"),
    (dict(bootstrap=np.ones((3, 2))), "1-D array"),
    (dict(jackknife=None), "needs jackknife"),
    (dict(jackknife=([0.1, 0.2], [1.0])), "same length"),
    (dict(method="bca2"), "method must be one of"),
    (dict(resampling="rows"), "resampling"),
])
def test_interval_from_draws_refuses_bad_arguments_by_name(kwargs, match):
    from clusteragree.intervals.engine import interval_from_draws

    args = dict(index="rand", statistic=0.5, bootstrap=[0.4, 0.5, 0.6],
                jackknife=([0.5, 0.5], [1.0, 1.0]), method="BCa") | kwargs
    with pytest.raises(ValueError, match=match):
        interval_from_draws(**args)


def test_numpy_takes_an_interval_as_the_pair_it_unpacks_to():
    """Issue 45, trap 7: ``np.round(ci, 4)`` raised TypeError (``tuple(ci)`` worked)."""
    ci = confidence_interval([[30, 5], [4, 25]], index="rand", seed=1)
    assert np.round(ci, 4).tolist() == [round(ci.low, 4), round(ci.high, 4)]
    assert np.asarray(ci).tolist() == list(ci) == [ci[0], ci[1]] and len(ci) == 2
    assert np.asarray(ci, dtype=np.float32).dtype == np.float32
