"""Narrow word gaps are word spaces: Hindawi's PDFs place each word 0.16 em after the last with no
space character, and pdfium writes none ("recipients.The", "and theWOMAC"). A gap that narrow is a
word's only between words of text on a line whose letters abut: mathematics' thin spaces, a
tracked line's gaps and a typewriter face's gaps stay as they are."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from paperpyramid.parsers.embedded.layout import extract_page
from tests.pdf_maker import page_pdf

#: every glyph's advance, in thousandths of an em: a full em, wider than any glyph's box, so each
#: word's end is known and the letters' boxes abut
_ADVANCE = 1000


def _placed_words_pdf(lines: list[list[str]], gap: float = 0.16, tracking: float = 0.0, font: str = "Helvetica") -> bytes:
    """One page of lines at 10 pt, each word placed ``gap`` em after the last one's end (its own
    ``Td``, no space character), letters ``tracking`` em apart."""
    ops = []
    for n, words in enumerate(lines):
        ops.append(f"BT /F1 10 Tf {10 * tracking:g} Tc 72 {700 - 14 * n} Td")
        for index, word in enumerate(words):
            if index:
                before = words[index - 1]
                ops.append(f"{len(before) * _ADVANCE / 100 + 10 * (tracking * len(before) + gap):.3f} 0 Td")
            escaped = word.replace("(", "\\(").replace(")", "\\)")
            ops.append(f"({escaped}) Tj")
        ops.append("ET")
    return page_pdf("\n".join(ops).encode(), b"/Font << /F1 5 0 R >>", _font(font))


def _font(name: str) -> bytes:
    """A standard font, each character :data:`_ADVANCE` wide."""
    widths = " ".join([str(_ADVANCE)] * 95)
    return f"<< /Type /Font /Subtype /Type1 /BaseFont /{name} /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 126 /Widths [{widths}] >>".encode()


def _read(tmp_path: Path, data: bytes) -> tuple[str, list[str]]:
    """pdfium's text of the page (the spaces it writes, by each character's width) and the lines read."""
    path = tmp_path / "gaps.pdf"
    path.write_bytes(data)
    page = pdfium.PdfDocument(path)[0]
    return page.get_textpage().get_text_range(), [line.text for line in extract_page(page, 1).lines]


def test_narrow_gaps_between_words_are_word_spaces(tmp_path: Path) -> None:
    lines = ["Survival was shorter in HSCT recipients. The rate fell.", "with the WOMAC score to evaluate (d) The knee"]
    drawn, read = _read(tmp_path, _placed_words_pdf([line.split() for line in lines]))
    assert "recipients.The" in drawn and "theWOMAC" in drawn  # pdfium writes no space
    assert read == lines


def test_gaps_before_signs_and_digits_stay_as_drawn(tmp_path: Path) -> None:
    # mathematics' thin spaces come before signs, brackets and digits: "f(A) :R", "x+ 2", "LaTeX 2e"
    lines = ["then the map f(A) :R", "where the sum x+ 2", "with the logo LaTeX 2e"]
    drawn, read = _read(tmp_path, _placed_words_pdf([line.split() for line in lines]))
    assert "f(A):R" in drawn and "x+2" in drawn and "LaTeX2e" in drawn
    assert read == ["then the map f(A):R", "where the sum x+2", "with the logo LaTeX2e"]


def test_a_single_letter_stands_for_no_word(tmp_path: Path) -> None:
    # an algorithm's "Write(’Pascal’)" tracked 0.16 em: the letter after a single one is no word's
    drawn, read = _read(tmp_path, _placed_words_pdf([["Write", "P", "a", "s", "c", "a", "l"]]))
    assert "WritePascal" in drawn
    assert read == ["Write Pascal"]


def test_a_tracked_line_keeps_its_words_whole(tmp_path: Path) -> None:
    # a logo's letters 0.05 em apart, a pair kerned open to 0.15 em: its letters do not abut, so
    # the wider gap is not taken for a word's
    letters = " -50 ".join(f"({letter})" for letter in "Reports").replace("(o) -50", "(o) -150")
    data = page_pdf(f"BT /F1 10 Tf 72 700 Td [{letters}] TJ ET".encode(), b"/Font << /F1 5 0 R >>", _font("Helvetica"))
    assert _read(tmp_path, data) == ("Reports", ["Reports"])


def test_a_typewriter_face_keeps_its_words_whole(tmp_path: Path) -> None:
    # a typewriter face's narrow letters stand apart within a word where its boxes are loose
    drawn, read = _read(tmp_path, _placed_words_pdf([["Write", "Pascal", "now", "Pascal", "now"]], font="Courier"))
    assert "Pascalnow" in drawn and read == [drawn]
