"""``ca.cluster_agreement``: which clusters agree, checked against independent computations.

Oracles: brute force over every assignment (``itertools.permutations``) for the one-to-one
pairing; counts of the objects themselves for the overlaps, Jaccard, precision, recall, F1 and
the majority partner; ``scipy.stats.hypergeom.pmf`` summed over the tail and statsmodels'
``multipletests`` for the p-values; enumeration of the object pairs for the cluster-level
indices; ``ca.agreement`` for the decomposition's sums; hand-subset labels for the noise policy.
"""

from __future__ import annotations

import itertools
from collections import Counter

import matplotlib
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import hypergeom
from statsmodels.stats.multitest import multipletests

import clusteragree as ca
from clusteragree.inference.clusters import CLUSTER_COLUMNS, DECOMPOSED, pair_decomposition

matplotlib.use("Agg")

SETTINGS = dict(deadline=None, derandomize=True, database=None, max_examples=150,
                suppress_health_check=[HealthCheck.too_slow])


def _labels(rng, n, k, q):
    x = rng.integers(0, k, n)
    y = rng.integers(0, q, n)
    return x, y


def _side(res, side):
    f = res.to_frame()
    return f[f["side"] == side].reset_index(drop=True)


def _best_total(counts: np.ndarray) -> int:
    """The maximum total overlap of a one-to-one pairing, by brute force over assignments."""
    K, Q = counts.shape
    if K <= Q:
        return max(sum(counts[i, c] for i, c in enumerate(cols))
                   for cols in itertools.permutations(range(Q), K))
    return max(sum(counts[r, j] for j, r in enumerate(rows))
               for rows in itertools.permutations(range(K), Q))


# -- the pairing ------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(40))
def test_one_to_one_is_the_best_assignment_by_brute_force(seed):
    rng = np.random.default_rng(seed)
    K, Q = rng.integers(1, 6, 2)
    x, y = _labels(rng, int(rng.integers(2, 40)), K, Q)
    tab = ca.crosstab(x, y)
    res = ca.cluster_agreement(x, y)
    fx, fy = _side(res, "x"), _side(res, "y")
    paired = fx[fx["partner"].notna()]
    assert int(paired["overlap"].sum()) == _best_total(tab.counts)
    # one-to-one: distinct partners, and y's rows say the same pairs
    assert paired["partner"].is_unique
    back = {(r.partner, r.cluster) for r in fy.itertuples() if not pd.isna(r.partner)}
    assert back == {(r.cluster, r.partner) for r in paired.itertuples()}
    assert (paired["overlap"] > 0).all()  # no pair shares nothing
    # clusters without a partner: at least |K - Q| of the larger side
    assert fx["partner"].isna().sum() >= max(0, tab.shape[0] - tab.shape[1])
    assert fy["partner"].isna().sum() >= max(0, tab.shape[1] - tab.shape[0])


def test_a_unique_best_pairing_is_found_exactly():
    counts = np.array([[5, 6, 0], [0, 7, 1], [4, 0, 2]])
    res = ca.cluster_agreement(counts)
    # by brute force: 0->0, 1->1, 2->2 gives 14; 0->1, 1->2, 2->0 gives 11; ...
    best = max(itertools.permutations(range(3)),
               key=lambda p: sum(counts[i, p[i]] for i in range(3)))
    assert _side(res, "x")["partner"].tolist() == list(best)


def test_more_clusters_in_y_leave_some_without_a_partner():
    x = [0, 0, 0, 1, 1, 1]
    y = [0, 0, 1, 2, 2, 3]
    fy = _side(ca.cluster_agreement(x, y), "y")
    assert fy["partner"].isna().tolist() == [False, True, False, True]
    assert fy.loc[1, ["overlap", "jaccard", "pvalue"]].isna().all()
    assert fy.loc[1, "size"] == 1


def test_majority_by_hand():
    rng = np.random.default_rng(3)
    for _ in range(20):
        x, y = _labels(rng, 40, 4, 5)
        res = ca.cluster_agreement(x, y, match="majority")
        for side, own, other in (("x", x, y), ("y", y, x)):
            f = _side(res, side)
            for c, partner in zip(f["cluster"], f["partner"]):
                held = Counter(other[own == c])
                most = max(held.values())
                assert partner == min(k for k, v in held.items() if v == most)


def test_majority_ties_go_to_the_lower_label():
    x = [0, 0, 0, 0]
    y = [5, 5, 2, 2]
    f = _side(ca.cluster_agreement(x, y, match="majority"), "x")
    assert f.loc[0, "partner"] == 2


# -- the figures of a paired cell -------------------------------------------------------------

@pytest.mark.parametrize("match", ["one-to-one", "majority"])
def test_cell_figures_by_counting_the_objects(match):
    rng = np.random.default_rng(7)
    x, y = _labels(rng, 60, 4, 3)
    res = ca.cluster_agreement(x, y, match=match)
    for side, own, other in (("x", x, y), ("y", y, x)):
        for r in _side(res, side).itertuples():
            mine = set(np.flatnonzero(own == r.cluster))
            assert r.size == len(mine)
            if pd.isna(r.partner):
                continue
            theirs = set(np.flatnonzero(other == r.partner))
            both = len(mine & theirs)
            assert r.overlap == both and r.partner_size == len(theirs)
            assert r.jaccard == pytest.approx(both / len(mine | theirs), abs=1e-15)
            ysize = len(theirs) if side == "x" else len(mine)  # precision: of the y cluster
            xsize = len(mine) if side == "x" else len(theirs)
            assert r.precision == pytest.approx(both / ysize, abs=1e-15)
            assert r.recall == pytest.approx(both / xsize, abs=1e-15)
            assert r.f1 == pytest.approx(2 * r.precision * r.recall
                                         / (r.precision + r.recall), abs=1e-14)


@pytest.mark.parametrize("multiple", ["holm", "fdr_bh", None])
def test_pvalues_are_hypergeometric_tails_adjusted_over_distinct_cells(multiple):
    rng = np.random.default_rng(11)
    x = rng.integers(0, 4, 80)
    y = np.where(rng.random(80) < 0.6, x, rng.integers(0, 4, 80))
    for match in ("one-to-one", "majority"):
        res = ca.cluster_agreement(x, y, match=match, multiple=multiple)
        n = len(x)
        cells = {}
        for r in res.to_frame().itertuples():
            if pd.isna(r.partner):
                continue
            i, j = (r.cluster, r.partner) if r.side == "x" else (r.partner, r.cluster)
            a, b = int((x == i).sum()), int((y == j).sum())
            v = int(((x == i) & (y == j)).sum())
            tail = sum(hypergeom.pmf(k, n, a, b) for k in range(v, min(a, b) + 1))
            assert r.pvalue == pytest.approx(tail, rel=1e-9, abs=1e-300)
            cells[(i, j)] = (r.pvalue, r.pvalue_adjusted)
        assert res.n_tests == len(cells)  # one test per distinct cell
        p = np.array([v[0] for v in cells.values()])
        expect = p if multiple is None else multipletests(p, method=multiple)[1]
        np.testing.assert_allclose([v[1] for v in cells.values()], expect, rtol=1e-12)


@pytest.mark.parametrize("n", [7, 60, 2_000, 10**6])
def test_the_upward_tail_sum_equals_scipys_survival_function(n):
    from clusteragree.inference.clusters import _upper_tail

    rng = np.random.default_rng(n)
    a, b = rng.integers(1, n + 1, 400), rng.integers(1, n + 1, 400)
    v = rng.integers(np.maximum(1, a + b - n), np.minimum(a, b) + 1)
    got = _upper_tail(v, n, a, b)
    ok = ~np.isnan(got)
    assert ok.sum() > 100  # the cells above the mode
    want = hypergeom.logsf(v[ok] - 1, n, a[ok], b[ok])
    np.testing.assert_allclose(got[ok], want, rtol=1e-8, atol=1e-8)


def test_a_pvalue_below_the_doubles_keeps_its_logarithm_and_is_never_printed_as_0():
    x = np.repeat([0, 1], 1000)
    res = ca.cluster_agreement(x, x)
    f = res.to_frame()
    assert (f["pvalue"] == 0).all()
    # P(N = 1000) = 1 / C(2000, 1000)
    from math import comb, log10
    assert f.loc[0, "log10_pvalue"] == pytest.approx(-log10(comb(2000, 1000)), rel=1e-9)
    rows = [line.split() for line in str(res).splitlines() if line.split()[:1] in (["x"], ["y"])]
    assert len(rows) == 4 and all(r[-2:] == ["<1e-300", "<1e-300"] for r in rows)
    assert "<1e-300" in f.to_string()


# -- splits and merges ------------------------------------------------------------------------

def test_splits_and_merges_by_hand():
    x = [0] * 10 + [1] * 10
    y = [0] * 6 + [1] * 4 + [2] * 10
    res = ca.cluster_agreement(x, y, split_share=0.3)
    s = res.splits
    assert s[s["kind"] == "split"][["cluster", "part", "overlap"]].values.tolist() == [
        [0, 0, 6], [0, 1, 4]]
    assert s[s["kind"] == "merge"].empty
    assert _side(res, "x").loc[0, "note"] == "split over y 0 (60%), 1 (40%)"
    assert "x cluster 0 is split over y clusters 0 (60%), 1 (40%)" in str(res)
    # at a share above 0.4, 4 of 10 is no part: no split
    assert ca.cluster_agreement(x, y, split_share=0.45).splits.empty
    # the reverse reading: y's cluster 0 merges
    merged = ca.cluster_agreement(y, x, split_share=0.3).splits
    assert merged["kind"].tolist() == ["merge", "merge"]
    assert "merges" in _side(ca.cluster_agreement(y, x, split_share=0.3), "y").loc[0, "note"]


# -- the decomposition ------------------------------------------------------------------------

tables = st.integers(1, 5).flatmap(lambda k: st.integers(1, 5).flatmap(
    lambda q: st.lists(st.lists(st.integers(0, 12), min_size=q, max_size=q),
                       min_size=k, max_size=k)))


@settings(**SETTINGS)
@given(tables)
def test_decomposition_sums_to_the_overall_index(counts):
    counts = np.array(counts)
    if counts.sum() < 2:
        return
    tab = ca.ContingencyTable(counts)
    d = pair_decomposition(tab)
    for index in DECOMPOSED:
        part = d[d["index"] == index]
        w, v = part["weight"].to_numpy(float), part["value"].to_numpy(float)
        if np.isnan(w).any():  # the index is set by convention (a 0 denominator)
            continue
        assert np.all(np.isnan(v) <= (w == 0))  # no value only where no weight
        assert w.sum() == pytest.approx(1.0, abs=1e-12)
        total = float(np.sum(w[w > 0] * v[w > 0]))
        assert abs(total - ca.agreement(tab, index=index)) <= 1e-12


def _pair_shares(x, y, side):
    """Each cluster's hand count over the object pairs: (pairs inside it, of those together in
    the other clustering; pairs it takes part in (across counted 1/2), of those treated alike)."""
    own, other = (x, y) if side == "x" else (y, x)
    out = {}
    for c in np.unique(own):
        inside = together = part = alike = 0.0
        for i, j in itertools.combinations(range(len(x)), 2):
            a, b = own[i] == c, own[j] == c
            if not (a or b):
                continue
            same_own, same_other = own[i] == own[j], other[i] == other[j]
            share = 1.0 if a and b else 0.5
            part += share
            alike += share * (same_own == same_other)
            if a and b:
                inside += 1
                together += same_other
        out[c] = (inside, together, part, alike)
    return out


def test_cluster_level_values_by_counting_pairs():
    x = np.array([0, 0, 0, 0, 1, 1, 1, 2, 2, 2, 2])
    y = np.array([0, 0, 1, 1, 1, 1, 2, 2, 2, 0, 3])
    d = ca.cluster_agreement(x, y).decomposition.set_index(["index", "side", "cluster"])
    n_pairs = len(x) * (len(x) - 1) / 2
    def together(labels):  # the share of all object pairs together in a clustering
        return (np.sum(labels[:, None] == labels[None, :]) - len(labels)) / 2 / n_pairs

    share_together = {"x": together(y), "y": together(x)}
    for side in "xy":
        wallace = "wallace_x" if side == "x" else "wallace_y"
        for c, (inside, together, part, alike) in _pair_shares(x, y, side).items():
            assert d.loc[("rand", side, c), "value"] == pytest.approx(alike / part, abs=1e-15)
            assert d.loc[("rand", side, c), "weight"] == pytest.approx(part / (2 * n_pairs))
            if inside == 0:
                assert np.isnan(d.loc[(wallace, side, c), "value"])
                continue
            w = together / inside
            assert d.loc[(wallace, side, c), "value"] == pytest.approx(w, abs=1e-15)
            e = share_together[side]  # E[W_i] given the margins: the other side's share
            assert d.loc[("adjusted_rand", side, c), "value"] == pytest.approx(
                (w - e) / (1 - e), abs=1e-14)


# -- sparse and dense tables ------------------------------------------------------------------

def _many_clusters(seed=0, k=1100, size=5, moved=300):
    rng = np.random.default_rng(seed)
    x = np.repeat(np.arange(k), size)
    y = rng.permutation(k)[x] + 10
    for c in range(moved):  # one object of each of the first clusters moves anywhere
        y[c * size] = rng.integers(0, k) + 10
    return x, y


def test_the_sparse_path_equals_the_dense_path():
    x, y = _many_clusters()
    tab = ca.crosstab(x, y)
    assert not tab.dense
    for match in ("one-to-one", "majority"):
        sparse = ca.cluster_agreement(tab, match=match)
        dense = ca.cluster_agreement(tab.to_dense(), match=match)
        if match == "one-to-one":
            assert "min_weight_full_bipartite_matching" in sparse.matching
            assert "linear_sum_assignment" in dense.matching
        pd.testing.assert_frame_equal(pd.DataFrame(sparse.to_frame()),
                                      pd.DataFrame(dense.to_frame()))
        pd.testing.assert_frame_equal(sparse.splits, dense.splits)
        pd.testing.assert_frame_equal(sparse.decomposition, dense.decomposition,
                                      check_exact=False, rtol=1e-13)


def test_sparse_pairing_with_no_full_matching_on_the_shared_cells():
    """Three clusters of x share objects with one cluster of y only: the sparse matching
    (which needs a full matching) still pairs one of them and leaves two without a partner."""
    from scipy import sparse

    cells = sparse.csr_array(np.array([[3, 0], [2, 0], [1, 0], [0, 4]]))
    tab = ca.crosstab(np.repeat([0, 1, 2, 3], [3, 2, 1, 4]), np.repeat([0, 0, 0, 1],
                                                                      [3, 2, 1, 4]))
    from clusteragree.sparse_tables import SparseContingencyTable

    res = ca.cluster_agreement(SparseContingencyTable(cells))
    fx = _side(res, "x")
    assert fx["partner"].isna().tolist() == [False, True, True, False]
    assert fx["overlap"].dropna().tolist() == [3, 4]
    assert _side(ca.cluster_agreement(tab), "x")["partner"].isna().tolist() == [
        False, True, True, False]


# -- the objects compared ---------------------------------------------------------------------

def test_noise_drop_equals_the_hand_subset():
    rng = np.random.default_rng(5)
    x = rng.integers(-1, 4, 120)
    y = np.where(rng.random(120) < 0.7, x, rng.integers(-1, 4, 120))
    keep = (x != -1) & (y != -1)
    got = ca.cluster_agreement(x, y, noise="drop")
    want = ca.cluster_agreement(x[keep], y[keep])
    pd.testing.assert_frame_equal(pd.DataFrame(got.to_frame()), pd.DataFrame(want.to_frame()))
    assert "left out" in got.data_name and f"{keep.sum()} of 120 objects" in str(got)


def test_integer_weights_are_repeated_objects():
    x, y = np.array([0, 0, 1, 1, 2]), np.array([0, 1, 1, 1, 0])
    w = np.array([2, 1, 3, 1, 2])
    got = ca.cluster_agreement(x, y, sample_weight=w).to_frame()
    want = ca.cluster_agreement(np.repeat(x, w), np.repeat(y, w)).to_frame()
    pd.testing.assert_frame_equal(pd.DataFrame(got), pd.DataFrame(want))


# -- refusals, by name, before any work -------------------------------------------------------

@pytest.mark.parametrize("kwargs, error, name", [
    ({"match": "best"}, ValueError, "match"),
    ({"match": 1}, TypeError, "match"),
    ({"multiple": "holmes"}, ValueError, "multiple"),
    ({"split_share": 0.7}, ValueError, "split_share"),
    ({"split_share": 0}, ValueError, "split_share"),
    ({"split_share": "a"}, TypeError, "split_share"),
    ({"sample_weight": [0.5, 1, 1, 1]}, ValueError, "sample_weight"),
    ({"noise": "ignore"}, ValueError, "noise"),
])
def test_bad_input_is_refused_by_name(kwargs, error, name):
    with pytest.raises(error, match=name):
        ca.cluster_agreement([0, 0, 1, 1], [0, 1, 1, 1], **kwargs)


def test_memberships_are_refused():
    with pytest.raises((TypeError, ValueError)):
        ca.cluster_agreement([[0.5, 0.5], [0.2, 0.8]], [[1.0, 0.0], [0.0, 1.0]])


def test_the_signature_is_short():
    import inspect

    assert len(inspect.signature(ca.cluster_agreement).parameters) <= 14


# -- the result's forms -----------------------------------------------------------------------

def test_printed_html_frame_and_plot():
    x = [0] * 10 + [1] * 10 + [2] * 10
    y = [0] * 10 + [1] * 5 + [2] * 5 + [2] * 10
    res = ca.cluster_agreement(x, y)
    text = str(res)
    for part in ("Cluster-level agreement of two clusterings", "data:  x and y (3 x 3 table, "
                 "n = 30)", "pairing: one-to-one", "holm-adjusted over the 3 distinct",
                 "y cluster 2 merges x clusters 2 (67%), 1 (33%)", "conditional on the pairing",
                 "3.33e-08"):
        assert part in text, part
    assert res.summary() == text
    assert "<table" in res._repr_html_() and "conditional on the pairing" in res._repr_html_()
    frame = res.to_frame()
    assert list(frame.columns) == list(CLUSTER_COLUMNS)
    assert isinstance(frame, ca.inference.ResultsFrame)
    assert str(frame["overlap"].dtype) == "Int64" and str(frame["pvalue"].dtype) == "Float64"
    ax = res.plot()
    outlined = [p for p in ax.patches if not p.get_fill()]
    assert len(outlined) == res.n_tests == 3
    import matplotlib.pyplot as plt

    plt.close("all")


def test_plot_refuses_a_table_too_large_to_draw():
    x, y = _many_clusters()
    with pytest.raises(ValueError, match="at most"):
        ca.cluster_agreement(x, y).plot()


def test_many_clusters_print_a_few_rows():
    x, y = _many_clusters()
    text = str(ca.cluster_agreement(x, y))
    assert "not printed: res.to_frame() has them all" in text
    assert len(text.splitlines()) < 80


def test_an_underflowed_adjusted_p_value_prints_as_a_bound_not_zero():
    x = np.repeat(np.arange(3), 3000)
    frame = ca.cluster_agreement(x, x.copy()).to_frame()
    text = frame[["pvalue", "pvalue_adjusted"]].to_string()
    assert "<1e-300" in text and " 0\n" not in text + "\n" and not any(
        line.rstrip().endswith(" 0") for line in text.splitlines())
