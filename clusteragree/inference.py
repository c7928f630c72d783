"""Tests and chance adjustment: glue from an index and a null to a result.

* ``agreement_test``: one index, its null law, p-value and adjusted values, printed like R's
  ``htest``.
* ``adjust``: the chance-adjusted value of one index (a float).
* ``compare``: a table of many indices, all evaluated on the same null tables.
* ``iadjust``: ``compare`` with the thesis' IADJUST defaults (Patefield, 17,000 tables, the
  eight paired indices).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd

from ._validate import check_choice, check_seed
from .indices import evaluate, get_index, resolve_indices
from .indices._registry import Index
from .nulls import DEFAULT_N_SIM, METHODS, NullDistribution, null_distributions
from .nulls.exact import DEFAULT_MAX_TABLES
from .tables import as_table

__all__ = ["AgreementTest", "agreement_test", "adjust", "compare", "iadjust"]

_ALTERNATIVES = ("greater", "less", "two-sided")


def _default_alternative(rec: Index, alternative):
    if alternative is None:
        return "less" if rec.kind == "distance" else "greater"
    return check_choice(alternative, "alternative", _ALTERNATIVES)


def _describe_null(nd: NullDistribution) -> str:
    d = nd.details
    if nd.method == "patefield":
        how = f"{nd.n_sim:,} Patefield tables"
    elif nd.method == "permutation":
        how = ("all permutations (exact)" if d.get("exhaustive")
               else f"{nd.n_sim:,} random permutations")
    elif nd.method == "exact":
        how = d.get("algorithm", "exact")
    else:
        how = "closed-form moments"
    seed = d.get("seed")
    return f"{nd.model}; {how}" + (f"; seed {seed}" if seed is not None else "")


def _fmt_p(p: float, nd: NullDistribution) -> str:
    if nd.samples is not None:
        text = f"= {p:.4g}"
        if p <= 1.0 / (nd.n_sim + 1) + 1e-15:
            text += " (no simulated value as extreme)"
        return text
    return "< 1e-300" if p < 1e-300 else f"= {p:.4g}"


@dataclass
class AgreementTest:
    """Result of ``agreement_test``: print it for an R-style summary."""

    statistic: float
    pvalue: float
    adjusted: dict
    null: NullDistribution
    index: str
    alternative: str
    data_name: str
    zscore: float
    pvalue_se: float = 0.0
    extra: dict = field(default_factory=dict)

    @property
    def method(self) -> str:
        return self.null.method

    def to_frame(self) -> pd.DataFrame:
        """One row: the observed value, the null summary, the p-value and adjusted values."""
        nd = self.null
        row = {"observed": self.statistic, "null_mean": nd.mean}
        if nd.is_exact or nd.is_sampled:
            row.update(null_median=nd.median, null_sd=nd.std, null_skewness=nd.skewness)
        row.update(p_value=self.pvalue, alternative=self.alternative, z=self.zscore)
        row.update({f"adjusted_{k}": v for k, v in self.adjusted.items()})
        row.update(method=nd.method, n_sim=nd.n_sim)
        return pd.DataFrame([row], index=pd.Index([self.index], name="index"))

    def __str__(self) -> str:
        nd, rec = self.null, get_index(self.index)
        title = {"exact": "Exact agreement test", "patefield": "Monte Carlo agreement test",
                 "permutation": "Permutation agreement test",
                 "hypergeometric": "Agreement test (closed-form moments)"}[nd.method]
        lines = ["", f"\t{title}", "",
                 f"data:  {self.data_name}",
                 f"index: {rec.name} ({rec.title}), a {rec.kind}",
                 f"observed = {self.statistic:.6g}, null mean = {nd.mean:.6g}"
                 + (f", null median = {nd.median:.6g}" if nd.is_exact or nd.is_sampled else "")
                 + (f", z = {self.zscore:.4g}" if not math.isnan(self.zscore) else "")]
        if not math.isnan(self.pvalue):
            pv = f"p-value {_fmt_p(self.pvalue, nd)}"
            if self.pvalue_se:
                pv += f" (Monte Carlo s.e. {self.pvalue_se:.2g})"
            lines.append(pv)
        side = {"greater": "greater than", "less": "less than", "two-sided": "different from"}
        lines.append(f"alternative hypothesis: {rec.name} is {side[self.alternative]} "
                     "its value by chance")
        lines.append(f"null distribution: {_describe_null(nd)}")
        adj = ", ".join(f"{k} {v:.4g}" for k, v in self.adjusted.items())
        how = "(I - c) / (max - c)" if rec.kind != "distance" else "(c - I) / (c - min)"
        if self.adjusted:
            lines.append(f"adjusted for chance {how}, c = null {adj}")
        else:
            lines.append(f"not adjusted: {rec.name} has no fixed maximum (use adjust(max=...))")
        return "\n".join(lines) + "\n"

    __repr__ = __str__


def _data_name(x, y, data, tab) -> str:
    if data is not None:
        left, right = x, y
    elif y is None:
        left, right = tab.names
    else:
        left = getattr(x, "name", None) or "x"
        right = getattr(y, "name", None) or "y"
    K, Q = tab.shape
    return f"{left} and {right} ({K} x {Q} table, n = {tab.n})"


def _centers_for(nd: NullDistribution):
    if not math.isfinite(nd.index.optimum):
        return ()  # no fixed maximum (mutual_info): not adjusted; use adjust(..., max=)
    return ("mean", "median") if (nd.is_exact or nd.is_sampled) else ("mean",)


def agreement_test(x, y=None, index="adjusted_rand", method="patefield", *, n_sim=None,
                   seed=None, alternative=None, max_tables=DEFAULT_MAX_TABLES, data=None,
                   dropna=False, plus_one=True, progress=False, **options) -> AgreementTest:
    """Test whether two clusterings agree more than chance, by any index.

    Parameters
    ----------
    x, y, data, dropna : the two clusterings (labels, column names with ``data``, or a table)
    index : str
        The index (``ca.list_indices()``).
    method : {"patefield", "exact", "permutation", "hypergeometric"}
        How the null law is obtained (default: 17,000 Patefield tables, the thesis' IADJUST).
    alternative : {"greater", "less", "two-sided"}, optional
        Default: "greater" for a similarity, "less" for a distance (agreement above chance).
    plus_one : bool
        Monte Carlo p-value (1 + #{T >= t}) / (B + 1) (default) or #{T >= t} / B.

    Returns
    -------
    AgreementTest, with ``statistic``, ``pvalue``, ``adjusted`` (by mean and median),
    ``null`` (the NullDistribution), ``zscore`` and ``to_frame()``.

    Examples
    --------
    >>> import clusteragree as ca
    >>> res = ca.agreement_test(ca.load_dataset("statlog_em"), index="sokal_sneath", seed=1)
    >>> round(res.statistic, 3), round(res.adjusted["mean"], 3)   # seed 002: .283, .114
    (0.283, 0.114)
    """
    check_choice(method, "method", METHODS)
    check_seed(seed)
    rec = get_index(index)
    alternative = _default_alternative(rec, alternative)
    tab = as_table(x, y, data=data, dropna=dropna)
    nd = null_distributions(tab, [rec.name], method, n_sim=n_sim, seed=seed,
                            max_tables=max_tables, progress=progress, **options)[rec.name]
    observed = float(evaluate(rec, tab.counts, **nd.options))
    if nd.is_exact or nd.is_sampled:
        p = nd.pvalue(observed, alternative, plus_one=plus_one)
        se = nd.pvalue_se(observed, alternative)
    else:
        p, se = math.nan, 0.0
    adjusted = {c: nd.adjust(observed, c) for c in _centers_for(nd)}
    try:
        z = nd.zscore(observed)
    except ValueError:
        z = math.nan
    return AgreementTest(statistic=observed, pvalue=p, adjusted=adjusted, null=nd,
                         index=rec.name, alternative=alternative,
                         data_name=_data_name(x, y, data, tab), zscore=z, pvalue_se=se)


def adjust(x, y=None, index="adjusted_rand", method="patefield", center="mean", *, n_sim=None,
           seed=None, max=None, max_tables=DEFAULT_MAX_TABLES, data=None, dropna=False,
           **options) -> float:
    """The chance-adjusted value of an index, (I - c) / (max - c) (a distance:
    (c - I) / (c - min)), with c the null mean, median or a quantile (``center=0.99``: P99).

    >>> import clusteragree as ca
    >>> round(ca.adjust(ca.ContingencyTable([[30, 20], [10, 20]]), index="jaccard",
    ...                 method="exact"), 4)                      # seed 002 Table 8: .03490
    0.0349
    """
    check_choice(method, "method", METHODS)
    check_seed(seed)
    rec = get_index(index)
    tab = as_table(x, y, data=data, dropna=dropna)
    nd = null_distributions(tab, [rec.name], method, n_sim=n_sim, seed=seed,
                            max_tables=max_tables, **options)[rec.name]
    return nd.adjust(float(evaluate(rec, tab.counts, **nd.options)), center, max=max)


def compare(x, y=None, indices="paired", method="patefield", *, n_sim=None, seed=None,
            alternative=None, max_tables=DEFAULT_MAX_TABLES, data=None, dropna=False,
            plus_one=True, progress=False, **options) -> pd.DataFrame:
    """Many indices side by side, with their nulls from the same tables.

    Returns a DataFrame indexed by index name with columns observed, null_mean, null_median,
    null_sd, null_skewness, p_value, adjusted_mean, adjusted_median, z, kind, method.
    With ``method="hypergeometric"`` (moments only) the median, skewness and p-value columns are
    missing (pd.NA), and indices without closed-form moments raise an error. Indices with no
    fixed maximum (mutual_info) are not adjusted (pd.NA; use ``adjust(..., max=...)``).

    >>> import clusteragree as ca
    >>> df = ca.compare(ca.ContingencyTable([[30, 20], [10, 20]]), method="exact")
    >>> df.loc[["rand", "sokal_sneath"], ["null_mean", "adjusted_mean"]].round(5)
                  null_mean  adjusted_mean
    index                                 
    rand            0.49968        0.05124
    sokal_sneath    0.24973        0.03498
    """
    check_choice(method, "method", METHODS)
    check_seed(seed)
    names, _ = resolve_indices(indices)
    tab = as_table(x, y, data=data, dropna=dropna)
    nulls = null_distributions(tab, names, method, n_sim=n_sim, seed=seed,
                               max_tables=max_tables, progress=progress, **options)
    rows = []
    for name in names:
        rec, nd = get_index(name), nulls[name]
        observed = float(evaluate(rec, tab.counts, **nd.options))
        alt = _default_alternative(rec, alternative)
        full = nd.is_exact or nd.is_sampled
        fixed_max = math.isfinite(rec.optimum)  # MI has none: not adjusted here
        row = {
            "observed": observed,
            "null_mean": nd.mean,
            "null_median": nd.median if full else pd.NA,
            "null_sd": nd.std if (full or rec.statistic == "s") else pd.NA,
            "null_skewness": nd.skewness if full else pd.NA,
            "p_value": nd.pvalue(observed, alt, plus_one=plus_one) if full else pd.NA,
            "adjusted_mean": nd.adjust(observed, "mean") if fixed_max else pd.NA,
            "adjusted_median": nd.adjust(observed, "median") if full and fixed_max else pd.NA,
            "z": nd.zscore(observed) if (full or rec.statistic == "s") else pd.NA,
            "kind": rec.kind,
            "method": nd.method,
        }
        rows.append(row)
    frame = pd.DataFrame(rows, index=pd.Index(names, name="index"))
    frame.attrs.update(n_sim=next(iter(nulls.values())).n_sim, seed=seed, table=tab)
    return frame


def iadjust(x, y=None, *, indices="paired", n_sim=DEFAULT_N_SIM, seed=None, data=None,
            dropna=False, plus_one=False, **options) -> pd.DataFrame:
    """The thesis' IADJUST (seed 002, Ch.4): ``compare`` with 17,000 Patefield tables and the
    eight paired indices; the p-value is the thesis' share #{T >= t} / B (``plus_one=False``).
    """
    return compare(x, y, indices=indices, method="patefield", n_sim=n_sim, seed=seed,
                   data=data, dropna=dropna, plus_one=plus_one, **options)
