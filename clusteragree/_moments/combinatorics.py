"""Counts of set partitions in log space (private, lowest layer): Stirling numbers of the second
kind and Bell numbers for n in the thousands, where the numbers themselves overflow any float.

* ``log_stirling2(n, K)``: log S(m, k) for m = 0..n, k = 0..K. For fixed k the recurrence
  S(m, k) = k S(m-1, k) + S(m-1, k-1) unrolls to S(m, k) = sum_{j < m} k^(m-1-j) S(j, k-1), a
  sum of positive terms: one running log-sum-exp per k (numpy's ``logaddexp.accumulate``),
  O(n K) in all, with no cancellation.
* ``log_bell(n)``: log B(m) for m = 0..n by the Bell triangle (each row a running sum of the
  previous one), O(n^2) additions of positive terms in log space.

Both are checked against exact integer arithmetic in the tests (relative error ~1e-13 at
n = 2,000).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from scipy.special import gammaln

__all__ = ["log_stirling2", "log_bell", "log_binomial", "falling_factorial",
           "count_compositions", "count_compositions_upto", "compositions"]


def log_binomial(n, k):
    """log C(n, k) (arrays broadcast; -inf outside 0 <= k <= n)."""
    n = np.asarray(n, dtype=float)
    k = np.asarray(k, dtype=float)
    ok = (k >= 0) & (k <= n)
    with np.errstate(invalid="ignore"):
        out = gammaln(n + 1) - gammaln(np.where(ok, k, 0) + 1) - gammaln(
            np.where(ok, n - k, 0) + 1)
    return np.where(ok, out, -np.inf)


@lru_cache(maxsize=16)
def log_stirling2(n: int, K: int) -> np.ndarray:
    """log S(m, k) for m = 0..n and k = 0..K, shape (n + 1, K + 1) (-inf where S = 0).

    >>> L = log_stirling2(5, 3)
    >>> [round(float(np.exp(v))) for v in L[5]]          # S(5, 0..3)
    [0, 1, 15, 25]
    """
    out = np.full((n + 1, K + 1), -np.inf)
    out[0, 0] = 0.0
    m = np.arange(n + 1, dtype=float)
    for k in range(1, K + 1):
        # S(m, k) = sum_{j=0}^{m-1} k^(m-1-j) S(j, k-1): u_j = log S(j, k-1) - (j + 1) log k
        logk = np.log(k)
        u = out[:-1, k - 1] - (m[:-1] + 1) * logk
        with np.errstate(invalid="ignore"):  # -inf + -inf in logaddexp is -inf, not nan
            acc = np.logaddexp.accumulate(u)
        out[1:, k] = m[1:] * logk + acc
    out.setflags(write=False)
    return out


@lru_cache(maxsize=16)
def log_bell(n: int) -> np.ndarray:
    """log B(m) for m = 0..n (the number of partitions of m objects).

    >>> [round(float(np.exp(v))) for v in log_bell(6)]
    [1, 1, 2, 5, 15, 52, 203]
    """
    out = np.zeros(n + 1)
    row = np.zeros(1)  # row m of the Bell triangle, in logs; row 0 is [1]
    for m in range(1, n + 1):
        # row m starts with the last entry of row m - 1; A[m][j] = A[m][j-1] + A[m-1][j-1]
        row = np.logaddexp.accumulate(np.concatenate(([row[-1]], row)))
        out[m] = row[0]
    out.setflags(write=False)
    return out


def falling_factorial(x: int, r: int) -> int:
    """The falling factorial (x)_r = x (x - 1) ... (x - r + 1), exact integers.

    >>> falling_factorial(5, 3)
    60
    """
    out = 1
    for k in range(r):
        out *= x - k
    return out


def count_compositions(caps: tuple, total: int) -> int:
    """The number of vectors c with 0 <= c_i <= caps_i and sum c = total (exact, by the
    product of the generating polynomials 1 + z + ... + z^cap_i, truncated at z^total)."""
    ways = [1] + [0] * total
    for cap in caps:
        window = 0  # running sum of ways[s - cap .. s] of the previous polynomial
        new = [0] * (total + 1)
        for s in range(total + 1):
            window += ways[s]
            if s - cap - 1 >= 0:
                window -= ways[s - cap - 1]
            new[s] = window
        ways = new
    return ways[total]


#: Largest column total that ``count_compositions_upto`` counts by the polynomial product (an
#: int64 array of this length); past it, with many rows, the count is reported as over limit.
_MAX_PRODUCT_TOTAL = 50_000_000
#: Most rows counted by inclusion-exclusion (at most 2**12 binomial terms).
_MAX_INCLUSION_ROWS = 12


def count_compositions_upto(caps, total: int, limit: int) -> int:
    """``min(N, limit + 1)``, N the number of vectors c with 0 <= c_i <= caps_i and
    sum c = total: what a budget check needs, at a cost that does not grow with the counts.

    * A lower bound first: the row with the largest cap alone can take every value from
      max(0, total - (sum of the other caps)) to min(cap, total), each completed by the others.
    * Up to 12 rows: N exactly, by inclusion-exclusion over the rows that exceed their caps,
      N = sum_S (-1)^|S| C(total - sum_S (cap_i + 1) + K - 1, K - 1), in Python integers
      (any n).
    * More rows: the product of the polynomials 1 + z + ... + z^cap_i truncated at z^total, in
      int64 with every coefficient clamped at limit + 1 (a coefficient is a sum of
      non-negative earlier ones, so clamping changes no value below the clamp).
    * More rows and a total above 5e7: reported as over the limit (a refusal, never a wrong
      count).

    >>> count_compositions_upto((3, 2), 3, limit=100), count_compositions((3, 2), 3)
    (3, 3)
    >>> count_compositions_upto((2**40, 2**40), 2**40, limit=10**7)    # 2**40 + 1 vectors
    10000001
    """
    limit = int(limit)
    total = int(total)
    caps = sorted((min(int(c), total) for c in caps if int(c) > 0), reverse=True)
    if total < 0 or sum(caps) < total:
        return 0
    if total == 0 or len(caps) == 1:
        return 1
    rest = sum(caps) - caps[0]
    if caps[0] - max(0, total - rest) + 1 > limit:
        return limit + 1
    K = len(caps)
    if K <= _MAX_INCLUSION_ROWS:
        count = 0

        def walk(start, excess, sign):
            nonlocal count
            count += sign * math.comb(total - excess + K - 1, K - 1)
            for i in range(start, K):
                if excess + caps[i] + 1 <= total:
                    walk(i + 1, excess + caps[i] + 1, -sign)

        walk(0, 0, 1)
        return min(count, limit + 1)
    if total > _MAX_PRODUCT_TOTAL:
        return limit + 1
    clamp = min(limit + 1, (2**62) // (total + 1))  # cumulative sums stay in int64
    ways = np.zeros(total + 1, dtype=np.int64)
    ways[0] = 1
    for cap in caps:
        cum = np.cumsum(ways)
        new = cum.copy()
        new[cap + 1:] -= cum[:total - cap]
        ways = np.minimum(new, clamp)
    return int(min(ways[total], limit + 1)) if ways[total] < clamp else limit + 1


@lru_cache(maxsize=256)
def compositions(caps: tuple, total: int) -> np.ndarray:
    """All integer vectors c with 0 <= c_i <= caps_i and sum c = total, shape (m, len(caps)),
    in lexicographic order.

    Built row by row as a tree of feasible prefixes (each keeps its parent and its last value;
    every prefix can be completed, so no level has more than m nodes), then read back from the
    leaves: O(m K) time and memory (re-copying the prefixes at each row was O(m K^2)).

    >>> compositions((2, 1, 2), 2).tolist()
    [[0, 0, 2], [0, 1, 1], [1, 0, 1], [1, 1, 0], [2, 0, 0]]
    """
    K = len(caps)
    rest = np.concatenate((np.cumsum(np.array(caps[::-1], dtype=np.int64))[::-1][1:], [0]))
    parents, values = [], []
    used = np.zeros(1, dtype=np.int64)
    for i in range(K):
        lo = np.maximum(0, total - used - rest[i])
        hi = np.minimum(caps[i], total - used)
        width = np.maximum(hi - lo + 1, 0)
        parent = np.repeat(np.arange(len(used)), width)
        starts = np.concatenate(([0], np.cumsum(width)[:-1]))
        value = lo[parent] + (np.arange(int(width.sum())) - starts[parent])
        parents.append(parent)
        values.append(value)
        used = used[parent] + value
    leaf = np.flatnonzero(used == total)
    out = np.empty((leaf.size, K), dtype=np.int64)
    for i in range(K - 1, -1, -1):
        out[:, i] = values[i][leaf]
        leaf = parents[i][leaf]
    out.setflags(write=False)
    return out
