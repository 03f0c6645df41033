"""Fonts without a Unicode map, read through OCR (parsers/embedded/glyphs.py, ocr.py).

The shared corpus's F1000 mosquito paper was re-saved by macOS Quartz: seven of its 14 pages
(the first page with title, authors and abstract; the referee reports) are set in subset
fonts whose glyph codes map to nothing, so the text layer reads as mojibake. The end-to-end
tests need ../shared and the ``tesseract`` program (``apt-get install tesseract-ocr``;
.ci/run installs it); they skip, saying why, without them.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from paperpyramid.parsers.coverage import coverage
from paperpyramid.parsers.embedded.glyphs import decide
from paperpyramid.parsers.embedded.institutions import affiliation_like
from paperpyramid.parsers.embedded.ocr import parse_boxes
from paperpyramid.parsers.embedded.parser import _demote_front_matter, parse_pdf
from tests.block_builders import Stack, whole_title

MOSQUITO = "f1000research-2015-mosquito-odorant-binding-garbled-fonts.pdf"
_MOJIBAKE = re.compile(r"[\x00-\x08\x0b-\x1f\u0180-\u02ff»¿]")  # µ, ±, ° are text


def test_votes_decide_each_glyph_and_subsets_share_a_font_s_codes():
    votes = {
        ("AAAAAA+Quartz", 0xB7): Counter({"a": 9, "o": 2}),
        ("AAAAAA+Quartz", 0x15): Counter({"R": 1}),  # one vote of its own: the pooled votes decide
        ("BBBBBB+Quartz", 0x15): Counter({"R": 3, "K": 1}),
        ("AAAAAA+Quartz", 0x03): Counter({" ": 5, "~": 2}),  # nothing drawn there: a space
        ("AAAAAA+Quartz", 0x99): Counter({"x": 2, "y": 2}),  # a tie is no majority
    }
    glyphs = decide(votes)
    assert glyphs[("AAAAAA+Quartz", 0xB7)] == "a"
    assert glyphs[("AAAAAA+Quartz", 0x15)] == "R" and glyphs[("BBBBBB+Quartz", 0x15)] == "R"
    assert glyphs[("AAAAAA+Quartz", 0x03)] == " "
    assert ("AAAAAA+Quartz", 0x99) not in glyphs
    # a subset the OCR'd pages never used reads through the font's pooled choices
    assert glyphs[("Quartz", 0xB7)] == "a" and glyphs[("Quartz", 0x15)] == "R"


def test_tesseract_boxes_become_top_left_points():
    boxes = "R 100 2900 160 3000 0\n  \nbroken line\nx 10 20 30 40 0\n"
    glyphs = parse_boxes(boxes, image_height=3300, scale=300 / 72)
    assert [glyph.text for glyph in glyphs] == ["R", "x"]
    r = glyphs[0]
    assert (round(r.x0, 1), round(r.top, 1), round(r.x1, 1), round(r.bottom, 1)) == (24.0, 72.0, 38.4, 96.0)


_block = Stack(top=100, step=0, x0=50, x1=400, size=10, font="Serif", heading=whole_title).block


def test_an_affiliation_marked_1_is_not_the_first_section():
    opening = "Odorant-binding proteins are essential for insect olfaction."
    blocks = [
        _block("1 Department of Molecular and Cellular Biology, University of California, Davis", "heading", number="1"),
        _block("Abstract", "heading"),
        _block(opening, title=opening),
    ]
    _demote_front_matter(blocks)
    assert [block.kind for block in blocks] == ["paragraph", "heading", "paragraph"]
    assert affiliation_like("Department of Biology, University of Pisa, Italy")
    assert not affiliation_like("Introduction") and not affiliation_like("Results and discussion")


def _mosquito(shared_corpus: Path) -> Path:
    path = shared_corpus / MOSQUITO
    if not path.exists():
        pytest.skip(f"{MOSQUITO} is not in ../shared/corpus")
    return path


@pytest.mark.slow
@pytest.mark.ocr
def test_quartz_fonts_are_read_by_ocr(shared_corpus: Path):
    if shutil.which("tesseract") is None:
        pytest.skip("the tesseract program is missing (apt-get install tesseract-ocr): fonts without a Unicode map stay unread")
    path = _mosquito(shared_corpus)
    document = parse_pdf(path)
    # page 1 is all Quartz fonts: before, no title, no authors, the v1 DOI or none
    assert document.title and document.title.startswith("Binding of a fluorescence reporter and a ligand to an odorant-binding protein")
    assert [author.name for author in document.authors] == ["Gabriel M. Leal", "Walter S. Leal"]
    assert document.doi == "10.12688/f1000research.5879.2"
    assert document.abstract and "essential for insect olfaction" in document.abstract
    assert any("learnt by OCR" in warning for warning in document.warnings)
    texts = [document.abstract or ""] + [block.text for section in document.sections for block in section.blocks]
    assert not [text for text in texts if _MOJIBAKE.search(text)]
    # the referee reports (pages 10-14) are read too
    assert "laudatory comments" in " ".join(texts)
    assert not [section.title for section in document.sections if section.title.startswith("Department of")]
    # measured against the text layer read with the same glyphs: before, 0.49 of the mojibake
    assert (coverage(path, document) or 0) >= 0.97


@pytest.mark.slow
@pytest.mark.ocr
def test_the_table_engine_reads_a_page_with_the_learnt_glyphs_too(shared_corpus: Path):
    if shutil.which("tesseract") is None:
        pytest.skip("the tesseract program is missing (apt-get install tesseract-ocr): fonts without a Unicode map stay unread")
    import pypdfium2 as pdfium

    from paperpyramid.parsers.embedded.table_engine import read_table_page

    path = _mosquito(shared_corpus)
    document = parse_pdf(path)
    pdf = pdfium.PdfDocument(path)
    try:
        unread = " ".join(line.text for line in read_table_page(pdf, 1)[0])
        read = " ".join(line.text for line in read_table_page(pdf, 1, glyphs=document.glyph_map)[0])
    finally:
        pdf.close()
    assert _MOJIBAKE.search(unread) and "fluorescence reporter" not in unread
    assert "fluorescence reporter" in read and not _MOJIBAKE.search(read)


def test_without_tesseract_the_parse_says_what_is_unread(shared_corpus: Path, monkeypatch: pytest.MonkeyPatch):
    path = _mosquito(shared_corpus)
    monkeypatch.setenv("PAPERPYRAMID_INGEST__TESSERACT", "")  # as on a machine without it
    document = parse_pdf(path)
    assert any("install Tesseract" in warning and "(1, 2, 7, 10, 11, 12, 13, 14)" in warning for warning in document.warnings)
    assert document.glyph_map == {}
    assert "spectrofluorophotometer" in " ".join(block.text for section in document.sections for block in section.blocks)
