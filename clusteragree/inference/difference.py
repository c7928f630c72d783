"""The paired test of two agreements with one reference: Delta = I(reference, a) - I(reference, b).

Two clusterings a and b of the same n objects are each compared with a reference by one table
index I. The objects are the sampling unit: each carries a triple (reference, a, b), so the
three labellings form one K x Qa x Qb table, and the two agreements are correlated through it.
``difference_test`` gives Delta, its standard error, a confidence interval and a p-value for
Delta = 0, by the leave-one-object-out jackknife (by default with its variance corrected on
small tables) or the paired bootstrap of the
objects; ``DifferenceTest`` holds the result, printed like R's ``htest``. Indices of object
pairs (fuzzy and overlapping memberships, similarity matrices) take the object jackknife, each
object left out in turn.
"""

from __future__ import annotations

import math
from dataclasses import replace
import warnings

import numpy as np
import pandas as pd
from scipy import stats

from .._validate import check_choice, check_options, check_seed
from ..indices import Index, evaluate_checked, evaluate_pairwise, one_index, values_on_tables
from ..inputs import as_clusterings
from ..inputs.objects import as_noise
from ..inputs.triples import ThreeWay, as_three_way, three_labellings
from ..intervals import independence_laws
from ..intervals.resamples import pair_jackknife, table_jackknife
from ..intervals.jackknife import jackknife_interval
from ..intervals.spec import as_interval_spec, fewest_objects, misplaced_interval_settings
from ..nulls.distribution import ALTERNATIVES
from ..tables import ContingencyTable
from .difference_results import DIFFERENCE_COLUMNS, DifferenceTest

__all__ = ["DifferenceTest", "difference_test", "difference_of", "DIFFERENCE_COLUMNS", "METHODS",
           "pair_difference_of",
           "INDEPENDENCE_LEVEL", "MAX_JACKKNIFE_CELLS", "MAX_CELL_PAIRS", "AUTO_CELL_PAIRS"]

#: The ways of making the standard error, interval and p-value.
METHODS = ("auto", "jackknife", "corrected", "bootstrap")

#: The interval methods (``interval=``'s method) each method takes; "auto" is its default.
INTERVAL_METHODS = {"auto": ("auto", "jackknife"), "jackknife": ("auto", "jackknife"),
                    "corrected": ("auto", "jackknife"), "bootstrap": ("auto", "percentile")}

#: ``method="auto"`` takes the corrected jackknife up to this many pairs of non-empty cells of
#: the 3-way table (8 clusters each: 131,072 pairs, 0.07 s for AMI), the plain one above.
AUTO_CELL_PAIRS = 2 * 10**5

#: The most pairs of non-empty cells of the 3-way table ``method="corrected"`` takes (one
#: second difference each).
MAX_CELL_PAIRS = 10**7

#: The most cells the leave-one-out tables of one call may hold together (one table per
#: non-empty cell of each 2-way table, evaluated in chunks): beyond it the jackknife of dense
#: tables takes minutes, and the call is refused before any work.
MAX_JACKKNIFE_CELLS = 10**9

#: The level of the test of independence of each agreement: not rejected, the agreement sits
#: near independence, where its U-statistics degenerate (a warning and ``note`` say so).
INDEPENDENCE_LEVEL = 0.05


# -- the computation ---------------------------------------------------------------------------


def _leave_one_out(rec: Index, options: dict, tw: ThreeWay) -> np.ndarray:
    """Delta with each object left out, one value per non-empty cell of the 3-way table: the
    jackknife of each 2-way table (the record's ``leave_one_out_tables``, one table per
    non-empty cell), a's value less b's at the 3-way cell's two 2-way cells."""
    loo = []
    for which in ("a", "b"):
        failed = {}
        values = table_jackknife([rec], {rec.name: options}, tw.leave_one_out_tables(which),
                                 failed)
        if failed:
            raise ValueError(f"index {rec.name!r} is not defined on some table with one "
                             f"object left out, so it has no jackknife here: "
                             f"{failed[rec.name].error}")
        loo.append(values[rec.name][0][tw.two_way_cells(which)])
    return loo[0] - loo[1]


def _leave_two_out(rec: Index, options: dict, tw: ThreeWay, which: str) -> np.ndarray:
    """The index on the 2-way table of ``which`` with two objects left out, of the non-empty
    cells u <= v (the record's ``leave_two_out_tables``): a symmetric array over the pairs of
    non-empty cells (nan where a cell holds one object only)."""
    U = int(np.count_nonzero(tw.table_a if which == "a" else tw.table_b))
    out = np.full((U, U), np.nan)
    for pp, qq, tables in tw.leave_two_out_tables(which):
        try:
            values = values_on_tables([rec], {rec.name: options}, tables)[rec.name]
        except ValueError as exc:
            raise ValueError(f"index {rec.name!r} is not defined on some table with two "
                             f"objects left out, so method='corrected' has no correction "
                             f"here: {exc}") from None
        out[pp, qq] = out[qq, pp] = values
    return out


def _second_differences(rec: Index, options: dict, tw: ThreeWay, delta: float,
                        loo: np.ndarray) -> float:
    """Q = sum over the pairs of objects o < o' of d^2, d = Delta - Delta_(o) - Delta_(o')
    + Delta_(o, o'): the quadratic part of Delta's decomposition (Efron & Stein 1981), from
    one table with two objects left out per pair of non-empty cells of each 2-way table."""
    w = tw.weights.astype(float)
    p, q = np.triu_indices(w.size)
    ok = (p != q) | (w[p] >= 2)
    p, q = p[ok], q[ok]
    second = []
    for which in ("a", "b"):
        u = tw.two_way_cells(which)
        second.append(_leave_two_out(rec, options, tw, which)[u[p], u[q]])
    d = delta - loo[p] - loo[q] + (second[0] - second[1])
    pairs = np.where(p == q, w[p] * (w[p] - 1) / 2, w[p] * w[q])
    return float(np.sum(pairs * d ** 2))


def _bootstrap(rec: Index, options: dict, tw: ThreeWay, n_resamples: int, rng) -> np.ndarray:
    """Delta on ``n_resamples`` resamples of the objects: the record's ``bootstrap_tables``
    (multinomial draws of the 3-way table's cells, each summed into its two 2-way tables, in
    chunks)."""
    out = np.empty(n_resamples)
    start = 0
    for tables in tw.bootstrap_tables(n_resamples, rng):
        values = []
        for t in tables:
            try:
                values.append(values_on_tables([rec], {rec.name: options}, t)[rec.name])
            except ValueError as exc:
                raise ValueError(f"index {rec.name!r} is not defined on some bootstrap "
                                 f"resample of the objects, so it has no bootstrap here: "
                                 f"{exc}") from None
        stop = start + len(tables[0])
        out[start:stop] = values[0] - values[1]
        start = stop
    return out


def _near_independence(rec: Index, options: dict, clusterings, statistics, rng) -> list[str]:
    """The clusterings (of "a", "b") whose test of independence from the reference (the index
    against its permutation null, one-sided towards agreement) does not reject."""
    near = []
    side = "greater" if rec.higher_is_better else "less"
    for name, clus, value in zip(("a", "b"), clusterings, statistics):
        if _rejects_by_cantelli(rec, options, clus, value, side):
            continue
        law = independence_laws(clus, [rec], {rec.name: options}, rng)[rec.name]
        p = law.pvalue(value, side) if law.has_law else math.nan
        if math.isfinite(p) and p > INDEPENDENCE_LEVEL:
            near.append(f"{name} (p = {p:.3g})")
    return near


def _rejects_by_cantelli(rec: Index, options: dict, clus, value: float, side: str) -> bool:
    """Whether the test of independence surely rejects, from the index's exact null mean and
    variance alone: by Cantelli's inequality P(I - E[I] >= z sd) <= 1 / (1 + z^2), so a
    value z >= sqrt(1 / level - 1) (4.36 at level 0.05) standard deviations into the tail
    has p <= level whatever the law. The exact law of s or t is skipped there: on a 3 x 3
    table of 300 objects with unbalanced margins (shares .7 / .2 / .1) it took 0.15 to 0.5 s
    of the 0.16 to 1.1 s of the whole test (issue 45). Only for an index affine in its
    statistic (closed-form moments) on a contingency table; False otherwise."""
    table = getattr(clus, "table", None)
    if (table is None or not getattr(rec, "linear", False)
            or getattr(rec, "monotone_in", None) is None):
        return False
    from ..nulls.hypergeometric import index_moments

    counts = np.asarray(table.counts)
    try:
        mom = index_moments(rec, counts.sum(axis=1), counts.sum(axis=0), **options)
    except ValueError:
        return False
    sd = math.sqrt(mom["var"]) if mom["var"] > 0 else 0.0
    if not sd > 0 or not math.isfinite(sd):
        return False
    z = (value - mom["mean"]) / sd * (1 if side == "greater" else -1)
    return z >= math.sqrt(1 / INDEPENDENCE_LEVEL - 1) * (1 + 1e-9)


def _object_jackknife(rec: Index, options: dict, clusterings, pair) -> np.ndarray:
    """An index of object pairs with each of the n objects left out in turn (the record's
    ``leave_one_out_objects``; a cluster left with no member is no cluster)."""
    failed = {}
    jack = pair_jackknife(rec, options, clusterings, pair, failed)
    if jack is None:
        raise ValueError(f"index {rec.name!r} is not defined with some object left out, so "
                         f"it has no jackknife here: {failed[rec.name].error}")
    return jack[0]


def _pair_inputs(rec: Index, reference, a, b, data, dropna, join):
    """The clusterings of (reference, a) and (reference, b) for an index of object pairs,
    each converted by the entry (``as_clusterings``); its errors name the pair."""
    out = []
    for arg, other in (("a", a), ("b", b)):
        if other is None:
            raise TypeError(f"{arg} is missing: pass three clusterings reference, a, b of the "
                            "same objects")
        try:
            clus = as_clusterings(reference, other, data=data, dropna=dropna, join=join,
                                  table=False, pairs=[rec.name])
            pair = clus.pair(rec)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"reference and {arg} (x and y below): {exc}") from None
        out.append((clus, pair))
    (_, pa), (_, pb) = out
    if pa[0].shape != pb[0].shape or not np.array_equal(pa[0], pb[0]):
        raise ValueError(f"b must cluster the same objects as reference and a: reference has "
                         f"{pa[0].shape[0]} objects against a and {pb[0].shape[0]} against b "
                         "(pandas objects are paired by their index, each pair apart)")
    return out


def _one_sided(center, se, df, level, alternative):
    """A t interval: two-sided, or one-sided with an infinite bound (as R's t.test)."""
    if alternative == "two-sided":
        q = stats.t.ppf(0.5 + level / 2, df)
        return center - q * se, center + q * se
    q = stats.t.ppf(level, df)
    return (center - q * se, math.inf) if alternative == "greater" else (-math.inf,
                                                                         center + q * se)


def _t_pvalue(t, df, alternative) -> float:
    if alternative == "greater":
        return float(stats.t.sf(t, df))
    if alternative == "less":
        return float(stats.t.cdf(t, df))
    return float(min(1.0, 2 * stats.t.sf(abs(t), df)))


def _boot_pvalue(boot, alternative) -> float:
    """The p-value of the percentile interval inverted: the least alpha at which the interval
    of level 1 - alpha leaves 0 out, with the (1 + #) / (B + 1) count of a Monte Carlo test."""
    B = boot.size
    below = (1 + np.count_nonzero(boot <= 0)) / (B + 1)  # evidence against Delta > 0 failing
    above = (1 + np.count_nonzero(boot >= 0)) / (B + 1)
    if alternative == "greater":
        return float(below)
    if alternative == "less":
        return float(above)
    return float(min(1.0, 2 * min(below, above)))


def _boot_interval(boot, level, alternative):
    if alternative == "two-sided":
        lo, hi = np.quantile(boot, [(1 - level) / 2, (1 + level) / 2])
        return float(lo), float(hi)
    if alternative == "greater":
        return float(np.quantile(boot, 1 - level)), math.inf
    return -math.inf, float(np.quantile(boot, level))


def difference_test(reference, a=None, b=None, index="adjusted_rand", *,
                    alternative="two-sided", interval=0.95, method="auto",
                    seed=None, data=None, dropna=False, join="exact", noise=None,
                    sample_weight=None, **options) -> DifferenceTest:
    """Which clustering agrees better with a reference: Delta = I(ref, a) - I(ref, b), tested.

    Parameters
    ----------
    reference, a, b : array-like, Series, DataFrame or str
        Three clusterings of the same n objects: the reference and the two compared with it.
        For a table index, three hard partitions (one label each), three column names of
        ``data``, or ``reference`` alone as a K x Qa x Qb array of counts (the 3-way table);
        three pandas Series are paired by their index (``join``), anything else by position.
        For an index of object pairs, what the index takes (fuzzy or overlapping memberships,
        covers, similarity matrices, labels; ``kinds`` in ``ca.list_indices()``).
    index : str or Index, default "adjusted_rand"
        An index of ``ca.list_indices()`` that is a similarity or a distance, with the
        reference as its x: a table index (hard partitions, by their contingency table), or
        an index of object pairs (by the object jackknife).
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        The alternative to Delta = 0: "greater" is Delta > 0, which for a similarity says a
        agrees better with the reference and for a distance says b does.
    interval : None, float, str, dict or IntervalSpec, default 0.95
        The confidence interval, as ``compare``'s ``interval=`` (a level, a method name, a
        dict of ``IntervalSpec`` fields or a spec): its method "auto" (the default) or
        "jackknife" for ``method="jackknife"``, "auto" or "percentile" for
        ``method="bootstrap"``, whose resamples are the spec's ``n_resamples`` (9999; e.g.
        ``interval={"n_resamples": 999}``) drawn from its ``seed`` when it has one; None: no
        interval. A one-sided alternative gets a one-sided interval (an infinite bound), as
        R's ``t.test``.
    method : {"auto", "jackknife", "corrected", "bootstrap"}, default "auto"
        How the standard error, interval and p-value are made (see Notes): "corrected" is
        the jackknife with its variance's bias removed (the level at small n with weak
        agreement; table indices), "bootstrap" the paired bootstrap (table indices). "auto":
        "corrected" for a table index up to ``AUTO_CELL_PAIRS`` pairs of non-empty cells of
        the 3-way table (the plain jackknife where its variance comes out not positive),
        "jackknife" above and for indices of object pairs; ``res.method`` says which.
    seed : None, int, SeedSequence or Generator
        The randomness of the bootstrap and of the two tests of independence (a Monte Carlo
        law where the exact one is too large).
    data : DataFrame, optional
        Read ``reference``, ``a`` and ``b`` as column names of ``data``.
    dropna : bool, default False
        Leave out the objects with a missing label in any of the three; by default a missing
        label is an error.
    join : {"exact", "inner"}, default "exact"
        How three pandas Series are paired by their index.
    noise : {"cluster", "singletons", "drop"} or Noise, optional
        How objects labelled as noise are compared (``ca.Noise``): side "x" is the
        reference, side "y" the clusterings a and b; under "drop" an object noise in any of
        the three (on the sides the policy covers) is left out of both agreements, so that
        they stay paired.
    sample_weight : array-like of shape (n,), optional
        Whole numbers: each object repeated that many times. Other weights are refused (the
        test resamples tables of objects).
    **options
        The index's options (``ca.list_indices()`` lists them).

    Returns
    -------
    DifferenceTest
        ``statistic`` (Delta), ``agreement_a``, ``agreement_b``, ``standard_error``,
        ``pvalue``, ``confidence_interval()``, ``method``, ``note``, ``to_frame()``.

    Raises
    ------
    TypeError, ValueError
        A bad argument, named, before any work: clusterings of different lengths, or of a
        kind the index does not take, fewer than 3 objects, an unknown index or one that is
        not a similarity or a distance, a bad alternative, method or interval.

    Warns
    -----
    UserWarning
        The test of independence of a or b from the reference does not reject at level 0.05
        (``INDEPENDENCE_LEVEL``): the sentence is also in ``note``.

    See Also
    --------
    clusteragree.agreement_test : One agreement against chance.
    clusteragree.confidence_interval : The interval of one agreement.

    Notes
    -----
    **Jackknife.** Leaving out one object of cell (i, j, k) of the 3-way table
    gives the table of (reference, a) less one in cell (i, j) and that of (reference, b)
    less one in (i, k); every object of a cell gives the same leave-one-out Delta_(i), so the
    index is evaluated once per non-empty cell of each 2-way table (one batch of tables) and
    each 3-way cell's value is weighted by its count. The pseudovalues
    p_o = n Delta - (n - 1) Delta_(o) give the bias-corrected estimate
    Delta_jack = mean(p) and the standard error s = sqrt(sum (p_o - Delta_jack)^2 /
    (n (n - 1))) (Quenouille 1956; Tukey 1958; Efron & Tibshirani 1993, ch. 11), as
    ``clusteragree.intervals.jackknife.jackknife_interval`` computes them; the interval is
    Delta_jack -/+ t_{n-1} s and the p-value that of t = Delta_jack / s with n - 1 degrees of
    freedom (the test and the interval agree: the interval leaves 0 out exactly when the
    test rejects at its level). Every table index is a smooth function of the cell
    proportions, and the jackknife is its delta-method variance; for the pair-counting
    indices, ratios of degree-2 U-statistics over pairs of objects, it equals to first order
    the structural-components variance of DeLong, DeLong & Clarke-Pearson (1988): per-object
    components of the numerators and denominators of both indices, their covariance, and the
    delta method (``tests/test_difference.py`` checks the two on ARI). Severiano et al.
    (2011) use the jackknife so for the adjusted Wallace coefficient. Swapping a_i and b_i is
    no permutation test (the label sets of a and b are not exchangeable), hence the
    resampling of the objects.

    **Corrected jackknife.** The jackknife variance v_J overestimates: with Delta's
    decomposition into a linear part and a quadratic part over pairs of objects (Efron & Stein
    1981), it counts the quadratic part's variance twice. Near independence, at small n, that
    part is not small (AMI at n = 100, benchmarks/results/difference.md: the two-sided 5%
    test rejects 3.4% of the time, the corrected one 4.9%). The
    second differences d = Delta - Delta_(o) - Delta_(o') + Delta_(o, o') are that part, pair
    by pair, and Q = sum over the pairs of objects of d^2 estimates its variance: the
    variance (n / (n - 1))^2 v_J - (n - 3) / (n - 1) Q is unbiased when Delta is linear plus
    quadratic. Two objects left out of cells (i, j, k) and (i', j', k') give the tables of
    (reference, a) less one in (i, j) and one in (i', j'), so one table per pair of non-empty
    cells of each 2-way table; the interval and the test are the jackknife's with this
    standard error (``benchmarks/bench_difference.py`` measures both).

    **Indices of object pairs** (fuzzy, overlapping, matrix): the same jackknife, each of the
    n objects left out in turn (its row of a membership matrix, its row and column of a
    similarity matrix; a cluster left with no member is no cluster), n evaluations of each
    index.

    **Bootstrap** (table indices): the objects resampled with replacement (a multinomial draw
    of the 3-way table's cells), Delta on each resample; the percentile interval, and the
    p-value of the percentile interval inverted: the least alpha at which the level 1 - alpha
    interval leaves 0 out, (1 + #{Delta* <= 0}) / (B + 1) for "greater" (twice the smaller
    tail for "two-sided").

    **Regimes.** Where an agreement sits near independence the U-statistics degenerate (the
    linear term of the expansion vanishes, and the estimate converges at rate n to a
    non-normal law; ``clusteragree.intervals.rules``): the test of independence of each of a
    and b (the index against its permutation null, as ``confidence_interval``'s "auto"
    inverts it) is made, and when it does not reject at level 0.05 a warning and ``note``
    name the clustering. When a and b are the same partition (Delta = 0 on every
    leave-one-out table) the p-value is 1 and the interval [0, 0], and ``note`` says why;
    a spread of 0 with Delta != 0 gives NA with the reason, never a p-value of 0.

    References
    ----------
    DeLong, E. R., DeLong, D. M. & Clarke-Pearson, D. L. (1988), "Comparing the areas under
    two or more correlated receiver operating characteristic curves: a nonparametric
    approach", Biometrics 44, 837-845.

    Severiano, A., Pinto, F. R., Ramirez, M. & Carrico, J. A. (2011), "Adjusted Wallace
    coefficient as a measure of congruence between typing methods", Journal of Clinical
    Microbiology 49, 3997-4000.

    Efron, B. & Stein, C. (1981), "The jackknife estimate of variance", The Annals of
    Statistics 9, 586-596.

    Efron, B. & Tibshirani, R. J. (1993), "An Introduction to the Bootstrap", Chapman & Hall,
    ch. 11 (the jackknife) and 16 (tests).

    Examples
    --------
    Two clusterings of iris by a threshold of one measurement: which agrees better with the
    species?

    >>> import pandas as pd
    >>> X, species = ca.load_dataset("iris")
    >>> petal = pd.cut(X["petal length (cm)"], [0, 2.5, 4.8, 10], labels=False)
    >>> sepal = pd.cut(X["sepal length (cm)"], [0, 5.5, 6.3, 10], labels=False)
    >>> res = ca.difference_test(species, petal, sepal, index="adjusted_rand")
    >>> round(res.statistic, 4), round(res.agreement_a, 4), round(res.agreement_b, 4)
    (0.4818, 0.868, 0.3862)
    >>> res.method, round(res.standard_error, 4), res.pvalue < 1e-10
    ('corrected', 0.0641, True)
    >>> low, high = res.confidence_interval()
    >>> round(low, 3), round(high, 3)
    (0.355, 0.608)
    >>> print("\\n".join(str(res).splitlines()[8:12]))
    t = 7.519, df = 149, p-value = 4.78e-12
    alternative hypothesis: true difference in adjusted_rand is not equal to 0
    95 percent confidence interval (corrected jackknife t):
     0.3551 0.6083
    """
    rec = one_index(index)
    if rec.kind not in ("similarity", "distance"):
        raise ValueError(f"index {rec.name!r} is a {rec.kind}, not a similarity or a distance "
                         "of two clusterings (it does not measure their agreement): use an "
                         "index whose kind is 'similarity' or 'distance' in ca.list_indices()")
    misplaced_interval_settings(options)
    opts = check_options(options, rec.options, f"index {rec.name!r}")
    alternative = check_choice(alternative, "alternative", ALTERNATIVES)
    method = check_choice(method, "method", METHODS)
    spec = as_interval_spec(interval)
    if spec is not None and spec.method not in INTERVAL_METHODS[method]:
        raise ValueError(f"interval method {spec.method!r} is not one of method={method!r}'s "
                         f"{list(INTERVAL_METHODS[method])}")
    rng = check_seed(seed)
    if rec.on_pairs:
        level = spec.confidence_level if spec is not None else math.nan
        if noise is not None or sample_weight is not None:  # the objects selected once
            arrays, names, weights, cov = three_labellings((reference, a, b), data, dropna,
                                                           join, as_noise(noise), sample_weight)
            if cov.weights == "real":
                raise ValueError("sample_weight holds weights that are not whole numbers: the "
                                 "paired difference test's jackknife leaves whole objects out; "
                                 "integer weights (repeated objects) work")
            if weights is not None:
                arrays = [np.repeat(v, weights.astype(np.int64)) for v in arrays]
            reference, a, b = (pd.Series(v, name=name) for v, name in zip(arrays, names))
            result = _pair_test(rec, opts, reference, a, b, None, dropna, join, alternative,
                                method, level, rng)
            if cov.notable:  # the objects compared, in the data line
                result = replace(result, data_name=f"{result.data_name}; "
                                 f"{cov.describe((names[0], f'{names[1]} or {names[2]}'))}")
            return result
        return _pair_test(rec, opts, reference, a, b, data, dropna, join, alternative, method,
                          level, rng)
    tw = as_three_way(reference, a, b, data=data, dropna=dropna, join=join, noise=noise,
                      sample_weight=sample_weight)
    return difference_of(tw, rec, opts, alternative, method, spec, rng)


def difference_of(tw: ThreeWay, rec: Index, opts: dict, alternative: str, method: str,
                  spec, rng) -> DifferenceTest:
    """The paired difference test of a table index on three clusterings already converted
    (``difference_test`` after its checks; ``agreement_matrix`` hands its ``ThreeWay``
    records here): the arguments are checked, nothing is converted again.

    Parameters
    ----------
    tw : ThreeWay
        The reference, a and b.
    rec : Index
        A table index (similarity or distance).
    opts : dict
        Its options, checked.
    alternative, method : str
        Checked values of ``difference_test``'s arguments.
    spec : IntervalSpec or None
        The interval's settings (None: the test alone).
    rng : numpy.random.Generator
        The call's generator.

    Returns
    -------
    DifferenceTest
        As ``difference_test`` returns it.

    See Also
    --------
    difference_test : The public function: its arguments checked, then this.

    Examples
    --------
    >>> from clusteragree.inputs.triples import as_three_way
    >>> reference = [0] * 6 + [1] * 6 + [2] * 6
    >>> a, b = [0] * 6 + [1] * 5 + [2] * 7, [0] * 5 + [1] * 5 + [2] * 5 + [1, 2, 0]
    >>> tw = as_three_way(reference, a, b)
    >>> res = difference_of(tw, ca.get_index("rand"), {}, "two-sided", "jackknife", None,
    ...                     np.random.default_rng(1))
    >>> round(res.statistic, 4)   # Rand(reference, a) - Rand(reference, b)
    0.2157
    >>> res.statistic == ca.difference_test(tw, index="rand", method="jackknife").statistic
    True
    """
    B = spec.n_resamples if spec is not None else 9999
    level = spec.confidence_level if spec is not None else math.nan
    n = tw.n
    need = max(3, fewest_objects(rec, leave_one_out=True))
    if n < need:
        raise ValueError(f"difference_test needs at least {need} objects (index {rec.name!r} "
                         f"needs {rec.min_n}, and the jackknife one more), got n = {n}")
    work = sum(int(np.count_nonzero(t)) * t.size for t in (tw.table_a, tw.table_b))
    if work > MAX_JACKKNIFE_CELLS:
        K, Qa, Qb = tw.shape
        raise ValueError(f"too many clusters for the jackknife of dense tables: the tables "
                         f"with one object left out ({K:,} x {Qa:,} and {K:,} x {Qb:,}, one "
                         f"per non-empty cell) hold {work:,} cells together, more than "
                         f"{MAX_JACKKNIFE_CELLS:,}")
    m = tw.weights.size
    auto = method == "auto"
    two_out = fewest_objects(rec, leave_one_out=True) + 1  # tables with two objects left out
    if auto:
        method = ("corrected" if m * (m + 1) // 2 <= AUTO_CELL_PAIRS and n >= two_out
                  else "jackknife")
    if method == "corrected" and n < two_out:
        raise ValueError(f"method='corrected' evaluates {rec.name!r} on the tables with two "
                         f"objects left out, which needs n >= {two_out} (the index needs "
                         f"{rec.min_n} objects), got n = {n}: use method='jackknife'")
    if method == "corrected" and m * (m + 1) // 2 > MAX_CELL_PAIRS:
        raise ValueError(f"method='corrected' takes one table per pair of non-empty cells of "
                         f"the 3-way table, and this one has {m:,} (more than "
                         f"{MAX_CELL_PAIRS:,} pairs): use method='jackknife'")
    tables = (tw.table_a, tw.table_b)
    values = tuple(float(evaluate_checked(rec, t, opts)) for t in tables)
    loo = _leave_one_out(rec, opts, tw)
    near = _near_independence(rec, opts, [as_clusterings(ContingencyTable(t)) for t in tables],
                              values, rng)
    return _test(rec, values, loo, tw.weights.astype(float), tw.describe(), near, alternative,
                 method, level, B,
                 lambda: _bootstrap(rec, opts, tw, B,
                                    spec.generator(rng) if spec is not None else rng),
                 lambda: _second_differences(rec, opts, tw, values[0] - values[1], loo),
                 auto=auto)


def _pair_test(rec, opts, reference, a, b, data, dropna, join, alternative, method, level,
               rng) -> DifferenceTest:
    """The test of an index of object pairs (memberships, covers, similarity matrices): the
    object jackknife, n evaluations of each index."""
    if method == "auto":
        method = "jackknife"
    if method != "jackknife":
        raise ValueError(f"method={method!r} resamples the 3-way table of hard partitions; "
                         f"index {rec.name!r} compares memberships or similarity matrices "
                         f"({rec.family}): use method='jackknife' (the object jackknife)")
    inputs = _pair_inputs(rec, reference, a, b, data, dropna, join)
    return pair_difference_of(inputs, rec, opts, alternative, method, level, rng)


def pair_difference_of(inputs, rec: Index, opts: dict, alternative: str, method: str,
                       level: float, rng) -> DifferenceTest:
    """The paired difference test of an index of object pairs on clusterings already
    converted (the object jackknife; ``agreement_matrix`` makes the inputs from its record).

    Parameters
    ----------
    inputs : ((Clusterings, tuple), (Clusterings, tuple))
        The record of the reference with a and its pair as ``Clusterings.pair`` reads it,
        then the same of the reference with b.
    rec : Index
        An index of object pairs.
    opts : dict
        Its options, checked.
    alternative, method : str
        Checked values ("jackknife": the only method of an index of object pairs).
    level : float
        The interval's level (nan: the test alone).
    rng : numpy.random.Generator
        The call's generator (the test of independence of each agreement).

    Returns
    -------
    DifferenceTest
        As ``difference_test`` returns it.

    See Also
    --------
    difference_test : The public function: its arguments checked and converted, then this.

    Examples
    --------
    >>> from clusteragree.inputs import as_clusterings
    >>> reference = [0] * 6 + [1] * 6 + [2] * 6
    >>> a, b = [0] * 6 + [1] * 5 + [2] * 7, [0] * 5 + [1] * 5 + [2] * 5 + [1, 2, 0]
    >>> rec = ca.get_index("element_centric")
    >>> pairs = [as_clusterings(reference, c, table=False, pairs=[rec.name]) for c in (a, b)]
    >>> res = pair_difference_of([(c, c.pair(rec)) for c in pairs], rec, {}, "two-sided",
    ...                          "jackknife", 0.95, np.random.default_rng(1))
    >>> res.statistic == ca.difference_test(reference, a, b, index=rec).statistic
    True
    """
    (ca_, pa), (cb, pb) = inputs
    n = pa[0].shape[0]
    need = max(3, fewest_objects(rec, leave_one_out=True))
    if n < need:
        raise ValueError(f"difference_test needs at least {need} objects (index {rec.name!r} "
                         f"needs {rec.min_n}, and the jackknife one more), got n = {n}")
    values = (float(evaluate_pairwise(rec, pa, opts)), float(evaluate_pairwise(rec, pb, opts)))
    loo = _object_jackknife(rec, opts, ca_, pa) - _object_jackknife(rec, opts, cb, pb)
    near = _near_independence(rec, opts, (ca_, cb), values, rng)
    name = (f"reference, a and b ({pa[1]}, {pa[3]} and {pb[3]} inputs; n = {n:,} objects, "
            "each left out in turn)")
    return _test(rec, values, loo, np.ones(n), name, near, alternative, method, level, 0,
                 None, None)


def _test(rec, values, loo, weights, data_name, near, alternative, method, level, B,
          bootstrap, second, *, auto=False) -> DifferenceTest:
    """The test from the two agreements and the leave-one-out differences (with how many
    objects each stands for); ``near``: the clusterings near independence; ``bootstrap``
    draws the resampled differences (method "bootstrap"), ``second`` sums the squared second
    differences (method "corrected"); ``auto``: "corrected" was chosen by method "auto", and
    a corrected variance that is not positive falls back to the plain jackknife's."""
    value_a, value_b = values
    delta = value_a - value_b
    n = int(round(weights.sum()))
    common = dict(statistic=delta, agreement_a=value_a, agreement_b=value_b,
                  alternative=alternative, method=method, index=rec.name, n_objects=n,
                  data_name=data_name, record=rec, confidence_level=level,
                  df=float(n - 1), n_resamples=B if method == "bootstrap" else 0)
    notes = [f"near independence: the test of independence from the reference does not "
             f"reject at level {INDEPENDENCE_LEVEL:g} for {' and '.join(near)}; there the "
             "agreement's U-statistics degenerate and the standard error, interval and "
             "p-value may not hold their level"] if near else []
    if notes:
        warnings.warn(notes[0], UserWarning, stacklevel=3)
    tol = 1e-12 * max(1.0, abs(value_a), abs(value_b))
    if not np.all(np.isfinite(loo)):
        return _na(common, notes, f"index {rec.name!r} is not a number on some table with "
                                  "one object left out")
    if abs(delta) <= tol and np.all(np.abs(loo) <= tol):
        notes.append("a and b agree equally with the reference on the objects and on every "
                     "table with one object left out (the same partition): the difference "
                     "is 0 with no spread, p = 1")
        lo, hi = (0.0, 0.0) if alternative == "two-sided" else \
            ((0.0, math.inf) if alternative == "greater" else (-math.inf, 0.0))
        return DifferenceTest(**common, standard_error=0.0, pvalue=1.0, estimate=0.0,
                              low=lo if level == level else math.nan,
                              high=hi if level == level else math.nan, note="; ".join(notes))
    ji = jackknife_interval(rec, delta, loo, weights, 0.95 if level != level else level)
    if method == "bootstrap":
        boot = bootstrap()
        lo, hi = _boot_interval(boot, level, alternative) if level == level else (math.nan,
                                                                                  math.nan)
        return DifferenceTest(**common, standard_error=float(np.std(boot, ddof=1)),
                              pvalue=_boot_pvalue(boot, alternative), estimate=delta,
                              low=lo, high=hi, note="; ".join(notes),
                              bootstrap_distribution=boot)
    se = ji.standard_error
    if not se > tol:
        return _na(common, notes, "every object's leave-one-out difference gives the same "
                                  "pseudovalue: the jackknife has no spread to make a standard "
                                  "error from", estimate=ji.center)
    if method == "corrected":
        var = (n / (n - 1)) ** 2 * se ** 2 - (n - 3) / (n - 1) * second()
        if auto and not var > tol ** 2:
            common["method"] = "jackknife"
            notes.append(f"method 'auto': the corrected variance is {var:.3g}, not positive, "
                         "so the plain jackknife's is used")
            var = se ** 2
        if not var > tol ** 2:
            return _na(common, notes, f"the corrected variance is {var:.3g}, not positive "
                                      "(the quadratic part of the difference exceeds its "
                                      "jackknife variance): method='jackknife' gives the "
                                      "plain one", estimate=ji.center)
        se = math.sqrt(var)
    t = ji.center / se
    lo, hi = _one_sided(ji.center, se, n - 1, level, alternative) if level == level else (
        math.nan, math.nan)
    lo, hi = _within_reach(rec, lo, hi, notes)
    return DifferenceTest(**common, standard_error=se, pvalue=_t_pvalue(t, n - 1, alternative),
                          estimate=ji.center, low=float(lo), high=float(hi),
                          note="; ".join(notes), tstat=float(t))


def _within_reach(rec, lo: float, hi: float, notes: list) -> tuple[float, float]:
    """The t interval cut to the values a difference of the index can take, [-w, w] with w
    the width of the index's range (an interval of ARI differences reached 7.45 on 3 objects;
    the difference lies in [-2, 2]). The true difference lies there, so the cut interval
    covers it whenever the whole one did; a note says so. Infinite bounds of a one-sided
    interval stay infinite."""
    width = float(rec.range[1]) - float(rec.range[0])
    if not math.isfinite(width):
        return lo, hi
    cut = (max(lo, -width) if math.isfinite(lo) else lo,
           min(hi, width) if math.isfinite(hi) else hi)
    if cut != (lo, hi):
        notes.append(f"the t interval [{lo:.4g}, {hi:.4g}] is cut to the differences the index "
                     f"can take, [{-width:g}, {width:g}]")
    return cut


def _na(common, notes, reason, estimate=math.nan) -> DifferenceTest:
    """A result with no standard error, interval or p-value, and the reason (warned)."""
    warnings.warn(f"no standard error, interval or p-value: {reason}", UserWarning,
                  stacklevel=4)
    return DifferenceTest(**common, standard_error=math.nan, pvalue=math.nan,
                          estimate=estimate, low=math.nan, high=math.nan,
                          note="; ".join([*notes, reason]))
