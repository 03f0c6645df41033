"""Where PDFs come from: files and folders on local disk (the bucket comes later)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path

_CHUNK = 1 << 20


def discover_pdfs(sources: Iterable[str | Path]) -> Iterator[Path]:
    """Yield the PDFs named by ``sources``: files as given, folders searched recursively
    for ``*.pdf`` (any case), in a stable order. Missing paths raise FileNotFoundError."""
    for source in sources:
        path = Path(source)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf")
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
