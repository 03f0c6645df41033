"""Run-in titles without a full stop, told by the white space after them.

LaTeX's ``\\paragraph`` (article's and ACL's fourth level, JSS's too) sets its title in bold at the
start of the paragraph and an em of space after it, with no full stop: "**Selecting PDFs**  We
remove PDFs …" (S2ORC, ACL 2020; SciFact's appendix, EMNLP 2020). Bold typed by hand at a
paragraph's start is followed by a word space, a third of that: "**Claim negation** Unless …",
"**Abstract-level evaluation** is inspired by …" (SciFact's body, ``{\\bf …}``), which stays text,
as does a statement's head with its number and name ("**Axiom 7 (A Sample Axiom)**", PMLR's sample)
and a name in a loose justified line ("*Rcpp*   is a CRAN package", pinp's Rcpp vignette).
The PDF made here sets the em as five spaces after the styled run: the parser measures the gap
between drawn characters, which a space's glyph does not fill."""

from __future__ import annotations

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import FILLER, StyledPage

EM = "     "  # five spaces of Helvetica: 1.39 em, 1.2 of the line's box (TeX's em is 1.1 of its fonts' boxes)
WORD_SPACE = " "


def _paper() -> bytes:
    page = StyledPage()
    page.line([("bold", "Clutch guarding in a stream frog")], size=16, gap=24)
    page.line([("regular", "Ama Okafor, Erik Lindqvist")], gap=28)
    page.line([("bold", "1 Introduction")], size=12, gap=18)
    page.paragraph("Frogs of the genus Limnonectes lay their eggs in streams. " + FILLER * 2)
    page.line([("bold", "2 Methods")], size=12, gap=18)
    page.paragraph("We remove the transects that dried out. " + FILLER, lead=[("bold", "Selecting transects" + EM)])
    page.paragraph("Named ponds were mapped by hand. " + FILLER, lead=[("italic", "Pond maps" + EM)])
    page.paragraph("Unless the gauge was flooded, it was read twice. " + FILLER, lead=[("bold", "Gauge readings" + WORD_SPACE)])
    page.paragraph("is inspired by the counts of earlier surveys. " + FILLER, lead=[("bold", "Clutch-level counting" + WORD_SPACE)])
    page.paragraph("We froze the water samples at the site. " + FILLER, lead=[("bold", "Water samples of" + EM)])
    page.paragraph("Every clutch is guarded. " + FILLER, lead=[("bold", "Axiom 7 (A Sample Axiom)" + EM)])
    page.paragraph("is a package for counting clutches. " + FILLER, lead=[("italic", "Clutchcount" + EM)])
    page.paragraph("were counted twice a week. " + FILLER, lead=[("bold", "Guarded clutches" + EM)])
    page.line([("bold", "3 Results")], size=12, gap=18)
    page.paragraph("Females guarded the clutches at night. " + FILLER * 2)
    page.line([("bold", "References")], size=12, gap=18)
    page.line([("regular", "1. Smith J, Jones K. Clutch guarding in frogs. J Herpetol. 2019;53:1-10.")])
    return page.pdf()


@pytest.fixture(scope="module")
def parsed(tmp_path_factory: pytest.TempPathFactory) -> Document:
    path = tmp_path_factory.mktemp("run-in-spaced") / "spaced.pdf"
    path.write_bytes(_paper())
    return parse_pdf(path)


def _titles(document: Document) -> list[str]:
    return [section.title for section in document.sections]


def test_a_bold_lead_in_an_em_from_its_text_is_a_section(parsed: Document) -> None:
    titles = _titles(parsed)
    assert "Pond maps" in titles  # an italic \\paragraph (PracTeX's class)
    assert "Selecting transects" in titles
    section = next(section for section in parsed.sections if section.title == "Selecting transects")
    assert section.blocks[0].text.startswith("We remove the transects")


def test_a_bold_lead_in_a_word_space_from_its_text_stays_text(parsed: Document) -> None:
    titles = _titles(parsed)
    assert not {"Gauge readings", "Clutch-level counting"} & set(titles)
    text = " ".join(block.text for section in parsed.sections for block in section.blocks)
    assert "Gauge readings Unless the gauge" in text
    assert "Clutch-level counting is inspired" in text


def test_a_lead_in_cut_short_stays_text(parsed: Document) -> None:
    assert "Water samples of" not in _titles(parsed)


def test_a_loose_line_after_a_name_in_italics_or_bold_stays_text(parsed: Document) -> None:
    """A justified line stretches its spaces: "*Rcpp*   is a CRAN package" (pinp's Rcpp vignette).
    A title is followed by a sentence's capital."""
    assert not {"Clutchcount", "Guarded clutches"} & set(_titles(parsed))


def test_a_statement_head_an_em_from_its_text_stays_text(parsed: Document) -> None:
    """jmlr and amsthm set about an em after "Axiom 7 (A Sample Axiom)" too (PMLR's sample)."""
    assert not any(title.startswith("Axiom") for title in _titles(parsed))
