import numpy as np
import pandas as pd
import pytest

import clusteragree as ca
from clusteragree.tables import pair_counts


def test_crosstab_labels_of_any_type_and_order():
    tab = ca.crosstab(["b", "a", "b", "c"], [2.5, 1.0, 2.5, 1.0])
    assert list(tab.row_labels) == ["a", "b", "c"]
    assert list(tab.col_labels) == [1.0, 2.5]
    assert tab.counts.tolist() == [[1, 0], [0, 2], [1, 0]]
    assert tab.n == 4
    assert tab.row_sums.tolist() == [1, 2, 1] and tab.col_sums.tolist() == [2, 2]


def test_crosstab_from_dataframe_columns_names_the_margins():
    df = pd.DataFrame({"cluster": [1, 1, 2, 2], "cls": ["u", "v", "v", "v"]})
    tab = ca.crosstab("cluster", "cls", data=df)
    assert tab.names == ("cluster", "cls")
    assert tab.counts.tolist() == [[1, 1], [0, 2]]
    with pytest.raises(ValueError, match="not a column"):
        ca.crosstab("cluster", "klass", data=df)


def test_crosstab_categorical_drops_unused_categories():
    x = pd.Categorical(["lo", "hi", "hi"], categories=["lo", "mid", "hi"])
    tab = ca.crosstab(pd.Series(x), [0, 1, 1])
    assert list(tab.row_labels) == ["lo", "hi"]
    assert tab.counts.tolist() == [[1, 0], [0, 2]]


def test_crosstab_integer_labels_with_gaps_and_large_values():
    x = np.array([10**12, 5, 5, 10**12])
    y = np.array([-3, 7, 7, 7])
    tab = ca.crosstab(x, y)
    assert list(tab.row_labels) == [5, 10**12]
    assert list(tab.col_labels) == [-3, 7]
    assert tab.counts.tolist() == [[0, 2], [1, 1]]


def test_crosstab_matches_pandas_on_random_labels():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 7, 500)
    y = rng.choice(np.array(["p", "q", "r"]), 500)
    expected = pd.crosstab(x, y)
    tab = ca.crosstab(x, y)
    np.testing.assert_array_equal(tab.counts, expected.to_numpy())


def test_crosstab_missing_labels_raise_or_drop():
    with pytest.raises(ValueError, match="missing labels.*dropna=True"):
        ca.crosstab([1, None, 2], [1, 1, 2])
    with pytest.raises(ValueError, match="y contain"):
        ca.crosstab([1, 2, 2], [1.0, np.nan, 2.0])
    tab = ca.crosstab([1, None, 2, 2], [1.0, 1.0, np.nan, 2.0], dropna=True)
    assert tab.n == 2 and tab.counts.tolist() == [[1, 0], [0, 1]]


def test_table_drops_empty_rows_and_columns_with_their_labels():
    tab = ca.ContingencyTable([[1, 0, 2], [0, 0, 0], [3, 0, 4]], ["a", "b", "c"], ["u", "v", "w"])
    assert tab.counts.tolist() == [[1, 2], [3, 4]]
    assert list(tab.row_labels) == ["a", "c"] and list(tab.col_labels) == ["u", "w"]


def test_pairs_are_exact_for_a_billion_objects():
    n_half = 500_000_000
    p = pair_counts([[n_half, 0], [0, n_half]])
    c2 = n_half * (n_half - 1) // 2
    assert p.a11 == 2 * c2 and p.a10 == 0 and p.a01 == 0
    assert p.total == (2 * n_half) * (2 * n_half - 1) // 2
    assert p.a00 == n_half * n_half
    assert all(isinstance(v, int) for v in p)


def test_print_shows_margins_like_addmargins():
    text = repr(ca.ContingencyTable([[30, 20], [10, 20]]))
    lines = text.splitlines()
    assert "n = 80" in lines[0]
    assert lines[-1].split() == ["Sum", "40", "40", "80"]
    assert "Sum" in lines[1]
    assert "<table" in ca.ContingencyTable([[1]])._repr_html_()


def test_transpose_swaps_roles():
    tab = ca.ContingencyTable([[1, 2, 3], [4, 5, 6]], ["a", "b"], names=("u", "v"))
    t = tab.T
    assert t.counts.tolist() == [[1, 4], [2, 5], [3, 6]]
    assert t.names == ("v", "u") and list(t.col_labels) == ["a", "b"]
    assert t.pairs.a10 == tab.pairs.a01


def test_table_is_read_only():
    tab = ca.ContingencyTable([[1, 2], [3, 4]])
    with pytest.raises(ValueError):
        tab.counts[0, 0] = 9
