"""A title the running feet repeat (TUGboat: the odd pages' feet repeat the title, the even
pages' the authors) stays the first page's title: it is set there in bold, the feet in roman, so
it is not page furniture. The feet still leave the body, and a head set alike on every page,
the first included, still goes. The PDF is made here."""

from __future__ import annotations

from pathlib import Path

from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.pdf_maker import styled_pdf

TITLE = "Macros for typesetting a users group journal"
AUTHORS = "Ama Okafor and Erik Lindqvist"
HEAD = "Users Group Journal, Volume 4 (2020), No. 2"
PAGES = 5
SENTENCE = "The macros set the title, the authors and the abstract of a paper in the style of the journal."

Item = tuple[float, float, float, list[tuple[str, str]]]


def _page(number: int, *, bold_title: bool) -> list[Item]:
    items: list[Item] = [(72, 760, 9, [("regular", HEAD)]), (500, 760, 9, [("regular", str(100 + number))])]
    y = 700.0
    if number == 1:
        items += [(72, 700, 10, [("bold" if bold_title else "regular", TITLE)]), (90, 686, 10, [("regular", AUTHORS)])]
        y = 650.0
    else:
        items.append((72, 40, 10, [("regular", TITLE if number % 2 else AUTHORS)]))
    items.append((72, y, 10, [("bold", f"{number} Section {number}")]))
    for line in range(30):
        items.append((72, y - 14 - 13 * line, 10, [("regular", SENTENCE)]))
    return items


def _parse(tmp_path: Path, *, bold_title: bool) -> object:
    path = tmp_path / "guide.pdf"
    path.write_bytes(styled_pdf([_page(number, bold_title=bold_title) for number in range(1, PAGES + 1)]))
    return parse_pdf(path)


def test_a_bold_title_the_feet_repeat_in_roman_is_the_title(tmp_path: Path) -> None:
    document = _parse(tmp_path, bold_title=True)
    assert document.title == TITLE
    assert [author.name for author in document.authors][:1] == ["Ama Okafor"]
    body = " ".join(section.text for section in document.sections)
    assert TITLE not in body  # the feet of pages 3 and 5 are out of the text
    assert HEAD not in body
    assert body.count(AUTHORS) <= 1  # page 1's byline at most: the even pages' feet are out


def test_a_line_set_as_its_repeats_stays_furniture(tmp_path: Path) -> None:
    """Page 1's line in the same roman type as the feet that repeat it is a running line like
    them (aapm's "Sample title" head): it goes, and is no title."""
    document = _parse(tmp_path, bold_title=False)
    assert document.title != TITLE
    assert TITLE not in " ".join(section.text for section in document.sections)
