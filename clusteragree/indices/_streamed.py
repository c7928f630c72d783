"""sum_of_min over all cross pairs of two vectors too long to hold in memory, exactly.

The exact null mean of 13AGRI needs sum_of_min(x, y) = sum_i sum_j min(x_i, y_j) over the
m = n(n - 1)/2 pair values of two clusterings ({ref:horta2015}, eqs 18-19
and 24). ``_pairwise.sum_of_min`` sorts x and y in memory: 8 bytes a value plus working copies,
several GB at n = 20,000 objects (m = 2 x 10^8). Here x and y are ``Values``, read chunk by chunk
as often as needed (pair values are cheap to regenerate, one block of rows at a time), and the
sum is taken by a sample sort:

1. splitters s_1 < ... < s_k: distinct quantiles of a small sample of x and y;
2. 2k + 1 buckets in increasing order, (-inf, s_1), {s_1}, (s_1, s_2), {s_2}, ..., {s_k},
   (s_k, inf): one pass over x and one over y count and sum each bucket's values and append the
   values of the open intervals to temporary files. A value held by many pairs (hard
   memberships: J and S take a few values only) is a splitter, its own bucket, never written;
3. every value of a lower bucket is below every value of a higher one, so min(x, y) is the
   value in the lower bucket and, with N^x_b, N^y_b the counts and X_b, Y_b the sums of bucket b,

       sum_of_min(x, y) = sum_b [ within_b + X_b N^y_(>b) + Y_b N^x_(>b) ],

   where within_b = N^x_b N^y_b s for a bucket {s}, and for an open interval the in-memory
   ``sum_of_min`` of its values read back from its two files (or this same procedure on them
   when a bad sample left them too large for the budget).

Exact but for floating-point rounding: the same sums as in memory in another order, with shorter
running sums (13AGRI on 10,000 fuzzy objects: relative errors below 1e-16 against a long-double
reference, where the in-memory sort has 8e-14).
Memory: about ``MEMORY_BUDGET`` bytes plus one chunk; disk: 8 bytes a value of the open buckets,
in a temporary folder removed at the end, also when an error stops the work.
"""

from __future__ import annotations

import math
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from .._docs import fill
from ._pairwise import sum_of_min

__doc__ = fill(__doc__)

__all__ = ["MEMORY_BUDGET", "Values", "array_values", "file_values", "streamed_sum_of_min"]

#: Bytes ``streamed_sum_of_min`` may use for values and their working copies at once: x and y
#: are summed in memory when they fit (as for every ordinary n), bucket by bucket otherwise.
MEMORY_BUDGET = 160 * 2**20
#: Bytes ``sum_of_min`` uses per value of x or y: the value, its sorted copy, its rank and the
#: partial sums (about 48 for x, 24 for y).
BYTES_PER_VALUE = 40
#: Sample values per bucket for the splitters (more: buckets of more even sizes).
SAMPLE_PER_BUCKET = 200
#: At most this many splitters at one level (bucket numbers fit int16, radix-sorted).
MAX_SPLITTERS = 8000
#: Levels of re-splitting of a bucket too large for the budget; deeper, it is summed in memory.
MAX_DEPTH = 4
#: Cells of the uniform grid that puts most values in their bucket without a binary search.
GRID_CELLS = 2**16
#: Values read at once from a file.
FILE_CHUNK = 2**20


@dataclass(frozen=True)
class Values:
    """``size`` floats read chunk by chunk: ``chunks()`` gives a fresh iterator of 1-D float
    arrays at every call; ``sampler(k)``, if given, about k of the values spread over the whole
    vector (by default ``sample`` takes every (size // k)-th value in one pass)."""

    size: int
    chunks: Callable[[], Iterator[np.ndarray]]
    sampler: Callable[[int], np.ndarray] | None = None

    def load(self) -> np.ndarray:
        return np.concatenate([np.empty(0), *self.chunks()])

    def sample(self, k: int) -> np.ndarray:
        if self.sampler is not None:
            return np.asarray(self.sampler(k), float)
        stride, parts, offset = max(1, self.size // max(k, 1)), [np.empty(0)], 0
        for chunk in self.chunks():
            parts.append(chunk[(-offset) % stride::stride])
            offset += len(chunk)
        return np.concatenate(parts)


def array_values(x, chunk: int = FILE_CHUNK) -> Values:
    """An array in memory as ``Values``, read ``chunk`` values at a time."""
    x = np.asarray(x, float).ravel()
    return Values(len(x), lambda: (x[i:i + chunk] for i in range(0, len(x), chunk)))


def file_values(path: str, size: int) -> Values:
    """``size`` float64 values written with ``ndarray.tofile`` to ``path``."""
    def chunks():
        with open(path, "rb") as f:
            for _ in range(0, size, FILE_CHUNK):
                yield np.fromfile(f, dtype=np.float64, count=FILE_CHUNK)

    return Values(size, chunks)


def streamed_sum_of_min(x: Values, y: Values, budget: int | None = None) -> float:
    """sum_i sum_j min(x_i, y_j) over all cross pairs of x and y (see the module docstring):
    in memory when about ``BYTES_PER_VALUE * (len(x) + len(y))`` bytes fit ``budget``
    (``MEMORY_BUDGET`` by default), otherwise by a sample sort through temporary files.

    >>> x, y = array_values([1.0, 3.0, 2.0]), array_values([2.0, 2.0, 0.5])
    >>> streamed_sum_of_min(x, y, budget=1)   # 1+1+.5 + 2+2+.5 + 2+2+.5 in buckets
    11.5
    """
    budget = MEMORY_BUDGET if budget is None else budget
    if _fits(x.size + y.size, budget) or not x.size or not y.size:
        return _in_memory(x, y)
    with tempfile.TemporaryDirectory(prefix="clusteragree-") as folder:
        return _by_buckets(x, y, budget, folder, depth=0)


def _fits(size: int, budget: int) -> bool:
    return size * BYTES_PER_VALUE <= budget


def _in_memory(x: Values, y: Values) -> float:
    if x.size == 0 or y.size == 0:
        return 0.0
    return sum_of_min(x.load(), y.load())


def _by_buckets(x: Values, y: Values, budget: int, folder: str, depth: int) -> float:
    """sum_of_min(x, y) = sum_b [within_b + X_b N^y_(>b) + Y_b N^x_(>b)] over the buckets."""
    splitters = _splitters(x, y, budget)
    nx, sx = _spill(x, splitters, folder, "x")
    ny, sy = _spill(y, splitters, folder, "y")
    parts = [_across(sx, ny), _across(sy, nx), _at_splitters(nx, ny, splitters)]
    for b in np.flatnonzero((nx > 0) & (ny > 0) & (np.arange(len(nx)) % 2 == 0)):
        parts.append(_within(b, int(nx[b]), int(ny[b]), budget, folder, depth))
    return math.fsum(parts)


def _within(b: int, nx: int, ny: int, budget: int, folder: str, depth: int) -> float:
    """sum_of_min of the values of the open bucket b, read back from its files: in memory, or
    split again when they do not fit (at most ``MAX_DEPTH`` levels)."""
    xb, yb = file_values(_path(folder, "x", b), nx), file_values(_path(folder, "y", b), ny)
    if _fits(nx + ny, budget) or depth >= MAX_DEPTH:
        out = _in_memory(xb, yb)
    else:
        sub = tempfile.mkdtemp(dir=folder)
        out = _by_buckets(xb, yb, budget, sub, depth + 1)
        shutil.rmtree(sub)
    for side in "xy":
        os.remove(_path(folder, side, b))
    return out


def _splitters(x: Values, y: Values, budget: int) -> np.ndarray:
    """Distinct quantiles of a sample of x and y, as many as make open buckets of about half
    the values that fit the budget (at most ``MAX_SPLITTERS``)."""
    per_bucket = max(1, budget // (2 * BYTES_PER_VALUE))
    k = min(MAX_SPLITTERS, -(-(x.size + y.size) // per_bucket))
    n_sample = SAMPLE_PER_BUCKET * (k + 1)
    share = n_sample / (x.size + y.size)
    sample = np.sort(np.concatenate([v.sample(math.ceil(share * v.size)) for v in (x, y)
                                     if v.size]))
    if not len(sample):
        return sample
    return np.unique(sample[np.arange(1, k + 1) * len(sample) // (k + 1)])


def _grid(splitters: np.ndarray, cells: int | None = None):
    """A lookup table that finds the bucket of most values without a binary search.

    The cell c(v) = int(clip((v - lo) * G / (hi - lo) + 1, 0, G + 1)) of G + 2 cells (lo, hi the
    extreme splitters, G = ``GRID_CELLS``) never decreases as v grows (rounding, clipping and
    truncation are all monotone), and the splitters are put in cells by the same formula: every
    splitter of a lower cell is below v and every one of a higher cell is above it, so
    #{s < v} is the count of splitters in lower cells, exactly, unless a splitter shares v's
    cell; only there does a binary search decide. Returns (lo, scale, splitters below each cell,
    cells with a splitter)."""
    cells = GRID_CELLS if cells is None else cells
    lo, hi = splitters[0], splitters[-1]
    with np.errstate(over="ignore"):
        scale = float(cells / (hi - lo)) if hi > lo else 0.0
    if not math.isfinite(scale):  # splitters a few subnormals apart: one cell, binary search
        scale = 0.0
    shared = np.zeros(cells + 2, bool)
    at = _cell(splitters, lo, scale, cells + 1)
    shared[at] = True
    return lo, scale, np.searchsorted(at, np.arange(cells + 2), side="left"), shared


def _cell(values: np.ndarray, lo: float, scale: float, top: int) -> np.ndarray:
    if scale == 0.0:  # one cell for all (equal, or too near or too far apart to scale)
        return np.ones(np.shape(values), np.intp)
    with np.errstate(over="ignore"):  # beyond the grid: clipped to its last cell
        out = np.subtract(values, lo)
        out *= scale
    out += 1.0
    return np.clip(out, 0.0, top, out=out).astype(np.intp)


def _bucket_of(values: np.ndarray, splitters: np.ndarray, grid) -> np.ndarray:
    """2 #{s < v} + [v is a splitter]: open intervals are the even buckets, splitters the odd
    ones (int16: ``MAX_SPLITTERS`` keeps 2k + 1 < 2^15)."""
    if not len(splitters):
        return np.zeros(len(values), np.int16)
    lo, scale, below, shared = grid
    cell = _cell(values, lo, scale, len(below) - 1)
    n_below, near = below[cell], shared[cell]
    near_values = values[near]
    n_below[near] = found = np.searchsorted(splitters, near_values, side="left")
    bucket = 2 * n_below.astype(np.int16)
    bucket[near] += np.append(splitters, np.inf)[found] == near_values
    return bucket


def _spill(values: Values, splitters: np.ndarray, folder: str, side: str):
    """Counts (int64) and sums of the values by bucket, in one pass; the values of the open
    buckets appended to their files ``folder/<side><bucket>``."""
    n_buckets = 2 * len(splitters) + 1
    counts, sums = np.zeros(n_buckets, np.int64), np.zeros(n_buckets)
    grid = _grid(splitters) if len(splitters) else None
    for chunk in values.chunks():
        bucket = _bucket_of(chunk, splitters, grid)
        counts += np.bincount(bucket, minlength=n_buckets)
        sums += np.bincount(bucket, weights=chunk, minlength=n_buckets)
        _append_open(chunk, bucket, folder, side)
    return counts, sums


def _append_open(chunk: np.ndarray, bucket: np.ndarray, folder: str, side: str) -> None:
    """Append the chunk's values of each open (even) bucket to that bucket's file."""
    keep = bucket % 2 == 0
    bucket = bucket[keep]
    order = np.argsort(bucket, kind="stable")
    values, bucket = chunk[keep][order], bucket[order]
    edges = np.flatnonzero(np.diff(bucket)) + 1
    for lo, hi in zip(np.concatenate(([0], edges)), np.concatenate((edges, [len(bucket)]))):
        if hi > lo:
            with open(_path(folder, side, int(bucket[lo])), "ab") as f:
                values[lo:hi].tofile(f)


def _path(folder: str, side: str, bucket: int) -> str:
    return os.path.join(folder, f"{side}{bucket}.f8")


def _across(sums: np.ndarray, other_counts: np.ndarray) -> float:
    """sum_b X_b N^y_(>b) (or Y_b N^x_(>b)): each value of bucket b is the min against the other
    vector's values in every higher bucket."""
    above = other_counts.sum() - np.cumsum(other_counts)
    return math.fsum(sums * above.astype(float))


def _at_splitters(nx: np.ndarray, ny: np.ndarray, splitters: np.ndarray) -> float:
    """sum over the buckets {s} of N^x N^y s (every pair of the bucket has min s)."""
    return math.fsum(nx[1::2].astype(float) * ny[1::2] * splitters)
