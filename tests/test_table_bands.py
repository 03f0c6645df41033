"""Tables of sentences ruled row by row: each band between two rules across the table is a row
(the column finder sees no columns in them, and they read as prose before)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import page_pdf
from paperpyramid.eval.table_scores import TableGrid, exact_cell_recall, load_gold_tables
from paperpyramid.parsers.embedded.table_engine import extract_table
from tests.test_table_groups import _caption  # a real paper's caption box, found as that test finds it


def _ruled_pdf(rows: list[list[str]], columns: list[float], divider: float | None = None) -> bytes:
    """A page with a caption and ``rows`` set at the x of ``columns``, a rule across the table
    over and under each row, and a vertical rule at ``divider`` through the first two rows."""
    ops = ["BT /F1 10 Tf 72 720 Td (Table 1. Problem description.) Tj ET", "0.5 w"]
    y = 700.0
    ops.append(f"72 {y} m 540 {y} l S")
    for index, row in enumerate(rows):
        for x, text in zip(columns, row, strict=False):
            if text:
                ops.append(f"BT /F1 9 Tf {x:g} {y - 12:g} Td ({text}) Tj ET")
        if divider is not None and index < 2:
            ops.append(f"{divider:g} {y} m {divider:g} {y - 16:g} l S")
        y -= 16
        ops.append(f"72 {y:g} m 540 {y:g} l S")
    ops.append(f"BT /F1 10 Tf 72 {y - 40:g} Td (The running text of the paper goes on under the table.) Tj ET")
    return helvetica_page(ops)


def helvetica_page(ops: list[str]) -> bytes:
    """A one-page PDF of the content operators ``ops``, with Helvetica as /F1."""
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
    return page_pdf("\n".join(ops).encode("latin-1"), b"/Font << /F1 5 0 R >>", font)


def _read(tmp_path: Path, pdf: bytes) -> list[list[str]] | None:
    path = tmp_path / "table.pdf"
    path.write_bytes(pdf)
    page, caption = _caption(path, "Table 1.")
    return extract_table(path, page, caption)


SENTENCES = [
    ["Goal", "Objectives"],
    ["To translocate healthy deer", "Identify and minimise the risks"],
    ["Populations of interest", ""],
    ["Marsh deer potentially translocated from one wetland to the other one", ""],
    ["Wildlife in and around the park that could transmit pathogens to the deer", ""],
    ["Assumptions", ""],
    ["Wildlife in the park may harbour pathogens for the translocated deer", ""],
]


def test_a_table_of_sentences_ruled_row_by_row_is_read_row_by_row(tmp_path: Path) -> None:
    rows = _read(tmp_path, _ruled_pdf(SENTENCES, [76, 310], divider=300))
    assert rows == SENTENCES


def test_a_ruled_table_of_values_is_still_read_by_its_columns(tmp_path: Path) -> None:
    # rules across every row but no vertical rule: the values' columns are the column finder's
    values = [["Hazard", "Deer risk", "Wildlife risk", "Zoonotic"]] + [
        [f"Hazard {n}", f"{n} (low)", f"{n + 1} (high)", "yes"] for n in range(1, 7)
    ]
    rows = _read(tmp_path, _ruled_pdf(values, [76, 250, 350, 460]))
    assert rows == values


def test_the_real_problem_description_table(pmc_pairs: Path) -> None:
    # PLOS ONE, development part: 21 rows of sentences, each ruled across; empty before
    stem = "plosone-2025-translocation-disease-risk"
    page, caption = _caption(pmc_pairs / f"{stem}.pdf", "Table 1.")
    rows = extract_table(pmc_pairs / f"{stem}.pdf", page, caption)
    assert rows is not None
    gold = next(table for table in load_gold_tables(pmc_pairs / f"{stem}.nxml") if table.label == "Table 1")
    assert exact_cell_recall(gold, TableGrid("Table 1", "", tuple(tuple(row) for row in rows))) >= 0.9


def test_a_grid_of_shaded_cells_keeps_every_column_and_leaves_its_notes(pmc_pairs: Path) -> None:
    # PLOS ONE, development part: Table 4's rows ruled across, its columns ruled by shaded
    # cells; the column finder lost the first and last columns and read the notes as rows
    stem = "plosone-2025-translocation-disease-risk"
    page, caption = _caption(pmc_pairs / f"{stem}.pdf", "Table 4.")
    rows = extract_table(pmc_pairs / f"{stem}.pdf", page, caption)
    assert rows is not None
    assert ["Rabies (Rabies virus)", "16 (high)", "1 (negligible)", "1", "medium", "yes"] in rows
    assert not any(row[0].startswith(("*", "°", "https://doi.org")) for row in rows)
