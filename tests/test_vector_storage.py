"""Stored vectors as int8 or float32 (paperpyramid.db.vectors): the codes' error on real MiniLM
vectors, search over an int8 corpus against the same corpus in float32, an old float32 corpus
still searched, and the approximate index and the pyramid's levels over int8 tables."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from paperpyramid import Corpus
from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.db import vector_index
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.writer import connect
from paperpyramid.embeddings.minilm import MiniLM
from paperpyramid.ingestion import ingest
from paperpyramid.settings import EmbeddingSettings, IngestSettings, Settings
from tests.conftest import SAMPLE

FROG = "10.1371/journal.pone.0115884"
MODEL = "all-MiniLM-L6-v2"
QUERIES = [
    "frogs that give birth to tadpoles after internal fertilization",
    "how were the animals killed humanely before preservation",
    "digital calipers measurements",
    "barriers to accessing health services",
    "volatile compounds of durum wheat",
    "gas chromatography mass spectrometry of grain",
    "interviews with health workers about obstacles",
    "snout-vent length of the specimens",
    "statistical analysis of the questionnaire",
    "the colour of the eggs in the oviduct",
]


@pytest.fixture(scope="module")
def minilm() -> MiniLM:
    return MiniLM()


@pytest.fixture(scope="module")
def float32_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample ingested with MiniLM vectors into a float32 table, as corpora made before int8 hold them."""
    db = tmp_path_factory.mktemp("float32") / "sample.sqlite"
    conn = connect(db).conn
    with conn:  # the table an older paperpyramid made: vec0 float[384]
        db_vectors.ensure_embedder(conn, MODEL, 384, 256, "float32")
    conn.close()
    summary = ingest([SAMPLE], db, Settings(ingest=IngestSettings(workers=0, embed=True)))
    assert summary.count("done") == 3
    return db


@pytest.fixture(scope="module")
def int8_corpus(float32_corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same corpus with its vectors rewritten as int8."""
    db = tmp_path_factory.mktemp("int8") / "sample.sqlite"
    shutil.copyfile(float32_corpus, db)
    conn = db_sqlite.connect(db)
    db_sqlite.load_vec(conn)
    with conn:
        row = db_vectors.find_embedder(conn, MODEL)
        assert row is not None
        assert vector_index.convert_storage(conn, row, "int8").storage == "int8"
    conn.close()
    return db


def _stored(db: Path) -> tuple[list[str], list[bytes], db_vectors.EmbedderRow]:
    conn = db_sqlite.connect(db, read_only=True)
    db_sqlite.load_vec(conn)
    try:
        row = db_vectors.find_embedder(conn, MODEL)
        assert row is not None
        rows = conn.execute(f"SELECT context_id, embedding FROM {row.vec_table} ORDER BY context_id").fetchall()
        return [str(r[0]) for r in rows], [bytes(r[1]) for r in rows], row
    finally:
        conn.close()


def test_int8_codes_keep_real_embeddings_within_half_a_step(float32_corpus: Path) -> None:
    _, blobs, row = _stored(float32_corpus)
    assert row.storage == "float32" and all(len(blob) == 4 * 384 for blob in blobs)
    vectors = db_vectors.decode(blobs, 384)  # real MiniLM vectors of the sample's contexts
    assert len(vectors) > 100
    codes = np.stack([np.frombuffer(blob, dtype=np.int8) for blob in db_vectors.encode(vectors, "int8")]).astype(np.float32)
    peak = np.abs(vectors).max(axis=1, keepdims=True)
    assert np.abs(codes).max(axis=1).min() == 127, "each vector's largest coordinate takes the full range"
    # every coordinate within half a step of its code, the step being the vector's own peak / 127
    assert np.all(np.abs(codes * peak / 127 - vectors) <= peak / 254 + 1e-7)
    decoded = db_vectors.decode(db_vectors.encode(vectors, "int8"), 384)
    assert np.allclose(np.linalg.norm(decoded, axis=1), 1.0, atol=1e-6)
    cosine = (decoded * vectors).sum(axis=1)
    assert cosine.min() >= 0.9999, f"worst cosine to the float32 vector {cosine.min():.6f}"
    assert np.array_equal(db_vectors.decode(db_vectors.encode(vectors, "float32"), 384), vectors), "float32 is stored as it is"


def test_int8_table_holds_a_quarter_of_the_bytes(float32_corpus: Path, int8_corpus: Path) -> None:
    ids32, blobs32, _ = _stored(float32_corpus)
    ids8, blobs8, row = _stored(int8_corpus)
    assert row.storage == "int8" and ids8 == ids32
    assert {len(blob) for blob in blobs8} == {384}
    cosine = (db_vectors.decode(blobs8, 384) * db_vectors.decode(blobs32, 384)).sum(axis=1)
    assert cosine.min() >= 0.9999


@pytest.mark.parametrize("mode", ["vector", "hybrid", "parent"])
def test_int8_search_gives_float32s_top_results(float32_corpus: Path, int8_corpus: Path, minilm: MiniLM, mode: str) -> None:
    overlaps = []
    with Corpus.open(float32_corpus, embedder=minilm) as exact, Corpus.open(int8_corpus, embedder=minilm) as small:
        for query in QUERIES:
            want = [(hit.context_id, hit.score) for hit in exact.retrieve(query, mode=mode, k=10)]
            got = [(hit.context_id, hit.score) for hit in small.retrieve(query, mode=mode, k=10)]
            scores = dict(want)
            # the best hit is float32's, or one within float32's top 3 that ties it within the codes' error
            assert got[0][0] in [c for c, _ in want[:3]], f"{mode}: the best hit for {query!r} left float32's top 3"
            overlaps.append(len({c for c, _ in got} & {c for c, _ in want}) / len(want))
            if mode == "vector":  # cosine similarities within the codes' error
                assert scores[got[0][0]] >= want[0][1] - 2e-3
                assert all(abs(score - scores[c]) < 2e-3 for c, score in got if c in scores)
    assert float(np.mean(overlaps)) >= 0.95, f"{mode}: mean top-10 overlap {np.mean(overlaps):.3f}"


def test_old_float32_corpus_opens_and_searches(float32_corpus: Path, minilm: MiniLM) -> None:
    conn = db_sqlite.connect(float32_corpus, read_only=True)
    try:
        sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'vec_contexts_1'").fetchone()[0]
    finally:
        conn.close()
    assert "float[384]" in sql
    with Corpus.open(float32_corpus, embedder=minilm) as corpus:
        frog = corpus.article(FROG)
        for mode in ("vector", "hybrid", "parent"):
            hits = corpus.retrieve("frogs that give birth to tadpoles after internal fertilization", mode=mode, k=5)
            assert hits and hits[0].citation.article_id == frog.id, mode


def test_a_model_new_to_a_corpus_stores_int8_by_default(tmp_path: Path) -> None:
    conn = connect(tmp_path / "corpus.sqlite").conn
    with conn:
        row = db_vectors.ensure_embedder(conn, "m", 384, 256)
        assert row.storage == db_vectors.DEFAULT_STORAGE == "int8"
        assert db_vectors.find_embedder(conn, "m") == row
        assert db_vectors.ensure_embedder(conn, "m", 384, 256, "float32").storage == "int8", "a model keeps the format it has"
        with pytest.raises(ValueError, match="int8, float32"):
            db_vectors.ensure_embedder(conn, "other", 384, 256, "float16")  # type: ignore[arg-type]
    conn.close()


def test_the_setting_asks_for_float32(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    settings = Settings(ingest=IngestSettings(workers=0, embed=True), embedding=EmbeddingSettings(vector_storage="float32"))
    assert ingest([SAMPLE / "plos-one-2014-fanged-frog-internal-fertilization.pdf"], db, settings).count("done") == 1
    _, blobs, row = _stored(db)
    assert row.storage == "float32" and {len(blob) for blob in blobs} == {4 * 384}


def _copy(db: Path, tmp_path: Path) -> Any:
    path = tmp_path / "copy.sqlite"
    shutil.copyfile(db, path)
    conn = db_sqlite.connect(path)
    db_sqlite.load_vec(conn)
    return conn


def test_approximate_index_over_int8_gives_exact_searchs_answers(int8_corpus: Path, minilm: MiniLM, tmp_path: Path) -> None:
    conn = _copy(int8_corpus, tmp_path)
    row = db_vectors.find_embedder(conn, MODEL)
    assert row is not None
    with conn:
        vector_index.build_index(conn, row)
    codes = {len(code) for (code,) in conn.execute(f"SELECT code FROM {row.vec_table}_ivf_codes")}
    assert codes == {192}, "the index keeps 4-bit codes; exact distances come from the int8 vectors"
    for query in [minilm.embed_query(text) for text in QUERIES]:
        exact = db_vectors.nearest(conn, row, query, 10)
        found = vector_index.search(conn, row, query, 10, nprobe=10_000, shortlist=10_000)
        assert [c for c, _ in found] == [c for c, _ in exact]
        assert np.allclose([d for _, d in found], [d for _, d in exact], atol=1e-5), "the same distances as sqlite-vec's"
    conn.close()


def test_levels_take_the_models_format_and_convert_back(int8_corpus: Path, minilm: MiniLM, tmp_path: Path) -> None:
    conn = _copy(int8_corpus, tmp_path)
    row = db_vectors.find_embedder(conn, MODEL)
    assert row is not None
    texts = ["Female fanged frogs give birth to tadpoles.", "Volatile compounds were measured in wheat.", "Patients face barriers."]
    vectors = minilm.embed_passages(texts)
    with conn:
        db_vectors.insert_level_vectors(conn, row, "insights", ["i1", "i2", "i3"], vectors)
    table = db_vectors.level_table(row, "insights")
    assert db_vectors.table_storage(conn, table) == "int8"
    query = minilm.embed_query("frogs giving birth")
    assert db_vectors.nearest_items(conn, row, "insights", query, 1)[0][0] == "i1"
    item = db_vectors.item_vector(conn, row, "insights", "i2")
    assert item is not None and float(item @ vectors[1]) >= 0.9999
    before = db_vectors.nearest(conn, row, query, 5)
    with conn:
        back = vector_index.convert_storage(conn, row, "float32")
    assert back.storage == "float32" and db_vectors.table_storage(conn, table) == "float32"
    assert [c for c, _ in db_vectors.nearest(conn, back, query, 5)] == [c for c, _ in before]
    assert db_vectors.nearest_items(conn, back, "insights", query, 1)[0][0] == "i1"
    conn.close()


def _chunk_sizes(conn: Any, table: str) -> tuple[str, set[int]]:
    """A vec0 table's declaration and the sizes of the chunks sqlite-vec made for it."""
    sql = str(conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", [table]).fetchone()[0])
    return sql, {int(size) for (size,) in conn.execute(f"SELECT size FROM {table}_chunks")}


def test_new_tables_hold_128_vectors_a_chunk_and_search_as_tables_of_1024(tmp_path: Path) -> None:
    """Smaller chunks make a single vector cheaper to read in place (db/vec_chunks); a table
    made with sqlite-vec's default keeps it, and both give the same exact answers."""
    rng = np.random.default_rng(3)
    vectors = rng.standard_normal((700, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    ids = [f"c{i:04d}" for i in range(len(vectors))]
    conn = connect(tmp_path / "corpus.sqlite").conn
    old = db_vectors.EmbedderRow("old", 384, 256, "vec_contexts_9", "int8")
    with conn:
        new = db_vectors.ensure_embedder(conn, "new", 384, 256)
        conn.execute(
            "CREATE VIRTUAL TABLE vec_contexts_9 USING vec0(context_id TEXT PRIMARY KEY, embedding int8[384] distance_metric=cosine)"
        )
        db_vectors.insert_vectors(conn, new, ids, vectors)
        db_vectors.insert_vectors(conn, old, ids, vectors)
        db_vectors.insert_level_vectors(conn, new, "insights", ids[:10], vectors[:10])
    sql, sizes = _chunk_sizes(conn, new.vec_table)
    assert "chunk_size=128" in sql and sizes == {128} and db_vectors.CHUNK_SIZE == 128
    assert conn.execute(f"SELECT count(*) FROM {new.vec_table}_chunks").fetchone()[0] == 6, "700 vectors in 6 chunks"
    assert _chunk_sizes(conn, db_vectors.level_table(new, "insights"))[1] == {128}, "a level's table too"
    assert _chunk_sizes(conn, old.vec_table)[1] == {1024}, "a table made before keeps its chunks"
    for query in rng.standard_normal((20, 384)).astype(np.float32):
        assert db_vectors.nearest(conn, new, query, 50) == db_vectors.nearest(conn, old, query, 50)
    assert db_vectors.distances(conn, new, vectors[0], ids[::7]) == db_vectors.distances(conn, old, vectors[0], ids[::7])
    with conn:
        converted = db_vectors.convert_storage(conn, old, "float32")
    assert converted.storage == "float32" and _chunk_sizes(conn, old.vec_table)[1] == {128}, "a converted table is made anew"
    assert db_vectors.declared_storage(_chunk_sizes(conn, new.vec_table)[0]) == "int8"
    conn.close()
