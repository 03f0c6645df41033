"""The query service over real HTTP semantics (FastAPI's TestClient): search mirrors the CLI,
the outline and sections walk a paper, parent passages, ask streamed as server-sent events
against the scripted LLM server, the bearer token, read-only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from paperpyramid.llm import get_llm
from paperpyramid.services.query import create_app
from tests.fake_llm import FakeLLMServer, llm_settings
from tests.test_ask import answering
from tests.test_distill import make_corpus, paper


@pytest.fixture
def corpus_file(tmp_path: Path) -> Path:
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=3)})
    return db


def events(body: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for block in body.strip().split("\n\n"):
        fields = [line for line in block.splitlines() if not line.startswith(":")]  # the heartbeat's comments
        if fields:
            lines = dict(line.split(": ", 1) for line in fields)
            out.append((lines["event"], json.loads(lines["data"])))
    return out


def test_browse_and_search(corpus_file: Path) -> None:
    client = TestClient(create_app(corpus_file))
    assert client.get("/healthz").json() == {"status": "ok"}  # it reads no table's rows
    (article,) = client.get("/articles").json()
    outline = client.get(f"/articles/{article['id']}/outline").json()
    assert [section["number"] for section in outline] == ["1", "2", "3"]
    first, last = outline[0]["id"], outline[-1]["id"]
    assert client.get(f"/sections/{first}/next").json()["id"] == outline[1]["id"]
    assert client.get(f"/sections/{first}/previous").status_code == 404  # the first section
    assert client.get(f"/sections/{last}/next").status_code == 404  # the last section
    section = client.get(f"/sections/{outline[1]['id']}/contexts").json()
    assert section["contexts"][0]["text"].startswith("The shark colony of alpha")
    hits = client.get("/search", params={"q": "shark colony", "mode": "bm25", "k": 2}).json()
    assert hits[0]["page"] == 2 and hits[0]["citation"].endswith("p. 2") and hits[0]["context_id"] == section["contexts"][0]["id"]
    around = client.get(f"/contexts/{hits[0]['context_id']}/parent", params={"before": 1, "after": 1}).json()
    assert [row["page_number"] for row in around] == [1, 2, 3]
    assert client.get("/sections/nope/contexts").status_code == 404
    assert client.get("/search", params={"q": "x", "mode": "nonsense"}).status_code == 400
    assert client.post("/search", params={"q": "x"}).status_code == 405  # read-only: nothing to write to


def test_search_filters_by_year(tmp_path: Path) -> None:
    """``/search?year_from=&year_to=`` keeps the articles published within those years, as the
    CLI's ``--year-from``/``--year-to`` do; the dates were given as printed and stored as ISO 8601."""
    from dataclasses import replace

    db = tmp_path / "corpus.sqlite"
    ids = make_corpus(
        db,
        {"alpha": replace(paper("alpha"), date_published="9 December 2014"), "beta": replace(paper("beta"), date_published="2019 Mar 2")},
    )
    client = TestClient(create_app(db))
    assert {article["id"]: article["date_published"] for article in client.get("/articles").json()} == {
        ids["alpha"]: "2014-12-09",
        ids["beta"]: "2019-03-02",
    }

    def found(**bounds: int) -> set[str]:
        response = client.get("/search", params={"q": "shark colony", "mode": "bm25", **bounds})
        assert response.status_code == 200, response.text
        return {hit["article_id"] for hit in response.json()}

    assert found() == {ids["alpha"], ids["beta"]}
    assert found(year_from=2015) == {ids["beta"]} and found(year_to=2015) == {ids["alpha"]}
    assert found(year_from=2014, year_to=2014) == {ids["alpha"]} and found(year_from=2020) == set()
    refused = client.get("/search", params={"q": "shark", "year_from": 2019, "year_to": 2014})
    assert refused.status_code == 400 and "year_from 2019 is after year_to 2014" in refused.text
    assert client.get("/search", params={"q": "shark", "year_from": "recent"}).status_code == 422


def test_token_required_when_set(corpus_file: Path) -> None:
    client = TestClient(create_app(corpus_file, token="s3cret"))
    assert client.get("/healthz").status_code == 200
    assert client.get("/").status_code == 200  # the page holds no data; it takes the token from its address's fragment
    for url in ("/articles", "/search?q=shark", "/ask?q=shark", "/docs", "/openapi.json"):
        assert client.get(url).status_code == 401, url
        assert client.get(url, headers={"Authorization": "Bearer wrong"}).status_code == 401, url
    assert client.get("/articles", headers={"Authorization": "Bearer s3cret"}).status_code == 200


def test_ask_streams_steps_then_a_cited_answer(corpus_file: Path) -> None:
    with FakeLLMServer(answering) as server:
        client = TestClient(create_app(corpus_file, llm=get_llm(llm_settings(server.base_url))))
        response = client.get("/ask", params={"q": "how large did the shark colony grow", "strategy": "bm25"})
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/event-stream")
    stream = events(response.text)
    assert [name for name, _ in stream] == ["step", "step", "answer"]
    assert [data["name"] for _, data in stream[:2]] == ["retrieve", "answer"]
    answer = stream[-1][1]
    assert answer["citations"][0]["page"] == 2 and answer["usage"]["total_tokens"] == 366
    assert answer["answer"].startswith("The shark colony of alpha grew to 34 individuals. [Colonies of alpha, p. 2]")


def test_ask_error_is_an_event(corpus_file: Path) -> None:
    with FakeLLMServer(answering) as server:
        client = TestClient(create_app(corpus_file, llm=get_llm(llm_settings(server.base_url))))
        stream = events(client.get("/ask", params={"q": "shark", "strategy": "nonsense"}).text)
    assert stream[-1][0] == "error" and "unknown strategy" in stream[-1][1]["error"]


def test_page_is_served(corpus_file: Path) -> None:
    page = TestClient(create_app(corpus_file)).get("/")
    assert page.status_code == 200 and '<form id="ask">' in page.text and "/ask?" in page.text


def test_a_requests_corpus_may_be_answered_from_another_thread(corpus_file: Path) -> None:
    """FastAPI opens a request's corpus in one worker thread (the dependency) and may answer in
    another (the route): the browser test met "SQLite objects created in a thread can only be
    used in that same thread" when the two differed."""
    import threading
    from types import SimpleNamespace

    from paperpyramid.services.query import _corpus

    dependency = _corpus(SimpleNamespace(app=create_app(corpus_file)))  # type: ignore[arg-type]
    corpus = next(dependency)  # opened in this thread, as the dependency is
    titles: list[Any] = []
    errors: list[BaseException] = []

    def answer() -> None:
        try:
            titles.extend(article.title for article in corpus.articles())
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    thread = threading.Thread(target=answer)
    thread.start()
    thread.join(timeout=30)
    dependency.close()
    assert not errors, errors
    assert titles


def test_ask_takes_the_search_filters(tmp_path: Path) -> None:
    """``/ask`` filters the passages it reads as ``/search`` does (``year_from``, ``journal``, ...)."""
    from dataclasses import replace

    db = tmp_path / "corpus.sqlite"
    ids = make_corpus(
        db,
        {"alpha": replace(paper("alpha"), date_published="2014"), "beta": replace(paper("beta"), date_published="2019", journal="Sharks")},
    )
    with FakeLLMServer(answering) as server:
        client = TestClient(create_app(db, llm=get_llm(llm_settings(server.base_url))))

        def cited(**filters: Any) -> set[str]:
            response = client.get("/ask", params={"q": "how large did the shark colony grow", "strategy": "bm25", **filters})
            assert response.status_code == 200, response.text
            stream = events(response.text)
            assert stream[-1][0] == "answer", stream[-1]
            return {passage["article_id"] for passage in stream[-1][1]["passages"]}

        assert cited() == {ids["alpha"], ids["beta"]}
        assert cited(year_from=2015) == {ids["beta"]} and cited(year_to=2015) == {ids["alpha"]}
        assert cited(journal="sharks") == {ids["beta"]} and cited(article=ids["alpha"]) == {ids["alpha"]}
        refused = client.get("/ask", params={"q": "shark", "year_from": 2019, "year_to": 2014})
    assert refused.status_code == 400 and "year_from 2019 is after year_to 2014" in refused.text
