"""The shapes of the paired indices' null laws across the thesis' design
(clusteragree.studies.null_shapes).

Every statistic is checked against an independent computation on the same samples (scipy.stats,
the statistics module, the package's NullDistribution); the thesis' qualitative finding
(balanced scenarios give more skewed and less dispersed null laws than unbalanced ones) is
checked on small seeded runs; the mean of Rand's law against its exact closed form.
"""

from __future__ import annotations

import statistics

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from clusteragree.indices import GROUPS
from clusteragree.studies.null_shapes import (
    ABBREVIATIONS,
    SHAPE_COLUMNS,
    cell_laws,
    exact_shapes,
    example_laws,
    law_shapes,
    margin_table,
    null_label,
    null_shapes,
    summary_table,
    thesis_null_table,
)
from clusteragree.nulls import NullDistribution, null_distribution
from clusteragree.studies.simulate import random_margins

PAIRED = list(GROUPS["paired"])


def _reference_shapes(x: np.ndarray, q: float) -> dict:
    """The summary of one law from scipy / the statistics module / NullDistribution."""
    nd = NullDistribution("rand", "patefield", samples=x)
    mean, median = statistics.fmean(x), statistics.median(x)
    t = float(stats.mstats.mquantiles(x, [q], alphap=1, betap=1)[0])  # R type 7
    return {
        "mean": mean, "median": median, "sd": statistics.stdev(x),
        "skewness": float(stats.skew(x, bias=False)), "min": min(x), "max": max(x),
        "range": max(x) - min(x), "mean_minus_median": mean - median, "reference_value": t,
        "adjusted_mean": nd.adjust(t, center="mean"),
        "adjusted_median": nd.adjust(t, center="median"),
        "adjustment_gap": nd.adjust(t, center="median") - nd.adjust(t, center="mean"),
        "adjustment_ratio": nd.adjust(t, center="median") / nd.adjust(t, center="mean"),
    }


def _assert_matches(row, ref, rtol=1e-9, atol=1e-12):
    for col in SHAPE_COLUMNS:
        assert float(row[col]) == pytest.approx(ref[col], rel=rtol, abs=atol), col


# -- the statistics of one law -------------------------------------------------------------------

@pytest.mark.parametrize("q", [0.9, 0.99])
def test_law_shapes_equal_scipy_on_skewed_and_symmetric_samples(q):
    rng = np.random.default_rng(11)
    laws = np.vstack([0.2 + 0.01 * rng.gamma(0.5, size=3000),    # very right-skewed
                      0.5 + 0.01 * rng.normal(size=3000),         # symmetric
                      0.9 - 0.02 * rng.exponential(size=3000)])   # left-skewed
    got = law_shapes(laws, reference=q)
    assert list(got.columns) == list(SHAPE_COLUMNS)
    for i, x in enumerate(laws):
        _assert_matches(got.iloc[i], _reference_shapes(x, q))
    assert got.loc[0, "skewness"] > 2 and got.loc[2, "skewness"] < -1
    assert got.loc[0, "adjustment_gap"] > 0 > got.loc[2, "adjustment_gap"]


def test_law_shapes_of_a_point_mass_and_the_optimum_rule():
    got = law_shapes([[0.3] * 10, [1.0] * 10], reference=0.99)
    assert got["sd"].tolist() == [0, 0] and got["skewness"].tolist() == [0, 0]
    assert got.loc[0, "adjusted_mean"] == 0 and np.isnan(got.loc[0, "adjustment_ratio"])
    # centre = optimum = Q: the registry's rule gives 1 (as NullDistribution.adjust)
    nd = NullDistribution("rand", "patefield", samples=[1.0] * 10)
    assert got.loc[1, "adjusted_mean"] == nd.adjust(1.0, center="mean") == 1.0


@pytest.mark.parametrize("k,balance", [(2, "balanced"), (3, "unbalanced"), (4, "balanced")])
def test_null_shapes_summarise_the_very_samples_of_each_cell(k, balance):
    shapes = null_shapes(ks=(k,), balances=balance, n_values=(300,), reps=2, n_sim=1500,
                         seed=4, reference=0.99)
    for rep in (0, 1):
        rows, cols, laws = cell_laws(k, balance, 300, rep, n_sim=1500, seed=4)
        part = shapes[shapes.rep == rep].set_index("index")
        assert part.index.tolist() == PAIRED
        assert part["rows"].iloc[0] == "-".join(map(str, rows))
        assert part["cols"].iloc[0] == "-".join(map(str, cols))
        for name, nd in laws.items():
            _assert_matches(part.loc[name], _reference_shapes(nd.samples, 0.99))
            assert part.loc[name, "skewness"] == pytest.approx(nd.skewness, rel=1e-9)
            assert part.loc[name, "median"] == pytest.approx(nd.median, rel=1e-12)


def test_the_same_tables_serve_every_index_and_the_L_family_share_one_shape():
    """Rand, Czekanowski and Fowlkes-Mallows are affine in sum n_ij^2 once the margins are
    fixed, so from the same tables their laws have the same skewness; their sample
    correlation is 1."""
    _rows, _cols, laws = cell_laws(3, "unbalanced", 500, n_sim=2000, seed=8)
    s = {n: laws[n].samples for n in ("rand", "czekanowski", "fowlkes_mallows")}
    assert np.corrcoef(s["rand"], s["czekanowski"])[0, 1] == pytest.approx(1, abs=1e-10)
    assert np.corrcoef(s["rand"], s["fowlkes_mallows"])[0, 1] == pytest.approx(1, abs=1e-10)
    shapes = law_shapes(np.vstack(list(s.values())))
    assert np.ptp(shapes["skewness"]) < 1e-8


# -- the thesis' findings --------------------------------------------------------------------------

def test_balanced_laws_are_more_skewed_and_less_dispersed_than_unbalanced_ones():
    """Amorim (2015), Ch.4: balanced scenarios give very right-skewed null laws, unbalanced
    ones nearly symmetric laws with more dispersion (K = 2, every index, every draw)."""
    shapes = null_shapes(ks=(2,), n_values=(500,), reps=4, n_sim=2000, seed=3)
    by = shapes.groupby(["index", "balance"])
    low_balanced = by.skewness.min().xs("balanced", level="balance")
    high_unbalanced = by.skewness.max().xs("unbalanced", level="balance")
    assert (low_balanced > high_unbalanced + 1).all()
    assert (by.sd.max().xs("balanced", level="balance")
            < by.sd.min().xs("unbalanced", level="balance")).all()
    assert (by.range.max().xs("balanced", level="balance")
            < by.range.min().xs("unbalanced", level="balance")).all()
    # right-skewed: the mean above the median, so median adjustment credits more
    balanced = shapes[shapes.balance == "balanced"]
    assert (balanced.mean_minus_median > 0).all() and (balanced.adjustment_gap > 0).all()


def test_mean_of_rands_law_agrees_with_its_exact_closed_form():
    shapes = null_shapes(ks=(2, 4), n_values=(200, 600), reps=2, n_sim=3000, seed=9,
                         indices=["rand", "jaccard"])
    rand = shapes[shapes["index"] == "rand"]
    for _, row in rand.iterrows():
        rows = np.array(row["rows"].split("-"), dtype=int)
        cols = np.array(row["cols"].split("-"), dtype=int)
        exact = null_distribution(margin_table(rows, cols), index="rand",
                                  method="hypergeometric")
        se = row["sd"] / np.sqrt(row["n_sim"])
        assert abs(row["mean"] - exact.mean) < 4 * se
        assert row["sd"] == pytest.approx(exact.std, rel=0.1)  # 3000 draws: within 10 %


def test_monte_carlo_shapes_agree_with_the_exact_laws_of_their_margins():
    """K = 2: the exact laws (dynamic programme over sum n_ij^2) of the very margins drawn;
    the Monte Carlo mean within 4 s.e., sd within 5 %, skewness within about 4 s.e. (with
    N = 17,000 tables the sample skewness of these laws has an s.e. of about 0.12 for balanced
    and 0.023 for unbalanced margins, measured over 60 seeds)."""
    shapes = null_shapes(ks=(2,), n_values=(500,), reps=2, n_sim=17_000, seed=21)
    both = exact_shapes(shapes, k=2)
    assert len(both) == len(shapes) and both["index"].tolist() == shapes["index"].tolist()
    assert (abs(both["mean"] - both["exact_mean"]) < 4 * both["exact_sd"] / np.sqrt(17_000)).all()
    assert (abs(both["sd"] / both["exact_sd"] - 1) < 0.05).all()
    tol = np.where(both["balance"] == "balanced", 0.5, 0.1)
    assert (abs(both["skewness"] - both["exact_skewness"]) < tol).all()
    # balanced 2 x 2 margins: near chi-square(1) skewness 2 sqrt(2) for every index
    bal = both[both.balance == "balanced"]
    assert bal.exact_skewness.between(2.7, 2.9).all()
    with pytest.raises(ValueError, match="k=3 is not in shapes"):
        exact_shapes(shapes, k=3)


# -- seeds -----------------------------------------------------------------------------------------

def test_seeds_reproduce_and_each_cell_has_its_own_stream():
    kw = {"n_values": (150,), "reps": 2, "n_sim": 300, "indices": ["rand", "goodman_kruskal"]}
    a = null_shapes(ks=(2, 3), seed=12, **kw)
    b = null_shapes(ks=(2, 3), seed=12, **kw)
    pd.testing.assert_frame_equal(a, b)
    c = null_shapes(ks=(2, 3), seed=13, **kw)
    assert not np.allclose(a["mean"], c["mean"])
    # a cell's laws do not depend on which other cells are asked for
    only3 = null_shapes(ks=(3,), seed=12, **kw)
    pd.testing.assert_frame_equal(a[a.K == 3].reset_index(drop=True), only3)
    # the two draws of a cell differ
    assert a.loc[(a.K == 2) & (a.balance == "balanced"), "rows"].nunique() == 2


def test_example_laws_are_the_laws_of_their_cell():
    laws = example_laws(3, 400, n_sim=800, seed=6)
    assert set(laws["index"]) == set(PAIRED) and laws.groupby(["balance", "index"]).size().eq(
        800).all()
    shapes = null_shapes(ks=(3,), n_values=(400,), reps=1, n_sim=800, seed=6)
    for balance in ("balanced", "unbalanced"):
        rows, _cols = laws.attrs["margins"][balance]
        assert shapes.loc[shapes.balance == balance, "rows"].iloc[0] == "-".join(map(str, rows))
        x = np.vstack([laws.loc[(laws.balance == balance) & (laws["index"] == n), "value"]
                       for n in PAIRED])
        mine = shapes[shapes.balance == balance].reset_index(drop=True)[list(SHAPE_COLUMNS)]
        pd.testing.assert_frame_equal(law_shapes(x), mine)
    assert laws.attrs["null"] == null_label(800)


def test_margin_table_has_the_margins_it_is_given():
    rng = np.random.default_rng(2)
    for _ in range(200):
        k, q = rng.integers(1, 6, size=2)
        n = int(rng.integers(1, 60))
        rows = rng.multinomial(n, np.full(k, 1 / k))
        cols = rng.multinomial(n, np.full(q, 1 / q))
        t = margin_table(rows, cols)
        assert (t >= 0).all() and (t.sum(axis=1) == rows).all() and (t.sum(axis=0) == cols).all()
    rows, cols = random_margins(4, "unbalanced", 1100, seed=1)
    assert (margin_table(rows, cols).sum(axis=0) == cols).all()
    with pytest.raises(ValueError, match="same positive total"):
        margin_table([3, 2], [4, 2])


# -- tables -----------------------------------------------------------------------------------------

def test_summary_table_averages_over_draws_in_the_thesis_layout():
    shapes = null_shapes(ks=(2, 3), n_values=(200, 300), reps=3, n_sim=200, seed=2)
    tab = summary_table(shapes, k=3)
    assert tab.index.tolist() == [(b, i) for b in ("balanced", "unbalanced") for i in PAIRED]
    assert tab.columns.tolist() == [(f"n = {n}", s) for n in (200, 300)
                                    for s in ("Min", "Max", "Skew", "Sd")]
    for (balance, index), row in tab.iterrows():
        for n in (200, 300):
            sel = shapes[(shapes.K == 3) & (shapes.n == n) & (shapes.balance == balance)
                         & (shapes["index"] == index)]
            assert len(sel) == 3
            for stat, label in [("min", "Min"), ("max", "Max"), ("skewness", "Skew"),
                                ("sd", "Sd")]:
                assert row[(f"n = {n}", label)] == pytest.approx(statistics.fmean(sel[stat]))
    by_k = summary_table(shapes, stats=["skewness", "adjustment_gap"])
    assert by_k.columns.tolist() == [(f"K = {k}", s) for k in (2, 3)
                                     for s in ("Skew", "adjustment_gap")]
    sel = shapes[(shapes.K == 2) & (shapes.balance == "unbalanced") & (shapes["index"] == "rand")]
    assert by_k.loc[("unbalanced", "rand"), ("K = 2", "Skew")] == pytest.approx(
        sel.skewness.mean())


def test_thesis_tables_are_quoted_consistently():
    """The published Tables 16-18, as transcribed: 8 indices x 2 balances, 4 statistics x 3
    separations; Rand, Czekanowski and Fowlkes-Mallows (one affine family) share their
    skewness in every published cell, as they must; min <= max."""
    for k in (2, 3, 4):
        t = thesis_null_table(k)
        assert t.shape == (16, 12)
        assert t.index.get_level_values("index").tolist() == PAIRED * 2
        skew = t.xs("Skew", axis=1, level="statistic")
        for balance in ("balanced", "unbalanced"):
            ref = skew.loc[(balance, "rand")]
            for name in ("czekanowski", "fowlkes_mallows"):
                assert (skew.loc[(balance, name)] == ref).all()
        assert (t.xs("Min", axis=1, level="statistic").to_numpy()
                <= t.xs("Max", axis=1, level="statistic").to_numpy()).all()
    assert list(ABBREVIATIONS) == PAIRED


# -- bad input ----------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs,error,match", [
    ({"ks": (5,)}, ValueError, "ks must hold numbers of clusters"),
    ({"ks": ()}, ValueError, "ks is empty"),
    ({"ks": (True,)}, ValueError, "ks must hold"),
    ({"balances": "even"}, ValueError, "balances must be one of"),
    ({"balances": ()}, ValueError, "balances is empty"),
    ({"n_values": (3,)}, ValueError, "n_values must be >= 4"),
    ({"n_values": (100.5,)}, TypeError, "n_values must be a whole number"),
    ({"reps": 0}, ValueError, "reps must be >= 1"),
    ({"n_sim": 5}, ValueError, "n_sim must be >= 10"),
    ({"seed": -1}, ValueError, "seed must be a non-negative int"),
    ({"seed": "a"}, TypeError, "seed must be None or a non-negative int"),
    ({"reference": 1.5}, ValueError, "reference must be a quantile level"),
    ({"reference": "high"}, TypeError, "reference must be a quantile level"),
    ({"indices": "variation_of_information"}, ValueError, "not a similarity"),
    ({"indices": "ndc"}, ValueError, "not a similarity"),
    ({"indices": "randd"}, ValueError, "Did you mean"),
    ({"progress": "yes"}, TypeError, "progress must be True or False"),
])
def test_bad_input_is_refused_before_work(kwargs, error, match):
    args = {"ks": (2, 4), "n_values": (100,), "reps": 1, "n_sim": 50}
    args.update(kwargs)
    with pytest.raises(error, match=match):
        null_shapes(**args)


def test_bad_input_of_the_helpers():
    with pytest.raises(ValueError, match="at least 3 draws"):
        law_shapes([[0.1, 0.2]])
    with pytest.raises(ValueError, match="finite"):
        law_shapes([[0.1, np.nan, 0.3]])
    with pytest.raises(TypeError, match="DataFrame of null_shapes"):
        summary_table([1, 2])
    shapes = null_shapes(ks=(2,), n_values=(100,), reps=1, n_sim=50)
    with pytest.raises(ValueError, match="k=3 is not in shapes"):
        summary_table(shapes, k=3)
    with pytest.raises(ValueError, match="lacks the columns"):
        summary_table(shapes, stats=["kurtosis"])
    with pytest.raises(ValueError, match="balance must be one of"):
        cell_laws(2, "even")
    with pytest.raises(ValueError, match="k must be a number of clusters among"):
        thesis_null_table(5)
    with pytest.raises(ValueError, match="k must be a number of clusters among"):
        cell_laws(6, "balanced")
