"""A printed row two lines tall in a cell (a tall box beside them drew one band over both) goes
on from the row above by its top line, the one set under that row: its lower line (a value,
"12.5") says nothing of whether the cell above was wrapped into it
(:mod:`paperpyramid.parsers.embedded.table_row_joins`)."""

from __future__ import annotations

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_printed_rows import PrintedRow, row_cells
from paperpyramid.parsers.embedded.table_row_joins import join_rows

_EDGES = [100.0, 200.0, 500.0]


def _line(text: str, x0: float, top: float) -> Line:
    words, x = [], x0
    for word in text.split():
        words.append((word, x, x + 6 * len(word)))
        x += 6 * len(word) + 6
    return Line(text, 1, x0, top, x0 + 6 * len(text), top + 9, 10, False, False, "", words=words)


def _rows(second: str) -> list[PrintedRow]:
    """Rows 12 pt apart, every gap alike: a label and a description filling its column, the
    description's next line under it with a second line below it in the same band, then the
    next label."""
    wrapped = PrintedRow(112, 133, [_line("goes on in lower case here", 204, 112), _line(second, 204, 124)])
    return [
        PrintedRow(100, 109, [_line("Alpha", 104, 100), _line("the first line of a long description set there", 204, 100)]),
        wrapped,
        PrintedRow(136, 145, [_line("Beta", 104, 136), _line("Another description", 204, 136)]),
    ]


def test_a_two_line_row_goes_on_from_the_row_above_by_its_top_line() -> None:
    for second in ("12.5", "and more words"):
        rows = join_rows(_rows(second), [], _EDGES)
        assert [row_cells(row, _EDGES)[0] for row in rows] == ["Alpha", "Beta"], second
