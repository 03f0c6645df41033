"""A table whose cells are shaded one by one (a heatmap-style table, colortbl's ``\\cellcolor``)
stays a table: each shaded box holds the text of its cell, where a plot's marks (ticks, squares,
bars) lie beside its labels (:func:`paperpyramid.parsers.embedded.table_detect.drawn_over`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.parsers.embedded.table_detect import drawn_over, mark_uncaptioned
from paperpyramid.parsers.embedded.table_rules import BBox

_ROWS = (
    ("Method", "Accuracy", "Recall", "F1 score"),
    ("Baseline", "0.71", "0.64", "0.67"),
    ("Logistic regression", "0.78", "0.70", "0.74"),
    ("Random forest", "0.83", "0.79", "0.81"),
    ("Gradient boosting", "0.86", "0.82", "0.84"),
    ("Neural network", "0.88", "0.85", "0.86"),
)
_COLUMNS = (72.0, 220.0, 300.0, 380.0)
_PROSE = (
    "The scores of each method on the held-out fold are shaded by their value, darker for the",
    "better ones, so that the best method of each measure stands out at a glance below.",
)


def _heatmap_page() -> Canvas:
    page = Canvas(612.0, 792.0)
    baseline = 90.0
    for line in _PROSE:
        page.text(72, baseline, line, "Times-Roman", 10)
        baseline += 13
    baseline += 20
    for number, row in enumerate(_ROWS):
        for column, (x, cell) in enumerate(zip(_COLUMNS, row, strict=True)):
            if number and column:  # each figure's cell shaded by its value
                page.fill(x - 4, baseline - 10, x + text_width(cell, "Times-Roman", 10) + 30, baseline + 3, 1.1 - float(cell))
            page.text(x, baseline, cell, "Times-Roman", 10)
        baseline += 14
    baseline += 30
    for line in _PROSE:
        page.text(72, baseline, line, "Times-Roman", 10)
        baseline += 13
    return page


def test_a_table_of_shaded_cells_stays_a_table(tmp_path: Path) -> None:
    # fifteen shaded boxes among the rows would pass for a plot's tiles: each holds its cell's text
    pdf = tmp_path / "heatmap.pdf"
    pdf.write_bytes(write_pdf([_heatmap_page()], "a shaded table"))
    tables = parse_pdf(pdf).tables
    assert len(tables) == 1
    assert ["Random forest", "0.83", "0.79", "0.81"] in tables[0].cells


def test_boxes_holding_the_rows_words_are_no_plot_marks() -> None:
    box: BBox = (72.0, 100.0, 420.0, 170.0)
    cells = [(216.0 + 80 * k, 102.0 + 14 * r, 260.0 + 80 * k, 115.0 + 14 * r) for k in range(3) for r in range(5)]
    words: list[BBox] = [(220.0 + 80 * k, 104.0 + 14 * r, 240.0 + 80 * k, 112.0 + 14 * r) for k in range(3) for r in range(5)]
    assert drawn_over(box, cells)
    assert not drawn_over(box, cells, words)


def _cell_line(text: str, x0: float, top: float) -> Line:
    width = 5.0 * len(text)
    return Line(text, 1, x0, top, x0 + width, top + 10, 10, False, False, "Times-Roman", words=[(text, x0, x0 + width)])


@pytest.mark.parametrize("numbers", [True, False], ids=["shaded-values", "shaded-labels"])
def test_shaded_boxes_holding_labels_are_a_plots_strips(numbers: bool) -> None:
    # a lattice plot's panel strips and a mosaic's tiles hold their labels in shaded boxes, set in
    # columns: only a table shades its values cell by cell
    rows = [["0.71", "0.64", "0.67"], ["0.78", "0.70", "0.74"], ["0.83", "0.79", "0.81"]]
    if not numbers:
        rows = [["Dept = B", "Dept = D", "Dept = F"], ["Gender", "Gender", "Gender"], ["Male", "Female", "Male"]]
    blocks = [Block([_cell_line(cell, 100 + 120 * k, 100 + 16 * r) for k, cell in enumerate(row)]) for r, row in enumerate(rows)]
    shades: list[BBox] = [(96 + 120 * k, 98 + 16 * r, 180 + 120 * k, 112 + 16 * r) for k in range(3) for r in range(3)]
    mark_uncaptioned(blocks, lambda page, box: [list(row) for row in rows], lambda page: shades)
    assert any(block.kind == "caption" for block in blocks) is numbers
