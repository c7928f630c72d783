"""Shapes of the null laws of the paired indices across the thesis' design.

{ref:amorim2015}, Ch.4 (Figures 2-3, Appendix C Tables 16-18), studied the laws of the eight
indices of paired agreement under the null of agreement by chance (17,000 Patefield tables with the
observed margins) for K = 2, 3, 4 clusters and balanced or unbalanced cluster weights: balanced
scenarios give right-skewed laws, unbalanced ones nearly symmetric and more dispersed laws.
With a skewed null law the two usual chance adjustments disagree:

    adjusted by the mean:    (I - mean) / (max - mean)
    adjusted by the median:  (I - median) / (max - median)

(max = 1 for these similarities). This module recomputes the laws, under the permutation model
(both margins fixed), with margins drawn as the design produces them
(``clusteragree.studies.simulate.random_margins``), and summarises each law:

* mean, median (numpy's default quantile, R type 7), sd (ddof = 1), min, max, range;
* skewness: the adjusted Fisher-Pearson coefficient G1 = m3 / m2^(3/2) * sqrt(B (B - 1)) / (B - 2)
  with m_r = sum (x - mean)^r / B (``scipy.stats.skew(bias=False)``, as
  ``NullDistribution.skewness``; 0 for a point mass);
* the disagreement of the two adjustments at a reference observed value, the law's q-quantile
  t = Q(q) (default q = 0.99: an agreement just significant at the 1 % level):
  gap = (t - median) / (1 - median) - (t - mean) / (1 - mean) and their ratio.

Seeds: each design cell (K, balance, n, rep) gets its own ``numpy.random.SeedSequence(seed,
spawn_key=(K, balance number, n, rep))`` (``grid.run_grid``'s "keyed" seeding), split in two
streams (margins, tables); a cell's laws are therefore the same whichever other cells are asked
for.

>>> shapes = null_shapes(ks=(2,), n_values=(200,), reps=1, n_sim=500, seed=1)
>>> shapes.shape, sorted(shapes.balance.unique())
((16, 21), ['balanced', 'unbalanced'])
>>> bool((shapes["max"] >= shapes["median"]).all())
True
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from .._docs import fill, fill_doc
from .._validate import check_bool, check_choice, check_positive_int, check_real
from ..indices import get_index, resolve_indices
from ..nulls import get_model, null_distributions
from .grid import keyed_seed, run_grid
from .simulate import BALANCE, THESIS_N, THESIS_WEIGHTS, random_margins
from ..tables import margin_table

__doc__ = fill(__doc__)

__all__ = [
    "ABBREVIATIONS",
    "SHAPE_COLUMNS",
    "cell_laws",
    "exact_shapes",
    "example_laws",
    "law_shapes",
    "margin_table",
    "null_label",
    "null_shapes",
    "summary_table",
    "thesis_null_table",
]

#: The thesis' abbreviations of the eight paired indices (Ch.4 Table 3).
ABBREVIATIONS = {"rand": "Rand", "gower_legendre": "GL", "jaccard": "J", "czekanowski": "Cz",
                 "goodman_kruskal": "GK", "sokal_sneath": "SoS", "sokal_sneath2": "SS2",
                 "fowlkes_mallows": "FM"}

#: The summary of one law (``law_shapes``), in this order.
SHAPE_COLUMNS = ("mean", "median", "sd", "skewness", "min", "max", "range", "mean_minus_median",
                 "reference_value", "adjusted_mean", "adjusted_median", "adjustment_gap",
                 "adjustment_ratio")

#: The thesis' labels of the statistics of Tables 16-18.
_TABLE_LABELS = {"min": "Min", "max": "Max", "skewness": "Skew", "sd": "Sd"}


def null_label(n_sim: int) -> str:
    """The null model and method in words, for captions and titles.

    Parameters
    ----------
    n_sim : int
        The number of Patefield tables.

    Returns
    -------
    str
        The model's title and the method with its size.

    See Also
    --------
    null_shapes : Its ``.attrs["null"]``.

    Examples
    --------
    >>> null_label(17000)
    'both margins fixed (permutation model); 17,000 Patefield tables'
    """
    n_sim = check_positive_int(n_sim, "n_sim")
    return f"{get_model('perm').title}; {n_sim:,} Patefield tables"


@fill_doc
def law_shapes(samples, reference: float = 0.99, optimum=1.0) -> pd.DataFrame:
    """The shape of each of several laws given by samples, vectorised.

    Parameters
    ----------
    samples : array-like of float, shape (laws, draws) or (draws,)
        The draws of each law (at least 3 per law), finite.
    reference : float, default 0.99
        The quantile level, in (0, 1), of the reference observed value Q at which the two
        adjustments are compared (0.99: an agreement just significant at the 1 % level).
    optimum : float or array-like of float, default 1.0
        The maximum of each index (one value, or one per law).

    Returns
    -------
    DataFrame
        One row per law, columns ``SHAPE_COLUMNS``: mean, median (numpy's default quantile,
        R type 7), sd (ddof = 1), skewness (the adjusted Fisher-Pearson coefficient G1, as
        ``scipy.stats.skew(bias=False)``; 0 for a point mass), min, max, range,
        mean_minus_median, reference_value = Q(reference), adjusted_mean = (Q - mean) /
        (optimum - mean), adjusted_median = (Q - median) / (optimum - median),
        adjustment_gap = adjusted_median - adjusted_mean and adjustment_ratio =
        adjusted_median / adjusted_mean (NaN when adjusted_mean is 0, i.e. a point mass).
        When a centre equals the optimum the adjusted value is 1 if Q is the optimum too,
        else 0 (the package's rule).

    See Also
    --------
    null_shapes : The laws of the thesis' design, summarised by it.
    clusteragree.nulls.NullDistribution.skewness : The same G1 of one law.

    References
    ----------
    {ref:amorim2015}, Ch.4 and App. C.

    Examples
    --------
    >>> s = law_shapes([[0.1, 0.1, 0.1, 0.2, 0.5]], reference=0.99)
    >>> round(float(s.loc[0, "skewness"]), 4), round(float(s.loc[0, "adjustment_gap"]), 4)
    (1.9245, 0.0711)
    """
    x = np.asarray(samples, dtype=float)
    if x.ndim == 1:
        x = x[None, :]
    if x.ndim != 2 or x.shape[1] < 3:
        raise ValueError(f"samples must be laws x draws with at least 3 draws, got shape "
                         f"{x.shape}")
    if not np.isfinite(x).all():
        raise ValueError("samples must be finite")
    reference = check_real(reference, "reference", "a quantile level in (0, 1)")
    if not 0 < reference < 1:
        raise ValueError(f"reference must be a quantile level in (0, 1), got {reference}")
    opt = np.broadcast_to(np.asarray(optimum, dtype=float), (x.shape[0],))
    if not np.isfinite(opt).all():
        raise ValueError("optimum must be finite (the index's maximum)")
    B = x.shape[1]
    lo, hi = x.min(axis=1), x.max(axis=1)
    mean = np.clip(x.mean(axis=1), lo, hi)  # a point mass has its value as mean
    dev = x - mean[:, None]
    sq = dev * dev
    m2 = sq.sum(axis=1) / B
    m3 = (sq * dev).sum(axis=1) / B
    flat = m2 <= 0
    safe_m2 = np.where(flat, 1.0, m2)
    skew = np.where(flat, 0.0, m3 / safe_m2**1.5 * np.sqrt(B * (B - 1.0)) / (B - 2.0))
    sd = np.where(flat, 0.0, np.sqrt(sq.sum(axis=1) / (B - 1)))
    median = np.median(x, axis=1)
    q = np.quantile(x, reference, axis=1)

    def adjusted(centre):
        span = opt - centre
        ok = span != 0
        return np.where(ok, (q - centre) / np.where(ok, span, 1.0), np.where(q == opt, 1.0, 0.0))

    adj_mean, adj_median = adjusted(mean), adjusted(median)
    nonzero = adj_mean != 0
    ratio = np.where(nonzero, adj_median / np.where(nonzero, adj_mean, 1.0), np.nan)
    return pd.DataFrame({
        "mean": mean, "median": median, "sd": sd, "skewness": skew, "min": lo, "max": hi,
        "range": hi - lo, "mean_minus_median": mean - median, "reference_value": q,
        "adjusted_mean": adj_mean, "adjusted_median": adj_median,
        "adjustment_gap": adj_median - adj_mean, "adjustment_ratio": ratio},
        columns=list(SHAPE_COLUMNS))


# -- arguments ------------------------------------------------------------------------------------

def _check_indices(indices) -> list[str]:
    names, _ = resolve_indices(indices)
    for name in names:
        rec = get_index(name)
        if (rec.on_pairs or rec.kind != "similarity"
                or not np.isfinite(rec.optimum)):
            raise ValueError(
                f"index {name!r} is not a similarity of a contingency table with a fixed maximum; "
                "null_shapes studies such indices (e.g. the group 'paired')")
    return names


def _check_seed(seed) -> int:
    """A non-negative int, or None for fresh entropy (drawn once per call)."""
    if seed is None:
        return int(np.random.SeedSequence().entropy)
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be None or a non-negative int, got {seed!r}")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative int, got {seed}")
    return int(seed)


def _check_ks(ks, name: str = "ks") -> list[int]:
    if isinstance(ks, numbers.Integral):
        ks = [ks]
    ks = list(ks)
    if not ks:
        raise ValueError(f"{name} is empty: name at least one number of clusters")
    for k in ks:
        if isinstance(k, (bool, np.bool_)) or k not in THESIS_WEIGHTS:
            what = "must hold numbers of clusters" if name == "ks" else "must be a number of clusters"
            raise ValueError(f"{name} {what} among {sorted(THESIS_WEIGHTS)} (the thesis' "
                             f"design), got {k!r}")
    return [int(k) for k in ks]


def _check_balances(balances) -> list[str]:
    if isinstance(balances, str):
        balances = [balances]
    balances = list(balances)
    if not balances:
        raise ValueError(f"balances is empty: name at least one of {list(BALANCE)}")
    return [check_choice(b, "balances", BALANCE) for b in balances]


def _check_n_values(n_values, ks) -> list[int]:
    if isinstance(n_values, numbers.Integral):
        n_values = [n_values]
    n_values = list(n_values)
    if not n_values:
        raise ValueError("n_values is empty: name at least one number of objects")
    return [check_positive_int(n, "n_values", minimum=max(ks)) for n in n_values]


def _key(levels) -> tuple[int, int, int]:
    """A design cell's seed key, before its rep (``grid``'s "keyed" seeding): K, the balance's
    number, n."""
    return levels["k"], BALANCE.index(levels["balance"]), levels["n"]


def _cell(k, balance, n, ss, names, n_sim):
    """The margins and laws of one design cell from its SeedSequence ``ss``, split in two
    streams: margins and tables."""
    margins_rng, tables_rng = (np.random.default_rng(s) for s in ss.spawn(2))
    rows, cols = random_margins(k, balance, n, seed=margins_rng)
    laws = null_distributions(margin_table(rows, cols), names, method="patefield",
                              n_sim=n_sim, seed=tables_rng)
    return rows, cols, {name: laws[name] for name in names}


# -- public functions ------------------------------------------------------------------------------

def cell_laws(k: int, balance: str, n: int | None = None, rep: int = 0, *, indices="paired",
              n_sim: int = 17_000, seed: int | None = 1):
    """The null laws of one design cell: the laws ``null_shapes`` summarises for that cell.

    Parameters
    ----------
    k : {2, 3, 4}
        The number of clusters.
    balance : {"balanced", "unbalanced"}
        The scenario's cluster weights.
    n : int, optional
        The number of objects (default the thesis' n for this K).
    rep : int, default 0
        The margin draw (0, 1, ...).
    indices : str or sequence of str, default "paired"
        Similarities of a contingency table with a fixed maximum: names, aliases or groups
        (default the thesis' eight paired indices).
    n_sim : int, default 17,000
        Patefield tables per cell (at least 10; the thesis: 17,000), the same tables for
        every index.
    seed : int or None, default 1
        The root of every cell's streams (a non-negative int); None draws fresh entropy once.

    Returns
    -------
    rows, cols : ndarray of int64
        The margins drawn for (k, balance, n, rep).
    laws : dict
        Index name -> ``NullDistribution`` (Patefield tables, the same for every index).

    See Also
    --------
    null_shapes : Every cell, summarised.
    clusteragree.studies.simulate.random_margins : The margins.

    Examples
    --------
    >>> rows, cols, laws = cell_laws(3, "unbalanced", 300, n_sim=200, seed=1)
    >>> int(rows.sum()), laws["rand"].n_sim, laws["jaccard"].method
    (300, 200, 'patefield')
    """
    k = _check_ks([k], "k")[0]
    balance = check_choice(balance, "balance", BALANCE)
    n = THESIS_N[k] if n is None else _check_n_values([n], [k])[0]
    rep = check_positive_int(rep, "rep", minimum=0)
    names = _check_indices(indices)
    n_sim = check_positive_int(n_sim, "n_sim", minimum=10)
    ss = keyed_seed(_check_seed(seed), _key({"k": k, "balance": balance, "n": n}) + (rep,))
    return _cell(k, balance, n, ss, names, n_sim)


@fill_doc
def null_shapes(ks=(2, 3, 4), balances=BALANCE, n_values=(500, 800, 1100), reps: int = 30,
                indices="paired", n_sim: int = 17_000, seed: int | None = 1,
                reference: float = 0.99, progress: bool = False) -> pd.DataFrame:
    """The shape of each index's null law across the thesis' design, as a tidy DataFrame.

    For every K in ``ks``, balance, n in ``n_values`` and ``reps`` margin draws
    (``random_margins``: the classes' and the clusters' sizes, two multinomial draws with the
    scenario's weights), the laws of ``indices`` under the permutation model from the same
    ``n_sim`` Patefield tables (Amorim 2015, "On clustering stability", Ch.4: 17,000), each
    summarised by ``law_shapes`` (``reference``: the quantile level of the reference observed
    value at which the mean and median adjustments are compared).

    Parameters
    ----------
    ks : int or sequence of int, default (2, 3, 4)
        Numbers of clusters of the design.
    balances : str or sequence of str, default ("balanced", "unbalanced")
        Cluster weights of the design.
    n_values : int or sequence of int, default (500, 800, 1100)
        Numbers of objects (each at least the largest K).
    reps : int, default 30
        Margin draws per (K, balance, n).
    indices : str or sequence of str, default "paired"
        Similarities of a contingency table with a fixed maximum: names, aliases or groups
        (default the thesis' eight paired indices).
    n_sim : int, default 17,000
        Patefield tables per cell (at least 10; the thesis: 17,000), the same tables for
        every index.
    seed : int or None, default 1
        The root of every cell's streams (a non-negative int); None draws fresh entropy once.
    reference : float, default 0.99
        As in ``law_shapes``.
    progress : bool, default False
        Show a progress bar over the cells.

    Returns
    -------
    DataFrame
        One row per cell and index: K, balance, n, rep, rows, cols (the margins, as text),
        index, n_sim, then ``SHAPE_COLUMNS``. ``.attrs["null"]`` names the null model and
        method.

    See Also
    --------
    law_shapes : The summary of one law.
    summary_table : The layout of the thesis' Tables 16-18.
    exact_shapes : The exact laws beside the Monte Carlo ones.

    References
    ----------
    {ref:amorim2015}, Ch.4 (Figures 2-3) and App. C Tables 16-18.

    {ref:patefield1981}(1), 91-97.

    Examples
    --------
    >>> s = null_shapes(ks=(3,), balances="balanced", n_values=(300,), reps=2, n_sim=300,
    ...                 indices=["rand", "jaccard"], seed=5)
    >>> s[["K", "n", "rep", "index"]].values.tolist()
    [[3, 300, 0, 'rand'], [3, 300, 0, 'jaccard'], [3, 300, 1, 'rand'], [3, 300, 1, 'jaccard']]
    """
    ks = _check_ks(ks)
    balances = _check_balances(balances)
    n_values = _check_n_values(n_values, ks)
    reps = check_positive_int(reps, "reps")
    names = _check_indices(indices)
    n_sim = check_positive_int(n_sim, "n_sim", minimum=10)
    seed = _check_seed(seed)
    reference = check_real(reference, "reference", "a quantile level in (0, 1)")
    if not 0 < reference < 1:
        raise ValueError(f"reference must be a quantile level in (0, 1), got {reference}")
    progress = check_bool(progress, "progress")
    optimum = np.array([get_index(name).optimum for name in names], dtype=float)

    def summarise(cell):
        k, balance, n = cell.levels["k"], cell.levels["balance"], cell.levels["n"]
        rows, cols, laws = _cell(k, balance, n, cell.seed, names, n_sim)
        shapes = law_shapes(np.vstack([laws[name].samples for name in names]), reference,
                            optimum)
        head = pd.DataFrame({"K": k, "balance": balance, "n": n, "rep": cell.rep,
                             "rows": "-".join(map(str, rows)), "cols": "-".join(map(str, cols)),
                             "index": names, "n_sim": n_sim})
        return pd.concat([head, shapes], axis=1)

    frames = run_grid(summarise, {"k": ks, "balance": balances, "n": n_values}, reps, seed,
                      seeding="keyed", key=_key, progress=progress)
    out = pd.concat(frames, ignore_index=True)
    out.attrs.update(null=null_label(n_sim), model="perm", method="patefield", n_sim=n_sim,
                     seed=seed, reference=reference)
    return out


def example_laws(k: int = 3, n: int | None = None, rep: int = 0, *, indices="paired",
                 n_sim: int = 17_000, seed: int | None = 1) -> pd.DataFrame:
    """The null samples of one balanced and one unbalanced scenario, for plotting.

    By default K = 3 with the thesis' n = 800, as the thesis' Figures 2-3. They are the laws
    of ``null_shapes``' cell (k, balance, n, rep) for the same seed.

    Parameters
    ----------
    k : {2, 3, 4}, default 3
        The number of clusters.
    n : int, optional
        The number of objects (default the thesis' n for this K).
    rep : int, default 0
        The margin draw.
    indices : str or sequence of str, default "paired"
        Similarities of a contingency table with a fixed maximum: names, aliases or groups
        (default the thesis' eight paired indices).
    n_sim : int, default 17,000
        Patefield tables per cell (at least 10; the thesis: 17,000), the same tables for
        every index.
    seed : int or None, default 1
        The root of every cell's streams (a non-negative int); None draws fresh entropy once.

    Returns
    -------
    DataFrame
        Long: columns balance, index, value (``n_sim`` values per balance and index);
        ``.attrs`` holds the margins of each scenario and the null's name.

    See Also
    --------
    cell_laws : The laws of one cell.

    Examples
    --------
    >>> laws = example_laws(2, 100, n_sim=50, indices=["rand"], seed=1)
    >>> laws.groupby("balance").size().tolist(), laws.attrs["margins"]["balanced"][0]
    ([50, 50], [43, 57])
    """
    out, margins = [], {}
    for balance in BALANCE:
        rows, cols, laws = cell_laws(k, balance, n, rep, indices=indices, n_sim=n_sim, seed=seed)
        margins[balance] = (rows.tolist(), cols.tolist())
        for name, nd in laws.items():
            out.append(pd.DataFrame({"balance": balance, "index": name, "value": nd.samples}))
    frame = pd.concat(out, ignore_index=True)
    frame.attrs.update(null=null_label(n_sim), margins=margins, k=k,
                       n=THESIS_N[k] if n is None else n)
    return frame


def exact_shapes(shapes: pd.DataFrame, k: int = 2) -> pd.DataFrame:
    """The exact null laws of the cells of ``shapes``, beside the Monte Carlo summaries.

    The margins of each cell with K = ``k`` are read back from its rows and cols columns and
    its exact law computed (``method="exact"``: the network-algorithm dynamic programme,
    cheap for 2 x 2 tables; larger K may be refused as too large).

    Parameters
    ----------
    shapes : DataFrame
        The result of ``null_shapes``.
    k : int, default 2
        The number of clusters whose cells are computed.

    Returns
    -------
    DataFrame
        Columns K, balance, n, rep, index, then exact_mean, exact_median, exact_sd and
        exact_skewness from the exact law, and the Monte Carlo mean, median, sd and
        skewness.

    See Also
    --------
    null_shapes : The Monte Carlo summaries.
    clusteragree.nulls.statistic_law : The exact law.

    Examples
    --------
    >>> s = null_shapes(ks=(2,), balances="balanced", n_values=(60,), reps=1, n_sim=2000,
    ...                 indices=["rand"], seed=1)
    >>> e = exact_shapes(s)
    >>> round(float(e.exact_skewness.iloc[0]), 3), round(float(e.skewness.iloc[0]), 2)
    (2.761, 2.65)
    """
    if not isinstance(shapes, pd.DataFrame):
        raise TypeError(f"shapes must be the DataFrame of null_shapes, got {type(shapes).__name__}")
    need = ["K", "balance", "n", "rep", "rows", "cols", "index", "mean", "median", "sd",
            "skewness"]
    missing = [c for c in need if c not in shapes.columns]
    if missing:
        raise ValueError(f"shapes lacks the columns {missing}: pass the DataFrame of null_shapes")
    sub = shapes[shapes["K"] == k]
    if sub.empty:
        raise ValueError(f"k={k!r} is not in shapes (K = {sorted(set(shapes['K']))})")
    out = []
    for (rows, cols), cell in sub.groupby(["rows", "cols"], sort=False):
        names = list(cell["index"])
        laws = null_distributions(
            margin_table(np.array(rows.split("-"), dtype=np.int64),
                         np.array(cols.split("-"), dtype=np.int64)), names, method="exact")
        exact = pd.DataFrame({"exact_mean": [laws[i].mean for i in names],
                              "exact_median": [laws[i].median for i in names],
                              "exact_sd": [laws[i].std for i in names],
                              "exact_skewness": [laws[i].skewness for i in names]},
                             index=cell.index)
        out.append(pd.concat([cell[["K", "balance", "n", "rep", "index"]], exact,
                              cell[["mean", "median", "sd", "skewness"]]], axis=1))
    return pd.concat(out).sort_index()


def summary_table(shapes: pd.DataFrame, k: int | None = None,
                  stats=("min", "max", "skewness", "sd")) -> pd.DataFrame:
    """The layout of the thesis' Tables 16-18 (Amorim 2015, App. C).

    Each statistic is averaged over the margin draws (reps); the thesis' labels Min, Max,
    Skew, Sd name the default statistics.

    Parameters
    ----------
    shapes : DataFrame
        The result of ``null_shapes``.
    k : int, optional
        One K: columns (n, statistic); default every K: columns (K, statistic), averaged
        over n too.
    stats : str or sequence of str, default ("min", "max", "skewness", "sd")
        Columns of ``SHAPE_COLUMNS``.

    Returns
    -------
    DataFrame
        Rows balance x index.

    See Also
    --------
    thesis_null_table : The thesis' published tables.

    Examples
    --------
    >>> s = null_shapes(ks=(2,), n_values=(100, 200), reps=2, n_sim=100, indices=["rand"])
    >>> summary_table(s, k=2).shape
    (2, 8)
    """
    if not isinstance(shapes, pd.DataFrame):
        raise TypeError(f"shapes must be the DataFrame of null_shapes, got {type(shapes).__name__}")
    if isinstance(stats, str):
        stats = [stats]
    stats = list(stats)
    missing = [c for c in ["K", "balance", "n", "index", *stats] if c not in shapes.columns]
    if missing:
        raise ValueError(f"shapes lacks the columns {missing}: pass the DataFrame of null_shapes "
                         f"(statistics: {list(SHAPE_COLUMNS)})")
    if k is not None:
        if k not in set(shapes["K"]):
            raise ValueError(f"k={k!r} is not in shapes (K = {sorted(set(shapes['K']))})")
        shapes, key = shapes[shapes["K"] == k], "n"
    else:
        key = "K"
    order = list(dict.fromkeys(shapes["index"]))
    table = (shapes.groupby(["balance", "index", key], sort=False)[stats].mean()
             .unstack(key).swaplevel(0, 1, axis=1))
    cols = [(v, s) for v in sorted(set(shapes[key])) for s in stats]
    table = table.reindex(columns=pd.MultiIndex.from_tuples(cols))
    rows = [(b, i) for b in BALANCE for i in order if (b, i) in table.index]
    table = table.reindex(index=pd.MultiIndex.from_tuples(rows, names=["balance", "index"]))
    table.columns = pd.MultiIndex.from_tuples(
        [(f"{key} = {v}", _TABLE_LABELS.get(s, s)) for v, s in cols], names=[key, "statistic"])
    return table


# -- the thesis' published tables ----------------------------------------------------------------

#: Amorim (2015), App. C Tables 16-18 ("The indices under H0: descriptive statistics", EM
#: solutions, 17,000 Patefield tables each, averaged over 30 data sets): K, balance, index, then
#: Min, Max, Skew, Sd for poor, moderate and good separation, as printed.
_SEPARATIONS = ("poor", "moderate", "good")


@fill_doc
def thesis_null_table(k: int) -> pd.DataFrame:
    """The thesis' published Table 16 (K = 2), 17 (K = 3) or 18 (K = 4), quoted as printed.

    Amorim (2015), App. C: the indices under H0, EM solutions with n = 500, 800, 1100
    objects, 17,000 Patefield tables each, averaged over 30 data sets
    (the package's ``data/thesis_tables_16_18.csv``).

    Parameters
    ----------
    k : {2, 3, 4}
        The number of clusters.

    Returns
    -------
    DataFrame
        Rows balance x index (package names), columns (separation, statistic).

    See Also
    --------
    summary_table : The same layout, recomputed.

    References
    ----------
    {ref:amorim2015}, App. C Tables 16-18.

    Examples
    --------
    >>> float(thesis_null_table(3).loc[("balanced", "rand"), ("separation: good", "Skew")])
    3.192
    """
    k = _check_ks([k], "k")[0]
    from ..datasets import data_dir

    published = pd.read_csv(data_dir() / "thesis_tables_16_18.csv")
    names = {v: i for i, v in ABBREVIATIONS.items()}
    records = [((row.balance, names[row.index]), list(row[3:]))
               for row in published[published["k"] == k].itertuples(index=False)]
    index = pd.MultiIndex.from_tuples([r[0] for r in records], names=["balance", "index"])
    columns = pd.MultiIndex.from_tuples(
        [(f"separation: {s}", lab) for s in _SEPARATIONS for lab in _TABLE_LABELS.values()],
        names=["separation", "statistic"])
    return pd.DataFrame([r[1] for r in records], index=index, columns=columns)


