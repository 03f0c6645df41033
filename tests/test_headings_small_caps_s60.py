"""Unnumbered headings in a small-capitals face at the body's size, and italic labels that end in a
colon (the EuroTeX 2001 DCpic paper of unseen batch 16: "Constructing Commutative Diagrams",
"Examples" and "DCpic compared" set centred in CMCSC10 over CMR10 body text were set aside as small
print; a description list's "Equaliser, and a 3-Category:" in italics was read as a heading)."""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block, heading_parts
from paperpyramid.parsers.embedded.layout import Line


def _line(text: str, *, size: float, height: float, font: str, italic: bool = False) -> Line:
    """One line as the layout reads it: ``size`` the glyphs' measured size, ``height`` the line's."""
    return Line(
        text=text,
        page=2,
        x0=200.0,
        top=300.0,
        x1=200.0 + 4.5 * len(text),
        bottom=300.0 + height,
        size=size,
        bold=False,
        italic=italic,
        font=font,
    )


def test_a_small_capitals_heading_at_the_body_size_is_a_heading() -> None:
    # CMCSC10's small capitals measure 5.1 pt and their line 7.2 against a body of 9.0
    block = Block([_line("Constructing Commutative Diagrams", size=5.1, height=7.23, font="CMCSC10")])
    assert heading_parts(block, 9.0, "CMR10") == (None, "Constructing Commutative Diagrams")
    examples = Block([_line("Examples", size=5.1, height=6.9, font="CMCSC10")])
    assert heading_parts(examples, 9.0, "CMR10") == (None, "Examples")


def test_small_print_in_small_capitals_stays_small() -> None:
    """A line in small capitals whose line is well under the body's (a footnote's, a caption's
    credit at 6 pt) is no heading."""
    block = Block([_line("Photograph by the author", size=3.9, height=5.6, font="CMCSC10")])
    assert heading_parts(block, 9.0, "CMR10") is None


def test_an_italic_label_that_ends_in_a_colon_is_no_heading() -> None:
    for text in ("Equaliser, and a 3-Category:", "A 3-Category:"):
        block = Block([_line(text, size=8.8, height=9.1, font="CMTI10", italic=True)])
        assert heading_parts(block, 9.0, "CMR10") is None
    # an italic heading without the colon stays one
    heading = Block([_line("The Easy Ones", size=8.8, height=9.1, font="CMTI10", italic=True)])
    assert heading_parts(heading, 9.0, "CMR10") == (None, "The Easy Ones")
