"""Characters a page shows, read by OCR: Tesseract (the ``tesseract`` program, Apache-2.0).

The embedded parser reads text from the PDF's text layer; it turns to OCR for pages without
one (scans), for scans whose OCR text layer fails the quality test (:mod:`.scans`), and to
learn what the glyphs of a font without a Unicode map stand for (:mod:`.glyphs`). Tesseract is
a system program, not a Python package: ``apt-get install tesseract-ocr`` (Debian, Ubuntu),
``brew install tesseract`` (macOS). Without it those pages stay unread and the parse says so.
(RapidOCR's PP-OCRv4 models were measured beside it and lost on English word accuracy and
speed on one core: ``benchmarks/ocr_engines.py``.)
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import pypdfium2 as pdfium
from PIL import Image

from paperpyramid.env import read_env

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


@dataclass(frozen=True, slots=True)
class Word:
    """One word OCR read, with its box in PDF points (top-left origin), Tesseract's confidence
    (0-100) and the line it set the word on (block, paragraph, line)."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    confidence: float
    line: tuple[int, int, int]


#: the program the ingest's settings name (``IngestSettings.tesseract``), set around a parse by :func:`using`
_CONFIGURED: ContextVar[str | None] = ContextVar("tesseract", default=None)


@contextmanager
def using(program: str | None) -> Iterator[None]:
    """Within the block, OCR runs ``program`` (a name on PATH or a path; "" for none); None leaves
    the default: ``PAPERPYRAMID_INGEST__TESSERACT``, else ``tesseract`` on PATH."""
    token = _CONFIGURED.set(program)
    try:
        yield
    finally:
        _CONFIGURED.reset(token)


def tesseract() -> str | None:
    """The path of the ``tesseract`` program (the setting ``ingest.tesseract``, i.e.
    ``PAPERPYRAMID_INGEST__TESSERACT``, overrides; empty disables), or None."""
    configured = _CONFIGURED.get()
    if configured is None:
        configured = read_env("PAPERPYRAMID_INGEST__TESSERACT")
    if configured is not None:
        return shutil.which(configured) if configured else None
    return shutil.which("tesseract")


def read_glyphs(page: pdfium.PdfPage, program: str) -> list[Glyph]:
    """The characters OCR reads on ``page`` with their boxes (Tesseract's box output).

    Raises ``OSError`` or ``subprocess.SubprocessError`` when Tesseract fails or runs past its
    time limit; the caller decides what an unread page means.
    """
    box_text, image = _run(page, program, "makebox")
    return parse_boxes(box_text, image_height=image.height, scale=_DPI / 72)


def read_words(page: pdfium.PdfPage, program: str) -> tuple[list[Word], Image.Image]:
    """The words OCR reads on ``page`` (Tesseract's TSV output), and the greyscale image it read.

    Raises ``OSError`` or ``subprocess.SubprocessError`` as :func:`read_glyphs` does.
    """
    tsv, image = _run(page, program, "tsv")
    return parse_tsv(tsv, scale=_DPI / 72), image


def _run(page: pdfium.PdfPage, program: str, config: str) -> tuple[str, Image.Image]:
    """Tesseract's ``config`` output for ``page`` rendered at 300 dpi in grey, and the image it
    read. The image goes in on Tesseract's standard input and its output comes back on the
    standard output: no file is written, so a process killed mid-page (parsing in the ingest's
    own process, or a library caller's) leaves no folder of page images behind."""
    image = page.render(scale=_DPI / 72).to_pil().convert("L")
    png = io.BytesIO()
    image.save(png, format="PNG")
    # one thread: on a small machine Tesseract's own threads cost more than they give, and
    # ingest already runs one worker per core
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    done = subprocess.run(
        [program, "stdin", "stdout", config], input=png.getvalue(), check=True, capture_output=True, timeout=_TIMEOUT_S, env=env
    )
    return done.stdout.decode("utf-8", errors="replace"), image


def parse_tsv(tsv: str, *, scale: float) -> list[Word]:
    """Tesseract's TSV rows of words (level 5: ``level page block par line word left top width
    height conf text``, pixels from the top-left) as words in PDF points."""
    words = []
    for row in tsv.splitlines()[1:]:
        parts = row.split("\t")
        if len(parts) != 12 or parts[0] != "5" or not parts[11].strip():
            continue
        try:
            block, paragraph, line, left, top, width, height = (int(value) for value in (parts[2], parts[3], parts[4], *parts[6:10]))
            confidence = float(parts[10])
        except ValueError:
            continue
        words.append(
            Word(
                parts[11].strip(),
                left / scale,
                top / scale,
                (left + width) / scale,
                (top + height) / scale,
                confidence,
                (block, paragraph, line),
            )
        )
    return words


def version(program: str) -> str:
    """Tesseract's version ("5.3.0"), or "" when it does not say."""
    try:
        done = subprocess.run([program, "--version"], capture_output=True, timeout=10, text=True)
    except (OSError, subprocess.SubprocessError):
        return ""
    first = (done.stdout or done.stderr).split("\n", 1)[0].split()
    return first[-1] if first else ""


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


__all__ = ["Glyph", "Word", "parse_boxes", "parse_tsv", "read_glyphs", "read_words", "tesseract", "version"]
