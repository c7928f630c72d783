"""The batched set-matching indices (enumerated pairings, issue 21 item 4) against the
table-by-table code they replace (kept here verbatim as the reference): equal to 1e-12 on
random batches, with ties, empty rows and columns, K != Q, 1 x Q and large tables. Kappa reads
a table by its non-empty rows and columns (its clusters), alone or in a batch (issue 29)."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment

import clusteragree as ca
from clusteragree.indices import evaluate
from clusteragree.indices.matching import (ENUMERATION_CELLS, best_pairing_totals,
                                           distinct_rows, greedy_pairing_totals, pairings)

SETTINGS = dict(deadline=None, derandomize=True, database=None)


# -- the per-table reference (the code before the batched form) -------------------------------

def ref_best(weights):
    r, c = linear_sum_assignment(weights, maximize=True)
    return float(weights[r, c].sum())


def ref_greedy(weights):
    order = np.argsort(-weights, axis=None, kind="stable")
    K, Q = weights.shape
    used_r, used_c = np.zeros(K, bool), np.zeros(Q, bool)
    total, left = 0.0, min(K, Q)
    for flat in order:
        r, c = divmod(int(flat), Q)
        if not (used_r[r] or used_c[c]):
            used_r[r] = used_c[c] = True
            total += float(weights[r, c])
            left -= 1
            if left == 0:
                break
    return total


def ref_kappa(table, matching=None):
    if matching is None:
        n2 = float(table.sum()) ** 2
        a, b = table.sum(axis=1), table.sum(axis=0)
        r, c = linear_sum_assignment(table - np.outer(a, b) / (n2 + 1.0), maximize=True)
        sq = table[r][:, c]
    else:
        K = table.shape[0]
        sq = np.zeros((K, K), dtype=table.dtype)
        np.add.at(sq.T, np.asarray(matching), table.T)
    n = float(sq.sum())
    po = np.trace(sq) / n
    # (the old code's int64 products overflowed beyond n = 2^31.5: Python integers here)
    pe = float((sq.sum(axis=1).astype(object) * sq.sum(axis=0).astype(object)).sum()) / (n * n)
    return (po - pe) / (1 - pe) if pe != 1 else 1.0


def ref_psi(table, simplified=False, clip=True):
    table = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]
    a = table.sum(axis=1).astype(float)
    b = table.sum(axis=0).astype(float)
    K, Q = table.shape
    if K == 1 and Q == 1:
        return 1.0
    S = ref_best(table / np.maximum(a[:, None], b[None, :]))
    if simplified:
        E = 1.0
    else:
        m = min(K, Q)
        E = float(np.minimum(np.sort(a)[::-1][:m], np.sort(b)[::-1][:m]).sum()) / a.sum()
    value = (S - E) / (max(K, Q) - E)
    return max(value, 0.0) if clip else value


def ref_values(name, batch, **opts):
    """The reference index of each table, with the registry's rule for identical partitions
    (default options: the optimum), as ``evaluate`` applies it."""
    rec = ca.get_index(name)
    out = []
    for t in batch:
        n = t.sum()
        if name == "accuracy":
            v = ref_best(t) / n
        elif name == "criterion_h":
            pair = ref_best if opts.get("pairing") == "optimal" else ref_greedy
            v = 1.0 - pair(t) / n
        elif name == "kappa" and opts.get("matching") is None:
            # an empty row or column is no cluster (issue 29, item 6): kappa of the clusters
            v = ref_kappa(t[t.sum(axis=1) > 0][:, t.sum(axis=0) > 0])
        elif name == "kappa":
            v = ref_kappa(t, opts.get("matching"))
        elif name == "psi":
            v = ref_psi(t, **opts)
        elif name == "psi_distance":
            v = 1.0 - ref_psi(t, **opts)
        nz = t > 0
        same = (nz.sum(axis=0) <= 1).all() and (nz.sum(axis=1) <= 1).all()
        if same and opts.get("matching") is None:
            v = rec.optimum
        out.append(v)
    return np.array(out)


CASES = [("accuracy", {}), ("criterion_h", {}), ("criterion_h", {"pairing": "optimal"}),
         ("kappa", {}), ("psi", {}), ("psi", {"simplified": True}), ("psi", {"clip": False}),
         ("psi_distance", {}), ("psi_distance", {"simplified": True})]


def random_batch(rng, B, K, Q, top):
    """Tables with many ties (few distinct small counts), empty rows and columns, repeats."""
    batch = rng.integers(0, top + 1, size=(B, K, Q)) * (rng.random((B, K, Q)) < 0.7)
    batch[:, 0, 0] += 1  # n >= 1
    batch[B - B // 4:] = batch[:B // 4]  # repeated tables (paired once each)
    return batch


# -- the tests ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name,opts", CASES, ids=[f"{n}-{o}" for n, o in CASES])
@given(K=st.integers(1, 6), Q=st.integers(1, 6), top=st.sampled_from([1, 2, 5, 1000]),
       seed=st.integers(0, 2**32 - 1))
@settings(max_examples=40, **SETTINGS)
def test_batched_equals_table_by_table(name, opts, K, Q, top, seed):
    batch = random_batch(np.random.default_rng(seed), 24, K, Q, top)
    if name == "kappa":  # the tables with as many non-empty rows as columns (clusters)
        square = ((batch.sum(axis=2) > 0).sum(axis=1) == (batch.sum(axis=1) > 0).sum(axis=1))
        if not square.all():
            with pytest.raises(ValueError, match="kappa needs as many clusters"):
                evaluate(name, batch, **opts)
        batch = batch[square]
        if not len(batch):
            return
    np.testing.assert_allclose(evaluate(name, batch, **opts), ref_values(name, batch, **opts),
                               rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("shape", [(1, 1), (1, 9), (9, 1), (2, 7), (7, 2), (7, 7), (10, 10),
                                   (3, 12), (40, 35)])
def test_beyond_enumeration_and_long_sides(shape):
    """Tables paired one by one (too many pairings) or with a long side, and a batch shape."""
    rng = np.random.default_rng(sum(shape))
    for B in (6, 40):  # one by one, and distinct tables found first
        batch = random_batch(rng, B, *shape, 4).reshape((2, B // 2) + shape)
        flat = batch.reshape((-1,) + shape)
        for name, opts in CASES:
            if name == "kappa" and shape[0] != shape[1]:
                continue
            if name == "kappa":  # the tables with as many non-empty rows as columns
                square = ((flat.sum(axis=2) > 0).sum(axis=1)
                          == (flat.sum(axis=1) > 0).sum(axis=1))
                np.testing.assert_allclose(evaluate(name, flat[square]),
                                           ref_values(name, flat[square]), rtol=1e-12,
                                           atol=1e-12, err_msg=f"{name} {opts}")
                continue
            got = evaluate(name, batch, **opts)
            assert got.shape == (2, B // 2)
            np.testing.assert_allclose(got.ravel(), ref_values(name, flat, **opts),
                                       rtol=1e-12, atol=1e-12, err_msg=f"{name} {opts}")


@given(K=st.integers(1, 4), Q=st.integers(1, 5), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=40, **SETTINGS)
def test_kappa_with_a_matching_batched(K, Q, seed):
    rng = np.random.default_rng(seed)
    batch = random_batch(rng, 8, K, Q, 6)
    matching = rng.integers(0, K, size=Q)
    got = evaluate("kappa", batch, matching=matching)
    np.testing.assert_allclose(got, ref_values("kappa", batch, matching=matching),
                               rtol=1e-12, atol=1e-12)


def test_pairing_totals_against_brute_force_and_lsa():
    rng = np.random.default_rng(7)
    for K, Q in [(1, 1), (1, 5), (4, 1), (3, 3), (2, 6), (5, 5), (4, 6)]:
        w = rng.integers(0, 4, size=(30, K, Q))
        brute = [max(sum(t[k, q] for k, q in zip(rows, cols))
                     for rows in itertools.permutations(range(K), min(K, Q))
                     for cols in itertools.permutations(range(Q), min(K, Q))) for t in w]
        assert best_pairing_totals(w).tolist() == [float(v) for v in brute]
        assert greedy_pairing_totals(w).tolist() == [ref_greedy(t) for t in w]
        floats = rng.random((30, K, Q))
        np.testing.assert_allclose(best_pairing_totals(floats), [ref_best(t) for t in floats],
                                   rtol=1e-13)
    cells = pairings(4, 4)
    assert cells.shape == (24, 4) and pairings(10, 10) is None
    assert all(pairings(K, Q) is None or len(pairings(K, Q)) * min(K, Q) <= ENUMERATION_CELLS
               for K in range(1, 9) for Q in range(1, 9))


def test_huge_counts_stay_exact():
    """Counts near 2^40 (pairing sums exact in int64; kappa's a_k b_q products in floats when
    n is beyond 2^31), and a table of one non-empty cell."""
    rng = np.random.default_rng(11)
    big = rng.integers(0, 2**40, size=(5, 3, 3))
    for name, opts in CASES:
        np.testing.assert_allclose(evaluate(name, big, **opts), ref_values(name, big, **opts),
                                   rtol=1e-12, atol=1e-12, err_msg=name)
    mid = rng.integers(0, 2**20, size=(5, 4, 4))  # n < 2^31: products in int64, exact
    np.testing.assert_array_equal(evaluate("kappa", mid), ref_values("kappa", mid))
    single = np.zeros((1, 3, 4), dtype=np.int64)
    single[0, 1, 2] = 9
    for name, opts in CASES:
        if name != "kappa":
            np.testing.assert_allclose(evaluate(name, single, **opts),
                                       ref_values(name, single, **opts), atol=1e-15)


def test_null_law_batch_of_a_4x4_table():
    """The 17,000 Patefield tables of a 4 x 4 table's null law, as in the benchmark."""
    from clusteragree.nulls.patefield import random_tables

    tab = np.array([[10, 5, 3, 2], [4, 12, 3, 1], [2, 3, 15, 5], [1, 2, 3, 20]])
    batch = random_tables(tab.sum(axis=1), tab.sum(axis=0), 2_000, seed=1)
    for name, opts in CASES:
        np.testing.assert_allclose(evaluate(name, batch, **opts),
                                   ref_values(name, batch, **opts), rtol=1e-12, atol=1e-12,
                                   err_msg=name)


def test_distinct_rows_is_unique_even_when_hashes_collide():
    rng = np.random.default_rng(4)
    flat = rng.integers(0, 3, size=(500, 4))
    rows, inverse = distinct_rows(flat)
    assert np.array_equal(rows[inverse], flat)
    assert len(rows) == len(np.unique(flat, axis=0))
    # two different rows with the same hash: a m0 + b m1 = (a + m1) m0 + (b - m0) m1 (mod 2^64)
    m0, m1 = np.random.default_rng(0).integers(1, 2**62, size=2) | 1
    clash = np.array([[5, 7], [5 + m1, 7 - m0], [5, 7]], dtype=np.int64)
    rows, inverse = distinct_rows(clash)
    assert len(rows) == 2 and np.array_equal(rows[inverse], clash)
