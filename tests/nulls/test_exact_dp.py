"""The dynamic programme of the exact laws of s = sum n_ij^2 and t = sum n_ij log n_ij made chunk
by chunk (``statistic_law(..., chunk=)``) against the programme that lists every entry of a
column at once and merges them in one go (the code before the chunks, kept here as the
reference), on random margins (hypothesis, derandomized), edge cases and huge counts."""

from __future__ import annotations

import math
import tracemalloc
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy.special import gammaln

from clusteragree._moments.combinatorics import compositions
from clusteragree.nulls import statistic_law
from clusteragree.nulls.network import _increments, _merge, estimate_dp_work


def reference_law(rows, cols, statistic):
    """The law of s or t by the unchunked programme: every (state, partial key, composition)
    entry of a column is listed, then equal (state, key) rows are summed at once."""
    a = np.array([x for x in rows if x > 0], dtype=np.int64)
    b = np.array([x for x in cols if x > 0], dtype=np.int64)
    if len(a) > len(b):
        a, b = b, a
    b = np.sort(b)
    K, n, top = len(a), int(a.sum()), int(max(a.max(), b.max()))
    inc, to_value = _increments(statistic, top)
    lg = gammaln(np.arange(n + 1) + 1.0)
    laws = {tuple(sorted(a.tolist(), reverse=True)):
            (np.zeros((1, inc.shape[1]), dtype=np.int64), np.ones(1))}
    for total in b[:-1].tolist():
        rems, keys_out, probs_out = [], [], []
        for r, (keys, probs) in laws.items():
            rv, c = np.array(r, dtype=np.int64), compositions(r, total)
            logw = (lg[rv] - lg[c] - lg[rv - c]).sum(axis=1)
            w = np.exp(logw - logw.max())
            w /= w.sum()
            rems.append(np.repeat(-np.sort(-(rv - c), axis=1), len(keys), axis=0))
            keys_out.append((inc[c].sum(axis=1)[:, None, :] + keys[None]).reshape(
                -1, keys.shape[1]))
            probs_out.append(np.outer(w, probs).ravel())
        rows_keys = np.column_stack((np.concatenate(rems), np.concatenate(keys_out)))
        uniq, inv = np.unique(rows_keys, axis=0, return_inverse=True)
        sums = np.bincount(inv.ravel(), np.concatenate(probs_out))
        laws = {}
        for state in np.unique(uniq[:, :K], axis=0):
            mine = (uniq[:, :K] == state).all(axis=1)
            laws[tuple(state.tolist())] = (uniq[mine, K:], sums[mine])
    final = [(keys + inc[np.array(r)].sum(axis=0), probs) for r, (keys, probs) in laws.items()]
    uniq, inv = np.unique(np.concatenate([k for k, _ in final]), axis=0, return_inverse=True)
    probs = np.bincount(inv.ravel(), np.concatenate([p for _, p in final]))
    values = np.asarray(to_value(uniq), dtype=float)
    order = np.argsort(values, kind="stable")
    return values[order], probs[order] / probs.sum()


def assert_same_law(got, want, rtol=1e-12):
    (v, p), (v0, p0) = got, want
    assert v.tolist() == v0.tolist()  # the same values, bit for bit
    np.testing.assert_allclose(p, p0, rtol=rtol, atol=0)


def random_margins(rng, K, Q, n, zeros):
    """Positive margins of K rows and Q columns adding to n (n >= max(K, Q)), with ``zeros``
    empty rows and columns put in (the law drops them)."""
    a = (rng.multinomial(n - K, np.ones(K) / K) + 1).tolist()
    b = (rng.multinomial(n - Q, np.ones(Q) / Q) + 1).tolist()
    for _ in range(zeros):
        a.insert(int(rng.integers(len(a) + 1)), 0)
        b.insert(int(rng.integers(len(b) + 1)), 0)
    return a, b


@given(K=st.integers(1, 5), Q=st.integers(1, 5), n=st.integers(1, 45),
       statistic=st.sampled_from(["s", "t"]), chunk=st.sampled_from([1, 2, 3, 7, 64, 10**4]),
       zeros=st.integers(0, 1), seed=st.integers(0, 2**32 - 1))
@settings(max_examples=120, deadline=None, derandomize=True)
def test_chunked_law_equals_the_unchunked_programme(K, Q, n, statistic, chunk, zeros, seed):
    assume(n >= max(K, Q))
    rows, cols = random_margins(np.random.default_rng(seed), K, Q, n, zeros)
    assume(estimate_dp_work(rows, cols, statistic) < 3e5)  # the reference is slow
    want = reference_law(rows, cols, statistic)
    assert_same_law(statistic_law(rows, cols, statistic, chunk=chunk), want)
    assert_same_law(statistic_law(rows, cols, statistic), want)


@pytest.mark.parametrize("rows, cols", [
    ([7], [7]),                                   # 1 x 1: one table
    ([5, 0], [0, 2, 3]),                          # empty rows and columns are dropped
    ([4, 4, 4], [4, 4, 4]),                       # ties everywhere: states merge
    ([1] * 6, [2, 2, 2]),                         # all singletons on one side
    ([216, 1, 1, 1, 1, 1, 1, 1], [1] * 7 + [216]),  # states need two int64 code words
    ([30, 25, 25], [40, 20, 20]),
    ([10, 10, 10], [5] * 6),
])
@pytest.mark.parametrize("statistic", ["s", "t"])
@pytest.mark.parametrize("chunk", [1, 5, 2**18])
def test_chunked_law_on_edge_margins(rows, cols, statistic, chunk):
    assert_same_law(statistic_law(rows, cols, statistic, chunk=chunk),
                    reference_law(rows, cols, statistic))


@pytest.mark.parametrize("rows, cols", [([1500, 900], [1100, 1300]),
                                        ([10**5 - 3, 3], [5, 10**5 - 5])])
def test_law_of_2x2_tables_with_huge_counts_is_hypergeometric(rows, cols):
    # n11 is hypergeometric; s is a quadratic in n11, so two n11 can share a value
    (a1, a2), b1 = rows, cols[0]
    n = a1 + a2
    exact: dict[int, Fraction] = {}
    for k in range(max(0, b1 - a2), min(a1, b1) + 1):
        s = k * k + (a1 - k) ** 2 + (b1 - k) ** 2 + (a2 - b1 + k) ** 2
        exact[s] = exact.get(s, 0) + Fraction(math.comb(a1, k) * math.comb(a2, b1 - k),
                                              math.comb(n, b1))
    # the log-probabilities are sums of log-gammas up to log n!, each exact to its ulp, so the
    # probabilities are exact to about eps log n! (old and new programmes alike)
    rtol = 16 * np.finfo(float).eps * gammaln(n + 1)
    for chunk in (3, 2**18):
        v, p = statistic_law(rows, cols, "s", chunk=chunk)
        assert v.tolist() == sorted(exact)
        np.testing.assert_allclose(p, [float(exact[s]) for s in sorted(exact)], rtol=rtol)
    assert_same_law(statistic_law(rows, cols, "s", chunk=3), reference_law(rows, cols, "s"))


def test_merge_sums_equal_rows_in_lexicographic_order():
    rng = np.random.default_rng(5)
    for spans in ([3], [2, 5, 4], [2**40, 7], [2**62, 2**62, 3], [3] * 45):
        # wide columns are packed by rank; 45 columns of three values need the code ranked
        cols = np.column_stack([rng.integers(0, s, size=500) for s in spans])
        cols[::7] = cols[0]  # repeated rows
        probs = rng.random(500)
        got_rows, got_p = _merge(cols, probs)
        want: dict[tuple, float] = {}
        for row, p in zip(map(tuple, cols.tolist()), probs.tolist()):
            want[row] = want.get(row, 0.0) + p
        assert [tuple(r) for r in got_rows.tolist()] == sorted(want)
        np.testing.assert_allclose(got_p, [want[r] for r in sorted(want)], rtol=1e-13)


def test_memory_is_a_chunk_not_a_column():
    # the unchunked programme holds the 3e6 entries of the second column at once (about
    # 24 bytes each: 70 MB and more); chunks of 4096 entries keep the peak to the laws
    rows = [82, 79, 79]
    tracemalloc.start()
    try:
        statistic_law(rows, rows, "s", chunk=2**12)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * 2**20, f"peak {peak / 2**20:.1f} MB"


def test_max_work_still_refuses_a_long_programme_before_its_largest_column():
    # 3 x 3 tables of 400 objects: 2e7 entries in the second column, over the default 1e7
    with pytest.raises(ValueError, match="max_work=10,000,000 entries in one step"):
        statistic_law([134, 133, 133], [134, 133, 133], "s")


def test_a_refused_exact_law_carries_its_reason_and_advice_apart():
    """The budget refusals are one exception type whose reason and advice a caller without
    the budget (a report) can word again, instead of parsing the message."""
    from clusteragree.nulls import ExactLawTooLarge
    from clusteragree.nulls.enumeration import check_table_count
    from clusteragree.nulls.network import check_dp_size

    for refuse in (lambda: check_dp_size([400, 400, 46], [300, 300, 246], "s", max_work=10,
                                         strict=True),
                   lambda: check_table_count([30, 30, 30], [30, 30, 30], max_tables=10)):
        with pytest.raises(ExactLawTooLarge) as err:
            refuse()
        assert isinstance(err.value, ValueError)  # callers catching ValueError still do
        assert str(err.value) == f"{err.value.reason}; use {err.value.advice}"
        assert "raise max_" in err.value.advice and "raise max_" not in err.value.reason
