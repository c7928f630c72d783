"""Partitions into many clusters: ARI, AMI, NMI and VI from labels through a sparse table,
against scikit-learn (which also counts the table sparsely), time and peak memory.

    python benchmarks/bench_sparse.py            # K = Q = 10**4, n = 10**6; then 10**5, 10**7
                                                 # (about 10 min: scikit-learn's AMI is given
                                                 # 120 s, then 300 s, to finish)
    python benchmarks/bench_sparse.py --quick    # K = Q = 2,000, n = 10**5 (CI)

Peak memory is the peak of numpy's allocations during the call (``tracemalloc``: numpy, scipy
and scikit-learn arrays are all traced), above what the labels already hold. scikit-learn's
AMI sums E[MI] over every pair of clusters (K x Q terms of a window each): it is run with a
time limit, in a child process, and reported as not finished past it.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time
import tracemalloc

import numpy as np
import sklearn
from sklearn import metrics

import clusteragree as ca
from _bench import fmt_s, print_header

OURS = {"ARI": "adjusted_rand", "AMI": "adjusted_mutual_info", "NMI": "nmi_sum",
        "VI": "variation_of_information"}


def labels(n, K, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, K, n)
    y = np.where(rng.random(n) < 0.7, x, rng.integers(0, K, n))  # 70% kept, 30% moved
    return x, y


def sk_vi(x, y):
    h = metrics.mutual_info_score
    return h(x, x) + h(y, y) - 2 * h(x, y)


SKLEARN = {"ARI": metrics.adjusted_rand_score, "AMI": metrics.adjusted_mutual_info_score,
           "NMI": metrics.normalized_mutual_info_score, "VI": sk_vi}


def measure(fn, repeats):
    best, value = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return best, peak, value


def _child(queue, name, n, K):
    x, y = labels(n, K)
    start = time.perf_counter()
    value = SKLEARN[name](x, y)
    queue.put((time.perf_counter() - start, value))


def sklearn_limited(name, n, K, limit):
    """scikit-learn in a child process, stopped after ``limit`` seconds (None: not finished)."""
    queue = mp.get_context("fork").Queue()
    proc = mp.get_context("fork").Process(target=_child, args=(queue, name, n, K))
    proc.start()
    proc.join(limit)
    if proc.is_alive():
        proc.terminate()
        proc.join()
        return None
    return queue.get()


def run(n, K, repeats, sk_limit, with_sklearn=True):
    print(f"\nK = Q = {K:,}, n = {n:,} (a dense table would take {8 * K * K / 1e6:,.0f} MB)")
    x, y = labels(n, K)
    t_tab, peak_tab, tab = measure(lambda: ca.crosstab(x, y), repeats)
    print(f"  sparse table from labels: {fmt_s(t_tab)}, peak {peak_tab / 1e6:7.1f} MB, "
          f"{tab.nnz:,} non-zero cells")
    print(f"  {'index':<6}{'clusteragree':>14}{'peak':>10}{'scikit-learn':>15}{'peak':>10}"
          f"{'sk / ours':>15}{'|difference|':>14}")
    for short, name in OURS.items():
        t_ours, peak_ours, ours = measure(lambda: ca.agreement(x, y, index=name), repeats)
        line = f"  {short:<6}{fmt_s(t_ours):>14}{peak_ours / 1e6:8.1f}MB"
        if not with_sklearn:
            print(line + "   (scikit-learn not run at this size)")
            continue
        if short == "AMI":
            res = sklearn_limited(short, n, K, sk_limit)
            if res is None:
                print(line + f"   not finished in {sk_limit:.0f} s")
                continue
            t_sk, theirs = res
            peak_sk = float("nan")
        else:
            t_sk, peak_sk, theirs = measure(lambda: SKLEARN[short](x, y), repeats)
        print(line + f"{fmt_s(t_sk):>15}{peak_sk / 1e6:8.1f}MB{t_sk / t_ours:13.1f} x"
              f"{abs(ours - theirs):14.1e}")
    return tab


def nulls(tab, n_sim):
    """The null laws a sparse table has: closed-form moments, label permutations, and what
    the default (method='auto') takes."""
    print("  null laws of the sparse table (model 'perm'):")
    t, _, res = measure(lambda: ca.agreement_test(tab, index="adjusted_rand",
                                                  method="hypergeometric"), 1)
    print(f"    ARI, closed-form moments:          {fmt_s(t)}  z = {res.zscore:.1f}")
    t, _, nd = measure(lambda: ca.nulls.null_distribution(
        tab, index="adjusted_mutual_info", method="hypergeometric"), 1)
    print(f"    AMI, closed-form mean (exact E[MI]): {fmt_s(t)}  null mean = {nd.mean:.2e}")
    t, peak, res = measure(lambda: ca.agreement_test(tab, index="adjusted_rand",
                                                     method="permutation", n_sim=n_sim,
                                                     seed=1), 1)
    print(f"    ARI, {n_sim} label permutations:    {fmt_s(t)} ({fmt_s(t / n_sim).strip()} a "
          f"draw), peak {peak / 1e6:.0f} MB, p = {res.pvalue:.3g}")
    t, _, res = measure(lambda: ca.agreement_test(tab, index="adjusted_rand", seed=1), 1)
    print(f"    ARI, default (auto) took {res.null.method!r}: {fmt_s(t)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print_header("Sparse contingency tables: many clusters", "scikit-learn", sklearn.__version__)
    if args.quick:
        nulls(run(10**5, 2000, 3, 60), 99)
        return
    nulls(run(10**6, 10**4, 3, 120), 99)
    run(10**7, 10**5, 1, 300)


if __name__ == "__main__":
    main()
