"""Headings with another face inside them, headings in lower case, and captions whose bold title
wraps (issue 32; the third unseen batch and two captions the citation scorer counted as body).

- a run-in heading with mathematics inside its bold ("**Independent** *K* **-Samples: …**",
  The American Statistician) kept only the words before the math letter; a heading on a line of
  its own with a formula in it ("**Why is it … take** a0 := log 2 **as … cutoff?**", a
  ``\\paragraph`` asked as a question, in a bold face whose boxes measure a point under the
  body's) was read as a paragraph;
- a numbered heading that wraps onto a line holding only a word of code ("4 Lines, and
  Polygon-Polygon overlays require" over "rgeos" in typewriter) lost the word;
- a heading that opens with a small letter (a package's name: "network attributes") set in
  the face and size of the paper's other headings was read as a paragraph;
- a figure caption whose bold title fills its first line ("Figure 1. Structures of a
  fluorescence reporter and a mosquito" over "oviposition pheromone. N-phenyl-…") was cut at
  the change of weight, its text read as body (F1000Research, PLOS ONE).

Each shape is built here (a PDF, or lines as the layout reads them); the real articles of
``../shared`` show them as their publishers print them.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from paperpyramid.parsers.embedded.block_breaks import split_blocks
from paperpyramid.parsers.embedded.blocks import Block, classify, heading_parts
from paperpyramid.parsers.embedded.headings import filter_headings
from paperpyramid.parsers.embedded.layout import Line, extract_page
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import styled_pdf
from tests.test_run_in_headings import FILLER, _Writer

SHARED = Path(__file__).resolve().parents[2] / "shared"
needs_shared = pytest.mark.skipif(not (SHARED / "corpus").is_dir(), reason="../shared is not here (real articles, not distributed)")


def _line(
    text: str,
    top: float,
    *,
    x0: float = 72.0,
    size: float = 10.0,
    bold: bool = False,
    italic: bool = False,
    font: str = "Body",
    bold_prefix: int = 0,
    italic_prefix: int = 0,
) -> Line:
    """A line as the layout reads it: 72 pt from the left, 10 pt type in "Body" unless told."""
    return Line(
        text=text,
        page=1,
        x0=x0,
        top=top,
        x1=x0 + 4.5 * len(text),
        bottom=top + size,
        size=size,
        bold=bold,
        italic=italic,
        font=font,
        bold_prefix=bold_prefix,
        italic_prefix=italic_prefix,
    )


# --------------------------------------------------------------------------- a formula inside the bold


def _math_paper() -> bytes:
    w = _Writer()
    w.line([("bold", "Conditional inference in a study of stream frogs")], size=16, gap=24)
    w.line([("regular", "Ama Okafor, Erik Lindqvist")], gap=20)
    w.heading("1 Introduction")
    w.paragraph("Frogs of the genus Limnonectes lay their eggs in streams. " + FILLER * 2)
    w.heading("2 Playing Lego")
    lead = [("bold", "Independent "), ("italic", "K"), ("bold", "-Samples: Genetic Components of Clutches. ")]
    w.paragraph("Various studies have linked clutch size to the water level. " + FILLER, lead=lead)
    w.paragraph("The traps were emptied every morning. " + FILLER, lead=[("bold", "Methods. "), ("italic", "x"), ("bold", " is")])
    return styled_pdf(w.pages)


@pytest.fixture(scope="module")
def math_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("inset") / "math.pdf"
    path.write_bytes(_math_paper())
    return path


def test_a_math_letter_inside_a_bold_heading_does_not_end_its_bold(math_pdf: Path) -> None:
    pdf = pdfium.PdfDocument(math_pdf)
    try:
        lines = extract_page(pdf[0], 1).lines
    finally:
        pdf.close()
    line = next(line for line in lines if line.text.startswith("Independent"))
    assert line.text[: line.bold_prefix].rstrip() == "Independent K-Samples: Genetic Components of Clutches."
    # a lead-in closed by its full stop ends there, whatever bold follows the formula after it
    closed = next(line for line in lines if line.text.startswith("Methods."))
    assert closed.text[: closed.bold_prefix].rstrip() == "Methods."


def test_a_run_in_heading_with_a_math_letter_is_one_section(math_pdf: Path) -> None:
    titles = [section.title for section in parse_pdf(math_pdf).sections]
    assert "Independent K-Samples: Genetic Components of Clutches" in titles, titles


def test_a_bold_question_on_its_own_line_is_a_heading() -> None:
    # Latin Modern's bold boxes measure 9.8 pt where its regular ones measure 10.9 at one size
    text = "Why is it very plausible to take a0 := log 2 as approximately optimal cutoff?"
    block = Block([_line(text, 100, size=9.8, bold=True, font="LMRoman10-Bold", bold_prefix=len(text))])
    assert heading_parts(block, 10.9, "LMRoman10-Regular") == (None, text)
    # a bold sentence ended by a full stop stays a paragraph
    sentence = "It is very plausible to take a0 := log 2 as the approximately optimal cutoff."
    assert heading_parts(Block([_line(sentence, 100, size=9.8, bold=True, bold_prefix=len(sentence))]), 10.9) is None


# --------------------------------------------------------------------------- a word of code ends the heading


def test_a_numbered_heading_wrapping_onto_a_word_of_code_keeps_it() -> None:
    heading = _line("4 Lines, and Polygon-Polygon overlays require", 432.6, x0=133.8, size=12.9, bold=True, font="SFBX1440", bold_prefix=45)
    code = _line("rgeos", 454.2, x0=157.4, size=9.6, font="SFTT1440")
    body = [_line("Package sp provides many of the over methods, but not all. Package rgeos", 474.9 + 12 * i, x0=133.8) for i in range(3)]
    blocks = split_blocks([heading, code, *body], 10.0)
    assert [len(block.lines) for block in blocks] == [2, 3]
    classify(blocks[0], 10.0, "Body")
    assert (blocks[0].kind, blocks[0].number, blocks[0].title) == ("heading", "4", "Lines, and Polygon-Polygon overlays require rgeos")


def test_a_code_listing_under_a_heading_is_not_its_title() -> None:
    heading = _line("4 Lines and overlays", 432.6, x0=133.8, size=12.9, bold=True, font="SFBX1440", bold_prefix=20)
    listing = _line("R> over(pol, pol)", 456.0, x0=133.8, size=9.6, font="SFTT1000")
    assert [len(block.lines) for block in split_blocks([heading, listing], 10.0)] == [1, 1]


# --------------------------------------------------------------------------- a heading in lower case


def _heading(text: str, top: float) -> Block:
    block = Block([_line(text, top, size=10.7, italic=True, font="LMRoman12-Italic", italic_prefix=len(text))])
    block.kind, block.title = "heading", text
    return block


def _paragraph(text: str, top: float, size: float = 10.0, font: str = "Body") -> Block:
    return Block([_line(text, top, size=size, font=font)])


def test_a_heading_in_lower_case_in_the_headings_face_is_a_section() -> None:
    prose = "As we have already seen, each network object contains a range of metadata in addition"
    blocks = [
        _heading("Edge structure", 100),
        _paragraph(prose, 120),
        _paragraph("network attributes", 160, size=10.7, font="LMRoman12-Italic"),
        _paragraph(prose, 180),
        _heading("Vertex attributes", 220),
        _paragraph(prose, 240),
        # in the body's face: a line of text, not a heading
        _paragraph("and edges are always stored by label", 280),
        _paragraph(prose, 300, font="Other"),
    ]
    filter_headings(blocks, 10.0)
    assert [block.kind for block in blocks] == [
        "heading",
        "paragraph",
        "heading",
        "paragraph",
        "heading",
        "paragraph",
        "paragraph",
        "paragraph",
    ]
    assert blocks[2].title == "network attributes"


def test_a_lone_heading_face_makes_no_lower_case_heading() -> None:
    prose = "As we have already seen, each network object contains a range of metadata in addition"
    blocks = [
        _heading("Edge structure", 100),
        _paragraph(prose, 120),
        _paragraph("network attributes", 160, size=10.7, font="LMRoman12-Italic"),
        _paragraph(prose, 180),
    ]
    filter_headings(blocks, 10.0)
    assert blocks[2].kind == "paragraph"


def test_no_lower_case_heading_in_the_bodys_face() -> None:
    # lines of a listing or a table's cells read as headings in the body's face ("8 pt", "7 pt")
    prose = "As we have already seen, each network object contains a range of metadata in addition"
    blocks = []
    for top, label in ((100, "8 Point Type"), (200, "7 Point Type")):
        heading = _paragraph(label, top)
        heading.kind, heading.title = "heading", label
        blocks += [heading, _paragraph(prose, top + 20, font="Other"), _paragraph(prose, top + 40)]
    blocks += [_paragraph("9 point type", 300), _paragraph(prose, 320, font="Other"), _paragraph(prose, 340)]
    filter_headings(blocks, 10.0)
    assert blocks[-3].kind == "paragraph"


# --------------------------------------------------------------------------- a caption's bold title wraps


def test_a_caption_whose_bold_title_wraps_is_one_caption() -> None:
    first = "Figure 1. Structures of a fluorescence reporter and a mosquito"
    lines = [
        _line(first, 337.2, size=9.5, bold=True, font="Helvetica-Bold", bold_prefix=len(first)),
        _line("oviposition pheromone. N-phenyl-1-naphthylamine (NPN) is widely", 346.6, size=9.8, font="Helvetica-Light", bold_prefix=23),
        _line("used in binding assays with insect OBPs (5 R,6 S)-6-acetoxy-5-", 356.1, size=9.8, font="Helvetica-Light"),
    ]
    blocks = split_blocks(lines, 9.8)
    assert len(blocks) == 1
    classify(blocks[0], 9.8)
    assert blocks[0].kind == "caption"
    # the bold title ends inside a sentence, and no bold goes on ("Fig 1. … Steps 1 to 4 (painted in" over "grey) were …")
    plos = "Fig 1. Five basic steps are needed for an iterative process. Steps 1 to 4 (painted in"
    lines = [_line(plos, 677.0, size=9.2, bold=True, bold_prefix=len(plos)), _line("grey) were addressed in this study.", 687.2, size=9.1)]
    assert len(split_blocks(lines, 11.3)) == 1


def test_a_table_caption_ending_its_sentence_keeps_apart_from_the_rows_under_it() -> None:
    caption = "Table 1. Characteristics of the streams."
    lines = [_line(caption, 100, bold=True, bold_prefix=len(caption)), _line("Stream length in metres", 111)]
    assert len(split_blocks(lines, 10.0)) == 2


@needs_shared
def test_real_captions_whose_bold_title_wraps() -> None:
    for folder, name, text in (
        ("corpus", "f1000research-2015-mosquito-odorant-binding-garbled-fonts.pdf", "hexadecanolide (MOP) is an attractant"),
        ("pmc-pairs", "plosone-2025-translocation-disease-risk.pdf", "Each step presents guiding questions"),
    ):
        document = parse_pdf(SHARED / folder / name)
        holders = [block.kind for section in document.sections for block in section.blocks if text in block.text]
        assert holders == ["caption"], (name, holders)
