"""Embedding endpoints that answer vectors no distance can be measured to: NaN, null, the wrong
length, all zeros. Each is refused before it is stored, naming the endpoint; ``embed`` says how
many failed and exits non-zero; a corpus that already holds such vectors is still searchable.
Served by a scripted OpenAI-compatible /v1/embeddings on 127.0.0.1."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import Response
from typer.testing import CliRunner

from paperpyramid.cli import app
from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.db import vectors as db_vectors
from paperpyramid.embeddings.openai import OpenAIEmbedder
from paperpyramid.errors import ServiceUnavailable
from paperpyramid.retrieval.api import retrieve
from tests.asgi_server import serve
from tests.test_distill import make_corpus, paper

MODEL = "fake-embed"
SIZE = 12


@dataclass
class Faults:
    nan: bool = False  # one NaN in every vector
    null_for: str | None = None  # a null embedding for inputs holding this word
    short_for: str | None = None  # one number too few for inputs holding this word
    zero_for: str | None = None  # all zeros for inputs holding this word


def vector(text: str) -> list[float]:
    digest = hashlib.sha256(text.encode()).digest()
    return [(digest[i] - 128) / 25.6 for i in range(SIZE)]


def answer(text: str, faults: Faults) -> Any:
    numbers: list[Any] = vector(text)
    if faults.nan:
        numbers[3] = float("nan")
    if faults.null_for and faults.null_for in text:
        return None
    if faults.short_for and faults.short_for in text:
        return numbers[:-1]
    if faults.zero_for and faults.zero_for in text:
        return [0.0] * SIZE
    return numbers


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Faults]]:
    faults = Faults()
    api = FastAPI()

    @api.post("/v1/embeddings")
    async def embeddings(request: Request) -> Response:
        body = await request.json()
        texts = [body["input"]] if isinstance(body["input"], str) else body["input"]
        data = [{"object": "embedding", "index": i, "embedding": answer(text, faults)} for i, text in enumerate(texts)]
        reply = {"object": "list", "model": body["model"], "data": data, "usage": {"prompt_tokens": 1, "total_tokens": 1}}
        return Response(json.dumps(reply), media_type="application/json")  # json.dumps writes NaN, as a careless server does

    with serve(api) as url:
        yield f"{url}/v1", faults


@pytest.fixture
def fake(server: tuple[str, Faults]) -> tuple[str, Faults]:
    url, faults = server
    vars(faults).update(vars(Faults()))  # every test starts from a healthy endpoint
    return url, faults


def embedder(url: str) -> OpenAIEmbedder:
    return OpenAIEmbedder(url, MODEL, retries=0, timeout=5.0)


def count(db: Path, sql: str) -> int:
    conn = db_sqlite.connect(db, read_only=True)
    try:
        return int(conn.execute(sql).fetchone()[0])
    except db_sqlite.OperationalError:
        return 0  # the table was never made
    finally:
        conn.close()


def embed_cli(db: Path, url: str) -> Any:
    env = {
        "PAPERPYRAMID_EMBEDDING__MODEL": "openai",
        "PAPERPYRAMID_EMBEDDING__BASE_URL": url,
        "PAPERPYRAMID_EMBEDDING__API_MODEL": MODEL,
        "PAPERPYRAMID_EMBEDDING__RETRIES": "0",
    }
    return CliRunner().invoke(app, ["embed", "--db", str(db), "--batch-size", "4"], env=env, terminal_width=400)


# ---------------------------------------------------------------- the embedder


def test_nan_in_every_vector_is_refused_naming_the_endpoint(fake: tuple[str, Faults]) -> None:
    url, faults = fake
    faults.nan = True
    with pytest.raises(ServiceUnavailable) as caught:
        embedder(url).embed_passages(["alpha", "beta"])
    message = str(caught.value)
    assert url in message and MODEL in message and "NaN" in message and "2 of 2 texts" in message
    assert caught.value.refused == [0, 1]  # type: ignore[attr-defined]
    with pytest.raises(ServiceUnavailable, match="NaN"):
        embedder(url).embed_query("alpha")  # a query vector too: never a silent zero


@pytest.mark.parametrize(
    ("fault", "why"),
    [("null_for", "text 2: null"), ("short_for", "text 2: 11 numbers where the others have 12"), ("zero_for", "text 2: all zeros")],
)
def test_one_unusable_vector_is_refused_and_the_others_kept(fake: tuple[str, Faults], fault: str, why: str) -> None:
    url, faults = fake
    setattr(faults, fault, "beta")
    with pytest.raises(ServiceUnavailable) as caught:
        embedder(url).embed_passages(["alpha", "beta", "gamma"])
    assert why in str(caught.value) and url in str(caught.value)
    assert "differing lengths" not in str(caught.value)
    assert caught.value.refused == [1]  # type: ignore[attr-defined]
    kept = caught.value.vectors  # type: ignore[attr-defined]
    np.testing.assert_allclose(np.linalg.norm(kept[[0, 2]], axis=1), 1.0, rtol=1e-6)


# ---------------------------------------------------------------- the embed command


def test_embed_with_a_nan_endpoint_stores_nothing_and_exits_non_zero(fake: tuple[str, Faults], tmp_path: Path) -> None:
    url, faults = fake
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=3)})
    contexts = count(db, "SELECT count(*) FROM contexts")
    faults.nan = True
    result = embed_cli(db, url)
    said = " ".join(result.output.split())
    assert result.exit_code != 0, said
    assert "0 contexts embedded" in said and url in said and "NaN" in said
    assert count(db, "SELECT count(*) FROM vec_contexts_1") == 0
    faults.nan = False
    healthy = embed_cli(db, url)
    assert healthy.exit_code == 0, healthy.output
    assert count(db, "SELECT count(*) FROM vec_contexts_1") == contexts


def test_embed_with_one_null_stores_the_rest_says_how_many_failed_and_a_rerun_finishes(fake: tuple[str, Faults], tmp_path: Path) -> None:
    url, faults = fake
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=3)})
    contexts = count(db, "SELECT count(*) FROM contexts")
    faults.null_for = "shark"  # page 2's context only
    assert count(db, "SELECT count(*) FROM contexts WHERE text LIKE '%shark%'") == 1
    result = embed_cli(db, url)
    said = " ".join(result.output.split())
    assert result.exit_code == 1, said
    assert f"{contexts - 1} contexts embedded" in said and "1 failed" in said and "null" in said and url in said
    assert count(db, "SELECT count(*) FROM vec_contexts_1") == contexts - 1
    assert count(db, "SELECT count(*) FROM vec_contexts_1 AS v JOIN contexts AS c ON c.id = v.context_id WHERE c.text LIKE '%shark%'") == 0
    faults.null_for = None
    rerun = embed_cli(db, url)
    assert rerun.exit_code == 0 and "1 contexts embedded" in " ".join(rerun.output.split()), rerun.output
    assert count(db, "SELECT count(*) FROM vec_contexts_1") == contexts


# ---------------------------------------------------------------- the store and search


def test_the_store_refuses_nan_and_zero_vectors(tmp_path: Path) -> None:
    conn = db_sqlite.connect(tmp_path / "v.sqlite")
    conn.execute("CREATE TABLE embedders (name TEXT, dimension INTEGER, window INTEGER, vec_table TEXT, created_at TEXT)")
    row = db_vectors.ensure_embedder(conn, MODEL, 3, None)
    good = np.array([[1.0, 0.0, 0.0]], dtype=np.float32)
    for bad in ([np.nan, 0.0, 0.0], [0.0, 0.0, 0.0], [np.inf, 1.0, 0.0]):
        with pytest.raises(ValueError, match="NaN, infinite or all zeros"):
            db_vectors.insert_vectors(conn, row, ["a", "b"], np.vstack([good, np.array([bad], dtype=np.float32)]))
        with pytest.raises(ValueError, match="NaN, infinite or all zeros"):
            db_vectors.insert_level_vectors(conn, row, "insights", ["i1"], np.array([bad], dtype=np.float32))
    assert db_vectors.count_vectors(conn, row) == 0  # refused before anything was written
    conn.close()


def test_search_skips_zero_vectors_stored_before_they_were_refused(fake: tuple[str, Faults], tmp_path: Path) -> None:
    url, _ = fake
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=3)})
    conn = db_sqlite.connect(db)
    with conn:  # the float32 table the old embed made
        db_vectors.ensure_embedder(conn, embedder(url).name, SIZE, embedder(url).window, "float32")
    conn.close()
    assert embed_cli(db, url).exit_code == 0
    # what the old embed left: every vector but one turned into zeros
    conn = db_sqlite.connect(db)
    ids = [row[0] for row in conn.execute("SELECT context_id FROM vec_contexts_1 ORDER BY context_id")]
    db_sqlite.load_vec(conn)
    with conn:
        for context_id in ids[1:]:
            conn.execute(
                "UPDATE vec_contexts_1 SET embedding = ? WHERE context_id = ?", [np.zeros(SIZE, dtype=np.float32).tobytes(), context_id]
            )
    conn.close()
    reader = db_sqlite.connect(db, read_only=True)
    try:
        for mode in ("vector", "hybrid"):
            hits = retrieve(reader, "frog colony", mode=mode, k=5, embedder=embedder(url))
            assert ids[0] in [hit.context_id for hit in hits]
    finally:
        reader.close()
