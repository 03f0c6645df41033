"""TeX's bitmap fonts that Ghostscript mapped to dingbats are read by their codes (spatstat's
replicated point patterns vignette, batch 10: the whole paper was refused as unreadable)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import page_pdf, stream_object
from paperpyramid.errors import NeedsOcr
from paperpyramid.parsers.embedded.bitmap_fonts import code_glyphs
from paperpyramid.parsers.embedded.glyphs import BY_CODE
from paperpyramid.parsers.embedded.parser import parse_pdf

PARAGRAPH = (
    "Analysing replicated point patterns is the subject of this short note, which describes fitting models "
    "to several patterns at once. The main components needed are a model fitting function, an extension of "
    "the usual function that fits point process models to multiple datasets, and tools for exploratory data "
    "analysis of such experiments, with support for storing the data in a structure like a data frame."
)


def _dingbat(code: int) -> str:
    """Where Ghostscript's glyph list sends ``/a<code>``: a dingbat for most codes, as on the real page;
    the names it does not know keep their letter ("s", "t", "r" read right in "❆❜str❛❝t")."""
    return chr(code) if chr(code) in "rst " else chr(0x2700 + code % 0xBF)


def _bitmap_font_pdf(text: str, *, names: str = "code", ligature: int | None = None) -> bytes:
    """One page set in a Type 3 font whose glyphs are named ``/a<code>`` and mapped to dingbats;
    ``ligature`` draws "fi" as that one code (T1's 28, OT1's 12). ``names`` "other" names
    the glyphs ``/g<code>`` instead (a font dvips did not make)."""
    words = text.split(" ")
    lines, line = [], ""
    for word in words:
        if len(line) + len(word) > 70:
            lines.append(line)
            line = ""
        line = f"{line} {word}".strip()
    lines.append(line)

    def codes(line: str) -> bytes:
        out = bytearray()
        index = 0
        while index < len(line):
            if ligature is not None and line.startswith("fi", index):
                out.append(ligature)
                index += 2
            else:
                out.append(ord(line[index]))
                index += 1
        return bytes(out).replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")

    content = b"BT /F1 11 Tf 14 TL 72 700 Td " + b" ".join(b"(" + codes(line) + b") '" for line in lines) + b" ET"
    used = sorted({*range(32, 127), *([ligature] if ligature is not None else [])})
    prefix = "a" if names == "code" else "g"
    differences = b" ".join(b"%d /%s%d" % (code, prefix.encode(), code) for code in used)
    procs = b" ".join(b"/%s%d 7 0 R" % (prefix.encode(), code) for code in used)
    to_unicode = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Dingbats def\n"
        b"1 begincodespacerange <00> <FF> endcodespacerange\n"
        + b"%d beginbfchar\n" % len(used)
        + b"".join(b"<%02X> <%04X>\n" % (code, ord(_dingbat(code))) for code in used)
        + b"endbfchar\nendcmap CMapName currentdict /CMap defineresource pop end end"
    )
    font = (
        b"<< /Type /Font /Subtype /Type3 /FontBBox [0 0 600 700] /FontMatrix [0.001 0 0 0.001 0 0] "
        b"/CharProcs << " + procs + b" >> /Encoding << /Type /Encoding /Differences [" + differences + b"] >> "
        b"/FirstChar 0 /LastChar 126 /Widths [" + b" ".join(b"500" for _ in range(127)) + b"] /ToUnicode 6 0 R >>"
    )
    glyph = stream_object(b"500 0 0 0 450 650 d1 0 0 450 650 re f")
    return page_pdf(content, b"/Font << /F1 5 0 R >>", font, stream_object(to_unicode), glyph)


def test_a_paper_in_bitmap_fonts_mapped_to_dingbats_is_read_by_its_codes(tmp_path: Path) -> None:
    path = tmp_path / "bitmap.pdf"
    path.write_bytes(_bitmap_font_pdf(PARAGRAPH))
    document = parse_pdf(path)
    text = " ".join(block.text for section in document.sections for block in section.blocks)
    assert "Analysing replicated point patterns" in text
    assert "exploratory data analysis" in text
    assert not any(0x2700 <= ord(ch) <= 0x27BF for ch in text)
    assert any("read by their codes" in warning for warning in document.warnings)


@pytest.mark.parametrize(("code", "encoding"), [(28, "T1"), (12, "OT1")])
def test_a_ligature_is_read_in_the_encoding_the_fonts_use(tmp_path: Path, code: int, encoding: str) -> None:
    """T1 sets "fi" at 28, OT1 at 12; a font using one of them and not the other says which."""
    path = tmp_path / f"{encoding}.pdf"
    path.write_bytes(_bitmap_font_pdf(PARAGRAPH, ligature=code))
    assert code_glyphs(path)[(BY_CODE, ord(_dingbat(code)))] == "fi"
    text = " ".join(block.text for section in parse_pdf(path).sections for block in section.blocks)
    assert "fitting models" in text


def test_a_font_with_glyph_names_of_its_own_keeps_them_and_is_refused_as_unreadable(tmp_path: Path) -> None:
    """Only dvips's naming (``/a<code>``) says that the code is the character: other fonts mapped to
    dingbats are not guessed at, and the text layer is refused with its reason."""
    path = tmp_path / "named.pdf"
    path.write_bytes(_bitmap_font_pdf(PARAGRAPH, names="other"))
    assert code_glyphs(path) == {}
    with pytest.raises(NeedsOcr, match="unreadable"):
        parse_pdf(path)
