"""TeX's bitmap fonts whose glyphs dvips named by their codes in base 36 ("AC" for 12, "CR" for 99):
Ghostscript maps only the names the Adobe glyph list knows ("CR" to a carriage return, "AE" to "Æ")
and leaves the rest unmapped, so every "c" and every ligature of the paper was lost (TUGboat's
"The O tavo Pa kage", batch 10)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import page_pdf, stream_object
from paperpyramid.parsers.embedded.bitmap_fonts import code_glyphs
from paperpyramid.parsers.embedded.glyphs import BY_CODE, BY_RAW
from paperpyramid.parsers.embedded.parser import parse_pdf

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
    lines, line = [], ""
    for word in text.split(" "):
        if len(line) + len(word) > 70:
            lines.append(line)
            line = ""
        line = f"{line} {word}".strip()
    lines.append(line)
    content = b"BT /F1 11 Tf 14 TL 72 700 Td " + b" ".join(b"(" + _codes(line) + b") '" for line in lines) + b" ET"
    used = sorted({*range(32, 127), *_LIGATURES.values()})
    name = _name if names == "base36" else (lambda code: f"g{code}")
    differences = b" ".join(b"%d /%s" % (code, name(code).encode()) for code in used)
    procs = b" ".join(b"/%s 7 0 R" % name(code).encode() for code in used)
    to_unicode = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Known def\n"
        b"1 begincodespacerange <00> <FF> endcodespacerange\n"
        + b"%d beginbfchar\n" % len(_KNOWN_NAMES)
        + b"".join(b"<%02X> <%04X>\n" % item for item in _KNOWN_NAMES.items())
        + b"endbfchar\nendcmap CMapName currentdict /CMap defineresource pop end end"
    )
    font = (
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 600 700] /FontMatrix [0.001 0 0 0.001 0 0] "
        b"/CharProcs << " + procs + b" >> /Encoding << /Type /Encoding /Differences [" + differences + b"] >> "
        b"/FirstChar 0 /LastChar 126 /Widths [" + b" ".join(b"500" for _ in range(127)) + b"] /ToUnicode 6 0 R >>"
    )
    glyph = stream_object(b"500 0 0 0 450 650 d1 0 0 450 650 re f")
    return page_pdf(content, b"/Font << /F1 5 0 R >>", font, stream_object(to_unicode), glyph)


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
