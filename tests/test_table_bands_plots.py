"""A plot's frame and grid lines under a table's caption are no table of sentences. JSS sets a
table's caption under its table, and a figure may follow close under that caption: in poweRlaw's
paper (an unseen batch) the plot's grid lines, once placed where its form XObject draws them,
banded its tick numbers and points under Table 3's caption, and the caption took them for its
table instead of the table printed above it."""

from __future__ import annotations

from pathlib import Path

from tests.test_table_bands import SENTENCES, _read, _ruled_pdf, helvetica_page

TABLE = [
    ["Distribution", "Class name", "Parameters"],
    ["Discrete power law", "displ", "1"],
    ["Discrete log normal", "dislnorm", "2"],
    ["Poisson", "dispois", "1"],
]


def _table_caption_then_plot() -> bytes:
    """A booktabs table, its caption under it, then a plot's frame with a grid line at every tick."""
    ops = ["0.5 w", "150 740 m 460 740 l S", "150 726 m 460 726 l S"]
    y = 730.0
    for index, row in enumerate(TABLE):
        y -= 14 if index else 0
        for x, text in zip((154, 300, 400), row, strict=True):
            ops.append(f"BT /F1 9 Tf {x} {y - 1 if index else 729} Td ({text}) Tj ET")
    ops.append(f"150 {y - 6:g} m 460 {y - 6:g} l S")
    ops.append(f"BT /F1 10 Tf 72 {y - 24:g} Td (Table 1. Available distributions in the package.) Tj ET")
    top = y - 40
    for tick in range(6):  # the plot: a frame, a grid line and a tick label every 30 points, a few points
        line_y = top - 30 * tick
        ops.append(f"100 {line_y:g} m 300 {line_y:g} l S")
        ops.append(f"BT /F1 7 Tf 84 {line_y - 2:g} Td ({1.0 - 0.2 * tick:.1f}) Tj ET")
        ops.append(f"BT /F1 7 Tf {120 + 25 * tick} {line_y - 12:g} Td (o) Tj ET")
    ops.append(f"100 {top:g} m 100 {top - 150:g} l S 300 {top:g} m 300 {top - 150:g} l S")
    ops.append(f"BT /F1 10 Tf 72 {top - 180:g} Td (Figure 1: The probability mass function for the power law.) Tj ET")
    return helvetica_page(ops)


def test_a_plot_under_a_tables_caption_is_not_read_as_that_table(tmp_path: Path) -> None:
    rows = _read(tmp_path, _table_caption_then_plot())
    assert rows == TABLE, rows


def test_a_table_of_sentences_is_still_read_by_its_rules(tmp_path: Path) -> None:
    assert _read(tmp_path, _ruled_pdf(SENTENCES, [76, 310], divider=300)) == SENTENCES
