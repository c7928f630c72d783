"""The one entry conversion: what a public function is given becomes one record.

Every public function turns its ``x`` and ``y`` (two label vectors, two pandas Series, ``data=``
with two column names, two membership matrices, covers, two similarity matrices, or one table)
into a ``Clusterings`` at its first line (``as_clusterings``), and only that record goes down:
nothing below converts or validates the clusterings again. Three clusterings (a reference and
two compared with it, ``difference_test``) become one ``ThreeWay`` (``triples``), and K
clusterings (``agreement_matrix``) one ``ManyClusterings`` (``many``), which gives the records
of its pairs and triples without converting again.

* ``labels``: one labelling checked; two paired, by position or by their pandas index;
* ``memberships``: membership matrices, their kind, covers given as lists of sets;
* ``matrices``: similarity, co-association and consensus matrices;
* ``crosstab``: the contingency table of two hard partitions;
* ``objects``: which objects are compared: noise labels (``Noise``), missing references,
  sample weights, and the ``Coverage`` every result states;
* ``clusterings``: the record, and the reading of the two clusterings for each index;
* ``triples`` and ``many``: the records of three and of K clusterings;
* ``resampling``: the records' resampling batches (objects left out, objects drawn).

The generic argument checks (choices, numbers, seeds, did-you-mean) are in ``_validate``.
"""

from __future__ import annotations

from .clusterings import Clusterings, as_clusterings
from .crosstab import crosstab
from .objects import Noise, NoiseLabelWarning
from .memberships import COVER_KIND, KIND_DEFINITIONS, KINDS, MATRIX_KIND, MEMBERSHIP_KINDS
from .resampling import CHUNK_CELLS, resampled_pair
from .trees import Hierarchy, as_hierarchy

#: The entry's public face; the readers below (labels, memberships, matrices) are imported by
#: name by the index catalogue, which checks the kinds of clustering each index takes.
__all__ = ["Clusterings", "as_clusterings", "crosstab", "Noise", "NoiseLabelWarning", "KINDS", "KIND_DEFINITIONS",
           "MEMBERSHIP_KINDS", "COVER_KIND", "MATRIX_KIND", "CHUNK_CELLS", "resampled_pair",
           "Hierarchy", "as_hierarchy"]
