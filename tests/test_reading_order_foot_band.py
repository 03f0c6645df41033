"""A page's two columns of text, then, after an empty band across both, the reference list's first
entries in smaller type at the feet of both columns (REVTeX's last pages: "[1] E. Witten," at the
foot of the left column, "[2] See the explanation …" at the right one's, the list running on
overleaf). The text above is read in both columns first, then the small print: read column by
column down the page, the left column's entry came between the two columns' text, and the
appendix's second half was taken into the reference list. The PDF is made in the test."""

from __future__ import annotations

import textwrap

import pypdfium2 as pdfium

from paperpyramid.parsers.embedded.layout import extract_page
from paperpyramid.parsers.embedded.reading_order import order_page
from tests.pdf_maker import placed_pdf

LEFT = "The colony was surveyed every spring from the station on the northern shore of the island. " * 6
RIGHT = "Nests were counted from a boat at dawn on four days of each week from March to October. " * 6


def _page() -> bytes:
    items: list[tuple[float, float, float, str]] = []
    for x, text in ((54.0, LEFT), (317.0, RIGHT)):
        y = 700.0
        for line in textwrap.wrap(text, 52):
            items.append((x, y, 9.0, line))
            y -= 11.5
    # a band of 40 points, then the entries at the columns' feet, in 8-point type
    items += [(58.0, 520.0, 8.0, "[1] E. Witten, Nucl. Phys. B 443, 85 (2001),"), (72.0, 509.0, 8.0, "and references therein.")]
    items += [(321.0, 520.0, 8.0, "[2] R. P. Feynman, Phys. Rev. 94, 262 (1954).")]
    return placed_pdf([items])


def test_small_print_at_both_columns_feet_is_read_after_both_columns_text(tmp_path) -> None:
    path = tmp_path / "foot.pdf"
    path.write_bytes(_page())
    pdf = pdfium.PdfDocument(str(path))
    try:
        texts = [line.text for line in order_page(extract_page(pdf[0], 1))]
    finally:
        pdf.close()
    first_entry = texts.index("[1] E. Witten, Nucl. Phys. B 443, 85 (2001),")
    right_text = [index for index, text in enumerate(texts) if text.startswith(("Nests", "at dawn", "October"))]
    assert right_text and max(right_text) < first_entry, texts
    assert texts[first_entry:] == [
        "[1] E. Witten, Nucl. Phys. B 443, 85 (2001),",
        "and references therein.",
        "[2] R. P. Feynman, Phys. Rev. 94, 262 (1954).",
    ]
