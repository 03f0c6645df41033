"""Table-engine rules from a second look at the audit's flagged tables (``benchmarks/table_audit.py``)
and at Unstructured's recorded tables, one test per rule, each on the real PDF it was found on:
a banner bleeding off the page is no table rule, a list of numbers is one cell, a label over its
subheads spans them, a grid of boxed cells with open sides keeps its outer columns, a ruled cell
is cut at its words' edges, paragraphs set side by side are one row, columns ruled over unruled
rows are read by the text, and shaded columns leave no empty column."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from benchmarks.table_audit import signs
from paperpyramid.eval.table_scores import TableGrid, exact_cell_recall, load_gold_tables, table_teds
from paperpyramid.parsers.embedded.table_bands import split_at
from paperpyramid.parsers.embedded.table_engine import extract_table, read_table_page
from tests.conftest import SHARED
from tests.test_table_groups import _caption


def _read(folder: Path, stem: str, opening: str) -> list[list[str]]:
    pdf = folder / f"{stem}.pdf"
    rows = extract_table(pdf, *_caption(pdf, opening))
    assert rows is not None
    return rows


def _gold(folder: Path, stem: str, label: str) -> TableGrid:
    return next(table for table in load_gold_tables(folder / f"{stem}.nxml") if table.label == label)


def _grid(rows: list[list[str]]) -> TableGrid:
    return TableGrid(None, "", tuple(tuple(row) for row in rows))


def test_a_banner_bleeding_off_the_page_rules_off_no_table(pmc_pairs: Path) -> None:
    # a fully ruled table printed over its caption at the top of a page whose running head sits
    # in a shaded bar running off the page's edges: the bar's sides used to join the rules over
    # the caption, so the region took in the running head, no grid was found at its top, and
    # the columns were read from the text (pairs of "36±12.3 42±15.3" in one cell)
    stem = "scirep-2018-biogenic-nanoparticles-bioprocess"
    rows = _read(pmc_pairs, stem, "Table 9.")
    gold = _gold(pmc_pairs, stem, "Table 9")
    assert (len(rows), max(map(len, rows))) == gold.shape == (11, 14)
    # the PDF sets "±" between thin spaces, the JATS between spaces: compare without them
    assert [[cell.replace(" ", "") for cell in row] for row in rows] == [[cell.replace(" ", "") for cell in row] for row in gold.rows]


def test_a_list_of_numbers_is_one_cell(pmc_pairs: Path) -> None:
    # an "Outcomes" column of lists ("1, 2, 3, 5"): the items' digits line up row under row, and
    # the spaces after their commas were taken for rivers between columns of numbers
    rows = _read(pmc_pairs, "jorthopsurgres-2018-prf-rotator-cuff", "Table 1 General")
    assert max(map(len, rows)) == 10
    outcomes = {row[0]: row[-1] for row in rows}
    assert outcomes["Bergeson 2012"] == "1, 2, 3, 5"
    assert outcomes["Weber 2013"] == "1, 2, 3, 4, 5"


def test_a_label_over_its_subheads_is_one_cell(pmc_pairs: Path) -> None:
    # "Mean age" and "No. of patients" each centred over a "PRF" and a "Control" column: one
    # cell each, in the first column they span (they were cut word by word into both)
    stem = "jorthopsurgres-2018-prf-rotator-cuff"
    rows = _read(pmc_pairs, stem, "Table 1 General")
    assert rows[0][4:8] == ["Mean age", "", "No. of patients", ""]
    assert rows[1][4:8] == ["PRF", "Control", "PRF", "Control"]
    assert exact_cell_recall(_gold(pmc_pairs, stem, "Table 1"), _grid(rows)) == 1.0


def test_group_labels_ruled_over_their_columns_head_them(pmc_pairs: Path) -> None:
    # shaded header rows ruled apart: "Hematological parameters" centred over four columns, a
    # rule under it across them; the subheads under the rule are one row, the group labels the
    # row over it (a column with no text over the rule used to put its subhead in the first row)
    stem = "plosone-2018-ursolic-acid-nlc"
    rows = _read(pmc_pairs, stem, "Table 3.")
    assert "Hematological parameters" in rows[0] and "Inflammatory mediators" in rows[0]
    assert rows[1][1:] == [
        "RBC (million/cu.mm)",
        "WBC (cells/cu.mm)",
        "ESR (mm/h)",
        "Hb (gm%)",
        "TNF-α (ng/mL)",
        "IL-1 (ng/mL)",
        "COX-1",
        "COX-2",
    ]
    assert (table_teds(_gold(pmc_pairs, stem, "Table 3"), _grid(rows)) or 0.0) >= 0.9


def test_a_grid_of_boxed_cells_keeps_its_open_sides(pmc_pairs: Path) -> None:
    # a calendar of shaded cells: the row labels' column is ruled only between its rows (no
    # side on its left), and the header's last cell has no right side; both used to be dropped
    stem = "plosone-2025-translocation-disease-risk"
    rows = _read(pmc_pairs, stem, "Table 6.")
    assert tuple(tuple(row) for row in rows) == _gold(pmc_pairs, stem, "Table 6").rows


def test_a_ruled_cell_is_cut_at_its_words_edges(pmc_pairs: Path) -> None:
    # "Germany SR vs SB" set as one line across a column rule: cut at the gap its words leave
    # there, not where equally wide characters would put the rule ("Germany SR | vs SB")
    stem = "scirep-2019-rotator-cuff-repair-nma"
    pdf = pdfium.PdfDocument(pmc_pairs / f"{stem}.pdf")
    try:
        lines, rules, _ = read_table_page(pdf, 3)
    finally:
        pdf.close()
    line = next(line for line in lines if line.text == "Germany SR vs SB")
    assert line.words is not None
    crossing = [rule.x0 for rule in rules if not rule.horizontal and line.x0 < rule.x0 < line.x1 and rule.top <= line.mid_y <= rule.bottom]
    assert crossing  # the column rule between "Germany" and "SR vs SB"
    assert [piece.text for piece in split_at(line, crossing)] == ["Germany", "SR vs SB"]
    rows = _read(pmc_pairs, stem, "Table 1.")
    assert next(row for row in rows if row[0] == "Gerhardt 2012")[:3] == ["Gerhardt 2012", "Germany", "SR vs SB"]
    assert exact_cell_recall(_gold(pmc_pairs, stem, "Table 1"), _grid(rows)) == 1.0


def test_paragraphs_side_by_side_are_one_row(shared_corpus: Path) -> None:
    # a quotation and its translation, each a paragraph in its column, lines set at one pitch
    # (no gap tells a row): each line wraps where the next one's first word would not fit, so
    # the lines are one cell each; they used to be a row each
    stem = "bmc-j-ethnobiol-ethnomed-2015-landscape-ethnoecology"
    rows = _read(shared_corpus, stem, "Table 10")
    assert tuple(tuple(row) for row in rows) == _gold(shared_corpus, stem, "Table 10").rows
    # a table of short text cells whose rows sit apart, group headings between them, is not joined
    nine = _read(shared_corpus, stem, "Table 9 Reconstructed")
    assert exact_cell_recall(_gold(shared_corpus, stem, "Table 9"), _grid(nine)) == 1.0


def test_columns_ruled_over_unruled_rows_are_read_by_the_text(shared_corpus: Path) -> None:
    # rules between the middle columns only, the body one box between the header rule and the
    # bottom rule: the lattice read the body as one row of the two ruled columns ("F / M M F F
    # F / M") and lost the first and last columns; Unstructured's recorded table (YOLOX) reads
    # the same 4 columns and 5 body rows
    rows = _read(shared_corpus, "layoutparser-2021-single-page-table", "Table 1:")
    assert max(map(len, rows)) == 4
    assert rows[1:] == [
        ["PubLayNet [38]", "F / M", "M", "Layouts of modern scientific documents"],
        ["PRImA [3]", "M", "-", "Layouts of scanned modern magazines and scientific reports"],
        ["Newspaper [17]", "F", "-", "Layouts of scanned US newspapers from the 20th century"],
        ["TableBank [18]", "F", "F", "Table region on modern scientific and business document"],
        ["HJDataset [31]", "F / M", "-", "Layouts of history Japanese documents"],
    ]


def test_a_grid_of_wrapped_cells_stays_a_grid(pmc_pairs: Path) -> None:
    # a risk matrix of boxed cells, each a list wrapped over lines, narrow row labels broken
    # over lines ("CONSE-" / "QUENCES"): rows of text in one box, but wrapped, not stacked
    stem = "plosone-2025-translocation-disease-risk"
    rows = _read(pmc_pairs, stem, "Table 3.")
    assert (len(rows), max(map(len, rows))) == (6, 6)
    assert (table_teds(_gold(pmc_pairs, stem, "Table 3"), _grid(rows)) or 0.0) >= 0.95


@pytest.fixture
def recorded_unstructured() -> Path:
    folder = SHARED / "recorded" / "unstructured"
    if not (folder / "2023-Jan-economic-outlook.pdf").is_file():
        pytest.skip(f"../shared/recorded/unstructured not present ({folder}): these tests run only beside the project's shared material")
    return folder


def test_shaded_columns_leave_no_empty_column(recorded_unstructured: Path) -> None:
    # a table read by its rules (shaded column groups, rows ruled apart): the sides of two shaded
    # groups a gutter apart used to make a column of nothing, and a label spanning a group
    # ("Q4 over Q4 2/") was cut where a shaded column under it starts; Unstructured's recorded
    # table (YOLOX) reads the same 10 value columns
    rows = _read(recorded_unstructured, "2023-Jan-economic-outlook", "Table 1.")
    width = max(map(len, rows))
    assert all(any(row[column] for row in rows) for column in range(width))
    assert any("Q4 over Q4 2/" in cell for row in rows for cell in row)
    world = next(row for row in rows if row[0] == "World Output")
    assert [cell for cell in world[1:] if cell] == ["6.2", "3.4", "2.9", "3.1", "0.2", "–0.1", "1.9", "3.2", "3.0"]


def test_audit_signs_leave_lists_and_short_bodies_alone() -> None:
    # the audit flagged a column of lists ("1, 2, 5") as two numbers in a cell, and every
    # column of a table with one or two body rows as empty
    lists = [["Study", "Outcomes"], ["A", "1, 2, 5"], ["B", "1, 4"], ["C", "3"]]
    assert "merged" not in signs(lists)
    assert signs([["Study", "Outcomes"], ["A", "1 2"], ["B", "3 4"], ["C", "5"]])["merged"] == 2
    assert "empty_column" not in signs([["Original", "Translation"], ["a long paragraph", "another long paragraph"]])
