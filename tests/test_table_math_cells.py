"""Tables set among formulas (:mod:`paperpyramid.parsers.embedded.table_region`,
:mod:`~.table_engine`, :mod:`~.table_row_joins`): a caption line cut where its math sits on
another baseline still ends above the table; a stray point a macro leaves beside the rows is no
column; a list of numbers in a cell ("-1, -2, -3") is one cell; a row of formulas whose cells
open with signs and variables is no paragraph going on under the row above (vegan's decision
vignette, whose tables of scalings are set in formulas)."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.parsers.embedded.table_printed_rows import PrintedRow
from paperpyramid.parsers.embedded.table_row_joins import join_rows

_ROWS = (
    ("Software", "Scaling factor", "Constant"),
    ("vegan", "any", "4.25"),
    ("prcomp", "1", "1.00"),
    ("Canoco v3", "-1, -2, -3", "2.50"),
    ("Canoco v4", "-1, -2, -3", "3.75"),
)
_COLUMNS = (150.0, 250.0, 360.0)


def _page(*, cut_caption: bool, stray: bool) -> Canvas:
    page = Canvas(612.0, 792.0)
    page.text(72, 80, "The constants below make the scores of each program equal to those of the others, as the", "Times-Roman", 10)
    page.text(72, 92, "functions of the package scale them by default when no argument asks for another scaling.", "Times-Roman", 10)
    page.text(72, 120, "Table 1: Values of the constant that make the scores equal to those of other software. The sum", "Times-Roman", 10)
    if cut_caption:  # the last line's sum carries its index on a lower baseline, in a smaller face
        x = 72 + page.text(72, 132, "of all eigenvalues is S", "Times-Roman", 10)
        x += page.text(x, 135, "k", "Times-Italic", 7) + 1.5
        page.text(x, 132, "lk (this is saved as the item tot.chi in the result).", "Times-Roman", 10)
    else:
        page.text(72, 132, "of all eigenvalues is the total inertia (this is saved as the item tot.chi in the result).", "Times-Roman", 10)
    baseline = 160.0
    for number, row in enumerate(_ROWS):
        for x, cell in zip(_COLUMNS, row, strict=True):
            page.text(x, baseline, cell, "Courier" if "," in cell else ("Times-Bold" if not number else "Times-Roman"), 9)
        if stray and number == 1:
            page.text(_COLUMNS[0] - 14, baseline + 6, ".", "Times-Roman", 10)
        baseline += 13
    page.text(
        72, baseline + 20, "The scaling is controlled by three arguments of the scores function of the package, as the", "Times-Roman", 10
    )
    page.text(
        72, baseline + 32, "next section shows for each of the programs of the table in turn, with its own defaults.", "Times-Roman", 10
    )
    return page


def _cells(tmp_path: Path, **kwargs: bool) -> list[list[str]]:
    pdf = tmp_path / "scalings.pdf"
    pdf.write_bytes(write_pdf([_page(**kwargs)], "scalings"))
    tables = parse_pdf(pdf).tables
    assert len(tables) == 1
    return tables[0].cells


def test_a_caption_line_cut_by_its_math_ends_above_the_table(tmp_path: Path) -> None:
    cells = _cells(tmp_path, cut_caption=True, stray=False)
    assert cells[0] == ["Software", "Scaling factor", "Constant"]
    assert len(cells) == len(_ROWS)


def test_a_stray_point_beside_the_rows_is_no_column(tmp_path: Path) -> None:
    cells = _cells(tmp_path, cut_caption=False, stray=True)
    assert [list(row) for row in _ROWS] == cells


def test_a_list_of_numbers_is_one_cell(tmp_path: Path) -> None:
    # its header spans the list: no cell of another row stands in the spaces after its commas
    cells = _cells(tmp_path, cut_caption=False, stray=False)
    assert ["Canoco v3", "-1, -2, -3", "2.50"] in cells


def _line(text: str, x0: float, top: float, size: float = 10.0) -> Line:
    return Line(text, 1, x0, top, x0 + 0.5 * size * len(text), top + size, size, False, False, "")


def test_a_row_of_formulas_is_no_paragraph_going_on() -> None:
    # two rows of a table of scalings, their formulas' boxes reaching into each other: the
    # second row's cells open with a variable, a sign and a script, in lower case but no words
    edges = [0.0, 250.0, 380.0, 600.0]
    rows = [
        PrintedRow(90.0, 102.0, [_line("rda, scaling", 110, 90), _line("const", 280, 90), _line("const", 400, 90)]),
        PrintedRow(100.0, 112.0, [_line("rda, correlation", 110, 101), _line("u", 280, 100), _line("−1", 400, 100)]),
        PrintedRow(113.0, 125.0, [_line("stats, biplot", 110, 114), _line("v", 280, 113), _line("w", 400, 113)]),
        PrintedRow(140.0, 152.0, [_line("cca, hill", 110, 140), _line("x", 280, 140), _line("y", 400, 140)]),
    ]
    joined = join_rows(rows, [], edges)
    assert len(joined) == 4


def test_values_under_formula_labels_are_rows_of_their_own() -> None:
    # asme's "columns in math mode": a row of formulas over a row of their values, set tight; the
    # formulas' boxes reach into the values' row, which is no line of the labels going on
    edges = [0.0, 120.0, 190.0, 300.0]
    rows = [
        PrintedRow(67.0, 78.0, [_line("Xz", 70, 67), _line("Xc", 138, 67), _line("Xc,m", 203, 67)]),
        PrintedRow(74.5, 86.5, [_line("3.92069", 60, 74.5, 12), _line("5.70943", 128, 74.5, 12), _line("6.32429", 197, 74.5, 12)]),
        PrintedRow(89.0, 105.0, [_line("qgray", 64, 89, 16), _line("qint", 130, 89, 16), _line("qexact", 197, 89, 16)]),
        PrintedRow(97.5, 109.5, [_line("400.2", 64, 97.5, 12), _line("462.1", 133, 97.5, 12), _line("371.0", 202, 97.5, 12)]),
    ]
    joined = join_rows(rows, [], edges)
    assert [[line.text for line in row.lines] for row in joined][1] == ["3.92069", "5.70943", "6.32429"]
