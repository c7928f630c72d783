"""The shipped data sets: each loads with its published shape and class counts, X numeric and
complete, y aligned; the CSV files equal their sources (scikit-learn's bundled data; mlbench's
R data where pyreadr and r-cran-mlbench are installed); missing values are never dropped
silently; unknown names get a clear error.

Expected sizes and counts are published constants: the UCI Machine Learning Repository's and
mlbench's documentation of each data set (vehicle, iris and wine also in Amorim 2015, "On
clustering stability", Ch.4 Table 10), and scikit-learn's documentation for its three data sets.
"""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clusteragree as ca
from clusteragree.datasets import ALIASES, CLUSTERINGS, DATA, DATASETS, data_dir, list_datasets

# name -> (rows in the file, features, {class: count}); published, see the module docstring.
PUBLISHED = {
    "iris": (150, 4, {"setosa": 50, "versicolor": 50, "virginica": 50}),
    "wine": (178, 13, {"class_0": 59, "class_1": 71, "class_2": 48}),
    "breast_cancer": (569, 30, {"malignant": 212, "benign": 357}),
    "vehicle": (846, 18, {"bus": 218, "opel": 212, "saab": 217, "van": 199}),
    "glass": (214, 9, {"1": 70, "2": 76, "3": 17, "5": 13, "6": 9, "7": 29}),
    "pima": (768, 8, {"neg": 500, "pos": 268}),
    "sonar": (208, 60, {"M": 111, "R": 97}),
    "ionosphere": (351, 34, {"bad": 126, "good": 225}),
    "breast_cancer_original": (699, 9, {"benign": 458, "malignant": 241}),
}
COMPLETE = {"breast_cancer_original": 683}  # UCI: 16 missing values, all in Bare Nuclei


def _raw(name):
    """The CSV read with the csv module (no pandas): header and rows of strings."""
    with open(data_dir() / DATA[name].file, newline="") as fh:
        rows = list(csv.reader(fh))
    return rows[0], rows[1:]


def test_every_data_set_is_tested():
    assert set(PUBLISHED) == set(DATA)


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_shape_and_class_counts(name):
    n, p, counts = PUBLISHED[name]
    X, y = ca.load_dataset(name, dropna=False)
    assert X.shape == (n, p)
    assert y.value_counts(sort=False).to_dict() == counts
    assert isinstance(y.dtype, pd.CategoricalDtype)
    assert list(y.cat.categories) == list(DATA[name].classes)
    assert X.index.equals(y.index) and X.index.equals(pd.RangeIndex(n))
    assert y.name == DATA[name].target


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_default_load_is_numeric_complete_and_aligned(name):
    if name in COMPLETE:
        with pytest.warns(UserWarning, match="dropped"):
            X, y = ca.load_dataset(name)
    else:
        X, y = ca.load_dataset(name)
    assert len(X) == COMPLETE.get(name, PUBLISHED[name][0])
    assert all(dtype == np.float64 for dtype in X.dtypes)
    assert not X.isna().to_numpy().any() and not y.isna().any()
    assert X.index.equals(y.index)


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_loader_matches_a_plain_csv_parse(name):
    """Independent reading (csv module, float()): features, ignored columns and labels."""
    header, rows = _raw(name)
    spec = DATA[name]
    assert header[-1] == spec.target
    features = [i for i, col in enumerate(header) if col not in (spec.target, *spec.ignore)]
    X, y = ca.load_dataset(name, dropna=False)
    assert list(X.columns) == [header[i] for i in features]
    expected = np.array([[float(r[i]) if r[i] != "" else np.nan for i in features]
                         for r in rows])
    np.testing.assert_array_equal(X.to_numpy(), expected)  # nan == nan here
    assert list(y.astype(str)) == [r[-1] for r in rows]


def test_missing_values_are_dropped_with_a_warning_that_counts_them():
    header, rows = _raw("breast_cancer_original")
    empty = [i for i, r in enumerate(rows) if "" in r]
    where = {header[j] for r in rows for j, v in enumerate(r) if v == ""}
    assert len(empty) == 16 and where == {"Bare.nuclei"}
    with pytest.warns(UserWarning, match=r"dropped 16 of 699 rows .*Bare\.nuclei.*683 rows"):
        X, y = ca.load_dataset("breast_cancer_original")
    assert len(X) == 683 and set(X.index) == set(range(699)) - set(empty)
    keep = [r for i, r in enumerate(rows) if i not in empty]
    counts = {c: sum(r[-1] == c for r in keep) for c in ("benign", "malignant")}
    assert y.value_counts(sort=False).to_dict() == counts == {"benign": 444, "malignant": 239}
    X_all, _ = ca.load_dataset("breast_cancer_original", dropna=False)
    assert list(np.flatnonzero(X_all.isna().any(axis=1))) == empty
    assert X_all.isna().sum().to_dict()["Bare.nuclei"] == 16


def test_codes_and_constant_column_are_as_documented():
    X, _ = ca.load_dataset("ionosphere")
    assert set(X["V1"]) == {0.0, 1.0}
    assert set(X["V2"]) == {0.0}  # constant, kept
    X, _ = ca.load_dataset("breast_cancer_original", dropna=False)
    scores = X.to_numpy()[~np.isnan(X.to_numpy())]
    assert set(scores) <= set(range(1, 11)) and "Id" not in X.columns


def test_vehicle_classes_match_the_thesis_statlog_table():
    """The thesis' classes x EM table (Amorim 2015, Ch.4 Table 1) has the data's class totals."""
    tab = ca.load_dataset("statlog_em")
    _, y = ca.load_dataset("vehicle")
    totals = {str(r).lower(): int(t) for r, t in zip(tab.row_labels, tab.row_sums)}
    assert totals == y.value_counts(sort=False).to_dict()


@pytest.mark.parametrize("name, loader", [("iris", "load_iris"), ("wine", "load_wine"),
                                          ("breast_cancer", "load_breast_cancer")])
def test_csv_equals_scikit_learn_bundled_data(name, loader):
    datasets = pytest.importorskip("sklearn.datasets")
    bunch = getattr(datasets, loader)()
    X, y = ca.load_dataset(name)
    assert list(X.columns) == list(bunch.feature_names)
    np.testing.assert_array_equal(X.to_numpy(), bunch.data)  # exactly, not approximately
    assert list(y.astype(str)) == [str(bunch.target_names[t]) for t in bunch.target]
    assert list(y.cat.categories) == [str(t) for t in bunch.target_names]


MLBENCH = Path("/usr/lib/R/site-library/mlbench/data")
R_NAMES = {"vehicle": "Vehicle", "glass": "Glass", "pima": "PimaIndiansDiabetes",
           "sonar": "Sonar", "ionosphere": "Ionosphere", "breast_cancer_original": "BreastCancer"}


@pytest.mark.parametrize("name", sorted(R_NAMES))
def test_csv_equals_mlbench_data(name):
    """Development check: needs pyreadr and Debian's r-cran-mlbench (skipped without them)."""
    pyreadr = pytest.importorskip("pyreadr")
    path = MLBENCH / f"{R_NAMES[name]}.rda"
    if not path.exists():
        pytest.skip("r-cran-mlbench is not installed")
    source = pyreadr.read_r(str(path))[R_NAMES[name]].reset_index(drop=True)
    spec = DATA[name]
    X, y = ca.load_dataset(name, dropna=False)
    assert list(source.columns) == [*spec.ignore, *X.columns, spec.target]
    for col in X.columns:
        values = source[col]
        if isinstance(values.dtype, pd.CategoricalDtype):  # factor: its level labels as numbers
            values = pd.to_numeric(values.astype("string"))
        np.testing.assert_array_equal(X[col].to_numpy(), values.to_numpy(dtype=float))
    assert list(y.astype(str)) == list(source[spec.target].astype(str))
    assert list(y.cat.categories) == list(source[spec.target].cat.categories)


def test_tables_and_the_alias():
    tab = ca.load_dataset("statlog_em")
    assert isinstance(tab, ca.ContingencyTable) and tab.n == 846
    alias = ca.load_dataset("statlog_vehicle_em")
    assert ALIASES["statlog_vehicle_em"] == "statlog_em"
    np.testing.assert_array_equal(alias.counts, tab.counts)
    assert isinstance(ca.load_dataset("thesis_table6a", dropna=False), ca.ContingencyTable)


def test_list_datasets_agrees_with_the_loader():
    ds = list_datasets().reset_index()
    assert list(ds.columns) == ["name", "kind", "n", "p", "k", "classes", "description",
                                "source"]
    assert list(ds.name) == [*DATASETS, *DATA, *CLUSTERINGS]
    for row in ds.itertuples():
        assert row.description and row.source
        if row.kind == "clusterings":
            frame = ca.load_dataset(row.name)
            assert (row.n, row.p, row.k) == (len(frame), frame.shape[1] - 1, 3)
        elif row.kind == "table":
            tab = ca.load_dataset(row.name)
            assert (row.n, row.k) == (tab.n, tab.shape[0]) and pd.isna(row.p)
        else:
            n, p, counts = PUBLISHED[row.name]
            assert (row.kind, row.n, row.p, row.k) == ("data", n, p, len(counts))
            assert row.classes == ", ".join(f"{c} {m}" for c, m in counts.items())


def test_unknown_names_and_bad_arguments():
    with pytest.raises(ValueError, match="Did you mean 'vehicle'"):
        ca.load_dataset("vehicel")
    with pytest.raises(ValueError, match="Did you mean 'breast_cancer'"):
        ca.load_dataset("breast_cancr")
    with pytest.raises(TypeError, match="name must be a data set name"):
        ca.load_dataset(3)
    with pytest.raises(TypeError, match="dropna must be True or False"):
        ca.load_dataset("iris", dropna="yes")


@settings(max_examples=30, deadline=None)
@given(st.text(max_size=30))
def test_any_other_name_is_refused(name):
    if name in DATASETS or name in DATA or name in CLUSTERINGS:
        return
    with pytest.raises(ValueError, match="unknown data set"):
        ca.load_dataset(name)


def test_data_files_are_small():
    files = [data_dir() / spec.file for spec in (*DATA.values(), *CLUSTERINGS.values())]
    assert sum(f.stat().st_size for f in files) < 1_000_000


def test_loading_needs_neither_scikit_learn_nor_pyreadr():
    code = ("import sys, clusteragree as ca\n"
            "for name in ca.datasets.DATA: ca.load_dataset(name, dropna=False)\n"
            "for name in ca.datasets.CLUSTERINGS: ca.load_dataset(name)\n"
            "ca.datasets.list_datasets()\n"
            "print(sorted(m for m in ('sklearn', 'pyreadr') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


# -- several clusterings of the same objects ---------------------------------------------------

#: The columns of wine_clusterings.csv as its README documents them: the class, then each
#: algorithm at k = 2, 3, 4.
WINE_COLUMNS = ["class"] + [f"{a}_{k}" for k in (2, 3, 4)
                            for a in ("kmeans", "ward", "average", "gmm")]


def _export_script():
    """data/export_data.py (shipped as clusteragree/data/export_data.py), loaded as a file."""
    import importlib.util

    from clusteragree.datasets import data_dir

    path = data_dir() / "export_data.py"
    if not path.is_file():
        pytest.skip("export_data.py is in a clone of the repository, not in an installed wheel")
    spec = importlib.util.spec_from_file_location("export_data", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_wine_clusterings_have_the_documented_columns_and_no_missing_label():
    runs = ca.load_dataset("wine_clusterings")
    assert list(runs.columns) == WINE_COLUMNS and runs.shape == (178, 13)
    assert not runs.isna().to_numpy().any()
    _, y = ca.load_dataset("wine")
    assert list(runs["class"]) == list(y.astype(str))  # the wine data's objects, in order
    for column in WINE_COLUMNS[1:]:
        k = int(column.rsplit("_", 1)[1])
        labels = runs[column].tolist()
        assert sorted(set(labels)) == list(range(1, k + 1)), column
        # numbered in order of first appearance, as the script says
        assert list(dict.fromkeys(labels)) == list(range(1, k + 1)), column
    # a plain csv parse gives the same labels
    with open(data_dir() / "wine_clusterings.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == WINE_COLUMNS
    assert [[int(v) for v in r[1:]] for r in rows[1:]] == runs.iloc[:, 1:].to_numpy().tolist()


def test_wine_clusterings_deterministic_ones_reproduce_from_the_script():
    """Ward and average linkage have no randomness: the script gives the file's labels."""
    pytest.importorskip("sklearn")
    made = _export_script().wine_clusterings()
    runs = ca.load_dataset("wine_clusterings")
    assert list(made.columns) == WINE_COLUMNS
    for column in [c for c in WINE_COLUMNS if c.startswith(("ward", "average"))]:
        assert made[column].tolist() == runs[column].tolist(), column


def test_wine_clusterings_seeded_ones_reproduce_from_the_script():
    """k-means and the Gaussian mixture use fixed seeds: the script gives the file's labels
    (with the scikit-learn the file was made with, named in data/README.md; another version
    may draw its initial centres differently)."""
    sklearn = pytest.importorskip("sklearn")
    script = _export_script()
    if sklearn.__version__ != script.WINE_CLUSTERINGS_SKLEARN:
        pytest.skip(f"the file was made with scikit-learn {script.WINE_CLUSTERINGS_SKLEARN}; "
                    f"{sklearn.__version__} may draw k-means' and the mixture's starts "
                    "differently")
    made = script.wine_clusterings()
    runs = ca.load_dataset("wine_clusterings")
    differ = [c for c in WINE_COLUMNS[1:] if made[c].tolist() != runs[c].tolist()]
    assert differ == [], f"scikit-learn {sklearn.__version__} clusters differently: {differ}"


# -- density-based clusterings with noise -----------------------------------------------------

#: The columns of wine_noise.csv as its README documents them, with each clustering's number of
#: noise objects (-1) and of clusters.
WINE_NOISE = {"hdbscan_5": (58, 2), "hdbscan_10": (75, 2), "hdbscan_15": (82, 2),
              "dbscan_2.0": (85, 5), "dbscan_2.2": (55, 2), "dbscan_2.4": (36, 2)}


def test_every_set_of_clusterings_is_tested():
    assert set(CLUSTERINGS) == {"wine_clusterings", "wine_noise"}


def test_wine_noise_has_the_documented_columns_noise_and_clusters():
    runs = ca.load_dataset("wine_noise")
    assert list(runs.columns) == ["class", *WINE_NOISE] and runs.shape == (178, 7)
    assert not runs.isna().to_numpy().any()
    _, y = ca.load_dataset("wine")
    assert list(runs["class"]) == list(y.astype(str))  # the wine data's objects, in order
    for column, (noise, k) in WINE_NOISE.items():
        labels = runs[column].tolist()
        assert labels.count(-1) == noise, column
        assert 0 < noise < len(labels)  # a sizeable share, never all
        clusters = [v for v in labels if v != -1]
        # clusters 1 ... k in order of first appearance, as the script says
        assert list(dict.fromkeys(clusters)) == list(range(1, k + 1)), column
    with open(data_dir() / "wine_noise.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["class", *WINE_NOISE]
    assert [[int(v) for v in r[1:]] for r in rows[1:]] == runs.iloc[:, 1:].to_numpy().tolist()


def test_wine_noise_reproduces_from_the_script():
    """HDBSCAN and DBSCAN have no randomness: the script gives the file's labels."""
    pytest.importorskip("sklearn")
    script = _export_script()
    made = script.wine_noise()
    runs = ca.load_dataset("wine_noise")
    assert list(made.columns) == ["class", *script.NOISE_CLUSTERINGS] == list(runs.columns)
    differ = [c for c in WINE_NOISE if made[c].tolist() != runs[c].tolist()]
    assert differ == [], (f"this scikit-learn clusters differently from "
                          f"{script.WINE_NOISE_SKLEARN}: {differ}")
