"""A table ruled as a grid: its cells as drawn (step 2 of :mod:`.table_engine`).

Vertical and horizontal rules meeting give the cells: pdfplumber's lattice steps
(``merge_edges``, ``edges_to_intersections``, ``intersections_to_cells``, ``cells_to_tables``;
MIT) run on the rules pdfium reads (:mod:`.table_rules`), and a cell spanning rows or columns
keeps its text in its first row and column. Sides left open by a grid of boxed cells are closed
where the rules across its rows end; a grid whose body is one box holding rows of short lines
(columns ruled, rows not) is left to the text's rows and columns (:func:`ruled_grid` returns
``None``). pdfplumber is imported only when a region holds three vertical rules or more.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from paperpyramid.parsers.embedded.blocks import join_lines
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_bands import split_at
from paperpyramid.parsers.embedded.table_printed_rows import VALUE
from paperpyramid.parsers.embedded.table_rules import BBox, Rule, horizontal_rules

__all__ = ["ruled_grid"]

_PDFPLUMBER_HINT = "the table engine's ruled-grid step needs pdfplumber (MIT): pip install 'pdfplumber>=0.11,<0.12'"
# a word broken over two lines ("CONSE-" over "QUENCES")
_BROKEN = re.compile(r"[^\W\d_]-$")
# a cell's next line this many line heights under its last (a line's space left empty) opens a new row
_RESUMES = 1.8
# a ruled cell holding pieces side by side on this many baselines holds rows of cells
_CELL_ROWS = 3
# an upright rule drawn a row at a time: pieces at least this tall (a line of text), one
# stopping and the next starting within this of each other
_SEGMENT = 6.0
_BREAK = 1.5
# a header row over the first rule across a grid is at most this tall (one line, a column rule's piece)
_HEADER_ROW = 20.0
# pieces of a rule this close are one rule (the lattice's snapping)
_SNAP = 3.0
# pieces of a line in one ruled box this share of its type apart are cells (a column's gap, 1.2 em in LaTeX)
_CELL_GAP = 0.6


def ruled_grid(lines: Sequence[Line], rules: Sequence[Rule], region: BBox) -> list[list[str]] | None:
    """The cells of a ruled grid filling the region's top, or ``None`` where there is none."""
    x0, top, x1, bottom = region
    near = [rule for rule in rules if rule.x1 >= x0 - 2 and rule.x0 <= x1 + 2 and rule.bottom >= top - 2 and rule.top <= bottom + 2]
    if sum(1 for rule in near if not rule.horizontal) < 3:
        return None
    try:
        from pdfplumber import table as lattice
    except ImportError as exc:
        raise ImportError(_PDFPLUMBER_HINT) from exc
    edges = [_edge(rule) for rule in [*near, *_open_sides(near), *_row_breaks(near, lines)]]
    merged = lattice.merge_edges(edges, snap_x_tolerance=3, snap_y_tolerance=3, join_x_tolerance=3, join_y_tolerance=3)
    cells = lattice.intersections_to_cells(lattice.edges_to_intersections(merged, 3, 3))
    tables = [lattice.Table(None, group) for group in lattice.cells_to_tables(cells)]  # type: ignore[arg-type]
    tables = [table for table in tables if table.bbox[1] - top <= 40]
    if not tables:
        return None
    table = min(tables, key=lambda found: found.bbox[1])
    borders = sorted({cell[0] for cell in table.cells} | {cell[2] for cell in table.cells})
    pieces = [piece for line in lines for piece in split_at(line, borders)]
    inside = [[piece for piece in pieces if row.bbox[1] <= piece.mid_y < row.bbox[3]] for row in table.rows]
    if any(
        _rows_unruled(found, row.cells) or _cell_resumes(found, row.cells) or _columns_unruled(found, row.cells)
        for found, row in zip(inside, table.rows, strict=True)
    ):
        return None  # columns ruled, rows not (or only between groups of rows), or some columns not: the text's rows decide
    starts = sorted({cell[0] for cell in table.cells})
    rows = [_row_texts(lines, pieces, row.cells, starts) for row in table.rows]
    while rows and not any(rows[0]):
        rows = rows[1:]  # a band between two rules over the table (its top rule doubled), no row
    while rows and not any(rows[-1]):
        rows = rows[:-1]
    if len(rows) < 2 or sum(1 for row in rows if sum(1 for cell in row if cell) >= 2) < 2:
        return None  # rows shaded or boxed, columns not ruled: the text decides
    return rows


def _row_breaks(rules: Sequence[Rule], lines: Sequence[Line]) -> list[Rule]:
    """Rules between rows that draw none across: where every upright rule of the grid is drawn
    a row at a time (LaTeX draws a ``|`` of each row apart, so the sides of rows that no
    ``\\hline`` parts stop and start again between them, "Basic clusters | 5,543" over "Basic
    patterns (token) | 643,767"), a rule across at each height where all of them break between
    lines of text. A cell wrapped over lines is one row's: its sides run unbroken past them.
    Only a grid whose sides hold all its text, one piece to a cell on each line, and whose sides
    all start and stop at its rows' edges: rules between some middle columns alone, or between
    groups of columns, or a header of cells spanning rows over its subheads ("R" over "base | vcd
    | iplots"), or rules across some columns only (a label spanning the rows the others part),
    leave the rows to the text (:func:`_rows_unruled`)."""
    upright = [rule for rule in rules if not rule.horizontal and rule.bottom - rule.top >= _SEGMENT]
    columns: dict[int, list[Rule]] = {}
    for rule in upright:
        columns.setdefault(round((rule.x0 + rule.x1) / 2), []).append(rule)
    sides = [sorted(found, key=lambda rule: rule.top) for found in columns.values()]
    if len(sides) < 3:
        return []
    breaks = [
        {round(2 * (a.bottom + b.top)) / 4 for a, b in zip(side, side[1:], strict=False) if abs(b.top - a.bottom) <= _BREAK}
        for side in sides
    ]
    shared = [y for y in sorted(breaks[0]) if all(any(abs(y - other) <= _BREAK for other in found) for found in breaks[1:])]
    crossed = [y for y in shared if not any(line.top + 1 < y < line.bottom - 1 for line in lines)]
    left, right = min(rule.x0 for rule in upright), max(rule.x1 for rule in upright)
    top, bottom = min(rule.top for rule in upright), max(rule.bottom for rule in upright)
    band = [line for line in lines if top <= line.mid_y <= bottom]
    if any(line.x0 < left - 1 or line.x1 > right + 1 for line in band):
        return []  # rules between some columns only, text beside them: the text's rows decide
    middles = sorted((rule.x0 + rule.x1) / 2 for rule in (side[0] for side in sides))
    placed: dict[tuple[int, int], list[Line]] = {}
    for line in band:
        placed.setdefault((bisect.bisect(middles, (line.x0 + line.x1) / 2), round(line.mid_y)), []).append(line)
    if any(_cells_apart(pieces) for pieces in placed.values()):
        return []  # a ruled box holding several cells of a row (rules between groups of columns only)
    if not _across(rules, left, right, top, bottom):
        return []  # rules across some columns only: the grid draws its rows itself, a spanning cell where one stops
    levels = sorted([rule.y for rule in rules if rule.horizontal and rule.x1 > left and rule.x0 < right] + crossed)
    inside = [(a + _BREAK, b - _BREAK) for a, b in zip(levels, levels[1:], strict=False)]
    if any(a < end < b for rule in upright for end in (rule.top, rule.bottom) for a, b in inside):
        return []  # a side that starts or stops inside a row: cells spanning rows (a header over its subheads)
    return [Rule(left, y, right, y) for y in crossed]


def _cells_apart(pieces: Sequence[Line]) -> bool:
    """Whether pieces of one line in one ruled box stand a column's gap apart ("1.029   1.029"),
    not a word's ("36 (75%)", cut around its number)."""
    ordered = sorted(pieces, key=lambda line: line.x0)
    return any(b.x0 - a.x1 > _CELL_GAP * a.size for a, b in zip(ordered, ordered[1:], strict=False))


def _across(rules: Sequence[Rule], left: float, right: float, top: float, bottom: float) -> bool:
    """Whether every rule between ``top`` and ``bottom`` runs from ``left`` to ``right`` (its
    pieces that touch taken together): no cell spans the rows a rule parts in other columns."""
    levels: dict[float, list[Rule]] = {}
    for rule in rules:
        if rule.horizontal and top + _BREAK < rule.y < bottom - _BREAK and rule.x1 > left and rule.x0 < right:
            levels.setdefault(round(rule.y), []).append(rule)
    for pieces in levels.values():
        reach = left
        for rule in sorted(pieces, key=lambda rule: rule.x0):
            if rule.x0 > reach + _SNAP:
                return False
            reach = max(reach, rule.x1)
        if reach < right - _SNAP:
            return False
    return True


def _open_sides(rules: Sequence[Rule]) -> list[Rule]:
    """The sides of a grid of boxed cells left open: where three or more rules across the rows
    end together (a column of row labels ruled only between its rows, a last column without a
    right side in some rows), a side from the first of them to the last, so that those cells
    are read too. Only a grid whose vertical rules run from one rule across the table to
    another is one (a link's box inside a row is no cell)."""
    horizontal = sorted((rule for rule in rules if rule.horizontal and rule.x1 - rule.x0 >= 5), key=lambda rule: rule.y)
    joined = horizontal_rules(rules)
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
    left, right = min(rule.x0 for rule in horizontal), max(rule.x1 for rule in horizontal)
    sides = _header_top(rules, across[0], left, right)
    top = sides[0].y if sides else None
    ending = [rule for rule in horizontal if rule.x0 - left <= 3]
    sides += [Rule(left, min(ending[0].y, top or ending[0].y), left, ending[-1].y)] if len(ending) >= 3 else []
    ending = [rule for rule in horizontal if right - rule.x1 <= 3]
    sides += [Rule(right, min(ending[0].y, top or ending[0].y), right, ending[-1].y)] if len(ending) >= 3 else []
    return sides


def _header_top(rules: Sequence[Rule], first: float, left: float, right: float) -> list[Rule]:
    """The top of a header ruled under but not over (``{l|l}`` with an ``\\hline`` under the
    header alone): where every upright rule that reaches over the first rule across the table
    starts at one height, a row's height or less over it (LaTeX draws a ``|`` of each row apart),
    a rule across there, so that the header's cells are read too; over a header of several rows, each
    row's uprights drawn apart, at its first row's top; none where no upright does."""
    top = None
    for _ in rules:  # a header of several rows, each row's uprights drawn apart: up to its first row's top
        edge = first if top is None else top
        over = [rule.top for rule in rules if not rule.horizontal and rule.top < edge - _SNAP and rule.bottom >= edge - _SNAP]
        if not over or max(over) - min(over) > _BREAK or edge - min(over) > _HEADER_ROW:
            break
        top = min(over)
    return [] if top is None else [Rule(left, top, right, top)]


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
                for y in sorted(found)
            ]
            texts = [
                " ".join(line.text for line in sorted(inside, key=lambda line: line.x0) if round(line.bottom) == y) for y in sorted(found)
            ]
            # a value is a cell of its own, however much of a narrow column it fills
            short = sum(1 for extent, text in zip(extents, texts, strict=True) if extent < 0.6 * (cell[2] - cell[0]) or VALUE.match(text))
            goes_on = sum(1 for a, b in zip(texts, texts[1:], strict=False) if _BROKEN.search(a) or b[:1].islower())
            if len(found) >= 3 and 2 * short > len(found) and 2 * goes_on < len(found) - 1:
                baselines.append(found)
    shared = [found for found in baselines if sum(1 for other in baselines if len(found & other) >= 3) >= 2]
    return len(shared) >= 2


def _columns_unruled(pieces: Sequence[Line], cells: Sequence[BBox | None]) -> bool:
    """Whether a cell of a grid row holds rows of cells itself: pieces side by side (parted by
    gaps wider than a word space) on three baselines or more. Its table rules off some columns
    and rows only (LaTeX's ``|l|ccc|`` with an ``\\hline`` under the header): the rules bound
    groups of cells, not cells."""
    for cell in cells:
        if cell is None:
            continue
        inside = [line for line in pieces if cell[0] <= (line.x0 + line.x1) / 2 < cell[2] and cell[1] <= line.mid_y < cell[3]]
        per_baseline = Counter(round(line.bottom) for line in inside)
        if sum(1 for count in per_baseline.values() if count >= 2) >= _CELL_ROWS:
            return True
    return False


def _cell_resumes(pieces: Sequence[Line], cells: Sequence[BBox | None]) -> bool:
    """Whether a cell of a grid row holds lines that resume after a line's space or more left
    empty, beside another cell's lines there ("ML", then "quasi" three lines down, beside a
    description wrapped over them): the box holds several rows, ruled only between groups of
    them. Lines of smaller type (a superscript, an index) are left out."""
    if len(pieces) < 3:
        return False
    size = sorted(line.size for line in pieces)[len(pieces) // 2]
    body = [line for line in pieces if line.size >= 0.9 * size]
    height = sorted(line.height for line in body)[len(body) // 2]
    for cell in cells:
        if cell is None:
            continue
        beside = [line for line in body if cell[1] <= line.mid_y < cell[3]]
        own = sorted({line.bottom for line in beside if cell[0] <= (line.x0 + line.x1) / 2 < cell[2]})
        others = [line.bottom for line in beside if not cell[0] <= (line.x0 + line.x1) / 2 < cell[2]]
        for above, below in zip(own, own[1:], strict=False):
            if below - above > _RESUMES * height and any(above + 0.5 * height < y < below - 0.5 * height for y in others):
                return True
    return False


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


def _text_in(lines: Sequence[Line], cell: tuple[float, float, float, float]) -> str:
    x0, top, x1, bottom = cell
    inside = [line for line in lines if x0 <= (line.x0 + line.x1) / 2 < x1 and top <= (line.top + line.bottom) / 2 < bottom]
    return join_lines([line.text for line in sorted(inside, key=lambda line: (round(line.top), line.x0))])
