"""The association measures and the peers' further table indices (issue 13, item 5), the
registry's ``reflexive`` flag and the generated catalogue (item 7).

Oracles: scipy.stats (Pearson's chi-squared, Cramer's V, Tschuprow's T), genieclust (NPA, NCA,
PSI; a test-only dependency), brute force over object pairs and over pairings.
"""

import inspect
import itertools
import math
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.optimize import linear_sum_assignment
from scipy.stats import chi2_contingency
from scipy.stats.contingency import association

import clusteragree as ca
from clusteragree.indices import REGISTRY, PairIndex, evaluate
from clusteragree.indices.catalogue import catalogue_markdown, kinds_markdown

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
TOL = 1e-10
NEW = ["chi_squared", "cramers_v", "tschuprow_t", "maximum_match",
       "normalized_pivoted_accuracy", "normalized_clustering_accuracy", "overlap", "tversky",
       "partition_difference"]


def val(name, table, **opts):
    return float(evaluate(name, np.asarray(table), **opts))


@st.composite
def full_tables(draw, max_k=5, max_count=9):
    """Tables with no empty row or column and at least 2 rows and 2 columns."""
    K = draw(st.integers(2, max_k))
    Q = draw(st.integers(2, max_k))
    cells = draw(st.lists(st.integers(0, max_count), min_size=K * Q, max_size=K * Q))
    t = np.array(cells).reshape(K, Q)
    t[np.arange(K), np.arange(K) % Q] += 1  # every row non-empty
    t[np.arange(Q) % K, np.arange(Q)] += 1  # every column non-empty
    return t


@st.composite
def label_pairs(draw, min_n=2, max_n=30, max_k=5):
    n = draw(st.integers(min_n, max_n))
    kx, ky = draw(st.integers(1, max_k)), draw(st.integers(1, max_k))
    x = draw(st.lists(st.integers(0, kx - 1), min_size=n, max_size=n))
    y = draw(st.lists(st.integers(0, ky - 1), min_size=n, max_size=n))
    return np.array(x), np.array(y)


# ---------------------------------------------------------------------------------------------
# chi-squared, Cramer's V, Tschuprow's T against scipy
# ---------------------------------------------------------------------------------------------

@settings(max_examples=150, **SETTINGS)
@given(full_tables())
def test_chi_squared_v_and_t_match_scipy(t):
    chi2 = chi2_contingency(t, correction=False)[0]
    assert val("chi_squared", t) == pytest.approx(chi2, rel=1e-9, abs=1e-9)
    assert val("cramers_v", t) == pytest.approx(association(t, method="cramer"), abs=TOL)
    assert val("tschuprow_t", t) == pytest.approx(association(t, method="tschuprow"), abs=TOL)


def test_association_on_identical_nested_and_single_cluster_tables():
    same = np.diag([3, 4, 5])
    assert val("chi_squared", same) == pytest.approx(12 * 2)  # n (K - 1)
    assert val("cramers_v", same) == 1.0 and val("tschuprow_t", same) == 1.0
    nested = np.array([[3, 0], [2, 0], [0, 4]])  # x refines y: V = 1, T < 1 (K != Q)
    assert val("cramers_v", nested) == pytest.approx(1.0)
    assert val("tschuprow_t", nested) == pytest.approx(2 ** -0.25)
    one = np.array([[2, 3, 4]])  # one class against three clusters: no association shown
    for name in ("chi_squared", "cramers_v", "tschuprow_t"):
        assert val(name, one) == 0.0


def test_association_on_a_batch_equals_table_by_table():
    rng = np.random.default_rng(3)
    batch = rng.integers(0, 6, size=(7, 3, 4)) + 1
    for name in ("chi_squared", "cramers_v", "tschuprow_t"):
        got = evaluate(name, batch)
        assert got.shape == (7,)
        np.testing.assert_allclose(got, [val(name, t) for t in batch], rtol=1e-12)


# ---------------------------------------------------------------------------------------------
# matching measures: greedy and optimal pairings by brute force, genieclust
# ---------------------------------------------------------------------------------------------

def _greedy_brute(t):
    """Greedy pairing, written independently: mask the row and column of the largest cell."""
    w = t.astype(float).copy()
    total = 0.0
    for _ in range(min(t.shape)):
        i, j = np.unravel_index(np.argmax(w), w.shape)
        total += w[i, j]
        w[i, :] = -1
        w[:, j] = -1
    return total / t.sum()


def _best_brute(weights):
    """Largest total of a one-to-one pairing, over every pairing of the padded square table."""
    K, Q = weights.shape
    M = max(K, Q)
    sq = np.zeros((M, M))
    sq[:K, :Q] = weights
    return max(sq[range(M), list(p)].sum() for p in itertools.permutations(range(M)))


@st.composite
def distinct_tables(draw):
    """Tables whose positive cells are distinct (greedy pairing has no ties)."""
    K, Q = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    cells = draw(st.lists(st.integers(1, 40), min_size=K * Q, max_size=K * Q, unique=True))
    return np.array(cells).reshape(K, Q)


@settings(max_examples=100, **SETTINGS)
@given(distinct_tables())
def test_maximum_match_is_the_greedy_pairing(t):
    assert val("maximum_match", t) == pytest.approx(_greedy_brute(t), abs=TOL)
    assert val("maximum_match", t) == pytest.approx(1 - val("criterion_h", t), abs=TOL)
    best = _best_brute(t) / t.sum()
    assert val("maximum_match", t, pairing="optimal") == pytest.approx(best, abs=TOL)
    assert val("accuracy", t) == pytest.approx(best, abs=TOL)


@settings(max_examples=100, **SETTINGS)
@given(full_tables(max_k=4))
def test_npa_and_nca_by_brute_force(t):
    M, K = max(t.shape), t.shape[0]
    A = _best_brute(t) / t.sum()
    assert val("npa", t) == pytest.approx((A - 1 / M) / (1 - 1 / M), abs=TOL)
    recall = _best_brute(t / t.sum(axis=1, keepdims=True)) / K
    assert val("nca", t) == pytest.approx((recall - 1 / K) / (1 - 1 / K), abs=TOL)


def test_npa_nca_psi_match_genieclust():
    gc = pytest.importorskip("genieclust.compare_partitions")
    rng = np.random.default_rng(11)
    checked = []
    for _ in range(120):
        n = int(rng.integers(5, 60))
        # consecutive labels: genieclust counts every label from 0 to the largest as a cluster
        x = np.unique(rng.integers(0, rng.integers(2, 6), n), return_inverse=True)[1]
        y = np.unique(rng.integers(0, rng.integers(2, 6), n), return_inverse=True)[1]
        if x.max() < 1 or y.max() < 1:
            continue
        checked.append(len(np.unique(x)) == len(np.unique(y)))
        for index, oracle in (("npa", gc.normalized_pivoted_accuracy),
                              ("nca", gc.normalized_clustering_accuracy),
                              ("psi", gc.pair_sets_index)):
            try:
                expected = oracle(x, y)
            except RuntimeError:
                # genieclust >= 1.3 refuses unequal numbers of clusters (and its NCA K > L):
                # only the cases it computes are compared
                assert len(np.unique(x)) != len(np.unique(y)), index
                continue
            assert ca.agreement(x, y, index=index) == pytest.approx(expected, abs=1e-9), index
    assert sum(checked) >= 10, "enough square tables compared with every oracle"


def _npa_loop(table):
    """NPA of one table as it was computed before it was batched (issue 34): the empty rows
    and columns dropped, ``linear_sum_assignment`` on the counts."""
    table = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]
    M = max(table.shape)
    r, c = linear_sum_assignment(table.astype(float), maximize=True)
    accuracy = table.astype(float)[r, c].sum() / table.sum()
    return (accuracy - 1.0 / M) / (1.0 - 1.0 / M) if M > 1 else 0.0


def _nca_loop(table):
    """NCA of one table as it was computed before it was batched: ``linear_sum_assignment``
    on the row-normalised counts of the non-empty rows and columns."""
    table = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]
    K = table.shape[0]
    if K == 1:
        return 0.0
    recall = table / table.sum(axis=1, keepdims=True)
    r, c = linear_sum_assignment(recall, maximize=True)
    return (recall[r, c].sum() / K - 1.0 / K) / (1.0 - 1.0 / K)


def _loop_with_rule(func, batch):
    """The per-table values with the registry's rule (identical partitions: 1)."""
    flat = batch.reshape((-1,) + batch.shape[-2:])
    nz = flat > 0
    same = (nz.sum(axis=1) <= 1).all(axis=1) & (nz.sum(axis=2) <= 1).all(axis=1)
    return np.where(same, 1.0, [func(t) for t in flat]).reshape(batch.shape[:-2])


@pytest.mark.parametrize("shape", [(60, 2, 2), (50, 3, 5), (50, 5, 3), (40, 4, 4),
                                   (30, 2, 9), (20, 7, 3), (12, 7, 7), (3, 4, 2, 3)])
def test_npa_and_nca_batched_equal_the_per_table_loop(shape):
    """Issue 34: NPA and NCA on a batch (enumerated pairings up to 5 x 5, 4 x 6, ...;
    linear_sum_assignment above) equal the per-table loop they replace, on tables with ties
    (counts 0-2), empty rows and columns, one-row or one-column tables and identical
    partitions. NPA's pairing totals are exact integers, so its values are equal; NCA's are
    sums of at most m = min(K, Q) recalls in [0, 1], summed in another order (and any of the
    tied optimal pairings taken), each order within (m - 1) eps m of the exact sum, and the
    map (R - 1/K) / (1 - 1/K) multiplies that by at most K / (K - 1) <= 2 over K: the bound
    below."""
    rng = np.random.default_rng(sum(shape))
    batch = rng.integers(0, 3, size=shape)
    batch[..., 0, 0] += 1  # no empty table
    batch.reshape((-1,) + shape[-2:])[:4] = 0
    flat = batch.reshape((-1,) + shape[-2:])
    flat[0, 0, 0] = 5  # one object class, one cluster
    flat[1, :, 0] = 2  # one cluster
    flat[2, 0, :] = 1  # one class
    k = min(shape[-2:])
    flat[3, np.arange(k), np.arange(k)] = 3  # identical partitions
    npa = evaluate("normalized_pivoted_accuracy", batch)
    np.testing.assert_array_equal(npa, _loop_with_rule(_npa_loop, batch))
    m, K = min(shape[-2:]), shape[-2]
    bound = 2 * (m - 1) * m * np.finfo(float).eps * 2 / K
    nca = evaluate("normalized_clustering_accuracy", batch)
    np.testing.assert_allclose(nca, _loop_with_rule(_nca_loop, batch), rtol=0, atol=bound)
    assert npa.shape == nca.shape == shape[:-2]


@pytest.mark.parametrize("name", ["normalized_pivoted_accuracy",
                                  "normalized_clustering_accuracy"])
def test_npa_and_nca_are_batched_like_the_other_matching_indices(name):
    """Issue 34: no per-table Python loop (``per_table``) behind them any more."""
    assert REGISTRY[name].vectorised and REGISTRY["accuracy"].vectorised
    assert "per_table" not in inspect.getsource(REGISTRY[name].func)


def test_npa_and_nca_batched_match_genieclust():
    """Batched values equal genieclust's, table by table (labels made from each table;
    genieclust >= 1.3 compares partitions with as many clusters only)."""
    gc = pytest.importorskip("genieclust.compare_partitions")
    rng = np.random.default_rng(34)
    for K, Q in [(2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (8, 8)]:
        batch = rng.integers(0, 4, size=(25, K, Q))
        batch[:, np.arange(min(K, Q)), np.arange(min(K, Q))] += 1  # no empty row or column
        batch[:, :, -1] += batch[:, :, -1] == 0
        batch[:, -1, :] += batch[:, -1, :] == 0
        npa = evaluate("npa", batch)
        nca = evaluate("nca", batch)
        for t, a, c in zip(batch, npa, nca):
            x = np.repeat(np.arange(K), t.sum(axis=1))
            y = np.concatenate([np.repeat(np.arange(Q), row) for row in t])
            assert a == pytest.approx(gc.normalized_pivoted_accuracy(x, y), abs=1e-12)
            assert c == pytest.approx(gc.normalized_clustering_accuracy(x, y), abs=1e-12)


def test_genieclust_doc_example():
    # genieclust's documented example (compare_partitions): C = [[1, 10], [8, 2]],
    # npa 0.71, nca 0.71 (rounded to 2 digits there)
    C = np.array([[1, 10], [8, 2]])
    assert round(val("npa", C), 2) == 0.71 and round(val("nca", C), 2) == 0.71


def test_nca_is_asymmetric_and_can_be_negative():
    t = np.array([[5, 0], [0, 5], [5, 5]])  # the third class has no cluster of its own
    assert val("nca", t) != pytest.approx(val("nca", t.T))
    assert val("nca", np.array([[2, 2], [2, 2], [2, 2]])) == 0  # K > Q: at least 0
    assert val("nca", np.ones((2, 4))) == pytest.approx(-0.5)  # recall 1/4 < 1/K


def test_mhm_is_inverse_purity_as_mclustcomp_computes_it():
    rng = np.random.default_rng(5)
    for _ in range(20):
        t = rng.integers(0, 7, size=(3, 4)) + (rng.random((3, 4)) < 0.2)
        t[:, 0] += 1
        # mclustcomp's "mhm": (1/n) sum over x's clusters of the largest overlap
        expected = sum(max(row) for row in t.tolist()) / t.sum()
        assert val("mhm", t) == pytest.approx(expected, abs=TOL)


# ---------------------------------------------------------------------------------------------
# pair measures by brute force over pairs of objects
# ---------------------------------------------------------------------------------------------

def _pair_counts(x, y):
    a11 = a10 = a01 = a00 = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        sx, sy = x[i] == x[j], y[i] == y[j]
        a11 += sx and sy
        a10 += sx and not sy
        a01 += sy and not sx
        a00 += not sx and not sy
    return a11, a10, a01, a00


@settings(max_examples=120, **SETTINGS)
@given(label_pairs(), st.sampled_from([0.0, 0.5, 1.0, 2.0]), st.sampled_from([0.0, 0.3, 1.0]))
def test_pair_measures_by_brute_force(xy, alpha, beta):
    x, y = xy
    a11, a10, a01, a00 = _pair_counts(x, y)
    same = a10 == 0 and a01 == 0
    assert ca.agreement(x, y, index="partition_difference") == a00
    m = min(a11 + a10, a11 + a01)
    overlap = 1.0 if same else (a11 / m if m else 0.0)
    assert ca.agreement(x, y, index="overlap") == pytest.approx(overlap, abs=TOL)
    den = a11 + alpha * a10 + beta * a01
    tv = 1.0 if same else (a11 / den if den else 0.0)
    assert ca.agreement(x, y, index="tversky", alpha=alpha, beta=beta) == pytest.approx(tv,
                                                                                     abs=TOL)
    # swapping x and y swaps alpha and beta
    assert ca.agreement(y, x, index="tversky", alpha=beta, beta=alpha) == pytest.approx(tv,
                                                                                     abs=TOL)


def test_tversky_special_cases_and_options():
    t = np.array([[30, 20], [10, 20]])
    assert val("tversky", t) == pytest.approx(val("jaccard", t))
    assert val("tversky", t, alpha=0.5, beta=0.5) == pytest.approx(val("czekanowski", t))
    with pytest.raises(ValueError, match="alpha must be >= 0"):
        val("tversky", t, alpha=-1)
    with pytest.raises(TypeError, match="beta must be"):
        val("tversky", t, beta="1")


@pytest.mark.parametrize("alias, name", [
    ("chisq", "chi_squared"), ("mmm", "maximum_match"), ("pd", "partition_difference"),
    ("mhm", "inverse_purity"), ("smc", "rand"), ("sdc", "czekanowski"), ("tanimoto", "jaccard"),
    ("adjrand", "adjusted_rand"), ("wallace1", "wallace_x"), ("wallace2", "wallace_y"),
    ("npa", "normalized_pivoted_accuracy"), ("nca", "normalized_clustering_accuracy")])
def test_peer_names_are_aliases(alias, name):
    assert ca.get_index(alias).name == name


@pytest.mark.parametrize("name", NEW)
def test_new_indices_have_null_laws(name):
    rng = np.random.default_rng(2)
    x = rng.integers(0, 3, 40)
    y = np.where(rng.random(40) < 0.7, x, rng.integers(0, 3, 40))
    method = "permutation" if name in ("maximum_match", "normalized_clustering_accuracy") \
        else "patefield"
    res = ca.agreement_test(x, y, index=name, method=method, n_sim=200, seed=1)
    assert 0 < res.pvalue <= 1
    assert res.pvalue < 0.05  # y copies 70% of x: far from chance by every index
    listed = ca.list_indices()
    assert listed.loc[name, "reference"]


# ---------------------------------------------------------------------------------------------
# item 7: the reflexive flag, checked on (x, x) for every index of every input kind
# ---------------------------------------------------------------------------------------------

def _clusterings(rng, n=12):
    """Random clusterings of every kind: hard labels (with one cluster and all singletons),
    fuzzy, possibilistic and non-exclusive hard memberships."""
    out = [rng.integers(0, k, n) for k in (1, 2, 3, 5)] + [np.arange(n)]
    out.append(rng.dirichlet(np.ones(3), n))
    out.append(rng.uniform(0.05, 1.0, (n, 3)))
    B = (rng.random((n, 3)) < 0.5).astype(float)
    B[B.sum(axis=1) == 0, 0] = 1
    return out + [B]


def _self_pairs(rec, rng):
    if isinstance(rec, PairIndex) and rec.inputs_y == ("partition",):  # a matrix against a partition: its own co-association
        labels = [rng.integers(0, k, 12) for k in (1, 2, 3)]
        return [(ca.coassociation(lab), lab) for lab in labels]
    pairs = [(c, c) for c in _clusterings(rng)]
    if "matrix" in rec.inputs:
        for k in (2, 3, 4):
            M = ca.coassociation(*[rng.integers(0, k, 12) for _ in range(3)])
            pairs.append((M, M))
    return pairs


@pytest.mark.parametrize("name", list(REGISTRY))
def test_reflexive_flag_matches_the_index_on_x_x(name):
    rec = REGISTRY[name]
    rng = np.random.default_rng(7)
    values = []
    for _ in range(3):
        for x, y in _self_pairs(rec, rng):
            try:
                values.append(float(ca.agreement(x, y, index=name)))
            except (ValueError, TypeError):  # a kind of clustering this index does not take
                continue
    assert values, name
    at_optimum = [math.isfinite(rec.optimum) and abs(v - rec.optimum) < 1e-9 for v in values]
    if rec.reflexive:
        assert all(at_optimum), (name, values)
    else:  # some clustering compared with itself does not reach the optimum
        assert not all(at_optimum), name


def test_registry_applies_the_identical_rule_only_with_default_options():
    same = np.diag([2, 3])
    assert val("kappa", same) == 1.0
    assert val("kappa", same, matching=[1, 0]) < 0  # matched the wrong way round
    assert val("cramers_v", np.diag([1, 1, 1])) == 1.0  # exactly, not up to rounding


# ---------------------------------------------------------------------------------------------
# item 7: the guide's catalogue tables are generated from the registry
# ---------------------------------------------------------------------------------------------

#: The user guide's pages that hold the catalogue tables: the hard partitions' indices, then
#: the indices of memberships, covers and matrices with the kinds each takes.
GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide"
CATALOGUE_PAGES = [GUIDE / "indices.md", GUIDE / "memberships.md"]


def _guide_tables():
    text = "\n".join(page.read_text(encoding="utf-8") for page in CATALOGUE_PAGES)
    return re.findall(r"^\| family \| indices \|\n(?:^\|.*\|\n?)+", text, flags=re.M)


def test_catalogue_lists_every_index_once():
    md = catalogue_markdown()
    for name in REGISTRY:
        assert len(re.findall(rf"(?<![\w`]){name}(?![\w=])", md)) == 1, name


def test_guide_catalogue_tables_are_the_generated_ones():
    """The guide's two catalogue tables (docs/guide/indices.md, docs/guide/memberships.md) are
    ``clusteragree.indices.catalogue.catalogue_markdown()`` (paste its output)."""
    generated = catalogue_markdown().split("\n\n")
    assert [t.strip() for t in _guide_tables()] == generated


def test_guide_kinds_table_is_the_generated_one():
    """The table of the kinds of clustering each index takes (docs/guide/memberships.md) is
    ``clusteragree.indices.catalogue.kinds_markdown()`` (paste its output)."""
    text = (GUIDE / "memberships.md").read_text(encoding="utf-8")
    assert kinds_markdown() + "\n" in text
    for name, rec in REGISTRY.items():  # every index of two clusterings is in one row
        rows = [line for line in kinds_markdown().splitlines()[2:]
                if name in line.split(" | ")[0].strip("| ").split(", ")]
        assert len(rows) == (1 if isinstance(rec, PairIndex) else 0), name
