"""The plots of an agreement matrix: heatmap, clustered heatmap and MDS map of the clusterings.

``AgreementMatrix.plot`` draws through ``plot_matrix``; each plot's title names the index (a
dissimilarity said so), the tests' model and method and the adjustment.
"""

from __future__ import annotations

import numpy as np

from .._validate import check_choice

__all__ = ["PLOT_KINDS", "plot_matrix"]

#: The kinds of plot of a matrix.
PLOT_KINDS = ("heatmap", "clustermap", "mds")


def _annotations(matrix) -> np.ndarray:
    """Each value to 3 significant digits, as text."""
    return np.vectorize(lambda v: f"{v:.3g}")(matrix.statistic.to_numpy(dtype=float))


def _title(matrix) -> str:
    """The matrix's title on two lines: what it holds, then its tests."""
    return matrix.title.replace("; ", "\n", 1)


def _cmap(matrix) -> str:
    """Dark for agreement: reversed for a dissimilarity."""
    return "viridis" if matrix.kind == "distance" else "viridis_r"


def plot_matrix(matrix, kind: str = "heatmap", ax=None):
    """Draw an ``AgreementMatrix`` (see ``AgreementMatrix.plot``).

    Parameters
    ----------
    matrix : AgreementMatrix
        The matrix to draw.
    kind : {"heatmap", "clustermap", "mds"}, default "heatmap"
        The plot.
    ax : matplotlib Axes, optional
        Draw here ("heatmap", "mds").

    Returns
    -------
    matplotlib Axes or seaborn ClusterGrid
        The Axes drawn on, or the ClusterGrid of "clustermap".
    """
    import matplotlib.pyplot as plt
    import seaborn as sns

    kind = check_choice(kind, "kind", PLOT_KINDS)
    k = len(matrix.names)
    size = max(4.0, 0.6 * k + 2)
    if kind == "clustermap":
        if ax is not None:
            raise ValueError("kind='clustermap' draws its own figure: ax must be None")
        from scipy.cluster.hierarchy import linkage
        from scipy.spatial.distance import squareform

        link = linkage(squareform(matrix.distances().to_numpy(), checks=False), "average")
        grid = sns.clustermap(matrix.statistic.astype(float), row_linkage=link,
                              col_linkage=link, annot=_annotations(matrix), fmt="",
                              cmap=_cmap(matrix), figsize=(size + 1, size + 1))
        grid.figure.suptitle(_title(matrix), fontsize="medium")
        grid.figure.subplots_adjust(top=0.9)
        return grid
    if ax is None:
        _, ax = plt.subplots(figsize=(size + 1, size) if kind == "heatmap" else (6, 5))
    if kind == "heatmap":
        sns.heatmap(matrix.statistic.astype(float), annot=_annotations(matrix), fmt="",
                    cmap=_cmap(matrix), square=True, ax=ax,
                    cbar_kws={"label": matrix.index})
        ax.set_title(_title(matrix), fontsize="medium")
        return ax
    coords = matrix.embedding(2)
    ax.scatter(coords["dim1"], coords["dim2"], color="C0")
    for name, (x, y) in coords.iterrows():
        ax.annotate(str(name), (x, y), xytext=(4, 4), textcoords="offset points")
    ax.set_xlabel("MDS dimension 1")
    ax.set_ylabel("MDS dimension 2")
    ax.set_aspect("equal", adjustable="datalim")
    what = matrix.index if matrix.kind == "distance" else f"1 - {matrix.index}"
    ax.set_title(f"classical MDS of {what}: {_title(matrix)}", fontsize="medium")
    return ax
