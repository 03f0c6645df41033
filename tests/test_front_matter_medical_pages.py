"""Title pages of medical journals drawn again with made-up names: an article type's banner under
the title, a title set in two sizes, names in capitals keyed to their affiliations by letters.

Each page is a PDF of real text (``tests/pdf_maker``); each convention read wrong before its rule
(no authors at all under a banner or a subtitle, the subtitle lost from the title, the letters
left on the names).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paperpyramid.parsers.embedded.author_names import split_names
from tests.test_front_matter_publishers import Item, body, bold, names, parse, regular

TITLE = "An Invented Trial of Aspirin in Older Adults"
NAMES = "Anna Berg1, Carl Dahl2 and Eva Lund1"
AFFILIATIONS = [
    regular(72, 676, 8, "1 Department of Medicine, Example University, Springfield, USA"),
    regular(72, 666, 8, "2 Institute of Public Health, Example College, Example City, Canada"),
]


def _page(*over_affiliations: Item) -> list[Item]:
    return [*over_affiliations, *AFFILIATIONS, bold(72, 630, 10, "Abstract"), *body(600)]


@pytest.mark.parametrize("banner", ["ORIGINAL RESEARCH", "Brief Communication", "CLINICAL STUDY", "Original Investigation"])
def test_an_article_type_banner_under_the_title_leaves_the_names(tmp_path: Path, banner: str) -> None:
    # the banner in small bold over names in roman: it is no name, and the names under it are no affiliation
    document = parse(tmp_path, _page(regular(72, 760, 16, TITLE), bold(72, 738, 9, banner), regular(72, 716, 10, NAMES)))
    assert document.title == TITLE
    assert names(document) == ["Anna Berg", "Carl Dahl", "Eva Lund"]


@pytest.mark.parametrize("banner", ["Brief Communication", "Clinical Study", "Study Protocol", "Consensus Statement", "Policy Forum"])
def test_an_article_type_is_no_name(banner: str) -> None:
    assert split_names(banner) == []


def test_a_title_set_in_two_sizes_after_a_colon_keeps_its_subtitle(tmp_path: Path) -> None:
    document = parse(
        tmp_path,
        _page(
            regular(72, 740, 18, "Aspirin in Older Adults:"),
            regular(72, 720, 13, "An Invented Randomised Trial of Its Harms"),
            regular(72, 696, 10, NAMES),
        ),
    )
    assert document.title == "Aspirin in Older Adults: An Invented Randomised Trial of Its Harms"
    assert names(document) == ["Anna Berg", "Carl Dahl", "Eva Lund"]


def test_a_title_line_on_a_colon_over_names_in_smaller_type_is_no_subtitle(tmp_path: Path) -> None:
    # the names' own type is no display type: they stay the byline
    document = parse(tmp_path, _page(regular(72, 740, 18, "Aspirin in Older Adults:"), regular(72, 720, 10, NAMES)))
    assert names(document) == ["Anna Berg", "Carl Dahl", "Eva Lund"]


@pytest.mark.parametrize(
    ("printed", "expected"),
    [
        ("ANNA BERGa, CARL DAHLb,c AND EVA LUNDa", ["Anna Berg", "Carl Dahl", "Eva Lund"]),
        ("Anna BERGa, Carl DAHLb and Eva LUNDa,*", ["Anna Berg", "Carl Dahl", "Eva Lund"]),  # the surname alone in capitals
        ("Carl Dahl MSc and Eva Lund DSc", ["Carl Dahl", "Eva Lund"]),  # a degree's last letter is no mark
    ],
)
def test_letter_marks_after_names_in_capitals_are_dropped(printed: str, expected: list[str]) -> None:
    assert split_names(printed) == expected


def test_names_in_capitals_keyed_by_letters_on_a_title_page(tmp_path: Path) -> None:
    document = parse(
        tmp_path,
        [
            regular(72, 740, 16, TITLE),
            bold(72, 716, 10, "ANNA BERGa, CARL DAHLb AND EVA LUNDa"),
            regular(72, 676, 8, "a Department of Medicine, Example University, Springfield, USA"),
            regular(72, 666, 8, "b Institute of Public Health, Example College, Example City, Canada"),
            bold(72, 630, 10, "Abstract"),
            *body(600),
        ],
    )
    assert names(document) == ["Anna Berg", "Carl Dahl", "Eva Lund"]


@pytest.mark.parametrize(
    "byline",
    [
        [regular(72, 716, 10, "Authors: " + NAMES)],  # a manuscript's label before the names (a preprint server's Word file)
        [bold(72, 730, 10, "Authors:"), regular(72, 716, 10, NAMES)],  # the label in bold alone over them
    ],
)
def test_a_label_before_the_names_is_no_part_of_them(tmp_path: Path, byline: list[Item]) -> None:
    document = parse(tmp_path, _page(regular(72, 760, 16, TITLE), *byline))
    assert names(document) == ["Anna Berg", "Carl Dahl", "Eva Lund"]


def test_a_label_before_names_in_capitals_is_dropped() -> None:
    assert split_names("AUTHORS: ANNA BERG, CARL DAHL") == ["Anna Berg", "Carl Dahl"]


def test_a_journals_name_in_display_type_over_the_title_is_no_title(tmp_path: Path) -> None:
    # the masthead's name larger than the title, with no issue line under it (that sits in the foot)
    document = parse(
        tmp_path, _page(bold(72, 760, 24, "Journal of Invented Medicine"), regular(72, 730, 16, TITLE), regular(72, 706, 10, NAMES))
    )
    assert document.title == TITLE
    assert names(document) == ["Anna Berg", "Carl Dahl", "Eva Lund"]


def test_a_corresponding_authors_line_over_the_affiliations_does_not_end_them(tmp_path: Path) -> None:
    document = parse(
        tmp_path,
        [
            regular(72, 760, 16, TITLE),
            regular(72, 736, 10, "Anna Berg1*, Carl Dahl2 and Eva Lund1"),
            regular(72, 720, 8, "*Corresponding author: Anna Berg, anna.berg@example.edu"),
            *[(x, y + 20, size, runs) for x, y, size, runs in AFFILIATIONS],
            bold(72, 630, 10, "Abstract"),
            *body(600),
        ],
    )
    assert [author.affiliation for author in document.authors] == [
        "Department of Medicine, Example University, Springfield, USA",
        "Institute of Public Health, Example College, Example City, Canada",
        "Department of Medicine, Example University, Springfield, USA",
    ]
