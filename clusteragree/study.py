"""Studies: a design x algorithms x indices grid, run serially, in local processes or on a Dask
cluster, with one result file per unit so that an interrupted study resumes and loses nothing.

A *unit* is one data set of the design (one row of ``simulate.design``) clustered by one
algorithm. For each unit the study simulates the data set from the row's seed, clusters it, and
builds two tables: **external** (the known classes against the clusters found on all objects)
and **stability** (the thesis' weighted cross-validation: the partitions fitted on the two
halves, compared over all objects). Every table gets ``compare``'s row per index: observed,
null mean and median, p-value, mean- and median-adjusted values (IADJUST-style: ``n_sim``
Patefield tables under ``model="perm"``, or random partitions under the other models), in the
package's one result schema, with the unit's keys in front.

Seeds are derived per unit from the design row's seed (numpy ``SeedSequence``), so a unit gives
the same numbers whichever executor runs it, in whatever order, on however many workers.

Amorim, M. J. (2015), "On clustering stability", PhD thesis, ISCTE - University Institute of
Lisbon, Ch.4-5 (the design, weighted cross-validation, IADJUST).

>>> d = quick_design(seed=1)
>>> len(d), sorted(d["k"].unique().tolist())
(12, [2, 3])
"""

from __future__ import annotations

import os
import tempfile
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import numpy as np
import pandas as pd

from ._validate import check_choice, check_positive_int
from .indices import resolve_indices

__all__ = ["run", "run_unit", "units", "quick_design", "load_results", "THESIS_RESULTS", "ALGORITHMS",
           "DEFAULT_INDICES", "KEYS"]

ALGORITHMS = ("kmeans", "em")
#: The thesis' paired indices, ARI and the information indices it adjusts (MIH = nmi_joint).
DEFAULT_INDICES = ("paired", "adjusted_rand", "nmi_min", "nmi_sqrt", "nmi_sum", "nmi_joint",
                   "variation_of_information")
#: The columns that identify a result row, before the result schema's columns.
KEYS = ("unit", "scenario", "balance", "k", "p", "n", "separation", "rep", "algorithm",
        "overlap", "table", "index")
_TABLES = ("external", "stability")


def quick_design(seed=1):
    """The CI-sized design: one data set per scenario for K = 2 and 3 with the thesis' weights
    and the three separations, at n = 200 objects (12 data sets)."""
    from .simulate import design

    d = design(reps=1, seed=seed)
    d = d[d["k"].isin([2, 3])].copy()
    d["n"] = 200
    return d.reset_index(drop=True)


def units(design: pd.DataFrame, algorithms=ALGORITHMS) -> list[dict]:
    """One dict per (design row, algorithm): the row's values, the algorithm and a unit id
    (``"0007-em"``) that names its result file."""
    _check_design(design)
    algorithms = _check_algorithms(algorithms)
    out = []
    for pos, (_, row) in enumerate(design.iterrows()):
        for algorithm in algorithms:
            out.append({**row.to_dict(), "row": pos, "algorithm": algorithm,
                        "unit": f"{pos:04d}-{algorithm}"})
    return out


def _check_design(design):
    if not isinstance(design, pd.DataFrame):
        raise TypeError(f"design must be a DataFrame (clusteragree.simulate.design()), got "
                        f"{type(design).__name__}")
    missing = [c for c in ("scenario", "balance", "k", "p", "n", "separation", "rep", "seed")
               if c not in design.columns]
    if missing:
        raise ValueError(f"design lacks the columns {missing}; build it with "
                         "clusteragree.simulate.design()")
    if len(design) == 0:
        raise ValueError("design has no rows")


def _check_algorithms(algorithms):
    if isinstance(algorithms, str):
        algorithms = [algorithms]
    algorithms = [check_choice(a, "algorithms", ALGORITHMS) for a in algorithms]
    if not algorithms or len(set(algorithms)) != len(algorithms):
        raise ValueError(f"algorithms must be distinct names from {ALGORITHMS}, got "
                         f"{algorithms}")
    return algorithms


def _unit_seeds(unit: dict, seed=None):
    """The streams of a unit, from its design row's seed, its algorithm and the study's seed:
    the data set is the row's own (the same for every algorithm and study seed); the clustering
    and the null differ by algorithm and study seed."""
    algo = ALGORITHMS.index(unit["algorithm"])
    entropy = [int(unit["seed"]), algo] + ([] if seed is None else [int(seed)])
    clustering, null = np.random.SeedSequence(entropy).spawn(2)
    return int(unit["seed"]), int(clustering.generate_state(1)[0]), null


def run_unit(unit: dict, indices=DEFAULT_INDICES, n_sim: int = 17_000,
             model: str = "perm", seed=None) -> pd.DataFrame:
    """The result rows of one unit: for its external and stability tables, ``compare``'s row
    of every index, with the unit's keys in front (``KEYS``)."""
    from .inference import compare
    from .simulate import mixture
    from .stability import external_table, weighted_cv

    data_seed, cluster_seed, null_seed = _unit_seeds(unit, seed)
    X, y, info = mixture(int(unit["k"]), unit["balance"], unit["separation"],
                         n=int(unit["n"]), p=int(unit["p"]), seed=data_seed)
    k = int(unit["k"])
    tables = {
        "external": external_table(X, y, k, algorithm=unit["algorithm"], seed=cluster_seed),
        "stability": weighted_cv(X, k, algorithm=unit["algorithm"], seed=cluster_seed),
    }
    frames = []
    for (name, table), seed in zip(tables.items(), null_seed.spawn(len(tables))):
        method = "patefield" if model == "perm" else "simulation"
        res = compare(table, indices=list(indices), method=method, model=model, n_sim=n_sim,
                      seed=seed)
        res = pd.DataFrame(res).reset_index()
        keys = {"unit": unit["unit"], "scenario": unit["scenario"], "balance": unit["balance"],
                "k": k, "p": int(unit["p"]), "n": int(unit["n"]),
                "separation": unit["separation"], "rep": int(unit["rep"]),
                "algorithm": unit["algorithm"], "overlap": float(info["overlap"]), "table": name}
        for col, value in reversed(keys.items()):
            res.insert(0, col, value)
        frames.append(res)
    return pd.concat(frames, ignore_index=True)


def _write(frame: pd.DataFrame, path: Path) -> None:
    """Write atomically: a unit's file exists only when complete."""
    fd, staged = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    os.close(fd)
    try:
        frame.to_pickle(staged)
        os.replace(staged, path)
    except BaseException:
        Path(staged).unlink(missing_ok=True)
        raise


#: The shipped results of the thesis' full design (``load_results("thesis")``).
THESIS_RESULTS = "thesis_study.csv.gz"


def load_results(source) -> pd.DataFrame:
    """A study's results: ``"thesis"`` (the shipped full-design study, ``data/``), a folder of
    per-unit files (``run(..., out=FOLDER)``), or a CSV file written by ``clusteragree study
    -o FILE``; sorted by unit and table."""
    from .datasets import data_dir

    if isinstance(source, str) and source == "thesis":
        source = data_dir() / THESIS_RESULTS
    path = Path(source)
    if path.is_dir():
        files = sorted(path.glob("unit-*.pkl"))
        if not files:
            return pd.DataFrame()
        frame = pd.concat([pd.read_pickle(f) for f in files], ignore_index=True)
    elif path.is_file():
        frame = pd.read_csv(path, dtype={"scenario": str})
    else:
        raise FileNotFoundError(f"study results: no such file or folder {str(path)!r}")
    return frame.sort_values(["unit", "table"], kind="stable").reset_index(drop=True)


def run(design: pd.DataFrame, algorithms=ALGORITHMS, indices=DEFAULT_INDICES,
        n_sim: int = 17_000, seed=None, client=None, out=None, model: str = "perm",
        processes: int | None = None, progress: bool = True) -> pd.DataFrame:
    """Run a study: every design row with every algorithm; returns one tidy DataFrame.

    Parameters
    ----------
    design : DataFrame
        ``clusteragree.simulate.design(reps, seed)`` or a subset of its rows
        (``quick_design()`` for a CI-sized run).
    algorithms : list of {"kmeans", "em"}
    indices : index names or groups (default: the thesis' paired and information indices).
    n_sim : int
        Random tables (or partitions) per null law (the thesis: 17,000).
    seed : int, optional
        Salts the clusterings' and the nulls' random streams (the data sets come from the
        design's own per-row seeds). Every unit's randomness is derived from its row's seed,
        its algorithm and this seed alone, so results do not depend on the executor.
    client : dask.distributed.Client, optional
        Run the units on this Dask cluster.
    processes : int, optional
        Run the units in this many local processes (ignored with ``client``).
    out : path, optional
        A folder for one result file per unit; units whose file exists are skipped, so an
        interrupted study resumes where it stopped.
    model : the random model of the nulls ("perm": Patefield tables; others: random
        partitions, ``method="simulation"``).
    """
    todo = units(design, algorithms)
    names, _ = resolve_indices(list(indices) if not isinstance(indices, str) else indices)
    n_sim = check_positive_int(n_sim, "n_sim")
    check_choice(model, "model", ("perm", "num", "num1", "all", "all1"))
    if seed is not None:
        seed = check_positive_int(seed, "seed", minimum=0)
    if processes is not None:
        processes = check_positive_int(processes, "processes")
    folder = None
    if out is not None:
        folder = Path(out)
        folder.mkdir(parents=True, exist_ok=True)
        todo = [u for u in todo if not (folder / f"unit-{u['unit']}.pkl").exists()]
    results = _execute(todo, (names, n_sim, model, seed), client, processes, progress, folder)
    if folder is not None:
        return load_results(folder)
    if not results:
        return pd.DataFrame()
    frame = pd.concat(results, ignore_index=True)
    return frame.sort_values(["unit", "table"], kind="stable").reset_index(drop=True)


def _execute(todo, args, client, processes, progress, folder):
    from tqdm import tqdm

    bar = tqdm(total=len(todo), desc="units", disable=not progress)
    results = []

    def done(unit, frame):
        if folder is not None:
            _write(frame, folder / f"unit-{unit['unit']}.pkl")
        else:
            results.append(frame)
        bar.update()

    try:
        if client is not None:
            from dask.distributed import as_completed as dask_completed

            futures = {client.submit(run_unit, u, *args, pure=False): u
                       for u in todo}
            for fut in dask_completed(futures):
                done(futures[fut], fut.result())
        elif processes is not None and processes > 1:
            with ProcessPoolExecutor(max_workers=processes) as pool:
                futures = {pool.submit(run_unit, u, *args): u for u in todo}
                for fut in as_completed(futures):
                    done(futures[fut], fut.result())
        else:
            for u in todo:
                done(u, run_unit(u, *args))
    finally:
        bar.close()
    return results
