"""Reports: every notebook renders in quick mode, bad input is refused before any work, a failing
cell leaves no report, the committed example reports match their notebooks."""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

import clusteragree as ca
from clusteragree import cli
from clusteragree.reports.runner import (REPORTS, Report, ReportError, coerce_parameters, fingerprint,
                                 notebooks_dir, read_fingerprint, report_parameters)

rp = importlib.import_module("clusteragree.reports.runner")  # the module (ca.report is the function)
render = importlib.import_module("clusteragree.reports.render")  # where the notebook runs
catalogue = importlib.import_module("clusteragree.reports.catalogue")  # the notebooks folder
ROOT = Path(__file__).resolve().parents[2]
NAMES = list(REPORTS)


def _notebook(name):
    return nbformat.read(str(notebooks_dir() / REPORTS[name].notebook), as_version=4)


def test_every_notebook_is_a_registered_report_and_back():
    on_disk = {p.name for p in notebooks_dir().glob("*.ipynb")}
    assert on_disk == {r.notebook for r in REPORTS.values()}
    assert set(ca.list_reports().index) == set(REPORTS)


@pytest.mark.parametrize("name", NAMES)
def test_notebook_follows_the_report_conventions(name):
    nb = _notebook(name)
    first = nb.cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# ")
    tagged = [c for c in nb.cells if "parameters" in c.metadata.get("tags", [])]
    assert len(tagged) == 1 and tagged[0] is nb.cells[1]
    declared = report_parameters(name)
    assert {"quick", "seed"} <= set(declared.index)
    assert declared.loc["quick", "default"] is False
    assert all(declared["help"].str.len() > 10), "every parameter is documented in its cell"
    headings = [line for c in nb.cells if c.cell_type == "markdown"
                for line in c.source.splitlines() if line.startswith("## ")]
    assert headings[-1] == "## Reading"
    last = nb.cells[-1]
    assert last.cell_type == "code" and last.source.startswith("reporting.session_info(seed)"), \
        "every report ends with its session info (versions, generator, seed)"
    assert not any(c.get("outputs") for c in nb.cells if c.cell_type == "code"), \
        "notebooks are committed without outputs"
    assert nb.metadata["kernelspec"]["name"] == "python3"
    for cell in nb.cells:  # readers of a report do not have the project's files
        assert "seed 00" not in cell.source and "../shared" not in cell.source


def _executed_problems(path: Path) -> list[str]:
    nb = nbformat.read(str(path), as_version=4)
    problems = []
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.output_type == "error":
                problems.append(f"error {out.ename}")
            elif out.output_type == "stream":
                problems.append(f"{out.name}: {out.text[:200]}")
            text = json.dumps(out.get("data", {}).get("text/plain", ""))
            if re.search(r"<(matplotlib|Axes|Figure)|object at 0x", text) and \
                    "image/png" not in out.get("data", {}):
                problems.append(f"raw repr {text[:120]}")
    return problems


@pytest.mark.slow  # papermill (and WeasyPrint): seconds per report
@pytest.mark.parametrize("name", NAMES)
def test_every_report_renders_in_quick_mode(name, tmp_path):
    out = ca.report(name, output=tmp_path / f"{name}.html", quick=True, keep_notebook=True,
                    progress=False)
    page = out.read_text("utf-8")
    assert page.count("data:image/png;base64,") >= 2, "figures are embedded"
    # self-contained: nothing to fetch (no CDN script), and every figure has an alt text
    assert not re.search(r"<script[^>]*src=|https://cdn", page)
    alts = re.findall(r'<img[^>]*alt="([^"]*)"', page)
    assert len(alts) == page.count("<img") and all(a.startswith("Figure ") for a in alts)
    body = re.sub(r"<style.*?</style>|<script.*?</script>", "", page, flags=re.S)
    assert not re.search(r"Traceback|\b[A-Z]\w*(Error|Exception|Warning)\b", body)
    assert _executed_problems(out.with_suffix(".ipynb")) == [], "no warning, error or print"
    assert "hl-ipython3" not in body, "code is hidden (no highlighted input cell)"
    assert "permutation model" in body or "Patefield" in body, "the null is named"
    assert read_fingerprint(out) == fingerprint(name, {"quick": True})
    footer = body[body.rindex("Session info"):]
    assert "PCG64" in footer and "seed 1" in footer and "statsmodels" in footer


@pytest.mark.slow  # papermill: seconds
def test_report_of_label_files_describes_them_by_name(tmp_path):
    folder = tmp_path / "home-of-mine" / "project"
    folder.mkdir(parents=True)
    x = [c for c in "abc" for _ in range(30)]
    y = [c for c in "123" for _ in range(25)] + ["1"] * 15
    (folder / "classes.txt").write_text("\n".join(x) + "\n")
    (folder / "clusters.txt").write_text("\n".join(y) + "\n")
    out = ca.report("agreement", output=tmp_path / "mine.html", quick=True, progress=False,
                    x_file=folder / "classes.txt", y_file=folder / "clusters.txt")
    page = out.read_text("utf-8")
    body = re.sub(r"<[^>]+>", "", page)
    data = body[body.index("Data:"):body.index("Run:")]
    assert "classes.txt" in data and "clusters.txt" in data and "n = 90 objects" in data
    assert "groups of classes (rows)" in data and "groups of clusters (columns)" in data
    assert "home-of-mine" not in page, "files by name, not by path (fingerprint included)"


@pytest.mark.slow  # papermill: seconds
def test_agreement_report_gives_the_exact_p_when_it_is_cheap(tmp_path):
    """The 2 x 2 table of n = 27 of issue 20: method="auto" takes the exact law, whose p-value
    is Fisher's two-sided p (0.0018381), and says so per row; the twelve indices are 2 tests
    (sum n_ij^2 and sum n_ij log n_ij); z carries its caveat beside these skewed laws."""
    from scipy.stats import fisher_exact

    table = tmp_path / "two.csv"
    table.write_text(",A,B\nyes,12,2\nno,3,10\n")
    out = ca.report("agreement", output=tmp_path / "two.html", quick=True, progress=False,
                    table_file=table)
    body = re.sub(r"<[^>]+>", " ", out.read_text("utf-8"))
    assert round(fisher_exact([[12, 2], [3, 10]]).pvalue, 7) == 0.0018381
    tests = body[body.index("Tests -- null"):body.index("Intervals --")]
    # observed, p-value, method, test group (the intervals in a table of their own: side by
    # side, the two ran past a printed page)
    rand = re.search(r"rand\s+0\.6866\s+(\S+)\s+(\S+)\s+sum n_ij\^2", tests)
    assert rand and rand.groups() == ("0.00184", "exact"), tests[:600]
    intervals = body[body.index("Intervals --"):body.index("Null laws and adjusted values")]
    assert re.search(r"rand\s+0\.6866\s+[\[(][^\])]+[\])]\s+[a-z ,]+", intervals), intervals[:600]
    assert "Patefield tables" not in tests, "every law of this table is exact"
    assert "6.808*" in body and "read the p-value, not a normal tail of z" in body
    assert "2 distinct tests among 12 indices" in body
    means = body[body.index("Null means by method --"):body.index("Random models")]
    assert "e-16" not in means and "e-17" not in means, "exact zeros are printed as 0"


@pytest.mark.slow  # papermill (and WeasyPrint): seconds per report
def test_pdf_report_has_pages_and_the_title(tmp_path):
    pypdf = pytest.importorskip("pypdf")
    out = ca.report("agreement", output=tmp_path / "a.pdf", format="pdf", quick=True,
                    progress=False)
    doc = pypdf.PdfReader(str(out))
    text = " ".join(" ".join(page.extract_text().split()) for page in doc.pages)
    assert len(doc.pages) >= 3
    assert "How much do two clusterings agree" in text and "Reading" in text
    assert sum(len(page.images) for page in doc.pages) >= 4
    assert read_fingerprint(out) == fingerprint("agreement", {"quick": True})


@pytest.mark.slow  # papermill (and WeasyPrint): seconds per report
def test_code_shown_on_request(tmp_path):
    shown = ca.report("agreement", output=tmp_path / "c.html", quick=True, code=True,
                      progress=False).read_text("utf-8")
    assert "hl-ipython3" in shown and "null_distributions" in shown


# -- bad input: refused before any work (no kernel is started) ------------------------------

BAD = [
    (dict(name="agreemnt"), ValueError, "Did you mean 'agreement'"),
    (dict(name=3), TypeError, "name must be a report name"),
    (dict(n_sm=3), ValueError, "no parameter 'n_sm'.*Did you mean 'n_sim'"),
    (dict(n_sim="many"), ValueError, "n_sim must be a whole number"),
    (dict(n_sim=2.5), TypeError, "n_sim must be a whole number"),
    (dict(quick="perhaps"), TypeError, "quick must be"),
    (dict(dataset="nope"), ValueError, "unknown data set 'nope'"),
    (dict(table_file="/no/such/table.csv"), FileNotFoundError, "table_file: no such file"),
    (dict(x_file="/no/x.txt", y_file="/no/y.txt"), FileNotFoundError, "x_file: no such file"),
    (dict(data_file=__file__), ValueError, "data_file needs x_column and y_column"),
    (dict(indices="rand,jacard"), ValueError, "jacard"),
    (dict(output="/proc/no/report.html"), PermissionError, "cannot be written"),
    (dict(output=ROOT), ValueError, "is a folder"),
    (dict(format="docx"), ValueError, "format must be one of"),
    # out of range: refused before the kernel starts, naming the parameter
    (dict(seed=-1), ValueError, "parameter seed must be a non-negative int, got -1"),
    (dict(n_sim=0), ValueError, "parameter n_sim must be >= 1, got 0"),
    (dict(name="null-distributions", reference=1.5), ValueError,
     "parameter reference must be a number strictly between 0 and 1"),
    (dict(name="null-distributions", n_values="500,2"), ValueError,
     "parameter n_values must be >= 4, got 2"),
    (dict(name="null-distributions", n_values="many"), ValueError,
     "parameter n_values must be comma-separated whole numbers"),
    (dict(name="regression-approximations", reps=0), ValueError, "parameter reps must be >= 1"),
    (dict(name="regression-approximations", max_work=-5), ValueError,
     "parameter max_work must be >= 1"),
    (dict(name="stability-study", quick=True, n_sim=0), ValueError, "parameter n_sim must be"),
    # the null: model, method, alternative and interval level (issue 20, item 2)
    (dict(model="perms"), ValueError, "parameter model must be one of .*'perm'"),
    (dict(method="exat"), ValueError, "Did you mean 'exact'"),
    (dict(method="patefield", model="num"), ValueError,
     "method='patefield' is not available under model='num'"),
    (dict(method="hypergeometric"), ValueError, "moments only.*use method='auto'"),
    (dict(method="exact"), ValueError, "the exact law of s for these margins .* max_work"),
    (dict(alternative="up"), ValueError, "parameter alternative must be one of"),
    (dict(confidence_level=95), ValueError, "confidence_level must be between 0 and 1"),
]


@pytest.mark.parametrize("kwargs, exc, message", BAD)
def test_bad_input_is_refused_before_work(kwargs, exc, message, monkeypatch):
    def no_kernel(*a, **k):
        raise AssertionError("the notebook was started")

    monkeypatch.setattr(render, "_execute", no_kernel)
    kwargs = dict(kwargs)
    name = kwargs.pop("name", "agreement")
    start = time.perf_counter()
    with pytest.raises(exc, match=message):
        ca.report(name, **kwargs)
    assert time.perf_counter() - start < 5


@pytest.mark.parametrize("name", ["agreement", "clusterings"])
def test_a_law_too_large_is_refused_in_the_reports_terms(name, monkeypatch):
    """Issue 33: a refused method='exact' told the report's user to "raise max_work", which
    no report takes; the refusal names the report's own way out."""
    monkeypatch.setattr(render, "_execute", lambda *a, **k: pytest.fail("notebook started"))
    with pytest.raises(ValueError, match="exact law") as err:
        ca.report(name, method="exact")
    text = str(err.value)
    assert "raise max_work" not in text and "raise max_tables" not in text
    assert "a report sets no budget (max_work, max_tables): use method='auto'" in text
    assert "max_work" not in rp.report_parameters(name).index  # the advice would be wrong


@pytest.mark.parametrize("argv, message", [
    (["report", "nope"], "unknown report 'nope'; known reports: agreement"),
    (["report", "-p", "n_sim"], "-p takes key=value"),
    (["report", "-p", "n_sim=lots"], "n_sim must be a whole number"),
    (["report", "-p", "colour=red"], "has no parameter 'colour'"),
    (["report", "-p", "x_file=/nope.txt", "-p", "y_file=/nope.txt"], "x_file: no such file"),
    (["report", "-o", "/proc/x/r.html"], "cannot be written"),
    (["report", "-p", "seed=-1"], "parameter seed must be a non-negative int, got -1"),
    (["report", "--quick", "-p", "n_sim=0"], "parameter n_sim must be >= 1, got 0"),
    (["report", "null-distributions", "-p", "reference=1"], "parameter reference must be"),
    (["report", "--quick", "-p", "quick=no"], "--quick contradicts -p quick=no"),
    (["report", "-p", "noise=dorp"], "Did you mean 'drop'"),
    (["report", "clusterings", "--noise", "drop", "-p", "noise=cluster"],
     "--noise drop contradicts -p noise=cluster"),
])
def test_cli_errors_exit_2_with_one_line(argv, message, capsys, monkeypatch):
    monkeypatch.setattr(render, "_execute", lambda *a, **k: pytest.fail("notebook started"))
    with pytest.raises(SystemExit) as stop:
        cli.main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("name, given, expected", [
    ("agreement", {}, {"quick": True, "n_sim": 2000, "beyond_floor": False}),
    ("agreement", {"n_sim": 300}, {"quick": True, "n_sim": 300, "beyond_floor": False}),
    ("agreement", {"beyond_floor": True}, {"quick": True, "n_sim": 2000, "beyond_floor": True}),
    ("null-distributions", {"n_sim": 300, "n_values": "600"},
     {"quick": True, "reps": 1, "n_sim": 300, "n_values": "600"}),
    ("regression-approximations", {"reps": 2}, {"quick": True, "reps": 2, "n_sim": 2000}),
    ("stability-study", {"n_sim": 50}, {"quick": True, "n_sim": 50}),
])
def test_quick_never_overrides_a_parameter_given(name, given, expected, tmp_path, monkeypatch):
    seen = []

    def record(notebook, out, params, progress):
        seen.append(params)
        raise ReportError("stopped before the kernel")

    monkeypatch.setattr(render, "_execute", record)
    with pytest.raises(ReportError):
        ca.report(name, output=tmp_path / "r.html", quick=True, **given)
    argv = ["report", name, "--quick", "-o", str(tmp_path / "c.html")]
    argv += [f"-p{key}={value}" for key, value in given.items()]
    with pytest.raises(SystemExit):
        cli.main(argv)
    assert seen == [expected, expected], "the given values reach the notebook, on both paths"


@pytest.mark.parametrize("name", ["agreement", "clusterings"])
def test_noise_reaches_the_notebook_from_the_command_line_and_from_python(name, tmp_path,
                                                                          monkeypatch):
    """Issue 43: ``--noise POLICY`` is ``-p noise=POLICY``; without it no noise parameter is
    passed (the notebook's default, None: the labels as given, and the same fingerprint)."""
    seen = []

    def record(notebook, out, params, progress):
        seen.append(params)
        raise ReportError("stopped before the kernel")

    monkeypatch.setattr(render, "_execute", record)
    assert report_parameters(name).loc["noise", "default"] is None
    if name == "clusterings":
        source = {"dataset": "wine_noise"}
    else:  # a policy needs each object's labels: a CSV, not the default table
        data = tmp_path / "wine_noise.csv"
        ca.load_dataset("wine_noise").to_csv(data, index=False)
        source = {"data_file": str(data), "x_column": "class", "y_column": "hdbscan_5"}
    given = [arg for key, value in source.items() for arg in ("-p", f"{key}={value}")]
    for argv in (["--noise", "singletons"], ["-p", "noise=singletons"], []):
        with pytest.raises(SystemExit):
            cli.main(["report", name, "--quick", "-o", str(tmp_path / "r.html"), *given, *argv])
    with pytest.raises(ReportError):
        ca.report(name, output=tmp_path / "r.html", quick=True, noise="singletons", **source)
    assert [p.get("noise") for p in seen] == ["singletons", "singletons", None, "singletons"]
    assert "noise" not in seen[2]


@pytest.mark.parametrize("source", [{}, {"table_file": "table.csv"}])
def test_noise_with_a_contingency_table_is_refused_before_the_kernel_starts(source, tmp_path,
                                                                           monkeypatch):
    """A table has no objects, so no policy can act on their labels (``ca.compare`` refuses
    it too): the report says which sources have labels, before any work."""
    monkeypatch.setattr(render, "_execute", lambda *a, **k: pytest.fail("notebook started"))
    if source:
        ca.load_dataset("statlog_em").to_frame().to_csv(tmp_path / "table.csv")
        source = {"table_file": str(tmp_path / "table.csv")}
    with pytest.raises(ValueError, match="noise='drop' needs each object's labels"):
        ca.report("agreement", output=tmp_path / "r.html", noise="drop", **source)


def test_the_command_lines_noise_policies_are_the_packages():
    from clusteragree.inputs.objects import POLICIES

    assert cli.NOISE_POLICIES == POLICIES


def test_cli_list_and_parameters(capsys):
    assert cli.main(["report", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == NAMES
    assert cli.main(["report", "agreement", "--parameters"]) == 0
    assert "n_sim" in capsys.readouterr().out


@pytest.mark.parametrize("name", NAMES)
def test_cli_parameters_are_an_aligned_table_with_a_header(capsys, name):
    """Issue 33: 'confidence_levelfloat 0.95' ran the columns together. Every parameter's
    name, type and default stand in their own columns under a header, and every help starts
    in the help column (on the next line after a long default)."""
    assert cli.main(["report", name, "--parameters"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header, rule = lines[0], lines[1]
    assert header.split() == ["parameter", "type", "default", "help"]
    assert set(rule) <= {"-", " "}
    help_at = header.index("help")
    declared = report_parameters(name)
    rows = [line for line in lines[2:] if not line[:help_at].isspace()]
    assert [r.split()[0] for r in rows] == list(declared.index)
    for line in lines[2:]:
        if line[:help_at].isspace():  # the help of a long default, on its own line
            assert line[help_at] != " "
            continue
        name_, type_ = line.split()[:2]
        assert type_ == declared.loc[name_, "type"]
        default = repr(declared.loc[name_, "default"])
        assert line[header.index("default"):].startswith(default)
        if len(default) < help_at - header.index("default") - 1:
            assert line[help_at:] == declared.loc[name_, "help"]


def test_cli_strings_become_the_declared_types():
    assert coerce_parameters("agreement", {"n_sim": "500", "quick": "TRUE", "seed": "7",
                                           "dataset": "thesis_table6a"}) == {
        "n_sim": 500, "quick": True, "seed": 7, "dataset": "thesis_table6a"}


# -- the same report twice: the same bytes; progress in a log -------------------------------

@pytest.mark.slow  # papermill: two quick renders through the command line
def test_same_report_twice_gives_the_same_bytes_and_progress_lines(tmp_path):
    """What ``clusteragree report`` writes depends on the notebook and its parameters only
    (no clock time, no random table or cell id), so a re-render leaves a clone clean. Run
    without a terminal, the command prints a line of progress now and then."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    digests = []
    for run in ("one", "two"):
        out = tmp_path / run / "agreement.html"
        res = subprocess.run([sys.executable, "-m", "clusteragree", "report", "--quick",
                              "-o", str(out), "--keep-notebook"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, check=True)
        lines = res.stderr.splitlines()
        assert len(lines) >= 2 and all(re.fullmatch(
            r"clusteragree report agreement: cell \d+ of (\d+), [\d:]+ elapsed", line)
            for line in lines), res.stderr
        assert re.match(r"clusteragree report agreement: cell (\d+) of \1,", lines[-1])
        digests.append([hashlib.sha256(out.read_bytes()).hexdigest(),
                        hashlib.sha256(out.with_suffix(".ipynb").read_bytes()).hexdigest()])
    assert digests[0] == digests[1], "the report and its kept notebook, byte for byte"


def test_progress_lines_for_a_log():
    from tqdm import tqdm

    stream = io.StringIO()
    options = render._progress_bar("lines", "demo")
    options.update(file=render._ProgressLines(stream), mininterval=0)
    bar = tqdm(total=3, **options)
    for _ in range(3):
        bar.update(1)
    bar.close()
    lines = stream.getvalue().splitlines()
    assert [line.split(", ")[0] for line in lines] == [
        f"clusteragree report demo: cell {i} of 3" for i in range(4)]
    assert "\r" not in stream.getvalue()
    assert render._progress_bar(True, "demo") is True and render._progress_bar(False, "demo") is False


# -- a failing cell: the command fails, names the cell, and writes nothing ------------------

@pytest.mark.slow  # papermill (and WeasyPrint): seconds per report
def test_failing_cell_names_the_cell_and_leaves_no_report(tmp_path, monkeypatch):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# Broken"),
                nbformat.v4.new_code_cell("quick = False  # small run\nseed = 1  # seed",
                                          metadata={"tags": ["parameters"]}),
                nbformat.v4.new_code_cell("value = 1 / 0  # the failing cell")]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    nbformat.write(nb, str(tmp_path / "broken.ipynb"))
    monkeypatch.setattr(catalogue, "notebooks_dir", lambda: tmp_path)
    monkeypatch.setitem(REPORTS, "broken", Report("broken", "broken.ipynb", "fails"))
    out = tmp_path / "out" / "broken.html"
    out.parent.mkdir()
    out.write_text("the previous report")
    with pytest.raises(ReportError, match=r"(?s)cell \d+ of broken.ipynb.*1 / 0.*"
                                          "ZeroDivisionError"):
        ca.report("broken", output=out, progress=False)
    assert out.read_text() == "the previous report", "the old report is left untouched"
    assert [p.name for p in out.parent.iterdir()] == ["broken.html"], "no half-written file"


# -- the committed examples -----------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_committed_example_reports_match_their_notebooks(name):
    """Re-render them with ``clusteragree report --all`` after changing a notebook."""
    path = ROOT / "reports" / f"{name}.html"
    assert path.exists(), "render the examples with: clusteragree report --all"
    assert read_fingerprint(path) == fingerprint(name, {}), \
        f"{path.name} is stale: re-render the examples with clusteragree report --all"


def test_committed_default_pdf_matches_its_notebook():
    pytest.importorskip("pypdf")
    name = NAMES[0]
    path = ROOT / "reports" / f"{name}.pdf"
    assert path.exists()
    assert read_fingerprint(path) == fingerprint(name, {})


def test_examples_are_rendered_into_the_clone_from_any_folder(tmp_path, monkeypatch):
    """``clusteragree report --all`` writes into the clone's reports/, not the current folder."""
    seen = []
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(rp, "report", lambda name, output, **kw: seen.append(output) or output)
    assert rp.examples_folder() == ROOT / "reports"
    assert cli.main(["report", "--all"]) == 0
    assert {p.parent for p in seen} == {ROOT / "reports"} and len(seen) == len(NAMES) + 1
    assert not any(tmp_path.iterdir())


def test_the_format_follows_the_output_suffix_and_a_disagreement_is_refused(tmp_path):
    """Issue 45, trap 1: ``clusteragree report -o my.pdf --quick`` wrote an HTML document
    named .pdf without a word."""
    from clusteragree.reports.runner import report_format

    assert report_format(None, "my.pdf") == "pdf"
    assert report_format(None, tmp_path / "r.HTML") == "html"
    assert report_format(None, "report") == "html" and report_format(None, None) == "html"
    assert report_format("pdf", None) == "pdf" and report_format("html", "a.htm") == "html"
    with pytest.raises(ValueError, match="names a PDF file"):
        report_format("html", "my.pdf")
    with pytest.raises(ValueError, match="names an HTML file"):
        report_format("pdf", "my.html")
    with pytest.raises(ValueError, match="format must be one of"):
        report_format("docx", "my.docx")
    with pytest.raises(ValueError, match="names a PDF file"):  # before any work
        ca.report("agreement", output=tmp_path / "x.pdf", format="html", quick=True)
    assert not (tmp_path / "x.pdf").exists()


def test_the_command_line_leaves_the_format_to_the_suffix(monkeypatch, tmp_path):
    from clusteragree import cli
    from clusteragree.reports import runner

    seen = {}
    monkeypatch.setattr(runner, "report", lambda *a, **k: seen.update(k) or tmp_path / "a")
    cli.main(["report", "-o", str(tmp_path / "my.pdf"), "--quick"])
    assert seen["format"] is None and runner.report_format(seen["format"], seen["output"]) == "pdf"


def test_a_missing_pdf_engine_says_what_a_wheel_user_installs(monkeypatch):
    """Issue 45, trap 11: the hint told a wheel user to pip install -e ".[pdf]"."""
    from clusteragree.reports import render

    monkeypatch.setitem(sys.modules, "weasyprint", None)  # import weasyprint: ImportError
    with pytest.raises(ImportError, match=r'pip install "clusteragree\[pdf\]" \(in a clone'):
        render._check_pdf_support()  # noqa: SLF001
