"""The clusterings report's computations, tables, figures and reading (many clusterings of the
same objects against one reference).

* ``check_index(index)``: an agreement index the report can map and test, refused by name.
* ``reference_table(m)``: each clustering against the reference, as the report shows it.
* ``best_against_others(frame, reference, names, ...)``: the best clustering's paired
  differences with each other one (``ca.difference_test``), adjusted for multiplicity.
* ``near_identical(frame, names, share)``: the pairs that put nearly every object the same way.
* ``plot_heatmap``, ``plot_map``: the agreement matrix's heatmap and MDS map
  (``AgreementMatrix.plot``) sized for many clusterings, near-coincident labels merged.
* ``plot_agreements``, ``plot_differences``: dot-and-whisker figures, sorted.
* ``reading(...)``: the verdict in plain words, from the numbers.

>>> check_index("ari").name
'adjusted_rand'
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from .._display import format_pvalue, significant
from .helpers import PAPER_FONT, PAPER_WIDTH, fit_title
from .results import beyond_floor_texts, interval_text, method_text, pvalue_text

__all__ = ["LEVEL", "BEYOND_FLOOR", "beyond_floor", "best_against_others", "better", "check_index", "difference_table",
           "near_identical", "plot_agreements", "plot_differences", "plot_heatmap", "plot_map",
           "heatmap_precision", "MANY_CLUSTERINGS",
           "reading", "reference_table"]

#: The level at which the reading calls a difference or an agreement significant.
LEVEL = 0.05


#: The smallest positive float: a p-value that underflowed to 0 is written "< 2.23e-308".
_TINY = float(np.finfo(float).tiny)


def _p(p) -> str:
    """A p-value as text (``format_pvalue``), but never "0": one that underflowed to 0 is
    written as the bound it is."""
    return f"< {_TINY:.3g}" if not pd.isna(p) and float(p) == 0 else format_pvalue(p)


def check_index(index):
    """The report's index: a similarity bounded by 1 or a distance of the contingency table.

    The report maps the clusterings by 1 - similarity (or the distance), tests each against
    the reference and tests the differences of their agreements; an index of object pairs, or
    one that is neither a similarity nor a distance, cannot be, and is refused by name.

    Parameters
    ----------
    index : str
        An index of ``ca.list_indices()`` (or one of its other names).

    Returns
    -------
    Index
        The index's record.

    Raises
    ------
    ValueError, TypeError
        An unknown index (with a did-you-mean), or one the report cannot use, and why.

    Examples
    --------
    >>> check_index("vi").kind
    'distance'
    """
    from ..indices import get_index

    if not isinstance(index, str):
        raise TypeError(f"parameter index must be an index's name, got {index!r}")
    rec = get_index(index)
    if rec.of_hard_tables is None:
        raise ValueError(f"parameter index: {rec.name!r} compares memberships or similarity "
                         "matrices; the report compares hard clusterings by an index of their "
                         "contingency table (ca.list_indices())")
    if rec.kind not in ("similarity", "distance"):
        raise ValueError(f"parameter index: {rec.name!r} is a {rec.kind}, neither a "
                         "similarity nor a distance, so no clustering agrees 'better'; choose "
                         "an agreement index such as adjusted_rand")
    if rec.kind == "similarity" and rec.range[1] != 1:
        raise ValueError(f"parameter index: {rec.name!r} is a similarity whose maximum is "
                         f"{rec.range[1]}, not 1, so 1 - {rec.name} is no distance for the map "
                         "of the clusterings; choose an index bounded by 1")
    return rec


def better(kind: str) -> str:
    """The direction of more agreement, in words: "higher" for a similarity, "lower" for a
    distance."""
    return "lower" if kind == "distance" else "higher"


def _order(values: pd.Series, kind: str) -> pd.Index:
    """The clusterings from the best agreement to the worst."""
    return values.sort_values(ascending=kind == "distance", kind="stable").index


def _adjusted_text(raw: pd.DataFrame, adjusted) -> list[str]:
    """Adjusted p-values as text: where the raw p-value is a Monte Carlo floor (no simulated
    value as extreme), the adjusted one is a bound too, written "<= x"."""
    out = []
    for k, a in zip(raw["n_extreme"], adjusted):
        text = _p(a)
        out.append(f"<= {text}" if not pd.isna(k) and k == 0 and text != "NA" else text)
    return out


#: The columns of a p-value beyond the Monte Carlo floor (``ca.compare``'s frames).
BEYOND_FLOOR = ["pvalue_beyond_floor", "pvalue_beyond_floor_se", "log10_pvalue_beyond_floor",
                "beyond_floor_method"]


def beyond_floor(frame: pd.DataFrame, reference: str, m, *, importance: bool = True,
                 method: str = "auto", model: str = "perm", n_sim: int | None = None,
                 seed=None, noise=None) -> pd.DataFrame:
    """The p-value beyond the Monte Carlo floor of each clustering whose test against the
    reference sits at the floor (no simulated table as extreme), as the agreement report
    gives it: ``ca.compare`` of that pair with ``NullSpec(beyond_floor=...)``.

    The matrix's own tests are left without it: with ``beyond_floor=True`` every floored pair
    of the matrix (66 for 12 clusterings) would take seconds to a minute of importance
    sampling; the reference's tests are the ones the report reads.

    Parameters
    ----------
    frame : DataFrame
        The reference's column and the clusterings'.
    reference : str
        The reference's column.
    m : AgreementMatrix
        With ``reference=`` and ``test=True``: which tests are at the floor.
    importance : bool, default True
        Importance sampling (``NullSpec(beyond_floor=True)``: seconds to a minute per test),
        else the saddlepoint approximation only, where it answers.
    method, model, n_sim, seed, noise
        The matrix's (each pair's draws are its own: the estimate beyond the floor does not
        use them).

    Returns
    -------
    DataFrame
        Indexed by the clusterings at the floor, the ``BEYOND_FLOOR`` columns (NA where no
        estimate was made); ``attrs["notes"]`` the notes of ``ca.compare`` on them (their
        accuracy, or why there is none), each once.
    """
    from ..inference.agreement_tests import compare
    from ..nulls import NullSpec

    ref = m.reference
    floored = [c for c, k in zip(ref.index, ref["n_extreme"]) if not pd.isna(k) and k == 0]
    rows, notes = [], []
    spec = NullSpec(method=method, beyond_floor=True if importance else None)
    for c in floored:
        res = compare(frame[reference], frame[c], indices=[m.index], method=spec, model=model,
                      n_sim=n_sim, seed=seed, interval=None, noise=noise)
        rows.append(res.iloc[0][BEYOND_FLOOR].rename(c))
        notes += [f"{c}: {n.split(': ', 1)[1]}" if n.startswith(f"{m.index}: ") else n
                  for n in res.attrs.get("beyond_floor_notes", [])]
    out = (pd.DataFrame(rows) if rows else pd.DataFrame(columns=BEYOND_FLOOR))
    out.index.name = "clustering"
    out.attrs["notes"] = list(dict.fromkeys(notes))
    return out


def reference_table(m, beyond: pd.DataFrame | None = None) -> pd.DataFrame:
    """Each clustering against the reference (``AgreementMatrix.reference``) as the report
    shows it, best first.

    Parameters
    ----------
    m : AgreementMatrix
        With ``reference=`` and ``test=True``.
    beyond : DataFrame, optional
        ``beyond_floor(...)``: the p-values beyond the Monte Carlo floor of the clusterings
        whose p-value is at it.

    Returns
    -------
    DataFrame
        Indexed by clustering: the index's value (``significant`` in the report's table),
        the interval (headed by its level), the p-value (a Monte Carlo floor as a bound with
        its count), "p beyond the floor" (its estimate and method, "≈ 2.4e-74 (IS, s.e. 5%)",
        where some p-value at the floor has one: a 3 x 3 table's exact 1e-73 and a 3 x 4
        table's floor of 5.88e-05 read as if the second agreed less), the adjusted p-value
        (headed by the adjustment) and the null's method.
    """
    ref = m.reference
    order = _order(ref["statistic"].astype(float), m.kind)
    ref = ref.loc[order]
    if beyond is not None and len(beyond):
        ref = ref.drop(columns=[c for c in BEYOND_FLOOR if c in ref]).join(beyond[BEYOND_FLOOR])
    level = float(ref["ci_level"].dropna().iloc[0]) if ref["ci_level"].notna().any() else None
    head = f"{100 * level:g}% interval" if level else "interval"
    texts = beyond_floor_texts(ref) if beyond is not None else pd.Series("", index=ref.index)
    return pd.DataFrame({
        m.index: ref["statistic"].astype(float),
        head: interval_text(ref),
        "p-value": [_p(p) if text == "0" else text
                    for p, text in zip(ref["pvalue"], pvalue_text(ref))],
        **({"p beyond the floor": texts.to_numpy()} if (texts != "").any() else {}),
        f"p-value ({m.multiple}-adjusted)": _adjusted_text(ref, ref["pvalue_adjusted"]),
        "method": method_text(ref),
    }, index=pd.Index(order, name="clustering"))


def best_against_others(frame: pd.DataFrame, reference: str, names, index: str, *,
                        agreements: pd.Series, kind: str, multiple: str = "holm",
                        confidence_level: float = 0.95, seed=None, noise=None) -> pd.DataFrame:
    """The best clustering's paired difference with each other one, by ``ca.difference_test``.

    The best is the clustering of highest agreement with the reference (lowest, for a
    distance). For each other clustering b, Delta = I(reference, best) - I(reference, b) with
    its jackknife standard error, interval and two-sided p-value; the p-values are adjusted
    together by statsmodels' ``multipletests``. A test's warning (an agreement near
    independence, where the jackknife may not hold its level) is kept in ``note``, not shown.

    Parameters
    ----------
    frame : DataFrame
        The reference's column and the clusterings', one row per object.
    reference : str
        The reference's column.
    names : list of str
        The clusterings.
    index : str
        The index.
    agreements : Series
        Each clustering's agreement with the reference, indexed by name (picks the best).
    kind : {"similarity", "distance"}
        The index's kind.
    multiple : str, default "holm"
        The adjustment (a method of ``multipletests``).
    confidence_level : float, default 0.95
        The intervals' level.
    seed : int, optional
        Each test draws from its own child of ``numpy.random.SeedSequence(seed)``, in the
        order of ``names``.
    noise : Noise or str, optional
        The noise policy of every test (``ca.difference_test``'s ``noise=``); None: the
        labels as given.

    Returns
    -------
    DataFrame
        Indexed by the other clusterings (best difference first): ``agreement_b``,
        ``statistic`` (Delta), ``standard_error``, ``ci_low``, ``ci_high``, ``pvalue``,
        ``pvalue_adjusted``, ``note``; ``attrs["best"]`` the best clustering and
        ``attrs["method"]`` the tests' method.
    """
    from statsmodels.stats.multitest import multipletests

    from ..inference.difference import difference_test

    best = _order(agreements.astype(float), kind)[0]
    others = [c for c in names if c != best]
    children = np.random.SeedSequence(seed).spawn(len(others))
    rows, method = [], ""
    for b, child in zip(others, children):
        with warnings.catch_warnings(record=True):  # kept in res.note, said in the report
            warnings.simplefilter("always")
            res = difference_test(frame[reference], frame[best], frame[b], index=index,
                                  interval=confidence_level, seed=child, noise=noise)
        low, high = res.confidence_interval()
        method = res.method
        rows.append({"clustering": b, "agreement_b": res.agreement_b,
                     "statistic": res.statistic, "standard_error": res.standard_error,
                     "ci_low": low, "ci_high": high, "pvalue": res.pvalue,
                     "note": res.note or ""})
    out = pd.DataFrame(rows).set_index("clustering")
    out.insert(6, "pvalue_adjusted", multipletests(out["pvalue"].to_numpy(float),
                                                   method=multiple)[1])
    out = out.loc[out["statistic"].abs().sort_values(kind="stable").index]
    out.attrs.update(best=best, agreement_best=float(agreements[best]), method=method,
                     multiple=multiple, confidence_level=confidence_level)
    return out


def difference_table(diffs: pd.DataFrame, index: str) -> pd.DataFrame:
    """``best_against_others`` as the report shows it: one row per other clustering.

    Parameters
    ----------
    diffs : DataFrame
        From ``best_against_others``.
    index : str
        The index's name (the headers say it).

    Returns
    -------
    DataFrame
        The other clustering's agreement, the difference with its interval and standard
        error, the p-value and the adjusted p-value (text: never 0), and a mark "*" where an
        agreement sits near independence.
    """
    best, level = diffs.attrs["best"], diffs.attrs["confidence_level"]
    interval = [f"[{significant(lo)}, {significant(hi)}]"
                for lo, hi in zip(diffs["ci_low"], diffs["ci_high"])]
    return pd.DataFrame({
        f"{index} of b": diffs["agreement_b"],
        f"difference ({best} - b)": diffs["statistic"],
        f"{100 * level:g}% interval": interval,
        "standard error": diffs["standard_error"],
        "p-value": [_p(p) for p in diffs["pvalue"]],
        f"p-value ({diffs.attrs['multiple']}-adjusted)": [_p(p) for p in diffs["pvalue_adjusted"]],
        "near independence": ["*" if n else "" for n in diffs["note"]],
    }, index=pd.Index(diffs.index, name="b"))


def near_identical(frame: pd.DataFrame, names, share: float, noise=None) -> pd.DataFrame:
    """The pairs of clusterings that put at least ``share`` of the objects the same way.

    "The same way" is the best one-to-one matching of the two clusterings' clusters (the
    ``accuracy`` index: the share of objects on the matched cells of their table), so the
    labels' names do not matter and neither does the report's index.

    Parameters
    ----------
    frame : DataFrame
        The clusterings' columns (and others, unused).
    names : list of str
        The clusterings.
    share : float
        The least share of objects matched.
    noise : Noise, optional
        The noise policy the shares follow (``agreement_matrix``'s ``noise=``); the noise
        label is then not counted as a cluster in ``same_k``.

    Returns
    -------
    DataFrame
        Columns ``x``, ``y``, ``share`` (matched objects / n), ``same_k`` (the same number of
        clusters), largest share first.

    Examples
    --------
    >>> runs = pd.DataFrame({"a": [1, 1, 2, 2], "b": [5, 5, 7, 7], "c": [1, 2, 1, 2]})
    >>> near_identical(runs, ["a", "b", "c"], 0.9)[["x", "y", "share"]].to_dict("records")
    [{'x': 'a', 'y': 'b', 'share': 1.0}]
    """
    from ..inference.matrix import agreement_matrix

    shares = agreement_matrix(frame[list(names)], index="accuracy", noise=noise).to_frame()
    keep = shares[shares["statistic"].astype(float) >= share - 1e-12]
    noise_label = [] if noise is None else [noise.label]
    sizes = {c: frame[c][~frame[c].isin(noise_label)].nunique() for c in names}
    out = pd.DataFrame({"x": keep["x"].to_numpy(), "y": keep["y"].to_numpy(),
                        "share": keep["statistic"].astype(float).to_numpy()})
    out["same_k"] = [sizes[x] == sizes[y] for x, y in zip(out["x"], out["y"])]
    return out.sort_values("share", ascending=False, kind="stable").reset_index(drop=True)


#: More clusterings than this, and the heatmap's cells are annotated to 2 decimals in
#: ``PAPER_FONT``-point type (``heatmap_precision``): a printed page's text is 12 cells wide.
MANY_CLUSTERINGS = 9


def heatmap_precision(k: int) -> str:
    """How ``plot_heatmap`` writes the values of ``k`` clusterings, for the figure's caption.

    Parameters
    ----------
    k : int
        The number of clusterings.

    Returns
    -------
    str
        "to 3 significant digits", or "to 2 decimals" beyond ``MANY_CLUSTERINGS``.

    See Also
    --------
    plot_heatmap : Writes the values so.

    Examples
    --------
    >>> heatmap_precision(4), heatmap_precision(12)
    ('to 3 significant digits', 'to 2 decimals')
    """
    return "to 2 decimals" if k > MANY_CLUSTERINGS else "to 3 significant digits"


def two_decimals(value: float) -> str:
    """A value to 2 decimals, a negative value that rounds to zero written "0.00" (not
    "-0.00", which reads as a sign that is not there).

    Parameters
    ----------
    value : float
        The value.

    Returns
    -------
    str
        E.g. "0.00" for -0.004, "-0.01" for -0.006.

    Examples
    --------
    >>> two_decimals(-0.004), two_decimals(-0.006), two_decimals(0.5)
    ('0.00', '-0.01', '0.50')
    """
    text = f"{value:.2f}"
    return "0.00" if text == "-0.00" else text


def plot_heatmap(m):
    """``m.plot()`` (the heatmap, values annotated) on a figure sized for the number of
    clusterings and at most as wide as a printed page's text (``PAPER_WIDTH``), the
    annotations in a type small enough not to overlap and not below ``PAPER_FONT`` points
    (``heatmap_precision``: to 2 decimals beyond ``MANY_CLUSTERINGS``).

    Parameters
    ----------
    m : AgreementMatrix
        The matrix.

    Returns
    -------
    matplotlib Axes
    """
    import matplotlib.pyplot as plt

    k = len(m.names)
    width = max(5.0, 0.8 * k + 2.5)  # at most a printed page's text wide, the same shape
    height = max(4.0, 0.68 * k + 1.8) * min(1.0, PAPER_WIDTH / width)
    _, ax = plt.subplots(figsize=(min(width, PAPER_WIDTH), height))
    m.plot(ax=ax)
    many = k > MANY_CLUSTERINGS
    values = m.statistic.to_numpy(dtype=float).ravel()  # seaborn annotates row by row
    for text, value in zip(ax.texts, values):
        text.set_fontsize(PAPER_FONT if many else 9)
        if many:  # "-0.00477" is wider than a cell of a page-wide 12 x 12 heatmap
            text.set_text(two_decimals(value))
    ax.tick_params(axis="y", labelrotation=0)
    ax.set_xticks(ax.get_xticks(), [str(n) for n in m.names], rotation=40, ha="right",
                  rotation_mode="anchor")
    return ax


def plot_map(m, title: str | None = None):
    """``m.plot("mds")`` (classical MDS of the clusterings), with the names of clusterings
    that nearly coincide on the map merged into one label beside them.

    Parameters
    ----------
    m : AgreementMatrix
        The matrix.
    title : str, optional
        The title (default ``m.plot``'s).

    Returns
    -------
    matplotlib Axes
    """
    import matplotlib.pyplot as plt
    from scipy.cluster.hierarchy import fcluster, linkage

    _, ax = plt.subplots(figsize=(PAPER_WIDTH, 5.3))
    m.plot("mds", ax=ax)
    for text in list(ax.texts):
        text.remove()
    coords = m.embedding(2)
    xy = coords[["dim1", "dim2"]].to_numpy()
    span = max(float(np.ptp(xy[:, 0])), float(np.ptp(xy[:, 1])), 1e-12)
    groups = (fcluster(linkage(xy, "single"), t=0.05 * span, criterion="distance")
              if len(xy) > 1 else np.ones(1, dtype=int))
    for g in np.unique(groups):
        members = np.flatnonzero(groups == g)
        members = members[np.argsort(-xy[members, 1], kind="stable")]
        right = members[np.argmax(xy[members, 0])]
        ax.annotate("\n".join(str(coords.index[i]) for i in members),
                    (xy[right, 0], xy[members, 1].mean()), xytext=(7, 0),
                    textcoords="offset points", va="center", fontsize="small")
    ax.margins(x=0.3, y=0.15)
    if title:
        ax.set_title(fit_title(title, 9.5), fontsize=9.5)
    return ax


def _whiskers(ax, labels, values, lows, highs, filled, xlabel):
    """Horizontal dot-and-whisker rows, the first label at the top."""
    y = np.arange(len(labels))[::-1]
    values, lows, highs = (np.asarray(v, dtype=float) for v in (values, lows, highs))
    ax.hlines(y, lows, highs, color="C0", linewidth=2)
    for yi, v, f in zip(y, values, filled):
        ax.plot(v, yi, "o", color="C0", markerfacecolor="C0" if f else "white", zorder=3)
    ax.set_yticks(y, labels)
    ax.set_xlabel(xlabel)
    ax.grid(axis="y", visible=False)


def plot_agreements(m, title: str | None = None):
    """Each clustering's agreement with the reference, with its interval, best at the top;
    a grey bar marks the null mean (what chance gives), a filled dot an adjusted p-value
    below ``LEVEL``.

    Parameters
    ----------
    m : AgreementMatrix
        With ``reference=`` and ``test=True``.
    title : str, optional
        The figure's title.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    ref = m.reference.loc[_order(m.reference["statistic"].astype(float), m.kind)]
    fig, ax = plt.subplots(figsize=(PAPER_WIDTH, 0.9 + 0.32 * len(ref)))
    low = ref["ci_low"].astype(float).fillna(ref["statistic"].astype(float))
    high = ref["ci_high"].astype(float).fillna(ref["statistic"].astype(float))
    adjusted = ref["pvalue_adjusted"].to_numpy(dtype=float, na_value=np.nan)
    _whiskers(ax, list(ref.index), ref["statistic"], low, high, adjusted < LEVEL,
              f"{m.index} with the reference")
    y = np.arange(len(ref))[::-1]
    ax.plot(ref["null_mean"].to_numpy(dtype=float, na_value=np.nan), y, "|", color="0.45",
            markersize=12, label="null mean (chance)")
    return _finish(fig, ax, title)


def _finish(fig, ax, title):
    """The legend of the filled and open dots, the title, a tight layout."""
    ax.plot([], [], "o", color="C0", label=f"adjusted p < {LEVEL:g}")
    ax.plot([], [], "o", color="C0", markerfacecolor="white", label=f"adjusted p >= {LEVEL:g}")
    ax.legend(loc="best", fontsize="small", frameon=True)
    if title:
        ax.set_title(fit_title(title, 9.5), fontsize=9.5)
    fig.tight_layout()
    return fig


def plot_differences(diffs: pd.DataFrame, index: str, title: str | None = None):
    """The best clustering minus each other one, with intervals; a filled dot where the
    adjusted p-value is below ``LEVEL``, a line at 0 (no difference).

    Parameters
    ----------
    diffs : DataFrame
        From ``best_against_others``.
    index : str
        The index's name (the axis says it).
    title : str, optional
        The figure's title.

    Returns
    -------
    matplotlib Figure
    """
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(PAPER_WIDTH, 0.9 + 0.32 * len(diffs)))
    ax.axvline(0, color="0.45", linewidth=1)
    _whiskers(ax, list(diffs.index), diffs["statistic"], diffs["ci_low"], diffs["ci_high"],
              diffs["pvalue_adjusted"].to_numpy(float) < LEVEL,
              f"{index}({diffs.attrs['best']}) - {index}(b), with the reference")
    return _finish(fig, ax, title)


def _adjustment(multiple: str) -> str:
    """The adjustment's name in a sentence: "Holm's adjustment", "fdr_bh adjustment"."""
    return {"holm": "Holm's adjustment", "bonferroni": "Bonferroni's adjustment"}.get(
        multiple, f"the {multiple} adjustment")


def _pairs_sentence(pairs: pd.DataFrame, share: float) -> str:
    if pairs.empty:
        return (f"No two clusterings put {share:.0%} or more of the objects the same way "
                "(after matching their clusters): each is distinct from the others.")
    shown = [f"{x} and {y} ({s:.1%}{'' if same else ', different numbers of clusters'})"
             for x, y, s, same in zip(pairs["x"], pairs["y"], pairs["share"],
                                      pairs["same_k"])]
    many = len(shown) > 1
    return (f"{'These pairs' if many else 'One pair'} of clusterings put"
            f"{'' if many else 's'} {share:.0%} or more "
            f"of the objects the same way (after matching their clusters), so "
            f"{'each pair is' if many else 'it is'} near-identical: " + "; ".join(shown) + ".")


def reading(m, diffs: pd.DataFrame, pairs: pd.DataFrame, share: float) -> str:
    """The clusterings report's verdict, as Markdown bullets computed from its numbers.

    Which clustering agrees best with the reference (its value and interval); whether that
    agreement is beyond chance; whether it is distinguishable from the runner-up (the next
    best agreement) at ``LEVEL`` after adjustment, and from how many of the others; which
    clusterings are near-identical; and which agreements sit near independence.

    Parameters
    ----------
    m : AgreementMatrix
        With ``reference=`` and ``test=True``.
    diffs : DataFrame
        From ``best_against_others``.
    pairs : DataFrame
        From ``near_identical``.
    share : float
        The share ``pairs`` was made with.

    Returns
    -------
    str
        Markdown.
    """
    ref = m.reference
    ref_name = ref.attrs.get("reference", "the reference")
    order = _order(ref["statistic"].astype(float), m.kind)
    best, runner = order[0], order[1]
    row = ref.loc[best]
    adjusted = float(row["pvalue_adjusted"]) if not pd.isna(row["pvalue_adjusted"]) else np.nan
    interval = interval_text(ref.loc[[best]]).iloc[0]
    level = float(row["ci_level"]) if not pd.isna(row["ci_level"]) else None
    chance = ("beyond what chance gives" if adjusted < LEVEL
              else "not distinguishable from chance")
    lines = [f"**{best}** agrees best with {ref_name}: {m.index} = {significant(row['statistic'])}"
             + (f" ({100 * level:g}% interval {interval})" if level else "")
             + f", {chance} (p {_adjusted_text(ref.loc[[best]], [adjusted])[0]} after "
             f"{_adjustment(m.multiple)}; {better(m.kind)} is better)."]
    d = diffs.loc[runner]
    words = ("distinguishable from" if d["pvalue_adjusted"] < LEVEL
             else "not distinguishable from")
    lines.append(
        f"The runner-up is **{runner}** ({m.index} = {significant(ref.loc[runner, 'statistic'])})."
        f" {best} is {words} it at the {LEVEL:.0%} level after "
        f"{_adjustment(diffs.attrs['multiple'])}: difference {significant(d['statistic'])}, "
        f"{100 * diffs.attrs['confidence_level']:g}% interval "
        f"[{significant(d['ci_low'])}, {significant(d['ci_high'])}], adjusted p "
        f"{_p(d['pvalue_adjusted'])}.")
    clear = diffs[diffs["pvalue_adjusted"] < LEVEL]
    tied = [c for c in diffs.index if c not in clear.index]
    text = (f"Of the {len(diffs)} other clusterings, {best} agrees with {ref_name} better "
            f"than {len(clear)} by more than sampling noise (adjusted p < {LEVEL:g})")
    lines.append(text + (f"; it is not distinguishable from {', '.join(tied)}." if tied
                         else "."))
    lines.append(_pairs_sentence(pairs, share))
    beyond = (ref["pvalue_adjusted"].to_numpy(dtype=float, na_value=np.nan) < LEVEL)
    if (~beyond).any():
        lines.append(f"{', '.join(ref.index[~beyond])} "
                     f"{'do' if (~beyond).sum() > 1 else 'does'} not agree with {ref_name} "
                     f"beyond chance (adjusted p >= {LEVEL:g}).")
    near = [c for c, note in diffs["note"].items() if note]
    if near:
        lines.append(f"The paired tests of {best} against {', '.join(near)} are marked: "
                     "where an agreement sits near independence from the reference, the "
                     "jackknife may not hold its level (its p-value and interval are rough).")
    return "\n".join(f"* {line}" for line in lines)
