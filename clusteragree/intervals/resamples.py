"""The indices on resamples of the objects: the bootstrap's draws and the jackknife's values.

For a table index the objects' resamples are tables (a multinomial draw of the cells; one
count out of a cell), evaluated in batches like any batch of random tables, each by its own
margins, its empty rows and columns left out where the index depends on the table's shape.
For an index of object pairs a resample is the distinct drawn objects with their
multiplicities w_i: each pair of distinct objects counts w_i w_k times, and the copies of one
object form no pair (``clusteragree.indices.evaluate_resample``).

An index not defined on some resample (kappa on a resample that lost a cluster of one
clustering only) is put in ``failed`` with the reason, and the other indices go on without
it: leaving such resamples out would bias its interval.
"""

from __future__ import annotations

import numpy as np

from ..indices import ResampleRefused, evaluate_resample, values_on_tables
from .spec import CHUNK_CELLS

__all__ = ["not_defined", "batch_values", "table_bootstrap", "table_jackknife",
           "take_objects_of", "pair_value", "pair_bootstrap", "pair_jackknife"]


# -- tables: the multinomial bootstrap -------------------------------------------------------

def not_defined(exc: Exception, where: str) -> str:
    """The reason an index has no interval: it refused some of the tables it was given."""
    return (f"it is not defined on some {where}, and leaving those out would bias the "
            f"interval; on one: {exc}")


def batch_values(recs, options: dict, tables: np.ndarray, failed: dict, where: str) -> dict:
    """Several indices on a batch of tables, each table by its own margins (empty rows and
    columns handled as the null engine handles them). An index that refuses a table of the
    batch (kappa on a resample that lost a cluster of one clustering only) goes into
    ``failed`` with its reason, and the others are evaluated without it; an index already in
    ``failed`` is not evaluated again."""
    live = [r for r in recs if r.name not in failed]
    try:
        return values_on_tables(live, {r.name: options[r.name] for r in live}, tables)
    except ValueError:  # find the indices that refuse, and keep the others
        out = {}
        for rec in live:
            try:
                out.update(values_on_tables([rec], {rec.name: options[rec.name]}, tables))
            except ValueError as exc:
                failed[rec.name] = not_defined(exc, where)
        return out


def table_bootstrap(recs, options, counts, n_resamples, rng, failed=None) -> dict:
    """The indices on ``n_resamples`` multinomial resamples of the table ``counts``, the
    same resampled tables for every index (drawn once, in chunks of bounded memory); an
    index not defined on a resample goes into ``failed`` with its reason."""
    failed = {} if failed is None else failed
    n = int(counts.sum())
    p = (counts / n).ravel()
    chunk = max(1, min(n_resamples, CHUNK_CELLS // p.size))
    out = {r.name: np.full(n_resamples, np.nan) for r in recs}
    for start in range(0, n_resamples, chunk):
        stop = min(n_resamples, start + chunk)
        tables = rng.multinomial(n, p, size=stop - start).reshape(-1, *counts.shape)
        for name, values in batch_values(recs, options, tables, failed,
                                          "bootstrap resamples of the objects").items():
            out[name][start:stop] = values
    return out


def table_jackknife(recs, options, counts, failed=None) -> dict:
    """The leave-one-object-out values of table indices: name -> (values, weights), one
    value per non-empty cell (its count less one), weighted by the cell's count; an index
    not defined on a leave-one-out table goes into ``failed`` with its reason."""
    failed = {} if failed is None else failed
    rows, cols = np.nonzero(counts)
    tables = np.repeat(counts[None], len(rows), axis=0)
    tables[np.arange(len(rows)), rows, cols] -= 1
    weights = counts[rows, cols].astype(float)
    values = batch_values(recs, options, tables, failed,
                           "tables with one object left out (BCa's jackknife)")
    return {name: (v, weights) for name, v in values.items()}


# -- objects: indices of object pairs ---------------------------------------------------------

def take_objects_of(M, fmt, idx):
    """A clustering's objects ``idx`` (rows; rows and columns of a similarity matrix). A
    cluster none of whose objects was drawn is no cluster of the resample, and is left out,
    as a resampled table leaves out its empty rows and columns (the entry refuses empty
    clusters, so no index need define its value on one); a resample that holds no cluster
    at all (only objects in none: a cover) is one on which the index is not defined."""
    if fmt == "matrix":
        return M[np.ix_(idx, idx)]
    sub = M[idx]
    drawn = sub.any(axis=0)
    if drawn.all():
        return sub
    if not drawn.any():
        raise ValueError("a resample drew only objects that are in no cluster of one "
                         "clustering, which then has no cluster")
    return sub[:, drawn]


def pair_value(rec, pair, options, idx) -> float:
    """The index on the objects ``idx``: the distinct objects drawn, each weighted by how
    often it was drawn; the copies of one object form no pair (``evaluate_resample``)."""
    objects, counts = np.unique(idx, return_counts=True)
    X, fx, Y, fy = pair
    return evaluate_resample(rec, (take_objects_of(X, fx, objects), fx,
                                   take_objects_of(Y, fy, objects), fy),
                             options, counts)


def pair_bootstrap(rec, options, pair, n, n_resamples, rng, failed) -> np.ndarray:
    """The index on ``n_resamples`` resamples of the objects; an index not defined on one
    goes into ``failed`` with its reason (and the rest are not drawn)."""
    out = np.full(n_resamples, np.nan)
    for b in range(n_resamples):
        try:
            out[b] = pair_value(rec, pair, options, rng.integers(0, n, n))
        except ResampleRefused as exc:
            failed[rec.name] = str(exc)
            break
        except ValueError as exc:
            failed[rec.name] = not_defined(exc, "bootstrap resamples of the objects")
            break
    return out


def pair_jackknife(rec, options, pair, n, failed):
    """The leave-one-object-out values of an index of object pairs, or None (the reason in
    ``failed``)."""
    everyone = np.arange(n)
    try:
        values = np.array([pair_value(rec, pair, options, np.delete(everyone, i))
                           for i in range(n)])
    except ValueError as exc:
        failed[rec.name] = not_defined(exc, "leave-one-out resamples (BCa's jackknife)")
        return None
    return values, np.ones(n)
