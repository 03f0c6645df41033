"""Letterspaced words are read as words: pdfium writes a space between every letter of
"A R T I C L E  I N F O" (Elsevier's first page, batch 2), "r e a l l y  w i d e" (qtree, batch
10), "R e f e r e n c e s  s o r t e d" (batch 11); single letters a word space apart stay apart."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from paperpyramid.parsers.embedded.layout import extract_page
from tests.pdf_maker import helvetica_page


def _spaced_pdf(lines: list[tuple[float, str]]) -> bytes:
    """One page of Helvetica lines at 10 pt, each with its letters drawn that many points apart
    (a ``TJ`` array's shifts, as letterspacing packages set them)."""
    ops = []
    for n, (spacing, text) in enumerate(lines):
        shift = f" {-100 * spacing:g} " if spacing else ""
        drawn = shift.join(f"({ch})" for ch in text) if spacing else f"({text})"
        ops.append(f"BT /F1 10 Tf 72 {720 - 14 * n} Td [{drawn}] TJ ET")
    return helvetica_page(ops)


def test_letterspaced_words_are_read_as_words(tmp_path: Path) -> None:
    path = tmp_path / "spaced.pdf"
    lines = [
        (0, "The first page of the article opens with two boxes side by side:"),
        (2, "ARTICLE INFO"),
        (2.4, "The trees come out really wide"),
    ]
    path.write_bytes(_spaced_pdf(lines))
    read = [line.text for line in extract_page(pdfium.PdfDocument(path)[0], 1).lines]
    assert "A R T I C L E" in pdfium.PdfDocument(path)[0].get_textpage().get_text_range()  # pdfium's spaces
    assert "ARTICLE INFO" in read
    assert "The trees come out really wide" in read


def test_single_letters_a_word_space_apart_stay_apart(tmp_path: Path) -> None:
    path = tmp_path / "letters.pdf"
    path.write_bytes(_spaced_pdf([(0, "the letters a b c d e f g h and the pairs x y z w")]))
    read = [line.text for line in extract_page(pdfium.PdfDocument(path)[0], 1).lines]
    assert read == ["the letters a b c d e f g h and the pairs x y z w"]
