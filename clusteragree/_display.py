"""The display of results: a result's rows as printed text and as HTML (Jupyter's
``_repr_html_``, the reports), the HTML building blocks, and the plot of a null law.

No import of the package: every module may use it (a null law is taken as it comes, by its
attributes).

>>> significant(0.000123456), significant(123456.7), significant(17000), significant(None)
('0.0001235', '1.235e+05', '17,000', 'NA')
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import math
import numbers
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["DIGITS", "FIGURE_DPI", "PVALUE_DIGITS", "significant", "format_pvalue", "figure_html",
           "integer_ranges",
           "definition_table", "table", "plot_null", "law_html", "support", "lattice_edges",
           "MAX_BARS", "EXACT_BINS", "Row", "rows_lines", "rows_text", "rows_html",
           "law_rows", "apa_number", "apa_pvalue", "apa_bound", "apa_interval", "word_list"]

#: Significant digits of every number a report or an HTML result shows.
DIGITS = 4

#: Significant digits of every printed p-value (as R's ``printCoefmat`` and ``format.pval``).
PVALUE_DIGITS = 3

#: The resolution of every figure embedded in a report or an HTML result, in pixels per inch
#: (the print stylesheet prints them at it: at their own size).
FIGURE_DPI = 110

#: PNG metadata of every figure: no "Software" key (matplotlib's version), so that the same
#: figure gives the same bytes whatever matplotlib drew it.
PNG_METADATA = {"Software": None}

#: Table ids handed out so far in this process (``table``): id -> times used.
_TABLE_IDS: dict[str, int] = {}


def _table_uuid(caption: str | None) -> str:
    """A table's id, derived from its caption (pandas' default is random): the same notebook
    gives the same page, byte for byte. A caption seen before gets a counter, so that ids stay
    unique within a page."""
    key = hashlib.sha256((caption or "").encode("utf-8")).hexdigest()[:8]
    used = _TABLE_IDS.get(key, 0)
    _TABLE_IDS[key] = used + 1
    return key if used == 0 else f"{key}_{used}"


def significant(x, digits: int = DIGITS) -> str:
    """One number as text, to ``digits`` significant digits.

    Parameters
    ----------
    x : number, None or NA
        The value.
    digits : int, default 4
        Significant digits.

    Returns
    -------
    str
        "NA" for a missing value; whole numbers (and counts such as n_sim) as they are, with
        thousands separators; numbers outside [1e-4, 1e5) in scientific notation.

    See Also
    --------
    table : A DataFrame with its numbers formatted so.

    Examples
    --------
    >>> significant(0.0123456), significant(1234567.0), significant(17000)
    ('0.01235', '1.235e+06', '17,000')
    """
    if x is None or (isinstance(x, float) and math.isnan(x)) or type(x).__name__ == "NAType":
        return "NA"
    if isinstance(x, bool) or not isinstance(x, numbers.Number):
        return str(x)
    if isinstance(x, numbers.Integral):
        return f"{int(x):,}"
    x = float(x)
    if x == 0:
        return "0"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if 1e-4 <= abs(x) < 1e5:
        text = f"{x:#.{digits}g}"
        return text.rstrip(".")
    return f"{x:.{digits - 1}e}"


def format_pvalue(p, digits: int = PVALUE_DIGITS, na_rep: str = "NA") -> str:
    """A p-value (or its standard error, or a bound on it) as text, to ``digits`` significant
    digits, as R prints them: never a positive p rounded to 0.

    Parameters
    ----------
    p : float, None or NA
        The value.
    digits : int, default 3
        Significant digits.
    na_rep : str, default "NA"
        The text of a missing value.

    Returns
    -------
    str
        "1.02e-62", "0.0368", "0.5", "1"; "0" only for a value that is 0.

    See Also
    --------
    significant : Any other number.

    Examples
    --------
    >>> format_pvalue(1.0234e-62), format_pvalue(0.036834), format_pvalue(0.0), format_pvalue(None)
    ('1.02e-62', '0.0368', '0', 'NA')
    """
    if p is None or type(p).__name__ == "NAType" or (isinstance(p, float) and math.isnan(p)):
        return na_rep
    p = float(p)
    return "0" if p == 0 else f"{p:.{digits}g}"


def format_log_pvalue(log10_p: float, how: str = "", digits: int = PVALUE_DIGITS,
                      sep: str = "; ") -> str:
    """A p-value known by its logarithm (a tail far beyond the Monte Carlo floor) as text,
    never 0: "≈ 3.24e-41", below the smallest doubles "< 1e-300 (log10 p = -1234.5)", and
    "= 0 (no table is as extreme)" for a p that is 0; ``how`` (what gave it) follows in the
    parentheses.

    Parameters
    ----------
    log10_p : float
        log10 of the p-value.
    how : str, default ""
        What gave it ("saddlepoint approximation"), or "".
    digits : int, default 3
        Significant digits.
    sep : str, default "; "
        Between the log10 and ``how`` inside the parentheses.

    Returns
    -------
    str
        The p-value's text, for a printed test, a table or a sentence.

    Examples
    --------
    >>> format_log_pvalue(-40.49, "importance sampling")
    '≈ 3.24e-41 (importance sampling)'
    >>> format_log_pvalue(-1234.5, "IS", sep=", "), format_log_pvalue(-1234.5)
    ('< 1e-300 (log10 p = -1234.5, IS)', '< 1e-300 (log10 p = -1234.5)')
    """
    log10_p = float(log10_p)
    if log10_p == -math.inf:
        return f"= 0 (no table is as extreme{sep + how if how else ''})"
    if log10_p < -300:
        return f"< 1e-300 (log10 p = {log10_p:.1f}{sep + how if how else ''})"
    return f"≈ {format_pvalue(10.0 ** log10_p, digits)}{f' ({how})' if how else ''}"


def _missing(x) -> bool:
    """None, NA or nan: a part of a sentence left out."""
    if x is None or type(x).__name__ == "NAType":
        return True
    return isinstance(x, numbers.Real) and math.isnan(float(x))


def apa_number(x, digits: int = 2) -> str:
    """One number for a sentence of a paper, to ``digits`` decimals (APA: 2 for an index).

    Parameters
    ----------
    x : number, None or NA
        The value.
    digits : int, default 2
        Decimals.

    Returns
    -------
    str
        "0.43", "-0.05", "1,234.57"; "∞" and "-∞" for infinite bounds; "" for a missing
        value (a sentence leaves it out, never "nan").

    See Also
    --------
    apa_pvalue : A p-value.

    Examples
    --------
    >>> apa_number(0.4321), apa_number(-0.05), apa_number(float("nan")), apa_number(3, 1)
    ('0.43', '-0.05', '', '3.0')
    """
    if _missing(x):
        return ""
    x = float(x)
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    return f"{x:,.{digits}f}"


def _no_zero(text: str) -> str:
    """APA: no leading zero before a number that cannot exceed 1 ("0.031" -> ".031")."""
    return text[1:] if text.startswith("0.") else text


def apa_pvalue(p, symbol: str = "p") -> str:
    """A p-value as APA writes it: 3 decimals without the leading zero, "< .001" below .001.

    Parameters
    ----------
    p : float, None or NA
        The p-value.
    symbol : str, default "p"
        What it is called ("p", "p_adj").

    Returns
    -------
    str
        "p = .031", "p < .001", "p > .999"; "" for a missing p-value.

    See Also
    --------
    apa_bound : A p-value known by a bound (a Monte Carlo floor).

    Examples
    --------
    >>> apa_pvalue(0.0312), apa_pvalue(2e-9), apa_pvalue(1.0), apa_pvalue(None)
    ('p = .031', 'p < .001', 'p > .999', '')
    """
    if _missing(p):
        return ""
    p = float(p)
    if p < 0.001:
        return f"{symbol} < .001"
    if p > 0.999:
        return f"{symbol} > .999"
    return f"{symbol} = {_no_zero(f'{p:.3f}')}"


def apa_bound(bound: float, symbol: str = "p") -> str:
    """A p-value known to lie below ``bound`` (a Monte Carlo p-value at its floor 1/(B + 1)),
    the bound rounded up to one significant digit, so that the statement stays true.

    Parameters
    ----------
    bound : float
        The bound, in (0, 1].
    symbol : str, default "p"
        What it is called.

    Returns
    -------
    str
        "p < .0001" (B = 9,999), "p < .001" (B = 999), "p < .00006" (B = 17,000).

    See Also
    --------
    apa_pvalue : A p-value known by its value.

    Examples
    --------
    >>> apa_bound(1 / 10000), apa_bound(1 / 1000), apa_bound(1 / 17001), apa_bound(1 / 200)
    ('p < .0001', 'p < .001', 'p < .00006', 'p < .005')
    """
    bound = float(bound)
    exponent = math.floor(math.log10(bound))
    lead = math.ceil(round(bound / 10.0 ** exponent, 9))  # 1e-4 stays 1e-4, 5.88e-5 -> 6e-5
    if lead == 10:
        lead, exponent = 1, exponent + 1
    if exponent >= 0:
        return f"{symbol} < {lead * 10 ** exponent}"
    return f"{symbol} < {_no_zero(f'{lead * 10.0 ** exponent:.{-exponent}f}')}"


def apa_interval(low, high, level, closed: str = "both", digits: int = 2) -> str:
    """A confidence interval as APA writes it: "95% CI [0.12, 0.88]".

    Parameters
    ----------
    low, high : float
        The bounds (infinite for a one-sided interval).
    level : float
        The confidence level, e.g. 0.95.
    closed : {"both", "left", "right", "neither"}, default "both"
        Which bounds belong to the interval: an open bound gets a parenthesis, "(0.00, 0.31]".
    digits : int, default 2
        Decimals of the bounds.

    Returns
    -------
    str
        The interval, or "" when a bound or the level is missing.

    See Also
    --------
    apa_number : Its numbers.

    Examples
    --------
    >>> apa_interval(0.1234, 0.88, 0.95), apa_interval(0.0, 0.31, 0.9, closed="right")
    ('95% CI [0.12, 0.88]', '90% CI (0.00, 0.31]')
    >>> apa_interval(0.05, float("inf"), 0.95), apa_interval(float("nan"), 1, 0.95)
    ('95% CI [0.05, ∞)', '')
    """
    if _missing(low) or _missing(high) or _missing(level):
        return ""
    left = "[" if closed in ("both", "left") and not math.isinf(low) else "("
    right = "]" if closed in ("both", "right") and not math.isinf(high) else ")"
    return (f"{100 * float(level):g}% CI {left}{apa_number(low, digits)}, "
            f"{apa_number(high, digits)}{right}")


def integer_ranges(values) -> str:
    """Whole numbers as runs: "2-5, 9" for [2, 3, 4, 5, 9]; "none" for none.

    Parameters
    ----------
    values : iterable of int
        Increasing whole numbers (cuts, cluster counts).

    Returns
    -------
    str
        The runs of consecutive numbers, comma-separated.

    Examples
    --------
    >>> integer_ranges([2, 3, 4, 5, 9]), integer_ranges([])
    ('2-5, 9', 'none')
    """
    ks = [int(k) for k in values]
    parts, start = [], None
    for i, v in enumerate(ks):
        start = v if start is None else start
        if i + 1 == len(ks) or ks[i + 1] != v + 1:
            parts.append(str(v) if start == v else f"{start}-{v}")
            start = None
    return ", ".join(parts) if parts else "none"


def word_list(items) -> str:
    """Items joined as a sentence joins them: "a", "a and b", "a, b and c".

    Parameters
    ----------
    items : iterable of str
        The items.

    Returns
    -------
    str
        The list in words ("" for none).

    Examples
    --------
    >>> word_list(["0.95"]), word_list(["0.95", "1.00"]), word_list("abc")
    ('0.95', '0.95 and 1.00', 'a, b and c')
    """
    items = [str(i) for i in items]
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def figure_html(fig, width_px: int = 520) -> str:
    """A matplotlib figure as an embedded PNG ``<img>``; the figure is closed (shown once)."""
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=FIGURE_DPI, bbox_inches="tight", metadata=PNG_METADATA)
    plt.close(fig)
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return f'<img style="max-width:{width_px}px" src="data:image/png;base64,{data}"/>'


def definition_table(title: str, rows, caption: str | None = None) -> str:
    """A two-column HTML table of (label, text) rows under a bold title."""
    body = "".join(f"<tr><th style='text-align:left;padding-right:1em'>{html.escape(k)}</th>"
                   f"<td style='text-align:left'>{html.escape(v)}</td></tr>" for k, v in rows)
    cap = f"<p style='margin:0.2em 0'>{html.escape(caption)}</p>" if caption else ""
    return f"<div><p style='margin:0.2em 0'><b>{html.escape(title)}</b></p>{cap}" \
           f"<table>{body}</table></div>"


@dataclass(frozen=True)
class Row:
    """One row of a result, as both of its forms show it: a result builds one list of rows,
    and ``rows_text`` prints it (as R prints an ``htest``) while ``rows_html`` tabulates it.

    ``label`` and ``value`` are the HTML table's cells (no label: the row is printed only);
    ``line`` is the printed line (None: the row is in the HTML table only); a ``joined`` line
    continues the previous printed line after ", ".
    """

    label: str | None
    value: str
    line: str | None = None
    joined: bool = False


def rows_lines(rows) -> list[str]:
    """A result's printed rows as lines: one line per printed row (a joined row continues the
    line before it; rows with no line are left out)."""
    lines: list[str] = []
    for row in rows:
        if row.line is None:
            continue
        if row.joined and lines:
            lines[-1] += ", " + row.line
        else:
            lines.append(row.line)
    return lines


def rows_text(title: str, rows) -> str:
    """A result's rows as printed text: the title indented under a blank line, then
    ``rows_lines``."""
    return "\n".join(["", f"\t{title}", "", *rows_lines(rows)]) + "\n"


def rows_html(title: str, rows, caption: str | None = None) -> str:
    """A result's rows as a two-column HTML table (``definition_table``): the rows with a
    label."""
    return definition_table(title, [(r.label, r.value) for r in rows if r.label is not None],
                            caption)


def table(frame: pd.DataFrame, caption: str | None = None, digits: int = DIGITS):
    """A DataFrame as a captioned HTML table, as the reports show results.

    Parameters
    ----------
    frame : DataFrame
        The results (e.g. of ``ca.compare``).
    caption : str, optional
        Shown above the table (the reports name the null model and method there).
    digits : int, default 4
        Significant digits of the numbers.

    Returns
    -------
    pandas.io.formats.style.Styler
        Numbers to ``digits`` significant digits, NA where missing, right-aligned; the upper
        levels of grouped column headers (a MultiIndex) centred over the columns they span;
        shown as the last expression of a notebook cell.

    See Also
    --------
    significant : The formatting of one number.

    Examples
    --------
    >>> df = ca.compare([[30, 20], [10, 20]], indices=["rand"], method="exact")
    >>> html = table(df[["statistic", "pvalue"]], "exact null").to_html()
    >>> "exact null" in html, ">0.03683<" in html
    (True, True)
    """
    styler = frame.style.format(lambda v: significant(v, digits), na_rep="NA", escape="html")
    styler = styler.set_uuid(_table_uuid(caption))  # not random: re-renders give the same bytes
    if caption:
        styler = styler.set_caption(html.escape(caption))
    return styler.set_table_styles([
        {"selector": "caption", "props": "caption-side: top; text-align: left; "
                                         "font-weight: bold; padding-bottom: 0.4em;"},
        {"selector": "td", "props": "text-align: right; padding: 0.2em 0.6em; "
                                    "white-space: nowrap;"},
        {"selector": "th", "props": "text-align: right; padding: 0.2em 0.6em;"},
        # an upper level of grouped column headers spans its columns: centred over them
        {"selector": "th.col_heading[colspan]", "props": "text-align: center;"},
    ])


# -- null laws (a NullDistribution, by its attributes) -------------------------------------------

#: A sampled law with at most this many distinct values is drawn as bars at its values (its
#: support), like an exact law's pmf; a law with more values as a histogram (``lattice_edges``).
MAX_BARS = 60

#: The bins of an exact law with more than ``MAX_BARS`` values (``lattice_edges``: at most so
#: many, with edges at midpoints between its values).
EXACT_BINS = 40

#: The tail share of an exact law left out of its histogram on each side: its far values
#: (tables no draw would give) would squeeze the law into a few bins.
EXACT_SHOWN = 0.0005

#: Fewest support values per histogram bin on average (``lattice_edges``): fewer, and the
#: unevenness of a lattice would show through as a comb.
MIN_VALUES_PER_BIN = 3

#: Values closer than this (relative, absolute below 1) are one support value: the tie
#: tolerance of the null laws (``nulls._laws.TIE_RTOL``), so that index values equal up to
#: rounding count once.
_TIE_RTOL = 1e-9


def support(samples):
    """The distinct values of a sample (ties up to rounding merged) and how often each occurs.

    Parameters
    ----------
    samples : array-like
        Draws of a law; NaN and infinite values are left out.

    Returns
    -------
    values : ndarray
        The sorted distinct values (the first of each group of values equal up to rounding).
    counts : ndarray
        How many draws take each value.

    Examples
    --------
    >>> values, counts = support([0.5, 0.25, 0.5, 0.5 + 1e-12, 1.0])
    >>> values.tolist(), counts.tolist()
    ([0.25, 0.5, 1.0], [1, 3, 1])
    """
    import numpy as np

    x = np.sort(np.asarray(samples, dtype=float).ravel())
    x = x[np.isfinite(x)]
    if x.size == 0:
        return x, np.zeros(0, dtype=int)
    new = np.ones(x.size, bool)
    new[1:] = np.diff(x) > _TIE_RTOL * np.maximum(1.0, np.abs(x[1:]))
    starts = np.flatnonzero(new)
    return x[starts], np.diff(np.append(starts, x.size))


def lattice_edges(samples, bins="auto", range=None):
    """Histogram bin edges for draws of a law on a lattice, so that the histogram has no comb.

    The null laws of clustering indices under fixed margins take values on a lattice, often
    unevenly spaced (an index that is a nonlinear function of the sum of squared cell counts).
    Bins of a fixed width then hold one lattice value, then two, then none, and the histogram
    comes out comb-shaped although the law is smooth. Here each value owns the interval
    between the midpoints to its neighbours, and bin edges lie only at these midpoints: the
    edges of the usual rule (``numpy.histogram_bin_edges`` with ``bins``) are each moved to
    the nearest midpoint, edges that meet are merged, and bins are made wider where there
    would be fewer than ``MIN_VALUES_PER_BIN`` values per bin on average. So every lattice
    value falls wholly into one bin, no bin between two others is empty, and a histogram
    drawn as density (count / (draws x width)) spreads each value's mass over the interval
    it owns: its area stays the probability, and bins that hold one value more or one less
    are as much wider or narrower, so their heights do not alternate. Draws that take all
    different values (a continuous law) get the usual edges, barely moved.

    Parameters
    ----------
    samples : array-like
        Draws of the law.
    bins : int or str, default "auto"
        The number of bins, or the rule of ``numpy.histogram_bin_edges`` for their width,
        before the edges move to the midpoints (so at most this many bins).
    range : (float, float), optional
        The interval to cover (default: all draws); the outer edges move to midpoints too.

    Returns
    -------
    ndarray
        Increasing bin edges, for ``Axes.hist(samples, bins=edges, density=True)``.

    See Also
    --------
    support : The distinct values of a sample.
    plot_null : Draws a law's samples with these edges.

    Examples
    --------
    Four bins over the squares 0, 1, 4, ..., 121: the regular edges 0, 30.25, 60.5, 90.75
    and 121 move to the midpoints 30.5 (between 25 and 36), 56.5 and 90.5, and the outer
    ones half a step beyond 0 and 121.

    >>> lattice_edges([k * k for k in range(12)], bins=4).tolist()
    [-0.5, 30.5, 56.5, 90.5, 131.5]
    """
    import numpy as np

    x = np.asarray(samples, dtype=float).ravel()
    x = x[np.isfinite(x)]
    values, _ = support(x)
    if values.size == 0:
        raise ValueError("no finite draws to bin")
    if values.size == 1:  # a point mass: one bin around it
        half = 0.5 * max(1.0, abs(values[0])) * 1e-3
        return np.array([values[0] - half, values[0] + half])
    lo, hi = (values[0], values[-1]) if range is None else (float(range[0]), float(range[1]))
    target = np.histogram_bin_edges(x, bins, range=(lo, hi))
    inside = int(((values >= lo) & (values <= hi)).sum())
    most = max(1, inside // MIN_VALUES_PER_BIN)
    if target.size - 1 > most:
        target = np.linspace(lo, hi, most + 1)
    # the intervals the values own: midpoints, and half a step beyond the first and last value
    bounds = np.concatenate([[values[0] - (values[1] - values[0]) / 2],
                             (values[:-1] + values[1:]) / 2,
                             [values[-1] + (values[-1] - values[-2]) / 2]])
    right = np.clip(np.searchsorted(bounds, target), 1, bounds.size - 1)
    nearer = np.where(target - bounds[right - 1] <= bounds[right] - target, right - 1, right)
    if range is None:  # every draw inside
        nearer[0], nearer[-1] = 0, bounds.size - 1
    edges = np.unique(bounds[nearer])
    if edges.size < 2:  # the range holds less than one value's interval: that value's
        k = int(np.clip(np.searchsorted(values, (lo + hi) / 2), 0, values.size - 1))
        edges = bounds[k:k + 2]
    return edges


def plot_null(nd, observed: float | None = None, ax=None, bins="auto"):
    """A null law with its mean and median (and the observed value) marked.

    A law with at most ``MAX_BARS`` values is drawn as bars at its values: an exact law's
    probabilities, a sampled law's share of draws at each value, so that the two look alike.
    A law with more values is drawn as a histogram in density whose edges lie at midpoints
    between consecutive values (``lattice_edges``): each bin's area is the probability (exact
    law, at most ``EXACT_BINS`` bins between its 0.05% and 99.95% quantiles, the far tails
    left out of the picture) or the share of draws it holds, and a law on an uneven lattice
    shows no comb.

    Parameters
    ----------
    nd : NullDistribution
        A law known in full (exact or sampled): ``nd.plot`` checks that.
    observed : float, optional
        Mark this value (a red line; an arrow at the edge when it lies far outside the law).
    ax : matplotlib Axes, optional
        Draw here (default: a new figure).
    bins : int, sequence or str, default "auto"
        Samples only. "auto": bars or a comb-free histogram, as above. Anything else is
        passed to seaborn's ``histplot`` as it is (a histogram of shares of the draws).

    Returns
    -------
    matplotlib Axes
        The pmf of an exact law, or the bars or histogram of the samples.

    See Also
    --------
    lattice_edges : The histogram's bin edges.
    """
    import matplotlib.pyplot as plt
    import numpy as np

    if ax is None:
        _, ax = plt.subplots(figsize=(6.5, 3.6))
    if nd.samples is None and len(nd.values) <= MAX_BARS:
        ax.vlines(nd.values, 0, nd.probabilities, color="0.45", lw=1.5, zorder=3)
        ax.set_ylabel("probability")
    elif nd.samples is None:  # many values: the lattice's probability per unit, no comb
        edges = lattice_edges(nd.values, bins=EXACT_BINS,
                              range=(nd.quantile(EXACT_SHOWN), nd.quantile(1 - EXACT_SHOWN)))
        mass, _ = np.histogram(nd.values, bins=edges, weights=nd.probabilities)
        ax.stairs(mass / np.diff(edges), edges, fill=True, color="0.65", edgecolor="white",
                  linewidth=0.4)
        ax.set_ylabel("probability density")
    elif not (isinstance(bins, str) and bins == "auto"):  # the user's bins, as they are
        import seaborn as sns

        sns.histplot(nd.samples, bins=bins, stat="probability", ax=ax, color="0.65",
                     edgecolor="white")
    else:
        values, counts = support(nd.samples)
        if values.size <= MAX_BARS:
            ax.vlines(values, 0, counts / counts.sum(), color="0.45", lw=1.5, zorder=3)
            ax.set_ylabel(f"share of the {counts.sum():,} draws")
        else:
            ax.hist(nd.samples, bins=lattice_edges(nd.samples), density=True, color="0.65",
                    edgecolor="white", linewidth=0.4)
            ax.set_ylabel("density")
    ax.axvline(nd.mean, color="C0", ls="-", lw=1.5, label=f"mean {nd.mean:.4g}")
    ax.axvline(nd.median, color="C2", ls="--", lw=1.5, label=f"median {nd.median:.4g}")
    if observed is not None:
        _mark_observed(nd, ax, observed)
    ax.set_xlabel(f"{nd.index.name} under H0 ({nd.model}, {nd.method})")
    # beside the axes: inside, it would sit on bars or on a line somewhere (and above, on a
    # title the caller sets)
    ax.legend(frameon=False, fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1),
              borderaxespad=0)
    return ax


def _mark_observed(nd, ax, observed: float) -> None:
    """A red line at the observed value; when it lies far outside the law (more than the
    law's own width away), the axis keeps the law's scale and an arrow at the edge points
    to the observed value, so that the law stays visible."""
    lo, hi = nd.quantile(0.0005), nd.quantile(0.9995)
    width = hi - lo
    if width > 0 and not lo - width <= observed <= hi + width:
        ax.set_xlim(lo - 0.3 * width, hi + 0.3 * width)
        right = observed > hi
        edge = hi + 0.27 * width if right else lo - 0.27 * width
        ax.annotate(f"observed {observed:.4g}", xy=(edge, 0.55), xycoords=("data", "axes fraction"),
                    xytext=(-8 if right else 8, 0), textcoords="offset points", color="C3",
                    ha="right" if right else "left", va="center", fontsize="small",
                    bbox=dict(boxstyle="square,pad=0.1", fc="white", ec="none", alpha=0.85),
                    arrowprops=dict(arrowstyle="->", color="C3"))  # head at the edge
        ax.plot([], [], color="C3", lw=2, label=f"observed {observed:.4g} (off scale)")
    else:
        ax.axvline(observed, color="C3", lw=2, label=f"observed {observed:.4g}")


def law_rows(nd) -> list[Row]:
    """A null law's rows, for both of its forms (``NullDistribution.__repr__`` prints them
    under its head line, ``law_html`` tabulates them): the null described, its mean and sd
    and, when the law is known, its median, skewness and 1% / 99% quantiles."""
    s = nd.summary()
    mean, sd = s["null_mean"], s["null_sd"]
    rows = [Row(None, "", f"  null: {nd.describe()}"),
            Row("mean", significant(mean), f"  mean = {mean:.6g}"),
            Row("sd", significant(sd), None if type(sd).__name__ == "NAType" else f"sd = {sd:.6g}",
                joined=True)]
    if nd.has_law:
        q01, q99 = nd.quantile(0.01), nd.quantile(0.99)
        median, skewness = s["null_median"], s["null_skewness"]
        rows += [Row("median", significant(median), f"  median = {median:.6g}"),
                 Row("skewness", significant(skewness), f"skewness = {skewness:.4g}",
                     joined=True),
                 Row("1% / 99% quantiles", f"{significant(q01)} / {significant(q99)}",
                     f"1% / 99% quantiles = {q01:.6g} / {q99:.6g}", joined=True)]
    return rows


def law_html(nd, kind: str) -> str:
    """A null law in HTML: its rows (``law_rows``) as a table under a title naming the ``kind``
    of law ("exact law", "Monte Carlo law", "moments only") and, when the law is known, its
    plot."""
    out = rows_html(f"Null distribution of {nd.index.name} ({kind})", law_rows(nd),
                    caption=f"null: {nd.describe()}")
    if nd.has_law:
        out += figure_html(nd.plot().figure)
    return out
