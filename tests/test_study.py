"""Studies: the same results serially, in processes and on Dask; an interrupted study resumes
to the same results; bad input is refused before any work."""

from __future__ import annotations

import pandas as pd
import pytest

from clusteragree import study
from clusteragree.inference import RESULT_COLUMNS
from clusteragree.simulate import design

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
    assert ((ari["observed"] - ari["adjusted_mean"]).abs() < 0.05).all()
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
    assert len(list(tmp_path.glob("unit-*.pkl"))) == 4
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
