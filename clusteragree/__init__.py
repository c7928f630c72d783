"""clusteragree: how much do two clusterings agree, and how much of that would chance alone give?

The public face of the package (see the README and the user guide in ``docs/guide/``):

>>> import clusteragree as ca
>>> tab = ca.crosstab([0, 0, 1, 1, 1], ["a", "a", "a", "b", "b"])
>>> round(ca.agreement(tab, index="rand"), 2)
0.6
"""

from . import nulls
from .nulls import NullSpec
from .studies import simulate, stability, study
from .datasets import list_datasets, load_dataset
from .indices import get_index, list_indices, mari_null_moments
from .indices.fuzzy import membership_kind
from .indices.matrices import coassociation
from .intervals import confidence_interval
from .difference import DifferenceTest, difference_test
from .interval_spec import IntervalSpec
from .inference import (AgreementTest, adjust, agreement, agreement_test, compare,
                        format_results, iadjust)
from .many_clusterings import AgreementMatrix, agreement_matrix
from .reports.runner import list_reports, report, report_parameters
from ._version import __version__ as __version__
from .tables import ContingencyTable, PairCounts
from .inputs import crosstab

__all__ = [
    "AgreementTest",
    "AgreementMatrix",
    "agreement_matrix",
    "ContingencyTable",
    "adjust",
    "agreement_test",
    "compare",
    "format_results",
    "iadjust",
    "list_reports",
    "report",
    "report_parameters",
    "nulls",
    "NullSpec",
    "simulate",
    "stability",
    "study",
    "PairCounts",
    "agreement",
    "confidence_interval",
    "DifferenceTest",
    "difference_test",
    "IntervalSpec",
    "coassociation",
    "membership_kind",
    "crosstab",
    "get_index",
    "list_indices",
    "mari_null_moments",
    "load_dataset",
    "list_datasets",
]
