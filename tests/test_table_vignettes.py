"""Conventions of R's vignettes and the Journal of Statistical Software the table engine reads,
on small constructed pages: a program's output in a typewriter face with no command in sight,
typewriter faces known by one name test, a ``p{}`` column of justified descriptions beside row
labels over a caption printed under its table, a caption of its label alone under a table across
a page of one column, a grid whose rules part some columns only (``|l|ccccc|``), a radical sign
whose tall box reaches into the row above, functions described in lower case between rules that
part their groups, equations aligned on their "=", and a table of names over its caption on a
page of no running text."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded.char_runs import MONOSPACE_FONT
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.parser import parse_pdf
from paperpyramid.parsers.embedded.table_detect import not_a_table
from paperpyramid.parsers.embedded.table_engine import read_box, table_rows
from paperpyramid.parsers.embedded.table_printed_rows import printed_rows, row_cells
from paperpyramid.parsers.embedded.table_row_joins import join_rows
from paperpyramid.parsers.embedded.table_rules import Rule
from tests.test_table_typewriter import _OUTPUT  # the same R summary as the typewriter tests print

# a character of 10 pt type is this wide (the constructed pages' only font)
_CHAR = 5.0
_PAGE = (0.0, 0.0, 595.0, 842.0)


def _line(text: str, x0: float, top: float, size: float = 10.0, *, x1: float | None = None, font: str = "Times") -> Line:
    """A line of ``text`` from ``x0``, its words spaced as a font of ``size`` sets them (or
    spread to end at ``x1``: a justified line)."""
    char = _CHAR * size / 10
    split = text.split()
    letters = char * sum(len(word) for word in split)
    spread = ((x1 - x0 - letters) / max(1, len(split) - 1)) if x1 is not None else char
    words, x = [], x0
    for word in split:
        words.append((word, x, x + char * len(word)))
        x += char * len(word) + spread
    return Line(text, 1, x0, top, words[-1][2], top + size, size, False, False, font, words=words)


def _prose(top: float, count: int) -> list[Line]:
    """Lines of running text across a page of one column (81 to 522), justified."""
    return [_line("a line of running text set across the page from margin to margin", 81, top + 13.5 * k, x1=522) for k in range(count)]


_TEXT = (
    "The estimates follow, with their standard errors and the Wald tests of each coefficient, as",
    "the summary of the model prints them; the dispersion is taken to be one in this model.",
)
_CALL = "glm(formula = ofp ~ hosp + health + numchron + gender + school, family = poisson)"


def _output_page(call: bool) -> Canvas:
    """A page of a model's summary in Courier, no command or label in sight: under the model's
    call (more of the output, the command further up) or opening the page (the output runs on
    from the page before), prose under it."""
    page = Canvas(612.0, 792.0)
    baseline = 90.0
    if call:
        for line in _TEXT:
            page.text(72, baseline, line, "Times-Roman", 10)
            baseline += 13
        page.text(72, baseline + 10, _CALL, "Courier", 9)
        baseline += 22
    for row in _OUTPUT:
        baseline += 12
        for x, cell in zip((72, 160, 240, 320, 390), row, strict=True):
            page.text(x, baseline, cell, "Courier", 9)
    baseline += 24
    for line in _TEXT:
        page.text(72, baseline, line, "Times-Roman", 10)
        baseline += 13
    return page


@pytest.mark.parametrize("call", [True, False], ids=["under-its-call", "opening-the-page"])
def test_console_output_far_from_its_command_is_no_table(tmp_path: Path, call: bool) -> None:
    # a model's summary runs on for a page: its coefficients sit far under the "R> summary(fm)"
    # that printed them, past more of its output, or on the next page
    pdf = tmp_path / "output.pdf"
    pdf.write_bytes(write_pdf([_output_page(call)], "console output"))
    parsed = parse_pdf(pdf)
    assert parsed.tables == []
    assert "healthpoor" in " ".join(section.text for section in parsed.sections)


@pytest.mark.parametrize(
    ("name", "typewriter"),
    [
        ("CMTT10", True),
        ("CMSLTT10", True),
        ("ECTT1000", True),  # T1-encoded TeX (fontenc) without Latin Modern
        ("SFTT1000", True),
        ("t1xtt", True),  # txfonts
        ("LMMono10-Regular", True),
        ("pcrr8a", True),  # URW Courier by its TeX name
        ("NimbusMonL-Regu", True),
        ("Menlo-Regular", True),
        ("DejaVuSansMono", True),
        ("MonotypeCorsiva", False),
        ("CMR10", False),
        ("LMRoman10-Regular", False),
        ("Helvetica", False),
    ],
)
def test_typewriter_faces_are_known_by_one_name_test(name: str, typewriter: bool) -> None:
    assert bool(MONOSPACE_FONT.search(name)) is typewriter


def test_a_column_of_justified_descriptions_beside_labels_is_no_running_text() -> None:
    # JSS's tables of methods: a label, then a description in a p{} column, justified, so its
    # long lines share both edges like a column of text; the caption is printed under it
    rows = [
        ("method", ["what it does"]),
        ("stConstruct", ["creates STFDF or STIDF objects from single or multiple", "tables"]),
        ("[", ["select spatial and/or temporal subsets, and/or data", "variables"]),
        ("as", ["coerce to other spatio-temporal objects, xts, Spatial,", "matrix, or data.frame"]),
        ("over", ["overlay: retrieve index or data values of one object at the", "locations and times of another"]),
        ("aggregate", ["aggregate data values over particular spatial, temporal, or", "spatio-temporal domains"]),
    ]
    lines = _prose(40, 4)
    top = 110.0
    for label, description in rows:
        lines.append(_line(label, 122, top + 0.6, 9.2))  # in typewriter: a box a little lower and smaller
        for k, text in enumerate(description):
            lines.append(_line(text, 197, top, x1=481 if k < len(description) - 1 and len(text) >= 40 else None))
            top += 13.5
    caption = _line("Table 1: Methods for spatio-temporal data in package spacetime.", 145, top + 20)
    lines += [caption, *_prose(top + 50, 4)]
    cells = table_rows(lines, [], _PAGE, (caption.x0, caption.top, caption.x1, caption.bottom))
    assert cells is not None
    assert [row[0] for row in cells] == [label for label, _ in rows]
    assert cells[-1][1] == "aggregate data values over particular spatial, temporal, or spatio-temporal domains"


def test_a_caption_of_its_label_alone_under_a_table_across_a_page_of_one_column_reads_it_whole() -> None:
    # "Table 1:" set apart from its title by a wide space is a caption in the left half of the
    # page; on a page of one column its ruled table runs across the middle all the same
    header = ["", "y: Points", "y: Lines", "y: Polygons", "y: Pixels"]
    body = [["x: Points", "s", "r", "s", "s"], ["x: Lines", "r", "r", "r", "r:y"], ["x: Polygons", "s", "r", "r", "s:y"]]
    xs = (151.0, 230.0, 290.0, 350.0, 420.0)
    lines = _prose(40, 4)
    for k, row in enumerate([header, *body]):
        lines += [_line(cell, x, 126 + 12 * k) for cell, x in zip(row, xs, strict=True) if cell]
    rules = [Rule(145, y, 470, y) for y in (124.5, 137.0, 174.5)]
    caption = _line("Table 1:", 134, 186)
    lines += [caption, _line("over methods for different x and y arguments.", 186, 186), *_prose(216, 4)]
    cells = table_rows(lines, rules, _PAGE, (caption.x0, caption.top, caption.x1, caption.bottom))
    assert cells == [header, *body]


def test_a_grid_that_rules_off_its_label_column_only_is_read_by_its_text() -> None:
    # LaTeX's |l|ccccc| with an \hline under the header: the rules box the labels apart from a
    # body of unruled columns, which one ruled cell holds
    header = ["", "y: Points", "y: Lines", "y: Polygons", "y: Pixels"]
    body = [["x: Points", "s", "r", "s", "s"], ["x: Lines", "r", "r", "r", "r:y"], ["x: Polygons", "s", "r", "r", "s:y"]]
    body += [["x: Pixels", "s:x", "r:x", "s:x", "s:x"], ["x: Grid", "s:x", "r:x", "s:x", "s:x"]]
    xs = (151.0, 230.0, 290.0, 350.0, 420.0)
    lines = [_line(cell, x, 126 + 12 * k) for k, row in enumerate([header, *body]) for cell, x in zip(row, xs, strict=True) if cell]
    rules = [Rule(145, y, 470, y) for y in (124.5, 137.0, 185.5, 198.5)]  # the last row ruled apart too
    rules += [Rule(x, 124.5, x, 198.5) for x in (145.0, 208.0, 470.0)]
    assert read_box(lines, rules, (140.0, 120.0, 475.0, 200.0)) == [header, *body]


def test_a_tall_radical_sign_in_a_cell_keeps_its_row_apart_from_the_row_above() -> None:
    # a "√" from TeX's math extension font: its box rises seven points above its row's, into
    # the row above (rows 12 pt apart), and its bottom sits on its row's
    edges = [150.0, 270.0, 310.0, 350.0]
    labels = ["Partner height", "Partner income", "Duration", "Difference in income", "Age"]
    lines = []
    for k, label in enumerate(labels):
        top = 384.0 + 12 * k
        lines.append(_line(label, 154, top))
        for column, edge in enumerate(edges[1:-1], start=1):
            mark = "√" if column <= k + 1 else "—"
            tall = mark == "√"
            lines.append(Line(mark, 1, edge + 5, top - 7 if tall else top, edge + 13, top + 10, 17 if tall else 10, False, False, ""))
    rows = join_rows(printed_rows(lines), [], edges)
    assert [row_cells(row, edges)[0] for row in rows] == labels


def test_a_column_of_names_between_group_rules_opens_a_row_at_each_name() -> None:
    # vcd's table of functions: rules between groups of rows set at the text's leading, the
    # descriptions in lower case; each function's name opens a row, a line without one goes on
    edges = [80.0, 140.0, 280.0, 520.0]
    text = [
        ("Group", "Generator", "Description"),
        ("labeling", "labeling_border()", "border labels"),
        ("", "labeling_cboxed()", "centered labels with boxes, all labels clipped,"),
        ("", "", "and on top and left border"),
        ("", "labeling_cells()", "cell labels"),
        ("", "labeling_left()", "left-aligned border labels, all labels on top and left border"),
        ("shading", "shading_binary()", "visualizes the sign of the residuals"),
        ("", "shading_hcl()", "shading based on HCL colors"),
        ("", "shading_hsv()", "shading based on HSV colors"),
    ]
    lines = [
        _line(cell, edge + 2, 100 + 13.5 * row) for row, cells in enumerate(text) for cell, edge in zip(cells, edges, strict=False) if cell
    ]
    rules = [Rule(80, y, 520, y) for y in (98.0, 112.0, 179.0, 223.5)]
    rows = join_rows(printed_rows(lines), rules, edges)
    assert [row_cells(row, edges) for row in rows] == [
        ["Group", "Generator", "Description"],
        ["labeling", "labeling_border()", "border labels"],
        ["", "labeling_cboxed()", "centered labels with boxes, all labels clipped, and on top and left border"],
        ["", "labeling_cells()", "cell labels"],
        ["", "labeling_left()", "left-aligned border labels, all labels on top and left border"],
        ["shading", "shading_binary()", "visualizes the sign of the residuals"],
        ["", "shading_hcl()", "shading based on HCL colors"],
        ["", "shading_hsv()", "shading based on HSV colors"],
    ]


def test_equations_aligned_on_their_relation_signs_are_no_table() -> None:
    # JSS's list of estimators "HC0 : ω = û²", "HC1 : ω = n/(n−k) û²", each a display row
    cells = [
        ["HC0 :", "ωi", "=", "û2"],
        ["HC1 :", "ωi", "=", "n/(n − k) û2"],
        ["HC2 :", "ωi", "=", "û2/(1 − hi)"],
        ["HC3 :", "ωi", "=", "û2/(1 − hi)2"],
    ]
    assert not_a_table(cells)
    assert not not_a_table([["Model", "AIC", "BIC"], ["M1", "= 3.1", "4.0"], ["M2", "2.9", "3.8"], ["M3", "3.0", "3.9"]])


def test_a_table_of_names_over_its_caption_on_a_page_without_running_text_is_read_whole() -> None:
    # a table of methods fills the page over its caption; two of its rows, label and description
    # set close, read as one long line each, and one description wraps: the edges of these long
    # lines, shared by none of the others, are not running text's
    lines = []
    for k in range(12):
        top = 100 + 13.5 * k
        label, description = f"method{k} (5.2.{k})", f"what method {k} returns"
        if k in (4, 8):
            lines.append(_line(f"{label} {description}, in words of a sentence" + " longer" * (k // 4), 87, top))
        else:
            lines += [_line(label, 87, top), _line(description, 185, top)]
    lines.append(_line("and the long second line of a description wrapped under it", 185, 100 + 13.5 * 12))
    caption = _line("Table 8: List of currently available methods.", 120, 100 + 13.5 * 13 + 20)
    lines.append(caption)
    cells = table_rows(lines, [], _PAGE, (caption.x0, caption.top, caption.x1, caption.bottom))
    assert cells is not None
    assert cells[0][0] == "method0 (5.2.0)"
