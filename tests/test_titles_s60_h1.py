"""Titles in the layouts medical and life-science journals print: a subtitle after a colon set
on lines of its own in a smaller display face (touching the line over it, wrapped over blocks,
under a title in capitals), a short head ending on a colon over a subtitle in smaller type
("Ocimum:" / "an overview …"), and a byline set in the title's own size right under it."""

from __future__ import annotations

from pathlib import Path

from benchmarks.synthetic.canvas import Canvas, write_pdf
from paperpyramid.parsers.embedded.parser import parse_pdf

_BODY = (
    "The clutches were counted along four transects every week, and the water level was read at each",
    "visit from a staff gauge fixed to the bank of the stream before the survey began. Each estimate is",
    "given with its interval, and the differences between the sites are discussed below with the methods.",
)


_ITALIC = {"Helvetica-Bold": "Helvetica-BoldOblique", "Times-Bold": "Times-BoldItalic", "Times-Roman": "Times-Italic"}


def _printed(title: list[tuple[str, str, float]]) -> str:
    return " ".join(text.replace("|", "").partition("^")[0] for text, _, _ in title)


def _page(
    tmp_path: Path,
    title: list[tuple[str, str, float]],
    byline_size: float = 11.0,
    names: tuple[str, ...] = ("Anna Berg", "Carl Dahl", "Marta Oliveira"),
    note: str = "",
    banner: str = "",
    byline_font: str = "Helvetica",
    leading: float = 1.2,
) -> Path:
    """A first page: the title's lines (text, font, size) from the top, each under the last at 1.2
    of its size, a byline with raised marks, an affiliation and the text."""
    canvas = Canvas(612, 792)
    canvas.text(72, 60, banner, "Helvetica-Bold", title[0][2] + 4)  # an article's type, larger than the title (Hindawi)
    y = 104.0
    main = title[0][2]
    for text, font, size in title:
        x = 72.0
        for n, part in enumerate(text.split("|")):  # a run between bars in the italic of the face
            face = _ITALIC[font] if n % 2 else font
            part, _, mark = part.partition("^")
            for word in part.split(" "):  # word by word, each space in its word's face
                x += canvas.text(x, y, word, face, size) if word else 0.0
                x += canvas.text(x, y, " ", face, size) if word != part.split(" ")[-1] else 0.0
            canvas.text(x, y - 0.4 * main, mark, font, 0.6 * main)  # a note's mark after "^", raised, in the title's main size
        y += leading * size
    y += 0.6 * byline_size
    x = 72.0
    for n, name in enumerate(names):
        x += canvas.text(x, y, ("and " if n == len(names) - 1 else "") + name, byline_font, byline_size)
        x += canvas.text(x, y - 0.35 * byline_size, f"{n + 1}{',' if n < len(names) - 2 else ''}", byline_font, 0.6 * byline_size) + 3
    y += 22
    canvas.text(72, y, "1 Department of Biology, University of Lund, Lund, Sweden", "Helvetica", 8)
    y += 28
    canvas.text(72, y, "Abstract", "Helvetica-Bold", 10)
    for n, line in enumerate(_BODY * 3):
        canvas.text(72, y + 14 + 12 * n, line, "Helvetica", 9.5)
    canvas.text(72, 740, note, "Helvetica", 7.5)
    path = tmp_path / "page.pdf"
    path.write_bytes(write_pdf([canvas], ""))
    return path


def test_a_subtitle_whose_raised_mark_touches_the_title(tmp_path: Path) -> None:
    title = [
        ("Effects of sequence variations in innate immune", "Helvetica-Bold", 18),
        ("response genes on infectious outcome in trauma", "Helvetica-Bold", 18),
        ("patients:", "Helvetica-Bold", 18),
        ("a comprehensive review of the cohorts^*", "Helvetica-Bold", 14.4),
    ]
    path = _page(tmp_path, title, leading=1.15)  # set tight: the box of the subtitle's raised mark reaches the colon's line
    document = parse_pdf(path)
    assert document.title == _printed(title) + "*"  # a star glued to the word stays; the score folds it
    assert [author.name for author in document.authors] == ["Anna Berg", "Carl Dahl", "Marta Oliveira"]


def test_a_subtitle_under_a_line_that_goes_on_with_a_connective(tmp_path: Path) -> None:
    title = [
        ("Association between socioeconomic status", "Helvetica-Bold", 16),
        ("and chronic obstructive pulmonary disease", "Helvetica-Bold", 16),
        ("in the |Jiangsu Province|, China:", "Helvetica-Bold", 15),  # read apart, in type a point smaller
        ("a population-based study", "Helvetica-Bold", 12.8),
    ]
    path = _page(tmp_path, title)
    document = parse_pdf(path)
    assert document.title == _printed(title)
    assert [author.name for author in document.authors] == ["Anna Berg", "Carl Dahl", "Marta Oliveira"]


def test_a_subtitle_in_capitals_under_a_title_in_capitals(tmp_path: Path) -> None:
    title = [
        ("CONDUCTING QUANTITATIVE SYNTHESIS WHEN", "Times-Roman", 14),
        ("COMPARING MEDICAL INTERVENTIONS:", "Times-Roman", 14),
        ("AHRQ AND THE EFFECTIVE HEALTH CARE PROGRAM", "Times-Roman", 12),
    ]
    assert parse_pdf(_page(tmp_path, title)).title == _printed(title)


def test_a_short_head_on_a_colon_over_its_subtitle(tmp_path: Path) -> None:
    title = [("Ocimum:", "Times-Bold", 18), ("an overview of classification and relationships", "Times-Bold", 14.4)]
    assert parse_pdf(_page(tmp_path, title)).title == "Ocimum: an overview of classification and relationships"


def test_a_long_subtitle_under_a_short_title_of_two_words(tmp_path: Path) -> None:
    title = [
        ("Part I:", "Helvetica-Bold", 21),
        ("Footprint contact characteristics for", "Helvetica-Bold", 16.8),
        ("a transosseous-equivalent rotator", "Helvetica-Bold", 16.8),
        ("cuff repair technique compared with", "Helvetica-Bold", 16.8),
        ("a double-row repair technique", "Helvetica-Bold", 16.8),
    ]
    assert parse_pdf(_page(tmp_path, title)).title == _printed(title)


def test_a_byline_in_the_title_size_is_not_the_title(tmp_path: Path) -> None:
    title = [
        ("Pathology and prognosis of gastric carcinoma:", "Times-Bold", 14),
        ("well versus poorly differentiated type", "Times-Bold", 14),
    ]
    document = parse_pdf(_page(tmp_path, title, byline_size=14))
    assert document.title == "Pathology and prognosis of gastric carcinoma: well versus poorly differentiated type"
    assert [author.name for author in document.authors] == ["Anna Berg", "Carl Dahl", "Marta Oliveira"]


def test_a_byline_of_two_names_in_the_title_size_read_apart_along_its_row(tmp_path: Path) -> None:
    title = [("Clinical assessment of hyperlipidemic pancreatitis", "Times-Roman", 16)]
    document = parse_pdf(_page(tmp_path, title, byline_size=16, names=("Marta Oliveira", "Lucas Moreau"), byline_font="Times-Roman"))
    assert document.title == "Clinical assessment of hyperlipidemic pancreatitis"


def test_a_note_number_after_a_closing_bracket_is_no_part_of_the_title(tmp_path: Path) -> None:
    title = [
        ("Development of a core set of single-locus SSR markers for", "Helvetica-Bold", 14),
        ("allotetraploid rapeseed (|Brassica napus| L.)^1", "Helvetica-Bold", 14),
    ]
    path = _page(tmp_path, title, note="1This article is part of a special issue on field methods.")
    assert parse_pdf(path).title == _printed(title)
