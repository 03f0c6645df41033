"""A line bold only for a number ("[5]).", SMF's citation numbers set in bold) goes on with the
sentence the plain line over it leaves open; read as TeX's EC bold face ("SFBX1095") it cut the
paragraph in two. A bold line with words under a finished sentence still starts a block."""

from __future__ import annotations

from paperpyramid.parsers.embedded.block_breaks import split_blocks
from paperpyramid.parsers.embedded.layout import Line


def _line(text: str, top: float, *, bold: bool = False) -> Line:
    return Line(text=text, page=4, x0=142.0, top=top, x1=480.0, bottom=top + 10.9, size=10.9, bold=bold, italic=False, font="SFRM1095")


def test_a_bold_citation_number_goes_on_with_its_sentence() -> None:
    lines = [_line("check all available capabilities to place formulas in display style (see", 465.0), _line("[5]).", 478.4, bold=True)]
    assert [len(block.lines) for block in split_blocks(lines, 10.9)] == [2]


def test_a_bold_line_of_words_or_after_a_sentence_starts_a_block() -> None:
    after_sentence = [_line("and the formulas are placed in display style.", 465.0), _line("[5]", 478.4, bold=True)]
    assert [len(block.lines) for block in split_blocks(after_sentence, 10.9)] == [1, 1]
    words = [_line("check all available capabilities to place formulas in display style (see", 465.0), _line("Section 5", 478.4, bold=True)]
    assert [len(block.lines) for block in split_blocks(words, 10.9)] == [1, 1]


def test_a_bare_bold_number_under_an_open_line_starts_a_block() -> None:
    """No bracket, no closing punctuation: "4" alone in bold is a heading's number or a cell, not
    a citation going on with the open sentence over it."""
    lines = [_line("the rates were compared over the three sites as the earlier study did in", 465.0), _line("4", 478.4, bold=True)]
    assert [len(block.lines) for block in split_blocks(lines, 10.9)] == [1, 1]
