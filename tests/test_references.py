"""The shared table of references (``clusteragree._docs.REFERENCES``): every ``{ref:key}`` of
the package names a work of the table, every docstring that cites one is rendered with the full
citation (``help()``, numpydoc and the Sphinx site read the rendered text), and a work of the
table is typed out in full nowhere else.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import clusteragree as ca
from clusteragree._docs import REFERENCES, WIDTH, cite, fill, fill_doc

PACKAGE = Path(ca.__file__).resolve().parent
KEY = re.compile(r"\{ref:([^{}]*)\}")

#: Files moved or rewritten by the other branches of issue 34 (evaluate, split, the new null
#: methods), left as they were: they still type their citations out. Empty it at merge.
OTHER_BRANCHES = frozenset({
    "nulls/distribution.py", "nulls/_laws.py", "inference/results.py",
})

AMORIM = ('Amorim, M. J. (2015), "On clustering stability", PhD thesis, ISCTE - University '
          'Institute of Lisbon')


def _sources() -> dict[str, str]:
    """Path -> text of every module but ``_docs`` (whose docstrings show the syntax)."""
    return {str(path.relative_to(PACKAGE)): path.read_text()
            for path in sorted(PACKAGE.rglob("*.py")) if path.name != "_docs.py"}


def _words(text: str) -> str:
    return " ".join(text.split())


def _docstrings():
    """(name, rendered docstring) of every module of the package and what it defines."""
    for info in pkgutil.walk_packages(ca.__path__, "clusteragree."):
        if info.name.endswith(("__main__", "._docs")):
            continue
        module = importlib.import_module(info.name)
        yield info.name, module.__doc__
        for name, obj in vars(module).items():
            if getattr(obj, "__module__", None) != module.__name__:
                continue
            if inspect.isfunction(obj) or inspect.isclass(obj):
                yield f"{info.name}.{name}", obj.__doc__
            if inspect.isclass(obj):
                for attr, value in vars(obj).items():
                    func = value.fget if isinstance(value, property) else value
                    func = getattr(func, "__func__", func)
                    if inspect.isfunction(func):
                        yield f"{info.name}.{name}.{attr}", func.__doc__


def test_every_key_used_names_a_reference():
    used = {(file, key) for file, text in _sources().items() for key in KEY.findall(text)}
    assert used, "no docstring uses the table of references"
    unknown = sorted(f"{file}: {{ref:{key}}}" for file, key in used if key not in REFERENCES)
    assert not unknown, "keys not in clusteragree._docs.REFERENCES:\n" + "\n".join(unknown)
    unused = set(REFERENCES) - {key for _, key in used}
    assert not unused, f"references that no docstring cites: {sorted(unused)}"


def test_the_table_holds_full_citations():
    for key, text in REFERENCES.items():
        assert re.fullmatch(r"[a-z]+\d{4}", key), key
        assert re.search(r"\(\d{4}\), \"[^\"]+\", \S", text), text  # year, "title", where
        assert not text.endswith("."), text  # the docstring adds its own period
        assert text == _words(text), text
    assert REFERENCES["amorim2015"] == AMORIM


def test_every_citation_is_rendered():
    unfilled = [name for name, doc in _docstrings() if doc and "{ref:" in doc]
    assert not unfilled, ("docstrings citing {ref:key} that no fill_doc (or, for a module, "
                          "__doc__ = fill(__doc__)) renders:\n" + "\n".join(unfilled))


@pytest.mark.parametrize("obj", [ca.nulls.random_tables, ca.ContingencyTable,
                                 ca.studies.simulate.design, ca.tables])
def test_a_docstring_citing_amorim_reads_the_full_title(obj):
    doc = obj.__doc__
    assert AMORIM in _words(doc)
    assert "{ref:" not in doc
    lines = doc.splitlines()
    assert all(len(line) <= WIDTH for line in lines if "Amorim" in line)
    assert not any(line.lstrip().startswith("- ") for line in lines)


def test_no_reference_is_typed_out_twice():
    typed = sorted(f"{file}: {key}" for file, text in _sources().items()
                   if file not in OTHER_BRANCHES
                   for key, citation in REFERENCES.items()
                   if re.search(r"\s+".join(map(re.escape, citation.split())), text))
    assert not typed, ("write {ref:key} (a docstring) or cite(key) (code) instead of the "
                       "citation:\n" + "\n".join(typed))


def test_fill_puts_the_citation_in_and_wraps_its_line():
    doc = fill("    References\n    ----------\n    {ref:amorim2015}, Ch.4 Table 9.\n")
    assert doc.splitlines()[2:] == [
        '    Amorim, M. J. (2015), "On clustering stability", PhD thesis, ISCTE - University '
        'Institute of', "    Lisbon, Ch.4 Table 9."]
    assert fill("{ref:hubert1985}.") == cite("hubert1985") + "."
    assert fill("left {alone} and 100% {ref: too") == "left {alone} and 100% {ref: too"


def test_an_unknown_key_is_an_error_at_import():
    with pytest.raises(KeyError, match="no reference named 'nobody1900'"):
        fill("{ref:nobody1900}")
    with pytest.raises(KeyError, match="amorim2015"):
        cite("amorim")

    def cited():
        """Cite {ref:amorim2015}, Ch.2."""

    assert _words(fill_doc(cited).__doc__) == f"Cite {AMORIM}, Ch.2."
