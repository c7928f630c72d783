"""Clustering stability: weighted cross-validation and subsampling stability with 13AGRI.

**Weighted cross-validation** ({ref:amorim2015}, after Cardoso, Carvalho & Faceli (2010)). The n
objects are split 50/50 at random. A "training" clustering is fitted on a weighted sample in
which the training half has unit weights and the test half quasi-zero weights (1e-10), and a
"test" clustering the other way round; both are partitions of all n objects, and their
contingency table over the n objects is the stability table, summarised by indices of
agreement (and adjusted for chance by IADJUST). Quasi-zero weights leave the fit to the
weighted half while every object still gets a cluster, so here each clustering is fitted on its
half and then assigns (``predict``) every object; no classifier has to be chosen to carry one
half's clusters over to the other. ``weighted_cv`` gives the table of one split, or a frame of
the indices over repeated splits; ``external_table`` the table of the clustering of all the data
against known classes (external validity).

**Subsampling stability** ({ref:horta2015}, section 7.4, Algorithm 2).
B subsamples of 80% of the objects are drawn without replacement (B = 100 in the paper), once
for all numbers of clusters. For each k the algorithm (EM for Gaussian mixtures in the paper) is
fitted on every subsample and gives memberships U^i (objects x clusters, ``predict_proba``) of
*all* the objects; the stability statistic is the mean 13AGRI over the B(B - 1)/2 pairs,

    t_k = sum_(i<j) 13AGRI(U^i, U^j) / C(B, 2),

the prototype of the set is the U^i with the largest sum_(j != i) 13AGRI(U^i, U^j), and the
estimated number of clusters is k' = argmax_k t_k. On hard (one-hot) memberships 13AGRI is the
adjusted Rand index (Horta & Campello 2015), which is what is computed for them.

Randomness comes only from ``seed=`` through numpy Generators: the split, each fit's
``random_state`` and the subsamples are drawn from independent streams spawned by
numpy's SeedSequence, so the same seed gives the same results.
"""

from __future__ import annotations

import contextlib
import numbers
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._docs import cite, fill, fill_doc
from .._validate import check_bool, check_choice, check_positive_int, check_real, check_seed
from ..inputs.labels import check_labels
from ..indices import resolve_indices
from ..inference import agreement
from ..tables import ContingencyTable
from ..inputs import crosstab

__doc__ = fill(__doc__)

__all__ = ["ALGORITHMS", "QUASI_ZERO", "StabilityResult", "weighted_cv", "external_table",
           "subsample_stability"]

#: Algorithms known by name: k-means (sklearn KMeans) and EM for Gaussian mixtures with full
#: covariance matrices (sklearn GaussianMixture).
ALGORITHMS = ("kmeans", "em")

#: The thesis' weight of the objects left out of a fit (Amorim 2015): 1e-10.
QUASI_ZERO = 1e-10

MEMBERSHIPS = ("auto", "proba", "hard")

_AMORIM = cite("amorim2015")
_HORTA = cite("horta2015")


# -- checks -----------------------------------------------------------------------------------

def check_data(X, name: str = "X") -> np.ndarray:
    """X as a 2-D float array (objects x features) with finite entries."""
    if isinstance(X, pd.DataFrame):
        bad = [str(c) for c, t in X.dtypes.items()
               if not (pd.api.types.is_numeric_dtype(t) and not pd.api.types.is_complex_dtype(t))]
        if bad:
            raise TypeError(f"{name} must hold numeric features; its column(s) {bad} are not "
                            "numeric (encode or drop them first)")
        X = X.to_numpy(dtype=float)
    if X is None or isinstance(X, (str, bytes, dict, set)):
        raise TypeError(f"{name} must be a 2-D numeric array (objects x features), got "
                        f"{type(X).__name__}")
    try:
        arr = np.asarray(X)
    except ValueError:
        raise TypeError(f"{name} is ragged (rows of different lengths): it must be a 2-D "
                        "numeric array (objects x features)") from None
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number)
                                   or arr.dtype == np.bool_):
        raise TypeError(f"{name} must hold numbers, got dtype {arr.dtype}")
    if np.issubdtype(arr.dtype, np.complexfloating):
        raise TypeError(f"{name} must hold real numbers, got complex numbers")
    if arr.ndim != 2:
        hint = "; for one feature pass X.reshape(-1, 1)" if arr.ndim == 1 else ""
        raise ValueError(f"{name} must be 2-D (objects x features), got shape {arr.shape}{hint}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} is empty (shape {arr.shape}): it needs objects and features")
    arr = arr.astype(float)
    nan, inf = np.isnan(arr), np.isinf(arr)
    if nan.any() or inf.any():
        i, j = np.argwhere(nan | inf)[0]
        raise ValueError(
            f"{name} has {int(nan.sum())} NaN and {int(inf.sum())} infinite entries (the first "
            f"in row {i}, column {j}); remove or impute them before clustering")
    return arr


def _check_k(k, n: int, name: str = "k", *, room: int | None = None, why: str = "") -> int:
    """An int with 2 <= k < n (and k <= room, the objects a fit sees)."""
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral):
        raise TypeError(f"{name} must be a whole number of clusters, got {k!r}")
    k = int(k)
    if not 2 <= k < n:
        raise ValueError(f"{name} must be a number of clusters with 2 <= {name} < n = {n} "
                         f"(the number of objects), got {k}")
    if room is not None and k > room:
        raise ValueError(f"{name} = {k} is more clusters than the {room} objects {why}")
    return k


def _check_ks(ks, n: int, room: int, why: str) -> list[int]:
    if isinstance(ks, numbers.Integral) and not isinstance(ks, (bool, np.bool_)):
        ks = [ks]
    if isinstance(ks, (str, bytes)) or not hasattr(ks, "__iter__"):
        raise TypeError(f"ks must be a list or range of numbers of clusters, got {ks!r}")
    ks = list(ks)
    if not ks:
        raise ValueError("ks is empty: give at least one number of clusters")
    out = [_check_k(k, n, "ks", room=room, why=why) for k in ks]
    if len(set(out)) != len(out):
        dup = next(k for k in out if out.count(k) > 1)
        raise ValueError(f"ks lists {dup} more than once")
    return sorted(out)


def _check_fraction(fraction) -> float:
    fraction = check_real(fraction, "fraction", "a fraction of the objects in (0, 1)")
    if not 0 < fraction < 1:
        raise ValueError(f"fraction must lie strictly between 0 and 1, got {fraction}")
    return fraction


def _check_algorithm(algorithm, *, proba: bool = False):
    """A known name or an estimator with fit and predict (and predict_proba if ``proba``)."""
    if isinstance(algorithm, str):
        return check_choice(algorithm, "algorithm", ALGORITHMS)
    if isinstance(algorithm, type):
        raise TypeError(f"algorithm must be an estimator instance, got the class "
                        f"{algorithm.__name__}: pass {algorithm.__name__}(...)")
    missing = [m for m in ("fit", "predict") if not callable(getattr(algorithm, m, None))]
    if missing:
        what = type(algorithm).__name__
        raise TypeError(
            f"algorithm must be one of {list(ALGORITHMS)} or an estimator with fit and predict "
            f"methods; {what} has no {' and no '.join(missing)} method. Every object must be "
            "assigned to a cluster of a model fitted on part of the data (a clustering that "
            "only labels the objects it was fitted on, such as AgglomerativeClustering, "
            "cannot do that)")
    if proba and not callable(getattr(algorithm, "predict_proba", None)):
        raise TypeError(f"memberships='proba' needs an estimator with predict_proba; "
                        f"{type(algorithm).__name__} has none (use memberships='hard')")
    return algorithm


def _check_n_init(n_init):
    return None if n_init is None else check_positive_int(n_init, "n_init")


def _check_threads(threads):
    return None if threads is None else check_positive_int(threads, "threads")


# -- fitting ----------------------------------------------------------------------------------

def _sklearn():
    try:
        import sklearn  # noqa: F401
    except ImportError:  # pragma: no cover - sklearn is in the test and study extras
        raise ImportError("clustering stability needs scikit-learn: "
                          "pip install 'clusteragree[study]'") from None


def _threads(threads):
    """Limit the BLAS and OpenMP threads of the fits (threadpoolctl, a scikit-learn
    dependency): many small fits run faster on one thread each, above all on a busy machine."""
    if threads is None:
        return contextlib.nullcontext()
    from threadpoolctl import threadpool_limits
    return threadpool_limits(limits=threads)


def _random_state(rng: np.random.Generator) -> int:
    """A random_state for scikit-learn, drawn from its own stream."""
    return int(rng.integers(2**32 - 1))


def _set(est, names, value) -> bool:
    """Set the first of ``names`` the estimator has (a parameter or an attribute)."""
    params = est.get_params(deep=False) if callable(getattr(est, "get_params", None)) else {}
    for name in names:
        if name in params:
            est.set_params(**{name: value})
            return True
        if hasattr(est, name):
            setattr(est, name, value)
            return True
    return False


def _estimator(algorithm, k: int, rng: np.random.Generator, n_init):
    """A fresh estimator with k clusters and a random_state from ``rng``."""
    _sklearn()
    state = _random_state(rng)
    if algorithm == "kmeans":
        from sklearn.cluster import KMeans
        return KMeans(n_clusters=k, n_init=10 if n_init is None else n_init,
                      random_state=state)
    if algorithm == "em":
        from sklearn.mixture import GaussianMixture
        return GaussianMixture(n_components=k, covariance_type="full",
                               n_init=1 if n_init is None else n_init, random_state=state)
    from sklearn.base import clone
    est = clone(algorithm, safe=False)
    if not _set(est, ("n_clusters", "n_components"), k):
        raise ValueError(
            f"cannot give {type(algorithm).__name__} k = {k} clusters: it has no parameter or "
            "attribute n_clusters or n_components")
    _set(est, ("random_state",), state)
    if n_init is not None and not _set(est, ("n_init",), n_init):
        raise ValueError(f"{type(algorithm).__name__} has no n_init parameter to set")
    return est


def _labels(est, X: np.ndarray) -> np.ndarray:
    labels = np.asarray(est.predict(X))
    if labels.shape != (len(X),):
        raise ValueError(f"{type(est).__name__}.predict returned shape {labels.shape}; "
                         f"expected one label per object, shape ({len(X)},)")
    return labels


def _memberships(est, X: np.ndarray, proba: bool) -> np.ndarray:
    """Memberships (objects x clusters): predict_proba, or one-hot labels."""
    if proba:
        U = np.asarray(est.predict_proba(X), dtype=float)
        if U.ndim != 2 or U.shape[0] != len(X):
            raise ValueError(f"{type(est).__name__}.predict_proba returned shape {U.shape}; "
                             f"expected ({len(X)}, n_clusters)")
        return U
    codes, _ = pd.factorize(_labels(est, X), sort=True)
    return np.eye(codes.max() + 1)[codes]


def _fit_assign(algorithm, k, X, fit_rows, rng, n_init) -> np.ndarray:
    """Labels of all objects from a model fitted on ``X[fit_rows]``."""
    est = _estimator(algorithm, k, rng, n_init)
    est.fit(X[fit_rows])
    return _labels(est, X)


# -- weighted cross-validation ----------------------------------------------------------------

def _split(n: int, rng: np.random.Generator):
    """A random 50/50 split: the training half (n // 2 objects) and the test half."""
    perm = rng.permutation(n)
    return np.sort(perm[: n // 2]), np.sort(perm[n // 2:])


def _one_split(X, k, algorithm, rng, n_init) -> ContingencyTable:
    split_rng, train_rng, test_rng = rng.spawn(3)
    train, test = _split(len(X), split_rng)
    training = _fit_assign(algorithm, k, X, train, train_rng, n_init)
    testing = _fit_assign(algorithm, k, X, test, test_rng, n_init)
    return crosstab(pd.Series(training, name="training"), pd.Series(testing, name="test"))


@fill_doc
def weighted_cv(X, k, algorithm="kmeans", seed=None, *, repeats=None,
                indices=("adjusted_rand", "adjusted_mutual_info"), null=False, n_sim=None,
                n_init=None, threads=1):
    """Stability of a clustering by the thesis' weighted cross-validation.

    The objects are split 50/50 at random; the "training" clustering is fitted with unit
    weights on the training half and quasi-zero weights (1e-10) on the test half, the "test"
    clustering the other way round, and each assigns all n objects. Quasi-zero weights are the
    limit of leaving a half out, so each clustering is fitted on its half alone and assigns
    every object with ``predict``. The stability table is the contingency table of the two
    partitions over all n objects (rows: training, columns: test). {ref:amorim2015} (after Cardoso,
    Carvalho & Faceli, 2010).

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_objects, n_features)
        Numeric, finite.
    k : int
        The number of clusters, 2 <= k <= n // 2 (each half must hold k objects).
    algorithm : "kmeans", "em" or an estimator
        "kmeans": sklearn KMeans (``n_init`` starts, default 10); "em": sklearn
        GaussianMixture with full covariance matrices (``n_init``, default 1); or any
        estimator with ``fit`` and ``predict`` (cloned; its ``n_clusters`` or ``n_components``
        is set to k and its ``random_state``, if any, from the seed).
    seed : None, int, SeedSequence or Generator
        The split and each fit's random_state come from independent streams spawned from it.
    repeats : int, optional
        Without it, the table of one split is returned; with it, a DataFrame with one row per
        split (each from its own spawned stream).
    indices : index name(s)
        The indices computed on each table (repeats only); default the adjusted Rand index
        and the adjusted mutual information, the two of the thesis' study of stability.
    null : bool
        Also adjust each index for chance as IADJUST does (``ca.compare`` with Patefield's
        random tables, the mean-adjusted value and the p-value); implied by ``n_sim``.
    n_sim : int, optional
        The number of random tables per split (default 17,000, the thesis').
    n_init : int, optional
        Starts of each fit (default 10 for "kmeans", 1 for "em"; for an estimator, its own
        n_init, set only when given).
    threads : int or None
        BLAS / OpenMP threads of each fit (default 1: small fits are fastest on one thread,
        and repeats are better run in parallel processes); None leaves the libraries' default.

    Returns
    -------
    ContingencyTable or DataFrame
        Without ``repeats``, the stability table of one split (rows: training, columns:
        test). With it, one row per split: columns repeat, n, k, k_training and k_test (the
        clusters each partition uses), one column per index (observed) and, with ``null``,
        ``<index>_adjusted`` and ``<index>_pvalue``.

    See Also
    --------
    external_table : Agreement with known classes (external validity).
    subsample_stability : Stability by subsampling, with 13AGRI.
    clusteragree.iadjust : The thesis' chance adjustment of a table.

    References
    ----------
    {ref:amorim2015}, Ch.4.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> X, _ = make_blobs(n_samples=60, centers=3, cluster_std=0.5, random_state=1)
    >>> from clusteragree.studies.stability import weighted_cv
    >>> tab = weighted_cv(X, 3, seed=1)
    >>> tab.n, tab.shape, round(ca.agreement(tab, index="ari"), 3)
    (60, (3, 3), 1.0)
    >>> df = weighted_cv(X, 3, seed=1, repeats=2, indices="ari")
    >>> df.columns.tolist()
    ['repeat', 'n', 'k', 'k_training', 'k_test', 'adjusted_rand']
    """
    X = check_data(X)
    n = len(X)
    k = _check_k(k, n, room=n // 2, why="in each half of the split (n // 2)")
    algorithm = _check_algorithm(algorithm)
    n_init = _check_n_init(n_init)
    threads = _check_threads(threads)
    rng = check_seed(seed)
    if repeats is None:
        if null or n_sim is not None:
            raise TypeError("null= and n_sim= adjust the indices of repeated splits: pass "
                            "repeats= (e.g. repeats=1), or ca.compare(table) for one table")
        with _threads(threads):
            return _one_split(X, k, algorithm, rng, n_init)
    repeats = check_positive_int(repeats, "repeats")
    names, _ = resolve_indices(indices)
    null = check_bool(null, "null") or n_sim is not None
    if n_sim is not None:
        n_sim = check_positive_int(n_sim, "n_sim")
    with _threads(threads):
        rows = _repeats(X, k, algorithm, rng, n_init, repeats, names, null, n_sim)
    out = pd.DataFrame(rows)
    out.attrs.update(algorithm=_describe(algorithm), seed=seed, indices=names,
                     null="IADJUST: Patefield tables, both margins fixed" if null else None)
    return out


def _repeats(X, k, algorithm, rng, n_init, repeats, names, null, n_sim) -> list[dict]:
    rows = []
    for r, child in enumerate(rng.spawn(repeats)):
        fit_rng, null_rng = child.spawn(2)
        tab = _one_split(X, k, algorithm, fit_rng, n_init)
        row = {"repeat": r, "n": tab.n, "k": k, "k_training": tab.shape[0],
               "k_test": tab.shape[1]}
        values = agreement(tab, index=names)
        row.update({name: values[name] for name in names})
        if null:
            row.update(_adjusted(tab, names, n_sim, null_rng))
        rows.append(row)
    return rows


def _adjusted(tab, names, n_sim, rng) -> dict:
    from ..inference import compare
    res = compare(tab, indices=names, method="patefield", n_sim=n_sim, seed=rng,
                  interval=None)
    out = {}
    for name in names:
        out[f"{name}_adjusted"] = res.loc[name, "adjusted_mean"]
        out[f"{name}_pvalue"] = res.loc[name, "pvalue"]
    return out


def _describe(algorithm) -> str:
    return algorithm if isinstance(algorithm, str) else type(algorithm).__name__


@fill_doc
def external_table(X, y, k, algorithm="kmeans", seed=None, *, n_init=None,
                   threads=1) -> ContingencyTable:
    """External validity: known classes against the clusters fitted on all the data.

    The agreement of a clustering with the "ground truth" (Amorim 2015, "On clustering
    stability"): the contingency table of the classes ``y`` (rows) against the clusters
    (columns) of the clustering fitted on all of ``X``.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_objects, n_features)
        Numeric, finite.
    y : array-like or Series of shape (n_objects,)
        One known class per object, in X's order (a Series must share a DataFrame X's
        index); no missing classes.
    k : int
        The number of clusters, 2 <= k <= n.
    algorithm : "kmeans", "em" or an estimator, default "kmeans"
        As in ``weighted_cv``.
    seed : None, int, SeedSequence or Generator, optional
        The fit's random_state comes from it.
    n_init : int, optional
        Starts of the fit (default 10 for "kmeans", 1 for "em").
    threads : int or None, default 1
        BLAS / OpenMP threads of the fit; None leaves the libraries' default.

    Returns
    -------
    ContingencyTable
        Classes (rows, named "class") against clusters (columns, named "cluster").

    See Also
    --------
    weighted_cv : Stability, the other table of the thesis' study.
    clusteragree.agreement_test : Test the table's agreement against chance.

    References
    ----------
    {ref:amorim2015}, Ch.4-5.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> X, y = make_blobs(n_samples=60, centers=3, cluster_std=0.5, random_state=1)
    >>> from clusteragree.studies.stability import external_table
    >>> tab = external_table(X, y, 3, seed=1)
    >>> tab.names, round(ca.agreement(tab, index="ari"), 3)
    (('class', 'cluster'), 1.0)
    """
    frame_index = X.index if isinstance(X, pd.DataFrame) else None
    X = check_data(X)
    n = len(X)
    y = check_labels(y, "y")
    if len(y) != n:
        raise ValueError(f"y must give one class per object of X: X has {n} rows, y has {len(y)}")
    if isinstance(y, pd.Series):
        if frame_index is not None and not y.index.equals(frame_index):
            raise ValueError("y is a Series whose index differs from X's: objects are paired by "
                             "position here, so give y in X's order (y.loc[X.index])")
        y = y.to_numpy()
    if np.asarray(pd.isna(y)).any():
        raise ValueError(f"y has {int(np.asarray(pd.isna(y)).sum())} missing classes (NaN/None)")
    k = _check_k(k, n)
    algorithm = _check_algorithm(algorithm)
    n_init = _check_n_init(n_init)
    threads = _check_threads(threads)
    rng = check_seed(seed)
    with _threads(threads):
        clusters = _fit_assign(algorithm, k, X, np.arange(n), rng, n_init)
    return crosstab(pd.Series(y, name="class"), pd.Series(clusters, name="cluster"))


# -- subsampling stability with 13AGRI --------------------------------------------------------

@fill_doc
@dataclass(frozen=True)
class StabilityResult:
    """Subsampling stability over numbers of clusters (Horta & Campello 2015, Algorithm 2).

    The result of ``subsample_stability``; printing it shows the best k and the table.

    Parameters
    ----------
    table : DataFrame
        One row per k: k, stability (t_k, the mean pairwise 13AGRI), sd (of the pairwise
        values; the pairs share subsamples, so it is no standard error of t_k), n_pairs,
        prototype (the subsample whose clustering agrees most with the others).
    best_k : int
        The k with the largest stability (the smallest such k on a tie).
    agreements : dict
        k -> (B, B) matrix of pairwise 13AGRI (diagonal 1).
    prototypes : dict
        k -> memberships (n_objects x k) of the prototype clustering V^k.
    subsamples : ndarray of int, shape (B, m)
        The indices of the objects of each subsample.

    See Also
    --------
    subsample_stability : Compute it.

    References
    ----------
    {ref:horta2015}, section 7.4.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> from clusteragree.studies.stability import subsample_stability
    >>> X, _ = make_blobs(n_samples=60, centers=[[0, 0], [5, 0], [0, 5]], random_state=2)
    >>> res = subsample_stability(X, ks=[2, 3], algorithm="kmeans", n_subsamples=4, seed=1)
    >>> res.best_k, res.agreements[3].shape, res.prototypes[3].shape, res.subsamples.shape
    (3, (4, 4), (60, 3), (4, 48))
    """

    table: pd.DataFrame
    best_k: int
    agreements: dict = field(repr=False)
    prototypes: dict = field(repr=False)
    subsamples: np.ndarray = field(repr=False)

    def __repr__(self) -> str:
        return (f"StabilityResult: best k = {self.best_k} (largest mean pairwise 13AGRI over "
                f"{len(self.subsamples)} subsamples)\n{self.table.to_string(index=False)}")


def _pairwise_agri(U: list[np.ndarray], hard: bool) -> np.ndarray:
    """The (B, B) matrix of 13AGRI between the clusterings (diagonal 1)."""
    B = len(U)
    i, j = np.triu_indices(B, k=1)
    if hard:  # 13AGRI = ARI on one-hot memberships: all pair tables as one batch
        labels = np.stack([u.argmax(axis=1) for u in U])
        K = max(u.shape[1] for u in U)
        cells = (np.arange(len(i))[:, None] * K + labels[i]) * K + labels[j]
        counts = np.bincount(cells.ravel(), minlength=len(i) * K * K).reshape(len(i), K, K)
        values = np.asarray(agreement(counts, index="adjusted_rand"), dtype=float)
    else:
        values = np.array([agreement(U[a], U[b], index="agri") for a, b in zip(i, j)])
    out = np.eye(B)
    out[i, j] = out[j, i] = values
    return out


@fill_doc
def subsample_stability(X, ks=range(2, 7), algorithm="em", *, n_subsamples=100, fraction=0.8,
                        seed=None, memberships="auto", n_init=None,
                        threads=1) -> StabilityResult:
    """Estimate the number of clusters by subsampling stability with 13AGRI.

    {ref:horta2015}, section 7.4, Algorithm 2: draw ``n_subsamples``
    subsamples of ``fraction`` of the objects without replacement (100 and 80% in the paper),
    once for all k; for each k fit the algorithm on every subsample and compute memberships
    U^i of ALL objects; the stability is t_k = sum_(i<j) 13AGRI(U^i, U^j) / C(B, 2) and the
    estimated number of clusters k' = argmax_k t_k (the paper's step 12; on a tie the smallest
    such k: two far-apart groups of clusters can make k = 2 as stable as the true k). The
    prototype V^k is the U^i with the largest sum_(j != i) 13AGRI(U^i, U^j). The paper scans
    k = 2, ..., 20; the default here is 2, ..., 6.

    Parameters
    ----------
    X : array-like or DataFrame of shape (n_objects, n_features)
        Numeric and finite.
    ks : iterable of int, default range(2, 7)
        The numbers of clusters to compare (each 2 <= k <= the subsample size).
    algorithm : "em", "kmeans" or an estimator, default "em"
        "em": GaussianMixture with full covariances (the paper's); "kmeans"; or an estimator
        with fit and predict (and predict_proba for probabilistic memberships).
    n_subsamples : int, default 100
        B, at least 3 (three subsamples give the three pairs the sd needs).
    fraction : float, default 0.8
        The share of objects in each subsample, in (0, 1) (rounded).
    seed : None, int, SeedSequence or Generator, optional
        The subsamples and each fit's random_state come from independent spawned streams;
        the streams of one k do not depend on the other ks asked for.
    memberships : {"auto", "proba", "hard"}, default "auto"
        "auto": predict_proba when the estimator has it (EM's probabilistic clustering),
        otherwise one-hot labels; "proba"; or "hard" (one-hot ``predict`` labels, for which
        13AGRI is the adjusted Rand index).
    n_init : int, optional
        Starts of each fit, as in ``weighted_cv``.
    threads : int or None, default 1
        BLAS / OpenMP threads of each fit and of the 13AGRI computations; None leaves the
        libraries' default.

    Returns
    -------
    StabilityResult
        ``.table`` (one row per k), ``.best_k``, ``.agreements`` and ``.prototypes``.

    See Also
    --------
    weighted_cv : The thesis' weighted cross-validation.
    clusteragree.agreement : ``index="agri"`` is 13AGRI.

    References
    ----------
    {ref:horta2015}, section 7.4.

    Examples
    --------
    >>> from sklearn.datasets import make_blobs
    >>> X, _ = make_blobs(n_samples=60, centers=[[0, 0], [5, 0], [0, 5]], random_state=2)
    >>> from clusteragree.studies.stability import subsample_stability
    >>> res = subsample_stability(X, ks=[2, 3, 4], algorithm="kmeans", n_subsamples=5,
    ...                           seed=1)
    >>> res.best_k, res.table.columns.tolist()
    (3, ['k', 'stability', 'sd', 'n_pairs', 'prototype'])
    """
    X = check_data(X)
    n = len(X)
    n_subsamples = check_positive_int(n_subsamples, "n_subsamples", minimum=3)  # sd: 3 pairs
    fraction = _check_fraction(fraction)
    size = int(round(fraction * n))
    if size < 2:
        raise ValueError(f"fraction = {fraction} of n = {n} objects leaves {size} per subsample")
    ks = _check_ks(ks, n, size, f"in each subsample (round(fraction * n) = {size})")
    memberships = check_choice(memberships, "memberships", MEMBERSHIPS)
    algorithm = _check_algorithm(algorithm, proba=memberships == "proba")
    if memberships == "auto":
        proba = algorithm == "em" or (not isinstance(algorithm, str)
                                      and callable(getattr(algorithm, "predict_proba", None)))
    else:
        proba = memberships == "proba"
        if proba and algorithm == "kmeans":
            raise ValueError("memberships='proba' needs a probabilistic clustering; kmeans "
                             "gives hard labels (use 'hard' or algorithm='em')")
    n_init = _check_n_init(n_init)
    threads = _check_threads(threads)
    draw_rng, fit_rng = check_seed(seed).spawn(2)
    subsamples = np.stack([np.sort(draw_rng.choice(n, size, replace=False))
                           for _ in range(n_subsamples)])
    with _threads(threads):
        rows, agreements, prototypes = _scan(X, ks, algorithm, subsamples,
                                             fit_rng.bit_generator.seed_seq, proba, n_init)
    table = pd.DataFrame(rows)
    best_k = int(table["k"].iloc[int(np.argmax(table["stability"].to_numpy()))])
    table.attrs.update(algorithm=_describe(algorithm), seed=seed, fraction=fraction,
                       n_subsamples=n_subsamples, index="agri",
                       memberships="probabilistic" if proba else "hard")
    return StabilityResult(table, best_k, agreements, prototypes, subsamples)


def _scan(X, ks, algorithm, subsamples, fit_ss, proba, n_init):
    """Steps 4-11 of Algorithm 2: for each k, fit every subsample, memberships of all
    objects, pairwise 13AGRI, stability and prototype."""
    n_subsamples = len(subsamples)
    rows, agreements, prototypes = [], {}, {}
    for k in ks:
        k_ss = np.random.SeedSequence(fit_ss.entropy, spawn_key=fit_ss.spawn_key + (k,))
        U = []
        for rows_i, rng_i in zip(subsamples, (np.random.default_rng(s)
                                              for s in k_ss.spawn(n_subsamples))):
            est = _estimator(algorithm, k, rng_i, n_init)
            est.fit(X[rows_i])
            U.append(_memberships(est, X, proba))
        M = _pairwise_agri(U, hard=not proba)
        upper = M[np.triu_indices(n_subsamples, k=1)]
        best = int(np.argmax(M.sum(axis=1) - 1.0))
        rows.append({"k": k, "stability": float(upper.mean()),
                     "sd": float(upper.std(ddof=1)),
                     "n_pairs": int(upper.size), "prototype": best})
        agreements[k], prototypes[k] = M, U[best]
    return rows, agreements, prototypes
