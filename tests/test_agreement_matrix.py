"""``ca.agreement_matrix``: the matrix against pairwise calls and independent formulas, the
tests of the pairs with their seed rule and multiplicity adjustment, the reference rows, the
MDS embedding and the plots (issue 31, item 2)."""

from __future__ import annotations

import itertools

import matplotlib
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import linear_sum_assignment
from scipy.spatial.distance import pdist, squareform
from sklearn import metrics
from statsmodels.stats.multitest import multipletests

import clusteragree as ca
from clusteragree.inference.matrix import MULTIPLE_METHODS, AgreementMatrix

matplotlib.use("Agg")

#: Each matrix entry and the value it is compared with evaluate the same formula on the same
#: table (or an algebraically equal one); their floating sums differ by rounding only, a few
#: ulps of the terms (at most K * Q terms of magnitude <= 1 here, K, Q <= 6).
RTOL = 1e-12


def _clusterings(n=120, seed=0):
    """Five clusterings of n objects: string, int and categorical labels, two related."""
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 3, n)
    noisy = np.where(rng.random(n) < 0.75, truth, rng.integers(0, 4, n))
    return pd.DataFrame({
        "truth": truth,
        "noisy": np.array(["a", "b", "c", "d"])[noisy],
        "finer": truth * 2 + rng.integers(0, 2, n),
        "random": rng.integers(0, 5, n),
        "cat": pd.Categorical(np.where(rng.random(n) < 0.5, truth, 9)),
    })


# -- the matrix --------------------------------------------------------------------------------

@pytest.mark.parametrize("index", ["adjusted_rand", "rand", "jaccard", "nmi_sqrt",
                                   "variation_of_information", "purity", "f_measure",
                                   "accuracy", "adjusted_mutual_info"])
def test_matrix_equals_the_pairwise_agreement_calls(index):
    df = _clusterings()
    m = ca.agreement_matrix(df, index=index)
    assert list(m.statistic.index) == list(m.statistic.columns) == list(df.columns)
    for a, b in itertools.product(df.columns, repeat=2):
        expected = ca.agreement(df[a], df[b], index=index)
        np.testing.assert_allclose(m.statistic.loc[a, b], expected, rtol=RTOL, atol=1e-15,
                                   err_msg=f"{index}({a}, {b})")
    if index in ("purity", "f_measure"):  # asymmetric: (i, j) = index(i, j), not its mirror
        assert not np.allclose(m.statistic, m.statistic.T)


def _entropy(labels):
    p = np.unique(labels, return_counts=True)[1] / len(labels)
    return -np.sum(p * np.log(p))


def _jaccard(x, y):
    """Pairs together in both / pairs together in at least one (brute force over pairs)."""
    i, j = np.triu_indices(len(x), 1)
    same_x, same_y = x[i] == x[j], y[i] == y[j]
    return np.sum(same_x & same_y) / np.sum(same_x | same_y)


def _vi(x, y):
    joint = _entropy(pd.factorize(pd.Series(x).astype(str) + "|" + pd.Series(y).astype(str))[0])
    return 2 * joint - _entropy(x) - _entropy(y)


def _accuracy(x, y):
    """clue's "diag": the best one-to-one matching's share of objects."""
    table = pd.crosstab(x, y).to_numpy()
    rows, cols = linear_sum_assignment(-table)
    return table[rows, cols].sum() / len(x)


INDEPENDENT = {  # clue's cl_agreement / cl_dissimilarity methods and an independent value
    "rand": metrics.rand_score,                              # "Rand"
    "adjusted_rand": metrics.adjusted_rand_score,            # "cRand"
    "fowlkes_mallows": metrics.fowlkes_mallows_score,        # "FM"
    "nmi_sqrt": lambda x, y: metrics.normalized_mutual_info_score(  # "NMI"
        x, y, average_method="geometric"),
    "jaccard": _jaccard,                                     # "jaccard"
    "variation_of_information": _vi,                         # "VI" (cl_dissimilarity)
    "accuracy": _accuracy,                                   # "diag"
}


@pytest.mark.parametrize("index", sorted(INDEPENDENT))
def test_matrix_equals_independent_computations(index):
    df = _clusterings(n=90, seed=3)
    m = ca.agreement_matrix(df, index=index)
    labels = {c: pd.factorize(df[c])[0] for c in df.columns}
    expected = np.array([[INDEPENDENT[index](labels[a], labels[b]) for b in df.columns]
                         for a in df.columns])
    np.testing.assert_allclose(m.statistic.to_numpy(), expected, rtol=RTOL, atol=1e-14)


def test_purity_orientation_is_x_rows():
    """purity(x, y) = (1/n) sum over y's clusters of their largest x class (the registry's)."""
    x, y = np.array([0, 0, 0, 1, 1, 1]), np.array([0, 0, 0, 0, 0, 1])
    m = ca.agreement_matrix({"x": x, "y": y}, index="purity")
    assert m.statistic.loc["x", "y"] == pytest.approx((3 + 1) / 6)
    assert m.statistic.loc["y", "x"] == pytest.approx((3 + 2) / 6)


def test_dataframe_dict_and_list_give_the_same_matrix():
    df = _clusterings()
    from_frame = ca.agreement_matrix(df).statistic
    from_dict = ca.agreement_matrix({c: df[c].to_numpy() for c in df.columns}).statistic
    from_list = ca.agreement_matrix([df[c].tolist() for c in df.columns]).statistic
    pd.testing.assert_frame_equal(from_frame, from_dict)
    assert list(from_list.index) == ["1", "2", "3", "4", "5"]
    np.testing.assert_array_equal(from_list.to_numpy(), from_frame.to_numpy())


def test_refusals_name_the_argument():
    df = _clusterings()
    with pytest.raises(ValueError, match="at least two clusterings"):
        ca.agreement_matrix(df[["truth"]])
    with pytest.raises(ValueError, match=r"clusterings\['short'\] has 3 labels"):
        ca.agreement_matrix({"a": [0, 1, 0, 1], "short": [0, 1, 1]})
    with pytest.raises(ValueError, match=r"clusterings\['b'\] contains missing labels"):
        ca.agreement_matrix({"a": [0, 1, 0, 1], "b": [0, None, 1, 1]})
    with pytest.raises(TypeError, match=r"clusterings\['U'\] is a matrix"):
        ca.agreement_matrix({"a": [0, 1, 0], "U": np.eye(3)})
    with pytest.raises(TypeError, match="clusterings must be a pandas DataFrame"):
        ca.agreement_matrix(np.zeros((4, 3)))
    with pytest.raises(ValueError, match="labels other objects"):
        ca.agreement_matrix({"a": pd.Series([0, 1], index=[0, 1]),
                             "b": pd.Series([0, 1], index=[5, 6])})
    with pytest.raises(TypeError, match="index 'agri' compares memberships"):
        ca.agreement_matrix(df, index="agri")
    with pytest.raises(ValueError, match="reference='class' is not a clustering's name"):
        ca.agreement_matrix(df, reference="class")
    with pytest.raises(ValueError, match=r"clusterings\['truth'\] \(x\) and "
                                         r"clusterings\['noisy'\] \(y\): kappa needs"):
        ca.agreement_matrix(df, index="kappa")
    with pytest.raises(TypeError, match="unknown option 'bse'"):
        ca.agreement_matrix(df, index="vi", bse=2)


def test_bad_multiple_is_refused_before_any_work():
    # clusterings that would be refused once read: the multiple error comes first
    unread = {"a": [0, 1, 0, 1], "b": [0, 1, None]}
    with pytest.raises(ValueError, match=r"multiple must be None .* one of \['holm', "):
        ca.agreement_matrix(unread, test=True, multiple="holmes")
    with pytest.raises(ValueError, match="lfdr"):  # multipletests' lfdr gives no p-values
        ca.agreement_matrix(unread, test=True, multiple="lfdr")
    with pytest.raises(TypeError, match="test must be True or False"):
        ca.agreement_matrix(unread, test="yes")
    with pytest.raises(ValueError, match="alternative must be one of"):
        ca.agreement_matrix(unread, test=True, alternative="bigger")
    with pytest.raises(ValueError, match="n_sim=99: settings of the tests .* pass test=True"):
        ca.agreement_matrix(unread, n_sim=99)


# -- the tests of the pairs ------------------------------------------------------------------

def test_pvalues_follow_the_seed_rule_and_the_adjustment():
    df = _clusterings()
    m = ca.agreement_matrix(df, test=True, method="patefield", n_sim=199, seed=7)
    names = list(df.columns)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    children = np.random.SeedSequence(7).spawn(len(pairs))
    pvalues = []
    for (a, b), child in zip(pairs, children):
        res = ca.agreement_test(df[a], df[b], method="patefield", n_sim=199, seed=child)
        assert m.pvalue.loc[a, b] == m.pvalue.loc[b, a] == res.pvalue
        assert m.tests[(a, b)].statistic == pytest.approx(res.statistic, rel=RTOL)
        pvalues.append(res.pvalue)
    holm = multipletests(pvalues, method="holm")[1]
    frame = m.to_frame()
    assert list(zip(frame["x"], frame["y"])) == pairs
    np.testing.assert_array_equal(frame["pvalue_adjusted"].to_numpy(dtype=float), holm)
    for (a, b), q in zip(pairs, holm):
        assert m.pvalue_adjusted.loc[a, b] == m.pvalue_adjusted.loc[b, a] == q
    assert all(pd.isna(m.pvalue.loc[c, c]) for c in names)
    assert "patefield" in m.title and "perm" in m.title and "holm" in m.title


def test_asymmetric_index_tests_both_orders():
    df = _clusterings()[["truth", "noisy", "finer"]]
    m = ca.agreement_matrix(df, index="purity", test=True, method="patefield", n_sim=99,
                            seed=2, multiple="bonferroni")
    names = list(df.columns)
    pairs = [(a, b) for a in names for b in names if a != b]
    children = np.random.SeedSequence(2).spawn(len(pairs))
    pvalues = [ca.agreement_test(df[a], df[b], index="purity", method="patefield", n_sim=99,
                                 seed=c).pvalue for (a, b), c in zip(pairs, children)]
    assert [m.pvalue.loc[a, b] for a, b in pairs] == pvalues
    adjusted = multipletests(pvalues, method="bonferroni")[1]
    np.testing.assert_array_equal([m.pvalue_adjusted.loc[a, b] for a, b in pairs], adjusted)
    assert len(m.to_frame()) == 6


@pytest.mark.parametrize("multiple", [None, "fdr_bh", "hs"])
def test_every_multipletests_method_by_name(multiple):
    df = _clusterings()[["truth", "noisy", "random"]]
    m = ca.agreement_matrix(df, test=True, method="patefield", n_sim=99, seed=1,
                            multiple=multiple)
    p = m.to_frame()["pvalue"].to_numpy(dtype=float)
    expected = p if multiple is None else multipletests(p, method=multiple)[1]
    np.testing.assert_array_equal(m.to_frame()["pvalue_adjusted"].to_numpy(dtype=float),
                                  expected)


def test_every_listed_multiple_method_runs():
    p = np.array([0.01, 0.02, 0.5])
    for name in MULTIPLE_METHODS:
        assert multipletests(p, method=name)[1].shape == (3,)


def test_intervals_equal_agreement_test_intervals():
    df = _clusterings()[["truth", "noisy", "finer"]]
    spec = ca.IntervalSpec(method="percentile", n_resamples=200)
    for test in (True, False):
        null = {"method": "patefield", "n_sim": 99} if test else {}
        m = ca.agreement_matrix(df, test=test, seed=4, interval=spec, **null)
        frame = m.to_frame()
        children = np.random.SeedSequence(4).spawn(3)
        for p, (a, b) in enumerate([("truth", "noisy"), ("truth", "finer"),
                                    ("noisy", "finer")]):
            res = ca.agreement_test(df[a], df[b], method="patefield", n_sim=99,
                                    seed=children[p], interval=spec)
            assert frame.loc[p, ["ci_low", "ci_high"]].tolist() == [res.interval.low,
                                                                    res.interval.high]
            assert frame.loc[p, "ci_method"] == "percentile"


def test_without_test_the_frame_has_the_schema_and_no_pvalues():
    df = _clusterings()
    frame = ca.agreement_matrix(df).to_frame()
    assert list(frame.columns) == ["x", "y", *ca.inference.RESULT_COLUMNS, "pvalue_adjusted"]
    assert len(frame) == 10 and frame["pvalue"].isna().all()
    assert (frame["kind"] == "similarity").all()


# -- the reference ---------------------------------------------------------------------------

def test_reference_rows_equal_agreement_test_with_the_reference():
    df = _clusterings()
    m = ca.agreement_matrix(df, reference="truth", test=True, method="patefield", n_sim=99,
                            seed=5)
    names = [c for c in df.columns if c != "truth"]
    assert list(m.statistic.index) == names
    n_pairs = len(names) * (len(names) - 1) // 2
    children = np.random.SeedSequence(5).spawn(n_pairs + len(names))[n_pairs:]
    expected = [ca.agreement_test(df["truth"], df[c], method="patefield", n_sim=99, seed=s)
                for c, s in zip(names, children)]
    assert list(m.reference.index) == names
    assert m.reference["statistic"].tolist() == pytest.approx([r.statistic for r in expected],
                                                              rel=RTOL)
    assert m.reference["pvalue"].tolist() == [r.pvalue for r in expected]
    np.testing.assert_array_equal(m.reference["pvalue_adjusted"].to_numpy(dtype=float),
                                  multipletests([r.pvalue for r in expected], method="holm")[1])
    # every two clusterings' agreements with the reference, compared by difference_test
    diffs = m.reference_differences
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    assert list(zip(diffs["a"], diffs["b"])) == pairs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        direct = [ca.difference_test(df["truth"], df[a], df[b]) for a, b in pairs]
    np.testing.assert_allclose(diffs["statistic"].to_numpy(dtype=float),
                               [d.statistic for d in direct], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(diffs["standard_error"].to_numpy(dtype=float),
                               [d.standard_error for d in direct], rtol=1e-12, atol=1e-15)
    p_direct = [d.pvalue for d in direct]
    np.testing.assert_allclose(diffs["pvalue"].to_numpy(dtype=float), p_direct, rtol=1e-12)
    np.testing.assert_allclose(diffs["pvalue_adjusted"].to_numpy(dtype=float),
                               multipletests(p_direct, method="holm")[1], rtol=1e-12)
    assert ca.agreement_matrix(df, reference="truth").reference_differences is None
    # a label vector as reference, and no test: the values alone
    plain = ca.agreement_matrix(df.drop(columns="truth"), reference=df["truth"].to_numpy())
    np.testing.assert_allclose(plain.reference["statistic"].to_numpy(dtype=float),
                               [r.statistic for r in expected], rtol=RTOL)


# -- the map and the plots -------------------------------------------------------------------

def test_embedding_reproduces_euclidean_distances():
    points = np.random.default_rng(11).normal(size=(6, 3))
    d = squareform(pdist(points))
    names = list("abcdef")
    m = AgreementMatrix(statistic=pd.DataFrame(d, index=names, columns=names),
                        index="variation_of_information", kind="distance")
    coords = m.embedding(n_components=3)
    # D is Euclidean in 3 dimensions: B has rank 3, the other eigenvalues are rounding
    assert np.abs(coords.attrs["eigenvalues"][3:]).max() < 1e-10 * d.max() ** 2
    np.testing.assert_allclose(pdist(coords.to_numpy()), pdist(points), atol=1e-8)
    assert list(coords.index) == names and list(coords.columns) == ["dim1", "dim2", "dim3"]
    values = coords.to_numpy()  # each axis's sign fixed: its largest coordinate positive
    assert (values[np.abs(values).argmax(axis=0), [0, 1, 2]] > 0).all()
    with pytest.raises(ValueError, match="n_components must be at most"):
        m.embedding(7)


def test_embedding_of_a_similarity_uses_one_minus_it():
    df = _clusterings()
    m = ca.agreement_matrix(df, index="rand")
    d = 1 - m.statistic.to_numpy()
    np.testing.assert_allclose(m.distances().to_numpy(), d, atol=1e-15)
    with pytest.raises(ValueError, match="neither a similarity bounded by 1 nor a distance"):
        ca.agreement_matrix(df, index="mutual_info").embedding()


@pytest.mark.parametrize("kind", ["heatmap", "clustermap", "mds"])
def test_plots_name_index_model_and_method(kind):
    import matplotlib.pyplot as plt

    df = _clusterings()
    m = ca.agreement_matrix(df, index="vi", test=True, method="patefield", n_sim=99, seed=1)
    drawn = m.plot(kind)
    fig = drawn.figure
    title = fig._suptitle.get_text() if kind == "clustermap" else drawn.get_title()
    for word in ("variation_of_information", "dissimilarity", "perm", "patefield"):
        assert word in title
    if kind == "heatmap":  # values annotated to 3 significant digits
        texts = {t.get_text() for t in drawn.texts}
        assert f"{m.statistic.iloc[0, 1]:.3g}" in texts
    plt.close(fig)
    with pytest.raises(ValueError, match="kind must be one of"):
        m.plot("pie")


def test_the_matrix_shows_an_html_table_and_its_p_values_never_print_as_zero():
    """Issue 45, trap 2: AgreementMatrix showed as plain text in Jupyter, and m.reference and
    m.reference_differences printed p = 8.5e-56 and an adjusted 5.5e-73 as 0.0."""
    import re
    import warnings

    runs = ca.load_dataset("wine_clusterings")[["class", "kmeans_3", "ward_3", "average_3"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        m = ca.agreement_matrix(runs, reference="class", test=True, seed=1, n_sim=199)
    page = m._repr_html_()
    assert m.title in page and "p-values of the tests, holm-adjusted" in page
    assert re.search(r">\d\.\d+e-\d+<", page)  # a tiny p in scientific notation
    for frame in (m.reference, m.reference_differences):
        text = frame[["statistic", "pvalue", "pvalue_adjusted"]].to_string()
        for column in ("pvalue", "pvalue_adjusted"):
            tiny = frame[column].astype(float) < 1e-10
            assert tiny.any() and not re.search(r"\s0\.0\s", text), text
    no_test = ca.agreement_matrix(runs[["kmeans_3", "ward_3"]])._repr_html_()
    assert "adjusted_rand" in no_test and "p-values" not in no_test


def test_a_monte_carlo_floor_keeps_its_sign_in_a_frame_of_some_columns():
    """Issue 45, trap 2: m.reference[["statistic", "pvalue"]] printed a floor 1/(B + 1) as
    "0.001", not "<0.001"; the reference frame put 6 NA interval columns before the p-values."""
    runs = ca.load_dataset("wine_clusterings")
    m = ca.agreement_matrix(runs[["class", "kmeans_3", "ward_3", "average_3"]],
                            reference="class", test=True, seed=1, method="patefield",
                            n_sim=999)
    text = m.reference[["statistic", "pvalue"]].to_string()
    assert "<0.001" in text and "kmeans_3" in text
    assert "<0.001" in m.rows[["x", "y", "pvalue"]].to_string()
    assert list(m.reference.columns[:3]) == ["statistic", "pvalue", "pvalue_adjusted"]
    assert set(m.reference.columns) >= set(ca.inference.RESULT_COLUMNS)  # the schema kept


def test_one_cluster_partitions_are_the_documented_exception_to_clue():
    """Issue 45: the matrix is clue's cl_agreement except where a ratio is 0/0 (a partition
    that is one cluster): clue gives NaN, the matrix the registry's convention (the optimum for
    identical partitions, otherwise 0), and the docs say so where they say it is clue's."""
    import pathlib

    d = {"one": [0] * 6, "same": [5] * 6, "x": [0, 0, 1, 1, 2, 2]}
    for index in ("nmi_sqrt", "adjusted_rand"):
        m = ca.agreement_matrix(d, index=index).statistic.to_numpy()
        np.testing.assert_array_equal(m, [[1, 1, 0], [1, 1, 0], [0, 0, 1]])
    assert "clue gives NaN" in " ".join(ca.agreement_matrix.__doc__.split())
    guide = pathlib.Path(__file__).parents[1] / "docs" / "guide" / "compare.md"
    assert "clue gives NaN" in " ".join(guide.read_text().split())
