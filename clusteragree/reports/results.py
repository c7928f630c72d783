"""How a report shows a results frame (``ca.compare``): two tables a reader can sign.

* ``table_of_tests``: per index, the observed value with its confidence interval, the p-value
  as it should be read (a Monte Carlo floor as a bound with its count), the method that gave
  the row, and the group of indices that are one test under fixed margins.
* ``table_of_laws``: per index, its null law (mean, median, sd, skewness), the adjusted values,
  and z, starred beside a skewed law and "> 50" at the p floor.
* ``table_of_intervals``: per index, the observed value, its confidence interval and the
  interval's method (a table of its own on paper: ``table_of_tests(..., intervals=False)``).
* ``pvalue_text``, ``method_text``, ``beyond_floor_texts``: one column each, as text.

>>> df = ca.compare([[12, 2], [3, 10]], indices=["rand", "purity"], method="auto", seed=1)
>>> table_of_tests(df).loc["rand", ["p-value", "method"]].tolist()
['0.00184', 'exact']
"""

from __future__ import annotations

import pandas as pd

from .._display import significant
from ..inference.pvalues import PValue
from ..inference.results import zscore_texts

__all__ = ["pvalue_text", "method_text", "beyond_floor_texts", "interval_text", "table_of_tests",
           "table_of_intervals", "table_of_laws"]


def pvalue_text(results: pd.DataFrame) -> pd.Series:
    """The p-values of a results frame as a reader should see them.

    A Monte Carlo p-value with no simulated value as extreme is a floor, written
    "< 1/(B+1) (0 of B)"; the others are written to 3 significant digits, as R prints
    p-values, with, for Monte Carlo, the count of simulated values as extreme.

    Parameters
    ----------
    results : DataFrame
        A frame of the package's result schema (``ca.compare``).

    Returns
    -------
    Series
        Text, indexed like ``results``.

    See Also
    --------
    clusteragree.inference.pvalues.PValue.brief : Each text.
    clusteragree.format_results : The same rule for printed frames.

    Examples
    --------
    >>> df = ca.compare(ca.load_dataset("statlog_em"), indices=["rand"], method="patefield",
    ...                 n_sim=999, seed=1)
    >>> pvalue_text(df).tolist()
    ['< 0.001 (0 of 999)']
    """
    return pd.Series([PValue.from_row(row).brief()
                      for row in _rows(results, ("pvalue", "n_extreme", "n_sim"))],
                     index=results.index, name="pvalue")


def _rows(results: pd.DataFrame, columns) -> list[dict]:
    """The rows of a results frame as dicts of these columns (a missing one: KeyError)."""
    return [dict(zip(columns, values)) for values in zip(*(results[c] for c in columns))]


def beyond_floor_texts(results: pd.DataFrame) -> pd.Series:
    """The p-values beyond the Monte Carlo floor of a results frame, briefly, for a table:
    "≈ 2.38e-64 (IS, s.e. 29%)" (importance sampling), "≈ 2.4e-64 (saddlepoint)", or
    "< 1e-300 (log10 p = -1234.5, ...)"; "" where there is none.

    Parameters
    ----------
    results : DataFrame
        A frame of the result schema with ``log10_pvalue_beyond_floor``,
        ``pvalue_beyond_floor_se``, ``pvalue_beyond_floor`` and ``beyond_floor_method``.

    Returns
    -------
    Series
        The column "p beyond the floor" of the report's table of tests, by index.

    See Also
    --------
    clusteragree.inference.pvalues.PValue.brief_beyond : Each text.
    clusteragree.inference.pvalues.beyond_floor_text : The same in words, for a printed test.

    Examples
    --------
    >>> df = pd.DataFrame({"log10_pvalue_beyond_floor": [-63.62, None, -1234.5],
    ...                    "pvalue_beyond_floor": [2.38e-64, None, 0.0],
    ...                    "pvalue_beyond_floor_se": [6.9e-65, None, 0.0],
    ...                    "beyond_floor_method": ["importance", None, "importance"]},
    ...                   index=["adjusted_rand", "purity", "vi"])
    >>> beyond_floor_texts(df).tolist()
    ['≈ 2.4e-64 (IS, s.e. 29%)', '', '< 1e-300 (log10 p = -1234.5, IS)']
    """
    cols = ["log10_pvalue_beyond_floor", "pvalue_beyond_floor", "pvalue_beyond_floor_se",
            "beyond_floor_method"]
    if not set(cols) <= set(results.columns):
        return pd.Series([""] * len(results), index=results.index, name="beyond the floor")
    return pd.Series([PValue.from_row(row).brief_beyond() for row in _rows(results, cols)],
                     index=results.index, name="beyond the floor")


#: What a Monte Carlo method draws, by its name.
DRAWS = {"patefield": "Patefield tables", "simulation": "random partitions",
         "permutation": "permutations"}


def method_text(results: pd.DataFrame) -> pd.Series:
    """The method that gave each row, in words: "exact", "17,000 Patefield tables",
    "closed-form moments".

    Parameters
    ----------
    results : DataFrame
        A frame of the result schema.

    Returns
    -------
    Series
        Text, indexed like ``results``.

    See Also
    --------
    table_of_tests : Shows it beside each p-value.

    Examples
    --------
    >>> df = ca.compare([[30, 20], [10, 20]], indices=["rand"], method="patefield", n_sim=999,
    ...                 seed=1)
    >>> method_text(df).tolist()
    ['999 Patefield tables']
    """
    def one(method, b):
        if pd.isna(method):
            return "NA"
        if method == "exact":
            return "exact"
        if method == "hypergeometric":
            return "closed-form moments"
        if pd.isna(b):
            return str(method)
        return f"{int(b):,} {DRAWS.get(method, method + ' draws')}"

    return pd.Series([one(m, b) for m, b in zip(results["method"], results["n_sim"])],
                     index=results.index, name="method")


def interval_text(results: pd.DataFrame) -> pd.Series:
    """Each row's confidence interval as "[low, high]" (4 significant digits), NA without; an
    open bound (``ci_closed``: "auto" leaves out the independence value when its test rejects
    it) is written with a parenthesis, "(low, high]".

    Parameters
    ----------
    results : DataFrame
        A frame of the result schema with ``ci_low`` and ``ci_high``.

    Returns
    -------
    Series
        Text, indexed like ``results``.

    See Also
    --------
    clusteragree.confidence_interval : How the intervals are made.

    Examples
    --------
    >>> df = pd.DataFrame({"ci_low": [0.51234, None], "ci_high": [0.8, None]}, index=["a", "b"])
    >>> interval_text(df).tolist()
    ['[0.5123, 0.8000]', 'NA']
    >>> interval_text(df.assign(ci_closed=["right", None])).tolist()
    ['(0.5123, 0.8000]', 'NA']
    """
    closed = results["ci_closed"] if "ci_closed" in results else ["both"] * len(results)
    return pd.Series(["NA" if pd.isna(lo) or pd.isna(hi)
                      else f"{'(' if c == 'right' else '['}{significant(lo)}, "
                           f"{significant(hi)}{')' if c == 'left' else ']'}"
                      for lo, hi, c in zip(results["ci_low"], results["ci_high"], closed)],
                     index=results.index, name="interval")


def table_of_intervals(results: pd.DataFrame) -> pd.DataFrame:
    """The confidence intervals of a results frame as a report shows them.

    Parameters
    ----------
    results : DataFrame
        A frame of the result schema (``ca.compare``).

    Returns
    -------
    DataFrame
        Columns: observed, the interval (``interval_text``, headed by its level, e.g. "95%
        interval") and the interval's method ("jackknife", ...; "" without an interval).

    See Also
    --------
    table_of_tests : The tests of the same rows (with these columns unless asked not to).

    Examples
    --------
    >>> df = ca.compare([[12, 2], [3, 10]], indices=["rand"], method="auto", seed=1)
    >>> list(table_of_intervals(df).columns)
    ['observed', '95% interval', 'interval method']
    """
    levels = results["ci_level"].dropna().unique()
    head = f"{100 * float(levels[0]):g}% interval" if len(levels) == 1 else "interval"
    return pd.DataFrame({
        "observed": results["statistic"],
        head: interval_text(results),
        "interval method": ["" if pd.isna(m) else m
                            for m in results.get("ci_method", [pd.NA] * len(results))],
    }, index=results.index)


def table_of_tests(results: pd.DataFrame, intervals: bool = True) -> pd.DataFrame:
    """The tests of a results frame as a report shows them.

    Parameters
    ----------
    results : DataFrame
        A frame of the result schema (``ca.compare``).
    intervals : bool, default True
        With the interval and its method after the observed value (``table_of_intervals``);
        False leaves them to a table of their own (a printed page holds either table in 8
        pt type, not both side by side).

    Returns
    -------
    DataFrame
        Columns: observed, the interval (headed by its level, e.g. "95% interval"), the
        interval's method ("BCa", ...; "" without an interval), p-value (``pvalue_text``),
        method of the null (``method_text``), "p beyond the floor" (``beyond_floor_texts``;
        only when some p-value at the Monte Carlo floor has one) and "one test of" (the
        statistic of the index's ``test_group``, "" when the test stands alone).

    See Also
    --------
    table_of_laws : The null laws of the same rows.
    table_of_intervals : The intervals of the same rows.

    Examples
    --------
    >>> df = ca.compare([[12, 2], [3, 10]], indices=["rand", "vi"], method="auto", seed=1)
    >>> list(table_of_tests(df).columns)
    ['observed', '95% interval', 'interval method', 'p-value', 'method', 'one test of']
    >>> list(table_of_tests(df, intervals=False).columns)
    ['observed', 'p-value', 'method', 'one test of']
    """
    shown = table_of_intervals(results) if intervals else results[["statistic"]].rename(
        columns={"statistic": "observed"})
    beyond = beyond_floor_texts(results)
    return pd.DataFrame({
        **{c: shown[c] for c in shown.columns},
        "p-value": pvalue_text(results),
        "method": method_text(results),
        **({"p beyond the floor": beyond} if (beyond != "").any() else {}),
        "one test of": ["" if pd.isna(g) else g for g in results["test_group"]],
    }, index=results.index)


def table_of_laws(results: pd.DataFrame) -> pd.DataFrame:
    """The null laws of a results frame, the adjusted values, and z with its caveat.

    Parameters
    ----------
    results : DataFrame
        A frame of the result schema.

    Returns
    -------
    DataFrame
        Null mean, median, sd and skewness, the index adjusted by the null mean and by the
        null median, and z as text (``clusteragree.inference.results.zscore_texts``): starred
        ("6.808*") where the null law is skewed (|skewness| >= 0.5), where a normal reading
        of z is wrong, and "> 50" where the Monte Carlo p-value is at its floor and z is
        further out, where its size carries no information.

    See Also
    --------
    table_of_tests : The tests of the same rows.
    clusteragree.inference.agreement_tests.frame_notes : The caveat in words.

    Examples
    --------
    >>> df = ca.compare([[12, 2], [3, 10]], indices=["rand"], method="exact")
    >>> table_of_laws(df).loc["rand", "z"]
    '6.808*'
    """
    return pd.DataFrame({
        "null mean": results["null_mean"], "null median": results["null_median"],
        "null sd": results["null_sd"], "null skew": results["null_skewness"],
        "adj. (mean)": results["adjusted_mean"], "adj. (median)": results["adjusted_median"],
        "z": zscore_texts(results),
    }, index=results.index)
