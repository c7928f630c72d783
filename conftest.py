"""Names every doctest may use without importing them: ``np`` and ``ca``."""

import numpy as np
import pytest

import clusteragree as ca


@pytest.fixture(autouse=True)
def _doctest_names(doctest_namespace):
    doctest_namespace["np"] = np
    doctest_namespace["ca"] = ca
