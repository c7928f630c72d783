"""Data sets shipped inside the package (the repository's ``data/``, as ``clusteragree.data``).

Three kinds, all read from CSV files through ``importlib.resources``, so that an installed wheel
has them (nothing is downloaded):

* tables (``DATASETS``): contingency tables quoted from {ref:amorim2015}; ``load_dataset`` returns a
  ``ContingencyTable``;
* data (``DATA``): real data sets with known classes, objects in rows (iris, wine, the Statlog
  vehicle silhouettes the thesis calls "Cars Silhouette", ...); ``load_dataset`` returns
  ``(X, y)``, X a DataFrame of numeric features and y the classes, on the same index;
* clusterings (``CLUSTERINGS``): several clusterings of the same objects with their classes,
  one column each (the wine data by k-means, Ward, average linkage and a Gaussian mixture at
  k = 2, 3, 4; the wine data by HDBSCAN and DBSCAN, whose label -1 is noise); ``load_dataset``
  returns the DataFrame, ready for ``agreement_matrix``.

``list_datasets()`` lists them all.

>>> import clusteragree as ca
>>> tab = ca.load_dataset("statlog_em")
>>> tab.shape, tab.n
((4, 4), 846)
>>> X, y = ca.load_dataset("vehicle")
>>> X.shape, y.value_counts(sort=False).to_dict()
((846, 18), {'bus': 218, 'opel': 212, 'saab': 217, 'van': 199})
>>> ca.load_dataset("wine_clusterings").shape
(178, 13)
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import pandas as pd

from ._docs import fill, fill_doc
from ._validate import check_bool, suggest
from .tables import ContingencyTable

__doc__ = fill(__doc__)

__all__ = ["ALIASES", "CLUSTERINGS", "DATA", "DATASETS", "Clusterings", "DataSet", "data_dir",
           "list_datasets", "load_dataset"]

_THESIS = ("Amorim, M. J. (2015), On clustering stability, PhD thesis, ISCTE - University "
           "Institute of Lisbon")
_UCI = "UCI Machine Learning Repository (Dua & Graff; earlier Newman, Hettich, Blake & Merz 1998)"

#: Tables: name -> (file, names of the row and column clusterings, description).
#: Both tables are from Amorim (2015), "On clustering stability" (see ``_THESIS``).
DATASETS = {
    "statlog_em": ("statlog_em.csv", ("class", "cluster"),
                   "Statlog (Vehicle Silhouettes) classes x EM clusters, n = 846 "
                   "(Amorim 2015, Ch.4 Table 1)"),
    "thesis_table6a": ("thesis_table6a.csv", ("x", "y"),
                       "two binary partitions, n = 80 (Amorim 2015, Ch.2 Table 6a)"),
}
#: Other names of a data set: alias -> name.
ALIASES = {"statlog_vehicle_em": "statlog_em"}
DATASETS["statlog_vehicle_em"] = DATASETS["statlog_em"]  # so every caller of DATASETS knows it

_TABLE_SOURCES = {"statlog_em": _THESIS + ", Ch.4 Table 1; data: Statlog (Vehicle Silhouettes), "
                  + _UCI, "thesis_table6a": _THESIS + ", Ch.2 Table 6a"}


@dataclass(frozen=True)
class DataSet:
    """A shipped data set with known classes: its CSV file and what is in it.

    Parameters
    ----------
    file : str
        The CSV file in the package's ``data/`` folder (one row per object, a header row).
    target : str
        The column of class labels.
    classes : tuple of str
        The classes in the source's level order (the categories of ``y``).
    description : str
        What the data are, in a sentence.
    source : str
        Where they come from: the authors, year and title of the original work, and the
        repository and package the file was exported from.
    ignore : tuple of str, default ()
        Columns that are neither features nor classes (identifiers).

    See Also
    --------
    load_dataset : Load a data set as ``(X, y)``.
    list_datasets : Every shipped data set.

    Examples
    --------
    >>> spec = ca.datasets.DATA["iris"]
    >>> spec.file, spec.target, spec.classes
    ('iris.csv', 'class', ('setosa', 'versicolor', 'virginica'))
    """

    file: str
    target: str
    classes: tuple[str, ...]
    description: str
    source: str
    ignore: tuple[str, ...] = ()


_SKLEARN = "exported from scikit-learn's bundled copy (sklearn.datasets.{})"
_MLBENCH = "exported from the R package mlbench's {} (Leisch & Dimitriadou)"

#: Data: name -> DataSet. See data/README.md for sources and licences.
DATA = {
    "iris": DataSet(
        "iris.csv", "class", ("setosa", "versicolor", "virginica"),
        "Fisher's iris: 4 measurements (cm) of 150 iris flowers of 3 species",
        "Fisher, R. A. (1936), The use of multiple measurements in taxonomic problems, Annals "
        "of Eugenics 7; " + _UCI + "; " + _SKLEARN.format("load_iris")),
    "wine": DataSet(
        "wine.csv", "class", ("class_0", "class_1", "class_2"),
        "Wine recognition: 13 constituents of 178 Italian wines from 3 cultivars",
        "Forina, M. et al., PARVUS, Institute of Pharmaceutical and Food Analysis and "
        "Technologies, Genoa; " + _UCI + "; " + _SKLEARN.format("load_wine")),
    "breast_cancer": DataSet(
        "breast_cancer.csv", "class", ("malignant", "benign"),
        "Breast Cancer Wisconsin (Diagnostic): 30 features of the cell nuclei in 569 "
        "fine-needle aspirate images",
        "Street, W. N., Wolberg, W. H. & Mangasarian, O. L. (1993), Nuclear feature extraction "
        "for breast tumor diagnosis, SPIE 1905; " + _UCI + "; "
        + _SKLEARN.format("load_breast_cancer")),
    "vehicle": DataSet(
        "vehicle.csv", "Class", ("bus", "opel", "saab", "van"),
        "Statlog (Vehicle Silhouettes), the thesis' 'Cars Silhouette': 18 shape features of "
        "846 silhouettes of 4 model vehicles",
        "Siebert, J. P. (1987), Vehicle recognition using rule based methods, Turing Institute "
        "Research Memorandum TIRM-87-018; " + _UCI + "; " + _MLBENCH.format("Vehicle")),
    "glass": DataSet(
        "glass.csv", "Type", ("1", "2", "3", "5", "6", "7"),
        "Glass Identification: refractive index and 8 oxide contents (weight %) of 214 glass "
        "fragments of 6 types (1, 2: building windows, float / non-float processed; 3: vehicle "
        "windows, float processed; 5: containers; 6: tableware; 7: headlamps; no type 4)",
        "German, B. (1987), Central Research Establishment, Home Office Forensic Science "
        "Service; donor V. Spiehler; " + _UCI + "; " + _MLBENCH.format("Glass")),
    "pima": DataSet(
        "pima.csv", "diabetes", ("neg", "pos"),
        "Pima Indians Diabetes: 8 clinical measurements of 768 women, diabetes negative / "
        "positive; as in the source, 0 stands for a missing value in glucose, pressure, "
        "triceps, insulin and mass",
        "National Institute of Diabetes and Digestive and Kidney Diseases; donor V. Sigillito; "
        "Smith, J. W. et al. (1988), Using the ADAP learning algorithm to forecast the onset "
        "of diabetes mellitus; " + _UCI + "; " + _MLBENCH.format("PimaIndiansDiabetes")),
    "sonar": DataSet(
        "sonar.csv", "Class", ("M", "R"),
        "Sonar, Mines vs. Rocks: energies (0-1) in 60 frequency bands of 208 sonar returns "
        "from metal cylinders (M) and rocks (R)",
        "Gorman, R. P. & Sejnowski, T. J. (1988), Analysis of hidden units in a layered "
        "network trained to classify sonar targets, Neural Networks 1; " + _UCI + "; "
        + _MLBENCH.format("Sonar")),
    "ionosphere": DataSet(
        "ionosphere.csv", "Class", ("bad", "good"),
        "Ionosphere: 34 features of 351 radar returns (17 pulses x 2); V1 is 0/1 (a factor "
        "in mlbench, here its 0/1 code) and V2 is constant 0",
        "Sigillito, V. G., Wing, S. P., Hutton, L. V. & Baker, K. B. (1989), Classification "
        "of radar returns from the ionosphere using neural networks, Johns Hopkins APL "
        "Technical Digest 10; " + _UCI + "; " + _MLBENCH.format("Ionosphere")),
    "breast_cancer_original": DataSet(
        "breast_cancer_original.csv", "Class", ("benign", "malignant"),
        "Breast Cancer Wisconsin (Original): 9 cytology scores (1-10, the levels of mlbench's "
        "factors as numbers) of 699 samples; 16 samples miss Bare.nuclei (683 complete); "
        "the sample code Id is not a feature",
        "Wolberg, W. H. & Mangasarian, O. L. (1990), Multisurface method of pattern separation "
        "for medical diagnosis applied to breast cytology, PNAS 87; " + _UCI + "; "
        + _MLBENCH.format("BreastCancer"),
        ignore=("Id",)),
}


@dataclass(frozen=True)
class Clusterings:
    """A shipped set of clusterings of the same objects: its CSV file and what is in it.

    Parameters
    ----------
    file : str
        The CSV file in the package's ``data/`` folder: one row per object, one column per
        clustering (a header row of their names), the reference first.
    reference : str
        The column of the objects' known classes.
    description : str
        What the clusterings are, in a sentence.
    source : str
        The data's source and how the clusterings were made.

    See Also
    --------
    load_dataset : Load them as a DataFrame.
    clusteragree.agreement_matrix : Compare them.

    Examples
    --------
    >>> spec = ca.datasets.CLUSTERINGS["wine_clusterings"]
    >>> spec.file, spec.reference
    ('wine_clusterings.csv', 'class')
    """

    file: str
    reference: str
    description: str
    source: str


#: Clusterings: name -> Clusterings. Made by ``data/export_data.py`` (its README.md says how).
CLUSTERINGS = {
    "wine_clusterings": Clusterings(
        "wine_clusterings.csv", "class",
        "the 178 wines' cultivar (class) and 12 clusterings of their 13 standardised "
        "features: k-means, Ward, average linkage and a Gaussian mixture (gmm) at k = 2, 3, 4 "
        "(columns kmeans_2, ward_2, average_2, gmm_2, ..., gmm_4; labels 1..k)",
        DATA["wine"].source + "; clustered once with scikit-learn (fixed seeds) by "
        "data/export_data.py"),
    "wine_noise": Clusterings(
        "wine_noise.csv", "class",
        "the 178 wines' cultivar (class) and 6 density-based clusterings of their 13 "
        "standardised features, -1 marking noise (objects left unclustered): HDBSCAN with "
        "min_cluster_size 5, 10, 15 and DBSCAN (min_samples 5) with eps 2.0, 2.2, 2.4 "
        "(columns hdbscan_5, hdbscan_10, hdbscan_15, dbscan_2.0, dbscan_2.2, dbscan_2.4; "
        "clusters 1..k); 36 to 85 noise objects each",
        DATA["wine"].source + "; clustered once with scikit-learn 1.9.1 (deterministic) by "
        "data/export_data.py"),
}


def data_dir() -> Path:
    """The folder holding the data files: ``data/`` inside the installed package.

    Returns
    -------
    pathlib.Path
        The absolute path of the package's ``data/`` folder (its README.md gives the
        sources and licences), wherever the package is installed.

    See Also
    --------
    load_dataset : Read a data set from it.

    Examples
    --------
    >>> (data_dir() / "iris.csv").is_file()
    True
    """
    return Path(str(_data_folder()))


def _data_folder():
    """The package's data folder as an ``importlib.resources`` traversable."""
    return resources.files(f"{__package__}.data")


def _open(file: str):
    """A shipped data file, opened for reading in binary mode."""
    resource = _data_folder().joinpath(file)
    if not resource.is_file():
        raise FileNotFoundError(
            f"data file {file} is missing from the installed package ({_data_folder()}): "
            "reinstall clusteragree (pip install --force-reinstall clusteragree)"
        )
    return resource.open("rb")


def _check_name(name) -> str:
    if not isinstance(name, str):
        raise TypeError(f"name must be a data set name (str), got {type(name).__name__}")
    known = [*DATASETS, *DATA, *CLUSTERINGS]
    if name not in known:
        raise ValueError(
            f"unknown data set {name!r}; available: {sorted(known)}." + suggest(name, known)
        )
    return name


def _read_table(name: str) -> ContingencyTable:
    file, names, _ = DATASETS[name]
    with _open(file) as fh:
        frame = pd.read_csv(fh, index_col=0)
    return ContingencyTable(
        frame.to_numpy(), frame.index.to_numpy(), frame.columns.to_numpy(), names=names
    )


def _read_data(name: str) -> tuple[pd.DataFrame, pd.Series]:
    """The file as it is: features as floats (missing values NaN), classes categorical."""
    spec = DATA[name]
    text = {col: str for col in (spec.target, *spec.ignore)}
    with _open(spec.file) as fh:
        frame = pd.read_csv(fh, dtype=text)
    labels = frame[spec.target]
    unknown = sorted(set(labels.dropna()) - set(spec.classes))
    if labels.isna().any() or unknown:  # the files are ours: this means a damaged file
        raise ValueError(f"{spec.file}: class labels must be among {spec.classes}; found "
                         f"{int(labels.isna().sum())} missing and unknown {unknown}")
    y = pd.Series(pd.Categorical(labels, categories=list(spec.classes)), index=frame.index,
                  name=spec.target)
    X = frame.drop(columns=[spec.target, *spec.ignore]).astype(float)
    return X, y


def _read_clusterings(name: str) -> pd.DataFrame:
    """The clusterings as they are in the file: the reference as text, the others as read."""
    spec = CLUSTERINGS[name]
    with _open(spec.file) as fh:
        frame = pd.read_csv(fh, dtype={spec.reference: str})
    if frame.isna().any().any() or frame.columns[0] != spec.reference:
        raise ValueError(f"{spec.file}: damaged (missing labels, or the reference "
                         f"{spec.reference!r} is not the first column)")
    return frame


@fill_doc
def load_dataset(name: str, *, dropna: bool = True):
    """Load a shipped data set: a table as a ``ContingencyTable``, data as ``(X, y)``,
    clusterings as a DataFrame.

    Parameters
    ----------
    name : str
        A name from ``list_datasets()`` (``DATASETS`` are tables, ``DATA`` data sets,
        ``CLUSTERINGS`` clusterings; ``statlog_vehicle_em`` is another name of
        ``statlog_em``).
    dropna : bool, default True
        Data sets only (tables have no missing values). Only ``breast_cancer_original`` has
        missing values (16 of its 699 rows miss Bare.nuclei). True drops the incomplete rows
        and warns how many; False keeps them, their missing features NaN.

    Returns
    -------
    ContingencyTable, tuple of (DataFrame, Series), or DataFrame
        A table; clusterings as a DataFrame, one row per object and one column per
        clustering, the reference (the classes, as text) first and the clusterings' labels
        (whole numbers) after it; or ``(X, y)``: X a DataFrame of float features, objects
        in rows; y a categorical Series of class labels (categories in the source's order)
        named after the class column; both on the same index, the row numbers of the file
        from 0 (rows dropped by ``dropna`` leave gaps). Non-numeric features of the source
        are numeric codes here: BreastCancer's scores 1-10 and Ionosphere's V1 (0/1) and V2
        (constant 0); the data folder's README.md has the details.

    See Also
    --------
    list_datasets : The data sets, with their sizes and sources.
    clusteragree.agreement : Agreement of the classes with a clustering.

    References
    ----------
    {ref:amorim2015} (the tables: Ch.2 Table 6a, Ch.4 Table 1).

    Each data set's source (authors, year, title) is in ``list_datasets()["source"]``.

    Examples
    --------
    >>> tab = ca.load_dataset("statlog_em")          # Amorim (2015), Ch.4 Table 1
    >>> tab.shape, tab.n, tab.names
    ((4, 4), 846, ('class', 'cluster'))
    >>> X, y = ca.load_dataset("iris")
    >>> X.shape, y.value_counts(sort=False).to_dict()
    ((150, 4), {'setosa': 50, 'versicolor': 50, 'virginica': 50})
    >>> bool(X.index.equals(y.index))
    True
    >>> runs = ca.load_dataset("wine_clusterings")
    >>> list(runs.columns[:5])
    ['class', 'kmeans_2', 'ward_2', 'average_2', 'gmm_2']
    """
    _check_name(name)
    dropna = check_bool(dropna, "dropna")
    if name in DATASETS:
        return _read_table(name)
    if name in CLUSTERINGS:
        return _read_clusterings(name)
    X, y = _read_data(name)
    incomplete = X.isna().any(axis=1)
    if dropna and incomplete.any():
        columns = list(X.columns[X.isna().any()])
        warnings.warn(
            f"{name}: dropped {int(incomplete.sum())} of {len(X)} rows with missing values "
            f"(in {', '.join(columns)}), {int((~incomplete).sum())} rows left; pass "
            "dropna=False to keep them (as NaN)", UserWarning, stacklevel=2)
        X, y = X[~incomplete], y[~incomplete]
    return X, y


def list_datasets() -> pd.DataFrame:
    """The shipped data sets, one row each, read from their files.

    Returns
    -------
    DataFrame
        Indexed by ``name`` (like ``list_indices`` and ``list_reports``); columns: ``kind``
        ("table", "data" or "clusterings"), ``n`` (objects: a table's total, a data set's
        rows in its file, incomplete ones included), ``p`` (features; for clusterings the
        clusterings besides the reference; NA for tables), ``k`` (classes; for tables the
        rows), ``classes`` (each class with its count; for tables the row labels with their
        totals), ``description`` and ``source`` (authors, year and title of the original
        work).

    See Also
    --------
    load_dataset : Load one of them.

    Examples
    --------
    >>> ds = ca.datasets.list_datasets()
    >>> [str(v) for v in ds.loc["wine", ["kind", "n", "p", "k"]]]
    ['data', '178', '13', '3']
    """
    rows = []
    for name, (_, _, description) in DATASETS.items():
        tab = _read_table(name)
        totals = tab.row_sums
        alias = f"another name of {ALIASES[name]}: " if name in ALIASES else ""
        rows.append({
            "name": name, "kind": "table", "n": int(tab.n), "p": pd.NA, "k": tab.shape[0],
            "classes": ", ".join(f"{r} {int(c)}" for r, c in zip(tab.row_labels, totals)),
            "description": alias + description,
            "source": _TABLE_SOURCES[ALIASES.get(name, name)],
        })
    for name, spec in DATA.items():
        X, y = _read_data(name)
        counts = y.value_counts(sort=False)
        rows.append({
            "name": name, "kind": "data", "n": len(X), "p": X.shape[1], "k": len(counts),
            "classes": ", ".join(f"{c} {int(m)}" for c, m in counts.items()),
            "description": spec.description, "source": spec.source,
        })
    for name, clus in CLUSTERINGS.items():
        frame = _read_clusterings(name)
        counts = frame[clus.reference].value_counts(sort=False)
        rows.append({
            "name": name, "kind": "clusterings", "n": len(frame), "p": frame.shape[1] - 1,
            "k": len(counts), "classes": ", ".join(f"{c} {int(m)}" for c, m in counts.items()),
            "description": clus.description, "source": clus.source,
        })
    out = pd.DataFrame(rows)
    out["p"] = out["p"].astype("Int64")
    return out.set_index("name")
