"""The registry of random models and null methods: the twin of the index registry.

A **model** says what is random under the null: which clusterings are drawn, from which
uniform law, and what stays fixed. A **method** is one way of getting an index's law under one
model (exactly, in closed form, or by Monte Carlo). Each is declared once, here (models) or next
to its algorithm (methods, with ``register_method``), and every caller dispatches through this
registry: ``null_distributions``, ``agreement_test``, ``adjust``, ``compare`` and printing read
the records; no other list of method names exists. A new null is one module and one record.

Models of partitions (Gates & Ahn 2017, "The impact of random models on clustering
similarity", JMLR 18), with x the rows (the reference in one-sided comparisons) and y the
columns of the table:

=======  ============================================================================
perm     both margins fixed: y randomly relabelled against x (the permutation model,
         generalized hypergeometric tables; Hubert & Arabie's ARI, Vinh et al.'s AMI)
num      x and y independent and uniform over the partitions of the n objects into their
         observed numbers of clusters (Stirling numbers of the second kind)
num1     one-sided: x fixed, y uniform over the partitions into its number of clusters
all      x and y independent and uniform over all partitions of the n objects (Bell numbers)
all1     one-sided: x fixed, y uniform over all partitions
=======  ============================================================================

Models of object pairs (fuzzy memberships and similarity matrices): ``objects`` (y's objects
randomly permuted: the Mantel / QAP null) and ``pairs`` (y's pair values randomly permuted:
Amodio et al.'s null).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import pandas as pd

from .._validate import suggest

__all__ = ["Model", "NullMethod", "MODELS", "register_model", "register_method", "get_model",
           "get_method", "methods_of", "list_nulls", "PARTITION_MODELS", "PAIR_MODELS"]


@dataclass(frozen=True)
class Model:
    """A random model: what is random under the null, and what is kept fixed."""

    name: str
    title: str  # a short phrase for printing: "both margins fixed (permutation model)"
    description: str  # one sentence for users
    fixed: str  # what the model keeps: "both margins", "x; y's number of clusters", ...
    inputs: str = "table"  # "table": partitions (through their table); "pairs": object pairs
    one_sided: bool = False  # x is a fixed reference
    default_method: str = "patefield"
    auto: tuple[str, ...] = ()  # what method="auto" tries, in order
    reference: str = ""


@dataclass(frozen=True)
class NullMethod:
    """One way of getting the null law of indices under one model.

    ``law(request)`` returns a dict index name -> NullDistribution (build each with
    ``request.null(rec, ...)``); ``check(request)``, if given, raises before any work when the
    method cannot serve the request (too large, an index it cannot do); ``describe(nd)`` says
    in a few words how a law was obtained (for printing; default: ``description``).
    """

    name: str
    model: str
    title: str  # the heading of a printed test: "Exact agreement test"
    description: str  # how the law is obtained, in a few words
    law: Callable
    monte_carlo: bool = False
    default_n_sim: int | None = None
    check: Callable | None = None
    describe: Callable | None = None
    options: tuple[str, ...] = ()  # method arguments beyond n_sim and seed ("exhaustive", ...)
    # memory a Monte Carlo method holds per object while it draws (labels, their permuted
    # copies): 0 for methods that draw tables; the engine checks n x this before any work
    bytes_per_object: int = 0
    extra: dict = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str]:
        return (self.name, self.model)


MODELS: dict[str, Model] = {}
_METHODS: dict[tuple[str, str], NullMethod] = {}


def register_model(model: Model) -> Model:
    if model.name in MODELS:
        raise ValueError(f"model {model.name!r} declared twice")
    MODELS[model.name] = model
    return model


def register_method(method: NullMethod) -> NullMethod:
    """Declare a null method (one record per method and model)."""
    if method.model not in MODELS:
        raise ValueError(f"method {method.name!r}: unknown model {method.model!r}")
    if method.key in _METHODS:
        raise ValueError(f"method {method.name!r} under model {method.model!r} declared twice")
    if method.monte_carlo and not method.default_n_sim:
        raise ValueError(f"Monte Carlo method {method.name!r} needs a default_n_sim")
    _METHODS[method.key] = method
    return method


def unregister_method(name: str, model: str) -> None:
    """Remove a method record (for tests that add a toy method)."""
    _METHODS.pop((name, model), None)


def get_model(model) -> Model:
    """The record of a model name (or the record itself), with a did-you-mean."""
    if isinstance(model, Model):
        return model
    if not isinstance(model, str):
        raise TypeError(f"model must be one of {list(MODELS)}, got {model!r}")
    if model not in MODELS:
        raise ValueError(f"model must be one of {list(MODELS)}, got {model!r}."
                         + suggest(model, MODELS))
    return MODELS[model]


def methods_of(model) -> list[str]:
    """The methods registered under a model, in declaration order."""
    name = get_model(model).name
    return [m for (m, mod) in _METHODS if mod == name]


def all_method_names() -> list[str]:
    return list(dict.fromkeys(m for m, _ in _METHODS))


def get_method(method, model) -> NullMethod:
    """The record of ``method`` under ``model``; a clear error naming both when the model has
    no such method."""
    mod = get_model(model)
    if isinstance(method, NullMethod):
        return method
    names = methods_of(mod)
    if not isinstance(method, str):
        raise TypeError(f"method must be one of {names + ['auto']}, got {method!r}")
    if (method, mod.name) not in _METHODS:
        if method in all_method_names():
            others = [m for (name, m) in _METHODS if name == method]
            raise ValueError(
                f"method={method!r} is not available under model={mod.name!r} ({mod.title}); "
                f"its methods are {names + ['auto']}. method={method!r} serves the models "
                f"{others}")
        raise ValueError(f"method must be one of {names + ['auto']} under model={mod.name!r}, "
                         f"got {method!r}." + suggest(method, names + ["auto"]))
    return _METHODS[(method, mod.name)]


def list_nulls() -> pd.DataFrame:
    """Every null method with its model, as a DataFrame (one row per method and model).

    >>> df = ca.nulls.list_nulls()
    >>> df.loc["patefield"].reset_index()[["model", "monte_carlo", "default_n_sim"]]
      model  monte_carlo  default_n_sim
    0  perm         True          17000
    """
    rows = [{"method": m.name, "model": m.model, "title": m.title, "how": m.description,
             "model_title": MODELS[m.model].title, "fixed": MODELS[m.model].fixed,
             "monte_carlo": m.monte_carlo, "default_n_sim": m.default_n_sim}
            for m in _METHODS.values()]
    frame = pd.DataFrame(rows).set_index(["method", "model"])
    return frame.astype({"default_n_sim": "Int64"})


# -- the models --------------------------------------------------------------------------------

_GATES = ("Gates & Ahn (2017), The impact of random models on clustering similarity, "
          "JMLR 18")

register_model(Model(
    name="perm", title="both margins fixed (permutation model)",
    description="y randomly relabelled against x: every table with the observed margins, with "
                "its generalized hypergeometric probability",
    fixed="both margins (the cluster sizes of x and y)", default_method="patefield",
    auto=("exact", "patefield", "hypergeometric"),
    reference="Hubert & Arabie (1985); " + _GATES))
register_model(Model(
    name="num", title="random partitions with the observed numbers of clusters (num)",
    description="x and y independent, each uniform over the partitions of the n objects into "
                "its observed number of clusters",
    fixed="n and the numbers of clusters of x and y", default_method="simulation",
    auto=("exact", "simulation"), reference=_GATES))
register_model(Model(
    name="num1", title="x fixed, y a random partition into its number of clusters (num1)",
    description="one-sided: the reference x is fixed and y is uniform over the partitions of "
                "the n objects into its observed number of clusters",
    fixed="x, and y's number of clusters", one_sided=True, default_method="simulation",
    auto=("exact", "simulation"), reference=_GATES))
register_model(Model(
    name="all", title="random partitions of any number of clusters (all)",
    description="x and y independent, each uniform over all partitions of the n objects",
    fixed="n", default_method="simulation", auto=("exact", "simulation"), reference=_GATES))
register_model(Model(
    name="all1", title="x fixed, y a random partition of any number of clusters (all1)",
    description="one-sided: the reference x is fixed and y is uniform over all partitions of "
                "the n objects",
    fixed="x", one_sided=True, default_method="simulation", auto=("exact", "simulation"),
    reference=_GATES))
register_model(Model(
    name="objects", title="objects of y randomly permuted (Mantel / QAP null)",
    description="y's objects randomly permuted against x's: each clustering keeps its own "
                "structure", fixed="both clusterings up to a relabelling of y's objects",
    inputs="pairs", default_method="permutation", auto=("permutation",),
    reference="Mantel (1967); Hubert & Schultz (1976)"))
register_model(Model(
    name="pairs", title="pair values of y randomly permuted (Amodio et al.'s null)",
    description="y's pair values (its pairwise similarities) randomly permuted among the pairs",
    fixed="x, and the multiset of y's pair values", inputs="pairs",
    default_method="permutation", auto=("permutation",),
    reference="Amodio, D'Ambrosio & Siciliano, adjusted concordance index"))

#: The models of partitions (table indices) and of object pairs (fuzzy and matrix indices).
PARTITION_MODELS = tuple(m for m, r in MODELS.items() if r.inputs == "table")
PAIR_MODELS = tuple(m for m, r in MODELS.items() if r.inputs == "pairs")
