"""The HTML tables of results and reports (``clusteragree._display.table``)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import clusteragree as ca
from clusteragree import _display

bs4 = pytest.importorskip("bs4")  # nbconvert's dependency


def _rules(html: str) -> dict[str, str]:
    """The style block's rules: selector (without the table's id) -> declarations."""
    return {sel.split(" ", 1)[1]: body.strip()
            for sel, body in re.findall(r"(#T_\w+ [^{]+?)\s*\{([^}]*)\}", html)}


def test_grouped_column_headers_are_centred_over_their_columns_and_numbers_right_aligned():
    columns = pd.MultiIndex.from_tuples(
        [("exact law", "min"), ("exact law", "max"), ("17,000 tables", "min"),
         ("17,000 tables", "median"), ("17,000 tables", "max"), ("single", "sd")])
    frame = pd.DataFrame(np.arange(12.0).reshape(2, 6) / 7, columns=columns,
                         index=pd.Index(["Rand", "J"], name="index"))
    html = _display.table(frame, "grouped headers").to_html()
    rules = _rules(html)
    assert "text-align: right" in rules["td"] and "text-align: right" in rules["th"]
    assert "text-align: center" in rules["th.col_heading[colspan]"]
    soup = bs4.BeautifulSoup(html, "html.parser")
    centred = soup.select("th.col_heading[colspan]")  # what the centring rule selects
    assert [(th.text, th["colspan"]) for th in centred] == [("exact law", "2"),
                                                             ("17,000 tables", "3")]
    # a header over one column, and every lower-level header, stays right-aligned
    right = [th.text for th in soup.select("th.col_heading") if not th.has_attr("colspan")]
    assert right == ["single", "min", "max", "min", "median", "max", "sd"]


def test_a_table_with_one_level_of_headers_has_nothing_to_centre():
    frame = pd.DataFrame({"statistic": [0.5], "pvalue": [0.01]}, index=["rand"])
    soup = bs4.BeautifulSoup(_display.table(frame, "flat").to_html(), "html.parser")
    assert soup.select("th.col_heading") and not soup.select("th.col_heading[colspan]")


def test_compare_frames_caption_names_data_and_null_and_its_notes_go_under_the_table():
    """Issue 33: the caption of a compare frame was one long line (data, null, intervals and
    every note) that widened the table past the page. The caption names the data and the
    null; the intervals and notes follow the table, one per line."""
    df = ca.compare(ca.load_dataset("statlog_em"), indices=["rand", "ari", "vi"], n_sim=99,
                    seed=1)
    page = df._repr_html_()
    caption = re.findall(r"<caption>(.*?)</caption>", page, flags=re.S)[0]
    assert caption.startswith("data: ") and caption.count("null: ") == 1
    assert "intervals" not in caption and "distinct tests" not in caption
    after = page[page.index("</table>"):]
    notes = re.findall(r"<p[^>]*>(.*?)</p>", after, flags=re.S)[0].split("<br>")
    assert notes[0].startswith("intervals: 95% ") and " / " in notes[0]
    assert any("distinct tests" in n for n in notes)
