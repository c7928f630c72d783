"""Populations a study's objects are drawn from: a table of cell probabilities, checked, or one
made by a generating model (a share of objects relabelled at random) from an effect.

A *population* is a K x Q array of probabilities p_ij summing to 1 (an object falls in class
i of x and cluster j of y with probability p_ij), or a K x Qa x Qb array for the paired
comparison of two clusterings a and b with one reference. A study of n objects is a
multinomial draw of n objects from it. ``population`` checks a table (and normalises counts
only when asked); ``relabel_population`` makes one from class sizes and the share of objects
whose label is replaced by a random one, or from the index value the study should detect
(the share solved by Brent's method). ``population_value`` is an index of the population
itself: its value on a table of ``POPULATION_OBJECTS`` objects in the population's proportions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import optimize

from ..indices import evaluate_checked, get_index

__all__ = [
    "POPULATION_OBJECTS",
    "Population",
    "drop_empty",
    "expected_margins",
    "population",
    "population_value",
    "relabel_population",
]

#: The objects of the table on which an index of a population is read (its value at n objects
#: differs from the limit by O(1/n): about 1e-6 here).
POPULATION_OBJECTS = 10**6


@dataclass(frozen=True, repr=False)
class Population:
    """The population a study draws its objects from: a table of cell probabilities.

    Parameters
    ----------
    probabilities : numpy.ndarray
        K x Q (x and y) or K x Qa x Qb (a reference, a and b) probabilities, summing to 1.
    description : str
        The population in words, for printing.
    sizes : tuple of float, optional
        The class proportions of a generating model (``relabel_population``).
    share : float or tuple of float, optional
        Its share of objects relabelled at random (one per compared clustering).
    k : int, optional
        Its number of clusters of the relabelled clusterings.

    See Also
    --------
    population : A population from a table.
    relabel_population : A population from a generating model.

    Examples
    --------
    >>> pop = ca.population([[0.4, 0.1], [0.1, 0.4]])
    >>> pop.shape, pop.test
    ((2, 2), 'independence')
    """

    probabilities: np.ndarray
    description: str
    sizes: tuple | None = None
    share: object = None
    k: int | None = field(default=None)

    @property
    def shape(self) -> tuple:
        """The shape of the table of probabilities."""
        return tuple(self.probabilities.shape)

    @property
    def test(self) -> str:
        """The test the population is for: "independence" (2-way) or "difference" (3-way)."""
        return "independence" if self.probabilities.ndim == 2 else "difference"

    @property
    def is_model(self) -> bool:
        """True when the population comes from a generating model (its effect can be set)."""
        return self.sizes is not None

    def at_share(self, share) -> Population:
        """The same generating model with another share of objects relabelled.

        Parameters
        ----------
        share : float or tuple of float
            The share (one per compared clustering for a 3-way population).

        Returns
        -------
        Population
            The model's population at that share.
        """
        if not self.is_model:
            raise ValueError("population: an effect can be set only on a generating model "
                             "(ca.relabel_population), not on a table")
        return relabel_population(self.sizes, share, k=self.k)

    def __repr__(self) -> str:
        return f"Population({' x '.join(map(str, self.shape))}: {self.description})"


def _check_table(table, name: str, normalise: bool) -> np.ndarray:
    try:
        p = np.asarray(table, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a K x Q (or K x Qa x Qb) array of probabilities, got "
                        f"{type(table).__name__}") from None
    if p.ndim not in (2, 3):
        raise ValueError(f"{name} must be a K x Q array (x by y) or a K x Qa x Qb array "
                         f"(reference by a by b) of probabilities, got {p.ndim} dimension(s)")
    if not np.all(np.isfinite(p)) or (p < 0).any():
        raise ValueError(f"{name} must hold non-negative finite numbers")
    total = float(p.sum())
    if not total > 0:
        raise ValueError(f"{name} must have a positive total, got {total:g}")
    if normalise:
        p = p / total
    elif abs(total - 1) > 1e-9:
        raise ValueError(f"{name} must sum to 1 (cell probabilities), got {total:.6g}: pass "
                         "ca.population(table, normalise=True) to read counts as proportions")
    ways = p.ndim
    for axis in range(ways):  # every clustering has two clusters at least
        margin = p.sum(axis=tuple(a for a in range(ways) if a != axis))
        if np.count_nonzero(margin) < 2:
            what = ("x", "y") if ways == 2 else ("the reference", "a", "b")
            raise ValueError(f"{name}: {what[axis]} has a single cluster of positive "
                             "probability, so it cannot agree with anything beyond chance")
    return p


def population(table, *, normalise=False) -> Population:
    """A population from a table of cell probabilities, checked.

    Parameters
    ----------
    table : array-like
        K x Q probabilities (x by y: the test of independence) or K x Qa x Qb (the reference by
        a by b: the paired difference test), non-negative and summing to 1.
    normalise : bool, default False
        Read ``table`` as counts (e.g. a pilot study's contingency table) and divide by their
        total; by default a table that does not sum to 1 is refused.

    Returns
    -------
    Population
        The checked table.

    Raises
    ------
    ValueError
        A negative or non-finite cell, a total other than 1 (unless ``normalise``), or a
        clustering with one cluster of positive probability.

    See Also
    --------
    relabel_population : A population from a generating model.
    power : The power of a test at n objects drawn from it.

    Examples
    --------
    >>> ca.population([[30, 10], [10, 50]], normalise=True).probabilities.tolist()
    [[0.3, 0.1], [0.1, 0.5]]
    """
    if isinstance(table, Population):
        return table
    p = _check_table(table, "population", bool(normalise))
    return Population(p, f"a {' x '.join(map(str, p.shape))} table of probabilities")


_as_population = population


def _sizes(sizes) -> np.ndarray:
    s = np.asarray(sizes, dtype=float).ravel()
    if s.size < 2 or not np.all(np.isfinite(s)) or (s <= 0).any():
        raise ValueError(f"sizes must be two or more positive class sizes (proportions or "
                         f"counts), got {sizes!r}")
    return s / s.sum()


def _kept(share: float, K: int, k: int) -> np.ndarray:
    """P(label j | class i): the class kept with probability 1 - share, else uniform on k."""
    q = np.full((K, k), share / k)
    q[np.arange(K), np.arange(K)] += 1 - share
    return q


def _share(value, name: str) -> float:
    v = float(value)
    if not 0 <= v <= 1:
        raise ValueError(f"{name} must be a share between 0 and 1, got {value!r}")
    return v


def relabel_population(sizes, share=None, *, k=None, index=None, value=None) -> Population:
    """A population in which a share of the objects is relabelled at random.

    x holds K classes of the given proportions; y gives each object its class with probability
    1 - share, else a label drawn uniformly from k clusters, so
    p_ij = sizes_i ((1 - share) [i = j] + share / k). A pair of shares (share_a, share_b)
    makes the 3-way population of a reference and two such clusterings a and b, relabelled
    independently given the reference (``test="difference"``). share = 0 is perfect agreement,
    share = 1 independence.

    Parameters
    ----------
    sizes : array-like
        The class proportions of x (or the reference), or counts to be normalised.
    share : float or (float, float), optional
        The share of objects relabelled at random; a pair for a 3-way population. With
        ``value``: None (2-way), or a pair whose second share is None (the one solved).
    k : int, optional
        The clusters of y (of a and b) a relabelled object may get, at least K; default K.
    index : str, optional
        The index whose population value is ``value`` (default "adjusted_rand").
    value : float, optional
        The effect: the population value of ``index`` (2-way), or the difference
        I(reference, a) - I(reference, b) (3-way, share_a given); the share that gives it is
        found by Brent's method (``scipy.optimize.brentq``).

    Returns
    -------
    Population
        The population, with its model (``sizes``, ``share``, ``k``) for ``power``'s
        ``effect=``.

    Raises
    ------
    ValueError
        Bad sizes or shares, k below K, or a value no share reaches (the range is named).

    See Also
    --------
    population : A population from a table.
    population_value : The index of a population.

    References
    ----------
    Brent, R. P. (1973), "Algorithms for minimization without derivatives", Prentice-Hall,
    ch. 4.

    Examples
    --------
    >>> pop = ca.relabel_population([0.4, 0.3, 0.2, 0.1], 0.3)
    >>> round(ca.population_value(pop, "ari"), 3)
    0.502
    >>> pop = ca.relabel_population([0.4, 0.3, 0.2, 0.1], index="ari", value=0.3)
    >>> round(pop.share, 3), round(ca.population_value(pop, "ari"), 3)
    (0.462, 0.3)
    """
    s = _sizes(sizes)
    K = s.size
    k = K if k is None else int(k)
    if k < K:
        raise ValueError(f"k must be at least the number of classes ({K}), got {k}")
    if value is not None:
        return _solve(s, share, k, index or "adjusted_rand", value)
    if share is None:
        raise TypeError("relabel_population needs share= or value= (with index=)")
    if np.ndim(share) == 0:
        sh = _share(share, "share")
        p = s[:, None] * _kept(sh, K, k)
        words = f"{100 * sh:.3g}% of objects relabelled at random"
    else:
        if len(share) != 2:
            raise ValueError(f"share must be one share or a pair (share_a, share_b), got "
                             f"{share!r}")
        sh = (_share(share[0], "share_a"), _share(share[1], "share_b"))
        p = (s[:, None, None] * _kept(sh[0], K, k)[:, :, None]
             * _kept(sh[1], K, k)[:, None, :])
        words = (f"a and b relabel {100 * sh[0]:.3g}% and {100 * sh[1]:.3g}% of objects at "
                 "random")
    sizes_text = "/".join(f"{v:.3g}" for v in s)
    return Population(p, f"classes {sizes_text}, {words}", sizes=tuple(s), share=sh, k=k)


def _solve(s, share, k, index, value) -> Population:
    target = float(value)
    if share is None:
        def at(x):
            return relabel_population(s, x, k=k)
    elif np.ndim(share) == 1 and len(share) == 2 and share[1] is None:
        first = _share(share[0], "share_a")

        def at(x):
            return relabel_population(s, (first, x), k=k)
    else:
        raise ValueError("with value=, share must be None (2-way: the share solved) or "
                         "(share_a, None) (3-way: share_b solved)")

    def gap(x):
        v = population_value(at(x), index)
        return (v if np.ndim(v) == 0 else v[0] - v[1]) - target

    lo, hi = gap(0.0), gap(1.0)
    if lo * hi > 0:
        raise ValueError(f"value = {target:g} is out of reach: {index} runs from "
                         f"{lo + target:.4g} (share 0) to {hi + target:.4g} (share 1) under "
                         "this model")
    root = 0.0 if lo == 0 else 1.0 if hi == 0 else optimize.brentq(gap, 0.0, 1.0, xtol=1e-10)
    return at(root)


def drop_empty(counts: np.ndarray) -> np.ndarray:
    """A 2-way table without its empty rows and columns."""
    return counts[counts.sum(axis=1) > 0][:, counts.sum(axis=0) > 0]


def population_value(population, index="adjusted_rand", **options):
    """The index of a population: its value on a table of 10**6 objects in its proportions.

    Parameters
    ----------
    population : Population or array-like
        A population (or a table ``ca.population`` accepts).
    index : str, default "adjusted_rand"
        A table index (``ca.list_indices()``).
    **options
        The index's options.

    Returns
    -------
    float or tuple of float
        The index of x and y; for a 3-way population the pair (I(reference, a),
        I(reference, b)).

    See Also
    --------
    relabel_population : Solves the share for a value.

    Examples
    --------
    >>> round(ca.population_value([[0.5, 0], [0, 0.5]], "nmi"), 6)
    1.0
    """
    pop = _as_population(population)
    rec = get_index(index)
    counts = np.rint(pop.probabilities * POPULATION_OBJECTS).astype(np.int64)
    if counts.ndim == 2:
        return float(evaluate_checked(rec, drop_empty(counts), options))
    return tuple(float(evaluate_checked(rec, drop_empty(counts.sum(axis=axis)), options))
                 for axis in (2, 1))


def expected_margins(probabilities: np.ndarray, n: int) -> list[np.ndarray]:
    """The margins of a 2-way population at n objects, each rounded to whole objects that sum
    to n (largest remainders), without empty clusters."""
    out = []
    for margin in (probabilities.sum(axis=1), probabilities.sum(axis=0)):
        raw = margin * n
        whole = np.floor(raw).astype(np.int64)
        short = n - int(whole.sum())
        order = np.argsort(-(raw - whole), kind="stable")
        whole[order[:short]] += 1
        out.append(whole[whole > 0])
    return out
