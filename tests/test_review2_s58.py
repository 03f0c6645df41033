"""Three regressions a second review of this stop's section and table rules found, each drawn as
a PDF of real text with made-up content:

- a bold numbered heading at body size stops a table's region above its caption, but a table's
  own bold numbered group row ("1 Demographics") is set no further from the row under it than the
  rows stand apart: it cut the table short;
- a capital under a first column's word that ends no phrase opens a row (metap's unruled method
  list), but a title-case cell that wraps ("Single Nucleotide" / "Polymorphism") is no new row
  where whole rows stand further apart than its lines;
- names and dates right under the title are the title page's, but a numbered first section
  ("1 Study Area and Data Sources") is a section, whatever ``split_names`` makes of its words.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded import parse_pdf
from tests.pdf_maker import FILLER, StyledPage
from tests.test_table_over_caption_bounds_s58_h7 import _paragraph, _values

_PROSE = [
    "The answer depends on where the path appears. Relative paths may appear as the argument of the",
    "command-line options, as the value of options given in the scenario file, or within the scripts.",
    "Each of the groups below is listed with its members and the share of the sample it holds here.",
]


def _cells(tmp_path: Path, page: Canvas) -> list[list[str]]:
    path = tmp_path / "table.pdf"
    path.write_bytes(write_pdf([page], "table"))
    (table,) = parse_pdf(path).tables
    return table.cells


def test_a_tables_bold_numbered_group_rows_stay_in_it(tmp_path: Path) -> None:
    page = Canvas(612, 792)
    for i, line in enumerate(_PROSE):
        page.text(100, 90 + 12 * i, line, "Times-Roman", 10)
    y = 140.0
    rows = [("1 Demographics", None), ("Age (years)", "45.2"), ("Female sex", "52%"), ("2 Clinical history", None), ("Diabetes", "12%")]
    for label, value in rows + [("Hypertension", "30%")]:
        if value is None:
            page.text(110, y, label, "Times-Bold", 10)
        else:
            page.text(120, y, label, "Times-Roman", 10)
            page.text(300, y, value, "Times-Roman", 10)
        y += 12
    page.text(100, y + 10, "Table 1: Characteristics of the sample by group.", "Times-Roman", 10)
    for i, line in enumerate(_PROSE):
        page.text(100, y + 40 + 12 * i, line, "Times-Roman", 10)
    cells = _cells(tmp_path, page)
    assert ["Age (years)", "45.2"] in cells and ["Hypertension", "30%"] in cells
    assert [row[0] for row in cells].count("1 Demographics") == 1


def test_title_case_cells_that_wrap_stay_one_row(tmp_path: Path) -> None:
    page = Canvas(612.0, 792.0)
    baseline = _paragraph(page, 100, "shows other descriptions of each method.") + 20
    baseline = _values(page, baseline, [("Trait", "Variant type", "Beta")], 16.6)
    groups = [
        [("Age", "Years", "0.31")],
        [("Body mass", "Single Nucleotide", "0.52"), ("index", "Polymorphism", "")],
        [("Sex", "Female", "0.10")],
        [("Waist", "Ratio to Hip", "0.20"), ("girth", "Circumference", "")],
        [("Smoking", "Current Smoker", "0.44")],
    ]
    for group in groups:
        for k, cells in enumerate(group):
            _values(page, baseline, [cells], 12)
            baseline += 12 if k < len(group) - 1 else 15
    page.text(180, baseline + 14, "Table 1: Methods considered in this document", "Times-Roman", 10)
    _paragraph(page, baseline + 44, "is to ensure that all the p values refer to one hypothesis.")
    cells = _cells(tmp_path, page)
    assert ["Body mass index", "Single Nucleotide Polymorphism", "0.52"] in cells
    assert ["Waist girth", "Ratio to Hip Circumference", "0.20"] in cells


def test_a_numbered_first_section_under_the_title_stays_a_section(tmp_path: Path) -> None:
    page = StyledPage()
    page.line([("bold", "Shark Colonies of the Northern Shore")], size=18, gap=40)
    page.line([("bold", "1 Study Area and Data Sources")], size=12, gap=18)
    page.paragraph(FILLER * 2)
    page.line([("bold", "2 Results")], size=12, gap=18)
    page.paragraph(FILLER * 2)
    path = tmp_path / "paper.pdf"
    path.write_bytes(page.pdf())
    sections = [(section.number, section.title) for section in parse_pdf(path).sections]
    assert ("1", "Study Area and Data Sources") in sections
