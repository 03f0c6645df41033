"""The approximate vector index keeps 4-bit codes (paperpyramid.db.vector_codes), not a copy of
the stored vectors: it re-ranks its shortlist by them and reads the best few's vectors from
sqlite-vec's own chunks (paperpyramid.db.vec_chunks) for their exact distances. An index made
before (its own copy of the vectors) keeps answering, and is rebuilt with codes at its next
build; chunks that cannot be read in place are read through the vec0 table, with a log line."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from paperpyramid.db import vec_chunks, vector_index
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.vector_codes import Quantiser
from paperpyramid.db.writer import connect

DIM = 384
F32 = npt.NDArray[np.float32]
Embedder = db_vectors.EmbedderRow


def _clustered(count: int, seed: int, dimension: int = DIM) -> F32:
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((30, dimension)).astype(np.float32)
    data = centres[rng.integers(0, len(centres), count)] + 0.6 * rng.standard_normal((count, dimension)).astype(np.float32)
    return (data / np.linalg.norm(data, axis=1, keepdims=True)).astype(np.float32)


def _corpus(tmp_path: Path, storage: db_vectors.VectorStorage, count: int = 2500) -> tuple[Any, Embedder]:
    """A corpus of ``count`` contexts with vectors in ``storage`` (more than two of sqlite-vec's chunks)."""
    conn = connect(tmp_path / f"{storage}.sqlite").conn
    conn.isolation_level = None
    conn.execute("BEGIN")
    embedder = db_vectors.ensure_embedder(conn, "test-model", DIM, 256, storage)
    ids = [f"c{i:06d}" for i in range(count)]
    conn.executemany(
        "INSERT INTO contexts (id, text, num_tokens, stop_reason) VALUES (?, ?, 1, 'Section')", [(i, f"text {i}") for i in ids]
    )
    db_vectors.insert_vectors(conn, embedder, ids, _clustered(count, seed=1))
    conn.execute("COMMIT")
    return conn, embedder


def _tables(conn: Any, embedder: Embedder) -> dict[str, list[str]]:
    names = [
        str(row[0])
        for row in conn.execute("SELECT name FROM sqlite_master WHERE name LIKE ? ORDER BY name", [f"{embedder.vec_table}_ivf_%"])
    ]
    return {name: [str(row[1]) for row in conn.execute(f"PRAGMA table_info({name})")] for name in names}


def _answers(conn: Any, embedder: Embedder, queries: F32, k: int = 10) -> list[list[tuple[str, float]]]:
    return [vector_index.search(conn, embedder, query, k) for query in queries]


def _recall(conn: Any, embedder: Embedder, queries: F32) -> float:
    found = [{c for c, _ in vector_index.search(conn, embedder, query, 10)} for query in queries]
    exact = [{c for c, _ in db_vectors.nearest(conn, embedder, query, 10)} for query in queries]
    return float(np.mean([len(a & b) / 10 for a, b in zip(found, exact, strict=True)]))


def _with_its_own_copy(conn: Any, embedder: Embedder) -> None:
    """Turn the index into the shape indexes had before the 4-bit codes: its own copy of every
    vector (``_ivf_vectors``) and a meta row without the quantiser."""
    table = embedder.vec_table
    conn.execute("BEGIN")
    conn.execute(f"CREATE TABLE {table}_ivf_vectors (rowid INTEGER PRIMARY KEY, context_id TEXT NOT NULL, embedding BLOB NOT NULL)")
    conn.execute(
        f"INSERT INTO {table}_ivf_vectors SELECT c.rowid, c.id, v.embedding FROM {table} AS v JOIN contexts AS c ON c.id = v.context_id "
        f"WHERE c.rowid IN (SELECT rowid FROM {table}_ivf_codes)"
    )
    conn.execute(f"DROP TABLE {table}_ivf_codes")
    conn.execute(f"ALTER TABLE {table}_ivf_meta DROP COLUMN code_low")
    conn.execute(f"ALTER TABLE {table}_ivf_meta DROP COLUMN code_step")
    conn.execute(f"UPDATE {table}_ivf_meta SET generation = 'made-before-codes'")
    conn.execute("COMMIT")


class _WithoutBlobReads:
    """A connection whose sqlite3 module cannot read part of a BLOB (as if sqlite-vec's chunks
    could not be read in place)."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    def execute(self, *args: Any) -> Any:
        return self._conn.execute(*args)


@pytest.mark.parametrize("storage", ["int8", "float32"])
def test_the_index_keeps_4_bit_codes_and_answers_with_exact_distances(tmp_path: Path, storage: db_vectors.VectorStorage) -> None:
    conn, embedder = _corpus(tmp_path, storage)
    vector_index.build_index(conn, embedder)
    table = embedder.vec_table
    assert _tables(conn, embedder)[f"{table}_ivf_codes"] == ["rowid", "vector", "code"], "no copy of the vectors"
    assert f"{table}_ivf_vectors" not in _tables(conn, embedder)
    assert {row[0] for row in conn.execute(f"SELECT length(code) FROM {table}_ivf_codes")} == {DIM // 2}
    queries = _clustered(30, seed=2)
    assert _recall(conn, embedder, queries) >= 0.95
    for query in queries[:10]:
        found = vector_index.search(conn, embedder, query, 10)
        exact = db_vectors.distances(conn, embedder, query, [c for c, _ in found])
        assert [d for _, d in found] == pytest.approx([exact[c] for c, _ in found], abs=1e-5), "sqlite-vec's distances"
    for query in queries[:5]:  # every list probed, everything compared: exact search's answers
        nearest = db_vectors.nearest(conn, embedder, query, 10)
        found = vector_index.search(conn, embedder, query, 10, nprobe=10_000, shortlist=10_000)
        assert [c for c, _ in found] == [c for c, _ in nearest]
        assert np.allclose([d for _, d in found], [d for _, d in nearest], atol=1e-5)


def test_each_code_names_its_vectors_place_and_answers_without_it(tmp_path: Path) -> None:
    """A code keeps its vector's rowid in sqlite-vec's ``_rowids`` (the exact step reads where the
    vector is from there, without looking the context's id up); without it (a layout that has no
    such table) the vectors are found by their contexts' ids, with the same answers."""
    conn, embedder = _corpus(tmp_path, "int8")
    vector_index.build_index(conn, embedder)
    table = embedder.vec_table
    wrong = conn.execute(
        f"SELECT count(*) FROM {table}_ivf_codes AS i JOIN contexts AS c ON c.rowid = i.rowid "
        f"LEFT JOIN {table}_rowids AS r ON r.id = c.id WHERE r.rowid IS NOT i.vector"
    ).fetchone()[0]
    assert wrong == 0
    queries = _clustered(10, seed=5)
    before = _answers(conn, embedder, queries)
    conn.execute(f"UPDATE {table}_ivf_codes SET vector = NULL")
    assert _answers(conn, embedder, queries) == before


def test_an_index_with_its_own_copy_answers_until_its_next_build_makes_codes(tmp_path: Path) -> None:
    conn, embedder = _corpus(tmp_path, "int8")
    vector_index.build_index(conn, embedder)
    _with_its_own_copy(conn, embedder)
    queries = _clustered(20, seed=3)
    assert vector_index.is_current(conn, embedder)
    assert vector_index.index_status(conn, embedder).indexed == 2500
    assert _recall(conn, embedder, queries) >= 0.95, "read from its copy"
    vector_index.forget(conn, embedder, ["c000000"])
    assert conn.execute(f"SELECT count(*) FROM {embedder.vec_table}_ivf_vectors").fetchone()[0] == 2499
    status = vector_index.build_index(conn, embedder)
    assert status.current and status.indexed == 2500
    assert f"{embedder.vec_table}_ivf_codes" in _tables(conn, embedder)
    assert f"{embedder.vec_table}_ivf_vectors" not in _tables(conn, embedder)
    assert _recall(conn, embedder, queries) >= 0.95


def test_a_context_forgotten_or_whose_vector_went_is_never_returned(tmp_path: Path) -> None:
    conn, embedder = _corpus(tmp_path, "int8")
    vector_index.build_index(conn, embedder)
    query = _clustered(1, seed=4)[0]
    first, second = (c for c, _ in vector_index.search(conn, embedder, query, 2))
    db_vectors.delete_vectors(conn, [first])
    vector_index.forget(conn, embedder, [second])
    found = [c for c, _ in vector_index.search(conn, embedder, query, 10)]
    assert first not in found and second not in found and len(found) == 10


def test_unreadable_chunks_are_read_through_the_vec0_table_with_a_log_line(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    conn, embedder = _corpus(tmp_path, "int8")
    vector_index.build_index(conn, embedder)
    queries = _clustered(10, seed=5)
    in_place = _answers(conn, embedder, queries)
    with caplog.at_level(logging.WARNING, logger="paperpyramid.db.vec_chunks"):
        assert _answers(_WithoutBlobReads(conn), embedder, queries) == in_place
    assert "one by one" in caplog.text


def test_another_layout_of_sqlite_vecs_tables_is_caught(tmp_path: Path) -> None:
    conn, embedder = _corpus(tmp_path, "int8", count=10)
    table = embedder.vec_table
    assert vec_chunks.layout_problem(conn, table, "context_id", DIM) is None
    assert "cannot read a BLOB" in str(vec_chunks.layout_problem(_WithoutBlobReads(conn), table, "context_id", DIM))
    assert "not the one" in str(vec_chunks.layout_problem(conn, table, "context_id", 4 * DIM))  # float32 widths over int8 vectors
    conn.execute("CREATE TABLE vec_contexts_9_rowids (rowid INTEGER PRIMARY KEY, id TEXT, chunk INTEGER)")
    assert "columns" in str(vec_chunks.layout_problem(conn, "vec_contexts_9", "context_id", DIM))


@pytest.mark.parametrize("dimension", [384, 7])
def test_4_bit_cosines_are_those_of_the_levels_middles(dimension: int) -> None:
    data = _clustered(600, seed=6, dimension=dimension)  # three blocks of codes scored at once
    quantiser = Quantiser.train(data)
    codes = quantiser.encode(data)
    assert {len(code) for code in codes} == {(dimension + 1) // 2}
    packed = np.frombuffer(b"".join(codes), dtype=np.uint8).reshape(len(codes), -1)
    levels = np.stack([packed & 0x0F, packed >> 4], axis=2).reshape(len(codes), -1)[:, :dimension]
    vectors = quantiser.low + (levels + 0.5) * quantiser.step
    query = _clustered(1, seed=7, dimension=dimension)[0]
    expected = vectors @ query / np.linalg.norm(vectors, axis=1) / np.linalg.norm(query)
    assert np.allclose(quantiser.cosines(codes, query), expected, atol=1e-5)
    assert np.corrcoef(quantiser.cosines(codes, query), data @ query)[0, 1] > 0.99, "close to the vectors' own cosines"


def test_each_file_has_its_layout_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    checked: list[str] = []
    check = vec_chunks.layout_problem

    def counted(conn: Any, table: str, key: str, width: int) -> str | None:
        checked.append(next(str(row[2]) for row in conn.execute("PRAGMA database_list") if row[1] == "main"))
        return check(conn, table, key, width)

    monkeypatch.setattr(vec_chunks, "layout_problem", counted)
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        conn, embedder = _corpus(tmp_path / folder, "int8", count=300)
        vector_index.build_index(conn, embedder)
        for _ in range(2):
            _answers(conn, embedder, _clustered(2, seed=7))
    assert len(checked) == len(set(checked)) == 2
