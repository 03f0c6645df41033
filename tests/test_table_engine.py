"""The table engine prototype reads the cells under a "Table N" caption as the JATS gold has them."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from paperpyramid.eval.table_scores import TableGrid, exact_cell_recall, load_gold_tables, structure_score
from paperpyramid.parsers.embedded.layout import Line, extract_page
from paperpyramid.parsers.embedded.table_engine import extract_table
from paperpyramid.parsers.embedded.table_rules import BBox
from tests.conftest import GOLD, SAMPLE

PLOS = "plos-one-2014-fanged-frog-internal-fertilization.pdf"
MDPI = "mdpi-metabolites-2014-durum-wheat-volatiles.pdf"
BMC = "bmc-health-serv-res-2014-barriers.pdf"

pytest.importorskip("pdfplumber", reason="the table engine's ruled-grid step needs pdfplumber")


def _page_lines(pdf_path: Path, page_number: int) -> list[Line]:
    pdf = pdfium.PdfDocument(pdf_path)
    try:
        page = pdf[page_number - 1]
        try:
            return extract_page(page, page_number).lines
        finally:
            page.close()
    finally:
        pdf.close()


def _caption_box(pdf_path: Path, page_number: int, label: str) -> BBox:
    """The first line of the caption only, as the parser's caption block often is."""
    line = next(line for line in _page_lines(pdf_path, page_number) if line.text.startswith(label))
    return (line.x0, line.top, line.x1, line.bottom)


def _gold(pdf_name: str) -> TableGrid:
    (table,) = load_gold_tables(GOLD / pdf_name.replace(".pdf", ".nxml"))
    return table


def _grid(rows: list[list[str]] | None) -> TableGrid:
    assert rows is not None
    return TableGrid("Table 1", "", tuple(tuple(row) for row in rows))


def test_mdpi_table_matches_the_gold_and_leaves_the_caption_out() -> None:
    # the caption's second line ("grains in the presence ...") used to become a row
    rows = extract_table(SAMPLE / MDPI, 4, _caption_box(SAMPLE / MDPI, 4, "Table 1."))
    gold, found = _gold(MDPI), _grid(rows)
    assert found.shape == gold.shape == (30, 3)
    assert (exact_cell_recall(gold, found) or 0.0) >= 0.95
    assert found.rows[1] == ("1", "2-Methylfuran", "Aromatics")  # no column shift
    assert not any("grains in the presence" in cell for row in found.rows for cell in row)


def test_plos_table_keeps_shaded_rows_and_drops_the_doi_note() -> None:
    rows = extract_table(SAMPLE / PLOS, 9, _caption_box(SAMPLE / PLOS, 9, "Table 1."))
    gold, found = _gold(PLOS), _grid(rows)
    assert structure_score(gold, found) == 1.0
    assert (exact_cell_recall(gold, found) or 0.0) >= 0.95
    assert found.rows[-1][0] == "TI/TD"
    assert not any(cell.startswith("doi:") for row in found.rows for cell in row)


def test_narrow_table_in_one_column_takes_no_prose_from_the_other() -> None:
    rows = extract_table(SAMPLE / BMC, 4, _caption_box(SAMPLE / BMC, 4, "Table 1"))
    assert rows is not None
    assert ["Privacy given", "99", "1", "97"] in rows
    assert all(len(cell) < 60 for row in rows for cell in row)  # no line of running text in a cell


@pytest.mark.parametrize(("pdf_name", "page_number"), [(MDPI, 2), (PLOS, 3)])
def test_running_text_under_a_caption_is_not_a_table(pdf_name: str, page_number: int) -> None:
    # a "caption" box over a page of prose: the engine finds no table, the parser keeps its own cells
    line = sorted(_page_lines(SAMPLE / pdf_name, page_number), key=lambda line: line.top)[8]
    assert extract_table(SAMPLE / pdf_name, page_number, (line.x0, line.top, line.x1, line.bottom)) is None
