"""Set-matching indices on small tables worked out by hand."""

import numpy as np
import pytest

import clusteragree as ca

# rows: classes (x), columns: clusters (y)
T = np.array([[5, 1, 0], [0, 4, 2], [1, 0, 3]])  # n = 16; rows 6, 6, 4; columns 6, 5, 5


def test_purity_and_inverse_purity():
    assert ca.agreement(T, index="purity") == pytest.approx((5 + 4 + 3) / 16)
    assert ca.agreement(T, index="inverse_purity") == pytest.approx((5 + 4 + 3) / 16)
    U = np.array([[4, 4], [0, 2]])
    assert ca.agreement(U, index="purity") == pytest.approx((4 + 4) / 10)
    assert ca.agreement(U, index="inverse_purity") == pytest.approx((4 + 2) / 10)


def test_f_measure_both_directions():
    U = np.array([[4, 4], [0, 2]])  # rows 8, 2; columns 4, 6
    f_rows = (8 / 10) * max(2 * 4 / 12, 2 * 4 / 14) + (2 / 10) * max(0, 2 * 2 / 8)
    f_cols = (4 / 10) * max(2 * 4 / 12, 0) + (6 / 10) * max(2 * 4 / 14, 2 * 2 / 8)
    assert ca.agreement(U, index="f_measure") == pytest.approx(f_rows)
    assert ca.agreement(U, index="f_measure", reference="y") == pytest.approx(f_cols)


def test_van_dongen():
    U = np.array([[4, 4], [0, 2]])
    assert ca.agreement(U, index="van_dongen") == pytest.approx((20 - (4 + 2) - (4 + 4)) / 20)


def test_criterion_h_greedy_differs_from_optimal():
    # Greedy takes the 10 first and is left with 0; the optimal pairing takes 9 + 9.
    V = np.array([[10, 9], [9, 0]])
    assert ca.agreement(V, index="criterion_h") == pytest.approx(1 - 10 / 28)
    assert ca.agreement(V, index="criterion_h", pairing="optimal") == pytest.approx(1 - 18 / 28)
    assert ca.agreement(V, index="accuracy") == pytest.approx(18 / 28)


def test_kappa_after_optimal_matching_equals_cohen_on_the_permuted_table():
    W = np.array([[1, 8], [7, 2]])  # best matching swaps the columns
    sq = W[:, ::-1]
    n = sq.sum()
    po = np.trace(sq) / n
    pe = sq.sum(1) @ sq.sum(0) / n**2
    assert ca.agreement(W, index="kappa") == pytest.approx((po - pe) / (1 - pe))
    # scikit-learn's cohen_kappa_score on the matched labels agrees
    from sklearn.metrics import cohen_kappa_score

    x = np.repeat([0, 0, 1, 1], [1, 8, 7, 2])
    y = np.repeat([1, 0, 1, 0], [1, 8, 7, 2])  # columns relabelled by the matching
    assert ca.agreement(W, index="kappa") == pytest.approx(cohen_kappa_score(x, y))


def test_kappa_with_a_given_matching_merges_columns():
    X = np.array([[5, 1, 4], [0, 6, 0]])  # columns 0 and 2 both matched to row 0
    sq = np.array([[9, 1], [0, 6]])
    n = sq.sum()
    po, pe = np.trace(sq) / n, sq.sum(1) @ sq.sum(0) / n**2
    assert ca.agreement(X, index="kappa", matching=[0, 1, 0]) == pytest.approx((po - pe) / (1 - pe))
