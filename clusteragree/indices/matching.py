"""Set-matching indices: clusters are matched or paired, then their overlaps are counted.

Following Rezaei & Franti (2016), with x (rows) the reference classes and y (columns)
the clustering, n_kq the overlaps, a_k = n_k+ and b_q = n_+q:

    purity          = (1/n) sum_q max_k n_kq      (each cluster matched to its best class)
    inverse_purity  = (1/n) sum_k max_q n_kq
    f_measure       = sum_k (a_k/n) max_q 2 n_kq / (a_k + b_q)   (Larsen & Aone 1999; the "FM"
                      of Rezaei & Franti is this F-measure, not Fowlkes-Mallows)
    van_dongen      = (2n - sum_k max_q n_kq - sum_q max_k n_kq) / (2n)   (normalised, NVD)
    criterion_h     = 1 - (1/n) sum over paired clusters of n_kq  (greedy or optimal pairing)
    accuracy        = (1/n) sum over optimally paired clusters of n_kq
    kappa           = Cohen's kappa of the table after optimal matching
    psi             = (S - E) / (max(K, Q) - E), S = sum over optimal pairs of n_kq/max(a_k, b_q)

Pairings use ``scipy.optimize.linear_sum_assignment``. Indices built on a pairing are evaluated
table by table (``vectorised=False`` in the registry); the others are vectorised.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment

from .._validate import check_choice
from ._common import per_table
from ._registry import register

_MATCH = dict(family="set matching")
_REZAEI = ('Rezaei, M. & Franti, P. (2016), "Set matching measures for external cluster '
           'validity", IEEE Transactions on Knowledge and Data Engineering 28(8)')


def best_pairing_total(weights: np.ndarray) -> float:
    """Largest total weight of a one-to-one pairing of rows and columns."""
    r, c = linear_sum_assignment(weights, maximize=True)
    return float(weights[r, c].sum())


def _greedy_pairing_total(weights: np.ndarray) -> float:
    """Greedy pairing: take the largest remaining cell, remove its row and column, repeat."""
    order = np.argsort(-weights, axis=None, kind="stable")
    K, Q = weights.shape
    used_r, used_c = np.zeros(K, bool), np.zeros(Q, bool)
    total, left = 0.0, min(K, Q)
    for flat in order:
        r, c = divmod(int(flat), Q)
        if not (used_r[r] or used_c[c]):
            used_r[r] = used_c[c] = True
            total += float(weights[r, c])
            left -= 1
            if left == 0:
                break
    return total


def _n(counts):
    return counts.sum(axis=(-2, -1)).astype(float)


@register(name="purity", title="Purity (of y's clusters w.r.t. x's classes)", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=False,
          reference="Zhao & Karypis (2001); " + _REZAEI, **_MATCH)
def purity(counts):
    """Purity = (1/n) sum_q max_k n_kq: each cluster of y is matched to its largest class of x.

    >>> float(purity(np.array([[3, 0], [1, 2]])))
    0.8333333333333334
    """
    return counts.max(axis=-2).sum(axis=-1) / _n(counts)


@register(name="inverse_purity", title="Inverse purity (of x's classes w.r.t. y's clusters)",
          kind="similarity", range=(0.0, 1.0), optimum=1.0, symmetric=False, aliases=("mhm",),
          reference="Amigo et al. (2009); " + _REZAEI, **_MATCH)
def inverse_purity(counts):
    """Inverse purity = (1/n) sum_k max_q n_kq (purity with the roles of x and y swapped).

    It is also the "Meila-Heckerman measure" of Wagner & Wagner (2007, "Comparing
    clusterings - an overview") and of mclustcomp ("mhm"), x the clustering compared with the
    classes y."""
    return counts.max(axis=-1).sum(axis=-1) / _n(counts)


@register(name="f_measure", title="F-measure (class-weighted best match)", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=False, options={"reference": "x"},
          reference="Larsen & Aone (1999); " + _REZAEI, **_MATCH)
def f_measure(counts, reference="x"):
    """F = sum_k (a_k/n) max_q F_kq with F_kq = 2 n_kq / (a_k + b_q), the harmonic mean of
    precision n_kq/b_q and recall n_kq/a_k. ``reference="x"`` (default) takes the rows as the
    classes; ``reference="y"`` the columns.

    >>> round(float(f_measure(np.array([[3, 0], [1, 2]]))), 4)
    0.8286
    """
    check_choice(reference, "reference", ("x", "y"))
    if reference == "y":
        counts = np.swapaxes(counts, -1, -2)
    a = counts.sum(axis=-1).astype(float)
    b = counts.sum(axis=-2).astype(float)
    both = a[..., :, None] + b[..., None, :]
    f = 2 * counts / np.where(both > 0, both, 1.0)  # an empty class and cluster share nothing
    return (a * f.max(axis=-1)).sum(axis=-1) / _n(counts)


@register(name="van_dongen", title="Van Dongen distance (normalised, NVD)", kind="distance",
          range=(0.0, 1.0), optimum=0.0, symmetric=True, aliases=("nvd",),
          reference="van Dongen (2000); " + _REZAEI, **_MATCH)
def van_dongen(counts):
    """NVD = (2n - sum_k max_q n_kq - sum_q max_k n_kq) / (2n)."""
    best = counts.max(axis=-1).sum(axis=-1) + counts.max(axis=-2).sum(axis=-1)
    n = _n(counts)
    return (2 * n - best) / (2 * n)


@register(name="van_dongen_similarity", title="Van Dongen similarity (1 - NVD)",
          kind="similarity", range=(0.0, 1.0), optimum=1.0, symmetric=True,
          reference="van Dongen (2000); " + _REZAEI, **_MATCH)
def van_dongen_similarity(counts):
    """1 - NVD = (sum_k max_q n_kq + sum_q max_k n_kq) / (2n)."""
    return 1.0 - van_dongen(counts)


@register(name="criterion_h", title="Criterion H (Meila & Heckerman)", kind="distance",
          range=(0.0, 1.0), optimum=0.0, symmetric=True, options={"pairing": "greedy"},
          reference="Meila & Heckerman (2001); " + _REZAEI, vectorised=False, **_MATCH)
def criterion_h(counts, pairing="greedy"):
    """H = 1 - (1/n) sum_(k,q) paired n_kq. ``pairing="greedy"`` (the original: repeatedly pair
    the largest remaining overlap) or ``"optimal"`` (largest total overlap)."""
    check_choice(pairing, "pairing", ("greedy", "optimal"))
    pair = _greedy_pairing_total if pairing == "greedy" else best_pairing_total
    return 1.0 - per_table(counts, pair) / _n(counts)


@register(name="accuracy", title="Accuracy after optimal matching", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=True, aliases=("matching_accuracy",),
          reference="Meila & Heckerman (2001); " + _REZAEI, vectorised=False, **_MATCH)
def accuracy(counts):
    """Accuracy = (1/n) max over one-to-one pairings of sum n_kq (= 1 - criterion H with
    optimal pairing).

    >>> float(accuracy(np.array([[1, 4], [3, 0]])))
    0.875
    """
    return per_table(counts, best_pairing_total) / _n(counts)


def _matched_square(table: np.ndarray, matching) -> np.ndarray:
    """Columns of ``table`` summed onto the rows they are matched to: a K x K table."""
    K, Q = table.shape
    out = np.zeros((K, K), dtype=table.dtype)
    np.add.at(out.T, matching, table.T)
    return out


def _check_matching(matching, K: int, Q: int) -> np.ndarray:
    m = np.asarray(matching)
    if m.ndim != 1 or len(m) != Q or not np.issubdtype(m.dtype, np.integer):
        raise ValueError(
            f"matching must give, for each of the {Q} columns, the row (0..{K - 1}) it is "
            f"matched to; got {matching!r}"
        )
    if m.min() < 0 or m.max() >= K:
        raise ValueError(f"matching must hold row positions 0..{K - 1}, got {m.tolist()}")
    return m


@register(name="kappa", title="Cohen's kappa after optimal matching", kind="similarity",
          range=(-1.0, 1.0), optimum=1.0, symmetric=True, options={"matching": None},
          reference="Cohen (1960); Reilly et al. (2005)", vectorised=False, **_MATCH)
def kappa(counts, matching=None):
    """Cohen's kappa (p_o - p_e) / (1 - p_e) of the square table obtained by matching.

    With ``matching=None`` the table must be square (K = Q) and its columns are permuted to the
    one-to-one matching of largest agreement (trace); among tied matchings, the one with the
    smallest chance agreement, so that relabelling clusters never changes kappa. Otherwise ``matching[q]`` is the row that
    column q is matched to; columns matched to the same row are merged (so K != Q is allowed).
    """
    K, Q = counts.shape[-2:]
    if matching is None:
        if K != Q:
            raise ValueError(
                f"kappa needs as many clusters in x as in y (got a {K} x {Q} table); pass "
                "matching=[row of column 0, row of column 1, ...] to merge columns onto rows"
            )
    else:
        matching = _check_matching(matching, K, Q)

    def one(table):
        if matching is None:
            # Largest agreement first; among equally large matchings the one with the smallest
            # chance agreement sum a_k b_q (so the result does not depend on cluster order).
            n2 = float(table.sum()) ** 2
            a, b = table.sum(axis=1), table.sum(axis=0)
            r, c = linear_sum_assignment(table - np.outer(a, b) / (n2 + 1.0), maximize=True)
            sq = table[r][:, c]
        else:
            sq = _matched_square(table, matching)
        n = float(sq.sum())
        po = np.trace(sq) / n
        pe = float((sq.sum(axis=1) * sq.sum(axis=0)).sum()) / (n * n)
        return (po - pe) / (1 - pe) if pe != 1 else np.nan

    values = per_table(counts, one)
    # p_e = 1 only when both clusterings are one single cluster: identical, kappa = 1.
    return np.where(np.isnan(values), 1.0, values)


def _nonempty(table):
    """The table without empty rows and columns (clusters with no object)."""
    return table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]


def _psi_one(table, simplified: bool, clip: bool) -> float:
    table = _nonempty(table)
    a = table.sum(axis=1).astype(float)
    b = table.sum(axis=0).astype(float)
    K, Q = table.shape
    if K == 1 and Q == 1:
        return 1.0
    similarity = table / np.maximum(a[:, None], b[None, :])  # Braun-Banquet
    S = best_pairing_total(similarity)
    if simplified:
        E = 1.0
    else:
        m = min(K, Q)
        E = float(np.minimum(np.sort(a)[::-1][:m], np.sort(b)[::-1][:m]).sum()) / a.sum()
    value = (S - E) / (max(K, Q) - E)
    return max(value, 0.0) if clip else value


@register(name="psi", title="Pair sets index (PSI)", kind="similarity", range=(0.0, 1.0),
          optimum=1.0, symmetric=True, options={"simplified": False, "clip": True},
          reference=_REZAEI, vectorised=False, **_MATCH)
def psi(counts, simplified=False, clip=True):
    """Pair sets index of Rezaei & Franti (2016, eqs 14-20).

    S = max over one-to-one pairings of sum n_kq / max(a_k, b_q) (Braun-Banquet similarity),
    E = sum_r min(a_(r), b_(r)) / n with both size lists sorted in decreasing order (the
    similarity of the expected table, which the paper calls the expected value: it is not the
    null mean of S, so PSI is slightly positive on random partitions),
    PSI = (S - E) / (max(K, Q) - E) if S >= E, 0 if S < E (``clip=False`` keeps the negative
    value), 1 if K = Q = 1. ``simplified=True`` takes E = 1 (the metric form, eq 20).

    >>> round(float(psi(np.array([[40, 0], [5, 35]]))), 4)  # (1.7639 - 0.9375) / (2 - 0.9375)
    0.7778
    """
    if not isinstance(simplified, bool) or not isinstance(clip, bool):
        raise TypeError("simplified and clip must be True or False")
    return per_table(counts, lambda t: _psi_one(t, simplified, clip))


@register(name="psi_distance", title="Pair sets index, distance form (1 - PSI)",
          kind="distance", range=(0.0, 1.0), optimum=0.0, symmetric=True,
          options={"simplified": False}, reference=_REZAEI, vectorised=False, **_MATCH)
def psi_distance(counts, simplified=False):
    """1 - PSI (Rezaei & Franti 2016, eq 19; with ``simplified=True`` a metric, eq 20)."""
    return 1.0 - psi(counts, simplified=simplified, clip=True)
