"""A table under its caption, ruled booktabs-style, with a shaded code listing under it whose box
edges read as rules reaching past the table's: the box's rules are none of the table's, and the
table ends at its own bottom rule, not at the box's (PureCN's output columns over R's console
output). The PDF is made here."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded.table_engine import read_table_page, table_rows

_ROWS = (
    ("chr, start, end", "Gene coordinates"),
    ("C", "Segment integer copy number"),
    ("seg.mean", "Segment mean of copy number log2-ratios"),
    ("breakpoints", "Number of breakpoints between start and end"),
    ("type", "Amplification or deletion"),
)
_CONSOLE = (
    "## PPM1K    chr4  89183747  89199736  NA    FALSE",
    "##          gene.min gene.max breakpoints p.value",
    "## EIF2A    0.7544062 2.139217      0      0",
    "## MIR548H2 0.4682628 1.200025      0      0",
    "## FTLP10   0.4369763 1.262028      0      0",
)


def _page() -> Canvas:
    page = Canvas(612.0, 792.0)
    page.text(150, 90, "Table 2: callAlterations output columns", "Helvetica-Bold", 8)
    page.rule(100, 104, 460, 104, 0.5)
    page.text(105, 116, "Column name", "Helvetica", 9)
    page.text(190, 116, "Description", "Helvetica", 9)
    page.rule(100, 121, 460, 121, 0.4)
    baseline = 133.0
    for name, text in _ROWS:
        page.text(105, baseline, name, "Courier", 8)
        page.text(190, baseline, text, "Helvetica", 9)
        baseline += 12
    page.rule(100, baseline - 6, 460, baseline - 6, 0.5)
    top = baseline + 20
    page.rule(50, top, 476, top, 0.4)  # the shaded listing's box, wider than the table
    for index, line in enumerate(_CONSOLE):
        page.text(95, top + 14 + 12 * index, line, "Courier", 8)
    page.rule(50, top + 20 + 12 * len(_CONSOLE), 476, top + 20 + 12 * len(_CONSOLE), 0.4)
    return page


def test_a_listing_box_under_a_table_closes_nothing_of_it(tmp_path: Path) -> None:
    pdf = tmp_path / "columns.pdf"
    pdf.write_bytes(write_pdf([_page()], "columns"))
    lines, rules, page_bbox = read_table_page(pdfium.PdfDocument(pdf), 1)
    caption = next(line for line in lines if line.text.startswith("Table 2"))
    cells = table_rows(lines, rules, page_bbox, (caption.x0, caption.top, caption.x1, caption.bottom))
    assert cells is not None
    assert not any("##" in cell for row in cells for cell in row), cells
    assert [row[0] for row in cells[1:]] == [name for name, _ in _ROWS]
