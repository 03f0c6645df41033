"""Running heads and feet set on one row with the page's number, wherever the sheet puts them.

A book's chapter printed on a larger sheet, inside crop marks (HSAUR3's chapter as a vignette on
A4), sets its heads further in than any band of the sheet and close over the text, with a gap no
wider than the leading: "4  META-ANALYSIS" over the even pages, "ANALYSIS USING R  5" over the
odd ones, the section's name changing from page to page. The bands of
:mod:`.reading_order` miss them, and so does a head told by its place, which needs a gap under
it. What tells them is the number: a row at the top or the foot of the page's text with a number
alone at one end beside a head, and that number counting the pages, the same amount off the
page's index on three pages or more. No heading, table row or line number counts the pages so.
"""

from __future__ import annotations

import re
from collections import Counter

from paperpyramid.parsers.embedded.layout import Line, Page

_NUMBER = re.compile(r"\d{1,4}")
#: points within which the lines of a row share the page's first or last line's top or bottom
_ROW = 2.0
#: pages whose row's number is the same amount off their index, at least
_PAGES = 3


def numbered_rows(pages: list[Page]) -> list[list[Line]]:
    """Each page's top or bottom row that holds its page number at one end beside a head
    (:data:`_NUMBER` alone, the number counting the pages on :data:`_PAGES` pages or more, the
    same amount off their index, at the same end of the page): the lines of the row, number and head."""
    found: list[tuple[int, list[Line], tuple[int, bool]]] = []
    for position, page in enumerate(pages):
        for top in (True, False):
            row = _end_row(page, top=top)
            number = _number_at_an_end(row)
            if number is not None:
                found.append((position, row, (number - page.number, top)))
    counted = Counter(key for _, _, key in found)
    rows: list[list[Line]] = [[] for _ in pages]
    for position, row, key in found:
        if counted[key] >= _PAGES:
            rows[position] += row
    return rows


def _end_row(page: Page, *, top: bool) -> list[Line]:
    """The lines on the page's first (``top``) or last row of text, left to right."""
    lines = text_lines(page)
    return sorted(end_row(lines, top=top), key=lambda line: line.x0) if len(lines) >= 3 else []


def text_lines(page: Page) -> list[Line]:
    """A page's lines of text set upright."""
    return [line for line in page.lines if not line.vertical and line.text.strip()]


def end_row(lines: list[Line], *, top: bool) -> list[Line]:
    """The ``lines`` on the first (``top``) or last row among them: within :data:`_ROW` of the
    highest top or the lowest bottom. ``lines`` is not empty."""
    if top:
        edge = min(line.top for line in lines)
        return [line for line in lines if line.top - edge < _ROW]
    edge = max(line.bottom for line in lines)
    return [line for line in lines if edge - line.bottom < _ROW]


def _number_at_an_end(row: list[Line]) -> int | None:
    """The number a row sets alone at its left or right end beside a head, where the rest of the
    row is short (a head's words). A number alone on its row is left to the bands of
    :mod:`.reading_order`: page numbers under the text of every page but the first, whose foot
    line (a journal's citation beside its number) is printed once, would count the pages without
    a head among them."""
    if not 2 <= len(row) <= 3 or sum(len(line.text) for line in row) > 120:
        return None
    for line in (row[0], row[-1]):
        if _NUMBER.fullmatch(line.text.strip()):
            return int(line.text.strip())
    return None
