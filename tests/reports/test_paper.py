"""Reports on paper (issue 33): figures drawn at most a printed page's text wide with type no
smaller than ``PAPER_FONT`` points, printed at their own size by the print stylesheet, and
text kept with what it introduces without leaving pages half blank."""

from __future__ import annotations

import io
import re

import matplotlib as mpl
import numpy as np
import pandas as pd
import pytest

import clusteragree as ca
from clusteragree.reports import clusterings as report
from clusteragree.reports import helpers as reporting
from clusteragree.reports import render
from clusteragree.reports.helpers import FIGURE_DPI, PAPER_FONT, PAPER_WIDTH

STATLOG = ca.load_dataset("statlog_em")
#: The agreement report's twelve indices: its null-law grid has twelve panels.
TWELVE = ["rand", "gower_legendre", "jaccard", "czekanowski", "goodman_kruskal", "sokal_sneath",
          "sokal_sneath2", "fowlkes_mallows", "adjusted_rand", "adjusted_mutual_info",
          "nmi_sum", "variation_of_information"]


def _text_width() -> float:
    """The printed page's text width in inches: A4 less the stylesheet's side margins."""
    (page,) = re.findall(r"@page\s*\{([^}]*)\}", render._PRINT_CSS)
    assert "size: A4" in page
    side = float(re.search(r"margin: [\d.]+mm ([\d.]+)mm", page).group(1))
    return (210 - 2 * side) / 25.4


def _printed(fig):
    """The figure as a report embeds it (the notebooks' inline backend: tight bounding box,
    ``FIGURE_DPI``): its width in inches, and the sizes in points of every text it shows."""
    import matplotlib.pyplot as plt
    from matplotlib.text import Text
    from PIL import Image

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=FIGURE_DPI, bbox_inches="tight")
    width = Image.open(buf).size[0] / FIGURE_DPI
    sizes = {t.get_text(): t.get_fontsize() for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip()
             and (t.axes is None or t.axes.get_visible())}
    plt.close(fig)
    return width, sizes


@pytest.fixture
def paper():
    """The notebooks' setup (theme, sizes, resolution), undone after the test."""
    with mpl.rc_context(), pd.option_context("display.precision", 6):
        reporting.setup()
        yield


def _agreement_figures():
    nulls = ca.nulls.null_distributions(STATLOG, TWELVE, "patefield", n_sim=300, seed=1)
    results = ca.compare(STATLOG, indices=TWELVE, method="patefield", n_sim=300, seed=1)
    observed = results["statistic"].astype(float)
    models = reporting.models_side_by_side(STATLOG, n_sim=100, seed=1)
    title = "Null laws -- null: both margins fixed (permutation model)"
    return {"null-law grid": reporting.plot_null_grid(nulls, observed, title=title),
            "adjusted": reporting.plot_adjusted(results, nulls, title=(
                "Adjusted agreement and chance\nnull: both margins fixed (permutation model); "
                "method auto, per row below")),
            "models": reporting.plot_models(models, title=(
                "Expected Rand index and NMI under each random model (Rand: exact; NMI: "
                "17,000 random tables or partitions, seed 1)"))}


def _clusterings_figures():
    frame, ref, names, _ = reporting.load_clusterings_frame()
    m = ca.agreement_matrix(frame, index="adjusted_rand", reference=ref, test=True,
                            method="patefield", n_sim=200, seed=1, interval=0.95)
    diffs = report.best_against_others(frame, ref, names, "adjusted_rand",
                                       agreements=m.reference["statistic"].astype(float),
                                       kind="similarity", seed=1)
    long = ("adjusted_rand with the reference class, 95% intervals; null: both margins fixed "
            "(permutation model); method exact, patefield")
    return {"heatmap of 12": report.plot_heatmap(m).figure,
            "map": report.plot_map(m, title="Classical MDS of the 12 clusterings "
                                            "(1 - adjusted_rand)").figure,
            "agreements": report.plot_agreements(m, title=long),
            "differences": report.plot_differences(diffs, "adjusted_rand", title=long)}


@pytest.mark.filterwarnings("ignore:.*near independence")
@pytest.mark.parametrize("figures", [_agreement_figures, _clusterings_figures])
def test_report_figures_fit_the_printed_page_with_type_of_7_points_or_more(figures, paper):
    """issue 33: the 12-panel grid was 10.8 inches wide and printed at 40% of its size (type
    of about 3 points), the 12 x 12 heatmap 12.1 inches, the random models' title widened its
    figure to 9.4 inches. Each figure is now drawn PAPER_WIDTH wide, at most the text width
    as embedded (give or take the bounding box's padding), so it prints at its own size on
    the page's text, and no text on it is smaller than PAPER_FONT points."""
    for name, fig in figures().items():
        width, sizes = _printed(fig)
        assert width <= _text_width(), f"{name}: {width:.2f} inches wide"
        small = {text: size for text, size in sizes.items() if size < PAPER_FONT}
        assert not small, f"{name}: type below {PAPER_FONT} pt: {small}"


def test_a_12_by_12_heatmap_writes_values_that_fit_its_cells(paper):
    frame, ref, names, _ = reporting.load_clusterings_frame()
    m = ca.agreement_matrix(frame[names], index="adjusted_rand")
    ax = report.plot_heatmap(m)
    texts = [t.get_text() for t in ax.texts]
    values = m.statistic.to_numpy(dtype=float).ravel()
    assert texts == [f"{v:.2f}".replace("-0.00", "0.00") for v in values]
    assert "-0.00" not in texts and any(-0.005 < v < 0 for v in values)  # a -0.00 mended
    assert max(len(t) for t in texts) <= 5  # "-0.03", not "-0.00477"
    assert report.heatmap_precision(len(names)) == "to 2 decimals"
    few = ca.agreement_matrix(frame[names[:4]], index="adjusted_rand")
    assert [t.get_text() for t in report.plot_heatmap(few).texts] == [
        f"{v:.3g}" for v in few.statistic.to_numpy(dtype=float).ravel()]
    import matplotlib.pyplot as plt
    plt.close("all")


def _declarations(selector: str) -> str:
    (body,) = re.findall(r"(?m)^" + re.escape(selector) + r"\s*\{([^}]*)\}",
                         render._PRINT_CSS)
    return body


def test_the_print_stylesheet_prints_figures_at_their_size_within_the_text_width():
    """Images printed at FIGURE_DPI pixels per inch (they printed at 96, or squeezed to
    115 mm tall), the body without the template's padding, so the text is A4 less the
    margins: at least PAPER_WIDTH, which the figures are drawn to."""
    img = _declarations(".jp-OutputArea-output img")
    assert f"image-resolution: {FIGURE_DPI}dpi" in img
    assert "max-width: 100%" in img and "115mm" not in img
    assert _text_width() >= PAPER_WIDTH
    assert "padding: 0" in _declarations("body")
    table = _declarations(".jp-OutputArea-output table")
    assert float(re.search(r"font-size: ([\d.]+)pt", table).group(1)) >= 8
    assert "white-space: normal" in _declarations(".jp-OutputArea-output th")
    assert ".jp-MarkdownCell {" not in render._PRINT_CSS, "no text cell kept whole with the next"
    assert "break-inside: auto" in _declarations(".jp-OutputArea-child")
    assert "break-after: avoid" in _declarations(".jp-OutputArea-output caption")
    assert "break-after: avoid" in _declarations(".jp-OutputArea-output hr")


def _cells(*cells: str) -> str:
    return "<html><head></head><body><main>" + "".join(cells) + "</main></body></html>"


def _markdown(inner: str) -> str:
    return ("<div class='jp-Cell jp-MarkdownCell'><div class='jp-InputArea'><div class="
            f"'jp-RenderedHTMLCommon jp-RenderedMarkdown jp-MarkdownOutput'>{inner}</div></div>"
            "</div>")


def _output(inner: str) -> str:
    return ("<div class='jp-Cell jp-CodeCell'><div class='jp-OutputArea'><div class="
            f"'jp-OutputArea-child'><div class='jp-OutputArea-output'>{inner}</div></div>"
            "</div></div>")


def test_text_is_kept_with_a_figure_when_short_and_headings_with_what_follows():
    """The old stylesheet kept every text cell with the next cell: whole sections moved to
    the next page and left pages 5 to 8 half blank. Now only a cell ending in a heading and a
    short text before a figure are kept with what follows."""
    from bs4 import BeautifulSoup

    long_text = "<p>" + "word " * (render.SHORT_TEXT // 4) + "</p>"
    page = render._self_contained(_cells(
        _markdown("<h2>Short</h2><p>Two lines.</p>"), _output("<img src='a.png'/>"),
        _markdown(f"<h2>Long</h2>{long_text}"), _output("<img src='b.png'/>"),
        _markdown("<h2>Table</h2><p>Two lines.</p>"), _output("<table></table>"),
        _markdown("<h2>Reading</h2>"), _output("<ul><li>a finding</li></ul>")))
    kept = [render.KEEP_WITH_NEXT in cell.get("class", [])
            for cell in BeautifulSoup(page, "html.parser").select(".jp-MarkdownCell")]
    assert kept == [True, False, False, True]
    assert f".{render.KEEP_WITH_NEXT} {{ break-after: avoid; }}" in render._PRINT_CSS


@pytest.mark.slow  # nbconvert and WeasyPrint: seconds
def test_an_output_that_does_not_fit_at_the_foot_of_a_page_breaks_there(tmp_path):
    """nbconvert's lab template prints every output whole (``.jp-OutputArea-child
    {break-inside: avoid-page}``): a list that did not fit at the foot of a page went whole
    to the next with its heading, and the quick agreement report's session info went alone
    to a ninth page, page 8 ending 87 px short. The print stylesheet lets an output break
    between its lines, as text does; a rule stays with what follows it."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

    pypdf = pytest.importorskip("pypdf")
    weasyprint = pytest.importorskip("weasyprint")

    def markdown_output(text):
        return new_code_cell("", outputs=[new_output("display_data", {"text/markdown": text})])

    filler = " ".join(f"word{i}" for i in range(300))
    findings = "\n".join(f"- finding {i}" for i in range(1, 31))
    nb = new_notebook(cells=[new_markdown_cell(f"# A report\n\n{filler}"),
                             new_markdown_cell("## Reading"), markdown_output(findings),
                             markdown_output("---\n\n**Session info** the footer.")])
    executed = tmp_path / "report.ipynb"
    nbformat.write(nb, str(executed))
    page = render._render_html(executed, code=False)
    pdf = weasyprint.HTML(string=page.replace("</head>", f"{render._PRINT_CSS}</head>", 1),
                          base_url=str(tmp_path)).write_pdf()
    pages = [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]
    assert len(pages) == 2
    assert "Reading" in pages[0] and "finding 1\n" in pages[0] + "\n", "the list breaks"
    assert "finding 30" in pages[1] and "Session info" in pages[1]


def test_the_adjusted_figure_of_twelve_indices_fits_under_half_a_page_of_text(paper):
    """issue 45, trap 11 e: drawn 0.42 inch a row, the twelve indices' figure printed 163 mm
    tall, did not fit below the text of 'Agreement beyond chance' on page 3 (135 mm left) and
    left it half empty. At 0.28 inch a row it prints under 125 mm."""
    from PIL import Image

    fig = _agreement_figures()["adjusted"]
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=FIGURE_DPI, bbox_inches="tight")
    height_mm = Image.open(buf).size[1] / FIGURE_DPI * 25.4
    import matplotlib.pyplot as plt
    plt.close("all")
    assert height_mm < 125, f"{height_mm:.0f} mm"


@pytest.mark.slow  # nbconvert and WeasyPrint: seconds
def test_the_session_info_never_prints_alone_on_the_last_page(tmp_path):
    """issue 45, trap 11 f: the clusterings report's last page held only the session info.
    WeasyPrint 70 ignores break-before: avoid there; print_pdf sends the last block before the
    footer to the last page with it."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output

    pypdf = pytest.importorskip("pypdf")
    weasyprint = pytest.importorskip("weasyprint")

    def markdown_output(text):
        return new_code_cell("", outputs=[new_output("display_data", {"text/markdown": text})])

    filler = " ".join(f"word{i}" for i in range(300))
    findings = "\n".join(f"- finding {i}" for i in range(1, 57))
    footer = reporting.session_info(1).data
    nb = new_notebook(cells=[new_markdown_cell(f"# A report\n\n{filler}"),
                             new_markdown_cell("## Reading"), markdown_output(findings),
                             markdown_output(footer)])
    executed = tmp_path / "report.ipynb"
    nbformat.write(nb, str(executed))
    page = render._render_html(executed, code=False)

    def pages(pdf):
        return [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]

    alone = pages(weasyprint.HTML(string=page.replace("</head>", f"{render._PRINT_CSS}</head>",
                                                      1)).write_pdf())
    assert alone[-1].strip().startswith("Session info"), "the case the test is made of"
    printed = pages(render.print_pdf(page))
    assert len(printed) == len(alone)
    assert "finding 56" in printed[-1] and "Session info" in printed[-1]
    assert "finding 55" in printed[-2]


@pytest.mark.slow  # papermill and WeasyPrint: seconds
def test_the_printed_agreement_report_has_tables_of_8_points_and_fills_its_pages(tmp_path):
    """The quick agreement report on A4: no text below 8 points, the tables of tests and of
    intervals apart (side by side they ran past the page and were cut off), at most nine
    pages (the half-blank pages 5 to 8 are filled; issue 44 added a section, "Which clusters
    agree", of a page and a half, looked at: every page but the last is filled)."""
    pypdf = pytest.importorskip("pypdf")
    out = ca.report("agreement", output=tmp_path / "a.pdf", format="pdf", quick=True,
                    progress=False)
    doc = pypdf.PdfReader(str(out))
    sizes = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            sizes.append(abs(size * (tm[3] * cm[3] + tm[2] * cm[1])))

    text = " ".join(page.extract_text(visitor_text=visit) for page in doc.pages)
    assert min(sizes) >= 8 - 0.01  # the PDF writes its matrices to a few decimals
    assert "Tests -- null" in text and "Intervals -- 95%" in text
    assert len(doc.pages) <= 9
    assert np.isfinite(sizes).all()
