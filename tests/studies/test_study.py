"""Studies: the same results serially, in processes and on Dask; an interrupted study resumes
to the same results; bad input is refused before any work; a study folder holds one study
(other settings are refused, damaged unit files are computed again, foreign ones are named and
left out); a killed study leaves no worker behind."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import clusteragree as ca
from clusteragree.studies import store, study
from clusteragree.inference.agreement_tests import RESULT_COLUMNS
from clusteragree.studies.simulate import design

INDICES = ["rand", "adjusted_rand", "nmi_sum"]
N_SIM = 200


@pytest.fixture(scope="module")
def small_design():
    d = design(reps=1, seed=5)
    d = d[(d["k"] == 2) | ((d["k"] == 3) & (d["balance"] == "unbalanced"))].head(3).copy()
    d["n"] = 120
    return d.reset_index(drop=True)


@pytest.fixture(scope="module")
def serial(small_design):
    return study.run(small_design, indices=INDICES, n_sim=N_SIM, seed=3, progress=False)


def test_one_row_per_unit_table_and_index(serial, small_design):
    assert len(serial) == len(small_design) * 2 * 2 * len(INDICES)
    assert list(serial.columns) == list(study.KEYS) + [c for c in RESULT_COLUMNS]
    assert set(serial["table"]) == {"external", "stability"}
    assert set(serial["algorithm"]) == {"kmeans", "em"}
    assert (serial["method"] == "patefield").all() and (serial["n_sim"] == N_SIM).all()
    # the adjusted Rand index adjusted again by its own Patefield mean stays close to itself
    ari = serial[serial["index"] == "adjusted_rand"]
    assert ((ari["statistic"] - ari["adjusted_mean"]).abs() < 0.05).all()
    # every row carries its design row's keys
    assert (serial["n"] == 120).all() and set(serial["scenario"]) == set(small_design["scenario"])


def test_a_unit_is_reproducible_and_the_seed_matters(small_design):
    unit = study.units(small_design)[0]
    a = study.run_unit(unit, INDICES, N_SIM, "perm", 3)
    b = study.run_unit(unit, INDICES, N_SIM, "perm", 3)
    c = study.run_unit(unit, INDICES, N_SIM, "perm", 4)
    pd.testing.assert_frame_equal(a, b)
    assert not a["null_mean"].equals(c["null_mean"])


def test_processes_give_the_serial_results(serial, small_design):
    procs = study.run(small_design, indices=INDICES, n_sim=N_SIM, seed=3, processes=2,
                      progress=False)
    pd.testing.assert_frame_equal(procs, serial)


@pytest.mark.slow  # starts a Dask cluster
def test_dask_local_cluster_gives_the_serial_results(serial, small_design):
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        on_dask = study.run(small_design, indices=INDICES, n_sim=N_SIM, seed=3, client=client,
                            progress=False)
    pd.testing.assert_frame_equal(on_dask, serial)


def test_interrupted_study_resumes_to_the_same_results(serial, small_design, tmp_path,
                                                       monkeypatch):
    calls = []
    real = study.run_unit

    def interrupted(unit, *args):
        if len(calls) == 4:
            raise KeyboardInterrupt
        calls.append(unit["unit"])
        return real(unit, *args)

    monkeypatch.setattr(study, "run_unit", interrupted)
    with pytest.raises(KeyboardInterrupt):
        study.run(small_design, indices=INDICES, n_sim=N_SIM, seed=3, out=tmp_path,
                  progress=False)
    assert len(list(tmp_path.glob("unit-*.csv"))) == 4
    assert not list(tmp_path.glob(".unit-*")), "no half-written unit file"
    monkeypatch.setattr(study, "run_unit", real)
    counted = []
    monkeypatch.setattr(study, "run_unit", lambda u, *a: counted.append(u) or real(u, *a))
    resumed = study.run(small_design, indices=INDICES, n_sim=N_SIM, seed=3, out=tmp_path,
                        progress=False)
    assert len(counted) == 2 * len(small_design) - 4, "finished units are not run again"
    pd.testing.assert_frame_equal(resumed, serial)


@pytest.mark.parametrize("kwargs, exc, message", [
    (dict(design=[1, 2]), TypeError, "design must be a DataFrame"),
    (dict(design=pd.DataFrame({"k": [2]})), ValueError, "design lacks the columns"),
    (dict(algorithms=["kmeans", "dbscan"]), ValueError, "algorithms must be one of"),
    (dict(algorithms=["em", "em"]), ValueError, "distinct"),
    (dict(n_sim=0), ValueError, "n_sim must be >= 1"),
    (dict(model="uniform"), ValueError, "model must be one of"),
    (dict(indices=["rand", "jacard"]), ValueError, "jacard"),
    (dict(processes=0), ValueError, "processes must be >= 1"),
    (dict(seed=-1), ValueError, "seed must be >= 0"),
    (dict(overwrite="yes", out="x"), TypeError, "overwrite must be True or False"),
    (dict(overwrite=True), ValueError, "overwrite=True needs out="),
    (dict(out=3), TypeError, "out must be a folder path"),
])
def test_bad_input_before_work(kwargs, exc, message, small_design, monkeypatch):
    monkeypatch.setattr(study, "run_unit", lambda *a: pytest.fail("a unit was run"))
    kwargs = {"design": small_design, **kwargs}
    with pytest.raises(exc, match=message):
        study.run(progress=False, **kwargs)


def test_cli_quick_study_writes_and_resumes(tmp_path, capsys):
    from clusteragree import cli

    out, csv = tmp_path / "units", tmp_path / "results.csv"
    argv = ["study", "--quick", "--algorithms", "kmeans", "--indices", "rand,nmi_sum",
            "--n-sim", "100", "--out", str(out), "-o", str(csv)]
    assert cli.main(argv) == 0
    first = pd.read_csv(csv)
    assert first["unit"].nunique() == 12 and len(first) == 12 * 2 * 2
    assert study.load_results(csv)["unit"].nunique() == 12
    assert cli.main(argv) == 0                      # everything done: nothing is run again
    pd.testing.assert_frame_equal(pd.read_csv(csv), first)
    assert "12 units" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        cli.main(["study", "--quick", "--algorithms", "kmean", "--out", str(out)])
    assert stop.value.code == 2 and "Did you mean 'kmeans'" in capsys.readouterr().err


# -- a study folder holds one study -------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def finished_folder(small_design, tmp_path_factory):
    """A finished study folder of ``small_design`` with the settings of ``serial``."""
    folder = tmp_path_factory.mktemp("study") / "small"
    study.run(small_design, indices=INDICES, n_sim=N_SIM, seed=3, out=folder, progress=False)
    return folder


@pytest.fixture
def folder(finished_folder, tmp_path):
    """A copy of the finished study folder, for a test to damage."""
    return Path(shutil.copytree(finished_folder, tmp_path / "study"))


def _no_unit_is_run(monkeypatch):
    monkeypatch.setattr(study, "run_unit", lambda *a: pytest.fail("a unit was run"))


def _counting(monkeypatch):
    counted, real = [], study.run_unit
    monkeypatch.setattr(study, "run_unit", lambda u, *a: counted.append(u["unit"]) or real(u, *a))
    return counted


def test_a_folder_records_the_study_and_reads_back_as_the_run(finished_folder, serial):
    record = json.loads((finished_folder / study.RECORD).read_text())
    settings = record["settings"]
    assert settings["indices"] == INDICES and settings["n_sim"] == N_SIM
    assert settings["seed"] == 3 and settings["model"] == "perm"
    assert settings["algorithms"] == ["kmeans", "em"] and settings["design"]["rows"] == 3
    assert settings["clusteragree_version"] == __import__("clusteragree").__version__
    files = sorted(p.name for p in finished_folder.iterdir())
    assert files == [study.RECORD] + [f"unit-{u['unit']}.csv" for u in sorted(
        study.units(pd.DataFrame(index=range(3), columns=list(study.KEYS) + ["seed"])
                    .assign(scenario="1", balance="b", k=2, p=2, n=1, separation="s", rep=0,
                            seed=1)), key=lambda u: u["unit"])]
    # each unit file is plain CSV carrying its unit key and the folder's settings id
    raw = pd.read_csv(finished_folder / "unit-0001-em.csv", dtype={"scenario": str})
    assert set(raw["unit"]) == {"0001-em"}
    assert set(raw["settings_id"]) == {record["settings_id"]}
    # read back with the run's dtypes and values, exactly (scenario text, ints, NA as NA)
    loaded = study.load_results(finished_folder)
    pd.testing.assert_frame_equal(loaded, serial, check_exact=True)
    assert loaded.attrs["study"]["finished"] == loaded.attrs["study"]["units"] == 6


def test_a_results_csv_reads_back_with_the_results_dtypes(serial, tmp_path):
    path = tmp_path / "results.csv"
    with_na = serial.copy()
    with_na.loc[0, ["null_skewness", "kind"]] = pd.NA
    with_na.loc[1, "n_sim"] = pd.NA
    with_na.to_csv(path, index=False)
    pd.testing.assert_frame_equal(study.load_results(path), store.restore(with_na),
                                  check_exact=True)
    assert study.load_results(path)["scenario"].tolist() == serial["scenario"].tolist()


@pytest.mark.parametrize("change, line", [
    (dict(n_sim=300), "n_sim: the folder has 200, this run asks 300"),
    (dict(seed=2), "seed: the folder has 3, this run asks 2"),
    (dict(indices=["ari"]), "indices: the folder has [rand, adjusted_rand, nmi_sum], this run "
                            "asks [adjusted_rand]"),
    (dict(algorithms=["em"]), "algorithms: the folder has [kmeans, em], this run asks [em]"),
    (dict(model="num"), "model: the folder has perm, this run asks num"),
    (dict(design="n=130"), "design: the folder has 3 rows (sha256 "),
    (dict(version="9.9"), "clusteragree_version: the folder has "
                          f"{__import__('clusteragree').__version__}, this run asks 9.9"),
])
def test_other_settings_are_refused_naming_the_setting(change, line, finished_folder,
                                                       small_design, monkeypatch):
    _no_unit_is_run(monkeypatch)
    kwargs = dict(indices=INDICES, n_sim=N_SIM, seed=3)
    design_ = small_design
    if "design" in change:
        design_ = small_design.assign(n=130)
    elif "version" in change:
        monkeypatch.setattr("clusteragree._version.__version__", change["version"])
    else:
        kwargs.update(change)
    before = {p.name: p.read_bytes() for p in finished_folder.iterdir()}
    with pytest.raises(ValueError) as refused:
        study.run(design_, out=finished_folder, progress=False, **kwargs)
    message = str(refused.value)
    assert line in message and "overwrite=True" in message and "--fresh" in message
    assert message.count(": the folder has") == 1, message       # only what differs
    assert {p.name: p.read_bytes() for p in finished_folder.iterdir()} == before


def test_resuming_with_several_changed_settings_names_each(folder, small_design, monkeypatch):
    (folder / "unit-0001-em.csv").unlink()
    _no_unit_is_run(monkeypatch)
    with pytest.raises(ValueError) as refused:
        study.run(small_design, indices=["ari"], n_sim=300, seed=2, out=folder, progress=False)
    message = str(refused.value)
    for setting in ("n_sim: the folder has 200, this run asks 300",
                    "seed: the folder has 3, this run asks 2",
                    "indices: the folder has [rand, adjusted_rand, nmi_sum], this run asks "
                    "[adjusted_rand]"):
        assert setting in message
    assert not (folder / "unit-0001-em.csv").exists()


def test_overwrite_starts_over_and_keeps_the_users_files(folder, small_design, monkeypatch):
    (folder / "notes.txt").write_text("mine")
    (folder / "unit-9999-em.csv").write_text("a stray unit\n")
    counted = _counting(monkeypatch)
    fresh = study.run(small_design, algorithms=["kmeans"], indices=["rand"], n_sim=50, seed=3,
                      out=folder, overwrite=True, progress=False)
    assert len(counted) == 3                               # every unit of the new study is run
    assert sorted(p.name for p in folder.iterdir()) == [
        "notes.txt", study.RECORD, "unit-0000-kmeans.csv", "unit-0001-kmeans.csv",
        "unit-0002-kmeans.csv"]
    assert (folder / "notes.txt").read_text() == "mine"
    monkeypatch.undo()
    in_memory = study.run(small_design, algorithms=["kmeans"], indices=["rand"], n_sim=50,
                          seed=3, progress=False)
    pd.testing.assert_frame_equal(fresh, in_memory, check_exact=True)


def _truncate(path: Path, keep) -> None:
    raw = path.read_bytes()
    path.write_bytes(raw[:keep(raw)])


def test_a_damaged_unit_file_is_named_and_computed_again(folder, small_design, serial,
                                                         monkeypatch):
    _truncate(folder / "unit-0001-em.csv", lambda raw: len(raw) // 2)      # cut mid-line
    _truncate(folder / "unit-0002-em.csv",                                  # a whole row lost
              lambda raw: raw.rstrip(b"\n").rindex(b"\n") + 1)
    (folder / "unit-0000-kmeans.csv").write_bytes(b"")                      # empty
    other = pd.read_csv(folder / "unit-0002-kmeans.csv", dtype=str, keep_default_na=False)
    other.assign(settings_id="0123456789abcdef").to_csv(folder / "unit-0002-kmeans.csv",
                                                        index=False)       # another study's
    damaged = {"unit-0001-em.csv": "truncated", "unit-0002-em.csv": "incomplete: 5 of the 6",
               "unit-0000-kmeans.csv": "empty", "unit-0002-kmeans.csv": "another study"}

    with pytest.warns(study.StudyWarning) as caught:
        partial = study.load_results(folder)
    text = " ".join(str(w.message) for w in caught)
    for name, why in damaged.items():
        assert f"{name} ({why}" in text, (name, text)
    assert "4 of its 6 units are not finished" in text
    assert set(partial["unit"]) == {"0000-em", "0001-kmeans"}

    counted = _counting(monkeypatch)
    with pytest.warns(study.StudyWarning, match="computed again") as caught:
        resumed = study.run(small_design, indices=INDICES, n_sim=N_SIM, seed=3, out=folder,
                            progress=False)
    assert all(name in str(caught[0].message) for name in damaged)
    assert sorted(counted) == sorted(name[5:-4] for name in damaged)
    pd.testing.assert_frame_equal(resumed, serial, check_exact=True)


def test_a_foreign_unit_file_is_named_and_not_merged(folder, small_design, serial,
                                                     monkeypatch):
    shutil.copy(folder / "unit-0000-em.csv", folder / "unit-9999-em.csv")
    with open(folder / "unit-9999-em.pkl", "wb") as fh:
        pickle.dump(serial.head(2), fh)
    with pytest.warns(study.StudyWarning) as caught:
        loaded = study.load_results(folder)
    text = " ".join(str(w.message) for w in caught)
    assert "unit-9999-em.csv (this study has no unit 9999-em" in text
    assert "unit-9999-em.pkl (not a unit file" in text
    pd.testing.assert_frame_equal(loaded, serial, check_exact=True)
    _no_unit_is_run(monkeypatch)
    with pytest.warns(study.StudyWarning, match="unit-9999-em.csv"):
        resumed = study.run(small_design, indices=INDICES, n_sim=N_SIM, seed=3, out=folder,
                            progress=False)
    pd.testing.assert_frame_equal(resumed, serial, check_exact=True)
    assert (folder / "unit-9999-em.csv").exists(), "a file not of the study is left alone"


def test_a_folder_without_its_record_or_with_a_damaged_one_is_refused(folder, small_design,
                                                                     tmp_path, monkeypatch):
    _no_unit_is_run(monkeypatch)
    (folder / study.RECORD).write_text('{"settings": ')
    with pytest.raises(ValueError, match=r"study\.json cannot be read"):
        study.run(small_design, indices=INDICES, n_sim=N_SIM, seed=3, out=folder,
                  progress=False)
    with pytest.raises(ValueError, match=r"study\.json cannot be read"):
        study.load_results(folder)
    (folder / study.RECORD).unlink()
    with pytest.raises(ValueError, match=r"holds unit files \(unit-0000-em.csv, .*no study\.json"):
        study.run(small_design, indices=INDICES, n_sim=N_SIM, seed=3, out=folder,
                  progress=False)
    with pytest.raises(FileNotFoundError, match="not a study folder"):
        study.load_results(folder)
    (tmp_path / "a-file").write_text("")
    with pytest.raises(ValueError, match="out must be a folder"):
        study.run(small_design, out=tmp_path / "a-file", progress=False)


def test_cli_quick_then_full_use_their_own_default_folders(tmp_path, monkeypatch, capsys):
    """``study --quick`` then the full design (both cut to three rows here, to be fast: their
    unit ids still overlap) into the default folders: the second never reads the first's units;
    a change of settings is refused naming each and --fresh starts over."""
    from clusteragree import cli
    from clusteragree.studies import simulate

    # the command imports its study helpers when it runs (issue 34): patched where they live
    real_design, real_quick = simulate.design, study.quick_design
    monkeypatch.setattr(simulate, "design", lambda reps, seed: real_design(reps, seed).head(3))
    monkeypatch.setattr(study, "quick_design", lambda seed: real_quick(seed).head(3))
    monkeypatch.chdir(tmp_path)
    cheap = ["--algorithms", "kmeans", "--indices", "rand", "--n-sim", "20"]
    assert cli.main(["study", "--quick", *cheap]) == 0
    assert cli.main(["study", "--reps", "1", *cheap, "-o", "r.csv"]) == 0
    full = pd.read_csv("r.csv", dtype={"scenario": str})
    assert full["unit"].nunique() == 3 and (full["n"] == 500).all(), "the quick units leaked"
    row1 = full[full["unit"] == "0001-kmeans"]
    assert set(row1["scenario"]) == {real_design(1, 1)["scenario"][1]}
    assert (study.load_results("studies/thesis-quick")["n"] == 200).all()
    out = capsys.readouterr().out
    assert 'load_results("studies/thesis-reps1")' in out and "read.csv" in out
    pd.testing.assert_frame_equal(study.load_results("r.csv"),
                                  study.load_results("studies/thesis-reps1"), check_exact=True)

    # a damaged unit file is named on stderr and computed again
    Path("studies/thesis-reps1/unit-0002-kmeans.csv").write_bytes(b"unit,scen")
    assert cli.main(["study", "--reps", "1", *cheap]) == 0
    err = capsys.readouterr().err
    assert "clusteragree study: warning:" in err and "unit-0002-kmeans.csv (truncated" in err
    pd.testing.assert_frame_equal(study.load_results("studies/thesis-reps1"),
                                  study.load_results("r.csv"), check_exact=True)

    # resume the full study with other settings: refused, each named, nothing changed
    Path("studies/thesis-reps1/unit-0001-kmeans.csv").unlink()
    with pytest.raises(SystemExit) as stop:
        cli.main(["study", "--reps", "1", "--algorithms", "kmeans", "--indices", "ari",
                  "--n-sim", "30", "--seed", "2"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "--fresh" in err
    for setting in ("n_sim: the folder has 20, this run asks 30", "seed: the folder has 1, "
                    "this run asks 2", "indices: the folder has [rand], this run asks "
                    "[adjusted_rand]", "design: the folder has 3 rows"):
        assert setting in err, (setting, err)
    assert cli.main(["study", "--reps", "1", "--algorithms", "kmeans", "--indices", "ari",
                     "--n-sim", "30", "--seed", "2", "--fresh"]) == 0
    again = study.load_results("studies/thesis-reps1")
    assert set(again["index"]) == {"adjusted_rand"} and set(again["n_sim"]) == {30}
    assert again["unit"].nunique() == 3


# -- a killed study leaves no worker behind -----------------------------------------------------

KILLED_STUDY = '''
import sys
import time

import pandas as pd

from clusteragree.studies import study

real = study.run_unit


def slow(unit, *args):
    """The first design row's units finish; the others outlive the parent, unless killed."""
    if unit["row"] > 0:
        time.sleep(60)
    return real(unit, *args)


study.run_unit = slow
if __name__ == "__main__":
    study.run(pd.read_pickle(sys.argv[1]), indices=%r, n_sim=%d, seed=3, out=sys.argv[2],
              processes=2, progress=False)
''' % (INDICES, N_SIM)


class _Processes:
    """Children of a process and whether they live: psutil if installed, else /proc."""

    def __init__(self):
        try:
            import psutil
        except ImportError:
            psutil = None
            if not Path("/proc/self/stat").exists():
                pytest.skip("needs psutil or /proc to see the workers")
        self.psutil = psutil

    def children(self, pid):
        if self.psutil is not None:
            try:
                return self.psutil.Process(pid).children(recursive=True)
            except self.psutil.NoSuchProcess:
                return []
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                text = stat.read_text()
            except OSError:
                continue
            if int(text[text.rindex(")") + 2:].split()[1]) == pid:
                found.append(int(stat.parent.name))
        return found

    def alive(self, proc) -> bool:
        """Running (a zombie, dead but not yet reaped by its new parent, is not)."""
        if self.psutil is not None:
            try:
                return proc.is_running() and proc.status() != self.psutil.STATUS_ZOMBIE
            except self.psutil.NoSuchProcess:
                return False
        try:
            text = Path(f"/proc/{proc}/stat").read_text()
        except OSError:
            return False
        return text[text.rindex(")") + 2] != "Z"

    def kill(self, proc) -> None:
        try:
            os.kill(proc.pid if self.psutil is not None else proc, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_a_killed_study_leaves_no_worker_and_resumes(small_design, serial, tmp_path):
    procs = _Processes()
    design_file, script, out = tmp_path / "design.pkl", tmp_path / "study.py", tmp_path / "out"
    small_design.to_pickle(design_file)
    script.write_text(KILLED_STUDY)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p])}
    parent = subprocess.Popen([sys.executable, str(script), str(design_file), str(out)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    workers = []
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 or len(list(out.glob("unit-0000-*"))) < 2:
            assert parent.poll() is None, parent.stderr.read().decode()
            assert time.monotonic() < deadline, "the study did not start its workers"
            time.sleep(0.05)
            workers = procs.children(parent.pid)
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 10
        while any(procs.alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        survivors = [w for w in workers if procs.alive(w)]
        assert not survivors, f"{len(survivors)} worker(s) outlived the killed study"
    finally:
        for w in workers:
            if procs.alive(w):
                procs.kill(w)
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        parent.stderr.close()
    resumed = study.run(small_design, indices=INDICES, n_sim=N_SIM, seed=3, out=out,
                        progress=False)
    pd.testing.assert_frame_equal(resumed, serial, check_exact=True)


def test_a_worker_whose_parent_already_died_ends_at_once():
    """The race the death signal cannot cover: a worker started, its parent died before the
    signal was armed. Here the 'parent' pid is not this process's parent."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    res = subprocess.run([sys.executable, "-c", "from clusteragree.studies import grid; "
                          "grid._worker_init(-1); print('still here')"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert res.returncode == 1 and "still here" not in res.stdout


def test_the_study_schema_types_the_result_columns_as_compare_does():
    """A study reads its numbers back with the dtypes of ``compare``'s results (nullable Float64,
    n_sim Int64), which its schema derives from ``RESULT_COLUMNS``."""
    frame = ca.compare([[30, 20], [10, 20]], indices=["rand"], method="exact")
    schema = store._schema()
    numbers = [c for c in RESULT_COLUMNS if str(frame[c].dtype) in ("Float64", "Int64")]
    assert numbers and "n_sim" in numbers
    for col in RESULT_COLUMNS:
        assert (col in numbers) == (schema[col] in ("Float64", "Int64")), col
        if col in numbers:
            assert schema[col] == str(frame[col].dtype), col
