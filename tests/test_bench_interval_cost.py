"""The cost benchmark of the default intervals (``benchmarks/bench_interval_cost.py``) times the
calls the issue names: the agreement report's twelve Statlog indices, and a fixed 8 x 6 table
of 2 * 10**6 objects."""

import sys
from pathlib import Path

import numpy as np

import clusteragree as ca

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench_interval_cost as bic  # noqa: E402


def test_section_a_is_the_reports_statlog_table_and_its_twelve_indices():
    table, names = bic.statlog_case()
    assert len(names) == 12 == len(set(names))
    assert {"rand", "adjusted_rand", "adjusted_mutual_info", "nmi_sum",
            "variation_of_information"} <= set(names)
    np.testing.assert_array_equal(table.counts, ca.load_dataset("statlog_em").counts)


def test_section_b_is_a_fixed_8_by_6_table_of_two_million_objects():
    big = bic.large_table()
    assert big.shape == (8, 6) and big.n == 2 * 10**6 and (big.counts > 0).all()
    np.testing.assert_array_equal(big.counts, bic.large_table().counts)  # seeded: the same


def test_a_section_reports_both_times_their_ratio_and_the_target(tmp_path):
    row = bic.measure("b", ca.ContingencyTable([[20, 3], [4, 18]]), bic.LARGE_INDICES, 1)
    assert row["ratio"] == row["with (s)"] / row["without (s)"] > 0
    assert row["methods"] != "none"
    text = bic.report([row], quick=True)
    assert "| (b) | 2x2 | 45 | 2 | 1 / 1 |" in text and "<= 10 x" in text
