"""Title pages of Bioconductor vignettes and an R package's report, set with LaTeX's ``article``.

The cases come from the fifth unseen set (``benchmarks/unseen_set.py``, batch 5): a date under
the names that is the day the vignette was compiled or modified, not a publication year; a name
over that date read as a journal; a report's place and version date under its title; names set
over their address in one block; numbered addresses whose number is glued to the first word or
set in brackets; a description of the packages documented set in the title's paragraph; and
from the earlier batches, what their fixes showed: names and addresses set in turn, a
corresponding author's star, the e-mails' initials, a version or a history under the address.
Each layout is drawn again with made-up names as a PDF of real text (``tests/pdf_maker``), as
in ``tests/test_front_matter_vignettes.py``; a rule on one line of text is checked on that line.
Each was wrong before its rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.dates import date_alone
from paperpyramid.parsers.embedded import front_matter as fm
from tests.test_front_matter_publishers import body, bold, centred, names, parse, regular
from tests.test_front_matter_vignettes import TITLE


@pytest.mark.parametrize(
    ("line", "alone"),
    [
        ("November 2017", True),
        ("March 3, 2016", True),
        ("8 September 2017", True),
        ("2009-06-29", True),
        ("Modified: October 24, 2011", True),
        ("Jan. 2008 (added note in June 2010)", True),  # a remark in brackets after it
        ("October 2014 *", True),  # a note's mark after it
        ("Hinxton 2009", False),  # a place and a year: no form of a date
        ("Potsdam, Germany", False),
        ("February 1.2", False),  # a version
        ("Modified: October 24, 2011 Compiled: November 1, 2022", False),  # two dates: no name, but no one date either
    ],
)
def test_a_date_alone_on_a_line(line: str, alone: bool) -> None:
    assert date_alone(line) is alone


def test_the_date_under_a_vignettes_names_is_no_publication_year(tmp_path: Path) -> None:
    # article's \date{\today}: the day the vignette was built; no masthead, citation line or stamp
    document = parse(tmp_path, [TITLE, centred(690, 10.8, "Anna Example, Carl Sample"), centred(666, 10.8, "March 3, 2016"), *body(600)])
    assert names(document) == ["Anna Example", "Carl Sample"]
    assert document.date_published is None


def test_a_name_over_the_date_is_no_journal() -> None:
    # the byline and the date under the title, read as one wrapped line: a citation has a volume or pages
    assert fm.find_journal([(1, "Anna Example February 13, 2023")], {}) == (None, None, None)
    assert fm.find_journal([(1, "Anna Example 13 February 2023")], {})[0] is None


def test_a_reports_place_and_date_under_the_title_are_no_name(tmp_path: Path) -> None:
    # a report's title page: the place's acronym over the version's month, right-aligned, no author under the title
    lines = [
        regular(520, 690, 12, "SDC"),
        regular(460, 676, 12, "November 2017"),
        regular(330, 662, 12, "http://example.org/pkg"),
    ]
    assert names(parse(tmp_path, [TITLE, *lines, *body(600)])) == []


def test_names_over_their_address_in_one_block_are_not_the_affiliation(tmp_path: Path) -> None:
    lines = [
        centred(690, 11, "Anna Example and Carl Sample"),
        centred(677, 11, "Institute for Invented Biology"),
        centred(664, 11, "Uppsala, Sweden"),
    ]
    document = parse(tmp_path, [TITLE, *lines, *body(600)])
    assert [(author.name, author.affiliation) for author in document.authors] == [
        ("Anna Example", "Institute for Invented Biology Uppsala, Sweden"),
        ("Carl Sample", "Institute for Invented Biology Uppsala, Sweden"),
    ]


def test_the_date_under_the_address_is_not_the_affiliation(tmp_path: Path) -> None:
    # article's \maketitle sets \date under \author's address ("… Cambridge, UK" / "2009-06-29")
    lines = [
        centred(690, 11, "Anna Example"),
        centred(670, 11, "Invented Bioinformatics Institute, Uppsala, Sweden"),
        centred(648, 11, "2009-06-29"),
    ]
    document = parse(tmp_path, [TITLE, *lines, *body(600)])
    assert [(author.name, author.affiliation) for author in document.authors] == [
        ("Anna Example", "Invented Bioinformatics Institute, Uppsala, Sweden")
    ]


def test_an_addresss_number_glued_to_its_first_word_opens_it(tmp_path: Path) -> None:
    # BiocStyle: "1 Invented School of Public Health" / "2Sample University" / "3Example University"
    lines = [
        centred(690, 12, "Anna Example1*, Carl Sample2, Eva Falk1, Olof Berg3"),
        regular(100, 668, 10, "1 Invented School of Public Health"),
        regular(100, 656, 10, "2Sample University"),
        regular(100, 644, 10, "3Example University"),
        regular(100, 632, 9, "*email: anna@example.org"),
    ]
    document = parse(tmp_path, [TITLE, *lines, *body(600)])
    assert {author.name: author.affiliation for author in document.authors} == {
        "Anna Example": "Invented School of Public Health",
        "Carl Sample": "Sample University",
        "Eva Falk": "Invented School of Public Health",
        "Olof Berg": "Example University",
    }


def test_a_description_in_the_titles_paragraph_is_neither_title_nor_names(tmp_path: Path) -> None:
    # \title{\textbf{… title …}\\ Description of the packages\\ \texttt{FooVis} and \texttt{FooVisGUI}.}
    first = [
        centred(720, 16, "Drawing very long invented vectors", "bold"),
        centred(698, 16, "along a space-filling curve", "bold"),
        centred(676, 16, "Description of the example packages"),
        centred(659, 11, "FooVis and FooVisGUI."),
        centred(630, 11, "Anna Example"),
        centred(612, 11, "Invented Bioinformatics Institute, Uppsala, Sweden"),
        *body(560),
    ]
    document = parse(tmp_path, first)
    assert document.title == "Drawing very long invented vectors along a space-filling curve"
    assert names(document) == ["Anna Example"]


def test_a_title_that_changes_face_without_a_description_is_whole(tmp_path: Path) -> None:
    # a title whose last line is in another face and no sentence follows it: all of it is the title
    first = [
        centred(720, 16, "Supplementary material for an example of", "bold"),
        centred(698, 16, "invented model selection"),
        centred(660, 11, "Anna Example"),
        *body(600),
    ]
    assert parse(tmp_path, first).title == "Supplementary material for an example of invented model selection"


def test_a_corresponding_authors_star_is_no_affiliations_key(tmp_path: Path) -> None:
    # one address for all, and a star on one name alone: the corresponding author's, keying no address
    lines = [
        centred(690, 11, "Anna Example and Carl Sample*"),
        centred(676, 11, "Institute for Invented Biology"),
        centred(662, 11, "University of Uppsala, Uppsala, Sweden"),
    ]
    document = parse(tmp_path, [TITLE, *lines, *body(600)])
    assert {author.affiliation for author in document.authors} == {"Institute for Invented Biology University of Uppsala, Uppsala, Sweden"}


@pytest.mark.parametrize(
    "after",
    [
        "Uppsala, Sweden; anna@example.org (A.E.); carl@example.org (C.S.)",  # MDPI: each e-mail with its owner's initials
        "Uppsala, Sweden",
    ],
)
def test_what_follows_the_address_is_not_the_affiliation(tmp_path: Path, after: str) -> None:
    # the e-mails' initials; a document's version and date under the address ("v1.1.0" / "2017/11/14")
    lines = [
        centred(690, 11, "Anna Example and Carl Sample"),
        centred(676, 11, "Institute for Invented Biology"),
        centred(662, 11, after),
        centred(640, 11, "v1.1.0"),
        centred(627, 11, "2017/11/14"),
    ]
    document = parse(tmp_path, [TITLE, *lines, *body(600)])
    assert {author.affiliation for author in document.authors} == {"Institute for Invented Biology Uppsala, Sweden"}


def test_marks_in_brackets_key_the_addresses(tmp_path: Path) -> None:
    # "Anna Example(1)* and Carl Sample(1,2)" over "(1) Department …" / "(2) Invented Center …"
    lines = [
        centred(690, 12, "Anna Example(1)* and Carl Sample(1,2)"),
        centred(674, 12, "(1) Department of Statistics, University of Uppsala, Sweden"),
        centred(660, 12, "(2) Invented Center of Health Sciences"),
    ]
    document = parse(tmp_path, [TITLE, *lines, *body(600)])
    assert {author.name: author.affiliation for author in document.authors} == {
        "Anna Example": "Department of Statistics, University of Uppsala, Sweden",
        "Carl Sample": "Department of Statistics, University of Uppsala, Sweden; Invented Center of Health Sciences",
    }


def test_names_and_addresses_in_turn_give_each_author_their_own(tmp_path: Path) -> None:
    # article's \author{A \\ Univ. X \and B \\ Univ. Y}: a name over its address, stacked
    stacked = [
        centred(690, 10.6, "Marie Laure Example-Muller"),
        centred(677, 10.6, "Université de Lyon"),
        centred(664, 10.6, "Christophe Sample"),
        centred(651, 10.6, "Université de Strasbourg"),
    ]
    document = parse(tmp_path, [TITLE, *stacked, *body(600)])
    assert {author.name: author.affiliation for author in document.authors} == {
        "Marie Laure Example-Muller": "Université de Lyon",
        "Christophe Sample": "Université de Strasbourg",
    }


def test_names_side_by_side_over_their_addresses_give_each_author_the_one_under_them(tmp_path: Path) -> None:
    # jss.cls and conference classes: names across, each over its address
    row = [
        bold(157, 690, 10.8, "Anna Example"),
        bold(350, 690, 10.8, "Carl Sample"),
        regular(140, 677, 10.9, "Uppsala University"),
        regular(351, 677, 10.9, "Université d’Orléans"),
    ]
    document = parse(tmp_path, [TITLE, *row, *body(600)])
    assert {author.name: author.affiliation for author in document.authors} == {
        "Anna Example": "Uppsala University",
        "Carl Sample": "Université d’Orléans",
    }


def test_the_history_in_brackets_under_the_address_is_not_the_affiliation(tmp_path: Path) -> None:
    # PTPTeX: "(Received April 1, 2004; revised November 20, 2008)" under the addresses
    lines = [
        centred(690, 11, "Anna Example"),
        centred(676, 11, "Institute for Invented Physics, Kyoto University, Kyoto 606-8502, Japan"),
        centred(654, 11, "(Received April 1, 2004; revised November 20, 2008)"),
    ]
    document = parse(tmp_path, [TITLE, *lines, *body(600)])
    assert [author.affiliation for author in document.authors] == [
        "Institute for Invented Physics, Kyoto University, Kyoto 606-8502, Japan"
    ]
