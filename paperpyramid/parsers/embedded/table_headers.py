"""A table's header: its printed rows, its first row cut into cells, and a header of two levels.

:func:`header_rows` tells the header's printed rows (over the first row of values and the first
rule across the table), and :func:`header_cells` cuts a line of its first row into its cells: a
label spanning the labels under it is one cell, in the first of the columns it spans; a line set
across several columns is cut where its words fall into them.

:func:`two_level_header`: a header of two levels whose other labels sit in the middle of both: "Number (percentage)"
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

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_columns import column_of, words_text
from paperpyramid.parsers.embedded.table_printed_rows import PrintedRow
from paperpyramid.parsers.embedded.table_rules import Rule

__all__ = ["header_cells", "header_rows", "labels_over_gaps", "two_level_header"]

# a value (a count, a dose, a year): the body's, no label (nor one spanning others)
_VALUE = re.compile(r"^\(?(?:[-+−–<>≤≥]\s?)?\(?\d|^(?:NA|N/A|NR|ND|–|-|—)$")
# a spanning label's middle lies this close to the middle of the labels it spans (share of their width, or points)
_CENTRED = 0.04
_CENTRED_PT = 6.0
# pieces of a label's line this close (a share of its size) are one phrase
_WORD_GAP = 0.6
# the header lies in this many printed rows at most, over a rule across this share of the table
_HEADER_ROWS = 4
_ACROSS = 0.8
# a header label is a column's where that column holds this share of its width
_MOSTLY = 0.6


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


def labels_over_gaps(rows: list[PrintedRow], edges: Sequence[float], rules: Sequence[Rule], width: float) -> list[PrintedRow]:
    """``rows`` with a header whose upper labels each sit over the white between two columns'
    labels, centred on both (LaTeX's ``\\multicolumn{2}{c}``: "$D_{4h}^1$" over "1st alternative"
    and "2nd alternative", narrower than the gap it is centred in), as two printed rows: the
    upper labels, each in the first of its two columns (as a spanning cell is stored), and the
    labels under them ``alone`` (never joined to the row above). A label narrower than the white
    overlaps neither label under it, so :func:`header_cells` sees nothing it spans; its pieces
    (a symbol, its superscript, its subscript) lie on the gap's column edge and over two
    printed rows, which the row joins would merge into the labels' row. ``rows`` as they were
    unless every line over the header's last row is such a label. The header is the rows over
    the first rule across the table under its first row (a script, "4h", reads as a value)."""
    ruled = [rule.y for rule in rules if rule.x1 - rule.x0 >= _ACROSS * width and rows and rule.y > rows[0].bottom - 1]
    heads = list(takewhile(lambda row: row.bottom <= min(ruled) + 1, rows[:_HEADER_ROWS])) if ruled else []
    if len(heads) < 2:
        return rows
    labels, upper = heads[-1], [line for row in heads[:-1] for line in row.lines]
    if any(line.x0 < label.x1 and label.x0 < line.x1 for line in upper for label in labels.lines):
        return rows
    spans: dict[int, tuple[float, float]] = {}
    for label in labels.lines:
        column = column_of(label, edges)
        start, end = spans.get(column, (label.x0, label.x1))
        spans[column] = (min(start, label.x0), max(end, label.x1))
    order = sorted(spans)
    moved: list[Line] = []
    for piece in _pieces(upper):
        x0, x1 = piece[0].x0, max(line.x1 for line in piece)
        left = [column for column in order if spans[column][1] <= x0]
        right = [column for column in order if spans[column][0] >= x1]
        if not left or not right or order.index(right[0]) != order.index(left[-1]) + 1:
            return rows
        start, end = spans[left[-1]][0], spans[right[0]][1]
        if abs((x0 + x1) / 2 - (start + end) / 2) > max(_CENTRED_PT, _CENTRED * (end - start)):
            return rows
        shift = edges[left[-1]] + 1.5 - x0
        moved += [replace(line, x0=line.x0 + shift, x1=line.x1 + shift, parts=None, words=None) for line in piece]
    top, bottom = min(line.top for line in upper), max(line.bottom for line in upper)
    return [PrintedRow(top, bottom, moved), replace(labels, alone=True), *rows[len(heads) :]]


def _pieces(lines: Sequence[Line]) -> list[list[Line]]:
    """Lines into labels: pieces set side by side or stacked (a symbol and its scripts), no more
    than a word's space apart, left to right."""
    pieces: list[list[Line]] = []
    for line in sorted(lines, key=lambda line: line.x0):
        if pieces and line.x0 - max(other.x1 for other in pieces[-1]) < _WORD_GAP * line.size:
            pieces[-1].append(line)
        else:
            pieces.append([line])
    return pieces


def header_rows(rows: Sequence[PrintedRow], rules: Sequence[Rule], width: float) -> Sequence[PrintedRow]:
    """The printed rows of the header, as far as they tell: over the first row under the first
    holding a value and over the first rule across the table under the first row, three at most.
    The first row is the header's whatever it holds: a label's note mark ("Element 1" with its
    superscript "1", read "Element 11") or a year is no row of values."""
    end = next((index for index, row in enumerate(rows) if index and any(_VALUE.match(line.text) for line in row.lines)), len(rows))
    ruled = [rule.y for rule in rules if rule.x1 - rule.x0 >= 0.8 * width and rule.y > rows[0].bottom - 1] if rows else []
    if ruled:
        end = min(end, sum(1 for row in rows if row.top < min(ruled)))
    return rows[: min(end, 3)]


def header_cells(line: Line, row: Sequence[Line], heads: Sequence[Line], edges: Sequence[float], rules: Sequence[Rule]) -> list[Line]:
    """A line of the header's first row as its cells: a label set over two or more columns whose
    own labels sit under it in the header ("Mean age" over "PRF" and "Control") is one cell,
    in the first of them (as a spanning cell is stored); other lines are cut where their words
    fall into other columns (:func:`_split_header`). A rule just under the label, wider than
    it, shows the columns it spans; the label moves left only over columns no other label of
    its ``row`` holds."""
    x0, x1 = line.x0, line.x1
    middle, width = (x0 + x1) / 2, edges[-1] - edges[0]
    spans = [rule for rule in rules if line.bottom - 1 <= rule.y <= line.bottom + line.height and rule.x0 <= middle <= rule.x1]
    spans = [rule for rule in spans if rule.x1 - rule.x0 < 0.8 * width]  # not the rule under the whole header
    if spans:
        widest = max(spans, key=lambda rule: rule.x1 - rule.x0)
        x0, x1 = min(x0, widest.x0), max(x1, widest.x1)
    under = [other for other in heads if other.x0 < x1 and other.x1 > x0 and not _VALUE.match(other.text)]
    if len({column_of(other, edges) for other in under}) < 2:
        return _split_header(line, edges)
    first, mine = min(column_of(other, edges) for other in under), column_of(line, edges)
    # not past another label of the row (two groups' labels would share a cell)
    if mine <= first or any(other is not line and first <= column_of(other, edges) < mine for other in row):
        return [line]
    return [replace(line, x0=edges[first] + 1.5, parts=None)]


def _split_header(line: Line, edges: Sequence[float]) -> list[Line]:
    """A header line set across several columns ("CLS USR CITE REC Avg.") cut where its words
    fall into other columns (by the words' own edges, where the line has them). An edge that
    runs through a word cuts nothing: the label is wider than its column and runs on over the
    white beside it ("Abnormal preoperative labs (ng/mL)"); a label no edge cuts is the column's
    that holds most of it (:func:`_most_in`)."""
    if not line.words:
        return [line]
    through = {x for x in edges[1:-1] if any(x0 + 1 < x < x1 - 1 for _, x0, x1 in line.words)}
    kept = [x for x in edges if x not in through]
    inner = [x for x in kept[1:-1] if line.x0 + 2 < x < line.x1 - 2]
    if not inner:
        return [_most_in(line, edges)] if through else [line]
    groups: list[list[tuple[str, float, float]]] = []
    for word in line.words:
        if groups and column_of(replace(line, x0=word[1]), kept) == column_of(replace(line, x0=groups[-1][-1][1]), kept):
            groups[-1].append(word)
        else:
            groups.append([word])
    return [replace(line, text=words_text(group), x0=group[0][1], x1=group[-1][2], words=group, parts=None) for group in groups]


def _most_in(label: Line, edges: Sequence[float]) -> Line:
    """A header label across a column edge, moved to the column that holds :data:`_MOSTLY` of
    its width (as :func:`column_of` reads it: by its left edge): a label set flush right over a
    column of numbers starts left of it. A label spread over several columns stays in the
    first, as a spanning cell is stored."""
    widths = [min(label.x1, right) - max(label.x0, left) for left, right in zip(edges, edges[1:], strict=False)]
    column = max(range(len(widths)), key=lambda index: widths[index])
    if column <= column_of(label, edges) or widths[column] < _MOSTLY * (label.x1 - label.x0):
        return label
    return replace(label, x0=edges[column] + 1.5)
