"""The hierarchies report's inputs, figures, tables and reading: two hierarchical clusterings
of the same measurements compared at every cut (``ca.compare_hierarchies``: Fowlkes &
Mallows' Bk plot with a pointwise and a simultaneous band) and by their cophenetic
distances (``ca.cophenetic_test``: the cophenetic correlation and Baker's gamma with a
Mantel test).

* ``load_measurements(...)``: the objects' measurements, from a built-in data set or a CSV,
  with their classes and labels when known.
* ``build_tree(X, method, metric, name)``: a scipy linkage of the measurements as the
  package's ``Hierarchy`` record.
* ``check_linkage(method, metric, name)``: a linkage method the report can compare, refused
  by name before any work.
* ``plot_dendrograms``, ``plot_bk``, ``plot_cophenetic``: the report's figures.
* ``cut_table(res, max_k)``: the cuts where the trees agree most and least beyond chance.
* ``reading(...)``: the closing text, from the numbers.

>>> check_linkage("ward", "euclidean", "method_a")
'ward'
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .._display import format_pvalue, integer_ranges, significant
from .._validate import suggest
from .helpers import PAPER_FONT, PAPER_WIDTH

__all__ = ["LINKAGES", "NOT_MONOTONE", "HEIGHTS", "MAX_DRAWN_LEAVES", "SHOWN_CUTS",
           "Measurements", "load_measurements", "check_linkage", "check_metric", "build_tree", "run_line",
           "agreement_z", "zoomed", "plot_dendrograms", "plot_bk", "plot_cophenetic",
           "cut_table", "size_table", "cophenetic_table", "cut_sizes", "identical_from", "ranges", "reading"]

#: The linkage methods the report compares (scipy's ``linkage``), in words.
LINKAGES = {
    "ward": "Ward's minimum variance",
    "average": "average linkage (UPGMA)",
    "complete": "complete linkage",
    "single": "single linkage",
    "weighted": "weighted average linkage (WPGMA)",
}

#: scipy's linkage methods whose merge heights can decrease (inversions): their cophenetic
#: distances are no ultrametric, and the report refuses them.
NOT_MONOTONE = ("centroid", "median")

#: The linkage methods defined for Euclidean distances only.
EUCLIDEAN_ONLY = ("ward",)

#: What the heights of a tree are, by linkage method.
HEIGHTS = {
    "ward": "the increase of the within-cluster variance (Ward's criterion, scipy's scale)",
    "average": "the mean distance between the two clusters merged",
    "complete": "the largest distance between the two clusters merged",
    "single": "the smallest distance between the two clusters merged",
    "weighted": "the WPGMA distance between the two clusters merged",
}

#: Leaves up to which a dendrogram is drawn whole (beyond: its last merges only).
MAX_DRAWN_LEAVES = 400

#: Leaves up to which the dendrograms name them.
NAMED_LEAVES = 60

#: The cuts of each end of the table of most and least agreement.
SHOWN_CUTS = 4


@dataclass(frozen=True)
class Measurements:
    """The objects the report clusters: measurements, classes, and where they came from.

    Parameters
    ----------
    X : pandas.DataFrame
        The measurements, floats, one row per object (index: the leaves' labels).
    classes : pandas.Series or None
        Known classes, shown under the dendrograms and never clustered.
    source : str
        Where the measurements came from, in words.
    dropped : int
        Objects left out for a missing measurement.
    labelled : bool
        Whether the leaves have labels of their own (a ``label_column``), not row numbers.
    """

    X: pd.DataFrame
    classes: pd.Series | None
    source: str
    dropped: int
    labelled: bool


def _names(text: str) -> list[str]:
    return [s.strip() for s in str(text).split(",") if s.strip()]


def _read_data_file(path: str) -> pd.DataFrame:
    p = Path(path).expanduser()
    if p.is_dir():
        raise IsADirectoryError(f"data_file {str(p)!r} is a directory, not a CSV file of "
                                "measurements")
    if not p.is_file():
        raise FileNotFoundError(f"data_file: no such file {str(p)!r}")
    raw = p.read_bytes()
    if b"\x00" in raw[:65536]:
        raise ValueError(f"data_file {p.name!r} is a binary file, not text (a spreadsheet? "
                         "save it as CSV)")
    try:
        frame = pd.read_csv(io.StringIO(raw.decode("utf-8-sig")))
    except UnicodeDecodeError:
        raise ValueError(f"data_file {p.name!r} is not UTF-8 text: save it as UTF-8") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as exc:
        raise ValueError(f"data_file {p.name!r} cannot be read as CSV "
                         f"({str(exc).strip()})") from None
    if frame.shape[0] == 0:
        raise ValueError(f"data_file {p.name!r} has a header row and no rows below it")
    return frame


def _column(frame: pd.DataFrame, name: str, parameter: str, where: str) -> str:
    if name not in frame.columns:
        raise ValueError(f"{parameter}: {name!r} is not a column of {where} (its columns: "
                         f"{', '.join(map(str, frame.columns[:12]))}"
                         + (", ..." if frame.shape[1] > 12 else "") + ")."
                         + suggest(name, [str(c) for c in frame.columns]))
    return name


def load_measurements(dataset: str = "wine", data_file: str = "", columns: str = "",
                      class_column: str = "", label_column: str = "") -> Measurements:
    """The measurements the report clusters, checked, from a built-in data set or a CSV.

    Parameters
    ----------
    dataset : str, default "wine"
        A built-in data set of measurements (``ca.datasets.DATA``: iris, wine, ...), used when
        no ``data_file`` is given; its classes are shown under the dendrograms.
    data_file : str
        A CSV file (UTF-8, a header row) with one row per object.
    columns : str
        The measurements clustered, comma-separated column names; empty: every column but
        ``class_column`` and ``label_column`` (all of them must then be numeric).
    class_column : str
        A column of ``data_file`` holding known classes (not clustered).
    label_column : str
        A column of ``data_file`` naming each object (unique names): the leaves' labels.

    Returns
    -------
    Measurements
        The measurements (objects with a missing measurement left out and counted), the
        classes or None, the source in words.

    Raises
    ------
    ValueError, FileNotFoundError
        An unknown data set or one that holds no measurements, a file that cannot be read, a
        column that is not there or not numeric, duplicate labels, fewer than 4 objects.

    Examples
    --------
    >>> m = load_measurements("iris")
    >>> m.X.shape, m.classes.nunique(), m.dropped
    ((150, 4), 3, 0)
    >>> load_measurements("statlog_em")
    Traceback (most recent call last):
    ...
    ValueError: dataset 'statlog_em' holds no measurements (a contingency table or clusterings); the hierarchies report clusters the measurements of a data set: breast_cancer, breast_cancer_original, glass, ionosphere, iris, pima, sonar, vehicle, wine, or give data_file.
    """
    from ..datasets import DATA, load_dataset

    if data_file:
        frame = _read_data_file(data_file)
        where = f"data_file {Path(data_file).name!r}"
        for value, parameter in ((class_column, "class_column"), (label_column, "label_column")):
            if value:
                _column(frame, value, parameter, where)
        if class_column and class_column == label_column:
            raise ValueError("class_column and label_column name the same column "
                             f"{class_column!r}")
        names = _names(columns) or [str(c) for c in frame.columns
                                    if c not in (class_column, label_column)]
        for name in names:
            _column(frame, name, "columns", where)
            if name in (class_column, label_column):
                raise ValueError(f"columns: {name!r} is the "
                                 f"{'class' if name == class_column else 'label'}_column, "
                                 "not a measurement")
        seen = set()
        for name in names:
            if name in seen:
                raise ValueError(f"columns: {name!r} is named more than once")
            seen.add(name)
        X = frame[names].copy()
        for name in names:
            values = pd.to_numeric(X[name], errors="coerce")
            bad = values.isna() & X[name].notna()
            if bad.any():
                line = int(np.flatnonzero(bad.to_numpy())[0]) + 2
                raise ValueError(f"columns: {name!r} of {where} holds {X[name][bad].iloc[0]!r} "
                                 f"on line {line}, not a number: name the measurements in "
                                 "columns, and give a column of classes as class_column, one of "
                                 "names as label_column")
            X[name] = values.astype(float)
        classes = frame[class_column].astype(str) if class_column else None
        labelled = bool(label_column)
        if labelled:
            labels = frame[label_column].astype(str)
            if labels.duplicated().any():
                raise ValueError(f"label_column: {label_column!r} names "
                                 f"{labels[labels.duplicated()].iloc[0]!r} more than once; the "
                                 "leaves' labels must be unique")
            X.index = pd.Index(labels, name=label_column)
            if classes is not None:
                classes.index = X.index
        source = f"{where}, {len(names)} measurements ({', '.join(names)})"
    else:
        if class_column or label_column:
            raise ValueError("class_column and label_column name columns of data_file: give "
                             "data_file too (a built-in data set's classes are known)")
        if not isinstance(dataset, str) or dataset not in DATA:
            kinds = sorted(DATA)
            raise ValueError(f"dataset {dataset!r} holds no measurements (a contingency table "
                             "or clusterings); the hierarchies report clusters the measurements "
                             f"of a data set: {', '.join(kinds)}, or give data_file."
                             + (suggest(dataset, kinds) if isinstance(dataset, str) else ""))
        X, y = load_dataset(dataset)
        names = _names(columns) or [str(c) for c in X.columns]
        for name in names:
            _column(X, name, "columns", f"the data set {dataset!r}")
        X = X[names].astype(float)
        classes = y.astype(str)
        labelled = False
        source = (f"the built-in data set {dataset} ({DATA[dataset].description}), "
                  + (f"{len(names)} measurements ({', '.join(names)})" if _names(columns)
                     else f"all {len(names)} measurements"))
    keep = X.notna().all(axis=1).to_numpy()
    dropped = int((~keep).sum())
    X = X[keep]
    classes = classes[keep] if classes is not None else None
    if len(X) < 4:
        raise ValueError(f"{len(X)} objects with every measurement"
                         + (f" ({dropped} left out for a missing one)" if dropped else "")
                         + ": comparing two trees needs at least 4")
    return Measurements(X=X, classes=classes, source=source, dropped=dropped,
                        labelled=labelled)


def check_linkage(method: str, metric: str, name: str) -> str:
    """A linkage method the report compares, with a distance it is defined for.

    Parameters
    ----------
    method : str
        A method of ``LINKAGES``.
    metric : str
        The distance (scipy's ``pdist``).
    name : str
        The parameter (for the message).

    Returns
    -------
    str
        The method.

    Raises
    ------
    ValueError
        An unknown method (with a did-you-mean), centroid or median (inversions), Ward with
        a distance other than Euclidean.

    Examples
    --------
    >>> check_linkage("centroid", "euclidean", "method_b")
    Traceback (most recent call last):
    ...
    ValueError: parameter method_b: centroid linkage can merge below an earlier merge (an inversion), so its cophenetic distances are no ultrametric and its cuts by height are not nested; choose one of ward, average, complete, single, weighted
    """
    if not isinstance(method, str):
        raise TypeError(f"parameter {name} must be a linkage method's name, got {method!r}")
    if method in NOT_MONOTONE:
        raise ValueError(f"parameter {name}: {method} linkage can merge below an earlier merge "
                         "(an inversion), so its cophenetic distances are no ultrametric and "
                         "its cuts by height are not nested; choose one of "
                         + ", ".join(LINKAGES))
    if method not in LINKAGES:
        raise ValueError(f"parameter {name}: unknown linkage method {method!r}; the report's: "
                         + ", ".join(LINKAGES) + "." + suggest(method, list(LINKAGES)))
    if method in EUCLIDEAN_ONLY and metric != "euclidean":
        raise ValueError(f"parameter {name}: {method} linkage is defined for Euclidean "
                         f"distances only, and metric is {metric!r}: give metric='euclidean' "
                         "or another method")
    return method


def check_metric(metric: str, X) -> str:
    """A distance scipy's ``pdist`` knows, tried on the first objects of ``X`` (twice as many
    as measurements and 10 more: a Mahalanobis distance needs a covariance).

    Parameters
    ----------
    metric : str
        The distance's name.
    X : pandas.DataFrame
        The measurements.

    Returns
    -------
    str
        The distance.

    Raises
    ------
    ValueError
        A distance scipy does not know, or one it cannot compute on these measurements.

    Examples
    --------
    >>> check_metric("cityblok", pd.DataFrame([[0.0], [1.0]]))
    Traceback (most recent call last):
    ...
    ValueError: parameter metric: scipy's pdist does not compute 'cityblok' here (Unknown Distance Metric: cityblok); give one of its distances: euclidean, cityblock, correlation, cosine, ... Did you mean 'cityblock'?
    """
    from scipy.spatial.distance import pdist

    if not isinstance(metric, str):
        raise TypeError(f"parameter metric must be a distance's name, got {metric!r}")
    try:
        X = np.asarray(X, dtype=float)
        pdist(X[:2 * X.shape[1] + 10], metric=metric)  # enough rows for a covariance
    except (ValueError, TypeError, np.linalg.LinAlgError) as exc:
        known = ["euclidean", "cityblock", "correlation", "cosine", "chebyshev", "canberra",
                 "braycurtis", "minkowski", "sqeuclidean", "seuclidean", "mahalanobis"]
        raise ValueError(f"parameter metric: scipy's pdist does not compute {metric!r} here "
                         f"({str(exc).strip()}); give one of its distances: euclidean, "
                         "cityblock, correlation, cosine, ..." + suggest(metric, known)
                         ) from None
    return metric


def build_tree(X, method: str, metric: str, name: str):
    """The tree of ``method`` on the measurements ``X``, as a ``Hierarchy`` named ``name``.

    Parameters
    ----------
    X : pandas.DataFrame
        The measurements (as the report clusters them: standardised or not).
    method, metric : str
        scipy's linkage method and distance.
    name : str
        The tree's name.

    Returns
    -------
    (Hierarchy, numpy.ndarray)
        The record (leaves labelled by ``X``'s index) and the linkage matrix.

    Examples
    --------
    >>> X = pd.DataFrame([[0.0], [0.1], [1.0], [1.2], [5.0]])
    >>> tree, Z = build_tree(X, "single", "euclidean", "single")
    >>> tree.describe(), tree.cut(2).tolist()
    ('single (linkage, n = 5 leaves)', [0, 0, 0, 0, 1])
    """
    from scipy.cluster.hierarchy import linkage

    from ..inputs.trees import as_hierarchy

    Z = linkage(np.asarray(X, dtype=float), method=method, metric=metric)
    return as_hierarchy(Z, name=name, leaves=pd.Index(X.index)), Z


def run_line(method_a, method_b, metric, standardize, index, n_permutations, alpha,
             alternative, method, seed, quick) -> str:
    """The report's **Run** line: the trees, the index, the null and its methods."""
    how = {"permutation": "the joint permutations' p-value at every cut",
           "normal": "the normal approximation from the exact moments",
           "auto": "the package's test of each cut (exact when cheap, else Monte Carlo)"}
    return (f"**Run:** {LINKAGES[method_a]} (*{method_a}*) against {LINKAGES[method_b]} "
            f"(*{method_b}*), {metric} distances between the "
            + ("standardised measurements (each to mean 0 and sd 1)" if standardize
               else "measurements as given")
            + f"; index *{index}* at every cut; null: the permutation model (the second "
            f"tree's leaves relabelled at random, every cut's cluster sizes kept), "
            f"{n_permutations:,} joint permutations for the simultaneous band and the Mantel "
            f"tests; per-cut p-values: {how.get(method, f'method {method}')}; "
            f"{1 - alpha:.0%} bands, {alternative}; seed {seed}"
            + (" (quick mode)" if quick else "") + ".")


def agreement_z(curve: pd.DataFrame, kind: str = "similarity") -> pd.Series:
    """Each cut's agreement beyond chance in null standard deviations: (I - E[I]) / sd[I],
    turned round for a distance (so that a positive value is more agreement than chance);
    NA where the null law is one point."""
    sd = curve["null_sd"].where(curve["null_sd"] > 0)
    z = (curve["statistic"] - curve["null_mean"]) / sd
    return -z if kind == "distance" else z


def zoomed(res, max_k: int):
    """The comparison restricted to the cuts k <= ``max_k`` (its curve only; the bands are
    those of all the cuts: the simultaneous band keeps its level over every cut)."""
    from ..inference import HierarchyComparison

    curve = res.curve[res.curve["k"] <= max_k].reset_index(drop=True)
    return HierarchyComparison(curve=curve, index=res.index, names=res.names, n=res.n,
                               alpha=res.alpha, n_permutations=res.n_permutations,
                               global_pvalue=res.global_pvalue, method=res.method,
                               moments=res.moments, alternative=res.alternative,
                               all_cuts_pass=res.all_cuts_pass)


def cut_sizes(tree, k: int) -> list[int]:
    """The sizes of the clusters of ``tree``'s cut into ``k``, largest first."""
    return sorted(np.bincount(tree.cut(k)).tolist(), reverse=True)


def identical_from(curve: pd.DataFrame, best: float) -> int | None:
    """The smallest k from which the index is at its best value (``best``) at every finer cut
    (the trees' first merges join the same pairs), or None when the finest cut is not."""
    at_best = np.isclose(curve["statistic"].to_numpy(), best, rtol=0, atol=1e-12)
    if not at_best[-1]:
        return None
    first = len(at_best) - int(np.argmin(at_best[::-1])) if not at_best.all() else 0
    return int(curve["k"].iloc[first])


def _sizes_text(sizes: list[int], shown: int = 6) -> str:
    more = len(sizes) - shown
    return ", ".join(map(str, sizes[:shown])) + (f" and {more} more" if more > 0 else "")


def cut_table(res, max_k: int, kind: str = "similarity", rows: int = SHOWN_CUTS) -> pd.DataFrame:
    """The cuts k <= ``max_k`` where the trees agree most and least beyond chance.

    The cuts are ranked by ``agreement_z`` (the index minus its null mean, in null standard
    deviations; for a distance turned round): the ``rows`` largest first, then the ``rows``
    smallest (all of them, as "ranked", when there are at most 2 x ``rows`` cuts). Each row
    gives the index, its null mean and sd, z, the per-cut p-value, both bands and where the
    index lies against the simultaneous band (``size_table`` gives the cuts' cluster sizes).

    Parameters
    ----------
    res : HierarchyComparison
        The comparison.
    max_k : int
        The largest k ranked.
    kind : {"similarity", "distance"}
        The index's kind.
    rows : int, default 4
        The cuts shown at each end.

    Returns
    -------
    pandas.DataFrame
        One row per cut shown, indexed by "most" or "least" and k.

    Examples
    --------
    >>> from scipy.cluster.hierarchy import linkage
    >>> X = ca.load_dataset("iris")[0].iloc[::5].to_numpy()
    >>> res = ca.compare_hierarchies(linkage(X, "ward"), linkage(X, "single"),
    ...                              method="permutation", n_permutations=99, seed=1)
    >>> table = cut_table(res, 10, rows=2)
    >>> table.index.tolist()
    [('most', 2), ('most', 8), ('least', 5), ('least', 4)]
    """
    c = res.curve[res.curve["k"] <= max_k].copy()
    c["z"] = agreement_z(c, kind)
    ranked = c.dropna(subset=["z"]).sort_values(["z", "k"], ascending=[False, True])
    if len(ranked) <= 2 * rows:
        most, least = ranked, ranked.iloc[0:0]
    else:
        most, least = ranked.head(rows), ranked.tail(rows).iloc[::-1]
    has_band = "band_high" in c
    name = "Bk" if res.index == "fowlkes_mallows" else res.index

    def row(r):
        out = {name: r["statistic"], "null mean": r["null_mean"], "null sd": r["null_sd"],
               "z": r["z"], "p-value": format_pvalue(r["pvalue"]),
               "pointwise band": _band(r["band_low_pointwise"], r["band_high_pointwise"])}
        if has_band:
            out["simultaneous band"] = _band(r["band_low"], r["band_high"])
            out["vs the band"] = ("above" if r["statistic"] > r["band_high"] else
                                  "below" if r["statistic"] < r["band_low"] else "inside")
        return out

    parts = [(("most" if len(least) else "ranked"), most), ("least", least)]
    records, keys = [], []
    for label, part in parts:
        for _, r in part.iterrows():
            records.append(row(r))
            keys.append((label, int(r["k"])))
    out = pd.DataFrame(records, index=pd.MultiIndex.from_tuples(keys, names=["agree", "k"])
                       if keys else None)
    return out


def size_table(table: pd.DataFrame, tree_a, tree_b, shown: int = 6) -> pd.DataFrame:
    """The sizes of the clusters of both trees' cuts at the cuts of ``cut_table``, largest
    first (the ``shown`` largest, and how many more)."""
    rows = []
    for label, k in table.index:
        rows.append({"agree": label, "k": int(k),
                     f"clusters of {tree_a.name}": _sizes_text(cut_sizes(tree_a, k), shown),
                     f"clusters of {tree_b.name}": _sizes_text(cut_sizes(tree_b, k), shown)})
    return pd.DataFrame(rows).set_index(["agree", "k"])


def _band(low, high) -> str:
    low_text = "-inf" if np.isneginf(low) else significant(float(low))
    high_text = "inf" if np.isposinf(high) else significant(float(high))
    return f"[{low_text}, {high_text}]"


def cophenetic_table(ct) -> pd.DataFrame:
    """The cophenetic test as the report's table: each statistic, its value, its p-value and
    the permutations' mean and 2.5% and 97.5% quantiles."""
    frame = ct.to_frame()
    columns = {"cophenetic correlation": "cophenetic", "Baker's gamma": "bakers_gamma"}
    rows = []
    for _, r in frame.iterrows():
        col = next(v for key, v in columns.items() if r["statistic"].startswith(key))
        null = ct.null[col]
        rows.append({"statistic": r["statistic"], "observed": r["estimate"],
                     "p-value": format_pvalue(r["pvalue"]), "null mean": null.mean(),
                     "null 2.5%": null.quantile(0.025), "null 97.5%": null.quantile(0.975)})
    return pd.DataFrame(rows).set_index("statistic")


# -- figures ----------------------------------------------------------------------------------

def _color_threshold(Z: np.ndarray, k: int) -> float:
    """A height between the merges that leave k clusters and k - 1: the dendrogram then
    colours the k clusters of the cut."""
    n = Z.shape[0] + 1
    if k <= 1 or k >= n:
        return 0.0
    return float((Z[n - k - 1, 2] + Z[n - k, 2]) / 2)


def plot_dendrograms(trees, classes=None, k: int = 3, labels=None):
    """The two trees' dendrograms, one above the other, each cut into ``k`` clusters
    coloured, with the known classes as a strip of colours under the leaves.

    Parameters
    ----------
    trees : list of (name, title, linkage)
        The two trees.
    classes : pandas.Series, optional
        The objects' known classes, in the order of the measurements.
    k : int, default 3
        The cut coloured.
    labels : sequence of str, optional
        The leaves' names, in the order of the measurements: written under the leaves when
        there are at most ``NAMED_LEAVES`` of them.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch
    from scipy.cluster.hierarchy import dendrogram, set_link_color_palette

    n = trees[0][2].shape[0] + 1
    whole = n <= MAX_DRAWN_LEAVES
    strip = classes is not None and whole
    named = labels is not None and n <= NAMED_LEAVES
    per_tree = [1.0, 0.07] if strip else [1.0]
    ratios = per_tree + [0.28] + per_tree  # a spacer row keeps the second title clear
    fig, axes = plt.subplots(len(ratios), 1, figsize=(PAPER_WIDTH, 2.3 * len(trees) + 0.9),
                             gridspec_kw={"height_ratios": ratios, "hspace": 0.08})
    axes[len(per_tree)].set_visible(False)
    axes = [ax for i, ax in enumerate(axes) if i != len(per_tree)]
    palette = ["#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02",
               "#a6761d", "#1f78b4", "#b2df8a", "#fb9a99"]
    set_link_color_palette(palette)
    codes, levels = (None, [])
    if strip:
        levels = sorted(pd.unique(classes.astype(str)))
        codes = pd.Categorical(classes.astype(str), categories=levels).codes
        greys = plt.get_cmap("Greys")(np.linspace(0.25, 0.9, max(len(levels), 2)))
        cmap = ListedColormap(greys[:len(levels)] if len(levels) > 1 else greys[-1:])
    try:
        for i, (name, title, Z) in enumerate(trees):
            ax = axes[2 * i] if strip else axes[i]
            options = dict(color_threshold=_color_threshold(Z, k), above_threshold_color="0.55",
                           ax=ax)
            if whole:
                options.update(no_labels=not named, leaf_rotation=90,
                               leaf_font_size=PAPER_FONT)
                if named:
                    options["labels"] = [str(v) for v in labels]
            else:
                options.update(truncate_mode="lastp", p=60, no_labels=True)
            d = dendrogram(Z, **options)
            ax.set_title(title, fontsize=9, loc="left")
            ax.set_ylabel("height", fontsize=8)
            ax.tick_params(axis="y", labelsize=PAPER_FONT)
            ax.grid(False)
            for side in ("top", "right"):
                ax.spines[side].set_visible(False)
            if strip:
                below = axes[2 * i + 1]
                below.imshow(codes[d["leaves"]][None, :], aspect="auto", cmap=cmap,
                             interpolation="nearest", vmin=0, vmax=max(len(levels) - 1, 1))
                below.set_xticks([])
                below.set_yticks([0], ["class"], fontsize=PAPER_FONT)
                below.grid(False)
    finally:
        set_link_color_palette(None)
    if strip:
        handles = [Patch(color=cmap(j), label=str(level)) for j, level in enumerate(levels)]
        fig.legend(handles=handles, loc="lower center", ncol=min(len(levels), 6),
                   fontsize=PAPER_FONT + 1, frameon=False, title="known classes",
                   title_fontsize=PAPER_FONT + 1, bbox_to_anchor=(0.5, -0.04))
    return fig


def _relabel_legend(ax, index: str) -> None:
    handles, labels = ax.get_legend_handles_labels()
    name = "Bk" if index == "fowlkes_mallows" else index
    labels = [f"{name} (observed)" if lab == index else lab for lab in labels]
    ax.legend(handles, labels, fontsize=PAPER_FONT + 0.5, loc="best", framealpha=0.85)


def plot_bk(res, max_k: int):
    """Fowlkes & Mallows' Bk plot: every cut (k on a log scale when there are many) and the
    cuts k <= ``max_k`` (``HierarchyComparison.plot``), one above the other.

    Parameters
    ----------
    res : HierarchyComparison
        The comparison.
    max_k : int
        The largest k of the second panel (no second panel when every cut is that small).

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    import matplotlib.pyplot as plt

    ks = res.curve["k"]
    zoom = int(ks.max()) > max_k and int((ks <= max_k).sum()) >= 2
    fig, axes = plt.subplots(2 if zoom else 1, 1,
                             figsize=(PAPER_WIDTH, 6.6 if zoom else 3.6))
    axes = np.atleast_1d(axes)
    res.plot(ax=axes[0])
    axes[0].set_title("")  # the API's title (the trees) is the figure's caption here
    axes[0].set_title(f"(a) every cut, k = {int(ks.min())} to {int(ks.max())}"
                      + (" (log scale)" if axes[0].get_xscale() == "log" else ""),
                      fontsize=9, loc="left")
    _relabel_legend(axes[0], res.index)
    if zoom:
        part = zoomed(res, max_k)
        part.plot(ax=axes[1])
        axes[1].set_title("")
        axes[1].set_title(f"(b) the cuts k = {int(ks.min())} to {max_k}", fontsize=9,
                          loc="left")
        step = max(1, int(np.ceil((max_k - int(ks.min()) + 1) / 20)))
        axes[1].set_xticks(range(int(ks.min()), max_k + 1, step))
        _relabel_legend(axes[1], res.index)
    for ax in axes:
        ax.tick_params(labelsize=PAPER_FONT + 0.5)
        ax.xaxis.label.set_size(8)
        ax.yaxis.label.set_size(8)
    fig.tight_layout()
    return fig


def plot_cophenetic(ct, Z_a, Z_b, names):
    """The two trees' cophenetic distances pair by pair (left) and the permutation laws of
    the cophenetic correlation and Baker's gamma with the observed values (right,
    ``CopheneticTest.plot``).

    Parameters
    ----------
    ct : CopheneticTest
        The test.
    Z_a, Z_b : numpy.ndarray
        The linkages (leaves in one order).
    names : (str, str)
        The trees' names.

    Returns
    -------
    matplotlib.figure.Figure
        The figure.
    """
    import matplotlib.pyplot as plt
    from scipy.cluster.hierarchy import cophenet

    fig, (left, right) = plt.subplots(1, 2, figsize=(PAPER_WIDTH, 3.3),
                                      gridspec_kw={"width_ratios": [1, 1.35]})
    ca_, cb_ = cophenet(Z_a), cophenet(Z_b)
    # a tree has at most n - 1 heights: the pairs pile up on few points, drawn by their count
    points, counts = np.unique(np.column_stack([ca_, cb_]), axis=0, return_counts=True)
    left.scatter(points[:, 0], points[:, 1], s=4 + 120 * np.sqrt(counts / counts.max()),
                 alpha=0.35, color="C0", lw=0)
    left.set_xlabel(f"cophenetic distance, {names[0]}", fontsize=8)
    left.set_ylabel(f"cophenetic distance, {names[1]}", fontsize=8)
    left.set_title(f"{len(ca_):,} pairs of leaves (area: pairs at a point)", fontsize=8,
                   loc="left")
    ct.plot(ax=right)
    for patch in right.patches:  # the null laws are narrow beside the observed values: their
        patch.set_alpha(0.8)      # bars outlined in their colour, or they vanish at print size
        patch.set_edgecolor(patch.get_facecolor())
        patch.set_linewidth(0.6)
    right.set_title("")
    right.set_title(ct.how.replace(": ", ":\n", 1), fontsize=8, loc="left")
    right.legend(fontsize=PAPER_FONT, loc="upper center", framealpha=0.85)
    for ax in (left, right):
        ax.tick_params(labelsize=PAPER_FONT + 0.5)
    right.xaxis.label.set_size(8)
    right.yaxis.label.set_size(8)
    fig.tight_layout()
    return fig


# -- the reading ------------------------------------------------------------------------------

def _z_text(z) -> str:
    return "NA" if pd.isna(z) else significant(float(z), 3)


def reading(res, ct, table: pd.DataFrame, max_k: int, tree_a, tree_b, kind: str = "similarity",
            best: float = 1.0, classes=None) -> str:
    """The report's closing text, written from its numbers.

    Parameters
    ----------
    res : HierarchyComparison
        The comparison at every cut.
    ct : CopheneticTest
        The cophenetic test.
    table : pandas.DataFrame
        ``cut_table(res, max_k, ...)``.
    max_k : int
        The largest k of the table.
    tree_a, tree_b : Hierarchy
        The trees.
    kind : {"similarity", "distance"}
        The index's kind.
    best : float, default 1.0
        The index's value for two identical cuts.
    classes : pandas.Series, optional
        Known classes (their number is named).

    Returns
    -------
    str
        Markdown: a list of short paragraphs.
    """
    name = "Bk" if res.index == "fowlkes_mallows" else res.index
    a, b = tree_a.name, tree_b.name
    level = f"{1 - res.alpha:.0%}"
    sentence = res.sentence()
    lines = [f"**At every cut.** {sentence[0].upper() + sentence[1:]}"]
    curve = res.curve
    if res.n_permutations:
        above, below = res.outside()
        ks = curve["k"].tolist()
        inside = [k for k in ks if k not in above and k not in below]
        if inside:
            how = "no more" if res.alternative == "greater" else \
                "no less" if res.alternative == "less" else "neither more nor less"
            lines.append(
                f"Inside the simultaneous band, at k = {ranges(inside)}, the cuts of the two "
                f"trees agree {how} than the cuts of two unrelated trees with the same cluster "
                f"sizes would: there the partitions of {a} and {b} are no more alike than "
                "chance makes partitions of these sizes.")
    if len(table):
        labels = table.index.get_level_values(0)
        most = table[labels != "least"]
        least = table[labels == "least"]
        top = most.iloc[0]
        k_top = int(most.index[0][1])
        low = (least.iloc[0], int(least.index[0][1])) if len(least) else \
            (most.iloc[-1], int(most.index[-1][1]))
        lines.append(
            f"**Where they agree most and least.** Among the cuts into 2 to {max_k} clusters, "
            f"{a} and {b} agree most beyond chance at k = {k_top} ({name} = "
            f"{significant(top[name])}, where chance gives {significant(top['null mean'])}"
            f" with sd {significant(top['null sd'])}: z = {_z_text(top['z'])}) and least at "
            f"k = {low[1]} ({name} = {significant(low[0][name])}, chance "
            f"{significant(low[0]['null mean'])}, z = {_z_text(low[0]['z'])}). At k = {low[1]}"
            f" the clusters of {a} hold {_sizes_text(cut_sizes(tree_a, low[1]))} objects and "
            f"those of {b} {_sizes_text(cut_sizes(tree_b, low[1]))}.")
    fine = identical_from(curve, best)
    if fine is not None and fine > int(curve["k"].min()):
        lines.append(
            f"**The finest cuts.** From k = {fine} on, the two trees' cuts are the same "
            f"partition ({name} = {best:g}): their first {res.n - fine} merges join the same "
            "objects, as linkages of the same distances do when both start from the closest "
            "pairs. Agreement there says little about the trees' structure; the coarse cuts are "
            "where linkage methods differ.")
    if ct.statistic is not None:
        r = ct.statistic
        strength = ("pairs joined low in one tree tend to be joined low in the other"
                    if r >= 0.5 else "the heights at which the two trees join a pair are only "
                    "loosely related" if r > 0 else "the trees' heights are not positively "
                    "related")
        lines.append(f"**Heights and order of merging.** {ct.sentence()} With a cophenetic "
                     f"correlation of {significant(r, 3)}, {strength}; Baker's gamma "
                     f"({significant(ct.bakers_gamma, 3)}) measures the same for the order in "
                     "which pairs are joined, whatever the heights.")
    else:
        lines.append(f"**Order of merging.** {ct.sentence()}")
    lines.append(
        "**What chance means here.** Every p-value and band above is against the permutation "
        f"model: {b}'s leaves relabelled at random, which keeps the shape of each tree. It "
        f"asks whether the trees agree more than two unrelated trees would; two trees built "
        "from the same measurements nearly always do, so the informative findings are the cuts"
        f" where they do not, and how far {name} stands above chance elsewhere. Read the "
        f"simultaneous {level} band when looking at every cut at once: the pointwise band, "
        "read at many cuts, is crossed somewhere by chance alone.")
    if classes is not None:
        lines.append(f"The known classes ({classes.nunique()}) are shown under the "
                     "dendrograms and take no part in any test.")
    return "\n\n".join(lines)


def ranges(ks) -> str:
    """2-5, 9 for [2, 3, 4, 5, 9] (``clusteragree._display.integer_ranges``)."""
    return integer_ranges(ks)
