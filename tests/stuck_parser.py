"""A parser for the hard time limit: on a file whose name contains "stuck" it stalls where no
alarm reaches it, as pdfium does while it inflates a flate bomb (a C call that never returns to
Python: here SIGALRM is blocked, then it sleeps); the rest it parses with the embedded parser."""

from __future__ import annotations

import signal
import time
from pathlib import Path

from paperpyramid.document import Document
from paperpyramid.parsers.embedded import parse_pdf


def parse(path: Path, *, password: str | None = None, max_pages: int = 500, time_limit: float | None = None) -> Document:
    if "stuck" in path.name:
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        time.sleep(600)
    return parse_pdf(path, password=password, max_pages=max_pages, time_limit=time_limit)
