"""Subtables stacked under one caption: "Table 2" over a part "(a)" and a part "(b)", each with its
own header and columns (Hindawi, Elsevier and Springer set a table too wide for the page as two
parts this way). Read as one grid, the parts' columns mix and every row comes out wrong.

A part opens with its mark alone on its line ("(a)", "(b)", "(A)", "Panel A"), set over the part's
header. Where two marks or more stand in a table's region, each part is a table of its own: the
region from under its mark down to the next mark (the last part: to the region's end). The
caption's table is the first part; the others are stored beside it, labelled with their marks
as JATS labels a ``<table-wrap>`` in its ``<table-wrap-group>`` ("Table 2 (b)").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from paperpyramid.parsers.embedded.layout import Line

__all__ = ["first_part", "parts"]

#: a part's mark: a letter in brackets, or "Panel A"
_MARK = re.compile(r"^(?:\([a-hA-H]\)|[a-hA-H]\)|Panel [A-H])$")

BBox = tuple[float, float, float, float]


def first_part(lines: Sequence[Line], region: BBox) -> BBox:
    """``region`` cut to its first part where marks of two parts or more stand in it, each alone
    on its line, the first over every other line of the region; ``region`` itself otherwise."""
    return parts(lines, region)[0][1]


def parts(lines: Sequence[Line], region: BBox) -> list[tuple[str, BBox]]:
    """Each part's mark and box where marks of two parts or more stand in ``region``, each alone
    on its line, the first over every other line of the region; otherwise ``region`` itself,
    without a mark."""
    x0, top, x1, bottom = region
    inside = [
        line
        for line in lines
        if not line.vertical and x0 <= (line.x0 + line.x1) / 2 <= x1 and top <= line.top and line.bottom <= bottom + 1
    ]
    marks = sorted((line for line in inside if _MARK.match(line.text.strip()) and _alone(line, inside)), key=lambda line: line.top)
    if len(marks) < 2 or any(line.bottom <= marks[0].top + 0.5 for line in inside if line is not marks[0]):
        return [("", region)]
    ends = [mark.top - 0.5 for mark in marks[1:]] + [bottom]
    return [(mark.text.strip(), (x0, mark.bottom + 0.5, x1, end)) for mark, end in zip(marks, ends, strict=True)]


def _alone(mark: Line, lines: Sequence[Line]) -> bool:
    """Whether no other line shares the mark's band (a cell "(a)" has its row beside it)."""
    return not any(line is not mark and line.top < mark.bottom and line.bottom > mark.top for line in lines)
