"""A table's printed rows into the rows of the table (a cell wrapped over lines, a row label set
across two rows, rows ruled apart).

The table engine (:mod:`.table_engine`) finds the region, its columns and its printed rows
(:mod:`.table_printed_rows`); :func:`join_rows` joins the printed rows: a label set midway
beside the two rows of its group goes with the first (``_labels_across``); printed rows closer
together than the table's row spacing join (``_join_wrapped``, and ``_join_tight`` where the
gaps do not fall into two groups); where no gap tells, a line under a line that filled its
column goes on with it (``_paragraphs_go_on``, ``_hangs_under``); a band between two rules of a
table ruled between its rows is one row where its lines are the lines of wrapped cells
(:mod:`.table_ruled_bands`); then a line of cells wrapped in narrow columns, or of a list
stacked in a cell beside the row's other cells (it leaves empty a column every row fills), a
line's pitch under the row above, goes on with it (``_join_going_on``); notes under the table
are dropped.
"""

from __future__ import annotations

import itertools
import re
import statistics
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_columns import column_of
from paperpyramid.parsers.embedded.table_printed_rows import GOES_ON, VALUE, PrintedRow, mostly_values, row_columns
from paperpyramid.parsers.embedded.table_ruled_bands import join_ruled_bands

if TYPE_CHECKING:
    from paperpyramid.parsers.embedded.table_rules import Rule

__all__ = ["join_rows"]

# gaps between printed lines form two groups (inside a wrapped cell, between rows) when the
# larger is this many times the smaller, and the smaller is under this share of the text size
_WRAP_RATIO = 1.8
_WRAP_GAP = 0.35
# printed rows that overlap by more than this share of their height are one row; less is
# the loose boxes of tightly set rows touching (ACL tables: 10 pt pitch, 10.5 pt boxes)
_OVERLAP = 0.25
# lines this close to the table's smallest pitch (top to top) are set a line apart; rows padded by
# a quarter of the text size over a leading of 1.2 sit 1.2 line pitches apart
_TIGHT = 1.06
# a line starting this share of the text size left of the cell over it is no line of that cell
_OUTDENT = 0.33
# the smallest pitch is a line's (not a row's) when under this many line heights
_LINE_PITCH = 1.3
# a line of a paragraph in a cell holds this many characters at least; a word space is this share of the text size
_PARAGRAPH_LINE = 25
_SPACE = 0.25
# a line of a justified paragraph ends this close (points) to its column's right edge
_FULL = 1.0
# a line opening with one of these opens a quotation: the next of a cell's list of quotations
_QUOTES = ("“", '"', "‘")
# a line opening with one of these after a cell that ends a sentence starts a new cell
_OPENING = frozenset('“"ABCDEFGHIJKLMNOPQRSTUVWXYZ')
# a line of a symbol or two alone ("u", "ik"): a formula's variable or its script, no word of a paragraph
_SCRIPT = re.compile(r"^\S{1,2}$")
# the columns that the rows opening with a first cell fill (all but this share of them) are
# every row's, in a table of this many such rows or more
_KEYED_ROWS = 4
_KEYED_SHARE = 0.1
# a line ending with one of these signs goes on under it: its number is on the next line
_OPERATORS = ("<", ">", "≤", "≥", "=", "±", "×")
# a line ending with one of these words goes on under it: no cell ends on a conjunction, a
# preposition or an article ("Farrington and" over "Andrews (2003)")
_CONNECTIVE = re.compile(r"(?:^|\s)(?:and|or|of|the|a|an|with|for|to|by|from|in|on|at|as|via|et|&)$")
# a label wrapped round its row's values runs over this many printed rows at most
_LABEL_LINES = 4
# a number and the words after it ("10 pt one", "30 days after"): a phrase's words, no value
_NUMBER_PHRASE = re.compile(r"^\d[\d.,]*\s?[A-Za-z]*\s+[a-z]{3,}")
_NUMBER = re.compile(r"^[-+−–]?\(?\d[\d.,]*\)?\s*[%*†]*$")


def join_rows(rows: list[PrintedRow], rules: Sequence[Rule], edges: Sequence[float]) -> list[PrintedRow]:
    """The table's rows from its printed ``rows`` (top to bottom), its horizontal ``rules`` and
    its column ``edges``."""
    least = _least_pitch(rows)
    joined = join_ruled_bands(_join_wrapped(_values_mid_label(_labels_across(rows, edges), edges), rules, edges), rules, edges)
    return _drop_notes(_join_going_on(joined, rules, edges, least), rules, edges)


def _labels_across(rows: list[PrintedRow], edges: Sequence[float]) -> list[PrintedRow]:
    """A row label set midway across the two rows of its group ("Knee Society Score" beside
    "KSS1" and "KSS2"): a line alone in the first column that overlaps the rows above and
    below it, both of which leave the first column empty and fill the same columns, values in
    half of them. It joins the row above, as its label; the row below stays a row of its own."""
    if len(rows) < 3:
        return rows
    first = min(column for row in rows for column in row_columns(row, edges))
    kept: list[PrintedRow] = []
    index = 0
    while index < len(rows):
        row = rows[index]
        if kept and index + 1 < len(rows):
            above, below = kept[-1], rows[index + 1]
            mine, up, down = row_columns(row, edges), row_columns(above, edges), row_columns(below, edges)
            across = row.top < above.bottom and row.bottom > below.top
            stacked = mostly_values(above) and mostly_values(below)  # two rows of values, not a cell wrapped ("0.25" over "Max.")
            if mine == {first} and first not in up and up == down and len(up) >= 2 and across and stacked:
                above.lines += row.lines
                below.alone = True
                kept.append(below)
                index += 2
                continue
        kept.append(row)
        index += 1
    return kept


def _values_mid_label(rows: list[PrintedRow], edges: Sequence[float]) -> list[PrintedRow]:
    """A row's label wrapped over three lines or more with its values set in the middle of its
    height, beside a middle line ("Median and range of cumulative" over "dose of glucocorticoids
    | 1463 (29–9758) mg/m2" over "(equivalent of prednisone)"): the printed rows of the label's
    other lines, the label alone in them, join the row of the values (:func:`_label_run`)."""
    if len(rows) < 3:
        return rows
    first = min(column for row in rows for column in row_columns(row, edges))
    kept: list[PrintedRow] = []
    index = floor = 0  # rows from ``floor`` on are kept as printed so far
    while index < len(rows):
        run = _label_run(rows, index, edges, first)
        if run is None or run[0] < floor:
            kept.append(rows[index])
            index += 1
            continue
        start, end = run
        kept = kept[: len(kept) - (index - start)]  # the label's lines over the values, kept already
        floor = end + 1
        lines = [line for row in rows[start : end + 1] for line in row.lines]
        kept.append(PrintedRow(min(line.top for line in lines), max(line.bottom for line in lines), lines))
        index = end + 1
    return kept


def _label_run(rows: Sequence[PrintedRow], index: int, edges: Sequence[float], first: int) -> tuple[int, int] | None:
    """The first and last printed rows of the label wrapped round the values of ``rows[index]``
    (:func:`_values_mid_label`), or ``None``: the rows over and under it hold the label's lines
    alone, each going on from the line over it (in lower case, an opening bracket, or after a
    hyphen, a comma or a word no cell ends on), set at one pitch, closer than the rows before and
    after the label; the values' middle is the label's, within a third of a line's height."""
    row = rows[index]
    labels = [line for line in row.lines if column_of(line, edges) == first]
    values = [line for line in row.lines if column_of(line, edges) != first]
    if len(labels) != 1 or not values:
        return None
    middle = statistics.mean(line.mid_y for line in values)
    alone: dict[int, Line] = {index: labels[0]}  # the label's line in each printed row that holds it alone
    for at in range(max(index - _LABEL_LINES, 0), min(index + _LABEL_LINES + 1, len(rows))):
        if at != index and len(rows[at].lines) == 1 and column_of(rows[at].lines[0], edges) == first:
            alone[at] = rows[at].lines[0]
    best = None
    for up in range(index, index - _LABEL_LINES - 1, -1):
        for down in range(index, index + _LABEL_LINES + 1):
            if down - up < 2 or any(at not in alone for at in range(up, down + 1)):
                continue
            run = [alone[at] for at in range(up, down + 1)]
            centred = abs(statistics.mean(line.mid_y for line in run) - middle) <= run[0].height / 3
            if centred and _wrapped_label(run, rows, (up, down), edges, first) and (best is None or down - up > best[1] - best[0]):
                best = (up, down)
    return best


def _wrapped_label(run: Sequence[Line], rows: Sequence[PrintedRow], span: tuple[int, int], edges: Sequence[float], first: int) -> bool:
    """Whether ``run`` (lines of the first column, top to bottom) is one label wrapped: each goes
    on from the one over it, all at one pitch, closer than the first column's lines over and
    under the run (rows padded apart)."""
    pitches = [b.top - a.top for a, b in itertools.pairwise(run)]
    pitch = min(pitches)
    if pitch <= 0 or max(pitches) > _TIGHT * pitch:
        return False
    if not all(
        GOES_ON.match(b.text) or b.text.startswith("(") or a.text.rstrip().endswith(("-", ",")) or _CONNECTIVE.search(a.text)
        for a, b in itertools.pairwise(run)
    ):
        return False
    up, down = span
    over = [line.top for line in rows[up - 1].lines if column_of(line, edges) == first] if up > 0 else []
    under = [line.top for line in rows[down + 1].lines if column_of(line, edges) == first] if down + 1 < len(rows) else []
    return (not over or run[0].top - max(over) > _TIGHT * pitch) and (not under or min(under) - run[-1].top > _TIGHT * pitch)


def _join_wrapped(rows: Sequence[PrintedRow], rules: Sequence[Rule], edges: Sequence[float]) -> list[PrintedRow]:
    """One row per table row: printed rows closer together than the table's row spacing join.

    Gaps with a rule in them are row breaks, and do not count in the spacing. A printed row
    that fills every column the row above fills starts a new row, unless all its cells go on
    in lower case (two paragraphs side by side).
    """
    gaps = [b.top - a.bottom for a, b in zip(rows, rows[1:], strict=False)]
    ruled = [any(a.bottom - 1 <= rule.y <= b.top + 1 for rule in rules) for a, b in zip(rows, rows[1:], strict=False)]
    size = statistics.median(line.size for row in rows for line in row.lines) if rows else 0.0
    threshold = _wrap_threshold([gap for gap, rule in zip(gaps, ruled, strict=True) if not rule], size)
    right = _right_edges(rows, edges)
    first = min((column_of(line, edges) for row in rows for line in row.lines), default=0)
    joined: list[PrintedRow] = []
    for index, row in enumerate(rows):
        last = joined[-1] if joined else None
        gap = gaps[index - 1] if index else None
        continues = last is not None and gap is not None and not ruled[index - 1] and gap < threshold and _continues_row(last, row, edges)
        alike = threshold == 0.0  # the gaps do not tell rows from wrapped lines
        continues = continues or (
            alike
            and last is not None
            and index > 0
            and not ruled[index - 1]
            and (
                _paragraphs_go_on(last, row, edges, right)
                or _hangs_under(last, row, rows[index + 1] if index + 1 < len(rows) else None, edges, right, first)
            )
        )
        overlaps = (
            gap is not None
            and gap < -_OVERLAP * min(row.height, joined[-1].height if joined else row.height)
            and not ruled[index - 1]
            and not (last is not None and _values_under_labels(last, row, edges))
        )
        grouped = row.alone or (overlaps and last is not None and _group_row(row, row_columns(row, edges), row_columns(last, edges)))
        if last is not None and (continues or overlaps) and not grouped:
            last.lines += row.lines
            last.bottom = max(last.bottom, row.bottom)
        else:
            joined.append(PrintedRow(row.top, row.bottom, list(row.lines), row.alone))
    return _join_tight(joined, rules, edges)


def _values_under_labels(above: PrintedRow, row: PrintedRow, edges: Sequence[float]) -> bool:
    """A row of values under a row of labels, each value under its label in the same columns (two
    columns or more): two rows, however far their boxes reach into each other (a table whose
    headers are formulas, "X_c" over "5.70943", set tight: a formula's box is taller than its
    line). A cell whose label wraps (a header over two lines) goes on in words, not values."""
    mine, theirs = row_columns(row, edges), row_columns(above, edges)
    if len(mine) < 2 or mine != theirs or any(VALUE.match(line.text) for line in above.lines):
        return False
    return all(VALUE.match(line.text) for line in row.lines)


def _join_going_on(rows: list[PrintedRow], rules: Sequence[Rule], edges: Sequence[float], least: _Pitch) -> list[PrintedRow]:
    """The rows with each line of cells wrapped in narrow columns (:func:`_cells_go_on`), or
    stacked in cells (:func:`_stacked_in_cells`), set a line's pitch under the row above
    (:func:`_at_line_pitch`, however the boxes of its lines gap) joined to it; after the other
    joins, which learn the table's spacing (and a ruled band's rows) from these lines too."""
    right = _right_edges(rows, edges)
    first = min((column for row in rows for column in row_columns(row, edges)), default=0)
    keyed = _keyed_columns(rows, edges, first)
    joined: list[PrintedRow] = []
    for index, row in enumerate(rows):
        last = joined[-1] if joined else None
        following = rows[index + 1] if index + 1 < len(rows) else None
        ruled = last is not None and any(last.bottom - 1 <= rule.y <= row.top + 1 for rule in rules)
        if (
            last is not None
            and not ruled
            and not row.alone
            and _at_line_pitch(last, row, least)
            and (_cells_go_on(last, row, edges, right) or _stacked_in_cells(last, row, following, edges, (first, keyed)))
        ):
            last.lines += row.lines
            last.bottom = max(last.bottom, row.bottom)
        else:
            joined.append(row)
    return joined


def _keyed_columns(rows: Sequence[PrintedRow], edges: Sequence[float], first: int) -> set[int]:
    """The columns, besides the first, that the printed rows opening with a first cell and
    another fill but for one in :data:`_KEYED_SHARE` at most (a first cell's wrapped line beside
    another's: "hoods" beside "SPIN_STS"), in a table of :data:`_KEYED_ROWS` such rows or more:
    every row of the table fills them, so a printed row without a first cell that leaves one
    empty is no row of its own."""
    labelled = [columns for row in rows if first in (columns := row_columns(row, edges)) and len(columns) >= 2]
    if len(labelled) < _KEYED_ROWS:
        return set()
    counts: dict[int, int] = {}
    for columns in labelled:
        for column in columns - {first}:
            counts[column] = counts.get(column, 0) + 1
    return {column for column, count in counts.items() if count >= (1 - _KEYED_SHARE) * len(labelled)}


def _stacked_in_cells(
    above: PrintedRow, row: PrintedRow, following: PrintedRow | None, edges: Sequence[float], columns: tuple[int, set[int]]
) -> bool:
    """The next line of cells that hold a list or a phrase over lines ("OLO" over "OLO_single"
    over "OLO_average", a description wrapped beside them), set a line's pitch under the row
    above: it leaves empty the first column and one or more of the columns each row fills
    (:func:`_keyed_columns`) right of every cell it fills, fills only columns the row above
    fills, and holds no value. A row of a group under its label fills those columns: it stays a
    row ("QAP_2SUM | 2-Sum | dist" over "| QAP_LS | Linear seriation | dist"), as does an entry
    of a list in a later column ("OPF 8–1,180 | UBC 825–450" over "| | UBC 840–1,110"), and the
    first line of a cell of the ``following`` row that goes on in lower case under it (its
    label set lower, in the middle of its row). ``columns``: the table's first column and those
    every row fills."""
    first, keyed = columns
    mine, theirs = row_columns(row, edges), row_columns(above, edges)
    if not keyed or not mine or first in mine or first not in theirs or not keyed <= theirs or not mine <= theirs:
        return False
    if not any(column > max(mine) for column in keyed - mine):
        return False
    if following is not None:
        for column in mine & row_columns(following, edges):
            under = min((line for line in following.lines if column_of(line, edges) == column), key=lambda line: line.x0)
            if GOES_ON.match(under.text):
                return False
    return not any(VALUE.match(line.text) for line in row.lines)


def _paragraph_open(above: PrintedRow, column: int, edges: Sequence[float], right: dict[int, float]) -> bool:
    """Whether the cell of ``above`` in ``column`` is a justified paragraph not yet ended: two
    lines or more, each set out to the column's right edge. A justified paragraph fills the
    measure with every line but its last, so the line under it goes on with it even where it
    opens a sentence ("... set flag=TRUE." over "See Section 8.", no label beside it)."""
    ends: dict[int, float] = {}
    for line in above.lines:
        if column_of(line, edges) == column:  # a line cut into pieces ends where its last piece does
            ends[round(line.top)] = max(ends.get(round(line.top), line.x1), line.x1)
    return len(ends) >= 2 and all(end >= right[column] - _FULL for end in ends.values())


def _paragraphs_go_on(above: PrintedRow, row: PrintedRow, edges: Sequence[float], right: dict[int, float]) -> bool:
    """Paragraphs set side by side a line at a time (rows alike, no gaps to tell): both rows
    fill the same two columns or more, and in each of them the line above is long, of words, and
    was wrapped (the first word of the line under it would not have fit after it in its column)
    in the middle of a sentence, the line under it starting at its left edge, not ending at its
    right one only (:func:`_set_flush_right`)."""
    if sum(1 for line in row.lines if len(line.text) >= 2) < 2 or not any(len(line.text) >= _PARAGRAPH_LINE for line in above.lines):
        return False  # cells of values, not lines of paragraphs
    mine, theirs = row_columns(row, edges), row_columns(above, edges)
    if len(theirs) < 2 or mine != theirs:
        return False
    # a long name of one token ("somatic.rate.ontarget.95.upper") is a label, no line of a paragraph
    return all(
        _wrapped(above, row, column, edges, right, _PARAGRAPH_LINE)
        and " " in _lowest_line(above, column, edges).text.strip()
        and not _set_flush_right(_lowest_line(above, column, edges), _top_line(row, column, edges))
        for column in mine
    )


def _set_flush_right(over: Line, under: Line) -> bool:
    """Whether two lines of a column end at one edge and start at two: cells of a column set flush
    right (LaTeX's ``r``), each line a cell of its own, ending where the widest does; a paragraph's
    lines start at one edge."""
    return abs(over.x1 - under.x1) <= _FULL and abs(over.x0 - under.x0) > _OUTDENT * under.size


def _hangs_under(
    above: PrintedRow, row: PrintedRow, following: PrintedRow | None, edges: Sequence[float], right: dict[int, float], first: int
) -> bool:
    """The next line of cells wrapped over lines, in a table whose rows all sit alike (no gaps to
    tell): it leaves the first column empty where the row above fills it, fills only columns the
    row above fills, holds no value, and in each column it fills the line above was wrapped (the
    first word of the line under it would not have fit after it) in the middle of a phrase: it
    breaks a word, ends with a comma or a word no cell ends on (a conjunction, a preposition, an
    article: "Farrington and" over "Andrews (2003)"), or it holds words and the line under it goes on in lower
    case (or with a number and words, "10 pt one", under a paragraph's line). A row of a group
    under its label ("Severity | severe" then "| mild") opens a cell of one word that ends
    nothing: it stays a row. So does the first line of a cell of the ``following`` row, whose
    label is set in the middle of the row's height (on a line beside none of the cell's, or beside
    one that goes on in lower case), where that line was wrapped into the one under it: a
    paragraph's last line leaves room for the next word. Under a justified paragraph whose
    lines all fill the column (:func:`_paragraph_open`) the line goes on however it opens,
    unless it opens a quotation."""
    mine, theirs = row_columns(row, edges), row_columns(above, edges)
    if first in mine or first not in theirs or not mine or not mine <= theirs:
        return False
    # the lowest line over the row and the row's top line meet; a line cut into pieces at its
    # stretched spaces is read whole ("number and ≥ 0.5% has ..."); a value under a line that
    # ends with an operator ("ploidy <" over "2.6") goes on from it
    lowest = {column: (_lowest_line(above, column, edges).text.rstrip(), _top_line(row, column, edges).text) for column in mine}
    if any(VALUE.match(text) and not _NUMBER_PHRASE.match(text) and not over.endswith(_OPERATORS) for over, text in lowest.values()):
        return False
    if following is not None and first in row_columns(following, edges):
        below = [line for line in following.lines if column_of(line, edges) in mine]
        if not mine <= row_columns(following, edges):
            return False
        # the line is that cell's first only where it was wrapped into the line under it
        if any(GOES_ON.match(line.text) for line in below) and all(_wrapped(row, following, column, edges, right, 2) for column in mine):
            return False
    for column in mine:
        if _paragraph_open(above, column, edges, right) and not lowest[column][1].startswith(_QUOTES):
            continue  # a justified paragraph not yet ended goes on, whatever opens the line
        if not _wrapped(above, row, column, edges, right, 2):
            return False
        over, under = lowest[column]
        # a sentence goes on in lower case, or with a number and the words after it where the
        # line over it is a paragraph's ("... from the original single" over "10 pt one")
        phrase = _NUMBER_PHRASE.match(under) and len(over) >= _PARAGRAPH_LINE
        if not (over.endswith(("-", ",", *_OPERATORS)) or _CONNECTIVE.search(over) or (" " in over and (GOES_ON.match(under) or phrase))):
            return False
    return True


def _right_edges(rows: Sequence[PrintedRow], edges: Sequence[float]) -> dict[int, float]:
    """How far right each column's lines reach."""
    right: dict[int, float] = {}
    for line in (line for row in rows for line in row.lines):
        right[column_of(line, edges)] = max(right.get(column_of(line, edges), line.x1), line.x1)
    return right


class _Pitch(NamedTuple):
    """A table's line pitch (top to top) and the text size whose lines measure it."""

    pitch: float
    size: float


def _least_pitch(rows: Sequence[PrintedRow]) -> _Pitch:
    """The table's line pitch: the median of the pitches between printed rows (from the lowest
    line of one to the highest of the next) over half a line's height, measured on lines of the
    text's size (a raised index, set smaller, sits higher; a typewriter face's box a little off
    the roman's); 0 where there are none."""
    if len(rows) < 2:
        return _Pitch(0.0, 0.0)
    size = statistics.median(line.size for row in rows for line in row.lines)
    height = statistics.median(line.height for row in rows for line in row.lines)
    pitches = sorted(p for a, b in zip(rows, rows[1:], strict=False) if (p := _pitch_under(a, b, size)) > 0.5 * height)
    return _Pitch(statistics.median(pitches) if pitches else 0.0, size)


def _pitch_under(above: PrintedRow, row: PrintedRow, size: float) -> float:
    """From the lowest line of ``above`` to the highest of ``row``, lines of the text's ``size``."""
    over = [line.top for line in above.lines if line.size >= 0.9 * size]
    under = [line.top for line in row.lines if line.size >= 0.9 * size]
    return min(under) - max(over) if over and under else 0.0


def _at_line_pitch(above: PrintedRow, row: PrintedRow, least: _Pitch) -> bool:
    """Whether ``row`` sits the table's line pitch (:func:`_least_pitch`) under ``above``."""
    return least.pitch > 0 and 0 < _pitch_under(above, row, least.size) <= _TIGHT * least.pitch


def _cells_go_on(above: PrintedRow, row: PrintedRow, edges: Sequence[float], right: dict[int, float]) -> bool:
    """The next line of cells wrapped in narrow columns (a row label among them), set a line's
    pitch under the row above (:func:`_at_line_pitch`): it fills only some of the columns the row above fills, holds no
    value, and each of its lines goes on from the line over it, which was wrapped (the first word
    would not have fit after it) in the middle of a phrase: a word broken ("triangu-" over "lar
    matrix"), a line ending on a word no cell ends on (:data:`_CONNECTIVE`), or a line of words
    that goes on in lower case ("Random-effects Cholesky" over "factor"). A group's label under a row opens with a capital, and a row of a group under a
    cell of one word ("severe" over "mild") ends nothing: both stay rows."""
    mine, theirs = row_columns(row, edges), row_columns(above, edges)
    if not mine or not mine < theirs or any(VALUE.match(line.text) for line in row.lines):
        return False
    for column in mine:
        over = _lowest_line(above, column, edges).text.rstrip()
        under = min((line for line in row.lines if column_of(line, edges) == column), key=lambda line: line.x0).text
        goes_on = over.endswith("-") or _CONNECTIVE.search(over) or (" " in over and GOES_ON.match(under))
        if not goes_on or not _wrapped(above, row, column, edges, right, 2):
            return False
    return True


def _wrapped(above: PrintedRow, row: PrintedRow, column: int, edges: Sequence[float], right: dict[int, float], least: int) -> bool:
    """Whether the lowest line of ``above`` in ``column`` (``least`` characters or more) was
    wrapped into the line of ``row`` there: its first word would not have fit after it in the
    column, and the line above does not end a sentence before a capital."""
    over = _lowest_line(above, column, edges)
    under = min((line for line in row.lines if column_of(line, edges) == column), key=lambda line: line.x0)
    if len(over.text) < least or not under.words or len(under.text) < 2:
        return False
    if _room_for_word(over, under, right[column]):
        return False  # the word would have fit: the line above ended a cell
    return not (over.text.rstrip().endswith((".", "!", "?", ":", ";")) and not under.words[0][0][:1].islower())


def _lowest_line(row: PrintedRow, column: int, edges: Sequence[float]) -> Line:
    """The lowest line of ``row`` in ``column``, whole: a line justified across a narrow column
    ("double  sparse  lower-") was cut into pieces at its stretched spaces, and it ends where its
    last piece does."""
    inside = [line for line in row.lines if column_of(line, edges) == column]
    lowest = max(line.top for line in inside)
    return _whole([line for line in inside if line.top > lowest - 0.5 * line.height])


def _top_line(row: PrintedRow, column: int, edges: Sequence[float]) -> Line:
    """The highest line of ``row`` in ``column``, whole (:func:`_lowest_line`): the line set
    under the row above, the one that goes on from it or opens a cell. A row's lines under it
    (a script set low, a formula's lower piece: "mean of x" over "0") go on from this line, not
    from the row above."""
    inside = [line for line in row.lines if column_of(line, edges) == column]
    highest = min(line.top for line in inside)
    return _whole([line for line in inside if line.top < highest + 0.5 * line.height])


def _whole(pieces: list[Line]) -> Line:
    """A line from the pieces it was cut into, left to right."""
    pieces = sorted(pieces, key=lambda line: line.x0)
    if len(pieces) == 1:
        return pieces[0]
    return replace(pieces[0], text=" ".join(piece.text for piece in pieces), x1=pieces[-1].x1, words=None, parts=None)


def _join_tight(rows: list[PrintedRow], rules: Sequence[Rule], edges: Sequence[float]) -> list[PrintedRow]:
    """Printed lines set a line's pitch apart where the table's rows sit further apart: the lines
    of a cell wrapped over lines (or a header over two), where the gaps between line boxes do not
    fall into two groups (rows padded by a fraction of the leading, boxes touching).

    Pitches are top to top, from the last line of the row above. A line joins the row above
    when it sits at the table's smallest pitch, other lines sit clearly further apart (padded
    rows, twice or more, not a paragraph after the table: a table whose rows all sit alike
    joins nothing), it fills other columns than the row above, and it leaves the first cell
    empty or fills only some of the columns above (a cell wrapped in the first column). A line
    that fills every column above but the first, with a number in it, is a row of a group (its
    label above), not a wrapped cell. A cell set in the middle of its row's height starts
    under the lines of its neighbours (the row above then fills only some columns, and the
    label's line joins it), unless the lines above it go on from the row over them: cells
    wrapped at an even pitch, whose tops (their fonts' boxes) only seem closer to the row under
    them (:func:`_wrapped_on`).
    """
    if len(rows) < 3:
        return rows

    def pitch(above: PrintedRow, row: PrintedRow) -> float:
        return row.top - max(line.top for line in above.lines)

    def ruled(above: PrintedRow, row: PrintedRow) -> bool:
        return any(above.bottom - 1 <= rule.y <= row.top + 1 for rule in rules)

    def columns(row: PrintedRow) -> set[int]:
        return {column_of(line, edges) for line in row.lines}

    height = statistics.median(line.bottom - line.top for row in rows for line in row.lines)
    pairs = [(above, row) for above, row in zip(rows, rows[1:], strict=False) if not ruled(above, row)]
    pitches = [pitch(above, row) for above, row in pairs if pitch(above, row) > 0.5 * height]
    if not pitches or min(pitches) > _LINE_PITCH * height:
        return rows
    tight = _TIGHT * min(pitches)
    first = min(column for row in rows for column in columns(row))  # the region's edge may leave a column empty
    if sum(1 for above, row in pairs if tight < pitch(above, row) <= 2 * min(pitches)) < 2:
        return rows
    right = _right_edges(rows, edges)
    # rows that each open the first column stand further apart than a cell's wrapped lines: a tight pair is a wrap
    opened = [pitch(above, row) for above, row in pairs if first in columns(above) and first in columns(row)]
    padded = bool(opened) and statistics.median(opened) > tight
    joined = [rows[0]]
    for row in rows[1:]:
        above = joined[-1]
        mine, theirs = columns(row), columns(above)
        numbers = any(_NUMBER.match(line.text) for line in row.lines)
        group_row = _beside_labels(mine, theirs, first) and numbers
        partial = first not in mine or mine < theirs or first not in theirs
        stacked = theirs - {first} <= mine and mostly_values(row) and mostly_values(above)  # two rows of values, not a cell wrapped
        # the line above goes on with the row over it: the first line under it opens a row
        going_on = first in mine and len(joined) > 1 and _wrapped_on(joined[-2], above, row, (edges, right, first))
        wraps = (
            mine != theirs
            and partial
            and not group_row
            and not stacked
            and not going_on
            and not _new_sentence(above, row, edges)
            and not _outdented(above, row, edges)
            and (padded or not _opens_cells(above, row, edges, (first, right)))
        )
        if wraps and not row.alone and not ruled(above, row) and 0 < pitch(above, row) <= tight:
            above.lines += row.lines
            above.top, above.bottom = min(above.top, row.top), max(above.bottom, row.bottom)
        else:
            joined.append(row)
    return joined


def _wrapped_on(over: PrintedRow, above: PrintedRow, row: PrintedRow, columns: tuple[Sequence[float], dict[int, float], int]) -> bool:
    """Whether ``above``, which leaves the first column empty, goes on from the row ``over`` it,
    though its top seems closer to ``row`` under it: measured on their bottoms it sits no further
    under ``over`` than ``row`` sits under it, and in each column it fills the line over it was
    wrapped (:func:`_wrapped`). A line's box is its font's, so its top moves with the fonts it
    holds: a formula's symbol font (CMSY's "≥") raises a line two points, CMR digits or a
    typewriter face lower it, and a table whose rows and wrapped lines all sit at one pitch
    (PureCN's flags) measured top to top seems to set "2.6" (the end of "ploidy <") closer to
    the row under it than to its own. Descents differ far less between faces. Where rows are
    padded, the line of a cell set in the middle of its row sits further under the row over it
    on its bottom too: it is that row's first line. ``columns``: the column edges, how far right
    each column's lines reach, the first column."""
    edges, right, first = columns
    mine, theirs = row_columns(above, edges), row_columns(over, edges)
    if not mine or first in mine or not mine <= theirs:
        return False
    if _bottom_pitch(over, above) > _TIGHT * _bottom_pitch(above, row):
        return False
    return all(_wrapped(over, above, column, edges, right, 2) for column in mine)


def _bottom_pitch(above: PrintedRow, row: PrintedRow) -> float:
    """From the lowest line of ``above`` to the highest of ``row``, bottom to bottom."""
    return min(line.bottom for line in row.lines) - max(line.bottom for line in above.lines)


def _outdented(above: PrintedRow, row: PrintedRow, edges: Sequence[float]) -> bool:
    """A line set left of the cell over it, by more than a third of the text size, and not
    centred under it (it reaches right past it twice as far as it starts left): a group's
    heading at the table's edge over rows whose labels are indented, not that cell wrapped (a
    cell's next line starts where its first did, or indented under it)."""
    for line in row.lines:
        column = column_of(line, edges)
        over = [mine for mine in above.lines if column_of(mine, edges) == column]
        if not over:
            continue
        cell = max(over, key=lambda mine: mine.top)
        left, right = cell.x0 - line.x0, line.x1 - cell.x1
        if left > _OUTDENT * line.size and right > 2 * left:
            return True
    return False


def _new_sentence(above: PrintedRow, row: PrintedRow, edges: Sequence[float]) -> bool:
    """A line that opens a sentence under a cell that ends one: a new cell of a table of text
    (a quotation under the last), not the cell above wrapped."""
    for line in row.lines:
        column = column_of(line, edges)
        over = [mine for mine in above.lines if column_of(mine, edges) == column]
        if over and max(over, key=lambda mine: mine.top).text.rstrip().endswith((".", "?", "!", "”", '"')) and line.text[:1] in _OPENING:
            return True
    return False


def _opens_cells(above: PrintedRow, row: PrintedRow, edges: Sequence[float], columns: tuple[int, dict[int, float]]) -> bool:
    """A line that opens a row's cells, under a row that fills the first column too: the first
    cell over it, a word alone, had room for its first word (:func:`_room_for_word`: "logitp"
    over "meanp" in a column as wide as "Function name"), or in another column it opens with a
    capital under a line that ends no phrase going on (no hyphen, comma, operator or word no cell
    ends on): "invt | | Inverse t" under "invchisq | Lancaster's method | Inverse chi square".
    The next row of a table set a line apart, not its cells wrapped. ``columns``: the first
    column, how far right each column's lines reach."""
    first, right = columns
    mine, theirs = row_columns(row, edges), row_columns(above, edges)
    if first not in mine or first not in theirs:
        return False
    label = _lowest_line(above, first, edges)
    if " " not in label.text.strip() and _room_for_word(label, _top_line(row, first, edges), right[first] - _FULL):
        return True
    for column in (mine - {first}) & theirs:
        over = _lowest_line(above, column, edges).text.rstrip()
        under = _top_line(row, column, edges).text
        open_phrase = over.endswith(("-", ",", *_OPERATORS)) or _CONNECTIVE.search(over)
        if under[:1].isupper() and len(under.split()[0]) > 1 and not open_phrase and not VALUE.match(under):
            return True
    return False


def _room_for_word(over: Line, under: Line, right: float) -> bool:
    """Whether the first word of ``under`` would have fit after ``over`` in a column that ends at
    ``right``: ``over`` ended its cell there, it was not wrapped."""
    if not under.words:
        return False
    _, x0, x1 = under.words[0]
    return over.x1 + _SPACE * over.size + (x1 - x0) <= right


def _continues_row(above: PrintedRow, row: PrintedRow, edges: Sequence[float]) -> bool:
    """Whether a printed row close under ``above`` goes on with it: it leaves some of its columns
    empty (a wrapped cell), unless it is a row of a group (below); or it fills them all with
    words that go on in lower case (a sign, a symbol or a script opens no word going on: the
    cells of a row of formulas, "−1", "∗", "u")."""
    mine, theirs = row_columns(row, edges), row_columns(above, edges)
    if not mine >= theirs:
        return not _group_row(row, mine, theirs)
    return all(line.text[:1].islower() and not _SCRIPT.match(line.text) for line in row.lines)


def _group_row(row: PrintedRow, mine: set[int], theirs: set[int]) -> bool:
    """A printed row that fills every column of the row above but the first, values in most of
    them: the next row of a group whose label the row above carries ("TA 98 | −S9 | 1.00 ± 1.73"
    then "| +S9 | 1.67 ± 1.53"), not a cell wrapped onto a second line. Several tables set side
    by side under one header leave several label columns empty (a third of the columns at most)."""
    values = sum(1 for line in row.lines if VALUE.match(line.text))
    return len(theirs) >= 3 and _beside_labels(mine, theirs, min(theirs)) and values >= max(2, len(row.lines) // 2)


def _beside_labels(mine: set[int], theirs: set[int], first: int) -> bool:
    """Whether a printed row fills every column of the row above but the first (its label), or,
    where tables are set side by side under one header, but their label columns, the first
    among them (a third of the columns at most)."""
    labels = theirs - mine
    return first in labels and (labels == {first} or 3 * len(labels) <= len(theirs))


def _wrap_threshold(gaps: Sequence[float], size: float) -> float:
    """The gap under which a printed line continues the row above; 0 where no gap is small."""
    # gaps under a fifth of the text size are all "touching": their ratios mean nothing
    positive = sorted(max(gap, 0.2 * size) for gap in gaps if gap > 0)
    if len(positive) < 2:
        return 0.0
    ratio, index = max((b / a, i) for i, (a, b) in enumerate(zip(positive, positive[1:], strict=False)))
    small, large = positive[index], positive[index + 1]
    if ratio < _WRAP_RATIO or small > _WRAP_GAP * size or index + 2 == len(positive):
        return 0.0  # one group: every line is a row (overlapping lines still join); one wide gap is the table's end, not its rows' spacing
    return float((small * large) ** 0.5)


def _drop_notes(rows: list[PrintedRow], rules: Sequence[Rule], edges: Sequence[float]) -> list[PrintedRow]:
    """Trailing one-cell rows under the last rule or after a wide gap: notes, not cells. Notes
    of several lines ("a Letters are …", "b In 1992 …") go together where a rule closes the
    table over the first of them, and so do lines of prose a wide gap sets off (:func:`_prose_under`)."""
    if len(rows) < 3:
        return rows
    gaps = [b.top - a.bottom for a, b in zip(rows, rows[1:], strict=False)]
    usual = statistics.median(gaps)
    start = len(rows)
    while start > 2 and len({column_of(line, edges) for line in rows[start - 1].lines}) == 1:
        start -= 1
    if start < len(rows) and any(rows[start - 1].bottom <= rule.y <= rows[start].top for rule in rules):
        rows = rows[:start]
    rows = rows[: _prose_under(rows, edges, 3 * max(usual, 1.0))]
    while len(rows) > 2:
        last, above = rows[-1], rows[-2]
        one_cell = len({column_of(line, edges) for line in last.lines}) == 1
        ruled_off = any(above.bottom <= rule.y <= last.top for rule in rules)
        if one_cell and (ruled_off or last.top - above.bottom > 3 * max(usual, 1.0)):
            rows = rows[:-1]
        else:
            break
    return rows


def _prose_under(rows: list[PrintedRow], edges: Sequence[float], wide: float) -> int:
    """Where the table's notes start: the rows after the last gap wider than ``wide``, where each
    holds a line of prose across the columns' edges (a cell stays within its column; a note set
    under the ``tabular`` runs across them, its numbers cut out of it as values: "(over | 50
    replications)"); ``len(rows)`` where there are none."""
    for start in range(len(rows) - 1, 1, -1):
        if rows[start].top - rows[start - 1].bottom > wide:
            notes = rows[start:]
            if all(any(len(line.text) >= _PARAGRAPH_LINE and _across(line, edges) for line in row.lines) for row in notes):
                return start
            break
    return len(rows)


def _across(line: Line, edges: Sequence[float]) -> bool:
    """Whether a line runs past the right edge of its column."""
    column = column_of(line, edges)
    return column + 1 < len(edges) - 1 and line.x1 > edges[column + 1] + 1.0
