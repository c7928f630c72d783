"""Approximate null means of the paired indices outside the L family: published regressions
and exact identities.

Under the permutation model (both margins fixed) the null mean of an index of the L family
(affine in s = sum n_ij^2 given the margins: Rand R, Czekanowski C, Fowlkes-Mallows) has a
closed form. Jaccard J, Gower-Legendre GL and Sokal-Sneath 2 SS2 are not in the family.
{ref:albatineh2011}, approximate their null means by quadratic regressions on the mean
of an L index, fitted on simulated data (500 objects, five balanced clusters; largest
regression error 0.0278). {ref:amorim2015}, eqs 19-21, quotes them as

    E[J]   ~  0.656151 C^2 + 0.298540 C + 0.018352      (C = E[Czekanowski])
    E[GL]  ~ -0.656151 R^2 + 1.610843 R + 0.026957      (R = E[Rand])
    E[SS2] ~  1.10870 C^2 - 0.28021 C + 0.05337

and applies them with the exact E[C] and E[R] (Table 7). The x^2 coefficient of the GL fit
repeats the 0.656151 of the Jaccard fit: a suspected misprint, quoted here as printed.

On every table the three indices are exact functions of an L index (d = a10 + a01 the pairs
split by one clustering only):

    J = a11 / (a11 + d) = C / (2 - C),   GL = 2R / (1 + R),   SS2 = a11 / (a11 + 2d)
      = J / (2 - J) = C / (4 - 3C),

so E[J] = E[g(C)] with g(x) = x / (2 - x), and the plug-in g(E[C]) (``order=1``) or the
second-order delta method g(E[C]) + g''(E[C]) Var[C] / 2 (``order=2``, with the exact Var[C]
of the hypergeometric closed form) approximate it without any fitted constant.

The study that refits the regressions over the thesis' design and compares the four
approximations is ``clusteragree.studies.approximations``.

>>> tab = ca.load_dataset("thesis_table6a")            # Amorim (2015), Table 6a
>>> round(approximate_null_mean(tab, "jaccard"), 3)    # Table 7, APPROX E[J]: 0.340
0.34
>>> exact = ca.nulls.null_distribution(tab, index="jaccard", method="exact").mean
>>> [round(identity_null_mean(tab, "jaccard", order=o), 6) for o in (1, 2)], round(exact, 6)
([0.341384, 0.341425], 0.341426)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._docs import fill, fill_doc
from .._validate import check_choice
from .engine import null_distributions

__doc__ = fill(__doc__)

__all__ = [
    "IDENTITIES",
    "PUBLISHED",
    "PUBLISHED_MAX_ERROR",
    "TARGETS",
    "Identity",
    "QuadraticFit",
    "approximate_null_mean",
    "identity_null_mean",
    "check_fits",
]

#: The indices approximated (targets of the published fits).
TARGETS: tuple[str, ...] = ("jaccard", "gower_legendre", "sokal_sneath2")
_SOURCE = ("Albatineh & Niewiadomska-Bugaj (2011), Correcting Jaccard and other similarity "
           "indices for chance agreement in cluster analysis; quoted by Amorim (2015), On "
           "clustering stability, eq {}")


@fill_doc
@dataclass(frozen=True)
class QuadraticFit:
    """A quadratic regression of one index's null mean on another's.

    E[target] ~ a x^2 + b x + c with x = E[predictor]. Calling the fit evaluates it at ``x``
    (a number gives a float, an array an array). ``PUBLISHED`` holds the published fits;
    ``clusteragree.studies.approximations.fit_approximations`` refits them.

    Parameters
    ----------
    target : str
        The index whose null mean is approximated (e.g. "jaccard").
    predictor : str
        The index of the L family whose exact null mean is the regressor x (e.g.
        "czekanowski").
    coef : tuple of float
        The coefficients (a, b, c) of x^2, x and 1.
    source : str, default ""
        Where the fit comes from, in words.

    See Also
    --------
    approximate_null_mean : A fit applied to a table.
    identity_null_mean : The exact identities, with no fitted constant.

    References
    ----------
    {ref:albatineh2011}.

    {ref:amorim2015}, eqs 19-21 and Table 7.

    Examples
    --------
    >>> fit = PUBLISHED["jaccard"]
    >>> fit.predictor, fit.coef
    ('czekanowski', (0.656151, 0.29854, 0.018352))
    >>> round(fit(0.5), 6)                       # 0.656151 / 4 + 0.29854 / 2 + 0.018352
    0.33166
    >>> QuadraticFit("jaccard", "czekanowski", (0.0, 1.0, 0.0))(np.array([0.2, 0.4]))
    array([0.2, 0.4])
    """

    target: str
    predictor: str
    coef: tuple[float, float, float]
    source: str = ""

    def __call__(self, x):
        """The fitted value at ``x`` (a number or an array)."""
        a, b, c = self.coef
        x = np.asarray(x, dtype=float)
        out = (a * x + b) * x + c
        return float(out) if out.ndim == 0 else out


#: The published fits (target -> QuadraticFit), as printed in Amorim (2015), eqs 19-21.
PUBLISHED: dict[str, QuadraticFit] = {
    "jaccard": QuadraticFit("jaccard", "czekanowski", (0.656151, 0.298540, 0.018352),
                            _SOURCE.format(19)),
    "gower_legendre": QuadraticFit(
        "gower_legendre", "rand", (-0.656151, 1.610843, 0.026957),
        _SOURCE.format(20) + " (its x^2 coefficient repeats eq 19's 0.656151, a suspected "
        "misprint; quoted as printed)"),
    "sokal_sneath2": QuadraticFit("sokal_sneath2", "czekanowski", (1.10870, -0.28021, 0.05337),
                                  _SOURCE.format(21)),
}
#: The largest regression error Albatineh & Niewiadomska-Bugaj (2011) report.
PUBLISHED_MAX_ERROR = 0.0278


@dataclass(frozen=True)
class Identity:
    """target = g(predictor) on every table, with g and its second derivative."""

    target: str
    predictor: str
    formula: str
    g: object
    g2: object


#: The exact identities: target -> Identity (g and g'' as functions of the predictor).
IDENTITIES: dict[str, Identity] = {
    "jaccard": Identity("jaccard", "czekanowski", "C / (2 - C)",
                        lambda x: x / (2 - x), lambda x: 4 / (2 - x) ** 3),
    "gower_legendre": Identity("gower_legendre", "rand", "2R / (1 + R)",
                               lambda x: 2 * x / (1 + x), lambda x: -4 / (1 + x) ** 3),
    "sokal_sneath2": Identity("sokal_sneath2", "czekanowski", "C / (4 - 3C)",
                              lambda x: x / (4 - 3 * x), lambda x: 24 / (4 - 3 * x) ** 3),
}


def check_fits(fit) -> dict[str, QuadraticFit]:
    """The fits as a dict target -> QuadraticFit, from one QuadraticFit, such a dict, or the
    result of a refit (anything whose ``fits`` is such a dict: the ``Refit`` of
    ``clusteragree.studies.approximations.fit_approximations``, which this core module does
    not import)."""
    if isinstance(getattr(fit, "fits", None), dict):
        return fit.fits
    if isinstance(fit, QuadraticFit):
        return {fit.target: fit}
    if isinstance(fit, dict) and fit and all(isinstance(v, QuadraticFit) for v in fit.values()):
        return fit
    raise TypeError("fit must be a QuadraticFit, a dict target -> QuadraticFit (PUBLISHED) or "
                    f"the result of fit_approximations, got {type(fit).__name__}")


def _predictor_moments(table, predictor):
    """The exact null mean and variance (hypergeometric closed form) of an L index."""
    nd = null_distributions(table, [predictor], "hypergeometric")[predictor]
    return nd.mean, nd.var


@fill_doc
def approximate_null_mean(table, index: str, fit=None) -> float:
    """The regression approximation of the null mean of an index (permutation model).

    The fit (default: the published fits, ``PUBLISHED``) evaluated at the exact closed-form
    null mean of its predictor (E[C] for Jaccard and Sokal-Sneath 2, E[R] for
    Gower-Legendre), as Amorim (2015, "On clustering stability", Table 7) applies the fits
    of Albatineh & Niewiadomska-Bugaj (2011).

    Parameters
    ----------
    table : ContingencyTable or array-like of int
        The K x Q table of counts; its margins are held fixed (permutation model).
    index : {"jaccard", "gower_legendre", "sokal_sneath2"}
        The index whose null mean is approximated (a target of ``fit``).
    fit : QuadraticFit, dict or Refit, optional
        The regressions: one ``QuadraticFit``, a dict target -> QuadraticFit, or the result
        of ``clusteragree.studies.approximations.fit_approximations``. Default: ``PUBLISHED``.

    Returns
    -------
    float
        The approximate null mean of ``index``.

    Raises
    ------
    TypeError
        ``fit`` is none of the accepted forms.
    ValueError
        ``index`` is not a target of ``fit``.

    See Also
    --------
    identity_null_mean : The approximation by an exact identity (no fitted constant).
    clusteragree.nulls.null_distribution : The exact null law.

    References
    ----------
    {ref:albatineh2011}.

    {ref:amorim2015}, eqs 19-21 and Table 7.

    Examples
    --------
    >>> tab = ca.load_dataset("thesis_table6a")
    >>> round(approximate_null_mean(tab, "gower_legendre"), 3)   # Table 7, APPROX: 0.668
    0.668
    >>> identity = QuadraticFit("jaccard", "czekanowski", (0.0, 1.0, 0.0))   # E[C] itself
    >>> round(approximate_null_mean(tab, "jaccard", fit=identity), 6)
    0.509002
    """
    fits = check_fits(PUBLISHED if fit is None else fit)
    index = check_choice(index, "index", list(fits))
    f = fits[index]
    return f(_predictor_moments(table, f.predictor)[0])


@fill_doc
def identity_null_mean(table, index: str, order: int = 2) -> float:
    """The null mean of an index from its exact identity with an L index (permutation model).

    The identities (``IDENTITIES``) J = C/(2-C), GL = 2R/(1+R), SS2 = C/(4-3C) hold on every
    table, so E[target] = E[g(predictor)]: ``order=1`` approximates it by the plug-in g(mu),
    ``order=2`` by the delta method g(mu) + g''(mu) sigma^2 / 2, with mu and sigma^2 the
    exact null mean and variance of the predictor (hypergeometric closed form).

    Parameters
    ----------
    table : ContingencyTable or array-like of int
        The K x Q table of counts; its margins are held fixed (permutation model).
    index : {"jaccard", "gower_legendre", "sokal_sneath2"}
        The index whose null mean is approximated.
    order : {1, 2}, default 2
        1: the plug-in g(mu); 2: with the second-order (delta method) correction.

    Returns
    -------
    float
        The approximate null mean of ``index``.

    Raises
    ------
    ValueError
        An index without an identity, or an order other than 1 or 2.

    See Also
    --------
    approximate_null_mean : The published regression approximations.
    clusteragree.nulls.null_distribution : The exact null law.

    References
    ----------
    {ref:albatineh2011}.

    {ref:amorim2015}, eqs 19-21 and Table 7.

    Examples
    --------
    >>> tab = ca.load_dataset("thesis_table6a")
    >>> round(identity_null_mean(tab, "gower_legendre", order=1), 5)
    0.66638
    >>> round(identity_null_mean(tab, "jaccard"), 6)     # the exact mean: 0.341426
    0.341425
    """
    index = check_choice(index, "index", list(IDENTITIES))
    if isinstance(order, bool) or order not in (1, 2):
        raise ValueError(f"order must be 1 (plug-in) or 2 (delta method), got {order!r}")
    ident = IDENTITIES[index]
    mu, var = _predictor_moments(table, ident.predictor)
    return float(ident.g(mu) + (ident.g2(mu) * var / 2 if order == 2 else 0.0))
