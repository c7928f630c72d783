"""The design and the run of a study: a design x algorithms x indices grid of units, run
serially, in local processes or on a Dask cluster; each unit's results go to the study's folder
as it finishes (``clusteragree.studies.store``), so that an interrupted study resumes and loses
nothing.

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

With ``run(..., out=FOLDER)`` the folder holds one study (``clusteragree.studies.store``:
``study.json`` records its settings, ``unit-<row>-<algorithm>.csv`` each unit's rows); a re-run
with the same settings resumes, one with other settings is refused, naming them.
``load_results(FOLDER)`` reads the folder back with the results' dtypes.

{ref:amorim2015}, Ch.4-5 (the design, weighted cross-validation, IADJUST).

>>> d = quick_design(seed=1)
>>> len(d), sorted(d["k"].unique().tolist())
(12, [2, 3])
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np
import pandas as pd

from .._docs import fill, fill_doc
from .._validate import check_bool, check_choice, check_positive_int
from ..indices import resolve_indices
from . import store
from .grid import run_tasks
from .store import KEYS, RECORD, THESIS_RESULTS, StudyWarning, load_results

__doc__ = fill(__doc__)

__all__ = ["run", "run_unit", "units", "quick_design", "load_results", "THESIS_RESULTS",
           "ALGORITHMS", "DEFAULT_INDICES", "KEYS", "RECORD", "StudyWarning"]

ALGORITHMS = ("kmeans", "em")
#: The thesis' paired indices, ARI and the information indices it adjusts (MIH = nmi_joint).
DEFAULT_INDICES = ("paired", "adjusted_rand", "nmi_min", "nmi_sqrt", "nmi_sum", "nmi_joint",
                   "variation_of_information")


def quick_design(seed=1):
    """The CI-sized design: 12 data sets of 200 objects.

    One data set per scenario for K = 2 and 3, with the thesis' weights and the three
    separations, at n = 200 objects.

    Parameters
    ----------
    seed : int, SeedSequence or Generator, default 1
        As in ``clusteragree.studies.simulate.design``.

    Returns
    -------
    DataFrame
        12 rows of ``design(reps=1, seed=seed)`` with ``n`` set to 200.

    See Also
    --------
    clusteragree.studies.simulate.design : The full design.
    run : Run a study of a design.

    Examples
    --------
    >>> quick_design()[["scenario", "k", "n", "separation"]].head(3)
      scenario  k    n separation
    0      121  2  200       poor
    1      122  2  200   moderate
    2      123  2  200       good
    """
    from .simulate import design

    d = design(reps=1, seed=seed)
    d = d[d["k"].isin([2, 3])].copy()
    d["n"] = 200
    return d.reset_index(drop=True)


def units(design: pd.DataFrame, algorithms=ALGORITHMS) -> list[dict]:
    """The units of a study: one per design row and algorithm.

    Parameters
    ----------
    design : DataFrame
        ``clusteragree.studies.simulate.design()`` or a subset of its rows.
    algorithms : sequence of {"kmeans", "em"}, default ("kmeans", "em")
        The clustering algorithms.

    Returns
    -------
    list of dict
        One dict per (design row, algorithm): the row's values, its position ``row``, the
        algorithm and a unit id (``"0007-em"``) that names its result file.

    See Also
    --------
    run_unit : The results of one unit.
    run : Run them all.

    Examples
    --------
    >>> [u["unit"] for u in units(quick_design().head(2), ["kmeans", "em"])]
    ['0000-kmeans', '0000-em', '0001-kmeans', '0001-em']
    """
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
        raise TypeError(f"design must be a DataFrame (clusteragree.studies.simulate.design()), got "
                        f"{type(design).__name__}")
    missing = [c for c in ("scenario", "balance", "k", "p", "n", "separation", "rep", "seed")
               if c not in design.columns]
    if missing:
        raise ValueError(f"design lacks the columns {missing}; build it with "
                         "clusteragree.studies.simulate.design()")
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
    """The result rows of one unit.

    The unit's data set is simulated from its design row's seed and clustered; for its two
    tables, external (classes against the clusters of all objects) and stability (weighted
    cross-validation), ``compare`` gives a row per index.

    Parameters
    ----------
    unit : dict
        One of ``units(design, algorithms)``.
    indices : str or sequence of str, default ``DEFAULT_INDICES``
        Index names or groups (the thesis' paired and information indices).
    n_sim : int, default 17,000
        Random tables (or partitions) per null law.
    model : {"perm", "num", "num1", "all", "all1"}, default "perm"
        The random model of the nulls ("perm": Patefield tables; the others: random
        partitions, ``method="simulation"``).
    seed : int, optional
        Salts the clustering's and the nulls' random streams (the data set is the row's own).

    Returns
    -------
    DataFrame
        For each table and index, the unit's keys (``KEYS``) and ``compare``'s row (the
        package's result schema).

    See Also
    --------
    run : Every unit of a design.
    clusteragree.compare : The rows.

    Examples
    --------
    >>> unit = units(quick_design().head(1), ["kmeans"])[0]
    >>> res = run_unit(unit, indices=["rand"], n_sim=99, seed=1)
    >>> res[["unit", "table", "index"]].values.tolist()
    [['0000-kmeans', 'external', 'rand'], ['0000-kmeans', 'stability', 'rand']]
    """
    from ..inference import compare
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
                      seed=seed, interval=None)  # the study reads the tests only
        res = pd.DataFrame(res).reset_index()
        keys = {"unit": unit["unit"], "scenario": unit["scenario"], "balance": unit["balance"],
                "k": k, "p": int(unit["p"]), "n": int(unit["n"]),
                "separation": unit["separation"], "rep": int(unit["rep"]),
                "algorithm": unit["algorithm"], "overlap": float(info["overlap"]), "table": name}
        for col, value in reversed(keys.items()):
            res.insert(0, col, value)
        frames.append(res)
    return pd.concat(frames, ignore_index=True)


# -- the study's settings ------------------------------------------------------------------------

#: The design's columns that make its fingerprint (``_settings``).
_DESIGN_KEYS = ("scenario", "balance", "k", "p", "n", "separation", "rep", "seed")


def _settings(design, algorithms, names, n_sim, model, seed) -> dict:
    """What makes a study: its design (row count and the SHA-256 of its defining columns as
    CSV), algorithms, indices (resolved names), n_sim, model, seed and the package version."""
    from .._version import __version__

    canonical = design.loc[:, list(_DESIGN_KEYS)].to_csv(index=False, lineterminator="\n")
    return {"design": {"rows": len(design),
                       "sha256": hashlib.sha256(canonical.encode()).hexdigest()},
            "algorithms": [a for a in ALGORITHMS if a in algorithms],
            "indices": list(names), "n_sim": int(n_sim), "model": model,
            "seed": None if seed is None else int(seed), "clusteragree_version": __version__}


@fill_doc
def run(design: pd.DataFrame, algorithms=ALGORITHMS, indices=DEFAULT_INDICES,
        n_sim: int = 17_000, seed=None, client=None, out=None, model: str = "perm",
        processes: int | None = None, progress: bool = True,
        overwrite: bool = False) -> pd.DataFrame:
    """Run a study: every design row with every algorithm; returns one tidy DataFrame.

    Parameters
    ----------
    design : DataFrame
        ``clusteragree.studies.simulate.design(reps, seed)`` or a subset of its rows
        (``quick_design()`` for a CI-sized run).
    algorithms : sequence of {"kmeans", "em"}, default ("kmeans", "em")
        The clustering algorithms: k-means (sklearn KMeans) and EM for Gaussian mixtures
        (sklearn GaussianMixture, full covariances).
    indices : str or sequence of str, default ``DEFAULT_INDICES``
        Index names or groups (the thesis' paired and information indices).
    n_sim : int
        Random tables (or partitions) per null law (the thesis: 17,000).
    seed : int, optional
        Salts the clusterings' and the nulls' random streams (the data sets come from the
        design's own per-row seeds). Every unit's randomness is derived from its row's seed,
        its algorithm and this seed alone, so results do not depend on the executor.
    client : dask.distributed.Client, optional
        Run the units on this Dask cluster.
    out : path, optional
        A folder that holds this one study: ``study.json`` records its settings (design
        fingerprint, algorithms, indices, n_sim, model, seed, package version) when it starts,
        and each unit's results are written, as it finishes, to ``unit-<row>-<algorithm>.csv``
        (with a ``settings_id`` column). A re-run with the same settings resumes: sound unit
        files are kept, damaged ones (unreadable, truncated, another study's) are named and
        computed again, files named like units that are no unit of this study are named and
        ignored. A run whose settings differ from the folder's is refused, naming each
        difference. Other files in the folder are left alone.
    model : {"perm", "num", "num1", "all", "all1"}, default "perm"
        The random model of the nulls ("perm": Patefield tables; the others: random
        partitions, ``method="simulation"``).
    processes : int, optional
        Run the units in this many local processes (ignored with ``client``). The workers end
        when this process ends, even when it is killed.
    progress : bool
        Show a progress bar.
    overwrite : bool
        With ``out``: start the study over, deleting the folder's ``study.json`` and unit
        files first (and nothing else).

    Returns
    -------
    DataFrame
        One row per unit, table and index: the unit's keys (``KEYS``) and the result schema,
        sorted by unit and table; with ``out``, read back from the folder
        (``load_results(out)``), equal to an uninterrupted run's.

    Raises
    ------
    ValueError, TypeError
        Bad arguments, or ``out`` holding another study (or unit files without
        ``study.json``), before any unit is run.

    Warns
    -----
    StudyWarning
        Naming the damaged unit files (computed again) and the foreign ones (ignored).

    See Also
    --------
    load_results : Read a study's results back.
    clusteragree.studies.study_results : The thesis' summaries of the results.
    clusteragree.studies.simulate.design : The design.

    References
    ----------
    {ref:amorim2015}, Ch.4-5.

    Examples
    --------
    >>> res = run(quick_design().head(1), algorithms=["kmeans"], indices=["rand", "jaccard"],
    ...           n_sim=99, seed=1, progress=False)
    >>> res[["unit", "table", "index", "statistic"]].round(4)
              unit      table    index  statistic
    0  0000-kmeans   external     rand     0.5088
    1  0000-kmeans   external  jaccard     0.3488
    2  0000-kmeans  stability     rand     0.8521
    3  0000-kmeans  stability  jaccard     0.7549
    """
    todo = units(design, algorithms)
    algorithms = _check_algorithms(algorithms)
    names, _ = resolve_indices(list(indices) if not isinstance(indices, str) else indices)
    n_sim = check_positive_int(n_sim, "n_sim")
    check_choice(model, "model", ("perm", "num", "num1", "all", "all1"))
    if seed is not None:
        seed = check_positive_int(seed, "seed", minimum=0)
    if processes is not None:
        processes = check_positive_int(processes, "processes")
    overwrite = check_bool(overwrite, "overwrite")
    folder = record = None
    if out is not None:
        if not isinstance(out, (str, os.PathLike)):
            raise TypeError(f"out must be a folder path (str or Path), got {type(out).__name__}")
        folder = Path(out)
    elif overwrite:
        raise ValueError("overwrite=True needs out=FOLDER (the study folder to start over)")
    if folder is not None:
        settings = _settings(design, algorithms, names, n_sim, model, seed)
        record = store.open_folder(folder, settings, overwrite)
        finished, damaged, foreign = store.scan(folder, record)
        store.warn_scan(folder, damaged, foreign, recompute=True)
        todo = [u for u in todo if u["unit"] not in finished]
    results = _execute(todo, (names, n_sim, model, seed), client, processes, progress, folder,
                       record)
    if folder is not None:
        good, damaged, foreign = store.scan(folder, record)
        store.warn_scan(folder, damaged, [], recompute=False)  # only if damaged since the start
        return store.gather(good, record)
    if not results:
        return pd.DataFrame()
    return store.order(store.restore(pd.concat(results, ignore_index=True)))


# -- executing the units ------------------------------------------------------------------------

def _execute(todo, args, client, processes, progress, folder, record):
    """Run the units (``grid.run_tasks``): each unit's rows written to its file as it finishes
    (with ``folder``), else returned in the order the units finish."""
    results = []

    def done(unit, frame):
        if folder is not None:
            store.write_unit(frame, folder / f"unit-{unit['unit']}.csv", record["settings_id"])
        else:
            results.append(frame)

    if todo:
        run_tasks(run_unit, todo, args, client=client, processes=processes, progress=progress,
                  desc="units", unit="unit", done=done)
    return results
