"""Tables as the teubner package's manual sets them (batch 11, "teubner-greek-philology"), drawn
here after its pages: two rows of one-letter cells in centred columns, evenly spaced as a
justified line is; a header over the ``\\hline`` that is the table's only rule, under a float's
rule wider than the table; a cell with a raised note number the reading cut off; and rows of
metric symbols set in a larger type than the table's commands, over a caption set under them."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_columns import word_segments, word_space
from paperpyramid.parsers.embedded.table_engine import extract_table
from paperpyramid.parsers.embedded.table_printed_rows import PrintedRow, row_cells
from tests.test_table_groups import _caption

_FONT = "Times-Roman"
_PROSE = (
    "Notice that there is the possibility of inputting c in order to get the final sigma, but",
    "the fonts are conceived with the non-Greek user in mind, so that it is even possible to",
    "input s at the end of words, because the whole software is smart enough to detect it.",
)


def _read(tmp_path: Path, page: Canvas, label: str) -> list[list[str]] | None:
    pdf = tmp_path / "teubner.pdf"
    pdf.write_bytes(write_pdf([page], "teubner"))
    return extract_table(pdf, *_caption(pdf, label))


def _prose(page: Canvas, top: float) -> None:
    for index, line in enumerate(_PROSE):  # justified across the text's measure
        stretch = (390 - text_width(line, _FONT, 10)) / line.count(" ")
        page.text(102, top + 12 * index, line, _FONT, 10, word_spacing=stretch)


# Table 2's rows as pdfium reads them (page 10): each a line of 25 one-letter words, evenly spaced
_GREEK = [("α", 123.5, 129.5), ("β", 137.4, 143.4), ("γ", 151.4, 158.0), ("δ", 166.1, 171.8), ("ε", 180.0, 185.1), ("ζ", 193.2, 198.8),
          ("η", 206.8, 212.8), ("θ", 220.7, 227.5), ("ι", 235.7, 238.7), ("κ", 246.8, 253.1), ("λ", 261.1, 267.0), ("μ", 276.5, 282.7),
          ("ν", 292.4, 298.1), ("ξ", 306.4, 312.0), ("ο", 320.2, 326.5), ("π", 334.4, 340.6), ("ρ", 348.5, 354.2), ("ς", 362.1, 367.5),
          ("σv", 375.4, 382.2), ("τ", 390.2, 395.7), ("υ", 403.6, 409.6), ("φ", 417.6, 424.6), ("χ", 432.5, 439.2), ("ψ", 447.1, 454.1),
          ("ω", 462.4, 470.4)]  # fmt: skip
_LATIN = [("a", 123.8, 129.1), ("b", 137.4, 143.4), ("g", 151.7, 157.7), ("d", 166.0, 172.0), ("e", 179.9, 185.2), ("z", 193.4, 198.7),
          ("h", 206.8, 212.8), ("j", 221.7, 225.8), ("i", 235.6, 238.9), ("k", 247.0, 253.1), ("l", 262.5, 265.8), ("m", 275.1, 284.4),
          ("n", 292.3, 298.3), ("x", 306.3, 312.3), ("o", 320.4, 326.4), ("p", 334.6, 340.6), ("r", 349.5, 353.5), ("c", 362.2, 367.6),
          ("s", 376.6, 381.3), ("t", 391.4, 394.7), ("u", 403.8, 409.7), ("f", 419.2, 423.8), ("q", 433.0, 438.9), ("y", 447.7, 453.7),
          ("w", 462.2, 470.8)]  # fmt: skip


def _line(words: list[tuple[str, float, float]], top: float, size: float) -> Line:
    return Line(
        " ".join(word for word, _, _ in words),
        10,
        words[0][1],
        top,
        words[-1][2],
        top + 1.1 * size,
        size,
        False,
        False,
        "Roman",
        words=words,
    )


def test_two_rows_of_letters_in_centred_columns_are_a_grid() -> None:
    # each row's gaps are all alike, as a justified line's are: each was kept whole, and the
    # table, one column, was no table. Each letter stands over the other row's, centred
    greek, latin = _line(_GREEK, 96.7, 8.3), _line(_LATIN, 111.7, 10.7)
    segments = word_segments([greek], word_space([greek, latin]), table=[greek, latin])
    assert [segment.text for segment in segments] == [word for word, _, _ in _GREEK]


def _macros_page() -> Canvas:
    page = Canvas(595.0, 842.0)
    page.rule(102, 89, 492, 89, 0.4)  # the float's rule, across the text
    for x, label in ((151, "Example"), (233, "Syntax"), (306, "Example"), (385, "Syntax")):
        page.text(x, 106, label, _FONT, 10.7)
    page.rule(145, 114, 449, 114, 0.4)  # the header's \hline, the table's only rule over it
    rows = (
        ("a", "\\G{letter}", "o", "\\ut{letters}"),
        ("e", "\\A{letter}", "u", "\\Ab{letter}"),
        ("i", "\\C{letter}", "w", "\\Gb{letter}"),
    )
    for index, (example, syntax, other, more) in enumerate(rows):
        baseline = 128 + 15 * index
        page.text(170, baseline, example, _FONT, 10.7)
        page.text(206, baseline, syntax, "Courier", 10.4)  # the note's number, raised after the command
        page.text(325, baseline, other, _FONT, 10.7)
        page.text(361, baseline, more, "Courier", 10.4)
    page.rule(145, 175, 449, 175, 0.4)
    page.text(240, 193, "Table 4: Accent macros", _FONT, 10.7)
    page.rule(102, 202, 492, 202, 0.4)
    _prose(page, 230)
    return page


def test_the_header_over_the_tables_only_rule_is_its_first_row(tmp_path: Path) -> None:
    rows = _read(tmp_path, _macros_page(), "Table 4:")
    assert rows is not None
    assert rows[0] == ["Example", "Syntax", "Example", "Syntax"]


def test_a_raised_note_number_reads_after_its_cell() -> None:
    # the row as the reading cut it (Table 4, page 14): the note's number a line of its own,
    # raised, so its top is over the command's; the cell read "1 \\G{⟨letter⟩}"
    lines = [
        Line("ὰ", 14, 169.5, 119.0, 175.5, 130.4, 11.4, False, False, "Lipsian"),
        Line("\\G{⟨letter⟩}", 14, 205.7, 119.2, 264.7, 129.8, 10.4, False, False, "LMMono10-Regular"),
        Line("1", 14, 264.7, 117.6, 268.7, 124.8, 7.1, False, False, "LMRoman7-Regular"),
    ]
    row = PrintedRow(117.6, 130.4, lines)
    assert row_cells(row, [0.0, 190.0, 300.0]) == ["ὰ", "\\G{⟨letter⟩} 1"]


def test_rows_of_symbols_in_a_larger_type_stay_rows(tmp_path: Path) -> None:
    # unruled rows over their caption; the symbols' larger type read as a heading over the table,
    # and the marks over a foot, small lines with a space, taken for the table's type of words
    page = Canvas(595.0, 842.0)
    page.rule(102, 89, 492, 89, 0.4)
    rows = (("Command", "Symbol", "Command", "Symbol"), ("\\longa", "L", "\\brevis", "B"), ("\\hexam", "LBBLBBLBBL", "\\chor", "LBBL"),
            ("\\enopl", "BLBBLBBL", "\\iam", "BLBL"), ("\\catal", "C", "\\ipercatal", "H"))  # fmt: skip
    for index, row in enumerate(rows):
        baseline = 106 + 17 * index
        for x, cell, column in zip((110, 190, 330, 430), row, range(4), strict=True):
            page.text(x, baseline, cell, "Courier" if index and column % 2 == 0 else _FONT, 13 if index and column % 2 else 10)
    for x in (196, 214, 232):  # a foot's marks set small over the symbols ("z {"), words of a script's size
        page.text(x, 106 + 17 * 2 - 5, "z {", _FONT, 5.9)
    page.text(238, 200, "Table 8: Metric symbols", _FONT, 10)
    page.rule(102, 209, 492, 209, 0.4)
    _prose(page, 236)
    read = _read(tmp_path, page, "Table 8:")
    assert read is not None
    assert [row[0] for row in read] == [row[0] for row in rows]
    assert [row[2:] for row in read] == [list(row[2:]) for row in rows]
