"""Running heads that name the page's sections (R News's \\markboth: the paper's title over the right
of the first pages, "SUMMARY" and "BIBLIOGRAPHY" over the last): the heads taken away for their
repeated text mark the place, so the last page's heads, in that place and on that row, go too, and
are not read as the paper's last two headings (batch 18's gdata note: its summary was filed under
the bibliography)."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from paperpyramid.parsers.embedded.layout import Page, extract_page
from paperpyramid.parsers.embedded.reading_order import remove_page_furniture
from tests.pdf_maker import placed_pdf

TITLE = "WORKING WITH UNKNOWN VALUES"
HEADS = {1: ["", TITLE], 2: ["DESCRIPTION WITH EXAMPLES", TITLE], 3: ["SUMMARY", "BIBLIOGRAPHY"]}


def _page(number: int, heads: list[str]) -> list[tuple[float, float, float, str]]:
    items = [(x, 750, 8, head) for x, head in zip((72, 380), heads, strict=True) if head]
    # each line in other words (digits would make every line read alike, as running heads are compared)
    items += [
        (72, 720 - 13 * row, 10, f"The body text of page {_word(number)} goes on in line {_word(row)} of the column.") for row in range(40)
    ]
    return items


def _word(number: int) -> str:
    return "".join("abcdefghij"[int(digit)] for digit in str(number))


def _pages(tmp_path: Path, heads: dict[int, list[str]], last: tuple[tuple[float, float, float, str], ...] = ()) -> list[Page]:
    """The pages with their heads, and ``last`` put on the last page, once their furniture is gone."""
    items = [_page(number, row) for number, row in heads.items()]
    items[-1] += last
    path = tmp_path / "heads.pdf"
    path.write_bytes(placed_pdf(items))
    pdf = pdfium.PdfDocument(path)
    pages = [extract_page(pdf[index], index + 1) for index in range(len(heads))]
    remove_page_furniture(pages)
    return pages


def test_the_last_pages_section_heads_stand_where_the_repeated_head_stood(tmp_path: Path) -> None:
    pages = _pages(tmp_path, HEADS)
    texts = [line.text.strip() for page in pages for line in page.lines]
    assert not {"SUMMARY", "BIBLIOGRAPHY", "DESCRIPTION WITH EXAMPLES", TITLE} & set(texts)
    assert sum(1 for text in texts if text.startswith("The body text")) == 3 * 40


def test_a_line_in_another_place_stays(tmp_path: Path) -> None:
    # the third page's line lower than the heads' place, and the heads' row without them: a heading of the text
    pages = _pages(tmp_path, {1: ["", TITLE], 2: ["", TITLE], 3: ["", ""]}, ((72, 735, 8, "SUMMARY"),))
    assert "SUMMARY" in [line.text.strip() for line in pages[2].lines]
