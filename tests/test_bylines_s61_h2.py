"""Bylines as title pages print them outside journals (package manuals, vignettes, guides' covers),
each a failure class of real pages, drawn with made-up names: a name with its e-mail after a comma
beside the next name, names with their institutions in brackets under a line that introduces them,
and a drawing's labels and a manual's kind over the author's name on a cover."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.author_names import split_names

_BODY = "The package draws the figures of a study, and the examples below show how each command is used."


def _centred(canvas: Canvas, y: float, text: str, size: float, font: str = "Times-Roman") -> None:
    canvas.text(306 - text_width(text, font, size) / 2, y, text, font, size)


def _authors(tmp_path: Path, canvas: Canvas) -> list[str]:
    path = tmp_path / "paper.pdf"
    path.write_bytes(write_pdf([canvas], "Manual"))
    return [author.name for author in parse_pdf(path).authors]


def _page_with_title(title: str) -> Canvas:
    canvas = Canvas(612, 792)
    _centred(canvas, 150, title, 17)
    return canvas


def test_a_name_with_its_email_after_a_comma_beside_the_next_name_is_read(tmp_path: Path) -> None:
    # the e-mail made the row an affiliation's, and both names were lost
    canvas = _page_with_title("Drawing Family Trees with a Small Macro Package")
    canvas.text(170, 200, "Anna Berglund, aberg@example.net", "Times-Roman", 12)
    canvas.text(390, 200, "Carl Dahlberg", "Times-Roman", 12)
    _centred(canvas, 225, "2017/11/20, v0.4", 12)
    _centred(canvas, 270, "Abstract", 9, "Times-Bold")
    canvas.text(180, 285, _BODY[:70], "Times-Roman", 9)
    assert _authors(tmp_path, canvas) == ["Anna Berglund", "Carl Dahlberg"]


def test_names_with_their_institutions_in_brackets_under_a_lead_in_are_read(tmp_path: Path) -> None:
    # "adapted from the work of:" over "Name (University …)": the brackets made the block an affiliation
    canvas = _page_with_title("The Example Package")
    for y, line in [
        (190, "Anna Berglund"),
        (204, "aberg@example.net,"),
        (228, "adapted from the work of:"),
        (242, "Carl Dahlberg (University of Rhode Island)"),
        (256, "and Eva Lundqvist (Kent State University)."),
        (285, "December 5, 2021"),
    ]:
        _centred(canvas, y, line, 12)
    canvas.text(54, 340, "1 Introduction", "Times-Bold", 14)
    canvas.text(54, 365, _BODY, "Times-Roman", 10)
    assert _authors(tmp_path, canvas) == ["Anna Berglund", "Carl Dahlberg", "Eva Lundqvist"]


def test_a_drawings_labels_and_a_manuals_kind_are_no_names(tmp_path: Path) -> None:
    # a guide's cover: a diagram's nodes as words over "User's Guide" and the author (the labels, one of them
    # two capitalised words, and the guide's kind were read as names)
    canvas = Canvas(612, 792)
    _centred(canvas, 80, "tree-draw", 60, "Helvetica")
    _centred(canvas, 170, "Macros for typesetting feature trees", 20)
    for row, y in enumerate((260.0, 300.0, 340.0)):
        for column, x in enumerate((150.0, 260.0, 370.0)):
            label = ["[+cons]", "Place", "Coronal"][row] if (row, column) != (1, 2) else "Soft Palate"
            canvas.text(x, y, label, "Times-Roman", 10)
    _centred(canvas, 420, "User’s Guide", 30)
    _centred(canvas, 460, "Anna Berglund", 13)
    _centred(canvas, 476, "a.berglund@example.edu", 12, "Helvetica-Oblique")
    _centred(canvas, 505, "17 September 2006", 13)
    assert _authors(tmp_path, canvas) == ["Anna Berglund"]


def test_a_manuals_kind_is_no_name() -> None:
    assert split_names("User’s Guide") == []
    assert split_names("Reference Manual, Anna Berglund") == ["Anna Berglund"]
