"""clusteragree: how much do two clusterings agree, and how much of that would chance alone give?

The public face of the package (see the README and the user guide in ``docs/guide/``):

>>> import clusteragree as ca
>>> tab = ca.crosstab([0, 0, 1, 1, 1], ["a", "a", "a", "b", "b"])
>>> round(ca.agreement(tab, index="rand"), 2)
0.6
"""

from importlib import import_module as _import_module
from importlib.util import find_spec as _find_spec

from ._version import __version__ as __version__

#: Where each public name lives, relative to the package ("nulls" is the subpackage itself).
#: The package is loaded on first use of any of them, as a whole (every module that an eager
#: ``import clusteragree`` imported, in its order): ``import clusteragree`` alone, or importing
#: one module of it (the command line), does not import pandas, scipy or matplotlib.
_PUBLIC = {
    "nulls": ".nulls", "NullSpec": ".nulls",
    "simulate": ".studies", "stability": ".studies", "study": ".studies",
    "cluster_stability": ".studies", "ClusterStability": ".studies",
    "power": ".studies", "sample_size": ".studies", "PowerCalculation": ".studies",
    "Population": ".studies", "population": ".studies", "relabel_population": ".studies",
    "population_value": ".studies",
    "list_datasets": ".datasets", "load_dataset": ".datasets",
    "get_index": ".indices", "list_indices": ".indices", "mari_null_moments": ".indices",
    "membership_kind": ".indices.fuzzy", "coassociation": ".indices.matrices",
    "confidence_interval": ".intervals", "IntervalSpec": ".intervals",
    "DifferenceTest": ".inference", "difference_test": ".inference",
    "AgreementTest": ".inference", "adjust": ".inference", "agreement": ".inference",
    "agreement_test": ".inference", "compare": ".inference", "format_results": ".inference",
    "iadjust": ".inference",
    "AgreementMatrix": ".inference", "agreement_matrix": ".inference",
    "ClusterAgreement": ".inference", "cluster_agreement": ".inference",
    "HierarchyComparison": ".inference", "compare_hierarchies": ".inference",
    "CopheneticTest": ".inference", "cophenetic_test": ".inference",
    "list_reports": ".reports.runner", "report": ".reports.runner",
    "report_parameters": ".reports.runner",
    "ContingencyTable": ".tables", "PairCounts": ".tables",
    "crosstab": ".inputs", "Noise": ".inputs", "NoiseLabelWarning": ".inputs",
    "Hierarchy": ".inputs", "as_hierarchy": ".inputs",
}


def _load_all() -> None:
    """Bind every public name, importing their modules in the order an eager import did."""
    for module in dict.fromkeys(_PUBLIC.values()):
        _import_module(module, __name__)
    for name, module in _PUBLIC.items():
        if name == "nulls":
            globals()[name] = _import_module(module, __name__)
            continue
        owner = _import_module(module, __name__)
        # as ``from .studies import simulate`` does: an attribute, else a submodule
        globals()[name] = (getattr(owner, name) if hasattr(owner, name)
                           else _import_module(f"{module}.{name}", __name__))


_loaded = False


def __getattr__(name: str):
    """A public name (the whole package loaded, once), or a module of the package (imported
    alone: ``from . import _memory`` inside the package asks for it this way)."""
    global _loaded
    if name in _PUBLIC and not _loaded:
        _loaded = True
        try:
            _load_all()
        except BaseException:
            _loaded = False  # the next use tries again, and says what failed
            raise
        return globals()[name]
    if not name.startswith("__") and _find_spec(f"{__name__}.{name}") is not None:
        return _import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}" + _hint(name))


#: Names users reach for at the top that live in a subpackage (``ca.nulls``).
_ELSEWHERE = {name: f"ca.nulls.{name}" for name in (
    "null_distribution", "null_distributions", "NullDistribution", "list_nulls", "n_sim_for")}


def _hint(name: str) -> str:
    """Where a name that is not public at the top lives, or the public names close to it."""
    if name in _ELSEWHERE:
        return f": it is {_ELSEWHERE[name]} (import clusteragree as ca)"
    from difflib import get_close_matches

    close = get_close_matches(name, list(_PUBLIC) + list(_ELSEWHERE), n=3, cutoff=0.75)
    return f"; did you mean {' or '.join(map(repr, close))}?" if close else ""


def __dir__():
    return sorted(set(globals()) | set(_PUBLIC))


__all__ = [
    "AgreementTest",
    "AgreementMatrix",
    "agreement_matrix",
    "ClusterAgreement",
    "cluster_agreement",
    "HierarchyComparison",
    "compare_hierarchies",
    "CopheneticTest",
    "cophenetic_test",
    "Hierarchy",
    "as_hierarchy",
    "ContingencyTable",
    "adjust",
    "agreement_test",
    "compare",
    "format_results",
    "iadjust",
    "list_reports",
    "report",
    "report_parameters",
    "nulls",
    "NullSpec",
    "simulate",
    "stability",
    "cluster_stability",
    "ClusterStability",
    "power",
    "sample_size",
    "PowerCalculation",
    "Population",
    "population",
    "relabel_population",
    "population_value",
    "study",
    "PairCounts",
    "agreement",
    "confidence_interval",
    "DifferenceTest",
    "difference_test",
    "IntervalSpec",
    "coassociation",
    "membership_kind",
    "crosstab",
    "get_index",
    "list_indices",
    "mari_null_moments",
    "load_dataset",
    "list_datasets",
]
