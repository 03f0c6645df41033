"""A table of contents in two columns (doRNG's vignette, multitoc; unseen batch 16) whose second column
is read after the first section's heading, printed under both columns: the second column's entries
are contents too, not headings ("5.1 Nested loops . . . 10" read as a section), and the heading
between the columns stays the section it opens."""

from __future__ import annotations

from paperpyramid.parsers.embedded.contents import set_aside_contents
from tests.block_builders import Stack, whole_title

PROSE = "Research reproducibility is an issue of concern, e.g. in bioinformatics, where analyses are run many times."
_block = Stack(size=10.0, font="CMR10", heading=whole_title).block


def test_a_second_column_of_contents_read_after_the_first_heading_is_contents() -> None:
    label = _block("Contents", "heading", bold=True)
    first = [_block("Introduction . . . . . . . . 1"), _block("1 The operator . . . . . . . . 3"), _block("2 Parallel loops . . . . . . 7")]
    heading = _block("Introduction", "heading", size=14, bold=True)
    # the column's first entry without leaders, then entries the layout step read as one block
    second = [_block("5 Nested and conditional loops . 10", "heading", bold=True)]
    second += [_block("5.1 Nested loops . . . . . . . 10 5.2 Conditional loops . . . . . . 11", lines=2)]
    second += [_block("6 Performance overhead . . . . . 13"), _block("7 Known issues . . . . . . . . . 14")]
    prose = _block(PROSE, lines=3)
    set_aside_contents([label, *first, heading, *second, prose])
    assert all(block.kind == "furniture" for block in [label, *first, *second])
    assert heading.kind == "heading" and prose.kind == "paragraph"


def test_a_heading_over_its_prose_after_the_contents_takes_nothing_after_it() -> None:
    label = _block("Contents", "heading", bold=True)
    first = [_block("1 Introduction . . . . . . . . 1"), _block("2 Methods . . . . . . . . 3")]
    heading = _block("1 Introduction", "heading", size=14, bold=True)
    after = [_block(PROSE, lines=3), _block("Figure 1 . . . . . . . . see below"), _block(PROSE, lines=2)]
    set_aside_contents([label, *first, heading, *after])
    assert heading.kind == "heading" and [block.kind for block in after] == ["paragraph", "paragraph", "paragraph"]
