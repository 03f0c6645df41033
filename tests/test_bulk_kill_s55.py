"""``kill -9`` of the writer in the middle of a bulk load, at the statements the bulk path adds:
the contexts' FTS5 rows of a batch, its vectors, the FTS5 rows of a batch of pyramids and an
insert trigger made again. The file is intact at once (every FTS5 index its table's, every
trigger in place), and a re-run of the load stores each article, vector and pyramid once: FTS5
finds the rows of the batch that was cut short, and each context has one vector."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from paperpyramid.contexts import split_section
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.pyramid import ArticlePyramid, ConceptRow, InsightRow, LevelVectors, store_pyramids
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.db.writer import ArticleInput, CorpusWriter
from paperpyramid.document import Block, Document, Section
from paperpyramid.normalise import normalise_document
from paperpyramid.tokens import TokenCounter

HERE = Path(__file__).resolve().parent
INDEXED = ("contexts", "insights", "concepts", "abstracts")
ARTICLES, BATCH, DIMENSION = 8, 4, 8


def the_articles(counter: TokenCounter) -> list[ArticleInput]:
    """Articles whose every context holds a word of its own article (``mark<n>``), with vectors."""
    out = []
    for n in range(ARTICLES):
        doc = normalise_document(Document(
            title=f"Paper {n} on frogs", doi=f"10.5555/kill.{n}", paged=False, provenance={"sections": "test"},
            sections=[Section(title, 1, str(k + 1), blocks=[Block(f"Mark{n} {title.lower()} of frogs that bear tadpoles, part {k}.", 1)])
                      for k, title in enumerate(("Introduction", "Methods", "Results"))],
        ))  # fmt: skip
        contexts = [split_section(section, counter) for section in doc.sections]
        matrix = np.random.default_rng(n).standard_normal((sum(map(len, contexts)), DIMENSION)).astype(np.float32)
        vectors = db_vectors.ContextVectors("test-model", DIMENSION, 256, matrix)
        out.append(ArticleInput(doc, f"file:///{n}.pdf", f"{n:064x}", contexts=contexts, vectors=vectors, normalised=True))
    return out


def pyramids_of(conn: Any, article_ids: list[str]) -> list[ArticlePyramid]:
    """A pyramid for each article, its words of the article's own (``insight<n>``, ``concept<n>``, ``abstract<n>``)."""
    out = []
    for article_id in article_ids:
        n = int(conn.execute("SELECT title FROM articles WHERE id = ?", [article_id]).fetchone()[0].split()[1])
        context = conn.execute("SELECT y.context_id FROM article_sections x JOIN sections_contexts y ON y.section_id = x.section_id "
                               "WHERE x.article_id = ? ORDER BY x.position, y.position LIMIT 1", [article_id]).fetchone()[0]  # fmt: skip
        rng = np.random.default_rng(100 + n)
        by_level = {level: rng.standard_normal((size, DIMENSION)).astype(np.float32) for level, size in
                    (("insights", 2), ("concepts", 1), ("abstracts", 1))}  # fmt: skip
        out.append(ArticlePyramid(
            article_id, "test:hand", "v1", [InsightRow(f"Insight{n} number {k}.", [1], "Results", 4, [(context, 0.9)]) for k in range(2)],
            [ConceptRow(f"Concept{n} of frogs", 3, [0, 1])], f"Abstract{n}: frogs bear tadpoles.", 5,
            vectors=LevelVectors("test-model", DIMENSION, 256, by_level),
        ))  # fmt: skip
    return out


def load(writer: CorpusWriter, articles: list[ArticleInput]) -> None:
    """The bulk load: the articles ``BATCH`` to a transaction, each batch's pyramids in one more,
    skipping what the file has (an article logged done, a pyramid distilled)."""
    conn = writer.db.conn
    done = {str(row[0]) for row in conn.execute("SELECT source_uri FROM ingest_log WHERE status = 'done'")}
    waiting = [article for article in articles if article.source_uri not in done]
    for start in range(0, len(waiting), BATCH):
        outcomes = writer.store_many(waiting[start : start + BATCH])
        assert all(isinstance(outcome, str) for outcome in outcomes), outcomes
    undistilled = [str(row[0]) for row in conn.execute("SELECT id FROM articles WHERE id NOT IN "
                                                       "(SELECT article_id FROM distillations WHERE status = 'done') ORDER BY rowid")]  # fmt: skip
    for start in range(0, len(undistilled), BATCH):
        store_pyramids(conn, pyramids_of(conn, undistilled[start : start + BATCH]))


_KILLED = """
import os, signal, sys
sys.path.insert(0, sys.argv[3])
from test_bulk_kill_s55 import BATCH, load, the_articles
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.tokens import TokenCounter

def die(statement):
    if statement.startswith(sys.argv[2]):
        os.kill(os.getpid(), signal.SIGKILL)

counter = TokenCounter()
articles = the_articles(counter)
with CorpusWriter(sys.argv[1], counter) as writer:
    load(writer, articles[:BATCH])
    writer.db.conn.set_trace_callback(die)
    load(writer, articles)
"""


def check_intact(path: Path) -> dict[str, int]:
    """The file sound, every FTS5 index its table's with its trigger, each stored row once; the counts."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        for table in INDEXED:
            conn.execute(f"INSERT INTO {table}_fts ({table}_fts, rank) VALUES ('integrity-check', 1)")  # raises when the index is wrong
            rows = conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
            assert conn.execute(f"SELECT count(*) FROM {table}_fts_docsize").fetchone()[0] == rows
            assert conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?", [f"{table}_ai"]).fetchone()
        counts = {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in ("articles", *INDEXED, "ingest_log")}
        if conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'vec_contexts_1_rowids'").fetchone():
            for level in ("contexts", "insights"):
                keys = [row[0] for row in conn.execute(f"SELECT id FROM vec_{level}_1_rowids")]
                assert len(keys) == len(set(keys)) == counts[level]  # one vector a row, none twice
        return counts
    finally:
        conn.rollback()
        conn.close()


@pytest.mark.parametrize(
    "statement",
    ['INSERT INTO main."contexts_fts"', "INSERT INTO vec_contexts_1", 'INSERT INTO main."concepts_fts"', 'CREATE TRIGGER "abstracts_ai"'],
)
def test_kill_9_mid_load_then_rerun_indexes_each_row_once(tmp_path: Path, statement: str) -> None:
    path = tmp_path / "corpus.sqlite"
    process = subprocess.run([sys.executable, "-c", _KILLED, str(path), statement, str(HERE)], cwd=HERE.parent, capture_output=True,
                             env={**os.environ, "HF_HUB_OFFLINE": "1"}, timeout=300)  # fmt: skip
    assert process.returncode == -signal.SIGKILL, process.stderr.decode()[-2000:]
    killed = check_intact(path)
    assert killed["articles"] == killed["ingest_log"] in (BATCH, 2 * BATCH)  # whole batches or none of one
    assert killed["insights"] in (2 * BATCH, 4 * BATCH)
    counter = TokenCounter()
    with CorpusWriter(path, counter) as writer:
        load(writer, the_articles(counter))
    counts = check_intact(path)
    assert counts == {"articles": ARTICLES, "contexts": 3 * ARTICLES, "insights": 2 * ARTICLES, "concepts": ARTICLES,
                      "abstracts": ARTICLES, "ingest_log": ARTICLES}  # fmt: skip
    conn = sqlite3.connect(path)
    try:
        for n in range(BATCH, ARTICLES):  # the batch cut short, found by FTS5 at every level
            assert conn.execute("SELECT count(*) FROM contexts_fts WHERE contexts_fts MATCH ?", [f"mark{n}"]).fetchone()[0] == 3
            for level, word in (("insights", "insight"), ("concepts", "concept"), ("abstracts", "abstract")):
                found = conn.execute(f"SELECT count(*) FROM {level}_fts WHERE {level}_fts MATCH ?", [f"{word}{n}"]).fetchone()[0]
                assert found == (2 if level == "insights" else 1)
    finally:
        conn.close()
