"""The result of ``compare_hierarchies``: the curve of an index over the cuts of two trees,
with its pointwise and simultaneous null bands; printed as R prints a test, drawn as
Fowlkes & Mallows' Bk plot.
"""

from __future__ import annotations

import html

import numpy as np
import pandas as pd

__all__ = ["HierarchyComparison"]

TITLE = "Comparison of two hierarchical clusterings at every cut"


def _ranges(ks) -> str:
    """2-5, 9 for [2, 3, 4, 5, 9]; "none" for none."""
    ks = [int(k) for k in ks]
    parts, start = [], None
    for i, v in enumerate(ks):
        start = v if start is None else start
        if i + 1 == len(ks) or ks[i + 1] != v + 1:
            parts.append(str(v) if start == v else f"{start}-{v}")
            start = None
    return ", ".join(parts) if parts else "none"


class HierarchyComparison:
    """Result of ``compare_hierarchies``: an index at every cut of two trees, with bands.

    Parameters
    ----------
    curve : pandas.DataFrame
        One row per k: ``k``, ``statistic``, ``null_mean``, ``null_sd``, ``pvalue``,
        ``pvalue_method``, ``band_low_pointwise``, ``band_high_pointwise``,
        ``pointwise_method``, ``alternative``, ``band_low``, ``band_high``.
    index : str
        The index.
    names : (str, str)
        The two trees, described.
    n : int
        The number of leaves.
    alpha : float
        The bands' level.
    n_permutations : int
        The joint permutations of tree_b's leaves behind the simultaneous band.
    critical_value : float
        The 1 - alpha quantile of max_k |z_k| over the permutations.
    global_pvalue : float
        The permutation p-value of the observed max_k |z_k|.
    method : str
        The per-cut tests' method as asked.
    moments : str
        Where the null means and sds come from.

    Attributes
    ----------
    curve : pandas.DataFrame
        As given.
    critical_value, global_pvalue : float
        As given.

    See Also
    --------
    clusteragree.compare_hierarchies : Makes it.

    Examples
    --------
    >>> from scipy.cluster.hierarchy import linkage
    >>> X = ca.load_dataset("iris")[0].iloc[::10].to_numpy()
    >>> res = ca.compare_hierarchies(linkage(X, "ward"), linkage(X, "single"), k=[2, 3],
    ...                              n_permutations=99, seed=0)
    >>> res.to_frame().columns[:4].tolist()
    ['k', 'statistic', 'null_mean', 'null_sd']
    """

    def __init__(self, curve: pd.DataFrame, index: str, names, n: int, alpha: float,
                 n_permutations: int, critical_value: float, global_pvalue: float,
                 method: str, moments: str):
        self.curve = curve
        self.index = index
        self.names = tuple(names)
        self.n = int(n)
        self.alpha = float(alpha)
        self.n_permutations = int(n_permutations)
        self.critical_value = float(critical_value)
        self.global_pvalue = float(global_pvalue)
        self.method = method
        self.moments = moments

    def to_frame(self) -> pd.DataFrame:
        """The curve, one row per k, with its bands.

        Returns
        -------
        pandas.DataFrame
            A copy of ``curve``; ``attrs`` holds the index, alpha, the critical value and the
            global p-value.
        """
        out = self.curve.copy()
        out.attrs.update(index=self.index, alpha=self.alpha,
                         critical_value=self.critical_value, global_pvalue=self.global_pvalue)
        return out

    def outside(self) -> tuple[list[int], list[int]]:
        """The cuts where the curve leaves the simultaneous band.

        Returns
        -------
        above, below : list of int
            The k above the band and those below it.
        """
        c = self.curve
        return (c.loc[c["statistic"] > c["band_high"], "k"].tolist(),
                c.loc[c["statistic"] < c["band_low"], "k"].tolist())

    def _rows(self) -> list[tuple[str, str]]:
        c = self.curve
        level = f"{100 * (1 - self.alpha):g}%"
        methods = c["pvalue_method"].value_counts()
        tests = ", ".join(f"{m} at {v} cut{'s' * (v > 1)}" for m, v in methods.items())
        how = ", ".join(dict.fromkeys(c["pointwise_method"]))
        above, below = self.outside()
        ks = c["k"].tolist()
        return [
            ("data", f"{self.names[0]} and {self.names[1]}"),
            ("cuts", f"{len(ks)} (k = {_ranges(ks)})"),
            ("index", self.index + (" (Bk, Fowlkes & Mallows 1983)"
                                    if self.index == "fowlkes_mallows" else "")),
            ("model", "permutation (both cuts' cluster sizes fixed); null moments "
                      + self.moments),
            ("per-cut tests", f"{tests} (method {self.method!r}, alternative "
                              f"{c['alternative'].iloc[0]!r})"),
            ("pointwise band", f"{level}, {how}"),
            ("simultaneous band", f"{level}: mean +- {self.critical_value:.3f} sd, from "
                                  f"{self.n_permutations} joint permutations of the second "
                                  "tree's leaves (max over k of |z|)"),
            ("global test", f"max |z| = {self._observed_max():.3f}, permutation p = "
                            f"{self.global_pvalue:.4g}"),
            ("outside the simultaneous band", f"above at k = {_ranges(above)}; below at "
                                              f"k = {_ranges(below)}"),
        ]

    def _observed_max(self) -> float:
        c = self.curve
        sd = c["null_sd"].to_numpy(dtype=float)
        z = np.where(sd > 0, np.abs(c["statistic"] - c["null_mean"]) / np.where(sd > 0, sd, 1),
                     0.0)
        return float(z.max()) if len(z) else float("nan")

    def __str__(self) -> str:
        rows = self._rows()
        width = max(len(k) for k, _ in rows)
        lines = ["", f"\t{TITLE}", ""]
        lines += [f"{k + ':':<{width + 1}} {v}" for k, v in rows]
        shown = self.curve[["k", "statistic", "null_mean", "null_sd", "pvalue", "band_low",
                            "band_high"]]
        if len(shown) > 12:
            shown = pd.concat([shown.head(6), shown.tail(6)])
        lines += ["", shown.to_string(index=False, float_format=lambda v: f"{v:.4g}"), ""]
        return "\n".join(lines)

    def summary(self) -> str:
        """The printed block: data, index, model and methods, the cuts outside the band.

        Returns
        -------
        str
            As ``print(res)`` shows it.
        """
        return str(self)

    def __repr__(self) -> str:
        above, below = self.outside()
        return (f"HierarchyComparison(index={self.index!r}, n={self.n}, cuts={len(self.curve)}"
                f", above={len(above)}, below={len(below)}, "
                f"global_pvalue={self.global_pvalue:.4g})")

    def _repr_html_(self) -> str:
        """Jupyter: the header as a table, then the curve."""
        head = "".join(f"<tr><th style='text-align: left;'>{html.escape(k)}</th>"
                       f"<td style='text-align: left;'>{html.escape(v)}</td></tr>"
                       for k, v in self._rows())
        return (f"<h4>{html.escape(TITLE)}</h4><table>{head}</table>"
                + self.curve.to_html(index=False, float_format=lambda v: f"{v:.4g}"))

    def plot(self, ax=None):
        """Fowlkes & Mallows' Bk plot: the index against k with both null bands.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Draw here (default: a new figure).

        Returns
        -------
        matplotlib Axes
            The Axes drawn on.
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(7, 4))
        c = self.curve
        level = f"{100 * (1 - self.alpha):g}%"
        ax.fill_between(c["k"], c["band_low"], c["band_high"], color="C0", alpha=0.15,
                        step=None, label=f"simultaneous {level} band")
        ax.plot(c["k"], c["band_low_pointwise"], color="C0", ls="--", lw=1,
                label=f"pointwise {level} band")
        ax.plot(c["k"], c["band_high_pointwise"], color="C0", ls="--", lw=1)
        ax.plot(c["k"], c["null_mean"], color="grey", lw=1, label="null mean")
        ax.plot(c["k"], c["statistic"], color="C3", marker="o", ms=3, lw=1.2,
                label=self.index)
        ax.set_xlabel("k (number of clusters of both cuts)")
        ax.set_ylabel("Bk" if self.index == "fowlkes_mallows" else self.index)
        ax.set_title(f"{self.names[0]} vs {self.names[1]}", fontsize="medium")
        ax.legend(fontsize="small")
        return ax
