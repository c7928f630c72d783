"""The package version (one place: the package, its study records and its reports read it)."""

__version__ = "0.3.0"
