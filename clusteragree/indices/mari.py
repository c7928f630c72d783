"""The modified adjusted Rand index (Sundqvist, Chiquet & Rigaill 2023, "Adjusting the adjusted
Rand Index", Computational Statistics 38).

The adjusted Rand index subtracts p q / T, an estimate of the pairs together in both
clusterings by chance, that counts each pair of object pairs, including pairs that share an
object. MARI takes instead the unbiased estimate from pairs of pairs without a common object
(a U-statistic): with a11 = sum C(n_ij, 2), p = sum C(a_i, 2), q = sum C(b_j, 2),

    Q  = #{(P, P') ordered, disjoint object pairs: P together in x, P' together in y}
       = p q - a11 - (2n + sum n_ij a_i b_j - sum n_ij^2 - sum a_i^2 - sum b_j^2)

(p q counts every such ordered couple; a11 of them are one pair twice, and the bracket those
sharing exactly one object: for an object u of cell (i, j), (a_i - 1)(b_j - 1) partners
minus the n_ij - 1 where both partners are one object), and with E = Q / C(n - 2, 2) (the
C(n, 2) C(n - 2, 2) = 6 C(n, 4) ordered couples of disjoint pairs, rescaled to pairs)

    MARI = (a11 - E) / ((p + q) / 2 - E).

It is not a function of sum n_ij^2 given the margins (the term sum n_ij a_i b_j), so its null
laws come from enumeration, Patefield's tables or permutations, not a closed form.
"""

from __future__ import annotations

import numpy as np

from ._common import ratio
from ._registry import register

__all__ = ["mari_expected_pairs"]


def mari_expected_pairs(counts) -> np.ndarray:
    """E = Q / C(n - 2, 2): the pairs expected together in both clusterings, estimated from
    the ordered couples of disjoint object pairs (see the module docstring); n >= 4."""
    c = np.asarray(counts, dtype=float)
    a, b = c.sum(axis=-1), c.sum(axis=-2)
    n = a.sum(axis=-1)
    a11 = (c * (c - 1) / 2).sum(axis=(-2, -1))
    p = (a * (a - 1) / 2).sum(axis=-1)
    q = (b * (b - 1) / 2).sum(axis=-1)
    shared = (2 * n + np.einsum("...ij,...i,...j->...", c, a, b) - (c * c).sum(axis=(-2, -1))
              - (a * a).sum(axis=-1) - (b * b).sum(axis=-1))
    return (p * q - a11 - shared) / ((n - 2) * (n - 3) / 2)


@register(name="mari", title="Modified adjusted Rand index", kind="similarity",
          range=(-1.0, 1.0), optimum=1.0, symmetric=True, aliases=("modified_adjusted_rand",),
          family="pairs of pairs", min_n=4,
          reference=("Sundqvist, Chiquet & Rigaill (2023), Adjusting the adjusted Rand Index, "
                     "Computational Statistics 38"))
def mari(counts):
    """MARI = (a11 - E) / ((p + q) / 2 - E), E the pairs together in both clusterings expected
    from couples of object pairs without a common object (n >= 4).

    >>> round(ca.agreement([[30, 20], [10, 20]], index="mari"), 5)
    0.05122
    """
    c = np.asarray(counts, dtype=float)
    a11 = (c * (c - 1) / 2).sum(axis=(-2, -1))
    a, b = c.sum(axis=-1), c.sum(axis=-2)
    p = (a * (a - 1) / 2).sum(axis=-1)
    q = (b * (b - 1) / 2).sum(axis=-1)
    e = mari_expected_pairs(c)
    same = (a11 == p) & (a11 == q)
    return ratio(a11 - e, (p + q) / 2 - e, same, 1.0, 0.0)
