"""Cells of marks alone (a feature table's check marks) are the captioned table's
(:func:`paperpyramid.parsers.embedded.table_reader.held_by`).

A comparison table (a JSS paper's Table 1, its caption printed below it) ticks each library's
features with "✓". The row labels are claimed up from the caption, and the ticks, set apart and
taken for furniture, line up in rows and columns of their own: they hold no word, and by words
alone no table held them, so they were stored again as a table without a caption. Words invented."""

from __future__ import annotations

from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_detect import mark_uncaptioned
from paperpyramid.parsers.embedded.table_reader import held_by
from paperpyramid.parsers.embedded.table_rules import BBox

_LIBRARIES = ("alpha", "beta", "gamma", "delta", "omega")
_TICKS = (4, 4, 3, 3, 2)
_COLUMNS = (200.0, 265.0, 350.0, 430.0)
_CELLS = [
    ["Library", "Fast", "Sparse", "Parallel", "Plots"],
    *[[name, *["✓"] * ticks, *[""] * (4 - ticks)] for name, ticks in zip(_LIBRARIES, _TICKS, strict=True)],
]


def _line(text: str, x0: float, top: float) -> Line:
    width = 5.0 * len(text)
    return Line(text, 9, x0, top, x0 + width, top + 10, 10, False, False, "Times", words=[(text, x0, x0 + width)])


def _page() -> tuple[list[Block], Block]:
    header = Block(
        [_line("Library", 100, 110), *(_line(name, x, 110) for name, x in zip(_CELLS[0][1:], _COLUMNS, strict=True))], kind="table_part"
    )
    blocks = [header]
    for row, (name, ticks) in enumerate(zip(_LIBRARIES, _TICKS, strict=True)):
        top = 124 + 13.5 * row
        blocks.append(Block([_line(name, 100, top)], kind="table_part"))
        blocks.extend(Block([_line("✓", x, top)], kind="furniture") for x in _COLUMNS[:ticks])
    caption = Block([_line("Table 1: Features of the libraries.", 150, 210)], kind="caption", label="1")
    members = [index for index, block in enumerate(blocks) if block.kind == "table_part"]
    caption.extra.update({"caption_kind": "table", "members": members, "found": _CELLS})
    return [*blocks, caption], caption


def test_rows_of_check_marks_are_the_captioned_tables() -> None:
    blocks, caption = _page()

    def tables(page: int, box: BBox) -> list[list[str]] | None:
        return [row[1:] for row in _CELLS[1:]]  # the ticks alone read as a grid of their own

    mark_uncaptioned(blocks, tables)
    assert sum(1 for block in blocks if block.kind == "caption") == 1  # no table without a caption beside Table 1
    assert all(block.kind == "table_part" for block in blocks if block.text == "✓")
    assert set(caption.extra["members"]) == set(range(len(blocks) - 1))


def test_marks_are_held_by_the_marks_of_the_cells() -> None:
    ticks = [Block([_line("✓", 200, 124)]), Block([_line("✓", 265, 124)])]
    assert held_by(_CELLS, ticks)
    assert not held_by([["Library", "Fast"], ["alpha", "yes"]], ticks)
    # a text with words is still held by its words, not by the marks among them
    assert not held_by(_CELLS, [Block([_line("✓ see the appendix", 200, 124)])])
