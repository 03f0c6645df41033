"""A table's note in small type under its cells, which the table claimed and its cells do not hold,
goes under the table (as a JATS table's foot does), not into the body text, where it joined the
paragraph the table cut (hotos17's Table 1: "could, for the most a TSX launched …"). A page's
footnote under a narrow table, which runs out past the table's edges, is no note of it."""

from __future__ import annotations

from paperpyramid.document import Document
from paperpyramid.parsers.coverage import document_texts
from paperpyramid.parsers.embedded.assembly import assemble, merge_continuations
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.layout import Line

BODY = 9.0


def _line(text: str, page: int, top: float, x0: float = 90.0, x1: float = 520.0, size: float = BODY) -> Line:
    return Line(text, page, x0, top, x1, top + size, size, False, False, "Times-Roman")


def _assembled(note: Line) -> Document:
    heading = Block([_line("2 Background", 1, 60.0, size=12.0)], kind="heading", level=1, number="2", title="Background")
    cut = Block([_line("Past system designers could, for the most", 1, 700.0)])
    caption = Block([_line("Table 1: Summary of recent extensions", 2, 80.0)], kind="caption", label="1")
    rows = Block([_line("Extension Year", 2, 100.0), _line("SMEP 2011", 2, 112.0), _line("SMAP 2012", 2, 124.0)])
    small = Block([note])
    rest = Block([_line("part, ignore such changes to the architecture.", 2, 400.0)])
    blocks = [heading, cut, caption, rows, small, rest]
    caption.extra.update(caption_kind="table", members=[3, 4], found=[["Extension", "Year"], ["SMEP", "2011"], ["SMAP", "2012"]])
    document = Document(pages=2)
    assemble(document, blocks, BODY)
    merge_continuations(document)
    return document


def test_a_small_note_under_the_cells_goes_under_the_table() -> None:
    document = _assembled(_line("a TSX launched in 2013 but was later disabled due to a bug.", 2, 140.0, size=7.1))
    blocks = document.sections[0].blocks
    assert [block.kind for block in blocks] == ["paragraph", "table"]
    assert blocks[0].text == "Past system designers could, for the most part, ignore such changes to the architecture."
    assert blocks[1].text.endswith("| SMAP | 2012 |\n\na TSX launched in 2013 but was later disabled due to a bug.")


def test_a_page_footnote_past_the_tables_edges_is_no_note_of_it() -> None:
    document = _assembled(_line("Further author information: send correspondence to A.A.A.", 2, 140.0, x0=40.0, x1=560.0, size=7.1))
    blocks = document.sections[0].blocks
    assert "Further author" not in blocks[1].text
    assert any(block.kind == "paragraph" and block.text.startswith("Further author") for block in blocks)


def test_text_in_the_bodys_type_under_the_table_stays_text() -> None:
    document = _assembled(_line("The next column goes on in the body's type here.", 2, 140.0))
    assert any(block.kind == "paragraph" and block.text.startswith("The next column") for block in document.sections[0].blocks)


def test_a_tables_note_counts_towards_the_text_layers_coverage() -> None:
    document = _assembled(_line("a TSX launched in 2013 but was later disabled due to a bug.", 2, 140.0, size=7.1))
    assert "disabled" in " ".join(document_texts(document))


def test_a_notes_line_of_no_words_does_not_set_the_note_above_the_cells() -> None:
    # PLOS's "Values expressed as mean ± SEM. #p<0.01 …" over "*p<0.05": the second line, of no
    # words, reads as held by the cells; the note above it is under the cells all the same
    heading = Block([_line("2 Results", 1, 60.0, size=12.0)], kind="heading", level=1, number="2", title="Results")
    caption = Block([_line("Table 2: Paw volume", 2, 80.0)], kind="caption", label="2")
    rows = Block([_line("Group Volume", 2, 100.0), _line("Control 1.34", 2, 112.0)])
    note = Block([_line("Values expressed as mean and standard error.", 2, 130.0, size=7.2)])
    mark = Block([_line("*p<0.05", 2, 140.0, size=7.2)])
    blocks = [heading, caption, rows, note, mark]
    caption.extra.update(caption_kind="table", members=[2, 3, 4], found=[["Group", "Volume"], ["Control", "1.34"]])
    document = Document(pages=2)
    assemble(document, blocks, BODY)
    assert [block.kind for block in document.sections[0].blocks] == ["table"]
    assert "Values expressed as mean" in document.sections[0].blocks[0].text
