"""Confidence intervals: the index of the population the objects were drawn from.

The wing is built as ``clusteragree.nulls`` is, from the bottom up: ``spec`` (``IntervalSpec``,
the methods' names, the checks of a level and the random stream an interval draws from),
``result`` (``ConfidenceInterval``), ``rules`` (the rules of ``method="auto"``) and ``engine``
(``confidence_interval`` and the batched intervals of ``compare``). Nothing here imports the
inference wing above it.
"""

from .engine import (confidence_interval, independence_laws, interval_from_draws, interval_of,
                      intervals_of)
from .result import ConfidenceInterval
from .spec import (BOOTSTRAP_METHODS, CHUNK_CELLS, INDEPENDENCE_MODELS, METHODS, IntervalSpec,
                   check_level, resampling_generator)

__all__ = ["confidence_interval", "ConfidenceInterval", "IntervalSpec", "check_level",
           "resampling_generator", "interval_of", "intervals_of", "interval_from_draws",
           "independence_laws", "METHODS", "BOOTSTRAP_METHODS", "INDEPENDENCE_MODELS",
           "CHUNK_CELLS"]
