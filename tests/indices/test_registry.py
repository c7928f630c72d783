import math

import numpy as np
import pandas as pd
import pytest

import clusteragree as ca
from clusteragree.indices import GROUPS, REGISTRY, TableIndex, evaluate
from clusteragree.indices.catalogue import catalogue_rows

ISSUE_NAMES = [
    # DESIGN.md's fixed names available for hard partitions
    "rand", "adjusted_rand", "russel_rao", "gower_legendre", "jaccard", "czekanowski",
    "goodman_kruskal", "sokal_sneath", "sokal_sneath2", "fowlkes_mallows", "mutual_info",
    "nmi_min", "nmi_sqrt", "nmi_sum", "nmi_max", "nmi_joint", "variation_of_information",
    "adjusted_mutual_info", "purity", "f_measure", "van_dongen", "kappa", "psi",
    # issue 2's further indices
    "wallace_x", "wallace_y", "mirkin", "hubert_gamma", "kulczynski", "mcconnaughey", "peirce",
    "rogers_tanimoto", "hamann", "s_cohen", "morey_agresti", "adjusted_fowlkes_mallows",
    "entropy_x", "entropy_y", "joint_entropy", "nvi", "nvi_sum", "homogeneity", "completeness",
    "v_measure", "inverse_purity", "criterion_h", "van_dongen_similarity", "accuracy",
    "psi_distance",
]


def test_every_name_is_registered():
    missing = [n for n in ISSUE_NAMES if n not in REGISTRY]
    assert not missing


@pytest.mark.parametrize("alias, name", [("ari", "adjusted_rand"), ("nmi", "nmi_sum"),
                                         ("vi", "variation_of_information"), ("dice", "czekanowski"),
                                         ("AMI", "adjusted_mutual_info"), ("nvd", "van_dongen")])
def test_aliases(alias, name):
    assert ca.get_index(alias).name == name


def test_list_indices_is_a_frame_with_the_metadata():
    df = ca.list_indices()
    assert isinstance(df, pd.DataFrame)
    assert set(REGISTRY) == set(df.index)
    for col in ("family", "kind", "input", "range", "optimum", "symmetric", "reference"):
        assert col in df.columns
    assert df.loc["variation_of_information", "kind"] == "distance"
    assert df.loc["purity", "symmetric"] == False  # noqa: E712
    assert set(ca.list_indices("information").family) == {"information"}
    with pytest.raises(ValueError, match="family must be one of"):
        ca.list_indices("fuzzy stuff")


def test_records_are_consistent():
    for rec in REGISTRY.values():
        lo, hi = rec.range
        assert lo < hi, rec.name
        if rec.kind == "similarity" and math.isfinite(rec.optimum) and math.isfinite(hi):
            assert rec.optimum == hi, rec.name  # (unbounded fuzzy measures: optimum = 1 on
            # equal hard clusterings, which they need not reach on fuzzy ones)
        if rec.kind == "distance":
            assert rec.optimum == lo, rec.name
        assert rec.reference and rec.func.__doc__, rec.name
        if rec.family == "pair counting":
            assert rec.min_n == 2 and rec.statistic == "s", rec.name


TABLE_INDICES = [r for r in REGISTRY.values() if isinstance(r, TableIndex)]
IDENTICAL = np.array([[3, 0, 0], [0, 4, 0], [0, 0, 2]])
ONE_CLUSTER_BOTH = np.array([[9]])
SINGLETONS_BOTH = np.eye(5, dtype=int)
ONE_VS_SINGLETONS = np.ones((1, 5), dtype=int)


@pytest.mark.parametrize("table", [IDENTICAL, ONE_CLUSTER_BOTH, SINGLETONS_BOTH],
                         ids=["identical", "one cluster", "singletons"])
def test_identical_partitions_take_the_optimum(table):
    for rec in TABLE_INDICES:
        if rec.kind == "statistic" or rec.name == "russel_rao" or math.isinf(rec.optimum):
            continue  # no fixed optimum: RR's maximum is p/T, MI's min(H), RMI's H - log(Omega)/n,
            # the z-scores SMI and SRI
        value = float(evaluate(rec, table))
        assert value == pytest.approx(rec.optimum, abs=1e-12), rec.name


def test_one_cluster_against_singletons_is_decided_not_nan():
    for rec in TABLE_INDICES:
        if rec.name == "kappa":  # needs K = Q or a matching: a clear error, tested elsewhere
            continue
        value = float(evaluate(rec, ONE_VS_SINGLETONS))
        assert not math.isnan(value), rec.name
    assert ca.agreement(ONE_VS_SINGLETONS, index="kappa", matching=[0] * 5) == 1.0
    # The documented convention: no agreement shown, 0 for the similarity ratios ...
    for name in ("adjusted_rand", "jaccard", "fowlkes_mallows", "nmi_sum", "nmi_min",
                 "adjusted_mutual_info", "sokal_sneath", "goodman_kruskal"):
        assert ca.agreement(ONE_VS_SINGLETONS, index=name) == 0.0, name
    # ... and homogeneity/completeness follow their definitions (scikit-learn agrees).
    assert ca.agreement(ONE_VS_SINGLETONS, index="homogeneity") == 1.0   # one class
    assert ca.agreement(ONE_VS_SINGLETONS, index="completeness") == 0.0


def test_groups_resolve_and_keep_order():
    s = ca.agreement([[30, 20], [10, 20]], index="paired")
    assert list(s.index) == list(GROUPS["paired"])
    assert len(GROUPS["all"]) == sum(r.kind != "statistic" for r in TABLE_INDICES)


def test_batch_evaluation_returns_arrays_and_frames():
    batch = np.array([[[30, 20], [10, 20]], [[40, 10], [0, 30]]])
    values = ca.agreement(batch, index="rand")
    assert values.shape == (2,)
    assert values[0] == pytest.approx(ca.agreement(batch[0], index="rand"))
    frame = ca.agreement(batch, index=["rand", "jaccard"])
    assert frame.shape == (2, 2)


def test_options_go_to_the_indices_that_take_them():
    tab = ca.ContingencyTable([[30, 20], [10, 20]])
    s = ca.agreement(tab, index=["mutual_info", "rand"], base=2)
    assert s["mutual_info"] == pytest.approx(ca.agreement(tab, index="mi") / np.log(2))
    assert s["rand"] == ca.agreement(tab, index="rand")


def test_a_group_where_one_index_is_needed_is_named_as_a_group():
    # "paired" used to be read as a misspelt index ("did you mean 'peirce'?")
    for call in (lambda: ca.get_index("paired"),
                 lambda: ca.nulls.null_distribution([[3, 1], [1, 3]], index="paired",
                                                    method="exact"),
                 lambda: ca.adjust([[3, 1], [1, 3]], index="paired", method="exact"),
                 lambda: ca.agreement_test([[3, 1], [1, 3]], index="paired")):
        with pytest.raises(ValueError) as err:
            call()
        message = str(err.value)
        assert "'paired' is a group of indices (" + ", ".join(GROUPS["paired"]) in message
        assert "compare(indices='paired')" in message and "peirce" not in message
    count = len(GROUPS["pair counting"])
    with pytest.raises(ValueError, match=rf"'pair counting' is a group .* \({count} in all\)"):
        ca.get_index("pair counting")
    with pytest.raises(ValueError, match="unknown index 'pairedd'"):  # a typo is still a typo
        ca.get_index("pairedd")


def test_indices_of_the_literature_left_out_are_refused_with_the_reason():
    # 09CRI/09CARI and 10QRIp/10QRIm have names (DESIGN) but no definition could be read:
    # asking for one says so, on every entry, rather than "unknown index, did you mean ..."
    U = np.eye(4)
    expected = {"cri09": "Ceccarelli & Maratea", "cari09": "Ceccarelli & Maratea",
                "qri10p": "Quere, Le Capitaine", "qri10m": "Quere, Le Capitaine"}
    for name, authors in expected.items():
        assert name not in REGISTRY and name not in ca.list_indices().index
        for call in (lambda: ca.get_index(name.upper()),
                     lambda: ca.agreement(U, U, index=name),
                     lambda: ca.agreement_test([[3, 1], [1, 3]], index=name),
                     lambda: ca.nulls.null_distribution([[3, 1], [1, 3]], index=name,
                                                        method="exact"),
                     lambda: ca.compare([0, 0, 1, 1], [0, 1, 1, 0], indices=["rand", name])):
            with pytest.raises(ValueError) as err:
                call()
            message = str(err.value)
            assert f"index {name!r}" in message.replace(name.upper(), name)
            assert "is not available in clusteragree" in message and authors in message
            assert "could not be read" in message and "did you mean" not in message.lower()


def test_a_name_declared_unavailable_cannot_also_be_registered():
    from clusteragree.indices._registry import _UNAVAILABLE, declare_unavailable, register

    with pytest.raises(ValueError, match="'rand' is implemented"):
        declare_unavailable(["rand"], "reason")
    assert "rand" not in _UNAVAILABLE
    with pytest.raises(ValueError, match="'qri10p' is declared unavailable"):
        register(name="qri10p", title="t", kind="similarity", range=(0.0, 1.0),
                 optimum=1.0, family="pair counting", symmetric=True,
                 reference="r")(lambda counts: counts)
    assert "qri10p" not in REGISTRY


def test_too_few_objects_says_why_for_each_index():
    with pytest.raises(ValueError, match=r"'rand' needs at least 2 objects \(a pair to count\)"):
        ca.agreement([[1]], index="rand")
    # MARI counts couples of object pairs with no object in common: 4 objects, not a pair
    with pytest.raises(ValueError, match=r"'mari' needs at least 4 objects \(two object pairs "
                                         r"with no object in common") as err:
        ca.agreement([[2, 0], [0, 1]], index="mari")
    assert "a pair to count" not in str(err.value)


def test_an_index_monotone_in_a_statistic_orders_tables_as_that_statistic_does():
    """``monotone_in``: given both margins, every such similarity increases (a distance
    decreases) with sum n_ij^2 or sum n_ij log n_ij, so tests of them under fixed margins
    are one test. Checked on every table of small margins and on random tables of larger."""
    from clusteragree.indices import STATISTICS
    from clusteragree.indices._registry import REGISTRY

    batches = [ca.nulls.random_tables(rows, cols, n_sim=3000, seed=7)
               for rows, cols in [([10, 7, 5], [8, 8, 6]), ([30, 20, 5, 5], [25, 25, 10]),
                                  ([12, 15], [14, 13])]]
    checked = set()
    for name, rec in REGISTRY.items():
        if rec.monotone_in is None:
            continue
        for tables in batches:
            tables = np.asarray(tables)
            stat = STATISTICS[rec.monotone_in](tables)
            values = np.asarray(ca.agreement(tables, index=name), dtype=float)
            order = np.argsort(stat, kind="stable")
            stat, values = stat[order], values[order]
            up = np.diff(stat) > 1e-9 * np.abs(stat[1:])
            steps = np.diff(values)[up]
            sign = 1 if rec.kind == "similarity" else -1
            assert (sign * steps >= -1e-12).all(), name
            assert np.abs(np.diff(values)[~up]).max(initial=0) < 1e-9, name  # equal s: equal
            assert (sign * steps > 0).any(), name  # not a constant
        checked.add(name)
    assert {"rand", "adjusted_rand", "jaccard", "fowlkes_mallows", "mirkin", "nmi_sum",
            "adjusted_mutual_info", "variation_of_information"} <= checked
    assert ca.get_index("entropy_x").monotone_in is None  # the margins fix it
    assert ca.get_index("purity").monotone_in is None


def test_the_catalogue_shows_which_indices_are_reflexive():
    """The flag itself is checked on (x, x) for every index in test_association.py."""
    df = ca.list_indices()
    assert df["reflexive"].tolist() == [ca.get_index(name).reflexive for name in df.index]
    assert not df.loc["russel_rao", "reflexive"] and df.loc["adjusted_rand", "reflexive"]
    entries = {e.split(" ")[0]: e for row in catalogue_rows().values() for e in row}
    for name in df.index[df["kind"] != "statistic"]:  # the README's entry says it
        assert ("not reflexive" in entries[name]) == (not df.loc[name, "reflexive"])
