"""A manual's questions as LaTeX's ``\\paragraph`` titles: a run-in title ending in a question mark.

A manual's list of questions ("How do I …?") sets each as a ``\\paragraph`` run-in title, an em of
space before its answer: "**Use qtree with pdflatex?**  Earlier versions of qtree …" (qtree's
documentation). The question mark ends the title as a word does (:mod:`tests.test_run_in_spaced`);
a question in bold a word space from the paragraph's text stays text."""

from __future__ import annotations

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import FILLER, StyledPage

EM = "     "  # five spaces of Helvetica, as in tests.test_run_in_spaced


def _paper() -> bytes:
    page = StyledPage()
    page.line([("bold", "Counting clutches with a gauge")], size=16, gap=24)
    page.line([("regular", "Ama Okafor, Erik Lindqvist")], gap=28)
    page.line([("bold", "1 Introduction")], size=12, gap=18)
    page.paragraph("Frogs of the genus Limnonectes lay their eggs in streams. " + FILLER * 2)
    page.line([("bold", "2 How do I")], size=12, gap=18)
    page.paragraph("Earlier versions of the gauge did not float. " + FILLER, lead=[("bold", "Read a flooded gauge?" + EM)])
    page.paragraph("Because the water was too high. " + FILLER, lead=[("bold", "Why was it flooded?" + " ")])
    page.line([("bold", "3 Results")], size=12, gap=18)
    page.paragraph("Females guarded the clutches at night. " + FILLER * 2)
    return page.pdf()


@pytest.fixture(scope="module")
def parsed(tmp_path_factory: pytest.TempPathFactory) -> Document:
    path = tmp_path_factory.mktemp("run-in-questions") / "questions.pdf"
    path.write_bytes(_paper())
    return parse_pdf(path)


def test_a_question_an_em_from_its_answer_is_a_section(parsed: Document) -> None:
    titles = [section.title for section in parsed.sections]
    assert "Read a flooded gauge?" in titles
    section = next(section for section in parsed.sections if section.title == "Read a flooded gauge?")
    assert section.blocks[0].text.startswith("Earlier versions")


def test_a_question_a_word_space_from_its_text_stays_text(parsed: Document) -> None:
    assert "Why was it flooded?" not in [section.title for section in parsed.sections]
