"""Searching by MeSH heading and publication type, as PubMed records give them: through the
Python API in every retrieval mode (and ``ask``), the command line, the HTTP ``/search`` and the
MCP ``search`` tool. Three papers on the same subject, embedded by the real MiniLM, so that only
the filters tell them apart."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from mcp import Client
from typer.testing import CliRunner

from paperpyramid.cli import app
from paperpyramid.corpus import Corpus
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.writer import CorpusWriter
from paperpyramid.document import Block, Document, MeshTerm, Section
from paperpyramid.embeddings.minilm import MiniLM
from paperpyramid.llm import get_llm
from paperpyramid.retrieval.filters import Filters
from paperpyramid.services.mcp.server import build_server
from paperpyramid.services.query import create_app
from tests.fake_llm import FakeLLMServer, FakeReply, llm_settings

QUERY = "tumour growth in mice treated with metformin"


def paper(title: str, text: str, pmid: str | None, mesh: list[MeshTerm], types: list[str], year: str) -> Document:
    provenance = {"sections": "pubmed"} if pmid else {"sections": "jats 1.3"}
    return Document(title=title, abstract=text, pmid=pmid, date_published=year, journal="Oncology Reports", mesh=mesh,
                    publication_types=types, paged=False, sections=[Section("Abstract", blocks=[Block(text, 1)])],
                    provenance=provenance)  # fmt: skip


PAPERS = {
    "review": paper("Metformin and tumour growth: a review", "Metformin slowed tumour growth in mice across twelve studies of breast cancer.",
                    "1001", [MeshTerm("Neoplasms", True, "D009369", ["drug therapy"]), MeshTerm("Mice")], ["Journal Article", "Review"], "2019"),
    "trial": paper("A randomized trial of metformin", "Tumour growth in mice fell by a third when metformin was given with insulin.",
                   "1002", [MeshTerm("Diabetes Mellitus", True), MeshTerm("Mice")], ["Randomized Controlled Trial"], "2021"),
    "full": paper("Tumour growth under metformin", "Treated mice showed slower tumour growth than untreated ones.", None, [], [], "2021"),
}  # fmt: skip


@pytest.fixture(scope="module")
def minilm() -> MiniLM:
    return MiniLM()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, minilm: MiniLM) -> tuple[Path, dict[str, str]]:
    path = tmp_path_factory.mktemp("mesh") / "corpus.sqlite"
    with CorpusWriter(path) as writer:
        ids = {name: writer.add_document(doc, source_uri=f"pubmed:{name}", sha256=name) for name, doc in PAPERS.items()}
        missing = db_vectors.contexts_without_vectors(writer.db.conn, None, 100)
        vectors = minilm.embed_passages([text for _, _, text in missing])
        writer.add_vectors(db_vectors.ContextVectors(minilm.name, minilm.dimension, minilm.window, vectors), [cid for _, cid, _ in missing])
    return path, ids


def found(hits: list[Any]) -> set[str]:
    return {hit.citation.article_id for hit in hits}


@pytest.mark.parametrize("mode", ["bm25", "vector", "hybrid", "parent", "cross"])
def test_every_mode_keeps_only_the_articles_with_the_heading_or_type(
    corpus: tuple[Path, dict[str, str]], minilm: MiniLM, mode: str
) -> None:
    path, ids = corpus
    with Corpus.open(path, embedder=minilm) as opened:
        assert found(opened.retrieve(QUERY, mode=mode)) == set(ids.values())
        assert found(opened.retrieve(QUERY, mode=mode, filters=Filters(mesh="Mice"))) == {ids["review"], ids["trial"]}
        assert found(opened.retrieve(QUERY, mode=mode, filters=Filters(mesh="neoplasms"))) == {ids["review"]}  # any case
        assert found(opened.retrieve(QUERY, mode=mode, filters=Filters(publication_type="randomized controlled trial"))) == {ids["trial"]}
        assert opened.retrieve(QUERY, mode=mode, filters=Filters(mesh="Humans")) == []
        # with the other filters: both must hold
        assert found(opened.retrieve(QUERY, mode=mode, filters=Filters(mesh="Mice", year_from=2020))) == {ids["trial"]}
        assert opened.retrieve(QUERY, mode=mode, filters=Filters(mesh="Neoplasms", publication_type="Randomized Controlled Trial")) == []


def test_search_and_find_take_the_filters(corpus: tuple[Path, dict[str, str]], minilm: MiniLM) -> None:
    path, ids = corpus
    with Corpus.open(path, embedder=minilm) as opened:
        assert opened.best_mode() == "hybrid"
        assert found(opened.search(QUERY, filters=Filters(publication_type="Review"))) == {ids["review"]}
        assert found(opened.find(QUERY, strategy="hybrid", filters=Filters(mesh="Diabetes Mellitus")).passages) == {ids["trial"]}
        assert Filters(mesh="Mice").restricts_articles and Filters(publication_type="Review").restricts_articles


_SOURCE = re.compile(r'<document passage="(\d+)" source="([^"]*)">')


def citing_the_first(body: dict[str, Any]) -> FakeReply:
    passages = _SOURCE.findall(body["messages"][1]["content"])
    return FakeReply(json.dumps({"claims": [{"text": "Metformin slowed tumour growth.", "passages": [int(passages[0][0])]}]}))


def shown_titles(server: FakeLLMServer) -> set[str]:
    return {source.split(",")[0] for request in server.requests for _, source in _SOURCE.findall(request["messages"][1]["content"])}


def test_ask_answers_from_the_filtered_articles_only(corpus: tuple[Path, dict[str, str]], minilm: MiniLM, monkeypatch: Any) -> None:
    path, ids = corpus
    with FakeLLMServer(citing_the_first) as server, Corpus.open(path, embedder=minilm) as opened:
        answer = opened.ask(QUERY, strategy="hybrid", llm=get_llm(llm_settings(server.base_url)), filters=Filters(mesh="Neoplasms"))
        assert {source.citation.article_id for source in answer.passages} == {ids["review"]}
        assert shown_titles(server) == {PAPERS["review"].title}
    with FakeLLMServer(citing_the_first) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("PAPERPYRAMID_LLM__CACHE", "false")
        result = CliRunner().invoke(app, ["ask", QUERY, "--db", str(path), "--strategy", "bm25", "--llm-backend", "openai", "--llm-model",
                                          "fake-model", "--publication-type", "Randomized Controlled Trial", "--json"])  # fmt: skip
        assert result.exit_code == 0, result.output
        assert shown_titles(server) == {PAPERS["trial"].title}
    assert json.loads(result.stdout.strip().splitlines()[-1])["citations"][0]["context_id"]


def test_the_command_line_search_filters(corpus: tuple[Path, dict[str, str]]) -> None:
    path, ids = corpus

    def articles(*options: str) -> set[str]:
        result = CliRunner().invoke(app, ["search", QUERY, "--db", str(path), "--mode", "bm25", "--json", *options])
        assert result.exit_code == 0, result.output
        return {json.loads(line)["article_id"] for line in result.stdout.splitlines() if line.startswith("{")}

    assert articles() == set(ids.values())
    assert articles("--mesh", "MICE") == {ids["review"], ids["trial"]}
    assert articles("--publication-type", "review") == {ids["review"]}
    assert articles("--mesh", "Mice", "--journal", "oncology reports", "--year-to", "2020") == {ids["review"]}


def test_http_search_filters(corpus: tuple[Path, dict[str, str]]) -> None:
    path, ids = corpus
    client = TestClient(create_app(path))

    def articles(**params: Any) -> set[str]:
        response = client.get("/search", params={"q": QUERY, "mode": "bm25", **params})
        assert response.status_code == 200, response.text
        return {hit["article_id"] for hit in response.json()}

    assert articles() == set(ids.values())
    assert articles(mesh="neoplasms") == {ids["review"]}
    assert articles(publication_type="Randomized Controlled Trial") == {ids["trial"]}
    assert articles(mesh="Mice", year_from=2020) == {ids["trial"]}
    assert articles(journal="Oncology Reports", mesh="Humans") == set()
    assert client.get("/search", params={"q": QUERY, "mesh": "x" * 301}).status_code == 422


def test_mcp_search_filters_and_the_outline_shows_the_indexing(corpus: tuple[Path, dict[str, str]]) -> None:
    path, ids = corpus
    answers: dict[str, Any] = {}

    async def main() -> None:
        with anyio.fail_after(60), Corpus.open(path, check_same_thread=False) as opened:
            async with Client(build_server(opened)) as client:
                for name, arguments in {
                    "all": {},
                    "mesh": {"mesh": "diabetes mellitus"},
                    "type": {"publication_type": "Review"},
                    "none": {"mesh": "Humans"},
                }.items():
                    result = await client.call_tool("search", {"query": QUERY, "mode": "bm25", **arguments})
                    assert not result.is_error, result.content
                    answers[name] = result.structured_content
                listed = await client.call_tool("list_articles", {"mesh": "Mice", "publication_type": "review"})
                answers["listed"] = listed.structured_content
                outline = await client.call_tool("outline", {"article_id": ids["review"]})
                answers["outline"] = outline.structured_content

    anyio.run(main)
    assert {hit["article_id"] for hit in answers["all"]["hits"]} == set(ids.values())
    assert {hit["article_id"] for hit in answers["mesh"]["hits"]} == {ids["trial"]}
    assert {hit["article_id"] for hit in answers["type"]["hits"]} == {ids["review"]}
    assert answers["none"]["hits"] == [] and "fewer filters" in answers["none"]["note"]
    assert [article["article_id"] for article in answers["listed"]["articles"]] == [ids["review"]]
    article = answers["outline"]["article"]
    assert (
        article["pmid"] == "1001"
        and article["mesh"] == ["Neoplasms*", "Mice"]
        and article["publication_types"] == ["Journal Article", "Review"]
    )
