"""Static checks that catch real bugs: undefined names, unused imports, syntax errors."""

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
                          "benchmarks"], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
