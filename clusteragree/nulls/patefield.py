"""Random tables with fixed margins (Patefield 1981, algorithm AS 159), in batches.

The thesis' IADJUST (Amorim 2015, "On clustering stability", PhD thesis, ISCTE - University
Institute of Lisbon) draws 17,000 such tables. We use scipy's implementation,
``scipy.stats.random_table(...).rvs(method="patefield")``, drawn in memory-bounded batches from
one ``numpy.random.Generator``, with two guards around it:

* Degenerate margins. With a single non-empty row or column there is exactly one table, and
  scipy (1.17) returns tables with negative cells for it ([7] x [2, 5] gives [[2, -2]]); so
  that table is returned directly, and rows or columns with a zero margin are set aside and put
  back as zeros (scipy mishandles them the same way).
* Every batch is checked before it is returned (no negative cell, and the margins that the
  algorithm does not hold by construction): a sampler that breaks its margins is a bug, never
  a null law.
* Large tables are refused, before any work, above n = 10**8 objects (``MAX_N``). The
  sampler computes each cell's probability from sums of log-factorials in double precision,
  whose rounding grows with n log n: at 10**8 it is about 1e-6 of the probability (far below any
  Monte Carlo error), at 2**40 about 3%. Past about 2**31.5 objects per margin its 64-bit
  integer products overflow, and it returns wrong tables, hangs or crashes (scipy 1.17: for
  margins of 2**32 + 1, the extreme table every time). ``method="auto"`` then takes the
  closed-form moments (``method="hypergeometric"``).

The tests check the sampled law against the exact one (chi-square goodness of fit).
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
from scipy import stats

from .._docs import fill_doc
from .._validate import check_positive_int, check_seed
from ._methods import NullMethod, register_method
from ._request import sampled_laws

__all__ = ["random_tables", "random_table_batches", "DEFAULT_N_SIM", "MAX_N"]

#: The thesis' Monte Carlo size (Amorim 2015: 17,000 tables; see ``n_sim_for``).
DEFAULT_N_SIM = 17_000

_BATCH_CELLS = 1 << 18  # cells per batch: bounds a batch at 2 MB of int64
_SPOT_TABLES = 256  # tables per batch whose every margin is checked (see _check_batch)
_MAX_BLOCKS = 64  # padding block by block up to this many blocks, else by fancy indexing

#: The most objects a table may hold for scipy's Patefield sampler (see the module docstring).
MAX_N = 10**8


def _check_margins(rows, cols):
    rows = np.asarray(rows, dtype=np.int64).ravel()
    cols = np.asarray(cols, dtype=np.int64).ravel()
    if rows.size == 0 or cols.size == 0 or (rows < 0).any() or (cols < 0).any():
        raise ValueError("rows and cols must be non-empty, non-negative margins")
    n_rows, n_cols = sum(int(v) for v in rows), sum(int(v) for v in cols)
    if n_rows != n_cols or n_rows == 0:
        raise ValueError(f"rows and cols must have the same positive total, got {n_rows} "
                         f"and {n_cols}")
    _check_size(rows, cols, n_rows)
    return rows, cols


def _check_size(rows, cols, n):
    """Refuse a table too large for the sampler (one table only is no sampling: allowed)."""
    if n > MAX_N and np.count_nonzero(rows) > 1 and np.count_nonzero(cols) > 1:
        raise ValueError(
            f"Patefield's sampler is used up to n = {MAX_N:.0e} objects and this table holds "
            f"{n:,}: beyond that its double-precision probabilities lose more than about 1e-6 "
            "to rounding, and past about 2**31.5 objects per margin its integer arithmetic "
            "overflows; use method='hypergeometric' (closed-form moments) or method='auto'")


def _check_request(req):
    rows, cols = req.margins
    _check_size(rows, cols, sum(int(v) for v in rows))


def _check_batch(batch, rows, cols):
    """Raise if scipy's sampler broke the margins of a batch of tables (a bug, never a law).

    Algorithm AS 159 (scipy's ``rcont2``) draws the cells of the first K - 1 rows and Q - 1
    columns one by one; the last cell of each of those rows is the rest of its row margin, and
    each cell of the last row but the bottom-right one the rest of its column margin, in exact
    int64 arithmetic. So the sums of the first K - 1 rows and Q - 1 columns hold by
    construction, and a broken sampler can get two things wrong: the sign of a cell (a
    remainder gone negative, as with the degenerate margins scipy mishandles) and the
    bottom-right cell, the only one computed from a running total rather than from a margin
    (when it is wrong, so are the sums of the last row and the last column). The check is
    therefore: no negative cell (one pass, ``min``), the sum of the last row of every table (a
    (B, Q) slice), and, should a later scipy fill its tables differently, every row and column
    sum of ``_SPOT_TABLES`` tables spread over the batch. Summing every row and column of
    every table cost a fifth of the sampler's own time on 4 x 4 tables; this costs about 1%
    (``einsum``: numpy's ``sum`` over a short last axis is 3 times slower).
    """
    spot = batch[::max(1, len(batch) // _SPOT_TABLES)]
    if (batch.min() < 0 or (np.einsum("bj->b", batch[:, -1, :]) != rows[-1]).any()
            or (np.einsum("bij->bi", spot) != rows).any()
            or (np.einsum("bij->bj", spot) != cols).any()):
        raise RuntimeError("scipy's Patefield sampler broke the margins; please report "
                           f"rows={rows.tolist()}, cols={cols.tolist()}")


def _runs(idx):
    """The runs of consecutive values of a sorted index: [(a, b, idx[a], idx[b - 1] + 1)]."""
    bounds = np.r_[0, np.flatnonzero(np.diff(idx) != 1) + 1, idx.size]
    return [(a, b, int(idx[a]), int(idx[b - 1]) + 1) for a, b in pairwise(bounds)]


def _pad_into(out, batch, r_on, c_on):
    """Write tables over the non-empty rows ``r_on`` and columns ``c_on`` into the zero tables
    ``out``: one strided copy per block of consecutive rows and columns (3 to 12 times faster
    than fancy indexing, which moves one cell at a time), fancy indexing past _MAX_BLOCKS."""
    r_runs, c_runs = _runs(r_on), _runs(c_on)
    if len(r_runs) * len(c_runs) > _MAX_BLOCKS:
        out[:, r_on[:, None], c_on[None, :]] = batch
        return
    for a0, a1, i0, i1 in r_runs:
        for b0, b1, j0, j1 in c_runs:
            out[:, i0:i1, j0:j1] = batch[:, a0:a1, b0:b1]


def _compact_batches(rows, cols, n_sim, rng, per, progress):
    """Batches of ``per`` tables over the non-empty rows and columns only, checked: yields
    ``(start, stop, tables)``; with one non-empty row or column, read-only views of its one
    table. scipy's draws do not depend on the batching (it draws table after table from
    ``rng``), so any ``per`` gives the same tables."""
    r_on, c_on = np.flatnonzero(rows), np.flatnonzero(cols)
    starts = range(0, n_sim, per)
    if progress:
        from tqdm.auto import tqdm

        starts = tqdm(starts, desc="Patefield tables", unit="batch")
    if r_on.size == 1 or c_on.size == 1:  # one table only
        # the one non-empty row is the column margins, or the one non-empty column the row
        # margins (no product of margins, which would overflow at large n)
        table = cols[c_on][None, :] if r_on.size == 1 else rows[r_on][:, None]
        for start in starts:
            stop = min(n_sim, start + per)
            yield start, stop, np.broadcast_to(table, (stop - start,) + table.shape)
        return
    r, c = rows[r_on], cols[c_on]
    dist = stats.random_table(r, c)
    for start in starts:
        stop = min(n_sim, start + per)
        batch = dist.rvs(size=stop - start, method="patefield", random_state=rng)
        _check_batch(batch, r, c)
        yield start, stop, batch


def random_table_batches(rows, cols, n_sim: int, rng, progress: bool = False):
    """``n_sim`` random tables with the given (checked) margins in batches of bounded memory:
    yields ``(start, stop, tables)`` with tables of shape (stop - start, K, Q), each batch a
    new array (scipy's own when no row or column is empty)."""
    r_on, c_on = np.flatnonzero(rows), np.flatnonzero(cols)
    per = max(1, _BATCH_CELLS // (rows.size * cols.size))
    for start, stop, batch in _compact_batches(rows, cols, n_sim, rng, per, progress):
        if batch.shape[1:] == (rows.size, cols.size) and batch.flags.writeable:
            yield start, stop, batch
            continue
        out = np.zeros((stop - start, rows.size, cols.size), dtype=np.int64)
        _pad_into(out, batch, r_on, c_on)
        yield start, stop, out


@fill_doc
def random_tables(rows, cols, n_sim: int = DEFAULT_N_SIM, seed=None, progress: bool = False):
    """Random tables with the given margins (Patefield's algorithm AS 159).

    Each table is drawn from the generalized hypergeometric law of the permutation model
    (both margins fixed), by scipy's ``random_table(...).rvs(method="patefield")``: in one
    call, or in memory-bounded batches with empty rows or columns or a progress bar (the same
    tables either way); the thesis' IADJUST draws 17,000 of them. A margin with one non-empty
    row or column has one table, returned directly.

    Parameters
    ----------
    %(rows, cols)s
    n_sim : int, default 17,000
        The number of tables.
    %(seed)s
    progress : bool, default False
        Show a progress bar over the batches.

    Returns
    -------
    ndarray of int64, shape (n_sim, K, Q)
        The tables (zero margins kept as empty rows and columns).

    Raises
    ------
    ValueError
        Bad margins, or more than 10**8 objects (``MAX_N``: beyond it the sampler's double
        precision and integer arithmetic fail).

    See Also
    --------
    clusteragree.nulls.null_distribution : ``method="patefield"`` evaluates indices on them.
    n_sim_for : The Monte Carlo size for a given precision of the p-value.

    References
    ----------
    {ref:patefield1981}(1), 91-97.

    {ref:amorim2015}, ch. 4.

    Examples
    --------
    >>> t = random_tables([3, 2], [4, 1], n_sim=5, seed=1)
    >>> t.shape, bool((t.sum(axis=2) == [3, 2]).all() and (t.sum(axis=1) == [4, 1]).all())
    ((5, 2, 2), True)
    >>> random_tables([7], [2, 5], n_sim=2, seed=3).tolist()     # the only table
    [[[2, 5]], [[2, 5]]]
    """
    n_sim = check_positive_int(n_sim, "n_sim")
    rng = check_seed(seed)
    rows, cols = _check_margins(rows, cols)
    r_on, c_on = np.flatnonzero(rows), np.flatnonzero(cols)
    shape = (n_sim, rows.size, cols.size)
    # without empty rows or columns, scipy's one array of all the tables is the result (no
    # copy); else bounded batches, written into the zero tables (one copy)
    full = r_on.size == rows.size and c_on.size == cols.size
    per = n_sim if full and not progress else max(1, _BATCH_CELLS // (rows.size * cols.size))
    out = None
    for start, stop, batch in _compact_batches(rows, cols, n_sim, rng, per, progress):
        if batch.shape == shape and batch.flags.writeable:
            return batch
        if out is None:
            out = np.zeros(shape, dtype=np.int64)
        _pad_into(out[start:stop], batch, r_on, c_on)
    return out


def _patefield_law(req):
    """Index values of random tables, batch by batch: only the values are kept."""
    rows, cols = req.margins
    return sampled_laws(req, random_table_batches(rows, cols, req.n_sim, req.rng,
                                                  req.spec.progress), (rows, cols))


register_method(NullMethod(
    name="patefield", model="perm", title="Monte Carlo agreement test",
    description="random tables with the observed margins (Patefield's algorithm AS 159)",
    law=_patefield_law, check=_check_request, monte_carlo=True, default_n_sim=DEFAULT_N_SIM,
    describe=lambda nd: f"{nd.n_sim:,} Patefield tables"))
