"""Scenarios of the thesis' simulation design: cluster weights and sizes.

Amorim, M. J. (2015), "On clustering stability", PhD thesis, ISCTE - University Institute of
Lisbon, Ch.4 Table 9: K in {2, 3, 4} latent groups (with p = K variables and n = 500, 800 and
1100 objects), balanced or unbalanced weights, and three degrees of separation (average pairwise
overlap about 0.6, 0.15 and 0.02; the Gaussian mixtures themselves come with the studies).

``random_margins`` draws the margins of a cross table as the design produces them: the classes'
sizes are a multinomial draw of n objects with the scenario's weights, and so are the sizes of
the clusters an algorithm finds (an independent draw: under the null the clustering does not
know the classes).

>>> THESIS_WEIGHTS[3]["unbalanced"]
(0.6, 0.3, 0.1)
>>> rows, cols = random_margins(3, "balanced", 800, seed=1)
>>> int(rows.sum()), int(cols.sum()), rows.size
(800, 800, 3)
"""

from __future__ import annotations

import numpy as np

from ._validate import check_choice, check_positive_int, check_seed

__all__ = ["THESIS_WEIGHTS", "THESIS_N", "BALANCE", "random_margins"]

#: K -> balance -> cluster weights (Amorim 2015, Ch.4 Table 9).
THESIS_WEIGHTS: dict[int, dict[str, tuple[float, ...]]] = {
    2: {"balanced": (0.5, 0.5), "unbalanced": (0.3, 0.7)},
    3: {"balanced": (0.3, 0.3, 0.4), "unbalanced": (0.6, 0.3, 0.1)},
    4: {"balanced": (0.25, 0.25, 0.25, 0.25), "unbalanced": (0.5, 0.25, 0.15, 0.10)},
}
#: K -> the number of objects of the thesis' data sets.
THESIS_N = {2: 500, 3: 800, 4: 1100}
BALANCE = ("balanced", "unbalanced")


def random_margins(k: int, balance: str, n: int | None = None, seed=None):
    """Row and column margins of a K x K table of the design: two independent multinomial
    draws of ``n`` objects (default: the thesis' n for this K) with the scenario's weights.
    Empty clusters are redrawn, so every margin is positive."""
    if k not in THESIS_WEIGHTS:
        raise ValueError(f"k must be one of {sorted(THESIS_WEIGHTS)} (the thesis' design), "
                         f"got {k!r}")
    balance = check_choice(balance, "balance", BALANCE)
    n = THESIS_N[k] if n is None else check_positive_int(n, "n", minimum=k)
    rng = check_seed(seed)
    weights = np.asarray(THESIS_WEIGHTS[k][balance])
    margins = []
    while len(margins) < 2:
        draw = rng.multinomial(n, weights)
        if (draw > 0).all():
            margins.append(draw.astype(np.int64))
    return margins[0], margins[1]
