"""What lies next to a table in an R vignette (unseen batch 15, issue 32), drawn in the test as
knitr, the listings package and LaTeX set it: a frame round code, or the sentence introducing
the table, is no part of it.

- the shaded box of a knitr chunk just over a table printed over its caption, its top and bottom
  sides across the table's width: the rules of the table stop under it;
- a listing framed at its sides and foot alone (its line numbers left of the frame) just under a
  table: its foot is no rule closing the table, and its lines are no rows;
- a sentence introducing a table printed over its caption, set at the margin left of the table's
  cells (ruled ``{l|l|l}`` with no rule across over it, or not ruled at all): no row;
- a table boxed group by group over its caption: every group is the table's.

Each case is checked on the batch-15 paper that showed it where the set is built.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.layout import extract_page
from paperpyramid.parsers.embedded.table_engine import extract_table, table_page
from paperpyramid.parsers.embedded.table_region import find_region
from tests.test_table_groups import _caption
from tests.unseen_pdfs import unseen_folder

BATCH15 = unseen_folder(15)
_FONT = "Times-Roman"
_CODE = "Courier"


def _region(pdf: Path, label: str) -> tuple[float, float, float, float] | None:
    _, caption = _caption(pdf, label)
    document = pdfium.PdfDocument(pdf)
    try:
        lines, rules, box = table_page(document, extract_page(document[0], 1, split_numbers=True))
    finally:
        document.close()
    return find_region(lines, rules, box, caption)


_SEEDS = (
    (
        "ica",
        (
            "Uses the result of an Independent Component Analysis (ICA) from the fastICA package.",
            "Only the positive part of the result are used to initialize the factors.",
        ),
    ),
    (
        "nnsvd",
        (
            "Nonnegative Double Singular Value Decomposition. The basic algorithm contains",
            "no randomization and is based on two SVD processes, one approximating the data",
            "matrix, the other approximating positive sections of the resulting partial SVD factors.",
        ),
    ),
    ("none", ("Fix seed. This method allows the user to manually provide initial values for both", "matrix factors.")),
)


def test_a_code_box_closed_over_a_table_is_no_part_of_it(tmp_path: Path) -> None:
    # the shaded box of the code chunk just over the table has its top and bottom sides across
    # the table's width: the rules up from the table's bottom rule ran on into it, and the
    # region held the code, read as no table (an R vignette's table under a knitr chunk)
    page = Canvas(595.0, 842.0)
    page.fill(87, 112, 516, 239, 0.95)
    page.box(87, 112, 516, 239, 0.1)
    for index, code in enumerate(("# retrieve a specific method: 'nndsvd'", "nmfSeed('nndsvd')", "## <object of class: NMFSeed >")):
        page.text(90, 124 + 22 * index, code, _CODE, 8)
    top = 255.0
    page.rule(90, top, 513, top, 0.8)
    page.text(96, top + 10, "Key", _FONT, 8.8)
    page.text(140, top + 10, "Description", _FONT, 8.8)
    y = top + 13
    page.rule(90, y, 513, y, 0.8)
    for key, lines in _SEEDS:
        page.text(96, y + 10, key, _CODE, 8.3)
        for index, line in enumerate(lines):
            page.text(140, y + 10 + 11 * index, line, _FONT, 8.8)
        y += 13 + 11 * (len(lines) - 1)
        page.rule(90, y, 513, y, 0.8)
    page.text(90, y + 23, "Table 2: Description of the implemented seeding methods.", _FONT, 8.8)
    page.text(90, y + 70, "Method nmf provides a single interface to run NMF algorithms on the data of the package.", _FONT, 10)
    page.text(90, y + 83, "It can directly perform NMF on objects of class matrix or data.frame and on expression sets.", _FONT, 10)
    pdf = tmp_path / "chunk.pdf"
    pdf.write_bytes(write_pdf([page], "code box over"))
    region = _region(pdf, "Table 2:")
    assert region is not None and region[1] > 239.0, region  # under the box's bottom side
    rows = extract_table(pdf, *_caption(pdf, "Table 2:"))
    assert rows == [["Key", "Description"], *([key, " ".join(lines)] for key, lines in _SEEDS)], rows


_RESULTS = (
    ("Relationship", "Impact", "Single Group", "2", "5"),
    ("Random", "No", "4.60", "1.60", "1.40"),
    ("Linear", "No", "100.00", "96.80", "4.00"),
    ("Quadratic", "No", "100.00", "98.80", "47.40"),
)
_LISTING = (
    "dif_id <- covariate > median(covariate)",
    "",
    "d$resp <- matrix(NA, N, length(model$items))",
    "d$resp[!dif_id, ] <-",
    "  rpl(theta[!dif_id],",
)


def test_a_listing_framed_under_a_table_is_no_part_of_it(tmp_path: Path) -> None:
    # the frame's foot reaches past the table's rules on both sides: it was taken for the rule
    # closing the table, whose rows then took the listing's numbered lines (a first column of
    # line numbers, every other column shifted right of its header)
    page = Canvas(595.0, 842.0)
    page.text(156, 118, "Table 1: Simulation 1: Results on the Type I error in the 2PL model.", _FONT, 10.9)
    page.rule(156, 146, 447, 146, 0.8)
    for index, row in enumerate(_RESULTS):
        for x, cell in zip((162, 225, 300, 360, 400), row, strict=True):
            page.text(x, 156 + 14 * index + (4 if index else 0), cell, _FONT, 9)
        if index == 0:
            page.rule(156, 160, 447, 160, 0.8)
    bottom = 156 + 14 * (len(_RESULTS) - 1) + 10
    page.rule(156, bottom, 447, bottom, 0.8)
    top = bottom + 25
    for index, code in enumerate(_LISTING):
        page.text(64, top + 8 + 9.5 * index, str(19 + index), _CODE, 4.2)
        page.text(92, top + 8 + 9.5 * index, code, _CODE, 7.3)
        for x in (77.8, 525.2):
            page.rule(x, top + 9.5 * index, x, top + 9.5 * (index + 1) + 0.3, 0.8)
    foot = top + 9.5 * len(_LISTING)
    page.rule(81, foot, 522, foot, 0.8)
    page.text(72, foot + 30, "This is the only necessary change. Since we have included a model violation, our hit rate now", _FONT, 10)
    page.text(
        72, foot + 43, "represents the power. Results are given in Table 2, where each scenario is set against the others.", _FONT, 10
    )
    pdf = tmp_path / "listing.pdf"
    pdf.write_bytes(write_pdf([page], "listing under"))
    region = _region(pdf, "Table 1:")
    assert region is not None and region[3] < top, region  # over the listing's frame
    assert extract_table(pdf, *_caption(pdf, "Table 1:")) == [list(row) for row in _RESULTS]


@pytest.mark.skipif(not BATCH15.is_dir(), reason="unseen batch 15 is built outside the repository (benchmarks/unseen_set.py)")
def test_the_psychotools_simulation_tables_keep_their_columns() -> None:
    tables = {table.label: table for table in parse_pdf(BATCH15 / "psychotools-invariance-simulation.pdf").tables}
    assert tables["1"].cells[3][:3] == ["Random", "No", "4.60"], tables["1"].cells
    assert len(tables["1"].cells) == 9


_KERNELS = (
    ("name", "function", "support"),
    ("gaussian", "exp(-x^2/2)", "x in R"),
    ("cosine", "cos(x)", "x in (-1, 1]"),
    ("uniform", "1/2", "x in (-1, 1]"),
)


def test_a_sentence_over_a_table_ruled_by_columns_is_no_row(tmp_path: Path) -> None:
    # ``{l|l|l}`` with a rule under the header alone, printed over its caption: no rule across
    # closes it over, and the sentence introducing it (a paragraph of one line, short of the
    # right margin, left of the table's cells) and the list over that were read as its first rows
    page = Canvas(595.0, 842.0)
    items = ("2. K has the property that its first moment is zero and", "3. K is assumed to be symmetric K(-x) = K(x) and")
    for index, item in enumerate(items):
        page.text(94, 300 + 24 * index, item, _FONT, 10.9)
    page.text(81, 387, "The kernel functions currently implemented in this library are listed in table 1.", _FONT, 10.9)
    top = 401.0
    for index, row in enumerate(_KERNELS):
        row_top = top + (0 if index == 0 else 14.5 + 13.5 * (index - 1))
        height = 14.5 if index == 0 else 13.5
        for x, cell in zip((147, 233, 294), row, strict=True):
            page.text(x, row_top + 10, cell, _FONT, 10.9)
        for x in (216.4, 288.3):
            page.rule(x, row_top, x, row_top + height, 0.8)
        if index == 0:
            page.rule(141, row_top + height, 462, row_top + height, 0.8)
    bottom = top + 14.5 + 13.5 * (len(_KERNELS) - 1)
    page.text(263, bottom + 18, "Table 1: kernels", _FONT, 10.9)
    page.text(81, bottom + 50, "A common approach to create two-dimensional kernel functions is to derive them from one-", _FONT, 10.9)
    page.text(81, bottom + 63, "dimensional kernels as bivariate densities with independent components of the same type.", _FONT, 10.9)
    pdf = tmp_path / "ruled.pdf"
    pdf.write_bytes(write_pdf([page], "column rules"))
    assert extract_table(pdf, *_caption(pdf, "Table 1:")) == [list(row) for row in _KERNELS]


_GROUPS = (
    (
        "strucplot",
        (
            ("struc_assoc()", "core function for association plots"),
            ("struc_mosaic()", "core function for mosaic plots"),
            ("struc_sieve()", "core function for sieve plots"),
        ),
    ),
    (
        "labeling",
        (("labeling_border()", "border labels"), ("labeling_cells()", "cell labels"), ("labeling_left()", "left-aligned border labels")),
    ),
    (
        "shading",
        (
            ("shading_binary()", "visualizes the sign of the residuals"),
            ("shading_hcl()", "shading based on HCL colors"),
            ("shading_max()", "shading visualizing the maximum"),
        ),
    ),
)


def test_a_table_boxed_group_by_group_keeps_every_group(tmp_path: Path) -> None:
    # each group of rows in a box of its own, the boxes a couple of points apart: the bottom of
    # one box, the next box's sides starting just under it, is no box closed over the table
    page = Canvas(595.0, 842.0)
    page.text(72, 90, "The grapcon generators of the framework are listed in the table below, group by group.", _FONT, 10)
    top = 150.0
    page.box(82, top, 566, top + 14, 0.4)
    for x, label in zip((85, 137, 281), ("Group", "Grapcon generator", "Description"), strict=True):
        page.text(x, top + 10, label, _FONT, 10)
    y = top + 14
    for group, rows in _GROUPS:
        y += 3.0
        height = 13.0 * len(rows) + 2
        page.box(82, y, 566, y + height, 0.4)
        for x in (134.5, 277.5):
            page.rule(x, y, x, y + height, 0.4)
        for index, (name, text) in enumerate(rows):
            page.text(85, y + 10 + 13 * index, group if index == 0 else "", _FONT, 9)
            page.text(137, y + 10 + 13 * index, name, _CODE, 9)
            page.text(281, y + 10 + 13 * index, text, _FONT, 9)
        y += height
    page.text(145, y + 18, "Table 2: Available grapcon generators in the strucplot framework", _FONT, 10)
    page.text(72, y + 60, "The generators are called by the plotting functions with the arguments of the framework.", _FONT, 10)
    pdf = tmp_path / "groups.pdf"
    pdf.write_bytes(write_pdf([page], "boxed groups"))
    region = _region(pdf, "Table 2:")
    assert region is not None and region[1] <= top + 1.0, region  # from the header's box down


_METHODS = (
    ("Function name", "Definition", "Critical value"),
    ("invchisq", "sum of chi-squares", "chi2(alpha)"),
    ("meanz", "mean of z values", "t(alpha)"),
    ("sumlog", "sum of -2 log p", "chi2(alpha)"),
)


def test_a_sentence_left_of_an_unruled_table_over_its_caption_is_no_row(tmp_path: Path) -> None:
    # the one-line paragraph introducing the table, set at the margin, the table's cells set in
    # by their column padding: it read as the table's first row (metap's "One class of methods
    # relies on transforming the p-values first.")
    page = Canvas(612.0, 792.0)
    page.text(111, 300, "3.2 Methods using transformation of the p-values", _FONT, 14)
    page.text(111, 324, "One class of methods relies on transforming the p-values first.", _FONT, 10.6)
    for index, row in enumerate(_METHODS):
        for x, cell in zip((117, 205, 330), row, strict=True):
            page.text(x, 347 + 22 * index, cell, _CODE if index and x == 117 else _FONT, 10)
    page.text(130, 347 + 22 * len(_METHODS) + 14, "Table 2: Definitions of methods using transformation of the p values", _FONT, 10.6)
    page.text(
        111,
        347 + 22 * len(_METHODS) + 50,
        "See Table 2 for the definition. This works because the sum of the values is known to be",
        _FONT,
        10.6,
    )
    page.text(
        111,
        347 + 22 * len(_METHODS) + 63,
        "distributed as a chi-square with degrees of freedom equal to the sum of the degrees of freedom.",
        _FONT,
        10.6,
    )
    pdf = tmp_path / "sentence.pdf"
    pdf.write_bytes(write_pdf([page], "sentence over"))
    assert extract_table(pdf, *_caption(pdf, "Table 2:")) == [list(row) for row in _METHODS]
