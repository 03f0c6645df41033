"""Title pages of the ninth unseen batch: the authors of R packages' vignettes and R News articles.

The cases come from ``benchmarks/unseen_set.py`` batch 9 (an affiliation's last line or its
subjects read as names, an affiliation in smaller type under names in a bold face the text
layer does not flag, a wrapped name, a version line, an R News byline under a subtitle, an
affiliation in the margin, a title's note of the version a journal printed). Each layout is
drawn again with made-up names, as a PDF of real text (``tests/pdf_maker``) or as the parser's
blocks; each was wrong before its rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.parsers.embedded import front_matter as fm
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.layout import Line
from tests.test_front_matter_publishers import bold, centred, regular
from tests.test_front_matter_vignettes import authors


def test_an_affiliations_last_line_over_the_email_is_no_name(tmp_path: Path) -> None:
    # tgp: name, department, institution and e-mail in one block; the institution is no second author
    found = authors(
        tmp_path,
        centred(690, 11, "Anna B. Example"),
        centred(676, 11, "Department of Statistics"),
        centred(662, 11, "Example Tech"),
        centred(648, 11, "anna@example.edu"),
    )
    assert found == ["Anna B. Example"]


def test_an_affiliation_a_size_smaller_under_each_name_is_no_name(tmp_path: Path) -> None:
    # sets (jss.cls): names in a bold face the text layer reads as roman, each over its institution in smaller type
    found = authors(
        tmp_path,
        regular(150, 690, 11, "Anna Example"),
        regular(350, 690, 11, "Carl Dahl"),
        regular(140, 676, 10, "FH Example Wien"),
        regular(330, 676, 10, "WU Exampleuniversity Wien"),
    )
    assert found == ["Anna Example", "Carl Dahl"]


def test_names_that_open_smaller_lines_under_the_first_names_are_read(tmp_path: Path) -> None:
    # ACM (acmsmall): the first names over the others in smaller type, each before its affiliation
    found = authors(
        tmp_path,
        regular(72, 690, 10, "ANNA EXAMPLE"),
        regular(72, 678, 8.4, "CARL DAHL, The Example Group, Iceland"),
        regular(72, 667, 8.4, "BEA BERG, Example University, India"),
    )
    assert found == ["Anna Example", "Carl Dahl", "Bea Berg"]


def test_a_departments_subjects_over_its_institute_are_no_names(tmp_path: Path) -> None:
    # metagenomeSeq: "Applied Mathematics & Statistics, and Scientific Computation" over "Center for …"
    found = authors(
        tmp_path,
        centred(690, 11, "Anna Nathalie Example"),
        centred(660, 11, "Applied Mathematics & Statistics, and Scientific Computation"),
        centred(646, 11, "Center for Example Biology"),
        centred(632, 11, "University of Example, College Park"),
    )
    assert found == ["Anna Nathalie Example"]


def test_a_name_wrapped_at_the_lines_end_over_the_affiliation(tmp_path: Path) -> None:
    # Mergeomics: six names over two lines, the last wrapped between its given and family name
    found = authors(
        tmp_path,
        centred(690, 10, "Anna Example, Carl Dahl, Bea Berg, Dan Dahl, Eva Example, Xia"),
        centred(676, 10, "Yang"),
        centred(662, 10, "Department of Example Biology, University of Example"),
    )
    assert found == ["Anna Example", "Carl Dahl", "Bea Berg", "Dan Dahl", "Eva Example", "Xia Yang"]


def test_an_affiliation_wrapped_after_its_comma_is_no_name(tmp_path: Path) -> None:
    # Mergeomics: "…, University of California," / "Los Angeles" over the next institute
    found = authors(
        tmp_path,
        centred(690, 10, "Anna Example and Carl Dahl"),
        centred(676, 10, "Department of Example Biology, University of Example,"),
        centred(662, 10, "Los Angeles"),
        centred(648, 10, "Example Health and Medical Research Institute"),
    )
    assert found == ["Anna Example", "Carl Dahl"]


def test_a_version_line_under_the_title_is_no_name(tmp_path: Path) -> None:
    # BradleyTerry2: "For BradleyTerry2 version 1.1-2, 2020-02-02" over the repository and the names
    found = authors(
        tmp_path,
        centred(696, 9, "For ExamplePkg2 version 1.1-2, 2020-02-02"),
        centred(684, 8, "https://example.org/ExamplePkg2"),
        regular(150, 664, 11, "Anna Example"),
        regular(350, 664, 11, "Carl Dahl"),
    )
    assert found == ["Anna Example", "Carl Dahl"]


@pytest.mark.parametrize("byline", ["by Anna B. Example", "By ANNA B. EXAMPLE"])
def test_a_byline_under_a_subtitle(tmp_path: Path, byline: str) -> None:
    # R News: the title, its subtitle in bold, then the byline in italics
    found = authors(tmp_path, bold(72, 700, 10, "Utilities for handling example data"), (72, 680, 10, [("italic", byline)]))
    assert found == ["Anna B. Example"]


def test_a_byline_over_its_affiliation_under_a_subtitle(tmp_path: Path) -> None:
    # e1071's vignette: the subtitle, then "by" and the name over the affiliation and e-mail
    found = authors(
        tmp_path,
        centred(700, 11, "The Interface to examplelib in package example1"),
        centred(676, 11, "by Anna Example"),
        centred(662, 11, "FH Example Wien, Austria"),
    )
    assert found == ["Anna Example"]


def _line(text: str, x0: float, top: float, size: float) -> Line:
    return Line(text, 1, x0, top, x0 + 0.5 * size * len(text), top + size, size, False, False, "LMSans10-Regular")


def test_an_affiliation_in_the_margin_is_no_name() -> None:
    # PWMEnrich (Bioconductor's style): the name's mark points at its affiliation in the margin beside it
    title = Block([_line("Overview of the Example package", 50, 87, 19)], kind="title")
    name = Block([_line("Anna Example1", 93, 133, 12.7)])
    date = Block([_line("November 1, 2022", 93, 170, 10.6)])
    contents = Block([_line("Contents", 51, 203, 15.9)], kind="heading")
    margin = Block(
        [
            _line("Example Systems", 490, 158, 7.1),
            _line("Biology Institute, University of", 490, 166, 7.1),
            _line("Example, UK", 490, 174, 7.1),
        ],
        kind="aside",
    )
    found = fm.find_authors([title, name, date, contents, margin], 0, {})
    assert [author.name for author in found] == ["Anna Example"]


def test_a_titles_note_of_the_version_a_journal_printed() -> None:
    # e1071's vignette: "∗A smaller version of this article appeared in R-News, Vol.1/3, 9.2001"
    line = "∗A smaller version of this article appeared in Example-News, Vol.1/3, 9.2001"
    assert fm.find_journal([(1, line)], {})[:2] == ("Example-News", 2001)
