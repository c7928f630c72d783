"""The input records yield their resampling batches (issue 42, item 3): ``Clusterings`` and
``ThreeWay`` give the jackknife's tables (with their weights) or objects, and the bootstrap's
tables (chunks of bounded memory) or objects, and the intervals and the paired difference test
each loop over them. Each batch is checked here against the loop it replaced, copied as it was
(``intervals/engine.py`` and ``inference/difference.py`` before the records yielded them): the
same tables, the same weights and the same random stream, whatever the chunk size."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

import clusteragree as ca
from clusteragree.inputs import CHUNK_CELLS, as_clusterings, resampled_pair
from clusteragree.inputs.triples import ThreeWay, as_three_way

TABLE = np.array([[7, 0, 2, 1], [1, 5, 0, 3], [0, 2, 6, 1]])


def _three_way(seed=5, n=60):
    rng = np.random.default_rng(seed)
    r = rng.integers(0, 3, n)
    a = np.where(rng.random(n) < 0.7, r, rng.integers(0, 3, n))
    b = np.where(rng.random(n) < 0.4, r, rng.integers(0, 4, n))
    return as_three_way(r, a, b)


# -- the loops as they were --------------------------------------------------------------------

def old_table_jackknife(counts):
    """``intervals.engine._table_jackknife``'s tables and weights (one batch)."""
    rows, cols = np.nonzero(counts)
    tables = np.repeat(counts[None], len(rows), axis=0)
    tables[np.arange(len(rows)), rows, cols] -= 1
    return tables, counts[rows, cols].astype(float)


def old_table_resamples(counts, n_resamples, rng):
    """``intervals.engine._table_resamples``'s resampled tables."""
    n = int(counts.sum())
    p = (counts / n).ravel()
    chunk = max(1, min(n_resamples, CHUNK_CELLS // p.size))
    out = []
    for start in range(0, n_resamples, chunk):
        stop = min(n_resamples, start + chunk)
        out.append(rng.multinomial(n, p, size=stop - start).reshape(-1, *counts.shape))
    return np.concatenate(out)


def old_leave_one_out(table):
    """``inference.difference._leave_one_out``'s tables, in its chunks (the cell of each)."""
    rows, cols = np.nonzero(table)
    chunk = max(1, CHUNK_CELLS // table.size)
    out = []
    for start in range(0, rows.size, chunk):
        r, c = rows[start:start + chunk], cols[start:start + chunk]
        tables = np.repeat(table[None], r.size, axis=0)
        tables[np.arange(r.size), r, c] -= 1
        out.append(tables)
    return np.concatenate(out)


def old_leave_two_out(table):
    """``inference.difference._leave_two_out``'s pairs of cells and tables."""
    rows, cols = np.nonzero(table)
    p, q = np.triu_indices(rows.size)
    ok = (p != q) | (table[rows, cols][p] >= 2)
    p, q = p[ok], q[ok]
    tables = np.repeat(table[None], p.size, axis=0)
    at = np.arange(p.size)
    np.subtract.at(tables, (at, rows[p], cols[p]), 1)
    np.subtract.at(tables, (at, rows[q], cols[q]), 1)
    return p, q, tables


def old_difference_bootstrap(tw, n_resamples, rng):
    """``inference.difference._bootstrap``'s two batches of 2-way tables."""
    K, Qa, Qb = tw.shape
    m = tw.weights.size
    ones = np.ones(m, dtype=np.int64)
    into = [sparse.csr_matrix((ones, (np.arange(m), tw.cells[:, 0] * Q + tw.cells[:, ax])),
                              shape=(m, K * Q)) for ax, Q in ((1, Qa), (2, Qb))]
    p = tw.weights / tw.n
    chunk = max(1, CHUNK_CELLS // max(m, K * Qa, K * Qb))
    a, b = [], []
    for start in range(0, n_resamples, chunk):
        stop = min(n_resamples, start + chunk)
        draws = rng.multinomial(tw.n, p, size=stop - start)
        for M, Q, out in zip(into, (Qa, Qb), (a, b)):
            out.append(np.asarray((M.T @ draws.T).T, dtype=np.int64).reshape(-1, K, Q))
    return np.concatenate(a), np.concatenate(b)


def old_take(M, fmt, idx):
    """``intervals.engine._take``."""
    if fmt == "matrix":
        return M[np.ix_(idx, idx)]
    sub = M[idx]
    drawn = sub.any(axis=0)
    return sub if drawn.all() else sub[:, drawn]


def old_without(M, fmt, o):
    """``inference.difference._without``: the objects less object o."""
    if fmt == "matrix":
        return np.delete(np.delete(M, o, axis=0), o, axis=1)
    sub = np.delete(M, o, axis=0)
    kept = sub.any(axis=0)
    return sub if kept.all() else sub[:, kept]


# -- Clusterings -------------------------------------------------------------------------------

@pytest.mark.parametrize("chunk_cells", [CHUNK_CELLS, 12, 30, 1])
def test_the_table_jackknife_batches_are_the_old_tables_and_weights(chunk_cells):
    clus = as_clusterings(TABLE)
    batches = list(clus.leave_one_out_tables(chunk_cells))
    tables = np.concatenate([t for t, _ in batches])
    weights = np.concatenate([w for _, w in batches])
    old_tables, old_weights = old_table_jackknife(TABLE)
    np.testing.assert_array_equal(tables, old_tables)
    np.testing.assert_array_equal(weights, old_weights)
    assert all(t.size <= max(chunk_cells, TABLE.size) for t, _ in batches)
    if chunk_cells == CHUNK_CELLS:
        assert len(batches) == 1


@pytest.mark.parametrize("n_resamples, chunk_cells", [(999, CHUNK_CELLS), (50, 24), (7, 1)])
def test_the_table_bootstrap_batches_are_the_old_draws(n_resamples, chunk_cells):
    clus = as_clusterings(TABLE)
    got = list(clus.bootstrap_tables(n_resamples, np.random.default_rng(3), chunk_cells))
    assert sum(len(t) for t in got) == n_resamples
    assert all(t.size <= max(chunk_cells, TABLE.size) for t in got)
    if chunk_cells == CHUNK_CELLS:  # the chunks the intervals drew: the very same stream
        np.testing.assert_array_equal(np.concatenate(got), old_table_resamples(
            TABLE, n_resamples, np.random.default_rng(3)))


def test_the_bootstrap_tables_are_drawn_when_asked_for():
    clus = as_clusterings(TABLE)
    rng = np.random.default_rng(4)
    batches = clus.bootstrap_tables(10, rng, chunk_cells=TABLE.size * 4)
    state = rng.bit_generator.state
    first = next(batches)
    assert first.shape == (4, 3, 4) and rng.bit_generator.state != state
    state = rng.bit_generator.state
    del batches  # the rest was never drawn
    assert rng.bit_generator.state == state


def test_the_object_batches_are_the_old_ones():
    U = np.random.default_rng(1).dirichlet(np.ones(3), 9)
    clus = as_clusterings(U, U.argmax(axis=1), table=False, pairs=["ndc"])
    for i, idx in enumerate(clus.leave_one_out_objects()):
        np.testing.assert_array_equal(idx, np.delete(np.arange(9), i))
    rng, again = np.random.default_rng(2), np.random.default_rng(2)
    for idx in clus.bootstrap_objects(5, rng):
        np.testing.assert_array_equal(idx, again.integers(0, 9, 9))


@pytest.mark.parametrize("fmt", ["membership", "matrix"])
def test_a_resampled_pair_is_the_old_take(fmt):
    rng = np.random.default_rng(6)
    U = rng.dirichlet(np.ones(3), 8)
    U[:, 2] = np.where(np.arange(8) < 2, U[:, 2], 0.0)  # cluster 2 only in objects 0 and 1
    M = U @ U.T if fmt == "matrix" else U
    idx = np.array([3, 3, 5, 7, 4, 4, 4, 6])
    (X, fx, Y, fy), counts = resampled_pair((M, fmt, M, fmt), idx)
    objects, old_counts = np.unique(idx, return_counts=True)
    np.testing.assert_array_equal(X, old_take(M, fmt, objects))
    np.testing.assert_array_equal(counts, old_counts)
    assert (fx, fy) == (fmt, fmt)
    if fmt == "membership":
        assert X.shape[1] == 2  # the cluster none of whose objects was drawn is left out
    for o in range(8):  # and leaving one out is the difference test's old deletion
        (X, _, _, _), _ = resampled_pair((M, fmt, M, fmt), np.delete(np.arange(8), o))
        np.testing.assert_array_equal(X, old_without(M, fmt, o))


# -- ThreeWay ----------------------------------------------------------------------------------

@pytest.mark.parametrize("which", ["a", "b"])
@pytest.mark.parametrize("chunk_cells", [CHUNK_CELLS, 25])
def test_the_three_way_jackknife_batches_are_the_old_tables(which, chunk_cells):
    tw = _three_way()
    table = tw.table_a if which == "a" else tw.table_b
    batches = list(tw.leave_one_out_tables(which, chunk_cells))
    np.testing.assert_array_equal(np.concatenate([t for t, _ in batches]),
                                  old_leave_one_out(table))
    rows, cols = np.nonzero(table)
    np.testing.assert_array_equal(np.concatenate([w for _, w in batches]), table[rows, cols])
    # each 3-way cell's 2-way cell: the old loo[i, j] is the new loo[two_way_cells]
    cells = tw.two_way_cells(which)
    i, j = tw.cells[:, 0], tw.cells[:, 1 if which == "a" else 2]
    np.testing.assert_array_equal(rows[cells], i)
    np.testing.assert_array_equal(cols[cells], j)


@pytest.mark.parametrize("which", ["a", "b"])
def test_the_three_way_leave_two_out_batches_are_the_old_tables(which):
    tw = _three_way(n=25)
    table = tw.table_a if which == "a" else tw.table_b
    batches = list(tw.leave_two_out_tables(which, chunk_cells=5 * table.size))
    assert len(batches) > 1
    p, q, tables = old_leave_two_out(table)
    np.testing.assert_array_equal(np.concatenate([u for u, _, _ in batches]), p)
    np.testing.assert_array_equal(np.concatenate([v for _, v, _ in batches]), q)
    np.testing.assert_array_equal(np.concatenate([t for _, _, t in batches]), tables)


@pytest.mark.parametrize("n_resamples", [999, 3])
def test_the_three_way_bootstrap_batches_are_the_old_draws(n_resamples):
    tw = _three_way()
    got = list(tw.bootstrap_tables(n_resamples, np.random.default_rng(8)))
    old_a, old_b = old_difference_bootstrap(tw, n_resamples, np.random.default_rng(8))
    np.testing.assert_array_equal(np.concatenate([a for a, _ in got]), old_a)
    np.testing.assert_array_equal(np.concatenate([b for _, b in got]), old_b)
    # every resample's two tables have the reference's margins in common
    np.testing.assert_array_equal(old_a.sum(axis=2), old_b.sum(axis=2))


@pytest.mark.filterwarnings("ignore:near independence")
def test_small_chunks_keep_the_difference_test_as_it_was(monkeypatch):
    """The chunk size changes the memory only: the jackknife, its correction and the
    bootstrap give the same difference test with chunks of one table."""
    tw = _three_way(n=40)
    args = (tw, None, None)

    def test(method):
        return ca.difference_test(*args, index="adjusted_rand", method=method, seed=2,
                                  interval={"n_resamples": 199} if method == "bootstrap"
                                  else 0.95)

    big = {m: test(m) for m in ("corrected", "bootstrap")}
    chunks = []
    for name in ("leave_one_out_tables", "leave_two_out_tables", "bootstrap_tables"):
        def small(self, *args, whole=getattr(ThreeWay, name)):
            for batch in whole(self, *args, chunk_cells=1):
                chunks.append(batch)
                yield batch
        monkeypatch.setattr(ThreeWay, name, small)
    for method, res in big.items():
        again = test(method)
        assert (again.standard_error, again.low, again.high, again.pvalue) == pytest.approx(
            (res.standard_error, res.low, res.high, res.pvalue), rel=1e-12)
    assert len(chunks) > 199  # one table (or one resample) a chunk
