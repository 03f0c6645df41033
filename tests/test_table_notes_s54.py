"""What is set under a table: its own notes, the page's footnotes, "(Continued)".

A page's footnote at the foot of a page, under a full-width table that claimed it, is the
page's (its mark is in the body text, not in the table); a note whose mark a cell carries is the
table's. A line that only says the table goes on over the page is furniture, neither a note nor a
paragraph, and a table joined over its pages keeps the notes under each part. Under a caption
printed below its table, the notes in small type that refer to the table (and the short label
over them, teubner's "REMARKS") are the table's, not the body's. Words invented; the pages are
built with the synthetic canvas, or as the parser's blocks."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.document import Block as DocBlock
from paperpyramid.document import Document, Section, Table
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.assembly import assemble
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.table_engine import TablePart
from paperpyramid.parsers.embedded.table_reader import add_parts, continuation_mark, join_continued, table_block_text
from tests.block_builders import Stack
from tests.conftest import CORPUS
from tests.test_footnotes import _wrap

LEFT, WIDTH, BODY = 72.0, 468.0, 10.0
FILLER = (
    "The annotated corpus links every citation in the body text to an entry of the bibliography and every "
    "mention of a figure or table to its caption, which lets models learn from structured scientific text. "
)
#: the lines of a page 2 laid out as the parser's blocks, in the body's type unless a line says otherwise
LINES = Stack(page=2, x0=90.0, x1=520.0, size=BODY, font="Times-Roman")
FOOTNOTE = "The corpus and its links are free to download from the project's site under a licence that allows any use."


def _column(page: Canvas, top: float, text: str, size: float = BODY, x: float = LEFT) -> float:
    for line in _wrap(text, size, WIDTH):
        page.text(x, top, line, "Times-Roman", size)
        top += size * 1.2
    return top


def _page_with_a_table_over_a_footnote(first_row: str) -> Canvas:
    """A page whose text carries footnote mark 3 ("corpus³"), a full-width ruled table under it,
    and note 3 under a footnote rule at the page's foot."""
    page = Canvas(612, 792)
    page.text(LEFT, 80, "1 Introduction", "Times-Bold", 12)
    top = _column(page, 100, FILLER * 4)
    width = page.text(LEFT, top, "We release the corpus", "Times-Roman", BODY)
    page.text(LEFT + width, top - 3.5, "3", "Times-Roman", 6)
    page.text(LEFT + width + 4, top, " with its links, as the next pages describe in full.", "Times-Roman", BODY)
    top = _column(page, top + BODY * 1.2 + 6, FILLER * 3) + 14
    page.text(LEFT + 100, top, "Table 1: Sizes of the corpora we compare.", "Times-Roman", BODY)
    page.rule(LEFT, top + 8, LEFT + WIDTH, top + 8, 0.8)
    top += 20
    rows = [("Corpus", "Papers", "Links", "Fields"), (first_row, "1200", "3400", "Physics"), ("Beta", "5400", "8800", "Medicine")]
    rows += [("Gamma", "800", "1900", "Biology"), ("Delta", "2300", "4100", "Chemistry")]
    for number, row in enumerate(rows):
        for column, cell in enumerate(row):
            page.text(LEFT + 10 + column * 115, top, cell, "Times-Roman", 9)
        if number == 0:
            page.rule(LEFT, top + 4, LEFT + WIDTH, top + 4, 0.5)
        top += 12
    page.rule(LEFT, top - 6, LEFT + WIDTH, top - 6, 0.8)
    page.rule(LEFT, 712, LEFT + 0.3 * WIDTH, 712, 0.4)
    page.text(LEFT, 723, "3", "Times-Roman", 5.5)
    _column(page, 726, FOOTNOTE, 8.0, LEFT + 4)
    return page


def _parsed(tmp_path: Path, page: Canvas) -> Document:
    path = tmp_path / "table-over-footnote.pdf"
    path.write_bytes(write_pdf([page], "A page footnote under a table"))
    return parse_pdf(path)


def _table_block(document: Document) -> DocBlock:
    return next(block for section in document.sections for block in section.blocks if block.kind == "table")


def test_a_page_footnote_under_a_table_at_the_pages_foot_goes_with_the_pages_notes(tmp_path: Path) -> None:
    document = _parsed(tmp_path, _page_with_a_table_over_a_footnote("Alpha"))
    assert "free to download" not in _table_block(document).text
    notes = document.sections[-1]
    assert notes.title == "" and any("free to download" in block.text for block in notes.blocks)


def test_a_note_whose_mark_a_cell_carries_stays_the_tables(tmp_path: Path) -> None:
    document = _parsed(tmp_path, _page_with_a_table_over_a_footnote("Alpha3"))
    assert _table_block(document).text.endswith(FOOTNOTE)


def _assembled(blocks: list[Block], caption: int, members: list[int], found: list[list[str]]) -> Document:
    blocks[caption].extra.update(caption_kind="table", members=members, found=found)
    document = Document(pages=2)
    assemble(document, blocks, BODY)
    return document


def _heading() -> Block:
    return Block([LINES.line("2 Results", 60.0, page=1, size=12.0)], kind="heading", level=1, number="2", title="Results")


ROWS = [["Extension", "Year"], ["SMEP", "2011"], ["SMAP", "2012"]]


def test_a_continued_line_under_the_rows_is_neither_note_nor_paragraph() -> None:
    caption = Block([LINES.line("Table 1: Summary of recent extensions", 80.0)], kind="caption", label="1")
    rows = Block([LINES.line("Extension Year", 100.0), LINES.line("SMEP 2011", 112.0), LINES.line("SMAP 2012", 124.0)])
    continued = LINES.block("(continued on next page)", top=140.0, x0=400.0, size=7.5)
    alone = LINES.block("(Continued)", top=300.0, x0=480.0)
    document = _assembled([_heading(), caption, rows, continued, alone], 1, [2, 3], ROWS)
    blocks = document.sections[0].blocks
    assert [block.kind for block in blocks] == ["table"]
    assert blocks[0].text.endswith("| SMAP | 2012 |")


@pytest.mark.parametrize(
    "text", ["(Continued)", "continued", "(continued on next page)", "Table 1 continued on next page", "(…continued)", "Table 2. Cont."]
)
def test_a_continuation_mark(text: str) -> None:
    assert continuation_mark(text)


@pytest.mark.parametrize("text", ["The work continued for years.", "Continued fractions", "(continued from Section 2 on)"])
def test_text_that_says_more_is_no_continuation_mark(text: str) -> None:
    assert not continuation_mark(text)


def _rendered(table: Table, notes: str = "") -> DocBlock:
    table.notes = [notes] if notes else []
    return DocBlock(text=table_block_text(table), page=table.page, kind="table", bbox=table.bbox)


def test_a_table_joined_over_its_pages_keeps_every_parts_notes() -> None:
    head = ["Study", "Dose"]
    parts = [
        Table("Table 1. Studies", [head, ["Ames 2001", "10 g"]], page=5, label="1", bbox=(0, 0, 1, 1)),
        Table("Table 1. Cont.", [head, ["Brun 2004", "12 g"]], page=6, label="1", bbox=(0, 2, 1, 3)),
        Table("Table 1. Cont.", [head, ["Cole 2009", "8 g"]], page=7, label="1", bbox=(0, 4, 1, 5)),
        Table("Table 1. Cont.", [head, ["Dahl 2012", "9 g"]], page=8, label="1", bbox=(0, 6, 1, 7)),
    ]
    blocks = [_rendered(parts[0], "a Daily dose."), *(_rendered(part) for part in parts[1:3]), _rendered(parts[3], "b Older adults.")]
    document = Document(pages=8, sections=[Section("Results", 1, blocks=blocks)], tables=list(parts))
    join_continued(document)
    assert [row[0] for row in document.tables[0].cells] == ["Study", "Ames 2001", "Brun 2004", "Cole 2009", "Dahl 2012"]
    assert len(document.tables) == 1 and len(document.sections[0].blocks) == 1
    assert document.sections[0].blocks[0].text.endswith("| Dahl 2012 | 9 g |\n\na Daily dose.\n\nb Older adults.")


def test_the_notes_under_stacked_parts_go_under_the_last_part() -> None:
    a = TablePart("(a)", (50.0, 97.5, 700.0, 169.5), [["Authors", "Age"], ["Author 0", "40 M"]])
    b = TablePart("(b)", (50.0, 180.5, 700.0, 300.0), [["Imaging", "Treatment"], ["MRI scan", "Surgery"]])
    line = LINES.line("Table 2: Prior cases.", 70.0, page=5, x0=200.0, x1=300.0)
    caption = Block([line], kind="caption", label="2", extra={"caption_kind": "table", "parts": [a, b]})
    first = Table(caption="Table 2: Prior cases.", cells=a.cells, page=5, label="2", section=0, bbox=(50.0, 70.0, 700.0, 169.5))
    section = Section(title="Discussion", level=1, blocks=[_rendered(first, "MRI magnetic resonance imaging.")])
    document = Document(pages=6, sections=[section], tables=[first])
    add_parts(document, [caption])
    assert section.blocks[0].text.endswith("| Author 0 | 40 M |")
    assert section.blocks[1].text.endswith("| MRI scan | Surgery |\n\nMRI magnetic resonance imaging.")


def _caption_below(notes: list[Block]) -> Document:
    lines = [LINES.line("Example Syntax", 100.0), LINES.line("ab \\G{letter}1", 112.0), LINES.line("cd \\ring{letter}2", 124.0)]
    rows = Block(lines, kind="table_part")  # claimed over the caption
    caption = Block([LINES.line("Table 4: Accent macros", 140.0, x0=240.0, x1=354.0)], kind="caption", label="4")
    after = LINES.block("The text goes on in the body's type under the table's notes.", top=260.0)
    found = [["Example", "Syntax"], ["ab", "\\G{letter} 1"], ["cd", "\\ring{letter} 2"]]
    return _assembled([_heading(), rows, caption, *notes, after], 2, [1], found)


def test_the_notes_under_a_caption_below_its_table_are_the_tables_with_their_label() -> None:
    label = LINES.block("REMARKS", top=156.0, x1=150.0)
    first = LINES.block("1These commands superimpose the accent over the letter, and", top=170.0, size=8.5)
    rest = LINES.block("the others do so as well.", top=180.0, size=8.5)
    second = LINES.block("2Most commands may be used with latin letters.", top=190.0, size=8.5)
    document = _caption_below([label, first, rest, second])
    blocks = document.sections[0].blocks
    assert [block.kind for block in blocks] == ["table", "paragraph"]
    assert blocks[0].text.endswith(
        "\n\nREMARKS\n\n1These commands superimpose the accent over the letter, and\n\nthe others do so as well.\n\n2Most commands may be used with latin letters."
    )


def test_small_print_under_a_caption_that_refers_to_no_table_stays_text() -> None:
    label = LINES.block("REMARKS", top=156.0, x1=150.0)
    other = LINES.block("7A note whose mark no cell of the table carries.", top=170.0, size=8.5)
    document = _caption_below([label, other])
    texts = [block.text for block in document.sections[0].blocks if block.kind == "paragraph"]
    assert texts[:2] == ["REMARKS", "7A note whose mark no cell of the table carries."]


VESPA = CORPUS / "peerj-cs-2017-vespa.pdf"


@pytest.mark.skipif(not VESPA.is_file(), reason="../shared/corpus is not here (real PeerJ article, not distributed)")
def test_peerjs_continued_on_next_page_is_no_paragraph() -> None:
    """PeerJ prints "(continued on next page)" under each part of its Table 2, over three pages."""
    document = parse_pdf(VESPA)
    texts = [block.text for section in document.sections for block in section.blocks if block.kind in ("paragraph", "table")]
    assert not any("continued on next page" in text for text in texts)
    assert [table.label for table in document.tables].count("2") == 1


def test_a_tables_note_whose_mark_was_cut_off_keeps_its_mark_out_of_the_pages_notes() -> None:
    """A table's own note ("¹ For each dataset …", its mark carried by the cell "Base Model1") whose
    mark pdfium read as a block of its own stays the table's, and so does that mark: deciding
    whether the note is the page's must not set the mark aside as a page note's."""
    from paperpyramid.parsers.embedded.footnotes import _Carried, _pages_note
    from tests.block_builders import Stack

    stack = Stack(top=700.0, size=7.0)
    note = stack.block("For each dataset we report the best run of three.", "table_part", x0=80.0, x1=300.0)
    mark = stack.block("1", top=700.0, x0=74.0, x1=78.0, size=5.0)
    body = Stack(top=100.0, size=10.0).block("The body cites the model 1 and goes on.", lines=4)
    on_page = [body, note, mark]
    carried = _Carried(on_page, 10.0, 1, None)
    assert not _pages_note(note, on_page, carried, ["Table 1 Results", "Base Model1"], 10.0)
    assert mark.kind == "paragraph"
