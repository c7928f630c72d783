#!/usr/bin/env python
"""Coverage of the bootstrap confidence intervals (``clusteragree.intervals``), by simulation.

    python benchmarks/bench_coverage.py            # full run (about 15 minutes on 2 cores)
    python benchmarks/bench_coverage.py --quick    # 200 samples, n = 50 and 200, B = 499

What is measured:

1. Coverage. Two 3 x 3 populations of cell proportions p_ij: "moderate" (a clear diagonal,
   ARI about 0.37) and "independent" (p_ij = r_i c_j, so ARI = AMI = NMI = 0). From each,
   1,000 samples (tables of n objects, Multinomial(n, p)) at n = 50, 200 and 1,000 (AMI,
   whose expected mutual information is computed for every resampled table's margins, about
   0.3 ms a table: 250 samples); for each sample the bootstrap distribution of the index
   (B = 999 resamples, ``interval_of``) gives the
   BCa interval, and the same draws give the percentile interval (their quantiles, exactly
   what ``method="percentile"`` computes from them). Nominal 95%. The truth an interval
   targets is the index of the population proportions p_ij: the index on the integer table
   rint(10^7 p) (not the mean of the index on samples of n, which differs from it by the
   index's bias, nor its value on the expected table n p for a small n). Indices: ARI
   (adjusted_rand), AMI (adjusted_mutual_info), Rand, NMI (nmi_sum) and Jaccard. Printed:
   the coverage of each interval (its Monte Carlo sd is 0.7 points at 1,000 samples, 1.4 at
   250), its
   mean width, and how many intervals were undefined (counted as misses).
2. The analytic interval of Severiano et al. (2011) for the adjusted Wallace coefficient
   AW(x -> y) = (W - Wi) / (1 - Wi), W = sum n_ij(n_ij - 1) / sum a_i(a_i - 1) and Wi =
   sum b_j(b_j - 1) / (n(n - 1)): AW +- z sqrt(var W) / (1 - Wi), var W from the variance of
   Simpson's index within each cluster of x (Pinto et al. 2008; Simpson's exact variance of
   the unbiased estimator), Wi taken as fixed; z = 1.96 (the authors use 2). Its coverage of
   the population AW = (sum p^2 / sum r^2 - sum c^2) / (1 - sum c^2) beside the percentile and
   BCa intervals of AW from the same multinomial draws. Severiano et al. give no interval for
   the ARI itself (the ARI is the harmonic mean of AW(x -> y) and AW(y -> x), but their
   intervals do not combine into one for it), so the analytic comparison is made for AW.
3. Time: the multinomial bootstrap (``confidence_interval``, BCa, B = 9,999) against
   ``scipy.stats.bootstrap`` on the n objects' labels (paired, vectorised, the same BCa), ARI
   at n = 1,000 on a sample of the moderate population; and their two intervals.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import scipy
from scipy import stats

import clusteragree as ca
from _bench import best_time, fmt_s, print_header  # noqa: E402  (script folder)
from clusteragree.inputs import as_clusterings
from clusteragree.intervals import (_acceleration, _bca_levels,  # noqa: PLC2701
                                    confidence_interval, interval_of)

POPULATIONS = {
    "moderate": np.array([[0.22, 0.05, 0.03], [0.04, 0.25, 0.04], [0.03, 0.04, 0.30]]),
    "independent": np.outer([0.3, 0.3, 0.4], [0.25, 0.35, 0.4]),
}
INDICES = {"ARI": "adjusted_rand", "AMI": "adjusted_mutual_info", "Rand": "rand",
           "NMI": "nmi_sum", "Jaccard": "jaccard"}
LEVEL = 0.95
TRUTH_N = 10**7


def truth_of(index, p):
    """The index of the population proportions: its value on rint(10^7 p)."""
    return float(ca.agreement(np.rint(p * TRUTH_N).astype(np.int64), index=index))


# -- the adjusted Wallace coefficient and the interval of Severiano et al. (2011) ------------

def wallace_terms(tables):
    """W(x -> y) and Wi(y) of a batch of tables (B, K, Q)."""
    t = tables.astype(float)
    n = t.sum(axis=(-2, -1))
    rows, cols = t.sum(axis=-1), t.sum(axis=-2)
    pairs_x = (rows * (rows - 1)).sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        W = (t * (t - 1)).sum(axis=(-2, -1)) / pairs_x
        Wi = (cols * (cols - 1)).sum(axis=-1) / (n * (n - 1))
    return W, Wi


def adjusted_wallace(tables):
    W, Wi = wallace_terms(tables)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (W - Wi) / (1 - Wi)


def aw_truth(p):
    rows, cols = p.sum(axis=1), p.sum(axis=0)
    W, Wi = (p ** 2).sum() / (rows ** 2).sum(), (cols ** 2).sum()
    return (W - Wi) / (1 - Wi)


def severiano_interval(table, z):
    """AW(x -> y) +- z sqrt(var W) / (1 - Wi): var W = sum_i (a_i(a_i-1))^2 var(S_i) /
    (sum_i a_i(a_i-1))^2, S_i the Simpson's index of y within x's cluster i (its exact
    variance, Simpson 1949), Wi fixed."""
    t = table.astype(float)
    W, Wi = wallace_terms(t[None])
    aw = (W[0] - Wi[0]) / (1 - Wi[0])
    m = t.sum(axis=1)
    num = 0.0
    for mi, row in zip(m, t):
        if mi < 2:
            continue
        f = row / mi
        s2, s3 = (f ** 2).sum(), (f ** 3).sum()
        mm = mi * (mi - 1)
        var = (4 * mm * (mi - 2) * s3 + 2 * mm * s2 - 2 * mm * (2 * mi - 3) * s2 ** 2) / mm ** 2
        num += mm ** 2 * var
    var_w = num / (m * (m - 1)).sum() ** 2
    half = z * np.sqrt(max(var_w, 0.0)) / (1 - Wi[0])
    return aw - half, aw + half


def aw_bootstrap(table, B, rng, alpha):
    """Percentile and BCa intervals of AW from B multinomial resamples of ``table``."""
    n = int(table.sum())
    boot = adjusted_wallace(rng.multinomial(n, (table / n).ravel(), size=B)
                            .reshape(B, *table.shape))
    stat = float(adjusted_wallace(table[None])[0])
    if not np.isfinite(boot).all():
        return (np.nan, np.nan), (np.nan, np.nan)
    pct = tuple(np.quantile(boot, [alpha, 1 - alpha]))
    rows, cols = np.nonzero(table)
    jack = np.repeat(table[None], len(rows), axis=0)
    jack[np.arange(len(rows)), rows, cols] -= 1
    accel = _acceleration(adjusted_wallace(jack), table[rows, cols].astype(float))
    _, lo, hi = _bca_levels(boot, stat, alpha, accel)
    bca = tuple(np.quantile(boot, [lo, hi])) if np.isfinite([lo, hi]).all() else (np.nan,) * 2
    return pct, bca


# -- the simulation ---------------------------------------------------------------------------

def coverage_cell(index, p, n, n_samples, B, rng, truth):
    """Coverage and mean width of the percentile and BCa intervals of one (index, p, n)."""
    rec = ca.get_index(index)
    opts = dict(rec.options)
    alpha = (1 - LEVEL) / 2
    out = {m: {"hit": 0, "width": [], "undefined": 0} for m in ("percentile", "BCa")}
    for _ in range(n_samples):
        table = rng.multinomial(n, p.ravel()).reshape(p.shape)
        ci = interval_of(as_clusterings(table), rec, opts, LEVEL, "BCa", B, rng)
        pct = tuple(np.quantile(ci.bootstrap_distribution, [alpha, 1 - alpha])) \
            if np.isfinite(ci.bootstrap_distribution).all() else (np.nan, np.nan)
        for method, (low, high) in (("percentile", pct), ("BCa", (ci.low, ci.high))):
            if not np.isfinite([low, high]).all():
                out[method]["undefined"] += 1
                continue
            out[method]["hit"] += low <= truth <= high
            out[method]["width"].append(high - low)
    return out


def aw_cell(p, n, n_samples, B, rng, truth):
    alpha = (1 - LEVEL) / 2
    z = float(stats.norm.ppf(1 - alpha))
    out = {m: {"hit": 0, "width": [], "undefined": 0}
           for m in ("percentile", "BCa", "Severiano")}
    for _ in range(n_samples):
        table = rng.multinomial(n, p.ravel()).reshape(p.shape)
        pct, bca = aw_bootstrap(table, B, rng, alpha)
        for method, (low, high) in (("percentile", pct), ("BCa", bca),
                                    ("Severiano", severiano_interval(table, z))):
            if not np.isfinite([low, high]).all():
                out[method]["undefined"] += 1
                continue
            out[method]["hit"] += low <= truth <= high
            out[method]["width"].append(high - low)
    return out


def fmt_cell(res, n_samples):
    cov = res["hit"] / n_samples
    width = np.mean(res["width"]) if res["width"] else np.nan
    undefined = f" ({res['undefined']} undef.)" if res["undefined"] else ""
    return f"{100 * cov:6.1f}% {width:7.3f}{undefined}"


# -- timing -----------------------------------------------------------------------------------

def label_statistic(K, Q):
    def statistic(x, y, axis=-1):
        x, y = np.moveaxis(x, axis, -1), np.moveaxis(y, axis, -1)
        lead, n = x.shape[:-1], x.shape[-1]
        x, y = x.reshape(-1, n), y.reshape(-1, n)
        m = x.shape[0]
        codes = np.arange(m)[:, None] * (K * Q) + x * Q + y
        tables = np.bincount(codes.ravel(), minlength=m * K * Q).reshape(m, K, Q)
        return np.asarray(ca.agreement(tables, index="adjusted_rand")).reshape(lead)
    return statistic


def timing(B):
    p = POPULATIONS["moderate"]
    rng = np.random.default_rng(99)
    table = rng.multinomial(1000, p.ravel()).reshape(3, 3)
    cells = np.repeat(np.arange(9), table.ravel())
    x, y = cells // 3, cells % 3
    t_ours, _, ours = best_time(
        lambda: confidence_interval(table, index="adjusted_rand", n_resamples=B, seed=1), 5)
    t_scipy, _, res = best_time(
        lambda: stats.bootstrap((x, y), label_statistic(3, 3), paired=True, vectorized=True,
                                n_resamples=B, batch=1000, method="BCa",
                                rng=np.random.default_rng(1)), 3)
    print(f"\n3. Time, ARI at n = 1,000 (3 x 3), BCa, B = {B:,} (best of 5 and of 3 runs):")
    print(f"  multinomial bootstrap (confidence_interval): {fmt_s(t_ours)}  "
          f"[{ours.low:.4f}, {ours.high:.4f}]")
    print(f"  scipy.stats.bootstrap on the labels:         {fmt_s(t_scipy)}  "
          f"[{res.confidence_interval.low:.4f}, {res.confidence_interval.high:.4f}]")
    print(f"  ratio scipy / ours: {t_scipy / t_ours:.0f} x")


def compare_cost():
    """What the intervals add to ``compare``: the paired indices and the information indices
    on Statlog, 17,000 Patefield tables, with BCa intervals (9,999 resamples, one batch of
    resampled tables for all the indices) and without; and the same intervals one index at a
    time (a batch each)."""
    from clusteragree import compare, load_dataset

    tab = load_dataset("statlog_em")
    names = ["paired", "adjusted_rand", "adjusted_mutual_info", "nmi_sum",
             "variation_of_information"]
    t_with, _, df = best_time(lambda: compare(tab, indices=names, seed=1), 5)
    t_without, _, _ = best_time(lambda: compare(tab, indices=names, seed=1,
                                                confidence_level=None), 5)
    t_each, _, _ = best_time(lambda: [confidence_interval(tab, index=i, seed=1)
                                      for i in df.index], 3)
    print(f"\n4. compare on Statlog, {len(df)} indices, 17,000 Patefield tables (best of 5):")
    print(f"  without intervals:                 {fmt_s(t_without)}")
    print(f"  with BCa intervals (one batch):    {fmt_s(t_with)}  "
          f"({t_with / t_without:.1f} x without)")
    print(f"  the {len(df)} intervals one at a time:   {fmt_s(t_each)}  "
          f"(one batch saves {t_each / max(t_with - t_without, 1e-9):.1f} x)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n_samples, ns, B = (200, (50, 200), 499) if args.quick else (1000, (50, 200, 1000), 999)
    ami_samples = n_samples if args.quick else 250
    print_header("Coverage of the bootstrap confidence intervals", "scipy", scipy.__version__)
    print(f"  {n_samples} samples per cell ({ami_samples} for AMI), B = {B} resamples per "
          f"interval, nominal {100 * LEVEL:g}%; Monte Carlo sd of a coverage: "
          f"{100 * np.sqrt(LEVEL * (1 - LEVEL) / n_samples):.1f} points "
          f"({100 * np.sqrt(LEVEL * (1 - LEVEL) / ami_samples):.1f} for AMI)")
    start = time.perf_counter()
    warnings.simplefilter("ignore")  # undefined intervals are counted, not warned about
    rng = np.random.default_rng(20240)
    print("\n1. Coverage (coverage, mean width) of the population's index")
    print(f"  {'population':<12}{'index':<8}{'truth':>8}{'n':>6}   "
          f"{'percentile':<22}{'BCa':<22}{'time':>8}")
    for pname, p in POPULATIONS.items():
        p = p / p.sum()
        for label, index in INDICES.items():
            truth = truth_of(index, p)
            for n in ns:
                t0 = time.perf_counter()
                m = ami_samples if label == "AMI" else n_samples
                res = coverage_cell(index, p, n, m, B, rng, truth)
                print(f"  {pname:<12}{label:<8}{truth:8.4f}{n:6d}   "
                      f"{fmt_cell(res['percentile'], m):<22}"
                      f"{fmt_cell(res['BCa'], m):<22}"
                      f"{fmt_s(time.perf_counter() - t0)}", flush=True)
    print("\n2. Adjusted Wallace AW(x -> y): bootstrap against Severiano et al. (2011)")
    print(f"  {'population':<12}{'truth':>8}{'n':>6}   {'percentile':<22}{'BCa':<22}"
          f"{'Severiano':<22}")
    for pname, p in POPULATIONS.items():
        p = p / p.sum()
        truth = aw_truth(p)
        for n in ns:
            res = aw_cell(p, n, n_samples, B, rng, truth)
            print(f"  {pname:<12}{truth:8.4f}{n:6d}   "
                  f"{fmt_cell(res['percentile'], n_samples):<22}"
                  f"{fmt_cell(res['BCa'], n_samples):<22}"
                  f"{fmt_cell(res['Severiano'], n_samples):<22}", flush=True)
    timing(9999)
    compare_cost()
    print(f"\ntotal {fmt_s(time.perf_counter() - start)}")


if __name__ == "__main__":
    main()
