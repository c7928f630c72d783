#!/usr/bin/env python
"""Calibration, power, coverage and speed of ``ca.difference_test`` (issue 31, item 1).

    nice -n 15 python benchmarks/bench_difference.py           # full (~30 min on 2 cores)
    python benchmarks/bench_difference.py --quick              # CI: 100 data sets, n = 100

Populations. The reference has K = 4 classes of proportions 0.4 / 0.3 / 0.2 / 0.1; a is the
reference with each object's label independently replaced, with probability rho_a, by a
uniform random label of the 4, and b likewise with rho_b, independently of a given the
reference. The population's 3-way proportions are then exact,
p(i, j, k) = pi_i P(j | i; rho_a) P(k | i; rho_b) with P(j | i; rho) = (1 - rho) [i = j] + rho / 4,
so a data set of n objects is one Multinomial(n, p) 3-way table (``difference_test`` takes it
as it is). The true Delta is the difference of the two population indices, each computed by
``ca.agreement`` on the 2-way table rint(10**9 p): the pair-counting indices on N counts differ
from their population values by O(1/N) (C(N p, 2) / C(N, 2) against p^2), AMI by its expected
MI, O(K Q / N), and the rounding of 10**9 p by 1e-9 relative: all below 1e-7, against standard
errors of Delta of 0.01 to 0.1 (AMI's population value is its NMI's, which it matches to 2e-9).

Scenarios: the null rho_a = rho_b in {0.3, 0.6} (rejection rate of the two-sided 5% test over
``R`` = 2,000 data sets; its binomial s.e. 0.49%), and the alternatives rho_a = 0.3 with rho_b
= 0.4 and 0.5 (power, beside a naive paired bootstrap: B = 999 resamples of the objects, the
percentile 95% interval of Delta, reject when it leaves 0 out; on the first ``R_boot`` = 500
data sets of every scenario, the null ones too, for its level; its cost is 999 x 2 index
evaluations per data set); in every scenario the coverage of the true Delta by the 95%
interval. For the jackknife, beside the package's test (t on the bias-corrected Delta_jack
with n - 1 degrees of freedom) the same standard error with the plain Delta, with a normal
quantile, and with both, are tallied on the same data sets (the variants to try if the level
is missed); and ``method="corrected"`` (the jackknife variance less its bias, from the tables
with two objects left out) on the same data sets: what the default ``method="auto"`` takes on
these small 3-way tables (at most 64 cells). Indices: adjusted_rand, adjusted_mutual_info,
fowlkes_mallows; n in {100, 1000}.

Speed: three label vectors of 10**6 objects, 10 clusters each (a and b the reference with 30%
and 35% of the labels replaced): ``difference_test`` (best of 3, after a warm-up) beside two
``ca.agreement`` calls in the same run. Target: under 1 s.

Results: printed, and in full mode written to benchmarks/results/difference.{csv,md}.
"""

from __future__ import annotations

import argparse
import math
import os
import time
import warnings
from datetime import date

import numpy as np
import pandas as pd
from scipy import stats

import clusteragree as ca
from _bench import git_state, load  # noqa: E402  (script folder)

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")
PI = np.array([0.4, 0.3, 0.2, 0.1])
K = PI.size
INDICES = ("adjusted_rand", "adjusted_mutual_info", "fowlkes_mallows")
SCENARIOS = ((0.3, 0.3), (0.6, 0.6), (0.3, 0.4), (0.3, 0.5))
POPULATION_N = 10**9
SEED = 20261125
#: The naive bootstrap's data sets (the first of each row) and ``method="corrected"``'s, by n
#: where fewer than all: at n = 1,000 AMI's bootstrap costs 0.4 s per data set (999 expected
#: mutual informations, twice); "corrected" (0.01-0.02 s per data set) runs on all.
R_BOOT = {1000: 300}
R_CORRECTED: dict = {}


def conditional(rho: float) -> np.ndarray:
    """P(label j | reference i) when a label is replaced by a uniform one with prob. rho."""
    return (1 - rho) * np.eye(K) + rho / K


def population(rho_a: float, rho_b: float) -> np.ndarray:
    """The exact 3-way proportions p(i, j, k)."""
    return PI[:, None, None] * conditional(rho_a)[:, :, None] * conditional(rho_b)[:, None, :]


def true_delta(rho_a: float, rho_b: float, index: str) -> float:
    """The difference of the two population indices (see the module docstring)."""
    values = [ca.agreement(np.rint(POPULATION_N * PI[:, None] * conditional(r)).astype(np.int64),
                           index=index) for r in (rho_a, rho_b)]
    return float(values[0] - values[1])


def naive_bootstrap(table: np.ndarray, index: str, B: int, rng) -> tuple[float, float]:
    """The naive paired bootstrap: the objects resampled B times (a multinomial draw of the
    3-way table's cells), Delta by two ``ca.agreement`` calls on the resampled 2-way tables;
    the percentile 95% interval."""
    n = int(table.sum())
    draws = rng.multinomial(n, (table / n).ravel(), size=B).reshape(B, *table.shape)
    delta = (ca.agreement(draws.sum(axis=3), index=index)
             - ca.agreement(draws.sum(axis=2), index=index))
    lo, hi = np.quantile(delta, [0.025, 0.975])
    return float(lo), float(hi)


def one_cell(n: int, rho_a: float, rho_b: float, index: str, R: int, R_boot: int, B: int,
             R_corr: int):
    """Every tally of one (n, rho_a, rho_b, index): the naive bootstrap on the first
    ``R_boot`` data sets, ``method="corrected"`` on the first ``R_corr``."""
    rng = np.random.default_rng([SEED, n, int(100 * rho_a), int(100 * rho_b),
                                 INDICES.index(index)])
    p = population(rho_a, rho_b).ravel()
    truth = true_delta(rho_a, rho_b, index)
    q_t, q_z = stats.t.ppf(0.975, n - 1), stats.norm.ppf(0.975)
    rej = rej_plain = rej_z = rej_plain_z = cover = cover_plain = noted = na = 0
    rej_corr = cover_corr = na_corr = 0
    ses_corr = []
    boot_rej = boot_cover = 0
    deltas, ses = [], []
    start = time.perf_counter()
    for r in range(R):
        table = rng.multinomial(n, p).reshape(K, K, K)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = ca.difference_test(table, index=index, method="jackknife", seed=rng)
        noted += bool(res.note)
        if math.isnan(res.pvalue):
            na += 1
            continue
        s = res.standard_error
        deltas.append(res.statistic)
        ses.append(s)
        rej += res.pvalue < 0.05
        rej_plain += abs(res.statistic) > q_t * s
        rej_z += abs(res.estimate) > q_z * s
        rej_plain_z += abs(res.statistic) > q_z * s
        cover += res.low <= truth <= res.high
        cover_plain += abs(res.statistic - truth) <= q_t * s
        if r < R_corr:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                corr = ca.difference_test(table, index=index, method="corrected", seed=rng)
            if math.isnan(corr.pvalue):
                na_corr += 1
            else:
                rej_corr += corr.pvalue < 0.05
                cover_corr += corr.low <= truth <= corr.high
                ses_corr.append(corr.standard_error)
        if r < R_boot:
            lo, hi = naive_bootstrap(table, index, B, rng)
            boot_rej += not lo <= 0 <= hi
            boot_cover += lo <= truth <= hi
    m = R - na
    R_b = min(R, R_boot)
    return {
        "n": n, "rho_a": rho_a, "rho_b": rho_b, "index": index, "true_delta": truth,
        "data_sets": R, "na": na, "noted": noted,
        "reject": rej / m, "reject_se": math.sqrt(max(rej / m * (1 - rej / m), 1e-12) / m),
        "reject_plain_delta": rej_plain / m, "reject_normal": rej_z / m,
        "reject_plain_normal": rej_plain_z / m,
        "coverage": cover / m, "coverage_plain_delta": cover_plain / m,
        "corrected_data_sets": len(ses_corr) + na_corr,
        "reject_corrected": rej_corr / len(ses_corr),
        "coverage_corrected": cover_corr / len(ses_corr),
        "mean_se_corrected": float(np.mean(ses_corr)), "na_corrected": na_corr,
        "sd_delta": float(np.std(deltas, ddof=1)), "mean_se": float(np.mean(ses)),
        "boot_data_sets": R_b,
        "boot_reject": boot_rej / R_b if R_b else math.nan,
        "boot_coverage": boot_cover / R_b if R_b else math.nan,
        "seconds": time.perf_counter() - start,
    }


def speed(n: int = 10**6, repeats: int = 3) -> dict:
    """difference_test on three label vectors of n objects, 10 clusters each, beside two
    ``ca.agreement`` calls (best of ``repeats`` after a warm-up)."""
    rng = np.random.default_rng(SEED)
    ref = rng.integers(0, 10, n)
    a = np.where(rng.random(n) < 0.3, rng.integers(0, 10, n), ref)
    b = np.where(rng.random(n) < 0.35, rng.integers(0, 10, n), ref)

    def best(fn):
        fn()
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
        return min(times)

    out = {}
    for index in INDICES:
        out[index] = (best(lambda: ca.difference_test(ref, a, b, index=index, seed=1)),
                      best(lambda: (ca.agreement(ref, a, index=index),
                                    ca.agreement(ref, b, index=index))))
    return out


def markdown(frame: pd.DataFrame, times: dict, args, elapsed: float) -> str:
    lines = ["# difference_test: calibration, power, coverage, speed", "",
             f"Made by `python benchmarks/bench_difference.py` on {date.today()} "
             f"(clusteragree {ca.__version__}{git_state()}, numpy {np.__version__}), "
             f"{elapsed / 60:.0f} min; load average at the end: {load()}.", "",
             f"Populations: reference of K = 4 classes (0.4/0.3/0.2/0.1); a, b its labels "
             f"replaced by uniform ones with probabilities rho_a, rho_b. {args.R:,} data sets "
             f"per row (Multinomial 3-way tables); the naive paired bootstrap (B = {args.B}, "
             f"percentile) on the first {args.R_boot} of each row at n = 100 and "
             f"{R_BOOT[1000]} at n = 1,000, `method='corrected'` on all. 'reject' is the "
             "two-sided 5% test's rejection rate (the level under rho_a = rho_b, the power "
             "otherwise), with its binomial s.e.; 'coverage' that of the true Delta by the "
             "95% interval. 'plain' = t on Delta instead of the bias-corrected Delta_jack, "
             "'normal' = a normal quantile instead of t, 'both' = the two (same standard "
             "error); 'cov. plain' = the coverage of Delta -/+ t s.", "",
             "| n | index | rho_a | rho_b | true Delta | reject (s.e.) | plain | normal | both "
             "| corrected | boot reject | coverage | cov. plain | cov. corrected | boot coverage "
             "| sd(Delta) | mean s.e. | mean s.e. corrected |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for _, r in frame.iterrows():
        boot = "" if math.isnan(r.boot_reject) else f"{100 * r.boot_reject:.1f}%"
        bcov = "" if math.isnan(r.boot_coverage) else f"{100 * r.boot_coverage:.1f}%"
        lines.append(
            f"| {r.n} | {r['index']} | {r.rho_a} | {r.rho_b} | {r.true_delta:.4f} | "
            f"{100 * r.reject:.2f}% ({100 * r.reject_se:.2f}) | "
            f"{100 * r.reject_plain_delta:.2f}% | {100 * r.reject_normal:.2f}% | "
            f"{100 * r.reject_plain_normal:.2f}% | {100 * r.reject_corrected:.2f}% | {boot} | "
            f"{100 * r.coverage:.1f}% | {100 * r.coverage_plain_delta:.1f}% | "
            f"{100 * r.coverage_corrected:.1f}% | {bcov} | {r.sd_delta:.4f} | "
            f"{r.mean_se:.4f} | {r.mean_se_corrected:.4f} |")
    lines += ["", "Speed: three label vectors of 10**6 objects, 10 clusters each (best of 3):",
              "", "| index | difference_test (s) | two ca.agreement calls (s) |",
              "|---|---|---|"]
    for index, (t_diff, t_two) in times.items():
        lines.append(f"| {index} | {t_diff:.3f} | {t_two:.3f} |")
    return "\n".join(lines) + "\n"


def merge(args):
    """difference.{csv,md} from the parts (``--n``), with the speed case timed here."""
    parts = sorted(f for f in os.listdir(args.out) if f.startswith("difference_n"))
    frame = pd.concat([pd.read_csv(os.path.join(args.out, f)) for f in parts],
                      ignore_index=True).sort_values("n", kind="stable")
    start = time.perf_counter()
    times = speed(10**6, 3)
    for index, (t_diff, t_two) in times.items():
        print(f"  speed {index:21s}: difference_test {t_diff:.3f} s, two agreement calls "
              f"{t_two:.3f} s")
    frame.to_csv(os.path.join(args.out, "difference.csv"), index=False)
    elapsed = frame["seconds"].sum() + time.perf_counter() - start
    with open(os.path.join(args.out, "difference.md"), "w") as fh:
        fh.write(markdown(frame, times, args, elapsed))
    for f in parts:
        os.remove(os.path.join(args.out, f))
    print(f"  merged {parts} into {args.out}/difference.{{csv,md}}")
    return frame


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 data sets, n = 100 only")
    parser.add_argument("--out", default=RESULTS, help="folder of the results (full mode)")
    parser.add_argument("--n", type=int, action="append",
                        help="run this n only (repeatable), writing difference_n{n}.csv; "
                             "--merge then makes difference.{csv,md} from them")
    parser.add_argument("--merge", action="store_true",
                        help="merge the difference_n*.csv of --out and time the speed case")
    args = parser.parse_args(argv)
    args.R, args.R_boot, args.B = (100, 50, 199) if args.quick else (2000, 500, 999)
    if args.merge:
        return merge(args)
    ns = (100,) if args.quick else tuple(args.n or (100, 1000))
    print(f"bench_difference{' --quick' if args.quick else ''}: clusteragree {ca.__version__}"
          f"{git_state()}; load {load()}")
    start = time.perf_counter()
    rows = []
    for n in ns:
        for index in INDICES:
            for rho_a, rho_b in SCENARIOS:
                row = one_cell(n, rho_a, rho_b, index, args.R, R_BOOT.get(n, args.R_boot),
                               args.B, R_CORRECTED.get(n, args.R))
                rows.append(row)
                boot = ("" if math.isnan(row["boot_reject"]) else
                        f", boot {100 * row['boot_reject']:.1f}%")
                print(f"  n={n:5d} {index:21s} rho {rho_a}/{rho_b}: reject "
                      f"{100 * row['reject']:.2f}% (s.e. {100 * row['reject_se']:.2f}; plain "
                      f"{100 * row['reject_plain_delta']:.2f}%, normal "
                      f"{100 * row['reject_normal']:.2f}%, both "
                      f"{100 * row['reject_plain_normal']:.2f}%; corrected "
                      f"{100 * row['reject_corrected']:.2f}%){boot}, coverage "
                      f"{100 * row['coverage']:.1f}% (corrected "
                      f"{100 * row['coverage_corrected']:.1f}%), sd {row['sd_delta']:.4f} vs se "
                      f"{row['mean_se']:.4f} [{row['seconds']:.0f} s]", flush=True)
    if args.n and not args.quick:  # one part of the full run: its rows only
        os.makedirs(args.out, exist_ok=True)
        frame = pd.DataFrame(rows)
        for n in ns:
            frame[frame.n == n].to_csv(os.path.join(args.out, f"difference_n{n}.csv"),
                                       index=False)
        print(f"  written to {args.out}/difference_n*.csv")
        return frame
    times = speed(10**5 if args.quick else 10**6, 1 if args.quick else 3)
    for index, (t_diff, t_two) in times.items():
        print(f"  speed {index:21s}: difference_test {t_diff:.3f} s, two agreement calls "
              f"{t_two:.3f} s")
    frame = pd.DataFrame(rows)
    elapsed = time.perf_counter() - start
    if not args.quick:
        os.makedirs(args.out, exist_ok=True)
        frame.to_csv(os.path.join(args.out, "difference.csv"), index=False)
        with open(os.path.join(args.out, "difference.md"), "w") as fh:
            fh.write(markdown(frame, times, args, elapsed))
        print(f"  written to {args.out}/difference.{{csv,md}}")
    return frame


if __name__ == "__main__":
    main()
