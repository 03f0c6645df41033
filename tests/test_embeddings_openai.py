"""OpenAIEmbedder against a fake OpenAI-compatible server, over real HTTP on 127.0.0.1.

The fake answers POST /v1/embeddings with deterministic vectors derived from a hash of each
input text, *not* normalised (so the tests see the embedder normalise), records every request
body, and can be told to fail the next requests with a status code, answer items in reversed
order, or stall.
"""

from __future__ import annotations

import asyncio
import hashlib
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from paperpyramid.embeddings import Embedder, get_embedder
from paperpyramid.embeddings.openai import OpenAIEmbedder
from paperpyramid.errors import ConfigurationError, ServiceUnavailable
from paperpyramid.settings import EmbeddingSettings
from tests.asgi_server import serve

MODEL = "fake-embed"
FULL_DIMENSION = 12


def fake_vector(text: str, dimension: int = FULL_DIMENSION) -> list[float]:
    """Deterministic, far from unit length: bytes of sha256(text) mapped to [-5, 5)."""
    digest = hashlib.sha256(text.encode()).digest()
    return [(digest[i % len(digest)] - 128) / 25.6 for i in range(dimension)]


def unit(text: str, dimension: int = FULL_DIMENSION) -> np.ndarray:
    vector = np.asarray(fake_vector(text, dimension), dtype=np.float32)
    return vector / np.linalg.norm(vector)


@dataclass
class Behaviour:
    bodies: list[dict[str, Any]] = field(default_factory=list)
    fail_next: int = 0  # answer this many requests with `fail_status`
    fail_status: int = 500
    fail_headers: dict[str, str] = field(default_factory=dict)
    reverse: bool = False  # answer the items last first (each keeps its index)
    stall: float = 0.0  # seconds to wait before answering


def create_fake(behaviour: Behaviour) -> FastAPI:
    app = FastAPI()

    @app.post("/v1/embeddings")
    async def embeddings(request: Request) -> JSONResponse:
        body = await request.json()
        behaviour.bodies.append(body)
        if behaviour.stall:
            await asyncio.sleep(behaviour.stall)
        if behaviour.fail_next > 0:
            behaviour.fail_next -= 1
            message = f"model {body['model']!r} not found" if behaviour.fail_status == 404 else "try again"
            error = {"error": {"message": message, "type": "fake", "code": behaviour.fail_status}}
            return JSONResponse(error, status_code=behaviour.fail_status, headers=behaviour.fail_headers)
        texts = [body["input"]] if isinstance(body["input"], str) else body["input"]
        dimension = body.get("dimensions") or FULL_DIMENSION
        data = [{"object": "embedding", "index": i, "embedding": fake_vector(text, dimension)} for i, text in enumerate(texts)]
        if behaviour.reverse:
            data.reverse()
        usage = {"prompt_tokens": len(texts), "total_tokens": len(texts)}
        return JSONResponse({"object": "list", "model": body["model"], "data": data, "usage": usage})

    return app


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Behaviour]]:
    behaviour = Behaviour()
    with serve(create_fake(behaviour)) as url:
        yield f"{url}/v1", behaviour


@pytest.fixture
def fake(server: tuple[str, Behaviour]) -> tuple[str, Behaviour]:
    url, behaviour = server
    vars(behaviour).update(vars(Behaviour()))  # a fresh behaviour for every test, same server
    return url, behaviour


def embedder(url: str, **options: Any) -> OpenAIEmbedder:
    options = {"retries": 2, "backoff": 0.001, "timeout": 5.0} | options
    return OpenAIEmbedder(url, MODEL, **options)


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


# ---------------------------------------------------------------- answers


def test_rate_limited_once_then_answers(fake: tuple[str, Behaviour]) -> None:
    url, behaviour = fake
    behaviour.fail_next, behaviour.fail_status = 1, 429
    behaviour.fail_headers = {"Retry-After": "0.3"}
    started = time.monotonic()
    vectors = embedder(url).embed_passages(["alpha", "beta"])
    elapsed = time.monotonic() - started
    assert len(behaviour.bodies) == 2
    assert behaviour.bodies[0]["input"] == behaviour.bodies[1]["input"] == ["alpha", "beta"]
    assert vectors.dtype == np.float32 and vectors.shape == (2, FULL_DIMENSION)
    np.testing.assert_allclose(vectors, [unit("alpha"), unit("beta")], rtol=1e-6)
    # Retry-After beats the 1 ms backoff
    assert 0.3 <= elapsed < 3


def test_batches_keep_input_order_and_send_prefixes_and_dimensions(fake: tuple[str, Behaviour]) -> None:
    url, behaviour = fake
    behaviour.reverse = True
    texts = ["one", "two", "three", "four", "five"]
    model = embedder(url, batch_size=2, dimensions=8, passage_prefix="doc: ", query_prefix="q: ")
    vectors = model.embed_passages(texts)
    assert [body["input"] for body in behaviour.bodies] == [["doc: one", "doc: two"], ["doc: three", "doc: four"], ["doc: five"]]
    assert all(body["dimensions"] == 8 and body["model"] == MODEL for body in behaviour.bodies)
    assert all(body["encoding_format"] == "float" for body in behaviour.bodies)
    expected = np.stack([unit(f"doc: {text}", 8) for text in texts])
    np.testing.assert_allclose(vectors, expected, rtol=1e-6)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, rtol=1e-6)

    query = model.embed_query("what")
    assert behaviour.bodies[-1]["input"] == ["q: what"]
    assert query.shape == (8,)
    np.testing.assert_allclose(query, unit("q: what", 8), rtol=1e-6)
    assert model.name == f"{MODEL}@8" and model.dimension == 8 and len(behaviour.bodies) == 4


def test_dimension_discovered_from_the_first_response(fake: tuple[str, Behaviour]) -> None:
    url, behaviour = fake
    model = embedder(url, window=2048)
    assert model.name == MODEL and model.window == 2048
    assert model.embed_passages([]).shape == (0, 0)
    assert behaviour.bodies == []  # nothing to embed, nothing sent
    assert model.dimension == FULL_DIMENSION  # read before any embedding: one probe request
    assert len(behaviour.bodies) == 1 and "dimensions" not in behaviour.bodies[0]
    assert model.embed_passages([]).shape == (0, FULL_DIMENSION)
    assert isinstance(model, Embedder)

    other = embedder(url)
    assert other.embed_query("x").shape == (FULL_DIMENSION,)
    assert other.dimension == FULL_DIMENSION and len(behaviour.bodies) == 2  # learnt from the answer, no probe


def test_count_tokens_is_the_minilm_estimate(fake: tuple[str, Behaviour]) -> None:
    from paperpyramid.tokens import TokenCounter

    text = "Matryoshka representation learning cuts vectors."
    assert embedder(fake[0]).count_tokens(text) == TokenCounter().count(text) + 2


# ---------------------------------------------------------------- failures


def test_server_error_for_ever_is_service_unavailable(fake: tuple[str, Behaviour]) -> None:
    url, behaviour = fake
    behaviour.fail_next, behaviour.fail_status = 100, 500
    started = time.monotonic()
    with pytest.raises(ServiceUnavailable, match=r"127\.0\.0\.1.*3 attempts.*HTTP 500") as caught:
        embedder(url, retries=2).embed_passages(["alpha"])
    assert len(behaviour.bodies) == 3
    assert "\n" not in str(caught.value)
    assert time.monotonic() - started < 2


def test_unreachable_endpoint_is_service_unavailable() -> None:
    url = closed_port_url()
    with pytest.raises(ServiceUnavailable, match="unreachable") as caught:
        embedder(url, retries=1).embed_query("alpha")
    assert url in str(caught.value)


def test_stalled_server_is_service_unavailable(fake: tuple[str, Behaviour]) -> None:
    url, behaviour = fake
    behaviour.stall = 0.5
    with pytest.raises(ServiceUnavailable, match=r"2 attempts: no answer in 0\.1 s"):
        embedder(url, retries=1, timeout=0.1).embed_query("alpha")
    assert len(behaviour.bodies) == 2


@pytest.mark.parametrize("status", [400, 401, 404])
def test_client_error_is_configuration_error_without_retry(fake: tuple[str, Behaviour], status: int) -> None:
    url, behaviour = fake
    behaviour.fail_next, behaviour.fail_status = 100, status
    with pytest.raises(ConfigurationError, match=f"HTTP {status}") as caught:
        embedder(url, retries=3).embed_passages(["alpha"])
    assert len(behaviour.bodies) == 1
    if status == 404:
        assert f"model '{MODEL}' not found" in str(caught.value)


def test_ignored_dimensions_is_configuration_error(fake: tuple[str, Behaviour]) -> None:
    url, behaviour = fake
    model = embedder(url, dimensions=4)
    model._client.embeddings.create = _without_dimensions(model._client.embeddings.create)  # type: ignore[method-assign]
    with pytest.raises(ConfigurationError, match="DIMENSIONS"):
        model.embed_query("alpha")


def _without_dimensions(create: Any) -> Any:
    """The request as a server that ignores ``dimensions`` would see it."""

    def call(**kwargs: Any) -> Any:
        kwargs.pop("dimensions", None)
        return create(**kwargs)

    return call


# ---------------------------------------------------------------- settings


def test_missing_base_url_or_model_is_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="PAPERPYRAMID_EMBEDDING__BASE_URL or OPENAI_BASE_URL"):
        get_embedder(EmbeddingSettings(model="openai", base_url=None, api_model=MODEL))
    with pytest.raises(ConfigurationError, match="PAPERPYRAMID_EMBEDDING__API_MODEL"):
        get_embedder(EmbeddingSettings(model="openai", base_url="http://127.0.0.1:9/v1", api_model=None))


def test_settings_reach_the_embedder(fake: tuple[str, Behaviour]) -> None:
    url, behaviour = fake
    settings = EmbeddingSettings(
        model="openai", base_url=url, api_key=None, api_model=MODEL, dimensions=6, api_window=512,
        query_prefix="search_query: ", passage_prefix="search_document: ", batch_size=3, retries=0,
    )  # fmt: skip
    model = get_embedder(settings)
    assert isinstance(model, OpenAIEmbedder)
    assert (model.name, model.dimension, model.window, model.batch_size, model.retries) == (f"{MODEL}@6", 6, 512, 3, 0)
    model.embed_passages(["a", "b", "c", "d"])
    assert [body["input"] for body in behaviour.bodies] == [
        ["search_document: a", "search_document: b", "search_document: c"],
        ["search_document: d"],
    ]
    model.embed_query("e")
    assert behaviour.bodies[-1]["input"] == ["search_query: e"]
