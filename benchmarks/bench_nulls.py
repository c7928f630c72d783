#!/usr/bin/env python
"""Null-distribution benchmarks of clusteragree (Patefield IADJUST, exact laws, their reach).

    python benchmarks/bench_nulls.py            # full run (about 5-7 minutes on 2 cores)
    python benchmarks/bench_nulls.py --quick    # small budgets (2 s per reach attempt), < ~60 s
    python benchmarks/bench_nulls.py --profile  # also cProfile the informational slow parts
    python benchmarks/bench_nulls.py --quick --only 1   # part 1 alone (IADJUST), < ~30 s

What is measured (all ratios are taken within the same run, on the same machine):

1. IADJUST on the Statlog table (``ca.load_dataset("statlog_em")``, 4 x 4, n = 846):
   ``ca.compare(tab, indices=["paired", "simple"], method="patefield", n_sim=17000, seed=1)``
   (17,000 tables; the eight paired indices and the information indices) against the time scipy
   needs only to sample the same tables,
   ``scipy.stats.random_table(rows, cols).rvs(17000, method="patefield", random_state=rng)``.
   Target: ours <= 3 x scipy's sampling time. Also ``ca.iadjust(tab, seed=1)`` (the thesis'
   procedure: the eight paired indices, no intervals and no p-value beyond the Monte Carlo
   floor): target <= 2.5 x scipy's sampling time (issue 42, item 5).
2. The exact law of the adjusted Rand index for 3 x 3 tables with n = 150 and iris-like margins
   (rows 50, 50, 50; columns 50, 62, 38 = the classic k-means result on iris, and 50, 54, 46):
   ``ca.nulls.null_distribution(table, index="adjusted_rand", method="exact")``. Target: "about
   a second", taken as <= 1.5 s. The law of an information index (nmi_sum, statistic t) is
   reported too.
3. The 3 x 6 table with rows 20, 20, 20 and columns of 10: ``count_tables``, the time of
   ``statistic_law(rows, cols, "s")`` and of the exact adjusted Rand law; enumeration (which
   refuses here) is estimated from its tables/second on smaller 3 x 6 margins. Then, on margins
   where both finish (3 x 4, n = 24..48, and the iris table), the dynamic programme against
   enumeration (``enumerate_tables`` + the index on every table) for the same exact law of
   adjusted_rand: the speed ratio, and the two means must agree to 1e-12.
4. Reach: for K = Q in (2, 3, 4) and balanced margins, n doubles (from 4K) until an attempt
   takes longer than the budget (10 s; --quick: 2 s) or raises (max_work / memory), for
   ``statistic_law(.., "s")``, ``statistic_law(.., "t")`` and ``enumerate_tables`` (max_tables
   raised to 10^12, so only time and memory stop it). Every attempt runs in a forked child
   process (killed at the budget, address space capped at its size + 4 GiB, cold composition
   cache); the full run adds one geometric-midpoint attempt between the last success and the
   first failure.

Timing: ``time.perf_counter``, best of several repeats, after one warm-up call; part 1 runs its
five contenders in interleaved rounds (one run of each per round) so that load from other
processes hits them alike, and also prints the median per-round ratio. Exact laws are
timed with a cold composition cache (``compositions.cache_clear()`` before every run,
outside the timed region), i.e. as a first call in a fresh session; warm-cache times are shown
where they differ. Any part that misses its target is profiled (cProfile top entries) at the end.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import resource
import sys
import time

import numpy as np
import scipy
from scipy import stats

import clusteragree as ca
from _bench import best_time, fmt_s, load, print_header, profile_top  # noqa: E402  (script folder)
from clusteragree.indices import evaluate, resolve_indices
from clusteragree.tables import margin_table
from clusteragree.nulls import (NullDistribution, count_tables, enumerate_tables,
                                null_distribution, null_distributions, random_tables,
                                statistic_law)
from clusteragree._moments.combinatorics import compositions as _compositions

FULL = dict(repeats=7, budget=6.0, iadjust_repeats=25, slow_repeats=2, iris=("kmeans", "balanced"),
            ratio_margins=(([8] * 3, [6] * 4), ([12] * 3, [9] * 4), ([16] * 3, [12] * 4),
                           ("iris", None)),
            t_3x6=True, reach_budget=10.0, reach_refine=True, reach_total=330.0,
            reach_mem_gib=4.0)
QUICK = dict(repeats=3, budget=2.0, iadjust_repeats=9, slow_repeats=1, iris=("kmeans",),
             ratio_margins=(([8] * 3, [6] * 4), ([12] * 3, [9] * 4)),
             t_3x6=False, reach_budget=2.0, reach_refine=False, reach_total=35.0,
             reach_mem_gib=4.0)

N_SIM = 17_000
TARGET_IADJUST_RATIO = 3.0   # ours / scipy sampling
TARGET_THESIS_RATIO = 2.5    # ca.iadjust / scipy sampling
TARGET_EXACT_S = 1.5         # "about a second"
TARGET_MEAN_DIFF = 1e-12
STATLOG_INDICES = ["paired", "simple"]

# concrete 3 x 3 tables, rows 50, 50, 50 (iris species) against three clusters
IRIS_TABLES = {
    # the classic k-means (k = 3) confusion table of iris: columns 50, 62, 38
    "kmeans": np.array([[50, 0, 0], [0, 48, 2], [0, 14, 36]]),
    # a more balanced clustering: columns 50, 54, 46
    "balanced": np.array([[50, 0, 0], [0, 46, 4], [0, 8, 42]]),
}


# -- timing helpers ---------------------------------------------------------------------------

def cold():
    """Empty the composition cache shared by the exact methods (a fresh session's state)."""
    _compositions.cache_clear()




def interleaved(fns, rounds):
    """Times of each of ``fns`` (a dict name -> callable) over ``rounds`` rounds that run every
    callable once, in order, after one warm-up round. Returns ({name: [seconds]}, {name: result
    of the last run})."""
    for fn in fns.values():
        fn()
    times, last = {k: [] for k in fns}, {}
    for _ in range(rounds):
        for k, fn in fns.items():
            t0 = time.perf_counter()
            last[k] = fn()
            times[k].append(time.perf_counter() - t0)
    return times, last




def short(sec):
    return fmt_s(sec).strip()




# -- 1. IADJUST against scipy's sampling ------------------------------------------------------

def bench_iadjust(cfg, results, slow_parts):
    tab = ca.load_dataset("statlog_em")
    rows, cols = tab.row_sums, tab.col_sums
    names, _ = resolve_indices(STATLOG_INDICES)
    print(f"\n1. IADJUST on the Statlog table: {tab.shape[0]} x {tab.shape[1]}, n = {tab.n}, rows "
          f"{rows.tolist()}, columns {cols.tolist()}; {N_SIM:,} Patefield tables")
    print(f"   ours : ca.compare(tab, indices={STATLOG_INDICES}, method='patefield', "
          f"n_sim={N_SIM}, seed=1)")
    print(f"          ({len(names)} indices: {', '.join(names)})")
    print(f"   scipy: scipy.stats.random_table(rows, cols).rvs({N_SIM}, method='patefield', "
          "random_state=np.random.default_rng(1))  (sampling only)")

    def ours():
        return ca.compare(tab, indices=STATLOG_INDICES, method="patefield", n_sim=N_SIM, seed=1)

    def sample_scipy():
        return stats.random_table(rows, cols).rvs(N_SIM, method="patefield",
                                                  random_state=np.random.default_rng(1))

    # interleaved rounds (one run of each per round) so that load from other processes hits
    # every contender alike; best of the rounds for each, and the median per-round ratio
    fns = {"scipy": sample_scipy, "compare": ours,
           "random_tables": lambda: random_tables(rows, cols, N_SIM, seed=1),
           "null_distributions": lambda: null_distributions(tab, names, "patefield",
                                                            n_sim=N_SIM, seed=1),
           "iadjust": lambda: ca.iadjust(tab, seed=1)}
    times, last = interleaved(fns, cfg["iadjust_repeats"])
    best = {k: min(v) for k, v in times.items()}
    t_sp, t_ours, t_rt, t_nd, t_ia = (best[k] for k in fns)
    n_sp = n_ours = n_rt = n_nd = n_ia = len(times["scipy"])
    sp_tables, frame, our_tables, ia = (last[k] for k in ("scipy", "compare", "random_tables",
                                                         "iadjust"))
    med_ratio = float(np.median(np.array(times["compare"]) / np.array(times["scipy"])))
    med_ia = float(np.median(np.array(times["iadjust"]) / np.array(times["scipy"])))
    same = np.array_equal(np.asarray(sp_tables), our_tables)
    ratio = t_ours / t_sp
    print(f"\n   scipy sampling only            {fmt_s(t_sp)} (best of {n_sp})")
    print(f"   ca.compare (13 indices)        {fmt_s(t_ours)} (best of {n_ours})   "
          f"ours/scipy = {ratio:5.2f}x (best/best; median of the per-round ratios "
          f"{med_ratio:.2f}x)")
    print(f"     of which random_tables()     {fmt_s(t_rt)} (best of {n_rt})   "
          f"= {t_rt / t_sp:5.2f}x scipy (same tables as scipy's: {same})")
    print(f"     null_distributions() only    {fmt_s(t_nd)} (best of {n_nd})   "
          f"(sampling + s, t and the 13 index laws)")
    print(f"     compare - null_distributions {fmt_s(t_ours - t_nd)}          "
          "(observed values, mean/median/sd/skewness, p-values, z, DataFrame)")
    print(f"   ca.iadjust(tab, seed=1)        {fmt_s(t_ia)} (best of {n_ia})   "
          f"= {t_ia / t_sp:5.2f}x scipy (per-round median {med_ia:.2f}x; {len(ia)} paired "
          f"indices, {N_SIM:,} tables)")
    show = frame.loc[["rand", "jaccard", "sokal_sneath", "nmi_sum"],
                     ["statistic", "null_mean", "adjusted_mean", "pvalue"]]
    print("   a few rows of the compare() result:")
    for line in show.to_string(float_format=lambda v: f"{v:.5f}").splitlines():
        print("     " + line)
    results.append(("1. Statlog compare(paired+simple), 17k tables: ours/scipy",
                    f"<= {TARGET_IADJUST_RATIO:g}x",
                    f"{ratio:.2f}x ({short(t_ours)} / {short(t_sp)})",
                    ratio <= TARGET_IADJUST_RATIO))
    results.append(("1. random_tables() = scipy's tables (same seed)", "equal",
                    "equal" if same else "DIFFERENT", same))
    ia_ratio = t_ia / t_sp
    results.append(("1. ca.iadjust(statlog, seed=1): ours/scipy",
                     f"<= {TARGET_THESIS_RATIO:g}x",
                     f"{ia_ratio:.2f}x ({short(t_ia)} / {short(t_sp)})",
                     ia_ratio <= TARGET_THESIS_RATIO))
    slow_parts.append(("ca.iadjust(statlog, seed=1)"
                       + ("" if ia_ratio > TARGET_THESIS_RATIO else " [info]"),
                       fns["iadjust"], ia_ratio > TARGET_THESIS_RATIO))
    slow_parts.append(("ca.compare(statlog, paired+simple, patefield, 17,000)"
                       + ("" if ratio > TARGET_IADJUST_RATIO else " [info]"), ours,
                       ratio > TARGET_IADJUST_RATIO))


# -- 2. exact laws, 3 x 3, n = 150 ------------------------------------------------------------

def _ratio_label(rows, cols):
    rows, cols = list(rows), list(cols)
    return f"{len(rows)} x {len(cols)}, n = {sum(rows)}, rows {rows}, cols {cols}"


def bench_iris(cfg, results, slow_parts):
    print("\n2. Exact laws for 3 x 3 tables, n = 150, rows 50, 50, 50 (iris-like)")
    print("   ARI : ca.nulls.null_distribution(table, index='adjusted_rand', method='exact')"
          "  (dynamic programme on s)")
    print("   NMI : the same with index='nmi_sum'  (dynamic programme on t)")
    print("   times: cold composition cache (first call of a session); warm cache in brackets")
    for key in cfg["iris"]:
        table = IRIS_TABLES[key]
        rows, cols = table.sum(axis=1).tolist(), table.sum(axis=0).tolist()
        n_tab = count_tables(rows, cols)
        print(f"\n   ({key}) table {table.tolist()}: columns {cols}, {n_tab:,} tables with "
              "these margins")
        out = {}
        for index, reps in (("adjusted_rand", cfg["repeats"]), ("nmi_sum", cfg["slow_repeats"])):
            fn = lambda index=index: null_distribution(table, index=index, method="exact")  # noqa: E731
            t_c, n_c, nd = best_time(fn, reps, cfg["budget"], setup=cold)
            t_w, n_w, _ = best_time(fn, reps, cfg["budget"], warmup=lambda: None)
            observed = float(evaluate(index, table))
            out[index] = t_c
            print(f"      {index:14s} {fmt_s(t_c)} (best of {n_c}) [warm {short(t_w)}, best of "
                  f"{n_w}]  law: {len(nd.values):,} values, mean {nd.mean:.6g}, sd "
                  f"{nd.std:.4g}; observed {observed:.4f}, p = {nd.pvalue(observed):.3g}")
            if index == "adjusted_rand":
                ok = t_c <= TARGET_EXACT_S
                results.append((f"2. exact ARI law, 3x3 n=150 cols {cols}",
                                f"<= {TARGET_EXACT_S:g} s", short(t_c), ok))
                if not ok:
                    slow_parts.append((f"exact ARI law, cols {cols}", fn, True))
            else:
                results.append((f"2. exact nmi_sum law (t), 3x3 n=150 cols {cols}",
                                "(reported)", short(t_c), None))
                slow_parts.append((f"exact nmi_sum law, cols {cols} [info]", fn, False))
        print(f"      nmi_sum / adjusted_rand time: {out['nmi_sum'] / out['adjusted_rand']:.1f}x")


# -- 3. the 3 x 6 table; dynamic programme against enumeration -------------------------------

def enumerated_law(rows, cols, index="adjusted_rand", max_tables=10**9):
    """The exact law of ``index`` by enumeration: every table, the index on each (as
    ``null_distributions`` does for indices that are not functions of s or t)."""
    tables, probs = enumerate_tables(rows, cols, max_tables=max_tables)
    return NullDistribution(index, "exact", values=evaluate(index, tables), probabilities=probs)


def dp_law(rows, cols, index="adjusted_rand"):
    # null_distribution needs a table: any one with these margins (the law depends on them only)
    return null_distribution(margin_table(rows, cols), index=index, method="exact")


def bench_3x6(cfg, results, slow_parts):
    rows, cols = [20, 20, 20], [10] * 6
    table = margin_table(rows, cols)
    print(f"\n3. The 3 x 6 table, rows {rows}, columns {cols} (n = {sum(rows)})")
    t_cnt, n_cnt, n_tab = best_time(lambda: count_tables(rows, cols), 3, cfg["budget"],
                                    setup=cold)
    print(f"   count_tables(rows, cols)                 = {n_tab:,} tables   "
          f"({fmt_s(t_cnt).strip()}, best of {n_cnt})")
    t_s, n_s, (vals, _) = best_time(lambda: statistic_law(rows, cols, "s"), cfg["repeats"],
                                    cfg["budget"], setup=cold)
    print(f"   statistic_law(rows, cols, 's')           {fmt_s(t_s)} (best of {n_s}); "
          f"{len(vals):,} distinct values of s")
    ari = lambda: null_distribution(table, index="adjusted_rand", method="exact")  # noqa: E731
    t_a, n_a, nd = best_time(ari, cfg["repeats"], cfg["budget"], setup=cold)
    print(f"   null_distribution(ARI, method='exact')   {fmt_s(t_a)} (best of {n_a}); "
          f"mean {nd.mean:.3e}, sd {nd.std:.4g}")
    if cfg["t_3x6"]:
        cold()
        t0 = time.perf_counter()
        try:
            tv, _ = statistic_law(rows, cols, "t")
            msg = f"{len(tv):,} distinct values of t"
        except ValueError as exc:
            msg = f"refused: {str(exc)[:70]}..."
        t_t = time.perf_counter() - t0
        print(f"   statistic_law(rows, cols, 't')           {fmt_s(t_t)} (one cold run); {msg}")
        results.append(("3. 3x6 n=60: statistic_law 't' (information indices)", "(reported)",
                        short(t_t), None))
        slow_parts.append(("statistic_law(3x6 n=60, 't') [info]",
                           lambda: statistic_law(rows, cols, "t"), False))
    # enumeration: refuses at the default max_tables; estimate it from smaller 3 x 6 margins
    t0 = time.perf_counter()
    try:
        enumerate_tables(rows, cols)
        refusal = "did NOT refuse"
    except ValueError as exc:
        refusal = f"refuses in {short(time.perf_counter() - t0)}: {str(exc)[:62]}..."
    print(f"   enumerate_tables(rows, cols)             {refusal}")
    small = ([8] * 3, [4] * 6)
    n_small = count_tables(*small)
    t_e, n_e, _ = best_time(lambda: enumerated_law(*small), cfg["slow_repeats"], cfg["budget"],
                            setup=cold)
    rate = n_small / t_e
    est, mem = n_tab / rate, n_tab * 3 * 6 * 8
    print(f"   enumeration estimate: {rate:,.0f} tables/s (enumerate_tables + ARI on all "
          f"{n_small:,} tables of {_ratio_label(*small)}: {short(t_e)}, best of {n_e})")
    print(f"      -> {n_tab:,} tables would take ~{est:,.0f} s (~{est / 60:.0f} min) and "
          f"{mem / 2**30:.0f} GiB for the int64 tables alone; the dynamic programme is "
          f"~{est / t_a:,.0f}x faster")
    results.append(("3. 3x6 n=60: tables (count_tables)", "(reported)", f"{n_tab:,}", None))
    results.append(("3. 3x6 n=60: statistic_law 's'", "(reported)", short(t_s), None))
    results.append(("3. 3x6 n=60: exact ARI law (DP)", "(reported)", short(t_a), None))
    results.append(("3. 3x6 n=60: enumeration, estimated", "(reported)",
                    f"~{est:,.0f} s, {mem / 2**30:.0f} GiB", None))

    print("\n   Same exact law of adjusted_rand, dynamic programme (null_distribution, method="
          "'exact') vs enumeration")
    print("   (enumerate_tables + evaluate('adjusted_rand', tables) -> NullDistribution); cold "
          "cache, best of runs")
    print(f"   {'margins':52s} {'tables':>10s} {'DP':>10s} {'enumeration':>12s} "
          f"{'enum/DP':>8s} {'|mean diff|':>11s} {'max|cdf diff|':>13s}")
    worst = 0.0
    for r, c in cfg["ratio_margins"]:
        if r == "iris":
            tb = IRIS_TABLES["kmeans"]
            r, c = tb.sum(axis=1).tolist(), tb.sum(axis=0).tolist()
        n_t = count_tables(r, c)
        t_dp, n_dp, nd_dp = best_time(lambda: dp_law(r, c), cfg["repeats"], cfg["budget"],
                                      setup=cold)
        reps = cfg["repeats"] if n_t < 100_000 else cfg["slow_repeats"]
        t_en, n_en, nd_en = best_time(lambda: enumerated_law(r, c), reps, cfg["budget"],
                                      setup=cold, warmup=(lambda: None) if n_t > 100_000 else None)
        dmean = abs(nd_dp.mean - nd_en.mean)
        grid = np.union1d(nd_dp.values, nd_en.values)
        dcdf = float(np.max(np.abs(nd_dp.cdf(grid) - nd_en.cdf(grid))))
        worst = max(worst, dmean)
        print(f"   {_ratio_label(r, c):52s} {n_t:>10,} {short(t_dp):>10s} {short(t_en):>12s} "
              f"{t_en / t_dp:7.1f}x {dmean:11.1e} {dcdf:13.1e}   (runs {n_dp}/{n_en})")
        results.append((f"3. ARI law {len(r)}x{len(c)} n={sum(r)}: enumeration/DP", "(reported)",
                        f"{t_en / t_dp:.1f}x (DP {short(t_dp)})", None))
    results.append(("3. ARI law, DP vs enumeration: max |mean diff|", f"<= {TARGET_MEAN_DIFF:g}",
                    f"{worst:.1e}", worst <= TARGET_MEAN_DIFF))


# -- 4. reach ---------------------------------------------------------------------------------

REACH_METHODS = {
    "DP s (pair counting)": lambda m: statistic_law(m, m, "s"),
    "DP t (information)": lambda m: statistic_law(m, m, "t"),
    "enumeration": lambda m: enumerate_tables(m, m, max_tables=10**12),
}


def _vm_bytes():
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _attempt(conn, method, K, n, mem_gib):
    """Child process: one reach attempt; sends (status, seconds, size or message)."""
    try:
        limit = _vm_bytes() + int(mem_gib * 2**30)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ValueError, OSError):
        pass
    cold()
    margins = [n // K] * K
    t0 = time.perf_counter()
    try:
        out = REACH_METHODS[method](margins)
        size = len(out[1])
        conn.send(("ok", time.perf_counter() - t0, size))
    except MemoryError:
        conn.send(("memory", time.perf_counter() - t0, f"MemoryError (> {mem_gib:g} GiB)"))
    except ValueError as exc:
        conn.send(("refused", time.perf_counter() - t0, str(exc)))
    except Exception as exc:  # noqa: BLE001 - reported, e.g. the DP's probability guard
        conn.send(("error", time.perf_counter() - t0, f"{type(exc).__name__}: {exc}"))
    conn.close()


def run_attempt(method, K, n, budget, mem_gib):
    """Run one attempt in a forked child, killed at ``budget`` (+0.5 s of slack)."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_attempt, args=(child, method, K, n, mem_gib), daemon=True)
    t0 = time.perf_counter()
    proc.start()
    child.close()
    got = parent.poll(budget + 0.5)
    if got:
        try:
            status, sec, info = parent.recv()
        except EOFError:
            got = False
    if not got:
        if proc.is_alive():
            proc.kill()  # only this child, by its pid
        proc.join()
        wall = time.perf_counter() - t0
        if proc.exitcode not in (None, -9) and wall < budget:
            return "crashed", wall, f"exit code {proc.exitcode}"
        return "timeout", wall, f"killed at {budget:g} s"
    proc.join()
    if status == "ok" and sec > budget:
        return "slow", sec, info
    return status, sec, info


def _grid(K, n):
    return max(K, int(round(n / K)) * K)


def bench_reach(cfg, results, slow_parts):
    budget, mem = cfg["reach_budget"], cfg["reach_mem_gib"]
    print(f"\n4. Reach within {budget:g} s per attempt: K x K tables, balanced margins (n/K each),"
          " n doubling from 4K")
    print(f"   each attempt in a forked child (cold cache), killed at {budget:g} s, address space "
          f"capped at +{mem:g} GiB" + ("; one midpoint attempt after the first failure"
                                       if cfg["reach_refine"] else ""))
    print("   DP s = statistic_law(m, m, 's'); DP t = statistic_law(m, m, 't'); enumeration = "
          "enumerate_tables(m, m, max_tables=10**12)")
    print("   (size = distinct values of the law, or number of tables)")
    start = time.perf_counter()
    best = {}
    for method in REACH_METHODS:
        for K in (2, 3, 4):
            line = f"   {method:21s} {K}x{K}:"
            print(line, end="", flush=True)
            if time.perf_counter() - start > cfg["reach_total"]:
                print(" skipped (the reach part's total budget is spent)")
                best[method, K] = None
                continue
            n, ok, fail = 4 * K, None, None
            while n <= 2**28:
                status, sec, info = run_attempt(method, K, n, budget, mem)
                tag = (f" {n}:{sec:.2g}s" if status == "ok" else
                       f" {n}:{status}({sec:.2g}s)")
                print(tag, end="", flush=True)
                if status != "ok":
                    fail = (n, status, sec, info)
                    break
                ok = (n, sec, info)
                n *= 2
            if (fail and ok and cfg["reach_refine"]
                    and time.perf_counter() - start < cfg["reach_total"]):
                mid = _grid(K, math.sqrt(ok[0] * fail[0]))
                if ok[0] < mid < fail[0]:
                    status, sec, info = run_attempt(method, K, mid, budget, mem)
                    print(f" | mid {mid}:" + (f"{sec:.2g}s" if status == "ok"
                                              else f"{status}({sec:.2g}s)"), end="")
                    if status == "ok":
                        ok = (mid, sec, info)
                    else:
                        fail = (mid, status, sec, info)
            print()
            best[method, K] = (ok, fail)
    print(f"\n   Largest n that finished within {budget:g} s (time; size of the law or tables), "
          "and the first n that did not:")
    print(f"   {'method':21s} " + " ".join(f"{f'{K} x {K}':>34s}" for K in (2, 3, 4)))
    for method in REACH_METHODS:
        cells, fails = [], []
        for K in (2, 3, 4):
            got = best.get((method, K))
            if got is None:
                cells.append("skipped")
                fails.append("")
                continue
            ok, fail = got
            cells.append(f"n = {ok[0]:,} ({ok[1]:.2g} s; {ok[2]:,})" if ok else "none")
            if fail:
                reason = fail[1]
                if fail[1] == "refused":
                    reason = "max_work" if "max_work" in fail[3] else "refused"
                fails.append(f"n = {fail[0]:,}: {reason}")
            else:
                fails.append("no failure up to 2^28")
            results.append((f"4. reach {method}, {K}x{K} (<= {budget:g} s)", "(reported)",
                            f"n = {ok[0]:,}" if ok else "none", None))
        print(f"   {method:21s} " + " ".join(f"{c:>34s}" for c in cells))
        print(f"   {'  first failure':21s} " + " ".join(f"{c:>34s}" for c in fails))
    for (method, K), got in best.items():
        if got and got[1] and got[1][1] in ("refused", "memory", "crashed", "error"):
            print(f"   note {method} {K}x{K} n = {got[1][0]:,}: {got[1][3][:150]}")


# -- environment ------------------------------------------------------------------------------





# -- main -------------------------------------------------------------------------------------

def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1].strip())
    parser.add_argument("--quick", action="store_true",
                        help="fewer repeats, 2 s per reach attempt, under ~60 s")
    parser.add_argument("--profile", action="store_true",
                        help="also cProfile the informational slow parts (missed targets are "
                             "always profiled)")
    parser.add_argument("--only", type=int, nargs="+", choices=(1, 2, 3, 4), metavar="PART",
                        help="run only these parts (1: IADJUST, 2: 3x3 exact, 3: 3x6, "
                             "4: reach)")
    args = parser.parse_args(argv)
    cfg = QUICK if args.quick else FULL
    start = time.perf_counter()
    print_header("clusteragree nulls benchmark" + (" (--quick: small budgets, 2 s per reach "
                 "attempt)" if args.quick else " (full)"), "scipy", scipy.__version__)
    results, slow_parts, sections = [], [], []
    parts = (("1. IADJUST", bench_iadjust), ("2. 3x3 exact", bench_iris),
             ("3. 3x6 and DP/enumeration", bench_3x6), ("4. reach", bench_reach))
    for title, bench in (p for i, p in enumerate(parts, 1) if not args.only or i in args.only):
        t0 = time.perf_counter()
        if sections:
            print(f"\n  [load average now: {load()}]")
        bench(cfg, results, slow_parts)
        sections.append(f"{title} {time.perf_counter() - t0:.1f} s")

    print("\n" + "=" * 110)
    print("SUMMARY" + (" (--quick: fewer repeats and 2 s reach budgets; indicative only)"
                       if args.quick else ""))
    print(f"  {'target':58s} {'wanted':>12s} {'measured':>30s}  result")
    for what, wanted, got, ok in results:
        verdict = "info" if ok is None else ("PASS" if ok else "FAIL")
        print(f"  {what:58s} {wanted:>12s} {got:>30s}  {verdict}")
    failed = [r for r in results if r[3] is False]
    passed = sum(r[3] is True for r in results)
    print(f"  {passed} passed, {len(failed)} failed; total run time "
          f"{time.perf_counter() - start:.1f} s ({', '.join(sections)}); load average at end: "
          f"{load()}")
    print("=" * 110)
    to_profile = [(t, fn) for t, fn, target in slow_parts if target or args.profile]
    if to_profile:
        print("\nPROFILES of the parts that missed their target"
              + (" and of the informational slow parts" if args.profile else ""))
        for title, fn in to_profile:
            cold()
            profile_top(fn, title)
    return 0


if __name__ == "__main__":
    sys.exit(main())
