"""Cells filled from the PDF's own text: each word goes to the cell box it overlaps most.

The words are those of the page's lines (read with ``split_numbers``, a line carries its
words and their left and right edges; the line gives their top and bottom), so the text is
exactly the text layer's, and a line printed across two cells ("12.8 Female") is split at its
words. A word that overlaps no cell goes to the nearest one within a line's height; further
off (a note under the table, a stray caption line) it is left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paperpyramid.parsers.embedded.blocks import join_lines
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_spaces import THIN_SPACE

__all__ = ["Word", "fill_cells", "region_words"]

#: x0, top, x1, bottom in points
Box = tuple[float, float, float, float]


@dataclass(frozen=True, slots=True)
class Word:
    """A word with its box (points, top-left origin) and the printed line it belongs to."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    line: int

    @property
    def area(self) -> float:
        return max(self.x1 - self.x0, 0.1) * max(self.bottom - self.top, 0.1)


def region_words(lines: Sequence[Line], region: Box) -> list[Word]:
    """The words of the horizontal lines inside ``region`` (a line's middle in its width, its
    box in its height, as the table engine takes a region's lines)."""
    x0, top, x1, bottom = region
    words: list[Word] = []
    for index, line in enumerate(lines):
        if line.vertical or not (x0 <= (line.x0 + line.x1) / 2 <= x1 and top <= line.top and line.bottom <= bottom + 1):
            continue
        for text, left, right in line.words or [(line.text, line.x0, line.x1)]:
            if text.strip():
                words.append(Word(text.replace(THIN_SPACE, " "), left, line.top, right, line.bottom, index))
    return words


def _overlap(word: Word, box: Box) -> float:
    width = min(word.x1, box[2]) - max(word.x0, box[0])
    height = min(word.bottom, box[3]) - max(word.top, box[1])
    return max(width, 0.0) * max(height, 0.0) / word.area


def _distance(word: Word, box: Box) -> float:
    dx = max(box[0] - word.x1, word.x0 - box[2], 0.0)
    dy = max(box[1] - word.bottom, word.top - box[3], 0.0)
    return float((dx * dx + dy * dy) ** 0.5)


def _centre_distance(word: Word, box: Box) -> float:
    return abs((word.x0 + word.x1 - box[0] - box[2]) / 2) + abs((word.top + word.bottom - box[1] - box[3]) / 2)


def assign_words(words: Sequence[Word], boxes: Sequence[Box]) -> list[list[Word]]:
    """The words each box takes: the box a word overlaps most (the nearer centre among equals),
    else the nearest box within the word's height; words further from every box are dropped."""
    taken: list[list[Word]] = [[] for _ in boxes]
    if not boxes:
        return taken
    for word in words:
        best = max(range(len(boxes)), key=lambda index: (_overlap(word, boxes[index]), -_centre_distance(word, boxes[index])))
        if _overlap(word, boxes[best]) <= 0:
            best = min(range(len(boxes)), key=lambda index: _distance(word, boxes[index]))
            if _distance(word, boxes[best]) > word.bottom - word.top:
                continue
        taken[best].append(word)
    return taken


def cell_text(words: Sequence[Word]) -> str:
    """A cell's words as text: each printed line's words left to right, lines top to bottom
    joined as running text (a word broken at a line's end is joined)."""
    lines: dict[int, list[Word]] = {}
    for word in words:
        lines.setdefault(word.line, []).append(word)
    ordered = sorted(lines.values(), key=lambda group: (round(min(word.top for word in group)), min(word.x0 for word in group)))
    return join_lines([" ".join(word.text for word in sorted(group, key=lambda word: word.x0)) for group in ordered])


def fill_cells(words: Sequence[Word], boxes: Sequence[Box]) -> list[str]:
    """The text of each box, from the words it takes (:func:`assign_words`)."""
    return [cell_text(taken) for taken in assign_words(words, boxes)]
