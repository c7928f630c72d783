"""The reports' per-cluster sections (issue 44): which clusters of two clusterings agree
(``ca.cluster_agreement``, in the agreement report) and how stable each cluster of a clustering
is under resampling (``ca.cluster_stability``, in the clusterings report).

Nothing here needs scikit-learn to be imported: the stability section reruns the algorithms of
the built-in clusterings with it (``clusterer_of``), and a report without it says so.

>>> res = ca.cluster_agreement([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1])
>>> cluster_table(res)["Jaccard"].tolist()
['0.6667', '0.7500', '0.6667', '0.7500']
"""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pandas as pd

from .._display import format_pvalue, significant
from ..inference.cluster_results import PLOTTED_CLUSTERS

__all__ = ["PLOTTED_CLUSTERS", "TABLE_ROWS", "FEATURES", "ALGORITHMS", "cluster_table",
           "split_sentences", "decomposition_table", "algorithm_of", "clusterer_of",
           "builtin_features", "standardise", "stability_table", "named_as_column",
           "SKLEARN_MISSING"]

#: The most clusters of each side the report's per-cluster table shows (the rest are said).
TABLE_ROWS = 30

#: The built-in clusterings whose objects' measurements ship with the package: data set ->
#: the data set of the measurements (``ca.load_dataset``), in the same order of objects.
FEATURES = {"wine_clusterings": "wine", "wine_noise": "wine"}

#: The algorithms the stability section can rerun, by the prefix of a clustering's name
#: (``kmeans_3``, ``hdbscan_10``, ``dbscan_2.2``): as ``data/export_data.py`` ran them.
ALGORITHMS = {
    "kmeans": "k-means (scikit-learn's KMeans, n_init=10, random_state=0)",
    "ward": "Ward's hierarchical clustering (AgglomerativeClustering, linkage='ward')",
    "average": "average-linkage hierarchical clustering (AgglomerativeClustering, "
               "linkage='average')",
    "gmm": "a Gaussian mixture (GaussianMixture, full covariances, n_init=5, random_state=0)",
    "hdbscan": "HDBSCAN (min_cluster_size as named)",
    "dbscan": "DBSCAN (eps as named, min_samples=5)",
}

#: What the report says when scikit-learn, which reruns the algorithms, is not installed.
SKLEARN_MISSING = ("The stability of each cluster reruns the clustering's algorithm on "
                   "resamples of the data, and the algorithms are scikit-learn's, which is not "
                   "installed here: `pip install scikit-learn` and render the report again.")

_NAME = re.compile(r"^(kmeans|ward|average|gmm|hdbscan|dbscan)_(\d+(?:\.\d+)?)$")


def _pvalue(p) -> str:
    """A p-value as ``ClusterAgreement`` prints it: 3 significant digits, "<1e-300" for one
    that underflowed to 0."""
    if pd.isna(p):
        return "NA"
    return "<1e-300" if float(p) == 0 else format_pvalue(float(p))


def cluster_table(res, limit: int = TABLE_ROWS) -> pd.DataFrame:
    """The per-cluster table of a ``ClusterAgreement``, as the agreement report shows it.

    Parameters
    ----------
    res : ClusterAgreement
        The result of ``ca.cluster_agreement``.
    limit : int, default TABLE_ROWS
        The most clusters of each side shown (``res.to_frame()`` has them all).

    Returns
    -------
    DataFrame
        One row per cluster of x, then of y, as text: the clustering (its name), the cluster,
        its partner, the sizes, the overlap, Jaccard, precision, recall and F1 to 4
        significant digits, the p-value and the adjusted p-value to 3 (as the package prints
        them). ``attrs["left_out"]`` says which clusters were left out ("" when none).

    Examples
    --------
    >>> res = ca.cluster_agreement([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1])
    >>> cluster_table(res)[["cluster", "partner", "overlap"]].values.tolist()
    [['0', '0', '2'], ['1', '1', '3'], ['0', '0', '2'], ['1', '1', '3']]
    """
    frame = res.to_frame()
    parts, left = [], []
    for side, name in zip("xy", res.names):
        rows = frame[frame["side"] == side]
        parts.append(rows.iloc[:limit])
        if len(rows) > limit:
            left.append(f"{len(rows) - limit:,} clusters of {name}")
    frame = pd.concat(parts)

    def count(v):
        return "NA" if pd.isna(v) else f"{int(v):,}"

    out = pd.DataFrame({
        "clustering": [res.names[0] if s == "x" else res.names[1] for s in frame["side"]],
        "cluster": [str(v) for v in frame["cluster"]],
        "partner": ["none" if pd.isna(v) else str(v) for v in frame["partner"]],
        "size": [count(v) for v in frame["size"]],
        "partner's size": [count(v) for v in frame["partner_size"]],
        "overlap": [count(v) for v in frame["overlap"]],
        "Jaccard": [significant(v) for v in frame["jaccard"]],
        "precision": [significant(v) for v in frame["precision"]],
        "recall": [significant(v) for v in frame["recall"]],
        "F1": [significant(v) for v in frame["f1"]],
        "p-value": [_pvalue(v) for v in frame["pvalue"]],
        f"p ({res.multiple}-adjusted)" if res.multiple else "p (not adjusted)":
            [_pvalue(v) for v in frame["pvalue_adjusted"]],
    })
    out.attrs["left_out"] = (" and ".join(left) + " are not shown") if left else ""
    return out.reset_index(drop=True)


def split_sentences(res, limit: int = 12) -> list[str]:
    """The splits and merges of a ``ClusterAgreement`` in words, one sentence per cluster.

    Parameters
    ----------
    res : ClusterAgreement
        The result of ``ca.cluster_agreement``.
    limit : int, default 12
        Say at most this many, then how many more there are.

    Returns
    -------
    list of str
        E.g. "class_1 of *class* is split over 3 (49%) and 2 (44%) of *kmeans_4*"; empty
        when there is no split or merge.

    Examples
    --------
    >>> res = ca.cluster_agreement([0, 0, 0, 0, 1, 1], [0, 0, 1, 1, 1, 1])
    >>> split_sentences(res)
    ['0 of *x* is split over 0 (50%) and 1 (50%) of *y*', '1 of *y* merges 0 (50%) and 1 (50%) of *x*']
    """
    x_name, y_name = res.names
    lines = []
    for (side, label), part in res.splits.groupby(["side", "cluster"], sort=False):
        words = [f"{p} ({s:.0%})" for p, s in zip(part["part"], part["share"])]
        words = ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else words[0]
        if side == "x":
            lines.append(f"{label} of *{x_name}* is split over {words} of *{y_name}*")
        else:
            lines.append(f"{label} of *{y_name}* merges {words} of *{x_name}*")
    if len(lines) > limit:
        lines = lines[:limit] + [f"... and {len(lines) - limit:,} more"]
    return lines


def decomposition_table(res, index: str = "adjusted_rand", limit: int = 20) -> pd.DataFrame:
    """An index as the weighted sum of its cluster-level values (Warrens & van der Hoef 2022).

    Parameters
    ----------
    res : ClusterAgreement
        The result of ``ca.cluster_agreement``.
    index : str, default "adjusted_rand"
        One of the indices of ``res.decomposition``.
    limit : int, default 20
        The most clusters shown, the largest weights first.

    Returns
    -------
    DataFrame
        One row per cluster of either side, the largest weights first: the clustering, the
        cluster, its size, its weight, its cluster-level value and their product (its share
        of the index); ``attrs["total"]`` is the index (the sum of the products over every
        cluster), ``attrs["left_out"]`` the number of clusters not shown.

    Examples
    --------
    >>> res = ca.cluster_agreement([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1])
    >>> t = decomposition_table(res)
    >>> round(t.attrs["total"], 10) == round(ca.agreement([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1]), 10)
    True
    """
    d = res.decomposition
    d = d[d["index"] == index]
    sizes = res.to_frame().set_index(["side", "cluster"])["size"]
    out = pd.DataFrame({
        "clustering": [res.names[0] if s == "x" else res.names[1] for s in d["side"]],
        "cluster": [str(c) for c in d["cluster"]],
        "size": [int(sizes.get((s, c), 0)) for s, c in zip(d["side"], d["cluster"])],
        "weight": d["weight"].to_numpy(float),
        "value": d["value"].to_numpy(float),
    })
    out["weight x value"] = out["weight"] * out["value"]
    total = float(np.nansum(out["weight x value"]))
    out = out.sort_values("weight", ascending=False, kind="stable").reset_index(drop=True)
    left = max(0, len(out) - limit)
    out = out.iloc[:limit]
    out.attrs.update(total=total, left_out=left)
    return out


# -- stability ------------------------------------------------------------------------------

def algorithm_of(name: str):
    """The algorithm and its setting a clustering's name stands for (``kmeans_3`` -> ("kmeans",
    "3")), or None for a name of no known algorithm.

    Parameters
    ----------
    name : str
        A clustering's name (a column of the clusterings).

    Returns
    -------
    tuple of (str, str) or None
        The algorithm (a key of ``ALGORITHMS``) and its setting as written.

    Examples
    --------
    >>> algorithm_of("ward_4"), algorithm_of("dbscan_2.2"), algorithm_of("mine")
    (('ward', '4'), ('dbscan', '2.2'), None)
    """
    match = _NAME.match(str(name))
    return (match.group(1), match.group(2)) if match else None


def clusterer_of(name: str):
    """The scikit-learn estimator that made the clustering named ``name``, as
    ``data/export_data.py`` ran it for the built-in clusterings.

    Parameters
    ----------
    name : str
        ``kmeans_k``, ``ward_k``, ``average_k``, ``gmm_k``, ``hdbscan_m`` or ``dbscan_eps``.

    Returns
    -------
    estimator
        An unfitted estimator with ``fit_predict``.

    Raises
    ------
    ValueError
        A name of no known algorithm.
    ImportError
        scikit-learn is not installed.

    Examples
    --------
    >>> clusterer_of("kmeans_3")  # doctest: +SKIP
    KMeans(n_clusters=3, n_init=10, random_state=0)
    """
    found = algorithm_of(name)
    if found is None:
        raise ValueError(f"{name!r} names no algorithm the report can rerun; known: "
                         + ", ".join(f"{a}_k" for a in ALGORITHMS))
    algorithm, setting = found
    from sklearn.cluster import DBSCAN, HDBSCAN, AgglomerativeClustering, KMeans
    from sklearn.mixture import GaussianMixture

    if algorithm == "dbscan":
        return DBSCAN(eps=float(setting), min_samples=5)
    k = int(float(setting))
    if algorithm == "kmeans":
        return KMeans(n_clusters=k, n_init=10, random_state=0)
    if algorithm in ("ward", "average"):
        return AgglomerativeClustering(n_clusters=k, linkage=algorithm)
    if algorithm == "gmm":
        return GaussianMixture(n_components=k, covariance_type="full", n_init=5,
                               random_state=0)
    return HDBSCAN(min_cluster_size=k, copy=True)


def standardise(X) -> np.ndarray:
    """Each column to mean 0 and standard deviation 1 (the population's, as scikit-learn's
    ``StandardScaler``); a constant column to 0.

    Parameters
    ----------
    X : array-like of shape (n, p)
        The measurements.

    Returns
    -------
    numpy.ndarray
        The standardised measurements.

    Examples
    --------
    >>> standardise([[1.0, 5.0], [3.0, 5.0]]).tolist()
    [[-1.0, 0.0], [1.0, 0.0]]
    """
    X = np.asarray(X, dtype=float)
    sd = X.std(axis=0)
    return (X - X.mean(axis=0)) / np.where(sd > 0, sd, 1.0)


def builtin_features(dataset: str):
    """The measurements of the objects of built-in clusterings, or None when none ship.

    Parameters
    ----------
    dataset : str
        Built-in clusterings (``ca.datasets.CLUSTERINGS``).

    Returns
    -------
    DataFrame or None
        One row per object, in the clusterings' order (``FEATURES``).

    Examples
    --------
    >>> builtin_features("wine_clusterings").shape
    (178, 13)
    """
    from ..datasets import load_dataset

    if dataset not in FEATURES:
        return None
    X, _ = load_dataset(FEATURES[dataset])
    return pd.DataFrame(X).reset_index(drop=True)


def _label_key(label):
    """Labels in their natural order: numbers by value, before text."""
    try:
        return (0, float(label), "")
    except ValueError:
        return (1, 0.0, str(label))


def named_as_column(stability, column):
    """A rerun clustering's stability with its clusters named as the clustering's own, when
    the rerun is that clustering, in the order of their labels.

    Parameters
    ----------
    stability : ClusterStability
        ``ca.cluster_stability`` of the clustering's algorithm rerun on the measurements,
        its clusters labelled as the rerun labelled them.
    column : array-like
        The clustering's labels of the same objects (as in the clusterings file).

    Returns
    -------
    ClusterStability
        The same result, its ``summary`` and ``jaccard`` clusters renamed to the
        clustering's labels when the rerun puts the objects exactly as the clustering does
        (otherwise as the rerun named them), in their natural order.
    str
        The relation in words: "the same partition" or the rerun's ARI with the clustering.

    Examples
    --------
    >>> X = np.array([[0.0], [0.1], [5.0], [5.1], [9.0], [9.2]])
    >>> st = ca.cluster_stability(X, lambda d: np.digitize(d[:, 0], [2.5, 7.0]),
    ...                           n_resamples=3, seed=1, progress=False)
    >>> named, words = named_as_column(st, ["b", "b", "c", "c", "a", "a"])
    >>> named.summary["cluster"].tolist(), words
    (['a', 'b', 'c'], 'the same partition')
    """
    from ..inference import agreement
    from ..inputs import crosstab

    labels = np.asarray(stability.labels).astype(str)
    column = np.asarray(column).astype(str)
    tab = crosstab(labels, column)
    counts = np.asarray(tab.to_dense().counts)
    same = ((counts > 0).sum(axis=1) == 1).all() and ((counts > 0).sum(axis=0) == 1).all()
    rows = [str(r) for r in tab.row_labels]
    cols = [str(c) for c in tab.col_labels]
    names = ({r: cols[int(np.argmax(counts[i]))] for i, r in enumerate(rows)} if same else {})
    words = "the same partition" if same else f"ARI {agreement(labels, column):.4f} with it"
    summary = stability.summary.copy()
    summary["cluster"] = [names.get(str(c), str(c)) for c in summary["cluster"]]
    jaccard = stability.jaccard.copy()
    jaccard.columns = pd.Index(summary["cluster"].tolist(), name="cluster")
    order = sorted(range(len(summary)), key=lambda i: _label_key(summary["cluster"].iloc[i]))
    summary = summary.iloc[order].reset_index(drop=True)
    jaccard = jaccard.iloc[:, order]
    return dataclasses.replace(stability, summary=summary, jaccard=jaccard), words


def stability_table(summary: pd.DataFrame) -> pd.DataFrame:
    """``ClusterStability.summary`` as the clusterings report shows it.

    Parameters
    ----------
    summary : DataFrame
        ``ClusterStability.summary`` (its clusters possibly renamed by ``named_as_column``).

    Returns
    -------
    DataFrame
        Indexed by cluster: its size, the mean Jaccard, its standard deviation and Monte Carlo
        standard error to 3 significant digits, the resamples that dissolved and recovered it
        (count and share), and Hennig's reading.

    Examples
    --------
    >>> X, _ = ca.load_dataset("iris")
    >>> st = ca.cluster_stability(X, lambda d: (d[:, 2] > 2.5).astype(int), n_resamples=5,
    ...                           seed=1, progress=False)
    >>> stability_table(st.summary)["reading"].tolist()
    ['highly stable', 'highly stable']
    """
    return pd.DataFrame({
        "size": summary["size"].to_numpy(),
        "mean Jaccard": [significant(v, 3) for v in summary["mean_jaccard"]],
        "sd": [significant(v, 3) for v in summary["sd"]],
        "se": [significant(v, 3) for v in summary["se"]],
        "dissolved": [f"{d} ({s:.0%})" for d, s in zip(summary["dissolved"],
                                                       summary["dissolved_share"])],
        "recovered": [f"{r} ({s:.0%})" for r, s in zip(summary["recovered"],
                                                       summary["recovered_share"])],
        "reading": summary["reading"].to_numpy(),
    }, index=pd.Index([str(c) for c in summary["cluster"]], name="cluster"))
