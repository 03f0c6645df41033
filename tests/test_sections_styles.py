"""Section headings as LaTeX classes nobody tuned for set them (the unseen set's publishers).

A PDF made here prints each shape once:

- a "References" heading set as a subsection, over a paragraph on how to cite, with a section after
  it: a section of the body (a journal's guide), not the reference list, and the subsections
  under it stay sections (JACoW, REVTeX);
- REVTeX's fourth level: a small letter before an italic title run into its paragraph with no full
  stop ("a. Syntax The argument …"), or a bold one on its own line in small type;
- a numbered run-in heading numbered as an appendix's ("A.1. Split. The …"), or quoted ('9.2.
  "Poor man's bold". If …'); one whose bold stops before the full stop ("**4.1 Figures** Care …");
- a numbered heading opening with a name in lower case ("3.1. strucchange: Empirical …"), or set
  larger than the body with its bold stopping at a name in another face;
- an appendix after the reference list ("APPENDIX B. NOTATION");
- what stays text: a bold sentence of emphasis, an unlettered italic opening.

Then, without a PDF: TeX's unmapped ligatures, a math italic symbol that is no heading, an
appendix's "Notation"; and under an outline: a section it leaves out in the style of those it
names, a numbered heading a level below its last, an appendix heading in small print.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded.blocks import Block, heading_parts
from paperpyramid.parsers.embedded.layout import normalize_text
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.block_builders import Stack
from tests.pdf_maker import styled_pdf
from tests.test_outline_headings import BODY, _build
from tests.test_run_in_headings import FILLER, _Writer


def _paper() -> bytes:
    w = _Writer()
    w.line([("bold", "Sectioning in a guide for the authors of stream frog papers")], size=16, gap=24)
    w.line([("regular", "Ama Okafor, Erik Lindqvist")], gap=20)
    w.heading("1 Introduction")
    w.paragraph("Frogs of the genus Limnonectes lay their eggs in streams. " + FILLER * 2)
    w.heading("2 Citing the literature")
    w.paragraph("Every paper cites the work it builds on, in the way set out below. " + FILLER)
    w.y -= 6
    w.line([("italic", "References")], size=11, gap=16)
    w.paragraph("All references should be numbered and listed at the end of the paper in a section of their own. " + FILLER)
    w.y -= 6
    w.line([("italic", "Footnotes")], size=11, gap=16)
    w.paragraph("Footnotes on the title and author lines may be used for the acknowledgements of grants. " + FILLER)
    w.paragraph("The argument of the command is a single key or a list of keys. " + FILLER, lead=[("italic", "a. Syntax ")])
    w.paragraph("The frogs were named in the field by the colour of the throat. " + FILLER, lead=[("italic", "Limnonectes kuhlii ")])
    w.heading("3 Styles")
    w.paragraph("The styles of the headings are set by the class file of the journal. " + FILLER)
    w.line([("bold", "3.1. strucchange: Empirical fluctuation processes")], size=12, gap=18)
    w.paragraph("The package tests for structural change in the counts of clutches. " + FILLER)
    w.line([("bold", "3.4. The classes "), ("regular", '"yearmon" and "yearqtr": Roll your own index')], size=12, gap=18)
    w.paragraph("One of the strengths of the package is its independence of the index class. " + FILLER)
    w.paragraph(
        "should be taken to keep the figures within the typing area. " + FILLER, lead=[("bold", "3.2 Figures "), ("regular", "Care ")]
    )
    w.paragraph(
        "If a bold version of a symbol does not exist, it can be overprinted. " + FILLER, lead=[("regular", '3.3. "Poor man\'s bold". ')]
    )
    w.line([("bold", "The final version of the abstract must be sent by the last day of August for inclusion in the")])
    w.paragraph("Late papers are not printed in the proceedings. " + FILLER, lead=[("bold", "proceedings. ")])
    w.heading("4 Conclusion")
    w.paragraph("Sections are set by the class and need no care from the authors. " + FILLER)
    w.heading("Appendix")
    w.paragraph("The split environment is used inside another display environment. " + FILLER, lead=[("regular", "A.1. Split. ")])
    w.y -= 6
    w.line([("bold", "a. A subsubsection in an appendix")], size=8, gap=14)
    w.paragraph("Note the numbering of the equations in this appendix of the guide. " + FILLER)
    w.heading("References")
    w.line([("regular", "1. Smith J, Jones K. Clutch guarding in frogs. J Herpetol. 2019;53:1-10.")])
    w.line([("regular", "2. Brown A. Streams in the dry season. Freshw Biol. 2020;65:22-31.")])
    w.heading("APPENDIX B. NOTATION")
    w.paragraph("The following symbols are used in this paper for the counts of clutches. " + FILLER)
    return styled_pdf(w.pages)


@pytest.fixture(scope="module")
def parsed(tmp_path_factory: pytest.TempPathFactory) -> Document:
    path = tmp_path_factory.mktemp("styles") / "styles.pdf"
    path.write_bytes(_paper())
    return parse_pdf(path)


def _titles(document: Document) -> list[tuple[str | None, str]]:
    return [(section.number, section.title) for section in document.sections]


def test_a_references_subsection_on_citing_is_a_section_of_the_body(parsed: Document) -> None:
    titles = _titles(parsed)
    assert (None, "References") in titles and (None, "Footnotes") in titles, titles
    # the reference list is the one at the end, whole
    lists = [section for section in parsed.sections if section.number == "ref"]
    assert len(lists) == 1 and lists[0].page_start == parsed.sections[-1].page_start
    assert [reference.raw[:5] for reference in parsed.references] == ["Smith", "Brown"]


def test_a_lettered_lead_in_without_its_full_stop_is_a_section(parsed: Document) -> None:
    titles = _titles(parsed)
    assert ("a", "Syntax") in titles, titles
    syntax = next(section for section in parsed.sections if section.title == "Syntax")
    assert syntax.blocks[0].text.startswith("The argument of the command")
    assert not [title for _, title in titles if title.startswith("Limnonectes")]  # an italic name, not a heading


def test_a_lettered_heading_in_small_bold_type_is_a_section(parsed: Document) -> None:
    assert ("a", "A subsubsection in an appendix") in _titles(parsed)


def test_numbered_run_in_headings_of_appendices_and_in_quotes(parsed: Document) -> None:
    titles = _titles(parsed)
    assert ("A.1", "Split") in titles, titles
    assert ("3.3", '"Poor man\'s bold"') in titles, titles


def test_a_numbered_run_in_heading_ends_with_its_bold(parsed: Document) -> None:
    assert ("3.2", "Figures") in _titles(parsed)


def test_a_numbered_heading_may_open_with_a_name_in_lower_case(parsed: Document) -> None:
    assert ("3.1", "strucchange: Empirical fluctuation processes") in _titles(parsed)


def test_a_heading_set_larger_than_the_body_is_all_heading_where_its_bold_stops(parsed: Document) -> None:
    """The bold stops at a name in another face; the colon after it does not end a run-in lead-in."""
    assert ("3.4", 'The classes "yearmon" and "yearqtr": Roll your own index') in _titles(parsed)


def test_an_appendix_after_the_references_is_a_section(parsed: Document) -> None:
    """ "APPENDIX B. NOTATION" after the list: the label numbers the title, which names no statement."""
    appendix = next(section for section in parsed.sections if section.title == "NOTATION")
    assert appendix.number == "B" and appendix.blocks[0].text.startswith("The following symbols")


def test_a_bold_sentence_stays_text(parsed: Document) -> None:
    assert not [title for _, title in _titles(parsed) if title.startswith("The final version")]
    body = " ".join(block.text for section in parsed.sections for block in section.blocks)
    assert "the last day of August for inclusion in the proceedings" in body


def test_a_reference_list_headed_in_a_subsections_style_stays_the_list(tmp_path: Path) -> None:
    """F1000 sets "References" in the style of its subsections, over entries with their years, with
    "Acknowledgements" after the list: that is the reference list, not a section on citing."""
    w = _Writer()
    w.line([("bold", "Longevity of a stream frog")], size=16, gap=24)
    for heading, sub in (("1 Introduction", "Study sites"), ("2 Results", "Clutch sizes")):
        w.heading(heading)
        w.paragraph("Frogs of the genus Limnonectes lay their eggs in streams. " + FILLER)
        w.y -= 6
        w.line([("italic", sub)], size=11, gap=16)
        w.paragraph("The clutches were counted in the dry season of one year. " + FILLER)
    w.y -= 6
    w.line([("italic", "References")], size=11, gap=16)
    w.line(
        [("regular", "Bishop SD, Francis MP, Duffy C, et al.: Age, growth and longevity of the frogs. J Herpetol. 2006; 57(2): 143-54.")]
    )
    w.line([("regular", "Brown A: Streams in the dry season. Freshw Biol. 2020; 65: 22-31.")])
    w.heading("Acknowledgements")
    w.paragraph("We thank the rangers of the park for their help in the field. ")
    path = tmp_path / "f1000.pdf"
    path.write_bytes(styled_pdf(w.pages))
    document = parse_pdf(path)
    assert [section.title for section in document.sections if section.number == "ref"] == ["References"]
    assert document.references and document.references[0].raw.startswith("Bishop")


def test_a_numbered_references_section_before_the_next_section_is_on_citing(tmp_path: Path) -> None:
    """ "2. References" over a paragraph on the cite command, then "3. Figures": a section of a guide
    (Progress of Theoretical Physics' manual); the list is the "References" at the end."""
    w = _Writer()
    w.line([("bold", "Instructions for the authors of stream frog papers")], size=16, gap=24)
    for heading, text in (
        ("1. Introduction", "Frogs of the genus Limnonectes lay their eggs in streams. "),
        ("2. References", "References are cited with the cite command, all of them in one series at the same point. "),
        ("3. Figures", "Figures are set at the top of the page with their captions below them. "),
    ):
        w.heading(heading)
        w.paragraph(text + FILLER)
    w.heading("References")
    w.line([("regular", "1. Smith J, Jones K. Clutch guarding in frogs. J Herpetol. 2019;53:1-10.")])
    path = tmp_path / "guide.pdf"
    path.write_bytes(styled_pdf(w.pages))
    document = parse_pdf(path)
    assert ("2", "References") in _titles(document) and ("3", "Figures") in _titles(document), _titles(document)
    assert [section.number for section in document.sections].count("ref") == 1 and document.sections[-1].number == "ref"
    # a list of one entry labelled "1." is numbered like a longer one: the label is its key
    assert [(reference.key, reference.raw[:8]) for reference in document.references] == [("1", "Smith J,")]


# --------------------------------------------------------------------------- without a PDF


def test_tex_ligatures_without_a_unicode_map_are_read() -> None:
    """T1 fonts hand over ff, fi, fl, ffi, ffl as 0x1B-0x1F: Python counts 0x1C-0x1F as spaces, so
    "Signi\\x1ccance" became "Signi cance" and a word-initial "\\x1ductuation" lost its "fl"."""
    assert (
        normalize_text("Signi\x1ccance of \x1ductuation, coe\x1ecients, the \x1ct, o\x1b")
        == "Significance of fluctuation, coefficients, the fit, off"
    )
    assert normalize_text("x \x1c 1") == "x \x1c 1"  # no letter beside it: left to the text cleaner


def _alone(text: str, font: str, *, italic: bool = False, size: float = 10.0) -> Block:
    """One line alone at (100, 100), five points wide a letter."""
    return Stack(top=100, x0=100).block(text, font=font, italic=italic, size=size, x1=100 + 5 * len(text))


def test_a_symbol_in_math_italics_is_no_heading() -> None:
    """A display's "Due" (D sub u, e above it) in TeX's math italic, or a variable of two letters in
    the text's italic, is no italic heading; a heading in TeX's roman face, which the formula test
    counts for a display's digits, still is."""
    assert heading_parts(_alone("Due", "CMMI10", italic=True), 10.0, "CMR10") is None
    assert heading_parts(_alone("Dots", "CMTI10", italic=True), 10.0, "CMR10") == (None, "Dots")
    # a variable of a display in the text's italic face ("Ct" over "In the equation, Ct means …")
    assert heading_parts(_alone("Ct", "MinionPro-It", italic=True), 10.0, "MinionPro-Regular") is None
    assert heading_parts(_alone("References", "CMR10", size=12.0), 10.0, "CMR9") == (None, "References")


def test_an_appendix_label_numbers_a_title_that_names_a_statement() -> None:
    block = _alone("APPENDIX I. NOTATION", "CMSSBX10", size=12.0)
    block.lines[0].bold = True
    assert heading_parts(block, 12.0, "CMR12") == ("I", "NOTATION")
    assert heading_parts(_alone("Notation", "CMSSBX10", size=12.0), 10.0, "CMR12") is None  # a statement's label


def _outlined(tmp_path: Path, printed: list[tuple[str, int]], toc: list[tuple[int, str, int | None]]) -> Document:
    """The document of one page printing each heading at its size over body text, under the outline ``toc``."""
    return _build(tmp_path, [line for heading in printed for line in [heading, *BODY]], toc)


def test_a_section_the_outline_leaves_out_in_its_sections_style(tmp_path: Path) -> None:
    """ "Computational details", set with ``\\section*``, in the style of the sections the outline
    names, is one of them; "Affiliation:" over the authors' addresses is not."""
    printed = ["1 Introduction", "2 Methods", "3 Results", "Computational details", "Affiliation:"]
    document = _outlined(tmp_path, [(heading, 12) for heading in printed], [(1, title, 1) for title in printed[:3]])
    titles = [section.title for section in document.sections]
    assert "Computational details" in titles and not [title for title in titles if title.startswith("Affiliation")], titles


def test_a_numbered_heading_one_level_below_the_outline(tmp_path: Path) -> None:
    """An outline that stops at the second level: "2.1.1 Streams of …" under its "2.1 Sites" is a section."""
    printed = ["1 Introduction", "2 Methods", "2.1 Sites", "2.1.1 Streams of the northern shore", "3 Results"]
    toc: list[tuple[int, str, int | None]] = [(1, "1 Introduction", 1), (1, "2 Methods", 1), (2, "2.1 Sites", 1), (1, "3 Results", 1)]
    document = _outlined(tmp_path, [(heading, 12) for heading in printed], toc)
    found = [(section.number, section.title, section.level) for section in document.sections if section.number == "2.1.1"]
    assert found == [("2.1.1", "Streams of the northern shore", 3)]


def test_an_appendix_heading_in_small_print_that_the_outline_names(tmp_path: Path) -> None:
    """ "APPENDIX A. THE VECTOR PRODUCT" in type smaller than the body, set aside as small print, is
    the appendix the outline names "A The Vector Product"."""
    printed = [("1 Introduction", 12), ("2 Methods", 12), ("3 Results", 12), ("APPENDIX A. THE VECTOR PRODUCT", 7)]
    toc: list[tuple[int, str, int | None]] = [
        *((1, heading, 1) for heading, _ in printed[:3]),
        (1, "APPENDICES", 1),
        (2, "A The Vector Product", 1),
        (2, "B Multilingual Support", 1),
    ]
    document = _outlined(tmp_path, printed, toc)
    assert ("A", "The Vector Product") in [(section.number, section.title) for section in document.sections]
