"""Display helpers shared by the report notebooks (the package's ``notebooks/``) and by the
results' ``_repr_html_``: one look for every table and figure of a report.

* ``setup()``: the notebooks' first call: seaborn's theme, figure size and resolution.
* ``table(frame, caption)``: a DataFrame as a captioned HTML table with numbers to 4 significant
  digits and NA for missing values; the caption names the null model and method.
* ``significant(x, digits)``: one number as text to ``digits`` significant digits.
* ``session_info(seed)``: the footer of every report, like R's ``sessionInfo()``: versions, the
  random generator and the seed.
* ``table_of_tests``, ``table_of_intervals``, ``table_of_laws`` (from ``reports.results``): a
  results frame as tables.
* ``reading(results, models)``: the agreement report's closing text, which follows the
  alternative each index was tested against.

>>> significant(0.0123456), significant(float("nan"))
('0.01235', 'NA')
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._display import (DIGITS, FIGURE_DPI, PNG_METADATA, format_log_pvalue, format_pvalue,
                        significant, table)
from ..inference.results import BEYOND_FLOOR_METHODS
from .results import (interval_text, table_of_intervals, table_of_laws, method_text,
                      pvalue_text, table_of_tests)

__all__ = ["setup", "table", "significant", "DIGITS", "load_clusterings",
           "load_clusterings_frame", "session_info",
           "pvalue_text", "method_text", "interval_text", "table_of_tests", "table_of_laws",
           "table_of_intervals",
           "reading", "adjusted_widths", "EXPECTED", "LEVEL", "PAPER_WIDTH", "PAPER_FONT",
           "FIGURE_DPI", "fit_title", "load_labels", "noise_policy", "noise_sentence",
           "noise_convention", "read_features", "RANDOM_MODELS_MAX_N",
           "random_models_left_out"]

#: The width of a printed report's text, in inches: A4 less the print stylesheet's 12 mm margins
#: (186 mm; Letter's is wider). A figure at most this wide prints at its own size (the
#: stylesheet gives images ``FIGURE_DPI`` pixels per inch), so its type prints at the sizes set.
PAPER_WIDTH = 7.3

#: The smallest type on a printed figure, in points: tick labels, annotations.
PAPER_FONT = 7

#: The packages whose versions a report's footer names, in that order.
SESSION_PACKAGES = ("clusteragree", "numpy", "scipy", "pandas", "statsmodels")


def setup():
    """Configure a report notebook: seaborn's theme, figure sizes and resolution.

    Seaborn's "whitegrid" theme, figures as wide as a printed page's text (``PAPER_WIDTH``),
    PNG figures embedded at ``FIGURE_DPI`` (the print stylesheet prints them at that many
    pixels per inch: at their own size), and pandas' display precision (``DIGITS``).
    Warnings are not hidden: a report with a warning fails its test.

    See Also
    --------
    table : Results as a captioned HTML table.

    Examples
    --------
    >>> import matplotlib as mpl
    >>> with mpl.rc_context(), pd.option_context("display.precision", 6):  # restored after
    ...     setup()
    ...     mpl.rcParams["figure.dpi"], pd.get_option("display.precision")
    (110.0, 4)
    """
    import matplotlib as mpl
    import seaborn as sns

    sns.set_theme(context="notebook", style="whitegrid", font_scale=0.9)
    mpl.rcParams.update({"figure.figsize": (PAPER_WIDTH, 4.0), "figure.dpi": FIGURE_DPI,
                         "savefig.dpi": FIGURE_DPI,
                         "figure.autolayout": False, "axes.titlesize": "medium",
                         "svg.hashsalt": "clusteragree"})  # SVG ids not random
    pd.set_option("display.precision", DIGITS)
    _figures_without_metadata()


def _figures_without_metadata():
    """Figures shown in a notebook as PNG without the "Software" key (matplotlib's version):
    the same figure gives the same bytes. Nothing outside IPython."""
    try:
        from IPython import get_ipython
        from matplotlib_inline.config import InlineBackend
    except ImportError:  # pragma: no cover
        return
    shell = get_ipython()
    if shell is not None and hasattr(shell, "display_formatter"):
        # the inline backend's own settings: it re-applies them when pyplot draws first
        InlineBackend.instance(parent=shell).print_figure_kwargs = {
            "bbox_inches": "tight", "metadata": PNG_METADATA}


def session_info(seed):
    """The footer of a report, like R's ``sessionInfo()``: what made its numbers.

    Python's version and the versions of clusteragree, numpy, scipy, pandas and statsmodels,
    the random generator (numpy's PCG64, through ``numpy.random.default_rng``) and the seed
    the report used. No clock time: the same notebook with the same parameters renders to
    the same bytes.

    Parameters
    ----------
    seed : int
        The report's seed.

    Returns
    -------
    IPython.display.Markdown
        A rule and one paragraph, shown as the last output of a notebook cell.

    See Also
    --------
    setup : The notebooks' first call; this is their last.

    Examples
    --------
    >>> text = session_info(7).data
    >>> "PCG64" in text and "seed 7" in text and "numpy " + np.__version__ in text
    True
    """
    import platform
    from importlib.metadata import PackageNotFoundError, version

    import numpy as np
    from IPython.display import Markdown

    def _version(name):
        if name == "clusteragree":
            from .._version import __version__

            return __version__
        try:
            return version(name)
        except PackageNotFoundError:  # pragma: no cover
            return "not installed"

    generator = type(np.random.default_rng(0).bit_generator).__name__
    packages = ", ".join(f"{name} {_version(name)}" for name in SESSION_PACKAGES)
    return Markdown(
        "---\n\n"
        f"**Session info** (like R's `sessionInfo()`): Python {platform.python_version()}; "
        f"{packages}. Random numbers: numpy's {generator} generator "
        f"(`numpy.random.default_rng`), seed {seed}.")


#: What each input file of a report must hold, in the words of its errors.
EXPECTED = {
    "table_file": "a CSV contingency table in UTF-8: row labels in the first column, column "
                  "labels in the header row, whole-number counts in the cells",
    "data_file": "a CSV file in UTF-8 with a header row naming the columns and one row per "
                 "object",
    "x_file": "a UTF-8 text file with one label per line",
    "y_file": "a UTF-8 text file with one label per line",
    "features_file": "a CSV file in UTF-8 with a header row naming the measurements and one "
                     "row per object, in the order of the clusterings",
}


def _refuse(name: str, path, problem: str) -> ValueError:
    """The error of an input file: the parameter, the file, what is wrong and what is
    expected."""
    return ValueError(f"{name} {str(path)!r}: {problem}; expected {EXPECTED[name]}")


def _text(path: str, name: str) -> str:
    """A file's text, refused by name if it is binary or not UTF-8."""
    p = _readable(path, name)
    raw = p.read_bytes()
    if b"\x00" in raw[:65536]:
        raise _refuse(name, p, "it is a binary file, not text (a spreadsheet? save it as CSV)")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise _refuse(name, p, f"it is not UTF-8 text (byte 0x{raw[exc.start]:02x} on line "
                      f"{line}; Latin-1 or another encoding? save it as UTF-8)") from None


def _read_csv(path: str, name: str, **options) -> pd.DataFrame:
    """A CSV input file as a frame, every way it can fail named by parameter and file."""
    import io

    text = _text(path, name)
    p = _readable(path, name)
    if not text.strip():
        raise _refuse(name, p, "the file is empty")
    try:
        frame = pd.read_csv(io.StringIO(text), **options)
    except (pd.errors.ParserError, ValueError) as exc:
        raise _refuse(name, p, f"it cannot be read as CSV ({str(exc).strip()})") from None
    if frame.shape[0] == 0:
        raise _refuse(name, p, "it has a header row and no rows below it")
    return frame


def _read_table(path: str):
    """A ``table_file`` as a ContingencyTable: the counts checked, cell by cell, by name."""
    from ..tables import ContingencyTable

    p = _readable(path, "table_file")
    frame = _read_csv(path, "table_file", index_col=0)
    if frame.shape[1] == 0:
        raise _refuse("table_file", p, "it has one column only (the row labels), no counts")
    for column in frame.columns:
        values = pd.to_numeric(frame[column], errors="coerce")
        bad = frame[column][values.isna()]
        if len(bad):
            raise _refuse("table_file", p, f"column {column!r} holds "
                          f"{'an empty cell' if pd.isna(bad.iloc[0]) else repr(bad.iloc[0])} "
                          f"in row {bad.index[0]!r}, not a count")
    names = (frame.index.name or "x", frame.columns.name or "y")
    try:
        return ContingencyTable(frame.to_numpy(), frame.index.to_numpy(),
                                frame.columns.to_numpy(), names=names)
    except (ValueError, TypeError) as exc:
        raise _refuse("table_file", p, str(exc)) from None


def _read_labels(path: str, name: str) -> list[str]:
    """One label per line; a blank line inside the file is an error (nothing is dropped)."""
    lines = _text(path, name).splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    blank = [i + 1 for i, line in enumerate(lines) if not line.strip()]
    if not lines or blank:
        raise _refuse(name, _readable(path, name),
                      f"line {blank[0]} is blank" if blank else "the file is empty")
    return [line.strip() for line in lines]


def _name(path: str) -> str:
    """A file as a report names it: its name, without the folders."""
    from pathlib import Path

    return Path(path).name


def _readable(path: str, name: str):
    from pathlib import Path

    p = Path(path).expanduser()
    if p.is_dir():  # "no such file" would send the user looking for a file that is there
        raise IsADirectoryError(f"{name} {str(p)!r} is a directory, not a file; expected "
                                f"{EXPECTED[name]}")
    if not p.is_file():
        raise FileNotFoundError(f"{name}: no such file {str(p)!r}")
    return p


def load_clusterings(dataset: str = "statlog_em", table_file: str = "", data_file: str = "",
                     x_column: str = "", y_column: str = "", x_file: str = "",
                     y_file: str = ""):
    """The contingency table of a report's two clusterings, from exactly one source.

    * ``table_file``: a CSV contingency table (row labels in the first column, column labels
      in the header);
    * ``data_file`` with ``x_column`` and ``y_column``: a CSV with one row per object;
    * ``x_file`` and ``y_file``: two text files with one label per line;
    * otherwise the built-in table ``dataset`` (``ca.load_dataset``).

    Parameters
    ----------
    dataset : str, default "statlog_em"
        A table of ``ca.list_datasets()``, used when no file is given.
    table_file : str, optional
        A CSV contingency table: row labels in the first column, column labels in the
        header.
    data_file : str, optional
        A CSV with one row per object; the clusterings are its columns ``x_column`` and
        ``y_column``.
    x_column, y_column : str, optional
        The columns of ``data_file`` holding the two clusterings (x: the table's rows).
    x_file, y_file : str, optional
        Two text files with one label per line (no blank line).

    Returns
    -------
    table : ContingencyTable
        The table of the two clusterings.
    source : str
        A phrase naming where the table came from: files by their names, not their paths
        (the report is shared; the folders it was made in are not).

    Raises
    ------
    ValueError, FileNotFoundError
        More than one source, a missing file, or a file that cannot be read: empty, binary,
        not UTF-8, not CSV, a header without rows, a cell that is not a count, a column
        that is not there; the message names the parameter, the file and what it must hold
        (``EXPECTED``).

    See Also
    --------
    clusteragree.load_dataset : The built-in tables.
    clusteragree.crosstab : The table of two labellings.

    Examples
    --------
    >>> tab, source = load_clusterings()
    >>> tab.shape, source
    ((4, 4), 'built-in data set statlog_em: Statlog (Vehicle Silhouettes) classes x EM clusters, n = 846 (Amorim 2015, Ch.4 Table 1)')
    """
    from ..datasets import DATASETS, load_dataset
    from ..inputs import crosstab

    given = [k for k, v in (("table_file", table_file), ("data_file", data_file),
                            ("x_file / y_file", x_file or y_file)) if v]
    if len(given) > 1:
        raise ValueError(f"give one source of clusterings, got {' and '.join(given)}")
    if table_file:
        return _read_table(table_file), f"the contingency table in {_name(table_file)}"
    if data_file:
        if not (x_column and y_column):
            raise ValueError("data_file needs x_column and y_column: the two columns holding "
                             "the clusterings")
        frame = _read_csv(data_file, "data_file")
        for key, column in (("x_column", x_column), ("y_column", y_column)):
            if column not in frame.columns:
                raise ValueError(f"{key} {column!r} is not a column of data_file "
                                 f"{str(_readable(data_file, 'data_file'))!r}; its columns: "
                                 f"{', '.join(map(str, frame.columns))}")
        return (crosstab(x_column, y_column, data=frame),
                f"columns {x_column} (rows) and {y_column} (columns) of {_name(data_file)}")
    if x_file or y_file:
        if not (x_file and y_file):
            raise ValueError("x_file and y_file go together: one file of labels for each "
                             "clustering")
        x, y = _read_labels(x_file, "x_file"), _read_labels(y_file, "y_file")
        if len(x) != len(y):
            raise ValueError(f"x_file has {len(x)} labels and y_file {len(y)}: they must label "
                             "the same objects, one per line")
        from pathlib import Path

        tab = crosstab(pd.Series(x, name=Path(x_file).stem), pd.Series(y, name=Path(y_file).stem))
        return tab, f"the labels in {_name(x_file)} (rows) and {_name(y_file)} (columns)"
    return load_dataset(dataset), f"built-in data set {dataset}: {DATASETS[dataset][2]}"


def load_labels(dataset: str = "statlog_em", table_file: str = "", data_file: str = "",
                x_column: str = "", y_column: str = "", x_file: str = "", y_file: str = ""):
    """The two clusterings' labels of the agreement report, where its source has them.

    The same sources as ``load_clusterings`` (and checked by it first): ``data_file`` with
    ``x_column`` and ``y_column``, or ``x_file`` and ``y_file``. A contingency table (the
    built-in ``dataset`` or ``table_file``) has no objects, so no labels: None.

    Parameters
    ----------
    dataset : str, default "statlog_em"
        A built-in table (it has no labels).
    table_file : str, optional
        A CSV contingency table (it has no labels).
    data_file : str, optional
        A CSV with one row per object.
    x_column, y_column : str, optional
        The columns of ``data_file`` holding the two clusterings.
    x_file, y_file : str, optional
        Two text files with one label per line.

    Returns
    -------
    tuple of two Series, or None
        x and y, named after their columns (or their files' stems); a file's labels as text.

    See Also
    --------
    load_clusterings : The same sources' table (it checks them).
    noise_policy : The policy the labels are compared under.

    Examples
    --------
    >>> load_labels() is None                   # the built-in Statlog table
    True
    """
    from pathlib import Path

    if data_file:
        frame = _read_csv(data_file, "data_file")
        return frame[x_column], frame[y_column]
    if x_file and y_file:
        return (pd.Series(_read_labels(x_file, "x_file"), name=Path(x_file).stem),
                pd.Series(_read_labels(y_file, "y_file"), name=Path(y_file).stem))
    return None


def noise_policy(noise, *labellings):
    """A report's ``noise`` parameter as the ``clusteragree.Noise`` its calls take.

    The noise label is -1; where the labels are text (a file of labels, a CSV read as text)
    and hold the text "-1" but not the number, it is "-1", which ``Noise(policy)`` (label -1,
    a number) would not match.

    Parameters
    ----------
    noise : {"cluster", "singletons", "drop"} or None
        The report's parameter; None (the labels as given) gives None.
    *labellings : Series
        The clusterings the policy applies to.

    Returns
    -------
    Noise or None
        The policy with the noise label of the labels' type.

    See Also
    --------
    noise_sentence : The policy and the coverage in a report's words.
    clusteragree.Noise : The policies.

    Examples
    --------
    >>> noise_policy("drop", pd.Series(["a", "b"]), pd.Series(["0", "-1"]))
    Noise(policy='drop', label='-1', side='both')
    >>> noise_policy("singletons", pd.Series(["a", "b"]), pd.Series([0, -1])).label
    -1
    """
    from ..inputs import Noise

    if noise is None:
        return None
    values = [set(pd.Series(labels).tolist()) for labels in labellings]
    text = not any(-1 in v for v in values) and any("-1" in v for v in values)
    return Noise(noise, label="-1" if text else -1)


#: A noise policy in words, for a report's Run line.
NOISE_WORDS = {"cluster": "the label -1 is one more cluster",
               "singletons": "each object labelled -1 is a cluster of its own (noise counts "
                             "against agreement)",
               "drop": "the objects labelled -1 are left out (the agreement of the objects "
                       "clustered; read it beside the share compared)"}


def noise_convention(labellings: dict) -> list:
    """The clusterings whose labels follow the noise convention: whole numbers, -1 beside
    labels >= 0 (as ``clusteragree.NoiseLabelWarning`` reads them), as numbers or as text.

    Parameters
    ----------
    labellings : dict or DataFrame
        Name -> labels (or a table's row or column labels).

    Returns
    -------
    list of str
        The names of those clusterings, in the order given.

    See Also
    --------
    noise_sentence : Says, without a policy, that their -1 was counted as one cluster.

    Examples
    --------
    >>> noise_convention({"a": [0, 1, -1], "b": ["0", "-1", "1"], "c": [1, 2, 3]})
    ['a', 'b']
    """
    out = []
    for name, labels in labellings.items():
        values = set(pd.Series(labels).tolist())
        for noise in (-1, "-1"):
            others = values - {noise}
            if noise in values and others and all(
                    str(v).isdigit() if isinstance(v, str) else
                    (isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v >= 0)
                    for v in others):
                out.append(name)
                break
    return out


def noise_sentence(policy, coverages: dict, unchosen=()) -> str:
    """The Markdown sentence a report states its noise policy and coverage in.

    Parameters
    ----------
    policy : Noise or None
        The policy (``noise_policy``); None: the labels as given.
    coverages : dict
        A comparison's name -> its ``clusteragree.inputs.Coverage`` (``as_clusterings``'s).
    unchosen : sequence of str, optional
        Without a policy, the clusterings that follow the noise convention
        (``noise_convention``): the sentence says their -1 was counted as one cluster.

    Returns
    -------
    str
        "**Noise:** policy *drop*: ...; hdbscan_5: 58 noise objects, 120 of 178 objects
        compared (67%); ...", or "" without a policy (and nothing ``unchosen``).

    See Also
    --------
    noise_policy : The policy of a report's ``noise`` parameter.

    Examples
    --------
    >>> noise_sentence(None, {}, ["hdbscan_5"])[:60]
    '**Noise:** not chosen: the label -1 of hdbscan_5 is counted '
    """
    if policy is None:
        if not unchosen:
            return ""
        return (f"**Noise:** not chosen: the label -1 of {', '.join(unchosen)} is counted as one "
                "cluster, as given (the parameter noise: *singletons* or *drop* for the other "
                "readings).")
    parts = []
    for name, cov in coverages.items():
        noise = sum(cov.noise_counts)
        share = f"{cov.n_compared:,} of {cov.n_given:,} objects compared ({cov.share_compared:.0%})"
        parts.append(f"{name}: {noise:,} noise object{'' if noise == 1 else 's'}, {share}")
    return (f"**Noise:** policy *{policy.policy}*: {NOISE_WORDS[policy.policy]}; "
            + "; ".join(parts) + ".")


def _refuse_column(name: str, value, where: str, columns, why: str = "is not a column of"):
    from .._validate import suggest

    return ValueError(f"{name} {value!r} {why} {where}; its columns: "
                      f"{', '.join(map(str, columns))}.{suggest(str(value), list(columns))}")


def load_clusterings_frame(dataset: str = "wine_clusterings", data_file: str = "",
                           columns: str = "", reference: str = "class"):
    """Several clusterings of the same objects and their reference, for the clusterings report.

    From ``data_file`` (a CSV, one row per object, one column per clustering, every label read
    as text) or else the built-in clusterings ``dataset`` (``ca.load_dataset``). Everything
    the report needs is checked here, before it computes anything, each refusal naming the
    parameter: the reference and every column named must be columns of the file, at least
    two clusterings besides the reference, none named twice, no missing label.

    Parameters
    ----------
    dataset : str, default "wine_clusterings"
        Built-in clusterings (``ca.datasets.CLUSTERINGS``), used when no file is given.
    data_file : str, optional
        A CSV file in UTF-8 with a header row naming the columns and one row per object.
    columns : str, optional
        The clusterings compared, comma-separated column names; default every column but
        the reference.
    reference : str, default "class"
        The column of the reference clustering (e.g. the known classes).

    Returns
    -------
    frame : DataFrame
        The reference's column, then the clusterings', one row per object.
    reference : str
        The reference's column.
    names : list of str
        The clusterings compared, in order.
    source : str
        Where they came from, in words (a file by its name, not its path).

    Raises
    ------
    ValueError, FileNotFoundError
        A file that cannot be read (as ``load_clusterings`` says), a reference or column that
        is not there, fewer than two clusterings, a column named twice or the reference among
        the columns, a missing label.

    See Also
    --------
    load_clusterings : Two clusterings' table, for the agreement report.
    clusteragree.agreement_matrix : Compares the clusterings.

    Examples
    --------
    >>> frame, ref, names, source = load_clusterings_frame(columns="kmeans_3, gmm_3")
    >>> frame.shape, ref, names
    ((178, 3), 'class', ['kmeans_3', 'gmm_3'])
    >>> load_clusterings_frame(reference="klass")
    Traceback (most recent call last):
    ...
    ValueError: reference 'klass' is not a column of the built-in data set wine_clusterings; its columns: class, kmeans_2, ward_2, average_2, gmm_2, kmeans_3, ward_3, average_3, gmm_3, kmeans_4, ward_4, average_4, gmm_4. Did you mean 'class'?
    """
    from .._validate import suggest
    from ..datasets import CLUSTERINGS, load_dataset

    for key, value in (("dataset", dataset), ("data_file", data_file), ("columns", columns),
                       ("reference", reference)):
        if not isinstance(value, str):
            raise TypeError(f"{key} must be a string, got {type(value).__name__} {value!r}")
    if data_file:
        frame = _read_csv(data_file, "data_file", dtype=str)
        where = f"data_file {_name(data_file)!r}"
        source = f"columns of {_name(data_file)}"
    else:
        if dataset not in CLUSTERINGS:
            raise ValueError(f"dataset {dataset!r} is not a set of clusterings; the built-in "
                             f"ones: {', '.join(CLUSTERINGS)} (or give data_file)."
                             + suggest(dataset, CLUSTERINGS))
        frame = load_dataset(dataset)
        where = f"the built-in data set {dataset}"
        source = f"built-in data set {dataset}: {CLUSTERINGS[dataset].description}"
    frame.columns = [str(c) for c in frame.columns]
    if reference not in frame.columns:
        raise _refuse_column("reference", reference, where, frame.columns)
    named = [s.strip() for s in columns.split(",") if s.strip()]
    for column in named:
        if column not in frame.columns:
            raise _refuse_column("columns:", column, where, frame.columns)
    twice = sorted({c for c in named if named.count(c) > 1})
    if twice:
        raise ValueError(f"columns: {', '.join(map(repr, twice))} named more than once")
    if reference in named:
        raise ValueError(f"columns: the reference {reference!r} is among the clusterings "
                         "compared; leave it out (it is compared with each of them)")
    names = named or [c for c in frame.columns if c != reference]
    if len(names) < 2:
        raise ValueError(f"columns: at least two clusterings besides the reference "
                         f"{reference!r} are needed, got {len(names)} ({', '.join(names)}) "
                         f"in {where}")
    frame = frame[[reference, *names]]
    for column in frame.columns:
        missing = frame[column].isna()
        if missing.any():
            lines = [str(r + 2) for r in np.flatnonzero(missing)]  # the header is line 1
            shown = ", ".join(lines[:5]) + (", ..." if len(lines) > 5 else "")
            raise ValueError(f"column {column!r} of {where} has {len(lines)} missing "
                             f"label{'s' if len(lines) > 1 else ''} (empty fields, on line "
                             f"{shown} of the file): label every object, or drop those rows")
    return frame.reset_index(drop=True), reference, names, source


def read_features(path: str, n_objects: int) -> pd.DataFrame:
    """A ``features_file``: a CSV of numeric measurements, one row per object, checked.

    Parameters
    ----------
    path : str
        The file.
    n_objects : int
        The objects of the clusterings (the file must have as many rows, in the same order).

    Returns
    -------
    DataFrame
        The measurements, as floats.

    Raises
    ------
    ValueError, FileNotFoundError
        A file that is not there or not a CSV, a column that is not numeric, a missing
        value, or another number of rows than the clusterings have objects; each error names
        ``features_file``.

    See Also
    --------
    load_clusterings_frame : The clusterings whose objects the rows measure.

    Examples
    --------
    >>> read_features("no-such.csv", 3)
    Traceback (most recent call last):
    ...
    FileNotFoundError: features_file: no such file 'no-such.csv'
    """
    p = _readable(path, "features_file")
    frame = _read_csv(path, "features_file")
    if len(frame) != n_objects:
        raise _refuse("features_file", p, f"it has {len(frame):,} rows and the clusterings "
                      f"{n_objects:,} objects")
    for column in frame.columns:
        values = pd.to_numeric(frame[column], errors="coerce")
        bad = np.flatnonzero(values.isna().to_numpy())
        if len(bad):
            raw = frame[column].iloc[bad[0]]
            what = "an empty field" if pd.isna(raw) else repr(raw)
            raise _refuse("features_file", p, f"column {column!r} holds {what} on line "
                          f"{bad[0] + 2}, not a number (leave labels and names out)")
        frame[column] = values.astype(float)
    return frame


def fit_title(text: str, fontsize: float, width: float = PAPER_WIDTH) -> str:
    """A figure's title broken into lines that fit ``width`` inches at ``fontsize`` points
    (its own line breaks kept), so that the title does not widen the figure past the page.

    Parameters
    ----------
    text : str
        The title.
    fontsize : float
        Its type size, in points.
    width : float, default PAPER_WIDTH
        The width to fit, in inches.

    Returns
    -------
    str
        The title, lines of at most as many characters as fit (0.6 em each, wider than the
        average of the reports' sans-serif type).

    See Also
    --------
    plot_null_grid, plot_models, plot_adjusted : Their titles fit the page so.

    Examples
    --------
    >>> print(fit_title("Expected Rand index and NMI under each random model", 10, width=3))
    Expected Rand index and NMI under
    each random model
    """
    import textwrap

    chars = max(10, int(width * 72 / (0.6 * fontsize)))
    return "\n".join(textwrap.fill(line, chars) for line in text.split("\n"))


def plot_null_grid(nulls: dict, observed, ncols: int = 3, title: str | None = None):
    """A grid of null laws (one panel per index) with the observed value, the null mean and
    the null median marked; returns the figure. ``nulls``: index name -> NullDistribution;
    ``observed``: index name -> observed value.

    The grid is as wide as a printed page's text (``PAPER_WIDTH``), its type no smaller than
    ``PAPER_FONT`` points: on paper it prints at its own size. A panel's title that would not
    fit its width ("variation_of_information (patefield)") breaks before the method."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator

    names = list(nulls)
    nrows = -(-len(names) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(PAPER_WIDTH, 1.65 * nrows + 0.4),
                             squeeze=False)
    for ax, name in zip(axes.flat, names):
        nd = nulls[name]
        nd.plot(observed[name], ax=ax)  # bars at the support of a lattice law, no combs
        ax.get_legend().remove()
        ax.xaxis.set_major_locator(MaxNLocator(4))
        method = "exact" if not nd.is_sampled else nd.method
        ax.set_title(f"{name}{' ' if len(name) + len(method) < 28 else chr(10)}({method})",
                     fontsize=8.5)
        ax.set_xlabel("")  # the title names the index
        ax.tick_params(labelsize=PAPER_FONT + 0.5)
        ax.yaxis.get_offset_text().set_fontsize(PAPER_FONT + 0.5)
        for text in ax.texts:  # the arrow to an observed value off scale
            text.set_fontsize(PAPER_FONT + 0.5)
        if ax not in axes[:, 0]:  # the first column keeps plot_null's label (probability,
            ax.set_ylabel("")     # share of the draws, or density)
        else:
            ax.yaxis.label.set_fontsize(8)
    for ax in axes.flat[len(names):]:
        ax.set_visible(False)
    handles = [Line2D([], [], color="C0", lw=1.5), Line2D([], [], color="C2", ls="--", lw=1.5),
               Line2D([], [], color="C3", lw=2)]
    fig.legend(handles, ["null mean", "null median", "observed (an arrow when off scale)"],
               loc="upper center", ncols=3, frameon=False, bbox_to_anchor=(0.5, 1.0),
               fontsize=8.5)
    if title:
        fig.suptitle(fit_title(title, 9.5), fontsize=9.5, y=1.03)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.3 / fig.get_figheight()), h_pad=0.6, w_pad=0.4)
    return fig


def null_means_by_method(tab, indices, nulls: dict) -> pd.DataFrame:
    """The null mean of each index by every method that gives it (Amorim 2015, "On clustering
    stability", Ch.1 Tables 7-8): the exact law where its size fits the default budget, the
    closed form (hypergeometric moments), the Monte Carlo mean of ``nulls`` with its standard
    error, Albatineh & Niewiadomska-Bugaj's (2011) regression approximation where one is
    published, and the exact identity with an L-family index (J = C / (2 - C), GL = 2R / (1 + R),
    SS2 = C / (4 - 3C)) with its second-order delta-method correction
    (``clusteragree.nulls.approximations``). NA where a method does not apply or would not fit."""
    from ..nulls import null_distribution
    from ..nulls.approximations import TARGETS, approximate_null_mean, identity_null_mean

    rows = []
    for name in indices:
        row = {"index": name}
        for method in ("exact", "hypergeometric"):
            try:
                row[method] = null_distribution(tab, index=name, method=method).mean
            except ValueError:  # too large for the exact budget, or no closed form
                row[method] = pd.NA
        nd = nulls[name]
        if not nd.is_sampled or nd.model != "perm":  # a column named Monte Carlo is one
            raise ValueError(f"the Monte Carlo column needs a simulated law under model='perm' "
                             f"for {name!r}, got: {nd.describe()}")
        row["monte_carlo"], row["monte_carlo_se"] = nd.mean, nd.mean_se
        published = name in TARGETS
        row["regression"] = approximate_null_mean(tab, name) if published else pd.NA
        row["identity"] = identity_null_mean(tab, name, order=2) if published else pd.NA
        rows.append(row)
    frame = pd.DataFrame(rows).set_index("index")
    return frame.astype("Float64").rename(columns={
        "hypergeometric": "closed form", "monte_carlo": "Monte Carlo",
        "monte_carlo_se": "Monte Carlo s.e.", "regression": "regression (A & N-B 2011)",
        "identity": "identity + delta method"})


#: The random models compared side by side, in the order shown.
MODELS = ("perm", "num", "num1", "all", "all1")

#: The most objects the agreement report's random models are computed for. Their laws are
#: random partitions of all n objects (NMI) and Bell numbers of n (the Rand index under "all",
#: O(n^2)): at 10,000 objects the five models take about 20 s with 1,000 partitions each, at
#: 20,000 about 100 s, and 10**6 labels gave no report in 400 s (issue 45, trap 9 d).
RANDOM_MODELS_MAX_N = 10_000


def random_models_left_out(n: int) -> str:
    """Why the agreement report leaves its random models out for ``n`` objects, as Markdown,
    or "" when it computes them (``RANDOM_MODELS_MAX_N`` objects or fewer).

    Parameters
    ----------
    n : int
        The number of objects.

    Returns
    -------
    str
        The sentence the report shows in place of the section's figure and table.

    See Also
    --------
    clusteragree.nulls.null_distribution : One model's law, on its own.

    Examples
    --------
    >>> random_models_left_out(846)
    ''
    >>> random_models_left_out(10**6)[:60]
    'The random models are left out for n = 1,000,000 objects: th'
    """
    if n <= RANDOM_MODELS_MAX_N:
        return ""
    return (f"The random models are left out for n = {n:,} objects: their laws are drawn as "
            "random partitions of all the objects, and under *all* and *all1* they need the Bell "
            "numbers of n, work that grows faster than n (minutes past 20,000 objects), so "
            f"the report computes them up to {RANDOM_MODELS_MAX_N:,} objects. The tests above "
            "(the report's null model) do not depend on this section. "
            "`ca.nulls.null_distribution(table, index='rand', model='num', method='exact')` "
            "gives one model's mean on its own.")


def models_side_by_side(tab, n_sim: int, seed) -> pd.DataFrame:
    """Rand and NMI (sum) under each random model of Gates & Ahn (2017, "The impact of random
    models on clustering similarity", JMLR 18): the null mean and the value adjusted for it,
    (I - E[I]) / (1 - E[I]). The Rand index adjusted under "perm" is Hubert & Arabie's ARI and
    under the other models Gates & Ahn's ARI of that model; NMI adjusted under "perm" is Vinh
    et al.'s AMI (arithmetic mean). Rand's means are exact (closed forms); NMI's come from
    ``n_sim`` random tables or partitions."""
    from ..inference.agreement_tests import agreement
    from ..nulls import get_model, null_distribution

    observed = agreement(tab, index=["rand", "nmi_sum"])
    rows = []
    for model in MODELS:
        rand = null_distribution(tab, index="rand", model=model,
                                 method="hypergeometric" if model == "perm" else "exact")
        nmi = null_distribution(tab, index="nmi_sum", model=model, n_sim=n_sim, seed=seed,
                                method="patefield" if model == "perm" else "simulation")
        rows.append({"model": model, "what is random": get_model(model).title,
                     "Rand": observed["rand"], "E[Rand]": rand.mean,
                     "Rand adjusted": rand.adjust(observed["rand"]),
                     "NMI": observed["nmi_sum"], "E[NMI]": nmi.mean,
                     "NMI adjusted": nmi.adjust(observed["nmi_sum"])})
    return pd.DataFrame(rows).set_index("model")


def plot_models(models: pd.DataFrame, title: str | None = None):
    """The expected Rand index and NMI under each random model (bars) against the observed
    values (red lines): a bar above the line is a model under which chance alone would agree
    more than the two clusterings do."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(PAPER_WIDTH, 3.2), sharey=False)
    for ax, name in zip(axes, ("Rand", "NMI")):
        bars = ax.bar(models.index, models[f"E[{name}]"], color="0.7")
        line = ax.axhline(models[name].iloc[0], color="C3", lw=2)
        ax.set_ylim(0, 1.05)
        ax.set_xlabel("random model")
        ax.set_ylabel(name)
    # one legend below the panels, where it covers neither the bars nor the observed line
    fig.legend([bars, line], ["expected value under the model (chance)", "observed value"],
               loc="lower center", ncols=2, frameon=False, fontsize=8.5)
    if title:
        fig.suptitle(fit_title(title, 9.5), fontsize=9.5)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig


#: The height of a row (an index) of ``plot_adjusted``, in inches.
ADJUSTED_ROW = 0.28


def plot_adjusted(results: pd.DataFrame, nulls: dict, title: str | None = None):
    """Each index's adjusted value (by the null mean, dot; by the null median, cross) against
    the band of adjusted values chance gives (the null law's 1% to 99% quantiles, adjusted
    the same way by the mean): agreement beyond chance lies right of the band. Every index is
    on one scale, 0 = chance (mean) and 1 = perfect agreement (distances are turned round).
    When the frame has confidence intervals, each dot carries its index's interval mapped by
    the same adjustment (the null mean held at its value for the observed margins)."""
    import matplotlib.pyplot as plt

    shown = [n for n in results.index if not pd.isna(results.loc[n, "adjusted_mean"])]
    # 0.28 inch a row (20 pt: the 8.5 pt names well apart): at 0.42 the twelve indices' figure
    # was 163 mm tall on paper, went to the next page and left half of page 3 blank
    fig, ax = plt.subplots(figsize=(PAPER_WIDTH, ADJUSTED_ROW * len(shown) + 1.3))
    level = results["ci_level"].dropna()
    for i, name in enumerate(shown):
        nd = nulls[name]
        band = sorted(nd.adjust(nd.quantile(q)) for q in (0.01, 0.99))
        ax.plot(band, [i, i], color="0.75", lw=7, solid_capstyle="butt",
                label="chance: null 1%-99%" if i == 0 else None)
        lo, hi = results.loc[name, "ci_low"], results.loc[name, "ci_high"]
        if not (pd.isna(lo) or pd.isna(hi)):
            ends = sorted(nd.adjust(float(v)) for v in (lo, hi))
            how = _interval_methods(results).strip() or "method per row in the table"
            ax.plot(ends, [i, i], color="C0", lw=1.3, marker="|", ms=8,
                    label=(f"{100 * float(level.iloc[0]):g}% interval of the index ({how})"
                           if i == 0 else None))
        ax.plot(results.loc[name, "adjusted_mean"], i, "o", color="C0",
                label="observed, adjusted by mean" if i == 0 else None)
        if not pd.isna(results.loc[name, "adjusted_median"]):
            ax.plot(results.loc[name, "adjusted_median"], i, "x", color="C3", ms=7,
                    label="observed, adjusted by median" if i == 0 else None)
    ax.axvline(0, color="0.4", lw=0.8)
    ax.set_yticks(range(len(shown)), shown)
    ax.invert_yaxis()
    ax.set_xlabel("adjusted index: (I - c) / (max - c); 0 = chance, 1 = perfect agreement")
    # below the axis label, centred on the figure (centred on the axes, it ran past the
    # figure's right edge and so past the printed page's)
    height = fig.get_figheight()
    fig.legend(*ax.get_legend_handles_labels(), frameon=False, fontsize=8.5,
               loc="lower center", ncols=2, bbox_to_anchor=(0.5, 0))
    if title:
        ax.set_title(fit_title(title, 9.5), fontsize=9.5)
    fig.tight_layout(rect=(0, 0.5 / height, 1, 1))
    return fig


#: The significance level of the reports' plain-language reading.
LEVEL = 0.05

#: What a test looks for, by its direction: (what one index finds, what several find, the
#: words for having been tested so), in a sentence of ``reading``.
_FINDS = {
    "above": ("shows agreement beyond chance", "show agreement beyond chance",
              "tested for agreement beyond chance"),
    "below": ("shows agreement below chance", "show agreement below chance",
              "tested for agreement below chance"),
    "either": ("differs from chance", "differ from chance", "tested two-sided"),
}


def _direction(alternative: str, kind: str) -> str:
    """What a row's test looks for: "above" chance (more agreement than chance: large values
    of a similarity, small values of a distance), "below" it, or "either" (two-sided)."""
    if alternative == "two-sided":
        return "either"
    return "above" if (alternative == "greater") != (kind == "distance") else "below"


def _above_chance(results: pd.DataFrame) -> pd.Series:
    """Whether each observed value lies on the side of more agreement than the null mean."""
    statistic = results["statistic"].astype(float)
    mean = results["null_mean"].astype(float)
    return pd.Series([(s < m) if k == "distance" else (s > m)
                      for s, m, k in zip(statistic, mean, results["kind"])], index=results.index)


def _floor(results: pd.DataFrame) -> str:
    """The smallest p-value the Monte Carlo laws of ``results`` can give, as a clause: 1/(B + 1)
    one-sided, 2/(B + 1) two-sided (the table's floor ``< ... (0 of B)``)."""
    sampled = results[results["n_sim"].notna()]
    if sampled.empty:
        return ""
    clauses = []
    for two, part in sampled.groupby(sampled["alternative"] == "two-sided", sort=False):
        b = int(part["n_sim"].max())
        draws = method_text(part.loc[part["n_sim"] == b]).iloc[0]
        if two:
            clauses.append(f"the smallest two-sided p-value a Monte Carlo law of {draws} can "
                           f"give is {format_pvalue(min(1.0, 2 / (b + 1)))} (2/(B + 1): twice "
                           "the smaller tail's floor)")
        else:
            clauses.append(f"the smallest p-value a Monte Carlo law of {draws} can give is "
                           f"{format_pvalue(1 / (b + 1))} (1/(B + 1))")
    return "; " + "; ".join(clauses)


def _tests_sentence(results: pd.DataFrame) -> str:
    """The first line of the reading: how many indices find what their test looks for."""
    direction = pd.Series([_direction(a, k) for a, k in zip(results["alternative"],
                                                              results["kind"])],
                          index=results.index)
    found = results["pvalue"].astype(float) <= LEVEL
    clauses = []
    for way in dict.fromkeys(direction):
        rows = list(direction.index[direction == way])
        hits = [name for name in rows if found[name]]
        one, several, tested = _FINDS[way]
        finds = f"{len(hits)} {one if len(hits) == 1 else several} at the {LEVEL:.0%} level"
        if way == "either" and len(rows) == len(results):
            finds += " (two-sided tests: agreement above or below chance)"
        text = (finds if len(rows) == len(results) else
                f"{len(rows)} {'was' if len(rows) == 1 else 'were'} {tested} "
                f"({', '.join(rows)}) and {finds}")
        if 0 < len(hits) < len(rows):
            text += f" (all but {', '.join(sorted(set(rows) - set(hits)))})"
        if way == "either" and hits:
            above = _above_chance(results.loc[hits])
            them = "it" if len(hits) == 1 else "all of them"
            text += (f", {them} with more agreement than chance" if above.all() else
                     f", {them} with less agreement than chance" if not above.any() else
                     f": above chance {', '.join(above.index[above])}, below chance "
                     f"{', '.join(above.index[~above])}")
        clauses.append(text)
    return (f"* Of {len(results)} indices, " + "; ".join(clauses) + _floor(results) + "."
            + _beyond_floor(results))


def _beyond_floor(results: pd.DataFrame) -> str:
    """A sentence on the p-values estimated beyond the Monte Carlo floor, if any: their range
    and what gave them ("" without)."""
    if "log10_pvalue_beyond_floor" not in results:
        return ""
    log10 = results["log10_pvalue_beyond_floor"].dropna().astype(float)
    if log10.empty:
        return ""
    how = " and ".join(sorted({BEYOND_FLOOR_METHODS.get(m, m) for m in
                               results.loc[log10.index, "beyond_floor_method"].dropna()}))

    def p(v):
        return format_log_pvalue(v, digits=2).removeprefix("≈ ")

    low, high = log10.min(), log10.max()
    span = (f"at {p(low)} ({log10.idxmin()})" if low == high else
            f"between {p(low)} ({log10.idxmin()}) and {p(high)} ({log10.idxmax()})")
    verb = "put" if " and " in how else "puts"
    return (f" Beyond that floor, {how} {verb} the p-value{'s' if len(log10) > 1 else ''} of "
            f"{'these tests' if len(log10) > 1 else 'this test'} {span} (column \"p beyond "
            "the floor\" of the table of tests): far below anything the simulated tables can "
            "show; read the order of magnitude, with the stated error.")


def _interval_methods(results) -> str:
    """The method of a frame's intervals, as words before "intervals" ("BCa "), or "" when
    there is none or the rows differ (the table of tests names each row's)."""
    methods = results["ci_method"].dropna().unique() if "ci_method" in results else []
    return f"{methods[0]} " if len(methods) == 1 else ""


def adjusted_widths(results: pd.DataFrame) -> pd.Series:
    """Each confidence interval's width on its index's adjusted scale, where indices in
    different units (VI in nats, ARI) compare.

    The mean adjustment is affine in the index, A = (I - c) / (max - c) for a similarity and
    (c - I) / (c - min) for a distance (c the null mean), so an interval of width w on the
    index's scale has width w / |max - c| (or w / |c - min|) on the adjusted one; the factor is
    read from the frame itself, |adjusted_mean / (statistic - null_mean)|. An index without
    an interval, or whose estimate equals its null mean (no factor), is left out.

    Parameters
    ----------
    results : DataFrame
        A frame of the result schema (``ca.compare``).

    Returns
    -------
    Series
        Index name -> width on the adjusted scale.

    See Also
    --------
    reading : Compares these widths in its bullet on the intervals.

    Examples
    --------
    >>> df = pd.DataFrame({"statistic": [0.6], "null_mean": [0.2], "adjusted_mean": [0.5],
    ...                    "ci_low": [0.5], "ci_high": [0.7]}, index=["rand"])
    >>> round(float(adjusted_widths(df)["rand"]), 12)  # 0.2 / (1 - 0.2)
    0.25
    """
    cols = ["statistic", "null_mean", "adjusted_mean", "ci_low", "ci_high"]
    r = results[cols].astype(float)
    gap = r["statistic"] - r["null_mean"]
    factor = (r["adjusted_mean"] / gap.where(gap != 0)).abs()
    return ((r["ci_high"] - r["ci_low"]) * factor).dropna()


def reading(results: pd.DataFrame, models: pd.DataFrame | None = None) -> str:
    """The agreement report's reading: its numbers in plain language, as Markdown bullets.

    The first bullet follows the alternative each index was tested against: a one-sided test
    of agreement (the default: large values of a similarity, small values of a distance)
    finds "agreement beyond chance", the opposite tail "agreement below chance", a two-sided
    test that the index "differs from chance" (and says on which side each such index lies);
    the smallest Monte Carlo p-value is 1/(B + 1) one-sided and 2/(B + 1) two-sided, as in the
    table of tests. The others: the adjusted values, the width of the confidence intervals,
    the largest gap between mean and median adjustment and, given ``models``, the adjusted
    Rand index across the random models.

    Parameters
    ----------
    results : DataFrame
        A frame of the result schema (``ca.compare``), with its ``alternative`` and ``kind``
        columns.
    models : DataFrame, optional
        ``models_side_by_side(...)``: the random models' bullet; none without it.

    Returns
    -------
    str
        Markdown, one bullet per finding.

    See Also
    --------
    table_of_tests : The table whose p-values the first bullet reads.

    Examples
    --------
    >>> df = ca.compare(ca.load_dataset("statlog_em"), indices=["rand", "vi"],
    ...                 method="patefield", n_sim=999, seed=1, alternative="two-sided",
    ...                 interval=None)
    >>> print(reading(df).splitlines()[0])  # doctest: +NORMALIZE_WHITESPACE
    * Of 2 indices, 2 differ from chance at the 5% level (two-sided tests: agreement above or
    below chance), all of them with more agreement than chance; the smallest two-sided p-value
    a Monte Carlo law of 999 Patefield tables can give is 0.002 (2/(B + 1): twice the
    smaller tail's floor).
    """
    lines = [_tests_sentence(results)]
    n_tests = results.attrs.get("n_tests", len(results))
    if n_tests < len(results):
        lines[0] += (f" Under this null they are {n_tests} distinct test"
                     f"{'s' if n_tests > 1 else ''}, not {len(results)}: indices that are "
                     "functions of the same statistic of the table give the same p-value, so "
                     "their finding is one finding.")
    adj = results["adjusted_mean"].dropna().astype(float)
    if len(adj):
        raw = (f": raw values such as Rand = {significant(results.loc['rand', 'statistic'])} "
               if "rand" in results.index else ": raw values ")
        lines.append(f"* Adjusted for chance (by the null mean), the indices range from "
                     f"{significant(adj.min())} ({adj.idxmin()}) to {significant(adj.max())} "
                     f"({adj.idxmax()}){raw}overstate agreement because chance alone gives a "
                     "large part of them.")
    width = adjusted_widths(results)
    level = results["ci_level"].dropna()
    if len(width):
        lines.append(
            f"* On the adjusted scale (0 = chance, 1 = perfect agreement), where indices of "
            f"different units compare, the {float(level.iloc[0]):.0%} "
            f"{_interval_methods(results)}intervals are from {significant(width.min())} "
            f"({width.idxmin()}) to {significant(width.max())} ({width.idxmax()}) wide: "
            "another sample of objects from the same population could give values that far "
            "apart.")
    elif results["ci_low"].notna().any():
        lines.append("* No interval can be put on the adjusted scale here (the estimates "
                     "equal their null means), so their widths, in different units, are not "
                     "compared.")
    else:
        lines.append("* No index has a confidence interval here (too few objects, or none "
                     "asked for).")
    below = adj[adj < -1]
    if len(below):
        worst = below.idxmin()
        c = float(results.loc[worst, "null_mean"])
        lines.append(
            f"* The adjusted scale is bounded above by 1 but not below: {worst} adjusted is "
            f"{significant(below.min())} because chance here gives it "
            f"{significant(c)}, close to its best value, so (I - c) / (max - c) divides by a "
            "small max - c, and an index that agrees less than chance falls far below "
            "0 (below -1: further under chance than perfect agreement is above it).")
    gap = (results["adjusted_median"] - results["adjusted_mean"]).dropna().astype(float).abs()
    if len(gap):
        lines.append(f"* Mean and median adjustment differ by at most {significant(gap.max())} "
                     f"({gap.idxmax()}), the null law of which has skewness "
                     f"{significant(results.loc[gap.idxmax(), 'null_skewness'])}.")
    if models is not None:
        rand = models["Rand adjusted"]
        text = (f"* Across random models the adjusted Rand index goes from "
                f"{significant(rand.min())} ({rand.idxmin()}) to {significant(rand.max())} "
                f"({rand.idxmax()}): the verdict depends on what chance is taken to be.")
        if not (rand > 0).all():
            text += (" Under " + ", ".join(models.index[rand <= 0]) + " chance alone gives a "
                     "Rand index at least as large as the observed one: random partitions "
                     "with many small clusters agree on most pairs by keeping them apart.")
        lines.append(text)
    return "\n".join(lines)
