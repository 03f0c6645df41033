"""The approximate vector index (paperpyramid.db.vector_index) against exact search, on a small
synthetic corpus of clustered unit vectors written through the real schema."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from paperpyramid.db import vector_index
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.writer import connect

DIM = 384


def _clustered(count: int, seed: int) -> npt.NDArray[np.float32]:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((40, DIM)).astype(np.float32)
    data = centres[rng.integers(0, len(centres), count)] + 0.6 * rng.standard_normal((count, DIM)).astype(np.float32)
    data /= np.linalg.norm(data, axis=1, keepdims=True)
    return data.astype(np.float32)


def _add(conn: Any, embedder: db_vectors.EmbedderRow, start: int, data: npt.NDArray[np.float32]) -> list[str]:
    ids = [f"c{start + i:06d}" for i in range(len(data))]
    conn.execute("BEGIN")
    conn.executemany(
        "INSERT INTO contexts (id, text, num_tokens, stop_reason) VALUES (?, ?, 1, 'Section')",
        [(context_id, f"text {context_id}") for context_id in ids],
    )
    db_vectors.insert_vectors(conn, embedder, ids, data)
    conn.execute("COMMIT")
    return ids


@pytest.fixture
def corpus(tmp_path: Path) -> tuple[Any, db_vectors.EmbedderRow]:
    db = connect(tmp_path / "corpus.sqlite")
    conn = db.conn
    conn.isolation_level = None
    conn.execute("BEGIN")
    embedder = db_vectors.ensure_embedder(conn, "test-model", DIM, 256)
    conn.execute("COMMIT")
    _add(conn, embedder, 0, _clustered(3000, seed=1))
    return conn, embedder


def test_search_agrees_with_exact(corpus: tuple[Any, db_vectors.EmbedderRow]) -> None:
    conn, embedder = corpus
    assert not vector_index.is_current(conn, embedder)
    with pytest.raises(LookupError):
        vector_index.search(conn, embedder, _clustered(1, seed=9)[0], 10)
    status = vector_index.build_index(conn, embedder)
    assert status == vector_index.IndexStatus(exists=True, lists=55, trained_on=3000, indexed=3000, current=True)
    assert vector_index.is_current(conn, embedder)
    queries = _clustered(40, seed=2)
    recalls = []
    for query in queries:
        exact = db_vectors.nearest(conn, embedder, query, 10)
        found = vector_index.search(conn, embedder, query, 10)
        assert len(found) == 10
        assert [d for _, d in found] == sorted(d for _, d in found)
        exact_distance = dict(exact)
        for context_id, distance in found:  # the distances are the exact ones
            if context_id in exact_distance:
                assert distance == pytest.approx(exact_distance[context_id], abs=1e-5)
        recalls.append(len({c for c, _ in exact} & {c for c, _ in found}) / 10)
    assert float(np.mean(recalls)) >= 0.9
    # probing every list with a shortlist of everything is exact
    for query in queries[:5]:
        exact_ids = [c for c, _ in db_vectors.nearest(conn, embedder, query, 10)]
        assert [c for c, _ in vector_index.search(conn, embedder, query, 10, nprobe=10_000, shortlist=10_000)] == exact_ids


def test_incremental_build_adds_only_new_vectors(corpus: tuple[Any, db_vectors.EmbedderRow]) -> None:
    conn, embedder = corpus
    vector_index.build_index(conn, embedder)
    generation = conn.execute(f"SELECT generation FROM {embedder.vec_table}_ivf_meta").fetchone()[0]
    new = _clustered(200, seed=3)
    new_ids = _add(conn, embedder, 3000, new)
    assert not vector_index.is_current(conn, embedder)  # new vectors: retrieval must search exactly
    seen: list[tuple[int, int]] = []
    status = vector_index.build_index(conn, embedder, on_progress=lambda done, total: seen.append((done, total)))
    assert seen == [(200, 200)]  # only the new ones were indexed
    assert status.indexed == 3200 and status.trained_on == 3000 and status.current
    assert conn.execute(f"SELECT generation FROM {embedder.vec_table}_ivf_meta").fetchone()[0] == generation  # not retrained
    assert vector_index.is_current(conn, embedder)
    # a new vector is found as its own nearest neighbour
    for context_id, vector in zip(new_ids[:20], new[:20], strict=True):
        assert vector_index.search(conn, embedder, vector, 1)[0][0] == context_id
    lists_total = conn.execute(f"SELECT sum(length(rowids)) / 8 FROM {embedder.vec_table}_ivf_lists").fetchone()[0]
    assert lists_total == 3200


@pytest.mark.slow
def test_rebuild_is_idempotent_and_retrains_on_growth(corpus: tuple[Any, db_vectors.EmbedderRow]) -> None:
    conn, embedder = corpus
    first = vector_index.build_index(conn, embedder)
    tables = conn.execute("SELECT name FROM sqlite_master WHERE name LIKE '%_ivf_%' ORDER BY name").fetchall()
    snapshot = conn.execute(f"SELECT list, rowids, codes FROM {embedder.vec_table}_ivf_lists ORDER BY list").fetchall()
    seen: list[tuple[int, int]] = []
    again = vector_index.build_index(conn, embedder, on_progress=lambda done, total: seen.append((done, total)))
    assert again == first and seen == []
    assert conn.execute("SELECT name FROM sqlite_master WHERE name LIKE '%_ivf_%' ORDER BY name").fetchall() == tables
    assert conn.execute(f"SELECT list, rowids, codes FROM {embedder.vec_table}_ivf_lists ORDER BY list").fetchall() == snapshot
    # four times the training set: the lists are retrained over everything
    _add(conn, embedder, 3000, _clustered(9000, seed=4))
    grown = vector_index.build_index(conn, embedder)
    assert grown.trained_on == 12000 and grown.indexed == 12000 and grown.lists == 110 and grown.current


def test_build_inside_the_callers_transaction_rolls_back_with_it(corpus: tuple[Any, db_vectors.EmbedderRow]) -> None:
    conn, embedder = corpus
    conn.execute("BEGIN")
    vector_index.build_index(conn, embedder)
    assert vector_index.is_current(conn, embedder)
    conn.execute("ROLLBACK")
    assert not vector_index.index_status(conn, embedder).exists
