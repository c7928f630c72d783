#!/usr/bin/env python
"""Coverage of the weighted confidence interval (``clusteragree.intervals.weighted``): the study
that judges it.

    python benchmarks/bench_weighted_coverage.py                 # the full grid (see "Cost")
    python benchmarks/bench_weighted_coverage.py --quick         # CI: a smoke test, ~10 s
    python benchmarks/bench_weighted_coverage.py --populations moderate --ns 400 --jobs 2
    python benchmarks/bench_weighted_coverage.py --list          # populations, truths, q

``ca.confidence_interval(x, y, index=..., sample_weight=w, method=...)`` with weights that are
not all whole numbers computes the index on the table of weight sums (n_ij = the sum of the
weights of the objects in cell ij; the pair-counting indices take C(m, 2) = m (m - 1) / 2 of
real m) and its interval from a bootstrap of the objects with their weights (each resample
draws n objects with replacement and sums their weights; BCa's acceleration from the
leave-one-object-out jackknife; "auto" is BCa). This study measures how often that interval
holds the population value of the weighted index.

1. Populations (``POPULATIONS``). An object has a cell (i, j) of a K x Q table, drawn with
   probability p_ij, and a weight w drawn from a stated law, which may depend on the cell
   (``Population.cell_dependent``). A sample is n objects drawn i.i.d. A population's weights
   are never all whole numbers (with probability one), so every sample takes the weighted
   path; the survey-design weight is the two-point design {1, 4} scaled by 1/2, {0.5, 2}: the
   package reads weights that are all whole numbers, {1, 4} included, as repeated objects (a
   table of n_ij = sum of weights whose cells are resampled as if it had sum(w) objects), a
   different interval, not the one judged here. ``--whole`` adds the population
   "moderate-whole" (the same design with the weights {1, 4} themselves) to show what that
   path gives such survey weights.

2. The truth. Let mu_ij = E[w | cell ij] and m = sum_ij p_ij mu_ij = E[w]. With N = sum_k
   w_k the total weight, the law of large numbers gives n_ij / n -> p_ij mu_ij and N / n ->
   m almost surely, so the proportions of the weighted table converge,

       n_ij / N  ->  q_ij = p_ij mu_ij / sum_kl p_kl mu_kl,

   and so do its margins (to the margins of q). Only the mean of the weight in each cell
   matters (not its spread, which sets the variance only), and q = p when mu is the same in
   every cell (weights independent of the cell).

   The information indices (NMI, VI, with natural logarithms) and the other scale-free
   indices are continuous functions of the proportions n_ij / N, so the weighted index
   converges to the index of q: that is the truth.

   The pair-counting indices are not functions of the proportions alone: with a =
   sum_ij C(n_ij, 2), b = sum_i C(r_i, 2), c = sum_j C(c_j, 2) and T = C(N, 2) of real
   weight sums, a / T = (sum_ij (n_ij / N)^2 - 1 / N) / (1 - 1 / N), and likewise b / T and
   c / T, so at finite n they depend on the weights' scale through the 1 / N terms (N is
   about n m). As n grows N -> infinity, so a / T -> S = sum q_ij^2, b / T -> A = sum_i
   r_i(q)^2, c / T -> B = sum_j c_j(q)^2, and the indices, continuous functions of (a/T,
   b/T, c/T) where their denominators do not vanish, converge to their values on q: Rand = 1
   + 2S - A - B, ARI = (S - AB) / ((A + B)/2 - AB), Jaccard = S / (A + B - S), FM = S /
   sqrt(AB) (``bench_coverage.population_value``, applied to q). The truth of every index is
   therefore ``population_value(index, q)``. At finite n the weighted index of a pair count
   is off its limit by O(1 / n): the -1/N terms (scale dependent), and, unlike unit weights
   whose pair count sum n_ij (n_ij - 1) is an unbiased U-statistic of n(n-1) p_ij^2,
   E[n_ij^2 - n_ij] = n(n - 1) (p_ij mu_ij)^2 + n p_ij (E[w^2 | ij] - mu_ij), whose second
   term does not vanish for real weights. Against a sampling s.d. of order 1 / sqrt(n) this
   is negligible as n grows; the column "bias/sd" of the results shows its size at each n.
   ``tests/test_bench_weighted_coverage.py`` checks the truths against the weighted index on
   10^6 (and 10^7) objects.

3. The grid: each population x n (100, 400, 1,600) x index (adjusted_rand, rand, nmi_sum,
   fowlkes_mallows) x method (BCa, percentile, jackknife), S samples each, nominal 95%. Each
   sample's data come from its own SeedSequence and its resamples from another
   (``sample_seeds``), so a cell's samples are the same whatever else runs. The intervals of
   one sample are computed with one set of bootstrap draws for all the indices and the two
   bootstrap methods (``shared_intervals``): exactly what ``ca.confidence_interval(x, y,
   index=i, sample_weight=w, method=m, n_resamples=B, seed=default_rng(that sample's
   resampling sequence))`` returns for each (i, m), because every such call draws the same
   resamples from the same generator (``tests/test_bench_weighted_coverage.py`` checks the
   equality; ``--direct`` makes the calls themselves, one per index and method).

   Printed and written (``benchmarks/results/weighted_coverage.md`` after a full run, or
   where ``--out`` says): for each population, n, index and method, the coverage (the share
   of samples whose interval holds the truth; an undefined interval counts as a miss), its
   Monte Carlo standard error sqrt(c (1 - c) / S), the median width, the shares missing
   below (truth under the interval) and above, and the estimate's bias over its s.d. across
   the samples.

Sizes: the full run has S = 1,000 samples per cell (coverage s.e. 0.7 points at 95%) and B =
999 resamples. ``--quick``: n = 100 and 400, ARI and NMI, 60 samples, B = 199: a smoke test
(s.e. 2.8 points), not a measurement. The committed results/weighted_coverage.md is a reduced
run, ``--whole --jobs 2 --samples 500`` (s.e. 1.0 point at 95%), the full grid otherwise: the
machine was shared (load 5 to 9), and S = 1,000 would have taken about 20 minutes of wall time.

Cost (this machine, 2 cores shared with other work): see the results file's header for the
wall time of the run that made it; about 90% of it is n = 1,600, where each sample's
bootstrap draws 999 x 1,600 objects (``rng.multinomial`` over n objects, as the package does)
and the jackknife evaluates 1,600 leave-one-out tables per index.
"""

from __future__ import annotations

import argparse
import datetime
import math
import os
import shlex
import sys
import time
import warnings
import zlib
from dataclasses import dataclass
from typing import Callable

import numpy as np
import pandas as pd

import clusteragree as ca
from _bench import git_state, load  # noqa: E402  (script folder)
from bench_coverage import mixture, population_value  # noqa: E402
from clusteragree._validate import check_options
from clusteragree.indices import evaluate_weighted
from clusteragree.inputs import as_clusterings
from clusteragree.intervals._methods import Draws, get_interval_method
from clusteragree.intervals.weighted import CHUNK_OBJECTS, _jackknife

LEVEL = 0.95
SEED = 20251
HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")
RESULT_FILE = "weighted_coverage.md"

INDICES = ("adjusted_rand", "rand", "nmi_sum", "fowlkes_mallows")
QUICK_INDICES = ("adjusted_rand", "nmi_sum")
METHODS = ("BCa", "percentile", "jackknife")
NS = (100, 400, 1600)
QUICK_NS = (100, 400)
SHORT = {"adjusted_rand": "ARI", "rand": "Rand", "jaccard": "Jaccard",
         "fowlkes_mallows": "FM", "nmi_sum": "NMI", "variation_of_information": "VI",
         "adjusted_mutual_info": "AMI"}


# -- populations ---------------------------------------------------------------------------------

def _lognormal_mean(mu, sigma):
    return math.exp(mu + sigma ** 2 / 2)


@dataclass(frozen=True)
class Population:
    """Objects with a cell (i, j) drawn from p and a weight from ``draw(a, b, rng)`` (a, b:
    the objects' rows and columns), whose mean in cell ij is ``mean_weight[i, j]``."""

    name: str
    p: np.ndarray
    weights: str  # the weight law, in words
    label: str  # the weight law, short (the coverage table's column)
    draw: Callable
    mean_weight: np.ndarray  # E[w | ij], shape of p
    cell_dependent: bool
    note: str
    whole: bool = False  # weights all whole numbers: the package's repeated-objects path

    @property
    def shape(self) -> str:
        return f"{self.p.shape[0]} x {self.p.shape[1]}"

    @property
    def q(self) -> np.ndarray:
        """The limit of the weighted table's proportions: p_ij mu_ij / sum(p mu)."""
        pq = self.p / self.p.sum() * self.mean_weight
        return pq / pq.sum()


def _uniform(lo, hi):
    return lambda a, b, rng: rng.uniform(lo, hi, a.size)


def _two_point(low, high, p_high):
    return lambda a, b, rng: np.where(rng.random(a.size) < p_high, high, low).astype(float)


def _lognormal_by_cell(mu, sigma):
    """log w ~ Normal(mu[i, j], sigma) for an object of cell (i, j)."""
    return lambda a, b, rng: np.exp(mu[a, b] + sigma * rng.standard_normal(a.size))


P_NEAR = np.array([[0.30, 0.25], [0.20, 0.25]])  # ARI 0.010, NMI 0.007: near independence
P_MODERATE = np.array([[0.22, 0.05, 0.03], [0.04, 0.25, 0.04], [0.03, 0.04, 0.30]])
P_STRONG = mixture([0.35, 0.3, 0.2, 0.15], [0, 1, 2, 3], 0.85)
P_CELLDEP = mixture([0.4, 0.35, 0.25], [0, 1, 2], 0.8)
MU_CELLDEP = np.where(np.eye(3, dtype=bool), 0.0, math.log(2.0))  # off-diagonal: twice as heavy

POPULATIONS = {pop.name: pop for pop in (
    Population("near-indep", P_NEAR, "uniform(0.5, 2)", "U(0.5, 2)", _uniform(0.5, 2.0),
               np.full((2, 2), 1.25), False,
               "2 x 2 near independence, weights independent of the cell"),
    Population("moderate", P_MODERATE, "{0.5, 2}, P(2) = 0.3 (survey design {1, 4} / 2)", "{0.5, 2}",
               _two_point(0.5, 2.0, 0.3), np.full((3, 3), 0.95), False,
               "3 x 3 moderate agreement, a two-point survey-design weight"),
    Population("strong", P_STRONG, "lognormal(0, 0.5)", "LN(0, 0.5)",
               _lognormal_by_cell(np.zeros((4, 4)), 0.5),
               np.full((4, 4), _lognormal_mean(0, 0.5)), False,
               "4 x 4 strong agreement, lognormal weights"),
    Population("cell-dependent", P_CELLDEP,
               "lognormal(0, 0.5) on the diagonal, lognormal(log 2, 0.5) off it",
               "LN(0 | log 2, 0.5)",
               _lognormal_by_cell(MU_CELLDEP, 0.5),
               np.exp(MU_CELLDEP + 0.5 ** 2 / 2), True,
               "3 x 3 strong agreement; objects off the diagonal weigh twice as much on "
               "average, so q agrees less than p"),
)}

#: ``--whole``: the survey design with its whole weights {1, 4}: the repeated-objects path.
WHOLE = Population("moderate-whole", P_MODERATE, "{1, 4}, P(4) = 0.3 (whole: objects repeated)",
                   "{1, 4} whole",
                   _two_point(1.0, 4.0, 0.3), np.full((3, 3), 1.9), False,
                   "population moderate with the design's whole weights {1, 4}, which the "
                   "package reads as repeated objects", whole=True)


def get_population(name) -> Population:
    return WHOLE if name == WHOLE.name else POPULATIONS[name]


def truth_of(index: str, pop: Population) -> float:
    """The population value of the weighted index: the index of q (module docstring, 2.)."""
    return population_value(index, pop.q)


def draw_sample(pop: Population, n: int, rng: np.random.Generator):
    """n objects of the population: (x labels, y labels, weights)."""
    K, Q = pop.p.shape
    cells = rng.choice(K * Q, size=n, p=(pop.p / pop.p.sum()).ravel())
    a, b = cells // Q, cells % Q
    return a, b, pop.draw(a, b, rng)


def weighted_value(index: str, x, y, w) -> float:
    """The weighted index of one sample (the package's value)."""
    return float(ca.agreement(x, y, index=index, sample_weight=w))


# -- the intervals of one sample -----------------------------------------------------------------

def _crc(text: str) -> int:
    return zlib.crc32(text.encode())


def sample_seeds(seed, population, n, s):
    """(data sequence, resampling sequence) of sample s of a cell: independent of the other
    cells and of how the samples are split among processes."""
    key = (_crc(population), n, s)
    return (np.random.SeedSequence(seed, spawn_key=key + (0,)),
            np.random.SeedSequence(seed, spawn_key=key + (1,)))


def _bounds(ci):
    """(low, high) with an open bound moved to the next float inwards."""
    low, high = ci.low, ci.high
    if ci.closed in ("right", "neither"):
        low = np.nextafter(low, np.inf)
    if ci.closed in ("left", "neither"):
        high = np.nextafter(high, -np.inf)
    return float(low), float(high)


def shared_intervals(x, y, w, indices, methods, B, resample_seq, level=LEVEL):
    """Every (index, method) interval of one sample, from one set of bootstrap draws: the
    intervals ``confidence_interval`` returns for each (index, method) with the seed
    ``default_rng(resample_seq)`` (``clusteragree.intervals.weighted``'s draws, made once).
    Returns ({index: estimate}, {(index, method): (low, high)}); an index the package refuses
    on the sample or on a resample (a ValueError) gives nan."""
    table = as_clusterings(x, y, table=True, pairs=[], sample_weight=w).weighted
    if table is None:
        raise ValueError("these weights are whole numbers: the package repeats the objects")
    recs = [ca.get_index(i) for i in indices]
    opts = {r.name: check_options(None, r.options, f"index {r.name!r}") for r in recs}
    n = len(table.object_weights)
    boot_tables = None
    if any(m in ("BCa", "percentile") for m in methods):
        rng = np.random.default_rng(resample_seq)
        chunk = max(1, CHUNK_OBJECTS // n)
        parts = []
        for start in range(0, B, chunk):
            b = min(chunk, B - start)
            draws = rng.multinomial(n, np.full(n, 1.0 / n), size=b)
            parts.append(table.tables_of(draws * table.object_weights))
        boot_tables = np.concatenate(parts)
    estimates, bounds = {}, {}
    for rec in recs:
        name, o = rec.name, opts[rec.name]
        nan = (math.nan, math.nan)
        try:
            stat = float(evaluate_weighted(rec, table.counts, o))
        except ValueError:
            estimates[name] = math.nan
            bounds.update({(name, m): nan for m in methods})
            continue
        estimates[name] = stat
        boot = jack = None
        try:
            if boot_tables is not None:
                boot = evaluate_weighted(rec, boot_tables, o)
        except ValueError:
            boot = "refused"
        try:
            if any(m != "percentile" for m in methods):
                jack = _jackknife(table, rec, o)
        except ValueError:
            jack = "refused"
        for m in methods:
            if (m != "jackknife" and isinstance(boot, str)) or \
                    (m != "percentile" and isinstance(jack, str)):
                bounds[name, m] = nan
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ci = get_interval_method(m).make(
                    Draws(rec, stat, level, "objects", o, None,
                          boot if m != "jackknife" else None,
                          jack if m != "percentile" else None, None))
            bounds[name, m] = _bounds(ci)
    return estimates, bounds


def direct_intervals(x, y, w, indices, methods, B, resample_seq, level=LEVEL):
    """The same from ``ca.confidence_interval`` itself, one call per (index, method)."""
    estimates, bounds = {}, {}
    for index in indices:
        name = ca.get_index(index).name
        for m in methods:
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    ci = ca.confidence_interval(x, y, index=index, sample_weight=w, method=m,
                                                n_resamples=B, confidence_level=level,
                                                seed=np.random.default_rng(resample_seq))
                bounds[name, m] = _bounds(ci)
                estimates[name] = float(ci.statistic)
            except ValueError:
                bounds[name, m] = (math.nan, math.nan)
                estimates.setdefault(name, math.nan)
    return estimates, bounds


# -- the cells -----------------------------------------------------------------------------------

def run_chunk(pop_name, n, samples, indices, methods, B, seed=SEED, level=LEVEL, direct=False):
    """Samples ``samples`` (a range) of cell (population, n): one record per sample."""
    warnings.simplefilter("ignore")
    pop = get_population(pop_name)
    fn = direct_intervals if (direct or pop.whole) else shared_intervals
    out = []
    t0 = time.process_time()
    for s in samples:
        data_seq, resample_seq = sample_seeds(seed, pop_name, n, s)
        x, y, w = draw_sample(pop, n, np.random.default_rng(data_seq))
        est, bounds = fn(x, y, w, indices, methods, B, resample_seq, level)
        out.append({"sample": s, "estimates": est, "bounds": bounds})
    return pop_name, n, out, time.process_time() - t0


def summarise(pop_name, n, records, indices, methods):
    """One row per (index, method) of a cell."""
    pop = get_population(pop_name)
    rows = []
    S = len(records)
    for index in indices:
        truth = truth_of(index, pop)
        est = np.array([r["estimates"][index] for r in records])
        sd = np.nanstd(est, ddof=1) if S > 1 else math.nan
        bias_sd = (np.nanmean(est) - truth) / sd if sd > 0 else math.nan
        for m in methods:
            low = np.array([r["bounds"][index, m][0] for r in records])
            high = np.array([r["bounds"][index, m][1] for r in records])
            defined = np.isfinite(low) & np.isfinite(high)
            hit = defined & (low <= truth) & (truth <= high)
            cov = float(hit.mean())
            rows.append({
                "population": pop_name, "shape": pop.shape, "weights": pop.label,
                "cell_dependent": pop.cell_dependent, "n": n, "index": index, "method": m,
                "truth": truth, "samples": S, "coverage": cov,
                "coverage_se": math.sqrt(cov * (1 - cov) / S),
                "median_width": float(np.median((high - low)[defined])) if defined.any()
                else math.nan,
                "miss_below": float((defined & (truth < low)).mean()),
                "miss_above": float((defined & (truth > high)).mean()),
                "undefined": float((~defined).mean()),
                "bias_sd": float(bias_sd)})
    return rows


def run_grid(pops, ns, indices, methods, S, B, jobs=1, seed=SEED, chunk=25, direct=False,
             progress=True):
    """Every cell, its samples split into chunks run by ``jobs`` processes (joblib), with a
    progress bar. Returns (DataFrame of rows, CPU seconds in the chunks)."""
    from joblib import Parallel, delayed
    from tqdm import tqdm

    tasks = [(p, n, range(start, min(S, start + chunk))) for n in sorted(ns, reverse=True)
             for p in pops for start in range(0, S, chunk)]
    records = {(p, n): [] for p in pops for n in ns}
    cpu = 0.0
    calls = (delayed(run_chunk)(p, n, r, indices, methods, B, seed, LEVEL, direct)
             for p, n, r in tasks)
    bar = tqdm(total=len(tasks) * chunk, unit="sample", disable=not progress, file=sys.stderr)
    for p, n, out, sec in Parallel(n_jobs=jobs, return_as="generator_unordered")(calls):
        records[p, n] += out
        cpu += sec
        bar.update(len(out))
    bar.close()
    rows = []
    for p in pops:
        for n in ns:
            recs = sorted(records[p, n], key=lambda r: r["sample"])
            rows += summarise(p, n, recs, indices, methods)
    return pd.DataFrame(rows), cpu


# -- output --------------------------------------------------------------------------------------

def population_lines(pops, indices):
    out = ["| population | K x Q | weights | depend on the cell | truths (index of q) |",
           "|---|---|---|---|---|"]
    for name in pops:
        pop = get_population(name)
        truths = ", ".join(f"{SHORT.get(i, i)} {truth_of(i, pop):.4f}" for i in indices)
        out.append(f"| {name} | {pop.shape} | {pop.weights} | "
                   f"{'yes' if pop.cell_dependent else 'no'} | {truths} |")
    return out


def markdown_table(frame):
    out = ["| population | weights | n | index | method | coverage % | s.e. | median width | "
           "miss below / above % | undefined % | bias/sd |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in frame.itertuples():
        cov = f"{100 * r.coverage:.1f}"
        if r.n >= 400 and r.coverage < 0.92:
            cov = f"**{cov}**"
        out.append(f"| {r.population} | {r.weights} | {r.n} | {SHORT.get(r.index, r.index)} | "
                   f"{r.method} | {cov} | {100 * r.coverage_se:.1f} | {r.median_width:.4f} | "
                   f"{100 * r.miss_below:.1f} / {100 * r.miss_above:.1f} | "
                   f"{100 * r.undefined:.1f} | {r.bias_sd:+.2f} |")
    return out


def markdown(frame, pops, indices, header):
    return "\n".join(
        ["# Coverage of the weighted confidence interval", "", *header, "",
         "The truth of every index is its value on q_ij = p_ij E[w | ij] / sum p E[w | .], "
         "the limit of the weighted table's proportions (benchmarks/"
         "bench_weighted_coverage.py's docstring). Nominal 95%; **bold**: below 92% at "
         "n >= 400. bias/sd: (mean estimate - truth) / s.d. of the estimates over the "
         "samples. Undefined intervals count as misses.", "",
         "## Populations", "", *population_lines(pops, indices), "",
         "## Coverage", "", *markdown_table(frame)]) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="n = 100, 400; ARI and NMI; 60 samples; B = 199")
    parser.add_argument("--populations", default=None,
                        help=f"comma-separated, from {list(POPULATIONS)} (default: all)")
    parser.add_argument("--whole", action="store_true",
                        help=f"add {WHOLE.name!r}: whole weights {{1, 4}} (repeated objects)")
    parser.add_argument("--ns", default=None, help="comma-separated sample sizes")
    parser.add_argument("--indices", default=None, help="comma-separated index names")
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--samples", type=int, default=None, help="S (1000; 60 with --quick)")
    parser.add_argument("--resamples", type=int, default=None, help="B (999; 199 with --quick)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (joblib)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--direct", action="store_true",
                        help="call ca.confidence_interval once per (index, method): slower")
    parser.add_argument("--out", default=None, help="folder for weighted_coverage.md (default: "
                        "benchmarks/results after a full run; none otherwise)")
    parser.add_argument("--no-progress", action="store_true")
    parser.add_argument("--list", action="store_true", help="list the populations and exit")
    args = parser.parse_args(argv)

    pops = [p.strip() for p in args.populations.split(",")] if args.populations \
        else list(POPULATIONS)
    if args.whole:
        pops.append(WHOLE.name)
    for p in pops:
        if p not in POPULATIONS and p != WHOLE.name:
            parser.error(f"--populations: unknown {p!r}; known: {list(POPULATIONS)}")
    ns = [int(v) for v in args.ns.split(",")] if args.ns else list(QUICK_NS if args.quick
                                                                    else NS)
    indices = [ca.get_index(i.strip()).name for i in args.indices.split(",")] if args.indices \
        else list(QUICK_INDICES if args.quick else INDICES)
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    for m in methods:
        if m not in METHODS:
            parser.error(f"--methods: from {list(METHODS)}")
    S = args.samples or (60 if args.quick else 1000)
    B = args.resamples or (199 if args.quick else 999)
    if args.list:
        print("\n".join(population_lines(pops, indices)))
        for p in pops:
            print(f"\n{p}: {get_population(p).note}\n  q =\n{np.round(get_population(p).q, 4)}")
        return None

    print("Coverage of the weighted confidence interval")
    print(f"  clusteragree {ca.__version__} from {os.path.dirname(ca.__file__)}{git_state()}")
    print(f"  {len(pops)} populations x n {ns} x {len(indices)} indices x {len(methods)} "
          f"methods; S = {S} samples, B = {B}, nominal {100 * LEVEL:g}%, seed {args.seed}, "
          f"{args.jobs} process(es){', direct calls' if args.direct else ''}")
    print("  load average at start: " + load())
    start = time.perf_counter()
    frame, cpu = run_grid(pops, ns, indices, methods, S, B, args.jobs, args.seed,
                          direct=args.direct, progress=not args.no_progress)
    wall = time.perf_counter() - start
    print()
    print("\n".join(population_lines(pops, indices)))
    print()
    print("\n".join(markdown_table(frame)))
    print(f"\n  {wall:.1f} s wall, {cpu:.1f} s CPU in the samples")
    full = not (args.quick or args.populations or args.ns or args.indices or args.samples
                or args.resamples or args.direct) and args.methods == ",".join(METHODS)
    out = args.out or (RESULTS if full else None)
    if out:
        command = " ".join(["python benchmarks/bench_weighted_coverage.py",
                            *map(shlex.quote, sys.argv[1:] if argv is None else argv)])
        header = [f"Made by `{command}` on {datetime.date.today().isoformat()} (clusteragree "
                  f"{ca.__version__}{git_state()}, numpy {np.__version__}; S = {S} samples, "
                  f"B = {B}, seed {args.seed}; {wall / 60:.1f} min wall, {cpu / 60:.1f} min "
                  f"CPU on {args.jobs} process(es); load at the end: {load()})."]
        os.makedirs(out, exist_ok=True)
        path = os.path.join(out, RESULT_FILE)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(markdown(frame, pops, indices, header))
        print(f"  wrote {path}")
    return frame


if __name__ == "__main__":
    main()
