"""The Python write side, as a user calls it: ``paperpyramid.ingest`` on the bundled sample (and a
PDF that needs a password), then the opened corpus's ``embed``, ``distill`` (the local model, one
page), ``ask``, ``snapshot`` and ``export``, each checked against what the corpus then holds;
unknown option and mode names refused with the known ones; one LLM per corpus; a corpus opened
from a snapshot URL refusing to be written."""

from __future__ import annotations

import inspect
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import paperpyramid
from paperpyramid import (
    Answer,
    Corpus,
    DistillReport,
    DocumentResult,
    EmbedReport,
    ExportReport,
    Found,
    IngestReport,
    Passage,
    ReadOnlyCorpus,
    Snapshot,
)
from paperpyramid.db.sqlite import connect
from paperpyramid.errors import ConfigurationError
from paperpyramid.settings import DistillSettings, IngestSettings, Settings
from tests.conftest import HOSTILE, SAMPLE
from tests.fake_llm import FakeLLMServer, FakeReply, llm_settings

ENCRYPTED = "hostile-encrypted-user-password.pdf"
FROG = "plos-one-2014-fanged-frog-internal-fertilization.pdf"
QUESTION = "How do the fanged frogs of Sulawesi fertilize their eggs?"


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, IngestReport]:
    """The sample's three PDFs and one that needs a password, ingested in this process (no vectors)."""
    folder = tmp_path_factory.mktemp("api")
    shutil.copytree(SAMPLE, folder / "pdfs")
    shutil.copy(HOSTILE / ENCRYPTED, folder / "pdfs" / ENCRYPTED)
    db = folder / "corpus.sqlite"
    return folder / "pdfs", db, paperpyramid.ingest(folder / "pdfs", db, workers=0, embed=False)


def count_llms(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The real ``get_llm``, with every model it builds noted (by name) in the list returned."""
    import paperpyramid.llm

    built: list[str] = []
    real = paperpyramid.llm.get_llm

    def counting(settings: Any) -> Any:
        llm = real(settings)
        built.append(llm.name)
        return llm

    monkeypatch.setattr(paperpyramid.llm, "get_llm", counting)
    return built


def copy_corpus(db: Path, target: Path) -> Path:
    """A copy of the corpus file (SQLite's backup: the WAL's pages too), for a test that writes."""
    source, copy = connect(db, read_only=True), connect(target)
    try:
        source.backup(copy)
    finally:
        source.close()
        copy.close()
    return target


# ingest


def test_ingest_reports_each_document_as_the_corpus_holds_it(ingested: tuple[Path, Path, IngestReport]) -> None:
    _, db, report = ingested
    assert isinstance(report, IngestReport) and report.db == db
    assert (report.stored, report.skipped, report.failed, report.total) == (3, 0, 1, 4)
    assert not report.ok  # one input failed
    (failure,) = report.failures
    assert isinstance(failure, DocumentResult) and failure.status == "failed" and not failure.previous
    assert failure.source.endswith(ENCRYPTED) and "password" in (failure.reason or ""), failure
    with Corpus.open(db) as corpus:
        articles = {article.id: article for article in corpus.articles()}
        log = {row.source_uri: (row.status, row.error, row.article_id) for row in corpus.ingest_log()}
    stored = [document for document in report.documents if document.status == "done"]
    assert sorted(document.article_id for document in stored) == sorted(articles)
    assert report.pages == sum(article.pages or 0 for article in articles.values()) > 0
    assert {document.source: (document.status, document.reason, document.article_id) for document in report.documents} == log


def test_ingest_again_skips_what_is_stored_and_still_reports_the_failure(ingested: tuple[Path, Path, IngestReport]) -> None:
    pdfs, db, _ = ingested
    again = paperpyramid.ingest([pdfs], db=db, workers=0, embed=False)
    assert (again.stored, again.skipped, again.failed) == (0, 3, 1) and not again.ok
    assert all(document.previous for document in again.documents)
    assert "password" in (again.failures[0].reason or "")


def test_ingest_prints_nothing_unless_asked(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    broken = str(HOSTILE / "hostile-fuzzed-no-trailer.pdf")
    report = paperpyramid.ingest(broken, tmp_path / "quiet.sqlite", workers=0)  # one source, not in a list
    assert capfd.readouterr() == ("", "")
    assert report.failed == 1 and "corrupt" in (report.failures[0].reason or "") and not report.ok
    paperpyramid.ingest(broken, tmp_path / "shown.sqlite", workers=0, progress=True)
    shown = capfd.readouterr()
    assert shown.out == "" and "ingest" in shown.err and "1 failed" in shown.err, shown.err


def test_an_ingest_that_finds_nothing_is_not_ok(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    report = paperpyramid.ingest(tmp_path / "empty", tmp_path / "c.sqlite", workers=0)
    assert report.total == 0 and not report.ok


def test_unknown_or_bad_ingest_option_is_refused_before_anything_runs(tmp_path: Path) -> None:
    db = tmp_path / "never.sqlite"
    with pytest.raises(TypeError, match="unknown option 'max_page'") as refused:
        paperpyramid.ingest(SAMPLE, db, max_page=3)
    assert all(name in str(refused.value) for name in IngestSettings.model_fields), refused.value
    with pytest.raises(ValueError, match="max_pages"):
        paperpyramid.ingest(SAMPLE, db, max_pages=0)
    with pytest.raises(ValueError, match="parser"):
        paperpyramid.ingest(SAMPLE, db, parser="no-such-parser")
    assert not db.exists()
    # the function's own keywords never hide a setting of the same name
    assert not set(inspect.signature(paperpyramid.ingest).parameters) & set(IngestSettings.model_fields)


# reading: names, defaults, one LLM


def test_unknown_names_are_refused_with_the_known_ones(ingested: tuple[Path, Path, IngestReport], monkeypatch: pytest.MonkeyPatch) -> None:
    _, db, _ = ingested
    built = count_llms(monkeypatch)
    with Corpus.open(db) as corpus:
        with pytest.raises(ValueError, match=r"unknown retrieval mode 'fuzzy'; choose one of: bm25, vector, hybrid, parent, cross"):
            corpus.retrieve("frogs", mode="fuzzy")
        with pytest.raises(ValueError, match=r"LLM-driven strategy.*find\(query, strategy='multiquery'\)"):
            corpus.retrieve("frogs", mode="multiquery")
        with pytest.raises(
            ValueError, match=r"unknown level 'chapters'; choose one of: contexts, insights, concepts, abstracts, recollections"
        ):
            corpus.retrieve("frogs", level="chapters")
        known = "bm25, vector, hybrid, parent, cross, multiquery, walk, walkingrag, pyramid"
        with pytest.raises(ValueError, match=f"unknown strategy 'deep'; choose one of: {known}"):
            corpus.ask("frogs?", strategy="deep")
        with pytest.raises(ValueError, match=f"unknown strategy 'deep'; choose one of: {known}"):
            corpus.find("frogs?", strategy="deep")
        with pytest.raises(ValueError, match="unknown export format 'pdf'; choose one of: markdown, json"):
            corpus.export(db.parent / "never", format="pdf")  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="unknown embedding model 'bert'; choose one of: minilm, minilm-int8, e5-small, openai"):
            corpus.embed(embedding_model="bert")
    assert built == []  # refused before any model was built
    assert not (db.parent / "never").exists()


def test_find_hands_over_what_ask_would_by_default(ingested: tuple[Path, Path, IngestReport], monkeypatch: pytest.MonkeyPatch) -> None:
    """find and ask share their default strategy (parent) and budget (4000 tokens); a retrieval
    mode needs no LLM."""
    _, db, _ = ingested
    built = count_llms(monkeypatch)
    with Corpus.open(db) as corpus:
        found = corpus.find(QUESTION)
        parent = corpus.retrieve(QUESTION, mode="parent", budget_tokens=4000)
        uncut = corpus.retrieve(QUESTION, mode="bm25", k=10)
    assert isinstance(found, Found) and [step.name for step in found.steps] == ["retrieve"]
    assert found.passages == parent and all(isinstance(hit, Passage) for hit in found.passages)
    assert 0 < sum(hit.num_tokens for hit in found.passages) <= 4000
    assert len(uncut) == 10  # retrieve: k hits, uncut unless told
    assert built == []


def test_one_llm_per_corpus(ingested: tuple[Path, Path, IngestReport], monkeypatch: pytest.MonkeyPatch) -> None:
    _, db, _ = ingested
    built = count_llms(monkeypatch)
    claim = json.dumps({"claims": [{"text": "The frogs fertilize their eggs internally.", "passages": [1]}]})
    with FakeLLMServer(lambda body: FakeReply(claim)) as server:
        settings = Settings(llm=llm_settings(server.base_url))
        with Corpus.open(db, settings=settings) as corpus:
            first = corpus.ask(QUESTION, strategy="bm25")
            second = corpus.ask("Which volatile compounds does durum wheat give off?", strategy="bm25")
            assert corpus.llm is corpus.llm
        with Corpus.open(db, settings=settings) as other:
            other.ask(QUESTION, strategy="bm25")
        asked = len(server.requests)
    assert isinstance(first, Answer) and isinstance(second, Answer) and asked == 3
    assert built == ["openai:fake-model", "openai:fake-model"]  # one per corpus, not one per question


# snapshots are read-only


def test_a_corpus_opened_from_a_snapshot_url_refuses_writes(ingested: tuple[Path, Path, IngestReport], tmp_path: Path) -> None:
    _, db, report = ingested
    with Corpus.open(db) as corpus:
        snapshot = corpus.snapshot(tmp_path / "snapshots")
    assert isinstance(snapshot, Snapshot) and snapshot.manifest["row_counts"]["articles"] == report.stored
    assert snapshot.open_url.startswith("file://")
    with Corpus.open(snapshot.open_url, cache_dir=tmp_path / "cache") as copy:
        assert copy.from_snapshot and len(list(copy.articles())) == report.stored
        for write in (copy.embed, copy.distill, lambda: copy.snapshot(tmp_path / "again")):
            with pytest.raises(ReadOnlyCorpus, match="opened from a snapshot, a read-only copy"):
                write()
        exported = copy.export(tmp_path / "from-snapshot", format="json")  # reading is allowed
    assert len(exported.files) == report.stored and not (tmp_path / "again").exists()


# the whole write side


@pytest.mark.slow
@pytest.mark.llm
def test_write_side_end_to_end(ingested: tuple[Path, Path, IngestReport], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ingest (the fixture) -> embed -> distil one page of one paper with the local model -> ask
    -> snapshot -> export, each report against what the corpus then holds."""
    from paperpyramid.llm.local import model_path

    try:
        model_path()
    except ConfigurationError as exc:
        pytest.skip(str(exc))
    _, ingested_db, report = ingested
    db = copy_corpus(ingested_db, tmp_path / "corpus.sqlite")
    built = count_llms(monkeypatch)
    # the local model kept short: one page of 64 tokens, answers of at most 64, no recollections
    settings = Settings(distill=DistillSettings(max_tokens=64, page_tokens=64, recollections=False))
    with Corpus.open(db, settings=settings) as corpus:
        contexts = corpus.conn.execute("SELECT count(*) FROM contexts").fetchone()[0]
        frog = next(article for article in corpus.articles() if (article.source_uri or "").endswith(FROG))

        embedded = corpus.embed()
        assert isinstance(embedded, EmbedReport) and embedded.ok
        assert embedded.embedded == embedded.total == contexts and embedded.embedder == "all-MiniLM-L6-v2"
        assert corpus.best_mode() == "hybrid" and corpus.embed().embedded == 0  # incremental

        distilled = corpus.distill(max_pages=1, articles=[frog.id])
        assert isinstance(distilled, DistillReport) and distilled.ok, distilled
        assert (distilled.distilled, distilled.failed, distilled.model) == (1, 0, "local:SmolLM2-135M-Instruct-Q4_1")
        assert distilled.articles[0].article_id == frog.id and distilled.tokens > 0
        status = corpus.conn.execute("SELECT status FROM distillations WHERE article_id = ?", [frog.id]).fetchone()
        insights = corpus.conn.execute("SELECT count(*) FROM insights WHERE article_id = ?", [frog.id]).fetchone()[0]
        assert status == ("done",) and insights > 0

        answer = corpus.ask(QUESTION, strategy="bm25", k=2, budget_tokens=300)
        assert isinstance(answer, Answer) and [step.name for step in answer.steps] == ["retrieve", "answer"]
        stored = {row[0]: row[1] for row in corpus.conn.execute("SELECT id, page_number FROM contexts")}
        assert answer.passages and all(stored[hit.context_id] == hit.citation.page_number for hit in answer.passages)
        assert built == ["local:SmolLM2-135M-Instruct-Q4_1"]  # distil and ask: one model, its weights loaded once

        snapshot = corpus.snapshot(tmp_path / "snapshots")
        assert snapshot.manifest["row_counts"]["articles"] == report.stored and snapshot.manifest["row_counts"]["contexts"] == contexts
        assert snapshot.manifest["row_counts"]["insights"] == insights

        exported = corpus.export(tmp_path / "markdown")
        assert isinstance(exported, ExportReport) and exported.format == "markdown"
        assert sorted(path.name for path in exported.files) == sorted(f"{article.id}.md" for article in corpus.articles())
        assert f"# {' '.join((frog.title or '').split())}" in (tmp_path / "markdown" / f"{frog.id}.md").read_text()
        one = corpus.export(tmp_path / "json", format="json", articles=[frog.doi or frog.id])
        assert one.articles == (frog.id,) and json.loads(one.files[0].read_text())["id"] == frog.id


def test_an_older_corpus_is_refused_unless_migrated_and_the_write_commands_migrate_it(tmp_path: Path) -> None:
    """Reading never writes: a corpus of an older schema is refused, saying how to bring it up to
    date; ``migrate=True`` does, and so does a command that adds to the corpus (here snapshot)."""
    import sqlite_utils
    from typer.testing import CliRunner

    from paperpyramid.cli import app
    from paperpyramid.db.schema import MIGRATIONS, SCHEMA_VERSION, migrate
    from paperpyramid.errors import NotACorpus

    def version(path: Path) -> int:
        conn = connect(path, read_only=True)
        try:
            return int(conn.execute("PRAGMA user_version").fetchone()[0])
        finally:
            conn.close()

    old = tmp_path / "old.sqlite"
    database = sqlite_utils.Database(old)
    migrate(database, MIGRATIONS[:6])
    database.close()
    command = tmp_path / "command.sqlite"
    shutil.copy(old, command)
    with pytest.raises(NotACorpus, match=r"schema version 6, older than this paperpyramid's .*migrate=True"):
        Corpus.open(old)
    assert version(old) == 6  # the refusal wrote nothing
    with Corpus.open(old, migrate=True) as corpus:
        assert list(corpus.articles()) == []
    assert version(old) == SCHEMA_VERSION
    result = CliRunner().invoke(app, ["snapshot", "--db", str(command), "--to", str(tmp_path / "snapshots")])
    assert result.exit_code == 0, result.output
    assert version(command) == SCHEMA_VERSION and any((tmp_path / "snapshots").glob("*.sqlite.zst"))

    newer = tmp_path / "newer.sqlite"
    shutil.copy(old, newer)
    conn = connect(newer)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    for migrating in (False, True):  # never migrated down, nor written
        with pytest.raises(NotACorpus, match="newer than this paperpyramid's .*upgrade paperpyramid"):
            Corpus.open(newer, migrate=migrating)
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    with pytest.raises(NotACorpus, match="no schema version"):
        Corpus.open(empty, migrate=True)
    assert empty.stat().st_size == 0  # not made into a corpus
    with pytest.raises(ValueError, match="snapshot is a read-only copy"):
        Corpus.open(tmp_path / "copy.sqlite.gz", migrate=True)
