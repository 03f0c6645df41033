"""A review copy's line numbers leave the text where the page is read into lines (the margin's
and the gutter's, alone or glued to the line they count), and numbers that are text stay: a
table's row numbers, a numbered list. The PDFs are made here."""

from __future__ import annotations

import pypdfium2 as pdfium
import pytest

from paperpyramid.parsers.embedded.layout import Line, extract_page
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


def _numbered_column(count: int, *, every: int, x: float, number_edge: float, top: float = 720.0) -> list[tuple[float, float, float, str]]:
    """``count`` body lines at ``x``, 12 points apart, each numbered (or every fifth) just left of
    ``number_edge`` in small type, the number drawn first (so pdfium may glue it to the line)."""
    items = []
    for index in range(count):
        y = top - 12 * index
        if (index + 1) % every == 0:
            x_number, _, size, text = _number(index + 1, number_edge, 6)
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
