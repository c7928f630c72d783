"""The power of the package's tests by simulation: the test itself on studies drawn from a
population, and the share of them it rejects.

Each replicate draws n objects from the population (a multinomial draw of its cells, one batch
of tables for all replicates) and makes the package's test on them with its default method:

* the test of independence: the index against its null law given the replicate's margins,
  ``null_distribution(table, index, method="auto")`` (the exact law when it fits the budget,
  else 17,000 Patefield tables), and its p-value ``nd.pvalue(observed, alternative)``, the
  p-value ``agreement_test`` reports (without the p-value beyond the Monte Carlo floor, which
  decides nothing at the levels of a study). An exact law depends on the margins only (sorted)
  and is computed once per distinct margins;
* the paired difference test: ``difference_test`` on the replicate's 3-way table, with its
  default method and no interval.

The power is the share of replicates whose p-value is at most alpha, with its Monte Carlo
standard error sqrt(p (1 - p) / R). Every replicate's randomness comes from one generator
(``seed``); a progress bar (tqdm) follows the replicates when asked.
"""

from __future__ import annotations

import math
import warnings

import numpy as np

from ..indices import evaluate_checked
from ..inference import difference_test
from ..nulls import null_distribution
from .populations import Population, drop_empty

__all__ = ["DEFAULT_REPLICATES", "simulate_power"]

#: Replicates of a simulation by default: a Monte Carlo standard error of at most 1.6 points.
DEFAULT_REPLICATES = 1000


def _tables(pop: Population, n: int, R: int, rng) -> np.ndarray:
    p = pop.probabilities
    draws = rng.multinomial(n, p.ravel(), size=R)
    return draws.reshape((R,) + p.shape)


def _independence_pvalue(table, rec, options, alternative, rng, laws) -> float:
    table = drop_empty(table)
    if min(table.shape) < 2:  # one cluster on a side: the null law is one point, p = 1
        return 1.0
    observed = float(evaluate_checked(rec, table, options))
    key = (tuple(sorted(table.sum(axis=1))), tuple(sorted(table.sum(axis=0))))
    nd = laws.get(key)
    if nd is None:
        nd = null_distribution(table, index=rec, method="auto", seed=rng, **options)
        if nd.is_exact:
            laws[key] = nd
    return nd.pvalue(observed, alternative)


def _difference_pvalue(table, rec, options, alternative, rng) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            res = difference_test(table, index=rec, alternative=alternative, interval=None,
                                  seed=rng, **options)
        except ValueError:  # too few objects in some cell for the index: no test, no rejection
            return math.nan
    return res.pvalue


def simulate_power(pop: Population, n: int, rec, options: dict, alpha: float,
                   alternative: str, R: int, rng, progress: bool = False) -> dict:
    """The share of R replicates of n objects in which the package's test rejects at alpha.

    Returns a dict: ``power``, ``se`` (sqrt(p (1 - p) / R)), ``replicates`` and ``undefined``
    (replicates with no p-value, counted as not rejected)."""
    tables = _tables(pop, n, R, rng)
    laws: dict = {}
    pvalues = np.empty(R)
    steps = range(R)
    if progress:
        from tqdm.auto import tqdm

        steps = tqdm(steps, desc=f"power by simulation (n = {n:,})", unit="study", disable=None)
    for r in steps:
        if pop.test == "independence":
            pvalues[r] = _independence_pvalue(tables[r], rec, options, alternative, rng, laws)
        else:
            pvalues[r] = _difference_pvalue(tables[r], rec, options, alternative, rng)
    undefined = int(np.count_nonzero(np.isnan(pvalues)))
    power = float(np.count_nonzero(pvalues <= alpha * (1 + 1e-9))) / R
    return {"power": power, "se": math.sqrt(power * (1 - power) / R), "replicates": R,
            "undefined": undefined}
