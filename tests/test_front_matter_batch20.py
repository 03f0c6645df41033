"""Title pages of batch 20's misses (last stop's held-out set), drawn, each with a page that must
not be read so: the document's kind on a line of its own in the title's type, a wider leading
over it ("MUSIC — Multi-Simulation Coordinator" / "Users Manual"); an institute's acronym and
place under a name ("Xavier Leroy" / "INRIA Rocquencourt"); Texinfo's cover, the name alone at
its foot ("Malaga 7.12" … "Björn Beutel"); a cover's names over their institute far under the
title, a version line and a subtitle between (trace2dbest); and a software library's name in a
subtitle, no person's ("Multiple Precision Floating-Point Interval Library"). Then the review's
counter-examples: a firm, a publisher or a place at a cover's foot; initials set without stops
before a name."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas
from paperpyramid.parsers.embedded.author_names import split_names
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.title_pages import body, centred, flush_right, write_page
from tests.unseen_pdfs import unseen_pdf


def _names(path: Path) -> list[str]:
    return [author.name for author in parse_pdf(path).authors]


def _two_line_title(canvas: Canvas, second: str, font: str = "Times-Roman", leading: float = 40) -> None:
    # at 40 points from baseline to baseline, wider than 1.2 of the type's size: the lines are blocks of their own
    centred(canvas, 330, "MUSIC — Multi-Simulation Coordinator", "Times-Roman", 15.3)
    centred(canvas, 330 + leading, second, font, 15.3)
    centred(canvas, 400, "Örjan Ekeberg and Mikael Djurfeldt", "Times-Roman", 10.6)
    centred(canvas, 420, "December 4, 2019", "Times-Roman", 10.6)


def test_the_kind_in_the_titles_type_under_a_wider_leading_is_the_titles_last_line(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    _two_line_title(canvas, "Users Manual")
    document = parse_pdf(write_page(tmp_path, canvas))
    assert document.title == "MUSIC — Multi-Simulation Coordinator Users Manual"
    assert [author.name for author in document.authors] == ["Örjan Ekeberg", "Mikael Djurfeldt"]


@pytest.mark.parametrize(
    ("second", "font", "leading"),
    [
        ("Users Manual", "Times-Italic", 40),  # another face: a kicker, no line of the title
        ("Users Manual", "Times-Roman", 52),  # a gap wider than 1.6 of the size: set apart
        ("Neuronal Networks in Parallel", "Times-Roman", 40),  # no kind: a subtitle set apart
    ],
)
def test_a_line_set_apart_that_is_no_kind_in_the_titles_face_stays_out(tmp_path: Path, second: str, font: str, leading: float) -> None:
    canvas = Canvas(612, 792)
    _two_line_title(canvas, second, font, leading)
    assert parse_pdf(write_page(tmp_path, canvas)).title == "MUSIC — Multi-Simulation Coordinator"


def _byline(canvas: Canvas, lines: tuple[str, ...]) -> None:
    centred(canvas, 160, "Camlidl user’s manual", "Times-Roman", 15.3)
    for n, line in enumerate(lines):
        centred(canvas, 215 + 14 * n, line, "Times-Roman", 10.6)
    centred(canvas, 215 + 14 * len(lines) + 14, "May 1, 2002", "Times-Roman", 10.6)
    canvas.text(72, 300, "1 Overview", "Times-Bold", 12.7)
    body(canvas, 320)


def test_an_institutes_acronym_and_place_under_a_name_is_no_name(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    _byline(canvas, ("Xavier Leroy", "INRIA Rocquencourt"))
    assert _names(write_page(tmp_path, canvas)) == ["Xavier Leroy"]


def test_surnames_in_capitals_over_one_another_stay_names(tmp_path: Path) -> None:
    # a byline that writes every surname in capitals first: the second line is a name as the first is
    canvas = Canvas(612, 792)
    _byline(canvas, ("LEROY Xavier", "DUPONT Marie"))
    assert _names(write_page(tmp_path, canvas)) == ["Xavier Leroy", "Marie Dupont"]


def _texinfo_cover(canvas: Canvas, foot: str) -> None:
    canvas.text(90, 234, "Malaga 7.12", "Times-Bold", 18.3)
    canvas.rule(90, 240, 522, 240, 2)
    flush_right(canvas, 256, "User’s and Programmer’s Manual", "Times-Roman", 9.7)
    canvas.text(90, 683, foot, "Times-Bold", 12.7)
    canvas.rule(90, 688, 522, 688, 1)


def test_texinfos_name_alone_at_the_covers_foot_is_the_author(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    _texinfo_cover(canvas, "Björn Beutel")
    document = parse_pdf(write_page(tmp_path, canvas))
    assert document.title == "Malaga 7.12"
    assert [author.name for author in document.authors] == ["Björn Beutel"]


def test_teams_at_the_covers_foot_are_no_author(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    _texinfo_cover(canvas, "Spaces, INRIA Lorraine, Arenaire, Lab. ANO")
    assert _names(write_page(tmp_path, canvas)) == []


def test_a_name_at_the_foot_under_the_text_is_no_author(tmp_path: Path) -> None:
    # the page's text under the title: the line at its foot is the text's, no cover's byline
    canvas = Canvas(612, 792)
    canvas.text(90, 234, "Malaga 7.12", "Times-Bold", 18.3)
    body(canvas, 300, 20)
    canvas.text(90, 683, "Björn Beutel", "Times-Bold", 12.7)
    assert _names(write_page(tmp_path, canvas)) == []


def test_names_over_their_institute_far_under_a_version_line_and_subtitle(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    centred(canvas, 128, "trace2dbest", "Helvetica", 67)
    centred(canvas, 185, "version 3.0", "Helvetica", 29)
    centred(canvas, 214, "User Guide", "Helvetica", 29)
    centred(canvas, 260, "turning sequence chromatograph traces", "Helvetica", 24.6)
    centred(canvas, 285, "into expressed sequence tags", "Helvetica", 24.6)
    centred(canvas, 460, "Alasdair Anthony, Ralf Schmid, John Parkinson, Mark Blaxter", "Helvetica", 17.9)
    for n, line in enumerate(("Institute of Evolutionary Biology", "School of Biological Sciences", "University of Edinburgh")):
        centred(canvas, 495 + 18 * n, line, "Helvetica", 17.9)
    document = parse_pdf(write_page(tmp_path, canvas))
    assert document.title == "trace2dbest"
    assert [author.name for author in document.authors] == ["Alasdair Anthony", "Ralf Schmid", "John Parkinson", "Mark Blaxter"]


def test_a_software_librarys_name_is_no_persons() -> None:
    assert split_names("Multiple Precision Floating-Point Interval Library") == []


@pytest.mark.parametrize(
    ("name", "title", "authors"),
    [
        ("music-multi-simulation-manual.pdf", "MUSIC — Multi-Simulation Coordinator Users Manual", ["Örjan Ekeberg", "Mikael Djurfeldt"]),
        ("camlidl-users-manual.pdf", "Camlidl user’s manual", ["Xavier Leroy"]),
        ("malaga-users-programmers-manual.pdf", "Malaga 7.12", ["Björn Beutel"]),
        ("trace2dbest-user-guide.pdf", "trace2dbest", ["Alasdair Anthony", "Ralf Schmid", "John Parkinson", "Mark Blaxter"]),
        ("mpfi-interval-library.pdf", "MPFI 1.5.3.", []),
    ],
)
def test_batch_20s_title_pages(name: str, title: str, authors: list[str]) -> None:
    document = parse_pdf(unseen_pdf(20, name))
    assert (document.title, [author.name for author in document.authors]) == (title, authors)


# the review's counter-examples: a firm, a publisher or a place at a cover's foot is nobody, and initials
# set without stops open a name ("AKM Fazlul Haque"), no institute's acronym


def _texinfo_authors(canvas: Canvas, foot: tuple[str, ...], font: str = "Times-Bold") -> None:
    canvas.text(90, 234, "Using ld", "Times-Bold", 18.3)
    canvas.rule(90, 240, 522, 240, 2)
    flush_right(canvas, 256, "The GNU linker", "Times-Roman", 9.7)
    flush_right(canvas, 268, "ld version 2", "Times-Roman", 9.7)
    for n, line in enumerate(foot):
        canvas.text(90, 683 - 15 * (len(foot) - 1 - n), line, font, 12.7)
    canvas.rule(90, 688, 522, 688, 1)


@pytest.mark.parametrize(
    ("foot", "font"),
    [
        (("Cygnus Support",), "Times-Bold"),  # "@author Cygnus Support": a firm
        (("Steve Chamberlain", "Cygnus Support"), "Times-Bold"),  # the firm under the name is no second person
        (("Adobe Systems Incorporated",), "Helvetica"),
        (("Morgan Kaufmann Publishers",), "Times-Bold"),
        (("Santa Fe, New Mexico", "July 12-23, 2010"), "Times-Bold"),  # a workshop's place and dates
        (("Carl Dahl",), "Times-Roman"),  # in roman, no Texinfo author: a line of the page's foot
    ],
)
def test_no_firm_place_or_roman_line_at_a_covers_foot_is_an_author(tmp_path: Path, foot: tuple[str, ...], font: str) -> None:
    canvas = Canvas(612, 792)
    _texinfo_authors(canvas, foot, font)
    names = _names(write_page(tmp_path, canvas))
    assert not any(word in name for name in names for word in ("Cygnus", "Adobe", "Kaufmann", "Santa", "Carl")), names


@pytest.mark.parametrize(
    "lines",
    [("Mohammad Rahman", "AKM Fazlul Haque"), ("Peter J Smith", "ABM Khairul Islam", "Nadia Sultana")],
)
def test_initials_set_without_stops_open_a_name_under_a_name(tmp_path: Path, lines: tuple[str, ...]) -> None:
    canvas = Canvas(612, 792)
    centred(canvas, 160, "Energy-Aware Routing in Wireless Sensor Networks", "Times-Bold", 16)
    for n, line in enumerate(lines):
        centred(canvas, 200 + 14 * n, line, "Times-Roman", 11)
    centred(canvas, 214 + 14 * len(lines), "Department of Computer Science and Engineering", "Times-Italic", 10)
    centred(canvas, 226 + 14 * len(lines), "University of Dhaka, Bangladesh", "Times-Italic", 10)
    canvas.text(72, 320, "Abstract", "Times-Bold", 12)
    body(canvas, 340)
    # compared without case: the parser writes the initials "Akm", as it did before
    assert [name.lower() for name in _names(write_page(tmp_path, canvas))] == [line.lower() for line in lines]
