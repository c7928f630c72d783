#!/usr/bin/env python
"""What the default confidence intervals cost ``compare`` (issue 30, item 5).

    python benchmarks/bench_interval_cost.py            # both sections, 3 runs each (~5 min)
    python benchmarks/bench_interval_cost.py --quick    # CI: 1 run each, a 2 x 10**5 table

(a) The agreement report's Statlog run: the report's default table (``dataset``,
    ``statlog_em``: the vehicle classes against the EM clusters, Amorim 2015) and its twelve
    default indices (``indices``: the eight paired indices, the ARI and three information
    indices), both read from ``ca.report_parameters("agreement")``.
    ``compare(T, indices, seed=1)`` with its default intervals (``interval=IntervalSpec()``:
    method "auto", 9,999 resamples) against ``compare(T, indices, seed=1, interval=None)``.
    The issue's target: within 3 times the time without intervals (5.2 x when it was filed).
(b) A large table: an 8 x 6 table of 2 * 10**6 objects (Multinomial(N, p) from a fixed,
    seeded p with a diagonal of moderate agreement; seed 2030),
    ``compare(T, ["adjusted_rand", "adjusted_mutual_info"], seed=1)`` with and without
    intervals. The AMI's interval must not grow with n (each resampled table needs its own
    expected MI); the issue's target: within 10 times the time without intervals (past 39 s
    of CPU when it was filed).

Each call is timed by ``time.perf_counter`` (wall) and ``time.process_time`` (CPU of this
process, all its threads), the median of the runs (3, or 1 with ``--quick``; a call is not
repeated once its runs took more than ``BUDGET`` = 60 s) after one warm-up call of the call
without intervals (the null's caches; the call with intervals is not warmed up, it is the
expensive one). The "runs" column gives the runs without / with intervals. The machine is
shared: the load average is printed with the results. The results are printed and, in full
mode, written to ``benchmarks/results/interval_cost.md`` (``--out`` another folder).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
import warnings
from datetime import date

import numpy as np

import clusteragree as ca
from _bench import git_state, load, print_header  # noqa: E402  (script folder)

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, "results")
TARGETS = {"a": 3.0, "b": 10.0}  # issue 30, item 5: with / without intervals, at most
LARGE_N, QUICK_N = 2 * 10**6, 2 * 10**5
LARGE_SEED = 2030
LARGE_INDICES = ["adjusted_rand", "adjusted_mutual_info"]


def statlog_case():
    """The agreement report's default table and its twelve default indices."""
    params = ca.report_parameters("agreement")["default"]
    table = ca.load_dataset(params["dataset"])
    names, _ = ca.indices.resolve_indices([s.strip() for s in params["indices"].split(",")
                                           if s.strip()])
    return table, list(names)


def large_table(n=LARGE_N, seed=LARGE_SEED):
    """The fixed 8 x 6 table of n objects: Multinomial(n, p) with p a seeded Dirichlet(1)
    matrix plus a band of agreement (row i mostly in column i mod 6)."""
    rng = np.random.default_rng(seed)
    p = rng.dirichlet(np.ones(48)).reshape(8, 6)
    p[np.arange(8), np.arange(8) % 6] += 0.08
    p /= p.sum()
    return ca.ContingencyTable(rng.multinomial(n, p.ravel()).reshape(8, 6))


#: A call that takes longer than this (wall seconds) is not repeated: its median would cost
#: minutes more, and a call that long varies by a few percent, far less than the ratios here.
BUDGET = 60.0


def timed(fn, runs, budget=BUDGET):
    """(median wall seconds, median CPU seconds, last result, runs made) over ``runs`` calls,
    or fewer once the calls made took more than ``budget`` seconds."""
    walls, cpus, out = [], [], None
    for _ in range(runs):
        w0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
        if sum(walls) > budget:
            break
    return statistics.median(walls), statistics.median(cpus), out, len(walls)


def measure(label, table, names, runs):
    """One section: compare with its default intervals and without, and their ratio."""
    def without():
        return ca.compare(table, indices=names, seed=1, interval=None)

    def with_intervals():
        return ca.compare(table, indices=names, seed=1)

    without()  # warm-up: the null's caches
    w0, c0, _, r0 = timed(without, runs)
    w1, c1, df, r1 = timed(with_intervals, runs)
    methods = ", ".join(sorted(set(df["ci_method"].dropna())))
    return {"section": label, "K x Q": "x".join(map(str, table.shape)), "n": int(table.n),
            "indices": len(names), "runs": f"{r0} / {r1}", "without (s)": w0, "with (s)": w1,
            "ratio": w1 / w0, "without CPU (s)": c0, "with CPU (s)": c1,
            "CPU ratio": c1 / c0, "methods": methods or "none",
            "notes": "; ".join(df.attrs.get("notes", []))}


def report(rows, quick):
    """The rows as a markdown table, with the targets."""
    head = ("| section | K x Q | n | indices | runs | without (s) | with (s) | ratio | target "
            "| CPU without (s) | CPU with (s) | CPU ratio | interval methods |")
    lines = [head, "|" + "---|" * 13]
    for r in rows:
        target = TARGETS[r["section"]]
        verdict = "met" if r["ratio"] <= target else "missed"
        lines.append(f"| ({r['section']}) | {r['K x Q']} | {r['n']:,} | {r['indices']} | "
                     f"{r['runs']} | {r['without (s)']:.3f} | {r['with (s)']:.3f} | "
                     f"{r['ratio']:.1f} x | <= {target:g} x: {verdict} | "
                     f"{r['without CPU (s)']:.3f} | {r['with CPU (s)']:.3f} | "
                     f"{r['CPU ratio']:.1f} x | {r['methods']} |")
    notes = [f"- ({r['section']}) notes of compare: {r['notes']}" for r in rows if r["notes"]]
    made = (f"Made by `python benchmarks/bench_interval_cost.py{' --quick' if quick else ''}` "
            f"on {date.today().isoformat()} (clusteragree {ca.__version__}{git_state()}, "
            f"numpy {np.__version__}); load average at the end: {load()}. Times are medians "
            "of the runs; the default interval is `ca.IntervalSpec()` (method \"auto\").")
    return "\n".join(["# What the default intervals cost `compare`", "", made, "",
                      "(a) the agreement report's Statlog table and its 12 default indices; "
                      "(b) an 8 x 6 table of 2,000,000 objects (seed 2030), ARI and AMI.", "",
                      *lines, "", *notes, ""])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help=f"1 run each and a table of {QUICK_N:,} objects in (b)")
    parser.add_argument("--out", default=None, help="folder of interval_cost.md (full mode: "
                        "benchmarks/results)")
    args = parser.parse_args(argv)
    runs = 1 if args.quick else 3
    warnings.simplefilter("ignore")
    import scipy

    print_header("What the default confidence intervals cost compare", "scipy", scipy.__version__)
    print(f"  this benchmark: the median of {runs} run(s) (fewer past {BUDGET:g} s), after one "
          "warm-up call without intervals")
    table, names = statlog_case()
    rows = [measure("a", table, names, runs)]
    print(f"  (a) Statlog, {len(names)} indices: {rows[-1]['ratio']:.1f} x "
          f"({rows[-1]['with (s)']:.2f} s against {rows[-1]['without (s)']:.2f} s)", flush=True)
    big = large_table(QUICK_N if args.quick else LARGE_N)
    rows.append(measure("b", big, LARGE_INDICES, runs))
    print(f"  (b) 8 x 6, n = {big.n:,}: {rows[-1]['ratio']:.1f} x "
          f"({rows[-1]['with (s)']:.2f} s against {rows[-1]['without (s)']:.2f} s)", flush=True)
    text = report(rows, args.quick)
    print("\n" + text)
    out = args.out or (None if args.quick else RESULTS)
    if out:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "interval_cost.md"), "w", encoding="utf-8") as fh:
            fh.write(text)
        print(f"written: {os.path.join(out, 'interval_cost.md')}")


if __name__ == "__main__":
    main()
