"""Labels beyond memory: the table and the ARI of two labellings of 10**8 objects held by Dask
(generated partition by partition, never in one place), on a LocalCluster, with the peak memory
of every process.

    python benchmarks/bench_dask.py            # n = 10**8 in 100 and 20 partitions (~1 min)
    python benchmarks/bench_dask.py --quick    # n = 10**6 in 10 partitions (CI)

The labels are random (K = Q = 1,000 clusters, y equal to x with probability 1/2), drawn by
dask.array in each partition. Checks: the table's margins equal the cluster sizes counted
separately on Dask (``da.bincount``), and on n = 10**6 (and 10**7 in the full run) the table
equals the in-memory ``crosstab`` of the same labels. Peak memory: each worker's and the
client's maximum resident set (VmHWM, reset at the start of each case; a new cluster for each case), against the
bytes of one partition's labels: it follows the partition size, not n.
"""

from __future__ import annotations

import argparse
import resource
import time

import dask
import dask.array as da
from dask.distributed import Client, LocalCluster

import clusteragree as ca
from _bench import print_header


def reset_peak() -> None:
    """Reset this process's peak resident set (Linux: ``/proc/self/clear_refs``, value 5), so
    that a worker forked from a large client does not inherit the client's peak."""
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")


def peak_rss_mb() -> float:
    """The peak resident set since the last reset (VmHWM), in MB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def dask_labels(n, K, chunk, seed=0):
    rng = da.random.default_rng(seed)
    x = rng.integers(0, K, size=n, chunks=chunk)
    y = da.where(rng.random(size=n, chunks=chunk) < 0.5, x, rng.integers(0, K, size=n,
                                                                       chunks=chunk))
    return x, y


def run(n, chunk, K, check_in_memory):
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        run_on(client, n, chunk, K, check_in_memory)  # fresh workers: each peak is its own


def run_on(client, n, chunk, K, check_in_memory):
    client.run(reset_peak)
    reset_peak()
    x, y = dask_labels(n, K, chunk)
    t0 = time.perf_counter()
    tab = ca.crosstab(x, y)
    t_table = time.perf_counter() - t0
    t0 = time.perf_counter()
    ari = float(ca.agreement(x, y, index="adjusted_rand"))
    t_ari = time.perf_counter() - t0
    rows, cols = dask.compute(da.bincount(x, minlength=K), da.bincount(y, minlength=K))
    assert tab.n == n
    assert (tab.row_sums == rows[rows > 0]).all() and (tab.col_sums == cols[cols > 0]).all()
    same = None
    if check_in_memory:
        xm, ym = dask.compute(x, y)
        mem = ca.crosstab(xm, ym)
        same = bool((mem.counts == tab.counts).all()
                    and float(ca.agreement(mem, index="adjusted_rand")) == ari)
        assert same
    workers = client.run(peak_rss_mb)
    part_mb = 2 * chunk * 8 / 2**20
    print(f"\n  n = {n:,} in {n // chunk} partitions of {chunk:,} ({part_mb:.0f} MB of labels "
          f"each), K = Q = {K:,}")
    print(f"    table on Dask: {t_table:7.2f} s; ARI from the Dask labels: {t_ari:7.2f} s "
          f"(ARI = {ari:.6f})")
    print(f"    margins equal the separate Dask counts: True; equal to the in-memory table: "
          f"{same if same is not None else 'not checked (the labels would need ' + format(2 * n * 8 / 2**30, '.1f') + ' GB)'}")
    print("    peak RSS: " + ", ".join(f"worker {i} {mb:,.0f} MB"
                                      for i, mb in enumerate(sorted(workers.values())))
          + f", client {peak_rss_mb():,.0f} MB; all the labels: {2 * n * 8 / 2**20:,.0f} MB")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    print_header("Tables of labels held by Dask (LocalCluster: 2 workers, 1 thread each)",
                 "dask", dask.__version__)
    run(10**6, 10**5, 1000, True)
    if not args.quick:
        run(10**7, 10**6, 1000, True)
        run(10**8, 10**6, 1000, False)
        run(10**8, 5 * 10**6, 1000, False)


if __name__ == "__main__":
    main()
