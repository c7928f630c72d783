"""Reduced mutual information: the mutual information less the information of the table.

Newman, M. E. J., Cantwell, G. T. & Young, J.-G. (2020), "Improved mutual information measure
for clustering, classification, and community detection", Physical Review E 101, 042304:

    RMI = MI - (1/n) log Omega(a, b)

with MI the package's mutual information (nats; ``mutual_info``) and Omega(a, b) the number of
K x Q tables of non-negative integers with the observed row sums a and column sums b. Sending
one labelling given the other costs n (H(x) - MI) nats *once the table is known*; the table
itself costs log Omega more, which the ordinary MI leaves out (and which makes MI favour
clusterings with many small clusters). RMI can be negative (then knowing one labelling does not
pay for describing the table). Given the margins, log Omega is a constant, so RMI is affine in
t = sum n_kq log n_kq: under the permutation null its law is MI's shifted by log Omega / n.

log Omega is counted three ways (option ``count``):

* ``"exact"``: the number of tables, exactly, by a dynamic programme over the sorted remainders of
  the shorter margin (``clusteragree.nulls.count_tables``'s recursion, with a work cap
  ``max_work`` on the entries of the column compositions visited, counted from the margins
  before each column); raises ``ValueError`` above the cap.
* ``"approximate"``: Newman, Cantwell & Young's (2020) eq. (29), their symmetrised form of the
  estimate of Diaconis, P. & Efron, B. (1985), "Testing for independence in a two-way table:
  new interpretations of the chi-square statistic", Annals of Statistics 13(3):

      w = n / (n + K Q / 2),  x_k = (1 - w)/K + w a_k/n,  y_q = (1 - w)/Q + w b_q/n,
      mu = (K + 1) / (K sum_q y_q^2) - 1/K,  nu = (Q + 1) / (Q sum_k x_k^2) - 1/Q,
      log Omega ~ (K - 1)(Q - 1) log(n + K Q / 2) + (K + nu - 2)/2 sum_q log y_q
                  + (Q + mu - 2)/2 sum_k log x_k
                  + 1/2 log[Gamma(mu K) Gamma(nu Q) / ((Gamma(nu) Gamma(K))^Q (Gamma(mu) Gamma(Q))^K)].

  Omega >= 1, so an estimate below 0 is raised to 0 (this keeps RMI <= MI). Against exact
  counts (K, Q <= 4, n <= 120, random margins) its relative error in log Omega had median 0.5%
  and 95th percentile 9%, worst on lopsided margins; on balanced tables it is below 0.5%.
  It worsens as the table gets sparse: on 180 random tables (K, Q <= 12, n <= 400) the
  largest relative error was 0.3% with a mean cell count n / (K Q) of 2 or more, 7% between
  0.5 and 1, 20% below 0.5; on very sparse tables it is no estimate at all (10**4 x 10**4
  clusters of 10**5 objects: 3.1e7 where Omega <= e^7.7e5). An estimate above the most the
  margins allow, log Omega <= min(sum_k log C(a_k + Q - 1, Q - 1), sum_q log C(b_q + K - 1,
  K - 1)) (each row, or each column, a composition of its total on its own;
  ``log_omega_upper_bound``), is refused: ``ValueError`` names the bound and the mean cell count.
* ``"auto"`` (default): exact within the work cap ``AUTO_MAX_WORK``, else the approximation.

Cases with a closed form are exact under every option: one row or one column (Omega = 1), and
one clustering all singletons (Omega = n! / prod a_k!, the multinomial).
``rmi_count_method(table)`` says which count a table gets. Empty rows and columns are ignored
(they are not clusters).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy.special import gammaln

from .._moments.combinatorics import compositions
from .._validate import check_choice, check_positive_int
from ._registry import register
from .information import log_base, info_state

__all__ = ["log_omega", "log_omega_approx", "log_omega_upper_bound", "count_tables_capped",
           "rmi_count_method", "AUTO_MAX_WORK", "EXACT_MAX_WORK"]

_NCY = ("Newman, Cantwell & Young (2020), \"Improved mutual information measure for clustering, "
        "classification, and community detection\", Physical Review E 101, 042304")
_COUNTS = ("auto", "exact", "approximate")
#: ``count="auto"`` counts exactly when the dynamic programme's work (``count_tables_capped``:
#: entries of the column compositions it visits, bounded above) is at most this, else
#: approximates. The longest of 3,783 random margins (2 to 300 clusters a side, n up to 20,000,
#: mean cell count 0.05 to 30) took 0.44 s to count or to give up at this cap.
AUTO_MAX_WORK = 1_000_000
#: ``count="exact"`` refuses above this much work (the states it keeps and their compositions
#: are bounded by the same number of entries): the longest of 260 such margins took 3.4 s.
EXACT_MAX_WORK = 20_000_000
#: The work of a state beyond its compositions, per entry of the state: building its
#: compositions loops over its K entries (about 25 us each, the time of some 200 entries).
_STATE_WORK = 200


def _margins(rows, cols):
    a = np.asarray(rows, dtype=np.int64).ravel()
    b = np.asarray(cols, dtype=np.int64).ravel()
    if (a < 0).any() or (b < 0).any():
        raise ValueError("margins must be non-negative counts")
    a, b = a[a > 0], b[b > 0]
    if a.size == 0 or a.sum() != b.sum():
        raise ValueError(f"row and column margins must be positive with equal totals, got "
                         f"{a.sum()} and {b.sum()}")
    return a, b


def _bound_compositions(caps: tuple, total: int) -> int:
    """An upper bound on the vectors c with 0 <= c_i <= caps_i and sum c = total, in O(K):
    the smaller of C(total + K - 1, K - 1) (no caps) and prod (min(caps_i, total) + 1) (no
    sum), with the last entry forced."""
    free = math.prod(min(c, total) + 1 for c in caps[:-1]) if len(caps) > 1 else 1
    return min(math.comb(total + len(caps) - 1, len(caps) - 1), free)


def count_tables_capped(rows, cols, max_work: int = EXACT_MAX_WORK) -> int | None:
    """The exact number of tables with margins ``rows`` and ``cols``, or ``None`` when the
    dynamic programme's work would pass ``max_work``.

    The state after each column is the sorted vector of what is left of the shorter margin
    (K rows; rows with equal remainders are exchangeable); each state carries its number of
    partial tables (Python integers: no overflow). A state's compositions are K-vectors, and
    their cost grows with K, so the work of a state is K (m + 200) entries, m an upper bound on
    its compositions (``_bound_compositions``) and 200 entries the cost of the loop over its K
    rows. The work of a column is counted before it is done, so a refusal costs at most the
    work allowed: on 10**4 x 10**4 clusters the first column alone is refused.

    >>> count_tables_capped([2, 2], [2, 2])   # [[2,0],[0,2]], [[1,1],[1,1]], [[0,2],[2,0]]
    3
    >>> count_tables_capped([50, 50, 50], [50, 50, 50], max_work=10) is None
    True
    """

    max_work = check_positive_int(max_work, "max_work")
    a, b = _margins(rows, cols)
    if len(a) > len(b):
        a, b = b, a
    b = np.sort(b)  # the largest column last, where it is forced
    K = len(a)
    states = {tuple(sorted(a.tolist(), reverse=True)): 1}
    work = 0
    for total in b[:-1].tolist():
        if work + len(states) * K * (1 + _STATE_WORK) > max_work:  # one composition a state
            return None
        work += K * sum(_bound_compositions(r, total) + _STATE_WORK for r in states)
        if work > max_work:
            return None
        nxt: dict[tuple, int] = {}
        for r, ways in states.items():
            rem = -np.sort(-(np.array(r, dtype=np.int64) - compositions(r, total)), axis=1)
            for row in map(tuple, rem.tolist()):
                nxt[row] = nxt.get(row, 0) + ways
        states = nxt
    return sum(states.values())


def log_omega_approx(rows, cols) -> float:
    """Newman, Cantwell & Young's (2020) eq. (29) estimate of log Omega(a, b) (nats; see the
    module docstring), raised to 0 when below.

    >>> round(log_omega_approx([50, 50, 50], [50, 50, 50]), 3)   # exact: 13.687
    13.637
    """
    a, b = _margins(rows, cols)
    return _approx(tuple(a.tolist()), tuple(b.tolist()))


def _approx(a, b) -> float:
    a, b = np.array(a, dtype=float), np.array(b, dtype=float)
    K, Q, n = len(a), len(b), float(a.sum())
    if K == 1 or Q == 1:
        return 0.0
    w = n / (n + K * Q / 2)
    x = (1 - w) / K + w * a / n
    y = (1 - w) / Q + w * b / n
    mu = (K + 1) / (K * (y * y).sum()) - 1 / K
    nu = (Q + 1) / (Q * (x * x).sum()) - 1 / Q
    value = ((K - 1) * (Q - 1) * math.log(n + K * Q / 2)
             + (K + nu - 2) / 2 * np.log(y).sum() + (Q + mu - 2) / 2 * np.log(x).sum()
             + (gammaln(mu * K) + gammaln(nu * Q) - Q * (gammaln(nu) + gammaln(K))
                - K * (gammaln(mu) + gammaln(Q))) / 2)
    return max(float(value), 0.0)


def log_omega_upper_bound(rows, cols) -> float:
    """An upper bound on log Omega(a, b) from the margins: each row of a table is a composition
    of a_k into Q non-negative parts, so Omega <= prod_k C(a_k + Q - 1, Q - 1), and likewise by
    columns; the smaller of the two logs.

    >>> round(log_omega_upper_bound([2, 2], [2, 2]), 6) == round(math.log(9), 6)  # Omega = 3
    True
    """
    a, b = _margins(rows, cols)
    return _upper(tuple(a.tolist()), tuple(b.tolist()))


def _upper(a, b) -> float:
    a, b = np.array(a, dtype=float), np.array(b, dtype=float)
    K, Q = len(a), len(b)
    by_rows = (gammaln(a + Q) - gammaln(a + 1) - gammaln(Q)).sum()
    by_cols = (gammaln(b + K) - gammaln(b + 1) - gammaln(K)).sum()
    return float(min(by_rows, by_cols))


def _closed_form(a, b):
    """log Omega when it has a closed form, else None."""
    if len(a) == 1 or len(b) == 1:
        return 0.0
    for u, v in ((a, b), (b, a)):
        if all(x == 1 for x in v):  # v all singletons: tables = assignments of objects to u
            return float(gammaln(len(v) + 1) - gammaln(np.array(u) + 1.0).sum())
    return None


@lru_cache(maxsize=4096)
def _log_omega_sorted(a: tuple, b: tuple, count: str, max_work: int) -> tuple[float, str]:
    closed = _closed_form(a, b)
    if closed is not None:
        return closed, "exact"
    if count != "approximate":
        n_tables = count_tables_capped(a, b, max_work)
        if n_tables is not None:
            return math.log(n_tables), "exact"
        if count == "exact":
            raise ValueError(
                f"counting the tables with these margins exactly (n = {sum(a)}, {len(a)} x "
                f"{len(b)}) needs more than max_work={max_work:,} entries of column "
                "compositions; use count='approximate' or count='auto', or raise max_work")
    approx, upper = _approx(a, b), _upper(a, b)
    if approx > upper * (1 + 1e-9) + 1e-9:  # beyond rounding: provably no estimate
        n, K, Q = sum(a), len(a), len(b)
        raise ValueError(
            f"rmi: the tables with these margins ({K} x {Q}, n = {n:,}, mean cell count "
            f"{n / (K * Q):.3g}) are too many to count exactly within max_work={max_work:,}, "
            f"and the approximation of log Omega (Newman, Cantwell & Young's eq. 29: "
            f"{approx:.4g}) is above the most these margins allow ({upper:.4g}): it fails on "
            "tables this sparse, so rmi has no reliable value here. Use count='exact' with a "
            "larger max_work, or another index (adjusted_mutual_info, nmi)")
    return approx, "approximate"


def _check_count(count, max_work):
    check_choice(count, "count", _COUNTS)
    if max_work is None:
        return EXACT_MAX_WORK if count == "exact" else AUTO_MAX_WORK
    return check_positive_int(max_work, "max_work")


def _key(rows, cols):
    a, b = _margins(rows, cols)
    return tuple(sorted(a.tolist())), tuple(sorted(b.tolist()))


def log_omega(rows, cols, count: str = "auto", max_work: int | None = None) -> float:
    """log Omega(a, b), the log of the number of tables with row sums ``rows`` and column sums
    ``cols`` (nats), counted as ``count`` says ("auto", "exact" or "approximate"; module
    docstring). ``max_work`` caps the exact count (default: ``AUTO_MAX_WORK`` for "auto",
    ``EXACT_MAX_WORK`` for "exact").

    >>> round(log_omega([50, 30], [40, 40]), 6) == round(math.log(31), 6)   # 31 tables
    True
    """
    max_work = _check_count(count, max_work)
    return _log_omega_sorted(*_key(rows, cols), count, max_work)[0]


def rmi_count_method(table, count: str = "auto", max_work: int | None = None) -> str:
    """Which count of log Omega ``rmi`` uses on ``table`` (a contingency table, or a pair
    ``(rows, cols)`` of margins) with these options: "exact" or "approximate".

    >>> rmi_count_method([[30, 20], [10, 20]])
    'exact'
    >>> rmi_count_method([[300, 200, 100], [100, 200, 300], [50, 60, 70]])
    'approximate'
    """
    max_work = _check_count(count, max_work)
    if isinstance(table, tuple) and len(table) == 2:
        rows, cols = table
    else:
        from ..tables import as_counts
        counts = as_counts(table)
        rows, cols = counts.sum(axis=1), counts.sum(axis=0)
    return _log_omega_sorted(*_key(rows, cols), count, max_work)[1]


def _log_omega_batch(rows, cols, shape, count, max_work) -> np.ndarray:
    """log Omega for each table of a batch (margins (..., K) and (..., Q)), once per distinct
    pair of margins (a batch that shares its margins costs one count)."""
    rows = np.broadcast_to(rows, shape + rows.shape[-1:]).reshape(-1, rows.shape[-1])
    cols = np.broadcast_to(cols, shape + cols.shape[-1:]).reshape(-1, cols.shape[-1])
    if len(rows) == 0:
        return np.zeros(shape)
    if (rows == rows[0]).all() and (cols == cols[0]).all():
        return np.full(shape, _log_omega_sorted(*_key(rows[0], cols[0]), count, max_work)[0])
    keys = np.concatenate((np.sort(rows, axis=1), np.sort(cols, axis=1)), axis=1)
    _, first, inv = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    values = np.array([_log_omega_sorted(*_key(rows[i], cols[i]), count, max_work)[0]
                       for i in first])
    return values[inv.ravel()].reshape(shape)


def _describe_rmi(counts, base=None, count="auto", max_work=None) -> str:
    if rmi_count_method(np.asarray(counts), count, max_work) == "exact":
        return "rmi count: log Omega counted exactly"
    return ("rmi count: log Omega by the Newman-Cantwell-Young approximation (their eq. 29); "
            "count='exact' to count the tables")


@register(name="rmi", whole_counts_reason=(
              "log Omega counts the integer tables with the observed margins"),
          linear=True, title="Reduced mutual information", kind="similarity",
          range=(-math.inf, math.inf), optimum=math.inf, symmetric=True, reflexive=False,
          aliases=("reduced_mutual_info",),
          options={"base": None, "count": "auto", "max_work": None}, reference=_NCY,
          describe=_describe_rmi,
          family="information", statistic="t", state=info_state)
def rmi(S, base=None, count="auto", max_work=None):
    """Reduced mutual information RMI = MI - (1/n) log Omega(a, b) (Newman, Cantwell & Young
    2020), Omega(a, b) the number of tables with the observed margins: counted exactly where
    that is cheap, else by the paper's eq. (29) (``count="auto"|"exact"|"approximate"``,
    ``max_work``; ``rmi_count_method`` says which). In nats unless ``base`` is given. Like MI it
    has no fixed optimum (on identical partitions it is H - log Omega(a, a) / n).

    >>> round(ca.agreement([[30, 20], [10, 20]], index="rmi"), 4)   # MI = 0.0338, 31 tables
    -0.0091
    """
    scale = log_base(base)
    max_work = _check_count(count, max_work)
    lo = _log_omega_batch(S.rows, S.cols, S.mi.shape, count, max_work)
    return (S.mi - lo / S.n) / scale
