"""A label centred over two columns and narrower than the white between their labels (LaTeX's
``\\multicolumn{2}{c}{$D_{4h}^1$}`` in a REVTeX wide table, ``aps-revtex-sample``'s Table II):
it overlaps neither label under it, and its symbol's superscript and subscript lie stacked on one
x and over two printed rows. It gave a column of its own and its row was joined to the labels'
row under it."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_columns import column_edges
from paperpyramid.parsers.embedded.table_engine import extract_table
from tests.test_table_groups import _caption

_FONT = "Times-Roman"
_COLUMNS = (163.0, 296.0, 418.0, 529.0)  # the middles of the four columns of values
_ROWS = (
    ("K", "(2e) + (2f)", "(4i)", "(2c) + (2d)", "(4f)"),
    ("Mn", "(2g)", "(a) + (b) + (c) + (d)", "(4e)", "(2a) + (2b)"),
    ("Cl", "(a) + (b) + (c) + (d)", "(2g)", "(4e)", ""),
    ("He", "(8r)", "(4j)", "(4g)", ""),
    ("Ag", "", "(4k)", "", "(4h)"),
)


def _centred(page: Canvas, middle: float, baseline: float, text: str, size: float = 10.0) -> None:
    page.text(middle - text_width(text, _FONT, size) / 2, baseline, text, _FONT, size)


def _symbol(page: Canvas, middle: float, baseline: float, upper: str, lower: str) -> None:
    """ "D" with a superscript and a subscript set one over the other after it, centred on ``middle``."""
    width = text_width("D", _FONT, 10) + text_width(lower, _FONT, 7)
    x = middle - width / 2
    page.text(x, baseline, "D", _FONT, 10)
    page.text(x + text_width("D", _FONT, 10), baseline - 4.0, upper, _FONT, 7)
    page.text(x + text_width("D", _FONT, 10), baseline + 1.5, lower, _FONT, 7)


def _wide_table(tmp_path: Path) -> Path:
    page = Canvas(612.0, 792.0)
    page.text(56, 180, "TABLE II. This is a wide table that spans the full page width.", _FONT, 9)
    page.rule(56, 196, 560, 196, 0.4)
    page.rule(56, 198, 560, 198, 0.4)
    _symbol(page, (_COLUMNS[0] + _COLUMNS[1]) / 2, 212.0, "1", "4h")
    _symbol(page, (_COLUMNS[2] + _COLUMNS[3]) / 2, 212.0, "5", "4h")
    page.text(56, 223.0, "Ion", _FONT, 10)
    for middle, label in zip(_COLUMNS, ("1st alternative", "2nd alternative", "lst alternative", "2nd alternative"), strict=True):
        _centred(page, middle, 223.0, label)
    page.rule(56, 226.5, 560, 226.5, 0.4)
    for index, row in enumerate(_ROWS):
        baseline = 236.0 + 12.0 * index
        page.text(56, baseline, row[0], _FONT, 10)
        for middle, cell in zip(_COLUMNS, row[1:], strict=True):
            if cell:
                _centred(page, middle, baseline, cell)
    page.rule(56, 290, 560, 290, 0.4)
    page.rule(56, 292, 560, 292, 0.4)
    pdf = tmp_path / "wide.pdf"
    pdf.write_bytes(write_pdf([page], "a wide table"))
    return pdf


def test_a_label_centred_over_two_columns_spans_them(tmp_path: Path) -> None:
    pdf = _wide_table(tmp_path)
    rows = extract_table(pdf, *_caption(pdf, "TABLE II."))
    assert rows is not None
    assert [len(row) for row in rows] == [5] * 7
    assert [bool(cell) for cell in rows[0]] == [False, True, False, True, False]
    assert "D" in rows[0][1] and "4h" in rows[0][1] and "5" in rows[0][3]
    assert rows[1] == ["Ion", "1st alternative", "2nd alternative", "lst alternative", "2nd alternative"]
    assert [row[0] for row in rows[2:]] == [row[0] for row in _ROWS]


def _line(text: str, x0: float, x1: float, top: float, bottom: float) -> Line:
    return Line(page=1, text=text, x0=x0, x1=x1, top=top, bottom=bottom, size=bottom - top, bold=False, italic=False, font=_FONT)


def test_a_symbols_stacked_scripts_touch_a_river_once() -> None:
    # "1" over "4h" after "D", in the white between two columns: one row's pieces, counted once
    label = [_line("D", 221.7, 229.26, 206, 214), _line("4h", 229.27, 237.3, 210, 215.5), _line("1", 229.5, 233.2, 204.6, 210)]
    rows = [label] + [
        [_line("x", 56, 66, top, top + 8), _line("value", 134, 192, top, top + 8), _line("value", 266, 327, top, top + 8)]
        for top in range(220, 290, 10)
    ]
    edges = column_edges(rows, 0, 612, space=2.0)
    assert len(edges) == 4
    assert 192 < edges[2] < 266
