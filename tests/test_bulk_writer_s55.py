"""What the bulk writer saves, each kept exact: a batch's contexts reach FTS5 as one segment (its
buffer of pending terms holds the batch), a batch of pyramids adds the FTS5 rows of its insights,
concepts and abstracts in one statement a table, and row ids are drawn from a pool that a forked
process never shares with its parent."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

from paperpyramid.contexts import ContextDraft
from paperpyramid.db import article_rows, lexical_index
from paperpyramid.db.pyramid import ArticlePyramid, ConceptRow, InsightRow, store_pyramids
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.db.writer import ArticleInput, CorpusWriter
from paperpyramid.document import Block, Document, Section
from paperpyramid.tokens import TokenCounter

#: the FTS5 indexes of the tables the writer fills, each with its insert trigger
INDEXED = ("contexts", "insights", "concepts", "abstracts")


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    return TokenCounter()


def articles(count: int, contexts: int, words: int, seed: int = 7) -> list[ArticleInput]:
    """``count`` articles of ``contexts`` contexts of ``words`` words drawn from 20,000 made-up ones."""
    rng = random.Random(seed)
    vocabulary = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(4, 10))) for _ in range(20_000)]
    out = []
    for n in range(count):
        texts = [" ".join(rng.choice(vocabulary) for _ in range(words)) for _ in range(contexts)]
        drafts = [ContextDraft(text, 1, words, "Token limit", "paragraph") for text in texts]
        doc = Document(title=f"Paper {n}", doi=f"10.5555/s55.{seed}.{n}", paged=False, provenance={"sections": "test"},
                       sections=[Section("Results", 1, "1", blocks=[Block(draft.text, 1) for draft in drafts])])  # fmt: skip
        out.append(ArticleInput(doc, f"file:///{seed}-{n}", f"{seed:08x}{n:056x}", contexts=[drafts], normalised=True))
    return out


def segments(conn: Any, table: str) -> int:
    """The segments of ``table``'s FTS5 index: FTS5 keys a segment's pages by its id shifted 37 bits."""
    return int(conn.execute(f"SELECT count(DISTINCT id >> 37) FROM {table}_fts_data WHERE id >= (1 << 37)").fetchone()[0])


def check_indexes(conn: Any) -> None:
    """Each FTS5 index holds exactly its table's rows (FTS5 raises otherwise), and its trigger is there."""
    for table in INDEXED:
        conn.execute(f"INSERT INTO {table}_fts ({table}_fts, rank) VALUES ('integrity-check', 1)")
        rowids = [row[0] for row in conn.execute(f"SELECT rowid FROM {table} ORDER BY rowid")]
        assert [row[0] for row in conn.execute(f"SELECT id FROM {table}_fts_docsize ORDER BY id")] == rowids
        assert conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?", [f"{table}_ai"]).fetchone()
    if conn.in_transaction:
        conn.commit()


def test_a_batchs_contexts_reach_fts5_as_one_segment(tmp_path: Path, counter: TokenCounter) -> None:
    batch = articles(100, 20, 150)  # 2.4 MB of text: FTS5's default buffer of 1 MiB wrote it as three segments
    path = tmp_path / "c.sqlite"
    with CorpusWriter(path, counter) as writer:
        assert all(isinstance(outcome, str) for outcome in writer.store_many(batch))
        conn = writer.db.conn
        assert segments(conn, "contexts") == 1
        assert writer.db.execute("SELECT count(*) FROM contexts").fetchone()[0] == 2000
        word = batch[-1].contexts[0][-1].text.split()[0]  # type: ignore[index]
        found = conn.execute("SELECT count(*) FROM contexts_fts WHERE contexts_fts MATCH ?", [word]).fetchone()[0]
        assert found >= 1
        check_indexes(conn)
    conn = sqlite3.connect(path)  # each index keeps its buffer's size, whoever writes to it next
    try:
        for table in INDEXED:
            size = conn.execute(f"SELECT v FROM {table}_fts_config WHERE k = 'hashsize'").fetchone()
            assert size == (lexical_index.PENDING_BYTES,)
    finally:
        conn.close()


def pyramid(article_id: str, context_id: str, n: int) -> ArticlePyramid:
    insights = [InsightRow(f"Insight {k} of paper {n} on tadpoles.", [1], "Results", 6, [(context_id, 0.9)]) for k in range(3)]
    concepts = [ConceptRow(f"Viviparity concept {n}", 3, [0, 1]), ConceptRow(f"Fertilization concept {n}", 3, [2])]
    return ArticlePyramid(article_id, "test:hand", "v1", insights, concepts, f"Abstract of paper {n}: frogs bear tadpoles.", 8)


def test_a_batch_of_pyramids_adds_each_levels_fts5_rows_in_one_statement(
    tmp_path: Path, counter: TokenCounter, monkeypatch: pytest.MonkeyPatch
) -> None:
    setwise: list[str] = []
    index_added_rows = lexical_index.index_added_rows

    def spy(conn: Any, table: str, after_rowid: int) -> int:
        setwise.append(table)
        return index_added_rows(conn, table, after_rowid)

    monkeypatch.setattr(lexical_index, "index_added_rows", spy)
    with CorpusWriter(tmp_path / "c.sqlite", counter) as writer:
        ids = [str(outcome) for outcome in writer.store_many(articles(4, 2, 20))]
        conn = writer.db.conn
        first = dict(conn.execute("SELECT x.article_id, y.context_id FROM article_sections x JOIN sections_contexts y "
                                  "ON y.section_id = x.section_id WHERE y.position = 0"))  # fmt: skip
        setwise.clear()
        store_pyramids(conn, [pyramid(article_id, first[article_id], n) for n, article_id in enumerate(ids)])
        assert setwise == ["insights", "concepts", "abstracts"]
        check_indexes(conn)
        assert segments(conn, "concepts") == segments(conn, "abstracts") == 1  # one trigger call a row: a segment each
        matched = conn.execute("SELECT count(*) FROM concepts_fts WHERE concepts_fts MATCH 'viviparity'").fetchone()[0]
        assert matched == 4
        assert conn.execute("SELECT count(*) FROM abstracts_fts WHERE abstracts_fts MATCH 'tadpoles'").fetchone()[0] == 4
        store_pyramids(conn, [pyramid(ids[0], first[ids[0]], 9), pyramid(ids[1], first[ids[1]], 8)])  # two replaced
        check_indexes(conn)
        assert conn.execute("SELECT count(*) FROM concepts_fts WHERE concepts_fts MATCH 'viviparity'").fetchone()[0] == 4


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here (Windows): no process starts with a copy of another's pool")
def test_a_forked_process_draws_ids_its_parent_does_not(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(time, "time_ns", lambda: 1_700_000_000_000_000_000)  # one millisecond for both
    article_rows.new_id()  # the parent's pool is full
    reading, writing = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child
        os.close(reading)
        os.write(writing, "\n".join(article_rows.new_id() for _ in range(100)).encode())
        os._exit(0)
    os.close(writing)
    with os.fdopen(reading) as pipe:
        theirs = set(pipe.read().split("\n"))
    os.waitpid(child, 0)
    mine = {article_rows.new_id() for _ in range(100)}
    assert len(theirs) == 100 and not mine & theirs
