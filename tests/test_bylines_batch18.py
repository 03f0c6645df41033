"""Bylines of batch 18's title pages, each a failure class of real pages, drawn with made-up names:
a role said before a name ("based on earlier versions written by"), authors' boxes side by side
(each name over a firm, a city and an e-mail) that the text layer reads row by row across the
columns, and a manual's title page that sets its byline low, far under the title; the same on
the real PDFs of the unseen set where it is built."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.author_names import split_names
from paperpyramid.parsers.embedded.blocks import Block
from paperpyramid.parsers.embedded.byline_blocks import names_text
from paperpyramid.parsers.embedded.layout import Line
from tests.unseen_pdfs import unseen_pdf

_BODY = "The package draws the figures of a study, and the examples below show how each command is used."


def _centred(canvas: Canvas, y: float, text: str, size: float, font: str = "Times-Roman", centre: float = 306) -> None:
    canvas.text(centre - text_width(text, font, size) / 2, y, text, font, size)


def _authors(tmp_path: Path, canvas: Canvas) -> list[str]:
    path = tmp_path / "paper.pdf"
    path.write_bytes(write_pdf([canvas], "Manual"))
    return [author.name for author in parse_pdf(path).authors]


def _line(text: str, x0: float, top: float) -> Line:
    return Line(text, 1, x0, top, x0 + 5 * len(text), top + 10, 10.0, False, False, "CMR12")


def test_a_role_said_before_a_name_leaves_the_name() -> None:
    # "based on earlier versions written by Yu-Sung Su" read as no name: the first of the earlier authors was lost
    line = "Anna Berg and Carl Dahl, for this version, based on earlier versions written by Eva Lund, Ola Nord, and Kai Wu"
    assert split_names(line) == ["Anna Berg", "Carl Dahl", "Eva Lund", "Ola Nord", "Kai Wu"]
    assert split_names("the German version by Eva Lund") == ["Eva Lund"]
    assert split_names("Anna Berg, translated by Carl Dahl") == ["Anna Berg", "Carl Dahl"]


def test_a_name_before_the_role_leaves_the_part_alone() -> None:
    # two people in one part, and which is the author the line does not say: neither is taken for the author
    assert split_names("Anna Berg supervised by Carl Dahl") == []
    assert split_names("Anna Berg with contributions by Carl Dahl") == []
    assert split_names("By Anna Berg") == ["Anna Berg"]


def test_a_line_in_another_column_opens_another_entry() -> None:
    # the right-hand author's name over the left-hand author's firm, read as one block: "Carl Dahl Examplesoft"
    block = Block([_line("Carl Dahl", 365, 219), _line("Examplesoft", 236, 233)])
    assert names_text(block) == "Carl Dahl, Examplesoft"


def test_pieces_of_one_name_are_no_columns() -> None:
    # the text layer cut one name at a mark or a font: a piece on the same row, or on the next row a word's
    # width to the left, is the name's, not another column's entry
    assert names_text(Block([_line("Eva Maria", 337, 120), _line("Lund3", 293, 134)])) == "Eva Maria Lund3"
    assert names_text(Block([_line("Anna", 250, 120), _line("BERG", 278, 120)])) == "Anna BERG"


def test_a_centred_rows_tail_goes_on_over_the_next_row() -> None:
    # a byline row cut at a mark: its tail ", Eva Maria Lund" and the next row's "Berg" are one name
    block = Block([_line(", Eva Maria Lund", 357, 171), _line("Berg", 223, 183)])
    assert names_text(block) == ", Eva Maria Lund Berg"


def test_authors_boxes_side_by_side_read_row_by_row_are_read_box_by_box(tmp_path: Path) -> None:
    # LaTeX's \author{A \\ Firm \\ City \\ e-mail \and B \\ …}: each name over a firm without an institution's word
    canvas = Canvas(612, 792)
    _centred(canvas, 170, "A style option for European paper sizes", 15)
    for y, left, right in [
        (225, "Anna Berglund", "Carl Dahlberg"),
        (239, "Examplesoft", "Texfirma"),
        (253, "Utrecht", "Zoetermeer"),
    ]:
        _centred(canvas, y, left, 12, centre=260)
        _centred(canvas, y, right, 12, centre=410)
    _centred(canvas, 267, "aberg@example.nl", 10, "Courier", centre=260)
    _centred(canvas, 267, "cdahl@example.nl", 10, "Courier", centre=410)
    _centred(canvas, 300, "Printed January 10, 2023", 12)
    _centred(canvas, 350, "Abstract", 9, "Times-Bold")
    canvas.text(150, 365, _BODY[:70], "Times-Roman", 9)
    assert _authors(tmp_path, canvas) == ["Anna Berglund", "Carl Dahlberg"]


def test_names_over_their_addresses_far_under_a_manuals_title_are_read(tmp_path: Path) -> None:
    # a title page: the title high, nothing under it, the byline set low at the right
    canvas = Canvas(612, 792)
    canvas.text(250, 290, "Kramers-Kronig Transforms of Spectra", "Times-Roman", 18)
    for y, text, size in [
        (560, "Anna Berglund", 13),
        (576, "Consortium for Advanced Radiation Sources", 10),
        (590, "University of Chicago, Chicago, IL", 10),
        (624, "Carl Dahlberg", 13),
        (640, "Naval Research Laboratory", 10),
        (654, "Washington, DC", 10),
    ]:
        canvas.text(504 - text_width(text, "Times-Roman", size), y, text, "Times-Roman", size)
    page = Canvas(612, 792)
    page.text(72, 100, "1 Introduction", "Times-Bold", 14)
    page.text(72, 125, _BODY, "Times-Roman", 10)
    path = tmp_path / "manual.pdf"
    path.write_bytes(write_pdf([canvas, page], "Manual"))
    assert [author.name for author in parse_pdf(path).authors] == ["Anna Berglund", "Carl Dahlberg"]


def test_a_stray_line_far_under_the_names_is_no_author(tmp_path: Path) -> None:
    # names and affiliations read, then a margin's box far down the page that names the corresponding author again
    canvas = Canvas(612, 792)
    _centred(canvas, 100, "A Very Large Scale Analysis of Selective Pressure", 17)
    _centred(canvas, 130, "Anna Berglund1 and Carl Dahlberg1,2", 11)
    _centred(canvas, 150, "1 Department of Biology, University of Example, Dublin, Ireland", 8)
    _centred(canvas, 162, "2 School of Biology, University of Leeds, Leeds, United Kingdom", 8)
    canvas.text(35, 500, "Corresponding author", "Times-Roman", 8.6)
    canvas.text(35, 512, "Carl Dahlberg, c.dahl@example.ac.uk", "Times-Roman", 8.2)
    assert _authors(tmp_path, canvas) == ["Anna Berglund", "Carl Dahlberg"]


@pytest.mark.parametrize(
    ("name", "authors"),
    [
        ("mi-missing-data-example.pdf", ["Ben Goodrich", "Jonathan Kropko", "Yu-Sung Su", "Masanao Yajima"]),
        ("ntgclass-a4-style-option.pdf", ["Nico Poppelier", "Johannes Braams"]),
        ("ifeffit-diffkk-kramers-kronig.pdf", ["Matthew Newville", "Julie Olmsted Cross"]),
    ],
)
def test_batch_18_bylines(name: str, authors: list[str]) -> None:
    found = [author.name for author in parse_pdf(unseen_pdf(18, name)).authors]
    assert found[: len(authors)] == authors
