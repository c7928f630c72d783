"""The catalogue of reports: the ``REPORTS`` records, their notebooks' parameters, and the
checks of the parameters' names, types, ranges and inputs, all made before a kernel starts.

It imports no statistics (``clusteragree report --list`` reads it alone); the checks of a
report's inputs import what they check when they run.

>>> list_reports().loc["agreement", "notebook"]
'agreement.ipynb'
>>> coerce_parameters("agreement", {"n_sim": "500", "quick": "yes"})
{'n_sim': 500, 'quick': True}
"""

from __future__ import annotations

import ast
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import pandas as pd

from .memory import read_memory_clusterings
from .._validate import (check_bool, check_choice, check_fraction, check_positive_int, check_seed,
                         suggest)

__all__ = ["REPORTS", "Report", "PARAMETER_RANGES", "list_reports", "report_parameters",
           "coerce_parameters", "parse_assignments", "notebooks_dir", "notebook_path",
           "get_report", "check_level"]


def check_level(value):
    """``clusteragree.intervals.engine.check_level``, imported when a report's parameters are checked
    (so that ``clusteragree report --list`` does not import the statistics stack)."""
    from ..intervals import check_level as check

    return check(value)


@dataclass(frozen=True)
class Report:
    """One report: its notebook and what it shows (a record of ``REPORTS``).

    Parameters
    ----------
    name : str
        The name ``report()`` and ``clusteragree report NAME`` take.
    notebook : str
        The notebook's file in the package's ``notebooks/`` folder.
    description : str
        What the report shows, in a sentence.
    check : callable, optional
        ``check(params)`` validates the parameters' content (e.g. that the input files
        exist) before the notebook runs, raising on bad content.
    quick : dict, optional
        The parameter values quick mode (``quick=True``) stands for: a parameter the caller
        gives keeps the caller's value.
    memory : callable, optional
        ``memory(given)`` reads the clusterings ``ca.report`` is given in memory (a dict of
        some of ``x``, ``y``, ``data``, ``table``) into ``reports.memory.MemoryInputs``; by
        default ``read_memory_inputs`` (two clusterings or a table). Only a notebook that
        declares ``in_memory`` takes them.

    See Also
    --------
    list_reports : Every report.
    report : Run one.

    Examples
    --------
    >>> rep = REPORTS["stability-study"]
    >>> rep.notebook, rep.check is None, rep.quick
    ('stability-study.ipynb', True, {'n_sim': 500})
    """

    name: str
    notebook: str
    description: str
    check: object = None  # callable(params: dict) -> None, raising on bad content
    quick: dict = field(default_factory=dict)
    memory: object = None  # callable(given: dict) -> MemoryInputs; None: read_memory_inputs


def _check_agreement_inputs(params: dict) -> None:
    """The agreement report's inputs, indices, model and method, checked as its first cells
    would use them, and the null laws planned (a law too large for the method's budget is
    refused here, before the kernel starts)."""
    from ..indices import group_members, resolve_indices
    from ..nulls import NullSpec, plan
    from ..indices import entry, index_records
    from .helpers import load_clusterings

    keys = ("dataset", "table_file", "data_file", "x_column", "y_column", "x_file", "y_file")
    tab, _ = load_clusterings(**{k: params[k] for k in keys if k in params})
    if params.get("noise") is not None:  # the policy acts on the labels: plan its table
        from ..inputs import as_clusterings
        from .helpers import load_labels, noise_policy

        labels = load_labels(**{k: params[k] for k in keys if k in params})
        if labels is None:
            raise ValueError(f"noise={params['noise']!r} needs each object's labels, and a "
                             "contingency table has none: give data_file with x_column and "
                             "y_column, or x_file and y_file (or the labels in memory)")
        tab = as_clusterings(*labels, noise=noise_policy(params["noise"], *labels)).table
    names = [s.strip() for s in params.get("indices", "paired").split(",") if s.strip()]
    resolved, _ = resolve_indices(names)
    method, model = params.get("method", "auto"), params.get("model", "perm")
    _check_method_for_report(method, model)
    recs = index_records(resolved)
    with _report_budget():
        plan(entry(tab, None, None, False, "exact", recs), recs, NullSpec.of(method, model=model),
             optional=group_members(names))


@contextmanager
def _report_budget():
    """A null law refused for its size, said in a report's terms: a report sets no budget
    (``max_work``, ``max_tables``), so the engine's advice to raise one is replaced by the
    report's way out."""
    from ..nulls import ExactLawTooLarge

    try:
        yield
    except ExactLawTooLarge as err:
        raise ValueError(f"{err.reason}; a report sets no budget (max_work, max_tables): use "
                         "method='auto' (the default), which takes the exact law where it fits "
                         "and Monte Carlo elsewhere, or a Monte Carlo method ('patefield')"
                         ) from err


def _check_method_for_report(method, model) -> None:
    from ..nulls import get_method

    if not isinstance(method, str):
        raise TypeError(f"method must be a method's name, got {method!r}")
    if method == "auto":
        return
    rec = get_method(method, model)  # unknown, or not available under the model: named
    if method == "hypergeometric":
        raise ValueError(f"method={method!r} gives the null laws' moments only ({rec.title}); "
                         "the report shows the laws, their p-values and pictures: use "
                         "method='auto', 'exact' or a Monte Carlo method")


def _check_clusterings_inputs(params: dict) -> None:
    """The clusterings report's inputs (the file or data set, the reference, the columns and
    their labels), index, multiplicity adjustment, model and method, checked as its first
    cells would use them."""
    from ..inputs import crosstab
    from ..nulls import NullSpec, plan
    from ..indices import entry
    from .clusterings import check_index
    from .helpers import load_clusterings_frame

    frame, ref, names, _ = load_clusterings_frame(params["dataset"], params["data_file"],
                                                  params["columns"], params["reference"])
    rec = check_index(params["index"])
    method, model = params["method"], params["model"]
    _check_method_for_report(method, model)
    spec = NullSpec.of(method, model=model)
    pairs = [(ref, b) for b in names] + [(a, b) for i, a in enumerate(names)
                                         for b in names[i + 1:]]
    noise = params.get("noise")
    need = _fewest_objects(rec, params["confidence_level"])
    for a, b in pairs:  # every test's null law planned: one too large is refused here
        if noise is None:
            tab = crosstab(frame[a], frame[b])
        else:  # the policy acts on the labels: plan its table
            from ..inputs import as_clusterings
            from .helpers import noise_policy

            tab = as_clusterings(frame[a], frame[b],
                                 noise=noise_policy(noise, frame[a], frame[b])).table
        if tab.n < need:
            raise ValueError(_too_few(params, rec, need, tab.n, a, b, len(frame)))
        with _report_budget():
            plan(entry(tab, None, None, False, "exact", [rec]), [rec], spec)
    _check_stability_inputs(params, frame, names)


def _fewest_objects(rec, level) -> int:
    """The fewest objects the clusterings report takes with index ``rec``: its intervals at
    ``level`` (the jackknife leaves one object out) and its paired differences (the jackknife,
    at least 3)."""
    from ..intervals.spec import as_interval_spec, fewest_objects

    return max(as_interval_spec(level).needs(rec), 3, fewest_objects(rec, leave_one_out=True))


def _too_few(params: dict, rec, need: int, n: int, a: str, b: str, rows: int) -> str:
    """The clusterings report's refusal of too few objects, naming the parameter that gave
    them (it failed inside the notebook, naming ``interval=None``, no report parameter)."""
    if params.get("in_memory"):
        source = "data (given in memory)"
    elif params.get("data_file"):
        source = f"data_file {Path(params['data_file']).name!r}"
    else:
        source = f"dataset {params['dataset']!r}"
    compared = (f"{n:,} objects" if n == rows else
                f"{n:,} of its {rows:,} objects compared by {a} and {b} under noise="
                f"{params.get('noise')!r}")
    return (f"{source} has {compared}; the clusterings report needs at least {need} (one row "
            f"per object): the {rec.name} intervals and the paired differences leave one "
            "object out at a time (the jackknife). Give more objects"
            + (", or another noise policy" if n != rows else ""))


def _check_stability_inputs(params: dict, frame, names) -> None:
    """The clusterings report's stability section: ``features_file`` (numeric, one row per
    object of the clusterings) and ``stability_columns`` (clusterings of the report whose
    algorithm it can rerun), checked without scikit-learn."""
    from .clusters import ALGORITHMS, algorithm_of
    from .helpers import read_features

    if params.get("features_file"):
        read_features(params["features_file"], len(frame))
    for column in [s.strip() for s in params.get("stability_columns", "").split(",")
                   if s.strip()]:
        if column not in names:
            raise ValueError(f"parameter stability_columns: {column!r} is not one of the "
                             f"clusterings compared ({', '.join(names)})."
                             + suggest(column, names))
        if algorithm_of(column) is None:
            raise ValueError(f"parameter stability_columns: {column!r} names no algorithm the "
                             "report can rerun (it reruns "
                             + ", ".join(f"{a}_k" for a in ALGORITHMS)
                             + ": e.g. kmeans_3 is k-means with 3 clusters)")


def _check_hierarchies_inputs(params: dict) -> None:
    """The hierarchies report's measurements (the data set or file, the columns, classes and
    labels), the two linkage methods with the distance, the index and the per-cut method,
    checked as its first cells would use them (the trees are not built here)."""
    from .clusterings import check_index
    from .hierarchies import check_linkage, check_metric, load_measurements

    data = load_measurements(params["dataset"], params["data_file"], params["columns"],
                             params["class_column"], params["label_column"])
    check_metric(params["metric"], data.X)
    for key in ("method_a", "method_b"):
        check_linkage(params[key], params["metric"], key)
    if params["method_a"] == params["method_b"]:
        raise ValueError(f"method_a and method_b are both {params['method_a']!r}: the two trees "
                         "would be the same tree; choose two linkage methods")
    rec = check_index(params["index"])
    if rec.on_pairs:  # pragma: no cover  (check_index refuses these first)
        raise ValueError(f"parameter index: {rec.name!r} is no index of a contingency table")
    method = params["method"]
    if method not in ("permutation", "normal", "auto"):
        _check_method_for_report(method, "perm")
    check_choice(params["alternative"], "parameter alternative",
                 ("two-sided", "greater", "less"))
    if not 2 <= params["max_k"]:
        raise ValueError(f"parameter max_k must be >= 2, got {params['max_k']}")


def _check_alternative(value, name):
    from ..nulls.distribution import ALTERNATIVES

    if value != "":
        check_choice(value, name, ALTERNATIVES)


def _check_model(value, name):
    from ..nulls import PARTITION_MODELS

    check_choice(value, name, PARTITION_MODELS)


#: Every report, by name; the first is the default of ``clusteragree report``.
REPORTS: dict[str, Report] = {r.name: r for r in (
    Report("agreement", "agreement.ipynb",
           "two clusterings: every index against its null law, p-values, adjusted values, "
           "null means by method, random models",
           check=_check_agreement_inputs, quick={"n_sim": 2000, "beyond_floor": False}),
    Report("null-distributions", "null-distributions.ipynb",
           "the shapes of null laws across the thesis' design (K, balance, n): skewness, "
           "spread, where mean and median adjustment disagree",
           quick={"reps": 1, "n_sim": 2000, "n_values": "500,800"}),
    Report("stability-study", "stability-study.ipynb",
           "the thesis' simulation study: external validity and stability by scenario and "
           "algorithm, their correlation across and within scenarios, EM against k-means",
           quick={"n_sim": 500}),
    Report("regression-approximations", "regression-approximations.ipynb",
           "Albatineh & Niewiadomska-Bugaj's regressions for null means, refitted across the "
           "thesis' design, against exact identities; correlations between indices",
           quick={"reps": 1, "n_sim": 2000}),
    Report("clusterings", "clusterings.ipynb",
           "many clusterings of the same objects: their agreement matrix and map, each "
           "against a reference with its test and interval, the best against each other one "
           "by paired difference tests (Holm-adjusted), the stability of each cluster when "
           "the data are given, and the verdict in words",
           check=_check_clusterings_inputs,
           quick={"n_sim": 2000, "stability_resamples": 20, "beyond_floor": False},
           memory=read_memory_clusterings),
    Report("hierarchies", "hierarchies.ipynb",
           "two hierarchical clusterings of the same measurements (Ward against average "
           "linkage of the wine data): the dendrograms, Fowlkes & Mallows' Bk plot with "
           "pointwise and simultaneous bands, the global envelope test, the cuts where the "
           "trees agree most and least, the cophenetic correlation and Baker's gamma with "
           "Mantel tests",
           check=_check_hierarchies_inputs, quick={"n_permutations": 199}),
)}


def _check_reference(value, name):
    """``reference``: a quantile level in (0, 1) where it is a number (null-distributions);
    a column's name where it is text (clusterings: checked with the inputs)."""
    if not isinstance(value, str):
        check_fraction(value, name)


def _check_share(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 1:
        raise ValueError(f"{name} must be a share of the objects in (0, 1], got {value!r}")


def _check_multiple(value, name):
    from ..inference.matrix import MULTIPLE_METHODS

    check_choice(value, name, MULTIPLE_METHODS)


def _check_noise(value, name):
    """``noise``: None (the labels as given) or a policy of ``clusteragree.Noise``, by name."""
    from ..inputs.objects import POLICIES

    if value is not None:
        check_choice(value, f"{name} (None: the labels as given)", POLICIES)


def _check_n_values(value, name):
    parts = [part for part in value.split(",") if part.strip()]
    try:
        numbers = [int(part) for part in parts]
    except ValueError:
        numbers = []
    if not numbers:
        raise ValueError(f"{name} must be comma-separated whole numbers, got {value!r}")
    for n in numbers:
        check_positive_int(n, name, minimum=4)  # the design's largest K is 4


#: The range of a parameter, by its name, in whichever report declares it: checked with the
#: type, before the kernel starts.
PARAMETER_RANGES = {
    "n_sim": check_positive_int,
    "reps": check_positive_int,
    "max_work": check_positive_int,
    "seed": check_seed,
    "reference": _check_reference,
    "near_identical": _check_share,
    "multiple": _check_multiple,
    "n_values": _check_n_values,
    "model": _check_model,
    "alternative": _check_alternative,
    "noise": _check_noise,
    "stability_resamples": lambda value, name: check_positive_int(value, name, minimum=2),
    "n_permutations": check_positive_int,
    "max_k": lambda value, name: check_positive_int(value, name, minimum=2),
    "alpha": check_fraction,
    "confidence_level": lambda value, name: check_level(value),
}


def notebooks_dir() -> Path:
    """The folder holding the report notebooks: ``notebooks/`` inside the installed package.

    Returns
    -------
    pathlib.Path
        The absolute path of the package's ``notebooks/`` folder (read through
        ``importlib.resources``: an installed wheel has it).

    See Also
    --------
    list_reports : The reports and their notebooks.

    Examples
    --------
    >>> (notebooks_dir() / "agreement.ipynb").is_file()
    True
    """
    return Path(str(resources.files("clusteragree.notebooks")))


def get_report(name) -> Report:
    """The record of report ``name``; ``TypeError``/``ValueError`` (with a did-you-mean) for
    a name that is none, ``FileNotFoundError`` when its notebook is missing."""
    if not isinstance(name, str):
        raise TypeError(f"name must be a report name (str), got {type(name).__name__}")
    if name not in REPORTS:
        raise ValueError(f"unknown report {name!r}; known reports: {', '.join(REPORTS)}."
                         + suggest(name, REPORTS))
    path = notebooks_dir() / REPORTS[name].notebook
    if not path.exists():
        raise FileNotFoundError(f"report notebook {path} is missing from the installed "
                                "package: reinstall clusteragree (pip install "
                                "--force-reinstall clusteragree)")
    return REPORTS[name]


def notebook_path(name: str) -> Path:
    """The notebook of report ``name`` in ``notebooks_dir()``."""
    return notebooks_dir() / REPORTS[name].notebook


def list_reports() -> pd.DataFrame:
    """The reports, one row each.

    Returns
    -------
    DataFrame
        Indexed by name (like ``list_indices`` and ``list_datasets``), with the
        ``notebook`` and the ``description``.

    See Also
    --------
    report : Run a report.
    report_parameters : A report's parameters.

    Examples
    --------
    >>> ca.list_reports().index.tolist()
    ['agreement', 'null-distributions', 'stability-study', 'regression-approximations', 'clusterings', 'hierarchies']
    """
    return pd.DataFrame([{"name": r.name, "notebook": r.notebook, "description": r.description}
                         for r in REPORTS.values()]).set_index("name")


def report_parameters(name: str) -> pd.DataFrame:
    """The parameters a report's notebook declares (its cell tagged ``parameters``).

    Parameters
    ----------
    name : str
        A report of ``list_reports()``.

    Returns
    -------
    DataFrame
        Indexed by parameter name, as papermill reads them: ``type``, ``default`` and
        ``help`` (the comment beside each).

    See Also
    --------
    report : Run the report with some of them changed.
    coerce_parameters : Check values against them.

    Examples
    --------
    >>> params = report_parameters("agreement")
    >>> params.loc["n_sim", ["type", "default"]].tolist()
    ['int', 17000]
    """
    import papermill as pm

    rep = get_report(name)
    declared = pm.inspect_notebook(str(notebooks_dir() / rep.notebook))
    rows = []
    for key, v in declared.items():
        default = ast.literal_eval(v["default"])  # the notebook's literal, e.g. '"x"' -> 'x'
        kind = v["inferred_type_name"]
        rows.append({"name": key, "type": type(default).__name__ if kind == "None" else kind,
                     "default": default, "help": v["help"]})
    return pd.DataFrame(rows).set_index("name")


_TRUE, _FALSE = ("true", "yes", "1", "on"), ("false", "no", "0", "off")


def _coerce(key: str, value, kind: str):
    """A value of the declared type: strings (from the command line) are parsed, other values
    must already have the type."""
    if kind == "bool":
        if isinstance(value, str) and value.lower() in _TRUE + _FALSE:
            return value.lower() in _TRUE
        return check_bool(value, key)
    if kind in ("int", "float"):
        if isinstance(value, str):
            try:
                return int(value) if kind == "int" else float(value)
            except ValueError:
                raise ValueError(f"parameter {key} must be {'a whole number' if kind == 'int' else 'a number'}, "
                                 f"got {value!r}") from None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (
                kind == "int" and isinstance(value, float) and not value.is_integer()):
            raise TypeError(f"parameter {key} must be {'a whole number' if kind == 'int' else 'a number'}, "
                            f"got {value!r}")
        return int(value) if kind == "int" else float(value)
    if kind == "str":
        if isinstance(value, os.PathLike):
            return os.fspath(value)
        if not isinstance(value, str):
            raise TypeError(f"parameter {key} must be a string, got {type(value).__name__} "
                            f"{value!r}")
        return value
    return value


def coerce_parameters(name: str, params: dict, declared: pd.DataFrame | None = None) -> dict:
    """Check parameters against the notebook's declaration and give them its types.

    Each parameter's name is checked (with a did-you-mean), its type and its range
    (``PARAMETER_RANGES``: e.g. n_sim >= 1, seed >= 0); command-line strings are converted
    to the declared type ("yes", "true", "1", "on" and their opposites for a bool). File
    parameters (``*_file``) become absolute paths, so the notebook finds
    them wherever it runs.

    Parameters
    ----------
    name : str
        A report of ``list_reports()``.
    params : dict
        Parameter name -> value (strings from the command line, or values of the type).
    declared : DataFrame, optional
        ``report_parameters(name)``, when the caller has it already.

    Returns
    -------
    dict
        The parameters with the declared types.

    Raises
    ------
    ValueError, TypeError
        An unknown parameter, a value that is not of (or cannot be read as) its type, or
        one out of its range.

    See Also
    --------
    parse_assignments : The command line's ``-p key=value``.
    report_parameters : The declarations.

    Examples
    --------
    >>> coerce_parameters("agreement", {"n_sim": "500", "quick": "yes"})
    {'n_sim': 500, 'quick': True}
    >>> coerce_parameters("agreement", {"n_sim": "0"})
    Traceback (most recent call last):
    ...
    ValueError: parameter n_sim must be >= 1, got 0
    """
    declared = report_parameters(name) if declared is None else declared
    out = {}
    for key, value in params.items():
        if key not in declared.index:
            raise ValueError(f"report {name!r} has no parameter {key!r}; its parameters: "
                             f"{', '.join(declared.index)}." + suggest(key, declared.index))
        value = _coerce(key, value, declared.loc[key, "type"])
        if key in PARAMETER_RANGES:
            PARAMETER_RANGES[key](value, f"parameter {key}")
        if key.endswith("_file") and value:
            value = str(Path(value).expanduser().resolve())
        out[key] = value
    return out


def parse_assignments(items) -> dict:
    """The command line's ``-p key=value`` assignments as a dict.

    Parameters
    ----------
    items : sequence of str or None
        ``["key=value", ...]``; each key must be an identifier.

    Returns
    -------
    dict
        Key -> value, both strings (``coerce_parameters`` gives them their types).

    Raises
    ------
    ValueError
        An item that is not ``key=value``.

    See Also
    --------
    coerce_parameters : Give the values their declared types.

    Examples
    --------
    >>> parse_assignments(["n_sim=500", "quick=yes"])
    {'n_sim': '500', 'quick': 'yes'}
    """
    out = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip().isidentifier():
            raise ValueError(f"-p takes key=value (e.g. -p n_sim=2000), got {item!r}")
        out[key.strip()] = value
    return out

