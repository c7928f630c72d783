#!/usr/bin/env python
"""Time to build one data set of the thesis' design (clusteragree.studies.simulate.mixture) per K.

    python benchmarks/bench_simulate.py            # 5 data sets per scenario (90), ~20-30 s
    python benchmarks/bench_simulate.py --quick    # 1 per scenario (18)
    python benchmarks/bench_simulate.py --profile  # also cProfile one K = 4 data set

For each of the 18 scenarios (balance x K x separation) the first data sets of
``design(seed=1)`` are built with ``simulate_row``; printed per K: median, min and max time of
one data set, the parameter draws it needed (draws whose covariances cannot reach the target
overlap even with equal means are drawn again, as MixSim does), and the largest
|achieved - target| average overlap. Then, per separation, the achieved average overlap of one
data set is checked against a Monte Carlo estimate from its parameters (2 x 10^5 draws per
component) in standard errors, and the whole 540-data-set design is extrapolated from the
median times.
"""

from __future__ import annotations

import sys
import time

import numpy as np
from _bench import fmt_s, git_state, load, profile_top
from scipy import stats

from clusteragree.studies.simulate import THESIS_OVERLAP, design, mixture, simulate_row


def monte_carlo_overlap(info, n, rng):
    w, mu, cov = info["weights"], info["means"], info["covariances"]
    k = len(w)
    total, var = 0.0, 0.0
    for i in range(k):
        x = rng.multivariate_normal(mu[i], cov[i], size=n)
        logd = np.column_stack([np.log(w[j]) + stats.multivariate_normal.logpdf(x, mu[j], cov[j])
                                for j in range(k)])
        wrong = sum((logd[:, j] > logd[:, i]).astype(float) for j in range(k) if j != i)
        total += wrong.mean()
        var += wrong.var(ddof=1) / n
    pairs = k * (k - 1) / 2
    return total / pairs, np.sqrt(var) / pairs


def main():
    quick = "--quick" in sys.argv
    reps = 1 if quick else 5
    print(f"clusteragree.studies.simulate{git_state()}; load {load()}")
    rows = design(reps=reps, seed=1)
    mixture(2, "balanced", "good", n=20, seed=0)  # warm-up (imports, first quad_vec)
    records = []
    for _, row in rows.iterrows():
        t0 = time.perf_counter()
        _, _, info = simulate_row(row)
        records.append((row.k, row.scenario, time.perf_counter() - t0, info["draws"],
                        abs(info["overlap"] - info["target"])))
    print(f"\none data set (n = 500, 800, 1100; p = K), {reps} per scenario:")
    print("  K  data sets   median      min        max      draws (max)  max |overlap - target|")
    medians = {}
    for k in (2, 3, 4):
        sel = [r for r in records if r[0] == k]
        t = np.array([r[2] for r in sel])
        medians[k] = np.median(t)
        print(f"  {k}  {len(sel):9d}  {fmt_s(np.median(t))} {fmt_s(t.min())} {fmt_s(t.max())}"
              f"  {max(r[3] for r in sel):5d}        {max(r[4] for r in sel):.1e}")
    per_scenario = {}
    for r in records:
        per_scenario.setdefault(r[1], []).append(r[2])
    print("\n  per scenario (median time): " + ", ".join(
        f"{s} {np.median(v):.2f} s" for s, v in sorted(per_scenario.items())))
    total = sum(30 * 6 * medians[k] for k in (2, 3, 4))
    print(f"\n  the 540 data sets: about {total / 60:.1f} min on one core (medians x 180 per K)")

    print("\nachieved average overlap against Monte Carlo (2 x 10^5 draws per component):")
    rng = np.random.default_rng(1)
    for sep, target in THESIS_OVERLAP.items():
        _, _, info = mixture(4, "unbalanced", sep, n=40, seed=3)
        est, se = monte_carlo_overlap(info, 200_000, rng)
        print(f"  K = 4, unbalanced, {sep:8s}: target {target:.2f}, computed "
              f"{info['overlap']:.10f}, Monte Carlo {est:.5f} +- {se:.5f} "
              f"(z = {(est - info['overlap']) / se:+.2f})")
    if "--profile" in sys.argv:
        profile_top(lambda: mixture(4, "balanced", "moderate", seed=11), "one K = 4 data set")


if __name__ == "__main__":
    main()
