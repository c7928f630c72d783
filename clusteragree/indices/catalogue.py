"""The user guide's catalogue tables, generated from the registry (so that they cannot drift).

``catalogue_markdown()`` gives the guide's two tables (the indices of hard partitions, in
``docs/guide/indices.md``, then those of fuzzy, overlapping and possibilistic clusterings and
similarity matrices), one row per family; ``kinds_markdown()`` the table of the kinds of clustering each index of two
clusterings takes (``PairIndex.kinds``; both in ``docs/guide/memberships.md``);
``tests/indices/test_association.py`` checks that the guide holds exactly these.

>>> print(catalogue_markdown().splitlines()[0])
| family | indices |
"""

from __future__ import annotations

import re

from ..inputs import KINDS
from ._records import Index, PairIndex
from ._registry import REGISTRY, get_index

__all__ = ["catalogue_markdown", "catalogue_rows", "kinds_markdown", "ABBREVIATIONS",
           "abbreviation"]

#: The short names papers give the indices, for a sentence of a paper (``.sentence()`` of the
#: results); an index not listed is named by the code its title ends with ("Pair sets index
#: (PSI)": PSI), or by its title.
ABBREVIATIONS: dict[str, str] = {
    "rand": "Rand", "adjusted_rand": "ARI", "jaccard": "Jaccard", "czekanowski": "Dice",
    "fowlkes_mallows": "FMI", "adjusted_fowlkes_mallows": "AFMI", "mirkin": "Mirkin",
    "hubert_gamma": "Hubert's Gamma", "morey_agresti": "ARI (Morey & Agresti)",
    "mutual_info": "MI", "nmi_sum": "NMI", "nmi_min": "NMI_min", "nmi_sqrt": "NMI_sqrt",
    "nmi_max": "NMI_max", "nmi_joint": "NMI_joint", "variation_of_information": "VI",
    "nvi": "NVI", "nvi_sum": "NVI_sum", "adjusted_mutual_info": "AMI",
    "homogeneity": "homogeneity", "completeness": "completeness", "v_measure": "V-measure",
    "purity": "purity", "inverse_purity": "inverse purity", "f_measure": "F-measure",
    "van_dongen": "NVD", "accuracy": "accuracy", "kappa": "Cohen's kappa",
    "chi_squared": "chi-squared", "cramers_v": "Cramer's V", "tschuprow_t": "Tschuprow's T",
    "smi": "SMI", "sri": "SRI", "mari": "MARI", "rmi": "RMI", "element_centric": "ECS",
    "omega": "Omega", "bc": "BCubed F", "ami_tsallis": "AMI_q", "smi_tsallis": "SMI_q",
    "onmi_lfk": "ONMI", "onmi_mgh": "ONMI_max", "sokal_sneath2": "Sokal & Sneath 2",
    "entropy_x": "H(x)", "entropy_y": "H(y)", "joint_entropy": "H(x, y)",
    "overlap": "overlap coefficient", "van_dongen_similarity": "1 - NVD",
    "psi_distance": "1 - PSI", "ndc": "NDC", "md11": "11MD", "d2_11": "11D2", "db12": "12DB",
    "csi10": "10CSI", "bri08p": "08BRIp", "bri08m": "08BRIm",
}

#: The rows of each table, in order: (label, test on a record).
_HARD = ("pair counting", "pairs of pairs", "information", "set matching", "association")
_REVIEWED = "reviewed by Horta & Campello"
_SOFT = ("fuzzy", _REVIEWED, "overlapping", "matrix")


def _row_of(rec: Index) -> str:
    if rec.family == "fuzzy" and rec.func.__module__.endswith(("fuzzy_reviewed", "fuzzy_campello")):
        return _REVIEWED
    return rec.family


def _entry(rec: Index) -> str:
    """``name (aliases; `option=default`, ...; a distance / a statistic / not reflexive)``."""
    notes = []
    if rec.aliases:
        notes.append(", ".join(rec.aliases))
    if rec.options:
        notes.append(", ".join(f"`{k}={v!r}`".replace("'", '"') for k, v in rec.options.items()))
    what = []
    if rec.kind != "similarity":
        what.append(f"a {rec.kind}")
    if not rec.reflexive and rec.kind != "statistic":
        what.append("not reflexive")
    if what:
        notes.append(", ".join(what))
    return rec.name + (f" ({'; '.join(notes)})" if notes else "")


def abbreviation(index) -> str:
    """The short name a paper gives an index: "ARI", "AMI", "NMI", "Rand", "Jaccard", ...

    Parameters
    ----------
    index : str or Index
        A name, an alias or a record.

    Returns
    -------
    str
        ``ABBREVIATIONS``' entry; else the code the index's title ends with, in parentheses
        ("Pair sets index (PSI)": "PSI", a code of two capitals at least); else its title.

    See Also
    --------
    list_indices : The registry's names and titles.

    Examples
    --------
    >>> abbreviation("ari"), abbreviation("nmi"), abbreviation("psi"), abbreviation("peirce")
    ('ARI', 'NMI', 'PSI', 'Peirce')
    """
    rec = get_index(index)
    if rec.name in ABBREVIATIONS:
        return ABBREVIATIONS[rec.name]
    match = re.search(r"\(([A-Za-z0-9_]+)\)$", rec.title)
    if match and sum(c.isupper() for c in match.group(1)) >= 2:
        return match.group(1)
    return rec.title


def catalogue_rows() -> dict[str, list[str]]:
    """Every registered index's catalogue entry, by table row (family), in registry order."""
    rows: dict[str, list[str]] = {}
    for rec in REGISTRY.values():
        rows.setdefault(_row_of(rec), []).append(_entry(rec))
    return rows


def _table(rows: dict[str, list[str]], labels) -> str:
    lines = ["| family | indices |", "|---|---|"]
    lines += [f"| {label} | {', '.join(rows[label])} |" for label in labels if label in rows]
    return "\n".join(lines)


def catalogue_markdown() -> str:
    """The user guide's two catalogue tables, generated from the registry.

    Returns
    -------
    str
        Two markdown tables separated by a blank line: the indices of hard partitions, then
        those of fuzzy, overlapping and possibilistic clusterings and similarity matrices,
        one row per family. Each entry is the index name with its aliases, its options and
        defaults, and whether it is a distance, a statistic (no fixed optimum) or not
        reflexive (identical clusterings need not reach its optimum).

    See Also
    --------
    clusteragree.list_indices : The same registry as a DataFrame.
    kinds_markdown : The kinds of clustering each index takes.

    Examples
    --------
    >>> "cramers_v" in catalogue_markdown()
    True
    """
    rows = catalogue_rows()
    others = [label for label in rows if label not in _HARD]
    unknown = [label for label in others if label not in _SOFT]
    if unknown:  # pragma: no cover - a new family must be placed in one of the tables
        raise RuntimeError(f"families {unknown} have no place in the catalogue tables")
    return _table(rows, _HARD) + "\n\n" + _table(rows, _SOFT)


#: The columns of the kinds table: each kind of ``inputs.KINDS`` under a short heading.
KIND_HEADINGS = {"exclusive hard": "hard", "fuzzy": "fuzzy", "possibilistic": "possibilistic",
                 "non-exclusive hard": "overlapping hard",
                 "non-exhaustive hard": "covers leaving objects out",
                 "similarity matrix": "similarity matrix"}


def kinds_markdown() -> str:
    """The kinds of clustering the indices of two clusterings take, as a markdown table: one row
    per set of kinds (the indices that share it), a column per kind; "x" or "y" marks a kind
    one argument only may be (ari_mp: a matrix x, a partition y). Every other kind is refused
    with an error naming it.

    >>> print(kinds_markdown().splitlines()[0])
    | indices | hard | fuzzy | possibilistic | overlapping hard | covers leaving objects out | similarity matrix |
    """
    assert set(KIND_HEADINGS) == set(KINDS)
    groups: dict[tuple, list[str]] = {}
    for rec in REGISTRY.values():
        if isinstance(rec, PairIndex):
            groups.setdefault((rec.kinds, rec.kinds_y or rec.kinds), []).append(rec.name)
    lines = ["| indices | " + " | ".join(KIND_HEADINGS.values()) + " |",
             "|---" * (len(KIND_HEADINGS) + 1) + "|"]
    for (kx, ky), names in groups.items():
        cells = []
        for kind in KIND_HEADINGS:
            both = kind in kx and kind in ky
            cells.append("yes" if both else "x" if kind in kx else "y" if kind in ky else "")
        lines.append(f"| {', '.join(names)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
