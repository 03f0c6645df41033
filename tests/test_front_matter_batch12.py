"""Batch 12's title-page misses, each drawn again with made-up names as a PDF of real text
(``tests/pdf_maker``) or checked on the line it is printed on.

- an ACL paper (2006) sets two names side by side over one shared address, centred
  between them: the address's city before its state and postcode ("New York, NY, 10003") was
  read as a third author;
- a workshop paper's foot names the meeting it is to appear in ("To appear in 16th Workshop on
  Hot Topics in Operating Systems."): no journal was found;
- the same paper sets the author and the affiliation on one line ("Andrew Baumann, Microsoft
  Research"): the name was stored in its own affiliation.
"""

from __future__ import annotations

from pathlib import Path

from paperpyramid.parsers.embedded.journal import find_journal
from tests.test_front_matter_publishers import body, bold, centred, names, parse, regular


def test_a_city_before_its_state_and_postcode_is_no_author(tmp_path: Path) -> None:
    document = parse(
        tmp_path,
        [
            centred(740, 15, "Preemptive Extraction of Invented Relations", "bold"),
            regular(150, 712, 12, "Anna Berg"),  # in the address's type (the paper's are bold, read a size apart here)
            regular(390, 712, 12, "Carl Dahl"),
            centred(692, 12, "Example University"),
            centred(678, 12, "715, Broadway, 7th Floor"),
            centred(664, 12, "New York, NY, 10003"),
            centred(648, 11, "{berg,dahl}@example.edu"),
            bold(72, 620, 12, "Abstract"),
            *body(590),
        ],
    )
    assert names(document) == ["Anna Berg", "Carl Dahl"]


def test_the_meeting_a_paper_is_to_appear_in_is_its_venue() -> None:
    lines = [(1, "To appear in 16th Workshop on Hot Topics in Invented Systems."), (1, "1")]
    assert find_journal(lines, {})[0] == "16th Workshop on Hot Topics in Invented Systems"
    assert find_journal([(1, "To appear in: Journal of Invented Hydrology")], {})[0] == "Journal of Invented Hydrology"
    assert find_journal([(1, "To appear in a future issue.")], {})[0] is None


def test_a_name_on_its_affiliations_line_is_not_part_of_it(tmp_path: Path) -> None:
    document = parse(
        tmp_path,
        [
            centred(740, 15, "Invented Hardware Is the New Software"),
            centred(716, 10, "Anna Berg, Invented Research Laboratory"),
            bold(72, 680, 12, "Abstract"),
            *body(650),
        ],
    )
    assert [(author.name, author.affiliation) for author in document.authors] == [("Anna Berg", "Invented Research Laboratory")]


def test_each_author_keeps_the_address_on_the_line_their_name_opens(tmp_path: Path) -> None:
    # a conference sample (batch 1's SAGEEP): "Name, Institution, City" on a line for each author
    document = parse(
        tmp_path,
        [
            centred(740, 15, "Invented Hardware Is the New Software"),
            regular(72, 716, 10, "Anna Berg, Invented Research Laboratory, Springfield, USA"),
            regular(72, 702, 10, "Carl Dahl, Example University, Example City,"),
            regular(72, 690, 10, "Canada"),
            bold(72, 660, 12, "Abstract"),
            *body(630),
        ],
    )
    assert [(author.name, author.affiliation) for author in document.authors] == [
        ("Anna Berg", "Invented Research Laboratory, Springfield, USA"),
        ("Carl Dahl", "Example University, Example City, Canada"),
    ]
