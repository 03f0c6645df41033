"""Rows whose cells are centred on their row's height, in a table ruled between its rows (Hindawi
sets each cell in the middle of its row: a row label of one line sits beside the middle line of a
cell wrapped over three), and a header label wider than its column: on small constructed pages,
and on the real article that prints them (``../shared/pmc-pairs``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.parsers.embedded.table_engine import Region, table_rows
from paperpyramid.parsers.embedded.table_printed_rows import printed_rows, row_cells
from paperpyramid.parsers.embedded.table_row_joins import join_rows
from paperpyramid.parsers.embedded.table_rules import Rule
from tests.test_table_conventions import _CHAR, _line  # the constructed pages of the table tests

PAIRS = Path(__file__).resolve().parents[2] / "shared" / "pmc-pairs"
needs_pairs = pytest.mark.skipif(not PAIRS.is_dir(), reason="../shared/pmc-pairs is not here (real PMC articles, not distributed)")

_EDGES = [50.0, 170.0, 330.0, 400.0, 500.0]


def _ruled_cells(text: list[tuple[float, tuple[str, ...]]], rules: list[float]) -> list[list[str]]:
    """The rows of lines set at these tops, one per row of ``text``, ruled at ``rules``."""
    lines = [_line(cell, edge + 1, top) for top, cells in text for cell, edge in zip(cells, _EDGES, strict=False) if cell]
    ruled = [Rule(_EDGES[0], y, _EDGES[-1], y) for y in rules]
    return [row_cells(row, _EDGES) for row in join_rows(printed_rows(lines), ruled, _EDGES)]


def test_a_row_label_centred_beside_a_cell_wrapped_over_three_lines_is_one_row() -> None:
    text = [
        (86.0, ("Findings", "Imaging", "Labs", "Treatment")),
        (100.0, ("", "MRI: mass in the sphenoid", "", "")),
        (112.0, ("Ptosis", "sinus, invading the clivus", "None", "Surgery")),
        (124.0, ("", "and the cavernous sinus", "", "")),
        (138.0, ("None", "CT: clival lesion", "PRL = 7", "Cabergoline")),
        (152.0, ("", "MRI: erosive mass in", "", "")),
        (164.0, ("Unknown", "the clivus, the sella", "PRL = 178", "Resection")),
        (176.0, ("", "normal", "", "")),
    ]
    cells = _ruled_cells(text, [84.0, 98.0, 136.0, 150.0, 188.0])
    assert cells == [
        ["Findings", "Imaging", "Labs", "Treatment"],
        ["Ptosis", "MRI: mass in the sphenoid sinus, invading the clivus and the cavernous sinus", "None", "Surgery"],
        ["None", "CT: clival lesion", "PRL = 7", "Cabergoline"],
        ["Unknown", "MRI: erosive mass in the clivus, the sella normal", "PRL = 178", "Resection"],
    ]


def test_rows_of_a_group_beside_its_centred_label_stay_rows() -> None:
    # the rows above and below the label fill every column beside it: rows of its group, not lines
    # of cells wrapped around it
    text = [
        (86.0, ("Variable", "Level", "Count", "Share")),
        (100.0, ("", "female", "12", "40 %")),
        (112.0, ("Sex", "male", "15", "50 %")),
        (124.0, ("", "other", "3", "10 %")),
        (138.0, ("Age", "adult", "30", "100 %")),
    ]
    cells = _ruled_cells(text, [84.0, 98.0, 136.0, 150.0])
    assert [row[1] for row in cells] == ["Level", "female", "male", "other", "adult"]


def test_a_header_label_wider_than_its_column_stays_whole() -> None:
    # the label runs on over the white between its column and the next: the middle of that white
    # falls in one of its words, which parts no cells ("labs (ng/mL)" is not the next column's)
    labels = ["Abnormal", "preoperative", "labs", "(ng/mL)"]
    words, x = [], 171.0
    for word in labels:
        words.append((word, x, x + _CHAR * len(word)))
        x += _CHAR * (len(word) + 1)
    words.append(("Treatment", 361.0, 406.0))
    header = Line(" ".join([*labels, "Treatment"]), 1, 171.0, 100.0, 406.0, 110.0, 10.0, False, False, "Times", words=words)
    lines = [_line("Findings", 51, 100), header]
    for row, (finding, lab, treatment) in enumerate(
        (("Ptosis", "None", "Surgery"), ("None", "PRL = 7", "Cabergoline"), ("Unknown", "GH = 30", "Resection"))
    ):
        top = 114.0 + 14 * row
        lines += [_line(finding, 51, top), _line(lab, 171, top), _line(treatment, 361, top)]
    cells = table_rows(lines, [], (0.0, 0.0, 612.0, 792.0), Region((50.0, 98.0, 440.0, 160.0)))
    assert cells is not None
    assert cells[0] == ["Findings", "Abnormal preoperative labs (ng/mL)", "Treatment"]


@needs_pairs
def test_a_hindawi_part_with_centred_row_labels_has_the_rows_of_its_jats() -> None:
    # Case Reports in Neurological Medicine's Table 2 (b): lines over and under each row's
    # centred label were rows of their own (26 rows where the JATS has 18), and the header's
    # "labs (ng/mL)" went to the next column
    document = parse_pdf(PAIRS / "crneurolmed-2016-clival-pituitary-adenoma.pdf")
    part = next(table for table in document.tables if table.label == "2 (b)")
    assert len(part.cells) == 18
    assert part.cells[0] == [
        "Focal neurological findings",
        "Imaging",
        "Abnormal preoperative labs (ng/mL)",
        "Treatment",
        "Follow-up; outcomes",
    ]
    assert part.cells[1][:3] == [
        "Oculomotor and trigeminal nerve palsies",
        "Skull XR: mottling, sclerosis of sella turcica, and lesser wing of sphenoid. CT: normal. Carotid angiogram: medial displacement of ICA",
        "None",
    ]


@needs_pairs
def test_labels_centred_over_a_wrapped_header_label_make_one_header_row_and_a_spanning_label_two() -> None:
    # Journal of Toxicology centres "Test substance" and "S9" on a header whose last label is
    # wrapped over two lines: one header row (it was two). Its Table 7 centres "Study" beside a
    # label spanning the two under it ("Cage side observations" over "Dose" and "Observed
    # signs"): a header of two levels, two rows as in its JATS
    document = parse_pdf(PAIRS / "jtoxicol-2018-herbal-feed-toxicity.pdf")
    tables = {table.label: table for table in document.tables}
    assert tables["2"].cells[0] == ["Test substance", "S9", "Test substance concentrations (μg/ml)"]
    assert tables["7"].cells[0][2] == "Cage side observations"
    assert tables["7"].cells[1][2:4] == ["Dose (g/kg body weight)", "Observed signs"]


def test_a_header_label_set_flush_right_over_its_numbers_is_that_columns() -> None:
    # JSS sets "Relative to R API" flush right over its column of numbers: it starts left of the
    # middle of the white before that column, which runs through "Relative"; most of it is over
    # the column, so it is that column's label ("Time in ms Relative" | "to R" without it)
    labels = [("Time", 200.0), ("in", 225.0), ("ms", 240.0), ("Relative", 285.0), ("to", 330.0), ("R", 345.0)]
    words = [(word, x, x + _CHAR * len(word)) for word, x in labels]
    header = Line("Time in ms Relative to R", 1, 200.0, 100.0, 350.0, 110.0, 10.0, False, False, "Times", words=words)
    lines = [_line("Implementation", 51, 100), header]
    for row, (name, time, ratio) in enumerate((("R API", "218", "1.00"), ("Rcpp sugar", "145", "0.67"), ("Rcpp iterator", "217", "1.00"))):
        top = 114.0 + 14 * row
        lines += [_line(name, 51, top), _line(time, 250 - _CHAR * len(time), top), _line(ratio, 350 - _CHAR * len(ratio), top)]
    cells = table_rows(lines, [], (0.0, 0.0, 612.0, 792.0), Region((50.0, 98.0, 400.0, 160.0)))
    assert cells is not None
    assert cells[0] == ["Implementation", "Time in ms", "Relative to R"]
