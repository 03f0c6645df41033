"""Real PDFs of the unseen batches (``benchmarks/unseen_set.py``) for tests that read them where they
are built: ``$UNSEEN_PDFS/unseenN/NAME`` (``/tmp/u`` by default, as ``--out /tmp/u/unseenN``
puts them), and files of the unpacked packages under ``$UNSEEN_PDFS/debs/x`` (``--work /tmp/u/debs``). They come from Debian packages under GPL, LPPL or unknown licences and are never
committed; a test that needs one skips, saying so, where it is not built."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def unseen_folder(batch: int) -> Path:
    """The folder batch ``batch`` is built in."""
    return Path(os.environ.get("UNSEEN_PDFS", "/tmp/u")) / f"unseen{batch}"


def unpacked(relative: str) -> Path:
    """A file of the Debian packages the builder unpacked (``--work $UNSEEN_PDFS/debs``), by its path in the package."""
    return Path(os.environ.get("UNSEEN_PDFS", "/tmp/u")) / "debs" / "x" / relative


def unseen_pdf(batch: int, name: str) -> Path:
    """The path of ``name`` in batch ``batch``; the test skips where it is not built."""
    path = unseen_folder(batch) / name
    if not path.is_file():
        pytest.skip(f"{path} is built by benchmarks/unseen_set.py --batch {batch} --out {path.parent} and is not committed")
    return path
