"""Permutation nulls: one labelling randomly permuted against the other.

For hard labels this is the same null as fixed margins (every permutation of y gives a table with
the observed margins, each table with its generalized hypergeometric probability), computed from
the objects rather than the table: it serves indices that have no table form too (fuzzy
memberships and similarity matrices, whose objects or pair values are permuted).
Permutations are drawn in memory-bounded chunks from one ``numpy.random.Generator``; when n! is
small enough, every permutation is used and the law is exact.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .._validate import check_positive_int, check_seed
from ..indices import gather_objects, pair_vectors, values_on_tables
from ._methods import PAIR_MODELS, NullMethod, register_method
from .sparse import (check_sparse_permutation, permutation_seconds,
                     sparse_permutation_law)
from ._request import sampled_laws

__all__ = ["permuted_tables", "table_to_codes", "use_all_permutations", "EXHAUSTIVE_LIMIT",
           "DEFAULT_N_PERM"]

#: Random permutations drawn by default.
DEFAULT_N_PERM = 999

#: Use all n! permutations (an exact law) when n! is at most this.
EXHAUSTIVE_LIMIT = 40_320  # 8!

_CHUNK_LABELS = 4_000_000
_CHUNK_CELLS = 4_000_000


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


def _how_many(k: int) -> str:
    """k! in words: exact up to 10**15, else to 3 digits."""
    if k <= 17:
        return f"{math.factorial(k):,}"
    digits = math.lgamma(k + 1) / math.log(10)
    return f"about {10 ** (digits % 1):.3g}e{int(digits)}"


def use_all_permutations(k: int, exhaustive: bool | None, what: str = "objects") -> bool:
    """The one rule for exhaustive permutation: with ``exhaustive=None``, all k! permutations
    (an exact law) when k! <= EXHAUSTIVE_LIMIT (k <= 8); ``True`` forces them (refused above
    50 x EXHAUSTIVE_LIMIT, before any work); ``False`` never uses them."""
    if exhaustive is None:
        return k <= 20 and math.factorial(k) <= EXHAUSTIVE_LIMIT  # k! of a large k takes long
    if not isinstance(exhaustive, (bool, np.bool_)):
        raise TypeError(f"exhaustive must be None, True or False, got {exhaustive!r}")
    if exhaustive and (k > 20 or math.factorial(k) > 50 * EXHAUSTIVE_LIMIT):
        table = ("; method='exact' gives the law of every permutation of the labels by "
                 "enumerating tables" if what == "labels" else "")
        raise ValueError(
            f"every permutation of {k} {what} ({_how_many(k)} permutations), asked by "
            f"exhaustive=True or by method=PermutationMethod(n_resamples=np.inf), is too many "
            f"to enumerate (at most {50 * EXHAUSTIVE_LIMIT:,}): draw random permutations "
            f"instead (n_sim=B, or PermutationMethod(n_resamples=B)){table}")
    return bool(exhaustive)


def _random_permutation_chunks(k: int, n_sim: int, rng, per: int, progress: bool, desc: str):
    """(start, stop, permutations) for chunks of at most ``per`` random permutations of k."""
    starts = range(0, n_sim, per)
    if progress:
        from tqdm.auto import tqdm

        starts = tqdm(starts, desc=desc, unit="chunk")
    for start in starts:
        stop = min(n_sim, start + per)
        yield start, stop, rng.permuted(np.broadcast_to(np.arange(k), (stop - start, k)), axis=1)


def permuted_table_batches(x, y, n_sim: int, rng, progress: bool = False):
    """Tables of x against ``n_sim`` random permutations of y, in batches of bounded memory:
    yields ``(start, stop, tables)``."""
    n = len(x)
    K, Q = int(x.max()) + 1, int(y.max()) + 1
    per = max(1, min(_CHUNK_LABELS // n, _CHUNK_CELLS // (K * Q)))
    for start, stop, perms in _random_permutation_chunks(n, n_sim, rng, per, progress,
                                                         "permutations"):
        yield start, stop, _tables_from_permutations(x, y, perms, K, Q)


def permuted_tables(x_codes, y_codes, n_sim: int = 999, seed=None, exhaustive: bool | None = None,
                    progress: bool = False):
    """Tables of x against random permutations of y.

    Returns ``(tables, weights)``: all n! permutations with weights 1/n! (an exact law) when
    ``use_all_permutations`` says so; otherwise ``n_sim`` random permutations with weights
    None.
    """
    x = np.asarray(x_codes, dtype=np.int64)
    y = np.asarray(y_codes, dtype=np.int64)
    K, Q = int(x.max()) + 1, int(y.max()) + 1
    if use_all_permutations(len(x), exhaustive, "labels"):
        perms = _all_permutations(len(x))
        tables = _tables_from_permutations(x, y, perms, K, Q)
        return tables, np.full(len(perms), 1.0 / len(perms))
    n_sim = check_positive_int(n_sim, "n_sim")
    out = np.empty((n_sim, K, Q), dtype=np.int64)
    for start, stop, batch in permuted_table_batches(x, y, n_sim, check_seed(seed), progress):
        out[start:stop] = batch
    return out, None


# -- indices of object pairs (memberships, similarity matrices) ---------------------------------

_CHUNK_VALUES = 20_000_000  # pair values held at once per chunk of permutations


def _all_permutations(k: int) -> np.ndarray:
    return np.array(list(itertools.permutations(range(k))), dtype=np.int64)


class _PermutedPairIndex:
    """One index of object pairs ready for permutations: its values on a chunk of
    permutations of y's objects (or pair values)."""

    def __init__(self, rec, pair, options, null):
        self.rec, self.options, self.null = rec, options, null
        X, _, Y, ky = pair
        self.direct = rec.representation is None
        if self.direct:  # computed from the two clusterings themselves
            self.X, self.Y, self.ky = X, Y, ky
            self.per = max(1, _CHUNK_LABELS // X.shape[0])
        else:
            self.xs, self.ys = pair_vectors(rec, pair)
            self.ymats = rec.representation(Y, ky) if null == "objects" else None
            self.const = rec.prepare(self.xs, self.ys, **options) if rec.prepare else {}
            self.per = max(1, _CHUNK_VALUES // (self.ys[0].shape[-1] * len(self.ys)))

    def values(self, perms: np.ndarray) -> np.ndarray:
        if self.direct:
            def moved(p):
                return self.Y[np.ix_(p, p)] if self.ky == "matrix" else self.Y[p]

            return np.array([self.rec.func(self.X, moved(p), **self.options) for p in perms],
                            dtype=float)
        out = []
        for i in range(0, len(perms), self.per):
            chunk = perms[i:i + self.per]
            if self.null == "objects":
                ys_b = tuple(gather_objects(M, chunk) for M in self.ymats)
            else:
                ys_b = tuple(v[chunk] for v in self.ys)
            out.append(np.asarray(self.rec.func(self.xs, ys_b, **self.const, **self.options),
                                  dtype=float))
        return np.concatenate(out)


def _objects_of(m: int) -> int:
    """n from the number of pairs m = n (n - 1) / 2."""
    return int(round((1 + math.sqrt(1 + 8 * m)) / 2))


def permuted_pair_values(indices, null="objects", n_sim=999, seed=None, exhaustive=None,
                         progress=False):
    """Values of indices of object pairs (``_PermutedPairIndex``) with y's objects
    (``null="objects"``, the Mantel/QAP null) or y's pair values (``null="pairs"``) randomly
    permuted, the same permutations for every index.

    Returns ``(values by index name, weights)``: all k! permutations with weights 1/k! (k = n
    objects or m pairs) when ``use_all_permutations`` says so; otherwise ``n_sim`` random
    permutations and weights None.
    """
    first = indices[0]
    n = first.X.shape[0] if first.direct else _objects_of(len(first.ys[0]))
    k = n if null == "objects" else n * (n - 1) // 2
    per = min(ix.per for ix in indices)
    if use_all_permutations(k, exhaustive, null):
        perms = _all_permutations(k)
        weights = np.full(len(perms), 1.0 / len(perms))
        return {ix.rec.name: ix.values(perms) for ix in indices}, weights
    n_sim = check_positive_int(n_sim, "n_sim")
    out = {ix.rec.name: np.empty(n_sim) for ix in indices}
    for start, stop, perms in _random_permutation_chunks(
            k, n_sim, check_seed(seed), per, progress, f"permutations of {null}"):
        for ix in indices:
            out[ix.rec.name][start:stop] = ix.values(perms)
    return out, None


# -- the method records ------------------------------------------------------------------------

def _describe_permutation(nd) -> str:
    what = {"objects": "objects", "pairs": "pair values"}.get(nd.details.get("null"), "labels")
    if nd.is_exact:
        return f"all permutations of y's {what} (exact)"
    return f"{nd.n_sim:,} random permutations of y's {what}"


def _table_permutation_law(req):
    if not req.table.dense:  # many clusters: permuted labels' cells, no K x Q table
        return sparse_permutation_law(req)
    x, y = table_to_codes(req.table.counts)
    if use_all_permutations(len(x), req.spec.exhaustive, "labels"):
        tables, weights = permuted_tables(x, y, exhaustive=True)
        values = values_on_tables(req.indices, req.options, tables, margins=req.margins)
        return {rec.name: req.null_of(rec, values=values[rec.name], probabilities=weights,
                                      details={"exhaustive": True}) for rec in req.indices}
    return sampled_laws(req, permuted_table_batches(x, y, req.n_sim, req.rng, req.spec.progress),
                        req.margins, details={"exhaustive": False})


def _pair_permutation_law(req):
    prepared = [_PermutedPairIndex(rec, req.clusterings.pair(rec), req.options[rec.name],
                                   req.model.name) for rec in req.indices]
    values, weights = permuted_pair_values(prepared, null=req.model.name, n_sim=req.n_sim,
                                           seed=req.rng, exhaustive=req.spec.exhaustive,
                                           progress=req.spec.progress)
    details = {"null": req.model.name, "exhaustive": weights is not None}
    return {rec.name: req.null_of(rec, details=details, **(
        {"values": values[rec.name], "probabilities": weights} if weights is not None
        else {"samples": values[rec.name]})) for rec in req.indices}


def _check_pairs_null(req):
    for rec in req.indices:
        if rec.representation is None and req.model.name != "objects":
            raise ValueError(f"index {rec.name!r} has only the object-permutation null: use "
                             "null='objects' (model 'objects')")


def _pair_exact_mean_law(req):
    out = {}
    for rec in req.indices:
        opts = req.options[rec.name]
        xs, ys = pair_vectors(rec, req.clusterings.pair(rec))
        const = rec.prepare(xs, ys, **opts) if rec.prepare else {}
        mean = rec.pair_mean(xs, ys, **const, **opts)
        if mean is None:
            raise ValueError(f"the exact null mean of {rec.name!r} is not known with these "
                             f"options {opts}; use method='permutation'")
        out[rec.name] = req.null_of(rec, moments={"mean": float(mean)},
                                    details={"null": req.model.name})
    return out


def _check_pair_exact_mean(req):
    for rec in req.indices:
        if rec.pair_mean is None:
            raise ValueError(f"index {rec.name!r} has no exact null mean here; use "
                             "method='permutation'")


def _check_table_permutation(req):
    """On a sparse table, the indices of s or t only; under ``method="auto"``, draws within
    the spec's ``max_seconds``."""
    if not req.table.dense:
        check_sparse_permutation(req)
    elif req.auto and permutation_seconds(req.clusterings.n, req.n_sim) > req.spec.max_seconds:
        raise ValueError(f"{req.n_sim:,} label permutations of n = {req.clusterings.n:,} "
                         f"objects would take over max_seconds={req.spec.max_seconds:g}")


#: Memory per object while permuting a table's labels (measured: 88 bytes at n = 10**6).
_BYTES_PER_OBJECT = 128


register_method(NullMethod(
    name="permutation", model="perm", title="Permutation agreement test",
    description="random permutations of y's labels against x (all of them, an exact law, "
                "when n <= 8)",
    law=_table_permutation_law, check=_check_table_permutation, monte_carlo=True,
    default_n_sim=DEFAULT_N_PERM, bytes_per_object=_BYTES_PER_OBJECT, sparse=True,
    describe=_describe_permutation, options=("exhaustive",)))
for _model in PAIR_MODELS:
    register_method(NullMethod(
        name="permutation", model=_model, title="Permutation agreement test",
        description="random permutations of y (all of them, an exact law, when there are at "
                    "most 8 things to permute)",
        law=_pair_permutation_law, check=_check_pairs_null, monte_carlo=True,
        default_n_sim=DEFAULT_N_PERM, describe=_describe_permutation, options=("exhaustive",)))
    register_method(NullMethod(
        name="exact", model=_model, title="Agreement test (exact null mean)",
        description="the exact null mean (the same under both permutation nulls), by sorting",
        law=_pair_exact_mean_law, check=_check_pair_exact_mean))
