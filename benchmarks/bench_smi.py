#!/usr/bin/env python
"""Exact standardised mutual information (SMI) against FastAMI's Monte Carlo SMI, and the
exact moments of MI against the asymptotic ones (``moments="asymptotic"``).

    python benchmarks/bench_smi.py            # about 20 s (exact at 50 x 50, n = 10^6)
    python benchmarks/bench_smi.py --quick    # about 15 s: no n = 10^6 anywhere
    python benchmarks/bench_smi.py --large    # also n = 10^6 in the FastAMI section (10 x 10)

Exact against FastAMI: n = 10^3, 10^4, 10^5, with the ratio of the times (exact / FastAMI).

What is measured: ``ca.agreement(tab, index="smi")`` on a 10 x 10 table with moderately
dependent clusterings, first call (the per-margins cache cleared), i.e. E[MI] (Vinh et al.) and
the exact Var[MI] under fixed margins (Romano et al. 2014) from scratch; best of 3. Targets:
under a second at n = 10^4, and faster than FastAMI at n = 10^5.

FastAMI (Klede, Altstidl, Zanca & Eskofier 2023, "FastAMI - a Monte Carlo approach to the
adjustment for chance in clustering comparison metrics", AAAI): ``standardized_mutual_info_mc``
of the ``fastami`` package (0.2.1 needs scikit-learn 1.2 and numpy < 2), run in its own
interpreter, given by the environment variable FASTAMI_PYTHON (default
/tmp/fastami-venv/bin/python; skipped when absent):

    python -m venv /tmp/fastami-venv
    /tmp/fastami-venv/bin/pip install fastami==0.2.1 "numpy<2" "scikit-learn==1.2.*"

Its time includes only its call (labels loaded before the clock starts; best of 3, like ours,
to even out the load of a shared machine); it is a Monte Carlo estimate with its own error
estimate (precision_goal=0.1, the default), ours is exact.

Exact against asymptotic moments (one run): K x K tables of n objects whose cluster sizes are
drawn from Dirichlet(5, ..., 5) (unequal, within a factor of about 3; and two lopsided 10 x 10
tables, Dirichlet(1)), y equal to x with probability 0.05: the time of ``ca.agreement(tab,
index="smi", moments=...)`` from a cold cache (best of 3; one run when it takes over 5 s), the
time ratio, the relative error of the asymptotic sd of MI and the absolute error of SMI against
the exact ones, the effective cell count c and the stated bound on the sd's error
(``smi_sd_error_bound``), and what ``moments="auto"`` uses.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
import time
import warnings

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
best = float("inf")
for _ in range(3):
    t0 = time.perf_counter()
    smi, err = standardized_mutual_info_mc(x, y, seed=1)
    best = min(best, time.perf_counter() - t0)
print(best, smi, err)
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
        value = float(ca.agreement(tab, index="smi", moments="exact"))
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


def dirichlet_table(n, k, alpha, seed=0):
    """A k x k table of n objects: cluster probabilities of x and y from Dirichlet(alpha),
    y equal to x with probability 0.05."""
    rng = np.random.default_rng(seed)
    px, py = rng.dirichlet(alpha * np.ones(k)), rng.dirichlet(alpha * np.ones(k))
    x = rng.choice(k, size=n, p=px)
    y = np.where(rng.random(n) < 0.05, x, rng.choice(k, size=n, p=py))
    return ca.crosstab(x, y)


def time_moments(tab, moments):
    best, value, repeats = np.inf, None, 3
    while repeats:
        standardised._mi_moments.cache_clear()
        standardised._method.cache_clear()
        t0 = time.perf_counter()
        value = float(ca.agreement(tab, index="smi", moments=moments))
        sec = time.perf_counter() - t0
        best = min(best, sec)
        repeats = 0 if sec > 5 else repeats - 1
    return best, value


def exact_vs_asymptotic(quick):
    cases = [(10, 10**4, 5.0), (10, 10**5, 5.0), (20, 10**5, 5.0), (50, 10**5, 5.0)]
    cases += [] if quick else [(50, 10**6, 5.0)]
    cases += [(10, 10**4, 1.0), (10, 10**5, 1.0)]
    print("\nExact against asymptotic moments of MI (Var[2 n MI] = 2 df q^2, q = 2 n E[MI] / df)")
    print(f"{'table':>8} {'n':>8} {'alpha':>5} {'exact':>11} {'asymptotic':>11} {'ratio':>7} "
          f"{'sd rel. err':>11} {'SMI':>9} {'SMI abs. err':>12} {'c':>6} {'bound':>8} "
          f"{'auto':>10}")
    for k, n, alpha in cases:
        tab = dirichlet_table(n, k, alpha)
        rows, cols = tab.row_sums, tab.col_sums
        t_ex, smi_ex = time_moments(tab, "exact")
        _, v_ex = standardised.mi_null_moments(rows, cols, moments="exact")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # sparse tables: the bound says it
            t_as, smi_as = time_moments(tab, "asymptotic")
        _, v_as = standardised.mi_null_moments(rows, cols, moments="asymptotic")
        a, b = standardised.margins_key(rows, cols)
        print(f"{f'{k}x{k}':>8} {n:>8} {alpha:>5g} {fmt_s(t_ex):>11} {fmt_s(t_as):>11} "
              f"{t_ex / t_as:>7.0f} {np.sqrt(v_as / v_ex) - 1:>+11.2e} {smi_ex:>9.3f} "
              f"{abs(smi_as - smi_ex):>12.2e} {standardised._effective_cells(a, b):>6.1f} "
              f"{standardised.smi_sd_error_bound(rows, cols):>8.1e} "
              f"{standardised.smi_moments_method(tab):>10}", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="no n = 10^6 (about 15 s)")
    parser.add_argument("--large", action="store_true", help="n = 10^6 against FastAMI too")
    args = parser.parse_args()
    sizes = [10**3, 10**4, 10**5]
    sizes += [10**6] if args.large and not args.quick else []
    print(f"bench_smi{git_state()}; load {load()}")
    print(f"FastAMI: {FASTAMI if os.path.exists(FASTAMI) else 'not found (skipped)'}\n")
    print(f"{'n':>9} {'exact SMI':>12} {'time':>11}   {'FastAMI SMI':>12} {'+/-':>7} "
          f"{'time':>11} {'ratio':>6}")
    for n in sizes:
        tab, x, y = table(n)
        sec, value = time_exact(tab)
        fast = time_fastami(x, y)
        line = f"{n:>9} {value:>12.4f} {fmt_s(sec):>11}"
        if fast is not None:
            line += (f"   {fast[1]:>12.4f} {fast[2]:>7.3f} {fmt_s(fast[0]):>11} "
                     f"{sec / fast[0]:>6.2f}")
        print(line, flush=True)
        if n == 10**4:
            print(f"{'':>9} target: under 1 s at n = 10^4 -> "
                  f"{'met' if sec < 1 else 'MISSED'}")
        if n == 10**5 and fast is not None:
            print(f"{'':>9} target: faster than FastAMI at n = 10^5 -> "
                  f"{'met' if sec < fast[0] else 'MISSED'}")
    exact_vs_asymptotic(args.quick)


if __name__ == "__main__":
    main()
