"""The rendered example reports in the documentation site: copied in as they are, not executed.

The repository's ``reports/`` folder holds the committed renders of every report
(``clusteragree report --all``). ``stage_reports`` copies its HTML and PDF files to
``docs/_generated/extra/reports/``, which ``html_extra_path`` copies into the built site, so that
``docs/reports.md`` links to ``reports/NAME.html`` and the links work in ``docs/_build/html``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

#: The files of the reports folder that the site serves.
PATTERNS = ("*.html", "*.pdf")


def stage_reports(source, extra) -> list[Path]:
    """Copy the rendered reports from ``source`` into ``extra/reports`` (made afresh).

    Parameters
    ----------
    source : str or Path
        The repository's ``reports/`` folder.
    extra : str or Path
        The folder ``html_extra_path`` names (``docs/_generated/extra``).

    Returns
    -------
    list of Path
        The copies, sorted by name.

    Raises
    ------
    FileNotFoundError
        ``source`` holds no rendered report.
    """
    source, target = Path(source), Path(extra) / "reports"
    files = sorted(f for pattern in PATTERNS for f in source.glob(pattern))
    if not files:
        raise FileNotFoundError(f"no rendered report (*.html, *.pdf) in {source}")
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    return [Path(shutil.copy2(f, target / f.name)) for f in files]


def _on_config_inited(app, config) -> None:
    srcdir = Path(app.srcdir)
    extra = srcdir / "_generated" / "extra"
    stage_reports(srcdir.parent / "reports", extra)
    config.html_extra_path = [*config.html_extra_path, str(extra)]


def setup(app):
    """Register the hook that stages the reports before the build reads its configuration."""
    app.connect("config-inited", _on_config_inited)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
