"""Every Python block of the README runs as written and prints what the README shows.

The blocks are read from README.md (not copied here) and run in order, sharing their names, as
doctests: a block is a user's session, so each must start from ``import clusteragree as ca``
or from the names an earlier block defined."""

from __future__ import annotations

import doctest
import pathlib
import re

import matplotlib
import pytest

matplotlib.use("Agg")

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_the_readme_has_python_blocks_and_each_shows_its_output():
    assert len(BLOCKS) >= 4
    for block in BLOCKS:
        assert block.lstrip().startswith(">>>"), block[:60]  # runnable, with its output


def test_every_readme_block_runs_and_prints_what_it_shows():
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    globs: dict = {}
    for number, block in enumerate(BLOCKS, 1):
        test = parser.get_doctest(block, globs, f"README block {number}", str(README), 0)
        result = runner.run(test, clear_globs=False)
        globs = test.globs
        if result.failed:
            pytest.fail(f"README block {number}: {result.failed} example(s) failed (see the "
                        "output above)")
