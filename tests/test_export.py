"""``paperpyramid export``: articles written out as markdown (whole, or one file per PDF page) and
as JSON, on a PDF made in the test and on the bundled sample papers; and distillation's pages,
which come from the same renderer."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from paperpyramid.cli import app
from paperpyramid.corpus import Corpus
from paperpyramid.db import CorpusWriter
from paperpyramid.db.markdown_pages import render_article, render_pages
from paperpyramid.distill.page_texts import article_pages
from paperpyramid.document import Block, Document, Figure, Formula, Section
from paperpyramid.export import export_articles
from paperpyramid.ingestion.pipeline import ingest
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import SAMPLE
from tests.pdf_maker import placed_pdf

TITLE = "Nesting of the Kestrel on Limestone Ridges"
TABLE = ["| Ridge | Nests | Fledglings |", "|---|---|---|", "| North | 12 | 31 |", "| South | 7 | 15 |", "| East | 9 | 22 |"]
REFERENCES = ["Village A. The Kestrel. London: Poyser; 1990.", "Newton I. Population limitation in birds. London: Academic Press; 1998."]


def _lines(items: list[tuple[str, float]], y: float = 740.0) -> tuple[list[tuple[float, float, float, str]], float]:
    placed = []
    for text, size in items:
        placed.append((72.0, y, size, text))
        y -= size * 1.8
    return placed, y


def _kestrel_pdf() -> bytes:
    """Four pages: the title, authors, abstract and introduction; a page holding only the heading
    "2 Methods"; its subsection with Table 1; the results and the reference list."""
    first, _ = _lines([(TITLE, 20), ("Ada Lovelace, Charles Babbage", 11), ("Abstract", 13),
                       ("We counted kestrel nests on four limestone ridges over two breeding seasons.", 10), ("1 Introduction", 13),
                       ("Kestrels nest on ledges of limestone cliffs across the northern valley.", 10),
                       ("The ridges differ in height, exposure and distance from farmland.", 10)])  # fmt: skip
    second, _ = _lines([("2 Methods", 13)])
    third, y = _lines([("2.1 Nest counts", 12), ("Observers walked each ridge once a week from April to July.", 10),
                       ("Table 1. Nests counted per ridge", 10)])  # fmt: skip
    for row in [("Ridge", "Nests", "Fledglings"), ("North", "12", "31"), ("South", "7", "15"), ("East", "9", "22")]:
        y -= 16
        third += [(72.0 + 100 * column, y, 10.0, cell) for column, cell in enumerate(row)]
    fourth, _ = _lines([("3 Results", 13), ("The north ridge held the most nests and the most fledglings.", 10), ("References", 13),
                        *((f"{number}. {reference}", 10) for number, reference in enumerate(REFERENCES, 1))])  # fmt: skip
    return placed_pdf([first, second, third, fourth])


@pytest.fixture(scope="module")
def kestrel(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("kestrel")
    (folder / "pdfs").mkdir()
    (folder / "pdfs" / "kestrel.pdf").write_bytes(_kestrel_pdf())
    db = folder / "corpus.sqlite"
    assert ingest([folder / "pdfs"], db, Settings(ingest=IngestSettings(workers=0, embed=False))).count("done") == 1
    with Corpus.open(db) as corpus:
        return db, next(corpus.articles()).id


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("sample") / "corpus.sqlite"
    assert ingest([SAMPLE], db, Settings(ingest=IngestSettings(workers=0, embed=False))).count("done") == 3
    return db


def _export(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["export", *args], terminal_width=200)
    return result.exit_code, result.output


def test_markdown_holds_the_title_authors_headings_table_and_references_in_reading_order(kestrel: tuple[Path, str], tmp_path: Path) -> None:
    db, article_id = kestrel
    out = tmp_path / "new" / "folder"  # created
    code, output = _export("--db", str(db), "--out", str(out))
    assert code == 0, output
    assert "1 article exported as markdown" in output
    markdown = (out / f"{article_id}.md").read_text()
    assert markdown.startswith(f"# {TITLE}\n\nAda Lovelace, Charles Babbage\n\n")
    headings = [line for line in markdown.splitlines() if line.startswith("#")]
    assert headings == [
        f"# {TITLE}",
        "## Abstract",
        "## 1 Introduction",
        "## 2 Methods",
        "### 2.1 Nest counts",
        "## 3 Results",
        "## References",
    ]
    assert "Table 1. Nests counted per ridge\n\n" + "\n".join(TABLE) in markdown
    assert markdown.index("Observers walked each ridge") < markdown.index("| North | 12 | 31 |") < markdown.index("The north ridge held")
    assert markdown.endswith("## References\n\n" + "\n\n".join(f"- {reference}" for reference in REFERENCES) + "\n")


def test_by_page_writes_each_pdf_page_with_its_own_text(kestrel: tuple[Path, str], tmp_path: Path) -> None:
    db, article_id = kestrel
    code, output = _export("--db", str(db), "--out", str(tmp_path), "--by-page", "--article", article_id)
    assert code == 0, output
    folder = tmp_path / article_id
    assert sorted(path.name for path in folder.iterdir()) == ["page-1.md", "page-2.md", "page-3.md", "page-4.md"]
    first, second, third, fourth = [(folder / f"page-{number}.md").read_text() for number in range(1, 5)]
    assert first.startswith(f"# {TITLE}\n\nAda Lovelace, Charles Babbage\n\n") and "Kestrels nest on ledges" in first
    assert second == "## 2 Methods\n", "a page holding only a heading shows it"
    assert third.startswith("### 2.1 Nest counts\n\nObservers walked") and "\n".join(TABLE) in third
    assert "Kestrels nest" not in third and TITLE not in third and "| North |" not in first + second + fourth
    assert fourth.startswith("## 3 Results\n\nThe north ridge") and all(f"- {reference}" in fourth for reference in REFERENCES)


def test_json_has_the_section_tree_contexts_with_pages_tables_and_references(kestrel: tuple[Path, str], tmp_path: Path) -> None:
    db, article_id = kestrel
    code, output = _export("--db", str(db), "--out", str(tmp_path), "--format", "json")
    assert code == 0, output
    article = json.loads((tmp_path / f"{article_id}.json").read_text())
    assert article["id"] == article_id and article["title"] == TITLE
    assert [author["name"] for author in article["authors"]] == ["Ada Lovelace", "Charles Babbage"]
    top = {section["title"]: section for section in article["sections"]}
    assert [title for title in top if title] == ["Abstract", "Introduction", "Methods", "Results", "References"]
    assert [child["title"] for child in top["Methods"]["children"]] == ["Nest counts"] and top["Methods"]["contexts"] == []

    def contexts(sections: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [context for section in sections for context in [*section["contexts"], *contexts(section["children"])]]

    found = contexts(article["sections"])
    assert found and all(isinstance(context["page"], int) for context in found)

    def page_of(start: str) -> int:
        return next(int(context["page"]) for context in found if context["text"].startswith(start))

    assert (page_of("Kestrels nest on ledges"), page_of("Observers walked"), page_of("The north ridge")) == (1, 3, 4)
    [table] = article["tables"]
    assert table["label"] == "1" and table["page"] == 3 and table["rows"][:2] == [["Ridge", "Nests", "Fledglings"], ["North", "12", "31"]]
    assert [reference["raw"] for reference in article["references"]] == REFERENCES


def test_an_unknown_article_or_a_wrong_option_is_one_line_and_writes_nothing(kestrel: tuple[Path, str], tmp_path: Path) -> None:
    db, article_id = kestrel
    out = tmp_path / "out"
    code, output = _export("--db", str(db), "--out", str(out), "--article", article_id, "--article", "no-such-id")
    assert code == 2 and output.strip() == "error: no article with id or DOI 'no-such-id'"
    assert not out.exists()
    code, output = _export("--db", str(db), "--out", str(out), "--format", "json", "--by-page")
    assert code == 2 and len(output.strip().splitlines()) == 1 and "markdown" in output
    code, output = _export("--db", str(db), "--out", str(out), "--format", "html")
    assert code == 2 and "'html'" in output and "markdown" in output and "json" in output


def test_the_checks_hold_when_no_article_is_chosen(kestrel: tuple[Path, str], tmp_path: Path) -> None:
    """Corpus.export (which the CLI calls) with an empty choice writes nothing, yet still refuses
    a wrong option or a file in the folder's place, as it does with articles to write."""
    db, _ = kestrel
    with Corpus.open(db) as corpus:
        report = corpus.export(tmp_path / "none", articles=[])
        assert report.articles == () and report.files == () and list((tmp_path / "none").iterdir()) == []
        with pytest.raises(ValueError, match="markdown"):
            corpus.export(tmp_path / "json-pages", format="json", by_page=True, articles=[])
        (tmp_path / "a-file").write_text("")
        with pytest.raises(NotADirectoryError, match="is a file"):
            corpus.export(tmp_path / "a-file", articles=[])
    assert not (tmp_path / "json-pages").exists()


def test_sample_papers_export_every_heading_each_table_once_and_the_reference_list(sample: Path, tmp_path: Path) -> None:
    with Corpus.open(sample) as corpus:
        written = export_articles(corpus, tmp_path, article_ids=["10.1371/journal.pone.0115884"])
        frog = corpus.article("10.1371/journal.pone.0115884")
        assert written == [tmp_path / f"{frog.id}.md"]
        markdown = written[0].read_text()
        headings = [line for line in markdown.splitlines() if line.startswith("#")]
        outline = [f"{'#' * (section.level + 1)} {section.title}" for section in corpus.sections(frog.id) if section.title]
        assert headings == [f"# {frog.title}", *outline], "every heading, a section that holds only subsections ('Results') too"
        assert "## Results\n\n### Taxonomy" in markdown
        references = markdown.split("\n## References\n\n")[1]
        assert references.count("\n- ") + 1 == len(corpus.references(frog.id)) == 25
        for article in corpus.articles():
            whole = render_article(corpus.conn, article.id)
            for table in corpus.tables(article.id):
                # a table stored in several contexts (each opening with its caption and header) reads as one
                header, _, *rows = (table.markdown or "").split("\n")
                assert whole.count(f"\n{table.caption}\n") == 1 and whole.count(header) == 1 and all(row in whole for row in rows), (
                    table.caption
                )


def test_distillation_reads_the_export_pages_less_title_block_and_references(sample: Path, tmp_path: Path) -> None:
    with Corpus.open(sample) as corpus:
        export_articles(corpus, tmp_path, by_page=True)
        for article in corpus.articles():
            references = {
                context.id for section in corpus.sections(article.id) if section.number == "ref" for context in corpus.contexts(section.id)
            }
            exported = {page.number: page for page in render_pages(corpus.conn, article.id)}
            distilled = article_pages(corpus.conn, article.id)
            assert distilled and sorted(path.name for path in (tmp_path / article.id).iterdir()) == sorted(
                f"page-{n}.md" for n in range(1, (article.pages or 0) + 1)
            )
            for page in distilled:
                file = (tmp_path / article.id / f"page-{page.number}.md").read_text()
                assert file == exported[page.number].markdown + "\n"
                assert page.contexts == [context for context in exported[page.number].contexts if context.context_id not in references]
                # the same text, each block marked by its kind (a table cut into parts joined: its rows, one header)
                assert all(line in file for context in page.contexts for line in context.text.split("\n"))
                assert TITLE not in page.markdown and not any(context.context_id in references for context in page.contexts)
            assert any(context.context_id in references for page in exported.values() for context in page.contexts)
            assert f"# {article.title}" in exported[1].markdown and f"# {article.title}" not in distilled[0].markdown


def test_formulas_and_captions_inside_a_context_are_marked_in_the_export_and_kept_as_before_for_distillation(tmp_path: Path) -> None:
    text = "The growth of the colony follows a line."
    formula = "n = a t + b (1)"
    caption = "Figure 1. Colony size by year."
    doc = Document(title="Colony growth", pages=1, sections=[Section(title="Model", number="1", page_start=1, page_end=1, blocks=[
        Block(text, 1), Block(formula, 1, "formula"), Block(caption, 1, "caption"), Block("A second formula follows.", 1),
        Block("m = 2 n", 1, "formula")])], formulas=[Formula(formula, 1, label="1", section=0), Formula("m = 2 n", 1, label="2", section=0)],
        figures=[Figure(caption, 1, label="1", section=0)], provenance={"sections": "test"})  # fmt: skip
    with CorpusWriter(tmp_path / "c.sqlite") as writer:
        article_id = writer.add_document(doc, source_uri="file:///colony.pdf", sha256=hashlib.sha256(b"colony").hexdigest())
    with Corpus.open(tmp_path / "c.sqlite") as corpus:
        [context] = [context for section in corpus.sections(article_id) for context in corpus.contexts(section.id)]
        assert context.kind == "paragraph", "the blocks share one context"
        exported = render_article(corpus.conn, article_id)
        assert f"{text}\n\n$$ n = a t + b $$ (1)\n\n*{caption}*\n\nA second formula follows.\n\n$$ m = 2 n $$ (2)\n" in exported
        # distillation's pages are as they were: the context's text as stored, marked by its first block's kind
        assert article_pages(corpus.conn, article_id)[0].markdown == f"## 1 Model\n\n{context.text}"
