"""The insights' FTS5 index stays the table's on every path that writes insights: a batch of
pyramids (:func:`~paperpyramid.db.pyramid.store_pyramids`, its FTS5 rows added in one statement,
an article's earlier pyramid replaced, an article given twice), one pyramid at a time (distill,
import: the trigger), a failure recorded, a newer version of an article that drops its pyramid,
articles removed, parts merged. Each check: FTS5's ``integrity-check`` against the table, the
index's rowids the table's, and the trigger back in place."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from paperpyramid.db import lexical_index, removal
from paperpyramid.db.parts import merge_parts
from paperpyramid.db.pyramid import ArticlePyramid, ConceptRow, InsightRow, LevelVectors, record_failure, store_pyramid, store_pyramids
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.document import Author, Block, Document, Section
from paperpyramid.tokens import TokenCounter

WORDS = ("frogs", "tadpoles", "wheat", "aroma", "sharks", "vertebrae", "clinics", "barriers")


@pytest.fixture(scope="module")
def counter() -> TokenCounter:
    return TokenCounter()


def paper(n: int, finding: str = "") -> Document:
    word = WORDS[n % len(WORDS)]
    return Document(
        title=f"What {word} tell us ({n})",
        authors=[Author("Ana Author")],
        abstract=f"About {word}.",
        date_published="2014",
        doi=f"10.1/paper.{n}",
        pmcid=f"PMC{1000 + n}",
        paged=False,
        sections=[Section("Results", 1, "1", blocks=[Block(f"The {word} of study {n} were counted. {finding}", 1)])],
        provenance={"sections": "test"},
    )


def stored(writer: CorpusWriter, numbers: range) -> list[tuple[str, str]]:
    """Small articles stored, by these numbers: (article id, its first context's id)."""
    out = []
    for n in numbers:
        article_id = writer.add_document(paper(n), source_uri=f"file:///{n}.pdf", sha256=f"sha-{n}")
        context = writer.db.execute("SELECT context_id FROM sections_contexts JOIN article_sections USING (section_id) "
                                    "WHERE article_id = ? LIMIT 1", [article_id]).fetchone()[0]  # fmt: skip
        out.append((article_id, str(context)))
    return out


def pyramid(article_id: str, context: str, n: int, version: str = "v1", vectors: bool = True) -> ArticlePyramid:
    word = WORDS[n % len(WORDS)]
    insights = [InsightRow(f"Insight {k} on {word} ({version}).", [1], "Results" if k % 2 else None, 5, [(context, 0.8)]) for k in range(3)]
    given = None
    if vectors:
        rng = np.random.default_rng(n)
        by_level = {"insights": rng.standard_normal((3, 4)).astype(np.float32), "concepts": rng.standard_normal((1, 4)).astype(np.float32),
                    "abstracts": rng.standard_normal((1, 4)).astype(np.float32)}  # fmt: skip
        given = LevelVectors("test:vectors", 4, None, by_level)
    return ArticlePyramid(article_id, "test:hand", version, insights, [ConceptRow(f"{word} concept", 2, [0, 2])], f"{word} abstract.", 2,
                          vectors=given)  # fmt: skip


def assert_index_is_table(conn: Any) -> None:
    """The insights' FTS5 index holds exactly the table's rows with their text (FTS5 raises otherwise)."""
    opened = not conn.in_transaction
    conn.execute("INSERT INTO insights_fts (insights_fts, rank) VALUES ('integrity-check', 1)")
    if opened and conn.in_transaction:  # the sqlite3 module began one for the INSERT: end it
        conn.commit()
    rowids = sorted(row[0] for row in conn.execute("SELECT rowid FROM insights"))
    assert sorted(row[0] for row in conn.execute("SELECT id FROM insights_fts_docsize")) == rowids
    assert conn.execute("SELECT sql FROM sqlite_master WHERE name = 'insights_ai'").fetchone() is not None


def hits(conn: Any, query: str) -> list[tuple[str, int]]:
    rows = conn.execute("SELECT i.text, i.position FROM insights_fts JOIN insights AS i ON i.rowid = insights_fts.rowid "
                        "WHERE insights_fts MATCH ? ORDER BY i.text", [query])  # fmt: skip
    return [(str(text), int(position)) for text, position in rows]


def content(conn: Any) -> dict[str, Any]:
    """What a reader sees of the pyramids, ids aside."""
    titles = dict(conn.execute("SELECT id, title FROM articles"))
    return {
        "insights": sorted((titles[a], p, t, s) for a, p, t, s in conn.execute("SELECT article_id, position, text, section FROM insights")),
        "concepts": sorted((titles[a], t) for a, t in conn.execute("SELECT article_id, text FROM concepts")),
        "links": conn.execute("SELECT count(*) FROM concepts_insights").fetchone()[0],
        "contexts": conn.execute("SELECT count(*) FROM insights_contexts").fetchone()[0],
        "abstracts": sorted((titles[a], t) for a, t in conn.execute("SELECT article_id, text FROM abstracts")),
        "done": sorted((titles[a], s, n) for a, s, n in conn.execute("SELECT article_id, status, attempts FROM distillations")),
        "vectors": [
            conn.execute(f"SELECT count(*) FROM vec_{level}_1_rowids").fetchone()[0]
            for level in ("insights", "concepts", "abstracts")
            if conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", [f"vec_{level}_1_rowids"]).fetchone()
        ],
        "hits": {word: hits(conn, word) for word in WORDS},
    }


def test_a_batch_stores_what_one_at_a_time_stores(tmp_path: Path, counter: TokenCounter) -> None:
    contents = []
    for name, batched in (("one", False), ("batch", True)):
        with CorpusWriter(tmp_path / f"{name}.sqlite", counter) as writer:
            conn = writer.db.conn
            articles = stored(writer, range(6))
            first = [pyramid(a, c, n) for n, (a, c) in enumerate(articles[:4])]
            # then: two replaced (one of them twice in the batch), two new
            second = [pyramid(a, c, n, "v2") for n, (a, c) in enumerate(articles) if n in (1, 4, 5)]
            second.append(pyramid(articles[1][0], articles[1][1], 1, "v3"))
            for group in (first, second):
                ids = store_pyramids(conn, group) if batched else [store_pyramid(conn, one) for one in group]
                assert [len(found["insights"]) for found in ids] == [3] * len(group)
                assert_index_is_table(conn)
            contents.append(content(conn))
    assert contents[0] == contents[1]
    assert [text for text, _ in contents[1]["hits"]["tadpoles"]] == [f"Insight {k} on tadpoles (v3)." for k in range(3)]
    assert ("What tadpoles tell us (1)", "done", 3) in contents[1]["done"]


def test_a_batch_adds_its_fts5_rows_in_one_statement(tmp_path: Path, counter: TokenCounter, monkeypatch: pytest.MonkeyPatch) -> None:
    setwise: list[str] = []
    index_added_rows = lexical_index.index_added_rows

    def spy(conn: Any, table: str, after_rowid: int) -> int:
        setwise.append(table)
        return index_added_rows(conn, table, after_rowid)

    monkeypatch.setattr(lexical_index, "index_added_rows", spy)
    with CorpusWriter(tmp_path / "c.sqlite", counter) as writer:
        conn = writer.db.conn
        articles = stored(writer, range(3))
        setwise.clear()
        store_pyramid(conn, pyramid(*articles[0], 0))  # one at a time (distill, import): the trigger
        assert setwise == []
        store_pyramids(conn, [pyramid(a, c, n, "v2") for n, (a, c) in enumerate(articles)])  # a batch: one statement
        assert setwise == ["insights", "concepts", "abstracts"]
        assert_index_is_table(conn)  # and not twice: the trigger was off meanwhile, and is back
        assert len(hits(conn, "frogs")) == 3


def test_a_failed_batch_leaves_the_index_and_trigger_as_they_were(tmp_path: Path, counter: TokenCounter) -> None:
    with CorpusWriter(tmp_path / "c.sqlite", counter) as writer:
        conn = writer.db.conn
        articles = stored(writer, range(2))
        store_pyramids(conn, [pyramid(a, c, n) for n, (a, c) in enumerate(articles)])
        before = content(conn)
        bad = pyramid(articles[1][0], "no such context", 1, "v2")
        with pytest.raises(sqlite3.IntegrityError):  # the link to a missing context (foreign key), after the insights went in
            store_pyramids(conn, [pyramid(articles[0][0], articles[0][1], 0, "v2"), bad])
        assert content(conn) == before
        assert_index_is_table(conn)
        with writer.db.atomic():  # inside an open transaction: its savepoint rolled back, the transaction goes on
            with pytest.raises(sqlite3.IntegrityError):
                store_pyramids(conn, [pyramid(articles[0][0], articles[0][1], 0, "v2"), bad])
            assert_index_is_table(conn)
        assert content(conn) == before


def test_every_path_that_writes_insights_keeps_the_index(tmp_path: Path, counter: TokenCounter) -> None:
    parts = [tmp_path / "part-1.sqlite", tmp_path / "part-2.sqlite"]
    for number, path in enumerate(parts):
        with CorpusWriter(path, counter) as writer:
            conn = writer.db.conn
            numbers = range(4) if number == 0 else range(4, 7)
            articles = stored(writer, numbers)
            store_pyramids(conn, [pyramid(a, c, n) for n, (a, c) in zip(numbers, articles, strict=True)])  # batch
            assert_index_is_table(conn)
            store_pyramid(conn, pyramid(*articles[0], numbers[0], "v2"))  # distill: one at a time, replacing
            assert_index_is_table(conn)
            record_failure(conn, articles[1][0], "test:hand", "v3", "timed out", [])  # a failed re-distillation keeps the pyramid
            assert_index_is_table(conn)
            if number == 0:
                # a newer version whose text changed drops the article's pyramid (its FTS5 rows with it)
                newer = dataclasses.replace(paper(2, "A new sentence."), title="What wheat tell us (2), revised")
                writer.add_document(newer, source_uri="file:///2-v2.pdf", sha256="sha-2-v2")
                assert conn.execute("SELECT count(*) FROM insights WHERE article_id = ?", [articles[2][0]]).fetchone()[0] == 0
                assert_index_is_table(conn)
                with writer.db.atomic():
                    removal.delete_articles(conn, [articles[3][0]])
                assert_index_is_table(conn)
                assert hits(conn, "aroma") == []
    merge_parts(parts, tmp_path / "merged.sqlite")
    conn = sqlite3.connect(tmp_path / "merged.sqlite")
    try:
        assert_index_is_table(conn)
        assert conn.execute("SELECT count(*) FROM insights").fetchone()[0] == 2 * 3 + 3 * 3
        assert len(hits(conn, "frogs")) == 3 and len(hits(conn, "clinics")) == 3
    finally:
        conn.close()
