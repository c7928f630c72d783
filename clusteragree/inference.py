"""Agreement, tests and chance adjustment: glue from an index and a null law to a result.

* ``agreement``: the value of one or several indices (no null).
* ``agreement_test``: one index, its null law, p-value and adjusted values, printed like R's
  ``htest``.
* ``adjust``: the chance-adjusted value of one index (a float).
* ``compare``: a table of many indices, all evaluated on the same null tables.
* ``iadjust``: ``compare`` with the thesis' IADJUST defaults (Patefield, 17,000 tables, the
  eight paired indices; Amorim 2015, "On clustering stability", ch. 4).

Every result has one schema (``RESULT_COLUMNS``): ``compare`` rows are
``agreement_test(...).to_frame()`` rows, whatever the index, model and method; what a method
cannot give is NA, never a missing column. Every index kind works: partitions through their
table, fuzzy memberships and similarity matrices through the permutation nulls.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ._display import definition_table, figure_html, table
from ._validate import check_bool, check_choice, check_real
from ._validate import check_options
from .indices import (Index, PairIndex, evaluate_checked, evaluate_pairwise, get_index,
                      group_members, resolve_indices, skip_undefined, split_options)
from .nulls import NullDistribution, NullSpec, plan, run
from .nulls.distribution import ALTERNATIVES, check_center
from .nulls.engine import entry, index_records

__all__ = ["agreement", "AgreementTest", "ResultsFrame", "agreement_test", "adjust", "compare", "iadjust",
           "format_results", "RESULT_COLUMNS", "FLOAT_COLUMNS"]

#: The one result schema of a test of one index (``to_frame()``, ``compare`` rows).
#: The names are scipy's (``statistic``, ``pvalue``, ...), the same as ``AgreementTest``'s
#: attributes.
RESULT_COLUMNS = ("statistic", "null_mean", "null_median", "null_sd", "null_skewness",
                  "pvalue", "pvalue_se", "alternative", "adjusted_mean", "adjusted_median",
                  "zscore", "kind", "model", "method", "n_sim")
#: The numeric columns of the schema (pandas' nullable Float64: NA stays NA).
FLOAT_COLUMNS = ("statistic", "null_mean", "null_median", "null_sd", "null_skewness",
                 "pvalue", "pvalue_se", "adjusted_mean", "adjusted_median", "zscore")
_SIDES = {"greater": "greater than", "less": "less than", "two-sided": "different from"}


def _default_alternative(rec: Index, alternative):
    if alternative is None:
        return "less" if rec.kind == "distance" else "greater"
    return check_choice(alternative, "alternative", ALTERNATIVES)


def _fmt_p(p: float, nd: NullDistribution) -> str:
    if nd.samples is not None:
        text = f"= {p:.4g}"
        if p <= 1.0 / (nd.n_sim + 1) + 1e-15:
            text += " (no simulated value as extreme)"
        return text
    return "< 1e-300" if p < 1e-300 else f"= {p:.4g}"


@dataclass
class AgreementTest:
    """Result of ``agreement_test``: print it for an R-style summary; ``to_frame()`` gives the
    one-row result in the package's one schema (``RESULT_COLUMNS``)."""

    statistic: float
    pvalue: float  # nan when the null gives moments only
    adjusted: dict  # center ("mean", "median") -> adjusted value
    null: NullDistribution
    index: str
    alternative: str
    data_name: str
    zscore: float  # nan when the null has no variance
    pvalue_se: float  # Monte Carlo standard error of the p-value; 0 exact; nan moments only
    note: str | None = None  # how the index was computed on this table (``Index.describe``)
    record: Index | None = field(default=None, repr=False, compare=False)  # the index's record

    def __post_init__(self):
        if self.record is None:
            self.record = get_index(self.index)

    @property
    def method(self) -> str:
        return self.null.method

    @property
    def model(self) -> str:
        return self.null.model

    def to_frame(self) -> pd.DataFrame:
        """One row, indexed by the index name, with the columns ``RESULT_COLUMNS``."""
        return _frame([self])

    def row(self) -> dict:
        """The result as a dict with the keys ``RESULT_COLUMNS`` (NA where not available)."""
        row = dict(self.null.summary())

        def na(v):
            return pd.NA if v is None or (isinstance(v, float) and math.isnan(v)) else v

        row.update(statistic=self.statistic, pvalue=na(self.pvalue),
                   pvalue_se=na(self.pvalue_se), alternative=self.alternative,
                   adjusted_mean=na(self.adjusted.get("mean")),
                   adjusted_median=na(self.adjusted.get("median")), zscore=na(self.zscore),
                   kind=self.record.kind)
        return {c: row[c] for c in RESULT_COLUMNS}

    def __repr__(self) -> str:
        """Short, like scipy's results; ``print(res)`` or ``res.summary()`` gives the test."""
        def num(v):
            return "nan" if v is None or math.isnan(v) else f"{v:.6g}"

        adjusted = ", ".join(f"{k!r}: {num(v)}" for k, v in self.adjusted.items())
        return (f"AgreementTest(index={self.index!r}, statistic={num(self.statistic)}, "
                f"pvalue={num(self.pvalue)}, adjusted={{{adjusted}}}, "
                f"model={self.model!r}, method={self.method!r})")

    def summary(self) -> str:
        """The test as R prints an ``htest``: data, index, observed value and null moments,
        p-value, alternative, null distribution and adjusted values (``str(res)``)."""
        return str(self)

    def __str__(self) -> str:
        nd, rec = self.null, self.record
        median = f", null median = {nd.median:.6g}" if nd.has_law else ""
        z = f", z = {self.zscore:.4g}" if not math.isnan(self.zscore) else ""
        lines = ["", f"\t{nd.method_record.title}", "",
                 f"data:  {self.data_name}",
                 f"index: {rec.name} ({rec.title}), a {rec.kind}",
                 *([self.note] if self.note else []),
                 f"observed = {self.statistic:.6g}, null mean = {nd.mean:.6g}{median}{z}"]
        if not math.isnan(self.pvalue):
            pv = f"p-value {_fmt_p(self.pvalue, nd)}"
            if self.pvalue_se:
                pv += f" (Monte Carlo s.e. {self.pvalue_se:.2g})"
            lines.append(pv)
        else:
            lines.append("p-value: not available from closed-form moments (use a method that "
                         "gives the law)")
        lines.append(f"alternative hypothesis: {rec.name} is {_SIDES[self.alternative]} "
                     "its value by chance")
        lines.append(f"null distribution: {nd.describe()}")
        how = "(I - c) / (max - c)" if rec.kind != "distance" else "(c - I) / (c - min)"
        if self.adjusted:
            values = ", ".join(f"{v:.4g} (c = null {k})" for k, v in self.adjusted.items())
            lines.append(f"adjusted {rec.name}, {how}: {values}")
        else:
            lines.append(f"not adjusted: {rec.name} has no fixed optimum (use "
                         "adjust(optimum=...))")
        return "\n".join(lines) + "\n"

    def _repr_html_(self) -> str:
        """Jupyter: the same numbers as the printed test, as a table, and the null law with
        the observed value marked."""
        nd, rec = self.null, self.record
        rows = [("data", self.data_name), ("index", f"{rec.name} ({rec.title}), a {rec.kind}"),
                ("observed", f"{self.statistic:.6g}"), ("null mean", f"{nd.mean:.6g}")]
        if self.note:
            rows.insert(2, ("computed", self.note))
        if nd.has_law:
            rows.append(("null median", f"{nd.median:.6g}"))
        if not math.isnan(self.zscore):
            rows.append(("z", f"{self.zscore:.4g}"))
        if not math.isnan(self.pvalue):
            pv = _fmt_p(self.pvalue, nd).removeprefix("= ")
            if self.pvalue_se:
                pv += f" (Monte Carlo s.e. {self.pvalue_se:.2g})"
            rows.append(("p-value", pv))
        rows.append(("alternative", f"{rec.name} is {_SIDES[self.alternative]} its value by "
                                    "chance"))
        how = "(I - c) / (max - c)" if rec.kind != "distance" else "(c - I) / (c - min)"
        for center, value in self.adjusted.items():
            rows.append((f"adjusted, c = null {center}", f"{value:.4g}  {how}"))
        out = definition_table(nd.method_record.title, rows, caption=f"null: {nd.describe()}")
        if nd.has_law:
            out += figure_html(nd.plot(self.statistic).figure)
        return out


class ResultsFrame(pd.DataFrame):
    """A DataFrame of results (``compare``, ``to_frame()``) that Jupyter shows with 4
    significant digits and the null named in its caption; in every other way a DataFrame."""

    @property
    def _constructor(self):
        return ResultsFrame

    def _repr_html_(self) -> str:
        nulls = self.attrs.get("null") or sorted(
            {f"{m}, {k}" for m, k in zip(self.get("model", []), self.get("method", []))
             if not pd.isna(m)})
        caption = "; ".join(f"null: {d}" for d in nulls) or None
        if self.attrs.get("data"):
            caption = f"data: {self.attrs['data']}" + (f" -- {caption}" if caption else "")
        if self.attrs.get("notes"):  # how an index was computed on this table (smi, rmi)
            caption = "; ".join([caption or "", *self.attrs["notes"]]).lstrip("; ")
        return table(self, caption).to_html()


def _frame(tests) -> pd.DataFrame:
    """The results of several tests as one frame of the schema: numeric columns as pandas'
    nullable Float64 / Int64, so NA stays NA (never nan)."""
    frame = ResultsFrame([t.row() for t in tests], columns=list(RESULT_COLUMNS),
                         index=pd.Index([t.index for t in tests], name="index"))
    types = {c: "Float64" for c in FLOAT_COLUMNS}
    types["n_sim"] = "Int64"
    return frame.astype(types)


def _centers_for(nd: NullDistribution):
    if not math.isfinite(nd.index.optimum):
        return ()  # no fixed optimum (mutual_info): not adjusted; use adjust(..., optimum=)
    return ("mean", "median") if nd.has_law else ("mean",)


def _observed(rec: Index, request) -> float:
    """The observed value (table indices: computed once, when the request was planned)."""
    if rec.name in request.observed:
        return request.observed[rec.name]
    return evaluate_pairwise(rec, request.clusterings.pair(rec), request.options[rec.name])


def _need_exact_law(rec: Index, nd: NullDistribution) -> None:
    """A test asked for ``method="exact"`` gets the exact law or a refusal, never a p-value
    of nan: the exact mean alone (a large n under a random partition model, an index of
    object pairs) adjusts the index (``adjust``) but tests nothing."""
    if nd.method == "exact" and not nd.has_law and not nd.details.get("auto"):
        raise ValueError(
            f"method='exact' gives the exact null mean of {rec.name!r} here, not its law "
            f"({nd.describe()}), so it gives no p-value: ca.adjust(..., method='exact') "
            f"adjusts by the exact mean; for a test use a Monte Carlo method "
            f"({nd.model_record.default_method!r} under model={nd.model!r})")


def _test_of(rec: Index, nd: NullDistribution, request, alternative: str,
             plus_one: bool) -> AgreementTest:
    """The test of one index from its null law: the one place results are made
    (``alternative`` is checked by the caller)."""
    _need_exact_law(rec, nd)
    observed = _observed(rec, request)
    if nd.has_law:
        p = nd.pvalue(observed, alternative, plus_one=plus_one)
        se = nd.pvalue_se(observed, alternative, plus_one=plus_one)
    else:
        p = se = math.nan
    z = nd.zscore(observed) if nd.has_variance else math.nan  # moments without a variance
    note = None
    if rec.describe is not None and request.clusterings.table is not None:
        note = rec.describe(request.clusterings.table.counts, **request.options[rec.name])
    return AgreementTest(statistic=observed, pvalue=p,
                         adjusted={c: nd.adjust(observed, c) for c in _centers_for(nd)},
                         null=nd, index=rec.name, alternative=alternative,
                         data_name=request.clusterings.describe(), zscore=z, pvalue_se=se,
                         note=note, record=rec)


def agreement(x, y=None, index="adjusted_rand", *, data=None, dropna=False, join="exact",
              **options):
    """Agreement between two clusterings by one or several indices.

    Parameters
    ----------
    x, y : label vectors (x rows, y columns; the reference classes first in validation),
        membership matrices (objects x clusters), covers (0/1 memberships or lists of sets) or
        similarity matrices (n x n), as arrays or pandas objects; each index takes the kinds
        of clustering its definition covers (``kinds`` in ``list_indices()``) and refuses the
        others by name; or column names with ``data=``; or ``x`` alone as a ContingencyTable, a K x Q table of
        counts or a batch of tables of shape (..., K, Q).
    index : str or list of str
        An index name or alias (``ca.list_indices()``), a group ("paired", "simple",
        "pair counting", "information", "set matching", "all") or a list of them.
    data : DataFrame, optional
        Read ``x`` and ``y`` as column names of ``data``.
    dropna : bool
        Leave out objects whose label is missing in x or y (otherwise missing labels raise).
    join : {"exact", "inner"}
        Two pandas objects (Series of labels, DataFrames of memberships or similarity
        matrices) are paired by their index: "exact" (default) needs the same index labels in
        any order, "inner" keeps the objects in both (see ``crosstab``); a pandas object and
        an array are paired by position.
    **options
        Options of the indices (e.g. ``base=2``, ``average="max"``, ``simplified=True``); with
        several indices each option goes to those that take it.

    Returns
    -------
    float for one index on one table; a pandas Series (indexed by index name) for several;
    numpy arrays (one index) or a DataFrame (several) for a batch of tables.

    Examples
    --------
    >>> import clusteragree as ca
    >>> ca.agreement([0, 0, 1, 1], [0, 0, 1, 2], index="jaccard")
    0.5
    >>> ca.agreement([0, 0, 1, 1], [0, 0, 1, 2], index=["rand", "ari"]).round(3).to_dict()
    {'rand': 0.833, 'adjusted_rand': 0.571}
    """
    names, single = resolve_indices(index)
    recs = [get_index(n) for n in names]
    per = split_options(names, options)
    opts = {r.name: check_options(per[r.name], r.options, f"index {r.name!r}") for r in recs}
    clusterings = entry(x, y, data, dropna, join, recs, batch=True)

    def one(name):
        rec = recs[names.index(name)]
        if isinstance(rec, PairIndex):
            return np.asarray(evaluate_pairwise(rec, clusterings.pair(rec), opts[name]))
        return evaluate_checked(rec, clusterings.counts, opts[name])

    values, reasons = skip_undefined(names, group_members(index), one)
    first = next(iter(values.values()))
    if first.ndim == 0:
        if single:
            return float(first)
        out = pd.Series({k: float(values[k]) if k in values else pd.NA for k in names},
                        name="agreement", dtype="Float64" if reasons else float)
        out.attrs["not_defined"] = reasons
        return out
    if single:
        return first
    if first.ndim != 1:
        raise ValueError(
            f"several indices on a batch need a 1-D batch of tables, got batch shape {first.shape}"
        )
    out = pd.DataFrame(values)
    out.attrs["not_defined"] = reasons
    return out


def agreement_test(x, y=None, index="rand", method=None, *, model=None, n_sim=None, seed=None,
                   alternative=None, plus_one=True, data=None, dropna=False, join="exact",
                   **options) -> AgreementTest:
    """Test whether two clusterings agree more than chance, by any index.

    Parameters
    ----------
    x, y, data, dropna, join : the two clusterings (labels, column names with ``data``,
        membership or similarity matrices) or a table; two pandas objects (Series, or
        DataFrames of memberships or similarity matrices) are paired by their index
        (``join="inner"`` keeps the objects in both).
    index : str
        The index (``ca.list_indices()``); default the Rand index, a raw index (the ARI is the
        Rand index adjusted by its null mean, which the test reports).
    method : str or NullSpec, optional
        How the null law is obtained (``ca.nulls.list_nulls()``); default: the model's own
        (17,000 Patefield tables under ``model="perm"``, the thesis' IADJUST; 17,000 random
        partitions under the other partition models; 999 permutations for fuzzy and matrix
        indices). "auto": the exact law when it fits, else Monte Carlo. A ``NullSpec`` gives
        the method with its settings (budgets, reference, exhaustive, progress).
    model : {"perm", "num", "num1", "all", "all1", "objects", "pairs"}
        The random model (see ``ca.nulls.null_distribution``).
    alternative : {"greater", "less", "two-sided"}, optional
        Default: "greater" for a similarity, "less" for a distance (agreement above chance).
    plus_one : bool
        Monte Carlo p-value (1 + #{T >= t}) / (B + 1) (default) or #{T >= t} / B.

    Returns
    -------
    AgreementTest, with ``statistic``, ``pvalue``, ``pvalue_se``, ``adjusted`` (by mean and
    median), ``null`` (the NullDistribution), ``zscore`` and ``to_frame()``.

    Examples
    --------
    >>> res = ca.agreement_test(ca.load_dataset("statlog_em"), index="sokal_sneath", seed=1)
    >>> round(res.statistic, 3), round(res.adjusted["mean"], 3)   # Amorim (2015): .283, .114
    (0.283, 0.114)
    """
    rec = get_index(index)
    alternative = _default_alternative(rec, alternative)
    check_bool(plus_one, "plus_one")
    spec = NullSpec.of(method, model=model, n_sim=n_sim, seed=seed)
    requests = plan(entry(x, y, data, dropna, join, [rec]), [rec], spec, options)
    nd = run(requests)[rec.name]
    return _test_of(rec, nd, requests[0], alternative, plus_one)


def adjust(x, y=None, index="rand", method=None, center="mean", *, model=None, n_sim=None,
           seed=None, optimum=None, data=None, dropna=False, join="exact", **options) -> float:
    """The chance-adjusted value of an index, (I - c) / (max - c) (a distance:
    (c - I) / (c - min)), with c the null mean, median or a quantile (``center=0.99``: P99)
    under the chosen random model; ``optimum`` (max or min) defaults to the index's own.
    ``method`` is a method name or a ``NullSpec`` (see ``agreement_test``).

    >>> round(ca.adjust(ca.ContingencyTable([[30, 20], [10, 20]]), index="jaccard",
    ...                 method="exact"), 4)                      # Amorim (2015), Table 8
    0.0349
    >>> x, y = [0, 0, 0, 1, 1, 1, 2, 2], [0, 0, 1, 1, 1, 2, 2, 2]
    >>> round(ca.adjust(x, y, index="rand", model="num1", method="exact"), 4)  # one-sided ARI
    0.2959
    """
    rec = get_index(index)
    check_center(center)
    if optimum is not None:
        check_real(optimum, "optimum", "a number (the index's max or min)")
    spec = NullSpec.of(method, model=model, n_sim=n_sim, seed=seed)
    requests = plan(entry(x, y, data, dropna, join, [rec]), [rec], spec, options)
    nd = run(requests)[rec.name]
    return nd.adjust(_observed(rec, requests[0]), center, optimum=optimum)


def compare(x, y=None, indices="paired", method=None, *, model=None, n_sim=None, seed=None,
            alternative=None, plus_one=True, data=None, dropna=False, join="exact",
            **options) -> pd.DataFrame:
    """Many indices side by side, with their nulls from the same random tables.

    Returns a DataFrame indexed by index name whose rows are ``agreement_test(...).to_frame()``
    rows (columns ``RESULT_COLUMNS``): statistic, null_mean, null_median, null_sd,
    null_skewness, pvalue, pvalue_se, alternative, adjusted_mean, adjusted_median, zscore,
    kind, model, method, n_sim. What a method cannot give (a median from closed-form moments) is NA;
    indices with no fixed optimum (mutual_info) are not adjusted (NA). ``method`` is a method
    name or a ``NullSpec`` (see ``agreement_test``).

    >>> df = ca.compare(ca.ContingencyTable([[30, 20], [10, 20]]), method="exact")
    >>> df.loc[["rand", "sokal_sneath"], ["null_mean", "adjusted_mean"]].round(5)
                  null_mean  adjusted_mean
    index                                 
    rand            0.49968        0.05124
    sokal_sneath    0.24973        0.03498
    """
    recs = index_records(indices)
    sides = {r.name: _default_alternative(r, alternative) for r in recs}
    check_bool(plus_one, "plus_one")
    spec = NullSpec.of(method, model=model, n_sim=n_sim, seed=seed)
    clusterings = entry(x, y, data, dropna, join, recs)
    requests = plan(clusterings, recs, spec, options, optional=group_members(indices))
    nulls = run(requests)
    not_defined = requests[0].not_defined
    tests = [_test_of(rec, nulls[rec.name], req, sides[rec.name], plus_one)
             for req in requests for rec in req.indices]
    order = {r.name: i for i, r in enumerate(recs)}
    tests.sort(key=lambda t: order[t.index])
    frame = _frame(tests)
    if not_defined:  # group members not defined for this table: rows of NA, reasons in attrs
        frame = frame.reindex(pd.Index([r.name for r in recs], name="index"))
        for col in ("alternative", "kind", "model", "method"):
            frame[col] = frame[col].astype(object).where(frame[col].notna(), pd.NA)
        frame.loc[list(not_defined), "kind"] = [r.kind for r in recs if r.name in not_defined]
    frame.attrs.update(data=clusterings.describe(), seed=spec.seed, table=clusterings.table,
                       null=sorted({t.null.describe() for t in tests}),
                       not_defined=not_defined, notes=[t.note for t in tests if t.note])
    return frame


def iadjust(x, y=None, *, indices="paired", method="patefield", n_sim=None, seed=None,
            data=None, dropna=False, join="exact", plus_one=False, **options) -> pd.DataFrame:
    """The thesis' IADJUST (Amorim 2015, "On clustering stability", ch. 4): ``compare`` with
    17,000 Patefield tables (``n_sim``; ``method=`` may name another null) and the eight
    paired indices; the p-value is the thesis' share #{T >= t} / B (``plus_one=False``).
    Other ``compare`` arguments pass through."""
    return compare(x, y, indices=indices, method=method, n_sim=n_sim, seed=seed, data=data,
                   dropna=dropna, join=join, plus_one=plus_one, **options)


def format_results(frame: pd.DataFrame, columns=None, digits: int = 4) -> str:
    """A results frame (``compare``, ``to_frame()``) as text, R-style: numbers to ``digits``
    significant digits, NA where the method gives nothing, and the null named above it.

    >>> df = ca.compare([[30, 20], [10, 20]], indices=["rand", "jaccard"], method="exact")
    >>> print(format_results(df, ["statistic", "null_mean", "pvalue", "adjusted_mean"]))
    null: both margins fixed (permutation model); dynamic programme on s
            statistic null_mean   pvalue adjusted_mean
    index                                             
    rand       0.5253    0.4997  0.03683       0.05124
    jaccard    0.3644    0.3414  0.03683       0.03490
    """
    cols = list(columns) if columns is not None else list(frame.columns)
    shown = frame[cols].astype(object).copy()
    for c in cols:
        if c in FLOAT_COLUMNS:
            shown[c] = [("NA" if pd.isna(v) else f"{float(v):#.{digits}g}") for v in frame[c]]
        else:
            shown[c] = ["NA" if pd.isna(v) else v for v in frame[c]]
    head = [f"null: {d}" for d in frame.attrs.get("null", [])]
    with pd.option_context("display.max_rows", None, "display.width", 200):
        return "\n".join(head + [shown.to_string()])

