"""Bylines that end in a group: every person kept, the group after them.

Medical papers (PMC) sign with a study group, consortium or investigators after the people:
"… and the ABC Study Group", "… on behalf of the ABC Consortium", "for the ABC Investigators",
the group alone on the line under the names. JATS gives the group as a ``<collab>`` among the
contributors, and the metadata scorer takes it as an author. Each title page is drawn with
made-up names as a PDF of real text (``tests/pdf_maker``), as in
``tests/test_front_matter_layouts.py``; each lost a person or the group before its rule.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.parsers.embedded import author_names as an
from tests.test_front_matter_publishers import Item, body, bold, centred, names, parse, regular

TITLE = centred(720, 16, "A Trial of Invented Therapies in Many Centres", "bold")
AFFILIATION = "1Department of Medicine, Example University, Uppsala, Sweden"
PEOPLE = ["Anna Berg", "Carl Dahl"]


def page(tmp_path: Path, *lines: Item) -> list[str]:
    """The authors read from a title page with ``lines`` between the title and the abstract."""
    document = parse(tmp_path, [TITLE, *lines, bold(72, 610, 10, "Abstract"), *body(580)])
    return names(document)


@pytest.mark.parametrize(
    ("printed", "group"),
    [
        ("Anna Berg1 and Carl Dahl2 on behalf of the Invented Trial Group", "Invented Trial Group"),  # no names at all before
        ("Anna Berg1, Carl Dahl2 and the Invented Trial Group", "Invented Trial Group"),  # Carl Dahl lost before
        ("Anna Berg1, Carl Dahl2 and the Invented Trial Group*", "Invented Trial Group"),  # the group's own mark
        ("Anna Berg1, Carl Dahl2, the Invented Trial Consortium3", "Invented Trial Consortium"),  # a comma alone (PLOS)
        ("Anna Berg and Carl Dahl for the Invented Trial Investigators", "Invented Trial Investigators"),  # no marks
    ],
)
def test_a_group_at_the_end_of_the_names_line_keeps_every_person(tmp_path: Path, printed: str, group: str) -> None:
    # "Group" and "Consortium" name institutions too: the names' line was taken for an affiliation
    assert page(tmp_path, centred(690, 10, printed), centred(674, 8, AFFILIATION)) == [*PEOPLE, group]


@pytest.mark.parametrize("gap", [16, 24])  # in the names' block, and in a block of its own
@pytest.mark.parametrize("printed", ["the Invented Trial Group", "Invented Trial Group", "on behalf of the Invented Trial Group"])
def test_a_group_on_a_line_of_its_own_under_marked_names_signs_with_them(tmp_path: Path, gap: float, printed: str) -> None:
    # the names carry marks, so their affiliations open with one: an unmarked group in their type is no affiliation
    lines = [centred(690, 10, "Anna Berg1, Carl Dahl2"), centred(690 - gap, 10, printed), centred(640, 8, AFFILIATION)]
    assert page(tmp_path, *lines) == [*PEOPLE, "Invented Trial Group"]


def test_a_group_after_names_with_affiliation_letters(tmp_path: Path) -> None:
    # the letters that key the affiliations are dropped from the people's names, the group kept after them
    lines = [
        centred(690, 10, "Anna Berga, Carl Dahlb and the Invented Trial Group"),
        centred(674, 8, "aDepartment of Medicine, Example University, Uppsala, Sweden; bExample Institute, Lund, Sweden"),
    ]
    assert page(tmp_path, *lines) == [*PEOPLE, "Invented Trial Group"]


def test_a_groups_own_for_stays_in_its_name(tmp_path: Path) -> None:
    lines = [
        centred(690, 10, "Anna Berg1, Carl Dahl2, Eva Falk1 and the Invented Study Group for Heart Failure"),
        centred(674, 8, AFFILIATION),
    ]
    assert page(tmp_path, *lines) == [*PEOPLE, "Eva Falk", "Invented Study Group for Heart Failure"]


@pytest.mark.parametrize(
    "lines",
    [
        # unmarked names over their own affiliation: "Machine Learning Group" is a place, not a signature
        [
            centred(690, 10, "Anna Berg, Carl Dahl"),
            centred(674, 10, "Machine Learning Group"),
            centred(660, 10, "Example University, Sweden"),
        ],
        # ACM: a footnote's mark on the names, the group in the affiliations' smaller type under them
        [centred(690, 11, "Anna Berg*, Carl Dahl"), centred(674, 9, "The Invented Trial Group"), centred(662, 9, "Hekla, Iceland")],
        # a numbered affiliation that is a group
        [centred(690, 10, "Anna Berg1, Carl Dahl2"), centred(674, 8, AFFILIATION), centred(664, 8, "2Invented Trial Group, Lund, Sweden")],
    ],
)
def test_a_group_among_the_affiliations_is_no_author(tmp_path: Path, lines: list[Item]) -> None:
    assert page(tmp_path, *lines) == PEOPLE


def test_the_group_joined_to_the_last_name() -> None:
    assert an.group_tail("Anna Berg1,2, Carl Dahl2,3 and the ABC Study Group") == ("Anna Berg1,2, Carl Dahl", "ABC Study Group")
    assert an.group_tail("Anna Berg; for the COVID-19 Study Group4") == ("Anna Berg", "COVID-19 Study Group")  # its own digits kept
    assert an.group_tail("Anna Berg, Carl Dahl")[1] == ""
    # not after an institution's words: a name of its own, an affiliation
    assert an.group_tail("Anna Berg, Research and Development Group")[1] == ""
    assert an.group_tail("Department of Medicine, Invented Trial Group")[1] == ""
    # a person's marked name is no part of the group: "Carl Dahl2 the ABC Group"
    assert an.group_tail("Anna Berg1, Carl Dahl2 the ABC Group")[1] == ""
    assert an.split_names("Anna Berg and Carl Dahl on behalf of the ABC Consortium") == PEOPLE
    # the groups medical papers sign with: an initiative, trialists, collaborators
    assert (
        an.group_tail("Anna Berg for the Alzheimer's Disease Neuroimaging Initiative")[1] == "Alzheimer's Disease Neuroimaging Initiative"
    )
    assert an.group_tail("Anna Berg and the ABC-2 Trialists")[1] == "ABC-2 Trialists"
    assert an.group_tail("Anna Berg, Carl Dahl and the GBD 2015 Collaborators")[1] == "GBD 2015 Collaborators"


def test_names_on_the_row_of_a_line_that_ends_in_a_group_are_read(tmp_path: Path) -> None:
    # a line that ends in a group is no affiliation's row, so the names in the box beside it are read
    lines = [
        regular(120, 690, 10, "Anna Berg1, Carl Dahl2,"),
        regular(290, 690, 10, "Eva Falk1 and the Invented Trial Group"),
        centred(674, 8, AFFILIATION),
    ]
    assert page(tmp_path, *lines) == [*PEOPLE, "Eva Falk", "Invented Trial Group"]
