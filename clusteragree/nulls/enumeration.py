"""Tables with given margins: counted, and listed with their probabilities under the
permutation model (both margins fixed).

Under the null (one labelling randomly permuted against the other) a table M has the
generalized hypergeometric probability ({ref:amorim2015}, App. A eq 5)

    f(M) = prod_i a_i! prod_j b_j! / (n! prod_ij n_ij!).

The tables are counted column by column over the multisets of remaining row margins, never
listed (``count_tables``); they are listed (``enumerate_tables``) only after the count is found
within ``max_tables``, and any index is then evaluated on all of them at once (``exact``).
"""

from __future__ import annotations

import numpy as np
from scipy.special import gammaln

from .._docs import fill, fill_doc
from .._moments.combinatorics import compositions, count_compositions_upto
from .._validate import check_positive_int
from .spec import DEFAULT_MAX_TABLES, ExactLawTooLarge

__doc__ = fill(__doc__)

__all__ = ["count_tables", "enumerate_tables", "check_margins", "check_table_count",
           "DEFAULT_MAX_TABLES"]


def check_margins(rows, cols):
    """The positive row and column margins as int64 arrays (zeros dropped); ``ValueError``
    unless both are non-empty with equal totals."""
    a = np.asarray(rows, dtype=np.int64).ravel()
    b = np.asarray(cols, dtype=np.int64).ravel()
    a, b = a[a > 0], b[b > 0]
    if a.size == 0 or a.sum() != b.sum():
        raise ValueError(f"row and column margins must be positive with equal totals, got "
                         f"{a.sum()} and {b.sum()}")
    return a, b


@fill_doc
def count_tables(rows, cols, limit: int | None = None) -> int:
    """The number of K x Q tables of non-negative integers with the given margins (exact).

    The tables are counted column by column over the multisets of remaining row margins,
    never listed; this is how the exact methods decide, before any work, whether a law by
    enumeration fits ``max_tables``.

    Parameters
    ----------
    %(rows, cols)s
    limit : int, optional
        Stop as soon as the count is known to exceed ``limit`` and return ``limit + 1``
        (every partial table completes to at least one table, so partial counts are lower
        bounds).

    Returns
    -------
    int
        The number of tables (an exact Python int), or ``limit + 1``.

    See Also
    --------
    enumerate_tables : Every table, with its probability.
    statistic_law : The law of s or t without listing tables.

    References
    ----------
    {ref:amorim2015}, ch. 4 and App. A.

    Examples
    --------
    >>> count_tables([50, 30], [40, 40])     # Amorim (2015), Table 11: n11 = 10..40
    31
    >>> count_tables([10, 10, 10], [10, 10, 10]), count_tables([10] * 3, [10] * 3, limit=100)
    (2211, 101)
    """
    a, b = check_margins(rows, cols)
    states = {tuple(sorted(a.tolist(), reverse=True)): 1}
    for total in b[:-1]:
        nxt: dict[tuple, int] = {}
        partial = 0
        for r, ways in states.items():
            if (limit is not None
                    and ways * count_compositions_upto(r, total, limit) + partial > limit):
                return limit + 1  # each composition is a distinct partial table
            comps = compositions(r, int(total))
            partial += ways * len(comps)
            if limit is not None and partial > limit:
                return limit + 1
            rem = -np.sort(-(np.array(r) - comps), axis=1)
            for row in map(tuple, rem.tolist()):
                nxt[row] = nxt.get(row, 0) + ways
        states = nxt
    return sum(states.values())


def _log_const(a, b):
    n = int(a.sum())
    return float(gammaln(a + 1).sum() + gammaln(b + 1).sum() - gammaln(n + 1))


def check_table_count(rows, cols, max_tables: int) -> None:
    """Raise ``ValueError``, before any table is listed, when more than ``max_tables`` tables
    have these margins (counted by ``count_tables`` up to ``max_tables + 1``)."""
    a, b = check_margins(rows, cols)
    if count_tables(a, b, limit=max_tables) > max_tables:
        raise ExactLawTooLarge(
            f"there are more than max_tables={max_tables:,} tables with these margins "
            f"(n = {int(a.sum())}, {len(a)} x {len(b)})",
            "method='patefield' (Monte Carlo), method='auto', the dynamic programme "
            "(method='exact' with a pair-counting or information index), or raise max_tables")


@fill_doc
def enumerate_tables(rows, cols, max_tables: int = DEFAULT_MAX_TABLES):
    """Every table with the given margins and its probability under the permutation model.

    A table M has the generalized hypergeometric probability
    f(M) = prod_i a_i! prod_j b_j! / (n! prod_ij n_ij!) (the law of Fisher's exact test of
    an r x c table; Freeman & Halton 1951).

    Parameters
    ----------
    %(rows, cols)s
    max_tables : int, default 2,000,000
        The tables are counted first; more than this many is an error, before any is listed.

    Returns
    -------
    tables : ndarray of int64, shape (N, K, Q)
        Every table, in lexicographic order (zero margins dropped).
    probabilities : ndarray of float, shape (N,)
        Their probabilities f(M), summing to 1.

    Raises
    ------
    ValueError
        Margins with different totals, or more than ``max_tables`` tables.

    See Also
    --------
    count_tables : How many there are.
    statistic_law : The law of s or t without listing tables.
    clusteragree.nulls.null_distribution : ``method="exact"`` uses it for the indices that
        are not functions of s or t.

    References
    ----------
    Freeman, G. H. & Halton, J. H. (1951), "Note on an exact treatment of contingency,
    goodness of fit and other problems of significance", Biometrika 38.

    {ref:amorim2015}, App. A eq 5.

    Examples
    --------
    >>> tables, p = enumerate_tables([2, 1], [2, 1])
    >>> tables.tolist(), np.round(p * 3, 12).tolist()
    ([[[1, 1], [1, 0]], [[2, 0], [0, 1]]], [2.0, 1.0])
    """
    a, b = check_margins(rows, cols)
    max_tables = check_positive_int(max_tables, "max_tables")
    check_table_count(a, b, max_tables)
    K = len(a)
    tables = np.zeros((1, K, 0), dtype=np.int64)
    remaining = a[None, :].copy()
    for j, total in enumerate(b):
        if j == len(b) - 1:
            col = remaining
        else:
            uniq, inv = np.unique(remaining, axis=0, return_inverse=True)
            inv = inv.ravel()
            comps = [compositions(tuple(u.tolist()), int(total)) for u in uniq]
            sizes = np.array([len(c) for c in comps])
            parent = np.concatenate([np.flatnonzero(inv == g).repeat(sizes[g])
                                     for g in range(len(uniq))])
            col = np.concatenate([np.tile(comps[g], (int((inv == g).sum()), 1))
                                  for g in range(len(uniq))])
            tables, remaining = tables[parent], remaining[parent]
        tables = np.concatenate((tables, col[:, :, None]), axis=2)
        remaining = remaining - col
    logp = _log_const(a, b) - gammaln(tables + 1).sum(axis=(1, 2))
    order = np.lexsort(tables.reshape(len(tables), -1).T[::-1])
    return tables[order], np.exp(logp[order])

