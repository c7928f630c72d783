"""The data sets shipped with clusteragree (README.md gives their sources; export_data.py made them).

Read through ``clusteragree.load_dataset``; this folder is the package ``clusteragree.data``.
"""
