#!/usr/bin/env python
"""Time and peak memory of the exact law of s = sum n_ij^2 (and t = sum n_ij log n_ij) by the
dynamic programme, ``statistic_law``, on 3 x 3 tables, against the unchunked programme of an
older commit, each case in a fresh subprocess (peak = the child's ru_maxrss; "over import" =
that minus the peak of a child that only imports the package).

    python benchmarks/bench_exact_dp.py            # n = 100, 200, 400, 800 (about 5 minutes)
    python benchmarks/bench_exact_dp.py --quick    # n up to 400, the reference up to 200 (~30 s)
    python benchmarks/bench_exact_dp.py --against REF   # the reference commit (default
                                                   # ab4338c, the last unchunked programme)

The reference's exact.py is read with ``git show REF:clusteragree/nulls/exact.py`` and run
inside this checkout's package. It holds every entry of a column (states x partial values x
compositions) at once: 2.1 GB at n = 400 and over 16 GB at n = 800, so it is not run there.
Each pair of laws is compared: the values must be identical and the probabilities equal to
1e-12 relative (they are sums of the same positive terms in another order).

Aim (issue 21, item 4): the exact 3 x 3 law at n = 800 under 4 GB. The work estimate and what
the default ``max_work`` decides (``method="exact"``: refused above 30 x max_work by the
estimate, else by the exact size of each column; ``method="auto"``: Monte Carlo above
max_work by the estimate) are printed with each case.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

import clusteragree as ca
from _bench import print_header  # noqa: E402  (script folder)
from clusteragree._moments.combinatorics import compositions, count_compositions_upto
from clusteragree.nulls.exact import (DEFAULT_MAX_WORK, DP_ESTIMATE_SLACK, estimate_dp_work,
                                      statistic_law)

#: The checkout whose package is imported (children import the same one).
HERE = os.path.dirname(os.path.dirname(os.path.abspath(ca.__file__)))

CHILD = """
import json, resource, sys, time, types
sys.path.insert(0, {path!r})
import numpy as np
import clusteragree.nulls.exact as exact
law = exact.statistic_law
if {reference!r}:
    src = open({reference!r}).read()
    src = src[:src.index("register_method(NullMethod(")]  # the method is registered once
    mod = types.ModuleType("clusteragree.nulls._exact_reference")
    mod.__package__ = "clusteragree.nulls"
    exec(compile(src, "reference exact.py", "exec"), mod.__dict__)
    law = mod.statistic_law
rows, cols, stat, repeats = {rows!r}, {cols!r}, {stat!r}, {repeats!r}
best = float("inf")
for _ in range(repeats):
    t0 = time.perf_counter()
    if rows:
        values, probs = law(rows, cols, stat, max_work=10**12)
    best = min(best, time.perf_counter() - t0)
if rows:
    np.save({out!r}, np.stack((values, probs)))
print(json.dumps({{"peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "seconds": best}}))
"""


def run_child(path, rows, cols, stat, repeats, out, reference=""):
    code = CHILD.format(path=path, rows=rows, cols=cols, stat=stat, repeats=repeats, out=out,
                        reference=reference)
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=3600)
    if res.returncode != 0:
        return {"error": (res.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(res.stdout.strip().splitlines()[-1])


def thirds(n):
    return [n - 2 * (n // 3), n // 3, n // 3]


def last_step_entries(rows, cols):
    """The entries of the second (largest) column step of s on a 3 x 3 table: compositions of
    the second column from each state after the first, times that state's partial values."""
    a = sorted(rows, reverse=True)
    b = sorted(cols)
    comps = compositions(tuple(a), b[0])
    rem = -np.sort(-(np.array(a) - comps), axis=1)
    pairs = np.unique(np.column_stack((rem, (comps ** 2).sum(axis=1))), axis=0)
    states, nkeys = np.unique(pairs[:, :3], axis=0, return_counts=True)
    return sum(count_compositions_upto(tuple(r), b[1], 10**15) * int(k)
               for r, k in zip(states.tolist(), nkeys))


def default_decision(rows, cols, stat):
    """The estimate, the true size where cheap, and what the default max_work makes of them."""
    est = estimate_dp_work(rows, cols, stat)
    auto = "exact" if est <= DEFAULT_MAX_WORK else "Monte Carlo"
    if est > DP_ESTIMATE_SLACK * DEFAULT_MAX_WORK:
        exact = "refused (estimate)"
    else:
        try:
            statistic_law(rows, cols, stat)  # refused after the first column if too large
            exact = "computed"
        except ValueError:
            exact = "refused (a column over max_work)"
    size = f", largest step {last_step_entries(rows, cols):.2g}" if stat == "s" else ""
    return (f"work estimate {est:.2g}{size}; default max_work={DEFAULT_MAX_WORK:.0e}: "
            f"method='exact' {exact}, 'auto' {auto}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--against", default="ab4338c",
                        help="the commit of the reference exact.py (unchunked programme)")
    args = parser.parse_args(argv)
    print_header("Exact law of s (and t) by the dynamic programme: time and peak memory",
                 "reference exact.py of", args.against)
    print("  (here: each case in a fresh subprocess, best of its runs, no warm-up call)")
    src = subprocess.run(["git", "-C", HERE, "show", f"{args.against}:clusteragree/nulls/exact.py"],
                         capture_output=True, text=True)
    if src.returncode != 0:
        print(f"  cannot read the reference: {src.stderr.strip()}")
        return 1
    tmp = tempfile.mkdtemp(prefix="bench_exact_dp_")
    reference = os.path.join(tmp, "exact_reference.py")
    with open(reference, "w") as f:
        f.write(src.stdout)
    base = run_child(HERE, [], [], "s", 1, "")
    print(f"  a child that only imports the package: peak {base['peak_mb']:.0f} MB\n")
    lop = ([400, 300, 100], [267, 267, 266])
    cases = [(thirds(n), thirds(n), "s") for n in (100, 200, 400)]
    cases += [(thirds(100), thirds(100), "t")]
    old_max = 200 if args.quick else 400
    if not args.quick:
        cases += [(thirds(200), thirds(200), "t"), (thirds(800), thirds(800), "s"), (*lop, "s")]
    print(f"  {'case':34s} {'code':10s} {'time':>9s} {'peak':>9s} {'over import':>12s}")
    worst = 0.0
    for rows, cols, stat in cases:
        n = sum(rows)
        name = f"3x3 {stat}, n={n} {rows}x{cols}" if rows != cols else f"3x3 {stat}, n={n} {rows}"
        repeats = (3 if args.quick else 5) if n <= 100 else (
            3 if n <= 200 and stat == "s" and not args.quick else 1)
        measured = {}
        for label, ref in (("chunked", ""), ("reference", reference)):
            if ref and (n > old_max or (stat == "t" and n > 100 and args.quick)):
                print(f"  {'':34s} {label:10s} not run (n > {old_max}: "
                      f"{'over 16 GB' if n >= 800 else 'quick mode'})")
                continue
            out = os.path.join(tmp, f"{label}_{stat}_{n}_{rows}.npy")
            res = run_child(HERE, rows, cols, stat, repeats, out, ref)
            if "error" in res:
                print(f"  {name:34s} {label:10s} ERROR: {res['error']}")
                continue
            measured[label] = (res, out)
            print(f"  {name if label == 'chunked' else '':34s} {label:10s} "
                  f"{res['seconds']:8.2f}s {res['peak_mb']:7.0f} MB "
                  f"{res['peak_mb'] - base['peak_mb']:9.0f} MB")
        if len(measured) == 2:
            (new, f_new), (old, f_old) = measured["chunked"], measured["reference"]
            v1, p1 = np.load(f_new)
            v0, p0 = np.load(f_old)
            same = v1.tolist() == v0.tolist()
            rel = float(np.max(np.abs(p1 - p0) / p0, where=p0 > 0, initial=0.0)) if same else 1.0
            worst = max(worst, rel)
            print(f"  {'':34s} {'ratio':10s} {new['seconds'] / old['seconds']:8.2f}x "
                  f"{new['peak_mb'] / old['peak_mb']:8.2f}x  (chunked / reference); values "
                  f"{'identical' if same else 'DIFFER'}, probabilities to {rel:.1e} relative")
        print(f"  {'':34s} {default_decision(rows, cols, stat)}")
    verdict = "PASS" if worst <= 1e-12 else "FAIL"
    print(f"\n  largest relative difference of probabilities: {worst:.1e} (aim 1e-12: {verdict})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
