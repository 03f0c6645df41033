"""Section titles set at the start of their paragraph, and back matter that holds no body.

A PDF made here sets its lower headings the ways real journals do: numbered in the body's font
("2.1. Study Sites. We …", Hindawi), a bold lead-in ("Data sources and searches. The …", Nature's
journals), an italic one ("Shake-flask cultivation. The …"), a bold title begun on the line above
its lead-in; and what must stay text: a structured abstract's "Background:", a sentence that
opens with an italic species name, a proof's "Proof.", a figure's "Decision:" and "Supports: . . .",
"Conceptualization:" under "Author contributions", and the
Methods printed after the acknowledgements under a heading set like the body."""

from __future__ import annotations

import textwrap

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import styled_pdf

Runs = list[tuple[str, str]]
FILLER = (
    "The clutches were counted along four transects every week, and the water level was read at "
    "each visit from a staff gauge fixed to the bank of the stream before the survey began. "
)


class _Writer:
    """Lines placed top-down on pages of US Letter, a new page when one is full."""

    def __init__(self) -> None:
        self.pages: list[list[tuple[float, float, float, Runs]]] = [[]]
        self.y = 740.0

    def line(self, runs: Runs, size: float = 10, gap: float = 13) -> None:
        if self.y < 60:
            self.pages.append([])
            self.y = 740.0
        self.pages[-1].append((72, self.y, size, runs))
        self.y -= gap

    def heading(self, text: str, size: float = 12) -> None:
        self.y -= 8
        self.line([("bold", text)], size=size, gap=18)

    def paragraph(self, text: str, lead: Runs | None = None) -> None:
        """A paragraph whose first line starts with ``lead`` (styled runs), wrapped at 88 characters."""
        lead = lead or []
        lead_length = sum(len(part) for _, part in lead)
        first, *rest = textwrap.wrap(text, 88 - lead_length) or [""]
        remainder = " ".join(rest)
        self.line([*lead, ("regular", first)])
        for wrapped in textwrap.wrap(remainder, 88):
            self.line([("regular", wrapped)])
        self.y -= 6


def _paper() -> bytes:
    w = _Writer()
    w.line([("bold", "Run-in headings in a study of stream frogs")], size=16, gap=24)
    w.line([("regular", "Ama Okafor, Erik Lindqvist")], gap=20)
    w.heading("Abstract")
    w.paragraph("Stream frogs guard their clutches. " + FILLER, lead=[("bold", "Background: ")])
    w.heading("1 Introduction")
    w.paragraph("Frogs of the genus Limnonectes lay their eggs in streams. " + FILLER * 2)
    w.heading("2 Methods")
    w.paragraph("We surveyed four streams in the dry season of one year. " + FILLER, lead=[("regular", "2.1. Study Sites. ")])
    w.paragraph("We searched the field notes of two earlier surveys. " + FILLER, lead=[("bold", "Data sources and searches. ")])
    w.paragraph("The seed culture was grown for two days. " + FILLER, lead=[("italic", "Shake-flask cultivation. ")])
    w.line([("bold", "Screening of the water samples for nitrate and phosphate by colorimetric syn-")])
    w.paragraph("The samples were read at two wavelengths. " + FILLER, lead=[("bold", "thesis of dyes. ")])
    w.paragraph("strains were grown overnight at 37 degrees. " + FILLER, lead=[("italic", "Escherichia coli ")])
    w.paragraph("The count rises with the rain of the week before. " + FILLER, lead=[("italic", "Proof. ")])
    w.paragraph("the clutch was guarded by a female frog at night. " + FILLER, lead=[("bold", "Supports: . . . ")])
    w.paragraph("Clutches are left alone when the water warms. " + FILLER, lead=[("bold", "Decision: ")])
    w.heading("3 Results")
    w.paragraph("Females guarded the clutches at night. " + FILLER * 2)
    w.heading("Acknowledgements")
    w.paragraph("We thank the rangers of the park for their help in the field and the owners of the land. ")
    for _ in range(10):  # the Methods of a Nature paper after a heading the parser cannot tell from text
        w.paragraph("Water samples were filtered and frozen before the analysis in the laboratory. " + FILLER * 2)
    w.heading("Author contributions")
    w.paragraph("A.O. and E.L. designed the study.", lead=[("bold", "Conceptualization: ")])
    w.paragraph("A.O. counted the clutches.", lead=[("bold", "Investigation: ")])
    w.heading("References")
    w.line([("regular", "1. Smith J, Jones K. Clutch guarding in frogs. J Herpetol. 2019;53:1-10.")])
    w.line([("regular", "2. Brown A. Streams in the dry season. Freshw Biol. 2020;65:22-31.")])
    return styled_pdf(w.pages)


@pytest.fixture(scope="module")
def parsed(tmp_path_factory: pytest.TempPathFactory) -> Document:
    path = tmp_path_factory.mktemp("run-in") / "run-in.pdf"
    path.write_bytes(_paper())
    return parse_pdf(path)


def _titles(document: Document) -> list[tuple[str | None, str]]:
    return [(section.number, section.title) for section in document.sections]


def test_numbered_bold_and_italic_lead_ins_are_sections(parsed: Document) -> None:
    titles = _titles(parsed)
    assert ("2.1", "Study Sites") in titles
    assert (None, "Data sources and searches") in titles
    assert (None, "Shake-flask cultivation") in titles
    # a run-in heading sits under the heading set on its own line before it
    methods = next(index for index, section in enumerate(parsed.sections) if section.title == "Methods")
    sources = next(section for section in parsed.sections if section.title == "Data sources and searches")
    assert sources.parent == methods and sources.level == 2


def test_the_paragraph_keeps_its_text_without_the_heading(parsed: Document) -> None:
    sites = next(section for section in parsed.sections if section.title == "Study Sites")
    assert sites.blocks[0].text.startswith("We surveyed four streams")
    sources = next(section for section in parsed.sections if section.title == "Data sources and searches")
    assert sources.blocks[0].text.startswith("We searched the field notes")


def test_a_bold_title_begun_on_the_line_above(parsed: Document) -> None:
    assert (None, "Screening of the water samples for nitrate and phosphate by colorimetric synthesis of dyes") in _titles(parsed)


def test_what_only_looks_like_a_lead_in_stays_text(parsed: Document) -> None:
    titles = [title for _, title in _titles(parsed)]
    # a statement's label, a figure's labels closed by a colon or an ellipsis
    stays = ("Background", "Escherichia", "Conceptualization", "Investigation", "Proof", "Supports", "Decision")
    assert not [title for title in titles if title.startswith(stays)]
    assert "Background: Stream frogs guard their clutches" in (parsed.abstract or "")
    body = " ".join(block.text for section in parsed.sections for block in section.blocks)
    assert "Escherichia coli strains were grown overnight" in body


def test_back_matter_that_runs_on_gives_the_rest_back_to_the_body(parsed: Document) -> None:
    index = next(index for index, section in enumerate(parsed.sections) if section.title == "Acknowledgements")
    acknowledgements, after = parsed.sections[index], parsed.sections[index + 1]
    words = sum(len(block.text.split()) for block in acknowledgements.blocks)
    assert "We thank the rangers" in acknowledgements.blocks[0].text and words < 300
    assert after.title == "" and after.level == 1
    assert sum("Water samples were filtered" in block.text for block in after.blocks) >= 4
    assert len(parsed.references) == 2
