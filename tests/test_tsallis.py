"""AMI_q and SMI_q (Tsallis entropy of order q): the known members (q = 2 is ARI and SRI, q = 1
the AMI and SMI), the mean and variance of the power sum against every table with the margins,
a null mean of exactly 0, and the z of the exact law."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import clusteragree as ca
from clusteragree._hypergeom_s import moments_of_s
from clusteragree._hypergeom_var import variance_of_power_sum
from clusteragree.indices.tsallis import expected_power_sum, power_sum_moments
from clusteragree.nulls.exact import count_tables, enumerate_tables

tables = st.tuples(st.integers(2, 4), st.integers(2, 4)).flatmap(
    lambda kq: st.lists(st.lists(st.integers(0, 12), min_size=kq[1], max_size=kq[1]),
                        min_size=kq[0], max_size=kq[0]))


def _usable(t):
    t = np.array(t)
    return t.sum() >= 2 and (t.sum(axis=1) > 0).sum() >= 1 and (t.sum(axis=0) > 0).sum() >= 1


@settings(max_examples=60, deadline=None, derandomize=True)
@given(tables)
def test_q2_is_the_adjusted_rand_index_and_q1_the_ami(t):
    if not _usable(t):
        return
    got = ca.agreement(t, index=["ami_tsallis", "adjusted_rand", "ami", "smi_tsallis", "sri",
                                 "smi"])
    assert got["ami_tsallis"] == pytest.approx(got["adjusted_rand"], rel=1e-9, abs=1e-12)
    assert got["smi_tsallis"] == pytest.approx(got["sri"], rel=1e-8, abs=1e-9)
    q1 = ca.agreement(t, index=["ami_tsallis", "smi_tsallis"], q=1)
    assert q1["ami_tsallis"] == pytest.approx(got["adjusted_mutual_info"], rel=1e-9, abs=1e-12)
    assert q1["smi_tsallis"] == pytest.approx(got["smi"], rel=1e-12, abs=1e-12)


def test_q_near_one_tends_to_the_ami():
    t = [[12, 3, 1], [2, 9, 4], [0, 5, 11]]
    ami = ca.agreement(t, index="ami")
    gaps = [abs(ca.agreement(t, index="ami_tsallis", q=1 + h) - ami) for h in (1e-2, 1e-3, 1e-4)]
    assert gaps[0] > gaps[1] > gaps[2] and gaps[2] < 1e-4


def _random_margins(rng, limit=4000):
    while True:
        K, Q = (int(v) for v in rng.integers(2, 5, size=2))
        n = int(rng.integers(max(K, Q), 26))
        a = rng.multinomial(n - K, rng.dirichlet(np.ones(K))) + 1
        b = rng.multinomial(n - Q, rng.dirichlet(np.ones(Q))) + 1
        if count_tables(a, b, limit=limit) <= limit:
            return a, b


@pytest.mark.parametrize("q", [0.5, 1.5, 2.0, 3.0])
def test_expected_power_sum_equals_the_sum_over_every_table(q):
    rng = np.random.default_rng(int(q * 10))
    for _ in range(6):
        a, b = _random_margins(rng)
        tabs, prob = enumerate_tables(a, b)
        exact = float((prob * (tabs.astype(float) ** q).sum(axis=(1, 2))).sum())
        assert expected_power_sum(a, b, q) == pytest.approx(exact, rel=1e-12)
        var = float((prob * ((tabs.astype(float) ** q).sum(axis=(1, 2)) - exact) ** 2).sum())
        assert variance_of_power_sum(a, b, q) == pytest.approx(var, rel=1e-10)
        assert power_sum_moments(a, b, q) == pytest.approx((exact, var), rel=1e-10)


@pytest.mark.parametrize("q", [0.5, 1.5, 3.0])
def test_smi_q_is_the_z_of_the_exact_law(q):
    rng = np.random.default_rng(int(q * 100))
    for _ in range(5):
        a, b = _random_margins(rng)
        tabs, prob = enumerate_tables(a, b)
        power = (tabs.astype(float) ** q).sum(axis=(1, 2))
        mean = float((prob * power).sum())
        sd = float(np.sqrt((prob * (power - mean) ** 2).sum()))
        observed = tabs[int(rng.integers(len(tabs)))]
        z = np.sign(q - 1) * ((observed.astype(float) ** q).sum() - mean) / sd
        assert ca.agreement(observed, index="smi_tsallis", q=q) == pytest.approx(
            z, rel=1e-9, abs=1e-9)


def test_power_sum_variance_at_q2_is_the_exact_variance_of_s_at_large_n():
    rng = np.random.default_rng(8)
    for K, n in ((5, 10**4), (10, 10**5)):
        a = rng.multinomial(n - K, rng.dirichlet(np.full(K, 0.5))) + 1
        b = rng.multinomial(n - K, rng.dirichlet(np.full(K, 0.5))) + 1
        _, var_s = moments_of_s(a, b)
        assert variance_of_power_sum(a, b, 2.0) == pytest.approx(float(var_s), rel=1e-10)


@pytest.mark.parametrize("q", [0.5, 1.5, 3.0])
def test_exact_null_mean_is_zero(q):
    # given the margins AMI_q is affine in sum n_ij^q with a constant denominator
    nd = ca.nulls.null_distribution([[4, 1, 0], [1, 3, 2], [0, 1, 4]], index="ami_tsallis",
                                    method="exact", q=q)
    assert abs(nd.mean) < 1e-12


def test_identical_partitions_and_bad_q():
    assert ca.agreement([0, 0, 1, 1, 2], [2, 2, 0, 0, 1], index="ami_tsallis", q=1.5) == 1.0
    for bad in (0, -1, math.inf, "2", True):
        with pytest.raises(ValueError, match="q must be a positive number"):
            ca.agreement([[3, 1], [1, 3]], index="ami_tsallis", q=bad)


@pytest.mark.parametrize("name", ["ami_tsallis", "smi_tsallis"])
def test_a_batch_of_tables_matches_table_by_table(name):
    tabs = ca.nulls.patefield.random_tables([8, 9, 10], [8, 9, 10], n_sim=20, seed=3)
    batch = ca.get_index(name).on_counts(np.asarray(tabs), q=2.5)
    one = [ca.agreement(tab, index=name, q=2.5) for tab in tabs]
    np.testing.assert_allclose(batch, one, rtol=1e-12)
    mixed = np.stack([np.asarray(tabs[0]), np.array([[20, 4, 3], [2, 5, 1], [1, 1, 1]])])
    np.testing.assert_allclose(ca.get_index(name).on_counts(mixed, q=2.5),
                               [ca.agreement(t, index=name, q=2.5) for t in mixed], rtol=1e-12)
