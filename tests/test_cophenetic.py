"""``ca.cophenetic_test``: the cophenetic correlations and Baker's gamma against R's
dendextend (values stored by tests/data/cophenetic_r.R), the Mantel p-value against the
enumeration of all permutations and against the same permutations made by hand, refusals."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from scipy.cluster.hierarchy import cophenet, linkage
from scipy.stats import kendalltau, pearsonr, spearmanr

import clusteragree as ca
from clusteragree.inputs.trees import as_hierarchy

REFERENCE = json.loads((Path(__file__).parent / "data" / "cophenetic_r.json").read_text())
X = np.array(REFERENCE["x"])
R_METHODS = {"average": "average", "complete": "complete", "single": "single",
             "ward": "ward"}


@pytest.mark.parametrize("pair", sorted(REFERENCE["values"]))
def test_the_correlations_are_dendextends(pair):
    """cor_cophenetic (pearson, spearman, kendall) and cor_bakers_gamma of dendextend on
    hclust trees of the same data (ward.D2 is scipy's ward)."""
    first, second = pair.split("_")
    Za, Zb = linkage(X, R_METHODS[first]), linkage(X, R_METHODS[second])
    want = REFERENCE["values"][pair]
    for method in ("pearson", "spearman", "kendall"):
        res = ca.cophenetic_test(Za, Zb, method=method, n_permutations=9, seed=0)
        assert res.statistic == pytest.approx(want[method], rel=1e-10)
        assert res.bakers_gamma == pytest.approx(want["bakers_gamma"], rel=1e-10)


def test_all_permutations_are_enumerated_for_few_leaves():
    """For at most 8 leaves the p-value is the share of all n! relabellings of tree b's
    leaves whose correlation is at least the observed one (brute force here)."""
    x = X[:7]
    Za, Zb = linkage(x, "average"), linkage(x[::-1], "complete")
    res = ca.cophenetic_test(Za, Zb)
    assert res.exact and res.n_permutations == 5040
    ca_, cb = cophenet(Za), cophenet(Zb)
    from scipy.spatial.distance import squareform

    B = squareform(cb)
    values = [pearsonr(ca_, squareform(B[np.ix_(p, p)], checks=False)).statistic
              for p in map(list, itertools.permutations(range(7)))]
    obs = pearsonr(ca_, cb).statistic
    assert res.statistic == pytest.approx(obs, rel=1e-12)
    want = np.mean(np.array(values) >= obs - 1e-12)
    assert res.pvalue == pytest.approx(want, abs=1e-15)
    np.testing.assert_allclose(np.sort(res.null["cophenetic"]), np.sort(values), atol=1e-12)


@pytest.mark.parametrize("method", ["pearson", "spearman", "kendall"])
def test_the_mantel_null_is_the_same_permutations_by_hand(method):
    Za, Zb = linkage(X, "ward"), linkage(X, "single")
    res = ca.cophenetic_test(Za, Zb, method=method, n_permutations=30, seed=11)
    rng = np.random.default_rng(11)
    from scipy.spatial.distance import squareform

    ca_, B = cophenet(Za), squareform(cophenet(Zb))
    corr = {"pearson": pearsonr, "spearman": spearmanr, "kendall": kendalltau}[method]
    values = np.array([corr(ca_, squareform(B[np.ix_(p, p)], checks=False)).statistic
                       for p in (rng.permutation(25) for _ in range(30))])
    np.testing.assert_allclose(res.null["cophenetic"], values, rtol=1e-10, atol=1e-12)
    assert res.pvalue == pytest.approx((1 + (values >= res.statistic - 1e-12).sum()) / 31)


def test_bakers_gamma_of_partitions_and_of_the_linkage_agree():
    Za, Zb = linkage(X, "average"), linkage(X, "complete")
    parts = [as_hierarchy(Zb).cut(k) for k in range(1, 26)]
    by_linkage = ca.cophenetic_test(Za, Zb, n_permutations=19, seed=1)
    by_parts = ca.cophenetic_test(Za, parts, n_permutations=19, seed=1)
    assert by_parts.statistic is None and by_parts.pvalue is None
    assert by_parts.bakers_gamma == pytest.approx(by_linkage.bakers_gamma, rel=1e-12)
    np.testing.assert_allclose(by_parts.null["bakers_gamma"], by_linkage.null["bakers_gamma"])
    assert "cophenetic" not in by_parts.null
    assert "Baker's gamma" in by_parts.sentence() and "nan" not in by_parts.sentence()


def test_refusals_and_printing(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    inverted = linkage(np.array([[0.0, 0.0], [1.0, 0.0], [0.5, 0.9], [3.0, 3.0]]), "centroid")
    with pytest.raises(ValueError, match="inversion"):
        ca.cophenetic_test(inverted, linkage(X[:4], "ward"))
    with pytest.raises(ValueError, match="at least 3 leaves"):
        ca.cophenetic_test(linkage(X[:2], "ward"), linkage(X[:2], "single"))
    with pytest.raises(ValueError, match="method"):
        ca.cophenetic_test(linkage(X, "ward"), linkage(X, "single"), method="cosine")
    res = ca.cophenetic_test(linkage(X, "ward"), linkage(X, "average"), n_permutations=99,
                             seed=2)
    text = str(res)
    assert "Mantel" in text and "Baker's gamma" in text and "99 random permutations" in text
    assert "<table>" in res._repr_html_()
    frame = res.to_frame()
    assert frame["pvalue"].between(0, 1).all() and len(frame) == 2
    assert res.sentence().startswith("The cophenetic correlation of tree_a and tree_b was r = ")
    res.plot().figure.savefig(tmp_path / "null.png")
