"""The result of ``compare_hierarchies``: the curve of an index over the cuts of two trees,
with its pointwise and simultaneous null bands; printed as R prints a test, drawn as
Fowlkes & Mallows' Bk plot.
"""

from __future__ import annotations

import html

import numpy as np
import pandas as pd

from .._display import apa_pvalue, format_pvalue
from .._display import integer_ranges

__all__ = ["HierarchyComparison"]

TITLE = "Comparison of two hierarchical clusterings at every cut"


def _pvalue_text(p: float) -> str:
    """A per-cut p-value as every result prints one; the normal tail's floor (the smallest
    positive double) as the bound it is."""
    tiny = np.finfo(float).tiny
    return f"< {format_pvalue(tiny)}" if p <= tiny else format_pvalue(p)


class HierarchyComparison:
    """Result of ``compare_hierarchies``: an index at every cut of two trees, with bands.

    Parameters
    ----------
    curve : pandas.DataFrame
        One row per k: ``k``, ``statistic``, ``null_mean``, ``null_sd``, ``pvalue``,
        ``pvalue_method``, ``band_low_pointwise``, ``band_high_pointwise``,
        ``pointwise_method``, and with permutations ``band_low``, ``band_high`` (-inf or
        inf on the side a one-sided alternative does not test: no limit there).
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
    global_pvalue : float
        The global envelope test's p-value (nan without permutations).
    method : str
        The per-cut tests' method as asked.
    moments : str
        Where the null means and sds come from.
    alternative : str
        The direction of the bands and tests.
    all_cuts_pass : bool
        Whether the curve came from one pass over the merges (an index of the pair counts
        on two linkages) rather than cut by cut.

    Attributes
    ----------
    curve : pandas.DataFrame
        As given.
    global_pvalue : float
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
                 n_permutations: int, global_pvalue: float, method: str, moments: str,
                 alternative: str = "two-sided", all_cuts_pass: bool = False):
        self.curve = curve
        self.index = index
        self.names = tuple(names)
        self.n = int(n)
        self.alpha = float(alpha)
        self.n_permutations = int(n_permutations)
        self.global_pvalue = float(global_pvalue)
        self.method = method
        self.moments = moments
        self.alternative = alternative
        self.all_cuts_pass = bool(all_cuts_pass)

    def to_frame(self) -> pd.DataFrame:
        """The curve, one row per k, with its bands.

        Returns
        -------
        pandas.DataFrame
            A copy of ``curve``; ``attrs`` holds the index, alpha, the alternative, the number
            of permutations and the global p-value.
        """
        out = self.curve.copy()
        out.attrs.update(index=self.index, alpha=self.alpha, alternative=self.alternative,
                         n_permutations=self.n_permutations,
                         global_pvalue=self.global_pvalue)
        return out

    def outside(self, band: str = "simultaneous") -> tuple[list[int], list[int]]:
        """The cuts where the curve leaves a band.

        Parameters
        ----------
        band : {"simultaneous", "pointwise"}, default "simultaneous"
            Which band.

        Returns
        -------
        above, below : list of int
            The k above the band and those below it.

        Raises
        ------
        ValueError
            The simultaneous band of a comparison made without permutations.
        """
        c = self.curve
        if band == "pointwise":
            return (c.loc[c["statistic"] > c["band_high_pointwise"], "k"].tolist(),
                    c.loc[c["statistic"] < c["band_low_pointwise"], "k"].tolist())
        if "band_high" not in c:
            raise ValueError("band: no simultaneous band without permutations "
                             "(n_permutations = 0); use band='pointwise'")
        return (c.loc[c["statistic"] > c["band_high"], "k"].tolist(),
                c.loc[c["statistic"] < c["band_low"], "k"].tolist())

    def _rows(self) -> list[tuple[str, str]]:
        c = self.curve
        level = f"{100 * (1 - self.alpha):g}%"
        methods = c["pvalue_method"].value_counts()
        tests = ", ".join(f"{m} at {v} cut{'s' * (v > 1)}" for m, v in methods.items())
        how = ", ".join(dict.fromkeys(c["pointwise_method"]))
        ks = c["k"].tolist()
        side = {"two-sided": "two-sided", "greater": "upper (agreement beyond chance)",
                "less": "lower"}[self.alternative]
        rows = [
            ("data", f"{self.names[0]} and {self.names[1]}"),
            ("cuts", f"{len(ks)} (k = {integer_ranges(ks)})"
                     + ("; every cut from one pass over the merges" if self.all_cuts_pass
                        else "")),
            ("index", self.index + (" (Bk, Fowlkes & Mallows 1983)"
                                    if self.index == "fowlkes_mallows" else "")),
            ("model", "permutation (the second tree's leaves relabelled at random: every "
                      "cut's cluster sizes fixed); null moments " + self.moments),
            ("per-cut p-values", f"{tests} (alternative {self.alternative!r})"),
            ("pointwise band", f"{level} {side}, {how}"),
        ]
        if self.n_permutations:
            above, below = self.outside()
            rows += [
                ("simultaneous band", f"{level} {side}: global envelope of "
                                      f"{self.n_permutations} joint permutations of the "
                                      "second tree's leaves, ranked by extreme rank length "
                                      "(Myllymaki et al. 2017)"),
                ("global test", f"p = {format_pvalue(self.global_pvalue)} (share of the "
                                f"{self.n_permutations + 1} curves at least as extreme as "
                                "the observed one)"),
                ("outside the simultaneous band", f"above at k = {integer_ranges(above)}; below "
                                                  f"at k = {integer_ranges(below)}"),
            ]
        else:
            rows.append(("simultaneous band", "none (n_permutations = 0)"))
        return rows

    def __str__(self) -> str:
        rows = self._rows()
        width = max(len(k) for k, _ in rows)
        lines = ["", f"\t{TITLE}", ""]
        lines += [f"{k + ':':<{width + 1}} {v}" for k, v in rows]
        cols = ["k", "statistic", "null_mean", "null_sd", "pvalue", "band_low_pointwise",
                "band_high_pointwise"]
        shown = self.curve[[c for c in cols + ["band_low", "band_high"]
                            if c in self.curve]]
        if len(shown) > 12:
            shown = pd.concat([shown.head(6), shown.tail(6)])
        shown = shown.assign(pvalue=shown["pvalue"].map(_pvalue_text))  # as every result
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
        above, below = self.outside("simultaneous" if self.n_permutations else "pointwise")
        return (f"HierarchyComparison(index={self.index!r}, n={self.n}, cuts={len(self.curve)}"
                f", above={len(above)}, below={len(below)}, "
                f"global_pvalue={self.global_pvalue:.4g})")

    def sentence(self) -> str:
        """One sentence for a report: the trees, the index, the global test and the cuts.

        Returns
        -------
        str
            For example "ward and average agreed beyond chance at some cut (Bk; global
            envelope test of 999 joint permutations, p = .001; above the 95% simultaneous
            band at k = 2-40)."
        """
        name = "Bk" if self.index == "fowlkes_mallows" else self.index
        a, b = (s.split(" (")[0] for s in self.names)
        level = f"{100 * (1 - self.alpha):g}%"
        if not self.n_permutations:
            above, below = self.outside("pointwise")
            return (f"{a} and {b} were compared at {len(self.curve)} cuts ({name}; no "
                    f"simultaneous band); {name} was above the pointwise {level} band at k = "
                    f"{integer_ranges(above)} and below it at k = {integer_ranges(below)}.")
        above, below = self.outside()
        p = apa_pvalue(self.global_pvalue)
        verdict = ("departed from chance at some cut" if self.global_pvalue <= self.alpha
                   else "did not depart from chance at any cut")
        where = []
        if above:
            where.append(f"above the {level} simultaneous band at k = {integer_ranges(above)}")
        if below:
            where.append(f"below it at k = {integer_ranges(below)}")
        tail = "; " + " and ".join(where) if where else ""
        return (f"{a} and {b} {verdict} ({name}; global envelope test of "
                f"{self.n_permutations} joint permutations, {p}{tail}).")

    def _repr_html_(self) -> str:
        """Jupyter: the header as a table, then the curve."""
        head = "".join(f"<tr><th style='text-align: left;'>{html.escape(k)}</th>"
                       f"<td style='text-align: left;'>{html.escape(v)}</td></tr>"
                       for k, v in self._rows())
        curve = self.curve.assign(pvalue=self.curve["pvalue"].map(_pvalue_text))
        return (f"<h4>{html.escape(TITLE)}</h4><table>{head}</table>"
                + curve.to_html(index=False, float_format=lambda v: f"{v:.4g}"))

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
        if "band_high" in c:
            # the side a one-sided band does not test (-inf or inf) is drawn to the data's edge
            shown = pd.concat([c["statistic"], c["null_mean"],
                               c["band_low"][np.isfinite(c["band_low"])],
                               c["band_high"][np.isfinite(c["band_high"])]])
            lo = c["band_low"].where(np.isfinite(c["band_low"]), shown.min())
            hi = c["band_high"].where(np.isfinite(c["band_high"]), shown.max())
            ax.fill_between(c["k"], lo, hi, color="C0", alpha=0.18,
                            lw=0, label=f"simultaneous {level} band")
        sides = {"greater": ["band_high_pointwise"], "less": ["band_low_pointwise"]}.get(
            self.alternative, ["band_low_pointwise", "band_high_pointwise"])
        for i, col in enumerate(sides):
            ax.plot(c["k"], c[col], color="C0", ls="--", lw=0.9,
                    label=None if i else f"pointwise {level} band")
        ax.plot(c["k"], c["null_mean"], color="grey", lw=1, label="null mean")
        many = len(c) > 60
        name = "Bk" if self.index == "fowlkes_mallows" else self.index
        ax.plot(c["k"], c["statistic"], color="C3", marker=None if many else "o", ms=3,
                lw=1.2, label=f"{name} (observed)")
        if many:
            ax.set_xscale("log")
        ax.set_xlabel("k (number of clusters of both cuts)")
        ax.set_ylabel("Bk" if self.index == "fowlkes_mallows" else self.index)
        a, b = (name.split(" (")[0] for name in self.names)
        ax.set_title(f"{a} against {b}", fontsize="medium")
        ax.legend(fontsize="small", loc="best", framealpha=0.8)
        return ax
