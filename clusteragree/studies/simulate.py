"""Scenarios of the thesis' simulation design: cluster weights, sizes and Gaussian mixtures.

{ref:amorim2015}, Ch.4 Table 9: K in {2, 3, 4} latent groups (with p = K variables and n = 500, 800
and 1100 objects), balanced or unbalanced weights, and three degrees of separation: average
pairwise overlap about 0.6 (poorly), 0.15 (moderately) and 0.02 (well separated clusters);
30 data sets in each of the 2 x 3 x 3 = 18 scenarios, 540 in all, generated with the R package
MixSim (Melnykov, Chen & Maitra 2012, "MixSim: an R package for simulating data to study
performance of clustering algorithms", Journal of Statistical Software 51).

``random_margins`` draws the margins of a cross table as the design produces them: the classes'
sizes are a multinomial draw of n objects with the scenario's weights, and so are the sizes of
the clusters an algorithm finds (an independent draw: under the null the clustering does not
know the classes).

``mixture`` draws a data set of a scenario the way MixSim does (Maitra & Melnykov 2010,
"Simulating data to study performance of finite mixture modeling and clustering algorithms",
Journal of Computational and Graphical Statistics 19): means uniform in the unit hypercube,
covariances the sample covariance of p + 1 standard normal vectors with eccentricity
sqrt(1 - lambda_min / lambda_max) at most 0.9, and a scale c on the means (mu -> c mu) found by
root finding (``scipy.optimize.brentq`` on log c) so that the average pairwise overlap
(``clusteragree.studies.mixture_overlap``) is the target; parameters whose overlap cannot reach the
target even with all means equal are drawn again, as MixSim does (its ``resN`` allows 100
draws; here 1000: with balanced weights, K = 4 and target 0.6 only about 4 % of draws can
reach it, about 30-60 % for the other poorly separated scenarios, all for the others).
``design`` lists the 540 data sets, one seed each; ``simulate_row`` builds one of them.

Scenario codes follow the thesis (Ch.6): balance (1 balanced, 2 unbalanced), K, separation
(1 poor, 2 moderate, 3 good); "132" is balanced, 3 clusters, moderately separated.

>>> THESIS_WEIGHTS[3]["unbalanced"]
(0.6, 0.3, 0.1)
>>> rows, cols = random_margins(3, "balanced", 800, seed=1)
>>> int(rows.sum()), int(cols.sum()), rows.size
(800, 800, 3)
>>> X, labels, info = mixture(2, "balanced", "good", n=60, seed=1)
>>> X.shape, sorted(set(labels.tolist())), abs(info["overlap"] - 0.02) < 1e-6
((60, 2), [0, 1], True)
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy.optimize import brentq

from .._docs import fill, fill_doc
from .._validate import check_choice, check_positive_int, check_real, check_seed
from .grid import run_grid
from .mixture_overlap import average_overlap_at, pair_terms

__doc__ = fill(__doc__)

__all__ = ["THESIS_WEIGHTS", "THESIS_N", "THESIS_OVERLAP", "BALANCE", "SEPARATION",
           "random_margins", "random_covariance", "mixture", "design", "simulate_row"]

#: K -> balance -> cluster weights (Amorim 2015, Ch.4 Table 9).
THESIS_WEIGHTS: dict[int, dict[str, tuple[float, ...]]] = {
    2: {"balanced": (0.5, 0.5), "unbalanced": (0.3, 0.7)},
    3: {"balanced": (0.3, 0.3, 0.4), "unbalanced": (0.6, 0.3, 0.1)},
    4: {"balanced": (0.25, 0.25, 0.25, 0.25), "unbalanced": (0.5, 0.25, 0.15, 0.10)},
}
#: K -> the number of objects of the thesis' data sets.
THESIS_N = {2: 500, 3: 800, 4: 1100}
BALANCE = ("balanced", "unbalanced")
#: Degree of separation -> target average pairwise overlap (Amorim 2015, Ch.4 Table 9).
THESIS_OVERLAP = {"poor": 0.6, "moderate": 0.15, "good": 0.02}
SEPARATION = ("poor", "moderate", "good")
#: MixSim's default largest eccentricity of a covariance; parameter draws per data set (MixSim:
#: 100; 1000 makes a failure in the balanced K = 4 poorly separated scenario, where about 4 %
#: of draws can reach 0.6, as unlikely as 0.96^1000 ~ 1e-18).
ECCENTRICITY = 0.9
MAX_DRAWS = 1000


def _check_k(k):
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
        raise TypeError(f"k must be a whole number of clusters, got {k!r}")
    if k not in THESIS_WEIGHTS:
        raise ValueError(f"k must be one of {sorted(THESIS_WEIGHTS)} (the thesis' design), "
                         f"got {k!r}")
    return int(k)


@fill_doc
def random_margins(k: int, balance: str, n: int | None = None, seed=None):
    """Row and column margins of a K x K table of the thesis' design.

    Two independent multinomial draws of ``n`` objects with the scenario's weights
    (``THESIS_WEIGHTS[k][balance]``): the classes' sizes and the sizes of the clusters an
    algorithm finds, independent under the null. A draw with an empty cluster is drawn
    again, so every margin is positive.

    Parameters
    ----------
    k : {2, 3, 4}
        The number of clusters.
    balance : {"balanced", "unbalanced"}
        The scenario's cluster weights.
    n : int, optional
        The number of objects (at least k); default the thesis' n for this K
        (``THESIS_N``: 500, 800, 1100).
    %(seed)s

    Returns
    -------
    rows : ndarray of int64, shape (k,)
        The row margins.
    cols : ndarray of int64, shape (k,)
        The column margins.

    See Also
    --------
    clusteragree.tables.margin_table : A table with these margins.
    mixture : A data set of the design.

    References
    ----------
    {ref:amorim2015}, Ch.4 Table 9.

    Examples
    --------
    >>> rows, cols = random_margins(3, "unbalanced", seed=1)
    >>> int(rows.sum()), int(cols.sum()), bool((rows > 0).all())
    (800, 800, True)
    """
    k = _check_k(k)
    balance = check_choice(balance, "balance", BALANCE)
    n = THESIS_N[k] if n is None else check_positive_int(n, "n", minimum=k)
    rng = check_seed(seed)
    weights = np.asarray(THESIS_WEIGHTS[k][balance])
    margins = []
    while len(margins) < 2:
        draw = rng.multinomial(n, weights)
        if (draw > 0).all():
            margins.append(draw.astype(np.int64))
    return margins[0], margins[1]


# -- Gaussian mixtures with a target average overlap ----------------------------------------


@fill_doc
def random_covariance(p: int, seed=None, eccentricity: float = ECCENTRICITY) -> np.ndarray:
    """A random p x p covariance matrix, as MixSim draws one.

    The sample covariance (divisor p) of p + 1 standard normal vectors; if its eccentricity
    e = sqrt(1 - l_min / l_max) exceeds ``eccentricity``, its eigenvalues are moved linearly
    towards the largest, l -> l_max (1 - eccentricity^2 (l_max - l) / (l_max - l_min)), so
    that e = eccentricity.

    Parameters
    ----------
    p : int
        The dimension.
    %(seed)s
    eccentricity : float, default 0.9
        The largest eccentricity, in (0, 1) (MixSim's default 0.9).

    Returns
    -------
    ndarray of float, shape (p, p)
        A symmetric positive definite matrix.

    See Also
    --------
    mixture : Draws one per component.

    References
    ----------
    {ref:maitra2010}.

    {ref:melnykov2012}.

    Examples
    --------
    >>> s = random_covariance(3, seed=1)
    >>> bool(np.allclose(s, s.T)), bool(np.linalg.eigvalsh(s).min() > 0)
    (True, True)
    """
    p = check_positive_int(p, "p")
    ecc = check_real(eccentricity, "eccentricity", "a number in (0, 1)")
    if not 0 < ecc < 1:
        raise ValueError(f"eccentricity must lie in (0, 1), got {ecc}")
    rng = check_seed(seed)
    draws = rng.standard_normal((p + 1, p))
    centred = draws - draws.mean(axis=0)
    cov = centred.T @ centred / p
    vals, vecs = np.linalg.eigh(cov)
    if p > 1 and 1 - vals[0] / vals[-1] > ecc**2:
        vals = vals[-1] * (1 - ecc**2 * (vals[-1] - vals) / (vals[-1] - vals[0]))
        cov = (vecs * vals) @ vecs.T
    return (cov + cov.T) / 2


def _scale_for(terms, target: float, tol: float):
    """(c, average, maximum): the scale c of the means whose average overlap is ``target``
    (within ``tol``), with the overlaps it gives; None when even c = 0 (all means equal) gives
    no more overlap than the target, or no c in [1e-8, 1e8] brackets it."""
    def excess(log_c):
        return average_overlap_at(np.exp(log_c), terms)[0] - target

    if average_overlap_at(0.0, terms)[0] <= target:
        return None
    lo = hi = 0.0                        # log c; search a bracket by factors of 4
    f_lo = f_hi = excess(0.0)
    while f_hi > 0:
        lo, f_lo = hi, f_hi
        hi += np.log(4.0)
        if hi > np.log(1e8):
            return None
        f_hi = excess(hi)
    while f_lo < 0:
        hi, f_hi = lo, f_lo
        lo -= np.log(4.0)
        if lo < np.log(1e-8):
            return None
        f_lo = excess(lo)
    log_c = lo if f_lo == 0 else hi if f_hi == 0 else brentq(excess, lo, hi, xtol=1e-11,
                                                             rtol=1e-14)
    c = float(np.exp(log_c))
    average, maximum = average_overlap_at(c, terms)
    if abs(average - target) > tol:
        raise ArithmeticError(f"root finding reached an average overlap of {average!r} for "
                              f"the target {target!r}, not within tol = {tol!r}")
    return c, average, maximum


def _labels(weights, n: int, rng) -> np.ndarray:
    """Each object's class drawn with the weights (class sizes multinomial); drawn again until
    every class has an object."""
    for _ in range(10_000):
        labels = rng.choice(len(weights), size=n, p=weights)
        if np.bincount(labels, minlength=len(weights)).min() > 0:
            return labels.astype(np.int64)
    raise ValueError(f"n = {n} objects leave a class empty in 10,000 draws; use a larger n")


@fill_doc
def mixture(k: int, balance: str, separation: str, n: int | None = None, p: int | None = None,
            seed=None, overlap: float | None = None, tol: float = 1e-6):
    """A data set of the thesis' design: a Gaussian mixture with a target average overlap.

    The mixture has K components whose average pairwise overlap is the scenario's; n
    objects are drawn from it. Weights ``THESIS_WEIGHTS[k][balance]``; p (default K, as in the thesis) variables; n
    (default ``THESIS_N[k]``) objects; target average overlap ``THESIS_OVERLAP[separation]``
    (0.6, 0.15, 0.02), or ``overlap`` when given. The overlap is MixSim's (Maitra & Melnykov
    2010): omega_ij = omega_{i|j} + omega_{j|i}, omega_{j|i} the probability that an object of
    component i has w_j phi_j > w_i phi_i, averaged over the pairs (see
    ``clusteragree.studies.mixture_overlap``). Means uniform in [0, 1]^p and covariances from
    ``random_covariance`` are drawn, then the means are scaled (mu -> c mu) so that the
    average overlap is the target within ``tol`` (absolute; the overlap is computed to about
    1e-10, and the root finding reaches about 1e-9, so any tol >= 1e-8 is attained); parameters
    that cannot reach it are drawn again (at most ``MAX_DRAWS`` = 1000 times).

    Each object's class is drawn with the weights (so class sizes are multinomial, as in
    ``random_margins``; drawn again until every class has an object); labels are 0..K-1 in
    component order. Parameters and data come from two streams spawned from ``seed``.

    Parameters
    ----------
    k : {2, 3, 4}
        The number of components.
    balance : {"balanced", "unbalanced"}
        The weights, ``THESIS_WEIGHTS[k][balance]``.
    separation : {"poor", "moderate", "good"}
        The target average overlap, ``THESIS_OVERLAP[separation]`` (0.6, 0.15, 0.02).
    n : int, optional
        The number of objects (default ``THESIS_N[k]``).
    p : int, optional
        The number of variables (default k, as in the thesis).
    %(seed)s
    overlap : float, optional
        Another target average overlap, in (0, 1).
    tol : float, default 1e-6
        The absolute tolerance on the achieved average overlap, in [1e-8, 1).

    Returns
    -------
    X : ndarray of float, shape (n, p)
        The data.
    labels : ndarray of int64, shape (n,)
        Each object's component, 0..K-1.
    info : dict
        ``weights``, ``means`` (scaled), ``covariances``, ``overlap`` (the achieved
        average), ``max_overlap``, ``target``, ``scale`` (c) and ``draws`` (the parameter
        draws needed).

    Raises
    ------
    ValueError
        The target not reached in ``MAX_DRAWS`` parameter draws, or bad arguments.

    See Also
    --------
    design : The 540 data sets of the thesis.
    simulate_row : The data set of one row of the design.
    clusteragree.studies.mixture_overlap.overlap : The overlap of a mixture.

    References
    ----------
    {ref:amorim2015}, Ch.4 Table 9.

    {ref:maitra2010}.

    {ref:melnykov2012}.

    Examples
    --------
    >>> X, labels, info = mixture(3, "unbalanced", "moderate", n=90, seed=2)
    >>> X.shape, round(info["overlap"], 6), info["target"]
    ((90, 3), 0.15, 0.15)
    """
    k = _check_k(k)
    balance = check_choice(balance, "balance", BALANCE)
    separation = check_choice(separation, "separation", SEPARATION)
    p = k if p is None else check_positive_int(p, "p")
    n = THESIS_N[k] if n is None else check_positive_int(n, "n", minimum=k)
    if overlap is None:
        target = THESIS_OVERLAP[separation]
    else:
        target = check_real(overlap, "overlap", "an average overlap in (0, 1)")
        if not 0 < target < 1:
            raise ValueError(f"overlap must lie in (0, 1) (an average of pairwise "
                             f"misclassification sums), got {target}")
    tol = check_real(tol, "tol", "a positive tolerance")
    if not 1e-8 <= tol < 1:
        raise ValueError(f"tol must lie in [1e-8, 1) (the overlap is computed to about "
                         f"1e-10), got {tol}")
    param_rng, data_rng = check_seed(seed).spawn(2)
    weights = np.asarray(THESIS_WEIGHTS[k][balance], dtype=float)
    for draw in range(1, MAX_DRAWS + 1):
        means = param_rng.uniform(0.0, 1.0, size=(k, p))
        covs = np.stack([random_covariance(p, param_rng) for _ in range(k)])
        terms = pair_terms(weights, means, covs)
        found = _scale_for(terms, target, tol)
        if found is not None:
            break
    else:
        raise ValueError(f"an average overlap of {target} was not reached in {MAX_DRAWS} "
                         f"draws of the parameters (K = {k}, p = {p}, {balance}); with all "
                         "means equal, the random covariances alone overlap less than that")
    scale, average, maximum = found
    labels = _labels(weights, n, data_rng)
    chol = np.linalg.cholesky(covs)
    noise = np.einsum("nij,nj->ni", chol[labels], data_rng.standard_normal((n, p)))
    X = scale * means[labels] + noise
    info = {"weights": weights, "means": scale * means, "covariances": covs,
            "overlap": average, "max_overlap": maximum, "target": target, "scale": scale,
            "draws": draw}
    return X, labels, info


# -- the 540 data sets ------------------------------------------------------------------------

DESIGN_COLUMNS = ("scenario", "balance", "k", "p", "n", "separation", "target_overlap", "rep",
                  "seed")


@fill_doc
def design(reps: int = 30, seed=1) -> pd.DataFrame:
    """The thesis' 540 data sets (Amorim 2015, Ch.4 Table 9), one row per data set.

    2 balances x 3 K x 3 degrees of separation = 18 scenarios, ``reps`` data sets each.

    Parameters
    ----------
    reps : int, default 30
        Data sets per scenario (the thesis: 30).
    seed : int, SeedSequence or Generator, default 1
        The root of the rows' seeds.

    Returns
    -------
    DataFrame
        Columns ``scenario`` (the thesis' code: balance 1/2, K, separation 1/2/3, e.g.
        "132"), ``balance``, ``k``, ``p`` (= K), ``n``, ``separation``, ``target_overlap``,
        ``rep`` and ``seed``: an integer drawn from ``numpy.random.SeedSequence(seed,
        spawn_key=(balance code, K, separation code, rep))`` (``grid.run_grid``'s "keyed"
        seeding), so a row's data set
        (``simulate_row``) is the same whatever other rows are built, in what order or
        where.

    See Also
    --------
    simulate_row : The data set of a row.
    clusteragree.studies.study.run : Cluster every data set and test the agreement.

    References
    ----------
    {ref:amorim2015}, Ch.4 Table 9.

    Examples
    --------
    >>> d = design(reps=2, seed=1)
    >>> d.shape, d.scenario.nunique(), d.scenario.iloc[0], d.scenario.iloc[-1]
    ((36, 9), 18, '121', '243')
    """
    reps = check_positive_int(reps, "reps")

    def codes(levels):  # the thesis' codes: balance 1/2, K, separation 1/2/3
        return (BALANCE.index(levels["balance"]) + 1, levels["k"],
                SEPARATION.index(levels["separation"]) + 1)

    def row(cell):
        b, k, s = codes(cell.levels)
        row_seed = int(cell.seed.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))
        return (f"{b}{k}{s}", cell.levels["balance"], k, k, THESIS_N[k],
                cell.levels["separation"], THESIS_OVERLAP[cell.levels["separation"]], cell.rep,
                row_seed)

    records = run_grid(row, {"balance": BALANCE, "k": sorted(THESIS_WEIGHTS),
                             "separation": SEPARATION}, reps, seed, seeding="keyed", key=codes)
    frame = pd.DataFrame.from_records(records, columns=list(DESIGN_COLUMNS))
    for col in ("k", "p", "n", "rep", "seed"):
        frame[col] = frame[col].astype(np.int64)
    return frame


def simulate_row(row, tol: float = 1e-6):
    """The data set of one ``design`` row.

    ``mixture(k, balance, separation, n=n, p=p, seed=seed, overlap=target_overlap)`` with the
    row's values.

    Parameters
    ----------
    row : Series or mapping
        A row of ``design()`` (at least k, balance, separation, n, p, seed, target_overlap).
    tol : float, default 1e-6
        As in ``mixture``.

    Returns
    -------
    tuple of (ndarray, ndarray, dict)
        ``(X, labels, info)``, as ``mixture`` returns.

    See Also
    --------
    design : The rows.
    mixture : The data set of a scenario.

    Examples
    --------
    >>> X, labels, info = simulate_row(design(reps=1).iloc[0])
    >>> X.shape, round(info["overlap"], 6)
    ((500, 2), 0.6)
    """
    if not isinstance(row, (pd.Series, Mapping)):
        raise TypeError(f"row must be a row of design() (a pandas Series or a mapping), got "
                        f"{type(row).__name__}")
    missing = [c for c in ("k", "balance", "separation", "n", "p", "seed", "target_overlap")
               if c not in row]
    if missing:
        raise ValueError(f"row lacks the design column(s) {missing}")
    return mixture(row["k"], row["balance"], row["separation"], n=row["n"], p=row["p"],
                   seed=row["seed"], overlap=row["target_overlap"], tol=tol)
