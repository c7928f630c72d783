"""Results as one sentence to paste into a paper, APA style (``.sentence()`` of the results).

R's easystats ``report()`` writes such sentences; these write them for the tests of this
package: the index by the short name papers give it (``clusteragree.indices.abbreviation``),
its value and interval, the test in words (its null model and method), p as APA writes it,
the objects compared, and the direction in words only where the test shows it ("beyond
chance" when p < .05 in the index's direction of agreement). The numbers are formatted by
``clusteragree._display`` (``apa_number``, ``apa_pvalue``, ...); a missing part is left out,
never written "nan".

* ``named_test``: a null law's model and method as a test's name ("exact permutation test").
* ``pvalue_words``: a test's p-value (``PValue``) in APA form, with the p-value beyond a Monte
  Carlo floor where there is one.
* ``chance_words``: what a test shows of the agreement against chance, in words.
* ``coverage_words``: the objects compared, compactly ("n = 26 of 30 objects, noise left out").
* ``agreement_sentence``, ``difference_sentence``, ``matrix_sentence``, ``cluster_sentence``:
  the sentences of ``AgreementTest``, ``DifferenceTest``, ``AgreementMatrix`` and
  ``ClusterAgreement``.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from .._display import apa_bound, apa_interval, apa_number, apa_pvalue, word_list
from ..indices import abbreviation, get_index

__all__ = ["LEVEL", "named_test", "pvalue_words", "chance_words", "coverage_words",
           "agreement_sentence", "difference_sentence", "matrix_sentence", "cluster_sentence",
           "multiple_words"]

#: The significance level of the words "beyond chance" (APA's conventional .05).
LEVEL = 0.05

#: How a test under each model is named (other models: "test under the <model> model").
_MODEL_TESTS = {"perm": "permutation test", "objects": "Mantel permutation test",
                "pairs": "permutation test of the pair values"}

#: Methods that give tail probabilities or moments, in a few words.
_METHOD_WORDS = {"saddlepoint": "saddlepoint approximation of the tail",
                 "importance": "importance sampling of the tail",
                 "hypergeometric": "hypergeometric moments", "exact": "exact null mean"}

#: The multiplicity adjustments of ``multipletests`` as a paper names them.
_MULTIPLE_WORDS = {"holm": "Holm", "bonferroni": "Bonferroni", "sidak": "Sidak",
                   "holm-sidak": "Holm-Sidak", "simes-hochberg": "Hochberg", "hommel": "Hommel",
                   "fdr_bh": "Benjamini-Hochberg", "fdr_by": "Benjamini-Yekutieli"}


def _finite(x) -> bool:
    return x is not None and not pd.isna(x) and math.isfinite(float(x))


def named_test(nd) -> str:
    """A null law's model and method as the name of its test.

    Parameters
    ----------
    nd : NullDistribution
        The null law of a test.

    Returns
    -------
    str
        "exact permutation test", "Monte Carlo permutation test (17,000 Patefield tables)",
        "permutation test (saddlepoint approximation of the tail)", "Monte Carlo test under
        the num1 model (17,000 random partitions)", "hypergeometric moments" (moments only).

    Examples
    --------
    >>> nd = ca.nulls.null_distribution([[30, 20], [10, 20]], index="rand", method="exact")
    >>> named_test(nd)
    'exact permutation test'
    """
    rec = nd.method_record
    noun = _MODEL_TESTS.get(nd.model, f"test under the {nd.model} model")
    if nd.has_tail:
        return f"{noun} ({_METHOD_WORDS.get(nd.method, rec.description)})"
    if not nd.has_law:  # moments only: no p-value
        return _METHOD_WORDS.get(nd.method, rec.description)
    if nd.is_sampled:
        how = rec.describe(nd) if rec.describe is not None else f"{nd.n_sim:,} draws"
        return f"Monte Carlo {noun} ({how})"
    return f"exact {noun}"


def pvalue_words(detail) -> str:
    """A test's p-value in APA form.

    Parameters
    ----------
    detail : PValue
        The p-value (``AgreementTest.pvalue_detail``).

    Returns
    -------
    str
        "p = .031", "p < .001"; a Monte Carlo p-value at its floor as its bound 1/(B + 1),
        "p < .0001", with the p-value beyond the floor where there is one ("p < .0001
        (beyond the floor p ≈ 3.2e-41, saddlepoint approximation)"); a tail probability "p ≈
        2.4e-15"; "" without a p-value.

    Examples
    --------
    >>> res = ca.agreement_test([[30, 20], [10, 20]], index="rand", method="exact")
    >>> pvalue_words(res.pvalue_detail)
    'p = .037'
    """
    if detail.kind == "none" or math.isnan(detail.value):
        return ""
    if detail.kind == "bound":
        text = apa_bound(1 / (detail.n_sim + 1))
        beyond = detail.beyond
        if beyond is not None and not math.isnan(beyond.log10):
            how = {"importance": "importance sampling",
                   "saddlepoint": "saddlepoint approximation"}.get(beyond.method, beyond.method)
            text += (f" (beyond the floor {_tail(beyond.log10)}" + (f", {how}" if how else "")
                     + ")")
        return text
    if detail.kind == "tail":
        return _tail(detail.log10)
    return apa_pvalue(detail.value)


def _tail(log10: float) -> str:
    """A p-value known by its log10 (an approximation): "p ≈ 3.2e-41", "p < 1e-300"; from
    .001 up, in APA form."""
    if log10 < -300:
        return "p < 1e-300"
    p = 10.0 ** log10
    return f"p ≈ {p:.2g}" if p < 0.001 else apa_pvalue(p).replace("=", "≈")


def chance_words(pvalue, alternative: str, higher_is_better: bool, statistic, null_mean,
                 level: float = LEVEL) -> str | None:
    """What a test shows of an agreement against chance.

    Parameters
    ----------
    pvalue : float
        The p-value (nan: no test).
    alternative : {"greater", "less", "two-sided"}
        The test's alternative.
    higher_is_better : bool
        The index's direction of agreement (False for a distance).
    statistic, null_mean : float
        The observed value and the null mean (a two-sided test's side).
    level : float, default 0.05
        The significance level.

    Returns
    -------
    str or None
        "beyond chance" (significant in the direction of agreement), "less than chance
        would give" (significant the other way), "no more than chance would give" (not
        significant), "no less than chance would give" (a test of the other tail, not
        significant); None without a p-value.

    Examples
    --------
    >>> chance_words(0.01, "greater", True, 0.4, 0.0), chance_words(0.2, "greater", True, 0.1, 0.0)
    ('beyond chance', 'no more than chance would give')
    """
    if not _finite(pvalue):
        return None
    agreeing = "greater" if higher_is_better else "less"
    if alternative == "two-sided":
        up = _finite(statistic) and _finite(null_mean) and float(statistic) > float(null_mean)
        side = agreeing if up else ("less" if agreeing == "greater" else "greater")
    else:
        side = alternative
    if float(pvalue) < level:
        return "beyond chance" if side == agreeing else "less than chance would give"
    if alternative not in ("two-sided", agreeing):
        return "no less than chance would give"
    return "no more than chance would give"


def coverage_words(coverage, n=None) -> str:
    """The objects compared, compactly: "n = 26 of 30 objects, noise left out".

    Parameters
    ----------
    coverage : Coverage or None
        The clusterings' coverage (``Clusterings.coverage``; None: all objects as given).
    n : int, optional
        The objects, when there is no coverage (a table's n).

    Returns
    -------
    str
        "n = 10 objects", "n = 26 of 30 objects, noise left out", "n = 30 objects, noise as
        singletons", "..., integer weights (total 42)"; "" when nothing is known.

    Examples
    --------
    >>> from clusteragree.inputs.objects import Coverage, Noise
    >>> coverage_words(Coverage(30, 26, noise=Noise("drop"), noise_counts=(4, 0)))
    'n = 26 of 30 objects, noise left out'
    >>> coverage_words(None, 80)
    'n = 80 objects'
    """
    if coverage is None:
        return f"n = {int(n):,} objects" if _finite(n) else ""
    given, kept = coverage.n_given, coverage.n_compared
    text = f"n = {kept:,} of {given:,} objects" if kept < given else f"n = {kept:,} objects"
    if coverage.noise is not None:
        text += ", noise " + {"drop": "left out", "singletons": "as singletons",
                              "cluster": "as one cluster"}[coverage.noise.policy]
    if any(coverage.missing):
        text += ", missing labels left out"
    if coverage.weights == "integer":
        text += f", integer weights (total {coverage.total_weight:g})"
    elif coverage.weights == "real":
        text += f", sample weights (total {coverage.total_weight:.4g})"
    return text


def multiple_words(multiple) -> str:
    """A multiplicity adjustment as a paper names it: "Holm", "Benjamini-Hochberg"; "" for
    none."""
    if multiple is None:
        return ""
    return _MULTIPLE_WORDS.get(multiple, multiple)


def _names(clusterings) -> tuple[str, str] | None:
    """The names of the two clusterings, None for the defaults ("x", "y")."""
    names = getattr(clusterings, "names", None)
    if not names or tuple(names) == ("x", "y"):
        return None
    return str(names[0]), str(names[1])


def _sentence(lead: str, groups) -> str:
    """The lead, then the statistics in parentheses (groups joined by "; "), then a period."""
    groups = [g for g in groups if g]
    return f"{lead} ({'; '.join(groups)})." if groups else f"{lead}."


def agreement_sentence(res, digits: int = 2) -> str:
    """``AgreementTest.sentence``: the test in one sentence (see there)."""
    rec, nd = res.record, res.null
    short = abbreviation(rec)
    names = _names(res.clusterings)
    words = chance_words(res.pvalue, res.alternative, rec.higher_is_better, res.statistic,
                         nd.mean)
    if words is None:
        lead = (f"The agreement of {names[0]} with {names[1]} was compared with its null "
                "moments" if names
                else "The agreement of the two clusterings was compared with its null moments")
    else:
        lead = (f"{names[0]} agreed with {names[1]} {words}" if names
                else f"The two clusterings agreed {words}")
    value = f"{short} = {apa_number(res.statistic, digits)}" if _finite(res.statistic) else ""
    ci = res.interval
    if ci is not None and not ci.reason:
        interval = apa_interval(ci.low, ci.high, ci.confidence_level, ci.closed, digits)
        value = ", ".join(v for v in (value, interval) if v)
    test = named_test(nd)
    if nd.has_pvalue:
        test = ", ".join(v for v in (test, pvalue_words(res.pvalue_detail)) if v)
    else:  # moments only: the null mean and z
        parts = [test]
        if _finite(nd.mean):
            parts.append(f"null mean = {apa_number(nd.mean, digits)}")
        if _finite(res.zscore):
            parts.append(f"z = {apa_number(res.zscore, digits)}")
        test = ", ".join(parts)
    clusterings = res.clusterings
    n = coverage_words(getattr(clusterings, "coverage", None), getattr(clusterings, "n", None))
    return _sentence(lead, [value, test, n])


#: The names in a difference test's data line: "reference = r, a = a, b = b (n = ...".
_TRIPLE = re.compile(r"^reference = (.+?), a = (.+?), b = (.+?) \(")


def difference_sentence(res, digits: int = 2) -> str:
    """``DifferenceTest.sentence``: the test in one sentence (see there)."""
    match = _TRIPLE.match(res.data_name or "")
    ref, a, b = match.groups() if match else ("reference", "a", "b")
    ref = "the reference" if ref == "reference" else ref
    rec = res.record
    p = res.pvalue
    if not _finite(p):
        lead = f"{a} and {b} were compared in their agreement with {ref}"
    elif p < LEVEL and _finite(res.statistic) and res.statistic != 0:
        better, worse = (a, b) if (res.statistic > 0) == rec.higher_is_better else (b, a)
        lead = f"{better} agreed with {ref} better than {worse}"
    else:
        lead = f"{a} and {b} did not differ detectably in their agreement with {ref}"
    value = (f"Δ{abbreviation(rec)} = {apa_number(res.statistic, digits)}"
             if _finite(res.statistic) else "")
    interval = apa_interval(res.low, res.high, res.confidence_level, "both", digits)
    value = ", ".join(v for v in (value, interval) if v)
    if res.method == "bootstrap":
        test = f"paired bootstrap ({res.n_resamples:,} resamples)"
        if _finite(p) and p * (res.n_resamples + 1) <= 1 + 1e-9:
            ptext = apa_bound(1 / res.n_resamples)
        else:
            ptext = apa_pvalue(p)
    else:
        test = ("paired jackknife" if res.method == "jackknife"
                else "corrected paired jackknife")
        if _finite(res.tstat) and _finite(res.df):
            test += f" t({res.df:g}) = {apa_number(res.tstat, digits)}"
        ptext = apa_pvalue(p)
    test = ", ".join(v for v in (test, ptext) if v)
    n = f"n = {res.n_objects:,} objects" if _finite(res.n_objects) else ""
    return _sentence(lead, [value, test, n])


def _significant_in_agreement(rows: pd.DataFrame, higher_is_better: bool) -> np.ndarray:
    """The rows of a results frame whose adjusted p-value is below .05 in the index's direction
    of agreement."""
    out = []
    for _, r in rows.iterrows():
        p = r.get("pvalue_adjusted")
        words = chance_words(p if not pd.isna(p) else math.nan, r["alternative"]
                             if not pd.isna(r["alternative"]) else "greater",
                             higher_is_better, r["statistic"], r.get("null_mean"))
        out.append(words == "beyond chance")
    return np.array(out, dtype=bool)


def _tests_words(tests) -> str:
    """The tests of many pairs, named once: "exact permutation tests", "Monte Carlo
    permutation tests, 999 Patefield tables each"; several methods joined."""
    words = []
    for t in tests:
        w = named_test(t.null).replace(" test", " tests", 1)
        if t.null.is_sampled and w.endswith(")"):  # "..., 999 Patefield tables each"
            w = w[:-1].replace(" (", ", ", 1) + " each"
        words.append(w)
    return word_list(dict.fromkeys(words))


def _noise_words(noise: str) -> str:
    """A noise policy in words, compactly: "noise (label -1, both sides) left out" -> "noise
    left out"."""
    match = re.match(r"^noise \(.*\) (.+)$", noise)
    return f"noise {match.group(1)}" if match else noise


def matrix_sentence(m, digits: int = 2) -> str:
    """``AgreementMatrix.sentence``: the matrix in one sentence (see there)."""
    rec = get_index(m.index)
    short = abbreviation(rec)
    rows = m.rows
    k = len(m.names)
    pairs = "pairs" if rec.symmetric else "ordered pairs"
    values = rows["statistic"].to_numpy(dtype=float, na_value=np.nan)
    ok = values[np.isfinite(values)]
    text = f"Across the {len(rows):,} {pairs} of {k} clusterings"
    if len(ok) == 0:
        text += f", {short} could not be computed"
    elif len(ok) == 1 or ok.min() == ok.max():
        text += f", {short} was {apa_number(ok[0], digits)}"
    else:
        text += (f", {short} ranged from {apa_number(ok.min(), digits)} to "
                 f"{apa_number(ok.max(), digits)}")
    how = [_noise_words(m.noise)] if m.noise else []
    if m.tests:
        sig = _significant_in_agreement(rows, rec.higher_is_better)
        adjusted = (f" after {multiple_words(m.multiple)} adjustment" if m.multiple
                    else ", not adjusted for multiplicity")
        count = f"{int(sig.sum())} of {len(rows):,} {pairs}" if sig.any() else f"none of the {pairs}"
        text += f"; {count} agreed beyond chance{adjusted}"
        how.insert(0, _tests_words(m.tests.values()))
    else:
        how.insert(0, "no tests")
    text += f" ({'; '.join(how)})"
    ref = m.reference
    if ref is not None and len(ref):
        v = ref["statistic"].to_numpy(dtype=float, na_value=np.nan)
        if np.isfinite(v).any():
            best = int(np.nanargmax(v) if rec.higher_is_better else np.nanargmin(v))
            r = ref.iloc[best]
            parts = [f"{short} = {apa_number(v[best], digits)}"]
            if "ci_low" in ref and not pd.isna(r["ci_low"]):
                parts.append(apa_interval(r["ci_low"], r["ci_high"], r["ci_level"],
                                          "both" if pd.isna(r["ci_closed"]) else r["ci_closed"],
                                          digits))
            if not pd.isna(r["pvalue_adjusted"]):
                parts.append(apa_pvalue(r["pvalue_adjusted"], "p_adj" if m.multiple else "p"))
            name = ref.attrs.get("reference")
            against = f"against the reference {name}" if name else "against the reference"
            text += f"; {against}, {ref.index[best]} agreed best ({', '.join(parts)})"
    return text + "."


def _data_coverage(data_name: str, n) -> str:
    """The objects compared, compactly, read from a result's data line (a result that keeps
    no ``Coverage``): "n = 20 of 24 objects, noise left out"."""
    kept = re.search(r"([\d,]+) of ([\d,]+) objects compared", data_name)
    text = (f"n = {kept.group(1)} of {kept.group(2)} objects" if kept
            else f"n = {int(n):,} objects" if _finite(n) else "")
    noise = re.search(r"noise \([^)]*\) (left out|as singletons|as one cluster)", data_name)
    if text and noise:
        text += f", noise {noise.group(1)}"
    return text


def cluster_sentence(res, digits: int = 2) -> str:
    """``ClusterAgreement.sentence``: the clusters in one sentence (see there)."""
    x, y = res.names
    rows = res.rows
    n_x = int((rows["side"] == "x").sum())
    n_y = int((rows["side"] == "y").sum())
    n_pairs = res.n_tests
    how = "one-to-one" if res.match == "one-to-one" else "by largest overlap"
    text = (f"Of {n_x} clusters of {x} and {n_y} of {y}, {n_pairs} pair"
            f"{'s were' if n_pairs != 1 else ' was'} matched {how}")
    pairs = res.pairs
    groups = []
    if len(pairs) and "pvalue_adjusted" in pairs:
        p = pairs["pvalue_adjusted"].to_numpy(dtype=float, na_value=np.nan)
        sig = int((p < LEVEL).sum())
        adjusted = (f" after {multiple_words(res.multiple)} adjustment" if res.multiple
                    else ", not adjusted for multiplicity")
        count = "none" if sig == 0 else str(sig)
        text += (f", {count} of them overlapping beyond chance{adjusted}" if n_pairs != 1
                 else f", {'' if sig else 'not '}overlapping beyond chance{adjusted}")
        groups.append("one-sided hypergeometric tests of the paired cells, conditional on the "
                      "pairing")
    groups.append(_data_coverage(res.data_name, getattr(res.table, "n", None)))
    text = _sentence(text, groups)[:-1]
    splits = res.splits
    if len(splits):  # the largest: the split (or merge) of the most objects
        total = splits.groupby(["side", "cluster"], sort=False)["overlap"].sum()
        side, label = total.idxmax()
        part = splits[(splits["side"] == side) & (splits["cluster"] == label)]
        shares = word_list(f"{p} ({s:.0%})" for p, s in zip(part["part"], part["share"]))
        if side == "x":
            text += f"; the largest split: {x} cluster {label} over {y} clusters {shares}"
        else:
            text += f"; the largest merge: {y} cluster {label} of {x} clusters {shares}"
    return text + "."
