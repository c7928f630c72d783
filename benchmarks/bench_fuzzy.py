#!/usr/bin/env python
"""Benchmarks of the fuzzy-membership indices and their nulls.

    python benchmarks/bench_fuzzy.py            # full run (about a minute on 2 cores)
    python benchmarks/bench_fuzzy.py --quick    # smaller sizes

1. 13AGRI with its exact expectation for n = 4,000 fuzzy objects (m = n(n-1)/2 pairs): time and
   peak memory traced by tracemalloc, per pair.
2. 999 object permutations of NDC for n = 1,000 (the Mantel/QAP null).
3. The sort-based exact expectation E[a] = (1/m) sum_ij min(x_i, y_j) against the
   straightforward O(m^2) double sum, on a size where the latter still finishes; both values
   and their ratio of times, from the same run.
"""

from __future__ import annotations

import argparse
import os
import time
import tracemalloc

import numpy as np

import clusteragree as ca
from clusteragree.indices._pairwise import sum_of_min, upper


def best_of(fn, repeats):
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def brute_sum_of_min(x, y, chunk=2000):
    total = 0.0
    for start in range(0, len(x), chunk):
        total += np.minimum(x[start:start + chunk, None], y[None, :]).sum()
    return total


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n_agri, n_ndc, n_brute = (1500, 300, 120) if args.quick else (4000, 1000, 200)
    rng = np.random.default_rng(7)
    print(f"clusteragree fuzzy benchmark ({'quick' if args.quick else 'full'}); "
          f"load average {os.getloadavg()[0]:.2f} (2 CPUs)")

    U = rng.dirichlet(np.ones(4), n_agri)
    V = rng.dirichlet(np.ones(3), n_agri)
    m = n_agri * (n_agri - 1) // 2
    t0 = time.perf_counter()
    tracemalloc.start()
    value = ca.agreement(U, V, index="agri")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    t_agri = time.perf_counter() - t0
    print(f"\n1. 13AGRI, exact expectation, n = {n_agri:,} fuzzy objects (m = {m:,} pairs)")
    print(f"   value {value:.6f}; time {t_agri:.2f} s; peak traced memory {peak / 2**20:,.0f} MiB "
          f"= {peak / m:.0f} bytes per pair")

    U = rng.dirichlet(np.ones(4), n_ndc)
    V = rng.dirichlet(np.ones(3), n_ndc)
    t0 = time.perf_counter()
    nd = ca.nulls.null_distribution(U, V, index="ndc", method="permutation", n_sim=999, seed=1)
    t_ndc = time.perf_counter() - t0
    exact = ca.nulls.null_distribution(U, V, index="ndc", method="exact").mean
    print(f"\n2. NDC, 999 object permutations, n = {n_ndc:,}: {t_ndc:.2f} s "
          f"({t_ndc / 999 * 1e3:.1f} ms per permutation); permutation mean {nd.mean:.6f} "
          f"(s.e. {nd.mean_se:.1e}) vs exact mean {exact:.6f}")

    U = rng.dirichlet(np.ones(3), n_brute)
    V = rng.dirichlet(np.ones(3), n_brute)
    x, y = upper(U @ U.T), upper(V @ V.T)
    fast = best_of(lambda: sum_of_min(x, y), 5)
    slow = best_of(lambda: brute_sum_of_min(x, y), 1)
    a, b = sum_of_min(x, y), brute_sum_of_min(x, y)
    print(f"\n3. E[a] for n = {n_brute} (m = {len(x):,}): sorting {fast * 1e3:.2f} ms, "
          f"O(m^2) double sum {slow:.2f} s: ratio {slow / fast:,.0f}x; "
          f"relative difference {abs(a - b) / abs(b):.1e}")


if __name__ == "__main__":
    main()
