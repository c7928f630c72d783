"""The null method "exact" under the permutation model: the exact law over all tables with the
observed margins, by the dynamic programme on s or t (``network``) for the pair-counting and
information indices, and by enumeration of every table (``enumeration``) for the others.

Both are refused before any work when too large: the programme's size is estimated from the
margins (``max_work``), the tables are counted (``max_tables``). The public functions of the two
modules are importable from here too (``clusteragree.nulls.exact.statistic_law``).
"""

from __future__ import annotations

from ._methods import NullMethod, register_method
from ..indices import values_on_tables
from .enumeration import check_table_count, count_tables, enumerate_tables
from .network import (DP_CHUNK_ENTRIES, DP_ESTIMATE_SLACK, check_dp_size, estimate_dp_work,
                      statistic_law)
from .spec import DEFAULT_MAX_TABLES, DEFAULT_MAX_WORK

__all__ = ["count_tables", "enumerate_tables", "statistic_law", "estimate_dp_work",
           "check_dp_size", "DP_CHUNK_ENTRIES", "DP_ESTIMATE_SLACK", "DEFAULT_MAX_TABLES",
           "DEFAULT_MAX_WORK"]


def _check_exact(req):
    """Refuse before any work a law that is too large (the dynamic programme's size estimated
    from the margins; tables counted up to max_tables)."""
    rows, cols = req.margins
    stats = sorted({rec.statistic for rec in req.indices if rec.statistic is not None})
    for statistic in stats:
        check_dp_size(rows, cols, statistic, req.spec.max_work, strict=req.auto)
    if any(rec.statistic is None for rec in req.indices):
        check_table_count(rows, cols, req.spec.max_tables)


def _exact_law(req):
    rows, cols = req.margins
    laws, tables, out = {}, None, {}
    table_recs = [rec for rec in req.indices if rec.statistic is None]
    if table_recs:
        tables = enumerate_tables(rows, cols, max_tables=req.spec.max_tables)
        enum_values = values_on_tables(table_recs, req.options, tables[0], (rows, cols))
    for rec in req.indices:
        opts = req.options[rec.name]
        if rec.statistic is not None:
            if rec.statistic not in laws:
                laws[rec.statistic] = statistic_law(rows, cols, rec.statistic, req.spec.max_work)
            values, probs = laws[rec.statistic]
            index_values = rec.of_statistic(values, rows, cols, **opts)
            how = f"dynamic programme on {rec.statistic}"
        else:
            index_values, probs = enum_values[rec.name], tables[1]
            how = f"enumeration of {len(probs):,} tables"
        out[rec.name] = req.null_of(rec, values=index_values, probabilities=probs,
                                    details={"algorithm": how})
    return out


register_method(NullMethod(
    name="exact", model="perm", title="Exact agreement test",
    description="the exact law over all tables with the observed margins",
    law=_exact_law, check=_check_exact,
    describe=lambda nd: nd.details.get("algorithm", "exact law")))
