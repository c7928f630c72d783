#!/usr/bin/env python
"""Exact standardised mutual information (SMI) against FastAMI's Monte Carlo SMI.

    python benchmarks/bench_smi.py            # n = 10^3, 10^4, 10^5 (10 x 10 tables)
    python benchmarks/bench_smi.py --large    # also n = 10^6 (10 x 10), about 15-30 s

What is measured: ``ca.agreement(tab, index="smi")`` on a 10 x 10 table with moderately
dependent clusterings, first call (the per-margins cache cleared), i.e. E[MI] (Vinh et al.) and
the exact Var[MI] under fixed margins (Romano et al. 2014) from scratch; best of 3. Target:
under a second at n = 10^4.

FastAMI (Klede, Altstidl, Zanca & Eskofier 2023, "FastAMI - a Monte Carlo approach to the
adjustment for chance in clustering comparison metrics", AAAI): ``standardized_mutual_info_mc``
of the ``fastami`` package (0.2.1 needs scikit-learn 1.2 and numpy < 2), run in its own
interpreter, given by the environment variable FASTAMI_PYTHON (default
/tmp/fastami-venv/bin/python; skipped when absent):

    python -m venv /tmp/fastami-venv
    /tmp/fastami-venv/bin/pip install fastami==0.2.1 "numpy<2" "scikit-learn==1.2.*"

Its time includes only its call (labels loaded before the clock starts); it is a Monte Carlo
estimate with its own error estimate (precision_goal=0.1, the default), ours is exact.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from _bench import fmt_s, git_state, load

import clusteragree as ca
from clusteragree.indices import standardised

FASTAMI = os.environ.get("FASTAMI_PYTHON", "/tmp/fastami-venv/bin/python")
_FASTAMI_SCRIPT = """
import sys, time
import numpy as np
from fastami import standardized_mutual_info_mc
x, y = np.load(sys.argv[1]), np.load(sys.argv[2])
t0 = time.perf_counter()
smi, err = standardized_mutual_info_mc(x, y, seed=1)
print(time.perf_counter() - t0, smi, err)
"""


def table(n, k=10, seed=0):
    """A k x k table of n objects: x uniform, y equal to x with probability 0.05, else
    uniform (a weak dependence, so that SMI is moderate)."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, k, size=n)
    y = np.where(rng.random(n) < 0.05, x, rng.integers(0, k, size=n))
    return ca.crosstab(x, y), x, y


def time_exact(tab, repeats=3):
    best, value = np.inf, None
    for _ in range(repeats):
        standardised._mi_moments.cache_clear()
        t0 = time.perf_counter()
        value = float(ca.agreement(tab, index="smi"))
        best = min(best, time.perf_counter() - t0)
    return best, value


def time_fastami(x, y):
    if not os.path.exists(FASTAMI):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        fx, fy = os.path.join(tmp, "x.npy"), os.path.join(tmp, "y.npy")
        np.save(fx, x)
        np.save(fy, y)
        out = subprocess.run([FASTAMI, "-c", _FASTAMI_SCRIPT, fx, fy], capture_output=True,
                             text=True, timeout=1800)
    if out.returncode != 0:
        print("  FastAMI failed:", out.stderr.strip().splitlines()[-1:])
        return None
    sec, smi, err = (float(v) for v in out.stdout.split())
    return sec, smi, err


def main():
    sizes = [10**3, 10**4, 10**5] + ([10**6] if "--large" in sys.argv else [])
    print(f"bench_smi{git_state()}; load {load()}")
    print(f"FastAMI: {FASTAMI if os.path.exists(FASTAMI) else 'not found (skipped)'}\n")
    print(f"{'n':>9} {'exact SMI':>12} {'time':>11}   {'FastAMI SMI':>12} {'+/-':>7} "
          f"{'time':>11}")
    for n in sizes:
        tab, x, y = table(n)
        sec, value = time_exact(tab)
        fast = time_fastami(x, y)
        line = f"{n:>9} {value:>12.4f} {fmt_s(sec):>11}"
        if fast is not None:
            line += f"   {fast[1]:>12.4f} {fast[2]:>7.3f} {fmt_s(fast[0]):>11}"
        print(line)
        if n == 10**4:
            print(f"{'':>9} target: under 1 s at n = 10^4 -> "
                  f"{'met' if sec < 1 else 'MISSED'}")


if __name__ == "__main__":
    main()
