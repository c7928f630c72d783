"""Many clusterings at once: ``ca.agreement_matrix`` of ARI over every pair against separate
``ca.agreement`` calls, and its peak memory.

    python benchmarks/bench_agreement_matrix.py            # 100 clusterings of 10**6 objects
    python benchmarks/bench_agreement_matrix.py --quick    # 20 clusterings of 10**5 (CI)

The clusterings are drawn from 4 "true" partitions (10 to 30 clusters each): each object keeps
its true label with probability 0.5 to 0.95, else gets a random one. The matrix is timed once
over all K(K - 1)/2 pairs; the separate calls are timed on a sample of 100 pairs (the same for
every run) and extrapolated to all pairs (said so in the output). Peak memory: the peak of
traced allocations (tracemalloc) above the labels, in one extra call. A sample of entries is
checked against the separate calls.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np
import pandas as pd
from _bench import fmt_s, print_header

import clusteragree as ca


def clusterings(k: int, n: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    truths = [rng.integers(0, q, n) for q in rng.integers(10, 31, 4)]
    cols = {}
    for c in range(k):
        truth = truths[c % 4]
        q = int(truth.max()) + 1
        keep = rng.random(n) < rng.uniform(0.5, 0.95)
        cols[f"c{c:03d}"] = np.where(keep, truth, rng.integers(0, q, n)).astype(np.int32)
    return pd.DataFrame(cols)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    k, n = (20, 10**5) if args.quick else (100, 10**6)
    pairs = k * (k - 1) // 2
    print_header(f"agreement_matrix: {k} clusterings of n = {n:,}, all {pairs:,} pairs of ARI",
                 "pandas", pd.__version__)
    print("  here: one timed run of the matrix and of the sample of separate calls")
    df = clusterings(k, n)
    ca.agreement_matrix(df.iloc[:1000, :3])  # warm-up: imports, first calls

    t0 = time.perf_counter()
    m = ca.agreement_matrix(df, index="adjusted_rand")
    t_matrix = time.perf_counter() - t0

    rng = np.random.default_rng(1)
    all_pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    sample = [all_pairs[p] for p in rng.choice(len(all_pairs), min(100, pairs), replace=False)]
    names = list(df.columns)
    t0 = time.perf_counter()
    values = [ca.agreement(df[names[i]], df[names[j]], index="adjusted_rand")
              for i, j in sample]
    t_sample = time.perf_counter() - t0
    t_separate = t_sample / len(sample) * pairs
    worst = max(abs(m.statistic.iloc[i, j] - v) for (i, j), v in zip(sample, values))

    tracemalloc.start()
    ca.agreement_matrix(df, index="adjusted_rand")
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()

    print(f"\n  agreement_matrix, all {pairs:,} pairs      {fmt_s(t_matrix)}"
          f"   ({t_matrix / pairs * 1e3:.2f} ms a pair)")
    print(f"  separate ca.agreement calls             {fmt_s(t_separate)}   (extrapolated "
          f"from {len(sample)} calls: {fmt_s(t_sample).strip()})")
    print(f"  speed-up                                {t_separate / t_matrix:8.1f}x")
    print(f"  peak traced memory of agreement_matrix  {peak:8.1f} MB   (labels: "
          f"{df.memory_usage(deep=True).sum() / 2**20:.0f} MB as int32)")
    print(f"  largest |matrix - separate call| over the sample: {worst:.2e}")


if __name__ == "__main__":
    main()
