"""Cluster-wise stability by resampling, as Hennig (2007) defines it and R's
``fpc::clusterboot`` computes it.

The data are clustered once. Each of B resamples is clustered again, and every original
cluster C is compared with each cluster D of the resample's clustering on the objects of the
resample: the Jaccard ``|C' & D| / |C' | D|`` of C' (C restricted to the resample's objects) and D;
the best match's Jaccard is the cluster's value in that resample (0 when nothing matches,
fpc's ``zerobyzero = 0``). A cluster's stability is the mean of its B values; a value
``<= dissolution`` (0.5) counts as the cluster "dissolved", one ``> recover`` (0.75) as
"recovered" (fpc's definitions: the second inequality is strict).

The resampling schemes (fpc's ``bootmethod``), with fpc's defaults:

* ``"bootstrap"`` (fpc's "boot", ``multipleboot = FALSE``): n objects drawn with replacement;
  an object drawn more than once is clustered, and compared, once (the distinct objects, in
  the order they were first drawn);
* ``"subset"``: floor(subset_share * n) objects drawn without replacement (fpc's ``subtuning
  = floor(n / 2)``: subset_share = 0.5);
* ``"noise"``: every object is replaced, with probability noise_share (0.05, fpc's
  ``noisetuning[1]``), by a point drawn uniformly on the box along the principal axes of the
  data's covariance matrix, from -4 to +4 (``NOISE_SCALE``, fpc's ``noisetuning[2]``)
  standard deviations of the data along each axis around their mean; all n points are
  clustered, and only the objects not replaced are compared.

Hennig's reading of the mean Jaccard (fpc's help of ``clusterboot``): a valid, stable cluster
should have 0.75 or more, a "highly stable" one 0.85 or more; between 0.6 and 0.75 a cluster
indicates patterns in the data, but which objects belong to it is highly doubtful; below 0.6
it should not be trusted. This refers to the bootstrap; the other schemes' readings depend on
their tuning, fpc's defaults giving similar ones.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import numbers
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._display import apa_number, definition_table, significant, table, word_list
from .._validate import check_bool, check_choice, check_fraction, check_positive_int
from ..inputs.objects import Noise, as_noise, noise_mask, warn_noise_convention
from .grid import root_seed
from .stability import check_data

__all__ = ["SCHEMES", "READINGS", "NOISE_SCALE", "ClusterStability", "cluster_stability", "draw_resample",
           "best_match_jaccard"]

#: The resampling schemes (fpc's ``bootmethod`` "boot", "subset" and "noise").
SCHEMES = ("bootstrap", "subset", "noise")

#: The half-width of the "noise" scheme's box, in standard deviations along each principal
#: axis (fpc's ``noisetuning[2]``).
NOISE_SCALE = 4.0

#: Hennig's reading of a cluster's mean Jaccard (fpc's help of ``clusterboot``): the lower
#: bound of each band and its words, highest first.
READINGS = (
    (0.85, "highly stable"),
    (0.75, "stable (valid)"),
    (0.60, "patterns, membership doubtful"),
    (-np.inf, "not to be trusted"),
)

_SCHEME_WORDS = {
    "bootstrap": "bootstrap: n objects drawn with replacement, each distinct object once",
    "subset": "subsets of {size} objects drawn without replacement",
    "noise": "replacement by noise: each object with probability {share}, uniform noise on "
             "+-{scale} sd along the principal axes",
}

#: Hennig's readings (``READINGS``) as a sentence says them, best first.
_SENTENCE_READINGS = {"highly stable": "highly stable", "stable (valid)": "stable",
                      "patterns, membership doubtful": "doubtful",
                      "not to be trusted": "not to be trusted", "NA": "not assessable"}

#: The resampling schemes as a sentence names them.
_SCHEME_NOUNS = {"bootstrap": "bootstrap", "subset": "subset", "noise": "noise-replacement"}

_HENNIG = ('Hennig, C. (2007), "Cluster-wise assessment of cluster stability", Computational '
           'Statistics & Data Analysis 52, 258-271')


def reading(mean: float) -> str:
    """Hennig's reading of a mean Jaccard in words (``READINGS``); "NA" for a missing mean."""
    if not np.isfinite(mean):
        return "NA"
    return next(words for bound, words in READINGS if mean >= bound)


# -- the result -------------------------------------------------------------------------------

@dataclass(frozen=True)
class ClusterStability:
    """The stability of each cluster of a clustering under resampling (Hennig 2007).

    The result of ``cluster_stability``; printing it shows the scheme, the clusterer and the
    table of the clusters with Hennig's thresholds, as R's ``print.clboot`` does.

    Parameters
    ----------
    summary : DataFrame
        One row per assessed cluster: cluster (its label), size (objects in the original
        clustering), mean_jaccard, sd (over the resamples), se (sd / sqrt(B), the Monte Carlo
        standard error of the mean), dissolved and dissolved_share (resamples with Jaccard <=
        ``dissolution``), recovered and recovered_share (Jaccard > ``recover``), reading
        (Hennig's words for the mean).
    jaccard : DataFrame
        Every value: resamples (rows) x clusters (columns, named by their labels).
    labels : ndarray
        The original clustering, one label per object, as the clusterer returned it.
    resamples : tuple of ndarray of int
        The objects (0-based rows of the data) that each resample compares: the distinct
        objects drawn ("bootstrap", in the order first drawn), the subset ("subset"), or the
        objects not replaced by noise ("noise", in order).
    n_clusters : ndarray of int
        The clusters each resample's clustering found (noise objects not counted under
        "drop" and "singletons").
    settings : dict
        scheme, n_resamples, clusterer (its description), n_objects, subset_size,
        noise_share, noise_scale, dissolution, recover, noise (the policy or None), n_noise
        (objects labelled noise under "drop" or "singletons"), seed.

    See Also
    --------
    cluster_stability : Compute it.

    References
    ----------
    Hennig, C. (2007), "Cluster-wise assessment of cluster stability", Computational
    Statistics & Data Analysis 52, 258-271.

    Examples
    --------
    >>> X, _ = ca.load_dataset("iris")
    >>> def split_petals(data):  # a fixed rule: short, middling and long petals
    ...     return np.digitize(data[:, 2], [2.5, 5.0])
    >>> res = ca.cluster_stability(X, split_petals, n_resamples=5, seed=1, progress=False)
    >>> res.summary["mean_jaccard"].tolist()  # a rule applied object by object never moves
    [1.0, 1.0, 1.0]
    >>> res.jaccard.shape, res.summary["cluster"].tolist()
    ((5, 3), [0, 1, 2])
    """

    summary: pd.DataFrame
    jaccard: pd.DataFrame = field(repr=False)
    labels: np.ndarray = field(repr=False)
    resamples: tuple = field(repr=False)
    n_clusters: np.ndarray = field(repr=False)
    settings: dict = field(repr=False)

    def to_frame(self) -> pd.DataFrame:
        """The summary as a DataFrame (a copy), with the settings in its ``attrs``.

        Returns
        -------
        DataFrame
            One row per cluster, as ``summary``.
        """
        out = self.summary.copy()
        out.attrs.update(self.settings)
        return out

    def sentence(self, digits: int = 2) -> str:
        """The clusters' stability in one sentence to paste into a paper, with Hennig's reading.

        The clusters grouped by Hennig's reading of their mean Jaccard (highly stable >=
        0.85, stable >= 0.75, doubtful >= 0.6, not to be trusted below), each group with its
        clusters and means, then the scheme and the number of resamples.

        Parameters
        ----------
        digits : int, default 2
            Decimals of the mean Jaccards.

        Returns
        -------
        str
            One sentence, ending with a period.

        See Also
        --------
        to_frame : The clusters' figures.

        References
        ----------
        Hennig, C. (2007), "Cluster-wise assessment of cluster stability", Computational
        Statistics & Data Analysis 52, 258-271.

        Examples
        --------
        >>> X, _ = ca.load_dataset("iris")
        >>> def split_petals(data):
        ...     return np.digitize(data[:, 2], [2.5, 5.0])
        >>> res = ca.cluster_stability(X, split_petals, n_resamples=5, seed=1, progress=False)
        >>> res.sentence()
        'All 3 clusters were highly stable (clusters 0, 1 and 2: mean bootstrap Jaccard 1.00, 1.00 and 1.00) over B = 5 bootstrap resamples (Hennig, 2007).'
        """
        t = self.summary
        s = self.settings
        noun = _SCHEME_NOUNS[s["scheme"]]
        groups = []
        for band, said in _SENTENCE_READINGS.items():
            rows = t[t["reading"] == band]
            if len(rows):
                groups.append((said, rows))
        parts = []
        for g, (words, rows) in enumerate(groups):
            clusters = word_list(str(c) for c in rows["cluster"])
            means = word_list(apa_number(v, digits) for v in rows["mean_jaccard"]
                              if np.isfinite(v))
            label = "cluster" if len(rows) == 1 else "clusters"
            what = f"mean {noun} Jaccard " if g == 0 else ""
            inside = f"{label} {clusters}" + (f": {what}{means}" if means else "")
            verb = ("was" if len(rows) == 1 else "were") if g == 0 else ""
            parts.append((len(rows), verb, words, inside))
        k = len(t)
        settings = f"over B = {s['n_resamples']:,} {noun} resamples"
        if s["noise"] == "drop" and s.get("n_noise"):
            settings += f", {s['n_noise']:,} noise objects left out"
        settings += " (Hennig, 2007)"
        if len(parts) == 1:
            _, verb, words, inside = parts[0]
            head = ("The one cluster" if k == 1 else f"All {k} clusters")
            return f"{head} {verb} {words} ({inside}) {settings}."
        said = [f"{n} {verb + ' ' if verb else ''}{words} ({inside})" for n, verb, words, inside
                in parts]
        return f"Of {k} clusters, {word_list(said)} {settings}."

    def _header(self) -> list[tuple[str, str]]:
        s = self.settings
        words = _SCHEME_WORDS[s["scheme"]].format(size=s["subset_size"],
                                                   share=f"{s['noise_share']:g}",
                                                   scale=f"{s['noise_scale']:g}")
        rows = [("scheme", words), ("resamples", f"B = {s['n_resamples']}"),
                ("clusterer", s["clusterer"]),
                ("objects", f"{s['n_objects']}, {len(self.summary)} clusters assessed")]
        if s["noise"] is not None:
            rows.append(("noise", f"{s['noise']}: {s['n_noise']} objects are noise, no "
                                  "cluster of their own"
                         if s["noise"] != "cluster" else f"{s['noise']}"))
        rows.append(("thresholds", f"dissolved: Jaccard <= {s['dissolution']:g}; "
                                   f"recovered: Jaccard > {s['recover']:g}"))
        rows.append(("reading", "mean Jaccard >= 0.85 highly stable; >= 0.75 stable (valid); "
                                "0.6-0.75 patterns, but which objects belong is doubtful; "
                                "< 0.6 not to be trusted (Hennig 2007, fpc)"))
        return rows

    def _shown(self) -> pd.DataFrame:
        t = self.summary
        return pd.DataFrame({
            "cluster": t["cluster"].astype(str), "size": t["size"],
            "mean": [significant(v) for v in t["mean_jaccard"]],
            "sd": [significant(v) for v in t["sd"]],
            "se": [significant(v) for v in t["se"]],
            "dissolved": [f"{d} ({significant(s, 3)})"
                          for d, s in zip(t["dissolved"], t["dissolved_share"])],
            "recovered": [f"{r} ({significant(s, 3)})"
                          for r, s in zip(t["recovered"], t["recovered_share"])],
            "reading": t["reading"]})

    def __repr__(self) -> str:
        lines = ["", "\tCluster-wise stability: Jaccard of each cluster's best match", ""]
        lines += [f"{k}: {v}" for k, v in self._header()]
        lines += ["", self._shown().to_string(index=False), ""]
        return "\n".join(lines)

    __str__ = __repr__

    def _repr_html_(self) -> str:
        head = definition_table("Cluster-wise stability: Jaccard of each cluster's best match",
                                self._header())
        return head + table(self.summary, "one row per cluster").to_html()

    def plot(self, ax=None):
        """The distribution of each cluster's Jaccard over the resamples, with the thresholds.

        A box per cluster (its median, quartiles and whiskers) over the resamples' values,
        the values themselves as points, the mean as a diamond, and horizontal lines at
        ``dissolution``, 0.6, ``recover`` and 0.85 (Hennig's bands).

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Where to draw; a new figure by default.

        Returns
        -------
        matplotlib Axes
            The axes drawn on.
        """
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(1.2 + 0.9 * self.jaccard.shape[1], 3.6))
        values = [self.jaccard[c].to_numpy() for c in self.jaccard.columns]
        pos = np.arange(1, len(values) + 1)
        ax.boxplot(values, positions=pos, widths=0.5, showfliers=False)
        jitter = np.random.default_rng(0)  # the same picture every time
        for p, v in zip(pos, values):
            ax.plot(p + jitter.uniform(-0.12, 0.12, len(v)), v, ".", color="0.45", alpha=0.5,
                    markersize=3)
            ax.plot(p, v.mean(), "D", color="C3", markersize=5)
        s = self.settings
        for y, words, style in ((s["dissolution"], "dissolved", ":"), (0.6, "0.6", "--"),
                                (s["recover"], "recovered", "--"),
                                (0.85, "highly stable", "-.")):
            ax.axhline(y, color="0.3", linestyle=style, linewidth=0.8)
            # beside the frame, not across it: x in axes coordinates, y in data coordinates
            ax.text(1.01, y, words, transform=ax.get_yaxis_transform(), va="center",
                    fontsize=7, color="0.3", clip_on=False)
        ax.set_xticks(pos, [str(c) for c in self.jaccard.columns])
        ax.set_xlim(0.4, pos[-1] + 0.6)
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("cluster")
        ax.set_ylabel("Jaccard of the best match")
        ax.set_title(f"{s['scheme']}, B = {s['n_resamples']}", fontsize=9)
        return ax


# -- checks -----------------------------------------------------------------------------------

def _check_clusterer(clusterer) -> str:
    """"estimator" (has fit_predict) or "callable"; anything else refused by name."""
    if isinstance(clusterer, type):
        raise TypeError(f"clusterer must be an estimator instance or a function, got the class "
                        f"{clusterer.__name__}: pass {clusterer.__name__}(...)")
    if callable(getattr(clusterer, "fit_predict", None)):
        return "estimator"
    if callable(clusterer):
        return "callable"
    raise TypeError(f"clusterer must have a fit_predict method (a scikit-learn-style "
                    f"estimator) or be a function data -> labels; {type(clusterer).__name__} "
                    "is neither")


def _describe(clusterer) -> str:
    if hasattr(clusterer, "fit_predict"):
        text = " ".join(repr(clusterer).split())
        return text if len(text) <= 80 else text[:77] + "..."
    return getattr(clusterer, "__qualname__", type(clusterer).__name__)


def _check_n_jobs(n_jobs):
    if n_jobs is None:
        return 1
    if isinstance(n_jobs, (bool, np.bool_)) or not isinstance(n_jobs, numbers.Integral) \
            or n_jobs == 0:
        raise TypeError(f"n_jobs must be None or a non-zero whole number (-1: all cores), got "
                        f"{n_jobs!r}")
    return int(n_jobs)


def _check_noise(noise) -> Noise | None:
    noise = as_noise(noise)
    if noise is not None and noise.side != "both":
        raise ValueError(f"noise side {noise.side!r} has no meaning here: the original and the "
                         "resamples' clusterings come from the same clusterer (use side='both')")
    return noise


# -- one clustering ---------------------------------------------------------------------------

def _takes_random_state(clusterer, kind: str) -> bool:
    if kind == "estimator":
        params = clusterer.get_params(deep=False) if callable(
            getattr(clusterer, "get_params", None)) else {}
        return "random_state" in params
    try:
        return "random_state" in inspect.signature(clusterer).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins without a signature
        return False


def _fresh(clusterer):
    """A fresh copy of an estimator: sklearn's ``clone`` when scikit-learn is there (unfitted,
    same parameters), else a deep copy."""
    try:
        from sklearn.base import clone
    except ImportError:  # pragma: no cover - scikit-learn is installed with the package
        return copy.deepcopy(clusterer)
    return clone(clusterer, safe=False)


def _cluster(clusterer, kind: str, X: np.ndarray, random_state: int | None) -> np.ndarray:
    """The labels of the rows of X, one per row; the clusterer's random_state set when given."""
    if kind == "estimator":
        est = _fresh(clusterer)
        if random_state is not None:
            est.set_params(random_state=random_state)
        labels = est.fit_predict(X)
    elif random_state is not None:
        labels = clusterer(X, random_state=random_state)
    else:
        labels = clusterer(X)
    labels = np.asarray(labels)
    if labels.shape != (len(X),):
        raise ValueError(f"the clusterer returned labels of shape {labels.shape} for {len(X)} "
                         f"objects: it must give one label per object, shape ({len(X)},)")
    if pd.isna(pd.Series(labels)).any():
        raise ValueError("the clusterer returned missing labels (NaN or None)")
    return labels


def _codes(labels: np.ndarray, noise: Noise | None):
    """Cluster codes 0..K-1 (labels sorted) with -1 for noise objects under "drop" and
    "singletons", the cluster labels, and the noise mask."""
    if noise is None or noise.policy == "cluster":
        mask = np.zeros(len(labels), dtype=bool)
    else:
        mask = noise_mask(labels, noise.label)
    codes = np.full(len(labels), -1, dtype=np.int64)
    kept, names = pd.factorize(labels[~mask], sort=True)
    codes[~mask] = kept
    return codes, np.asarray(names), mask


def _limit(threads):
    """Limit the BLAS and OpenMP threads of a clustering (threadpoolctl, a scikit-learn
    dependency), or nothing."""
    if threads is None:
        return contextlib.nullcontext()
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - installed with scikit-learn
        return contextlib.nullcontext()
    return threadpool_limits(limits=threads)


def _random_state(seq: np.random.SeedSequence) -> int:
    return int(np.random.default_rng(seq).integers(2**32 - 1))


# -- the comparison ---------------------------------------------------------------------------

def best_match_jaccard(original, resampled, n_original: int, *, singletons=None) -> np.ndarray:
    """The Jaccard of each original cluster's best match among the clusters of a resample.

    On the objects of a resample (one entry per object, in the same order in both), the
    Jaccard of original cluster k restricted to them, C', and resample cluster q, D, is
    ``|C' & D| / |C' | D|``; a cluster's value is the largest over q (0 when C' and every D are
    empty: fpc's ``zerobyzero = 0``).

    Parameters
    ----------
    original : array of int
        The original cluster (0 .. n_original - 1) of each object of the resample; -1 for an
        object of no assessed cluster (noise), which still counts in the resample's clusters.
    resampled : array of int
        The resample's cluster (0, 1, ...) of each object; -1 for an object of no cluster
        (noise), which still counts in the original clusters.
    n_original : int
        The number of original clusters.
    singletons : array of bool, optional
        The resample's noise objects that are clusters of their own ("singletons"): each is a
        candidate match, of Jaccard ``1 / |C'|`` for the cluster it was in.

    Returns
    -------
    ndarray of float, shape (n_original,)
        Each original cluster's best Jaccard.

    See Also
    --------
    cluster_stability : Uses it on every resample.

    Examples
    --------
    >>> best_match_jaccard(np.array([0, 0, 0, 1, 1]), np.array([0, 0, 1, 1, 1]), 2).tolist()
    [0.6666666666666666, 0.6666666666666666]
    """
    original = np.asarray(original, dtype=np.int64)
    resampled = np.asarray(resampled, dtype=np.int64)
    n_res = int(resampled.max()) + 1 if len(resampled) and resampled.max() >= 0 else 0
    inside = original >= 0
    a = np.bincount(original[inside], minlength=n_original).astype(float)
    b = np.bincount(resampled[resampled >= 0], minlength=n_res).astype(float)
    both = inside & (resampled >= 0)
    both_cells = original[both] * n_res + resampled[both]
    inter = np.bincount(both_cells, minlength=n_original * n_res).reshape(n_original, n_res)
    union = a[:, None] + b[None, :] - inter
    with np.errstate(invalid="ignore", divide="ignore"):
        jac = np.where(union > 0, inter / np.where(union > 0, union, 1.0), 0.0)
    best = jac.max(axis=1) if n_res else np.zeros(n_original)
    if singletons is not None:
        lone = inside & np.asarray(singletons, dtype=bool)
        if lone.any():
            has = np.bincount(original[lone], minlength=n_original) > 0
            best = np.where(has, np.maximum(best, 1.0 / np.where(a > 0, a, 1.0)), best)
    return best


# -- resampling -------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Plan:
    """What every resample needs besides the data and its seed."""

    clusterer: object
    kind: str
    random_state: bool
    scheme: str
    subset_size: int
    noise_share: float
    noise_scale: float
    codes: np.ndarray
    n_original: int
    noise: Noise | None
    axes: tuple | None  # (mean, eigenvectors, sd along them) for the "noise" scheme
    threads: int | None


def draw_resample(X: np.ndarray, scheme: str, rng: np.random.Generator, *, subset_size=None,
                  noise_share=0.05, noise_scale=4.0, axes=None):
    """One resample of the rows of X: the data to cluster and the objects compared.

    Parameters
    ----------
    X : ndarray of shape (n, p)
        The data.
    scheme : {"bootstrap", "subset", "noise"}
        As in ``cluster_stability``.
    rng : numpy Generator
        The resample's random stream.
    subset_size : int, optional
        The size of a subset ("subset"; default floor(n / 2)).
    noise_share : float, default 0.05
        The probability that an object is replaced ("noise").
    noise_scale : float, default 4.0
        The half-width of the noise box in standard deviations along each principal axis.
    axes : tuple, optional
        (mean, eigenvectors as columns, standard deviations along them) of X ("noise";
        computed from X when not given).

    Returns
    -------
    rows : ndarray of int
        The objects compared (rows of X): the distinct objects drawn in the order first drawn,
        the subset, or the objects not replaced.
    data : ndarray
        The data clustered: X[rows], or ("noise") all n rows with the replaced ones noise.
    compared : ndarray of int
        The rows of ``data`` that hold ``rows``' objects (0, 1, ... but for "noise": rows).

    See Also
    --------
    cluster_stability : Draws one resample per seed so.

    Examples
    --------
    >>> X = np.arange(20.0).reshape(10, 2)
    >>> rows, data, compared = draw_resample(X, "subset", np.random.default_rng(1))
    >>> len(rows), data.shape, (data == X[rows]).all()
    (5, (5, 2), np.True_)
    """
    n = len(X)
    if scheme == "bootstrap":
        draw = rng.integers(n, size=n)
        _, first = np.unique(draw, return_index=True)
        rows = draw[np.sort(first)]
        return rows, X[rows], np.arange(len(rows))
    if scheme == "subset":
        rows = rng.choice(n, n // 2 if subset_size is None else subset_size, replace=False)
        return rows, X[rows], np.arange(len(rows))
    mean, vectors, sd = _axes(X) if axes is None else axes
    replaced = rng.random(n) < noise_share
    k = int(replaced.sum())
    data = X.copy()
    if k:
        z = rng.uniform(-noise_scale, noise_scale, size=(k, X.shape[1])) * sd
        data[replaced] = z @ vectors.T + mean
    rows = np.flatnonzero(~replaced)
    return rows, data, rows


def _axes(X: np.ndarray):
    """The mean, the principal axes (eigenvectors of the covariance, as columns) and the
    standard deviations along them (negative eigenvalues of rounding set to 0)."""
    cov = np.atleast_2d(np.cov(X, rowvar=False))
    values, vectors = np.linalg.eigh(cov)
    return X.mean(axis=0), vectors, np.sqrt(np.clip(values, 0.0, None))


def _one_resample(X: np.ndarray, plan: _Plan, seq: np.random.SeedSequence):
    """The resample of seed ``seq``: its rows, each original cluster's best Jaccard, and the
    number of clusters its clustering found."""
    draw_seq, fit_seq = seq.spawn(2)
    rows, data, compared = draw_resample(
        X, plan.scheme, np.random.default_rng(draw_seq), subset_size=plan.subset_size,
        noise_share=plan.noise_share, noise_scale=plan.noise_scale, axes=plan.axes)
    state = _random_state(fit_seq) if plan.random_state else None
    with _limit(plan.threads):
        labels = _cluster(plan.clusterer, plan.kind, data, state)[compared]
    codes, names, mask = _codes(labels, plan.noise)
    singletons = mask if plan.noise is not None and plan.noise.policy == "singletons" else None
    values = best_match_jaccard(plan.codes[rows], codes, plan.n_original,
                                singletons=singletons)
    small = np.int32 if len(X) < 2**31 else np.int64  # rows cross from a worker: half size
    return rows.astype(small, copy=False), values, len(names)


def _run(X, plan, seeds, n_jobs, client, progress):
    """Every resample, in order: here, in joblib's processes, or on the Dask cluster."""
    if progress:  # tqdm.auto warns in a notebook without ipywidgets: only for a bar shown
        from tqdm.auto import tqdm
    else:
        from tqdm import tqdm

    bar = dict(total=len(seeds), desc="resamples", unit="resample", disable=not progress)
    if client is not None:
        from dask.distributed import as_completed

        x_f, plan_f = client.scatter([X, plan], broadcast=True)
        futures = [client.submit(_one_resample, x_f, plan_f, s, pure=False) for s in seeds]
        with tqdm(**bar) as pbar:
            for _ in as_completed(futures):
                pbar.update()
        return client.gather(futures)
    if n_jobs == 1:
        return [_one_resample(X, plan, s) for s in tqdm(seeds, **bar)]
    from joblib import Parallel, delayed, effective_n_jobs

    # a few chunks per worker: the data and the plan cross to a worker once per chunk, not
    # once per resample (hashing and pickling them cost more than a small fit)
    chunks = np.array_split(np.arange(len(seeds)),
                            min(len(seeds), 4 * effective_n_jobs(n_jobs)))
    jobs = Parallel(n_jobs=n_jobs, return_as="generator")(
        delayed(_chunk)(X, plan, [seeds[i] for i in c]) for c in chunks)
    out = []
    with tqdm(**bar) as pbar:
        for done in jobs:
            out += done
            pbar.update(len(done))
    return out


def _chunk(X, plan, seeds):
    return [_one_resample(X, plan, s) for s in seeds]


# -- the study --------------------------------------------------------------------------------

def cluster_stability(data, clusterer, *, scheme="bootstrap", n_resamples=100, subset_share=0.5,
                      noise_share=0.05, dissolution=0.5, recover=0.75, noise=None, seed=None,
                      n_jobs=None, client=None, threads=1,
                      progress=True) -> ClusterStability:
    """Assess the stability of each cluster by resampling, as R's ``fpc::clusterboot`` does.

    The data are clustered; each of ``n_resamples`` resamples is clustered again, and each
    original cluster, restricted to the resample's objects, is compared with every cluster
    of the resample: the Jaccard of its best match is its value in that resample (Hennig
    2007). A cluster's stability is its mean Jaccard over the resamples; values <=
    ``dissolution`` count as the cluster dissolved, values > ``recover`` as recovered.
    Hennig's reading of the mean: >= 0.85 highly stable, >= 0.75 stable (valid), 0.6-0.75
    patterns in the data whose members are doubtful, < 0.6 not to be trusted.

    Parameters
    ----------
    data : array-like or DataFrame of shape (n_objects, n_features)
        Numeric and finite; the clusterer is given a float array (rows of it).
    clusterer : estimator or callable
        An estimator with ``fit_predict`` (scikit-learn's KMeans, AgglomerativeClustering,
        DBSCAN, HDBSCAN, GaussianMixture, ...), cloned afresh for every clustering
        (``sklearn.base.clone``, or a deep copy); or a function data -> labels. When the
        estimator has a ``random_state`` parameter, or the function a ``random_state``
        keyword, every resample's clustering gets one of its own from the resample's seed;
        the original clustering gets one from the seed only when the estimator's is None.
    scheme : {"bootstrap", "subset", "noise"}, default "bootstrap"
        "bootstrap": n objects drawn with replacement, each distinct object clustered and
        compared once (fpc's "boot", ``multipleboot = FALSE``); "subset": floor(subset_share
        * n) objects without replacement; "noise": each object replaced with probability
        ``noise_share`` by uniform noise, and only the objects not replaced compared.
    n_resamples : int, default 100
        B, at least 2 (fpc's default and recommendation: 100).
    subset_share : float, default 0.5
        The share of the objects in a subset, in (0, 1) (fpc's ``subtuning = floor(n / 2)``).
    noise_share : float, default 0.05
        The probability that an object is replaced by noise, in (0, 1) (fpc's
        ``noisetuning[1]``). Noise is uniform on the box from -4 to +4 standard deviations
        of the data along each principal axis of its covariance, centred at its mean (fpc's
        ``noisetuning[2] = 4``, ``NOISE_SCALE``; ``draw_resample`` takes another).
    dissolution : float, default 0.5
        A resample's Jaccard <= this counts the cluster as dissolved, in (0, 1).
    recover : float, default 0.75
        A resample's Jaccard > this counts the cluster as recovered, in (0, 1).
    noise : {"cluster", "singletons", "drop"} or Noise, optional
        How objects the clusterer labels as noise (-1: DBSCAN, HDBSCAN) are read, in the
        original clustering and in every resample's. "cluster": the noise label is a cluster
        like the others, assessed and matched. "drop" and "singletons": noise objects form
        no cluster to assess (a cluster of one object is always "recovered" or never
        present, so assessing it tells nothing); they still count against a match, as
        objects outside every cluster: an original cluster's object that a resample calls
        noise is missing from its best match, and a resample cluster's object that was noise
        originally is an extra in it. Under "singletons" each of a resample's noise objects
        is also a candidate match of its own (Jaccard ``1 / |C'|``). Default: labels as given,
        with a ``NoiseLabelWarning`` when the original labels hold -1 beside labels >= 0.
    seed : None, int, SeedSequence or Generator, optional
        The root of the streams: the original clustering's random_state and one child seed
        per resample (its draw and its clusterer's random_state), so the same seed gives the
        same result whatever ``n_jobs`` or ``client``, and resample i does not depend on B.
    n_jobs : int, optional
        Resamples run in this many joblib processes (-1: all cores); default one, here.
    client : dask.distributed.Client, optional
        Run the resamples on this Dask cluster instead (the data are scattered once).
    threads : int or None, default 1
        BLAS / OpenMP threads of each clustering (threadpoolctl): many small fits are fastest
        on one thread each (scikit-learn's KMeans on iris runs ten times faster so on a busy
        two-core machine); None leaves the libraries' default, for a few large fits.
    progress : bool, default True
        Show a progress bar over the resamples (tqdm).

    Returns
    -------
    ClusterStability
        ``.summary`` (one row per cluster), ``.jaccard`` (resamples x clusters), ``.labels``
        (the original clustering), ``.resamples`` (the objects each resample compared),
        ``.plot()``; printed, an R-style block.

    See Also
    --------
    ClusterStability : The result.
    clusteragree.studies.stability.subsample_stability : The stability of a whole partition
        over numbers of clusters.

    References
    ----------
    Hennig, C. (2007), "Cluster-wise assessment of cluster stability", Computational
    Statistics & Data Analysis 52, 258-271.

    Hennig, C. (2008), "Dissolution point and isolation robustness: robustness criteria for
    general cluster analysis methods", Journal of Multivariate Analysis 99, 1154-1176.

    Hennig, C. (2023), "fpc: Flexible procedures for clustering", R package version 2.2-10,
    function ``clusterboot``.

    Examples
    --------
    Cutting iris' petal lengths at their two widest gaps: the gap between setosa and the
    others is there in every resample, the second widest gap is not, and the one flower it
    cuts off dissolves in most resamples:

    >>> X, _ = ca.load_dataset("iris")
    >>> def widest_gaps(data):
    ...     s = np.sort(data[:, 2])
    ...     i = np.sort(np.argsort(np.diff(s))[-2:])
    ...     return np.searchsorted((s[i] + s[i + 1]) / 2, data[:, 2])
    >>> res = ca.cluster_stability(X, widest_gaps, n_resamples=20, seed=1, progress=False)
    >>> res.summary[["cluster", "size", "mean_jaccard", "dissolved", "reading"]].round(2)
       cluster  size  mean_jaccard  dissolved            reading
    0        0    50          1.00          0      highly stable
    1        1     1          0.21         16  not to be trusted
    2        2    99          0.96          0      highly stable

    With scikit-learn, ``ca.cluster_stability(X, KMeans(3, n_init=10), seed=1)``.
    """
    X = check_data(data, "data")
    n = len(X)
    kind = _check_clusterer(clusterer)
    scheme = check_choice(scheme, "scheme", SCHEMES)
    n_resamples = check_positive_int(n_resamples, "n_resamples", minimum=2)
    subset_share = check_fraction(subset_share, "subset_share",
                                  "a share of the objects strictly between 0 and 1")
    noise_share = check_fraction(noise_share, "noise_share",
                                 "a probability strictly between 0 and 1")
    dissolution = check_fraction(dissolution, "dissolution",
                                 "a Jaccard strictly between 0 and 1")
    recover = check_fraction(recover, "recover", "a Jaccard strictly between 0 and 1")
    noise = _check_noise(noise)
    n_jobs = _check_n_jobs(n_jobs)
    threads = None if threads is None else check_positive_int(threads, "threads")
    progress = check_bool(progress, "progress")
    if client is not None and not callable(getattr(client, "submit", None)):
        raise TypeError(f"client must be a dask.distributed Client, got "
                        f"{type(client).__name__}")
    subset_size = int(np.floor(subset_share * n))
    if scheme == "subset" and subset_size < 2:
        raise ValueError(f"subset_share = {subset_share} of n = {n} objects leaves "
                         f"{subset_size} per subset: at least 2 are needed")
    if n < 2:
        raise ValueError(f"data has {n} object: clustering needs at least 2")

    root = root_seed(seed)
    first, *seeds = root.spawn(n_resamples + 1)
    takes = _takes_random_state(clusterer, kind)
    own = clusterer.get_params(deep=False).get("random_state") if (
        takes and kind == "estimator") else None
    state = _random_state(first) if takes and own is None else None
    with _limit(threads):
        labels = _cluster(clusterer, kind, X, state)
    codes, names, mask = _codes(labels, noise)
    if noise is None and labels.dtype.kind == "i":  # integer labels: -1 may mean noise
        warn_noise_convention(np.unique(labels), np.array([]), names=("the clustering", ""))
    if len(names) == 0:
        raise ValueError("the clusterer labelled every object as noise: no cluster to assess")
    plan = _Plan(clusterer, kind, takes, scheme, subset_size, noise_share, NOISE_SCALE, codes,
                 len(names), noise, _axes(X) if scheme == "noise" else None, threads)
    runs = _run(X, plan, seeds, n_jobs, client, progress)

    values = np.stack([r[1] for r in runs])
    columns = pd.Index(names.tolist(), name="cluster")
    jaccard = pd.DataFrame(values, columns=columns,
                           index=pd.RangeIndex(n_resamples, name="resample"))
    summary = _summary(values, names, np.bincount(codes[codes >= 0], minlength=len(names)),
                       dissolution, recover)
    settings = dict(scheme=scheme, n_resamples=n_resamples, clusterer=_describe(clusterer),
                    n_objects=n, subset_size=subset_size, noise_share=noise_share,
                    noise_scale=NOISE_SCALE, dissolution=dissolution, recover=recover,
                    noise=None if noise is None else noise.policy, n_noise=int(mask.sum()),
                    seed=seed if isinstance(seed, (int, type(None))) else repr(seed))
    return ClusterStability(summary, jaccard, labels, tuple(r[0] for r in runs),
                            np.array([r[2] for r in runs]), settings)


def _summary(values, names, sizes, dissolution, recover) -> pd.DataFrame:
    B = len(values)
    mean = values.mean(axis=0)
    sd = values.std(axis=0, ddof=1)
    dissolved = (values <= dissolution).sum(axis=0)
    recovered = (values > recover).sum(axis=0)
    return pd.DataFrame({
        "cluster": names.tolist(), "size": sizes, "mean_jaccard": mean, "sd": sd,
        "se": sd / np.sqrt(B), "dissolved": dissolved, "dissolved_share": dissolved / B,
        "recovered": recovered, "recovered_share": recovered / B,
        "reading": [reading(m) for m in mean]})
