"""Title pages of unseen batch 13 (issue 32): bylines and venues its papers print that no rule read.

- a byline that sets each name before its affiliation, the entries apart by semicolons, wrapped
  over two lines (USENIX's cover page);
- a company's name with no institution word, over its address in smaller type (IEEE conference
  layout), and a city with its state's code and postcode under a name: no names;
- the venue in a footnote ("To appear in the Proceedings of …"), on a publisher's cover page
  ("This paper is included in the Proceedings of …" over three lines), in a meeting's foot
  ("SMC 2009, July 23-25, Porto, Portugal") and in a foot that cites the paper itself
  ("Published as …").

Each was wrong before its rule; the bylines are drawn with made-up names as PDFs of real text
(``tests/pdf_maker``), the venues given as the lines the first page prints, and each is checked on
the batch-13 paper that showed it where the set is built.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.journal import find_journal
from tests.test_front_matter_batch10 import _column
from tests.test_front_matter_publishers import bold, centred, names, parse
from tests.unseen_pdfs import unseen_folder

BATCH13 = unseen_folder(13)


def test_names_each_before_its_affiliation_apart_by_semicolons(tmp_path: Path) -> None:
    # USENIX's cover: "Name, Affiliation; Name," / "Affiliation; Name, Affiliation", the second affiliation wrapped
    document = parse(
        tmp_path,
        [
            centred(700, 20, "An Invented Title for a Storage Paper", "bold"),
            centred(660, 12, "Anna Berg, Lund University; Carl Dahl,", "bold"),
            centred(645, 12, "Example Research-Almaden; Eva Lund, Lund University", "bold"),
            bold(280, 600, 11, "Abstract"),
            *_column(580),
        ],
    )
    assert names(document) == ["Anna Berg", "Carl Dahl", "Eva Lund"]


def test_a_company_over_its_address_in_smaller_type_is_no_name(tmp_path: Path) -> None:
    # IEEE conference layout: the names on one line, the company, its address and an e-mail a size down
    document = parse(
        tmp_path,
        [
            centred(720, 20, "An Invented Hash for Similar Files"),
            centred(690, 10, "Anna Berg, Carl Dahl and Eva Lund"),
            centred(676, 9, "Example Micro"),
            centred(665, 9, "North Ryde, NSW, 2113, Australia"),
            centred(654, 9, "anna_berg@example.com"),
            bold(72, 620, 9, "Abstract"),
            *_column(600),
        ],
    )
    assert names(document) == ["Anna Berg", "Carl Dahl", "Eva Lund"]


def test_a_city_with_its_state_and_postcode_is_no_name(tmp_path: Path) -> None:
    # a troff paper: the name over its company, street, city with state and ZIP code and e-mail, all in one type
    document = parse(
        tmp_path,
        [
            centred(720, 12, "An Invented Tool for Software Releases", "bold"),
            centred(690, 11, "Anna Berg"),
            centred(676, 11, "Example, Inc."),
            centred(663, 11, "5465 Example Blvd."),
            centred(650, 11, "Colorado Springs, CO 80918"),
            centred(637, 11, "aberg@example.com"),
            bold(280, 600, 10, "ABSTRACT"),
            *_column(580),
        ],
    )
    assert names(document) == ["Anna Berg"]


def test_a_footnote_of_the_proceedings_to_appear_in_wins_over_references() -> None:
    lines = [
        (1, "1 To appear in the Proceedings of the 1992 Winter Usenix, San Francisco, CA, January 1992."),
        (16, "Database Systems 6(2); 213-226, 1981."),  # "ACM Transactions on" / "Database Systems …" in the references
        (17, "Database Systems, 6(4), December 1981."),
    ]
    assert find_journal(lines, {})[:2] == ("Proceedings of the 1992 Winter Usenix", 1992)


def test_a_cover_pages_note_of_the_proceedings_over_three_lines() -> None:
    lines = [
        (1, "This paper is included in the Proceedings of"),
        (1, "the 15th USENIX Conference on"),
        (1, "File and Storage Technologies (FAST ’17)."),
        (1, "February 27–March 2, 2017 • Santa Clara, CA, USA"),
        (2, "15th USENIX Conference on File and Storage Technologies 59"),
    ]
    journal = "Proceedings of the 15th USENIX Conference on File and Storage Technologies (FAST ’17)"
    assert find_journal(lines, {})[:2] == (journal, 2017)
    # a note that runs past four lines without its full stop is no note read
    assert find_journal([(1, "This paper is included in the Proceedings of"), *[(1, "the Example Meeting on")] * 4], {})[0] is None


def test_a_meetings_foot_and_a_foot_citing_the_paper() -> None:
    assert find_journal([(1, "SMC 2009, July 23-25, Porto, Portugal")], {})[:2] == ("SMC 2009", 2009)
    cited = (
        "Published as Berg, A., Dahl, C.: An Invented Hash. 4th Example Security Workshop, Sydney, November 2013 https://example.org/x.pdf"
    )
    assert find_journal([(1, cited)], {})[:2] == ("4th Example Security Workshop", 2013)
    # "published as" inside a sentence is no cue, and a place and date after a name without a meeting's word no meeting
    assert find_journal([(1, "The tables were published as part of the 4th Example Workshop, Sydney, November 2013")], {})[0] is None
    assert find_journal([(1, "Published as Berg, A.: An Invented Hash. Example Press, Sydney, November 2013")], {})[0] is None


@pytest.mark.parametrize(
    ("name", "authors", "journal"),
    [
        ("usenix-fast17-fuse-performance", 3, "Proceedings of the 15th USENIX Conference on File and Storage Technologies (FAST ’17)"),
        ("ctc2013-tlsh-hash", 3, "4th Cybercrime and Trustworthy Computing Workshop"),
        ("usenix1992-libtp-transactions", 2, "Proceedings of the 1992 Winter Usenix"),
        ("smc2009-faust-parallelization", 3, "SMC 2009"),
        ("cvs-parallelizing-development", 1, None),
    ],
)
def test_batch_13_papers(name: str, authors: int, journal: str | None) -> None:
    pdf = BATCH13 / f"{name}.pdf"
    if not pdf.is_file():
        pytest.skip(f"batch 13 of the unseen sets not present ({pdf}); built by benchmarks/unseen_set.py --batch 13")
    document = parse_pdf(pdf)
    assert (len(document.authors), document.journal) == (authors, journal)
