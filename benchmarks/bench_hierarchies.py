"""Two trees compared at every cut (``ca.compare_hierarchies``): the simultaneous band's
family-wise error under independent trees, and the time of every cut against the package's
own per-cut calls, in the same run.

    python benchmarks/bench_hierarchies.py           # 10**4 leaves; 1,000 trials per row
    python benchmarks/bench_hierarchies.py --quick   # 2,000 leaves; 100 trials (CI)

Family-wise error: two independent samples of n points (standard normal in 2 dimensions),
one tree of each (Ward for the first, average linkage for the second), compared at every
cut from 2 to n - 1 with P joint permutations; a trial errs when the observed curve leaves
the simultaneous band at some k (then the global envelope test rejects too; it may also
reject a curve that stays inside the band, so its rate is shown beside). The nominal level is 5%;
the pointwise band's "outside at some k" is shown beside it (what reading a pointwise band
across all cuts would give).

Speed: two trees of n leaves of one data set (five Gaussian clusters in 4 dimensions; Ward
and average linkage). "moment bands": every cut's Bk with Fowlkes & Mallows' exact mean and
sd and the normal pointwise band (``n_permutations=0, method="normal"``), against cutting
both trees at each k (``Hierarchy.cut``), ``ca.agreement`` and ``ca.nulls.index_moments`` per
cut. "999-permutation band": the simultaneous band of 999 joint permutations
(``method="permutation"``), against per-cut calls for every permutation (tabulating both
cuts and ``ca.agreement`` per cut, per permutation). The per-cut times are measured on an
evenly spaced sample of cuts (and, for the permutations, of one permutation) and scaled to
all cuts and all permutations: the ratio is that estimate over the measured time.

    python benchmarks/bench_hierarchies.py | tee benchmarks/results/hierarchies.md
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np
import scipy
from scipy.cluster.hierarchy import linkage

import clusteragree as ca
from _bench import best_time, fmt_s, print_header
from clusteragree.inputs.trees import as_hierarchy

ALPHA = 0.05


def independent_trial(n, n_permutations, alternative, rng):
    """One trial under the null: (outside the simultaneous band somewhere, outside the
    pointwise band somewhere)."""
    X, Y = rng.normal(size=(n, 2)), rng.normal(size=(n, 2))
    res = ca.compare_hierarchies(linkage(X, "ward"), linkage(Y, "average"),
                                 n_permutations=n_permutations, seed=rng,
                                 method="permutation", alternative=alternative, alpha=ALPHA)
    above, below = res.outside()
    p_above, p_below = res.outside("pointwise")
    return bool(above or below), bool(p_above or p_below), res.global_pvalue <= ALPHA


def fwer_table(sizes, trials, n_permutations, seed=46):
    rows = []
    rng = np.random.default_rng(seed)
    print(f"\n## Family-wise error of the simultaneous band (nominal {ALPHA:.0%})\n")
    print(f"Independent trees (Ward of one normal sample, average linkage of another), every "
          f"cut 2..n-1, {n_permutations} joint permutations per trial, {trials} trials per "
          "row; Monte Carlo s.e. of a rate near 5%: "
          f"{100 * math.sqrt(0.05 * 0.95 / trials):.2f} points.\n")
    print("| leaves | alternative | outside the simultaneous band | global p <= 5% | (s.e.) | "
          "outside the pointwise band at some k | time per trial |")
    print("|---|---|---|---|---|---|---|")
    for n in sizes:
        for alternative in ("two-sided", "greater"):
            t0 = time.perf_counter()
            out = np.array([independent_trial(n, n_permutations, alternative, rng)
                            for _ in range(trials)])
            dt = (time.perf_counter() - t0) / trials
            # outside the band => the global test rejects (not the reverse: a curve may be
            # extreme by many moderately extreme cuts and stay inside the others' range)
            assert not (out[:, 0] & ~out[:, 2]).any(), "outside the band, p > alpha"
            rate, point, test = out[:, 0].mean(), out[:, 1].mean(), out[:, 2].mean()
            se = math.sqrt(max(rate * (1 - rate), 0.05 * 0.95) / trials)
            rows.append({"n": n, "alternative": alternative, "rate": rate, "se": se,
                         "pointwise": point, "test": test})
            print(f"| {n} | {alternative} | {100 * rate:.1f}% | {100 * test:.1f}% | "
                  f"{100 * se:.1f} | {100 * point:.1f}% | {fmt_s(dt).strip()} |")
    return rows


def trees(n, seed=0):
    rng = np.random.default_rng(seed)
    X = np.concatenate([rng.normal(c, 1.0, size=(n // 5, 4)) for c in range(5)])
    return linkage(X, "ward"), linkage(X, "average")


def per_cut_moments(a, b, ks):
    for k in ks:
        x, y = a.cut(k), b.cut(k)
        ca.agreement(x, y, index="fowlkes_mallows")
        ca.nulls.index_moments("fowlkes_mallows", np.bincount(x), np.bincount(y))


def per_cut_permutation(a, b, ks, perm):
    for k in ks:
        x, y = a.cut(k), b.cut(k)
        ca.agreement(x, y[perm], index="fowlkes_mallows")


def speed_table(n, n_permutations, sample_cuts, repeats):
    Za, Zb = trees(n)
    a, b = as_hierarchy(Za), as_hierarchy(Zb)
    ks = np.arange(2, n)
    sample = np.unique(np.linspace(2, n - 1, sample_cuts).astype(int))
    scale = len(ks) / len(sample)
    print(f"\n## Time of every cut: two trees of {n:,} leaves ({len(ks):,} cuts)\n")
    moments, runs, _ = best_time(
        lambda: ca.compare_hierarchies(Za, Zb, n_permutations=0, method="normal"), repeats)
    t0 = time.perf_counter()
    per_cut_moments(a, b, sample)
    per_cut = (time.perf_counter() - t0) * scale
    perm = np.random.default_rng(1).permutation(n)
    band, band_runs, res = best_time(
        lambda: ca.compare_hierarchies(Za, Zb, n_permutations=n_permutations, seed=2,
                                       method="permutation"), 1)
    t0 = time.perf_counter()
    per_cut_permutation(a, b, sample, perm)
    per_cut_band = (time.perf_counter() - t0) * scale * n_permutations
    print("| what | compare_hierarchies | per-cut calls (estimated from "
          f"{len(sample)} cuts) | ratio (per-cut / ours) |")
    print("|---|---|---|---|")
    print(f"| moment bands, every cut | {fmt_s(moments).strip()} (best of {runs}) | "
          f"{fmt_s(per_cut).strip()} | {per_cut / moments:,.0f} |")
    print(f"| {n_permutations}-permutation simultaneous band | {fmt_s(band).strip()} | "
          f"{fmt_s(per_cut_band).strip()} | {per_cut_band / band:,.0f} |")
    print(f"\nGlobal envelope test of the two trees: p = {res.global_pvalue:.4g}; the first "
          f"call of a session also loads numba's compiled pass (cached on disk: about 1 s).")
    return {"moments": moments, "band": band, "per_cut": per_cut, "per_cut_band": per_cut_band}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="CI-sized run")
    args = parser.parse_args(argv)
    quick = args.quick
    print_header("# compare_hierarchies: family-wise error and time", "scipy", scipy.__version__)
    fwer = fwer_table(sizes=(30,) if quick else (30, 100), trials=100 if quick else 1000,
                      n_permutations=99 if quick else 199)
    speed = speed_table(n=2000 if quick else 10_000, n_permutations=99 if quick else 999,
                        sample_cuts=40 if quick else 200, repeats=3)
    return fwer, speed


if __name__ == "__main__":
    main()
