"""The building blocks of ``benchmarks/corpus_scale.py``: copies of real articles written through
the real writer are new articles (their own ids, sha256, DOI), carry their pyramid, and can be
searched and recollected."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import corpus_scale  # noqa: E402

from paperpyramid.db import sqlite as db_sqlite  # noqa: E402
from paperpyramid.db import vectors as db_vectors  # noqa: E402
from paperpyramid.document import Block, Section  # noqa: E402


def _source(index: int) -> corpus_scale.SourceArticle:
    """A small real-looking article: two sections, six contexts with unit vectors."""
    from paperpyramid.contexts import ContextDraft

    rng = np.random.default_rng(index)
    texts = [f"Sentence {i} of paper {index} about frogs and sharks measured in 2014. More words follow here." for i in range(6)]
    drafts = [
        [ContextDraft(t, 1, 20, "Section", "paragraph") for t in texts[:3]],
        [ContextDraft(t, 2, 20, "Section", "paragraph") for t in texts[3:]],
    ]
    sections = [
        Section("Introduction", 1, "1", None, [Block(t, 1) for t in texts[:3]]),
        Section("Methods", 1, "2", None, [Block(t, 2) for t in texts[3:]]),
    ]
    vectors = rng.standard_normal((6, corpus_scale.DIM)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    row = {
        "title": f"Paper {index}",
        "abstract": "An abstract about frogs.",
        "doi": f"10.1/p{index}",
        "sha256": f"{index:064x}",
        "pages": 2,
        "authors": "[]",
    }
    source = corpus_scale.SourceArticle(row, sections, drafts, vectors, [], [], [], [])
    source.pyramid = corpus_scale._derived_pyramid(source)
    return source


def test_fifty_copies_are_new_articles_that_search_finds(tmp_path: Path) -> None:
    sources = [_source(i) for i in range(3)]
    args = argparse.Namespace(contexts_per_copy=4, insights_per_copy=3, chunk=25, deadline=0.0)
    path = tmp_path / "corpus.sqlite"
    result = corpus_scale.grow(path, sources, 50, args, log=lambda _: None)
    assert result["to"] == 50
    result = corpus_scale.grow(path, sources, 50, args, log=lambda _: None)  # resumable: nothing more to add
    assert result["from"] == 50
    conn = db_sqlite.connect(path, read_only=True)
    assert conn.execute("SELECT count(*), count(DISTINCT sha256), count(DISTINCT doi), count(DISTINCT title) FROM articles").fetchone() == (
        50,
        50,
        50,
        50,
    )
    assert conn.execute("SELECT count(*) FROM contexts").fetchone()[0] == 50 * 4
    assert conn.execute("SELECT count(*) FROM abstracts").fetchone()[0] == 50
    assert conn.execute("SELECT count(*) FROM insights").fetchone()[0] == 50 * 3
    assert conn.execute("SELECT count(*) FROM distillations WHERE recollected = 1").fetchone()[0] == 50
    row = db_vectors.find_embedder(conn, corpus_scale.EMBEDDER)
    assert row is not None and db_vectors.count_vectors(conn, row) == 200
    conn.close()
    indexes = corpus_scale.maintain_indexes(path)
    assert set(indexes) == {"bm25_index_s", "vector_index_s"}
    qv = sources[0].vectors[0]
    search = corpus_scale.measure_search(path, ["frogs and sharks"], qv[None, :])
    assert all(search[mode]["empty"] == 0 for mode in corpus_scale.MODES)
    recollected = corpus_scale.measure_recollections(path, sources, 1, args)
    assert recollected["articles"] == 51 and recollected["nearest_abstracts_found"] == recollected["nearest_abstracts_asked"]
    assert recollected["recollections_written"] == 1


def test_the_two_write_paths_store_the_same_copies(tmp_path: Path) -> None:
    sources = [_source(i) for i in range(3)]
    result = corpus_scale.compare_writers(tmp_path, sources, 20, 4, log=lambda _: None)
    assert result["articles"] == 20 and result["ratio_store_per_s"] > 0
    texts = {}
    for name in ("today", "bulk"):
        conn = db_sqlite.connect(tmp_path / f"writers-{name}.sqlite")
        assert conn.execute("SELECT count(*), count(DISTINCT sha256) FROM articles").fetchone() == (20, 20)
        assert conn.execute("SELECT count(*) FROM ingest_log WHERE status = 'done'").fetchone()[0] == 20
        assert conn.execute("SELECT count(*) FROM abstracts").fetchone()[0] == 20
        conn.execute("INSERT INTO contexts_fts (contexts_fts, rank) VALUES ('integrity-check', 1)")  # raises when the index is wrong
        texts[name] = sorted(
            conn.execute("SELECT c.text FROM contexts_fts f JOIN contexts c ON c.rowid = f.rowid WHERE contexts_fts MATCH 'frogs'")
        )
        conn.close()
    assert texts["today"] == texts["bulk"] and len(texts["bulk"]) > 20
    assert "bulk / today" in corpus_scale.writers_report(result)
