"""Building blocks shared by the index families, all vectorised over a batch ``(..., K, Q)``."""

from __future__ import annotations

import numpy as np

__all__ = ["identical", "ratio", "pair_arrays", "per_table", "sum_squares"]


def identical(counts: np.ndarray) -> np.ndarray:
    """True where the table is that of two identical partitions (up to relabelling): every
    non-empty row and every non-empty column holds exactly one non-zero cell."""
    nz = counts > 0
    rows = nz.sum(axis=-1)
    cols = nz.sum(axis=-2)
    return np.all(rows <= 1, axis=-1) & np.all(cols <= 1, axis=-1)


def ratio(num, den, counts, optimum: float, fallback: float) -> np.ndarray:
    """``num / den`` for an index whose value on identical partitions is ``optimum``.

    Identical partitions get ``optimum`` exactly (the formula gives it up to rounding, or 0/0
    when a clustering is a single cluster or all singletons); any other vanishing denominator
    gives ``fallback`` (the registry's degenerate-case rule)."""
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    zero = den == 0
    out = num / np.where(zero, 1.0, den)
    return np.where(identical(counts), optimum, np.where(zero, fallback, out))


def sum_squares(counts: np.ndarray):
    """Exact int64 sums: (sum n_ij^2, sum n_k+^2, sum n_+q^2, n). Exact for n < 3e9."""
    rows = counts.sum(axis=-1)
    cols = counts.sum(axis=-2)
    return (
        np.einsum("...ij,...ij->...", counts, counts),
        np.einsum("...i,...i->...", rows, rows),
        np.einsum("...j,...j->...", cols, cols),
        rows.sum(axis=-1),
    )


def pair_arrays(counts: np.ndarray):
    """Pair counts a11, a10, a01, a00 (float64 arrays; computed from exact integer sums)."""
    s, r, c, n = sum_squares(counts)
    a11 = (s - n) // 2
    a10 = (r - s) // 2
    a01 = (c - s) // 2
    total = n * (n - 1) // 2
    a00 = total - a11 - a10 - a01
    return tuple(np.asarray(v, dtype=float) for v in (a11, a10, a01, a00))


def per_table(counts: np.ndarray, func) -> np.ndarray:
    """Apply ``func(table) -> float`` to every table of a batch (for indices built on a
    combinatorial matching, which has no closed vectorised form)."""
    flat = counts.reshape((-1,) + counts.shape[-2:])
    out = np.fromiter((func(t) for t in flat), dtype=float, count=len(flat))
    return out.reshape(counts.shape[:-2])
