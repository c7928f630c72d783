"""Exact moments of s = sum n_ij^2 under fixed margins (private, lowest layer).

The cells' falling-factorial moments have a product form: for distinct cells c = (i, j),
c' = (k, l) and orders r, u, E[(n_c)_r (n_c')_u] = R C / (n)_(r+u), R = (a_i)_(r+u) if i = k
else (a_i)_r (a_k)_u, C likewise with the columns (count ordered choices of r + u distinct
objects in the rows, and the chance that a random relabelling puts them in the right columns).
With n^2 = (n)_2 + (n)_1 and n^4 = (n)_4 + 6 (n)_3 + 7 (n)_2 + (n)_1, E[s] and E[s^2] reduce to
sums over rows and columns, O(K + Q), in exact rational arithmetic. ``clusteragree.nulls``
gives these moments to the null methods (``moments_of_s``), the indices to the standardised
Rand index.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .._docs import fill_doc
from .combinatorics import falling_factorial as _ff

__all__ = ["moments_of_s"]


def _ffsums(values, orders=(1, 2, 3, 4)):
    return {r: sum(_ff(int(v), r) for v in values) for r in orders}


@fill_doc
def moments_of_s(rows, cols) -> tuple[Fraction, Fraction]:
    """Exact mean and variance of s = sum n_ij^2 under fixed margins, as Fractions.

    Under the permutation model (both margins fixed) the cells' falling-factorial moments
    have a product form, so E[s] and E[s^2] reduce to sums over rows and columns, O(K + Q),
    in exact rational arithmetic. Every pair-counting index of the L family is affine in s
    given the margins (a11 = (s - n) / 2), so these give its exact null mean and variance.

    Parameters
    ----------
    rows, cols : array-like of int
        The row and column margins (the cluster sizes of x and of y), non-negative with equal
        totals; zeros are ignored.

    Returns
    -------
    mean : fractions.Fraction
        E[s].
    var : fractions.Fraction
        Var[s].

    See Also
    --------
    clusteragree.nulls.index_moments : The null moments of an index affine in s or t.
    clusteragree.nulls.statistic_law : The exact law of s.

    References
    ----------
    {ref:hubert1985}, 193-218.

    Albatineh, A. N., Niewiadomska-Bugaj, M. & Mihalko, D. (2006), "On similarity indices and
    correction for chance agreement", Journal of Classification 23.

    Examples
    --------
    >>> m, v = moments_of_s([50, 30], [40, 40])
    >>> m == 80 + 2 * Fraction((1225 + 435) * (780 + 780), 3160)   # E[s] = n + 2 E[a11]
    True
    >>> round(float(v), 4)       # equal to the enumeration of all 31 tables (tests)
    709.6765
    """
    a = [int(v) for v in np.asarray(rows).ravel() if v > 0]
    b = [int(v) for v in np.asarray(cols).ravel() if v > 0]
    n = sum(a)
    A, B = _ffsums(a), _ffsums(b)

    def nf(k):
        return _ff(n, k)

    def single(r):  # sum over cells of E[(n_c)_r]
        return Fraction(A[r] * B[r], nf(r)) if nf(r) else Fraction(0)

    # E[s] = sum_c E[(n)_2 + (n)_1]
    mean = single(2) + single(1)
    # E[sum_c n_c^4]
    e4 = single(4) + 6 * single(3) + 7 * single(2) + single(1)

    def cross(r, u):
        """sum over ordered pairs of distinct cells of E[(n_c)_r (n_c')_u]."""
        if nf(r + u) == 0:
            return Fraction(0)
        same_row_a = sum(_ff(x, r + u) for x in a)  # i = k
        diff_row_a = A[r] * A[u] - sum(_ff(x, r) * _ff(x, u) for x in a)  # i != k
        same_col_b = sum(_ff(x, r + u) for x in b)
        diff_col_b = B[r] * B[u] - sum(_ff(x, r) * _ff(x, u) for x in b)
        # (same row, different column) + (different row, same column) + (different both)
        total = same_row_a * diff_col_b + diff_row_a * same_col_b + diff_row_a * diff_col_b
        return Fraction(total, nf(r + u))

    e_pairs = sum(cross(r, u) for r in (1, 2) for u in (1, 2))
    var = e4 + e_pairs - mean * mean
    return mean, var
