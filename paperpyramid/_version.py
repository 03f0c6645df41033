"""The package's version, in a module of its own so that any room can read it without importing
the package root (which imports :class:`~paperpyramid.Corpus` and everything under it)."""

__version__ = "0.1.0"
