"""The table from two label vectors, and the ARI from labels, against their lower bounds and
peers: one ``np.bincount`` of precomputed keys (counting alone), ``np.bincount(x * Q + y)``
(the one-line table), genieclust's ARI (C++, one pass) and scikit-learn's ARI.

    python benchmarks/bench_crosstab.py            # n = 10**7, K = Q = 50 (about 30 s)
    python benchmarks/bench_crosstab.py --quick    # n = 10**6 (CI)

Times are the best of the repeats, all measured in one run, interleaved; peak memory is the
peak of traced allocations (tracemalloc) above the labels, in one extra call.
"""

from __future__ import annotations

import argparse
import tracemalloc

import genieclust
import numpy as np
import sklearn
from sklearn import metrics

import clusteragree as ca
from _bench import best_time, fmt_s, print_header


def labels(n, K, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, K, n)
    y = np.where(rng.random(n) < 0.5, x, rng.integers(0, K, n))
    return x, y


def peak_mb(fn):
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 2**20


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    n, K = (10**6 if args.quick else 10**7), 50
    repeats = 7
    print_header(f"Table and ARI from labels: n = {n:,}, K = Q = {K}", "genieclust",
                 genieclust.__version__ + f", scikit-learn {sklearn.__version__}")
    x, y = labels(n, K)
    keys = x * K + y
    cases = {
        "clusteragree crosstab": lambda: ca.crosstab(x, y),
        "clusteragree ARI from labels": lambda: ca.agreement(x, y, index="adjusted_rand"),
        "np.bincount(keys) (counting alone)": lambda: np.bincount(keys, minlength=K * K),
        "np.bincount(x * Q + y)": lambda: np.bincount(x * K + y, minlength=K * K),
        "genieclust ARI": lambda: genieclust.compare_partitions.adjusted_rand_score(x, y),
        "scikit-learn ARI": lambda: metrics.adjusted_rand_score(x, y),
    }
    ours = float(ca.agreement(x, y, index="adjusted_rand"))
    assert abs(ours - genieclust.compare_partitions.adjusted_rand_score(x, y)) < 1e-12
    assert (ca.crosstab(x, y).counts == np.bincount(keys, minlength=K * K).reshape(K, K)).all()
    best = {name: np.inf for name in cases}
    for _ in range(repeats):  # interleaved: each round times every case once
        for name, fn in cases.items():
            best[name] = min(best[name], best_time(fn, 1, warmup=lambda: None)[0])
    print(f"\n  {'':38s} {'time':>11s} {'peak':>9s}   ours / it (table, ARI)")
    for name, fn in cases.items():
        mb = peak_mb(fn)
        ratio = (f"{best['clusteragree crosstab'] / best[name]:5.2f}x "
                 f"{best['clusteragree ARI from labels'] / best[name]:5.2f}x")
        print(f"  {name:38s} {fmt_s(best[name])} {mb:6.1f} MB   {ratio}")
    print(f"\n  ARI = {ours:.6f} (equal to genieclust's to 1e-12)")


if __name__ == "__main__":
    main()
