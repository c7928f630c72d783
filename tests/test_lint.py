"""Static checks that catch real bugs: undefined names, unused imports, syntax errors; and
citations of files a user of the package does not have."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("ruff") is None and not Path(sys.executable).with_name("ruff")
                    .exists(), reason="ruff is installed by the [test] extra")
def test_pyflakes_checks_pass():
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    res = subprocess.run([ruff, "check", "--select", "F,E9", "clusteragree", "tests",
                          "benchmarks", "docs", "validation"], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr


#: A citation of the numbered plain-text extractions of the papers, or of the list of their
#: printing errors, that the package was written from: users have neither.
_PRIVATE_SOURCE = re.compile(r"\bseed[ _]?0\d\d|\berrata\b|\.\./shared/|/work/shared", re.I)


def test_sources_are_cited_by_authors_year_and_title():
    files = [ROOT / "README.md", *sorted(p for p in (ROOT / "docs").rglob("*.md")
                                         if "_build" not in p.parts),
             *sorted((ROOT / "clusteragree" / "notebooks").glob("*.ipynb"))]
    for folder in ("clusteragree", "tests", "benchmarks", "docs", "validation"):
        files += sorted(p for p in (ROOT / folder).rglob("*.py") if "_build" not in p.parts)
    hits = [f"{path.relative_to(ROOT)}:{i}: {line.strip()}"
            for path in files if path != Path(__file__).resolve()
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if _PRIVATE_SOURCE.search(line)]
    assert not hits, "cite the paper (authors, year, title) instead:\n" + "\n".join(hits)
