"""What a null method receives (``NullRequest``), and the Monte Carlo laws of its indices from a
stream of random tables (each batch evaluated by ``clusteragree.indices.values_on_tables``).

A request is built and checked by ``clusteragree.nulls.engine`` before any work: the indices
with their options, the clusterings (one ``Clusterings`` record), the model and method records,
the Monte Carlo size and the random generator. A method's ``law(request)`` only computes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from .. import _memory
from ..indices import Index, values_on_tables
from ..inputs import Clusterings
from ._methods import Model, NullMethod
from .distribution import NullDistribution

if TYPE_CHECKING:  # the spec imports the methods, which import this module
    from .spec import NullSpec

__all__ = ["NullRequest", "stream_values", "sampled_laws", "check_memory"]


@dataclass
class NullRequest:
    """Everything a null method needs, checked: see ``clusteragree.nulls.engine.plan``."""

    indices: tuple[Index, ...]
    options: dict  # index name -> its options, defaults filled in
    clusterings: Clusterings
    model: Model
    method: NullMethod
    spec: NullSpec | None = None  # the method's settings, as given (``plan`` sets it)
    n_sim: int | None = None  # the spec's n_sim, or the method's default (Monte Carlo only)
    rng: np.random.Generator | None = None  # made once from spec.seed
    auto: bool = False  # the method was chosen by method="auto"
    observed: dict = field(default_factory=dict)  # table indices on the observed table
    not_defined: dict = field(default_factory=dict)  # group members left out, with the reason

    @property
    def table(self):
        """The ContingencyTable (table methods only)."""
        return self.clusterings.table

    @property
    def margins(self):
        tab = self.clusterings.table
        return tab.row_sums, tab.col_sums

    def null_of(self, rec: Index, *, details=None, **law) -> NullDistribution:
        """A NullDistribution of ``rec`` from this request: the law (values and probabilities,
        samples, or moments) with the model and method records, the index options and what
        the method reports in ``details``."""
        info = {"n": self.clusterings.n}
        if self.table is not None:
            info["shape"] = self.table.shape
        if self.method.monte_carlo:
            info["seed"] = self.spec.seed
        if self.auto:
            info["auto"] = True
        info.update(details or {})
        return NullDistribution(rec, self.method, model=self.model,
                                options=self.options[rec.name], details=info, **law)


def sampled_laws(req: NullRequest, batches, margins=None, details=None) -> dict:
    """The Monte Carlo laws of a request's indices from a stream of table batches
    ``(start, stop, tables)``: each batch is evaluated and dropped, only the values kept."""
    values = stream_values(req.indices, req.options, batches, req.n_sim, margins)
    return {rec.name: req.null_of(rec, samples=values[rec.name], details=details)
            for rec in req.indices}


def stream_values(indices, options, batches, n_sim: int, margins=None) -> dict:
    """Index values of a stream of table batches ``(start, stop, tables)``: each batch is
    evaluated and dropped, so memory holds the values and one batch, whatever ``n_sim``."""
    out = {rec.name: np.empty(n_sim) for rec in indices}
    for start, stop, tables in batches:
        for name, v in values_on_tables(indices, options, tables, margins).items():
            out[name][start:stop] = v
    return out


#: Each Monte Carlo value may be held twice (the draws and their sorted copy, when they take
#: many distinct values), 8 bytes each.
BYTES_PER_VALUE = 16


def check_memory(n_sim: int, n_indices: int, n_objects: int = 0,
                 bytes_per_object: int = 0) -> None:
    """Refuse, before any work, a Monte Carlo law whose values, or whose draws of the objects'
    labels (``bytes_per_object`` each), cannot fit in memory."""
    avail = _memory.available_memory()
    if avail is None:  # pragma: no cover - other systems
        return
    need = BYTES_PER_VALUE * n_sim * n_indices
    if need > _memory.USABLE_SHARE * avail:
        raise MemoryError(
            f"n_sim={n_sim:,} draws of {n_indices} index(es) need {need / 2**30:.1f} GiB for "
            f"their values alone, and {avail / 2**30:.1f} GiB are available; use a smaller "
            "n_sim (ca.nulls.n_sim_for gives the size a p-value's precision needs)")
    per_draw = bytes_per_object * n_objects
    if per_draw > _memory.USABLE_SHARE * avail:
        raise MemoryError(
            f"each draw relabels the n = {n_objects:,} objects, which needs about "
            f"{per_draw / 2**30:.1f} GiB, and {avail / 2**30:.1f} GiB are available; under "
            "model='perm', method='patefield' draws tables instead (up to n = 10**8) and "
            "method='hypergeometric' gives the closed-form moments")
