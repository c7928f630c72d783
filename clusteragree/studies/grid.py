"""One runner for every study: the cells of a design grid (every combination of its factors'
levels, each replicated ``reps`` times, each replication with its own seed derived from one
seed), and the execution of a study's tasks serially, in local processes or on a Dask cluster,
under one progress bar (``run_tasks``).

The cells come in the order of nested loops over the factors as given, the first outermost,
with the replications innermost:

>>> [(c.levels["k"], c.levels["balance"], c.rep)
...  for c in grid_cells({"k": [2, 3], "balance": ["balanced", "unbalanced"]}, reps=2, seed=1)]
... # doctest: +NORMALIZE_WHITESPACE
[(2, 'balanced', 0), (2, 'balanced', 1), (2, 'unbalanced', 0), (2, 'unbalanced', 1),
 (3, 'balanced', 0), (3, 'balanced', 1), (3, 'unbalanced', 0), (3, 'unbalanced', 1)]

Every replication gets a ``numpy.random.SeedSequence`` (``Cell.seed``) derived from the root
(``root_seed``: a SeedSequence as given; a Generator gives ``SeedSequence(its
integers(2**63))``; an int, ``SeedSequence(seed)``; None, fresh entropy), by one of the two
schemes the studies use:

* ``seeding="spawn"`` (default): the root spawns one child per cell, in the cells' order, and
  each cell one child per replication: cell i, replication r gets
  ``root.spawn(cells)[i].spawn(reps)[r]``. A cell's first replications do not depend on
  ``reps``; they depend on the cell's position in the grid. (``approximations``:
  ``design_null_means``, ``simulated_agreement``.)
* ``seeding="keyed"``: ``SeedSequence(root.entropy, spawn_key=root.spawn_key + key(levels) +
  (rep,))``, with ``key`` mapping a cell's levels to whole numbers (``keyed_seed``). A cell's
  seed depends on its levels alone, whatever other cells are asked for, in whatever order.
  (``null_shapes``; ``simulate.design``, whose rows' seeds the study runner ``study.run``
  starts from.)

>>> cells = grid_cells({"k": [2, 3]}, seed=7, seeding="keyed", key=lambda lv: (lv["k"],))
>>> cells[1].seed.spawn_key == keyed_seed(7, (3, 0)).spawn_key == (3, 0)
True
"""

from __future__ import annotations

import ctypes
import itertools
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass

import numpy as np

from .._validate import check_bool, check_choice, check_positive_int, check_seed

__all__ = ["Cell", "SEEDINGS", "grid_cells", "keyed_seed", "root_seed", "run_grid",
           "run_tasks"]

#: The seed derivations of ``grid_cells``: by position ("spawn") or by the cell's levels.
SEEDINGS = ("spawn", "keyed")


@dataclass(frozen=True)
class Cell:
    """One replication of one design cell: its factors' ``levels`` (name -> level, in the
    factors' order), the replication number ``rep`` (0, 1, ...) and its ``seed``."""

    levels: dict
    rep: int
    seed: np.random.SeedSequence


def root_seed(seed) -> np.random.SeedSequence:
    """The root SeedSequence of a grid: a SeedSequence as given (``"spawn"`` seeding spawns
    from it, so it advances); a Generator gives ``SeedSequence(seed.integers(2**63))`` (one
    draw); an int ``SeedSequence(seed)``; None fresh entropy.

    >>> root_seed(5).entropy, root_seed(np.random.SeedSequence(5, spawn_key=(1,))).spawn_key
    (5, (1,))
    """
    if isinstance(seed, np.random.SeedSequence):
        return seed
    if isinstance(seed, np.random.Generator):
        return np.random.SeedSequence(int(seed.integers(2**63)))
    check_seed(seed)  # type and sign checks
    return np.random.SeedSequence(None if seed is None else int(seed))


def _keyed(root: np.random.SeedSequence, key) -> np.random.SeedSequence:
    return np.random.SeedSequence(root.entropy, spawn_key=root.spawn_key + tuple(key))


def keyed_seed(seed, key) -> np.random.SeedSequence:
    """The ``"keyed"`` seed of one replication: ``SeedSequence(root.entropy,
    spawn_key=root.spawn_key + key)`` with ``root = root_seed(seed)`` and ``key`` the cell's
    key followed by the replication number; the same SeedSequence ``grid_cells`` gives it.

    >>> a = keyed_seed(1, (2, 0, 500, 3))
    >>> b = np.random.SeedSequence(1, spawn_key=(2, 0, 500, 3))
    >>> a.generate_state(4).tolist() == b.generate_state(4).tolist()
    True
    """
    return _keyed(root_seed(seed), _check_key(key))


def _check_key(key) -> tuple[int, ...]:
    if isinstance(key, (str, bytes)) or not hasattr(key, "__iter__"):
        raise TypeError(f"a cell's key must be a sequence of whole numbers, got {key!r}")
    key = tuple(key)
    for v in key:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or v < 0:
            raise ValueError(f"a cell's key must hold non-negative whole numbers, got {key!r}")
    return tuple(int(v) for v in key)


def _check_factors(factors) -> dict[str, tuple]:
    if not isinstance(factors, Mapping) or not factors:
        raise TypeError(f"factors must be a non-empty mapping name -> levels, got {factors!r}")
    out = {}
    for name, levels in factors.items():
        if isinstance(levels, (str, bytes)) or not hasattr(levels, "__iter__"):
            raise TypeError(f"the levels of factor {name!r} must be a sequence, got {levels!r}")
        levels = tuple(levels)
        if not levels:
            raise ValueError(f"factor {name!r} has no levels")
        out[name] = levels
    return out


def grid_cells(factors: Mapping, reps: int = 1, seed=None, *, seeding: str = "spawn",
               key: Callable | None = None) -> list[Cell]:
    """Every replication of every cell of the design ``factors`` (name -> levels), in order
    (nested loops over the factors as given, replications innermost), each with its seed:
    ``seeding="spawn"`` by the cell's position, ``"keyed"`` by ``key(levels)`` (a tuple of
    non-negative whole numbers; required then); see the module's text.

    >>> cells = grid_cells({"n": [60, 90]}, reps=2, seed=1)
    >>> root = np.random.SeedSequence(1)
    >>> [c.seed.spawn_key for c in cells] == [s.spawn_key for c in root.spawn(2)
    ...                                       for s in c.spawn(2)]
    True
    """
    factors = _check_factors(factors)
    reps = check_positive_int(reps, "reps")
    seeding = check_choice(seeding, "seeding", SEEDINGS)
    if seeding == "keyed" and not callable(key):
        raise TypeError("seeding='keyed' needs key=, a function of a cell's levels giving a "
                        "tuple of whole numbers")
    if seeding == "spawn" and key is not None:
        raise ValueError("key= is for seeding='keyed'; seeding='spawn' derives the seeds from "
                         "the cells' positions")
    levels = [dict(zip(factors, combo)) for combo in itertools.product(*factors.values())]
    root = root_seed(seed)
    if seeding == "spawn":
        seeds = [cell.spawn(reps) for cell in root.spawn(len(levels))]
    else:
        seeds = []
        for lv in levels:
            base = _check_key(key(lv))
            seeds.append([_keyed(root, base + (r,)) for r in range(reps)])
    return [Cell(lv, r, s) for lv, ss in zip(levels, seeds) for r, s in enumerate(ss)]


def run_grid(work: Callable[[Cell], object], factors: Mapping, reps: int = 1, seed=None, *,
             seeding: str = "spawn", key: Callable | None = None, progress: bool = False,
             desc: str = "design cells", unit: str = "cell") -> list:
    """``[work(cell) for cell in grid_cells(factors, reps, seed, seeding=..., key=...)]``,
    in the cells' order, with one progress bar (tqdm; ``desc``, ``unit``) over them when
    ``progress`` is True (off by default).

    >>> run_grid(lambda c: (c.levels["k"], c.rep), {"k": [2, 3]}, reps=2, seed=1)
    [(2, 0), (2, 1), (3, 0), (3, 1)]
    """
    if not callable(work):
        raise TypeError(f"work must be a function of a Cell, got {work!r}")
    progress = check_bool(progress, "progress")
    cells = grid_cells(factors, reps, seed, seeding=seeding, key=key)
    return run_tasks(work, cells, progress=progress, desc=desc, unit=unit)


def run_tasks(work: Callable, items: Iterable, args: tuple = (), *, client=None,
              processes: int | None = None, progress: bool = False, desc: str = "tasks",
              unit: str = "task", done: Callable | None = None):
    """``work(item, *args)`` for every item: in order in this process, in ``processes``
    local processes (``processes > 1``), or on the Dask cluster ``client``, with one progress
    bar (tqdm; ``desc``, ``unit``) when ``progress`` is True.

    Without ``done``, returns the results in the items' order. With ``done``, calls
    ``done(item, result)`` as each task finishes (in the order they finish: a study writes
    each unit's file then, so an interrupted study keeps what is done) and returns None. An
    interruption drops the queued tasks of the local processes; the workers end when this
    process ends, even when it is killed.

    >>> run_tasks(lambda x, k: x * k, [1, 2, 3], (10,))
    [10, 20, 30]
    """
    items = list(items)
    results: dict[int, object] = {}

    def finish(i, result):
        if done is None:
            results[i] = result
        else:
            done(items[i], result)
        bar.update()

    bar = None
    try:
        if client is not None:
            from dask.distributed import as_completed as dask_completed

            futures = {client.submit(work, item, *args, pure=False): i
                       for i, item in enumerate(items)}
            bar = _bar(len(items), progress, desc, unit)
            for fut in dask_completed(futures):
                finish(futures[fut], fut.result())
        elif processes is not None and processes > 1:
            pool = ProcessPoolExecutor(max_workers=processes, mp_context=_pool_context(),
                                       initializer=_worker_init, initargs=(os.getpid(),))
            try:
                futures = {pool.submit(work, item, *args): i for i, item in enumerate(items)}
                bar = _bar(len(items), progress, desc, unit)  # after the workers start: no
                for fut in as_completed(futures):              # thread is forked
                    finish(futures[fut], fut.result())
            except BaseException:  # interrupted: drop the queued tasks, keep what is done
                pool.shutdown(wait=True, cancel_futures=True)
                raise
            pool.shutdown()
        else:
            bar = _bar(len(items), progress, desc, unit)
            for i, item in enumerate(items):
                finish(i, work(item, *args))
    finally:
        if bar is not None:
            bar.close()
    return [results[i] for i in range(len(items))] if done is None else None


def _bar(total: int, progress: bool, desc: str, unit: str):
    """A tqdm bar (in a notebook, its widget), or a disabled one that shows nothing."""
    if progress:
        from tqdm.auto import tqdm
    else:
        from tqdm import tqdm
    return tqdm(total=total, desc=desc, unit=unit, disable=not progress)


_PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _pool_context():
    """Workers are children of this process on every platform (``fork`` on Linux, where the
    kernel can end them with it; ``spawn`` elsewhere), never of a fork server, so that a
    worker's parent is the study's process."""
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")


def _worker_init(parent: int) -> None:
    """Tie a pool worker's life to the study's process ``parent``: on Linux the kernel sends
    it SIGKILL when the parent dies (``prctl(PR_SET_PDEATHSIG)``); everywhere a watchdog
    thread ends it within a second of the parent's death; and a worker whose parent died
    before this ran ends at once."""
    if sys.platform.startswith("linux"):
        try:  # the process's own symbols include the C library's prctl
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL),
                                                    0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl: the watchdog remains
            pass
    if os.getppid() != parent:  # the parent died before the death signal was armed
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="clusteragree-parent-watch",
                     daemon=True).start()


def _watch_parent(parent: int, interval: float = 1.0) -> None:
    while True:
        time.sleep(interval)
        if os.getppid() != parent:  # orphaned: adopted by another process
            os._exit(1)
