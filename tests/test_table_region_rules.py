"""Which rules bound a table's region (:func:`paperpyramid.parsers.embedded.table_region.find_region`),
on pages drawn in the test as two publishers' templates set them: Oxford University Press's
running head over a double rule with a caption set just under it, and REVTeX's frame round
the page's foot drawn a point past the page's edges."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded.table_engine import extract_table
from tests.test_table_groups import _caption

_FONT = "Times-Roman"


def _oup_page() -> Canvas:
    page = Canvas(595.0, 782.0)
    page.text(460, 30, "Short Article Title | 3", _FONT, 9)
    page.rule(52, 41, 543, 41, 0.5)  # the running head's double rule, 4 pt apart
    page.rule(52, 45, 543, 45, 0.5)
    page.text(54, 63, "Table 2. Example of a lengthy table set to the full text width.", _FONT, 8)
    page.rule(54, 69, 542, 69, 0.6)  # top rule
    columns = (54, 140, 220, 290, 370, 440, 500)
    for x, label in zip(columns, ("Project", "Energy", "Calc", "Expt", "Energy", "Calc", "Expt"), strict=True):
        page.text(x, 92, label, _FONT, 8)
    page.rule(54, 97.5, 542, 97.5, 0.4)  # under the header
    body = (("Element 3", "990 A", "1168", "1547", "780 A", "1166", "1239"), ("Element 4", "500 A", "961", "922", "900 A", "1268", "1092"))
    for row, cells in enumerate(body):
        for x, cell in zip(columns, cells, strict=True):
            page.text(x, 110 + 12 * row, cell, _FONT, 8)
    page.rule(54, 126.6, 542, 126.6, 0.6)  # bottom rule
    page.text(
        54, 138, "Note: This is an example of a table footnote that runs across the whole width of the page under the table.", _FONT, 7
    )
    page.text(54, 148, "1 Example for a first table footnote.", _FONT, 7)
    page.box(60, 178, 280, 230, 0.5)  # a figure's frame in the left column
    page.rule(306, 197, 542, 197, 0.8)  # an algorithm's rules in the right one
    page.text(306, 206, "Algorithm 1 Calculate y", _FONT, 9)
    page.rule(306, 209, 542, 209, 0.4)
    page.text(306, 222, "Require: n is even", _FONT, 9)
    page.text(54, 250, "Fig. 1. This is a wide figure.", _FONT, 8)
    return page


def test_a_double_rule_over_the_caption_is_no_table_above_it(tmp_path: Path) -> None:
    # the running head's two rules just over the caption were read as a table printed above
    # it (a region holding no row): the engine found no table, and the parser's own rough
    # cells stood in. (The region still runs down to the algorithm's rules, its notes in it.)
    pdf = tmp_path / "oup.pdf"
    pdf.write_bytes(write_pdf([_oup_page()], "region rules"))
    rows = extract_table(pdf, *_caption(pdf, "Table 2."))
    assert rows is not None
    assert rows[:3] == [
        ["Project", "Energy", "Calc", "Expt", "Energy", "Calc", "Expt"],
        ["Element 3", "990 A", "1168", "1547", "780 A", "1166", "1239"],
        ["Element 4", "500 A", "961", "922", "900 A", "1268", "1092"],
    ]


def test_a_frame_a_point_past_the_page_edge_rules_off_no_table(tmp_path: Path) -> None:
    # REVTeX (APS) strokes a frame around its page's foot from a point past the page's left and
    # bottom edges: its top side, just under a table at the foot of the left column, crossed
    # the page's middle, so the table was read across both columns (the right column's table
    # rows in its cells: 2 rows of 11 columns for 4 of 5)
    page = Canvas(612.0, 792.0)
    for row in range(40):
        page.text(54, 80 + 13 * row, "Running text of the left column, set as it is in a paper.", _FONT, 9)
        page.text(317, 80 + 13 * row, "Running text of the right column, set beside the left one.", _FONT, 9)
    page.text(54, 640, "TABLE III. Numbers in columns Three to Five are aligned.", _FONT, 9)
    page.rule(54, 645, 299, 645, 0.4)
    columns = (54, 100, 150, 210, 260)
    rows = (("One", "Two", "Three", "Four", "Five"), ("He", "2", "2.77234", "45672.", "0.69"), ("Ca", "Cb", "12537.64", "37.66", "86.37"))
    for index, cells in enumerate(rows):
        for x, cell in zip(columns, cells, strict=True):
            page.text(x, 657 + 12 * index, cell, _FONT, 9)
    page.rule(54, 661, 299, 661, 0.4)
    page.rule(54, 695, 299, 695, 0.4)
    for index, x in enumerate((320, 380, 440, 500)):
        page.text(x, 690, f"{index}.{index}0", _FONT, 9)  # a row of the right column's table beside it
    page.box(-0.5, 711, 501, 792.5, 0)  # the frame round the page's foot: pdfium bounds it a point past the edges
    pdf = tmp_path / "aps.pdf"
    pdf.write_bytes(write_pdf([page], "a frame off the page"))
    assert extract_table(pdf, *_caption(pdf, "TABLE III.")) == [list(cells) for cells in rows]
