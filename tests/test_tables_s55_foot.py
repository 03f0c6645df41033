"""A table set at the foot of its page keeps its last row: its bottom rule, in the page's bottom
tenth, closes the rows a midrule sets off ("Total"), where a footer's rule over the body's notes
closes nothing (:func:`paperpyramid.parsers.embedded.table_region.find_region`); and on a page of
its own, a last row of values at the foot is no running foot (:func:`~paperpyramid.parsers.
embedded.regions.single_page_furniture`). Pages drawn in the test."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded.layout import Line, Page
from paperpyramid.parsers.embedded.regions import single_page_furniture
from paperpyramid.parsers.embedded.table_engine import extract_table
from tests.test_table_groups import _caption

_FONT = "Times-Roman"
_COLUMNS = (72, 250, 400)


def _table_at_foot(page: Canvas, top: float) -> list[list[str]]:
    """A caption at ``top``, a header, eight rows and a total set off by a midrule, ruled under
    it 12 points lower: the rows as printed."""
    page.text(72, top, "Table 3: Counts by site.", _FONT, 9)
    page.rule(72, top + 6, 540, top + 6, 0.6)
    rows = [["Site", "Cases", "Controls"]] + [[f"Site {k}", str(10 + k), str(20 + k)] for k in range(8)] + [["Total", "84", "164"]]
    y = top + 18
    for index, cells in enumerate(rows):
        if index == 1:
            page.rule(72, y - 8, 540, y - 8, 0.4)  # under the header
        if index == len(rows) - 1:
            page.rule(72, y - 8, 540, y - 8, 0.4)  # the midrule over the total
            y += 3
        for x, cell in zip(_COLUMNS, cells, strict=True):
            page.text(x, y, cell, _FONT, 9)
        y += 12
    page.rule(72, y - 7, 540, y - 7, 0.6)  # the bottom rule
    return rows


def test_a_bottom_rule_in_the_pages_last_tenth_closes_the_last_row(tmp_path: Path) -> None:
    # the bottom rule (y 716 of 792) fell in the band where a page's footer is ruled off: the
    # midrule over the total closed the table, and its last row was lost
    page = Canvas(612.0, 792.0)
    for row in range(30):
        page.text(72, 80 + 13 * row, "Running text of the page, set across its one column as a paper is.", _FONT, 9)
    rows = _table_at_foot(page, 582)
    pdf = tmp_path / "foot.pdf"
    pdf.write_bytes(write_pdf([page], "a table at the foot"))
    assert extract_table(pdf, *_caption(pdf, "Table 3:")) == rows


def test_a_footers_rule_under_the_notes_of_a_table_closes_nothing(tmp_path: Path) -> None:
    # the rule over the page's footer, under a table's note, is no rule of the table: the note
    # (a mark and its sentence) is no row of cells
    page = Canvas(612.0, 792.0)
    page.text(72, 560, "Table 4: Doses.", _FONT, 9)
    page.rule(72, 566, 540, 566, 0.6)
    rows = [["Drug", "Dose", "Route"], ["Aspirin", "100", "Oral"], ["Heparin", "5000", "IV"]]
    for index, cells in enumerate(rows):
        for x, cell in zip(_COLUMNS, cells, strict=True):
            page.text(x, 578 + 12 * index, cell, _FONT, 9)
    page.rule(72, 582, 540, 582, 0.4)
    page.rule(72, 607, 540, 607, 0.6)
    page.text(72, 700, "a", _FONT, 6)
    page.text(78, 702, "Doses are given per day for an adult of average weight and height.", _FONT, 8)
    page.rule(72, 716, 540, 716, 0.4)  # the footer's rule
    page.text(72, 730, "Journal of Examples 12 (2020) 1-9", _FONT, 8)
    pdf = tmp_path / "note.pdf"
    pdf.write_bytes(write_pdf([page], "a footer under a note"))
    assert extract_table(pdf, *_caption(pdf, "Table 4:")) == rows


def _line(text: str, x0: float, top: float, size: float = 9.0) -> Line:
    width = 4.5 * len(text)
    return Line(text, 1, x0, top, x0 + width, top + size, size, False, False, "Times", words=[(text, x0, x0 + width)])


def test_a_last_row_of_values_at_the_foot_of_a_one_page_document_is_no_foot() -> None:
    # the row's lone numbers read as page numbers: the whole row was dropped as the page's foot
    lines = [_line("A one-page note with a table at its foot, set as such notes are.", 72, 80 + 12 * k) for k in range(20)]
    lines += [
        _line(cell, x, 700 + 12 * k) for k in range(3) for x, cell in zip(_COLUMNS, (f"Site {k}", str(10 + k), str(20 + k)), strict=True)
    ]
    total = [_line(cell, x, 760) for x, cell in zip(_COLUMNS, ("Total", "33", "63"), strict=True)]
    page = Page(1, 612.0, 792.0, lines + total, 0, 0)
    assert single_page_furniture(page) == []
    foot = _line("7", 300, 770)
    page = Page(1, 612.0, 792.0, lines + [foot], 0, 0)
    assert single_page_furniture(page) == [foot]
