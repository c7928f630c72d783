#!/usr/bin/env python
"""Reduced mutual information: time of ``rmi`` with the exact count of tables against the
approximate one (Newman, Cantwell & Young 2020, eq. 29), at n = 100, 1000, 10^4.

    python benchmarks/bench_rmi.py            # about a minute
    python benchmarks/bench_rmi.py --quick    # exact counts capped at 2 10^6 entries

For balanced K x Q tables (K, Q in (2, 3), (3, 3), (4, 4)) built from two independent random
labellings of n objects (seed 1): the time of ``ca.agreement(tab, index="rmi", count=...)``
with a cold count cache (best of 3), the count ``rmi_count_method`` reports for "auto", and the
relative error of the estimate of log Omega where the exact count finished. "exact" runs with
``max_work`` = ``EXACT_MAX_WORK`` (2 10^7 entries of compositions; --quick: 2 10^6); above
that it refuses, and the time to refuse is shown.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

import clusteragree as ca
from clusteragree.indices import reduced
from clusteragree._moments.combinatorics import compositions


def timed(fn, repeats=3):
    best, out = math.inf, None
    for _ in range(repeats):
        reduced._log_omega_sorted.cache_clear()
        compositions.cache_clear()
        t0 = time.perf_counter()
        try:
            out = fn()
        except ValueError:
            out = None
        best = min(best, time.perf_counter() - t0)
    return best, out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    cap = 2_000_000 if args.quick else reduced.EXACT_MAX_WORK
    rng = np.random.default_rng(1)
    print(f"{'shape':>6} {'n':>6} {'exact':>12} {'approximate':>12} {'auto uses':>12} "
          f"{'log Omega':>10} {'rel. error':>10}")
    for k, q in ((2, 3), (3, 3), (4, 4)):
        for n in (100, 1000, 10_000):
            tab = ca.crosstab(rng.integers(0, k, n), rng.integers(0, q, n))
            counts = np.asarray(tab.counts if hasattr(tab, "counts") else tab)
            rows, cols = counts.sum(axis=1), counts.sum(axis=0)
            t_ex, v_ex = timed(lambda: ca.agreement(tab, index="rmi", count="exact",
                                                    max_work=cap), repeats=1 if n > 100 else 3)
            t_ap, _ = timed(lambda: ca.agreement(tab, index="rmi", count="approximate"))
            auto = reduced.rmi_count_method(tab)
            approx = reduced.log_omega_approx(rows, cols)
            if v_ex is None:
                ex_txt, err_txt = f"refused {t_ex * 1e3:.0f} ms", "-"
            else:
                lo = reduced.log_omega(rows, cols, count="exact", max_work=cap)
                ex_txt, err_txt = f"{t_ex * 1e3:.1f} ms", f"{abs(approx - lo) / lo:.2e}"
            print(f"{k}x{q:<4} {n:>6} {ex_txt:>12} {t_ap * 1e6:>9.0f} us {auto:>12} "
                  f"{approx:>10.2f} {err_txt:>10}")


if __name__ == "__main__":
    main()
