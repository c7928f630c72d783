"""The coverage study (``benchmarks/bench_coverage.py``) measures what it says: its truths are
the indices of the populations, its intervals are ``confidence_interval``'s, and its coverage
accounting gives known answers on intervals of known coverage."""

import math
import warnings
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import clusteragree as ca
from clusteragree.indices import evaluate_resample
from clusteragree.inputs import as_clusterings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench_coverage as bc  # noqa: E402

B = 49


@pytest.mark.parametrize("name", list(bc.POPULATIONS))
def test_population_values_are_the_index_on_a_large_table(name):
    # On T = rint(N p), N = 10^8, each cell differs from N p by at most 1/2 (a relative change
    # of p_ij below 5e-9 / p_ij <= 4e-5 for the smallest cell here, 1.3e-4), and the finite-N
    # terms (pairs n(n - 1) against n^2, AMI's expected MI ~ (K - 1)(Q - 1) / (2N)) are below
    # 4e-6: no index here moves by more than 1e-4. A wrong formula is off by far more.
    p = bc.POPULATIONS[name].p
    T = np.rint(p / p.sum() * 1e8).astype(np.int64)
    for index in bc.TABLE_INDICES:
        assert bc.population_value(index, p) == pytest.approx(
            ca.agreement(T, index=index), abs=1e-4), index


def test_independence_gives_exact_zeros():
    p = bc.POPULATIONS["indep-unbalanced"].p
    for index in ("adjusted_rand", "adjusted_mutual_info", "nmi_sum"):
        assert bc.population_value(index, p) == 0.0
    assert bc.ari_mm_population(p) == 0.0
    assert bc.agri_population("indep-unbalanced") == (0.0, 0.0)
    # the Monte Carlo functional agrees: E|J^x_12 - J^y_12| = E|J^x_12 - J^y_34| there
    value, se = bc.agri_monte_carlo(p, n_objects=4 * 10**5, chunk=10**5)
    assert abs(value) < 5 * se + 1e-3


def test_the_harness_intervals_are_confidence_interval():
    """Each sample's BCa and percentile intervals are those confidence_interval gives on the
    sample's table with the sample's generator (the same resamples): the study measures the
    package's intervals, not a copy of them."""
    res = bc.table_cell("moderate", 200, bc.TABLE_INDICES, 3, B, ["BCa", "percentile"], seed=3)
    _, seqs = bc.table_seeds(3, "moderate", 200, 3)
    for s in range(3):
        for index in bc.TABLE_INDICES:
            for method in ("BCa", "percentile"):
                ci = ca.confidence_interval(res["tables"][s], index=index, method=method,
                                            n_resamples=B, seed=np.random.default_rng(seqs[s]))
                low, high = (res["bounds"][index, method][k][s] for k in (0, 1))
                # AMI's expected mutual information is summed in another order in a batch
                assert (low, high) == pytest.approx((ci.low, ci.high), abs=1e-10,
                                                    nan_ok=True), \
                    (s, index, method)
                assert res["estimates"][index][s] == pytest.approx(ci.statistic, abs=1e-12)


@pytest.mark.parametrize("population", ["moderate", "indep-balanced", "near-perfect"])
def test_the_harness_auto_and_jackknife_intervals_are_confidence_interval(population):
    """"auto" from the draws and the sample's law (drawn from a child of the sample's
    resampling sequence) is the interval confidence_interval gives with that generator; an
    open bound is moved to the next float inwards."""
    n = 50 if population == "near-perfect" else 200
    res = bc.table_cell(population, n, bc.TABLE_INDICES, 4, B, ["auto", "jackknife"], seed=3)
    _, seqs = bc.table_seeds(3, population, n, 4)
    for s in range(4):
        for index in bc.TABLE_INDICES:
            for method in ("auto", "jackknife"):
                rng = np.random.default_rng(seqs[s].spawn(1)[0])
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    ci = ca.confidence_interval(res["tables"][s], index=index, method=method,
                                                seed=rng)
                low, high = (res["bounds"][index, method][k][s] for k in (0, 1))
                want_low = np.nextafter(ci.low, np.inf) if ci.closed == "right" else ci.low
                want_high = np.nextafter(ci.high, -np.inf) if ci.closed == "left" else ci.high
                assert (low, high) == pytest.approx((want_low, want_high), abs=1e-10,
                                                    nan_ok=True), (s, index, method)


@pytest.mark.filterwarnings("ignore:the BCa interval")
def test_the_pair_harness_intervals_are_confidence_interval(monkeypatch):
    monkeypatch.setattr(bc, "agri_population", lambda name: (0.25, 0.0))  # no Monte Carlo
    n = 25
    res = bc.pair_cell("moderate", n, bc.PAIR_INDICES, 2, B, ["BCa", "percentile"], seed=3)
    for s, (data_seq, resample_seq) in enumerate(bc.object_seeds(3, "moderate", n, 2)):
        data = bc.pair_sample(bc.POPULATIONS["moderate"].p, n, np.random.default_rng(data_seq))
        for index in bc.PAIR_INDICES:
            for method in ("BCa", "percentile"):
                ci = ca.confidence_interval(*data[index], index=index, method=method,
                                            n_resamples=B,
                                            seed=np.random.default_rng(resample_seq))
                low, high = (res["bounds"][index, method][k][s] for k in (0, 1))
                assert (low, high) == pytest.approx((ci.low, ci.high), abs=1e-12, nan_ok=True)


def test_weighted_pair_indices_are_the_index_on_the_resampled_objects():
    # the package's value on each resample: its distinct objects weighted by how often they
    # were drawn, the copies of one object forming no pair (issue 30)
    rng = np.random.default_rng(5)
    data = bc.pair_sample(bc.POPULATIONS["high"].p, 40, rng)
    draws = [rng.integers(0, 40, 40) for _ in range(4)] + [np.delete(np.arange(40), 7)]
    W = np.stack([np.bincount(d, minlength=40) for d in draws])
    for index in bc.PAIR_INDICES:
        X, Y = data[index]
        rec = ca.get_index(index)
        got = bc.PAIR_EVALUATORS[index](X, Y, W)
        take = (lambda M, d: M[np.ix_(d, d)]) if index == "ari_mm" else (lambda M, d: M[d])
        want = []
        for d in draws:
            objects, counts = np.unique(d, return_counts=True)
            pair = as_clusterings(take(X, objects), take(Y, objects), table=False,
                                  pairs=[index]).pair(rec)
            want.append(evaluate_resample(rec, pair, {}, counts))
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
        assert got[-1] == pytest.approx(ca.agreement(take(X, draws[-1]), take(Y, draws[-1]),
                                                     index=index), abs=1e-12)


def test_pair_population_values_match_a_large_sample():
    # the index on a large sample of the model: the sampling sd of ari_mm is about 0.015 at
    # n = 200, so 0.004 at 3,000 (5 sd: 0.02); of agri about 0.037 at n = 200, so 0.012 at
    # 2,000 (5 sd: 0.06)
    p = bc.POPULATIONS["moderate"].p
    data = bc.pair_sample(p, 3000, np.random.default_rng(11))
    assert ca.agreement(*data["ari_mm"], index="ari_mm") == pytest.approx(
        bc.ari_mm_population(p), abs=0.02)
    U, V = (M[:2000] for M in data["agri"])
    assert bc.agri_weighted(U, V, np.ones((1, 2000), dtype=np.int64))[0] == pytest.approx(
        bc.agri_population("moderate")[0], abs=0.06)


def test_known_coverages_from_the_oracle_intervals():
    """Intervals that know the truth: always (coverage 1), never (0, zero width, excluding
    the estimate) and 9 samples in 10 (the tenth undefined: counted as a miss and reported)."""
    S = 50
    res = bc.table_cell("near-perfect", 50, ("adjusted_rand", "nmi_sum"), S, 19,
                        ["oracle-cover", "oracle-miss", "oracle-90"], seed=1)
    rows = pd.DataFrame(bc.summarise("near-perfect", 50, res, 19)).set_index(["index", "method"])
    for index in ("adjusted_rand", "nmi_sum"):
        cover, miss, ninety = (rows.loc[index, m] for m in bc.ORACLES)
        assert (cover.coverage, cover.coverage_se, cover.undefined) == (1.0, 0.0, 0.0)
        assert (miss.coverage, miss.mean_width, miss.excludes_estimate) == (0.0, 0.0, 1.0)
        assert miss.miss_above == 0.0 and miss.miss_below == 1.0
        assert (ninety.coverage, ninety.undefined) == (0.9, 0.1)
        assert ninety.coverage_se == pytest.approx(math.sqrt(0.9 * 0.1 / S))
        assert cover.truth == bc.population_value(index, bc.POPULATIONS["near-perfect"].p)


def test_the_command_line_writes_the_tables_and_merges(tmp_path, capsys):
    argv = ["--cells", "indep-balanced@50", "--indices", "ari,nmi", "--samples", "20",
            "--resamples", "19", "--out", str(tmp_path)]
    first = bc.main(argv)
    again = bc.main(argv)  # the same seed gives the same table
    cols = ["coverage", "mean_width", "excludes_estimate", "undefined"]
    pd.testing.assert_frame_equal(first[cols], again[cols])
    assert set(first.method) == set(ca.intervals.METHODS)
    csv = pd.read_csv(tmp_path / "coverage.csv")
    k = len(ca.intervals.METHODS)
    assert len(csv) == 2 * k and set(csv["index"]) == {"adjusted_rand", "nmi_sum"}
    md = (tmp_path / "coverage.md").read_text()
    assert "--cells indep-balanced@50" in md and "| indep-balanced | 2 x 2 | 50 | 20 | ARI" in md
    bc.main(["--cells", "moderate@50", "--indices", "ari", "--samples", "20",
             "--resamples", "19", "--out", str(tmp_path), "--merge"])
    merged = pd.read_csv(tmp_path / "coverage.csv")
    assert len(merged) == 3 * k and set(merged.population) == {"indep-balanced", "moderate"}
    assert "indep-balanced" in capsys.readouterr().out
