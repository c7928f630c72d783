#!/usr/bin/env python
"""Benchmark of the element-centric similarity against clusim 0.4 (needs ``pip install
clusim==0.4``; its .tolist() on a scipy sparse matrix is patched as in the tests).

    python benchmarks/bench_overlapping.py            # n = 10,000 partitions; covers n = 1,500
    python benchmarks/bench_overlapping.py --quick    # smaller sizes

1. Two partitions of n = 10,000 objects (30 and 40 clusters): clusteragree and clusim
   (its closed-form affinity matrices, n x n dense) timed in the same run, values compared.
2. Two overlapping covers (each object in one or two of 20 and 25 clusters): both packages at
   the largest n clusim handles here (it builds the n x n element graph as a Python list of
   lists and one personalised PageRank per distinct membership), then clusteragree alone at
   n = 10,000.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
import scipy.sparse as sp

import clusteragree as ca


def clusim_modules():
    from clusim import clusimelement, sim
    from clusim.clustering import Clustering

    class Dense:  # clusim 0.4 expects numpy matrices from sparse / dense division (old scipy)
        csr_matrix = sp.csr_matrix

        @staticmethod
        def coo_matrix(*args, **kwargs):
            return np.asmatrix(sp.coo_matrix(*args, **kwargs).toarray())

    clusimelement.spsparse = Dense
    return sim, Clustering


def cover(rng, n, k, overlap):
    U = np.zeros((n, k))
    U[np.arange(n), rng.integers(0, k, n)] = 1
    extra = rng.random(n) < overlap
    U[np.flatnonzero(extra), rng.integers(0, k, extra.sum())] = 1
    return U


def timed(fn):
    t0 = time.perf_counter()
    value = fn()
    return value, time.perf_counter() - t0


def compare(sim, Clustering, U, V, what):
    def to_clusim(W):
        return Clustering(elm2clu_dict={i: list(np.flatnonzero(W[i])) for i in range(len(W))})

    ours, t_ours = timed(lambda: ca.agreement(U, V, index="element_centric"))
    theirs, t_theirs = timed(lambda: sim.element_sim(to_clusim(U), to_clusim(V)))
    print(f"   {what}: clusteragree {t_ours:.3f} s, clusim {t_theirs:.2f} s (building its "
          f"Clustering objects included): ratio {t_theirs / t_ours:,.0f}x; values {ours:.10f} "
          f"and {theirs:.10f} (difference {abs(ours - theirs):.1e})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n_part, n_cover = (2000, 400) if args.quick else (10_000, 1500)
    rng = np.random.default_rng(13)
    sim, Clustering = clusim_modules()
    print(f"element-centric similarity benchmark ({'quick' if args.quick else 'full'}); "
          f"load average {os.getloadavg()[0]:.2f}")

    print(f"\n1. partitions, n = {n_part:,}")
    compare(sim, Clustering, cover(rng, n_part, 30, 0.0), cover(rng, n_part, 40, 0.0),
            "30 x 40 clusters")

    print(f"\n2. overlapping covers (a third of the objects in two clusters), n = {n_cover:,}")
    compare(sim, Clustering, cover(rng, n_cover, 20, 1 / 3), cover(rng, n_cover, 25, 1 / 3),
            "20 x 25 clusters")
    U, V = cover(rng, n_part, 20, 1 / 3), cover(rng, n_part, 25, 1 / 3)
    value, t = timed(lambda: ca.agreement(U, V, index="element_centric"))
    print(f"   clusteragree alone at n = {n_part:,}: {value:.6f} in {t:.3f} s")


if __name__ == "__main__":
    main()
