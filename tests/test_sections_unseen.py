"""Section headings as classes and publishers nobody tuned for set them.

- A running head that names the section ("2 METHODS" over one page, "REFERENCES" over the next),
  set in the same place on every page but below the margin's band: it is furniture, not text, and
  not a heading that opens the reference list early (a PDF made here; elsarticle's preprint
  layout in ``../shared/corpus``).
- Under a PDF outline: a starred section the outline leaves out ("Acknowledgments"), an appendix
  the outline names without its "Appendix A." and a title the outline spells in plain letters
  ("lambda" for "λ") stay sections, with the printed title.
- Small capitals that the font reports at the lower-case letters' reduced size, the line as tall
  as the body's (amsart's "1. Preliminary facts"), are no small print.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded.blocks import Block, heading_parts, join_appendix_labels
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import placed_pdf

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not here (real arXiv articles, not distributed)")

SENTENCES = [
    "Frogs of the genus Limnonectes lay their eggs in streams that dry out during the hot season.",
    "We counted the clutches along four transects every week from March to October of one year.",
    "The number of clutches rose with the rainfall of the week before and fell in the dry months.",
    "Tadpoles hatched after nine days on average and left the water after seven weeks of growth.",
]
#: each page's running head: the section it is in, at 92 pt from the top (below the margin's band)
HEADS = {2: "1 INTRODUCTION", 3: "2 METHODS", 4: "3 RESULTS", 5: "REFERENCES", 6: "OKAFOR AND LINDQVIST"}
SECTIONS = {1: "1 Introduction", 3: "2 Methods", 4: "3 Results"}


def _page(number: int) -> list[tuple[float, float, float, str]]:
    items: list[tuple[float, float, float, str]] = []
    y = 660.0
    if number in HEADS:
        items += [(72, 700, 8, HEADS[number]), (300, 40, 8, str(number))]
    else:
        items += [(72, 700, 16, "Clutch guarding in a stream frog"), (72, 676, 10, "Ama Okafor and Erik Lindqvist")]
        y = 620.0
    if number in SECTIONS:
        items.append((72, y, 12, SECTIONS[number]))
        y -= 22
    body = 5 if number == 5 else 30
    for sentence in (SENTENCES * 8)[:body]:
        items.append((72, y, 10, sentence))
        y -= 13
    if number == 5:
        items.append((72, y - 10, 12, "Acknowledgments"))
        items.append((72, y - 32, 10, "We thank the wardens of the reserve for their help in the field."))
        items.append((72, y - 62, 12, "References"))
        y -= 84
        for entry in range(1, 16):
            items.append(
                (
                    72,
                    y,
                    10,
                    f"{entry}. Okafor A, Lindqvist E. Clutch counts in stream frogs, part {entry}. J Herpetol. 20{entry:02d};{entry}:1-9.",
                )
            )
            y -= 13
    if number == 6:
        for entry in range(16, 21):
            items.append((72, y, 10, f"{entry}. Lindqvist E. Tadpole growth in drying streams, part {entry}. Copeia. 2019;{entry}:10-19."))
            y -= 13
    return items


@pytest.fixture(scope="module")
def placed_heads(tmp_path_factory: pytest.TempPathFactory) -> Document:
    path = tmp_path_factory.mktemp("heads") / "heads.pdf"
    path.write_bytes(placed_pdf([_page(number) for number in range(1, 7)]))
    return parse_pdf(path)


def _texts(document: Document) -> list[str]:
    return [block.text for section in document.sections for block in section.blocks]


def test_a_running_head_that_names_the_section_is_no_text(placed_heads: Document) -> None:
    texts = "\n".join(_texts(placed_heads))
    assert "Tadpoles hatched after nine days" in texts
    assert not [head for head in ("INTRODUCTION", "METHODS", "RESULTS", "REFERENCES", "LINDQVIST") if head in texts]
    titles = [section.title for section in placed_heads.sections if section.title]
    assert titles == ["Introduction", "Methods", "Results", "Acknowledgments", "References"]


def test_a_running_head_reading_references_does_not_open_the_list(placed_heads: Document) -> None:
    titles = [section.title for section in placed_heads.sections if section.title]
    assert titles[-3:] == ["Results", "Acknowledgments", "References"]
    assert len(placed_heads.references) == 20
    (acknowledgments,) = [section for section in placed_heads.sections if section.title == "Acknowledgments"]
    assert [block.text for block in acknowledgments.blocks] == ["We thank the wardens of the reserve for their help in the field."]


@pytest.fixture(scope="module")
def elsarticle() -> Document:
    return parse_pdf(CORPUS / "arxiv-1803.07574-elsarticle-water-residence-time-compiled.pdf")


@needs_corpus
def test_real_section_named_heads_and_outline_leftovers(elsarticle: Document) -> None:
    titles = [(section.number, section.title) for section in elsarticle.sections if section.title]
    assert ("6.1", "General Discussion and λ Choice Strategies") in titles
    assert ("5.2", "Comparison to the Cross-Correlation Method") in titles
    after_conclusion = [title for _number, title in titles[titles.index(("8", "Conclusion")) + 1 :]]
    assert after_conclusion[:3] == ["Acknowledgments", "Mean Residence Time", "References"]
    assert not [text for text in _texts(elsarticle) if "SYNTHETIC DATA" in text or "DISCUSSION ON RELATED WORK" in text]


@needs_corpus
def test_real_small_capitals_headings() -> None:
    document = parse_pdf(CORPUS / "arxiv-1707.08043-amsart-commutative-algebra-compiled.pdf")
    titles = [(section.number, section.title) for section in document.sections if section.title]
    assert ("1", "Preliminary facts") in titles and ("2", "Main Result") in titles


# ----------------------------------------------------------------------------- faces


def _faces_pdf(lines: list[tuple[float, float, list[tuple[str, str]]]], body: str = "LMRoman10-Regular") -> bytes:
    """One page of (y from the bottom, size, runs), each run (face, text): ``body`` a roman face
    whose descriptor gives a bold weight, as Latin Modern's do (pdfium reads 744 for
    "LMRoman10-Regular"); ``bold`` Helvetica-Bold; ``code`` and ``code_slanted`` Courier."""
    from benchmarks.synthetic.canvas import pdf_of_objects

    faces = {"body": 5, "bold": 6, "code": 7, "code_slanted": 8}
    fonts = " ".join(f"/{face} {number} 0 R" for face, number in faces.items())
    ops = []
    for y, size, runs in lines:
        shown = " ".join(f"/{face} {size:g} Tf ({text.replace('(', chr(92) + '(').replace(')', chr(92) + ')')}) Tj" for face, text in runs)
        ops.append(f"BT 72 {y:g} Td {shown} ET")
    stream = "\n".join(ops).encode("cp1252")
    widths = b" ".join([b"500"] * 95)
    return pdf_of_objects(
        [
            b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << {fonts} >> >> /Contents 4 0 R >>".encode(),
            b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
            f"<< /Type /Font /Subtype /Type1 /BaseFont /{body} /FirstChar 32 /LastChar 126 /Widths [".encode()
            + widths
            + b"] /FontDescriptor 9 0 R /Encoding /WinAnsiEncoding >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>",
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier-Oblique /Encoding /WinAnsiEncoding >>",
            f"<< /Type /FontDescriptor /FontName /{body} /Flags 32 /FontBBox [0 -250 1000 750] /ItalicAngle 0"
            " /Ascent 750 /Descent -250 /CapHeight 700 /StemV 180 /FontWeight 744 >>".encode(),
        ]
    )


PROSE = [
    "Time series with an index of any ordered class are stored in one object with its index kept",
    "beside the data, so that merging, aligning and plotting them needs no conversion at all here.",
    "Regular series keep their frequency as well, and most methods of the base classes still work.",
]


@pytest.fixture(scope="module", params=["LMRoman10-Regular", "CMR10"])
def faces(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Document:
    lines: list[tuple[float, float, list[tuple[str, str]]]] = [
        (740, 18, [("bold", "Ordered series of any index class")]),
        (716, 11, [("body", "Ada Zeileis and Gus Grothendieck")]),
        (680, 14, [("bold", "1. Introduction")]),
    ]
    y = 656.0
    for sentence in PROSE * 3:
        lines.append((y, 11, [("body", sentence)]))
        y -= 14
    y -= 10
    lines.append((y, 12, [("bold", "2.1. Creation of "), ("code", '"zoo"'), ("bold", " objects")]))
    y -= 22
    for sentence in PROSE * 2:
        lines.append((y, 11, [("body", sentence)]))
        y -= 14
    y -= 8
    lines.append((y, 11, [("body", "The following calls yield equivalent series")]))
    y -= 22
    for sentence in PROSE:
        lines.append((y, 11, [("body", sentence)]))
        y -= 14
    y -= 8
    for code in ("R> z1 <- zoo(rnorm(5), as.Date(1:5))", "R> summary(z1)"):
        lines.append((y, 10, [("code", code)]))
        y -= 12
    y -= 10
    lines.append((y, 10, [("code_slanted", "R> plot(z1)")]))
    y -= 22
    for sentence in PROSE * 2:
        lines.append((y, 11, [("body", sentence)]))
        y -= 14
    y -= 10
    lines.append((y, 12, [("bold", "Appendix A: Reference card")]))
    y -= 22
    for sentence in PROSE:
        lines.append((y, 11, [("body", sentence)]))
        y -= 14
    path = tmp_path_factory.mktemp("faces") / "faces.pdf"
    path.write_bytes(_faces_pdf(lines, request.param))
    return parse_pdf(path)


def test_a_regular_face_read_as_heavy_is_not_bold(faces: Document) -> None:
    """pdfium's weight says bold; the face's name says regular: a short line of the body is no heading."""
    titles = [section.title for section in faces.sections if section.title]
    assert "The following calls yield equivalent series" not in titles
    assert any("The following calls yield equivalent series" in text for text in _texts(faces))


def test_code_is_no_heading_and_code_in_a_heading_keeps_it_one(faces: Document) -> None:
    headings = [(section.number, section.title) for section in faces.sections if section.title]
    assert headings == [("1", "Introduction"), ("2.1", 'Creation of "zoo" objects'), ("A", "Reference card")]
    assert any("R> plot(z1)" in text for text in _texts(faces))


@needs_corpus
def test_real_heading_a_table_claimed_and_set_in_sentence_case_at_the_body_size() -> None:
    """A bold heading right under a table's notes, claimed by the table and not held by its cells:
    a section of the rank of the one it is in, not the end of the notes' paragraph."""
    document = parse_pdf(CORPUS / "chin-med-j-2017-small-fiber-neuropathy.pdf")
    sections = [(section.level, section.title) for section in document.sections if section.title]
    assert (2, "Nerve conduction study and skin biopsy analysis") in sections
    assert not [text for text in _texts(document) if text.endswith("Nerve conduction study and skin biopsy analysis")]


# ----------------------------------------------------------------------------- numbering


def _heading(text: str, *, bold: bool = True, size: float = 10.0) -> tuple[str | None, str] | None:
    line = Line(text=text, page=2, x0=72, top=100, x1=300, bottom=100 + size, size=size, bold=bold, italic=False, font="Times-Bold")
    line.bold_prefix = len(text) if bold else 0
    return heading_parts(Block([line]), 10.0, "Times-Roman")


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("§1. Introduction", ("1", "Introduction")),
        ("I.A. Second-level heading: Formatting", ("I.A", "Second-level heading: Formatting")),
        ("II.A.1. Wide equations", ("II.A.1", "Wide equations")),
        ("II.1. Preprint, reprint, and twocolumn options", ("II.1", "Preprint, reprint, and twocolumn options")),
        ("V.7.1. Margin Notes", ("V.7.1", "Margin Notes")),
        ("Appendix A: Appendixes", ("A", "Appendixes")),
        ("APPENDIX B. A LITTLE MORE ON APPENDIXES", ("B", "A LITTLE MORE ON APPENDIXES")),
        ("A subsection", (None, "A subsection")),
    ],
)
def test_numbering_as_classes_print_it(text: str, parts: tuple[str | None, str]) -> None:
    assert _heading(text) == parts


def test_an_appendix_label_over_its_title_is_one_heading() -> None:
    blocks = []
    for top, text in ((100, "Appendix A"), (116, "How to Make an Appendix"), (140, PROSE[0])):
        block = Block([Line(text=text, page=5, x0=72, top=top, x1=400, bottom=top + 10, size=10, bold=top < 130, italic=False, font="F")])
        block.kind = "heading" if top < 130 else "paragraph"
        block.title = text
        blocks.append(block)
    join_appendix_labels(blocks)
    assert [(block.kind, block.number, block.title) for block in blocks[:2]] == [
        ("heading", "A", "How to Make an Appendix"),
        ("furniture", None, "How to Make an Appendix"),
    ]


def test_line_numbers_in_a_wide_margin_are_no_text(tmp_path: Path) -> None:
    """A review copy numbers its lines in the margin left of the text, 100 pt in: none of the
    numbers is read into the line beside it ("39 9.3. Dots. …")."""
    items: list[tuple[float, float, float, str]] = [(130, 740, 16, "Clutch guarding in a stream frog")]
    y = 700.0
    for number, sentence in enumerate((SENTENCES * 6)[:20], start=31):
        items += [(100, y, 7, str(number)), (130, y, 10, sentence)]
        y -= 14
    path = tmp_path / "numbered.pdf"
    path.write_bytes(placed_pdf([items, items]))
    texts = _texts(parse_pdf(path))
    assert texts and not [text for text in texts if re.search(r"\b(3[1-9]|4\d|50)\b", text)]
