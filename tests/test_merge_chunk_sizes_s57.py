"""A corpus whose vec0 tables hold sqlite-vec's default 1,024 vectors a chunk (made before new
tables held 128) merges a part made now: the tables' storage must match, not their whole SQL."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.parts import merge_parts
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.tokens import TokenCounter
from tests.test_merge_parts import paper


def _written(path: Path, topic: str, rng: np.random.Generator) -> None:
    with CorpusWriter(path, TokenCounter()) as writer:
        writer.add_document(paper(topic), source_uri=f"file:///{topic}.pdf", sha256=f"sha-{topic}")
        missing = db_vectors.contexts_without_vectors(writer.db.conn, None, 1000)
        vectors = rng.standard_normal((len(missing), 384)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        writer.add_vectors(db_vectors.ContextVectors("m", 384, 256, vectors), [context for _, context, _ in missing])


def _with_chunks_of_1024(path: Path) -> None:
    conn = db_sqlite.connect(path)
    db_sqlite.load_vec(conn)
    with conn:
        rows = conn.execute("SELECT context_id, embedding FROM vec_contexts_1").fetchall()
        conn.execute("DROP TABLE vec_contexts_1")
        conn.execute(
            "CREATE VIRTUAL TABLE vec_contexts_1 USING vec0(context_id TEXT PRIMARY KEY, embedding int8[384] distance_metric=cosine)"
        )
        conn.executemany("INSERT INTO vec_contexts_1 VALUES (?, vec_int8(?))", rows)
    conn.close()


def test_a_part_made_now_merges_into_a_corpus_of_1024_vector_chunks(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    _written(tmp_path / "corpus.sqlite", "frog", rng)
    _written(tmp_path / "part.sqlite", "shark", rng)
    _with_chunks_of_1024(tmp_path / "corpus.sqlite")
    merge_parts([tmp_path / "part.sqlite"], tmp_path / "corpus.sqlite")
    conn = db_sqlite.connect(tmp_path / "corpus.sqlite", read_only=True)
    db_sqlite.load_vec(conn)
    try:
        contexts = conn.execute("SELECT count(*) FROM contexts").fetchone()[0]
        assert conn.execute("SELECT count(*) FROM vec_contexts_1").fetchone()[0] == contexts > 0
        assert "chunk_size" not in conn.execute("SELECT sql FROM sqlite_master WHERE name = 'vec_contexts_1'").fetchone()[0]
    finally:
        conn.close()
