"""A table's own DOI printed among its notes (PLOS) is read from the table's notes
(:attr:`paperpyramid.document.Table.notes`), goes to its caption, and leaves the notes: the table
and the block that renders it in its section read alike after."""

from __future__ import annotations

from paperpyramid.document import Block, Document, Section, Table
from paperpyramid.parsers.embedded.notes import set_apart_notes
from paperpyramid.parsers.embedded.table_reader import table_block_text

DOI = "10.1371/journal.pone.0193451"


def _set_apart(table: Table) -> Block:
    block = Block(text=table_block_text(table), page=5, kind="table")
    document = Document(doi=DOI, pages=6)
    document.sections = [Section(title="Results", blocks=[block])]
    document.tables = [table]
    set_apart_notes(document)
    return block


def test_a_table_doi_among_its_notes_leaves_them_for_the_caption() -> None:
    table = Table(caption="Table 2. Doses.", cells=[["a"], ["1"]], page=5, label="2")
    table.notes = ["Values are means.", f"https://doi.org/{DOI}.t002"]
    block = _set_apart(table)
    assert table.caption == f"Table 2. Doses.\nhttps://doi.org/{DOI}.t002"
    assert table.notes == ["Values are means."]
    assert block.text == table_block_text(table)


def test_a_doi_ending_a_note_of_a_table_without_cells_goes_to_its_caption() -> None:
    """The engine read no cells: the notes stand right under the caption, and are its notes still."""
    table = Table(caption="Table 1. Sites.", cells=[], page=5, label="1")
    table.notes = [f"The sites of the survey. doi:{DOI}.t001"]
    block = _set_apart(table)
    assert table.caption == f"Table 1. Sites.\ndoi:{DOI}.t001"
    assert table.notes == ["The sites of the survey."]
    assert block.text == table_block_text(table)


def test_a_doi_opening_a_note_leaves_the_note_on_its_own_line() -> None:
    table = Table(caption="Table 2. Doses.", cells=[["a", "b"], ["1", "2"]], page=5, label="2")
    table.notes = [f"https://doi.org/{DOI}.t002 Values are means."]
    block = _set_apart(table)
    assert table.notes == ["Values are means."]
    assert block.text == table_block_text(table)
    assert block.text.endswith("| 1 | 2 |\n\nValues are means.")
