"""What the validation compares, and how: the label pairs, the correspondence of each R and
scikit-learn function to an index of the package, the brute-force enumerations of the exact null
laws and the summaries of the stored benchmark tables.

``validation/run.py`` writes the tables of ``validation/results/`` from this module;
``tests/test_validation.py`` reads the stored tables and recomputes the package's side of each
row with the same functions (``package_value``, ``brute_force_law``), so the test and the tables
cannot drift apart.
"""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd

import clusteragree as ca

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
RESULTS = HERE / "results"

#: Agreement within ATOL + RTOL * |reference| counts as agreement: floating-point noise of
#: sums in another order is ~1e-15; a wrong formula or convention is off by far more.
ATOL = 1e-10
RTOL = 1e-10

#: The seed of the label pairs (each case draws from default_rng([SEED, case number])).
SEED = 20261201


# -- the label pairs -------------------------------------------------------------------------

def _relabel(v) -> np.ndarray:
    """Labels 1..K in order of first appearance (R's fpc wants 1..K with none empty)."""
    _, first, inverse = np.unique(v, return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first))
    return order[inverse] + 1


def _noisy(rng, x, q, rho):
    """x's labels, each replaced with probability rho by a uniform label of 0..q-1."""
    y = np.asarray(x) % q
    flip = rng.random(len(y)) < rho
    y[flip] = rng.integers(0, q, flip.sum())
    return y


def label_pairs() -> pd.DataFrame:
    """The fixed label pairs: one row per object (case, kind, x, y), labels 1..K.

    Independent pairs of several n, K and Q; dependent pairs (y a noisy copy of x, a
    refinement of x, x relabelled); and the degenerate ones (one cluster, all singletons,
    n = 2, K = n - 1)."""
    specs = []  # (kind, n, K, Q, rho)
    for n, k, q in [(7, 3, 3), (10, 2, 2), (10, 3, 4), (20, 2, 5), (30, 3, 3), (50, 4, 4),
                    (50, 2, 10), (100, 5, 5), (100, 10, 3), (200, 6, 8), (500, 10, 10),
                    (1000, 20, 15), (40, 12, 12)]:
        specs.append(("independent", n, k, q, None))
    for n, k, q, rho in [(100, 4, 4, 0.2), (300, 5, 5, 0.5), (1000, 8, 8, 0.1),
                         (60, 3, 6, 0.3), (150, 6, 3, 0.3), (25, 4, 4, 0.0)]:
        specs.append(("noisy copy", n, k, q, rho))
    specs += [("refinement", 40, 3, 6, None), ("relabelled", 25, 4, 4, None),
              ("one cluster, both", 8, 1, 1, None), ("one cluster vs random", 12, 1, 3, None),
              ("random vs one cluster", 12, 3, 1, None),
              ("one cluster vs singletons", 6, 1, 6, None),
              ("singletons, both", 9, 9, 9, None), ("singletons vs random", 10, 10, 3, None),
              ("n = 2, one cluster vs two", 2, 1, 2, None), ("n = 2, two vs two", 2, 2, 2, None),
              ("K = n - 1", 12, 11, 4, None)]
    rows = []
    for case, (kind, n, k, q, rho) in enumerate(specs, 1):
        rng = np.random.default_rng([SEED, case])
        x = rng.integers(0, k, n)
        if kind == "independent":
            y = rng.integers(0, q, n)
        elif kind == "noisy copy":
            y = _noisy(rng, x, q, rho)
        elif kind == "refinement":
            y = x * 2 + rng.integers(0, 2, n)
        elif kind == "relabelled":
            y = rng.permutation(k)[x]
        elif kind.startswith("one cluster") or kind.startswith("n = 2, one"):
            x = np.zeros(n, int)
            y = (np.zeros(n, int) if q == 1 else np.arange(n) if q == n
                 else rng.integers(0, q, n) if n > 2 else np.arange(n))
        elif kind == "random vs one cluster":
            y = np.zeros(n, int)
        elif kind.startswith("singletons"):
            x = rng.permutation(n)
            y = rng.permutation(n) if q == n else rng.integers(0, q, n)
        elif kind == "n = 2, two vs two":
            x, y = np.array([0, 1]), np.array([1, 0])
        elif kind == "K = n - 1":
            x = np.r_[0, np.arange(n - 1)]
            y = rng.integers(0, q, n)
        rows.append(pd.DataFrame({"case": case, "kind": kind, "x": _relabel(x),
                                  "y": _relabel(y)}))
    return pd.concat(rows, ignore_index=True)


def read_label_pairs() -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """The stored label pairs, {case: (x, y)}."""
    frame = pd.read_csv(RESULTS / "labels.csv")
    return {int(c): (g["x"].to_numpy(), g["y"].to_numpy()) for c, g in frame.groupby("case")}


# -- what each reference function corresponds to -----------------------------------------------

#: R function (as r_values.R names it) -> (index, options, quantity, note). quantity: "value"
#: (``ca.agreement``), "discordant pairs" (mirkin n^2 / 2: clue's symdiff counts the pairs
#: together in one clustering and apart in the other), "null mean" / "null variance" (the
#: closed-form moments under fixed margins, ``null_distribution(method="hypergeometric")``).
R_CORRESPONDENCE = {
    "mclust::adjustedRandIndex": ("adjusted_rand", {}, "value",
                                  "Hubert & Arabie's ARI"),
    "fpc::cluster.stats corrected.rand": ("adjusted_rand", {}, "value",
                                          "compareonly = TRUE"),
    "fpc::cluster.stats vi": ("variation_of_information", {}, "value",
                              "natural logarithms"),
    "clue::cl_agreement Rand": ("rand", {}, "value", ""),
    "clue::cl_agreement cRand": ("adjusted_rand", {}, "value", "corrected Rand: ARI"),
    "clue::cl_agreement NMI": ("nmi_sqrt", {}, "value",
                               "MI / sqrt(H(x) H(y)) (Strehl & Ghosh)"),
    "clue::cl_agreement FM": ("fowlkes_mallows", {}, "value", ""),
    "clue::cl_agreement Jaccard": ("jaccard", {}, "value", ""),
    "clue::cl_agreement purity": ("inverse_purity", {}, "value",
                                  "sum over x's classes of the largest cell / n: "
                                  "the package's purity of x's classes w.r.t. y's clusters"),
    "clue::cl_agreement diag": ("accuracy", {}, "value",
                                "largest co-classification rate over matchings"),
    "clue::cl_dissimilarity VI": ("variation_of_information", {}, "value",
                                  "natural logarithms"),
    "clue::cl_dissimilarity symdiff": ("mirkin", {}, "discordant pairs",
                                       "pairs together in one and apart in the other"),
    "dendextend::FM_index": ("fowlkes_mallows", {}, "value", ""),
    "dendextend::FM_index E_FM": ("fowlkes_mallows", {}, "null mean",
                                  "Fowlkes & Mallows (1983) under fixed margins"),
    "dendextend::FM_index V_FM": ("fowlkes_mallows", {}, "null variance",
                                  "Fowlkes & Mallows (1983) under fixed margins"),
}

#: R packages the comparison would use but Debian's R 4.2 does not package (apt-cache has no
#: candidate): their functions are not compared.
R_MISSING = {"aricode": "ARI, AMI, NMI variants, NVI (r-cran-aricode: no Debian package)",
             "mcclust": "vi.dist (r-cran-mcclust: no Debian package)"}

#: R functions deliberately left out: no index of the package is the same quantity.
R_NOT_COMPARED = {
    "clue::cl_agreement KP": "Katz & Powell's correlation of the n x n co-membership matrices, "
                             "diagonal included; the package's hubert_gamma correlates the "
                             "n (n - 1) / 2 pairs",
    "clue::cl_agreement angle, euclidean, manhattan, PS": "defined on membership matrices or "
                                                          "on a reference's prediction strength",
}

#: scikit-learn function (with its arguments) -> (function name, kwargs, index, options, note).
SKLEARN_CORRESPONDENCE = {
    "adjusted_rand_score": ("adjusted_rand_score", {}, "adjusted_rand", {}),
    "rand_score": ("rand_score", {}, "rand", {}),
    "fowlkes_mallows_score": ("fowlkes_mallows_score", {}, "fowlkes_mallows", {}),
    "mutual_info_score": ("mutual_info_score", {}, "mutual_info", {}),
    **{f"normalized_mutual_info_score(average_method='{m}')":
       ("normalized_mutual_info_score", {"average_method": m}, index, {})
       for m, index in [("arithmetic", "nmi_sum"), ("geometric", "nmi_sqrt"),
                        ("min", "nmi_min"), ("max", "nmi_max")]},
    **{f"adjusted_mutual_info_score(average_method='{m}')":
       ("adjusted_mutual_info_score", {"average_method": m}, "adjusted_mutual_info",
        {"average": m}) for m in ("arithmetic", "geometric", "min", "max")},
    "homogeneity_score": ("homogeneity_score", {}, "homogeneity", {}),
    "completeness_score": ("completeness_score", {}, "completeness", {}),
    **{f"v_measure_score(beta={b})": ("v_measure_score", {"beta": b}, "v_measure", {"beta": b})
       for b in (0.5, 1.0, 2.0)},
}


def package_value(x, y, index: str, options: dict, quantity: str) -> float:
    """The package's side of one comparison (see ``R_CORRESPONDENCE``)."""
    if quantity in ("value", "discordant pairs"):
        value = float(ca.agreement(x, y, index=index, **options))
        if quantity == "discordant pairs":
            value *= len(x) ** 2 / 2
        return value
    nd = ca.nulls.null_distribution(x, y, index=index, method="hypergeometric", **options)
    return float(nd.mean if quantity == "null mean" else nd.var)


#: Where a reference and the package both give a number but not the same one, because the
#: index is 0/0 on that case and each side settles it its own way: (reference, case kind) ->
#: why. Nothing else may differ (``tests/test_validation.py``).
CONVENTIONS = {
    **{("dendextend::FM_index E_FM", kind):
       "no pair is together in either clustering: FM is 0/0 (FM_index gives NaN) and its null "
       "mean sqrt(P Q) / (n (n - 1)) = 0 / 0 by the formula; the package's FM of two "
       "all-singleton clusterings is 1 (they agree on every pair), so its null law is the "
       "point mass at 1" for kind in ("singletons, both", "n = 2, two vs two")},
    **{("sklearn fowlkes_mallows_score", kind):
       "no pair is together in either clustering: FM is 0/0; scikit-learn returns 0, the "
       "package 1 (the two clusterings agree on every pair)"
       for kind in ("singletons, both", "n = 2, two vs two")},
    ("sklearn adjusted_mutual_info_score(average_method='min')", "singletons vs random"):
        "x is all singletons: MI = H(y) = min(H(x), H(y)) = E[MI] in every permutation, so "
        "AMI is 0/0; scikit-learn divides the rounding error of MI - E[MI] by its floor "
        "eps and returns 1.0 (0 to within 1e-15 with the other averages), the package "
        "returns 0",
}


def compare_values(reference: float, package: float, name: str = "",
                   kind: str = "") -> tuple[str, float, float]:
    """(status, absolute error, relative error) of a package value against a reference.

    The status: "agree" (within ATOL + RTOL |reference|), "reference undefined" (the
    reference gives NaN, the package a value by its convention), "both undefined",
    "convention" (both give numbers on a 0/0 case, ``CONVENTIONS``) or "DISAGREE". The
    relative error is left out (NaN) for references within 1e-8 of 0, where it means
    nothing."""
    ref_nan, pkg_nan = math.isnan(reference), math.isnan(package)
    if ref_nan and pkg_nan:
        return "both undefined", np.nan, np.nan
    if ref_nan:
        return "reference undefined", np.nan, np.nan
    if pkg_nan:
        return "package undefined", np.nan, np.nan
    err = abs(package - reference)
    rel = err / abs(reference) if abs(reference) > 1e-8 else np.nan
    if err <= ATOL + RTOL * abs(reference):
        return "agree", err, rel
    return ("convention" if (name, kind) in CONVENTIONS else "DISAGREE"), err, rel


# -- exact laws against brute force -----------------------------------------------------------

#: The small label pairs whose exact laws are enumerated: (name, x, y). n <= 9 for perm (9! =
#: 362,880 permutations), the random-partition models on fewer objects.
LAW_TABLES = [
    ("2x2 n=4", [1, 1, 2, 2], [1, 2, 1, 2]),
    ("2x3 n=6", [1, 1, 1, 2, 2, 2], [1, 1, 2, 2, 3, 3]),
    ("3x3 n=7", [1, 1, 1, 2, 2, 3, 3], [1, 1, 2, 2, 3, 3, 3]),
    ("3x3 n=8", [1, 1, 1, 2, 2, 3, 3, 3], [1, 2, 2, 2, 3, 3, 1, 1]),
    ("2x4 n=8", [1, 1, 1, 1, 1, 2, 2, 2], [1, 2, 3, 4, 1, 2, 3, 3]),
    ("3x2 n=9", [1, 1, 1, 2, 2, 2, 3, 3, 3], [1, 1, 1, 1, 2, 2, 2, 2, 2]),
    ("4x3 n=9", [1, 1, 2, 2, 3, 3, 4, 4, 4], [1, 1, 1, 2, 2, 2, 3, 3, 3]),
    ("1x3 n=6 (one cluster)", [1, 1, 1, 1, 1, 1], [1, 1, 2, 2, 3, 3]),
    ("singletons x 2 n=6", [1, 2, 3, 4, 5, 6], [1, 1, 1, 2, 2, 2]),
]

#: The models enumerated, with the largest n each is enumerated for.
LAW_MODELS = {"perm": 9, "num1": 9, "all1": 9, "num": 7, "all": 6}

LAW_INDICES = ["adjusted_rand", "rand", "jaccard", "fowlkes_mallows", "mutual_info",
               "nmi_sqrt", "adjusted_mutual_info", "variation_of_information", "purity"]


def _set_partitions(n: int, blocks: int | None = None) -> np.ndarray:
    """Every partition of n objects as a restricted growth string (rows), all or those of
    exactly ``blocks`` blocks."""
    out = []

    def grow(prefix, m):
        if len(prefix) == n:
            if blocks is None or m == blocks:
                out.append(prefix[:])
            return
        if blocks is not None and m + (n - len(prefix)) < blocks:
            return
        for label in range(m + 1 if blocks is None or m < blocks else m):
            prefix.append(label)
            grow(prefix, max(m, label + 1))
            prefix.pop()

    grow([], 0)
    return np.array(out, dtype=np.int64)


def _tables(xs: np.ndarray, ys: np.ndarray) -> dict[tuple[int, int], np.ndarray]:
    """The contingency tables of pairs of label rows (labels 0..), grouped by shape (K, Q),
    dropping empty rows and columns: {shape: array of tables}."""
    k_all = xs.max(axis=1) + 1
    q_all = ys.max(axis=1) + 1
    groups = {}
    for k, q in set(zip(k_all.tolist(), q_all.tolist())):
        sel = (k_all == k) & (q_all == q)
        codes = xs[sel] * q + ys[sel]
        counts = np.stack([(codes == c).sum(axis=1) for c in range(k * q)], axis=1)
        groups[(k, q)] = counts.reshape(-1, k, q)
    return groups


def _label_rows(v, model_side: str, n: int, blocks: int) -> np.ndarray:
    """The equally likely labellings of one side: the observed one, all its permutations, or
    all set partitions (of ``blocks`` blocks, or of any number)."""
    if model_side == "fixed":
        return np.asarray(v)[None, :] - 1
    if model_side == "permuted":
        perms = np.array(list(itertools.permutations(range(n))), dtype=np.int64)
        return (np.asarray(v) - 1)[perms]
    return _set_partitions(n, blocks if model_side == "blocks" else None)


def brute_force_law(x, y, index: str, model: str) -> pd.DataFrame:
    """The null law of an index by enumeration: every equally likely pair of labellings under
    the model, the index of each table (``ca.agreement`` on the batch), ties within a
    relative 1e-9 merged. Returns (value, count) with the total number of labellings
    ``count.sum()``: perm permutes y (n! labellings), num1 / all1 draws y among the set
    partitions with y's number of blocks / any number, num / all both sides so.
    """
    x, y = np.asarray(x), np.asarray(y)
    n = len(x)
    sides = {"perm": ("fixed", "permuted"), "num1": ("fixed", "blocks"), "all1": ("fixed", "any"),
             "num": ("blocks", "blocks"), "all": ("any", "any")}[model]
    xs = _label_rows(x, sides[0], n, len(set(x)))
    ys = _label_rows(y, sides[1], n, len(set(y)))
    xi, yi = np.meshgrid(np.arange(len(xs)), np.arange(len(ys)), indexing="ij")
    groups = _tables(xs[xi.ravel()], ys[yi.ravel()])
    values = []
    for tabs in groups.values():
        uniq, counts = np.unique(tabs.reshape(len(tabs), -1), axis=0, return_counts=True)
        vals = np.atleast_1d(np.asarray(ca.agreement(uniq.reshape(-1, *tabs.shape[1:]),
                                                     index=index), dtype=float))
        values.append(pd.DataFrame({"value": vals, "count": counts}))
    frame = pd.concat(values).sort_values("value", kind="stable")
    merged, last = [], None
    for value, count in zip(frame["value"], frame["count"]):
        if last is not None and abs(value - last) <= 1e-9 * max(1.0, abs(last)):
            merged[-1][1] += int(count)
        else:
            merged.append([float(value), int(count)])
            last = value
    return pd.DataFrame(merged, columns=["value", "count"])


def law_against_brute_force(law: pd.DataFrame, x, y, index: str, model: str) -> dict:
    """The package's exact law against a brute-force law (``value``, ``count``): the largest
    differences of the probabilities (support matched within 1e-9), of the mean, the variance
    and the upper-tail p-values P(T >= t) at every support point."""
    nd = ca.nulls.null_distribution(x, y, index=index, method="exact", model=model)
    total = law["count"].sum()
    prob = law["count"].to_numpy() / total
    vals = law["value"].to_numpy()
    pv, pp = np.asarray(nd.values, float), np.asarray(nd.probabilities, float)
    same_support = len(pv) == len(vals) and np.allclose(pv, vals, rtol=1e-9, atol=1e-12)
    mean = float(np.sum(prob * vals))
    var = float(np.sum(prob * (vals - mean) ** 2))
    tail = np.cumsum(prob[::-1])[::-1]
    pkg_tail = np.array([nd.pvalue(v) for v in vals])
    return {
        "labellings": int(total), "support": len(vals), "package_support": len(pv),
        "same_support": bool(same_support),
        "max_prob_error": float(np.max(np.abs(pp - prob))) if same_support else np.nan,
        "mean_error": abs(nd.mean - mean), "var_error": abs(nd.var - var),
        "max_pvalue_error": float(np.max(np.abs(pkg_tail - tail))),
        "max_pvalue_rel_error": float(np.max(np.abs(pkg_tail - tail) / tail)),
    }


# -- the benchmarks' stored tables -------------------------------------------------------------

BENCH = ROOT / "benchmarks" / "results"


def _md_table(path: Path, heading: str) -> pd.DataFrame:
    """The first markdown table after ``heading`` in a file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = lines.index(heading)
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip("|").split("|")])
        elif rows:
            break
    width = len(rows[0])
    # A cell holding "|" (weighted_coverage.md's "LN(0 | log 2, 0.5)") splits in two: the
    # second column takes the surplus.
    rows = [r if len(r) == width else [r[0], " | ".join(r[1:len(r) - width + 2]),
                                       *r[len(r) - width + 2:]] for r in rows]
    return pd.DataFrame(rows[2:], columns=rows[0])


def benchmark_summaries() -> pd.DataFrame:
    """One row per stored benchmark table and measure: how many cells, the worst value and
    where, read from ``benchmarks/results/`` (nothing is rerun)."""
    rows = []

    def add(source, measure, cells, worst, where, target):
        rows.append({"source": source, "measure": measure, "cells": int(cells),
                     "worst": worst, "worst_at": where, "target": target})

    cov = _md_table(BENCH / "coverage.md", "## Summary by index")
    meet = cov["meet the target"].str.split(" / ", expand=True).astype(int)
    cov["meet"], cov["cells"] = meet[0], meet[1]
    cov["worst_value"] = cov["worst cell (coverage %)"].str.split(" ").str[0].astype(float)
    for method, g in cov.groupby("method", sort=False):
        w = g.loc[g["worst_value"].idxmin()]
        add("coverage.md", f"coverage of 95% intervals, method={method} "
            f"({len(g)} indices)", g["cells"].sum(), f"{w['worst_value']:.1f}%",
            f"{w['index']}, {w['worst cell (coverage %)'].split(' ', 1)[1].strip('()')}; "
            f"{g['meet'].sum()} cells meet the target, {g['below'].astype(int).sum()} below, "
            f"{g['above'].astype(int).sum()} above", "93-97% (n >= 200), >= 90% (n = 50)")
    wc = _md_table(BENCH / "weighted_coverage.md", "## Coverage")
    wc["cov"] = wc["coverage %"].str.strip("*").astype(float)  # bold: below 92%
    wc["n_"] = wc["n"].str.replace(",", "").astype(int)
    # Whole-number weights are frequency weights (the objects repeated): a population apart.
    wc["whole"] = wc["weights"].str.contains("whole")
    for (whole, method), g in wc.groupby(["whole", "method"], sort=False):
        big = g[g["n_"] >= 400]
        w = big.loc[big["cov"].idxmin()]
        add("weighted_coverage.md", f"coverage of weighted 95% intervals, method={method}, "
            f"n >= 400, {'whole-number (frequency)' if whole else 'real'} weights", len(big),
            f"{w['cov']:.1f}%", f"{w['index']}, {w['population']}, n = {w['n']} "
            f"({int((big['cov'] < 92).sum())} cells below 92%)",
            "none: survey weights {1, 4} read as repeated objects, shown, not judged"
            if whole else ">= 92%")
    diff = pd.read_csv(BENCH / "difference.csv")
    null = diff[diff["rho_a"] == diff["rho_b"]]
    # The default method (auto, here "corrected": bench_difference.py's "_corrected" columns).
    w = null.loc[(null["reject_corrected"] - 0.05).abs().idxmax()]
    add("difference.csv", "level of difference_test (default method), nominal 5%", len(null),
        f"{100 * w['reject_corrected']:.2f}%", f"{w['index']}, n = {w['n']}, rho = {w['rho_a']}",
        "5% within Monte Carlo error")
    w = diff.loc[(diff["coverage_corrected"] - 0.95).abs().idxmax()]
    add("difference.csv", "coverage of the 95% interval of the difference (default method)",
        len(diff), f"{100 * w['coverage_corrected']:.2f}%",
        f"{w['index']}, n = {w['n']}, rho = {w['rho_a']} / {w['rho_b']}", "95%")
    sp = pd.read_csv(BENCH / "saddlepoint.csv")
    w = sp.loc[sp["is_rel_error"].abs().idxmax()]
    add("saddlepoint.csv", "method='importance' p against the exact p (relative error)", len(sp),
        f"{100 * w['is_rel_error']:+.1f}% (median {100 * sp['is_rel_error'].abs().median():.1f}%"
        f"; interval covers {100 * sp['covered_t9'].mean():.0f}%)",
        f"{w['table']} {w['statistic']}, p = {w['exact_p']:.2g}", "95% intervals cover 95%")
    answered = sp[sp["sp_refused"].isna()]
    w = answered.loc[answered["sp_rel_error"].abs().idxmax()]
    add("saddlepoint.csv", "method='saddlepoint' p against the exact p, where it answers",
        len(answered), f"{100 * w['sp_rel_error']:+.1f}%",
        f"{w['table']} {w['statistic']}, p = {w['exact_p']:.2g} ({len(sp) - len(answered)} of "
        f"{len(sp)} refused, saying why)", "close to the exact p, or a refusal")
    home = pd.read_csv(BENCH / "saddlepoint_home.csv")
    answered = home[home["sp_refused"].isna()]
    w = answered.loc[answered["sp_rel_error"].abs().idxmax()]
    add("saddlepoint_home.csv", "method='saddlepoint' on its home ground (3 x 3, 3 x 4)",
        len(answered), f"{100 * w['sp_rel_error']:+.1f}%",
        f"{w['table']} {w['statistic']}, p = {w['exact_p']:.2g} ({len(home) - len(answered)} "
        f"of {len(home)} refused)", "close to the exact p, or a refusal")
    big = pd.read_csv(BENCH / "saddlepoint_10x10.csv")
    w = big.loc[big["sp_over_is_in_se"].abs().idxmax()]
    add("saddlepoint_10x10.csv", "saddlepoint against importance sampling, 10 x 10, n = 10**4",
        big["sp_refused"].isna().sum(), f"{w['sp_over_is_in_se']:+.1f} s.e. "
        f"({100 * big['sp_over_is'].abs().max():.1f}% at most)",
        f"{w['margins']} margins, {w['statistic']}, p = {w['level']:g}",
        "within 2 s.e. of importance sampling")
    for name in ("importance_hard_after.csv", "importance_hard_weighted.csv"):
        hard = pd.read_csv(BENCH / name)
        w = hard.loc[hard["is_rel_error"].abs().idxmax()]
        add(name, "method='importance' on hard cases (p 1e-20 to 1e-60)", len(hard),
            f"{100 * w['is_rel_error']:+.1f}% ({w['is_error_in_se']:+.1f} s.e.; interval covers "
            f"{100 * hard['covered_t9'].mean():.0f}%)",
            f"{w['table']} {w['statistic']}, p = {w['exact_p']:.2g}", "95% intervals cover 95%")
    return pd.DataFrame(rows)
