"""Information-theoretic indices, vectorised over a batch of tables ``(..., K, Q)``.

With p_kq = n_kq / n, a_k = n_k+, b_q = n_+q (natural logs unless ``base=`` is given):

    H(x)   = - sum_k (a_k/n) log(a_k/n)          H(y) likewise on the columns
    H(x,y) = - sum_kq p_kq log p_kq
    MI     = sum_kq p_kq log(n n_kq / (a_k b_q))  (Amorim 2015, Ch.5 eq 4; Ch.1 eq 2 is garbled)
    VI     = H(x) + H(y) - 2 MI                  (Meila 2007)

Given both margins, every index here is a function of t = sum n_kq log n_kq alone
(``statistic="t"`` in the registry). The normalised mutual informations follow {ref:amorim2015}
(NMI1 = MI/min H, NMI2 = MI/sqrt(H H), NMI3 = 2 MI/(H + H), MIH = MI/H(x, y)).
The expected mutual information under fixed margins (Vinh, Epps & Bailey 2010) is exact; see
``expected_mutual_info``.
"""

from __future__ import annotations

import math

import numpy as np

from typing import NamedTuple

from .._docs import fill
from .._moments.cells import expected_mutual_information, expected_mutual_information_batch
from .._validate import check_choice
from ._common import identical, ratio, sum_xlogx, xlogx
from ._registry import register

__doc__ = fill(__doc__)

__all__ = ["InfoState", "info_state", "real_info_state", "entropies", "expected_mutual_info", "log_base"]

_VINH = "Vinh, Epps & Bailey (2010)"
#: Differences of MI and E[MI] below this (relative) are rounding, not information.
AMI_RTOL = 1e-12
_AVERAGES = ("arithmetic", "geometric", "min", "max")


def log_base(base) -> float:
    """log(base), the divisor that turns nats into units of ``base`` (1 for None: nats)."""
    if base is None:
        return 1.0
    if isinstance(base, bool) or not isinstance(base, (int, float)) or not math.isfinite(base):
        raise TypeError(f"base must be a positive number other than 1 (or None), got {base!r}")
    if base <= 0 or base == 1:
        raise ValueError(f"base must be a positive number other than 1, got {base!r}")
    return math.log(base)


class InfoState(NamedTuple):
    """Entropies (nats) and mutual information of a batch of tables, from t and the margins."""

    hx: np.ndarray
    hy: np.ndarray
    hxy: np.ndarray
    mi: np.ndarray
    n: np.ndarray
    same: np.ndarray  # identical partitions: t = sum a log a = sum b log b
    rows: np.ndarray
    cols: np.ndarray


#: Relative tolerance for recognising identical partitions from t (t <= sum a log a always,
#: with equality exactly when every row of the table has a single non-zero cell).
SAME_RTOL = 1e-12


def _entropy_of_sizes(sizes, n):
    p = np.asarray(sizes, dtype=float) / np.asarray(n, dtype=float)[..., None]
    return -xlogx(p).sum(axis=-1)


def info_state(t, rows, cols) -> InfoState:
    """Entropies and MI from t = sum n_kq log n_kq and the margins:

    H(x, y) = log n - t/n,  MI = (t - sum a log a - sum b log b + n log n) / n.
    """
    rows = np.asarray(rows, dtype=np.int64)
    cols = np.asarray(cols, dtype=np.int64)
    return _state_of(np.asarray(t, dtype=float), rows, cols, None)


def real_info_state(counts) -> InfoState:
    """Entropies and MI of real-valued tables (sums of sample weights), from their cells and
    margins as ``info_state`` has them from integer ones: the state that every information
    index reads (``evaluate_weighted``).

    Parameters
    ----------
    counts : numpy.ndarray
        A table or a batch of tables of non-negative reals, shape ``(..., K, Q)``.

    Returns
    -------
    InfoState
        H(x), H(y), H(x, y), MI (nats) and n (the total weight); ``same`` read from where the
        cells are non-zero; the margins as floats.

    Examples
    --------
    >>> S = real_info_state(np.array([[1.5, 0.5], [0.0, 2.0]]))
    >>> round(float(S.hx), 6), round(float(S.mi), 6)    # H(x) = log 2: two rows of weight 2
    (0.693147, 0.380396)
    """
    c = np.asarray(counts, dtype=float)
    t = xlogx(c).reshape(c.shape[:-2] + (-1,)).sum(axis=-1)  # as ``sum_xlogx`` sums them
    return _state_of(t, c.sum(axis=-1), c.sum(axis=-2), identical(c))


def _state_of(t, rows, cols, same) -> InfoState:
    """``info_state`` from t and margins (int64, or floats for real counts); ``same`` None:
    read from t, which equals sum a log a = sum b log b exactly on identical partitions."""
    n = rows.sum(axis=-1).astype(float)
    sa = xlogx(rows).sum(axis=-1)
    sb = xlogx(cols).sum(axis=-1)
    hx, hy = _entropy_of_sizes(rows, n), _entropy_of_sizes(cols, n)
    hxy = np.maximum(np.log(n) - t / n, 0.0)
    mi = np.maximum((t - sa - sb + n * np.log(n)) / n, 0.0)
    if same is None:
        tol = SAME_RTOL * np.maximum(np.maximum(np.abs(sa), np.abs(sb)), 1.0)
        same = (np.abs(t - sa) <= tol) & (np.abs(t - sb) <= tol)
    shape = np.broadcast(t, n).shape
    fit = (lambda v: v) if all(np.shape(v) == shape for v in (hx, hy, n)) else (
        lambda v: np.broadcast_to(v, shape))
    return InfoState(*(fit(v) for v in (hx, hy, hxy, mi, n, same)), rows=rows, cols=cols)


def entropies(counts):
    """H(x), H(y), H(x, y) and MI of each table of a batch, in nats.

    >>> [round(float(v), 4) for v in entropies(np.array([[30, 20], [10, 20]]))]
    [0.6616, 0.6931, 1.3209, 0.0338]
    """
    st = info_state(sum_xlogx(counts), counts.sum(axis=-1), counts.sum(axis=-2))
    return st.hx, st.hy, st.hxy, st.mi


def _average(hx, hy, average):
    check_choice(average, "average", _AVERAGES)
    if average == "arithmetic":
        return (hx + hy) / 2
    if average == "geometric":
        return np.sqrt(hx * hy)
    if average == "min":
        return np.minimum(hx, hy)
    return np.maximum(hx, hy)


def expected_mutual_info(row_sums, col_sums) -> float:
    """Exact E[MI] (nats) over all tables with the given margins (generalized hypergeometric
    null; Vinh et al. 2010; Amorim 2015, eq. 4).

    Each cell n_ij is Hypergeom(n, a_i, b_j); the sum runs over the part of its support whose
    probability is not negligible in double precision (``clusteragree._moments.cells``), once per
    distinct pair of margins: far fewer terms than summing every admissible value.

    >>> round(expected_mutual_info([50, 30], [40, 40]), 6)   # Amorim (2015), Table 6a margins
    0.006381
    """
    return expected_mutual_information(row_sums, col_sums)


def _expected_mi_batch(rows, cols, shape) -> np.ndarray:
    """E[MI] for each table of a batch (margins (..., K) and (..., Q)): a batch that shares its
    margins (Patefield tables, permutations) costs one E[MI]; one whose margins vary (a
    bootstrap, random partitions) sums each distinct pair of cluster sizes once."""
    if rows.ndim == 1 and cols.ndim == 1:
        return np.full(shape, expected_mutual_information(rows, cols))
    rows = np.broadcast_to(rows, shape + rows.shape[-1:]).reshape(-1, rows.shape[-1])
    cols = np.broadcast_to(cols, shape + cols.shape[-1:]).reshape(-1, cols.shape[-1])
    if (rows == rows[0]).all() and (cols == cols[0]).all():
        return np.full(shape, expected_mutual_information(rows[0], cols[0]))
    return expected_mutual_information_batch(rows, cols).reshape(shape)


# -- entropies and mutual information -------------------------------------------------------

def info_state_of_means(m) -> InfoState:
    """The information state at expected entropies ``m = {"hx", "hy", "mi", "n"}`` (nats; a
    null mean under a random model): an index affine in H(x), H(y) and MI with coefficients in
    n only takes its mean there."""
    hx, hy, mi = (np.asarray(float(m[k])) for k in ("hx", "hy", "mi"))
    return InfoState(hx, hy, hx + hy - mi, mi, np.asarray(float(m["n"])), np.asarray(False),
                     rows=None, cols=None)


_INFO = dict(family="information", statistic="t", state=info_state,
             mean_state=info_state_of_means)

@register(name="entropy_x", real_counts=True, reflexive=False, linear=True, affine_state=True, title="Entropy of x (rows)", kind="statistic",
          range=(0.0, math.inf), optimum=math.nan, symmetric=False, options={"base": None},
          reference="Shannon (1948)", **_INFO)
def entropy_x(S, base=None):
    """Entropy of the row clustering: H(x) = - sum_k (n_k+/n) log(n_k+/n)."""
    return S.hx / log_base(base)


@register(name="entropy_y", real_counts=True, reflexive=False, linear=True, affine_state=True, title="Entropy of y (columns)", kind="statistic",
          range=(0.0, math.inf), optimum=math.nan, symmetric=False, options={"base": None},
          reference="Shannon (1948)", **_INFO)
def entropy_y(S, base=None):
    """Entropy of the column clustering: H(y) = - sum_q (n_+q/n) log(n_+q/n)."""
    return S.hy / log_base(base)


@register(name="joint_entropy", real_counts=True, reflexive=False, linear=True, affine_state=True, title="Joint entropy", kind="statistic", range=(0.0, math.inf),
          optimum=math.nan, symmetric=True, options={"base": None}, reference="Shannon (1948)",
          **_INFO)
def joint_entropy(S, base=None):
    """Joint entropy H(x, y) = - sum_kq (n_kq/n) log(n_kq/n)."""
    return S.hxy / log_base(base)


@register(name="mutual_info", real_counts=True, reflexive=False, linear=True, affine_state=True, title="Mutual information", kind="similarity",
          range=(0.0, math.inf), optimum=math.inf, symmetric=True, aliases=("mi",),
          options={"base": None}, reference="Amorim (2015), Ch.5 eq 4; " + _VINH, **_INFO)
def mutual_info(S, base=None):
    """Mutual information MI = sum_kq (n_kq/n) log(n n_kq / (n_k+ n_+q)); its maximum is
    min(H(x), H(y)), so it has no fixed optimum (adjust it with ``max=``)."""
    return S.mi / log_base(base)


def _nmi(S, den_of):
    return np.minimum(ratio(S.mi, den_of(S.hx, S.hy, S.hxy), S.same, 1.0, 0.0), 1.0)


@register(name="nmi_min", real_counts=True, linear=True, title="NMI, normalised by min H (NMI1)", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=True, aliases=("nmi1",),
          reference="Strehl & Ghosh (2002); Amorim (2015), Table 3", **_INFO)
def nmi_min(S):
    """NMI1 = MI / min(H(x), H(y)).

    >>> round(ca.agreement([[30, 20], [10, 20]], index="nmi_min"), 4)   # Amorim (2015): .0511
    0.0511
    """
    return _nmi(S, lambda hx, hy, hxy: np.minimum(hx, hy))


@register(name="nmi_sqrt", real_counts=True, linear=True, title="NMI, normalised by sqrt(H H) (NMI2)", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=True, aliases=("nmi2", "nmi_geometric"),
          reference="Strehl & Ghosh (2002); Amorim (2015), Table 3", **_INFO)
def nmi_sqrt(S):
    """NMI2 = MI / sqrt(H(x) H(y))."""
    return _nmi(S, lambda hx, hy, hxy: np.sqrt(hx * hy))


@register(name="nmi_sum", real_counts=True, linear=True, title="NMI, normalised by (H + H)/2 (NMI3)", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=True,
          aliases=("nmi", "nmi3", "nmi_arithmetic"),
          reference="Fred & Jain (2003); Amorim (2015), Table 3", **_INFO)
def nmi_sum(S):
    """NMI3 = 2 MI / (H(x) + H(y)) (scikit-learn's default normalized_mutual_info_score)."""
    return _nmi(S, lambda hx, hy, hxy: (hx + hy) / 2)


@register(name="nmi_max", real_counts=True, linear=True, title="NMI, normalised by max H", kind="similarity", range=(0.0, 1.0),
          optimum=1.0, symmetric=True, reference="Kvalseth (1987); " + _VINH, **_INFO)
def nmi_max(S):
    """NMI_max = MI / max(H(x), H(y))."""
    return _nmi(S, lambda hx, hy, hxy: np.maximum(hx, hy))


@register(name="nmi_joint", real_counts=True, title="MI over joint entropy (MIH)", kind="similarity",
          range=(0.0, 1.0), optimum=1.0, symmetric=True, aliases=("mih",),
          reference="Horibe (1985); Kraskov et al. (2005); Amorim (2015), Table 3", **_INFO)
def nmi_joint(S):
    """MIH = MI / H(x, y)."""
    return _nmi(S, lambda hx, hy, hxy: hxy)


@register(name="variation_of_information", real_counts=True, linear=True, affine_state=True, title="Variation of information", kind="distance",
          range=(0.0, math.inf), optimum=0.0, symmetric=True, aliases=("vi",),
          options={"base": None}, reference="Meila (2007); Amorim (2015), Table 3", **_INFO)
def variation_of_information(S, base=None):
    """VI = H(x) + H(y) - 2 MI = 2 H(x, y) - H(x) - H(y); at most log n."""
    return np.where(S.same, 0.0, np.maximum(S.hx + S.hy - 2 * S.mi, 0.0)) / log_base(base)


@register(name="nvi", linear=True, affine_state=True, title="VI normalised by log n", kind="distance", range=(0.0, 1.0),
          whole_counts_reason=("its normaliser log n is the largest VI of n objects, and a "
                               "total weight is not a number of objects: the value would "
                               "change with the weights' scale"),
          optimum=0.0, symmetric=True, reference="Meila (2007)", **_INFO)
def nvi(S):
    """NVI = VI / log n, in [0, 1] (n = 1 gives 0)."""
    vi = np.maximum(S.hx + S.hy - 2 * S.mi, 0.0)
    return np.clip(ratio(vi, np.log(S.n), S.same, 0.0, 0.0), 0.0, 1.0)


@register(name="nvi_sum", real_counts=True, linear=True, title="VI normalised by H(x) + H(y)", kind="distance",
          range=(0.0, 1.0), optimum=0.0, symmetric=True,
          reference=("Vinh et al. (2010); Rezaei, M. & Franti, P. (2016), \"Set matching "
                     "measures for external cluster validity\", IEEE Transactions on "
                     "Knowledge and Data Engineering 28(8)"), **_INFO)
def nvi_sum(S):
    """NVI_sum = VI / (H(x) + H(y)) = 1 - nmi_sum."""
    return np.clip(ratio(S.hx + S.hy - 2 * S.mi, S.hx + S.hy, S.same, 0.0, 1.0), 0.0, 1.0)


@register(name="adjusted_mutual_info", linear=True, title="Adjusted mutual information", kind="similarity",
          whole_counts_reason=("its expected mutual information is a law of integer tables, "
                               "hypergeometric cells of whole margins"),
          range=(-1.0, 1.0), optimum=1.0, symmetric=True, aliases=("ami",),
          options={"average": "arithmetic"}, reference=_VINH, **_INFO)
def adjusted_mutual_info(S, average="arithmetic"):
    """AMI = (MI - E[MI]) / (avg(H(x), H(y)) - E[MI]), with the exact E[MI] under fixed
    margins; ``average`` is "arithmetic" (default, as scikit-learn), "geometric", "min" or
    "max"."""
    avg = _average(S.hx, S.hy, average)
    emi = _expected_mi_batch(S.rows, S.cols, S.mi.shape)
    # When the margins allow a single value of MI (e.g. one clustering all singletons),
    # MI = E[MI] and the normaliser may equal it: both differences are rounding noise.
    scale = AMI_RTOL * np.maximum(1.0, np.abs(avg))
    num = np.where(np.abs(S.mi - emi) <= scale, 0.0, S.mi - emi)
    den = np.where(np.abs(avg - emi) <= scale, 0.0, avg - emi)
    return ratio(num, den, S.same, 1.0, 0.0)


@register(name="homogeneity", real_counts=True, linear=True, title="Homogeneity (of y's clusters w.r.t. x's classes)",
          kind="similarity", range=(0.0, 1.0), optimum=1.0, symmetric=False,
          reference="Rosenberg & Hirschberg (2007)", **_INFO)
def homogeneity(S):
    """Homogeneity = 1 - H(x | y) / H(x) = MI / H(x): each cluster of y holds one class of x.
    With a single class (H(x) = 0) it is 1, as in scikit-learn."""
    return np.minimum(ratio(S.mi, S.hx, S.same, 1.0, 1.0), 1.0)


@register(name="completeness", real_counts=True, linear=True, title="Completeness (of y's clusters w.r.t. x's classes)",
          kind="similarity", range=(0.0, 1.0), optimum=1.0, symmetric=False,
          reference="Rosenberg & Hirschberg (2007)", **_INFO)
def completeness(S):
    """Completeness = 1 - H(y | x) / H(y) = MI / H(y): each class of x lies in one cluster.
    With a single cluster (H(y) = 0) it is 1, as in scikit-learn."""
    return np.minimum(ratio(S.mi, S.hy, S.same, 1.0, 1.0), 1.0)


@register(name="v_measure", real_counts=True, linear=True, title="V-measure", kind="similarity", range=(0.0, 1.0), optimum=1.0,
          symmetric=False, options={"beta": 1.0}, reference="Rosenberg & Hirschberg (2007)",
          **_INFO)
def v_measure(S, beta=1.0):
    """V = (1 + beta) h c / (beta h + c), h = homogeneity, c = completeness (beta = 1: the
    harmonic mean, equal to nmi_sum)."""
    if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not beta >= 0:
        raise ValueError(f"beta must be a non-negative number, got {beta!r}")
    h, c = homogeneity(S), completeness(S)
    return ratio((1 + beta) * h * c, beta * h + c, S.same, 1.0, 0.0)
