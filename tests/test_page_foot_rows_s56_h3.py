"""A table's last rows set in the page's bottom band keep their numbers
(:mod:`paperpyramid.parsers.embedded.reading_order`): a number there is a page number when it
stands alone or beside the page's foot line, a cell when it stands on one baseline with a row's
words, under a number of its column. Drawn here: three pages numbered at their foot, a table on
the second whose "Total" row sits in the band of page numbers and the row over it in the wider
band of running heads set a little further in (Times, 9 pt)."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.layout import Page, extract_page, table_lines
from paperpyramid.parsers.embedded.reading_order import furniture_keys, page_furniture, remove_page_furniture

BODY = (
    "The patients were drawn from the two wards of the hospital over three years, and each was seen "
    "by the same team of surgeons before and after the operation, as the methods describe in full."
)
_ROWS = (("Group", "Before", "After"), ("Ward A", "80", "150"), ("Ward B", "106", "156"), ("Total", "186", "306"))
_FOOT_LINE = "Journal of Clinical Surgery 12 (2020) 1-10"


def _body(page: Canvas, top: float, lines: int) -> None:
    for index in range(lines):
        page.text(72, top + 12 * index, BODY[:88] if index % 2 else BODY[88:], "Times-Roman", 10)


def _pages(foot_line: bool) -> list[Canvas]:
    pages = []
    for number in (1, 2, 3):
        page = Canvas(612, 792)
        page.text(72, 60, "Outcomes of knee surgery in two wards", "Times-Italic", 9)
        _body(page, 90, 52 if number != 2 else 48)
        if number == 2:  # the last row's baseline 734, its top under the band's edge (724.7)
            page.text(72, 686, "Table 1. Patients of each ward before and after the operation.", "Times-Roman", 9)
            for index, row in enumerate(_ROWS):
                for x, cell in zip((72, 220, 320), row, strict=True):
                    page.text(x, 701 + 11 * index, cell, "Times-Roman", 9)
        if number == 1 and foot_line:  # the first page's own foot, its number beside it, set higher than the others'
            page.text(72, 760, _FOOT_LINE, "Times-Roman", 8)
            page.text(530, 760, "1", "Times-Roman", 9)
        else:
            page.text(303, 770, str(number), "Times-Roman", 9)
        pages.append(page)
    return pages


def _write(tmp_path: Path, pages: list[Canvas]) -> Path:
    path = tmp_path / "foot.pdf"
    path.write_bytes(write_pdf(pages, "A table at the page's foot"))
    return path


def test_a_tables_last_row_in_the_bottom_band_keeps_its_numbers(tmp_path: Path) -> None:
    (table,) = parse_pdf(_write(tmp_path, _pages(foot_line=False))).tables
    assert table.cells[-2:] == [["Ward B", "106", "156"], ["Total", "186", "306"]]


def _read(tmp_path: Path, pages: list[Canvas]) -> list[Page]:
    pdf = pdfium.PdfDocument(_write(tmp_path, pages))
    try:
        return [extract_page(pdf[index], index + 1) for index in range(len(pages))]
    finally:
        pdf.close()


def test_a_page_number_beside_a_first_pages_foot_line_is_dropped(tmp_path: Path) -> None:
    """The first page's foot line is printed once (no running foot): the page number on its
    baseline, right of it, is set off from the text above it and is still no text of the page;
    the cells of the table's last rows stay."""
    first, second, third = _read(tmp_path, _pages(foot_line=True))
    remove_page_furniture([first, second, third])
    assert _FOOT_LINE in [line.text for line in first.lines]
    assert all(line.text != "1" for line in first.lines) and all(line.text != "2" for line in second.lines)
    assert {"106", "156", "186", "306"} <= {line.text for line in second.lines}


def test_the_table_engine_reads_that_page_number_as_furniture(tmp_path: Path) -> None:
    """The engine's reading of the page, cut around numbers, sets the foot line's numbers apart
    too ("12", "(2020)", "1-10"): the page number beside them is still the page's foot."""
    pages = _read(tmp_path, _pages(foot_line=True))
    heads = page_furniture(table_lines(pages[0]), pages[0].height, furniture_keys(pages))
    assert "1" in [line.text for line in heads]
