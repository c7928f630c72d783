"""Issue 42, item 2: a test's p-value is one object (``PValue``), made in one place from the
null law and the observed value, and every form of it (the printed test, its HTML table, the
frame's columns, the report's column) is written from it."""

import dataclasses
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import clusteragree as ca
from clusteragree.inference import pvalues
from clusteragree.inference.pvalues import PValue, PValueSpec
from clusteragree.reports.results import beyond_floor_texts, pvalue_text

TABLE = [[30, 20], [10, 20]]
SMALL = [[15, 1, 0], [1, 14, 1], [0, 1, 15]]  # 3 x 3, n = 48: at the floor of 999 tables
X = [0, 0, 0, 1, 1, 1, 2, 2, 2, 2] * 20
Y = [0, 0, 1, 1, 1, 2, 2, 2, 0, 0] * 20

#: The p-value's columns of the schema.
COLUMNS = ("pvalue", "pvalue_se", "n_extreme", "pvalue_upper", "pvalue_beyond_floor",
           "pvalue_beyond_floor_se", "log10_pvalue_beyond_floor", "beyond_floor_method")


def _same(a, b) -> bool:
    """Equal, NA and nan equal to each other."""
    if pd.isna(a) and pd.isna(b):
        return True
    return a == b


# -- each kind, from its null law ---------------------------------------------------------------

def test_an_exact_p_value():
    nd = ca.nulls.null_distribution(TABLE, index="rand", method="exact")
    p = PValue.of(nd, ca.agreement(TABLE, index="rand"))
    assert (p.kind, p.se, p.n_extreme, p.method) == ("exact", 0.0, None, "exact")
    assert p.value == pytest.approx(0.0368348, rel=1e-5) and math.isnan(p.upper)
    assert p.text() == "= 0.0368" and p.brief() == "0.0368" and p.bound_reason is None
    assert [(r.label, r.value, r.line) for r in p.rows()] == [
        ("p-value", "0.0368", "p-value = 0.0368")]


def test_an_exact_p_value_below_the_doubles_is_a_bound_never_0():
    tab = [[600, 0], [0, 600]]
    nd = ca.nulls.null_distribution(tab, index="rand", method="exact")
    p = PValue.of(nd, ca.agreement(tab, index="rand"))
    assert p.kind == "exact" and p.value == 0.0 and p.bound_reason == "underflow"
    assert p.text() == "< 1e-300"


def test_a_monte_carlo_estimate_with_its_error_and_count():
    nd = ca.nulls.null_distribution(TABLE, index="rand", method="patefield", n_sim=999, seed=1)
    p = PValue.of(nd, ca.agreement(TABLE, index="rand"))
    assert p.kind == "estimate" and p.n_extreme > 0 and p.n_sim == 999
    assert p.value == (p.n_extreme + 1) / 1000 and p.se == math.sqrt(p.value * (1 - p.value)
                                                                       / 999)
    assert 0 < p.value < p.upper < 1
    assert p.text() == (f"= {p.value:.3g} (Monte Carlo s.e. {p.se:.2g}; {p.n_extreme} of 999 "
                        "simulated values as extreme)")
    assert p.brief() == f"{p.value:.3g} ({p.n_extreme} of 999)"
    share = PValue.of(nd, ca.agreement(TABLE, index="rand"), plus_one=False)
    assert share.value == p.n_extreme / 999


def test_a_bound_at_the_monte_carlo_floor():
    nd = ca.nulls.null_distribution(SMALL, index="rand", method="patefield", n_sim=999, seed=1)
    p = PValue.of(nd, ca.agreement(SMALL, index="rand"))
    assert (p.kind, p.value, p.n_extreme, p.bound_reason) == ("bound", 0.001, 0, "floor")
    assert math.isnan(p.se)  # an error as large as the estimate is never given
    assert p.text() == ("< 0.001 (0 of 999 simulated values as extreme; one-sided 95% upper "
                        "bound 0.00299)")
    assert p.brief() == "< 0.001 (0 of 999)" and p.brief_beyond() == ""
    assert p.beyond is None and p.note is None


def test_a_p_value_beyond_the_floor_and_the_note_when_there_is_none():
    nd = ca.nulls.null_distribution(SMALL, index="rand", method="patefield", n_sim=999, seed=1)
    bound = PValue.of(nd, ca.agreement(SMALL, index="rand"))
    tail = PValue.tail_of(math.log(2.38e-64), 0.29, "importance")
    assert tail.kind == "tail" and tail.value == pytest.approx(2.38e-64)
    assert tail.se == pytest.approx(0.29 * 2.38e-64) and tail.log10 == pytest.approx(
        math.log10(2.38e-64))
    beyond = bound.beyond_floor(tail)
    assert beyond.value == bound.value  # the Monte Carlo p is unchanged
    assert tail.text() == "≈ 2.38e-64 (importance sampling, relative s.e. 29%)"
    assert [r.line for r in beyond.rows()] == [
        f"p-value {bound.text()}",
        "beyond the floor: p ≈ 2.38e-64 (importance sampling, relative s.e. 29%)"]
    assert beyond.brief_beyond() == "≈ 2.4e-64 (IS, s.e. 29%)"
    cols = beyond.columns()
    assert cols["beyond_floor_method"] == "importance" and cols["pvalue"] == 0.001
    assert cols["log10_pvalue_beyond_floor"] == tail.log10
    # the saddlepoint, with importance sampling's check beside it; below the doubles
    checked = PValue.tail_of(-2000.0, math.nan, "saddlepoint", check="importance sampling ...")
    assert checked.value == 0.0 and math.isnan(checked.se)
    assert checked.text() == ("< 1e-300 (log10 p = -868.6; saddlepoint approximation; "
                              "importance sampling ...)")
    # none: the note instead
    noted = bound.beyond_floor(note="rand: no p-value beyond the Monte Carlo floor (...)")
    assert [r.line for r in noted.rows()][1] == noted.note
    assert pd.isna(noted.columns()["pvalue_beyond_floor"])
    with pytest.raises(ValueError, match="only a p-value at its floor"):
        tail.beyond_floor(note="x")


def test_a_tail_probability_of_the_law_itself():
    nd = ca.nulls.null_distribution(X, Y, index="ari", method="importance", n_sim=5000, seed=9)
    t = ca.agreement(X, Y, index="ari")
    p = PValue.of(nd, t)
    assert p.kind == "tail" and p.method == "importance" and p.n_extreme is None
    assert p.log10 == pytest.approx(math.log10(p.value)) and p.se > 0
    assert p.text() == nd.pvalue_text(t) and p.how == nd.pvalue_words(t)
    with pytest.raises(ValueError, match="gives no tail probabilities"):
        ca.nulls.null_distribution(TABLE, index="rand").pvalue_words(0.5)


def test_no_p_value_from_moments():
    nd = ca.nulls.null_distribution(TABLE, index="ari", method="hypergeometric")
    p = PValue.of(nd, ca.agreement(TABLE, index="ari"))
    assert p.kind == "none" and math.isnan(p.value) and p.brief() == "NA"
    assert [r.line for r in p.rows()] == [pvalues.NO_PVALUE]
    assert all(pd.isna(v) for v in p.columns().values())


def test_a_kind_must_be_known():
    with pytest.raises(ValueError, match="kind must be one of"):
        PValue("approximate")


# -- the test holds it, and prints and tabulates it from it -----------------------------------

TESTS = {
    "exact": lambda: ca.agreement_test(TABLE, index="rand", method="exact"),
    "estimate": lambda: ca.agreement_test(TABLE, index="rand", method="patefield", n_sim=999,
                                          seed=1),
    "bound": lambda: ca.agreement_test(SMALL, index="rand", method="patefield", n_sim=999,
                                       seed=1),
    "beyond": lambda: ca.agreement_test(SMALL, index="vi", n_sim=999, seed=1,
                                        method=ca.NullSpec("patefield", beyond_floor=True)),
    "none": lambda: ca.agreement_test(TABLE, index="ari", method="hypergeometric"),
}


@pytest.mark.parametrize("make", TESTS.values(), ids=TESTS.keys())
def test_the_test_reads_its_attributes_rows_and_columns_from_its_p_value(make):
    res = make()
    p = res.pvalue_detail
    assert isinstance(res.pvalue, float)
    beyond = p.beyond or PValue("tail")
    for attr, value in (("pvalue", p.value), ("pvalue_se", p.se), ("n_extreme", p.n_extreme),
                        ("pvalue_upper", p.upper), ("pvalue_beyond_floor", beyond.value),
                        ("pvalue_beyond_floor_se", beyond.se),
                        ("log10_pvalue_beyond_floor", beyond.log10),
                        ("beyond_floor_method", beyond.method), ("beyond_floor_note", p.note),
                        ("beyond_floor_rse", beyond.relative_se),
                        ("beyond_floor_check", beyond.check)):
        assert _same(getattr(res, attr), value), attr
    lines = str(res).splitlines()
    for row in p.rows():  # each of its printed lines, in the printed test
        assert row.line in lines
    html = res._repr_html_()
    assert all(row.value.replace("<", "&lt;") in html for row in p.rows() if row.label)
    frame = res.to_frame()
    for column, value in p.columns().items():
        assert _same(frame[column].iloc[0], value), column


def test_the_printed_and_the_tabulated_forms_come_from_the_p_value(monkeypatch):
    res = TESTS["bound"]()
    monkeypatch.setattr(PValue, "text", lambda self: "= MARK")
    marks = {**dict.fromkeys(COLUMNS, 0.5), "n_extreme": 7, "beyond_floor_method": "MARK"}
    monkeypatch.setattr(PValue, "columns", lambda self: marks)
    assert "p-value = MARK" in str(res) and "MARK" in res._repr_html_()
    row = res.to_frame().iloc[0]
    assert all(row[c] == marks[c] for c in COLUMNS)


def test_a_frame_row_gives_back_its_p_value_for_the_report():
    df = ca.compare(SMALL, indices=["rand", "vi", "purity"], n_sim=999, seed=1, interval=None,
                    method=ca.NullSpec("patefield", beyond_floor=True))
    df = pd.concat([df, ca.compare(TABLE, indices=["rand"], method="exact", interval=None)
                    .rename(index={"rand": "rand exact"})])
    for name, row in df.iterrows():
        p = PValue.from_row(row)
        assert p.kind == ("exact" if name == "rand exact" else "bound")
        assert all(_same(p.columns()[c], row[c]) for c in COLUMNS), name
    assert pvalue_text(df).tolist() == [PValue.from_row(r).brief() for _, r in df.iterrows()]
    assert beyond_floor_texts(df).tolist() == [PValue.from_row(r).brief_beyond()
                                               for _, r in df.iterrows()]
    assert beyond_floor_texts(df)["rand"].startswith("≈ ")


# -- the settings of the test's p-value --------------------------------------------------------

def test_the_settings_of_the_p_value_come_from_the_null_spec():
    assert PValueSpec.of(ca.NullSpec()) == PValueSpec(plus_one=True, beyond_floor=None)
    spec = PValueSpec.of(ca.NullSpec("patefield", plus_one=False, beyond_floor=False))
    assert (spec.plus_one, spec.saddlepoint, spec.importance) == (False, False, False)
    assert (PValueSpec().saddlepoint, PValueSpec().importance) == (True, False)
    assert PValueSpec(beyond_floor=True).importance
    with pytest.raises(TypeError, match="beyond_floor must be True or False"):
        PValueSpec(beyond_floor="yes")
    with pytest.raises(TypeError, match="plus_one must be True or False"):
        PValueSpec(plus_one=np.array([1, 2]))


def test_the_null_engine_never_reads_the_settings_of_the_test():
    """``plus_one`` and ``beyond_floor`` travel in a NullSpec for the user, but no module of
    the nulls reads them, and the tests read them off a NullSpec in ``PValueSpec.of`` only."""
    from clusteragree.nulls.spec import SETTINGS, TEST_SETTINGS

    assert tuple(f.name for f in dataclasses.fields(PValueSpec)) == TEST_SETTINGS
    assert set(TEST_SETTINGS) <= set(SETTINGS)  # a NullSpec still takes them
    names = "|".join(TEST_SETTINGS)
    package = Path(ca.__file__).resolve().parent
    rules = {"nulls": (re.compile(rf"\w\.({names})\b"), "spec.py"),  # attribute reads
             "inference": (re.compile(rf"spec\.({names})\b"), "pvalues.py")}
    found = [f"{path.relative_to(package)}:{number}: {line.strip()}"
             for folder, (read, allowed) in rules.items()
             for path in sorted((package / folder).glob("*.py")) if path.name != allowed
             for number, line in enumerate(path.read_text().splitlines(), 1)
             if read.search(line) and not line.strip().startswith(("#", "``"))]
    assert not found, found


def test_the_beyond_floor_part_is_returned_for_the_test_to_take():
    from clusteragree.inference.beyond_floor import add_beyond_floor

    res = ca.agreement_test(SMALL, index="rand", method="patefield", n_sim=999, seed=1)
    before = res.pvalue_detail
    assert before.kind == "bound" and before.note  # the saddlepoint is refused here, noted
    bare = dataclasses.replace(res, pvalue_detail=PValue.of(res.null, res.statistic))
    (p,), notes = add_beyond_floor([bare], res.clusterings, PValueSpec(beyond_floor=True),
                                   seed=1)
    assert bare.pvalue_detail.note is None and bare.pvalue_detail.beyond is None  # untouched
    assert p.kind == "bound" and p.beyond.method == "importance" and p.value == before.value
    assert notes == []
    (off,), notes = add_beyond_floor([bare], res.clusterings, PValueSpec(beyond_floor=False))
    assert off is bare.pvalue_detail and notes == []
