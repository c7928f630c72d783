"""The reports: parameterised notebooks (the package's ``notebooks/``) run by papermill, rendered
to HTML or PDF with nbconvert.

* ``runner``: the reports' registry, their parameters (checked before the kernel starts), the
  rendering and the fingerprints of the committed examples; ``clusteragree.report(...)`` and
  ``clusteragree report`` call it;
* ``memory``: clusterings given to ``ca.report`` in memory, checked and written beside the
  report for its notebook to read;
* ``helpers``: what the notebooks share: loading the user's clusterings, significant digits,
  tables and figures of results.
"""
