#!/usr/bin/env python
"""Tail p-values beyond the Monte Carlo floor (issue 32): accuracy against the exact law, and
speed on a 10 x 10 table of 10**4 objects.

    python benchmarks/bench_saddlepoint.py                    # everything (exact laws too)
    python benchmarks/bench_saddlepoint.py --quick            # n_sim 5,000 per estimate
    python benchmarks/bench_saddlepoint.py --no-speed
    python benchmarks/bench_saddlepoint.py --saddlepoint-only # the saddlepoint columns only
    python benchmarks/bench_saddlepoint.py --reuse-exact benchmarks/results/saddlepoint.csv
    python benchmarks/bench_saddlepoint.py --hard NAME [--reuse-exact CSV]  # the hard cases
    python benchmarks/bench_saddlepoint.py --seed 2 --reuse-exact benchmarks/results/saddlepoint.csv

Two methods are measured on the same values of s = sum n_ij^2 (adjusted_rand and every
pair-counting index) and t = sum n_ij log n_ij (mutual_info and every information index),
with the exact law (``statistic_law``, the network-algorithm dynamic programme) as the oracle:

* ``method="importance"`` (``clusteragree.nulls.importance.tail_probability``): its relative
  error, the error in its own standard errors, and whether its 95% interval (the mean of 10
  runs +- t_9(0.975) = 2.262 standard errors; +-1.96 is also counted) covers the exact p.
* ``method="saddlepoint"`` (``clusteragree.nulls.saddlepoint.saddlepoint_tail``: Lugannani-Rice
  on a Laplace cumulant generating function over tables): its relative error where it answers,
  and how often and why it refuses (columns ``sp_*``). ``--saddlepoint-only`` reads the stored
  exact p (and the importance columns) from results/saddlepoint.csv and rewrites only these,
  with the home-ground cases (3 x 3 and 3 x 4 tables of 200 to 1,000 objects whose exact law
  of s still fits, results/saddlepoint_home.csv, computed once by a full run) and the 10 x 10
  comparison with importance sampling and Patefield tables.

The values are support points of the exact law whose upper tail is closest below 1e-3,
1e-10, 1e-30, 1e-60 and 1e-100 (where the law reaches them), and the lower tail closest below
1e-3. Tables: 2 x 2 to 4 x 5, n from 50 to 800; t only where its exact law fits
(``max_work`` 1e8). Results: benchmarks/results/saddlepoint.{csv,md}.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

import numpy as np
import pandas as pd
from scipy import stats

import clusteragree as ca
from _bench import git_state, load  # noqa: E402  (script folder)
from clusteragree.indices import STATISTICS
from clusteragree.nulls import random_tables, statistic_law
from clusteragree.nulls.exact import estimate_dp_work
from clusteragree.nulls.importance import RunsDisagree, _raw_relative_se, tail_probability
from clusteragree.nulls.saddlepoint import OutsideDomain, saddlepoint_tail

HERE = os.path.dirname(os.path.abspath(__file__))

TABLES = [  # margins: 2 x 2 to 4 x 5, n 50 to 800
    ([30, 20], [25, 25]), ([60, 40], [70, 30]), ([300, 200], [250, 250]), ([500, 300], [400, 400]),
    ([120, 80], [50, 50, 50, 50]), ([90, 60], [40, 40, 40, 30]), ([50, 50], [20] * 5),
    ([400, 200], [100, 200, 300]), ([100] * 4, [200, 200]), ([300, 300, 200], [400, 400]),
    ([20, 15, 15], [10, 20, 20]), ([40, 30, 30], [50, 30, 20]), ([100, 60, 40], [50, 50, 100]),
    ([60, 50, 40], [50, 50, 50]), ([70, 50, 30], [60, 50, 40]), ([200, 100, 100], [150, 150, 100]),
    ([40, 30, 30], [25] * 4), ([45, 35, 20], [30, 30, 20, 20]), ([35, 30, 25, 10], [40, 30, 30]),
    ([15, 15, 10, 10], [12, 12, 10, 8, 8]), ([20, 15, 15, 10], [15, 15, 10, 10, 10]),
    ([25, 20, 15, 10], [20, 15, 15, 10, 10]), ([30, 20, 20, 10], [20] * 4),
    ([40, 30, 20, 10], [30, 30, 20, 20]), ([50, 50, 40, 30], [60, 60, 50]),
    ([150, 100, 50], [100, 100, 50, 50]), ([250, 250], [100] * 5), ([80, 70], [50, 50, 50]),
    ([25, 25, 25, 25], [50, 50]), ([35, 35, 30], [35, 35, 30]),
]
LEVELS = (1e-3, 1e-10, 1e-30, 1e-60, 1e-100)
MAX_WORK = 10**8

#: Hard cases for method="importance" (``--hard``): near-equal margins, where the tilted law
#: has one mode per alignment of rows with columns (24 on 4 x 4 tables), at p 1e-20 to 1e-60;
#: the 4 x 4 table of 100 objects is the one whose estimates were 25-46% low at p = 3.9e-37.
HARD_TABLES = [
    ([15] * 4, [15] * 4), ([23, 26, 24, 27], [22, 26, 26, 26]), ([30] * 4, [30] * 4),
    ([20] * 3, [20] * 3), ([35, 33, 32], [34, 33, 33]), ([50] * 3, [50] * 3),
    ([70, 65, 65], [67, 67, 66]),
]
HARD_LEVELS = (1e-20, 1e-30, 1e-40, 1e-60)
HARD_MAX_WORK = 2 * 10**9  # the exact law of s on the 4 x 4 tables of 100 and 120 objects


# -- the accuracy table -----------------------------------------------------------------------

def points(v, p, levels=LEVELS, lower_tail=True):
    """(alternative, level, value, exact p) at the levels the law reaches."""
    upper = np.cumsum(p[::-1])[::-1]
    lower = np.cumsum(p)
    out = []
    for level in levels:
        i = int(np.searchsorted(-upper, -level))  # first value whose upper tail <= level
        if i < len(v) and upper[i] > level * 1e-3:
            out.append(("greater", level, float(v[i]), float(upper[i])))
    i = int(np.searchsorted(lower, 1e-3, side="right")) - 1
    if i >= 0 and lower_tail:
        out.append(("less", 1e-3, float(v[i]), float(lower[i])))
    return out


def lognormal_rse(runs):
    """The relative standard error of the mean of the runs were each run log-normal, from the
    variance of their logarithms (steadier than their own spread when they are skewed)."""
    logs = np.asarray(runs, dtype=float)
    return math.sqrt(math.expm1(float(logs.var(ddof=1))) / len(logs))


def exact_cases(tables=TABLES, levels=LEVELS, max_work=MAX_WORK):
    """The cases (margins, statistic, alternative, value and its exact p) on the tables whose
    exact law fits ``max_work``."""
    for a, b in tables:
        for statistic, index in (("s", "adjusted_rand"), ("t", "mutual_info")):
            if estimate_dp_work(a, b, statistic) > max_work:
                continue
            v, p = statistic_law(a, b, statistic, max_work=30 * max_work)
            for alternative, level, value, exact in points(v, p, levels, levels is LEVELS):
                yield {"table": f"{len(a)}x{len(b)}", "rows": a, "cols": b,
                       "n": int(sum(a)), "statistic": statistic, "index": index,
                       "alternative": alternative, "level": level, "value": value,
                       "exact_p": exact}


def stored_cases(path):
    """The cases of a stored results csv, their exact p as computed then (``--reuse-exact``:
    the exact laws of the hard cases take many minutes)."""
    keys = ["table", "rows", "cols", "n", "statistic", "index", "alternative", "level",
            "value", "exact_p"]
    for row in pd.read_csv(path)[keys].to_dict("records"):
        row["rows"], row["cols"] = json.loads(row["rows"]), json.loads(row["cols"])
        yield row


def accuracy(n_sim, seed=1, cases=None):
    """``method="importance"`` on each case (default: ``exact_cases()``) against its exact p."""
    rows = []
    for case in exact_cases() if cases is None else cases:
        a, b, statistic = case["rows"], case["cols"], case["statistic"]
        value, exact = case["value"], case["exact_p"]
        t0 = time.perf_counter()
        try:
            est = tail_probability(a, b, value, statistic, case["alternative"], n_sim=n_sim,
                                   seed=seed)
        except RunsDisagree as exc:  # refused (too noisy after more runs, or disagreeing)
            rows.append({**case, "is_refused": str(exc).split(";")[0],
                         "is_seconds": time.perf_counter() - t0})
            print(f"{case['table']} n={case['n']:4d} {statistic} p={exact:.2e} refused: "
                  f"{rows[-1]['is_refused']}", flush=True)
            continue
        secs = time.perf_counter() - t0
        rel = math.exp(est.log_pvalue - math.log(exact)) - 1
        se = est.relative_se * (rel + 1)  # over the exact p
        if est.exact:  # the tables at the largest value (issue 45): no runs
            raw, q = 0.0, 0.0
        else:
            raw = _raw_relative_se(np.asarray(est.runs)) * (rel + 1)
            q = float(stats.t.ppf(0.975, len(est.runs) - 1))  # t_9 = 2.262 for 10 runs
        rows.append({**case, "is_p": est.pvalue,
                     "is_log10_p": est.log_pvalue / math.log(10),
                     "is_relative_se": est.relative_se, "is_rel_error": rel,
                     "is_error_in_se": rel / se if se > 0 else math.nan,
                     "covered_t9": abs(rel) <= q * se + 1e-9,
                     "covered_normal": abs(rel) <= 1.96 * se,
                     "covered_raw_t9": abs(rel) <= q * raw + 1e-9,
                     "covered_lognormal": est.exact or abs(rel) <= q * (rel + 1) * lognormal_rse(
                         est.runs),
                     "is_n_runs": len(est.runs), "is_refused": "",
                     "is_runs": " ".join(f"{v:.6g}" for v in est.runs),
                     "is_seconds": secs})
        print(f"{case['table']} n={case['n']:4d} {statistic} {case['alternative']:7s} "
              f"p={exact:.2e} IS {rel:+.3f} (rse {est.relative_se:.3f}, "
              f"{len(est.runs)} runs, {secs:.1f} s)", flush=True)
    return pd.DataFrame(rows)


# -- method="saddlepoint" against the exact law --------------------------------------------

#: Tables where the saddlepoint is at home and the exact law of s still fits (a few seconds to
#: a minute or two each): 3 x 3 and 3 x 4 tables of 200 to 1,000 objects, cells of 12 to 150.
HOME = [([120, 100, 80], [100, 100, 100]), ([200, 170, 130], [150, 200, 150]),
        ([250, 200, 150], [200, 200, 200]), ([80, 60, 60], [50, 50, 50, 50]),
        ([400, 350, 250], [300, 400, 300])]
HOME_LEVELS = (1e-3, 1e-5, 1e-10, 1e-20, 1e-30)


def saddlepoint_case(a, b, value, statistic, alternative, exact):
    """The saddlepoint p of one case: its relative error, or why it refused."""
    t0 = time.perf_counter()
    try:
        est = saddlepoint_tail(a, b, value, statistic, alternative)
    except OutsideDomain as exc:
        reason = str(exc).split(": ", 1)[-1].split(";")[0]
        return {"sp_log10_p": math.nan, "sp_rel_error": math.nan, "sp_refused": reason,
                "sp_seconds": time.perf_counter() - t0}
    return {"sp_log10_p": est.log_pvalue / math.log(10),
            "sp_rel_error": math.exp(est.log_pvalue - math.log(exact)) - 1, "sp_refused": "",
            "sp_seconds": time.perf_counter() - t0}


def saddlepoint_columns(acc):
    """The ``sp_*`` columns of the accuracy cases (the stored exact p; nothing else read)."""
    acc = acc.drop(columns=[c for c in acc.columns
                            if c.startswith("sp_") or c == "saddlepoint_rel_error"])
    out = []
    for r in acc.itertuples():
        a, b = (json.loads(x) if isinstance(x, str) else x for x in (r.rows, r.cols))
        out.append(saddlepoint_case(a, b, r.value, r.statistic, r.alternative, r.exact_p))
    return pd.concat([acc.reset_index(drop=True), pd.DataFrame(out)], axis=1)


def home_cases(path):
    """The home-ground cases (exact law of s computed once, then read from ``path``) with
    their saddlepoint columns."""
    if os.path.exists(path):
        home = pd.read_csv(path)
        home = home[[c for c in home.columns if not c.startswith("sp_")]]
    else:
        rows = []
        for a, b in HOME:
            v, p = statistic_law(a, b, "s", max_work=10**11)
            upper, lower = np.cumsum(p[::-1])[::-1], np.cumsum(p)
            for level in HOME_LEVELS:
                i = int(np.searchsorted(-upper, -level))
                if i < len(v) and upper[i] > level * 1e-3:
                    rows.append({"table": f"{len(a)}x{len(b)}", "rows": a, "cols": b,
                                 "n": int(sum(a)), "statistic": "s", "alternative": "greater",
                                 "level": level, "value": float(v[i]),
                                 "exact_p": float(upper[i])})
            for level in (0.1, 1e-3):
                i = int(np.searchsorted(lower, level, side="right")) - 1
                if i >= 0:
                    rows.append({"table": f"{len(a)}x{len(b)}", "rows": a, "cols": b,
                                 "n": int(sum(a)), "statistic": "s", "alternative": "less",
                                 "level": level, "value": float(v[i]),
                                 "exact_p": float(lower[i])})
            print(f"home {a} x {b}: exact law of s, {len(v)} values", flush=True)
        home = pd.DataFrame(rows)
        home.to_csv(path, index=False)
    return saddlepoint_columns(home)


#: A broader set for the saddlepoint's domain (issue 45): small tables (n 30 to 200, the
#: sizes of observed tables such as the issue's 3 x 3 table of 60 objects) at every depth from
#: p = 1e-2 to 1e-20, not only near 1e-3; exact laws of s and t that fit ``BROAD_MAX_WORK``.
BROAD = [([10, 10, 10], [10, 10, 10]), ([20, 20, 20], [19, 20, 21]),
         ([25, 20, 15], [20, 20, 20]), ([30, 20, 10], [25, 20, 15]),
         ([40, 40, 40], [40, 40, 40]), ([50, 40, 30], [40, 40, 40]),
         ([60, 30, 30], [40, 40, 40]), ([70, 70, 60], [60, 70, 70]),
         ([100, 60, 40], [80, 70, 50]), ([20, 20, 20], [15, 15, 15, 15]),
         ([60, 50, 40], [40, 40, 35, 35]), ([40, 40], [20, 20, 20, 20]),
         ([60, 40], [30, 30, 20, 20]), ([30, 30], [12, 12, 12, 12, 12]),
         ([15, 15, 15, 15], [15, 15, 15, 15]), ([20, 20, 10, 10], [15, 15, 15, 15]),
         ([20, 15, 15, 10], [12, 12, 12, 12, 12]),
         # added after the bound MIN_EFFECTIVE_CELL was set on those above: a check of it
         ([30, 30, 30], [35, 30, 25]), ([45, 30, 15], [30, 30, 30]),
         ([30, 30, 20, 20], [40, 30, 30]), ([60, 60], [20] * 6), ([30, 30, 30], [18] * 5),
         ([80, 50, 20], [50, 50, 50]), ([40, 40, 40], [30] * 4)]
#: How many of BROAD set the bound (the rest check it).
BROAD_SET = 17
BROAD_LEVELS = (1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-8, 1e-10, 1e-15, 1e-20)
BROAD_MAX_WORK = 5 * 10**7


def broad_cases(path):
    """The broader cases (exact laws computed once, then read from ``path``) with their
    saddlepoint columns."""
    if os.path.exists(path):
        frame = pd.read_csv(path)
        frame = frame[[c for c in frame.columns if not c.startswith("sp_")]]
        return saddlepoint_columns(frame)
    rows = []
    for a, b in BROAD:
        for statistic, index in (("s", "adjusted_rand"), ("t", "mutual_info")):
            if estimate_dp_work(a, b, statistic) > BROAD_MAX_WORK:
                continue
            v, p = statistic_law(a, b, statistic, max_work=30 * BROAD_MAX_WORK)
            upper, lower = np.cumsum(p[::-1])[::-1], np.cumsum(p)
            found = []
            for level in BROAD_LEVELS:
                i = int(np.searchsorted(-upper, -level))
                if i < len(v) and upper[i] > level * 1e-2:
                    found.append(("greater", level, float(v[i]), float(upper[i])))
            for level in (1e-2, 1e-3):
                i = int(np.searchsorted(lower, level, side="right")) - 1
                if i >= 0 and lower[i] > level * 1e-2:
                    found.append(("less", level, float(v[i]), float(lower[i])))
            for alternative, level, value, exact in found:
                rows.append({"table": f"{len(a)}x{len(b)}", "rows": a, "cols": b,
                             "n": int(sum(a)), "statistic": statistic, "index": index,
                             "alternative": alternative, "level": level, "value": value,
                             "exact_p": exact})
            print(f"broad {a} x {b} {statistic}: {len(found)} cases", flush=True)
    frame = pd.DataFrame(rows)
    frame.to_csv(path, index=False)
    return saddlepoint_columns(frame)


def broad_lines(broad):
    """The broader set's section: the bound MIN_EFFECTIVE_CELL set on the first margins and
    checked on the rest."""
    first = broad.apply(lambda r: [json.loads(r.rows) if isinstance(r.rows, str) else r.rows,
                                   json.loads(r.cols) if isinstance(r.cols, str) else r.cols]
                        in [[list(a), list(b)] for a, b in BROAD[:BROAD_SET]], axis=1)
    ans = broad.dropna(subset=["sp_rel_error"])
    return ["### A broader set: small tables at every depth (issue 45)", "",
            f"{len(broad)} cases on {len(BROAD)} margins (2 x 4 to 4 x 5, n 30 to 200; s and t "
            "where the exact law fits), upper tails at p 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-8, "
            "1e-10, 1e-15, 1e-20 and lower tails at 1e-2 and 1e-3. Before issue 45 the "
            "saddlepoint answered 48 of the first 277 cases (those of the first 17 margins), "
            "with errors up to +22,200% (3 x 4, n = 60, t, p = 8.7e-16), 15 of them beyond 10%; "
            "the bound on a tilted cell's effective size (MIN_EFFECTIVE_CELL = 1.6) was set on "
            "them and checked on the last 7 margins.", "",
            saddlepoint_summary(broad[first],
                                f"the {int(first.sum())} cases that set the bound"),
            saddlepoint_summary(broad[~first],
                                f"the {int((~first).sum())} cases that check it"),
            "* answered upper tails by depth: " + ", ".join(
                f"{lv:g}: {int(((ans.level == lv) & (ans.alternative == 'greater')).sum())}"
                for lv in BROAD_LEVELS), "",
            markdown(ans[["table", "n", "statistic", "alternative", "exact_p", "sp_log10_p",
                          "sp_rel_error"]]), ""]


def saddlepoint_summary(frame, name):
    """One line: answered share, errors where p <= 1e-3, refusals."""
    far = frame[frame.exact_p <= 1e-3]
    ans = far.dropna(subset=["sp_rel_error"])
    line = (f"* {name}: answered {len(ans)} of {len(far)} cases with p <= 1e-3 "
            f"({len(ans) / max(len(far), 1):.0%})")
    if len(ans):
        worst = ans.loc[ans.sp_rel_error.abs().idxmax()]
        line += (f"; median |relative error| {ans.sp_rel_error.abs().median():.1%}, worst "
                 f"{worst.sp_rel_error:+.1%} ({worst.table}, n = {worst.n}, {worst.statistic}, "
                 f"{worst.alternative}, exact p {worst.exact_p:.2e}); within 10% in "
                 f"{(ans.sp_rel_error.abs() <= 0.1).mean():.0%} of the answered")
    near = frame[(frame.exact_p > 1e-3)].dropna(subset=["sp_rel_error"])
    if len(near):
        line += (f"; where p > 1e-3: {len(near)} answered, worst "
                 f"{near.sp_rel_error.abs().max():.1%}")
    return line


def refusal_counts(frame):
    """How many cases each reason refused (the reason's first words)."""
    reasons = frame.sp_refused.fillna("")
    reasons = reasons[reasons != ""].str.replace(r"[0-9.]+( times)?", "#", regex=True)
    return reasons.value_counts()


def saddlepoint_lines(acc, home):
    lines = ["## method='saddlepoint' against the exact law", "",
             "Lugannani-Rice on s or t with a second-order Laplace approximation of the cumulant "
             "generating function over tables (``clusteragree/nulls/saddlepoint.py``), refused "
             "outside the domain set from these cases:", "",
             saddlepoint_summary(acc, f"the {len(acc)} cases above (2 x 2 to 4 x 5, n 50 to "
                                      "800)"),
             saddlepoint_summary(home, f"{len(home)} home-ground cases (3 x 3 and 3 x 4, n 200 "
                                       "to 1,000, s; p from 0.1 to 1e-30)"),
             f"* time per p-value: median {pd.concat([acc, home]).sp_seconds.median():.3f} s, "
             f"max {pd.concat([acc, home]).sp_seconds.max():.2f} s", "",
             "Refusals (all cases; # stands for a number):", ""]
    lines += [f"* {n}: {reason}" for reason, n in refusal_counts(pd.concat([acc, home])).items()]
    lines += ["", "The issue's double saddlepoint (Skovgaard 1987 on independent Poisson cells "
              "conditioned on the margins) was measured on the same 158 cases before and is not "
              "shipped: median |relative error| 114% where p <= 1e-3, worst +1.28e+16 (3 x 3, "
              "n = 400, s, exact p 9.56e-101), within 10% in 2%.", "",
              "### Home-ground cases", "",
              markdown(home[["table", "n", "alternative", "exact_p", "sp_log10_p",
                             "sp_rel_error", "sp_refused", "sp_seconds"]]), ""]
    return lines


def against_importance(n_sim, seed=1):
    """10 x 10 tables of 10**4 objects, beyond the exact law: the saddlepoint p against
    17,000 Patefield tables (p about 1e-2 and 1e-3) and against importance sampling (also at
    about 1e-15 and 1e-30), with the saddlepoint's time beside Patefield's."""
    from clusteragree.nulls.saddlepoint import LaplaceCGF

    rows = []
    margins = {"equal": np.full(10, 1000),
               "unequal": np.array([2000, 1500, 1200, 1000, 900, 900, 800, 700, 500, 500])}
    for name, m in margins.items():
        t0 = time.perf_counter()
        tables = random_tables(m, m, n_sim=17_000, seed=seed)
        patefield = time.perf_counter() - t0
        for statistic in ("s", "t"):
            sims = np.sort(STATISTICS[statistic](tables))
            cgf = LaplaceCGF(m, m, statistic)
            _, mean, var, _ = cgf.cgf(0.0)
            for level in (1e-2, 1e-3, 1e-15, 1e-30):
                if level >= 1e-3:
                    value = float(sims[int((1 - level) * len(sims))])
                else:  # the value whose saddlepoint p is level (bisection on z)
                    lo, hi = 1.0, 60.0
                    for _ in range(40):
                        z = 0.5 * (lo + hi)
                        try:
                            lp = saddlepoint_tail(m, m, mean + z * math.sqrt(var), statistic)
                            lo, hi = (z, hi) if lp.log_pvalue > math.log(level) else (lo, z)
                        except OutsideDomain:
                            hi = z
                    value = mean + z * math.sqrt(var)
                    if statistic == "s":  # on the lattice of s (s = n mod 2)
                        value = 2 * math.floor(value / 2)
                row = {"margins": name, "statistic": statistic, "level": level,
                       "value": value, "patefield_17000_seconds": patefield}
                t0 = time.perf_counter()
                try:
                    est = saddlepoint_tail(m, m, value, statistic)
                    row["sp_log10_p"] = est.log_pvalue / math.log(10)
                    row["sp_refused"] = ""
                except OutsideDomain as exc:
                    row["sp_log10_p"] = math.nan
                    row["sp_refused"] = str(exc).split(": ", 1)[-1].split(";")[0]
                row["sp_seconds"] = time.perf_counter() - t0
                if level >= 1e-3:
                    k = int((sims >= value - 1e-9 * abs(value)).sum())
                    row["patefield_p"] = k / len(sims)
                    row["patefield_se"] = math.sqrt(k * (1 - k / len(sims))) / len(sims)
                t0 = time.perf_counter()
                est = tail_probability(m, m, value, statistic, n_sim=n_sim, seed=seed)
                row.update({"is_log10_p": est.log_pvalue / math.log(10),
                            "is_relative_se": est.relative_se,
                            "is_seconds": time.perf_counter() - t0})
                row["sp_over_is"] = 10 ** (row["sp_log10_p"] - row["is_log10_p"]) - 1
                row["sp_over_is_in_se"] = row["sp_over_is"] / est.relative_se
                rows.append(row)
                print(f"10x10 {name} {statistic} {level:g}: saddlepoint "
                      f"{row['sp_log10_p']:.3f} ({row['sp_seconds']:.3f} s) importance "
                      f"{row['is_log10_p']:.3f} +- {est.relative_se:.1%} "
                      f"({row['sp_over_is']:+.1%}) {row['sp_refused']}", flush=True)
    return pd.DataFrame(rows)


def ten_lines(frame):
    answered = frame.dropna(subset=["sp_log10_p"])
    return ["## method='saddlepoint' on 10 x 10 tables of 10**4 objects", "",
            "Beyond the exact law: the saddlepoint p against importance sampling "
            "(`tail_probability`, its own relative s.e.) and, at p = 0.01 and 0.001, against "
            "17,000 Patefield tables. Margins 1,000 each (\"equal\") or 2,000 to 500 "
            "(\"unequal\"); the values at 1e-15 and 1e-30 are those whose saddlepoint p is "
            "that level, or the deepest it answers where it refuses that level.", "",
            f"* answered {len(answered)} of {len(frame)}; |saddlepoint / importance - 1| within "
            f"2 importance s.e. in {(answered.sp_over_is_in_se.abs() <= 2).mean():.0%} of the "
            f"answered, max {answered.sp_over_is_in_se.abs().max():.2f} s.e.",
            f"* time per saddlepoint p: median {frame.sp_seconds.median():.3f} s, max "
            f"{frame.sp_seconds.max():.3f} s; 17,000 Patefield tables: "
            f"{frame.patefield_17000_seconds.median():.2f} s", "",
            markdown(frame[["margins", "statistic", "level", "sp_log10_p", "sp_seconds",
                            "is_log10_p", "is_relative_se", "sp_over_is", "sp_over_is_in_se",
                            "patefield_p", "patefield_se", "sp_refused"]]), ""]


# -- speed on 10 x 10, n = 10**4 --------------------------------------------------------------

def diagonal_table(K, n, ari):
    """A K x K table of n objects with equal margins, tilted toward the diagonal until its
    adjusted Rand index is about ``ari``."""
    base = n // (K * K)
    for shift in range(0, base):
        tab = np.full((K, K), base) - shift
        tab[np.diag_indices(K)] += shift * K
        if ca.agreement(tab, index="adjusted_rand") >= ari:
            return tab
    raise ValueError("no such table")


def speed(n_sim, seed=1):
    rows = []
    K, n = 10, 10**4
    margins = np.full(K, n // K)
    t0 = time.perf_counter()
    tables = random_tables(margins, margins, n_sim=17_000, seed=seed)
    patefield = time.perf_counter() - t0
    print(f"17,000 Patefield tables (10 x 10, n = 10**4): {patefield:.2f} s", flush=True)
    # a check at scale: at the 99th and 99.9th percentiles of s, the two estimates agree
    s_mc = np.sort(STATISTICS["s"](tables))
    for q in (0.99, 0.999):
        s = float(s_mc[int(q * len(s_mc))])
        k = int((s_mc >= s - 1e-9 * s).sum())
        t0 = time.perf_counter()
        est = tail_probability(margins, margins, s, "s", n_sim=n_sim, seed=seed)
        secs = time.perf_counter() - t0
        mc, mc_se = k / len(s_mc), math.sqrt(k * (1 - k / len(s_mc))) / len(s_mc)
        diff = (est.pvalue - mc) / math.hypot(mc_se, est.pvalue * est.relative_se)
        rows.append({"case": f"s at the Patefield {q:.1%} point", "ari": math.nan, "seed": seed,
                     "log10_p": est.log_pvalue / math.log(10), "relative_se": est.relative_se,
                     "patefield_p": mc, "patefield_se": mc_se, "difference_in_se": diff,
                     "n_sim": n_sim, "seconds": secs, "patefield_17000_seconds": patefield,
                     "refused": ""})
        print(f"  Patefield p = {mc:.4g} +- {mc_se:.2g}, importance {est.pvalue:.4g} +- "
              f"{est.relative_se:.1%} ({diff:+.2f} s.e.) in {secs:.1f} s", flush=True)
    # p about 1e-15, 1e-30 and 1e-120 (whose runs of 1,000 tables disagree: refused; with
    # 10,000 tables per run, once)
    for ari, sims in ((0.001, n_sim), (0.0025, n_sim), (0.009, n_sim), (0.009, 10 * n_sim)):
        tab = diagonal_table(K, n, ari)
        s = float(STATISTICS["s"](tab))
        seeds = (seed,) if sims > n_sim else (seed, seed + 1, seed + 2)  # they vary with it
        for run_seed in seeds:
            row = {"case": "tilted toward the diagonal",
                   "ari": float(ca.agreement(tab, index="adjusted_rand")), "seed": run_seed}
            t0 = time.perf_counter()
            try:
                est = tail_probability(margins, margins, s, "s", n_sim=sims, seed=run_seed)
                row.update(log10_p=est.log_pvalue / math.log(10), relative_se=est.relative_se,
                           refused="")
            except RunsDisagree as exc:
                row.update(log10_p=math.nan, relative_se=math.nan,
                           refused=str(exc).split(": ", 1)[1].split(" (")[0])
            row.update(n_sim=sims, seconds=time.perf_counter() - t0,
                       patefield_17000_seconds=patefield)
            rows.append(row)
            print(f"  ARI {row['ari']:.4f} (seed {run_seed}, n_sim {sims:,}): log10 p = "
                  f"{row['log10_p']:.2f} +- {row['relative_se']:.1%} in {row['seconds']:.1f} s"
                  f" {row['refused']}", flush=True)
    return pd.DataFrame(rows)


def markdown(frame):
    """A frame as a markdown table, numbers to 3 significant digits."""
    def cell(v):
        return f"{v:.3g}" if isinstance(v, float) else str(v)
    lines = ["| " + " | ".join(frame.columns) + " |", "|" + "---|" * len(frame.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |"
              for row in frame.itertuples(index=False)]
    return "\n".join(lines)


def accuracy_lines(acc, n_sim, quick):
    refused = (acc[acc.is_refused.notna() & (acc.is_refused.astype(str) != "")]
               if "is_refused" in acc else acc.iloc[:0])
    acc = acc.drop(refused.index)
    far = acc[acc.exact_p <= 1e-3]
    worst = far.loc[far.is_rel_error.abs().idxmax()]
    lines = [
        "# Tail p-values beyond the Monte Carlo floor: accuracy and speed (issues 32, 45)", "",
        f"`python benchmarks/bench_saddlepoint.py{' --quick' if quick else ''}`"
        f"{git_state()}; n_sim {n_sim:,} per estimate (10 runs, up to 40 where the relative "
        f"s.e. is above 10%); load {load()}.", "",
        f"{len(acc) + len(refused)} cases on {acc[['table', 'n']].drop_duplicates().shape[0]} "
        f"margins (2 x 2 to 4 x 5, n {acc.n.min()} to {acc.n.max()}), exact p from "
        f"{acc.exact_p.max():.1e} to {acc.exact_p.min():.1e}.", "",
        "## method='importance' against the exact law", "",
        f"* refused (relative s.e. above 10% after 40 runs, or runs that disagree): "
        f"{len(refused)}",
        f"* where p <= 1e-3 ({len(far)} answered cases): median |relative error| "
        f"{far.is_rel_error.abs().median():.1%}, worst {worst.is_rel_error:+.1%} "
        f"({worst.table}, n = {worst.n}, {worst.statistic}, {worst.alternative}, exact p "
        f"{worst.exact_p:.2e}, relative s.e. {worst.is_relative_se:.1%}); "
        f"|error| <= 10% in {(far.is_rel_error.abs() <= 0.1).mean():.0%} of them",
        f"* |error| / its standard error: median {far.is_error_in_se.abs().median():.2f}, "
        f"max {far.is_error_in_se.abs().max():.2f}",
        f"* 95% interval (mean of the runs +- t quantile (2.262 for 10 runs) s.e., the s.e. at "
        f"least 5%) covers the exact p in {acc.covered_t9.mean():.1%} of all {len(acc)} "
        f"answered ({far.covered_t9.mean():.1%} where p <= 1e-3; "
        f"{acc[acc.exact_p < 1e-30].covered_t9.mean():.1%} below 1e-30, "
        f"{acc[acc.exact_p > 1e-15].covered_t9.mean():.1%} above 1e-15); with the raw s.e. "
        f"(no floor): {acc.covered_raw_t9.mean():.1%}; +- 1.96 s.e.: "
        f"{acc.covered_normal.mean():.1%}",
        f"* more than 10 runs: {(acc.is_n_runs > 10).sum()} cases",
        f"* median time per estimate {acc.is_seconds.median():.1f} s, max "
        f"{acc.is_seconds.max():.1f} s", ""]
    return lines


def seed_lines(out):
    """One line per results/importance_seedN.csv (``--seed N``): the interval's coverage on
    runs of another seed, with the stated and the raw standard error."""
    lines = []
    for name in sorted(f for f in os.listdir(out) if f.startswith("importance_seed")):
        acc = pd.read_csv(os.path.join(out, name))
        refused = acc.is_refused.notna() & (acc.is_refused.astype(str) != "")
        acc = acc[~refused]
        deep, shallow = acc[acc.exact_p < 1e-30], acc[acc.exact_p > 1e-15]
        lines.append(
            f"* other runs (`--seed {name[len('importance_seed'):-4]}`, {name}): "
            f"{int(refused.sum())} refused; the 95% interval covers the exact p in "
            f"{acc.covered_t9.mean():.1%} of {len(acc)} ({deep.covered_t9.mean():.1%} below "
            f"1e-30, {shallow.covered_t9.mean():.1%} above 1e-15); with the raw s.e. "
            f"{acc.covered_raw_t9.mean():.1%} ({deep.covered_raw_t9.mean():.1%}, "
            f"{shallow.covered_raw_t9.mean():.1%}); worst {acc.is_rel_error.min():+.1%} / "
            f"{acc.is_rel_error.max():+.1%}, at most {acc.is_error_in_se.abs().max():.2f} s.e.")
    return lines + [""] if lines else []


def cases_lines(acc):
    return ["## Cases", "",
            markdown(acc[["table", "n", "statistic", "alternative", "exact_p", "is_p",
                          "is_relative_se", "is_rel_error", "covered_t9", "is_seconds",
                          "sp_rel_error", "sp_refused"]]), ""]


def section(path, heading):
    """A section of the stored markdown (from its heading to the next), or []."""
    if not os.path.exists(path):
        return []
    text = open(path).read().split("\n")
    if heading not in text:
        return []
    i = text.index(heading)
    j = next((k for k in range(i + 1, len(text)) if text[k].startswith("## ")), len(text))
    return text[i:j]


def hard_lines(frames, n_sim):
    """The hard cases' summary: coverage and time, for each csv given (e.g. before, after)."""
    lines = ["# method='importance' on hard cases: near-equal margins, p 1e-20 to 1e-60",
             "", (f"`python benchmarks/bench_saddlepoint.py --hard`{git_state()}; n_sim "
                  f"{n_sim:,} per estimate (10 runs); load {load()}. Tables: "
                  + "; ".join(f"{a} x {b}" for a, b in HARD_TABLES) + "."), ""]
    for name, acc in frames.items():
        lines += [f"* {name}: {len(acc)} cases, the 95% interval (+- 2.262 s.e.) covers the "
                  f"exact p in {acc.covered_t9.mean():.0%}; median |error| "
                  f"{acc.is_rel_error.abs().median():.1%}, worst {acc.is_rel_error.min():+.1%}"
                  f" / {acc.is_rel_error.max():+.1%}; |error| / s.e. median "
                  f"{acc.is_error_in_se.abs().median():.2f}, max "
                  f"{acc.is_error_in_se.abs().max():.2f}; seconds per estimate median "
                  f"{acc.is_seconds.median():.1f}, max {acc.is_seconds.max():.1f}"]
    for name, acc in frames.items():
        lines += ["", f"## {name}", "",
                  markdown(acc[["table", "n", "statistic", "exact_p", "is_p", "is_relative_se",
                                "is_rel_error", "is_error_in_se", "covered_t9",
                                "is_seconds"]])]
    return lines + [""]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--no-speed", action="store_true")
    parser.add_argument("--no-accuracy", action="store_true",
                        help="read the accuracy cases from results/saddlepoint.csv")
    parser.add_argument("--hard", default=None, metavar="NAME",
                        help="only the hard cases (HARD_TABLES), written to "
                        "results/importance_hard_NAME.csv; results/importance_hard.md "
                        "summarises every such csv")
    parser.add_argument("--reuse-exact", default=None, metavar="CSV",
                        help="take the cases and their exact p from a stored results csv "
                             "instead of computing the exact laws again")
    parser.add_argument("--saddlepoint-only", action="store_true",
                        help="recompute only the saddlepoint columns and sections, reading the "
                             "stored exact p and importance columns")
    parser.add_argument("--seed", type=int, default=1,
                        help="another seed: only the importance estimates of the stored cases "
                             "(with --reuse-exact), written to results/importance_seedN.csv "
                             "and summarised in results/saddlepoint.md by the next full run")
    args = parser.parse_args()
    n_sim = 5_000 if args.quick else 10_000
    print(f"bench_saddlepoint{git_state()}; load {load()}; n_sim {n_sim:,}")
    out = os.path.join(HERE, "results")
    os.makedirs(out, exist_ok=True)
    if args.hard:
        cases = (stored_cases(args.reuse_exact) if args.reuse_exact else
                 exact_cases(HARD_TABLES, HARD_LEVELS, HARD_MAX_WORK))
        acc = accuracy(n_sim, cases=cases)
        acc.to_csv(os.path.join(out, f"importance_hard_{args.hard}.csv"), index=False)
        names = sorted(f for f in os.listdir(out) if f.startswith("importance_hard_"))
        frames = {f[len("importance_hard_"):-4]: pd.read_csv(os.path.join(out, f))
                  for f in names}
        lines = hard_lines(frames, n_sim)
        with open(os.path.join(out, "importance_hard.md"), "w") as fh:
            fh.write("\n".join(lines))
        print("\n".join(lines[:4 + len(frames)]))
        return
    if args.seed != 1:  # the same cases, other runs: is the stated error honest?
        acc = accuracy(n_sim, seed=args.seed,
                       cases=stored_cases(args.reuse_exact) if args.reuse_exact else None)
        acc.to_csv(os.path.join(out, f"importance_seed{args.seed}.csv"), index=False)
        print("\n".join(seed_lines(out)))
        return
    csv, md = os.path.join(out, "saddlepoint.csv"), os.path.join(out, "saddlepoint.md")
    importance_speed = section(md, "## Speed: 10 x 10, n = 10**4")
    if args.no_accuracy or args.saddlepoint_only:
        acc = pd.read_csv(csv)
    else:
        acc = accuracy(n_sim, cases=stored_cases(args.reuse_exact) if args.reuse_exact else None)
    acc = saddlepoint_columns(acc)
    acc.to_csv(csv, index=False)
    home = home_cases(os.path.join(out, "saddlepoint_home.csv"))
    home.to_csv(os.path.join(out, "saddlepoint_home.csv"), index=False)
    broad = broad_cases(os.path.join(out, "saddlepoint_broad.csv"))
    broad.to_csv(os.path.join(out, "saddlepoint_broad.csv"), index=False)
    lines = (accuracy_lines(acc, n_sim, args.quick) + seed_lines(out)
             + saddlepoint_lines(acc, home) + broad_lines(broad))
    print("\n".join(lines))
    with open(md, "w") as fh:
        fh.write("\n".join(lines + cases_lines(acc)))
    if not args.no_speed:
        ten = against_importance(n_sim)
        ten.to_csv(os.path.join(out, "saddlepoint_10x10.csv"), index=False)
        lines += ten_lines(ten)
        if args.saddlepoint_only:  # the importance speed section as it was
            lines += importance_speed
        else:
            frame = speed(n_sim)
            lines += ["## Speed: 10 x 10, n = 10**4", "",
                      "`method=\"importance\"` with its default 10,000 tables (10 runs), three "
                      "seeds per case, beside 17,000 Patefield tables in the same run; the "
                      "load is in the heading. At ARI 0.009 (p about 1e-120) the tilted law "
                      "turns abruptly (a first-order transition) and the runs disagree: "
                      "refused (`RunsDisagree`), with 1,000 tables per run and, for this seed, "
                      "with 10,000.", "",
                      markdown(frame), ""]
        with open(md, "w") as fh:
            fh.write("\n".join(lines + cases_lines(acc)))


if __name__ == "__main__":
    sys.exit(main())
