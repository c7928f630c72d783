"""``NullDistribution`` on its three kinds of law (exact, sampled, moments only): the one-check
entry point ``test`` gives the numbers of the separate public methods, each argument is checked
once, and the plot drawn by ``clusteragree._display.plot_null`` is the one ``nd.plot`` gives."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

import clusteragree as ca
from clusteragree import _display
from clusteragree.nulls import NullDistribution, distribution

matplotlib.use("Agg")

TAB = [[30, 20], [10, 20]]
TAB3 = [[5, 1, 0], [2, 3, 4], [0, 2, 6]]
U = np.random.default_rng(0).dirichlet([1, 1, 1], 9)
V = np.random.default_rng(1).dirichlet([1, 1], 9)

LAWS = {
    "exact rand": lambda: ca.nulls.null_distribution(TAB, index="rand", method="exact"),
    "exact vi": lambda: ca.nulls.null_distribution(TAB3, index="vi", method="exact"),
    "exact mutual_info": lambda: ca.nulls.null_distribution(TAB, index="mutual_info",
                                                            method="exact"),
    "patefield ari": lambda: ca.nulls.null_distribution(TAB3, index="adjusted_rand",
                                                        method="patefield", seed=3, n_sim=800),
    "permutation jaccard": lambda: ca.nulls.null_distribution(TAB, index="jaccard",
                                                              method="permutation", seed=2),
    "hypergeometric rand": lambda: ca.nulls.null_distribution(TAB, index="rand",
                                                              method="hypergeometric"),
    "fuzzy ndc exact mean": lambda: ca.nulls.null_distribution(U, V, index="ndc",
                                                               method="exact"),
    "point mass": lambda: NullDistribution("jaccard", "exact", values=[1.0],
                                           probabilities=[1.0]),
}


def _same(a, b) -> bool:
    return (math.isnan(a) and math.isnan(b)) or a == b


@pytest.mark.parametrize("name", list(LAWS))
@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
@pytest.mark.parametrize("plus_one", [True, False])
def test_test_gives_the_numbers_of_the_separate_methods(name, alternative, plus_one):
    nd = LAWS[name]()
    for observed in (0.0, 0.4, 0.5253, 0.8, 1.0):
        p, se, z, adjusted = nd.test(observed, alternative, plus_one)
        if nd.has_law:
            assert p == nd.pvalue(observed, alternative, plus_one=plus_one)
            assert se == nd.pvalue_se(observed, alternative, plus_one=plus_one)
        else:
            assert math.isnan(p) and math.isnan(se)
        assert _same(z, nd.zscore(observed) if nd.has_variance else math.nan)
        if math.isfinite(nd.index.optimum):
            centers = ("mean", "median") if nd.has_law else ("mean",)
            assert adjusted == {c: nd.adjust(observed, c) for c in centers}
        else:
            assert adjusted == {}


def test_test_checks_its_arguments_with_the_messages_of_the_methods():
    nd = LAWS["exact rand"]()
    with pytest.raises(ValueError, match="alternative"):
        nd.test(0.5, "bigger")
    with pytest.raises(ValueError, match="observed is nan"):
        nd.test(math.nan)
    with pytest.raises(TypeError, match="observed must be a number"):
        nd.test("0.5")


def test_each_value_is_checked_once_per_call(monkeypatch):
    calls = []
    check = distribution._check_observed
    monkeypatch.setattr(distribution, "_check_observed",
                        lambda observed: calls.append(observed) or check(observed))
    nd = LAWS["patefield ari"]()
    nd.test(0.3, "two-sided")
    assert calls == [0.3]
    for method in (lambda: nd.pvalue(0.3, "two-sided"), lambda: nd.adjust(0.3, "median"),
                   lambda: nd.zscore(0.3), lambda: nd.pvalue_se(0.3, "two-sided")):
        calls.clear()
        method()
        assert calls == [0.3]


def test_agreement_test_reports_the_numbers_of_test():
    t = ca.agreement_test(TAB3, index="adjusted_rand", method="patefield", seed=3, n_sim=800)
    p, se, z, adjusted = t.null.test(t.statistic, t.alternative, True)
    assert (t.pvalue, t.pvalue_se, t.zscore, t.adjusted) == (p, se, z, adjusted)


@pytest.mark.parametrize("name", ["exact rand", "patefield ari"])
def test_plot_null_draws_the_law_and_the_observed_line(name):
    import matplotlib.pyplot as plt

    nd = LAWS[name]()
    observed = nd.quantile(0.9)
    ax = _display.plot_null(nd, observed)
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels == [f"mean {nd.mean:.4g}", f"median {nd.median:.4g}",
                      f"observed {observed:.4g}"]
    assert ax.get_lines()[-1].get_xdata()[0] == observed and ax.get_lines()[-1].get_color() == "C3"
    assert (ax.collections or ax.patches)  # the pmf's lines or the histogram's bars
    mine = nd.plot(observed)  # the method draws the same figure
    assert [(ln.get_label(), list(ln.get_xdata())) for ln in mine.get_lines()] == \
        [(ln.get_label(), list(ln.get_xdata())) for ln in ax.get_lines()]
    far = _display.plot_null(nd, nd.mean + 100)  # off scale: an arrow, the law's axis kept
    assert far.texts and "off scale" in far.get_legend().get_texts()[-1].get_text()
    plt.close("all")


def test_the_html_of_a_law_names_its_kind_and_shows_its_plot():
    assert "(exact law)" in LAWS["exact rand"]()._repr_html_()
    html = LAWS["patefield ari"]()._repr_html_()
    assert "(Monte Carlo law)" in html and "<img" in html
    html = LAWS["hypergeometric rand"]()._repr_html_()
    assert "(moments only)" in html and "<img" not in html


def test_the_arrow_to_an_observed_value_off_scale_points_towards_it():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    nd = ca.nulls.null_distribution([[30, 20], [10, 20]], index="rand", method="exact")
    for observed, side in ((-5.0, "left"), (5.0, "right")):
        ax = nd.plot(observed)
        (note,) = [t for t in ax.texts if "observed" in t.get_text()]
        head = note.xy[0]  # the arrow's head is at xy; the text sits beside it
        lo, hi = ax.get_xlim()
        assert note.arrowprops["arrowstyle"] == "->"
        if side == "left":
            assert head < lo + 0.1 * (hi - lo) and note.get_ha() == "left"
        else:
            assert head > hi - 0.1 * (hi - lo) and note.get_ha() == "right"
        plt.close(ax.figure)


# -- laws on a lattice: bars at the values, histograms without combs --------------------------

def _bars(ax):
    """(x, height) of the bars a plot drew with vlines."""
    (bars,) = [c for c in ax.collections if c.get_segments()]
    return [(float(seg[0][0]), float(seg[1][1])) for seg in bars.get_segments()]


def test_a_sampled_law_with_few_values_is_drawn_as_bars_at_its_values():
    """A Monte Carlo law of a 2 x 2 table takes 10 values: one bar at each, its height the
    share of draws there, as the exact law's pmf is drawn (a histogram's fixed-width bins
    would straddle the values)."""
    import matplotlib.pyplot as plt

    tab = [[12, 2], [3, 10]]
    nd = ca.nulls.null_distribution(tab, index="rand", method="patefield", seed=1, n_sim=5000)
    values, counts = np.unique(nd.samples, return_counts=True)
    assert 1 < len(values) <= _display.MAX_BARS
    ax = _display.plot_null(nd)
    assert not ax.patches, "bars, not a histogram"
    assert np.array(_bars(ax)) == pytest.approx(np.c_[values, counts / counts.sum()], rel=1e-12)
    exact = _display.plot_null(ca.nulls.null_distribution(tab, index="rand", method="exact"))
    support = np.array([x for x, _ in _bars(exact)])  # the exact law's: the same lattice
    assert np.abs(values[:, None] - support).min(axis=1) == pytest.approx(0, abs=1e-12)
    plt.close("all")


def test_a_many_valued_lattice_law_has_no_empty_bins_and_its_area_is_one():
    """73 values of an unevenly spaced lattice, (k / 100)^2: seaborn's automatic bins were
    narrower than the steps in the tail, leaving empty bins between full ones. Now every
    edge lies halfway between two values and every bin holds some."""
    import matplotlib.pyplot as plt

    k = np.random.default_rng(5).binomial(400, 0.5, 20000)
    nd = NullDistribution("rand", "patefield", samples=(k / 100.0) ** 2)
    values = np.unique(nd.samples)
    assert len(values) > _display.MAX_BARS
    ax = _display.plot_null(nd)
    heights = np.array([p.get_height() for p in ax.patches])
    widths = np.array([p.get_width() for p in ax.patches])
    lefts = np.array([p.get_x() for p in ax.patches])
    assert (heights > 0).all(), "no empty bin"
    assert (heights * widths).sum() == pytest.approx(1.0), "density: the area is the probability"
    midpoints = (values[:-1] + values[1:]) / 2
    nearest = midpoints[np.abs(lefts[1:, None] - midpoints).argmin(axis=1)]
    assert lefts[1:] == pytest.approx(nearest, rel=1e-12), "edges halfway between values"
    assert ax.get_ylabel() == "density"
    plt.close("all")


def test_an_evenly_spaced_lattice_with_equal_mass_is_drawn_flat():
    """100 equally spaced values, each 1% of the draws: a flat law. Bins of a width that is
    not a multiple of the step held 4 or 5 values, so bars alternated between 0.8 and 1 of
    the highest (a comb); bins that end at midpoints and heights as density are all equal."""
    import matplotlib.pyplot as plt

    nd = NullDistribution("rand", "patefield", samples=np.repeat(0.3 + 0.002 * np.arange(100), 100))
    heights = np.array([p.get_height() for p in _display.plot_null(nd).patches])
    assert len(heights) > 10 and heights == pytest.approx(np.full(len(heights), heights[0]))
    plt.close("all")


def test_the_notebook_display_draws_a_many_valued_exact_law_as_a_lattice(monkeypatch):
    """issue 33: AgreementTest._repr_html_ drew the exact law of rand (525 unevenly spaced
    values) as a bar at each value, an irregular comb. It now draws it as the reports draw a
    many-valued law: bins that end halfway between values (each value wholly in one bin),
    none empty, heights the probability per unit, so each bin's area is the probability of
    the values it holds; the far tails beyond the 0.05% and 99.95% quantiles are left out."""
    import matplotlib.pyplot as plt

    from clusteragree.inference import results

    figures = []
    monkeypatch.setattr(results, "figure_html", lambda fig: figures.append(fig) or "<img/>")
    tab = [[20, 5, 3], [4, 18, 6], [2, 5, 17]]
    test = ca.agreement_test(tab, index="rand", method="exact")
    test._repr_html_()
    (ax,) = figures[0].axes
    nd = test.null
    values, probabilities = np.asarray(nd.values), np.asarray(nd.probabilities)
    assert len(values) > _display.MAX_BARS
    assert not [c for c in ax.collections if len(c.get_segments() if hasattr(c, "get_segments")
                                                  else []) > _display.MAX_BARS], "no comb"
    (stairs,) = [p for p in ax.patches if hasattr(p, "get_data")]
    heights, edges = (np.asarray(a, float) for a in stairs.get_data()[:2])
    assert 10 <= len(heights) <= _display.EXACT_BINS
    assert (heights > 0).all(), "no empty bin"
    step = np.diff(values)  # the midpoints, or half a step beyond the first or last value
    bounds = np.r_[values[0] - step[0] / 2, (values[:-1] + values[1:]) / 2,
                   values[-1] + step[-1] / 2]
    assert np.abs(edges[:, None] - bounds).min(axis=1) == pytest.approx(0, abs=1e-12)
    held = [(values > lo) & (values < hi) for lo, hi in zip(edges[:-1], edges[1:])]
    assert heights * np.diff(edges) == pytest.approx([probabilities[h].sum() for h in held],
                                                     rel=1e-9)
    shown = sum(probabilities[h].sum() for h in held)
    assert 1 - 2 * _display.EXACT_SHOWN - 0.01 < shown <= 1 + 1e-12
    assert ax.get_ylabel() == "probability density"
    plt.close("all")


def test_bins_given_are_the_histograms_bins():
    import matplotlib.pyplot as plt

    nd = ca.nulls.null_distribution(TAB3, index="adjusted_rand", method="patefield", seed=3,
                                    n_sim=800)
    assert len(_display.plot_null(nd, bins=7).patches) == 7
    edges = [-0.2, 0.0, 0.2, 0.4]
    ax = nd.plot(bins=edges)
    assert [p.get_x() for p in ax.patches] == pytest.approx(edges[:-1])
    plt.close("all")


def test_lattice_edges_cover_the_draws_and_honour_a_range():
    x = (np.arange(50, 200) / 100.0) ** 2
    edges = _display.lattice_edges(np.repeat(x, 3))
    assert edges[0] < x.min() and edges[-1] > x.max()
    counts, _ = np.histogram(x, edges)
    assert (counts >= _display.MIN_VALUES_PER_BIN).all()
    inner = _display.lattice_edges(x, bins=10, range=(1.0, 2.0))
    assert 8 <= len(inner) - 1 <= 10 and abs(inner[0] - 1.0) < 0.03 and abs(inner[-1] - 2.0) < 0.03
    assert np.isin(inner, (x[:-1] + x[1:]) / 2).all()
    assert _display.lattice_edges([0.5, 0.5]).tolist() == pytest.approx([0.4995, 0.5005])
    assert _display.support([0.2, 0.2 + 1e-12, 0.4])[1].tolist() == [2, 1]
    from clusteragree.nulls import _laws
    assert _display._TIE_RTOL == _laws.TIE_RTOL, "ties as the laws count them"


@pytest.mark.parametrize("k_target", [0, 1, 7, 250])
def test_the_p_value_bound_is_clopper_pearsons(k_target):
    from scipy import stats

    samples = np.r_[np.ones(k_target), np.zeros(1000 - k_target)]
    nd = NullDistribution("rand", "patefield", samples=samples)
    assert nd.tail_count(1.0) == k_target
    for level in (0.9, 0.95, 0.99):
        ref = stats.binomtest(k_target, 1000, alternative="less").proportion_ci(level).high
        assert nd.pvalue_upper(1.0, confidence=level) == pytest.approx(ref, rel=1e-8)


@pytest.mark.parametrize("counts", [[[12, 2], [3, 10]], [[5, 3, 1], [2, 6, 2], [1, 1, 7]],
                                    [[30, 20], [10, 20]]])
def test_the_exact_null_mean_of_an_index_adjusted_by_it_is_exactly_zero(counts):
    """ARI and AMI are adjusted by their own null mean under fixed margins, so their exact
    laws have mean 0 (the closed form's 0), not a rounding residue such as 1.04e-16."""
    for index in ("adjusted_rand", "adjusted_mutual_info"):
        nd = ca.nulls.null_distribution(counts, index=index, method="exact")
        assert nd.mean == 0.0, (index, nd.mean)
    # a mean small but above rounding is kept: a law on {-1, 1 + 2e-9}
    law = NullDistribution("rand", "exact", values=[-1.0, 1.0 + 2e-9], probabilities=[0.5, 0.5])
    assert law.mean == pytest.approx(1e-9, rel=1e-6)


@pytest.mark.parametrize("kind", ["few values", "many values"])
def test_a_sampled_law_reads_its_sorted_draws_as_numpy_does(kind):
    """A Monte Carlo law keeps its distinct values with their counts when they are few (an
    index of Patefield tables), else a sorted copy: either way its quantiles are numpy's, its
    tail counts and cdf those of the sorted draws, and its quantile standard error the kernel
    density's of every draw (issue 29, item 11)."""
    rng = np.random.default_rng(8)
    B = 3 * (1 << 18) + 17  # several chunks, the last one short
    draws = (rng.binomial(40, 0.3, B) / 7.0 - 1.0 if kind == "few values"
             else rng.standard_normal(B))
    nd = NullDistribution("ari", "patefield", samples=draws)
    compressed = nd._law._sorted.counts is not None
    assert compressed == (kind == "few values")
    np.testing.assert_array_equal(nd.samples, draws)  # the draws keep their order
    srt = np.sort(draws)
    levels = np.array([0.0, 1e-6, 0.025, 0.3, 0.5, 0.77, 0.975, 1.0])
    np.testing.assert_array_equal(nd.quantile(levels), np.quantile(draws, levels))
    points = np.concatenate((srt[[0, 1, B // 3, B // 2, -2, -1]], [srt[0] - 1, srt[-1] + 1]))
    for t in points:
        tol = max(1.0, abs(t)) * 1e-9
        assert nd.pvalue(t, alternative="greater", plus_one=False) == \
            (B - np.searchsorted(srt, t - tol, side="left")) / B
        assert nd.pvalue(t, alternative="less", plus_one=False) == \
            np.searchsorted(srt, t + tol, side="right") / B
    sd = draws.std(ddof=1)
    bw = sd * B ** (-1 / 5)
    for q in (0.1, 0.5, 0.9):
        x = np.quantile(draws, q)
        kernel = np.exp(-0.5 * ((draws - x) / bw) ** 2).sum()
        density = kernel / (B * bw * math.sqrt(2 * math.pi))
        assert nd.quantile_se(q) == pytest.approx(math.sqrt(q * (1 - q) / B) / density,
                                                  rel=1e-9)
    assert nd.mean == pytest.approx(draws.mean(), rel=1e-12, abs=1e-15)
    assert nd.var == pytest.approx(draws.var(ddof=1), rel=1e-9)
