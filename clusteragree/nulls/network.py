"""The exact law of s = sum n_ij^2 or t = sum n_ij log n_ij over all tables with given margins,
by a network-algorithm dynamic programme (Mehta & Patel 1983), and its size estimated from the
margins before any work.

The programme never lists tables. Columns are processed one at a time; given the remaining row
margins r, column j is multivariate hypergeometric, P(c | r) = prod_i C(r_i, c_i) / C(sum r,
b_j), so the table's probability f(M) (``enumeration``) is the product of these column laws.
The state after a column is the multiset of remaining row margins (rows with equal remainders
are exchangeable, so states are sorted and merged), and each state carries the exact law of the
partial statistic: for s an integer, for t the vector of prime exponents of prod n_ij^(n_ij)
(t = sum_p e_p log p; unique factorisation makes equal vectors exactly equal t's and distinct
vectors distinct t's, so merging is exact with no tolerance). The last column is forced, so the
second-last column goes straight to the values of the statistic. A column's entries (state x
partial value x composition) are generated and merged a chunk at a time, and the merged chunks
merged as they come, so the memory is a chunk plus the column's output (3 x 3 tables of 800
objects: about 60 MB, where listing a column's entries at once took over 16 GB). Every
pair-counting index is a function of s, every information index of t (registry
``statistic``), so one law serves them all.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln

from .._docs import fill_doc
from .._moments.combinatorics import count_compositions_upto
from .._validate import check_positive_int
from .enumeration import check_margins
from .spec import DEFAULT_MAX_WORK, ExactLawTooLarge

__all__ = ["statistic_law", "estimate_dp_work", "check_dp_size", "DP_CHUNK_ENTRIES",
           "DP_ESTIMATE_SLACK", "DEFAULT_MAX_WORK"]


def _primes_upto(m: int) -> np.ndarray:
    if m < 2:
        return np.zeros(0, dtype=np.int64)
    sieve = np.ones(m + 1, bool)
    sieve[:2] = False
    for p in range(2, int(m**0.5) + 1):
        if sieve[p]:
            sieve[p * p::p] = False
    return np.flatnonzero(sieve)


def _increments(statistic: str, top: int):
    """Per cell value c = 0..top, the integer vector added to the key, and the key -> value map."""
    c = np.arange(top + 1, dtype=np.int64)
    if statistic == "s":
        return (c * c)[:, None], lambda keys: keys[:, 0]
    primes = _primes_upto(top)
    exps = np.zeros((top + 1, len(primes)), dtype=np.int64)
    for j, p in enumerate(primes):
        v, power = c.copy(), np.zeros(top + 1, dtype=np.int64)
        while True:
            divisible = (v % p == 0) & (v > 0)
            if not divisible.any():
                break
            power += divisible
            v = np.where(divisible, v // p, v)
        exps[:, j] = c * power
    logs = np.log(primes.astype(float))
    if exps.shape[1] == 0:
        return np.zeros((top + 1, 1), dtype=np.int64), lambda keys: np.zeros(len(keys))
    return exps, lambda keys: keys @ logs


def _merge(cols, probs, kind="quicksort"):
    """Sum the probabilities of equal rows of ``cols`` (int64, shape (N, C)); the distinct rows
    are returned in lexicographic order with their sums.

    The rows are given one int64 code that orders them lexicographically, and sorted once: the
    columns are packed in mixed radix (the first most significant) while the code fits in 62
    bits; past that, the code so far is replaced by its rank among its distinct values (which
    keeps the order), and so is a column too wide to pack. ``kind`` is the sort: "stable" for
    rows that arrive as sorted runs.
    """
    if len(cols) == 0:
        return cols, probs
    code, span = np.zeros(len(cols), dtype=np.int64), 1
    for j in range(cols.shape[1]):
        col = cols[:, j]
        low = int(col.min())
        width = int(col.max()) - low + 1
        if width >= 2**62 // len(cols):
            _, col = np.unique(col, return_inverse=True)
            low, width = 0, int(col.max()) + 1
        if span * width >= 2**62:
            _, code = np.unique(code, return_inverse=True)
            span = int(code.max()) + 1
        code = code * width + (col - low)
        span *= width
    order = np.argsort(code, kind=kind)
    code = code[order]
    starts = np.flatnonzero(np.concatenate(([True], code[1:] != code[:-1])))
    return cols[order[starts]], np.add.reduceat(probs[order], starts)


class _RunningSums:
    """Sums of probabilities over equal key rows, fed chunk by chunk.

    Each chunk is merged on arrival; the merged chunks wait in a list and are merged into one
    sorted run as soon as they outnumber it (in rows) and a chunk. The memory is the run (the
    output) plus about one run and one chunk of waiting rows, and a row is merged again only
    when the run has about doubled since its last merge: O(log) merges per row.
    """

    def __init__(self, chunk: int):
        self.chunk = chunk
        self.run: tuple[np.ndarray, np.ndarray] | None = None
        self.waiting: list[tuple[np.ndarray, np.ndarray]] = []
        self.waiting_rows = 0

    def add(self, cols, probs):
        merged = _merge(cols, probs)
        self.waiting.append(merged)
        self.waiting_rows += len(merged[1])
        if self.waiting_rows > max(self.chunk, 0 if self.run is None else len(self.run[1])):
            self._collapse()

    def _collapse(self):
        parts = ([] if self.run is None else [self.run]) + self.waiting
        if len(parts) > 1:
            self.run = _merge(np.concatenate([c for c, _ in parts]),
                              np.concatenate([p for _, p in parts]), kind="stable")
        elif parts:
            self.run = parts[0]
        self.waiting, self.waiting_rows = [], 0

    def result(self):
        self._collapse()
        return self.run


class _DenseSums:
    """Sums of probabilities over one integer key in [0, span), by ``np.add.at`` into an array
    (for s at the last step: no sort); every key that occurred is kept, with probability 0 or
    not."""

    def __init__(self, span: int):
        self.sums = np.zeros(span)
        self.seen = np.zeros(span, dtype=bool)

    def add(self, cols, probs):
        key = cols[:, -1]
        np.add.at(self.sums, key, probs)
        self.seen[key] = True

    def result(self):
        keys = np.flatnonzero(self.seen)
        return keys[:, None].astype(np.int64), self.sums[keys]


def _compositions_of(caps: np.ndarray, total: int):
    """For every row r of ``caps`` (shape (S, K), each row summing to at least ``total``),
    every vector c with 0 <= c <= r and sum c = total, in lexicographic order (as
    ``compositions`` gives them row by row): returns (parent, comps), parent the row of
    ``caps`` each composition belongs to and comps the K columns of the compositions."""
    S, K = caps.shape
    rest = np.cumsum(caps[:, ::-1], axis=1)[:, ::-1] - caps  # sum of the caps after i
    parent = np.arange(S)
    used = np.zeros(S, dtype=np.int64)
    cols: list[np.ndarray] = []
    for i in range(K - 1):  # every partial vector can be completed, so no width is 0
        lo = np.maximum(0, total - used - rest[:, i][parent])
        width = np.minimum(caps[:, i][parent], total - used) - lo + 1
        idx = np.repeat(np.arange(len(used)), width)
        value = np.arange(len(idx)) - (np.cumsum(width) - width - lo)[idx]
        cols = [c[idx] for c in cols] + [value]
        parent, used = parent[idx], used[idx] + value
    cols.append(total - used)  # the last part is what is left
    return parent, cols


def _code_words(K: int, base: int) -> list[tuple[int, int]]:
    """The digits (start, stop) of each int64 word of a state code in base ``base``."""
    per = 1
    while base ** (per + 1) < 2**62:
        per += 1
    return [(i, min(i + per, K)) for i in range(0, K, per)]


def _state_codes(rows: np.ndarray, base: int) -> np.ndarray:
    """Sorted remainder vectors as int64 words in base ``base`` (first digit most
    significant): equal codes are equal states, and codes order states lexicographically."""
    words = _code_words(rows.shape[1], base)
    out = np.empty((len(rows), len(words)), dtype=np.int64)
    for w, (i, j) in enumerate(words):
        out[:, w] = rows[:, i:j] @ (base ** np.arange(j - i - 1, -1, -1, dtype=np.int64))
    return out


def _code_rows(codes: np.ndarray, K: int, base: int) -> np.ndarray:
    """The inverse of ``_state_codes``."""
    rows = np.empty((len(codes), K), dtype=np.int64)
    for w, (i, j) in enumerate(_code_words(K, base)):
        rest = codes[:, w].copy()
        for d in range(j - 1, i - 1, -1):
            rest, rows[:, d] = np.divmod(rest, base)
    return rows


def _blocks(sizes: np.ndarray, chunk: int):
    """Consecutive ranges [lo, hi) of items whose sizes add up to at most ``chunk`` (an item
    larger than ``chunk`` alone)."""
    ends = np.cumsum(sizes)
    lo = 0
    while lo < len(sizes):
        before = ends[lo - 1] if lo else 0
        hi = max(int(np.searchsorted(ends, before + chunk, side="right")), lo + 1)
        yield lo, hi
        lo = hi


#: Entries (state x partial value x column composition) a step of the dynamic programme
#: generates and merges at once: about 100 bytes each for s (30 MB), more for t's longer keys.
DP_CHUNK_ENTRIES = 2**18

#: The last step of s sums into an array indexed by s when s spans at most this many chunks
#: (and no more values than the step has entries); else it merges sorted chunks.
_DENSE_FACTOR = 16


@fill_doc
def statistic_law(rows, cols, statistic: str = "s", max_work: int = DEFAULT_MAX_WORK, *,
                  chunk: int = DP_CHUNK_ENTRIES):
    """The exact law of an additive cell statistic over all tables with the given margins.

    By a network-algorithm dynamic programme (Mehta & Patel 1983): columns are processed one
    at a time, the state being the multiset of remaining row margins, and each state carries
    the exact law of the partial statistic; no table is listed. Every pair-counting index is
    a function of s and every information index of t given the margins, so one law serves
    them all.

    Parameters
    ----------
    %(rows, cols)s
    statistic : {"s", "t"}, default "s"
        s = sum n_ij^2 (pair counting) or t = sum n_ij log n_ij (information; computed
        exactly as prime exponents of prod n_ij^n_ij, so ties are exact).
    max_work : int, default 10,000,000
        The largest dynamic programme allowed, which bounds its time (10**7 entries in
        about a second, two at most): an error, before any work, when the size estimated
        from the margins is far above it, and before any column whose entries (states x
        partial values x column compositions, times the key length) would exceed it. The law
        then takes too long, and Monte Carlo is the way. It does not bound the memory:
        ``chunk`` does.
    chunk : int, default 2**18
        The entries generated at once (about 100 bytes each for s). A column's entries are
        made and merged (equal state and partial value summed) ``chunk`` at a time, and the
        merged chunks merged as they come; the second-last column goes straight to the
        values of the statistic (the last column is forced). So the memory is about
        ``chunk`` entries plus the partial laws after one column, whatever ``max_work`` is
        (3 x 3 tables of 800 objects: about 60 MB). ``chunk`` changes no value, and the
        probabilities only by the order of their sums (to about 1e-14).

    Returns
    -------
    values : ndarray of float
        The distinct values of the statistic, sorted.
    probabilities : ndarray of float
        Their probabilities, summing to 1.

    Raises
    ------
    ValueError
        An unknown statistic, margins with different totals, or a law too large for
        ``max_work``.

    See Also
    --------
    enumerate_tables : Every table (for indices that are not functions of s or t).
    clusteragree.nulls.null_distribution : ``method="exact"`` uses it.

    References
    ----------
    Mehta, C. R. & Patel, N. R. (1983), "A network algorithm for performing Fisher's exact
    test in r x c contingency tables", Journal of the American Statistical Association 78.

    {ref:amorim2015}, App. A.

    Examples
    --------
    >>> v, p = statistic_law([2, 2], [2, 2])      # tables [[1,1],[1,1]] and the two diagonals
    >>> v.tolist(), np.round(p * 6, 12).tolist()
    ([4.0, 8.0], [4.0, 2.0])
    >>> v, p = statistic_law([3, 2], [2, 3], "t")  # t = sum n log n: 4 log 2, 8 log 2, ...
    >>> v.round(4).tolist(), np.round(p * 10, 12).tolist()
    ([1.3863, 2.7726, 4.6821], [6.0, 3.0, 1.0])
    """
    prog = _prepare(rows, cols, statistic, max_work, chunk)
    # the states (sorted remainders) and, state by state, the laws of the partial statistic:
    # keys[starts[i]:starts[i + 1]] with probabilities probs[...] for state i
    states = -np.sort(-prog.a)[None, :]
    keys, probs = np.zeros((1, prog.D), dtype=np.int64), np.ones(1)
    starts = np.array([0, 1])
    if len(prog.b) == 1:
        keys = keys + prog.inc[states[0]].sum(axis=0)
    for j, total in enumerate(prog.b[:-1].tolist()):
        last = j == len(prog.b) - 2  # the next column is forced: go straight to the final keys
        states, keys, probs, starts = _column_step(prog, states, keys, probs, starts, total,
                                                   last)
    return _final_law(prog, keys, probs)


@dataclass(frozen=True)
class _Programme:
    """The constants of one dynamic programme: the margins (``a`` the shorter side, whose
    remainders make the states; ``b`` sorted, the largest column last), the statistic, each
    cell value's key increment ``inc`` and the key -> value map ``to_value``, the base of the
    state codes, the log-factorials ``lg``, the budget and the chunk."""

    statistic: str
    a: np.ndarray
    b: np.ndarray
    inc: np.ndarray
    to_value: Callable
    base: int
    lg: np.ndarray
    max_work: int
    chunk: int

    @property
    def K(self) -> int:
        return len(self.a)

    @property
    def D(self) -> int:
        return self.inc.shape[1]


def _prepare(rows, cols, statistic, max_work, chunk) -> _Programme:
    """The arguments checked, the programme's size checked against ``max_work`` before any
    work (the keys of t; the estimate from the margins), and its constants."""
    if statistic not in ("s", "t"):
        raise ValueError(f"statistic must be 's' or 't', got {statistic!r}")
    a, b = check_margins(rows, cols)
    chunk = check_positive_int(chunk, "chunk")
    if len(a) > len(b):  # the state is the multiset of row remainders: keep it short
        a, b = b, a
    b = np.sort(b)  # the largest column comes last, where it is forced
    top = int(max(a.max(), b.max()))
    if statistic == "t" and (top + 1) * _prime_count_upper_bound(top) > max_work:
        raise ExactLawTooLarge(
            f"the exact law of t for cells up to {top} needs keys of about "
            f"{_prime_count_upper_bound(top):,} prime exponents, more than max_work={max_work:,} "
            "allows", "method='patefield' (Monte Carlo) or raise max_work")
    check_dp_size(a, b, statistic, max_work)  # refuse a hopeless law in milliseconds
    inc, to_value = _increments(statistic, top)
    lg = gammaln(np.arange(int(a.sum()) + 1) + 1.0)
    return _Programme(statistic, a, b, inc, to_value, int(a.max()) + 1, lg, max_work, chunk)


def _check_step(prog: _Programme, work: int) -> None:
    """Refuse a column whose entries, times the key length, exceed ``max_work``."""
    if work * prog.D > prog.max_work:
        raise ExactLawTooLarge(
            f"the exact law of {prog.statistic} for these margins (n = {int(prog.a.sum())}, "
            f"{len(prog.a)} x {len(prog.b)}) needs more than max_work={prog.max_work:,} "
            "entries in one step", "method='patefield' (Monte Carlo) or raise max_work")


def _column_law(prog: _Programme, caps: np.ndarray, total: int, last: bool):
    """One column's compositions for the states ``caps``: their state (``parent``), their
    probabilities given the state ``w``, the key increments of their cells ``step`` (and of the
    forced last column's, when ``last``), and the codes of the states they lead to (None when
    ``last``)."""
    parent, comps = _compositions_of(caps, total)
    r = [caps[:, i][parent] for i in range(prog.K)]
    lg, inc = prog.lg, prog.inc
    # prod_i C(r_i, c_i) / C(sum r, b), normalised over each state's compositions
    # (Vandermonde: they sum to C(sum r, b)), so each column law sums to 1 up to rounding
    logw = sum(lg[r[i]] - lg[comps[i]] - lg[r[i] - comps[i]] for i in range(prog.K))
    first = np.flatnonzero(np.concatenate(([True], parent[1:] != parent[:-1])))
    size = np.diff(np.append(first, len(parent)))  # compositions of each state
    w = np.exp(logw - np.repeat(np.maximum.reduceat(logw, first), size))
    w /= np.repeat(np.add.reduceat(w, first), size)
    step = sum(inc[c] for c in comps)  # (m, D): the column's cells
    code = None
    if last:  # and the forced column's
        step += sum(inc[r[i] - comps[i]] for i in range(prog.K))
    else:
        code = _state_codes(-np.sort(-np.column_stack(
            [r[i] - comps[i] for i in range(prog.K)]), axis=1), prog.base)
    return parent, w, step, code


def _column_step(prog: _Programme, states, keys, probs, starts, total: int, last: bool):
    """One column of the programme: every (state, partial value, composition) entry made and
    merged a chunk at a time; returns the next states, keys, probabilities and state starts
    (after the second-last column, ``last``: the final keys, and states and starts None)."""
    nkeys = np.diff(starts)
    ncomps = [count_compositions_upto(r, total, prog.max_work) for r in states.tolist()]
    work = sum(c * k for c, k in zip(ncomps, nkeys.tolist()))
    _check_step(prog, work)
    a, b, chunk = prog.a, prog.b, prog.chunk
    span = int(min((a * a).sum(), (b * b).sum())) + 1  # s <= sum a_i^2, sum b_j^2
    dense = last and prog.D == 1 and span <= min(_DENSE_FACTOR * chunk, work)
    sums = _DenseSums(span) if dense else _RunningSums(chunk)
    for lo, hi in _blocks(np.array(ncomps) * nkeys, chunk):
        parent, w, step, code = _column_law(prog, states[lo:hi], total, last)
        per = nkeys[lo + parent]  # entries of each composition: one per key of its state
        # entry e (counted from the block's first) is composition p's entry e - before[p]:
        # key number e - before[p] of p's state, keys[starts[state] + e - before[p]]
        before = np.cumsum(per) - per
        shift = starts[lo + parent] - before
        for p0, p1 in _blocks(per, chunk):
            reps = per[p0:p1]
            at = np.arange(int(reps.sum())) + np.repeat(shift[p0:p1] + before[p0], reps)
            new_keys = np.repeat(step[p0:p1], reps, axis=0) + keys[at]
            new_probs = np.repeat(w[p0:p1], reps) * probs[at]
            if not last:
                new_keys = np.column_stack((np.repeat(code[p0:p1], reps, axis=0), new_keys))
            sums.add(new_keys, new_probs)
    merged, probs = sums.result()
    if last:
        return None, merged, probs, None
    # sorted by state code, then key
    G = merged.shape[1] - prog.D
    codes, keys = merged[:, :G], np.ascontiguousarray(merged[:, G:])
    new = np.flatnonzero(np.concatenate(([True], (codes[1:] != codes[:-1]).any(axis=1))))
    return _code_rows(codes[new], prog.K, prog.base), keys, probs, np.append(new, len(keys))


def _final_law(prog: _Programme, keys, probs):
    """The values of the statistic from the final keys, sorted, with their probabilities
    (normalised: their total differs from 1 by rounding only, which is checked)."""
    values = np.asarray(prog.to_value(keys), dtype=float)
    order = np.argsort(values, kind="stable")
    total_p = probs.sum()
    if not math.isclose(total_p, 1.0, rel_tol=1e-6):  # pragma: no cover - a bug guard
        raise RuntimeError(f"the dynamic programme lost probability (total {total_p!r})")
    return values[order], probs[order] / total_p


def _count_sorted_states(caps: list[int], total: int) -> float:
    """The number of states of the dynamic programme with ``total`` objects left: sorted
    remainder vectors r_1 >= ... >= r_K >= 0 with r_i <= caps_i (caps sorted decreasingly)
    and sum r = total (every such vector is reachable)."""
    top = min(caps[0], total)
    ways = np.zeros((top + 1, total + 1))  # ways[v, s]: prefixes ending in v with sum s
    ways[np.arange(top + 1), np.arange(top + 1)] = 1.0
    for cap in caps[1:]:
        suffix = np.cumsum(ways[::-1], axis=0)[::-1]  # prefixes ending in a value >= v
        new = np.zeros_like(ways)
        for v in range(min(cap, top) + 1):
            new[v, v:] = suffix[v, :total + 1 - v]
        ways = new
    return float(ways[:, total].sum())


def _count_partitions_at_most(total: int, parts: int) -> float:
    """The number of partitions of ``total`` into at most ``parts`` parts."""
    p = np.zeros(total + 1)
    p[0] = 1.0
    for k in range(1, min(parts, total) + 1):
        for r in range(k):
            p[r::k] = np.cumsum(p[r::k])
    return float(p[total])


#: The exact state and partition counts of the estimate are used while their tables have at most
#: this many entries; past it, upper bounds that cost nothing (a larger estimate, never a smaller).
_EXACT_COUNT_CELLS = 2_000_000


def _states_upper_bound(caps: list[int], total: int) -> float:
    """States with ``total`` objects left: counted exactly when cheap, else bounded by the
    vectors r_2..r_K (r_1 is then fixed by the total)."""
    top = min(caps[0], total)
    if (top + 1) * (total + 1) <= _EXACT_COUNT_CELLS:
        return _count_sorted_states(caps, total)
    return math.prod(float(min(c, total) + 1) for c in caps[1:])


def _first_column_orbits(a: np.ndarray, total: int, comps: float) -> float:
    """The entries of the programme after its first column: the ``comps`` compositions c of
    ``total`` with c_i <= a_i, counted up to the permutations of rows of equal margins (such
    rows are exchangeable, so permuted compositions give one state and one key).

    Exact by the generating function prod over groups of m equal margins c of the Gaussian
    binomial [m + c, m]_q = prod_{i=1..m} (1 - q^(c+i)) / (1 - q^i) (partitions into at most
    m parts of at most c), truncated at q^total, in floats and kept within
    [comps / |G|, comps] (|G| = prod m!, the orbit count's bounds); ``comps`` itself where
    every margin differs or the polynomials would be long."""
    _, mult = np.unique(a, return_counts=True)
    if (mult == 1).all() or total + 1 > _EXACT_COUNT_CELLS:
        return comps
    poly = np.zeros(total + 1)
    poly[0] = 1.0
    for c, m in zip(*np.unique(a, return_counts=True)):
        for i in range(1, int(m) + 1):
            for r in range(i):  # divide by 1 - q^i: cumulative sums with stride i
                poly[r::i] = np.cumsum(poly[r::i])
            shift = int(c) + i  # multiply by 1 - q^(c + i)
            if shift <= total:
                poly[shift:] -= poly[:total + 1 - shift].copy()
    symmetry = float(np.prod([math.factorial(int(m)) for m in mult]))
    return min(comps, max(comps / symmetry, float(poly[total])))


def _column_multisets(done: np.ndarray, K: int) -> float:
    """A bound on the distinct partial values of s or t after the columns ``done`` (sorted):
    both are sums over the columns of a function of the column's multiset of cells, a
    partition of its total into at most K parts, so they take at most as many values as there
    are multisets of such partitions (C(P + g - 1, g) for g columns of one total with P
    partitions); infinite where counting the partitions would be long."""
    out = 1.0
    for total, g in zip(*np.unique(done, return_counts=True)):
        total, g = int(total), int(g)
        if (total + 1) * (min(total, K) + 1) > _EXACT_COUNT_CELLS:
            return math.inf
        parts = _count_partitions_at_most(total, K)
        out *= math.exp(math.lgamma(parts + g) - math.lgamma(g + 1) - math.lgamma(parts))
    return out


def _prime_count_upper_bound(m: int) -> int:
    """pi(m), the number of primes up to m: counted by the sieve up to 10**6, else bounded by
    1.26 m / log m (Rosser & Schoenfeld 1962, for m > 1)."""
    if m <= 10**6:
        return len(_primes_upto(m))
    return int(1.26 * m / math.log(m)) + 1


def estimate_dp_work(rows, cols, statistic: str = "s", stop_above: float | None = None) -> float:
    """An estimate, computed in milliseconds from the margins alone, of the largest step of
    the dynamic programme (entries: states x partial values x column compositions, times the
    key length).

    States are counted exactly (sorted remainder vectors); the partial values of a state are
    bounded by the number of partial tables per state, counted up to the permutations of rows
    of equal margins (exchangeable: they give one state and one value, so the first column
    has as many entries as compositions up to these permutations, ``_first_column_orbits``),
    by the number of multisets of the filled columns' cell multisets
    (``_column_multisets``), and, for s, by half the range of the partial sums of squares,
    for t by the number of multisets of the cells filled so far; compositions are counted at
    the state of proportional remainders. On random margins (K, Q <= 6, n <= 400, 40% with
    equal row margins, 80 laws) it was never below the true size, and above it by a median
    factor 2.3 (95%: 6.3, at most 12); on the iris 3 x 3 tables (rows 50, 50, 50) by 1.1 to
    1.3, where before the row symmetry was counted it was 6 to 7 times the true size. It
    measures the time of the programme (``statistic_law`` takes 0.03 to 0.2 microseconds an
    entry, median 0.08: 10**7 entries in about a second, two at most), not its memory, which
    its chunks bound.

    With ``stop_above``, the estimate stops as soon as it is known to exceed that number and
    returns a number above it: a refusal costs a few column counts, whatever n is (a 10 x 10
    table of 10**4 objects: about a millisecond). Where an exact count would need a table of
    more than two million entries (very large n), an upper bound that costs nothing takes its
    place, so the estimate can only grow.
    """
    a, b = check_margins(rows, cols)
    if len(a) > len(b):
        a, b = b, a
    b = np.sort(b)
    K, n = len(a), int(a.sum())
    caps = sorted(a.tolist(), reverse=True)
    top = int(max(a.max(), b.max()))
    width = 1 if statistic == "s" else max(1, _prime_count_upper_bound(top))
    limit = math.inf if stop_above is None else float(stop_above)
    # compositions are counted up to a cap that decides the comparison with the limit
    cap = 10**30 if stop_above is None else int(min(limit, 1e30)) + 1
    best, used, paths = 0.0, 0, 1.0
    for j, total in enumerate(b[:-1].tolist()):
        left = n - used
        typical = tuple((2 * int(c) * left + n) // (2 * n) for c in a)  # rounded, exact
        comps = float(count_compositions_upto(typical, int(total), cap))
        if comps * width > limit:
            return comps * width
        if j == 0:
            states, keys = 1.0, 1.0
            paths = _first_column_orbits(a, int(total), comps) / comps  # times comps below
        else:
            states = max(_states_upper_bound(caps, left), 1.0)
            if statistic == "s":
                spread = (1 - 1 / K) * float((b[:j].astype(float) ** 2).sum()) / 2 + 1
            elif (used + 1) * (j * K + 1) <= _EXACT_COUNT_CELLS:
                spread = _count_partitions_at_most(used, j * K)
            else:
                spread = math.inf
            keys = max(1.0, min(paths / states, spread, _column_multisets(b[:j], K)))
        best = max(best, states * keys * comps * width)
        if best > limit:
            return best
        paths *= comps
        used += total
    return best


#: Explicit exact requests are refused when the estimate exceeds max_work by this factor; in
#: between, the dynamic programme runs and checks each step exactly.
DP_ESTIMATE_SLACK = 30


def check_dp_size(rows, cols, statistic, max_work=DEFAULT_MAX_WORK, strict=False):
    """Raise ``ValueError``, in milliseconds, when the dynamic programme for ``statistic``
    would exceed ``max_work`` (``strict``: by the estimate; otherwise by more than
    ``DP_ESTIMATE_SLACK`` times the estimate's usual error)."""
    limit = max_work if strict else DP_ESTIMATE_SLACK * max_work
    est = estimate_dp_work(rows, cols, statistic, stop_above=limit)
    if est > limit:
        a, b = check_margins(rows, cols)
        raise ExactLawTooLarge(
            f"the exact law of {statistic} for these margins (n = {int(a.sum())}, {len(a)} x "
            f"{len(b)}) needs more than {limit:.2g} entries (estimated from the margins) in one "
            f"step of the dynamic programme, more than max_work={max_work:,} allows",
            "method='auto' (Monte Carlo or closed-form moments), or raise max_work")

