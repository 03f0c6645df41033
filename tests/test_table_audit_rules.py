"""Table-engine rules found by the gold-free audit (``benchmarks/table_audit.py``) on the shared
corpus: group labels centred across tight numeric columns (and prose over a table is no such
label), a caption whose table is printed above it while the next table's sits under it, captions
numbered in Roman numerals. Also the audit's own signs, on grids made to show each."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic import generate
from benchmarks.synthetic.scoring import extracted_tables, score_paper
from benchmarks.table_audit import signs
from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.parsers.embedded.table_engine import extract_table
from tests.pdf_maker import placed_pdf
from tests.test_table_groups import _caption


def _read(corpus: Path, stem: str, opening: str) -> list[list[str]]:
    pdf = corpus / f"{stem}.pdf"
    rows = extract_table(pdf, *_caption(pdf, opening))
    assert rows is not None
    return rows


def test_group_labels_across_tight_columns_leave_them_apart(shared_corpus: Path) -> None:
    # two tables side by side under one caption, R-1 / R-2 / R-L set 8 pt apart; a group label
    # centred over them in every third row ("L → S Fine-tuning") used to close the rivers
    # between them, so each row held "54.32 35.62 42.58" in one cell
    rows = _read(shared_corpus, "arxiv-2206.10883-multi-lexsum-37pages", "Table 4:")
    pegasus = next(row for row in rows if row[0] == "PEGASUS")
    assert pegasus[1:6] == ["54.32", "35.62", "42.58", "47.49", "156.8"]
    assert not any(" " in cell and cell.replace(".", "").replace(" ", "").isdigit() for row in rows for cell in row)


def test_prose_over_a_table_is_no_label_across_its_columns(tmp_path: Path) -> None:
    # a generated dev paper (seed 47, unruled, caption below): the region over the caption
    # takes two lines of the paragraph above the table; lines across the whole table are
    # prose, not group labels, and add no columns (the parser's own cells stand, as before)
    data, gold = generate(47, "unruled")
    path = tmp_path / "dev-47-unruled.pdf"
    path.write_bytes(data)
    [table] = score_paper(gold, extracted_tables(parse_pdf(path))).tables
    assert table.exact_cell_recall >= 0.9


def test_caption_under_its_table_does_not_take_the_next_table(shared_corpus: Path) -> None:
    # a page of two tables, each caption set under its table (ACL style, a subcaption between
    # the table and its caption): the region under Table 6's caption is Table 7's (its own
    # caption hugs it from below), so Table 6 is read over its caption
    rows = _read(shared_corpus, "emnlp-2020-scifact-arxiv-2004.14974-compiled", "Table 6:")
    cells = {cell for row in rows for cell in row}
    assert "80.53.3" in cells  # Table 6, test set: Oracle rationale, R
    assert "81.93.2" not in cells  # Table 7, dev set


def test_audit_signs_on_made_grids() -> None:
    header = ["Model", "P", "R", "F1"]
    clean = [header, ["A", "1.0", "2.0", "3.0"], ["B", "1.5", "2.5", "3.5"], ["C", "0.5", "0.1", "0.2"], ["D", "1", "2", "3"]]
    assert signs(clean) == {}
    merged = [header, ["A", "1.0 2.0", "3.0", ""], ["B", "1.5 2.5", "3.5", ""], ["C", "0.5 0.1", "0.2", ""], ["D", "1 2", "3", ""]]
    found = signs(merged)
    assert found["merged"] == 4 and found["empty_column"] == 1
    spilled = [header, ["A", "1.0", "2.0", "3.0"], ["B", "1.5", "see note", "3.5"], ["C", "0.5", "0.1", "0.2"], ["D", "1", "2", "3"]]
    assert signs(spilled) == {"spilled": 1}
    assert signs([]) == {"no_cells": 3}


def test_a_table_ends_at_the_next_caption_numbered_in_roman(tmp_path: Path) -> None:
    # two tables under captions numbered "TABLE I" and "TABLE II" (IEEE and some journals'
    # style): the first ends at the second's caption, not at the page's end
    items = [(72.0, 720.0, 10.0, "TABLE I. Results of the first trial.")]
    rows_i = [("Group", "Mean", "SD"), ("Control", "12.1", "1.4"), ("Treated", "15.3", "2.2"), ("Placebo", "11.8", "1.9")]
    rows_ii = [("Site", "Cases", "Rate"), ("North", "41", "0.12"), ("South", "57", "0.19"), ("East", "33", "0.08")]
    y = 700.0
    for row in rows_i:
        items += [(72.0 + 80.0 * index, y, 9.0, cell) for index, cell in enumerate(row)]
        y -= 14.0
    y -= 16.0
    items.append((72.0, y, 10.0, "TABLE II. Cases by site."))
    y -= 20.0
    for row in rows_ii:
        items += [(72.0 + 80.0 * index, y, 9.0, cell) for index, cell in enumerate(row)]
        y -= 14.0
    pdf = tmp_path / "roman.pdf"
    pdf.write_bytes(placed_pdf([items]))
    assert extract_table(pdf, *_caption(pdf, "TABLE I.")) == [list(row) for row in rows_i]
    assert extract_table(pdf, *_caption(pdf, "TABLE II.")) == [list(row) for row in rows_ii]
