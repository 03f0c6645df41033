"""A reference distillation (tests/data/distill, CC BY 4.0, see NOTICE) loaded into a corpus of
its paper, and searched: levels with drill-down to page-cited contexts, the cross-layer mode,
the metric's drill-down rule, export and import round trip."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from paperpyramid.cli import app
from paperpyramid.corpus import Corpus
from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.db import vectors as db_vectors
from paperpyramid.distill.exchange import UnmatchedDistillation, export_distillation, import_distillations, pyramid_from_file
from paperpyramid.embeddings.minilm import MiniLM
from paperpyramid.eval.retrieval import Question, score_question
from paperpyramid.ingestion.pipeline import ingest
from paperpyramid.retrieval import SearchHit
from paperpyramid.retrieval.filters import Filters
from paperpyramid.settings import IngestSettings, Settings
from paperpyramid.tokens import TokenCounter
from tests.conftest import DATA, SAMPLE

FROG = "plos-one-2014-fanged-frog-internal-fertilization"
WHEAT = "mdpi-metabolites-2014-durum-wheat-volatiles"
DISTILLATION = DATA / "distill" / f"{FROG}.json"


@pytest.fixture(scope="module")
def minilm() -> MiniLM:
    return MiniLM()


@pytest.fixture(scope="module")
def frog_corpus(tmp_path_factory: pytest.TempPathFactory, minilm: MiniLM) -> Path:
    """The frog paper ingested with vectors, and its reference distillation imported."""
    folder = tmp_path_factory.mktemp("frog")
    (folder / "pdfs").mkdir()
    shutil.copy(SAMPLE / f"{FROG}.pdf", folder / "pdfs")
    db = folder / "frog.sqlite"
    assert ingest([folder / "pdfs"], db, Settings(ingest=IngestSettings(workers=0, embed=True))).count("done") == 1
    results = import_distillations(db, [DISTILLATION], embedder=minilm)
    assert [error for _, _, error in results] == [None]
    return db


def rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    conn = db_sqlite.connect(db, read_only=True)
    try:
        return [tuple(row) for row in conn.execute(sql)]
    finally:
        conn.close()


@pytest.mark.slow
def test_import_stores_every_level_linked_and_embedded(frog_corpus: Path) -> None:
    reference = json.loads(DISTILLATION.read_text())
    assert rows(frog_corpus, "SELECT count(*) FROM insights") == [(len(reference["insights"]),)]
    assert rows(frog_corpus, "SELECT count(*) FROM concepts") == [(len(reference["concepts"]),)]
    assert rows(frog_corpus, "SELECT text FROM abstracts") == [(reference["abstract"],)]
    ((model, version, status),) = rows(frog_corpus, "SELECT model, prompt_version, status FROM distillations")
    assert str(model).startswith("import:") and (version, status) == ("imported", "done")
    linked = rows(frog_corpus, "SELECT count(DISTINCT insight_id) FROM insights_contexts")[0][0]
    assert isinstance(linked, int) and linked >= 0.95 * len(reference["insights"])
    # a link points at a context on one of the insight's pages, or next to them
    far = rows(
        frog_corpus,
        """
        SELECT count(*) FROM insights_contexts AS ic JOIN insights AS i ON i.id = ic.insight_id JOIN contexts AS c ON c.id = ic.context_id
        WHERE NOT EXISTS (SELECT 1 FROM json_each(i.pages) AS p WHERE abs(p.value - c.page_number) <= 1)""",
    )
    assert far == [(0,)]
    conn = db_sqlite.connect(frog_corpus, read_only=True)
    try:
        row = db_vectors.find_embedder(conn, "all-MiniLM-L6-v2")
        assert row is not None
        counts = {
            level: conn.execute(f"SELECT count(*) FROM {db_vectors.level_table(row, level)}").fetchone()[0]
            for level in ("insights", "concepts", "abstracts")
        }
    finally:
        conn.close()
    assert counts == {"insights": len(reference["insights"]), "concepts": len(reference["concepts"]), "abstracts": 1}


@pytest.mark.slow
def test_importing_again_replaces_rather_than_doubles(frog_corpus: Path, tmp_path: Path, minilm: MiniLM) -> None:
    db = tmp_path / "again.sqlite"
    shutil.copy(frog_corpus, db)
    before = rows(
        db, "SELECT (SELECT count(*) FROM insights), (SELECT count(*) FROM insights_contexts), (SELECT count(*) FROM concepts_insights)"
    )
    assert import_distillations(db, [DISTILLATION], embedder=minilm)[0][2] is None
    assert (
        rows(
            db, "SELECT (SELECT count(*) FROM insights), (SELECT count(*) FROM insights_contexts), (SELECT count(*) FROM concepts_insights)"
        )
        == before
    )
    assert rows(db, "SELECT count(*) FROM insights_fts") == [(before[0][0],)]


def test_unmatched_or_broken_file_is_refused_with_its_reason(frog_corpus: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text(
        json.dumps({"pdf": "no-such-paper.pdf", "insights": [{"id": 1, "text": "A sentence about nothing at all.", "pages": [1]}]})
    )
    broken = tmp_path / "broken.json"
    broken.write_text('{"pdf": "x.pdf", "insights": [')
    results = import_distillations(frog_corpus, [other, broken])
    assert [article for _, article, _ in results] == [None, None]
    assert "no article matches" in str(results[0][2]) and "not a distillation file" in str(results[1][2])
    conn = db_sqlite.connect(frog_corpus, read_only=True)
    try:
        with pytest.raises(UnmatchedDistillation):
            pyramid_from_file(conn, other, counter=TokenCounter())
    finally:
        conn.close()


def test_export_then_import_round_trip(frog_corpus: Path) -> None:
    conn = db_sqlite.connect(frog_corpus, read_only=True)
    try:
        article_id = conn.execute("SELECT id FROM articles").fetchone()[0]
        exported = export_distillation(conn, article_id)
    finally:
        conn.close()
    reference = json.loads(DISTILLATION.read_text())
    assert exported["pdf"] == f"{FROG}.pdf" and exported["abstract"] == reference["abstract"]
    assert [(item["text"], item["pages"], item["section"]) for item in exported["insights"]] == [
        (" ".join(item["text"].split()), sorted(set(item["pages"])), item["section"]) for item in reference["insights"]
    ]
    assert [concept["insight_ids"] for concept in exported["concepts"]] == [sorted(set(c["insight_ids"])) for c in reference["concepts"]]


@pytest.mark.parametrize("mode", ["bm25", "vector", "hybrid"])
def test_search_a_level_drills_down_to_cited_pages(frog_corpus: Path, mode: str) -> None:
    with Corpus.open(frog_corpus) as corpus:
        hits = corpus.retrieve("tadpoles born from the female", mode=mode, k=5, level="insights")
        assert len(hits) == 5 and all(hit.level == "insights" and hit.item_id for hit in hits)
        assert any("tadpole" in hit.text.lower() for hit in hits[:3])
        top = next(hit for hit in hits if hit.sources)
        assert top.context_id == top.sources[0].context_id and top.citation.page_number is not None
        assert all(source.level == "contexts" and source.citation.page_number for source in top.sources)
        assert corpus.retrieve("tadpoles", mode=mode, k=5, level="insights", filters=Filters(article_ids=("nope",))) == []
        concepts = corpus.retrieve("tadpoles", mode=mode, k=3, level="concepts")
        assert concepts and concepts[0].level == "concepts" and concepts[0].sources
        abstract = corpus.retrieve("tadpoles", mode=mode, k=3, level="abstracts")
        assert len(abstract) == 1 and abstract[0].sources  # the article's best passages for the query


def test_cross_mode_returns_verbatim_contexts_lifted_by_insights(frog_corpus: Path) -> None:
    with Corpus.open(frog_corpus) as corpus:
        query = "how many tadpoles were in the oviducts of the gravid female"
        cross = corpus.retrieve(query, mode="cross", k=10)
        insights = corpus.retrieve(query, mode="hybrid", k=3, level="insights")
        with pytest.raises(ValueError, match="returns contexts"):
            corpus.retrieve(query, mode="cross", level="insights")
    assert cross and all(hit.level == "contexts" and not hit.sources for hit in cross)
    lifted = {source.context_id for hit in insights for source in hit.sources}
    assert lifted & {hit.context_id for hit in cross[:5]}


@pytest.mark.slow
def test_cross_mode_does_not_favour_a_paper_for_being_distilled(tmp_path: Path, minilm: MiniLM) -> None:
    """With one of two papers distilled, a question about the other keeps that paper's passage
    first: the best insight of the distilled paper scales to 1 whatever the query, so without a
    stand-in for the missing pyramid every distilled passage would outrank the undistilled ones."""
    (tmp_path / "pdfs").mkdir()
    for name in (FROG, WHEAT):
        shutil.copy(SAMPLE / f"{name}.pdf", tmp_path / "pdfs")
    db = tmp_path / "two.sqlite"
    assert ingest([tmp_path / "pdfs"], db, Settings(ingest=IngestSettings(workers=0, embed=True))).count("done") == 2
    assert [error for _, _, error in import_distillations(db, [DISTILLATION], embedder=minilm)] == [None]
    query = "volatile compounds released by durum wheat"
    with Corpus.open(db, embedder=minilm) as corpus:
        wheat = next(article.id for article in corpus.articles() if article.id != _distilled(corpus))
        hybrid = corpus.retrieve(query, mode="hybrid", k=5)
        cross = corpus.retrieve(query, mode="cross", k=5)
    assert hybrid[0].citation.article_id == wheat
    assert [hit.citation.article_id for hit in cross[:3]] == [wheat] * 3


def _distilled(corpus: Corpus) -> str:
    return str(corpus.conn.execute("SELECT article_id FROM distillations WHERE status = 'done'").fetchone()[0])


def test_metric_counts_a_distilled_hit_through_its_sources_at_its_own_cost() -> None:
    counter = TokenCounter()
    from paperpyramid.retrieval import Citation

    citation = Citation("a", "T", "s", "1", "Intro", 3)
    source = SearchHit("c1", "The holotype MZB.Amph.23755 is an adult male of 48 mm SVL.", 1.0, citation, 15)
    insight = SearchHit("c1", "The holotype is an adult male.", 1.0, citation, 7, "insights", "i1", (source,))
    question = Question("q", "holotype size?", "number", ("adult male of 48 mm SVL",), ())
    result = score_question(question, [insight], 0.0, counter)
    assert result.rank == 1 and all(result.within.values())
    bare = SearchHit("c1", "The holotype is an adult male of 48 mm SVL.", 1.0, citation, 7, "insights", "i1", ())
    assert score_question(question, [bare], 0.0, counter).rank is None  # its own words do not count


def test_cli_search_level_prints_sources(frog_corpus: Path) -> None:
    result = CliRunner().invoke(
        app, ["search", "tadpoles", "--db", str(frog_corpus), "--level", "insights", "--mode", "bm25", "--json", "-k", "2"]
    )
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == 2 and all(record["level"] == "insights" for record in records)
    assert any(record["sources"] and record["sources"][0]["page"] for record in records)
