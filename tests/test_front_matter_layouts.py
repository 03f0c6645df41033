"""Title pages whose names, title or journal are set where the other rules do not look.

Each layout comes from a paper of the unseen set (``benchmarks/unseen_set.py``: pinp and JSS
vignettes, AASTeX, ASME journals, OUP, JPSJ), drawn again with made-up names as a PDF of real
text (``tests/pdf_maker``); each was read wrong before its rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.parsers.embedded import author_names as an
from paperpyramid.parsers.embedded import authors as au
from paperpyramid.parsers.embedded import front_matter as fm
from tests.test_front_matter_publishers import Item, body, bold, centred, names, parse, regular


def test_letters_that_key_the_affiliations_are_not_part_of_the_names(tmp_path: Path) -> None:
    # pinp: superscript letters after each name, read by the text layer as the name's last letter
    document = parse(
        tmp_path,
        [
            bold(72, 700, 20, "Extending a Language with Compiled Code"),
            bold(72, 670, 8, "Dirk Examplea and James Joseph Sampleb"),
            regular(
                72,
                654,
                6,
                "aDebian Projects; Chicago, IL, USA; dirk@example.org; bDepts of Statistics, Univ. of Illinois; Champaign, IL, USA",
            ),
            *body(600),
        ],
    )
    assert names(document) == ["Dirk Example", "James Joseph Sample"]


def test_a_name_ending_in_a_keys_letter_keeps_it_where_not_every_name_is_marked() -> None:
    assert au._without_letter_marks(["Maria Garcia", "Ben Sample"], {"a", "b"}) == ["Maria Garcia", "Ben Sample"]
    assert au._without_letter_marks(["Maria Garciaa", "Ben Sampleb"], {"a", "b"}) == ["Maria Garcia", "Ben Sample"]


def test_a_mark_wrapped_into_the_next_box_on_the_names_row_is_not_an_affiliation(tmp_path: Path) -> None:
    # AASTeX: "Greg J. Example ⓘ,1 August Sample,1": the first name's mark opens the box of the second
    document = parse(
        tmp_path,
        [
            centred(700, 11, "Template Article for an Astronomical Journal", "bold"),
            regular(190, 670, 9, "Greg J. Example"),
            regular(300, 670, 9, "1 August Sample,1"),
            centred(650, 9, "Butler Instance,2 Amy Specimen3"),
            centred(634, 8, "1American Example Society"),
            centred(622, 8, "2Leiden University"),
            *body(560),
        ],
    )
    assert names(document) == ["Greg J. Example", "August Sample", "Butler Instance", "Amy Specimen"]


def test_roman_lines_under_names_in_bold_are_their_affiliations(tmp_path: Path) -> None:
    # JSS: each name in bold over its affiliation in roman, which may hold no institution word
    document = parse(
        tmp_path,
        [
            centred(720, 15, "Seamless Integration of Two Invented Languages", "bold"),
            bold(150, 690, 11, "Dirk Example"),
            bold(350, 690, 11, "Romain Sample"),
            regular(165, 676, 11, "Debian Project"),
            regular(362, 676, 11, "R Enthusiasts"),
            bold(290, 640, 9, "Abstract"),
            *body(610),
        ],
    )
    assert names(document) == ["Dirk Example", "Romain Sample"]


def test_names_in_a_column_beside_the_title_are_read(tmp_path: Path) -> None:
    # ASME journals: the names in bold at the left, each over its affiliation in small type, the title and abstract at the right
    column: list[Item] = [bold(100, 712, 12, "Author Name[s]")]
    column += [regular(80, 698 - 10 * i, 7.5, line) for i, line in enumerate(["Department of Engineering,", "City, State, Country"])]
    column += [bold(90, 650, 12, "John H. Sample V1"), regular(130, 636, 7.5, "Fellow EXS")]
    column += [
        regular(70, 626 - 10 * i, 7.5, line) for i, line in enumerate(["Example Heat Transfer Laboratory,", "Cambridge, MA 02139 USA"])
    ]
    abstract = [regular(228, 690 - 11 * i, 8, line) for i, line in enumerate(BODY_RIGHT)]
    document = parse(
        tmp_path,
        [
            bold(228, 740, 22, "Preprint Template for Example"),
            bold(228, 715, 22, "Journal Papers: a class"),
            *column,
            *abstract,
            *body(500),
        ],
    )
    assert document.title == "Preprint Template for Example Journal Papers: a class"
    assert names(document) == ["Author Name", "John H. Sample V"]


BODY_RIGHT = [
    "This paper is an example and template for a class whose papers",
    "follow the journal's style for margins, fonts, headings and captions,",
    "and the class lays out the author, title and abstract in that style.",
]


def test_a_journal_named_alone_in_the_running_feet() -> None:
    # ASME: "Journal of Heat Transfer" alone in the odd pages' feet, "Transactions of the ASME" in the even ones'
    feet = [
        (1, "Journal of Invented Transfer"),
        (1, "Copyright 2022 by EXS"),
        (2, "Transactions of the EXS"),
        (3, "Journal of Invented Transfer"),
    ]
    assert fm.find_journal(feet, {})[:2] == ("Journal of Invented Transfer", 2022)
    assert fm.find_journal([(1, "Journal of Invented Transfer")], {})[0] is None  # once only: a line of the text
    assert fm.find_journal([(2, "Results and Discussion"), (3, "Results and Discussion")], {})[0] is None  # a section's head


def test_a_group_signs_the_paper_where_no_person_does(tmp_path: Path) -> None:
    # JPSJ's instructions: a subcommittee is the author (beside people's names, see the test of a group joined to them)
    document = parse(
        tmp_path,
        [
            centred(700, 11, "Instructions for the Preparation of a Manuscript for", "bold"),
            centred(686, 11, "the Journal of Invented Physical Results", "bold"),
            centred(660, 10, "Online-Journal Subcommittee of EXJ*"),
            centred(640, 9, "The Example Society of Physics, Tokyo 105-0011"),
            *body(590),
        ],
    )
    assert names(document) == ["Online-Journal Subcommittee of EXJ"]
    assert au._group_names("Ann Example, Bob Sample and the Example Study Group") == ["Example Study Group"]
    assert an.split_names("Ann Example, Bob Sample and the Example Study Group") == ["Ann Example", "Bob Sample"]


def test_a_title_of_two_words_over_the_names_line(tmp_path: Path) -> None:
    # OUP: the title in two words over the names in large type with their marks; the masthead box at the right is read after the title
    document = parse(
        tmp_path,
        [
            regular(416, 736, 7, "Journal Title Here, 2022, pp. 1-9"),
            bold(470, 713, 6, "doi: DOI HERE"),
            regular(361, 704, 6, "Advance Access Publication Date: Day Month Year"),
            regular(54, 664, 9, "PAPER"),
            bold(54, 644, 16, "Article Title"),
            regular(54, 616, 12, "First Author,1,* Second Author,2 Third Author,3 and Fourth Author4"),
            regular(54, 596, 6, "1Department, Organization, Street, Postcode, State, Country"),
            bold(54, 560, 10, "Abstract"),
            *body(530),
        ],
    )
    assert document.title == "Article Title"
    assert names(document) == ["First Author", "Second Author", "Third Author", "Fourth Author"]
    assert fm._names_line("First Author,1,* Second Author,2 Third Author,3 and Fourth Author4")
    assert not fm._names_line("Romeo and Juliet in the Age of Digital Editions")


def test_names_between_middle_dots_and_letter_marks_read_apart() -> None:
    # Springer sets a middle dot between the names; a text layer may read a superscript letter apart from its name
    assert an.split_names("Anna Berg1 · Carl Dahl2 · Eva Falk1,3") == ["Anna Berg", "Carl Dahl", "Eva Falk"]
    assert an.split_names("Anna Berg a,b, Carl Dahl b,*") == ["Anna Berg", "Carl Dahl"]
    assert an.split_names("Maria e Silva1, Jose do Carmo2") == ["Maria e Silva", "Jose do Carmo"]
    assert an.split_names("JOHN E SMITH") == ["John E Smith"]  # an initial in capitals is no particle


def test_a_foot_with_the_journals_site_then_its_date_and_volume() -> None:
    # Frontiers before 2018 and PLOS before 2015 print the date published and the volume after the site
    frontiers = "Frontiers in Invented Psychology | www.frontiersin.org 1 July 2016 | Volume 7 | Article 1234"
    assert fm.find_journal([(1, frontiers), (2, frontiers)], {})[:2] == ("Frontiers in Invented Psychology", 2016)
    plos = "PLOS ONE | www.plosone.org 1 December 2014 | Volume 9 | Issue 12 | e115553"
    assert fm.find_journal([(1, plos), (3, plos)], {})[:2] == ("PLOS ONE", 2014)


def test_an_article_type_over_the_doi_is_not_a_journal() -> None:
    # Springer's online first sets the journal's name over the DOI; an article type there is no journal
    assert fm.find_journal([(1, "Climatic Change https://doi.org/10.1007/s10584-019-02456-1")], {})[0] == "Climatic Change"
    assert fm.find_journal([(1, "Original Article https://doi.org/10.1007/s10584-019-02456-1")], {})[0] is None


@pytest.mark.parametrize(
    ("printed", "expected"),
    [
        ("Anna Berg1, Carl Dahl2 and Invented Trial Investigators3", ["Anna Berg", "Carl Dahl", "Invented Trial Investigators"]),
        ("Robin Example & EXJ editors", ["Robin Example", "EXJ editors"]),  # TUGboat's "Robin Fairbairns & TUGboat editors"
    ],
)
def test_a_group_joined_to_the_names_is_an_author_after_them(tmp_path: Path, printed: str, expected: list[str]) -> None:
    # a group printed as the last of the names signs with them: JATS gives its <collab> among the
    # contributors (parsers/jats_meta.py), the unseen set's truth lists TUGboat's editors
    document = parse(
        tmp_path,
        [
            centred(720, 16, "A Trial of Invented Therapies in Many Centres", "bold"),
            centred(690, 10, printed),
            centred(674, 8, "1Department of Medicine, Example University, Uppsala, Sweden"),
            bold(72, 640, 10, "Abstract"),
            *body(610),
        ],
    )
    assert names(document) == expected


def test_a_group_named_in_an_affiliation_is_no_author(tmp_path: Path) -> None:
    document = parse(
        tmp_path,
        [
            centred(720, 16, "A Trial of Invented Therapies in Many Centres", "bold"),
            centred(690, 10, "Anna Berg1, Carl Dahl2"),
            centred(674, 8, "1Invented Trial Group, Example University, Uppsala, Sweden"),
            bold(72, 640, 10, "Abstract"),
            *body(610),
        ],
    )
    assert names(document) == ["Anna Berg", "Carl Dahl"]


@pytest.mark.parametrize(
    ("printed", "date"),
    [
        ("Published online: 12 May, 2016", "12 May, 2016"),  # a comma after the month
        ("Published: May 12th, 2016", "May 12th, 2016"),  # ordinals
        ("Received: 1 May 2016 Accepted: 3 June 2016 Published: 12th June 2016", "12th June 2016"),
        ("Accepted: 2016-05-12 Published: 2016-06-01", "2016-06-01"),  # ISO 8601
    ],
)
def test_publication_dates_in_more_forms(printed: str, date: str) -> None:
    assert fm.find_date(printed) == date
