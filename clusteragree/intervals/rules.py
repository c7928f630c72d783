"""Method "auto": the jackknife, the test of independence inverted, the perfect-agreement bound.

An index estimates the index of the population its n objects were drawn from. Where that
estimate is a smooth function of the population's cell proportions (the usual case), the
jackknife does: one object left out at a time, the pseudovalues' mean and standard error give
a t interval (Quenouille 1956; Tukey 1958; the interval Severiano et al. (2011) use for the
adjusted Wallace coefficient). Three things break it, and ``method="auto"`` answers each:

* **Bias and skewness.** Information indices are biased by O(1/n) per cell of the table, and
  an index near a bound of its range is skewed. The jackknife's pseudovalues remove the first
  order of the bias; the interval is made on a scale that frees the index of its bounds
  (``scale_of``: atanh of the index rescaled to [-1, 1], or log of the distance to its one
  finite bound) and mapped back, and is widened on the side of the bias correction by the
  correction itself (the correction's own error is of its order where the table is sparse).
* **Independence.** At independence the linear term of an index's expansion vanishes for MI,
  NMI and VI always and for ARI when one clustering has equal cluster sizes: the estimate
  converges at rate n to a weighted chi-squared law, and no interval built on sqrt(n)
  normality (Wald, jackknife, percentile, BCa) holds its level there. The value the index
  takes under independence is decided instead by the test of independence, which holds its
  level exactly: the interval contains that value when the test of the index against its
  permutation null does not reject at level 1 - confidence_level, and excludes it when it
  does (test inversion: the interval is the set of values a level-alpha test does not reject;
  Lehmann & Romano 2005, ch. 3.5). ``independence_value`` gives the value.
* **A chance adjustment that hides the bias.** AMI subtracts MI's expectation under
  independence, which is MI's plug-in bias only at independence: elsewhere, and most where
  the table is sparse, AMI keeps a bias its own jackknife does not see (on a sparse 20 x 20
  table of 200 objects: a bias of 1.2 standard errors, a jackknife correction near 0). As n
  grows that
  expectation vanishes, so AMI's population value is the NMI's of the same mean
  (``population_twin``), whose plug-in bias the jackknife does see: once independence is
  rejected, AMI's interval is made from the NMI's jackknife.
* **Perfect agreement.** When every object lies on a one-to-one matching of the clusters, every
  resample and every leave-one-out table is perfect too, and no resampling method has a
  spread to work with. The exact binomial bound on the share of objects off the matching
  (none seen among n: at most 1 - alpha^(1/n), Clopper & Pearson 1934) bounds the index from
  one side (``perfect_bound``).

``benchmarks/bench_coverage.py`` measures the coverage of each rule on a grid of populations.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from ..indices import Index, get_index, values_on_tables
from ..indices.information import InfoState, info_state
from ..indices.pairs import PairState, pair_state
from ..inputs.resampling import leave_one_out_tables
from ._methods import Draws, IntervalMethod, register_interval_method
from .jackknife import (SAME_VALUES, jackknife_interval, jackknife_result, no_interval,
                        pseudovalues)
from .resamples import batch_values, table_jackknife
from .result import ConfidenceInterval

__all__ = ["POPULATION_N", "ROUNDING", "ZERO_AT_INDEPENDENCE", "auto_interval",
           "cuts_at_independence", "equal_sizes", "independence_value",
           "independence_value_se", "invert_independence_test", "off_matching_bound",
           "on_matching", "perfect_bound", "population_twin"]

#: Indices adjusted by their exact mean under the permutation null, whose value at
#: independence is 0 exactly though no closed form of the population value is coded here
#: (AMI's expected mutual information needs the margins; AGRI is an index of object pairs).
ZERO_AT_INDEPENDENCE = frozenset({"adjusted_mutual_info", "agri"})

#: An independence value this close to 0 is 0 (the rounding of a chance-corrected index's
#: formula at independence, and its terms in 1/n of the population's 1e15 objects).
ROUNDING = 1e-12

#: Objects of the large table on which ``perfect_bound`` evaluates a population (relative
#: rounding of its cell proportions below 1e-6).
POPULATION_N = 10**6


def population_twin(rec: Index, options: dict) -> str | None:
    """The unadjusted index whose population value a chance-adjusted index shares, or None.

    AMI = (MI - E[MI]) / (avg(H(x), H(y)) - E[MI]) with E[MI] the expectation under fixed
    margins; E[MI] is of order (K - 1)(Q - 1) / (2n), so as n grows AMI tends to MI / avg:
    the NMI of the same mean ("arithmetic" nmi_sum, "geometric" nmi_sqrt, "min" nmi_min,
    "max" nmi_max; Vinh, Epps & Bailey 2010, "Information theoretic measures for clusterings
    comparison", JMLR 11).

    Parameters
    ----------
    rec : Index
        The index's record.
    options : dict
        Its checked options.

    Returns
    -------
    str or None
        The twin's registry name.

    Examples
    --------
    >>> population_twin(ca.get_index("ami"), {"average": "max"})
    'nmi_max'
    >>> population_twin(ca.get_index("adjusted_rand"), {}) is None
    True
    """
    if rec.name != "adjusted_mutual_info":
        return None
    return _AMI_TWINS[options.get("average", "arithmetic")]


_AMI_TWINS = {"arithmetic": "nmi_sum", "geometric": "nmi_sqrt", "min": "nmi_min",
              "max": "nmi_max"}


# -- independence ------------------------------------------------------------------------------

def _population_states(rec: Index, rows: np.ndarray, cols: np.ndarray):
    """The state of each independent population r c' (rows (m, K), cols (m, Q) of cluster
    sizes, any scale): its pair counts per pair of objects, or its entropies; None for an
    index whose value is not a function of such a state."""
    r = rows / rows.sum(axis=-1, keepdims=True)
    c = cols / cols.sum(axis=-1, keepdims=True)
    big = 1e15  # the population's objects: only ratios of counts matter, as n grows
    if rec.state is pair_state and rec.family == "pair counting":
        T = np.full(r.shape[0], big * (big - 1) / 2)
        p, q = (r ** 2).sum(axis=-1) * T, (c ** 2).sum(axis=-1) * T
        a11 = p * q / T  # as the indices write their chance term: ARI's numerator is 0 exactly
        return PairState(a11, p - a11, q - a11, T - p - q + a11, p, q, T, np.full_like(T, big),
                         same=np.zeros(T.shape, dtype=bool))
    if rec.state is info_state:
        with np.errstate(divide="ignore", invalid="ignore"):
            hx = -np.sum(np.where(r > 0, r * np.log(r), 0.0), axis=-1)
            hy = -np.sum(np.where(c > 0, c * np.log(c), 0.0), axis=-1)
        zero = np.zeros_like(hx)
        return InfoState(hx, hy, hx + hy, zero, np.full_like(hx, big),
                         np.zeros(hx.shape, dtype=bool), rows=None, cols=None)
    return None


def independence_value(rec: Index, options: dict, counts, null_mean: float = math.nan) -> float:
    """The index of the independent population with the table's cluster sizes.

    For the indices of pair counts and of entropies the value is exact: the index of the
    population whose cell proportions are r_i c_j (r, c the table's margins as proportions;
    pair counts per pair a11 = A B, with A = sum r_i^2 and B = sum c_j^2; entropies H(x),
    H(y) and MI = 0). For AMI and AGRI (``ZERO_AT_INDEPENDENCE``) it is 0. For another index
    it is its mean under the permutation null (``null_mean``; a Monte Carlo mean when the
    law is).

    Parameters
    ----------
    rec : Index
        The index's record.
    options : dict
        Its checked options.
    counts : array-like or None
        The table (None for an index of object pairs).
    null_mean : float, optional
        The index's mean under the permutation null, for the indices without a closed form.

    Returns
    -------
    float
        The value; nan when it is not known.

    Examples
    --------
    >>> t = np.array([[30, 10], [10, 50]])
    >>> round(independence_value(ca.get_index("rand"), {}, t), 6)   # 1 - A - B + 2 A B
    0.5008
    >>> independence_value(ca.get_index("nmi_sum"), {}, t)
    0.0
    """
    if rec.name in ZERO_AT_INDEPENDENCE:
        return 0.0
    if counts is None or rec.on_pairs:
        return float(null_mean)
    counts = np.asarray(counts)
    values = _independent_values(rec, options, counts.sum(axis=1)[None],
                                 counts.sum(axis=0)[None])
    if values is None:  # no closed form: the index reads more than pair counts or entropies
        return float(null_mean)  # (AMI's expected MI, a matching): its null mean instead
    # a chance-corrected index is 0 at independence; its formula leaves rounding (and terms
    # in 1/n, here 1e-15) there, which would put 0 on the wrong side of an open bound
    return 0.0 if abs(values[0]) <= ROUNDING else float(values[0])


def _independent_values(rec: Index, options: dict, rows, cols):
    """The index of the independent populations r c' (rows (m, K), cols (m, Q) of cluster
    sizes), an array of m values; None when it has no closed form here."""
    state = _population_states(rec, np.asarray(rows, float), np.asarray(cols, float))
    if state is None:
        return None
    try:
        return np.asarray(rec.func(state, **options), dtype=float).reshape(-1)
    except (AttributeError, TypeError):  # the index reads the table's margins too (AMI)
        return None


def independence_value_se(rec: Index, options: dict, counts) -> float:
    """The jackknife standard error of ``independence_value`` (its margins estimated).

    Over the tables with one object left out (one count out of each non-empty cell,
    weighted by its count), the independence value of their margins; 0 for a value that
    does not depend on the margins (ARI, MI, NMI, AMI, AGRI), and nan for an index whose
    value is its null mean (not the population's).

    Parameters
    ----------
    rec : Index
        The index's record.
    options : dict
        Its checked options.
    counts : array-like or None
        The table (None for an index of object pairs).

    Returns
    -------
    float

    Examples
    --------
    >>> t = np.array([[30, 10], [10, 50]])
    >>> independence_value_se(ca.get_index("nmi_sum"), {}, t)
    0.0
    >>> 0 < independence_value_se(ca.get_index("rand"), {}, t) < 0.05
    True
    """
    if rec.name in ZERO_AT_INDEPENDENCE:
        return 0.0
    if counts is None or rec.on_pairs:
        return math.nan
    counts = np.asarray(counts)
    rows, cols = counts.sum(axis=1).astype(float), counts.sum(axis=0).astype(float)
    i, j = np.nonzero(counts)
    loo_rows = np.repeat(rows[None], i.size, axis=0)
    loo_cols = np.repeat(cols[None], i.size, axis=0)
    loo_rows[np.arange(i.size), i] -= 1
    loo_cols[np.arange(i.size), j] -= 1
    both = _independent_values(rec, options, np.vstack([rows, loo_rows]),
                               np.vstack([cols, loo_cols]))
    if both is None:
        return math.nan
    value, loo = both[0], both[1:]
    if not np.all(np.isfinite(loo)):
        return math.nan
    if np.all(np.abs(loo - value) <= ROUNDING):
        return 0.0
    return pseudovalues(value, loo, counts[i, j].astype(float), float(counts.sum()))[1]


def equal_sizes(counts, confidence_level: float) -> bool:
    """Whether both clusterings' cluster sizes are consistent with equal sizes: Pearson's
    chi-squared test of equal sizes (``scipy.stats.chisquare``) does not reject either at
    level 1 - confidence_level.

    Examples
    --------
    >>> equal_sizes([[26, 24], [25, 25]], 0.95), equal_sizes([[60, 10], [20, 10]], 0.95)
    (True, False)
    """
    counts = np.asarray(counts)
    alpha = 1 - confidence_level
    return all(stats.chisquare(m[m > 0]).pvalue > alpha
               for m in (counts.sum(axis=1), counts.sum(axis=0)))


def cuts_at_independence(rec: Index, options: dict, counts, confidence_level: float) -> bool:
    """Whether a rejected test of independence cuts the independence value off the interval.

    Yes where the value is known exactly: it does not depend on the cluster sizes (ARI, MI,
    NMI, AMI, AGRI: ``independence_value_se`` is 0), or it does but both clusterings' sizes
    are consistent with equal sizes (``equal_sizes``), where the value is stationary in the
    sizes and its estimate from the table's margins errs by less than the index's own
    spread. Elsewhere (Rand, Jaccard, VI with unequal sizes) the estimate's error is of the
    order of the index's, cutting there would leave the true value out too often, and the
    index is asymptotically normal, so the jackknife alone serves. An index whose value is its
    null mean (not the population's) is not cut.

    Examples
    --------
    >>> t = np.array([[30, 10], [10, 50]])
    >>> cuts_at_independence(ca.get_index("adjusted_rand"), {}, t, 0.95)
    True
    >>> cuts_at_independence(ca.get_index("rand"), {}, t, 0.95)
    False
    """
    se = independence_value_se(rec, options, counts)
    if not math.isfinite(se):
        return False
    if se == 0.0:
        return True
    return equal_sizes(counts, confidence_level)


def invert_independence_test(rec: Index, low: float, high: float, pvalue: float,
                             confidence_level: float, value: float, cut: bool = True):
    """The interval of an index after the test of independence, inverted at its value.

    Not rejected (p > alpha = 1 - confidence_level): the interval grows to contain the
    independence value. Rejected (in the direction of agreement), and ``cut``
    (``cuts_at_independence``): the independence value and the values of less agreement are
    cut off (an open bound at the value). Without an independence value (nan) the interval
    is unchanged. ``benchmarks/bench_coverage.py`` measures the coverage that follows.

    Parameters
    ----------
    rec : Index
        The index's record (its direction: similarity or distance).
    low, high : float
        The interval before the test.
    pvalue : float
        The p-value of the test of independence, one-sided towards agreement.
    confidence_level : float
        The nominal coverage.
    value : float
        The independence value (``independence_value``).
    cut : bool, default True
        Whether a rejection cuts the value off (``cuts_at_independence``).

    Returns
    -------
    (float, float, str, str)
        low, high, closed ("both", "left", "right": pandas.Interval's words) and what the
        test did ("contains" the independence value, "excludes" it, "rejects" independence
        without cutting, or "" when unchanged).

    Examples
    --------
    >>> rec = ca.get_index("adjusted_rand")
    >>> invert_independence_test(rec, 0.01, 0.2, 0.3, 0.95, 0.0)
    (0.0, 0.2, 'both', 'contains')
    >>> invert_independence_test(rec, -0.02, 0.2, 0.001, 0.95, 0.0)
    (0.0, 0.2, 'right', 'excludes')
    """
    if not (math.isfinite(value) and math.isfinite(pvalue)):
        return low, high, "both", ""
    if pvalue > 1 - confidence_level:
        return min(low, value), max(high, value), "both", "contains"
    if not cut:
        return low, high, "both", "rejects"
    if rec.higher_is_better:
        if low <= value:
            return value, max(high, value), "right", "excludes"
        return low, high, "both", "excludes"
    if high >= value:
        return min(low, value), value, "left", "excludes"
    return low, high, "both", "excludes"


# -- perfect agreement -------------------------------------------------------------------------

def on_matching(counts) -> bool:
    """Whether every non-empty row and column of the table has one non-empty cell (the two
    clusterings are the same partition, up to the clusters' names).

    Examples
    --------
    >>> on_matching([[0, 5], [7, 0]]), on_matching([[5, 1], [0, 7]])
    (True, False)
    """
    nz = np.asarray(counts) > 0
    return bool(np.all(nz.sum(axis=1) <= 1) and np.all(nz.sum(axis=0) <= 1))


def off_matching_bound(n: int, confidence_level: float) -> float:
    """The exact one-sided upper bound on the share of objects off the matching when none of
    n is: 1 - alpha^(1/n), alpha = 1 - confidence_level (Clopper-Pearson, no success in n
    trials; scipy's ``binomtest(0, n).proportion_ci`` gives it with alternative="less").

    Examples
    --------
    >>> round(off_matching_bound(50, 0.95), 5)
    0.05816
    """
    return float(-math.expm1(math.log1p(-confidence_level) / n))


def perfect_bound(rec: Index, options: dict, counts, confidence_level: float) -> float:
    """The one-sided bound of a table index at perfect agreement (``on_matching``).

    None of the n objects lies off the matching, so at the given level at most a share
    eps = ``off_matching_bound(n, level)`` of the population does. The bound is the least
    agreement among the populations with the table's cluster sizes and a share eps off the
    matching: placed in one off-matching cell (each pair of clusters in turn; the 10 largest
    clusters where there are more than 30), or spread over the off-matching cells as under
    independence. Each population is evaluated on a table of 10^6 objects.

    Parameters
    ----------
    rec : Index
        A table index's record.
    options : dict
        Its checked options.
    counts : array-like
        A table on a matching, with at least two clusters.
    confidence_level : float
        The nominal coverage.

    Returns
    -------
    float
        The lower bound of a similarity (upper of a distance); nan when the index is not
        defined on those populations.

    Examples
    --------
    >>> b = perfect_bound(ca.get_index("adjusted_rand"), {}, [[25, 0], [0, 25]], 0.95)
    >>> 0.7 < b < 0.9
    True
    """
    counts = np.asarray(counts)
    w = counts[counts > 0].astype(float)
    w = np.sort(w)[::-1] / w.sum()
    K = w.size
    eps = off_matching_bound(int(counts.sum()), confidence_level)
    top = K if K <= 30 else 10
    cells = [(i, j) for i in range(top) for j in range(top) if i != j]
    pops = []
    for i, j in cells:
        p = np.diag(w * (1 - eps))
        p[i, j] += eps
        pops.append(p)
    off = np.outer(w, w)
    np.fill_diagonal(off, 0.0)
    if off.sum() > 0:
        pops.append(np.diag(w * (1 - eps)) + eps * off / off.sum())
    tables = np.rint(np.asarray(pops) * POPULATION_N).astype(np.int64)
    try:
        vals = values_on_tables([rec], {rec.name: options}, tables)[rec.name]
    except ValueError:
        return math.nan
    vals = np.asarray(vals, dtype=float)
    if not np.all(np.isfinite(vals)):
        return math.nan
    return float(vals.min() if rec.higher_is_better else vals.max())


# -- method "auto" -----------------------------------------------------------------------------

def _at_optimum(rec: Index, statistic: float) -> bool:
    """Whether the estimate is the index's value at perfect agreement."""
    opt = float(rec.optimum)
    return math.isfinite(opt) and abs(statistic - opt) <= 1e-12 * max(1.0, abs(opt))


def _twin_jackknife(rec: Index, options: dict, counts):
    """The estimate, leave-one-out values and weights of the index whose population value
    ``rec`` shares (``population_twin``), on the table ``counts``; None without a twin, a
    table, or where the twin is not defined on the table."""
    name = population_twin(rec, options) if counts is not None else None
    if name is None:
        return None
    twin, failed = get_index(name), {}
    statistic = batch_values([twin], {name: {}}, counts[None], failed, "the table")
    jack = table_jackknife([twin], {name: {}}, leave_one_out_tables(counts), failed)
    if failed:
        return None
    return twin, float(statistic[name][0]), *jack[name]


def _perfect_agreement(d: Draws) -> ConfidenceInterval:
    """The exact one-sided bound of a table on a matching whose index is at its optimum."""
    rec, counts, level = d.rec, d.counts, d.confidence_level
    bound = perfect_bound(rec, d.options, counts, level)
    if (counts > 0).sum() < 2 or not math.isfinite(bound):
        return no_interval(d, "auto", "the two clusterings are the same partition and the "
                           "index has no one-sided bound there (one cluster, or not defined "
                           "near it)")
    low, high = sorted((bound, float(rec.optimum)))
    return ConfidenceInterval(
        index=rec.name, statistic=float(d.statistic), low=low, high=high,
        confidence_level=level, method="exact bound at perfect agreement",
        n_resamples=0, standard_error=0.0, bootstrap_distribution=np.empty(0),
        resampling=d.resampling,
        note=("one-sided: every object lies on a one-to-one matching of the clusters, so "
              "every resample agrees perfectly; the bound is the least agreement of a "
              "population with these cluster sizes and at most "
              f"{100 * off_matching_bound(int(counts.sum()), level):.3g}% of "
              "its objects off the matching (the exact binomial bound)"))


def auto_interval(d: Draws) -> ConfidenceInterval:
    """The interval of method "auto": the rules above, from the jackknife and the test.

    At perfect agreement (a table on a matching, the index at its optimum) the exact
    one-sided bound (``perfect_bound``). Otherwise the jackknife t interval: plain while the
    test of independence does not reject (p > 1 - confidence_level), on the index's own
    scale and widened by its bias correction once it does (and AMI's then made from its
    ``population_twin``'s jackknife); then the test inverted at the independence value
    (``invert_independence_test``); clipped to the index's range. Without the law of the
    test (``d.law`` None) independence counts as rejected and the interval is the rescaled
    jackknife's.

    Parameters
    ----------
    d : Draws
        The estimate, ``d.jackknife`` (values, weights), ``d.law`` (the index's permutation
        law), ``d.counts`` (the table; None for an index of object pairs), ``d.options``.

    Returns
    -------
    ConfidenceInterval
        ``method`` says what made it ("jackknife", "jackknife, independence test inverted",
        "exact bound at perfect agreement"), ``note`` how.

    Examples
    --------
    >>> ci = ca.confidence_interval([[30, 5], [4, 25]], index="adjusted_rand", seed=1)
    >>> ci.method, ci.closed
    ('jackknife, independence test inverted', 'both')
    """
    rec, statistic, options, counts = d.rec, d.statistic, d.options, d.counts
    level = d.confidence_level
    if d.reason:
        return no_interval(d, "auto", d.reason, warn=False)
    if counts is not None and on_matching(counts) and _at_optimum(rec, statistic):
        return _perfect_agreement(d)
    values, weights = d.jackknife
    law = d.law
    pvalue = math.nan
    if law is not None:
        pvalue = law.pvalue(statistic, "greater" if rec.higher_is_better else "less")
    rejected = not pvalue > 1 - level
    if np.all(values == values[0]) and rejected:
        return no_interval(d, "auto", SAME_VALUES)
    notes, made_from = [], (rec, statistic, values, weights)
    twin = _twin_jackknife(rec, options, counts) if rejected else None
    if twin is not None:
        made_from = twin
        notes.append(f"made from {twin[0].name}'s jackknife: {rec.name}'s population value "
                     f"is {twin[0].name}'s, and its chance adjustment hides the plug-in bias "
                     "from its own jackknife")
    ji = jackknife_interval(*made_from, level, rescaled=rejected)
    low, high, closed, used = ji.low, ji.high, "both", "jackknife"
    if ji.scale != "identity":
        notes.append(f"jackknife t interval on the {ji.scale} scale, widened by its bias "
                     "correction")
    if law is not None:
        value = independence_value(rec, options, counts, law.mean)
        cut = cuts_at_independence(rec, options, counts, level)
        low, high, closed, did = invert_independence_test(rec, low, high, pvalue, level,
                                                          value, cut)
        if did in ("contains", "excludes"):
            used = "jackknife, independence test inverted"
            notes.append(f"the test of independence (p = {pvalue:.3g}) "
                         f"{'does not reject' if did == 'contains' else 'rejects'} it: the "
                         f"interval {did} the independence value {value:.4g}")
        elif did == "rejects":
            notes.append(f"the test of independence rejects it (p = {pvalue:.3g}); the "
                         "independence value depends on the unequal cluster sizes and is not "
                         "cut off")
    return jackknife_result(d, low, high, closed, used, notes, ji.standard_error, pvalue)


register_interval_method(IntervalMethod(
    "auto", "the jackknife, the test of independence inverted (auto)", auto_interval,
    jackknife=True, independence_test=True))
