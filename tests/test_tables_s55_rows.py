"""A cell's line that ends on a word no cell ends on (a conjunction, a preposition, an article)
goes on under it, in a table whose rows all sit alike (:mod:`paperpyramid.parsers.embedded.
table_row_joins`): the JSS table of functions and their references; a page constructed in the
test."""

from __future__ import annotations

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_engine import table_rows
from tests.test_tables_s55_parts import _PAGE, _line

_REFERENCES = [
    ("bayes", ["Riebler (2004)"]),
    ("cdc", ["Stroup, Williamson, Herndon, and Karon (1989); Farrington and", "Andrews (2003)"]),
    ("cusum", ["Rossi, Lampugnani, and Marchi (1999); Pierce and Schafer (1986)"]),
    ("earsC", ["Fricker et al. (2008)"]),
    ("glrnb", ["Hoehle and Paul (2008)"]),
]


def test_a_line_ending_on_a_conjunction_goes_on_under_it() -> None:
    # "Andrews (2003)" opens with a capital: it was read as a row of its own, its label empty
    lines = [_line("Table 1: Algorithms and their references.", 60, 40), _line("Function", 60, 60), _line("References", 160, 60)]
    top = 74.0
    for label, cell in _REFERENCES:
        lines.append(_line(label, 60, top))
        for text in cell:
            lines.append(_line(text, 160, top))
            top += 12
    caption = lines[0]
    rows = table_rows(lines, [], _PAGE, (caption.x0, caption.top, caption.x1, caption.bottom))
    assert rows == [["Function", "References"]] + [[label, " ".join(cell)] for label, cell in _REFERENCES]


def _rows_with_a_centred_value() -> tuple[list[Line], list[list[str]]]:
    """Rows padded apart (12.6 pt), a label wrapped over three lines (10.5 pt) with its value set
    in the middle of its height, and a group's label over a row of its own."""
    lines = [_line("Table 2: Characteristics of the groups.", 60, 40), _line("Characteristic", 60, 60), _line("Value", 260, 60)]
    lines += [_line("Sex", 60, 74), _line("Boys 25, girls 8", 260, 74)]
    lines += [_line("Median and range of cumulative", 60, 86.6), _line("dose of glucocorticoids", 60, 97.1)]
    lines += [_line("1463 (29-9758) mg/m2", 260, 95.1), _line("(equivalent of prednisone)", 60, 107.6)]
    lines += [_line("GvHD prophylaxis (n)", 60, 120.2), _line("Ciclosporin", 60, 132.8), _line("2 (10%)", 260, 132.8)]
    lines += [_line("Methotrexate", 60, 145.4), _line("18 (90%)", 260, 145.4)]
    expected = [
        ["Characteristic", "Value"],
        ["Sex", "Boys 25, girls 8"],
        ["Median and range of cumulative dose of glucocorticoids (equivalent of prednisone)", "1463 (29-9758) mg/m2"],
        ["GvHD prophylaxis (n)", ""],
        ["Ciclosporin", "2 (10%)"],
        ["Methotrexate", "18 (90%)"],
    ]
    return lines, expected


def test_a_value_set_in_the_middle_of_a_label_wrapped_over_three_lines_is_one_row() -> None:
    # the label's first and last lines were read as rows of their own, the value beside its middle line
    lines, expected = _rows_with_a_centred_value()
    caption = lines[0]
    assert table_rows(lines, [], _PAGE, (caption.x0, caption.top, caption.x1, caption.bottom)) == expected
