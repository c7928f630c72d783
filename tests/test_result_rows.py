"""Issue 34 item 4: each result printed and tabulated from one list of rows; each figure of a
test computed in one call (the tail counted once, the alternative checked where it enters);
the engine's records passed to ``NullDistribution``, not looked up again."""

import cProfile
import html
import pstats
import re

import numpy as np
import pytest

import clusteragree as ca

TABLE = [[30, 20], [10, 20]]
X = [0, 0, 0, 1, 1, 1, 2, 2, 2, 2] * 20
Y = [0, 0, 1, 1, 1, 2, 2, 2, 0, 0] * 20


def _calls(func, *args, **kwargs):
    """{(file name, function name): [(caller's file name, caller's name, calls)]} of one call."""
    prof = cProfile.Profile()
    prof.runcall(func, *args, **kwargs)
    stats = pstats.Stats(prof).stats
    out = {}
    for (file, _, name), (_, calls, _, _, callers) in stats.items():
        out.setdefault((file.rsplit("/", 1)[-1], name), []).extend(
            (cf.rsplit("/", 1)[-1], cn, c[0] if isinstance(c, tuple) else c)
            for (cf, _, cn), c in callers.items())
        out[(file.rsplit("/", 1)[-1], name)].append(("total", "", calls))
    return out


def _total(calls, file, name):
    return sum(n for cf, _, n in calls.get((file, name), []) if cf == "total")


@pytest.mark.parametrize("alternative, counts", [("greater", 1), ("two-sided", 2)])
def test_one_agreement_test_counts_its_tail_once(alternative, counts):
    # before: the tail was counted by the p-value, by tail_count and by the bound (3 and 6)
    calls = _calls(ca.agreement_test, X, Y, method="patefield", n_sim=500, seed=1,
                   alternative=alternative)
    assert _total(calls, "_laws.py", "count") == counts


def test_the_alternative_is_checked_where_it_enters_and_the_records_are_passed():
    calls = _calls(ca.agreement_test, X, Y, method="patefield", n_sim=500, seed=1)
    checkers = {cf for cf, _, _ in calls[("_validate.py", "check_choice")]}
    assert "distribution.py" not in checkers  # before: NullDistribution.test and .tail
    for name in ("get_index", "get_method", "get_model"):  # the engine's records, passed
        assert "distribution.py" not in {cf for cf, _, _ in calls.get(("_registry.py", name), [])
                                         + calls.get(("_methods.py", name), [])}


def test_names_still_make_a_null_distribution_by_hand():
    nd = ca.nulls.NullDistribution("rand", "exact", values=[0.2, 0.4, 0.6],
                                   probabilities=[0.25, 0.5, 0.25], model="perm")
    assert (nd.index.name, nd.method, nd.model) == ("rand", "exact", "perm")
    with pytest.raises(ValueError, match="method"):
        ca.nulls.NullDistribution("rand", "no_such", moments={"mean": 0.5, "var": 0.1})


def test_the_figures_of_a_test_are_those_of_the_methods_one_by_one():
    nd = ca.nulls.null_distribution(TABLE, index="rand", method="patefield", n_sim=2000,
                                    seed=3)
    t = ca.agreement(TABLE, index="rand")
    for alternative in ("greater", "less", "two-sided"):
        p, se, z, adjusted = nd.test(t, alternative)
        assert p == nd.pvalue(t, alternative)
        assert se == nd.pvalue_se(t, alternative, plus_one=True)
        assert z == nd.zscore(t) and adjusted["mean"] == nd.adjust(t)
        assert nd.tail(t, alternative) == (nd.tail_count(t, alternative),
                                           nd.pvalue_upper(t, alternative))
        res = ca.agreement_test(TABLE, index="rand", method="patefield", n_sim=2000, seed=3,
                                alternative=alternative)
        assert (res.pvalue, res.n_extreme, res.pvalue_upper) == (
            p, nd.tail_count(t, alternative), nd.pvalue_upper(t, alternative))


def _html_rows(text):
    return [(html.unescape(k), html.unescape(v)) for k, v in
            re.findall(r"<th[^>]*>(.*?)</th><td[^>]*>(.*?)</td>", text)]


RESULTS = {
    "exact": lambda: ca.agreement_test(TABLE, index="rand", method="exact"),
    "floor": lambda: ca.agreement_test([[40, 0, 0], [0, 35, 5], [0, 5, 35]], index="jaccard",
                                       method="patefield", n_sim=300, seed=1,
                                       alternative="two-sided"),
    "moments": lambda: ca.agreement_test(X, Y, method="hypergeometric"),
    "no optimum": lambda: ca.agreement_test(TABLE, index="mutual_info", method="exact"),
    "num1": lambda: ca.agreement_test([[3, 1], [1, 3]], index="rand", model="num1",
                                      method="exact"),
    "difference": lambda: ca.difference_test(X, Y, np.roll(Y, 3), seed=1),
}


@pytest.mark.parametrize("make", RESULTS.values(), ids=RESULTS.keys())
def test_every_tabulated_row_is_printed(make):
    res = make()
    text, rows = str(res), _html_rows(res._repr_html_())
    assert len(rows) >= 6
    for label, value in rows:  # the same row, both forms: each table value is in the print
        if label.startswith(("agreement of", "difference (a - b)")):  # 4 digits, printed 6
            value = f"{float(value):.4g}"
            assert any(f"{float(v):.4g}" == value for v in re.findall(r"-?[\d.]+e?-?\d*", text)
                       if re.fullmatch(r"-?\d+\.?\d*(e-?\d+)?", v)), (label, value)
            continue
        for part in re.split(r"\s{2,}|, ", value):  # "0.05124  (I - c) / (max - c)"
            assert part in text, (label, part)


LAWS = {
    "exact": lambda: ca.nulls.null_distribution(TABLE, index="ari"),
    "patefield": lambda: ca.nulls.null_distribution(X, Y, index="jaccard", method="patefield",
                                                    n_sim=500, seed=2),
    "moments": lambda: ca.nulls.null_distribution(TABLE, index="ari", method="hypergeometric"),
    "importance tail": lambda: ca.nulls.null_distribution(X, Y, index="ari", method="importance",
                                                          n_sim=200, seed=9),
    "mean only": lambda: ca.nulls.null_distribution(np.eye(4)[[0, 1, 2, 3, 0, 1]],
                                                    np.eye(3)[[0, 1, 2, 0, 1, 2]], index="fri",
                                                    method="exact", model="objects"),
}


@pytest.mark.parametrize("make", LAWS.values(), ids=LAWS.keys())
def test_a_null_law_is_printed_and_tabulated_from_one_list_of_rows(make):
    # before: NullDistribution.__repr__ and _display.law_html each built their own rows
    from clusteragree._display import law_rows, rows_lines

    nd = make()
    rows = law_rows(nd)
    assert repr(nd).splitlines()[1:] == rows_lines(rows)
    assert _html_rows(nd._repr_html_()) == [(r.label, r.value) for r in rows
                                            if r.label is not None]
    assert [r.label for r in rows if r.label] == (
        ["mean", "sd", "median", "skewness", "1% / 99% quantiles"] if nd.has_law
        else ["mean", "sd"])


def test_a_null_law_prints_as_before():
    # recorded before the rows were shared (32 laws compared byte for byte, reprs and HTML)
    assert repr(ca.nulls.null_distribution(TABLE, index="ari")) == (
        "NullDistribution(adjusted_rand, method='exact', model='perm', exact law, 16 values)\n"
        "  null: both margins fixed (permutation model); dynamic programme on s\n"
        "  mean = 0, sd = 0.0168498\n"
        "  median = -0.00947958, skewness = 2.761, 1% / 99% quantiles = -0.0120096 / "
        "0.0790713")
    nd = ca.nulls.null_distribution(TABLE, index="ari", method="hypergeometric")
    assert repr(nd).splitlines()[2] == "  mean = 0, sd = 0.0168498"
