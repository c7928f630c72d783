#!/usr/bin/env python
"""Time of ``ca.cluster_stability``: B bootstrap resamples of k-means (scikit-learn's KMeans,
k = 5, n_init=1) on 10^5 objects, with n_jobs=1 and 2, against the same number of plain KMeans
fits on all the data (the peer, in the same run).

    python benchmarks/bench_cluster_stability.py            # B = 100, best of 3, ~3 min
    python benchmarks/bench_cluster_stability.py --quick    # B = 20, best of 2, ~40 s

The data: 10^5 objects from 5 Gaussian blobs in 8 dimensions (sklearn's make_blobs, seed 1).
Each fit uses one BLAS/OpenMP thread, the study's default (``threads=1``), and so do the plain
fits: the ratio is the study's overhead (drawing, cloning, the Jaccards) and the resamples'
size (a bootstrap holds about 63% of the objects, each once), not a difference of threads.
Results go to ``benchmarks/results/cluster_stability.md``.
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import best_time, git_state, load, print_header  # noqa: E402

import clusteragree as ca  # noqa: E402

N, P, K = 10**5, 8, 5
OUT = Path(__file__).resolve().parent / "results" / "cluster_stability.md"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="B = 20 instead of 100")
    args = parser.parse_args(argv)
    import sklearn
    from sklearn.cluster import KMeans
    from sklearn.datasets import make_blobs
    from threadpoolctl import threadpool_limits

    B = 20 if args.quick else 100
    print_header(f"cluster_stability: {B} bootstrap resamples of KMeans (k = {K}) on "
                 f"{N:,} objects", "scikit-learn", sklearn.__version__)
    X, _ = make_blobs(n_samples=N, n_features=P, centers=K, cluster_std=2.0, random_state=1)
    est = KMeans(K, n_init=1)

    def plain():
        with threadpool_limits(1):
            for i in range(B):
                KMeans(K, n_init=1, random_state=i).fit_predict(X)

    repeats = 2 if args.quick else 3
    rows = []
    t_peer, _, _ = best_time(plain, repeats, warmup=lambda: KMeans(K, n_init=1).fit(X))
    print(f"  {B} plain KMeans fits on all {N:,} objects (1 thread): {t_peer:8.2f} s")
    for jobs in (1, 2):
        # the warm-up call also starts joblib's worker processes (loky keeps them)
        t, _, res = best_time(
            lambda: ca.cluster_stability(X, est, n_resamples=B, seed=1, n_jobs=jobs,
                                         progress=False), repeats,
            warmup=lambda: ca.cluster_stability(X, est, n_resamples=2, seed=0, n_jobs=jobs,
                                                progress=False))
        rows.append((jobs, t, t / t_peer, res.summary["mean_jaccard"].round(4).tolist()))
        print(f"  cluster_stability, n_jobs={jobs}: {t:8.2f} s, {t / t_peer:5.2f} x the plain "
              f"fits; mean Jaccards {rows[-1][3]}")
    speedup = rows[0][1] / rows[1][1]
    print(f"  n_jobs=2 against n_jobs=1: {speedup:.2f} x faster")

    stamp = datetime.date.today().isoformat()
    lines = [
        "# What `ca.cluster_stability` costs beside plain k-means fits",
        "",
        f"Made by `python benchmarks/bench_cluster_stability.py{' --quick' if args.quick else ''}`"
        f" on {stamp} (clusteragree {ca.__version__}{git_state()}, numpy {np.__version__}, "
        f"scikit-learn {sklearn.__version__}); load average at the end: {load()}.",
        "",
        f"{N:,} objects from {K} Gaussian blobs in {P} dimensions (make_blobs, seed 1); "
        f"KMeans(n_clusters={K}, n_init=1), one BLAS/OpenMP thread per fit in both columns; "
        f"B = {B} bootstrap resamples (each about 63% of the objects, every distinct object "
        "once). The peer is B plain fits on all the objects, in the same run; the ratio is "
        f"the study's time over the peer's. Best of {repeats} timed runs of each, after a "
        "warm-up call (which also started joblib's worker processes).",
        "",
        "| run | n_jobs | time (s) | ratio to the plain fits | mean Jaccards |",
        "|---|---|---|---|---|",
        f"| {B} plain KMeans fits | 1 | {t_peer:.2f} | 1 x | |",
    ]
    for jobs, t, ratio, means in rows:
        lines.append(f"| cluster_stability | {jobs} | {t:.2f} | {ratio:.2f} x | "
                     f"{', '.join(f'{m:.4f}' for m in means)} |")
    lines += ["", f"n_jobs=2 is {speedup:.2f} x as fast as n_jobs=1 on this 2-core machine "
              "(shared with other work while it ran: see the load average).", ""]
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text("\n".join(lines), encoding="utf-8")
    print(f"  written to {OUT.relative_to(OUT.parent.parent.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
