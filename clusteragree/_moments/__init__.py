"""Exact null moments under fixed margins and the counts behind them (private, lowest layer).

* ``cells``: the law of one cell, Hypergeom(n, a_i, b_j), over a window holding all but a
  negligible part of it; E[sum n_ij log n_ij] (Vinh et al.'s expected mutual information) and
  E[sum n_ij^q];
* ``squares``: exact E and Var of s = sum n_ij^2 (the pair-counting indices), in rationals;
* ``mi_variance``: exact Var[MI] and Var[sum n_ij^q] from the joint laws of pairs of cells, with
  its time predicted from the margins;
* ``mari``: the exact moments of MARI's numerator and denominator;
* ``combinatorics``: Stirling and Bell numbers in log space, falling factorials, and counts of
  bounded compositions (the tables' columns).

Nothing here imports the rest of the package; the indices and the null methods use these.
"""
