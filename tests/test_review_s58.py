"""Three regressions a review of this stop's title-page and running-head rules found, each drawn
as a PDF of real text (``benchmarks.synthetic.canvas``) with made-up names:

- a heading that opens pages on the text's first line is no running head, but a page whose own
  first line is set off by a gap (a cover, a masthead, a head not found) says nothing about it:
  one such page had the real running heads of every other page read as text;
- affiliation lines are joined as text is (a word broken at the line's end is mended), but a
  numbered entry opens on a line of its own: "www.debian.org." over "²Department of …" was one
  glued entry and the second author had none;
- a note's "Email:" line, set apart in another size, goes on with the note above it, but a line
  of another kind under a note ("Typeset by REVTeX …") does not: it cost the author a place.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.document import Document
from paperpyramid.parsers.embedded import parse_pdf

_WORDS = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "zeta",
    "eta",
    "theta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "omicron",
    "pi",
    "rho",
    "sigma",
    "tau",
    "upsilon",
]
_HEADS = ["Introduction and Aims", "Methods of the Field Trial", "Results of the Trial", "Discussion of Yields", "Conclusions and Outlook"]
_BODY = "The patients were followed for two years, and the outcomes were compared between the groups of the cohort."


def _parse(tmp_path: Path, pages: list[Canvas]) -> Document:
    path = tmp_path / "paper.pdf"
    path.write_bytes(write_pdf(pages, "paper"))
    return parse_pdf(path)


def _sentence(line: int, page: int) -> str:
    return " ".join(_WORDS[(line * 7 + page * 3 + k) % len(_WORDS)] for k in range(14)).capitalize() + "."


def _running_heads_after_a_cover(masthead_y: float) -> list[Canvas]:
    cover = Canvas(612, 792)
    cover.text(72, 30, "This article was downloaded by: [University Library]", "Helvetica", 9)
    cover.text(72, 44, "On: 12 March 2015, At: 04:11", "Helvetica", 9)
    for i in range(20):
        cover.text(72, 80 + 14 * i, _sentence(i, 99), "Helvetica", 9)
    first = Canvas(612, 792)
    first.text(72, masthead_y, "Journal of Plant Studies, Vol. 12, No. 3, pp. 101-110", "Times-Roman", 9)
    first.text(72, 100, "Growth of Roots Under Drought", "Times-Bold", 16)
    first.text(72, 124, "Anna Berg and Carl Dahl", "Times-Roman", 11)
    for i in range(30):
        first.text(72, 160 + 12 * i, _sentence(i, 0), "Times-Roman", 10)
    pages = [cover, first]
    for number, head in enumerate(_HEADS, 1):
        page = Canvas(612, 792)
        page.text(72, 40, head, "Times-Italic", 9)
        page.text(530, 40, str(100 + number), "Times-Roman", 9)
        for i in range(50):
            page.text(72, 72 + 12 * i, _sentence(i, number), "Times-Roman", 10)
        pages.append(page)
    return pages


@pytest.mark.parametrize("masthead_y", [30.0, 38.0])
def test_running_heads_stay_out_after_a_cover_and_a_masthead(tmp_path: Path, masthead_y: float) -> None:
    document = _parse(tmp_path, _running_heads_after_a_cover(masthead_y))
    text = "\n".join(block.text for section in document.sections for block in section.blocks)
    assert "Field Trial" not in text and not [head for head in _HEADS if head in text]
    assert _sentence(3, 2) in text  # the body is read


def _byline_page(lines: list[tuple[str, str, float, float]]) -> Canvas:
    """Lines of text, ``^{…}`` raised marks, each (text, font, size, drop below the line before)."""
    canvas = Canvas(612, 792)
    y = 72.0
    for text, font, size, drop in lines:
        y += drop
        x = 72.0
        for piece in re.split(r"(\^\{[^}]*\})", text):
            if piece.startswith("^{"):
                x += canvas.text(x, y - size * 0.35, piece[2:-1], font, size * 0.65)
            elif piece:
                x += canvas.text(x, y, piece, font, size)
    for i in range(12):
        canvas.text(72, y + 40 + i * 12, _BODY, "Times-Roman", 10)
    return canvas


@pytest.mark.parametrize(
    "first", ["^{1}Debian Project, http://www.debian.org/", "^{1}Debian Project, www.debian.org.", "1 Debian Project, www.debian.org."]
)
def test_a_numbered_affiliation_after_a_link_is_an_entry_of_its_own(tmp_path: Path, first: str) -> None:
    second = ("^{2}" if first.startswith("^") else "2 ") + "Department of Statistics, University of Oslo, Norway"
    page = _byline_page(
        [
            ("A Study of Something Important in Networks", "Times-Bold", 16, 0),
            ("Anna Berg^{1} and Carl Dahl^{2}", "Times-Roman", 11, 28),
            (first, "Times-Roman", 9, 16),
            (second, "Times-Roman", 9, 11),
        ]
    )
    document = _parse(tmp_path, [page])
    places = {author.name: author.affiliation for author in document.authors}
    assert places["Carl Dahl"] == "Department of Statistics, University of Oslo, Norway"
    assert places["Anna Berg"] is not None and "Department" not in places["Anna Berg"]


def _noted_page(under: str | None) -> Canvas:
    canvas = Canvas(612, 792)
    canvas.text(150, 72, "Outcomes of a Treatment in a Cohort of Adults", "Times-Bold", 15)
    x = 230.0
    x += canvas.text(x, 100, "Ann Author", "Times-Roman", 11)
    x += canvas.text(x, 96, "†", "Times-Roman", 7)
    x += canvas.text(x, 100, " and Carl Dahl", "Times-Roman", 11)
    canvas.text(x, 96, "‡", "Times-Roman", 7)
    canvas.text(200, 116, "Department of Physics, Lund University, Lund, Sweden", "Times-Italic", 10)
    for i in range(30):
        canvas.text(72, 150 + 12 * i, _BODY, "Times-Roman", 10)
    canvas.text(72, 700, "‡ carl.dahl@lu.se", "Times-Roman", 8)
    canvas.text(72, 710, "† Also at Physics Department, XYZ University, Oslo, Norway.", "Times-Roman", 8)
    if under:
        canvas.text(72, 718, under, "Times-Roman", 6.5)
    return canvas


@pytest.mark.parametrize("under", ["Typeset by REVTeX 4.2 and published online in the journal", "anna.other@xyz.no"])
def test_only_a_contact_line_goes_on_with_a_note(tmp_path: Path, under: str) -> None:
    document = _parse(tmp_path, [_noted_page(under)])
    ann = next(author for author in document.authors if author.name == "Ann Author")
    assert ann.affiliation is not None and "XYZ University" in ann.affiliation
    assert ann.email == ("anna.other@xyz.no" if "@" in under else None)
