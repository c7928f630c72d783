#!/usr/bin/env python
"""Wall time of every report notebook, in quick and in default mode, kernel start-up apart.

    python benchmarks/bench_reports.py            # quick and default mode (about 3 minutes)
    python benchmarks/bench_reports.py --quick    # quick mode only (about a minute)

Each report runs through ``clusteragree.report(name, output=..., **params)`` (papermill executes
the notebook, nbconvert renders it), three phases timed apart in the same run:

* kernel start-up: the time papermill takes to run a notebook whose only cell is an empty
  parameters cell (start a Python kernel, import nothing, shut it down), measured here first;
* the report: the whole ``report()`` call, minus that start-up time, which is what the
  notebook's own work and the rendering cost;
* PDF: the default report rendered to PDF (WeasyPrint) on top of its HTML, in default mode.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import nbformat
import papermill as pm

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _bench import print_header  # noqa: E402

import clusteragree as ca  # noqa: E402
from clusteragree.reports.runner import REPORTS  # noqa: E402


def kernel_startup(folder: Path, repeats: int = 3) -> float:
    """The best of ``repeats`` runs of an empty notebook through papermill."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1", metadata={"tags": ["parameters"]})]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    src, out = folder / "empty.ipynb", folder / "empty-out.ipynb"
    nbformat.write(nb, str(src))
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        pm.execute_notebook(str(src), str(out), kernel_name="python3", progress_bar=False,
                            log_output=False)
        best = min(best, time.perf_counter() - start)
    return best


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="quick mode only")
    args = parser.parse_args(argv)
    print_header("Report notebooks: wall time in quick and default mode", "papermill",
                 pm.__version__)
    modes = [("quick", {"quick": True})] + ([] if args.quick else [("default", {})])
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        startup = kernel_startup(folder)
        print(f"kernel start-up (empty notebook through papermill, best of 3): {startup:.2f} s\n")
        print(f"{'report':<28}{'mode':<9}{'whole call':>12}{'minus start-up':>16}")
        for name in REPORTS:
            for mode, params in modes:
                seconds = timed(lambda: ca.report(name, output=folder / f"{name}-{mode}.html",
                                                  progress=False, **params))
                print(f"{name:<28}{mode:<9}{seconds:>10.1f} s{seconds - startup:>14.1f} s")
        default = next(iter(REPORTS))
        for mode, params in modes:
            seconds = timed(lambda: ca.report(default, output=folder / f"{default}-{mode}.pdf",
                                              format="pdf", progress=False, **params))
            print(f"{default + ' (PDF)':<28}{mode:<9}{seconds:>10.1f} s"
                  f"{seconds - startup:>14.1f} s")
    print("\n(one run each; 'minus start-up' subtracts the empty-notebook time above)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
