"""A cell wrapped at the pitch of the table's rows: its wrapped line stays off the row under it,
though its top, its fonts' box, seems closer to that row than to its own (a formula's symbol font
raises a line's top, a line of CMR digits or typewriter text lowers it, while the baselines stay
evenly spaced: Bioconductor's PureCN vignette, Table 5, where "2.6" or "max.logr.sdev" joined the
row under it). On a small constructed page, and on the real vignette where it is here."""

from __future__ import annotations

from dataclasses import replace

import pytest

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.parsers.embedded.table_printed_rows import printed_rows, row_cells
from paperpyramid.parsers.embedded.table_row_joins import join_rows
from tests.test_table_conventions import _line  # the constructed pages of the table tests
from tests.unseen_pdfs import unseen_folder

PURECN = unseen_folder(8) / "bioc-purecn.pdf"  # batch 8 of the unseen sets (never committed)

_EDGES = [50.0, 200.0, 450.0]


def _set(text: str, x0: float, bottom: float, ascent: float) -> Line:
    """A line of ``text`` in 10 pt type whose box reaches ``ascent`` points over its bottom (a
    sans serif's 10, a symbol font's 12, CMR digits' 8.8)."""
    line = _line(text, x0, bottom - 10.0)
    return replace(line, top=bottom - ascent)


def _cells(rows: list[tuple[float, str, str, float]]) -> list[list[str]]:
    """The table's rows from printed lines (bottom, label, description, the description's ascent)."""
    lines = []
    for bottom, label, description, ascent in rows:
        if label:
            lines.append(_set(label, _EDGES[0] + 1, bottom, 10.0))
        lines.append(_set(description, _EDGES[1] + 1, bottom, ascent))
    return [row_cells(row, _EDGES) for row in join_rows(printed_rows(lines), [], _EDGES)]


def test_a_wrapped_line_in_a_lower_face_stays_off_the_row_under_it() -> None:
    # every baseline 12 pt apart; the formulas' lines reach 1.5 pt higher, the line of digits 1.2 pt lower:
    # top to top the digits sit 14.7 pt under their row and 9.3 over the next, which took them
    rows = [
        (100.0, "Flag", "Description", 10.0),
        (112.0, "EXCESSIVE LOH", "half of the genome in LOH and ploidy under", 11.5),
        (124.0, "", "2.6", 8.8),
        (136.0, "EXCESSIVE LOSSES", "one in a hundred of the genome deleted", 11.5),
        (148.0, "LOW PURITY", "purity under a third", 11.5),
        (160.0, "POOR GOF", "goodness of fit under its least", 11.5),
    ]
    cells = _cells(rows)
    assert ["EXCESSIVE LOSSES", "one in a hundred of the genome deleted"] in cells
    assert not any(row[0] == "EXCESSIVE LOSSES" and "2.6" in row[1] for row in cells)


@pytest.mark.skipif(not PURECN.is_file(), reason="batch 8 of the unseen sets (under $UNSEEN_PDFS) is not here")
def test_purecn_flags_keep_their_descriptions() -> None:
    table = next(table for table in parse_pdf(PURECN).tables if table.label == "5")
    rows = [list(row) for row in table.cells]
    assert ["EXCESSIVE LOSSES", "≥ 1% of genome deleted"] in rows
    assert ["NOISY SEGMENTATION", "More than max.segments"] in rows
    assert any(row[0] == "POLYGENOMIC" and row[1].startswith("≥ 0.75×") for row in rows)
