"""A program's printed output set in a typewriter font is no table without a caption
(:mod:`paperpyramid.parsers.embedded.table_detect`): the Journal of Statistical Software's
vignettes print R's model summaries ("Coefficients:", "Estimate Std. Error z value") in
columns of a fixed pitch, which were read as tables; the same rows set in a text font are."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded.parser import parse_pdf

_OUTPUT = (
    ("", "Estimate", "Std. Error", "z value", "Pr(>|z|)"),
    ("(Intercept)", "1.028874", "0.023785", "43.258", "<2e-16"),
    ("hosp", "0.164797", "0.005997", "27.478", "<2e-16"),
    ("healthpoor", "0.248307", "0.017845", "13.915", "<2e-16"),
    ("numchron", "0.146639", "0.004580", "32.020", "<2e-16"),
    ("gendermale", "-0.112320", "0.012945", "-8.677", "<2e-16"),
)
_PROSE = (
    "The model is fitted by maximum likelihood and its summary printed as usual, with the",
    "estimates, their standard errors and the Wald tests of each coefficient in one table.",
    "All coefficients are significant, and the dispersion is taken to be one in this model.",
)


def _page(font: str) -> Canvas:
    page = Canvas(612.0, 792.0)
    page.text(72, 80, "2. Modeling count data", "Times-Bold", 12)
    baseline = 110.0
    for line in _PROSE:
        page.text(72, baseline, line, "Times-Roman", 10)
        baseline += 13
    baseline += 10
    page.text(72, baseline, "Coefficients:", font, 9)
    for row in _OUTPUT:
        baseline += 12
        for x, cell in zip((72, 160, 240, 320, 390), row, strict=True):
            page.text(x, baseline, cell, font, 9)
    baseline += 24
    for line in _PROSE:
        page.text(72, baseline, line, "Times-Roman", 10)
        baseline += 13
    return page


def test_console_output_in_a_typewriter_font_is_no_table(tmp_path: Path) -> None:
    listing = tmp_path / "listing.pdf"
    listing.write_bytes(write_pdf([_page("Courier")], "console output"))
    assert parse_pdf(listing).tables == []
    assert "Estimate" in " ".join(section.text for section in parse_pdf(listing).sections)


def test_the_same_rows_in_a_text_font_are_a_table(tmp_path: Path) -> None:
    table = tmp_path / "table.pdf"
    table.write_bytes(write_pdf([_page("Helvetica")], "a table"))
    tables = parse_pdf(table).tables
    assert len(tables) == 1
    assert ["hosp", "0.164797", "0.005997", "27.478", "<2e-16"] in tables[0].cells
