"""The generic argument checks: choices, options, booleans, numbers, seeds, did-you-mean.

Each function checks one kind of argument and raises a ``TypeError`` (wrong kind of object) or a
``ValueError`` (right kind, wrong content) whose message names the argument and says what was
expected. Checks run before any work is done, so nothing is silently dropped and no result is a
silent nan. The clusterings themselves (labels, memberships, covers, matrices) are read by
``clusteragree.inputs``, and tables of counts by ``clusteragree.tables``.
"""

from __future__ import annotations

import difflib
import numbers
from collections.abc import Iterable, Sequence

import numpy as np

__all__ = ["describe_object", "suggest", "check_choice", "check_options", "check_bool",
           "check_real", "check_fraction", "check_positive_int", "check_seed", "child_generator"]


def describe_object(obj) -> str:
    return type(obj).__name__


def suggest(name: str, choices: Iterable[str]) -> str:
    """A ' Did you mean ...?' suffix for an unknown name (empty if nothing is close)."""
    close = difflib.get_close_matches(name, list(choices), n=3, cutoff=0.6)
    if not close:
        return ""
    return " Did you mean " + " or ".join(repr(c) for c in close) + "?"


def check_choice(value, name: str, choices: Sequence[str]) -> str:
    """A string option that must be one of ``choices``."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be one of {list(choices)}, got {value!r}")
    if value not in choices:
        raise ValueError(
            f"{name} must be one of {list(choices)}, got {value!r}." + suggest(value, choices)
        )
    return value


def check_options(options: dict, allowed: dict, owner: str) -> dict:
    """Keyword options of an index: refuse unknown names; fill in defaults."""
    if not options:  # the defaults (the commonest call)
        return dict(allowed)
    unknown = set(options) - set(allowed)
    if unknown:
        bad = sorted(unknown)[0]
        hint = suggest(bad, allowed) if allowed else ""
        known = sorted(allowed) if allowed else "none"
        raise TypeError(f"{owner} got an unknown option {bad!r} (its options: {known}).{hint}")
    merged = dict(allowed)
    merged.update(options)
    return merged


def check_bool(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_real(value, name: str, what: str = "a number") -> float:
    """A finite real number (not a bool, not a string)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be {what}, got {value!r}")
    if not np.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return float(value)


def check_fraction(value, name: str, what: str = "a number strictly between 0 and 1") -> float:
    """A real number in the open interval (0, 1): a quantile level, a share."""
    value = check_real(value, name, what)
    if not 0 < value < 1:
        raise ValueError(f"{name} must be {what}, got {value}")
    return value


def check_positive_int(value, name: str, *, minimum: int = 1) -> int:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a whole number >= {minimum}, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return int(value)


def check_seed(seed, name: str = "seed") -> np.random.Generator:
    """A numpy Generator from None, an int, a SeedSequence or a Generator."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None or isinstance(seed, np.random.SeedSequence):
        return np.random.default_rng(seed)
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
        raise TypeError(
            f"{name} must be None, a non-negative int, a numpy SeedSequence or Generator, "
            f"got {describe_object(seed)} {seed!r}"
        )
    if seed < 0:
        raise ValueError(f"{name} must be a non-negative int, got {seed}")
    return np.random.default_rng(int(seed))


def child_generator(seed, key: int) -> np.random.Generator:
    """A random stream of a call's own, child ``key`` of its seed, so that a second use of the
    seed (the intervals' resamples, the tail beyond the floor) leaves the null's draws as they
    are: a Generator goes on with its stream, None draws fresh entropy, an int or
    SeedSequence gives the child ``SeedSequence(entropy, spawn_key=(..., key))``."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        return np.random.default_rng()
    seq = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return np.random.default_rng(np.random.SeedSequence(seq.entropy,
                                                        spawn_key=(*seq.spawn_key, key)))
