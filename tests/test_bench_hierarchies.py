"""The hierarchies benchmark (``benchmarks/bench_hierarchies.py``) measures what it says: its
trials are trees of independent samples, its error is the band's, and its quick mode runs."""

import math
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench_hierarchies as bh  # noqa: E402


def test_a_trial_outside_the_band_is_a_rejection_of_the_global_test():
    rng = np.random.default_rng(3)
    for _ in range(20):
        simultaneous, pointwise, rejected = bh.independent_trial(25, 39, "two-sided", rng)
        assert rejected or not simultaneous


def test_the_quick_mode_runs_and_its_rates_are_binomially_plausible(capsys):
    fwer, speed = bh.main(["--quick"])
    out = capsys.readouterr().out
    assert "Family-wise error" in out and "ratio (per-cut / ours)" in out
    for row in fwer:
        # 100 trials: a true FWER of 5% gives more than 5% + 4.5 s.e. (14.8%) with
        # probability below 1e-4; the pointwise band across all cuts errs far more often
        assert row["rate"] <= 0.05 + 4.5 * math.sqrt(0.05 * 0.95 / 100)
        assert row["test"] <= 0.05 + 4.5 * math.sqrt(0.05 * 0.95 / 100)
        assert row["pointwise"] >= row["rate"] and row["test"] >= row["rate"]
    assert speed["per_cut"] > speed["moments"] and speed["per_cut_band"] > speed["band"]


@pytest.mark.parametrize("n", [40, 200])
def test_the_speed_trees_have_every_cut(n):
    Za, Zb = bh.trees(n)
    assert Za.shape == Zb.shape == (n - 1, 4)
