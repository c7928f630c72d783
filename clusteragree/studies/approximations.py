"""The study behind the regression-approximations report: the null means of the paired
indices over the thesis' design, the published regressions refitted on them, the errors of
every approximation, and the observed, null and adjusted values on tables of an agreement model.

The approximations themselves, Albatineh & Niewiadomska-Bugaj's published quadratic regressions
and the exact identities J = C/(2-C), GL = 2R/(1+R), SS2 = C/(4-3C) with their delta-method
correction, are the core's: ``clusteragree.nulls.approximations``. This module re-exports them
(``PUBLISHED``, ``PUBLISHED_MAX_ERROR``, ``IDENTITIES``, ``TARGETS``, ``QuadraticFit``,
``approximate_null_mean``, ``identity_null_mean``), so the study reads as one namespace.

{ref:albatineh2011}, fitted their regressions on simulated data (500 objects, five
balanced clusters). Here ``design_null_means`` computes the null means over the design of
{ref:amorim2015}, Ch.4 (K = 2, 3, 4 clusters, balanced or unbalanced weights, several n): exact
where the exact law fits the budget, else Monte Carlo with a control variate. ``fit_approximations``
refits the regressions on them (statsmodels OLS), ``approximation_errors`` compares the
published fit, the refitted one, the identity plug-in and the identity with the delta method,
and ``simulated_agreement`` with ``correlations`` relates the indices' null means, observed and
adjusted values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral

import numpy as np
import pandas as pd

from .._docs import fill, fill_doc
from .._validate import check_bool, check_choice, check_positive_int, check_real, check_seed
from ..indices import GROUPS
from ..nulls import NullSpec, null_distributions
from ..nulls.approximations import (IDENTITIES, PUBLISHED, PUBLISHED_MAX_ERROR, TARGETS,
                                    QuadraticFit, check_fits, approximate_null_mean,
                                    identity_null_mean)
from .grid import run_grid
from .simulate import BALANCE, THESIS_WEIGHTS, random_margins
from ..tables import margin_table

__doc__ = fill(__doc__)

__all__ = [
    "APPROACHES",
    "IDENTITIES",
    "LINEAR",
    "PAIRED",
    "PUBLISHED",
    "PUBLISHED_MAX_ERROR",
    "TARGETS",
    "QuadraticFit",
    "Refit",
    "agreement_table",
    "approximate_null_mean",
    "approximation_errors",
    "approximation_residuals",
    "correlations",
    "design_null_means",
    "fit_approximations",
    "identity_null_mean",
    "margin_null_means",
    "simulated_agreement",
]

#: The thesis' eight paired indices, and those among them with a closed-form null mean.
PAIRED: tuple[str, ...] = GROUPS["paired"]
LINEAR: tuple[str, ...] = ("rand", "czekanowski", "fowlkes_mallows")

#: The four approximations compared by ``approximation_errors``.
APPROACHES = ("published regression", "refitted regression", "identity (plug-in)",
              "identity + delta")


# -- null means over the thesis' design ---------------------------------------------------------

def _check_margins(rows, cols):
    out = []
    for name, m in (("rows", rows), ("cols", cols)):
        arr = np.asarray(m)
        if arr.ndim != 1 or arr.size == 0 or not np.issubdtype(arr.dtype, np.number):
            raise ValueError(f"{name} must be a 1-D sequence of cluster sizes, got {m!r}")
        if np.any(arr != np.round(arr)) or np.any(arr <= 0):
            raise ValueError(f"{name} must hold positive whole numbers (cluster sizes), got {m!r}")
        out.append(arr.astype(np.int64))
    if out[0].sum() != out[1].sum():
        raise ValueError(f"rows and cols must count the same objects: {int(out[0].sum())} != "
                         f"{int(out[1].sum())}")
    if out[0].sum() < 2:
        raise ValueError("the paired indices need at least 2 objects (a pair)")
    return out


def _control_variate(y, x, mu):
    """The Monte Carlo mean of y with x (exact mean mu) as control variate:
    mean(y) - beta (mean(x) - mu), beta = cov(x, y) / var(x); returns (mean, s.e.)."""
    vx = x.var()
    beta = ((x - x.mean()) * (y - y.mean())).mean() / vx if vx > 0 else 0.0
    resid = y - beta * x
    return float(y.mean() - beta * (x.mean() - mu)), float(resid.std(ddof=1) / math.sqrt(y.size))


@fill_doc
def margin_null_means(rows, cols, *, n_sim: int = 17_000, seed=None,
                      max_work: int = 2_000_000) -> dict:
    """Null means (permutation model: both margins fixed) of the eight paired indices.

    The tables have row margins ``rows`` and column margins ``cols``. The means of Rand,
    Czekanowski and Fowlkes-Mallows are always the exact closed forms (hypergeometric); the
    others come from the exact law (dynamic programme on s) when its estimated size fits
    ``max_work`` (``method="auto"``), else from ``n_sim`` Patefield tables. Every paired index is a function of s given the margins and E[s] is known, so
    the Monte Carlo means use Czekanowski (affine in s) as control variate,
    mean(I) - beta (mean(C) - E[C]) with beta the sample regression slope: an estimate whose
    standard error is that of the residual I - beta C, far below the plain mean's.

    Parameters
    ----------
    rows, cols : array-like of int
        The row and column margins (cluster sizes): positive whole numbers with equal totals
        (at least 2 objects).
    n_sim : int, default 17000
        The number of Patefield tables when the exact law does not fit ``max_work``.
    %(seed)s
    max_work : int, default 2000000
        The largest dynamic programme on s computed exactly (``NullSpec.max_work``).

    Returns
    -------
    dict
        ``method`` ("exact" or "patefield"), ``n_sim`` (None when exact), ``mean_<index>``,
        ``se_<index>`` (0 when exact), ``mean_plain_<index>`` and ``se_plain_<index>`` (the
        plain Monte Carlo mean and its s.e.), and the exact null variances ``var_rand`` and
        ``var_czekanowski``.

    Raises
    ------
    ValueError
        Margins that are not positive whole numbers with equal totals, or fewer than 2
        objects.

    See Also
    --------
    design_null_means : These means over the thesis' design.
    clusteragree.nulls.null_distributions : The null laws they come from.

    References
    ----------
    {ref:amorim2015}, ch. 4 and Table 8.

    Examples
    --------
    >>> out = margin_null_means([30, 50], [40, 40])
    >>> out["method"], round(out["mean_jaccard"], 5)   # Amorim (2015), Table 8: 0.34143
    ('exact', 0.34143)
    """
    rows, cols = _check_margins(rows, cols)
    n_sim = check_positive_int(n_sim, "n_sim", minimum=2)
    max_work = check_positive_int(max_work, "max_work")
    rng = check_seed(seed)
    tab = margin_table(rows, cols)
    closed = null_distributions(tab, list(LINEAR), "hypergeometric")
    laws = null_distributions(tab, list(PAIRED), NullSpec(method="auto", max_work=max_work),
                              n_sim=n_sim, seed=rng)
    method = laws["jaccard"].method
    out = {"method": method, "n_sim": laws["jaccard"].n_sim}
    mu_c = closed["czekanowski"].mean
    for name in PAIRED:
        nd = laws[name]
        if name in LINEAR:
            mean, se = closed[name].mean, 0.0
            plain, plain_se = nd.mean, nd.mean_se  # the law's own mean (exact or sampled)
        elif nd.samples is None:
            mean, se, plain, plain_se = nd.mean, 0.0, nd.mean, 0.0
        else:
            mean, se = _control_variate(nd.samples, laws["czekanowski"].samples, mu_c)
            plain, plain_se = nd.mean, nd.mean_se
        out.update({f"mean_{name}": mean, f"se_{name}": se, f"mean_plain_{name}": plain,
                    f"se_plain_{name}": plain_se})
    out["var_rand"] = closed["rand"].var
    out["var_czekanowski"] = closed["czekanowski"].var
    return out


def _check_design(n_values, ks, balances):
    def seq(value, name):
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise TypeError(f"{name} must be a sequence, got {value!r}")
        value = tuple(value)
        if not value:
            raise ValueError(f"{name} is empty")
        return value
    ks = seq(ks, "ks")
    for k in ks:
        if isinstance(k, bool) or not isinstance(k, Integral) or k not in THESIS_WEIGHTS:
            raise ValueError(f"ks must hold numbers of clusters among {sorted(THESIS_WEIGHTS)} "
                             f"(the thesis' design), got {k!r}")
    balances = tuple(check_choice(b, "balances", BALANCE) for b in seq(balances, "balances"))
    n_values = tuple(check_positive_int(n, "n_values", minimum=max(ks))
                     for n in seq(n_values, "n_values"))
    return n_values, ks, balances


@fill_doc
def design_null_means(reps: int = 10, n_values=(500, 800, 1100), ks=(2, 3, 4),
                      balances=BALANCE, *, n_sim: int = 17_000, seed=1,
                      max_work: int = 2_000_000, progress: bool = False) -> pd.DataFrame:
    """Null means (permutation model) of the paired indices over the thesis' design.

    For each cell K x balance x n (weights of Amorim 2015, Ch.4 Table 9) and each of ``reps``
    margin draws (``clusteragree.studies.simulate.random_margins``; one SeedSequence per draw
    spawned from ``seed``, ``grid.run_grid``'s "spawn" seeding: a cell's first draws do not
    depend on ``reps``), the null means of ``margin_null_means``: exact when the exact law
    fits ``max_work``, else ``n_sim`` Patefield tables with a control variate (the means of
    R, C and Fowlkes-Mallows are exact closed forms always).

    Parameters
    ----------
    reps : int, default 10
        Margin draws per cell of the design.
    n_values : sequence of int, default (500, 800, 1100)
        The numbers of objects n.
    ks : sequence of int, default (2, 3, 4)
        The numbers of clusters K (those of the thesis' design).
    balances : sequence of str, default ("balanced", "unbalanced")
        The cluster weights of the thesis' design (``simulate.BALANCE``).
    n_sim : int, default 17000
        Patefield tables per draw when the exact law does not fit ``max_work``.
    %(seed)s
        Default 1.
    max_work : int, default 2000000
        The largest dynamic programme on s computed exactly.
    %(progress)s

    Returns
    -------
    DataFrame
        One row per margin draw: ``k``, ``balance``, ``n``, ``rep``, ``rows``, ``cols``
        (the margins as text), ``method``, ``n_sim`` and the columns of
        ``margin_null_means``.

    See Also
    --------
    margin_null_means : The null means of one pair of margins.
    fit_approximations : The regressions refitted on these means.
    approximation_errors : The errors of the approximations on them.

    References
    ----------
    {ref:amorim2015}, ch. 4, Table 9.

    {ref:albatineh2011}.

    Examples
    --------
    >>> frame = design_null_means(1, n_values=(60,), ks=(2,), balances=("balanced",), seed=1)
    >>> frame[["k", "n", "method"]].to_dict("records")
    [{'k': 2, 'n': 60, 'method': 'exact'}]
    """
    reps = check_positive_int(reps, "reps")
    n_sim = check_positive_int(n_sim, "n_sim", minimum=2)
    max_work = check_positive_int(max_work, "max_work")
    check_bool(progress, "progress")
    n_values, ks, balances = _check_design(n_values, ks, balances)

    def draw(cell):
        k, balance, n = cell.levels["k"], cell.levels["balance"], cell.levels["n"]
        margin_seed, null_seed = cell.seed.spawn(2)
        rows, cols = random_margins(k, balance, n, seed=margin_seed)
        rec = {"k": k, "balance": balance, "n": n, "rep": cell.rep,
               "rows": " ".join(map(str, rows)), "cols": " ".join(map(str, cols))}
        rec.update(margin_null_means(rows, cols, n_sim=n_sim, seed=null_seed,
                                     max_work=max_work))
        return rec

    records = run_grid(draw, {"k": ks, "balance": balances, "n": n_values}, reps, seed,
                       progress=progress, desc="null means", unit="draw")
    frame = pd.DataFrame.from_records(records)
    frame["n_sim"] = frame["n_sim"].astype("Int64")
    return frame


# -- regressions -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Refit:
    """The refitted regressions: what ``fit_approximations`` returns.

    Wherever a fit is asked for (``approximate_null_mean``, ``approximation_errors``), a
    ``Refit`` stands for its ``fits``.

    Parameters
    ----------
    coefficients : DataFrame
        One row per target and term: target, predictor, term ("x^2", "x", "1"), estimate,
        std_err, ci_low, ci_high, published (the published coefficient).
    summary : DataFrame
        One row per target: target, predictor, r_squared, resid_sd, n_points.
    fits : dict
        The fits, target -> ``QuadraticFit``.

    See Also
    --------
    fit_approximations : The refit.
    QuadraticFit : One fit.

    Examples
    --------
    >>> x = np.linspace(0.2, 0.6, 9)
    >>> frame = pd.DataFrame({"mean_czekanowski": x, "mean_jaccard": 0.5 * x**2 + 0.3 * x + 0.02})
    >>> refit = fit_approximations(frame, targets=["jaccard"])
    >>> refit.summary[["target", "predictor", "n_points"]].to_dict("records")
    [{'target': 'jaccard', 'predictor': 'czekanowski', 'n_points': 9}]
    >>> refit.coefficients["term"].tolist()
    ['x^2', 'x', '1']
    """

    coefficients: pd.DataFrame
    summary: pd.DataFrame
    fits: dict


_TERMS = ("x^2", "x", "1")


def _need_columns(frame, columns):
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a DataFrame (design_null_means), got "
                        f"{type(frame).__name__}")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"frame lacks the columns {missing} (a design_null_means frame has "
                         "them)")


@fill_doc
def fit_approximations(frame: pd.DataFrame, targets=TARGETS, confidence: float = 0.95) -> Refit:
    """Refit the published quadratic regressions of the null means.

    Ordinary least squares (statsmodels) of each target's null mean on its predictor's,
    E[T] = a x^2 + b x + c, over the rows of a ``design_null_means`` frame (the published
    fits: Albatineh & Niewiadomska-Bugaj 2011).

    Parameters
    ----------
    frame : DataFrame
        Null means, one row per table: the columns ``mean_<target>`` and
        ``mean_<predictor>`` (a ``design_null_means`` frame has them); at least 4 rows.
    targets : str or sequence of str, default TARGETS
        The indices refitted, among "jaccard", "gower_legendre" and "sokal_sneath2".
    confidence : float, default 0.95
        The level of the coefficients' confidence intervals, in (0, 1).

    Returns
    -------
    Refit
        ``coefficients`` (target, predictor, term, estimate, std_err, ci_low, ci_high at
        ``confidence``, published), ``summary`` (target, predictor, r_squared, resid_sd,
        n_points) and ``fits``.

    Raises
    ------
    ValueError
        An unknown target, a confidence outside (0, 1), missing columns or fewer than 4
        rows.

    See Also
    --------
    design_null_means : The null means refitted.
    approximation_errors : The refitted fits compared with the others.
    clusteragree.nulls.approximations.PUBLISHED : The published fits.

    References
    ----------
    {ref:albatineh2011}.

    {ref:amorim2015}, eqs 19-21.

    Examples
    --------
    >>> x = np.linspace(0.2, 0.6, 9)
    >>> frame = pd.DataFrame({"mean_czekanowski": x, "mean_jaccard": 0.5 * x**2 + 0.3 * x + 0.02})
    >>> refit = fit_approximations(frame, targets=["jaccard"])
    >>> np.round(refit.fits["jaccard"].coef, 6).tolist()
    [0.5, 0.3, 0.02]
    """
    try:
        import statsmodels.api as sm
    except ImportError:  # pragma: no cover - an installation problem
        raise ImportError("fit_approximations needs statsmodels: pip install statsmodels") \
            from None
    if isinstance(targets, str):
        targets = [targets]
    targets = [check_choice(t, "targets", list(PUBLISHED)) for t in targets]
    confidence = check_real(confidence, "confidence", "a probability")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    _need_columns(frame, [f"mean_{n}" for t in targets for n in (t, PUBLISHED[t].predictor)])
    if len(frame) < 4:
        raise ValueError(f"a quadratic fit with a residual variance needs at least 4 rows, "
                         f"frame has {len(frame)}")
    coefs, summary, fits = [], [], {}
    for t in targets:
        pred = PUBLISHED[t].predictor
        x = frame[f"mean_{pred}"].to_numpy(float)
        y = frame[f"mean_{t}"].to_numpy(float)
        X = np.column_stack([x ** 2, x, np.ones_like(x)])
        res = sm.OLS(y, X).fit()
        ci = res.conf_int(alpha=1 - confidence)
        for i, term in enumerate(_TERMS):
            coefs.append({"target": t, "predictor": pred, "term": term,
                          "estimate": res.params[i], "std_err": res.bse[i],
                          "ci_low": ci[i, 0], "ci_high": ci[i, 1],
                          "published": PUBLISHED[t].coef[i]})
        summary.append({"target": t, "predictor": pred, "r_squared": res.rsquared,
                        "resid_sd": math.sqrt(res.scale), "n_points": int(res.nobs)})
        fits[t] = QuadraticFit(t, pred, tuple(float(v) for v in res.params),
                               f"OLS on {int(res.nobs)} design null means")
    return Refit(pd.DataFrame(coefs), pd.DataFrame(summary), fits)


def approximation_residuals(frame: pd.DataFrame, fits) -> pd.DataFrame:
    """Every approximation of every target's null mean on every row of a design frame.

    Each approximation is compared with the row's exact (or Monte Carlo) mean: the published
    fit, the refitted one, the identity plug-in g(mu) and the identity with the delta-method
    correction g(mu) + g''(mu) Var / 2 (``APPROACHES``).

    Parameters
    ----------
    frame : DataFrame
        A ``design_null_means`` frame (k, balance, n, method and the means, s.e. and
        variances of the targets and their predictors).
    fits : Refit, dict or QuadraticFit
        The refitted regressions: ``fit_approximations``'s result, a dict target ->
        QuadraticFit, or one QuadraticFit; the targets compared are those it fits.

    Returns
    -------
    DataFrame
        A long frame, one row per table, target and approach: row, k, balance, n, method,
        target, predictor, x (the predictor's exact mean), truth, truth_se, approach,
        approximation, error (approximation - truth).

    Raises
    ------
    ValueError
        ``fits`` fits none of the targets, or ``frame`` lacks columns.

    See Also
    --------
    approximation_errors : The errors summarised per target and approach.

    Examples
    --------
    >>> frame = design_null_means(1, n_values=(60,), ks=(2,), balances=("balanced",), seed=1)
    >>> res = approximation_residuals(frame, PUBLISHED)
    >>> res.shape, sorted(set(res["approach"])) == sorted(APPROACHES)
    ((12, 13), True)
    """
    fits = check_fits(fits)
    targets = [t for t in TARGETS if t in fits]
    if not targets:
        raise ValueError(f"fits has no fit of {list(TARGETS)}")
    _need_columns(frame, ["k", "balance", "n", "method"] +
                  [c for t in targets for c in (f"mean_{t}", f"se_{t}",
                                                f"mean_{IDENTITIES[t].predictor}",
                                                f"var_{IDENTITIES[t].predictor}")])
    parts = []
    for t in targets:
        ident = IDENTITIES[t]
        x = frame[f"mean_{ident.predictor}"].to_numpy(float)
        var = frame[f"var_{ident.predictor}"].to_numpy(float)
        approx = {
            "published regression": PUBLISHED[t](x),
            "refitted regression": fits[t](frame[f"mean_{fits[t].predictor}"].to_numpy(float)),
            "identity (plug-in)": ident.g(x),
            "identity + delta": ident.g(x) + ident.g2(x) * var / 2,
        }
        for approach in APPROACHES:
            part = frame[["k", "balance", "n", "method"]].copy()
            part.insert(0, "row", np.arange(len(frame)))
            part["target"], part["predictor"], part["x"] = t, ident.predictor, x
            part["truth"] = frame[f"mean_{t}"].to_numpy(float)
            part["truth_se"] = frame[f"se_{t}"].to_numpy(float)
            part["approach"] = approach
            part["approximation"] = approx[approach]
            part["error"] = part["approximation"] - part["truth"]
            parts.append(part)
    return pd.concat(parts, ignore_index=True)


def approximation_errors(frame: pd.DataFrame, fits) -> pd.DataFrame:
    """The errors of the approximate null means, per target and approach.

    For each target and approach (``APPROACHES``): the largest and the mean absolute error of
    the approximate null means over the rows of a ``design_null_means`` frame, the largest
    over the rows whose means are exact laws (NA if none), and the largest Monte Carlo s.e.
    of the reference means (errors below it are not resolved).

    Parameters
    ----------
    frame : DataFrame
        A ``design_null_means`` frame.
    fits : Refit, dict or QuadraticFit
        The refitted regressions (``fit_approximations``'s result, a dict target ->
        QuadraticFit, or one QuadraticFit).

    Returns
    -------
    DataFrame
        Indexed by (target, approach), with the columns max_abs_error, mean_abs_error,
        max_abs_error_exact and max_reference_se.

    See Also
    --------
    approximation_residuals : The error on every row.
    fit_approximations : The refitted regressions.

    Examples
    --------
    >>> frame = design_null_means(1, n_values=(60, 90), ks=(2,), seed=1)
    >>> errors = approximation_errors(frame, PUBLISHED)
    >>> bool((errors.loc["jaccard", "identity + delta"].max_abs_error
    ...       < errors.loc["jaccard", "published regression"].max_abs_error))
    True
    """
    res = approximation_residuals(frame, fits)
    res["abs_error"] = res["error"].abs()
    res["exact_abs"] = res["abs_error"].where(res["method"] == "exact")
    out = res.groupby(["target", "approach"], sort=False).agg(
        max_abs_error=("abs_error", "max"), mean_abs_error=("abs_error", "mean"),
        max_abs_error_exact=("exact_abs", "max"), max_reference_se=("truth_se", "max"))
    return out


# -- observed, null and adjusted values on simulated tables -------------------------------------

@fill_doc
def agreement_table(rows, weights, keep: float, seed=None) -> np.ndarray:
    """An observed table of the agreement model.

    The objects of class i (``rows[i]`` of them) each keep their class as cluster label with
    probability ``keep``, else take a label drawn from ``weights``; empty clusters (columns)
    are dropped.

    Parameters
    ----------
    rows : array-like of int
        The class sizes (the row margins): positive whole numbers, at least 2 objects.
    weights : array-like of float
        The probabilities of the cluster labels an object that does not keep its class
        takes, one per class, summing to 1.
    keep : float
        The probability that an object keeps its class as label, in [0, 1].
    %(seed)s

    Returns
    -------
    ndarray of int
        The K x Q table of counts (classes x non-empty clusters).

    Raises
    ------
    ValueError
        Bad class sizes, weights or ``keep``.

    See Also
    --------
    simulated_agreement : Null means and adjusted values on such tables.

    Examples
    --------
    >>> agreement_table([5, 5], [0.5, 0.5], keep=0.5, seed=1).tolist()
    [[3, 2], [1, 4]]
    >>> agreement_table([5, 5], [0.5, 0.5], keep=1.0, seed=1).tolist()
    [[5, 0], [0, 5]]
    """
    rows, _ = _check_margins(rows, rows)
    w = np.asarray(weights, dtype=float)
    if w.ndim != 1 or w.size != rows.size or np.any(w < 0) or not np.isclose(w.sum(), 1.0):
        raise ValueError(f"weights must be {rows.size} probabilities summing to 1, got "
                         f"{weights!r}")
    keep = check_real(keep, "keep", "a probability")
    if not 0 <= keep <= 1:
        raise ValueError(f"keep must be in [0, 1], got {keep}")
    rng = check_seed(seed)
    kept = rng.binomial(rows, keep)
    tab = rng.multinomial(rows - kept, w)
    tab[np.arange(rows.size), np.arange(rows.size)] += kept
    return tab[:, tab.sum(axis=0) > 0]


@fill_doc
def simulated_agreement(reps: int = 10, n_values=(500, 800, 1100), ks=(2, 3, 4),
                        balances=BALANCE, *, keep_range=(0.1, 0.9), n_sim: int = 17_000,
                        method: str = "patefield", seed=1,
                        progress: bool = False) -> pd.DataFrame:
    """Observed values, null means and mean-adjusted values of the paired indices on tables
    drawn from an agreement model, ``reps`` per cell K x balance x n of the thesis' design.

    Each table: class sizes from ``random_margins`` (the rows); a probability ``keep`` drawn
    from U(``keep_range``); every object keeps its class as cluster label with probability
    ``keep``, else takes a label drawn from the scenario's weights (``agreement_table``).
    One ``ca.compare`` call per table (permutation model; ``method`` "patefield" with
    ``n_sim`` tables, or "exact" / "auto") gives the null means and the adjusted values
    (I - E[I]) / (1 - E[I]).

    Parameters
    ----------
    reps : int, default 10
        Tables per cell of the design.
    n_values : sequence of int, default (500, 800, 1100)
        The numbers of objects n.
    ks : sequence of int, default (2, 3, 4)
        The numbers of classes K (those of the thesis' design).
    balances : sequence of str, default ("balanced", "unbalanced")
        The class and cluster weights of the thesis' design (``simulate.BALANCE``).
    keep_range : tuple of float, default (0.1, 0.9)
        The interval (low, high) in [0, 1] of the uniform law of ``keep``.
    n_sim : int, default 17000
        Patefield tables per null law (``method="patefield"`` or "auto").
    method : {"patefield", "exact", "auto"}, default "patefield"
        How the null means are obtained (``ca.compare``).
    %(seed)s
        Default 1.
    %(progress)s

    Returns
    -------
    DataFrame
        One row per table: k, balance, n, rep, keep, method, n_sim and
        ``observed_<index>``, ``null_mean_<index>``, ``adjusted_<index>`` for the eight
        indices.

    See Also
    --------
    agreement_table : One table of the agreement model.
    correlations : The correlations of these columns.
    clusteragree.compare : The indices, null means and adjusted values of a table.

    References
    ----------
    {ref:amorim2015}, ch. 4.

    Examples
    --------
    >>> frame = simulated_agreement(1, n_values=(40,), ks=(2,), balances=("balanced",),
    ...                             n_sim=200, seed=1)
    >>> frame.shape
    (1, 31)
    """
    from ..inference import compare

    reps = check_positive_int(reps, "reps")
    n_sim = check_positive_int(n_sim, "n_sim", minimum=2)
    check_choice(method, "method", ("patefield", "exact", "auto"))
    check_bool(progress, "progress")
    if (not isinstance(keep_range, (tuple, list)) or len(keep_range) != 2
            or not 0 <= check_real(keep_range[0], "keep_range[0]") <=
            check_real(keep_range[1], "keep_range[1]") <= 1):
        raise ValueError(f"keep_range must be (low, high) with 0 <= low <= high <= 1, got "
                         f"{keep_range!r}")
    n_values, ks, balances = _check_design(n_values, ks, balances)

    def draw(cell):
        k, balance, n = cell.levels["k"], cell.levels["balance"], cell.levels["n"]
        model_seed, null_seed = cell.seed.spawn(2)
        rng = np.random.default_rng(model_seed)
        rows, _ = random_margins(k, balance, n, seed=rng)
        keep = float(rng.uniform(*keep_range))
        tab = agreement_table(rows, THESIS_WEIGHTS[k][balance], keep, seed=rng)
        df = compare(tab, indices="paired", method=method, n_sim=n_sim, seed=null_seed,
                     interval=None)
        rec = {"k": k, "balance": balance, "n": n, "rep": cell.rep, "keep": keep,
               "method": df["method"].iloc[0], "n_sim": df["n_sim"].iloc[0]}
        for name in PAIRED:
            rec[f"observed_{name}"] = float(df.at[name, "statistic"])
            rec[f"null_mean_{name}"] = float(df.at[name, "null_mean"])
            rec[f"adjusted_{name}"] = float(df.at[name, "adjusted_mean"])
        return rec

    records = run_grid(draw, {"k": ks, "balance": balances, "n": n_values}, reps, seed,
                       progress=progress, desc="agreement tables", unit="table")
    frame = pd.DataFrame.from_records(records)
    frame["n_sim"] = frame["n_sim"].astype("Int64")
    return frame


_QUANTITIES = {"null mean": "null_mean", "observed": "observed", "adjusted": "adjusted"}


def correlations(frame: pd.DataFrame, method: str = "pearson") -> pd.DataFrame:
    """Correlations between the null means, observed and adjusted values of the paired indices.

    Computed across the tables of a ``simulated_agreement`` frame.

    Parameters
    ----------
    frame : DataFrame
        A ``simulated_agreement`` frame (the columns ``observed_<index>``,
        ``null_mean_<index>``, ``adjusted_<index>``), at least 3 tables, no column constant.
    method : {"pearson", "spearman"}, default "pearson"
        The correlation coefficient.

    Returns
    -------
    DataFrame
        A square matrix of correlations whose rows and columns are (quantity, index), with
        quantity "null mean", "observed" or "adjusted".

    Raises
    ------
    ValueError
        Missing columns, fewer than 3 tables, or a constant column.

    See Also
    --------
    simulated_agreement : The tables.

    Examples
    --------
    >>> frame = simulated_agreement(2, n_values=(40,), ks=(2, 3), n_sim=200, seed=1)
    >>> correlations(frame, "spearman").shape
    (24, 24)
    """
    method = check_choice(method, "method", ("pearson", "spearman"))
    cols = [f"{p}_{n}" for p in _QUANTITIES.values() for n in PAIRED]
    _need_columns(frame, cols)
    if len(frame) < 3:
        raise ValueError(f"correlations need at least 3 tables, frame has {len(frame)}")
    values = frame[cols].astype(float)
    const = [c for c in cols if values[c].nunique() < 2]
    if const:
        raise ValueError(f"columns {const} are constant across the tables: their correlations "
                         "are undefined")
    out = values.corr(method=method)
    labels = pd.MultiIndex.from_tuples([(q, n) for q in _QUANTITIES for n in PAIRED],
                                       names=["quantity", "index"])
    out.index = labels
    out.columns = labels
    return out
