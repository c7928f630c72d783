"""Sphinx configuration of the clusteragree documentation site.

Build it from the repository's root with warnings as errors::

    pip install -e ".[docs]"
    python -m sphinx -W -b html docs docs/_build/html

The API reference (``api/``) is generated from the docstrings by autosummary and numpydoc; the
catalogue of indices (``_generated/catalogue.md``) is written from the index registry before the
build (``_ext/catalogue_page.py``), and the tables of the validation page
(``_generated/validation.md``) from the stored results of ``validation/run.py``
(``_ext/validation_page.py``); the rendered example reports (``reports/*.html`` at the
repository's root) are copied into the site as they are (``html_extra_path``). Nothing is
fetched from the internet and no notebook is executed. A cold build (what ``.ci/run`` does)
starts from ``rm -rf docs/_build docs/_generated docs/api/generated``: a page generated for a
name that is no longer public would otherwise stay behind.

Cross-references are checked (``nitpicky``): a name a docstring or a page uses must resolve to a
documented object; ``_ext/public_names.py`` resolves a name by the object it denotes (a module's
path, a re-export, ``ca.`` for ``clusteragree.``).
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS / "_ext"))
sys.path.insert(0, str(ROOT))  # the checkout's package, even where it is not installed

import clusteragree  # noqa: E402
from numpydoc.xref import DEFAULT_LINKS  # noqa: E402

project = "clusteragree"
author = "the clusteragree developers"
copyright = "2026 the clusteragree developers (MIT licence)"
version = release = clusteragree.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "catalogue_page",
    "dataset_table",
    "report_pages",
    "validation_page",
    "public_names",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_generated", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]

# Broken cross-references fail the build (with -W): every reference must resolve.
nitpicky = True
nitpick_ignore_regex = [
    # Types named in the docstrings' Parameters and Returns lines that are not this package's
    # objects (no intersphinx: the build fetches nothing from the internet).
    ("py:.*", r"(numpy|np|pandas|pd|scipy|matplotlib|seaborn|sklearn|statsmodels|dask|papermill"
              r"|nbconvert|collections\.abc|typing)\..*"),
]

# -- autodoc, autosummary, numpydoc -------------------------------------------------------------
autosummary_generate = True
autosummary_ignore_module_all = False
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"  # the numpydoc Parameters sections give the types, in words
add_module_names = False

numpydoc_show_class_members = False  # the class template documents the members itself
numpydoc_class_members_toctree = False
# The package's own types in the Parameters and Returns lines link to their pages; every other
# word of a type ("array-like", "str", "DataFrame", "optional") stays text: numpydoc's default
# links of the builtin and numpy types point into other projects' inventories, which the build
# does not fetch, so each is mapped to itself (plain text).
numpydoc_xref_param_type = True
numpydoc_xref_ignore = "all"
numpydoc_xref_aliases = {key: key for key in DEFAULT_LINKS} | {
    name: f"clusteragree.{name}"
    for name in ("ContingencyTable", "PairCounts", "NullSpec", "IntervalSpec", "AgreementTest",
                 "DifferenceTest", "AgreementMatrix")
} | {"NullDistribution": "clusteragree.nulls.NullDistribution",
     "Model": "clusteragree.nulls.Model", "NullMethod": "clusteragree.nulls.NullMethod"}
numpydoc_validation_checks: set[str] = set()  # tests/test_docstrings.py is the docstring lint

# -- MyST (the user guide and the landing page are markdown) -----------------------------------
myst_enable_extensions = ["colon_fence", "dollarmath", "deflist"]
myst_heading_anchors = 3

# -- HTML ---------------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"clusteragree {release}"
html_static_path = ["_static"]
html_css_files = ["clusteragree.css"]
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}
html_sidebars = {"index": [], "catalogue": [], "reports": [], "validation": []}
