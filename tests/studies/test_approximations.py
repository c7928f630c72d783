"""Tests of the approximate null means: the identities between the paired indices and the
published regressions (the core's ``clusteragree.nulls.approximations``), and the study of
``clusteragree.studies.approximations``: the null means over the thesis' design and the refitted
regressions.

Reference values are computed independently: null means by averaging an index over every
permutation of one labelling (small n), regressions by numpy's least squares, derivatives by
finite differences. The only constants typed in are the published ones (Amorim 2015, Table 7).
All randomness is seeded; hypothesis runs derandomized.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy import stats

import clusteragree as ca
from clusteragree.nulls import approximations as core
from clusteragree.nulls.approximations import (
    IDENTITIES,
    PUBLISHED,
    TARGETS,
    QuadraticFit,
    approximate_null_mean,
    identity_null_mean,
)
from clusteragree.studies import approximations as study
from clusteragree.studies.approximations import (
    APPROACHES,
    LINEAR,
    PAIRED,
    agreement_table,
    approximation_errors,
    approximation_residuals,
    correlations,
    design_null_means,
    fit_approximations,
    margin_null_means,
    simulated_agreement,
)
from clusteragree.studies.simulate import random_margins

SETTINGS = {"deadline": None, "derandomize": True, "database": None,
            "suppress_health_check": [HealthCheck.too_slow]}
TAB6A = ca.load_dataset("thesis_table6a")  # Amorim (2015), Table 6a: [[30, 20], [10, 20]]
SMALL = {"n_values": (40, 60), "ks": (2, 3), "balances": ("balanced", "unbalanced")}


# -- the identities -----------------------------------------------------------------------------

@st.composite
def tables(draw):
    k = draw(st.integers(1, 5))
    q = draw(st.integers(1, 5))
    cells = draw(st.lists(st.integers(0, 12), min_size=k * q, max_size=k * q))
    tab = np.array(cells).reshape(k, q)
    if tab.sum() < 2:
        tab[0, 0] += 2
    return tab


@settings(max_examples=150, **SETTINGS)
@given(tables())
def test_jaccard_gower_legendre_and_sokal_sneath2_are_functions_of_c_and_r(tab):
    v = ca.agreement(tab, index=list(PAIRED))
    C, R, J = v["czekanowski"], v["rand"], v["jaccard"]
    assert J == pytest.approx(C / (2 - C), abs=1e-12)
    assert v["gower_legendre"] == pytest.approx(2 * R / (1 + R), abs=1e-12)
    assert v["sokal_sneath2"] == pytest.approx(J / (2 - J), abs=1e-12)
    assert v["sokal_sneath2"] == pytest.approx(C / (4 - 3 * C), abs=1e-12)
    for t, ident in IDENTITIES.items():  # the module's g is the identity
        assert v[t] == pytest.approx(ident.g(v[ident.predictor]), abs=1e-12)


@pytest.mark.parametrize("target", TARGETS)
def test_second_derivatives_by_finite_differences(target):
    g, g2 = IDENTITIES[target].g, IDENTITIES[target].g2
    h = 1e-4
    for x in np.linspace(0.05, 0.95, 7):
        numeric = (g(x + h) - 2 * g(x) + g(x - h)) / h ** 2
        assert g2(x) == pytest.approx(numeric, rel=1e-5)


# -- the published fits ---------------------------------------------------------------------------

def test_published_fits_reproduce_the_thesis_table7_approximations():
    # Amorim (2015), Table 7 (table 6a): APPROX E[GL] = 0.668, APPROX E[J] = 0.340
    assert round(approximate_null_mean(TAB6A, "gower_legendre"), 3) == 0.668
    assert round(approximate_null_mean(TAB6A, "jaccard"), 3) == 0.340


def test_approximation_is_the_fit_at_the_exact_closed_form_mean():
    # the predictor's mean from the exact law (dynamic programme), not the closed form
    exact = ca.nulls.null_distributions(TAB6A, ["czekanowski", "rand"], "exact")
    for t, f in PUBLISHED.items():
        a, b, c = f.coef
        x = exact[f.predictor].mean
        assert approximate_null_mean(TAB6A, t) == pytest.approx(a * x * x + b * x + c, abs=1e-12)
    own = QuadraticFit("jaccard", "czekanowski", (0.0, 1.0, 0.0))  # E[J] ~ E[C]
    assert approximate_null_mean(TAB6A, "jaccard", own) == pytest.approx(
        exact["czekanowski"].mean, abs=1e-12)


# -- the core and the study ----------------------------------------------------------------------

CORE_NAMES = ("IDENTITIES", "PUBLISHED", "PUBLISHED_MAX_ERROR", "TARGETS", "QuadraticFit",
              "approximate_null_mean", "identity_null_mean")


@pytest.mark.parametrize("name", CORE_NAMES)
def test_the_study_module_still_offers_the_core_approximations(name):
    # users reached them as clusteragree.studies.approximations.<name>: the very same objects
    assert getattr(study, name) is getattr(core, name)
    assert name in study.__all__ and name in core.__all__
    assert ca.nulls.approximations is core


def test_the_core_approximations_import_nothing_from_the_wings():
    import ast
    from pathlib import Path

    tree = ast.parse(Path(core.__file__).read_text(encoding="utf-8"))
    modules = [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    modules += [a.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                for a in node.names]
    assert modules and not [m for m in modules if "studies" in m or "reports" in m], modules


def test_the_core_takes_a_refit_of_the_study():
    x = np.linspace(0.2, 0.6, 9)
    frame = pd.DataFrame({"mean_czekanowski": x, "mean_jaccard": 0.5 * x**2 + 0.3 * x + 0.02})
    refit = fit_approximations(frame, targets=["jaccard"])
    mu = ca.nulls.null_distribution(TAB6A, index="czekanowski", method="hypergeometric").mean
    a, b, c = refit.fits["jaccard"].coef
    assert approximate_null_mean(TAB6A, "jaccard", refit) == pytest.approx(
        (a * mu + b) * mu + c, abs=1e-12)
    assert approximate_null_mean(TAB6A, "jaccard", refit) != approximate_null_mean(TAB6A,
                                                                                   "jaccard")
    with pytest.raises(ValueError, match="index must be one of"):  # the refit has no GL fit
        approximate_null_mean(TAB6A, "gower_legendre", refit)


# -- exact means against brute force ----------------------------------------------------------

def brute_force_means(rows, cols):
    """Null means (and variances of C and R) of the paired indices over all n! relabellings."""
    x = np.repeat(np.arange(len(rows)), rows)
    y = np.repeat(np.arange(len(cols)), cols)
    n = x.size
    perms = np.array(list(itertools.permutations(range(n))))
    tabs = np.zeros((len(perms), len(rows), len(cols)), dtype=np.int64)
    for t, p in enumerate(perms):
        np.add.at(tabs[t], (x, y[p]), 1)
    values = {name: np.asarray(ca.agreement(tabs, index=name), dtype=float) for name in PAIRED}
    means = {name: v.mean() for name, v in values.items()}
    return means, values["czekanowski"].var(), values["rand"].var()


MARGINS = [([3, 4], [2, 5]), ([2, 2, 3], [4, 3]), ([1, 2, 3], [3, 2, 1]), ([2, 3], [1, 1, 3])]


@pytest.mark.parametrize("rows, cols", MARGINS)
def test_exact_null_means_equal_brute_force(rows, cols):
    means, var_c, var_r = brute_force_means(rows, cols)
    out = margin_null_means(rows, cols)
    assert out["method"] == "exact" and out["n_sim"] is None
    for name in PAIRED:
        assert out[f"mean_{name}"] == pytest.approx(means[name], abs=1e-12)
        assert out[f"se_{name}"] == 0
    assert out["var_czekanowski"] == pytest.approx(var_c, abs=1e-12)
    assert out["var_rand"] == pytest.approx(var_r, abs=1e-12)


@pytest.mark.parametrize("rows, cols", MARGINS)
def test_identity_means_from_brute_force_moments(rows, cols):
    means, var_c, var_r = brute_force_means(rows, cols)
    tab = ca.nulls.random_tables(rows, cols, 1, seed=1)[0]
    moments = {"czekanowski": (means["czekanowski"], var_c), "rand": (means["rand"], var_r)}
    for t, ident in IDENTITIES.items():
        mu, var = moments[ident.predictor]
        g = ident.g(mu)
        assert identity_null_mean(tab, t, order=1) == pytest.approx(g, abs=1e-12)
        assert identity_null_mean(tab, t, order=2) == pytest.approx(
            g + ident.g2(mu) * var / 2, abs=1e-12)


def test_delta_method_beats_the_plug_in_on_exact_laws():
    rng = np.random.default_rng(3)
    for k, balance in [(2, "balanced"), (2, "unbalanced"), (3, "unbalanced")]:
        rows, cols = random_margins(k, balance, 120, seed=rng)
        tab = ca.nulls.random_tables(rows, cols, 1, seed=rng)[0]
        exact = ca.nulls.null_distributions(tab, list(TARGETS), "exact")
        for t in TARGETS:
            e1 = abs(identity_null_mean(tab, t, order=1) - exact[t].mean)
            e2 = abs(identity_null_mean(tab, t, order=2) - exact[t].mean)
            assert e2 < e1 / 10, (k, balance, t, e1, e2)


def test_linear_means_of_the_exact_law_equal_the_closed_form():
    out = margin_null_means([30, 45, 25], [50, 50])
    assert out["method"] == "exact"
    for name in LINEAR:
        assert out[f"mean_plain_{name}"] == pytest.approx(out[f"mean_{name}"], abs=1e-12)


def test_control_variate_means_agree_with_the_exact_law_and_are_more_precise():
    rows, cols = [20, 25, 15], [30, 30]
    exact = margin_null_means(rows, cols)
    mc = margin_null_means(rows, cols, n_sim=4000, seed=7, max_work=1)  # exact refused
    assert mc["method"] == "patefield" and mc["n_sim"] == 4000
    for name in PAIRED:
        truth = exact[f"mean_{name}"]
        if name in LINEAR:
            assert mc[f"mean_{name}"] == pytest.approx(truth, abs=1e-12)
            assert mc[f"se_{name}"] == 0
            continue
        se, plain_se = mc[f"se_{name}"], mc[f"se_plain_{name}"]
        assert 0 < se < plain_se / 3
        assert abs(mc[f"mean_{name}"] - truth) < 5 * se
        assert abs(mc[f"mean_plain_{name}"] - truth) < 5 * plain_se


def test_control_variate_coverage_over_seeds():
    # the control-variate s.e. is honest: z-scores against the exact mean look standard normal
    rows, cols = [12, 18], [10, 20]
    truth = margin_null_means(rows, cols)["mean_jaccard"]
    z = []
    for s in range(40):
        mc = margin_null_means(rows, cols, n_sim=500, seed=s, max_work=1)
        z.append((mc["mean_jaccard"] - truth) / mc["se_jaccard"])
    z = np.array(z)
    assert abs(z.mean()) < 4 / math.sqrt(len(z))
    assert 0.6 < z.std() < 1.5


# -- the design --------------------------------------------------------------------------------

def test_design_frame_layout_and_margins():
    frame = design_null_means(2, n_sim=500, seed=3, **SMALL)
    assert len(frame) == 2 * 2 * 2 * 2
    assert list(frame.columns[:8]) == ["k", "balance", "n", "rep", "rows", "cols", "method",
                                       "n_sim"]
    for row in frame.itertuples():
        rows = np.array(row.rows.split(), dtype=int)
        cols = np.array(row.cols.split(), dtype=int)
        assert rows.size == cols.size == row.k and rows.sum() == cols.sum() == row.n
        if row.method == "patefield":
            assert row.n_sim == 500
        else:
            assert pd.isna(row.n_sim)
    # every mean of the frame is the mean of its margins, recomputed
    for _, row in frame[frame["method"] == "exact"].iterrows():
        again = margin_null_means(np.array(row["rows"].split(), dtype=int),
                                  np.array(row["cols"].split(), dtype=int))
        for name in PAIRED:
            assert row[f"mean_{name}"] == pytest.approx(again[f"mean_{name}"], abs=1e-12)
    assert (frame.loc[frame["k"] == 2, "method"] == "exact").all()  # 2 x 2 laws are small


def test_seeds_reproduce_and_reps_extend():
    a = design_null_means(2, n_sim=300, seed=11, **SMALL)
    b = design_null_means(2, n_sim=300, seed=11, **SMALL)
    pd.testing.assert_frame_equal(a, b)
    one = design_null_means(1, n_sim=300, seed=11, **SMALL)
    first = a[a["rep"] == 0].reset_index(drop=True)
    pd.testing.assert_frame_equal(one, first)
    other = design_null_means(2, n_sim=300, seed=12, **SMALL)
    assert not (other["rows"] == a["rows"]).all()
    sa = simulated_agreement(2, n_sim=200, seed=4, **SMALL)
    pd.testing.assert_frame_equal(sa, simulated_agreement(2, n_sim=200, seed=4, **SMALL))


# -- the regressions ---------------------------------------------------------------------------

def synthetic(coefs, sd, size, seed):
    rng = np.random.default_rng(seed)
    frame = {}
    for t in TARGETS:
        # jaccard and sokal_sneath2 share their predictor C (the second draw is kept)
        frame[f"mean_{PUBLISHED[t].predictor}"] = rng.uniform(0.2, 0.7, size)
    out = pd.DataFrame(frame)
    for t in TARGETS:
        a, b, c = coefs[t]
        x = out[f"mean_{PUBLISHED[t].predictor}"].to_numpy()
        out[f"mean_{t}"] = a * x ** 2 + b * x + c + rng.normal(0, sd, size)
    return out


def test_ols_recovers_known_coefficients_with_honest_intervals():
    coefs = {"jaccard": (0.6, 0.3, 0.02), "gower_legendre": (-0.5, 1.4, 0.09),
             "sokal_sneath2": (1.1, -0.28, 0.05)}
    covered, total = 0, 0
    for seed in range(30):
        frame = synthetic(coefs, 0.002, 60, seed)
        refit = fit_approximations(frame)
        tab = refit.coefficients
        for t in TARGETS:
            est = tab[tab["target"] == t]
            truth = np.array(coefs[t])
            covered += int(((est["ci_low"] <= truth) & (truth <= est["ci_high"])).sum())
            total += 3
            if seed == 0:  # against numpy's least squares and the textbook R^2
                x = frame[f"mean_{PUBLISHED[t].predictor}"].to_numpy()
                y = frame[f"mean_{t}"].to_numpy()
                X = np.column_stack([x ** 2, x, np.ones_like(x)])
                beta, ssr, *_ = np.linalg.lstsq(X, y, rcond=None)
                np.testing.assert_allclose(est["estimate"], beta, rtol=1e-8, atol=1e-10)
                np.testing.assert_allclose(refit.fits[t].coef, beta, rtol=1e-8, atol=1e-10)
                s = refit.summary.set_index("target").loc[t]
                sst = ((y - y.mean()) ** 2).sum()
                assert s["r_squared"] == pytest.approx(1 - ssr[0] / sst, rel=1e-10)
                assert s["resid_sd"] == pytest.approx(math.sqrt(ssr[0] / (len(y) - 3)), rel=1e-10)
                cov = ssr[0] / (len(y) - 3) * np.linalg.inv(X.T @ X)
                np.testing.assert_allclose(est["std_err"], np.sqrt(np.diag(cov)), rtol=1e-8)
                np.testing.assert_allclose(est["published"], PUBLISHED[t].coef)
    # 95% intervals: coverage within binomial noise of 0.95
    assert stats.binomtest(covered, total, 0.95).pvalue > 0.001


def test_errors_against_a_direct_computation():
    frame = design_null_means(2, n_sim=2000, seed=5, **SMALL)
    refit = fit_approximations(frame)
    errors = approximation_errors(frame, refit)
    assert list(errors.index.get_level_values("approach").unique()) == list(APPROACHES)
    C, R = frame["mean_czekanowski"], frame["mean_rand"]
    vc, vr = frame["var_czekanowski"], frame["var_rand"]
    direct = {
        ("jaccard", "identity (plug-in)"): C / (2 - C) - frame["mean_jaccard"],
        ("jaccard", "identity + delta"): C / (2 - C) + 2 / (2 - C) ** 3 * vc
        - frame["mean_jaccard"],
        ("gower_legendre", "published regression"):
            -0.656151 * R ** 2 + 1.610843 * R + 0.026957 - frame["mean_gower_legendre"],
        ("sokal_sneath2", "identity + delta"): C / (4 - 3 * C) + 12 / (4 - 3 * C) ** 3 * vc
        - frame["mean_sokal_sneath2"],
        ("gower_legendre", "identity + delta"): 2 * R / (1 + R) - 2 / (1 + R) ** 3 * vr
        - frame["mean_gower_legendre"],
    }
    for key, err in direct.items():
        assert errors.loc[key, "max_abs_error"] == pytest.approx(err.abs().max(), rel=1e-9)
        assert errors.loc[key, "mean_abs_error"] == pytest.approx(err.abs().mean(), rel=1e-9)
        exact = err[frame["method"] == "exact"].abs()
        assert errors.loc[key, "max_abs_error_exact"] == pytest.approx(exact.max(), rel=1e-9)
    a, b, c = refit.fits["jaccard"].coef
    refit_err = a * C ** 2 + b * C + c - frame["mean_jaccard"]
    assert errors.loc[("jaccard", "refitted regression"), "max_abs_error"] == pytest.approx(
        refit_err.abs().max(), rel=1e-9)
    res = approximation_residuals(frame, refit)
    assert len(res) == len(frame) * len(TARGETS) * len(APPROACHES)
    # on these exact laws the identity with the delta correction is the best approach
    best = errors["max_abs_error_exact"].unstack().idxmin(axis=1)
    assert (best == "identity + delta").all()


# -- the agreement model and correlations ----------------------------------------------------------

def test_agreement_table_follows_its_model():
    rows, w = np.array([300, 200, 100]), np.array([0.5, 0.3, 0.2])
    assert (agreement_table(rows, w, 1.0, seed=1) == np.diag(rows)).all()
    keep, draws = 0.4, 400
    rng = np.random.default_rng(2)
    diag = np.array([np.diag(agreement_table(rows, w, keep, seed=rng)) for _ in range(draws)])
    expected = rows * (keep + (1 - keep) * w)
    p = keep + (1 - keep) * w
    se = np.sqrt(rows * p * (1 - p) / draws)
    assert np.all(np.abs(diag.mean(axis=0) - expected) < 5 * se)
    tab = agreement_table(rows, w, 0.3, seed=3)
    assert (tab.sum(axis=1) == rows).all()
    small = agreement_table([3, 1], [0.999999, 0.000001], 0.0, seed=1)
    assert small.shape == (2, 1)  # the empty cluster is dropped


def test_simulated_agreement_values_and_correlations():
    frame = simulated_agreement(3, n_sim=500, seed=2, **SMALL)
    assert len(frame) == 3 * 8
    for name in PAIRED:
        obs, null = frame[f"observed_{name}"], frame[f"null_mean_{name}"]
        np.testing.assert_allclose(frame[f"adjusted_{name}"], (obs - null) / (1 - null),
                                   atol=1e-12)
    assert frame["keep"].between(0.1, 0.9).all()
    # more objects keep their class: more agreement beyond chance
    assert stats.spearmanr(frame["keep"], frame["adjusted_rand"]).statistic > 0.5
    pearson, spearman = correlations(frame), correlations(frame, "spearman")
    for corr in (pearson, spearman):
        assert corr.shape == (24, 24)
        np.testing.assert_allclose(np.diag(corr), 1.0)
        np.testing.assert_allclose(corr.to_numpy(), corr.to_numpy().T, atol=1e-12)
    a, b = frame["observed_jaccard"], frame["adjusted_rand"]
    assert spearman.loc[("observed", "jaccard"), ("adjusted", "rand")] == pytest.approx(
        stats.spearmanr(a, b).statistic, abs=1e-12)
    assert pearson.loc[("observed", "jaccard"), ("adjusted", "rand")] == pytest.approx(
        stats.pearsonr(a, b).statistic, abs=1e-12)


# -- bad input ---------------------------------------------------------------------------------------

def test_bad_input_is_refused_with_clear_messages():
    with pytest.raises(ValueError, match="index must be one of"):
        approximate_null_mean(TAB6A, "rand")
    with pytest.raises(ValueError, match="Did you mean 'jaccard'"):
        identity_null_mean(TAB6A, "jacard")
    with pytest.raises(ValueError, match="order must be 1"):
        identity_null_mean(TAB6A, "jaccard", order=3)
    with pytest.raises(TypeError, match="fit must be"):
        approximate_null_mean(TAB6A, "jaccard", fit=[1, 2, 3])
    with pytest.raises(ValueError, match="same objects"):
        margin_null_means([3, 4], [3, 3])
    with pytest.raises(ValueError, match="positive whole numbers"):
        margin_null_means([3, 0, 4], [3, 4])
    with pytest.raises(ValueError, match="n_sim must be >= 2"):
        margin_null_means([3, 4], [3, 4], n_sim=1)
    with pytest.raises(ValueError, match="reps must be >= 1"):
        design_null_means(0)
    with pytest.raises(ValueError, match="ks must hold"):
        design_null_means(1, ks=(5,))
    with pytest.raises(ValueError, match="balances"):
        design_null_means(1, balances=("even",))
    with pytest.raises(ValueError, match="n_values must be >= 4"):
        design_null_means(1, n_values=(3,), ks=(2, 4))
    with pytest.raises(TypeError, match="ks must be a sequence"):
        design_null_means(1, ks=3)
    with pytest.raises(TypeError, match="seed"):
        design_null_means(1, seed="one")
    with pytest.raises(TypeError, match="frame must be a DataFrame"):
        fit_approximations({"mean_jaccard": [1]})
    with pytest.raises(ValueError, match="lacks the columns"):
        fit_approximations(pd.DataFrame({"mean_jaccard": [0.1] * 5}))
    with pytest.raises(ValueError, match="at least 4 rows"):
        fit_approximations(pd.DataFrame({"mean_jaccard": [0.1] * 3,
                                         "mean_czekanowski": [0.2] * 3}), targets="jaccard")
    with pytest.raises(ValueError, match="confidence must be in"):
        fit_approximations(pd.DataFrame(), confidence=1.5)
    with pytest.raises(ValueError, match="weights must be"):
        agreement_table([3, 4], [0.5, 0.6], 0.5)
    with pytest.raises(ValueError, match="keep must be in"):
        agreement_table([3, 4], [0.5, 0.5], 1.5)
    with pytest.raises(ValueError, match="keep_range"):
        simulated_agreement(1, keep_range=(0.9, 0.1))
    with pytest.raises(ValueError, match="method must be one of"):
        simulated_agreement(1, method="hypergeometric")
    with pytest.raises(ValueError, match="at least 3 tables"):
        correlations(simulated_agreement(1, n_values=(40,), ks=(2,), balances=("balanced",),
                                         n_sim=100, seed=1))
