"""Study summaries in the thesis' layouts (clusteragree.studies.study_results), on a synthetic results
frame whose answers are computed independently here."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from clusteragree.studies import study_results as sr


@pytest.fixture(scope="module")
def results():
    rng = np.random.default_rng(11)
    rows = []
    for (balance, k, sep), rep, algorithm in itertools.product(
            itertools.product(("balanced", "unbalanced"), (2, 3), sr.SEPARATIONS), range(8),
            ("em", "kmeans")):
        level = sr.SEPARATIONS.index(sep) / 2
        ext = level + rng.normal(0, 0.05) + (0.05 if algorithm == "em" else 0)
        stab = 0.8 * ext + rng.normal(0, 0.05) + (0.1 if balance == "unbalanced" and
                                                   algorithm == "em" else 0)
        scenario = f"{1 + (balance == 'unbalanced')}{k}{1 + sr.SEPARATIONS.index(sep)}"
        for table, value in (("external", ext), ("stability", stab)):
            for index, shift in (("rand", 0.0), ("nmi_joint", -0.1)):
                rows.append({"unit": f"{scenario}-{rep}-{algorithm}", "scenario": scenario,
                             "balance": balance, "k": k, "separation": sep, "rep": rep,
                             "algorithm": algorithm, "table": table, "index": index,
                             "adjusted_mean": value + shift,
                             "adjusted_median": value + shift + 0.01})
    return pd.DataFrame(rows)


def test_scenario_table_is_the_mean_per_scenario(results):
    tab = sr.scenario_table(results, "rand", algorithm="em")
    part = results[(results["index"] == "rand") & (results["algorithm"] == "em")]
    expected = part.groupby(["balance", "separation", "table", "k"])["adjusted_mean"].mean()
    for (balance, sep, table, k), value in expected.items():
        assert tab.loc[(balance, sep), (table, k)] == pytest.approx(value)
    assert list(tab.index.get_level_values("separation")[:3]) == list(sr.SEPARATIONS)
    median = sr.scenario_table(results, "rand", center="median", algorithm="em")
    assert np.allclose(median.to_numpy() - tab.to_numpy(), 0.01)


def test_factor_correlations_equal_scipy(results):
    corr = sr.factor_correlations(results, ["rand"], table="external")
    part = results[(results["index"] == "rand") & (results["table"] == "external")
                   & (results["algorithm"] == "kmeans")]
    rho = stats.spearmanr(part["separation"].map(sr.SEPARATIONS.index),
                          part["adjusted_mean"]).statistic
    row = corr[(corr["algorithm"] == "kmeans") & (corr["factor"] == "separation")]
    assert row["spearman"].item() == pytest.approx(rho) and rho > 0.8
    assert set(corr["factor"]) == {"separation", "k", "balance"}


def test_stability_validity_across_and_within(results):
    summary, within = sr.stability_validity(results, "rand")
    units = sr.paired_units(results, "rand")
    em = units[units["algorithm"] == "em"]
    assert summary[("em", "all units")] == pytest.approx(
        np.corrcoef(em["external"], em["stability"])[0, 1])
    means = em.groupby("scenario")[["external", "stability"]].mean()
    assert summary[("em", "scenario means")] == pytest.approx(
        np.corrcoef(means["external"], means["stability"])[0, 1])
    assert len(within) == 2 * 12 and (within["units"] == 8).all()
    # within a scenario only the noise is left: much weaker than across scenarios
    assert within["pearson"].abs().mean() < summary[("em", "all units")] - 0.3


def test_algorithm_comparison_pairs_by_data_set(results):
    cmp_ = sr.algorithm_comparison(results, "rand", table="stability")
    units = sr.paired_units(results, "rand")
    for balance in ("balanced", "unbalanced"):
        part = units[units["balance"] == balance]
        diff = (part[part["algorithm"] == "em"].set_index(["scenario", "rep"])["stability"]
                - part[part["algorithm"] == "kmeans"].set_index(["scenario", "rep"])[
                    "stability"])
        assert cmp_.loc[balance, "em - kmeans"] == pytest.approx(diff.mean())
        assert cmp_.loc[balance, "wilcoxon p"] == pytest.approx(stats.wilcoxon(diff).pvalue)
    assert cmp_.loc["unbalanced", "em - kmeans"] > cmp_.loc["balanced", "em - kmeans"]


def test_bad_input(results):
    with pytest.raises(ValueError, match="no index 'jaccard'"):
        sr.paired_units(results, "jaccard")
    with pytest.raises(ValueError, match="center"):
        sr.scenario_table(results, "rand", center="mode")
    with pytest.raises(TypeError, match="results must be"):
        sr.paired_units([1, 2], "rand")
    with pytest.raises(ValueError, match="both algorithms"):
        sr.algorithm_comparison(results[results["algorithm"] == "em"], "rand")
