"""A justified paragraph in a cell goes on over a sentence's end
(:mod:`paperpyramid.parsers.embedded.table_row_joins`).

A table of flags and their descriptions (a Bioconductor vignette's, rows 11 pt apart, every gap
alike): a description set as a justified paragraph fills its column with each line but its
last, so its last line, "Read Part 8.", opening a sentence under one that ends one at the
column's edge, is that cell's, not a row of its own. The words are invented, the coordinates
the vignette's."""

from __future__ import annotations

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_printed_rows import PrintedRow, row_cells
from paperpyramid.parsers.embedded.table_row_joins import join_rows

_EDGES = [0.0, 240.5, 612.0]


def _line(text: str, x0: float, x1: float, top: float) -> Line:
    step, words, x = (x1 - x0) / len(text), [], x0
    for word in text.split(" "):
        words.append((word, x, x + step * len(word)))
        x += step * (len(word) + 1)
    return Line(text, 1, x0, top, x1, top + 9, 9, False, False, "", words=words)


def _rows(last: str, last_x1: float) -> list[PrintedRow]:
    lines = [
        [_line("WIDE DRIFT", 99.4, 217.1, 100), _line("Wide drift past the limit in max.drift", 293.2, 463.1, 100)],
        [_line("(while model.twofold=FALSE). For", 293.2, 463.3, 111), _line("TALL SHARE", 99.4, 162.0, 111)],
        [_line("very tall share samples, it is sugges-", 293.3, 463.2, 122)],
        [_line("ted to set model.twofold=TRUE.", 293.3, 463.4, 133)],
        [_line(last, 293.3, last_x1, 144)],
        [_line("Share < 30%", 293.2, 350.6, 155), _line("LOW SHARE", 99.4, 160.3, 155)],
    ]
    return [PrintedRow(min(line.top for line in row), max(line.bottom for line in row), row) for row in lines]


def test_a_justified_cell_goes_on_over_a_sentence_end() -> None:
    rows = join_rows(_rows("Read Part 8.", 352.5), [], _EDGES)
    assert [row_cells(row, _EDGES)[0] for row in rows] == ["WIDE DRIFT", "TALL SHARE", "LOW SHARE"]
    assert row_cells(rows[1], _EDGES)[1].endswith("TRUE. Read Part 8.")


def test_a_quotation_under_a_justified_one_opens_the_next() -> None:
    # a cell of quoted answers: each quotation opens on a line of its own, however full the last
    rows = join_rows(_rows("“Read Part 8.”", 360.0), [], _EDGES)
    assert [row_cells(row, _EDGES)[0] for row in rows] == ["WIDE DRIFT", "TALL SHARE", "", "LOW SHARE"]
