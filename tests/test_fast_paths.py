"""Issue 42 item 5: the cheaper paths of an index from two label vectors give what the general
paths give, bit for bit.

* inputs: two 1-D integer arrays of one length leave ``check_label_pair`` at once; small
  non-negative integer labels are counted by one ``np.bincount`` after one ``argmax`` per
  vector (read as unsigned); the counting hands its total to the table; a small table's
  margins are dot products with ones. Compared with the general path (the same labels as
  Python objects, counted by ``pd.factorize``) and with scikit-learn.
* indices: an index string with no option is resolved once (``resolve_call``); a table's n is
  passed to its statistic; the margins of a table of few clusters are summed as Python
  integers. Compared with the uncached resolution, with the statistic counting n itself, and
  with the batched evaluation (numpy sums).
"""

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics

import clusteragree as ca
from clusteragree.indices import (REGISTRY, STATISTICS, get_index, resolve_call,
                                  resolve_indices, split_options)
from clusteragree.indices.pairs import pair_state

PAIR_COUNTING = sorted(name for name, rec in REGISTRY.items()
                       if getattr(rec, "state", None) is pair_state)
#: A few indices of every family that two label vectors reach through their table.
INDICES = ["adjusted_rand", "rand", "jaccard", "fowlkes_mallows", "nmi_sum", "ami", "vi",
           "purity", "mutual_info", "element_centric", "russel_rao"]


@st.composite
def label_pairs(draw):
    """Two label vectors of one length: from 0 (the one-bincount path), shifted below 0,
    spread far apart (non-contiguous), of one cluster, or of n = 1 and 2, in several integer
    dtypes."""
    n = draw(st.sampled_from([1, 2, 3, 7, 50, 300, 5000]))
    kx, ky = draw(st.integers(1, 40)), draw(st.integers(1, 40))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    x = rng.integers(0, kx, n)
    y = np.where(rng.random(n) < draw(st.sampled_from([0.0, 0.5, 1.0])), x % ky,
                 rng.integers(0, ky, n))
    shape = draw(st.sampled_from(["from 0", "negative", "spread", "one cluster", "huge"]))
    if shape == "negative":
        x = x - draw(st.integers(1, 5))
    elif shape == "spread":
        x, y = x * 1000 + 7, y * 37
    elif shape == "one cluster":
        y = np.zeros(n, dtype=np.int64)
    elif shape == "huge":
        x[0] = 2**40
    dtype = draw(st.sampled_from(["<i8", ">i8", "i4", "i2"]))
    if shape != "huge":
        x, y = x.astype(dtype), y.astype(draw(st.sampled_from(["<i8", "u1", "u2", "i4"])))
    return x, y


def general(labels):
    """The same labels as Python objects: the general path (``pd.factorize``)."""
    return labels.astype(object)


def same_table(a, b):
    assert a.counts.tolist() == b.counts.tolist()
    assert a.row_labels.tolist() == b.row_labels.tolist()
    assert a.col_labels.tolist() == b.col_labels.tolist()
    assert a.row_sums.tolist() == b.row_sums.tolist()
    assert a.col_sums.tolist() == b.col_sums.tolist()
    assert a.n == b.n and type(a.n) is int and a.names == b.names
    assert a.counts.dtype == b.counts.dtype == np.int64
    for arr in (a.counts, a.row_sums, a.col_sums):
        assert not arr.flags.writeable


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(label_pairs())
def test_the_table_of_integer_labels_is_the_general_paths(pair):
    x, y = pair
    same_table(ca.crosstab(x, y), ca.crosstab(general(x), general(y)))


@pytest.mark.filterwarnings("ignore::clusteragree.NoiseLabelWarning")  # labels from -1 up
@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(label_pairs())
def test_indices_from_integer_labels_equal_the_general_path_bit_for_bit(pair):
    x, y = pair
    for index in INDICES + ["adjusted_rand"]:
        try:
            expected = ca.agreement(general(x), general(y), index=index)
        except ValueError as exc:  # n = 1 for an index of pairs: the same refusal
            # (element-centric similarity of one object in the other byte order is refused by
            # pandas' hash table before its n is checked, as before these paths)
            native = x.dtype.isnative and y.dtype.isnative
            with pytest.raises(ValueError, match="^" + re.escape(str(exc)) + "$" if native
                               else None):
                ca.agreement(x, y, index=index)
            continue
        assert ca.agreement(x, y, index=index) == expected, index
    if len(x) >= 2:
        ours = ca.agreement(x, y, index="adjusted_rand")
        assert ours == pytest.approx(metrics.adjusted_rand_score(x, y), abs=1e-12)


@pytest.mark.parametrize("x, y", [
    (np.array([5]), np.array([3])),                                  # n = 1
    (np.array([0, 0]), np.array([0, 1])),                            # n = 2
    (np.array([-3, -3, 2, 2, 9]), np.array([1, 1, 1, 1, 1])),         # one cluster in y
    (np.array(["a", "b", "a", "c"]), np.array(["u", "u", "v", "v"])),  # strings
    (np.array([0, 2, 2, 4]), np.array([10, 10, 30, 30])),            # non-contiguous
])
def test_edge_cases_agree_with_scikit_learn_and_the_general_path(x, y):
    general_table = ca.crosstab(general(x), general(y))
    same_table(ca.crosstab(x, y), general_table)
    if len(x) < 2:
        with pytest.raises(ValueError, match="needs at least 2 objects"):
            ca.agreement(x, y)
        return
    assert ca.agreement(x, y) == ca.agreement(general(x), general(y))
    assert ca.agreement(x, y) == pytest.approx(metrics.adjusted_rand_score(x, y), abs=1e-15)
    assert ca.agreement(x, y, index="nmi_sqrt") == pytest.approx(
        metrics.normalized_mutual_info_score(x, y, average_method="geometric"), abs=1e-12)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(K=st.integers(1, 300), Q=st.integers(1, 300), top=st.sampled_from([1, 3, 1000]),
       seed=st.integers(0, 2**32 - 1))
def test_margins_by_dot_products_equal_the_reductions(K, Q, top, seed):
    # tables of at most 256 cells are summed by dot products with ones, larger ones reduced
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, top + 1, (K, Q)) * (rng.random((K, Q)) < 0.6)
    counts[0, 0] += 1
    tab = ca.ContingencyTable(counts)
    kept = counts[counts.sum(axis=1) > 0][:, counts.sum(axis=0) > 0]
    assert tab.row_sums.tolist() == np.add.reduce(kept, axis=1).tolist()
    assert tab.col_sums.tolist() == np.add.reduce(kept, axis=0).tolist()
    assert tab.row_sums.dtype == tab.col_sums.dtype == np.int64
    assert tab.n == int(counts.sum())
    transposed = ca.ContingencyTable(counts.T)  # a non-contiguous table's margins
    assert transposed.row_sums.tolist() == tab.col_sums.tolist()


@settings(max_examples=100, deadline=None, derandomize=True, database=None)
@given(K=st.integers(1, 80), Q=st.integers(1, 80), seed=st.integers(0, 2**32 - 1),
       big=st.booleans())
def test_the_statistic_given_n_equals_the_statistic_counting_it(K, Q, seed, big):
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 50, (K, Q)) * (np.int64(2**32 + 7) if big else 1)
    counts[0, 0] += 1
    n = int(counts.sum())
    for stat, f in STATISTICS.items():
        given_n, counted = f(counts, total=n), f(counts)
        assert type(given_n) is type(counted) and given_n == counted, stat


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(K=st.integers(1, 90), Q=st.integers(1, 90), seed=st.integers(0, 2**32 - 1),
       huge=st.integers(0, 4))
def test_few_clusters_in_python_integers_equal_the_numpy_sums(K, Q, seed, huge):
    # margins of at most 64 clusters are summed as Python integers, longer ones by numpy (or
    # as Python integers beyond 2^31 objects); every pair-counting index equals its batched
    # value (numpy sums throughout)
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 6, (K, Q))
    if huge == 0:
        counts = counts * np.int64(2**32 + 7)
    counts[0, 0] += 2
    for name in PAIR_COUNTING:
        rec = REGISTRY[name]
        assert float(rec.on_counts(counts)) == rec.on_counts(counts[None])[0], name


@pytest.mark.parametrize("index, options", [
    ("ari", {}), ("ARI", {}), ("paired", {}), ("simple", {}), (["ari", "vi"], {}),
    ("mutual_info", {"base": 2}), (["mi", "rand"], {"base": 2}),
])
def test_the_remembered_resolution_is_the_resolution(index, options):
    names, single = resolve_indices(index)
    per = split_options(names, options)
    for _ in range(2):  # the second call remembered
        got_names, got_single, recs, opts = resolve_call(index, options)
        assert list(got_names) == names and got_single == single
        assert recs == [get_index(n) for n in names]
        assert {k: dict(v) for k, v in opts.items()} == {
            r.name: {**r.options, **per[r.name]} for r in recs}
    recs.append(None)  # the caller's list is its own
    assert len(resolve_call(index, options)[2]) == len(names)


def test_the_remembered_options_cannot_be_changed_and_errors_are_not_remembered():
    opts = resolve_call("mutual_info", {})[3]
    with pytest.raises(TypeError):
        opts["mutual_info"]["base"] = 2
    assert dict(resolve_call("mutual_info", {})[3]["mutual_info"]) == {"base": None}
    for _ in range(2):
        with pytest.raises(ValueError, match="unknown index 'no_such'"):
            resolve_call("no_such", {})
        with pytest.raises(TypeError, match="unknown option 'bse'.*Did you mean 'base'"):
            resolve_call("mutual_info", {"bse": 2})
