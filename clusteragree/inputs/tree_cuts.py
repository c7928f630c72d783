"""The pair counts of two trees' cuts at every k at once: one pass over their merges.

Cut two trees of n leaves after m merges each (k = n - m clusters). The pairs of leaves
together in both cuts are the pairs together in one cell of the cuts' contingency table,
a11 = sum_ij C(n_ij, 2). From one cut to the next each tree merges two clusters, and the
table's cells merge: when tree a joins its rows i and i', each column j's cells n_ij and
n_i'j become one, and a11 grows by n_ij n_i'j (the pairs newly together in both); tree b's
merge joins two columns likewise. The pass keeps the non-zero cells in linked lists by row
and by column, with a hash map from (row, column) to its cell, and merges the smaller row
(or column) into the larger, so each cell moves O(log n) times: a11 at every k of trees of
n leaves in O(n log n) operations, where cutting and tabulating each k costs O(n) apiece,
O(n^2) in all. The pass is compiled by numba (a loop of hash-map operations that numpy
cannot vectorise). The margins' pair counts and power sums follow from the cluster sizes
of each merge (``size_power_sums``).

The joint permutation null of two trees (tree b's leaves relabelled at random, every cut
of b at once) is this pass with tree b's leaves permuted (``perm``).
"""

from __future__ import annotations

import numpy as np

from .trees import Hierarchy

__all__ = ["pairs_together_by_merges", "size_power_sums", "merge_children", "leaf_ids",
           "merge_arrays", "passes"]


def merge_children(tree: Hierarchy) -> tuple[list[int], list[int]]:
    """The two children of each merge of a tree given as a linkage (scipy's node ids: leaves
    0..n-1, merge i makes node n + i), as Python lists for the pass.

    Parameters
    ----------
    tree : Hierarchy
        A tree with a linkage (a sequence of partitions has no merges).

    Returns
    -------
    (list of int, list of int)
        The first and the second child of each merge, in the linkage's row order.

    Raises
    ------
    ValueError
        The tree is a sequence of partitions.
    """
    if tree.linkage is None:
        raise ValueError(f"{tree.name}: the pass over the merges needs a tree given as a "
                         "linkage (or an AgglomerativeClustering), not a sequence of partitions")
    Z = tree.linkage
    return Z[:, 0].astype(np.int64).tolist(), Z[:, 1].astype(np.int64).tolist()


def leaf_ids(tree: Hierarchy) -> np.ndarray:
    """The linkage's leaf id of each object, in the aligned order of the objects."""
    return np.arange(tree.n, dtype=np.int64) if tree.order is None else np.asarray(tree.order)


def size_power_sums(tree: Hierarchy, powers=(2, 3)) -> dict[int, np.ndarray]:
    """sum_i a_i^p over the clusters of the tree after m merges, for m = 0..n-1.

    A merge of clusters of x and y leaves changes sum a^p by (x + y)^p - x^p - y^p, so the
    sums are n plus a cumulative sum over the merges (exact integers: int64 while n^p fits,
    Python integers beyond).

    Parameters
    ----------
    tree : Hierarchy
        A tree given as a linkage.
    powers : sequence of int, default (2, 3)
        The powers p.

    Returns
    -------
    dict
        {p: array of length n}, entry m after m merges (k = n - m clusters).

    Examples
    --------
    >>> from scipy.cluster.hierarchy import linkage
    >>> from clusteragree.inputs.trees import as_hierarchy
    >>> tree = as_hierarchy(linkage([[0.0], [0.1], [1.0], [1.2], [5.0]], "single"))
    >>> size_power_sums(tree)[2].tolist()        # sizes 1x5, 2+1x3, 2+2+1, 4+1, 5
    [5, 7, 9, 17, 25]
    """
    a, b = merge_children(tree)
    n = tree.n
    size = np.ones(2 * n - 1, dtype=np.int64)
    size[n:] = tree.linkage[:, 3].astype(np.int64)
    x, y = size[np.asarray(a, dtype=np.int64)], size[np.asarray(b, dtype=np.int64)]
    out = {}
    for p in powers:
        if float(n) ** p < 2.0 ** 62:
            inc = (x + y) ** p - x ** p - y ** p
            out[p] = np.concatenate([[n], n + np.cumsum(inc)])
        else:
            xo, yo = x.astype(object), y.astype(object)
            inc = (xo + yo) ** p - xo ** p - yo ** p
            out[p] = np.concatenate([[n], n + np.cumsum(inc)]).astype(object)
    return out


def pairs_together_by_merges(a: Hierarchy, b: Hierarchy, perm=None,
                             children=None) -> np.ndarray:
    """a11 = sum_ij C(n_ij, 2) of the cuts of two trees after m merges each, m = 0..n-1.

    Parameters
    ----------
    a, b : Hierarchy
        Two trees given as linkages, on the same leaves (aligned: ``align_hierarchies``).
    perm : array-like of int, optional
        A permutation of the objects: object i takes tree b's leaf of object ``perm[i]``
        (tree b's leaves relabelled at random: the joint permutation null of every cut).
    children : tuple, optional
        ``merge_arrays(a, b)``, computed once by a caller that makes many passes.

    Returns
    -------
    numpy.ndarray
        int64 array of length n: entry m is the number of pairs of leaves together in both
        cuts after m merges (k = n - m clusters); entry 0 is 0 and entry n - 1 is C(n, 2).

    Examples
    --------
    >>> from scipy.cluster.hierarchy import linkage
    >>> from clusteragree.inputs.trees import as_hierarchy
    >>> x = [[0.0], [0.1], [1.0], [1.2], [5.0]]
    >>> a = as_hierarchy(linkage(x, "single"))
    >>> b = as_hierarchy(linkage([[0.0], [3.0], [3.1], [9.0], [9.2]], "single"))
    >>> pairs_together_by_merges(a, b).tolist()
    [0, 0, 0, 3, 10]
    """
    arrays = merge_arrays(a, b) if children is None else children
    n = a.n
    perms = np.arange(n, dtype=np.int64)[None, :] if perm is None else \
        np.asarray(perm, dtype=np.int64)[None, :]
    return passes(arrays, perms, np.arange(n, dtype=np.int64))[0]


def merge_arrays(a: Hierarchy, b: Hierarchy) -> tuple:
    """The arrays a pass reads: both trees' merge children and leaf ids (int64).

    Parameters
    ----------
    a, b : Hierarchy
        Two trees given as linkages, aligned.

    Returns
    -------
    tuple of numpy.ndarray
        (a's first children, a's second children, b's first, b's second, a's leaf id of
        each object, b's leaf id of each object).
    """
    (ax, ay), (bx, by) = merge_children(a), merge_children(b)
    return tuple(np.asarray(v, dtype=np.int64) for v in (ax, ay, bx, by)) + (
        leaf_ids(a).astype(np.int64), leaf_ids(b).astype(np.int64))


def passes(arrays: tuple, perms: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """a11 after each of ``steps`` merges, for each permutation of tree b's leaves.

    Parameters
    ----------
    arrays : tuple
        ``merge_arrays(a, b)``.
    perms : numpy.ndarray
        (P, n) int64: row p is a permutation of the objects (object i takes tree b's leaf of
        object ``perms[p, i]``); the identity for the observed trees.
    steps : numpy.ndarray
        int64 numbers of merges (0..n-1) at which a11 is kept.

    Returns
    -------
    numpy.ndarray
        (P, len(steps)) int64.
    """
    ax, ay, bx, by, la, lb = arrays
    return _compiled()(ax, ay, bx, by, la, lb, np.ascontiguousarray(perms, dtype=np.int64),
                       np.ascontiguousarray(steps, dtype=np.int64))


_COMPILED: list = []


def _compiled():
    """The pass compiled by numba, on first use (importing numba takes half a second that
    the rest of the package need not pay); numba caches the machine code on disk."""
    if not _COMPILED:
        from numba import njit, types
        from numba.typed import Dict

        globals().update(Dict=Dict, types=types)
        globals()["_one_pass_compiled"] = njit(cache=True)(_one_pass)
        _COMPILED.append(njit(cache=True)(_passes))
    return _COMPILED[0]


def _passes(ax, ay, bx, by, la, lb, perms, steps):  # pragma: no cover - compiled by numba
    n = la.shape[0]
    P = perms.shape[0]
    keep = np.full(n, -1, np.int64)
    for i in range(steps.shape[0]):
        keep[steps[i]] = i
    out = np.zeros((P, steps.shape[0]), np.int64)
    for p in range(P):
        _one_pass_compiled(ax, ay, bx, by, la, lb[perms[p]], keep, out[p])  # noqa: F821
    return out


def _one_pass(ax, ay, bx, by, la, lb, keep, out):  # pragma: no cover - compiled by numba
    """One pass over the merges. Cells are records (count, row, column) in two doubly
    linked lists, their row's and their column's; a hash map finds the cell of (row,
    column). Rows and columns are named by a representative leaf id; a merge moves the
    smaller row's (column's) cells into the larger one."""
    n = la.shape[0]
    cnt = np.ones(n, np.int64)
    crow = la.copy()
    ccol = lb.copy()
    rhead = np.full(n, -1, np.int64)
    rlen = np.zeros(n, np.int64)
    rnext = np.full(n, -1, np.int64)
    rprev = np.full(n, -1, np.int64)
    chead = np.full(n, -1, np.int64)
    clen = np.zeros(n, np.int64)
    cnext = np.full(n, -1, np.int64)
    cprev = np.full(n, -1, np.int64)
    cell = Dict.empty(key_type=types.int64, value_type=types.int64)  # noqa: F821
    for c in range(n):
        rhead[crow[c]] = c
        rlen[crow[c]] = 1
        chead[ccol[c]] = c
        clen[ccol[c]] = 1
        cell[crow[c] * n + ccol[c]] = c
    rep_a = np.arange(2 * n - 1)
    rep_b = np.arange(2 * n - 1)
    together = 0
    if keep[0] >= 0:
        out[keep[0]] = 0
    for m in range(n - 1):
        big = rep_a[ax[m]]
        small = rep_a[ay[m]]
        if rlen[big] < rlen[small]:
            big, small = small, big
        c = rhead[small]
        while c != -1:
            nxt = rnext[c]
            j = ccol[c]
            del cell[small * n + j]
            key = big * n + j
            if key in cell:  # the cell joins big's cell of column j: pairs newly together
                e = cell[key]
                together += cnt[e] * cnt[c]
                cnt[e] += cnt[c]
                if cprev[c] >= 0:
                    cnext[cprev[c]] = cnext[c]
                else:
                    chead[j] = cnext[c]
                if cnext[c] >= 0:
                    cprev[cnext[c]] = cprev[c]
                clen[j] -= 1
            else:  # the cell moves to row big
                cell[key] = c
                crow[c] = big
                rprev[c] = -1
                rnext[c] = rhead[big]
                if rhead[big] >= 0:
                    rprev[rhead[big]] = c
                rhead[big] = c
                rlen[big] += 1
            c = nxt
        rhead[small] = -1
        rlen[small] = 0
        rep_a[n + m] = big
        big = rep_b[bx[m]]
        small = rep_b[by[m]]
        if clen[big] < clen[small]:
            big, small = small, big
        c = chead[small]
        while c != -1:
            nxt = cnext[c]
            i = crow[c]
            del cell[i * n + small]
            key = i * n + big
            if key in cell:
                e = cell[key]
                together += cnt[e] * cnt[c]
                cnt[e] += cnt[c]
                if rprev[c] >= 0:
                    rnext[rprev[c]] = rnext[c]
                else:
                    rhead[i] = rnext[c]
                if rnext[c] >= 0:
                    rprev[rnext[c]] = rprev[c]
                rlen[i] -= 1
            else:
                cell[key] = c
                ccol[c] = big
                cprev[c] = -1
                cnext[c] = chead[big]
                if chead[big] >= 0:
                    cprev[chead[big]] = c
                chead[big] = c
                clen[big] += 1
            c = nxt
        chead[small] = -1
        clen[small] = 0
        rep_b[n + m] = big
        if keep[m + 1] >= 0:
            out[keep[m + 1]] = together
