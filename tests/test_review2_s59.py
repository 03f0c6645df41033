"""The review of the stop's table and outline rules (2026-12-01, second stop): three ways they read
a real page wrong.

- A line that starts inside a table over its caption and reaches past the bottom rule was kept as
  the last row's tall brackets however far it ran: a "draft" watermark drawn across the page
  (TUGboat's babelbib draft) took the caption and two columns of text into Table 1.
- A header ruled under but not over, of two rows each drawing its own ``|``, was closed at its
  second row: the first row's text was lost (SAM's Table 6: "Called" over "Not Significant").
- A run of bold numbered lines under an outlined section made its subsections took bold numbered
  steps that end as sentences do ("1. Centrifuge the samples at 4 C.")."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded.outline import apply_outline
from paperpyramid.parsers.embedded.table_engine import extract_table
from tests.test_outline_leaves_s59_h1 import PROSE, TOC, _block, _document
from tests.test_table_caption_skip_s59_h2 import _FIRST, _booktabs
from tests.test_table_groups import _caption

_FONT = "Times-Roman"


def test_a_watermark_across_the_page_is_no_part_of_a_table_over_its_caption(tmp_path: Path) -> None:
    page = Canvas(612.0, 792.0)
    page.text(72, 250, "Most but not all functions defined in the package are summarized here.", _FONT, 10)
    bottom = _booktabs(page, 300, _FIRST)
    page.text(240, bottom + 22 + 7, "Table 1: Low-level manipulation.", _FONT, 9)
    page.text(72, bottom + 80, "The functions above read and write the sequences of the package in its formats.", _FONT, 10)
    page.text(200, 671, "D", _FONT, 400)  # the watermark: its box from 320 pt, inside the table, to 771 pt
    pdf = tmp_path / "draft.pdf"
    pdf.write_bytes(write_pdf([page], "draft"))
    assert extract_table(pdf, *_caption(pdf, "Table 1:")) == [list(row) for row in _FIRST]


def test_a_header_of_two_rows_ruled_only_under_keeps_its_first_row(tmp_path: Path) -> None:
    page = Canvas(612.0, 792.0)
    page.text(72, 80, "The counts of genes called significant and not, by the truth of the simulation.", _FONT, 10)
    page.text(240, 105, "Table 6: Genes called.", _FONT, 9)
    rows = [
        ("", "Called", "Called", ""),
        ("", "Not significant", "Significant", "Total"),
        ("Null", "180", "20", "200"),
        ("Non-null", "10", "90", "100"),
    ]
    top, pitch = 120.6, 14.8
    for index, cells in enumerate(rows):  # LaTeX draws each row's uprights apart, a rule's width over the next row's
        row_top = top + pitch * index
        for x in (240.8, 325.5, 389.3):
            page.rule(x, row_top, x, row_top + pitch + 0.4, 0.8)
        for x, cell in zip((200, 268, 340, 396), cells, strict=True):
            if cell:
                page.text(x, row_top + 11, cell, _FONT, 10)
        if index >= 1:
            page.rule(185.7, row_top + pitch, 426.3, row_top + pitch, 0.8)
    bottom = top + pitch * len(rows)
    page.text(72, bottom + 70, "The false discovery rate of the calls is the share of null genes among them.", _FONT, 10)
    pdf = tmp_path / "header.pdf"
    pdf.write_bytes(write_pdf([page], "two-row header"))
    read = extract_table(pdf, *_caption(pdf, "Table 6:"))
    assert read is not None and any("Called" in cell for cell in read[0]), read
    assert read[-1] == ["Non-null", "10", "90", "100"], read


def test_bold_numbered_steps_under_an_outlined_section_are_no_subsections() -> None:
    steps = ["1. Centrifuge the samples at 4 C.", "2. Discard the supernatant carefully.", "3. Resuspend the pellet in buffer."]
    blocks = _document([], [])
    items = [_block(step, "heading", bold=True, font="CMBX10", size=10.0) for step in steps]
    for item in items:
        blocks += [item, _block(PROSE, lines=2)]
    apply_outline(blocks, TOC, 10.0)
    assert [item.kind for item in items] == ["paragraph"] * 3, [(item.kind, item.level) for item in items]
