"""P-values beyond the Monte Carlo floor (issue 32, item 3): method="auto" adds the
importance-sampling tail where the Monte Carlo p-value is at its floor."""

import math

import numpy as np
import pandas as pd
import pytest

import clusteragree as ca
from clusteragree.inference import beyond_floor
from clusteragree.nulls.importance import TooSlow, tail_probability
from clusteragree.inference.results import RESULT_COLUMNS

STRONG = [[20, 2, 1, 0], [1, 22, 2, 1], [0, 2, 21, 1], [1, 0, 2, 24]]  # 4 x 4, n = 100
SMALL = [[15, 1, 0], [1, 14, 1], [0, 1, 15]]  # 3 x 3, n = 48: at the floor of 999 tables
WEAK = [[12, 10], [9, 11]]  # far from the floor

#: The benchmark's worst case (benchmarks/results/saddlepoint.md): 7 standard errors.
WORST_SE = 7


def auto_mc(**kw):
    """method="auto" sent to Monte Carlo by a small exact budget, asking for the tail beyond
    the floor unless told otherwise."""
    kw.setdefault("beyond_floor", True)
    return ca.NullSpec(max_work=1, max_tables=1, **kw)


def test_floor_gets_importance_p_within_error_of_exact(monkeypatch):
    # the accuracy is tested here, not the time limit (a loaded machine may pass the 20 s
    # predicted for this table: 46 rounds of moves; test_too_slow_is_skipped_with_note)
    monkeypatch.setattr(beyond_floor, "MAX_SECONDS", None)
    exact = ca.agreement_test(STRONG, index="rand",
                              method=ca.NullSpec(method="exact", max_work=10**9)).pvalue
    res = ca.agreement_test(STRONG, index="rand", method=auto_mc(seed=1))
    assert res.method == "patefield" and res.n_extreme == 0
    assert res.pvalue == pytest.approx(1 / 17001)  # the Monte Carlo p is unchanged
    p, rse = res.pvalue_beyond_floor, res.beyond_floor_rse
    assert 0 < rse < 1
    assert res.pvalue_beyond_floor_se == pytest.approx(p * rse)
    assert res.log10_pvalue_beyond_floor == pytest.approx(math.log10(p))
    assert abs(p / exact - 1) <= WORST_SE * rse


def test_group_shares_one_estimate_and_compare_has_columns():
    df = ca.compare(SMALL, indices=["rand", "jaccard", "mutual_info", "vi", "purity"],
                    method=auto_mc(seed=2), n_sim=999, interval=None)
    assert tuple(df.columns) == RESULT_COLUMNS
    col = df["pvalue_beyond_floor"]
    assert col["rand"] == col["jaccard"] and col["mutual_info"] == col["variation_of_information"]
    assert col["rand"] < 1 / 1000 and col["mutual_info"] < 1 / 1000
    assert pd.isna(col["purity"])
    assert any(n.startswith("purity: no p-value beyond the Monte Carlo floor")
               and "not a monotone function" in n for n in df.attrs["notes"])
    assert any(n.startswith("pvalue_beyond_floor:") for n in df.attrs["notes"])
    # the notes on the p-values beyond the floor, apart, in the order of all the notes (a
    # report shows them without picking them out of attrs["notes"] by their wording)
    floor_notes = df.attrs["beyond_floor_notes"]
    assert [n for n in df.attrs["notes"] if n in floor_notes] == floor_notes
    assert {n.split(":")[0] for n in floor_notes} == {"purity", "pvalue_beyond_floor"}
    row = ca.agreement_test(SMALL, index="jaccard", method=auto_mc(seed=2),
                            n_sim=999).to_frame()
    assert row["pvalue_beyond_floor"].notna().all()


def test_not_at_floor_is_na():
    res = ca.agreement_test(WEAK, index="rand", method=auto_mc(seed=1), n_sim=999)
    assert res.n_extreme > 0
    assert math.isnan(res.pvalue_beyond_floor) and res.beyond_floor_note is None
    assert pd.isna(res.to_frame()["pvalue_beyond_floor"].iloc[0])
    assert "beyond the floor" not in str(res)


def test_exact_law_is_na():
    res = ca.agreement_test(SMALL, index="rand", seed=1)  # "auto" takes the exact law
    assert res.method == "exact" and math.isnan(res.pvalue_beyond_floor)


def test_unserved_index_na_with_reason():
    res = ca.agreement_test(SMALL, index="ami_tsallis", method=auto_mc(seed=1), n_sim=999)
    assert res.n_extreme == 0 and math.isnan(res.pvalue_beyond_floor)
    assert "not a monotone function" in res.beyond_floor_note
    assert res.beyond_floor_note in str(res)


def test_switch():
    off = ca.agreement_test(SMALL, index="rand", method=auto_mc(seed=1, beyond_floor=False),
                            n_sim=999)
    assert off.n_extreme == 0 and math.isnan(off.pvalue_beyond_floor)
    default = ca.agreement_test(SMALL, index="rand", method=ca.NullSpec(max_work=1, max_tables=1,
                                                                       seed=1), n_sim=999)
    assert default.n_extreme == 0 and math.isnan(default.pvalue_beyond_floor)  # refused here
    named = ca.agreement_test(SMALL, index="rand", method="patefield", n_sim=999, seed=1)
    assert named.n_extreme == 0 and math.isnan(named.pvalue_beyond_floor)
    on = ca.agreement_test(SMALL, index="rand",
                           method=ca.NullSpec(method="patefield", beyond_floor=True),
                           n_sim=999, seed=1)
    assert on.pvalue_beyond_floor > 0
    with pytest.raises(TypeError, match="beyond_floor must be True or False"):
        ca.NullSpec(beyond_floor="yes")


def test_same_seed_same_estimate_and_null_unchanged():
    a = ca.agreement_test(SMALL, index="rand", method=auto_mc(seed=3), n_sim=999)
    b = ca.agreement_test(SMALL, index="rand", method=auto_mc(seed=3), n_sim=999)
    off = ca.agreement_test(SMALL, index="rand", method=auto_mc(seed=3, beyond_floor=False),
                            n_sim=999)
    assert a.pvalue_beyond_floor == b.pvalue_beyond_floor
    np.testing.assert_array_equal(a.null.samples, off.null.samples)


def test_printed():
    res = ca.agreement_test(SMALL, index="rand", method=auto_mc(seed=1), n_sim=999)
    line = next(x for x in str(res).splitlines() if x.startswith("beyond the floor"))
    assert line.startswith("beyond the floor: p ≈ ")
    assert line.endswith("%)") and "(importance sampling, relative s.e. " in line
    assert "beyond the floor" in res._repr_html_()


def test_too_slow_is_skipped_with_note(monkeypatch):
    with pytest.raises(TooSlow, match="more than"):
        tail_probability([30, 20], [25, 25], 906, "s", seed=1, max_seconds=1e-4)
    monkeypatch.setattr(beyond_floor, "MAX_SECONDS", 1e-4)
    res = ca.agreement_test(SMALL, index="rand", method=auto_mc(seed=1), n_sim=999)
    assert math.isnan(res.pvalue_beyond_floor)
    assert "skipped" in res.beyond_floor_note and res.beyond_floor_note in str(res)


def test_runs_that_disagree_leave_a_note_that_they_were_refused(monkeypatch):
    from clusteragree.nulls import importance

    monkeypatch.setattr(importance, "MAX_LOG_SD", 1e-9)  # every set of runs disagrees
    res = ca.agreement_test(SMALL, index="rand", method=auto_mc(seed=1), n_sim=999)
    assert res.n_extreme == 0 and math.isnan(res.pvalue_beyond_floor)
    assert ("importance sampling of the tail of sum n_ij^2 refused: the 10 runs of importance "
            "sampling disagree: their log10 estimates run from") in res.beyond_floor_note
    assert "skipped" not in res.beyond_floor_note and res.beyond_floor_note in str(res)


# -- the saddlepoint: the default beyond the floor --------------------------------------------

#: 10 x 10, n = 10**4 (beyond the exact law): ARI 0.0016, z = 11, p about 2e-15, in the
#: saddlepoint's domain (docs/guide/chance.md).
BIG = np.full((10, 10), 95)
BIG[np.diag_indices(10)] = 145


def test_default_adds_the_saddlepoint_p_where_it_answers():
    from clusteragree.nulls.saddlepoint import saddlepoint_tail
    df = ca.compare(BIG, indices=["ari", "rand", "ami", "purity"], n_sim=999, seed=1,
                    interval=None)
    assert (df["method"] == "patefield").all() and (df["n_extreme"] == 0).all()
    assert (df["pvalue"] == 1 / 1000).all()  # the Monte Carlo p is unchanged
    counts = BIG.astype(np.int64)
    rows, cols = counts.sum(1), counts.sum(0)
    s = saddlepoint_tail(rows, cols, float((counts ** 2).sum()), "s", "greater")
    assert df.loc["adjusted_rand", "log10_pvalue_beyond_floor"] == pytest.approx(
        s.log_pvalue / math.log(10), rel=1e-12)
    assert df.loc["rand", "pvalue_beyond_floor"] == df.loc["adjusted_rand", "pvalue_beyond_floor"]
    assert df.loc["adjusted_rand", "beyond_floor_method"] == "saddlepoint"
    assert pd.isna(df.loc["adjusted_rand", "pvalue_beyond_floor_se"])  # no standard error
    assert 1e-16 < df.loc["adjusted_rand", "pvalue_beyond_floor"] < 1e-14
    assert pd.isna(df.loc["purity", "pvalue_beyond_floor"])
    assert not any(n.startswith("purity") for n in df.attrs["notes"])  # not asked for by name
    assert any("saddlepoint approximation" in n for n in df.attrs["notes"])
    res = ca.agreement_test(BIG, index="ari", n_sim=999, seed=1)
    assert "beyond the floor: p ≈ 1.95e-15 (saddlepoint approximation)" in str(res)


def test_two_sided_doubles_the_saddlepoint_tail():
    one = ca.agreement_test(BIG, index="ari", n_sim=999, seed=1)
    two = ca.agreement_test(BIG, index="ari", n_sim=999, seed=1, alternative="two-sided")
    assert two.pvalue_beyond_floor == pytest.approx(2 * one.pvalue_beyond_floor, rel=1e-12)


def test_a_refused_saddlepoint_says_why_and_how_to_go_further():
    res = ca.agreement_test(SMALL, index="rand", method=ca.NullSpec(max_work=1, max_tables=1,
                                                                   seed=1), n_sim=999)
    assert res.n_extreme == 0 and math.isnan(res.pvalue_beyond_floor)
    assert "the saddlepoint approximation is refused: " in res.beyond_floor_note
    assert "approximation is refused: the saddlepoint" not in res.beyond_floor_note  # once
    assert "use method=" not in res.beyond_floor_note  # the advice is the note's own
    assert "NullSpec(beyond_floor=True)" in res.beyond_floor_note
    assert res.beyond_floor_note in str(res)


@pytest.mark.slow
def test_importance_sampling_checks_the_saddlepoint_within_its_error():
    res = ca.agreement_test(BIG, index="ari", n_sim=999, seed=1,
                            method=ca.NullSpec(beyond_floor=True))
    assert res.beyond_floor_method == "saddlepoint"
    assert res.beyond_floor_check.startswith("importance sampling ")
    # the benchmark's largest gap on such tables was 1.6 standard errors; 4.781 is the
    # 99.9% point of t with 9 degrees of freedom (10 runs)
    gap = float(res.beyond_floor_check.split("the saddlepoint p ")[1].split(" of")[0])
    assert gap <= 4.781
    assert f"; {res.beyond_floor_check})" in str(res)
