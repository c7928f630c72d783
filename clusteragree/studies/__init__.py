"""The thesis' studies, built on the core (tables, indices, nulls, inference):

* ``grid``: the design-grid runner (cells x replications, their seeds, one progress bar) that
  ``simulate.design``, ``null_shapes`` and ``approximations`` share;
* ``simulate``: the 540-data-set simulation design and its Gaussian mixtures;
* ``mixture_overlap``: the overlap of a mixture's components (MixSim's definition);
* ``stability``: weighted cross-validation and subsampling stability;
* ``study``: the design x algorithms x indices runner (serial, processes or Dask), with its
  resumable folder; ``study_results``: its summaries in the thesis' tables;
* ``null_shapes``: the shapes of the paired indices' null laws across the design;
* ``approximations``: the regression approximations of the null means of Jaccard,
  Gower-Legendre and Sokal-Sneath 2 refitted over the design, against the published ones and
  the exact identities (those two are the core's, ``clusteragree.nulls.approximations``).

{ref:amorim2015}.
"""

from .._docs import fill

__doc__ = fill(__doc__)
