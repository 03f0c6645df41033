"""TeX's bitmap fonts that Ghostscript mapped to dingbats are read by their codes (spatstat's
replicated point patterns vignette, batch 10: the whole paper was refused as unreadable)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.errors import NeedsOcr
from paperpyramid.parsers.embedded.bitmap_fonts import code_glyphs
from paperpyramid.parsers.embedded.glyphs import BY_CODE
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import filled_lines, type3_page

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

    used = sorted({*range(32, 127), *([ligature] if ligature is not None else [])})
    prefix = "a" if names == "code" else "g"
    glyph_names = {code: f"{prefix}{code}" for code in used}
    to_unicode = {code: ord(_dingbat(code)) for code in used}
    return type3_page([codes(line) for line in filled_lines(text)], glyph_names, to_unicode, b"Dingbats")


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
