"""Where inputs come from on local disk: files and folders (the bucket is :mod:`paperpyramid.s3`)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path

_CHUNK = 1 << 20


_ARCHIVES = (".tar", ".tar.gz", ".tgz")


def discover_pdfs(sources: Iterable[str | Path], *, archives: bool = False, latex: bool = False, jats: bool = False) -> Iterator[Path]:
    """Yield the PDFs named by ``sources``: files as given, folders searched recursively
    for ``*.pdf`` (any case; with ``archives``, ``.tar``/``.tar.gz``/``.tgz`` too; with
    ``latex``, LaTeX sources and their bibliographies: ``.tex``, ``.ltx``, ``.gz``, ``.bbl``; with
    ``jats``, XML that may be JATS: ``.nxml``, ``.xml``), in a stable order. Missing paths raise
    FileNotFoundError."""
    suffixes = (".pdf", *_ARCHIVES) if archives else (".pdf",)
    if latex:
        suffixes = (*suffixes, ".tex", ".ltx", ".gz", ".bbl")
    if jats:
        suffixes = (*suffixes, ".nxml", ".xml")
    for source in sources:
        path = Path(source)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file() and p.name.lower().endswith(suffixes))
        elif path.is_file():
            yield path
        else:
            raise FileNotFoundError(f"no such file or folder: {path}")


def file_sha256(path: Path) -> str:
    """SHA-256 of a file's bytes, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()
