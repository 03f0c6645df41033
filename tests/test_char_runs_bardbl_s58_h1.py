"""LaTeX's footnote signs run ∗ † ‡ § ¶ ‖, and the sixth is drawn from TeX's math symbol font
(CMSY) at the code of "k": its glyph name ("bardbl") is outside Adobe's glyph list, so a PDF
without a Unicode map for it reads "k" (the SAM guide's sixth author, "Virginia Tusher k"). Read
from such a font, the "k" is the double bar; a "k" of any other font stays a letter."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from paperpyramid.parsers.embedded.layout import extract_page
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import glyph_pdf

_BODY = (
    "We describe a method for finding genes whose expression changes between two conditions in a microarray",
    "experiment, with a permutation estimate of the false discovery rate for each threshold that is chosen.",
    "The method scores each gene by a statistic that compares the change with the spread of repeated",
    "measurements, and it lists the genes whose scores lie beyond a cut that the user moves along the list.",
)


def _title_page() -> bytes:
    """A title, three names side by side each followed by its footnote sign (§, ¶ in Times; the
    third's "‖" as CMSY's "k", raised), and a paragraph of body text."""
    items: list[tuple[float, float, float, str, str]] = [(150, 700, 18, "Significance Analysis of Microarrays", "Times-Roman")]
    for x, name, sign, font in (
        (90, "Ann Berg", "\u00a7", "Times-Roman"),
        (250, "Carl Dahl", "\u00b6", "Times-Roman"),
        (410, "Eva Lind", "k", "CMSY10"),
    ):
        items.append((x, 660, 12, name, "Times-Roman"))
        items.append((x + 6.2 * len(name), 665, 8, sign, font))
    items += [(72, 610 - 13 * n, 10, line, "Times-Roman") for n, line in enumerate(_BODY)]
    items.append((72, 540, 10, "The kit keeps the k nearest genes.", "Times-Roman"))
    return glyph_pdf(items)


def test_a_k_of_tex_math_symbol_font_reads_as_the_double_bar(tmp_path: Path) -> None:
    path = tmp_path / "bardbl.pdf"
    path.write_bytes(_title_page())
    lines = [line.text for line in extract_page(pdfium.PdfDocument(path)[0], 1).lines]
    assert "Eva Lind ‖" in lines
    assert "The kit keeps the k nearest genes." in lines  # a text face's "k" is a letter


def test_the_sixth_signs_name_is_an_author(tmp_path: Path) -> None:
    path = tmp_path / "byline.pdf"
    path.write_bytes(_title_page())
    assert [author.name for author in parse_pdf(path).authors] == ["Ann Berg", "Carl Dahl", "Eva Lind"]
