"""A review copy's line numbers, found where a page is read and taken out of its text.

Manuscripts and review copies (LaTeX's ``lineno``, journals' submission layouts) number their
lines in the margin or the gutter between columns; pdfium reads the numbers as lines of their own
("40") or glued to the line they count ("60 I.A.1. Heading"). :func:`line_number_marks` finds a
page's columns of them; :class:`LineNumbering` carries the columns from page to page, so that a
page with too few numbers for a column of its own is read by the pages before it; and
:func:`blank_marks` blanks their characters, so that :func:`.layout.extract_page` reads the page
again without them (the parser's lines, the table engine's and the run-in headings all lose
them). A table's row numbers, a numbered list, equation numbers and page numbers fail the tests
each docstring gives. Moved out of :mod:`.layout`, which calls these.
"""

from __future__ import annotations

import ctypes
import math
import re
from dataclasses import dataclass, field

import pypdfium2.raw as pdfium_c

from paperpyramid.parsers.embedded.char_runs import CharRun, turn_box

#: a number that may count a line: alone on its run, or leading it before a space
_LEAD_NUMBER = re.compile(r"(\d{1,4})(?: |$)")


_DIGIT = re.compile(r"\d")


#: a review copy numbers at least this many lines of a page
_NUMBERED_LINES = 5


#: a column of line numbers runs down at least this share of the page
_NUMBERED_SPAN = 0.25


#: a number counting a line: its value and box (x0, top, x1, bottom)
Mark = tuple[int, float, float, float, float]


def line_number_marks(runs: list[CharRun], height: float) -> list[Mark]:
    """A review copy's line numbers, in the margin or the gutter between columns, whether pdfium
    reads them as lines of their own ("40") or glued to the text line they count ("60 I.A.1.
    Heading"): numbers leading their runs that stand in one column (aligned on their right
    edge; on their left only in a right margin, with no text after them, or left of all the
    page's text), outside the text columns (no other text crosses theirs beside a number,
    hardly any line starts in it), that rise down the page a text line apart per unit (numbers
    on every line, or on every fifth) over a quarter of the page at least. A numbered list's
    entries, a table's row numbers and equation numbers fail one of these: their pitch is an entry's, the table's text starts
    where they stand, they are in parentheses, or they are few. Landscape pages are not read
    for them (the caller skips turned pages: there they would be a table's)."""
    marks = _lead_marks(runs)
    if len(marks) < _NUMBERED_LINES:
        return []
    line = sorted(run.bottom - run.top for run in runs)[len(runs) // 2]
    found: dict[tuple[float, float], Mark] = {}
    for edge in (3, 1):  # right-aligned (a left margin or a gutter), then left-aligned (a right margin)
        for column in _aligned(marks, edge):
            if edge == 1 and _text_right_of(column, runs) and not _left_of_text(column, runs):
                continue  # left-aligned numbers with text after them: a table's first column
            if _headed(column, runs, line):
                continue
            if _counts_lines(column, height, line) and not _crossed(column, runs) and _outside_text(column, runs):
                found.update({(mark[1], mark[2]): mark for mark in column})
    return list(found.values())


def _headed(column: list[Mark], runs: list[CharRun], line: float) -> bool:
    """Whether a word starts in the numbers' column just above them: a table's head over its
    column of row numbers ("No.", "func."), reached up through the rows above where only some
    of the numbers share an edge (10 to 23, right-aligned, under 1 to 9). A review copy's numbers
    stand in a margin or a gutter where no line of the text starts, so nothing heads them; on a
    float page a table's row numbers stand left of all other text, and this tells them apart."""
    x0, x1 = min(mark[1] for mark in column), max(mark[3] for mark in column)
    starts = {(mark[1], mark[2]) for mark in column}
    above: CharRun | None = None
    headed = False
    for run in sorted((run for run in runs if run.boxes and x0 - _COLUMN_SLACK <= run.x0 <= x1), key=lambda run: run.top):
        if _LEAD_NUMBER.match("".join(run.chars[:6])):
            headed = headed and above is not None and run.top - above.bottom <= 2 * line
            if headed and (run.boxes[0], run.top) in starts:
                return True
        else:
            headed = True
        above = run
    return False


def _lead_marks(runs: list[CharRun]) -> list[Mark]:
    """The numbers leading the page's runs (left to right text only), each as a :data:`Mark`."""
    marks: list[Mark] = []
    for run in runs:
        if run.rtl or not run.chars or not run.chars[0].isdigit():
            continue
        match = _LEAD_NUMBER.match("".join(run.chars[:6]))
        if match:
            digits = len(match.group(1))
            marks.append((int(match.group(1)), run.boxes[0], run.top, run.boxes[2 * digits - 1], run.bottom))
    return marks


#: a learnt column's edge and a number's: within this many points
_COLUMN_SLACK = 1.5


@dataclass(slots=True)
class LineNumbering:
    """A review copy's line-number columns, learnt from the pages of a document read so far
    (:func:`line_number_marks` on each): their edges, the points a unit of numbering takes
    down the page and the highest number seen. ``lineno`` and the journals' review layouts
    number the whole document on, so a page whose numbers are too few for a column of their
    own (a float fills most of it) is read by the columns of the pages before it."""

    rights: list[float] = field(default_factory=list)  # right edges of right-aligned columns
    lefts: list[float] = field(default_factory=list)  # left edges of left-aligned ones
    pitch: float = 0.0
    last: int = 0

    def learn(self, marks: list[Mark]) -> None:
        """Take a page's line numbers in: their columns' edges (three numbers sharing one),
        their pitch (points per unit down a column) and the highest value."""
        if not marks:
            return
        pitches = []
        for edges, index in ((self.rights, 3), (self.lefts, 1)):
            for column in _aligned(marks, index, 3):
                edge = sum(mark[index] for mark in column) / len(column)
                if not any(abs(edge - known) <= _COLUMN_SLACK for known in edges):
                    edges.append(edge)
                column.sort(key=lambda mark: mark[2])
                pitches += [
                    (below[2] - above[2]) / (below[0] - above[0])
                    for above, below in zip(column, column[1:], strict=False)
                    if below[0] > above[0]
                ]
        if pitches:
            self.pitch = sorted(pitches)[len(pitches) // 2]
        self.last = max(self.last, *(mark[0] for mark in marks))

    def continued(self, runs: list[CharRun], height: float, found: list[Mark]) -> list[Mark]:
        """The page's numbers, beyond ``found``, that stand on a learnt column, alone on their
        lines or before text that starts past them, and continue its numbering: above the last
        value seen, below what three pages would count, rising down each column. A table's row
        numbers, a list's and the page number start low again; equation numbers are in
        parentheses."""
        if not self.pitch or not (self.rights or self.lefts):
            return []
        taken = {(mark[1], mark[2]) for mark in found}
        top = self.last + 3 * height / self.pitch
        by_run = {(run.boxes[0], run.top): run for run in runs if run.boxes}
        columns: dict[tuple[int, float], list[Mark]] = {}
        for mark in _lead_marks(runs):
            if (mark[1], mark[2]) in taken or not self.last < mark[0] <= top:
                continue
            run = by_run.get((mark[1], mark[2]))
            if run is None or _after_number(run) <= mark[3] + 1:
                continue
            edge = next(((3, edge) for edge in self.rights if abs(mark[3] - edge) <= _COLUMN_SLACK), None)
            edge = edge or next(((1, edge) for edge in self.lefts if abs(mark[1] - edge) <= _COLUMN_SLACK), None)
            if edge is not None:
                columns.setdefault(edge, []).append(mark)
        marks: list[Mark] = []
        for column in columns.values():
            column.sort(key=lambda mark: mark[2])
            if all(above[0] < below[0] for above, below in zip(column, column[1:], strict=False)):
                marks += column
        return marks


def _aligned(marks: list[Mark], edge: int, least: int = _NUMBERED_LINES) -> list[list[Mark]]:
    """The marks in columns sharing the edge ``edge`` (an index of the mark) within a point and a half."""
    columns: list[list[Mark]] = []
    for mark in sorted(marks, key=lambda mark: mark[edge]):
        if columns and mark[edge] - columns[-1][-1][edge] <= 1.5:
            columns[-1].append(mark)
        else:
            columns.append([mark])
    return [column for column in columns if len(column) >= least]


def _counts_lines(column: list[Mark], height: float, line: float) -> bool:
    """Whether the numbers of a column count lines ``line`` high: over :data:`_NUMBERED_SPAN` of
    the page at least, rising down it about a text line apart for each unit. Numbers every fifth
    line (5, 10, 15) are that already; numbers on every line must also rise at one steady pitch
    for most steps (space above a heading widens a few), where a list's numbers rise an entry
    of one, two or three lines a unit."""
    column = sorted(column, key=lambda mark: mark[2])
    if column[-1][4] - column[0][2] < _NUMBERED_SPAN * height:
        return False
    steps = [
        (below[0] - above[0], (below[2] + below[4] - above[2] - above[4]) / 2) for above, below in zip(column, column[1:], strict=False)
    ]
    pitches = sorted(rise / step for step, rise in steps if step > 0)
    if len(pitches) < 0.9 * len(steps):
        return False
    base = pitches[len(pitches) // 4]
    if not 0.8 * line <= base <= 2 * line:
        return False
    if all(mark[0] % 5 == 0 for mark in column):
        return True
    return pitches[0] >= 0.8 * base and pitches[len(pitches) // 2] <= 1.3 * base


def _crossed(column: list[Mark], runs: list[CharRun]) -> bool:
    """Whether other text crosses the numbers' column beside one of them (the text glued after
    a number starts right of it): then the numbers are part of that text. A display or a figure
    between two numbers may cross it: numbering skips them."""
    x0, x1 = min(mark[1] for mark in column), max(mark[3] for mark in column)
    starts = {(mark[1], mark[2]) for mark in column}
    for run in runs:
        if run.x1 <= x0 + 1 or run.x0 >= x1 - 1:
            continue  # (a column's lines may end a hair into a gutter's numbers)
        if (run.boxes[0], run.top) in starts and _after_number(run) > x1 - 1:
            continue  # alone, or the text after it starts past the column
        if any(min(run.bottom, mark[4]) - max(run.top, mark[2]) > 0.3 * (mark[4] - mark[2]) for mark in column):
            return True
    return False


def _after_number(run: CharRun) -> float:
    """The left edge of the run's first character after its leading number (inf: none)."""
    lefts = run.boxes[0::2]  # the drawn characters' left edges (spaces have none)
    digits = next((index for index, ch in enumerate(run.chars) if not ch.isdigit()), len(run.chars))
    return lefts[digits] if digits < len(lefts) else math.inf


def _text_right_of(column: list[Mark], runs: list[CharRun]) -> bool:
    """Whether text follows any of the numbers on its line (glued to it or further right)."""
    for mark in column:
        for run in runs:
            if run.boxes[0] == mark[1] and run.top == mark[2]:
                if _after_number(run) < math.inf:
                    return True
            elif run.x0 > mark[3] and min(run.bottom, mark[4]) - max(run.top, mark[2]) > 0.3 * (mark[4] - mark[2]):
                return True
    return False


def _left_of_text(column: list[Mark], runs: list[CharRun]) -> bool:
    """Whether left-aligned numbers stand left of the lines of the page that are not numbers
    (amsart's line numbers, set flush left in the left margin), all but a margin note's few: a
    table's first column of counts stands inside the text's width, where the text above and
    below it starts."""
    x1 = max(mark[3] for mark in column)
    starts = {(mark[1], mark[2]) for mark in column}
    left = sum(
        1
        for run in runs
        if run.boxes and run.x0 < x1 - 1 and (run.boxes[0], run.top) not in starts and not "".join(run.chars).strip().isdigit()
    )
    return left <= max(3, 0.1 * len(column))


def _outside_text(column: list[Mark], runs: list[CharRun]) -> bool:
    """Whether the numbers stand outside the text columns: hardly any other line of the page
    starts where they stand, where a table's row numbers stand at the left edge of its column
    and the text above and below the table starts there too."""
    x0, x1 = min(mark[1] for mark in column) - 1, max(mark[3] for mark in column) + 1
    starts = {(mark[1], mark[2]) for mark in column}
    inside = sum(1 for run in runs if x0 <= run.x0 <= x1 and (run.boxes[0], run.top) not in starts)
    return inside <= max(2, 0.2 * len(column))


def blank_marks(raw: ctypes.c_void_p, chars: str | list[str], marks: list[Mark], size: tuple[float, float], turn: int) -> list[str]:
    """``chars`` with the digits of the line numbers ``marks`` made empty (so
    :func:`~.char_runs.read_runs` skips them). Only the page's digits are looked up (found by a
    regular expression where the page's text is one string), on pages with line numbers only."""
    width, height = size
    blanked = list(chars)
    digits = (
        [match.start() for match in _DIGIT.finditer(chars)]
        if isinstance(chars, str)
        else [index for index, ch in enumerate(chars) if ch.isdigit()]
    )
    rect = pdfium_c.FS_RECTF()
    for index in digits:
        pdfium_c.FPDFText_GetLooseCharBox(raw, index, ctypes.byref(rect))
        box = (rect.left, height - rect.top, rect.right, height - rect.bottom)
        if turn:
            box = turn_box(turn, box, width, height)
        x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if any(mark[1] - 0.5 <= x <= mark[3] + 0.5 and mark[2] - 0.5 <= y <= mark[4] + 0.5 for mark in marks):
            blanked[index] = ""
    return blanked
