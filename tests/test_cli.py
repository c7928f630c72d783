import io
import subprocess
import sys

import pytest

import clusteragree as ca
from clusteragree.cli import demo, main


def test_demo_prints_the_statlog_table_and_values():
    out = io.StringIO()
    frame = demo("statlog_em", out=out)
    text = out.getvalue()
    assert "Statlog" in text and "846" in text
    assert "gower_legendre" in text and "0.8044" in text
    tab = ca.load_dataset("statlog_em")
    assert frame.loc["rand", "value"] == ca.agreement(tab, index="rand")


def test_indices_command_lists_the_registry(capsys):
    assert main(["indices"]) == 0
    text = capsys.readouterr().out
    assert "adjusted_rand" in text and "van_dongen" in text


def test_indices_listing_fits_100_columns_and_names_every_index(capsys):
    assert main(["indices"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(map(len, lines)) <= 100
    named = {line.split()[0] for line in lines if line.startswith("  ") and line[2] != " "}
    assert named == set(ca.list_indices().index)
    assert any("(also: ari, adjrand)" in line for line in lines), "aliases are listed"


def test_module_entry_point_runs():
    res = subprocess.run([sys.executable, "-m", "clusteragree", "demo", "--dataset",
                          "thesis_table6a"], capture_output=True, text=True, check=True)
    assert "0.5253" in res.stdout


def _modules_after(*args):
    """The modules a fresh interpreter has imported once ``clusteragree ARGS`` has run."""
    code = ("import contextlib, io, runpy, sys\n"
            f"sys.argv = ['clusteragree', *{list(args)!r}]\n"
            "try:\n"
            "    with contextlib.redirect_stdout(io.StringIO()):\n"
            "        runpy.run_module('clusteragree', run_name='__main__')\n"
            "except SystemExit as stop:\n"
            "    assert not stop.code, stop.code\n"
            "print(' '.join(sorted(sys.modules)))\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return set(res.stdout.split())


def test_help_imports_no_statistics_stack():
    """Issue 34: ``clusteragree --help`` imported the whole package (2.1 s of CPU); the
    package's ``__init__`` and the command line now import what a command uses when it
    runs."""
    loaded = _modules_after("--help")
    assert not loaded & {"pandas", "scipy", "scipy.stats", "matplotlib",
                         "clusteragree.inference", "clusteragree.nulls", "clusteragree.indices",
                         "clusteragree.intervals"}


def test_report_list_imports_the_catalogue_of_reports_only():
    loaded = _modules_after("report", "--list")
    assert "clusteragree.reports.runner" in loaded
    assert not loaded & {"scipy", "scipy.stats", "matplotlib", "clusteragree.inference",
                         "clusteragree.nulls", "clusteragree.indices", "clusteragree.studies",
                         "clusteragree.intervals"}


def test_the_package_loads_on_first_use_of_a_public_name():
    code = ("import sys, clusteragree as ca\n"
            "assert 'clusteragree.inference' not in sys.modules\n"
            "assert ca.agreement([0, 0, 1, 1], [0, 0, 1, 2], index='jaccard') == 0.5\n"
            "assert {'clusteragree.studies.study', 'clusteragree.inference.matrix',\n"
            "        'clusteragree.reports.runner'} <= set(sys.modules)\n"
            "assert set(ca.__all__) <= set(dir(ca)) and ca.indices.evaluate and ca.nulls\n")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_name_of_a_subpackage_asked_at_the_top_says_where_it_is():
    """Issue 45, trap 8: ``ca.null_distribution(x, y)`` was a bare AttributeError."""
    with pytest.raises(AttributeError, match=r"it is ca\.nulls\.null_distribution"):
        ca.null_distribution([0, 1], [1, 0])
    with pytest.raises(AttributeError, match="did you mean 'agreement'"):
        ca.agreemnt  # noqa: B018
    with pytest.raises(AttributeError, match="has no attribute 'zzz'$"):
        ca.zzz  # noqa: B018
