import io
import subprocess
import sys

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
