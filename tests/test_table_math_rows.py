"""A table of mathematics read row by row (:mod:`paperpyramid.parsers.embedded.table_printed_rows`):
most of its cells hold a radical, a sum or a symbol font's loose box (vegan's table of scalings,
"u_ik √(λ_k / Σ λ_k) × const"), taller than its rows' pitch, rising into the row above or
reaching into the row below; each row is read apart all the same."""

from __future__ import annotations

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_printed_rows import printed_rows, row_cells
from paperpyramid.parsers.embedded.table_row_joins import join_rows

_EDGES = [100.0, 260.0, 380.0, 500.0]
_LABELS = ["prcomp, princomp", "stats::biplot", "rda, scaling=sites", "rda, scaling=species", "rda, scaling=symmetric"]


def _line(text: str, x0: float, top: float, height: float) -> Line:
    return Line(text, 1, x0, top, x0 + 6 * len(text), top + height, 10, False, False, "")


def _table(rising: bool) -> list[Line]:
    """Rows 13 pt apart, labels 9 pt tall; in each row one cell whose box rises 9 pt into the row
    above (a radical) and, in the rows after the first two, one whose box starts on its row's top
    and reaches 8 pt into the row below (a minus sign's loose box), both 17 pt tall."""
    lines = []
    for k, label in enumerate(_LABELS):
        top = 200.0 + 13 * k
        lines.append(_line(label, 104, top, 9.0))
        lines.append(_line("uik√n", 264, top - 8 if rising else top, 17.0))
        if k >= 2:
            lines.append(_line("vjk × const", 384, top, 17.0))
        else:
            lines.append(_line("vjk", 384, top, 9.0))
    return lines


def test_cells_taller_than_the_row_pitch_keep_their_rows_apart() -> None:
    for rising in (True, False):
        rows = join_rows(printed_rows(_table(rising)), [], _EDGES)
        assert [row_cells(row, _EDGES)[0] for row in rows] == _LABELS, rising
