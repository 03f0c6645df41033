"""Where a table no rule closes ends: under the page's running head, over a wide gap.

The table engine (:mod:`.table_engine`) reads a table printed over its caption up from the
caption, and one under its caption down to the next caption or running text. A journal that
sets its running head low (JSS: two lines over the text) or a page whose text under the table
is too short to tell its margins (a heading and a short paragraph) would give the table the
running head's row or the heading's.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_printed_rows import printed_rows

__all__ = ["before_wide_gap", "running_head"]

#: x0, top, x1, bottom in points from the page's top-left corner
BBox = tuple[float, float, float, float]

# a gap this many rows' heights wide under a table no rule closes ends it, where a heading (type
# this much larger) or a line of running text (this many characters) follows
_WIDE_GAP = 2.0
_HEADING_SIZE = 1.1
_PROSE_LINE = 40
# a running head lies in this share of the page at its top; its page number is a number alone
_HEAD_BAND = 0.125
_FOLIO = re.compile(r"^\d{1,4}$")


def running_head(lines: Sequence[Line], page_bbox: BBox) -> float:
    """The bottom of the page's running head, where its topmost row is one (set in the page's top
    eighth, a page number alone at its left or right end, the next row a line's height or more
    under it: JSS sets "20 Linear Mixed Models with lme4" lower than most journals); the page's
    top otherwise. A table printed over its caption at the top of a page ends under it."""
    px0, ptop, px1, pbottom = page_bbox
    ordered = sorted((line for line in lines if not line.vertical), key=lambda line: line.top)
    if not ordered or ordered[0].top > ptop + _HEAD_BAND * (pbottom - ptop):
        return ptop
    first = ordered[0]
    row = sorted((line for line in ordered if line.top < first.bottom - 0.5 * first.height), key=lambda line: line.x0)
    rest = [line for line in ordered if not any(line is mine for mine in row)]
    bottom = max(line.bottom for line in row)
    numbered = any(_FOLIO.match(line.text.strip()) for line in (row[0], row[-1])) and len(row) >= 2
    if numbered and (not rest or rest[0].top - bottom >= first.height):
        return bottom
    return ptop


def before_wide_gap(inside: Sequence[Line]) -> float:
    """The bottom of a table no rule closes: its last row before a gap two rows' heights wide and
    three times its rows' usual spacing, three rows down or more, with a heading (a line alone in
    larger type) or running text (a long line) under it (the space a heading or a paragraph keeps
    from a float over it; a row of totals set off by a gap has cells); the last line's bottom
    where there is none."""
    rows = printed_rows(inside)
    gaps = [b.top - a.bottom for a, b in zip(rows, rows[1:], strict=False)]
    if len(gaps) >= 3:
        usual = statistics.median(max(gap, 0.0) for gap in gaps)
        height = statistics.median(row.height for row in rows)
        size = statistics.median(line.size for line in inside)
        for index, gap in enumerate(gaps[2:], 2):
            after = rows[index + 1].lines
            text = any(len(line.text) >= _PROSE_LINE for line in after) or (len(after) == 1 and after[0].size > _HEADING_SIZE * size)
            if gap > _WIDE_GAP * height and gap > 3 * usual and text:
                return rows[index].bottom
    return max(line.bottom for line in inside)
