"""A test's p-value as one object: what it is, made once from the null law, and its texts.

* ``PValue``: the p-value of one test, of one of five kinds: "exact" (an exact law),
  "estimate" (Monte Carlo, with its standard error and its count of simulated values as
  extreme), "bound" (Monte Carlo at its floor: p < 1/(B + 1), with the estimate beyond the
  floor or the note why there is none), "tail" (the saddlepoint approximation or importance
  sampling, known by its log10, with its standard error and method) and "none" (closed-form
  moments give no p-value). ``PValue.of`` makes it from the null law and the observed value;
  ``rows`` prints it (the printed test and its HTML table), ``columns`` gives its columns of
  ``RESULT_COLUMNS``, ``brief`` and ``brief_beyond`` write it in a report's table of tests
  (``from_row``: back from a frame's row).
* ``PValueSpec``: how a test reads its p-value (``plus_one``, ``beyond_floor``): settings of
  the test that ``NullSpec`` carries for the user and the null engine passes by.
* ``beyond_floor_text``: a p-value known by its log10, in words.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import pandas as pd

from .._display import Row, format_log_pvalue, format_pvalue
from .._validate import check_bool
from ..nulls import distribution  # its test_figures, not a name pytest would collect
from ..nulls.spec import TEST_SETTINGS

__all__ = ["PValue", "PValueSpec", "KINDS", "PVALUE_BOUND_LEVEL", "BEYOND_FLOOR_METHODS",
           "BEYOND_SHORT", "beyond_floor_text"]

#: The kinds of p-value, with what each is.
KINDS = {"exact": "an exact p-value, from the exact null law",
         "estimate": "a Monte Carlo estimate, with its standard error and count of extremes",
         "bound": "a Monte Carlo p-value at its floor: p < 1/(B + 1), no simulated value as "
                  "extreme",
         "tail": "a tail probability by the saddlepoint approximation or importance sampling, "
                 "known by its log10",
         "none": "no p-value: closed-form moments give none"}

#: The confidence level of ``pvalue_upper``, the one-sided bound on a Monte Carlo p-value.
PVALUE_BOUND_LEVEL = 0.95

#: How each method of ``beyond_floor_method`` is named in text.
BEYOND_FLOOR_METHODS = {"importance": "importance sampling",
                        "saddlepoint": "saddlepoint approximation"}

#: How a table names the method of a p-value beyond the Monte Carlo floor, briefly.
BEYOND_SHORT = {"importance": "IS", "saddlepoint": "saddlepoint"}

#: The text of a test whose null gives moments only.
NO_PVALUE = "p-value: not available from closed-form moments (use a method that gives the law)"


def _na(v):
    """A value of the frame: NA for None and nan."""
    return pd.NA if v is None or (isinstance(v, float) and math.isnan(v)) else v


def _float(v) -> float:
    """A frame's value as a float (nan for NA)."""
    return math.nan if v is None or pd.isna(v) else float(v)


def _how(method: str, relative_se: float) -> str:
    """What gave a p-value beyond the floor, in words, with its relative standard error."""
    how = BEYOND_FLOOR_METHODS.get(method, method)
    if not math.isnan(relative_se):
        how += f", relative s.e. {format_pvalue(100 * relative_se, 2)}%"
    return how


def beyond_floor_text(log10_p: float, relative_se: float, method: str = "importance") -> str:
    """A p-value beyond the Monte Carlo floor in words, 3 significant digits.

    "≈ 3.2e-41 (importance sampling, relative s.e. 4%)" or "≈ 3.2e-41 (saddlepoint
    approximation)"; below 1e-300 "< 1e-300 (log10 p = -1234.5; ...)", never 0.

    Parameters
    ----------
    log10_p : float
        log10 of the p-value (``log10_pvalue_beyond_floor``).
    relative_se : float
        Its standard error over the p-value (nan for an approximation without one).
    method : {"importance", "saddlepoint"}, default "importance"
        What gave it (``beyond_floor_method``).

    Returns
    -------
    str
        The text.

    See Also
    --------
    PValue.text : The same for any p-value.

    Examples
    --------
    >>> beyond_floor_text(-40.49, 0.04)
    '≈ 3.24e-41 (importance sampling, relative s.e. 4%)'
    >>> beyond_floor_text(-1234.5, float("nan"), "saddlepoint")
    '< 1e-300 (log10 p = -1234.5; saddlepoint approximation)'
    """
    return format_log_pvalue(log10_p, _how(method, relative_se))


@dataclass(frozen=True)
class PValueSpec:
    """How a test reads its p-value off its null law: settings of the test, not of the law.

    ``NullSpec`` carries them for the user (``NullSpec(plus_one=False)``,
    ``NullSpec(beyond_floor=True)``); the null engine passes them by, and ``agreement_test``
    and ``compare`` read them here (``PValueSpec.of``).

    Parameters
    ----------
    plus_one : bool, default True
        The Monte Carlo p-value: (1 + #{T >= t}) / (B + 1) (True; never 0) or the thesis'
        share #{T >= t} / B (False). Exact laws give P(T >= t) either way.
    beyond_floor : bool, optional
        Where a Monte Carlo p-value under "perm" is at its floor, a p-value beyond it: None
        (default) the saddlepoint approximation where it answers; True importance sampling
        too (its check, or in its place where it is refused); False neither
        (``clusteragree.inference.beyond_floor``).

    See Also
    --------
    clusteragree.nulls.NullSpec : Carries these settings with the null's.
    PValue : The p-value they read.

    Examples
    --------
    >>> spec = PValueSpec.of(ca.NullSpec(method="patefield", beyond_floor=True))
    >>> spec, spec.saddlepoint, spec.importance
    (PValueSpec(plus_one=True, beyond_floor=True), True, True)
    """

    plus_one: bool = True
    beyond_floor: bool | None = None

    def __post_init__(self):
        check_bool(self.plus_one, "plus_one")
        if self.beyond_floor is not None:
            check_bool(self.beyond_floor, "beyond_floor")

    @classmethod
    def of(cls, spec) -> PValueSpec:
        """The settings of a call's p-values, from its ``NullSpec``.

        Parameters
        ----------
        spec : NullSpec
            The call's spec (its ``TEST_SETTINGS``: ``plus_one`` and ``beyond_floor``).

        Returns
        -------
        PValueSpec
            The two settings.
        """
        return cls(**{name: getattr(spec, name) for name in TEST_SETTINGS})

    @property
    def saddlepoint(self) -> bool:
        """Whether a p-value beyond the floor is asked for (``beyond_floor`` None or True)."""
        return self.beyond_floor is not False

    @property
    def importance(self) -> bool:
        """Whether importance sampling is asked for too (``beyond_floor=True``)."""
        return self.beyond_floor is True


@dataclass(frozen=True)
class PValue:
    """The p-value of a test: what it is (``kind``), its figures, and its texts.

    Made in one place, ``PValue.of`` (the null law and the observed value); a Monte Carlo
    p-value at its floor takes its estimate beyond the floor, or the note why there is none,
    with ``beyond_floor`` (``clusteragree.inference.beyond_floor``). ``AgreementTest`` reads
    its ``pvalue``, ``pvalue_se``, ... from it, prints it (``rows``) and tabulates it
    (``columns``) from it, so that the printed test and the frame cannot disagree.

    Parameters
    ----------
    kind : {"exact", "estimate", "bound", "tail", "none"}
        What the p-value is (``KINDS``).
    value : float, default nan
        The p-value (a "bound": the floor 1/(B + 1), or 0 with ``plus_one=False``; a "tail":
        0.0 below the smallest double, where ``log10`` is finite).
    se : float, default nan
        Its standard error: 0 for an exact p-value, the Monte Carlo or the importance
        sampling one; nan for a bound and an approximation without one.
    method : str, optional
        The method that gave it ("exact", "patefield", "saddlepoint", "importance", ...).
    n_extreme : int, optional
        Monte Carlo: the simulated values at least as extreme as the observed one.
    n_sim : int, optional
        Monte Carlo: the simulated values.
    upper : float, default nan
        Monte Carlo: the one-sided ``PVALUE_BOUND_LEVEL`` Clopper-Pearson bound on p.
    log10 : float, default nan
        A "tail": log10 of the p-value, finite below the smallest double.
    relative_se : float, default nan
        A "tail": its standard error over the p-value (nan for an approximation without one).
    how : str, default ""
        A "tail": what gave it, in words ("saddlepoint approximation").
    beyond : PValue, optional
        A "bound": the p-value beyond the floor, a "tail".
    note : str, optional
        A "bound": why it has no p-value beyond the floor.
    check : str, optional
        A "tail" beyond the floor: importance sampling's check of a saddlepoint p, in words.

    See Also
    --------
    clusteragree.inference.results.AgreementTest : The test that holds it.
    PValueSpec : How a test reads it.

    Examples
    --------
    >>> nd = ca.nulls.null_distribution([[30, 20], [10, 20]], index="rand", method="exact")
    >>> p = PValue.of(nd, 0.5253)
    >>> p.kind, round(p.value, 4), p.text()
    ('exact', 0.0368, '= 0.0368')
    >>> nd = ca.nulls.null_distribution([[15, 1, 0], [1, 14, 1], [0, 1, 15]], index="rand",
    ...                                 method="patefield", n_sim=999, seed=1)
    >>> p = PValue.of(nd, 0.9)
    >>> p.kind, p.value, p.n_extreme
    ('bound', 0.001, 0)
    >>> print(p.text())
    < 0.001 (0 of 999 simulated values as extreme; one-sided 95% upper bound 0.00299)
    """

    kind: str
    value: float = math.nan
    se: float = math.nan
    method: str | None = None
    n_extreme: int | None = None
    n_sim: int | None = None
    upper: float = math.nan
    log10: float = math.nan
    relative_se: float = math.nan
    how: str = ""
    beyond: PValue | None = None
    note: str | None = None
    check: str | None = None

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind must be one of {list(KINDS)}, got {self.kind!r}")

    # -- made ----------------------------------------------------------------------------------
    @classmethod
    def of(cls, nd, observed: float, alternative: str = "greater", plus_one: bool = True,
           figures: dict | None = None) -> PValue:
        """The p-value of an observed value under a null law: the one place it is made.

        Parameters
        ----------
        nd : NullDistribution
            The null law.
        observed : float
            The observed value of the index.
        alternative : {"greater", "less", "two-sided"}, default "greater"
            The tail (checked by the caller).
        plus_one : bool, default True
            The Monte Carlo p-value (1 + k) / (B + 1), or k / B (``PValueSpec``).
        figures : dict, optional
            ``test_figures(nd, observed, alternative, plus_one, PVALUE_BOUND_LEVEL)`` when
            the caller made them already (a test: with z and the adjusted values, the tail
            counted once).

        Returns
        -------
        PValue
            Of kind "exact", "estimate", "bound", "tail" or "none".
        """
        if figures is None:
            figures = distribution.test_figures(nd, observed, alternative, plus_one,
                                                PVALUE_BOUND_LEVEL)
        p, se, k = figures["pvalue"], figures["pvalue_se"], figures["n_extreme"]
        upper = math.nan if figures["pvalue_upper"] is None else figures["pvalue_upper"]
        if math.isnan(p):
            return cls("none", p, se, nd.method, n_sim=nd.n_sim)
        if nd.has_tail:  # estimated tail probabilities, in logs: never 0
            return cls("tail", p, se, nd.method, n_sim=nd.n_sim,
                       log10=nd.log_pvalue(observed, alternative) / math.log(10),
                       relative_se=se / p if p > 0 else math.nan,
                       how=nd.pvalue_words(observed, alternative))
        if not nd.is_sampled:
            return cls("exact", p, se, nd.method)
        if k == 0:  # the estimate is a floor: its s.e. would be as large as it
            return cls("bound", p, math.nan, nd.method, k, nd.n_sim, upper)
        return cls("estimate", p, se, nd.method, k, nd.n_sim, upper)

    @classmethod
    def tail_of(cls, log_p: float, relative_se: float, method: str,
                check: str | None = None) -> PValue:
        """A tail probability known by its natural logarithm, as a p-value beyond the floor.

        Parameters
        ----------
        log_p : float
            The natural logarithm of the p-value (a two-sided test's already doubled).
        relative_se : float
            Its standard error over the p-value (nan for the saddlepoint approximation).
        method : {"saddlepoint", "importance"}
            What gave it.
        check : str, optional
            Importance sampling's check of a saddlepoint p, in words.

        Returns
        -------
        PValue
            Of kind "tail".
        """
        p = math.exp(log_p) if log_p > -math.inf else 0.0
        return cls("tail", p, p * relative_se if not math.isnan(relative_se) else math.nan,
                   method, log10=log_p / math.log(10.0), relative_se=relative_se,
                   how=_how(method, relative_se), check=check)

    def beyond_floor(self, estimate: PValue | None = None, note: str | None = None) -> PValue:
        """This p-value at its floor with the p-value beyond it, or the note why there is none.

        Parameters
        ----------
        estimate : PValue, optional
            The p-value beyond the floor (``tail_of``).
        note : str, optional
            Why there is none.

        Returns
        -------
        PValue
            A copy with ``beyond`` and ``note``.
        """
        if self.kind != "bound":
            raise ValueError(f"only a p-value at its floor has one beyond it, not {self.kind!r}")
        return replace(self, beyond=estimate, note=note)

    @classmethod
    def from_row(cls, row) -> PValue:
        """The p-value of a row of a results frame (``RESULT_COLUMNS``), for its tables.

        Parameters
        ----------
        row : mapping
            Column -> value: ``pvalue``, and where the frame has them ``pvalue_se``,
            ``n_extreme``, ``n_sim``, ``pvalue_upper``, ``method`` and the columns of the
            p-value beyond the floor.

        Returns
        -------
        PValue
            Its kind read off the columns (a "tail" by its method, without its log10), with
            the p-value beyond the floor of its columns.
        """
        def get(column):
            return row[column] if column in row else None

        value, k = _float(get("pvalue")), get("n_extreme")
        k = None if k is None or pd.isna(k) else int(k)
        b = get("n_sim")
        b = None if b is None or pd.isna(b) else int(b)
        method = get("method")
        method = None if method is None or pd.isna(method) else method
        log10 = get("log10_pvalue_beyond_floor")
        beyond = None
        if log10 is not None and not pd.isna(log10):
            bf = get("beyond_floor_method")
            beyond = cls("tail", _float(get("pvalue_beyond_floor")),
                         _float(get("pvalue_beyond_floor_se")),
                         None if bf is None or pd.isna(bf) else bf, log10=float(log10))
        kind = ("none" if math.isnan(value) else "tail" if k is None and method in BEYOND_SHORT
                else "exact" if k is None else "bound" if k == 0 else "estimate")
        return cls(kind, value, _float(get("pvalue_se")), method, k, b,
                   _float(get("pvalue_upper")), beyond=beyond)

    # -- read ----------------------------------------------------------------------------------
    @property
    def bound_reason(self) -> str | None:
        """Why the frame prints this p-value as a bound: "floor" (a Monte Carlo floor),
        "underflow" (0.0 with no error: below the smallest double), or None."""
        if self.n_extreme == 0:
            return "floor"
        if self.value == 0 and self.se == 0:
            return "underflow"
        return None

    # -- shown ---------------------------------------------------------------------------------
    def text(self) -> str:
        """The p-value in words, to 3 significant digits, as the printed test says it.

        Returns
        -------
        str
            "= 0.0368" (exact); "= 0.0368 (Monte Carlo s.e. 0.0059; 37 of 999 simulated
            values as extreme)"; at the floor "< 0.001 (0 of 999 simulated values as extreme;
            one-sided 95% upper bound 0.00299)", never a standard error as large as the
            estimate; "≈ 1.95e-15 (saddlepoint approximation)" (a tail); "< 1e-300" for an
            exact p below the doubles, never 0; "" for "none".
        """
        p = self.value
        if self.kind == "none":
            return ""
        if self.kind == "tail":
            how = self.how + (f"; {self.check}" if self.check else "")
            return format_log_pvalue(self.log10, how)
        if self.kind == "exact":  # an exact p is never 0: below the floats, it underflows
            return "< 1e-300" if p < 1e-300 else f"= {format_pvalue(p)}"
        B, k = self.n_sim, self.n_extreme
        if self.kind == "bound":
            return (f"< {format_pvalue(1 / (B + 1))} (0 of {B:,} simulated values as extreme; "
                    f"one-sided {PVALUE_BOUND_LEVEL:.0%} upper bound "
                    f"{format_pvalue(self.upper)})")
        return (f"= {format_pvalue(p)} (Monte Carlo s.e. {format_pvalue(self.se, 2)}; "
                f"{k:,} of {B:,} simulated values as extreme)")

    def rows(self) -> list[Row]:
        """The p-value's rows of the printed test and of its HTML table.

        Returns
        -------
        list of Row
            The p-value, and at its floor the p-value beyond it or the note why there is
            none; for "none" the line that says why there is no p-value.
        """
        if self.kind == "none":
            return [Row(None, "", NO_PVALUE)]
        p = self.text()
        rows = [Row("p-value", p.removeprefix("= "), f"p-value {p}")]
        beyond = self.beyond
        if beyond is not None and not math.isnan(beyond.log10):
            text = beyond.text()
            rows.append(Row("beyond the floor", f"p {text}", f"beyond the floor: p {text}"))
        elif self.note:
            rows.append(Row(None, "", self.note))
        return rows

    def columns(self) -> dict:
        """The p-value's columns of ``RESULT_COLUMNS`` (NA where it has none).

        Returns
        -------
        dict
            ``pvalue``, ``pvalue_se``, ``n_extreme``, ``pvalue_upper``,
            ``pvalue_beyond_floor``, ``pvalue_beyond_floor_se``,
            ``log10_pvalue_beyond_floor`` and ``beyond_floor_method``.
        """
        b = self.beyond if self.beyond is not None else PValue("tail")
        return {"pvalue": _na(self.value), "pvalue_se": _na(self.se),
                "n_extreme": _na(self.n_extreme), "pvalue_upper": _na(self.upper),
                "pvalue_beyond_floor": _na(b.value), "pvalue_beyond_floor_se": _na(b.se),
                "log10_pvalue_beyond_floor": _na(b.log10),
                "beyond_floor_method": b.method or pd.NA}

    def brief(self) -> str:
        """The p-value in a report's table of tests, to 3 significant digits.

        Returns
        -------
        str
            "0.0368", with the count of a Monte Carlo p-value, "0.0368 (37 of 999)", or at
            its floor "< 0.001 (0 of 999)"; "NA" for "none".
        """
        if self.kind == "none":
            return "NA"
        if self.n_extreme is None:
            return format_pvalue(self.value)
        if self.n_extreme == 0:
            return f"< {format_pvalue(self.value)} (0 of {self.n_sim:,})"
        return f"{format_pvalue(self.value)} ({self.n_extreme:,} of {self.n_sim:,})"

    def brief_beyond(self) -> str:
        """The p-value beyond the floor in a report's table of tests, to 2 significant digits.

        Returns
        -------
        str
            "≈ 2.4e-64 (IS, s.e. 29%)" (importance sampling), "≈ 2e-15 (saddlepoint)", or
            "< 1e-300 (log10 p = -1234.5, IS)"; "" where there is none.
        """
        b = self.beyond
        if b is None or math.isnan(b.log10):
            return ""
        how = BEYOND_SHORT.get(b.method, str(b.method))
        rse = b.se / b.value if not math.isnan(b.se) and b.value and b.value > 0 else None
        if b.log10 >= -300 and rse is not None:
            how += f", s.e. {100 * rse:.2g}%"
        return format_log_pvalue(b.log10, how, digits=2, sep=", ")
