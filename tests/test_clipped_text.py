"""Text a clipping path hides is not read: publishers' PDFs (MDPI's) carry hidden copies of a
table or a whole draft page in clipped-out forms, and the text layer lists them all."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from benchmarks.synthetic.canvas import pdf_of_objects
from paperpyramid.eval.table_scores import TableGrid, exact_cell_recall, load_gold_tables
from paperpyramid.parsers.coverage import text_layer_words
from paperpyramid.parsers.embedded.layout import extract_page
from paperpyramid.parsers.embedded.table_engine import extract_table
from tests.test_table_groups import _caption  # a real paper's caption box, found as that test finds it


def _form(clip: str, text: str, y: int) -> bytes:
    """A form XObject drawing ``text`` at ``y`` inside the clipping rectangle ``clip`` ("x y w h")."""
    stream = f"q {clip} re W n BT /F1 12 Tf 72 {y} Td ({text}) Tj ET Q".encode()
    return (
        b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources << /Font << /F1 6 0 R >> >> /Length %d >>\nstream\n" % len(stream)
        + stream
        + b"\nendstream"
    )


def _pdf_with_forms() -> bytes:
    page = b"BT /F1 12 Tf 72 700 Td (Seen on the page) Tj ET /Shown Do /Hidden Do"
    return pdf_of_objects([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 6 0 R >> /XObject << /Shown 5 0 R /Hidden 7 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(page) + page + b"\nendstream",
        _form("60 480 400 40", "Seen inside a form", 490),  # the clip holds its text
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
        _form("0 0 100 100", "Hidden draft words", 400),  # the clip is far from its text
    ])  # fmt: skip


def test_text_a_clipping_path_hides_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "forms.pdf"
    path.write_bytes(_pdf_with_forms())
    pdf = pdfium.PdfDocument(path)
    try:
        assert "Hidden draft words" in pdf[0].get_textpage().get_text_range()  # pdfium's text layer lists it
        lines = [line.text for line in extract_page(pdf[0], 1).lines]
    finally:
        pdf.close()
    assert lines == ["Seen on the page", "Seen inside a form"]
    # coverage measures against the text as seen, so the hidden words are not counted missing
    assert "draft" not in text_layer_words(path) and "form" in text_layer_words(path)


def test_a_real_table_drawn_three_times_is_read_once(pmc_pairs: Path) -> None:
    # MDPI, development part: Table 4's values are on the text layer three times, twice in
    # clipped-out forms ("−649 −649 −649" in one cell before)
    stem = "materials-2019-cathodic-protection-pipeline"
    page, caption = _caption(pmc_pairs / f"{stem}.pdf", "Table 4.")
    rows = extract_table(pmc_pairs / f"{stem}.pdf", page, caption)
    assert rows is not None
    found = TableGrid("Table 4", "", tuple(tuple(row) for row in rows))
    gold = next(table for table in load_gold_tables(pmc_pairs / f"{stem}.nxml") if table.label == "Table 4")
    assert ("−649", "0.493", "258.3", "78.2", "14.45") in found.rows
    assert exact_cell_recall(gold, found) >= 0.6  # 0.0 before: every value three times in one cell


def test_hidden_draft_pages_are_not_read(pmc_pairs: Path) -> None:
    # the same paper hides an earlier draft of most pages ("Materials 2019, 12, x FOR PEER REVIEW")
    pdf = pdfium.PdfDocument(pmc_pairs / "materials-2019-cathodic-protection-pipeline.pdf")
    try:
        text = "\n".join(line.text for index in range(len(pdf)) for line in extract_page(pdf[index], index + 1).lines)
    finally:
        pdf.close()
    assert "FOR PEER REVIEW" not in text
    assert "Cathodic Protection" in text
