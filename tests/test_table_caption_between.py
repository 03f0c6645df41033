"""A caption set midway between two fully ruled tables, captions under their tables (the CSDP
user's guide, batch 10): the ruled table under the first caption is the next caption's, and the
first caption's own table is the one over it. Read by its rules, the table under the first
caption was taken for its own, and stored twice (the next caption reads it over itself)."""

from __future__ import annotations

from pathlib import Path

from paperpyramid.parsers.embedded.table_engine import extract_table
from tests.test_table_bands import helvetica_page
from tests.test_table_groups import _caption

_FIRST = [["Code", "Explanation"], ["0", "Problem solved to optimality"], ["1", "Problem is primal infeasible"], ["2", "Lack of progress"]]
_SECOND = [
    ["Code", "Explanation"],
    ["200", "No problem data file named"],
    ["201", "Storage allocation failed"],
    ["202", "An internal error occurred"],
]


def _ruled(ops: list[str], rows: list[list[str]], top: float) -> float:
    """A table ruled round every cell from ``top`` down; the y of its bottom rule."""
    y = top
    ops.append(f"72 {y:g} m 400 {y:g} l S")
    for row in rows:
        ops.append(f"BT /F1 9 Tf 76 {y - 12:g} Td ({row[0]}) Tj ET")
        ops.append(f"BT /F1 9 Tf 130 {y - 12:g} Td ({row[1]}) Tj ET")
        for x in (72, 124, 400):
            ops.append(f"{x} {y:g} m {x} {y - 16:g} l S")
        y -= 16
        ops.append(f"72 {y:g} m 400 {y:g} l S")
    return y


def _page() -> bytes:
    ops = ["0.5 w"]
    bottom = _ruled(ops, _FIRST, 700)
    ops.append(f"BT /F1 10 Tf 150 {bottom - 20:g} Td (Table 1: Return codes of the solver.) Tj ET")
    bottom = _ruled(ops, _SECOND, bottom - 36)
    ops.append(f"BT /F1 10 Tf 150 {bottom - 20:g} Td (Table 2: Exit codes for errors.) Tj ET")
    ops.append(f"BT /F1 10 Tf 72 {bottom - 60:g} Td (The running text of the guide goes on under the tables.) Tj ET")
    return helvetica_page(ops)


def test_a_caption_between_two_ruled_tables_reads_the_one_over_it(tmp_path: Path) -> None:
    path = tmp_path / "tables.pdf"
    path.write_bytes(_page())
    for label, rows in (("Table 1:", _FIRST), ("Table 2:", _SECOND)):
        page, caption = _caption(path, label)
        assert extract_table(path, page, caption) == rows, label
