"""Many clusterings at once: one index over every pair of them, with tests and a map.

``agreement_matrix`` encodes each clustering's labels once, makes each pair's contingency table
from the codes (one ``bincount``) and evaluates the tables in batches through the registry;
``AgreementMatrix`` holds the square matrix, the tests of the pairs with their multiplicity
adjustment, and the map of the clusterings (classical MDS). Its plots are drawn by
``clusteragree.inference.matrix_plots``.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from .._display import format_pvalue, table
from .._docs import fill_doc
from .._validate import (check_bool, check_options, check_positive_int, check_seed,
                         suggest)
from ..indices import evaluate_checked, get_index
from ..inputs.many import as_many_clusterings
from ..intervals import interval_of
from ..intervals.spec import as_interval_spec, misplaced_interval_settings
from ..nulls import NullSpec
from .agreement_tests import agreement_test_of, default_alternative
from .difference import difference_of, pair_difference_of
from .results import FLOAT_COLUMNS, INT_COLUMNS, RESULT_COLUMNS, ResultsFrame

__all__ = ["MULTIPLE_METHODS", "AgreementMatrix", "agreement_matrix", "check_multiple",
           "adjusted_pvalues"]

#: The multiplicity adjustments of ``statsmodels.stats.multitest.multipletests`` by their full
#: names (its short aliases, e.g. "hs" or "fdr_i", are accepted too).
MULTIPLE_METHODS = ("holm", "bonferroni", "sidak", "holm-sidak", "simes-hochberg", "hommel",
                    "fdr_bh", "fdr_by", "fdr_tsbh", "fdr_tsbky", "fdr_gbs")

#: Cells of tables held at once before they are evaluated (int64: 8 bytes each, 32 MiB).
_BATCH_CELLS = 1 << 22
#: A progress bar (on a terminal only) from this many pairs.
_PROGRESS_PAIRS = 500


def _multiple_aliases() -> dict:
    from statsmodels.stats.multitest import multitest_alias

    return {k: v for k, v in multitest_alias.items() if v != "lfdr"}


def check_multiple(multiple):
    """``multiple``: None or a name ``multipletests`` takes (checked before any work)."""
    if multiple is None:
        return None
    aliases = _multiple_aliases()
    if not isinstance(multiple, str) or multiple not in aliases:
        hint = suggest(multiple, MULTIPLE_METHODS) if isinstance(multiple, str) else ""
        raise ValueError(f"multiple must be None (no adjustment) or a method of statsmodels' "
                         f"multipletests, one of {list(MULTIPLE_METHODS)}, got "
                         f"{multiple!r}.{hint}")
    return multiple


def _evaluator(rec, opts):
    """The index on a batch of same-shape tables: the registry's checked evaluation (the one
    ``ca.agreement`` uses), or a pair index's form on the table."""
    if not rec.on_pairs:
        return lambda batch: evaluate_checked(rec, batch, opts)
    return lambda batch: np.asarray(rec.of_hard_tables(batch, **opts), dtype=float)


def _matrix_values(rec, opts, many, progress: bool) -> np.ndarray:
    """The K x K matrix of the index: entry (i, j) the index of (clusterings[i], clusterings[j]).

    Each pair's table is made once (i < j), with its transpose for an asymmetric index, and
    the tables are evaluated by shape in batches of at most ``_BATCH_CELLS`` cells."""
    names, codes, sizes = many.names, many.codes, many.sizes
    k = len(codes)
    values = np.full((k, k), np.nan)
    evaluate = _evaluator(rec, opts)
    pending: dict = {}  # shape -> (list of (i, j), list of tables)
    held = 0

    def refused(where, tables, err):
        """The refusal of a batch, naming the first pair the index is not defined for."""
        for (i, j), table in zip(where, tables):
            try:
                evaluate(table)
            except ValueError as one:
                raise ValueError(f"clusterings[{names[i]!r}] (x) and clusterings[{names[j]!r}] "
                                 f"(y): {one}") from None
        raise err

    def flush():
        for (where, tables) in pending.values():
            try:
                out = evaluate(np.stack(tables))
            except ValueError as err:
                refused(where, tables, err)
            for (i, j), v in zip(where, np.atleast_1d(out)):
                values[i, j] = v
        pending.clear()

    def add(i, j, table):
        nonlocal held
        where, tables = pending.setdefault(table.shape, ([], []))
        where.append((i, j))
        tables.append(table)
        held += table.size
        if held >= _BATCH_CELLS:
            flush()
            held = 0

    for i in range(k):  # the diagonal: a clustering against itself
        add(i, i, np.diag(many.counted(codes[i], sizes[i])))
    buf = np.empty(len(codes[0]), dtype=np.int64)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    if progress and len(pairs) >= _PROGRESS_PAIRS:
        from tqdm.auto import tqdm

        pairs = tqdm(pairs, desc="pairs of clusterings", unit="pair", disable=None)
    for i, j in pairs:
        table = many.table(i, j, buf)
        add(i, j, table)
        if not rec.symmetric:
            add(j, i, np.ascontiguousarray(table.T))
    flush()
    if rec.symmetric:
        upper = np.triu_indices(k, 1)
        values[upper[1], upper[0]] = values[upper]
    return values


def _seeds(seed, count: int) -> list:
    """The seed rule: one child per test, spawned in order from the call's seed (a Generator
    spawns child Generators; anything else goes through ``numpy.random.SeedSequence``)."""
    if isinstance(seed, np.random.Generator):
        return seed.spawn(count)
    seq = seed if isinstance(seed, np.random.SeedSequence) else np.random.SeedSequence(seed)
    return seq.spawn(count)


def _na_row(statistic: float, kind: str, ci=None) -> dict:
    """A row of the schema with the value alone (and its interval): no test was made."""
    row = {c: pd.NA for c in RESULT_COLUMNS}
    row.update(statistic=statistic, kind=kind)
    if ci is not None:
        row.update(ci_low=ci.low, ci_high=ci.high, ci_closed=ci.closed, ci_method=ci.method,
                   ci_level=ci.confidence_level)
        if np.isnan(ci.low):
            row.update(ci_low=pd.NA, ci_high=pd.NA, ci_closed=pd.NA)
    return row


def _kept_attrs(frame: pd.DataFrame) -> ResultsFrame:
    """``frame`` as a ResultsFrame with its attrs (the p-values that are bounds)."""
    out = ResultsFrame(frame)
    out.attrs.update(frame.attrs)
    return out


def _rows_frame(rows: list, index: pd.Index, results=None) -> ResultsFrame:
    """Rows of the schema as a frame with its dtypes (Float64, Int64: NA stays NA); with the
    tests they came from (``results``), the p-values that are bounds (a Monte Carlo floor),
    so that a frame of some of its columns still prints "<0.001" (``pvalue_texts``)."""
    frame = ResultsFrame(rows, columns=list(RESULT_COLUMNS), index=index)
    types = {c: "Float64" for c in FLOAT_COLUMNS}
    types.update({c: "Int64" for c in INT_COLUMNS})
    frame = frame.astype(types)
    if results is not None:
        frame.attrs["pvalue_bound"] = {
            i: r.pvalue_detail.bound_reason for i, r in zip(index, results)
            if getattr(r, "pvalue_detail", None) is not None
            and r.pvalue_detail.bound_reason is not None}
    return frame


def adjusted_pvalues(pvalues: np.ndarray, multiple) -> np.ndarray:
    """``multipletests``' adjusted p-values of a family (NA where a p-value is NA)."""
    from statsmodels.stats.multitest import multipletests

    out = np.full(len(pvalues), np.nan)
    ok = ~np.isnan(pvalues)
    if multiple is not None and ok.any():
        out[ok] = multipletests(pvalues[ok], method=multiple)[1]
    elif multiple is None:
        out = pvalues.copy()
    return out


def _refuse_unused(**settings) -> None:
    """The settings of the pairs' tests given with ``test=False``, refused (they would be
    silently unused); ``method="auto"``, the default, passes."""
    given = [f"{k}={v!r}" for k, v in settings.items()
             if v is not None and not (k == "method" and v == "auto")]
    if given:
        raise ValueError(f"{', '.join(given)}: settings of the tests of the pairs, which "
                         "test=False does not make; pass test=True")


def _square_pvalues(frame, pairs, names, symmetric: bool):
    """The p-values of the pairs' tests and their adjusted values as two square frames (NA on
    the diagonal, and below it for an asymmetric index's untested pairs)."""
    k = len(names)
    pv, pa = np.full((k, k), np.nan), np.full((k, k), np.nan)
    p_vec = frame["pvalue"].to_numpy(dtype=float, na_value=np.nan)
    adjusted = frame["pvalue_adjusted"].to_numpy(dtype=float, na_value=np.nan)
    for p, (i, j) in enumerate(pairs):
        pv[i, j], pa[i, j] = p_vec[p], adjusted[p]
        if symmetric:
            pv[j, i], pa[j, i] = p_vec[p], adjusted[p]
    return _square(pv, names, "Float64"), _square(pa, names, "Float64")


def _reference_frame(rec, opts, many, test: bool, multiple, results) -> pd.DataFrame:
    """Each clustering against the reference in the result schema with ``pvalue_adjusted``:
    ``results`` the tests (``test=True``) or the intervals (or None) of the pairs."""
    rows = []
    for c, r in enumerate(results):
        if test:
            rows.append(r.row())
        else:
            value = float(_evaluator(rec, opts)(many.table(-1, c)))
            rows.append(_na_row(value, rec.kind, r))
    frame = _rows_frame(rows, pd.Index(list(many.names), name="clustering"),
                        results if test else None)
    p_vec = frame["pvalue"].to_numpy(dtype=float, na_value=np.nan)
    frame["pvalue_adjusted"] = pd.array(
        adjusted_pvalues(p_vec, multiple) if test else np.full(len(rows), np.nan),
        dtype="Float64")
    if many.noise is not None:  # the objects each comparison with the reference kept
        frame["n_compared"] = [many.coverage(-1, c).n_compared for c in range(len(rows))]
    # what a reader looks for first, then the rest of the schema: the p-values were pushed
    # off screen by the interval columns (NA without intervals)
    first = ["statistic", "pvalue", "pvalue_adjusted"]
    frame = frame[first + [c for c in frame.columns if c not in first]]
    frame.attrs["reference"] = many.reference
    return frame


def _reference_differences(rec, opts, many, level, multiple, seeds) -> pd.DataFrame:
    """The paired difference tests of every two clusterings' agreements with the reference
    (``difference_test``, its jackknife): one row per pair (a, b) with a before b in the
    clusterings' order, Delta = I(reference, a) - I(reference, b), and the p-values adjusted
    over the pairs by ``multiple``. A pair whose agreements sit near independence keeps the
    test's warning as its ``note``."""
    names = many.names
    frames, pairs = [], _pair_list(len(names), True)
    spec = as_interval_spec(level)
    for p, (i, j) in enumerate(pairs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            if rec.on_pairs:  # an index of object pairs reads the labels themselves
                inputs = [(c, c.pair(rec)) for c in (many.pair(-1, i, keep=True),
                                                     many.pair(-1, j, keep=True))]
                res = pair_difference_of(inputs, rec, opts, "two-sided", "jackknife",
                                         spec.confidence_level, check_seed(seeds[p]))
            else:  # the three clusterings as one record, to the test itself
                res = difference_of(many.three_way(i, j), rec, opts, "two-sided", "auto", spec,
                                    check_seed(seeds[p]))
        frames.append(res.to_frame())
    frame = ResultsFrame(pd.concat(frames, ignore_index=True))  # printed p-values to 3 digits
    frame.insert(0, "b", [names[j] for _, j in pairs])
    frame.insert(0, "a", [names[i] for i, _ in pairs])
    p_vec = frame["pvalue"].to_numpy(dtype=float, na_value=np.nan)
    frame["pvalue_adjusted"] = pd.array(adjusted_pvalues(p_vec, multiple), dtype="Float64")
    return frame


@dataclass(repr=False)
class AgreementMatrix:
    """Result of ``agreement_matrix``: one index over every pair of several clusterings.

    Parameters
    ----------
    statistic : DataFrame
        The square matrix labelled by the clusterings' names: entry (i, j) is the index of
        (clusterings[i], clusterings[j]) (clusterings[i] as x, the table's rows); the
        diagonal holds each clustering against itself.
    index : str
        The index's name.
    kind : str
        "similarity", "distance" (a dissimilarity, such as VI) or "statistic".
    pvalue : DataFrame or None
        The p-value of each pair's test (``test=True``); NA on the diagonal.
    pvalue_adjusted : DataFrame or None
        The p-values adjusted for multiplicity over the distinct tests.
    multiple : str or None
        The adjustment (a method of statsmodels' ``multipletests``), or None.
    tests : dict
        (name_i, name_j) -> the ``AgreementTest`` of the pair (``test=True``).
    rows : DataFrame
        The long form (``to_frame()``).
    reference : DataFrame or None
        Each clustering against the reference (``reference=``), in the result schema with
        ``pvalue_adjusted``, indexed by the clusterings' names.
    reference_differences : DataFrame or None
        With ``reference=`` and ``test=True``: every two clusterings' agreements with the
        reference compared by ``difference_test`` (its paired jackknife), one row per pair
        (columns ``a``, ``b``, ``DifferenceTest.to_frame()``'s and ``pvalue_adjusted``, adjusted over
        the pairs by ``multiple``); None otherwise.
    null : str
        The model and method of the tests ("no test" without them).
    noise : str
        The noise policy in words ("" without one); under "drop" each pair compares the
        objects noise in neither, and ``rows`` has their number (``n_compared``).

    See Also
    --------
    agreement_matrix : Makes it.

    Examples
    --------
    >>> m = ca.agreement_matrix({"a": [0, 0, 1, 1], "b": [0, 0, 1, 2], "c": [0, 1, 0, 1]},
    ...                         index="rand")
    >>> m.statistic.round(3)
    y      a      b      c
    x                     
    a  1.000  0.833  0.333
    b  0.833  1.000  0.500
    c  0.333  0.500  1.000
    """

    statistic: pd.DataFrame
    index: str
    kind: str
    pvalue: pd.DataFrame | None = None
    pvalue_adjusted: pd.DataFrame | None = None
    multiple: str | None = None
    tests: dict = field(default_factory=dict)
    rows: pd.DataFrame | None = None
    reference: pd.DataFrame | None = None
    reference_differences: pd.DataFrame | None = None
    null: str = "no test"
    noise: str = ""

    @property
    def names(self) -> list:
        """The clusterings' names, in order."""
        return list(self.statistic.index)

    @property
    def title(self) -> str:
        """What the matrix holds in words: the index (a dissimilarity said so), its model and
        method, the adjustment."""
        what = "dissimilarity" if self.kind == "distance" else self.kind
        text = f"{self.index} ({what}) of {len(self.names)} clusterings"
        if self.noise:
            text += f"; {self.noise}"
        if self.pvalue is None:
            return f"{text}; {self.null}"
        adjust = f", p-values {self.multiple}-adjusted" if self.multiple else ""
        return f"{text}; tests: {self.null}{adjust}"

    def __repr__(self) -> str:
        return f"AgreementMatrix: {self.title}\n{self.statistic.round(4).to_string()}"

    def _repr_html_(self) -> str:
        """Jupyter's view: the matrix under its title, then the p-values of the pairs' tests
        (adjusted, when they were) to 3 significant digits, never a positive p as 0."""
        out = table(self.statistic, self.title).to_html()
        shown = self.pvalue_adjusted if self.multiple else self.pvalue
        if shown is not None:
            words = (f"p-values of the tests, {self.multiple}-adjusted" if self.multiple
                     else "p-values of the tests")
            out += table(shown.astype(object).map(lambda p: "" if pd.isna(p)
                                                  else format_pvalue(float(p))),
                         words).to_html()
        return out

    def sentence(self, digits: int = 2) -> str:
        """The matrix in one sentence to paste into a paper, APA style.

        The range of the index over the pairs; with tests (``test=True``) how many pairs
        agreed beyond chance (p < .05 in the index's direction of agreement) after the
        multiplicity adjustment, and the tests in words; with a reference, the clustering
        that agreed best with it.

        Parameters
        ----------
        digits : int, default 2
            Decimals of the index (p-values: 3, APA's).

        Returns
        -------
        str
            One sentence, ending with a period.

        See Also
        --------
        title : What the matrix holds, in words.

        Examples
        --------
        >>> m = ca.agreement_matrix({"a": [0, 0, 1, 1], "b": [0, 0, 1, 2], "c": [0, 1, 0, 1]},
        ...                         index="rand")
        >>> m.sentence()
        'Across the 3 pairs of 3 clusterings, Rand ranged from 0.33 to 0.83 (no tests).'
        """
        from .sentences import matrix_sentence

        return matrix_sentence(self, digits)

    def to_frame(self) -> ResultsFrame:
        """The long form: one row per pair of clusterings.

        Returns
        -------
        ResultsFrame
            Columns ``x``, ``y``, the result schema (``RESULT_COLUMNS``) and
            ``pvalue_adjusted``; for a symmetric index one row per pair (i < j), for an
            asymmetric one a row per order (i != j). The diagonal is left out.
        """
        return self.rows.copy()

    def distances(self) -> pd.DataFrame:
        """The clusterings' dissimilarities: 1 - similarity, or the distance itself.

        For an asymmetric index the matrix is symmetrised ((D + D^T) / 2); the diagonal is 0.

        Returns
        -------
        DataFrame
            The square matrix D labelled by the clusterings' names.
        """
        values = self.statistic.to_numpy(dtype=float)
        if self.kind == "distance":
            d = values.copy()
        elif self.kind == "similarity" and get_index(self.index).range[1] == 1:
            d = 1 - values
        else:
            raise ValueError(f"index {self.index!r} ({self.kind}, range "
                             f"{get_index(self.index).range}) is neither a similarity bounded "
                             "by 1 nor a distance: its matrix gives no distances to map")
        d = (d + d.T) / 2
        np.fill_diagonal(d, 0.0)
        return pd.DataFrame(d, index=self.statistic.index, columns=self.statistic.columns)

    def embedding(self, n_components: int = 2) -> pd.DataFrame:
        """Classical (Torgerson) multidimensional scaling of the clusterings.

        With D the dissimilarities (``distances()``: 1 - similarity for a similarity whose
        maximum is 1, the distance itself for a dissimilarity such as VI) and J the centring
        matrix, B = -J D^2 J / 2 is eigen-decomposed; the coordinates are the eigenvectors of
        the ``n_components`` largest eigenvalues scaled by their square roots. When D is
        Euclidean the distances among the coordinates (all components) reproduce D. Negative
        eigenvalues (the non-Euclidean part of D) are left out: a component whose eigenvalue is
        not positive has coordinates 0, and ``attrs["eigenvalues"]`` holds every eigenvalue
        (largest first) so that the share left out can be read. Each axis's sign is fixed: its
        coordinate of largest magnitude is positive.

        Parameters
        ----------
        n_components : int, default 2
            The number of coordinates, at most the number of clusterings.

        Returns
        -------
        DataFrame
            Columns ``dim1``, ``dim2``, ... indexed by the clusterings' names.
        """
        k = len(self.names)
        n_components = check_positive_int(n_components, "n_components")
        if n_components > k:
            raise ValueError(f"n_components must be at most the number of clusterings ({k}), "
                             f"got {n_components}")
        d = self.distances().to_numpy()
        j = np.eye(k) - 1.0 / k
        b = -0.5 * j @ (d ** 2) @ j
        eigenvalues, vectors = np.linalg.eigh((b + b.T) / 2)
        order = np.argsort(eigenvalues)[::-1]
        eigenvalues, vectors = eigenvalues[order], vectors[:, order]
        scale = np.sqrt(np.clip(eigenvalues[:n_components], 0, None))
        coords = vectors[:, :n_components] * scale
        # each axis's sign fixed (its largest coordinate positive), not left to LAPACK
        big = coords[np.argmax(np.abs(coords), axis=0), np.arange(n_components)]
        coords = coords * np.where(big < 0, -1.0, 1.0)
        out = pd.DataFrame(coords, index=self.statistic.index,
                           columns=[f"dim{c + 1}" for c in range(n_components)])
        out.attrs["eigenvalues"] = eigenvalues
        return out

    def plot(self, kind: str = "heatmap", ax=None):
        """The matrix as a heatmap, a clustered heatmap or the MDS map of the clusterings.

        Parameters
        ----------
        kind : {"heatmap", "clustermap", "mds"}, default "heatmap"
            "heatmap": seaborn's heatmap, values annotated to 3 significant digits;
            "clustermap": the same with the clusterings ordered by their agreement (average
            linkage of ``distances()``); "mds": the clusterings at their ``embedding()``.
        ax : matplotlib Axes, optional
            Draw here ("heatmap" and "mds"; default a new figure).

        Returns
        -------
        matplotlib Axes or seaborn ClusterGrid
            The Axes drawn on (a ClusterGrid for "clustermap"; its ``.figure`` is the
            figure). The title names the index, its model and method.
        """
        from .matrix_plots import plot_matrix

        return plot_matrix(self, kind, ax)


def _square(values: np.ndarray, names: list, dtype=float) -> pd.DataFrame:
    index = pd.Index(names, name="x")
    return pd.DataFrame(values, index=index, columns=pd.Index(names, name="y")).astype(dtype)


def _pair_list(k: int, symmetric: bool) -> list:
    """The distinct pairs, in order: i < j, row by row; for an asymmetric index every i != j,
    row by row."""
    if symmetric:
        return [(i, j) for i in range(k) for j in range(i + 1, k)]
    return [(i, j) for i in range(k) for j in range(k) if i != j]


def _null_words(tests) -> str:
    """The model(s) and method(s) of the tests, as the title says them."""
    models = ", ".join(dict.fromkeys(t.null.model for t in tests))
    methods = ", ".join(dict.fromkeys(t.null.method for t in tests))
    return f"model {models}, method {methods}"


@fill_doc
def agreement_matrix(clusterings, index="adjusted_rand", *, test=False, multiple="holm",
                     reference=None, method="auto", model=None, n_sim=None, seed=None,
                     alternative=None, interval=None, noise=None, sample_weight=None,
                     **options) -> AgreementMatrix:
    """One index over every pair of several clusterings of the same objects.

    Each clustering's labels are encoded once (``pandas.factorize``); each pair's
    contingency table is one ``bincount`` of ``code_i * Q_j + code_j``, and the tables are
    evaluated in batches by the registry, as ``ca.agreement`` evaluates one. Memory holds the
    codes and a batch of tables, never n values per pair. Entry (i, j) is the index of
    (clusterings[i], clusterings[j]) with clusterings[i] as x (the table's rows): for an
    asymmetric index (purity, f_measure, ...) the matrix is not symmetric. The diagonal is
    each clustering against itself. A dissimilarity (variation_of_information, van_dongen)
    is reported as one (the title says so).

    For hard partitions the matrix is R's clue (Hornik 2005) ``cl_agreement`` of the
    ensemble with method "Rand" (``rand``), "cRand" (``adjusted_rand``), "NMI"
    (``nmi_sqrt``), "FM" (``fowlkes_mallows``), "jaccard" (``jaccard``) and "diag"
    (``accuracy``: the share of objects on the best one-to-one matching of the clusters), and
    ``cl_dissimilarity`` "VI" (``variation_of_information``, natural logarithms), to about
    5e-15, except where a ratio is 0/0 (a partition that is one cluster, e.g. NMI or cRand of
    one cluster against one): clue gives NaN, and the matrix the registry's convention (the
    index's optimum for identical partitions, otherwise 0). clue's
    ensemble matrix of an asymmetric measure holds (i, j) with the i-th partition as the
    first argument, as here; ``purity(x, y)`` here is (1/n) sum_q max_k n_kq, the share of
    objects in the majority class of x within each cluster of y (``ca.list_indices()``), so
    compare orientations before comparing numbers.

    Parameters
    ----------
    clusterings : DataFrame, dict or list
        The clusterings: a DataFrame with one column per clustering (the names: its
        columns), a dict name -> labels, or a list (or tuple) of label vectors (the names:
        "1", "2", ... in order). Hard labels, at least two clusterings, all of the same
        objects (pandas labels are paired by position and must share one index); a missing
        label is refused, naming the clustering.
    index : str or Index, default "adjusted_rand"
        An index of the contingency table (``ca.list_indices()``).
    test : bool, default False
        Test each pair's agreement as ``ca.agreement_test`` does (``pvalue``,
        ``pvalue_adjusted``).
    multiple : str or None, default "holm"
        The multiplicity adjustment over the distinct tests, by the name of a method of
        statsmodels' ``multipletests`` ("holm", "bonferroni", "fdr_bh", ...); None: none.
        The family: the K(K - 1)/2 pairs i < j of a symmetric index (the matrix holds each
        twice), the K(K - 1) ordered pairs of an asymmetric one.
    reference : str or array-like, optional
        A reference clustering (e.g. the true classes): a name of ``clusterings`` (that
        clustering is then left out of the matrix) or a label vector of the same objects.
        Each clustering is compared with it (the reference as x), tested when ``test=True``
        (its own family for ``multiple``): ``m.reference``.
    %(method)s
    %(model)s
    %(n_sim)s
    seed : None, int, SeedSequence or Generator, optional
        The only source of randomness. The seed rule: the distinct tests, in the order of
        the pairs (i < j row by row; for an asymmetric index every i != j row by row), then
        the reference's tests in the clusterings' order, each get one child of
        ``numpy.random.SeedSequence(seed).spawn(count)`` (a Generator: its
        ``spawn(count)``), so that the test of a pair is ``ca.agreement_test(clusterings[i],
        clusterings[j], ..., seed=child)``.
    %(alternative)s
    interval : None, float, str, dict or IntervalSpec, optional
        Confidence intervals of each pair's index (``ci_low``, ``ci_high`` in ``to_frame()``)
        as ``ca.compare`` takes them: a level, a method name, a dict of ``IntervalSpec``
        fields or an ``IntervalSpec``. Each pair's bootstrap draws from its child seed.
    noise : {"cluster", "singletons", "drop"} or Noise, optional
        How objects labelled as noise (-1) are compared (``ca.Noise``): side "x" is the
        reference, "y" the clusterings compared. Under "drop" each pair compares the objects
        noise in neither (``rows["n_compared"]`` says how many).
    sample_weight : array-like of shape (n,), optional
        Whole-number weights: each object counted that many times (other weights are
        refused: ``ca.agreement`` takes them pair by pair).
    %(**options)s

    Returns
    -------
    AgreementMatrix
        ``statistic`` (square DataFrame), ``pvalue`` and ``pvalue_adjusted`` (with
        ``test=True``), ``reference``, ``to_frame()``, ``plot()``, ``embedding()``.

    Raises
    ------
    ValueError
        Fewer than two clusterings, clusterings of different lengths, missing labels, an
        unknown ``multiple`` (each before any work).
    TypeError
        Memberships, similarity matrices or an index of object pairs with no form on a
        table: compare those pair by pair with ``ca.agreement``.

    See Also
    --------
    agreement : One pair.
    agreement_test : One pair's test.

    References
    ----------
    Hornik, K. (2005), "A CLUE for CLUster Ensembles", Journal of Statistical Software 14(12).

    {ref:hubert1985}.

    Holm, S. (1979), "A simple sequentially rejective multiple test procedure", Scandinavian
    Journal of Statistics 6.

    Examples
    --------
    >>> labels = {"a": [0, 0, 0, 1, 1, 1], "b": [0, 0, 1, 1, 1, 1], "c": [0, 1, 0, 1, 0, 1]}
    >>> m = ca.agreement_matrix(labels, index="rand")
    >>> m.statistic.round(3)
    y      a      b      c
    x                     
    a  1.000  0.667  0.467
    b  0.667  1.000  0.400
    c  0.467  0.400  1.000
    """
    rec = get_index(index)
    if rec.of_hard_tables is None:
        raise TypeError(f"index {rec.name!r} compares memberships or similarity matrices, not "
                        "label vectors: agreement_matrix takes an index of the contingency "
                        "table; compare such clusterings pair by pair with ca.agreement")
    test = check_bool(test, "test")
    multiple = check_multiple(multiple)
    side = default_alternative(rec, alternative)
    if not test:  # the null's settings would be silently unused
        _refuse_unused(method=method, model=model, n_sim=n_sim, alternative=alternative)
    ispec = as_interval_spec(interval)
    misplaced_interval_settings(options)
    opts = check_options(options, rec.options, f"index {rec.name!r}")
    spec = NullSpec.of(method, model=model, n_sim=n_sim, seed=seed)
    many = as_many_clusterings(clusterings, reference, noise=noise, sample_weight=sample_weight)
    names, ref_name, n = list(many.names), many.reference, many.n
    if n < rec.min_n:
        raise ValueError(f"index {rec.name!r} needs at least {rec.min_n} objects "
                         f"({rec.min_n_reason}), got n = {n}")

    values = _matrix_values(rec, opts, many, progress=True)
    k = len(names)
    pairs = _pair_list(k, rec.symmetric)
    n_ref = k if ref_name else 0
    n_diff = k * (k - 1) // 2 if (test and ref_name) else 0
    seeds = (_seeds(spec.seed, len(pairs) + n_ref + n_diff) if (test or ispec is not None)
             else None)

    def one(i, j, child):
        clus = many.pair(i, j, keep=rec.on_pairs)  # the pair's record, converted once
        if test:  # the call's null settings with the child seed
            return agreement_test_of(clus, rec, opts, replace(spec, seed=child), side, ispec)
        ci = None
        if ispec is not None:
            ci = interval_of(clus, rec, opts,  # the pair's stream of the seed
                             replace(ispec, seed=ispec.generator(child)))
        return ci

    results = [one(i, j, seeds[p] if seeds else None)
               for p, (i, j) in enumerate(pairs)] if (test or ispec is not None) else None
    rows = []
    for p, (i, j) in enumerate(pairs):
        r = results[p] if results else None
        rows.append(r.row() if test else _na_row(values[i, j], rec.kind, r))
    frame = _rows_frame(rows, pd.RangeIndex(len(pairs)), results if test else None)
    p_vec = frame["pvalue"].to_numpy(dtype=float, na_value=np.nan)
    frame["pvalue_adjusted"] = pd.array(adjusted_pvalues(p_vec, multiple) if test
                                        else np.full(len(pairs), np.nan), dtype="Float64")
    frame.insert(0, "y", [names[j] for _, j in pairs])
    frame.insert(0, "x", [names[i] for i, _ in pairs])
    if many.noise is not None:
        frame["n_compared"] = [many.coverage(i, j).n_compared for i, j in pairs]
    out = AgreementMatrix(statistic=_square(values, names), index=rec.name, kind=rec.kind,
                          multiple=multiple if test else None, rows=_kept_attrs(frame),
                          noise=many.noise.describe() if many.noise is not None else "")
    if test:
        out.tests = {(names[i], names[j]): results[p] for p, (i, j) in enumerate(pairs)}
        out.null = _null_words(results)
        out.pvalue, out.pvalue_adjusted = _square_pvalues(frame, pairs, names, rec.symmetric)
    if ref_name:
        ref_seeds = seeds[len(pairs):len(pairs) + n_ref] if seeds else [None] * k
        out.reference = _reference_frame(rec, opts, many, test, multiple,
                                         [one(-1, c, s) for c, s in enumerate(ref_seeds)])
        if test:
            level = ispec.confidence_level if ispec is not None else 0.95
            out.reference_differences = _reference_differences(
                rec, opts, many, level, multiple, seeds[len(pairs) + n_ref:])
    return out
