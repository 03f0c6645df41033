"""Bold headings whose glyph boxes measure well under the body's, at one size.

pdfium's box of a character is its font's ascent to descent: the bridge sampling tutorial (arXiv,
apa6, batch 8) sets its headings in LMRoman10-Bold at the body's 10.9 pt, and their boxes measure
9.8 against the body's LMRoman10-Regular 12.2, four fifths. Read as small print, none of its
sections before page 21 was found (nor the run-in headings under them). Its headings of two lines
are a baseline skip of the body apart, more than a paragraph's gap under such short boxes: one cut
at an open word ("… Implementation of the") goes on to the next. The PDF made here sets its bold
headings at 10 pt over a 12 pt body, as tall as those boxes measure."""

from __future__ import annotations

from pathlib import Path

from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import styled_pdf

PROSE = "The marginal likelihood was estimated for each model from the samples of its posterior."


def _pdf() -> bytes:
    items: list[tuple[float, float, float, list[tuple[str, str]]]] = [(72, 740, 18, [("bold", "A Tutorial on Bridge Sampling")])]
    y = 700.0
    items.append((72, y, 12, [("regular", "Ada Lovelace and Alan Turing")]))
    y -= 30
    items.append((280, y, 12, [("regular", "Abstract")]))
    y -= 18
    for _ in range(3):
        items.append((90, y, 12, [("regular", PROSE)]))
        y -= 15
    for heading in ("Four Sampling Methods to Approximate the Likelihood", "The Running Example", "Discussion"):
        y -= 10
        items.append((150, y, 10, [("bold", heading)]))
        y -= 20
        for _ in range(4):
            items.append((72, y, 12, [("regular", PROSE)]))
            y -= 15
    y -= 10
    items.append((100, y, 10, [("bold", "Application of Bridge Sampling to an Individual-Level Implementation of the")]))
    y -= 19  # the body's baseline skip: wider than a paragraph's gap under a bold line's short boxes
    items.append((250, y, 10, [("bold", "Expectancy Valence Model")]))
    y -= 20
    for _ in range(4):
        items.append((72, y, 12, [("regular", PROSE)]))
        y -= 15
    return styled_pdf([items])


def test_bold_headings_with_short_boxes_are_sections(tmp_path: Path) -> None:
    path = tmp_path / "apa.pdf"
    path.write_bytes(_pdf())
    titles = [section.title for section in parse_pdf(path).sections if section.title]
    assert "Four Sampling Methods to Approximate the Likelihood" in titles, titles
    assert "The Running Example" in titles, titles


def test_a_bold_heading_cut_at_an_open_word_goes_on_to_its_next_line(tmp_path: Path) -> None:
    path = tmp_path / "apa.pdf"
    path.write_bytes(_pdf())
    titles = [section.title for section in parse_pdf(path).sections if section.title]
    assert "Application of Bridge Sampling to an Individual-Level Implementation of the Expectancy Valence Model" in titles, titles
