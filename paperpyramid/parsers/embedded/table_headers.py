"""A header of two levels whose other labels sit in the middle of both: "Number (percentage)"
centred over "Disagree", "Indifferent" and "Agree", with "Variables" set halfway down beside them
(Hindawi's tables, and most typesetters' when a header cell spans two header rows).

The middle labels overlap the line over them and the line under them, so the printed rows chain
into one row and the spanning label lands in whichever column its middle falls in. The header is
two rows, as it is marked up: the spanning label and the middle labels in the first (the label in
the first column of the ones it spans), the labels it spans, and what shares their line, in the
second.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from itertools import takewhile
from typing import TYPE_CHECKING

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_columns import column_of
from paperpyramid.parsers.embedded.table_row_joins import PrintedRow

if TYPE_CHECKING:
    from paperpyramid.parsers.embedded.table_engine import Rule

__all__ = ["two_level_header"]

# a value (a count, a dose) is no label spanning others
_VALUE = re.compile(r"^\(?(?:[-+−–<>≤≥]\s?)?\(?\d|^(?:NA|N/A|NR|ND|–|-|—)$")
# a spanning label's middle lies this close to the middle of the labels it spans (share of their width, or points)
_CENTRED = 0.04
_CENTRED_PT = 6.0
# pieces of a label's line this close (a share of its size) are one phrase
_WORD_GAP = 0.6
# the header lies in this many printed rows at most, over a rule across this share of the table
_HEADER_ROWS = 4
_ACROSS = 0.8


def two_level_header(rows: list[PrintedRow], edges: Sequence[float], rules: Sequence[Rule]) -> list[PrintedRow]:
    """``rows`` with a header of two levels (see the module) as two printed rows, the second one
    ``alone`` (never joined to the first); ``rows`` as they were where there is none. The header is
    the rows over the first rule across the table under its first row (``rules``: the table's
    horizontal rules); a table without one is left as it is."""
    if not rows:
        return rows
    width = max(line.x1 for row in rows for line in row.lines) - min(line.x0 for row in rows for line in row.lines)
    ruled = [rule.y for rule in rules if rule.x1 - rule.x0 >= _ACROSS * width and rule.y > rows[0].bottom - 1]
    if not ruled:
        return rows
    heads = list(takewhile(lambda row: row.bottom <= min(ruled) + 1, rows[:_HEADER_ROWS]))
    stub = min(column_of(line, edges) for row in rows for line in row.lines)
    lines = [line for row in heads for line in row.lines]
    spans = [(label, spanned) for label in lines if (spanned := _spanned(label, lines, edges, stub))]
    if not spans:
        return rows
    under = min(line.top for _, spanned in spans for line in spanned)
    floor = max(line.bottom for _, spanned in spans for line in spanned)
    above = [line for line in lines if line.top < under - 0.5]
    band = [line for line in lines if under - 0.5 <= line.top < floor - 0.5]
    # each spanning label with the lines it wraps onto, moved to the first column it spans
    cells = {id(line): column_of(spanned[0], edges) for label, spanned in spans for line in _cell(label, above)}
    labels = [line for line in above if id(line) in cells]
    lowest = min(label.bottom for label, _ in spans)
    if not any(id(line) not in cells and line.bottom > lowest + 0.5 for line in above):
        return rows  # no label set in the middle of both: the header's rows do not chain, and are read as printed
    # the second line of another label of the upper line stays with it ("Vehicle" over "control (DMSO)")
    seconds = [line for line in band if any(other.x0 < line.x1 and other.x1 > line.x0 for other in above if id(other) not in cells)]
    upper = [replace(line, x0=edges[cells[id(line)]] + 1.5, parts=None) if id(line) in cells else line for line in [*above, *seconds]]
    lower = [line for line in band if not any(line is second for second in seconds)]
    taken = {id(line) for line in [*above, *band, *labels]}
    rest = [PrintedRow(row.top, row.bottom, kept) for row in heads if (kept := [line for line in row.lines if id(line) not in taken])]
    top = min(line.top for line in upper)
    return [PrintedRow(top, under, upper), PrintedRow(under, floor, lower, alone=True), *rest, *rows[len(heads) :]]


def _cell(label: Line, above: Sequence[Line]) -> list[Line]:
    """A spanning label and the lines it wraps onto under it ("Percent" over "body weight" over
    "gain"), each under the one before, overlapping it, with the pieces of its line the engine cut
    apart (:func:`_phrase`)."""
    cell = list(_phrase(label, above))
    for line in sorted(above, key=lambda line: line.top):
        last = cell[-1]
        if line.top > last.top + 0.5 and line.top - last.bottom < 0.6 * last.height and line.x0 < last.x1 and line.x1 > last.x0:
            cell.append(line)
    return cell


def _spanned(label: Line, lines: Sequence[Line], edges: Sequence[float], stub: int) -> list[Line]:
    """The labels ``label`` is centred over: two or more side by side on the first line under it, in
    two columns or more (not the pieces of one label), under no other label of the upper line, their
    middle where its middle is and their span holding it, the widest such run; empty where there is
    none, or where that line has a label in the first column (a row of the body)."""
    if _VALUE.match(label.text):
        return []
    phrase = _phrase(label, lines)
    if phrase[0] is not label:
        return []  # the phrase's first piece speaks for it
    label = replace(label, x1=phrase[-1].x1)
    below = [line for line in lines if line.top >= label.bottom - 0.2 * label.height]
    if len(below) < 2:
        return []
    top = min(line.top for line in below)
    line_under = sorted((line for line in below if line.top < top + 0.5 * line.height), key=lambda line: line.x0)
    if any(column_of(line, edges) == stub for line in line_under):
        return []
    # a line under another label of the upper line is that label's own second line ("Vehicle" over "control")
    over = [line for line in lines if not any(line is piece for piece in phrase) and line.top < top - 0.5]
    line_under = [line for line in line_under if not any(other.x0 < line.x1 and other.x1 > line.x0 for other in over)]
    centre = (label.x0 + label.x1) / 2
    best: list[Line] = []
    for start in range(len(line_under)):
        for stop in range(start + 2, len(line_under) + 1):
            run = line_under[start:stop]
            x0, x1 = run[0].x0, run[-1].x1
            centred = abs((x0 + x1) / 2 - centre) <= max(_CENTRED_PT, _CENTRED * (x1 - x0))
            columns = len({column_of(line, edges) for line in run})
            if centred and columns >= 2 and x0 - 2 <= label.x0 and label.x1 <= x1 + 2 and len(run) > len(best):
                best = run
    return best


def _phrase(label: Line, lines: Sequence[Line]) -> list[Line]:
    """The pieces of the label's line that go on from one another with no more than a word's
    space between them, left to right: "Univariate" and "regression analysis", cut apart where
    the engine cut the line at a gap a little wider than its other spaces."""
    row = sorted((line for line in lines if abs(line.top - label.top) < 0.5), key=lambda line: line.x0)
    index = next(index for index, line in enumerate(row) if line is label)
    start = stop = index
    while start > 0 and row[start].x0 - row[start - 1].x1 < _WORD_GAP * label.size:
        start -= 1
    while stop + 1 < len(row) and row[stop + 1].x0 - row[stop].x1 < _WORD_GAP * label.size:
        stop += 1
    return row[start : stop + 1]
