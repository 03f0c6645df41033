"""A display of words with a relation sign between them is an equation, not an italic heading.

TUGboat's articles on programming TeX set their definitions as displays of words in italics,
centred on a line of their own: "*Head xs = xs First Error*", "*Reverse = Foldl (Twiddle Cons)
Nil*" (Jones, "Lists in TeX's mouth", TUGboat's draft). Such a line in italics reads like an
unnumbered heading; the spaced "=" between words says it is a relation. A numbered heading keeps
one ("4.2 The case n = 1")."""

from __future__ import annotations

import pytest

from paperpyramid.document import Document
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import FILLER, StyledPage


def _paper() -> bytes:
    page = StyledPage()
    page.line([("bold", "Clutch guarding in a stream frog")], size=16, gap=24)
    page.line([("regular", "Ama Okafor, Erik Lindqvist")], gap=28)
    page.line([("bold", "1 Introduction")], size=12, gap=18)
    page.paragraph("Frogs of the genus Limnonectes lay their eggs in streams. " + FILLER * 2, first=88)
    page.line([("bold", "2 Counting clutches")], size=12, gap=18)
    page.paragraph("A count is defined from the transects as follows. " + FILLER, first=88)
    page.y -= 6
    page.line([("italic", "Count xs = Foldr (Compose Add Guarded) Zero")], x=160, gap=20)
    page.paragraph("So the count of a transect without clutches is zero. " + FILLER, first=88)
    page.line([("bold", "2.1 The case n = 1")], gap=18)
    page.paragraph("With one transect the count is that of its clutches. " + FILLER, first=88)
    page.line([("bold", "3 Results")], size=12, gap=18)
    page.paragraph("Females guarded the clutches at night. " + FILLER * 2, first=88)
    return page.pdf()


@pytest.fixture(scope="module")
def parsed(tmp_path_factory: pytest.TempPathFactory) -> Document:
    path = tmp_path_factory.mktemp("display-relations") / "relations.pdf"
    path.write_bytes(_paper())
    return parse_pdf(path)


def test_an_italic_display_with_a_relation_is_no_heading(parsed: Document) -> None:
    titles = [section.title for section in parsed.sections]
    assert not any("=" in title and "case" not in title for title in titles), titles


def test_a_numbered_heading_keeps_its_relation(parsed: Document) -> None:
    assert "The case n = 1" in [section.title for section in parsed.sections]
