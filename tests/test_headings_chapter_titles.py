"""A chapter's title of three lines under its label is the chapter's heading.

report.cls prints "Chapter 4" over the chapter's title in the same large bold type; a long title
wraps to a third line ("Generalization of the kinetic / energy density to the tensorial / form",
ABINIT's note on the ELF, batch 8). Headings run to two lines unless numbered, so the title had
been read as a paragraph and the label left as an empty section "Chapter 4"."""

from __future__ import annotations

from pathlib import Path

from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import styled_pdf

PROSE = "The density was computed on a regular grid of points in the unit cell of the crystal."


def _pdf() -> bytes:
    pages: list[list[tuple[float, float, float, list[tuple[str, str]]]]] = []
    for label, title in (
        ("Chapter 1", ["Plane waves"]),
        ("Chapter 2", ["Electronic density"]),
        ("Chapter 3", ["Generalization of the kinetic", "energy density to the tensorial", "form"]),
    ):
        items: list[tuple[float, float, float, list[tuple[str, str]]]] = [(72, 680, 20, [("bold", label)])]
        y = 640.0
        for line in title:
            items.append((72, y, 20, [("bold", line)]))
            y -= 24
        y -= 20
        for _ in range(12):
            items.append((72, y, 10, [("regular", PROSE)]))
            y -= 13
        pages.append(items)
    return styled_pdf(pages)


def test_a_three_line_title_under_a_chapter_label_is_the_heading(tmp_path: Path) -> None:
    path = tmp_path / "report.pdf"
    path.write_bytes(_pdf())
    titles = [section.title for section in parse_pdf(path).sections if section.title]
    assert "Generalization of the kinetic energy density to the tensorial form" in titles, titles
    assert not any(title.startswith("Chapter") for title in titles), titles
