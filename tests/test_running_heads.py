"""Running heads, feet and page numbers stay out of the text: out of every context, out of the
table the engine reads under a head, out of ``export`` (markdown, by page and JSON); the head is
read for the journal and year first. The PDF is made here: five pages, each with the journal's
citation line on top, a download notice and "Page N of 5" at the foot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperpyramid.corpus import Corpus
from paperpyramid.ingestion.pipeline import ingest
from paperpyramid.settings import IngestSettings, Settings
from tests.pdf_maker import placed_pdf

HEAD = "J Test Res 2021;12:345-356"
AUTHORS_HEAD = "Okafor and Lindqvist"
FOOT = "Downloaded from https://journals.example.org by guest on 3 March 2024"
PAGES = 5
SENTENCES = [
    "Frogs of the genus Limnonectes lay their eggs in streams that dry out during the hot season.",
    "We counted the clutches along four transects every week from March to October of one year.",
    "The number of clutches rose with the rainfall of the week before and fell in the dry months.",
    "Tadpoles hatched after nine days on average and left the water after seven weeks of growth.",
    "Females guarded the clutches at night and left them alone when the water temperature rose.",
]


def _page(number: int) -> list[tuple[float, float, float, str]]:
    items: list[tuple[float, float, float, str]] = [
        (72, 760, 8, HEAD if number % 2 else AUTHORS_HEAD),
        (470, 760, 8, str(345 + number - 1)),
        (72, 40, 7, FOOT),
        (280, 24, 8, f"Page {number} of {PAGES}"),
    ]
    y = 700.0
    if number == 1:
        items += [(72, y, 16, "Clutch guarding in a stream frog"), (72, y - 24, 10, "Ama Okafor, Erik Lindqvist")]
        y -= 60
    if number == 3:  # a table right under the head: the engine reads the page apart, head included
        items += [(72, y, 9, "Table 1 Clutches counted per transect")]
        for row, cells in enumerate(
            [("Transect", "March", "June", "September"), ("A", "12", "31", "4"), ("B", "9", "27", "6"), ("C", "15", "40", "2")]
        ):
            items += [(72 + 110 * column, y - 16 - 13 * row, 9, cell) for column, cell in enumerate(cells)]
        y -= 100
    heading = {1: "1 Introduction", 2: "2 Methods", 3: "3 Results", 4: "4 Discussion", 5: "5 Conclusion"}[number]
    items.append((72, y, 12, heading))
    y -= 20
    for sentence in SENTENCES * 4:
        items.append((72, y, 10, sentence))
        y -= 13
    return items


@pytest.fixture(scope="module")
def corpus_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("heads")
    (folder / "pdfs").mkdir()
    (folder / "pdfs" / "heads.pdf").write_bytes(placed_pdf([_page(number) for number in range(1, PAGES + 1)]))
    db = folder / "corpus.sqlite"
    summary = ingest([folder / "pdfs"], db, Settings(ingest=IngestSettings(workers=0, embed=False)))
    assert summary.count("done") == 1, summary.results
    return db


def _furniture_in(text: str) -> list[str]:
    found = [piece for piece in (HEAD, "J Test Res 2021", AUTHORS_HEAD, "Downloaded from", "journals.example.org") if piece in text]
    found += [f"Page {n} of {PAGES}" for n in range(1, PAGES + 1) if f"Page {n} of {PAGES}" in text]
    return found


def test_heads_feet_and_page_numbers_are_in_no_context(corpus_path: Path) -> None:
    with Corpus.open(corpus_path) as corpus:
        (article,) = corpus.articles()
        contexts = [context.text for section in corpus.sections(article.id) for context in corpus.contexts(section.id)]
        tables = corpus.tables(article.id)
    assert contexts and sum("Tadpoles hatched after nine days" in text for text in contexts) >= 5
    assert not [text[:80] for text in contexts if _furniture_in(text)]
    assert not [text for text in contexts if any(line.strip() in {"345", "346", "347", "348", "349"} for line in text.splitlines())]
    (table,) = tables
    assert table.cells[0][:2] == ["Transect", "March"] and not _furniture_in(json.dumps(table.cells))


def test_the_head_is_read_for_the_journal_and_year_first(corpus_path: Path) -> None:
    with Corpus.open(corpus_path) as corpus:
        (article,) = corpus.articles()
    assert article.journal == "J Test Res"
    assert (article.date_published or "").startswith("2021")


@pytest.mark.parametrize(("format", "by_page"), [("markdown", False), ("markdown", True), ("json", False)])
def test_export_holds_no_furniture(corpus_path: Path, tmp_path: Path, format: str, by_page: bool) -> None:
    with Corpus.open(corpus_path) as corpus:
        corpus.export(tmp_path / "out", format=format, by_page=by_page)  # type: ignore[arg-type]
    written = [path.read_text(encoding="utf-8") for path in sorted((tmp_path / "out").rglob("*")) if path.is_file()]
    assert written and any("Clutch guarding in a stream frog" in text for text in written)
    assert not [found for text in written for found in _furniture_in(text)]


def test_the_table_engine_leaves_out_a_head_its_region_reaches() -> None:
    """The engine reads a table's page apart, cut around its numbers ("J Test Res 2021;" "12:345-356"):
    each piece in the top or bottom band that belongs to a running head, or is a page number, goes."""
    from paperpyramid.parsers.embedded.layout import Line
    from paperpyramid.parsers.embedded.reading_order import line_key, page_furniture

    def line(text: str, top: float) -> Line:
        return Line(text=text, page=3, x0=72, top=top, x1=300, bottom=top + 8, size=8, bold=False, italic=False, font="Helvetica")

    heads = {line_key(HEAD), line_key(FOOT)}
    lines = [line("J Test Res 2021;", 24), line("12:345-356", 24), line("347", 24), line("Transect", 99), line("Page 3 of 5", 760),
             line("12", 300), line("J Test Res 2021;", 400)]  # fmt: skip
    dropped = page_furniture(lines, 792, heads)
    assert [item.text for item in dropped] == ["J Test Res 2021;", "12:345-356", "347", "Page 3 of 5"]
