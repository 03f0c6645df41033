"""The OpenAI-compatible LLM client, its JSON repair turn and its response cache, against the
scripted fake chat server (tests/fake_llm.py) over real HTTP on 127.0.0.1."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, Field

from paperpyramid.db import sqlite
from paperpyramid.errors import ConfigurationError, LLMOutputError, ServiceUnavailable
from paperpyramid.llm import LLM, Usage, get_llm
from paperpyramid.llm.cache import CachedLLM, default_cache_path
from paperpyramid.llm.openai_llm import OpenAILLM
from paperpyramid.llm.structured import ReplyInvalid, parse_reply, repair_messages, schema_instructions, with_schema_instructions
from paperpyramid.settings import LLMSettings
from tests.fake_llm import FakeLLMServer, FakeReply, llm_settings


class Insights(BaseModel):
    insights: list[str]


class Concepts(BaseModel):
    concepts: list[str] = Field(description="Named concepts")


GOOD = '{"insights": ["Transformers scale.", "Attention is enough."]}'
PROMPT = [{"role": "user", "content": "List the insights of this paragraph: attention is all you need."}]


def answer(content: str | None = GOOD, **options: Any) -> Any:
    return lambda body: FakeReply(content, **options)


@pytest.fixture(scope="module")
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(answer()) as fake:
        yield fake


@pytest.fixture
def fake(server: FakeLLMServer) -> FakeLLMServer:
    server.handler = answer()
    server.requests.clear()
    return server


def client(fake: FakeLLMServer, **overrides: Any) -> OpenAILLM:
    return OpenAILLM(llm_settings(fake.base_url, **overrides))


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"


# ---------------------------------------------------------------- reading replies


def test_parse_reply_tolerates_fences_and_prose() -> None:
    fenced = f"Sure! Here is the JSON:\n```json\n{GOOD}\n```\nHope this helps {{:}}"
    assert parse_reply(fenced, Insights).insights == ["Transformers scale.", "Attention is enough."]
    # braces inside strings do not end the object; the first object wins
    tricky = 'x {"insights": ["a } b", "c \\" {"]} and {"insights": ["second"]}'
    assert parse_reply(tricky, Insights).insights == ["a } b", 'c " {']
    # a first {...} that is not JSON (prose) is passed over
    assert parse_reply('In {short}: {"insights": []}', Insights).insights == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("I cannot help with that.", "no JSON object"),
        ('{"insights": ["cut off', "not complete"),
        ("{'insights': []}", "not valid JSON"),
        ('{"insights": "one"}', "Insights: insights: Input should be a valid list"),
        ('{"findings": []}', "insights: Field required"),
    ],
)
def test_parse_reply_says_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ReplyInvalid, match=message) as caught:
        parse_reply(text, Insights)
    assert "\n" not in str(caught.value)


def test_schema_instructions_go_into_the_system_prompt() -> None:
    instructions = schema_instructions(Concepts)
    assert "JSON" in instructions and json.dumps(Concepts.model_json_schema(), separators=(",", ":")) in instructions
    added = with_schema_instructions(PROMPT, Concepts)
    assert added == [{"role": "system", "content": instructions}, *PROMPT]
    merged = with_schema_instructions([{"role": "system", "content": "You read papers."}, *PROMPT], Concepts)
    assert merged[0] == {"role": "system", "content": f"You read papers.\n\n{instructions}"} and merged[1:] == PROMPT
    repaired = repair_messages(PROMPT, "oops", "the reply holds no JSON object")
    assert repaired[:1] == PROMPT and repaired[1] == {"role": "assistant", "content": "oops"}
    assert repaired[2]["role"] == "user" and "the reply holds no JSON object" in repaired[2]["content"]


# ---------------------------------------------------------------- answers


def test_valid_reply_is_validated_with_its_usage_and_settings_sent(fake: FakeLLMServer) -> None:
    fake.handler = answer(prompt_tokens=120, completion_tokens=17)
    llm = client(fake, seed=7)
    reply = llm.complete(PROMPT, Insights, max_tokens=256)
    assert isinstance(reply.value, Insights) and reply.value.insights == ["Transformers scale.", "Attention is enough."]
    assert reply.usage == Usage(120, 17)
    assert (reply.model, reply.attempts, reply.cached) == ("openai:fake-model", 1, False)
    assert 0 < reply.seconds < 5
    [body] = fake.requests
    assert (body["model"], body["temperature"], body["seed"], body["max_tokens"]) == ("fake-model", 0.0, 7, 256)
    assert body["messages"] == with_schema_instructions(PROMPT, Insights)
    conforming: LLM = llm  # the protocol, checked by mypy
    assert conforming.name == "openai:fake-model"


def test_malformed_reply_is_repaired_once(fake: FakeLLMServer) -> None:
    replies = iter(
        [
            FakeReply("Insights: transformers scale.", prompt_tokens=100, completion_tokens=5),
            FakeReply(GOOD, prompt_tokens=130, completion_tokens=12),
        ]
    )
    fake.handler = lambda body: next(replies)
    reply = client(fake).complete(PROMPT, Insights)
    assert reply.value.insights[0] == "Transformers scale."
    assert (reply.attempts, reply.usage) == (2, Usage(230, 17))
    first, second = fake.requests
    assert second["messages"][: len(first["messages"])] == first["messages"]
    bad_turn, correction = second["messages"][len(first["messages"]) :]
    assert bad_turn == {"role": "assistant", "content": "Insights: transformers scale."}
    assert correction["role"] == "user" and "no JSON object" in correction["content"] and "JSON" in correction["content"]


def test_malformed_twice_is_llm_output_error(fake: FakeLLMServer) -> None:
    replies = iter(['{"insights": "one"}', '{"insights": "still one"}'])
    fake.handler = lambda body: FakeReply(next(replies), prompt_tokens=10, completion_tokens=3)
    with pytest.raises(LLMOutputError, match=r"openai:fake-model .*Insights after 2 attempts.*valid list") as caught:
        client(fake).complete(PROMPT, Insights)
    assert caught.value.raw == '{"insights": "still one"}'
    assert caught.value.usage == Usage(20, 6)
    assert len(fake.requests) == 2


def test_no_content_is_an_invalid_reply(fake: FakeLLMServer) -> None:
    replies = iter([FakeReply(None), FakeReply(GOOD)])
    fake.handler = lambda body: next(replies)
    reply = client(fake).complete(PROMPT, Insights)
    assert reply.attempts == 2 and len(fake.requests) == 2
    assert "empty" in fake.requests[1]["messages"][-1]["content"]


# ---------------------------------------------------------------- structured output modes


def test_json_schema_mode_sends_the_schema(fake: FakeLLMServer) -> None:
    client(fake, structured_output="json_schema").complete(PROMPT, Insights)
    response_format = fake.requests[0]["response_format"]
    assert response_format == {
        "type": "json_schema",
        "json_schema": {"name": "Insights", "schema": Insights.model_json_schema(), "strict": False},
    }


def test_json_object_mode_puts_the_schema_in_the_prompt(fake: FakeLLMServer) -> None:
    client(fake, structured_output="json_object").complete(PROMPT, Insights)
    body = fake.requests[0]
    assert body["response_format"] == {"type": "json_object"}
    assert body["messages"][0] == {"role": "system", "content": schema_instructions(Insights)}


def refuses_json_schema(body: dict[str, Any]) -> FakeReply:
    if body["response_format"]["type"] == "json_schema":
        return FakeReply(status=400, error='response_format type must be one of "text" or "json_object", but got: json_schema')
    return FakeReply(GOOD)


def test_auto_falls_back_to_json_object_and_remembers(fake: FakeLLMServer) -> None:
    fake.handler = refuses_json_schema
    llm = client(fake)
    assert llm.structured_output == "json_schema"
    assert llm.complete(PROMPT, Insights).value.insights[1] == "Attention is enough."
    assert llm.structured_output == "json_object"
    assert llm.complete(PROMPT, Insights).attempts == 1
    assert [body["response_format"]["type"] for body in fake.requests] == ["json_schema", "json_object", "json_object"]


def test_explicit_json_schema_refused_is_configuration_error(fake: FakeLLMServer) -> None:
    fake.handler = refuses_json_schema
    with pytest.raises(ConfigurationError, match="HTTP 400: response_format type must be"):
        client(fake, structured_output="json_schema").complete(PROMPT, Insights)
    assert len(fake.requests) == 1


# ---------------------------------------------------------------- failures and retries


def test_rate_limit_retry_after_wins_over_backoff(fake: FakeLLMServer) -> None:
    replies = iter([FakeReply(status=429, headers={"Retry-After": "0"}, error="slow down"), FakeReply(GOOD)])
    fake.handler = lambda body: next(replies)
    started = time.monotonic()
    reply = client(fake, backoff=30.0).complete(PROMPT, Insights)
    assert time.monotonic() - started < 2  # Retry-After: 0, not the 30 s backoff
    assert reply.attempts == 1 and len(fake.requests) == 2
    assert fake.requests[0] == fake.requests[1]


def test_server_error_for_ever_is_service_unavailable(fake: FakeLLMServer) -> None:
    fake.handler = answer(status=503, error="model is loading")
    with pytest.raises(ServiceUnavailable, match=r"after 4 attempts: HTTP 503: model is loading") as caught:
        client(fake, retries=3).complete(PROMPT, Insights)
    assert fake.base_url in str(caught.value) and "\n" not in str(caught.value)
    assert len(fake.requests) == 4


def test_dropped_connection_is_retried(fake: FakeLLMServer) -> None:
    replies = iter([FakeReply(drop=True), FakeReply(GOOD)])
    fake.handler = lambda body: next(replies)
    assert client(fake).complete(PROMPT, Insights).value.insights[0] == "Transformers scale."
    assert len(fake.requests) == 2


def test_unreachable_endpoint_is_service_unavailable_quickly() -> None:
    url = closed_port_url()
    started = time.monotonic()
    with pytest.raises(ServiceUnavailable, match="3 attempts: unreachable") as caught:
        OpenAILLM(llm_settings(url)).complete(PROMPT, Insights)
    assert url in str(caught.value)
    assert time.monotonic() - started < 2


def test_stalled_server_is_service_unavailable(fake: FakeLLMServer) -> None:
    def stall(body: dict[str, Any]) -> FakeReply:
        time.sleep(0.4)
        return FakeReply(GOOD)

    fake.handler = stall
    with pytest.raises(ServiceUnavailable, match=r"2 attempts: no answer in 0\.1 s"):
        client(fake, retries=1, timeout=0.1).complete(PROMPT, Insights)
    assert len(fake.requests) == 2


@pytest.mark.parametrize(("status", "message"), [(401, "invalid api key"), (404, "model 'fake-model' not found")])
def test_client_error_is_configuration_error_without_retry(fake: FakeLLMServer, status: int, message: str) -> None:
    fake.handler = answer(status=status, error=message)
    with pytest.raises(ConfigurationError, match=f"HTTP {status}: {message}") as caught:
        client(fake, retries=3).complete(PROMPT, Insights)
    assert fake.base_url in str(caught.value)
    assert len(fake.requests) == 1


def test_concurrency_is_bounded(fake: FakeLLMServer) -> None:
    lock = threading.Lock()
    in_flight, most = 0, 0

    def slow(body: dict[str, Any]) -> FakeReply:
        nonlocal in_flight, most
        with lock:
            in_flight += 1
            most = max(most, in_flight)
        time.sleep(0.15)
        with lock:
            in_flight -= 1
        return FakeReply(GOOD)

    fake.handler = slow
    llm = client(fake, concurrency=2)
    results: list[Insights] = []
    threads = [threading.Thread(target=lambda: results.append(llm.complete(PROMPT, Insights).value)) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert len(results) == 6 and len(fake.requests) == 6
    assert most == 2


# ---------------------------------------------------------------- settings


def test_missing_base_url_or_model_is_configuration_error() -> None:
    with pytest.raises(ConfigurationError, match="OPENAI_BASE_URL"):
        OpenAILLM(LLMSettings(backend="openai", base_url=None, model="m"))
    with pytest.raises(ConfigurationError, match="PAPERPYRAMID_LLM__MODEL or pass --llm-model"):
        get_llm(LLMSettings(backend="openai", base_url="http://127.0.0.1:9/v1", model=None, cache=False))


def test_get_llm_puts_the_cache_in_front(fake: FakeLLMServer, tmp_path: Path) -> None:
    cached = get_llm(llm_settings(fake.base_url, cache=True, cache_path=str(tmp_path / "cache.sqlite")))
    assert isinstance(cached, CachedLLM) and isinstance(cached.inner, OpenAILLM)
    assert (tmp_path / "cache.sqlite").is_file()
    bare = get_llm(llm_settings(fake.base_url, context_window=4096))
    assert isinstance(bare, OpenAILLM)
    assert (bare.name, bare.context_window, cached.name) == ("openai:fake-model", 4096, "openai:fake-model")
    assert bare.count_tokens("") == 0 and 10 <= bare.count_tokens("word " * 40) <= 80


def test_default_cache_path_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_path() == tmp_path / "paperpyramid" / "llm-cache.sqlite"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_cache_path() == Path.home() / ".cache" / "paperpyramid" / "llm-cache.sqlite"


# ---------------------------------------------------------------- the cache


def test_cache_hit_costs_no_request(fake: FakeLLMServer, tmp_path: Path) -> None:
    fake.handler = answer(prompt_tokens=50, completion_tokens=9)
    with CachedLLM(client(fake), tmp_path / "cache" / "llm.sqlite") as llm:
        first = llm.complete(PROMPT, Insights)
        second = llm.complete(PROMPT, Insights)
    assert len(fake.requests) == 1
    assert (first.cached, second.cached) == (False, True)
    assert second.value == first.value and second.usage == first.usage == Usage(50, 9)
    assert second.model == "openai:fake-model"


def test_cache_misses_when_anything_that_decides_the_reply_changes(fake: FakeLLMServer, tmp_path: Path) -> None:
    path = tmp_path / "llm.sqlite"
    fake.handler = lambda body: FakeReply('{"insights": ["a"], "concepts": ["b"]}')
    llm = CachedLLM(client(fake), path)
    llm.complete(PROMPT, Insights)
    llm.complete(PROMPT, Concepts)  # another schema
    llm.complete([{"role": "user", "content": "Another paragraph."}], Insights)  # another prompt
    llm.complete(PROMPT, Insights, max_tokens=99)  # another budget
    CachedLLM(client(fake, model="other-model"), path).complete(PROMPT, Insights)  # another model
    CachedLLM(client(fake), path, seed=1).complete(PROMPT, Insights)  # another seed
    assert len(fake.requests) == 6
    assert {body["model"] for body in fake.requests} == {"fake-model", "other-model"}
    # and each of them is a hit now
    assert llm.complete(PROMPT, Concepts).cached and llm.complete(PROMPT, Insights, max_tokens=99).cached
    assert len(fake.requests) == 6


def test_cache_survives_reopening(fake: FakeLLMServer, tmp_path: Path) -> None:
    path = tmp_path / "llm.sqlite"
    with CachedLLM(client(fake), path) as llm:
        first = llm.complete(PROMPT, Insights)
    with CachedLLM(client(fake), path) as reopened:
        again = reopened.complete(PROMPT, Insights)
    assert again.cached and again.value == first.value and len(fake.requests) == 1


def test_failures_are_not_cached(fake: FakeLLMServer, tmp_path: Path) -> None:
    llm = CachedLLM(client(fake, retries=0), tmp_path / "llm.sqlite")
    fake.handler = answer("not json")
    with pytest.raises(LLMOutputError):
        llm.complete(PROMPT, Insights)
    fake.handler = answer(status=500)
    with pytest.raises(ServiceUnavailable):
        llm.complete(PROMPT, Insights)
    fake.handler = answer()
    reply = llm.complete(PROMPT, Insights)
    assert not reply.cached and len(fake.requests) == 4


def test_stored_value_that_no_longer_validates_is_a_miss(fake: FakeLLMServer, tmp_path: Path) -> None:
    path = tmp_path / "llm.sqlite"
    llm = CachedLLM(client(fake), path)
    llm.complete(PROMPT, Insights)
    conn = sqlite.sqlite3.connect(str(path), isolation_level=None)
    conn.execute("""UPDATE replies SET value_json = '{"insights": 3}'""")
    conn.close()
    reply = llm.complete(PROMPT, Insights)
    assert not reply.cached and len(fake.requests) == 2
    assert llm.complete(PROMPT, Insights).cached  # stored afresh


def test_unusable_cache_path_is_configuration_error(tmp_path: Path, fake: FakeLLMServer) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(ConfigurationError, match="PAPERPYRAMID_LLM__CACHE"):
        CachedLLM(client(fake), blocker / "llm.sqlite")
