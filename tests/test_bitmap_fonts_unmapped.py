"""TeX's bitmap fonts whose glyphs dvips named by their codes in base 36 ("AC" for 12, "CR" for 99):
Ghostscript maps only the names the Adobe glyph list knows ("CR" to a carriage return, "AE" to "Æ")
and leaves the rest unmapped, so every "c" and every ligature of the paper was lost (TUGboat's
"The O tavo Pa kage", batch 10)."""

from __future__ import annotations

from pathlib import Path

from paperpyramid.parsers.embedded.bitmap_fonts import code_glyphs
from paperpyramid.parsers.embedded.glyphs import BY_CODE, BY_RAW
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import filled_lines, type3_page

PARAGRAPH = (
    "The Octavo class is a modification of the standard book class, written to help produce books of classical "
    "design, format and layout. The page sizes made available are the classical octavo sizes, and the margins "
    "are calculated according to late Gothic precepts; each page keeps the printing grid. Its effect is "
    "finer than the standard classes offer, and the difference shows on every page of the book."
)
#: OT1's ligatures, set as one glyph each
_LIGATURES = {"ffi": 14, "ff": 11, "fi": 12}
#: what Ghostscript's glyph list makes of the base-36 names it knows: "AE" (14), "CR" (99)
_KNOWN_NAMES = {14: 0x00C6, 99: 0x000D}


def _name(code: int) -> str:
    return chr(ord("A") + code // 36) + "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[code % 36]


def _codes(line: str) -> bytes:
    out = bytearray()
    index = 0
    while index < len(line):
        ligature = next((text for text in _LIGATURES if line.startswith(text, index)), None)
        out.append(_LIGATURES[ligature] if ligature else ord(line[index]))
        index += len(ligature) if ligature else 1
    return bytes(out).replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _base36_font_pdf(text: str, *, names: str = "base36") -> bytes:
    """One page set in a Type 3 font (no name, as dvips's are) whose glyphs are named by their codes
    in base 36, with a ToUnicode map of the known names only; ``names`` "other" names them ``/g<code>``."""
    used = sorted({*range(32, 127), *_LIGATURES.values()})
    name = _name if names == "base36" else (lambda code: f"g{code}")
    glyph_names = {code: name(code) for code in used}
    return type3_page([_codes(line) for line in filled_lines(text)], glyph_names, _KNOWN_NAMES, b"Known")


def _body(path: Path) -> str:
    return " ".join(block.text for section in parse_pdf(path).sections for block in section.blocks)


def test_the_codes_of_base36_named_fonts_are_read_through_tex_encoding(tmp_path: Path) -> None:
    path = tmp_path / "base36.pdf"
    path.write_bytes(_base36_font_pdf(PARAGRAPH))
    glyphs = code_glyphs(path)
    assert glyphs[(BY_CODE, 0x0D)] == "c"  # mapped, wrongly, by the name "CR"
    assert glyphs[(BY_CODE, 0xC6)] == "ffi"  # "AE"
    assert glyphs[(BY_RAW, 12)] == "fi"  # unmapped: pdfium reads the raw code
    assert (BY_RAW, 13) not in glyphs  # fl is not in the font
    text = _body(path)
    assert "The Octavo class is a modification of the standard book class" in text
    assert "calculated according to late Gothic precepts" in text
    assert "Its effect is finer than the standard classes offer, and the difference" in text


def test_a_type3_font_with_names_of_its_own_is_not_read_by_code(tmp_path: Path) -> None:
    path = tmp_path / "named.pdf"
    path.write_bytes(_base36_font_pdf(PARAGRAPH, names="other"))
    assert code_glyphs(path) == {}
