"""Association measures of the table and the peers' further matching and pair measures.

With x (rows) the reference classes, y (columns) the clustering, n_ij the overlaps, a_i and b_j
the margins, K and Q the numbers of non-empty rows and columns, e_ij = a_i b_j / n:

    chi_squared          X^2 = sum_ij (n_ij - e_ij)^2 / e_ij = n (sum_ij n_ij^2 / (a_i b_j) - 1)
    cramers_v            V = sqrt(X^2 / (n (min(K, Q) - 1)))
    tschuprow_t          T = sqrt(X^2 / (n sqrt((K - 1)(Q - 1))))
    maximum_match        (1/n) sum of the overlaps of clusters paired greedily (= 1 - criterion H)
    normalized_pivoted_accuracy    (A - 1/M) / (1 - 1/M), A the accuracy, M = max(K, Q)
    normalized_clustering_accuracy (mean_i n_i,pi(i) / a_i - 1/K) / (1 - 1/K), pi optimal
    overlap              a11 / min(p, q)                    (pairs; Szymkiewicz-Simpson)
    tversky              a11 / (a11 + alpha a10 + beta a01) (pairs)
    partition_difference a00                                (pairs apart in both)

The peers' names: mclustcomp (You, R package) calls these "chisq", "mmm", "overlap",
"tversky" and "pd"; its "mhm" (Meila-Heckerman measure, (1/n) sum_i max_j n_ij as in Wagner &
Wagner 2007) is ``inverse_purity``, its "smc" is ``rand``, "sdc" ``czekanowski``, "tanimoto"
``jaccard`` (all aliases there). genieclust (Gagolewski) calls the accuracies "npa" and "nca";
its "psi" is ``psi``.
"""

from __future__ import annotations

import math

import numpy as np

from .._validate import check_real
from ._common import ratio
from ._registry import register
from .matching import best_pairing_totals, criterion_h
from .pairs import PAIR_COUNTING

_MIRKIN = ('Mirkin, B. (2001), "Eleven ways to look at the chi-squared coefficient for '
           'contingency tables", The American Statistician 55(2)')
_WAGNER = ('Wagner, S. & Wagner, D. (2007), "Comparing clusterings - an overview", Technical '
           'Report 2006-04, Universitat Karlsruhe')
_GAGOLEWSKI = ('Gagolewski, M. (2022), "A framework for benchmarking clustering algorithms", '
               'SoftwareX 20')
_ASSOC = dict(family="association", vectorised=True)


def _chi_parts(counts):
    """X^2, n and the numbers of non-empty rows and columns of each table."""
    counts = np.asarray(counts)
    a = counts.sum(axis=-1).astype(float)
    b = counts.sum(axis=-2).astype(float)
    n = a.sum(axis=-1)
    ab = a[..., :, None] * b[..., None, :]
    cells = counts.astype(float) ** 2 / np.where(ab > 0, ab, 1.0)  # n_ij = 0 where a_i b_j = 0
    chi2 = np.maximum(n * (cells.sum(axis=(-2, -1)) - 1.0), 0.0)  # >= 0 up to rounding
    return chi2, n, (a > 0).sum(axis=-1), (b > 0).sum(axis=-1)


@register(name="chi_squared", real_counts=True, title="Pearson's chi-squared statistic of the table",
          kind="statistic", range=(0.0, math.inf), optimum=math.nan, symmetric=True,
          aliases=("chisq", "chi2"), reference="Pearson (1900); " + _MIRKIN, reflexive=False,
          **_ASSOC)
def chi_squared(counts):
    """Pearson's chi-squared statistic of the table (no fixed optimum: a statistic).

    X^2 = sum_ij (n_ij - e_ij)^2 / e_ij = n (sum_ij n_ij^2 / (a_i b_j) - 1), e_ij = a_i b_j / n.
    Two identical partitions into K clusters give n (K - 1), its largest value for those
    margins; Cramer's V and Tschuprow's T scale it to [0, 1].

    >>> float(chi_squared(np.array([[10, 0], [0, 10]])))
    20.0
    """
    return _chi_parts(counts)[0]


@register(name="cramers_v", real_counts=True, title="Cramer's V", kind="similarity", range=(0.0, 1.0),
          optimum=1.0, symmetric=True, reference="Cramer (1946), Mathematical Methods of "
          "Statistics; " + _MIRKIN, **_ASSOC)
def cramers_v(counts):
    """Cramer's V = sqrt(X^2 / (n (min(K, Q) - 1))), K and Q the non-empty rows and columns.

    V = 1 when one partition is nested in the other (not only when they are identical);
    0 when one of them is a single cluster (and they differ).

    >>> round(float(cramers_v(np.array([[30, 20], [10, 20]]))), 4)
    0.2582
    """
    chi2, n, K, Q = _chi_parts(counts)
    return np.minimum(np.sqrt(ratio(chi2, n * (np.minimum(K, Q) - 1), False, 1.0, 0.0)), 1.0)


@register(name="tschuprow_t", real_counts=True, title="Tschuprow's T", kind="similarity", range=(0.0, 1.0),
          optimum=1.0, symmetric=True, aliases=("tschuprow",),
          reference="Tschuprow (1939), Principles of the Mathematical Theory of Correlation; "
          + _MIRKIN, **_ASSOC)
def tschuprow_t(counts):
    """Tschuprow's T = sqrt(X^2 / (n sqrt((K - 1)(Q - 1)))) (at most 1; 1 needs K = Q).

    >>> round(float(tschuprow_t(np.array([[30, 20, 5], [10, 20, 15]]))), 4)
    0.3162
    """
    chi2, n, K, Q = _chi_parts(counts)
    return np.minimum(np.sqrt(ratio(chi2, n * np.sqrt((K - 1.0) * (Q - 1.0)), False, 1.0, 0.0)),
                      1.0)


_MATCH = dict(family="set matching", vectorised=False)
_BATCHED_MATCH = dict(family="set matching")


@register(name="maximum_match", real_counts=True, title="Maximum-match measure (greedy pairing)",
          kind="similarity", range=(0.0, 1.0), optimum=1.0, symmetric=True,
          aliases=("mmm",), options={"pairing": "greedy"},
          reference="Meila & Heckerman (2001), \"An experimental comparison of model-based "
          "clustering methods\", Machine Learning 42; " + _WAGNER, **_MATCH)
def maximum_match(counts, pairing="greedy"):
    """Maximum-match measure: the share of objects on clusters paired one to one, the pairs
    found greedily (take the largest overlap left, remove its row and column, repeat
    min(K, Q) times). It is 1 - criterion H; ``pairing="optimal"`` gives ``accuracy``.

    (mclustcomp's "mmm" sums the row maxima of the first min(K, Q) rows without removing
    columns, which depends on the order of the rows: not this measure.)

    >>> round(float(maximum_match(np.array([[5, 4], [4, 0]]))), 4)  # greedy 5 + 0 (optimal 4 + 4)
    0.3846
    """
    return 1.0 - criterion_h(counts, pairing=pairing)


def _non_empty(counts, axis):
    """The number of non-empty rows (``axis=-1``) or columns (``axis=-2``) of each table."""
    return (counts.sum(axis=axis) > 0).sum(axis=-1)


def _above_chance(share, M):
    """(share - 1/M) / (1 - 1/M) where M > 1, 0 where M = 1 (one cluster against one)."""
    safe = np.where(M > 1, M, 2)
    return np.where(M > 1, (share - 1.0 / safe) / (1.0 - 1.0 / safe), 0.0)


@register(name="normalized_pivoted_accuracy", real_counts=True, title="Normalised pivoted accuracy (NPA)",
          kind="similarity", range=(0.0, 1.0), optimum=1.0, symmetric=True, aliases=("npa",),
          reference=_GAGOLEWSKI, **_BATCHED_MATCH)
def normalized_pivoted_accuracy(counts):
    """NPA = (A - 1/M) / (1 - 1/M): the accuracy A (the share of objects on the optimal
    one-to-one pairing of clusters, ``accuracy``) above its value 1/M for a table spread
    evenly, M = max(K, Q) (the non-empty rows and columns). A >= 1/M always (the average over
    pairings is 1/M), so NPA is in [0, 1]; one cluster against one cluster is 1.

    Vectorised over a batch: an affine map of the batched accuracy (empty rows and columns
    add nothing to a pairing's total).

    >>> round(float(normalized_pivoted_accuracy(np.array([[1, 10], [8, 2]]))), 4)
    0.7143
    """
    counts = np.asarray(counts)
    M = np.maximum(_non_empty(counts, -1), _non_empty(counts, -2))
    A = best_pairing_totals(counts) / counts.sum(axis=(-2, -1))
    return _above_chance(A, M)


@register(name="normalized_clustering_accuracy", real_counts=True, title="Normalised clustering accuracy (NCA)",
          kind="similarity", range=(-1.0, 1.0), optimum=1.0, symmetric=False, aliases=("nca",),
          reference='Gagolewski, M. (2025), "Normalised clustering accuracy: an asymmetric '
          'external cluster validity measure", Journal of Classification 42; ' + _GAGOLEWSKI,
          **_BATCHED_MATCH)
def normalized_clustering_accuracy(counts):
    """NCA = (R - 1/K) / (1 - 1/K), R = max over one-to-one pairings pi of x's K classes with
    y's clusters of (1/K) sum_i n_i,pi(i) / a_i: the mean recall of the reference classes
    (rows) above 1/K. Asymmetric (x is the reference). The optimal pairing gives a mean recall
    of at least 1/max(K, Q) (the average over pairings), so NCA >= 0 when K >= Q, and it can
    be negative (down to -1/(K - 1)) when y has more clusters than x.

    Vectorised over a batch: the optimal pairing of the row-normalised counts (an empty row
    or column is all zeros there, and adds nothing to a pairing's total), K the non-empty
    rows of each table.

    >>> round(float(normalized_clustering_accuracy(np.array([[1, 10], [8, 2]]))), 4)
    0.7091
    """
    counts = np.asarray(counts)
    a = counts.sum(axis=-1)
    recall = counts / np.where(a > 0, a, 1)[..., None]
    K = (a > 0).sum(axis=-1)
    return _above_chance(best_pairing_totals(recall) / K, K)


def _check_weights(alpha, beta):
    for value, name in ((alpha, "alpha"), (beta, "beta")):
        if check_real(value, name, "a number >= 0") < 0:
            raise ValueError(f"{name} must be >= 0, got {value!r}")


@register(name="overlap", linear=True, title="Overlap coefficient of the pairs "
          "(Szymkiewicz-Simpson)", kind="similarity", range=(0.0, 1.0), optimum=1.0,
          symmetric=True, aliases=("szymkiewicz_simpson",),
          reference="Szymkiewicz (1934); Simpson (1943); " + _WAGNER, **PAIR_COUNTING)
def overlap(P):
    """Overlap (Szymkiewicz-Simpson) coefficient of the pairs together in x and in y:

    O = a11 / min(p, q)

    It is 1 whenever one partition is nested in the other.

    >>> round(ca.agreement([[30, 20], [10, 20]], index="overlap"), 4)
    0.5513
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return ratio(a11, np.minimum(p, q), same, 1.0, 0.0)


@register(name="tversky", title="Tversky index of the pairs", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=False, options={"alpha": 1.0, "beta": 1.0},
          reference='Tversky, A. (1977), "Features of similarity", Psychological Review 84(4)',
          **PAIR_COUNTING)
def tversky(P, alpha=1.0, beta=1.0):
    """Tversky index of the pairs together in x (the first set) and in y:

    TV = a11 / (a11 + alpha a10 + beta a01)

    alpha = beta = 1 is Jaccard (Tanimoto), alpha = beta = 1/2 Czekanowski (Dice); it is
    symmetric only when alpha = beta (swapping x and y swaps alpha and beta).

    >>> round(ca.agreement([[30, 20], [10, 20]], index="tversky", alpha=0.5, beta=0.5), 4)
    0.5342
    """
    _check_weights(alpha, beta)
    a11, a10, a01, a00, p, q, T, n, same = P
    return ratio(a11, a11 + alpha * a10 + beta * a01, same, 1.0, 0.0)


@register(name="partition_difference", linear=True, affine_state=True,
          title="Partition difference (pairs apart in both)", kind="statistic",
          range=(0.0, math.inf), optimum=math.nan, symmetric=True, aliases=("pd",),
          reference="Li, Ogihara & Ma (2004), \"On combining multiple clusterings\", CIKM; "
          + _WAGNER, reflexive=False, **PAIR_COUNTING)
def partition_difference(P):
    """Partition difference: the number of pairs of objects apart in both clusterings,

    PD = a00

    a raw count (no fixed optimum: a statistic); ``rand`` is (a11 + a00) / C(n, 2).

    >>> ca.agreement([[3, 0], [1, 2]], index="partition_difference")
    6.0
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return a00
