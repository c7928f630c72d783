"""Every Python block of the README and of the user guide runs as written and prints what it shows.

The blocks are read from README.md and from each page of ``docs/guide/`` (not copied here) and
run as doctests, one session per file: the blocks of a file run in order and share their names,
as a reader of that page would type them, so each page starts from ``import clusteragree as ca``
and no page leans on another's names."""

from __future__ import annotations

import doctest
import pathlib
import re

import matplotlib
import pytest

matplotlib.use("Agg")

ROOT = pathlib.Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "guide"
#: README.md and every guide page: the files whose python blocks a user copies.
DOCUMENTS = [README, *sorted(GUIDE.glob("*.md"))]


def _blocks(path: pathlib.Path) -> list[str]:
    return re.findall(r"```python\n(.*?)```", path.read_text(encoding="utf-8"), flags=re.S)


def _name(path: pathlib.Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_guide_has_its_pages():
    pages = {p.stem for p in GUIDE.glob("*.md")}
    assert {"index", "getting-started", "validate", "chance", "compare", "memberships",
            "studies", "reports", "large-data", "intervals", "conventions", "benchmarks",
            "contributing"} <= pages
    toctree = (GUIDE / "index.md").read_text(encoding="utf-8")
    assert all(page in toctree for page in pages - {"index"}), "a guide page not in its toctree"


def test_the_readme_is_a_landing_page_whose_links_resolve():
    """Under 200 lines, the two Quick-start commands as they were, the docs build command, and
    a link to every guide page; every relative link names a file of the clone."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 200
    for command in ('pip install -e . && clusteragree report',
                    'pip install -e ".[test]" && python -m pytest',
                    'pip install -e ".[docs]" && python -m sphinx -W -b html docs docs/_build/html'):
        assert f"\n{command}\n" in text, command
    links = re.findall(r"\]\(([^)#]+)\)", text)
    relative = [link for link in links if "://" not in link]
    assert [link for link in relative if not (ROOT / link).exists()] == []
    pages = {p.name for p in GUIDE.glob("*.md")} - {"index.md"}
    assert pages <= {pathlib.Path(link).name for link in relative if link.startswith("docs/guide/")}


def test_the_readme_and_the_guide_have_python_blocks_and_each_shows_its_output():
    assert len(_blocks(README)) >= 1
    assert sum(len(_blocks(path)) for path in DOCUMENTS) >= 12
    for path in DOCUMENTS:
        for block in _blocks(path):
            assert block.lstrip().startswith(">>>"), f"{_name(path)}: {block[:60]}"


@pytest.mark.parametrize("path", [p for p in DOCUMENTS if _blocks(p)], ids=_name)
def test_every_block_runs_and_prints_what_it_shows(path):
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs: dict = {}
    for number, block in enumerate(_blocks(path), 1):
        test = parser.get_doctest(block, globs, f"{_name(path)} block {number}", str(path), 0)
        result = runner.run(test, clear_globs=False)
        globs = test.globs
        if result.failed:
            pytest.fail(f"{_name(path)} block {number}: {result.failed} example(s) failed (see "
                        "the output above)")
