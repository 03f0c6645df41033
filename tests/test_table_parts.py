"""Subtables stacked under one caption ("Table 2" over "(a)" and "(b)") stored as one table a
part, labelled as JATS labels the parts of a ``<table-wrap-group>`` ("2 (a)", "2 (b)"), and a
part continued on the next page under "(b) Continued." joined to its part: on small
constructed pages, and on the real article that prints them (``../shared/pmc-pairs``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.document import Block as DocBlock
from paperpyramid.document import Document, Section, Table
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.parser import _part_continuations, parse_pdf
from paperpyramid.parsers.embedded.table_engine import TablePart, table_parts
from paperpyramid.parsers.embedded.table_reader import add_parts, join_continued
from paperpyramid.parsers.embedded.table_stacks import parts

PAIRS = Path(__file__).resolve().parents[2] / "shared" / "pmc-pairs"
needs_pairs = pytest.mark.skipif(not PAIRS.is_dir(), reason="../shared/pmc-pairs is not here (real PMC articles, not distributed)")

_CHAR = 5.0


def _line(text: str, x0: float, top: float, size: float = 10.0, page: int = 1) -> Line:
    """A line of ``text`` from ``x0``, its words spaced as a font of ``size`` sets them."""
    words, x, char = [], x0, _CHAR * size / 10
    for word in text.split():
        words.append((word, x, x + char * len(word)))
        x += char * (len(word) + 1)
    return Line(text, page, x0, top, words[-1][2], top + size, size, False, False, "Times", words=words)


def _stacked_page() -> list[Line]:
    """A caption over part (a), two columns of four rows, and part (b), three columns of four rows."""
    lines = [_line("Table 2: Prior cases of the lesion.", 200, 70), _line("(a)", 390, 87)]
    lines += [_line("Authors", 70, 100), _line("Age", 300, 100)]
    lines += [_line(f"Author {k}", 70, 113 + 13 * k) for k in range(4)] + [_line(f"{40 + k} M", 300, 113 + 13 * k) for k in range(4)]
    lines += [_line("(b)", 390, 170), _line("Imaging", 70, 183), _line("Treatment", 300, 183), _line("Outcome", 500, 183)]
    for k in range(4):
        lines += [_line(f"MRI {k}", 70, 196 + 13 * k), _line(f"Surgery {k}", 300, 196 + 13 * k), _line(f"{k} years", 500, 196 + 13 * k)]
    return lines


def test_each_part_has_its_mark_and_box() -> None:
    lines = _stacked_page()[1:]
    assert parts(lines, (50.0, 80.0, 700.0, 300.0)) == [("(a)", (50.0, 97.5, 700.0, 169.5)), ("(b)", (50.0, 180.5, 700.0, 300.0))]


def test_every_stacked_part_is_read_as_a_table() -> None:
    lines = _stacked_page()
    caption = lines[0]
    found = table_parts(lines, [], (0.0, 0.0, 800.0, 600.0), (caption.x0, caption.top, caption.x1, caption.bottom))
    assert [part.mark for part in found] == ["(a)", "(b)"]
    assert found[0].cells[0] == ["Authors", "Age"] and len(found[0].cells) == 5
    assert found[1].cells[0] == ["Imaging", "Treatment", "Outcome"] and found[1].cells[-1] == ["MRI 3", "Surgery 3", "3 years"]


def _caption_block(text: str, label: str, page: int, parts_: list[TablePart]) -> Block:
    return Block([_line(text, 200, 70, page=page)], kind="caption", label=label, extra={"caption_kind": "table", "parts": parts_})


def test_parts_are_stored_apart_labelled_with_their_marks() -> None:
    a = TablePart("(a)", (50.0, 97.5, 700.0, 169.5), [["Authors", "Age"], ["Author 0", "40 M"]])
    b = TablePart("(b)", (50.0, 180.5, 700.0, 300.0), [["Imaging", "Treatment"], ["MRI scan", "Surgery"]])
    caption = _caption_block("Table 2: Prior cases.", "2", 5, [a, b])
    first = Table(caption="Table 2: Prior cases.", cells=a.cells, page=5, label="2", section=0, bbox=(50.0, 70.0, 700.0, 169.5))
    section = Section(title="Discussion", level=1)
    section.blocks = [
        DocBlock(text="Table 2: Prior cases.\n\n" + first.markdown, page=5, kind="table", bbox=first.bbox),
        DocBlock(text="Imaging Treatment MRI scan", page=5, kind="paragraph", bbox=(70.0, 183.0, 400.0, 210.0)),  # a row left as text
        DocBlock(text="Running text after the table.", page=5, kind="paragraph", bbox=(70.0, 400.0, 400.0, 410.0)),
    ]
    document = Document(pages=6, sections=[section], tables=[first])
    add_parts(document, [caption])
    assert [(table.label, table.caption, table.cells) for table in document.tables] == [
        ("2 (a)", "Table 2: Prior cases. (a)", a.cells),
        ("2 (b)", "Table 2: Prior cases. (b)", b.cells),
    ]
    assert [block.text.split("\n")[0] for block in section.blocks] == [
        "Table 2: Prior cases. (a)",
        "Table 2: Prior cases. (b)",
        "Running text after the table.",
    ]


def test_a_part_continued_on_the_next_page_joins_its_part() -> None:
    b = TablePart("(b)", (50.0, 180.5, 700.0, 300.0), [["Imaging", "Treatment"], ["MRI scan", "Surgery"]])
    caption = _caption_block("Table 2: Prior cases.", "2", 5, [TablePart("(a)", (0, 0, 1, 1), [["x", "y"]]), b])
    head = Block([_line("(b) Continued.", 370, 66, page=6)], kind="furniture")
    other = Block([_line("(c) Continued.", 370, 66, page=7)], kind="paragraph")
    blocks = [caption, Block([_line("text", 70, 100, page=6)]), head, other]
    assert _part_continuations(blocks, [0]) == [2]
    assert (head.kind, head.label, head.extra["part"]) == ("caption", "2", "(b)")
    assert other.kind == "paragraph"
    # stored as the part's label, its rows join the part's
    rest = Table(
        caption="(b) Continued.", cells=[["Imaging", "Treatment"], ["CT scan", "None"]], page=6, label="2 (b)", bbox=(0, 80, 1, 200)
    )
    first = Table(caption="Table 2: Prior cases. (b)", cells=b.cells, page=5, label="2 (b)", bbox=b.box)
    document = Document(pages=6, tables=[first, rest])
    join_continued(document)
    assert [table.cells for table in document.tables] == [[["Imaging", "Treatment"], ["MRI scan", "Surgery"], ["CT scan", "None"]]]


@needs_pairs
def test_a_hindawi_table_in_two_parts_over_two_pages_is_two_tables() -> None:
    document = parse_pdf(PAIRS / "crneurolmed-2016-clival-pituitary-adenoma.pdf")
    tables = {table.label: table for table in document.tables}
    assert [table.label for table in document.tables] == ["1", "2 (a)", "2 (b)"]
    assert tables["2 (a)"].cells[0] == ["Authors", "Patient age and gender", "Immunostaining", "Initial presentation"]
    assert tables["2 (b)"].cells[0][0] == "Focal neurological findings"
    # the part's rows on the next page are its own, its repeated header dropped
    assert any("PRL = 881.3" in row for row in tables["2 (b)"].cells)
    assert sum(row[0] == "Focal neurological findings" for row in tables["2 (b)"].cells) == 1
