"""The result of ``difference_test``: ``DifferenceTest``, printed like R's ``htest``, shown in
Jupyter as a table, and one row of ``DIFFERENCE_COLUMNS``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._display import Row, format_pvalue, rows_html, rows_text, significant
from ..indices import Index, get_index
from ..intervals import ConfidenceInterval
from .results import ResultsFrame

__all__ = ["DifferenceTest", "DIFFERENCE_COLUMNS", "TITLE"]

#: The one-row frame of a result (``DifferenceTest.to_frame``), the result schema's names where
#: the meaning is the same.
DIFFERENCE_COLUMNS = ("statistic", "agreement_a", "agreement_b", "standard_error", "ci_low",
                      "ci_high", "ci_level", "ci_method", "pvalue", "alternative", "method",
                      "n_objects", "index", "note")
_FLOATS = ("statistic", "agreement_a", "agreement_b", "standard_error", "ci_low", "ci_high",
           "ci_level", "pvalue")
_SIDES = {"two-sided": "not equal to", "greater": "greater than", "less": "less than"}
TITLE = "Paired comparison of two agreements with one reference"


@dataclass(repr=False)
class DifferenceTest:
    """Result of ``difference_test``: Delta = I(reference, a) - I(reference, b), tested.

    ``print(res)`` gives the test as R prints an ``htest``; ``to_frame()`` one row of
    ``DIFFERENCE_COLUMNS``; Jupyter shows the same numbers as a table.

    Parameters
    ----------
    statistic : float
        Delta = agreement_a - agreement_b.
    agreement_a, agreement_b : float
        The index of (reference, a) and of (reference, b).
    standard_error : float
        The standard error of Delta (jackknife, or the bootstrap's standard deviation); nan
        with the reason in ``note`` when there is none.
    pvalue : float
        The p-value of Delta = 0 against ``alternative`` (nan with the reason in ``note``).
    estimate : float
        The jackknife's bias-corrected Delta (the mean of its pseudovalues), the centre of its
        interval and the numerator of t; Delta itself for the bootstrap.
    low, high : float
        The confidence interval (an infinite bound for a one-sided alternative, as R gives).
    confidence_level : float
        Its nominal coverage (nan when no interval was asked for).
    alternative : str
        "two-sided", "greater" (Delta > 0) or "less" (Delta < 0).
    method : str
        "jackknife", "corrected" or "bootstrap".
    index : str
        The index's registry name.
    n_objects : int
        The number of objects.
    data_name : str, default ""
        The three labellings in words, for printing.
    note : str, default ""
        What a reader must be told (near independence; no spread; a identical to b), or "".
    tstat : float, default nan
        The jackknife's t = estimate / standard_error.
    df : float, default nan
        Its degrees of freedom, n - 1.
    n_resamples : int, default 0
        The bootstrap's resamples (0 for the jackknife).
    record : Index, optional
        The index's record (looked up from ``index`` when not given).
    bootstrap_distribution : numpy.ndarray, optional
        Delta on each bootstrap resample (empty for the jackknife).

    See Also
    --------
    difference_test : Makes it.

    Examples
    --------
    >>> ref = np.repeat([0, 1, 2], 20)
    >>> a, b = ref.copy(), ref.copy()
    >>> a[::10], b[::4] = 0, 0                   # a errs on 4 objects, b on 10
    >>> res = ca.difference_test(ref, a, b, index="rand")
    >>> round(res.statistic, 4), res.method, res.to_frame().shape
    (0.1237, 'corrected', (1, 14))
    """

    statistic: float
    agreement_a: float
    agreement_b: float
    standard_error: float
    pvalue: float
    estimate: float
    low: float
    high: float
    confidence_level: float
    alternative: str
    method: str
    index: str
    n_objects: int
    data_name: str = ""
    note: str = ""
    tstat: float = math.nan
    df: float = math.nan
    n_resamples: int = 0
    record: Index | None = field(default=None, compare=False)
    bootstrap_distribution: np.ndarray = field(default_factory=lambda: np.empty(0),
                                               compare=False)

    def __post_init__(self):
        if self.record is None:
            self.record = get_index(self.index)

    @property
    def ci_method(self) -> str:
        """What made the interval: "jackknife t", "percentile bootstrap" or "" (none)."""
        if math.isnan(self.confidence_level):
            return ""
        return {"jackknife": "jackknife t", "corrected": "corrected jackknife t"}.get(
            self.method, "percentile bootstrap")

    def confidence_interval(self) -> ConfidenceInterval:
        """The confidence interval of Delta (unpacks as ``low, high``).

        Returns
        -------
        ConfidenceInterval
            Its ``index`` names the index, ``statistic`` is Delta.
        """
        reason = self.note if math.isnan(self.low) else ""
        return ConfidenceInterval(
            index=self.index, statistic=self.statistic, low=self.low, high=self.high,
            confidence_level=self.confidence_level, method=self.ci_method,
            n_resamples=self.n_resamples, standard_error=self.standard_error,
            bootstrap_distribution=self.bootstrap_distribution,
            reason=reason, note=self.note)

    def row(self) -> dict:
        """The result as a dict with the keys ``DIFFERENCE_COLUMNS``.

        Returns
        -------
        dict
            Column -> value (NA where there is none).
        """
        def na(v):
            return pd.NA if v is None or (isinstance(v, float) and math.isnan(v)) else v

        return {"statistic": self.statistic, "agreement_a": self.agreement_a,
                "agreement_b": self.agreement_b, "standard_error": na(self.standard_error),
                "ci_low": na(self.low), "ci_high": na(self.high),
                "ci_level": na(self.confidence_level), "ci_method": self.ci_method or pd.NA,
                "pvalue": na(self.pvalue), "alternative": self.alternative,
                "method": self.method, "n_objects": self.n_objects, "index": self.index,
                "note": self.note}

    def to_frame(self) -> pd.DataFrame:
        """The result as a one-row frame.

        Returns
        -------
        ResultsFrame
            The columns ``DIFFERENCE_COLUMNS``; numbers as pandas' nullable Float64 (NA
            where there is none).
        """
        frame = ResultsFrame([self.row()], columns=list(DIFFERENCE_COLUMNS))
        frame = frame.astype({c: "Float64" for c in _FLOATS} | {"n_objects": "Int64"})
        if self.pvalue == 0:  # t's tail below the floats: printed "<1e-300", not 0
            frame.attrs["pvalue_bound"] = {frame.index[0]: "underflow"}
        return frame

    def __repr__(self) -> str:
        return (f"DifferenceTest(index={self.index!r}, statistic={self.statistic:.6g}, "
                f"standard_error={self.standard_error:.6g}, pvalue={self.pvalue:.6g}, "
                f"method={self.method!r})")

    def _direction(self) -> str:
        rec = self.record
        if rec.higher_is_better:
            return "a agrees better with the reference than b where the difference is > 0"
        return (f"a agrees better with the reference than b where the difference is < 0 "
                f"({rec.name} is a {rec.kind}: less is closer)")

    def _alternative(self) -> str:
        text = f"true difference in {self.index} is {_SIDES[self.alternative]} 0"
        if self.alternative == "two-sided":
            return text
        better = (self.alternative == "greater") == self.record.higher_is_better
        return f"{text} ({'a' if better else 'b'} agrees better)"

    def _how(self) -> str:
        if self.method == "jackknife":
            return "jackknife, one object left out at a time"
        if self.method == "corrected":
            return "jackknife, its variance corrected by the tables with two objects left out"
        return f"paired bootstrap of the objects, {self.n_resamples:,} resamples"

    def _pvalue_text(self) -> str:
        """"= p" to 3 significant digits; an underflow of t's tail as "< 1e-300"; the
        bootstrap's floor 1 / (B + 1) (no resample on the other side of 0) as "<"."""
        if self.pvalue == 0:
            return "< 1e-300"
        if self.method == "bootstrap" and self.pvalue * (self.n_resamples + 1) <= 1 + 1e-9:
            return (f"< {format_pvalue(1 / self.n_resamples)} (no resample on the other "
                    "side of 0)")
        return f"= {format_pvalue(self.pvalue)}"

    def _interval_text(self) -> str:
        if math.isnan(self.confidence_level):
            return ""
        if math.isnan(self.low):
            return "NA"
        return f"{significant(self.low)} {significant(self.high)}"

    def __str__(self) -> str:
        return rows_text(TITLE, self._rows())

    def _rows(self) -> list[Row]:
        """The test's rows, printed (``__str__``) and tabulated (``_repr_html_``) from this one
        list: data, index and its direction, the two agreements, the difference with its
        standard error, t and the p-value, the alternative, the interval, the bias-corrected
        difference (printed) and the note."""
        rec = self.record
        what, direction = f"{rec.name} ({rec.title}), a {rec.kind}", self._direction()
        se = f"{significant(self.standard_error)} ({self._how()})"
        rows = [Row("data", self.data_name, f"data:  {self.data_name}"),
                Row("index", what, f"index: {what}"),
                Row("direction", direction, f"reading: {direction}"),
                Row("agreement of a", significant(self.agreement_a),
                    f"agreement with the reference: a = {self.agreement_a:.6g}"),
                Row("agreement of b", significant(self.agreement_b),
                    f"b = {self.agreement_b:.6g}", joined=True),
                Row("difference (a - b)", significant(self.statistic),
                    f"difference (a - b) = {self.statistic:.6g}"),
                Row("standard error", se, f"standard error = {se}", joined=True)]
        p = self._pvalue_text()
        t_line = self.method != "bootstrap" and not math.isnan(self.tstat)
        if not math.isnan(self.tstat):
            rows.append(Row("t, df", f"{self.tstat:.4g}, {self.df:g}",
                            f"t = {self.tstat:.4g}, df = {self.df:g}, p-value {p}"
                            if t_line else None))
        rows.append(Row("p-value", p.removeprefix("= "),
                        None if t_line
                        else f"p-value {p} (the percentile interval inverted)"
                        if not math.isnan(self.pvalue) else "p-value: NA"))
        rows.append(Row("alternative", self._alternative(),
                        f"alternative hypothesis: {self._alternative()}"))
        if not math.isnan(self.confidence_level):
            level = f"{100 * self.confidence_level:g}"
            rows.append(Row(f"{level}% interval ({self.ci_method})", self._interval_text(),
                            f"{level} percent confidence interval ({self.ci_method}):\n"
                            f" {self._interval_text()}"))
        if self.method != "bootstrap" and not math.isnan(self.estimate):
            rows.append(Row(None, "", "bias-corrected difference (jackknife) = "
                                      f"{self.estimate:.6g}"))
        if self.note:
            rows.append(Row("note", self.note, f"note: {self.note}"))
        return rows

    def summary(self) -> str:
        """The test as R prints an ``htest`` (``str(res)``).

        Returns
        -------
        str
            Data, index and its direction, the two agreements, the difference with its
            standard error, t and p-value, the alternative, the interval and the note.
        """
        return str(self)

    def sentence(self, digits: int = 2) -> str:
        """The test in one sentence to paste into a paper, APA style.

        It names which clustering agreed better with the reference (only when p < .05), the
        difference of the index (ΔARI, ...) with its interval, the test (the paired
        jackknife's t with its degrees of freedom, or the paired bootstrap), p as APA writes
        it and the number of objects.

        Parameters
        ----------
        digits : int, default 2
            Decimals of the difference, its interval and t (p-values: 3, APA's).

        Returns
        -------
        str
            One sentence, ending with a period; a part the test lacks is left out.

        See Also
        --------
        summary : The whole test, as R prints it.

        Examples
        --------
        >>> ref = np.repeat([0, 1, 2], 20)
        >>> a, b = ref.copy(), ref.copy()
        >>> a[::10], b[::3] = 0, 0                   # a errs on 4 objects, b on 13
        >>> print(ca.difference_test(ref, a, b, index="ari").sentence())
        a agreed with the reference better than b (ΔARI = 0.38, 95% CI [0.08, 0.69]; corrected paired jackknife t(59) = 2.55, p = .013; n = 60 objects).
        """
        from .sentences import difference_sentence

        return difference_sentence(self, digits)

    def _repr_html_(self) -> str:
        """Jupyter: the printed test's numbers as a table."""
        return rows_html(TITLE, self._rows())
