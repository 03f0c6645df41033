"""Titles of covers and vignettes that type size alone misreads: a document's kind set apart under
a title that reads alone ("Manual*"), a one-word title on a cover over its byline aligned with it
on the same edge ("DIFFKK" over names flush right), and a title at the text's size centred over a
byline of one name with its address and e-mail (a series' boxed masthead)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.title_pages import body, centred, flush_right, write_page
from tests.unseen_pdfs import unseen_pdf


def _body(canvas: Canvas, y: float, lines: int = 9) -> None:
    body(canvas, y, lines)


def _write(tmp_path: Path, canvas: Canvas) -> Path:
    return write_page(tmp_path, canvas)


def test_a_document_kind_set_apart_under_a_title_is_no_part_of_it(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    centred(canvas, 170, "A Program to find Maximal Matches", "Times-Bold", 20)
    centred(canvas, 195, "in Large Sequences", "Times-Bold", 20)
    centred(canvas, 232, "Manual*", "Times-Bold", 20)  # a wider leading than the title's own lines
    centred(canvas, 268, "Stefan Kurtz", "Times-Roman", 12)
    _body(canvas, 300)
    document = parse_pdf(_write(tmp_path, canvas))
    assert document.title == "A Program to find Maximal Matches in Large Sequences"


def test_a_kind_read_in_the_titles_paragraph_stays_in_it(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    centred(canvas, 170, "An Extension for Greek Philology", "Times-Roman", 20)
    centred(canvas, 194, "User Manual", "Times-Roman", 20)  # at the title's own leading
    centred(canvas, 230, "Claudio Beccari", "Times-Roman", 12)
    _body(canvas, 270)
    document = parse_pdf(_write(tmp_path, canvas))
    assert document.title == "An Extension for Greek Philology User Manual"


def test_a_one_word_cover_title_over_namesflush_right(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    canvas.rule(108, 250, 504, 250, 4)
    flush_right(canvas, 280, "DIFFKK", "Times-Roman", 18)
    flush_right(canvas, 520, "Matthew Newville", "Times-Roman", 13)
    flush_right(canvas, 535, "University of Chicago, Chicago, IL", "Times-Roman", 10)
    flush_right(canvas, 565, "Julie Olmsted Cross", "Times-Roman", 13)
    flush_right(canvas, 580, "Naval Research Laboratory", "Times-Roman", 10)
    canvas.rule(108, 600, 504, 600, 4)
    document = parse_pdf(_write(tmp_path, canvas))
    assert document.title == "DIFFKK"


@pytest.mark.parametrize(
    ("lines", "title"),
    [
        (("Structural Equation Modeling", "in R:", "A Tutorial"), "Structural Equation Modeling in R: A Tutorial"),
        (("Bayesian Models for", "Field Ecologists", "A Primer"), "Bayesian Models for Field Ecologists A Primer"),
        (("The Hitchhiker's Guide", "to the Galaxy", "Reference Manual"), "The Hitchhiker's Guide to the Galaxy Reference Manual"),
    ],
)
def test_a_subtitle_set_apart_under_a_title_stays_in_it(tmp_path: Path, lines: tuple[str, str, str], title: str) -> None:
    # after a colon, with an article or a qualifier and no note's mark, the line set apart is the subtitle
    canvas = Canvas(612, 792)
    centred(canvas, 170, lines[0], "Times-Bold", 20)
    centred(canvas, 195, lines[1], "Times-Bold", 20)
    centred(canvas, 232, lines[2], "Times-Bold", 20)
    centred(canvas, 268, "Anna Berglund", "Times-Roman", 12)
    _body(canvas, 300)
    assert parse_pdf(_write(tmp_path, canvas)).title == title


def test_a_kicker_at_the_margin_over_names_at_the_margin_is_no_title(tmp_path: Path) -> None:
    # every block of a flush-left page starts at the margin: that is no byline aligned under a title
    canvas = Canvas(612, 792)
    canvas.text(72, 80, "Spotlight", "Times-Bold", 20)
    canvas.text(72, 110, "Anna Berg, Carl Dahl", "Times-Roman", 10)
    _body(canvas, 140)
    assert parse_pdf(_write(tmp_path, canvas)).title != "Spotlight"


def test_a_one_word_heading_over_text_is_no_title(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    canvas.text(72, 100, "Contents", "Times-Bold", 18)
    canvas.text(72, 130, "Matthew Newville", "Times-Roman", 10)
    _body(canvas, 160)
    document = parse_pdf(_write(tmp_path, canvas))
    assert document.title != "Contents"


def test_a_title_at_text_size_centred_over_a_name_with_its_e_mail(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    centred(canvas, 92, "Regression Table Survey with outreg", "Times-Roman", 10)
    centred(canvas, 120, "Paul Johnson, CRMDA, pauljohn@ku.edu", "Courier", 10)
    centred(canvas, 160, "Keywords: R, regression, tables", "Times-Roman", 10)
    canvas.text(90, 170, "Guide No: 49", "Times-Bold", 9)
    canvas.text(458, 170, "Jul. 25, 2022", "Times-Bold", 9)
    centred(canvas, 222, "Abstract", "Times-Bold", 9)
    _body(canvas, 240)
    document = parse_pdf(_write(tmp_path, canvas))
    assert document.title == "Regression Table Survey with outreg"


@pytest.mark.parametrize(
    ("name", "title"),
    [
        ("mummer-maxmat3-maximal-matches.pdf", "A Program to find Maximal Matches in Large Sequences"),
        ("ifeffit-diffkk-kramers-kronig.pdf", "DIFFKK"),
        ("rockchalk-outreg-regression-tables.pdf", "Regression Table Survey with outreg"),
    ],
)
def test_titles_of_real_covers(name: str, title: str) -> None:
    assert parse_pdf(unseen_pdf(18, name)).title == title
