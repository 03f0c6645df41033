"""A page number stays out of the text where the page's text runs down close to it: hotos17's
reference list, set in smaller type, ends a line's height over the page number on page 6 (batch
12), so the number was glued to the last reference ("… paper2.pdf. 6"). The number sits in the
same place as on the other pages; the gap that sets a running head off need not hold for it."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from paperpyramid.parsers.embedded.layout import extract_page
from paperpyramid.parsers.embedded.reading_order import remove_page_furniture
from tests.pdf_maker import placed_pdf

PAGES = 5


def _page(number: int) -> list[tuple[float, float, float, str]]:
    items: list[tuple[float, float, float, str]] = [(300, 60, 9, str(number))]
    if number == 4:  # the reference list, in 8 pt, runs down to a line's height over the number
        items += [
            (72, 700 - 10 * row, 8, f"A. Author{row}. A title of a paper. In Proceedings, pages {row}-{row + 9}, 2016.")
            for row in range(63)
        ]
    else:
        items += [
            (72, 700 - 13 * row, 10, f"The body text of page {number} goes on in line {row} of the column here.") for row in range(46)
        ]
    return items


def test_a_page_number_close_under_the_text_is_furniture(tmp_path: Path) -> None:
    path = tmp_path / "numbers.pdf"
    path.write_bytes(placed_pdf([_page(number) for number in range(1, PAGES + 1)]))
    pdf = pdfium.PdfDocument(path)
    pages = [extract_page(pdf[index], index + 1) for index in range(PAGES)]
    assert pages[3].lines[-1].top - max(line.bottom for line in pages[3].lines[:-1]) < 1.2 * pages[3].lines[-1].height
    remove_page_furniture(pages)
    assert all(line.text != str(page.number) for page in pages for line in page.lines)
    assert sum(1 for line in pages[3].lines if line.text.startswith("A. Author")) == 63  # the references all stay
