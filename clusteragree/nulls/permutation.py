"""Permutation nulls: one labelling randomly permuted against the other.

For hard labels this is the same null as fixed margins (every permutation of y gives a table with
the observed margins, each table with its generalized hypergeometric probability), computed from
the objects rather than the table: it serves indices that have no table form too (issue 4).
Permutations are drawn in memory-bounded chunks from one ``numpy.random.Generator``; when n! is
small enough, every permutation is used and the law is exact.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .._validate import check_positive_int, check_seed

__all__ = ["permuted_tables", "table_to_codes", "EXHAUSTIVE_LIMIT"]

#: Use all n! permutations (an exact law) when n! is at most this.
EXHAUSTIVE_LIMIT = 40_320  # 8!

_CHUNK_LABELS = 4_000_000


def table_to_codes(counts):
    """Label codes (x, y) of n objects realising a table: x = row, y = column of each object."""
    counts = np.asarray(counts, dtype=np.int64)
    K, Q = counts.shape
    cells = counts.ravel()
    flat = np.repeat(np.arange(K * Q), cells)
    return flat // Q, flat % Q


def _tables_from_permutations(x, y, perms, K, Q):
    """Tables of (x, y[perm]) for each row of perms, via one bincount per chunk."""
    m = len(perms)
    keys = (np.arange(m)[:, None] * (K * Q) + x[None, :] * Q + y[perms]).ravel()
    return np.bincount(keys, minlength=m * K * Q).reshape(m, K, Q)


def permuted_tables(x_codes, y_codes, n_sim: int = 999, seed=None, exhaustive: bool | None = None,
                    progress: bool = False):
    """Tables of x against random permutations of y.

    Returns ``(tables, weights)``: with ``exhaustive`` (default: when n! <= EXHAUSTIVE_LIMIT) all
    n! permutations with weights 1/n! (an exact law); otherwise ``n_sim`` random permutations
    with weights None.
    """
    x = np.asarray(x_codes, dtype=np.int64)
    y = np.asarray(y_codes, dtype=np.int64)
    n = len(x)
    K, Q = int(x.max()) + 1, int(y.max()) + 1
    if exhaustive is None:
        exhaustive = n <= 8 and math.factorial(n) <= EXHAUSTIVE_LIMIT
    if exhaustive:
        if math.factorial(n) > 50 * EXHAUSTIVE_LIMIT:
            raise ValueError(f"exhaustive permutation of n = {n} objects ({math.factorial(n):,} "
                             "permutations) is too large; use n_sim= random permutations")
        perms = np.array(list(itertools.permutations(range(n))), dtype=np.int64)
        tables = _tables_from_permutations(x, y, perms, K, Q)
        return tables, np.full(len(perms), 1.0 / len(perms))
    n_sim = check_positive_int(n_sim, "n_sim")
    rng = check_seed(seed)
    per = max(1, _CHUNK_LABELS // n)
    out = np.empty((n_sim, K, Q), dtype=np.int64)
    starts = range(0, n_sim, per)
    if progress:
        from tqdm.auto import tqdm

        starts = tqdm(starts, desc="permutations", unit="chunk")
    for start in starts:
        stop = min(n_sim, start + per)
        perms = rng.permuted(np.broadcast_to(np.arange(n), (stop - start, n)), axis=1)
        out[start:stop] = _tables_from_permutations(x, y, perms, K, Q)
    return out, None


# -- indices of object pairs (memberships, similarity matrices) ---------------------------------

PAIR_NULLS = ("objects", "pairs")
_CHUNK_VALUES = 20_000_000  # pair values held at once per chunk of permutations


def _all_permutations(k: int) -> np.ndarray:
    return np.array(list(itertools.permutations(range(k))), dtype=np.int64)


def permuted_pair_values(rec, xs, ys, ymats, const, options, null="objects", n_sim=999,
                         seed=None, exhaustive=None, progress=False):
    """Values of a pair index with y's objects (``null="objects"``, the Mantel/QAP null) or y's
    pair values (``null="pairs"``) randomly permuted.

    Returns ``(values, weights)``: all permutations with weights 1/k! when k! is at most
    EXHAUSTIVE_LIMIT (k = n objects or m pairs) or ``exhaustive=True``; otherwise ``n_sim``
    random permutations and weights None.
    """
    n, m = ymats[0].shape[0], ys[0].shape[-1]
    k = n if null == "objects" else m
    if exhaustive is None:
        exhaustive = k <= 8 and math.factorial(k) <= EXHAUSTIVE_LIMIT
    if exhaustive and math.factorial(k) > 50 * EXHAUSTIVE_LIMIT:
        raise ValueError(f"exhaustive permutation of {k} {null} ({math.factorial(k):,} "
                         "permutations) is too large; use n_sim= random permutations")

    def values_for(perms):
        if null == "objects":
            from ..indices._pairwise import gather_objects

            ys_b = tuple(gather_objects(M, perms) for M in ymats)
        else:
            ys_b = tuple(v[perms] for v in ys)
        return np.asarray(rec.func(xs, ys_b, **const, **options), dtype=float)

    per = max(1, _CHUNK_VALUES // (m * len(ys)))
    if exhaustive:
        perms = _all_permutations(k)
        values = np.concatenate([values_for(perms[i:i + per]) for i in range(0, len(perms), per)])
        return values, np.full(len(perms), 1.0 / len(perms))
    n_sim = check_positive_int(n_sim, "n_sim")
    rng = check_seed(seed)
    out = np.empty(n_sim)
    starts = range(0, n_sim, per)
    if progress:
        from tqdm.auto import tqdm

        starts = tqdm(starts, desc=f"permutations of {null}", unit="chunk")
    for start in starts:
        stop = min(n_sim, start + per)
        perms = rng.permuted(np.broadcast_to(np.arange(k), (stop - start, k)), axis=1)
        out[start:stop] = values_for(perms)
    return out, None


def permuted_direct_values(rec, x, y, options, n_sim=999, seed=None, progress=False):
    """Values of an index computed directly from two clusterings (no pair vectors) with y's
    objects permuted: rows of memberships, rows and columns of a matrix. All n! permutations
    (weights 1/n!) when n <= 8, else ``n_sim`` random ones (weights None).

    Returns ``(values, weights, details)``.
    """
    from ..indices._pairwise import validated_pair

    X, _, Y, ky = validated_pair(rec, x, y, with_kinds=True)
    n = X.shape[0]

    def moved(p):
        return Y[np.ix_(p, p)] if ky == "matrix" else Y[p]

    exhaustive = n <= 8
    if exhaustive:
        perms = _all_permutations(n)
        total = len(perms)
    else:
        rng = check_seed(seed)
        total = check_positive_int(n_sim, "n_sim")
        perms = (rng.permutation(n) for _ in range(total))
    if progress:
        from tqdm.auto import tqdm

        perms = tqdm(perms, total=total, desc="permutations of objects")
    values = np.array([rec.func(X, moved(p), **options) for p in perms], dtype=float)
    weights = np.full(total, 1.0 / total) if exhaustive else None
    return values, weights, {"n": n, "null": "objects", "seed": seed, "exhaustive": exhaustive}
