"""What an article holds besides its text, through the public API, on the real sample papers
(parsed by the embedded parser): references in printed order, tables as cells and as Markdown,
formulas, figure captions, and the section tree; each type exported from the package, the parts
the same classes the parsers build."""

from __future__ import annotations

from pathlib import Path

import pytest

import paperpyramid
from paperpyramid import Corpus, Figure, Reference, SectionNode, Table
from paperpyramid.ingestion import ingest
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import SAMPLE

FROG_DOI = "10.1371/journal.pone.0115884"


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("parts") / "corpus.sqlite"
    assert ingest([SAMPLE], db, Settings(ingest=IngestSettings(workers=0, embed=False))).count("done") == 3
    return db


def _walk(nodes: tuple[SectionNode, ...] | list[SectionNode]) -> list[SectionNode]:
    return [item for node in nodes for item in (node, *_walk(node.children))]


@pytest.mark.slow
def test_references_tables_figures_of_a_real_paper(sample: Path) -> None:
    with Corpus.open(sample) as corpus:
        frog = corpus.article(FROG_DOI)
        references = corpus.references(frog.id)
        assert len(references) > 20 and all(isinstance(reference, Reference) for reference in references)
        assert [reference.position for reference in references] == list(range(len(references)))
        stored = [row[0] for row in corpus.conn.execute("SELECT raw FROM bib_entries WHERE article_id = ? ORDER BY position", [frog.id])]
        assert [reference.raw for reference in references] == stored
        assert sum(reference.year is not None for reference in references) > len(references) // 2
        assert all(isinstance(author, str) for reference in references for author in reference.authors)

        tables = corpus.tables(frog.id)
        assert tables and all(isinstance(table, Table) for table in tables)
        first = tables[0]
        assert first.label == "1" and (first.caption or "").startswith("Table 1") and first.page
        assert len(first.cells) > 2 and all(isinstance(cell, str) for row in first.cells for cell in row)
        assert first.markdown.startswith("|") and first.cells[0][0] in first.markdown

        figures = corpus.figures(frog.id)
        assert figures and all(isinstance(figure, Figure) and (figure.caption or "").lower().startswith("fig") for figure in figures)
        assert [figure.page for figure in figures] == sorted(figure.page for figure in figures)
        for article in corpus.articles():
            assert all(formula.text for formula in corpus.formulas(article.id))
        with pytest.raises(KeyError):
            corpus.tables("no-such-article")


def test_the_section_tree_holds_every_section_under_its_parent(sample: Path) -> None:
    with Corpus.open(sample) as corpus:
        for article in corpus.articles():
            sections = corpus.sections(article.id)
            tree = corpus.section_tree(article.id)
            flat = _walk(tree)
            assert [node.id for node in flat] == [section.id for section in sections]  # depth first = reading order
            parent = {child.id: node.id for node in flat for child in node.children}
            assert parent == {section.id: section.parent_id for section in sections if section.parent_id is not None}
        nested = [node for article in corpus.articles() for node in corpus.section_tree(article.id) if node.children]
        assert nested, "the sample has subsections (BMC's Methods > Setting)"


def test_the_row_types_are_exported_and_documented() -> None:
    for name in (
        "Article",
        "SectionRow",
        "ContextRow",
        "IngestLogRow",
        "Reference",
        "Table",
        "Formula",
        "Figure",
        "SectionNode",
        "SearchHit",
        "Filters",
    ):
        kind = getattr(paperpyramid, name)
        assert name in paperpyramid.__all__ and kind.__doc__ and len(kind.__doc__) > 40, name
