"""The result of an interval: ``ConfidenceInterval``, its bounds, method and how it was made."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from .._display import apa_interval, apa_number
from ..indices import abbreviation

__all__ = ["ConfidenceInterval"]


@dataclass(frozen=True, repr=False)
class ConfidenceInterval:
    """A bootstrap confidence interval of an index (``confidence_interval`` makes it).

    Parameters
    ----------
    index : str
        The index's registry name.
    statistic : float
        The index on the observed clusterings (the estimate).
    low, high : float
        The interval's bounds.
    confidence_level : float
        The nominal coverage, e.g. 0.95.
    method : str
        What made the interval: "BCa", "percentile", "jackknife", or what "auto" chose:
        "jackknife" (no test changed it), "jackknife, independence test inverted", "exact
        bound at perfect agreement".
    n_resamples : int
        The number of bootstrap resamples (0 for the jackknife methods).
    standard_error : float
        The bootstrap standard error (the standard deviation of the bootstrap distribution,
        with B - 1 in the denominator, as ``scipy.stats.bootstrap``), or the jackknife's.
    bootstrap_distribution : numpy.ndarray
        The index on each resample, shape (n_resamples,) (empty for the jackknife methods).
    resampling : str
        "cells" (a table's objects, drawn as a multinomial of its cells) or "objects" (the
        rows of memberships, the rows and columns of similarity matrices).
    bias : float
        BCa's bias correction z0 (nan for the percentile interval).
    acceleration : float
        BCa's acceleration a, from the jackknife (nan for the percentile interval).
    reason : str
        Why the bounds are nan when they are (the index is not defined on some resample, or
        BCa cannot be computed); "" when they are numbers.
    closed : {"both", "left", "right"}
        Which bounds belong to the interval (``pandas.Interval``'s word): "auto" leaves out
        the independence value when the test of independence rejects it, e.g. ARI's
        (0, 0.31].
    note : str
        How "auto" made the interval (one sentence), or "".
    independence_pvalue : float
        "auto": the p-value of the test of independence it inverted (nan otherwise).
    coverage : str
        Which objects were compared, when not all as given (a noise policy, objects left
        out, sample weights), in words; "" otherwise.

    See Also
    --------
    confidence_interval : Computes it.
    scipy.stats.bootstrap : The same intervals for any statistic of resampled data.

    Examples
    --------
    >>> from clusteragree import confidence_interval
    >>> ci = confidence_interval([[30, 5], [4, 25]], index="rand", method="percentile",
    ...                          n_resamples=999, seed=1)
    >>> low, high = ci                       # unpacks like scipy's ConfidenceInterval
    >>> bool(low < ci.statistic < high), ci.bootstrap_distribution.shape
    (True, (999,))
    """

    index: str
    statistic: float
    low: float
    high: float
    confidence_level: float
    method: str
    n_resamples: int
    standard_error: float
    bootstrap_distribution: np.ndarray = field(compare=False)
    resampling: str = "cells"
    bias: float = math.nan
    acceleration: float = math.nan
    reason: str = ""
    closed: str = "both"
    note: str = ""
    independence_pvalue: float = math.nan
    coverage: str = ""

    def __iter__(self):
        yield self.low
        yield self.high

    def __len__(self) -> int:
        return 2

    def __getitem__(self, i):
        return (self.low, self.high)[i]

    def __array__(self, dtype=None, copy=None):
        """The bounds as an array, so numpy takes the interval as the pair it unpacks to
        (``np.round(ci, 4)``, ``np.asarray(ci)``)."""
        return np.array([self.low, self.high], dtype=dtype)

    def __repr__(self) -> str:
        pct = f"{100 * self.confidence_level:g}%"
        size = f", B = {self.n_resamples}" if self.n_resamples else ""
        on = f"; {self.coverage}" if self.coverage else ""
        return (f"ConfidenceInterval({self.index} = {self.statistic:.4g}, {pct} {self.method} "
                f"{self.bracketed()}{size}{on})")

    def bracketed(self, digits: int = 4) -> str:
        """The bounds in brackets that say which belong to the interval: "[a, b]", "(a, b]".

        Parameters
        ----------
        digits : int, default 4
            Significant digits of each bound.

        Returns
        -------
        str
            The interval, e.g. "(0, 0.3]".

        See Also
        --------
        contains : Whether a value lies in it.

        Examples
        --------
        >>> ConfidenceInterval("adjusted_rand", 0.2, 0.0, 0.3, 0.95, "auto", 0, 0.05,
        ...                    np.empty(0), closed="right").bracketed()
        '(0, 0.3]'
        """
        left = "[" if self.closed in ("both", "left") else "("
        right = "]" if self.closed in ("both", "right") else ")"
        return f"{left}{self.low:.{digits}g}, {self.high:.{digits}g}{right}"

    def sentence(self, digits: int = 2) -> str:
        """The interval in one sentence to paste into a paper, APA style: "ARI = 0.43, 95% CI
        [0.12, 0.88] (BCa bootstrap, 9,999 resamples)."

        It says what the interval knows: the index by the short name papers give it, the
        estimate, the interval with its brackets (an open bound in parentheses), the method
        and its resamples, and which objects were compared when not all as given. The
        interval does not know how many objects there were unless its coverage says so: the
        test that carries it (``AgreementTest.sentence``) says n.

        Parameters
        ----------
        digits : int, default 2
            Decimals of the estimate and the bounds.

        Returns
        -------
        str
            One sentence, ending with a period; without bounds (``reason``), the reason why.

        See Also
        --------
        bracketed : The bounds alone.

        Examples
        --------
        >>> ConfidenceInterval("adjusted_rand", 0.2, 0.0, 0.3, 0.95, "jackknife, independence "
        ...                    "test inverted", 0, 0.05, np.empty(0), closed="right").sentence()
        'ARI = 0.20, 95% CI (0.00, 0.30] (jackknife, independence test inverted).'
        """
        value = (f"{abbreviation(self.index)} = {apa_number(self.statistic, digits)}"
                 if apa_number(self.statistic, digits) else abbreviation(self.index))
        how = self.method
        if self.n_resamples:
            bootstrap = "" if "bootstrap" in how else " bootstrap"
            how = f"{how}{bootstrap}, {self.n_resamples:,} resamples"
        details = "; ".join(d for d in (how, self.coverage) if d)
        interval = apa_interval(self.low, self.high, self.confidence_level, self.closed,
                                digits)
        if not interval:
            level = f"{100 * self.confidence_level:g}%"
            why = f": {self.reason}" if self.reason else ""
            return f"{value}; no {level} CI ({details}){why}."
        return f"{value}, {interval}" + (f" ({details})" if details else "") + "."

    def contains(self, value: float) -> bool:
        """Whether ``value`` lies in the interval (its open bounds left out).

        Parameters
        ----------
        value : float
            A value of the index.

        Returns
        -------
        bool
            True when it lies between the bounds, an open bound excluded.

        See Also
        --------
        bracketed : The interval written with its brackets.

        Examples
        --------
        >>> ci = ConfidenceInterval("adjusted_rand", 0.2, 0.0, 0.3, 0.95, "auto", 0, 0.05,
        ...                         np.empty(0), closed="right")
        >>> ci.contains(0.0), ci.contains(0.1)
        (False, True)
        """
        above = value >= self.low if self.closed in ("both", "left") else value > self.low
        below = value <= self.high if self.closed in ("both", "right") else value < self.high
        return bool(above and below)
