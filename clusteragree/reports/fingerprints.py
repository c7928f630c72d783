"""A rendered report's fingerprint: the notebook's content and the parameters it was made
from, stamped into every report (HTML meta tag, PDF keywords) and read back, so that a test can
tell a committed example report that no longer matches its notebook.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path

from .catalogue import notebook_path

__all__ = ["fingerprint", "read_fingerprint"]


def fingerprint(name: str, params: dict) -> str:
    """What a rendered report was made from: the notebook's content and the parameters given.

    Stamped into every report (HTML meta tag, PDF keywords), so a test can tell a committed
    example report that no longer matches its notebook.

    Parameters
    ----------
    name : str
        A report of ``list_reports()``.
    params : dict
        The parameters given (after ``coerce_parameters``).

    Returns
    -------
    str
        "clusteragree-report NAME; notebook sha256 <16 hex digits>; parameters <JSON>"; input
        files (``*_file``) by their names, not their folders, like the report itself.

    See Also
    --------
    read_fingerprint : The fingerprint stamped into a report.

    Examples
    --------
    >>> fingerprint("agreement", {"quick": True}).endswith('parameters {"quick": true}')
    True
    >>> fingerprint("agreement", {"x_file": "/home/me/x.txt"}).endswith('{"x_file": "x.txt"}')
    True
    """
    digest = hashlib.sha256(notebook_path(name).read_bytes()).hexdigest()
    params = {k: Path(v).name if k.endswith("_file") and isinstance(v, str) and v else v
              for k, v in params.items()}
    return f"clusteragree-report {name}; notebook sha256 {digest[:16]}; parameters " \
           f"{json.dumps(params, sort_keys=True)}"


def read_fingerprint(path) -> str | None:
    """The fingerprint stamped into a rendered report.

    Parameters
    ----------
    path : str or path
        A report, HTML or PDF.

    Returns
    -------
    str or None
        The fingerprint, or None when the report has none.

    See Also
    --------
    fingerprint : What it is made of.

    Examples
    --------
    >>> import tempfile
    >>> page = Path(tempfile.mkdtemp()) / "report.html"
    >>> _ = page.write_text('<head><meta name="keywords" content="clusteragree-report x"></head>')
    >>> read_fingerprint(page)
    'clusteragree-report x'
    """
    path = Path(path)
    if path.suffix == ".pdf":
        import pypdf

        return (pypdf.PdfReader(str(path)).metadata or {}).get("/Keywords") or None
    match = re.search(r'<meta name="keywords" content="([^"]*)"', path.read_text("utf-8"))
    return html.unescape(match.group(1)) if match else None
