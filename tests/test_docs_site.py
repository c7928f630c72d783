"""The documentation site (``docs/``): every public name has an API entry, the catalogue page
lists every registered index, the reports page links every rendered report, and (slow, with
the ``docs`` extra) the site builds with warnings as errors.

The API entries are read from the sources (``docs/api/*.rst``: autosummary lists, ``autodata``
and ``automodule`` directives, under their ``currentmodule``), so the check needs no build.
"""

from __future__ import annotations

import html
import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import clusteragree as ca
from clusteragree.indices import REGISTRY

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _extension(name: str):
    """A module of ``docs/_ext`` (not a package: imported from its path, with the folder on
    the path for the modules it imports, as ``docs/conf.py`` puts it there)."""
    if str(DOCS / "_ext") not in sys.path:
        sys.path.insert(0, str(DOCS / "_ext"))
    spec = importlib.util.spec_from_file_location(f"docs_ext_{name}", DOCS / "_ext" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- the API reference: an entry for every public name -------------------------------------

_DIRECTIVE = re.compile(r"^\.\. (currentmodule|automodule|autosummary|autodata|autoclass|"
                        r"autofunction)::\s*(\S*)")


def documented_names(text: str) -> set[str]:
    """The fully qualified names an API source (reStructuredText) documents.

    ``automodule`` and ``currentmodule`` set the module that the names of the ``autosummary``
    lists and of ``autodata``, ``autoclass`` and ``autofunction`` are relative to (a name with
    a dot in it is taken as fully qualified, as autosummary does); ``automodule`` documents
    its module.
    """
    found, module, in_list = set(), "", False
    for line in text.splitlines():
        match = _DIRECTIVE.match(line)
        if match:
            directive, arg = match.groups()
            in_list = directive == "autosummary"
            if directive in ("currentmodule", "automodule"):
                module = arg
                if directive == "automodule":
                    found.add(arg)
            elif directive != "autosummary":
                found.add(arg if "." in arg else f"{module}.{arg}")
            continue
        if in_list:
            entry = line.strip()
            if not line.startswith("   ") and entry:
                in_list = False  # the list ended: text at the margin
            elif entry and not entry.startswith(":"):
                found.add(entry if "." in entry else f"{module}.{entry}")
    return found


def _api_names() -> set[str]:
    return set().union(*(documented_names(p.read_text(encoding="utf-8"))
                         for p in sorted((DOCS / "api").glob("*.rst"))))


def _resolve(name: str):
    module, _, attr = name.rpartition(".")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError):
        return importlib.import_module(name)


def missing_entries(namespace, documented: set[str]) -> list[str]:
    """The names of ``namespace.__all__`` with no API entry.

    A name has an entry when it is documented under its own qualified name, under the name of
    the module it is (``ca.simulate`` is ``clusteragree.studies.simulate``), or, for a class
    or a function, when the same object is documented under another public name
    (``ca.nulls.NullSpec`` is ``ca.NullSpec``).
    """
    objects = {id(_resolve(n)) for n in documented}
    missing = []
    for name in namespace.__all__:
        obj = getattr(namespace, name)
        qualified = f"{namespace.__name__}.{name}"
        if qualified in documented or getattr(obj, "__name__", None) in documented:
            continue
        if (callable(obj) or isinstance(obj, type)) and id(obj) in objects:
            continue
        missing.append(qualified)
    return missing


@pytest.mark.parametrize("namespace", [ca, ca.nulls], ids=["clusteragree", "clusteragree.nulls"])
def test_every_public_name_has_an_api_entry(namespace):
    assert missing_entries(namespace, _api_names()) == []


def test_api_entry_check_sees_a_missing_name():
    text = (".. currentmodule:: clusteragree\n\n.. autosummary::\n   :toctree: generated\n\n"
            "   agreement\n   compare\n\nSome text.\n\n   not_an_entry\n")
    documented = documented_names(text)
    assert documented == {"clusteragree.agreement", "clusteragree.compare"}
    missing = missing_entries(ca, documented)
    assert "clusteragree.agreement_test" in missing and "clusteragree.agreement" not in missing
    assert "clusteragree.nulls" in missing  # a module needs its own entry too


def test_api_pages_are_in_the_api_toctree():
    index = (DOCS / "api" / "index.rst").read_text(encoding="utf-8")
    listed = set(re.findall(r"^   (\w+)$", index, flags=re.M))
    pages = {p.stem for p in (DOCS / "api").glob("*.rst")} - {"index"}
    assert pages == listed


def test_references_resolve_by_object():
    import_name = _extension("public_names").import_name
    assert import_name("clusteragree.intervals.confidence_interval") is ca.confidence_interval
    assert import_name("ca.nulls.NullSpec") is ca.NullSpec
    assert import_name("clusteragree.studies.simulate") is ca.simulate
    assert import_name("clusteragree.AgreementTest.to_frame") is ca.AgreementTest.to_frame
    for name in ("clusteragree.no_such_name", "no_such_module.x", "ca"):
        assert import_name(name) is None, name


# -- the catalogue: generated from the registry --------------------------------------------

def test_catalogue_page_lists_every_registered_index():
    page = _extension("catalogue_page").catalogue_page()
    headings = re.findall(r"^### `(\w+)`: ", page, flags=re.M)
    assert sorted(headings) == sorted(REGISTRY) and len(headings) == len(REGISTRY) > 100
    for name, rec in REGISTRY.items():
        anchor = "index-" + name.replace("_", "-")
        assert f"({anchor})=" in page and f"](#{anchor})" in page, name
        entry = page.split(f"({anchor})=", 1)[1].split("\n(index-", 1)[0]
        assert f"reflexive\n: {'yes' if rec.reflexive else 'no'}" in entry, name
        assert "reference\n: " in entry and "range\n: [" not in entry, name  # [ is escaped


def test_catalogue_entry_carries_the_record_and_the_definition():
    page = _extension("catalogue_page").catalogue_page()
    entry = page.split("(index-jaccard)=", 1)[1].split("\n(index-", 1)[0]
    for field in ("family\n: pair counting", "kind\n: similarity", "range\n: \\[0, 1\\]",
                  "aliases\n: tanimoto", "additive statistic\n: s = Σ n\\_ij²",
                  "J = a11 / (a11 + a10 + a01) = C / (2 - C)"):
        assert field in entry, field
    assert ">>>" not in entry  # the docstring's example is not the definition


def test_catalogue_is_written_only_when_it_changed(tmp_path):
    write = _extension("catalogue_page").write_catalogue
    path = write(tmp_path / "_generated" / "catalogue.md")
    stamp = path.stat().st_mtime_ns
    assert write(path) == path and path.stat().st_mtime_ns == stamp


def test_data_page_lists_every_dataset():
    table = _extension("dataset_table").datasets_table()
    names = re.findall(r"^   \* - ``(\w+)``$", table, flags=re.M)
    assert names == ca.list_datasets().index.tolist()
    assert ".. include:: ../_generated/datasets.rst" in (DOCS / "api" / "data.rst").read_text(
        encoding="utf-8")


# -- the example reports --------------------------------------------------------------------

def test_reports_page_links_every_rendered_report():
    page = (DOCS / "reports.md").read_text(encoding="utf-8")
    linked = set(re.findall(r'href="reports/([^"]+)"', page))
    assert {f"{name}.html" for name in ca.list_reports().index} <= linked
    for name in ca.list_reports().index:
        assert f"`{name}`" in page, name
    for file in linked:
        assert (ROOT / "reports" / file).is_file(), file


def test_reports_are_staged_for_the_site(tmp_path):
    copies = _extension("report_pages").stage_reports(ROOT / "reports", tmp_path)
    assert {c.name for c in copies} == {p.name for p in (ROOT / "reports").glob("*.html")} | {
        p.name for p in (ROOT / "reports").glob("*.pdf")}
    assert all(c.parent == tmp_path / "reports" for c in copies)
    with pytest.raises(FileNotFoundError, match="no rendered report"):
        _extension("report_pages").stage_reports(tmp_path / "empty", tmp_path)


# -- the build ------------------------------------------------------------------------------

@pytest.mark.slow  # builds the whole site: about 15 s
def test_site_builds_with_warnings_as_errors(tmp_path):
    pytest.importorskip("sphinx")
    pytest.importorskip("myst_parser")
    pytest.importorskip("pydata_sphinx_theme")
    if not (DOCS / "guide" / "index.md").is_file():
        pytest.skip("the user guide (docs/guide/) is not in this checkout")
    out = tmp_path / "html"
    res = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html",
                          "-d", str(tmp_path / "doctrees"), str(DOCS), str(out)],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    page = (out / "api" / "generated" / "clusteragree.agreement_test.html").read_text("utf-8")
    page = html.unescape(re.sub(r"<[^>]+>", "", page))  # the text, without the markup
    for text in ("Parameters", "alternative", "Returns", "Examples", "ca.agreement_test("):
        assert text in page, text
    catalogue = (out / "catalogue.html").read_text(encoding="utf-8")
    for name in REGISTRY:
        assert f'id="index-{name.replace("_", "-")}"' in catalogue, name
    for file in (ROOT / "reports").glob("*.html"):
        assert (out / "reports" / file.name).is_file(), file.name
    shutil.rmtree(out)
