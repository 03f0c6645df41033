"""``paperpyramid mcp`` end to end: the official MCP client drives the real server, started as
its own process (``python -m paperpyramid.services.mcp``) over stdio and over streamable HTTP on
127.0.0.1, with and without the bearer token, on a corpus ingested here from the sample PDFs.

The walk is the one a model takes: list the tools (with their input schemas), search, outline
the hit's paper, read the hit's section, go on to the next section, read around the hit, cite.
Every passage handed back must carry a citation that resolves, through the corpus file read with
sqlite3, to its stored context: its text, its article's title and its page.
"""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from paperpyramid.ingestion import ingest
from paperpyramid.settings import IngestSettings, Settings
from tests.conftest import SAMPLE

ROOT = Path(__file__).resolve().parents[1]
TOOLS = {
    "search",
    "list_articles",
    "outline",
    "read_section",
    "next_section",
    "previous_section",
    "context_window",
    "pyramid",
    "citations",
    "cite",
}
#: every wait in these tests is bounded by this many seconds
WAIT = 60


@pytest.fixture(scope="module")
def sample_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("mcp") / "corpus.sqlite"
    assert ingest([SAMPLE], db, Settings(ingest=IngestSettings(workers=0, embed=False))).count("done") == 3
    return db


def _stored(db: Path, context_id: str) -> tuple[str, str, int | None, str]:
    """(text, article title, page, section id) of a context, read from the file itself."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        row = conn.execute(
            "SELECT c.text, a.title, c.page_number, sc.section_id FROM contexts AS c JOIN sections_contexts AS sc ON sc.context_id = c.id "
            "JOIN article_sections AS ars ON ars.section_id = sc.section_id JOIN articles AS a ON a.id = ars.article_id WHERE c.id = ?",
            [context_id],
        ).fetchone()
    assert row is not None, f"passage {context_id} is not in the corpus"
    return row


def check_passage(db: Path, passage: dict[str, Any]) -> None:
    """The passage's citation, page, section and text are those stored for its context_id."""
    text, title, page, section_id = _stored(db, passage["context_id"])
    assert passage["citation"] == f"[{title}, p. {page}]" if page is not None else f"[{title}]"
    assert passage["page"] == page and passage["section_id"] == section_id
    if passage.get("truncated"):
        kept = passage["text"].split(" […truncated:")[0]
        assert text.startswith(kept) and len(kept) < len(text)
    else:
        assert passage["text"] == text


async def walk(client: Client, db: Path) -> None:
    """search → outline → read_section → next_section → context_window → cite, checking each step."""
    listed = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert set(listed) == TOOLS
    search_schema = listed["search"].input_schema["properties"]
    assert search_schema["k"]["maximum"] == 20 and set(search_schema["mode"]["enum"]) == {"hybrid", "bm25", "vector", "parent"}
    assert "article_ids" in search_schema and "year_from" in search_schema and "include_references" in search_schema
    assert listed["read_section"].input_schema["required"] == ["section_id"]
    assert all(tool.annotations is not None and tool.annotations.read_only_hint for tool in listed.values())
    assert "[title, p. N]" in (listed["search"].description or "")

    found = (
        await client.call_tool("search", {"query": "internal fertilization tadpoles fanged frog", "mode": "bm25", "k": 5})
    ).structured_content
    assert found is not None and found["mode"] == "bm25" and 1 <= len(found["hits"]) <= 5
    for hit in found["hits"]:
        check_passage(db, hit)
    hit = found["hits"][0]
    assert "fertilization" in hit["text"].lower()

    outline = (await client.call_tool("outline", {"article_id": hit["article_id"]})).structured_content
    assert outline is not None and outline["article"]["article_id"] == hit["article_id"]
    section_ids = [section["section_id"] for section in outline["sections"]]
    assert hit["section_id"] in section_ids and outline["total_sections"] == len(section_ids)

    page = (await client.call_tool("read_section", {"section_id": hit["section_id"]})).structured_content
    assert page is not None and page["section"]["section_id"] == hit["section_id"]
    assert hit["context_id"] in [passage["context_id"] for passage in page["passages"]]
    for passage in page["passages"]:
        check_passage(db, passage)
    assert page["next_section_id"] == section_ids[section_ids.index(hit["section_id"]) + 1]

    following = (await client.call_tool("next_section", {"section_id": hit["section_id"]})).structured_content
    assert following is not None and following["section"]["section_id"] == page["next_section_id"]
    assert following["passages"], "the next section's text comes with it"
    for passage in following["passages"]:
        check_passage(db, passage)

    window = (await client.call_tool("context_window", {"context_id": hit["context_id"], "before": 1, "after": 1})).structured_content
    assert window is not None and [passage.get("asked", False) for passage in window["passages"]].count(True) == 1
    for passage in window["passages"]:
        check_passage(db, passage)

    cited = (await client.call_tool("cite", {"ids": [hit["context_id"]], "format": "text"})).structured_content
    assert cited is not None and cited["citations"].startswith(hit["citation"])

    missing = await client.call_tool("read_section", {"section_id": "no-such-section"})
    assert missing.is_error and "no-such-section" in missing.content[0].text and "Traceback" not in missing.content[0].text


@pytest.mark.slow
def test_stdio_walk(sample_db: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "paperpyramid.services.mcp", "--db", str(sample_db)], cwd=ROOT, env={"PYTHONPATH": str(ROOT)}
    )

    async def main() -> None:
        with anyio.fail_after(WAIT):
            async with Client(params) as client:
                await walk(client, sample_db)

    anyio.run(main)


@pytest.mark.slow
def test_stdio_refuses_a_file_that_is_not_a_corpus(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    done = subprocess.run([sys.executable, "-m", "paperpyramid.services.mcp", "--db", str(junk)], cwd=ROOT, capture_output=True, text=True,
                          timeout=WAIT, stdin=subprocess.DEVNULL)  # fmt: skip
    assert done.returncode == 1 and "not a paperpyramid corpus" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""  # stdout is the MCP channel: nothing else goes there


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def http_server(db: Path, token: str | None) -> Iterator[str]:
    """The server process on a free loopback port; yields its MCP URL once it accepts connections."""
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PAPERPYRAMID_SERVE__API_TOKEN", None)
    if token:
        env["PAPERPYRAMID_SERVE__API_TOKEN"] = token
    process = subprocess.Popen([sys.executable, "-m", "paperpyramid.services.mcp", "--db", str(db), "--http", "--host", "127.0.0.1", "--port", str(port)],
                               cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    try:
        deadline = time.monotonic() + WAIT
        while True:
            assert process.poll() is None, f"the server exited: {process.stderr.read().decode() if process.stderr else ''}"
            assert time.monotonic() < deadline, f"the server did not listen within {WAIT} s"
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def _client(url: str, token: str | None) -> Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return Client(streamable_http_client(url, http_client=httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30.0))))


@pytest.mark.slow
def test_http_walk_with_the_token(sample_db: Path) -> None:
    token = "s3cret-token-for-this-test"
    with http_server(sample_db, token) as url:

        async def main() -> None:
            with anyio.fail_after(WAIT):
                async with _client(url, token) as client:
                    await walk(client, sample_db)

        anyio.run(main)

        # without the token, or with another, the server answers 401 before any MCP is spoken
        initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                      "clientInfo": {"name": "test", "version": "0"}}}  # fmt: skip
        accept = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": token}, {"Authorization": f"Bearer {token}x"}):
            refused = httpx2.post(url, json=initialize, headers={**accept, **headers}, timeout=10)
            assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
        allowed = httpx2.post(url, json=initialize, headers={**accept, "Authorization": f"Bearer {token}"}, timeout=10)
        assert allowed.status_code == 200

        async def without_token() -> None:
            with anyio.fail_after(WAIT):
                async with _client(url, None) as client:
                    await client.list_tools()

        with pytest.raises(BaseException) as refused_client:  # the SDK's client surfaces the 401 as an error response
            anyio.run(without_token)
        errors = _leaves(refused_client.value)
        assert errors and all(isinstance(error, MCPError) for error in errors), errors


def _leaves(error: BaseException) -> list[BaseException]:
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaves(inner)]
    return [error]


@pytest.mark.slow
def test_http_without_a_token_set_needs_none(sample_db: Path) -> None:
    with http_server(sample_db, None) as url:

        async def main() -> None:
            with anyio.fail_after(WAIT):
                async with _client(url, None) as client:
                    names = {tool.name for tool in (await client.list_tools()).tools}
                    assert names == TOOLS
                    found = (
                        await client.call_tool("search", {"query": "Fusarium poae volatile", "mode": "bm25", "k": 3})
                    ).structured_content
                    assert found is not None and found["hits"]
                    for hit in found["hits"]:
                        check_passage(sample_db, hit)

        anyio.run(main)
        # the SDK's DNS-rebinding guard: a Host that is not this machine is refused
        foreign = httpx2.post(url, json={}, headers={"Host": "evil.example:80", "Accept": "application/json, text/event-stream",
                                                     "Content-Type": "application/json"}, timeout=10)  # fmt: skip
        assert foreign.status_code in (400, 403, 421)


@pytest.mark.slow
def test_the_cli_command_refuses_a_file_that_is_not_a_corpus_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "notes.sqlite"
    sqlite3.connect(bad).execute("CREATE TABLE notes (x)").connection.close()
    run = subprocess.run([sys.executable, "-m", "paperpyramid.cli", "mcp", "--db", str(bad)], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "COLUMNS": "300"}, stdin=subprocess.DEVNULL)  # fmt: skip
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert run.returncode == 3 and len(lines) == 1 and "is not a paperpyramid corpus" in lines[0], run.stderr
    assert run.stdout == ""
