"""The interval of an index of a table of weight sums (``sample_weight`` not whole numbers): the
objects resampled with their weights.

Each bootstrap resample draws n objects with replacement, as for unweighted objects, and its
table sums the weights of the objects drawn (the weighted bootstrap of a weighted statistic);
the jackknife leaves each object out in turn (objects in the same cell with the same weight
give the same table, so each such group is evaluated once and weighted by its size). The
draws go to the interval methods every other interval uses (``Draws``): BCa by
default ("auto"), percentile, or the jackknife t interval.
"""

from __future__ import annotations

import numpy as np

from ..indices import Index, evaluate_weighted
from ..inputs.objects import WeightedTable
from ._methods import Draws, get_interval_method
from .result import ConfidenceInterval
from .spec import IntervalSpec

__all__ = ["weighted_interval", "CHUNK_OBJECTS"]

#: The most (resample, object) draws made at once.
CHUNK_OBJECTS = 2**22


def _bootstrap(table: WeightedTable, rec: Index, options: dict, n_resamples: int,
               rng: np.random.Generator) -> np.ndarray:
    """The index on ``n_resamples`` weighted bootstrap tables."""
    n = len(table.object_weights)
    out = np.empty(n_resamples)
    chunk = max(1, CHUNK_OBJECTS // n)
    for start in range(0, n_resamples, chunk):
        b = min(chunk, n_resamples - start)
        draws = rng.multinomial(n, np.full(n, 1.0 / n), size=b)  # times each object is drawn
        tables = table.tables_of(draws * table.object_weights)
        out[start:start + b] = evaluate_weighted(rec, tables, options)
    return out


def _jackknife(table: WeightedTable, rec: Index, options: dict):
    """The index with each object left out, one value per (cell, weight) group, weighted by
    the group's size."""
    keys, sizes = np.unique(np.stack([table.object_cells.astype(float),
                                      table.object_weights]), axis=1, return_counts=True)
    counts = table.counts.ravel()
    tables = np.repeat(counts[None, :], keys.shape[1], axis=0)
    tables[np.arange(keys.shape[1]), keys[0].astype(np.int64)] -= keys[1]
    tables = np.clip(tables, 0.0, None).reshape(-1, *table.shape)  # rounding below zero
    return evaluate_weighted(rec, tables, options), sizes.astype(float)


def weighted_interval(table: WeightedTable, rec: Index, options: dict, spec: IntervalSpec,
                      seed=None) -> ConfidenceInterval:
    """The interval of a table index on a table of weight sums.

    Parameters
    ----------
    table : WeightedTable
        The weighted table, with each object's cell and weight.
    rec : Index
        The index (one that is defined on real counts: ``evaluate_weighted`` refuses others).
    options : dict
        Its checked options.
    spec : IntervalSpec
        Method ("auto" is "BCa"), level, resamples, seed.
    seed : optional
        The call's seed, when the spec has none.

    Returns
    -------
    ConfidenceInterval
        With ``resampling="objects"``.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> x = rng.integers(0, 3, 200); y = np.where(rng.random(200) < 0.8, x, rng.integers(0, 3, 200))
    >>> ci = ca.confidence_interval(x, y, sample_weight=rng.uniform(0.5, 2, 200), seed=1)
    >>> ci.method, ci.resampling, bool(ci.low < ci.statistic < ci.high)
    ('BCa', 'objects', True)
    """
    statistic = float(evaluate_weighted(rec, table.counts, options))
    method = "BCa" if spec.method == "auto" else spec.method
    if len(table.object_weights) < 3:
        raise ValueError(f"a weighted interval of {rec.name!r} resamples the objects: it needs "
                         f"at least 3 objects of positive weight, got "
                         f"{len(table.object_weights)}")
    boot = jack = None
    if method in ("BCa", "percentile"):
        boot = _bootstrap(table, rec, options, spec.n_resamples, spec.generator(seed))
    if method != "percentile":
        jack = _jackknife(table, rec, options)
    return get_interval_method(method).make(
        Draws(rec, statistic, spec.confidence_level, "objects", options, None, boot, jack, None))
