"""Display helpers shared by the report notebooks (``notebooks/``) and by the results'
``_repr_html_``: one look for every table and figure of a report.

* ``setup()``: the notebooks' first call: seaborn's theme, figure size and resolution.
* ``table(frame, caption)``: a DataFrame as a captioned HTML table with numbers to 4 significant
  digits and NA for missing values; the caption names the null model and method.
* ``significant(x, digits)``: one number as text to ``digits`` significant digits.

>>> significant(0.000123456), significant(123456.7), significant(float("nan"))
('0.0001235', '1.235e+05', 'NA')
"""

from __future__ import annotations

import html
import math
import numbers

import pandas as pd

__all__ = ["setup", "table", "significant", "DIGITS"]

#: Significant digits of every number a report shows.
DIGITS = 4


def significant(x, digits: int = DIGITS) -> str:
    """``x`` to ``digits`` significant digits ('NA' for a missing value); whole numbers (and
    counts such as n_sim) as they are, with thousands separators."""
    if x is None or x is pd.NA or (isinstance(x, float) and math.isnan(x)):
        return "NA"
    if isinstance(x, bool) or not isinstance(x, numbers.Number):
        return str(x)
    if isinstance(x, numbers.Integral):
        return f"{int(x):,}"
    x = float(x)
    if x == 0:
        return "0"
    if 1e-4 <= abs(x) < 1e5:
        text = f"{x:#.{digits}g}"
        return text.rstrip(".") if "e" not in text else text
    return f"{x:.{digits - 1}e}"


def table(frame: pd.DataFrame, caption: str | None = None, digits: int = DIGITS):
    """A pandas Styler: numbers to ``digits`` significant digits, NA where missing, the caption
    above the table. Shown as the last expression of a notebook cell."""
    styler = frame.style.format(lambda v: significant(v, digits), na_rep="NA")
    if caption:
        styler = styler.set_caption(html.escape(caption))
    return styler.set_table_styles([
        {"selector": "caption", "props": "caption-side: top; text-align: left; "
                                         "font-weight: bold; padding-bottom: 0.4em;"},
        {"selector": "td", "props": "text-align: right; padding: 0.2em 0.6em;"},
        {"selector": "th", "props": "text-align: right; padding: 0.2em 0.6em;"},
    ])


def setup():
    """Configure a report notebook: seaborn's theme, readable figure sizes and PNG figures
    embedded at a resolution fit for print. (Warnings are not hidden: a report with a warning
    fails its test.)"""
    import matplotlib as mpl
    import seaborn as sns

    sns.set_theme(context="notebook", style="whitegrid", font_scale=0.9)
    mpl.rcParams.update({"figure.figsize": (7.5, 4.0), "figure.dpi": 110, "savefig.dpi": 110,
                         "figure.autolayout": False, "axes.titlesize": "medium"})
    pd.set_option("display.precision", DIGITS)
