"""Two labellings held by Dask are counted partition by partition and summed: the table (dense
or sparse), its labels and names, and every index on it equal the in-memory ones; what cannot
be paired safely is refused by name before any work."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clusteragree as ca
from clusteragree.sparse_tables import SparseContingencyTable

da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")


def labels(n, K, Q, seed):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, K, n)
    return x, np.where(rng.random(n) < 0.5, x % Q, rng.integers(0, Q, n))


def assert_same_table(got, want):
    assert type(got) is type(want)
    assert got.shape == want.shape and got.names == want.names
    assert got.row_labels.tolist() == want.row_labels.tolist()
    assert got.col_labels.tolist() == want.col_labels.tolist()
    if isinstance(got, ca.ContingencyTable):
        np.testing.assert_array_equal(got.counts, want.counts)
    else:
        assert (got.cells != want.cells).nnz == 0


@settings(max_examples=25, deadline=None, derandomize=True)
@given(n=st.integers(1, 3000), K=st.integers(1, 40), Q=st.integers(1, 40),
       chunk=st.integers(1, 1000), sparse=st.sampled_from([None, True, False]),
       seed=st.integers(0, 2**32 - 1))
def test_dask_arrays_give_the_in_memory_table(n, K, Q, chunk, sparse, seed):
    x, y = labels(n, K, Q, seed)
    got = ca.crosstab(da.from_array(x, chunks=chunk), da.from_array(y, chunks=chunk // 2 + 1),
                      sparse=sparse)
    assert_same_table(got, ca.crosstab(x, y, sparse=sparse))


def test_dask_dataframe_columns_with_strings_and_missing_labels():
    x, y = labels(5000, 25, 12, seed=1)
    df = pd.DataFrame({"cls": [f"c{v}" for v in x], "km": y.astype(float)})
    df.loc[::97, "km"] = np.nan
    ddf = dd.from_pandas(df, npartitions=6)
    assert_same_table(ca.crosstab("cls", "km", data=ddf, dropna=True),
                      ca.crosstab("cls", "km", data=df, dropna=True))
    assert_same_table(ca.crosstab(ddf["cls"], ddf["km"], dropna=True),
                      ca.crosstab(df["cls"], df["km"], dropna=True))
    with pytest.raises(ValueError, match="missing labels"):
        ca.crosstab("cls", "km", data=ddf)
    got = ca.compare("cls", "km", data=ddf, dropna=True, indices=["adjusted_rand", "vi"],
                     seed=1, interval=None)
    want = ca.compare("cls", "km", data=df, dropna=True, indices=["adjusted_rand", "vi"],
                      seed=1, interval=None)
    pd.testing.assert_frame_equal(got, want)


def test_many_clusters_on_dask_give_the_sparse_table_and_its_indices():
    x, y = labels(40_000, 3000, 3000, seed=2)
    got = ca.crosstab(da.from_array(x, chunks=7000), da.from_array(y, chunks=7000))
    want = ca.crosstab(x, y)
    assert isinstance(got, SparseContingencyTable)
    assert_same_table(got, want)
    for index in ("adjusted_rand", "adjusted_mutual_info", "nmi_sum", "vi"):
        assert float(ca.agreement(got, index=index)) == float(ca.agreement(want, index=index))


def test_a_dask_array_and_a_numpy_array_are_paired_by_position():
    x, y = labels(1000, 5, 4, seed=3)
    assert_same_table(ca.crosstab(da.from_array(x, chunks=128), y), ca.crosstab(x, y))
    assert_same_table(ca.crosstab(x, da.from_array(y, chunks=300)), ca.crosstab(x, y))


@pytest.mark.parametrize("call, error, pattern", [
    (lambda x, y: ca.crosstab(x, y[:-1]), ValueError, "x has 1,000 labels, y has 999"),
    (lambda x, y: ca.crosstab(x, y, join="inner"), ValueError, "join='inner' is not available"),
    (lambda x, y: ca.crosstab(x, dd.from_pandas(pd.Series(y.compute()), npartitions=2)),
     TypeError, "a Dask array and y a Dask series"),
    (lambda x, y: ca.crosstab(x[x > 2], y), ValueError, "unknown chunk sizes"),
    (lambda x, y: ca.crosstab(da.stack([x, x], axis=1), y), ValueError, "must be 1-D"),
    (lambda x, y: ca.agreement(x, y, index="element_centric"), TypeError,
     "Dask inputs are counted into their contingency table"),
    (lambda x, y: ca.crosstab(dd.from_pandas(pd.Series(x.compute()), npartitions=2),
                              dd.from_pandas(pd.Series(y.compute()), npartitions=3)),
     ValueError, "2 and 3 partitions"),
])
def test_what_cannot_be_paired_safely_is_refused_by_name(call, error, pattern):
    x, y = labels(1000, 5, 4, seed=4)
    with pytest.raises(error, match=pattern):
        call(da.from_array(x, chunks=100), da.from_array(y, chunks=100))


@pytest.mark.slow
def test_a_local_cluster_counts_parquet_partitions_as_in_memory(tmp_path):
    distributed = pytest.importorskip("dask.distributed")
    x, y = labels(1_000_000, 2000, 1500, seed=5)
    df = pd.DataFrame({"x": x, "y": y})
    dd.from_pandas(df, npartitions=10).to_parquet(tmp_path / "labels")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster):
        ddf = dd.read_parquet(tmp_path / "labels")
        got = ca.crosstab("x", "y", data=ddf)
        ari = float(ca.agreement("x", "y", data=ddf, index="adjusted_rand"))
    want = ca.crosstab("x", "y", data=df)
    assert_same_table(got, want)
    assert ari == float(ca.agreement(want, index="adjusted_rand"))
