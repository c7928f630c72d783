"""How much memory there is: the one place the package asks, so that work too large for this
machine is refused before it starts (null laws' draws, indices that hold n x n matrices), and
so that tests can pretend a machine is smaller by replacing ``available_memory``."""

from __future__ import annotations

import os

#: The share of the available memory a single computation may plan to take.
USABLE_SHARE = 0.8


def available_memory() -> int | None:
    """Bytes of physical memory free now (Linux and most Unixes), or None when unknown.

    Returns
    -------
    int or None
        ``SC_AVPHYS_PAGES * SC_PAGE_SIZE``; None where the system does not say.

    Examples
    --------
    >>> avail = available_memory()
    >>> avail is None or avail > 0
    True
    """
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - other systems
        return None
