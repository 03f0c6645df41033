"""Characters a page shows, read by OCR: Tesseract (the ``tesseract`` program, Apache-2.0).

The embedded parser reads text from the PDF's text layer; it turns to OCR only to learn what
the glyphs of a font without a Unicode map stand for (see :mod:`.glyphs`). Tesseract is a
system program, not a Python package: ``apt-get install tesseract-ocr`` (Debian, Ubuntu),
``brew install tesseract`` (macOS). Without it those glyphs stay unread and the parse says so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium

#: render resolution for OCR: Tesseract reads body text best at about 300 dpi
_DPI = 300
#: one page's OCR may take this long (about 3 s for a dense page on one core)
_TIMEOUT_S = 60.0


@dataclass(frozen=True, slots=True)
class Glyph:
    """One character OCR read, with its box in PDF points (top-left origin, the page as shown)."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float


def tesseract() -> str | None:
    """The path of the ``tesseract`` program (``PAPERPYRAMID_TESSERACT`` overrides; empty disables), or None."""
    configured = os.environ.get("PAPERPYRAMID_TESSERACT")
    if configured is not None:
        return shutil.which(configured) if configured else None
    return shutil.which("tesseract")


def read_glyphs(page: pdfium.PdfPage, program: str) -> list[Glyph]:
    """The characters OCR reads on ``page`` with their boxes (Tesseract's box output).

    Raises ``OSError`` or ``subprocess.SubprocessError`` when Tesseract fails or runs past its
    time limit; the caller decides what an unread page means.
    """
    scale = _DPI / 72
    image = page.render(scale=scale).to_pil().convert("L")
    with tempfile.TemporaryDirectory(prefix="paperpyramid-ocr-") as folder:
        png = Path(folder) / "page.png"
        image.save(png)
        # one thread: on a small machine Tesseract's own threads cost more than they give, and
        # ingest already runs one worker per core
        env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
        subprocess.run([program, str(png), str(Path(folder) / "page"), "makebox"], check=True, capture_output=True, timeout=_TIMEOUT_S, env=env)
        box_text = (Path(folder) / "page.box").read_text(encoding="utf-8", errors="replace")
    return parse_boxes(box_text, image_height=image.height, scale=scale)


def parse_boxes(box_text: str, *, image_height: int, scale: float) -> list[Glyph]:
    """Tesseract's box lines (``char left bottom right top page``, pixels from the bottom-left)
    as glyphs in PDF points from the top-left."""
    glyphs = []
    for line in box_text.splitlines():
        parts = line.rsplit(" ", 5)
        if len(parts) != 6 or not parts[0]:
            continue
        try:
            left, bottom, right, top = (int(value) for value in parts[1:5])
        except ValueError:
            continue
        glyphs.append(Glyph(parts[0], left / scale, (image_height - top) / scale, right / scale, (image_height - bottom) / scale))
    return glyphs


__all__ = ["Glyph", "parse_boxes", "read_glyphs", "tesseract"]
