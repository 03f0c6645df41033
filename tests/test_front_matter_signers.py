"""An organisation that signs a paper where no person does (issue 32): REVTeX's guides are signed
"The American Physical Society" (alone under the title, over its address) and "AIP Journal
Program" (with its marks). Title pages drawn as in ``tests/test_front_matter_bylines.py``; both
read no author before the rule. Beside people's names such a name stays an affiliation."""

from __future__ import annotations

from pathlib import Path

from tests.test_front_matter_publishers import Item, body, bold, centred, names, parse

TITLE = centred(720, 16, "An Author Guide for an Invented Document Class", "bold")


def page(tmp_path: Path, *lines: Item) -> list[str]:
    """The authors read from a title page with ``lines`` between the title and the abstract."""
    return names(parse(tmp_path, [TITLE, *lines, bold(72, 610, 10, "Abstract"), *body(580)]))


def test_a_society_alone_under_the_title_over_its_address(tmp_path: Path) -> None:
    lines = [centred(690, 10, "The Invented Physical Society*"), centred(676, 8, "1 Research Road, Ridge, NY 11961")]
    assert page(tmp_path, *lines) == ["Invented Physical Society"]


def test_a_programme_with_its_marks(tmp_path: Path) -> None:
    lines = [centred(690, 10, "ABC Journal Program1, a)"), centred(676, 8, "Invented Institute of Physics, Melville, New York 11747")]
    assert page(tmp_path, *lines) == ["ABC Journal Program"]


def test_people_with_a_society_as_their_affiliation(tmp_path: Path) -> None:
    lines = [centred(690, 10, "Anna Berg and Carl Dahl"), centred(676, 8, "The Invented Physical Society, Ridge, NY 11961")]
    assert page(tmp_path, *lines) == ["Anna Berg", "Carl Dahl"]
