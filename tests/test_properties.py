"""Property-based tests of the agreement indices.

Oracles: scikit-learn (pair counting and information indices, expected mutual information),
scipy.stats.hypergeom (cell laws, brute-force expected mutual information), pandas (crosstab)
and brute-force O(n^2) pair counting. Identities, symmetries, relabelling invariance, batch
evaluation and degenerate tables are checked for every index of the registry.

All hypothesis tests are derandomized, so the file gives the same verdict on every run.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, Phase, assume, example, given, settings
from hypothesis import strategies as st
from scipy.stats import hypergeom
from sklearn import metrics
from sklearn.metrics.cluster import contingency_matrix
from sklearn.metrics.cluster._expected_mutual_info_fast import expected_mutual_information

import clusteragree as ca
from clusteragree._moments.cells import cell_laws
from clusteragree.indices import GROUPS, REGISTRY, TableIndex, evaluate
from clusteragree.indices.information import expected_mutual_info

TOL = 1e-10  # absolute tolerance against scikit-learn
ID_TOL = 1e-12  # absolute tolerance of algebraic identities (same numbers, other formula)

SETTINGS = dict(deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])
# For tests with strict-xfail parameters (known package bugs): no shrinking, which would spend
# seconds minimising a failure that is already described in the xfail reason.
NO_SHRINK = dict(SETTINGS, phases=[Phase.explicit, Phase.generate])
AVERAGES = ("arithmetic", "geometric", "min", "max")
NMI_OF_AVERAGE = {"arithmetic": "nmi_sum", "geometric": "nmi_sqrt", "min": "nmi_min",
                  "max": "nmi_max"}

# Non-default options worth exercising, per index (the default options are always tested too).
OPTION_VARIANTS = {
    "adjusted_mutual_info": [{"average": a} for a in AVERAGES],
    "criterion_h": [{"pairing": "greedy"}, {"pairing": "optimal"}],
    "psi": [{"simplified": True}, {"clip": False}],
    "psi_distance": [{"simplified": True}],
    "f_measure": [{"reference": "y"}],
    "v_measure": [{"beta": 0.5}, {"beta": 2.0}],
    "mutual_info": [{"base": 2}],
    "variation_of_information": [{"base": 10}],
    "entropy_x": [{"base": 2}],
    "entropy_y": [{"base": 2}],
    "joint_entropy": [{"base": 2}],
    "maximum_match": [{"pairing": "optimal"}],
    "tversky": [{"alpha": 0.5, "beta": 2.0}, {"alpha": 0.0, "beta": 1.0}],
}


#: The indices of a contingency table (the registry also holds indices of fuzzy memberships
#: and of pair matrices, which take other inputs and are not tested here).
TABLE_INDICES = [name for name, rec in REGISTRY.items() if isinstance(rec, TableIndex)]


def _cases():
    """(name, options) for every table index with its defaults, then the option variants."""
    out = [(name, {}) for name in TABLE_INDICES]
    for name, variants in OPTION_VARIANTS.items():
        assert name in REGISTRY, name
        out += [(name, opts) for opts in variants]
    return out


CASES = _cases()
CASE_IDS = [name + "".join(f"-{k}={v}" for k, v in opts.items()) for name, opts in CASES]


def case_params(bugs=None, cases=None):
    """pytest params (name, opts) for every case; names in ``bugs`` get a strict xfail."""
    bugs = bugs or {}
    cases = CASES if cases is None else cases
    out = []
    for name, opts in cases:
        cid = name + "".join(f"-{k}={v}" for k, v in opts.items())
        marks = [pytest.mark.xfail(strict=True, reason=bugs[name])] if name in bugs else []
        out.append(pytest.param(name, opts, marks=marks, id=cid))
    return out


def declared_range(name, opts):
    """The registry's range; psi with clip=False keeps its negative values by design."""
    if name == "psi" and opts.get("clip") is False:
        return -math.inf, REGISTRY[name].range[1]
    return REGISTRY[name].range


def val(name, table, **opts) -> float:
    return float(evaluate(name, np.asarray(table), **opts))


def _needs_square(name, opts):
    return name == "kappa" and opts.get("matching") is None


def _pair_counting(name):
    return REGISTRY[name].min_n >= 2


# -- strategies ----------------------------------------------------------------------------

@st.composite
def labelling(draw, n, max_k):
    """Labels of n objects: random, all singletons, or a single cluster."""
    mode = draw(st.sampled_from(["random", "random", "random", "singletons", "single"]))
    if mode == "singletons":
        return np.array(draw(st.permutations(list(range(n)))))
    if mode == "single":
        return np.full(n, draw(st.integers(0, 9)))
    k = draw(st.integers(1, max_k))
    return np.array(draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n)))


@st.composite
def label_pairs(draw, min_n=2, max_n=60, max_k=6):
    n = draw(st.integers(min_n, max_n))
    return draw(labelling(n, max_k)), draw(labelling(n, max_k))


@st.composite
def tables(draw, min_n=1, max_k=5, max_count=8, square=False, distinct=False):
    """A K x Q table with no empty row or column (the table of two actual clusterings).

    Random cells plus a 'cover' of ones on a generalised diagonal, so that every row and
    column is used; all-zero cells give the all-singleton and one-vs-singletons tables.
    ``distinct=True``: all positive cells are different (no ties for greedy pairing).
    """
    K = draw(st.integers(1, max_k))
    Q = K if square else draw(st.integers(1, max_k))
    if distinct:
        vals = draw(st.lists(st.integers(1, 60), min_size=K * Q, max_size=K * Q, unique=True))
        keep = draw(st.lists(st.booleans(), min_size=K * Q, max_size=K * Q))
        t = np.array([v if k else 0 for v, k in zip(vals, keep)]).reshape(K, Q)
        for i in range(max(K, Q)):  # make each row and column non-empty without ties
            r, c = i % K, i % Q
            if t[r].sum() == 0 or t[:, c].sum() == 0:
                t[r, c] = vals[r * Q + c]
    else:
        cells = draw(st.lists(st.integers(0, max_count), min_size=K * Q, max_size=K * Q))
        t = np.array(cells, dtype=np.int64).reshape(K, Q)
        for i in range(max(K, Q)):
            t[i % K, i % Q] += 1
    assume(t.sum() >= min_n)
    return t


def random_table(rng, K, Q, max_count=6, min_n=2):
    """Seeded numpy version of ``tables`` (no empty row or column, n >= min_n)."""
    t = rng.integers(0, max_count + 1, size=(K, Q))
    t *= rng.random((K, Q)) < 0.6  # plenty of zeros
    for i in range(max(K, Q)):
        t[i % K, i % Q] += 1
    while t.sum() < min_n:
        t[0, 0] += 1
    return t


def all_singletons(labels):
    return len(np.unique(labels)) == len(labels)


def single_cluster(labels):
    return len(np.unique(labels)) == 1


# =========================================================================================
# 1. scikit-learn as the oracle
# =========================================================================================

@settings(max_examples=80, **SETTINGS)
@given(label_pairs())
def test_pair_counting_indices_match_sklearn(xy):
    x, y = xy
    assert abs(ca.agreement(x, y, index="adjusted_rand")
               - metrics.adjusted_rand_score(x, y)) < TOL
    assert abs(ca.agreement(x, y, index="rand") - metrics.rand_score(x, y)) < TOL
    fm = ca.agreement(x, y, index="fowlkes_mallows")
    if all_singletons(x) and all_singletons(y):
        # scikit-learn returns 0 whenever no pair is together in both (a11 = 0), even for two
        # identical all-singleton partitions; ours gives the optimum 1 there
        # (test_fowlkes_mallows_singleton_convention).
        assert fm == 1.0
    else:
        assert abs(fm - metrics.fowlkes_mallows_score(x, y)) < TOL


def test_fowlkes_mallows_singleton_convention():
    for n in range(2, 12):
        singles = np.arange(n)
        shuffled = np.random.default_rng(n).permutation(n)
        assert ca.agreement(singles, shuffled, index="fowlkes_mallows") == 1.0
        # exactly one clustering all singletons: no pair together in both, FM = 0
        other = np.arange(n) // 2
        if not all_singletons(other):
            assert ca.agreement(singles, other, index="fowlkes_mallows") == 0.0
            assert ca.agreement(other, singles, index="fowlkes_mallows") == 0.0
        assert ca.agreement(singles, np.zeros(n, int), index="fowlkes_mallows") == 0.0


@settings(max_examples=60, **SETTINGS)
@given(label_pairs())
def test_mutual_information_indices_match_sklearn(xy):
    x, y = xy
    assert abs(ca.agreement(x, y, index="mutual_info") - metrics.mutual_info_score(x, y)) < TOL
    for average, name in NMI_OF_AVERAGE.items():
        ours = ca.agreement(x, y, index=name)
        ref = metrics.normalized_mutual_info_score(x, y, average_method=average)
        assert abs(ours - ref) < TOL, (name, ours, ref)


def _ami_degenerate(x, y, average):
    """AMI is 0/0 (avg(H) = E[MI] = MI for every table with these margins): both clusterings
    all singletons (then they are identical), or, for the "min" average, one of them all
    singletons while the other is not a single cluster (MI = H(other) for every table).
    scikit-learn then divides rounding noise by eps; see the two dedicated tests below."""
    if all_singletons(x) and all_singletons(y):
        return True
    if average == "min":
        for a, b in ((x, y), (y, x)):
            if all_singletons(a) and not single_cluster(b):
                return True
    return False


@settings(max_examples=80, **SETTINGS)
@given(label_pairs(), st.sampled_from(AVERAGES))
def test_adjusted_mutual_info_matches_sklearn(xy, average):
    x, y = xy
    assume(not _ami_degenerate(x, y, average))
    ours = ca.agreement(x, y, index="adjusted_mutual_info", average=average)
    ref = metrics.adjusted_mutual_info_score(x, y, average_method=average)
    assert abs(ours - ref) < TOL, (ours, ref)


@pytest.mark.parametrize("average", AVERAGES)
def test_adjusted_mutual_info_identical_singletons_is_one(average):
    # Only one table (up to relabelling) has these margins: the identity. The registry gives
    # the optimum to identical partitions; scikit-learn returns eps-clamped rounding noise.
    for n in range(2, 30):
        x = np.arange(n)
        y = np.random.default_rng(n).permutation(n)
        assert ca.agreement(x, y, index="adjusted_mutual_info", average=average) == 1.0


def test_adjusted_mutual_info_min_singletons_vs_clusters_is_fallback():
    bad = []
    for n in range(3, 16):
        x = np.arange(n)
        for y in (np.arange(n) % 2, np.r_[np.zeros(n - 1, int), 1], np.arange(n) // 2,
                  np.arange(n) % 3):
            if single_cluster(y) or all_singletons(y):
                continue
            for a, b in ((x, y), (y, x)):
                v = ca.agreement(a, b, index="adjusted_mutual_info", average="min")
                if v != 0.0:
                    bad.append((n, a.tolist(), b.tolist(), v))
    assert not bad, bad[:3]


@settings(max_examples=100, **SETTINGS)
@given(label_pairs(), st.sampled_from([0.5, 1.0, 2.0]))
def test_homogeneity_completeness_v_measure_match_sklearn(xy, beta):
    x, y = xy
    h, c, v = metrics.homogeneity_completeness_v_measure(labels_true=x, labels_pred=y,
                                                         beta=beta)
    assert abs(ca.agreement(x, y, index="homogeneity") - h) < TOL
    assert abs(ca.agreement(x, y, index="completeness") - c) < TOL
    assert abs(ca.agreement(x, y, index="v_measure", beta=beta) - v) < TOL


# =========================================================================================
# 2. Identities on random tables
# =========================================================================================

@settings(max_examples=150, **SETTINGS)
@given(tables(min_n=2))
def test_pair_counting_identities(t):
    v = {name: val(name, t) for name in GROUPS["pair counting"]}
    n = t.sum()
    C, R = v["czekanowski"], v["rand"]
    assert abs(v["jaccard"] - C / (2 - C)) < ID_TOL
    assert abs(v["gower_legendre"] - 2 * R / (1 + R)) < ID_TOL
    assert abs(v["s_cohen"] - v["adjusted_rand"]) < ID_TOL
    assert abs(v["hamann"] - (2 * R - 1)) < ID_TOL
    assert abs(v["mirkin"] - (1 - R) * (n - 1) / n) < ID_TOL
    wx, wy = v["wallace_x"], v["wallace_y"]
    assert abs(v["fowlkes_mallows"] - math.sqrt(wx * wy)) < ID_TOL
    p = int((t.sum(axis=1) ** 2).sum() - n)  # 2 * pairs together in x
    q = int((t.sum(axis=0) ** 2).sum() - n)
    if p > 0 and q > 0:
        # With p = 0 or q = 0 a Wallace index is 0/0 (its fallback 0), and McConnaughey's and
        # Kulczynski's closed forms no longer reduce to the Wallace indices.
        assert abs(v["mcconnaughey"] - (wx + wy - 1)) < ID_TOL
        assert abs(v["kulczynski"] - (wx + wy) / 2) < ID_TOL


@settings(max_examples=150, **SETTINGS)
@given(tables())
def test_information_identities(t):
    assert abs((1 - val("nvi_sum", t)) - val("nmi_sum", t)) < ID_TOL
    hx, hy, hxy = val("entropy_x", t), val("entropy_y", t), val("joint_entropy", t)
    assert abs(val("variation_of_information", t) - (2 * hxy - hx - hy)) < ID_TOL
    if t.shape[0] > 1 and t.shape[1] > 1:  # non-degenerate: H(x) > 0 and H(y) > 0
        assert abs(val("v_measure", t, beta=1.0) - val("nmi_sum", t)) < ID_TOL
    for name in ("mutual_info", "variation_of_information", "entropy_x", "joint_entropy"):
        nat = val(name, t)
        assert math.isclose(val(name, t, base=2), nat / math.log(2), rel_tol=1e-12,
                            abs_tol=1e-15)
        assert math.isclose(val(name, t, base=math.e), nat, rel_tol=1e-12, abs_tol=1e-15)


@settings(max_examples=150, **SETTINGS)
@given(tables())
def test_set_matching_identities(t):
    assert abs(val("accuracy", t) - (1 - val("criterion_h", t, pairing="optimal"))) < ID_TOL
    assert abs(val("van_dongen_similarity", t) - (1 - val("van_dongen", t))) < ID_TOL
    for simplified in (False, True):
        psi = val("psi", t, simplified=simplified)
        assert abs(val("psi_distance", t, simplified=simplified) - (1 - psi)) < ID_TOL
        assert psi == max(val("psi", t, simplified=simplified, clip=False), 0.0)
    # greedy pairing can never beat the optimal one
    assert val("criterion_h", t) >= val("criterion_h", t, pairing="optimal") - ID_TOL


# =========================================================================================
# 3. Symmetry and relabelling invariance
# =========================================================================================

def _unique_optimal_matching(t) -> bool:
    """True when exactly one permutation of the columns maximises the trace (square t)."""
    K = t.shape[0]
    traces = [sum(t[i, p[i]] for i in range(K)) for p in itertools.permutations(range(K))]
    return traces.count(max(traces)) == 1


def _ties_matter(name, opts, t) -> bool:
    """Inputs on which an index legitimately depends on the order of rows and columns.

    Greedy criterion H takes the largest remaining cell and breaks ties by position, and
    different tie-breaks can give different totals (e.g. [[2, 2], [2, 0]]: 2, with the rows
    swapped 4); restrict it to tables whose positive cells are all different. Kappa's value
    depends on which of several optimal matchings is used (test_kappa_ties_*, a bug), so the
    general invariance checks use tables with a single optimal matching."""
    if _greedy(name, opts):  # criterion H and the maximum-match measure (1 - H)
        pos = t[t > 0]
        return len(np.unique(pos)) != len(pos)
    if name == "kappa":
        return not _unique_optimal_matching(t)
    return False


def _greedy(name, opts):
    return (name in ("criterion_h", "maximum_match")
            and opts.get("pairing", "greedy") == "greedy")


def _table_for(name, opts, min_n=None):
    """Tables an index can take: square for kappa, n >= 2 for pair counting, and for greedy
    criterion H distinct positive cells (see _ties_matter)."""
    if min_n is None:
        min_n = max(REGISTRY[name].min_n, 2 if _pair_counting(name) else 1)
    return tables(square=_needs_square(name, opts), distinct=_greedy(name, opts), min_n=min_n)


def _ok_for(name, opts, t) -> bool:
    if _pair_counting(name) and t.sum() < 2:
        return False
    if _needs_square(name, opts) and t.shape[0] != t.shape[1]:
        return False
    return True


@settings(max_examples=150, **SETTINGS)
@given(tables(), st.sampled_from([0.25, 0.5, 1.0, 3.0]))
def test_asymmetric_indices_swap_under_transposition(t, beta):
    T = t.T
    assert abs(val("purity", T) - val("inverse_purity", t)) < ID_TOL
    assert abs(val("inverse_purity", T) - val("purity", t)) < ID_TOL
    assert abs(val("homogeneity", T) - val("completeness", t)) < ID_TOL
    assert abs(val("entropy_x", T) - val("entropy_y", t)) < ID_TOL
    assert abs(val("f_measure", T) - val("f_measure", t, reference="y")) < ID_TOL
    # V_beta = (1 + beta) h c / (beta h + c): swapping h and c gives V_(1/beta)
    assert abs(val("v_measure", T, beta=beta) - val("v_measure", t, beta=1 / beta)) < ID_TOL
    # NCA (x the reference) has no transposition identity: tests/indices/test_association.py checks
    # both orientations against genieclust and brute force
    if t.sum() >= 2:
        assert abs(val("wallace_x", T) - val("wallace_y", t)) < ID_TOL
        # Tversky: swapping x and y swaps alpha and beta
        assert abs(val("tversky", T, alpha=beta, beta=1.0) - val("tversky", t, alpha=1.0,
                                                                 beta=beta)) < ID_TOL
        # Peirce takes y as the pair reference: PE(t) PE(t^T) = phi^2 (Hubert's Gamma)
        n = t.sum()
        T2 = n * (n - 1) // 2
        p = ((t.sum(axis=1) ** 2).sum() - n) // 2
        q = ((t.sum(axis=0) ** 2).sum() - n) // 2
        if 0 < p < T2 and 0 < q < T2:
            prod = val("peirce", t) * val("peirce", T)
            assert abs(prod - val("hubert_gamma", t) ** 2) < ID_TOL


def test_every_asymmetric_table_index_has_a_transposition_check():
    asymmetric = {n for n in TABLE_INDICES if not REGISTRY[n].symmetric}
    checked = {"purity", "inverse_purity", "homogeneity", "completeness", "entropy_x",
               "entropy_y", "f_measure", "v_measure", "wallace_x", "wallace_y", "peirce",
               "tversky", "normalized_clustering_accuracy"}
    assert asymmetric <= checked, f"add a transposition check for {asymmetric - checked}"
    assert checked <= set(TABLE_INDICES)


@pytest.mark.parametrize("name,opts", case_params())
@settings(max_examples=12, **SETTINGS)
@given(data=st.data())
def test_symmetry_and_relabelling_invariance(name, opts, data):
    """Every index: permuting the rows and the columns (relabelling the clusters) changes
    nothing. Indices declared symmetric: transposing (swapping x and y) changes nothing."""
    t = data.draw(_table_for(name, opts))
    assume(_ok_for(name, opts, t) and not _ties_matter(name, opts, t))
    v = val(name, t, **opts)
    if REGISTRY[name].symmetric:
        assert abs(val(name, t.T, **opts) - v) < ID_TOL
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    perms = [(rng.permutation(t.shape[0]), rng.permutation(t.shape[1])) for _ in range(2)]
    perms.append((np.arange(t.shape[0])[::-1], np.arange(t.shape[1])[::-1]))
    for rows, cols in perms:
        assert abs(val(name, t[rows][:, cols], **opts) - v) < ID_TOL, (rows, cols)


# tables with two or more column matchings of largest trace
KAPPA_TIED = [np.array([[0, 1], [1, 2]]), np.array([[1, 2], [3, 4]]),
              np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1]])]


def test_kappa_ties_relabelling_invariance():
    for t in KAPPA_TIED:
        K = t.shape[0]
        values = {round(val("kappa", t[list(p)]), 12) for p in itertools.permutations(range(K))}
        values |= {round(val("kappa", t[:, list(p)]), 12)
                   for p in itertools.permutations(range(K))}
        values.add(round(val("kappa", t.T), 12))
        assert len(values) == 1, (t.tolist(), values)


# =========================================================================================
# 4. Batches, ranges and degenerate tables
# =========================================================================================

BATCH_CASES = CASES + [("kappa", {"matching": [0, 1, 1]})]
BATCH_IDS = CASE_IDS + ["kappa-matching=[0, 1, 1]"]


@pytest.mark.parametrize("name,opts", BATCH_CASES, ids=BATCH_IDS)
def test_batch_equals_table_by_table(name, opts):
    rng = np.random.default_rng(12345)
    if name == "kappa" and opts.get("matching") is not None:
        shapes = [(2, 3)]
    elif _needs_square(name, opts):
        shapes = [(1, 1), (2, 2), (3, 3), (4, 4)]
    else:
        shapes = [(1, 1), (1, 3), (3, 1), (2, 2), (3, 4), (5, 2)]
    for K, Q in shapes:
        B = 7
        batch = np.stack([random_table(rng, K, Q, min_n=max(2, REGISTRY[name].min_n))
                          for _ in range(B)])
        # tables in a batch repeat margins (E[MI] is cached by margins): add a relabelled copy
        batch[-1] = batch[0][::-1, ::-1] if not _needs_square(name, opts) else batch[0]
        one_by_one = np.array([val(name, t, **opts) for t in batch])
        got = evaluate(name, batch, **opts)
        assert got.shape == (B,)
        np.testing.assert_allclose(got, one_by_one, rtol=0, atol=ID_TOL)
        got = ca.agreement(batch, index=name, **opts)
        assert isinstance(got, np.ndarray) and got.shape == (B,)
        np.testing.assert_allclose(got, one_by_one, rtol=0, atol=ID_TOL)
        nested = np.stack([batch[:3], batch[3:6]])  # batch shape (2, 3)
        got = evaluate(name, nested, **opts)
        assert got.shape == (2, 3)
        np.testing.assert_allclose(got.ravel(), one_by_one[:6], rtol=0, atol=ID_TOL)


def test_agreement_series_equals_single_values():
    rng = np.random.default_rng(7)
    for _ in range(5):
        t = random_table(rng, 3, 3)
        s = ca.agreement(t, index=TABLE_INDICES)
        assert isinstance(s, pd.Series) and list(s.index) == TABLE_INDICES
        for name in TABLE_INDICES:
            assert s[name] == pytest.approx(val(name, t), abs=ID_TOL)
        tab = ca.ContingencyTable(t)
        assert ca.agreement(tab, index="rand") == s["rand"]


ONE_VS_SINGLETONS_5 = np.ones((1, 5), dtype=np.int64)


@pytest.mark.parametrize("name,opts", case_params())
@settings(max_examples=10, **NO_SHRINK)
@example(t=np.array([[6]]))
@example(t=ONE_VS_SINGLETONS_5)
@example(t=ONE_VS_SINGLETONS_5.T)
@example(t=np.eye(5, dtype=np.int64))
@given(t=tables())
def test_values_lie_in_registered_range(name, opts, t):
    assume(_ok_for(name, opts, t))
    lo, hi = declared_range(name, opts)
    v = val(name, t, **opts)
    assert not math.isnan(v)
    assert lo <= v <= hi, v


def _degenerate_tables():
    out = [("1x1 n=1", np.array([[1]])), ("1x1 n=5", np.array([[5]])),
           ("1x1 n=6", np.array([[6]])),
           ("n=2 together", np.array([[2]])), ("n=2 x together", np.array([[1, 1]])),
           ("n=2 y together", np.array([[1], [1]])), ("n=2 apart", np.eye(2, dtype=int))]
    for n in (3, 4, 5, 7):
        out += [(f"singletons n={n}", np.eye(n, dtype=int)),
                (f"one cluster vs singletons n={n}", np.ones((1, n), dtype=int)),
                (f"singletons vs one cluster n={n}", np.ones((n, 1), dtype=int))]
    return out


DEGENERATE = _degenerate_tables()


@pytest.mark.parametrize("name,opts", case_params())
def test_degenerate_tables_give_no_nan(name, opts):
    rec = REGISTRY[name]
    for label, t in DEGENERATE:
        n = int(t.sum())
        identical = bool(((t > 0).sum(axis=0) <= 1).all() and ((t > 0).sum(axis=1) <= 1).all())
        if n < rec.min_n:
            with pytest.raises(ValueError):
                evaluate(name, t, **opts)
            continue
        if _needs_square(name, opts) and t.shape[0] != t.shape[1]:
            with pytest.raises(ValueError):  # kappa needs a square table without matching=
                evaluate(name, t, **opts)
            continue
        v = val(name, t, **opts)
        assert not math.isnan(v), label
        lo, hi = declared_range(name, opts)
        assert lo <= v <= hi, (label, v)
        # identical partitions reach the optimum (Russel-Rao's maximum is p/T, not 1; mutual
        # information and the entropies have no finite optimum)
        if identical and math.isfinite(rec.optimum) and name != "russel_rao":
            assert v == pytest.approx(rec.optimum, abs=ID_TOL), (label, v)


@pytest.mark.parametrize("name", list(GROUPS["pair counting"]))
def test_pair_counting_needs_two_objects(name):
    for t in ([[1]], [[0, 1], [0, 0]], np.stack([np.array([[2]]), np.array([[1]])])):
        with pytest.raises(ValueError):
            evaluate(name, np.asarray(t))
    with pytest.raises(ValueError):
        ca.agreement([0], [1], index=name)




@pytest.mark.parametrize("name,opts", case_params())
@settings(max_examples=8, **NO_SHRINK)
@given(data=st.data())
def test_empty_clusters_change_nothing(name, opts, data):
    t = data.draw(_table_for(name, opts))
    assume(not _ties_matter(name, opts, t))
    K, Q = t.shape
    i = data.draw(st.integers(0, K))
    j = data.draw(st.integers(0, Q))
    padded = np.insert(np.insert(t, i, 0, axis=0), j, 0, axis=1)
    assert abs(val(name, padded, **opts) - val(name, t, **opts)) < ID_TOL


# =========================================================================================
# 5. Exactness: pair counts, crosstab, expected mutual information, cell laws
# =========================================================================================

def _brute_pairs(x, y):
    a11 = a10 = a01 = a00 = 0
    for i in range(len(x)):
        for j in range(i + 1, len(x)):
            sx, sy = x[i] == x[j], y[i] == y[j]
            a11 += sx and sy
            a10 += sx and not sy
            a01 += sy and not sx
            a00 += not sx and not sy
    return a11, a10, a01, a00


@settings(max_examples=100, **SETTINGS)
@given(label_pairs(min_n=1, max_n=60))
def test_pairs_equal_brute_force(xy):
    x, y = xy
    brute = _brute_pairs(x.tolist(), y.tolist())
    tab = ca.crosstab(x, y)
    assert tuple(tab.pairs) == brute
    assert tuple(ca.ContingencyTable(tab.counts).pairs) == brute
    assert all(type(v) is int for v in tab.pairs)
    assert tab.pairs.total == len(x) * (len(x) - 1) // 2
    assert tab.n == len(x)
    np.testing.assert_array_equal(tab.row_sums, tab.counts.sum(axis=1))
    np.testing.assert_array_equal(tab.col_sums, tab.counts.sum(axis=0))


def test_pairs_exact_for_large_counts():
    # The definitions (thesis App. B eqs 6-9) in exact Python integers. float64 would lose the
    # last units (C(5e9, 2) ~ 1.25e19 > 2**53) and int64 sums of squares would overflow.
    t = np.array([[5_000_000_001, 7], [5, 4_999_999_999]])
    n = int(t.sum())
    ch = lambda v: v * (v - 1) // 2  # noqa: E731
    a11 = sum(ch(int(v)) for v in t.ravel())
    rows = sum(ch(int(v)) for v in t.sum(axis=1))
    cols = sum(ch(int(v)) for v in t.sum(axis=0))
    assert tuple(ca.ContingencyTable(t).pairs) == (
        a11, rows - a11, cols - a11, ch(n) - rows - cols + a11)


def _check_against_pandas(x, y):
    tab = ca.crosstab(x, y)
    ref = pd.crosstab(pd.Series(x), pd.Series(y))
    np.testing.assert_array_equal(tab.counts, ref.to_numpy())
    assert list(tab.row_labels) == list(ref.index)
    assert list(tab.col_labels) == list(ref.columns)


@settings(max_examples=40, **SETTINGS)
@given(st.integers(1, 80).flatmap(lambda n: st.tuples(
    st.lists(st.sampled_from(["a", "b", "cc", "d", "zz", "B", "é"]), min_size=n, max_size=n),
    st.lists(st.integers(-3, 5), min_size=n, max_size=n))))
def test_crosstab_equals_pandas_small_labels(xy):
    x, y = xy
    _check_against_pandas(x, y)
    _check_against_pandas(y, x)
    _check_against_pandas(np.array(x), np.array(y))


@settings(max_examples=40, **SETTINGS)
@given(st.integers(1, 60).flatmap(lambda n: st.tuples(
    st.lists(st.integers(-10**12, 10**12), min_size=n, max_size=n),   # sparse: factorize
    st.lists(st.integers(0, 3), min_size=n, max_size=n).map(lambda v: [f"L{i}" for i in v]))))
def test_crosstab_equals_pandas_sparse_integer_labels(xy):
    x, y = xy
    _check_against_pandas(np.array(x, dtype=np.int64), y)
    _check_against_pandas(y, np.array(x, dtype=np.int64))


def test_crosstab_many_clusters_path():
    # K * Q > 2**24 cells: the package counts distinct pairs instead of a dense grid
    rng = np.random.default_rng(3)
    n = 6000
    x = rng.permutation(n) * 3 + 1
    y = np.array([f"s{v}" for v in rng.integers(0, 5000, n)])
    x[:50] = x[0]  # a few repeated labels in x too
    tab = ca.crosstab(x, y, sparse=False)  # the dense table of the occupied rows and columns
    assert (ca.crosstab(x, y).cells.toarray() == tab.counts).all()  # the sparse one (auto)
    expected = Counter(zip(x.tolist(), y.tolist()))
    got = {}
    for r, c in zip(*np.nonzero(tab.counts)):
        got[(int(tab.row_labels[r]), str(tab.col_labels[c]))] = int(tab.counts[r, c])
    assert got == dict(expected)
    assert list(tab.row_labels) == sorted(set(x.tolist()))
    assert list(tab.col_labels) == sorted(set(y.tolist()))
    assert (tab.counts.sum(axis=1) > 0).all() and (tab.counts.sum(axis=0) > 0).all()


def _brute_emi(a, b):
    """E[MI] as the full-support sum over every admissible n_ij, with scipy's pmf."""
    n = int(sum(a))
    terms = []
    for ai in a:
        for bj in b:
            ks = np.arange(max(1, ai + bj - n), min(ai, bj) + 1)
            pmf = hypergeom.pmf(ks, n, ai, bj)
            terms += [p * k / n * math.log(n * k / (ai * bj)) for k, p in zip(ks, pmf)]
    return math.fsum(terms)


@settings(max_examples=60, **SETTINGS)
@given(label_pairs(min_n=1, max_n=60))
def test_expected_mutual_info_matches_sklearn_and_brute_force(xy):
    x, y = xy
    c = contingency_matrix(x, y)
    n = len(x)
    ours = expected_mutual_info(c.sum(axis=1), c.sum(axis=0))
    # rel 1e-12; the absolute floor covers margins with E[MI] = 0 exactly (a single cluster),
    # where sklearn's log-gamma sums leave ~1e-16 of rounding noise
    assert math.isclose(ours, expected_mutual_information(c, n), rel_tol=1e-12, abs_tol=1e-15)
    assert math.isclose(ours, _brute_emi(c.sum(axis=1), c.sum(axis=0)), rel_tol=1e-12,
                        abs_tol=1e-15)


@settings(max_examples=40, **SETTINGS)
@given(st.lists(st.integers(1, 120), min_size=1, max_size=6), st.data())
def test_expected_mutual_info_larger_margins_brute_force(rows, data):
    # larger n (up to ~700): the windowed sum must still equal the full-support sum;
    # the margins are split from the same n, column sizes may repeat
    n = sum(rows)
    k = data.draw(st.integers(1, min(6, n)))
    cuts = sorted(data.draw(st.lists(st.integers(1, n - 1), min_size=k - 1, max_size=k - 1,
                                     unique=True))) if n > 1 else []
    cols = np.diff([0, *cuts, n])
    ours = expected_mutual_info(rows, cols)
    assert math.isclose(ours, _brute_emi(rows, cols.tolist()), rel_tol=1e-12, abs_tol=1e-15)
    # relabelling and zero margins change nothing
    assert math.isclose(expected_mutual_info(cols[::-1], [0, *rows[::-1]]), ours,
                        rel_tol=1e-12, abs_tol=1e-15)


@settings(max_examples=100, **SETTINGS)
@given(st.integers(1, 1000).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(st.integers(0, n), st.integers(0, n)), min_size=1, max_size=5))))
def test_cell_laws_pmf_equals_scipy(args):
    n, ab = args
    a = np.array([v[0] for v in ab])
    b = np.array([v[1] for v in ab])
    cell, k, pmf = cell_laws(a, b, n)
    for c in range(len(a)):
        kc, pc = k[cell == c], pmf[cell == c]
        assert len(kc) > 0
        np.testing.assert_array_equal(kc, np.arange(kc[0], kc[-1] + 1))  # contiguous window
        assert kc[0] >= max(0, a[c] + b[c] - n) and kc[-1] <= min(a[c], b[c])  # in support
        ref = hypergeom.pmf(kc, n, a[c], b[c])
        # rel 1e-12 holds for n <= 1000; for larger n scipy's own pmf drifts (checked with
        # mpmath: at n ~ 1e6 scipy is off by ~2e-10 where cell_laws is within ~1e-12).
        # Probabilities below 1e-290 are at the end of the double range (they underflow to
        # 0 or to subnormals, with no relative accuracy left): there both must just be tiny.
        big = ref > 1e-290
        np.testing.assert_allclose(pc[big], ref[big], rtol=1e-12, atol=0)
        assert np.all(pc[~big] <= 1e-280)
        assert math.isclose(math.fsum(pc), 1.0, rel_tol=1e-13)


@settings(max_examples=150, **SETTINGS)
@given(st.integers(1, 10**6).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(0, n), st.integers(0, n))))
def test_cell_laws_window_holds_all_but_1e_15(args):
    n, a, b = args
    cell, k, pmf = cell_laws(np.array([a]), np.array([b]), n)
    lo, hi = int(k[0]), int(k[-1])
    assert max(0, a + b - n) <= lo <= hi <= min(a, b)
    outside = hypergeom.cdf(lo - 1, n, a, b) + hypergeom.sf(hi, n, a, b)
    assert outside <= 1e-15, (lo, hi, outside)
    assert math.isclose(math.fsum(pmf), 1.0, rel_tol=1e-13)


def _brute_emi_longdouble(a, b):
    """Full-support E[MI] in extended precision: every admissible n_ij of every cell (no
    window, no grouping of equal margins), each law from the exact ratio of neighbouring
    probabilities accumulated in np.longdouble and normalised over the whole support."""
    n = int(sum(a))
    N = np.longdouble(n)
    total = np.longdouble(0)
    for ai in a:
        for bj in b:
            k = np.arange(max(0, ai + bj - n), min(ai, bj) + 1).astype(np.longdouble)
            A, B = np.longdouble(ai), np.longdouble(bj)
            km = k[:-1]
            step = np.log((A - km) * (B - km)) - np.log((km + 1) * (N - A - B + km + 1))
            logp = np.concatenate([[np.longdouble(0)], np.cumsum(step)])
            w = np.exp(logp - logp.max())
            p = w / w.sum()
            pos = k > 0
            total += np.sum(p[pos] * k[pos] / N * np.log(N * k[pos] / (A * B)))
    return float(total)


def test_expected_mutual_info_windowed_at_large_n():
    # Large margins (n ~ 1e5): here the package sums only a window of each cell's support.
    # Oracle: the full-support sum in extended precision. scipy.stats.hypergeom is not used
    # at this n: its pmf is off by ~1e-11..1e-10 and takes over a minute for some margins.
    # rel 1e-10: E[MI] ~ (K-1)(Q-1)/(2n) is a small sum of terms of both signs, each
    # log(n k / (a b)) of a ratio near 1, so double precision itself leaves ~1e-12 relative.
    rng = np.random.default_rng(2024)
    for _ in range(4):
        n = int(rng.integers(30_000, 200_000))
        K, Q = (int(v) for v in rng.integers(2, 5, size=2))
        a = np.diff(np.r_[0, np.sort(rng.choice(np.arange(1, n), K - 1, replace=False)), n])
        h = int(rng.integers(1, n // (Q + 1)))  # two equal column sizes h: exercises the
        rest = n - 2 * h                          # grouping of equal margins
        b = np.diff(np.r_[0, np.sort(rng.choice(np.arange(1, rest), Q - 2, replace=False)), rest])
        b = np.r_[h, h, b]
        ours = expected_mutual_info(a, b)
        assert math.isclose(ours, _brute_emi_longdouble(a.tolist(), b.tolist()), rel_tol=1e-10)


@pytest.mark.parametrize("table, expected", [
    (np.ones((1, 5), dtype=int), {"nmi_min": 0.0, "fowlkes_mallows": 0.0, "homogeneity": 1.0,
                                  "completeness": 0.0, "adjusted_rand": 0.0}),
    (np.ones((5, 1), dtype=int), {"nmi_min": 0.0, "fowlkes_mallows": 0.0, "homogeneity": 0.0,
                                  "completeness": 1.0, "adjusted_rand": 0.0}),
])
def test_vanishing_denominators_follow_the_registry_rule(table, expected):
    # x a single cluster against y all singletons (and the transpose): 0/0 ratios give 0, except
    # homogeneity and completeness, which are 1 when their entropy vanishes
    for name, value in expected.items():
        assert evaluate(name, table) == value, name


@given(st.integers(1, 5), st.integers(1, 5), st.integers(2, 300), st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None)
def test_expected_mi_of_a_batch_is_that_of_each_table(K, Q, n, seed):
    """The batched E[MI] (a bootstrap's resampled tables: varying margins, empty clusters,
    different totals) equals scikit-learn's E[MI] of each table."""
    from clusteragree._moments.cells import expected_mutual_information_batch

    rng = np.random.default_rng(seed)
    sizes = rng.integers(max(2, n // 2), n + 1, size=12)  # tables of different totals
    tables = np.stack([rng.multinomial(int(m), rng.dirichlet(np.ones(K * Q))).reshape(K, Q)
                       for m in sizes])
    rows, cols = tables.sum(axis=2), tables.sum(axis=1)
    batch = expected_mutual_information_batch(rows, cols)
    for table, value in zip(tables, batch):
        table = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]
        ref = expected_mutual_information(table, int(table.sum()))  # scikit-learn's
        assert value == pytest.approx(ref, rel=1e-9, abs=1e-12)
        assert value == pytest.approx(expected_mutual_info(table.sum(axis=1), table.sum(axis=0)),
                                      rel=1e-9, abs=1e-13)
