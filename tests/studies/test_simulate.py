"""The thesis design (clusteragree.studies.simulate): margins, Gaussian mixtures with a target average
overlap (MixSim's definition), and the 540 data sets."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from clusteragree.studies import simulate
from clusteragree.studies.mixture_overlap import overlap
from clusteragree.studies.simulate import (
    SEPARATION,
    THESIS_N,
    THESIS_OVERLAP,
    THESIS_WEIGHTS,
    design,
    mixture,
    random_covariance,
    random_margins,
    simulate_row,
)


@pytest.mark.parametrize("k", [2, 3, 4])
@pytest.mark.parametrize("balance", ["balanced", "unbalanced"])
def test_margins_sum_to_n_and_follow_the_weights(k, balance):
    rows, cols = random_margins(k, balance, seed=3)
    assert rows.size == cols.size == k
    assert rows.sum() == cols.sum() == THESIS_N[k]
    assert (rows > 0).all() and (cols > 0).all()
    # the average of many draws is n times the weights (multinomial mean), within 4 s.e.
    draws = np.array([random_margins(k, balance, seed=s)[0] for s in range(400)])
    w = np.asarray(THESIS_WEIGHTS[k][balance])
    se = np.sqrt(THESIS_N[k] * w * (1 - w) / 400)
    assert np.all(np.abs(draws.mean(axis=0) - THESIS_N[k] * w) < 4 * se)


def test_weights_sum_to_one():
    for by_balance in THESIS_WEIGHTS.values():
        for w in by_balance.values():
            assert sum(w) == pytest.approx(1.0)


def test_same_seed_same_margins_and_bad_input():
    a, b = random_margins(3, "unbalanced", 50, seed=7), random_margins(3, "unbalanced", 50, seed=7)
    assert all((x == y).all() for x, y in zip(a, b))
    with pytest.raises(ValueError, match="k must be one of"):
        random_margins(5, "balanced")
    with pytest.raises(ValueError, match="balance"):
        random_margins(3, "even")
    with pytest.raises(ValueError, match="n must be >= 3"):
        random_margins(3, "balanced", n=2)


# -- Gaussian mixtures with a target average overlap (MixSim's definition) ----------------------

SCENARIOS = [(b, k, s) for b in ("balanced", "unbalanced") for k in (2, 3, 4) for s in SEPARATION]


def monte_carlo_average_overlap(info, n, rng):
    """MixSim's average overlap by simulation from the mixture's parameters, and its s.e.
    (the omega_{j|i} of different i use independent draws)."""
    w, mu, cov = info["weights"], info["means"], info["covariances"]
    k = len(w)
    total, var = 0.0, 0.0
    for i in range(k):
        x = rng.multivariate_normal(mu[i], cov[i], size=n)
        logd = np.column_stack([np.log(w[j]) + stats.multivariate_normal.logpdf(x, mu[j], cov[j])
                                for j in range(k)])
        # objects of component i wrongly given to each j: the sum over j of omega_{j|i}
        wrong = sum((logd[:, j] > logd[:, i]).astype(float) for j in range(k) if j != i)
        total += wrong.mean()
        var += wrong.var(ddof=1) / n
    pairs = k * (k - 1) / 2
    return total / pairs, np.sqrt(var) / pairs


@pytest.mark.parametrize("balance,k,separation", SCENARIOS)
def test_every_scenario_reaches_its_target_overlap(balance, k, separation):
    X, labels, info = mixture(k, balance, separation, seed=100 + k)
    target = THESIS_OVERLAP[separation]
    assert info["target"] == target
    assert abs(info["overlap"] - target) <= 1e-6
    # recomputed from the returned parameters
    ov = overlap(info["weights"], info["means"], info["covariances"])
    assert ov.average == pytest.approx(info["overlap"], abs=1e-9)
    assert ov.maximum == pytest.approx(info["max_overlap"], abs=1e-9)
    assert ov.maximum >= ov.average - 1e-12
    # the thesis' shape of a data set: p = K variables, n objects, labels 0..K-1
    assert X.shape == (THESIS_N[k], k) and labels.shape == (THESIS_N[k],)
    assert sorted(np.unique(labels).tolist()) == list(range(k))
    np.testing.assert_allclose(info["weights"], THESIS_WEIGHTS[k][balance])


@pytest.mark.parametrize("scenario", [("balanced", 2, "poor"), ("unbalanced", 3, "moderate"),
                                      ("unbalanced", 4, "good")])
def test_achieved_overlap_agrees_with_monte_carlo(scenario):
    balance, k, separation = scenario
    _, _, info = mixture(k, balance, separation, n=50, seed=5)
    est, se = monte_carlo_average_overlap(info, 40_000, np.random.default_rng(9))
    assert abs(est - THESIS_OVERLAP[separation]) <= 4 * se


def test_the_data_follow_the_returned_mixture():
    X, labels, info = mixture(4, "unbalanced", "good", seed=3)
    n = len(labels)
    w = info["weights"]
    counts = np.bincount(labels, minlength=4)
    assert np.all(np.abs(counts - n * w) <= 4 * np.sqrt(n * w * (1 - w)))
    for j in range(4):
        xj = X[labels == j]
        se = np.sqrt(np.diag(info["covariances"][j]) / len(xj))
        assert np.all(np.abs(xj.mean(axis=0) - info["means"][j]) <= 4.5 * se)
    assert info["scale"] > 0 and info["draws"] >= 1


def test_same_seed_same_data_and_other_seeds_differ():
    a = mixture(3, "balanced", "moderate", n=120, seed=8)
    b = mixture(3, "balanced", "moderate", n=120, seed=8)
    c = mixture(3, "balanced", "moderate", n=120, seed=9)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert a[2]["scale"] == b[2]["scale"]
    assert not np.array_equal(a[0], c[0])
    # a Generator seed is used as the stream
    g1 = mixture(2, "balanced", "good", n=40, seed=np.random.default_rng(4))
    g2 = mixture(2, "balanced", "good", n=40, seed=np.random.default_rng(4))
    np.testing.assert_array_equal(g1[0], g2[0])


def test_overlap_p_and_n_overrides():
    X, labels, info = mixture(2, "unbalanced", "poor", n=70, p=5, seed=1, overlap=0.3)
    assert X.shape == (70, 5) and info["means"].shape == (2, 5)
    assert info["target"] == 0.3 and abs(info["overlap"] - 0.3) <= 1e-6
    _, _, loose = mixture(2, "balanced", "good", n=30, seed=1, tol=1e-3)
    assert abs(loose["overlap"] - 0.02) <= 1e-3


def test_random_covariance_as_mixsim():
    rng = np.random.default_rng(0)
    for p in (2, 3, 4):
        for _ in range(50):
            s = random_covariance(p, rng)
            vals = np.linalg.eigvalsh(s)
            assert np.allclose(s, s.T) and vals.min() > 0
            assert np.sqrt(1 - vals.min() / vals.max()) <= 0.9 + 1e-9
    # p = 1: the sample variance of two standard normals, a chi-square(1): mean 1, var 2
    draws = np.array([random_covariance(1, rng)[0, 0] for _ in range(4000)])
    assert abs(draws.mean() - 1) <= 4 * np.sqrt(2 / 4000)
    with pytest.raises(ValueError, match="eccentricity"):
        random_covariance(2, 1, eccentricity=1.0)


def test_mixture_bad_input_errors(monkeypatch):
    with pytest.raises(ValueError, match=r"k must be one of \[2, 3, 4\]"):
        mixture(1, "balanced", "good")
    with pytest.raises(ValueError, match="k must be one of"):
        mixture(5, "balanced", "good")
    with pytest.raises(TypeError, match="k must be a whole number"):
        mixture(2.0, "balanced", "good")
    with pytest.raises(ValueError, match="balance"):
        mixture(2, "even", "good")
    with pytest.raises(ValueError, match="separation must be one of"):
        mixture(2, "balanced", "excellent")
    with pytest.raises(ValueError, match="n must be >= 3"):
        mixture(3, "balanced", "good", n=2)
    with pytest.raises(ValueError, match="p must be >= 1"):
        mixture(3, "balanced", "good", p=0)
    for bad in (0.0, 1.0, -0.1, 1.5):
        with pytest.raises(ValueError, match=r"overlap must lie in \(0, 1\)"):
            mixture(2, "balanced", "good", overlap=bad)
    with pytest.raises(TypeError, match="overlap"):
        mixture(2, "balanced", "good", overlap="0.1")
    with pytest.raises(ValueError, match="tol must lie"):
        mixture(2, "balanced", "good", tol=0.0)
    with pytest.raises(ValueError, match="seed"):
        mixture(2, "balanced", "good", seed=-1)
    # a target no parameter draw reaches (0.999: even equal means overlap less)
    monkeypatch.setattr(simulate, "MAX_DRAWS", 3)
    with pytest.raises(ValueError, match="was not reached in 3 draws"):
        mixture(3, "balanced", "poor", n=30, seed=1, overlap=0.999)


# -- the 540 data sets -------------------------------------------------------------------------

def test_design_has_540_rows_in_18_scenarios():
    d = design()
    assert d.shape == (540, 9)
    assert list(d.columns) == ["scenario", "balance", "k", "p", "n", "separation",
                               "target_overlap", "rep", "seed"]
    assert d.scenario.nunique() == 18 and (d.groupby("scenario").size() == 30).all()
    assert d.seed.is_unique and (d.seed >= 0).all() and d.seed.dtype == np.int64
    # the thesis' codes: balance (1 balanced, 2 unbalanced), K, separation (1 poor .. 3 good)
    codes = d.balance.map({"balanced": "1", "unbalanced": "2"}) + d.k.astype(str) + \
        d.separation.map({"poor": "1", "moderate": "2", "good": "3"})
    assert (codes == d.scenario).all()
    assert (d.p == d.k).all() and (d.n == d.k.map(THESIS_N)).all()
    assert (d.target_overlap == d.separation.map(THESIS_OVERLAP)).all()
    row = d[d.scenario == "132"].iloc[0]
    assert (row.balance, row.k, row.separation) == ("balanced", 3, "moderate")


def test_design_seeds_are_reproducible_and_independent_of_reps():
    small, full = design(reps=2, seed=5), design(reps=30, seed=5)
    first = full[full.rep < 2].reset_index(drop=True)
    pd.testing.assert_frame_equal(small, first)
    assert not design(reps=2, seed=6).seed.equals(small.seed)
    with pytest.raises(ValueError, match="reps must be >= 1"):
        design(reps=0)


def test_simulate_row_builds_the_rows_data_set():
    d = design(reps=1, seed=2)
    row = d[d.scenario == "242"].iloc[0]
    X, labels, info = simulate_row(row)
    X2, labels2, _ = mixture(4, "unbalanced", "moderate", seed=int(row.seed))
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(labels, labels2)
    assert abs(info["overlap"] - 0.15) <= 1e-6
    # a mapping works as well as a Series; same row, same data
    X3, _, _ = simulate_row(row.to_dict())
    np.testing.assert_array_equal(X, X3)
    with pytest.raises(ValueError, match="lacks the design column"):
        simulate_row({"k": 2})
    with pytest.raises(TypeError, match="row must be"):
        simulate_row([2, "balanced"])
