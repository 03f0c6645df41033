"""A table that rules every body row apart, its descriptions wrapped over two or three lines at
the text's leading (the Journal of Statistical Software's deSolve, batch 7: "Summary of the
functions that solve differential equations"). The rules tell the rows; a wrapped line that
opens with a number or a parenthesis ("4 and Euler as special cases)") was a row of its own,
and so was a three-line cell whose justified line was cut at a stretched space before a number
("1.7, lsode includes a"). Drawn here after that table."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded.table_engine import extract_table
from tests.test_table_groups import _caption

_FONT = "Times-Roman"
_ROWS = (
    ("Function", ["Description"]),
    ("ode", ["integrates systems of ordinary differential equations"]),
    (
        "lsode",
        [
            "integrates ODEs, user must specify if stiff or nonstiff,",
            "or banded Jacobian; note that as of version",
            "root-finding procedure similar to lsodar",
        ],
    ),
    ("rk", ["integrates ODEs, using Runge-Kutta methods; includes Runge-Kutta", "4 and Euler as special cases)"]),
    ("rk4", ["integrates ODEs, using the classical Runge-Kutta 4th order method", "(special code with less options than rk)"]),
    ("euler", ["integrates ODEs, using Euler's method", "(special code with less options than rk)"]),
)


def _page() -> Canvas:
    page = Canvas(595.0, 842.0)
    page.text(72, 90, "Table 1: Summary of the functions that solve differential equations.", _FONT, 10)
    y = 100.0
    page.rule(90, y, 470, y, 0.5)
    for name, lines in _ROWS:
        page.text(97, y + 12, name, "Courier", 10)
        for index, line in enumerate(lines):
            page.text(175, y + 12 + 13.6 * index, line, _FONT, 10)
        if name == "lsode":  # the justified line's stretched space before the version's number
            page.text(380, y + 12 + 13.6, "1.7, lsode includes a", _FONT, 10)
        y += 13.6 * len(lines) + 3.2
        page.rule(90, y, 470, y, 0.4)
    page.text(72, y + 40, "The running text of the paper goes on under the table, in the body's own type size.", _FONT, 10)
    return page


def test_each_band_between_rules_is_one_row(tmp_path: Path) -> None:
    pdf = tmp_path / "solvers.pdf"
    pdf.write_bytes(write_pdf([_page()], "ruled rows"))
    rows = extract_table(pdf, *_caption(pdf, "Table 1:"))
    assert rows is not None
    assert [row[0] for row in rows] == [name for name, _ in _ROWS]
    assert rows[3][1] == "integrates ODEs, using Runge-Kutta methods; includes Runge-Kutta 4 and Euler as special cases)"
    assert rows[2][1].endswith("as of version 1.7, lsode includes a root-finding procedure similar to lsodar")
