"""A small raised number just left of a line's start is that line's mark, not a line number in the
margin, even where its box reaches a hair into the line's (BMC's "Author details": the entry
numbers overlap their line's start by 0.03 pt, and were dropped as stray margin numbers)."""

from __future__ import annotations

from paperpyramid.parsers.embedded.layout import Page
from paperpyramid.parsers.embedded.reading_order import _marks_a_line
from tests.block_builders import Stack


def _page(mark_x1: float) -> Page:
    stack = Stack(size=9.0, x0=55.0, x1=300.0)
    number = stack.line("1", 100.0, x0=50.0, x1=mark_x1, size=6.0)
    line = stack.line("Department of Surgery, University Hospital, Basel, Switzerland.", 99.0)
    return Page(number=1, width=612.0, height=792.0, lines=[number, line], n_chars=70, n_images=0)


def test_a_mark_whose_box_reaches_a_hair_into_its_line_marks_it() -> None:
    page = _page(55.03)
    assert _marks_a_line(page.lines[0], page)


def test_a_number_well_inside_the_line_marks_nothing() -> None:
    page = _page(56.5)
    assert not _marks_a_line(page.lines[0], page)
