"""Data sets shipped in the repository's ``data/`` folder (see data/README.md for sources).

>>> import clusteragree as ca
>>> tab = ca.load_dataset("statlog_em")
>>> tab.shape, tab.n
((4, 4), 846)
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ._validate import suggest
from .tables import ContingencyTable

__all__ = ["load_dataset", "DATASETS", "data_dir"]

#: name -> (file, names of the row and column clusterings (tables) or None, description).
#: Both tables are from Amorim, M. J. (2015), "On clustering stability", PhD thesis,
#: ISCTE - University Institute of Lisbon.
DATASETS = {
    "statlog_em": ("statlog_em.csv", ("class", "cluster"),
                   "Statlog (Vehicle Silhouettes) classes x EM clusters, n = 846 "
                   "(Amorim 2015, Ch.4 Table 1)"),
    "thesis_table6a": ("thesis_table6a.csv", ("x", "y"),
                       "two binary partitions, n = 80 (Amorim 2015, Ch.2 Table 6a)"),
}


def data_dir() -> Path:
    """The folder holding the data files (``data/`` next to the package)."""
    return Path(__file__).resolve().parent.parent / "data"


def load_dataset(name: str):
    """Load a shipped data set: tables come back as a ``ContingencyTable``.

    Names: see ``clusteragree.datasets.DATASETS``.
    """
    if not isinstance(name, str):
        raise TypeError(f"name must be a data set name (str), got {type(name).__name__}")
    if name not in DATASETS:
        raise ValueError(
            f"unknown data set {name!r}; available: {sorted(DATASETS)}." + suggest(name, DATASETS)
        )
    file, names, _ = DATASETS[name]
    path = data_dir() / file
    if not path.exists():
        raise FileNotFoundError(
            f"data file {path} is missing: install clusteragree from its repository "
            "(pip install -e .) so that data/ sits next to the package"
        )
    frame = pd.read_csv(path, index_col=0)
    if names is not None:
        return ContingencyTable(
            frame.to_numpy(), frame.index.to_numpy(), frame.columns.to_numpy(), names=names
        )
    return frame
