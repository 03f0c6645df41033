"""A table whose first column is set flush right (LaTeX's ``r``) and whose cells are phrases in
lower case, one line each, every row at one pitch (irace's Table 1, unseen batch 14: "the value of
other options in the scenario file | the directory containing the scenario file" over "the value
of other command-line options | invocation (working) directory of irace"). The widest line of each
column ends at its column's edge, so the first word of the line under it would not fit after it:
read as paragraphs side by side, the two rows were one. A paragraph's lines start at one edge; the
flush-right cells start at two, and each is a row."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded.parser import parse_pdf

_FONT = "Times-Roman"
_SIZE = 10.0
_PITCH = 12.0
_RIGHT = 300.0  # the first column's right edge
_SECOND = 320.0  # the second column's left edge

ROWS = [
    ("Relative path appears as", "is relative to"),
    ("a string within the training file", "the training directory"),
    ("a string within the test file", "the test directory"),
    ("code within the target runner", "the execution directory"),
    ("the value of other options in the scenario file", "the directory containing the scenario file"),
    ("the value of other command-line options", "invocation (working) directory of the program"),
]

PROSE = [
    "The answer depends on where the path appears. Relative paths may appear as the argument of",
    "command-line options, as the value of options given in the scenario file, or within scripts.",
]


def _page() -> Canvas:
    page = Canvas(612.0, 792.0)
    for index, line in enumerate(PROSE):
        page.text(72, 90 + 12 * index, line, _FONT, _SIZE)
    page.text(170, 140, "Table 1: Translation of relative to absolute filesystem paths.", _FONT, _SIZE)
    page.rule(100, 148, 560, 148, 0.8)
    baseline = 160.0
    for index, (left, right) in enumerate(ROWS):
        page.text(_RIGHT - text_width(left, _FONT, _SIZE), baseline, left, _FONT, _SIZE)
        page.text(_SECOND, baseline, right, _FONT, _SIZE)
        if index == 0:
            page.rule(100, baseline + 4, 560, baseline + 4, 0.5)
            baseline += 4
        baseline += _PITCH
    page.rule(100, baseline - 8, 560, baseline - 8, 0.8)
    for index, line in enumerate(PROSE):
        page.text(72, baseline + 20 + 12 * index, line, _FONT, _SIZE)
    return page


@pytest.fixture
def table_rows(tmp_path: Path) -> list[list[str]]:
    pdf = tmp_path / "paths.pdf"
    pdf.write_bytes(write_pdf([_page()], "paths"))
    tables = [table for table in parse_pdf(pdf).tables if table.label == "1"]
    assert len(tables) == 1
    return tables[0].cells


def test_each_flush_right_cell_is_a_row(table_rows: list[list[str]]) -> None:
    last_two = [row for row in table_rows if row and row[0].startswith("the value of other")]
    expected = ["the value of other options in the scenario file", "the value of other command-line options"]
    assert [row[0] for row in last_two] == expected, table_rows
    assert table_rows[-1][-1] == "invocation (working) directory of the program", table_rows


def test_a_bold_header_close_under_the_caption_is_the_tables(tmp_path: Path) -> None:
    """irace's header row, set in bold a few points under its roman caption at the caption's left
    edge, its two cells one line (dot leaders between them): the table's first row, no line of
    the caption."""
    page = Canvas(612.0, 792.0)
    for index, line in enumerate(PROSE):
        page.text(72, 90 + 12 * index, line, _FONT, _SIZE)
    page.text(170, 140, "Table 1: Translation of relative to absolute filesystem paths.", _FONT, _SIZE)
    page.text(170, 155, "Relative path appears as . . . . . . is relative to . . .", "Times-Bold", _SIZE)
    page.rule(100, 159, 560, 159, 0.5)
    for index, (left, right) in enumerate(ROWS[1:]):
        page.text(_RIGHT - text_width(left, _FONT, _SIZE), 172 + _PITCH * index, left, _FONT, _SIZE)
        page.text(_SECOND, 172 + _PITCH * index, right, _FONT, _SIZE)
    page.rule(100, 172 + _PITCH * 5 - 8, 560, 172 + _PITCH * 5 - 8, 0.8)
    for index, line in enumerate(PROSE):
        page.text(72, 250 + 12 * index, line, _FONT, _SIZE)
    pdf = tmp_path / "header.pdf"
    pdf.write_bytes(write_pdf([page], "header"))
    table = next(table for table in parse_pdf(pdf).tables if table.label == "1")
    assert "Relative path" not in (table.caption or ""), table.caption
    assert table.cells[0][0].startswith("Relative path appears as"), table.cells
    assert len(table.cells) == 6, table.cells
