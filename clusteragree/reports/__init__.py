"""The reports: parameterised notebooks (the package's ``notebooks/``) run by papermill, rendered
to HTML or PDF with nbconvert.

* ``runner``: the public entry, ``clusteragree.report(...)`` and ``clusteragree report`` (and
  the committed example reports), built on
  ``catalogue``: the reports' records and their parameters, checked before the kernel starts;
  ``render``: the notebook executed and rendered to HTML or PDF (the print stylesheet);
  ``fingerprints``: what a rendered report was made from, stamped into it and read back;
* ``memory``: clusterings given to ``ca.report`` in memory, checked and written beside the
  report for its notebook to read;
* ``helpers``: what the notebooks share: loading the user's clusterings, significant digits,
  tables and figures of results.
"""
