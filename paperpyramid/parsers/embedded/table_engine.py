"""The cells of the table under a "Table N" caption, from the page's text lines and rules.

A prototype, measured by ``benchmarks/table_engines.py`` beside pdfplumber's table finder and
camelot. Those engines read the PDF with pure-Python parsers (pdfminer.six, playa) at
0.07-0.4 s a page, which would more than double the embedded parser's time on a paper full
of tables; this module reads the page with pdfium, as the parser does (one page: about
15 ms), and borrows their ideas. It holds the entry points and the order of the steps; each
step lives in a module of its own:

1. The region (:func:`~.table_region.find_region`): the part of the page the table under (or
   over) its caption occupies.
2. A ruled grid in the region (:func:`~.table_grid.ruled_grid`, pdfplumber's lattice steps on
   the rules pdfium reads, :mod:`.table_rules`) gives the cells as drawn.
3. Otherwise, rows are the printed lines (:mod:`.table_printed_rows`), and a line set closer
   to the one above than the table's usual row spacing continues that row (a cell wrapped over
   lines, :mod:`.table_row_joins`): when the gaps between lines fall into two groups (leading
   inside a cell, and the space between rows), the small ones join. A table whose rows all sit
   alike (one group) joins nothing.
4. Columns (:mod:`.table_columns`): the white "rivers" that run down the region (Nurminen's
   text-alignment idea, behind pdfplumber's "text" strategy and camelot's stream flavour): x
   ranges that at most a fifth of the lines touch. A line belongs to the column its left edge
   falls in, so a row label that runs across the columns ("Forests") stays in the first; a
   long line of a centred cell that only just starts left of its column is moved into it
   (:func:`~.table_columns.place_overhangs`).
5. Notes under the table's bottom rule, and lines after a wide gap at the end, are dropped
   when they fill one cell only.

Around these steps: a manuscript's line numbers are gone already, left where the page was read
(:class:`~.line_numbers.LineNumbering`); subtables stacked under one caption are read part by part, the
caption's table being the first (:mod:`.table_stacks`, :func:`table_parts`), and so are the halves of a
table too wide for its page set one under the other, their rows then joined in one table; and the header's
first row is cut into its cells, a header of two levels whose other labels sit halfway down it
read as two rows (:mod:`.table_headers`).

:func:`extract_table` returns ``None`` where it finds no table with two columns or more, so
the caller keeps its own cells (prose is never turned into a table).
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import pypdfium2 as pdfium

from paperpyramid.parsers.embedded.glyphs import GlyphMap
from paperpyramid.parsers.embedded.layout import Line, Page, extract_page, table_lines
from paperpyramid.parsers.embedded.table_bands import banded_rows
from paperpyramid.parsers.embedded.table_columns import (
    column_edges,
    column_of,
    number_gap,
    place_overhangs,
    word_segments,
    word_space,
)
from paperpyramid.parsers.embedded.table_grid import ruled_grid
from paperpyramid.parsers.embedded.table_headers import header_cells, header_rows, labels_over_gaps, two_level_header
from paperpyramid.parsers.embedded.table_printed_rows import VALUE, printed_rows, row_cells, spans_table
from paperpyramid.parsers.embedded.table_region import find_region, hugs_lines_above, next_captions_table, region_over_caption
from paperpyramid.parsers.embedded.table_row_joins import join_rows
from paperpyramid.parsers.embedded.table_rules import BBox, Rule, horizontal_rules, read_rules, without_word_boxes
from paperpyramid.parsers.embedded.table_spaces import THIN_SPACE
from paperpyramid.parsers.embedded.table_stacks import first_part, parts

__all__ = [
    "Region",
    "TablePart",
    "extract_table",
    "read_box",
    "read_region",
    "read_table_page",
    "side_by_side_prose",
    "table_page",
    "table_parts",
    "table_rows",
]

# a line of points alone: a full stop, a comma, a colon, a middle dot
_POINTS = re.compile(r"[.,:;·]+")
# a piece that ends a sentence, after which TeX stretches a justified line's space the most
_SENTENCE_END = (".", ":", ";", "?", "!")
# a line of a paragraph in a cell holds this many characters at least
_PARAGRAPH_LINE = 25
# a justified line's stretched spaces differ by no more than this (points)
_EVEN_GAPS = 0.5


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
        if len(stacked) >= 2 and not any(mark for mark, _ in stacked):  # halves of one table (:mod:`.table_stacks`)
            halves = [cells, *(part.cells for part in later)]
            # a half read as no table leaves the region to be read as one grid, none of its rows lost
            found = [TablePart("", region, _stacked_rows(halves) if all(halves) else read_box(lines, rules, region) or cells)]
    return [part._replace(cells=[[cell.replace(THIN_SPACE, " ") for cell in row] for row in part.cells]) for part in found]


def _stacked_rows(halves: Sequence[list[list[str]]]) -> list[list[str]]:
    """The rows of a table's halves set one under the other, each as wide as the widest."""
    width = max(len(row) for half in halves for row in half)
    return [row + [""] * (width - len(row)) for half in halves for row in half]


def _table_cells(
    lines: Sequence[Line], rules: Sequence[Rule], page_bbox: BBox, caption_bbox: BBox
) -> tuple[list[list[str]] | None, BBox | None]:
    """The cells of the table, and the region they were read from (``None`` for a table read by its rules)."""
    if isinstance(caption_bbox, Region):
        return read_region(lines, rules, caption_bbox), caption_bbox
    # a table of sentences, ruled row by row, is read by its rules; any other by its columns
    cells = banded_rows(lines, horizontal_rules(rules), [rule for rule in rules if not rule.horizontal], caption_bbox)
    if cells is not None:
        return cells, None
    region = find_region(lines, rules, page_bbox, caption_bbox)
    if region is not None and (next_captions_table(lines, region, caption_bbox) or hugs_lines_above(lines, region, caption_bbox)):
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
    # boxes behind code hug the words as printed, before a justified line's pieces are joined
    rules = without_word_boxes(rules, whole)
    whole = _sentence_spaces_closed([_listed(line) for line in whole if not _stray_point(line, whole)])
    inside = [part for line in whole for part in line.parts or (line,)]
    grid = ruled_grid(inside, rules, region)
    if grid is not None:
        return grid
    space = word_space(inside)
    cut = [word_segments(line.parts or (line,), space, table=whole) for line in whole]
    segments = [segment for line in cut for segment in line]
    # rivers are counted against the bands lines chain into (a label set between two rows joins both)
    chained = printed_rows(segments, chain=True)
    edges = column_edges([row.lines for row in chained], x0, x1, space=space, numbers=number_gap(whole))
    if len(edges) < 3:
        return None  # one column: prose or a list, not a table
    segments = place_overhangs(cut, edges, space)
    horizontal = [rule for rule in horizontal_rules(rules) if top < rule.y < bottom + 1]
    extent = max(line.x1 for line in segments) - min(line.x0 for line in segments)
    physical = labels_over_gaps(printed_rows(segments), edges, horizontal, extent)
    heads = [line for row in header_rows(physical, horizontal, extent)[1:] for line in row.lines]
    pieces = [rule for rule in rules if rule.horizontal and top < rule.y < bottom + 1]  # a group's rule, not joined to the next group's
    physical[0].lines = [piece for line in physical[0].lines for piece in header_cells(line, physical[0].lines, heads, edges, pieces)]
    physical = two_level_header(physical, edges, horizontal)
    rows = join_rows(physical, horizontal, edges)
    first = min(column_of(line, edges) for line in segments)
    cells = [row_cells(row, edges, heading=spans_table(row, rows, edges), first=first) for row in rows]
    return cells if len(cells) >= 2 and not _looks_like_prose(cells) else None


def _listed(line: Line) -> Line:
    """``line`` with the number parts that follow a comma joined again: a list of numbers in one
    cell ("-1, -2, -3", "(0, 1)"); cells of a row are never set apart by a comma."""
    if not line.parts or not any(part.text.endswith(",") for part in line.parts[:-1]):
        return line
    parts = [line.parts[0]]
    for part in line.parts[1:]:
        last = parts[-1]
        if last.text.endswith(","):
            words = [*(last.words or []), *(part.words or [])]
            parts[-1] = dataclasses.replace(last, text=f"{last.text} {part.text}", x1=part.x1, words=words or None)
        else:
            parts.append(part)
    return dataclasses.replace(line, parts=parts)


def _sentence_spaces_closed(lines: list[Line]) -> list[Line]:
    """The pieces of a justified cell's line (LaTeX's ``p{}``) read apart at its stretched
    spaces joined again: a line of few spaces stretches each of them to a column's gap, the one
    after a sentence's end or a colon most ("Fed to embed().        An", "Bold   blackboard:
    Requires"). Pieces of one baseline are one line where together they fill the measure of
    another line of the table (from where the first starts to where the last ends), the
    paragraph goes on under the first at its left edge, and the spaces cut are a justified
    line's: one after a sentence's end, or all alike (TeX stretches a line's word spaces alike)."""
    measures = [(line.x0, line.x1) for line in lines if len(line.text) >= _PARAGRAPH_LINE and " " in line.text.strip()]
    if not measures:
        return lines
    baselines: list[list[Line]] = []
    for line in sorted(lines, key=lambda line: (line.mid_y, line.x0)):
        if baselines and abs(line.mid_y - baselines[-1][0].mid_y) < 0.3 * line.height:
            baselines[-1].append(line)
        else:
            baselines.append([line])
    joined: dict[int, Line] = {}
    gone: set[int] = set()
    for row in baselines:
        row.sort(key=lambda line: line.x0)
        start = 0
        while start < len(row) - 1:
            end = _justified_end(row, start, measures, lines)
            if end is None:
                start += 1
                continue
            pieces = row[start : end + 1]
            # the stretched spaces inside one word of the line's, so that no cut between cells falls there
            text = " ".join(piece.text for piece in pieces)
            last = (pieces[0].words or [(pieces[0].text, pieces[0].x0, pieces[0].x1)])[-1]
            rest = " ".join(piece.text for piece in pieces[1:])
            words = [*(pieces[0].words or [])[:-1], (f"{last[0]} {rest}", last[1], pieces[-1].x1)]
            joined[id(pieces[0])] = dataclasses.replace(pieces[0], text=text, x1=pieces[-1].x1, words=words, parts=None)
            gone.update(id(piece) for piece in pieces[1:])
            start = end + 1
    return [joined.get(id(line), line) for line in lines if id(line) not in gone]


def _justified_end(row: Sequence[Line], start: int, measures: Sequence[tuple[float, float]], lines: Sequence[Line]) -> int | None:
    """The last of the pieces from ``row[start]`` on that make one justified line with it
    (:func:`_sentence_spaces_closed`), or ``None`` where none do. The measure is the cell's where
    the line under ends there too, or two lines of the table span it (a label's row, "et al." and
    its command, and the one line of the table that holds both cells' words span no column's
    measure); values set evenly apart are columns, never pieces of a line."""
    first = row[start]
    under = [line for line in lines if 0 < line.top - first.top <= 1.6 * first.height and abs(line.x0 - first.x0) <= 1]
    if not under:
        return None  # the paragraph does not go on under it: a last line is not stretched
    ends = [x1 for x0, x1 in measures if abs(x0 - first.x0) <= 1]  # the measures of lines starting where it starts
    for end in range(len(row) - 1, start, -1):
        edge = row[end].x1
        shared = sum(1 for x1 in ends if abs(x1 - edge) <= 1)
        if not (shared >= 2 or (shared and any(abs(line.x1 - edge) <= 1 for line in under))):
            continue
        pieces = row[start : end + 1]
        if any(VALUE.match(piece.text) for piece in pieces):
            return None
        gaps = [right.x0 - left.x1 for left, right in itertools.pairwise(pieces)]
        if any(piece.text.rstrip().endswith(_SENTENCE_END) for piece in pieces[:-1]) or (
            len(gaps) >= 2 and max(gaps) - min(gaps) <= _EVEN_GAPS
        ):
            return end
    return None


def _stray_point(line: Line, lines: Sequence[Line]) -> bool:
    """Whether ``line`` is a lone point or comma with no other line over or under it: a mark a
    macro left beside the table (a stray "." left of a row, between two rows' baselines), no
    cell; a column of them (dots for empty cells) has its points one over another."""
    if not _POINTS.fullmatch(line.text.strip()):
        return False
    return not any(other is not line and other.x0 < line.x1 and other.x1 > line.x0 for other in lines)


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
