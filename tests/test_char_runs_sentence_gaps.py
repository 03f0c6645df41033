"""A narrow gap after a full stop, before a capital, parts two sentences on a line whose letters
do not all abut: Minion's "r" and "y" of "group" kerned 0.03 em open (0.04 here) turned the narrow word gap
off for the rest of a Hindawi line, and "group.The" stayed one word. The face's bold names of
TeX's EC fonts ("SFBX1000") are bold."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from paperpyramid.parsers.embedded.char_runs import _font
from paperpyramid.parsers.embedded.layout import extract_page
from tests.pdf_maker import page_pdf

#: every glyph's advance, in thousandths of an em: wider than any glyph's box, so the boxes abut
_ADVANCE = 1000


def _line_pdf(words: list[list[tuple[str, int]]], gap: float = 0.16) -> bytes:
    """One line at 10 pt, each word a list of (text, kerning after it in thousandths of an em
    opened) pieces, placed ``gap`` em after the last word's end (its own ``Td``, no space)."""
    ops = ["BT /F1 10 Tf 72 700 Td"]
    for index, word in enumerate(words):
        if index:
            before = words[index - 1]
            width = sum(len(text) * _ADVANCE + kern for text, kern in before) / 100
            ops.append(f"{width + 10 * gap:.3f} 0 Td")
        ops.append("[" + " ".join(f"({text}) {-kern}" for text, kern in word) + "] TJ")
    ops.append("ET")
    widths = " ".join([str(_ADVANCE)] * 95)
    font = (
        f"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 126 /Widths [{widths}] >>"
    )
    return page_pdf("\n".join(ops).encode(), b"/Font << /F1 5 0 R >>", font.encode())


def _read(tmp_path: Path, data: bytes) -> tuple[str, list[str]]:
    path = tmp_path / "sentences.pdf"
    path.write_bytes(data)
    page = pdfium.PdfDocument(path)[0]
    return page.get_textpage().get_text_range(), [line.text for line in extract_page(page, 1).lines]


def _words(text: str, kerned: str = "", kern: int = 0) -> list[list[tuple[str, int]]]:
    """The words of ``text``; the ``kerned`` one opened by ``kern`` after its second letter."""
    return [[(word[:2], kern), (word[2:], 0)] if word == kerned else [(word, 0)] for word in text.split()]


def test_a_sentence_after_a_pair_kerned_open_gets_its_space(tmp_path: Path) -> None:
    line = "cases recurred in the billiary group. The"
    drawn, read = _read(tmp_path, _line_pdf(_words(line, "group.", 40)))
    assert "group.The" in drawn  # pdfium writes no space
    assert read == [line]


def test_a_kerned_pair_still_turns_other_narrow_gaps_off(tmp_path: Path) -> None:
    # the letters do not all abut: a narrow gap not after a sentence's stop stays as drawn
    drawn, read = _read(tmp_path, _line_pdf(_words("cases recurred in the billiary group, Then", "group,", 40)))
    assert read == ["cases recurred in the billiary group,Then"]


def test_tex_ec_fonts_bold_faces_are_bold() -> None:
    for name in (b"SFBX1000", b"ABCDEF+SFBX1095", b"SFSX1000", b"ECBX1200", b"SFBI0900", b"SFRB1000", b"SFXC1000"):
        assert _font(name, 0)[1], name
    for name in (b"SFRM1000", b"SFTT0900", b"SFSS1000", b"SFSL1000", b"SFTI1000", b"SFCC1000", b"ECRM1000"):
        assert not _font(name, 0)[1], name
