"""Every sampler of random tables keeps the margins it promises, on every shape of margin,
degenerate ones included (a single row or column, empty rows or columns, n = 1, all singletons).
"""

import numpy as np
import pytest

import clusteragree as ca

SHAPES = [([7], [2, 5]), ([2, 5], [7]), ([1], [1]), ([4], [4]), ([1, 1, 1], [1, 1, 1]),
          ([0, 3], [1, 2]), ([1, 1], [2]), ([0, 2, 2], [1, 0, 3]), ([3, 2, 2], [4, 3]),
          ([5, 1, 1, 1], [2, 2, 2, 2])]


@pytest.mark.parametrize("rows, cols", SHAPES)
def test_patefield_tables_keep_their_margins_on_every_shape(rows, cols):
    sims = ca.nulls.random_tables(rows, cols, n_sim=300, seed=7)
    assert sims.shape == (300, len(rows), len(cols))
    assert (sims >= 0).all()
    assert (sims.sum(axis=2) == rows).all() and (sims.sum(axis=1) == cols).all()


def test_a_single_row_or_column_has_one_table_and_a_point_mass_null():
    # the review's case: scipy returned [[2, -2]] and the package reported p = 5.9e-05
    x, y = np.zeros(10, int), np.r_[[0] * 3, [1] * 7]
    res = ca.agreement_test(x, y, index="rand", seed=1)
    exact = ca.agreement_test(x, y, index="rand", method="exact")
    assert res.pvalue == 1.0 and exact.pvalue == 1.0
    assert res.null.mean == exact.null.mean == res.statistic
    assert res.null.std == 0 and res.zscore == 0


def test_random_tables_refuses_margins_with_different_totals():
    with pytest.raises(ValueError, match="same positive total"):
        ca.nulls.random_tables([3, 2], [4, 2], n_sim=2)


# Every sampler on degenerate margins: n = 1, a single cluster, all singletons.
DEGENERATE = [([1], [1]), ([5], [5]), ([1] * 5, [5]), ([5], [1] * 5), ([1] * 4, [1] * 4),
              ([3, 2], [1] * 5), ([2, 1], [2, 1])]


@pytest.mark.parametrize("rows, cols", DEGENERATE)
@pytest.mark.parametrize("method, model", [("permutation", "perm"), ("simulation", "perm"),
                                           ("simulation", "num"), ("simulation", "num1"),
                                           ("simulation", "all"), ("simulation", "all1")])
def test_every_sampler_on_degenerate_margins(rows, cols, method, model):
    from clusteragree.nulls.partitions import random_model_chunks, sides_of

    x, y = sides_of(model, rows, cols)
    rng = np.random.default_rng(1)
    for _, _, tables in random_model_chunks(x, y, 200, rng):
        n = tables.sum(axis=(1, 2))
        assert (tables >= 0).all() and (n == sum(rows)).all()
        if x.kind == "fixed":
            assert (np.sort(tables.sum(axis=2), axis=1)[:, ::-1][:, :len(rows)]
                    == sorted(rows, reverse=True)).all()
        if y.kind == "fixed":
            assert (np.sort(tables.sum(axis=1), axis=1)[:, ::-1][:, :len(cols)]
                    == sorted(cols, reverse=True)).all()
        if y.kind == "num":
            assert ((tables.sum(axis=1) > 0).sum(axis=1) == len(cols)).all()
    table = np.zeros((len(rows), len(cols)), dtype=int)
    # any table with these margins will do as the observed one
    r, c = list(rows), list(cols)
    for i in range(len(r)):
        for j in range(len(c)):
            table[i, j] = min(r[i], c[j])
            r[i] -= table[i, j]
            c[j] -= table[i, j]
    index = "rand" if sum(rows) >= 2 else "nmi_sum"
    nd = ca.nulls.null_distribution(table, index=index, method=method, model=model, n_sim=200,
                                    seed=2)
    law = nd.samples if nd.is_sampled else nd.values  # (all permutations when n <= 8)
    assert law.size and np.isfinite(law).all()


@pytest.mark.parametrize("table", [[[2, 3]], [[2], [3]], [[1, 1]], [[1], [1]], [[2]], [[1, 1, 1]],
                                   [[1, 0], [0, 1]], [[3, 1], [0, 2]]])
def test_exact_and_monte_carlo_laws_agree_on_tiny_and_degenerate_tables(table):
    index = "rand" if np.sum(table) >= 2 else "nmi_sum"
    exact = ca.nulls.null_distribution(table, index=index, method="exact")
    for method in ("patefield", "permutation", "simulation"):
        nd = ca.nulls.null_distribution(table, index=index, method=method, n_sim=4000, seed=5)
        law = nd.samples if nd.is_sampled else nd.values
        assert np.isin(np.round(law, 12), np.round(exact.values, 12)).all(), method
        se = max(nd.mean_se, 1e-12)
        assert abs(nd.mean - exact.mean) <= 4 * se + 1e-12, (method, nd.mean, exact.mean)
