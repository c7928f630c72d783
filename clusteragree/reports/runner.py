"""Reports: parameterised notebooks executed with papermill and rendered with nbconvert; the
public entry (``report``, ``list_reports``, ``report_parameters``) and the example reports.

``report(name, output=..., **parameters)`` (and ``clusteragree report NAME -p key=value``) runs
the package's ``notebooks/NAME.ipynb`` with the given parameters and writes a self-contained
HTML page (code hidden, figures embedded) or a PDF (through WeasyPrint, the ``[pdf]`` extra).
Everything is checked before the notebook starts (``catalogue``): the report's name, every
parameter's name and type against the notebook's ``parameters`` cell, input files (or
clusterings given in memory, ``reports.memory``), the output path. The notebook runs in a
temporary folder and the report reaches its path only when complete (``render``): a failing
cell leaves no half-written report, and the error names the cell and its message. Each report
is stamped with its ``fingerprints``.

>>> list_reports().loc["agreement", "notebook"]
'agreement.ipynb'
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pandas as pd

from .catalogue import (REPORTS, Report, coerce_parameters, get_report, list_reports,
                        notebook_path, notebooks_dir, parse_assignments, report_parameters)
from .fingerprints import fingerprint, read_fingerprint
from .memory import (IN_MEMORY, SOURCE_PARAMETERS, inputs_folder, publish_memory_inputs,
                     read_memory_inputs, write_memory_inputs)
from .render import FORMATS, ReportError, check_output, render
from .._validate import check_bool, check_choice

__all__ = ["REPORTS", "Report", "ReportError", "list_reports", "report_parameters",
           "coerce_parameters", "parse_assignments", "report", "notebooks_dir", "fingerprint",
           "read_fingerprint", "render_examples", "examples_folder", "report_format"]


def report(name: str = "agreement", output=None, format: str | None = None, *, code: bool = False,
           keep_notebook: bool = False, progress: bool = True, **parameters) -> Path:
    """Run a report notebook with ``parameters`` and render it; return the report's path.

    Parameters
    ----------
    name : str
        A report of ``list_reports()`` (default "agreement").
    output : path, optional
        Where to write it (default ``reports/NAME.html`` or ``.pdf`` below the current folder).
    format : {"html", "pdf"}, optional
        HTML (self-contained: figures embedded) or PDF (needs the ``[pdf]`` extra). None
        (default): the suffix of ``output`` says which (".pdf" or ".html"), HTML without
        one; a format that disagrees with the suffix is refused (a PDF named ``.html``).
    code : bool
        Show the notebook's code cells (hidden by default).
    keep_notebook : bool
        Keep the executed notebook beside the report (same name, ``.ipynb``).
    progress : bool or "lines"
        A progress bar over the notebook's cells (True), nothing (False), or a line on stderr
        now and then ("lines": what the command line does without a terminal).
    **parameters
        The notebook's parameters (``report_parameters(name)``), e.g. ``quick=True``. Quick
        mode stands for smaller values of some of them (``REPORTS[name].quick``); those given
        here keep their values. The agreement report also takes its clusterings in memory,
        as ``ca.agreement`` does: ``x=`` and ``y=`` (two labellings: lists, arrays, pandas
        Series, paired by their index), ``data=`` with column names ``x=`` and ``y=``, or
        ``table=`` (a ContingencyTable, a 2-D array or a DataFrame of counts); the
        clusterings report takes ``data=`` (a DataFrame, one column per clustering, with
        ``reference=`` and ``columns=`` naming them). They are checked as ``ca.agreement``
        checks them, written to ``data.csv`` or ``table.csv`` in the folder ``NAME-inputs``
        beside the report (``reports/agreement-inputs/`` for ``reports/agreement.html``),
        and named in the report's Data line (``clusteragree.reports.memory``).

    Returns
    -------
    pathlib.Path
        The report's absolute path.

    Raises
    ------
    ValueError, TypeError, FileNotFoundError, PermissionError
        Before the notebook starts: an unknown report or parameter, a value of the wrong
        type, clusterings the package refuses, a missing or unreadable input file or an
        output that cannot be written.
    ReportError
        A cell of the notebook failed (the message names the cell and the error); no report
        is written.

    See Also
    --------
    list_reports : The reports.
    report_parameters : A report's parameters.

    Examples
    --------
    Everything is checked before the notebook starts:

    >>> ca.report("agreement", n_simm=500)
    Traceback (most recent call last):
    ...
    ValueError: report 'agreement' has no parameter 'n_simm'; its parameters: dataset, table_file, data_file, x_column, y_column, x_file, y_file, in_memory, indices, model, method, alternative, noise, confidence_level, n_sim, beyond_floor, seed, quick. Did you mean 'n_sim'?

    A quick run of the default report (about 15 seconds), and one of two labellings held in
    memory (written to ``mine-inputs/data.csv`` beside the report):

    >>> path = ca.report("agreement", output="agreement.html", quick=True)  # doctest: +SKIP
    >>> path = ca.report("agreement", x=classes, y=clusters, output="mine.html",
    ...                  quick=True)  # doctest: +SKIP

    Many clusterings of the same objects, one column each, against the column "class":

    >>> path = ca.report("clusterings", data=runs, reference="class",
    ...                  output="runs.html")  # doctest: +SKIP
    """
    rep = get_report(name)
    fmt = report_format(format, output)
    check_bool(code, "code")
    check_bool(keep_notebook, "keep_notebook")
    if progress != "lines":
        check_bool(progress, "progress")
    declared = report_parameters(name)
    given = _memory_inputs(name, parameters, declared)  # pops x, y, data, table
    params = coerce_parameters(name, parameters, declared)
    if given is None:
        return _run_report(name, rep, declared, params, output, fmt, code, keep_notebook,
                           progress)
    # staged in a temporary folder and read from there like any input file; moved beside the
    # report with it, so a report that fails leaves the earlier report's inputs as they were
    folder = inputs_folder(check_output(output, name, fmt))
    with tempfile.TemporaryDirectory(prefix="clusteragree-inputs-") as staging:
        staged = write_memory_inputs(given, staging, shown_as=folder.name)
        params.update(coerce_parameters(name, staged, declared))
        path = _run_report(name, rep, declared, params, output, fmt, code, keep_notebook,
                           progress)
        publish_memory_inputs(Path(staging) / given.file, folder)
    return path


#: The suffixes of each format's file.
_SUFFIXES = {".html": "html", ".htm": "html", ".pdf": "pdf"}


def report_format(format, output) -> str:
    """The format of a report: as given, or read from the suffix of ``output`` (HTML when it
    has none); a format that disagrees with the suffix is refused before any work (a PDF
    named ``.html`` would open as neither).

    Parameters
    ----------
    format : {"html", "pdf"} or None
        The format asked for, or None.
    output : path or None
        The report's path, or None (the default path takes the format's suffix).

    Returns
    -------
    str
        "html" or "pdf".

    Raises
    ------
    ValueError
        An unknown format, or one that disagrees with the suffix of ``output``.

    See Also
    --------
    report : Renders a report in this format.

    Examples
    --------
    >>> report_format(None, "a.pdf"), report_format(None, None), report_format("pdf", "a.PDF")
    ('pdf', 'html', 'pdf')
    """
    suffix = Path(output).suffix.lower() if output is not None else ""
    implied = _SUFFIXES.get(suffix)
    if format is None:
        return implied or "html"
    fmt = check_choice(format, "format", FORMATS)
    if implied is not None and implied != fmt:
        kind = "a PDF" if implied == "pdf" else "an HTML"
        raise ValueError(f"format={format!r} but output {str(output)!r} names {kind} file: give "
                         f"output a .{fmt} suffix, or leave format out to write {kind[2:].strip()}")
    return fmt


def _memory_inputs(name: str, parameters: dict, declared: pd.DataFrame):
    """The clusterings given in memory (``x``, ``y``, ``data``, ``table``), taken out of
    ``parameters`` and read, or None; refused for a report that reads no clusterings and
    beside a file or data set given too."""
    if "in_memory" not in declared.index or not set(IN_MEMORY) & set(parameters):
        return None  # a report without clusterings: coerce_parameters names the parameter
    memory = {k: parameters.pop(k) for k in IN_MEMORY if k in parameters}
    both = [k for k in SOURCE_PARAMETERS if k in parameters]
    if both:
        raise ValueError(f"report {name!r}: give the clusterings either in memory "
                         f"({', '.join(memory)}) or by {', '.join(both)}, not both")
    return (REPORTS[name].memory or read_memory_inputs)(memory)


def _run_report(name, rep, declared, params, output, fmt, code, keep_notebook, progress):
    """The checks of content, the output, the notebook's run and the rendering."""
    run = dict(params)
    if params.get("quick"):  # quick mode's values, but never over a value given
        run = {**coerce_parameters(name, rep.quick, declared), **params}
    if rep.check is not None:
        rep.check({**declared["default"].to_dict(), **run})
    path = check_output(output, name, fmt)
    return render(notebook_path(name), run, path, fmt, code, keep_notebook, progress,
                  fingerprint(name, params))


def examples_folder() -> Path:
    """The repository's ``reports/`` folder, which holds the example reports.

    The examples belong to the repository, not to an installed package: this is the folder
    beside the package's source when clusteragree runs from a clone (``pip install -e .`` or
    ``python -m clusteragree`` at its root), whatever the current folder.

    Returns
    -------
    pathlib.Path
        The absolute path of the clone's ``reports/`` folder.

    Raises
    ------
    FileNotFoundError
        clusteragree is not run from a clone (e.g. installed from a wheel).

    See Also
    --------
    render_examples : Re-render the examples there.

    Examples
    --------
    >>> (examples_folder() / "agreement.html").is_file()   # in a clone
    True
    """
    root = Path(__file__).resolve().parents[2]
    project = root / "pyproject.toml"
    if (project.is_file() and 'name = "clusteragree"' in project.read_text("utf-8")
            and (root / "reports").is_dir()):
        return root / "reports"
    raise FileNotFoundError(
        "clusteragree report --all re-renders the example reports of the repository (its "
        f"reports/ folder), but this clusteragree ({Path(__file__).resolve().parents[1]}) is "
        "installed, not run from a clone: run it from a clone of the repository (pip install "
        "-e . there, or python -m clusteragree at its root), or render one report with "
        "clusteragree report NAME -o PATH")


def render_examples(folder=None, progress: bool = True) -> list[Path]:
    """Render the committed example reports (``clusteragree report --all``).

    Every report with its defaults, as HTML, and the default report as PDF too.

    Parameters
    ----------
    folder : str or path, optional
        Where to write them; by default the repository's ``reports/`` folder
        (``examples_folder()``: clusteragree must run from a clone).
    progress : bool or "lines", default True
        Progress bars over the notebooks' cells (``report``'s ``progress``).

    Returns
    -------
    list of pathlib.Path
        The reports written.

    Raises
    ------
    FileNotFoundError
        No ``folder`` given and clusteragree is not run from a clone.

    See Also
    --------
    report : Render one report.

    Examples
    --------
    Several minutes (the full-size reports):

    >>> paths = render_examples()  # doctest: +SKIP
    """
    folder = examples_folder() if folder is None else Path(folder)
    paths = []
    for name in REPORTS:
        paths.append(report(name, output=folder / f"{name}.html", progress=progress))
    default = next(iter(REPORTS))
    paths.append(report(default, output=folder / f"{default}.pdf", format="pdf",
                        progress=progress))
    return paths
