"""The one entry conversion for indices of two clusterings (memberships, covers, similarity
matrices): pandas objects are paired by their index whatever they hold, and every index takes
exactly the kinds of clustering its definition covers.

* Alignment: two DataFrames of memberships (or similarity matrices, or a DataFrame and a Series
  of labels) are paired by their index as two Series of labels are, with the same ``join=``
  rules; each expected value is computed here by reordering plain arrays by hand.
* Kinds: every index of two clusterings is run on every kind of clustering (hard, fuzzy,
  possibilistic, overlapping hard, covers that leave objects out, similarity matrices), drawn
  with fixed seeds: it gives finite values that move with the input, or refuses with an error
  naming the kind. Which kinds each index takes is written here from its paper (``EXPECTED``)
  and checked against the registry.
* The measures reviewed by Horta & Campello (2015) against their literal definitions (loops
  over objects, pairs and clusters), on every kind each is defined for.
"""

from __future__ import annotations

import itertools
import math
import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import clusteragree as ca
from clusteragree.inputs.memberships import sets_to_memberships
from clusteragree.indices import REGISTRY, PairIndex

SETTINGS = dict(deadline=None, derandomize=True, database=None, max_examples=40,
                suppress_health_check=[HealthCheck.too_slow])
TOL = 1e-10


# ---------------------------------------------------------------------------------------------
# Literal definitions (Horta & Campello 2015, "Comparing hard and overlapping clusterings",
# JMLR 16; objects in rows here, the paper writes the transpose)
# ---------------------------------------------------------------------------------------------

def coassoc(U, tnorm=lambda a, b: a * b):
    """J_ij = sum_r T(U_ir, U_jr)."""
    U = np.asarray(U, float)
    n, k = U.shape
    return np.array([[sum(tnorm(U[i, r], U[j, r]) for r in range(k)) for j in range(n)]
                     for i in range(n)])


def js_matrices(U):
    """J = U U^T and S_ij = t_i t_j - J_ij, t the row totals (eq 12)."""
    U = np.asarray(U, float)
    t = U.sum(axis=1)
    J = coassoc(U)
    return J, np.outer(t, t) - J


def abcde(U, V):
    """Eq 13 pair by pair: a, b, c, d and the totals sum T^U, sum T^V over i < j."""
    JU, SU = js_matrices(U)
    JV, SV = js_matrices(V)
    a = b = c = d = tu = tv = 0.0
    for i, j in itertools.combinations(range(len(JU)), 2):
        ai, di = min(JU[i, j], JV[i, j]), min(SU[i, j], SV[i, j])
        a, d = a + ai, d + di
        b += min(JU[i, j] - ai, SV[i, j] - di)
        c += min(JV[i, j] - ai, SU[i, j] - di)
        tu += JU[i, j] + SU[i, j]
        tv += JV[i, j] + SV[i, j]
    return a, b, c, d, tu, tv


def agri_by_definition(U, V):
    """13AGRI: 13GRI = (a + d) / max(sum T^U, sum T^V) (eq 22) adjusted by its mean over
    independent permutations of the objects, E[a] = (1/m) sum_(i<j) sum_(k<l)
    min(J^U_ij, J^V_kl) and likewise E[d] (eq 18), as a double loop."""
    a, _, _, d, tu, tv = abcde(U, V)
    JU, SU = js_matrices(U)
    JV, SV = js_matrices(V)
    pairs = list(itertools.combinations(range(len(JU)), 2))
    m = len(pairs)
    ea = sum(min(JU[p], JV[q]) for p in pairs for q in pairs) / m
    ed = sum(min(SU[p], SV[q]) for p in pairs for q in pairs) / m
    gri, e = (a + d) / max(tu, tv), (ea + ed) / max(tu, tv)
    return (gri - e) / (1 - e)


def rand_ari(a, b, c, d):
    """Eqs 4 and 5 from the pair variables."""
    total = a + b + c + d
    e = (a + c) * (a + b) / total
    return (a + d) / total, (a - e) / (((a + c) + (a + b)) / 2 - e)


def pairs_eq7(JU, JV, tnorm):
    a = b = c = d = 0.0
    for i, j in itertools.combinations(range(len(JU)), 2):
        a += tnorm(JU[i, j], JV[i, j])
        b += tnorm(JU[i, j], 1 - JV[i, j])
        c += tnorm(1 - JU[i, j], JV[i, j])
        d += tnorm(1 - JU[i, j], 1 - JV[i, j])
    return a, b, c, d


def pairs_eq2(N):
    """Eqs 2a-2d from a (fuzzy) contingency matrix N."""
    s = sum(v * v for v in N.ravel())
    rows = sum(v * v for v in N.sum(axis=1))
    cols = sum(v * v for v in N.sum(axis=0))
    tot = N.sum()
    return (s / 2 - tot / 2, rows / 2 - s / 2, cols / 2 - s / 2,
            tot ** 2 / 2 - (rows + cols) / 2 + s / 2)


def contingency(U, V):
    """N_rt = sum_i U_ir V_it."""
    U, V = np.asarray(U, float), np.asarray(V, float)
    return np.array([[sum(U[i, r] * V[i, t] for i in range(len(U))) for t in range(V.shape[1])]
                     for r in range(U.shape[1])])


def info(U, V):
    """I, H(U), H(V) of P = N / n (the review's H, with its minus sign restored)."""
    P = contingency(U, V) / len(U)
    pr, pc = P.sum(axis=1), P.sum(axis=0)
    mi = sum(P[r, t] * math.log(P[r, t] / (pr[r] * pc[t]))
             for r in range(P.shape[0]) for t in range(P.shape[1]) if P[r, t] > 0)
    hu = -sum(p * math.log(p) for p in pr if p > 0)
    hv = -sum(p * math.log(p) for p in pc if p > 0)
    return mi, hu, hv


def bcubed(U, V, combine):
    JU, JV = coassoc(U), coassoc(V)
    n = len(JU)
    both = [sum(combine(JU[i, j], JV[i, j]) for j in range(n)) for i in range(n)]
    p = sum(both[i] / sum(JU[i]) for i in range(n)) / n
    r = sum(both[i] / sum(JV[i]) for i in range(n)) / n
    return 2 * p * r / (p + r)


def ndisc(U):
    """NDisc = 2 (1 - (1/n^2) sum_ij A_ij), A_ij = 1 if some cluster holds both i and j."""
    U = np.asarray(U, float)
    n = len(U)
    A = [[any(U[i, r] * U[j, r] == 1 for r in range(U.shape[1])) for j in range(n)]
         for i in range(n)]
    return 2 * (1 - sum(map(sum, A)) / n ** 2)


def db12(U, V):
    U, V = np.asarray(U, float), np.asarray(V, float)
    R = np.array([[U[i, r] * V[i, t] for r in range(U.shape[1]) for t in range(V.shape[1])]
                  for i in range(len(U))])
    return 2 * ndisc(R) - ndisc(U) - ndisc(V)


def csi10(U, V):
    JU, JV = coassoc(U), coassoc(V)
    tu, tv = np.asarray(U, float).sum(axis=1), np.asarray(V, float).sum(axis=1)
    num = den = 0.0
    for i, j in itertools.combinations(range(len(JU)), 2):
        ag = (min(JU[i, j], JV[i, j]) + min(tu[i], tv[i]) + min(tu[j], tv[j]) - 2)
        dg = abs(JU[i, j] - JV[i, j]) + abs(tu[i] - tv[i]) + abs(tu[j] - tv[j])
        num, den = num + ag, den + ag + dg
    return num / den


def brouwer(U, V):
    """09BRI / 09BARI: J normalised by the Euclidean norms of the rows; a = (sum_(i,j)
    J^U_ij J^V_ij - n) / 2 as the review writes it, b, c, d by eq 7."""
    def normalised(W):
        W = np.asarray(W, float)
        norms = [math.sqrt(sum(v * v for v in row)) for row in W]
        J = coassoc(W)
        return np.array([[J[i, j] / (norms[i] * norms[j]) for j in range(len(W))]
                         for i in range(len(W))])
    JU, JV = normalised(U), normalised(V)
    n = len(JU)
    a = (sum(JU[i, j] * JV[i, j] for i in range(n) for j in range(n)) - n) / 2
    _, b, c, d = pairs_eq7(JU, JV, lambda x, y: x * y)
    return rand_ari(a, b, c, d)


def anderson(U, V, normalised):
    N = contingency(U, V)
    if normalised:
        N = N * len(U) / N.sum()
    return rand_ari(*pairs_eq2(N))


def definition(name, U, V):
    """The value of a reviewed measure from its definition in the review."""
    if name in ("vi03", "mi03", "mi05"):
        mi, hu, hv = info(U, V)
        return {"vi03": hu + hv - 2 * mi, "mi03": mi / math.sqrt(hu * hv),
                "mi05": 2 * mi / (hu + hv)}[name]
    if name == "bc":
        return bcubed(U, V, lambda x, y: x * y)
    if name == "ebc09":
        return bcubed(U, V, min)
    if name == "md11":
        JU, JV = coassoc(U), coassoc(V)
        n = len(JU)
        return 1 - sum(sum(abs(JU[i, j] - JV[i, j]) for j in range(n))
                       / sum(max(JU[i, j], JV[i, j]) for j in range(n)) for i in range(n)) / n
    if name == "d2_11":
        JU, JV = coassoc(U), coassoc(V)
        return 1 - sum(abs(v) for v in (JU - JV).ravel()) / len(JU) ** 2
    if name == "csi10":
        return csi10(U, V)
    if name == "db12":
        return db12(U, V)
    if name in ("bri08p", "bri08m"):
        tnorm = (lambda x, y: x * y) if name == "bri08p" else min
        return rand_ari(*pairs_eq7(coassoc(U, tnorm), coassoc(V, tnorm), tnorm))[0]
    if name == "ri09":
        JU, JV = coassoc(U), coassoc(V)
        pairs = list(itertools.combinations(range(len(JU)), 2))
        pi = sum(JU[p] * JV[p] for p in pairs)
        return 1 + (2 * pi - sum(JU[p] for p in pairs) - sum(JV[p] for p in pairs)) / len(pairs)
    if name in ("bri09", "bari09"):
        return brouwer(U, V)[name == "bari09"]
    if name in ("ari10", "aari10", "ari10n", "aari10n"):
        return anderson(U, V, name.endswith("n"))[name.startswith("aa")]
    if name in ("ari11nm", "aari11nm"):
        adjusted = name == "aari11nm"
        top = max(anderson(U, U, True)[adjusted], anderson(V, V, True)[adjusted])
        return anderson(U, V, True)[adjusted] / top
    raise KeyError(name)


REVIEWED = ["vi03", "mi03", "mi05", "bc", "ebc09", "md11", "d2_11", "csi10", "db12", "bri08p",
            "bri08m", "ri09", "bri09", "bari09", "ari10", "aari10", "ari10n", "aari10n",
            "ari11nm", "aari11nm"]


# ---------------------------------------------------------------------------------------------
# Random clusterings of every kind (fixed seeds)
# ---------------------------------------------------------------------------------------------

N = 9

#: The columns of the table: a name and the kind the package must find.
COLUMNS = {"hard": "exclusive hard", "fuzzy": "fuzzy", "possibilistic": "possibilistic",
           "overlapping hard": "non-exclusive hard", "covers": "non-exhaustive hard",
           "similarity matrix": "similarity matrix"}


def _fuzzy(rng, n=N, k=3):
    return rng.dirichlet(np.full(k, 0.7), size=n)


def _binary(rng, n, k):
    """0/1 memberships, every object in a cluster, one object in two, no empty cluster."""
    U = (rng.random((n, k)) < 0.4).astype(float)
    U[U.sum(axis=1) == 0, rng.integers(k)] = 1.0
    U[rng.integers(n), rng.choice(k, 2, replace=False)] = 1.0
    for col in np.flatnonzero(U.sum(axis=0) == 0):
        U[rng.integers(n), col] = 1.0
    return U


def _sets(rng, n, k, left_out):
    """k non-empty sets of objects 0..n-1 that leave the object ``left_out`` out."""
    others = [o for o in range(n) if o != left_out]
    sets = [{int(o) for o in others if rng.random() < 0.4} for _ in range(k)]
    for s in sets:
        s.add(int(rng.choice(others)))
    for o in others:  # the other objects each in some set
        if not any(o in s for s in sets):
            sets[int(rng.integers(k))].add(o)
    return sets


def clustering_pair(column, seed):
    """Two clusterings of the kind of ``column`` on the same N objects."""
    rng = np.random.default_rng([seed, list(COLUMNS).index(column)])
    if column == "hard":
        return rng.integers(0, 3, N), rng.integers(0, 4, N)
    if column == "fuzzy":
        return _fuzzy(rng), _fuzzy(rng, k=2)
    if column == "possibilistic":
        return tuple(np.minimum(_fuzzy(rng, k=k) * rng.uniform(0.3, 1.7, (N, 1)), 1.0)
                     for k in (3, 2))
    if column == "overlapping hard":
        return _binary(rng, N, 3), _binary(rng, N, 4)
    if column == "covers":  # two lists of sets, each leaving out an object the other holds
        return _sets(rng, N, 3, left_out=0), _sets(rng, N, 3, left_out=N - 1)
    return tuple(ca.coassociation(*[rng.integers(0, k, N) for k in ks])
                 for ks in ((2, 3, 3), (3, 4)))


def arguments(name, column, seed):
    """(x, y, which) with the kind under test in x and y (``which="xy"``), or, for ari_mp,
    which takes a matrix x and a partition y, in x against a partition y (``"x"``) and in y
    against the co-association matrix x of a partition (``"y"``)."""
    x, y = clustering_pair(column, seed)
    if name != "ari_mp":
        return [(x, y, "xy")]
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 3, N)
    return [(x, labels, "x"), (ca.coassociation(rng.integers(0, 3, N), labels), y, "y")]


# ---------------------------------------------------------------------------------------------
# Which kinds each index takes: from its paper, and the registry must say the same
# ---------------------------------------------------------------------------------------------

FC = {"hard", "fuzzy"}
ALL4 = {"hard", "fuzzy", "possibilistic", "overlapping hard"}
HARD = {"hard", "overlapping hard"}
COVERS = {"hard", "overlapping hard", "covers"}
MATRIX = {"similarity matrix"}
#: Horta & Campello (2015): 13FRI/13AFRI for fuzzy clusterings (sec. 4; 4.3 shows 13FRI failing
#: on possibilistic ones), 13GRI/13AGRI for all four kinds (sec. 5), and Table 2 for the reviewed
#: measures (BC, defined for exclusive hard clusterings in sec. 2); Amodio et al. (2016): NDC and
#: ACI for fuzzy partitions (E in [0, 1]), and similarity matrices as this package's extension;
#: Zhang, Wong & Shen (2012): matrices, and a partition as ARImp's second argument; the
#: overlapping family compares covers (sets of objects).
EXPECTED = {
    "fri": FC, "afri": FC, "gri": ALL4, "agri": ALL4, "ndc": FC | MATRIX, "aci": FC | MATRIX,
    "vi03": FC, "mi03": FC, "mi05": FC, "bri08p": FC, "bri08m": FC, "ri09": FC,
    "bc": {"hard"}, "ebc09": HARD, "md11": HARD, "d2_11": HARD, "csi10": HARD, "db12": HARD,
    "bri09": ALL4, "bari09": ALL4, "ari10": ALL4, "aari10": ALL4, "ari10n": ALL4,
    "aari10n": ALL4, "ari11nm": ALL4, "aari11nm": ALL4, "cri07": ALL4, "cari07": ALL4,
    "cf10": ALL4, "cf10n": ALL4,
    "ari_mm": MATRIX, "nsf": MATRIX, "kas": MATRIX, "sms": MATRIX, "ari_mp": MATRIX | {"hard"},
    **{name: COVERS for name in ("element_centric", "omega", "onmi_lfk", "onmi_mgh",
                                 "geometric_accuracy", "classification_error",
                                 "overlap_quality")},
}
#: Where x and y take different kinds: ARImp compares a matrix x with a partition y.
EXPECTED_XY = {"ari_mp": (MATRIX, {"hard"})}


def accepts(name, column, which):
    if name in EXPECTED_XY:
        return column in EXPECTED_XY[name][which == "y"]
    return column in EXPECTED[name]


#: Provably constant on a kind: the overlap quality is the mutual information of the numbers of
#: clusters of each object, which is 1 for every object of a partition, so it is 0.
CONSTANT = {("overlap_quality", "hard"): 0.0}

_LISTED = ca.list_indices()
PAIR_INDICES = [name for name in _LISTED.index if _LISTED.loc[name, "kinds"]]


def test_every_index_of_two_clusterings_is_in_the_expected_table():
    listed = ca.list_indices()
    assert set(PAIR_INDICES) == {n for n, r in REGISTRY.items() if isinstance(r, PairIndex)}
    assert set(PAIR_INDICES) == set(EXPECTED)
    for name in PAIR_INDICES:
        rec = REGISTRY[name]
        kx, ky = EXPECTED_XY.get(name, (EXPECTED[name], EXPECTED[name]))
        assert set(rec.kinds) == {COLUMNS[c] for c in kx}, name
        assert set(rec.kinds_y or rec.kinds) == {COLUMNS[c] for c in ky}, name
        for kind in set(rec.kinds) | set(rec.kinds_y or ()):
            assert kind in listed.loc[name, "kinds"]


def _run(name, column, which):
    """The index on 6 pairs (x, y) of the kind (seeds 0..5): the values and the messages of
    the errors."""
    values, errors = [], []
    for seed in range(6):
        for x, y, where in arguments(name, column, seed):
            if where != which:
                continue
            try:
                values.append(ca.agreement(x, y, index=name))
            except (ValueError, TypeError) as exc:
                errors.append(str(exc))
    return values, errors


def _cases():
    return [pytest.param(name, column, which, id=f"{name}-{column}" + (
        f"-{which}" if which != "xy" else ""))
        for name in PAIR_INDICES for column in COLUMNS
        for which in (("x", "y") if name in EXPECTED_XY else ("xy",))]


@pytest.mark.parametrize("name, column, which", _cases())
def test_every_index_on_every_kind_gives_a_moving_value_or_names_the_kind(name, column, which):
    values, errors = _run(name, column, which)
    assert len(values) + len(errors) == 6
    if accepts(name, column, which):
        assert not errors, errors[:1]
        assert np.all(np.isfinite(values)), values
        if (name, column) in CONSTANT:
            assert values == pytest.approx([CONSTANT[name, column]] * len(values), abs=TOL)
        else:  # not one constant whatever the input
            assert np.ptp(values) > 1e-6, values
        lo, hi = REGISTRY[name].range
        assert min(values) >= lo - TOL and max(values) <= hi + TOL
    else:
        assert not values, values
        kind = COLUMNS[column]
        for message in errors:
            assert kind in message, message
            assert f"'{name}'" in message, message  # names the index


@st.composite
def memberships_of_a_kind(draw):
    """A membership matrix built to be of one kind, and that kind."""
    n, k = draw(st.integers(2, 7)), draw(st.integers(1, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(["exclusive hard", "fuzzy", "possibilistic",
                                 "non-exclusive hard", "non-exhaustive hard"]))
    if kind == "exclusive hard":
        U = np.eye(k)[rng.integers(0, k, n)]
    elif kind == "fuzzy":  # some object shared between two clusters
        U = np.eye(k + 1)[rng.integers(0, k + 1, n)]
        U[0] = 0.0
        U[0, :2] = 0.5
    elif kind == "possibilistic":  # a fuzzy row scaled below 1
        U = np.eye(k + 1)[rng.integers(0, k + 1, n)] * draw(st.floats(0.05, 0.95))
        U[U.sum(axis=1) == 0, 0] = 0.5
    else:
        U = np.eye(k + 1)[rng.integers(0, k + 1, n)]
        U[0, :2] = 1.0  # object 0 in two clusters
        if kind == "non-exhaustive hard":
            U[n - 1] = 0.0 if n > 1 else U[n - 1]
    return U[:, U.sum(axis=0) > 0], kind  # no empty cluster


@settings(**SETTINGS)
@given(case=memberships_of_a_kind(), as_y=st.booleans())
def test_each_index_takes_a_kind_iff_its_record_says_so_in_either_place(case, as_y):
    U, kind = case
    if kind == "non-exhaustive hard" and not (U.sum(axis=1) == 0).any():
        kind = "non-exclusive hard"  # n = 1 left no row to empty
    assert ca.membership_kind(U) == kind
    other = np.eye(2)[np.arange(len(U)) % 2]  # a partition every index of memberships takes
    for name in PAIR_INDICES:
        rec = REGISTRY[name]
        if rec.accepted_kinds(as_y) == ("similarity matrix",) or \
                "exclusive hard" not in rec.accepted_kinds(not as_y):
            continue  # matrices only (refused as not square, in the table test), or ari_mp's y
        x, y = (other, U) if as_y else (U, other)
        if kind in rec.accepted_kinds(as_y):
            if len(U) >= 2:
                assert np.isfinite(ca.agreement(x, y, index=name)), name
        else:
            with pytest.raises(ValueError, match=rf"^{'y' if as_y else 'x'} is an? {kind} "
                                                 rf"clustering .*'{name}'"):
                ca.agreement(x, y, index=name)


def test_the_kinds_found_are_the_columns():
    for column, kind in COLUMNS.items():
        for seed in range(3):
            x, y = clustering_pair(column, seed)
            if column == "covers":
                x, y = sets_to_memberships(x, y)
            for c in (x, y):
                if kind == "similarity matrix":
                    with pytest.raises(ValueError, match="x is a similarity matrix"):
                        ca.agreement(c, c, index="gri")
                else:
                    assert ca.membership_kind(c) == kind


def test_a_refused_kind_is_refused_before_any_work():
    U = np.minimum(_fuzzy(np.random.default_rng(1), 200) * 1.5, 1.0)  # possibilistic
    for call in (lambda: ca.agreement_test(U, U, index="fri", n_sim=10**7, seed=1),
                 lambda: ca.nulls.null_distribution(U, U, index="aci", n_sim=10**7, seed=1),
                 lambda: ca.compare(U, U, indices=["gri", "ndc"], n_sim=10**7, seed=1)):
        t = time.perf_counter()
        with pytest.raises(ValueError, match="is a possibilistic clustering"):
            call()
        assert time.perf_counter() - t < 2.0


def test_a_group_reports_the_indices_a_kind_is_refused_by_as_NA():
    x, y = clustering_pair("possibilistic", 0)
    with pytest.warns(UserWarning, match="not defined here"):
        values = ca.agreement(x, y, index="fuzzy")
    refused = {n for n in values.index if pd.isna(values[n])}
    assert refused == {n for n in values.index if "possibilistic" not in EXPECTED[n]}
    assert "possibilistic clustering" in values.attrs["not_defined"]["fri"]


# -- the reproducers of the issue ------------------------------------------------------------

FRI_CASES = [(np.full((4, 2), 0.9), np.array([[1, 0], [0, 1], [1, 0], [0, 1.]])),
             (np.array([[.5, .2], [.3, .3], [.9, .9], [.1, .1]]),
              np.array([[.7, .3], [.6, .4], [.3, .7], [.4, .6]]))]


@pytest.mark.parametrize("U, V", FRI_CASES)
def test_fri_refuses_possibilistic_memberships_on_which_eq14_gives_one(U, V):
    # the cause: on every pair one clustering has J and S both at least the other's, so
    # b = c = 0 and eq 14 is 1, although U and V differ (their totals T differ)
    a, b, c, d, tu, tv = abcde(U, V)
    assert b == pytest.approx(0, abs=TOL) and c == pytest.approx(0, abs=TOL)
    assert (a + d) / (a + b + c + d) == pytest.approx(1.0)
    assert tu != pytest.approx(tv)
    for name in ("fri", "afri"):
        with pytest.raises(ValueError, match=rf"^x is a possibilistic clustering \(.*row \d "
                                             rf"sums to 1.8\), which index '{name}' .* takes "
                                             r"exclusive hard or fuzzy clusterings .*gri / agri"):
            ca.agreement(U, V, index=name)
        with pytest.raises(ValueError, match=r"^y is a possibilistic clustering"):
            ca.agreement(V, U, index=name)
    # 13GRI / 13AGRI, made for them, count the surplus: below 1
    assert ca.agreement(U, V, index="gri") == pytest.approx((a + d) / max(tu, tv), abs=TOL)
    assert ca.agreement(U, V, index="gri") < 1
    assert ca.agreement(U, V, index="agri") == pytest.approx(agri_by_definition(U, V), abs=TOL)


def test_float32_probabilities_are_fuzzy():
    P = _fuzzy(np.random.default_rng(3), 50, 40).astype(np.float32)
    assert np.abs(P.astype(float).sum(axis=1) - 1).max() > 1e-9  # rounding of float32
    assert ca.membership_kind(P) == "fuzzy"
    assert ca.agreement(P, P[::-1], index="fri") == pytest.approx(
        ca.agreement(P.astype(float), P[::-1].astype(float), index="gri"), abs=1e-5)
    assert ca.membership_kind(P.astype(float) * 0.999) == "possibilistic"


def test_a_list_of_sets_covering_every_object_is_its_0_1_memberships():
    sets_x, sets_y = [{0, 1, 2}, {2, 3}, {4, 5}], [{0, 1}, {1, 2, 3}, {3, 4, 5}]
    U, V = sets_to_memberships(sets_x, sets_y)
    assert ca.membership_kind(U) == ca.membership_kind(V) == "non-exclusive hard"
    for name in ("gri", "agri", "ebc09", "cri07", "omega", "element_centric"):
        assert ca.agreement(sets_x, sets_y, index=name) == ca.agreement(U, V, index=name)
    with pytest.raises(ValueError, match=r"non-exclusive hard clustering .*'fri'"):
        ca.agreement(sets_x, sets_y, index="fri")


# ---------------------------------------------------------------------------------------------
# The reviewed measures against their definitions, on every kind each is defined for
# ---------------------------------------------------------------------------------------------

def _memberships(column, seed):
    x, y = clustering_pair(column, seed)
    if column == "hard":  # one-hot, for the loops
        x, y = (np.eye(int(v.max()) + 1)[v] for v in (x, y))
        x, y = x[:, x.sum(axis=0) > 0], y[:, y.sum(axis=0) > 0]
    return x, y


@pytest.mark.parametrize("name, column", [(n, c) for n in REVIEWED
                                          for c in COLUMNS if c in EXPECTED[n]])
def test_reviewed_measures_equal_their_definitions(name, column):
    for seed in range(4):
        U, V = _memberships(column, seed)
        assert ca.agreement(U, V, index=name) == pytest.approx(definition(name, U, V),
                                                               rel=1e-10, abs=1e-12)


def test_bcubed_passes_one_on_overlapping_clusterings_which_is_why_it_refuses_them():
    U = np.array([[1, 1], [1, 1], [0, 1], [1, 0]], float)  # objects 0 and 1 share two clusters
    V = np.array([[1, 1], [1, 1], [1, 0], [0, 1]], float)
    JU, JV = coassoc(U), coassoc(V)
    precision = sum(sum(JU[i] * JV[i]) / sum(JU[i]) for i in range(4)) / 4
    assert precision > 1
    with pytest.raises(ValueError, match=r"non-exclusive hard clustering .*'bc'"):
        ca.agreement(U, V, index="bc")
    assert ca.agreement(U, V, index="ebc09") == pytest.approx(definition("ebc09", U, V))


# ---------------------------------------------------------------------------------------------
# Frames of memberships and similarity matrices are paired by their index
# ---------------------------------------------------------------------------------------------

U5 = np.array([[.9, .1], [.8, .2], [.3, .7], [.1, .9], [.6, .4]])


def test_two_predict_proba_frames_are_paired_by_their_index():
    x = pd.DataFrame(U5, index=list("abcde"))
    y = pd.DataFrame(U5, index=list("baecd"))
    # y read in x's order: a is y's row 1, b row 0, c row 3, d row 4, e row 2
    by_hand = U5[[1, 0, 3, 4, 2]]
    value = ca.agreement(x, y, index="agri")
    assert value == pytest.approx(ca.agreement(U5, by_hand, index="agri"), abs=1e-14)
    assert value == pytest.approx(agri_by_definition(U5, by_hand), abs=TOL)
    assert f"{value:.3g}" == "0.0229"
    assert ca.agreement(U5, U5, index="agri") == 1.0  # what pairing by position gave
    # the same pairing in every public function (the one entry conversion)
    exact = ca.nulls.null_distribution(x, y, index="gri", method="exact").mean
    assert exact == pytest.approx(
        ca.nulls.null_distribution(U5, by_hand, index="gri", method="exact").mean, abs=1e-14)
    res = ca.agreement_test(x, y, index="agri", method="permutation", seed=1)
    assert res.statistic == pytest.approx(value, abs=1e-14)


def _shuffled(frame, rnd):
    order = list(range(len(frame)))
    rnd.shuffle(order)
    return frame.iloc[order]


@settings(**SETTINGS)
@given(seed=st.integers(0, 10**6), n=st.integers(3, 12), rnd=st.randoms(use_true_random=False))
def test_shuffling_frames_with_their_index_changes_nothing(seed, n, rnd):
    rng = np.random.default_rng(seed)
    labels = [f"o{i}" for i in range(n)]
    U, V = _fuzzy(rng, n, 3), _fuzzy(rng, n, 2)
    x, y = pd.DataFrame(U, index=labels), pd.DataFrame(V, index=labels)
    P = ca.coassociation(rng.integers(0, 3, n), rng.integers(0, 2, n))
    Q = ca.coassociation(rng.integers(0, 2, n), rng.integers(0, 3, n))
    px, qy = (pd.DataFrame(M, index=labels, columns=labels) for M in (P, Q))
    h = pd.Series(rng.integers(0, 3, n), index=labels)
    for a, b, name, want in [(x, y, "agri", ca.agreement(U, V, index="agri")),
                             (x, y, "ndc", ca.agreement(U, V, index="ndc")),
                             (x, h, "fri", ca.agreement(U, h.to_numpy(), index="fri")),
                             (px, qy, "ari_mm", ca.agreement(P, Q, index="ari_mm")),
                             (px, qy, "ndc", ca.agreement(P, Q, index="ndc")),
                             (px, h, "ari_mp", ca.agreement(P, h.to_numpy(), index="ari_mp"))]:
        sa, sb = _shuffled(a, rnd), _shuffled(b, rnd)
        if a is px:  # a similarity matrix: its columns in yet another order
            sa = sa[list(rnd.sample(labels, n))]
        if b is qy:
            sb = sb[list(rnd.sample(labels, n))]
        assert ca.agreement(sa, sb, index=name) == pytest.approx(want, abs=1e-12), name


def test_frames_follow_the_join_rules_of_series():
    x = pd.DataFrame(U5, index=list("abcde"))
    y = pd.DataFrame(U5[[1, 0, 2, 3]], index=list("abcf"))
    with pytest.raises(ValueError, match=r"^x and y are pandas DataFrames whose indexes differ: "
                                         r"2 label\(s\) of x's index are not in y's and 1 of "
                                         r"y's .* join='inner'"):
        ca.agreement(x, y, index="agri")
    with pytest.warns(UserWarning, match=r"left out 2 object\(s\) of x and 1 of y"):
        inner = ca.agreement(x, y, index="gri", join="inner")
    assert inner == pytest.approx(ca.agreement(U5[:3], U5[[1, 0, 2]], index="gri"), abs=1e-14)
    s = pd.Series([0, 1, 1, 0, 1], index=list("abcdz"))
    with pytest.raises(ValueError, match=r"^x and y are pandas objects \(a Series and a "
                                         r"DataFrame\) whose indexes differ"):
        ca.agreement(s, x, index="agri")
    dup = pd.DataFrame(U5, index=list("abcda"))
    with pytest.raises(ValueError, match=r"^y's index has duplicate labels \(e.g. 'a'\)"):
        ca.agreement(x, dup, index="agri")
    with pytest.raises(ValueError, match=r"^join must be one of"):
        ca.agreement(x, x, index="agri", join="outer")


def test_a_series_of_labels_and_a_frame_of_memberships_are_paired_by_their_index():
    x = pd.Series([0, 0, 1, 1, 0], index=list("abcde"))
    y = pd.DataFrame(U5, index=list("edcba"))
    assert ca.agreement(x, y, index="gri") == pytest.approx(
        ca.agreement(x.to_numpy(), U5[::-1], index="gri"), abs=1e-14)


def test_a_frame_against_an_array_is_paired_by_position_as_a_series_is():
    x = pd.DataFrame(U5, index=list("edcba"))
    assert ca.agreement(x, U5, index="agri") == 1.0
    s = pd.Series([0, 0, 1, 1, 0], index=list("edcba"))
    assert ca.agreement(s, [0, 0, 1, 1, 0], index="ari") == 1.0
    assert ca.agreement(s, U5, index="gri") == ca.agreement([0, 0, 1, 1, 0], U5, index="gri")


def test_one_hot_frames_are_paired_for_table_indices_too():
    lab_x, lab_y = np.array([0, 0, 1, 1, 2, 2]), np.array([0, 1, 1, 2, 2, 2])
    x = pd.DataFrame(np.eye(3)[lab_x], index=list("abcdef"))
    y = pd.DataFrame(np.eye(3)[lab_y], index=list("fedcba"))
    assert ca.agreement(x, y, index="ari") == pytest.approx(
        ca.agreement(lab_x, lab_y[::-1], index="ari"), abs=1e-14)
    assert ca.agreement(x, y, index=["ari", "agri"]).to_dict() == pytest.approx(
        {"adjusted_rand": ca.agreement(lab_x, lab_y[::-1], index="ari"),
         "agri": ca.agreement(lab_x, lab_y[::-1], index="agri")}, abs=1e-14)


def test_a_similarity_frame_names_its_objects_in_rows_and_columns():
    P = ca.coassociation([0, 0, 1, 1], [0, 1, 1, 1])
    Q = ca.coassociation([0, 1, 1, 0])
    order = [2, 0, 3, 1]
    framed = pd.DataFrame(P, index=list("abcd"), columns=list("abcd")).iloc[:, order]
    # its columns in another order than its rows, against an array (paired by position)
    assert ca.agreement(framed, Q, index="ari_mm") == pytest.approx(
        ca.agreement(P, Q, index="ari_mm"), abs=1e-14)
    bad = pd.DataFrame(P, index=list("abcd"))  # columns 0..3, not the objects
    with pytest.raises(ValueError, match=r"^x is a DataFrame read as a similarity matrix, whose "
                                         r"rows and columns must name the same objects"):
        ca.agreement(bad, Q, index="ari_mm")
    with pytest.raises(ValueError, match=r"^y's index has duplicate labels"):
        ca.agreement(Q, pd.DataFrame(P, index=list("abca"), columns=list("abca")),
                     index="kas")
    # a frame whose columns name clusters, not objects, stays memberships for ndc
    U = pd.DataFrame(np.eye(4)[[0, 1, 2, 3]] * 0.5 + 0.125, index=list("abcd"))
    assert ca.membership_kind(U) == "fuzzy"
    assert ca.agreement(U, [0, 0, 1, 1], index="ndc") == ca.agreement(
        U.to_numpy(), [0, 0, 1, 1], index="ndc")


def test_a_square_symmetric_array_is_a_matrix_unless_a_frame_names_its_clusters():
    M = ca.coassociation([0, 0, 1, 1, 2], [0, 1, 1, 2, 2])
    y = np.array([0, 0, 0, 1, 1])
    with pytest.raises(ValueError, match=r"^x is a similarity matrix \(square \(5 x 5\).*'gri'"):
        ca.agreement(M, y, index="gri")
    as_memberships = pd.DataFrame(M, columns=[f"cluster {k}" for k in range(5)])
    a, _, _, d, tu, tv = abcde(M, np.eye(2)[y])
    assert ca.agreement(as_memberships, y, index="gri") == pytest.approx((a + d) / max(tu, tv),
                                                                          abs=TOL)
    assert ca.agreement(np.eye(5), y, index="gri") == ca.agreement(np.arange(5), y, index="gri")
