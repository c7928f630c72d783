"""Reports: parameterised notebooks executed with papermill and rendered with nbconvert.

``report(name, output=..., **parameters)`` (and ``clusteragree report NAME -p key=value``) runs
the package's ``notebooks/NAME.ipynb`` with the given parameters and writes a self-contained
HTML page (code hidden, figures embedded) or a PDF (through WeasyPrint, the ``[pdf]`` extra).
Everything is checked before the notebook starts: the report's name, every parameter's name and
type against the notebook's ``parameters`` cell, input files (or clusterings given in memory,
``reports.memory``), the output path. The notebook runs in a
temporary folder and the report reaches its path only when complete: a failing cell leaves no
half-written report, and the error names the cell and its message.

>>> list_reports().loc["agreement", "notebook"]
'agreement.ipynb'
>>> coerce_parameters("agreement", {"n_sim": "500", "quick": "yes"})
{'n_sim': 500, 'quick': True}
"""

from __future__ import annotations

import ast
import hashlib
import html
import json
import os
import re
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import pandas as pd

from .._display import FIGURE_DPI
from .memory import (IN_MEMORY, SOURCE_PARAMETERS, inputs_folder, publish_memory_inputs,
                     read_memory_clusterings, read_memory_inputs, write_memory_inputs)
from .._validate import (check_bool, check_choice, check_fraction, check_positive_int, check_seed,
                         suggest)

__all__ = ["REPORTS", "Report", "ReportError", "list_reports", "report_parameters",
           "coerce_parameters", "parse_assignments", "report", "notebooks_dir", "fingerprint",
           "read_fingerprint", "render_examples", "examples_folder"]

FORMATS = ("html", "pdf")


def check_level(value):
    """``clusteragree.intervals.check_level``, imported when a report's parameters are checked
    (so that ``clusteragree report --list`` does not import the statistics stack)."""
    from ..intervals import check_level as check

    return check(value)


class ReportError(RuntimeError):
    """A report notebook failed while it ran: the message names the cell and the error."""


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
    """A null law refused for its size, said in a report's terms: a report takes no
    ``max_work``, so the advice to raise it is replaced by the report's way out."""
    try:
        yield
    except ValueError as err:
        text = str(err)
        if "raise max_work" not in text:
            raise
        head = text.split("; use ")[0]
        raise ValueError(f"{head}; a report takes no max_work: use method='auto' (the "
                         "default), which takes the exact law where it fits and Monte Carlo "
                         "elsewhere, or a Monte Carlo method ('patefield')") from err


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
    for a, b in pairs:  # every test's null law planned: one too large is refused here
        tab = crosstab(frame[a], frame[b])
        with _report_budget():
            plan(entry(tab, None, None, False, "exact", [rec]), [rec], spec)


def _check_alternative(value, name):
    from ..nulls.distribution import ALTERNATIVES

    if value != "":
        check_choice(value, name, ALTERNATIVES)


def _check_model(value, name):
    from ..nulls._methods import PARTITION_MODELS

    check_choice(value, name, PARTITION_MODELS)


#: Every report, by name; the first is the default of ``clusteragree report``.
REPORTS: dict[str, Report] = {r.name: r for r in (
    Report("agreement", "agreement.ipynb",
           "two clusterings: every index against its null law, p-values, adjusted values, "
           "null means by method, random models",
           check=_check_agreement_inputs, quick={"n_sim": 2000}),
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
           "by paired difference tests (Holm-adjusted), and the verdict in words",
           check=_check_clusterings_inputs, quick={"n_sim": 2000},
           memory=read_memory_clusterings),
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
    from ..many_clusterings import MULTIPLE_METHODS

    check_choice(value, name, MULTIPLE_METHODS)


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
    return Path(str(resources.files("clusteragree").joinpath("notebooks")))


def _get(name) -> Report:
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
    ['agreement', 'null-distributions', 'stability-study', 'regression-approximations', 'clusterings']
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

    rep = _get(name)
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


def _check_output(output, name: str, fmt: str) -> Path:
    path = Path(output if output is not None else Path("reports") / f"{name}.{fmt}")
    path = path.expanduser().resolve()
    if path.is_dir():
        raise ValueError(f"output {path} is a folder; give a file path such as "
                         f"{path / (name + '.' + fmt)}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".write-test-"):
            pass
    except OSError as exc:
        raise PermissionError(f"output {path} cannot be written: {exc.strerror or exc}") from None
    return path


def _check_pdf_support():
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as exc:
        raise ImportError("PDF reports need WeasyPrint and the system's Pango library: "
                          'pip install -e ".[pdf]" (and, on Debian, apt-get install '
                          f"libpango-1.0-0 libpangoft2-1.0-0); the import said: {exc}") from None


class _ProgressLines:
    """A stream for tqdm that turns its redrawn status line into plain lines: progress in a log
    (no terminal) rather than carriage returns or nothing."""

    def __init__(self, stream):
        self.stream, self.last = stream, None

    def write(self, text: str) -> None:
        for part in re.split(r"[\r\n]+", text):
            part = part.strip()
            if part and part != self.last:
                print(part, file=self.stream, flush=True)
                self.last = part

    def flush(self) -> None:
        self.stream.flush()


#: Seconds between two progress lines (``progress="lines"``), at most one per executed cell.
PROGRESS_INTERVAL = 10.0


def _progress_bar(progress, name: str):
    """papermill's progress_bar: a bar (True), nothing (False), or for "lines" a line now and
    then on stderr, "clusteragree report NAME: cell 5 of 16, 00:12 elapsed"."""
    if progress != "lines":
        return progress
    return {"file": _ProgressLines(sys.stderr), "mininterval": PROGRESS_INTERVAL, "miniters": 1,
            "desc": f"clusteragree report {name}", "ascii": True,
            "bar_format": "{desc}: cell {n_fmt} of {total_fmt}, {elapsed} elapsed"}


def _execute(notebook: Path, out: Path, params: dict, progress) -> None:
    import papermill as pm

    try:
        pm.execute_notebook(str(notebook), str(out), parameters=params, kernel_name="python3",
                            progress_bar=_progress_bar(progress, notebook.stem), cwd=os.getcwd(),
                            log_output=False,
                            # jupyter_client shuts a kernel down with a SIGINT first; a kernel
                            # still answering a message then logs "KeyboardInterrupt caught in
                            # kernel." at ERROR, after the last cell, on the command's stderr.
                            # A cell's own error reaches us as PapermillExecutionError.
                            extra_arguments=["--IPKernelApp.log_level=CRITICAL"])
    except pm.PapermillExecutionError as exc:
        source = exc.source.strip()
        source = source if len(source) < 800 else source[:800] + " ..."
        raise ReportError(f"the report failed in cell {exc.exec_count} of {notebook.name}:\n"
                          f"{source}\n{exc.ename}: {exc.evalue}") from None


#: The class of a text cell printed on the page of the cell that follows it: a cell that ends
#: in a heading, and a short text (at most ``SHORT_TEXT`` characters) before a figure. A longer
#: text before a figure may end a page and the figure begin the next: kept together, they
#: went to the next page whole and left the page before half blank.
KEEP_WITH_NEXT = "ca-keep-with-next"

#: The longest text cell kept on the page of the figure that follows it (``KEEP_WITH_NEXT``).
SHORT_TEXT = 400

#: A4 pages for PDF reports: narrow margins; tables in 8 pt type, their headers wrapping where
#: a table would be wider than the page, not their cells (an interval, a p-value with its count
#: stay on one line), a header repeated when a table runs over a page;
#: figures at their own size (``FIGURE_DPI`` pixels per inch: the reports draw them at most
#: ``PAPER_WIDTH`` wide, their type at least ``PAPER_FONT`` points), never split, scaled down
#: only when wider than the text or taller than a page; a heading kept with what follows it,
#: some text cells with what follows them (``KEEP_WITH_NEXT``); no paragraph leaves fewer
#: than three lines at the foot or the head of a page.
_PRINT_CSS = f"""<style>
@page {{ size: A4; margin: 14mm 12mm; }}
body {{ font-size: 9.5pt; margin: 0; padding: 0 !important; }}
.jp-Cell {{ padding: 2px 0; }}
.jp-InputArea, .jp-MarkdownOutput {{ display: block; width: auto; }}
p, li {{ orphans: 3; widows: 3; }}
h1, h2, h3 {{ break-after: avoid; }}
.jp-OutputArea-output table {{ font-size: 8pt; break-inside: auto; max-width: 100%; }}
.jp-OutputArea-output caption {{ white-space: normal; }}
.jp-OutputArea-output thead {{ display: table-header-group; }}
.jp-OutputArea-output tr {{ break-inside: avoid; }}
.jp-OutputArea-output td, .jp-OutputArea-output th {{ padding: 1px 4px !important; }}
.jp-OutputArea-output th {{ white-space: normal !important; }}
.{KEEP_WITH_NEXT} {{ break-after: avoid; }}
.jp-OutputArea-output img {{ image-resolution: {FIGURE_DPI}dpi; max-width: 100% !important;
                            max-height: 255mm; width: auto; height: auto;
                            break-inside: avoid; }}
</style>"""


def _normalise(executed: Path) -> None:
    """Strip what differs between two runs of the same notebook with the same parameters, so
    that the report (and the kept notebook) is the same file byte for byte: papermill's and
    nbclient's clock times and durations, the temporary folder's paths, and the random id of
    the cell papermill injects the parameters into."""
    import nbformat

    nb = nbformat.read(str(executed), as_version=4)
    meta = nb.metadata.get("papermill", {})
    for key in ("start_time", "end_time", "duration", "environment_variables"):
        meta.pop(key, None)
    for key in ("input_path", "output_path"):
        if meta.get(key):
            meta[key] = Path(meta[key]).name
    for cell in nb.cells:
        for out in cell.get("outputs", []):  # "<...Styler at 0x7f...>": an address
            text = out.get("data", {}).get("text/plain")
            if isinstance(text, str):
                out["data"]["text/plain"] = re.sub(r" at 0x[0-9a-f]+>", ">", text)
        cell.metadata.pop("execution", None)
        cell.metadata.pop("papermill", None)
        if "injected-parameters" in cell.metadata.get("tags", []):
            cell.id = "injected-parameters"
    nbformat.write(nb, str(executed))


def _render_html(executed: Path, code: bool) -> str:
    import nbformat
    from nbconvert import HTMLExporter

    nb = nbformat.read(str(executed), as_version=4)
    exporter = HTMLExporter(template_name="lab", exclude_input=not code,
                            exclude_input_prompt=True, exclude_output_prompt=True,
                            embed_images=True)
    title = next((line.lstrip("# ").strip() for cell in nb.cells if cell.cell_type == "markdown"
                  for line in cell.source.splitlines() if line.startswith("# ")), executed.stem)
    body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": title}})
    return _self_contained(body)


def _self_contained(html: str) -> str:
    """The page without the template's CDN scripts, with alt text on every figure, and the
    text cells that print on the page of what follows them marked (``KEEP_WITH_NEXT``).

    nbconvert's lab template loads require.js, MathJax and mermaid from CDNs; the reports use no
    widgets, TeX or diagrams, so the page is whole without them and opens offline with nothing
    left to fetch. Each figure gets an alt text naming the section it illustrates (the template
    gives none: nbconvert would write "No description has been provided for this image")."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, features="html.parser")
    for script in soup.find_all("script"):
        text = script.string or ""
        if (script.get("src", "").startswith(("http://", "https://", "//"))
                or script.get("type") == "text/x-mathjax-config" or "mermaid" in text):
            script.decompose()
    for number, img in enumerate(soup.find_all("img"), 1):
        heading = img.find_previous(["h1", "h2", "h3"])
        section = heading.get_text(" ", strip=True).rstrip("¶").strip() if heading else ""
        img["alt"] = f"Figure {number}" + (f" of the section \u201c{section}\u201d" if section
                                           else "")
    for cell in soup.select(".jp-MarkdownCell"):  # printed on the page of what follows it
        after = cell.find_next_sibling(class_="jp-Cell")
        first = after.select_one(".jp-OutputArea-output") if after is not None else None
        blocks = cell.select(".jp-RenderedMarkdown > *")
        ends_in_heading = bool(blocks) and blocks[-1].name in ("h1", "h2", "h3")
        short_before_figure = (first is not None and first.find("img") is not None
                               and len(cell.get_text(" ", strip=True)) <= SHORT_TEXT)
        if after is not None and (ends_in_heading or short_before_figure):
            cell["class"] = [*cell["class"], KEEP_WITH_NEXT]
    return str(soup)


def report(name: str = "agreement", output=None, format: str = "html", *, code: bool = False,
           keep_notebook: bool = False, progress: bool = True, **parameters) -> Path:
    """Run a report notebook with ``parameters`` and render it; return the report's path.

    Parameters
    ----------
    name : str
        A report of ``list_reports()`` (default "agreement").
    output : path, optional
        Where to write it (default ``reports/NAME.html`` or ``.pdf`` below the current folder).
    format : {"html", "pdf"}
        HTML (self-contained: figures embedded) or PDF (needs the ``[pdf]`` extra).
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
    ValueError: report 'agreement' has no parameter 'n_simm'; its parameters: dataset, table_file, data_file, x_column, y_column, x_file, y_file, in_memory, indices, model, method, alternative, confidence_level, n_sim, seed, quick. Did you mean 'n_sim'?

    A quick run of the default report (about 15 seconds), and one of two labellings held in
    memory (written to ``mine-inputs/data.csv`` beside the report):

    >>> path = ca.report("agreement", output="agreement.html", quick=True)  # doctest: +SKIP
    >>> path = ca.report("agreement", x=classes, y=clusters, output="mine.html",
    ...                  quick=True)  # doctest: +SKIP

    Many clusterings of the same objects, one column each, against the column "class":

    >>> path = ca.report("clusterings", data=runs, reference="class",
    ...                  output="runs.html")  # doctest: +SKIP
    """
    rep = _get(name)
    fmt = check_choice(format, "format", FORMATS)
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
    folder = inputs_folder(_check_output(output, name, fmt))
    with tempfile.TemporaryDirectory(prefix="clusteragree-inputs-") as staging:
        staged = write_memory_inputs(given, staging, shown_as=folder.name)
        params.update(coerce_parameters(name, staged, declared))
        path = _run_report(name, rep, declared, params, output, fmt, code, keep_notebook,
                           progress)
        publish_memory_inputs(Path(staging) / given.file, folder)
    return path


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
    path = _check_output(output, name, fmt)
    if fmt == "pdf":
        _check_pdf_support()
    with tempfile.TemporaryDirectory(prefix="clusteragree-report-") as tmp:
        executed = Path(tmp) / rep.notebook
        _execute(notebooks_dir() / rep.notebook, executed, run, progress)
        _normalise(executed)
        page = _stamp(_render_html(executed, code), fingerprint(name, params))
        if fmt == "html":
            _publish(path, page.encode("utf-8"))
        else:
            import weasyprint

            printed = page.replace("</head>", f"{_PRINT_CSS}</head>", 1)
            _publish(path, weasyprint.HTML(string=printed, base_url=tmp).write_pdf())
        if keep_notebook:
            _publish(path.with_suffix(".ipynb"), executed.read_bytes())
    return path


def fingerprint(name: str, params: dict) -> str:
    """What a rendered report was made from: the notebook's content and the parameters given.

    Stamped into every report (HTML meta tag, PDF keywords), so a test can tell a committed
    example report that no longer matches its notebook.

    Parameters
    ----------
    name : str
        A report of ``list_reports()``.
    params : dict
        The parameters given (after ``coerce_parameters``).

    Returns
    -------
    str
        "clusteragree-report NAME; notebook sha256 <16 hex digits>; parameters <JSON>"; input
        files (``*_file``) by their names, not their folders, like the report itself.

    See Also
    --------
    read_fingerprint : The fingerprint stamped into a report.

    Examples
    --------
    >>> fingerprint("agreement", {"quick": True}).endswith('parameters {"quick": true}')
    True
    >>> fingerprint("agreement", {"x_file": "/home/me/x.txt"}).endswith('{"x_file": "x.txt"}')
    True
    """
    digest = hashlib.sha256((notebooks_dir() / REPORTS[name].notebook).read_bytes()).hexdigest()
    params = {k: Path(v).name if k.endswith("_file") and isinstance(v, str) and v else v
              for k, v in params.items()}
    return f"clusteragree-report {name}; notebook sha256 {digest[:16]}; parameters " \
           f"{json.dumps(params, sort_keys=True)}"


def read_fingerprint(path) -> str | None:
    """The fingerprint stamped into a rendered report.

    Parameters
    ----------
    path : str or path
        A report, HTML or PDF.

    Returns
    -------
    str or None
        The fingerprint, or None when the report has none.

    See Also
    --------
    fingerprint : What it is made of.

    Examples
    --------
    >>> import tempfile
    >>> page = Path(tempfile.mkdtemp()) / "report.html"
    >>> _ = page.write_text('<head><meta name="keywords" content="clusteragree-report x"></head>')
    >>> read_fingerprint(page)
    'clusteragree-report x'
    """
    path = Path(path)
    if path.suffix == ".pdf":
        import pypdf

        return (pypdf.PdfReader(str(path)).metadata or {}).get("/Keywords") or None
    match = re.search(r'<meta name="keywords" content="([^"]*)"', path.read_text("utf-8"))
    return html.unescape(match.group(1)) if match else None


def _stamp(page: str, stamp: str) -> str:
    return page.replace("<head>", f'<head>\n<meta name="keywords" content="{html.escape(stamp)}">',
                        1)


def _publish(path: Path, content: bytes) -> None:
    """Write ``content`` to a temporary file beside ``path`` and rename it into place: a
    reader never sees a half-written report."""
    fd, staged = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(content)
        os.chmod(staged, 0o644)
        os.replace(staged, path)
    except BaseException:
        Path(staged).unlink(missing_ok=True)
        raise


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
