"""A table of display formulas printed above its caption (fitdistrplus's goodness-of-fit
statistics; :func:`paperpyramid.parsers.embedded.table_region.region_over_caption`): walking up
from the caption, a formula's tall delimiter is no heading's larger type, the scripts of its
formulas do not set the table's size, and the short last line of the paragraph over it ends it."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_engine import read_table_page
from paperpyramid.parsers.embedded.table_region import region_over_caption
from paperpyramid.parsers.embedded.table_rules import BBox

_PARAGRAPH = (
    "The statistics below measure the distance between the empirical distribution function of the",
    "sample and the fitted one; each gives more weight to another part of the distribution, and the",
    "third one to both of its tails, which matters most when the extreme values of the sample count",
    "for the Anderson-Darling statistics.",
)


def _formula(page: Canvas, x: float, baseline: float, *, delimiters: bool, scripts: bool) -> None:
    """max ( F_i - i/n ) with its index under it: a tall delimiter, scripts in a small face."""
    x += page.text(x, baseline, "max", "Times-Roman", 9) + 2
    if delimiters:
        x += page.text(x, baseline + 2, "(", "Times-Roman", 16) + 1
    x += page.text(x, baseline, "Fi - i", "Times-Italic", 9) + 1
    if scripts:
        page.text(x, baseline - 4, "n", "Times-Italic", 6)
        page.text(x - 30, baseline + 6, "i=1", "Times-Roman", 6)
        page.text(x + 8, baseline + 6, "k", "Times-Roman", 6)
        page.text(x + 14, baseline - 4, "2", "Times-Roman", 6)
    if delimiters:
        page.text(x + 1, baseline + 2, ")", "Times-Roman", 16)


def _page(*, delimiters: bool, scripts: bool, paragraph: bool) -> Canvas:
    page = Canvas(612.0, 792.0)
    baseline = 80.0
    for number, line in enumerate(_PARAGRAPH if paragraph else ()):
        justify = (468 - text_width(line, "Times-Roman", 10)) / line.count(" ") if number < len(_PARAGRAPH) - 1 else 0.0
        page.text(72, baseline, line, "Times-Roman", 10, word_spacing=justify)
        baseline += 12
    baseline += 14
    page.text(130, baseline, "Statistic", "Times-Roman", 9)
    page.text(250, baseline, "General formula", "Times-Roman", 9)
    page.text(380, baseline, "Computational formula", "Times-Roman", 9)
    for name in ("Kolmogorov-Smirnov", "Cramer-von Mises", "Anderson-Darling"):
        baseline += 22
        page.text(130, baseline, name, "Times-Roman", 9)
        page.text(250, baseline, "sup |Fn - F|", "Times-Italic", 9)
        _formula(page, 380, baseline, delimiters=delimiters, scripts=scripts)
    baseline += 30
    page.text(150, baseline, "Table 1: Goodness-of-fit statistics as defined by Stephens.", "Times-Roman", 10)
    baseline += 30
    for line in _PARAGRAPH[:3]:
        page.text(72, baseline, line, "Times-Roman", 10, word_spacing=(468 - text_width(line, "Times-Roman", 10)) / line.count(" "))
        baseline += 12
    return page


def _region(tmp_path: Path, **kwargs: bool) -> tuple[BBox | None, list[Line]]:
    """The box :func:`region_over_caption` reads over the page's caption, and the page's lines."""
    pdf = tmp_path / "statistics.pdf"
    pdf.write_bytes(write_pdf([_page(**kwargs)], "statistics"))
    lines, _, page_bbox = read_table_page(pdfium.PdfDocument(pdf), 1)
    caption = next(line for line in lines if line.text.startswith("Table 1"))
    return region_over_caption(lines, page_bbox, (caption.x0, caption.top, caption.x1, caption.bottom)), lines


@pytest.mark.parametrize(
    ("delimiters", "scripts", "paragraph"),
    [(True, True, False), (False, False, True)],
    ids=["delimiters-and-scripts", "under-a-paragraph"],
)
def test_a_table_of_formulas_over_its_caption_is_read_whole(tmp_path: Path, delimiters: bool, scripts: bool, paragraph: bool) -> None:
    region, lines = _region(tmp_path, delimiters=delimiters, scripts=scripts, paragraph=paragraph)
    assert region is not None
    header = next(line for line in lines if line.text == "Statistic")
    assert region[1] <= header.top  # from the header down
    assert not any(line.text in _PARAGRAPH for line in lines if region[1] <= line.top <= region[3])  # the paragraph over it left out


def _at(text: str, x0: float, top: float, bottom: float, size: float = 8.8) -> Line:
    return Line(text, 7, x0, top, x0 + 4.5 * len(text), bottom, size, False, False, "CMR10")


def test_a_formulas_tall_delimiter_is_no_heading() -> None:
    # fitdistrplus's Table 1 as printed: each formula's big parentheses (no font name, 11.9 pt)
    # and its index under it (6.2 pt), rows of 8.8 pt text; walking up from the caption, the
    # delimiter was taken for a heading's larger type and the table lost all but its last line
    lines = [
        _at("Statistic", 100, 349.4, 358.3),
        _at("General formula", 204, 349.4, 358.3),
        _at("Computational formula", 326, 349.4, 358.3),
        _at("Kolmogorov-Smirnov", 100, 361.3, 371.6),
        _at("sup |Fn(x) - F(x)|", 204, 361.3, 371.6),
        _at("max(D+, D-) with", 326, 359.9, 371.2),
        _at("(KS)", 100, 373.4, 383.4),
        _at("D+ = max", 326, 372.4, 382.8),
        _at("(", 385.8, 372.4, 384.4, 11.9),
        _at("i=1,...,n", 354.5, 382.3, 388.5, 6.2),
        _at("D- = max", 326, 389.2, 400.0),
        _at("(", 385.9, 389.6, 401.5, 11.9),
        _at("i=1,...,n", 354.6, 399.5, 405.7, 6.2),
        _at("Table 1: Goodness-of-fit statistics as defined by Stephens (1986).", 98, 420.0, 430.0),
    ]
    region = region_over_caption(lines, (0.0, 0.0, 595.0, 842.0), (98.0, 420.0, 400.0, 430.0))
    assert region is not None
    assert region[1] <= 349.4
