"""The power benchmark (``benchmarks/bench_power.py``) measures what it says: its simulated
power is ``ca.power``'s simulation of the package's test, its n the analytic sample size, and
its quick mode runs and writes its table."""

import sys
from pathlib import Path

import clusteragree as ca

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench_power as bp  # noqa: E402


def test_quick_mode_runs_and_writes_its_table(tmp_path):
    frame = bp.main(["--quick", "--out", str(tmp_path)])
    q = bp.QUICK
    k = (len(q["sizes"]) * sum(len(v) for v in bp.GROUPS.values()) * len(q["alphas"])
         * len(q["targets"]) + len(q["difference"]) * len(q["alphas"]) * len(q["targets"]))
    assert len(frame) == k and (frame.replicates == q["replicates"]).all()
    assert frame.analytic.between(0, 1).all() and frame.simulated.between(0, 1).all()
    # the n of each row is the analytic sample size: its analytic power is at its target
    assert (frame.analytic >= frame.target).all() and (frame.analytic < frame.target + 0.1).all()
    # a sanity floor, not a measurement: 100 studies put the simulated power within 4 s.e.
    # and 5 points of the analytic one
    assert ((frame.analytic - frame.simulated).abs() <= 0.05 + 4 * frame.se).all()
    md = (tmp_path / bp.RESULT_FILE).read_text()
    assert "| test | population | index | alpha | target | n | analytic |" in md
    rows_table = md.split("## The analytic sample size")[0]
    assert rows_table.count("\n| ") == k + 1 and "--quick" in md and "Rows: " in md
    assert set(frame.auto) <= {"analytic", "simulation"}
    assert "| population | index | n | seconds |" in md  # the sample size's time, measured


def test_a_row_is_the_package_s_simulation():
    pop = ca.relabel_population(bp.SIZES[2], bp.SHARES[2])
    (row,) = bp._row("independence", pop, "adjusted_rand", ("adjusted_rand",), 0.05, 0.5, 40,
                     bp.SEED, False)
    sim = ca.power(pop, n=row["n"], index="adjusted_rand", method="simulation", n_sim=40,
                   seed=bp.SEED)
    assert row["simulated"] == sim.power and row["se"] == sim.power_se
    assert row["n"] == ca.sample_size(pop, power=0.5, index="adjusted_rand",
                                      method="analytic", seed=bp.SEED).n
