"""The PDF outline names the headings: a heading that begins with the article "A" and a
letter-numbered appendix heading ("B. New options") are both found, whether the layout step
took them for headings or for paragraphs."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from paperpyramid.parsers.embedded.layout import extract_page
from paperpyramid.parsers.embedded.parser import build_document
from tests.pdf_maker import text_pdf

BODY = [("The colony was surveyed every spring from the station on the northern shore of the island.", 10)] * 4


def _build(tmp_path: Path, lines: list[tuple[str, int]], toc: list[tuple[int, str, int | None]]):
    """The document the embedded parser builds from one page of ``lines`` and the outline ``toc``."""
    path = tmp_path / "outlined.pdf"
    path.write_bytes(text_pdf([[("A Study of Shark Colonies", 20), *lines]]))
    pdf = pdfium.PdfDocument(str(path))
    try:
        pages = [extract_page(pdf[0], 1)]
    finally:
        pdf.close()
    return build_document(pages, toc, {})


def _document(tmp_path: Path, headings: list[str], toc_titles: list[str], size: int):
    lines = [line for heading in headings for line in [(heading, size), *BODY]]
    return _build(tmp_path, lines, [(1, title, 1) for title in toc_titles])


def test_a_heading_that_begins_with_an_article_is_a_section(tmp_path: Path) -> None:
    headings = ["1 Introduction", "A surprising contradiction", "2 Methods", "3 Results"]
    document = _document(tmp_path, headings, headings, 12)
    titles = [(section.number, section.title) for section in document.sections]
    assert (None, "A surprising contradiction") in titles, titles
    assert [title for _, title in titles if title != "Abstract"][:4] == ["Introduction", "A surprising contradiction", "Methods", "Results"]


@pytest.mark.parametrize("outline", [["A. Proofs", "B. New options"], ["A Proofs", "B New options"]], ids=["with-periods", "without"])
def test_letter_numbered_appendix_headings_are_sections(tmp_path: Path, outline: list[str]) -> None:
    headings = ["1 Introduction", "2 Methods", "A. Proofs", "B. New options"]
    document = _document(tmp_path, headings, ["1 Introduction", "2 Methods", *outline], 12)
    titles = [(section.number, section.title) for section in document.sections]
    assert ("A", "Proofs") in titles and ("B", "New options") in titles, titles


def _sections(tmp_path: Path, printed: list[str], toc: list[tuple[int, str, int | None]]):
    lines = [
        line
        for index, heading in enumerate(printed)
        for line in [(heading, 12), *[(f"{heading} text {index}: the colony was surveyed every spring from the station.", 10)] * 3]
    ]
    return _build(tmp_path, lines, toc).sections


def test_an_outline_rooted_at_the_title_makes_no_title_section(tmp_path: Path) -> None:
    printed = ["Abstract", "Introduction", "Methods", "Results", "Discussion"]
    toc = [(1, "A Study of Shark Colonies", 1), *((2, heading, 1) for heading in printed[1:])]
    sections = _sections(tmp_path, printed, toc)
    assert [(section.level, section.title) for section in sections] == [(1, heading) for heading in printed]


def test_an_introduction_the_outline_leaves_out_keeps_its_text(tmp_path: Path) -> None:
    printed = ["Abstract", "Introduction", "Methods", "Results", "Discussion"]
    toc = [(1, "A Study of Shark Colonies", 1), (2, "Methods", 1), (2, "Results", 1), (2, "Discussion", 1)]
    sections = _sections(tmp_path, printed, toc)
    texts = {section.title: " ".join(block.text for block in section.blocks) for section in sections}
    assert "Introduction" in texts and "Introduction text 1" in texts["Introduction"], texts


def test_an_outline_finds_a_numbered_run_in_heading(tmp_path: Path) -> None:
    """Under an outline that names it, "1.1. Sampling. The colony …" is a section of its own."""
    lines = [("1 Methods", 12), *BODY, ("1.1. Sampling. The colony was counted from a boat at dawn on four days.", 10), *BODY]
    lines += [line for heading in ("2 Results", "3 Discussion", "4 Conclusion") for line in [(heading, 12), *BODY]]
    toc: list[tuple[int, str, int | None]] = [
        (1, "Methods", 1),
        (2, "Sampling", 1),
        (1, "Results", 1),
        (1, "Discussion", 1),
        (1, "Conclusion", 1),
    ]
    document = _build(tmp_path, lines, toc)
    titles = [(section.number, section.title) for section in document.sections if section.title]
    assert titles == [("1", "Methods"), ("1.1", "Sampling"), ("2", "Results"), ("3", "Discussion"), ("4", "Conclusion")]
