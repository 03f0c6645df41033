"""Tables below (or above) their captions: rows by baseline, cells by horizontal gaps."""

from __future__ import annotations

import dataclasses
import re
import statistics
from collections.abc import Sequence
from typing import cast

from paperpyramid.document import Block as DocBlock
from paperpyramid.document import Document, Table
from paperpyramid.parsers.embedded.blocks import KNOWN_HEADINGS, NUMBERED_RUN_IN, Block, ends_sentence
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_engine import TablePart, side_by_side_prose


def table_block_text(table: Table) -> str:
    """The text of a table's block in its section: its caption, its cells as Markdown and its
    notes under them, as a JATS table's foot is, a blank line between each; a table without a
    caption starts with its cells."""
    return "\n\n".join(part for part in (table.caption, table.markdown, *table.notes) if part)


def table_cells(lines: list[Line]) -> list[list[str]]:
    """Arrange table lines (already cut at wide gaps) into rows and columns."""
    if not lines:
        return []
    ordered = sorted(lines, key=lambda line: (line.top, line.x0))
    rows: list[list[Line]] = []
    for line in ordered:
        if rows and abs(line.mid_y - rows[-1][0].mid_y) < max(rows[-1][0].height, 1.0) * 0.45:
            rows[-1].append(line)
        else:
            rows.append([line])
    widest = max(rows, key=len)
    anchors = sorted(line.x0 for line in widest)
    if len(anchors) <= 1:
        return [[" ".join(line.text for line in row)] for row in rows]
    cells: list[list[str]] = []
    for row in rows:
        out = [""] * len(anchors)
        for line in sorted(row, key=lambda item: item.x0):
            column = _nearest_column(line, anchors)
            out[column] = (out[column] + " " + line.text).strip()
        cells.append(out)
    return cells


def reads_as_prose(cells: list[list[str]]) -> bool:
    """Cells that are running text, not a table: most rows one long cell (the column under a
    caption printed below its table), or rows of long cells side by side (both columns of a
    page, from the first row on). A list of short one-cell rows ("The first complaint") still reads as a table."""
    filled = [[cell for cell in row if cell] for row in cells]
    filled = [row for row in filled if row]
    if not filled:
        return False
    single = [row[0] for row in filled if len(row) == 1]
    if len(single) >= 0.6 * len(filled) and statistics.median(len(cell) for cell in single) >= 35:
        return True
    return side_by_side_prose(filled)


def _nearest_column(line: Line, anchors: list[float]) -> int:
    best = 0
    for index, x in enumerate(anchors):
        if x <= line.x0 + 2:
            best = index
    return best


def collect_table(blocks: list[Block], caption_index: int, body_size: float) -> list[int]:
    """Indices of the blocks that form the table under ``blocks[caption_index]``.

    A table is the run of non-paragraph blocks after its caption on the same page: it stops
    at a heading (one set on its line, or run in: "2.1. Statistical Analysis. The …"), another
    caption, or a block of running text (long or justified lines ending a sentence).
    """
    caption = blocks[caption_index]
    taken: list[int] = []
    for index in range(caption_index + 1, len(blocks)):
        block = blocks[index]
        if block.page != caption.page or block.kind == "caption":
            break
        if block.kind == "heading" and (block.number or block.title.lower() in KNOWN_HEADINGS):
            break
        if NUMBERED_RUN_IN.match(block.lines[0].text) or _is_running_text(block, body_size):
            break
        taken.append(index)
    return taken


def _is_running_text(block: Block, body_size: float) -> bool:
    if len(block.lines) < 2 or not ends_sentence(block.lines[-1].text) or block.size < body_size - 0.6:
        return False
    long_lines = sum(1 for line in block.lines if len(line.text) > 60)
    return long_lines >= 0.6 * len(block.lines) or _justified_prose(block.lines)


def _justified_prose(lines: list[Line]) -> bool:
    """Three lines or more of words, all but the last as wide as the widest: a paragraph of a
    narrow column, whose lines are shorter than a page-wide paragraph's."""
    if len(lines) < 3:
        return False
    widest = max(line.x1 - line.x0 for line in lines)
    full = sum(1 for line in lines[:-1] if line.x1 - line.x0 >= 0.9 * widest)
    words = [word for line in lines for word in line.text.split()]
    wordy = sum(1 for word in words if sum(ch.isalpha() for ch in word) >= 0.6 * len(word))
    mean_length = sum(len(line.text) for line in lines) / len(lines)
    return full >= 0.8 * (len(lines) - 1) and wordy >= 0.75 * len(words) and mean_length >= 40


def add_parts(document: Document, captions: Sequence[Block]) -> None:
    """Every part of subtables stacked under one caption (``extra["parts"]``,
    :func:`~.table_engine.table_parts`) stored as a table of its own, after the caption's table,
    labelled and captioned with its mark as JATS labels the parts of a ``<table-wrap-group>``
    ("Table 2" over "(a)" and "(b)": "2 (a)" and "2 (b)", each under the group's caption); a
    part read as the caption's table alone would lose the other parts' rows, and read as one
    grid the parts' columns mix. The notes under the stack are its last part's."""
    for caption in captions:
        stacked = cast("list[TablePart]", caption.extra["parts"])
        first = next(
            (
                table
                for table in document.tables
                if table.page == caption.page
                and table.caption == caption.text
                and table.label == caption.label
                and table.cells == stacked[0].cells
            ),
            None,
        )
        if first is None:
            continue
        position = document.tables.index(first)
        rendered = next((block for section in document.sections for block in section.blocks if _renders(block, first)), None)
        caption_text = first.caption
        tables = []
        for part in stacked:
            table = first if part is stacked[0] else dataclasses.replace(first, cells=part.cells, bbox=part.box, notes=[])
            table.label = " ".join(text for text in (caption.label, part.mark) if text) or None
            table.caption = caption_text if caption_text.startswith(part.mark) else f"{caption_text} {part.mark}"
            tables.append(table)
        notes, first.notes = first.notes, []
        tables[-1].notes = notes
        document.tables[position + 1 : position + 1] = tables[1:]
        if rendered is None:
            continue
        section = next(section for section in document.sections if any(block is rendered for block in section.blocks))
        at = next(index for index, block in enumerate(section.blocks) if block is rendered)
        rendered.text = table_block_text(first)
        section.blocks[at + 1 : at + 1] = [
            DocBlock(text=table_block_text(table), page=table.page, kind="table", bbox=table.bbox) for table in tables[1:]
        ]
        # the part's rows its caption's table did not hold were left as text: now a part holds them
        section.blocks = [block for block in section.blocks if not any(_part_holds(table, block) for table in tables[1:])]


def _part_holds(table: Table, block: DocBlock) -> bool:
    """Whether a paragraph lies in the part's box and its words are the part's."""
    if block.kind != "paragraph" or block.page != table.page or block.bbox is None or table.bbox is None:
        return False
    x0, top, x1, bottom = table.bbox
    middle = (block.bbox[1] + block.bbox[3]) / 2
    return x0 <= block.bbox[0] and block.bbox[2] <= x1 and top <= middle <= bottom and _holds(table.cells, block.text)


def _renders(block: DocBlock, table: Table) -> bool:
    return block.kind == "table" and block.page == table.page and block.bbox == table.bbox


_CONTINUED = re.compile(r"\(?\bcontinued\b|\bcont(?:'d|\.)", re.IGNORECASE)
#: a line that only says a table goes on over the page: "(Continued)", "(continued on next page)",
#: "Table 1 continued on next page", "Continued on the following page", "(…continued)"
_CONTINUATION_MARK = re.compile(
    r"^[(\[]?\s*(?:tab(?:le|\.)\s*[\w.]+\s*)?(?:\.\.\.|…)?\s*(?:continued|cont(?:'d|\.)|continues)"
    r"(?:\s+(?:on|from)\s+(?:the\s+)?(?:next|following|previous|preceding)\s+page)?\s*(?:\.\.\.|…)?\s*[)\]]?\.?$",
    re.IGNORECASE,
)


def continuation_mark(text: str) -> bool:
    """Whether ``text`` only says that a table goes on over or from another page: furniture of the
    page's layout, neither the table's note nor a paragraph."""
    return bool(_CONTINUATION_MARK.match(" ".join(text.split())))


def join_continued(document: Document) -> None:
    """One table for a table printed over two pages or columns: a table with the label of the one
    before it, on the same page as its last part or the next ("Table 4 … (Continued)"), or a table
    without a caption at the top of the next page that opens with the header of the one before
    it, adds its rows to it (the header rows it repeats are dropped), and its block leaves its
    section; the first part's block holds the whole table, with the notes of each part under it."""
    kept: list[Table] = []
    reached: dict[int, int] = {}  # the page of the last part joined to a table, by the table's id
    for table in document.tables:
        first = kept[-1] if kept else None
        last = reached.get(id(first), first.page) if first is not None else 0
        reach = 2 if _CONTINUED.search(table.caption) else 1  # a page of rows without a caption may lie between
        labelled = first is not None and bool(table.label) and table.label == first.label and last <= table.page <= last + reach
        repeated = first is not None and not table.label and table.page == last + 1 and _repeats_header(first.cells, table.cells) > 0
        if first is None or not (labelled or repeated) or not table.cells:
            kept.append(table)
            continue
        first.cells = first.cells + table.cells[_repeats_header(first.cells, table.cells) :]
        first.notes = [*first.notes, *table.notes]
        reached[id(first)] = table.page
        for block in _renderings(document, first):
            block.text = table_block_text(first)
        for section in document.sections:
            section.blocks = [block for block in section.blocks if not _renders(block, table)]
    document.tables = kept


def _renderings(document: Document, table: Table) -> list[DocBlock]:
    return [block for section in document.sections for block in section.blocks if _renders(block, table)]


def _repeats_header(header: list[list[str]], cells: list[list[str]]) -> int:
    """How many of the first rows of ``cells`` repeat the first rows of ``header`` (text alike
    once the cell borders and white space are set aside: a repeated header cut into cells
    differently is still the header); at most three."""
    count = 0
    while count < min(3, len(header), len(cells) - 1) and _row_text(cells[count]) == _row_text(header[count]) and _row_text(cells[count]):
        count += 1
    return count


def _row_text(row: list[str]) -> str:
    return " ".join(" ".join(row).split())


_WORD = re.compile(r"\w+")
# a mark standing for a cell's value where a text has no word: a check mark, a cross, a dash, a bullet
_MARK = re.compile(r"[^\w\s]+")


def held_by(cells: list[list[str]], blocks: list[Block]) -> bool:
    """Whether most words of the blocks (four in five) are words of the cells."""
    return _holds(cells, " ".join(block.text for block in blocks))


def _holds(cells: Sequence[Sequence[str]], text: str) -> bool:
    """Whether four in five of the words of ``text`` are words of the cells. A text of marks alone
    (a feature table's check marks, "✓ ✓ ✓") is held by its marks: rows of them are the
    table's, not a table of their own once the rows' labels were claimed."""
    pattern = _WORD if _WORD.search(text) else _MARK
    held = {word.lower() for row in cells for cell in row for word in pattern.findall(cell)}
    words = [word.lower() for word in pattern.findall(text)]
    return bool(words) and sum(1 for word in words if word in held) >= 0.8 * len(words)


def claim_held(
    blocks: list[Block],
    caption_index: int,
    members: list[int],
    cells: list[list[str]],
    region: tuple[float, float, float, float] | None = None,
) -> list[int]:
    """The table's ``members`` with the blocks next to its caption and members, on its page, that
    hold the table's cells: up from the caption (a caption printed below its table) and down from
    its last member (rows the blocks under the caption missed), while most of a block's words are
    words of the cells. Where the cells were read from a ``region`` over the caption, the caption
    was printed below its table: no block under it is a member (the next table's rows, printed
    over its own caption, or text), however many of its words the cells share ("Texas", "2005")."""
    page = blocks[caption_index].page

    def holds(index: int) -> bool:
        block = blocks[index]
        return block.page == page and block.kind in ("paragraph", "heading") and held_by(cells, [block])

    taken: list[int] = []
    index = caption_index - 1
    while index >= 0 and (holds(index) or blocks[index].kind == "furniture") and blocks[index].bottom <= blocks[caption_index].top + 1:
        if blocks[index].kind != "furniture":  # a cell taken for a running head ("Articles") is out of the text already
            taken.append(index)
        index -= 1
    if region is not None and region[3] <= blocks[caption_index].top + 1:
        return sorted({*(member for member in members if member < caption_index), *taken})
    index = max([caption_index, *members]) + 1
    while index < len(blocks) and holds(index):
        taken.append(index)
        index += 1
    return sorted({*members, *taken})
