"""In-memory inputs of a report: clusterings given to ``ca.report`` as Python objects are written
to a file beside the report, which the notebook reads like any input file.

``ca.report("agreement", x=labels_a, y=labels_b)`` (lists, arrays, pandas Series),
``ca.report("agreement", data=frame, x="species", y="cluster")`` (two columns of a DataFrame) and
``ca.report("agreement", table=tab)`` (a ContingencyTable, a 2-D array or a DataFrame of counts;
``x=tab`` alone says the same), and for the clusterings report ``ca.report("clusterings",
data=frame, reference="class")`` (a DataFrame, one column per clustering) are read here as the package's functions read them
(``clusteragree.inputs``: the same checks, the same errors, before the notebook starts), then
written into the folder ``NAME-inputs/`` beside the report ``NAME.html``:

* labels and DataFrame columns as ``data.csv``, one row per object, one column per clustering
  (the notebook's ``data_file`` with ``x_column`` and ``y_column``);
* tables as ``table.csv``, row labels in the first column (``table_file``);
* many clusterings (``read_memory_clusterings``) as ``data.csv``, their columns as they were
  (the notebook's ``data_file``; its ``columns`` and ``reference`` name them).

The folder stays with the report: the report's **Data** line names what was given and the
file that holds it, and ``clusteragree report -p data_file=...`` renders the report again.
A file read back must give the table the objects gave (labels whose text forms collide, such
as the strings "01" and "1", do not survive a CSV file): otherwise the report is refused.

>>> given = read_memory_inputs({"x": ["a", "a", "b"], "y": [1, 1, 2]})
>>> given.file, given.parameters
('data.csv', {'x_column': 'x', 'y_column': 'y'})
>>> given.note
'in memory: x, a list of 3 labels; y, a list of 3 labels'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["IN_MEMORY", "SOURCE_PARAMETERS", "MemoryInputs", "read_memory_inputs",
           "read_memory_clusterings", "write_memory_inputs", "publish_memory_inputs",
           "inputs_folder"]

#: The arguments of ``ca.report`` that carry clusterings in memory.
IN_MEMORY = ("x", "y", "data", "table")

#: The notebook parameters that name the clusterings' source; a report that declares them
#: takes in-memory inputs instead.
SOURCE_PARAMETERS = ("dataset", "table_file", "data_file", "x_column", "y_column", "x_file",
                     "y_file")

#: The files written, by kind of input (every one of them is removed before a new one is
#: published, so the folder holds what the report was made from).
FILES = ("data.csv", "table.csv")

#: The most cells of a table written to a CSV file for a report.
MAX_TABLE_CELLS = 10**6


@dataclass(frozen=True)
class MemoryInputs:
    """Clusterings given in memory, read and checked, ready to be written.

    Parameters
    ----------
    table : ContingencyTable or None
        Their contingency table, as ``clusteragree.crosstab`` or ``ContingencyTable`` make it;
        None for many clusterings (``read_memory_clusterings``).
    frame : DataFrame
        What is written: one row per object (labels) or the table of counts.
    file : str
        The file's name, ``data.csv`` or ``table.csv``.
    parameters : dict
        The notebook parameters that read it, but the file's path (``write_memory_inputs``
        adds it).
    note : str
        What was given, in words, for the report's Data line.

    See Also
    --------
    read_memory_inputs : Make one.
    write_memory_inputs : Write it.

    Examples
    --------
    >>> given = read_memory_inputs({"table": [[3, 1], [0, 4]]})
    >>> given.file, given.table.n
    ('table.csv', 8)
    """

    table: object
    frame: pd.DataFrame
    file: str
    parameters: dict = field(default_factory=dict)
    note: str = ""


def _what(obj) -> str:
    """An object as the Data line describes it: "a pandas Series 'species'", "a list"."""
    if isinstance(obj, pd.Series):
        return "a pandas Series" + (f" {obj.name!r}" if obj.name is not None else "")
    if isinstance(obj, np.ndarray):
        return "a numpy array"
    kind = type(obj).__name__
    return f"an {kind}" if kind[:1].lower() in "aeiou" else f"a {kind}"


def _is_labels(obj) -> bool:
    """A vector of labels that can be written as a column: a list, tuple, 1-D array, Series,
    Index or Categorical (not one-hot memberships, not Dask)."""
    if isinstance(obj, (list, tuple)):
        return True
    if isinstance(obj, (np.ndarray, pd.Series, pd.Index, pd.Categorical)):
        return np.ndim(obj) == 1
    return False


def _as_table(obj):
    """A table given in memory as a dense ContingencyTable, its labels and names kept."""
    from ..inputs.crosstab import as_table
    from ..tables import ContingencyTable

    if isinstance(obj, pd.DataFrame):
        names = (obj.index.name or "x", obj.columns.name or "y")
        return ContingencyTable(obj.to_numpy(), obj.index.to_numpy(), obj.columns.to_numpy(),
                                names=tuple(map(str, names)))
    tab = as_table(obj)
    if not tab.dense:
        cells = tab.shape[0] * tab.shape[1]
        if cells > MAX_TABLE_CELLS:
            raise ValueError(f"table: a sparse {tab.shape[0]} x {tab.shape[1]} table has "
                             f"{cells:,} cells, more than a report's table file takes "
                             f"({MAX_TABLE_CELLS:,})")
        tab = tab.to_dense()
    return tab


def _columns(names) -> tuple[str, str]:
    """Two distinct column names for the written file, from the clusterings' names."""
    nx, ny = (str(n) for n in names)
    return (nx, ny) if nx != ny else (f"{nx} (x)", f"{ny} (y)")


def read_memory_inputs(given: dict) -> MemoryInputs:
    """Read clusterings given to ``ca.report`` in memory, as the package's functions read them.

    Parameters
    ----------
    given : dict
        Some of ``x``, ``y``, ``data`` and ``table`` (``IN_MEMORY``): two labellings ``x``
        and ``y`` (lists, arrays, pandas Series: Series are paired by their index);
        ``data`` with two column names ``x`` and ``y``; or one table, ``table`` (or ``x``
        alone): a ContingencyTable, a 2-D array or a DataFrame of counts (its index and
        columns the labels).

    Returns
    -------
    MemoryInputs
        The table, what will be written, the parameters that read it and the Data line's
        words.

    Raises
    ------
    ValueError, TypeError
        Inputs the package refuses (with its messages: they name ``x``, ``y`` or ``data``),
        or an incomplete or contradictory combination.

    See Also
    --------
    write_memory_inputs : Write them beside the report.
    clusteragree.crosstab : The same reading of two labellings.

    Examples
    --------
    >>> frame = pd.DataFrame({"cls": ["a", "a", "b"], "cluster": [1, 2, 2]})
    >>> given = read_memory_inputs({"data": frame, "x": "cls", "y": "cluster"})
    >>> given.parameters
    {'x_column': 'cls', 'y_column': 'cluster'}
    >>> print(given.note)
    in memory: columns cls (x) and cluster (y) of a DataFrame of 3 rows
    """
    from ..inputs.crosstab import as_table, is_table
    from ..inputs.labels import check_label_pair

    unknown = sorted(set(given) - set(IN_MEMORY))
    if unknown:
        raise ValueError(f"unknown in-memory inputs {unknown}; give {', '.join(IN_MEMORY)}")
    x, y, data, table = (given.get(k) for k in IN_MEMORY)
    if table is None and x is not None and y is None and data is None and is_table(x):
        table, x = x, None  # ca.report("agreement", x=tab): one table, as ca.agreement(tab)
    if table is not None:
        if not (x is None and y is None and data is None):
            raise ValueError("give the clusterings either as a table (table=) or as two "
                             "labellings (x=, y=, with data= for column names), not both")
        tab = _as_table(table)
        return MemoryInputs(tab, tab.to_frame(), "table.csv", {},
                            f"in memory: a contingency table ({_what(table)}, "
                            f"{tab.shape[0]} x {tab.shape[1]}, n = {tab.n:,})")
    if x is None or y is None:
        raise ValueError("x and y go together: two labellings of the same objects (or, with "
                         "data=, two of its column names); a table goes alone, as table=")
    tab = as_table(x, y, data=data)  # every check of ca.agreement(x, y, data=data)
    nx, ny = _columns(tab.names)
    if data is not None and isinstance(data, pd.DataFrame) and isinstance(x, str) \
            and isinstance(y, str):
        frame = pd.DataFrame({nx: data[x].to_numpy(), ny: data[y].to_numpy()})
        note = (f"in memory: columns {x} (x) and {y} (y) of a DataFrame of {len(data):,} rows")
    elif data is None and _is_labels(x) and _is_labels(y):
        xs, ys = check_label_pair(x, y)  # Series paired by their index, as in the table
        frame = pd.DataFrame({nx: np.asarray(xs), ny: np.asarray(ys)})
        note = (f"in memory: x, {_what(x)} of {len(frame):,} labels; "
                f"y, {_what(y)} of {len(frame):,} labels")
    else:  # memberships of hard partitions, Dask, mixed: their table is what the report uses
        return MemoryInputs(tab, tab.to_frame(), "table.csv", {},
                            f"in memory: x, {_what(x)}, and y, {_what(y)}, as their "
                            f"contingency table (n = {tab.n:,})")
    return MemoryInputs(tab, frame, "data.csv", {"x_column": nx, "y_column": ny}, note)


def read_memory_clusterings(given: dict) -> MemoryInputs:
    """Read many clusterings given to ``ca.report("clusterings", data=frame)`` in memory.

    Parameters
    ----------
    given : dict
        ``data``: a DataFrame with one row per object and one column per clustering (the
        reference among them); its column names become the file's header, so they must be
        distinct once written as text.

    Returns
    -------
    MemoryInputs
        No table (``table`` None); ``frame`` the columns to write as ``data.csv``.

    Raises
    ------
    ValueError, TypeError
        Another in-memory input (x, y, table), data that is not a DataFrame, fewer than
        three columns (a reference and two clusterings) or no row, column names that
        collide as text.

    See Also
    --------
    read_memory_inputs : Two clusterings, for the agreement report.

    Examples
    --------
    >>> runs = pd.DataFrame({"class": ["a", "a", "b"], "km": [1, 1, 2], "hc": [1, 2, 2]})
    >>> print(read_memory_clusterings({"data": runs}).note)
    in memory: a DataFrame of 3 rows and 3 columns (class, km, hc)
    """
    other = sorted(set(given) - {"data"})
    if other:
        raise ValueError(f"the clusterings report takes its clusterings in memory as data= (a "
                         f"DataFrame, one column per clustering, with columns= and reference= "
                         f"naming them), not {', '.join(other)}")
    data = given.get("data")
    if not isinstance(data, pd.DataFrame):
        raise TypeError(f"data must be a pandas DataFrame with one column per clustering, got "
                        f"{_what(data)}")
    names = [str(c) for c in data.columns]
    if len(set(names)) != len(names):
        raise ValueError(f"data: the column names must be distinct as text, got {names}")
    if data.shape[1] < 3 or data.shape[0] == 0:
        raise ValueError(f"data must hold a reference and at least two clusterings (three "
                         f"columns) of at least one object, got {data.shape[0]} rows and "
                         f"{data.shape[1]} columns")
    frame = pd.DataFrame({n: data[c].to_numpy() for n, c in zip(names, data.columns)})
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    return MemoryInputs(None, frame, "data.csv", {},
                        f"in memory: a DataFrame of {len(frame):,} rows and {len(names)} "
                        f"columns ({shown})")


def _same_partitions(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """Each column of ``b`` (read back) the same partition of the objects as in ``a``, with
    the same missing labels."""
    if list(a.columns) != list(b.columns) or len(a) != len(b):
        return False
    for column in a.columns:
        x, y = a[column], b[column]
        if not np.array_equal(x.isna().to_numpy(), y.isna().to_numpy()):
            return False
        keep = ~x.isna().to_numpy()
        cx = pd.factorize(x[keep])[0]
        cy = pd.factorize(y[keep])[0]
        if not len(set(zip(cx, cy))) == len(set(cx)) == len(set(cy)):
            return False
    return True


def inputs_folder(output: Path) -> Path:
    """The folder beside a report that holds its in-memory inputs: ``NAME-inputs``.

    Parameters
    ----------
    output : path
        The report's path.

    Returns
    -------
    pathlib.Path
        ``reports/agreement.html`` -> ``reports/agreement-inputs``.

    See Also
    --------
    write_memory_inputs : Writes there.

    Examples
    --------
    >>> inputs_folder(Path("reports/agreement.html")).as_posix()
    'reports/agreement-inputs'
    """
    output = Path(output)
    return output.with_name(output.stem + "-inputs")


def _same_table(a, b) -> bool:
    """The same counts under the same labels, labels compared as text."""
    fa, fb = a.to_frame(), b.to_frame()
    for f in (fa, fb):
        f.index, f.columns = f.index.map(str), f.columns.map(str)
    if not (fa.index.is_unique and fa.columns.is_unique and fb.index.is_unique
            and fb.columns.is_unique):
        return False
    if set(fa.index) != set(fb.index) or set(fa.columns) != set(fb.columns):
        return False
    return bool(np.array_equal(fa.to_numpy(), fb.loc[fa.index, fa.columns].to_numpy()))


def write_memory_inputs(inputs: MemoryInputs, folder, shown_as: str | None = None) -> dict:
    """Write in-memory inputs into ``folder`` and return the parameters that read them.

    The file is read back as the notebook will read it; a table other than the one the
    objects gave is refused.

    Parameters
    ----------
    inputs : MemoryInputs
        From ``read_memory_inputs``.
    folder : path
        Where to write (created if missing): the report's runner stages the file in a
        temporary folder and publishes it (``publish_memory_inputs``) with the report.
    shown_as : str, optional
        The folder's name in the Data line (``inputs_folder(output).name``); default the
        name of ``folder``.

    Returns
    -------
    dict
        The notebook's parameters: ``data_file`` with ``x_column`` and ``y_column``, or
        ``table_file``; and ``in_memory``, the Data line's words naming the file.

    Raises
    ------
    ValueError
        The file read back gives another table (e.g. labels "01" and "1" both read as 1).

    See Also
    --------
    read_memory_inputs : What is written.

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp()) / "agreement-inputs"
    >>> params = write_memory_inputs(read_memory_inputs({"x": [0, 0, 1], "y": [1, 1, 0]}),
    ...                              folder)
    >>> sorted(params), Path(params["data_file"]).name
    (['data_file', 'in_memory', 'x_column', 'y_column'], 'data.csv')
    >>> print(params["in_memory"])  # doctest: +NORMALIZE_WHITESPACE
    in memory: x, a list of 3 labels; y, a list of 3 labels; written to
    agreement-inputs/data.csv beside the report
    """
    from .helpers import load_clusterings

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / inputs.file
    if inputs.table is None:  # many clusterings: the notebook reads every label as text
        inputs.frame.to_csv(path, index=False)
        back = pd.read_csv(path, dtype=str)
        if not _same_partitions(inputs.frame, back):
            path.unlink()
            raise ValueError(
                "data: the labels do not survive a CSV file (read back from data.csv, some "
                "column's labels become one, e.g. 1 and 1.0, or a label became missing): give "
                "labels whose text tells them apart")
        return {"data_file": str(path.resolve()),
                "in_memory": f"{inputs.note}; written to {shown_as or folder.name}/"
                             f"{inputs.file} beside the report"}
    is_table = inputs.file == "table.csv"
    inputs.frame.to_csv(path, index=is_table)
    key = "table_file" if is_table else "data_file"
    params = {key: str(path.resolve()), **inputs.parameters}
    back, _ = load_clusterings(**params)
    if not _same_table(back, inputs.table):
        path.unlink()
        raise ValueError(
            f"{'table' if is_table else 'x and y'}: the labels do not survive a CSV file (read "
            f"back from {inputs.file} they are text: labels such as '01' and '1' become one, "
            "and dates, times and other objects come back as other labels): give labels "
            "whose text tells them apart, e.g. strings such as 'c01' (labels.astype(str))")
    params["in_memory"] = (f"{inputs.note}; written to {shown_as or folder.name}/{inputs.file} "
                           "beside the report")
    return params


def publish_memory_inputs(staged, folder) -> Path:
    """Move a staged input file into the folder beside its report, in place of the earlier
    report's input files (``FILES``).

    Parameters
    ----------
    staged : path
        The file ``write_memory_inputs`` wrote.
    folder : path
        ``inputs_folder(output)`` (created if missing).

    Returns
    -------
    pathlib.Path
        The file's new path.

    See Also
    --------
    write_memory_inputs : Writes the staged file.

    Examples
    --------
    >>> import tempfile
    >>> staged = Path(tempfile.mkdtemp()) / "data.csv"
    >>> _ = staged.write_text("x,y\\n0,1\\n")
    >>> target = Path(tempfile.mkdtemp()) / "r-inputs"
    >>> publish_memory_inputs(staged, target).relative_to(target.parent).as_posix()
    'r-inputs/data.csv'
    """
    import shutil

    staged, folder = Path(staged), Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        (folder / name).unlink(missing_ok=True)
    return Path(shutil.move(str(staged), str(folder / staged.name)))
