"""Recompute the validation tables of ``validation/results/`` (what docs/validation.md shows).

    python validation/run.py            # everything; R's values by Rscript validation/r_values.R
    python validation/run.py --no-r     # keep the stored r_values.csv (no R on this machine)

Writes, from a clone (the package imported is the clone's):

- ``labels.csv``: the label pairs (seeded; ``comparisons.label_pairs``);
- ``python_versions.csv``: the versions of Python, the package, numpy, scipy, pandas and
  scikit-learn;
- ``r_values.csv``, ``r_versions.csv``: R's values (by ``r_values.R``; kept with ``--no-r``);
- ``r_comparison.csv``, ``sklearn_comparison.csv``: each reference value beside the package's,
  with the absolute and relative error and a status;
- ``exact_laws.csv``, ``exact_laws_support.csv``: the package's exact null laws against
  brute-force enumeration, and the enumerated laws themselves;
- ``benchmarks.csv``: the stored benchmark tables summarised (nothing rerun);
- ``summary.csv``: per table, the count of comparisons and the largest errors.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # the clone's package

import comparisons as cmp  # noqa: E402

import clusteragree as ca  # noqa: E402


def _write(frame: pd.DataFrame, name: str) -> None:
    frame.to_csv(cmp.RESULTS / name, index=False, float_format="%.17g")
    print(f"wrote validation/results/{name} ({len(frame)} rows)")


def r_comparison(pairs) -> pd.DataFrame:
    """R's stored values beside the package's."""
    r = pd.read_csv(cmp.RESULTS / "r_values.csv")
    kinds = pd.read_csv(cmp.RESULTS / "labels.csv").groupby("case")["kind"].first()
    rows = []
    for case, func, value in r.itertuples(index=False):
        x, y = pairs[case]
        index, options, quantity, note = cmp.R_CORRESPONDENCE[func]
        pkg = cmp.package_value(x, y, index, options, quantity)
        status, err, rel = cmp.compare_values(float(value), pkg, func, kinds[case])
        rows.append({"case": case, "kind": kinds[case], "n": len(x), "K": len(set(x)),
                     "Q": len(set(y)), "reference": func, "index": index, "quantity": quantity,
                     "reference_value": float(value), "package_value": pkg,
                     "abs_error": err, "rel_error": rel, "status": status})
    return pd.DataFrame(rows)


def sklearn_comparison(pairs) -> pd.DataFrame:
    """scikit-learn's values beside the package's, and the contingency tables cell by cell."""
    from sklearn import metrics
    from sklearn.metrics.cluster import contingency_matrix

    kinds = pd.read_csv(cmp.RESULTS / "labels.csv").groupby("case")["kind"].first()
    rows = []
    for case, (x, y) in pairs.items():
        for name, (func, kwargs, index, options) in cmp.SKLEARN_CORRESPONDENCE.items():
            ref = float(getattr(metrics, func)(x, y, **kwargs))
            pkg = cmp.package_value(x, y, index, options, "value")
            status, err, rel = cmp.compare_values(ref, pkg, f"sklearn {name}", kinds[case])
            rows.append({"case": case, "kind": kinds[case], "n": len(x), "K": len(set(x)),
                         "Q": len(set(y)), "reference": f"sklearn {name}", "index": index,
                         "options": repr(options) if options else "",
                         "reference_value": ref, "package_value": pkg,
                         "abs_error": err, "rel_error": rel, "status": status})
        ref = contingency_matrix(x, y)
        pkg = np.asarray(ca.crosstab(x, y).to_dense())
        same = ref.shape == pkg.shape and bool((ref == pkg).all())
        rows.append({"case": case, "kind": kinds[case], "n": len(x), "K": len(set(x)),
                     "Q": len(set(y)), "reference": "sklearn contingency_matrix",
                     "index": "crosstab", "options": "",
                     # the number of cells; the error is 0 when every cell is the same
                     "reference_value": float(ref.size), "package_value": float(pkg.size),
                     "abs_error": 0.0 if same else np.inf,
                     "rel_error": 0.0 if same else np.nan,
                     "status": "agree" if same else "DISAGREE"})
    return pd.DataFrame(rows)


def python_versions() -> pd.DataFrame:
    """The versions the Python side was computed with."""
    import platform

    import scipy
    import sklearn

    return pd.DataFrame({"package": ["Python", "clusteragree", "numpy", "scipy", "pandas",
                                     "scikit-learn"],
                         "version": [platform.python_version(), ca.__version__, np.__version__,
                                     scipy.__version__, pd.__version__, sklearn.__version__]})


def exact_laws() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every (table, model, index) law by enumeration and against the package's exact law."""
    rows, supports = [], []
    for name, x, y in cmp.LAW_TABLES:
        for model, largest in cmp.LAW_MODELS.items():
            if len(x) > largest:
                continue
            for index in cmp.LAW_INDICES:
                law = cmp.brute_force_law(x, y, index, model)
                res = cmp.law_against_brute_force(law, x, y, index, model)
                rows.append({"table": name, "n": len(x), "model": model, "index": index, **res})
                supports.append(law.assign(table=name, model=model, index=index))
        print(f"  {name}: done")
    support = pd.concat(supports)[["table", "model", "index", "value", "count"]]
    return pd.DataFrame(rows), support


def summary(r, sk, laws) -> pd.DataFrame:
    """Per table: comparisons, how many agree, are undefined or disagree, the largest errors."""
    rows = []
    for table, frame in (("R", r), ("scikit-learn", sk)):
        ok = frame[frame["status"] == "agree"]
        rows.append({"table": table, "comparisons": len(frame), "agree": len(ok),
                     "undefined": int(frame["status"].str.contains("undefined").sum()),
                     "convention": int((frame["status"] == "convention").sum()),
                     "disagree": int((frame["status"] == "DISAGREE").sum()),
                     "max_abs_error": ok["abs_error"].max(),
                     "max_rel_error": ok["rel_error"].max(),
                     "tolerance": f"{cmp.ATOL:g} + {cmp.RTOL:g} |reference|"})
    for model, g in laws.groupby("model", sort=False):
        rows.append({"table": f"exact laws, model={model}", "comparisons": len(g),
                     "agree": int((g["same_support"] & (g["max_prob_error"] <= 1e-12)).sum()),
                     "undefined": 0, "convention": 0, "disagree": int((~g["same_support"]
                                                      | (g["max_prob_error"] > 1e-12)).sum()),
                     "max_abs_error": g[["max_prob_error", "max_pvalue_error"]].max().max(),
                     "max_rel_error": g["max_pvalue_rel_error"].max(),
                     "tolerance": "probabilities within 1e-12"})
    return pd.DataFrame(rows)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-r", action="store_true",
                        help="keep the stored R values (r_values.csv) instead of running R")
    args = parser.parse_args(argv)
    cmp.RESULTS.mkdir(exist_ok=True)
    print(f"clusteragree {ca.__version__} from {Path(ca.__file__).parent}")
    _write(cmp.label_pairs(), "labels.csv")
    pairs = cmp.read_label_pairs()
    if not args.no_r:
        if shutil.which("Rscript") is None:
            parser.error("Rscript not found: pass --no-r to keep the stored R values")
        subprocess.run(["Rscript", str(cmp.HERE / "r_values.R"),
                        str(cmp.RESULTS / "labels.csv"), str(cmp.RESULTS / "r_values.csv")],
                       check=True)
        print("wrote validation/results/r_values.csv, r_versions.csv (Rscript)")
    _write(python_versions(), "python_versions.csv")
    r = r_comparison(pairs)
    _write(r, "r_comparison.csv")
    sk = sklearn_comparison(pairs)
    _write(sk, "sklearn_comparison.csv")
    laws, support = exact_laws()
    _write(laws, "exact_laws.csv")
    _write(support, "exact_laws_support.csv")
    bench = cmp.benchmark_summaries()
    _write(bench, "benchmarks.csv")
    summ = summary(r, sk, laws)
    _write(summ, "summary.csv")
    print(summ.to_string(index=False))
    bad = int(summ["disagree"].fillna(0).sum())
    if bad:
        print(f"{bad} comparisons disagree: see the status columns")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
