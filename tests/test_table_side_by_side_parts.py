"""Subtables set side by side under one caption (:func:`paperpyramid.parsers.embedded.table_stacks.parts`).

A JMLR/PMLR sample's ``\\subtable`` pairs: parts (a) and (b) side by side, each centred under its
mark, aligned on their tops (text running across the page under the float) or centred on their
heights (the taller part's mark set higher, its first row beside the other's mark; a heading a
wide gap under the float). Each part is a table of its own. Marks heading columns of one table
(row labels left of them) are no parts. Coordinates are the sample's."""

from __future__ import annotations

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_stacks import parts


def _line(text: str, x0: float, top: float, x1: float) -> Line:
    return Line(text, 8, x0, top, x1, top + 9.9, 9.7, False, False, "")


def _pair(a_top: float, b_top: float) -> list[Line]:
    """Part (a): two rows from ``a_top``; part (b): three rows from ``b_top``; marks over each."""
    lines = [_line("(a)", 260.9, a_top, 275.8), _line("(b)", 332.8, b_top, 347.0)]
    for k, (left, right) in enumerate([("A", "B"), ("1", "2")]):
        lines += [_line(left, 253.4, a_top + 14 + 13.6 * k, 258.8), _line(right, 274.5, a_top + 14 + 13.6 * k, 280.0)]
    for k, (left, right) in enumerate([("C", "D"), ("3", "4"), ("5", "6")]):
        lines += [_line(left, 324.6, b_top + 14 + 13.6 * k, 330.0), _line(right, 345.8, b_top + 14 + 13.6 * k, 351.3)]
    return lines


def _cells(lines: list[Line], box: tuple[float, float, float, float]) -> list[str]:
    x0, top, x1, bottom = box
    return [line.text for line in lines if x0 <= (line.x0 + line.x1) / 2 <= x1 and top <= line.top and line.bottom <= bottom + 1]


def test_parts_side_by_side_are_tables_of_their_own() -> None:
    top_aligned = [*_pair(256.4, 256.4), _line("For example, the parts (a) and (b) in the next table are centred", 90.0, 330.6, 521.9)]
    centred = [*_pair(408.0, 401.2), _line("5.5. Methods", 90.0, 483.3, 177.2)]
    for lines in (top_aligned, centred):
        found = parts(lines, (0.0, 240.0, 612.0, 500.0))
        assert [mark for mark, _ in found] == ["(a)", "(b)"]
        assert _cells(lines, found[0][1]) == ["A", "B", "1", "2"]
        assert _cells(lines, found[1][1]) == ["C", "D", "3", "4", "5", "6"]


def test_marks_over_columns_of_one_table_are_no_parts() -> None:
    lines = [_line("(a)", 260.9, 256.4, 275.8), _line("(b)", 332.8, 256.4, 347.0)]
    for k, label in enumerate(["Alpha", "Beta"]):
        top = 270.4 + 13.6 * k
        lines += [_line(label, 150.0, top, 180.0), _line("0.5", 261.0, top, 275.0), _line("0.7", 333.0, top, 347.0)]
    assert parts(lines, (0.0, 240.0, 612.0, 320.0)) == [("", (0.0, 240.0, 612.0, 320.0))]


def test_marks_over_the_only_columns_of_one_grid_are_no_parts() -> None:
    """No row labels: "(a)" and "(b)" head the table's two columns, a value centred under each in
    every row. The rows line up across the marks (one grid); parts set each its own rows."""
    lines = [_line("(a)", 260.9, 256.4, 275.8), _line("(b)", 332.8, 256.4, 347.0)]
    for k in range(3):
        top = 270.4 + 13.6 * k
        lines += [_line("0.5", 261.5, top, 275.2), _line("0.7", 333.4, top, 346.4)]
    assert parts(lines, (0.0, 240.0, 612.0, 320.0)) == [("", (0.0, 240.0, 612.0, 320.0))]
