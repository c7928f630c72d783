"""The inference wing: agreement, tests and their results, the paired difference, the matrix.

Built on the intervals, nulls and indices wings below it (never the reverse):

* ``agreement_tests`` -- ``agreement``, ``agreement_test``, ``adjust``, ``compare``, ``iadjust``;
* ``results`` -- ``AgreementTest`` and frames of many tests (the one result schema);
* ``pvalues`` -- ``PValue``, a test's p-value as one object, and ``PValueSpec``, its settings;
* ``beyond_floor`` -- p-values beyond the Monte Carlo floor (saddlepoint, importance sampling);
* ``difference`` and ``difference_results`` -- ``difference_test`` and ``DifferenceTest``;
* ``matrix`` and ``matrix_plots`` -- ``agreement_matrix`` and ``AgreementMatrix``, its plots;
* ``clusters`` and ``cluster_results`` -- ``cluster_agreement`` and ``ClusterAgreement``: which
  clusters agree;
* ``hierarchies`` and ``hierarchy_results`` -- ``compare_hierarchies`` and
  ``HierarchyComparison``: two trees at every cut, with pointwise and simultaneous bands;
* ``cophenetic`` -- ``cophenetic_test`` and ``CopheneticTest``: two trees' cophenetic
  correlation with a Mantel test, and Baker's gamma.
"""

from .agreement_tests import adjust, agreement, agreement_test, compare, format_results, iadjust
from .cluster_results import ClusterAgreement
from .clusters import cluster_agreement
from .cophenetic import CopheneticTest, cophenetic_test
from .difference import difference_test
from .difference_results import DifferenceTest
from .hierarchies import compare_hierarchies
from .hierarchy_results import HierarchyComparison
from .matrix import AgreementMatrix, agreement_matrix
from .results import RESULT_COLUMNS, AgreementTest, ResultsFrame, frame_notes

__all__ = ["agreement", "agreement_test", "adjust", "compare", "iadjust", "format_results",
           "AgreementTest", "ResultsFrame", "RESULT_COLUMNS", "frame_notes", "difference_test",
           "DifferenceTest", "agreement_matrix", "AgreementMatrix", "cluster_agreement",
           "ClusterAgreement", "compare_hierarchies", "HierarchyComparison",
           "cophenetic_test", "CopheneticTest"]
