"""Choosing a tool (paperpyramid.llm.tools) against the scripted fake chat server on 127.0.0.1:
native tool calls, their repair turn, the JSON choice where a server refuses tools (remembered),
and the response cache in front of both."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, Field

from paperpyramid.errors import LLMOutputError
from paperpyramid.llm import get_llm
from paperpyramid.llm.openai_llm import OpenAILLM
from paperpyramid.llm.tools import Tool, choose_tool
from tests.fake_llm import FakeLLMServer, FakeReply, llm_settings


class Turn(BaseModel):
    keep: list[int] = Field(description="passages to keep")


class Jump(Turn):
    page: int = Field(description="the page to jump to")


class Find(Turn):
    query: str = Field(description="keywords")


TOOLS = (Tool("turn", "Turn the page.", Turn), Tool("jump", "Jump to a page.", Jump), Tool("find", "Find keywords.", Find))
PROMPT = [{"role": "system", "content": "You read a paper."}, {"role": "user", "content": "Where is the answer?"}]


@pytest.fixture(scope="module")
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(lambda body: FakeReply("{}")) as fake:
        yield fake


@pytest.fixture
def fake(server: FakeLLMServer) -> FakeLLMServer:
    server.requests.clear()
    return server


def tool_call(name: str, arguments: Any, *, prompt_tokens: int | None = None, completion_tokens: int | None = None) -> FakeReply:
    return FakeReply(tool_calls=[{"name": name, "arguments": arguments}], prompt_tokens=prompt_tokens, completion_tokens=completion_tokens)


def replies(*answers: FakeReply) -> Any:
    """A handler that gives ``answers`` in turn."""
    queue = list(answers)
    return lambda body: queue.pop(0)


def test_native_call_sends_the_tools_and_validates_the_arguments(fake: FakeLLMServer) -> None:
    fake.handler = replies(tool_call("jump", {"keep": [2], "page": 7}, prompt_tokens=40, completion_tokens=6))
    call = choose_tool(OpenAILLM(llm_settings(fake.base_url)), PROMPT, TOOLS)
    body = fake.requests[0]
    assert [tool["function"]["name"] for tool in body["tools"]] == ["turn", "jump", "find"]
    assert body["tools"][1]["function"]["description"] == "Jump to a page."
    assert body["tools"][1]["function"]["parameters"]["required"] == ["keep", "page"]
    assert body["tool_choice"] == "required" and "response_format" not in body
    assert (call.name, call.arguments, call.native, call.attempts) == ("jump", Jump(keep=[2], page=7), True, 1)
    assert (call.usage.prompt_tokens, call.usage.completion_tokens) == (40, 6)


def test_unknown_tool_is_repaired_with_a_tool_message(fake: FakeLLMServer) -> None:
    fake.handler = replies(
        tool_call("delete_corpus", {"keep": []}, prompt_tokens=30, completion_tokens=5),
        tool_call("find", '{"keep": [], "query": "nests"}', prompt_tokens=50, completion_tokens=7),
    )
    call = choose_tool(OpenAILLM(llm_settings(fake.base_url)), PROMPT, TOOLS)
    assert (call.name, call.arguments, call.attempts) == ("find", Find(keep=[], query="nests"), 2)
    assert (call.usage.prompt_tokens, call.usage.completion_tokens) == (80, 12)
    assistant, answer = fake.requests[1]["messages"][-2:]
    assert assistant["tool_calls"][0]["function"]["name"] == "delete_corpus"
    assert answer["role"] == "tool" and answer["tool_call_id"] == assistant["tool_calls"][0]["id"]
    assert "there is no tool 'delete_corpus'; the tools are: turn, jump, find" in answer["content"]


def test_invalid_arguments_twice_is_llm_output_error(fake: FakeLLMServer) -> None:
    fake.handler = lambda body: tool_call("jump", '{"keep": [1], "page": "seven"}', prompt_tokens=30, completion_tokens=5)
    with pytest.raises(LLMOutputError, match="did not call a tool validly after 2 attempts: the arguments of jump are not valid") as caught:
        choose_tool(OpenAILLM(llm_settings(fake.base_url)), PROMPT, TOOLS)
    assert len(fake.requests) == 2 and "page" in fake.requests[1]["messages"][-1]["content"]
    assert (caught.value.usage.prompt_tokens, caught.value.usage.completion_tokens) == (60, 10)  # type: ignore[attr-defined]


def test_a_reply_in_text_is_read_as_the_json_choice(fake: FakeLLMServer) -> None:
    fake.handler = replies(FakeReply('I will search. {"tool": "find", "keep": [3], "query": "heron nests"}'))
    call = choose_tool(OpenAILLM(llm_settings(fake.base_url)), PROMPT, TOOLS)
    assert (call.name, call.arguments, len(fake.requests)) == ("find", Find(keep=[3], query="heron nests"), 1)


def test_refused_tools_fall_back_to_json_and_the_client_remembers(fake: FakeLLMServer) -> None:
    def handler(body: dict[str, Any]) -> FakeReply:
        if "tools" in body:
            return FakeReply(status=400, error="tools are not supported by this server")
        return FakeReply(json.dumps({"tool": "jump", "keep": [], "page": 3}), prompt_tokens=90, completion_tokens=9)

    fake.handler = handler
    llm = OpenAILLM(llm_settings(fake.base_url))
    first = choose_tool(llm, PROMPT, TOOLS)
    second = choose_tool(llm, PROMPT, TOOLS)
    assert ["tools" in body for body in fake.requests] == [True, False, False]  # refused once, then JSON only
    system = fake.requests[1]["messages"][0]["content"]
    assert "JSON schema" in system and "- jump: Jump to a page." in system
    assert fake.requests[1]["response_format"]["type"] == "json_schema"
    assert (first.name, first.arguments, first.native) == ("jump", Jump(keep=[], page=3), False)
    assert (second.name, second.arguments, second.native) == (first.name, first.arguments, False)
    assert llm.tools_refused and (first.usage.prompt_tokens, first.usage.completion_tokens) == (90, 9)


def test_json_choice_whose_arguments_miss_the_tools_field_is_repaired(fake: FakeLLMServer) -> None:
    answers = iter([{"tool": "jump", "keep": [1]}, {"tool": "jump", "keep": [1], "page": 4}])
    fake.handler = lambda body: FakeReply(status=400) if "tools" in body else FakeReply(json.dumps(next(answers)))
    call = choose_tool(OpenAILLM(llm_settings(fake.base_url)), PROMPT, TOOLS)
    assert (call.name, call.arguments) == ("jump", Jump(keep=[1], page=4))
    assert "the arguments of jump are not valid: page" in fake.requests[-1]["messages"][-1]["content"]


def test_cache_serves_a_repeated_tool_call_without_a_request(fake: FakeLLMServer, tmp_path: Path) -> None:
    fake.handler = lambda body: tool_call("find", {"keep": [1], "query": "shark"}, prompt_tokens=70, completion_tokens=8)
    llm = get_llm(llm_settings(fake.base_url, cache=True, cache_path=str(tmp_path / "cache.sqlite")))
    first = choose_tool(llm, PROMPT, TOOLS)
    again = choose_tool(llm, PROMPT, TOOLS)
    fewer = choose_tool(llm, PROMPT, TOOLS[:2] + (Tool("find", "Find words.", Find),))  # other tools: a miss
    assert len(fake.requests) == 2
    assert not first.cached and again.cached and again.native and (again.name, again.arguments) == (first.name, first.arguments)
    assert not fewer.cached and (again.usage.prompt_tokens, again.usage.completion_tokens) == (70, 8)


def test_cache_keeps_the_json_choice_too(fake: FakeLLMServer, tmp_path: Path) -> None:
    fake.handler = lambda body: FakeReply(status=400) if "tools" in body else FakeReply('{"tool": "turn", "keep": [2]}')
    llm = get_llm(llm_settings(fake.base_url, cache=True, cache_path=str(tmp_path / "cache.sqlite")))
    first = choose_tool(llm, PROMPT, TOOLS)
    again = choose_tool(llm, PROMPT, TOOLS)
    assert ["tools" in body for body in fake.requests] == [True, False]
    assert again.cached and not again.native and again.arguments == first.arguments == Turn(keep=[2])
