"""The weighted coverage study (``benchmarks/bench_weighted_coverage.py``) measures what it says:
its truths are the limits of the weighted indices, its intervals are ``confidence_interval``'s,
and its quick mode runs."""

import math
import sys
from pathlib import Path

import numpy as np
import pytest

import clusteragree as ca
from clusteragree.inputs import as_clusterings
from clusteragree.indices import evaluate_weighted

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench_weighted_coverage as bw  # noqa: E402

TRUTH_INDICES = ("adjusted_rand", "rand", "nmi_sum", "fowlkes_mallows", "jaccard",
                 "variation_of_information")


def _huge_sample_values(pop, n, seed):
    x, y, w = bw.draw_sample(pop, n, np.random.default_rng(seed))
    table = as_clusterings(x, y, table=True, pairs=[], sample_weight=w).weighted
    values = {i: float(evaluate_weighted(ca.get_index(i), table.counts, None))
              for i in TRUTH_INDICES}
    # the package's own entry gives the same value (one index: the others share the table)
    assert values["nmi_sum"] == pytest.approx(bw.weighted_value("nmi_sum", x, y, w), abs=1e-12)
    return values


@pytest.mark.parametrize("name", list(bw.POPULATIONS))
def test_truths_are_the_weighted_index_on_a_huge_sample(name):
    # At n = 10^6 the estimates' s.d. is about 50 times below their s.d. at n = 400 (at most
    # 0.05 in this study's populations, so <= 0.001 here) and the O(1/n) scale terms of the
    # pair counts are ~1e-6: 0.005 is 5 s.d. The index of p instead of q (cell-dependent
    # weights) is off by 0.1 to 0.45, far beyond it.
    pop = bw.POPULATIONS[name]
    values = _huge_sample_values(pop, 10**6, seed=7)
    for index in TRUTH_INDICES:
        assert bw.truth_of(index, pop) == pytest.approx(values[index], abs=0.005), index


def test_cell_dependent_weights_move_the_truth_off_p():
    pop = bw.POPULATIONS["cell-dependent"]
    assert pop.cell_dependent and not np.allclose(pop.q, pop.p / pop.p.sum())
    assert bw.truth_of("adjusted_rand", pop) < bw.population_value("adjusted_rand", pop.p) - 0.1
    for name in ("near-indep", "moderate", "strong"):  # weights independent of the cell: q = p
        p = bw.POPULATIONS[name].p
        np.testing.assert_allclose(bw.POPULATIONS[name].q, p / p.sum(), rtol=0, atol=1e-15)


def test_the_weight_means_are_those_of_the_draws():
    rng = np.random.default_rng(3)
    for pop in bw.POPULATIONS.values():
        K, Q = pop.p.shape
        a, b = np.repeat(np.arange(K), Q * 20000), np.tile(np.repeat(np.arange(Q), 20000), K)
        w = pop.draw(a, b, rng)
        means = np.bincount(a * Q + b, weights=w, minlength=K * Q) / 20000
        np.testing.assert_allclose(means.reshape(K, Q), pop.mean_weight, rtol=0.03)
        assert not np.all(w == np.round(w))  # the weighted path, not repeated objects


@pytest.mark.parametrize("name", list(bw.POPULATIONS))
def test_the_shared_draws_are_confidence_interval(name):
    """Each (index, method) interval of a sample is the one ``confidence_interval`` returns
    with the sample's seed: the study measures the package's intervals."""
    indices = ("adjusted_rand", "nmi_sum", "fowlkes_mallows", "rand")
    for s in range(2):
        data_seq, resample_seq = bw.sample_seeds(bw.SEED, name, 60, s)
        x, y, w = bw.draw_sample(bw.POPULATIONS[name], 60, np.random.default_rng(data_seq))
        est, bounds = bw.shared_intervals(x, y, w, indices, bw.METHODS, 49, resample_seq)
        est_d, bounds_d = bw.direct_intervals(x, y, w, indices, bw.METHODS, 49, resample_seq)
        assert est == pytest.approx(est_d, abs=1e-12)
        for key in bounds_d:
            assert bounds[key] == pytest.approx(bounds_d[key], abs=1e-12, nan_ok=True), key


def test_whole_weights_take_the_repeated_objects_path():
    x, y, w = bw.draw_sample(bw.WHOLE, 50, np.random.default_rng(1))
    assert np.all(w == np.round(w))
    with pytest.raises(ValueError, match="whole numbers"):
        bw.shared_intervals(x, y, w, ("adjusted_rand",), ("BCa",), 19, 0)
    est, bounds = bw.direct_intervals(x, y, w, ("adjusted_rand",), ("percentile",), 19,
                                      np.random.SeedSequence(0))
    assert math.isfinite(bounds["adjusted_rand", "percentile"][0])


def test_quick_mode_runs_and_writes_its_table(tmp_path, capsys):
    frame = bw.main(["--quick", "--no-progress", "--out", str(tmp_path)])
    k = len(bw.POPULATIONS) * len(bw.QUICK_NS) * len(bw.QUICK_INDICES) * len(bw.METHODS)
    assert len(frame) == k and (frame.samples == 60).all()
    assert frame.coverage.between(0, 1).all() and (frame.undefined == 0).all()
    # a sanity floor, not a measurement: at least half the intervals hold the truth
    assert (frame.coverage > 0.5).all()
    md = (tmp_path / bw.RESULT_FILE).read_text()
    assert "| population | weights | n | index | method | coverage % |" in md
    assert md.count("\n| ") == k + 1 + len(bw.POPULATIONS) + 1  # both tables' rows and heads
    assert "--quick" in md and "| moderate | {0.5, 2} | 400 | NMI | BCa |" in md
    assert "cell-dependent" in capsys.readouterr().out


def test_a_run_is_reproducible_whatever_the_chunks():
    args = ("strong", 100)
    one = bw.run_chunk(*args, range(6), ("adjusted_rand",), ("percentile",), 19)[2]
    two = (bw.run_chunk(*args, range(3), ("adjusted_rand",), ("percentile",), 19)[2]
           + bw.run_chunk(*args, range(3, 6), ("adjusted_rand",), ("percentile",), 19)[2])
    assert one == two


@pytest.mark.slow
@pytest.mark.parametrize("name", list(bw.POPULATIONS))
def test_truths_on_ten_million_objects(name):
    # s.d. <= 3e-4 here: 0.0015 is 5 s.d.
    pop = bw.POPULATIONS[name]
    values = _huge_sample_values(pop, 10**7, seed=8)
    for index in TRUTH_INDICES:
        assert bw.truth_of(index, pop) == pytest.approx(values[index], abs=0.0015), index
