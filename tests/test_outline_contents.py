"""A starred section printed under a table of contents is body, though the outline leaves it out.

A vignette (MALDIquant's, batch 8) prints its abstract, then ``\\tableofcontents``, then a
"Foreword" set with ``\\section*`` (no bookmark) in the type of the numbered sections the outline
names. Under an abstract's label the sections' type may be front matter ("CCS CONCEPTS"), but a
table of contents ends the front matter: what follows it in that type is a section."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from paperpyramid.parsers.embedded.layout import extract_page
from paperpyramid.parsers.embedded.parser import build_document
from tests.pdf_maker import text_pdf

PROSE = [("The colony was surveyed every spring from the station on the northern shore of the island.", 10)] * 4


def _titles(tmp_path: Path, contents: bool) -> list[str]:
    lines = [("A Study of Shark Colonies", 20), ("Abstract", 12), *PROSE[:2]]
    if contents:
        lines += [("Contents", 12), ("1 Introduction . . . . . . . . . . 2", 10), ("2 Methods . . . . . . . . . . 3", 10)]
        lines += [("3 Results . . . . . . . . . . 4", 10)]
    lines += [("Foreword", 12), *PROSE]
    lines += [line for heading in ("1 Introduction", "2 Methods", "3 Results") for line in [(heading, 12), *PROSE]]
    path = tmp_path / "vignette.pdf"
    path.write_bytes(text_pdf([lines]))
    pdf = pdfium.PdfDocument(str(path))
    try:
        pages = [extract_page(pdf[0], 1)]
    finally:
        pdf.close()
    toc: list[tuple[int, str, int | None]] = [(1, "1 Introduction", 1), (1, "2 Methods", 1), (1, "3 Results", 1)]
    return [section.title for section in build_document(pages, toc, {}).sections]


def test_a_starred_section_under_the_contents_is_a_section(tmp_path: Path) -> None:
    titles = _titles(tmp_path, contents=True)
    assert "Foreword" in titles, titles
    assert titles.count("Introduction") == 1, titles  # the contents' entries name nothing


def test_under_the_abstract_without_contents_it_stays_front_matter(tmp_path: Path) -> None:
    assert "Foreword" not in _titles(tmp_path, contents=False)
