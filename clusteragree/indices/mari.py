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
laws come from enumeration, Patefield's tables or permutations, not a closed form. Its numerator
D = a11 - E and denominator G = (p + q) / 2 - E are affine in (sum n_ij^2, sum n_ij a_i b_j),
though, so ``mari_null_moments`` gives their exact means, variances and covariance (E[D] = 0),
and from them delta-method approximations of the mean and variance of MARI.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from .._moments.mari import check_margins, check_weights, fixed_margin_moments, multinomial_moments
from .._validate import check_choice
from ._common import ratio
from ._registry import register

__all__ = ["mari_expected_pairs", "mari_null_moments"]


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


@register(name="mari", whole_counts_reason=(
              "its chance term counts couples of object pairs with no object in common, "
              "C(n - 2, 2) of them: a count of whole objects"),
          title="Modified adjusted Rand index", kind="similarity",
          range=(-1.0, 1.0), optimum=1.0, symmetric=True, aliases=("modified_adjusted_rand",),
          family="pairs of pairs", min_n=4,
          min_n_reason="two object pairs with no object in common: MARI counts such couples",
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


def mari_null_moments(rows, cols, *, model: str = "perm", n: int | None = None) -> dict:
    """Exact null moments of the modified adjusted Rand index's numerator and denominator.

    MARI = D / G with numerator D = a11 - E and denominator G = (p + q)/2 - E. Its null mean
    and variance have no closed form, but those of D and G do; from them the second-order
    delta method for a ratio approximates the mean and variance of MARI. E[D] = 0 exactly
    under both models: E is unbiased for E[a11] (a random relabelling, or iid labels, sends
    each object pair to a pair together in y with the same probability). E[MARI] is not
    exactly 0, as G is random and correlated with D, but tiny: against the exact laws of
    tables with n = 26 to 60 the approximations were within 5e-4 (relative) of E[MARI] and
    Var[MARI] under fixed margins, and within 1e-2 under the multinomial null at n = 30
    (tests/indices/test_mari.py).

    Parameters
    ----------
    rows, cols : array-like
        Under "perm", the cluster sizes of x and y (whole counts, equal totals); under
        "multinomial", the label probabilities of x and y, up to a factor (counts or
        weights).
    model : {"perm", "multinomial"}, default "perm"
        "perm": both margins fixed (one labelling uniformly permuted against the other;
        generalized hypergeometric tables). D and G are affine in s = sum n_ij^2 and
        L = sum n_ij a_i b_j given the margins, and E, Var and Cov of (s, L) are sums of
        E[(n_c)_r (n_c')_u], r + u <= 4, that factor into row and column sums (O(K + Q)).
        "multinomial": the null of Sundqvist, Chiquet & Rigaill: x and y independent, each of
        the ``n`` objects' labels drawn iid with probabilities proportional to ``rows`` and
        to ``cols``. D and G are then U-statistics of order 4 (Hoeffding's variance formula).
    n : int, optional
        The number of objects under "multinomial" (default: the common total of ``rows`` and
        ``cols`` when they are counts); not for "perm".

    Returns
    -------
    dict
        ``mean_numerator``, ``var_numerator``, ``mean_denominator``, ``var_denominator`` and
        ``cov_numerator_denominator``, exact (``fractions.Fraction``); the approximations
        ``mean_mari_approx`` = mu_D/mu_G - Cov(D, G)/mu_G^2 + mu_D Var(G)/mu_G^3 and
        ``var_mari_approx`` = Var(D)/mu_G^2 - 2 mu_D Cov(D, G)/mu_G^3 + mu_D^2 Var(G)/mu_G^4
        (floats; 1.0 and 0.0 when mu_G = 0, i.e. both partitions surely identical); and
        ``model`` and ``n``.

    See Also
    --------
    clusteragree.agreement : ``index="mari"`` evaluates MARI.
    clusteragree.nulls.null_distribution : Its full null law (exact, Patefield, permutation).

    References
    ----------
    Sundqvist, M., Chiquet, J. & Rigaill, G. (2023), "Adjusting the adjusted Rand Index",
    Computational Statistics 38.

    Hoeffding, W. (1948), "A class of statistics with asymptotically normal distribution",
    Annals of Mathematical Statistics 19.

    Examples
    --------
    >>> m = ca.mari_null_moments([50, 30], [40, 40])
    >>> m["mean_numerator"], round(float(m["var_numerator"]), 4)
    (Fraction(0, 1), 177.301)
    >>> round(m["mean_mari_approx"], 10), round(m["var_mari_approx"] ** 0.5, 5)
    (9.45e-08, 0.01684)
    """
    check_choice(model, "model", ("perm", "multinomial"))
    if model == "perm":
        if n is not None:
            raise ValueError(f"n is only for model='multinomial' (under 'perm' it is the total "
                             f"of rows and cols), got n={n!r}")
        a, b = check_margins(rows, cols)
        total = sum(a)
        m = fixed_margin_moments(a, b)
    else:
        pi, rho, total = check_weights(rows, cols, n)
        m = multinomial_moments(pi, rho, total)
    keys = ("mean_numerator", "var_numerator", "mean_denominator", "var_denominator",
            "cov_numerator_denominator")
    out: dict = {"model": model, "n": total, **{k: Fraction(m[k]) for k in keys}}
    mu_d, mu_g = float(m["mean_numerator"]), float(m["mean_denominator"])
    var_d, var_g = float(m["var_numerator"]), float(m["var_denominator"])
    cov = float(m["cov_numerator_denominator"])
    if mu_g == 0:  # G = 0 surely: both partitions one cluster, or all singletons
        out["mean_mari_approx"], out["var_mari_approx"] = 1.0, 0.0
    else:
        out["mean_mari_approx"] = mu_d / mu_g - cov / mu_g**2 + mu_d * var_g / mu_g**3
        out["var_mari_approx"] = max(
            var_d / mu_g**2 - 2 * mu_d * cov / mu_g**3 + mu_d**2 * var_g / mu_g**4, 0.0)
    return out
