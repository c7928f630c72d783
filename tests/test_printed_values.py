"""Observed index values printed in the source papers, reproduced from their tables: Amorim,
M. J. (2015), "On clustering stability", PhD thesis, ISCTE - University Institute of Lisbon
("the thesis"), and Rezaei, M. & Franti, P. (2016), "Set matching measures for external cluster
validity", IEEE Transactions on Knowledge and Data Engineering 28(8)."""

import numpy as np
import pytest

import clusteragree as ca

TABLE_6A = [[30, 20], [10, 20]]  # the thesis, Ch.2 Table 6a


@pytest.mark.parametrize(
    "index, printed",
    [
        ("rand", 0.5253),
        ("gower_legendre", 0.6888),
        ("jaccard", 0.3644),
        ("czekanowski", 0.5342),
        ("sokal_sneath", 0.2760),
        ("nmi_min", 0.0511),
    ],
)
def test_thesis_table6a_observed_values(index, printed):
    # Table 8 of the thesis prints these observed values to 4 decimals.
    assert ca.agreement(ca.ContingencyTable(TABLE_6A), index=index) == pytest.approx(printed, abs=5e-5)


@pytest.mark.parametrize(
    "index, printed, decimals",
    [("gower_legendre", 0.804, 3), ("sokal_sneath", 0.283, 3), ("rand", 0.673, 3),
     ("adjusted_rand", 0.143, 3)],
)
def test_statlog_observed_values(index, printed, decimals):
    # The thesis, Ch.4 section 1: GL = 0.804, SoS = 0.283, R = 0.673; R_a = 0.143.
    tab = ca.load_dataset("statlog_em")
    assert round(ca.agreement(tab, index=index), decimals) == printed


def test_statlog_accuracy_is_the_printed_share_correctly_allocated():
    # The thesis, Ch.4: "the percentage of observations that are correctly allocated ... (44.9%)".
    tab = ca.load_dataset("statlog_em")
    assert round(100 * ca.agreement(tab, index="accuracy"), 1) == 44.9


def test_thesis_table11_rand_of_each_table():
    # The thesis, App. A, Table 11: n11 = 40 gives Rand 0.778481, n11 = 25 gives 0.493671.
    for n11, printed in [(40, 0.778481), (30, 0.525316), (25, 0.493671), (10, 0.778481)]:
        table = [[n11, 50 - n11], [40 - n11, n11 - 10]]
        assert ca.agreement(table, index="rand") == pytest.approx(printed, abs=5e-7)


def test_pair_counts_follow_appendix_b_equations():
    # The thesis, App. B eqs 6-9, by hand for Table 6a: a11 = C(30,2) + C(20,2) + C(10,2) +
    # C(20,2) = 435 + 190 + 45 + 190 = 860 = (sum n_ij^2 - n) / 2 = (1800 - 80) / 2.
    p = ca.ContingencyTable(TABLE_6A).pairs
    assert p.a11 == 860
    assert p.a10 == (1225 + 435) - 860          # C(50,2) + C(30,2) - a11
    assert p.a01 == (780 + 780) - 860           # 2 C(40,2) - a11
    assert p.total == 80 * 79 // 2
    assert p.a00 == p.total - p.a11 - p.a10 - p.a01


def test_psi_perfect_and_random_like_cases():
    # Rezaei & Franti (2016) eq 18: PSI = 1 for identical clusterings; 0 when S < E.
    assert ca.agreement([0, 0, 1, 1, 2], [5, 5, 7, 7, 9], index="psi") == 1.0
    # One cluster vs one cluster: K = K' = 1 gives 1.
    assert ca.agreement([[7]], index="psi") == 1.0
    # Hand example: [[40, 0], [5, 35]]: S = 40/45 + 35/40, E = (40 + 35)/80.
    S, E = 40 / 45 + 35 / 40, 75 / 80
    assert ca.agreement([[40, 0], [5, 35]], index="psi") == pytest.approx((S - E) / (2 - E))
    assert ca.agreement([[40, 0], [5, 35]], index="psi", simplified=True) == pytest.approx(
        (S - 1) / (2 - 1)
    )


def test_psi_clips_below_expected_unless_asked():
    # A table whose Braun-Banquet total falls below E: clipped to 0 by default.
    table = np.array([[10, 10], [10, 10]])
    S = 10 / 20 + 10 / 20
    E = (20 + 20) / 40
    assert S <= E
    assert ca.agreement(table, index="psi") == 0.0
    assert ca.agreement(table, index="psi", clip=False) == pytest.approx((S - E) / (2 - E))
