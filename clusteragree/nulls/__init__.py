"""Agreement by chance: the full null distribution of any index, under the random model the
question asks for.

>>> nd = ca.nulls.null_distribution([[30, 20], [10, 20]], index="rand", method="exact")
>>> round(nd.mean, 5), nd.is_exact            # Amorim (2015), Table 8: 0.49968
(0.49968, True)

Random models (``model=``; Gates & Ahn 2017) and their methods (``method=``; the registry in
``_methods``, listed by ``ca.nulls.list_nulls()``):

* ``"perm"`` (default): both margins fixed, one labelling randomly permuted against the other.
  ``"exact"`` (the network-algorithm dynamic programme on s or t for pair-counting and
  information indices; enumeration of every table for the others), ``"hypergeometric"``
  (closed-form mean and variance for pair-counting and information indices), ``"patefield"`` (17,000 random tables,
  the thesis' IADJUST), ``"permutation"`` (999 random permutations; all of them when n <= 8);
  tail p-values beyond the Monte Carlo floor for indices affine in s or t: ``"importance"``
  (importance sampling of tilted tables) and ``"saddlepoint"`` (Lugannani-Rice on a Laplace
  cumulant generating function; refused outside its measured domain).
* ``"num"``, ``"num1"``, ``"all"``, ``"all1"``: random partitions with the observed numbers of
  clusters, or of any number of clusters, two-sided or with x fixed. ``"exact"`` (exact means
  from Stirling and Bell numbers; the full law by enumeration when n is small) and
  ``"simulation"`` (uniform random partitions, 17,000 by default).
* Indices of object pairs (fuzzy memberships, similarity matrices), ``model="objects"`` or
  ``"pairs"``: ``"permutation"`` and ``"exact"`` (the exact mean).

A method's settings (budgets of the exact methods, a one-sided model's reference, exhaustive
permutations, a progress bar) go in one ``NullSpec`` passed as ``method=``.
``method="auto"`` takes the exact law when it fits the budget, else Monte Carlo, and says so.
Every method returns a ``NullDistribution``.
"""

from __future__ import annotations

from . import exact, hypergeometric, partitions, patefield, permutation  # noqa: F401 (records)
from . import importance, saddlepoint  # noqa: F401 (records)
from . import approximations  # noqa: F401 (ca.nulls.approximations)
from ._methods import MODELS, get_method, get_model, list_nulls, register_method
from ._methods import NullMethod, Model, PARTITION_MODELS  # noqa: F401 (the models of partitions)
from .distribution import NullDistribution, n_sim_for
from .engine import null_distribution, null_distributions, plan, run
from .spec import ExactLawTooLarge, NullSpec  # noqa: F401 (the budget refusal)
from .enumeration import DEFAULT_MAX_TABLES, count_tables, enumerate_tables
from .network import statistic_law
from .hypergeometric import index_moments, moments_of_s
from .patefield import DEFAULT_N_SIM, random_tables

__all__ = ["null_distribution", "null_distributions", "NullDistribution", "NullSpec", "n_sim_for",
           "list_nulls", "MODELS", "Model", "NullMethod", "register_method", "get_method",
           "get_model", "plan", "run", "count_tables", "enumerate_tables", "statistic_law",
           "random_tables", "moments_of_s", "index_moments", "DEFAULT_N_SIM",
           "DEFAULT_MAX_TABLES"]
