"""The results of tests: one schema, the printed test, and frames of many tests.

* ``RESULT_COLUMNS``: the one schema of a test of one index (``AgreementTest.to_frame()``, the
  rows of ``compare``), with its numeric (``FLOAT_COLUMNS``) and count (``INT_COLUMNS``)
  columns.
* ``AgreementTest``: one index against its null law, printed like R's ``htest``.
* ``ResultsFrame``: a DataFrame of such rows that Jupyter shows with 4 significant digits.
* ``format_results``, ``frame_notes``, ``skewed_rows``: a frame as text, and what a reader
  must be told beside it (the indices that are one test, z beside a skewed law).

``clusteragree.inference.agreement_tests`` makes these results; reports read them.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

import pandas as pd

from .._display import (Row, figure_html, format_pvalue, rows_html, rows_text, significant,
                         table)
from ..indices import STATISTIC_NAMES, Index, get_index
from ..intervals import INDEPENDENCE_MODELS, ConfidenceInterval, IntervalSpec, interval_of
from ..nulls import NullDistribution
from .pvalues import BEYOND_FLOOR_METHODS, PVALUE_BOUND_LEVEL, PValue, beyond_floor_text

__all__ = ["AgreementTest", "ResultsFrame", "results_frame", "format_results", "frame_notes",
           "skewed_rows", "RESULT_COLUMNS", "BEYOND_FLOOR_METHODS", "FLOAT_COLUMNS",
           "INT_COLUMNS",
           "PVALUE_BOUND_LEVEL", "SKEWED", "PVALUE_COLUMNS", "pvalue_texts", "Z_SHOWN",
           "zscore_texts", "Z_BEYOND_NOTE", "beyond_floor_text"]

#: The one result schema of a test of one index (``to_frame()``, ``compare`` rows).
#: The names are scipy's (``statistic``, ``pvalue``, ...), the same as ``AgreementTest``'s
#: attributes.
RESULT_COLUMNS = ("statistic", "ci_low", "ci_high", "ci_closed", "ci_method", "ci_level",
                  "null_mean",
                  "null_median", "null_sd", "null_skewness", "pvalue", "pvalue_se", "n_extreme",
                  "pvalue_upper", "pvalue_beyond_floor", "pvalue_beyond_floor_se",
                  "log10_pvalue_beyond_floor", "beyond_floor_method", "alternative",
                  "adjusted_mean", "adjusted_median", "zscore", "kind", "model", "method", "n_sim",
                  "test_group")
#: The numeric columns of the schema (pandas' nullable Float64: NA stays NA).
FLOAT_COLUMNS = ("statistic", "ci_low", "ci_high", "ci_level", "null_mean", "null_median",
                 "null_sd", "null_skewness", "pvalue", "pvalue_se", "pvalue_upper",
                 "pvalue_beyond_floor", "pvalue_beyond_floor_se", "log10_pvalue_beyond_floor",
                 "adjusted_mean", "adjusted_median", "zscore")
#: The count columns of the schema (pandas' nullable Int64).
INT_COLUMNS = ("n_extreme", "n_sim")
_SIDES = {"greater": "greater than", "less": "less than", "two-sided": "different from"}
#: No p-value beyond the floor: every figure nan.
_NO_TAIL = PValue("tail")


#: A null law this skewed is not read through z: the printed z carries the skewness.
SKEWED = 0.5


#: Beyond this many null standard deviations, where the Monte Carlo p-value is at its floor, z is
#: printed as "> 50" (``zscore_texts``): the DataFrame keeps the number.
Z_SHOWN = 50

#: Why z is printed as "> 50", in one sentence: under the tables and the printed test.
Z_BEYOND_NOTE = (f'z "> {Z_SHOWN:g}" (or "< -{Z_SHOWN:g}"): no simulated value was as extreme '
                 "as the observed one, so the p-value is at its floor 1/(B + 1), and how many "
                 "null standard deviations lie beyond adds nothing to the test (the frame "
                 "keeps the number)")


def _z_beyond(z: float, at_floor: bool) -> str | None:
    """z as "> 50" (or "< -50") where it carries no information: a Monte Carlo p-value at its
    floor and |z| above ``Z_SHOWN``; None where z is printed as a number."""
    if not at_floor or math.isnan(z) or abs(z) <= Z_SHOWN:
        return None
    return f"> {Z_SHOWN:g}" if z > 0 else f"< -{Z_SHOWN:g}"


def _z_caveat(nd: NullDistribution) -> str:
    """z with its caveat: beside a skewed null law, z's normal reading is wrong by orders of
    magnitude (z = 6.8 with a skewness of 2.5 where the exact tail is 0.0018), so the
    skewness is printed with it and the reader sent to the p-value."""
    if not nd.has_law:
        return ""
    skew = nd.skewness
    if math.isnan(skew) or abs(skew) < SKEWED:
        return ""
    return f" (null skewness {skew:.3g}: read the p-value, not a normal tail of z)"


#: The columns of p-values, printed to 3 significant digits (``pvalue_texts``).
PVALUE_COLUMNS = ("pvalue", "pvalue_se", "pvalue_upper", "pvalue_beyond_floor",
                  "pvalue_beyond_floor_se")


def pvalue_texts(frame: pd.DataFrame, column: str = "pvalue", na_rep: str = "NA") -> list[str]:
    """A column of p-values (``PVALUE_COLUMNS``) of a results frame as text, to 3 significant
    digits, so that no positive p-value is printed as 0.

    A Monte Carlo p-value with no simulated value as extreme (``n_extreme`` 0) is the floor
    1/(B + 1): "<5.88e-05". An exact p-value is never 0; one that is 0.0 has underflowed:
    "<1e-300". "0" is printed only for a 0 that is one (a standard error 0, the share
    #{T >= t} / B = 0 of ``plus_one=False``). The frame's ``attrs["pvalue_bound"]`` (set by
    ``results_frame``) says which p-values are bounds, also in a frame of some of the columns.

    Parameters
    ----------
    frame : DataFrame
        A frame of the result schema.
    column : str, default "pvalue"
        "pvalue", "pvalue_se" or "pvalue_upper".
    na_rep : str, default "NA"
        The text of a missing value.

    Returns
    -------
    list of str
        One text per row.

    See Also
    --------
    format_results : Prints a frame with them.

    Examples
    --------
    >>> df = ca.compare([[40, 0, 0], [0, 35, 5], [0, 5, 35]], indices=["rand", "vi"],
    ...                 method="exact", interval=None)
    >>> pvalue_texts(df), df["pvalue"].round(6).tolist()
    (['8.4e-41', '7.9e-43'], [0.0, 0.0])
    """
    # which p-values are bounds: the frame's attrs (kept by a frame of some of its columns;
    # a p-value 0 rounded by the user is not an underflow) and its n_extreme column
    # an underflowed p-value's adjusted value (a multiple of it, capped at 1) underflowed too
    bound = (frame.attrs.get("pvalue_bound", {}) if column in ("pvalue", "pvalue_adjusted")
             else {})
    floor = _at_floor(frame) if column == "pvalue" else [False] * len(frame)
    underflow = [bound.get(i) == "underflow" for i in frame.index]
    out = []
    for v, low, exact in zip(frame[column], floor, underflow):
        text = format_pvalue(v, na_rep=na_rep)
        if text == "0" and exact:
            text = "<1e-300"
        elif low and text != "0":
            text = "<" + text
        out.append(text)
    return out


def _at_floor(frame: pd.DataFrame) -> list[bool]:
    """Whether each row's Monte Carlo p-value is at its floor 1/(B + 1) (no simulated value as
    extreme): its ``n_extreme`` is 0, or the frame's ``attrs["pvalue_bound"]`` says so (kept by
    a frame of some of the columns)."""
    bound = frame.attrs.get("pvalue_bound", {})
    floor = [bound.get(i) == "floor" for i in frame.index]
    if "n_extreme" in frame:
        floor = [a or bool(b) for a, b in zip(floor, (frame["n_extreme"] == 0).fillna(False))]
    return floor


def zscore_texts(frame: pd.DataFrame, number=None, na_rep: str = "NA") -> list[str]:
    """The z column of a results frame as text: a number (4 significant digits), starred
    beside a skewed null law (``skewed_rows``), or "> 50" where the Monte Carlo
    p-value is at its floor and |z| exceeds ``Z_SHOWN`` (``Z_BEYOND_NOTE`` says why).

    Parameters
    ----------
    frame : DataFrame
        A frame of the result schema with ``zscore``.
    number : callable, optional
        A z printed as a number, as text (default ``significant``: 4 significant digits).
    na_rep : str, default "NA"
        The text of a missing z.

    Returns
    -------
    list of str
        One text per row; the frame's column stays numeric.

    See Also
    --------
    format_results : Prints a frame with them.

    Examples
    --------
    >>> df = ca.compare(ca.load_dataset("statlog_em"), indices=["rand"], method="patefield",
    ...                 n_sim=999, seed=1, interval=None)
    >>> round(float(df.loc["rand", "zscore"])), zscore_texts(df)
    (83, ['> 50'])
    """
    number = significant if number is None else number
    out = []
    for z, low, sk in zip(frame["zscore"], _at_floor(frame), skewed_rows(frame)):
        if pd.isna(z):
            out.append(na_rep)
            continue
        out.append(_z_beyond(float(z), low) or number(float(z)) + ("*" if sk else ""))
    return out


@dataclass
class AgreementTest:
    """Result of ``agreement_test``: one index tested against its null law.

    ``repr(res)`` is short, like scipy's results; ``print(res)`` (or ``res.summary()``) gives
    the test as R prints an ``htest``; ``to_frame()`` gives the one-row result in the
    package's one schema (``RESULT_COLUMNS``, the same names as these attributes).

    Parameters
    ----------
    statistic : float
        The observed value of the index.
    pvalue_detail : PValue
        The p-value as one object: what it is (exact, a Monte Carlo estimate, a bound at the
        Monte Carlo floor with the p-value beyond it, a tail probability), its figures and
        its texts (``clusteragree.inference.pvalues``); the attributes ``pvalue``,
        ``pvalue_se``, ... below are read from it.
    adjusted : dict
        Centre ("mean", "median") -> the index adjusted for chance, (I - c) / (max - c) (a
        distance: (c - I) / (c - min)); empty for an index with no fixed optimum.
    null : NullDistribution
        The null law.
    index : str
        The index's name.
    alternative : str
        "greater", "less" or "two-sided".
    data_name : str
        What was compared, for printing.
    zscore : float
        (statistic - null mean) / null sd (nan when the null has no variance).
    note : str, optional
        How the index was computed on this table, when that depends on the table.
    record : Index, optional
        The index's registry record (looked up from ``index`` when not given).
    clusterings : Clusterings, optional
        The clusterings tested (for ``confidence_interval``).
    options : dict, optional
        The index's options (for ``confidence_interval``).
    interval : ConfidenceInterval, optional
        A bootstrap confidence interval of the index (``compare`` makes one for each row;
        ``res.confidence_interval()`` makes one on request, ``agreement_test(interval=...)``
        with the test); its bounds and method fill the ``ci_low``, ``ci_high``,
        ``ci_method`` and ``ci_level`` columns of ``to_frame()``.

    Attributes
    ----------
    pvalue : float
        The p-value (nan when the null gives moments only, e.g. ``method="hypergeometric"``).
    pvalue_se : float
        The Monte Carlo standard error of the p-value (0 for an exact law; nan when no
        simulated value is as extreme, where ``pvalue_upper`` bounds it instead).
    n_extreme : int or None
        Monte Carlo laws: how many of the ``n_sim`` simulated values are at least as extreme
        as the statistic (None for an exact law or moments).
    pvalue_upper : float
        Monte Carlo laws: a one-sided 95% Clopper-Pearson upper bound on the p-value (nan
        otherwise); with ``n_extreme == 0`` the p-value is reported as below 1 / (B + 1).
    pvalue_beyond_floor : float
        Where the Monte Carlo p-value under "perm" is at its floor (``n_extreme`` 0): the
        p-value beyond the floor by the saddlepoint approximation where it answers, or, with
        ``NullSpec(beyond_floor=True)``, by importance sampling where it does not
        (``clusteragree.inference.beyond_floor``; ``beyond_floor_method`` says which); nan
        otherwise. 0.0 only below the smallest double: read ``log10_pvalue_beyond_floor``.
    pvalue_beyond_floor_se : float
        Its standard error (nan without it).
    log10_pvalue_beyond_floor : float
        Its log10, finite below the smallest double (nan without it).
    beyond_floor_method : str, optional
        What gave ``pvalue_beyond_floor``: "importance" (sampling) or "saddlepoint"
        (approximation); None without it.
    beyond_floor_note : str, optional
        Why a p-value at its floor has no estimate beyond it.
    beyond_floor_rse : float
        The estimate's relative standard error (nan without it, and for the saddlepoint).
    beyond_floor_check : str, optional
        Importance sampling's estimate of the same tail where it checked a saddlepoint p
        (``NullSpec(beyond_floor=True)``), in words.

    See Also
    --------
    agreement_test : Makes it.
    compare : Many indices as one frame of these rows.

    References
    ----------
    Hubert, L. & Arabie, P. (1985), "Comparing partitions", Journal of Classification 2.

    Examples
    --------
    >>> res = ca.agreement_test([[30, 20], [10, 20]], index="rand", method="exact")
    >>> res
    AgreementTest(index='rand', statistic=0.525316, pvalue=0.0368348, adjusted={'mean': 0.051241, 'median': 0.0601504}, model='perm', method='exact')
    >>> res.to_frame()[["statistic", "pvalue", "adjusted_mean"]].round(4)
           statistic  pvalue  adjusted_mean
    index                                  
    rand      0.5253  0.0368         0.0512
    """

    statistic: float
    pvalue_detail: PValue  # the p-value: what it is, its figures, its texts
    adjusted: dict  # center ("mean", "median") -> adjusted value
    null: NullDistribution
    index: str
    alternative: str
    data_name: str
    zscore: float  # nan when the null has no variance
    note: str | None = None  # how the index was computed on this table (``Index.describe``)
    record: Index | None = field(default=None, repr=False, compare=False)  # the index's record
    # the clusterings and the index's options, for ``confidence_interval``
    clusterings: object = field(default=None, repr=False, compare=False)
    options: dict = field(default_factory=dict, repr=False, compare=False)
    interval: ConfidenceInterval | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        if self.record is None:
            self.record = get_index(self.index)

    # -- the p-value, read from ``pvalue_detail`` ---------------------------------------------
    @property
    def pvalue(self) -> float:
        """The p-value (nan when the null gives moments only)."""
        return self.pvalue_detail.value

    @property
    def pvalue_se(self) -> float:
        """The standard error of the p-value (0 exact; nan at the Monte Carlo floor)."""
        return self.pvalue_detail.se

    @property
    def n_extreme(self) -> int | None:
        """Monte Carlo: the simulated values at least as extreme as the statistic."""
        return self.pvalue_detail.n_extreme

    @property
    def pvalue_upper(self) -> float:
        """Monte Carlo: the one-sided 95% Clopper-Pearson upper bound on the p-value."""
        return self.pvalue_detail.upper

    @property
    def _beyond(self) -> PValue:
        """The p-value beyond the floor, or an empty one (every figure nan)."""
        beyond = self.pvalue_detail.beyond
        return beyond if beyond is not None else _NO_TAIL

    @property
    def pvalue_beyond_floor(self) -> float:
        """The p-value beyond the Monte Carlo floor (nan without it)."""
        return self._beyond.value

    @property
    def pvalue_beyond_floor_se(self) -> float:
        """The standard error of the p-value beyond the floor (nan without it)."""
        return self._beyond.se

    @property
    def log10_pvalue_beyond_floor(self) -> float:
        """log10 of the p-value beyond the floor, finite below the smallest double."""
        return self._beyond.log10

    @property
    def beyond_floor_method(self) -> str | None:
        """What gave the p-value beyond the floor: "importance" or "saddlepoint"."""
        return self._beyond.method

    @property
    def beyond_floor_note(self) -> str | None:
        """Why a p-value at its floor has no estimate beyond it."""
        return self.pvalue_detail.note

    @property
    def beyond_floor_rse(self) -> float:
        """The relative standard error of the p-value beyond the floor (nan without it)."""
        return self._beyond.relative_se

    @property
    def beyond_floor_check(self) -> str | None:
        """Importance sampling's check of a saddlepoint p beyond the floor, in words."""
        return self._beyond.check

    @property
    def method(self) -> str:
        """The name of the null method (``res.null.method``).

        Returns
        -------
        str
            E.g. "exact", "patefield".
        """
        return self.null.method

    @property
    def model(self) -> str:
        """The name of the random model (``res.null.model``).

        Returns
        -------
        str
            E.g. "perm", "num1".
        """
        return self.null.model

    @property
    def test_group(self) -> str | None:
        """The statistic this index's test is a test of, when it is one test among several.

        Under a model that keeps both margins (``perm``), every similarity or distance that
        depends on the table only through sum n_ij^2 (the pair-counting family: Rand, ARI,
        Jaccard, Fowlkes-Mallows, ...) or sum n_ij log n_ij (the information indices with
        normalisers fixed by the margins: MI, NMI, AMI, VI, ...) is a monotone function of
        that statistic, so on the same null law their p-values are equal: one test in several
        guises. The group names the statistic, and its tail when that is not the tail of
        agreement ("lower tail", or "two-sided"); None outside such a group (another model, a
        law given by its moments only, an index of another kind).

        Returns
        -------
        str or None
            "sum n_ij^2", "sum n_ij log n_ij", with ", lower tail" or ", two-sided" appended
            when the alternative tests that tail; None when the test stands alone.

        Examples
        --------
        >>> res = ca.agreement_test([[30, 20], [10, 20]], index="jaccard", method="exact")
        >>> res.test_group
        'sum n_ij^2'
        >>> ca.agreement_test([[30, 20], [10, 20]], index="vi", method="exact").test_group
        'sum n_ij log n_ij'
        """
        rec, nd = self.record, self.null
        if (rec.monotone_in is None or not nd.has_law or not nd.std > 0
                or not nd.model_record.margins_fixed):
            return None
        name = STATISTIC_NAMES[rec.monotone_in]
        if self.alternative == "two-sided":
            return f"{name}, two-sided"
        agreeing = (self.alternative == "greater") == (rec.kind == "similarity")
        return name if agreeing else f"{name}, lower tail"

    def to_frame(self) -> pd.DataFrame:
        """The result as a one-row frame of the one schema.

        Returns
        -------
        ResultsFrame
            Indexed by the index name, with the columns ``RESULT_COLUMNS`` (pandas' nullable
            Float64 and Int64: what the method cannot give is NA).
        """
        return results_frame([self])

    def row(self) -> dict:
        """The result as a dict with the keys ``RESULT_COLUMNS``.

        Returns
        -------
        dict
            Column -> value (NA where the method gives nothing).
        """
        row = dict(self.null.summary())
        row.update(self.pvalue_detail.columns())

        def na(v):
            return pd.NA if v is None or (isinstance(v, float) and math.isnan(v)) else v

        ci = self.interval
        row.update(ci_low=pd.NA if ci is None else na(ci.low),
                   ci_high=pd.NA if ci is None else na(ci.high),
                   ci_closed=pd.NA if ci is None or math.isnan(ci.low) else ci.closed,
                   ci_method=pd.NA if ci is None else ci.method,
                   ci_level=pd.NA if ci is None else ci.confidence_level,
                   test_group=na(self.test_group))
        row.update(statistic=self.statistic, alternative=self.alternative,
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

    def confidence_interval(self, confidence_level=0.95, method="auto", n_resamples=9999,
                            seed=None):
        """A confidence interval for the index itself (not for its null).

        The objects are resampled with replacement: for a table index a multinomial draw of
        its cells, so 10,000 resamples are a few array operations. The arguments are the
        fields of ``IntervalSpec`` (``agreement_test(interval=...)`` takes them as one).

        Parameters
        ----------
        confidence_level : float, default 0.95
            The interval's confidence level.
        method : str, default "auto"
            "auto" (``confidence_interval``'s default method) or a method of
            ``clusteragree.intervals.METHODS`` ("BCa": Efron's bias-corrected and accelerated
            interval, "percentile", ...), in any case.
        n_resamples : int, default 9999
            Bootstrap resamples.
        seed : None, int, SeedSequence or Generator, optional
            The only source of randomness.

        Returns
        -------
        ConfidenceInterval
            ``low``, ``high``, ``confidence_level``, ``method``, the bootstrap distribution.

        See Also
        --------
        clusteragree.intervals.engine.confidence_interval : The same without a test.

        References
        ----------
        Efron, B. (1987), "Better bootstrap confidence intervals", Journal of the American
        Statistical Association 82.

        Examples
        --------
        >>> res = ca.agreement_test([[30, 20], [10, 20]], index="rand", method="exact")
        >>> ci = res.confidence_interval(method="BCa", n_resamples=2000, seed=1)
        >>> bool(ci.low < res.statistic < ci.high), ci.method
        (True, 'BCa')
        """
        spec = IntervalSpec(method=method, confidence_level=confidence_level,
                            n_resamples=n_resamples, seed=seed)
        if self.clusterings is None:
            raise ValueError("this test was not made by agreement_test, so its clusterings "
                             "are not known: use ca.confidence_interval(x, y, index=...)")
        nd = self.null  # "auto" inverts the test of independence: this test's, when it is
        law = nd if nd.model in INDEPENDENCE_MODELS and nd.has_law else None
        return interval_of(self.clusterings, self.record, self.options, spec, law=law)

    def summary(self) -> str:
        """The test as R prints an ``htest`` (``str(res)``).

        Returns
        -------
        str
            Data, index, observed value and null moments, p-value, alternative, null
            distribution and adjusted values.
        """
        return str(self)

    def sentence(self, digits: int = 2) -> str:
        """The test in one sentence to paste into a paper, APA style (as R's easystats
        ``report()`` writes one).

        It names the index by the short name papers give it (ARI, AMI, NMI, Rand, ...), its
        value and its interval (when the test carries one: ``agreement_test(interval=...)``),
        the test in words (its null model and method), p as APA writes it (p = .031, p <
        .001; a Monte Carlo p-value at its floor as its bound 1/(B + 1), with the p-value
        beyond the floor where there is one) and the objects compared (with the noise left
        out, when it was). It says "beyond chance" only when p < .05 in the index's
        direction of agreement; otherwise "no more than chance would give".

        Parameters
        ----------
        digits : int, default 2
            Decimals of the index and its interval (p-values: 3, APA's).

        Returns
        -------
        str
            One sentence, ending with a period; a part the test lacks is left out.

        See Also
        --------
        summary : The whole test, as R prints it.

        Examples
        --------
        >>> res = ca.agreement_test([[30, 20], [10, 20]], index="ari", method="exact")
        >>> res.sentence()
        'The two clusterings agreed beyond chance (ARI = 0.05; exact permutation test, p = .037; n = 80 objects).'
        """
        from .sentences import agreement_sentence

        return agreement_sentence(self, digits)

    def __str__(self) -> str:
        return rows_text(self.null.method_record.title, self._rows())

    def _rows(self) -> list[Row]:
        """The test's rows, printed (``__str__``) and tabulated (``_repr_html_``) from this one
        list: data, index, how it was computed, the observed value with the null's mean,
        median and z, the interval (printed), the p-value, the alternative, the null (printed;
        the table's caption) and the adjusted values."""
        nd, rec = self.null, self.record
        what = f"{rec.name} ({rec.title}), a {rec.kind}"
        rows = [Row("data", self.data_name, f"data:  {self.data_name}"),
                Row("index", what, f"index: {what}")]
        if self.note:
            rows.append(Row("computed", self.note, self.note))
        for label, value, joined in (("observed", self.statistic, False),
                                     ("null mean", nd.mean, True),
                                     *([("null median", nd.median, True)] if nd.has_law else [])):
            rows.append(Row(label, f"{value:.6g}", f"{label} = {value:.6g}", joined))
        if not math.isnan(self.zscore):
            z = self._z_text()
            rows.append(Row("z", z.removeprefix("= "), f"z {z}", joined=True))
        rows += [Row(None, "", line) for line in self._interval_lines()]
        rows += self.pvalue_detail.rows()  # the p-value and what stands beside it
        side = f"{rec.name} is {_SIDES[self.alternative]} its value by chance"
        rows += [Row("alternative", side, f"alternative hypothesis: {side}"),
                 Row(None, "", f"null distribution: {nd.describe()}")]
        how = "(I - c) / (max - c)" if rec.kind != "distance" else "(c - I) / (c - min)"
        for i, (center, value) in enumerate(self.adjusted.items()):
            line = f"{value:.4g} (c = null {center})"
            rows.append(Row(f"adjusted, c = null {center}", f"{value:.4g}  {how}",
                            line if i else f"adjusted {rec.name}, {how}: {line}", i > 0))
        if not self.adjusted:
            rows.append(Row(None, "", f"not adjusted: {rec.name} has no fixed optimum (use "
                                      "adjust(optimum=...))"))
        return rows

    def _interval_lines(self) -> list[str]:
        """The interval as R prints a test's, with its method (none without an interval)."""
        ci = self.interval
        if ci is None:
            return []
        how = (f"{ci.method} bootstrap, {ci.n_resamples:,} resamples" if ci.n_resamples
               else ci.method)
        head = f"{100 * ci.confidence_level:g} percent confidence interval ({how})"
        if ci.reason:
            lines = [f"{head}: no interval, {ci.reason}"]
        elif ci.closed == "both":
            lines = [f"{head}: {ci.low:.4g} {ci.high:.4g}"]
        else:  # an open bound (the independence value, cut off): R's words do not say
            lines = [f"{head}: {ci.bracketed()}"]
        return lines + ([f"  ({ci.note})"] if ci.note else [])

    def _z_text(self) -> str:
        """z as printed: "= 6.808" with the skewness caveat of a skewed law, or "> 50" with
        its reason where the Monte Carlo p-value is at its floor (``zscore_texts``)."""
        beyond = _z_beyond(self.zscore, self.pvalue_detail.kind == "bound")
        if beyond:
            return (f"{beyond} (beyond every simulated value, the p-value at its floor: how far "
                    "beyond adds nothing)")
        return f"= {self.zscore:.4g}{_z_caveat(self.null)}"

    def _repr_html_(self) -> str:
        """Jupyter: the same numbers as the printed test, as a table, and the null law with
        the observed value marked."""
        nd = self.null
        out = rows_html(nd.method_record.title, self._rows(), caption=f"null: {nd.describe()}")
        if nd.has_law:
            out += figure_html(nd.plot(self.statistic).figure)
        return out


class ResultsFrame(pd.DataFrame):
    """A DataFrame of results (``compare``, ``to_frame()``) that Jupyter shows with 4
    significant digits and the null named in its caption; in every other way a DataFrame.

    Parameters
    ----------
    data : array-like, dict or DataFrame, optional
        As ``pandas.DataFrame`` takes it.
    index : Index or array-like, optional
        The row labels.
    columns : Index or array-like, optional
        The column labels.
    dtype : dtype, optional
        One dtype for every column.
    copy : bool, optional
        Copy the data.

    See Also
    --------
    results_frame : Makes one from tests.
    format_results : The same frame as text.

    Examples
    --------
    >>> df = ca.compare([[30, 20], [10, 20]], indices=["rand"], method="exact")
    >>> isinstance(df, ResultsFrame), "null: both margins fixed" in df._repr_html_()
    (True, True)
    """

    @property
    def _constructor(self):
        return ResultsFrame

    def _pvalues_shown(self, na_rep) -> pd.DataFrame:
        """A plain copy whose p-value columns, adjusted ones too, are text to 3 significant
        digits (``pvalue_texts``: pandas would print 1e-62 as 0.0 beside 0.0368) and whose z is
        text (``zscore_texts``: starred beside a skewed law, "> 50" at the p floor)."""
        cols = [c for c in (*PVALUE_COLUMNS, "pvalue_adjusted", "zscore") if c in self.columns
                and pd.api.types.is_numeric_dtype(self[c])] if self.columns.is_unique else []
        if not cols:
            return pd.DataFrame(self)
        shown = pd.DataFrame(self).astype({c: object for c in cols})
        for c in cols:
            shown[c] = (zscore_texts(self, na_rep=na_rep) if c == "zscore"
                        else pvalue_texts(self, c, na_rep))
        return shown

    def to_string(self, *args, **kwargs) -> str | None:
        """The frame as text, as ``DataFrame.to_string`` (and so ``print``), with the
        p-values to 3 significant digits (``pvalue_texts``).

        Parameters
        ----------
        *args, **kwargs
            As ``pandas.DataFrame.to_string`` takes them.

        Returns
        -------
        str or None
            The text, or None when written to ``buf``.
        """
        return pd.DataFrame.to_string(self._pvalues_shown("<NA>"), *args, **kwargs)

    def _repr_html_(self) -> str:
        nulls = self.attrs.get("null") or sorted(
            {f"{m}, {k}" for m, k in zip(self.get("model", []), self.get("method", []))
             if not pd.isna(m)})
        # the caption says what the numbers are (data, null); the notes go under the table,
        # one per line, so that a long note wraps instead of widening the table
        caption = "; ".join([*([f"data: {self.attrs['data']}"] if self.attrs.get("data")
                               else []), *(f"null: {d}" for d in nulls)]) or None
        notes = []
        if self.attrs.get("interval") and "ci_low" in self.columns:
            notes.append(f"intervals: {self.attrs['interval']}")
        # how an index was computed (smi, rmi), the groups of one test, z's caveat
        notes += [*self.attrs.get("notes", []), *frame_notes(self)]
        out = table(self._pvalues_shown("NA"), caption).to_html()
        if notes:
            out += ("<p style='max-width: 50em; margin: 0.3em 0; font-size: 0.9em;'>"
                    + "<br>".join(html.escape(n) for n in notes) + "</p>")
        return out


def skewed_rows(frame: pd.DataFrame) -> pd.Series:
    """The rows whose null law is too skewed for a normal reading of z (|skewness| >= 0.5).

    Parameters
    ----------
    frame : DataFrame
        A frame of the result schema.

    Returns
    -------
    Series of bool
        True where z is shown only with its caveat.

    See Also
    --------
    frame_notes : The caveat in words.

    Examples
    --------
    >>> df = ca.compare([[12, 2], [3, 10]], indices=["rand"], method="exact")
    >>> skewed_rows(df).tolist()                        # skewness 2.67
    [True]
    """
    if "null_skewness" not in frame:
        return pd.Series(False, index=frame.index)
    return (frame["null_skewness"].astype("Float64").abs() >= SKEWED).fillna(False).astype(bool)


def frame_notes(frame: pd.DataFrame) -> list[str]:
    """What a reader of a results frame must be told beside it: which indices are one test
    (``test_group``), which z-scores stand beside a skewed null law, and why a z is printed
    as "> 50" (``zscore_texts``).

    Parameters
    ----------
    frame : DataFrame
        A frame of the result schema (``compare``).

    Returns
    -------
    list of str
        One sentence per group of one test, one on the number of distinct tests, one on a
        starred z, one on z printed as "> 50".

    See Also
    --------
    format_results : Prints them under the table.

    Examples
    --------
    >>> df = ca.compare([[12, 2], [3, 10]], indices=["rand", "jaccard", "vi"],
    ...                 method="exact", interval=None)
    >>> for note in frame_notes(df):
    ...     print(note)
    one test, of sum n_ij^2 given the margins: rand, jaccard
    2 distinct tests among 3 indices
    z*: the null law is skewed (|skewness| >= 0.5): read the p-value, not a normal tail of z
    """
    notes = []
    if "test_group" in frame and frame["test_group"].notna().any():
        groups = frame["test_group"].dropna()
        for group in dict.fromkeys(groups):
            members = groups.index[groups == group].tolist()
            if len(members) > 1:
                notes.append(f"one test, of {group} given the margins: {', '.join(members)}")
        n_tests = groups.nunique() + int(frame["test_group"].isna().sum())
        if n_tests < len(frame):
            notes.append(f"{n_tests} distinct test{'s' if n_tests > 1 else ''} among "
                         f"{len(frame)} indices")
    if "zscore" in frame:
        shown = zscore_texts(frame)
        if any(text.endswith("*") for text in shown):
            notes.append(f"z*: the null law is skewed (|skewness| >= {SKEWED:g}): read the "
                         "p-value, not a normal tail of z")
        if any(text.lstrip("<> -") == f"{Z_SHOWN:g}" for text in shown):
            notes.append(Z_BEYOND_NOTE)
    return notes


def results_frame(tests) -> pd.DataFrame:
    """The results of several tests as one frame of the schema.

    Parameters
    ----------
    tests : sequence of AgreementTest
        One row each, in this order.

    Returns
    -------
    ResultsFrame
        Indexed by the index names, with the columns ``RESULT_COLUMNS``: numeric columns as
        pandas' nullable Float64 / Int64, so NA stays NA (never nan).

    See Also
    --------
    AgreementTest.to_frame : One test.

    Examples
    --------
    >>> tests = [ca.agreement_test([[30, 20], [10, 20]], index=i, method="exact")
    ...          for i in ("rand", "jaccard")]
    >>> results_frame(tests)["pvalue"].round(4).tolist()
    [0.0368, 0.0368]
    """
    frame = ResultsFrame([t.row() for t in tests], columns=list(RESULT_COLUMNS),
                         index=pd.Index([t.index for t in tests], name="index"))
    types = {c: "Float64" for c in FLOAT_COLUMNS}
    types.update({c: "Int64" for c in INT_COLUMNS})
    frame = frame.astype(types)
    # the p-values that are bounds, for a frame of some of the columns (``pvalue_texts``)
    frame.attrs["pvalue_bound"] = {t.index: t.pvalue_detail.bound_reason for t in tests
                                   if t.pvalue_detail.bound_reason is not None}
    return frame




def format_results(frame: pd.DataFrame, columns=None, digits: int = 4) -> str:
    """A results frame as text, R-style.

    Numbers to ``digits`` significant digits, p-values to 3 (``pvalue_texts``: as R prints
    them, never a positive p as 0), NA where the method gives nothing, and the null named
    above the table.

    Parameters
    ----------
    frame : DataFrame
        A frame of the one schema (``compare``, ``to_frame()``).
    columns : list of str, optional
        The columns to show (default all).
    digits : int, default 4
        Significant digits of the numbers other than p-values.

    Returns
    -------
    str
        The table.

    See Also
    --------
    compare : Makes such frames.

    Examples
    --------
    >>> df = ca.compare([[30, 20], [10, 20]], indices=["rand", "jaccard"], method="exact")
    >>> print(format_results(df, ["statistic", "null_mean", "pvalue", "adjusted_mean"]))
    null: both margins fixed (permutation model); dynamic programme on s
            statistic null_mean  pvalue adjusted_mean
    index                                            
    rand       0.5253    0.4997  0.0368       0.05124
    jaccard    0.3644    0.3414  0.0368       0.03490
    one test, of sum n_ij^2 given the margins: rand, jaccard
    1 distinct test among 2 indices
    """
    cols = list(columns) if columns is not None else list(frame.columns)
    shown = frame[cols].astype(object).copy()
    for c in cols:
        if c in PVALUE_COLUMNS:  # 3 significant digits, a floor as "<1/(B+1)"
            shown[c] = pvalue_texts(frame, c)
        elif c == "zscore":  # starred beside a skewed law, "> 50" at the p floor (notes say)
            shown[c] = zscore_texts(frame, lambda v: f"{v:#.{digits}g}")
        elif c in FLOAT_COLUMNS:
            shown[c] = [("NA" if pd.isna(v) else f"{float(v):#.{digits}g}") for v in frame[c]]
        else:
            shown[c] = ["NA" if pd.isna(v) else v for v in frame[c]]
    head = [f"null: {d}" for d in frame.attrs.get("null", [])]
    if frame.attrs.get("interval") and {"ci_low", "ci_high"} & set(cols):
        head.append(f"intervals: {frame.attrs['interval']}")  # named by their method
    notes = frame_notes(frame[cols + [c for c in ("test_group", "null_skewness", "n_extreme")
                                      if c in frame and c not in cols]])
    if "zscore" not in cols:
        notes = [n for n in notes if not n.startswith("z*") and n != Z_BEYOND_NOTE]
    notes = [*frame.attrs.get("notes", []), *notes]  # how indices were computed, no interval
    with pd.option_context("display.max_rows", None, "display.width", 200):
        return "\n".join(head + [pd.DataFrame(shown).to_string()] + notes)
