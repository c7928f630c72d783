"""Which objects are compared, and as what: noise labels, missing references and sample weights.

Density-based clusterers (scikit-learn's DBSCAN, HDBSCAN and OPTICS, hdbscan) label the objects
they leave unclustered ``-1``. How to compare such a clustering is a choice, and each choice
answers another question (``Noise``): the noise label as one cluster (labels as given), each
noise object a cluster of its own ("singletons": noise is penalised), or the noise objects left
out ("drop": how well the clustered objects are clustered, read beside the share clustered).
A reference known for some objects only (missing labels with ``dropna=True``, or a label that
means "unknown" dropped through ``Noise("drop", label=..., side="x")``) compares on the
objects it covers. ``sample_weight`` weighs the objects as scikit-learn's metrics do: integer
weights are repeated objects; other weights give the table of weight sums.

``select_objects`` applies all three to two label vectors at the entry, once, and returns a
``Coverage`` record that every result states: the policy, how many objects were noise on each
side, and how many of the objects given were compared.
"""

from __future__ import annotations

import sys
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._validate import check_choice, describe_object
from .labels import check_labels, common_objects, missing_mask, take_objects

__all__ = ["Noise", "NoiseLabelWarning", "Coverage", "as_noise", "select_objects",
           "select_labellings", "noise_mask", "as_singletons", "check_sample_weight", "warn_noise_convention", "POLICIES", "SIDES",
           "WeightedTable", "weighted_table", "user_stacklevel"]

#: The noise policies: what an object labelled as noise becomes.
POLICIES = ("cluster", "singletons", "drop")

#: The most cells of a table of weight sums (it is dense).
MAX_WEIGHTED_CELLS = 2**26

#: The clusterings a policy applies to: x (the first, or the reference), y, or both.
SIDES = ("x", "y", "both")


class NoiseLabelWarning(UserWarning):
    """Labels follow the noise convention (-1 beside labels >= 0) and ``noise=`` was not given.

    The label -1 was counted as one cluster; ``noise="cluster"`` keeps that reading without
    the warning, "singletons" and "drop" are the other readings (``Noise``).

    See Also
    --------
    Noise : The policies.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = ca.agreement([0, 0, 1, -1], [0, 0, 1, 1])
    >>> caught[0].category.__name__
    'NoiseLabelWarning'
    """


@dataclass(frozen=True)
class Noise:
    """How the objects labelled as noise are compared.

    Parameters
    ----------
    policy : {"cluster", "singletons", "drop"}
        "cluster": the noise label is one cluster (labels as given). "singletons": each noise
        object is a cluster of its own, so noise counts against agreement (the reading of
        ELKI and of hdbscan's maintainer). "drop": objects that are noise are left out, so the
        index says how well the clustered objects are clustered; read it beside the share of
        objects compared (every result states it).
    label : hashable, default -1
        The label that marks noise (scikit-learn's DBSCAN, HDBSCAN and OPTICS use -1). With
        "drop" and ``side="x"`` it may mark a reference that is unknown for some objects.
    side : {"both", "x", "y"}, default "both"
        The clustering(s) whose ``label`` means noise: x (the first argument, or the reference
        of ``difference_test``), y (the second, or the two compared clusterings) or both.

    See Also
    --------
    NoiseLabelWarning : Given when labels look like noise and no policy was chosen.
    clusteragree.agreement_test : Takes ``noise=``, as every function that takes labels.

    Notes
    -----
    Null laws follow the policy exactly, because the policy acts on the labels before the
    table is counted: under "singletons" each noise object is a row (or column) of margin 1
    in the exact law, in Patefield's random tables and in permutations; under "drop" the laws
    are conditional on the objects kept.

    References
    ----------
    Ester, M., Kriegel, H.-P., Sander, J. and Xu, X. (1996). "A density-based algorithm for
    discovering clusters in large spatial databases with noise". Proceedings of KDD-96,
    226-231.

    Campello, R. J. G. B., Moulavi, D. and Sander, J. (2013). "Density-based clustering based
    on hierarchical density estimates". Advances in Knowledge Discovery and Data Mining
    (PAKDD 2013), 160-172.

    Examples
    --------
    >>> x = [0, 0, 1, 1, -1, -1]
    >>> y = [0, 0, 1, 1, 1, 0]
    >>> ca.agreement(x, y, noise="drop")             # the four clustered objects
    1.0
    >>> round(ca.agreement(x, y, noise=ca.Noise("singletons")), 4)
    0.375
    """

    policy: str = "cluster"
    label: object = -1
    side: str = "both"

    def __post_init__(self):
        check_choice(self.policy, "noise policy", POLICIES)
        check_choice(self.side, "noise side", SIDES)
        try:
            hash(self.label)
        except TypeError:
            raise TypeError(f"the noise label must be hashable (a number or a string), got "
                            f"{describe_object(self.label)}") from None

    def applies_to(self, side: str) -> bool:
        """Whether the policy applies to the clustering on ``side``.

        Parameters
        ----------
        side : {"x", "y"}
            The clustering: x (the first, or the reference) or y.

        Returns
        -------
        bool
            True when ``self.side`` is "both" or ``side``.
        """
        return self.side in ("both", side)

    def describe(self) -> str:
        """The policy in words.

        Returns
        -------
        str
            E.g. "noise (label -1, both sides) as singletons".
        """
        how = {"cluster": "as one cluster", "singletons": "as singletons",
               "drop": "left out"}[self.policy]
        sides = {"both": "both sides", "x": "x only", "y": "y only"}[self.side]
        return f"noise (label {self.label!r}, {sides}) {how}"


def as_noise(noise) -> Noise | None:
    """``noise=`` as a ``Noise`` record (a policy string is shorthand), or None.

    Examples
    --------
    >>> as_noise("drop")
    Noise(policy='drop', label=-1, side='both')
    """
    if noise is None or isinstance(noise, Noise):
        return noise
    if isinstance(noise, str):
        check_choice(noise, "noise", POLICIES)
        return Noise(noise)
    raise TypeError(f"noise must be one of {list(POLICIES)} or ca.Noise(policy, label=-1, "
                    f"side='both'), got {describe_object(noise)}")


@dataclass(frozen=True)
class Coverage:
    """Which objects a comparison used: the result's statement of noise, missing labels and
    weights.

    Attributes
    ----------
    n_given : int
        Objects given (after pairing two pandas objects by their index).
    n_compared : int
        Objects compared (the others had a missing label or were noise under "drop").
    missing : (int, int)
        Objects with a missing label in x and in y (left out with ``dropna=True``).
    noise : Noise or None
        The policy (None: ``noise=`` was not given).
    noise_counts : (int, int)
        Objects labelled as noise in x and in y (0 for a side the policy does not cover).
    weights : {"none", "integer", "real"}
        The kind of ``sample_weight``: none, whole numbers (repeated objects) or others.
    total_weight : float
        The sum of the weights of the objects compared (n_compared without weights).
    """

    n_given: int
    n_compared: int
    missing: tuple = (0, 0)
    noise: Noise | None = None
    noise_counts: tuple = (0, 0)
    weights: str = "none"
    total_weight: float = 0.0

    @property
    def share_compared(self) -> float:
        """``n_compared / n_given``."""
        return self.n_compared / self.n_given

    @property
    def notable(self) -> bool:
        """Anything to say: a noise policy, objects left out or weights."""
        return (self.noise is not None or self.n_compared < self.n_given
                or self.weights != "none")

    def describe(self, names=("x", "y")) -> str:
        """The coverage in words, for a printed result's ``data:`` line and a frame's notes.

        Examples
        --------
        >>> Coverage(10, 8, noise=Noise("drop"), noise_counts=(2, 1)).describe()
        'noise (label -1, both sides) left out: 2 in x, 1 in y; 8 of 10 objects compared (80%)'
        """
        parts = []
        if self.noise is not None:
            counts = [f"{c} in {name}" for c, name, side in zip(self.noise_counts, names, "xy")
                      if self.noise.applies_to(side)]
            parts.append(f"{self.noise.describe()}: {', '.join(counts)}")
        if any(self.missing):
            parts.append("missing labels left out: " + ", ".join(
                f"{c} in {name}" for c, name in zip(self.missing, names) if c))
        if self.n_compared < self.n_given:
            parts.append(f"{self.n_compared} of {self.n_given} objects compared "
                         f"({self.share_compared:.0%})")
        if self.weights == "integer":
            parts.append(f"integer sample weights (total {self.total_weight:g}: the objects "
                         "repeated)")
        elif self.weights == "real":
            parts.append(f"sample weights (total {self.total_weight:.4g}): the table of "
                         "weight sums")
        return "; ".join(parts)

    def as_dict(self) -> dict:
        """The coverage as flat fields (for a table of several comparisons, such as the
        reports' and ``agreement_matrix``'s)."""
        return {"noise_policy": None if self.noise is None else self.noise.policy,
                "n_noise_x": self.noise_counts[0], "n_noise_y": self.noise_counts[1],
                "n_given": self.n_given, "n_compared": self.n_compared}


def check_sample_weight(sample_weight, n: int, index=None, name: str = "sample_weight"
                        ) -> tuple[np.ndarray, str]:
    """``sample_weight`` as a float array of one weight per object, and its kind.

    A pandas Series is paired by its index with the objects (``index``, when the clusterings
    were pandas objects); anything else by position. Weights must be finite and
    non-negative, with a positive total.

    Returns
    -------
    (numpy.ndarray, str)
        The weights and "integer" (all whole numbers) or "real".
    """
    if isinstance(sample_weight, pd.Series) and index is not None:
        if not sample_weight.index.is_unique:
            raise ValueError(f"{name}'s index has duplicate labels: weights are paired with "
                             "the objects by their index")
        missing = index.difference(sample_weight.index)
        if len(missing):
            raise ValueError(f"{name} has no weight for {len(missing)} object(s) (e.g. "
                             f"{missing[0]!r}): a Series of weights is paired by its index")
        sample_weight = sample_weight.loc[index]
    if isinstance(sample_weight, (str, bytes, dict, set)):
        raise TypeError(f"{name} must be a 1-D array of non-negative numbers, one per object, "
                        f"got {describe_object(sample_weight)}")
    try:
        w = np.asarray(sample_weight, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a 1-D array of non-negative numbers, one per object, "
                        f"got {describe_object(sample_weight)}") from None
    if w.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one weight per object), got shape {w.shape}")
    if len(w) != n:
        raise ValueError(f"{name} has {len(w)} weights for {n} objects: give one per object")
    if not np.all(np.isfinite(w)):
        raise ValueError(f"{name} holds NaN or infinite weights: weights must be finite")
    if np.any(w < 0):
        raise ValueError(f"{name} holds a negative weight ({w.min():g}): weights must be >= 0")
    if not w.sum() > 0:
        raise ValueError(f"{name} weighs every object 0: at least one weight must be positive")
    kind = "integer" if np.all(w == np.round(w)) else "real"
    return w, kind


def noise_mask(labels, label) -> np.ndarray:
    """Where ``labels`` equal the noise label (False where a label is missing)."""
    numeric = isinstance(label, (int, float, np.integer, np.floating)) and not isinstance(
        label, (bool, np.bool_))
    arr = labels.to_numpy() if isinstance(labels, pd.Series) and not isinstance(
        labels.dtype, pd.CategoricalDtype) else labels
    if isinstance(arr, np.ndarray) and arr.dtype.kind in "iubf":
        if numeric and arr.dtype.kind != "b":
            return np.asarray(arr == label, dtype=bool)
        return np.zeros(len(arr), dtype=bool)  # a numeric labelling has no such label
    values = labels.to_numpy(dtype=object) if isinstance(labels, pd.Series) else np.asarray(
        labels, dtype=object)
    out = np.fromiter((v == label and type(v) is not bool for v in values.tolist()),
                      dtype=bool, count=len(values)) if values.dtype == object else (
        values == label)
    return np.asarray(out, dtype=bool)


def as_singletons(labels, mask: np.ndarray) -> np.ndarray:
    """The labels with each object of ``mask`` given a label of its own (a fresh integer
    above the others for integer labels; ``("noise", i)`` otherwise)."""
    k = int(mask.sum())
    if k == 0:
        return labels
    if isinstance(labels, np.ndarray) and labels.dtype.kind in "iu":
        out = labels.astype(np.int64, copy=True)
        out[mask] = int(out.max()) + 1 + np.arange(k)
        return out
    values = (labels.to_numpy(dtype=object) if isinstance(labels, pd.Series)
              else np.asarray(labels, dtype=object)).copy()
    fresh = np.empty(k, dtype=object)
    fresh[:] = [("noise", i) for i in range(k)]
    values[mask] = fresh
    return values


def _values(labels) -> np.ndarray:
    """Labels as a plain 1-D numpy array (a Categorical as its values)."""
    return labels.to_numpy() if isinstance(labels, pd.Series) else np.asarray(labels)


def select_objects(x, y, *, names=("x", "y"), dropna: bool = False, join: str = "exact",
                   noise: Noise | None = None, sample_weight=None):
    """Two label vectors with the noise policy applied, the objects left out removed, and the
    weights that go with them.

    Parameters
    ----------
    x, y : array-like or pandas Series of labels
        The two labellings (two Series are paired by their index, ``join``).
    names : (str, str)
        Their names, for the messages.
    dropna : bool
        Leave out the objects with a missing label (else they are refused).
    join : {"exact", "inner"}
        How two Series are paired.
    noise : Noise or None
        The policy (``as_noise``).
    sample_weight : array-like, optional
        One weight per object (``check_sample_weight``).

    Returns
    -------
    x, y : numpy.ndarray
        The labels of the objects compared.
    weights : numpy.ndarray or None
        Their weights (None without ``sample_weight``).
    coverage : Coverage
        What was done.

    Raises
    ------
    ValueError
        No object is left to compare (every object noise under "drop", or missing).

    Examples
    --------
    >>> x, y, w, cov = select_objects([0, 1, -1, -1], [0, 1, 1, -1], noise=Noise("drop"))
    >>> x.tolist(), y.tolist(), cov.n_compared, cov.noise_counts
    ([0, 1], [0, 1], 2, (2, 1))
    """
    x, y = check_labels(x, names[0]), check_labels(y, names[1])
    if isinstance(x, pd.Series) and isinstance(y, pd.Series):
        objects = common_objects(x, y, join, names)
        x, y = take_objects(x, objects), take_objects(y, objects)
    if len(x) != len(y):
        raise ValueError(f"{names[0]} and {names[1]} must label the same objects: {names[0]} "
                         f"has {len(x)} labels, {names[1]} has {len(y)}")
    (x, y), weights, coverage = select_labellings([x, y], names, "xy", dropna=dropna,
                                                  noise=noise, sample_weight=sample_weight)
    return x, y, weights, coverage


def _as_text_only(labellings, names, sides, masks, noise: Noise) -> None:
    """Refuse a policy that found no noise label in a labelling holding the label's text
    (labels read from a file as text hold '-1', not -1): the policy would silently do
    nothing."""
    if isinstance(noise.label, str):
        return
    text = str(noise.label)
    for labels, name, side, mask in zip(labellings, names, sides, masks):
        if noise.applies_to(side) and not mask.any() and noise_mask(labels, text).any():
            raise ValueError(
                f"noise={noise.policy!r} looks for the label {noise.label!r} and {name} holds "
                f"none, but holds the text {text!r} (labels read as text?): pass "
                f"ca.Noise({noise.policy!r}, label={text!r}), or convert the labels to numbers")


def select_labellings(labellings, names, sides, *, dropna: bool = False,
                      noise: Noise | None = None, sample_weight=None):
    """Labellings of the same objects (checked and paired already) with the noise policy
    applied and the objects left out removed: ``select_objects`` for any number of them.

    ``sides`` says which side of the policy each labelling is on ("x" or "y"; for
    ``difference_test``: the reference "x", the two clusterings compared "y"). The noise
    counts of the coverage count, for each side, the objects that are noise in some
    labelling of that side.

    Returns
    -------
    (list of numpy.ndarray, numpy.ndarray or None, Coverage)
    """
    n = len(labellings[0])
    first = labellings[0]
    index = first.index if isinstance(first, pd.Series) else None
    weights, kind = (None, "none") if sample_weight is None else check_sample_weight(
        sample_weight, n, index)
    missing = [missing_mask(v) for v in labellings]
    missing = [np.zeros(n, bool) if m is None else m for m in missing]
    any_missing = np.logical_or.reduce(missing)
    n_missing = {side: int(np.logical_or.reduce(
        [m for m, s in zip(missing, sides) if s == side]).sum()) for side in "xy"}
    if any_missing.any() and not dropna:
        found = [(name, int(m.sum())) for name, m in zip(names, missing) if m.any()]
        which = " and ".join(name for name, _ in found)
        counts = ", ".join(f"{name}: {c}" for name, c in found)
        raise ValueError(f"{which} {'contain' if len(found) > 1 else 'contains'} missing "
                         f"labels (NaN/None; {counts}); pass dropna=True to leave those "
                         "objects out")
    keep = ~any_missing
    masks = [np.zeros(n, bool) for _ in labellings]
    if noise is not None:
        for i, (side, labels) in enumerate(zip(sides, labellings)):
            if noise.applies_to(side):
                masks[i] = noise_mask(labels, noise.label) & ~missing[i]
    noise_counts = tuple(int(np.logical_or.reduce(
        [m for m, s in zip(masks, sides) if s == side]).sum()) for side in "xy")
    if noise is not None and noise.policy != "cluster":
        _as_text_only(labellings, names, sides, masks, noise)
    if noise is not None and noise.policy == "drop":
        keep &= ~np.logical_or.reduce(masks)
    if not keep.any():
        if noise is not None and noise.policy == "drop" and any(noise_counts):
            raise ValueError(
                f"noise='drop' leaves no object to compare: every object is noise (label "
                f"{noise.label!r}: {noise_counts[0]} in {names[0]}, {noise_counts[1]} in "
                f"{' and '.join(names[1:])}) or missing; an index of no objects is not 0: "
                "compare with noise='singletons' (noise counts against agreement) or look at "
                "the share clustered")
        raise ValueError(f"no object is labelled in {' and '.join(names)} once missing labels "
                         "are dropped")
    values = [_values(v) for v in labellings]
    if not keep.all():
        values, masks = [v[keep] for v in values], [m[keep] for m in masks]
        weights = None if weights is None else weights[keep]
    if noise is not None and noise.policy == "singletons":
        if kind == "integer":  # a noise object of weight w is w objects, each its own cluster
            noisy = np.logical_or.reduce(masks)
            reps = np.where(noisy, weights, 1).astype(np.int64)
            values = [np.repeat(v, reps) for v in values]
            masks = [np.repeat(m, reps) for m in masks]
            weights = np.repeat(np.where(noisy, 1.0, weights), reps)
        values = [as_singletons(v, m) for v, m in zip(values, masks)]
    if weights is not None and not weights.sum() > 0:
        raise ValueError("sample_weight weighs every object compared 0: at least one object "
                         "compared must have a positive weight")
    coverage = Coverage(n_given=n, n_compared=int(keep.sum()),
                        missing=(n_missing["x"], n_missing["y"]), noise=noise,
                        noise_counts=noise_counts, weights=kind,
                        total_weight=float(keep.sum() if weights is None else weights.sum()))
    return values, weights, coverage


def warn_noise_convention(row_labels, col_labels, names=("x", "y")) -> None:
    """Warn, when ``noise=`` was not given, that labels which follow the noise convention
    (integers, -1 beside labels >= 0) had -1 counted as one cluster. The labels are sorted
    (a table's row or column labels, ``np.unique``'s)."""
    sides = []
    for labels, name in zip((row_labels, col_labels), names):
        # the labels are sorted (a table's, np.unique's): -1 first, then labels >= 0; read as
        # Python ints, without a numpy reduction (the per-call budget of a small call)
        if (getattr(labels, "dtype", None) is not None and labels.dtype.kind == "i"
                and len(labels) > 1 and int(labels[0]) == -1 and int(labels[1]) >= 0):
            sides.append(name)
    if sides:
        warnings.warn(
            f"{' and '.join(sides)} use{'s' if len(sides) == 1 else ''} the label -1 beside "
            "labels >= 0, as DBSCAN and HDBSCAN mark noise: it was counted as one cluster. "
            "Choose how noise is compared with noise='cluster' (as here, silently), "
            "'singletons' (each noise object a cluster of its own) or 'drop' (noise left "
            "out); see ca.Noise", NoiseLabelWarning, stacklevel=user_stacklevel())


def user_stacklevel() -> int:
    """The ``stacklevel`` that points a warning at the first frame outside this package (the
    user's call), whatever the depth of the public function it came through."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_globals.get("__name__", "").startswith("clusteragree"):
        frame, level = frame.f_back, level + 1
    return level


@dataclass(frozen=True)
class WeightedTable:
    """The table of weight sums of two labellings with non-integer ``sample_weight``.

    Attributes
    ----------
    counts : numpy.ndarray of float, shape (K, Q)
        The sum of the weights of the objects in each cell (empty rows and columns dropped).
    row_labels, col_labels : numpy.ndarray
        The clusters of x and of y.
    names : (str, str)
        The names of x and y.
    object_cells : numpy.ndarray of int64
        Each object's cell, ``row * Q + column`` (for resampling the objects).
    object_weights : numpy.ndarray of float
        Each object's weight.

    Examples
    --------
    >>> wt = weighted_table([0, 0, 1], [0, 1, 1], [0.5, 1.5, 2.0])
    >>> wt.counts.tolist(), wt.n
    ([[0.5, 1.5], [0.0, 2.0]], 4.0)
    """

    counts: np.ndarray
    row_labels: np.ndarray
    col_labels: np.ndarray
    names: tuple
    object_cells: np.ndarray
    object_weights: np.ndarray

    @property
    def n(self) -> float:
        """The total weight."""
        return float(self.counts.sum())

    @property
    def shape(self) -> tuple:
        """(K, Q)."""
        return self.counts.shape

    def tables_of(self, object_weights: np.ndarray) -> np.ndarray:
        """The tables of weight sums for a batch of weightings of the objects, shape (B, n):
        ``object_weights[b] @ one-hot(cells)`` (a resample's draws times the weights)."""
        B = object_weights.shape[0]
        size = self.counts.size
        flat = np.zeros((B, size))
        for b in range(B):  # one bincount per resample: O(n) each
            flat[b] = np.bincount(self.object_cells, weights=object_weights[b], minlength=size)
        return flat.reshape(B, *self.counts.shape)


def weighted_table(x, y, weights, names=("x", "y")) -> WeightedTable:
    """The table of weight sums of two label vectors (already checked and selected)."""
    cx, lx = _factorize(x)
    cy, ly = _factorize(y)
    weights = np.asarray(weights, dtype=float)
    K, Q = len(lx), len(ly)
    if K * Q > MAX_WEIGHTED_CELLS:
        raise ValueError(f"sample_weight with {K} x {Q} clusters: the table of weight sums is "
                         f"dense and would have {K * Q:,} cells (at most "
                         f"{MAX_WEIGHTED_CELLS:,}); compare fewer clusters, or repeat objects")
    flat = np.bincount(cx * Q + cy, weights=weights, minlength=K * Q).reshape(K, Q)
    rows, cols = flat.sum(axis=1) > 0, flat.sum(axis=0) > 0
    # objects of weight 0 make no cluster: their rows and columns are dropped, and the
    # objects' cells renumbered in the table kept
    new_r = np.cumsum(rows) - 1
    new_c = np.cumsum(cols) - 1
    positive = weights > 0
    Qk = int(cols.sum())
    cells = (new_r[cx] * Qk + new_c[cy])[positive].astype(np.int64)
    return WeightedTable(np.ascontiguousarray(flat[rows][:, cols]), np.asarray(lx)[rows],
                         np.asarray(ly)[cols], (str(names[0]), str(names[1])), cells,
                         weights[positive])


def _factorize(labels):
    """Codes and labels, sorted where the labels are orderable."""
    try:
        return pd.factorize(np.asarray(labels), sort=True)
    except TypeError:  # labels of mixed, unorderable types
        return pd.factorize(np.asarray(labels, dtype=object), sort=False)
