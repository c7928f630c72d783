"""Pages written from the package at build time: each written only when its text changed
(an unchanged page keeps its time stamp, so Sphinx does not read it again)."""

from __future__ import annotations

from pathlib import Path


def write_page(path, text: str) -> Path:
    """Write ``text`` to ``path`` (its folder is made), only when it differs from the file.

    Parameters
    ----------
    path : str or Path
        Where to write (below ``docs/_generated/``).
    text : str
        The page.

    Returns
    -------
    Path
        The path written.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    return path
