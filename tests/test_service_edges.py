"""Edges of the query service and the MCP server: an offset past any corpus is a 422, not a
traceback; ``PAPERPYRAMID_SERVE__MAX_VALUE_BYTES=null`` turns the size check off, as the docs say;
a credential in any query parameter is refused and never reaches the log; an MCP error never
echoes a huge id back, and an argument a tool does not take is refused, naming it."""

from __future__ import annotations

import logging
import signal
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest
from fastapi.testclient import TestClient
from mcp import Client
from pydantic import ValidationError

from paperpyramid.corpus import Corpus
from paperpyramid.db.sqlite import sqlite3
from paperpyramid.errors import NotACorpus
from paperpyramid.services.mcp.server import build_server
from paperpyramid.services.query import create_app
from paperpyramid.services.query_guard import RedactTokens
from paperpyramid.settings import Settings
from tests.test_query_faults import TOKEN, corpus_file, corpus_path, served  # noqa: F401 - fixtures
from tests.test_snapshot_hostile import hostile_copy

HUGE = 9_223_372_036_854_775_807  # SQLite's largest integer, and sys.maxsize


def _ids(client: TestClient) -> tuple[str, str]:
    article = client.get("/articles").json()[0]["id"]
    section = client.get(f"/articles/{article}/outline").json()[0]["id"]
    return article, section


# a. offsets


def test_an_offset_past_any_corpus_is_a_422_not_a_500(corpus_file: Path, caplog: pytest.LogCaptureFixture) -> None:  # noqa: F811 - fixtures
    client = TestClient(create_app(corpus_file), raise_server_exceptions=False)
    article, section = _ids(client)
    for url in ("/articles", f"/articles/{article}/outline", f"/sections/{section}/contexts"):
        for params in ({"offset": HUGE}, {"offset": HUGE, "limit": 1}, {"offset": 2**70}):
            response = client.get(url, params=params)
            assert response.status_code == 422, (url, params, response.text)
            assert response.json()["detail"][0]["loc"] == ["query", "offset"], response.text
        assert client.get(url, params={"offset": 1, "limit": HUGE}).status_code == 200, url  # a limit is cut to the page size
    assert not [record for record in caplog.records if record.exc_info], "a traceback was logged"


def test_mcp_offsets_are_bounded_by_the_schema(corpus_file: Path) -> None:  # noqa: F811 - fixtures
    async def main() -> None:
        with anyio.fail_after(60), Corpus.open(corpus_file, check_same_thread=False) as corpus:
            async with Client(build_server(corpus)) as client:
                listed = {tool.name: tool for tool in (await client.list_tools()).tools}
                for name in ("list_articles", "outline", "read_section", "pyramid", "citations"):
                    assert "maximum" in listed[name].input_schema["properties"]["offset"], name
                result = await client.call_tool("list_articles", {"offset": HUGE})
                assert result.is_error and "offset" in result.content[0].text  # type: ignore[union-attr]

    anyio.run(main)


# b. the size check turned off from the environment


@pytest.mark.parametrize("off", ["null", "None", " NULL "])
def test_max_value_bytes_null_in_the_environment_turns_the_check_off(
    off: str,
    corpus_path: Path,  # noqa: F811 - a fixture
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    database = hostile_copy(corpus_path, tmp_path / "big.sqlite")
    with sqlite3.connect(database) as conn:
        conn.execute("UPDATE contexts SET text = ? WHERE rowid = (SELECT min(rowid) FROM contexts)", ["shark " * 1_000_000])
    conn.close()
    with pytest.raises(NotACorpus, match="PAPERPYRAMID_SERVE__MAX_VALUE_BYTES sets the limit"):
        create_app(database, settings=Settings().serve)
    monkeypatch.setenv("PAPERPYRAMID_SERVE__MAX_VALUE_BYTES", off)
    settings = Settings().serve
    assert settings.max_value_bytes is None
    assert TestClient(create_app(database, settings=settings)).get("/articles").status_code == 200


def test_max_value_bytes_from_the_environment_is_still_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PAPERPYRAMID_SERVE__MAX_VALUE_BYTES", "1000")
    assert Settings().serve.max_value_bytes == 1000
    for bad in ("lots", "0", ""):
        monkeypatch.setenv("PAPERPYRAMID_SERVE__MAX_VALUE_BYTES", bad)
        with pytest.raises(ValidationError, match="max_value_bytes"):
            Settings()


# d. credentials in query strings


CREDENTIALS = ("access_token", "api_key", "apikey", "key", "auth", "password", "secret", "client_secret", "Access-Token")


def test_any_credential_in_a_query_string_is_refused(corpus_file: Path) -> None:  # noqa: F811 - fixtures
    client = TestClient(create_app(corpus_file, token=TOKEN))
    bearer = {"Authorization": f"Bearer {TOKEN}"}
    for name in CREDENTIALS:
        refused = client.get("/articles", params={name: TOKEN}, headers=bearer)
        assert refused.status_code == 400 and "never taken from a query string" in refused.json()["detail"], name
    # the service's own parameters that name tokens are not credentials
    assert client.get("/search", params={"q": "shark", "budget_tokens": 500}, headers=bearer).status_code == 200
    assert client.get("/ask", params={"q": "shark", "max_llm_tokens": 10**9}, headers=bearer).status_code == 422  # the cap, not the guard


def test_the_redaction_covers_every_credential_name() -> None:
    line = 'GET /articles?q=shark&{name}={token}&budget_tokens=500 HTTP/1.1" 400'
    for name in (*CREDENTIALS, "access%5Ftoken", "API_KEY"):
        record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d', (), None)
        record.args = ("127.0.0.1:5000", "GET", f"/articles?q=shark&{name}={TOKEN}&budget_tokens=500", "1.1", 400)
        assert RedactTokens().filter(record)
        shown = record.getMessage()
        assert TOKEN not in shown and f"{name}=[redacted]" in shown and "budget_tokens=500" in shown, shown
        message = logging.LogRecord("x", logging.INFO, __file__, 1, line.format(name=name, token=TOKEN), (), None)
        RedactTokens().filter(message)
        assert TOKEN not in message.getMessage(), name


def test_a_credential_in_a_query_string_never_reaches_the_log(served: Any) -> None:  # noqa: F811 - fixtures
    process, url = served(PAPERPYRAMID_SERVE__API_TOKEN=TOKEN)
    for name in ("access_token", "api_key", "password"):
        assert httpx.get(f"{url}/articles", params={name: TOKEN}, timeout=5).status_code == 400, name
    assert httpx.get(f"{url}/articles", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=5).status_code == 200
    process.send_signal(signal.SIGTERM)
    log, _ = process.communicate(timeout=15)
    assert "GET /articles?access_token=[redacted]" in log and "GET /articles?api_key=[redacted]" in log, log
    assert TOKEN not in log


# e. MCP arguments


def test_mcp_errors_never_echo_a_huge_id_and_unknown_arguments_are_refused(corpus_file: Path) -> None:  # noqa: F811 - fixtures
    huge = "x" * 1_000_000
    calls: list[tuple[str, dict[str, Any]]] = [
        ("cite", {"ids": [huge]}),
        ("outline", {"article_id": huge}),
        ("pyramid", {"article_id": huge}),
        ("read_section", {"section_id": huge}),
        ("next_section", {"section_id": huge}),
        ("previous_section", {"section_id": huge}),
        ("context_window", {"context_id": huge}),
        ("citations", {"id": huge}),
        ("list_articles", {"article_ids": [huge]}),
        ("search", {"query": "shark", "article_ids": [huge]}),
        ("search", {"query": "shark", "journal": huge}),
    ]

    async def main() -> None:
        with anyio.fail_after(60), Corpus.open(corpus_file, check_same_thread=False) as corpus:
            async with Client(build_server(corpus)) as client:
                for tool, arguments in calls:
                    result = await client.call_tool(tool, arguments)
                    text = result.content[0].text  # type: ignore[union-attr]
                    assert len(text) < 2000, (tool, len(text))
                    if tool != "search" or "journal" not in arguments:
                        assert result.is_error, tool
                tools = (await client.list_tools()).tools
                assert len(tools) == 10
                for listed in tools:
                    assert listed.input_schema.get("additionalProperties") is False, listed.name
                    result = await client.call_tool(listed.name, {"bogus_argument": 1})
                    text = result.content[0].text  # type: ignore[union-attr]
                    assert result.is_error and "bogus_argument" in text, (listed.name, text)

    anyio.run(main)
