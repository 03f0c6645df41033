"""The cells of the table under a "Table N" caption, from the page's text lines and rules.

A prototype, measured by ``benchmarks/table_engines.py`` beside pdfplumber's table finder and
camelot. Those engines read the PDF with pure-Python parsers (pdfminer.six, playa) at
0.07-0.4 s a page, which would more than double the embedded parser's time on a paper full
of tables; this module reads the page with pdfium, as the parser does (one page: about
15 ms), and borrows their ideas:

1. The region (:func:`find_region`): the caption's column (the left or right half of a
   two-column page, or the page when text or rules under the caption cross the middle).
   A caption with a rule just above it closes a table printed above it (ACL and arXiv
   styles): the region runs up to the highest rule of that table. Otherwise the region runs
   from under the caption (its continuation lines skipped: the caption block often holds
   only its first line) to the next "Table N" / "Figure N" caption or the page's end. When
   the table's rules run further than a header, its last rule closes it; a table whose rules
   stop after the header (continued on the next page or column) runs to the column's end.
   Where the region ends at the next table's caption, set much closer under it than the
   region is under this caption (each caption printed under its own table), the table is
   the one over this caption.
2. A ruled grid in the region (vertical and horizontal rules meeting) gives the cells as
   drawn: pdfplumber's lattice steps (``merge_edges``, ``edges_to_intersections``,
   ``intersections_to_cells``, ``cells_to_tables``; MIT) run on the rules pdfium reads, and
   a cell spanning rows or columns keeps its text in its first row and column. Sides left
   open by a grid of boxed cells are closed where the rules across its rows end; a grid whose
   body is one box holding rows of short lines (columns ruled, rows not) is read as text.
   Rules off the page (a banner bleeding off its edge) rule off no table.
3. Otherwise, rows are the printed lines (:mod:`.table_row_joins`), and a line set closer to
   the one above than the table's usual row spacing continues that row (a cell wrapped over lines): when the gaps
   between lines fall into two groups (leading inside a cell, and the space between rows),
   the small ones join. A table whose rows all sit alike (one group) joins nothing.
4. Columns: the white "rivers" that run down the region (Nurminen's text-alignment idea,
   behind pdfplumber's "text" strategy and camelot's stream flavour): x ranges that at most
   a fifth of the lines touch. A line belongs to the column its left edge falls in, so a
   row label that runs across the columns ("Forests") stays in the first.
5. Notes under the table's bottom rule, and lines after a wide gap at the end, are dropped
   when they fill one cell only.

Around these steps: a manuscript's line numbers are gone already, left where the page was read
(:class:`~.line_numbers.LineNumbering`); subtables stacked under one caption are read part by part, the
caption's table being the first (:mod:`.table_stacks`, :func:`table_parts`); and a header of two
levels whose other labels sit halfway down it is read as two rows (:mod:`.table_headers`).

:func:`extract_table` returns ``None`` where it finds no table with two columns or more, so
the caller keeps its own cells (prose is never turned into a table).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from paperpyramid.parsers.embedded.blocks import join_lines
from paperpyramid.parsers.embedded.char_runs import turn_box
from paperpyramid.parsers.embedded.clipped import address, hidden_objects
from paperpyramid.parsers.embedded.glyphs import GlyphMap
from paperpyramid.parsers.embedded.layout import Line, Page, extract_page, table_lines, user_size
from paperpyramid.parsers.embedded.table_bands import banded_rows, split_at
from paperpyramid.parsers.embedded.table_columns import column_edges, column_of, number_gap, word_segments, word_space, words_text
from paperpyramid.parsers.embedded.table_ends import before_wide_gap, running_head
from paperpyramid.parsers.embedded.table_headers import two_level_header
from paperpyramid.parsers.embedded.table_row_joins import PrintedRow, join_rows, printed_rows, row_cells, spans_table
from paperpyramid.parsers.embedded.table_spaces import THIN_SPACE
from paperpyramid.parsers.embedded.table_stacks import first_part, parts

__all__ = [
    "BBox",
    "Rule",
    "TablePart",
    "extract_table",
    "find_region",
    "read_rules",
    "read_table_page",
    "side_by_side_prose",
    "table_page",
    "table_parts",
    "table_rows",
]

_PDFPLUMBER_HINT = "the table engine's ruled-grid step needs pdfplumber (MIT): pip install 'pdfplumber>=0.11,<0.12'"

#: x0, top, x1, bottom in points from the page's top-left corner, as :class:`Line` has them
BBox = tuple[float, float, float, float]

# "Table 2", "Fig. 3a", "TABLE IV" (Roman numerals in capitals: "Table In" is no caption)
_CAPTION_START = re.compile(r"^\s*(?i:table|tab\.|fig\.?|figure|scheme|chart)\s*(?:[A-Za-z]?\d+[A-Za-z]?|[IVX]+)\b")
_TABLE_WORD = re.compile(r"^\s*(?:table|tab\.)", re.IGNORECASE)
# two rules no further apart than this are only the table's top and header rules (three close it)
_HEADER_RULES = 60.0
# a column of running text spans at least this share of the width the long lines of a span cover
_TEXT_COLUMN = 0.45
# a caption this close under a rule closes a table printed above it (ACL: 12-15 pt)
_ABOVE_GAP = 18.0
# a caption under its table sits closer under it than this share of the gap over a table under a caption
_HUGS = 0.6
# rules in the page's bottom tenth rule off its footer, not a table under a caption
_FOOTER_BAND = 0.1
# a rule reaching further past the page's edge than this is a box bleeding off it (REVTeX frames its
# page's foot a point past the edges; a table's rules lie inside the margins)
_BLEED = 0.5
# a word broken over two lines ("CONSE-" over "QUENCES")
_BROKEN = re.compile(r"[^\W\d_]-$")
# a header cell that is a value (a year, a count): the body's, not a label's
_VALUE = re.compile(r"^\(?(?:[-+−–<>≤≥]\s?)?\(?\d|^(?:NA|N/A|NR|ND|–|-|—)$")


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


def extract_table(pdf_path: Path, page_number: int, caption_bbox: BBox) -> list[list[str]] | None:
    """Rows of cells of the table under the caption at ``caption_bbox`` on page
    ``page_number`` (1-based) of ``pdf_path``; ``None`` where no table is found there."""
    pdf = pdfium.PdfDocument(pdf_path)
    try:
        return table_rows(*read_table_page(pdf, page_number), caption_bbox)
    finally:
        pdf.close()


def read_table_page(pdf: pdfium.PdfDocument, page_number: int, *, glyphs: GlyphMap | None = None) -> tuple[list[Line], list[Rule], BBox]:
    """A page's lines (cut around their numbers), rules and box, as :func:`table_rows` takes
    them (a sideways page read turned upright, fonts without a Unicode map read with the
    ``glyphs`` OCR taught, as the parser reads it). A review copy's line numbers are left out
    where the page shows a column of them (:func:`~.line_numbers.line_number_marks`); read alone, a page
    has no document's columns to go by."""
    page = pdf[page_number - 1]
    try:
        read = extract_page(page, page_number, split_numbers=True, glyphs=glyphs)
        return read.lines, read_rules(page, turn=read.turn), (0.0, 0.0, read.width, read.height)
    finally:
        page.close()


def table_page(pdf: pdfium.PdfDocument, page: Page) -> tuple[list[Line], list[Rule], BBox]:
    """:func:`read_table_page` for a page the parser has read already: its lines made from the
    runs kept from that reading (:func:`~.layout.table_lines`), only its rules read from the PDF.
    A review copy's line numbers left those runs where the page was read (the document's
    columns of them, :class:`~.line_numbers.LineNumbering`)."""
    pdf_page = pdf[page.number - 1]
    try:
        return table_lines(page), read_rules(pdf_page, turn=page.turn), (0.0, 0.0, page.width, page.height)
    finally:
        pdf_page.close()


def read_rules(page: pdfium.PdfPage, *, turn: int = 0) -> list[Rule]:
    """The page's drawn rules, horizontal and vertical (top-left origin; on the page turned
    upright by ``turn``, as :func:`extract_page` reports it)."""
    width, height = user_size(page)
    rules = []
    hidden = hidden_objects(page)
    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_PATH], max_depth=3):
        if hidden and address(obj.raw) in hidden:
            continue  # a rule of a copy a clipping path hides
        left, bottom, right, top = obj.get_bounds()
        x0, y0, x1, y1 = left, height - top, right, height - bottom
        if turn:
            x0, y0, x1, y1 = turn_box(turn, (x0, y0, x1, y1), width, height)
        if x1 - x0 < 3 and y1 - y0 < 3:
            continue  # a dot, or a glyph drawn as a path
        if y1 - y0 <= 2.5 or x1 - x0 <= 2.5:
            rules.append(Rule(x0, y0, x1, y1))
        else:
            rules += [Rule(x0, y0, x1, y0), Rule(x0, y1, x1, y1), Rule(x0, y0, x0, y1), Rule(x1, y0, x1, y1)]
    return rules


def _horizontal_rules(rules: Sequence[Rule]) -> list[Rule]:
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


class TablePart(NamedTuple):
    """One part of subtables stacked under a caption: its mark ("(b)"; ``""`` for a table of one
    part), its box and its cells."""

    mark: str
    box: BBox
    cells: list[list[str]]


class Region(tuple[float, float, float, float]):
    """A table's box found without a caption (:mod:`.table_detect`): passed where a caption's
    box goes, it is read as it is, with no region to find around it."""

    __slots__ = ()


def table_rows(lines: Sequence[Line], rules: Sequence[Rule], page_bbox: BBox, caption_bbox: BBox) -> list[list[str]] | None:
    """The cells of the table under ``caption_bbox`` (or over it, where nothing table-like is
    under it: a caption printed below its table), from one page's lines and rules, or ``None``;
    a :class:`Region` is read as the table's own box."""
    found = table_parts(lines, rules, page_bbox, caption_bbox)
    return found[0].cells if found else None


def table_parts(lines: Sequence[Line], rules: Sequence[Rule], page_bbox: BBox, caption_bbox: BBox) -> list[TablePart]:
    """:func:`table_rows` with every part of subtables stacked under the caption
    (:mod:`.table_stacks`), the caption's own table first; ``[]`` where no table is found."""
    cells, region = _table_cells(lines, rules, page_bbox, caption_bbox)
    if cells is None:
        return []
    found = [TablePart("", region or caption_bbox, cells)]
    if region is not None:
        stacked = parts(lines, region)
        later = [TablePart(mark, box, read_box(lines, rules, box) or []) for mark, box in stacked[1:]]
        found = [TablePart(stacked[0][0], stacked[0][1], cells)] + [part for part in later if part.cells]
    return [part._replace(cells=[[cell.replace(THIN_SPACE, " ") for cell in row] for row in part.cells]) for part in found]


def _table_cells(
    lines: Sequence[Line], rules: Sequence[Rule], page_bbox: BBox, caption_bbox: BBox
) -> tuple[list[list[str]] | None, BBox | None]:
    """The cells of the table, and the region they were read from (``None`` for a table read by its rules)."""
    if isinstance(caption_bbox, Region):
        return read_region(lines, rules, caption_bbox), caption_bbox
    # a table of sentences, ruled row by row, is read by its rules; any other by its columns
    cells = banded_rows(lines, _horizontal_rules(rules), [rule for rule in rules if not rule.horizontal], caption_bbox)
    if cells is not None:
        return cells, None
    region = find_region(lines, rules, page_bbox, caption_bbox)
    if region is not None and _next_captions_table(lines, region, caption_bbox):
        above = region_over_caption(lines, page_bbox, caption_bbox)
        cells = read_region(lines, rules, above) if above is not None else None
        if cells is not None:
            return cells, above
    cells = read_region(lines, rules, region) if region is not None else None
    if cells is None:
        region = region_over_caption(lines, page_bbox, caption_bbox)
        cells = read_region(lines, rules, region) if region is not None else None
    return cells, region if cells is not None else None


def read_region(lines: Sequence[Line], rules: Sequence[Rule], region: BBox) -> list[list[str]] | None:
    """The cells of the table filling ``region`` (its first part, where subtables are stacked in
    it: :func:`~.table_stacks.first_part`), or ``None`` where it holds no table."""
    return read_box(lines, rules, first_part(lines, region))


def read_box(lines: Sequence[Line], rules: Sequence[Rule], region: BBox) -> list[list[str]] | None:
    """The cells of the table filling ``region``, or ``None`` where it holds no table."""
    x0, top, x1, bottom = region
    whole = [
        line
        for line in lines
        if not line.vertical and x0 <= (line.x0 + line.x1) / 2 <= x1 and top <= line.top and line.bottom <= bottom + 1
    ]
    inside = [part for line in whole for part in line.parts or (line,)]
    grid = _ruled_grid(inside, rules, region)
    if grid is not None:
        return grid
    space = word_space(inside)
    segments = word_segments(inside, space)
    physical = printed_rows(segments)
    # rivers are counted against the bands lines chain into (a label set between two rows joins both)
    chained = printed_rows(segments, chain=True)
    edges = column_edges([row.lines for row in chained], x0, x1, space=space, numbers=number_gap(whole))
    if len(edges) < 3:
        return None  # one column: prose or a list, not a table
    horizontal = [rule for rule in _horizontal_rules(rules) if top < rule.y < bottom + 1]
    extent = max(line.x1 for line in segments) - min(line.x0 for line in segments)
    heads = [line for row in _header_rows(physical, horizontal, extent)[1:] for line in row.lines]
    pieces = [rule for rule in rules if rule.horizontal and top < rule.y < bottom + 1]  # a group's rule, not joined to the next group's
    physical[0].lines = [piece for line in physical[0].lines for piece in _header_cells(line, physical[0].lines, heads, edges, pieces)]
    physical = two_level_header(physical, edges, horizontal)
    rows = join_rows(physical, horizontal, edges)
    first = min(column_of(line, edges) for line in segments)
    cells = [row_cells(row, edges, heading=spans_table(row, rows, edges), first=first) for row in rows]
    return cells if len(cells) >= 2 and not _looks_like_prose(cells) else None


def _looks_like_prose(cells: Sequence[Sequence[str]]) -> bool:
    """Running text cut into "columns": most rows fill the first cell only, or every cell is a line of prose
    (a two-column page under a caption that sits below its table: its first row is prose too)."""
    filled = [[cell for cell in row if cell] for row in cells]
    # a row that fills one cell reads as prose in the first column; in a later one it is a
    # table's list of items beside a row label above it
    if sum(1 for row, full in zip(cells, filled, strict=True) if len(full) <= 1 and (not full or row[0])) >= 0.6 * len(filled):
        return True
    return side_by_side_prose(filled)


def side_by_side_prose(filled: Sequence[Sequence[str]]) -> bool:
    """Rows of filled cells that are long cells side by side from the first row on: the two
    columns of a page of running text; a table opens with a header of short labels."""
    wordy = [len(row) >= 2 and all(len(cell) >= 30 for cell in row) for row in filled]
    return len(filled) >= 3 and all(len(cell) >= 30 for cell in filled[0]) and sum(wordy) >= 0.5 * len(filled)


# --------------------------------------------------------------------------- region


def find_region(lines: Sequence[Line], rules: Sequence[Rule], page_bbox: BBox, caption_bbox: BBox) -> BBox | None:
    """The part of the page the table under the caption occupies, or ``None`` for none."""
    px0, ptop, px1, pbottom = page_bbox
    cx0, ctop, cx1, cbottom = caption_bbox
    rules = [rule for rule in rules if _on_page(rule, page_bbox)]
    middle = (px0 + px1) / 2
    if cx1 <= middle + 10:
        span = (px0, middle)
    elif cx0 >= middle - 10:
        span = (middle, px1)
    else:
        span = (px0, px1)
    # a table printed above its caption: the caption's half, or the page where its rules cross
    above = _region_above(_column(lines, span), _crossing(rules, span), ctop)
    if above is not None:
        wide = [rule.y for rule in _horizontal_rules(rules) if rule.x1 - rule.x0 >= 0.6 * (px1 - px0) and rule.x0 < middle < rule.x1]
        if all(any(abs(y - edge) < 1.5 for y in wide) for edge in (above[0] + 0.5, above[1] - 0.5)):  # top and bottom rules span the page
            span = (px0, px1)
        return (span[0], above[0], span[1], above[1])
    if span != (px0, px1) and (_crosses_middle(lines, rules, middle, cbottom) or _one_column(lines, middle)):
        span = (px0, px1)
    column = _column(lines, span)
    crossing = _crossing(rules, span)
    top = _after_caption(column, caption_bbox)
    # the table ends at the next caption, or at running text (a caption printed below its table, or none)
    limit = min((line.top - 0.5 for line in column if line.top > top and _CAPTION_START.match(line.text)), default=pbottom)
    limit = min(limit, _running_text(column, top, limit))
    inside = [line for line in column if top <= line.top and line.bottom <= limit]
    if not inside:
        return None
    footer = pbottom - _FOOTER_BAND * (pbottom - ptop)
    below = _closing_rules([rule for rule in crossing if top - 2 <= rule.y <= min(limit, footer)], column, span)
    bottom = before_wide_gap(inside) + 0.5
    if len(below) >= 3 or (len(below) == 2 and below[-1].y - below[0].y > _HEADER_RULES):
        bottom = below[-1].y + 0.5
    return (span[0], top, span[1], bottom)


def _on_page(rule: Rule, page_bbox: BBox) -> bool:
    """Whether a rule lies on the page: a box that runs off its edge is a banner or a
    background (a running head's shaded bar), not the rule of a table."""
    px0, ptop, px1, pbottom = page_bbox
    return rule.x0 >= px0 - _BLEED and rule.x1 <= px1 + _BLEED and rule.top >= ptop - _BLEED and rule.bottom <= pbottom + _BLEED


def _next_captions_table(lines: Sequence[Line], region: BBox, caption_bbox: BBox) -> bool:
    """Whether the table under a caption is the next caption's, printed above it: under the
    region's last line (and at most two lines more: its subcaption) comes a table caption,
    set much closer under them than the region's first line is under this caption (a page of
    captions set below their tables, each one hugging its own: the region under one caption
    is the next table's)."""
    x0, top, x1, bottom = region
    inside = [
        line
        for line in lines
        if not line.vertical and x0 <= (line.x0 + line.x1) / 2 <= x1 and top <= line.top and line.bottom <= bottom + 1
    ]
    if not inside:
        return False
    first = min(line.top for line in inside) - caption_bbox[3]
    last = max(line.bottom for line in inside)
    under = sorted((line for line in _column(lines, (x0, x1)) if line.top >= last - 0.5), key=lambda line: line.top)
    captions = [index for index, line in enumerate(under) if _TABLE_WORD.match(line.text) and _CAPTION_START.match(line.text)]
    if not captions or captions[0] > 2:
        return False  # no caption under the region, or text between (a table's subcaption is a line or two)
    above = under[captions[0] - 1].bottom if captions[0] else last
    return under[captions[0]].top - above < _HUGS * first


def body_margins(column: Sequence[Line]) -> list[tuple[float, float]]:
    """The left and right edges of the running text of a column: the most common edges of its
    long lines, and any pair of edges three long lines share that spans most of a column of a
    two-column page (a span across such a page has one pair per column; a table's cells share
    a left edge, seldom a right one, and are narrower); empty where too few long lines tell."""
    long = [line for line in column if len(line.text) >= 40 and not line.parts]
    if len(long) < 3:
        return []
    left = statistics.mode(round(line.x0) for line in long)
    right = statistics.mode(round(line.x1) for line in long)
    margins = [(float(left), float(right))] if right - left > 100 else []
    least = _TEXT_COLUMN * (max(line.x1 for line in long) - min(line.x0 for line in long))
    for (left, right), count in Counter((round(line.x0), round(line.x1)) for line in long).most_common():
        if count < 3:
            break
        if right - left > max(100, least) and not any(abs(left - x0) <= 2 and abs(right - x1) <= 3 for x0, x1 in margins):
            margins.append((float(left), float(right)))
    return margins


def prose_line(line: Line, margins: Sequence[tuple[float, float]]) -> bool:
    """A line of running text: words from a column's left margin (or a paragraph's indent) to
    its right one, set as one line (no gap wide enough to part cells)."""
    if not margins or len(line.text) < 40 or len(line.text.split()) < 7:
        return False
    return any(-2 <= line.x0 - left <= 20 and abs(line.x1 - right) <= 3 for left, right in margins)


def region_over_caption(lines: Sequence[Line], page_bbox: BBox, caption_bbox: BBox) -> BBox | None:
    """The box of an unruled table printed above its caption: the lines up from the caption,
    each close under the next, to running text, another caption, a larger type (a heading) or
    a wide gap; ``None`` where fewer than two rows are there."""
    px0, ptop, px1, pbottom = page_bbox
    cx0, ctop, cx1, cbottom = caption_bbox
    middle = (px0 + px1) / 2
    span = (px0, middle) if cx1 <= middle + 10 else (middle, px1) if cx0 >= middle - 10 else (px0, px1)
    head = running_head(lines, page_bbox)
    over = [
        line
        for line in lines
        if not line.vertical and line.bottom <= ctop + 1 and line.top > ptop + 0.06 * (pbottom - ptop) and line.top > head
    ]
    near = [line for line in over if ctop - line.bottom < 40]
    if span != (px0, px1) and (any(line.x0 < middle - 2 and line.x1 > middle + 2 for line in near) or _one_column(lines, middle)):
        span = (px0, px1)  # a table across both columns over a caption in one, or a page of one column
    column = _column(over, span)
    margins = body_margins(_column(lines, span))
    taken: list[Line] = []
    edge = ctop  # the top of the row under the line looked at
    for line in sorted(column, key=lambda line: -line.bottom):
        if _CAPTION_START.match(line.text):
            break
        if taken and line.mid_y > edge:
            taken.append(line)  # a cell of the row just taken
            continue
        size = statistics.median(line.size for line in taken) if taken else line.size
        gap = edge - line.bottom
        running = prose_line(line, margins) and (not taken or line.x0 <= min(line.x0 for line in taken) + 2)
        if _CAPTION_START.match(line.text) or running or line.size > 1.15 * size or gap > (3.0 if not taken else 2.5) * line.height:
            break
        taken.append(line)
        edge = line.top
    rows = printed_rows(taken)
    if len(rows) < 2:
        return None
    return (span[0], min(line.top for line in taken) - 0.5, span[1], max(line.bottom for line in taken) + 0.5)


def _running_text(column: Sequence[Line], top: float, limit: float) -> float:
    """Where running text starts under ``top``: a line across the column's text from at least as
    far left as every line above it (a table's long text cell sits right of its row labels)."""
    margins = body_margins(column)
    left = None
    for line in column:
        if not top <= line.top < limit:
            continue
        if prose_line(line, margins) and (left is None or line.x0 <= left + 2):
            return line.top  # not under it: the last row's box may reach into the text's by a fraction of a point
        left = line.x0 if left is None else min(left, line.x0)
    return limit


def _closing_rules(rules: list[Rule], column: Sequence[Line], span: tuple[float, float]) -> list[Rule]:
    """The rules under a caption down to the table's last: rules further down, past lines of
    running text (two or more across most of the column), belong to what follows (a figure)."""
    wide = 0.7 * (span[1] - span[0])
    for index in range(1, len(rules)):
        between = [line for line in column if rules[index - 1].y < line.top and line.bottom < rules[index].y and line.x1 - line.x0 >= wide]
        if len(between) >= 2:
            return rules[:index]
    return rules


def _column(lines: Sequence[Line], span: tuple[float, float]) -> list[Line]:
    """The horizontal lines whose middle falls in ``span``, top to bottom."""
    return sorted(
        (line for line in lines if not line.vertical and span[0] <= (line.x0 + line.x1) / 2 <= span[1]),
        key=lambda line: (line.top, line.x0),
    )


def _crossing(rules: Sequence[Rule], span: tuple[float, float]) -> list[Rule]:
    """Horizontal rules across at least 30 % of ``span``, top to bottom."""
    width = span[1] - span[0]
    return [rule for rule in _horizontal_rules(rules) if rule.x1 - rule.x0 >= 0.3 * width and rule.x0 < span[1] and rule.x1 > span[0]]


def _region_above(column: Sequence[Line], rules: Sequence[Rule], caption_top: float) -> tuple[float, float] | None:
    """(top, bottom) of a table printed above its caption (ACL, arXiv styles): its bottom rule
    sits just over the caption, and rules up from there, with no caption between, close it."""
    over = [rule for rule in rules if rule.y < caption_top]
    if not over or caption_top - over[-1].y > _ABOVE_GAP:
        return None
    chain = _rule_chain(column, over)
    if len(chain) < 2 or _captioned_above(column, chain[-1].y, over):
        return None
    held = sum(1 for line in column if chain[-1].y < line.top and line.bottom < chain[0].y)
    if held < 2:
        return None  # rules with no rows between them: a running head's double rule, not a table
    return chain[-1].y - 0.5, chain[0].y + 0.5


def _rule_chain(column: Sequence[Line], over: Sequence[Rule]) -> list[Rule]:
    """The rules of the table whose bottom rule is the last of ``over`` (top to bottom), bottom
    first: up from it while no caption stands between two of them."""
    chain = [over[-1]]
    for rule in reversed(over[:-1]):
        between = [line for line in column if rule.y < line.top and line.bottom < chain[-1].y]
        if chain[-1].y - rule.y > 300 or any(_CAPTION_START.match(line.text) for line in between):
            break
        chain.append(rule)
    return chain


def _closes_table_above(column: Sequence[Line], caption: Line, rules: Sequence[Rule]) -> bool:
    """Whether a caption sits just under a table's bottom rule, and that table has no caption
    over it: the caption is that table's, printed under it."""
    over = [rule for rule in rules if rule.y <= caption.top]
    if not over or caption.top - over[-1].y > _ABOVE_GAP:
        return False
    chain = _rule_chain(column, over)
    return len(chain) >= 2 and not _captioned_above(column, chain[-1].y)


def _captioned_above(column: Sequence[Line], top_rule: float, rules: Sequence[Rule] = ()) -> bool:
    """A caption's line (or the first of two) just over a table's top rule: the table is that
    caption's, set under it, not the one printed above the next caption (Hindawi sets each
    caption over its table). A sentence that opens with "Table 2 shows" is no caption, nor is
    a figure's (its figure is above it), nor a caption set just under the bottom rule of a
    table with no caption over it (``rules``): it closes that table, printed under it (JSS sets
    each caption under its table, the next table close under it)."""
    for line in column:
        if line.bottom <= top_rule + 1 and top_rule - line.bottom < _ABOVE_GAP + 1.5 * line.height:
            match = _CAPTION_START.match(line.text)
            rest = line.text[match.end() :].lstrip() if match else ""
            closes = bool(rules) and _closes_table_above(column, line, rules)
            if match and _TABLE_WORD.match(line.text) and (not rest or rest[0] in ".:|—–-" or rest[0].isupper()) and not closes:
                return True
    return False


def _crosses_middle(lines: Sequence[Line], rules: Sequence[Rule], middle: float, caption_bottom: float) -> bool:
    """A one-column page: text or rules just under the caption run across the page's middle."""
    near = caption_bottom + 80
    return any(line.x0 < middle - 2 and line.x1 > middle + 2 and caption_bottom < line.top < near for line in lines) or any(
        rule.horizontal and rule.x0 < middle - 20 and rule.x1 > middle + 20 and caption_bottom < rule.y < near for rule in rules
    )


def _one_column(lines: Sequence[Line], middle: float) -> bool:
    """A page set in one column: most of its lines of running text run across its middle (a
    table's cells, cut at their gaps, need not: columns 120 pt apart leave the middle clear)."""
    long = [line for line in lines if not line.vertical and len(line.text) >= 40 and not line.parts]
    return len(long) >= 3 and sum(1 for line in long if line.x0 < middle - 2 and line.x1 > middle + 2) >= 0.6 * len(long)


def _after_caption(column: Sequence[Line], caption_bbox: BBox) -> float:
    """Where the table starts: under the caption's continuation lines (same left edge, same
    size, or the same line height where a font reports another size, close under the line
    above, alone on their baseline: a row of cells is the header)."""
    cx0, ctop, cx1, cbottom = caption_bbox
    caption = [line for line in column if line.top >= ctop - 1 and line.bottom <= cbottom + 1]
    size = statistics.median(line.size for line in caption) if caption else None
    height = statistics.median(line.height for line in caption) if caption else None
    top, previous = cbottom + 0.5, cbottom
    for line in column:
        if line.top < cbottom - 1:
            continue
        continues = (
            abs(line.x0 - cx0) <= 2.5
            and line.top - previous <= 0.6 * line.height
            and (size is None or abs(line.size - size) <= 0.6 or (height is not None and abs(line.height - height) <= 0.3))
            and not any(other is not line and abs(other.top - line.top) < 0.5 * line.height and other.x0 > line.x1 for other in column)
        )
        if not continues:
            break
        top, previous = line.bottom + 0.5, line.bottom
    return top


# --------------------------------------------------------------------------- rows and columns


def _ruled_grid(lines: Sequence[Line], rules: Sequence[Rule], region: BBox) -> list[list[str]] | None:
    """The cells of a ruled grid filling the region's top, or ``None`` where there is none."""
    x0, top, x1, bottom = region
    near = [rule for rule in rules if rule.x1 >= x0 - 2 and rule.x0 <= x1 + 2 and rule.bottom >= top - 2 and rule.top <= bottom + 2]
    if sum(1 for rule in near if not rule.horizontal) < 3:
        return None
    try:
        from pdfplumber import table as lattice
    except ImportError as exc:
        raise ImportError(_PDFPLUMBER_HINT) from exc
    edges = [_edge(rule) for rule in [*near, *_open_sides(near)]]
    merged = lattice.merge_edges(edges, snap_x_tolerance=3, snap_y_tolerance=3, join_x_tolerance=3, join_y_tolerance=3)
    cells = lattice.intersections_to_cells(lattice.edges_to_intersections(merged, 3, 3))
    tables = [lattice.Table(None, group) for group in lattice.cells_to_tables(cells)]  # type: ignore[arg-type]
    tables = [table for table in tables if table.bbox[1] - top <= 40]
    if not tables:
        return None
    table = min(tables, key=lambda found: found.bbox[1])
    borders = sorted({cell[0] for cell in table.cells} | {cell[2] for cell in table.cells})
    pieces = [piece for line in lines for piece in split_at(line, borders)]
    if any(_rows_unruled([piece for piece in pieces if row.bbox[1] <= piece.mid_y < row.bbox[3]], row.cells) for row in table.rows):
        return None  # columns ruled, rows not: the text's rows decide
    starts = sorted({cell[0] for cell in table.cells})
    rows = [_row_texts(lines, pieces, row.cells, starts) for row in table.rows]
    while rows and not any(rows[0]):
        rows = rows[1:]  # a band between two rules over the table (its top rule doubled), no row
    while rows and not any(rows[-1]):
        rows = rows[:-1]
    if len(rows) < 2 or sum(1 for row in rows if sum(1 for cell in row if cell) >= 2) < 2:
        return None  # rows shaded or boxed, columns not ruled: the text decides
    return rows


def _open_sides(rules: Sequence[Rule]) -> list[Rule]:
    """The sides of a grid of boxed cells left open: where three or more rules across the rows
    end together (a column of row labels ruled only between its rows, a last column without a
    right side in some rows), a side from the first of them to the last, so that those cells
    are read too. Only a grid whose vertical rules run from one rule across the table to
    another is one (a link's box inside a row is no cell)."""
    horizontal = sorted((rule for rule in rules if rule.horizontal and rule.x1 - rule.x0 >= 5), key=lambda rule: rule.y)
    joined = _horizontal_rules(rules)
    if not horizontal or not joined:
        return []
    extent = max(rule.x1 for rule in joined) - min(rule.x0 for rule in joined)
    across = [rule.y for rule in joined if rule.x1 - rule.x0 >= 0.5 * extent]
    boxed = [
        rule
        for rule in rules
        if not rule.horizontal
        and rule.bottom - rule.top > 3
        and any(abs(rule.top - y) <= 2 for y in across)
        and any(abs(rule.bottom - y) <= 2 for y in across)
    ]
    if len(boxed) < 3:
        return []
    sides: list[Rule] = []
    left, right = min(rule.x0 for rule in horizontal), max(rule.x1 for rule in horizontal)
    ending = [rule for rule in horizontal if rule.x0 - left <= 3]
    sides += [Rule(left, ending[0].y, left, ending[-1].y)] if len(ending) >= 3 else []
    ending = [rule for rule in horizontal if right - rule.x1 <= 3]
    sides += [Rule(right, ending[0].y, right, ending[-1].y)] if len(ending) >= 3 else []
    return sides


def _rows_unruled(pieces: Sequence[Line], cells: Sequence[BBox | None]) -> bool:
    """Whether a grid row holds several rows of text: two cells or more each holding short
    lines (not a paragraph wrapped to the cell's width, nor words broken over lines) on three
    baselines or more, the same baselines in each (a table whose rules part its columns only,
    its body one box)."""
    baselines: list[set[int]] = []
    if len(pieces) < 6:
        return False
    for cell in cells:
        if cell is not None:
            inside = [line for line in pieces if cell[0] <= (line.x0 + line.x1) / 2 < cell[2] and cell[1] <= line.mid_y < cell[3]]
            found = {round(line.bottom) for line in inside}
            extents = [
                max(line.x1 for line in inside if round(line.bottom) == y) - min(line.x0 for line in inside if round(line.bottom) == y)
                for y in found
            ]
            short = sum(1 for extent in extents if extent < 0.6 * (cell[2] - cell[0]))
            texts = [
                " ".join(line.text for line in sorted(inside, key=lambda line: line.x0) if round(line.bottom) == y) for y in sorted(found)
            ]
            goes_on = sum(1 for a, b in zip(texts, texts[1:], strict=False) if _BROKEN.search(a) or b[:1].islower())
            if len(found) >= 3 and 2 * short > len(found) and 2 * goes_on < len(found) - 1:
                baselines.append(found)
    shared = [found for found in baselines if sum(1 for other in baselines if len(found & other) >= 3) >= 2]
    return len(shared) >= 2


def _row_texts(lines: Sequence[Line], pieces: Sequence[Line], cells: Sequence[BBox | None], starts: Sequence[float]) -> list[str]:
    """A grid row's texts, one per column (``starts``: the columns' left edges). A cell drawn
    across columns whose text lies in more than one of them, parted by gaps wider than its
    words' (a header row whose dividers the body's rules leave out: "Language model" and
    "Training data" in one box), gives each its own; a label centred across them stays whole."""
    texts = [_text_in(pieces, cell) if cell is not None else "" for cell in cells]
    for index, cell in enumerate(cells):
        if cell is None or index >= len(starts):
            continue
        slots = [column for column, x in enumerate(starts) if cell[0] - 1 <= x < cell[2] - 1]
        if len(slots) < 2 or any(cells[column] is not None for column in slots[1:] if column < len(cells)):
            continue
        edges = [starts[column] for column in slots] + [cell[2]]
        inside = [line for line in lines if cell[0] <= (line.x0 + line.x1) / 2 < cell[2] and cell[1] <= line.mid_y < cell[3]]
        if not all(_parted_at(line, edge) for line in inside for edge in edges[1:-1] if line.x0 < edge < line.x1):
            continue
        parts = [_text_in(pieces, (edges[k], cell[1], edges[k + 1], cell[3])) for k in range(len(slots))]
        if sum(1 for part in parts if part) >= 2:
            for column, part in zip(slots, parts, strict=True):
                texts[column] = part
    return texts


def _parted_at(line: Line, x: float) -> bool:
    """Whether a line has a gap at ``x`` clearly wider than the spaces between its other words."""
    words = line.words or []
    gaps = [(a[2], b[1]) for a, b in zip(words, words[1:], strict=False)]
    at = [right - left for left, right in gaps if left - 1 <= x <= right + 1]
    others = [right - left for left, right in gaps if not left - 1 <= x <= right + 1]
    return bool(at) and (not others or min(at) >= 2 * max(others))


def _edge(rule: Rule) -> dict[str, Any]:
    """A rule as pdfplumber's lattice steps take an edge: a flat one has one y, a thin one one x."""
    if rule.horizontal:
        y = rule.y
        return {
            "x0": rule.x0,
            "x1": rule.x1,
            "top": y,
            "bottom": y,
            "width": rule.x1 - rule.x0,
            "height": 0.0,
            "orientation": "h",
            "object_type": "line",
        }
    x = (rule.x0 + rule.x1) / 2
    return {
        "x0": x,
        "x1": x,
        "top": rule.top,
        "bottom": rule.bottom,
        "width": 0.0,
        "height": rule.bottom - rule.top,
        "orientation": "v",
        "object_type": "line",
    }


def _header_rows(rows: Sequence[PrintedRow], rules: Sequence[Rule], width: float) -> Sequence[PrintedRow]:
    """The printed rows of the header, as far as they tell: over the first row holding a value
    and over the first rule across the table under the first row, three at most."""
    end = next((index for index, row in enumerate(rows) if any(_VALUE.match(line.text) for line in row.lines)), len(rows))
    ruled = [rule.y for rule in rules if rule.x1 - rule.x0 >= 0.8 * width and rule.y > rows[0].bottom - 1] if rows else []
    if ruled:
        end = min(end, sum(1 for row in rows if row.top < min(ruled)))
    return rows[: min(end, 3)]


def _header_cells(line: Line, row: Sequence[Line], heads: Sequence[Line], edges: Sequence[float], rules: Sequence[Rule]) -> list[Line]:
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
    fall into other columns (by the words' own edges, where the line has them)."""
    inner = [x for x in edges[1:-1] if line.x0 + 2 < x < line.x1 - 2]
    if not inner or not line.words:
        return [line]
    groups: list[list[tuple[str, float, float]]] = []
    for word in line.words:
        if groups and column_of(replace(line, x0=word[1]), edges) == column_of(replace(line, x0=groups[-1][-1][1]), edges):
            groups[-1].append(word)
        else:
            groups.append([word])
    return [replace(line, text=words_text(group), x0=group[0][1], x1=group[-1][2], words=group, parts=None) for group in groups]


def _text_in(lines: Sequence[Line], cell: tuple[float, float, float, float]) -> str:
    x0, top, x1, bottom = cell
    inside = [line for line in lines if x0 <= (line.x0 + line.x1) / 2 < x1 and top <= (line.top + line.bottom) / 2 < bottom]
    return join_lines([line.text for line in sorted(inside, key=lambda line: (round(line.top), line.x0))])
