"""A cell's long line that starts just left of its column's edge (cells centred in their column:
the river between two columns is set by the shorter lines) is that column's, not the one its
left edge falls in; a piece of a line cut only around a number, and a label centred over several
columns, stay where they were: on small constructed pages, and on the real articles that print
them (``../shared``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.parsers.embedded.table_engine import Region, table_rows
from tests.test_table_conventions import _line  # the constructed pages of the table tests

SHARED = Path(__file__).resolve().parents[2] / "shared"
needs_pairs = pytest.mark.skipif(
    not (SHARED / "pmc-pairs").is_dir(), reason="../shared/pmc-pairs is not here (real PMC articles, not distributed)"
)
needs_corpus = pytest.mark.skipif(not (SHARED / "corpus").is_dir(), reason="../shared/corpus is not here (real articles, not distributed)")

_PAGE = (0.0, 0.0, 612.0, 792.0)
_BODY = (("Anand 1993", "ACTH", "Headache"), ("Mount 1993", "Prolactin", "Aphasia"), ("Hori 1999", "Null cell", "Visual loss"))


def _centred_table(long_x0: float) -> list[list[str]] | None:
    """Three rows whose last cells are centred on x = 330, and a first row whose last cell, a long
    line, starts at ``long_x0``: the white between the second column (to x = 216) and the third
    (from x = 302) runs from 216 to 302 but for that line, and is the columns' edge (x = 259)."""
    lines = [_line("Authors", 51, 100), _line("Stain", 171, 100), _line("Presentation", 300, 100)]
    lines += [_line("Ortiz 1975", 51, 114), _line("ACTH", 171, 114), _line("Obesity, irregular cycles and headaches", long_x0, 114)]
    for row, (name, stain, presentation) in enumerate(_BODY):
        top = 128.0 + 14 * row
        lines += [_line(name, 51, top), _line(stain, 171, top), _line(presentation, 330 - 2.5 * len(presentation), top)]
    return table_rows(lines, [], _PAGE, Region((50.0, 98.0, 500.0, 180.0)))


def test_a_long_centred_line_starting_left_of_its_column_is_that_columns() -> None:
    # it starts 4 pt left of the edge, and holds nearly all its width right of it
    cells = _centred_table(255.0)
    assert cells is not None
    assert cells[1] == ["Ortiz 1975", "ACTH", "Obesity, irregular cycles and headaches"]
    assert cells[2] == ["Anand 1993", "ACTH", "Headache"]


def test_a_line_reaching_far_into_the_column_on_its_left_stays_there() -> None:
    # 20 pt left of the edge: more than a character, the line is the column it starts in
    cells = _centred_table(239.0)
    assert cells is not None
    assert cells[1][2] == ""


def test_a_unit_cut_from_its_number_goes_on_in_that_numbers_cell() -> None:
    # "≤ 5 cm": the line is cut around its number, and "cm" starts a word space after "5", just
    # left of the next column's edge, most of it right of the edge: it stays in the label's cell
    # (the labels end by x = 111 and the ratios start at 128: the edge is at 119.5, "cm" is 116 to 126)
    rows = [("Tumour grade", "4.796", "0.029"), ("Grade 3", "2.210", "0.137"), ("Nodes", "1.502", "0.220"), ("Sex", "0.980", "0.322")]
    lines = [_line("Factor", 51, 100), _line("HR", 128, 100), _line("p", 201, 100)]
    for row, (label, ratio, p) in enumerate(rows):
        top = 114.0 + 14 * row
        lines += [_line(label, 51, top), _line(ratio, 128, top), _line(p, 201, top)]
    number = _line("Diameter ≤ 5", 51, 170)
    unit = _line("cm", number.x1 + 5.0, 170)
    whole = replace(number, text="Diameter ≤ 5 cm", x1=unit.x1, words=[*(number.words or []), *(unit.words or [])], parts=[number, unit])
    lines += [whole, _line("1.017", 128, 170), _line("0.410", 201, 170)]
    cells = table_rows(lines, [], _PAGE, Region((50.0, 98.0, 240.0, 190.0)))
    assert cells is not None
    assert cells[-1] == ["Diameter ≤ 5 cm", "1.017", "0.410"]


@needs_pairs
def test_a_hindawi_table_of_centred_cells_has_its_presentations_in_their_column() -> None:
    # Case Reports in Neurological Medicine's Table 2 (a): the long "Initial presentation" lines
    # start left of the column's edge; they went to "Immunostaining", beside the stain
    document = parse_pdf(SHARED / "pmc-pairs" / "crneurolmed-2016-clival-pituitary-adenoma.pdf")
    part = next(table for table in document.tables if table.label == "2 (a)")
    rows = {row[0]: row for row in part.cells}
    assert rows["Ortiz-Suarez and Erickson, 1975 [11]"][2:] == [
        "ACTH",
        "Obesity, irregular menstrual cycles, increased facial hair, episodic headaches, and facial numbness",
    ]
    assert rows["Appel et al., 2012 [8]"][2] == "GH/prolactin"


@needs_corpus
def test_a_label_centred_over_three_columns_stays_in_the_first() -> None:
    # SciFact's Table 6 centres "Label-Only" over P, R and F1: it starts just left of R, most of
    # it over R, but it reaches past R: a label spanning the columns, kept in the first (as
    # "Selection-Only" over the part above)
    document = parse_pdf(SHARED / "corpus" / "emnlp-2020-scifact-arxiv-2004.14974-compiled.pdf")
    table = next(table for table in document.tables if table.label == "6 (b)")
    row = next(row for row in table.cells if "Label-Only" in row)
    assert row.index("Label-Only") == 3
