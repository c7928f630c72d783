"""The result of ``cluster_agreement``: ``ClusterAgreement``, printed as R prints a test, shown
in Jupyter as a table, and drawn as the contingency table with its paired cells outlined.
"""

from __future__ import annotations

import html
import textwrap
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._display import Row, format_pvalue, rows_html, rows_text, significant, table
from .results import ResultsFrame

__all__ = ["ClusterAgreement", "TITLE", "PRINTED_ROWS", "PLOTTED_CLUSTERS"]

TITLE = "Cluster-level agreement of two clusterings"

#: The most clusters of each side printed (``to_frame()`` has them all).
PRINTED_ROWS = 20

#: The most splits and merges said in words when printed (``splits`` has them all).
PRINTED_SPLITS = 12

#: The width of the printed lines of words (the table is as wide as it is).
WIDTH = 92

#: The most clusters of a side that ``plot`` draws.
PLOTTED_CLUSTERS = 60

#: The columns printed (``note`` is said in words under the table).
_SHOWN = ("side", "cluster", "partner", "size", "partner_size", "overlap", "jaccard",
          "precision", "recall", "f1", "pvalue", "pvalue_adjusted")


def _pvalue_text(p) -> str:
    """A p-value to 3 significant digits; one that underflowed to 0 as "<1e-300"."""
    if pd.isna(p):
        return "NA"
    return "<1e-300" if float(p) == 0 else format_pvalue(float(p))


@dataclass(repr=False)
class ClusterAgreement:
    """Result of ``cluster_agreement``: which clusters of two clusterings agree.

    ``print(res)`` gives the result as R prints a test; ``to_frame()`` one row per cluster of
    each side; Jupyter shows the same as a table; ``plot()`` draws the table.

    Parameters
    ----------
    rows : ResultsFrame
        One row per cluster of x, then of y (``to_frame()``).
    decomposition : DataFrame
        The pair-counting indices as weighted sums of cluster-level indices (columns
        ``index``, ``side``, ``cluster``, ``weight``, ``value``; for each index,
        sum(weight * value) is the index: ``pair_decomposition`` gives the formulas).
    splits : DataFrame
        The splits (a cluster of x over several of y) and merges (a cluster of y over several
        of x): columns ``side``, ``cluster``, ``kind`` ("split" or "merge"), ``part`` (the
        cluster of the other side), ``overlap`` and ``share`` (of the cluster), one row per
        part, the largest first.
    match : str
        "one-to-one" or "majority".
    multiple : str or None
        The multiplicity adjustment of ``pvalue_adjusted``, or None.
    split_share : float
        The share of a cluster that a part of a split or merge holds at least.
    table : ContingencyTable or SparseContingencyTable
        The contingency table (x: rows, y: columns).
    partners_x, partners_y : numpy.ndarray of int
        Each cluster's partner as a position in the other side's labels (-1: none), in the
        table's order of the clusters.
    data_name : str
        The two clusterings and the objects compared, in words.
    matching : str
        How the clusters were paired, in words.
    pairs : DataFrame
        The distinct paired cells, one test each: columns ``x``, ``y`` (the labels),
        ``overlap``, ``pvalue``, ``pvalue_adjusted`` and ``log10_pvalue``.
    names : (str, str)
        The names of x and y.

    See Also
    --------
    cluster_agreement : Makes it.

    Examples
    --------
    >>> res = ca.cluster_agreement([0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 1, 1])
    >>> res.n_tests, res.to_frame()["overlap"].tolist()
    (2, [2, 3, 2, 3])
    """

    rows: ResultsFrame
    decomposition: pd.DataFrame
    splits: pd.DataFrame
    match: str
    multiple: str | None
    split_share: float
    table: object
    partners_x: np.ndarray = field(repr=False)
    partners_y: np.ndarray = field(repr=False)
    data_name: str = ""
    matching: str = ""
    pairs: pd.DataFrame = field(default_factory=pd.DataFrame)
    names: tuple = ("x", "y")

    def to_frame(self) -> ResultsFrame:
        """The clusters as a frame: one row per cluster of x, then of y.

        Returns
        -------
        ResultsFrame
            Columns ``side``, ``cluster``, ``partner`` (NA: none), ``size``,
            ``partner_size``, ``overlap``, ``jaccard``, ``precision``, ``recall``, ``f1``,
            ``pvalue``, ``pvalue_adjusted``, ``log10_pvalue`` and ``note`` (the split or
            merge in words); printed with p-values to 3 significant digits.
        """
        return self.rows.copy()

    @property
    def n_tests(self) -> int:
        """The distinct paired cells tested (the family of ``multiple``)."""
        return len(self.pairs)

    def _unpaired(self) -> str:
        """The clusters left without a partner, in words ("" when none)."""
        missing = [f"{int((p < 0).sum())} of {name}" for p, name in
                   ((self.partners_x, self.names[0]), (self.partners_y, self.names[1]))
                   if (p < 0).any()]
        return f"clusters without a partner: {', '.join(missing)}" if missing else ""

    def _pvalue_words(self) -> str:
        adjust = (f", {self.multiple}-adjusted over the {self.n_tests} distinct paired cells"
                  if self.multiple else f", not adjusted ({self.n_tests} paired cells)")
        return ("exact one-sided P(N_ij >= n_ij) of each paired cell given both margins "
                f"(hypergeometric){adjust}")

    def sentence(self, digits: int = 2) -> str:
        """The clusters' agreement in one sentence to paste into a paper, APA style.

        How many clusters of each side there were and how many pairs were matched, how many
        paired cells overlapped beyond chance (p < .05 after the multiplicity adjustment;
        each test conditional on the pairing, ``caveat``), the largest split (or merge) and
        the number of objects.

        Parameters
        ----------
        digits : int, default 2
            Decimals of numbers (the shares of a split are whole percentages).

        Returns
        -------
        str
            One sentence, ending with a period.

        See Also
        --------
        caveat : Why the p-values are conditional on the pairing.

        Examples
        --------
        >>> res = ca.cluster_agreement(np.repeat([0, 1, 2], 10),
        ...                            np.r_[np.repeat([0, 1], 10), np.repeat([2, 3], 5)])
        >>> print(res.sentence())
        Of 3 clusters of x and 4 of y, 3 pairs were matched one-to-one, 3 of them overlapping beyond chance after Holm adjustment (one-sided hypergeometric tests of the paired cells, conditional on the pairing; n = 30 objects); the largest split: x cluster 2 over y clusters 2 (50%) and 3 (50%).
        """
        from .sentences import cluster_sentence

        return cluster_sentence(self, digits)

    def caveat(self) -> str:
        """Why the p-values are conditional on the pairing, in one sentence.

        Returns
        -------
        str
            The caveat printed under the result.
        """
        chosen = ("to maximise the total overlap" if self.match == "one-to-one"
                  else "as each cluster's largest overlap")
        return (f"the pairs were chosen from the same table {chosen}, so each p-value is "
                "conditional on the pairing: it tests the cell as if the pair had been named "
                "in advance, and is optimistic as a test of the search that found it")

    def split_lines(self, limit: int | None = None) -> list[str]:
        """The splits and merges in words, one line per cluster.

        Parameters
        ----------
        limit : int, optional
            Say at most this many (and how many more there are); default all.

        Returns
        -------
        list of str
            E.g. "x cluster 1 is split over y clusters 1 (50%), 2 (50%)".
        """
        lines = []
        x_name, y_name = self.names
        for (side, label), part in self.splits.groupby(["side", "cluster"], sort=False):
            words = ", ".join(f"{p} ({s:.0%})" for p, s in zip(part["part"], part["share"]))
            if side == "x":
                lines.append(f"{x_name} cluster {label} is split over {y_name} clusters {words}")
            else:
                lines.append(f"{y_name} cluster {label} merges {x_name} clusters {words}")
        if limit is not None and len(lines) > limit:
            lines = lines[:limit] + [f"... and {len(lines) - limit:,} more (res.splits)"]
        return lines

    def _shown(self, limit: int | None) -> tuple[pd.DataFrame, str]:
        """The printed table: numbers to 4 significant digits, p-values to 3; at most
        ``limit`` clusters of each side (and what was left out, in words)."""
        frame = self.rows
        left = ""
        if limit is not None:
            parts, hidden = [], []
            for side, name in zip("xy", self.names):
                rows = frame[frame["side"] == side]
                parts.append(rows.iloc[:limit])
                if len(rows) > limit:
                    hidden.append(f"{len(rows) - limit:,} of {name}")
            frame = pd.concat(parts)
            if hidden:
                left = (f"... {' and '.join(hidden)}'s clusters not printed: "
                        "res.to_frame() has them all")
        shown = pd.DataFrame(frame[list(_SHOWN)]).astype(object)
        for c in ("jaccard", "precision", "recall", "f1"):
            shown[c] = [significant(v) for v in frame[c]]
        for c in ("size", "partner_size", "overlap"):
            shown[c] = ["NA" if pd.isna(v) else f"{int(v)}" for v in frame[c]]
        for c in ("pvalue", "pvalue_adjusted"):
            shown[c] = [_pvalue_text(v) for v in frame[c]]
        shown["partner"] = ["NA" if pd.isna(v) else str(v) for v in frame["partner"]]
        shown["cluster"] = [str(v) for v in frame["cluster"]]
        return shown, left

    def _rows(self) -> list[Row]:
        """The result's rows, printed (``__str__``) and tabulated (``_repr_html_``)."""
        rows = [Row("data", self.data_name, f"data:  {self.data_name}"),
                Row("pairing", self.matching, f"pairing: {self.matching}")]
        unpaired = self._unpaired()
        if unpaired:
            rows.append(Row("unpaired", unpaired, unpaired))
        rows.append(Row("p-values", self._pvalue_words(), f"p-values: {self._pvalue_words()}"))
        return rows

    def __str__(self) -> str:
        shown, left = self._shown(PRINTED_ROWS)
        lines = [shown.to_string(index=False)]
        if left:
            lines.append(left)
        splits = self.split_lines(PRINTED_SPLITS)
        share = f"{self.split_share:.0%}"
        if splits:
            lines += ["", f"splits and merges (parts holding at least {share} of a cluster):",
                      *(f"  {s}" for s in splits)]
        else:
            lines += ["", f"no splits or merges (parts holding at least {share} of a cluster)"]
        lines += ["", *textwrap.wrap(f"note: {self.caveat()}", WIDTH)]
        head = [textwrap.fill(line, WIDTH, subsequent_indent="  ") if len(line) > WIDTH
                else line for line in rows_text(TITLE, self._rows()).split("\n")]
        return "\n".join(head) + "\n" + "\n".join(lines) + "\n"

    def summary(self) -> str:
        """The result as R prints a test (``str(res)``).

        Returns
        -------
        str
            Data, pairing, p-values, the table of clusters, the splits and merges, the
            caveat on the p-values.
        """
        return str(self)

    def __repr__(self) -> str:
        K, Q = self.table.shape
        return (f"ClusterAgreement(match={self.match!r}, clusters=({K}, {Q}), "
                f"paired_cells={self.n_tests}, splits={int((self.splits['kind'] == 'split').sum())}"
                f", merges={int((self.splits['kind'] == 'merge').sum())})")

    def _repr_html_(self) -> str:
        """Jupyter: the header as a table, then the clusters, the splits and the caveat."""
        shown, left = self._shown(PRINTED_ROWS)
        out = rows_html(TITLE, self._rows())
        out += table(shown.set_index(["side", "cluster"]), "clusters and their partners"
                     ).to_html()
        notes = ([left] if left else []) + self.split_lines(PRINTED_SPLITS) + [
            f"note: {self.caveat()}"]
        out += ("<p style='max-width: 50em; margin: 0.3em 0; font-size: 0.9em;'>"
                + "<br>".join(html.escape(n) for n in notes) + "</p>")
        return out

    def order(self) -> tuple[np.ndarray, np.ndarray]:
        """The clusters of x and of y in paired order: paired cells on the diagonal.

        One-to-one: the paired clusters of x in the table's order with their partners in the
        same order, then those without a partner. Majority: the clusters of x by their
        partner, then the clusters of y by the place of their partner among x's.

        Returns
        -------
        rows, cols : numpy.ndarray of int
            Positions in the table's row and column labels.
        """
        px, py = self.partners_x, self.partners_y
        K, Q = px.size, py.size
        if self.match == "one-to-one":
            paired = np.flatnonzero(px >= 0)
            rows = np.concatenate([paired, np.flatnonzero(px < 0)])
            cols = np.concatenate([px[paired], np.flatnonzero(py < 0)])
            return rows, cols
        rows = np.lexsort((np.arange(K), np.where(px >= 0, px, Q)))
        place = np.empty(K, dtype=np.int64)
        place[rows] = np.arange(K)
        cols = np.lexsort((np.arange(Q), np.where(py >= 0, place[np.maximum(py, 0)], K)))
        return rows, cols

    def plot(self, ax=None):
        """The contingency table as a heatmap, clusters in paired order, paired cells outlined.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Draw here (default: a new figure).

        Returns
        -------
        matplotlib Axes
            The Axes drawn on: rows the clusters of x, columns those of y (in ``order()``),
            the counts annotated for tables of at most 15 clusters a side.
        """
        import matplotlib.pyplot as plt
        import seaborn as sns
        from matplotlib.patches import Rectangle

        K, Q = self.table.shape
        if max(K, Q) > PLOTTED_CLUSTERS:
            raise ValueError(f"the table has {K:,} x {Q:,} clusters: plot draws at most "
                             f"{PLOTTED_CLUSTERS} a side; read res.to_frame() instead")
        rows, cols = self.order()
        counts = np.asarray(self.table.to_dense().counts)[np.ix_(rows, cols)]
        frame = pd.DataFrame(counts, index=pd.Index(np.asarray(self.table.row_labels)[rows],
                                                    name=self.names[0]),
                             columns=pd.Index(np.asarray(self.table.col_labels)[cols],
                                              name=self.names[1]))
        if ax is None:
            _, ax = plt.subplots(figsize=(min(12, 2 + 0.5 * Q), min(10, 1.5 + 0.45 * K)))
        small = max(K, Q) <= 15
        sns.heatmap(frame, annot=small, fmt="d", cmap="Blues", ax=ax,
                    cbar_kws={"label": "objects"})
        row_at = np.empty(K, dtype=np.int64)
        row_at[rows] = np.arange(K)
        col_at = np.empty(Q, dtype=np.int64)
        col_at[cols] = np.arange(Q)
        cells = {(i, int(j)) for i, j in enumerate(self.partners_x) if j >= 0}
        cells |= {(int(i), j) for j, i in enumerate(self.partners_y) if i >= 0}
        for i, j in sorted(cells):
            ax.add_patch(Rectangle((col_at[j], row_at[i]), 1, 1, fill=False, edgecolor="C3",
                                   linewidth=2))
        ax.set_title(f"{self.names[0]} x {self.names[1]}: {self.match} pairs outlined",
                     fontsize="medium")
        return ax
