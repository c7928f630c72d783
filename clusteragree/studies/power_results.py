"""The result of ``power`` and ``sample_size``: ``PowerCalculation``, printed as R prints a
``power.htest``, shown in Jupyter as a table, one sentence, a frame and a plot of the power
against n.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd

from .._display import Row, apa_number, figure_html, rows_html, significant
from ..indices import abbreviation, get_index
from .populations import Population

__all__ = ["POWER_COLUMNS", "PowerCalculation"]

#: The columns of ``PowerCalculation.to_frame()`` and of its ``curve``.
POWER_COLUMNS = ("n", "effect", "power", "power_se", "method", "n_sim", "alpha", "alternative",
                 "index", "test")

_TESTS = {"independence": "permutation test of independence",
          "difference": "paired jackknife test of the difference of two agreements"}


@dataclass(repr=False)
class PowerCalculation:
    """Result of ``power`` and ``sample_size``: the power of one of the package's tests at n
    objects, as R's ``power.htest``.

    Parameters
    ----------
    n : int
        The number of objects (solved by ``sample_size``).
    power : float
        The power at n (the achieved power for ``sample_size``).
    index : str
        The index's registry name.
    test : str
        "independence" (``agreement_test``) or "difference" (``difference_test``).
    effect : float
        The population's effect: its index value less the value at independence, or the
        difference I(reference, a) - I(reference, b).
    alpha : float
        The level of the test.
    alternative : str
        The test's alternative.
    method : str
        "analytic" or "simulation" (of the test itself).
    population : Population
        The population the objects are drawn from.
    power_se : float, default nan
        The Monte Carlo standard error of a simulated power, sqrt(p (1 - p) / R).
    n_sim : int, optional
        The simulated studies R (None for the analytic power).
    note : str, default ""
        What a reader must be told: how the power was computed, the check by simulation.
    target : float, optional
        ``sample_size``'s target power.
    width : float, optional
        ``sample_size``'s target interval width (the expected width at n in ``achieved``).
    achieved : float, optional
        The expected interval width at n, for a target width.
    level : float, default 0.95
        The interval's level, for a target width.
    curve : DataFrame, optional
        One row per n (and effect) computed: ``POWER_COLUMNS``.

    See Also
    --------
    power : The power at n.
    sample_size : The n for a power or an interval width.

    Examples
    --------
    >>> pop = ca.relabel_population([0.5, 0.5], 0.6)
    >>> res = ca.power(pop, n=60)
    >>> res.method, round(res.power, 2)
    ('analytic', 0.81)
    """

    n: int
    power: float
    index: str
    test: str
    effect: float
    alpha: float
    alternative: str
    method: str
    population: Population
    power_se: float = math.nan
    n_sim: int | None = None
    note: str = ""
    target: float | None = None
    width: float | None = None
    achieved: float | None = None
    level: float = 0.95
    curve: pd.DataFrame = field(default_factory=pd.DataFrame)

    # -- text ------------------------------------------------------------------------------
    def __repr__(self) -> str:
        return (f"PowerCalculation(n={self.n}, power={self.power:.4g}, index={self.index!r}, "
                f"test={self.test!r}, method={self.method!r})")

    def _several(self, column: str) -> bool:
        solved = self.target is not None or self.width is not None
        return not solved and len(self.curve) > 1 and self.curve[column].nunique() > 1

    def _numbers(self, column: str, digits: int = 4) -> str:
        if self._several(column):
            return ", ".join(significant(v, digits) if column != "n" else f"{int(v):,}"
                             for v in self.curve[column])
        value = getattr(self, column)
        return f"{int(value):,}" if column == "n" else significant(value, digits)

    def _effect_words(self) -> str:
        if self.test == "difference":
            return f"difference of {self.index} in the population (a - b)"
        return f"{self.index} of the population less its value at independence"

    def _method_words(self) -> str:
        if self.method == "simulation":
            return (f"simulation of the test on {self.n_sim:,} studies (Monte Carlo s.e. "
                    f"{significant(self.power_se, 2)})")
        if self.method == "analytic and simulation":
            return "analytic where method 'auto' trusts it, simulation elsewhere (see curve)"
        if self.width is not None:
            return "analytic: the jackknife t interval's expected width"
        if self.test == "difference":
            return "analytic: non-central t, the jackknife variance of the population"
        return ("analytic: null law at the expected margins, alternative from the population's "
                "jackknife")

    def _rows(self) -> list[Row]:
        """The rows of the printed block and of the HTML table, from one list."""
        rows = [Row("n", self._numbers("n"), f"n = {self._numbers('n')}"),
                Row("index", self.index, f"index = {self.index}"),
                Row("effect", self._numbers("effect"),
                    f"effect = {self._numbers('effect')} ({self._effect_words()})"),
                Row("population", repr(self.population.description),
                    f"population = {' x '.join(map(str, self.population.shape))}: "
                    f"{self.population.description}")]
        if self.width is not None:
            rows.append(Row(f"{100 * self.level:g}% interval width",
                            f"{significant(self.achieved)} (target {significant(self.width)})",
                            f"width = {significant(self.achieved)} (target "
                            f"{significant(self.width)}, {100 * self.level:g}% interval)"))
        else:
            rows.append(Row("sig.level", f"{self.alpha:g}", f"sig.level = {self.alpha:g}"))
            target = f" (target {self.target:g})" if self.target is not None else ""
            rows.append(Row("power", self._numbers("power") + target,
                            f"power = {self._numbers('power')}{target}"))
            rows.append(Row("alternative", self.alternative,
                            f"alternative = {self.alternative}"))
        rows.append(Row("method", self._method_words(), f"method = {self._method_words()}"))
        return rows

    @property
    def title(self) -> str:
        """The printed block's first line, as R's ``power.htest`` names its calculation."""
        what = "Sample size" if self.target is not None or self.width is not None else "Power"
        return f"{what} calculation for the {_TESTS[self.test]} ({self.index})"

    def __str__(self) -> str:
        lines = ["", f"     {self.title}", ""]
        for row in self._rows():
            name, _, value = row.line.partition(" = ")
            lines.append(f"{name:>15} = {value}")
        if self.note:
            lines += ["", f"NOTE: {self.note}"]
        return "\n".join(lines) + "\n"

    def summary(self) -> str:
        """The calculation as R prints a ``power.htest`` (``str(res)``).

        Returns
        -------
        str
            n, index, effect, population, level, power, alternative, method and the note.
        """
        return str(self)

    def sentence(self, digits: int = 2) -> str:
        """The calculation in one sentence, for a study's protocol.

        Parameters
        ----------
        digits : int, default 2
            Decimals of the power and the effect.

        Returns
        -------
        str
            One sentence, ending with a period.
        """
        short = abbreviation(get_index(self.index))
        sym = f"Δ{short}" if self.test == "difference" else short
        effect = f"{sym} = {apa_number(self.effect, digits)}"
        how = (f"simulation of {self.n_sim:,} studies, s.e. {apa_number(self.power_se, 3)}"
               if self.method == "simulation" else "analytic")
        test = ("the permutation test of independence" if self.test == "independence" else
                "the paired jackknife test of the difference")
        if self.width is not None:
            return (f"With n = {self.n:,} objects the expected {100 * self.level:g}% interval "
                    f"of {short} is {apa_number(self.achieved, 3)} wide (target "
                    f"{apa_number(self.width, 3)}; {effect} in the population, {how}).")
        level = apa_number(self.alpha, 3 if self.alpha < 0.01 else 2).lstrip("0")
        target = (f" (target {apa_number(self.target, digits)})"
                  if self.target is not None else "")
        return (f"With n = {self.n:,} objects {test} of {short} ({self.alternative}, "
                f"α = {level}) detects {effect} with power "
                f"{apa_number(self.power, digits)}{target} ({how}).")

    def _repr_html_(self) -> str:
        """Jupyter: the printed block's numbers as a table."""
        caption = f"NOTE: {self.note}" if self.note else None
        return rows_html(self.title, self._rows(), caption)

    # -- data ------------------------------------------------------------------------------
    def to_frame(self) -> pd.DataFrame:
        """The power at every n (and effect) computed, one row each.

        Returns
        -------
        DataFrame
            The columns ``POWER_COLUMNS`` (``power_se`` NA for the analytic power).
        """
        frame = self.curve.copy() if len(self.curve) else pd.DataFrame([{
            "n": self.n, "effect": self.effect, "power": self.power,
            "power_se": self.power_se, "method": self.method, "n_sim": self.n_sim,
            "alpha": self.alpha, "alternative": self.alternative, "index": self.index,
            "test": self.test}])
        frame = frame[list(POWER_COLUMNS)].astype({"power_se": "Float64", "n_sim": "Int64",
                                                   "n": "int64"})
        return frame.reset_index(drop=True)

    def plot(self, ax=None):
        """The power against n, the target power and the n that reaches it marked.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Where to draw (a new figure when None).

        Returns
        -------
        matplotlib.axes.Axes
            The axes drawn on.
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(5.5, 3.6))
        frame = self.to_frame()
        for effect, part in frame.groupby("effect", sort=True):
            part = part.sort_values("n")
            label = f"effect {significant(effect, 3)}" if frame.effect.nunique() > 1 else None
            ax.plot(part.n, part.power, marker="o", ms=3, label=label)
            if part.power_se.notna().any():
                se = part.power_se.astype(float).fillna(0)
                ax.fill_between(part.n, part.power - 2 * se, part.power + 2 * se, alpha=0.2)
        target = self.target if self.target is not None else None
        if target is not None:
            ax.axhline(target, color="grey", ls="--", lw=1)
            ax.axvline(self.n, color="grey", ls=":", lw=1)
            ax.annotate(f"n = {self.n:,}", (self.n, target), textcoords="offset points",
                        xytext=(4, -12), fontsize=8)
        ax.axhline(self.alpha, color="lightgrey", lw=1)
        ax.set_xlabel("n (objects)")
        ax.set_ylabel("power")
        ax.set_ylim(0, 1.02)
        ax.set_title(f"{abbreviation(get_index(self.index))}, α = {significant(self.alpha)}",
                     fontsize=10)
        if frame.effect.nunique() > 1:
            ax.legend(fontsize=8)
        return ax

    def _figure_html(self) -> str:
        ax = self.plot()
        return figure_html(ax.figure)
