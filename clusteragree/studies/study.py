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

With ``run(..., out=FOLDER)`` the folder holds one study: ``study.json`` records its settings
(a fingerprint of the design, the algorithms, indices, n_sim, model, seed and package version)
when it starts, and each unit's rows go, as the unit finishes, to ``unit-<row>-<algorithm>.csv``
with a ``settings_id`` column that ties them to that record. A re-run with the same settings
resumes; one with other settings is refused, naming them. ``load_results(FOLDER)`` reads the
folder back with the results' dtypes, or any CSV reader does (R:
``read.csv(f, colClasses = c(scenario = "character"))``).

{ref:amorim2015}, Ch.4-5 (the design, weighted cross-validation, IADJUST).

>>> d = quick_design(seed=1)
>>> len(d), sorted(d["k"].unique().tolist())
(12, [2, 3])
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from .._docs import fill, fill_doc
from .._validate import check_bool, check_choice, check_positive_int
from ..indices import resolve_indices
from ..inference.results import FLOAT_COLUMNS, INT_COLUMNS, RESULT_COLUMNS
from .grid import run_tasks

__doc__ = fill(__doc__)

__all__ = ["run", "run_unit", "units", "quick_design", "load_results", "THESIS_RESULTS",
           "ALGORITHMS", "DEFAULT_INDICES", "KEYS", "RECORD", "StudyWarning"]

ALGORITHMS = ("kmeans", "em")
#: The thesis' paired indices, ARI and the information indices it adjusts (MIH = nmi_joint).
DEFAULT_INDICES = ("paired", "adjusted_rand", "nmi_min", "nmi_sqrt", "nmi_sum", "nmi_joint",
                   "variation_of_information")
#: The columns that identify a result row, before the result schema's columns.
KEYS = ("unit", "scenario", "balance", "k", "p", "n", "separation", "rep", "algorithm",
        "overlap", "table", "index")
_TABLES = ("external", "stability")


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


# -- the study folder ---------------------------------------------------------------------------
#
# FOLDER/study.json             the study's settings (design fingerprint, algorithms, indices,
#                               n_sim, model, seed, package version) and their id
# FOLDER/unit-0007-em.csv       one unit's result rows (``run_unit``) and a settings_id column

#: The record of a study folder's settings.
RECORD = "study.json"
_UNIT_FILE = re.compile(r"unit-(?P<unit>.+)\.csv")
_DESIGN_KEYS = ("scenario", "balance", "k", "p", "n", "separation", "rep", "seed")
_SETTINGS = ("design", "algorithms", "indices", "n_sim", "model", "seed", "clusteragree_version")
_TEXT = ("unit", "scenario", "balance", "separation", "algorithm", "table", "index",
         "ci_closed", "ci_method", "beyond_floor_method", "alternative", "kind", "model",
         "method", "test_group")
_UNIT_COLUMNS = (*KEYS, *RESULT_COLUMNS, "settings_id")
# pandas 3 reads floats back exactly by default (and deprecates the option)
_READ_FLOATS = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}


class StudyWarning(UserWarning):
    """A study folder holds a damaged file, a file that is no unit of its study, or misses
    units: the message names the files."""


def _schema() -> dict:
    """The dtype of every column of a study's results: the keys' ints and floats, the result
    schema's nullable Float64 / Int64, and pandas' default string dtype for text (``str`` in
    pandas 3, ``object`` before)."""
    text = pd.Series(["x"]).dtype
    types = {c: text for c in _TEXT}
    types.update({c: "int64" for c in ("k", "p", "n", "rep")}, overlap="float64")
    types.update({c: "Float64" for c in FLOAT_COLUMNS})
    types.update({c: "Int64" for c in INT_COLUMNS})
    return types


def _restore(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame with the results' dtypes (``_schema``), whatever a CSV file or a unit with
    undefined indices made of them: text stays text (NA as NA), ints stay ints."""
    frame = frame.copy()
    for col, dtype in _schema().items():
        if col not in frame.columns:
            continue
        if col in _TEXT:
            frame[col] = pd.Series([np.nan if pd.isna(v) else str(v) for v in frame[col]],
                                   index=frame.index, dtype=dtype)
        else:
            frame[col] = frame[col].astype(dtype)
    return frame


def _read_csv(source) -> pd.DataFrame:
    """A CSV file of results, with the results' dtypes; only empty fields are NA."""
    numeric = {c: t for c, t in _schema().items() if c not in _TEXT}
    text = {c: object for c in (*_TEXT, "settings_id")}
    frame = pd.read_csv(source, dtype={**numeric, **text},
                        keep_default_na=False, na_values=[""], **_READ_FLOATS)
    return _restore(frame)


def _order(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.sort_values(["unit", "table"], kind="stable").reset_index(drop=True)


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


def _settings_id(settings: dict) -> str:
    text = json.dumps(settings, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _unit_ids(settings: dict) -> list[str]:
    """The unit ids of a study, in ``units``' order."""
    return [f"{pos:04d}-{a}" for pos in range(settings["design"]["rows"])
            for a in settings["algorithms"]]


def _show(key: str, value) -> str:
    if key == "design":
        return f"{value['rows']} rows (sha256 {value['sha256'][:12]})"
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def _differences(have: dict, want: dict) -> list[str]:
    return [f"{key}: the folder has {_show(key, have.get(key))}, this run asks "
            f"{_show(key, want[key])}" for key in _SETTINGS if have.get(key) != want[key]]


def _write(path: Path, write) -> None:
    """Write atomically: ``write(staged_path)``, then rename; a file exists only when
    complete."""
    fd, staged = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    os.close(fd)
    try:
        write(staged)
        os.replace(staged, path)
    except BaseException:
        Path(staged).unlink(missing_ok=True)
        raise


def _write_unit(frame: pd.DataFrame, path: Path, settings_id: str) -> None:
    frame = frame.assign(settings_id=settings_id)
    _write(path, lambda staged: frame.to_csv(staged, index=False, lineterminator="\n"))


def _new_record(settings: dict) -> dict:
    return {"clusteragree_study": 1,
            "settings_id": _settings_id(settings),
            "settings": settings,
            "units": len(_unit_ids(settings)),
            "unit_files": "unit-<design row>-<algorithm>.csv: the unit's result rows "
                          "(clusteragree.studies.study.run_unit) and its settings_id",
            "load": "clusteragree.studies.study.load_results(FOLDER)"}


def _read_record(folder: Path) -> dict:
    """The folder's record, checked: a damaged one is named, never guessed at."""
    path = folder / RECORD
    fix = ("restore it, or start over with overwrite=True (command line: --fresh), which "
           f"deletes {RECORD} and the unit files")
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path} cannot be read ({exc}); {fix}") from None
    settings = record.get("settings") if isinstance(record, dict) else None
    if (not isinstance(settings, dict) or any(k not in settings for k in _SETTINGS)
            or record.get("settings_id") != _settings_id(settings)):
        raise ValueError(f"{path} is damaged or was edited (its settings do not match its "
                         f"settings_id); {fix}")
    return record


def _study_files(folder: Path) -> list[Path]:
    """The files a study writes into its folder (and earlier versions' ``.pkl`` units): the
    only files ``overwrite=True`` deletes."""
    names = (RECORD, "unit-*.csv", "unit-*.pkl", f".{RECORD}.*", ".unit-*")
    return sorted({p for pattern in names for p in folder.glob(pattern) if p.is_file()})


def _open_folder(folder: Path, settings: dict, overwrite: bool) -> dict:
    """The folder's record for a run with ``settings``: created for a new study; refused,
    naming each differing setting, for another study's folder."""
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"out must be a folder; {str(folder)!r} is a file")
    folder.mkdir(parents=True, exist_ok=True)
    if overwrite:
        for path in _study_files(folder):
            path.unlink()
    if (folder / RECORD).exists():
        record = _read_record(folder)
        differences = _differences(record["settings"], settings)
        if differences:
            raise ValueError(
                f"out={str(folder)!r} holds a study with other settings:\n  "
                + "\n  ".join(differences)
                + "\nResume it with the folder's settings, write to another folder, or start "
                  "over with overwrite=True (command line: --fresh), which deletes its "
                  f"{RECORD} and unit files.")
        return record
    strays = [p.name for p in folder.glob("unit-*") if p.is_file()]
    if strays:
        raise ValueError(
            f"out={str(folder)!r} holds unit files ({_names(sorted(strays))}) but no "
            f"{RECORD}, so what made them is unknown; write to another folder, or start over "
            "with overwrite=True (command line: --fresh), which deletes them")
    record = _new_record(settings)
    _write(folder / RECORD, lambda staged: Path(staged).write_text(
        json.dumps(record, indent=2) + "\n", encoding="utf-8"))
    return record


def _names(items, limit: int = 10) -> str:
    items = list(items)
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def _check_unit(path: Path, unit: str, record: dict):
    """``(frame, None)`` for a sound unit file of this study, ``(None, why)`` otherwise."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        return None, f"cannot be read: {exc.strerror}"
    if not raw:
        return None, "empty"
    if not raw.endswith(b"\n"):
        return None, "truncated: its last line is cut"
    try:
        frame = _read_csv(io.BytesIO(raw))
    except (ValueError, TypeError, UnicodeDecodeError) as exc:
        return None, f"unreadable: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
    if list(frame.columns) != list(_UNIT_COLUMNS):
        return None, "not a unit file: other columns"
    ids = set(frame["settings_id"].astype(object))
    if ids != {record["settings_id"]}:
        return None, (f"another study's results: settings_id {_names(sorted(map(str, ids)))}, "
                      f"this folder's is {record['settings_id']}")
    if set(frame["unit"].astype(object)) != {unit}:
        return None, f"holds the rows of {_names(sorted(set(map(str, frame['unit']))))}"
    expected = [(t, i) for t in _TABLES for i in record["settings"]["indices"]]
    found = list(zip(frame["table"], frame["index"]))
    if found != expected:
        return None, f"incomplete: {len(found)} of the {len(expected)} result rows"
    if frame[list(KEYS)].isna().any().any():
        return None, "a key is missing"
    return frame.drop(columns="settings_id"), None


def _scan(folder: Path, record: dict):
    """Read a study folder: the sound unit files by unit id; the damaged ones (a unit of
    this study whose file is unreadable, truncated, incomplete or another study's) and the
    foreign ones (named like a unit, but no unit of this study), each with the reason."""
    wanted = set(_unit_ids(record["settings"]))
    good, damaged, foreign = {}, [], []
    for path in sorted(p for p in folder.glob("unit-*") if p.is_file()):
        match = _UNIT_FILE.fullmatch(path.name)
        if match is None:
            foreign.append((path.name, "not a unit file of a study (unit-<id>.csv)"))
        elif match["unit"] not in wanted:
            rows = record["settings"]["design"]["rows"]
            algorithms = ", ".join(record["settings"]["algorithms"])
            foreign.append((path.name, f"this study has no unit {match['unit']}: its units are "
                                       f"design rows 0000 to {rows - 1:04d} x {algorithms}"))
        else:
            frame, why = _check_unit(path, match["unit"], record)
            if frame is None:
                damaged.append((path.name, why))
            else:
                good[match["unit"]] = frame
    return good, damaged, foreign


def _warn_scan(folder: Path, damaged, foreign, recompute: bool) -> None:
    if damaged:
        then = "are computed again" if recompute else "are left out"
        warnings.warn(
            f"study folder {str(folder)!r}: {len(damaged)} unit file(s) are damaged or not of "
            f"this study and {then}: "
            + "; ".join(f"{name} ({why})" for name, why in damaged[:10])
            + (f"; and {len(damaged) - 10} more" if len(damaged) > 10 else ""),
            StudyWarning, stacklevel=3)
    if foreign:
        warnings.warn(
            f"study folder {str(folder)!r}: {len(foreign)} file(s) are named like units but "
            "are no unit of this study, and are ignored (left as they are): "
            + "; ".join(f"{name} ({why})" for name, why in foreign[:10])
            + (f"; and {len(foreign) - 10} more" if len(foreign) > 10 else ""),
            StudyWarning, stacklevel=3)


def _gather(good: dict, record: dict) -> pd.DataFrame:
    if not good:
        empty = pd.DataFrame({c: pd.Series(dtype=object) for c in (*KEYS, *RESULT_COLUMNS)})
        frame = _restore(empty)
    else:
        frame = _order(pd.concat([good[u] for u in sorted(good)], ignore_index=True))
    frame.attrs["study"] = {"settings": record["settings"],
                            "settings_id": record["settings_id"],
                            "units": record["units"], "finished": len(good)}
    return frame


#: The shipped results of the thesis' full design (``load_results("thesis")``).
THESIS_RESULTS = "thesis_study.csv.gz"


def load_results(source) -> pd.DataFrame:
    """A study's results, checked, with the results' dtypes.

    Parameters
    ----------
    source : str or path
        ``"thesis"`` (the shipped full-design study, in the package's ``data/``), a study folder
        (``run(..., out=FOLDER)``), or a CSV file of results (``clusteragree study -o FILE``).

    Returns
    -------
    DataFrame
        One row per unit, table and index (columns ``KEYS`` and the result schema), sorted by
        unit and table; text columns are text (``scenario`` too), the keys' counts are
        ``int64``, the results ``Float64`` / ``Int64`` with NA where a value is undefined.
        From a folder, ``attrs["study"]`` holds its settings and how many units are finished.

    Raises
    ------
    FileNotFoundError
        No such file or folder, or a folder without ``study.json``.
    ValueError
        A damaged ``study.json``.

    Warns
    -----
    StudyWarning
        Naming every unit file of the folder that is damaged or another study's (left out),
        every file named like a unit that is no unit of this study (ignored), and how many
        units are not finished.

    See Also
    --------
    run : Run a study.
    clusteragree.studies.study_results : Its summaries in the thesis' tables.

    Examples
    --------
    >>> res = load_results("thesis")                 # the full design, k-means and EM
    >>> res.shape, sorted(res["algorithm"].unique())
    ((30240, 27), ['em', 'kmeans'])
    """
    from ..datasets import data_dir

    if isinstance(source, str) and source == "thesis":
        source = data_dir() / THESIS_RESULTS
    path = Path(source)
    if path.is_dir():
        if not (path / RECORD).is_file():
            raise FileNotFoundError(
                f"{str(path)!r} is not a study folder: it has no {RECORD} (a folder written "
                "by clusteragree.studies.study.run(..., out=FOLDER) or clusteragree study --out FOLDER)")
        record = _read_record(path)
        good, damaged, foreign = _scan(path, record)
        _warn_scan(path, damaged, foreign, recompute=False)
        missing = record["units"] - len(good)
        if missing:
            warnings.warn(f"study folder {str(path)!r}: {missing} of its {record['units']} "
                          "units are not finished; run the study again with the same settings "
                          "and out= this folder to finish them", StudyWarning, stacklevel=2)
        return _gather(good, record)
    if path.is_file():
        return _order(_read_csv(path))
    raise FileNotFoundError(f"study results: no such file or folder {str(path)!r}")


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
        record = _open_folder(folder, settings, overwrite)
        finished, damaged, foreign = _scan(folder, record)
        _warn_scan(folder, damaged, foreign, recompute=True)
        todo = [u for u in todo if u["unit"] not in finished]
    results = _execute(todo, (names, n_sim, model, seed), client, processes, progress, folder,
                       record)
    if folder is not None:
        good, damaged, foreign = _scan(folder, record)
        _warn_scan(folder, damaged, [], recompute=False)  # only if damaged since the start
        return _gather(good, record)
    if not results:
        return pd.DataFrame()
    return _order(_restore(pd.concat(results, ignore_index=True)))


# -- executing the units ------------------------------------------------------------------------

def _execute(todo, args, client, processes, progress, folder, record):
    """Run the units (``grid.run_tasks``): each unit's rows written to its file as it finishes
    (with ``folder``), else returned in the order the units finish."""
    results = []

    def done(unit, frame):
        if folder is not None:
            _write_unit(frame, folder / f"unit-{unit['unit']}.csv", record["settings_id"])
        else:
            results.append(frame)

    if todo:
        run_tasks(run_unit, todo, args, client=client, processes=processes, progress=progress,
                  desc="units", unit="unit", done=done)
    return results
