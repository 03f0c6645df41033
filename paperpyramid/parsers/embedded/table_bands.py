"""A text table read by its rules: each band between two rules across the table is a row.

Tables of sentences (a study's problem, goals, assumptions; a list of criteria) have no
columns of short values for the engine's column finder to see, and read as prose. Their
publishers rule every row across the table instead, which prose never is. A band whose
cells are divided by a vertical rule is cut there, and a column of it divided again by rules
across that column alone gives rows of its own beside an empty cell ("Goal" beside three
"Objectives").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from paperpyramid.parsers.embedded.blocks import join_lines
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_columns import word_segments, word_space, words_text

if TYPE_CHECKING:
    from paperpyramid.parsers.embedded.table_rules import Rule

# a rule across a column spans this share of its width
_ACROSS = 0.8
# fewer rows than this between rules is a boxed note or a caption, not a table of text
_MIN_BANDS = 3
# a vertical rule divides a band when it runs along this share of the band's height
_ALONG = 0.5
_SNAP = 3.0
_NOTE = re.compile(r"[*†‡§#]|(?:Notes?|Abbreviations?|Values|Data (?:are|were)|Source)\b|https?://(?:dx\.)?doi\.org/", re.IGNORECASE)
_CAPTION = re.compile(r"(?:Table|TABLE|Fig\.?|Figure|FIGURE)\s*[A-Z]?\d")
_TABLE_CAPTION = re.compile(r"(?:Table|TABLE)\s*[A-Z]?\d")
# a caption under a ruled table sits at most this many times the gap between this caption and its first rule under the table's last rule
_CLOSE_UNDER = 1.5
# the table's first rule lies this close under its caption (points)
_FIRST_RULE = 30.0
# a rule across a table is at least this wide (points): not a cell's underline
_MIN_WIDTH = 150.0
# rows of a table of sentences are a few lines tall: a rule further down closes no band
_MAX_BAND = 120.0
# at least this share of a ruled table's rows hold a word (three letters or more: a row's label, a
# sentence): a plot's frame and grid lines (a figure set under a table's caption, JSS) band tick
# numbers and points
_WORDED = 0.5
_WORD = re.compile(r"[^\W\d_]{3,}")


def banded_rows(
    lines: Sequence[Line], horizontal: Sequence[Rule], vertical: Sequence[Rule], caption: tuple[float, float, float, float]
) -> list[list[str]] | None:
    """The rows of the text table under ``caption`` (top-left origin), cut at the ``horizontal``
    rules (joined, top to bottom) running across it one under another, or ``None`` where fewer
    than three bands hold text or the bands hold columns set apart by space."""
    across = _rules_across(horizontal, caption)
    if len(across) < _MIN_BANDS + 1 or _next_captions(lines, horizontal, across, caption):
        return None
    left, right = across[0].x0, across[0].x1
    inside = [
        line
        for line in lines
        if not line.vertical
        and left - _SNAP <= (line.x0 + line.x1) / 2 <= right + _SNAP
        and across[0].y < line.top
        and line.bottom < across[-1].y
    ]
    space = word_space([part for line in inside for part in line.parts or (line,)])
    found: list[tuple[list[list[str]], bool, bool]] = []  # each band's rows, whether spaced into columns, whether ruled into them
    for upper, lower in zip(across, across[1:], strict=False):
        band = sorted(
            (line for line in inside if upper.y < (line.top + line.bottom) / 2 < lower.y), key=lambda line: (round(line.top), line.x0)
        )
        if not band:
            continue
        if len(found) >= _MIN_BANDS and _CAPTION.match(band[0].text):
            break  # the next table's caption: this one ended at the rule above it
        if found and _NOTE.match(band[0].text):
            break  # the table's notes, ruled off under it
        box = (left, upper.y, right, lower.y)
        borders = _dividers(vertical, box)
        if borders and _stacked(band, borders):
            return None  # rows of a grid whose rules stop short: the lattice's table
        found.append(
            (_band_rows(band, horizontal, vertical, box), not borders and _has_columns(word_segments(band, space), borders), bool(borders))
        )
    while len(found) > _MIN_BANDS and not found[-1][2] and sum(divided for _, _, divided in found) > len(found) / 2:
        found.pop()  # an undivided band under a grid: a note
    if len(found) < _MIN_BANDS or any(columned for _, columned, _ in found):
        return None  # columns the rules do not divide: a table of values, the column finder's
    rows = [row for band_rows, _, _ in found for row in band_rows]
    if sum(1 for row in rows if any(_WORD.search(cell) for cell in row)) < _WORDED * len(rows):
        return None  # bands of tick numbers and plotted points: a plot's grid lines under the caption, not a table's rows
    width = max(len(row) for row in rows)
    rows = [row + [""] * (width - len(row)) for row in rows]
    # two dividers a gutter apart (the sides of two shaded columns) part no cells: an empty column
    kept = [column for column in range(width) if any(row[column] for row in rows)]
    return [[row[column] for column in kept] for row in rows]


def _next_captions(
    lines: Sequence[Line], horizontal: Sequence[Rule], across: Sequence[Rule], caption: tuple[float, float, float, float]
) -> bool:
    """Whether the ruled table under the caption is the next caption's: a table caption follows
    its last rule about as closely as the first rule follows this caption, and no ruled table
    lies under that caption. Captions set under their tables leave one caption midway between
    two ruled tables, the one under it no nearer than the one over it; the next caption, with
    nothing ruled under it, claims the table it closes (read over it by the region's steps)."""
    first_gap = across[0].y - caption[3]
    left, right, last = across[0].x0, across[0].x1, across[-1].y
    for line in lines:
        if (
            not line.vertical
            and last < line.top <= last + _CLOSE_UNDER * first_gap + _SNAP
            and left - _SNAP <= (line.x0 + line.x1) / 2 <= right + _SNAP
            and _TABLE_CAPTION.match(line.text)
        ):
            return not _rules_across(horizontal, (line.x0, line.top, line.x1, line.bottom))
    return False


def _rules_across(horizontal: Sequence[Rule], caption: tuple[float, float, float, float]) -> list[Rule]:
    """The rules of one width under the caption, from the first (just under it) down to the
    last one a band's height under the one above."""
    x0, _, x1, bottom = caption
    first = next(
        (
            rule
            for rule in horizontal
            if bottom - 1 <= rule.y <= bottom + _FIRST_RULE
            and rule.x1 - rule.x0 >= _MIN_WIDTH
            and _overlap(rule, x0, x1) >= 0.5 * min(rule.x1 - rule.x0, x1 - x0)  # under the caption, not in the next column
        ),
        None,
    )
    if first is None:
        return []
    found = [first]
    for rule in horizontal:
        if rule.y > found[-1].y + _MAX_BAND:
            break
        if rule.y > found[-1].y + 1 and abs(rule.x0 - first.x0) <= _SNAP and abs(rule.x1 - first.x1) <= _SNAP:
            found.append(rule)
    return found


def _band_rows(
    band: Sequence[Line], horizontal: Sequence[Rule], vertical: Sequence[Rule], box: tuple[float, float, float, float]
) -> list[list[str]]:
    """One band's rows: one per rule-divided piece of its tallest column, side by side."""
    left, top, right, bottom = box
    borders = _dividers(vertical, box)
    crossed = {x for line in band for x in borders if line.x0 + 2 < x < line.x1 - 2}
    beside = {x: [(rule.top, rule.bottom) for rule in vertical if abs((rule.x0 + rule.x1) / 2 - x) <= _SNAP] for x in crossed}
    pieces = [
        piece
        for line in band
        for piece in split_at(line, [x for x in borders if line.x0 + 2 < x < line.x1 - 2 and _alongside(beside[x], line)])
    ]
    spans = list(zip([left - _SNAP, *borders], [*borders, right + _SNAP], strict=True))
    columns: list[list[tuple[float, str]]] = []
    for start, end in spans:
        column = [line for line in pieces if start <= (line.x0 + line.x1) / 2 < end]
        cuts = [
            rule.y
            for rule in horizontal
            if top + 1 < rule.y < bottom - 1 and _overlap(rule, start, end) >= _ACROSS * (end - start - 2 * _SNAP)
        ]
        columns.append(_cut(column, sorted(cuts), top))
    # each piece in the row of the rules its top lies between: a column with no text over a
    # rule that cuts it (a label spanning it and the next, centred over the next) starts under it
    levels = sorted({round(upper) for texts in columns for upper, _ in texts})
    rows = [["" for _ in columns] for _ in levels]
    for index, texts in enumerate(columns):
        for upper, text in texts:
            rows[levels.index(round(upper))][index] = text
    return rows or [[""]]


def _stacked(band: Sequence[Line], borders: Sequence[float]) -> bool:
    """Whether the band's first column holds several rows: a cell further right opens level
    with one of its lines but the first (rows of a grid whose rules stop short, not a cell
    wrapped beside a wrapped cell)."""

    def column(line: Line) -> int:
        return sum(1 for x in borders if x < (line.x0 + line.x1) / 2)

    later = [line.top for line in band if column(line) == 0][1:]
    for line in band:
        if column(line) and any(abs(line.top - top) <= 2 for top in later):
            height = line.bottom - line.top
            if not any(column(above) == column(line) and 0 < line.top - above.top <= 1.6 * height for above in band):
                return True
    return False


def _has_columns(band: Sequence[Line], borders: Sequence[float]) -> bool:
    """Whether lines of the band between the same dividers stand side by side: one sharing
    another's baseline, or one starting right of where another ends (a label set beside its
    list). Cells set apart by space, as a table of values or of labels is."""
    seen: set[tuple[int, int]] = set()
    spans: dict[int, tuple[float, float]] = {}  # per column: the rightmost start, the leftmost end
    for line in band:
        column = sum(1 for x in borders if x < (line.x0 + line.x1) / 2)
        key = (column, round(line.bottom / 2))
        if key in seen:
            return True
        seen.add(key)
        start, end = spans.get(column, (line.x0, line.x1))
        spans[column] = (max(start, line.x0), min(end, line.x1))
    return any(start > end + _SNAP for start, end in spans.values())


def _dividers(vertical: Sequence[Rule], box: tuple[float, float, float, float]) -> list[float]:
    """The x of each vertical rule that runs along most of the band, inside it."""
    left, top, right, bottom = box
    runs: dict[float, float] = {}
    for rule in vertical:
        x = round((rule.x0 + rule.x1) / 2)
        if left + _SNAP < x < right - _SNAP:
            along = min(rule.bottom, bottom) - max(rule.top, top)
            if along > 0:
                key = next((seen for seen in runs if abs(seen - x) <= _SNAP), x)
                runs[key] = runs.get(key, 0.0) + along
    return sorted(x for x, along in runs.items() if along >= _ALONG * (bottom - top))


def _alongside(runs: Sequence[tuple[float, float]], line: Line) -> bool:
    """Whether a divider (the ``runs``, top to bottom, of its vertical rules) runs beside
    ``line`` (a shaded column may start under a label that spans it and its neighbour: the
    label is not cut there)."""
    middle = (line.top + line.bottom) / 2
    return any(top <= middle <= bottom for top, bottom in runs)


def _cut(column: Sequence[Line], cuts: Sequence[float], top: float) -> list[tuple[float, str]]:
    """The texts of ``column``'s pieces between ``cuts`` (the y of rules across the column), each
    with the rule over it (``top``, the band's, over the first)."""
    edges = [top, *cuts, float("inf")]
    texts = []
    for upper, lower in zip(edges, edges[1:], strict=False):
        piece = sorted(
            (line for line in column if upper < (line.top + line.bottom) / 2 < lower), key=lambda line: (round(line.top), line.x0)
        )
        if piece:
            texts.append((upper, join_lines([line.text for line in piece])))
    return texts


def _overlap(rule: Rule, start: float, end: float) -> float:
    return min(rule.x1, end) - max(rule.x0, start)


def split_at(line: Line, borders: Sequence[float]) -> list[Line]:
    """A line cut where a vertical rule crosses it, at the space nearest the rule.

    The parser cuts lines only at gaps wider than 1.4 times the text size, so two narrow
    cells can share a line ("12.8 Female"). Characters are taken as equally wide.
    """
    inner = [x for x in borders if line.x0 + 2 < x < line.x1 - 2]
    if not inner or " " not in line.text:
        return [line]
    if line.words and sum(len(word[0].split()) for word in line.words) == len(line.text.split()):  # a word may hold thin spaces
        return _split_words(line, inner)
    per_char = (line.x1 - line.x0) / len(line.text)
    spaces = [index for index, char in enumerate(line.text) if char == " "]
    cuts = sorted({min(spaces, key=lambda index: abs(line.x0 + index * per_char - x)) for x in inner})
    pieces, start = [], 0
    for cut in [*cuts, len(line.text)]:
        text = line.text[start:cut].strip()
        if text:
            x0 = line.x0 + start * per_char
            pieces.append(replace(line, text=text, x0=x0, x1=line.x0 + cut * per_char))
        start = cut + 1
    return pieces


def _split_words(line: Line, borders: Sequence[float]) -> list[Line]:
    """:func:`split_at` by the words' own edges: each word goes to the side of the rules its
    middle lies on."""
    groups: dict[int, list[tuple[str, float, float]]] = {}
    for word in line.words or []:
        groups.setdefault(sum(1 for x in borders if x < (word[1] + word[2]) / 2), []).append(word)
    return [
        replace(line, text=words_text(group), x0=group[0][1], x1=group[-1][2], words=group, parts=None)
        for _, group in sorted(groups.items())
    ]


__all__ = ["banded_rows", "split_at"]
