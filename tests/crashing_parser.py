"""A parser for fault tests: it kills its own process on any file whose name contains
"crash" (as a segfaulting native library would), and parses the rest with the embedded parser."""

from __future__ import annotations

import os
from pathlib import Path

from paperpyramid.document import Document
from paperpyramid.parsers.embedded import parse_pdf


def parse(path: Path, *, password: str | None = None, max_pages: int = 500, time_limit: float | None = None) -> Document:
    if "crash" in path.name:
        os._exit(3)
    return parse_pdf(path, password=password, max_pages=max_pages, time_limit=time_limit)
