#!/usr/bin/env python
"""Peak memory of long Monte Carlo laws and of fuzzy indices on many objects: each case runs in a
fresh subprocess and reports its peak resident set size (``resource.getrusage``, the child's
ru_maxrss) and its time.

    python benchmarks/bench_memory.py                   # full sizes (about 5 minutes)
    python benchmarks/bench_memory.py --quick           # n_sim 10^6, 3,000 objects (sample sort): seconds
    python benchmarks/bench_memory.py --against PATH    # also run each case with the package
                                                        # found at PATH (e.g. a checkout of an
                                                        # older commit), side by side
    python benchmarks/bench_memory.py --only 13AGRI --agri-in-memory   # 13AGRI streamed and
                                                        # in memory, in one run (~9 GB)
    python benchmarks/bench_memory.py --only 13AGRI --n-agri 4000      # another n

Cases (aims from the issues "Inputs a user can trust", item 6, and "No silent wrong value
anywhere", items 6 and 8):
1. an ARI Monte Carlo law (Patefield) on a 3 x 3 table with n_sim = 10^7: under 300 MB (the
   values alone are 80 MB, held once: the law's few distinct values are kept with their
   counts, not as a sorted copy of the draws; 321 MB before issue 29, 249 MB after, 167 MB of
   it the interpreter with the package), and the same law used by ``agreement_test`` and
   ``compare`` (moments, quantiles and their standard errors are summed in chunks, so using
   the law adds no copy of it);
1b. the exact-law size estimate refusing ari, jaccard and nmi on a 10 x 10 table with
   n = 10^4: under 0.5 s and 200 MB (it took 5-6 s and 360 MB before it stopped at its limit);
2. the same with method="permutation" (random permutations of y's labels), n = 150;
3. ``ca.agreement(U, V, index="ndc")`` on 20,000 fuzzy objects: under 500 MB;
4. ``ca.agreement(U, V, index="agri")`` on 20,000 fuzzy objects (3 clusters, Dirichlet(1, 1, 1)
   memberships): under 500 MB. Its exact expectation sums min over all pairs of the
   n(n-1)/2 = 2 x 10^8 pair values of each clustering; beyond ``_streamed.MEMORY_BUDGET`` it
   sorts them bucket by bucket through temporary files (a sample sort) instead of in memory;
5. with ``--agri-in-memory``: case 4 with the budget raised so that the pair values are sorted in
   memory, as before the sample sort (9.3 GB at 20,000 objects; the checkout before it, which held
   all four pair vectors at once, took 13.9 GB). Run on this checkout only.
The baseline of a bare interpreter with the package imported is printed for reference.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap

CASES = {
    "import only": "",
    "ARI, Patefield, 3x3": """
        nd = ca.nulls.null_distribution([[30, 12, 8], [10, 25, 15], [5, 9, 36]], index="ari",
                                        method="patefield", n_sim=N_SIM, seed=1)
        assert nd.n_sim == N_SIM
    """,
    "ARI test, Patefield, 3x3": """
        res = ca.agreement_test([[30, 12, 8], [10, 25, 15], [5, 9, 36]], index="ari",
                                method="patefield", n_sim=N_SIM, seed=1)
        text = str(res)
    """,
    "compare, Patefield, 3x3": """
        frame = ca.compare([[30, 12, 8], [10, 25, 15], [5, 9, 36]], indices=["ari"],
                           method="patefield", n_sim=N_SIM, seed=1)
    """,
    "exact refusal, 10x10, n = 10^4": """
        tab = np.random.default_rng(1).multinomial(10**4, np.ones(100) / 100).reshape(10, 10)
        for index in ("ari", "jaccard", "nmi"):
            try:
                ca.nulls.null_distribution(tab, index=index, method="exact")
                raise SystemExit(f"{index}: the exact law was not refused")
            except ValueError:
                pass
    """,
    "ARI, permutation, 3x3": """
        nd = ca.nulls.null_distribution([[30, 12, 8], [10, 25, 15], [5, 9, 36]], index="ari",
                                        method="permutation", n_sim=N_SIM // 10, seed=1)
    """,
    "ndc, N_FUZZY objects": """
        rng = np.random.default_rng(1)
        U, V = rng.dirichlet([1, 1, 1], N_FUZZY), rng.dirichlet([1, 1, 1], N_FUZZY)
        value = ca.agreement(U, V, index="ndc")
    """,
    "13AGRI, N_AGRI objects": """
        rng = np.random.default_rng(1)
        U, V = rng.dirichlet([1, 1, 1], N_AGRI), rng.dirichlet([1, 1, 1], N_AGRI)
        value = ca.agreement(U, V, index="agri")
    """,
}
#: The pair values of 13AGRI sorted in memory (a checkout older than the sample sort always does).
IN_MEMORY = {"13AGRI in memory, N_AGRI objects": """
        from clusteragree.indices import _streamed
        _streamed.MEMORY_BUDGET = 2**62
""" + CASES["13AGRI, N_AGRI objects"]}

CHILD = """
import json, resource, sys, time
sys.path.insert(0, {path!r})
import numpy as np
import clusteragree as ca
N_SIM = {n_sim}
N_FUZZY = {n_fuzzy}
N_AGRI = {n_agri}
t0 = time.perf_counter()
{body}
dt = time.perf_counter() - t0
print(json.dumps({{"peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "seconds": dt, "where": ca.__file__, "value": globals().get("value")}}))
"""


def run_case(body: str, sizes: dict, path: str) -> dict:
    code = CHILD.format(path=path, body=textwrap.indent(textwrap.dedent(body), ""), **sizes)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=1800)
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1] if out.stderr else "failed"}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--against", help="a folder holding another clusteragree package")
    parser.add_argument("--agri-in-memory", action="store_true",
                        help="also 13AGRI with its pair values sorted in memory (~9 GB)")
    parser.add_argument("--only", help="run only the cases whose name contains this text")
    parser.add_argument("--n-agri", type=int, help="objects of the 13AGRI cases")
    parser.add_argument("--verbose", action="store_true",
                        help="print each value and where its package was imported from")
    args = parser.parse_args(argv)
    sizes = (dict(n_sim=10**6, n_fuzzy=5_000, n_agri=3_000) if args.quick
             else dict(n_sim=10**7, n_fuzzy=20_000, n_agri=20_000))
    if args.n_agri:
        sizes["n_agri"] = args.n_agri
    n_sim = sizes["n_sim"]
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    paths = [("this checkout", here)] + ([("--against", args.against)] if args.against else [])
    print(f"Peak memory (ru_maxrss of a fresh subprocess) and time; n_sim = {n_sim:,}")
    aim = {"ARI, Patefield, 3x3": 300.0, "ARI test, Patefield, 3x3": 300.0,
           "compare, Patefield, 3x3": 300.0, "exact refusal, 10x10, n = 10^4": 200.0,
           "ndc, N_FUZZY objects": 500.0, "13AGRI, N_AGRI objects": 500.0}
    cases = {**CASES, **(IN_MEMORY if args.agri_in_memory else {})}
    for name, body in cases.items():
        if args.only and args.only not in name and name != "import only":
            continue
        shown = name.replace("N_FUZZY", f"{sizes['n_fuzzy']:,}").replace(
            "N_AGRI", f"{sizes['n_agri']:,}")
        measured = []
        for label, path in paths[:1] if name in IN_MEMORY else paths:
            res = run_case(body, sizes, path)
            measured.append(res)
            if "error" in res:
                print(f"  {shown:34s} {label:14s} ERROR: {res['error']}")
                continue
            target = aim.get(name)
            verdict = "" if target is None or args.quick else (
                "  PASS" if res["peak_mb"] < target else "  FAIL")
            print(f"  {shown:34s} {label:14s} peak {res['peak_mb']:8.1f} MB   "
                  f"{res['seconds']:8.3f} s" + (f"   (aim < {target:g} MB){verdict}"
                                                 if target else "")
                  + (f"   value {res['value']!r}" if args.verbose else ""))
            if args.verbose:
                print(f"  {'':34s} {'':14s} imported from {res['where']}")
        if len(measured) == 2 and not any("error" in r for r in measured):
            now, then = measured
            print(f"  {'':34s} {'ratio':14s} peak {now['peak_mb'] / then['peak_mb']:8.2f} x     "
                  f"{now['seconds'] / max(then['seconds'], 1e-9):8.2g} x (this / --against)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
