"""Summaries of a study's results (``clusteragree.studies.study.run``) in the layouts of the thesis.

{ref:amorim2015}: Ch.4 Table 9 (Spearman correlations of the adjusted indices with the design
factors), Ch.5 Tables 2-3 (adjusted Rand and adjusted MIH, external validity and stability, averaged
over the data sets of each scenario) and Table 4 (Pearson correlations between stability and
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

from .._docs import fill, fill_doc
from .._validate import check_choice

__doc__ = fill(__doc__)

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
    """External validity and stability side by side, one row per unit.

    Parameters
    ----------
    results : DataFrame
        The results of ``clusteragree.studies.study.run`` (or ``load_results``).
    index : str
        An index the results hold (registry name).
    center : {"mean", "median"}, default "mean"
        The adjusted value used: ``adjusted_mean`` or ``adjusted_median``.

    Returns
    -------
    DataFrame
        One row per unit (data set x algorithm): the design keys, and the index adjusted on
        the external table (column ``external``) and on the stability table (``stability``).

    See Also
    --------
    scenario_table : Their means by scenario.
    stability_validity : Their correlation.

    Examples
    --------
    >>> from clusteragree.studies.study import load_results
    >>> res = load_results("thesis")
    >>> units = paired_units(res, "rand")
    >>> len(units), units[["external", "stability"]].iloc[0].round(3).tolist()
    (1080, [0.131, 0.579])
    """
    part = _adjusted(results, index, center)
    keys = [c for c in ("unit", "scenario", "balance", "k", "separation", "rep", "algorithm",
                        "overlap") if c in part.columns]
    wide = part.pivot_table(index=keys, columns="table", values="adjusted", observed=True)
    wide.columns.name = None
    return wide.reset_index()


@fill_doc
def scenario_table(results: pd.DataFrame, index: str = "rand", center: str = "mean",
                   algorithm: str | None = None) -> pd.DataFrame:
    """The thesis' Ch.5 Tables 2-3: the adjusted index averaged over each scenario's data sets.

    Parameters
    ----------
    results : DataFrame
        The results of ``clusteragree.studies.study.run`` (or ``load_results``).
    index : str, default "rand"
        An index the results hold (the thesis: rand, whose mean-adjusted value is Rand_a, and
        nmi_joint, MIH_a).
    center : {"mean", "median"}, default "mean"
        The adjusted value used: ``adjusted_mean`` or ``adjusted_median``.
    algorithm : {"kmeans", "em"}, optional
        One algorithm only.

    Returns
    -------
    DataFrame
        Rows balance x separation, columns (table: external / stability, K), and the
        algorithm as a column level when the results hold several and ``algorithm`` is None.

    See Also
    --------
    paired_units : The values averaged.

    References
    ----------
    {ref:amorim2015}, Ch.5 Tables 2-3.

    Examples
    --------
    >>> from clusteragree.studies.study import load_results
    >>> res = load_results("thesis")
    >>> table = scenario_table(res, "rand", algorithm="em")
    >>> table.loc[("balanced", "good")].round(3).tolist()   # external, then stability; K = 2, 3, 4
    [0.957, 0.937, 0.893, 0.98, 0.945, 0.907]
    """
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


@fill_doc
def factor_correlations(results: pd.DataFrame, indices, table: str = "external",
                        center: str = "mean") -> pd.DataFrame:
    """Spearman correlations of each adjusted index with the design factors.

    Over the units, per algorithm, with their p-values (the thesis' Ch.4 Table 9): separation
    as 1 < 2 < 3, K, and balance as 0 balanced / 1 unbalanced. A factor that does not vary is
    left out.

    Parameters
    ----------
    results : DataFrame
        The results of ``clusteragree.studies.study.run`` (or ``load_results``).
    indices : sequence of str
        The indices (registry names the results hold).
    table : {"external", "stability"}, default "external"
        The table whose adjusted values are correlated.
    center : {"mean", "median"}, default "mean"
        The adjusted value used: ``adjusted_mean`` or ``adjusted_median``.

    Returns
    -------
    DataFrame
        One row per index, algorithm and factor: ``spearman``, ``pvalue`` and ``units``.

    See Also
    --------
    scipy.stats.spearmanr : The correlation and its p-value.

    References
    ----------
    {ref:amorim2015}, Ch.4 Table 9.

    Spearman, C. (1904), "The proof and measurement of association between two things",
    American Journal of Psychology 15.

    Examples
    --------
    >>> from clusteragree.studies.study import load_results
    >>> res = load_results("thesis")
    >>> rho = factor_correlations(res, ["rand"])
    >>> rho.loc[rho.algorithm == "em", ["factor", "spearman"]].round(3).values.tolist()
    [['separation', 0.918], ['k', -0.138], ['balance', 0.029]]
    """
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


@fill_doc
def stability_validity(results: pd.DataFrame, index: str, center: str = "mean"):
    """Pearson correlations between stability and external validity (both adjusted).

    Across every unit, across the scenario means (the thesis' inter-scenario view), and
    within each scenario (Ch.5 Table 4). A correlation of fewer than three points or of a
    constant variable is NaN.

    Parameters
    ----------
    results : DataFrame
        The results of ``clusteragree.studies.study.run`` (or ``load_results``).
    index : str
        An index the results hold.
    center : {"mean", "median"}, default "mean"
        The adjusted value used: ``adjusted_mean`` or ``adjusted_median``.

    Returns
    -------
    summary : Series
        Per algorithm, r across all units and across the scenario means.
    within : DataFrame
        One row per algorithm and scenario (balance, separation, k): ``units`` and
        ``pearson``.

    See Also
    --------
    paired_units : The pairs correlated.

    References
    ----------
    {ref:amorim2015}, Ch.5 Table 4.

    Examples
    --------
    >>> from clusteragree.studies.study import load_results
    >>> res = load_results("thesis")
    >>> summary, within = stability_validity(res, "rand")
    >>> summary.round(3).tolist(), within.shape
    ([0.82, 0.969, 0.63, 0.842], (36, 6))
    """
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
    """EM against k-means, paired by data set.

    Parameters
    ----------
    results : DataFrame
        The results of ``clusteragree.studies.study.run`` (or ``load_results``).
        They must hold both algorithms.
    index : str, default "rand"
        An index the results hold.
    center : {"mean", "median"}, default "mean"
        The adjusted value used: ``adjusted_mean`` or ``adjusted_median``.
    table : {"stability", "external"}, default "stability"
        The table whose adjusted values are compared.

    Returns
    -------
    DataFrame
        One row per balance: the mean adjusted index of ``em`` and of ``kmeans``, their mean
        difference ``em - kmeans``, the share of data sets where EM is better, the number of
        ``data sets`` and Wilcoxon's signed-rank p-value of the paired differences (NaN with
        fewer than 6 data sets or no difference).

    See Also
    --------
    scipy.stats.wilcoxon : The signed-rank test.

    References
    ----------
    Wilcoxon, F. (1945), "Individual comparisons by ranking methods", Biometrics Bulletin 1.

    Examples
    --------
    >>> from clusteragree.studies.study import load_results
    >>> res = load_results("thesis")
    >>> cmp = algorithm_comparison(res, "rand")
    >>> cmp[["em", "kmeans", "data sets"]].round(3).values.tolist()
    [[0.661, 0.788, 270.0], [0.633, 0.772, 270.0]]
    """
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
