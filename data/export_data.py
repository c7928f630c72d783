"""Write the data sets of data/ as CSV, once (development only; tests do not run it).

How the CSV files were made, so that anyone can make them again:

* ``iris.csv``, ``wine.csv``, ``breast_cancer.csv``: scikit-learn's bundled copies
  (``sklearn.datasets.load_iris``, ``load_wine``, ``load_breast_cancer``; files inside the
  scikit-learn wheel, nothing is downloaded). Features under scikit-learn's names, then the
  class column ``class`` holding the class names (``target_names``).
* ``vehicle.csv``, ``glass.csv``, ``pima.csv``, ``sonar.csv``, ``ionosphere.csv``,
  ``breast_cancer_original.csv``: the R package mlbench's data frames ``Vehicle``, ``Glass``,
  ``PimaIndiansDiabetes``, ``Sonar``, ``Ionosphere`` and ``BreastCancer``, read from the
  package's ``.rda`` files with pyreadr. Columns keep mlbench's names and order, the class
  column last. Factors become numbers: BreastCancer's nine scores (factors with levels
  "1" ... "10") become the integer scores, Ionosphere's V1 (levels "0", "1") and V2 (the
  single level "0") become 0/1 integers. Missing values (16 in BreastCancer's Bare.nuclei)
  stay missing (empty fields); ``clusteragree.load_dataset`` decides what to do with them.
* ``wine_clusterings.csv``: the wine data's 178 objects, their class (from ``wine.csv``) and 12
  clusterings of their 13 features standardised (``sklearn.preprocessing.StandardScaler``):
  k-means (``KMeans(k, n_init=10, random_state=0)``), Ward and average linkage
  (``AgglomerativeClustering(k, linkage=...)``) and a Gaussian mixture
  (``GaussianMixture(k, n_init=5, random_state=0)``, full covariances) at k = 2, 3, 4, columns
  ``kmeans_2``, ``ward_2``, ``average_2``, ``gmm_2``, ..., ``gmm_4``. Each clustering's labels are
  renumbered 1, 2, ... in the order in which its clusters first appear in the rows, so the file
  does not depend on how scikit-learn numbers clusters. ``wine_clusterings()`` computes them
  (``tests/test_datasets.py`` compares the file with it); only this file is rewritten by
  ``python data/export_data.py wine_clusterings`` (scikit-learn only).
* ``wine_noise.csv``: the same 178 wines, their class and 6 density-based clusterings of the 13
  standardised features (``StandardScaler``), made with scikit-learn 1.9.1, whose labels -1 are
  noise (objects left unclustered): ``HDBSCAN(min_cluster_size=m, copy=True)`` (other settings
  at their defaults: ``min_samples=None``, i.e. m, Euclidean metric,
  ``cluster_selection_method="eom"``, ``allow_single_cluster=False``) for m = 5, 10, 15
  (columns ``hdbscan_5``, ``hdbscan_10``, ``hdbscan_15``; 58, 75 and 82 noise objects, 2
  clusters each) and ``DBSCAN(eps=e, min_samples=5)`` (Euclidean) for e = 2.0, 2.2, 2.4
  (columns ``dbscan_2.0``, ``dbscan_2.2``, ``dbscan_2.4``; 85, 55 and 36 noise objects; 5, 2
  and 2 clusters). The clusters are renumbered 1, 2, ... in order of first appearance, -1
  kept. Both algorithms are deterministic (no seed); ``wine_noise()`` computes them and
  ``python data/export_data.py wine_noise`` rewrites this file alone (scikit-learn only).

Requirements (development only, never at run time): Debian's ``r-cran-mlbench``
(``apt-get install r-cran-mlbench``; its data live in /usr/lib/R/site-library/mlbench/data/),
``pip install pyreadr scikit-learn``. Run from anywhere:
``python data/export_data.py`` (it writes beside itself; with names, e.g.
``wine_clusterings`` or ``wine_noise``, only those files).
Columns holding only whole numbers are written as integers, the others with the shortest
representation that reads back to the same float (pandas' default), so that a CSV read back
equals its source exactly.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
MLBENCH = Path("/usr/lib/R/site-library/mlbench/data")

#: file stem -> (mlbench data frame, class column, columns written as text, factor columns)
FROM_MLBENCH = {
    "vehicle": ("Vehicle", "Class", (), ()),
    "glass": ("Glass", "Type", (), ()),
    "pima": ("PimaIndiansDiabetes", "diabetes", (), ()),
    "sonar": ("Sonar", "Class", (), ()),
    "ionosphere": ("Ionosphere", "Class", (), ("V1", "V2")),
    "breast_cancer_original": (
        "BreastCancer", "Class", ("Id",),
        ("Cl.thickness", "Cell.size", "Cell.shape", "Marg.adhesion", "Epith.c.size",
         "Bare.nuclei", "Bl.cromatin", "Normal.nucleoli", "Mitoses"),
    ),
}


def _compact(frame: pd.DataFrame, text: tuple = ()) -> pd.DataFrame:
    """Whole-number float columns as nullable integers (missing values stay missing)."""
    out = frame.copy()
    for col in out.columns:
        if col in text or not pd.api.types.is_float_dtype(out[col]):
            continue
        values = out[col].dropna()
        if (values == values.round()).all():
            out[col] = out[col].astype("Int64")
    return out


def export_sklearn() -> None:
    from sklearn import datasets

    for stem, load in (("iris", datasets.load_iris), ("wine", datasets.load_wine),
                       ("breast_cancer", datasets.load_breast_cancer)):
        bunch = load(as_frame=True)
        frame = bunch.data.copy()
        frame["class"] = [str(bunch.target_names[t]) for t in bunch.target]
        frame.to_csv(HERE / f"{stem}.csv", index=False)
        print(stem, frame.shape)


def export_mlbench() -> None:
    import pyreadr

    for stem, (rname, target, text, factors) in FROM_MLBENCH.items():
        frame = pyreadr.read_r(str(MLBENCH / f"{rname}.rda"))[rname]
        frame = frame.reset_index(drop=True)
        for col in factors:  # level labels are the numbers themselves ("1" ... "10", "0")
            frame[col] = pd.to_numeric(frame[col].astype("string"), errors="raise")
            frame[col] = frame[col].astype("Int64")
        for col in text:
            frame[col] = frame[col].astype("string")
        frame[target] = frame[target].astype("string")
        assert list(frame.columns)[-1] == target, (rname, list(frame.columns))
        _compact(frame, text).to_csv(HERE / f"{stem}.csv", index=False)
        print(stem, frame.shape, frame[target].value_counts().to_dict())


#: The algorithms of ``wine_clusterings.csv``, in the order of its columns (each at k = 2, 3, 4).
ALGORITHMS = ("kmeans", "ward", "average", "gmm")
#: The numbers of clusters of ``wine_clusterings.csv``.
CLUSTER_COUNTS = (2, 3, 4)


def _first_appearance(labels) -> list[int]:
    """Labels renumbered 1, 2, ... in the order in which they first appear."""
    codes, _ = pd.factorize(pd.Series(labels), sort=False)
    return [int(c) + 1 for c in codes]


def _cluster(algorithm: str, k: int, features):
    """One clustering of the standardised features (fixed seeds)."""
    from sklearn.cluster import AgglomerativeClustering, KMeans
    from sklearn.mixture import GaussianMixture

    if algorithm == "kmeans":
        return KMeans(n_clusters=k, n_init=10, random_state=0).fit_predict(features)
    if algorithm in ("ward", "average"):
        return AgglomerativeClustering(n_clusters=k, linkage=algorithm).fit_predict(features)
    return GaussianMixture(n_components=k, covariance_type="full", n_init=5,
                           random_state=0).fit_predict(features)


#: The scikit-learn that made ``wine_clusterings.csv``: k-means and the Gaussian mixture draw
#: their starts from fixed seeds, which another version may use differently.
WINE_CLUSTERINGS_SKLEARN = "1.9.1"


def wine_clusterings() -> pd.DataFrame:
    """The wine data's class and its 12 clusterings (``wine_clusterings.csv``), computed.

    Returns
    -------
    DataFrame
        One row per object of ``wine.csv``, in its order: ``class`` (its text) and the columns
        ``{algorithm}_{k}`` for k in 2, 3, 4 and each algorithm of ``ALGORITHMS``, labels
        1 ... k numbered in order of first appearance.
    """
    from sklearn.preprocessing import StandardScaler

    wine = pd.read_csv(HERE / "wine.csv")
    features = StandardScaler().fit_transform(wine.drop(columns="class").to_numpy(float))
    out = pd.DataFrame({"class": wine["class"].astype(str)})
    for k in CLUSTER_COUNTS:
        for algorithm in ALGORITHMS:
            out[f"{algorithm}_{k}"] = _first_appearance(_cluster(algorithm, k, features))
    return out


def export_wine_clusterings() -> None:
    frame = wine_clusterings()
    frame.to_csv(HERE / "wine_clusterings.csv", index=False)
    print("wine_clusterings", frame.shape)


#: The density-based clusterings of ``wine_noise.csv``, in the order of its columns: column ->
#: (algorithm, its settings). Labels -1 are noise.
NOISE_CLUSTERINGS = {
    "hdbscan_5": ("HDBSCAN", {"min_cluster_size": 5}),
    "hdbscan_10": ("HDBSCAN", {"min_cluster_size": 10}),
    "hdbscan_15": ("HDBSCAN", {"min_cluster_size": 15}),
    "dbscan_2.0": ("DBSCAN", {"eps": 2.0, "min_samples": 5}),
    "dbscan_2.2": ("DBSCAN", {"eps": 2.2, "min_samples": 5}),
    "dbscan_2.4": ("DBSCAN", {"eps": 2.4, "min_samples": 5}),
}
#: The scikit-learn that made ``wine_noise.csv`` (both algorithms are deterministic).
WINE_NOISE_SKLEARN = "1.9.1"


def _noise_labels(labels) -> list[int]:
    """Clusters renumbered 1, 2, ... in order of first appearance; noise (-1) kept as -1."""
    labels = [int(v) for v in labels]
    order = {}
    for v in labels:
        if v != -1 and v not in order:
            order[v] = len(order) + 1
    return [-1 if v == -1 else order[v] for v in labels]


def wine_noise() -> pd.DataFrame:
    """The wine data's class and its 6 density-based clusterings (``wine_noise.csv``), computed.

    Returns
    -------
    DataFrame
        One row per object of ``wine.csv``, in its order: ``class`` (its text) and the columns
        of ``NOISE_CLUSTERINGS``: -1 for noise, the clusters 1 ... k in order of first
        appearance.
    """
    from sklearn.cluster import DBSCAN, HDBSCAN
    from sklearn.preprocessing import StandardScaler

    wine = pd.read_csv(HERE / "wine.csv")
    features = StandardScaler().fit_transform(wine.drop(columns="class").to_numpy(float))
    out = pd.DataFrame({"class": wine["class"].astype(str)})
    for column, (algorithm, settings) in NOISE_CLUSTERINGS.items():
        model = (HDBSCAN(copy=True, **settings) if algorithm == "HDBSCAN"
                 else DBSCAN(**settings))
        out[column] = _noise_labels(model.fit_predict(features))
    return out


def export_wine_noise() -> None:
    frame = wine_noise()
    frame.to_csv(HERE / "wine_noise.csv", index=False)
    print("wine_noise", frame.shape, {c: int((frame[c] == -1).sum()) for c in frame.columns[1:]})


EXPORTS = {"sklearn": export_sklearn, "mlbench": export_mlbench,
           "wine_clusterings": export_wine_clusterings, "wine_noise": export_wine_noise}


if __name__ == "__main__":
    for name in sys.argv[1:] or EXPORTS:
        EXPORTS[name]()
