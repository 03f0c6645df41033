"""A review copy's line numbers leave the text where the page is read into lines (the margin's
and the gutter's, alone or glued to the line they count), and numbers that are text stay: a
table's row numbers, a numbered list. A page with too few numbers for a column of its own (a
table fills it) is read by the columns the document's pages before it showed. The PDFs are made
here."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from paperpyramid.parsers.embedded.layout import Line, extract_page
from paperpyramid.parsers.embedded.line_numbers import LineNumbering
from tests.pdf_maker import placed_pdf

WORDS = ["the", "clutches", "were", "counted", "along", "four", "transects", "every", "week", "in", "the", "wet", "season"]
#: Helvetica's digits are 0.556 em wide: numbers set right-aligned on ``edge``
DIGIT = 0.556


def _sentence(index: int, words: int = 9) -> str:
    return " ".join(WORDS[(index + k) % len(WORDS)] for k in range(words)).capitalize()


def _number(value: int, edge: float, size: float) -> tuple[float, float, float, str]:
    text = str(value)
    return (edge - len(text) * DIGIT * size, 0.0, size, text)


def _lines(items: list[tuple[float, float, float, str]]) -> list[Line]:
    pdf = pdfium.PdfDocument(placed_pdf([items]))
    try:
        return extract_page(pdf[0], 1).lines
    finally:
        pdf.close()


def _pages(pages: list[list[tuple[float, float, float, str]]], *, numbering: bool = True) -> list[list[Line]]:
    """The lines of each page, read in order with the document's :class:`LineNumbering` (or each
    page alone)."""
    pdf = pdfium.PdfDocument(placed_pdf(pages))
    learnt = LineNumbering() if numbering else None
    try:
        return [extract_page(pdf[index], index + 1, numbering=learnt).lines for index in range(len(pages))]
    finally:
        pdf.close()


def _numbered_column(
    count: int, *, every: int, x: float, number_edge: float, top: float = 720.0, first: int = 1
) -> list[tuple[float, float, float, str]]:
    """``count`` body lines at ``x``, 12 points apart, each numbered (or every fifth) just left of
    ``number_edge`` in small type, the number drawn first (so pdfium may glue it to the line);
    the first line counts ``first``."""
    items = []
    for index in range(count):
        y = top - 12 * index
        if (index + first) % every == 0:
            x_number, _, size, text = _number(index + first, number_edge, 6)
            items.append((x_number, y, size, text))
        items.append((x, y, 10, _sentence(index)))
    return items


@pytest.mark.parametrize("every", [1, 5])
def test_margin_numbers_glued_to_their_lines_are_dropped(every: int) -> None:
    lines = _lines(_numbered_column(40, every=every, x=72, number_edge=66))
    body = [line for line in lines if line.text[0].isalpha()]
    assert len(body) == 40
    assert all(line.x0 > 70 for line in lines), [line.text for line in lines if line.x0 <= 70][:3]
    assert not any(line.text.strip().isdigit() for line in lines)
    assert body[0].text == _sentence(0)


def test_gutter_numbers_of_the_right_column_are_dropped() -> None:
    left = [(72.0, 720 - 12 * index, 10.0, _sentence(index, 6)) for index in range(40)]
    right = _numbered_column(40, every=5, x=320, number_edge=314)
    lines = _lines(left + right)
    assert not any(line.text.strip().split()[0].isdigit() for line in lines)
    assert sum(1 for line in lines if line.x0 >= 319) == 40


def test_a_tables_row_numbers_stay() -> None:
    """Row numbers 1-25 at the text's left edge, the paragraph above and below starting there too."""
    items = [(72.0, 740 - 12 * index, 10.0, _sentence(index)) for index in range(4)]
    for row in range(25):
        y = 680 - 13 * row
        items += [(72.0, y, 9.0, str(row + 1)), (110.0, y, 9.0, f"Site {chr(65 + row)}"), (260.0, y, 9.0, f"{row * 3 + 4}")]
    items += [(72.0, 330 - 12 * index, 10.0, _sentence(index)) for index in range(4)]
    lines = _lines(items)
    assert sorted(int(line.text) for line in lines if line.text.isdigit() and line.x0 < 80) == list(range(1, 26))


def test_a_numbered_list_stays() -> None:
    """A reference list numbered "1 ", "2 " right-aligned in a hanging margin, as line numbers
    are: entries of two or three lines, so the numbers rise by an entry, not a line, a unit."""
    items: list[tuple[float, float, float, str]] = []
    y = 740.0
    for entry in range(24):
        x_number, _, size, text = _number(entry + 1, 80, 9)
        items += [(x_number, y, size, text), (84.0, y, 9.0, _sentence(entry, 7))]
        for _ in range(1 + entry % 2):
            y -= 11
            items.append((84.0, y, 9.0, _sentence(entry + 3, 8)))
        y -= 11
    lines = _lines(items)
    assert sum(1 for line in lines if line.text.split()[0].isdigit()) == 24


def _table(top: float, rows: int, *, first_column: float = 72.0) -> list[tuple[float, float, float, str]]:
    """A table of ``rows`` rows from ``top`` (from the page's bottom) down: a row number at
    ``first_column``, a site and a count."""
    items = []
    for row in range(rows):
        y = top - 13 * row
        items += [(first_column, y, 9.0, str(row + 1)), (110.0, y, 9.0, f"Site {chr(65 + row)}"), (260.0, y, 9.0, f"{row * 3 + 4}")]
    return items


def test_a_short_pages_numbers_are_read_by_the_columns_of_the_pages_before() -> None:
    """Page 2 holds a table and three numbered lines (45, 50, 55): too few for a column of their
    own, but on page 1's column and continuing its numbering."""
    first = _numbered_column(40, every=5, x=72, number_edge=66)
    second = _numbered_column(15, every=5, x=72, number_edge=66, first=41) + _table(500, 20, first_column=110)
    alone = _pages([first, second], numbering=False)[1]
    assert sorted(line.text.split()[0] for line in alone if line.x0 < 70) == ["45", "50", "55"]  # the page alone keeps them
    lines = _pages([first, second])[1]
    assert not any(line.x0 < 70 for line in lines), [line.text for line in lines][:16]
    assert sum(1 for line in lines if line.x0 >= 70 and line.text[0].isalpha()) == 15


def test_numbers_on_a_learnt_column_that_start_again_stay() -> None:
    """A table's row numbers 1-3 stand on page 1's column of line numbers, set right-aligned
    there: they do not continue the numbering (40), so they are the table's."""
    first = _numbered_column(40, every=5, x=72, number_edge=66)
    second = [(72.0, 720 - 12 * index, 10.0, _sentence(index)) for index in range(4)]
    for row in range(3):
        y = 660 - 13 * row
        second += [(_number(row + 1, 66, 6)[0], y, 6.0, str(row + 1)), (110.0, y, 9.0, f"Site {chr(65 + row)}")]
    lines = _pages([first, second])[1]
    assert sorted(int(line.text) for line in lines if line.text.isdigit()) == [1, 2, 3]


def test_gutter_numbers_beside_a_table_go_and_the_tables_counts_stay() -> None:
    """revtex's preprint layout numbers every fifth line in the gutter; a table with a column of
    counts (1 to 20) fills part of the left column."""
    prose = "a line of running text set across a column"
    items = [(320.0, 692 - 9.5 * k, 8.0, prose) for k in range(60)]
    items += [(60.0, 692 - 9.5 * k, 8.0, prose) for k in range(60) if not 190 < 100 + 9.5 * k < 440]
    items += [(_number(330 + 5 * k, 307, 6)[0], 692 - 47.5 * k, 6.0, str(330 + 5 * k)) for k in range(12)]
    for k in range(20):
        items += [(60.0, 592 - 12 * k, 8.0, str(k + 1)), (80.0, 592 - 12 * k, 8.0, f"sample {k + 1}")]
    lines = _lines(items)
    numbers = [int(line.text.split()[0]) for line in lines if line.text.split()[0].isdigit()]
    assert sorted(numbers) == list(range(1, 21))  # the gutter's 330-385 gone, the counts (alone or before their label) kept


def test_a_tables_counts_under_the_right_column_stay() -> None:
    """A table in the right column: its "Sr. no." column stands beside the left column's text and
    under the right column's, its names right of it."""
    prose = "a line of running text set across a column"
    items = [(50.0, 692 - 12 * k, 9.0, prose) for k in range(50)]
    items += [(306.0, 692 - 12 * k, 9.0, prose) for k in range(50) if not 140 < 100 + 12 * k < 380]
    for k in range(17):
        items += [(306.0, 642 - 12.7 * k, 7.5, str(k + 1)), (379.0, 642 - 12.7 * k, 7.5, f"genotype {k + 1}")]
    lines = _lines(items)
    assert sorted(int(line.text) for line in lines if line.text.isdigit()) == list(range(1, 18))


def test_left_aligned_numbers_left_of_all_text_are_dropped() -> None:
    """amsart's line numbers: set flush left in the left margin, every line, with the text
    starting well right of them, and a margin note beside them."""
    items = [(60.0, 720 - 14 * index, 7.0, str(index + 1)) for index in range(42)]
    items += [(100.0, 720 - 14 * index, 10.0, _sentence(index)) for index in range(42)]
    items += [(20.0, 600 - 10 * index, 7.0, word) for index, word in enumerate(["Are these", "quotations", "necessary?"])]
    lines = _lines(items)
    assert not any(line.text.split()[0].isdigit() for line in lines), [line.text for line in lines if line.text[0].isdigit()][:5]
    assert sum(1 for line in lines if line.x0 >= 99) == 42
