"""The OpenAI-compatible LLM client against a misbehaving server on 127.0.0.1 (tests/fake_llm.py):
no usage reported, a reply trickled a byte at a time or gone silent half-way, retries, a reply far
longer than max_tokens, JSON nested a hundred thousand levels deep, and two endpoints sharing one
response cache. Each test reproduces a fault of issue 20 at a small size."""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel
from typer.testing import CliRunner

from paperpyramid.cli import app
from paperpyramid.embeddings.openai import OpenAIEmbedder
from paperpyramid.errors import LLMOutputError, ServiceUnavailable
from paperpyramid.llm import Usage
from paperpyramid.llm.cache import CachedLLM
from paperpyramid.llm.openai_llm import OpenAILLM
from paperpyramid.llm.structured import with_schema_instructions
from paperpyramid.llm.tools import Tool, choose_tool
from paperpyramid.llm.wire import reply_byte_limit
from tests.fake_llm import FakeLLMServer, FakeReply, Handler, llm_settings
from tests.test_distill import ScriptedModel, make_corpus, paper, run, step


class Insights(BaseModel):
    insights: list[str]


class Keep(BaseModel):
    keep: list[int]


GOOD = '{"insights": ["Transformers scale.", "Attention is enough."]}'
PROMPT = [{"role": "user", "content": "List the insights of this paragraph: attention is all you need. " * 20}]
DEPTH = 100_000
NESTED = '{"insights": ' + "[" * DEPTH + "]" * DEPTH + "}"


@pytest.fixture(scope="module")
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(lambda body: FakeReply(GOOD)) as fake:
        yield fake


@pytest.fixture
def fake(server: FakeLLMServer) -> FakeLLMServer:
    server.handler = lambda body: FakeReply(GOOD)
    server.requests.clear()
    return server


def client(fake: FakeLLMServer, **overrides: Any) -> OpenAILLM:
    return OpenAILLM(llm_settings(fake.base_url, **overrides))


def replies(*answers: FakeReply) -> Handler:
    """A handler that gives ``answers`` in turn, the last one for ever after."""
    given = iter(answers)
    last = [answers[-1]]

    def handler(body: dict[str, Any]) -> FakeReply:
        last[0] = next(given, last[0])
        return last[0]

    return handler


# ---------------------------------------------------------------- 5. usage the server does not report


@pytest.mark.parametrize(
    "reply", [FakeReply(GOOD, usage=False), FakeReply(GOOD, prompt_tokens=0, completion_tokens=0)], ids=["left-out", "zero"]
)
def test_usage_left_out_or_zero_is_counted_here(fake: FakeLLMServer, reply: FakeReply) -> None:
    fake.handler = lambda body: reply
    llm = client(fake)
    counted = llm.complete(PROMPT, Insights).usage
    sent = "".join(message["content"] for message in with_schema_instructions(PROMPT, Insights))
    assert counted.prompt_tokens >= llm.count_tokens(sent) > 200
    assert counted.completion_tokens == llm.count_tokens(GOOD) > 0


def test_a_reported_usage_is_kept(fake: FakeLLMServer) -> None:
    fake.handler = lambda body: FakeReply(GOOD, prompt_tokens=7, completion_tokens=3)
    assert client(fake).complete(PROMPT, Insights).usage == Usage(7, 3)


def walking_without_usage(body: dict[str, Any]) -> FakeReply:
    """Walks on for ever (a native tool call) and answers without claims; never reports usage."""
    if "tools" in body:
        return FakeReply(tool_calls=[{"name": "next_section", "arguments": {"keep": []}}], usage=False)
    return FakeReply(json.dumps({"claims": []}), usage=False)


def test_walk_token_budget_holds_when_the_server_reports_no_usage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=6)})
    with FakeLLMServer(walking_without_usage) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("PAPERPYRAMID_LLM__CACHE", "false")
        result = CliRunner().invoke(
            app,
            [
                "ask",
                "how large did the shark colony grow",
                "--db",
                str(db),
                "--strategy",
                "walk",
                "--llm-backend",
                "openai",
                "--llm-model",
                "fake-model",
                "--max-llm-tokens",
                "100",
                "--max-steps",
                "20",
                "--json",
            ],
        )
        moves = [body for body in server.requests if "tools" in body]
    assert result.exit_code == 0, result.output
    assert len(moves) == 1  # the first move spent the 100 tokens
    assert "token budget spent" in result.output
    usage = json.loads(result.stdout.strip().splitlines()[-1])["usage"]
    assert usage["prompt_tokens"] > 100 and usage["completion_tokens"] > 0


# ---------------------------------------------------------------- 7. a wall-clock deadline, retries reported


def test_trickled_reply_ends_at_the_deadline(fake: FakeLLMServer) -> None:
    # 10 spaces, one every 0.5 s: each read returns well within the timeout, the whole reply does not
    fake.handler = lambda body: FakeReply(GOOD, padding=10, trickle=0.5)
    started = time.monotonic()
    with pytest.raises(ServiceUnavailable, match=r"after 1 attempt: no complete answer in 2 s"):
        client(fake, retries=0, timeout=2.0).complete(PROMPT, Insights)
    assert 1.9 < time.monotonic() - started < 3.0


def test_silence_half_way_ends_at_the_deadline_not_a_read_timeout_later(fake: FakeLLMServer) -> None:
    # 1.5 s of trickle, then silence: a per-read timeout alone would end it at 1.5 + 2 s
    fake.handler = lambda body: FakeReply(GOOD, padding=5, trickle=0.3, stall=8.0)
    started = time.monotonic()
    with pytest.raises(ServiceUnavailable, match=r"answer in 2 s"):
        client(fake, retries=0, timeout=2.0).complete(PROMPT, Insights)
    assert 1.9 < time.monotonic() - started < 2.7


class TrickleServer:
    """A raw HTTP server on 127.0.0.1 that answers every request with ``head`` and ``body``,
    one byte every ``every`` seconds, for at most ``bound`` seconds: the status line and headers
    trickled, which uvicorn (the fake's server) cannot do."""

    def __init__(self, head: bytes, body: bytes = b"", every: float = 0.25, bound: float = 15.0) -> None:
        self.response, self.every, self.bound = head + body, every, bound
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.2)
        self.base_url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/v1"
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def __enter__(self) -> TrickleServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(5)
        self.listener.close()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            threading.Thread(target=self._trickle, args=(connection,), daemon=True).start()

    def _trickle(self, connection: socket.socket) -> None:
        ends = time.monotonic() + self.bound
        with connection, contextlib.suppress(OSError):
            connection.recv(65536)
            for byte in self.response:
                if self.stop.is_set() or time.monotonic() > ends:
                    return
                connection.sendall(bytes([byte]))
                time.sleep(self.every)


TRICKLED_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Padding: " + b"p" * 200 + b"\r\n\r\n"
TRICKLED_ERROR = b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: 300\r\n\r\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("head", "body"),
    [(TRICKLED_HEAD, b""), (TRICKLED_ERROR, b'{"error": {"message": "' + b"x" * 270 + b'"}}')],
    ids=["headers", "error-body"],
)
def test_trickled_headers_or_error_body_end_at_the_deadline(head: bytes, body: bytes) -> None:
    # Each byte comes well within the per-read timeout; the status line and headers (or a 503's
    # body, which the openai client reads itself) never finish within the 2 s deadline.
    with TrickleServer(head, body) as server:
        started = time.monotonic()
        with pytest.raises(ServiceUnavailable, match=r"after 2 attempts: no (complete )?answer in 2 s"):
            OpenAILLM(llm_settings(server.base_url, retries=1, timeout=2.0)).complete(PROMPT, Insights)
        assert 3.9 < time.monotonic() - started < 6.0  # two attempts of 2 s and a 0.01 s backoff


def test_embeddings_trickled_headers_end_at_the_deadline() -> None:
    with TrickleServer(TRICKLED_HEAD) as server:
        embedder = OpenAIEmbedder(server.base_url, "fake-embedder", dimensions=4, retries=0, timeout=2.0)
        started = time.monotonic()
        with pytest.raises(ServiceUnavailable, match=r"no answer in 2 s"):
            embedder.embed_passages(["a passage"])
        assert 1.9 < time.monotonic() - started < 3.0


def test_a_slow_but_timely_reply_is_read(fake: FakeLLMServer) -> None:
    fake.handler = lambda body: FakeReply(GOOD, padding=4, trickle=0.1, stall=0.2)
    assert client(fake, timeout=3.0).complete(PROMPT, Insights).value.insights[0] == "Transformers scale."


def test_retries_are_reported_as_they_happen(fake: FakeLLMServer, caplog: pytest.LogCaptureFixture) -> None:
    arrived: list[float] = []
    answers = replies(FakeReply(GOOD, padding=20, trickle=0.1), FakeReply(status=503, error="model is loading"), FakeReply(GOOD))

    def handler(body: dict[str, Any]) -> FakeReply:
        arrived.append(time.time())
        return answers(body)

    fake.handler = handler
    with caplog.at_level(logging.WARNING, logger="paperpyramid.llm.openai_llm"):
        reply = client(fake, retries=3, timeout=1.0, backoff=0.2).complete(PROMPT, Insights)
    assert reply.value.insights[1] == "Attention is enough." and len(arrived) == 3
    warnings = [record for record in caplog.records if record.levelno == logging.WARNING]
    assert [record.getMessage() for record in warnings] == [
        f"LLM endpoint {fake.base_url}: no complete answer in 1 s (attempt 1 of 4); retrying in 0.2 s",
        f"LLM endpoint {fake.base_url}: HTTP 503: model is loading (attempt 2 of 4); retrying in 0.4 s",
    ]
    # each said before the next attempt went out, not after the call
    assert arrived[0] < warnings[0].created < arrived[1] < warnings[1].created < arrived[2]


# ---------------------------------------------------------------- 6. a reply longer than max_tokens


def test_reply_longer_than_max_tokens_is_cut_off_and_counted(fake: FakeLLMServer) -> None:
    huge = json.dumps({"insights": ["word " * 1_600_000]})  # 8 MB for a reply of at most 256 tokens
    fake.handler = lambda body: FakeReply(huge, completion_tokens=2_000_000)
    started = time.monotonic()
    with pytest.raises(LLMOutputError, match=r"longer than max_tokens=256 allows \(more than [\d,]+ bytes\); it was cut off") as caught:
        client(fake).complete(PROMPT, Insights, max_tokens=256)
    assert time.monotonic() - started < 5
    assert len(fake.requests) == 1  # not retried: asking again would pay again
    usage = caught.value.usage
    assert isinstance(usage, Usage) and usage.completion_tokens == 256 and usage.prompt_tokens > 200
    assert reply_byte_limit(256) < 200_000


def test_a_cut_off_repair_turn_counts_the_first_attempt_too(fake: FakeLLMServer) -> None:
    fake.handler = replies(
        FakeReply("no JSON here", prompt_tokens=100, completion_tokens=5), FakeReply(json.dumps({"insights": ["w " * 200_000]}))
    )
    with pytest.raises(LLMOutputError, match="cut off") as caught:
        client(fake).complete(PROMPT, Insights, max_tokens=64)
    usage = caught.value.usage
    assert isinstance(usage, Usage) and usage.completion_tokens == 5 + 64 and usage.prompt_tokens > 100


# ---------------------------------------------------------------- 9. JSON nested too deeply


def test_deeply_nested_reply_is_repaired(fake: FakeLLMServer) -> None:
    fake.handler = replies(FakeReply(NESTED), FakeReply(GOOD))
    reply = client(fake).complete(PROMPT, Insights)
    assert reply.attempts == 2 and reply.value.insights[0] == "Transformers scale."
    assert "nested too deeply" in fake.requests[1]["messages"][-1]["content"]


def test_deeply_nested_twice_is_a_clean_failure(fake: FakeLLMServer) -> None:
    fake.handler = lambda body: FakeReply(NESTED)
    with pytest.raises(LLMOutputError, match=r"Insights after 2 attempts: the reply's JSON is nested too deeply"):
        client(fake).complete(PROMPT, Insights)
    assert len(fake.requests) == 2


def test_deeply_nested_tool_arguments_are_repaired(fake: FakeLLMServer) -> None:
    fake.handler = replies(
        FakeReply(tool_calls=[{"name": "done", "arguments": '{"keep": ' + "[" * DEPTH + "]" * DEPTH + "}"}]),
        FakeReply(tool_calls=[{"name": "done", "arguments": {"keep": [2]}}]),
    )
    call = choose_tool(client(fake), PROMPT, [Tool("done", "End the walk, keeping passages.", Keep)])
    assert call.attempts == 2 and call.arguments == Keep(keep=[2])
    assert "nested too deeply" in fake.requests[1]["messages"][-1]["content"]


def test_distill_repairs_a_deeply_nested_reply(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=2)})
    scripted, nested = ScriptedModel(), [FakeReply(NESTED)]

    def model(body: dict[str, Any]) -> FakeReply:
        return nested.pop() if step(body) == "insights" and nested else scripted(body)

    with FakeLLMServer(model) as server:
        summary = run(db, server.base_url)
        repair_turn = server.requests[1]["messages"][-1]["content"]
    assert (summary.done, summary.failed) == (1, 0)
    assert "nested too deeply" in repair_turn


def test_distill_fails_the_article_cleanly_on_two_deeply_nested_replies(tmp_path: Path) -> None:
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"beta": paper("beta", pages=2)})
    with FakeLLMServer(lambda body: FakeReply(NESTED)) as server:
        summary = run(db, server.base_url)
        asked = len(server.requests)
    [outcome] = summary.outcomes
    assert asked == 2  # the first call and its repair turn
    assert outcome.status == "failed" and outcome.error is not None and "nested too deeply" in outcome.error


def test_cli_ask_on_a_deeply_nested_reply_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "corpus.sqlite"
    make_corpus(db, {"alpha": paper("alpha", pages=2)})
    with FakeLLMServer(lambda body: FakeReply(NESTED)) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("PAPERPYRAMID_LLM__CACHE", "false")
        result = CliRunner().invoke(
            app, ["ask", "shark colony", "--db", str(db), "--strategy", "bm25", "--llm-backend", "openai", "--llm-model", "fake-model"]
        )
    assert isinstance(result.exception, SystemExit) and result.exit_code == 3, result.exception
    assert "error: openai:fake-model did not answer with a valid" in result.output and "nested too deeply" in result.output
    assert "Traceback" not in result.output


# ---------------------------------------------------------------- 11. the cache and the endpoint


def test_cache_keys_replies_by_endpoint(fake: FakeLLMServer, tmp_path: Path) -> None:
    path = tmp_path / "llm.sqlite"
    fake.handler = lambda body: FakeReply('{"insights": ["from A"]}')
    with FakeLLMServer(lambda body: FakeReply('{"insights": ["from B"]}')) as other:
        first = CachedLLM(client(fake), path).complete(PROMPT, Insights)
        second = CachedLLM(OpenAILLM(llm_settings(other.base_url)), path).complete(PROMPT, Insights)
        assert (second.value.insights, second.cached, len(other.requests)) == (["from B"], False, 1)
        again = CachedLLM(OpenAILLM(llm_settings(other.base_url + "/")), path).complete(PROMPT, Insights)  # the same server
    assert (first.value.insights, first.cached) == (["from A"], False)
    assert (again.value.insights, again.cached) == (["from B"], True)
    back = CachedLLM(client(fake), path).complete(PROMPT, Insights)
    assert (back.value.insights, back.cached, len(fake.requests)) == (["from A"], True, 1)
