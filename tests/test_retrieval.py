"""Retrieval over a real corpus: the three sample papers ingested with embedding on (MiniLM in
numpy, vectors in sqlite-vec in the same file), searched by every mode, with filters, a
second embedding model beside the first, the embed command, and a snapshot round trip."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from paperpyramid import Corpus
from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.db import vectors as db_vectors
from paperpyramid.embeddings.minilm import MiniLM
from paperpyramid.ingestion import ingest
from paperpyramid.ingestion.embed import embed_corpus
from paperpyramid.retrieval.api import RetrievalOptions
from paperpyramid.retrieval.filters import Filters, year_of
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import SAMPLE

ROOT = Path(__file__).resolve().parents[1]
FROG = "10.1371/journal.pone.0115884"


@pytest.fixture(scope="session")
def minilm() -> MiniLM:
    return MiniLM()


@pytest.fixture(scope="session")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample ingested with embedding on, in this process."""
    db = tmp_path_factory.mktemp("retrieval") / "sample.sqlite"
    summary = ingest([SAMPLE], db, Settings(ingest=IngestSettings(workers=0, embed=True)))
    assert summary.count("done") == 3
    return db


def vector_counts(db: Path) -> dict[str, int]:
    conn = db_sqlite.connect(db, read_only=True)
    try:
        return {row.name: db_vectors.count_vectors(conn, row) for row in db_vectors.embedders(conn)}
    finally:
        conn.close()


def context_count(db: Path) -> int:
    conn = db_sqlite.connect(db, read_only=True)
    try:
        return int(conn.execute("SELECT count(*) FROM contexts").fetchone()[0])
    finally:
        conn.close()


@pytest.mark.slow
def test_ingest_stores_one_vector_per_context_with_the_article(embedded: Path) -> None:
    assert vector_counts(embedded) == {"all-MiniLM-L6-v2": context_count(embedded)}


def test_stored_vectors_are_the_models_vectors_of_the_context_text(embedded: Path, minilm: MiniLM) -> None:
    conn = db_sqlite.connect(embedded, read_only=True)
    rows = conn.execute(
        "SELECT v.context_id, v.embedding, c.text FROM vec_contexts_1 AS v JOIN contexts AS c ON c.id = v.context_id LIMIT 3"
    ).fetchall()
    conn.close()
    stored = db_vectors.decode([blob for _, blob, _ in rows], 384)
    fresh = minilm.embed_passages([text for _, _, text in rows])
    assert np.allclose((stored * fresh).sum(1), 1.0, atol=1e-4)


@pytest.mark.parametrize("mode", ["bm25", "vector", "hybrid", "parent"])
def test_every_mode_finds_the_frog_paper_with_citations(embedded: Path, mode: str) -> None:
    with Corpus.open(embedded) as corpus:
        frog = corpus.article(FROG)
        hits = corpus.retrieve("frogs that give birth to tadpoles after internal fertilization", mode=mode, k=5)
    assert hits and hits[0].citation.article_id == frog.id
    for hit in hits:
        assert hit.num_tokens > 0 and hit.citation.page_number is not None and hit.cite().startswith(hit.citation.article_title or "")


def test_vector_mode_finds_a_paraphrase_that_shares_no_keyword(embedded: Path) -> None:
    # no word of the query occurs in the corpus's wording of it ("sacrificed via emersion in MS-222")
    query = "how were the animals killed humanely before preservation"
    with Corpus.open(embedded) as corpus:
        semantic = corpus.retrieve(query, mode="vector", k=5)
    assert any("MS-222" in hit.text for hit in semantic)


def test_hybrid_scores_are_a_fusion_of_both_lists(embedded: Path) -> None:
    with Corpus.open(embedded) as corpus:
        lexical = {hit.context_id for hit in corpus.retrieve("digital calipers measurements", mode="bm25", k=100)}
        semantic = {hit.context_id for hit in corpus.retrieve("digital calipers measurements", mode="vector", k=100)}
        fused = corpus.retrieve("digital calipers measurements", mode="hybrid", k=10)
    assert {hit.context_id for hit in fused} <= lexical | semantic
    assert [hit.score for hit in fused] == sorted((hit.score for hit in fused), reverse=True)


def test_parent_widens_hits_merges_windows_in_reading_order_and_keeps_the_budget(embedded: Path) -> None:
    query = "digital calipers measurements"
    with Corpus.open(embedded) as corpus:
        best = corpus.retrieve(query, mode="hybrid", k=5)
        widened = corpus.retrieve(query, mode="parent")
        ids = [hit.context_id for hit in widened]
        assert len(ids) == len(set(ids)), "overlapping windows are merged"
        assert {hit.context_id for hit in best} <= set(ids)
        for hit in best:  # each hit comes with its neighbours
            assert {row.id for row in corpus.parent_contexts(hit.context_id)} <= set(ids)
        # within one paper, passages follow the paper's reading order
        frog = corpus.article(FROG)
        order = [row.id for section in corpus.sections(frog.id) for row in corpus.contexts(section.id)]
        in_frog = [order.index(hit.context_id) for hit in widened if hit.citation.article_id == frog.id]
        assert in_frog == sorted(in_frog)
        cut = corpus.retrieve(query, mode="parent", budget_tokens=500)
        in_frog_cut = [order.index(hit.context_id) for hit in cut if hit.citation.article_id == frog.id]
    assert sum(hit.num_tokens for hit in cut) <= 500 and best[0].context_id in {hit.context_id for hit in cut}
    assert in_frog_cut == sorted(in_frog_cut), "the cut keeps the reading order"


def test_parent_fills_the_budget_the_windows_leave_with_the_next_hits(embedded: Path) -> None:
    query = "digital calipers measurements"
    with Corpus.open(embedded) as corpus:
        ranked = [hit.context_id for hit in corpus.retrieve(query, mode="hybrid", k=100)]
        windows = {hit.context_id for hit in corpus.retrieve(query, mode="parent")}
        budget = sum(hit.num_tokens for hit in corpus.retrieve(query, mode="parent")) + 400
        filled = corpus.retrieve(query, mode="parent", budget_tokens=budget)
    got = [hit.context_id for hit in filled]
    assert len(got) == len(set(got)) and sum(hit.num_tokens for hit in filled) <= budget
    assert windows < set(got), "the five windows whole, and more"
    extra = set(got) - windows
    # what was added are the next hybrid hits, alone (no window), the best of them first
    assert extra <= set(ranked[5:]), extra
    assert next(context_id for context_id in ranked[5:] if context_id not in windows) in extra


def test_references_are_left_out_unless_asked_for(embedded: Path) -> None:
    with Corpus.open(embedded) as corpus:
        default = corpus.retrieve("Limnonectes frogs Sulawesi", mode="hybrid", k=30)
        with_refs = corpus.retrieve("Limnonectes frogs Sulawesi", mode="hybrid", k=30, filters=Filters(include_references=True))
    assert all(hit.citation.section_number != "ref" for hit in default)
    assert any(hit.citation.section_number == "ref" for hit in with_refs)


@pytest.mark.parametrize("mode", ["bm25", "vector", "hybrid"])
def test_article_filter_restricts_every_mode(embedded: Path, mode: str) -> None:
    with Corpus.open(embedded) as corpus:
        frog = corpus.article(FROG)
        hits = corpus.retrieve("volatile compounds of wheat in this study", mode=mode, k=10, filters=Filters(article_ids=(frog.id,)))
    assert hits and {hit.citation.article_id for hit in hits} == {frog.id}


def test_year_and_journal_filters(embedded: Path) -> None:
    assert year_of("27 Jan 2015") == 2015 and year_of("November 23, 2014") == 2014 and year_of(None) is None
    with Corpus.open(embedded) as corpus:
        years = {article.id: year_of(article.date_published) for article in corpus.articles()}
        journals = {article.id: article.journal for article in corpus.articles()}
        # the BMC paper states its year only in its running head: "BMC Health Services Research 2014, 14:1"
        assert sorted(years.values()) == [2014, 2014, 2014]
        assert sorted(journals.values(), key=str) == ["BMC Health Services Research", "Metabolites", "PLOS ONE"]
        hits = corpus.retrieve("barriers to care", mode="hybrid", k=50, filters=Filters(year_from=2014, year_to=2014))
        before = corpus.retrieve("barriers to care", mode="hybrid", k=50, filters=Filters(year_to=2013))
        plos = corpus.retrieve("results", mode="bm25", k=50, filters=Filters(journal="plos one"))
        nothing = corpus.retrieve("results", mode="bm25", k=50, filters=Filters(journal="No Such Journal"))
    assert hits and all(years[hit.citation.article_id] == 2014 for hit in hits)
    assert plos and all(journals[hit.citation.article_id] == "PLOS ONE" for hit in plos)
    assert before == [] and nothing == []


def test_search_uses_hybrid_when_vectors_exist_and_bm25_otherwise(embedded: Path, tmp_path: Path) -> None:
    plain = tmp_path / "plain.sqlite"
    ingest(
        [SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf"], plain, Settings(ingest=IngestSettings(workers=0, embed=False))
    )
    with Corpus.open(plain) as corpus:
        assert corpus.best_mode() == "bm25"
        assert corpus.search("digital calipers", k=3)[0].score > 1  # a BM25 score, not a fused one
    with Corpus.open(embedded) as corpus:
        assert corpus.best_mode() == "hybrid"
        hits = corpus.search("digital calipers", k=3)
        assert [hit.context_id for hit in hits] == [hit.context_id for hit in corpus.retrieve("digital calipers", mode="hybrid", k=3)]


def test_fusion_options_change_the_ranking(embedded: Path) -> None:
    query = "durum wheat infected by Fusarium"
    with Corpus.open(embedded) as corpus:
        lexical_only = corpus.retrieve(query, mode="hybrid", k=10, options=RetrievalOptions(vector_weight=0.0))
        bm25 = corpus.retrieve(query, mode="bm25", k=10)
        weighted = corpus.retrieve(query, mode="hybrid", k=10, options=RetrievalOptions(fusion="weighted"))
    assert [hit.context_id for hit in lexical_only] == [hit.context_id for hit in bm25]
    assert all(0 <= hit.score <= 2 for hit in weighted)


@pytest.mark.slow
def test_embed_command_is_incremental(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    ingest([SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf"], db, Settings(ingest=IngestSettings(workers=0, embed=False)))
    assert vector_counts(db) == {}
    cli = [sys.executable, "-m", "paperpyramid.cli", "embed", "--db", str(db)]
    first = subprocess.run(cli, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    assert f"{context_count(db)} contexts embedded with all-MiniLM-L6-v2" in " ".join(first.stderr.split())
    again = subprocess.run(cli, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "0 contexts embedded" in again.stderr
    assert vector_counts(db) == {"all-MiniLM-L6-v2": context_count(db)}
    # an article added without embedding is not silently left out of vector search
    added = subprocess.run(
        [
            sys.executable,
            "-m",
            "paperpyramid.cli",
            "ingest",
            str(SAMPLE / "bmc-health-serv-res-2014-barriers.pdf"),
            "--db",
            str(db),
            "--no-embed",
            "--workers",
            "0",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert added.returncode == 0, added.stderr
    missing = context_count(db) - vector_counts(db)["all-MiniLM-L6-v2"]
    assert missing > 0 and f"{missing} of {context_count(db)} contexts have no all-MiniLM-L6-v2 vector yet" in " ".join(
        added.stderr.split()
    )


@pytest.mark.slow
def test_cli_search_prints_one_json_object_per_line(embedded: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "paperpyramid.cli",
            "search",
            "digital calipers",
            "--db",
            str(embedded),
            "--mode",
            "hybrid",
            "-k",
            "3",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [record["rank"] for record in records] == [1, 2, 3]
    assert {"context_id", "article_id", "page", "section_title", "text", "citation"} <= set(records[0])


def test_cli_search_with_an_unknown_mode_is_a_usage_error_naming_the_modes(embedded: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "paperpyramid.cli", "search", "x", "--db", str(embedded), "--mode", "magic"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (
        result.returncode == 2
        and "Invalid value for '--mode'" in result.stderr
        and "'bm25'" in result.stderr
        and "Traceback" not in result.stderr
    )


def test_vector_search_on_a_corpus_without_vectors_says_how_to_make_them(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    ingest([SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf"], db, Settings(ingest=IngestSettings(workers=0, embed=False)))
    with Corpus.open(db) as corpus, pytest.raises(Exception, match="paperpyramid embed"):
        corpus.retrieve("frogs", mode="vector")


def test_snapshot_carries_the_vectors_and_searches_without_reembedding(embedded: Path, tmp_path: Path, minilm: MiniLM) -> None:
    from paperpyramid.db.snapshot import take_snapshot

    made = take_snapshot(embedded, str(tmp_path / "published"), Settings())
    assert made.manifest["row_counts"]["embedders"] == 1

    class QueryOnly(MiniLM):
        def embed_passages(self, texts):  # type: ignore[no-untyped-def]
            if len(texts) != 1:
                raise AssertionError("a snapshot must not be re-embedded")
            return super().embed_passages(texts)

    query = "frogs that give birth to tadpoles"
    snapshot = next((tmp_path / "published").glob("*.sqlite.zst"))
    with Corpus.open(snapshot, cache_dir=tmp_path / "cache", embedder=QueryOnly()) as opened, Corpus.open(embedded) as original:
        got = opened.retrieve(query, mode="vector", k=5)
        want = original.retrieve(query, mode="vector", k=5)
    assert [hit.context_id for hit in got] == [hit.context_id for hit in want]


def test_filtered_vector_search_equals_exact_search_filtered_afterwards(embedded: Path) -> None:
    query = "tadpoles in the oviduct"
    with Corpus.open(embedded) as corpus:
        frog = corpus.article(FROG)
        everything = corpus.retrieve(query, mode="vector", k=10_000)
        restricted = corpus.retrieve(query, mode="vector", k=7, filters=Filters(article_ids=(frog.id,)))
    expected = [hit.context_id for hit in everything if hit.citation.article_id == frog.id][:7]
    assert [hit.context_id for hit in restricted] == expected
    assert all(
        abs(a.score - b.score) < 1e-5 for a, b in zip(restricted, [h for h in everything if h.context_id in set(expected)], strict=True)
    )


@pytest.mark.slow
def test_embed_builds_the_index_and_search_uses_it_only_while_it_is_current(tmp_path: Path) -> None:
    from paperpyramid.db import vector_index
    from paperpyramid.db.writer import CorpusWriter

    db = tmp_path / "c.sqlite"
    ingest([SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf"], db, Settings(ingest=IngestSettings(workers=0, embed=True)))
    with Corpus.open(db) as corpus:
        exact = corpus.retrieve("tadpoles in the oviduct", mode="vector", k=5)
    summary = embed_corpus(db, MiniLM(), index_min=1)  # nothing to embed; the index is built
    assert summary.embedded == 0 and summary.indexed
    conn = db_sqlite.connect(db, read_only=True)
    row = db_vectors.embedders(conn)[0]
    assert vector_index.is_current(conn, row)
    conn.close()
    with Corpus.open(db) as corpus:
        approximate = corpus.retrieve("tadpoles in the oviduct", mode="vector", k=5)
    assert [hit.context_id for hit in approximate] == [hit.context_id for hit in exact]
    # an article ingested later makes the index stale: search goes back to exact, and finds it
    ingest([SAMPLE / "bmc-health-serv-res-2014-barriers.pdf"], db, Settings(ingest=IngestSettings(workers=0, embed=True)))
    with CorpusWriter(db) as writer:
        assert not vector_index.is_current(writer.db.conn, row)
    with Corpus.open(db) as corpus:
        hits = corpus.retrieve("barriers to accessing health services", mode="vector", k=3)
    assert hits[0].citation.article_title and "barriers" in hits[0].citation.article_title.lower()
    assert embed_corpus(db, MiniLM()).indexed, "an index that exists is kept up to date"


@pytest.mark.parametrize("mode", ["bm25", "vector", "hybrid", "parent"])
def test_a_query_without_words_finds_nothing_in_any_mode(embedded: Path, mode: str) -> None:
    with Corpus.open(embedded) as corpus:
        assert corpus.retrieve("  !!! -- ", mode=mode) == []


def test_parent_budget_shrinks_windows_around_the_best_hit(embedded: Path) -> None:
    query = "digital calipers measurements"
    with Corpus.open(embedded) as corpus:
        best = corpus.retrieve(query, mode="hybrid", k=1)[0]
        for budget in (best.num_tokens, best.num_tokens + 150, 500, 1200):
            cut = corpus.retrieve(query, mode="parent", budget_tokens=budget)
            assert best.context_id in {hit.context_id for hit in cut}, budget
            assert sum(hit.num_tokens for hit in cut) <= budget


def test_parent_windows_leave_the_references_out_unless_asked_for(embedded: Path) -> None:
    with Corpus.open(embedded) as corpus:
        frog = corpus.article(FROG)
        sections = corpus.sections(frog.id)
        last_body = next(
            section for section in reversed(sections[: [s.number for s in sections].index("ref")]) if corpus.contexts(section.id)
        )
        query = corpus.contexts(last_body.id)[-1].text  # the passage right before the references
        default = corpus.retrieve(query, mode="parent", filters=Filters(article_ids=(frog.id,)))
        with_refs = corpus.retrieve(query, mode="parent", filters=Filters(article_ids=(frog.id,), include_references=True))
    assert default and all(hit.citation.section_number != "ref" for hit in default)
    assert any(hit.citation.section_number == "ref" for hit in with_refs)


def test_k_below_one_returns_nothing_in_every_mode(embedded: Path) -> None:
    with Corpus.open(embedded) as corpus:
        assert all(corpus.retrieve("frogs", mode=mode, k=k) == [] for mode in ("bm25", "vector", "hybrid", "parent") for k in (0, -1))
