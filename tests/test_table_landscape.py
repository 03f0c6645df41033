"""A table set sideways on a portrait page (pdflscape's ``landscape``: MNRAS's Table 4), its
running head and page number left upright: the page is read turned upright
(:func:`~paperpyramid.parsers.embedded.layout.text_turn`), and the table under its caption.
On MNRAS's page the turn's sample met only the spaces between the cells ("Data Data ..."),
and the running head, sideways once the page is turned, took the caption into its line."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from benchmarks.synthetic.canvas import Canvas, _escape, _number, write_pdf
from paperpyramid.parsers.embedded.char_runs import _NEW_RUN, CharRun, _step
from paperpyramid.parsers.embedded.layout import text_turn
from paperpyramid.parsers.embedded.parser import parse_pdf

_FONT = "Times-Roman"


def _sideways(page: Canvas, x: float, y: float, text: str, size: float) -> None:
    """``text`` running up the page from (``x``, ``y`` from the top): turned a quarter anticlockwise."""
    ops = f"q BT /{page._font_name(_FONT)} {_number(size)} Tf 0 1 -1 0 {_number(x)} {_number(page.height - y)} Tm ("
    page._ops.append(ops.encode("ascii") + _escape(text) + b") Tj ET Q")


def _landscape_page() -> Canvas:
    page = Canvas(595.0, 842.0)
    page.text(42, 38, "6", _FONT, 8)
    page.text(66, 38, "K. T. Smith", _FONT, 8)
    _sideways(page, 55, 790, "Table 4. An example landscape table.", 8)
    for index in range(10):
        x = 80 + 12 * index if index < 2 else 110 + 10 * index
        word = "Header" if index == 0 else "Unit" if index == 1 else "Data"
        for column in range(10):
            _sideways(page, x, 790 - 40 * column, word, 8)
    page.text(42, 800, "MNRAS 000, 1-10 (2020)", _FONT, 8)
    return page


def test_a_sideways_table_is_read(tmp_path: Path) -> None:
    pdf = tmp_path / "landscape.pdf"
    pdf.write_bytes(write_pdf([_landscape_page()], "a landscape table"))
    tables = [table for table in parse_pdf(pdf).tables if table.label == "4"]
    assert tables, "the sideways table was not read"
    cells = tables[0].cells
    assert [cell for cell in cells[0] if cell] == ["Header"] * 10
    assert sum(1 for row in cells if [cell for cell in row if cell] == ["Data"] * 10) == 8


def test_the_turn_is_not_read_from_spaces_alone(tmp_path: Path) -> None:
    # "Page" then a sideways line of 48 cells: 245 characters, sampled every 10th from the
    # first, and every sampled character after the first is a space pdfium generated (angle 0)
    page = Canvas(595.0, 842.0)
    page.text(42, 38, "Page", _FONT, 8)
    for column in range(48):
        _sideways(page, 80, 800 - 16 * column, "Data", 4)
    pdf = tmp_path / "spaces.pdf"
    pdf.write_bytes(write_pdf([page], "sideways cells"))
    document = pdfium.PdfDocument(pdf)
    try:
        text = document[0].get_textpage()
        count = text.count_chars()
        assert count // 24 % 5 == 0
        assert text_turn(text.raw, count) == 270
    finally:
        document.close()


def test_sideways_text_goes_on_only_at_its_own_x() -> None:
    # a running head left upright reads sideways on the turned page: its characters stack at one
    # x; the caption's first letter, far to its left on another band, opens a line of its own
    run = CharRun()
    run.chars, run.x0, run.x1, run.top, run.bottom = ["S"], 742.0, 750.0, 90.0, 96.0
    run.last_x0, run.last_x1, run.vertical_votes = 742.0, 750.0, 1
    assert _step(run, 50.0, 48.0, 57.0, 9.0, 8.0, "C", "Times-Roman") == _NEW_RUN
