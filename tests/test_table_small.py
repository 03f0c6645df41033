"""A table too small to learn its word space from (StarTeX's "A small table sample", TUGboat
proceedings, batch 11): a header of two words over two rows of numbers holds one gap between
words, and with no space known the header was not cut, so that it spanned the table's only
river and the table read as one column. Drawn here after it (Computer Modern's sizes in Times)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded.table_engine import extract_table
from tests.test_table_groups import _caption


def test_a_header_of_two_words_over_two_rows_of_numbers_is_two_cells(tmp_path: Path) -> None:
    page = Canvas(612.0, 792.0)
    page.text(360.5, 91, "Table 2: A small table sample", "Times-Roman", 10)
    page.text(393.8, 106, "Index", "Times-Bold", 10)
    page.text(434.2, 106, "Data", "Times-Bold", 10)
    for baseline, (index, data, x) in zip((118.5, 130.8), (("12", "199", 438.8), ("17", "0", 443.9)), strict=True):
        page.text(403.1, baseline, index, "Times-Roman", 10)
        page.text(x, baseline, data, "Times-Roman", 10)
    for offset, line in enumerate(
        ("A table is a complex structure, with entries in rows and", "columns that the author marks up with tags of their own.")
    ):
        page.text(334, 170 + 12 * offset, line, "Times-Roman", 10)
    pdf = tmp_path / "small.pdf"
    pdf.write_bytes(write_pdf([page], "a small table"))
    assert extract_table(pdf, *_caption(pdf, "Table 2:")) == [["Index", "Data"], ["12", "199"], ["17", "0"]]
