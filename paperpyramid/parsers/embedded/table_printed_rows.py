"""A table's printed rows: its lines set side by side, and the text of a row's cells.

The first step of reading a table by its columns (:mod:`.table_engine`): lines that share a
band are one printed row (:func:`printed_rows`); the joins of printed rows into table rows
(:mod:`.table_row_joins`, :mod:`.table_ruled_bands`) and the header's cells
(:mod:`.table_headers`) work on these rows, and :func:`row_cells` reads a row's text per column.
The few predicates every join asks of a printed row (the columns it fills, whether it holds
values) live here, so that they read a row one way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from paperpyramid.parsers.embedded.blocks import join_lines
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_columns import column_of

__all__ = ["GOES_ON", "VALUE", "PrintedRow", "mostly_values", "printed_rows", "row_cells", "row_columns", "spans_table"]

# a line that goes on with a word in lower case: the lines of a cell wrapped over lines, not a
# new entry; the word may be quoted or a code name in lower case ("as.data.frame()", "normalDB")
GOES_ON = re.compile(r"""^["“'‘]?[a-z][A-Za-z-]*(?:[._][A-Za-z]\w*)*(?:\(\))?["”'’]?[,;:.)]?(?:\s|$)""")
# a line this share of its height within another's is set on it (a script)
_WITHIN = 0.5
# a line this many times the usual line's height is a tall glyph's box, not a taller line
_TALL = 1.6
# the usual line's height is this far up the heights of the lines of words, low (a table of
# mathematics holds more cells with a radical, a sum or a fraction, tall, than of plain text)
_USUAL_SHARE = 0.25
# a line this much shorter than the usual one is a sub- or superscript, off its row's line
_SCRIPT = 0.85
# such a box starts or ends on a row's line when within this share of the usual line's height of a usual line's top or bottom
_ON_ROW = 0.25
# a line overlapping a printed row by this share of its height widens the row's band
_WIDENS = 0.75
# a group's heading is centred on the table within this share of its width, and narrower than this share
_CENTRED = 0.03
_NARROWER = 0.8
_HEADING = re.compile(r"[^\W\d_]{3,}")
_WORD = re.compile(r"\w\w")
# a cell that opens with a value ("1.67 ± 1.53", "< 0.001", "−1243.5 mV", "(−20–100)", "NA")
VALUE = re.compile(r"^\(?(?:[-+−–<>≤≥]\s?)?\(?\d|^(?:NA|N/A|NR|ND|–|-|—)$")


@dataclass(slots=True)
class PrintedRow:
    """Lines set side by side, between ``top`` and ``bottom``: a printed row, then a table row."""

    top: float
    bottom: float
    lines: list[Line] = field(default_factory=list)
    #: a row of a group whose label, set across it and the row above, went to the row above:
    #: a row of its own, never the row above wrapped
    alone: bool = False

    @property
    def height(self) -> float:
        return self.bottom - self.top


def row_cells(row: PrintedRow, edges: Sequence[float], *, heading: bool = False, first: int = 0) -> list[str]:
    """A row's text per column, each cell's lines joined in reading order; a ``heading`` row
    (:func:`spans_table`) has its text in the ``first`` column, as a cell spanning columns keeps
    its text in its first."""
    parts: list[list[str]] = [[] for _ in range(len(edges) - 1)]
    ordered = _reading_order(row.lines)
    for line in ordered:
        parts[column_of(line, edges)].append(line.text)
    if heading:
        parts = [[] for _ in parts]
        parts[first] = [line.text for line in ordered]
    return [join_lines(texts) for texts in parts]


def _reading_order(lines: Sequence[Line]) -> list[Line]:
    """Lines top to bottom, and left to right within one printed line: a line set mostly within
    the height of the first line of a printed line (a superscript or subscript the reading cut
    off with its number, "\\G{⟨letter⟩}" then "1" raised after it; a footnote's mark) reads
    after what stands left of it, though its top is higher."""
    placed: list[tuple[float, float, list[Line]]] = []  # each printed line's band and its lines
    for line in sorted(lines, key=lambda line: (round(line.top), line.x0)):
        for top, bottom, members in placed:
            if min(bottom, line.bottom) - max(top, line.top) >= _WITHIN * line.height:
                members.append(line)
                break
        else:
            placed.append((line.top, line.bottom, [line]))
    placed.sort(key=lambda band: band[0])
    return [line for _, _, members in placed for line in sorted(members, key=lambda line: line.x0)]


def spans_table(row: PrintedRow, rows: Sequence[PrintedRow], edges: Sequence[float]) -> bool:
    """Whether ``row`` is the heading of a group of rows set centred across the table: words on
    one line (pieces of it no further apart than a quarter of its width), centred on the text
    of the table's ``rows`` and narrower than it, starting where no other line of its column
    starts (a cell's line wrapped there starts at the column's edge)."""
    lines = sorted(row.lines, key=lambda line: line.x0)
    if not lines or max(line.top for line in lines) - min(line.top for line in lines) > 1:
        return False
    left = min(line.x0 for other in rows for line in other.lines)
    right = max(line.x1 for other in rows for line in other.lines)
    x0, x1 = lines[0].x0, max(line.x1 for line in lines)
    centred = abs((x0 + x1) / 2 - (left + right) / 2) <= _CENTRED * (right - left) and x1 - x0 <= _NARROWER * (right - left)
    apart = any(b.x0 - a.x1 > 0.25 * (x1 - x0) for a, b in zip(lines, lines[1:], strict=False))
    column = column_of(lines[0], edges)
    aligned = any(abs(line.x0 - x0) <= 3 for other in rows if other is not row for line in other.lines if column_of(line, edges) == column)
    words = " ".join(line.text for line in lines)
    return centred and not apart and not aligned and _HEADING.search(words) is not None and VALUE.match(words) is None


def printed_rows(lines: Sequence[Line], *, chain: bool = False) -> list[PrintedRow]:
    """Lines into printed rows: a line belongs to the row whose band it overlaps by half. Only a
    line that lies mostly in the band widens the band lines are matched against: a row label
    set midway between two rows (one label for a "−S9" and a "+S9" row) joins the first and
    does not pull the second in (the row still reaches down to the label's bottom). With
    ``chain`` every line widens its row's band (the bands overlapping lines chain into)."""
    rows: list[PrintedRow] = []
    band = 0.0  # the bottom of the last row's band
    spans = _spans(lines)
    for line, (top, bottom) in sorted(zip(lines, spans, strict=True), key=lambda item: (item[1][0], item[0].x0)):
        row = rows[-1] if rows else None
        overlap = 0.0 if row is None else min(band, bottom) - max(row.top, top)
        if row is not None and overlap >= 0.5 * min(band - row.top, bottom - top):
            row.lines.append(line)
            row.bottom = max(row.bottom, bottom)
            if chain or overlap >= _WIDENS * (bottom - top):
                band = max(band, bottom)
        else:
            rows.append(PrintedRow(top, bottom, [line]))
            band = bottom
    return rows


def _spans(lines: Sequence[Line]) -> list[tuple[float, float]]:
    """Each line's top and bottom as its row sees them: a line whose box is far taller than the
    usual line's and starts where a line of usual height starts (a symbol font's loose box, a
    minus sign's in "n − 1", reaching into the row below) is taken as tall as the usual line,
    down from its top; one that ends where a line of usual height or of words ends (a radical
    "√" set in a cell, its box reaching into the row above, its bottom on its row's), up from
    its bottom. The usual line is that of words (a table of "√" marks holds more of them than
    of words), low among them (a table of mathematics holds more tall cells than plain ones),
    and a sub- or superscript is none; a big delimiter, centred on the mathematics it closes,
    ends on no row's line."""
    if not lines:
        return []
    worded = sorted(line.height for line in lines if _WORD.search(line.text)) or sorted(line.height for line in lines)
    usual = worded[int(_USUAL_SHARE * (len(worded) - 1))]
    plain = [line for line in lines if _SCRIPT * usual <= line.height <= _TALL * usual]
    tops = [line.top for line in plain]
    bottoms = [line.bottom for line in plain] + [line.bottom for line in lines if _WORD.search(line.text)]
    spans = []
    for line in lines:
        tall = line.height > _TALL * usual
        if tall and any(abs(line.top - top) <= _ON_ROW * usual for top in tops):
            spans.append((line.top, line.top + usual))
        elif tall and any(abs(line.bottom - bottom) <= _ON_ROW * usual for bottom in bottoms):
            spans.append((line.bottom - usual, line.bottom))
        else:
            spans.append((line.top, line.bottom))
    return spans


def row_columns(row: PrintedRow, edges: Sequence[float]) -> set[int]:
    """The columns a printed row fills."""
    return {column_of(line, edges) for line in row.lines}


def mostly_values(row: PrintedRow) -> bool:
    """Whether most of a printed row's cells are values (numbers, "NA")."""
    return 2 * sum(1 for line in row.lines if VALUE.match(line.text)) >= len(row.lines)
