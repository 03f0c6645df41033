"""Notes set under a table's ``tabular`` a skip apart, lines of prose across its columns whose
numbers the engine cuts out as values ("(over | 50 | replications)"): they are the table's notes,
not rows of it, however many lines they take (rgenoud's mean values). The PDF is made here."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded.table_engine import read_table_page, table_rows

_COLUMNS = (90.0, 160.0, 240.0, 320.0, 400.0, 480.0)
_NOTES = (
    "Note: Average minimum function values (over 50 replications) obtained using the package.",
    "Mean best function values (over 50 replications) reported for the fast evolutionary",
)


def _page() -> Canvas:
    page = Canvas(612.0, 792.0)
    page.rule(80, 90, 530, 90, 0.5)
    for x, head in zip(_COLUMNS, ("func.", "max=30", "max=100", "max=30", "max=100", "FEP"), strict=True):
        page.text(x, 104, head, "Times-Roman", 10)
    baseline = 118.0
    for row in range(8):
        values = [str(row + 1), f"{row + 1}.453e-32", f"{row + 2}.658e-32", f"{row + 3}.416", f"-{row + 6}.134", f"{row}.7e-4"]
        for x, value in zip(_COLUMNS, values, strict=True):
            page.text(x, baseline, value, "Times-Roman", 10)
        baseline += 13.5
    baseline += 12
    for line in _NOTES:
        page.text(81, baseline, line, "Times-Roman", 10)
        baseline += 13.5
    page.text(180, baseline + 26, "Table 3: Mean Values of the Optimized Functions", "Times-Roman", 10)
    page.rule(80, baseline + 50, 530, baseline + 50, 0.5)
    return page


def test_prose_notes_a_skip_under_the_rows_are_no_rows(tmp_path: Path) -> None:
    pdf = tmp_path / "means.pdf"
    pdf.write_bytes(write_pdf([_page()], "means"))
    lines, rules, page_bbox = read_table_page(pdfium.PdfDocument(pdf), 1)
    caption = next(line for line in lines if line.text.startswith("Table 3"))
    cells = table_rows(lines, rules, page_bbox, (caption.x0, caption.top, caption.x1, caption.bottom))
    assert cells is not None
    assert [row[0] for row in cells] == ["func.", *(str(row + 1) for row in range(8))], cells
