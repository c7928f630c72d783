"""The thesis' studies, built on the core (tables, indices, nulls, inference):

* ``grid``: the one runner of every study: the design grid (cells x replications, their seeds,
  one progress bar) that ``simulate.design``, ``null_shapes`` and ``approximations`` share, and
  the execution of tasks serially, in local processes or on Dask (``run_tasks``, ``study``'s);
* ``simulate``: the 540-data-set simulation design and its Gaussian mixtures;
* ``mixture_overlap``: the overlap of a mixture's components (MixSim's definition);
* ``stability``: weighted cross-validation and subsampling stability;
* ``cluster_stability``: the stability of each cluster under resampling (Hennig 2007, fpc's
  ``clusterboot``); its function and result class are this package's ``cluster_stability``
  and ``ClusterStability`` (and ``ca.cluster_stability``, ``ca.ClusterStability``);
* ``study``: the design x algorithms x indices study (its units run by ``grid.run_tasks``);
  ``store``: its results, one file per unit in the study's folder, read back and resumed;
  ``study_results``: its summaries in the thesis' tables;
* ``null_shapes``: the shapes of the paired indices' null laws across the design;
* ``power``: the power of the package's tests and the sample size a study needs
  (``populations``: the tables studies are drawn from; ``power_analytic``,
  ``power_simulation``: the two ways; ``power_results``: ``PowerCalculation``);
* ``approximations``: the regression approximations of the null means of Jaccard,
  Gower-Legendre and Sokal-Sneath 2 refitted over the design, against the published ones and
  the exact identities (those two are the core's, ``clusteragree.nulls.approximations``).

{ref:amorim2015}.
"""

from .._docs import fill
from .clusterwise import ClusterStability, cluster_stability
from .populations import Population, population, population_value, relabel_population
from .power import power, sample_size
from .power_results import PowerCalculation

__all__ = ["ClusterStability", "cluster_stability", "power", "sample_size", "PowerCalculation",
           "Population", "population", "relabel_population", "population_value"]

__doc__ = fill(__doc__)
