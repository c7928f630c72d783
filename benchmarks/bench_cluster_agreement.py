"""Which clusters agree, on partitions into many clusters: ``ca.cluster_agreement`` against
``ca.agreement`` (the ARI) on the same labels, in the same run.

    python benchmarks/bench_cluster_agreement.py          # K = Q = 10**4, n = 10**6
    python benchmarks/bench_cluster_agreement.py --quick  # K = Q = 2,000, n = 10**5 (CI)

Two pairs of labellings: "structured" (70% of the objects keep their cluster, 30% move at
random: most clusters have one clear partner) and "independent" (y drawn apart from x: about
n non-zero cells, the hardest case for the pairing). Both calls start from the labels, so both
count the sparse table; cluster_agreement then pairs the clusters one-to-one on the non-zero
cells (``min_weight_full_bipartite_matching``) or by majority, tests each paired cell, finds
the splits and decomposes four pair-counting indices. The ratio is cluster_agreement's time
over the ARI's.

    python benchmarks/bench_cluster_agreement.py | tee benchmarks/results/cluster_agreement.md
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import scipy

import clusteragree as ca
from _bench import best_time, fmt_s, print_header


def labels(n, K, kind, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, K, n)
    if kind == "independent":
        return x, rng.integers(0, K, n)
    return x, np.where(rng.random(n) < 0.7, x, rng.integers(0, K, n))


def stages(x, y, match):
    """Where cluster_agreement's time goes: the table, then the rest (one run each)."""
    t0 = time.perf_counter()
    tab = ca.crosstab(x, y)
    t1 = time.perf_counter()
    ca.cluster_agreement(tab, match=match)
    return t1 - t0, time.perf_counter() - t1


def run(n, K, repeats):
    print(f"\nK = Q = {K:,}, n = {n:,} (a dense table would take {8 * K * K / 1e6:,.0f} MB)")
    print(f"  {'labels':<12}{'match':<12}{'nnz':>10}{'ARI':>13}{'cluster_agreement':>20}"
          f"{'ratio':>9}{'   table + rest (one run)'}")
    for kind in ("structured", "independent"):
        x, y = labels(n, K, kind)
        nnz = ca.crosstab(x, y).nnz
        t_ari, _, ari = best_time(lambda: ca.agreement(x, y), repeats)
        for match in ("one-to-one", "majority"):
            t_ca, _, res = best_time(lambda: ca.cluster_agreement(x, y, match=match), repeats)
            t_tab, t_rest = stages(x, y, match)
            print(f"  {kind:<12}{match:<12}{nnz:>10,}{fmt_s(t_ari):>13}{fmt_s(t_ca):>20}"
                  f"{t_ca / t_ari:8.1f}x   {fmt_s(t_tab).strip()} + {fmt_s(t_rest).strip()}")
        d = res.decomposition
        part = d[d["index"] == "adjusted_rand"]
        total = float((part["weight"] * part["value"]).sum())
        print(f"  {'':<12}ARI {ari:.6f}; decomposition's sum {total:.6f} "
              f"(|difference| {abs(total - ari):.1e}); {res.n_tests:,} paired cells, "
              f"{len(res.splits):,} parts of splits and merges")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print_header("cluster_agreement on partitions into many clusters", "scipy",
                 scipy.__version__)
    if args.quick:
        run(10**5, 2000, 2)
        return
    run(10**6, 10**4, 3)


if __name__ == "__main__":
    main()
