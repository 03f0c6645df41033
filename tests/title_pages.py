"""Title pages drawn for the title finder's tests: lines centred or flush right on a US letter page,
a body of text under them, and the page written with a second page of text after it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf

#: a manual's prose, the body under a drawn title page
BODY = (
    "The program computes the maximal matches between a reference sequence and each query sequence,",
    "and the options below say which of them are reported and how the output lists their positions.",
    "Each match is given with its length, and the differences between the modes are discussed below.",
)


def centred(canvas: Canvas, y: float, text: str, font: str, size: float) -> None:
    canvas.text(306 - text_width(text, font, size) / 2, y, text, font, size)


def flush_right(canvas: Canvas, y: float, text: str, font: str, size: float) -> None:
    canvas.text(504 - text_width(text, font, size), y, text, font, size)


def body(canvas: Canvas, y: float, lines: int = 9, prose: Sequence[str] = BODY) -> None:
    """``lines`` lines of ``prose`` from ``y`` down, at the left margin in 10-point Times."""
    for n in range(lines):
        canvas.text(72, y + 12 * n, prose[n % len(prose)], "Times-Roman", 10)


def write_page(tmp_path: Path, canvas: Canvas, title: str = "", prose: Sequence[str] = BODY, lines: int = 40) -> Path:
    """The page with a second page of ``lines`` lines of text after it, in the Info's ``title``."""
    text = Canvas(canvas.width, canvas.height)
    body(text, 72, lines, prose)
    path = tmp_path / "page.pdf"
    path.write_bytes(write_pdf([canvas, text], title))
    return path
