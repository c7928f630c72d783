#!/usr/bin/env python
"""The agreement report's first table on iris: what ``method="auto"`` decides, and how long it
takes, with this checkout's package and with a reference commit's, in one run.

    python benchmarks/bench_auto.py                 # against 852e398 (before issue 29)
    python benchmarks/bench_auto.py --against REF   # another reference commit
    python benchmarks/bench_auto.py --rounds 5
    python benchmarks/bench_auto.py --calibrate     # also: the size estimate against the
                                                    # programme's largest step and its time

The calls are the report's (notebooks/agreement.ipynb, its default parameters): before its first
table of tests it runs ``compare(tab, indices=names, method="auto", model="perm",
n_sim=17000, seed=1, interval=0.95)`` and ``null_distributions(tab, names, "auto",
n_sim=17000, seed=1)`` for the paired indices, the ARI and three information indices (12
indices). The tables are iris' species against scikit-learn clusterings of its four
measurements: EM (``GaussianMixture(3, random_state=1)``: the exact ARI p-value is 1.03e-62)
and k-means (``KMeans(3, n_init=10, random_state=1)``).

Each case runs in a fresh subprocess (no cache shared), the two packages alternating within each
round; the reference's package is ``git archive REF clusteragree`` unpacked in a temporary
folder. Issue 29 (item 12): one information index whose exact law failed the size estimate sent
all twelve to 17,000 Patefield tables, so the report printed twelve p-values at the floor
1/17,001 while its table of null means held the exact laws.

With ``--calibrate``, the estimate that decides (``estimate_dp_work``) is set beside the largest
step of the dynamic programme, counted as the programme merges its entries (times the key
length, as ``max_work`` counts them), and beside the programme's time, for s and t on tables
from 2 x 2 to 6 x 6: equal margins (where rows are exchangeable) and unequal ones.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tarfile
import tempfile

import clusteragree as ca
from _bench import print_header  # noqa: E402  (script folder)

HERE = os.path.dirname(os.path.dirname(os.path.abspath(ca.__file__)))
REPORT_INDICES = "paired,adjusted_rand,adjusted_mutual_info,nmi_sum,variation_of_information"

CHILD = """
import json, sys, time
sys.path.insert(0, {path!r})
import numpy as np
import clusteragree as ca
from sklearn.cluster import KMeans
from sklearn.mixture import GaussianMixture

X, y = ca.load_dataset("iris")
labels = (GaussianMixture(3, random_state=1).fit(X).predict(X) if {table!r} == "em"
          else KMeans(3, n_init=10, random_state=1).fit_predict(X))
tab = ca.crosstab(y, labels)
names, _ = ca.indices.resolve_indices({indices!r}.split(","))
t0 = time.perf_counter()
results = ca.compare(tab, indices=names, method="auto", model="perm", n_sim=17000, seed=1,
                     alternative=None, interval=0.95)
t1 = time.perf_counter()
nulls = ca.nulls.null_distributions(tab, names, "auto", model="perm", n_sim=17000, seed=1)
t2 = time.perf_counter()
print(json.dumps({{"file": ca.__file__, "table": tab.counts.tolist(),
                  "compare": t1 - t0, "nulls": t2 - t1,
                  "methods": results["method"].tolist(),
                  "floor": int((results["n_extreme"] == 0).fillna(False).sum()),
                  "ari_p": float(results.loc["adjusted_rand", "pvalue"])}}))
"""


def run_child(path, table):
    code = CHILD.format(path=path, table=table, indices=REPORT_INDICES)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=3600, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    if res.returncode != 0:
        return {"error": (res.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(res.stdout.strip().splitlines()[-1])


def unpack(ref, into):
    """The reference commit's package, unpacked under ``into``."""
    arch = os.path.join(into, "ref.tar")
    with open(arch, "wb") as f:
        subprocess.run(["git", "-C", HERE, "archive", ref, "clusteragree", "data"], stdout=f,
                       check=True)
    with tarfile.open(arch) as tar:
        tar.extractall(into, filter="data")
    return into


def summary(r):
    methods = sorted(set(r["methods"]))
    count = {m: r["methods"].count(m) for m in methods}
    return (f"methods {count}, {r['floor']} p-values at the floor, ARI p = {r['ari_p']:.3g}")


#: (name, rows, cols) of the calibration: iris' margins, equal and unequal margins.
CALIBRATION = [
    ("iris EM", [50, 50, 50], [45, 50, 55]), ("iris k-means", [50, 50, 50], [62, 50, 38]),
    ("3 x 3, n = 90", [30, 30, 30], [30, 30, 30]),
    ("3 x 3, n = 300", [100, 100, 100], [120, 100, 80]),
    ("3 x 3, n = 150", [80, 45, 25], [70, 50, 30]), ("2 x 2, n = 2000", [1000, 1000], [1200, 800]),
    ("2 x 3, n = 300", [170, 130], [100, 120, 80]), ("3 x 4, n = 48", [16] * 3, [12] * 4),
    ("3 x 4, n = 80", [40, 25, 15], [30, 20, 20, 10]), ("4 x 4, n = 60", [15] * 4, [15] * 4),
    ("2 x 8, n = 80", [40, 40], [10] * 8), ("6 x 6, n = 36", [6] * 6, [6] * 6),
    ("5 x 5, n = 60", [20, 15, 12, 8, 5], [18, 16, 12, 9, 5]),
]


def calibrate(limit=7e7):
    """The estimate against the true largest step and the time (laws estimated above
    ``limit`` are not computed)."""
    import time

    from clusteragree._moments.combinatorics import compositions
    from clusteragree.nulls import exact

    added = {}

    def counting(cls):
        orig = cls.add

        def add(self, cols, probs):
            added[id(self)] = added.get(id(self), 0) + len(probs)
            return orig(self, cols, probs)
        cls.add = add

    counting(exact._RunningSums)
    counting(exact._DenseSums)
    exact.statistic_law([5, 5], [5, 5], "t")  # warm-up
    print(f"\n  the size estimate (entries x key length) against the dynamic programme; "
          f"max_work = {exact.DEFAULT_MAX_WORK:.0e} decides 'auto'")
    print(f"    {'table':16s} {'law':3s} {'estimate':>10s} {'largest step':>12s} {'ratio':>6s} "
          f"{'time':>8s} {'us/entry':>8s}  auto")
    for name, rows, cols in CALIBRATION:
        for stat in ("s", "t"):
            est = exact.estimate_dp_work(rows, cols, stat)
            auto = "exact" if est <= exact.DEFAULT_MAX_WORK else "Monte Carlo"
            if est > limit:
                print(f"    {name:16s} {stat:3s} {est:10.3g} {'(not run)':>12s} {'':6s} "
                      f"{'':8s} {'':8s}  {auto}")
                continue
            added.clear()
            compositions.cache_clear()
            t0 = time.perf_counter()
            exact.statistic_law(rows, cols, stat, max_work=10**12)
            sec = time.perf_counter() - t0
            width = 1 if stat == "s" else len(exact._primes_upto(max(max(rows), max(cols))))
            step = max(added.values()) * width
            total = sum(added.values()) * width
            print(f"    {name:16s} {stat:3s} {est:10.3g} {step:12.3g} {est / step:6.2f} "
                  f"{sec:7.3f}s {1e6 * sec / total:8.3f}  {auto}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--against", default="852e398",
                        help="the reference commit (852e398: auto decided per request)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--calibrate", action="store_true",
                        help="also the size estimate against the programme (about a minute)")
    args = parser.parse_args(argv)
    print_header("The agreement report's first table on iris: method='auto', this checkout "
                 "against a reference", "reference", args.against)
    print("  (here: each case in a fresh subprocess, best of the rounds, no warm-up call)")
    with tempfile.TemporaryDirectory(prefix="bench_auto_") as tmp:
        ref = unpack(args.against, tmp)
        for table in ("em", "kmeans"):
            best: dict = {}
            last: dict = {}
            for _ in range(args.rounds):
                for who, path in (("reference", ref), ("this checkout", HERE)):
                    r = run_child(path, table)
                    if "error" in r:
                        print(f"  {table}, {who}: {r['error']}")
                        return 1
                    total = r["compare"] + r["nulls"]
                    if who not in best or total < best[who][0]:
                        best[who] = (total, r["compare"], r["nulls"])
                    last[who] = r
            print(f"\n  iris species x {table} clusters: {last['this checkout']['table']}")
            for who in ("reference", "this checkout"):
                total, comp, nulls = best[who]
                print(f"    {who:14s} {total:7.2f} s (compare {comp:6.2f} s, null laws "
                      f"{nulls:6.2f} s): {summary(last[who])}")
            ratio = best["this checkout"][0] / best["reference"][0]
            print(f"    time to the first table, this checkout / reference: {ratio:.2f}")
    if args.calibrate:
        calibrate()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
