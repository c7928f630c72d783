"""Confidence intervals: the index of the population the objects were drawn from.

The wing is built as ``clusteragree.nulls`` is, from the bottom up: ``_methods`` (the registry
of interval methods: what each needs, how it makes an interval), ``spec`` (``IntervalSpec``, the
checks of a level and a method and the random stream an interval draws from), ``result``
(``ConfidenceInterval``), ``resamples`` (the indices on the resampling batches of the input
records), the methods next to their algorithms (``jackknife``: "jackknife", and the pseudovalues
shared with the paired difference test; ``bootstrap``: "BCa" and "percentile"; ``rules``:
"auto") and ``engine`` (``confidence_interval`` and the batched intervals of ``compare``, which
take the spec whole). Nothing here imports the inference wing above it.
"""

from . import jackknife, bootstrap, rules  # noqa: F401 (the methods' records, in this order)
from ._methods import (Draws, IntervalMethod, get_interval_method, interval_methods,
                       register_interval_method)
from .engine import (confidence_interval, independence_laws, interval_from_draws, interval_of,
                     intervals_of)
from .result import ConfidenceInterval
from .spec import (CHUNK_CELLS, INDEPENDENCE_MODELS, IntervalSpec, check_level,
                   resampling_generator)

#: The interval methods (``interval_methods``): "auto" (the rules of
#: ``clusteragree.intervals.rules``), the jackknife t interval, and the two bootstrap intervals
#: as ``scipy.stats.bootstrap`` names them.
METHODS = tuple(interval_methods())

#: The methods that draw bootstrap resamples (the others use the jackknife alone).
BOOTSTRAP_METHODS = tuple(m for m in METHODS if get_interval_method(m).bootstrap)

__all__ = ["confidence_interval", "ConfidenceInterval", "IntervalSpec", "check_level",
           "resampling_generator", "interval_of", "intervals_of", "interval_from_draws",
           "independence_laws", "IntervalMethod", "Draws", "register_interval_method",
           "get_interval_method", "interval_methods", "METHODS", "BOOTSTRAP_METHODS",
           "INDEPENDENCE_MODELS", "CHUNK_CELLS"]
