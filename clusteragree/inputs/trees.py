"""Hierarchical clusterings (trees) as inputs, converted once into a ``Hierarchy`` record.

A tree may be given as

* a scipy linkage matrix (``scipy.cluster.hierarchy.linkage``), checked by scipy's
  ``is_valid_linkage``;
* a fitted scikit-learn ``AgglomerativeClustering`` with ``distances_`` (fitted with
  ``compute_distances=True`` or a ``distance_threshold``) and the full tree: its linkage is
  built from ``children_``, ``distances_`` and the leaf counts of the merges (scikit-learn is
  never imported: the object is known by its attributes);
* a sequence of nested partitions (label vectors, or pandas Series sharing one index, or the
  columns of a DataFrame), checked nested: each finer partition's clusters lie within one
  cluster of each coarser one;
* a ``Hierarchy`` (returned as it is).

The cut of a linkage into k clusters is the partition after its first n - k merges, in the
order of the linkage's rows, as scipy's ``cut_tree`` and R's ``cutree(k = )`` make it: every
cut has exactly k clusters, whatever the ties of the heights. The heights are not used by the
cuts; a tree whose heights decrease somewhere (an inversion, as centroid and median linkage
make) is flagged (``Hierarchy.monotone``) and refused where heights matter
(``Hierarchy.check_monotone``). The leaves are aligned by label when both trees name them
(``align_hierarchies``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._display import integer_ranges

__all__ = ["Hierarchy", "as_hierarchy", "align_hierarchies", "is_hierarchy_like"]


def _is_agglomerative(obj) -> bool:
    """A fitted scikit-learn ``AgglomerativeClustering`` (or an object shaped like one)."""
    return hasattr(obj, "children_") and hasattr(obj, "labels_") and hasattr(obj, "n_leaves_")


def is_hierarchy_like(obj) -> bool:
    """Whether ``obj`` looks like a tree ``as_hierarchy`` reads (a Hierarchy, a fitted
    AgglomerativeClustering, a 2-D array of 4 columns, a list of label vectors or a
    DataFrame).

    Parameters
    ----------
    obj : object
        Anything.

    Returns
    -------
    bool
        True when ``as_hierarchy`` would try to read it as a tree.

    See Also
    --------
    as_hierarchy : Read it.

    Examples
    --------
    >>> is_hierarchy_like([[0, 0, 1, 1], [0, 1, 2, 2]]), is_hierarchy_like(3)
    (True, False)
    """
    if isinstance(obj, (Hierarchy, pd.DataFrame)) or _is_agglomerative(obj):
        return True
    if isinstance(obj, np.ndarray):
        return obj.ndim == 2
    return isinstance(obj, Sequence) and not isinstance(obj, str) and len(obj) > 0


def _check_linkage(Z, name: str) -> np.ndarray:
    """A valid scipy linkage matrix, as float64, or a ValueError naming what is wrong."""
    from scipy.cluster.hierarchy import is_valid_linkage

    Z = np.asarray(Z, dtype=float)
    if Z.ndim != 2 or Z.shape[1] != 4:
        raise ValueError(f"{name}: a linkage matrix has 4 columns (shape (n - 1, 4)), got "
                         f"shape {Z.shape}")
    if Z.shape[0] < 1:
        raise ValueError(f"{name}: a linkage matrix needs at least one merge (n >= 2 leaves)")
    try:
        is_valid_linkage(Z, throw=True, name=name)
    except (ValueError, TypeError) as err:
        raise ValueError(f"{name} is not a valid linkage matrix: {err}") from None
    return Z


def _linkage_of_agglomerative(model, name: str) -> np.ndarray:
    """The scipy linkage of a fitted AgglomerativeClustering: children_, distances_ and the
    leaf counts of its merges (node n + i is the i-th merge, as in scipy)."""
    children = np.asarray(model.children_, dtype=np.int64)
    n = int(model.n_leaves_)
    distances = getattr(model, "distances_", None)
    if distances is None:
        raise ValueError(f"{name}: this AgglomerativeClustering has no distances_ (the merge "
                         "heights): fit it with compute_distances=True (or a distance_threshold)")
    if children.shape != (n - 1, 2):
        raise ValueError(f"{name}: this AgglomerativeClustering holds {children.shape[0]} "
                         f"merges of {n} leaves, not the full tree's {n - 1}: fit it with "
                         "compute_full_tree=True")
    counts = np.ones(2 * n - 1, dtype=np.int64)
    for i, (c1, c2) in enumerate(children):
        counts[n + i] = counts[c1] + counts[c2]
    Z = np.column_stack([children.astype(float), np.asarray(distances, dtype=float),
                         counts[n:].astype(float)])
    return _check_linkage(Z, name)


def _partition_codes(labels, name: str) -> np.ndarray:
    codes = pd.factorize(pd.Series(np.asarray(labels, dtype=object)), sort=True)[0]
    if (codes < 0).any():
        raise ValueError(f"{name}: missing labels (NaN or None) in a partition of the tree")
    return codes


def _check_nested(levels: dict, name: str) -> None:
    """Each finer partition refines the next coarser one (its clusters lie within one of it)."""
    ks = sorted(levels)
    for fine, coarse in zip(ks[1:], ks[:-1]):
        f, c = levels[fine], levels[coarse]
        pairs = np.unique(f.astype(np.int64) * (coarse + 1) + c)
        if len(pairs) != fine:
            split = np.bincount(pairs // (coarse + 1), minlength=fine)
            bad = int(np.flatnonzero(split > 1)[0])
            raise ValueError(
                f"{name}: the partitions are not nested: a cluster of the partition into "
                f"{fine} clusters (its objects at positions "
                f"{np.flatnonzero(f == bad)[:5].tolist()}...) lies across "
                f"{int(split[bad])} clusters of the partition into {coarse}")


def _read_partitions(tree, name: str):
    """(levels {k: codes}, leaves or None) of a sequence of nested partitions."""
    if isinstance(tree, pd.DataFrame):
        columns = [tree[c] for c in tree.columns]
    elif isinstance(tree, np.ndarray):
        columns = list(tree)
    else:
        columns = list(tree)
    if not columns:
        raise ValueError(f"{name}: no partitions given")
    series = [c for c in columns if isinstance(c, pd.Series)]
    leaves = None
    if series:
        if len(series) != len(columns):
            raise ValueError(f"{name}: give every partition as a pandas Series, or none")
        leaves = series[0].index
        if leaves.has_duplicates:
            raise ValueError(f"{name}: duplicate leaf labels in the partitions' index")
        for s in series[1:]:
            if not s.index.equals(leaves):
                if set(s.index) != set(leaves) or len(s.index) != len(leaves):
                    raise ValueError(f"{name}: the partitions do not have the same leaves "
                                     "(their pandas indexes differ)")
        columns = [s.reindex(leaves).to_numpy() for s in series]
    lengths = {len(np.asarray(c).ravel()) for c in columns}
    if len(lengths) != 1:
        raise ValueError(f"{name}: the partitions have different numbers of leaves "
                         f"{sorted(lengths)}")
    levels: dict[int, np.ndarray] = {}
    for j, col in enumerate(columns):
        arr = np.asarray(col, dtype=object)
        if arr.ndim != 1:
            raise ValueError(f"{name}: partition {j} is not a label vector (shape {arr.shape})")
        codes = _partition_codes(arr, f"{name}[{j}]")
        k = int(codes.max()) + 1
        if k in levels and not _same_partition(levels[k], codes):
            raise ValueError(f"{name}: two different partitions into {k} clusters: the "
                             "partitions are not nested")
        levels[k] = codes
    _check_nested(levels, name)
    return levels, leaves


def _same_partition(a: np.ndarray, b: np.ndarray) -> bool:
    return len(np.unique(a.astype(np.int64) * (b.max() + 1) + b)) == a.max() + 1 == b.max() + 1


class Hierarchy:
    """A hierarchical clustering of n leaves, read once (build it with ``as_hierarchy``).

    A tree given as a linkage (or a fitted AgglomerativeClustering) has a cut for every k
    from 1 to n; a sequence of nested partitions has the cuts it was given.

    Parameters
    ----------
    n : int
        The number of leaves.
    linkage : numpy.ndarray, optional
        The scipy linkage matrix (n - 1, 4), checked; None for a sequence of partitions.
    levels : dict, optional
        {k: label codes 0..k-1} of a sequence of nested partitions, checked nested.
    leaves : pandas.Index, optional
        The leaves' labels (None: leaves known by position).
    name : str, default "tree"
        The tree's name, for messages and printing.
    source : str, default "linkage"
        What the tree was given as: "linkage", "AgglomerativeClustering" or "partitions".

    Attributes
    ----------
    n : int
        As given.
    linkage : numpy.ndarray or None
        As given.
    leaves : pandas.Index or None
        As given (in the order of the leaves after alignment).
    name, source : str
        As given.

    See Also
    --------
    as_hierarchy : Read a tree.
    clusteragree.compare_hierarchies : Two trees compared at every cut.

    Examples
    --------
    >>> from scipy.cluster.hierarchy import linkage
    >>> tree = as_hierarchy(linkage([[0.0], [0.1], [1.0], [1.2], [5.0]], "single"))
    >>> tree.n, tree.cut(2).tolist(), tree.cut(3).tolist()
    (5, [0, 0, 0, 0, 1], [0, 0, 1, 1, 2])
    """

    def __init__(self, n: int, linkage=None, levels=None, leaves=None, name: str = "tree",
                 source: str = "linkage"):
        self.n = int(n)
        self.linkage = linkage
        self._levels = levels
        self.leaves = leaves
        self.name = str(name)
        self.source = source
        self._order = None  # positions of the given leaves, in the aligned order

    @property
    def ks(self) -> np.ndarray:
        """The numbers of clusters the tree can be cut into, increasing."""
        if self.linkage is not None:
            return np.arange(1, self.n + 1)
        return np.array(sorted(self._levels))

    @property
    def order(self) -> np.ndarray | None:
        """The given leaf of each object, in the aligned order (None: the order given)."""
        return self._order

    @property
    def monotone(self) -> bool | None:
        """Whether the merge heights never decrease from one merge to the next (None: a
        sequence of partitions, which has no heights)."""
        if self.linkage is None:
            return None
        return bool(np.all(np.diff(self.linkage[:, 2]) >= 0))

    def check_monotone(self, what: str) -> None:
        """Refuse a tree whose heights decrease somewhere, for a use where they matter.

        Parameters
        ----------
        what : str
            What the heights are needed for (said in the message).

        Raises
        ------
        ValueError
            The tree is a sequence of partitions (no heights), or a merge is lower than the
            merge before it (an inversion, as centroid and median linkage make).
        """
        if self.linkage is None:
            raise ValueError(f"{self.name}: {what} needs merge heights; a sequence of "
                             "partitions has none (give a linkage)")
        drops = np.flatnonzero(np.diff(self.linkage[:, 2]) < 0)
        if len(drops):
            i = int(drops[0]) + 1
            raise ValueError(f"{self.name}: {what} needs monotone merge heights, but merge {i} "
                             f"is at height {self.linkage[i, 2]:.6g}, below merge {i - 1}'s "
                             f"{self.linkage[i - 1, 2]:.6g} (an inversion, as centroid and "
                             "median linkage make)")

    def cuts(self, ks) -> np.ndarray:
        """The cuts of the tree into each k of ``ks`` clusters, as label codes.

        Parameters
        ----------
        ks : sequence of int
            Numbers of clusters (among ``self.ks``).

        Returns
        -------
        numpy.ndarray
            Shape (len(ks), n), int: row i labels the leaves 0..ks[i]-1.

        Raises
        ------
        ValueError
            A k the tree has no cut into (out of 1..n, or not among the given partitions).
        """
        ks = [int(k) for k in np.atleast_1d(ks)]
        available = set(self.ks.tolist())
        missing = [k for k in ks if k not in available]
        if missing:
            raise ValueError(f"{self.name} has no cut into {missing} clusters (it has "
                             f"{integer_ranges(sorted(available))})")
        if self.linkage is None:
            out = np.stack([self._levels[k] for k in ks]) if ks else np.empty((0, self.n), int)
        else:
            out = _linkage_cuts(self.linkage, self.n, ks)
        return out if self._order is None else out[:, self._order]

    def cut(self, k: int) -> np.ndarray:
        """The cut of the tree into k clusters, as label codes 0..k-1.

        Parameters
        ----------
        k : int
            The number of clusters.

        Returns
        -------
        numpy.ndarray
            The n labels (int).
        """
        return self.cuts([k])[0]

    def reordered(self, order, leaves=None) -> Hierarchy:
        """The same tree with its leaves put in another order.

        Parameters
        ----------
        order : array-like of int
            Position i of the new order is leaf ``order[i]`` of this tree.
        leaves : pandas.Index, optional
            The leaves' labels in the new order.

        Returns
        -------
        Hierarchy
            A new record; this one is unchanged.
        """
        new = Hierarchy(self.n, self.linkage, self._levels, leaves, self.name, self.source)
        order = np.asarray(order, dtype=np.int64)
        new._order = order if self._order is None else self._order[order]
        return new

    def describe(self) -> str:
        """The tree in words: its name, what it was given as and its leaves.

        Returns
        -------
        str
            For example "ward (linkage, n = 150 leaves)".
        """
        cuts = "" if self.linkage is not None else f", {len(self._levels)} cuts"
        return f"{self.name} ({self.source}, n = {self.n} leaves{cuts})"

    def __repr__(self) -> str:
        return f"Hierarchy({self.describe()})"


def _linkage_cuts(Z: np.ndarray, n: int, ks: list[int]) -> np.ndarray:
    """The cuts of a linkage into each k clusters, in one sweep of its merges (row order).

    Each leaf holds the id of its cluster's representative; a merge relabels the smaller
    cluster's leaves (O(n log n) relabellings in all); at k clusters the live representatives
    are numbered 0..k-1 in increasing order of id (O(n) per cut).
    """
    out = np.empty((len(ks), n), dtype=np.int64)
    want: dict[int, list[int]] = {}
    for i, k in enumerate(ks):
        want.setdefault(n - k, []).append(i)  # after n - k merges
    labels = np.arange(n, dtype=np.int64)
    members: list = [np.array([i]) for i in range(n)] + [None] * (n - 1)
    rep = np.arange(2 * n - 1, dtype=np.int64)  # node -> the representative leaf id
    alive = np.ones(n, dtype=bool)  # representatives alive (indexed by leaf id)
    lookup = np.empty(n, dtype=np.int64)

    def record(step):
        for i in want.get(step, ()):
            live = np.flatnonzero(alive)
            lookup[live] = np.arange(len(live))
            out[i] = lookup[labels]

    record(0)
    for step, (c1, c2) in enumerate(Z[:, :2].astype(np.int64), start=1):
        m1, m2 = members[c1], members[c2]
        big, small = (c1, c2) if len(m1) >= len(m2) else (c2, c1)
        r = rep[big]
        labels[members[small]] = r
        alive[rep[small]] = False
        rep[n + step - 1] = r
        members[n + step - 1] = np.concatenate([members[big], members[small]])
        members[c1] = members[c2] = None
        record(step)
    return out


def as_hierarchy(tree, name: str = "tree", leaves=None) -> Hierarchy:
    """Read a tree: a scipy linkage, a fitted AgglomerativeClustering or nested partitions.

    Parameters
    ----------
    tree : array-like, AgglomerativeClustering, sequence of label vectors, DataFrame or Hierarchy
        A scipy linkage matrix (n - 1, 4); a fitted scikit-learn ``AgglomerativeClustering``
        with ``distances_`` and the full tree; a sequence of nested partitions (label
        vectors, or pandas Series sharing one index) or a DataFrame of them (one column a
        partition); or a ``Hierarchy`` (returned as it is, renamed if ``name`` is given).
    name : str, default "tree"
        The tree's name, for messages and printing.
    leaves : array-like, optional
        The leaves' labels, in the order of the linkage's leaves 0..n-1 (partitions given as
        Series are labelled by their index); two trees whose leaves are labelled are aligned
        by label (``align_hierarchies``).

    Returns
    -------
    Hierarchy
        The record.

    Raises
    ------
    ValueError
        An invalid linkage (scipy's message said), an AgglomerativeClustering without
        ``distances_`` or the full tree, partitions that are not nested or do not have the
        same leaves, or leaf labels that are duplicated or of the wrong length.
    TypeError
        Something that is not a tree.

    See Also
    --------
    Hierarchy : The record.
    clusteragree.compare_hierarchies : Two trees compared at every cut.

    References
    ----------
    Fowlkes, E. B. & Mallows, C. L. (1983), "A method for comparing two hierarchical
    clusterings", Journal of the American Statistical Association 78, 553-569.

    Examples
    --------
    >>> tree = as_hierarchy([[0, 0, 0, 1], [0, 0, 1, 2], [0, 1, 2, 3]], name="nested")
    >>> tree.ks.tolist(), tree.cut(2).tolist()
    ([2, 3, 4], [0, 0, 0, 1])
    >>> as_hierarchy([[0, 0, 1, 1], [0, 1, 1, 2]])
    Traceback (most recent call last):
    ...
    ValueError: tree: the partitions are not nested: a cluster of the partition into 3 clusters (its objects at positions [1, 2]...) lies across 2 clusters of the partition into 2
    """
    if isinstance(tree, Hierarchy):
        out = tree
    elif _is_agglomerative(tree):
        Z = _linkage_of_agglomerative(tree, name)
        out = Hierarchy(Z.shape[0] + 1, linkage=Z, name=name, source="AgglomerativeClustering")
    elif isinstance(tree, np.ndarray) and tree.ndim == 2 and tree.shape[1] == 4 \
            and np.issubdtype(tree.dtype, np.floating):
        Z = _check_linkage(tree, name)
        out = Hierarchy(Z.shape[0] + 1, linkage=Z, name=name, source="linkage")
    elif isinstance(tree, (pd.DataFrame, np.ndarray)) or (
            isinstance(tree, Sequence) and not isinstance(tree, str) and len(tree) > 0
            and all(np.ndim(c) == 1 for c in tree)):
        levels, labelled = _read_partitions(tree, name)
        n = len(next(iter(levels.values())))
        if labelled is None and isinstance(tree, pd.DataFrame):
            labelled = tree.index
        out = Hierarchy(n, levels=levels, leaves=labelled, name=name, source="partitions")
    else:
        raise TypeError(f"{name}: a tree is a scipy linkage matrix, a fitted "
                        "AgglomerativeClustering or a sequence of nested partitions, not "
                        f"{type(tree).__name__}")
    if leaves is not None:
        leaves = pd.Index(leaves)
        if len(leaves) != out.n:
            raise ValueError(f"{name}: {len(leaves)} leaf labels for {out.n} leaves")
        if leaves.has_duplicates:
            raise ValueError(f"{name}: duplicate leaf labels")
        out = out.reordered(np.arange(out.n), leaves)
    if name != "tree" and out.name != name:
        out = out.reordered(np.arange(out.n), out.leaves)
        out.name = name
    return out


def align_hierarchies(a: Hierarchy, b: Hierarchy) -> tuple[Hierarchy, Hierarchy]:
    """Put two trees' leaves in one order: by label when both are labelled, else by position.

    Parameters
    ----------
    a, b : Hierarchy
        The two trees.

    Returns
    -------
    (Hierarchy, Hierarchy)
        ``a`` as it is, and ``b`` with its leaves in ``a``'s order.

    Raises
    ------
    ValueError
        Different numbers of leaves, or labelled leaves that differ (some named).

    See Also
    --------
    as_hierarchy : Read a tree.

    Examples
    --------
    >>> import pandas as pd
    >>> a = as_hierarchy([pd.Series([0, 0, 1], index=["u", "v", "w"])], name="a")
    >>> b = as_hierarchy([pd.Series([0, 1, 1], index=["w", "u", "v"])], name="b")
    >>> align_hierarchies(a, b)[1].cut(2).tolist()
    [1, 1, 0]
    """
    if a.n != b.n:
        raise ValueError(f"the trees have different leaves: {a.name} has {a.n}, {b.name} "
                         f"has {b.n}")
    if a.leaves is None or b.leaves is None:
        return a, b
    if a.leaves.equals(b.leaves):
        return a, b
    only_a = a.leaves.difference(b.leaves)
    only_b = b.leaves.difference(a.leaves)
    if len(only_a) or len(only_b):
        raise ValueError(f"the trees have different leaves: {len(only_a)} only in {a.name} "
                         f"({list(only_a[:3])}...), {len(only_b)} only in {b.name} "
                         f"({list(only_b[:3])}...)")
    return a, b.reordered(b.leaves.get_indexer(a.leaves), a.leaves)
