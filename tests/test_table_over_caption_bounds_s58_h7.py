"""Unruled tables printed over their captions, close under running text (metap's vignettes,
unseen batch 15), each a layout convention of its own:

- a numbered heading set in bold in the text's own type (``article``'s ``\\subsubsection``,
  "3.2.7 Examples for methods ...") right over the table: the table starts under it, and the
  paragraph's last line over the heading is no row either;
- a paragraph's last line ("cancellation issue does not arise.") over a table set in by a
  column's padding only: a line's pitch under a line of running text that starts where it does,
  it ends the paragraph, not a row of the table;
- rows set a line apart, some leaving the middle column empty ("invt | | Inverse t" under
  "invchisq | Lancaster's method | Inverse chi square"): each opens a row (its first cell, and
  a capital in the last column under a line that leaves no phrase open), not the row above wrapped.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded.parser import parse_pdf

_FONT = "Times-Roman"
_BOLD = "Times-Bold"
_SIZE = 10.0
_MARGIN = 100.0
_PARAGRAPH = [
    "See Table 2 for the definition. This method is provided in logitp. The constant was arrived",
    "at by equating skewness and kurtosis with that of the t distribution. As can be seen in the",
    "figure this method returns a value for our example which decreases with k when p is below",
]


def _paragraph(page: Canvas, top: float, last: str) -> float:
    """A paragraph of running text from ``top`` (a baseline), its lines justified to one right
    edge (word spacing), its last line short; returns the next baseline."""
    for index, line in enumerate(_PARAGRAPH):
        spacing = (412.0 - text_width(line, _FONT, _SIZE)) / line.count(" ")
        page.text(_MARGIN, top + 12 * index, line, _FONT, _SIZE, word_spacing=spacing)
    page.text(_MARGIN, top + 12 * len(_PARAGRAPH), last, _FONT, _SIZE)
    return top + 12 * (len(_PARAGRAPH) + 1)


def _values(page: Canvas, top: float, rows: list[tuple[str, str, str]], pitch: float = 12.0) -> float:
    for index, cells in enumerate(rows):
        for x, cell in zip((_MARGIN + 5, 190.0, 290.0), cells, strict=True):
            page.text(x, top + pitch * index, cell, _FONT, _SIZE)
    return top + pitch * len(rows)


def _parsed(tmp_path: Path, page: Canvas, label: str) -> list[list[str]]:
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(write_pdf([page], "paper"))
    tables = [table for table in parse_pdf(pdf).tables if table.label == label]
    assert len(tables) == 1
    return tables[0].cells


def test_a_bold_numbered_heading_in_the_text_type_starts_no_table(tmp_path: Path) -> None:
    page = Canvas(612.0, 792.0)
    baseline = _paragraph(page, 100, "0.5 and increases above.") + 14
    page.text(_MARGIN, baseline, "3.2.7", _BOLD, _SIZE)
    page.text(_MARGIN + 30, baseline, "Examples for methods using transformations of the p values", _BOLD, _SIZE)
    rows = [("Function name", "validity", "cancel"), ("logitp", "15.4", "0.5"), ("meanz", "11.09", "0.5"), ("sumlog", "15.52", "0.00055")]
    baseline = _values(page, baseline + 18, rows)
    page.text(150, baseline + 12, "Table 3: Examples of methods using transformation of the p values", _FONT, _SIZE)
    _paragraph(page, baseline + 40, "than the other three.")
    cells = _parsed(tmp_path, page, "3")
    assert cells[0] == ["Function name", "validity", "cancel"], cells
    assert len(cells) == 4, cells


def test_a_paragraphs_last_line_over_a_table_is_no_row(tmp_path: Path) -> None:
    page = Canvas(612.0, 792.0)
    baseline = _paragraph(page, 100, "cancellation issue does not arise.") + 14
    rows = [("Function name", "truncated at p = 0.5", "truncated at rank = 5"), ("truncated", "15.35", "8.06"), ("votep", "16.01", "9.12")]
    baseline = _values(page, baseline, rows)
    page.text(150, baseline + 12, "Table 7: Examples for truncated using the validity data set", _FONT, _SIZE)
    _paragraph(page, baseline + 40, "and there will only be a few signals.")
    cells = _parsed(tmp_path, page, "7")
    assert cells[0] == ["Function name", "truncated at p = 0.5", "truncated at rank = 5"], cells
    assert len(cells) == 3, cells


def _methods_page(name: str) -> Canvas:
    """metap's Table 1: rows a line apart (12 pt type on a 14.5 pt leading), the header's two a
    little further (``\\[1ex]``), the first column headed ``name``."""
    page = Canvas(612.0, 792.0)
    baseline = _paragraph(page, 100, "shows other descriptions of each method.") + 20
    header = [(name, "Description(s)", ""), ("", "Eponym", "")]
    body = [
        ("invchisq", "Lancaster's method", "Inverse chi square"),
        ("invt", "", "Inverse t"),
        ("logitp", "", "Logistic"),
        ("meanp", "", ""),
        ("minimump", "Tippett's method", ""),
        ("sumlog", "Fisher's method", "Chi square (2 df)"),
        ("sump", "Edgington's method", "Uniform"),
        ("sumz", "Stouffer's method", "Normal"),
        ("wilkinsonp", "", ""),
    ]
    baseline = _values(page, baseline, header, 16.6)
    baseline = _values(page, baseline, body, 14.3)
    page.text(180, baseline + 14, "Table 1: Methods considered in this document", _FONT, _SIZE)
    _paragraph(page, baseline + 44, "is to ensure that all the p values refer to one hypothesis.")
    return page


def test_a_word_alone_with_room_for_the_next_ends_its_cell(tmp_path: Path) -> None:
    """The first column as wide as "Function name": "logitp" had room for "meanp"."""
    cells = _parsed(tmp_path, _methods_page("Function name"), "1")
    firsts = [row[0] for row in cells]
    assert firsts[2:7] == ["invchisq", "invt", "logitp", "meanp", "minimump"], cells


def test_a_capital_under_a_closed_phrase_opens_a_row(tmp_path: Path) -> None:
    """The first column as wide as "wilkinsonp": "invchisq invt" would not fit, but "Inverse t"
    opens a cell under "Inverse chi square"."""
    cells = _parsed(tmp_path, _methods_page("Name"), "1")
    assert ["invchisq", "Lancaster's method", "Inverse chi square"] in cells, cells
    assert ["invt", "", "Inverse t"] in cells, cells
