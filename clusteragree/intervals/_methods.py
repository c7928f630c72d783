"""The registry of interval methods: what each one needs, and how it makes an interval of it.

A method is one record (``IntervalMethod``), declared next to its algorithm with
``register_interval_method``, as the null methods are (``clusteragree.nulls.NullMethod``):
"jackknife" in ``clusteragree.intervals.jackknife``, "BCa" and "percentile" in
``clusteragree.intervals.bootstrap``, "auto" in ``clusteragree.intervals.rules``. A record says
what the method needs (bootstrap resamples, the leave-one-out values, the law of the test of
independence); the engine draws those once for all the indices of a call and hands each
index's to the method (``Draws``). The names a spec may give are the registered ones
(``interval_methods``): no other list of them exists.

The one rule of the objects an interval needs is here too (``fewest_objects``): an index needs
``rec.min_n`` objects, and a method that leaves one out needs one more, so that each
leave-one-out value has its ``rec.min_n``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .._validate import describe_object, suggest

__all__ = ["IntervalMethod", "Draws", "register_interval_method", "get_interval_method",
           "interval_methods", "fewest_objects"]


def fewest_objects(rec, leave_one_out: bool) -> int:
    """The fewest objects an index takes: its own minimum, one more to leave one out.

    A leave-one-out value is the index on n - 1 objects, which must be at least the index's
    own minimum ``rec.min_n``; and never fewer than 2 objects.

    Parameters
    ----------
    rec : Index
        The index's record.
    leave_one_out : bool
        Whether the objects are left out one at a time (a jackknife).

    Returns
    -------
    int
        The fewest objects.

    Examples
    --------
    >>> rec = ca.get_index("rand")
    >>> rec.min_n, fewest_objects(rec, False), fewest_objects(rec, True)
    (2, 2, 3)
    """
    return max(rec.min_n + (1 if leave_one_out else 0), 2)


@dataclass(frozen=True)
class Draws:
    """What an interval is made from: one index's estimate and what its method asked for.

    Parameters
    ----------
    rec : Index
        The index's record.
    statistic : float
        The index on the observed clusterings (the estimate).
    confidence_level : float
        The nominal coverage.
    resampling : {"cells", "objects"}, default "cells"
        How the objects were resampled (a table's cells, or the objects themselves).
    options : dict, optional
        The index's checked options.
    counts : numpy.ndarray, optional
        The table (a table index); None for an index of object pairs.
    bootstrap : numpy.ndarray, optional
        The index on each bootstrap resample (the methods that draw them).
    jackknife : (numpy.ndarray, numpy.ndarray), optional
        The leave-one-out values and how many objects each stands for.
    law : NullDistribution, optional
        The index's law under the permutation null (the test of independence).
    reason : str, default ""
        Why the index has no interval: it is not defined on some resample.

    See Also
    --------
    IntervalMethod : Its ``make`` takes one.
    clusteragree.intervals.interval_from_draws : Makes one from draws already made.

    Examples
    --------
    >>> from clusteragree.intervals import Draws, get_interval_method
    >>> d = Draws(ca.get_index("rand"), 0.5, 0.95, bootstrap=np.linspace(0.4, 0.6, 101))
    >>> ci = get_interval_method("percentile").make(d)
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.405, 0.595)
    """

    rec: object
    statistic: float
    confidence_level: float
    resampling: str = "cells"
    options: dict | None = None
    counts: np.ndarray | None = None
    bootstrap: np.ndarray | None = None
    jackknife: tuple | None = None
    law: object = None
    reason: str = ""


@dataclass(frozen=True)
class IntervalMethod:
    """One way of making a confidence interval of an index: what it needs, how it makes it.

    Declared next to its algorithm with ``register_interval_method``; the engine
    (``clusteragree.intervals.intervals_of``) draws what a record needs and calls its
    ``make``.

    Parameters
    ----------
    name : str
        The name a spec gives (``IntervalSpec(method=...)``), in its canonical spelling.
    description : str
        The method in a few words, for printing ("the jackknife").
    make : callable
        ``make(draws)`` returns the ``ConfidenceInterval`` of one index from its ``Draws``.
    bootstrap : bool, default False
        It needs the index on bootstrap resamples of the objects (``n_resamples`` of them).
    jackknife : bool, default False
        It needs the leave-one-out values (one object more than the index's minimum).
    independence_test : bool, default False
        It needs the index's law under the permutation null (the test of independence).

    See Also
    --------
    register_interval_method : Declare a method.
    get_interval_method : The record of a name.

    Examples
    --------
    >>> from clusteragree.intervals import get_interval_method
    >>> m = get_interval_method("BCa")
    >>> m.bootstrap, m.jackknife, m.independence_test
    (True, True, False)
    """

    name: str
    description: str
    make: Callable
    bootstrap: bool = False
    jackknife: bool = False
    independence_test: bool = False

    def needs(self, rec) -> int:
        """The fewest objects an interval of the index ``rec`` takes by this method.

        Parameters
        ----------
        rec : Index
            The index's record.

        Returns
        -------
        int
            ``fewest_objects(rec, self.jackknife)``.
        """
        return fewest_objects(rec, self.jackknife)


_METHODS: dict[str, IntervalMethod] = {}


def register_interval_method(method: IntervalMethod) -> IntervalMethod:
    """Declare an interval method.

    Parameters
    ----------
    method : IntervalMethod
        The record.

    Returns
    -------
    IntervalMethod
        The record, as registered.

    Raises
    ------
    ValueError
        A name declared twice (in any case).

    See Also
    --------
    IntervalMethod : What a record holds.
    interval_methods : The registered names.

    Examples
    --------
    A toy method, the whole range of the index, for any index:

    >>> from clusteragree.intervals import ConfidenceInterval, IntervalMethod
    >>> from clusteragree.intervals._methods import unregister_interval_method
    >>> def everything(d):
    ...     low, high = (float(v) for v in d.rec.range)
    ...     return ConfidenceInterval(d.rec.name, d.statistic, low, high, d.confidence_level,
    ...                               "everything", 0, float("nan"), np.empty(0),
    ...                               d.resampling)
    >>> _ = register_interval_method(IntervalMethod("everything", "the whole range",
    ...                                             everything))
    >>> ca.confidence_interval([[3, 1], [1, 3]], index="rand", method="everything").high
    1.0
    >>> unregister_interval_method("everything")
    """
    if method.name.lower() in {name.lower() for name in _METHODS}:
        raise ValueError(f"interval method {method.name!r} declared twice")
    _METHODS[method.name] = method
    return method


def unregister_interval_method(name: str) -> None:
    """Remove a method record (for tests that add a toy method)."""
    _METHODS.pop(name, None)


def interval_methods() -> list[str]:
    """The interval methods a spec may name: the default "auto" first, then as registered.

    Returns
    -------
    list of str
        The names, in their canonical spelling.

    See Also
    --------
    get_interval_method : The record of a name.

    Examples
    --------
    >>> interval_methods()
    ['auto', 'jackknife', 'BCa', 'percentile']
    """
    return list(dict.fromkeys(["auto", *_METHODS]))


def get_interval_method(name: str) -> IntervalMethod:
    """The record of an interval method, by its name in any case.

    Parameters
    ----------
    name : str
        The method's name ("bca" is "BCa").

    Returns
    -------
    IntervalMethod
        The record.

    Raises
    ------
    TypeError
        Not a string.
    ValueError
        Not a registered method; the error names them (with a did-you-mean).

    See Also
    --------
    interval_methods : The names.

    Examples
    --------
    >>> get_interval_method("bca").name
    'BCa'
    """
    names = interval_methods()
    if not isinstance(name, str):
        raise TypeError(f"method must be an interval method name ({names}), got "
                        f"{describe_object(name)} {name!r}")
    lower = {m.lower(): m for m in names}
    if name.lower() not in lower:
        close = suggest(name.lower(), lower)
        for low, canonical in lower.items():
            close = close.replace(repr(low), repr(canonical))
        raise ValueError(f"method must be one of {names} (in any case), got {name!r}."
                         + close)
    return _METHODS[lower[name.lower()]]
