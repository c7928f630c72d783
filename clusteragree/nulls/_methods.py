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

from .._docs import fill_doc
from .._validate import suggest

__all__ = ["Model", "NullMethod", "MODELS", "register_model", "register_method", "get_model",
           "get_method", "methods_of", "list_nulls", "PARTITION_MODELS", "PAIR_MODELS"]


@fill_doc
@dataclass(frozen=True)
class Model:
    """A random model: what is random under the null, and what is kept fixed.

    The models are declared once, in ``clusteragree.nulls._methods`` (``MODELS``); look one
    up with ``get_model``.

    Parameters
    ----------
    name : str
        The name callers pass as ``model=`` (or ``null=``): "perm", "num", "num1", "all",
        "all1", "objects", "pairs".
    title : str
        A short phrase for printing: "both margins fixed (permutation model)".
    description : str
        One sentence for users.
    fixed : str
        What the model keeps: "both margins", "x; y's number of clusters", ...
    inputs : {"table", "pairs"}, default "table"
        "table": a model of partitions (through their table); "pairs": of object pairs
        (fuzzy memberships, similarity matrices).
    one_sided : bool, default False
        The reference clustering (x, or ``reference=``) is fixed.
    default_method : str, default "patefield"
        The model's own Monte Carlo method, which an error names when the exact law gives no
        test (no method named is ``auto``, which falls back on the methods of ``auto``).
    auto : tuple of str, default ()
        What ``method="auto"`` (the default) tries, in order, for each test group.
    reference : str, default ""
        The model's sources.
    margins_fixed : bool, default False
        Both clusterings keep their cluster sizes (the permutation model), so every table
        index that depends on the table only through sum n_ij^2 (or sum n_ij log n_ij) and
        the margins is a monotone function of that one statistic: their tests are one test.

    See Also
    --------
    get_model : The record of a name.
    list_nulls : Every method of every model.
    NullMethod : One way of getting a law under a model.

    References
    ----------
    {ref:hubert1985}, 193-218.

    {ref:gates2017}.

    Mantel, N. (1967), "The detection of disease clustering and a generalized regression
    approach", Cancer Research 27.

    Examples
    --------
    >>> m = ca.nulls.get_model("num1")
    >>> m.fixed, m.one_sided, m.default_method
    ("x, and y's number of clusters", True, 'simulation')
    """

    name: str
    title: str  # a short phrase for printing: "both margins fixed (permutation model)"
    description: str  # one sentence for users
    fixed: str  # what the model keeps: "both margins", "x; y's number of clusters", ...
    inputs: str = "table"  # "table": partitions (through their table); "pairs": object pairs
    one_sided: bool = False  # x is a fixed reference
    default_method: str = "patefield"  # its own Monte Carlo method (named in errors)
    auto: tuple[str, ...] = ()  # what method="auto" tries, in order
    reference: str = ""
    margins_fixed: bool = False  # both cluster sizes kept: the tests of s (or t) are one test


@dataclass(frozen=True)
class NullMethod:
    """One way of getting the null law of indices under one model.

    Declared next to its algorithm with ``register_method``; the engine
    (``clusteragree.nulls.plan`` and ``run``) dispatches through these records.

    Parameters
    ----------
    name : str
        The name callers pass as ``method=``.
    model : str
        The model it serves (one record per method and model).
    title : str
        The heading of a printed test: "Exact agreement test".
    description : str
        How the law is obtained, in a few words.
    law : callable
        ``law(request)`` returns a dict index name -> NullDistribution for a checked
        ``NullRequest`` (build each with ``request.null_of(rec, values=..., probabilities=...)``,
        ``samples=...`` or ``moments=...``).
    monte_carlo : bool, default False
        A Monte Carlo method (it takes ``n_sim`` and ``seed``).
    default_n_sim : int, optional
        Its default Monte Carlo size (required when ``monte_carlo``).
    check : callable, optional
        ``check(request)`` raises before any work when the method cannot serve the request
        (too large, an index it cannot do).
    describe : callable, optional
        ``describe(nd)`` says in a few words how a law was obtained (for printing; default:
        ``description``).
    options : tuple of str, default ()
        Method arguments beyond ``n_sim`` and ``seed`` ("exhaustive", ...).
    bytes_per_object : int, default 0
        The memory a Monte Carlo method holds per object while it draws (labels, their
        permuted copies; 0 for methods that draw tables): the engine checks n times this
        before any work.
    sparse : bool, default False
        It serves a sparse table (``clusteragree.SparseContingencyTable``): it needs only the
        margins and the observed index, never a dense K x Q table.
    extra : dict, optional
        Anything else the method keeps.

    See Also
    --------
    register_method : Declare a method.
    get_method : The record of a method under a model.
    Model : The random models.

    Examples
    --------
    >>> m = ca.nulls.get_method("patefield", "perm")
    >>> m.key, m.monte_carlo, m.default_n_sim
    (('patefield', 'perm'), True, 17000)
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
    sparse: bool = False  # serves a sparse table (needs no dense K x Q table)
    extra: dict = field(default_factory=dict)

    @property
    def key(self) -> tuple[str, str]:
        """(name, model): the method's key in the registry."""
        return (self.name, self.model)

    def serves(self, table) -> bool:
        """Whether the method serves this table: any dense table, a sparse one when it is
        declared ``sparse``.

        Parameters
        ----------
        table : ContingencyTable or SparseContingencyTable
            The observed table.

        Returns
        -------
        bool
            True when the method can compute a law for this table.

        Examples
        --------
        >>> from scipy import sparse
        >>> from clusteragree.sparse_tables import SparseContingencyTable
        >>> tab = SparseContingencyTable(sparse.csr_array([[30, 20], [10, 20]]))
        >>> [get_method(name, "perm").serves(tab) for name in ("patefield", "permutation")]
        [False, True]
        """
        return self.sparse or table.dense


MODELS: dict[str, Model] = {}
_METHODS: dict[tuple[str, str], NullMethod] = {}


def register_model(model: Model) -> Model:
    if model.name in MODELS:
        raise ValueError(f"model {model.name!r} declared twice")
    MODELS[model.name] = model
    return model


def register_method(method: NullMethod) -> NullMethod:
    """Declare a null method (one record per method and model).

    Parameters
    ----------
    method : NullMethod
        The record.

    Returns
    -------
    NullMethod
        The record, as registered.

    Raises
    ------
    ValueError
        An unknown model, a method declared twice under one model, or a Monte Carlo method
        without a default size.

    See Also
    --------
    NullMethod : What a record holds.
    list_nulls : The registered methods.

    Examples
    --------
    A toy null, a fair coin between 0 and 1, for any index of a table:

    >>> from clusteragree.nulls import NullMethod, register_method
    >>> from clusteragree.nulls._methods import unregister_method
    >>> def coin(request):
    ...     return {rec.name: request.null_of(rec, values=[0.0, 1.0], probabilities=[0.5, 0.5])
    ...             for rec in request.indices}
    >>> _ = register_method(NullMethod("coin", "perm", "Coin agreement test", "a fair coin",
    ...                                law=coin))
    >>> nd = ca.nulls.null_distribution([[3, 1], [1, 3]], index="rand", method="coin")
    >>> nd.mean, nd.describe()
    (0.5, 'both margins fixed (permutation model); a fair coin')
    >>> unregister_method("coin", "perm")
    """
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
    """The record of a random model.

    Parameters
    ----------
    model : str or Model
        A model's name ("perm", "num", "num1", "all", "all1", "objects", "pairs"), or its
        record (returned as it is).

    Returns
    -------
    Model
        The record.

    Raises
    ------
    ValueError
        An unknown name (with a did-you-mean).

    See Also
    --------
    get_method : The record of a method under a model.
    list_nulls : Every method of every model.

    Examples
    --------
    >>> ca.nulls.get_model("perm").title
    'both margins fixed (permutation model)'
    """
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
    """The record of a null method under a model.

    Parameters
    ----------
    method : str or NullMethod
        The method's name (``list_nulls()``), or its record (returned as it is).
    model : str or Model
        The model.

    Returns
    -------
    NullMethod
        The record.

    Raises
    ------
    ValueError
        The model has no such method: the error names the model's methods and the models
        the method serves.

    See Also
    --------
    get_model : The record of a model.
    list_nulls : Every method of every model.

    Examples
    --------
    >>> ca.nulls.get_method("exact", "num").title
    'Exact agreement test'
    """
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
    """Every null method with its model.

    Returns
    -------
    DataFrame
        One row per method and model (a MultiIndex ``(method, model)``), with columns
        ``title`` (the heading of a printed test), ``how`` (how the law is obtained),
        ``model_title``, ``fixed`` (what the model keeps), ``monte_carlo`` and
        ``default_n_sim``.

    See Also
    --------
    null_distribution : Take one of them (``method=``, ``model=``).
    Model : The random models.
    NullMethod : The methods.

    Examples
    --------
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
    auto=("exact", "patefield", "permutation", "hypergeometric"), margins_fixed=True,
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
