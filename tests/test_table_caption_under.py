"""A caption set under its table, close under it, with the paragraph the float interrupted
going on further under the caption (LaTeX's caption skip over it, the float's separation under
it: JSS's descriptive statistics): the table is the one over the caption
(:func:`paperpyramid.parsers.embedded.table_region.hugs_lines_above`), not the paragraph's last
line and a display under it. A caption set over its table, close over it, keeps the table under it.
The PDFs are made here."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded.table_engine import read_table_page, table_rows

_HEADER = ("Variable", "n", "Minimum", "Median", "Maximum", "IQR")
_ROW = ("reliability", "786", "1404.2", "1688.2", "1853.6", "103.4")
_COLUMNS = (120, 180, 220, 290, 350, 420)
_PROSE = (
    "The very small bandwidth was chosen to obtain a density with the variance of the sample and",
    "to avoid putting too much weight into the tails, which was crucial in the engineers' work, and",
    "we think that such undersmoothed density estimators are a simple way of showing the data.",
)


def _table(page: Canvas, baseline: float) -> float:
    """The header, a rule under it and one row; the baseline of the row."""
    for x, word in zip(_COLUMNS, _HEADER, strict=True):
        page.text(x, baseline, word, "Times-Roman", 9)
    page.rule(115, baseline + 3, 450, baseline + 3, 0.4)
    baseline += 12
    for x, word in zip(_COLUMNS, _ROW, strict=True):
        page.text(x, baseline, word, "Times-Roman", 9)
    return baseline


def _prose(page: Canvas, baseline: float) -> None:
    for line in _PROSE:
        page.text(72, baseline, line, "Times-Roman", 10, word_spacing=(468 - text_width(line, "Times-Roman", 10)) / line.count(" "))
        baseline += 12


def _cells(tmp_path: Path, page: Canvas) -> list[list[str]] | None:
    pdf = tmp_path / "caption.pdf"
    pdf.write_bytes(write_pdf([page], "caption"))
    lines, rules, page_bbox = read_table_page(pdfium.PdfDocument(pdf), 1)
    caption = next(line for line in lines if line.text.startswith("Table 1"))
    return table_rows(lines, rules, page_bbox, (caption.x0, caption.top, caption.x1, caption.bottom))


def test_a_caption_close_under_its_table_takes_the_table_over_it(tmp_path: Path) -> None:
    page = Canvas(612.0, 792.0)
    row = _table(page, 100.0)
    page.text(190, row + 22, "Table 1: Descriptive statistics of reliability data.", "Times-Roman", 10)
    page.text(108, row + 55, "where the density is the normal one with mean 0 and variance 1.", "Times-Roman", 10)
    # the next paragraph opens with a formula: a root sign raised over the line cuts it in pieces
    page.text(72, row + 80, "The very small bandwidth s/", "Times-Roman", 10)
    page.text(200, row + 75, "V", "Times-Roman", 16)
    page.text(212, row + 80, "n was chosen to obtain a density with variance s", "Times-Roman", 10)
    page.text(420, row + 77, "2 and to avoid", "Times-Roman", 10)
    _prose(page, row + 92)
    cells = _cells(tmp_path, page)
    assert cells is not None
    assert [cell for cell in cells[0] if cell] == list(_HEADER)
    assert [cell for cell in cells[-1] if cell] == list(_ROW)


def test_a_caption_close_over_its_table_keeps_the_table_under_it(tmp_path: Path) -> None:
    page = Canvas(612.0, 792.0)
    _prose(page, 80.0)
    page.text(190, 130, "Table 1: Descriptive statistics of reliability data.", "Times-Roman", 10)
    _table(page, 145.0)
    _prose(page, 190.0)
    cells = _cells(tmp_path, page)
    assert cells is not None
    assert [cell for cell in cells[0] if cell] == list(_HEADER)
