"""Summaries of a study's results (``clusteragree.studies.study.run``) in the layouts of the thesis.

Amorim, M. J. (2015), "On clustering stability", PhD thesis, ISCTE - University Institute of
Lisbon: Ch.4 Table 9 (Spearman correlations of the adjusted indices with the design factors),
Ch.5 Tables 2-3 (adjusted Rand and adjusted MIH, external validity and stability, averaged over
the data sets of each scenario) and Table 4 (Pearson correlations between stability and
external validity within each scenario; across scenarios the thesis reports r = 0.958 for MIH_a
and 0.933 for Rand_a).

An index "adjusted" here is the study's ``adjusted_mean`` (or ``adjusted_median``): the thesis'
Rand_a is the Rand index adjusted by its Patefield null mean (the ARI, up to Monte Carlo error),
MIH_a is ``nmi_joint`` adjusted the same way.

>>> frame = pd.DataFrame({"unit": ["0-em", "0-em", "1-em", "1-em"], "scenario": "111",
...     "balance": "balanced", "k": 2, "separation": "poor", "algorithm": "em",
...     "table": ["external", "stability"] * 2, "index": "rand",
...     "adjusted_mean": [0.1, 0.2, 0.3, 0.5]})
>>> paired_units(frame, "rand")[["external", "stability"]].to_numpy().tolist()
[[0.1, 0.2], [0.3, 0.5]]
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from .._validate import check_choice

__all__ = ["SEPARATIONS", "paired_units", "scenario_table", "factor_correlations",
           "stability_validity", "algorithm_comparison"]

#: The separations in increasing order (an ordinal design factor).
SEPARATIONS = ("poor", "moderate", "good")
_CENTERS = ("mean", "median")


def _adjusted(results: pd.DataFrame, index: str, center: str) -> pd.DataFrame:
    check_choice(center, "center", _CENTERS)
    if not isinstance(results, pd.DataFrame) or "index" not in results.columns:
        raise TypeError("results must be the DataFrame of clusteragree.studies.study.run")
    if index not in set(results["index"]):
        raise ValueError(f"the results hold no index {index!r}; they hold "
                         f"{sorted(set(results['index']))}")
    part = results[results["index"] == index].copy()
    part["adjusted"] = part[f"adjusted_{center}"].astype(float)
    return part


def paired_units(results: pd.DataFrame, index: str, center: str = "mean") -> pd.DataFrame:
    """One row per unit (data set x algorithm): the design keys, and the index adjusted on the
    external table and on the stability table side by side."""
    part = _adjusted(results, index, center)
    keys = [c for c in ("unit", "scenario", "balance", "k", "separation", "rep", "algorithm",
                        "overlap") if c in part.columns]
    wide = part.pivot_table(index=keys, columns="table", values="adjusted", observed=True)
    wide.columns.name = None
    return wide.reset_index()


def scenario_table(results: pd.DataFrame, index: str = "rand", center: str = "mean",
                   algorithm: str | None = None) -> pd.DataFrame:
    """The thesis' Ch.5 Tables 2-3: the adjusted index averaged over the data sets of each
    scenario; rows balance x separation, columns (external / stability, K) — and the algorithm
    when the results hold several and ``algorithm`` is None."""
    units = paired_units(results, index, center)
    if algorithm is not None:
        units = units[units["algorithm"] == algorithm]
    cols = ["algorithm"] if units["algorithm"].nunique() > 1 else []
    long = units.melt(id_vars=["balance", "separation", "k", *cols],
                      value_vars=["external", "stability"], var_name="table")
    out = long.pivot_table(index=["balance", "separation"], columns=["table", *cols, "k"],
                           values="value", aggfunc="mean", observed=True)
    order = [s for s in SEPARATIONS if s in out.index.get_level_values("separation")]
    return out.reindex(order, level="separation")


def factor_correlations(results: pd.DataFrame, indices, table: str = "external",
                        center: str = "mean") -> pd.DataFrame:
    """Spearman correlations of each adjusted index with the design factors (separation as
    1 < 2 < 3, K, and balance as 0 balanced / 1 unbalanced) over the units, per algorithm, with
    their p-values (the thesis' Ch.4 Table 9)."""
    check_choice(table, "table", ("external", "stability"))
    rows = []
    for index in indices:
        units = paired_units(results, index, center)
        for algorithm, part in units.groupby("algorithm", sort=False):
            factors = {"separation": part["separation"].map(SEPARATIONS.index),
                       "k": part["k"], "balance": (part["balance"] == "unbalanced").astype(int)}
            for name, values in factors.items():
                if values.nunique() < 2:
                    continue  # a factor that does not vary has no correlation
                rho, p = stats.spearmanr(values, part[table])
                rows.append({"index": index, "algorithm": algorithm, "factor": name,
                             "spearman": rho, "pvalue": p, "units": len(part)})
    return pd.DataFrame(rows)


def stability_validity(results: pd.DataFrame, index: str, center: str = "mean"):
    """Pearson correlations between stability and external validity (both adjusted): across
    every unit, across the scenario means (the thesis' inter-scenario view), and within each
    scenario (Ch.5 Table 4). Returns ``(summary, within)``: a Series of the first two (per
    algorithm) and a DataFrame of the within-scenario correlations."""
    units = paired_units(results, index, center)
    summary, within = {}, []
    for algorithm, part in units.groupby("algorithm", sort=False):
        summary[(algorithm, "all units")] = _pearson(part["external"], part["stability"])
        means = part.groupby("scenario")[["external", "stability"]].mean()
        summary[(algorithm, "scenario means")] = _pearson(means["external"],
                                                          means["stability"])
        for (balance, separation, k), cell in part.groupby(["balance", "separation", "k"],
                                                           sort=False):
            within.append({"algorithm": algorithm, "balance": balance,
                           "separation": separation, "k": k, "units": len(cell),
                           "pearson": _pearson(cell["external"], cell["stability"])})
    return pd.Series(summary, name=f"pearson r, {index} adjusted"), pd.DataFrame(within)


def _pearson(x, y) -> float:
    """Pearson's r; nan when fewer than three points or a constant variable (no correlation
    can be estimated: the summaries show it as NA)."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if len(x) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan")
    return float(stats.pearsonr(x, y)[0])


def algorithm_comparison(results: pd.DataFrame, index: str = "rand", center: str = "mean",
                         table: str = "stability") -> pd.DataFrame:
    """EM against k-means, paired by data set: the mean adjusted index of each on balanced
    and on unbalanced scenarios, their mean difference (EM - k-means) and Wilcoxon's
    signed-rank p-value of the paired differences."""
    check_choice(table, "table", ("external", "stability"))
    units = paired_units(results, index, center)
    wide = units.pivot_table(index=["scenario", "rep", "balance"], columns="algorithm",
                             values=table, observed=True).dropna()
    if not {"em", "kmeans"} <= set(wide.columns):
        raise ValueError("the comparison needs results of both algorithms, em and kmeans")
    rows = []
    for balance, part in wide.groupby(level="balance", sort=False):
        diff = part["em"] - part["kmeans"]
        p = stats.wilcoxon(diff).pvalue if len(diff) >= 6 and diff.abs().sum() > 0 else np.nan
        rows.append({"balance": balance, "em": part["em"].mean(),
                     "kmeans": part["kmeans"].mean(), "em - kmeans": diff.mean(),
                     "em better (share)": float((diff > 0).mean()), "data sets": len(diff),
                     "wilcoxon p": p})
    return pd.DataFrame(rows).set_index("balance")
