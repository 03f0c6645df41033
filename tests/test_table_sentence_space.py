"""A justified cell (LaTeX's ``p{}``) whose line of few spaces stretches the space after a
sentence's end to a column's gap ("Fed to embed().        An"): the word after it is the cell's,
not a column of its own, since with the words before it the line fills the measure of the line
under it (dimRed's S4 classes). The PDF is made here."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded.table_engine import read_table_page, table_rows

_RIGHT = 430.0
_CELL = 200.0


def _justified(page: Canvas, baseline: float, words: str) -> None:
    page.text(
        _CELL, baseline, words, "Times-Roman", 10, word_spacing=(_RIGHT - _CELL - text_width(words, "Times-Roman", 10)) / words.count(" ")
    )


def _page() -> Canvas:
    page = Canvas(612.0, 792.0)
    page.text(200, 90, "Table 2: The classes used in the package.", "Times-Roman", 10)
    page.rule(110, 104, _RIGHT, 104, 0.6)
    page.text(115, 116, "Class", "Times-Roman", 10)
    page.text(_CELL, 116, "Function", "Times-Roman", 10)
    page.rule(110, 121, _RIGHT, 121, 0.4)
    page.text(115, 134, "Data", "Courier", 10)
    # the word spaces stretched a little, the space after the sentence by a column's gap
    sentence = "Holds the data for a method. Fed to embed()."
    end = _RIGHT - text_width("An", "Times-Roman", 10) - 19
    page.text(
        _CELL, 134, sentence, "Times-Roman", 10, word_spacing=(end - _CELL - text_width(sentence, "Times-Roman", 10)) / sentence.count(" ")
    )
    page.text(_RIGHT - text_width("An", "Times-Roman", 10), 134, "An", "Times-Roman", 10)
    _justified(page, 146, "import method exists for the frames, matrices and formulas")
    page.text(_CELL, 158, "that the user has.", "Times-Roman", 10)
    for index, (name, text) in enumerate(
        (("Method", "The virtual class, ancestor of all methods."), ("Result", "The result of the embedding."))
    ):
        page.text(115, 170 + 12 * index, name, "Courier", 10)
        page.text(_CELL, 170 + 12 * index, text, "Times-Roman", 10)
    page.rule(110, 190, _RIGHT, 190, 0.6)
    return page


def test_the_word_after_a_stretched_sentence_space_stays_in_its_cell(tmp_path: Path) -> None:
    pdf = tmp_path / "classes.pdf"
    pdf.write_bytes(write_pdf([_page()], "classes"))
    lines, rules, page_bbox = read_table_page(pdfium.PdfDocument(pdf), 1)
    caption = next(line for line in lines if line.text.startswith("Table 2"))
    cells = table_rows(lines, rules, page_bbox, (caption.x0, caption.top, caption.x1, caption.bottom))
    assert cells is not None
    assert all(len(row) == 2 for row in cells), cells
    assert any(row[1].startswith("Holds the data") and "An" in row[1] for row in cells), cells
