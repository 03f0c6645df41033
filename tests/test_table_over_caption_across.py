"""A table across the page over its centred caption
(:func:`paperpyramid.parsers.embedded.table_region.hugs_lines_above`).

An IMAC paper's table of macros (a ``table*`` over a two-column page, unruled): its last row
holds one cell, the second column's, which ends left of the centred caption under it. The
caption sits closer under that row than over the two columns of text under the float, so the
table is the one over the caption, not the text under it. The words are invented, the
coordinates the paper's."""

from __future__ import annotations

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_region import hugs_lines_above


def _line(text: str, x0: float, top: float, x1: float, bottom: float) -> Line:
    return Line(text, 2, x0, top, x1, bottom, 8.0, False, False, "")


_LINES = [
    _line("[P]", 60.0, 118.5, 78.3, 127.4),
    _line("\\pick{y}", 152.3, 119.0, 194.7, 127.2),
    _line("q-sum of {y}", 416.2, 118.5, 471.8, 127.4),
    _line("\\open{grid}", 152.3, 128.5, 222.9, 136.8),
    _line("\\cell{P}_{21}&:&\\cell{P}_{22}", 152.3, 161.4, 288.8, 169.6),
    _line("\\close{grid}", 152.3, 172.3, 213.5, 180.5),
    _line("TABLE 1: Listed commands", 251.5, 200.0, 360.5, 208.2),
    _line("Once a drawing stood here", 117.3, 237.7, 233.7, 246.2),
    _line("THANKS", 315.0, 237.9, 416.0, 246.0),
    _line("Mind that for the thanks you need to use the words", 315.0, 262.2, 558.0, 270.7),
]
_CAPTION = (251.5, 200.0, 360.5, 208.2)


def test_a_table_across_the_page_hugs_its_centred_caption() -> None:
    assert hugs_lines_above(_LINES, (0.0, 208.7, 595.3, 271.2), _CAPTION)


def test_a_column_regions_caption_over_its_table_does_not_hug_a_line_left_of_it() -> None:
    """A two-column page: a table under its caption in the left column, a display's short line
    close over the caption and left of it. The column's region is no table across the page, so
    that line is no row of a table over the caption: the table is the one under it."""
    lines = [
        _line("The cost of each item follows from the rates that the earlier", 57.0, 90.0, 290.0, 98.0),
        _line("x = 3", 57.0, 140.0, 90.0, 147.0),
        _line("Table 2: Costs", 150.0, 150.0, 205.0, 158.0),
        _line("Item", 80.0, 163.0, 100.0, 171.0),
        _line("Cost", 220.0, 163.0, 240.0, 171.0),
        _line("Rent", 80.0, 174.0, 100.0, 182.0),
        _line("120", 225.0, 174.0, 240.0, 182.0),
        _line("In the right column the text goes on with the rates of the", 310.0, 90.0, 540.0, 98.0),
        _line("other items and the costs that they bring over the years", 310.0, 101.0, 540.0, 109.0),
    ]
    assert not hugs_lines_above(lines, (0.0, 158.5, 297.6, 183.0), (150.0, 150.0, 205.0, 158.0))
