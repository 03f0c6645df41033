"""Two table-engine rules found on real papers (pmc-pairs, development part): a group's next row
is a row, not a wrapped cell; a table set under its own caption is not taken for the next one's."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from paperpyramid.eval.table_scores import TableGrid, exact_cell_recall, load_gold_tables
from paperpyramid.parsers.embedded.layout import extract_page
from paperpyramid.parsers.embedded.table_engine import extract_table
from paperpyramid.parsers.embedded.table_rules import BBox


def _caption(pdf_path: Path, label: str) -> tuple[int, BBox]:
    pdf = pdfium.PdfDocument(pdf_path)
    try:
        for index in range(len(pdf)):
            for line in extract_page(pdf[index], index + 1).lines:
                if line.text.startswith(label):
                    return index + 1, (line.x0, line.top, line.x1, line.bottom)
    finally:
        pdf.close()
    raise AssertionError(f"no caption {label!r} in {pdf_path.name}")


def _read(pmc_pairs: Path, stem: str, label: str) -> tuple[TableGrid, TableGrid]:
    pdf = pmc_pairs / f"{stem}.pdf"
    page, caption = _caption(pdf, label + ":")
    rows = extract_table(pdf, page, caption)
    assert rows is not None
    gold = next(table for table in load_gold_tables(pmc_pairs / f"{stem}.nxml") if table.label == label)
    return gold, TableGrid(label, "", tuple(tuple(row) for row in rows))


def test_each_row_of_a_group_is_its_own_row(pmc_pairs: Path) -> None:
    # "TA 98 | −S9 | 1.00 ± 1.73 …" then "| +S9 | 1.67 ± 1.53 …", set tight (their boxes
    # overlap): two rows, not one row with every cell holding two values
    gold, found = _read(pmc_pairs, "jtoxicol-2018-herbal-feed-toxicity", "Table 3")
    assert any(row[1] == "+S9" and row[2] == "1.67 ± 1.53" for row in found.rows)
    assert not any("−S9 +S9" in cell for row in found.rows for cell in row)
    assert (exact_cell_recall(gold, found) or 0.0) >= 0.85


def test_a_table_under_its_caption_is_not_the_next_captions(pmc_pairs: Path) -> None:
    # Hindawi: "Table 2: …" over its ruled table, then "Table 3: …" 15 pt under Table 2's
    # bottom rule, over its own; Table 3 used to take Table 2's cells as a table set above it
    gold, found = _read(pmc_pairs, "scientifica-2016-pmtct-hiv", "Table 3")
    cells = {cell for row in found.rows for cell in row}
    assert "297 (84.9)" in cells and "Correct response (%)" not in cells
    assert (exact_cell_recall(gold, found) or 0.0) >= 0.8
