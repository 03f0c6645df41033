"""A row of cells set ``\\tabcolsep`` apart, the only row to fill every column (the partitions
package's "fifteen partitions of a set of four elements", batch 9): its gaps are all alike, as
a justified line's are, and it was kept whole, so the columns only it fills (the first and the
last) joined their neighbours. Its words open where the other rows' cells open: it is a row of
cells. Drawn here after that table (Times, 10 pt)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded.table_engine import extract_table
from tests.test_table_groups import _caption

_ROWS = (
    ("(1234)", "(123)(4)", "(12)(34)", "(12)(3)(4)", "(1)(2)(3)(4)"),
    ("", "(124)(3)", "(13)(24)", "(13)(2)(4)", ""),
    ("", "(134)(2)", "(14)(23)", "(14)(2)(3)", ""),
    ("", "(234)(1)", "", "(23)(1)(4)", ""),
    ("", "", "", "(24)(1)(3)", ""),
    ("", "", "", "(34)(1)(2)", ""),
)


def test_a_row_of_cells_spaced_evenly_is_cut_where_the_other_rows_cells_open(tmp_path: Path) -> None:
    page = Canvas(595.0, 842.0)
    columns = [172.3]  # each cell of the first row 11.9 pt (twice \tabcolsep) after the one before
    for cell in _ROWS[0][:-1]:
        columns.append(columns[-1] + text_width(cell, "Times-Roman", 10) + 11.9)
    for index, row in enumerate(_ROWS):
        for x, cell in zip(columns, row, strict=True):
            if cell:
                page.text(x, 118 + 13.6 * index, cell, "Times-Roman", 10)
    page.text(170, 208, "Table 1: The fifteen partitions of a set of four elements", "Times-Roman", 10)
    page.text(72, 240, "The functionality presented here is given by a wrapper for code, currently part of the", "Times-Roman", 10)
    page.text(72, 252, "partitions package, which enumerates the partitions of a set in their usual order.", "Times-Roman", 10)
    pdf = tmp_path / "partitions.pdf"
    pdf.write_bytes(write_pdf([page], "partitions"))
    rows = extract_table(pdf, *_caption(pdf, "Table 1:"))
    assert rows == [list(row) for row in _ROWS]
