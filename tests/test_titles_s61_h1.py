"""Titles that type size alone misreads on a software manual's title page: a title's line in a
typewriter face between two lines in the title's face, a program's name alone in large type over
its description (under a banner with the manual's kind, with the name and description joined in
the metadata's title), and a journal's title in bold that the text layer reads smaller than the
text, flush over its author's indented name."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, text_width
from paperpyramid.parsers.embedded.parser import parse_pdf
from tests.title_pages import body, centred, write_page

_BODY = (
    "The macros place each symbol of the drawing on a grid, and the program computes the positions of",
    "the generations from the spreadsheet before the drawing is typeset. Each node is given with its",
    "relations, and the differences between the layouts are discussed below with the algorithm itself.",
)


def _body(canvas: Canvas, y: float, lines: int = 9) -> None:
    body(canvas, y, lines, _BODY)


def _write(tmp_path: Path, canvas: Canvas, title: str = "") -> Path:
    return write_page(tmp_path, canvas, title, _BODY, lines=12)


def test_a_title_line_in_a_typewriter_face_between_lines_in_the_title_face(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    centred(canvas, 180, "A Program For Automatic Pedigree Construction", "Times-Roman", 17)
    centred(canvas, 201, "With pst-pdgr", "Courier", 14.4)
    centred(canvas, 222, "User Manual and Algorithm Description", "Times-Roman", 17)
    centred(canvas, 252, "Boris Veytsman      Leila Akhmadeeva", "Times-Roman", 12)
    centred(canvas, 276, "March 2012", "Times-Roman", 12)
    centred(canvas, 310, "Abstract", "Times-Bold", 9)
    _body(canvas, 326)
    document = parse_pdf(_write(tmp_path, canvas))
    assert document.title == "A Program For Automatic Pedigree Construction With pst-pdgr User Manual and Algorithm Description"


def test_a_byline_under_the_title_is_not_read_as_its_line_in_another_face(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    centred(canvas, 180, "A Program For Automatic Pedigree Construction", "Times-Roman", 17)
    centred(canvas, 201, "by Boris Veytsman", "Courier", 14.4)
    centred(canvas, 222, "Department of Genetics", "Times-Roman", 17)
    centred(canvas, 276, "March 2012", "Times-Roman", 12)
    centred(canvas, 310, "Abstract", "Times-Bold", 9)
    _body(canvas, 326)
    document = parse_pdf(_write(tmp_path, canvas))
    assert document.title == "A Program For Automatic Pedigree Construction"


def test_a_program_name_on_a_cover_page_over_its_description(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    centred(canvas, 170, "pst-asr", "Helvetica", 60)
    centred(canvas, 240, "Tex macros for typesetting", "Times-Roman", 20)
    centred(canvas, 264, "autosegmental representations", "Times-Roman", 20)
    for x, label in ((170, "[+cons]"), (280, "[+cons]"), (390, "[+cons]")):
        canvas.text(x, 330, label, "Times-Roman", 10)
    centred(canvas, 560, "User’s Guide", "Times-Roman", 30)
    centred(canvas, 584, "John Frampton", "Times-Roman", 12)
    centred(canvas, 612, "17 September 2006", "Times-Roman", 12)
    document = parse_pdf(_write(tmp_path, canvas))
    assert document.title == "pst-asr"


def test_a_program_name_under_a_manual_banner_with_the_metadata_joining_its_description(tmp_path: Path) -> None:
    canvas = Canvas(595, 842)
    canvas.fill(30, 30, 565, 90, 0.8)
    canvas.text(40, 58, "Software Manual", "Helvetica-Bold", 22)
    canvas.text(40, 76, "Institute of Bioinformatics, Johannes Kepler University Linz", "Helvetica-Bold", 10.5)
    name, description = "APCluster", "An R Package for Affinity Propagation Clustering"
    canvas.text(297.5 - text_width(name, "Helvetica-Bold", 22) / 2, 275, name, "Helvetica-Bold", 22)
    canvas.text(297.5 - text_width(description, "Helvetica-Bold", 15) / 2, 310, description, "Helvetica-Bold", 15)
    byline = "Ulrich Bodenhofer, Johannes Palme, and Andreas Kothmeier"
    canvas.text(297.5 - text_width(byline, "Helvetica-Bold", 10.5) / 2, 345, byline, "Helvetica-Bold", 10.5)
    address = "Institute of Bioinformatics, Johannes Kepler University Linz"
    canvas.text(297.5 - text_width(address, "Helvetica", 9.5) / 2, 362, address, "Helvetica", 9.5)
    canvas.text(200, 470, "Version 1.4.10, May 31, 2022", "Helvetica-Bold", 12.5)
    document = parse_pdf(_write(tmp_path, canvas, f"{name} - {description}"))
    assert document.title == "APCluster"


def test_a_bold_title_read_smaller_than_the_text_over_its_indented_author(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    canvas.text(72, 50, "TUGboat, Volume 30 (2009), No. 1", "Times-Roman", 10)
    canvas.rule(72, 72, 297, 72, 0.5)
    canvas.text(72, 86, "DVI specials for PDF generation", "Times-Bold", 7.5)  # its boxes read small
    canvas.text(92, 102, "Jin-Hwan Cho", "Times-Roman", 10)
    canvas.text(72, 124, "Abstract", "Times-Bold", 10)
    for n, line in enumerate(_BODY * 3):
        canvas.text(72, 140 + 12 * n, line[:48], "Times-Roman", 10)
        canvas.text(320, 86 + 12 * n, line[48:], "Times-Roman", 10)
    document = parse_pdf(_write(tmp_path, canvas))
    assert document.title == "DVI specials for PDF generation"
    assert [author.name for author in document.authors] == ["Jin-Hwan Cho"]
