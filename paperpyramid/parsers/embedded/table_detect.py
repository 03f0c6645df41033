"""Tables printed without a "Table N" caption: found in a page's layout, never in its prose.

A table shows in the parser's lines as rows of short pieces set side by side on one baseline
(the layout cuts a line at gaps wider than 1.4 times its text size, and the reading order tags
such lines as a ``row``). :func:`uncaptioned_tables` looks, column by column, for runs of three
or more such rows close under each other whose pieces line up in two or more columns (four
rows for two columns: an equation and its number, or a short list, make two), with short
cells; the rows of one line just above (a header set tight) and between (a wrapped cell, a
row filling one cell) join the run. The table engine then reads the run's box
(:class:`~.table_engine.Region`), and it is kept only where the engine finds a table that is
not prose. Running text never forms such rows: its lines are long and alone on their baseline
in their column.
"""

from __future__ import annotations

import dataclasses
import math
import re
import statistics
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from typing import cast

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.char_runs import MONOSPACE_FONT, even_pitch
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_columns import column_edges
from paperpyramid.parsers.embedded.table_engine import Region, TablePart
from paperpyramid.parsers.embedded.table_reader import held_by, reads_as_prose
from paperpyramid.parsers.embedded.table_rules import BBox

__all__ = ["drawn_over", "mark_uncaptioned", "not_a_table", "uncaptioned_tables"]

#: blocks whose lines may belong to a table without a caption
_OPEN_KINDS = ("paragraph", "heading", "furniture", "aside")
_EQUATION_NUMBER = re.compile(r"^\(\s*[A-Z]?\d+[a-z]?\s*\)$")
# a piece of a row is a cell when it is this short; a row's pieces are on average shorter than the second
_CELL_CHARS = 60
_MEAN_CELL_CHARS = 32
# runs in two layout columns are one table across the page when they share this share of their
# height and lie no further apart than this (a gutter)
_SAME_ROWS = 0.8
_GUTTER = 60.0
# rows further apart than this many times the usual gap between the run's rows end the run
_ROW_GAP = 2.2
# a table without a caption fills at least this share of its grid; found in small print (a
# figure's labels are small print too) this share
_FILLED = 0.6
_FILLED_SMALL = 0.8
# a cell of code: a comment, a brace or semicolon ending it, an assignment, a keyword opening it,
# an algorithm's numbered line ("12:"); this share of rows with one makes a listing. A comment's
# mark may be doubled: knitr prints R's output after "##" ("## Firmicutes  455  922")
_CODE = re.compile(
    r"^\s*(?://|/\*|#+(?:\s|$))|[{};]\s*$|^\s*[{}]|:=|==|!=|\+\+|&&|\|\||->|^\s*\d+:$"
    r"|^\s*(?:if|else|elif|end|for|while|do|return|break|continue|function|def|var|let|const|int|void|begin)\b(?!-)"
)
_CODE_ROWS = 0.4
# a run set this much in a typewriter face (:data:`~.char_runs.MONOSPACE_FONT`) is a listing or a program's output
_TYPEWRITER_SHARE = 0.8
# a console's prompt opening a command (R, a shell, Python, IPython), an R assignment, or a
# label of its output ("Coefficients:", "$theta"); the listing goes on over a run within this
# many lines' heights
_COMMAND = re.compile(r"^\s*(?:R>|>{1,3}|\+|\$|In \[\d*\]:)(?:\s|$)|:\s*$|^\$[A-Za-z]|\s<-\s")
_CONSOLE_REACH = 4.0
# rows with this many drawn marks around them (within this many points) are a plot's labels
_PLOT_MARKS = 6
# a number: a shaded cell of a table holds one
_VALUE = re.compile(r"^[-+−–(]?\.?\d")
_PLOT_REACH = 12.0
# a cell of relation signs alone: the column an aligned system of equations lines up on
_RELATION = re.compile(r"^[=<>≤≥≈∼≃≡:≠\s]+$")
# an axis tick: a plain number
_TICK = re.compile(r"^-?\d+(?:\.\d+)?$")
# a column whose cells average this many characters, or a cell of this many words, is text
# beside labels, not a table's cells
_SENTENCE_CELL = 60
_SENTENCE_WORDS = 15
# a caption left without cells is the table's found without one when no further from it than
# this many of its lines' heights
_CAPTION_REACH = 8.0
# a table's notes are set smaller than its caption by this share at least
_NOTE_PRINT = 0.9
# the caption of a part of a table: its mark, then words
_PART_CAPTION = re.compile(r"^\(?[a-h]\)\s+\S")


def mark_uncaptioned(
    blocks: list[Block], tables: Callable[[int, BBox], list[list[str]] | None], marks: Callable[[int], Sequence[BBox]] | None = None
) -> None:
    """Tables printed without a caption: each run of aligned rows (:func:`uncaptioned_tables`) the
    table engine reads as a table (not prose) claims its blocks behind a caption block with no
    text and no label, inserted where the table starts; not where the page's drawn marks
    (``marks``: :func:`~.table_rules.read_marks` by page number) crowd around the rows, the labels
    of a plot (:func:`drawn_over`)."""
    inserts: list[tuple[int, Block]] = []
    by_page: dict[int, list[int]] = {}
    for index, block in enumerate(blocks):
        by_page.setdefault(block.page, []).append(index)
    for page, indices in sorted(by_page.items()):
        captioned = [
            (index, _caption_cells(blocks[index]))
            for index in indices
            if blocks[index].kind == "caption" and blocks[index].extra.get("found")
        ]
        for members, box in uncaptioned_tables([blocks[index] for index in indices]):
            holder = next((index for index, cells in captioned if held_by(cells, [blocks[indices[member]] for member in members])), None)
            if holder is not None:
                # rows of a captioned table its caption's blocks missed: its members, so that
                # what its cells do not hold (a title under a caption of its label alone) stays text
                for member in members:
                    blocks[indices[member]].kind = "table_part"
                held_before = cast("list[int]", blocks[holder].extra.get("members") or [])
                blocks[holder].extra["members"] = sorted({*held_before, *(indices[member] for member in members)})
                continue
            claimed = [indices[member] for member in members]
            bare = _bare_caption(blocks, indices, claimed, box)
            run = [line for member in claimed for line in blocks[member].lines]
            if bare is None and _console(run, [line for index in indices for line in blocks[index].lines], box):
                continue  # a program's listing or its printed output, aligned in a typewriter font
            found = tables(page, Region(box))
            small_print = all(blocks[indices[member]].kind in ("furniture", "aside") for member in members)
            if not found or reads_as_prose(found) or not _filled(found, _FILLED_SMALL if small_print else _FILLED) or not_a_table(found):
                continue
            if bare is None and marks is not None and drawn_over(box, marks(page), _value_boxes(run)):
                continue  # a plot's labels and legend, set in columns among its marks
            for member in claimed:
                blocks[member].kind = "table_part"
            if bare is not None:  # the table of a caption the engine found no table at
                blocks[bare].extra["members"], blocks[bare].extra["found"] = claimed, found
                continue
            first = blocks[claimed[0]].lines[0]
            anchor = dataclasses.replace(
                first, text="", x0=box[0], x1=box[0], top=box[1], bottom=box[1], words=None, parts=None, tags=set()
            )
            inserts.append(
                (claimed[0], Block([anchor], kind="caption", extra={"caption_kind": "table", "members": claimed, "found": found}))
            )
    pending = [caption for _, caption in inserts]
    for position, caption in sorted(inserts, key=lambda item: -item[0]):
        for block in [*blocks, *pending]:  # members after the new block move down one
            claimed_before = block.extra.get("members")
            if block.kind == "caption" and isinstance(claimed_before, list):
                block.extra["members"] = [member + 1 if member >= position else member for member in claimed_before]
        pending.remove(caption)
        blocks.insert(position, caption)


def drawn_over(box: BBox, marks: Sequence[BBox], words: Sequence[BBox] = ()) -> bool:
    """Whether rows found without a caption lie among a plot's marks: this many drawn marks
    (ticks, points, tiles, bars; :func:`~.table_rules.read_marks`) in their box or just around
    it (an axis's ticks under the labels), each narrower than half the box (a shaded band
    behind a table's row or a frame around it is none) and holding none of the rows' numbers
    (``words``: a cell shaded alone, a heatmap-style table's, holds its value; a plot's labels
    sit beside its marks). A table draws rules, not marks."""
    x0, top, x1, bottom = box
    reach, narrow = _PLOT_REACH, 0.5 * (x1 - x0)
    near = [
        (mx0, mtop, mx1, mbottom)
        for mx0, mtop, mx1, mbottom in marks
        if mx1 - mx0 < narrow and mx1 > x0 - reach and mx0 < x1 + reach and mbottom > top - reach and mtop < bottom + reach
    ]
    if len(near) < _PLOT_MARKS:
        return False
    middles = [((wx0 + wx1) / 2, (wtop + wbottom) / 2) for wx0, wtop, wx1, wbottom in words]
    bare = (1 for mx0, mtop, mx1, mbottom in near if not any(mx0 <= x <= mx1 and mtop <= y <= mbottom for x, y in middles))
    return sum(bare) >= _PLOT_MARKS


def _value_boxes(lines: Sequence[Line]) -> list[BBox]:
    """The boxes of the lines' numbers (a line's words; the line itself where it keeps none): what
    a heatmap-style table shades cell by cell. A plot's labels in shaded boxes (a lattice
    panel's strip, a mosaic's tiles) are words."""
    return [
        (wx0, line.top, wx1, line.bottom)
        for line in lines
        for word, wx0, wx1 in (line.words or [(line.text, line.x0, line.x1)])
        if _VALUE.match(word)
    ]


def _bare_caption(blocks: Sequence[Block], indices: Sequence[int], claimed: Sequence[int], box: BBox) -> int | None:
    """The index of a table caption of the page left without cells (the engine found no table
    at it) that sits next to the table found without one: just under its box (a caption printed
    below its table, set off by more space than the engine's look up from the caption crosses)
    or just over it, beside it, with no other block of the page between them but the table's
    notes (in smaller print than the caption) and the captions of its parts ("(b) Number of …");
    ``None`` where there is none."""
    x0, top, x1, bottom = box
    for index in indices:
        block = blocks[index]
        if block.kind != "caption" or block.extra.get("caption_kind") != "table" or block.extra.get("found") or block.extra.get("members"):
            continue
        cx0, cx1 = min(line.x0 for line in block.lines), max(line.x1 for line in block.lines)
        ctop, cbottom = min(line.top for line in block.lines), max(line.bottom for line in block.lines)
        reach = _CAPTION_REACH * max(line.height for line in block.lines)
        near = 0 <= ctop - bottom <= reach or 0 <= top - cbottom <= reach
        between = [
            other
            for other in indices
            if other != index
            and other not in claimed
            and (blocks[other].lines and min(line.top for line in blocks[other].lines) >= min(bottom, cbottom) - 1)
            and max(line.bottom for line in blocks[other].lines) <= max(top, ctop) + 1
            and min(line.x0 for line in blocks[other].lines) < max(x1, cx1)
            and max(line.x1 for line in blocks[other].lines) > min(x0, cx0)
            and blocks[other].size >= _NOTE_PRINT * block.size
            and not _PART_CAPTION.match(blocks[other].text)
        ]
        if near and cx0 < x1 and cx1 > x0 and not between:
            return index
    return None


def _console(run: Sequence[Line], page: Sequence[Line], box: tuple[float, float, float, float]) -> bool:
    """A run of rows that is a console's session: set mostly in a typewriter font
    (:func:`_typewriter`), with a command or a label of the output
    among its lines or the lines just over it ("R> summary(fm)", "+ ...", "Coefficients:"), or a
    line of the listing just over it, alone on its baseline (the command that printed a long
    output sits further up, past lines of output), or nothing of the page over it (the output
    runs on from the page before). A table set in a typewriter font alone, between paragraphs,
    its header over its rows, stays one."""
    if not _typewriter(run):
        return False
    height = max(line.height for line in run)
    across = [line for line in page if line.x0 < box[2] and line.x1 > box[0]]
    over = [line for line in across if line.bottom <= box[1] + 1]
    near = [line for line in over if box[1] - _CONSOLE_REACH * height <= line.bottom]
    if not over or any(_COMMAND.search(line.text) or _CODE.search(line.text) for line in [*run, *near]):
        return True
    unnamed = not any(line.font for line in run)  # a face known by its pitch: the lines over it have no name either
    typed = [line for line in near if MONOSPACE_FONT.search(line.font) or (unnamed and not line.font)]
    sharing = _sharing_baseline(across) if typed else set()
    return any(id(line) not in sharing for line in typed)


def _typewriter(run: Sequence[Line]) -> bool:
    """Whether a run is set mostly in a typewriter face: by the names of its lines' fonts, or,
    where none is named (an old dvips's bitmap fonts), by its words' even pitch. The names are
    those of the rows of cells side by side where there are any: a line alone on its baseline
    that the run took for a header over them may be the sentence in the text face that leads
    into the output ("The object contains several relevant fields:")."""
    sharing = _sharing_baseline(run)
    rows = [line for line in run if id(line) in sharing]
    named = [line for line in rows or run if line.font]
    if not named:
        return even_pitch((word, x1 - x0) for line in run for word, x0, x1 in (line.words or [(line.text, line.x0, line.x1)]))
    fixed = sum(len(line.text) for line in named if MONOSPACE_FONT.search(line.font))
    return fixed >= _TYPEWRITER_SHARE * sum(len(line.text) for line in named)


def _sharing_baseline(lines: Sequence[Line]) -> set[int]:
    """The ids of the ``lines`` that another of them shares a baseline with (their middles closer
    than half the line's height): pieces of a row of cells (a table's header); the others are
    alone on their baseline, lines of a listing. The lines are sorted by their middles, and each
    is compared with those a point past its reach at most, not with every other line (a middle
    that is no number shares with none)."""
    middles = sorted(((line.mid_y, index) for index, line in enumerate(lines) if not math.isnan(line.mid_y)), key=lambda item: item[0])
    keys = [middle for middle, _ in middles]
    sharing: set[int] = set()
    for line in lines:
        middle, reach = line.mid_y, 0.5 * line.height
        start, end = bisect_left(keys, middle - reach - 1.0), bisect_right(keys, middle + reach + 1.0)
        if any((other := lines[index]) is not line and abs(other.mid_y - middle) < reach for _, index in middles[start:end]):
            sharing.add(id(line))
    return sharing


def _filled(cells: list[list[str]], share: float) -> bool:
    """Three rows of two cells or more, and most cells filled: a figure's labels and axes read
    in columns leave most of their grid empty."""
    full = sum(1 for row in cells for cell in row if cell)
    return sum(1 for row in cells if sum(1 for cell in row if cell) >= 2) >= 3 and full >= share * sum(len(row) for row in cells)


def not_a_table(cells: Sequence[Sequence[str]]) -> bool:
    """Cells found without a caption that are something else set in columns: a code listing
    (comments, braces, semicolons, keywords, numbered lines of an algorithm), a figure's axis
    (a column of numbers stepping down evenly: the ticks of a y axis), equations aligned on
    their relation signs (a column of "="), or a figure's text
    beside its labels (a column of sentences, or one sentence)."""
    rows = [row for row in cells if any(row)]
    if not rows:
        return True
    if any(len(cell.split()) >= _SENTENCE_WORDS for row in rows for cell in row):
        return True  # a sentence in a figure (a screenshot's text), not a cell
    code = sum(1 for row in rows if any(_CODE.search(cell) for cell in row))
    if code >= _CODE_ROWS * len(rows):
        return True
    for column in zip(*rows, strict=False):
        numbers = [float(cell) for cell in column if _TICK.match(cell)]
        steps = {round(a - b, 6) for a, b in zip(numbers, numbers[1:], strict=False)}
        if len(numbers) >= 4 and len(steps) == 1 and steps.pop() > 0:
            return True
        filled = [cell for cell in column if cell]
        if filled and statistics.mean(len(cell) for cell in filled) >= _SENTENCE_CELL:
            return True
        if len(filled) >= 3 and all(_RELATION.match(cell) for cell in filled):
            return True  # a column of "=": the rows of aligned equations ("HC0 : ω = û²", "HC1 : ω = …")
    return False


def _caption_cells(caption: Block) -> list[list[str]]:
    """The cells of a caption's table: the rows of every part where subtables are stacked under it
    (their rows left as text are any part's, not only the first's)."""
    stacked = cast("list[TablePart]", caption.extra.get("parts") or [])
    return [row for part in stacked for row in part.cells] if stacked else cast("list[list[str]]", caption.extra["found"])


def uncaptioned_tables(blocks: Sequence[Block]) -> list[tuple[list[int], tuple[float, float, float, float]]]:
    """The tables without a caption among the blocks of one page: for each, the indices of the
    blocks it holds (most of their lines inside it) and its box (x0, top, x1, bottom)."""
    open_lines = [(index, line) for index, block in enumerate(blocks) if block.kind in _OPEN_KINDS for line in block.lines]
    if not open_lines:
        return []
    found = []
    for column in sorted({line.column for _, line in open_lines}):
        lines = [line for _, line in open_lines if line.column == column]
        for run in _runs(_bands(lines)):
            box = (
                min(line.x0 for line in run) - 1.0,
                min(line.top for line in run) - 0.5,
                max(line.x1 for line in run) + 1.0,
                max(line.bottom for line in run) + 0.5,
            )
            members = [index for index, block in enumerate(blocks) if block.kind in _OPEN_KINDS and _inside(block, box)]
            if members:
                found.append((members, box))
    return _across_columns(found)


def _across_columns(
    found: list[tuple[list[int], tuple[float, float, float, float]]],
) -> list[tuple[list[int], tuple[float, float, float, float]]]:
    """Runs side by side in two layout columns over the same rows: one table across the page
    (the layout cut it at the gutter), read whole."""
    merged: list[tuple[list[int], tuple[float, float, float, float]]] = []
    for members, box in sorted(found, key=lambda item: item[1][0]):
        for index, (other_members, other) in enumerate(merged):
            overlap = min(box[3], other[3]) - max(box[1], other[1])
            if overlap >= _SAME_ROWS * min(box[3] - box[1], other[3] - other[1]) and 0 <= box[0] - other[2] <= _GUTTER:
                joined = (other[0], min(box[1], other[1]), max(box[2], other[2]), max(box[3], other[3]))
                merged[index] = (sorted({*other_members, *members}), joined)
                break
        else:
            merged.append((members, box))
    return merged


def _inside(block: Block, box: tuple[float, float, float, float]) -> bool:
    x0, top, x1, bottom = box
    held = sum(1 for line in block.lines if x0 <= line.x0 and line.x1 <= x1 and top <= line.top and line.bottom <= bottom)
    return held >= 0.5 * len(block.lines)


def _bands(lines: Sequence[Line]) -> list[list[Line]]:
    """The lines in printed rows, top to bottom, each row left to right."""
    bands: list[list[Line]] = []
    top = bottom = 0.0  # the last band's top and bottom, kept as it grows
    for line in sorted(lines, key=lambda line: (line.top, line.x0)):
        if bands and min(bottom, line.bottom) - max(top, line.top) >= 0.5 * line.height:
            bands[-1].append(line)
            top, bottom = min(top, line.top), max(bottom, line.bottom)
        else:
            bands.append([line])
            top, bottom = line.top, line.bottom
    return [sorted(band, key=lambda line: line.x0) for band in bands]


def _tabular(band: Sequence[Line]) -> bool:
    """A row of short cells side by side (not an equation beside its number)."""
    if len(band) < 2 or _EQUATION_NUMBER.match(band[-1].text.strip()):
        return False
    lengths = [len(line.text) for line in band]
    return max(lengths) <= _CELL_CHARS and statistics.mean(lengths) <= _MEAN_CELL_CHARS


def _short(band: Sequence[Line]) -> bool:
    """A row that may sit inside a table: a wrapped cell, a header set tight, a row label alone."""
    return len(band) == 1 and len(band[0].text) <= _CELL_CHARS and not _EQUATION_NUMBER.match(band[0].text.strip())


def _runs(bands: list[list[Line]]) -> list[list[Line]]:
    """Runs of tabular rows (with the short rows between and one or two just above them) that
    line up in columns."""
    runs: list[list[Line]] = []
    index = 0
    while index < len(bands):
        if not _tabular(bands[index]):
            index += 1
            continue
        start = end = index  # bands[start:end + 1]
        pitch = statistics.median(line.height for line in bands[index])
        while end + 1 < len(bands):
            following = bands[end + 1]
            gap = min(line.top for line in following) - max(line.bottom for line in bands[end])
            if (
                gap > _ROW_GAP * pitch
                or not (_tabular(following) or _short(following))
                or abs(following[0].size - bands[index][0].size) > 1.0
            ):
                break
            end += 1
        while end > start and not _tabular(bands[end]):
            end -= 1  # a note or the paragraph's first short line after the table
        for _ in range(2):  # a header of one line (or two) set tight above the rows
            above = bands[start - 1] if start > 0 else None
            if above is None or not _short(above) or abs(above[0].size - bands[start][0].size) > 1.0:
                break
            if min(line.top for line in bands[start]) - max(line.bottom for line in above) > _ROW_GAP * pitch:
                break
            start -= 1
        rows = bands[start : end + 1]
        if _lines_up(rows):
            runs.append([line for band in rows for line in band])
        index = end + 1
    return runs


def _lines_up(rows: Sequence[Sequence[Line]]) -> bool:
    """Three tabular rows or more whose cells fall in two columns or more (four rows for two)."""
    tabular = sum(1 for row in rows if _tabular(row))
    if tabular < 3:
        return False
    lines = [line for row in rows for line in row]
    edges = column_edges(rows, min(line.x0 for line in lines), max(line.x1 for line in lines))
    columns = len(edges) - 1
    return columns >= 3 or (columns == 2 and tabular >= 4)
