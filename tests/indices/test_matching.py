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


# -- issue 29, item 6: one answer for a table alone and in a batch ----------------------------

#: Column 0 is empty: y has 3 clusters, x has 4 (Cohen's kappa needs the same categories).
PADDED = np.array([[0, 2, 1, 0], [0, 0, 2, 2], [0, 1, 1, 0], [0, 0, 2, 0]])


def test_kappa_refuses_an_empty_column_alone_and_in_a_batch():
    """An empty row or column is no cluster (``ContingencyTable`` drops it): the 4 x 4 table
    with an empty column is 4 clusters against 3, refused alone and in a batch (the batch
    used to match the empty column to a row and give 0.402)."""
    with pytest.raises(ValueError, match=r"kappa needs as many clusters .* 4 x 3 table"):
        ca.agreement(PADDED, index="kappa")
    with pytest.raises(ValueError, match=r"table 1 of the batch is a 4 x 4 table whose "
                                         r"non-empty .* make a 4 x 3 table"):
        ca.agreement(np.array([np.eye(4, dtype=int) * 3, PADDED]), index="kappa")
    with pytest.raises(ValueError, match=r"4 x 4 table whose non-empty .* 4 x 3"):
        ca.indices.evaluate("kappa", PADDED)


def test_kappa_of_a_padded_table_in_a_batch_is_kappa_of_its_clusters():
    """A table whose empty rows and columns leave as many clusters on each side gets, in a
    batch, the kappa it gets alone (its empty row and column are not matched to anything)."""
    T = np.array([[3, 2, 0, 1], [0, 0, 0, 0], [1, 4, 0, 2], [0, 1, 0, 5]])
    alone = ca.agreement(T, index="kappa")  # ContingencyTable drops row 1 and column 2
    batch = ca.agreement(np.array([T, T[[1, 0, 2, 3]], np.eye(4, dtype=int)]), index="kappa")
    assert batch.tolist() == [alone, alone, 1.0]
    # and it is Cohen's kappa of the 3 x 3 table matched by hand (the identity matching)
    sq = np.array([[3, 2, 1], [1, 4, 2], [0, 1, 5]])
    n = sq.sum()
    po, pe = np.trace(sq) / n, sq.sum(1) @ sq.sum(0) / n**2
    assert alone == pytest.approx((po - pe) / (1 - pe), rel=1e-14)
