"""A band between two rules as one table row: the lines of cells wrapped over many lines, set
at the leading of the text, in a table ruled between its body rows.

Where a table rules its rows apart, the gaps between printed lines do not tell a wrapped cell
from the next row (:mod:`.table_row_joins` joins by gaps and pitches first); the rules do. Kept
apart from those joins because it reads the rules, and a band's first cell, alone.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING

from paperpyramid.parsers.embedded.table_columns import column_of
from paperpyramid.parsers.embedded.table_printed_rows import GOES_ON, PrintedRow, mostly_values, row_columns

if TYPE_CHECKING:
    from paperpyramid.parsers.embedded.table_rules import Rule

__all__ = ["join_ruled_bands"]

# a column lists names where this many lines of a band each hold one
_LISTED = 3
# bands under the header, each opening with one first cell, that tell a table ruled under every row
_EACH_RULED = 3
# a rule between rows runs this far past a column's edge at least
_PAST_EDGE = 2.0


def join_ruled_bands(rows: list[PrintedRow], rules: Sequence[Rule], edges: Sequence[float]) -> list[PrintedRow]:
    """One row per band between two rules, in a table ruled between its body rows, where the
    band's lines are the lines of cells wrapped over many lines set at the leading of text (so
    the gaps do not tell rows apart): most of the band's lines leave the first column empty,
    and those that fill it are its top lines (one first cell, wrapped: a band of rows opens
    each row with a first cell of its own), or its middle ones where that cell is set in the
    middle of the row (``_centred_first_cell``, where two printed rows are enough: the lines under
    the label may have joined it); a quarter of its lines under the first go on with a word in
    lower case (where rows of a group under one label open each with a name or a code); and,
    unless its first cell is centred, none fills every column of the band's first line but the
    first with values (the next row of a group under its label). Where the only rule between
    rows is the header's, only the header band can be one row. A table that rules every body row
    apart (three bands or more under the header, each opening with one first cell) makes each
    band one row however few its lines, and however they open ("4 and Euler as special cases)"
    under "using Runge-Kutta methods; includes Runge-Kutta", deSolve's solvers): a line of values
    there is no row of a group, whose rows such a table would rule apart too. A rule parts rows
    where it runs across a column's edge: a fraction's bar in a cell (:func:`_across_columns`) does not."""

    across = [rule for rule in rules if _across_columns(rule, edges)]

    def ruled(above: PrintedRow, row: PrintedRow) -> bool:
        return any(above.bottom - 1 <= rule.y <= row.top + 1 for rule in across)

    breaks = [index for index in range(1, len(rows)) if ruled(rows[index - 1], rows[index])]
    if not breaks:
        return rows
    first = min(column for row in rows for column in row_columns(row, edges))
    over = any(rule.y <= rows[0].top + 1 for rule in across)
    under = any(rule.y >= rows[-1].bottom - 1 for rule in across)
    bands = list(zip([0, *breaks], [*breaks, len(rows)], strict=True))
    # every body row ruled apart: each band under the header opens with one first cell
    leading = [sum(1 for row in rows[start:end] if first in row_columns(row, edges)) for start, end in bands[1:]]
    each_ruled = len(leading) >= _EACH_RULED and all(count == 1 for count in leading)
    joined: list[PrintedRow] = []
    for start, end in bands:
        band = rows[start:end]
        closed = (start > 0 or over) and (end < len(rows) or under) and (len(breaks) >= 2 or start == 0)
        leads = sum(1 for row in band if first in row_columns(row, edges))
        centred = _centred_first_cell(band, edges, first)
        one_first_cell = centred or all(first in row_columns(row, edges) for row in band[:leads])
        heads = row_columns(band[0], edges) - {first}
        grouped = not centred and any(heads and row_columns(row, edges) >= heads and mostly_values(row) for row in band[1:])
        later = [line for row in band[1:] for line in row.lines]
        goes_on = 4 * sum(1 for line in later if GOES_ON.match(line.text)) >= len(later)
        lines_of_rows = (len(band) >= 3 or centred) and 2 * leads <= len(band) and goes_on
        if closed and one_first_cell and ((lines_of_rows and not grouped) or (each_ruled and start > 0 and len(band) >= 2)):
            names = _names_column(band, edges, first) if start > 0 else None
            joined += _band_rows(band, edges) if names is None else _rows_by_names(band, edges, names)
        else:
            joined += band
    return joined


def _across_columns(rule: Rule, edges: Sequence[float]) -> bool:
    """Whether a rule runs across a column's edge: a rule between rows does, a fraction's bar in a
    cell (a formula set in a cell of descriptions) does not."""
    return any(rule.x0 < edge - _PAST_EDGE and rule.x1 > edge + _PAST_EDGE for edge in edges[1:-1])


def _names_column(band: Sequence[PrintedRow], edges: Sequence[float], first: int) -> int | None:
    """A column after the first that lists a name on three printed rows of a body band or more,
    every line of it one token (R's functions, "labeling_border()" over "labeling_cboxed()";
    methods, codes): a name is never wrapped over lines, so each opens a row of the group under
    the band's label, however many of their descriptions open in lower case; ``None`` where none
    does."""
    columns: dict[int, list[str]] = {}
    for row in band:
        for line in row.lines:
            column = column_of(line, edges)
            if column != first:
                columns.setdefault(column, []).append(line.text)
    listed = [column for column, texts in columns.items() if len(texts) >= _LISTED and all(len(text.split()) == 1 for text in texts)]
    return min(listed) if listed else None


def _rows_by_names(band: Sequence[PrintedRow], edges: Sequence[float], names: int) -> list[PrintedRow]:
    """The band's rows, one per name in its ``names`` column (:func:`_names_column`): a printed
    row without one goes on with the row above (a description wrapped, or broken over lines)."""
    rows: list[PrintedRow] = []
    for row in band:
        if rows and names not in row_columns(row, edges):
            rows[-1].lines += row.lines
            rows[-1].bottom = max(rows[-1].bottom, row.bottom)
        else:
            rows.append(PrintedRow(row.top, row.bottom, list(row.lines)))
    return rows


def _band_rows(band: Sequence[PrintedRow], edges: Sequence[float]) -> list[PrintedRow]:
    """The band's rows: one, where every column's lines follow one another (a row's cells each
    fill their column from one line to the next, however many lines they wrap over); where a
    column resumes after printed rows it leaves empty, a new cell opens there ("ML", then
    "quasi" three lines down, beside a description wrapped over them) and the band holds
    several rows, ruled only between their groups: a printed row that fills a column the one
    above leaves empty opens the next, and the others go on with the row above."""
    filled: dict[int, list[int]] = {}
    for index, row in enumerate(band):
        for column in row_columns(row, edges):
            filled.setdefault(column, []).append(index)
    if all(indices[-1] - indices[0] + 1 == len(indices) for indices in filled.values()):
        return [PrintedRow(band[0].top, max(row.bottom for row in band), [line for row in band for line in row.lines])]
    rows = [PrintedRow(band[0].top, band[0].bottom, list(band[0].lines))]
    for above, row in zip(band, band[1:], strict=False):
        if row_columns(row, edges) - _last_line_columns(above, edges):
            rows.append(PrintedRow(row.top, row.bottom, list(row.lines)))
        else:
            rows[-1].lines += row.lines
            rows[-1].bottom = max(rows[-1].bottom, row.bottom)
    return rows


def _last_line_columns(row: PrintedRow, edges: Sequence[float]) -> set[int]:
    """The columns a printed row's lowest line fills (a row joined from wrapped lines already)."""
    lowest = max(line.top for line in row.lines)
    return {column_of(line, edges) for line in row.lines if line.top >= lowest - 0.5 * line.height}


def _centred_first_cell(band: Sequence[PrintedRow], edges: Sequence[float], first: int) -> bool:
    """Whether a band's first cell is set in the middle of its height (a row whose cells are
    centred on their row, the longest wrapped over more lines than the first): the printed rows
    that fill the first column follow one another, their lines' middle lies within half a line
    of the band's, and every other printed row fills only some of the columns they fill, each of
    its lines over one column of theirs (the other lines of wrapped cells, not the rows of a
    group beside a centred label, nor a label spanning the labels under it in a header of two
    levels)."""
    leading = [index for index, row in enumerate(band) if first in row_columns(row, edges)]
    if not leading or leading != list(range(leading[0], leading[-1] + 1)):
        return False
    labels = [line for index in leading for line in band[index].lines if column_of(line, edges) == first]
    middle = (min(line.top for line in labels) + max(line.bottom for line in labels)) / 2
    height = statistics.median(line.height for line in labels)
    if abs(middle - (band[0].top + band[-1].bottom) / 2) > height / 2:
        return False
    beside = set().union(*(row_columns(band[index], edges) for index in leading)) - {first}
    cells = [line for index in leading for line in band[index].lines]
    others = [row for index, row in enumerate(band) if index not in leading]
    spans = any(
        len({column_of(cell, edges) for cell in cells if cell.x0 < line.x1 and cell.x1 > line.x0}) >= 2
        for row in others
        for line in row.lines
    )
    return not spans and all(row_columns(row, edges) < beside for row in others)
