"""Overlap of the components of a Gaussian mixture, as MixSim defines it.

{ref:maitra2010};
{ref:melnykov2012}.

For a mixture with weights w_k, means mu_k and covariances S_k, the probability that an object
of component i is classified to component j (by the larger of the two weighted densities) is

    omega_{j|i} = P[ w_j phi(X; mu_j, S_j) > w_i phi(X; mu_i, S_i) | X ~ N(mu_i, S_i) ],

the overlap of the pair is omega_ij = omega_{i|j} + omega_{j|i} (between 0 and 1), and a
mixture's average and maximum overlap are the mean and the largest omega_ij over its
K (K - 1) / 2 pairs.

How omega_{j|i} is computed. With X = mu_i + L Z (S_i = L L', Z standard normal) and the
eigen-decomposition L' S_j^{-1} L - I = V diag(lam) V', the event is

    Q = sum_k lam_k Y_k^2 + 2 b_k Y_k  <  x,   Y = V' Z standard normal,
    b = V' L' S_j^{-1} (mu_i - mu_j),
    x = 2 log(w_j / w_i) + log(|S_i| / |S_j|) - (mu_i - mu_j)' S_j^{-1} (mu_i - mu_j),

the law of a quadratic form in Gaussian variables (a weighted sum of non-central chi-squares
plus a normal term; MixSim uses Davies' algorithm for it). ``quadratic_form_cdf`` inverts
its characteristic function phi(t) = prod_k (1 - 2i lam_k t)^(-1/2) exp(-2 b_k^2 t^2 /
(1 - 2i lam_k t)) with the Gil-Pelaez formula

    P[Q < x] = 1/2 - (1/pi) int_0^inf Im[exp(-i t x) phi(t)] / t dt,

whose integrand decays only like t^(-1 - p/2) while it oscillates (with frequency
nu = x + sum b_k^2 / lam_k far out). The path of integration is therefore moved into the
complex plane (Cauchy's theorem; g(t) = exp(-i t x) phi(t) is analytic between the real axis and
the path): it starts at -i h, h the saddle point of the cumulant generating function
(K'(h) = x, so that exp(-i t x) phi(t) does not oscillate there), runs along the horizontal
line to -i h + R (where |g| can only decrease: it is the modulus of a characteristic function
of the tilted law) and then along a ray at angle theta = pi/8 below it, on the side where
g decays exponentially (nu > 0; for nu < 0, P[Q < x] = 1 - P[-Q < -x]); the left half is its
mirror image, whose contribution is the complex conjugate. R = 0 unless g would grow along the
ray, then the first of 4 / |lam_k| (in increasing order) past which it does not, checked on a
grid. With the pole of g(t) / t at 0 above the path (h > 0) or below it (h < 0),

    P[Q < x] = [h > 0] - (1/pi) int_path Im[ g(t) / t dt ],

a smooth, fast-decaying integrand that ``scipy.integrate.quad_vec`` integrates to about 1e-10
(absolute), all pairs at once (each scaled so that Q has unit standard deviation).

With equal covariances the boundary is linear and omega_{j|i} has the closed form
Phi((log(w_j / w_i) - D^2 / 2) / D), D the Mahalanobis distance between the means; it is used
whenever S_i and S_j are equal (``method="general"`` forces the integral).

>>> w = [0.5, 0.5]
>>> means = [[0.0, 0.0], [2.0, 0.0]]
>>> ov = overlap(w, means, [np.eye(2), np.eye(2)])
>>> round(ov.average, 6), round(2 * float(ndtr(-1.0)), 6)
(0.317311, 0.317311)
>>> ov = overlap(w, means, [np.eye(2), np.diag([2.0, 0.5])])
>>> round(ov.average, 4), round(ov.maximum, 4)
(0.3833, 0.3833)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import integrate
from scipy.linalg import cho_factor, cho_solve
from scipy.special import ndtr

from .._docs import fill, fill_doc

__doc__ = fill(__doc__)

__all__ = ["MixtureOverlap", "misclassification", "overlap", "quadratic_form_cdf"]

#: The rays' angle to the real axis (below pi/4, where the Gaussian factors still decay).
THETA = np.pi / 8
#: Eigenvalues lam_k this small are set to 0 (equal covariances give ~1e-16 round-off).
LAM_ZERO = 1e-12
#: Absolute error asked of the integral (the error of P is this divided by pi).
EPSABS = 1e-10


# -- the law of a quadratic form in Gaussian variables -------------------------------------


def _check_form(lam, b, x):
    lam = np.asarray(lam, dtype=float)
    b = np.asarray(b, dtype=float)
    x = np.asarray(x, dtype=float)
    if lam.ndim not in (1, 2) or lam.shape != b.shape:
        raise ValueError(f"lam and b must have the same shape, (p,) or (m, p); got {lam.shape} "
                         f"and {b.shape}")
    if lam.shape[-1] == 0:
        raise ValueError("lam and b need at least one term")
    m = 1 if lam.ndim == 1 else lam.shape[0]
    if x.shape not in ((), (m,)):
        raise ValueError(f"x must be a number or one number per row of lam, got shape {x.shape}")
    for name, arr in (("lam", lam), ("b", b), ("x", x)):
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} must hold finite numbers")
    return lam.reshape(m, -1), b.reshape(m, -1), np.broadcast_to(x, (m,)).copy(), lam.ndim == 1


def _kprime(s, lam, b):
    """Derivative of the cumulant generating function of Q at real s (one s per row)."""
    s = s[:, None]
    d = 1 - 2 * s * lam
    return np.sum(lam / d + 4 * b * b * s * (1 - lam * s) / d**2, axis=1)


def _saddle(lam, b, x):
    """A point h of the domain of the moment generating function near the saddle point
    K'(h) = x (bisection, all rows at once; rows scaled to unit s.d.), at least 0.25 away
    from 0."""
    lmax, lmin = lam.max(axis=1), lam.min(axis=1)
    hi = np.where(lmax > 0, 0.5 / np.where(lmax > 0, lmax, 1.0), 40.0) * (1 - 1e-9)
    lo = np.where(lmin < 0, 0.5 / np.where(lmin < 0, lmin, -1.0), -40.0) * (1 - 1e-9)
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        above = _kprime(mid, lam, b) > x
        hi = np.where(above, mid, hi)
        lo = np.where(above, lo, mid)
    h = 0.5 * (lo + hi)
    # Away from the pole of 1/t at 0; both +-0.25 lie in the domain, as 1 = sd >= sqrt2 |lam|.
    return np.where(np.abs(h) < 0.25, np.where(h < 0, -0.25, 0.25), h)


def _log_g(t, lam, b, x):
    """log of g(t) = exp(-i t x) phi(t): t holds one complex number per row (shape (m,)) or
    several (shape (m, n))."""
    if t.ndim == 2:
        lam, b, x = lam[:, None, :], b[:, None, :], x[:, None]
    z = 1 - 2j * lam * t[..., None]
    return np.sum(-0.5 * np.log(z) - 2 * b * b * (t * t)[..., None] / z, axis=-1) - 1j * t * x


def _bends(lam, b, x, h):
    """Where each row's path leaves the horizontal line through -i h for the ray.

    On the horizontal line |g(t)| <= M(h) exp(-h x) (the modulus of a characteristic function
    is at most its value at 0), so nothing grows there; the ray from (-i h + R) must not grow
    either. Try R = 0, then R = 4 / |lam_k| in increasing order (past these every term is in
    its asymptotic regime) and keep the first R along whose ray log|g / t| stays below its value
    at the vertex (+1), checked on a logarithmic grid."""
    nz = np.abs(lam) > 0
    inv = np.sort(np.where(nz, 4.0 / np.where(nz, np.abs(lam), 1.0), 0.0), axis=1)
    candidates = np.concatenate([np.zeros((len(h), 1)), inv], axis=1)
    top = (_log_g(-1j * h, lam, b, x).real - np.log(np.abs(h)) + 1.0)
    near, far = np.log(1e-3), np.log(np.maximum(1e8, 100 * candidates[:, -1]))
    grid = np.exp(near + np.linspace(0.0, 1.0, 400) * (far - near)[:, None])
    rot = np.exp(-1j * THETA)
    bend = np.full(len(h), np.nan)
    for c in range(candidates.shape[1]):
        todo = np.isnan(bend)
        if not todo.any():
            break
        R = candidates[todo, c]
        t = (-1j * h[todo] + R)[:, None] + grid[todo] * rot
        mag = _log_g(t, lam[todo], b[todo], x[todo]).real - np.log(np.abs(t))
        ok = mag.max(axis=1) <= top[todo]
        rows = np.flatnonzero(todo)[ok]
        bend[rows] = R[ok]
    if np.isnan(bend).any():
        raise ArithmeticError("no path of integration found for the quadratic form's law")
    return bend


def _quad(f, lower, upper):
    value, err, info = integrate.quad_vec(f, lower, upper, epsabs=EPSABS, epsrel=1e-9,
                                          norm="max", limit=20_000, full_output=True)
    if not info.success:
        raise ArithmeticError(f"the integral of the quadratic form's law did not converge "
                              f"(error estimate {err:.2g}): {info.message}")
    return value


def _line(lam, b, x, h, bend):
    """The integral along the horizontal segments from -i h to -i h + bend, in pieces
    [0, 1], [1, 4], [4, 16], ... (the rows are scaled so that Q has unit s.d.: the integrand
    changes on a scale of about 1 near the vertex, however long the segment). |g| decreases
    along the line (each term's tilted characteristic function does) and |t| >= r, so once
    |g| (1 + log(bend / r)) < 1e-15 at the start r of a piece, the rest of the row's segment
    adds less than 1e-15 and is left out."""
    total = np.zeros(len(h))
    edges = [0.0, 1.0]
    while edges[-1] < bend.max():
        edges.append(4 * edges[-1])
    for lower, upper in zip(edges[:-1], edges[1:]):
        rows = np.flatnonzero(bend > lower)
        if lower > 0 and rows.size:
            t = -1j * h[rows] + lower
            size = _log_g(t, lam[rows], b[rows], x[rows]).real
            rows = rows[size + np.log1p(np.log(bend[rows] / lower)) > np.log(1e-15)]
        if not rows.size:
            continue
        L, B, X, H, R = lam[rows], b[rows], x[rows], h[rows], bend[rows]

        def piece(r):
            t = -1j * H + np.minimum(r, R)
            return np.where(r < R, (np.exp(_log_g(t, L, B, X)) / t).imag, 0.0)

        total[rows] += _quad(piece, lower, upper)
    return total


def _contour_cdf(lam, b, x):
    """P[Q < x] for rows scaled to unit s.d., whose exp(-itx) phi(t) decays below the real axis
    far out, and whose x lies inside the support of Q (so Q is not degenerate).

    The path: from -i h along the horizontal line to -i h + R, then along the ray at angle
    THETA below it (and its mirror image on the left, which gives the conjugate)."""
    h = _saddle(lam, b, x)
    bend = _bends(lam, b, x, h)
    rot = np.exp(-1j * THETA)

    def ray(r):
        t = -1j * h + bend + r * rot
        return (rot * np.exp(_log_g(t, lam, b, x)) / t).imag

    value = _quad(ray, 0.0, np.inf)
    if np.any(bend > 0):
        value = value + _line(lam, b, x, h, bend)
    return np.where(h > 0, 1.0, 0.0) - value / np.pi


def quadratic_form_cdf(lam, b, x) -> np.ndarray | float:
    """P[Q < x] for Q = sum_k lam_k Y_k^2 + 2 b_k Y_k, Y_1, ..., Y_p independent N(0, 1).

    Q is lam_k (Y_k + b_k / lam_k)^2 - b_k^2 / lam_k summed: a
    weighted sum of non-central chi-squares (1 degree of freedom, non-centrality
    b_k^2 / lam_k^2) plus a normal term (2 b_k Y_k where lam_k = 0). The Gil-Pelaez inversion
    of its characteristic function is integrated along a path through the saddle point (see the
    module's docstring); absolute error about 1e-10. Eigenvalues ``|lam_k| <= 1e-12`` count as 0.
    MixSim computes the same law with Davies' algorithm.

    Parameters
    ----------
    lam : array-like of float, shape (p,) or (m, p)
        The weights lam_k of the squares: one form, or m forms at once.
    b : array-like of float, shape (p,) or (m, p)
        The weights b_k of the linear terms.
    x : float or array-like of float, shape (m,)
        Where the cdf is evaluated (one point per form).

    Returns
    -------
    float or ndarray of float, shape (m,)
        P[Q < x]: a float for one form, an array for m forms.

    See Also
    --------
    misclassification : Its use: the misclassification probabilities of a mixture.
    scipy.stats.ncx2 : The non-central chi-square law of one term.

    References
    ----------
    Gil-Pelaez, J. (1951), "Note on the inversion theorem", Biometrika 38.

    Davies, R. B. (1980), "Algorithm AS 155: The distribution of a linear combination of
    chi-squared random variables", Applied Statistics 29.

    Examples
    --------
    >>> round(quadratic_form_cdf([0.0], [0.5], 1.0), 6) == round(float(ndtr(1.0)), 6)
    True
    >>> from scipy.stats import chi2
    >>> round(quadratic_form_cdf([1.0, 1.0, 1.0], [0.0, 0.0, 0.0], 2.5), 8)
    0.52470892
    >>> round(float(chi2.cdf(2.5, 3)), 8)
    0.52470892
    """
    lam, b, x, single = _check_form(lam, b, x)
    lam = np.where(np.abs(lam) <= LAM_ZERO, 0.0, lam)
    # P[Q < x] does not change when lam, b and x are divided by a positive number: first the
    # largest |lam_k|, |b_k| (against under- and overflow), then Q's standard deviation
    for unit in (np.max(np.abs(np.concatenate([lam, b], axis=1)), axis=1), None):
        if unit is None:
            unit = np.sqrt(np.sum(2 * lam**2 + 4 * b**2, axis=1))
        unit = np.where(unit > 0, unit, 1.0)
        lam, b, x = lam / unit[:, None], b / unit[:, None], x / unit
    # Rows whose oscillation frequency nu = x + sum b^2 / lam is negative decay above the real
    # axis: use P[Q < x] = 1 - P[-Q < -x] (Q is continuous there).
    nz = lam != 0
    safe = np.where(nz, lam, 1.0)
    nu = x + np.sum(np.where(nz, b * b / safe, 0.0), axis=1)
    sign = np.where(nu < 0, -1.0, 1.0)
    lam, b, x = lam * sign[:, None], b * sign[:, None], x * sign
    # The support of Q: bounded above when no lam > 0 and no normal term, below likewise.
    normal = np.any(~nz & (b != 0), axis=1)
    vertex = np.sum(np.where(nz, -b * b / np.where(nz, lam, 1.0), 0.0), axis=1)
    top = np.where((lam.max(axis=1) > 0) | normal, np.inf, vertex)
    bottom = np.where((lam.min(axis=1) < 0) | normal, -np.inf, vertex)
    out = np.where(x <= bottom, 0.0, np.where(x >= top, 1.0, np.nan))
    inside = np.isnan(out)
    if inside.any():
        out[inside] = _contour_cdf(lam[inside], b[inside], x[inside])
    out = np.clip(np.where(sign < 0, 1.0 - out, out), 0.0, 1.0)
    return float(out[0]) if single else out


# -- the mixture's misclassification probabilities and overlaps -----------------------------


def _array(obj, name: str, what: str) -> np.ndarray:
    try:
        return np.asarray(obj, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be numbers {what}") from None


def _check_mixture(weights, means, covariances):
    w = _array(weights, "weights", "a 1-D array of K >= 2 mixing proportions")
    if w.ndim != 1 or w.size < 2:
        raise ValueError(f"weights must be a 1-D array of K >= 2 mixing proportions, got shape "
                         f"{w.shape}")
    if not np.all(np.isfinite(w)) or np.any(w <= 0) or abs(w.sum() - 1) > 1e-9:
        raise ValueError(f"weights must be positive and sum to 1, got {w.tolist()}")
    mu = _array(means, "means", f"of shape (K, p) = ({w.size}, p)")
    if mu.ndim != 2 or mu.shape[0] != w.size or mu.shape[1] < 1:
        raise ValueError(f"means must have shape (K, p) = ({w.size}, p), got {mu.shape}")
    if not np.all(np.isfinite(mu)):
        raise ValueError("means must hold finite numbers")
    p = mu.shape[1]
    cov = _array(covariances, "covariances", f"of shape (K, p, p) = ({w.size}, {p}, {p})")
    if cov.shape != (w.size, p, p):
        raise ValueError(f"covariances must have shape (K, p, p) = ({w.size}, {p}, {p}), got "
                         f"{cov.shape}")
    if not np.all(np.isfinite(cov)) or not np.allclose(cov, np.swapaxes(cov, 1, 2),
                                                       rtol=1e-10, atol=0):
        raise ValueError("covariances must be finite symmetric matrices")
    chol = []
    for k, s in enumerate(cov):
        try:
            chol.append(cho_factor(s, lower=True))
        except np.linalg.LinAlgError:
            raise ValueError(f"covariances[{k}] is not positive definite") from None
    return w, mu, cov, chol


def _logdet(factor):
    return 2 * np.sum(np.log(np.diag(factor[0])))


def pair_terms(weights, means, covariances):
    """The quadratic forms of all ordered pairs (i, j), i != j, for the means scaled by 1.

    Returns ``pairs`` (P x 2: i, j), ``lam`` and ``b`` (P x p), ``c0`` and ``r`` (P): with the
    means scaled by c, omega_{j|i} = P[sum lam Y^2 + 2 c b Y < r - c^2 c0]."""
    w, mu, cov, chol = _check_mixture(weights, means, covariances)
    k, p = mu.shape
    pairs, lam, b, c0, r = [], [], [], [], []
    for i in range(k):
        low = np.tril(chol[i][0])
        for j in range(k):
            if i == j:
                continue
            inv_low = cho_solve(chol[j], low)                 # S_j^{-1} L
            vals, vecs = np.linalg.eigh(low.T @ inv_low - np.eye(p))
            delta = mu[i] - mu[j]
            inv_delta = cho_solve(chol[j], delta)              # S_j^{-1} delta
            pairs.append((i, j))
            lam.append(vals)
            b.append(vecs.T @ (low.T @ inv_delta))
            c0.append(delta @ inv_delta)
            r.append(2 * np.log(w[j] / w[i]) + _logdet(chol[i]) - _logdet(chol[j]))
    return (np.array(pairs), np.array(lam), np.array(b), np.array(c0), np.array(r))


def _closed_form(w_from, w_to, distance):
    """omega_{j|i} for equal covariances: Phi((log(w_j / w_i) - D^2 / 2) / D)."""
    a = np.log(w_to / w_from)
    if distance == 0:  # identical components: the larger weight takes every object
        return 1.0 if a > 0 else 0.0
    return float(ndtr((a - distance**2 / 2) / distance))


@fill_doc
def misclassification(weights, means, covariances, *, method: str = "auto") -> np.ndarray:
    """The misclassification probabilities omega_{j|i} of a Gaussian mixture.

    omega_{j|i} is the probability that an object of component i is classified to component
    j, w_j phi_j(X) > w_i phi_i(X) (Maitra & Melnykov 2010). With equal covariances it has the
    closed form Phi((log(w_j / w_i) - D^2 / 2) / D), D the Mahalanobis distance between the
    means.

    Parameters
    ----------
    weights : array-like of float, shape (K,)
        The mixing proportions (positive).
    means : array-like of float, shape (K, p)
        The components' means.
    covariances : array-like of float, shape (K, p, p)
        The components' covariance matrices (symmetric positive definite).
    method : {"auto", "general"}, default "auto"
        "auto" uses the closed form for the pairs with equal covariances and the quadratic
        form's law (``quadratic_form_cdf``) for the others; "general" the latter for all.

    Returns
    -------
    ndarray of float, shape (K, K)
        omega_{j|i} in row i, column j; the diagonal is 0.

    See Also
    --------
    overlap : The pairwise overlaps omega_ij = omega_{i|j} + omega_{j|i}.
    quadratic_form_cdf : The law it rests on.

    References
    ----------
    {ref:maitra2010}.

    {ref:melnykov2012}.

    Examples
    --------
    >>> m = misclassification([0.3, 0.7], [[0.0], [1.0]], [[[1.0]], [[1.0]]])
    >>> np.round(m, 6).tolist()
    [[0.0, 0.635816], [0.088942, 0.0]]
    >>> round(float(ndtr(np.log(0.7 / 0.3) - 0.5)), 6)  # Phi((log(w_j / w_i) - D^2 / 2) / D)
    0.635816
    """
    if method not in ("auto", "general"):
        raise ValueError(f"method must be 'auto' or 'general', got {method!r}")
    pairs, lam, b, c0, r = pair_terms(weights, means, covariances)
    w = np.asarray(weights, dtype=float)
    cov = np.asarray(covariances, dtype=float)
    out = np.zeros((w.size, w.size))
    general = []
    for row, (i, j) in enumerate(pairs):
        if method == "auto" and np.array_equal(cov[i], cov[j]):
            out[i, j] = _closed_form(w[i], w[j], np.sqrt(max(c0[row], 0.0)))
        else:
            general.append(row)
    if general:
        g = np.array(general)
        out[pairs[g, 0], pairs[g, 1]] = quadratic_form_cdf(lam[g], b[g], r[g] - c0[g])
    return out


@dataclass(frozen=True)
class MixtureOverlap:
    """The overlaps of a Gaussian mixture (the result of ``overlap``).

    Parameters
    ----------
    average : float
        The mean of omega_ij over the K (K - 1) / 2 pairs (MixSim's BarOmega).
    maximum : float
        The largest omega_ij (MixSim's MaxOmega).
    pairwise : ndarray of float, shape (K, K)
        omega_ij = omega_{i|j} + omega_{j|i}, symmetric, diagonal 0.
    misclassification : ndarray of float, shape (K, K)
        omega_{j|i} in row i, column j.

    See Also
    --------
    overlap : Compute them.

    Examples
    --------
    >>> ov = overlap([0.5, 0.5], [[0.0], [1.0]], [[[1.0]], [[1.0]]])
    >>> ov.pairwise.round(6).tolist()
    [[0.0, 0.617075], [0.617075, 0.0]]
    """

    average: float
    maximum: float
    pairwise: np.ndarray
    misclassification: np.ndarray


@fill_doc
def overlap(weights, means, covariances, *, method: str = "auto") -> MixtureOverlap:
    """Average and maximum pairwise overlap of a Gaussian mixture, as MixSim defines them.

    The overlap of components i and j is omega_ij = omega_{i|j} + omega_{j|i}, the sum of the
    two misclassification probabilities (Maitra & Melnykov 2010; MixSim's BarOmega and
    MaxOmega are its mean and largest value over the pairs).

    Parameters
    ----------
    weights : array-like of float, shape (K,)
        The mixing proportions (positive).
    means : array-like of float, shape (K, p)
        The components' means.
    covariances : array-like of float, shape (K, p, p)
        The components' covariance matrices (symmetric positive definite).
    method : {"auto", "general"}, default "auto"
        "auto" uses the closed form for the pairs with equal covariances and the quadratic
        form's law (``quadratic_form_cdf``) for the others; "general" the latter for all.

    Returns
    -------
    MixtureOverlap
        ``average``, ``maximum``, ``pairwise`` and ``misclassification``.

    See Also
    --------
    misclassification : The omega_{j|i}.
    clusteragree.studies.simulate.mixture : Mixtures with a target average overlap.

    References
    ----------
    {ref:maitra2010}.

    {ref:melnykov2012}.

    Examples
    --------
    >>> ov = overlap([0.5, 0.5], [[0.0], [1.0]], [[[1.0]], [[1.0]]])
    >>> round(ov.average, 6), round(2 * float(ndtr(-0.5)), 6)
    (0.617075, 0.617075)
    """
    omega = misclassification(weights, means, covariances, method=method)
    pairwise = omega + omega.T
    iu = np.triu_indices(len(pairwise), 1)
    return MixtureOverlap(float(pairwise[iu].mean()), float(pairwise[iu].max()), pairwise, omega)


def average_overlap_at(scale, terms) -> tuple[float, float]:
    """Average and maximum overlap of the mixture whose ``pair_terms`` are ``terms``, with its
    means multiplied by ``scale`` (0 puts every mean at the origin)."""
    pairs, lam, b, c0, r = terms
    omega = quadratic_form_cdf(lam, scale * b, r - scale**2 * c0)
    k = int(pairs.max()) + 1
    table = np.zeros((k, k))
    table[pairs[:, 0], pairs[:, 1]] = omega
    pairwise = (table + table.T)[np.triu_indices(k, 1)]
    return float(pairwise.mean()), float(pairwise.max())
