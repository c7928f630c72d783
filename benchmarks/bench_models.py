#!/usr/bin/env python
"""Random models beyond fixed margins (Gates & Ahn 2017) against clusim 0.4.

    pip install clusim==0.4                       # benchmark-only: not a dependency
    python benchmarks/bench_models.py             # full run (about a minute, most of it clusim)
    python benchmarks/bench_models.py --quick     # small sizes, a few seconds

What is measured (ratios within the same run, on the same machine):

1. The exact expected mutual information under the random models ``num`` (both clusterings
   uniform over the partitions into their numbers of clusters) and ``num1`` (x fixed, y random)
   with ``ca.nulls.null_distribution(..., index="mutual_info", method="exact", model=...)``
   against clusim's ``sim.expected_mi(..., random_model=...)`` (mpmath sums), at n = 100,
   K = 5, Q = 4 (and smaller in --quick). Targets: ours in milliseconds, |difference| <= 1e-9.
   Note the conventions: clusim's one-sided models keep its *second* clustering fixed, ours keep
   x (the rows); clusim's logarithms are base 2 by default (we pass e).
2. The same at n = 5,000, K = 50, Q = 40 (clusim is not run: its sum over all pairs of cluster
   sizes with mpmath would take hours). Target: under a second.
3. The expected Rand index under every model against clusim's ``expected_rand_index``.
4. Monte Carlo: 17,000 random partitions under ``num`` (n = 1,000, K = 10, Q = 8) for the
   thesis' paired indices, and the same simulation's mean against the exact mean.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

import clusteragree as ca
from _bench import best_time, fmt_s, load, print_header  # noqa: E402  (script folder)

try:
    import clusim
    import clusim.sim as csim
    from clusim.clustering import Clustering
except ImportError:  # pragma: no cover - the peer is a benchmark-only install
    clusim = None

FULL = dict(n=100, k=5, q=4, big=(5000, 50, 40), sim=(1000, 10, 8, 17_000), repeats=5)
QUICK = dict(n=40, k=4, q=3, big=(2000, 20, 15), sim=(300, 6, 5, 2000), repeats=3)


def labels(n, k, seed):
    """A clustering of n objects into k clusters of uneven sizes."""
    rng = np.random.default_rng(seed)
    out = np.concatenate([np.arange(k), rng.choice(k, n - k, p=rng.dirichlet(np.ones(k) * 2))])
    return rng.permutation(out)


def ours_emi(x, y, model):
    return ca.nulls.null_distribution(x, y, index="mutual_info", method="exact", model=model).mean


def clusim_emi(x, y, model):
    """clusim's E[MI] in nats; its one-sided models keep clustering 2 fixed: pass x there."""
    sizes_x = np.bincount(x).tolist()
    sizes_y = np.bincount(y).tolist()
    return float(csim.expected_mi(n_elements=len(x), n_clusters1=len(sizes_y),
                                  n_clusters2=len(sizes_x), clu_size_seq1=sizes_y,
                                  clu_size_seq2=sizes_x, logbase=math.e, random_model=model))


def bench_emi(cfg, results):
    n, k, q = cfg["n"], cfg["k"], cfg["q"]
    x, y = labels(n, k, 1), labels(n, q, 2)
    print(f"\n1. Exact E[MI] (nats), n = {n}, K = {k}, Q = {q}")
    for model in ("num", "num1"):
        t_ours, r_ours, v_ours = best_time(lambda: ours_emi(x, y, model), cfg["repeats"], 10)
        line = f"   {model:5s}: ours {fmt_s(t_ours)} (best of {r_ours}) = {v_ours:.15f}"
        if clusim is None:
            print(line + "   (clusim not installed)")
            results.append((f"E[MI] {model}, n = {n}: ours", "ms", fmt_s(t_ours).strip(), None))
            continue
        t0 = time.perf_counter()
        v_cl = clusim_emi(x, y, model)
        t_cl = time.perf_counter() - t0
        diff = abs(v_ours - v_cl)
        print(line + f"\n          clusim {fmt_s(t_cl)} (one run) = {v_cl:.15f}   "
              f"clusim/ours = {t_cl / t_ours:,.0f}x   |diff| = {diff:.1e}")
        results.append((f"E[MI] {model}, n = {n}: clusim/ours", "(ratio)",
                        f"{t_cl / t_ours:,.0f}x", None))
        results.append((f"E[MI] {model}, n = {n}: |ours - clusim|", "<= 1e-9", f"{diff:.1e}",
                        diff <= 1e-9))


def bench_big(cfg, results):
    n, k, q = cfg["big"]
    x, y = labels(n, k, 3), labels(n, q, 4)
    print(f"\n2. Exact E[MI] and E[Rand] at n = {n:,}, K = {k}, Q = {q} (clusim not run)")
    for model in ("num", "num1", "all", "all1"):
        t, r, nds = best_time(lambda: ca.nulls.null_distributions(
            x, ["mutual_info", "rand"], "exact", y=y, model=model), cfg["repeats"], 20)
        ok = all(math.isfinite(nd.mean) for nd in nds.values())
        print(f"   {model:5s}: {fmt_s(t)} (best of {r})   E[MI] = {nds['mutual_info'].mean:.10f}"
              f"   E[Rand] = {nds['rand'].mean:.10f}   finite: {ok}")
        results.append((f"exact means {model}, n = {n:,}", "< 1 s", fmt_s(t).strip(),
                        t < 1.0 and ok))


def bench_rand(cfg, results):
    n, k, q = cfg["n"], cfg["k"], cfg["q"]
    x, y = labels(n, k, 1), labels(n, q, 2)
    print(f"\n3. Expected Rand index, n = {n}, K = {k}, Q = {q}")
    if clusim is None:
        print("   (clusim not installed)")
        return
    # clusim: clustering 1 is y (random in one-sided models), clustering 2 is x (fixed)
    cx, cy = Clustering(), Clustering()
    cx.from_membership_list(x.tolist())
    cy.from_membership_list(y.tolist())
    for model in ("perm", "num", "num1", "all", "all1"):
        method = "hypergeometric" if model == "perm" else "exact"  # the closed-form means
        ours = ca.nulls.null_distribution(x, y, index="rand", method=method, model=model).mean
        theirs = float(csim.expected_rand_index(
            n_elements=n, random_model=model, n_clusters1=cy.n_clusters,
            n_clusters2=cx.n_clusters, clu_size_seq1=cy.clu_size_seq,
            clu_size_seq2=cx.clu_size_seq))
        diff = abs(ours - theirs)
        print(f"   {model:5s}: ours {ours:.15f}   clusim {theirs:.15f}   |diff| = {diff:.1e}")
        results.append((f"E[Rand] {model}: |ours - clusim|", "<= 1e-12", f"{diff:.1e}",
                        diff <= 1e-12))


def bench_simulation(cfg, results):
    n, k, q, n_sim = cfg["sim"]
    x, y = labels(n, k, 5), labels(n, q, 6)
    names = list(ca.indices.GROUPS["paired"]) + ["mutual_info"]
    print(f"\n4. Simulation under num: {n_sim:,} random partition pairs, n = {n:,}, K = {k}, "
          f"Q = {q}, {len(names)} indices")
    t, r, nds = best_time(lambda: ca.nulls.null_distributions(
        x, names, "simulation", y=y, model="num", n_sim=n_sim, seed=1), 2, 60)
    exact = ca.nulls.null_distributions(x, ["rand", "mutual_info"], "exact", y=y, model="num")
    print(f"   {fmt_s(t)} (best of {r}) for all {len(names)} indices from the same partitions")
    for name in ("rand", "mutual_info"):
        z = (nds[name].mean - exact[name].mean) / nds[name].mean_se
        print(f"   {name:12s} simulated mean {nds[name].mean:.6f} +- {nds[name].mean_se:.1e}"
              f"   exact {exact[name].mean:.6f}   z = {z:+.2f}")
        results.append((f"simulated mean of {name} vs exact", "|z| < 4", f"{z:+.2f}",
                        abs(z) < 4))
    results.append((f"simulation, {n_sim:,} partitions x {len(names)} indices", "(reported)",
                    fmt_s(t).strip(), None))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1].strip())
    parser.add_argument("--quick", action="store_true", help="small sizes, a few seconds")
    args = parser.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    start = time.perf_counter()
    print_header("clusteragree random-model benchmark" + (" (--quick)" if args.quick else ""),
                 "clusim", clusim.__version__ if clusim else "not installed")
    results = []
    for bench in (bench_emi, bench_big, bench_rand, bench_simulation):
        bench(cfg, results)
    print("\n" + "=" * 96)
    print("SUMMARY")
    for what, wanted, got, ok in results:
        verdict = "info" if ok is None else ("PASS" if ok else "FAIL")
        print(f"  {what:52s} {wanted:>10s} {got:>18s}  {verdict}")
    print(f"  total run time {time.perf_counter() - start:.1f} s; load average at end: {load()}")
    print("=" * 96)
    return 0


if __name__ == "__main__":
    sys.exit(main())
