#!/usr/bin/env python
"""Time of the thesis' simulation study (540 data sets x k-means and EM, 17,000 Patefield tables
per table), projected from a measured fraction, and its scaling with workers on one machine.

    python benchmarks/bench_study.py            # 2 data sets per scenario (72 units), ~3 min
    python benchmarks/bench_study.py --quick    # 1 per scenario of K = 2, 3 (24 units), ~1 min

The same units run serially, in 2 local processes, and on a Dask LocalCluster with 1 and 2
worker processes (one thread each); every executor must give the serial results exactly. The
full design's time is the fraction's time scaled by 1080 / units.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import print_header  # noqa: E402

from clusteragree.studies import simulate, study  # noqa: E402

FULL_UNITS = 540 * 2


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    import dask
    from dask.distributed import Client, LocalCluster

    print_header("Simulation study: time and scaling", "dask", dask.__version__)
    if args.quick:
        d = simulate.design(reps=1, seed=1)
        d = d[d["k"].isin([2, 3])].reset_index(drop=True)
    else:
        d = simulate.design(reps=2, seed=1)
    kw = dict(n_sim=17_000, seed=1, progress=False)
    units = 2 * len(d)
    print(f"  {len(d)} data sets x 2 algorithms = {units} units, 17,000 tables per table\n")
    rows = []
    serial_s, serial = timed(lambda: study.run(d, **kw))
    rows.append(("serial", 1, serial_s, True))
    proc_s, procs = timed(lambda: study.run(d, processes=2, **kw))
    rows.append(("processes", 2, proc_s, procs.equals(serial)))
    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            client.run(lambda: None)  # workers up before the clock starts
            dask_s, on_dask = timed(lambda: study.run(d, client=client, **kw))
        rows.append(("dask LocalCluster", workers, dask_s, on_dask.equals(serial)))
    table = pd.DataFrame(rows, columns=["executor", "workers", "seconds", "same results"])
    table["per unit (s)"] = table["seconds"] / units
    table["speed-up vs serial"] = serial_s / table["seconds"]
    table["full design, projected (min)"] = table["per unit (s)"] * FULL_UNITS / 60
    with pd.option_context("display.float_format", "{:.3g}".format, "display.width", 120):
        print(table.to_string(index=False))
    print("\n(one run each; 'projected' = measured time per unit x 1,080 units)")
    return 0 if table["same results"].all() else 1


if __name__ == "__main__":
    sys.exit(main())
