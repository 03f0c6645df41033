"""What the sixth unseen batch (JSS and Bioconductor vignettes) taught the table engine, on
small constructed inputs: R's console output whose padded columns a line's text collapses
(known by its even pitch all the same), output led into by a sentence in the text face, a plot
included as a PDF figure (a form XObject) whose marks lie where the form puts them, and a
table printed above its caption whose region runs up past an inner rule far from its header
but not past a code box's shading over it."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from benchmarks.synthetic.canvas import Canvas, page_pdf, stream_object, text_width, write_pdf
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.char_runs import even_pitch
from paperpyramid.parsers.embedded.layout import Line
from paperpyramid.parsers.embedded.table_detect import mark_uncaptioned
from paperpyramid.parsers.embedded.table_engine import extract_table
from paperpyramid.parsers.embedded.table_rules import read_marks, read_rules
from tests.test_table_groups import _caption

# R's output at 9 pt in a typewriter face: this many points a character
_PITCH = 5.23


def _typed(text: str, x0: float, top: float, font: str = "") -> Line:
    """A line of R's output at a fixed pitch, its runs of spaces collapsed to one in its text
    (its width still that of every space printed), without words, as the detector sees it."""
    return Line(" ".join(text.split()), 1, x0, top, x0 + _PITCH * len(text), top + 9, 9, False, False, font)


def test_console_columns_padded_with_spaces_keep_their_pitch() -> None:
    # ebseq's and NOISeq's vignettes print R's output in fonts pdfium finds no name for; R pads
    # a matrix's columns ("  1  1  1  2"), and the pieces the collapsed spaces widened hid the pitch
    printed = ["> PosParti.4Cond", "C1 C2 C3 C4", *(f"Pattern{k}" for k in range(1, 6))]
    printed += ["1  1  1  2", "1  1  2  2", "1  2  1  1", "1  2  2  1", "1  2  2  2", "1  1  2  3"]
    assert even_pitch((" ".join(text.split()), _PITCH * len(text)) for text in printed)


def test_spaced_pieces_of_a_text_face_tell_no_pitch() -> None:
    # a text face's words are as wide as their letters, no whole number of one pitch
    words = ["Pattern1", "Pattern2", "Pattern3", "Normalized counts", "rpkm, uqua, tmm", "Technical replicates", "0.5 NULL"]
    assert not even_pitch((word, text_width(word, "Times-Roman", 10)) for word in words)


def test_output_led_into_by_a_sentence_in_the_text_face_is_no_table() -> None:
    # qvalue's vignette: "The object contains several relevant fields:" in Computer Modern
    # over the command and its output in CMTT; the sentence, taken for the rows' header, left
    # too few of the run's letters in the typewriter face to tell a listing
    lead = Line("The object contains several relevant fields:", 1, 72, 561, 308, 571, 10, False, False, "CMR10")
    blocks = [Block([lead]), Block([_typed("names(qobj)", 72, 577, "CMTT10")])]
    rows = (
        ('## [1] "call"', '"pi0"', '"qvalues"'),
        ('## [4] "pvalues"', '"lfdr"', '"pi0.lambda"'),
        ('## [7] "lambda"', '"pi0.smooth"', '"m"'),
    )
    for k, row in enumerate(rows):
        blocks.append(Block([_typed(cell, x0, 599 + 12 * k, "CMTT10") for cell, x0 in zip(row, (72.0, 177.0, 260.0), strict=True)]))
    cells = [list(row) for row in rows]
    mark_uncaptioned(blocks, lambda page, box: cells)
    assert not any(block.kind == "caption" for block in blocks)


def _form_pdf() -> bytes:
    """A page that draws a plot as R's ``pdf()`` figure is included: a form XObject placed
    by a ``cm`` that doubles it and moves it to (100, 300), holding two points and an axis."""
    form = b"q 10 10 4 4 re f 50 20 4 4 re f 0.4 w 0 0 m 120 0 l S Q"
    page = b"q 2 0 0 2 100 300 cm /Fig Do Q"
    return page_pdf(page, b"/XObject << /Fig 5 0 R >>", stream_object(form, b"/Type /XObject /Subtype /Form /BBox [0 0 200 200]"))


def test_marks_and_rules_inside_a_form_lie_where_the_form_puts_them(tmp_path: Path) -> None:
    # bioc-snpstats' hexbin plots: pdfium gives the bounds of a form's paths in the form's own
    # space, so the hexagons lay off the plot and its legend's counts were read as a table
    path = tmp_path / "form.pdf"
    path.write_bytes(_form_pdf())
    pdf = pdfium.PdfDocument(path)
    try:
        marks = sorted(read_marks(pdf[0]))
        rules = [rule for rule in read_rules(pdf[0]) if rule.x1 - rule.x0 > 50]
    finally:
        pdf.close()
    # the point at (10, 10)-(14, 14) in the form: (120, 320)-(128, 328) up the page, 792 - 328 from its top
    assert [tuple(round(value) for value in mark) for mark in marks] == [(120, 464, 128, 472), (200, 444, 208, 452)]
    assert [(round(rule.x0), round(rule.x1), round(rule.y)) for rule in rules] == [(99, 341, 492)]  # its stroke's ends


_FONT = "Times-Roman"


def _long_table_page(code_box: bool) -> Canvas:
    """A table printed above its caption (JSS, Bioconductor): top and header rules, rows, an
    inner rule over its last group, the bottom rule, the caption under it; with ``code_box``, a
    short table under a shaded code box (its sides wider than the table) instead."""
    page = Canvas(612.0, 792.0)
    columns = (120, 260, 380)
    if code_box:
        page.text(72, 70, "The result of data input is an instance of a class, shown below for a small file.", _FONT, 10)
        page.fill(80, 90, 530, 140, 0.9)
        page.text(90, 105, "> fq <- readFastq(fl)", "Courier", 9)
        page.text(90, 125, "> summary(fq)", "Courier", 9)
        page.rule(200, 160, 420, 160, 0.4)
        rows = (("DNAStringSet", "Short read sequences"), ("FastqQuality", "Quality encodings"), ("ShortReadQ", "Reads and ids"))
        for k, (name, text) in enumerate(rows):
            page.text(205, 175 + 13 * k, name, _FONT, 10)
            page.text(310, 175 + 13 * k, text, _FONT, 10)
        page.rule(200, 210, 420, 210, 0.4)
        page.text(200, 228, "Table 2: Primary data types of the package", _FONT, 10)
        return page
    page.rule(110, 80, 500, 80, 0.4)
    for x, label in zip(columns, ("Algorithm", "Method", "Input"), strict=True):
        page.text(x, 93, label, _FONT, 10)
    page.rule(110, 98, 500, 98, 0.4)
    baseline = 112.0
    for k in range(26):
        for x, cell in zip(columns, (f"Algorithm number {k + 1}", f'"M{k + 1}"', "dist"), strict=True):
            page.text(x, baseline, cell, _FONT, 10)
        baseline += 14
    page.rule(110, baseline - 9, 500, baseline - 9, 0.4)
    baseline += 4
    for k in range(2):
        for x, cell in zip(columns, (f"Matrix method {k + 1}", f'"B{k + 1}"', "matrix"), strict=True):
            page.text(x, baseline, cell, _FONT, 10)
        baseline += 14
    page.rule(110, baseline - 9, 500, baseline - 9, 0.4)
    page.text(110, baseline + 6, "Table 1: Currently implemented methods for seriation.", _FONT, 10)
    return page


def test_a_long_tables_region_runs_past_an_inner_rule_far_from_its_header(tmp_path: Path) -> None:
    # jss-seriation Table 1: 380 pt of rows between the header rule and the rule over the last
    # group; the region up from the caption stopped at that rule (4 rows of 22)
    pdf = tmp_path / "long.pdf"
    pdf.write_bytes(write_pdf([_long_table_page(code_box=False)], "long table"))
    rows = extract_table(pdf, *_caption(pdf, "Table 1:"))
    assert rows is not None
    assert rows[0] == ["Algorithm", "Method", "Input"]
    assert ["Algorithm number 1", '"M1"', "dist"] in rows
    assert ["Matrix method 2", '"B2"', "matrix"] in rows


def test_a_code_boxs_shading_over_a_table_is_none_of_its_rules(tmp_path: Path) -> None:
    # bioc-shortread-overview Table 2: the shaded boxes of the code over the table gave rules
    # wider than it, and the region ran up through them to the previous caption (the text and
    # code under the caption were read instead: 5 rows of 1 for 3 of 2)
    pdf = tmp_path / "boxed.pdf"
    pdf.write_bytes(write_pdf([_long_table_page(code_box=True)], "code box"))
    rows = extract_table(pdf, *_caption(pdf, "Table 2:"))
    assert rows == [["DNAStringSet", "Short read sequences"], ["FastqQuality", "Quality encodings"], ["ShortReadQ", "Reads and ids"]]


def _stacked_names_page() -> Canvas:
    """JSS's table of methods: a row per algorithm, its methods' names stacked in one cell over
    lines (the row's other cells on its first line), and a group of rows under one label, each
    with its own cells, all at the text's leading."""
    page = Canvas(612.0, 792.0)
    columns = (100, 230, 340, 460)
    rows = (
        ("Algorithm", "method", "Optimizes", "Input data"),
        ("Simulated annealing", '"ARSA"', "Linear seriation", "dist"),
        ("Optimal leaf ordering", '"OLO"', "Path length", "dist"),
        ("", '"OLO_single"', "", ""),
        ("", '"OLO_average"', "", ""),
        ("MDS", '"MDS"', "Least squares", "dist"),
        ("", '"MDS_metric"', "", ""),
        ("QAP", '"QAP_2SUM"', "2-Sum", "dist"),
        ("", '"QAP_LS"', "Linear seriation", "dist"),
        ("", '"QAP_BAR"', "Banded AR form", "dist"),
        ("Genetic Algorithm", '"GA"', "various", "dist"),
        ("Rank-two ellipse", '"R2E"', "Other", "dist"),
        ("", "", "Bond energy, the", ""),
        ("Bond Energy", '"BEA"', "effectiveness measure", "matrix"),
        ("", "", "", "dissimilarity"),
    )
    page.rule(95, 80, 520, 80, 0.4)
    baseline = 93.0
    for index, row in enumerate(rows):
        for x, cell in zip(columns, row, strict=True):
            page.text(x, baseline, cell, _FONT, 10)
        if index == 0:
            page.rule(95, baseline + 4, 520, baseline + 4, 0.4)
            baseline += 4
        baseline += 12
    page.rule(95, baseline - 8, 520, baseline - 8, 0.4)
    page.text(100, baseline + 6, "Table 1: Currently implemented methods.", _FONT, 10)
    return page


def test_names_stacked_in_a_cell_are_one_row_and_a_groups_rows_stay_rows(tmp_path: Path) -> None:
    # jss-seriation Table 1: "OLO" over "OLO_single" over "OLO_average" in one cell, the row's
    # "dist" on its first line only, were read as rows of their own (38 rows for 22); the rows
    # of QAP's group each fill "dist" and stay rows
    pdf = tmp_path / "stacked.pdf"
    pdf.write_bytes(write_pdf([_stacked_names_page()], "stacked names"))
    rows = extract_table(pdf, *_caption(pdf, "Table 1:"))
    assert rows is not None
    assert ["Optimal leaf ordering", '"OLO" "OLO_single" "OLO_average"', "Path length", "dist"] in rows
    assert ["MDS", '"MDS" "MDS_metric"', "Least squares", "dist"] in rows
    assert ["", '"QAP_LS"', "Linear seriation", "dist"] in rows
    # an entry of a list in the last column stays a row, and so does the first line of the
    # next row's cell, going on in lower case under it (its label set lower)
    assert ["Bond Energy", '"BEA"', "effectiveness measure", "matrix"] in rows
    assert ["Rank-two ellipse", '"R2E"', "Other", "dist"] in rows
    assert len(rows) == 12
