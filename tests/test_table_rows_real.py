"""Table-engine rules found on real papers (pmc-pairs, development part), one test per rule:
where a table spanning a two-column page ends, rows ruled apart, labels set between rows, marks
("X") set a cell apart, and group headings centred across the table."""

from __future__ import annotations

from pathlib import Path

from paperpyramid.eval.table_scores import TableGrid, exact_cell_recall, load_gold_tables
from paperpyramid.parsers.embedded.table_engine import extract_table
from tests.test_table_groups import _caption


def _read(pmc_pairs: Path, stem: str, opening: str) -> list[list[str]]:
    pdf = pmc_pairs / f"{stem}.pdf"
    rows = extract_table(pdf, *_caption(pdf, opening))
    assert rows is not None
    return rows


def _recall(pmc_pairs: Path, stem: str, label: str, rows: list[list[str]]) -> float:
    gold = next(table for table in load_gold_tables(pmc_pairs / f"{stem}.nxml") if table.label == label)
    return exact_cell_recall(gold, TableGrid(label, "", tuple(tuple(row) for row in rows))) or 0.0


def test_a_table_across_a_two_column_page_ends_at_its_bottom_rule(pmc_pairs: Path) -> None:
    # a table across the page, then running text in two columns under its bottom rule: the
    # text's margins are one pair per column, so its lines end the table (they used to be read
    # as rows, and their column gap as the table's only column break)
    stem = "jorthopsurgres-2018-prf-rotator-cuff"
    rows = _read(pmc_pairs, stem, "Table 2 Subgroup")
    assert rows[0] == ["Subgroup", "No. trials", "Relative risk (95% CI)", "P value", "I 2 (%)", "Test of interaction, P"]
    assert rows[-1][0] == "Large-massive"
    assert not any("platelet" in cell for row in rows for cell in row)
    assert _recall(pmc_pairs, stem, "Table 2", rows) >= 0.95


def test_rows_ruled_apart_hold_their_wrapped_lines(pmc_pairs: Path) -> None:
    # a rule between every two rows, each cell wrapped over up to eleven lines set at the
    # leading of text (no gap tells a row from a wrapped line): one row per band
    rows = _read(pmc_pairs, "frontmicrobiol-2018-waterlogging-pgpr", "TABLE 1 |")
    assert len(rows) == 3
    assert rows[0][4] == "Evaluated characteristics: physiological, biochemical, or molecular"
    assert rows[1][:2] == ["Lycopersicon esculentum", "Pseudomonas sp. UW4"]
    assert rows[1][2].startswith("Growth chamber Tomato seeds in petri dishes") and rows[1][2].endswith("600 nm were added.")
    assert rows[2][0] == "Cucumis sativus L. cv."


def test_each_row_of_side_by_side_groups_is_its_own_row(pmc_pairs: Path) -> None:
    # four tables side by side under one header, each row label ("NC") set midway between its
    # "−S9" and "+S9" rows: the label goes with the first, and the "+S9" row (every column but
    # the four label columns, values in most) is a row, not the first row's cells wrapped
    stem = "jtoxicol-2018-herbal-feed-toxicity"
    rows = _read(pmc_pairs, stem, "Table 1:")
    assert rows[2][:4] == ["NC", "−S9", "0.335", "NA"]
    assert rows[3][:4] == ["", "+S9", "0.475", "NA"]
    assert not any("−S9 +S9" in cell for row in rows for cell in row)
    assert _recall(pmc_pairs, stem, "Table 1", rows) >= 0.95


def test_marks_set_a_cell_apart_are_cells(pmc_pairs: Path) -> None:
    # "X X X" under columns 1 to 10, each mark 17 pt from the next: the marks' gaps are not the
    # table's word space, and marks spaced evenly are not a line of justified text
    stem = "nutrients-2018-protein-exercise-metaanalysis"
    rows = _read(pmc_pairs, stem, "Table 2.")
    assert all(len(row) == 13 for row in rows)
    assert ["Beck 2016 [41]", "6/10", "X", "X", "", "X", "", "", "", "X", "X", "X", "X"] in rows
    assert _recall(pmc_pairs, stem, "Table 2", rows) >= 0.95


def test_a_label_set_across_its_two_rows(pmc_pairs: Path) -> None:
    # "Knee Society Score" set midway beside "KSS1 (100) | 81.1 (54–94)" and "KSS2 (100) |
    # 74.5 (−20–100)", overlapping each by less than half its height: the label goes with the
    # first row and the second stays a row; the caption's last line ("22)."), reported in
    # another font size but set at the caption's height, is the caption's, not a row
    rows = _read(pmc_pairs, "biomedresint-2016-tibia-arthroplasty", "Table 3:")
    assert rows == [
        ["", "Score (max)", "Mean score (range)"],
        ["Knee Society Score", "KSS1 (100)", "81.1 (54–94)"],
        ["", "KSS2 (100)", "74.5 (−20–100)"],
        ["WOMAC score", "WOMAC (100)", "78.6 (36.7–96.2)"],
    ]


def test_a_group_heading_centred_across_the_table_is_its_first_cell(pmc_pairs: Path) -> None:
    # "Quality of evidence" and "Strength of a recommendation" set centred over both columns,
    # their left edges in the second: each heads its group in the first cell, as a cell spanning
    # the row keeps its text in its first column
    stem = "grp-2016-capsule-endoscopy-prep"
    rows = _read(pmc_pairs, stem, "Table 1:")
    assert rows[0] == ["Quality of evidence", ""]
    assert ["Strength of a recommendation", ""] in rows
    assert rows[1][0] == "High quality"
