"""Parameter text written once and shared by the docstrings (as scipy's ``doccer`` does).

``PARAMETERS`` maps a placeholder name to a numpydoc parameter block: a ``name : type`` line
and its description indented by four spaces. A docstring asks for a block with ``%(name)s``
on a line of its own, indented like the other parameters; ``@fill_doc`` puts the block there,
every line indented by the placeholder's indentation, when the module is imported (so
``help()`` and numpydoc see the full text). Names are the parameters they document, e.g.
``%(x, y)s``, ``%(seed)s`` or ``%(**options)s``; an unknown name is an error at import.
Lines after a placeholder indented as a description (eight spaces in a function) continue the
block's description: a function adds what is its own (a default, a batch of tables) there.
Nothing else in the docstring changes: ``%`` signs and braces elsewhere are left alone.

>>> @fill_doc
... def crosstab_like(x, y=None, *, data=None):
...     '''Cross-classify two labellings.
...
...     Parameters
...     ----------
...     %(x, y)s
...     %(data)s
...     '''
>>> print(crosstab_like.__doc__.splitlines()[4])
    x, y : array-like, Series, DataFrame, str or ContingencyTable
>>> fill("    %(seed)s").splitlines()[0]
'    seed : None, int, SeedSequence or Generator, optional'
"""

from __future__ import annotations

import re

__all__ = ["PARAMETERS", "fill", "fill_doc"]

#: Shared numpydoc parameter blocks, by placeholder name (unindented; ``fill`` indents them).
PARAMETERS: dict[str, str] = {
    "x, y": """\
x, y : array-like, Series, DataFrame, str or ContingencyTable
    The two clusterings of the same n objects: label vectors (``x`` gives the rows of the
    contingency table and ``y`` its columns; in validation pass the reference classes as
    ``x``), membership matrices (objects x clusters: fuzzy, overlapping or possibilistic),
    covers (0/1 memberships or lists of sets of objects) or similarity matrices (n x n), as
    arrays or pandas objects; or two column names of ``data``. Each index takes the kinds of
    clustering its definition covers (``kinds`` in ``ca.list_indices()``) and refuses the
    others by name. Or ``x`` alone (``y=None``): a ContingencyTable or a K x Q table of
    counts.""",
    "data": """\
data : DataFrame, optional
    Read ``x`` and ``y`` as column names of ``data`` (one row per object); a Dask DataFrame
    (e.g. ``dask.dataframe.read_parquet``) is counted on Dask, partition by partition, for the
    indices of the contingency table.""",
    "dropna": """\
dropna : bool, default False
    Leave out the objects whose label is missing (NaN or None) in ``x`` or ``y``; by default
    a missing label is an error.""",
    "join": """\
join : {"exact", "inner"}, default "exact"
    How two pandas objects (Series of labels, DataFrames of memberships or similarity
    matrices) are paired: by their index, as pandas aligns. "exact" needs the same index
    labels (in any order); "inner" keeps the objects in both and warns how many were left
    out. A pandas object and an array, or two arrays, are paired by position.""",
    "index": """\
index : str or Index
    The index: a name or an alias of ``ca.list_indices()`` (e.g. "rand", "jaccard",
    "nmi_sqrt").""",
    "indices": """\
indices : str or list of str
    Index names or aliases (``ca.list_indices()``), a group ("paired", "simple",
    "pair counting", "information", "set matching", "fuzzy", "matrix", "overlapping",
    "all") or a list of them. An index that belongs to a requested group but is not defined
    for this input (e.g. kappa on a non-square table) is left out with a warning (NA in a
    table of results); an index named on its own raises instead.""",
    "method": """\
method : str, NullSpec or scipy.stats.PermutationMethod, default "auto"
    How the null law is obtained (``ca.nulls.list_nulls()``). "auto" (the default; None
    too) takes, for each test group (the indices that are functions of s = sum n_ij^2, those
    of t = sum n_ij log n_ij, the other indices), the exact law when its size estimated from
    the margins fits the budgets (``NullSpec``'s ``max_work`` and ``max_tables``), else Monte
    Carlo (17,000 Patefield tables under "perm", 17,000 random partitions under the other
    models, 999 permutations for indices of object pairs), and each result says which, as
    R's ``fisher.test`` computes exactly when it can. Under ``model="perm"``: "exact" (the
    exact law: a dynamic programme on s or t for the pair-counting and information indices,
    every table enumerated for the others; refused when too large), "hypergeometric"
    (closed-form mean and variance), "patefield" (random tables with the observed margins,
    Patefield's algorithm AS 159; the thesis' IADJUST) or "permutation" (random relabellings
    of y). Under the random-partition models: "exact" (the exact mean; the full law when n
    is small) or "simulation" (uniform random partitions). For indices of object pairs:
    "permutation" or "exact" (the exact mean). A ``ca.NullSpec`` gives the method with its
    settings (the exact methods' budgets, a one-sided model's reference, exhaustive
    permutations, a progress bar); scipy's ``PermutationMethod(n_resamples, rng=...)`` is
    read as ``NullSpec("permutation", n_sim=n_resamples, seed=rng)``, and
    ``n_resamples=np.inf`` as every permutation (``exhaustive=True``), as in scipy.""",
    "model": """\
model : {"perm", "num", "num1", "all", "all1", "objects", "pairs"}, optional
    The random model (Gates & Ahn 2017). Of partitions: "perm" (default), both margins fixed
    (one labelling randomly permuted against the other); "num", random partitions with the
    observed numbers of clusters, and "num1" the same with ``x`` fixed; "all", random
    partitions of any number of clusters, and "all1" the same with ``x`` fixed. Of object
    pairs (fuzzy memberships, similarity matrices): "objects" (their default) permutes y's
    objects (the Mantel / QAP null), "pairs" its pair values (Amodio et al.'s null).""",
    "n_sim": """\
n_sim : int, optional
    Monte Carlo size: random tables, permutations or partitions. Default: the method's own
    (``ca.nulls.list_nulls()``): 17,000 Patefield tables (the thesis' IADJUST), 999
    permutations, 17,000 random partitions. Only Monte Carlo methods (and "auto") take it.""",
    "seed": """\
seed : None, int, SeedSequence or Generator, optional
    The only source of randomness (``numpy.random.default_rng(seed)``): the same seed gives
    the same result. None draws fresh entropy.""",
    "progress": """\
progress : bool, default False
    Show a progress bar on long runs.""",
    "alternative": """\
alternative : {"greater", "less", "two-sided"}, optional
    The side of the test: "greater", the index is larger than by chance; "less", smaller;
    "two-sided" doubles the smaller one-sided p-value (capped at 1). Default: agreement
    above chance, "greater" for a similarity and "less" for a distance.""",
    "center": """\
center : "mean", "median" or float, default "mean"
    The null centre c of the chance adjustment: the null mean, the median, or a quantile
    level in [0, 1] (0.99: the 99th percentile).""",
    "base": """\
base : float, optional
    The base of the logarithms of the information indices (2: bits); None: natural logs
    (nats).""",
    "rows, cols": """\
rows, cols : array-like of int
    The row and column margins (the cluster sizes of x and of y), non-negative with equal
    totals; zeros are ignored.""",
    "**options": """\
**options
    Options of the index (e.g. ``base=2``, ``average="max"``, ``simplified=True``;
    ``ca.list_indices()`` lists each index's options); with several indices each option
    goes to those that take it, and an option that no index takes is an error.""",
}

_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)%\((?P<name>[^)]+)\)s[ \t]*$", re.M)


def fill(doc: str | None, blocks: dict[str, str] | None = None) -> str | None:
    """Put the shared parameter blocks into a docstring.

    Parameters
    ----------
    doc : str or None
        A docstring with ``%(name)s`` placeholders, each on a line of its own. None (Python
        run with ``-OO``) is returned as it is.
    blocks : dict, optional
        The blocks, by name (default ``PARAMETERS``).

    Returns
    -------
    str or None
        The docstring, each placeholder replaced by its block indented like the placeholder.

    Raises
    ------
    KeyError
        A placeholder names no block.

    See Also
    --------
    fill_doc : The decorator.

    Examples
    --------
    >>> print(fill("Parameters\\n----------\\n%(dropna)s"))
    Parameters
    ----------
    dropna : bool, default False
        Leave out the objects whose label is missing (NaN or None) in ``x`` or ``y``; by default
        a missing label is an error.
    """
    if doc is None:
        return None
    blocks = PARAMETERS if blocks is None else blocks

    def block(match):
        name, indent = match["name"], match["indent"]
        if name not in blocks:
            raise KeyError(f"no shared parameter text named {name!r}; known: "
                           f"{', '.join(blocks)}")
        return "\n".join(indent + line if line else line
                         for line in blocks[name].splitlines())

    return _PLACEHOLDER.sub(block, doc)


def fill_doc(obj):
    """Decorator: fill a function's or a class's docstring from ``PARAMETERS``.

    Parameters
    ----------
    obj : function or class
        What to document; its ``__doc__`` is filled in place.

    Returns
    -------
    function or class
        ``obj`` itself.

    See Also
    --------
    fill : The substitution.

    Examples
    --------
    >>> @fill_doc
    ... def f(seed=None):
    ...     '''Draw.
    ...
    ...     Parameters
    ...     ----------
    ...     %(seed)s
    ...     '''
    >>> "numpy.random.default_rng" in f.__doc__
    True
    """
    obj.__doc__ = fill(obj.__doc__)
    return obj
