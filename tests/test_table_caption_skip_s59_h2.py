"""Tables of R vignettes and LaTeX manuals that the engine read wrong (unseen batch 15, issue 32),
each drawn in the test as LaTeX sets it:

- a caption set under its ruled table by LaTeX's ``\\abovecaptionskip`` (10 pt of glue, the
  caption's top 21-23 pt under the bottom rule), another table under the caption: the table is
  the one over the caption, not the next one (Biostrings' quick overview: two tables a page);
- the same caption over a table of its own, its top rule close under it: the table is under it;
- a grid ruled ``{l|l}`` with an ``\\hline`` under the header alone (no rule over it): the header
  is the table's first row.

Each case is checked on the batch-15 paper that showed it where the set is built.
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
_FIRST = (("Function", "Description"), ("length", "Return the number of sequences."), ("names", "Return the names of the sequences."))
_SECOND = (("Function", "Description"), ("rev", "Reverse the order of the sequences."), ("width", "Return the sizes of the sequences."))


def _booktabs(page: Canvas, top: float, rows: tuple[tuple[str, str], ...]) -> float:
    """A two-column table ruled over, under its header and under its last row; the bottom rule's height."""
    page.rule(72, top, 540, top, 0.4)
    for index, (name, text) in enumerate(rows):
        baseline = top + 12 + 14 * index
        page.text(78, baseline, name, _CODE if index else _FONT, 9)
        page.text(260, baseline, text, _FONT, 9)
        if index == 0:
            page.rule(72, baseline + 4, 540, baseline + 4, 0.4)
    bottom = top + 12 + 14 * len(rows) - 8
    page.rule(72, bottom, 540, bottom, 0.4)
    return bottom


def test_a_caption_set_a_caption_skip_under_its_table_closes_it(tmp_path: Path) -> None:
    # the caption 22 pt under the bottom rule (more than the 18 pt of ACL's styles) read the
    # table under it, the next table's rows, and that table's caption found none
    page = Canvas(612.0, 792.0)
    page.text(72, 90, "Most but not all functions defined in the package are summarized here.", _FONT, 10)
    bottom = _booktabs(page, 110, _FIRST)
    page.text(240, bottom + 22 + 7, "Table 1: Low-level manipulation.", _FONT, 9)
    bottom = _booktabs(page, bottom + 22 + 34, _SECOND)
    page.text(240, bottom + 22 + 7, "Table 2: Counting.", _FONT, 9)
    pdf = tmp_path / "two.pdf"
    pdf.write_bytes(write_pdf([page], "caption skip"))
    assert extract_table(pdf, *_caption(pdf, "Table 1:")) == [list(row) for row in _FIRST]
    assert extract_table(pdf, *_caption(pdf, "Table 2:")) == [list(row) for row in _SECOND]


def test_a_caption_over_its_own_table_keeps_it_under_a_rule_as_far_over_it(tmp_path: Path) -> None:
    # a table of another caption ends 22 pt over this caption, whose own table's top rule sits
    # close under its last line (the caption's first line is far from it): the caption is over
    # its table (vegan's decision vignette: two tables, each captioned over)
    page = Canvas(612.0, 792.0)
    bottom = _booktabs(page, 80, _FIRST)
    caption = bottom + 22 + 7
    page.text(72, caption, "Table 2: Values of the const argument in vegan to get the scores that are equal to those from", _FONT, 9)
    page.text(72, caption + 11, "other functions and software. Number of sites (rows) is n, the number of species (columns)", _FONT, 9)
    page.text(72, caption + 22, "is m, and the sum of all eigenvalues is saved as the item tot.chi in the result.", _FONT, 9)
    _booktabs(page, caption + 22 + 8, _SECOND)
    pdf = tmp_path / "over.pdf"
    pdf.write_bytes(write_pdf([page], "caption over"))
    assert extract_table(pdf, *_caption(pdf, "Table 2:")) == [list(row) for row in _SECOND]


def _grid_header_ruled_under(page: Canvas, top: float) -> float:
    """``{l|l}``: the column rule drawn a row at a time, rules across under the header and each row, none over it."""
    rows = [*_FIRST, *_SECOND[1:]]
    for index, (name, text) in enumerate(rows):
        row_top = top + 13 * index
        page.rule(252, row_top - 1.5 if index == 0 else row_top, 252, row_top + 13, 0.8)
        page.text(66, row_top + 10, name, _FONT if index == 0 else _CODE, 9)
        page.text(258, row_top + 10, text, _FONT, 9)
        page.rule(60, row_top + 13, 552, row_top + 13, 0.8)
    return top + 13 * len(rows)


def test_a_header_ruled_only_under_is_the_grids_first_row(tmp_path: Path) -> None:
    # the lattice's cells need a rule over the header: it was lost, the table starting at "length"
    page = Canvas(612.0, 792.0)
    page.text(72, 90, "Most but not all functions defined in the package are summarized here.", _FONT, 10)
    bottom = _grid_header_ruled_under(page, 110)
    page.text(240, bottom + 22 + 7, "Table 5: I/O functions.", _FONT, 9)
    page.text(72, bottom + 70, "The functions above read and write the sequences of the package in its formats.", _FONT, 10)
    pdf = tmp_path / "grid.pdf"
    pdf.write_bytes(write_pdf([page], "grid header"))
    rows = extract_table(pdf, *_caption(pdf, "Table 5:"))
    assert rows is not None
    assert rows[0] == ["Function", "Description"], rows
    assert rows[1:] == [list(row) for row in (*_FIRST[1:], *_SECOND[1:])], rows


@pytest.mark.skipif(not BATCH15.is_dir(), reason="unseen batch 15 is built outside the repository (benchmarks/unseen_set.py)")
def test_the_biostrings_overview_reads_both_tables_of_its_first_page() -> None:
    tables = {table.label: table for table in parse_pdf(BATCH15 / "biostrings-quick-overview.pdf").tables}
    assert tables["1"].cells[:2] == [["Function", "Description"], ["length", "Return the number of sequences in an object."]]
    assert tables["2"].cells[0] == ["Function", "Description"]
    assert tables["2"].cells[1][0].startswith("alphabetFrequency")


@pytest.mark.skipif(not unseen_folder(3).is_dir(), reason="unseen batch 3 is built outside the repository (benchmarks/unseen_set.py)")
def test_a_formulas_brackets_past_the_bottom_rule_keep_the_last_row() -> None:
    # the ordinal package's link functions, 22 pt over their caption: the last row's formula,
    # its tall brackets' box reaching past the bottom rule, is the table's last row
    tables = {table.label: table for table in parse_pdf(unseen_folder(3) / "jss-ordinal-clm.pdf").tables}
    assert tables["3"].cells[-1][:2] == ["Density (f = F ′ )", "exp[− exp(η) + η]"], tables["3"].cells[-2:]
