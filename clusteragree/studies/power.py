"""Power and sample size of the package's agreement tests: how many objects a study needs.

``power(population, n, index)`` is the power of ``agreement_test`` (its default method: the
permutation test of independence) or of ``difference_test`` (the paired test of two agreements
with one reference) at n objects drawn from a population; ``sample_size`` is the n that
reaches a power, or an expected interval width. Analytic where the benchmark finds it within 2
points of the test simulated (``power_analytic``), the test itself simulated elsewhere
(``power_simulation``); ``method="auto"`` decides by ``analytic_is_trusted``.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pandas as pd

from .._validate import check_choice, check_fraction, check_positive_int, check_seed
from ..indices import get_index
from ..inference.agreement_tests import default_alternative
from ..nulls.distribution import ALTERNATIVES
from .populations import Population, population, relabel_population
from .power_analytic import alternative_of, difference_power, independence_power, interval_width
from .power_results import POWER_COLUMNS, PowerCalculation
from .power_simulation import DEFAULT_REPLICATES, simulate_power

__all__ = ["MAX_N", "METHODS", "MIN_EXPECTED", "MIN_EXPECTED_INDEPENDENCE", "analytic_is_trusted",
           "cochran", "expected_smallest_cell", "power", "sample_size"]

#: The ways of computing a power.
METHODS = ("auto", "analytic", "simulation")

#: For the difference test of an index of the pair counts, ``method="auto"`` takes the analytic
#: power when the tables expected under independence (of the reference with a and with b),
#: n p_i. p_.j, meet Cochran's rule for the chi-square test: no cell below 1 object and at most
#: 20% of the cells below 5; benchmarks/results/power.md measures it.
MIN_EXPECTED = (1, 5, 0.2)
#: The independence test's analytic power is taken by method="auto" when every cell of the
#: table expected under independence holds at least this many objects: below it (3 x 3 at
#: n < 200, 5 x 5 at n < 670 in the benchmark's populations) the analytic power ran 3-5
#: points above the simulated test (benchmarks/results/power.md, re-judged by
#: ``bench_power.py --rejudge``); from it, within 2 points + 2 Monte Carlo s.e.
MIN_EXPECTED_INDEPENDENCE = 12

#: The largest n ``sample_size`` searches.
MAX_N = 10**6


def cochran(pop: Population, n: int) -> tuple[bool, str]:
    """Whether the tables expected under independence at n objects meet Cochran's rule
    (``MIN_EXPECTED``), and their smallest cell and share of cells below 5, in words."""
    p = pop.probabilities
    tables = [p] if p.ndim == 2 else [p.sum(axis=2), p.sum(axis=1)]
    low, share = math.inf, 0.0
    for t in tables:
        rows, cols = t.sum(axis=1), t.sum(axis=0)
        expected = n * np.outer(rows[rows > 0], cols[cols > 0])
        low = min(low, float(expected.min()))
        share = max(share, float(np.mean(expected < MIN_EXPECTED[1])))
    ok = low >= MIN_EXPECTED[0] and share <= MIN_EXPECTED[2]
    words = (f"the table expected under independence has its smallest cell {low:.3g} and "
             f"{100 * share:.0f}% of its cells below {MIN_EXPECTED[1]} (Cochran's rule "
             f"{'met' if ok else 'not met'})")
    return ok, words


def analytic_is_trusted(pop: Population, n: int, rec, alternative: str) -> tuple[bool, str]:
    """Whether ``method="auto"`` takes the analytic power, and why (or why not).

    Parameters
    ----------
    pop : Population
        The population.
    n : int
        The number of objects.
    rec : Index
        The index's record.
    alternative : str
        The test's alternative (checked).

    Returns
    -------
    (bool, str)
        The decision and its reason in words.

    See Also
    --------
    power : Uses it under ``method="auto"``.

    Examples
    --------
    >>> pop = ca.relabel_population([0.5, 0.5], 0.6)
    >>> analytic_is_trusted(pop, 100, ca.get_index("ari"), "greater")[0]
    True
    """
    if pop.test == "independence":
        if rec.on_pairs or getattr(rec, "statistic", None) not in ("s", "t"):
            return False, (f"index {rec.name!r} is no function of s = sum n_ij^2 or "
                           "t = sum n_ij log n_ij given the margins")
        if alternative == "two-sided":
            return False, "the analytic power is one-sided"
        low = expected_smallest_cell(pop, n)
        if low < MIN_EXPECTED_INDEPENDENCE:
            return False, (f"the table expected under independence has its smallest cell "
                           f"{low:.3g}, below {MIN_EXPECTED_INDEPENDENCE} (there the analytic "
                           "power ran up to 5 points high in benchmarks/results/power.md)")
        return True, (f"the table expected under independence has its smallest cell "
                      f"{low:.3g} (at least {MIN_EXPECTED_INDEPENDENCE})")
    if rec.on_pairs:
        return False, f"index {rec.name!r} compares object pairs, not tables"
    if getattr(rec, "statistic", None) != "s":
        return False, ("the analytic power of the difference test is trusted for indices of "
                       f"the pair counts only ({rec.name!r}: it ran 2-4 points high for AMI "
                       "and NMI in benchmarks/results/power.md)")
    return cochran(pop, n)


def expected_smallest_cell(pop: Population, n: int) -> float:
    """The smallest cell of the table expected under independence at n objects,
    ``n p_i. p_.j`` (for a three-way population, of both tables of the reference with a and
    b)."""
    p = pop.probabilities
    tables = [p] if p.ndim == 2 else [p.sum(axis=2), p.sum(axis=1)]
    low = math.inf
    for t in tables:
        rows, cols = t.sum(axis=1), t.sum(axis=0)
        low = min(low, float((n * np.outer(rows[rows > 0], cols[cols > 0])).min()))
    return low


def _check_test(pop: Population, test) -> str:
    if test is None:
        return pop.test
    test = check_choice(test, "test", ("independence", "difference"))
    if test != pop.test:
        need = "a K x Q" if test == "independence" else "a K x Qa x Qb (reference x a x b)"
        raise ValueError(f"test={test!r} needs {need} population, got a "
                         f"{' x '.join(map(str, pop.shape))} one")
    return test


def _alternative(rec, test: str, alternative) -> str:
    if test == "independence":
        return default_alternative(rec, alternative)
    return "two-sided" if alternative is None else check_choice(alternative, "alternative",
                                                                ALTERNATIVES)


def _populations(pop: Population, effect, rec, options) -> list[tuple[float | None, Population]]:
    """(effect asked, population) pairs: the population itself, or the model at each effect."""
    if effect is None:
        return [(None, pop)]
    if not pop.is_model:
        raise ValueError("effect= sets the index value of a generating model: pass a "
                         "population from ca.relabel_population (a table has its own effect)")
    effects = np.atleast_1d(np.asarray(effect, dtype=float))
    if effects.ndim != 1 or effects.size == 0 or not np.all(np.isfinite(effects)):
        raise ValueError(f"effect must be a finite number or a sequence of them, got "
                         f"{effect!r}")
    share = None if pop.test == "independence" else (pop.share[0], None)
    return [(float(e), relabel_population(pop.sizes, share, k=pop.k, index=rec.name,
                                          value=float(e) if pop.test == "difference"
                                          else float(e) + _base(pop, rec, options)))
            for e in effects]


def _base(pop: Population, rec, options) -> float:
    """The index of the model's population at independence (share 1)."""
    from .populations import population_value

    return population_value(pop.at_share(1.0), rec.name, **options)


def _ns(n) -> list[int]:
    if n is None:
        raise TypeError("n is required: the number of objects (or a sequence of them); "
                        "ca.sample_size solves for n")
    values = np.atleast_1d(np.asarray(n))
    if values.ndim != 1 or values.size == 0:
        raise ValueError(f"n must be a whole number of objects or a sequence of them, got {n!r}")
    return [check_positive_int(v, "n", minimum=3) for v in values.tolist()]


class _Calculator:
    """One power calculation's settings, checked once; ``at(n, pop)`` is the power there."""

    def __init__(self, test, rec, options, alpha, alternative, method, n_sim, rng, progress):
        self.test, self.rec, self.options = test, rec, options
        self.alpha, self.alternative, self.method = alpha, alternative, method
        self.R = DEFAULT_REPLICATES if n_sim is None else check_positive_int(n_sim, "n_sim")
        self.rng, self.progress = rng, progress
        self.law_seed = int(rng.integers(2**32))
        self._alt: dict = {}
        self.reasons: list[str] = []

    def alt(self, pop: Population):
        key = id(pop)
        if key not in self._alt:
            self._alt[key] = (pop, alternative_of(pop, self.rec, self.options))
        return self._alt[key][1]

    def way(self, pop: Population, n: int) -> str:
        if self.method != "auto":
            if (self.method == "analytic" and self.test == "independence"
                    and self.alternative == "two-sided"):
                raise ValueError("method='analytic' gives the one-sided power of the test of "
                                 "independence: use method='simulation' for two-sided")
            return self.method
        ok, why = analytic_is_trusted(pop, n, self.rec, self.alternative)
        self.reasons.append(f"n = {n:,}: {why}")
        return "analytic" if ok else "simulation"

    def analytic(self, pop: Population, n: int) -> float:
        alt = self.alt(pop)
        if self.test == "difference":
            return difference_power(n, self.alpha, self.alternative, alt)
        seed = np.random.SeedSequence([self.law_seed, n])  # one stream per n: a smooth search
        return independence_power(pop, n, self.rec, self.options, self.alpha,
                                  self.alternative, alt, seed)["power"]

    def at(self, n: int, pop: Population, effect: float | None) -> dict:
        way = self.way(pop, n)
        alt = self.alt(pop)
        row = {"n": n, "effect": alt.delta if effect is None else effect, "method": way,
               "alpha": self.alpha, "alternative": self.alternative, "index": self.rec.name,
               "test": self.test}
        if way == "analytic":
            return row | {"power": self.analytic(pop, n), "power_se": math.nan, "n_sim": None}
        sim = simulate_power(pop, n, self.rec, self.options, self.alpha, self.alternative,
                             self.R, self.rng, self.progress)
        return row | {"power": sim["power"], "power_se": sim["se"], "n_sim": sim["replicates"]}


def _result(calc: _Calculator, rows: list[dict], pop: Population, **extra) -> PowerCalculation:
    curve = pd.DataFrame(rows, columns=list(POWER_COLUMNS))
    first = rows[-1] if extra.get("target") is not None or extra.get("width") is not None \
        else rows[0]
    methods = sorted(set(curve.method))
    note = [f"the power of {'agreement_test' if calc.test == 'independence' else 'difference_test'}"
            f" with its default method at n objects drawn at random from the population "
            f"(its effect: the index of the population less its value at independence)"
            if calc.test == "independence" else
            "the power of difference_test with its default method at n objects drawn at "
            "random from the population"]
    if calc.method == "auto":
        note.append("method 'auto': " + "; ".join(dict.fromkeys(calc.reasons)))
    if extra.get("checked"):
        note.append(extra.pop("checked"))
    else:
        extra.pop("checked", None)
    return PowerCalculation(
        n=int(first["n"]), power=float(first["power"]), index=calc.rec.name, test=calc.test,
        effect=float(first["effect"]), alpha=calc.alpha, alternative=calc.alternative,
        method=first["method"] if len(rows) == 1 or extra.get("target") is not None
        else methods[0] if len(methods) == 1 else "analytic and simulation",
        population=pop, power_se=float(first["power_se"]),
        n_sim=None if first["n_sim"] is None or pd.isna(first["n_sim"]) else int(first["n_sim"]),
        note="; ".join(note), curve=curve, **extra)


def _calculator(population_, index, alpha, test, alternative, method, n_sim, seed, progress,
                options):
    pop = population(population_)
    rec = get_index(index)
    if rec.on_pairs:
        raise ValueError(f"index {rec.name!r} compares memberships or object pairs; the power "
                         "is computed for table indices (hard partitions)")
    test = _check_test(pop, test)
    alpha = check_fraction(alpha, "alpha")
    alternative = _alternative(rec, test, alternative)
    method = check_choice(method, "method", METHODS)
    rng = check_seed(seed)
    return pop, _Calculator(test, rec, dict(options), alpha, alternative, method, n_sim, rng,
                            bool(progress))


def power(population, n=None, index="adjusted_rand", alpha=0.05, *, test=None, effect=None,
          alternative=None, method="auto", n_sim=None, seed=None, progress=False,
          **options) -> PowerCalculation:
    """The power of the package's agreement test at n objects drawn from a population.

    The test of independence is ``agreement_test(x, y, index=index)`` with its default method
    (the exact permutation law given the margins, or 17,000 Patefield tables): every index
    that is a function of s = sum n_ij^2 (ARI, Rand, Jaccard, ...) or t = sum n_ij log n_ij
    (AMI, NMI, MI, VI, ...) given the margins has the power of its statistic. The difference
    test is ``difference_test(reference, a, b, index=index)`` on a 3-way population.

    Parameters
    ----------
    population : array-like or Population
        K x Q cell probabilities of x and y (the test of independence) or K x Qa x Qb of the
        reference, a and b (the difference test), summing to 1 (``ca.population``), or a
        generating model (``ca.relabel_population``).
    n : int or sequence of int
        The number of objects; a sequence gives a power curve (``res.curve``).
    index : str, default "adjusted_rand"
        A table index (``ca.list_indices()``).
    alpha : float, default 0.05
        The level of the test.
    test : {"independence", "difference"}, optional
        The test; default from the population's shape (2-way or 3-way).
    effect : float or sequence of float, optional
        With a generating model: the population's index value less its value at independence
        (test of independence), or the difference I(reference, a) - I(reference, b) (share_b
        solved, share_a kept); a sequence gives a power curve over the effect.
    alternative : {"greater", "less", "two-sided"}, optional
        The test's alternative; default the index's direction (independence) or "two-sided"
        (difference).
    method : {"auto", "analytic", "simulation"}, default "auto"
        "analytic": see Notes; "simulation": the test itself on ``n_sim`` studies drawn from
        the population; "auto": analytic where ``analytic_is_trusted`` (test of
        independence: an index of s or t, one-sided, and every cell of the table expected
        under independence at least 12 objects; difference test: an index of the pair
        counts and Cochran's rule on the expected tables), simulation elsewhere.
        ``res.method`` says which.
    n_sim : int, optional
        Studies simulated per n (default 1,000: a Monte Carlo s.e. of at most 1.6 points).
    seed : None, int, SeedSequence or Generator
        The randomness of the simulation and of Monte Carlo null laws.
    progress : bool, default False
        A progress bar over the simulated studies.
    **options
        The index's options.

    Returns
    -------
    PowerCalculation
        ``power``, ``n``, ``effect``, ``method``, ``power_se`` (simulation), ``curve`` (every
        n and effect), ``note``; printed as R's ``power.htest``.

    Raises
    ------
    ValueError, TypeError
        A population that is not a table of probabilities, a bad n, alpha, alternative,
        method or test, an effect without a generating model or out of its reach, named.

    See Also
    --------
    sample_size : The n for a power or an interval width.
    relabel_population : A population from an effect.
    clusteragree.agreement_test : The test of independence.
    clusteragree.difference_test : The paired difference test.

    Notes
    -----
    **Analytic power of the test of independence.** At the expected margins (``n p_i.``,
    ``n p_.j``
    in whole objects) the package's null law Q of the index gives the rejection threshold c
    (its p-value at most alpha; halfway between the last value kept and the first rejected).
    At n objects the index is approximated by Q + Delta + b / n + L: Delta is the index of
    the population less its value at independence, b / n the difference of the estimator's
    O(1/n) biases, and L the linear part of the index, of variance sigma^2 / n (sigma^2 from
    the jackknife variance of the index on the population's table of 10**5 objects) and
    third cumulant 1.5 sd_0 skew_0 sigma^2 / n from its product with the quadratic part (as
    the non-central chi-square's 24 lambda; sd_0 and skew_0 those of Q), fitted by a shifted
    gamma law. So power = E_Q[P(L >= c - Q - Delta - b / n)]: the test's size at independence,
    the normal power far from it, and for G = 2 n MI the classical non-central chi-square
    approximation between (Cohen 1988; Agresti 2013).

    **Analytic power of the difference test**: a t test of non-centrality
    Delta sqrt(n) / sigma with n - 1 degrees of freedom (non-central t), sigma^2 the jackknife
    variance of Delta on the population's table.

    **Simulation**: n objects drawn from the population (multinomial) ``n_sim`` times; the
    test with its default method on each; the share with p <= alpha, with its Monte Carlo
    standard error sqrt(p (1 - p) / R). ``benchmarks/bench_power.py`` measures the analytic
    power against the simulated test.

    References
    ----------
    Cohen, J. (1988), "Statistical power analysis for the behavioral sciences", 2nd ed.,
    Lawrence Erlbaum, ch. 7.

    Agresti, A. (2013), "Categorical data analysis", 3rd ed., Wiley, sec. 6.6.

    Steinley, D., Brusco, M. J. & Hubert, L. (2016), "The variance of the adjusted Rand index",
    Psychological Methods 21(2), 261-272.

    Dalmaijer, E. S., Nord, C. L. & Astle, D. E. (2022), "Statistical power for cluster
    analysis", BMC Bioinformatics 23, 205.

    Cochran, W. G. (1954), "Some methods for strengthening the common chi-square tests",
    Biometrics 10, 417-451.

    Examples
    --------
    A card sort: 4 categories of 40/30/20/10% of the cards; a participant's sort relabels 80%
    of the cards at random. How likely does a study of 300 cards show agreement?

    >>> pop = ca.relabel_population([0.4, 0.3, 0.2, 0.1], 0.8)
    >>> res = ca.power(pop, n=300, index="ari", method="analytic", seed=1)
    >>> round(res.power, 2), res.method
    (0.99, 'analytic')
    >>> curve = ca.power(pop, n=[200, 400], index="ari", method="analytic", seed=1).curve
    >>> curve[["n", "power"]].round(3).values.tolist()
    [[200.0, 0.927], [400.0, 0.998]]
    >>> analytic_is_trusted(pop, 300, ca.get_index("ari"), "greater")[0]  # what auto takes
    False
    """
    pop, calc = _calculator(population, index, alpha, test, alternative, method, n_sim, seed,
                            progress, options)
    ns = _ns(n)
    pops = _populations(pop, effect, calc.rec, calc.options)
    rows = [calc.at(m, p, e) for e, p in pops for m in ns]
    return _result(calc, rows, pops[0][1] if len(pops) == 1 else pop)


def _search(f, target: float, start: int) -> tuple[int, dict]:
    """The smallest n (from 3) at which f(n) >= target that f(n - 1) misses, by doubling from
    ``start`` then bisection; every value computed, by n."""
    seen: dict = {}

    def value(m):
        if m not in seen:
            seen[m] = f(m)
        return seen[m]

    lo, hi = 2, max(3, int(start))
    while value(hi) < target:
        lo, hi = hi, hi * 2
        if hi > MAX_N:
            raise ValueError(f"the target is not reached by n = {MAX_N:,} objects "
                             f"(at n = {lo:,}: {value(lo):.3g})")
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if value(mid) >= target:
            hi = mid
        else:
            lo = mid
    return hi, seen


def sample_size(population, power=0.8, index="adjusted_rand", alpha=0.05, *, test=None,
                effect=None, alternative=None, width=None, level=0.95, method="auto",
                n_sim=None, seed=None, progress=False, **options) -> PowerCalculation:
    """The number of objects a study needs: for a power of the package's test, or for an
    expected interval width.

    Parameters
    ----------
    population : array-like or Population
        As ``power`` takes it.
    power : float, default 0.8
        The target power.
    index : str, default "adjusted_rand"
        A table index.
    alpha : float, default 0.05
        The level of the test.
    test : {"independence", "difference"}, optional
        The test; default from the population's shape.
    effect : float, optional
        With a generating model, the effect to detect (as ``power`` takes it).
    alternative : str, optional
        The test's alternative (as ``power``).
    width : float, optional
        Plan precision instead: the n whose expected ``level`` jackknife t interval of the
        index (of the difference, for a 3-way population), 2 t_{n-1} sigma / sqrt(n), is at
        most this wide; ``power`` and ``alpha`` are then not used.
    level : float, default 0.95
        The interval's level, with ``width``.
    method : {"auto", "analytic", "simulation"}, default "auto"
        How the power is computed along the search. "auto": the analytic power for the
        search; where ``analytic_is_trusted`` says no at the n found, the test is simulated
        there and at n - 1 and the result says what the simulation gave.
        "simulation": the search itself by simulation (slow: ``n_sim`` studies per n).
    n_sim : int, optional
        Studies simulated per n (default 1,000).
    seed : None, int, SeedSequence or Generator
        The randomness.
    progress : bool, default False
        A progress bar over the simulated studies.
    **options
        The index's options.

    Returns
    -------
    PowerCalculation
        ``n`` the smallest n found whose power reaches ``power`` while n - 1 misses it (the
        power of a test of discrete statistics need not grow at every step), ``power`` there,
        ``target``, ``curve`` (every n computed along the search) and ``note`` (which n were
        checked by simulation); for a width, ``width`` and ``achieved``.

    Raises
    ------
    ValueError, TypeError
        Bad arguments, named; a target not reached by ``MAX_N`` objects.

    See Also
    --------
    power : The power at given n.

    References
    ----------
    Cohen, J. (1988), "Statistical power analysis for the behavioral sciences", 2nd ed.,
    Lawrence Erlbaum, ch. 7.

    Examples
    --------
    >>> pop = ca.relabel_population([0.4, 0.3, 0.2, 0.1], index="ari", value=0.1)
    >>> res = ca.sample_size(pop, power=0.8, index="ari", method="analytic", seed=1)
    >>> res.n, round(res.power, 2)
    (59, 0.81)
    >>> ca.sample_size(pop, index="ari", width=0.1).n
    306
    """
    target = check_fraction(power, "power")
    pop, calc = _calculator(population, index, alpha, test, alternative, method, n_sim, seed,
                            progress, options)
    if effect is not None:
        if np.ndim(effect):
            raise ValueError("sample_size takes one effect (power takes a sequence)")
        pop = _populations(pop, effect, calc.rec, calc.options)[0][1]
    eff = None if effect is None else float(effect)
    alt = calc.alt(pop)
    if width is not None:
        return _for_width(calc, pop, alt, eff, width, level)
    if not alt.delta != 0:
        raise ValueError("the population's effect is 0 (independence, or a and b agree "
                         "equally with the reference): no n gives the test power above its "
                         "level")
    way = "simulation" if calc.method == "simulation" else "analytic"
    start = time.perf_counter()

    def f(m):
        if way == "simulation":
            return calc.at(m, pop, eff)["power"]
        return calc.analytic(pop, m)

    n, seen = _search(f, target, _first_guess(calc, alt, target))
    rows = [_row(calc, pop, eff, m, v, way) for m, v in sorted(seen.items())]
    checked = None
    if calc.method == "auto":
        calc.reasons.clear()
        ok, why = analytic_is_trusted(pop, n, calc.rec, calc.alternative)
        if not ok:
            sims = [calc.at(m, pop, eff) for m in (n - 1, n)]
            rows = [r for r in rows if r["n"] not in (n - 1, n)] + sims
            checked = (f"the analytic search gave n = {n:,} ({f(n):.3f}; n - 1: "
                       f"{f(n - 1):.3f}); there {why}, so the test was simulated at n - 1 "
                       f"and n ({calc.R:,} studies each): {sims[0]['power']:.3f} and "
                       f"{sims[1]['power']:.3f} (s.e. {sims[1]['power_se']:.3f})")
        else:
            calc.reasons.append(f"n = {n:,}: {why}")
    rows.sort(key=lambda r: r["n"])
    elapsed = time.perf_counter() - start
    res = _result(calc, [r for r in rows if r["n"] != n] + [r for r in rows if r["n"] == n],
                  pop, target=target, checked=checked)
    res.curve = res.curve.sort_values("n").reset_index(drop=True)
    res.note += f"; found in {elapsed:.2g} s"
    return res


def _row(calc, pop, eff, m, v, way) -> dict:
    return {"n": m, "effect": calc.alt(pop).delta if eff is None else eff, "power": v,
            "power_se": math.nan, "method": way, "n_sim": None if way == "analytic" else calc.R,
            "alpha": calc.alpha, "alternative": calc.alternative, "index": calc.rec.name,
            "test": calc.test}


def _first_guess(calc, alt, target: float) -> int:
    """A starting n from the normal approximation, n = ((z_a + z_b) sigma / Delta)^2, halved
    (the search doubles from it)."""
    from scipy import stats

    a = calc.alpha / 2 if calc.alternative == "two-sided" else calc.alpha
    z = stats.norm.ppf(1 - a) + stats.norm.ppf(target)
    if not alt.sigma > 0:
        return 8
    guess = (z * alt.sigma / abs(alt.delta)) ** 2 / 2
    return int(min(max(8, guess), MAX_N / 2))


def _for_width(calc, pop, alt, eff, width, level) -> PowerCalculation:
    w = float(width)
    if not w > 0 or not math.isfinite(w):
        raise ValueError(f"width must be a positive number, got {width!r}")
    level = check_fraction(level, "level")
    if not alt.sigma > 0:
        raise ValueError("the population's index has no spread to first order (independence, "
                         "or perfect agreement): its interval's width is not O(1/sqrt(n)), so "
                         "no width plan is made here")
    n, seen = _search(lambda m: -interval_width(m, level, alt), -w,
                      max(3, int((2 * alt.sigma / w) ** 2 / 2)))
    row = _row(calc, pop, eff, n, math.nan, "analytic")
    res = _result(calc, [row], pop, width=w, achieved=-seen[n], level=level)
    res.note = (f"the expected width of the {100 * level:g}% jackknife t interval of "
                f"{'the difference' if calc.test == 'difference' else calc.rec.name}, "
                f"2 t(n-1) sigma / sqrt(n), sigma = {alt.sigma:.4g} per object from the "
                f"population's jackknife")
    return res
