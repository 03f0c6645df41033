"""A table's notes are a field of the :class:`Table`, set where the parser finds them; its block's
text is made from its caption, cells and notes by one function, and the passes after assembly
(subtables stored apart, a table joined over its pages) move the notes between tables, never
reading them back out of a block's text. Words invented; the blocks are built as the parser's."""

from __future__ import annotations

from paperpyramid.document import Block as DocBlock
from paperpyramid.document import Document, Section, Table
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_engine import TablePart
from paperpyramid.parsers.embedded.table_reader import add_parts, join_continued, table_block_text
from tests.test_table_notes_s54 import _assembled, _heading

BODY = 10.0
HEAD = ["Study", "Dose"]


def test_a_tables_block_text_is_its_caption_its_cells_and_its_notes() -> None:
    table = Table("Table 1. Doses", [HEAD, ["Ames 2001", "10 g"]], page=1, notes=["a Daily dose.", "Note: b Older adults."])
    assert table_block_text(table) == (
        "Table 1. Doses\n\n| Study | Dose |\n|---|---|\n| Ames 2001 | 10 g |\n\na Daily dose.\n\nNote: b Older adults."
    )
    assert table_block_text(Table("", [HEAD], page=1, notes=["a Daily dose."])) == "| Study | Dose |\n|---|---|\n\na Daily dose."
    assert table_block_text(Table("Table 2. Sites", [], page=1, notes=["Source: survey."])) == "Table 2. Sites\n\nSource: survey."


def _line(text: str, page: int, top: float, x0: float = 90.0, x1: float = 520.0, size: float = BODY) -> Line:
    return Line(text, page, x0, top, x1, top + size, size, False, False, "Times-Roman")


def test_a_note_in_small_type_under_the_cells_is_the_tables() -> None:
    caption = Block([_line("Table 1: Doses given", 2, 80.0)], kind="caption", label="1")
    rows = Block([_line("Study Dose", 2, 100.0), _line("Ames 10", 2, 112.0), _line("Brun 12", 2, 124.0)])
    note = Block([_line("Grams taken by mouth once a morning after waking.", 2, 140.0, x1=400.0, size=8.0)])
    document = _assembled([_heading(), caption, rows, note], 1, [2, 3], [["Study", "Dose"], ["Ames", "10"], ["Brun", "12"]])
    table = document.tables[0]
    assert table.notes == ["Grams taken by mouth once a morning after waking."]
    assert [block.text for block in document.sections[0].blocks] == [table_block_text(table)]


def test_the_notes_under_a_caption_below_its_table_are_the_tables() -> None:
    rows = Block([_line("Example Syntax", 2, 100.0), _line("ab \\G{letter}1", 2, 112.0)], kind="table_part")
    caption = Block([_line("Table 4: Accent macros", 2, 140.0, x0=240.0, x1=354.0)], kind="caption", label="4")
    label = Block([_line("REMARKS", 2, 156.0, x0=90.0, x1=150.0)])
    note = Block([_line("1These commands superimpose the accent over the letter.", 2, 170.0, size=8.5)])
    after = Block([_line("The text goes on in the body's type under the table's notes.", 2, 260.0)])
    found = [["Example", "Syntax"], ["ab", "\\G{letter} 1"]]
    document = _assembled([_heading(), rows, caption, label, note, after], 2, [1], found)
    table = document.tables[0]
    assert table.notes == ["REMARKS", "1These commands superimpose the accent over the letter."]
    assert document.sections[0].blocks[0].text == table_block_text(table)


def _rendered(table: Table) -> DocBlock:
    """The table's block as assembly leaves it."""
    return DocBlock(text=table_block_text(table), page=table.page, kind="table", bbox=table.bbox)


def test_a_table_joined_over_its_pages_holds_each_parts_notes_from_the_parts() -> None:
    first = Table("Table 1. Studies", [HEAD, ["Ames 2001", "10 g"]], page=5, label="1", bbox=(0, 0, 1, 1), notes=["a Daily dose."])
    rest = Table("Table 1. Cont.", [HEAD, ["Brun 2004", "12 g"]], page=6, label="1", bbox=(0, 2, 1, 3), notes=["b Older adults."])
    blocks = [_rendered(first), _rendered(rest)]
    # the notes are the tables': text a block holds beyond the table's own is not read back as notes
    blocks[0].text += "\n\nNot a note."
    document = Document(pages=6, sections=[Section("Results", 1, blocks=blocks)], tables=[first, rest])
    join_continued(document)
    assert document.tables == [first] and first.notes == ["a Daily dose.", "b Older adults."]
    assert [block.text for block in document.sections[0].blocks] == [
        "Table 1. Studies\n\n| Study | Dose |\n|---|---|\n| Ames 2001 | 10 g |\n| Brun 2004 | 12 g |\n\na Daily dose.\n\nb Older adults."
    ]


def test_the_notes_under_stacked_parts_are_the_last_parts() -> None:
    a = TablePart("(a)", (50.0, 97.5, 700.0, 169.5), [["Authors", "Age"], ["Author 0", "40 M"]])
    b = TablePart("(b)", (50.0, 180.5, 700.0, 300.0), [["Imaging", "Treatment"], ["MRI scan", "Surgery"]])
    caption = Block([_line("Table 2: Prior cases.", 5, 70.0)], kind="caption", label="2", extra={"caption_kind": "table", "parts": [a, b]})
    first = Table("Table 2: Prior cases.", a.cells, page=5, label="2", section=0, bbox=(50.0, 70.0, 700.0, 169.5), notes=["MRI imaging."])
    section = Section(title="Discussion", level=1, blocks=[_rendered(first)])
    document = Document(pages=6, sections=[section], tables=[first])
    add_parts(document, [caption])
    assert [table.notes for table in document.tables] == [[], ["MRI imaging."]]
    assert [block.text for block in section.blocks] == [table_block_text(table) for table in document.tables]
    assert section.blocks[1].text.endswith("| MRI scan | Surgery |\n\nMRI imaging.")
