#!/usr/bin/env python
"""Coverage of the confidence intervals (``clusteragree.intervals.engine``): the study that judges them.

    python benchmarks/bench_coverage.py                  # the full grid (see "Cost" below)
    python benchmarks/bench_coverage.py --quick          # CI: a few cells, 100 samples, B = 199
    python benchmarks/bench_coverage.py --cells 'moderate@*,*@50' --indices ari,ami --jobs 2
    python benchmarks/bench_coverage.py --list           # the cells, their truths and sizes
    python benchmarks/bench_coverage.py --cells none --extras   # sections 2-4 below only

1. The grid. A cell is a population of cell proportions p_ij (``POPULATIONS``, each with a
   comment), a number of objects n and an index. From the population, ``--samples`` tables of
   n objects are drawn (Multinomial(n, p), one batch); each sample's bootstrap resamples are
   drawn as ``confidence_interval`` draws them (Multinomial(n, t / n) of the sample's table t,
   its empty rows and columns left out, B = 999 resamples, from the sample's own generator)
   and the indices are evaluated on all the resamples of many samples in one batch
   (``clusteragree.indices.values_on_tables``, the package's own evaluation of bootstrap tables), with the
   leave-one-object-out jackknife that BCa needs (one count out of each non-empty cell). Each
   interval method that ``confidence_interval`` offers by name (``clusteragree.intervals.engine.
   METHODS``: today "BCa" and "percentile") is then computed from the same draws by
   ``interval_from_draws``, the computation ``confidence_interval`` itself ends with, so the
   interval measured for a sample is the one ``confidence_interval(table, method=m,
   n_resamples=B, seed=that sample's generator)`` returns (``tests/test_bench_coverage.py``
   checks it). Nominal level 95%.

   Indices of tables: adjusted_rand, rand, jaccard, fowlkes_mallows, adjusted_mutual_info,
   nmi_sum, variation_of_information, at n = 50, 200, 1,000 and 10,000. One fuzzy index (agri)
   and one index of similarity matrices (ari_mm) at n = 200, on the population models below.

   The truth an interval targets is the index of the population: its limit on the table N p
   as N grows, which is what ``confidence_interval`` names as its target. For the table
   indices it is computed exactly from p (``population_value``): the pair-counting indices
   from S = sum p_ij^2, A = sum r_i^2 and B = sum c_j^2 (r, c the margins: Rand = 1 + 2S - A
   - B, ARI = (S - AB) / ((A + B)/2 - AB), Jaccard = S / (A + B - S), Fowlkes-Mallows =
   S / sqrt(AB)), the information indices from the entropies (natural logarithms: NMI = 2 MI /
   (H(x) + H(y)), VI = H(x) + H(y) - 2 MI, and AMI = NMI, its expected mutual information
   vanishing as N grows). ``tests/test_bench_coverage.py`` checks each against
   ``ca.agreement`` on rint(10^8 p).

   Fuzzy clusterings (agri): each object's population cell (i, j) is drawn from p_ij; its
   memberships in x are a Dirichlet row of mean 0.7 e_i + 0.3 / K and concentration 10 (so
   about 0.8 in its own cluster), in y likewise around e_j, all independently. On memberships
   whose rows sum to 1, agri = 1 - D / D0 with D the mean over pairs of objects of |J^x - J^y|
   (J = U U^T, the pair's co-membership) and D0 the mean over two pairs of it (the package's
   exact permutation mean), so its population value is 1 - E|J^x_12 - J^y_12| / E|J^x_12 -
   J^y_34| over independent objects 1-4: 0 exactly for independent p (then J^x_12 and J^y_12
   are independent), and otherwise computed once per run by Monte Carlo on 2 x 10^7 objects
   (its Monte Carlo standard error, printed with ``--list``, is below 2 x 10^-4). The
   bootstrap of a pair index resamples the objects (the rows of the memberships), as the
   package does (``rng.integers(0, n, n)`` per resample); the benchmark evaluates agri on
   all the resamples at once from the multiplicities of the objects (an exact rewriting of
   the package's formula, checked against ``ca.agreement`` on the resampled objects).

   Similarity matrices (ari_mm): each object's cell (i, j) is drawn from p_ij, then an
   ensemble of R = 8 runs of each clustering, in which the object keeps its cluster with
   probability 0.7 and otherwise gets a uniformly drawn one; P and Q are the two ensembles'
   co-association matrices (unit diagonal). Given the cells, E[P_12] = s_ik = sum_l
   pi_i(l) pi_k(l) with pi_i = 0.7 e_i + 0.3 / K, and P_12, Q_12 are independent, so the
   population ari_mm = (E[PQ] - E[P] E[Q]) / ((E[P] + E[Q])/2 - E[P] E[Q]) is exact, with
   E[PQ] = sum p_ij p_kl s^x_ik s^y_jl, E[P] = r' S^x r, E[Q] = c' S^y c.

   Printed and written (``benchmarks/results/coverage.csv`` and ``coverage.md`` after a full
   run, or where ``--out`` says) for each population, n, index and method: the coverage (the
   share of samples whose interval holds the truth; an undefined interval, nan bounds,
   counts as a miss), its standard error sqrt(c (1 - c) / samples), the mean width of the
   defined intervals, the share of intervals that exclude their own estimate, the share
   undefined, and the shares that miss below (the truth under the interval) and above.

2-4. ``--extras``: the analytic interval of Severiano et al. (2011) for the adjusted Wallace
   coefficient against the bootstrap; the time of the multinomial bootstrap against
   ``scipy.stats.bootstrap``; what the intervals add to ``compare`` (see those functions).

Sizes: 1,000 samples per cell (the standard error of a coverage of 95% is 0.7 points), for
every n and for agri and ari_mm; B = 999 resamples. ``--quick``: n = 50 and 200 on four
populations and the 20 x 20 one at n = 200 (100 samples), agri and ari_mm on one population
(40 samples), B = 199: a smoke test (coverage s.e. 2.2 points), not a measurement.

Cost (measured on this machine, 2 cores shared with other work, ``nice -n 15``): ``--quick``
21 s. The full run, ``--jobs 2``: 49 minutes of wall time, 71 of CPU. Its table cells take
25 minutes of CPU, 3 to 125 s each except 20 x 20 (26 s at n = 50 to 13 minutes at n =
10,000, most of it AMI's expected mutual information of each resampled table, 80-180 us a
20 x 20 table); ``--indices`` without adjusted_mutual_info takes much less. Each agri and
ari_mm cell takes 11.5 minutes (agri's permutation mean is a cumulative sum over the
n(n - 1)/2 pair values, weighted anew for each resample): ``--indices`` with table indices
only runs the table cells.
"""

from __future__ import annotations

import argparse
import datetime
import fnmatch
import json
import math
import os
import shlex
import sys
import time
import warnings
import zlib
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd
import scipy
from scipy import stats

import clusteragree as ca
from _bench import best_time, fmt_s, git_state, print_header  # noqa: E402  (script folder)
from clusteragree.inputs import as_clusterings
from clusteragree.intervals import METHODS as PACKAGE_METHODS
from clusteragree.intervals import (CHUNK_CELLS, confidence_interval, independence_laws,
                                    interval_from_draws)
from clusteragree.intervals.bootstrap import acceleration, bca_levels
from clusteragree.indices import values_on_tables

LEVEL = 0.95
SEED = 20240
HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")

#: The indices of tables, in the order of the tables printed.
TABLE_INDICES = ("adjusted_rand", "rand", "jaccard", "fowlkes_mallows", "adjusted_mutual_info",
                 "nmi_sum", "variation_of_information")
#: The indices of object pairs (a fuzzy one and one of similarity matrices), at PAIR_N only.
PAIR_INDICES = ("agri", "ari_mm")
NS = (50, 200, 1000, 10000)
PAIR_N = 200
SHORT = {"adjusted_rand": "ARI", "rand": "Rand", "jaccard": "Jaccard",
         "fowlkes_mallows": "FM", "adjusted_mutual_info": "AMI", "nmi_sum": "NMI",
         "variation_of_information": "VI", "agri": "AGRI", "ari_mm": "ARImm"}


# -- populations --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Population:
    """A population of cell proportions p_ij (rows: clustering x, columns: clustering y)."""

    name: str
    p: np.ndarray
    note: str
    pairs: bool = False  # agri and ari_mm are measured on it (at n = PAIR_N)

    @property
    def shape(self) -> str:
        return f"{self.p.shape[0]} x {self.p.shape[1]}"


def mixture(r, f, weight):
    """weight D + (1 - weight) r c': D_ij = r_i if j = f(i) (x's cluster i inside y's f(i)),
    c the columns of D; between independence (0) and x nested in y (1)."""
    r = np.asarray(r, float) / np.sum(r)
    f = np.asarray(f)
    D = np.zeros((r.size, f.max() + 1))
    D[np.arange(r.size), f] = r
    return weight * D + (1 - weight) * np.outer(r, D.sum(axis=0))


POPULATIONS = {pop.name: pop for pop in (
    # Independent, equal cluster sizes on both sides: ARI's numerator has no linear term (its
    # variance is proportional to sum_a p_a (p_a - S_A)^2 = 0), so ARI converges at rate n to
    # a weighted chi-squared law; MI, NMI and VI's mutual information sit at their bound 0.
    Population("indep-balanced", np.full((2, 2), 0.25),
               "independent, equal cluster sizes on both sides"),
    # Independent, nearly balanced: the population of the measurement (and of the
    # earlier version of this benchmark).
    Population("indep-3x3", np.outer([0.3, 0.3, 0.4], [0.25, 0.35, 0.4]),
               "independent, nearly balanced margins", pairs=True),
    # Independent, unequal sizes on both sides: ARI is asymptotically normal at rate sqrt(n)
    # (the linear term is there); MI still at its bound.
    Population("indep-unbalanced", np.outer([0.6, 0.3, 0.1], [0.5, 0.3, 0.2]),
               "independent, unbalanced margins"),
    # Independent, x balanced (5 equal clusters) and y not: one balanced side is enough to
    # remove ARI's linear term.
    Population("indep-one-balanced", np.outer(np.full(5, 0.2), [0.5, 0.25, 0.15, 0.1]),
               "independent, x balanced, y not"),
    # Moderate agreement, ARI = 0.43: a clear diagonal with spread off it.
    Population("moderate", np.array([[0.22, 0.05, 0.03], [0.04, 0.25, 0.04],
                                     [0.03, 0.04, 0.30]]),
               "moderate agreement", pairs=True),
    # High agreement, ARI = 0.70: five clusters of x, the last two merged in y, 87% of the
    # objects placed by that nesting and the rest independently.
    Population("high", mixture([0.3, 0.25, 0.2, 0.15, 0.1], [0, 1, 2, 3, 3], 0.87),
               "high agreement, x's last two clusters merged in y", pairs=True),
    # Near-perfect agreement, ARI = 0.90: 95% of the objects on the diagonal; a sample of 50
    # is often a diagonal table, and the index near its maximum 1.
    Population("near-perfect", mixture([0.3, 0.3, 0.4], [0, 1, 2], 0.95),
               "near-perfect agreement", pairs=True),
    # Many small clusters, ARI = 0.60: 20 clusters of sizes proportional to 1/(i + 4)
    # (from 13% down to 2.3%), 77% of the objects on the diagonal; at n = 50 most clusters
    # have an object or none.
    Population("many-small", mixture(1 / (np.arange(20) + 4), np.arange(20), 0.77),
               "20 small clusters on a diagonal"),
)}


# -- the truth: the index of the population ------------------------------------------------------

def _entropy(q):
    q = q[q > 0]
    return float(-(q * np.log(q)).sum())


def population_value(index: str, p: np.ndarray) -> float:
    """The index of the population proportions p: its limit on the table N p as N grows,
    exactly from p (see the module's docstring)."""
    p = np.asarray(p, float) / np.sum(p)
    r, c = p.sum(axis=1), p.sum(axis=0)
    S, A, B = float((p ** 2).sum()), float((r ** 2).sum()), float((c ** 2).sum())
    hx, hy, hxy = _entropy(r), _entropy(c), _entropy(p.ravel())
    mi = hx + hy - hxy
    values = {
        "rand": lambda: 1 + 2 * S - A - B,
        "adjusted_rand": lambda: (S - A * B) / ((A + B) / 2 - A * B),
        "jaccard": lambda: S / (A + B - S),
        "fowlkes_mallows": lambda: S / math.sqrt(A * B),
        "nmi_sum": lambda: 2 * mi / (hx + hy),
        "adjusted_mutual_info": lambda: 2 * mi / (hx + hy),
        "variation_of_information": lambda: hx + hy - 2 * mi,
    }
    if index not in values:
        raise KeyError(f"no population value for {index!r}: table indices are {list(values)}")
    value = values[index]()
    # at independence ARI, MI and NMI are 0 exactly, not a rounding error away
    if _independent(p):
        value = {"nmi_sum": 0.0, "adjusted_mutual_info": 0.0, "adjusted_rand": 0.0,
                 "variation_of_information": hx + hy}.get(index, value)
    return float(value)


# -- the models of objects for the pair indices ------------------------------------------------

FUZZY_OWN, FUZZY_CONCENTRATION = 0.7, 10.0
ENSEMBLE_RUNS, ENSEMBLE_KEEP = 8, 0.7


def object_cells(p, n, rng):
    """The population cells (x's cluster, y's cluster) of n objects drawn from p."""
    K, Q = p.shape
    cells = rng.choice(K * Q, size=n, p=(p / p.sum()).ravel())
    return cells // Q, cells % Q


def memberships(labels, K, rng):
    """Fuzzy memberships: a Dirichlet row of mean 0.7 e_label + 0.3 / K, concentration 10."""
    alpha = FUZZY_CONCENTRATION * (FUZZY_OWN * np.eye(K)[labels] + (1 - FUZZY_OWN) / K)
    g = rng.standard_gamma(alpha)
    return g / g.sum(axis=1, keepdims=True)


def coassociation_matrix(labels, K, rng):
    """The co-association matrix of an ensemble of ENSEMBLE_RUNS runs, in each of which an
    object keeps its cluster with probability 0.7 and otherwise gets a uniformly drawn one."""
    n = labels.size
    runs = np.where(rng.random((n, ENSEMBLE_RUNS)) < ENSEMBLE_KEEP, labels[:, None],
                    rng.integers(0, K, (n, ENSEMBLE_RUNS)))
    onehot = (runs[:, :, None] == np.arange(K)).reshape(n, -1).astype(float)
    return onehot @ onehot.T / ENSEMBLE_RUNS  # the share of the runs that pair each two


def pair_sample(p, n, rng):
    """One sample of n objects: (U, V) memberships for agri, (P, Q) matrices for ari_mm."""
    K, Q = p.shape
    a, b = object_cells(p, n, rng)
    return {"agri": (memberships(a, K, rng), memberships(b, Q, rng)),
            "ari_mm": (coassociation_matrix(a, K, rng), coassociation_matrix(b, Q, rng))}


def _same_label(K):
    """s_ik: the chance that objects of clusters i and k share a run's label."""
    pi = ENSEMBLE_KEEP * np.eye(K) + (1 - ENSEMBLE_KEEP) / K
    return pi @ pi.T


def ari_mm_population(p):
    """ari_mm of the ensemble model, exactly (module docstring)."""
    p = np.asarray(p, float) / np.sum(p)
    if _independent(p):
        return 0.0
    sx, sy = _same_label(p.shape[0]), _same_label(p.shape[1])
    r, c = p.sum(axis=1), p.sum(axis=0)
    ep, eq = r @ sx @ r, c @ sy @ c
    epq = float((p * (sx @ p @ sy)).sum())
    return float((epq - ep * eq) / ((ep + eq) / 2 - ep * eq))


def _abs_diff_sum(x, wx, y, wy):
    """sum_p sum_q wx_p wy_q |x_p - y_q| for each row of the weights (..., len) by sorting y
    once: O(len) per row of weights after an O(len log len) sort."""
    order = np.argsort(y, kind="stable")
    ys = y[order]
    pos = np.searchsorted(ys, x)
    wys = wy[..., order]
    zero = np.zeros(wys.shape[:-1] + (1,))
    cw = np.concatenate([zero, np.cumsum(wys, axis=-1)], axis=-1)
    cs = np.concatenate([zero, np.cumsum(wys * ys, axis=-1)], axis=-1)
    below_w, below_s = cw[..., pos], cs[..., pos]
    tot_w, tot_s = cw[..., -1:], cs[..., -1:]
    each = x * below_w - below_s + (tot_s - below_s) - x * (tot_w - below_w)
    return (wx * each).sum(axis=-1)


def _independent(p) -> bool:
    p = np.asarray(p, float) / np.sum(p)
    return bool(np.allclose(p, np.outer(p.sum(axis=1), p.sum(axis=0)), rtol=0, atol=1e-15))


#: Where agri's population values are kept once computed (they take a minute each).
AGRI_CACHE = os.path.join(RESULTS, "agri_population.json")
AGRI_OBJECTS = 4 * 10**7


def agri_monte_carlo(p, n_objects=AGRI_OBJECTS, chunk=10**6, seed=SEED):
    """(value, Monte Carlo s.e.) of agri on the fuzzy model of p: 1 - E|J^x_12 - J^y_12| /
    E|J^x_12 - J^y_34|, on chunks of objects paired (2k, 2k + 1); the denominator within a
    chunk is the mean over all its cross pairs (a U-statistic, by sorting); the s.e. from the
    spread of the chunks' ratios."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(_crc("agri"),)))
    d, d0 = [], []
    for _ in range(n_objects // chunk):
        a, b = object_cells(p, chunk, rng)
        U, V = memberships(a, p.shape[0], rng), memberships(b, p.shape[1], rng)
        jx = (U[0::2] * U[1::2]).sum(axis=1)
        jy = (V[0::2] * V[1::2]).sum(axis=1)
        d.append(np.abs(jx - jy).mean())
        ones = np.ones(jx.size)
        d0.append(_abs_diff_sum(jx, ones, jy, ones) / jx.size ** 2)
    d, d0 = np.array(d), np.array(d0)
    ratios = 1 - d / d0
    return float(1 - d.mean() / d0.mean()), float(ratios.std(ddof=1) / math.sqrt(ratios.size))


@lru_cache(maxsize=None)
def agri_population(name):
    """(value, Monte Carlo s.e.) of agri in population ``name``'s fuzzy model: 0 exactly
    for an independent p, otherwise ``agri_monte_carlo``, computed once and kept in
    AGRI_CACHE (under the population's p and the model's parameters, so a change of either
    computes it anew)."""
    p = POPULATIONS[name].p
    if _independent(p):
        return 0.0, 0.0
    key = {"p": (p / p.sum()).tolist(), "own": FUZZY_OWN,
           "concentration": FUZZY_CONCENTRATION, "objects": AGRI_OBJECTS, "seed": SEED}
    cache = {}
    if os.path.exists(AGRI_CACHE):
        with open(AGRI_CACHE, encoding="utf-8") as fh:
            cache = json.load(fh)
    entry = cache.get(name)
    if entry is None or entry["key"] != key:
        value, se = agri_monte_carlo(p / p.sum())
        entry = cache[name] = {"key": key, "value": value, "se": se}
        os.makedirs(RESULTS, exist_ok=True)
        with open(AGRI_CACHE, "w", encoding="utf-8") as fh:
            json.dump(cache, fh, indent=1, sort_keys=True)
    return entry["value"], entry["se"]


def truth_of(index, pop: Population) -> float:
    """The interval's target in population ``pop``."""
    if index == "agri":
        return agri_population(pop.name)[0]
    if index == "ari_mm":
        return ari_mm_population(pop.p)
    return population_value(index, pop.p)


# -- the pair indices on weighted resamples of the objects ---------------------------------------

def _half_quadratic(M, W):
    """(w' M w - sum_i w_i^2 M_ii) / 2 for each row w of W: the sum of M over the pairs
    i < k of distinct objects, each counted w_i w_k times: the resample's pairs as the
    package counts them (the copies of an object drawn twice form no pair)."""
    return ((W @ M) * W).sum(axis=1) / 2 - (W * W) @ np.diag(M) / 2


def _pairs_of(W):
    """The number of pairs of a resample, sum_(i<k) w_i w_k = ((sum w)^2 - sum w^2) / 2."""
    tot = W.sum(axis=1).astype(float)
    return (tot * tot - (W * W).sum(axis=1)) / 2


def ari_mm_weighted(P, Q, W):
    """ari_mm on the resamples of the objects given by their multiplicities W (rows)."""
    m = _pairs_of(W)
    t0, t1, t2 = _half_quadratic(P * Q, W), _half_quadratic(P, W), _half_quadratic(Q, W)
    t3 = t1 * t2 / m
    den = 0.5 * (t1 + t2) - t3
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den == 0, np.where((t0 == t1) & (t1 == t2), 1.0, 0.0),
                        (t0 - t3) / den)


def agri_weighted(U, V, W, chunk=8):
    """agri (memberships whose rows sum to 1) on the resamples of the objects given by their
    multiplicities W: 1 - D / D0, D the mean of |J^x - J^y| over the resample's pairs, D0 its
    mean over two pairs (the pairs i < k of distinct objects, counted w_i w_k times, as the
    package counts them: the copies of one object form no pair). D0's double sum
    sum_p sum_q c_p c_q |x_p - y_q| (c_p: the pair's multiplicity, x = J^x, y = J^y) is 2 sum_p c_p (x_p C(x_p) - S(x_p)) +
    C (S - sum_p c_p x_p), C(t) and S(t) the weight and weighted sum of the y values below
    t (cumulative sums in the order of y, sorted once) and C, S their totals."""
    Jx, Jy = U @ U.T, V @ V.T
    n = U.shape[0]
    m = _pairs_of(W)
    D = _half_quadratic(np.abs(Jx - Jy), W) / m
    iu, ju = np.triu_indices(n, k=1)
    order = np.argsort(Jy[iu, ju], kind="stable")
    iu, ju = iu[order], ju[order]
    ys, xs = Jy[iu, ju], Jx[iu, ju]
    pos = np.searchsorted(ys, xs)  # the number of y values below each x
    # the multiplicity of pair (i, j), i < j: w_i w_j
    D0 = np.empty(W.shape[0])
    cw, cs = np.zeros((chunk, ys.size + 1)), np.zeros((chunk, ys.size + 1))
    for start in range(0, W.shape[0], chunk):  # small chunks: the rows stay in cache
        w = W[start:start + chunk]
        b = w.shape[0]
        c = w[:, iu] * w[:, ju]
        np.cumsum(c, axis=1, out=cw[:b, 1:])
        np.cumsum(c * ys, axis=1, out=cs[:b, 1:])
        inner = np.einsum("bk,bk->b", c, xs * cw[:b, pos] - cs[:b, pos])
        total = 2 * inner + cw[:b, -1] * (cs[:b, -1] - c @ xs)
        D0[start:start + b] = total / m[start:start + b] ** 2
    return 1 - D / D0


PAIR_EVALUATORS = {"agri": agri_weighted, "ari_mm": ari_mm_weighted}


# -- interval methods ----------------------------------------------------------------------------

@dataclass
class Draws:
    """What an interval method sees for one sample and one index."""

    index: str
    statistic: float
    bootstrap: np.ndarray
    jackknife: tuple | None
    resampling: str
    truth: float  # for the oracle methods only (they test the harness)
    sample: int
    level: float
    law: object = None  # "auto": the sample's law under the permutation null
    table: np.ndarray | None = None  # "auto": the sample's table (table indices)


def package_method(name):
    """The package's interval ``name`` from the draws (``interval_from_draws``). An open
    bound (``closed``: "auto" leaves out the independence value when its test rejects it) is
    moved to the next float inwards, so that ``low <= truth <= high`` counts it right."""
    def method(d: Draws):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ci = interval_from_draws(d.index, d.statistic, d.bootstrap, d.jackknife,
                                     confidence_level=d.level, method=name,
                                     resampling=d.resampling, law=d.law, table=d.table)
        low, high = ci.low, ci.high
        if ci.closed in ("right", "neither"):
            low = np.nextafter(low, np.inf)
        if ci.closed in ("left", "neither"):
            high = np.nextafter(high, -np.inf)
        return low, high
    method.needs_jackknife = name != "percentile"
    method.needs_bootstrap = name in ("BCa", "percentile")
    method.needs_law = name == "auto"
    return method


def _oracle(fn):
    fn.needs_jackknife = False
    fn.needs_bootstrap = True
    fn.needs_law = False
    return fn


#: Interval methods by name: the package's, and oracles that know the truth and so have a
#: known coverage (1, 0, and 0.9 with 10% undefined): they test the harness, not the package.
METHODS = {name: package_method(name) for name in PACKAGE_METHODS}
ORACLES = {
    "oracle-cover": _oracle(lambda d: (d.truth - 1e9, d.truth + 1e9)),
    "oracle-miss": _oracle(lambda d: (d.truth + 1.0, d.truth + 1.0)),
    "oracle-90": _oracle(lambda d: (d.truth - 1e9, d.truth + 1e9) if d.sample % 10
                         else (math.nan, math.nan)),
}
ALL_METHODS = {**METHODS, **ORACLES}


# -- the cells -----------------------------------------------------------------------------------

def _crc(text: str) -> int:
    return zlib.crc32(text.encode())


def cell_sequence(seed, population, n, kind):
    """The SeedSequence of one cell: the same tables whatever else runs (other cells, other
    indices, other methods, other processes)."""
    return np.random.SeedSequence(seed, spawn_key=(_crc(population), n, _crc(kind)))


def table_seeds(seed, population, n, n_samples):
    """(the sequence of the cell's sample tables, each sample's resampling sequence)."""
    table_seq, *resample_seqs = cell_sequence(seed, population, n, "tables").spawn(n_samples + 1)
    return table_seq, resample_seqs


def object_seeds(seed, population, n, n_samples):
    """Each sample's (objects' sequence, resampling sequence)."""
    seqs = cell_sequence(seed, population, n, "objects").spawn(2 * n_samples)
    return list(zip(seqs[0::2], seqs[1::2]))


def _values(recs, opts, tables):
    """The indices on a batch of tables (``values_on_tables``); an index that refuses a table
    is nan there (its interval is then undefined, as the package's would be)."""
    try:
        return values_on_tables(recs, opts, tables)
    except ValueError:
        out = {}
        for rec in recs:
            vals = np.full(len(tables), np.nan)
            for k, t in enumerate(tables):
                try:
                    vals[k] = values_on_tables([rec], opts, t[None])[rec.name][0]
                except ValueError:
                    pass
            out[rec.name] = vals
        return out


def resample_table(table, B, rng):
    """B multinomial resamples of ``table`` drawn exactly as ``confidence_interval`` draws
    them (its empty rows and columns left out, chunks of CHUNK_CELLS cells), put back in the
    table's full shape."""
    rows, cols = np.flatnonzero(table.sum(axis=1)), np.flatnonzero(table.sum(axis=0))
    counts = table[np.ix_(rows, cols)]
    n = int(counts.sum())
    p = (counts / n).ravel()
    out = np.zeros((B, *table.shape), dtype=np.int64)
    chunk = max(1, min(B, CHUNK_CELLS // p.size))
    for start in range(0, B, chunk):
        stop = min(B, start + chunk)
        draws = rng.multinomial(n, p, size=stop - start).reshape(-1, rows.size, cols.size)
        out[start:stop, rows[:, None], cols[None, :]] = draws
    return out


def jackknife_tables(table):
    """One object out of each non-empty cell (BCa's jackknife), weighted by the cell's count,
    in the order the package takes them."""
    rows, cols = np.nonzero(table)
    tables = np.repeat(table[None], len(rows), axis=0)
    tables[np.arange(len(rows)), rows, cols] -= 1
    return tables, table[rows, cols].astype(float)


def _options(recs):
    return {r.name: dict(r.options) for r in recs}


def _intervals(methods, names, sample, statistic, boot, jack, truth, resampling, level,
               bounds, laws=None, table=None):
    """Each method's interval for one sample, into ``bounds[(index, method)]`` (low, high)."""
    for name in names:
        d = Draws(name, float(statistic[name]), boot.get(name), jack.get(name), resampling,
                  truth[name], sample, level, (laws or {}).get(name), table)
        for mname, method in methods.items():
            low, high = method(d)
            bounds[name, mname][0][sample] = low
            bounds[name, mname][1][sample] = high


def table_cell(pop_name, n, indices, n_samples, B, methods, seed=SEED, level=LEVEL,
               max_cells=2 * 10**6):
    """The intervals of the table indices on ``n_samples`` samples of n objects from the
    population: a dict with the estimates, the bounds per (index, method), the truths and
    the sample tables."""
    pop = POPULATIONS[pop_name]
    recs = [ca.get_index(i) for i in indices]
    opts = _options(recs)
    methods = {m: ALL_METHODS[m] for m in methods}
    jackknife = any(m.needs_jackknife for m in methods.values())
    bootstrap = any(m.needs_bootstrap for m in methods.values())
    needs_law = any(m.needs_law for m in methods.values())
    B = B if bootstrap else 0
    K, Q = pop.p.shape
    table_seq, resample_seqs = table_seeds(seed, pop_name, n, n_samples)
    tables = np.random.default_rng(table_seq).multinomial(
        n, pop.p.ravel() / pop.p.sum(), size=n_samples).reshape(n_samples, K, Q)
    estimates = _values(recs, opts, tables)
    truth = {r.name: truth_of(r.name, pop) for r in recs}
    bounds = {(r.name, m): (np.full(n_samples, np.nan), np.full(n_samples, np.nan))
              for r in recs for m in methods}
    per_block = max(1, max_cells // (max(B, 1) * K * Q))
    for start in range(0, n_samples, per_block):
        block = range(start, min(n_samples, start + per_block))
        boots = {}
        if bootstrap:
            boot_tables = np.concatenate([
                resample_table(tables[s], B, np.random.default_rng(resample_seqs[s]))
                for s in block])
            boots = {k: v.reshape(len(block), B) for k, v in
                     _values(recs, opts, boot_tables).items()}
            del boot_tables
        jacks = {}
        if jackknife:
            parts = [jackknife_tables(tables[s]) for s in block]
            ends = np.cumsum([len(w) for _, w in parts])
            jv = _values(recs, opts, np.concatenate([t for t, _ in parts]))
            for k, s in enumerate(block):
                lo = ends[k - 1] if k else 0
                jacks[s] = {name: (v[lo:ends[k]], parts[k][1]) for name, v in jv.items()}
        for k, s in enumerate(block):
            laws = None
            if needs_law:  # the test of independence "auto" inverts, as the package makes it
                laws = independence_laws(as_clusterings(tables[s]), recs, opts,
                                         np.random.default_rng(resample_seqs[s].spawn(1)[0]))
            _intervals(methods, list(truth), s, {name: v[s] for name, v in estimates.items()},
                       {name: v[k] for name, v in boots.items()}, jacks.get(s, {}), truth,
                       "cells", level, bounds, laws, tables[s])
    return {"estimates": estimates, "bounds": bounds, "truth": truth, "tables": tables}


def pair_cell(pop_name, n, indices, n_samples, B, methods, seed=SEED, level=LEVEL):
    """The intervals of the pair indices (agri, ari_mm) on ``n_samples`` samples of n objects
    of the population's models: the objects resampled as the package resamples them."""
    pop = POPULATIONS[pop_name]
    methods = {m: ALL_METHODS[m] for m in methods}
    jackknife = any(m.needs_jackknife for m in methods.values())
    B = B if any(m.needs_bootstrap for m in methods.values()) else 0
    seqs = object_seeds(seed, pop_name, n, n_samples)
    truth = {i: truth_of(i, pop) for i in indices}
    estimates = {i: np.full(n_samples, np.nan) for i in indices}
    bounds = {(i, m): (np.full(n_samples, np.nan), np.full(n_samples, np.nan))
              for i in indices for m in methods}
    leave_one_out = 1 - np.eye(n, dtype=np.int64)
    for s in range(n_samples):
        data = pair_sample(pop.p, n, np.random.default_rng(seqs[s][0]))
        rng = np.random.default_rng(seqs[s][1])
        W = np.stack([np.bincount(rng.integers(0, n, n), minlength=n) for _ in range(B)]
                     or [np.ones(n, dtype=np.int64)])  # no bootstrap asked: one dummy row
        stat, boot, jack, laws = {}, {}, {}, {}
        for i in indices:
            X, Y = data[i]
            stat[i] = ca.agreement(X, Y, index=i)
            estimates[i][s] = stat[i]
            boot[i] = PAIR_EVALUATORS[i](X, Y, W) if B else None
            if jackknife:
                jack[i] = (PAIR_EVALUATORS[i](X, Y, leave_one_out), np.ones(n))
            if any(m.needs_law for m in methods.values()):
                rec = ca.get_index(i)
                laws.update(independence_laws(as_clusterings(X, Y, table=False, pairs=[i]),
                                              [rec], {i: dict(rec.options)}, rng))
        _intervals(methods, indices, s, stat, boot, jack, truth, "objects", level, bounds,
                   laws)
    return {"estimates": estimates, "bounds": bounds, "truth": truth}


def summarise(pop_name, n, result, n_resamples, seconds=math.nan, resampling="cells"):
    """One row per (index, method): coverage, its s.e., width, excluded estimates, NA."""
    pop = POPULATIONS[pop_name]
    rows = []
    for (index, method), (low, high) in result["bounds"].items():
        est, truth = result["estimates"][index], result["truth"][index]
        S = low.size
        defined = np.isfinite(low) & np.isfinite(high)
        hit = defined & (low <= truth) & (truth <= high)
        cov = hit.mean()
        rows.append({
            "population": pop_name, "shape": pop.shape, "n": n, "index": index,
            "method": method, "resampling": resampling, "truth": truth, "samples": S, "resamples": n_resamples,
            "coverage": cov, "coverage_se": math.sqrt(cov * (1 - cov) / S),
            "mean_width": float(np.mean((high - low)[defined])) if defined.any() else math.nan,
            "excludes_estimate": float((defined & ~((low <= est) & (est <= high))).mean()),
            "undefined": float((~defined).mean()),
            "miss_below": float((defined & (truth < low)).mean()),
            "miss_above": float((defined & (truth > high)).mean()),
            "seconds": seconds})
    return rows


# -- the grid ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Cell:
    population: str
    n: int
    kind: str  # "tables" or "objects"
    indices: tuple
    samples: int


def grid(quick=False, samples=None, cells="*", indices=None):
    """The cells to run: each (population, n, kind) with its indices and number of samples."""
    table_idx = [i for i in TABLE_INDICES if indices is None or i in indices]
    pair_idx = [i for i in PAIR_INDICES if indices is None or i in indices]
    patterns = [c.strip() for c in cells.split(",") if c.strip()]
    out = []
    if quick:
        todo = [(p, n) for p in ("indep-balanced", "indep-unbalanced", "moderate",
                                 "near-perfect") for n in (50, 200)]
        todo.append(("many-small", 200))
        pair_pops = ("moderate",)
    else:
        todo = [(p, n) for p in POPULATIONS for n in NS]
        pair_pops = tuple(p for p, pop in POPULATIONS.items() if pop.pairs)
    for p, n in todo:
        if table_idx and any(fnmatch.fnmatchcase(f"{p}@{n}", pat) for pat in patterns):
            size = samples or (100 if quick else 1000)
            out.append(Cell(p, n, "tables", tuple(table_idx), size))
    for p in pair_pops:
        if pair_idx and any(fnmatch.fnmatchcase(f"{p}@{PAIR_N}", pat) for pat in patterns):
            out.append(Cell(p, PAIR_N, "objects", tuple(pair_idx),
                            samples or (40 if quick else 1000)))
    return out


def run_cell(cell: Cell, B, methods, seed=SEED, level=LEVEL):
    """Run one cell and summarise it (a process of the pool runs this)."""
    warnings.simplefilter("ignore")  # undefined intervals are counted, not warned about
    t0 = time.process_time()
    fn = table_cell if cell.kind == "tables" else pair_cell
    res = fn(cell.population, cell.n, cell.indices, cell.samples, B, methods, seed, level)
    return summarise(cell.population, cell.n, res, B, time.process_time() - t0,
                     "cells" if cell.kind == "tables" else "objects")


def _cost(cell: Cell, B):
    """A rough cost to start the longest cells first."""
    K, Q = POPULATIONS[cell.population].p.shape
    if cell.kind == "objects":
        return cell.samples * B * 200
    ami = "adjusted_mutual_info" in cell.indices
    return cell.samples * B * (K * Q + (5 if ami else 1) * 20 * math.log10(cell.n))


def fmt_row(rows):
    """The printed line of one (cell, index): each method's coverage, s.e., width, flags."""
    first = rows[0]
    head = (f"  {first['population']:<19}{first['shape']:>8}{first['n']:>7} "
            f"{SHORT.get(first['index'], first['index']):<8}{first['truth']:8.4f}")
    parts = []
    for r in rows:
        flags = ""
        if r["excludes_estimate"]:
            flags += f" excl {100 * r['excludes_estimate']:.1f}%"
        if r["undefined"]:
            flags += f" NA {100 * r['undefined']:.1f}%"
        parts.append(f"{r['method']}: {100 * r['coverage']:5.1f}% ({100 * r['coverage_se']:.1f})"
                     f" w {r['mean_width']:.3g}{flags}")
    return head + "   " + " | ".join(parts)


def print_rows(rows):
    frame = pd.DataFrame(rows)
    for _, group in frame.groupby(["index"], sort=False):
        print(fmt_row(group.to_dict("records")), flush=True)


def _order(frame, methods):
    pops = list(POPULATIONS)
    idx = list(TABLE_INDICES + PAIR_INDICES)
    return (frame.assign(_p=frame.population.map(pops.index), _i=frame["index"].map(idx.index),
                         _m=frame.method.map(list(methods).index))
            .sort_values(["_p", "n", "_i", "_m"]).drop(columns=["_p", "_i", "_m"])
            .reset_index(drop=True))


def target_met(row) -> bool:
    """The issue's target: 93-97% where n >= 200, at least 90% at n = 50."""
    return 0.93 <= row.coverage <= 0.97 if row.n >= 200 else row.coverage >= 0.90


#: The issue's bound on a method's mean width where the percentile interval itself covers
#: at least 93%: 1.25 times the percentile interval's.
WIDTH_BOUND = 1.25


def width_ratios(frame, method) -> pd.Series:
    """The mean width of ``method`` over the percentile interval's, in the cells (population,
    n, index) where the percentile interval covers at least 93% (empty without percentile
    rows)."""
    keys = ["population", "n", "index"]
    pct = frame[(frame.method == "percentile") & (frame.coverage >= 0.93)].set_index(keys)
    mine = frame[frame.method == method].set_index(keys)
    both = mine.index.intersection(pct.index)
    return mine.loc[both, "mean_width"] / pct.loc[both, "mean_width"]


def _summary(frame, by, methods):
    """Markdown rows: for each ``by`` value and method, the cells meeting the target, those
    below and above it, the worst cell, and the widest mean width relative to the percentile
    interval's where that covers at least 93%."""
    out = []
    for key, group in frame.groupby(by, sort=False):
        for m in methods:
            sub = group[group.method == m]
            if sub.empty:
                continue
            met = sub.apply(target_met, axis=1)
            low = (~met & (sub.coverage < np.where(sub.n >= 200, 0.93, 0.90))).sum()
            worst = sub.loc[sub.coverage.idxmin()]
            where = " ".join(str(SHORT.get(worst[c], worst[c]))
                             for c in ("population", "index", "n") if c != by)
            name = SHORT.get(key, key)
            ratios = width_ratios(group, m)
            wide = (f"{ratios.max():.2f} ({int((ratios > WIDTH_BOUND).sum())} of "
                    f"{ratios.size} > {WIDTH_BOUND})" if ratios.size else "")
            out.append(f"| {name} | {m} | {int(met.sum())} / {len(sub)} | {int(low)} | "
                       f"{int((~met).sum() - low)} | {100 * worst.coverage:.1f} ({where}) | "
                       f"{wide} |")
    return out


def markdown(frame, header_lines, methods):
    """The Markdown tables: a summary by index and by population (cells meeting the target,
    below it, above it, the worst cell), then every cell, one row per (population, n, index)
    and one column per method ("coverage (s.e.), width")."""
    out = ["# Coverage of the confidence intervals", ""] + header_lines + [""]
    target = ("The target (issue 30): coverage between 93% and 97% where n >= 200, at "
              "least 90% at n = 50; nominal 95%; a mean width at most 1.25 times the "
              "percentile interval's where that covers at least 93% (last column: the largest "
              "ratio over those cells, and how many exceed 1.25).")
    head = ["| {} | method | meet the target | below | above | worst cell (coverage %) | "
            "widest / percentile (cells > 1.25) |",
            "|---|---|---|---|---|---|---|"]
    out += ["## Summary by index", "", target, "", head[0].format("index"), head[1]]
    out += _summary(frame, "index", methods)
    out += ["", "## Summary by population", "", head[0].format("population"), head[1]]
    out += _summary(frame, "population", methods)
    out += ["", "## Every cell", "",
            "Coverage % (its s.e.) and mean width; `excl` the share of intervals that exclude "
            "their own estimate, `NA` the share undefined (counted as misses); **bold**: "
            "outside the target (93-97% where n >= 200, >= 90% at n = 50).", "",
            "| population | K x Q | n | samples | index | truth | " + " | ".join(methods) + " |",
            "|---|---|---|---|---|---|" + "---|" * len(methods)]
    for (pop, n, index), group in frame.groupby(["population", "n", "index"], sort=False):
        first = group.iloc[0]
        cols = []
        for m in methods:
            r = group[group.method == m]
            if r.empty:
                cols.append("")
                continue
            r = r.iloc[0]
            cov = f"{100 * r.coverage:.1f} ({100 * r.coverage_se:.1f})"
            if not target_met(r):
                cov = f"**{cov}**"
            extra = ""
            if r.excludes_estimate:
                extra += f", excl {100 * r.excludes_estimate:.1f}%"
            if r.undefined:
                extra += f", NA {100 * r.undefined:.1f}%"
            cols.append(f"{cov}, {r.mean_width:.3g}{extra}")
        out.append(f"| {pop} | {first['shape']} | {n} | {first.samples} | "
                   f"{SHORT.get(index, index)} | "
                   f"{first.truth:.4f} | " + " | ".join(cols) + " |")
    return "\n".join(out) + "\n"


def run_grid(cells, B, methods, jobs=1, seed=SEED, level=LEVEL, verbose=True):
    """Every cell (in ``jobs`` processes), printed as it finishes; a DataFrame of the rows."""
    rows = []
    for c in cells:  # once, here: agri's may be computed (and cached) before the pool forks
        for i in c.indices:
            truth_of(i, POPULATIONS[c.population])
    order = sorted(cells, key=lambda c: -_cost(c, B))
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            futures = [pool.submit(run_cell, c, B, methods, seed, level) for c in order]
            for fut in as_completed(futures):
                out = fut.result()
                rows += out
                if verbose:
                    print_rows(out)
    else:
        for c in order:
            out = run_cell(c, B, methods, seed, level)
            rows += out
            if verbose:
                print_rows(out)
    return _order(pd.DataFrame(rows), methods)


def _list(cells):
    print(f"  {'population':<19}{'K x Q':>8}{'n':>7}  {'kind':<8}{'samples':>8}  truths")
    for c in cells:
        pop = POPULATIONS[c.population]
        truths = ", ".join(f"{SHORT[i]} {truth_of(i, pop):.4f}" for i in c.indices)
        if "agri" in c.indices:
            truths += f" (AGRI Monte Carlo s.e. {agri_population(c.population)[1]:.1e})"
        print(f"  {c.population:<19}{pop.shape:>8}{c.n:>7}  {c.kind:<8}{c.samples:>8}  {truths}")


def write_results(frame, out, methods, merge=False):
    """coverage.csv (every row) and coverage.md (``markdown``) in ``out``; with ``merge``, the
    rows of an earlier coverage.csv there for other (population, n, index, method) are kept
    (each row names the run that made it, in column ``run``)."""
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "coverage.csv")
    if merge and os.path.exists(path):
        old = pd.read_csv(path)
        keys = ["population", "n", "index", "method"]
        new_keys = set(map(tuple, frame[keys].astype(str).values))
        keep = ~old[keys].astype(str).apply(tuple, axis=1).isin(new_keys)
        frame = pd.concat([old[keep], frame], ignore_index=True)
        methods = list(dict.fromkeys([*methods, *old.method]))
    frame = _order(frame, methods)
    frame.to_csv(path, index=False, float_format="%.6g")
    runs = [f"- {run}" for run in dict.fromkeys(frame.run)]
    header = ["Made by (the truth each interval targets is the index of the population: "
              "benchmarks/bench_coverage.py's docstring):", ""] + runs
    with open(os.path.join(out, "coverage.md"), "w", encoding="utf-8") as fh:
        fh.write(markdown(frame, header, methods))
    return path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="a few cells, 100 samples, B = 199 (under a minute)")
    parser.add_argument("--cells", default="*",
                        help="comma-separated patterns on 'population@n', e.g. 'moderate@*,*@50'")
    parser.add_argument("--indices", default=None,
                        help="comma-separated index names or aliases (default: all)")
    parser.add_argument("--methods", default=",".join(METHODS),
                        help=f"comma-separated, from {list(ALL_METHODS)}")
    parser.add_argument("--samples", type=int, default=None, help="samples per cell")
    parser.add_argument("--resamples", type=int, default=None, help="B (999; 199 with --quick)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (cells in parallel)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--out", default=None,
                        help="folder for coverage.csv and coverage.md (default: "
                             "benchmarks/results after a full, unfiltered run; none otherwise)")
    parser.add_argument("--merge", action="store_true",
                        help="keep the rows of --out's coverage.csv that this run does not redo")
    parser.add_argument("--list", action="store_true", help="list the cells and exit")
    parser.add_argument("--extras", action="store_true",
                        help="also sections 2-4: Severiano's AW interval, timing, compare")
    args = parser.parse_args(argv)
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    for m in methods:
        if m not in ALL_METHODS:
            parser.error(f"--methods: unknown method {m!r}; known: {list(ALL_METHODS)}")
    indices = None
    if args.indices:
        indices = [ca.get_index(i.strip()).name for i in args.indices.split(",") if i.strip()]
        unknown = [i for i in indices if i not in TABLE_INDICES + PAIR_INDICES]
        if unknown:
            parser.error(f"--indices: not in the study: {unknown}")
    B = args.resamples or (199 if args.quick else 999)
    cells = grid(args.quick, args.samples, args.cells, indices)
    if not cells and not args.extras:
        parser.error("no cell matches --cells and --indices (see --list)")
    if args.list:
        _list(cells)
        return None
    if not cells:  # --extras alone (e.g. --cells none --extras)
        extras(args.quick)
        return None
    print_header("Coverage of the confidence intervals", "scipy", scipy.__version__)
    print(f"  {len(cells)} cells, B = {B} resamples per interval, nominal {100 * LEVEL:g}%, "
          f"seed {args.seed}, {args.jobs} process(es); methods: {', '.join(methods)}")
    print("  per line: coverage % (its s.e.), mean width; excl: intervals excluding their "
          "estimate; NA: undefined (counted as misses)")
    print(f"  {'population':<19}{'K x Q':>8}{'n':>7} {'index':<8}{'truth':>8}")
    start = time.perf_counter()
    frame = run_grid(cells, B, methods, args.jobs, args.seed)
    wall = time.perf_counter() - start
    cpu = frame.groupby(["population", "n", "resampling"]).seconds.first().sum()
    print(f"\n  grid: {fmt_s(wall).strip()} wall, {fmt_s(cpu).strip()} CPU in the cells")
    full = not args.quick and args.cells == "*" and indices is None and args.samples is None \
        and args.resamples is None
    out = args.out or (RESULTS if full else None)
    if out:
        command = " ".join(["python benchmarks/bench_coverage.py",
                            *map(shlex.quote, sys.argv[1:] if argv is None else argv)])
        frame["run"] = (f"`{command}` on {datetime.date.today().isoformat()} (clusteragree "
                        f"{ca.__version__}{git_state()}, numpy {np.__version__}; {len(cells)} "
                        f"cells, B = {B}, seed {args.seed}, {fmt_s(wall).strip()} wall on "
                        f"{args.jobs} process(es))")
        path = write_results(frame, out, methods, args.merge)
        print(f"  wrote {path} and coverage.md")
    if args.extras:
        extras(args.quick)
    return frame


# -- 2. the adjusted Wallace coefficient and the interval of Severiano et al. (2011) ------------

def wallace_terms(tables):
    """W(x -> y) and Wi(y) of a batch of tables (B, K, Q)."""
    t = tables.astype(float)
    n = t.sum(axis=(-2, -1))
    rows, cols = t.sum(axis=-1), t.sum(axis=-2)
    pairs_x = (rows * (rows - 1)).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        W = (t * (t - 1)).sum(axis=(-2, -1)) / pairs_x
        Wi = (cols * (cols - 1)).sum(axis=-1) / (n * (n - 1))
    return W, Wi


def adjusted_wallace(tables):
    W, Wi = wallace_terms(tables)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (W - Wi) / (1 - Wi)


def aw_truth(p):
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    W, Wi = (p ** 2).sum() / (rows ** 2).sum(), (cols ** 2).sum()
    return (W - Wi) / (1 - Wi)


def severiano_interval(table, z):
    """AW(x -> y) +- z sqrt(var W) / (1 - Wi): var W = sum_i (a_i(a_i-1))^2 var(S_i) /
    (sum_i a_i(a_i-1))^2, S_i the Simpson's index of y within x's cluster i (its exact
    variance, Simpson 1949), Wi fixed."""
    t = table.astype(float)
    W, Wi = wallace_terms(t[None])
    aw = (W[0] - Wi[0]) / (1 - Wi[0])
    m = t.sum(axis=1)
    num = 0.0
    for mi, row in zip(m, t):
        if mi < 2:
            continue
        f = row / mi
        s2, s3 = (f ** 2).sum(), (f ** 3).sum()
        mm = mi * (mi - 1)
        var = (4 * mm * (mi - 2) * s3 + 2 * mm * s2 - 2 * mm * (2 * mi - 3) * s2 ** 2) / mm ** 2
        num += mm ** 2 * var
    var_w = num / (m * (m - 1)).sum() ** 2
    half = z * np.sqrt(max(var_w, 0.0)) / (1 - Wi[0])
    return aw - half, aw + half


def aw_bootstrap(table, B, rng, alpha):
    """Percentile and BCa intervals of AW from B multinomial resamples of ``table``."""
    n = int(table.sum())
    boot = adjusted_wallace(rng.multinomial(n, (table / n).ravel(), size=B)
                            .reshape(B, *table.shape))
    stat = float(adjusted_wallace(table[None])[0])
    if not np.isfinite(boot).all():
        return (np.nan, np.nan), (np.nan, np.nan)
    pct = tuple(np.quantile(boot, [alpha, 1 - alpha]))
    rows, cols = np.nonzero(table)
    jack = np.repeat(table[None], len(rows), axis=0)
    jack[np.arange(len(rows)), rows, cols] -= 1
    accel = acceleration(adjusted_wallace(jack), table[rows, cols].astype(float))
    _, lo, hi = bca_levels(boot, stat, alpha, accel)
    bca = tuple(np.quantile(boot, [lo, hi])) if np.isfinite([lo, hi]).all() else (np.nan,) * 2
    return pct, bca


def aw_cell(p, n, n_samples, B, rng, truth):
    alpha = (1 - LEVEL) / 2
    z = float(stats.norm.ppf(1 - alpha))
    out = {m: {"hit": 0, "width": [], "undefined": 0}
           for m in ("percentile", "BCa", "Severiano")}
    for _ in range(n_samples):
        table = rng.multinomial(n, p.ravel()).reshape(p.shape)
        pct, bca = aw_bootstrap(table, B, rng, alpha)
        for method, (low, high) in (("percentile", pct), ("BCa", bca),
                                    ("Severiano", severiano_interval(table, z))):
            if not np.isfinite([low, high]).all():
                out[method]["undefined"] += 1
                continue
            out[method]["hit"] += low <= truth <= high
            out[method]["width"].append(high - low)
    return out


def fmt_cell(res, n_samples):
    cov = res["hit"] / n_samples
    width = np.mean(res["width"]) if res["width"] else np.nan
    undefined = f" ({res['undefined']} undef.)" if res["undefined"] else ""
    return f"{100 * cov:6.1f}% {width:7.3f}{undefined}"


# -- 3. timing ----------------------------------------------------------------------------------

def label_statistic(K, Q):
    def statistic(x, y, axis=-1):
        x, y = np.moveaxis(x, axis, -1), np.moveaxis(y, axis, -1)
        lead, n = x.shape[:-1], x.shape[-1]
        x, y = x.reshape(-1, n), y.reshape(-1, n)
        m = x.shape[0]
        codes = np.arange(m)[:, None] * (K * Q) + x * Q + y
        tables = np.bincount(codes.ravel(), minlength=m * K * Q).reshape(m, K, Q)
        return np.asarray(ca.agreement(tables, index="adjusted_rand")).reshape(lead)
    return statistic


def timing(B):
    p = POPULATIONS["moderate"].p
    rng = np.random.default_rng(99)
    table = rng.multinomial(1000, p.ravel()).reshape(3, 3)
    cells = np.repeat(np.arange(9), table.ravel())
    x, y = cells // 3, cells % 3
    t_ours, _, ours = best_time(
        lambda: confidence_interval(table, index="adjusted_rand", n_resamples=B, seed=1), 5)
    t_scipy, _, res = best_time(
        lambda: stats.bootstrap((x, y), label_statistic(3, 3), paired=True, vectorized=True,
                                n_resamples=B, batch=1000, method="BCa",
                                rng=np.random.default_rng(1)), 3)
    print(f"\n3. Time, ARI at n = 1,000 (3 x 3), BCa, B = {B:,} (best of 5 and of 3 runs):")
    print(f"  multinomial bootstrap (confidence_interval): {fmt_s(t_ours)}  "
          f"[{ours.low:.4f}, {ours.high:.4f}]")
    print(f"  scipy.stats.bootstrap on the labels:         {fmt_s(t_scipy)}  "
          f"[{res.confidence_interval.low:.4f}, {res.confidence_interval.high:.4f}]")
    print(f"  ratio scipy / ours: {t_scipy / t_ours:.0f} x")


def compare_cost():
    """What the intervals add to ``compare``: the paired indices and the information indices
    on Statlog, 17,000 Patefield tables, with BCa intervals (9,999 resamples, one batch of
    resampled tables for all the indices) and without; and the same intervals one index at a
    time (a batch each)."""
    from clusteragree import compare, load_dataset

    tab = load_dataset("statlog_em")
    names = ["paired", "adjusted_rand", "adjusted_mutual_info", "nmi_sum",
             "variation_of_information"]
    t_with, _, df = best_time(lambda: compare(tab, indices=names, seed=1), 5)
    t_without, _, _ = best_time(lambda: compare(tab, indices=names, seed=1,
                                                interval=None), 5)
    t_each, _, _ = best_time(lambda: [confidence_interval(tab, index=i, seed=1)
                                      for i in df.index], 3)
    print(f"\n4. compare on Statlog, {len(df)} indices, 17,000 Patefield tables (best of 5):")
    print(f"  without intervals:                 {fmt_s(t_without)}")
    print(f"  with BCa intervals (one batch):    {fmt_s(t_with)}  "
          f"({t_with / t_without:.1f} x without)")
    print(f"  the {len(df)} intervals one at a time:   {fmt_s(t_each)}  "
          f"(one batch saves {t_each / max(t_with - t_without, 1e-9):.1f} x)")


def extras(quick):
    """Sections 2-4: the adjusted Wallace coefficient (Severiano et al. 2011) against the
    bootstrap on two 3 x 3 populations, the bootstrap's time, and its cost in ``compare``."""
    warnings.simplefilter("ignore")
    n_samples, ns, B = (200, (50, 200), 499) if quick else (1000, (50, 200, 1000), 999)
    rng = np.random.default_rng(SEED)
    print("\n2. Adjusted Wallace AW(x -> y): bootstrap against Severiano et al. (2011)")
    print(f"  {'population':<12}{'truth':>8}{'n':>6}   {'percentile':<22}{'BCa':<22}"
          f"{'Severiano':<22}")
    for pname in ("moderate", "indep-3x3"):
        p = POPULATIONS[pname].p
        p = p / p.sum()
        truth = aw_truth(p)
        for n in ns:
            res = aw_cell(p, n, n_samples, B, rng, truth)
            print(f"  {pname:<12}{truth:8.4f}{n:6d}   "
                  f"{fmt_cell(res['percentile'], n_samples):<22}"
                  f"{fmt_cell(res['BCa'], n_samples):<22}"
                  f"{fmt_cell(res['Severiano'], n_samples):<22}", flush=True)
    timing(9999)
    compare_cost()


if __name__ == "__main__":
    main()
