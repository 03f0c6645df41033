"""Where inputs come from on local disk: files and folders (the bucket is :mod:`paperpyramid.s3`)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path

_CHUNK = 1 << 20


def discover_files(sources: Iterable[str | Path], *, suffixes: tuple[str, ...] = (".pdf",)) -> Iterator[Path]:
    """Yield the files named by ``sources``: files as given (whatever their suffix), folders
    searched recursively for names ending with ``suffixes`` (any case), in a stable order.
    Missing paths raise FileNotFoundError."""
    lowered = tuple(suffix.lower() for suffix in suffixes)
    for source in sources:
        path = Path(source)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.is_file() and p.name.lower().endswith(lowered))
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
