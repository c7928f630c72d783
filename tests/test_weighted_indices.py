"""The indices on tables of real-valued counts (sums of non-integer sample weights, issue 43):
``evaluate_weighted`` equals the integer path on whole counts, the hand-written weighted
formulas on real ones, is free of the weights' scale where the index is, refuses the indices
whose definition needs whole counts, and gives a batch the values of its tables one by one.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clusteragree as ca
from clusteragree.indices import REGISTRY, evaluate_weighted

SETTINGS = dict(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])
TOL = 1e-12

TABLE_INDICES = [name for name, rec in REGISTRY.items() if not rec.on_pairs]
REAL = [name for name in TABLE_INDICES if REGISTRY[name].real_counts]
WHOLE = [name for name in TABLE_INDICES if not REGISTRY[name].real_counts]

#: The indices whose definition needs whole counts, as the registry declares them.
EXPECTED_WHOLE = {"adjusted_mutual_info", "smi", "sri", "rmi", "mari", "ami_tsallis",
                  "smi_tsallis", "nvi", "kappa"}

#: Non-default options of the indices of real counts (the defaults are always tested).
OPTIONS = {
    "criterion_h": [{"pairing": "optimal"}],
    "maximum_match": [{"pairing": "optimal"}],
    "psi": [{"simplified": True}, {"clip": False}],
    "psi_distance": [{"simplified": True}],
    "f_measure": [{"reference": "y"}],
    "v_measure": [{"beta": 0.5}],
    "mutual_info": [{"base": 2}],
    "variation_of_information": [{"base": 10}],
    "entropy_x": [{"base": 2}],
    "tversky": [{"alpha": 0.5, "beta": 2.0}],
}

#: Integer tables, the degenerate ones among them: one cluster each, one cluster against
#: several, all singletons, identical partitions (permuted), nested, with an empty row.
TABLES = {
    "amorim": [[30, 20], [10, 20]],
    "three": [[5, 1, 0], [2, 7, 3], [0, 1, 6]],
    "one_cluster_both": [[7]],
    "one_cluster_x": [[3, 4, 2]],
    "one_cluster_y": [[3], [4], [2]],
    "singletons_x": [[1, 0], [1, 0], [0, 1], [0, 1]],
    "singletons_both": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
    "identical_permuted": [[0, 4, 0], [3, 0, 0], [0, 0, 5]],
    "nested": [[4, 0, 0], [0, 2, 3]],
    "empty_row": [[3, 1], [0, 0], [2, 5]],
    "wide": [[2, 0, 1, 3, 0, 1, 2], [0, 4, 1, 0, 2, 0, 1]],
}


def close(a, b) -> bool:
    return math.isclose(float(a), float(b), rel_tol=TOL, abs_tol=TOL)


def _cases():
    for name in REAL:
        for opts in [{}] + OPTIONS.get(name, []):
            yield pytest.param(name, opts, id=name + "".join(f"-{k}={v}" for k, v in opts.items()))


def _integer_value(name, table, opts):
    return ca.agreement(np.asarray(table), index=name, **opts)


# -- the registry -------------------------------------------------------------------------------

def test_every_table_index_is_declared_or_says_why_not():
    assert len(REAL) + len(WHOLE) == len(TABLE_INDICES) == 63
    assert set(WHOLE) == EXPECTED_WHOLE
    for name in WHOLE:  # none is refused for want of a check
        assert REGISTRY[name].whole_counts_reason, name
    for name in REAL:
        assert not REGISTRY[name].whole_counts_reason, name


def test_indices_of_object_pairs_take_no_real_table():
    assert not any(rec.real_counts for rec in REGISTRY.values() if rec.on_pairs)
    with pytest.raises(ValueError, match="element_centric.*sample_weight"):
        evaluate_weighted("element_centric", [[1.5, 0.5], [0.0, 2.0]], {})


def test_list_indices_shows_real_counts():
    df = ca.list_indices()
    assert df.loc["adjusted_rand", "real_counts"] and not df.loc["adjusted_mutual_info",
                                                                  "real_counts"]


# -- whole counts given as floats: the integer path ---------------------------------------------

@pytest.mark.parametrize("table", list(TABLES.values()), ids=list(TABLES))
@pytest.mark.parametrize("name, opts", list(_cases()))
def test_whole_counts_as_floats_give_the_integer_values(name, opts, table):
    rec = REGISTRY[name]
    if np.sum(table) < rec.min_n:
        pytest.skip("too few objects for the index")
    expected = _integer_value(name, table, opts)
    got = evaluate_weighted(name, np.asarray(table, dtype=float), opts)
    assert got.shape == () and close(got, expected), (name, float(got), expected)


@st.composite
def integer_tables(draw, max_side=5, max_count=12):
    K = draw(st.integers(1, max_side))
    Q = draw(st.integers(1, max_side))
    cells = draw(st.lists(st.integers(0, max_count), min_size=K * Q, max_size=K * Q))
    table = np.array(cells).reshape(K, Q)
    if table.sum() < 2:
        table[0, 0] += 2
    return table


@settings(max_examples=60, **SETTINGS)
@given(integer_tables())
def test_random_whole_counts_give_the_integer_values(table):
    for name in REAL:
        for opts in [{}] + OPTIONS.get(name, []):
            expected = _integer_value(name, table, opts)
            got = evaluate_weighted(name, table.astype(float), opts)
            assert close(got, expected), (name, opts, table.tolist(), float(got), expected)


# -- real counts: the weighted formulas written out ---------------------------------------------

def C2(m):
    return m * (m - 1) / 2


def hand_written(table):
    """ARI, Rand, Jaccard, Fowlkes-Mallows and NMI (arithmetic) of a real table, from their
    definitions with pair counts C(m, 2) of real m and entropies of the weights."""
    t = np.asarray(table, dtype=float)
    a_i, b_j, n = t.sum(axis=1), t.sum(axis=0), t.sum()
    a = sum(C2(v) for v in t.ravel())
    b = sum(C2(v) for v in a_i)
    c = sum(C2(v) for v in b_j)
    T = C2(n)
    E, M = b * c / T, (b + c) / 2
    d = T - b - c + a  # pairs apart in both
    p, px, py = t / n, a_i / n, b_j / n
    mi = sum(p[i, j] * math.log(p[i, j] / (px[i] * py[j]))
             for i in range(t.shape[0]) for j in range(t.shape[1]) if p[i, j] > 0)
    hx = -sum(v * math.log(v) for v in px if v > 0)
    hy = -sum(v * math.log(v) for v in py if v > 0)
    return {"adjusted_rand": (a - E) / (M - E), "rand": (a + d) / T,
            "jaccard": a / (b + c - a), "fowlkes_mallows": a / math.sqrt(b * c),
            "nmi_sum": 2 * mi / (hx + hy)}


@st.composite
def real_tables(draw, min_cell=1.0, max_side=4):
    """Tables of sums of weights: each cell empty or at least ``min_cell``, at least two
    non-empty rows and columns and not identical partitions (no denominator vanishes)."""
    K = draw(st.integers(2, max_side))
    Q = draw(st.integers(2, max_side))
    cells = draw(st.lists(st.one_of(st.just(0.0), st.floats(min_cell, 50.0)),
                          min_size=K * Q, max_size=K * Q))
    table = np.array(cells).reshape(K, Q)
    table[0, 0] = max(table[0, 0], 1.5)
    table[0, 1] = max(table[0, 1], 1.25)
    table[1, 1] = max(table[1, 1], 2.75)  # two rows, two columns, row 0 split: not identical
    return table


@settings(max_examples=150, **SETTINGS)
@given(real_tables())
def test_weighted_indices_are_their_formulas_on_real_counts(table):
    for name, value in hand_written(table).items():
        got = evaluate_weighted(name, table, {})
        assert math.isclose(float(got), value, rel_tol=1e-10, abs_tol=1e-12), (name, table)


def test_a_table_of_weights_by_hand():
    table = [[2.5, 0.5], [1.0, 3.0]]  # a = 1.875 - 0.125 + 0 + 3 = 4.75, b = 9, c = 8.75
    assert close(evaluate_weighted("ari", table, {}), (4.75 - 3.75) / (8.875 - 3.75))
    assert close(evaluate_weighted("purity", table, {}), 5.5 / 7)


# -- the weights' scale -------------------------------------------------------------------------

#: Indices of the shares of the total weight: one constant times every weight changes nothing.
SCALE_FREE = ["nmi_min", "nmi_sqrt", "nmi_sum", "nmi_max", "nmi_joint", "mutual_info",
              "variation_of_information", "nvi_sum", "entropy_x", "entropy_y", "joint_entropy",
              "homogeneity", "completeness", "v_measure", "purity", "inverse_purity",
              "f_measure", "van_dongen", "van_dongen_similarity", "criterion_h", "accuracy",
              "psi", "psi_distance", "maximum_match", "normalized_pivoted_accuracy",
              "normalized_clustering_accuracy", "cramers_v", "tschuprow_t"]


@settings(max_examples=60, **SETTINGS)
@given(real_tables(min_cell=0.01), st.sampled_from([0.001, 0.37, 4.0, 1e4]))
def test_scale_free_indices_ignore_the_weights_scale(table, factor):
    for name in SCALE_FREE:
        assert REGISTRY[name].real_counts
        one = evaluate_weighted(name, table, {})
        scaled = evaluate_weighted(name, factor * table, {})
        assert math.isclose(float(one), float(scaled), rel_tol=1e-9, abs_tol=1e-12), name


@settings(max_examples=30, **SETTINGS)
@given(real_tables(min_cell=0.01), st.sampled_from([0.37, 4.0]))
def test_chi_squared_grows_with_the_weights(table, factor):
    """X^2 = n (sum n_ij^2 / (a_i b_j) - 1) is proportional to the total weight."""
    one = evaluate_weighted("chi_squared", table, {})
    assert math.isclose(float(evaluate_weighted("chi_squared", factor * table, {})),
                        factor * float(one), rel_tol=1e-9, abs_tol=1e-12)


def test_pair_counts_depend_on_the_weights_scale():
    """C(m, 2) is not homogeneous in m: ARI is not free of the weights' scale (nothing
    promises it), and a total weight below 2 is refused for want of a pair."""
    table = np.array([[2.5, 0.5], [1.0, 3.0]])
    assert not close(evaluate_weighted("ari", table, {}),
                     evaluate_weighted("ari", 4 * table, {}))
    with pytest.raises(ValueError, match="total weight of at least 2.*sample_weight"):
        evaluate_weighted("rand", table / 7, {})


# -- degenerate real tables: the registry's rules -----------------------------------------------

@pytest.mark.parametrize("name", REAL)
def test_identical_partitions_of_weights_take_the_optimum(name):
    rec = REGISTRY[name]
    table = np.array([[0.0, 2.5, 0.0], [3.25, 0.0, 0.0], [0.0, 0.0, 1.75]])
    value = float(evaluate_weighted(name, table, {}))
    if rec.reflexive:
        assert value == rec.optimum, (name, value)
    assert math.isfinite(value) or value == rec.optimum


@pytest.mark.parametrize("name", REAL)
def test_one_cluster_of_weights_follows_the_integer_rule(name):
    """x a single cluster: the value of the integer table with the same pattern of cells
    wherever the index's value there does not depend on the weights (0 for NMI, ...)."""
    weights = np.array([[2.5, 3.25, 1.75]])
    whole = np.array([[2, 3, 2]])
    a = float(evaluate_weighted(name, weights, {}))
    b = float(evaluate_weighted(name, whole.astype(float), {}))
    assert math.isfinite(a) and math.isfinite(b)
    if name in ("nmi_min", "nmi_sqrt", "nmi_sum", "nmi_max", "nmi_joint", "homogeneity",
                "completeness", "adjusted_rand", "purity", "cramers_v"):
        assert close(a, b), (name, a, b)


# -- refusals -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(EXPECTED_WHOLE))
def test_indices_of_whole_counts_are_refused_by_name(name):
    with pytest.raises(ValueError, match=f"index '{name}' needs whole counts .*sample_weight"):
        evaluate_weighted(name, [[2.5, 0.5], [1.0, 3.0]], {})
    # before any work: even a table that is not one is refused for the index first
    with pytest.raises(ValueError, match=f"index '{name}'.*sample_weight"):
        evaluate_weighted(name, [[-1.0]], {})


def test_the_refusal_names_indices_that_take_weights():
    with pytest.raises(ValueError, match=r"nmi_sum.*real_counts"):
        evaluate_weighted("ami", [[2.5, 0.5], [1.0, 3.0]], {})


def test_a_value_the_weights_leave_undefined_is_refused_not_nan():
    """Four rows of weight 1/2 have p = 4 C(1/2, 2) < 0 pairs: sqrt(p q) is not a number."""
    table = np.full((4, 1), 0.5)
    with pytest.raises(ValueError, match="fowlkes_mallows.*not defined.*negative"):
        evaluate_weighted("fowlkes_mallows", table, {})


@pytest.mark.parametrize("counts, error, match", [
    ([[1.0, -0.5]], ValueError, "non-negative"),
    ([[1.0, np.nan]], ValueError, "finite"),
    ([[0.0, 0.0]], ValueError, "no weight"),
    ([1.0, 2.0], ValueError, "K x Q table"),
    ([["a", "b"]], TypeError, "real numbers"),
])
def test_tables_that_are_not_of_weights_are_refused(counts, error, match):
    with pytest.raises(error, match=match):
        evaluate_weighted("nmi", counts, {})


def test_options_are_checked():
    with pytest.raises(TypeError, match="unknown option"):
        evaluate_weighted("rand", [[2.5, 0.5], [1.0, 3.0]], {"base": 2})
    assert close(evaluate_weighted("vi", [[2.5, 0.5], [1.0, 3.0]], {"base": 2}),
                 evaluate_weighted("vi", [[2.5, 0.5], [1.0, 3.0]], None) / math.log(2))


# -- a batch of tables --------------------------------------------------------------------------

@pytest.mark.parametrize("name, opts", list(_cases()))
def test_a_batch_gives_the_values_of_its_tables(name, opts):
    rng = np.random.default_rng(43)
    tables = rng.gamma(2.0, 2.0, size=(12, 3, 4)) * (rng.random((12, 3, 4)) < 0.7)
    tables[:, 0, 0] += 2.0  # no table empty, every pair count defined
    tables[:, :, 1] += 1.0
    tables[3, 2, :] = 0.0  # an empty row
    tables[5, :, 3] = 0.0  # an empty column
    tables[7] = np.diag([2.5, 3.0, 4.0]) @ np.eye(3, 4)  # identical partitions, padded
    batch = evaluate_weighted(name, tables, opts)
    assert batch.shape == (12,)
    for b, table in enumerate(tables):
        assert close(batch[b], evaluate_weighted(name, table, opts)), (name, b)
