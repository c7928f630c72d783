"""The tables of the validation page, written at build time from the stored CSV files.

``write_validation(path)`` writes ``docs/_generated/validation.md`` (MyST markdown, included by
``docs/validation.md``) from ``validation/results/*.csv`` (what ``python validation/run.py``
stores) and from ``validation/comparisons.py`` (which function corresponds to which index, the
R packages missing, the conventions of the degenerate cases), so the page always shows the
stored tables. Nothing is recomputed here: ``tests/test_validation.py`` checks that the stored
tables still hold.
"""

from __future__ import annotations

import importlib.util
import math
import re
from pathlib import Path

from generated_pages import write_page

import pandas as pd

ROOT = Path(__file__).resolve().parents[2]
VALIDATION = ROOT / "validation"
RESULTS = VALIDATION / "results"

#: Characters that MyST markdown would read as markup in a table cell.
_MARKUP = re.compile(r"([\\`*_\[\]<>|$#~])")


def _comparisons():
    """validation/comparisons.py, imported by path (it is not part of the package)."""
    spec = importlib.util.spec_from_file_location("validation_comparisons",
                                                  VALIDATION / "comparisons.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _text(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return _MARKUP.sub(r"\\\1", " ".join(str(value).split()))


def _code(value) -> str:
    return f"`{value}`" if value else ""


def _err(x) -> str:
    """An error in scientific notation ("0" when exactly 0, blank when undefined)."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return "0" if x == 0 else f"{x:.1e}"


def _num(x) -> str:
    if isinstance(x, float) and math.isnan(x):
        return "NaN"
    return f"{x:.6g}"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(row) + " |" for row in rows]
    return out + [""]


def _read(name: str) -> pd.DataFrame:
    return pd.read_csv(RESULTS / name, keep_default_na=False, na_values=["", "NA", "NaN"])


def _by_reference(frame: pd.DataFrame, describe) -> list[list[str]]:
    """One row per reference function: what it is compared with, counts, largest errors."""
    rows = []
    for ref, g in frame.groupby("reference", sort=False):
        ok = g[g["status"] == "agree"]
        other = len(g) - len(ok)
        rows.append([_code(ref), describe(ref, g), str(len(g)), str(len(ok)),
                     str(other) if other else "0", _err(ok["abs_error"].max()),
                     _err(ok["rel_error"].max())])
    return rows


def validation_page() -> str:
    """The generated part of docs/validation.md."""
    cmp = _comparisons()
    out = []
    summary = _read("summary.csv")
    out += ["## Summary", "",
            "Comparisons, how many agree to the tolerance, how many are undefined on one side "
            "(0/0 on a degenerate case: the reference gives NaN, the package its convention), "
            "how many are a documented difference of convention, how many disagree, and the "
            "largest absolute and relative errors over the agreeing ones (relative errors "
            "leave out references within 1e-8 of 0; for the exact laws: the largest error of "
            "a probability or tail p-value, and the largest relative error of a tail "
            "p-value).", ""]
    out += _table(["table", "comparisons", "agree", "undefined", "convention", "disagree",
                   "largest abs. error", "largest rel. error", "tolerance"],
                  [[_text(r.table), str(r.comparisons), str(r.agree), str(r.undefined),
                    str(r.convention), str(r.disagree), _err(r.max_abs_error),
                    _err(r.max_rel_error), _text(r.tolerance)]
                   for r in summary.itertuples(index=False)])

    versions = _read("python_versions.csv")
    rver = _read("r_versions.csv")
    out += ["Computed with " + ", ".join(f"{p} {v}" for p, v in zip(versions["package"],
                                                                     versions["version"]))
            + "; " + ", ".join(f"{p} {v}" for p, v in zip(rver["package"], rver["version"]))
            + ".", ""]

    labels = _read("labels.csv")
    cases = labels.groupby("case").agg(kind=("kind", "first"), n=("x", "size"),
                                       K=("x", "nunique"), Q=("y", "nunique"))
    out += ["## The label pairs", "",
            f"{len(cases)} pairs of labellings (`validation/results/labels.csv`, drawn by "
            "`comparisons.label_pairs` from a fixed seed): independent ones of several n, K "
            "and Q, dependent ones (y a noisy copy of x, a refinement, x relabelled) and the "
            "degenerate ones.", ""]
    out += _table(["case", "kind", "n", "K", "Q"],
                  [[str(c), _text(r.kind), str(r.n), str(r.K), str(r.Q)]
                   for c, r in cases.iterrows()])

    r = _read("r_comparison.csv")

    def describe_r(ref, g):
        index, options, quantity, note = cmp.R_CORRESPONDENCE[ref]
        what = {"value": f"`{index}`", "discordant pairs": f"`{index}` × n² / 2",
                "null mean": f"null mean of `{index}` (fixed margins)",
                "null variance": f"null variance of `{index}` (fixed margins)"}[quantity]
        return what + (f": {_text(note)}" if note else "")

    out += ["## Against R", "",
            "Each R function's value on every label pair (`validation/r_values.R`, output "
            "`validation/results/r_values.csv`) against the package's value of the "
            "corresponding index (`validation/results/r_comparison.csv`).", ""]
    out += _table(["R function", "package", "pairs", "agree", "undefined or convention",
                   "largest abs. error", "largest rel. error"], _by_reference(r, describe_r))
    out += ["Not compared:", ""]
    out += [f"- R package `{p}`: {_text(why)}" for p, why in cmp.R_MISSING.items()]
    out += [f"- `{f}`: {_text(why)}" for f, why in cmp.R_NOT_COMPARED.items()]
    out += [""]

    sk = _read("sklearn_comparison.csv")

    def describe_sk(ref, g):
        if ref.endswith("contingency_matrix"):
            return "`ca.crosstab`, cell by cell (errors: 0 when every cell is the same)"
        _, _, index, options = cmp.SKLEARN_CORRESPONDENCE[ref.removeprefix("sklearn ")]
        return f"`{index}`" + (f" ({', '.join(f'{k}={v!r}' for k, v in options.items())})"
                               if options else "")

    out += ["## Against scikit-learn", "",
            "Each function of `sklearn.metrics` on every label pair against the package "
            "(`validation/results/sklearn_comparison.csv`).", ""]
    out += _table(["scikit-learn function", "package", "pairs", "agree",
                   "undefined or convention", "largest abs. error", "largest rel. error"],
                  _by_reference(sk, describe_sk))

    odd = pd.concat([r, sk])
    odd = odd[odd["status"] != "agree"]
    out += ["## Degenerate cases", "",
            "Where an index is 0/0 (one cluster, all singletons, n = 2), the references return "
            "NaN or a number of their own; the package returns the value its documentation "
            "gives. Every such row, with the reason where both sides give a number:", ""]
    rows = []
    for (ref, kind), g in odd.groupby(["reference", "kind"], sort=False):
        why = cmp.CONVENTIONS.get((ref, kind),
                                  "0/0 in the reference's formula: it returns NaN"
                                  if g["reference_value"].isna().all() else "")
        rows.append([_code(ref), _text(kind), ", ".join(sorted({str(c) for c in g["case"]})),
                     ", ".join(sorted({_num(v) for v in g["reference_value"]})),
                     ", ".join(sorted({_num(v) for v in g["package_value"]})), _text(why)])
    out += _table(["reference", "case kind", "case", "reference value", "package value",
                   "why they differ"], rows)

    laws = _read("exact_laws.csv")
    out += ["## Exact null laws against brute force", "",
            "For each small table, every equally likely labelling under the model is "
            "enumerated (`comparisons.brute_force_law`): `perm` permutes y's labels (n! "
            "labellings); `num1` and `all1` keep x and draw y among all set partitions with "
            "y's number of clusters or with any number; `num` and `all` draw both. The index "
            "of every table gives the law (ties within 1e-9 merged), which is compared with "
            "`ca.nulls.null_distribution(..., method=\"exact\", model=...)`: the same support, "
            "each probability, the mean, the variance and the tail p-value P(T ≥ t) at every "
            "support point (`validation/results/exact_laws.csv`; the enumerated laws: "
            "`exact_laws_support.csv`). Indices: "
            + ", ".join(f"`{i}`" for i in cmp.LAW_INDICES) + ".", ""]
    rows = []
    for model, g in laws.groupby("model", sort=False):
        rows.append([f"`{model}`", str(g["table"].nunique()), str(len(g)),
                     f"{g['labellings'].max():,}", str(int(g["same_support"].sum())),
                     _err(g["max_prob_error"].max()), _err(g["mean_error"].max()),
                     _err(g["var_error"].max()), _err(g["max_pvalue_error"].max()),
                     _err(g["max_pvalue_rel_error"].max())])
    out += _table(["model", "tables", "laws", "largest enumeration", "same support",
                   "probability error", "mean error", "variance error", "p-value error",
                   "p-value rel. error"], rows)
    tables = laws.groupby("table", sort=False).agg(n=("n", "first"),
                                                   models=("model", lambda m: ", ".join(
                                                       dict.fromkeys(m))))
    out += _table(["table (x's clusters × y's)", "n", "models"],
                  [[_text(t), str(r.n), r.models] for t, r in tables.iterrows()])

    bench = _read("benchmarks.csv")
    out += ["## The benchmarks' tables", "",
            "Coverage, calibration and tail accuracy, measured by the simulation benchmarks "
            "and stored in `benchmarks/results/` ({doc}`guide/benchmarks` says how): each "
            "stored table summarised by its count of cells and its worst value (read from the "
            "files, not rerun: `validation/results/benchmarks.csv`).", ""]
    out += _table(["file", "measure", "cells", "worst", "where", "target"],
                  [[f"`{b.source}`", _text(b.measure), str(b.cells), _text(b.worst),
                    _text(b.worst_at), _text(b.target)] for b in bench.itertuples(index=False)])
    return "\n".join(out)


def write_validation(path) -> Path:
    """Write the page to ``path`` (``docs/_generated/validation.md``), only when it changed."""
    return write_page(path, validation_page())


def _on_builder_inited(app) -> None:
    write_validation(Path(app.srcdir) / "_generated" / "validation.md")


def setup(app):
    """Register the hook that writes the tables before the sources are read."""
    app.connect("builder-inited", _on_builder_inited)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
