"""The catalogue page of the documentation site, written from the index registry at build time.

``write_catalogue(path)`` writes ``docs/_generated/catalogue.md`` (MyST markdown, included by
``docs/catalogue.md``): the overview tables of ``clusteragree.indices.catalogue_markdown`` and
``kinds_markdown`` (the README's), then one entry per registered index with what its record
carries (title, family, kind, range, optimum, symmetry, reflexivity, inputs and kinds, additive
statistic, closed-form null moments, options, aliases, reference) and its definition, the
docstring of the function that computes it. As a Sphinx extension it writes the page when the
builder starts, so the page cannot drift from the registry.
"""

from __future__ import annotations

import inspect
import math
import re
from pathlib import Path

from generated_pages import write_page

#: Characters that MyST markdown would read as markup in a table cell or a line of text.
_MARKUP = re.compile(r"([\\`*_\[\]<>|$#~])")


def _text(value) -> str:
    """A value as literal text in a markdown line or table cell."""
    return _MARKUP.sub(r"\\\1", str(value))


def _number(x: float) -> str:
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:g}"


def _definition(func) -> str:
    """The docstring of an index's function up to its first doctest (the definition)."""
    doc = inspect.cleandoc(func.__doc__ or "")
    if ">>>" in doc:
        doc = doc[: doc.index(">>>")]
    return doc.strip()


def _anchor(name: str) -> str:
    return "index-" + name.replace("_", "-")


def _entry(rec, exact_moments: str, kinds: str) -> list[str]:
    """One index's section: a field list of its record and its definition."""
    fields = [
        ("family", rec.family),
        ("kind", rec.kind),
        ("range", f"[{_number(rec.range[0])}, {_number(rec.range[1])}]"),
        ("optimum", _number(rec.optimum)),
        ("symmetric", "yes" if rec.symmetric else "no"),
        ("reflexive", "yes" if rec.reflexive else "no (a clustering compared with itself need "
                                                     "not reach the optimum)"),
        ("input", ", ".join(rec.inputs)),
    ]
    if kinds:
        fields.append(("kinds of clustering", kinds))
    statistic = getattr(rec, "statistic", None)
    if statistic:
        fields.append(("additive statistic", {"s": "s = Σ n_ij²",
                                              "t": "t = Σ n_ij log n_ij"}.get(statistic,
                                                                               statistic)))
    if exact_moments:
        fields.append(("closed-form null moments", exact_moments))
    if rec.options:
        fields.append(("options", ", ".join(f"{k}={v!r}" for k, v in rec.options.items())))
    if rec.aliases:
        fields.append(("aliases", ", ".join(rec.aliases)))
    fields.append(("reference", rec.reference))
    out = [f"({_anchor(rec.name)})=", f"### `{rec.name}`: {_text(rec.title)}", ""]
    out += [f"{name}\n: {_text(value)}\n" for name, value in fields]
    definition = _definition(rec.func)
    if definition:
        out += ["```text", definition, "```", ""]
    return out


def catalogue_page() -> str:
    """The catalogue as MyST markdown, from the registry (``clusteragree.indices``).

    Returns
    -------
    str
        The overview tables, a table of every index (linked to its entry) and one entry per
        index, grouped by family in the registry's order.
    """
    from clusteragree.indices import REGISTRY, list_indices
    from clusteragree.indices.catalogue import catalogue_markdown, kinds_markdown

    frame = list_indices()
    by_family: dict[str, list] = {}
    for rec in REGISTRY.values():
        by_family.setdefault(rec.family, []).append(rec)
    lines = [
        f"The registry holds {len(REGISTRY)} indices in {len(by_family)} families. "
        "`ca.list_indices()` gives the same records as a DataFrame and "
        "`clusteragree indices` prints them on the command line.",
        "",
        "## Overview",
        "",
        "Each entry is the index's name with its aliases, its options and their defaults, "
        "and whether it is a distance, a statistic (no fixed optimum) or not reflexive.",
        "",
        catalogue_markdown(),
        "",
        "The kinds of clustering the indices of two clusterings take (memberships, covers, "
        "similarity matrices); \"x\" or \"y\" marks a kind only that argument may be:",
        "",
        kinds_markdown(),
        "",
    ]
    for family, records in by_family.items():
        lines += [f"## {family[0].upper() + family[1:]}", "",
                  "| index | title | kind | range | reflexive |", "|---|---|---|---|---|"]
        for rec in records:
            row = frame.loc[rec.name]
            lines.append(f"| [`{rec.name}`](#{_anchor(rec.name)}) | {_text(rec.title)} | "
                         f"{rec.kind} | {_text(row['range'])} | "
                         f"{'yes' if rec.reflexive else 'no'} |")
        lines.append("")
        for rec in records:
            row = frame.loc[rec.name]
            lines += _entry(rec, row["exact_moments"], row["kinds"])
    return "\n".join(lines) + "\n"


def write_catalogue(path) -> Path:
    """Write the page to ``path`` (``docs/_generated/catalogue.md``), only when it changed
    (``generated_pages.write_page``)."""
    return write_page(path, catalogue_page())


def _on_builder_inited(app) -> None:
    write_catalogue(Path(app.srcdir) / "_generated" / "catalogue.md")


def setup(app):
    """Register the hook that writes the catalogue before the sources are read."""
    app.connect("builder-inited", _on_builder_inited)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
