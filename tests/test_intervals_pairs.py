"""The object bootstrap of indices of object pairs: an object drawn twice forms no pair with
its copy (issue 30).

A resample is the drawn objects with their multiplicities w_i; a sum over its pairs is the sum
over the pairs i < k of distinct objects of w_i w_k f(i, k). The brute-force values below walk
the resample's positions a < b and skip the positions holding the same object, a computation
written apart from the package's (which weights the distinct objects' pair vectors).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import clusteragree as ca
from clusteragree.intervals import engine as intervals
from clusteragree.intervals import resamples
from clusteragree.indices import REGISTRY, PairIndex, ResampleRefused, evaluate_resample
from clusteragree.inputs import as_clusterings

N = 7
#: a resample of the 7 objects: 0, 3 and 4 drawn twice, 1, 5 and 6 not at all
IDX = np.array([0, 0, 2, 3, 3, 4, 4])


def _data(seed=3):
    rng = np.random.default_rng(seed)
    U, V = rng.dirichlet(np.ones(3), N), rng.dirichlet(np.ones(2), N)
    return U, V


def _covers(seed=4):
    rng = np.random.default_rng(seed)
    A = (rng.random((N, 3)) < 0.45).astype(float)
    B = (rng.random((N, 2)) < 0.5).astype(float)
    A[:3], B[:2] = np.eye(3), np.eye(2)  # every cluster holds an object drawn below
    A[0] = B[0] = 1.0
    A[A.sum(axis=1) == 0, 0] = B[B.sum(axis=1) == 0, 1] = 1.0  # every object in a cluster
    return A, B


def _pair(index, X, Y):
    rec = ca.get_index(index)
    return rec, as_clusterings(X, Y, table=False, pairs=[rec.name]).pair(rec)


def _distinct_pairs(idx):
    """The resample's position pairs a < b holding two distinct objects."""
    return [(idx[a], idx[b]) for a, b in itertools.combinations(range(len(idx)), 2)
            if idx[a] != idx[b]]


def _ari_mm_brute(P, Q, idx):
    pairs = _distinct_pairs(idx)
    t0 = sum(P[i, k] * Q[i, k] for i, k in pairs)
    t1, t2 = sum(P[i, k] for i, k in pairs), sum(Q[i, k] for i, k in pairs)
    t3 = t1 * t2 / len(pairs)
    return (t0 - t3) / ((t1 + t2) / 2 - t3)


def _agri_brute(U, V, idx):
    """13AGRI (Horta & Campello 2015): a = sum min(J^U, J^V), d = sum min(S^U, S^V) with
    S = t t^T - J, GRI = (a + d) / max(sum T^U, sum T^V), T = J + S, and E[GRI] the mean of
    a + d over every two pairs (p, q) of the resample, divided by the same total."""
    pairs = _distinct_pairs(idx)

    def js(M, i, k):
        j = float(M[i] @ M[k])
        return j, float(M[i].sum() * M[k].sum()) - j

    xu = [js(U, i, k) for i, k in pairs]
    xv = [js(V, i, k) for i, k in pairs]
    agree = sum(min(ju, jv) + min(su, sv) for (ju, su), (jv, sv) in zip(xu, xv))
    total = max(sum(j + s for j, s in xu), sum(j + s for j, s in xv))
    expected = sum(min(ju, jv) + min(su, sv) for ju, su in xu for jv, sv in xv) / len(pairs)
    gri, e = agree / total, expected / total
    return (gri - e) / (1 - e)


def _omega_brute(A, B, idx):
    pairs = _distinct_pairs(idx)
    ju = [int(A[i] @ A[k]) for i, k in pairs]
    jv = [int(B[i] @ B[k]) for i, k in pairs]
    m = len(pairs)
    obs = sum(a == b for a, b in zip(ju, jv)) / m
    exp = sum(ju.count(t) * jv.count(t) for t in set(ju) | set(jv)) / m ** 2
    return (obs - exp) / (1 - exp)


def _value(index, X, Y, idx):
    rec, pair = _pair(index, X, Y)
    return resamples.pair_value(rec, pair, dict(rec.options), idx)


def test_a_resample_counts_only_pairs_of_distinct_objects():
    U, V = _data()
    P, Q = U @ U.T, V @ V.T
    A, B = _covers()
    # exact sums of at most 21 pairs (or 21^2 for E[GRI]): rounding only, far below 1e-12
    assert _value("ari_mm", P, Q, IDX) == pytest.approx(_ari_mm_brute(P, Q, IDX), abs=1e-12)
    assert _value("agri", U, V, IDX) == pytest.approx(_agri_brute(U, V, IDX), abs=1e-12)
    assert _value("omega", A, B, IDX) == pytest.approx(_omega_brute(A, B, IDX), abs=1e-12)


def test_the_old_resample_counted_the_copies_as_a_pair():
    """The rows repeated (the resample of the old code) count the copies' pairs: a different
    value, which the brute force above does not give."""
    U, V = _data()
    P, Q = U @ U.T, V @ V.T
    old = ca.agreement(P[np.ix_(IDX, IDX)], Q[np.ix_(IDX, IDX)], index="ari_mm")
    assert abs(old - _ari_mm_brute(P, Q, IDX)) > 0.01
    assert _value("ari_mm", P, Q, IDX) != pytest.approx(old, abs=0.01)


def test_a_permutation_of_the_objects_gives_the_index_itself():
    U, V = _data()
    A, B = _covers()
    perm = np.random.default_rng(9).permutation(N)
    for index, (X, Y) in {"ari_mm": (U @ U.T, V @ V.T), "agri": (U, V), "omega": (A, B),
                          "sms": (U @ U.T, V @ V.T), "cari07": (U, V)}.items():
        assert _value(index, X, Y, perm) == ca.agreement(X, Y, index=index)


@pytest.mark.parametrize("index", ["fri", "afri", "gri", "agri", "ndc", "aci", "ari_mm",
                                   "bri08p", "bri08m", "ri09", "bri09", "bari09", "csi10",
                                   "cri07", "cari07", "sms", "omega"])
def test_a_resample_is_the_index_on_its_distinct_pairs(index):
    """Each index that counts pairs has a value on a resample with copies: finite, the same
    whatever the order of the draws, and not the value on the rows repeated (which counts the
    copies' pairs)."""
    U, V = _data()
    A, B = _covers()
    X, Y = {"ari_mm": (U @ U.T, V @ V.T), "sms": (U @ U.T, V @ V.T), "ndc": (U, V),
            "omega": (A, B), "csi10": (A, B)}.get(index, (U, V))
    if index in ("bri08p", "bri08m", "ri09", "fri", "afri"):
        X, Y = U, V  # fuzzy only
    shuffled = np.random.default_rng(2).permutation(IDX)
    value = _value(index, X, Y, IDX)
    assert np.isfinite(value)
    assert _value(index, X, Y, shuffled) == pytest.approx(value, abs=1e-12)
    rows = (lambda M: M[np.ix_(IDX, IDX)]) if index in ("ari_mm", "sms") else (lambda M: M[IDX])
    old = ca.agreement(rows(X), rows(Y), index=index)
    assert value != pytest.approx(old, abs=1e-9)  # the copies' pairs are left out


def test_indices_of_objects_alone_see_the_rows_repeated():
    U, V = _data()
    A, B = _covers()
    for index, (X, Y) in {"mi05": (U, V), "cf10n": (U, V), "onmi_lfk": (A, B),
                          "geometric_accuracy": (A, B)}.items():
        assert _value(index, X, Y, IDX) == pytest.approx(
            ca.agreement(X[IDX], Y[IDX], index=index), abs=1e-12)


def test_every_pair_index_has_a_resample_form_or_refuses():
    U, V = _data()
    labels = (np.array([0, 1, 2, 0, 1, 2, 0]), np.array([0, 0, 1, 1, 0, 1, 1]))
    refused = set()
    for rec in REGISTRY.values():
        if not isinstance(rec, PairIndex):
            continue
        supported = rec.objects_only or rec.representation is not None or rec.weighted
        if supported:
            continue
        refused.add(rec.name)
        for X, Y in ((U @ U.T, V @ V.T), labels, _covers(), (U, V)):
            try:
                pair = as_clusterings(X, Y, table=False, pairs=[rec.name]).pair(rec)
                break
            except (ValueError, TypeError):
                continue
        with pytest.raises(ResampleRefused, match="copies"):
            evaluate_resample(rec, pair, dict(rec.options), np.array([2] + [1] * (N - 2)))
    # the indices whose value sums over all objects j, i itself included (BCubed, 11MD,
    # 11D2, 12DB, NSF, KAS), over N = U^T V with a diagonal correction (Anderson's), or a
    # random walk over the objects (element-centric)
    assert refused == {"bc", "ebc09", "md11", "d2_11", "db12", "nsf", "kas", "ari10",
                       "aari10", "ari10n", "aari10n", "ari11nm", "aari11nm",
                       "element_centric"}


def test_a_refused_index_gets_no_interval_and_the_reason():
    x, y = [0, 1, 0, 1, 0, 1, 0], [0, 0, 1, 1, 0, 1, 1]
    with pytest.raises(ValueError, match="no bootstrap interval for 'bc'.*copies"):
        ca.confidence_interval(x, y, index="bc", method="percentile", n_resamples=9, seed=1)
    recs = [ca.get_index("bc"), ca.get_index("cari07")]
    clusterings = as_clusterings(x, y, table=False, pairs=["bc", "cari07"])
    cis = intervals.intervals_of(clusterings, recs, {"bc": {}, "cari07": {}},
                                 ca.IntervalSpec("percentile", n_resamples=9, seed=1),
                                 undefined="na")
    assert np.isnan(cis["bc"].low) and "copies" in cis["bc"].reason
    assert np.isfinite(cis["cari07"].low) and cis["cari07"].reason == ""


def test_the_jackknife_is_unchanged():
    """Leaving one object out draws no object twice: the index on the n - 1 others."""
    U, V = _data()
    P, Q = U @ U.T, V @ V.T
    rec, pair = _pair("ari_mm", P, Q)
    keep = np.delete(np.arange(N), 2)
    assert resamples.pair_value(rec, pair, {}, keep) == ca.agreement(
        P[np.ix_(keep, keep)], Q[np.ix_(keep, keep)], index="ari_mm")


def test_a_resample_of_one_object_has_no_pair():
    """All n draws of one object: its copies form no pair, so an index of pairs is not defined
    there (the interval is refused as for any resample the index is not defined on), while an
    index of per-object sums is."""
    U, V = _data()
    one = np.full(N, 3)
    with pytest.raises(ValueError, match="single object") as info:
        _value("ari_mm", U @ U.T, V @ V.T, one)
    assert not isinstance(info.value, ResampleRefused)
    assert _value("mi05", U, V, one) == ca.agreement(U[one], V[one], index="mi05")
