"""The writer's bulk path: a batch of documents in one transaction (``CorpusWriter.store_many``)
stores what storing them one at a time stores, keeps the FTS5 index exact, lets one bad
document fail alone, and survives ``kill -9`` mid-batch with nothing stored twice or lost."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from paperpyramid.contexts import ContextDraft, split_section
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.db.writer import ArticleInput, CorpusWriter, DuplicateArticle
from paperpyramid.document import Document
from paperpyramid.ingestion import ingest
from paperpyramid.normalise import normalise_document
from paperpyramid.parsers.jats import parse_jats
from paperpyramid.settings import IngestSettings, Settings
from paperpyramid.tokens import TokenCounter

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "tests" / "data" / "gold"
JATS = sorted(GOLD.glob("*.nxml"))
QUERIES = ("frog fertilization", "durum wheat volatile", "sperm", "samples were", "tadpoles", "revised wording")


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    return TokenCounter()


@pytest.fixture(scope="module")
def parsed(counter: TokenCounter) -> list[tuple[Document, list[list[ContextDraft]]]]:
    """The two JATS articles, normalised as ingest's workers leave them, with their contexts cut."""
    out = []
    for path in JATS:
        doc = normalise_document(parse_jats(path))
        out.append((doc, [split_section(section, counter) for section in doc.sections]))
    return out


def copies(parsed: list[tuple[Document, list[list[ContextDraft]]]], n: int) -> list[ArticleInput]:
    """``n`` distinct articles: the JATS articles under DOIs of their own."""
    out = []
    for number in range(n):
        doc, contexts = parsed[number % len(parsed)]
        copy = dataclasses.replace(doc, doi=f"{doc.doi}.{number}", title=f"{doc.title} ({number})")
        out.append(ArticleInput(copy, f"file:///copy-{number}.nxml", f"{number:064x}", seconds=0.1, contexts=contexts, normalised=True))
    return out


def table_rows(path: Path) -> dict[str, object]:
    """What a reader sees: every article's texts in order, the log, the FTS5 hits of some queries."""
    conn = sqlite3.connect(path)
    try:
        articles = conn.execute("SELECT source_uri, title, doi, num_tokens FROM articles ORDER BY source_uri").fetchall()
        contexts = conn.execute(
            "SELECT a.source_uri, s.section_title, c.text, c.num_tokens FROM articles a JOIN article_sections x ON x.article_id = a.id "
            "JOIN sections s ON s.id = x.section_id JOIN sections_contexts y ON y.section_id = s.id JOIN contexts c ON c.id = y.context_id "
            "ORDER BY a.source_uri, x.position, y.position"
        ).fetchall()
        counts = {
            table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            for table in ("sections", "bib_entries", "citations", "tables", "figures", "formulas")
        }
        log = conn.execute(
            "SELECT source_uri, sha256, status, article_id IS NOT NULL, seconds FROM ingest_log ORDER BY source_uri"
        ).fetchall()
        hits = {
            query: conn.execute(
                "SELECT c.text, round(bm25(contexts_fts, 1.0, 0.5), 6) FROM contexts_fts JOIN contexts c ON c.rowid = contexts_fts.rowid "
                "WHERE contexts_fts MATCH ? ORDER BY 2, 1 LIMIT 20",
                [" OR ".join(query.split())],
            ).fetchall()
            for query in QUERIES
        }
        cited = conn.execute("SELECT count(*) FROM bib_entries WHERE cited_article_id IS NOT NULL").fetchone()[0]
        return {"articles": articles, "contexts": contexts, "counts": counts, "log": log, "hits": hits, "cited": cited}
    finally:
        conn.close()


def check_intact(path: Path) -> None:
    """The file, its FTS5 index against its contexts, and its insert trigger as the schema made it."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.execute("INSERT INTO contexts_fts (contexts_fts, rank) VALUES ('integrity-check', 1)")  # raises when the index is wrong
        trigger = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'contexts_ai'").fetchone()
        assert trigger is not None and 'INSERT INTO "contexts_fts"' in trigger[0]
        assert (
            conn.execute("SELECT count(*) FROM contexts").fetchone()[0]
            == conn.execute("SELECT count(*) FROM contexts_fts_docsize").fetchone()[0]
        )
    finally:
        conn.close()


def test_a_batch_stores_what_one_at_a_time_stores(tmp_path: Path, parsed, counter: TokenCounter) -> None:
    given = copies(parsed, 6)
    one, many = tmp_path / "one.sqlite", tmp_path / "many.sqlite"
    with CorpusWriter(one, counter) as writer:
        for article in given:
            writer.store(
                article.doc, source_uri=article.source_uri, sha256=article.sha256, seconds=article.seconds, contexts=article.contexts
            )
    with CorpusWriter(many, counter) as writer:
        assert all(isinstance(outcome, str) for outcome in writer.store_many(given[:4]))
        assert all(isinstance(outcome, str) for outcome in writer.store_many(given[4:]))
        # a context added later, one at a time, is indexed by the trigger the batch put back
        writer.store(given[0].doc, source_uri="file:///later.nxml", sha256="f" * 64, contexts=given[0].contexts)
    with CorpusWriter(one, counter) as writer:
        writer.store(given[0].doc, source_uri="file:///later.nxml", sha256="f" * 64, contexts=given[0].contexts)
    assert table_rows(many) == table_rows(one)
    assert len(table_rows(many)["articles"]) == 7
    assert all(hits for query, hits in table_rows(many)["hits"].items() if query != "revised wording")
    check_intact(many)


def test_a_bad_document_or_a_twin_in_a_batch_fails_alone(tmp_path: Path, parsed, counter: TokenCounter) -> None:
    given = copies(parsed, 5)
    broken = dataclasses.replace(
        given[2].doc, sections=[dataclasses.replace(given[2].doc.sections[0], parent=3), *given[2].doc.sections[1:]]
    )
    given[2] = dataclasses.replace(given[2], doc=broken)
    twin = dataclasses.replace(given[1], source_uri="file:///twin.nxml")
    path = tmp_path / "corpus.sqlite"
    with CorpusWriter(path, counter) as writer:
        outcomes = writer.store_many([*given, twin])
    assert isinstance(outcomes[2], ValueError) and not isinstance(outcomes[2], DuplicateArticle)
    assert isinstance(outcomes[5], DuplicateArticle) and outcomes[5].article_id == outcomes[1]
    assert all(isinstance(outcomes[i], str) for i in (0, 1, 3, 4))
    rows = table_rows(path)
    assert [uri for uri, *_ in rows["articles"]] == [f"file:///copy-{n}.nxml" for n in (0, 1, 3, 4)]
    assert [uri for uri, *_ in rows["log"]] == [f"file:///copy-{n}.nxml" for n in (0, 1, 3, 4)]  # the caller logs the two others
    check_intact(path)


def test_a_newer_version_in_the_same_batch_replaces_the_one_before_it(tmp_path: Path, parsed, counter: TokenCounter) -> None:
    """The second version removes the first one's contexts from the FTS5 index while the batch's
    contexts wait to be indexed: the index must come out exact all the same."""
    doc, contexts = parsed[0]
    doc = dataclasses.replace(doc, pmcid="PMC4275045")  # a full text with the PMCID of a stored one is its newer version
    changed = [[dataclasses.replace(draft, text=f"{draft.text} Revised wording.") for draft in drafts] for drafts in contexts]
    first = ArticleInput(doc, "file:///v1.nxml", "1" * 64, contexts=contexts, normalised=True)
    second = ArticleInput(doc, "file:///v2.nxml", "2" * 64, contexts=changed, normalised=True)
    other = copies(parsed, 2)[1]
    # the first version's contexts are the newest rows when the second replaces it: the second's take their rowids
    batch = [other, first, second, dataclasses.replace(other, sha256="3" * 64, source_uri="file:///again.nxml")]
    path, one = tmp_path / "corpus.sqlite", tmp_path / "one.sqlite"
    with CorpusWriter(path, counter) as writer:
        outcomes = writer.store_many(batch)
    with CorpusWriter(one, counter) as writer:
        for article in batch:
            writer.store(
                article.doc, source_uri=article.source_uri, sha256=article.sha256, seconds=article.seconds, contexts=article.contexts
            )
    assert outcomes[1] == outcomes[2] and isinstance(outcomes[3], str)
    check_intact(path)
    rows = table_rows(path)
    assert rows == table_rows(one)
    assert len(rows["articles"]) == 3
    assert sum("Revised wording." in text for _, _, text, _ in rows["contexts"]) == sum(len(drafts) for drafts in changed)


_KILLED_MID_BATCH = """
import os, signal, sys, pickle
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.tokens import TokenCounter

class Killing(list):
    def __getitem__(self, index):  # the batch's third document: the process dies inside the transaction
        os.kill(os.getpid(), signal.SIGKILL)

articles = pickle.loads(sys.stdin.buffer.read())
articles[2] = type(articles[2])(**{**{f: getattr(articles[2], f) for f in articles[2].__dataclass_fields__}, "contexts": Killing(articles[2].contexts)})
with CorpusWriter(sys.argv[1], TokenCounter()) as writer:
    writer.store_many(articles[:2])
    writer.store_many(articles[2:])
"""


def test_kill_9_mid_batch_then_rerun_stores_each_document_once(tmp_path: Path, parsed, counter: TokenCounter) -> None:
    import pickle

    given = copies(parsed, 6)
    path = tmp_path / "corpus.sqlite"
    process = subprocess.run([sys.executable, "-c", _KILLED_MID_BATCH, str(path)], input=pickle.dumps(given), cwd=ROOT,
                             capture_output=True, env={**os.environ, "HF_HUB_OFFLINE": "1"}, timeout=300)  # fmt: skip
    assert process.returncode == -signal.SIGKILL, process.stderr.decode()[-2000:]
    rows = table_rows(path)
    assert [uri for uri, *_ in rows["log"]] == ["file:///copy-0.nxml", "file:///copy-1.nxml"]  # the first batch, none of the second
    assert len(rows["articles"]) == 2
    check_intact(path)
    with CorpusWriter(path, counter) as writer:  # the re-run: what is logged done is skipped, the rest stored
        done = {uri for uri, *_ in rows["log"]}
        assert all(isinstance(outcome, str) for outcome in writer.store_many([a for a in given if a.source_uri not in done]))
    rows = table_rows(path)
    assert len(rows["articles"]) == 6 and len({sha for _, sha, *_ in rows["log"]}) == 6
    check_intact(path)


@pytest.fixture
def jats_folder(tmp_path: Path) -> Iterator[Path]:
    """Eight JATS articles in a folder: the two of tests/data, each under four DOIs of its own."""
    folder = tmp_path / "jats"
    folder.mkdir()
    for number in range(8):
        source = JATS[number % 2]
        text = source.read_text(encoding="utf-8")
        for doi in ("10.3390/metabo4040932", "10.1371/journal.pone.0115884"):
            text = text.replace(f">{doi}<", f">{doi}.{number}<")
        (folder / f"{number}-{source.name}").write_text(text, encoding="utf-8")
    yield folder


def test_ingest_in_batches_stores_what_ingest_one_by_one_stores(tmp_path: Path, jats_folder: Path) -> None:
    stores = {}
    for batch in (1, 3):
        path = tmp_path / f"batch-{batch}.sqlite"
        options = IngestSettings(workers=0, embed=False, write_batch=batch, write_batch_seconds=60.0)
        summary = ingest([jats_folder], path, Settings(ingest=options))
        assert summary.count("done") == 8
        stores[batch] = table_rows(path)
        check_intact(path)
        rerun = ingest([jats_folder], path, Settings(ingest=options))
        assert rerun.count("skipped") == 8 and table_rows(path)["articles"] == stores[batch]["articles"]
    one, three = stores[1], stores[3]
    assert [row[:4] for row in three["log"]] == [row[:4] for row in one["log"]]
    assert {key: value for key, value in three.items() if key != "log"} == {key: value for key, value in one.items() if key != "log"}
