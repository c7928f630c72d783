"""The ``clusteragree`` command line.

    clusteragree demo [--dataset statlog_em]   agreement of a shipped table by every index,
                                               and adjusted for chance (IADJUST)
    clusteragree indices                       the catalogue of indices
"""

from __future__ import annotations

import argparse
import os
import sys

import pandas as pd

from ._validate import check_positive_int, check_seed
from .datasets import DATASETS, load_dataset
from .indices import GROUPS, agreement, get_index, list_indices
from .inference import compare, format_results


def _agreement_frame(tab) -> pd.DataFrame:
    values = agreement(tab, index="all")
    rows = []
    for name, value in values.items():
        rec = get_index(name)
        rows.append({"index": name, "family": rec.family, "kind": rec.kind, "value": value})
    return pd.DataFrame(rows).set_index("index")


def demo(dataset: str = "statlog_em", out=sys.stdout, n_sim: int = 17_000,
         seed: int = 1) -> pd.DataFrame:
    """Print a shipped table with its margins, its agreement by every index, and the thesis'
    IADJUST: paired and information indices adjusted for chance with Patefield tables."""
    check_positive_int(n_sim, "n_sim")
    check_seed(seed)
    tab = load_dataset(dataset)
    frame = _agreement_frame(tab)
    print(f"Data set: {dataset} -- {DATASETS[dataset][2]}\n", file=out)
    print(tab, file=out)
    print(f"\nAgreement between {tab.names[0]} (rows) and {tab.names[1]} (columns):", file=out)
    with pd.option_context("display.max_rows", None, "display.float_format", "{:.4f}".format):
        for family, part in frame.groupby("family", sort=False):
            print(f"\n  {family}", file=out)
            print(part[["kind", "value"]].to_string(), file=out)
    adjusted = compare(tab, indices=["paired", "simple"], method="patefield", n_sim=n_sim,
                       seed=seed)
    cols = ["observed", "null_mean", "null_median", "p_value", "adjusted_mean",
            "adjusted_median"]
    print("\nAgreement beyond chance (p-value (1 + #{T >= t}) / (B + 1), for distances "
          "T <= t):", file=out)
    print(format_results(adjusted, cols), file=out)
    paired = ", ".join(GROUPS["paired"])
    print(f"\n(The thesis' paired indices: {paired}.)", file=out)
    return frame


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="clusteragree", description="Agreement between two clusterings, and by chance."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p_demo = sub.add_parser("demo", help="agreement of a shipped table by every index")
    p_demo.add_argument("--dataset", default="statlog_em", choices=sorted(DATASETS))
    p_demo.add_argument("--n-sim", type=int, default=17_000, help="Patefield tables")
    p_demo.add_argument("--seed", type=int, default=1)
    sub.add_parser("indices", help="list the indices")
    args = parser.parse_args(argv)
    try:
        if args.command == "demo":
            demo(args.dataset, n_sim=args.n_sim, seed=args.seed)
        else:
            with pd.option_context("display.max_rows", None, "display.width", 200,
                                   "display.max_colwidth", 40):
                print(list_indices()[["title", "family", "kind", "range",
                                      "aliases"]].to_string())
        sys.stdout.flush()
    except (ValueError, TypeError, MemoryError) as exc:  # bad arguments: say so, no traceback
        parser.exit(2, f"clusteragree {args.command}: error: {exc}\n")
    except BrokenPipeError:  # the reader went away (clusteragree indices | head): not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
