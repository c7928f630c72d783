#!/usr/bin/env python
"""Patefield's random tables: clusteragree's wrapper against scipy's bare sampler.

    python benchmarks/bench_patefield.py            # 15 interleaved rounds per case
    python benchmarks/bench_patefield.py --quick    # 5 rounds, a smaller large table (< 30 s)

What is measured (all ratios within the same run, contenders interleaved: one run of each per
round, best of the rounds, and the median of the per-round ratios):

1. The 17,000 tables of IADJUST on the Statlog margins (``ca.load_dataset("statlog_em")``,
   4 x 4, n = 846), seed 1: ``ca.nulls.random_tables(rows, cols, 17000, seed=1)``, and the
   batches the null engine consumes (``random_table_batches``), against
   ``scipy.stats.random_table(rows, cols).rvs(size, method="patefield",
   random_state=np.random.default_rng(1))`` called in the same batches, and called once for
   all 17,000. Target: ours within 1.05 x scipy's in the same batches.
2. The same with an empty row and an empty column inserted (scipy is then called on the
   non-empty margins, and the tables are padded with zeros).
3. A 30 x 30 table (``--quick``: 12 x 12) of 17,000 tables, drawn in several batches.
4. The whole Monte Carlo null law of the ARI on Statlog (``ca.agreement_test(tab,
   index="ari", method="patefield", n_sim=17000, seed=1)``) against the same call with the
   package's batches replaced by scipy's bare batches (no guard, no padding).

Times: wall (``time.perf_counter``) and CPU (``time.process_time``: all of it is one thread's
work, and it is the steadier of the two when other processes share the cores); the summary
gives the CPU ratios. Every contender's tables are checked to be the same as scipy's (same seed, same tables).
Run it with ``PYTHONPATH`` set to another checkout to time that version of the package.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
import scipy
from scipy import stats

import clusteragree as ca
from _bench import fmt_s, print_header
from clusteragree.nulls import patefield

N_SIM, SEED = 17_000, 1
BATCH_CELLS = getattr(patefield, "_BATCH_CELLS", 1_000_000)  # the package's batch size


def scipy_batches(rows, cols, n_sim, rng):
    """scipy's sampler on the non-empty margins, in the package's batches, nothing else."""
    rows, cols = np.asarray(rows), np.asarray(cols)
    dist = stats.random_table(rows[rows > 0], cols[cols > 0])
    per = max(1, BATCH_CELLS // (rows.size * cols.size))
    for start in range(0, n_sim, per):
        stop = min(n_sim, start + per)
        yield start, stop, dist.rvs(size=stop - start, method="patefield", random_state=rng)


def interleaved(contenders, rounds):
    """The wall and CPU times of each contender over ``rounds`` rounds (one run of each per
    round, in an order rotated every round, after one warm-up run each)."""
    for fn in contenders.values():
        fn()
    times = {name: ([], []) for name in contenders}
    names = list(contenders)
    for k in range(rounds):
        for name in names[k % len(names):] + names[:k % len(names)]:
            fn = contenders[name]
            w0, c0 = time.perf_counter(), time.process_time()
            fn()
            c1, w1 = time.process_time(), time.perf_counter()
            times[name][0].append(w1 - w0)
            times[name][1].append(c1 - c0)
    return times


def report(title, times, reference):
    """Best wall and CPU times, their ratios to the reference's, and the median of the
    per-round wall ratios; returns the CPU ratios (the steadier on a loaded machine)."""
    print(f"\n{title}  (best wall | best CPU; ratios to {reference!r})")
    (ref_w, ref_c), out = times[reference], {}
    for name, (wall, cpu) in times.items():
        med = statistics.median(t / r for t, r in zip(wall, ref_w))
        out[name] = min(cpu) / min(ref_c)
        print(f"  {name:<42} {fmt_s(min(wall))} x{min(wall) / min(ref_w):5.3f} "
              f"(median x{med:5.3f}) | {fmt_s(min(cpu))} x{out[name]:5.3f}")
    return out


def consume(batches):
    for _ in batches:
        pass


def tables_case(title, rows, cols, rounds):
    rows, cols = np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
    on = np.ix_(np.arange(N_SIM), np.flatnonzero(rows), np.flatnonzero(cols))
    ours = ca.nulls.random_tables(rows, cols, N_SIM, seed=SEED)
    bare = np.concatenate([t for *_, t in scipy_batches(rows, cols, N_SIM,
                                                        np.random.default_rng(SEED))])
    same = bool((ours[on] == bare).all() and ours.sum() == bare.sum())
    streamed = np.concatenate([t for *_, t in patefield.random_table_batches(
        rows, cols, N_SIM, np.random.default_rng(SEED))])
    same &= bool((streamed == ours).all())
    per = max(1, BATCH_CELLS // (rows.size * cols.size))
    print(f"\n  {rows.size} x {cols.size}, n = {rows.sum()}: {N_SIM:,} tables in "
          f"{-(-N_SIM // per)} batch(es) of up to {per:,}; same tables as scipy's: {same}")
    dist = stats.random_table(rows[rows > 0], cols[cols > 0])
    times = interleaved({
        "scipy, the package's batches": lambda: consume(
            scipy_batches(rows, cols, N_SIM, np.random.default_rng(SEED))),
        "ours: random_tables": lambda: ca.nulls.random_tables(rows, cols, N_SIM, seed=SEED),
        "ours: random_table_batches (null engine)": lambda: consume(
            patefield.random_table_batches(rows, cols, N_SIM, np.random.default_rng(SEED))),
        "scipy, one call for all": lambda: dist.rvs(
            size=N_SIM, method="patefield", random_state=np.random.default_rng(SEED)),
    }, rounds)
    return report(title, times, "scipy, the package's batches"), same


def null_law_case(rounds):
    tab = ca.load_dataset("statlog_em")
    real = patefield.random_table_batches

    def bare(rows, cols, n_sim, rng, progress=False):
        return scipy_batches(rows, cols, n_sim, rng)

    def run(batches):
        patefield.random_table_batches = batches
        try:
            return ca.agreement_test(tab, index="ari", method="patefield", n_sim=N_SIM,
                                     seed=SEED)
        finally:
            patefield.random_table_batches = real

    same = bool((run(real).null.samples == run(bare).null.samples).all())
    times = interleaved({"agreement_test, scipy's bare batches": lambda: run(bare),
                         "agreement_test (ours)": lambda: run(real)}, rounds)
    print(f"\n  same null samples: {same}")
    return report("4. ARI's Monte Carlo null law on Statlog (17,000 tables)", times,
                  "agreement_test, scipy's bare batches"), same


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1].strip())
    parser.add_argument("--quick", action="store_true", help="5 rounds, a smaller large table")
    args = parser.parse_args()
    rounds = 5 if args.quick else 15
    print_header("clusteragree Patefield benchmark" + (" (--quick)" if args.quick else ""),
                 "scipy", scipy.__version__)
    tab = ca.load_dataset("statlog_em")
    rows, cols = tab.row_sums.tolist(), tab.col_sums.tolist()
    big = 12 if args.quick else 30
    cases = [("1. Statlog margins", rows, cols),
             ("2. Statlog with an empty row and column", rows[:1] + [0] + rows[1:],
              cols[:2] + [0] + cols[2:]),
             (f"3. {big} x {big}, n = {big * 100}", [100] * big,
              [50, 150] * (big // 2))]
    summary, all_same = [], True
    for title, r, c in cases:
        ratios, same = tables_case(title, r, c, rounds)
        all_same &= same
        summary.append((title, ratios))
    ratios, same = null_law_case(rounds)
    all_same &= same
    summary.append(("4. ARI null law on Statlog", ratios))
    print("\nSUMMARY (CPU time / scipy's in the same batches; best of "
          f"{rounds} interleaved rounds)")
    for title, ratios in summary:
        print(f"  {title:<42} " + ", ".join(
            f"{name.split(':')[-1].strip()} x{r:.3f}" for name, r in ratios.items()
            if not name.startswith("scipy, the") and "bare" not in name))
    target = summary[0][1]["ours: random_tables"]
    print(f"  target: random_tables on Statlog within 1.05 x scipy: x{target:.3f} "
          f"{'met' if target <= 1.05 else 'MISSED'}; same tables everywhere: {all_same}")


if __name__ == "__main__":
    main()
