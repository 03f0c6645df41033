"""Where a table's columns part: white "rivers" down the printed rows, found between word groups.

The layout cuts a line only at gaps wider than 1.4 times its text size, and the table engine cuts
it again around numbers (``split_numbers``); a header set tight ("BLEU Latency (ms)") or words
columns apart by a few points still share a line. :func:`word_segments` cuts every line again
where the gap between two of its words is clearly wider than a word space in the table (a table
of 7 pt type: spaces 1.8 pt, columns 3.3 pt or more apart), and :func:`column_edges` finds the
rivers between these segments (Nurminen's text-alignment idea, behind pdfplumber's "text"
strategy and camelot's stream flavour): x ranges that at most a fifth of the rows touch. A
label centred over the columns it heads, repeated every few rows, may close rivers between
columns of numbers; the rows of most cells decide those (:func:`_dense_rows`).
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import replace

from paperpyramid.parsers.embedded.char_runs import MONOSPACE_FONT
from paperpyramid.parsers.embedded.layout import Line, Word, normalize_text

__all__ = ["column_edges", "column_of", "number_gap", "place_overhangs", "word_segments", "word_space", "words_text"]

# a river is at least this share of the text size wide (and 3 pt) where the gaps between words
# tell nothing (no line holds two words)
_RIVER_WIDTH = 0.6
# a river may be touched by this share of the table's lines (rows that span the columns)
_RIVER_TOUCH = 0.2
# a gap this many times the table's word space parts two cells
_CELL_GAP = 1.5
# justified text stretches its spaces to at most this many word spaces; marks set evenly
# further apart ("X X X X" under columns 1 to 4) are cells
_JUSTIFIED = 3.0
# a river between numbers set close is at least this share of the gap between them
_NUMBER_RIVER = 0.8
# no "(0.88)": a mean and its spread in brackets are one cell; no "1,": an item of a list ("1, 2, 5") in one cell
_NUMBER = re.compile(r"^[-+−–]?\d(?:[\d.,]*\d)?%?$")
# a number with a note's mark ("20*", "0.05†"), as set in a column of values
_MARKED_NUMBER = re.compile(r"^[-+−–]?\d(?:[\d.,]*\d)?%?[*†‡§]*$")
# a row of fewer pieces than this share of most rows' is a label across columns, not cells
_DENSE = 0.6
# a label across columns spans less than this share of the table's width
_LABEL = 0.8
_LETTER = re.compile(r"[^\W\d_]")
# the histogram of the x ranges lines touch, in steps of a quarter point (tight columns are 3 pt apart)
_STEPS = 4
# a cell's line that starts left of its column's edge by at most this share of its text size (and a
# quarter of the column on the left), with more than this share of its width right of the edge,
# is the right column's: a long line of a cell centred in its column
_OVERHANG = 1.0
_MOST = 0.5


def word_space(lines: Sequence[Line]) -> float | None:
    """The width of a space between two words of one cell in these lines: the lower quartile
    of the gaps between words set on one line (most gaps are spaces; the wider ones are gaps
    between cells the layout kept on one line); ``None`` where no line holds two words. Gaps
    between one mark and the same mark again are left out where three others tell: marks in a
    row of cells ("X X X") are set a cell apart, and in a table of them they are most gaps.
    A type's space is a fraction of its size (a third of an em in TeX's roman, a quarter in
    Times): the space is never taken wider than :data:`_SPACE_EM` of an em, so that a table of
    one-word cells, where every gap parts two cells ("(1234) (123)(4) (12)(34)", the partitions of
    a set), is not read as one column of words. Where the lines hold one or two gaps only, it is
    that widest space: a header of two words over two rows of numbers is two cells."""
    pairs = [(a, b) for line in lines if line.words for a, b in zip(line.words, line.words[1:], strict=False) if b[1] - a[2] > 0]
    words = [(a, b) for a, b in pairs if not (len(a[0]) == 1 and a[0] == b[0])]
    gaps = sorted(b[1] - a[2] for a, b in (words if len(words) >= 3 else pairs))
    em = statistics.median(line.size for line in lines) if lines else 0.0
    if len(gaps) < 3:
        # too few to tell: a small table ("Index  Data" over two rows of numbers) takes the widest a space runs
        return _SPACE_EM * em if gaps and em > 0 else None
    return min(gaps[len(gaps) // 4], _SPACE_EM * em) if em > 0 else gaps[len(gaps) // 4]


#: the widest a word space is taken to be, as a share of the type's size (an em); a justified
#: line stretches TeX's third of an em to about this
_SPACE_EM = 0.5


def words_text(words: Sequence[Word]) -> str:
    """The text of a run of a line's words, read as the line's own text is (:func:`~.layout.normalize_text`):
    the words keep the characters as pdfium hands them over, where a hyphen that breaks a word at a
    line end is ``\\x02`` or U+FFFE and ligatures are one character, so a cell cut out of a line by
    its words would otherwise keep them ("re\\ufffe" over "turned" is "re-" over "turned", joined as
    "returned")."""
    return normalize_text(" ".join(text for text, _, _ in words))


def word_segments(lines: Sequence[Line], space: float | None, *, table: Sequence[Line] = ()) -> list[Line]:
    """Every line cut where two of its words lie clearly further apart than ``space``: the
    cells of a tight table the layout set on one line. A line in a typewriter face spaces its
    words a whole character apart (:func:`_pitch`), wider than the table's roman spaces: it is
    cut where its own gaps are clearly wider than that ("\\citep[see][figure 7]" is one cell), and
    wherever they are (a table all in typewriter, whose spaces between cells, a character and a
    half, set the table's word space: "default balanced strict" is three cells).
    A line whose gaps are all alike is justified text, not cut, unless two of its words or more
    open where cells of other lines open: a row of cells \\tabcolsep apart, the only one to fill
    every column ("(1234) (123)(4) (12)(34) (12)(3)(4) (1)(2)(3)(4)" over the other partitions),
    or its words stand word by word over another line's (:func:`_under_one_another`).
    ``table``: the lines whose cells tell that (``lines`` where none are given)."""
    if space is None:
        return list(lines)
    segments: list[Line] = []
    for line in lines:
        words = line.words or []
        pitch = _pitch(line)
        limit = max(_CELL_GAP * max(space, pitch), 1.0)
        if pitch:  # a typewriter's space is its pitch: a gap clearly wider parts cells, however the table's spaces run
            limit = min(limit, _TYPEWRITER_GAP * pitch)
        gaps = [words[index][1] - words[index - 1][2] for index in range(1, len(words))]
        cuts = [
            index
            for index in range(1, len(words))
            if gaps[index - 1] > limit and not _typewriter_space(words[index - 1], words[index], gaps[index - 1])
        ]
        if not cuts or (
            _justified(gaps) and statistics.median(gaps) <= _JUSTIFIED * space and not _row_of_cells(line, cuts, table or lines)
        ):
            segments.append(line)
            continue
        for start, end in zip([0, *cuts], [*cuts, len(words)], strict=True):
            group = words[start:end]
            segments.append(replace(line, text=words_text(group), x0=group[0][1], x1=group[-1][2], words=group, parts=None))
    return segments


#: a gap this many times a typewriter line's pitch is no space of it
_TYPEWRITER_GAP = 1.3
#: words this close (points) stand one under another
_ONE_UNDER = 1.5
#: a line evenly spaced whose words open where this many cells of other lines open is a row of cells, not justified text
_ALIGNED_CELLS = 2
#: how far two typewriter words' character widths, and the space between them, may differ (a share of the width)
_PITCH_SLACK = 0.04
_LETTER = re.compile(r"[^\W\d_]")


def _row_of_cells(line: Line, cuts: Sequence[int], table: Sequence[Line]) -> bool:
    """Whether a line spaced evenly is a row of cells (:func:`word_segments`): two of the words
    after its ``cuts`` or more open where a piece of another line of the ``table`` opens, or its
    words stand one under another with another line's. Asked of evenly spaced lines only."""
    words = line.words or []
    parts = [part for other in table for part in other.parts or (other,) if part is not line]
    aligned = sum(1 for index in cuts if any(abs(part.x0 - words[index][1]) <= 1 for part in parts))
    return aligned >= _ALIGNED_CELLS or _under_one_another(line, parts)


def _under_one_another(line: Line, lines: Sequence[Line]) -> bool:
    """Whether another line has as many words as ``line`` (three or more), each centred over the
    other's, or starting or ending where it does: two rows of a grid of one-word cells (Teubner's
    Greek letters over the Latin keys, a column each), which justified text never is."""
    mine = [(x0, (x0 + x1) / 2, x1) for _, x0, x1 in line.words or []]
    if len(mine) < 3:
        return False
    for other in lines:
        theirs = [(x0, (x0 + x1) / 2, x1) for _, x0, x1 in other.words or []]
        if other is line or len(theirs) != len(mine):
            continue
        for edge in range(3):  # left edges, middles, right edges
            if all(abs(a[edge] - b[edge]) <= _ONE_UNDER for a, b in zip(mine, theirs, strict=True)):
                return True
    return False


def _typewriter_space(first: Word, second: Word, gap: float) -> bool:
    """Whether ``gap`` is the space between two words of a typewriter face set in a line of
    another ("chr, start, end" in a Bioconductor table's first column, the description in roman
    beside it): both words' characters are one width, and the gap is that width, a typewriter's
    space. The line's own face (:func:`_pitch`) is the roman one there. Words of letters only:
    a font's digits are one width too, and numbers a digit apart are cells."""
    (a, a0, a1), (b, b0, b1) = first, second
    if len(a) < 2 or len(b) < 2 or not _LETTER.search(a) or not _LETTER.search(b):
        return False
    pitch, other = (a1 - a0) / len(a), (b1 - b0) / len(b)
    return abs(pitch - other) <= _PITCH_SLACK * pitch and abs(gap - pitch) <= 3 * _PITCH_SLACK * pitch


def _pitch(line: Line) -> float:
    """The width of a character of a line set in a typewriter face (its space is as wide); 0 for another face."""
    words = line.words or []
    if not words or not MONOSPACE_FONT.search(line.font):
        return 0.0
    return sum(end - start for _, start, end in words) / max(1, sum(len(text) for text, _, _ in words))


def _justified(gaps: Sequence[float]) -> bool:
    """Words spaced evenly, four gaps or more: a line of text set justified, not cells (a
    header of one-word labels spaced evenly is cut by the body's columns instead)."""
    if len(gaps) < 4:
        return False
    middle = statistics.median(gaps)
    return all(abs(gap - middle) <= 0.25 * middle for gap in gaps)


def number_gap(lines: Sequence[Line]) -> float | None:
    """The gap between numbers set side by side in these lines (cut around their numbers): the
    lower quartile of the gaps between two numbers next to each other on a line, ``None``
    where fewer than three such pairs are there. Dense numeric columns are set closer than a
    word space of a wide font (Courier's is 0.6 em)."""
    gaps = sorted(
        b.x0 - a.x1
        for line in lines
        if line.parts
        for a, b in zip(line.parts, line.parts[1:], strict=False)
        if _NUMBER.match(a.text) and _NUMBER.match(b.text) and b.x0 > a.x1
    )
    return gaps[len(gaps) // 4] if len(gaps) >= 3 else None


def column_edges(
    rows: Sequence[Sequence[Line]], x0: float, x1: float, *, space: float | None = None, numbers: float | None = None
) -> list[float]:
    """Column boundaries: the region's edges and the middle of every river between text.

    A river is at least ``_CELL_GAP`` word spaces wide where ``space`` is known (the lines are
    then :func:`word_segments`, so no gap inside a cell is that wide), else 0.6 of the text size;
    between columns of numbers, most of the ``numbers`` gap (:func:`number_gap`) is enough where
    they are set closer than that. A river the rows of most cells leave open is one where only
    words of the other rows cross it (labels across columns: :func:`_dense_rows`); so is one the
    body's rows of values leave open, where only the header's labels cross it (a label wrapped
    over lines, or set over the columns it heads: :func:`_body_rows`).
    """
    edges = _edges(rows, x0, x1, space, numbers)
    if len(edges) < 2:
        return edges
    for kept in (_dense_rows(rows), _body_rows(rows)):
        if len(kept) < len(rows):
            edges = _label_rivers(rows, kept, edges, x0, x1, space, numbers)
    return edges


def _label_rivers(
    rows: Sequence[Sequence[Line]],
    kept: Sequence[Sequence[Line]],
    edges: list[float],
    x0: float,
    x1: float,
    space: float | None,
    numbers: float | None,
) -> list[float]:
    """``edges`` with the rivers of the ``kept`` rows that only labels of the other rows cross
    (words over some of the columns, not prose across them all), between columns of numbers."""
    others = [line for row in rows if not any(row is mine for mine in kept) for line in row]
    extent = max(line.x1 for row in kept for line in row) - min(line.x0 for row in kept for line in row)
    found = list(edges)
    for edge in _edges(kept, x0, x1, space, numbers)[1:-1]:
        crossing = [line for line in others if line.x0 < edge < line.x1]
        # labels: words, over some of the columns (a line across them all is prose over the table)
        words = bool(crossing) and all(_LETTER.search(line.text) and line.x1 - line.x0 < _LABEL * extent for line in crossing)
        nearest = min(edges, key=lambda old: abs(edge - old))
        # text between it and the nearest edge: not the gap a river of every row parts already
        apart = any(min(edge, nearest) < line.x0 and line.x1 < max(edge, nearest) for row in rows for line in row)
        if words and apart and _numbers_either_side(kept, edge):
            found.append(edge)
    return sorted(found)


def _body_rows(rows: Sequence[Sequence[Line]]) -> Sequence[Sequence[Line]]:
    """The rows from the first that holds two values or more on, where three or more do: a
    header over them (labels wrapped over lines, a label over the columns it heads) may cross
    rivers the body's columns of numbers leave open."""
    start = next((index for index, row in enumerate(rows) if sum(1 for line in row if _MARKED_NUMBER.match(line.text)) >= 2), 0)
    return rows[start:] if start > 0 and len(rows) - start >= 3 else rows


def _edges(rows: Sequence[Sequence[Line]], x0: float, x1: float, space: float | None, numbers: float | None) -> list[float]:
    """:func:`column_edges` from these rows alone."""
    lines = [line for row in rows for line in row]
    if not lines:
        return []
    left, right = int(min(line.x0 for line in lines)), int(max(line.x1 for line in lines)) + 1
    touched = [0] * ((right - left) * _STEPS + 1)
    for low, high in (span for row in rows for span in _row_spans(row)):
        for x in range(int((low - left) * _STEPS), int((high - left) * _STEPS) + 1):
            touched[x] += 1
    allowed = max(1 if len(rows) >= 4 else 0, int(_RIVER_TOUCH * len(rows)))
    size = statistics.median(line.size for line in lines)
    wide = max(_RIVER_WIDTH * size, 3.0)
    width = (min(wide, max(_CELL_GAP * space, 2.0)) if space is not None else wide) * _STEPS
    narrow = min(width, max(_NUMBER_RIVER * numbers, 2.0) * _STEPS) if numbers is not None else width
    edges, start = [x0], None
    for offset, count in enumerate(touched + [len(rows) + 1]):
        if count <= allowed and start is None:
            start = offset
        elif count > allowed and start is not None:
            river = (left + start / _STEPS, left + offset / _STEPS)
            parts = offset - start >= width or (offset - start >= narrow and _between_numbers(lines, *river))
            if parts and start > 0 and offset < len(touched):
                edges.append(left + (start + offset) / 2 / _STEPS)
            elif start == 0 or offset >= len(touched):
                # a sparse first or last column (row labels in a few rows) is under the
                # allowance: a gap no line crosses between it and the next still parts them
                edges += [left + middle / _STEPS for middle in _clear_gaps(touched, start, offset, width)]
            start = None
    edges.append(x1)
    return sorted(edges)


def _row_spans(row: Sequence[Line]) -> list[tuple[float, float]]:
    """The x ranges a row's lines cover, overlapping or touching ones as one: a river is touched once by a
    row, however many of its pieces lie over it (a symbol with a superscript and a subscript,
    "D" with "1" over "4h", is three pieces stacked at one x; counted apiece they would close
    the river a label centred over two columns leaves open, and give the label a column)."""
    spans: list[tuple[float, float]] = []
    for line in sorted(row, key=lambda line: line.x0):
        if spans and line.x0 <= spans[-1][1] + 1 / _STEPS:  # set against it: one step of the histogram
            spans[-1] = (spans[-1][0], max(spans[-1][1], line.x1))
        else:
            spans.append((line.x0, line.x1))
    return spans


def _dense_rows(rows: Sequence[Sequence[Line]]) -> Sequence[Sequence[Line]]:
    """The rows that hold most of the table's cells, where three or more do. A row of far
    fewer pieces than most (a group label centred over the columns it heads, "L → S
    Fine-tuning"; a spanning header cell) may lie across rivers the other rows leave open:
    :func:`column_edges` adds a river of these rows between columns of numbers that only
    words of the others cross (a value there, "80" or "238/5536", is a column's, set between
    the lines of its row: the river is none; a text column's wrapped lines cross rivers of its
    own)."""
    middle = statistics.median(len(row) for row in rows) if rows else 0
    dense = [row for row in rows if len(row) >= _DENSE * middle]
    return dense if middle >= 3 and len(dense) >= 3 else rows


def _numbers_either_side(rows: Sequence[Sequence[Line]], edge: float) -> bool:
    """Numbers next to ``edge`` on both sides of it in most rows that hold a line on each side:
    a river between columns of values (text columns wrap, and their lines cross rivers)."""
    pairs = []
    for row in rows:
        before = [line for line in row if line.x1 <= edge]
        after = [line for line in row if line.x0 >= edge]
        if before and after:
            pairs.append((max(before, key=lambda line: line.x1), min(after, key=lambda line: line.x0)))
    numeric = sum(1 for left, right in pairs if _MARKED_NUMBER.match(left.text) and _MARKED_NUMBER.match(right.text))
    return len(pairs) >= 3 and numeric >= 0.6 * len(pairs)


def _between_numbers(lines: Sequence[Line], start: float, end: float) -> bool:
    """A narrow river with numbers on both sides of it in most rows that reach it: two columns
    of numbers set close, not a label and its number ("Run 1") a word space apart."""
    before = [line for line in lines if start - 1.0 <= line.x1 <= start + 0.5]
    after = [line for line in lines if end - 0.5 <= line.x0 <= end + 1.0]
    return all(bool(side) and sum(1 for line in side if _NUMBER.match(line.text)) >= 0.5 * len(side) for side in (before, after))


def _clear_gaps(touched: Sequence[int], start: int, end: int, width: float) -> list[float]:
    """Middles of the runs in ``touched[start:end]`` that no line crosses, at least ``width``
    wide, with text on both sides."""
    middles, run = [], None
    for offset in range(start, min(end + 1, len(touched))):
        if touched[offset] == 0 and run is None:
            run = offset
        elif touched[offset] > 0 and run is not None:
            if offset - run >= width and run > 0 and any(touched[:run]):
                middles.append((run + offset) / 2)
            run = None
    return middles


def column_of(line: Line, edges: Sequence[float]) -> int:
    """The column a line's left edge falls in (a row label running across the columns stays in the first)."""
    for index in range(1, len(edges) - 1):
        if line.x0 + 1 < edges[index]:
            return index - 1
    return len(edges) - 2


def place_overhangs(lines: Sequence[Sequence[Line]], edges: Sequence[float], space: float | None) -> list[Line]:
    """The cells of ``lines`` (each printed line's :func:`word_segments`, left to right) with a
    cell that only just starts left of a column's edge moved into that column (its left edge set
    on the edge), where :func:`column_of` would read it by its left edge in the column before.

    A cell centred in its column whose longest line is wider than the column's other lines
    starts left of the river between the columns (set by the shorter lines), by a character or
    so, holds most of its width right of it and ends within the column. A row label set from its
    column's own edge, or a number flush right in its column, reaches further into the left
    column or holds most of its width there, and stays; a label centred over several columns
    reaches past the next one, and stays in the first it spans. So does a piece of a line cut
    only around a number ("5" then "cm"): a word space from the piece before it, it goes on in
    that piece's cell.
    """
    placed: list[Line] = []
    for pieces in lines:
        previous: Line | None = None
        for piece in pieces:
            limit = max(_CELL_GAP * space, 1.0) if space is not None else 0.5 * piece.size
            attached = previous is not None and piece.x0 - previous.x1 <= limit
            edge = None if attached else _overhung_edge(piece, edges)
            placed.append(piece if edge is None else replace(piece, x0=edge))
            previous = piece
    return placed


def _overhung_edge(line: Line, edges: Sequence[float]) -> float | None:
    """The column edge ``line`` starts just left of while lying mostly right of it, if any."""
    column = column_of(line, edges)
    if column + 2 >= len(edges):
        return None
    left, edge, right = edges[column], edges[column + 1], edges[column + 2]
    inside = edge - line.x0
    mostly = line.x1 - edge > _MOST * (line.x1 - line.x0)
    # a label centred over several columns ("Label-Only" over P, R, F1) reaches past the next one:
    # it spans from the column it starts in, as a spanning cell is stored
    within = line.x1 <= right + 1
    return edge if inside <= min(_OVERHANG * line.size, 0.25 * (edge - left)) and mostly and within else None
