"""The thesis design's margins (clusteragree.simulate)."""

import numpy as np
import pytest

from clusteragree.simulate import THESIS_N, THESIS_WEIGHTS, random_margins


@pytest.mark.parametrize("k", [2, 3, 4])
@pytest.mark.parametrize("balance", ["balanced", "unbalanced"])
def test_margins_sum_to_n_and_follow_the_weights(k, balance):
    rows, cols = random_margins(k, balance, seed=3)
    assert rows.size == cols.size == k
    assert rows.sum() == cols.sum() == THESIS_N[k]
    assert (rows > 0).all() and (cols > 0).all()
    # the average of many draws is n times the weights (multinomial mean), within 4 s.e.
    draws = np.array([random_margins(k, balance, seed=s)[0] for s in range(400)])
    w = np.asarray(THESIS_WEIGHTS[k][balance])
    se = np.sqrt(THESIS_N[k] * w * (1 - w) / 400)
    assert np.all(np.abs(draws.mean(axis=0) - THESIS_N[k] * w) < 4 * se)


def test_weights_sum_to_one():
    for by_balance in THESIS_WEIGHTS.values():
        for w in by_balance.values():
            assert sum(w) == pytest.approx(1.0)


def test_same_seed_same_margins_and_bad_input():
    a, b = random_margins(3, "unbalanced", 50, seed=7), random_margins(3, "unbalanced", 50, seed=7)
    assert all((x == y).all() for x, y in zip(a, b))
    with pytest.raises(ValueError, match="k must be one of"):
        random_margins(5, "balanced")
    with pytest.raises(ValueError, match="balance"):
        random_margins(3, "even")
    with pytest.raises(ValueError, match="n must be >= 3"):
        random_margins(3, "balanced", n=2)
