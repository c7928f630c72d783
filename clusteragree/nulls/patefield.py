"""Random tables with fixed margins (Patefield 1981, algorithm AS 159), in batches.

The thesis' IADJUST (seed 002, Ch.4) draws 17,000 such tables. Its printed pseudocode (Ch.4
Table 5) is garbled (ERRATA.md), so we use scipy's validated implementation,
``scipy.stats.random_table(...).rvs(method="patefield")``, drawn in memory-bounded batches from
one ``numpy.random.Generator``. The tests check the sampled law against the exact one (chi-square
goodness of fit).
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from .._validate import check_positive_int, check_seed

__all__ = ["random_tables", "DEFAULT_N_SIM"]

#: The thesis' Monte Carlo size (seed 002: 17,000 tables; see ``n_sim_for``).
DEFAULT_N_SIM = 17_000

_BATCH_CELLS = 4_000_000  # cells per batch: bounds memory at ~32 MB of int64


def random_tables(rows, cols, n_sim: int = DEFAULT_N_SIM, seed=None, progress: bool = False):
    """``n_sim`` random tables with the given margins, shape (n_sim, K, Q), int64.

    >>> t = random_tables([3, 2], [4, 1], n_sim=5, seed=1)
    >>> t.shape, bool((t.sum(axis=2) == [3, 2]).all() and (t.sum(axis=1) == [4, 1]).all())
    ((5, 2, 2), True)
    """
    n_sim = check_positive_int(n_sim, "n_sim")
    rng = check_seed(seed)
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    dist = stats.random_table(rows, cols)
    per = max(1, _BATCH_CELLS // (rows.size * cols.size))
    out = np.empty((n_sim, rows.size, cols.size), dtype=np.int64)
    starts = range(0, n_sim, per)
    if progress:
        from tqdm.auto import tqdm

        starts = tqdm(starts, desc="Patefield tables", unit="batch")
    for start in starts:
        stop = min(n_sim, start + per)
        out[start:stop] = dist.rvs(size=stop - start, method="patefield", random_state=rng)
    return out
