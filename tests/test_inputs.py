"""Inputs a user can trust: pandas alignment, label shapes, and a table of bad inputs across the
public functions and the command line, each refused with an error that names the argument,
before any heavy work."""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clusteragree as ca

X6, Y6 = [0, 0, 0, 1, 1, 1], [0, 0, 1, 1, 2, 2]
TAB = ca.ContingencyTable([[30, 20], [10, 20]])
U = np.array([[.2, .8], [.3, .7], [.9, .1], [.5, .5], [.1, .9], [.6, .4]])
BIG = 10**7  # a Monte Carlo size that would take seconds if work started before the check


# ---------------------------------------------------------------------------------------------
# pandas alignment
# ---------------------------------------------------------------------------------------------

def test_series_are_paired_by_their_index():
    x = pd.Series([0, 0, 0, 1, 1, 1], index=list("abcdef"))
    y = pd.Series([0, 0, 0, 1, 1, 1], index=list("adbecf"))
    # paired by position this would be 1.0; paired by the index, x = 000111 against y read in
    # x's order, a..f -> 0, 0, 1, 0, 1, 1
    assert ca.agreement(x, y, index="ari") == pytest.approx(
        ca.agreement([0, 0, 0, 1, 1, 1], [0, 0, 1, 0, 1, 1], index="ari"))
    assert ca.agreement(x, y, index="ari") == pytest.approx(-1 / 9)


@settings(max_examples=40, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 4)), min_size=2, max_size=40),
       st.randoms(use_true_random=False))
def test_results_do_not_change_when_series_are_shuffled_with_their_index(pairs, rnd):
    x = pd.Series([a for a, _ in pairs], index=[f"o{i}" for i in range(len(pairs))])
    y = pd.Series([b for _, b in pairs], index=x.index)
    order_x = list(range(len(pairs)))
    order_y = list(range(len(pairs)))
    rnd.shuffle(order_x)
    rnd.shuffle(order_y)
    sx, sy = x.iloc[order_x], y.iloc[order_y]  # each shuffled, the index travels along
    names = ["rand", "adjusted_rand", "nmi_sum", "purity"]
    assert np.allclose(ca.agreement(sx, sy, index=names), ca.agreement(x, y, index=names))
    assert np.array_equal(ca.crosstab(sx, sy).counts, ca.crosstab(x, y).counts)


def test_inner_join_keeps_the_common_objects_and_says_how_many_it_dropped():
    x = pd.Series([0, 0, 1, 1, 2], index=list("abcde"))
    y = pd.Series([1, 1, 0, 0, 5, 6], index=list("abcdfg"))
    with pytest.warns(UserWarning, match=r"left out 1 object\(s\) of x and 2 of y"):
        tab = ca.crosstab(x, y, join="inner")
    assert tab.n == 4
    with pytest.raises(ValueError, match=r"1 label\(s\) of x's index are not in y's and 2 of "
                                         r"y's are not in x's .* join='inner'"):
        ca.crosstab(x, y)


def test_a_column_of_labels_is_read_as_labels():
    col = np.array([[0], [0], [1], [1]])
    assert ca.agreement(col, [0, 0, 1, 1], index="ari") == 1.0
    assert ca.agreement(pd.DataFrame({"c": [0, 0, 1, 1]}), [0, 1, 1, 1], index="rand") == \
        ca.agreement([0, 0, 1, 1], [0, 1, 1, 1], index="rand")


def test_uint64_labels_keep_their_value():
    tab = ca.crosstab(np.array([2**64 - 1, 3, 3], dtype=np.uint64), [0, 1, 1])
    assert sorted(int(v) for v in tab.row_labels) == [3, 2**64 - 1]


# ---------------------------------------------------------------------------------------------
# Bad inputs: (call, exception type, pattern naming the argument)
# ---------------------------------------------------------------------------------------------

def _series_pair():
    return (pd.Series([0, 0, 1, 1], index=list("abcd")),
            pd.Series([0, 1, 1, 0], index=list("abce")))


BAD = [
    # agreement: the clusterings
    ("x None", lambda: ca.agreement(None, Y6), TypeError, r"^x must be"),
    ("y a string", lambda: ca.agreement(X6, "cls"), TypeError, r"^y must be .*string 'cls'"),
    ("x a set", lambda: ca.agreement({0, 1, 2}, [0, 1, 1]), TypeError, r"^x is a set"),
    ("x a dict", lambda: ca.agreement({"a": 0, "b": 1}, [0, 1]), TypeError, r"^x is a dict"),
    ("x a generator", lambda: ca.agreement((i for i in range(3)), [0, 1, 1]), TypeError,
     r"^x is a generator"),
    ("x ragged", lambda: ca.agreement([[0, 1], [1]], [0, 1]), TypeError, r"^x is a ragged"),
    ("x 2-D integers", lambda: ca.agreement(np.array([[0, 2], [1, 1]]), [0, 1]), ValueError,
     r"^x is a 2-D array of shape \(2, 2\) holding integers"),
    ("y missing", lambda: ca.agreement([0, 1, 1], None), TypeError, r"^y is missing"),
    ("lengths", lambda: ca.agreement([0, 1, 1], [0, 1]), ValueError,
     r"^x and y must label the same objects"),
    ("missing labels", lambda: ca.agreement([0, None, 1], [0, 1, 1]), ValueError,
     r"^x contains missing labels"),
    ("dropna not bool", lambda: ca.agreement(X6, Y6, dropna="yes"), TypeError,
     r"^dropna must be True or False"),
    ("series misaligned", lambda: ca.agreement(*_series_pair()), ValueError,
     r"^x and y are pandas Series whose indexes differ"),
    ("join", lambda: ca.agreement(*_series_pair(), join="outer"), ValueError,
     r"^join must be one of \['exact', 'inner'\]"),
    ("data column typo", lambda: ca.agreement("clu", "cls", data=pd.DataFrame(
        {"cluster": [0, 1], "cls": [0, 1]})), ValueError,
     r"^x='clu' is not a column of data .* Did you mean"),
    ("data not a frame", lambda: ca.agreement("a", "b", data=[[0, 1]]), TypeError,
     r"^data must be a pandas or Dask DataFrame"),
    ("empty labels", lambda: ca.agreement([], []), ValueError, r"^x is empty"),
    # agreement: the table
    ("negative count", lambda: ca.agreement([[1, -2], [3, 4]]), ValueError,
     r"^x \(a table of counts.*non-negative"),
    ("too many objects", lambda: ca.agreement([[2**60, 0], [0, 2**60]]), ValueError,
     r"^x \(a table of counts.*more than 2\*\*53"),
    ("fractional counts", lambda: ca.agreement([[1.5, 2], [3, 4]]), ValueError,
     r"^x \(a table of counts.*whole numbers"),
    # agreement: indices and options
    ("unknown index", lambda: ca.agreement(X6, Y6, index="randd"), ValueError,
     r"^unknown index 'randd'.*Did you mean 'rand'"),
    ("empty index list", lambda: ca.agreement(X6, Y6, index=[]), ValueError,
     r"^index is an empty list"),
    ("index a number", lambda: ca.agreement(X6, Y6, index=5), TypeError, r"^index must be"),
    ("unknown option", lambda: ca.agreement(X6, Y6, index="vi", bse=2), TypeError,
     r"unknown option 'bse'.*Did you mean 'base'"),
    ("base 1", lambda: ca.agreement_test(X6, Y6, index="vi", base=1, n_sim=BIG), ValueError,
     r"^base must be a positive number other than 1"),
    # the null engine
    ("method typo", lambda: ca.agreement_test(TAB, method="exactt"), ValueError,
     r"^method must be one of .* Did you mean 'exact'"),
    ("model typo", lambda: ca.agreement_test(TAB, model="numb"), ValueError,
     r"^model must be one of .* Did you mean 'num'"),
    ("method not of model", lambda: ca.agreement_test(TAB, method="patefield", model="num"),
     ValueError, r"^method='patefield' is not available under model='num'"),
    ("n_sim 0", lambda: ca.agreement_test(TAB, n_sim=0), ValueError, r"^n_sim must be >= 1"),
    ("n_sim negative, exhaustive", lambda: ca.agreement_test(
        [[2, 1], [1, 2]], method="permutation", n_sim=-3), ValueError, r"^n_sim must be >= 1"),
    ("n_sim fractional", lambda: ca.agreement_test(
        [[2, 1], [1, 2]], method="permutation", n_sim=50.5), TypeError,
     r"^n_sim must be a whole number"),
    ("n_sim with exact", lambda: ca.agreement_test(TAB, method="exact", n_sim=5), ValueError,
     r"^n_sim is for Monte Carlo methods"),
    ("seed negative", lambda: ca.agreement_test(TAB, seed=-1, n_sim=BIG), ValueError,
     r"^seed must be a non-negative int"),
    ("seed a string", lambda: ca.agreement_test(TAB, seed="a", n_sim=BIG), TypeError,
     r"^seed must be None"),
    ("alternative", lambda: ca.agreement_test(TAB, alternative="bigger", n_sim=BIG),
     ValueError, r"^alternative must be one of"),
    ("alternative in compare", lambda: ca.compare(TAB, alternative="bigger", n_sim=BIG),
     ValueError, r"^alternative must be one of"),
    ("progress", lambda: ca.agreement_test(TAB, n_sim=BIG, method=ca.NullSpec(progress="yes")), TypeError,
     r"^progress must be True or False"),
    ("plus_one", lambda: ca.compare(TAB, method=ca.NullSpec(plus_one="no"), n_sim=BIG),
     TypeError, r"^plus_one must be True or False"),
    ("plus_one at the top level", lambda: ca.compare(TAB, plus_one=False, n_sim=BIG),
     TypeError, r"^plus_one= is a setting of the null"),
    ("max_tables 0", lambda: ca.agreement_test(TAB, index="ari",
                                               method=ca.NullSpec("exact", max_tables=0)), ValueError,
     r"^max_tables must be >= 1"),
    ("max_work negative", lambda: ca.agreement_test(TAB, method=ca.NullSpec("exact", max_work=-5)),
     ValueError, r"^max_work must be >= 1"),
    ("exhaustive not bool", lambda: ca.agreement_test(TAB, method=ca.NullSpec(
        "permutation", exhaustive="yes")), TypeError,
     r"^exhaustive must be True or False"),
    ("exhaustive with patefield", lambda: ca.agreement_test(
        TAB, n_sim=BIG, method=ca.NullSpec("patefield", exhaustive=True)),
     ValueError, r"^exhaustive= is for permutation methods"),
    ("reference value", lambda: ca.adjust(X6, Y6, index="rand", method=ca.NullSpec(
        "exact", model="num1", reference="z")), ValueError,
     r"^reference must be one of \['x', 'y'\]"),
    ("reference two-sided", lambda: ca.adjust(X6, Y6, index="rand", method=ca.NullSpec(
        "exact", model="num", reference="x")), ValueError,
     r"^reference= names the clustering a one-sided model keeps fixed"),
    ("model value", lambda: ca.agreement_test(U, U, index="agri", model="rows"), ValueError,
     r"^model must be one of \['perm', .*'objects', 'pairs'\]"),
    ("pair model with a table index", lambda: ca.agreement_test(TAB, model="pairs", n_sim=BIG),
     ValueError, r"^model='pairs' .* is a null for indices of object pairs"),
    ("a null setting as a keyword", lambda: ca.agreement_test(TAB, max_tables=5), TypeError,
     r"^max_tables= is a setting of the null"),
    ("a method of no kind", lambda: ca.agreement_test(TAB, method=3), TypeError,
     r"^method must be a method name"),
    ("model with a fuzzy index", lambda: ca.agreement_test(U, U, index="agri", model="num"),
     ValueError, r"^model='num' .* index 'agri'"),
    ("center", lambda: ca.adjust(TAB, center="mode", n_sim=BIG), ValueError,
     r"^center must be 'mean', 'median' or a quantile"),
    ("optimum", lambda: ca.adjust(TAB, optimum="one", n_sim=BIG), TypeError,
     r"^optimum must be a number"),
    ("several indices to null_distribution", lambda: ca.nulls.null_distribution(
        TAB, index=["rand", "ari"]), TypeError, r"^index must be one index name"),
    ("iadjust method typo", lambda: ca.iadjust(TAB, method="patefeld"), ValueError,
     r"^method must be one of .* Did you mean 'patefield'"),
    ("exact too large", lambda: ca.nulls.null_distribution(
        np.full((4, 4), 12) + np.eye(4, dtype=int) * 10, index="ari", method="exact"),
     ValueError, r"max_work"),
    ("Monte Carlo too large for memory", lambda: ca.agreement_test(TAB, n_sim=10**15,
                                                                   method="patefield"),
     MemoryError, r"^n_sim=1,000,000,000,000,000 draws"),
]


@pytest.mark.parametrize("call, error, pattern", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_is_refused_before_any_work_with_a_message_naming_it(call, error, pattern):
    t = time.perf_counter()
    with pytest.raises(error, match=pattern):
        call()
    assert time.perf_counter() - t < 1.0


def test_the_table_of_bad_inputs_is_long_enough():
    assert len(BAD) >= 40


# ---------------------------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------------------------

def _cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "clusteragree", *args], capture_output=True,
                          text=True, timeout=60, **kw)


@pytest.mark.parametrize("args, pattern", [
    (["demo", "--n-sim", "0"], r"n_sim must be >= 1"),
    (["demo", "--seed", "-4"], r"seed must be a non-negative int"),
    (["demo", "--dataset", "nope"], r"invalid choice: 'nope'"),
    (["nothing"], r"invalid choice: 'nothing'"),
])
def test_cli_errors_are_one_line_without_a_traceback(args, pattern):
    out = _cli(*args)
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert pytest.importorskip("re").search(pattern, out.stderr)


def test_cli_output_into_a_closed_pipe_is_not_an_error():
    proc = subprocess.Popen([sys.executable, "-m", "clusteragree", "indices"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.readline()
    proc.stdout.close()  # like `| head -1`
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert "BrokenPipeError" not in err and "Traceback" not in err


# ---------------------------------------------------------------------------------------------
# Groups of indices on any table; printed tests say what they show
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("group", ["all", "set matching", ["paired", "kappa"]])
def test_a_group_reports_the_indices_a_table_does_not_define_as_NA(group):
    named_kappa = isinstance(group, list)
    if named_kappa:  # kappa named on its own still raises
        with pytest.raises(ValueError, match="kappa needs as many clusters"):
            ca.agreement(X6, Y6, index=group)
        return
    with pytest.warns(UserWarning, match=r"not defined here and are reported as NA: kappa"):
        values = ca.agreement(X6, Y6, index=group)
    assert pd.isna(values["kappa"])
    assert "as many clusters in x as in y" in values.attrs["not_defined"]["kappa"]
    assert values.drop("kappa").notna().all()
    assert values["purity"] == ca.agreement(X6, Y6, index="purity")
    with pytest.raises(ValueError, match="kappa needs as many clusters"):
        ca.agreement(X6, Y6, index="kappa")


def test_compare_of_a_group_keeps_a_row_of_NA_for_an_undefined_index():
    with pytest.warns(UserWarning, match="kappa"):
        df = ca.compare(X6, Y6, indices="set matching", method="exact")
    assert df.loc["kappa", ["statistic", "pvalue", "method"]].isna().all()
    assert "kappa" in df.attrs["not_defined"]
    assert df.drop("kappa")["pvalue"].notna().all()


def test_printed_test_labels_adjusted_values_as_adjusted_values():
    text = str(ca.agreement_test([[30, 20], [10, 20]], index="ari", method="patefield", seed=1))
    line = next(ln for ln in text.splitlines() if ln.startswith("adjusted "))
    assert line.startswith("adjusted adjusted_rand, (I - c) / (max - c): 0.0513 (c = null mean)")
    assert "null mean = -6.16" in text  # the null mean itself, two lines above


# -- issue 29, item 5: labels mixing 1 and "1" -------------------------------------------------

MIXED = [0, 0, 1, "1", 1, "a"]


@pytest.mark.parametrize("form", ["list", "tuple", "object Series", "object ndarray"])
def test_a_list_mixing_1_and_the_string_1_keeps_them_apart(form):
    """numpy reads such a list as strings, which merged 1 and "1" (ARI 0.444); labels are
    Python values, as in an object Series: four clusters, ARI 0.286 in every form."""
    from sklearn.metrics import adjusted_rand_score

    x = {"list": MIXED, "tuple": tuple(MIXED), "object Series": pd.Series(MIXED, dtype=object),
         "object ndarray": np.array(MIXED, dtype=object)}[form]
    y = [0, 0, 1, 1, 2, 2]
    expected = adjusted_rand_score([0, 0, 1, 2, 1, 3], y)  # 1 and "1" two clusters
    assert expected == pytest.approx(2 / 7, rel=1e-12)
    assert ca.agreement(x, y, index="ari") == pytest.approx(expected, rel=1e-12)
    assert ca.crosstab(x, y).shape == (4, 3)
    assert ca.agreement(x, y, index="element_centric") == pytest.approx(
        ca.agreement([0, 0, 1, 2, 1, 3], y, index="element_centric"), rel=1e-12)


def test_a_missing_value_among_string_labels_is_missing():
    """numpy also read nan among strings as the label "nan"."""
    with pytest.raises(ValueError, match=r"x contains missing labels"):
        ca.agreement(["a", np.nan, "b", "b"], [0, 1, 1, 1])
    assert ca.agreement(["a", np.nan, "b", "b"], [0, 1, 1, 1], dropna=True) == 1.0
    assert ca.crosstab(["b", "a", "b"], [0, 1, 1]).row_labels.tolist() == ["a", "b"]


@pytest.mark.parametrize("labels", [[{"a": 1}, {"b": 2}, {"a": 1}],
                                    pd.Series([[1], [2], [1]])])
def test_unhashable_labels_are_refused_by_name(labels):
    """Issue 45, trap 10: labels that are dicts gave pandas' bare "unhashable type: 'dict'"."""
    with pytest.raises(TypeError, match=r"^x holds the label .* which cannot be a cluster label"):
        ca.agreement(labels, [0, 1, 0])
