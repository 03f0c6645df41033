"""Batch 12's title-page misses (journal articles as published, proceedings, publishers' templates),
each drawn again with made-up names as a PDF of real text (``tests/pdf_maker``) or checked on the
line the text layer reads:

- OUP's Bioinformatics sets its masthead, the journal's name and the article's type in capitals
  ("BIOINFORMATICS APPLICATIONS NOTE"), in type larger than the title's, beside an issue line that
  names no journal ("Vol. 29 no. 9 2013, pages 1215–1217"): the masthead was read as the title, and
  no journal or year was found;
- a report in the same layout sets a "TECHNICAL REPORT" banner where the masthead stands: read as
  the title;
- a package's guide sets its version in brackets in roman under its bold name ("Haplo Stats" /
  "(version 1.7.7)"): read as part of the title;
- ACS's achemso keys affiliations with ∥ and ⊥ after commas, and wraps a long byline after a first
  name onto a double-spaced line; its placeholder names ("Groupleader", "Laborator") begin with an
  institution's word: one author of five was read;
- ACS's journals set the names in letter-spaced capitals, which the text layer reads letter by
  letter in places ("L E N G K E"): no author was read;
- SciPy's proceedings set each author on a line as "Name (e-mail) – University …": no author was
  read;
- a proceedings' head that closes on the meeting's short name and year in brackets ("Proceedings
  of the 8th Python in Science Conference (SciPy 2009)") gave no journal, and running heads that
  print the short name ("Proceedings of DSC 2003") were taken over the first page's whole name.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.parsers.embedded.author_names import letters_closed_up, split_names
from paperpyramid.parsers.embedded.institutions import AFFILIATION, names_institution
from paperpyramid.parsers.embedded.journal import find_journal
from tests.test_front_matter_publishers import body, bold, centred, names, parse, regular


def test_a_masthead_beside_its_issue_line_is_no_title(tmp_path: Path) -> None:
    document = parse(
        tmp_path,
        [
            regular(62, 742, 16, "INVENTED BIOLOGY APPLICATIONS NOTE"),
            regular(432, 744, 7, "Vol. 29 no. 9 2013, pages 1215-1217"),
            regular(432, 735, 7, "doi:10.1093/invented/btt129"),
            regular(62, 710, 11, "Sequence analysis"),
            regular(62, 686, 14.5, "pfsearch: a code acceleration to search invented profiles"),
            regular(62, 664, 12, "Anna Berg1, Carl Dahl1 and Eva Lund2,*"),
            regular(62, 646, 9, "1Example Institute of Bioinformatics, 1015 Lausanne, Switzerland"),
            bold(62, 610, 10, "ABSTRACT"),
            *body(580),
        ],
    )
    assert document.title == "pfsearch: a code acceleration to search invented profiles"
    assert names(document) == ["Anna Berg", "Carl Dahl", "Eva Lund"]
    assert (document.journal, document.date_published) == ("Invented Biology", "2013")


def test_the_journal_of_a_masthead_in_capitals_beside_an_issue_line_without_a_name() -> None:
    lines = [
        (1, "Vol. 29 no. 9 2013, pages 1215–1217"),
        (1, "BIOINFORMATICS APPLICATIONS NOTE"),
        (1, "doi:10.1093/bioinformatics/btt129"),
        (1, "Sequence analysis"),
    ]
    assert find_journal(lines, {})[:2] == ("Bioinformatics", 2013)
    # a title in capitals over a line of numbers names no journal: the masthead carries the article's type
    assert find_journal([(1, "Vol. 3, No. 2 (2019)"), (1, "INVENTED METHODS FOR DATA")], {})[0] is None


def test_a_technical_report_banner_is_no_title(tmp_path: Path) -> None:
    document = parse(
        tmp_path,
        [
            bold(45, 745, 18, "TECHNICAL REPORT"),
            bold(45, 712, 15, "Inventmap: pairwise alignment for invented sequences"),
            regular(45, 692, 10, "Anna Berg"),
            regular(45, 676, 8, "Example Institute, 415 Main Street, Cambridge, MA 02142, USA"),
            bold(45, 640, 8, "ABSTRACT"),
            *body(610),
        ],
    )
    assert document.title == "Inventmap: pairwise alignment for invented sequences"


def test_a_version_in_brackets_in_roman_under_a_bold_title_is_not_the_titles(tmp_path: Path) -> None:
    document = parse(
        tmp_path,
        [
            centred(680, 17, "Invented Stats", "bold"),
            centred(659, 17, "(version 1.7.7)"),
            centred(560, 12, "Anna Berg and Carl Dahl"),
            centred(545, 12, "Example Clinic Division of Health Sciences Research"),
            *body(480),
        ],
    )
    assert document.title == "Invented Stats"


def test_achemso_marks_and_placeholder_names() -> None:
    assert split_names("Anna N. Berg,‡,∥ Carl T. Dahl,‡,⊥ I. Ken Lund,∗,‡,¶,∥") == ["Anna N. Berg", "Carl T. Dahl", "I. Ken Lund"]
    # an institution's word begins them, but ends no word of theirs
    assert not names_institution("I. Ken Groupleader") and not names_institution("Susanne K. Laborator")
    assert names_institution("Machine Learning Group") and names_institution("Example Laboratories")


def test_a_byline_wrapped_after_a_first_name_onto_a_double_spaced_line(tmp_path: Path) -> None:
    document = parse(
        tmp_path,
        [
            centred(660, 18, "A demonstration of an invented class", "bold"),
            regular(76, 610, 13, "Anna N. Berg,‡,§ Carl T. Dahl,‡,¶ I. Ken Lund,*,‡,¶ Susanne"),
            regular(199, 581, 13, "K. Sand,*,§"),
            regular(293, 581, 13, "and Kay T. Finally‡,¶"),
            centred(550, 10.6, "‡Department of Chemistry, Example University, Example Town"),
            centred(526, 10.6, "¶Department of Chemistry, Second University, Nearby Town"),
            centred(480, 9.6, "Abstract", "bold"),
            *body(440),
        ],
    )
    assert names(document) == ["Anna N. Berg", "Carl T. Dahl", "I. Ken Lund", "Susanne K. Sand", "Kay T. Finally"]


def test_names_in_letter_spaced_capitals_are_read_whole() -> None:
    # ACS: the text layer reads some words letter by letter, some in kerned pairs ("RA VE L")
    line = "ANNA F . L E N G K E , * , † BRUCE RA VE L , ‡"
    assert letters_closed_up(line) == "ANNA F. LENGKE, *, † BRUCE RAVEL, ‡"
    assert split_names(letters_closed_up(line)) == ["Anna F. Lengke", "Bruce Ravel"]
    assert letters_closed_up("J R R TOLKIEN") == "J R R TOLKIEN"  # initials, no letter-spaced word


def test_names_each_with_an_email_and_a_dash_before_the_affiliation(tmp_path: Path) -> None:
    document = parse(
        tmp_path,
        [
            bold(74, 730, 12.7, "Nitime: time-series analysis for invented imaging data"),
            regular(74, 712, 8.8, "Anna Berg (aberg@example.edu) – University of Example, Berkeley, CA USA"),
            regular(74, 701, 8.8, "Carl Dahl (cdahl@example.edu) – University of Example, Berkeley, CA USA"),
            regular(74, 690, 8.8, "Eva Lund (Eva.Lund@example.edu) – University of Example, Berkeley, CA USA"),
            bold(74, 650, 10.6, "Introduction"),
            *body(620),
        ],
    )
    assert names(document) == ["Anna Berg", "Carl Dahl", "Eva Lund"]


def test_a_proceedings_head_closing_on_the_meetings_name_and_year() -> None:
    head = (1, "Proceedings of the 8th Python in Invented Science Conference (SciPy 2009)")
    assert find_journal([head, (1, "Nitime: time-series analysis")], {})[:2] == (
        "Proceedings of the 8th Python in Invented Science Conference (SciPy 2009)",
        2009,
    )


def test_running_heads_with_the_meetings_acronym_give_the_first_pages_whole_name() -> None:
    whole = "Proceedings of the 3rd International Workshop on Invented Statistical Computing (DSC 2003)"
    lines = [(1, f"{whole} March 20–22, Vienna, Austria ISSN 1609-395X")] + [
        (page, f"Proceedings of DSC 2003 {page}") for page in range(2, 6)
    ]
    assert find_journal(lines, {})[:2] == (whole, 2003)


@pytest.mark.parametrize(
    "banner",
    [
        "ORIGINAL RESEARCH ARTICLE",
        "MINI REVIEW ARTICLE",
        "OPEN ACCESS RESEARCH ARTICLE",
        "FULL LENGTH RESEARCH PAPER",
        "CASE REPORT ORIGINAL ARTICLE",
    ],
)
def test_a_banner_of_an_article_type_beside_an_issue_line_names_no_journal(banner: str) -> None:
    lines = [(1, banner), (1, "Vol. 3, No. 2, 2019"), (1, "A study of frogs"), (1, "Anna Berg")]
    assert find_journal(lines, {})[0] is None


def test_the_italian_plural_laboratori_is_an_institution() -> None:
    assert AFFILIATION.search("INFN, Laboratori Nazionali di Frascati")
    assert not AFFILIATION.search("K. Laborator")
