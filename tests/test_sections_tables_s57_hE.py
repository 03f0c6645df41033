"""Section and table misses of unseen batch 13 (issue 32), each a layout convention of its own:

- a table printed over its caption, the next section's numbered heading under the caption
  (rpart's "Table 1" over "11 Test Cases"): the heading ends the caption, it is no table row,
  and the table is the aligned block over the caption;
- a numbered heading in a heading's larger type whose title is a statement's word ("2 Notation"):
  a section, where a statement's label ("Notation 2") is set in the body's type;
- bold group labels of a two-column list ("Coercion" over "as.proto  If x is …" in proto's
  reference card), set in a bold the outline never names: no headings.

The table is drawn as a PDF of real text (``tests/pdf_maker``), the others built from blocks as
the layout step hands them on; each case is checked on the batch-13 paper that showed it where
the set is built.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.blocks import Block, classify
from paperpyramid.parsers.embedded.outline import apply_outline
from tests.block_builders import Stack, printed_heading
from tests.pdf_maker import styled_pdf
from tests.unseen_pdfs import unseen_folder

BATCH13 = unseen_folder(13)
PROSE = "The model was fitted to the weekly counts of each district, and the estimates are shown below."
BODY = "CMR10"
_stack = Stack(size=9.7, font=BODY, heading=printed_heading)

Item = tuple[float, float, float, list[tuple[str, str]]]


def _regular(x: float, y: float, size: float, text: str) -> Item:
    return (x, y, size, [("regular", text)])


def _bold(x: float, y: float, size: float, text: str) -> Item:
    return (x, y, size, [("bold", text)])


def _grid(top: float) -> list[Item]:
    """Four rows of a data set's values, each cell apart in a column of its own."""
    rows = [
        ["y", "1", "2", "3", "1", "2"],
        ["x1", "1", "2", "3", "4", "5"],
        ["x2", "4", "8", "15", "16", "23"],
        ["x3", "NA", "22", "38", "12", "48"],
    ]
    return [_regular(200 + 36 * column, top - 14 * index, 10, cell) for index, row in enumerate(rows) for column, cell in enumerate(row)]


def test_a_numbered_heading_under_a_caption_is_no_row_of_its_table(tmp_path: Path) -> None:
    # running text, its lines across the page to one right edge
    paragraph = ["The data below were collected to check the program against a small case worked by hand, and"] * 4
    items = [
        *(_regular(72, 720 - 13 * index, 10, line) for index, line in enumerate(paragraph)),
        *_grid(660),
        _regular(200, 595, 10, "Table 1: Data set for the classification test case"),
        # each number an em and more left of its title, the titles at one edge
        *(_bold(72, 565, 14, "11"), _bold(108, 565, 14, "Test Cases")),
        *(_bold(72, 540, 11, "11.1"), _bold(108, 540, 11, "Classification")),
        *(_regular(72, 520 - 13 * index, 10, line) for index, line in enumerate(paragraph)),
    ]
    path = tmp_path / "paper.pdf"
    path.write_bytes(styled_pdf([items]))
    document = parse_pdf(path)
    table = next(table for table in document.tables if table.label == "1")
    assert table.cells[0][:3] == ["y", "1", "2"], table.cells
    assert not any("Test Cases" in cell for row in table.cells for cell in row), table.cells


def _classified(text: str, size: float, bold: bool) -> Block:
    block = _stack.block(text, size=size, bold=bold, font="CMBX12" if bold else BODY)
    classify(block, 9.7, BODY)
    return block


def test_a_numbered_heading_named_like_a_statement_is_a_section() -> None:
    heading = _classified("2 Notation", 12.7, bold=True)
    assert (heading.kind, heading.number, heading.title) == ("heading", "2", "Notation")
    label = _classified("Notation 2", 9.7, bold=True)
    assert label.kind != "heading"


def _labelled_list(label: str, text_edge: float) -> list[Block]:
    """A bold group label at the list's left edge, then an entry: its term ("as.proto") in the
    first column, its text's lines at ``text_edge``."""
    entry = _stack.block(["as.proto If x is a proto object or environment then x is returned", *[PROSE[:60]] * 3], x0=text_edge)
    entry.lines[0].x0 = 104.1
    return [_stack.block(label, "heading", x0=87.0, bold=True, font="CMBX10"), entry]


def _card(text_edge: float) -> list[Block]:
    """An outlined "Reference Card" over two bold labels, each over an entry, between sections."""
    blocks = [_stack.block("1 Introduction", "heading", size=10.6, bold=True, font="CMBX12"), _stack.block(PROSE, lines=3)]
    blocks += [_stack.block("2 Reference Card", "heading", size=10.6, bold=True, font="CMBX12")]
    blocks += [*_labelled_list("Coercion", text_edge), *_labelled_list("Standard methods", text_edge)]
    blocks += [_stack.block("3 Summary", "heading", size=10.6, bold=True, font="CMBX12"), _stack.block(PROSE, lines=3)]
    assert apply_outline(blocks, [(1, "Introduction", 1), (1, "Reference Card", 1), (1, "Summary", 1)], 9.7)
    return blocks


def test_bold_labels_of_a_two_column_list_are_no_headings() -> None:
    titles = [block.title for block in _card(161.8) if block.kind == "heading"]
    assert titles == ["Introduction", "Reference Card", "Summary"], titles


def test_bold_labels_over_paragraphs_stay_headings() -> None:
    # the entry's lines back at the label's edge, its first indented: a paragraph the label heads
    titles = [block.title for block in _card(87.0) if block.kind == "heading"]
    assert titles == ["Introduction", "Reference Card", "Coercion", "Standard methods", "Summary"], titles


@pytest.mark.skipif(not BATCH13.is_dir(), reason="unseen batch 13 is not built here (under $UNSEEN_PDFS)")
def test_batch13_papers() -> None:
    rpart = parse_pdf(BATCH13 / "rpart-recursive-partitioning.pdf")
    assert ("2", "Notation") in [(section.number, section.title) for section in rpart.sections]
    table = next(table for table in rpart.tables if table.label == "1")
    assert len(table.cells) == 8 and table.cells[0][0] == "y", table.cells
    proto = parse_pdf(BATCH13 / "proto-prototype-programming.pdf")
    titles = [section.title for section in proto.sections]
    assert "Coercion" not in titles and "Standard methods" not in titles, titles
