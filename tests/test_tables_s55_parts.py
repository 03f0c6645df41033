"""Subtables under one caption read part by part where no mark stands over a part: each part
captioned under its rows (LaTeX's ``subcaption``: "(a) ..." under part (a), the float's caption
under the last), and a table too wide for its page set as two halves one under the other, the
second repeating the first's row label over its own header (:mod:`paperpyramid.parsers.embedded.
table_stacks`); on small constructed pages, and on the real paper that prints the first
(``../shared/corpus``)."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.parsers.embedded.table_engine import read_table_page, table_parts, table_rows
from paperpyramid.parsers.embedded.table_stacks import parts

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
SCIFACT = CORPUS / "emnlp-2020-scifact-arxiv-2004.14974-compiled.pdf"

_CHAR = 5.0
_PAGE = (0.0, 0.0, 600.0, 800.0)


def _line(text: str, x0: float, top: float, size: float = 10.0, font: str = "Times") -> Line:
    """A line of ``text`` from ``x0``, its words spaced as a font of ``size`` sets them."""
    words, x, char = [], x0, _CHAR * size / 10
    for word in text.split():
        words.append((word, x, x + char * len(word)))
        x += char * (len(word) + 1)
    return Line(text, 1, x0, top, words[-1][2], top + size, size, False, False, font, words=words)


def _row(cells: tuple[str, ...], columns: tuple[float, ...], top: float) -> list[Line]:
    return [_line(cell, x, top) for cell, x in zip(cells, columns, strict=True)]


def _captioned_under() -> list[Line]:
    """Part (a), five columns, captioned under its rows; part (b), four columns, captioned under
    its rows in two lines; the table's caption under them both."""
    a, b = (60.0, 140.0, 200.0, 260.0, 320.0), (60.0, 200.0, 260.0, 320.0)
    lines = _row(("Fold", "Yes", "No", "Maybe", "All"), a, 60)
    lines += [
        line for k in range(3) for line in _row((f"Split{k}", f"{30 + k}", f"{40 + k}", f"{50 + k}", f"{120 + 3 * k}"), a, 74 + 12 * k)
    ]
    lines.append(_line("(a) Distribution of labels.", 140, 120))
    lines += _row(("Count", "0", "1", "2+"), b, 140)
    lines += [line for k in range(3) for line in _row((f"Evidence kind {k}", f"{k}", f"{10 + k}", f"{20 + k}"), b, 154 + 12 * k)]
    lines += [_line("(b) Evidence counts at various levels of granularity, for ex-", 60, 200)]
    lines += [_line("ample the rows of one claim.", 60, 211)]
    lines.append(_line("Table 2: Statistics on claims.", 60, 232))
    return lines


def test_parts_captioned_under_their_rows_are_read_apart() -> None:
    # the sub-caption over the caption ("(b) Evidence counts ...") ended the region over it, and
    # the parts' columns mixed in one grid ("Fold Yes No" in one cell)
    lines = _captioned_under()
    caption = lines[-1]
    found = table_parts(lines, [], _PAGE, (caption.x0, caption.top, caption.x1, caption.bottom))
    assert [part.mark for part in found] == ["(a)", "(b)"]
    assert found[0].cells[0] == ["Fold", "Yes", "No", "Maybe", "All"] and len(found[0].cells) == 4
    assert found[1].cells == [["Count", "0", "1", "2+"]] + [[f"Evidence kind {k}", f"{k}", f"{10 + k}", f"{20 + k}"] for k in range(3)]


def test_group_labels_over_their_rows_are_no_parts() -> None:
    # "(a) Men" opens its group and rows follow the last label: one table, not parts
    columns = (60.0, 200.0, 260.0)
    lines = _row(("Group", "Mean", "SD"), columns, 60) + [_line("(a) Men", 60, 74)]
    lines += [line for k in range(2) for line in _row((f"Age {k}", f"{40 + k}", f"{k + 1}"), columns, 88 + 12 * k)]
    lines += [_line("(b) Women", 60, 114)]
    lines += [line for k in range(2) for line in _row((f"Age {k}", f"{50 + k}", f"{k + 2}"), columns, 128 + 12 * k)]
    assert parts(lines, (40.0, 55.0, 400.0, 160.0)) == [("", (40.0, 55.0, 400.0, 160.0))]


def test_the_halves_of_a_wide_table_are_read_each_with_its_own_columns() -> None:
    # the halves' columns were read as one grid's: seven columns, half of them empty in each half
    top = (60.0, 160.0, 260.0, 360.0)
    bottom = (60.0, 200.0, 320.0)
    lines = [_line("Table 1: Implementations compared across many libraries and languages.", 60, 40)]
    lines += [_line(cell, x, 60, font="Times-Bold") for cell, x in zip(("Library", "Fast", "Exact", "Streaming"), top, strict=True)]
    body = [("alpha", "yes", "yes", "no"), ("beta", "yes", "no", "no"), ("gamma", "no", "no", "yes")]
    lines += [line for k, cells in enumerate(body) for line in _row(cells, top, 74 + 12 * k)]
    lines += [_line(cell, x, 116, font="Times-Bold") for cell, x in zip(("Library", "Indexing", "Language"), bottom, strict=True)]
    lower = [("alpha", "tree", "R"), ("beta", "grid", "Java"), ("gamma", "none", "Python")]
    lines += [line for k, cells in enumerate(lower) for line in _row(cells, bottom, 130 + 12 * k)]
    caption = lines[0]
    rows = table_rows(lines, [], _PAGE, (caption.x0, caption.top, caption.x1, caption.bottom))
    assert rows == [["Library", "Fast", "Exact", "Streaming"], *[list(cells) for cells in body]] + [
        ["Library", "Indexing", "Language", ""],
        *[[*cells, ""] for cells in lower],
    ]


@pytest.mark.skipif(not SCIFACT.is_file(), reason="../shared/corpus is not here (real PDFs, not distributed)")
def test_scifacts_parts_captioned_under_their_rows() -> None:
    # Table 2 of SciFact sets its parts' sub-captions under them, the second over the caption
    pdf = pdfium.PdfDocument(SCIFACT)
    try:
        lines, rules, box = read_table_page(pdf, 4)
    finally:
        pdf.close()
    caption = next(line for line in lines if line.text.startswith("Table 2:"))
    found = table_parts(lines, rules, box, (caption.x0, caption.top, caption.x1, caption.bottom))
    assert [part.mark for part in found] == ["(a)", "(b)"]
    assert found[0].cells[0] == ["Fold", "SUPPORTS", "NOINFO", "REFUTES", "All"]
    assert found[1].cells[0] == ["", "0", "1", "2", "3+"] and found[1].cells[2] == [
        "Evidence abstracts per claim",
        "516",
        "830",
        "37",
        "26",
    ]


@pytest.mark.skipif(not SCIFACT.is_file(), reason="../shared/corpus is not here (real PDFs, not distributed)")
def test_scifacts_part_rows_left_as_text_are_its_tables_not_one_more() -> None:
    # the rows its caption's blocks missed (a sub-caption between them and the caption) are the
    # parts' rows: no table without a caption is found in them
    document = parse_pdf(SCIFACT)
    assert [table.label for table in document.tables if table.page == 4] == ["2 (a)", "2 (b)"]
    assert [table.label for table in document.tables if table.page == 12] == ["6 (a)", "6 (b)", "7 (a)", "7 (b)"]
