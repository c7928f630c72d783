"""The indices on the records' resampling batches: the bootstrap's draws, the jackknife's values.

The records yield the batches (``Clusterings.bootstrap_tables``, ``leave_one_out_tables``,
``bootstrap_objects``, ``leave_one_out_objects``; ``ThreeWay`` the same for its two tables):
each function here is one loop over them. For a table index the resamples are tables,
evaluated in batches like any batch of random tables, each by its own margins, its empty rows
and columns left out where the index depends on the table's shape; all the table indices of a
call share one batch. For an index of object pairs a resample is the distinct drawn objects
with their multiplicities w_i: each pair of distinct objects counts w_i w_k times, and the
copies of one object form no pair (``clusteragree.indices.evaluate_resample``).

An index not defined on some resample (kappa on a resample that lost a cluster of one
clustering only) is put in ``failed`` (a ``Refusal``: where, and the error), and the other
indices go on without it: leaving such resamples out would bias its interval.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..indices import ResampleRefused, evaluate_resample, values_on_tables
from ..inputs import resampled_pair

__all__ = ["Refusal", "BOOTSTRAP", "JACKKNIFE", "batch_values", "table_bootstrap",
           "table_jackknife", "pair_value", "pair_bootstrap", "pair_jackknife"]

#: Where an index was not defined, in the words of its reason.
BOOTSTRAP = "bootstrap resamples of the objects"
JACKKNIFE = "tables with one object left out (BCa's jackknife)"
PAIR_JACKKNIFE = "leave-one-out resamples (BCa's jackknife)"


class Refusal(NamedTuple):
    """Why an index has no interval: the resamples it was not defined on, and its error."""

    where: str
    error: Exception

    @property
    def reason(self) -> str:
        """The reason, in words (an index with no form on a resample says so itself)."""
        if isinstance(self.error, ResampleRefused):
            return str(self.error)
        return (f"it is not defined on some {self.where}, and leaving those out would bias the "
                f"interval; on one: {self.error}")


def batch_values(recs, options: dict, tables: np.ndarray, failed: dict, where: str) -> dict:
    """Several indices on a batch of tables, each table by its own margins (empty rows and
    columns handled as the null engine handles them). An index that refuses a table of the
    batch (kappa on a resample that lost a cluster of one clustering only) goes into
    ``failed`` (a ``Refusal``), and the others are evaluated without it; an index already in
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
                failed[rec.name] = Refusal(where, exc)
        return out


def table_bootstrap(recs, options: dict, clusterings, n_resamples: int, rng,
                    failed: dict) -> dict:
    """The table indices on ``n_resamples`` bootstrap resamples of the objects, the same
    resampled tables for every index (``clusterings.bootstrap_tables``: drawn once, in chunks
    of bounded memory): name -> values, nan where the index is not defined (in ``failed``)."""
    out = {r.name: np.full(n_resamples, np.nan) for r in recs}
    start = 0
    for tables in clusterings.bootstrap_tables(n_resamples, rng):
        stop = start + len(tables)
        for name, values in batch_values(recs, options, tables, failed, BOOTSTRAP).items():
            out[name][start:stop] = values
        start = stop
    return out


def table_jackknife(recs, options: dict, batches, failed: dict | None = None) -> dict:
    """The leave-one-object-out values of table indices: name -> (values, weights), one value
    per non-empty cell (its count less one) weighted by the cell's count, from the record's
    ``leave_one_out_tables`` batches; an index not defined on one of those tables goes into
    ``failed`` and has none."""
    failed = {} if failed is None else failed
    values, weights = {r.name: [] for r in recs}, []
    for tables, counts in batches:
        weights.append(counts)
        for name, v in batch_values(recs, options, tables, failed, JACKKNIFE).items():
            values[name].append(v)
    weights = np.concatenate(weights).astype(float)
    return {name: (np.concatenate(v), weights) for name, v in values.items()
            if name not in failed}


def pair_value(rec, pair, options: dict, idx) -> float:
    """An index of object pairs on the objects ``idx``: the distinct objects drawn, each
    weighted by how often it was drawn; the copies of one object form no pair
    (``resampled_pair``, ``evaluate_resample``)."""
    drawn, counts = resampled_pair(pair, idx)
    return evaluate_resample(rec, drawn, options, counts)


def pair_bootstrap(rec, options: dict, clusterings, pair, n_resamples: int, rng,
                   failed: dict) -> np.ndarray:
    """The index on ``n_resamples`` resamples of the objects (``clusterings.bootstrap_objects``);
    an index not defined on one goes into ``failed`` (and the rest are not drawn)."""
    out = np.full(n_resamples, np.nan)
    for b, idx in enumerate(clusterings.bootstrap_objects(n_resamples, rng)):
        try:
            out[b] = pair_value(rec, pair, options, idx)
        except ValueError as exc:
            failed[rec.name] = Refusal(BOOTSTRAP, exc)
            break
    return out


def pair_jackknife(rec, options: dict, clusterings, pair, failed: dict):
    """The leave-one-object-out values and weights (all 1) of an index of object pairs
    (``clusterings.leave_one_out_objects``), or None (the refusal in ``failed``)."""
    values = []
    for idx in clusterings.leave_one_out_objects():
        try:
            values.append(pair_value(rec, pair, options, idx))
        except ValueError as exc:
            failed[rec.name] = Refusal(PAIR_JACKKNIFE, exc)
            return None
    return np.array(values), np.ones(len(values))
