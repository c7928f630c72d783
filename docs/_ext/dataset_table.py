"""The table of the shipped data sets on the API page "Data sets", written at build time.

``write_datasets(path)`` writes ``docs/_generated/datasets.rst`` (a reStructuredText list-table,
included by ``docs/api/data.rst``) from ``clusteragree.list_datasets()``: each data set's name,
kind, size, classes, description and source, so that the page cannot drift from the package's
data folder.
"""

from __future__ import annotations

import re
from pathlib import Path

from generated_pages import write_page

import pandas as pd

#: The columns of the table: (heading, column of ``list_datasets()``; None: the name).
COLUMNS = (("name", None), ("kind", "kind"), ("n", "n"), ("classes", "classes"),
           ("description", "description"), ("source", "source"))


#: reStructuredText markup in plain text: inline markup characters, and a word ending in "_"
#: (a reference).
_MARKUP = re.compile(r"([\\`*|]|(?<=\w)_(?=\W|$))")


def _cell(value) -> str:
    """A value as plain text in a list-table cell (blank when missing)."""
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    return _MARKUP.sub(r"\\\1", " ".join(str(value).split()))


def datasets_table() -> str:
    """The data sets as a reStructuredText list-table, one row per data set.

    Returns
    -------
    str
        The table, with a header row.
    """
    import clusteragree as ca

    frame = ca.list_datasets()
    lines = [".. list-table::", "   :header-rows: 1", "   :widths: 12 6 5 20 30 27", ""]
    lines += ["   * - " + "\n     - ".join(heading for heading, _ in COLUMNS)]
    for name, row in frame.iterrows():
        cells = [f"``{name}``"] + [_cell(row[col]) for _, col in COLUMNS[1:]]
        lines.append("   * - " + "\n     - ".join(cells))
    return "\n".join(lines) + "\n"


def write_datasets(path) -> Path:
    """Write the page to ``path`` (``docs/_generated/datasets.rst``), only when it changed
    (``generated_pages.write_page``)."""
    return write_page(path, datasets_table())


def _on_builder_inited(app) -> None:
    write_datasets(Path(app.srcdir) / "_generated" / "datasets.rst")


def setup(app):
    """Register the hook that writes the table before the sources are read."""
    app.connect("builder-inited", _on_builder_inited)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
