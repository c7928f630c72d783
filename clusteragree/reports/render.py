"""Rendering a report: its notebook executed with papermill in a temporary folder, normalised
(no clock times or paths, so equal runs give equal files), and rendered with nbconvert to a
self-contained HTML page or, through WeasyPrint and the print stylesheet, a PDF; the page
reaches its path only when complete.
"""

from __future__ import annotations

import html
import os
import re
import sys
import tempfile
from pathlib import Path

from .._display import FIGURE_DPI

__all__ = ["FORMATS", "ReportError", "render", "check_output", "KEEP_WITH_NEXT", "SHORT_TEXT",
           "FOOTER", "FOOTER_COMPANION", "print_pdf",
           "PROGRESS_INTERVAL"]

FORMATS = ("html", "pdf")


class ReportError(RuntimeError):
    """A report notebook failed while it ran: the message names the cell and the error."""

def check_output(output, name: str, fmt: str) -> Path:
    """The report's absolute path (default ``reports/NAME.FMT``), its folder created; refused
    when it is a folder or cannot be written."""
    path = Path(output if output is not None else Path("reports") / f"{name}.{fmt}")
    path = path.expanduser().resolve()
    if path.is_dir():
        raise ValueError(f"output {path} is a folder; give a file path such as "
                         f"{path / (name + '.' + fmt)}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".write-test-"):
            pass
    except OSError as exc:
        raise PermissionError(f"output {path} cannot be written: {exc.strerror or exc}") from None
    return path


def _check_pdf_support():
    try:
        import weasyprint  # noqa: F401
    except (ImportError, OSError) as exc:
        raise ImportError("PDF reports need WeasyPrint and the system's Pango library: "
                          'pip install "clusteragree[pdf]" (in a clone: pip install -e ".[pdf]"; '
                          "on Debian also apt-get install libpango-1.0-0 libpangoft2-1.0-0); "
                          f"the import said: {exc}") from None


class _ProgressLines:
    """A stream for tqdm that turns its redrawn status line into plain lines: progress in a log
    (no terminal) rather than carriage returns or nothing."""

    def __init__(self, stream):
        self.stream, self.last = stream, None

    def write(self, text: str) -> None:
        for part in re.split(r"[\r\n]+", text):
            part = part.strip()
            if part and part != self.last:
                print(part, file=self.stream, flush=True)
                self.last = part

    def flush(self) -> None:
        self.stream.flush()


#: Seconds between two progress lines (``progress="lines"``), at most one per executed cell.
PROGRESS_INTERVAL = 10.0


def _progress_bar(progress, name: str):
    """papermill's progress_bar: a bar (True), nothing (False), or for "lines" a line now and
    then on stderr, "clusteragree report NAME: cell 5 of 16, 00:12 elapsed"."""
    if progress != "lines":
        return progress
    return {"file": _ProgressLines(sys.stderr), "mininterval": PROGRESS_INTERVAL, "miniters": 1,
            "desc": f"clusteragree report {name}", "ascii": True,
            "bar_format": "{desc}: cell {n_fmt} of {total_fmt}, {elapsed} elapsed"}


def _execute(notebook: Path, out: Path, params: dict, progress) -> None:
    import papermill as pm

    try:
        pm.execute_notebook(str(notebook), str(out), parameters=params, kernel_name="python3",
                            progress_bar=_progress_bar(progress, notebook.stem), cwd=os.getcwd(),
                            log_output=False,
                            # jupyter_client shuts a kernel down with a SIGINT first; a kernel
                            # still answering a message then logs "KeyboardInterrupt caught in
                            # kernel." at ERROR, after the last cell, on the command's stderr.
                            # A cell's own error reaches us as PapermillExecutionError.
                            extra_arguments=["--IPKernelApp.log_level=CRITICAL"])
    except pm.PapermillExecutionError as exc:
        source = exc.source.strip()
        source = source if len(source) < 800 else source[:800] + " ..."
        raise ReportError(f"the report failed in cell {exc.exec_count} of {notebook.name}:\n"
                          f"{source}\n{exc.ename}: {exc.evalue}") from None


#: The class of a text cell printed on the page of the cell that follows it: a cell that ends
#: in a heading, and a short text (at most ``SHORT_TEXT`` characters) before a figure. A longer
#: text before a figure may end a page and the figure begin the next: kept together, they
#: went to the next page whole and left the page before half blank.
KEEP_WITH_NEXT = "ca-keep-with-next"

#: The longest text cell kept on the page of the figure that follows it (``KEEP_WITH_NEXT``).
SHORT_TEXT = 400

#: The class of the session info (every report's footer, ``helpers.session_info``): printed
#: on the page of what comes before it, in smaller type. Alone, it took the clusterings
#: report's last page.
FOOTER = "ca-footer"

#: The class of the last block before the footer when the footer would print alone on the
#: last page (``print_pdf``): it starts that page, and the footer follows it.
FOOTER_COMPANION = "ca-footer-companion"

#: A4 pages for PDF reports: narrow margins; tables in 8 pt type, their headers wrapping where
#: a table would be wider than the page, not their cells (an interval, a p-value with its count
#: stay on one line), a header repeated when a table runs over a page;
#: figures at their own size (``FIGURE_DPI`` pixels per inch: the reports draw them at most
#: ``PAPER_WIDTH`` wide, their type at least ``PAPER_FONT`` points), never split, scaled down
#: only when wider than the text or taller than a page; a heading kept with what follows it,
#: some text cells with what follows them (``KEEP_WITH_NEXT``), the session info with what
#: precedes it, in 8 pt type (``FOOTER``); no paragraph leaves fewer than three lines at the
#: foot or the head of a page.
#:
#: An output breaks across pages as text does (between lines, list items, table rows; a
#: table's caption stays with its first rows, a rule with what follows it): nbconvert's lab
#: template prints every output whole (``@media print`` ``.jp-OutputArea-child
#: {break-inside: avoid-page}``), and WeasyPrint obeys. A list or a table that did not fit at
#: the foot of a page then went whole to the next and left the foot blank: the quick
#: agreement report took nine pages, pages 5 to 8 ending 83 to 202 px short, and the session
#: info (its rule and three lines, 113 px; 87 px were left) alone on page 9.
_PRINT_CSS = f"""<style>
@page {{ size: A4; margin: 14mm 12mm; }}
body {{ font-size: 9.5pt; margin: 0; padding: 0 !important; }}
.jp-Cell {{ padding: 2px 0; }}
.jp-InputArea, .jp-MarkdownOutput {{ display: block; width: auto; }}
p, li {{ orphans: 3; widows: 3; }}
h1, h2, h3 {{ break-after: avoid; }}
.jp-OutputArea-output table {{ font-size: 8pt; break-inside: auto; max-width: 100%; }}
.jp-OutputArea-child {{ break-inside: auto; }}
.jp-OutputArea-output caption {{ white-space: normal; break-after: avoid; }}
.jp-OutputArea-output hr {{ break-after: avoid; }}
.jp-OutputArea-output thead {{ display: table-header-group; }}
.jp-OutputArea-output tr {{ break-inside: avoid; }}
.jp-OutputArea-output td, .jp-OutputArea-output th {{ padding: 1px 4px !important; }}
.jp-OutputArea-output th {{ white-space: normal !important; }}
.{KEEP_WITH_NEXT} {{ break-after: avoid; }}
.{FOOTER} {{ break-before: avoid; }}
.{FOOTER_COMPANION} {{ break-before: page; }}
.{FOOTER} .jp-RenderedMarkdown {{ font-size: 8pt; }}
.{FOOTER} hr {{ margin: 0.3em 0; }}
.jp-OutputArea-output img {{ image-resolution: {FIGURE_DPI}dpi; max-width: 100% !important;
                            max-height: 255mm; width: auto; height: auto;
                            break-inside: avoid; }}
</style>"""


def _normalise(executed: Path) -> None:
    """Strip what differs between two runs of the same notebook with the same parameters, so
    that the report (and the kept notebook) is the same file byte for byte: papermill's and
    nbclient's clock times and durations, the temporary folder's paths, and the random id of
    the cell papermill injects the parameters into."""
    import nbformat

    nb = nbformat.read(str(executed), as_version=4)
    meta = nb.metadata.get("papermill", {})
    for key in ("start_time", "end_time", "duration", "environment_variables"):
        meta.pop(key, None)
    for key in ("input_path", "output_path"):
        if meta.get(key):
            meta[key] = Path(meta[key]).name
    for cell in nb.cells:
        for out in cell.get("outputs", []):  # "<...Styler at 0x7f...>": an address
            text = out.get("data", {}).get("text/plain")
            if isinstance(text, str):
                out["data"]["text/plain"] = re.sub(r" at 0x[0-9a-f]+>", ">", text)
        cell.metadata.pop("execution", None)
        cell.metadata.pop("papermill", None)
        if "injected-parameters" in cell.metadata.get("tags", []):
            cell.id = "injected-parameters"
    nbformat.write(nb, str(executed))


def _render_html(executed: Path, code: bool) -> str:
    import nbformat
    from nbconvert import HTMLExporter

    nb = nbformat.read(str(executed), as_version=4)
    exporter = HTMLExporter(template_name="lab", exclude_input=not code,
                            exclude_input_prompt=True, exclude_output_prompt=True,
                            embed_images=True)
    title = next((line.lstrip("# ").strip() for cell in nb.cells if cell.cell_type == "markdown"
                  for line in cell.source.splitlines() if line.startswith("# ")), executed.stem)
    body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": title}})
    return _self_contained(body)


def _self_contained(html: str) -> str:
    """The page without the template's CDN scripts, with alt text on every figure, and the
    text cells that print on the page of what follows them marked (``KEEP_WITH_NEXT``).

    nbconvert's lab template loads require.js, MathJax and mermaid from CDNs; the reports use no
    widgets, TeX or diagrams, so the page is whole without them and opens offline with nothing
    left to fetch. Each figure gets an alt text naming the section it illustrates (the template
    gives none: nbconvert would write "No description has been provided for this image")."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, features="html.parser")
    for script in soup.find_all("script"):
        text = script.string or ""
        if (script.get("src", "").startswith(("http://", "https://", "//"))
                or script.get("type") == "text/x-mathjax-config" or "mermaid" in text):
            script.decompose()
    for number, img in enumerate(soup.find_all("img"), 1):
        heading = img.find_previous(["h1", "h2", "h3"])
        section = heading.get_text(" ", strip=True).rstrip("¶").strip() if heading else ""
        img["alt"] = f"Figure {number}" + (f" of the section \u201c{section}\u201d" if section
                                           else "")
    for cell in soup.select(".jp-MarkdownCell"):  # printed on the page of what follows it
        after = cell.find_next_sibling(class_="jp-Cell")
        first = after.select_one(".jp-OutputArea-output") if after is not None else None
        blocks = cell.select(".jp-RenderedMarkdown > *")
        ends_in_heading = bool(blocks) and blocks[-1].name in ("h1", "h2", "h3")
        short_before_figure = (first is not None and first.find("img") is not None
                               and len(cell.get_text(" ", strip=True)) <= SHORT_TEXT)
        if after is not None and (ends_in_heading or short_before_figure):
            cell["class"] = [*cell["class"], KEEP_WITH_NEXT]
    for cell in soup.select(".jp-CodeCell"):  # the footer: with what comes before it
        output = cell.select_one(".jp-OutputArea-output")
        if output is not None and output.find("hr") is not None and output.get_text(
                " ", strip=True).startswith("Session info"):
            cell["class"] = [*cell["class"], FOOTER]
    return str(soup)

def _page_texts(document) -> list[str]:
    """The text of each page of a laid-out WeasyPrint document."""
    return [" ".join(box.text for box in page._page_box.descendants() if hasattr(box, "text"))
            for page in document.pages]


def print_pdf(page: str, base_url=None) -> bytes:
    """The report's HTML page printed to PDF with the print stylesheet (``_PRINT_CSS``), the
    session info never alone on the last page.

    WeasyPrint 70 does not honour ``break-before: avoid`` before the footer (the clusterings
    report's last page held the session info alone): when the laid-out document's last page
    holds nothing else, the last block before the footer (a list item, a paragraph, a table
    row, a figure) is sent to that page too (``FOOTER_COMPANION``) and the page laid out
    again.

    Parameters
    ----------
    page : str
        The report's HTML page (``_render_html``).
    base_url : str, optional
        Where relative links resolve.

    Returns
    -------
    bytes
        The PDF.
    """
    import weasyprint

    def layout(html):
        printed = html.replace("</head>", f"{_PRINT_CSS}</head>", 1)
        return weasyprint.HTML(string=printed, base_url=base_url).render()

    document = layout(page)
    texts = _page_texts(document)
    if len(texts) > 1 and texts[-1].strip().startswith("Session info"):
        from bs4 import BeautifulSoup

        soup = BeautifulSoup(page, features="html.parser")
        footer = soup.select_one(f".{FOOTER}")
        before = footer.find_previous_sibling(class_="jp-Cell") if footer else None
        blocks = before.select("li, p, tr, img") if before is not None else []
        if blocks:
            last = blocks[-1]
            last["class"] = [*last.get("class", []), FOOTER_COMPANION]
            document = layout(str(soup))
    return document.write_pdf()


def _stamp(page: str, stamp: str) -> str:
    return page.replace("<head>", f'<head>\n<meta name="keywords" content="{html.escape(stamp)}">',
                        1)


def _publish(path: Path, content: bytes) -> None:
    """Write ``content`` to a temporary file beside ``path`` and rename it into place: a
    reader never sees a half-written report."""
    fd, staged = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(content)
        os.chmod(staged, 0o644)
        os.replace(staged, path)
    except BaseException:
        Path(staged).unlink(missing_ok=True)
        raise



def render(notebook: Path, params: dict, path: Path, fmt: str, code: bool,
           keep_notebook: bool, progress, stamp: str) -> Path:
    """Execute ``notebook`` with ``params`` in a temporary folder and write the page, stamped
    with ``stamp``, to ``path`` (HTML, or PDF through WeasyPrint), and the executed notebook
    beside it with ``keep_notebook``; nothing is written when a cell fails (``ReportError``).
    """
    if fmt == "pdf":
        _check_pdf_support()
    with tempfile.TemporaryDirectory(prefix="clusteragree-report-") as tmp:
        executed = Path(tmp) / notebook.name
        _execute(notebook, executed, params, progress)
        _normalise(executed)
        page = _stamp(_render_html(executed, code), stamp)
        if fmt == "html":
            _publish(path, page.encode("utf-8"))
        else:
            _publish(path, print_pdf(page, base_url=tmp))
        if keep_notebook:
            _publish(path.with_suffix(".ipynb"), executed.read_bytes())
    return path
