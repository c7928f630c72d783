"""The entry conversion of K clusterings of the same objects (``agreement_matrix``): one record.

``as_many_clusterings`` reads a DataFrame (one column per clustering), a dict name -> labels or
a list of label vectors, with an optional reference (one of them by name, or a label vector of
its own), checks each labelling once as ``clusteragree.inputs.labels`` checks one (hard labels,
no missing label, the same objects: pandas inputs on the same index), refuses names that
collide once written as text (``{1: a, "1": b}``), and codes each clustering once (codes 0..K-1
in the sorted order of its labels, in the narrowest integer type). The record then gives what
the functions below it take, without converting anything again: the table of two clusterings
(one ``bincount``), the ``Clusterings`` record of a pair and the ``ThreeWay`` record of the
reference with two of them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from .._validate import suggest
from ..tables import ContingencyTable
from .clusterings import Clusterings
from .labels import check_labels
from .objects import (Coverage, Noise, as_noise, as_singletons, check_sample_weight, noise_mask,
                      warn_noise_convention)
from .triples import ThreeWay, three_way_of_codes

__all__ = ["ManyClusterings", "as_many_clusterings"]

#: One pair's table is dense: above this many cells it is refused (``ca.agreement`` takes it
#: as a sparse table).
MAX_TABLE_CELLS = 10**7


@dataclass(frozen=True)
class ManyClusterings:
    """K hard partitions of the same n objects, each coded once (build with
    ``as_many_clusterings``).

    Attributes
    ----------
    names : tuple of str
        The clusterings' names (the reference's not among them).
    codes : tuple of numpy.ndarray
        Each clustering's codes 0..K-1 (the sorted order of its labels where they sort).
    labels : tuple of numpy.ndarray
        Each clustering's labels, in the order of its codes.
    reference : str or None
        The reference's name, or None.
    reference_codes, reference_labels : numpy.ndarray or None
        The reference's codes and labels.

    Examples
    --------
    >>> m = as_many_clusterings({"a": [0, 0, 1, 1], "b": ["u", "v", "v", "v"]})
    >>> m.names, m.n, m.sizes, m.table(0, 1).tolist()
    (('a', 'b'), 4, (2, 2), [[1, 1], [0, 2]])
    """

    names: tuple
    codes: tuple
    labels: tuple
    reference: str | None = None
    reference_codes: np.ndarray | None = None
    reference_labels: np.ndarray | None = None
    noise: Noise | None = None
    noise_masks: tuple | None = None
    reference_noise: np.ndarray | None = None
    weights: np.ndarray | None = None

    def _kept(self, *which: int) -> np.ndarray | None:
        """The objects compared by the clusterings ``which`` under ``noise="drop"``: those
        noise in none of them (None: all)."""
        if self.noise is None or self.noise.policy != "drop":
            return None
        masks = [self.reference_noise if k == -1 else self.noise_masks[k] for k in which]
        return ~np.logical_or.reduce(masks)

    def coverage(self, *which: int) -> Coverage | None:
        """What a pair (or the reference and a pair) compares: the ``Coverage`` of the noise
        policy (None without one)."""
        if self.noise is None:
            return None
        masks = [self.reference_noise if k == -1 else self.noise_masks[k] for k in which]
        kept = self._kept(*which)
        n = len(self.codes[0])
        return Coverage(n, n if kept is None else int(kept.sum()), noise=self.noise,
                        noise_counts=(int(masks[0].sum()),
                                      int(np.logical_or.reduce(masks[1:]).sum())))

    @property
    def n(self) -> int:
        """The number of objects (with integer weights: of the objects repeated)."""
        return len(self.codes[0]) if self.weights is None else int(self.weights.sum())

    def counted(self, codes: np.ndarray, size: int, kept: np.ndarray | None = None
                ) -> np.ndarray:
        """``np.bincount`` of ``codes`` over the objects ``kept`` (all: None), each counted
        its weight times."""
        w = self.weights
        if kept is not None:
            codes, w = codes[kept], None if w is None else w[kept]
        if w is None:
            return np.bincount(codes, minlength=size)
        return np.bincount(codes, weights=w, minlength=size).round().astype(np.int64)

    @property
    def sizes(self) -> tuple:
        """The number of clusters of each clustering."""
        return tuple(len(labels) for labels in self.labels)

    def table(self, i: int, j: int, buf: np.ndarray | None = None) -> np.ndarray:
        """The K x Q contingency table of clusterings i (rows) and j: one bincount of
        ``code_i * Q + code_j`` (``buf``: an int64 work array of length n, reused by a
        caller that makes many tables). ``i`` or ``j`` may be -1: the reference."""
        (ci, ki), (cj, kj) = self._coded(i), self._coded(j)
        if ki * kj > MAX_TABLE_CELLS:
            raise ValueError(f"the table of clusterings[{self._name(i)!r}] and "
                             f"clusterings[{self._name(j)!r}] would have {ki:,} x {kj:,} "
                             "cells: too many for a dense table; ca.agreement compares them "
                             "through a sparse table")
        buf = np.empty(len(ci), dtype=np.int64) if buf is None else buf
        np.multiply(ci, kj, out=buf, dtype=np.int64)
        np.add(buf, cj, out=buf, dtype=np.int64)
        kept = self._kept(i, j)
        if kept is not None and not kept.any():  # noise="drop": the objects noise in neither
            raise ValueError(f"noise='drop' leaves no object to compare "
                             f"clusterings[{self._name(i)!r}] and "
                             f"clusterings[{self._name(j)!r}]: every object is noise in one "
                             "of them")
        return self.counted(buf, ki * kj, kept).reshape(ki, kj)

    def pair(self, i: int, j: int, keep: bool = False) -> Clusterings:
        """The ``Clusterings`` record of clusterings i (x) and j (y), -1 for the reference:
        their table, labelled by their labels and names, made from the codes (``keep``: the
        two code vectors kept too, for an index of object pairs)."""
        tab = ContingencyTable(self.table(i, j), self._labels(i), self._labels(j),
                               names=(self._name(i), self._name(j)))
        coverage = self.coverage(i, j)
        if not keep:
            return Clusterings(tab, names=tab.names, coverage=coverage)
        kept = self._kept(i, j)
        ci, cj = self._coded(i)[0], self._coded(j)[0]
        reps = self.weights
        if kept is not None:
            ci, cj = ci[kept], cj[kept]
            reps = None if reps is None else reps[kept]
        if reps is not None:  # the objects repeated, for an index of object pairs
            ci, cj = np.repeat(ci, reps), np.repeat(cj, reps)
        return Clusterings(tab, ci, cj, names=tab.names, coverage=coverage)

    def three_way(self, i: int, j: int) -> ThreeWay:
        """The ``ThreeWay`` record of the reference with clusterings i (a) and j (b)."""
        if self.reference is None:
            raise ValueError("these clusterings have no reference")
        codes = (self.reference_codes, self.codes[i], self.codes[j])
        kept = self._kept(-1, i, j)
        weights = self.weights
        if weights is not None:  # objects of weight 0 are not there
            kept = weights > 0 if kept is None else kept & (weights > 0)
        if kept is not None:  # the codes of the objects kept: some may be gone
            codes = tuple(pd.factorize(c[kept], sort=True)[0] for c in codes)
            sizes = tuple(int(c.max()) + 1 for c in codes)
            weights = None if weights is None else weights[kept]
        else:
            sizes = (len(self.reference_labels), *self.sizes_of(i, j))
        tw = three_way_of_codes(codes, sizes, (self.reference, self.names[i], self.names[j]),
                                weights=weights)
        return replace(tw, coverage=self.coverage(-1, i, j))

    def sizes_of(self, *which: int) -> tuple:
        """The number of clusters of the clusterings named by position (-1: the reference)."""
        return tuple(len(self._labels(k)) for k in which)

    def _coded(self, k: int):
        return (self.reference_codes, len(self.reference_labels)) if k == -1 else (
            self.codes[k], len(self.labels[k]))

    def _labels(self, k: int) -> np.ndarray:
        return self.reference_labels if k == -1 else self.labels[k]

    def _name(self, k: int) -> str:
        return self.reference if k == -1 else self.names[k]


def _named(clusterings) -> tuple[list[str], list]:
    """The clusterings' names and label vectors, from a DataFrame, a dict or a list; names
    that are equal once written as text are refused (they would merge in the result)."""
    if isinstance(clusterings, pd.DataFrame):
        keys, vectors = list(clusterings.columns), [clusterings.iloc[:, k]
                                                    for k in range(clusterings.shape[1])]
    elif isinstance(clusterings, dict):
        keys, vectors = list(clusterings), list(clusterings.values())
    elif isinstance(clusterings, (list, tuple)):
        keys, vectors = [k + 1 for k in range(len(clusterings))], list(clusterings)
    else:
        raise TypeError(f"clusterings must be a pandas DataFrame (one column per clustering), "
                        f"a dict name -> labels or a list of label vectors, got "
                        f"{type(clusterings).__name__}")
    names = [str(k) for k in keys]
    seen: dict = {}
    for key, name in zip(keys, names):
        if name in seen:
            what = ("the DataFrame's column names" if isinstance(clusterings, pd.DataFrame)
                    else "the clusterings' names")
            raise ValueError(f"clusterings: {what} must be distinct as text, got {seen[name]!r} "
                             f"and {key!r} (both read {name!r}); rename one of them")
        seen[name] = key
    return names, vectors


def _coded(labels, name: str, noise: Noise | None = None, side: str = "y"):
    """One clustering's labels checked (hard labels, none missing) and coded once: codes
    0..K-1 in the sorted order of the labels present (first appearance where they do not
    sort), in the narrowest integer type, the labels in the order of their codes, and where
    the labels are noise (all False without a policy for ``side``); under "singletons" each
    noise object has a code of its own."""
    what = f"clusterings[{name!r}]"
    if isinstance(labels, np.ndarray) and labels.ndim == 2 and labels.shape[1] > 1:
        raise TypeError(f"{what} is a matrix of shape {labels.shape}: agreement_matrix takes "
                        "hard labels (one per object); compare memberships or similarity "
                        "matrices pair by pair with ca.agreement")
    values = check_labels(labels, what)
    missing = pd.isna(values)
    if np.any(missing):
        raise ValueError(f"{what} contains missing labels (NaN/None; {int(np.sum(missing))} "
                         "of them): label every object, or drop those objects from every "
                         "clustering first")
    mask = (noise_mask(values, noise.label) if noise is not None and noise.applies_to(side)
            else np.zeros(len(values), dtype=bool))
    if noise is not None and noise.policy == "singletons":
        values = as_singletons(values.to_numpy() if isinstance(values, pd.Series) else values,
                               mask)
    try:
        codes, uniques = pd.factorize(values, sort=True)
    except TypeError:  # labels of mixed, unorderable types
        codes, uniques = pd.factorize(values, sort=False)
    # the narrowest integer type: the codes of 100 clusterings of 10**6 objects take 100 MB
    codes = codes.astype(np.min_scalar_type(max(len(uniques) - 1, 0)), copy=False)
    return codes, np.asarray(uniques), mask


def _same_objects(names, vectors) -> None:
    """The pandas inputs label the same objects (pandas labels of other objects would be
    paired by position, silently)."""
    indexes = [(n, v.index) for n, v in zip(names, vectors) if isinstance(v, pd.Series)]
    for name, index in indexes[1:]:
        if not index.equals(indexes[0][1]):
            raise ValueError(
                f"clusterings[{name!r}] labels other objects than "
                f"clusterings[{indexes[0][0]!r}] (their pandas indexes differ); put the "
                "clusterings in one DataFrame, or reindex them to the same objects")


def _noise_repeated(every, given, ref_name, noise: Noise, sample_weight):
    """Under "singletons" with whole-number weights, each noise object of weight w (noise in
    any clustering the policy covers) as w objects of weight 1, so that each copy is a cluster
    of its own, as repeating the objects would make it."""
    values = [check_labels(v, f"clusterings[{name!r}]") for name, v in zip(every, given)]
    first = values[0]
    weights, kind = check_sample_weight(
        sample_weight, len(first), first.index if isinstance(first, pd.Series) else None)
    if kind == "real":
        return given, sample_weight  # refused below, by name
    noisy = np.zeros(len(first), dtype=bool)
    for name, v in zip(every, values):
        side = "x" if ref_name is not None and name == ref_name else "y"
        if noise.applies_to(side):
            noisy |= noise_mask(v, noise.label)
    reps = np.where(noisy, weights, 1).astype(np.int64)
    repeated = [np.repeat(v.to_numpy() if isinstance(v, pd.Series) else np.asarray(v), reps)
                for v in values]
    return repeated, np.repeat(np.where(noisy, 1.0, weights), reps)


def as_many_clusterings(clusterings, reference=None, noise=None,
                        sample_weight=None) -> ManyClusterings:
    """Convert K clusterings of the same objects (and a reference), once.

    Parameters
    ----------
    clusterings : DataFrame, dict or list
        One column per clustering, a dict name -> labels, or a list of label vectors (named
        "1", "2", ...). A ``ManyClusterings`` record is returned as it is.
    reference : str or array-like, optional
        The name of one of the clusterings (taken out of those compared), or a label vector
        of the same objects (named "reference").
    noise : str or Noise, optional
        The noise policy (``clusteragree.inputs.objects``): side "x" is the reference, "y"
        the clusterings compared; without a reference the side must be "both". Under "drop"
        each pair compares the objects noise in neither.
    sample_weight : array-like, optional
        Whole-number weights, one per object: each object counted that many times.

    Returns
    -------
    ManyClusterings
        The record ``agreement_matrix`` passes down.

    Raises
    ------
    TypeError
        Not a DataFrame, dict or list; a matrix where labels are expected.
    ValueError
        Names equal as text, an unknown reference name, fewer than two clusterings besides
        the reference, missing labels, clusterings of different lengths or pandas indexes.

    See Also
    --------
    clusteragree.inputs.as_clusterings : The conversion of two clusterings.
    clusteragree.agreement_matrix : Takes this record.

    Examples
    --------
    >>> m = as_many_clusterings({"a": [0, 0, 1], "b": [1, 1, 0], "c": [0, 1, 1]},
    ...                         reference="c")
    >>> m.names, m.reference, m.reference_codes.tolist()
    (('a', 'b'), 'c', [0, 1, 1])
    """
    if isinstance(clusterings, ManyClusterings):
        return clusterings
    names, vectors = _named(clusterings)
    ref_name, ref = None, None
    if reference is not None:
        if isinstance(reference, str):
            if reference not in names:
                raise ValueError(f"reference={reference!r} is not a clustering's name; the "
                                 f"names are {names}.{suggest(reference, names)}")
            k = names.index(reference)
            ref_name, ref = names.pop(k), vectors.pop(k)
        else:
            ref_name, ref = "reference", reference
    if len(names) < 2:
        raise ValueError(f"clusterings: at least two clusterings are needed, got {len(names)}"
                         + (" besides the reference" if ref_name else ""))
    every = names + ([ref_name] if ref_name else [])
    given = vectors + ([ref] if ref_name else [])
    _same_objects(every, given)
    noise = as_noise(noise)
    if noise is not None and noise.side != "both" and ref_name is None:
        raise ValueError(f"noise side={noise.side!r} names the reference (x) or the "
                         "clusterings compared with it (y): give reference=, or side='both'")
    if noise is not None and noise.policy == "singletons" and sample_weight is not None:
        given, sample_weight = _noise_repeated(every, given, ref_name, noise, sample_weight)
    coded, masks = [], []
    for name, labels in zip(every, given):
        codes, uniques, mask = _coded(labels, name, noise,
                                      "x" if ref_name and name == ref_name and len(
                                          coded) == len(names) else "y")
        masks.append(mask)
        if noise is None:
            warn_noise_convention(uniques if uniques.dtype.kind == "i" else (), (), (name, ""))
        if coded and len(codes) != len(coded[0][0]):
            raise ValueError(f"clusterings must label the same objects: clusterings[{name!r}] "
                             f"has {len(codes):,} labels, clusterings[{every[0]!r}] has "
                             f"{len(coded[0][0]):,}")
        coded.append((codes, uniques))
    weights = None
    if sample_weight is not None:
        first = given[0]
        weights, kind = check_sample_weight(
            sample_weight, len(coded[0][0]), first.index if isinstance(first, pd.Series) else None)
        if kind == "real":
            raise ValueError("sample_weight holds weights that are not whole numbers: "
                             "agreement_matrix counts tables of objects (whole-number weights "
                             "repeat objects); ca.agreement takes other weights pair by pair")
        weights = weights.astype(np.int64)
    ref_coded = coded.pop() if ref_name else (None, None)
    ref_mask = masks.pop() if ref_name else None
    for name, mask in zip(every, masks):
        if noise is not None and noise.policy == "drop" and mask.all():
            raise ValueError(f"noise='drop' leaves no object of clusterings[{name!r}]: every "
                             f"object is noise (label {noise.label!r})")
    return ManyClusterings(tuple(names), tuple(c for c, _ in coded), tuple(u for _, u in coded),
                           ref_name, *ref_coded, noise=noise,
                           noise_masks=tuple(masks) if noise is not None else None,
                           reference_noise=ref_mask, weights=weights)
