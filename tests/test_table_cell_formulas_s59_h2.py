"""A table of descriptions ruled under every row whose cells hold display formulas (the NMF
vignette's algorithms, unseen batch 15, issue 32), drawn in the test as LaTeX sets it: a
fraction's bar inside a cell is a short rule within its column, and parts no rows; each band
between two rules across the table is one row.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.table_engine import extract_table
from tests.test_table_groups import _caption
from tests.unseen_pdfs import unseen_folder

BATCH15 = unseen_folder(15)
_FONT = "Times-Roman"
_CODE = "Courier"
_ROWS = (
    (
        "brunet",
        (
            "Standard NMF. Based on Kullback-Leibler divergence, it uses simple multi-",
            "plicative updates, enhanced to avoid numerical underflow.",
        ),
    ),
    ("lee", ("Standard NMF. Based on euclidean distance, it uses simple multiplicative", "updates of both factors.")),
    (
        "offset",
        ("Uses a modified version of the multiplicative updates for euclidean", "distance, to fit a NMF model that includes an intercept."),
    ),
    (
        "pe-nmf",
        ("Pattern-Expression NMF. Uses multiplicative updates to minimize an", "objective function based on the Euclidean distance."),
    ),
)


def _page() -> Canvas:
    page = Canvas(595.0, 842.0)
    page.rule(90, 109, 513, 109, 0.4)
    page.text(96, 118, "Key", _FONT, 9)
    page.text(177, 118, "Description", _FONT, 9)
    y = 121.0
    page.rule(90, y, 513, y, 0.4)
    for index, (key, lines) in enumerate(_ROWS):
        page.text(96, y + 9, key, _CODE, 9)
        for number, line in enumerate(lines):
            page.text(177, y + 9 + 11 * number, line, _FONT, 9)
        y += 11 * len(lines)
        if index == 0:  # a display formula under the text: a fraction, its bar a short rule between its lines
            page.text(330, y + 18, "(W V)kj", _FONT, 7)
            page.rule(326, y + 21, 372, y + 21, 0.4)
            page.text(266, y + 30, "Hkj  <-  Hkj  (W W H)kj", _FONT, 9)
            page.text(494, y + 30, "(3)", _FONT, 9)
            y += 36
        page.text(177, y + 9, "Reference: (Lee et al. 2001)", _FONT, 9)
        y += 13
        page.rule(90, y, 513, y, 0.4)
    page.text(90, y + 20, "Table 1: Description of the implemented NMF algorithms.", _FONT, 9)
    page.text(90, y + 60, "For a review on some existing NMF initializations see the references therein, and the", _FONT, 10)
    page.text(90, y + 73, "package implements a number of already published seeding methods as well as a framework.", _FONT, 10)
    return page


def test_a_fraction_in_a_cell_parts_no_rows(tmp_path: Path) -> None:
    # the fraction's bar was a rule between rows: the formula's lines and the reference under
    # it were rows of their own, the first cell empty
    pdf = tmp_path / "formulas.pdf"
    pdf.write_bytes(write_pdf([_page()], "cell formulas"))
    rows = extract_table(pdf, *_caption(pdf, "Table 1:"))
    assert rows is not None
    assert [row[0] for row in rows] == ["Key", "brunet", "lee", "offset", "pe-nmf"], rows
    assert rows[1][1].startswith("Standard NMF.") and rows[1][1].endswith("Reference: (Lee et al. 2001)"), rows[1]


@pytest.mark.skipif(not BATCH15.is_dir(), reason="unseen batch 15 is built outside the repository (benchmarks/unseen_set.py)")
def test_the_nmf_vignettes_algorithms_are_a_row_each() -> None:
    tables = {table.label: table for table in parse_pdf(BATCH15 / "nmf-factorization-vignette.pdf").tables}
    assert [row[0] for row in tables["1"].cells] == ["Key", "brunet", "lee", "nsNMF", "offset", "pe-nmf", "snmf/r, snmf/l"]
