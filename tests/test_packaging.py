"""The package as a user installs it: a wheel built from the sdist, installed into a fresh
virtual environment, used from a folder that is not the clone.

Everything the package reads at run time (data sets, report notebooks) must be inside the
wheel: ``load_dataset``, ``clusteragree report`` and ``clusteragree demo`` ran only from a clone
when the data sat in the repository beside the package (issue 29). The fresh environment sees the
current environment's dependencies through a ``.pth`` file (nothing is downloaded for them) but
not the clone: an editable install's finder is switched on by its own ``.pth`` file, which a
path listed in another ``.pth`` does not run.
"""

from __future__ import annotations

import json
import re
import os
import shutil
import site
import subprocess
import sys
import tarfile
import tomllib
import warnings
import zipfile
from pathlib import Path

import pytest

import clusteragree as ca
from clusteragree.reports.runner import fingerprint, read_fingerprint

ROOT = Path(__file__).resolve().parents[1]

#: What the package reads at run time, as paths inside the wheel.
SHIPPED = ["clusteragree/notebooks/agreement.ipynb", "clusteragree/data/statlog_em.csv",
           "clusteragree/notebooks/clusterings.ipynb", "clusteragree/data/wine_clusterings.csv",
           "clusteragree/data/README.md", "clusteragree/data/thesis_study.csv.gz"]

def _source_path(shipped: str) -> str:
    """Where the repository (and so the sdist) holds a file the wheel ships inside the package:
    clusteragree.notebooks and clusteragree.data are the folders notebooks/ and data/ at the
    root (``package-dir`` in pyproject.toml)."""
    for package in ("notebooks", "data"):
        if shipped.startswith(f"clusteragree/{package}/"):
            return shipped.removeprefix("clusteragree/")
    return shipped


#: Folders of a clone that are not the package's source (outputs, environments, caches).
_NOT_SOURCE = {".git", ".venv", "build", "dist", "reports", "studies", ".pytest_cache",
               ".hypothesis", ".benchmarks"}


def _source_copy(dest: Path) -> Path:
    """The clone's source without its outputs: a stale build/ folder cannot leak into the
    wheel, and the clone is left as it was."""
    def ignore(folder, names):
        top = Path(folder) == ROOT
        return [n for n in names if (top and n in _NOT_SOURCE) or n == "__pycache__"
                or n.endswith(".egg-info")]

    shutil.copytree(ROOT, dest, ignore=ignore)
    return dest


def _run(args, cwd, env, timeout=300):
    res = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                         text=True, timeout=timeout)
    assert res.returncode == 0, f"{' '.join(map(str, args))}:\n{res.stdout}\n{res.stderr}"
    return res


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv python, venv bin folder, environment, the sdist, the wheel) of a fresh venv with
    the wheel built from the sdist of this clone installed."""
    tmp = tmp_path_factory.mktemp("packaging")
    venv, dist = tmp / "venv", tmp / "dist"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = Path(subprocess.run([python, "-c", "import sysconfig; "
                                   "print(sysconfig.get_paths()['purelib'])"],
                                  capture_output=True, text=True, check=True).stdout.strip())
    # the current environment's packages (dependencies, pip), not its .pth files: so not the
    # editable clusteragree, whose finder its own __editable__ .pth file switches on
    parents = [p for p in [*site.getsitepackages(), site.getusersitepackages()]
               if Path(p).is_dir() and Path(p).resolve() != purelib.resolve()]
    (purelib / "parent-environment.pth").write_text("\n".join(parents) + "\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONNOUSERSITE"] = "1"
    # nbconvert's templates are data files of the current environment (share/jupyter), which
    # a .pth file does not reach; a venv that installed nbconvert has its own copy
    from jupyter_core.paths import jupyter_path

    env["JUPYTER_PATH"] = os.pathsep.join(jupyter_path())
    # setuptools >= 77 (pyproject's build requirement) in the venv, to build the sdist and
    # then the wheel from it, as `python -m build` does
    _run([python, "-m", "pip", "install", "--quiet", "--ignore-installed", "setuptools>=77"],
         tmp, env)
    src = _source_copy(tmp / "src")
    built = _run([python, "-c", "import sys; from setuptools import build_meta; "
                  "print(build_meta.build_sdist(sys.argv[1]))", dist], src, env)
    sdist = dist / built.stdout.strip().splitlines()[-1]
    _run([python, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
          "-w", dist, sdist], tmp, env)
    wheel = next(dist.glob("clusteragree-*.whl"))
    _run([python, "-m", "pip", "install", "--quiet", "--no-deps", "--ignore-installed", wheel],
         tmp, env)
    return python, venv / "bin", env, sdist, wheel


def _shape(name) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # breast_cancer_original's dropped rows
        got = ca.load_dataset(name)
    return list(got.shape if hasattr(got, "shape") else got[0].shape)


@pytest.mark.slow  # builds an sdist and a wheel, renders a quick report: about a minute
def test_installed_wheel_loads_every_dataset_and_renders_a_report(installed, tmp_path):
    python, bin_dir, env, sdist, wheel = installed
    with zipfile.ZipFile(wheel) as whl:
        in_wheel = set(whl.namelist())
    with tarfile.open(sdist) as tar:
        in_sdist = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    for path in SHIPPED:  # the sdist holds them where the repository does (notebooks/, data/)
        assert path in in_wheel and _source_path(path) in in_sdist, path
    assert "clusteragree/data/export_data.py" in in_wheel  # the script that made the data
    assert any(name.endswith("/licenses/LICENSE") for name in in_wheel)
    assert not [name for name in in_wheel if name.startswith("docs/")]  # not package data
    assert {"LICENSE", "CITATION.cff"} <= in_sdist

    work = tmp_path / "elsewhere"  # a user's folder: not the clone
    work.mkdir()
    shapes = {name: _shape(name) for name in ca.list_datasets().index}  # the clone's
    probe = ("import json, warnings, clusteragree as ca\n"
             "warnings.simplefilter('ignore')\n"
             "shapes = {}\n"
             f"for name in {list(shapes)!r}:\n"
             "    got = ca.load_dataset(name)\n"
             "    shapes[name] = list(got.shape if hasattr(got, 'shape') else got[0].shape)\n"
             "print(json.dumps({'file': ca.__file__, 'shapes': shapes}))\n")
    seen = json.loads(_run([python, "-c", probe], work, env).stdout)
    assert Path(seen["file"]).is_relative_to(python.parent.parent), seen["file"]
    assert seen["shapes"] == shapes

    res = _run([bin_dir / "clusteragree", "report", "--quick"], work, env)
    page = work / "reports" / "agreement.html"
    assert page.is_file() and str(page) in res.stdout, res.stdout
    assert read_fingerprint(page) == fingerprint("agreement", {"quick": True}), \
        "the wheel's notebook is the clone's"
    demo = _run([bin_dir / "clusteragree", "demo", "--n-sim", "99"], work, env)
    assert "statlog_em" in demo.stdout and "adjusted_rand" in demo.stdout

    # the example reports belong to the repository: refused, saying why, from a wheel
    res = subprocess.run([bin_dir / "clusteragree", "report", "--all"], cwd=work, env=env,
                         capture_output=True, text=True, timeout=60)
    assert res.returncode == 2 and "run it from a clone" in res.stderr, res.stderr


# -- how to cite it: CITATION.cff, LICENSE -------------------------------------------------

def _citation() -> dict:
    text = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    try:
        import yaml
    except ImportError:  # pragma: no cover  (PyYAML comes with dask, in the [test] extra)
        keys = re.findall(r"^([a-z-]+):\s*(.*)$", text, flags=re.M)
        return {k: v.strip().strip('"') for k, v in keys}
    return yaml.safe_load(text)


def test_citation_file_is_cff_1_2_with_the_package_version():
    cff = _citation()
    assert cff["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors", "version", "license", "abstract"):
        assert cff.get(key), key
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert str(cff["version"]) == project["version"] == ca.__version__
    assert cff["license"] == project["license"] == "MIT"
    if isinstance(cff["authors"], list):  # parsed by PyYAML
        assert cff["authors"] == [{"name": "the clusteragree developers"}]
        titles = {ref["title"] for ref in cff["references"]}
        assert {"On clustering stability", "Comparing hard and overlapping clusterings",
                "Set matching measures for external cluster validity",
                "Generalized adjusted Rand indices for cluster ensembles"} <= titles


def test_license_is_mit_and_named_in_the_readme():
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "2026 the clusteragree developers" in text
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "## Citing" in readme and "CITATION.cff" in readme


def test_every_subpackage_is_listed_for_the_wheel():
    """pyproject.toml lists the packages (``packages.find`` cannot map notebooks/ and data/ at
    the root into the package): a new subpackage of clusteragree/ left off the list would be
    missing from every installed wheel."""
    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for p in (ROOT / "clusteragree").rglob("__init__.py")}
    mapped = set(setup["package-dir"])
    listed = set(setup["packages"])
    assert found | mapped == listed, sorted(found ^ (listed - mapped))
    for package, folder in setup["package-dir"].items():
        assert (ROOT / folder / "__init__.py").is_file(), package


def test_the_changelog_has_the_package_version_with_its_date():
    """Keep a Changelog: the version the package says it is has its section, dated, above the
    older ones; the citation's release date is that section's date."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"(?m)^## \[(\d+\.\d+\.\d+)\](?: - (\d{4}-\d{2}-\d{2}))?$", text)
    assert released and released[0][0] == ca.__version__, released[:2]
    assert released[0][1], "the current version's section has no date"
    assert "## [Unreleased]" in text.split(f"## [{ca.__version__}]")[0]
    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert f'date-released: "{released[0][1]}"' in cff
