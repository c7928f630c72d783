"""NullDistribution: the one result type of every null method.

It holds one of
* the exact law of the index (``values`` with ``probabilities``; ``is_exact``),
* Monte Carlo ``samples`` (Patefield tables, permutations, random partitions), or
* closed-form moments only (``method="hypergeometric"``, exact means under random models),
and answers the same questions of each: mean, median, variance, skewness, quantiles, the cdf,
p-values, z-scores and chance adjustment, with standard errors for Monte Carlo figures.
The three kinds are ``ExactLaw``, ``SampledLaw`` and ``Moments`` (``_laws``): the public methods
check their arguments once and ask the law; the plot and the HTML are ``_display``'s.

Conventions (the user guide's conventions and chance pages):
* p-values. Exact: P(T >= t) counting ties (values within a relative 1e-9 of t count as equal).
  Monte Carlo: (1 + #{T >= t}) / (B + 1), or the thesis' #{T >= t} / B with ``plus_one=False``.
  "two-sided" doubles the smaller one-sided p-value (capped at 1).
* Adjustment. A similarity: (I - c) / (max - c); a distance: (c - I) / (c - min); c the null
  mean, median or a quantile. If c equals the optimum, the registry's rule applies: 1 when the
  observed value is the optimum too, 0 otherwise.
* Quantiles. Exact laws: the smallest value with cdf >= q (the median is the lower median).
  Samples: numpy's default (linear interpolation, R's type 7).
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd
from scipy import special, stats

from .._display import format_log_pvalue, law_html, law_rows, plot_null, rows_lines
from .._validate import check_choice, check_real
from ..indices import get_index, is_record
from ._laws import TIE_RTOL, ExactLaw, Moments, SampledLaw, TailLaw, check_levels, tolerance
from ._methods import Model, NullMethod, get_method, get_model

__all__ = ["NullDistribution", "n_sim_for", "TIE_RTOL", "ALTERNATIVES", "NULL_COLUMNS",
           "test_figures"]

#: The alternatives of every test and p-value.
ALTERNATIVES = ("greater", "less", "two-sided")

#: The null part of the one result schema (``summary()``; ``AgreementTest.to_frame()``).
NULL_COLUMNS = ("null_mean", "null_median", "null_sd", "null_skewness", "model", "method",
                "n_sim")


def n_sim_for(error: float = 0.01, confidence: float = 0.99, z_decimals: int | None = 3) -> int:
    """Monte Carlo size so that a p-value is estimated within ``error`` with given confidence.

    The thesis' bound (Amorim 2015, ch. 4 eq 26): T >= (1/4) (z / error)^2 with
    z = Phi^-1(1 - alpha/2), from the worst case p = 1/2 of the binomial standard error
    sqrt(p (1 - p) / T). The thesis takes z from a printed table, to three decimals (2.576):
    ``z_decimals=3`` gives its 16,590 (hence its 17,000 tables); ``z_decimals=None`` uses the
    exact quantile (16,588).

    Parameters
    ----------
    error : float, default 0.01
        The largest error of the estimated p-value, in (0, 1).
    confidence : float, default 0.99
        The confidence 1 - alpha with which the error is not exceeded, in (0, 1).
    z_decimals : int or None, default 3
        Round z to this many decimals, as a printed table does; None: the exact quantile.

    Returns
    -------
    int
        The number of Monte Carlo draws T.

    See Also
    --------
    NullDistribution.pvalue_ci : The confidence interval of a Monte Carlo p-value.
    clusteragree.nulls.random_tables : The thesis' random tables.

    References
    ----------
    Amorim, M. J. (2015), "On clustering stability", PhD thesis, ISCTE - University Institute
    of Lisbon, ch. 4 eq 26.

    Examples
    --------
    >>> n_sim_for(0.01, 0.99)
    16590
    >>> n_sim_for(0.01, 0.99, z_decimals=None)
    16588
    """
    if not (isinstance(error, numbers.Real) and 0 < error < 1):
        raise ValueError(f"error must be a number in (0, 1), got {error!r}")
    if not (isinstance(confidence, numbers.Real) and 0 < confidence < 1):
        raise ValueError(f"confidence must be a number in (0, 1), got {confidence!r}")
    z = stats.norm.ppf(1 - (1 - confidence) / 2)
    if z_decimals is not None:
        z = round(z, z_decimals)
    return math.ceil(0.25 * (z / error) ** 2 - 1e-9)


class NullDistribution:
    """The law of an agreement index under a null model.

    Build it with ``clusteragree.nulls.null_distribution``; the constructor is for null
    methods. It holds the exact law (``values`` with ``probabilities``), Monte Carlo
    ``samples``, or closed-form moments only, and answers the same questions of each: mean,
    median, variance, skewness, quantiles, the cdf, p-values, z-scores and chance adjustment,
    with Monte Carlo standard errors.

    Conventions. P-values: exact laws give P(T >= t) counting ties (values within a relative
    1e-9 of t count as equal); samples give (1 + #{T >= t}) / (B + 1) (Phipson & Smyth
    2010), or the thesis' #{T >= t} / B with ``plus_one=False``; "two-sided" doubles the
    smaller one-sided p-value (capped at 1). Adjustment: (I - c) / (max - c) for a
    similarity, (c - I) / (c - min) for a distance, c the null mean, median or a quantile.
    Quantiles: exact laws give the smallest value with cdf >= q (the median is the lower
    median); samples numpy's default (linear interpolation, R's type 7).

    Parameters
    ----------
    index : str or Index
        The index whose law this is (its kind and optimum drive ``adjust`` and ``pvalue``).
    method : str or NullMethod
        The null method ("exact", "hypergeometric", "patefield", "permutation", "simulation",
        ...; ``ca.nulls.list_nulls()``).
    values, probabilities : arrays, optional
        The exact law (values need not be unique or sorted).
    samples : array, optional
        Monte Carlo draws.
    moments : dict, optional
        Closed-form moments ("mean", "var").
    tail : TailLaw, optional
        Tail probabilities estimated on request (``method="importance"`` or
        ``"saddlepoint"``): p-values and their logarithms and standard errors (nan for the
        saddlepoint approximation), closed-form moments; no quantiles or samples.
    model : str or Model
        The random model (default "perm": both margins fixed).
    options : dict, optional
        The options of the index the law was computed with (e.g. ``{"base": 2}``).
    details : dict, optional
        What else the method wants to report (seed, number of tables, ...).

    Attributes
    ----------
    index : Index
        The index's registry record.
    method, model : str
        The names of the method and model; ``method_record`` and ``model_record`` are their
        registry records (titles and descriptions, for printing).
    values, probabilities : ndarray or None
        The exact law (sorted values, ties merged), or None.
    samples : ndarray or None
        The Monte Carlo draws, or None.

    See Also
    --------
    null_distribution : The law of an index for two clusterings.
    null_distributions : The laws of several indices from the same random tables.
    clusteragree.agreement_test : The test built on it.

    References
    ----------
    Amorim, M. J. (2015), "On clustering stability", PhD thesis, ISCTE - University Institute
    of Lisbon, ch. 4.

    Gates, A. J. & Ahn, Y.-Y. (2017), "The impact of random models on clustering similarity",
    Journal of Machine Learning Research 18.

    Phipson, B. & Smyth, G. K. (2010), "Permutation P-values should never be zero: calculating
    exact P-values when permutations are randomly drawn", Statistical Applications in
    Genetics and Molecular Biology 9(1).

    Examples
    --------
    >>> nd = ca.nulls.null_distribution([[30, 20], [10, 20]], index="rand", method="exact")
    >>> nd                                             # Amorim (2015), Table 8
    NullDistribution(rand, method='exact', model='perm', exact law, 16 values)
      null: both margins fixed (permutation model); dynamic programme on s
      mean = 0.49968, sd = 0.0084303
      median = 0.494937, skewness = 2.761, 1% / 99% quantiles = 0.493671 / 0.539241
    >>> round(nd.pvalue(0.5253), 5), round(nd.adjust(0.5253), 5)
    (0.03683, 0.05121)

    A law built by hand:

    >>> from clusteragree.nulls import NullDistribution
    >>> law = NullDistribution("jaccard", "exact", values=[0.2, 0.4, 0.6],
    ...                        probabilities=[0.25, 0.5, 0.25])
    >>> law.mean, law.median, law.pvalue(0.6)
    (0.4, 0.4, 0.25)
    """

    def __init__(self, index, method, *, values=None, probabilities=None, samples=None,
                 moments=None, tail=None, model="perm", options=None, details=None):
        # the engine passes its records (``NullRequest.null_of``); a user may give names
        self.index = index if is_record(index) else get_index(index)
        self.model_record = model if isinstance(model, Model) else get_model(model)
        self.method_record = (method if isinstance(method, NullMethod)
                              else get_method(method, self.model_record))
        self.method = self.method_record.name
        self.model = self.model_record.name
        self.options = dict(options or {})
        self.details = dict(details or {})
        given = [v is not None for v in (values, samples, moments, tail)]
        if sum(given) != 1:
            raise ValueError("give exactly one of values (with probabilities), samples, moments "
                             "or tail")
        self._law = (ExactLaw(values, probabilities) if values is not None
                     else SampledLaw(samples) if samples is not None
                     else tail if tail is not None else Moments(moments))
        if tail is not None and not isinstance(tail, TailLaw):
            raise TypeError(f"tail must be a TailLaw, got {type(tail).__name__}")
        self.values, self.probabilities = self._law.values, self._law.probabilities
        self.samples = self._law.samples

    # -- what kind of law ----------------------------------------------------------------
    @property
    def is_exact(self) -> bool:
        """True when the full law is known exactly (``values`` and ``probabilities``)."""
        return self.values is not None

    @property
    def is_sampled(self) -> bool:
        """True when the law is known from Monte Carlo ``samples``."""
        return self.samples is not None

    @property
    def n_sim(self) -> int | None:
        """Number of Monte Carlo draws (None for exact laws and moments)."""
        return self._law.n_sim

    @property
    def has_law(self) -> bool:
        """True when the full law is known (exact or sampled), not only moments."""
        return self._law.has_law

    @property
    def has_variance(self) -> bool:
        """True when the variance is known (a law, or moments with a variance); reading it may
        still be refused (a closed-form variance over its time budget)."""
        return self._law.has_variance

    @property
    def has_tail(self) -> bool:
        """True when the law gives tail probabilities only (``method="importance"`` or
        ``"saddlepoint"``): p-values with their standard errors, and no quantiles, median,
        samples or plot."""
        return getattr(self._law, "has_tail", False)

    @property
    def has_pvalue(self) -> bool:
        """True when this null gives p-values (a law, or tail probabilities)."""
        return self._law.has_law or self.has_tail

    def _need_law(self, what: str):
        if self.has_tail:
            raise ValueError(
                f"{what} is not available from the {self.method!r} null ({self.index.name}): it "
                "estimates tail probabilities (p-values) only; use method='exact' or "
                "'patefield' for the law itself")
        if not self._law.has_law:
            raise ValueError(
                f"{what} is not available from the {self.method!r} null ({self.index.name}: "
                "closed-form moments only); use a method that gives the law "
                "(ca.nulls.list_nulls())"
            )

    # -- moments ---------------------------------------------------------------------------
    @property
    def mean(self) -> float:
        """The null mean E[I] (exact, from the samples, or in closed form)."""
        return self._law.mean

    @property
    def var(self) -> float:
        """The null variance Var[I] (samples: with ddof = 1); an error when it has no closed
        form under this model."""
        if not self._law.has_variance:
            raise ValueError(
                f"the variance of {self.index.name!r} has no closed form under "
                f"model={self.model!r}; use a method that gives the law (ca.nulls.list_nulls())"
            )
        return self._law.var()

    @property
    def std(self) -> float:
        """The null standard deviation, sqrt(Var[I])."""
        return math.sqrt(max(self.var, 0.0))

    @property
    def skewness(self) -> float:
        """Third standardised moment (0 for a point mass)."""
        self._need_law("the skewness")
        sd = self.std
        return 0.0 if sd == 0 else self._law.skewness(sd)

    @property
    def median(self) -> float:
        """The null median, ``quantile(0.5)`` (exact laws: the lower median)."""
        return self.quantile(0.5)

    def quantile(self, q):
        """Null quantiles.

        Parameters
        ----------
        q : float or array-like of float
            Levels in [0, 1].

        Returns
        -------
        float or ndarray
            Exact laws: the smallest value with cdf >= q; samples: numpy's default (linear
            interpolation, R's type 7).

        Raises
        ------
        ValueError
            Closed-form moments only (no law), or a level outside [0, 1].

        Examples
        --------
        >>> nd = ca.nulls.null_distribution([[30, 20], [10, 20]], index="rand")
        >>> nd.quantile([0.05, 0.5, 0.95]).round(5).tolist()
        [0.49367, 0.49494, 0.51392]
        """
        self._need_law("a quantile")
        out = self._law.quantile(check_levels(q))
        return float(out) if out.ndim == 0 else out

    def cdf(self, t):
        """The null cdf, P(T <= t).

        Parameters
        ----------
        t : float or array-like of float
            Index values.

        Returns
        -------
        float or ndarray
            P(T <= t); values within a relative 1e-9 of t (``TIE_RTOL``) count as equal.
        """
        self._need_law("the cdf")
        t = np.asarray(t, dtype=float)
        out = self._law.cdf(t, TIE_RTOL * np.maximum(1.0, np.abs(t)))
        return float(out) if np.ndim(out) == 0 else out

    # -- tests -----------------------------------------------------------------------------
    def pvalue(self, observed: float, alternative: str = "greater", plus_one: bool = True) -> float:
        """P-value of ``observed`` under this null.

        Parameters
        ----------
        observed : float
            The observed value of the index.
        alternative : {"greater", "less", "two-sided"}, default "greater"
            "greater": agreement above chance for a similarity (use "less" for a distance);
            "two-sided" doubles the smaller one-sided p-value (capped at 1).
        plus_one : bool, default True
            Samples: (1 + #{T >= t}) / (B + 1), or #{T >= t} / B with ``plus_one=False`` (the
            thesis' estimate). Exact laws give P(T >= t) either way.

        Returns
        -------
        float
            The p-value; ties within a relative 1e-9 of ``observed`` count as extreme.

        Examples
        --------
        >>> nd = ca.nulls.null_distribution([[30, 20], [10, 20]], index="rand")
        >>> round(nd.pvalue(0.5253), 5), round(nd.pvalue(0.5253, "two-sided"), 5)
        (0.03683, 0.07367)
        """
        if not self.has_tail:
            self._need_law("a p-value")
        check_choice(alternative, "alternative", ALTERNATIVES)
        return self._pvalue(_check_observed(observed), alternative, plus_one)

    def log_pvalue(self, observed: float, alternative: str = "greater") -> float:
        """The natural logarithm of the p-value, finite where the p-value underflows.

        Tail probabilities (``method="importance"``, ``"saddlepoint"``) are carried in
        logarithms, so a p-value below the smallest double (about 1e-308) still has its
        logarithm; other laws give log(pvalue) (-inf where an exact p-value underflowed to 0).

        Parameters
        ----------
        observed : float
            The observed value of the index.
        alternative : {"greater", "less", "two-sided"}, default "greater"
            As in ``pvalue``.

        Returns
        -------
        float
            log p (natural logarithm); log10 p is this over log(10).

        Examples
        --------
        >>> nd = ca.nulls.null_distribution([[30, 20], [10, 20]], index="rand")
        >>> round(nd.log_pvalue(0.5253), 4)
        -3.3013
        """
        check_choice(alternative, "alternative", ALTERNATIVES)
        t = _check_observed(observed)
        if self.has_tail:
            return self._law.log_pvalue(t, alternative)
        self._need_law("a p-value")
        p = self._pvalue(t, alternative, True)
        return math.log(p) if p > 0 else -math.inf

    def pvalue_text(self, observed: float, alternative: str = "greater") -> str:
        """The p-value of tail probabilities in words (``method="importance"`` or
        ``"saddlepoint"``), for printing.

        Parameters
        ----------
        observed : float
            The observed value of the index.
        alternative : {"greater", "less", "two-sided"}, default "greater"
            As in ``pvalue``.

        Returns
        -------
        str
            "≈ 3.2e-41 (importance sampling, relative s.e. 4%)" or "≈ 3.2e-41 (saddlepoint
            approximation)"; below 1e-300, "< 1e-300 (log10 p = -1234.5; ...)", never 0.
        """
        log_p = self.log_pvalue(observed, alternative)
        how = self._law.words(_check_observed(observed), alternative)
        return format_log_pvalue(log_p / math.log(10), how)

    def pvalue_words(self, observed: float, alternative: str = "greater") -> str:
        """How a p-value of tail probabilities was obtained, in a few words (the parentheses
        of ``pvalue_text``).

        Parameters
        ----------
        observed : float
            The observed value of the index.
        alternative : {"greater", "less", "two-sided"}, default "greater"
            As in ``pvalue``.

        Returns
        -------
        str
            "importance sampling, relative s.e. 4%", "saddlepoint approximation", "exact".
        """
        check_choice(alternative, "alternative", ALTERNATIVES)
        if not self.has_tail:
            raise ValueError(f"the {self.method!r} null ({self.index.name}) gives no tail "
                             "probabilities: its p-value is read off its law (pvalue)")
        return self._law.words(_check_observed(observed), alternative)

    def _pvalue(self, t: float, alternative: str, plus_one: bool) -> float:
        """``pvalue`` of a checked t and alternative, from a law."""
        if self.has_tail:
            return self._law.pvalue(t, alternative)
        if alternative == "two-sided":
            return min(1.0, 2 * min(self._law.pvalue(t, "greater", plus_one),
                                    self._law.pvalue(t, "less", plus_one)))
        return self._law.pvalue(t, alternative, plus_one)

    def pvalue_se(self, observed: float, alternative: str = "greater",
                  plus_one: bool = False) -> float:
        """Monte Carlo standard error of the p-value, sqrt(p (1 - p) / B).

        Parameters
        ----------
        observed : float
            The observed value of the index.
        alternative : {"greater", "less", "two-sided"}, default "greater"
            As in ``pvalue``.
        plus_one : bool, default False
            p is the plain share #{T >= t} / B, or (True) the reported (1 + #) / (B + 1),
            which keeps the error positive when no draw is as extreme.

        Returns
        -------
        float
            The standard error; 0 for exact laws.
        """
        if self.is_exact:  # no Monte Carlo error (and nothing to check)
            return 0.0
        p = self.pvalue(observed, alternative, plus_one=plus_one)  # refused without a law
        if self.has_tail:
            return p * self._law.relative_se(_check_observed(observed), alternative)
        return self._law.pvalue_se(p)

    def tail_count(self, observed: float, alternative: str = "greater") -> int:
        """How many simulated values are at least as extreme as ``observed``.

        Parameters
        ----------
        observed : float
            The observed value of the index.
        alternative : {"greater", "less", "two-sided"}, default "greater"
            As in ``pvalue``; "two-sided" counts the smaller tail (the one that gives the
            p-value).

        Returns
        -------
        int
            k of the ``n_sim`` draws (ties within a relative 1e-9 count as extreme).

        Raises
        ------
        ValueError
            The law is not a Monte Carlo law.

        See Also
        --------
        pvalue_upper : The bound on the p-value that k gives.

        Examples
        --------
        >>> nd = ca.nulls.null_distribution([[30, 20], [10, 20]], index="rand",
        ...                                 method="patefield", n_sim=2000, seed=1)
        >>> nd.tail_count(0.9), nd.tail_count(0.5253) > 0
        (0, True)
        """
        if not self.is_sampled:
            raise ValueError(f"a count of simulated values needs a Monte Carlo law; this one is "
                             f"{self._law.kind}")
        check_choice(alternative, "alternative", ALTERNATIVES)
        return self._tail_count(_check_observed(observed), alternative)

    def _tail_count(self, t: float, alternative: str) -> int:
        if alternative == "two-sided":
            return min(self._law.count(t, "greater"), self._law.count(t, "less"))
        return self._law.count(t, alternative)

    def pvalue_upper(self, observed: float, alternative: str = "greater",
                     confidence: float = 0.95) -> float:
        """A one-sided upper confidence bound for the p-value a Monte Carlo law estimates.

        Clopper-Pearson's exact binomial bound on the tail probability from k of B draws as
        extreme (doubled, capped at 1, for "two-sided"): with k = 0 the p-value is only known
        to be below it, about 3 / B at 95%. An exact law gives its p-value itself.

        Parameters
        ----------
        observed : float
            The observed value of the index.
        alternative : {"greater", "less", "two-sided"}, default "greater"
            As in ``pvalue``.
        confidence : float, default 0.95
            The confidence level of the bound.

        Returns
        -------
        float
            The upper bound.

        See Also
        --------
        tail_count : k.
        pvalue_ci : A two-sided interval.

        References
        ----------
        Clopper, C. J. & Pearson, E. S. (1934), "The use of confidence or fiducial limits
        illustrated in the case of the binomial", Biometrika 26.

        Examples
        --------
        >>> nd = ca.nulls.null_distribution([[30, 20], [10, 20]], index="rand",
        ...                                 method="patefield", n_sim=2000, seed=1)
        >>> round(nd.pvalue_upper(0.9), 5)                 # 0 of 2,000: about 3 / 2000
        0.0015
        """
        self._need_law("a p-value")
        check_choice(alternative, "alternative", ALTERNATIVES)
        confidence = _check_confidence(confidence)
        t = _check_observed(observed)
        if not self.is_sampled:
            return self._pvalue(t, alternative, True)
        return self._pvalue_upper(t, alternative, confidence)

    def tail(self, observed: float, alternative: str = "greater",
             confidence: float = 0.95) -> tuple[int, float]:
        """``tail_count`` and ``pvalue_upper`` of a Monte Carlo law, each argument checked once.

        Parameters
        ----------
        observed : float
            The observed value of the index.
        alternative : {"greater", "less", "two-sided"}, default "greater"
            As in ``pvalue``.
        confidence : float, default 0.95
            The confidence level of the bound.

        Returns
        -------
        k : int
            The simulated values at least as extreme as ``observed``.
        upper : float
            The one-sided Clopper-Pearson upper bound on the p-value.

        See Also
        --------
        tail_count, pvalue_upper : The same, one at a time.

        Examples
        --------
        >>> nd = ca.nulls.null_distribution([[30, 20], [10, 20]], index="rand",
        ...                                 method="patefield", n_sim=2000, seed=1)
        >>> k, upper = nd.tail(0.9)
        >>> k, round(upper, 5)
        (0, 0.0015)
        """
        if not self.is_sampled:
            raise ValueError(f"a count of simulated values needs a Monte Carlo law; this one is "
                             f"{self._law.kind}")
        check_choice(alternative, "alternative", ALTERNATIVES)
        confidence = _check_confidence(confidence)
        t = _check_observed(observed)
        k = self._tail_count(t, alternative)
        return k, self._bound(k, alternative, confidence)

    def _pvalue_upper(self, t: float, alternative: str, confidence: float) -> float:
        return self._bound(self._tail_count(t, alternative), alternative, confidence)

    def _bound(self, k: int, alternative: str, confidence: float) -> float:
        """``pvalue_upper`` of a tail count k already made."""
        B = self.n_sim
        # Clopper-Pearson's one-sided bound: the ``confidence`` quantile of Beta(k + 1, B - k)
        # (scipy's binomtest(k, B, alternative="less").proportion_ci, 1000 times faster)
        bound = 1.0 if k >= B else float(special.betaincinv(k + 1, B - k, confidence))
        return min(1.0, 2 * bound) if alternative == "two-sided" else bound

    def pvalue_ci(self, observed: float, alternative: str = "greater", confidence: float = 0.99,
                  method: str = "normal"):
        """Confidence interval for the Monte Carlo p-value #{T >= t} / B.

        Parameters
        ----------
        observed : float
            The observed value of the index.
        alternative : {"greater", "less", "two-sided"}, default "greater"
            As in ``pvalue``.
        confidence : float, default 0.99
            The confidence level.
        method : {"normal", "exact"}, default "normal"
            The thesis' normal interval (Amorim 2015, ch. 4 eq 25), clipped to [0, 1], or
            Clopper-Pearson's exact binomial interval.

        Returns
        -------
        tuple of float
            (low, high); (p, p) for exact laws.

        Examples
        --------
        >>> nd = ca.nulls.null_distribution([[30, 20], [10, 20]], index="rand",
        ...                                 method="patefield", seed=1)
        >>> [round(float(v), 4) for v in nd.pvalue_ci(0.5253, method="exact")]
        [0.032, 0.0394]
        """
        check_choice(method, "method", ("normal", "exact"))
        p = self.pvalue(observed, alternative, plus_one=False)
        return self._law.pvalue_ci(p, confidence, method)

    @property
    def mean_se(self) -> float:
        """Standard error of the mean (Monte Carlo); 0 for exact laws and closed forms."""
        return self._law.mean_se()

    def quantile_se(self, q: float) -> float:
        """Monte Carlo standard error of a quantile, sqrt(q (1 - q) / B) / f(x_q).

        Parameters
        ----------
        q : float
            The level, in [0, 1].

        Returns
        -------
        float
            The standard error, with the density f estimated by a Gaussian kernel (Scott's
            bandwidth); 0 for exact laws and point masses, inf where f is 0.
        """
        self._need_law("a quantile")
        return self._law.quantile_se(q)

    # -- chance adjustment -----------------------------------------------------------------
    def center(self, center="mean") -> float:
        """The null centre c of the chance adjustment.

        Parameters
        ----------
        center : "mean", "median" or float, default "mean"
            The null mean, the median, or a quantile level q in [0, 1] (0.99: the P99).

        Returns
        -------
        float
            The centre.
        """
        center = check_center(center)
        if isinstance(center, str):
            return self.mean if center == "mean" else self.median
        return self.quantile(center)

    def adjust(self, observed: float, center="mean", optimum: float | None = None) -> float:
        """Chance-adjusted index (Amorim 2015, eq 3).

        (I - c) / (max - c) for a similarity, (c - I) / (c - min) for a distance, with c the
        null centre (``center``).

        When the centre is the optimum (a null law of one point at the optimum, e.g. the only
        table of two clusterings of singletons) the ratio is 0/0, and the registry's rule for a
        vanishing denominator decides: 1 if I is the optimum, else 0. "Is" means up to the
        tie tolerance (``TIE_RTOL``), as everywhere values are compared: an optimum passed one
        rounding away from the law's value gives the same answer as the exact one.

        Parameters
        ----------
        observed : float
            The observed value of the index.
        center : "mean", "median" or float, default "mean"
            The null centre c: the mean, the median or a quantile level in [0, 1].
        optimum : float, optional
            The max of a similarity or the min of a distance; default the index's own (1 for
            the similarities, 0 for the distances). Needed for an index with no fixed optimum
            (mutual_info).

        Returns
        -------
        float
            The adjusted value: 0 at the chance level, 1 at the optimum.

        Examples
        --------
        >>> nd = ca.nulls.null_distribution([[30, 20], [10, 20]], index="rand")
        >>> round(nd.adjust(0.5253), 5), round(nd.adjust(0.5253, "median"), 5)
        (0.05121, 0.06012)
        """
        t = _check_observed(observed)
        c = self.center(center)
        best = (self.index.optimum if optimum is None
                else check_real(optimum, "optimum", "a number (the index's max or min)"))
        if not math.isfinite(best):
            raise ValueError(
                f"{self.index.name!r} has no fixed optimum; pass optimum= (e.g. min(H(x), H(y)) "
                "for the mutual information)"
            )
        return self._adjust(t, c, best)

    def _adjust(self, t: float, c: float, best: float) -> float:
        """``adjust`` of a checked t, with the centre c and a finite optimum."""
        span = (best - c) if self.index.kind != "distance" else (c - best)
        if abs(span) <= tolerance(best):
            return 1.0 if abs(t - best) <= tolerance(best) else 0.0
        return ((t - c) if self.index.kind != "distance" else (c - t)) / span

    def zscore(self, observed: float) -> float:
        """The standardised index, (I - E[I]) / sd[I].

        Parameters
        ----------
        observed : float
            The observed value of the index.

        Returns
        -------
        float
            The z-score; 0 when the null law is a point mass and I equals it (up to the tie
            tolerance), +-inf when it differs.
        """
        return self._zscore(_check_observed(observed))

    def _zscore(self, t: float) -> float:
        """``zscore`` of a checked t."""
        sd = self.std
        if sd == 0:
            if abs(t - self.mean) <= tolerance(self.mean):
                return 0.0
            return math.copysign(math.inf, t - self.mean)
        return (t - self.mean) / sd

    def test(self, observed: float, alternative: str = "greater", plus_one: bool = True):
        """The figures of a test of ``observed`` against this null, its arguments checked once.

        The same numbers as ``pvalue``, ``pvalue_se``, ``zscore`` and ``adjust`` called one by
        one (``agreement_test`` reports them), NaN where this null cannot give them.

        Parameters
        ----------
        observed : float
            The observed value of the index.
        alternative : {"greater", "less", "two-sided"}, default "greater"
            As in ``pvalue``.
        plus_one : bool, default True
            As in ``pvalue``; the standard error is that of the same p-value.

        Returns
        -------
        pvalue : float
            ``pvalue(observed, alternative, plus_one)``; NaN without a law (moments only).
        pvalue_se : float
            ``pvalue_se(observed, alternative, plus_one)``; NaN without a law.
        zscore : float
            ``zscore(observed)``; NaN without a variance.
        adjusted : dict
            ``adjust(observed, center)`` by centre: "mean", and "median" when the law is
            known; empty for an index with no fixed optimum (mutual_info).

        Examples
        --------
        >>> nd = ca.nulls.null_distribution([[30, 20], [10, 20]], index="rand")
        >>> p, se, z, adjusted = nd.test(0.5253)
        >>> round(p, 5), se, round(z, 3), {c: round(a, 5) for c, a in adjusted.items()}
        (0.03683, 0.0, 3.039, {'mean': 0.05121, 'median': 0.06012})
        """
        check_choice(alternative, "alternative", ALTERNATIVES)
        f = self._figures(_check_observed(observed), alternative, plus_one)
        return f["pvalue"], f["pvalue_se"], f["zscore"], f["adjusted"]

    def _figures(self, t: float, alternative: str, plus_one: bool,
                 confidence: float | None = None) -> dict:
        """``test_figures`` (which see): every figure of a test, each computed once."""
        k = upper = None
        if self.is_sampled:  # the tail counted once: k gives p and its bound
            k = self._tail_count(t, alternative)
            p = self._law.pvalue_of_count(k, plus_one)
            p = min(1.0, 2 * p) if alternative == "two-sided" else p
            se = self._law.pvalue_se(p)
            upper = None if confidence is None else self._bound(k, alternative, confidence)
        elif self.has_law:
            p = self._pvalue(t, alternative, plus_one)
            se = self._law.pvalue_se(p)
        elif self.has_tail:
            p = self._pvalue(t, alternative, plus_one)
            se = p * self._law.relative_se(t, alternative)
        else:
            p = se = math.nan
        z = self._zscore(t) if self.has_variance else math.nan  # moments without a variance
        best = self.index.optimum
        centers = (() if not math.isfinite(best)  # no fixed optimum: adjust(..., optimum=)
                   or not getattr(self._law, "has_mean", True)
                   else ("mean", "median") if self.has_law else ("mean",))
        adjusted = {c: self._adjust(t, self.mean if c == "mean" else self.median, best)
                    for c in centers}
        return {"pvalue": p, "pvalue_se": se, "zscore": z, "adjusted": adjusted,
                "n_extreme": k, "pvalue_upper": upper}

    # -- display ---------------------------------------------------------------------------
    def describe(self) -> str:
        """How this law was obtained, in words: the model, the method and its size and seed.

        Returns
        -------
        str
            E.g. "both margins fixed (permutation model); 17,000 Patefield tables; seed 1".
        """
        rec = self.method_record
        how = rec.describe(self) if rec.describe is not None else rec.description
        if self.details.get("auto"):
            how += " (chosen by method='auto')"
        seed = self.details.get("seed")
        return f"{self.model_record.title}; {how}" + (f"; seed {seed}" if seed is not None
                                                        else "")

    def summary(self) -> pd.Series:
        """The null part of the package's result schema.

        Returns
        -------
        Series
            null_mean, null_median, null_sd, null_skewness, model, method and n_sim (NA where
            this null cannot give it), named after the index.
        """
        sd = self.std if self.has_variance else pd.NA
        full = self.has_law
        return pd.Series({
            "null_mean": self.mean,
            "null_median": self.median if full else pd.NA,
            "null_sd": sd,
            "null_skewness": self.skewness if full else pd.NA,
            "model": self.model, "method": self.method,
            "n_sim": self.n_sim if self.n_sim is not None else pd.NA,
        }, name=self.index.name)

    def __repr__(self) -> str:
        head = (f"NullDistribution({self.index.name}, method={self.method!r}, "
                f"model={self.model!r}, {self._law.what()})")
        objects = [f"objects: {self.details['objects']}"] if "objects" in self.details else []
        return "\n".join([head, *objects, *rows_lines(law_rows(self))])

    def _repr_html_(self) -> str:
        """Jupyter: the summary as a table and, when the law is known, its plot."""
        return law_html(self, self._law.kind)

    def plot(self, observed: float | None = None, ax=None, bins="auto"):
        """The null law with its mean and median (and the observed value) marked.

        Parameters
        ----------
        observed : float, optional
            Mark this value (a red line; an arrow at the edge when it lies far outside the
            law).
        ax : matplotlib Axes, optional
            Draw here (default: a new figure).
        bins : int, sequence or str, default "auto"
            The histogram's bins (samples only; seaborn's ``histplot``).

        Returns
        -------
        matplotlib Axes
            A histogram of the samples or the pmf of an exact law.
        """
        self._need_law("a plot")
        return plot_null(self, observed, ax=ax, bins=bins)


def test_figures(nd: NullDistribution, t: float, alternative: str, plus_one: bool = True,
                 confidence: float | None = None) -> dict:
    """Every figure of a test of ``t`` against ``nd``, each computed once, for a caller that
    checked ``alternative`` where it entered (``agreement_test``, ``compare``;
    ``NullDistribution.test`` checks it and calls this).

    Parameters
    ----------
    nd : NullDistribution
        The null law.
    t : float
        The observed value (refused when it is not a number, or nan).
    alternative : {"greater", "less", "two-sided"}
        Checked by the caller.
    plus_one : bool, default True
        As in ``NullDistribution.pvalue``.
    confidence : float, optional
        The level of ``pvalue_upper`` (Monte Carlo laws); None: no bound.

    Returns
    -------
    dict
        "pvalue", "pvalue_se" (NaN without a law), "zscore" (NaN without a variance),
        "adjusted" (centre -> adjusted value), and for a Monte Carlo law "n_extreme" (the tail
        count, made once: p and the bound are read off it) and "pvalue_upper" (None otherwise).
    """
    return nd._figures(_check_observed(t), alternative, plus_one, confidence)


def check_center(center):
    """"mean", "median" or a quantile in [0, 1] (as a float)."""
    if isinstance(center, str) and center in ("mean", "median"):
        return center
    if isinstance(center, numbers.Real) and not isinstance(center, bool) and 0 <= center <= 1:
        return float(center)
    raise ValueError(f"center must be 'mean', 'median' or a quantile in [0, 1], got {center!r}")


def _check_observed(observed) -> float:
    if isinstance(observed, bool) or not isinstance(observed, numbers.Real):
        arr = np.asarray(observed)
        if arr.ndim == 0 and np.issubdtype(arr.dtype, np.number):
            observed = float(arr)
        else:
            raise TypeError(f"observed must be a number, got {type(observed).__name__}")
    t = float(observed)
    if math.isnan(t):
        raise ValueError("observed is nan")
    return t


def _check_confidence(confidence) -> float:
    """A confidence level strictly between 0 and 1."""
    level = check_real(confidence, "confidence", "a confidence level in (0, 1)")
    if not 0 < level < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence!r}")
    return level
