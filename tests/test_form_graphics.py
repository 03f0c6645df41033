"""A page's drawings inside a form XObject (a plot included as a PDF figure: R's ``pdf()`` device
under ``\\includegraphics``) are found where the form puts them. pdfium gives their bounds in the
form's own space; the table rules and marks were placed through the form's matrix (79f2c2c), the
graphics that tell figure text from body text were not: a plot drawn at the page's foot was looked
for at its bottom-left corner."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pypdfium2 as pdfium

from benchmarks.synthetic.canvas import page_pdf, stream_object
from paperpyramid.parsers.embedded.layout import page_graphics


def _plot_in_a_form() -> bytes:
    """A form XObject holding a 100 × 80 frame, placed by a ``cm`` that halves it and moves it to (300, 100)."""
    form = b"q 0.5 w 0 0 100 80 re S 20 20 m 80 60 l S Q"
    page = b"q 0.5 0 0 0.5 300 100 cm /Fig Do Q"
    return page_pdf(page, b"/XObject << /Fig 5 0 R >>", stream_object(form, b"/Type /XObject /Subtype /Form /BBox [0 0 200 200]"))


def test_a_drawing_inside_a_form_is_found_where_the_form_puts_it(tmp_path: Path) -> None:
    path = tmp_path / "plot.pdf"
    path.write_bytes(_plot_in_a_form())
    pdf = pdfium.PdfDocument(path)
    try:
        boxes = page_graphics(pdf, cast(Any, SimpleNamespace(number=1, turn=0)))
    finally:
        pdf.close()
    # the frame (0, 0)-(100, 80) in the form: (300, 100)-(350, 140) up the page; 792 - 140 from its top
    frames = [tuple(round(value) for value in box) for box in boxes if box[2] - box[0] > 40]
    assert frames == [(300, 652, 350, 692)], boxes
