"""Text written once and shared by the docstrings: parameter blocks and references.

As scipy's ``doccer`` does for parameters.

``PARAMETERS`` maps a placeholder name to a numpydoc parameter block: a ``name : type`` line
and its description indented by four spaces. A docstring asks for a block with ``%(name)s``
on a line of its own, indented like the other parameters; ``@fill_doc`` puts the block there,
every line indented by the placeholder's indentation, when the module is imported (so
``help()`` and numpydoc see the full text). Names are the parameters they document, e.g.
``%(x, y)s``, ``%(seed)s`` or ``%(**options)s``; an unknown name is an error at import.
Lines after a placeholder indented as a description (eight spaces in a function) continue the
block's description: a function adds what is its own (a default, a batch of tables) there.

``REFERENCES`` maps a key to the full citation of a work cited in three or more places
(authors, year, "title", where published). A docstring cites it with ``{ref:key}`` anywhere
in a line, e.g. ``{ref:amorim2015}, Ch.4 Table 9.`` in a References section; ``fill`` puts
the citation there and wraps that line at 100 characters, with its indentation (so a source
line stays short and the rendered text reads as before). An unknown key is an error at import.
``cite(key)`` gives the citation to code (e.g. an index record's ``reference``); a module's
docstring is filled by ``__doc__ = fill(__doc__)`` after its imports.
Nothing else in the docstring changes: ``%`` signs and other braces are left alone.

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
>>> print(fill("    {ref:gates2017}, sec. 2."))
    Gates, A. J. & Ahn, Y.-Y. (2017), "The impact of random models on clustering similarity",
    Journal of Machine Learning Research 18, sec. 2.
"""

from __future__ import annotations

import re
import textwrap

__all__ = ["PARAMETERS", "REFERENCES", "cite", "fill", "fill_doc"]

#: The works cited in three or more places, by key (``{ref:key}`` in a docstring; ``cite``):
#: authors, year, "title" and where it was published, without a final period (a docstring
#: adds the chapter, the table or the pages it cites, then its own period).
REFERENCES: dict[str, str] = {
    "amorim2015": ('Amorim, M. J. (2015), "On clustering stability", PhD thesis, ISCTE - '
                   'University Institute of Lisbon'),
    "albatineh2011": ('Albatineh, A. N. & Niewiadomska-Bugaj, M. (2011), "Correcting Jaccard '
                      'and other similarity indices for chance agreement in cluster analysis", '
                      'Advances in Data Analysis and Classification 5, 179-200'),
    "gates2017": ('Gates, A. J. & Ahn, Y.-Y. (2017), "The impact of random models on '
                  'clustering similarity", Journal of Machine Learning Research 18'),
    "horta2015": ('Horta, D. & Campello, R. J. G. B. (2015), "Comparing hard and overlapping '
                  'clusterings", Journal of Machine Learning Research 16'),
    "hubert1985": ('Hubert, L. & Arabie, P. (1985), "Comparing partitions", Journal of '
                   'Classification 2'),
    "maitra2010": ('Maitra, R. & Melnykov, V. (2010), "Simulating data to study performance '
                   'of finite mixture modeling and clustering algorithms", Journal of '
                   'Computational and Graphical Statistics 19'),
    "melnykov2012": ('Melnykov, V., Chen, W.-C. & Maitra, R. (2012), "MixSim: an R package '
                     'for simulating data to study performance of clustering algorithms", '
                     'Journal of Statistical Software 51'),
    "patefield1981": ('Patefield, W. M. (1981), "Algorithm AS 159: An efficient method of '
                      'generating random R x C tables with given row and column totals", '
                      'Applied Statistics 30'),
    "lugannani1980": ('Lugannani, R. & Rice, S. (1980), "Saddle point approximation for the '
                      'distribution of the sum of independent random variables", Advances in '
                      'Applied Probability 12, 475-490'),
    "daniels1987": ('Daniels, H. E. (1987), "Tail probability approximations", International '
                    'Statistical Review 55, 37-48'),
    "tierney1986": ('Tierney, L. & Kadane, J. B. (1986), "Accurate approximations for '
                    'posterior moments and marginal densities", Journal of the American '
                    'Statistical Association 81, 82-86'),
}

#: The width of a docstring line that a citation was put in (the package's line length).
WIDTH = 100

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
    "noise": """\
noise : {"cluster", "singletons", "drop"} or Noise, optional
    How objects labelled as noise (-1, as DBSCAN and HDBSCAN mark them) are compared:
    "cluster" counts the noise label as one cluster, "singletons" makes each noise object a
    cluster of its own, "drop" leaves noise objects out (``ca.Noise`` sets another label or
    one side only, e.g. a reference unknown for some objects). Default: labels as given, with
    a ``NoiseLabelWarning`` when integer labels hold -1 beside labels >= 0. The result states
    the policy, the noise counts and how many objects were compared.""",
    "sample_weight": """\
sample_weight : array-like of shape (n,), optional
    A non-negative weight per object, as scikit-learn's metrics take it: whole numbers give
    exactly the results of repeating the objects; other weights give the indices of the
    table of weight sums (pair counts m (m - 1) / 2 of real m), which the null laws of
    integer tables do not cover (they refuse such weights by name).""",
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
    Index names or aliases (``ca.list_indices()``), a group ("common": ARI, AMI, NMI,
    Rand, Jaccard, Fowlkes-Mallows and VI; "paired", "simple", "pair counting",
    "information", "set matching", "fuzzy", "matrix", "overlapping", "all") or a list of
    them. An index that belongs to a requested group but is not defined
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
    "value, statistic": """\
value : float
    The observed value of the statistic.
statistic : {"s", "t"}, default "s"
    s = sum n_ij^2 (pair-counting indices) or t = sum n_ij log n_ij (information
    indices).""",
    "**options": """\
**options
    Options of the index (e.g. ``base=2``, ``average="max"``, ``simplified=True``;
    ``ca.list_indices()`` lists each index's options); with several indices each option
    goes to those that take it, and an option that no index takes is an error.""",
}

_PLACEHOLDER = re.compile(r"^(?P<indent>[ \t]*)%\((?P<name>[^)]+)\)s[ \t]*$", re.M)
_REFERENCE = re.compile(r"\{ref:(?P<key>[^{}]*)\}")
_NO_BREAK = "\N{NO-BREAK SPACE}"


def cite(key: str) -> str:
    """The full citation of a work of ``REFERENCES``.

    Parameters
    ----------
    key : str
        Its key, e.g. "amorim2015".

    Returns
    -------
    str
        Authors, year, "title" and where it was published, without a final period.

    Raises
    ------
    KeyError
        No work has this key.

    See Also
    --------
    fill : ``{ref:key}`` in a docstring.

    Examples
    --------
    >>> cite("hubert1985")
    'Hubert, L. & Arabie, P. (1985), "Comparing partitions", Journal of Classification 2'
    """
    if key not in REFERENCES:
        raise KeyError(f"no reference named {key!r}; known: {', '.join(REFERENCES)}")
    return REFERENCES[key]


def _cited(line: str) -> str:
    """A docstring line with its ``{ref:key}`` citations put in, wrapped at ``WIDTH``."""
    text = _REFERENCE.sub(lambda match: cite(match["key"]), line)
    if len(text) <= WIDTH:
        return text
    indent = text[:len(text) - len(text.lstrip())]
    # " - " (as in "ISCTE - University") never starts a line: it would read as a list item
    wrapped = textwrap.fill(text.strip().replace(" - ", f"{_NO_BREAK}-{_NO_BREAK}"), WIDTH,
                            initial_indent=indent, subsequent_indent=indent,
                            break_long_words=False, break_on_hyphens=False)
    return wrapped.replace(_NO_BREAK, " ")


def fill(doc: str | None, blocks: dict[str, str] | None = None) -> str | None:
    """Put the shared parameter blocks and citations into a docstring.

    Parameters
    ----------
    doc : str or None
        A docstring with ``%(name)s`` placeholders, each on a line of its own, and
        ``{ref:key}`` citations of ``REFERENCES``. None (Python run with ``-OO``) is returned
        as it is.
    blocks : dict, optional
        The blocks, by name (default ``PARAMETERS``).

    Returns
    -------
    str or None
        The docstring, each placeholder replaced by its block indented like the placeholder,
        each citation by the full reference (its line wrapped at 100 characters).

    Raises
    ------
    KeyError
        A placeholder names no block, or a citation no reference.

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

    doc = _PLACEHOLDER.sub(block, doc)
    if "{ref:" not in doc:
        return doc
    return "\n".join(_cited(line) if "{ref:" in line else line for line in doc.split("\n"))


def fill_doc(obj):
    """Decorator: fill a function's or a class's docstring from ``PARAMETERS``, ``REFERENCES``.

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
