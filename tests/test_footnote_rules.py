"""Footnotes told by the rule drawn over them, and by letter marks ("a)", as AIP's journals set
them): a note whose mark the page's text does not show is still a note under its rule."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas
from paperpyramid.parsers.embedded.footnotes import set_footnotes_apart
from tests.block_builders import Stack
from tests.test_footnotes import BODY, BODY_LINES, CUT, GOES_ON, LEFT, MARKED, NOTE, NOTE_TEXT, _column, _page, _paragraphs, _parse

_block = Stack(step=BODY * 1.2, x1=290.0, size=BODY, font="Times-Roman").block


def test_a_letter_mark_the_body_carries_opens_a_note() -> None:
    body = _block([*BODY_LINES, "by J. Smith1,a) and B. Jones2,b) of the institute."], top=600.0)
    note = _block("a)Electronic mail: smith@example.org", top=730.0, size=NOTE)
    set_footnotes_apart([body, note], {1: 792}, BODY)
    assert note.kind == "aside"
    listed = _block("c) the third step of the procedure, set small", top=730.0, size=NOTE)  # a list's item: no "c)" in the body
    set_footnotes_apart([body, listed], {1: 792}, BODY)
    assert listed.kind == "paragraph"


def test_a_rule_over_a_note_stands_for_the_mark_the_text_does_not_show() -> None:
    body = _block([*BODY_LINES, "as the corpus shows in full."], top=600.0)
    note = _block("7The papers included in the corpus are a curated subset.", top=730.0, size=NOTE)
    rule = (72.0, 724.0, 72.0 + 0.3 * 218, 724.4)
    set_footnotes_apart([body, note], {1: 792}, BODY, rules=lambda page: [])
    assert note.kind == "paragraph"
    set_footnotes_apart([body, note], {1: 792}, BODY, rules=lambda page: [rule])
    assert note.kind == "aside"
    full = (72.0, 724.0, 290.0, 724.4)  # a table's bottom rule spans its column: no footnote rule
    note.kind = "paragraph"
    set_footnotes_apart([body, note], {1: 792}, BODY, rules=lambda page: [full])
    assert note.kind == "paragraph"


def test_the_footnote_rule_is_read_from_the_page(tmp_path: Path) -> None:
    """The rule read from a real page: the note's mark is printed nowhere in the body."""
    page = Canvas(612, 792)
    _page(page, MARKED, None, CUT, GOES_ON)
    page.rule(LEFT, 712, LEFT + 70, 712, 0.4)
    _column(page, LEFT, 723, "7" + NOTE_TEXT, NOTE)
    assert not any("name of a bird" in text for text in _paragraphs(_parse(tmp_path, [page])))
