"""The level of a heading the outline leaves out: one below the outlined heading it stands in.

PureCN's vignette (batch 8) bookmarks its numbered sections down to "6.2.1", but not the
``\\paragraph`` entries of its "12.2 FAQ": those set on a line of their own had been put a level
below the deepest bookmark anywhere before them (4, under "6.2.1" pages back), those run in at
the top level. Both stand one level below "12.2 FAQ"."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from paperpyramid.parsers.embedded.layout import extract_page
from paperpyramid.parsers.embedded.parser import build_document
from tests.pdf_maker import styled_pdf

PROSE = "The colony was surveyed every spring from the station on the northern shore of the island."


def _sections(tmp_path: Path) -> list[tuple[int, str]]:
    items: list[tuple[float, float, float, list[tuple[str, str]]]] = []
    y = 740.0

    def line(runs: list[tuple[str, str]], size: float = 10, gap: float = 13) -> None:
        nonlocal y
        items.append((72, y, size, runs))
        y -= gap

    line([("bold", "A Study of Shark Colonies")], size=18, gap=30)
    for heading, size in (("1 Methods", 12), ("1.1 Sampling", 11), ("1.1.1 Traps", 10)):
        y -= 6
        line([("bold", heading)], size=size, gap=18)
        for _ in range(3):
            line([("regular", PROSE)])
    y -= 6
    line([("bold", "2 Results")], size=12, gap=18)
    for _ in range(3):
        line([("regular", PROSE)])
    y -= 8
    line([("bold", "Clutch counts. "), ("regular", "The clutches were counted along four transects every week.")])
    for _ in range(3):
        line([("regular", PROSE)])
    path = tmp_path / "outlined.pdf"
    path.write_bytes(styled_pdf([items]))
    pdf = pdfium.PdfDocument(str(path))
    try:
        pages = [extract_page(pdf[0], 1)]
    finally:
        pdf.close()
    toc: list[tuple[int, str, int | None]] = [(1, "1 Methods", 1), (2, "1.1 Sampling", 1), (3, "1.1.1 Traps", 1), (1, "2 Results", 1)]
    return [(section.level, section.title) for section in build_document(pages, toc, {}).sections if section.title]


def test_a_run_in_heading_stands_below_the_outlined_heading_above_it(tmp_path: Path) -> None:
    sections = _sections(tmp_path)
    assert (2, "Clutch counts") in sections, sections
    assert (1, "Results") in sections and (3, "Traps") in sections, sections
