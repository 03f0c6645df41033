"""The page's drawn rules, as the table engine reads them, and the box every table step passes.

pdfium gives each path object's bounds; a flat or thin one is a rule, a box gives its four sides
(shaded cells bound a grid as rules do). :func:`horizontal_rules` joins the pieces of one rule
drawn in parts, and :func:`on_page` leaves out boxes bleeding off the page (a banner, a running
head's shaded bar). Apart from the region, the grid and the rows, which all take rules, so that
each of them imports this one small module and none imports another.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from paperpyramid.parsers.embedded.char_runs import turn_box
from paperpyramid.parsers.embedded.clipped import address, hidden_objects, page_bounds
from paperpyramid.parsers.embedded.layout import Line, user_size

__all__ = ["BBox", "Rule", "horizontal_rules", "on_page", "page_bounds", "read_marks", "read_rules", "without_word_boxes"]

#: x0, top, x1, bottom in points from the page's top-left corner, as :class:`Line` has them
BBox = tuple[float, float, float, float]
# a rule reaching further past the page's edge than this is a box bleeding off it (REVTeX frames its
# page's foot a point past the edges; a table's rules lie inside the margins)
_BLEED = 0.5
# a path no longer than this either way is a mark (a tick, a plotted point), however thin
_MARK_SIDE = 8.0
# a thin path is a rule from this thickness down (as :func:`read_rules` takes it)
_THIN = 2.5
# a box whose sides lie this close to a line's top and bottom and to its words' ends hugs them
_HUG = 1.5
# a stop or a bracket beside a word, outside its box, is this share of the text size wide at most
_MARK = 0.4
# the stops and brackets a word may carry outside the box of the code it prints
_PUNCTUATION = ".,;:!?()[]{}'\"’”“‘"


@dataclass(frozen=True, slots=True)
class Rule:
    """A drawn rule, horizontal (``top == bottom`` within its width) or vertical, top-left origin.

    Flat or thin lines, rectangles and curves are rules; a filled or stroked box gives its
    four sides (shaded cells bound a grid as rules do).
    """

    x0: float
    top: float
    x1: float
    bottom: float

    @property
    def horizontal(self) -> bool:
        return self.x1 - self.x0 >= self.bottom - self.top

    @property
    def y(self) -> float:
        return (self.top + self.bottom) / 2


def read_rules(page: pdfium.PdfPage, *, turn: int = 0) -> list[Rule]:
    """The page's drawn rules, horizontal and vertical (top-left origin; on the page turned
    upright by ``turn``, as :func:`extract_page` reports it)."""
    width, height = user_size(page)
    rules = []
    hidden = hidden_objects(page)
    forms: dict[pdfium.PdfObject, pdfium.PdfMatrix] = {}
    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH], max_depth=3):
        if hidden and address(obj.raw) in hidden:
            continue  # a rule of a copy a clipping path hides
        left, bottom, right, top = page_bounds(obj, forms)
        x0, y0, x1, y1 = left, height - top, right, height - bottom
        if turn:
            x0, y0, x1, y1 = turn_box(turn, (x0, y0, x1, y1), width, height)
        if x1 - x0 < 3 and y1 - y0 < 3:
            continue  # a dot, or a glyph drawn as a path
        if y1 - y0 <= _THIN or x1 - x0 <= _THIN:
            rules.append(Rule(x0, y0, x1, y1))
        else:
            rules += [Rule(x0, y0, x1, y0), Rule(x0, y1, x1, y1), Rule(x0, y0, x0, y1), Rule(x1, y0, x1, y1)]
    return rules


def read_marks(page: pdfium.PdfPage, *, turn: int = 0) -> list[BBox]:
    """The boxes of the page's drawn marks, the paths that are no rules: short strokes (a
    plot's ticks), dots and points, boxes, polygons and curves (bars, tiles, hexagons, a forest
    plot's squares). A table draws rules, and at most shades its rows; a plot draws marks among
    its labels (top-left origin, on the page turned upright by ``turn``)."""
    width, height = user_size(page)
    marks = []
    hidden = hidden_objects(page)
    forms: dict[pdfium.PdfObject, pdfium.PdfMatrix] = {}
    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH], max_depth=3):
        if hidden and address(obj.raw) in hidden:
            continue
        left, bottom, right, top = page_bounds(obj, forms)
        if min(right - left, top - bottom) <= _THIN and max(right - left, top - bottom) > _MARK_SIDE:
            continue  # a rule
        box = (left, height - top, right, height - bottom)
        marks.append(turn_box(turn, box, width, height) if turn else box)
    return marks


def horizontal_rules(rules: Sequence[Rule]) -> list[Rule]:
    """Horizontal rules with the pieces on one line that touch joined, top to bottom."""
    pieces = sorted((rule for rule in rules if rule.horizontal and rule.x1 - rule.x0 >= 5), key=lambda rule: (round(rule.y), rule.x0))
    joined: list[Rule] = []
    for piece in pieces:
        last = joined[-1] if joined else None
        if last is not None and abs(piece.y - last.y) <= 1.5 and piece.x0 <= last.x1 + 3:
            joined[-1] = Rule(last.x0, last.top, max(last.x1, piece.x1), last.bottom)
        else:
            joined.append(piece)
    return sorted(joined, key=lambda rule: rule.y)


def without_word_boxes(rules: Sequence[Rule], lines: Sequence[Line]) -> list[Rule]:
    """``rules`` but the sides of boxes that hug words of a line: the shading behind code set
    inline (Bioconductor's and knitr's styles box every ``\\texttt`` word, at times in two
    boxes that touch), a box whose top and bottom sides lie on the line's top and bottom and
    start at a word's start and end at a word's end, and whose upright sides run the line's
    height between them. A row's shading or a cell's reaches past its words by the column's
    padding; a word's box would part the lines of a cell wrapped under it as a rule between
    rows does."""
    at: dict[int, list[Line]] = {}
    for line in lines:
        if line.words:
            for level in {round(line.top), round(line.bottom)}:
                for key in (level - 1, level, level + 1):
                    at.setdefault(key, []).append(line)
    if not at:
        return list(rules)
    edges: dict[tuple[int, int, int], set[str]] = {}
    spans: list[tuple[float, float, float, list[Rule]]] = []  # pieces that touch on one line, joined
    for rule in sorted((rule for rule in rules if rule.horizontal), key=lambda rule: (round(rule.y), rule.x0)):
        last = spans[-1] if spans else None
        if last is not None and abs(rule.y - last[0]) <= 0.5 and rule.x0 <= last[2] + 1:
            spans[-1] = (last[0], last[1], max(last[2], rule.x1), [*last[3], rule])
        else:
            spans.append((rule.y, rule.x0, rule.x1, [rule]))
    for y, x0, x1, _ in spans:
        for line in at.get(round(y), ()):
            if _among_words(line, x0, x1):
                edge = "top" if abs(y - line.top) <= _HUG else "bottom" if abs(y - line.bottom) <= _HUG else ""
                edges.setdefault((id(line), round(x0), round(x1)), set()).add(edge)
    boxes = {key for key, sides in edges.items() if {"top", "bottom"} <= sides}
    if not boxes:
        return list(rules)
    dropped = {
        id(piece)
        for y, x0, x1, pieces in spans
        for line in at.get(round(y), ())
        if (id(line), round(x0), round(x1)) in boxes
        for piece in pieces
    }
    by_line: dict[int, list[tuple[int, int]]] = {}
    for line_id, left, right in boxes:
        by_line.setdefault(line_id, []).append((left, right))

    def upright_side(rule: Rule) -> bool:
        x = (rule.x0 + rule.x1) / 2
        return any(
            abs(rule.top - line.top) <= _HUG and abs(rule.bottom - line.bottom) <= _HUG and left - _HUG <= x <= right + _HUG
            for line in at.get(round(rule.top), ())
            for left, right in by_line.get(id(line), ())
        )

    return [rule for rule in rules if id(rule) not in dropped and (rule.horizontal or not upright_side(rule))]


def _among_words(line: Line, x0: float, x1: float) -> bool:
    """Whether ``x0`` falls at a word's start of ``line`` and ``x1`` at a word's end, or a
    stop or a bracket's width inside it (never a column's padding past its words, nor in the
    middle of a word: a grid's side across a line read over two cells)."""
    words, size = line.words or [], line.size
    return any(a - _HUG <= x0 <= a + _marks(text, size, opening=True) for text, a, _ in words) and any(
        b - _marks(text, size, opening=False) <= x1 <= b + _HUG for text, _, b in words
    )


def _marks(word: str, size: float, *, opening: bool) -> float:
    """How far into ``word`` a box of the code it prints may start (or end): a mark's width, and
    where the word opens (or ends) with stops or brackets set outside the box, theirs and the
    box's padding ("model.homozygous=FALSE)." boxed but for its ")." in a larger type)."""
    stripped = word.lstrip(_PUNCTUATION) if opening else word.rstrip(_PUNCTUATION)
    marks = len(word) - len(stripped)
    return _MARK * size * max(1, marks) + (_HUG if marks > 1 else 0.0)


def on_page(rule: Rule, page_bbox: BBox) -> bool:
    """Whether a rule lies on the page: a box that runs off its edge is a banner or a
    background (a running head's shaded bar), not the rule of a table."""
    px0, ptop, px1, pbottom = page_bbox
    return rule.x0 >= px0 - _BLEED and rule.x1 <= px1 + _BLEED and rule.top >= ptop - _BLEED and rule.bottom <= pbottom + _BLEED
