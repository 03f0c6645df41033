"""Title pages a review found read worse by the rules taken from unseen batch 17, each drawn with
made-up names: a grid of authors over their cities is no drawing, a word as a dictionary writes
it over the title is no program's name, names set in the title's face under a line in another
face are no title, a German book's edition is no journal, a line with an e-mail is no title."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, text_width, write_pdf
from paperpyramid.parsers.embedded import parse_pdf
from paperpyramid.parsers.embedded.front_matter import plausible_title
from paperpyramid.parsers.embedded.journal import _citation_line

_BODY = (
    "The macros place each symbol of the drawing on a grid, and the program computes the positions of",
    "the generations from the spreadsheet before the drawing is typeset. Each node is given with its",
    "relations, and the differences between the layouts are discussed below with the algorithm itself.",
)


def _centred(canvas: Canvas, y: float, text: str, font: str, size: float, middle: float = 306) -> None:
    canvas.text(middle - text_width(text, font, size) / 2, y, text, font, size)


def _abstract(canvas: Canvas, y: float) -> None:
    _centred(canvas, y, "Abstract", "Times-Bold", 10)
    for i, line in enumerate((_BODY * 3)[:8]):
        canvas.text(72, y + 16 + 12 * i, line, "Times-Roman", 10)


def _parse(tmp_path: Path, canvas: Canvas):  # noqa: ANN202
    text = Canvas(612, 792)
    for i, line in enumerate((_BODY * 14)[:40]):
        text.text(72, 72 + 12 * i, line, "Times-Roman", 10)
    path = tmp_path / "page.pdf"
    path.write_bytes(write_pdf([canvas, text], ""))
    return parse_pdf(path)


def test_a_grid_of_authors_over_their_cities_is_read_whole(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    _centred(canvas, 110, "Seasonal Variation of Soil Respiration in Boreal Forests", "Times-Bold", 16)
    people = [
        ("Anna Berg", "Lund"),
        ("Carl Dahl", "Umeå"),
        ("Eva Fox", "Oslo"),
        ("Ola Nord", "Turku"),
        ("Per Lind", "Bergen"),
        ("Ida Holm", "Aarhus"),
    ]
    for k, (name, city) in enumerate(people):
        middle, y = 156 + (k % 3) * 150, 140 + (k // 3) * 30
        _centred(canvas, y, name, "Times-Roman", 11, middle)
        _centred(canvas, y + 12, city, "Times-Italic", 9, middle)
    _abstract(canvas, 230)
    # the six cities read as a drawing's labels, and the second row's names inside it were dropped
    assert [author.name for author in _parse(tmp_path, canvas).authors] == [name for name, _ in people]


def test_an_articles_type_in_the_largest_type_over_the_title_is_no_title(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    _centred(canvas, 110, "Commentary", "Times-Roman", 24)
    _centred(canvas, 140, "Why Most Published Research Findings", "Times-Roman", 16)
    _centred(canvas, 160, "Are False", "Times-Roman", 16)
    _centred(canvas, 194, "Anna Berg and Carl Dahl", "Times-Roman", 12)
    _abstract(canvas, 234)
    document = _parse(tmp_path, canvas)
    assert document.title == "Why Most Published Research Findings Are False"
    assert [author.name for author in document.authors] == ["Anna Berg", "Carl Dahl"]


def test_names_in_the_titles_face_under_a_translated_title_are_the_byline(tmp_path: Path) -> None:
    canvas = Canvas(612, 792)
    _centred(canvas, 110, "Die Verbreitung der Wildkatze in Hessen", "Times-Bold", 16)
    _centred(canvas, 130, "On the distribution of the wildcat in Hesse", "Times-Italic", 14)
    _centred(canvas, 150, "Anna Berg, Carl Dahl", "Times-Bold", 16)
    _abstract(canvas, 210)
    document = _parse(tmp_path, canvas)
    assert document.title == "Die Verbreitung der Wildkatze in Hessen"
    assert [author.name for author in document.authors] == ["Anna Berg", "Carl Dahl"]


def test_a_german_books_edition_and_pages_are_no_journal() -> None:
    assert _citation_line("Aufl. Wuppertal 2012, S. 38-42.", first_page=True, metadata=False) is None
    assert _citation_line("Die TeXnische Komödie 3/2014, S. 19-46.", first_page=True, metadata=False) is not None


def test_a_line_with_an_e_mail_address_is_no_title() -> None:
    assert not plausible_title("Version 1.3.0 hood@mit.edu 2022/2/20")
    assert plausible_title("Spectral Sequences in Algebraic Topology")
