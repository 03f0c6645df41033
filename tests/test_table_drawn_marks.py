"""Rows set in columns that are no table, known by what is drawn around them and by the face
they are set in (:mod:`paperpyramid.parsers.embedded.table_detect`): a plot's labels among its
marks (a forest plot's study names and intervals beside its squares, over its axis's ticks), and
a program's output in a typewriter face whose font has no name (an old dvips's bitmap fonts, as
Bioconductor's Sweave vignettes print them), known by its even pitch."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.char_runs import even_pitch
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.parsers.embedded.table_detect import drawn_over, mark_uncaptioned
from paperpyramid.parsers.embedded.table_rules import BBox

_STUDIES = (
    ("Author(s) and Year", "Weight", "Relative Risk [95% CI]"),
    ("Aronson, 1948", "5.06%", "0.41 [0.13, 1.26]"),
    ("Ferguson & Simes, 1949", "6.36%", "0.20 [0.09, 0.49]"),
    ("Rosenthal et al, 1960", "6.44%", "0.26 [0.07, 0.92]"),
    ("Hart & Sutherland, 1977", "9.70%", "0.24 [0.18, 0.31]"),
    ("Frimodt-Moller et al, 1973", "8.87%", "0.80 [0.52, 1.25]"),
    ("Stein & Aronson, 1953", "10.10%", "0.46 [0.39, 0.54]"),
)
_PROSE = (
    "The forest plot shows the relative risk of each study with its confidence interval, drawn",
    "on a log scale, and the estimate of the random-effects model under the studies' rows.",
)


def _forest_page(drawn: bool) -> Canvas:
    """Prose, then the studies' rows in Helvetica; with ``drawn``, each row's interval and square
    between its weight and its figures, and an axis with its ticks under the rows."""
    page = Canvas(612.0, 792.0)
    baseline = 90.0
    for line in _PROSE:
        page.text(72, baseline, line, "Times-Roman", 10)
        baseline += 13
    baseline += 20
    for number, row in enumerate(_STUDIES):
        for x, cell in zip((72, 210, 430), row, strict=True):
            page.text(x, baseline, cell, "Helvetica", 8)
        if drawn and number:
            middle = 280 + 15 * number
            page.rule(middle - 30, baseline - 3, middle + 30, baseline - 3, 0.5)
            page.box(middle - 2, baseline - 5, middle + 2, baseline - 1, 0.5)
        baseline += 12
    if drawn:
        page.rule(250, baseline, 410, baseline, 0.5)
        for tick in range(250, 411, 40):
            page.rule(tick, baseline, tick, baseline + 4, 0.5)
    baseline += 30
    for line in _PROSE:
        page.text(72, baseline, line, "Times-Roman", 10)
        baseline += 13
    return page


@pytest.mark.parametrize("drawn", [True, False], ids=["among-a-plots-marks", "alone"])
def test_a_plots_labels_among_its_marks_are_no_table(tmp_path: Path, drawn: bool) -> None:
    # metafor's forest plots, hexbin's legends, robustbase's panels: the labels line up in
    # columns, but a table draws rules, never squares and ticks among its rows
    pdf = tmp_path / "forest.pdf"
    pdf.write_bytes(write_pdf([_forest_page(drawn)], "a forest plot"))
    tables = parse_pdf(pdf).tables
    if drawn:
        assert tables == []
    else:
        assert len(tables) == 1
        assert ["Aronson, 1948", "5.06%", "0.41 [0.13, 1.26]"] in tables[0].cells


def test_a_tables_rules_and_a_shaded_band_are_no_plot() -> None:
    box: BBox = (72.0, 100.0, 500.0, 200.0)
    rules_and_band = [(72.0, 98.0, 500.0, 99.0), (72.0, 120.0, 500.0, 120.5), (72.0, 200.0, 500.0, 201.0), (70.0, 130.0, 502.0, 142.0)]
    assert not drawn_over(box, rules_and_band * 3)
    ticks = [(100.0 + 40 * k, 205.0, 100.5 + 40 * k, 209.0) for k in range(6)]
    assert drawn_over(box, ticks)


# R's printed output at 10 pt in a typewriter face is 6 pt a character
_PITCH = 6.0
_OUTPUT = (
    ("2516", "GO:0005737", "4.422203e-11", "cytoplasm", "CC"),
    ("126", "GO:0000278", "5.678240e-10", "mitotic cell cycle", "BP"),
    ("2462", "GO:0005615", "3.153413e-08", "extracellular space", "CC"),
    ("10868", "GO:0044281", "8.432398e-08", "small molecule metabolism", "BP"),
)
_COLUMNS = (72.0, 110.0, 190.0, 290.0, 420.0)


def _width(text: str, typewriter: bool) -> float:
    return _PITCH * len(text) if typewriter else text_width(text, "Times-Roman", 10)


def _line(text: str, x0: float, top: float, typewriter: bool) -> Line:
    """A line in a font without a name, at a fixed pitch or as Times sets it."""
    words, x = [], x0
    for word in text.split():
        words.append((word, x, x + _width(word, typewriter)))
        x += _width(word + " ", typewriter)
    return Line(text, 1, x0, top, words[-1][2], top + 10, 10, False, False, "", words=words)


@pytest.mark.parametrize("typewriter", [True, False], ids=["fixed-pitch", "text-face"])
def test_output_in_an_unnamed_face_of_even_pitch_under_its_command_is_no_table(typewriter: bool) -> None:
    # goseq's, TitanCNA's and ROTS's vignettes print R's output in fonts pdfium finds no name
    # for: their even pitch tells the typewriter face the name test cannot
    blocks = [Block([_line("> head(GO.wall)", 72, 90, typewriter)])]
    blocks += [
        Block([_line(cell, x0, 110 + 13.5 * k, typewriter) for cell, x0 in zip(row, _COLUMNS, strict=True)])
        for k, row in enumerate(_OUTPUT)
    ]
    cells = [list(row) for row in _OUTPUT]
    mark_uncaptioned(blocks, lambda page, box: cells)
    captions = [block for block in blocks if block.kind == "caption"]
    assert len(captions) == (0 if typewriter else 1)


def test_output_of_even_pitch_under_a_line_of_it_alone_is_no_table() -> None:
    # the command sits further up, past a line of the output alone on its baseline (its header,
    # or the output run on from the page before): that line has no font name either
    blocks = [Block([_line("Ignoring length bias gives very different results.", 72, 30, False)])]
    blocks.append(Block([_line("category over_represented_pvalue term ontology", 72, 80, True)]))
    blocks += [
        Block([_line(cell, x0, 110 + 13.5 * k, True) for cell, x0 in zip(row, _COLUMNS, strict=True)]) for k, row in enumerate(_OUTPUT)
    ]
    cells = [list(row) for row in _OUTPUT]
    mark_uncaptioned(blocks, lambda page, box: cells)
    assert not any(block.kind == "caption" for block in blocks)


@pytest.mark.parametrize(
    ("font", "even"),
    [("Courier", True), ("Times-Roman", False), ("Helvetica", False)],
)
def test_a_typewriter_face_is_known_by_its_pitch(font: str, even: bool) -> None:
    words = ["cytoplasm", "GO:0005737", "numInCat", "BP", "4.422203e-11", "extracellular"]
    assert even_pitch((word, text_width(word, font, 10)) for word in words) is even


def test_numbers_printed_alike_tell_no_pitch() -> None:
    # "1.25e-05" and "3.50e-07" are as wide per character in any face; digits alone too
    numbers = ["1.25e-05", "3.50e-07", "6.75e-02", "2017", "239"]
    assert not even_pitch((number, text_width(number, "Times-Roman", 10)) for number in numbers)
