"""ca.power and ca.sample_size (issue 47): the analytic power against the package's own test
simulated, the simulation against agreement_test's p-values, the search, the refusals and the
printed result."""

import math

import matplotlib
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import clusteragree as ca
from clusteragree.studies import power_analytic, power_simulation
from clusteragree.studies.power import analytic_is_trusted, cochran

matplotlib.use("Agg")

TWO = ca.relabel_population([0.5, 0.5], 0.7)
FOUR = ca.relabel_population([0.4, 0.3, 0.2, 0.1], 0.8)


# -- the simulation is the package's test ------------------------------------------------------

def test_the_simulation_rejects_where_agreement_test_does():
    """The same tables (drawn from one generator) give the same rejections as agreement_test:
    2 x 2 tables, whose exact law the package uses, so no Monte Carlo stands between them."""
    R, n, alpha = 60, 40, 0.05
    rec = ca.get_index("ari")
    sim = power_simulation.simulate_power(TWO, n, rec, {}, alpha, "greater", R,
                                          np.random.default_rng(5))
    tables = np.random.default_rng(5).multinomial(n, TWO.probabilities.ravel(), size=R)
    rejected = 0
    for t in tables.reshape(R, 2, 2):
        t = t[t.sum(axis=1) > 0][:, t.sum(axis=0) > 0]
        if min(t.shape) < 2:
            continue
        rejected += ca.agreement_test(t, index="ari").pvalue <= alpha
    assert sim["power"] == rejected / R
    assert sim["se"] == pytest.approx(math.sqrt(sim["power"] * (1 - sim["power"]) / R))


# -- the analytic power against the simulated test --------------------------------------------

THREE = ca.relabel_population([0.5, 0.3, 0.2], 0.75)


@pytest.mark.parametrize("pop, n, index", [
    (TWO, 60, "ari"), (TWO, 60, "ami"),
    pytest.param(THREE, 120, "ari", marks=pytest.mark.slow),
    # an exact law per distinct margins (3 x 3) or 17,000 Patefield tables (4 x 4) per
    # simulated study: 25-45 s each
    pytest.param(FOUR, 200, "ari", marks=pytest.mark.slow),
    pytest.param(FOUR, 200, "nmi", marks=pytest.mark.slow)])
def test_the_analytic_power_is_the_simulated_test_within_its_error(pop, n, index):
    # the benchmark's tolerance, 2 points, plus 4 binomial s.e. of 400 simulated studies
    ana = ca.power(pop, n=n, index=index, method="analytic", seed=1)
    sim = ca.power(pop, n=n, index=index, method="simulation", n_sim=400, seed=2)
    assert ana.method == "analytic" and sim.method == "simulation"
    assert abs(ana.power - sim.power) <= 0.02 + 4 * max(sim.power_se, 0.005)


def test_the_analytic_power_of_the_difference_test_is_the_simulated_one():
    pop = ca.relabel_population([0.4, 0.3, 0.2, 0.1], (0.3, 0.5))
    ana = ca.power(pop, n=150, index="ari", method="analytic")
    sim = ca.power(pop, n=150, index="ari", method="simulation", n_sim=300, seed=3)
    assert ana.test == sim.test == "difference"
    assert abs(ana.power - sim.power) <= 0.03 + 4 * sim.power_se


def test_at_independence_the_power_is_the_size():
    pop = ca.relabel_population([0.5, 0.3, 0.2], 1.0)
    res = ca.power(pop, n=[60, 200], index="ari", method="analytic", seed=1)
    assert (res.curve.power <= 0.05 + 0.005).all() and (res.curve.power > 0.01).all()


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(share=st.floats(0.5, 0.85), n=st.integers(40, 300))
def test_the_power_grows_with_n_away_from_independence(share, n):
    pop = ca.relabel_population([0.4, 0.35, 0.25], share)
    res = ca.power(pop, n=[n, 2 * n], index="ari", method="analytic", seed=1)
    small, large = res.curve.power
    assert large >= small - 0.01  # a discrete law's power may dip by its lattice's step


# -- the sample size -----------------------------------------------------------------------------

def test_the_sample_size_reaches_the_power_and_one_less_does_not():
    res = ca.sample_size(FOUR, power=0.8, index="ari", method="analytic", seed=4)
    assert res.power >= 0.8 and res.target == 0.8
    below = ca.power(FOUR, n=res.n - 1, index="ari", method="analytic", seed=4)
    assert below.power < 0.8
    assert res.n in set(res.curve.n) and res.curve.n.is_monotonic_increasing


def test_the_analytic_sample_size_for_80_percent_power_is_found_on_a_10_by_10_population():
    """Its time is measured by benchmarks/bench_power.py (``sample_size_times``), not here."""
    pop = ca.relabel_population([0.1] * 10, 0.85)
    res = ca.sample_size(pop, power=0.8, index="ari", method="analytic", seed=1)
    assert res.power >= 0.8 and res.method == "analytic"
    assert ca.power(pop, n=res.n - 1, index="ari", method="analytic", seed=1).power < 0.8


def test_a_larger_effect_needs_fewer_objects():
    model = ca.relabel_population([0.4, 0.3, 0.2, 0.1], 0.5)
    ns = [ca.sample_size(model, effect=e, index="ari", method="analytic", seed=1).n
          for e in (0.1, 0.2, 0.4)]
    assert ns[0] > ns[1] > ns[2]


def test_the_sample_size_for_a_width():
    res = ca.sample_size(FOUR, index="ari", width=0.1)
    alt = power_analytic.alternative_of(FOUR, ca.get_index("ari"), {})
    assert power_analytic.interval_width(res.n, 0.95, alt) <= 0.1
    assert power_analytic.interval_width(res.n - 1, 0.95, alt) > 0.1
    assert res.achieved <= 0.1 and "width" in str(res)


def test_auto_checks_an_untrusted_sample_size_by_simulation():
    small = ca.relabel_population([0.4, 0.3, 0.2, 0.1], 0.3)  # large effect, small n
    res = ca.sample_size(small, index="ari", n_sim=100, seed=1)
    assert not analytic_is_trusted(small, res.n, ca.get_index("ari"), "greater")[0]
    assert "simulated at n - 1 and n" in res.note
    assert set(res.curve.method) == {"analytic", "simulation"}


# -- populations and effects -------------------------------------------------------------------

def test_an_effect_is_solved_on_the_model():
    pop = ca.relabel_population([0.4, 0.3, 0.2, 0.1], index="ari", value=0.25)
    assert ca.population_value(pop, "ari") == pytest.approx(0.25, abs=1e-5)
    res = ca.power(ca.relabel_population([0.4, 0.3, 0.2, 0.1], 0.5), n=100, index="ari",
                   effect=[0.1, 0.3], method="analytic", seed=1)
    assert res.curve.effect.tolist() == [0.1, 0.3]
    assert res.curve.power.is_monotonic_increasing


def test_the_expected_cells_decide_auto():
    """Independence: analytic from 12 expected objects in every cell (FOUR's smallest expected
    cell is n x 0.1 x 0.22); the difference test: Cochran's rule, and indices of the pair
    counts only (the analytic power of AMI's and NMI's ran 2-4 points high)."""
    from clusteragree.studies.power import analytic_is_trusted, expected_smallest_cell

    assert expected_smallest_cell(FOUR, 600) == pytest.approx(600 * 0.1 * 0.22)
    ari, ami = ca.get_index("ari"), ca.get_index("ami")
    assert not analytic_is_trusted(FOUR, 540, ari, "greater")[0]
    assert analytic_is_trusted(FOUR, 550, ari, "greater")[0]
    assert ca.power(FOUR, n=600, index="ari").method == "analytic"
    assert not cochran(FOUR, 60)[0] and cochran(FOUR, 400)[0]
    three_way = ca.relabel_population([0.4, 0.3, 0.2, 0.1], (0.3, 0.45))
    assert analytic_is_trusted(three_way, 2000, ari, "two-sided")[0]
    trusted, why = analytic_is_trusted(three_way, 2000, ami, "two-sided")
    assert not trusted and "pair counts only" in why


# -- refusals, by name -------------------------------------------------------------------------

@pytest.mark.parametrize("call, match", [
    (lambda: ca.power([[0.5, 0.2], [0.2, 0.2]], n=50), "sum to 1"),
    (lambda: ca.power([[0.5, -0.1], [0.3, 0.3]], n=50), "non-negative"),
    (lambda: ca.power([0.5, 0.5], n=50), "K x Q"),
    (lambda: ca.power([[0.5, 0.5], [0, 0]], n=50), "single cluster"),
    (lambda: ca.power(TWO, n=2), "n"),
    (lambda: ca.power(TWO), "n is required"),
    (lambda: ca.power(TWO, n=50, alpha=1.5), "alpha"),
    (lambda: ca.power(TWO, n=50, method="exact"), "method"),
    (lambda: ca.power(TWO, n=50, test="difference"), "test='difference'"),
    (lambda: ca.power([[0.25, 0.25], [0.25, 0.25]], n=50, effect=0.2), "generating model"),
    (lambda: ca.power(TWO, n=50, effect=1.5), "out of reach"),
    (lambda: ca.power(TWO, n=50, index="jacard"), "jaccard"),
    (lambda: ca.sample_size(TWO, power=1.2), "power"),
    (lambda: ca.sample_size(ca.relabel_population([0.5, 0.5], 1.0), index="ari"), "effect is 0"),
    (lambda: ca.relabel_population([0.5, 0.5], 0.3, k=1), "k must be"),
    (lambda: ca.relabel_population([0.5, -0.5], 0.3), "sizes"),
])
def test_bad_arguments_are_refused_by_name(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_counts_are_normalised_only_when_asked():
    with pytest.raises(ValueError, match="normalise=True"):
        ca.population([[30, 10], [10, 50]])
    assert ca.population([[30, 10], [10, 50]], normalise=True).probabilities.sum() == 1


# -- the result ----------------------------------------------------------------------------------

def test_the_result_prints_as_power_htest_and_has_its_forms():
    res = ca.power(FOUR, n=[200, 300], index="ari", method="analytic", seed=1)
    text = str(res)
    assert "Power calculation for the permutation test of independence" in text
    for name in ("n", "effect", "sig.level", "power", "alternative", "method"):
        assert f"\n{name:>15} = " in text
    assert "NOTE: " in text and "200, 300" in text
    frame = res.to_frame()
    assert list(frame.columns) == list(ca.studies.power_results.POWER_COLUMNS)
    assert len(frame) == 2 and frame.power_se.isna().all()
    assert "<table>" in res._repr_html_()
    assert res.sentence().startswith("With n = 200 objects the permutation test of")
    ax = ca.sample_size(FOUR, index="ari", method="analytic", seed=1).plot()
    assert ax.get_xlabel() == "n (objects)" and len(ax.lines) >= 3


def test_a_simulated_power_names_its_error():
    res = ca.power(TWO, n=40, index="ari", method="simulation", n_sim=50, seed=1)
    assert res.n_sim == 50 and res.power_se == pytest.approx(
        math.sqrt(res.power * (1 - res.power) / 50))
    assert "simulation of 50 studies" in res.sentence()
