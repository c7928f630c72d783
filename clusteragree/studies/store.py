"""The results store of a study: its folder, one result file per unit, written as each unit
finishes, then read back, checked and resumed.

With ``run(..., out=FOLDER)`` (``clusteragree.studies.study``) the folder holds one study:
``study.json`` records its settings (a fingerprint of the design, the algorithms, indices, n_sim,
model, seed and package version) when it starts, and each unit's rows go, as the unit finishes,
to ``unit-<row>-<algorithm>.csv`` with a ``settings_id`` column that ties them to that record. A
re-run with the same settings resumes; one with other settings is refused, naming them.
``load_results(FOLDER)`` reads the folder back with the results' dtypes, or any CSV reader does
(R: ``read.csv(f, colClasses = c(scenario = "character"))``).

The runner (``clusteragree.studies.study.run``) opens the folder (``open_folder``), finds the
sound units (``scan``, ``warn_scan``), writes each unit as it finishes (``write_unit``) and
reads the study back (``gather``; ``order`` and ``restore`` for a run without a folder).
``clusteragree.studies.study`` exports the user's names (``load_results``, ``StudyWarning``,
``KEYS``, ``RECORD``, ``THESIS_RESULTS``) as before.
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

from ..inference.results import FLOAT_COLUMNS, INT_COLUMNS, RESULT_COLUMNS

__all__ = ["load_results", "StudyWarning", "KEYS", "RECORD", "THESIS_RESULTS", "open_folder",
           "scan", "warn_scan", "write_unit", "gather", "order", "restore"]

#: The columns that identify a result row, before the result schema's columns.
KEYS = ("unit", "scenario", "balance", "k", "p", "n", "separation", "rep", "algorithm",
        "overlap", "table", "index")
#: The tables of every unit (``run_unit``), in their order in its file.
_TABLES = ("external", "stability")


# -- the study folder ---------------------------------------------------------------------------
#
# FOLDER/study.json             the study's settings (design fingerprint, algorithms, indices,
#                               n_sim, model, seed, package version) and their id
# FOLDER/unit-0007-em.csv       one unit's result rows (``run_unit``) and a settings_id column

#: The record of a study folder's settings.
RECORD = "study.json"
_UNIT_FILE = re.compile(r"unit-(?P<unit>.+)\.csv")
#: What a study's record holds in its settings (``clusteragree.studies.study.run`` makes them).
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


def restore(frame: pd.DataFrame) -> pd.DataFrame:
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
    return restore(frame)


def order(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.sort_values(["unit", "table"], kind="stable").reset_index(drop=True)


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


def write_unit(frame: pd.DataFrame, path: Path, settings_id: str) -> None:
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


def open_folder(folder: Path, settings: dict, overwrite: bool) -> dict:
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


def scan(folder: Path, record: dict):
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


def warn_scan(folder: Path, damaged, foreign, recompute: bool) -> None:
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


def gather(good: dict, record: dict) -> pd.DataFrame:
    if not good:
        empty = pd.DataFrame({c: pd.Series(dtype=object) for c in (*KEYS, *RESULT_COLUMNS)})
        frame = restore(empty)
    else:
        frame = order(pd.concat([good[u] for u in sorted(good)], ignore_index=True))
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
                "by clusteragree.studies.study.run(..., out=FOLDER) or clusteragree study "
                "--out FOLDER)")
        record = _read_record(path)
        good, damaged, foreign = scan(path, record)
        warn_scan(path, damaged, foreign, recompute=False)
        missing = record["units"] - len(good)
        if missing:
            warnings.warn(f"study folder {str(path)!r}: {missing} of its {record['units']} "
                          "units are not finished; run the study again with the same settings "
                          "and out= this folder to finish them", StudyWarning, stacklevel=2)
        return gather(good, record)
    if path.is_file():
        return order(_read_csv(path))
    raise FileNotFoundError(f"study results: no such file or folder {str(path)!r}")
