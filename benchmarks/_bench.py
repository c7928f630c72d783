"""Helpers shared by the benchmark scripts (timing display, profiles, machine state)."""

from __future__ import annotations

import cProfile
import io
import os
import platform
import pstats
import subprocess
import time

import numpy as np

import clusteragree as ca


def fmt_s(sec):
    if sec >= 1:
        return f"{sec:8.3f} s "
    if sec >= 1e-3:
        return f"{sec * 1e3:8.2f} ms"
    return f"{sec * 1e6:8.1f} us"


def profile_top(fn, title, top=12):
    """Run ``fn`` under cProfile and print the top entries by internal and by cumulative time."""
    prof = cProfile.Profile()
    prof.enable()
    fn()
    prof.disable()
    for key in ("tottime", "cumulative"):
        buf = io.StringIO()
        pstats.Stats(prof, stream=buf).strip_dirs().sort_stats(key).print_stats(top)
        lines = buf.getvalue().splitlines()
        start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
        print(f"\n  cProfile of {title} (sorted by {key}):")
        for line in lines[max(start - 1, 0):]:
            if line.strip():
                print("    " + line)


def load():
    try:
        return " ".join(f"{v:.2f}" for v in os.getloadavg()) + f" (1, 5, 15 min; {os.cpu_count()} CPUs)"
    except OSError:
        return "n/a"


def git_state():
    """', git <commit>[ + uncommitted changes]' of the package checkout, if it is one."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(ca.__file__)))
    try:
        head = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--", "clusteragree"],
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return f" (git {head}{' + uncommitted changes' if dirty else ''})" if head else ""


def print_header(title: str, peer: str, peer_version: str) -> None:
    """The opening lines of a benchmark report: versions, machine, timing rule, load."""
    print(title)
    print(f"  clusteragree {ca.__version__} from {os.path.dirname(ca.__file__)}{git_state()}")
    print(f"  Python {platform.python_version()}, numpy {np.__version__}, {peer} "
          f"{peer_version}; {platform.machine()}, {os.cpu_count()} CPUs")
    print("  times: time.perf_counter, best of the runs shown, after one warm-up call")
    print("  load average at start: " + load())

def best_time(fn, repeats, budget=None, warmup=None, setup=None):
    """Best wall time of ``fn()`` over up to ``repeats`` runs, after one warm-up call.

    ``warmup``: the warm-up callable (default ``fn``; ``lambda: None`` for none). ``setup`` is
    called before every timed run, outside the timed region. With ``budget`` (seconds), no
    further run is started once the time spent plus one more run would exceed it (at least one
    run is always made). Returns (best seconds, number of timed runs, result of the last run).
    """
    if setup:
        setup()
    (warmup or fn)()
    times, out = [], None
    for _ in range(repeats):
        if setup:
            setup()
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
        if budget is not None and sum(times) + min(times) > budget:
            break
    return min(times), len(times), out
