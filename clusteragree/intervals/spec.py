"""The interval specification: an interval's method, level, resamples and seed, one checked value.

An interval is asked for as a null is (``clusteragree.nulls.NullSpec``): the common cases are
short values of one argument, ``interval=``, of ``compare``, ``iadjust`` and
``agreement_test``::

    ca.compare(tab, interval=None)          # no intervals
    ca.compare(tab, interval=0.9)           # the level
    ca.compare(tab, interval="percentile")  # the method

and everything else goes in one ``IntervalSpec``::

    ca.compare(tab, interval=ca.IntervalSpec(method="BCa", n_resamples=1999, seed=1))

(or a dict of its fields). The spec is checked once, when it is made; ``as_interval_spec``
reads any of these forms and names the argument in its errors.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace

import numpy as np

from .._validate import (check_positive_int, check_real, check_seed, child_generator,
                          describe_object, suggest)
from ..inputs import CHUNK_CELLS  # the resampled tables' cells held at once
from ._methods import fewest_objects, get_interval_method, interval_methods

__all__ = ["IntervalSpec", "as_interval_spec", "interval_spec_of", "interval_methods",
           "misplaced_interval_settings", "fewest_objects", "INDEPENDENCE_MODELS",
           "TEST_N_SIM", "CHUNK_CELLS", "check_level", "check_method", "resampling_generator"]

#: The null models that are the permutation law of independence, the test "auto" inverts
#: (both margins fixed; the objects of a pair index permuted): a caller's law of one of these
#: serves it.
INDEPENDENCE_MODELS = ("perm", "objects")

#: The Monte Carlo size of "auto"'s test of independence where its exact law is too large to
#: compute: the test decides p > alpha, and at p = 0.05 its standard error is then 0.007.
TEST_N_SIM = 999


def check_method(method) -> str:
    """A registered interval method (``interval_methods``), in any case, as it spells itself.

    Parameters
    ----------
    method : str
        The name ("bca" is "BCa", as scipy takes it).

    Returns
    -------
    str
        The name in its canonical spelling.

    Raises
    ------
    TypeError, ValueError
        Not a string, or not a registered method (named, with a did-you-mean).

    Examples
    --------
    >>> check_method("bca")
    'BCa'
    """
    return get_interval_method(method).name


def resampling_generator(seed) -> np.random.Generator:
    """The generator of a call's bootstrap, from the seed its null law was drawn with.

    A Generator goes on with its own stream (after the null's draws); an int or a
    SeedSequence gives a stream of its own (a child of the seed's sequence), so the null's
    random tables are the same with and without intervals, and the same seed gives the same
    intervals.

    Parameters
    ----------
    seed : None, int, SeedSequence or Generator
        The seed of the call (already checked).

    Returns
    -------
    numpy.random.Generator
        The bootstrap's generator.

    See Also
    --------
    clusteragree.compare : Its intervals come from this stream.

    Examples
    --------
    >>> a = resampling_generator(1).integers(10**6)
    >>> b = resampling_generator(1).integers(10**6)
    >>> bool(a == b), bool(a == np.random.default_rng(1).integers(10**6))
    (True, False)
    """
    return child_generator(seed, 1)


def check_level(confidence_level) -> float:
    """A confidence level, checked: a number strictly between 0 and 1.

    Parameters
    ----------
    confidence_level : float
        E.g. 0.95.

    Returns
    -------
    float
        The level.

    Raises
    ------
    ValueError, TypeError
        Not a number, or not in (0, 1).

    See Also
    --------
    confidence_interval : Takes it.

    Examples
    --------
    >>> check_level(0.9)
    0.9
    """
    level = check_real(confidence_level, "confidence_level", "a number between 0 and 1")
    if not 0 < level < 1:
        raise ValueError(f"confidence_level must be between 0 and 1 (e.g. 0.95), got "
                         f"{confidence_level!r}")
    return level

@dataclass(frozen=True, repr=False)
class IntervalSpec:
    """How the confidence interval of an index is made: method, level, resamples, seed.

    Parameters
    ----------
    method : str, default "auto"
        A registered interval method (``interval_methods``), in any case: "auto" (the
        jackknife, the test of independence inverted, the bound at perfect agreement:
        ``clusteragree.intervals.rules``), "jackknife", "BCa" or "percentile".
    confidence_level : float, default 0.95
        The nominal coverage, strictly between 0 and 1.
    n_resamples : int, default 9999
        Bootstrap resamples (at least 2).
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The interval's own source of randomness; None (default): a stream of the call's own
        ``seed`` (``clusteragree.intervals.spec.resampling_generator``), so the null's random
        tables are the same with and without intervals and the same call seed gives the
        same intervals.

    See Also
    --------
    as_interval_spec : Reads None, a level, a method name, a dict or a spec.
    clusteragree.compare : Takes one as ``interval=``.
    clusteragree.nulls.NullSpec : The same for a null law.

    Examples
    --------
    >>> spec = ca.IntervalSpec(method="percentile", n_resamples=999)
    >>> spec
    IntervalSpec(method='percentile', n_resamples=999)
    >>> spec.describe()
    '95% percentile intervals, 999 bootstrap resamples of the objects'
    """

    method: str = "auto"
    confidence_level: float = 0.95
    n_resamples: int = 9999
    seed: object = None

    def __post_init__(self):
        object.__setattr__(self, "method", check_method(self.method))
        object.__setattr__(self, "confidence_level", check_level(self.confidence_level))
        object.__setattr__(self, "n_resamples",
                           check_positive_int(self.n_resamples, "n_resamples", minimum=2))
        check_seed(self.seed)

    def __repr__(self) -> str:
        given = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                 if getattr(self, f.name) is not f.default
                 and not (f.name != "seed" and getattr(self, f.name) == f.default)]
        return f"IntervalSpec({', '.join(given)})"

    def describe(self) -> str:
        """The spec in words, as printed beside the intervals it makes.

        Returns
        -------
        str
            E.g. "95% BCa intervals, 9,999 bootstrap resamples of the objects".

        Examples
        --------
        >>> ca.IntervalSpec(confidence_level=0.9).describe()
        '90% intervals by the jackknife, the test of independence inverted (auto)'
        >>> ca.IntervalSpec(method="percentile", n_resamples=999).describe()
        '95% percentile intervals, 999 bootstrap resamples of the objects'
        """
        method = get_interval_method(self.method)
        if method.bootstrap:
            return (f"{100 * self.confidence_level:g}% {self.method} intervals, "
                    f"{self.n_resamples:,} bootstrap resamples of the objects")
        return f"{100 * self.confidence_level:g}% intervals by {method.description}"

    def needs(self, rec) -> int:
        """The fewest objects an interval of the index ``rec`` takes by this spec's method.

        The index's own minimum, and one object more for a method that leaves one out (its
        record's ``jackknife``: every method but "percentile"); never fewer than 2
        (``fewest_objects``).

        Parameters
        ----------
        rec : Index
            The index's record.

        Returns
        -------
        int
            The fewest objects.

        Examples
        --------
        >>> ca.IntervalSpec(method="BCa").needs(ca.get_index("rand"))
        3
        """
        return get_interval_method(self.method).needs(rec)

    def generator(self, call_seed=None) -> np.random.Generator:
        """The bootstrap's generator: from the spec's own seed, else a stream of the call's.

        Parameters
        ----------
        call_seed : None, int, SeedSequence or Generator
            The seed of the call the interval belongs to (already checked).

        Returns
        -------
        numpy.random.Generator
            ``numpy.random.default_rng(seed)`` (a Generator itself) when the spec has a seed,
            else ``resampling_generator(call_seed)``.

        Examples
        --------
        >>> a = ca.IntervalSpec(seed=3).generator(call_seed=1).integers(10**6)
        >>> bool(a == np.random.default_rng(3).integers(10**6))
        True
        """
        if self.seed is not None:
            return check_seed(self.seed)
        return resampling_generator(call_seed)


def as_interval_spec(value, name: str = "interval") -> IntervalSpec | None:
    """An interval request read from the forms a public function accepts.

    Parameters
    ----------
    value : None, float, str, dict or IntervalSpec
        None: no interval; a number: the confidence level (the other settings the
        defaults); a str: the method; a dict: ``IntervalSpec`` fields; an ``IntervalSpec``:
        itself.
    name : str, default "interval"
        The argument's name, for the errors.

    Returns
    -------
    IntervalSpec or None
        The checked spec; None for no interval.

    Raises
    ------
    TypeError
        Another kind of value, or a dict with a key that is not a field; each names the
        argument.
    ValueError
        A bad level, method, number of resamples or seed, named.

    Examples
    --------
    >>> as_interval_spec(0.9)
    IntervalSpec(confidence_level=0.9)
    >>> as_interval_spec({"method": "percentile", "n_resamples": 999})
    IntervalSpec(method='percentile', n_resamples=999)
    >>> as_interval_spec(None) is None
    True
    """
    if value is None or isinstance(value, IntervalSpec):
        return value
    names = [f.name for f in fields(IntervalSpec)]
    if isinstance(value, Mapping):
        unknown = [k for k in value if k not in names]
        if unknown:
            bad = unknown[0]
            raise TypeError(f"{name} got {bad!r}, which is not an IntervalSpec field (its "
                            f"fields: {names})." + suggest(str(bad), names))
        kwargs = dict(value)
    elif isinstance(value, str):
        kwargs = {"method": value}
    elif isinstance(value, numbers.Real) and not isinstance(value, (bool, np.bool_)):
        kwargs = {"confidence_level": value}
    else:
        raise TypeError(f"{name} must be None (no interval), a confidence level (e.g. 0.95), "
                        f"a method name ({interval_methods()}), a dict of IntervalSpec fields "
                        f"({names}) or an IntervalSpec, got {describe_object(value)} "
                        f"{value!r}")
    try:
        return IntervalSpec(**kwargs)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{name}={value!r}: {exc}") from exc


def interval_spec_of(interval=None, *, name: str = "interval", **settings) -> IntervalSpec:
    """The spec of a call that takes ``interval=`` and the spec's fields as keywords too.

    ``confidence_interval`` takes its settings either way: ``interval=`` (the forms
    ``as_interval_spec`` reads) or the keywords ``confidence_level=``, ``method=``,
    ``n_resamples=`` and ``seed=`` (None: not given). A keyword given beside ``interval=``
    must say what the spec says, except ``seed=`` where the spec has none of its own (its
    seed None): the keyword is then the spec's seed.

    Parameters
    ----------
    interval : None, float, str, dict or IntervalSpec, optional
        The spec, or one of its short forms; None: from the keywords alone.
    name : str, default "interval"
        The argument's name, for the errors.
    **settings
        ``IntervalSpec`` fields given as keywords, None where not given.

    Returns
    -------
    IntervalSpec
        The checked spec.

    Raises
    ------
    TypeError, ValueError
        A bad setting, named; a keyword that disagrees with ``interval``.

    See Also
    --------
    as_interval_spec : The forms of ``interval=``.

    Examples
    --------
    >>> interval_spec_of(None, method="BCa", confidence_level=None)
    IntervalSpec(method='BCa')
    >>> interval_spec_of(0.9, confidence_level=0.9, seed=1)
    IntervalSpec(confidence_level=0.9, seed=1)
    >>> interval_spec_of("percentile", method="BCa")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: method='BCa' disagrees with interval='percentile' (its method is ...
    """
    given = {key: value for key, value in settings.items() if value is not None}
    if interval is None:
        return IntervalSpec(**given)
    spec = as_interval_spec(interval, name)
    keywords = IntervalSpec(**given)  # each keyword checked, in its canonical form
    if "seed" in given and spec.seed is None:  # the spec has no seed of its own
        spec = replace(spec, seed=given.pop("seed"))
    for key in given:
        mine, theirs = getattr(keywords, key), getattr(spec, key)
        same = mine is theirs or ((key != "seed" or isinstance(mine, numbers.Integral))
                                  and mine == theirs)
        if not same:
            raise ValueError(f"{key}={given[key]!r} disagrees with {name}={interval!r} (its "
                             f"{key} is {theirs!r}): give the setting once")
    return spec


def misplaced_interval_settings(options) -> None:
    """Refuse an interval setting passed as a keyword of a public function (where only index
    options go): ``confidence_level=`` and ``n_resamples=`` travel in ``interval=``."""
    for key in ("confidence_level", "n_resamples"):
        if key in options:
            raise TypeError(f"{key}= is a setting of the interval: pass interval=... (a level, "
                            f"e.g. interval=0.9, or interval=ca.IntervalSpec({key}=...))")
