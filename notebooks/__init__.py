"""The report notebooks of clusteragree, run by ``clusteragree report`` (papermill + nbconvert).

This folder is the package ``clusteragree.notebooks``; ``clusteragree.list_reports()`` names them.
"""
