"""Random models beyond fixed margins (Gates & Ahn 2017, "The impact of random models on
clustering similarity", JMLR 18): random partitions with a fixed number of clusters (``num``,
``num1``) or of any number (``all``, ``all1``), two-sided or with one clustering fixed.

Each clustering of a model is a *side*: fixed (its observed cluster sizes), ``num`` (uniform
over the partitions of the n objects into k blocks; S(n, k) of them, Stirling numbers of the
second kind) or ``all`` (uniform over all B(n) partitions, Bell numbers).

Exact means. Under a uniform random partition into k blocks, a given set A of a objects is a
block with probability S(n - a, k - 1) / S(n, k), so the expected number of blocks of size a is

    N(a) = C(n, a) S(n - a, k - 1) / S(n, k)      (over all partitions: C(n, a) B(n - a) / B(n))

and N(a) is the observed count of blocks of size a for a fixed side. Since that probability
depends on |A| only, a block of x and a block of y meet like two uniformly random sets: their
intersection is Hypergeom(n, a, b). Hence, for any f,

    E[sum_ij f(n_ij, a_i, b_j)] = sum_(a, b) N_x(a) N_y(b) E[f(H, a, b)],

which gives the exact E[MI] (Vinh et al.'s sum with weights N_x N_y) and E[sum n_ij^2], so
E[a11] = E[p] E[q] / C(n, 2) with E[p] = sum_a N_x(a) C(a, 2). Every index that is affine in
(a11, p, q), or in (H(x), H(y), MI), with coefficients in n only (Rand, Mirkin, Hamann, the
entropies, MI, VI; registry ``affine_state``) has its exact mean at the mean state. Stirling
and Bell numbers are used in log space (``clusteragree._moments.combinatorics``): n in the thousands
does not overflow. Under ``perm`` (both sides fixed) these are the usual closed forms.

Exact laws. Given its block sizes, a uniform random partition is a uniform random labelling,
so given both size profiles the table has the fixed-margins (generalized hypergeometric) law.
The exact law is therefore the mixture, over the pairs of profiles (lambda of x, b of y), of
the fixed-margins laws (the dynamic programme on s or t, or the enumeration of the tables),
with weights P(lambda) P(b), where a profile lambda has

    n! / (prod_i lambda_i! prod_s m_s!)      partitions (m_s: the number of blocks of size s)

out of S(n, k) or B(n). This is done when the profiles can be listed (small n); the
probabilities must sum to 1, which is checked.

Samplers (exact). ``num``: when a uniform labelling of the objects with k labels is likely to
use them all (probability k! S(n, k) / k^n >= 1/2), such labellings are drawn and the ones with
an empty label redrawn (a partition into k blocks is k! surjections); otherwise the Stirling
recursion: object m is alone with probability S(m-1, k-1) / S(m, k), else joins one of the k
blocks uniformly (blocks ranked by their smallest object). ``all``: Stam's method (1983): draw
M with P(M = m) = m^n / (m! e B(n)), then throw the objects uniformly into M urns; the
non-empty urns are a uniform random partition (Stam 1983, "Generation of a random partition of
a finite set by an urn model", J. Combinatorial Theory A 35).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln

from .._moments.combinatorics import log_bell, log_binomial, log_stirling2
from .._moments.cells import expected_mi_of_sizes
from ._methods import PARTITION_MODELS, NullMethod, register_method
from ._request import sampled_laws
from .enumeration import count_tables, enumerate_tables
from .network import estimate_dp_work, statistic_law

__all__ = ["Side", "sides_of", "block_size_law", "mean_sums", "random_partitions",
           "random_model_chunks", "profile_pairs", "exact_partition_laws", "DEFAULT_N_SIM"]

#: Random partitions drawn by ``method="simulation"`` (the size of Amorim's IADJUST, 2015).
DEFAULT_N_SIM = 17_000
#: Block sizes whose expected count is below exp(-_LOG_NEGLIGIBLE) times the largest are left
#: out of the exact sums (their share of any sum is far below double precision).
_LOG_NEGLIGIBLE = 50.0
#: Exact laws list the tables of at most this many pairs of block-size profiles.
_MAX_PROFILE_PAIRS = 1_000
#: The fixed cost of one fixed-margins law in the mixture, in units of max_work.
_WORK_PER_PAIR = 50_000
_CHUNK_LABELS = 4_000_000
_CHUNK_CELLS = 4_000_000


@dataclass(frozen=True)
class Side:
    """How one clustering is drawn: ``kind`` "fixed" (``sizes``), "num" (``k`` blocks) or
    "all", over ``n`` objects."""

    kind: str
    n: int
    k: int = 0
    sizes: tuple = ()

    @property
    def log_count(self) -> float:
        """log of the number of partitions the side is uniform over (0 for a fixed side)."""
        if self.kind == "fixed":
            return 0.0
        if self.kind == "num":
            return float(log_stirling2(self.n, self.k)[self.n, self.k])
        return float(log_bell(self.n)[self.n])


def sides_of(model: str, rows, cols, reference: str = "x") -> tuple[Side, Side]:
    """The sides (x, y) of a partition model for the observed margins."""
    rows = tuple(int(v) for v in np.asarray(rows).ravel() if v > 0)
    cols = tuple(int(v) for v in np.asarray(cols).ravel() if v > 0)
    n = sum(rows)
    fx, fy = Side("fixed", n, len(rows), rows), Side("fixed", n, len(cols), cols)
    if model == "perm":
        return fx, fy
    kind = "num" if model.startswith("num") else "all"
    rx, ry = Side(kind, n, len(rows)), Side(kind, n, len(cols))
    if model in ("num", "all"):
        return rx, ry
    return (fx, ry) if reference == "x" else (rx, fy)


def block_size_law(side: Side):
    """(sizes, N): the block sizes a side can have and the expected number of blocks of each
    size (negligible sizes left out)."""
    n = side.n
    if side.kind == "fixed":
        sizes, counts = np.unique(np.asarray(side.sizes, dtype=np.int64), return_counts=True)
        return sizes, counts.astype(float)
    if side.kind == "num":
        a = np.arange(1, n - side.k + 2, dtype=np.int64)
        lS = log_stirling2(n, side.k)
        logN = log_binomial(n, a) + lS[n - a, side.k - 1] - lS[n, side.k]
    else:
        a = np.arange(1, n + 1, dtype=np.int64)
        lB = log_bell(n)
        logN = log_binomial(n, a) + lB[n - a] - lB[n]
    keep = logN > logN.max() - _LOG_NEGLIGIBLE
    return a[keep], np.exp(logN[keep])


def mean_sums(x: Side, y: Side) -> dict:
    """The expected sums of the pair and information states under independent sides:
    a11, p, q (pair counts) and hx, hy, mi (entropies and MI, nats), with n."""
    n = x.n
    sa, wa = block_size_law(x)
    sb, wb = block_size_law(y)
    T = n * (n - 1) / 2
    p = float((wa * sa * (sa - 1)).sum() / 2)
    q = float((wb * sb * (sb - 1)).sum() / 2)
    hx = math.log(n) - float((wa * sa * np.log(sa)).sum()) / n
    hy = math.log(n) - float((wb * sb * np.log(sb)).sum()) / n
    return _Sums({"n": n, "a11": p * q / T if T else 0.0, "p": p, "q": q, "hx": max(hx, 0.0),
                  "hy": max(hy, 0.0)}, lambda: expected_mi_of_sizes(sa, wa, sb, wb, n))


class _Sums(dict):
    """``mean_sums``'s dict, its "mi" computed when first read: the expected MI sums a cell law
    over every pair of block sizes (9 s at n = 5,000, growing as n^2), and a pair-counting
    index (the Rand index of the agreement report's random models) never reads it."""

    def __init__(self, sums: dict, mi):
        super().__init__(sums)
        self._mi = mi

    def __missing__(self, key):
        if key != "mi":
            raise KeyError(key)
        self["mi"] = value = self._mi()
        return value


# -- exact laws by enumeration ----------------------------------------------------------------

def _integer_partitions(n: int, k: int | None):
    """Integer partitions of n (into exactly k parts when k is given), nonincreasing."""
    def parts(rest, count, top):
        if count == 0:
            if rest == 0:
                yield ()
            return
        if count is not None and not count <= rest <= count * top:
            return
        lo = -(-rest // count) if count else 1
        for first in range(min(top, rest - (count - 1) if count else rest), lo - 1, -1):
            for tail in parts(rest - first, count - 1 if count else None, first):
                yield (first,) + tail

    if k is not None:
        yield from parts(n, k, n)
        return
    for kk in range(1, n + 1):
        yield from parts(n, kk, n)


def _profiles(side: Side, limit: int):
    """The block-size profiles of a side (a list), or None when there are more than limit."""
    if side.kind == "fixed":
        return [tuple(sorted(side.sizes, reverse=True))]
    if side.n > 60 and not (side.kind == "num" and side.k in (1, side.n - 1, side.n)):
        return None  # far too many profiles to list (p(60) ~ 10^6)
    out = []
    for prof in _integer_partitions(side.n, side.k if side.kind == "num" else None):
        out.append(prof)
        if len(out) > limit:
            return None
    return out


def profile_pairs(x: Side, y: Side):
    """The pairs of block-size profiles (lambda of x, b of y) of the model, each with its
    probability, or None when there are too many to list (``_MAX_PROFILE_PAIRS``)."""
    px = _profiles(x, _MAX_PROFILE_PAIRS)
    py = _profiles(y, _MAX_PROFILE_PAIRS) if px is not None else None
    if px is None or py is None or len(px) * len(py) > _MAX_PROFILE_PAIRS:
        return None
    wx, wy = [_log_profile_probability(x, p) for p in px], [_log_profile_probability(y, p)
                                                          for p in py]
    return [(lam, b, math.exp(u + v)) for lam, u in zip(px, wx) for b, v in zip(py, wy)]


def _log_profile_probability(side: Side, profile) -> float:
    """log P(a side's partition has these block sizes): the number of set partitions with
    block sizes lambda, n! / (prod lambda_i! prod_s m_s!), over S(n, k) or B(n); 0 if fixed."""
    if side.kind == "fixed":
        return 0.0
    lam = np.asarray(profile, dtype=float)
    mult = np.unique(lam, return_counts=True)[1]
    return float(gammaln(side.n + 1.0) - gammaln(lam + 1.0).sum() - gammaln(mult + 1.0).sum()
                 - side.log_count)


def enumeration_size(x: Side, y: Side, indices, max_tables: int, max_work: int):
    """The profile pairs of the exact law when it is cheap to compute: at most
    ``_MAX_PROFILE_PAIRS`` pairs; for the indices of s or t, dynamic programmes whose estimated
    sizes add up to at most ``max_work``; for the others, at most ``max_tables`` tables in all.
    Otherwise None (the exact mean is then given by the closed forms, where it exists)."""
    pairs = profile_pairs(x, y)
    if pairs is None:
        return None
    stats = sorted({rec.statistic for rec in indices if rec.statistic is not None})
    work = float(_WORK_PER_PAIR * len(pairs))
    if work > max_work:
        return None
    for stat in stats:
        for lam, b, _ in pairs:
            work += estimate_dp_work(lam, b, stat, stop_above=max_work - work)
            if work > max_work:
                return None
    if all(rec.statistic is not None for rec in indices):
        return pairs
    total = 0
    for lam, b, _ in pairs:
        total += count_tables(lam, b, limit=max_tables - total)
        if total > max_tables:
            return None
    return pairs


def exact_partition_laws(x: Side, y: Side, indices, options, max_tables: int, max_work: int):
    """Exact laws of several indices under the model of sides x and y, as the mixture over the
    pairs of block-size profiles of the fixed-margins laws: given its block sizes, a uniform
    random partition is a uniform random labelling, so the table is generalized
    hypergeometric (the dynamic programme on s or t; enumeration for other indices).

    Returns {name: (values, probabilities)}."""
    pairs = enumeration_size(x, y, indices, max_tables, max_work)
    if pairs is None:
        raise ValueError(f"the exact law under this random model is too large to list (n = "
                         f"{x.n}); use method='simulation'")
    parts = {rec.name: ([], []) for rec in indices}
    for lam, b, weight in pairs:
        laws, tables = {}, None
        for rec in indices:
            opts = options[rec.name]
            if rec.statistic is not None:
                if rec.statistic not in laws:
                    laws[rec.statistic] = statistic_law(lam, b, rec.statistic, max_work)
                values, probs = laws[rec.statistic]
                values = rec.of_statistic(values, np.asarray(lam), np.asarray(b), **opts)
            else:
                if tables is None:
                    tables = enumerate_tables(lam, b, max_tables=max_tables)
                values, probs = rec.on_counts(tables[0], **opts), tables[1]
            parts[rec.name][0].append(np.asarray(values, dtype=float))
            parts[rec.name][1].append(probs * weight)
    out = {}
    for name, (vals, probs) in parts.items():
        p = np.concatenate(probs)
        if not math.isclose(p.sum(), 1.0, rel_tol=1e-9):  # pragma: no cover - a bug guard
            raise RuntimeError(f"the partition law does not sum to 1 ({p.sum()!r})")
        out[name] = (np.concatenate(vals), p / p.sum())
    return out


# -- samplers ---------------------------------------------------------------------------------

def _stirling_labels(n: int, k: int, m: int, rng) -> np.ndarray:
    """m uniform random partitions of n objects into k blocks by the Stirling recursion:
    labels (m, n), blocks ranked by their smallest object."""
    lS = log_stirling2(n, k)
    labels = np.empty((m, n), dtype=np.int64)
    blocks = np.full(m, k, dtype=np.int64)
    rows = np.arange(m)
    for obj in range(n, 0, -1):  # object obj is the largest of 1..obj
        kk = blocks
        alone = rng.random(m) < np.exp(lS[obj - 1, np.maximum(kk - 1, 0)] - lS[obj, kk])
        joined = np.floor(rng.random(m) * kk).astype(np.int64)
        labels[rows, obj - 1] = np.where(alone, kk - 1, joined)
        blocks = kk - alone
    return labels


def _surjection_labels(n: int, k: int, m: int, rng) -> np.ndarray:
    """m uniform random partitions into k blocks as uniform labellings using every label
    (rejection: each partition is k! such labellings)."""
    labels = rng.integers(0, k, size=(m, n))
    while True:
        used = np.zeros((m, k), dtype=bool)
        used[np.repeat(np.arange(m), n), labels.ravel()] = True
        bad = np.flatnonzero(~used.all(axis=1))
        if bad.size == 0:
            return labels
        labels[bad] = rng.integers(0, k, size=(bad.size, n))


def _stam_labels(n: int, m: int, rng) -> np.ndarray:
    """m uniform random partitions of n objects (Stam 1983): M urns with P(M = j) =
    j^n / (j! e B(n)), objects thrown uniformly into them (labels of empty urns unused)."""
    top = max(n, 30)
    j = np.arange(1, top + 1)
    logp = n * np.log(j) - gammaln(j + 1.0) - 1.0 - log_bell(n)[n]
    keep = logp > logp.max() - 60.0
    p = np.exp(logp[keep])
    urns = rng.choice(j[keep], size=m, p=p / p.sum())
    return np.floor(rng.random((m, n)) * urns[:, None]).astype(np.int64)


def random_partitions(side: Side, m: int, rng) -> np.ndarray:
    """m draws of a side's clustering as label arrays (m, n)."""
    n = side.n
    if side.kind == "fixed":
        codes = np.repeat(np.arange(len(side.sizes)), side.sizes)
        return np.broadcast_to(codes, (m, n))
    if side.kind == "all":
        return _stam_labels(n, m, rng)
    k = side.k
    log_accept = math.lgamma(k + 1) + side.log_count - n * math.log(k)
    if log_accept >= math.log(0.5):
        return _surjection_labels(n, k, m, rng)
    return _stirling_labels(n, k, m, rng)


def _max_blocks(side: Side) -> int:
    """The most blocks a side's draws can have (Stam's urns: the largest non-negligible M)."""
    if side.kind != "all":
        return max(side.k, 1)
    n = side.n
    j = np.arange(1, max(n, 30) + 1)
    logp = n * np.log(j) - gammaln(j + 1.0)
    return int(j[logp > logp.max() - 60.0].max())


def random_model_chunks(x: Side, y: Side, n_sim: int, rng, progress: bool = False):
    """n_sim tables of two clusterings drawn from their sides, in chunks of bounded memory:
    yields ``(start, stop, tables)``, each chunk padded with empty rows and columns when the
    number of blocks varies."""
    n = x.n
    cells = _max_blocks(x) * _max_blocks(y)
    per = max(1, min(_CHUNK_LABELS // max(n, 1), _CHUNK_CELLS // cells))
    starts = range(0, n_sim, per)
    if progress:
        from tqdm.auto import tqdm

        starts = tqdm(starts, desc="random partitions", unit="chunk")
    for start in starts:
        stop = min(n_sim, start + per)
        m = stop - start
        lx, ly = random_partitions(x, m, rng), random_partitions(y, m, rng)
        if x.kind == "fixed" and y.kind == "fixed":  # the permutation model: relabel y
            ly = rng.permuted(ly, axis=1)
        K, Q = int(lx.max()) + 1, int(ly.max()) + 1
        keys = (np.arange(m)[:, None] * (K * Q) + lx * Q + ly).ravel()
        yield start, stop, np.bincount(keys, minlength=m * K * Q).reshape(m, K, Q)


# -- the method records -----------------------------------------------------------------------

def _sides(req):
    rows, cols = req.margins
    return sides_of(req.model.name, rows, cols, req.spec.reference or "x")


def _closed_form_missing(req):
    return [rec.name for rec in req.indices if not (rec.affine_state and rec.mean_state)]


def _check_exact(req):
    x, y = _sides(req)
    if enumeration_size(x, y, req.indices, req.spec.max_tables, req.spec.max_work) is not None:
        return
    missing = _closed_form_missing(req)
    if req.auto or missing:
        what = (f"indices {missing} have no closed-form mean under model={req.model.name!r} "
                "(they are not affine in the pair counts or entropies), and " if missing
                else "")
        raise ValueError(
            f"{what}the exact law is too large to list (n = {x.n}; more than "
            f"{_MAX_PROFILE_PAIRS:,} pairs of cluster-size profiles, or more work than "
            f"max_work={req.spec.max_work:,} / max_tables={req.spec.max_tables:,}); use "
            "method='simulation'")


def _exact_law(req):
    x, y = _sides(req)
    if enumeration_size(x, y, req.indices, req.spec.max_tables, req.spec.max_work) is not None:
        laws = exact_partition_laws(x, y, req.indices, req.options, req.spec.max_tables,
                                    req.spec.max_work)
        how = "mixture over cluster-size profiles of the fixed-margins laws"
        return {rec.name: req.null_of(rec, values=laws[rec.name][0],
                                      probabilities=laws[rec.name][1],
                                      details={"algorithm": how}) for rec in req.indices}
    sums = mean_sums(x, y)
    return {rec.name: req.null_of(rec, moments={"mean": float(rec.func(
        rec.mean_state(sums), **req.options[rec.name]))},
        details={"algorithm": "closed-form mean (Stirling and Bell numbers)"})
        for rec in req.indices}


def _simulation_law(req):
    """Index values of random tables, chunk by chunk: only the values are kept."""
    x, y = _sides(req)
    return sampled_laws(req, random_model_chunks(x, y, req.n_sim, req.rng, req.spec.progress))


#: Memory per object while drawing random partitions (measured: 80-120 bytes at n = 10**6).
_BYTES_PER_OBJECT = 160


register_method(NullMethod(
    name="simulation", model="perm", title="Monte Carlo agreement test",
    description="random relabellings of y drawn under the model",
    law=_simulation_law, monte_carlo=True, default_n_sim=DEFAULT_N_SIM,
    bytes_per_object=_BYTES_PER_OBJECT,
    describe=lambda nd: f"{nd.n_sim:,} random relabellings"))
for _model in PARTITION_MODELS:
    if _model == "perm":
        continue
    register_method(NullMethod(
        name="exact", model=_model, title="Exact agreement test",
        description="the exact law by enumeration when n is small, else the exact mean "
                    "(Stirling and Bell numbers)",
        law=_exact_law, check=_check_exact,
        describe=lambda nd: nd.details.get("algorithm", "exact")))
    register_method(NullMethod(
        name="simulation", model=_model, title="Monte Carlo agreement test",
        description="uniform random partitions drawn under the model",
        law=_simulation_law, monte_carlo=True, default_n_sim=DEFAULT_N_SIM,
        bytes_per_object=_BYTES_PER_OBJECT,
        describe=lambda nd: f"{nd.n_sim:,} random partitions"))
