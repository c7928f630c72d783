"""The stored validation tables (``validation/results/``, shown on docs/validation.md) still hold:
the package's side of every comparison with R and scikit-learn is recomputed and checked
against the stored reference value to the stored tolerance (CI has no R: R's values are read
from r_values.csv), the exact null laws are checked against the stored brute-force laws, a few
of those enumerations are redone, and the summaries are the tables' own.

A change that breaks agreement with R or scikit-learn fails here; so does a change of a
convention on a degenerate case (the stored package value is checked too). After a deliberate
change, ``python validation/run.py`` (``--no-r`` without R) rewrites the tables."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "validation"))
import comparisons as cmp  # noqa: E402

RESULTS = ROOT / "validation" / "results"


def _read(name: str) -> pd.DataFrame:
    return pd.read_csv(RESULTS / name, keep_default_na=False, na_values=["", "NA", "NaN"])


@pytest.fixture(scope="module")
def pairs():
    return cmp.read_label_pairs()


def test_the_stored_labels_are_the_seeded_pairs():
    stored = _read("labels.csv")
    pd.testing.assert_frame_equal(cmp.label_pairs(), stored, check_dtype=False)


def test_r_values_cover_every_case_and_function():
    r = _read("r_values.csv")
    cases = set(_read("labels.csv")["case"])
    assert set(r["case"]) == cases
    assert set(r["func"]) == set(cmp.R_CORRESPONDENCE)
    assert len(r) == len(cases) * len(cmp.R_CORRESPONDENCE)
    stored = _read("r_comparison.csv")
    assert len(stored) == len(r)
    assert np.allclose(stored["reference_value"], r["value"].astype(float), equal_nan=True,
                       rtol=0, atol=0)


def _check(frame: pd.DataFrame, pairs, options_of) -> None:
    """Recompute each row's package value; agreeing rows must agree with the reference to the
    tolerance, the other rows must keep their stored package value and status."""
    failures = []
    for row in frame.itertuples(index=False):
        if row.index == "crosstab":
            continue
        x, y = pairs[row.case]
        index, options, quantity = options_of(row)
        pkg = cmp.package_value(x, y, index, options, quantity)
        status, _, _ = cmp.compare_values(row.reference_value, pkg, row.reference, row.kind)
        if status != row.status:
            failures.append(f"case {row.case} ({row.kind}), {row.reference}: {status}, stored "
                            f"{row.status} (reference {row.reference_value!r}, package {pkg!r})")
        elif status != "agree" and not np.isclose(pkg, row.package_value, rtol=1e-12,
                                                  atol=1e-12, equal_nan=True):
            failures.append(f"case {row.case}, {row.reference}: the package's {pkg!r} on a "
                            f"degenerate case was {row.package_value!r}")
    assert not failures, "\n".join(failures)


def test_the_package_agrees_with_r(pairs):
    frame = _read("r_comparison.csv")
    assert "DISAGREE" not in set(frame["status"])

    def options_of(row):
        index, options, quantity, _ = cmp.R_CORRESPONDENCE[row.reference]
        assert (index, quantity) == (row.index, row.quantity)
        return index, options, quantity

    _check(frame, pairs, options_of)


def test_the_package_agrees_with_scikit_learn(pairs):
    frame = _read("sklearn_comparison.csv")
    assert "DISAGREE" not in set(frame["status"])

    def options_of(row):
        _, _, index, options = cmp.SKLEARN_CORRESPONDENCE[row.reference.removeprefix("sklearn ")]
        assert index == row.index
        return index, options, "value"

    _check(frame, pairs, options_of)


def test_the_tables_are_scikit_learns_contingency_matrix(pairs):
    from sklearn.metrics.cluster import contingency_matrix

    import clusteragree as ca

    for x, y in pairs.values():
        assert np.array_equal(np.asarray(ca.crosstab(x, y).to_dense()), contingency_matrix(x, y))


def test_every_convention_is_explained_and_used():
    used = set()
    for name in ("r_comparison.csv", "sklearn_comparison.csv"):
        frame = _read(name)
        conv = frame[frame["status"] == "convention"]
        used |= set(zip(conv["reference"], conv["kind"]))
    assert used == set(cmp.CONVENTIONS)


# -- exact laws --------------------------------------------------------------------------------

#: The laws checked on every run; the rest (the two models of random partitions of any number
#: of clusters, ~15 s) are marked slow.
_FAST_INDICES = {"adjusted_rand", "mutual_info", "purity"}


def _law_rows(fast: bool):
    laws = _read("exact_laws.csv")
    keep = laws["model"].isin(["perm", "num1", "num"]) | laws["index"].isin(_FAST_INDICES)
    return laws[keep if fast else ~keep]


def _check_laws(rows: pd.DataFrame) -> None:
    support = _read("exact_laws_support.csv")
    tables = {name: (x, y) for name, x, y in cmp.LAW_TABLES}
    failures = []
    for row in rows.itertuples(index=False):
        law = support[(support["table"] == row.table) & (support["model"] == row.model)
                      & (support["index"] == row.index)].reset_index(drop=True)
        assert law["count"].sum() == row.labellings
        x, y = tables[row.table]
        res = cmp.law_against_brute_force(law, x, y, row.index, row.model)
        if not (res["same_support"] and res["max_prob_error"] <= 1e-12
                and res["max_pvalue_error"] <= 1e-12 and res["mean_error"] <= 1e-12):
            failures.append(f"{row.table}, {row.model}, {row.index}: {res}")
    assert not failures, "\n".join(failures)


def test_exact_laws_are_the_brute_force_laws():
    rows = _law_rows(fast=True)
    assert len(rows) >= 150
    _check_laws(rows)


@pytest.mark.slow
def test_exact_laws_are_the_brute_force_laws_all_models():
    _check_laws(_law_rows(fast=False))


@pytest.mark.parametrize("table", [t for t in cmp.LAW_TABLES if len(t[1]) <= 6],
                         ids=lambda t: t[0])
def test_the_enumeration_reproduces_the_stored_laws(table):
    name, x, y = table
    support = _read("exact_laws_support.csv")
    for model in cmp.LAW_MODELS:
        if model == "all" and len(x) > 5:
            continue  # 203**2 pairs of partitions: done by validation/run.py
        for index in ("adjusted_rand", "variation_of_information", "purity"):
            law = cmp.brute_force_law(x, y, index, model)
            stored = support[(support["table"] == name) & (support["model"] == model)
                             & (support["index"] == index)]
            assert law["count"].tolist() == stored["count"].tolist(), (name, model, index)
            assert np.allclose(law["value"], stored["value"], rtol=1e-12, atol=1e-12)


def test_brute_force_counts_every_labelling():
    # perm: n! permutations; all1: Bell(n) partitions; num1: Stirling S(n, Q) partitions.
    law = cmp.brute_force_law([1, 1, 2, 2, 3], [1, 2, 2, 3, 3], "rand", "perm")
    assert law["count"].sum() == 120
    assert cmp.brute_force_law([1, 1, 2, 2, 3], [1, 2, 2, 3, 3], "rand", "all1")[
        "count"].sum() == 52
    assert cmp.brute_force_law([1, 1, 2, 2, 3], [1, 2, 2, 3, 3], "rand", "num1")[
        "count"].sum() == 25


# -- summaries ---------------------------------------------------------------------------------

def test_the_summary_is_the_tables():
    summary = _read("summary.csv").set_index("table")
    for table, name in (("R", "r_comparison.csv"), ("scikit-learn", "sklearn_comparison.csv")):
        frame = _read(name)
        assert summary.loc[table, "comparisons"] == len(frame)
        assert summary.loc[table, "agree"] == (frame["status"] == "agree").sum()
        assert summary.loc[table, "disagree"] == 0
        ok = frame[frame["status"] == "agree"]
        assert summary.loc[table, "max_abs_error"] == pytest.approx(ok["abs_error"].max())
    laws = _read("exact_laws.csv")
    for model, g in laws.groupby("model"):
        assert summary.loc[f"exact laws, model={model}", "comparisons"] == len(g)
        assert g["same_support"].all()


def test_the_benchmark_summary_is_the_stored_benchmark_tables():
    # A benchmark table rewritten without rerunning validation/run.py fails here.
    stored = _read("benchmarks.csv")
    fresh = cmp.benchmark_summaries()
    pd.testing.assert_frame_equal(fresh.fillna("").astype(str), stored.fillna("").astype(str))


# -- the page ----------------------------------------------------------------------------------

def test_the_docs_page_shows_every_stored_table():
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    import validation_page

    page = validation_page.validation_page()
    for ref in (*cmp.R_CORRESPONDENCE, *(f"sklearn {name}" for name in
                                         cmp.SKLEARN_CORRESPONDENCE)):
        assert f"`{ref}`" in page, ref
    for source in _read("benchmarks.csv")["source"]:
        assert f"`{source}`" in page, source
    assert all(f"`{package}`" in page for package in cmp.R_MISSING)
    doc = (ROOT / "docs" / "validation.md").read_text(encoding="utf-8")
    assert "```{include} _generated/validation.md" in doc
    assert "python validation/run.py" in doc
    assert "\nvalidation\n" in (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert "(docs/validation.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
