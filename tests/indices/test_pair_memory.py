"""Indices of object pairs that hold n x n matrices declare how much (``PairIndex.pair_bytes``):
the declaration is held against the memory they take, and a larger n than the machine can hold
is refused before any work, naming the index, n and the memory, instead of numpy's bare
MemoryError or the machine swapping."""

import tracemalloc

import numpy as np
import pytest

import clusteragree as ca
from clusteragree import _memory
from clusteragree.indices import REGISTRY, PairIndex

DECLARED = sorted(n for n, r in REGISTRY.items()
                  if isinstance(r, PairIndex) and r.pair_bytes is not None)


def _clustering(kinds, n, rng):
    """A clustering of n objects of one of ``kinds``: fuzzy memberships, one-hot hard
    memberships, or a similarity matrix of a partition."""
    labels = rng.integers(0, 3, n)
    if "fuzzy" in kinds:
        return rng.dirichlet(np.ones(3), n)
    if "exclusive hard" in kinds:
        return np.eye(3)[labels]
    assert "similarity matrix" in kinds
    return (labels[:, None] == labels[None, :]).astype(float)


def _inputs(rec, n, seed=0):
    rng = np.random.default_rng(seed)
    x = _clustering(rec.accepted_kinds(), n, rng)
    y = _clustering(rec.accepted_kinds(y=True), n, rng)
    if rec.accepted_kinds(y=True) == ("exclusive hard",) and "matrix" in rec.inputs:
        y = np.argmax(y, axis=1)  # ari_mp: a similarity matrix against a partition's labels
    return x, y


def test_every_index_holding_n_by_n_matrices_declares_it():
    # the indices measured to hold about 8 bytes or more per pair when this was written
    assert {"bri08p", "bri08m", "ri09", "bri09", "bari09", "cri07", "cari07", "aci", "afri",
            "bc", "ebc09", "md11", "d2_11", "csi10", "db12", "ari_mm", "ari_mp", "nsf", "kas",
            "sms", "omega"} == set(DECLARED)


@pytest.mark.parametrize("name", DECLARED)
def test_the_declared_memory_per_pair_covers_what_the_index_takes(name):
    rec = REGISTRY[name]
    for n in (600, 1200):
        x, y = _inputs(rec, n)
        ca.agreement(x, y, index=name)  # once before measuring: caches, imports
        tracemalloc.start()
        try:
            ca.agreement(x, y, index=name)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak <= rec.pair_bytes * n**2, (name, n, peak / n**2)


@pytest.mark.parametrize("name", DECLARED)
def test_too_many_objects_for_the_memory_are_refused_before_any_work(name, monkeypatch):
    rec = REGISTRY[name]
    monkeypatch.setattr(_memory, "available_memory", lambda: 64 * 2**20)
    n = 4000  # pair_bytes * n^2 >= 16 * 1.6e7 bytes = 244 MiB > 0.8 * 64 MiB
    x, y = _inputs(rec, n)
    tracemalloc.start()
    try:
        with pytest.raises(MemoryError) as err:
            ca.agreement(x, y, index=name)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < rec.pair_bytes * n**2 / 2  # refused at the entry: no n x n work matrices
    message = str(err.value)
    assert f"index {name!r}" in message and "n = 4,000 objects need about" in message
    assert "0.1 GiB are available" in message and "needs no n x n matrix" in message


def test_an_index_computed_by_blocks_is_not_refused(monkeypatch):
    monkeypatch.setattr(_memory, "available_memory", lambda: 64 * 2**20)
    x, y = _inputs(REGISTRY["gri"], 4000)
    assert REGISTRY["gri"].pair_bytes is None
    assert 0.0 <= ca.agreement(x, y, index="gri") <= 1.0


def test_without_a_memory_reading_nothing_is_refused(monkeypatch):
    monkeypatch.setattr(_memory, "available_memory", lambda: None)
    REGISTRY["bri08p"].check_memory(10**7)  # the system does not say: no refusal on a guess
