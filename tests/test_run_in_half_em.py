"""Run-in titles set half an em from their text, in a line whose word spaces are narrower.

TUGboat's class (ltugboat) sets its ``\\subsection`` in bold at the start of the paragraph with
half an em of fixed glue after it and no full stop: "**Objects and classes**  The 3d package
understands …" (Roegel, "Creating 3D animations with METAPOST", TUGboat 18(4)). Half an em is
within the reach of a loose line's stretched word spaces, so the gap is read against the spaces
between the words after it, which a justified line stretches alike: a bold name in a loose line
("**Gaugecount**  Unless  the  gauge …", every space as wide) stays text. The PDF made here sets
the half em as three spaces of Helvetica (a word space is one), short of the em
that :mod:`tests.test_run_in_spaced` reads."""

from __future__ import annotations

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import FILLER, StyledPage

HALF_EM = "   "  # 0.83 em of Helvetica: more than half an em, less than the em (0.95) of \\paragraph


def _paper() -> bytes:
    page = StyledPage()
    page.line([("bold", "Clutch guarding in a stream frog")], size=16, gap=24)
    page.line([("regular", "Ama Okafor, Erik Lindqvist")], gap=28)
    page.line([("bold", "Introduction")], size=12, gap=18)
    page.paragraph("Frogs of the genus Limnonectes lay their eggs in streams. " + FILLER * 2, width=84)
    page.line([("bold", "Methods")], size=12, gap=18)
    page.paragraph("We remove the transects that dried out. " + FILLER, lead=[("bold", "Selecting transects" + HALF_EM)], width=84)
    page.paragraph(
        "Unless the gauge was flooded, it was read twice. " + FILLER, lead=[("bold", "Gaugecount" + HALF_EM)], width=84, space=HALF_EM
    )
    page.paragraph("Named ponds were mapped by hand. " + FILLER, lead=[("italic", "Pond maps" + HALF_EM)], width=84)
    page.paragraph("Every clutch is guarded at night. " + FILLER, lead=[("bold", "Fact ii" + HALF_EM)], width=84)
    page.paragraph(
        "Alternatively the counts are read from a table. " + FILLER, lead=[("bold", "Custom counts" + HALF_EM)], width=84, hang=25
    )
    page.line([("bold", "Results")], size=12, gap=18)
    page.paragraph("Females guarded the clutches at night. " + FILLER * 2, width=84)
    return page.pdf()


@pytest.fixture(scope="module")
def parsed(tmp_path_factory: pytest.TempPathFactory) -> Document:
    path = tmp_path_factory.mktemp("run-in-half-em") / "half_em.pdf"
    path.write_bytes(_paper())
    return parse_pdf(path)


def _titles(document: Document) -> list[str]:
    return [section.title for section in document.sections]


def test_a_bold_lead_in_half_an_em_from_tighter_words_is_a_section(parsed: Document) -> None:
    assert "Selecting transects" in _titles(parsed)
    section = next(section for section in parsed.sections if section.title == "Selecting transects")
    assert section.blocks[0].text.startswith("We remove the transects")


def test_a_bold_name_in_a_loose_line_stays_text(parsed: Document) -> None:
    assert "Gaugecount" not in _titles(parsed)


def test_a_statements_head_stays_text(parsed: Document) -> None:
    """LaTeX's ``\\newtheorem`` sets "**Fact ii**" before the same half em (TUGboat's lazylist draft)."""
    assert "Fact ii" not in _titles(parsed)


def test_a_description_lists_label_stays_text(parsed: Document) -> None:
    """``\\item[Custom BLAST output]`` sets its bold label half an em (``\\labelsep``) from its
    text, the item's other lines indented under it (metaMix's user guide)."""
    assert "Custom counts" not in _titles(parsed)


def test_an_italic_lead_in_half_an_em_away_stays_text(parsed: Document) -> None:
    """Only TUGboat's bold title is read by its half em; an italic name is as often a species or a
    package ("*Escherichia coli*  Strains")."""
    assert "Pond maps" not in _titles(parsed)
