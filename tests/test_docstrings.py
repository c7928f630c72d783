"""The docstring lint: every public function, class and method of the public modules has a
numpydoc docstring a statistician can read (``help(ca.crosstab)``).

What is linted: the callables named in the ``__all__`` of ``MODULES`` (each object once, by
the module that defines it) and the public methods and properties that their classes define.
What is required (numpydoc's validation codes):

* functions and classes (``RULES``): a docstring with a summary; every parameter of the
  signature documented, with a type and a description, in the signature's order, and no
  parameter that the signature does not have; a Returns section, each value described, for a
  function that returns something (Yields for a generator); See Also; Examples; known
  sections only, in numpydoc's order. The Examples run as doctests (``--doctest-modules``).
* methods (``METHOD_RULES``): the same but See Also and Examples (the class has them);
  properties and exceptions: a summary.
* ``REFERENCES``: the functions that rest on the literature cite it in a References section,
  one paragraph per work, each with its authors, its year in parentheses and its title in
  double quotes (whether the work is the right one no lint can tell).

``PENDING`` lists the objects whose docstrings are being rewritten with their signatures
(inference, the null engine, the null specification): their tests are expected to fail
(``xfail(strict=True)``), so an entry whose docstring passes fails the suite until it is
removed from ``PENDING``.
"""

from __future__ import annotations

import importlib
import inspect
import re

import pytest

validate = pytest.importorskip("numpydoc.validate").validate
NumpyDocString = pytest.importorskip("numpydoc.docscrape").NumpyDocString

#: The public modules: their ``__all__`` is the public API.
MODULES = (
    "clusteragree",
    "clusteragree.tables",
    "clusteragree.sparse_tables",
    "clusteragree.inputs",
    "clusteragree.inputs.trees",
    "clusteragree.datasets",
    "clusteragree.indices",
    "clusteragree.intervals",
    "clusteragree.inference",
    "clusteragree.inference.difference",
    "clusteragree.inference.clusters",
    "clusteragree.inference.difference_results",
    "clusteragree.inference.results",
    "clusteragree.inference.pvalues",
    "clusteragree.inference.hierarchies",
    "clusteragree.inference.hierarchy_results",
    "clusteragree.nulls",
    "clusteragree.studies.simulate",
    "clusteragree.studies.mixture_overlap",
    "clusteragree.studies.stability",
    "clusteragree.studies.clusterwise",
    "clusteragree.studies.study",
    "clusteragree.studies.study_results",
    "clusteragree.studies.null_shapes",
    "clusteragree.studies.approximations",
    "clusteragree.reports.runner",
    "clusteragree.reports.memory",
    "clusteragree.reports.helpers",
    "clusteragree.reports.results",
)

#: numpydoc codes required of functions and classes: GL08 no docstring, SS01 no summary,
#: PR01 a parameter not documented, PR02 a documented parameter not in the signature, PR03
#: parameters out of the signature's order, PR04 a parameter without a type, PR07 a parameter
#: without a description, RT01 no Returns section, RT03 a return value without a description,
#: YD01 no Yields section, SA01 no See Also, EX01 no Examples, GL06 an unknown section, GL07
#: sections out of order.
RULES = frozenset({"GL08", "SS01", "PR01", "PR02", "PR03", "PR04", "PR07", "RT01", "RT03",
                   "YD01", "SA01", "EX01", "GL06", "GL07"})
#: Methods of the public classes: everything but See Also and Examples.
METHOD_RULES = RULES - {"SA01", "EX01"}
#: Properties and exception classes: a docstring with a summary.
SUMMARY_RULES = frozenset({"GL08", "SS01"})

#: Objects that must cite their sources (authors, year, title) in a References section: the
#: statistical functions of the core (tables, indices, nulls, inference) and of the studies.
REFERENCES = frozenset({
    # tables and indices
    "clusteragree.tables.ContingencyTable",
    "clusteragree.inputs.crosstab.crosstab",
    "clusteragree.tables.pair_counts",
    "clusteragree.tables.PairCounts",
    "clusteragree.indices.list_indices",
    "clusteragree.indices.mari.mari_null_moments",
    "clusteragree.indices.matrices.coassociation",
    "clusteragree.indices.fuzzy.membership_kind",
    # nulls and inference
    "clusteragree.nulls.engine.null_distribution",
    "clusteragree.nulls.engine.null_distributions",
    "clusteragree.nulls.distribution.NullDistribution",
    "clusteragree.nulls.distribution.n_sim_for",
    "clusteragree.nulls._methods.Model",
    "clusteragree.intervals.engine.confidence_interval",
    "clusteragree.inference.difference.difference_test",
    "clusteragree.inference.clusters.cluster_agreement",
    "clusteragree.inference.clusters.pair_decomposition",
    "clusteragree.inference.hierarchies.compare_hierarchies",
    "clusteragree.inputs.trees.as_hierarchy",
    "clusteragree.nulls.enumeration.count_tables",
    "clusteragree.nulls.enumeration.enumerate_tables",
    "clusteragree.nulls.network.statistic_law",
    "clusteragree.nulls.patefield.random_tables",
    "clusteragree._moments.squares.moments_of_s",
    "clusteragree.nulls.hypergeometric.index_moments",
    # studies
    "clusteragree.studies.simulate.random_margins",
    "clusteragree.studies.simulate.random_covariance",
    "clusteragree.studies.simulate.mixture",
    "clusteragree.studies.simulate.design",
    "clusteragree.studies.mixture_overlap.quadratic_form_cdf",
    "clusteragree.studies.mixture_overlap.misclassification",
    "clusteragree.studies.mixture_overlap.overlap",
    "clusteragree.studies.stability.weighted_cv",
    "clusteragree.studies.stability.external_table",
    "clusteragree.studies.stability.subsample_stability",
    "clusteragree.studies.stability.StabilityResult",
    "clusteragree.studies.clusterwise.cluster_stability",
    "clusteragree.studies.clusterwise.ClusterStability",
    "clusteragree.studies.study.run",
    "clusteragree.studies.study_results.scenario_table",
    "clusteragree.studies.study_results.factor_correlations",
    "clusteragree.studies.study_results.stability_validity",
    "clusteragree.studies.null_shapes.null_shapes",
    "clusteragree.studies.null_shapes.law_shapes",
    "clusteragree.studies.null_shapes.thesis_null_table",
    "clusteragree.studies.power.power",
    "clusteragree.studies.power.sample_size",
    "clusteragree.studies.populations.relabel_population",
})

#: Docstrings rewritten elsewhere, with their signatures: expected to fail until then (remove
#: an entry once its docstring passes; ``xfail(strict=True)`` fails the suite until it is).
PENDING = frozenset({
})

#: A reference: a year in parentheses and a title in double quotes.
_YEAR = re.compile(r"\((?:19|20)\d\d[a-z]?\)")
_TITLE = re.compile(r'"[^"]{4,}"')


def _public_objects() -> dict[str, tuple[object, frozenset]]:
    """Every linted object by its canonical name (defining module and qualified name), with
    the rules it must pass."""
    out: dict[str, tuple[object, frozenset]] = {}
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for attr in module.__all__:
            obj = getattr(module, attr)
            if inspect.ismodule(obj) or not callable(obj):
                continue  # subpackages and constants
            name = f"{obj.__module__}.{obj.__qualname__}"
            if inspect.isclass(obj) and issubclass(obj, BaseException):
                out[name] = (obj, SUMMARY_RULES)
                continue
            out[name] = (obj, RULES)
            if inspect.isclass(obj):
                for member, value in vars(obj).items():
                    if member.startswith("_"):
                        continue
                    if isinstance(value, property):
                        out[f"{name}.{member}"] = (value, SUMMARY_RULES)
                    elif inspect.isfunction(value):
                        out[f"{name}.{member}"] = (value, METHOD_RULES)
    return out


OBJECTS = _public_objects()


def _problems(name: str) -> list[str]:
    obj, rules = OBJECTS[name]
    result = validate(name)
    problems = [f"{code} {message}" for code, message in result["errors"] if code in rules]
    if name in REFERENCES and result["docstring"]:
        refs = "\n".join(NumpyDocString(inspect.cleandoc(result["docstring"]))["References"])
        works = [w for w in re.split(r"\n\s*\n", refs.strip()) if w.strip()]
        if not works:
            problems.append("REF no References section (cite the sources: authors, year, "
                            "title)")
        for work in works:
            if not (_YEAR.search(work) and _TITLE.search(work)):
                problems.append(f"REF {' '.join(work.split())!r} lacks a (year) or a "
                                "\"title\"")
    return problems


def _params():
    for name in sorted(OBJECTS):
        marks = [pytest.mark.xfail(strict=True, reason="in PENDING: remove it once its "
                                   "docstring passes")] if name in PENDING else []
        yield pytest.param(name, marks=marks, id=name.removeprefix("clusteragree."))


@pytest.mark.parametrize("name", list(_params()))
def test_docstring(name):
    problems = _problems(name)
    assert not problems, f"{name}:\n  " + "\n  ".join(problems)


def test_pending_and_references_name_linted_objects():
    """A stale entry (renamed, removed, moved) would silently check nothing."""
    assert not PENDING - set(OBJECTS), sorted(PENDING - set(OBJECTS))
    assert not REFERENCES - set(OBJECTS), sorted(REFERENCES - set(OBJECTS))
