"""Pair-counting indices, vectorised over a batch of tables ``(..., K, Q)``.

All are functions of the 2 x 2 table of object pairs (see ``clusteragree.tables``):
``a11`` together in both clusterings, ``a10`` together in x (rows) only, ``a01`` together in
y (columns) only, ``a00`` apart in both; ``T = C(n, 2)``, ``p = a11 + a10`` (pairs together in
x) and ``q = a11 + a01`` (together in y). Given both margins, each is a function of
``s = sum n_ij^2`` alone (``statistic="s"`` in the registry), because a11 = (s - n) / 2.

The paired indices of Amorim (2015) are in its Ch.2 Table 5 and Ch.4 Table 3 (the printed
Ch.4 Table 3 wraps Rand and Gower-Legendre in a square root by mistake). All need n >= 2.
"""

from __future__ import annotations

from operator import mul
from typing import NamedTuple

import numpy as np

from .._docs import cite
from ._common import INT64_SAFE_N, identical, needs_big_integers, ratio
from ._registry import register

__all__ = ["PairState", "pair_state", "real_pair_state", "pair_state_of_pair_counts", "PAIR_COUNTING"]

_AMORIM = cite("amorim2015") + ", Ch.2 Table 5"


class PairState(NamedTuple):
    """Pair counts of a batch of tables (float arrays) and where the partitions are identical."""

    a11: np.ndarray
    a10: np.ndarray
    a01: np.ndarray
    a00: np.ndarray
    p: np.ndarray  # a11 + a10: pairs together in x
    q: np.ndarray  # a11 + a01: pairs together in y
    T: np.ndarray  # C(n, 2)
    n: np.ndarray
    same: np.ndarray  # identical partitions: a10 = a01 = 0


def pair_state(s, rows, cols) -> PairState:
    """Pair counts from s = sum n_ij^2 and the margins (rows (..., K), cols (..., Q)).

    a11 = (s - n)/2, p = (sum a^2 - n)/2, q = (sum b^2 - n)/2, in exact integers when s is
    (int64, or Python integers beyond 2^31 objects, where sums of squares overflow int64), and
    only then turned into floats: every pair count is right to double precision at any n.
    """
    if (isinstance(s, (int, np.signedinteger)) and type(rows) is np.ndarray
            and type(cols) is np.ndarray and rows.ndim == 1 and cols.ndim == 1
            and rows.dtype == np.int64 and cols.dtype == np.int64):  # one table, as counted
        return _one_pair_state(int(s), rows, cols)
    s = np.asarray(s)
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    if s.ndim == 0 and rows.ndim == 1 and cols.ndim == 1 and (
            s.dtype.kind == "i" or s.dtype == object and isinstance(s.item(), int)):
        return _one_pair_state(int(s), rows, cols)
    n = rows.sum(axis=-1)
    if s.dtype == object or needs_big_integers(n):
        rows, cols, n = rows.astype(object), cols.astype(object), n.astype(object)
        p = ((rows * rows).sum(axis=-1) - n) // 2
        q = ((cols * cols).sum(axis=-1) - n) // 2
    else:
        p = (np.einsum("...i,...i->...", rows, rows) - n) // 2
        q = (np.einsum("...j,...j->...", cols, cols) - n) // 2
    if s.dtype == object or np.issubdtype(s.dtype, np.integer):
        a11 = (s - n) // 2
    else:  # a real-valued s (e.g. a null mean) evaluates the formula by continuity
        a11 = (s - n) / 2
    T = n * (n - 1) // 2
    a10, a01 = p - a11, q - a11
    a00 = T - p - q + a11
    same = np.asarray((a10 == 0) & (a01 == 0), dtype=bool)
    f = [np.asarray(v, dtype=float) for v in (a11, a10, a01, a00, p, q, T, n)]
    return PairState(*f, same=np.broadcast_to(same, f[0].shape))


#: Margins of at most this many clusters are summed as Python integers (exact at any n, and
#: cheaper than a numpy reduction's call); longer ones by numpy.
_FEW = 64


def _one_pair_state(s: int, rows: np.ndarray, cols: np.ndarray) -> PairState:
    """``pair_state`` of one table (an integer s, 1-D margins): the exact counts in Python
    integers, then Python floats (``same`` a bool), so that an index of one table is Python
    float arithmetic: the same IEEE operations on the same doubles as the batched form, at a
    fraction of the cost of 0-d arrays."""
    if len(rows) <= _FEW and len(cols) <= _FEW:  # few clusters: Python sums cost less
        r, c = rows.tolist(), cols.tolist()
        n = sum(r)
        p = (sum(map(mul, r, r)) - n) // 2
        q = (sum(map(mul, c, c)) - n) // 2
    else:
        n = int(np.add.reduce(rows))
        if n > INT64_SAFE_N:  # margins' squares beyond int64: exact Python products
            p = (sum(v * v for v in rows.tolist()) - n) // 2
            q = (sum(v * v for v in cols.tolist()) - n) // 2
        else:
            p = (int(rows.dot(rows)) - n) // 2
            q = (int(cols.dot(cols)) - n) // 2
    a11 = (s - n) // 2
    T = n * (n - 1) // 2
    a10, a01 = p - a11, q - a11
    return PairState(float(a11), float(a10), float(a01), float(T - p - q + a11), float(p),
                     float(q), float(T), float(n), a10 == 0 and a01 == 0)


def pair_state_of_pair_counts(a11, p, q, n) -> PairState:
    """The pair state of a batch of tables given by their pair counts, not their cells.

    Parameters
    ----------
    a11, p, q : array-like of int or float
        Pairs together in both partitions, in x and in y (broadcast together); real values
        (a null mean, a mean plus a standard deviation) evaluate an index affine in a11 by
        continuity.
    n : int
        The number of objects (the same for the batch).

    Returns
    -------
    PairState
        The state every index of the pair counts reads (``same``: no pair together in only
        one partition).

    Examples
    --------
    >>> tab = np.array([[30, 20], [10, 20]])
    >>> st = pair_state_of_pair_counts(np.array([(tab * (tab - 1) // 2).sum()]), 1660, 1560, 80)
    >>> float(ca.get_index("rand").func(st)[0]) == float(ca.agreement(tab, index="rand"))
    True
    """
    a11, p, q = np.broadcast_arrays(*(np.asarray(v) for v in (a11, p, q)))
    n = int(n)
    T = n * (n - 1) // 2
    a10, a01 = p - a11, q - a11
    same = (a10 == 0) & (a01 == 0)
    f = [np.asarray(v, dtype=float) for v in (a11, a10, a01, T - p - q + a11, p, q)]
    shape = f[0].shape
    return PairState(*f, np.full(shape, float(T)), np.full(shape, float(n)),
                     same=np.asarray(same, dtype=bool))


def pair_state_of_means(m) -> PairState:
    """The pair state at expected pair counts ``m = {"a11", "p", "q", "n"}`` (a null mean
    under a random model): an index affine in (a11, p, q) with coefficients in n only takes
    its mean there."""
    n = float(m["n"])
    T = n * (n - 1) / 2
    a11, p, q = float(m["a11"]), float(m["p"]), float(m["q"])
    f = [np.asarray(v) for v in (a11, p - a11, q - a11, T - p - q + a11, p, q, T, n)]
    return PairState(*f, same=np.asarray(False))


def real_pair_state(counts) -> PairState:
    """Pair counts of real-valued tables (sums of sample weights), C(m, 2) = m (m - 1) / 2 of
    real m: the state that every index of the pair counts reads (``evaluate_weighted``).

    Parameters
    ----------
    counts : numpy.ndarray
        A table or a batch of tables of non-negative reals, shape ``(..., K, Q)``.

    Returns
    -------
    PairState
        a11 = sum C(n_ij, 2), p = sum C(a_i, 2), q = sum C(b_j, 2), T = C(n, 2), in floats;
        a10 = sum_i sum_(j < j') n_ij n_ij' and a01 likewise (so that they are 0 exactly on
        identical partitions, ``same``, read from where the cells are non-zero).

    Examples
    --------
    >>> P = real_pair_state(np.array([[1.5, 0.5], [0.0, 2.0]]))
    >>> [float(v) for v in (P.a11, P.p, P.q, P.T)]   # a11 = C(1.5, 2) + C(0.5, 2) + C(2, 2)
    [1.25, 2.0, 2.25, 6.0]
    """
    c = np.asarray(counts, dtype=float)
    rows, cols = c.sum(axis=-1), c.sum(axis=-2)
    n = rows.sum(axis=-1)
    s = np.einsum("...ij,...ij->...", c, c)
    sa = np.einsum("...i,...i->...", rows, rows)
    sb = np.einsum("...j,...j->...", cols, cols)
    same = identical(c)
    a11, p, q, T = (s - n) / 2, (sa - n) / 2, (sb - n) / 2, n * (n - 1) / 2
    a10 = np.where(same, 0.0, (sa - s) / 2)
    a01 = np.where(same, 0.0, (sb - s) / 2)
    f = [np.asarray(v, dtype=float) for v in (a11, a10, a01, T - p - q + a11, p, q, T, n)]
    return PairState(*f, same=np.asarray(same))


#: The registry fields every index of the pair counts shares (those of ``association`` too):
#: each is a formula of the pair counts, which real counts define too (``real_pair_state``).
PAIR_COUNTING = dict(family="pair counting", min_n=2, statistic="s", state=pair_state,
                     mean_state=pair_state_of_means, real_counts=True)


@register(name="rand", linear=True, affine_state=True, title="Rand index", kind="similarity", range=(0.0, 1.0), optimum=1.0,
          symmetric=True, aliases=("smc",), reference="Rand (1971); " + _AMORIM, **PAIR_COUNTING)
def rand(P):
    """Rand index: share of pairs on which the two clusterings agree.

    R = (a11 + a00) / T

    >>> ca.agreement([[30, 20], [10, 20]], index="rand")  # Amorim (2015), Table 6a: .5253
    0.5253164556962026
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return (a11 + a00) / T


@register(name="adjusted_rand", linear=True, title="Adjusted Rand index (Hubert & Arabie)", kind="similarity",
          range=(-1.0, 1.0), optimum=1.0, symmetric=True, aliases=("ari", "adjrand"),
          reference="Hubert & Arabie (1985)", **PAIR_COUNTING)
def adjusted_rand(P):
    """Hubert-Arabie adjusted Rand index: Rand corrected by its exact mean under fixed margins.

    ARI = (a11 - p q / T) / ((p + q) / 2 - p q / T)

    >>> round(ca.agreement([[30, 20], [10, 20]], index="adjusted_rand"), 5)
    0.05124
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    expected = p * q / T
    return ratio(a11 - expected, (p + q) / 2 - expected, same, 1.0, 0.0)


@register(name="russel_rao", reflexive=False, linear=True, affine_state=True, title="Russel & Rao", kind="similarity", range=(0.0, 1.0),
          optimum=1.0, symmetric=True, aliases=("russell_rao",),
          reference="Russel & Rao (1940); Albatineh et al. (2006)", **PAIR_COUNTING)
def russel_rao(P):
    """Russel-Rao: share of all pairs that are together in both clusterings.

    RR = a11 / T   (its maximum, for identical clusterings, is p / T, not 1)
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return a11 / T


@register(name="gower_legendre", title="Gower & Legendre", kind="similarity", range=(0.0, 1.0),
          optimum=1.0, symmetric=True, reference="Gower & Legendre (1986); " + _AMORIM,
          **PAIR_COUNTING)
def gower_legendre(P):
    """Gower-Legendre: Rand with disagreements counted half.

    GL = (a11 + a00) / (a11 + a00 + (a10 + a01) / 2) = 2R / (1 + R)

    >>> round(ca.agreement([[30, 20], [10, 20]], index="gower_legendre"), 4)  # Amorim (2015): .6888
    0.6888
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return (a11 + a00) / (a11 + a00 + 0.5 * (a10 + a01))


@register(name="jaccard", title="Jaccard", kind="similarity", range=(0.0, 1.0), optimum=1.0,
          symmetric=True, aliases=("tanimoto",), reference="Jaccard (1908); " + _AMORIM,
          **PAIR_COUNTING)
def jaccard(P):
    """Jaccard: pairs together in both, among pairs together in either.

    J = a11 / (a11 + a10 + a01) = C / (2 - C)

    >>> round(ca.agreement([[30, 20], [10, 20]], index="jaccard"), 4)  # Amorim (2015): .3644
    0.3644
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return ratio(a11, a11 + a10 + a01, same, 1.0, 0.0)


@register(name="czekanowski", linear=True, title="Czekanowski (Dice, Sorensen)", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=True, aliases=("dice", "sorensen", "sdc"),
          reference="Czekanowski (1932); " + _AMORIM, **PAIR_COUNTING)
def czekanowski(P):
    """Czekanowski (Dice, Sorensen-Dice):

    C = 2 a11 / (2 a11 + a10 + a01)

    >>> round(ca.agreement([[30, 20], [10, 20]], index="czekanowski"), 4)  # Amorim (2015): .5342
    0.5342
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return ratio(2 * a11, 2 * a11 + a10 + a01, same, 1.0, 0.0)


@register(name="goodman_kruskal", title="Goodman & Kruskal (Yule's Q of the pair table)",
          kind="similarity", range=(-1.0, 1.0), optimum=1.0, symmetric=True, aliases=("yule_q",),
          reference="Goodman & Kruskal (1954); " + _AMORIM, **PAIR_COUNTING)
def goodman_kruskal(P):
    """Goodman-Kruskal gamma of the 2 x 2 pair table (Yule's Q):

    GK = (a11 a00 - a10 a01) / (a11 a00 + a10 a01)

    Its null mean is not exactly 0 (Amorim (2015) argues that it is, but by a plug-in
    approximation).
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return ratio(a11 * a00 - a10 * a01, a11 * a00 + a10 * a01, same, 1.0, 0.0)


@register(name="sokal_sneath", title="Sokal & Sneath", kind="similarity", range=(0.0, 1.0),
          optimum=1.0, symmetric=True, aliases=("sos",),
          reference="Sokal & Sneath (1963); " + _AMORIM, **PAIR_COUNTING)
def sokal_sneath(P):
    """Sokal-Sneath (SoS of Amorim (2015); the numerator is a11 a00):

    SoS = a11 a00 / sqrt(p q (a00 + a10) (a00 + a01))

    >>> round(ca.agreement([[30, 20], [10, 20]], index="sokal_sneath"), 4)  # Amorim (2015): .2760
    0.276
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return ratio(a11 * a00, np.sqrt(p * q * (a00 + a10) * (a00 + a01)), same, 1.0, 0.0)


@register(name="sokal_sneath2", title="Sokal & Sneath (2)", kind="similarity", range=(0.0, 1.0),
          optimum=1.0, symmetric=True, aliases=("ss2",),
          reference="Sokal & Sneath (1963); " + _AMORIM, **PAIR_COUNTING)
def sokal_sneath2(P):
    """Sokal-Sneath (2): disagreements counted double.

    SS2 = a11 / (a11 + 2 (a10 + a01))
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return ratio(a11, a11 + 2 * (a10 + a01), same, 1.0, 0.0)


@register(name="fowlkes_mallows", linear=True, title="Fowlkes & Mallows", kind="similarity", range=(0.0, 1.0),
          optimum=1.0, symmetric=True, aliases=("fm", "fmi"),
          reference="Fowlkes & Mallows (1983); " + _AMORIM, **PAIR_COUNTING)
def fowlkes_mallows(P):
    """Fowlkes-Mallows: geometric mean of the two Wallace indices.

    FM = a11 / sqrt(p q)

    If exactly one clustering is all singletons FM is 0; if both are, 1 (scikit-learn gives 0).
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return ratio(a11, np.sqrt(p * q), same, 1.0, 0.0)


@register(name="wallace_x", linear=True, title="Wallace (pairs together in x)", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=False, aliases=("wallace", "wallace1"),
          reference="Wallace (1983)", **PAIR_COUNTING)
def wallace_x(P):
    """Wallace index from x to y: of the pairs together in x, the share also together in y.

    W_x = a11 / p
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return ratio(a11, p, same, 1.0, 0.0)


@register(name="wallace_y", linear=True, title="Wallace (pairs together in y)", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=False, aliases=("wallace2",),
          reference="Wallace (1983)", **PAIR_COUNTING)
def wallace_y(P):
    """Wallace index from y to x: of the pairs together in y, the share also together in x.

    W_y = a11 / q
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return ratio(a11, q, same, 1.0, 0.0)


@register(name="mirkin", linear=True, affine_state=True, title="Mirkin metric (normalised by n^2)", kind="distance",
          range=(0.0, 1.0), optimum=0.0, symmetric=True,
          reference="Mirkin (1996); Meila (2007)", **PAIR_COUNTING)
def mirkin(P):
    """Mirkin metric divided by n^2: disagreeing ordered pairs.

    M = 2 (a10 + a01) / n^2 = (sum n_k+^2 + sum n_+q^2 - 2 sum n_kq^2) / n^2 = (1 - R)(n - 1)/n
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return 2 * (a10 + a01) / (n * n)


@register(name="hubert_gamma", linear=True, title="Hubert's Gamma (pair-table correlation)",
          kind="similarity", range=(-1.0, 1.0), optimum=1.0, symmetric=True, aliases=("phi",),
          reference="Hubert (1977); Jain & Dubes (1988)", **PAIR_COUNTING)
def hubert_gamma(P):
    """Normalised Hubert Gamma: the correlation (phi) of the two pair-membership indicators.

    G = (a11 a00 - a10 a01) / sqrt(p q (T - p) (T - q))
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return ratio(a11 * a00 - a10 * a01, np.sqrt(p * q * (T - p) * (T - q)), same, 1.0, 0.0)


@register(name="kulczynski", linear=True, title="Kulczynski", kind="similarity", range=(0.0, 1.0),
          optimum=1.0, symmetric=True, reference="Kulczynski (1927); Albatineh et al. (2006)",
          **PAIR_COUNTING)
def kulczynski(P):
    """Kulczynski: arithmetic mean of the two Wallace indices.

    K = (a11 / p + a11 / q) / 2
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return ratio(a11 * (p + q), 2 * p * q, same, 1.0, 0.0)


@register(name="mcconnaughey", linear=True, title="McConnaughey", kind="similarity", range=(-1.0, 1.0),
          optimum=1.0, symmetric=True,
          reference="McConnaughey (1964); Albatineh et al. (2006)", **PAIR_COUNTING)
def mcconnaughey(P):
    """McConnaughey:

    MC = (a11^2 - a10 a01) / (p q) = W_x + W_y - 1
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return ratio(a11 * a11 - a10 * a01, p * q, same, 1.0, 0.0)


@register(name="peirce", linear=True, title="Peirce", kind="similarity", range=(-1.0, 1.0), optimum=1.0,
          symmetric=False, reference="Peirce (1884); Albatineh et al. (2006)", **PAIR_COUNTING)
def peirce(P):
    """Peirce's skill score, y taken as the reference for pairs:

    PE = (a11 a00 - a10 a01) / (q (T - q))
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return ratio(a11 * a00 - a10 * a01, q * (T - q), same, 1.0, 0.0)


@register(name="rogers_tanimoto", title="Rogers & Tanimoto", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=True,
          reference="Rogers & Tanimoto (1960); Albatineh et al. (2006)", **PAIR_COUNTING)
def rogers_tanimoto(P):
    """Rogers-Tanimoto: Rand with disagreements counted double.

    RT = (a11 + a00) / (a11 + a00 + 2 (a10 + a01))
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return (a11 + a00) / (a11 + a00 + 2 * (a10 + a01))


@register(name="hamann", linear=True, affine_state=True, title="Hamann", kind="similarity", range=(-1.0, 1.0), optimum=1.0,
          symmetric=True, reference="Hamann (1961); Albatineh et al. (2006)", **PAIR_COUNTING)
def hamann(P):
    """Hamann: agreements minus disagreements, per pair.

    H = (a11 + a00 - a10 - a01) / T = 2R - 1
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return (a11 + a00 - a10 - a01) / T


@register(name="s_cohen", linear=True, title="Cohen's kappa of the pair table", kind="similarity",
          range=(-1.0, 1.0), optimum=1.0, symmetric=True,
          reference="Cohen (1960); Warrens (2008): equals the adjusted Rand index", **PAIR_COUNTING)
def s_cohen(P):
    """Cohen's kappa of the 2 x 2 pair table (equal to the Hubert-Arabie adjusted Rand index):

    S_Cohen = 2 (a11 a00 - a10 a01) / (p (T - q) + q (T - p))
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    return ratio(2 * (a11 * a00 - a10 * a01), p * (T - q) + q * (T - p), same, 1.0, 0.0)


@register(name="morey_agresti", linear=True, title="Adjusted Rand index (Morey & Agresti)", kind="similarity",
          range=(-1.0, 1.0), optimum=1.0, symmetric=True,
          reference="Morey & Agresti (1984); Hubert & Arabie (1985)", **PAIR_COUNTING)
def morey_agresti(P):
    """Morey-Agresti adjusted Rand index: E[sum n_kq^2] approximated by
    e = sum n_k+^2 sum n_+q^2 / n^2 (the multinomial plug-in), so

    ARI_MA = (sum n_kq^2 - e) / ((sum n_k+^2 + sum n_+q^2) / 2 - e)
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    s, r, c = 2 * a11 + n, 2 * p + n, 2 * q + n  # sums of squares of cells, rows, columns
    e = r * c / (n * n)
    return ratio(s - e, (r + c) / 2 - e, same, 1.0, 0.0)


@register(name="adjusted_fowlkes_mallows", linear=True, title="Adjusted Fowlkes & Mallows",
          kind="similarity", range=(-1.0, 1.0), optimum=1.0, symmetric=True, aliases=("afm",),
          reference="Fowlkes & Mallows (1983); Albatineh et al. (2006)", **PAIR_COUNTING)
def adjusted_fowlkes_mallows(P):
    """Fowlkes-Mallows corrected by its exact mean under fixed margins, E[a11] = p q / T:

    AFM = (a11 - p q / T) / (sqrt(p q) - p q / T)
    """
    a11, a10, a01, a00, p, q, T, n, same = P
    expected = p * q / T
    return ratio(a11 - expected, np.sqrt(p * q) - expected, same, 1.0, 0.0)
