"""Bad input meets a clear error that names the argument."""

import numpy as np
import pandas as pd
import pytest

import clusteragree as ca


def test_labels_of_different_lengths():
    with pytest.raises(ValueError, match="x has 3 labels, y has 2"):
        ca.agreement([1, 2, 3], [1, 2], index="rand")


def test_empty_labels():
    with pytest.raises(ValueError, match="x is empty"):
        ca.crosstab([], [])


def test_missing_labels_need_dropna():
    with pytest.raises(ValueError, match="dropna=True"):
        ca.agreement([1, np.nan, 2, 2], [1, 1, 2, 2], index="rand")
    assert ca.agreement([1, np.nan, 2, 2], [1, 1, 2, 2], index="rand", dropna=True) == 1.0


def test_two_dimensional_labels_are_not_labels():
    with pytest.raises(ValueError, match="x must be 1-D"):
        ca.crosstab(np.zeros((3, 2)), [1, 2, 3])
    with pytest.raises(TypeError, match="string"):
        ca.crosstab("abc", [1, 2, 3])


@pytest.mark.parametrize(
    "table, message, error",
    [
        ([[1, -2], [3, 4]], "non-negative", ValueError),
        ([[1.5, 2], [3, 4]], "whole numbers", ValueError),
        ([[np.nan, 2], [3, 4]], "NaN", ValueError),
        ([[0, 0], [0, 0]], "no objects", ValueError),
        (np.zeros((0, 3)), "empty", ValueError),
        ([["a", "b"]], "numbers", TypeError),
    ],
)
def test_bad_tables(table, message, error):
    with pytest.raises(error, match=message):
        ca.agreement(table, index="rand")
    with pytest.raises(error, match=message):
        ca.ContingencyTable(table)


def test_one_dimensional_x_alone_asks_for_y():
    with pytest.raises(TypeError, match=r"y is missing: pass two clusterings x and y, or x alone "
                                        r"as a K x Q table"):
        ca.agreement([0, 1, 1], None, index="rand")
    with pytest.raises(ValueError, match="2-D table"):
        ca.ContingencyTable([1, 2, 3])


def test_unknown_index_suggests_names():
    with pytest.raises(ValueError, match="Did you mean 'jaccard'"):
        ca.agreement([[1, 2], [3, 4]], index="jacard")
    with pytest.raises(ValueError, match="unknown index 'zzz'"):
        ca.agreement([[1, 2], [3, 4]], index="zzz")
    with pytest.raises(TypeError, match="index must be"):
        ca.agreement([[1, 2], [3, 4]], index=3)


def test_index_undefined_for_the_table():
    with pytest.raises(ValueError, match=r"kappa needs .* 2 x 3 table.*matching="):
        ca.agreement([[1, 2, 3], [4, 5, 6]], index="kappa")
    with pytest.raises(ValueError, match="at least 2 objects"):
        ca.agreement([[1]], index="jaccard")


def test_unknown_or_bad_options():
    with pytest.raises(TypeError, match="unknown option 'bse'.*Did you mean 'base'"):
        ca.agreement([[1, 2], [3, 4]], index="mutual_info", bse=2)
    with pytest.raises(TypeError, match=r"unknown option 'base' for index 'rand' \(options: none\)"):
        ca.agreement([[1, 2], [3, 4]], index="rand", base=2)
    with pytest.raises(ValueError, match="base must be a positive number other than 1"):
        ca.agreement([[1, 2], [3, 4]], index="mutual_info", base=1)
    with pytest.raises(ValueError, match="average must be one of"):
        ca.agreement([[1, 2], [3, 4]], index="ami", average="mean")
    with pytest.raises(ValueError, match="pairing must be one of"):
        ca.agreement([[1, 2], [3, 4]], index="criterion_h", pairing="best")
    with pytest.raises(ValueError, match="matching must"):
        ca.agreement([[1, 2, 3], [4, 5, 6]], index="kappa", matching=[0, 1])


def test_table_and_labels_together_is_an_error():
    tab = ca.ContingencyTable([[1, 2], [3, 4]])
    with pytest.raises(TypeError, match="not both"):
        ca.agreement(tab, [1, 2], index="rand")


def test_dataframe_argument_checks():
    with pytest.raises(TypeError, match="data must be a pandas or Dask DataFrame"):
        ca.crosstab("a", "b", data={"a": [1], "b": [2]})
    with pytest.raises(TypeError, match="column name"):
        ca.crosstab(["a"], "b", data=pd.DataFrame({"a": [1], "b": [2]}))


def test_unknown_dataset():
    with pytest.raises(ValueError, match="Did you mean 'statlog_em'"):
        ca.load_dataset("statlog")
