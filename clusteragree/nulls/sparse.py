"""Null laws of a sparse contingency table: partitions of many objects into many clusters.

A sparse table (``clusteragree.SparseContingencyTable``, K x Q clusters with K Q far above n)
has no room for the random tables of Patefield's sampler (K Q cells each) or for an exact law,
but every index it is given is a function of s = sum n_ij^2 or t = sum n_ij log n_ij and the
margins, so two methods serve it under the permutation model (both margins fixed):

* ``method="hypergeometric"``: the closed-form mean and variance of s or t from the margins
  alone (``clusteragree.nulls.hypergeometric``; nothing here);
* ``method="permutation"``: Monte Carlo by permuting y's labels against x's, O(n log n) per
  draw and O(n) memory, whatever K Q: the permuted objects' cells are found by one sort of the
  keys x * Q + y, and the runs of equal keys are the non-zero cells of the random table, from
  which s and t follow. The law of the random table is the permutation model's (Patefield's
  sampler draws the same law cell by cell).

``method="auto"`` (and the default, when no method is named) takes the exact law or Patefield's
sampler when the table is dense, else the permutation draws when their estimated time is within
``max_seconds``, else the closed-form moments; the result says which (``details["auto"]``).
"""

from __future__ import annotations

import numpy as np

from ..indices import STATISTICS

__all__ = ["permuted_cell_counts", "sparse_permutation_law",
           "check_sparse_permutation", "permutation_seconds", "SECONDS_PER_OBJECT_DRAW"]

#: Seconds per object and draw of a label permutation (measured on a 2-core machine: about
#: 40 ms per draw at n = 10**6 with 10**4 x 10**4 clusters), for ``method="auto"``'s estimate.
SECONDS_PER_OBJECT_DRAW = 5e-8


def permutation_seconds(n: int, n_sim: int) -> float:
    """The estimated time of ``n_sim`` label permutations of ``n`` objects."""
    return SECONDS_PER_OBJECT_DRAW * n * n_sim


def permuted_cell_counts(rows, cols, rng, keys=None) -> np.ndarray:
    """The non-zero cells of one random table of the permutation model, in no particular order.

    Parameters
    ----------
    rows, cols : ndarray of int64
        The margins (cluster sizes of x and of y), each summing to n.
    rng : numpy.random.Generator
        The random generator.
    keys : ndarray of int64, optional
        A buffer of n keys to reuse from draw to draw.

    Returns
    -------
    ndarray of int64
        The counts of the random table's non-zero cells (they sum to n).

    Examples
    --------
    >>> cells = permuted_cell_counts(np.array([2, 3]), np.array([4, 1]),
    ...                              np.random.default_rng(0))
    >>> int(cells.sum()), bool((cells > 0).all())
    (5, True)
    """
    n = int(rows.sum())
    x = np.repeat(np.arange(rows.size, dtype=np.int64), rows)
    y = np.repeat(np.arange(cols.size, dtype=np.int64), cols)
    keys = np.empty(n, dtype=np.int64) if keys is None else keys
    return _cells_of_draw(x, y, cols.size, rng, keys)


def _cells_of_draw(x, y, Q, rng, keys):
    np.multiply(x, Q, out=keys)
    keys += rng.permutation(y)
    keys.sort()
    ends = np.flatnonzero(keys[1:] != keys[:-1])
    return np.diff(np.concatenate(([-1], ends, [keys.size - 1])))


def sparse_statistics(rows, cols, statistics, n_sim: int, rng, progress: bool = False) -> dict:
    """s and/or t of ``n_sim`` random tables of the permutation model, drawn by permuting
    labels: {statistic: ndarray of n_sim values}."""
    x = np.repeat(np.arange(rows.size, dtype=np.int64), rows)
    y = np.repeat(np.arange(cols.size, dtype=np.int64), cols)
    keys = np.empty(x.size, dtype=np.int64)
    draws = range(n_sim)
    if progress:
        from tqdm.auto import tqdm

        draws = tqdm(draws, desc="label permutations", unit="draw")
    values = {stat: [] for stat in statistics}
    for _ in draws:
        cells = _cells_of_draw(x, y, cols.size, rng, keys)[None, None, :]
        for stat in statistics:
            values[stat].append(STATISTICS[stat](cells)[0])
    return {stat: np.asarray(v) for stat, v in values.items()}


def check_sparse_permutation(req) -> None:
    """Refuse, before any work, an index that is not a function of s or t (it needs the dense
    table of each draw), and, under ``method="auto"``, draws whose estimated time exceeds the
    spec's ``max_seconds`` (the closed-form moments are then taken)."""
    dense_only = [rec.name for rec in req.indices if rec.statistic is None]
    if dense_only:
        K, Q = req.table.shape
        raise ValueError(
            f"index(es) {dense_only} need the dense table of each random draw, and this sparse "
            f"table has {K:,} x {Q:,} cells; on a sparse table the permutation draws give the "
            "indices of sum n_ij^2 or sum n_ij log n_ij (pair counting, information)")
    if req.auto:
        seconds = permutation_seconds(req.clusterings.n, req.n_sim)
        if seconds > req.spec.max_seconds:
            raise ValueError(
                f"{req.n_sim:,} label permutations of n = {req.clusterings.n:,} objects would "
                f"take about {seconds:,.0f} s, over max_seconds={req.spec.max_seconds:g}")


def sparse_permutation_law(req) -> dict:
    """The Monte Carlo laws of a checked request on a sparse table (``method="permutation"``)."""
    rows, cols = (np.asarray(m, dtype=np.int64) for m in req.margins)
    stats = sorted({rec.statistic for rec in req.indices})
    values = sparse_statistics(rows, cols, stats, req.n_sim, req.rng, req.spec.progress)
    details = {"exhaustive": False, "sparse": True}
    return {rec.name: req.null_of(
        rec, samples=np.asarray(rec.of_statistic(values[rec.statistic], rows, cols,
                                                 **req.options[rec.name]), dtype=float),
        details=details) for rec in req.indices}
