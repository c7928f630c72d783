"""The ``clusteragree`` command line.

    clusteragree report [NAME] [-p key=value ...] [-o PATH] [--format html|pdf] [--code]
                                               run a report notebook and render it (default:
                                               the agreement report of the Statlog table,
                                               to reports/agreement.html)
    clusteragree report --list                 the reports, one line each
    clusteragree report --all                  every report with its defaults into the
                                               repository's reports/ (run from a clone)
    clusteragree report NAME --parameters      a report's parameters, their defaults and help
    clusteragree report NAME --noise drop      the label -1 (noise) as a policy says:
                                               cluster, singletons or drop
    clusteragree demo [--dataset statlog_em]   agreement of a shipped table by every index,
                                               and adjusted for chance (IADJUST), as text
    clusteragree indices                       the catalogue of indices
    clusteragree study [--quick] [--out DIR] [--fresh] [--processes N | --scheduler ADDRESS]
                                               the thesis' simulation study into a folder
                                               (default studies/thesis-quick or
                                               studies/thesis-repsN), resumable
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings

from ._validate import check_positive_int, check_seed

# Each subcommand imports what it uses when it runs: ``clusteragree --help`` imports no
# pandas, scipy or matplotlib (the package's ``__init__`` is lazy too).

#: The noise policies ``--noise`` takes (those of ``clusteragree.Noise``; a test checks that
#: they are the same), named here so that ``--help`` imports no statistics.
NOISE_POLICIES = ("cluster", "singletons", "drop")


def _agreement_frame(tab):
    import pandas as pd

    from .indices import get_index
    from .inference import agreement

    values = agreement(tab, index="all")
    rows = []
    for name, value in values.items():
        rec = get_index(name)
        rows.append({"index": name, "family": rec.family, "kind": rec.kind, "value": value})
    return pd.DataFrame(rows).set_index("index")


def demo(dataset: str = "statlog_em", out=sys.stdout, n_sim: int = 17_000,
         seed: int = 1):
    """Print a shipped table with its margins, its agreement by every index, and the thesis'
    IADJUST: paired and information indices adjusted for chance with Patefield tables
    (returns the agreement as a DataFrame)."""
    import pandas as pd

    from .datasets import DATASETS, load_dataset
    from .indices import GROUPS
    from .inference import compare, format_results

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
    cols = ["statistic", "null_mean", "null_median", "pvalue", "adjusted_mean",
            "adjusted_median"]
    print("\nAgreement beyond chance (p-value (1 + #{T >= t}) / (B + 1), for distances "
          "T <= t):", file=out)
    print(format_results(adjusted, cols), file=out)
    paired = ", ".join(GROUPS["paired"])
    print(f"\n(The thesis' paired indices: {paired}.)", file=out)
    return frame


#: The width of ``clusteragree indices``: a terminal's, or a page's.
WIDTH = 100


def indices_listing(width: int = WIDTH) -> str:
    """The catalogue of indices as text no wider than ``width``: one block per family, one
    line per index (name, kind, range, title and aliases), long titles wrapped under the
    title column."""
    import textwrap

    from .indices import list_indices

    frame = list_indices()
    name_w = max(map(len, frame.index)) + 2
    kind_w = max(map(len, frame["kind"])) + 2
    range_w = max(map(len, frame["range"])) + 2
    indent = name_w + kind_w + range_w + 2
    lines = [f"{'index':<{name_w + 2}}{'kind':<{kind_w}}{'range':<{range_w}}title (also: aliases)"]
    for family, part in frame.groupby("family", sort=False):
        lines.append("\n" + family)
        for name, row in part.iterrows():
            text = row["title"] + (f" (also: {row['aliases']})" if row["aliases"] else "")
            wrapped = textwrap.wrap(text, width - indent) or [""]
            lines.append(f"  {name:<{name_w}}{row['kind']:<{kind_w}}{row['range']:<{range_w}}"
                         f"{wrapped[0]}".rstrip())
            lines += [" " * indent + more for more in wrapped[1:]]
    return "\n".join(lines)


def _progress():
    """A bar on a terminal; without one (a log, CI), a line now and then."""
    return True if sys.stderr.isatty() else "lines"


def _parameters_table(params, default_width: int = 16) -> str:
    """A report's parameters as an aligned table under a header: name, type, default, help,
    two spaces between columns; a default wider than ``default_width`` is printed whole and
    its help goes on the next line, in the help column."""
    # by cell, not iterrows(): a row's Series turns a default None (noise) into nan
    rows = [(str(key), str(params.at[key, "type"]), repr(params.at[key, "default"]),
             str(params.at[key, "help"])) for key in params.index]
    head = ("parameter", "type", "default", "help")
    widths = [max(len(head[i]), *(len(r[i]) for r in rows)) for i in range(2)]
    widths.append(max(len(head[2]), *(len(r[2]) for r in rows if len(r[2]) <= default_width)))
    indent = sum(widths) + 6

    def line(r):
        left = f"{r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  "
        if len(r[2]) > widths[2]:
            return f"{left}{r[2]}\n{'':<{indent}}{r[3]}"
        return f"{left}{r[2]:<{widths[2]}}  {r[3]}"

    rule = "  ".join("-" * w for w in widths) + "  ----"
    return "\n".join([line(head), rule, *map(line, rows)])


def _report(args) -> int:
    from .reports.runner import (REPORTS, list_reports, parse_assignments, render_examples,
                                 report, report_parameters)

    if args.name is None:
        args.name = next(iter(REPORTS))
    if args.list:
        for name, row in list_reports().iterrows():
            print(f"{name:<28}{row['description']}")
        return 0
    if args.parameters:
        print(_parameters_table(report_parameters(args.name)))
        return 0
    if args.all:
        for path in render_examples(progress=_progress()):
            print(f"wrote {path}")
        return 0
    params = parse_assignments(args.parameter)
    if args.quick:  # shorthand for -p quick=true; it overrides nothing given explicitly
        if params.setdefault("quick", "true").strip().lower() in ("false", "no", "0", "off"):
            raise ValueError(f"--quick contradicts -p quick={params['quick']}")
    if args.noise is not None:  # shorthand for -p noise=POLICY; it must not contradict one
        if params.setdefault("noise", args.noise) != args.noise:
            raise ValueError(f"--noise {args.noise} contradicts -p noise={params['noise']}")
    path = report(args.name, output=args.output, format=args.format, code=args.code,
                  keep_notebook=args.keep_notebook, progress=_progress(), **params)
    print(f"wrote {path}")
    return 0


def _study_folder(quick: bool, reps: int) -> str:
    """The default folder of a study: one per design, ``studies/thesis-quick`` or
    ``studies/thesis-reps30``, so that designs whose unit ids overlap never share one."""
    return "studies/thesis-quick" if quick else f"studies/thesis-reps{reps}"


def _study(args) -> int:
    from .studies.simulate import design
    from .studies.study import DEFAULT_INDICES, StudyWarning, quick_design
    from .studies.study import run as study_run

    if args.indices is None:
        args.indices = ",".join(DEFAULT_INDICES)

    reps = check_positive_int(args.reps, "--reps")
    plan = quick_design(args.seed) if args.quick else design(reps=reps, seed=args.seed)
    n_sim = args.n_sim if args.n_sim is not None else (500 if args.quick else 17_000)
    out = args.out if args.out is not None else _study_folder(args.quick, reps)
    client = None
    if args.scheduler:
        from dask.distributed import Client

        client = Client(args.scheduler)
    try:
        with warnings.catch_warnings():
            other = warnings.showwarning

            def show(message, category, *rest, **options):  # a study's warnings, as the CLI's
                if issubclass(category, StudyWarning):
                    print(f"clusteragree study: warning: {message}", file=sys.stderr)
                else:
                    other(message, category, *rest, **options)

            warnings.showwarning = show
            frame = study_run(plan, algorithms=[a.strip() for a in args.algorithms.split(",")],
                              indices=[i.strip() for i in args.indices.split(",") if i.strip()],
                              n_sim=n_sim, seed=args.seed, client=client, out=out,
                              model=args.model, processes=args.processes,
                              progress=sys.stderr.isatty(), overwrite=args.fresh)
    finally:
        if client is not None:
            client.close()
    print(f"{frame['unit'].nunique()} units, {len(frame)} result rows in {out}")
    if args.output:
        frame.to_csv(args.output, index=False)
        print(f"wrote {args.output}")
    files = f"{out}/unit-*.csv"
    print("Load the results:\n"
          f'  Python: clusteragree.studies.study.load_results("{out}")\n'
          f'  pandas: pd.concat([pd.read_csv(f, dtype={{"scenario": str}}) '
          f'for f in sorted(glob.glob("{files}"))])\n'
          f'  R:      do.call(rbind, lapply(Sys.glob("{files}"), read.csv, '
          'colClasses = c(scenario = "character")))')
    return 0


class _DatasetNames:
    """The names of the shipped data sets, read from ``clusteragree.datasets`` only when
    argparse checks a ``--dataset`` (not when it builds the parser or prints --help)."""

    def _names(self):
        from .datasets import DATASETS

        return sorted(DATASETS)

    def __contains__(self, value) -> bool:
        return value in self._names()

    def __iter__(self):
        return iter(self._names())



def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="clusteragree", description="Agreement between two clusterings, and by chance."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p_demo = sub.add_parser("demo", help="agreement of a shipped table by every index")
    p_demo.add_argument("--dataset", default="statlog_em", choices=_DatasetNames(),
                        metavar="NAME", help="a shipped table (default statlog_em; the "
                        "names: clusteragree.list_datasets())")
    p_demo.add_argument("--n-sim", type=int, default=17_000, help="Patefield tables")
    p_demo.add_argument("--seed", type=int, default=1)
    sub.add_parser("indices", help="list the indices")
    p_rep = sub.add_parser("report", help="run a report notebook and render it to HTML or PDF",
                           description="Run a report notebook with parameters (papermill) and "
                           "render it (nbconvert; code hidden, figures embedded).")
    p_rep.add_argument("name", nargs="?", default=None,
                       help="the report (default: the first of --list, agreement)")
    p_rep.add_argument("-p", "--parameter", action="append", default=[], metavar="KEY=VALUE",
                       help="a notebook parameter, e.g. -p n_sim=2000 (repeat for more)")
    p_rep.add_argument("-o", "--output", help="the report's path (default: reports/NAME.FORMAT)")
    p_rep.add_argument("--format", default=None,
                       help="html or pdf (the [pdf] extra); default: the suffix of -o, else html")
    p_rep.add_argument("--quick", action="store_true", help="shorthand for -p quick=true")
    p_rep.add_argument("--noise", choices=NOISE_POLICIES, default=None,
                       help="shorthand for -p noise=POLICY (the agreement and clusterings "
                            "reports): what the label -1 of density-based clusterers (HDBSCAN, "
                            "DBSCAN) means: one cluster, each object a cluster of its own, or "
                            "objects left out; default: the labels as given")
    code = p_rep.add_mutually_exclusive_group()
    code.add_argument("--code", action="store_true", help="show the code cells")
    code.add_argument("--no-code", action="store_true", help="hide the code cells (default)")
    p_rep.add_argument("--keep-notebook", action="store_true",
                       help="keep the executed notebook beside the report")
    p_rep.add_argument("--list", action="store_true", help="list the reports and stop")
    p_rep.add_argument("--all", action="store_true",
                       help="render every report with its defaults into the repository's "
                            "reports/ (and the default one as PDF too): the committed examples; "
                            "clusteragree must run from a clone")
    p_rep.add_argument("--parameters", action="store_true",
                       help="list the report's parameters and stop")
    p_study = sub.add_parser("study", help="run the thesis' simulation study (design x "
                             "algorithms x indices), resumable, serial, processes or Dask")
    p_study.add_argument("--quick", action="store_true",
                         help="the CI-sized design (12 data sets of 200 objects, 500 tables)")
    p_study.add_argument("--reps", type=int, default=30, help="data sets per scenario (30)")
    p_study.add_argument("--algorithms", default="kmeans,em", help="comma-separated")
    p_study.add_argument("--indices", default=None,
                         help="comma-separated index names or groups (default: the thesis' "
                              "paired and information indices, clusteragree.studies.study."
                              "DEFAULT_INDICES)")
    p_study.add_argument("--n-sim", type=int, default=None,
                         help="tables per null law (17,000; --quick: 500)")
    p_study.add_argument("--model", default="perm", help="random model of the nulls")
    p_study.add_argument("--seed", type=int, default=1)
    p_study.add_argument("--out", default=None,
                         help="the study's folder: its settings (study.json) and one CSV file "
                              "per unit; a re-run with the same settings resumes, one with "
                              "other settings is refused (default: studies/thesis-quick with "
                              "--quick, else studies/thesis-repsN)")
    p_study.add_argument("--fresh", action="store_true",
                         help="start the study over: delete the folder's study.json and unit "
                              "files first")
    p_study.add_argument("--processes", type=int, default=None, help="local processes")
    p_study.add_argument("--scheduler", default=None,
                         help="address of a Dask scheduler, e.g. tcp://host:8786")
    p_study.add_argument("-o", "--output", default=None,
                         help="also write the tidy results to this CSV file")
    args = parser.parse_args(argv)
    try:
        if args.command == "demo":
            demo(args.dataset, n_sim=args.n_sim, seed=args.seed)
        elif args.command == "report":
            return _report(args)
        elif args.command == "study":
            return _study(args)
        else:
            print(indices_listing())
        sys.stdout.flush()
    except BrokenPipeError:  # the reader went away (clusteragree indices | head): not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except (ValueError, TypeError, MemoryError, OSError, ImportError) as exc:
        # bad arguments, a missing file, an unwritable path: say so, no traceback
        parser.exit(2, f"clusteragree {args.command}: error: {exc}\n")
    except Exception as exc:
        runner = sys.modules.get(f"{__package__}.reports.runner")  # loaded by a report only
        if runner is None or not isinstance(exc, runner.ReportError):
            raise
        # a cell failed: its source and message, no report written
        parser.exit(1, f"clusteragree {args.command}: error: {exc}\n")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
