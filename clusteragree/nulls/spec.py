"""The null specification: the random model, the method and their settings, as one checked value.

A null is named in two ways. The common cases are strings at the top level of every public
function, as in R's ``chisq.test(simulate.p.value=TRUE, B=2000)``::

    ca.agreement_test(x, y, index="rand", method="patefield", n_sim=2000, seed=1)

and everything else goes in one ``NullSpec`` passed as ``method=``, as scipy's
``permutation_test(..., method=PermutationMethod(n_resamples=...))``::

    spec = ca.NullSpec(method="exact", max_tables=10**7)
    ca.agreement_test(x, y, index="rand", method=spec)

The spec is checked once, when it is made; the engine (``clusteragree.nulls.engine.plan``)
reads it and gives each method its request, so no setting is passed on by hand. A
``scipy.stats.PermutationMethod`` is accepted as ``method=`` too and read as
``NullSpec(method="permutation", n_sim=n_resamples, seed=rng)``; ``n_resamples=np.inf`` asks,
as in scipy, for every permutation (``exhaustive=True``: the exact law of the permutations,
refused, with the reason, where they are too many to enumerate).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import math
import numbers

import numpy as np

from .._docs import fill_doc
from .._moments.mi_variance import DEFAULT_MAX_SECONDS
from .._validate import (check_bool, check_choice, check_positive_int, check_real, check_seed,
                         suggest)
from ._methods import all_method_names, get_model

__all__ = ["NullSpec", "SETTINGS", "TEST_SETTINGS", "DEFAULT_MAX_TABLES", "DEFAULT_MAX_WORK",
           "ExactLawTooLarge"]

#: The exact methods' budgets: tables to enumerate, and the dynamic programme's work ((state,
#: key) entries of one column times the key's length).
DEFAULT_MAX_TABLES = 2_000_000
DEFAULT_MAX_WORK = 10_000_000


class ExactLawTooLarge(ValueError):
    """An exact law refused, before any work, for exceeding its budget (``max_work`` or
    ``max_tables``): ``reason`` says what is too large, ``advice`` what to do instead, and the
    message is both (a caller without that budget, a report, words its own advice)."""

    def __init__(self, reason: str, advice: str):
        super().__init__(f"{reason}; use {advice}")
        self.reason, self.advice = reason, advice

_REFERENCES = ("x", "y")


@fill_doc
@dataclass(frozen=True, repr=False)
class NullSpec:
    """How the null law of an index is obtained: random model, method and their settings.

    Parameters
    ----------
    method : str, optional
        How the law is obtained (``ca.nulls.list_nulls()``): under ``model="perm"``
        "exact", "hypergeometric", "patefield" or "permutation"; under the random partition
        models "exact" or "simulation"; for indices of object pairs "permutation" or "exact";
        "auto" takes, for each test group (the indices of s = sum n_ij^2, those of
        t = sum n_ij log n_ij, the other indices), the exact law when it fits the budgets
        below, else Monte Carlo (Patefield tables under "perm", random partitions under the
        other partition models, permutations for indices of object pairs). Default: "auto".
    model : str, optional
        The random model (Gates & Ahn 2017): "perm" (default: both margins fixed), "num",
        "num1", "all", "all1" for partitions; "objects" (default for indices of object pairs:
        y's objects permuted, the Mantel / QAP null) or "pairs" (y's pair values permuted,
        Amodio et al.'s null) for fuzzy memberships and similarity matrices.
    n_sim : int, optional
        Monte Carlo size; default the method's own (17,000 tables or partitions, 999
        permutations).
    seed : None, int, numpy.random.SeedSequence or numpy.random.Generator
        The only source of randomness.
    reference : {"x", "y"}, optional
        The clustering a one-sided model ("num1", "all1") keeps fixed; default "x".
    exhaustive : bool, optional
        Permutation methods: every permutation (an exact law) rather than a sample; default
        when n <= 8.
    max_tables : int
        Exact methods refuse, before any work, a law with more tables to enumerate.
    max_work : int
        Exact methods refuse, before any work, a dynamic programme larger than this.
    max_seconds : float
        The closed-form variance of an information index (``method="hypergeometric"``) is
        refused, before any work, when its time predicted from the margins is above this;
        ``method="auto"`` passes over label permutations predicted to take longer.
    progress : bool
        Show a progress bar on long Monte Carlo runs.
    plus_one : bool, default True
        A setting of the test, not of the law (``TEST_SETTINGS``: the null engine passes it
        by, the tests read it). The Monte Carlo p-value of a test: (1 + #{T >= t}) / (B + 1)
        (True; never 0) or the thesis' share #{T >= t} / B (False; ``iadjust``'s default when
        its method is named by a string). Exact laws give P(T >= t) either way.
    beyond_floor : bool, optional
        A setting of the test, not of the law (``TEST_SETTINGS``). Where a Monte Carlo
        p-value under "perm" is at its floor 1/(B + 1) (no simulated table as extreme) and
        the index is a monotone function of s or t, a p-value beyond the floor:
        ``res.pvalue_beyond_floor``, beside ``pvalue``, which stays the Monte Carlo one.
        None (default): the saddlepoint approximation (``method="saddlepoint"``;
        a fraction of a second), wherever it answers; where it is refused a note says why.
        True: importance sampling too (``method="importance"``'s estimator, 10,000 tilted
        tables; seconds to a minute per test group, skipped with a note when predicted above
        60 s), as the check of the saddlepoint p, or in its place where it is refused. False:
        neither (``iadjust``'s default when its method is named by a string). Their
        accuracy: ``clusteragree.inference.beyond_floor``.

    See Also
    --------
    clusteragree.nulls.null_distribution : the law this specifies.
    clusteragree.nulls.list_nulls : every model and method.

    References
    ----------
    {ref:gates2017}.

    Examples
    --------
    >>> spec = ca.NullSpec(method="patefield", n_sim=2000, seed=1)
    >>> spec
    NullSpec(method='patefield', n_sim=2000, seed=1)
    >>> ca.agreement_test([[30, 20], [10, 20]], index="rand", method=spec).null.n_sim
    2000
    """

    method: str | None = None
    model: str | None = None
    n_sim: int | None = None
    seed: object = None
    reference: str | None = None
    exhaustive: bool | None = None
    max_tables: int = DEFAULT_MAX_TABLES
    max_work: int = DEFAULT_MAX_WORK
    max_seconds: float = DEFAULT_MAX_SECONDS
    progress: bool = False
    plus_one: bool = True
    beyond_floor: bool | None = None

    def __post_init__(self):
        if self.method is not None:
            names = all_method_names() + ["auto"]
            if not isinstance(self.method, str):
                raise TypeError(f"method must be a method name ({names}) or a NullSpec, got "
                                f"{self.method!r}")
            if self.method not in names:
                raise ValueError(f"method must be one of {names}, got {self.method!r}."
                                 + suggest(self.method, names))
        if self.model is not None:
            get_model(self.model)
        if self.n_sim is not None:
            check_positive_int(self.n_sim, "n_sim")
        check_seed(self.seed)
        if self.reference is not None:
            check_choice(self.reference, "reference", _REFERENCES)
        if self.exhaustive is not None:
            check_bool(self.exhaustive, "exhaustive")
        check_positive_int(self.max_tables, "max_tables")
        check_positive_int(self.max_work, "max_work")
        seconds = check_real(self.max_seconds, "max_seconds", "a positive number of seconds")
        if seconds <= 0:
            raise ValueError(f"max_seconds must be a positive number of seconds, got {seconds}")
        check_bool(self.progress, "progress")
        check_bool(self.plus_one, "plus_one")
        if self.beyond_floor is not None:
            check_bool(self.beyond_floor, "beyond_floor")

    def __repr__(self) -> str:
        given = [f"{f.name}={getattr(self, f.name)!r}" for f in fields(self)
                 if getattr(self, f.name) is not f.default
                 and getattr(self, f.name) != f.default]
        return f"NullSpec({', '.join(given)})"

    def generator(self):
        """The random generator of one call, from the seed checked when the spec was made.

        Returns
        -------
        numpy.random.Generator
            A Generator seed itself (its stream goes on from call to call), or a new one
            from an int, a SeedSequence or None.

        Examples
        --------
        >>> NullSpec(seed=1).generator().integers(10**6) == np.random.default_rng(1).integers(10**6)
        np.True_
        """
        if isinstance(self.seed, np.random.Generator):
            return self.seed
        return np.random.default_rng(self.seed)

    @classmethod
    def of(cls, method=None, *, model=None, n_sim=None, seed=None) -> NullSpec:
        """The spec of a public call: ``method`` a name, a NullSpec or a scipy
        ``PermutationMethod``, with the top-level ``model``, ``n_sim`` and ``seed``.

        A setting given both in a NullSpec and at the top level must agree.

        >>> ca.NullSpec.of("exact", model="num1")
        NullSpec(method='exact', model='num1')
        """
        top = {k: v for k, v in (("model", model), ("n_sim", n_sim), ("seed", seed))
               if v is not None}
        if isinstance(method, NullSpec):
            for key, value in top.items():
                mine = getattr(method, key)
                if mine is not None and mine is not value and mine != value:
                    raise ValueError(f"{key}={value!r} is given twice, and the NullSpec passed "
                                     f"as method= says {key}={mine!r}: give it once")
            return replace(method, **top) if top else method
        scipy_method = _from_scipy(method, n_sim, seed)
        if scipy_method is not None:
            return cls.of(scipy_method, model=model)
        return cls(method=method, **top)


#: The names of the settings a NullSpec holds (an error names them when one is passed where
#: an index option is expected).
SETTINGS = tuple(f.name for f in fields(NullSpec))

#: The settings a NullSpec carries for the test that reads its p-value off the law, not for
#: the null engine, which never reads them: ``agreement_test`` and ``compare`` pass them on to
#: the test (``clusteragree.inference.pvalues.PValueSpec``). A NullSpec takes them so that a
#: call's settings are given in one place.
TEST_SETTINGS = ("plus_one", "beyond_floor")


def _from_scipy(method, n_sim=None, seed=None):
    """A NullSpec from ``scipy.stats.PermutationMethod`` (with the call's top-level ``n_sim``
    and ``seed``, which may not say it twice); None for anything else. Every error names the
    argument the caller gave: ``method=PermutationMethod(n_resamples=...)``."""
    try:
        from scipy.stats import MonteCarloMethod, PermutationMethod
    except ImportError:  # pragma: no cover - scipy < 1.11
        return None
    if isinstance(method, PermutationMethod):
        rng = getattr(method, "rng", None)
        if rng is None:
            rng = getattr(method, "random_state", None)
        given = f"method=PermutationMethod(n_resamples={method.n_resamples!r})"
        B = method.n_resamples
        every = isinstance(B, numbers.Real) and not isinstance(B, bool) and B == math.inf
        whole = (isinstance(B, numbers.Integral) and not isinstance(B, bool)) or (
            isinstance(B, numbers.Real) and not isinstance(B, bool) and math.isfinite(B)
            and B == int(B))
        if not (every or whole and B >= 1):
            raise ValueError(f"{given}: n_resamples must be a whole number >= 1 (that many "
                             f"random permutations) or np.inf (every permutation), got {B!r}")
        if n_sim is not None:
            raise ValueError(f"n_sim={n_sim!r} and {given} both give the number of "
                             "permutations: give it once")
        if seed is not None and rng is not None:
            raise ValueError("seed= and the rng of method=PermutationMethod(rng=...) both give "
                             "the random generator: give it once")
        seed = rng if rng is not None else seed
        if every:  # scipy: every permutation, the exact law
            return NullSpec(method="permutation", exhaustive=True, seed=seed)
        return NullSpec(method="permutation", n_sim=int(B), seed=seed)
    if isinstance(method, MonteCarloMethod):
        raise TypeError("scipy's MonteCarloMethod draws samples from given distributions; the "
                        "null of an agreement index draws tables or permutations: use "
                        "method='patefield' (or NullSpec(method='patefield', n_sim=...))")
    return None


def misplaced_settings(options, takers) -> None:
    """Refuse a null setting passed as a keyword of a public function (where only index
    options go), unless one of the requested indices takes an option of that name."""
    for key in options:
        if key in SETTINGS and key not in takers:
            raise TypeError(
                f"{key}= is a setting of the null, not an option of the index: pass "
                f"method=ca.NullSpec(..., {key}=...) (the method, model, n_sim and seed may "
                f"also be given at the top level)")
        if key == "null":
            raise TypeError("null= is now the model: pass model='objects' or model='pairs' "
                            "(the null of indices of object pairs)")
