"""MixSim's overlap of Gaussian mixture components (clusteragree.studies.mixture_overlap).

Every value of the module is checked against a computation that shares none of its route:
the exact law of one term (normal probabilities of the roots of a quadratic), a 1-D
conditioning integral for two terms, scipy's (non-central) chi-square laws, the closed form for
equal covariances, and Monte Carlo (within 4 standard errors).
"""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, stats
from scipy.special import ndtr

from clusteragree.studies import mixture_overlap as mo
from clusteragree.studies.mixture_overlap import (
    misclassification,
    overlap,
    quadratic_form_cdf,
)


def random_covariance(p, rng):
    """A random covariance matrix: a Wishart draw with p + 2 degrees of freedom, mean I."""
    return np.reshape(stats.wishart(df=p + 2, scale=np.eye(p) / (p + 2)).rvs(random_state=rng),
                      (p, p))


def one_term_cdf(lam, b, s):
    """P[lam Y^2 + 2 b Y < s], Y ~ N(0, 1): the roots of the quadratic, by normal probabilities
    (the numerically stable root formula)."""
    if lam == 0:
        return float(s > 0) if b == 0 else float(ndtr(s / (2 * b)) if b > 0 else ndtr(-s / (2 * b)))
    disc = b * b + lam * s
    if disc <= 0:
        return 0.0 if lam > 0 else 1.0
    q = -(b + np.copysign(np.sqrt(disc), b))
    r1, r2 = sorted([q / lam, -s / q]) if q != 0 else sorted([np.sqrt(disc) / lam,
                                                               -np.sqrt(disc) / lam])
    inside = ndtr(r2) - ndtr(r1)
    return float(inside if lam > 0 else 1 - inside)


def two_term_cdf(lam, b, x):
    """P[sum_{k=1,2} lam_k Y_k^2 + 2 b_k Y_k < x] by conditioning on one Y_k: 1-D quadrature of
    the exact law of the other term, chosen to be the smoother function of its argument (a
    normal term if there is one, else the larger |lam_k|); the points where it has a kink are
    passed to quad."""
    if lam[0] == 0 or (lam[1] != 0 and abs(lam[0]) > abs(lam[1])):
        lam, b = lam[::-1], b[::-1]
    def f(y):
        return stats.norm.pdf(y) * one_term_cdf(lam[1], b[1], x - lam[0] * y * y - 2 * b[0] * y)

    level = x + b[1] ** 2 / lam[1] if lam[1] else x
    points = []
    disc = b[0] ** 2 + lam[0] * level
    if lam[0] and disc >= 0:
        points = [(-b[0] - np.sqrt(disc)) / lam[0], (-b[0] + np.sqrt(disc)) / lam[0]]
    elif not lam[0] and b[0]:
        points = [level / (2 * b[0])]
    # and a grid, so that no narrow step of the inner law is missed
    points = sorted({round(p, 12) for p in points if abs(p) < 12} | set(np.linspace(-6, 6, 49)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", integrate.IntegrationWarning)
        return integrate.quad(f, -12, 12, limit=2000, epsabs=1e-13, epsrel=1e-12,
                              points=points)[0]


def monte_carlo_misclassification(weights, means, covs, n, rng):
    """omega_{j|i} by simulation: the share of n draws of component i with
    w_j phi_j > w_i phi_i; and its standard error."""
    k = len(weights)
    est, se = np.zeros((k, k)), np.zeros((k, k))
    for i in range(k):
        x = rng.multivariate_normal(means[i], covs[i], size=n)
        logd = np.column_stack([np.log(weights[j]) + stats.multivariate_normal.logpdf(
            x, means[j], covs[j]) for j in range(k)])
        for j in range(k):
            if j != i:
                p = np.mean(logd[:, j] > logd[:, i])
                est[i, j], se[i, j] = p, np.sqrt(max(p * (1 - p), 1 / n) / n)
    return est, se


# -- the law of the quadratic form --------------------------------------------------------------

@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(lam=st.floats(-5, 5), b=st.floats(-5, 5), q=st.floats(0.001, 0.999))
def test_one_term_matches_the_normal_probabilities_of_the_roots(lam, b, q):
    lam = 0.0 if abs(lam) < 1e-3 else lam
    if lam == 0 and b == 0:
        return
    x = float(np.quantile(lam * stats.norm.ppf(np.linspace(0.001, 0.999, 999)) ** 2
                          + 2 * b * stats.norm.ppf(np.linspace(0.001, 0.999, 999)), q))
    assert quadratic_form_cdf([lam], [b], x) == pytest.approx(one_term_cdf(lam, b, x), abs=1e-9)


def test_two_terms_match_the_conditioning_integral():
    rng = np.random.default_rng(11)
    cases = []
    for _ in range(25):
        lam = rng.normal(size=2) * rng.choice([0.05, 0.5, 3.0])
        b = rng.normal(size=2) * rng.choice([0.0, 0.1, 1.0, 4.0])
        cases.append((lam, b))
    cases += [(np.array([0.7, 0.0]), np.array([0.3, 1.2])),    # one normal term
              (np.array([1.0, -1.0]), np.array([0.0, 0.0])),   # symmetric, log-singular at 0
              (np.array([0.001, -0.5]), np.array([0.4, -1.3]))]  # slow and fast terms
    lam = np.array([c[0] for c in cases])
    b = np.array([c[1] for c in cases])
    draws = rng.standard_normal((4000, 2))
    x = np.array([np.quantile((lm * draws**2 + 2 * bb * draws).sum(1), rng.uniform(0.01, 0.99))
                  for lm, bb in zip(lam, b)])
    got = quadratic_form_cdf(lam, b, x)
    want = np.array([two_term_cdf(lm, bb, xx) for lm, bb, xx in zip(lam, b, x)])
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-9)
    # one row at a time gives the same values as the batch
    assert quadratic_form_cdf(lam[0], b[0], x[0]) == pytest.approx(got[0], abs=1e-12)


def test_a_path_that_must_bend():
    # a nearly flat term (lam = -3.6e-6) with a large shift b^2 / lam: along a ray from the
    # saddle point g would grow by e^900 before decaying, so the path follows the horizontal
    # line for 6.6e7 (in units of Q's s.d.) while the mass sits within about 10 of the vertex
    lam = np.array([41.85514495816039, -3.6110730406418156e-06])
    b = np.array([0.20990960692223282, -0.04839179763230948])
    x = 9.140730566632163
    assert quadratic_form_cdf(lam, b, x) == pytest.approx(two_term_cdf(lam, b, x), abs=1e-9)
    sd = np.sqrt(np.sum(2 * lam**2 + 4 * b**2))
    flipped = (-lam / sd)[None], (-b / sd)[None], np.array([-x / sd])   # nu < 0 here
    h = mo._saddle(*flipped)
    assert mo._bends(*flipped, h)[0] > 1e7


@pytest.mark.parametrize("p", [1, 2, 3, 6])
@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_equal_weights_give_scipys_noncentral_chi_square(p, sign):
    # Q = lam sum (Y + b/lam)^2 - sum b^2/lam = lam chi2'_p(nc) - sum b^2/lam
    rng = np.random.default_rng(p)
    lam = sign * 0.8
    for b in (np.zeros(p), rng.normal(size=p)):
        nc = float(np.sum((b / lam) ** 2))
        shift = float(np.sum(b**2) / lam)
        for x in sign * np.array([0.3, 1.5, 4.0, 12.0]) - shift:
            y = (x + shift) / lam
            want = (stats.ncx2.cdf(y, p, nc) if nc else stats.chi2.cdf(y, p)) if sign > 0 else \
                (stats.ncx2.sf(y, p, nc) if nc else stats.chi2.sf(y, p))
            assert quadratic_form_cdf(np.full(p, lam), b, x) == pytest.approx(want, abs=1e-9)


def test_points_outside_the_support_and_the_far_tails():
    # lam > 0 only: Q >= -b^2/lam; lam < 0 only: Q <= -b^2/lam
    assert quadratic_form_cdf([2.0], [1.0], -0.5) == 0.0
    assert quadratic_form_cdf([2.0], [1.0], -0.6) == 0.0
    assert quadratic_form_cdf([-2.0], [1.0], 0.5) == 1.0
    assert quadratic_form_cdf([0.0, 0.0], [0.0, 0.0], 0.0) == 0.0   # Q = 0: P[0 < 0]
    assert quadratic_form_cdf([0.0, 0.0], [0.0, 0.0], 1e-9) == 1.0
    # a tail probability far below 1e-10 is still right in absolute terms
    assert quadratic_form_cdf([1.0, 1.0], [0.0, 0.0], 80.0) == pytest.approx(1.0, abs=1e-12)
    assert quadratic_form_cdf([1.0, 1.0], [0.0, 0.0], 1e-6) == pytest.approx(
        stats.chi2.cdf(1e-6, 2), abs=1e-12)


def test_quadratic_form_input_errors():
    with pytest.raises(ValueError, match="same shape"):
        quadratic_form_cdf([1.0, 2.0], [1.0], 0.0)
    with pytest.raises(ValueError, match="one number per row"):
        quadratic_form_cdf([[1.0], [2.0]], [[1.0], [0.0]], [0.0, 1.0, 2.0])
    with pytest.raises(ValueError, match="finite"):
        quadratic_form_cdf([np.nan], [1.0], 0.0)
    with pytest.raises(ValueError, match="at least one term"):
        quadratic_form_cdf([], [], 0.0)


# -- misclassification probabilities and overlaps ------------------------------------------------

def test_equal_covariances_closed_form_equals_the_general_method():
    rng = np.random.default_rng(3)
    for p in (1, 2, 4):
        for _ in range(4):
            k = int(rng.integers(2, 5))
            w = rng.dirichlet(np.ones(k) * 2)
            cov = random_covariance(p, rng) * rng.uniform(0.2, 3)
            means = rng.normal(size=(k, p)) * rng.choice([0.1, 1.0, 4.0])
            covs = np.repeat(cov[None], k, axis=0)
            closed = misclassification(w, means, covs)
            general = misclassification(w, means, covs, method="general")
            np.testing.assert_allclose(general, closed, rtol=0, atol=1e-9)
            # and the closed form is Phi((log(w_j / w_i) - D^2 / 2) / D)
            inv = np.linalg.inv(cov)
            for i in range(k):
                for j in range(k):
                    if i != j:
                        d = np.sqrt((means[i] - means[j]) @ inv @ (means[i] - means[j]))
                        want = ndtr((np.log(w[j] / w[i]) - d * d / 2) / d)
                        assert closed[i, j] == pytest.approx(want, abs=1e-14)


@pytest.mark.parametrize("p", [2, 3, 4])
def test_misclassification_agrees_with_monte_carlo(p):
    rng = np.random.default_rng(20 + p)
    k = 3
    w = rng.dirichlet(np.ones(k) * 3)
    covs = np.stack([random_covariance(p, rng) for _ in range(k)])
    means = rng.uniform(size=(k, p)) * 1.5
    omega = misclassification(w, means, covs)
    est, se = monte_carlo_misclassification(w, means, covs, 60_000, rng)
    off = ~np.eye(k, dtype=bool)
    assert np.all(np.abs(omega - est)[off] <= 4 * se[off])
    assert np.all(np.diag(omega) == 0)


def test_overlap_average_maximum_and_pairwise():
    rng = np.random.default_rng(5)
    w = np.array([0.5, 0.25, 0.15, 0.1])
    covs = np.stack([random_covariance(4, rng) for _ in range(4)])
    means = rng.uniform(size=(4, 4)) * 2
    ov = overlap(w, means, covs)
    omega = misclassification(w, means, covs)
    pairs = [omega[i, j] + omega[j, i] for i in range(4) for j in range(i + 1, 4)]
    assert ov.average == pytest.approx(np.mean(pairs), abs=1e-15)
    assert ov.maximum == pytest.approx(np.max(pairs), abs=1e-15)
    np.testing.assert_allclose(ov.pairwise, ov.pairwise.T)
    assert np.all((ov.pairwise >= 0) & (ov.pairwise <= 1))
    np.testing.assert_array_equal(ov.misclassification, omega)


@settings(max_examples=15, deadline=None, derandomize=True, database=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_overlap_is_invariant_under_affine_maps_and_relabelling(seed):
    # X -> A X + a maps each component to N(A mu + a, A S A'): the classification rule and all
    # its probabilities stay the same; relabelling the components permutes the matrix.
    rng = np.random.default_rng(seed)
    k, p = 3, 2
    w = rng.dirichlet(np.ones(k) * 2)
    covs = np.stack([random_covariance(p, rng) for _ in range(k)])
    means = rng.uniform(size=(k, p)) * 2
    a_mat = rng.normal(size=(p, p)) + 2 * np.eye(p)
    shift = rng.normal(size=p)
    omega = misclassification(w, means, covs)
    moved = misclassification(w, means @ a_mat.T + shift, a_mat @ covs @ a_mat.T)
    np.testing.assert_allclose(moved, omega, rtol=0, atol=1e-8)
    perm = rng.permutation(k)
    relabelled = misclassification(w[perm], means[perm], covs[perm])
    np.testing.assert_allclose(relabelled, omega[np.ix_(perm, perm)], rtol=0, atol=1e-12)


def test_identical_components_and_bad_mixtures():
    eye = np.eye(2)
    # identical components: the larger weight takes every object (ties go to neither)
    m = misclassification([0.3, 0.7], [[0, 0], [0, 0]], [eye, eye])
    assert m.tolist() == [[0.0, 1.0], [0.0, 0.0]]
    with pytest.raises(ValueError, match="sum to 1"):
        overlap([0.3, 0.3], [[0, 0], [1, 1]], [eye, eye])
    with pytest.raises(ValueError, match="positive"):
        overlap([1.2, -0.2], [[0, 0], [1, 1]], [eye, eye])
    with pytest.raises(ValueError, match="K >= 2"):
        overlap([1.0], [[0, 0]], [eye])
    with pytest.raises(ValueError, match=r"means must have shape \(K, p\)"):
        overlap([0.5, 0.5], [[0, 0]], [eye, eye])
    with pytest.raises(ValueError, match="covariances must (have shape|be numbers of shape)"):
        overlap([0.5, 0.5], [[0, 0], [1, 1]], [eye, np.eye(3)])
    with pytest.raises(ValueError, match=r"covariances\[1\] is not positive definite"):
        overlap([0.5, 0.5], [[0, 0], [1, 1]], [eye, -eye])
    with pytest.raises(ValueError, match="symmetric"):
        overlap([0.5, 0.5], [[0, 0], [1, 1]], [eye, [[1, 0.5], [0, 1]]])
    with pytest.raises(ValueError, match="method must be"):
        overlap([0.5, 0.5], [[0, 0], [1, 1]], [eye, eye], method="davies")
