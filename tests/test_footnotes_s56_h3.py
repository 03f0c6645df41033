"""A footnote's mark cut off into a block of its own goes aside with its note only
(:mod:`paperpyramid.parsers.embedded.footnotes`): beside small print that is no footnote, the
number stays where it was read."""

from __future__ import annotations

from dataclasses import replace

from paperpyramid.parsers.embedded.footnotes import set_footnotes_apart
from tests.block_builders import Stack

BODY, NOTE = 10.0, 8.2
_BODY_TYPE = Stack(page=1, step=BODY * 1.2, size=BODY, font="Times-Roman", width=lambda text: 218, indent=4)
_body, _note = _BODY_TYPE.block, replace(_BODY_TYPE, step=NOTE * 1.2, size=NOTE).block
BODY_LINES = ["The corpus holds papers of many fields, from physics to medicine,", "and the links between them, as the next section shows"]


def _mark_and_note(body_text: str) -> tuple[str, str]:
    """The kinds of a number read as a block of its own and of the small print right of it on its
    baseline, at the foot of a page whose body ends in ``body_text``."""
    body = _body([*BODY_LINES, body_text], top=600.0)
    mark = _note("3", top=728.0, x0=84, x1=88.0, size=5.6)
    note = _note("the output of the model, set in the small type of a listing under the text", top=730.0, x0=86)
    note.lines[0].x0 = 90.0
    set_footnotes_apart([body, mark, note], {1: 792}, BODY)
    return mark.kind, note.kind


def test_a_cut_off_mark_goes_aside_with_its_note() -> None:
    assert _mark_and_note("as the corpus3 shows.") == ("aside", "aside")


def test_a_cut_off_number_beside_small_print_that_is_no_note_stays() -> None:
    """The body carries no mark 3 and no rule heads the small print: no footnote, and the number
    before it is not set aside either."""
    assert _mark_and_note("as the corpus shows.") == ("paragraph", "paragraph")
