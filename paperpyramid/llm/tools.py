"""Letting a model choose one of several tools: native tool calls where the server takes them,
the same choice as one JSON object where it does not.

A :class:`Tool` is a name, the description the model reads (what the tool returns and when to
call it) and a pydantic model of its arguments. :func:`choose_tool` asks the model to call
exactly one tool and returns a :class:`ToolCall` whose arguments are validated:

- natively, when the LLM takes tool calls (:class:`NativeTools`: the OpenAI-compatible backend,
  also behind the response cache): the tools go out as ``tools`` with ``tool_choice="required"``
  and the reply's first tool call is read; a reply with text instead of a call is read as the
  JSON choice below. An unknown tool or invalid arguments go back to the model once, saying
  what was wrong (:func:`call_with_repair`); a second bad call is an
  :class:`~paperpyramid.errors.LLMOutputError`. A server that refuses ``tools`` (HTTP 400) is
  remembered by its client, which takes the JSON way from then on.
- as JSON (the local backend, or a server that refused tools): one flat object, the tool's name
  and every tool's arguments (:func:`choice_model`), through ``llm.complete`` with its repair
  turn, then validated into the chosen tool's arguments.

Tools only describe; running the chosen one is the caller's business.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, Protocol, cast, runtime_checkable

from pydantic import BaseModel, Field, ValidationError, create_model, model_validator

from paperpyramid.errors import LLMOutputError
from paperpyramid.llm import LLM, Message, Usage
from paperpyramid.llm.structured import ReplyInvalid, ask_with_repair, describe_errors, parse_reply


@dataclass(frozen=True, slots=True)
class Tool:
    """A tool the model may call: ``description`` is what the model reads (say what it returns
    and when to call it); ``parameters`` is the model of its arguments, whose field
    descriptions the model reads too."""

    name: str
    description: str
    parameters: type[BaseModel]

    def spec(self) -> dict[str, Any]:
        """The tool as the OpenAI ``tools`` list wants it."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters.model_json_schema()},
        }


@dataclass(frozen=True, slots=True)
class ToolCall:
    """The tool the model chose and its validated arguments. ``native`` says whether it came as
    a tool call or as JSON; ``usage`` counts every attempt (a repair turn included), and a call
    from the cache carries the usage of the call that made it and ``cached=True``."""

    name: str
    arguments: BaseModel
    usage: Usage
    native: bool
    cached: bool = False
    attempts: int = 1
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class ToolReply:
    """One native reply as it came: its tool calls as (id, name, arguments text), and its text."""

    calls: tuple[tuple[str, str, str], ...]
    text: str


@runtime_checkable
class NativeTools(Protocol):
    """An LLM that can be asked for a native tool call."""

    def call_tool(self, messages: Sequence[Message], tools: Sequence[Tool], *, max_tokens: int = 1024) -> ToolCall | None:
        """The model's tool call, or None when this model's server does not take tools (then
        ask for the JSON choice)."""
        ...


def choose_tool(llm: LLM, messages: Sequence[Message], tools: Sequence[Tool], *, max_tokens: int = 1024) -> ToolCall:
    """The one tool the model calls for ``messages``, natively where it can, as JSON otherwise
    (see the module docstring). Raises :class:`~paperpyramid.errors.LLMOutputError` when the
    model names no valid tool with valid arguments even after a repair turn;
    :class:`~paperpyramid.errors.ServiceUnavailable` passes through."""
    if not tools:
        raise ValueError("choose_tool needs at least one tool")
    if isinstance(llm, NativeTools):
        call = llm.call_tool(messages, tools, max_tokens=max_tokens)
        if call is not None:
            return call
    started = time.monotonic()
    reply = llm.complete(messages, choice_model(tuple(tools)), max_tokens=max_tokens)
    tool, arguments = read_choice(reply.value, tools)
    return ToolCall(
        tool.name, arguments, reply.usage, native=False, cached=reply.cached, attempts=reply.attempts, seconds=time.monotonic() - started
    )


class _Choice(BaseModel):
    """The base of every :func:`choice_model`: the chosen tool's arguments must validate."""

    tools: ClassVar[tuple[Tool, ...]] = ()

    @model_validator(mode="after")
    def _arguments_fit_the_tool(self) -> _Choice:
        _arguments_of(self, self.tools)
        return self


@functools.cache
def choice_model(tools: tuple[Tool, ...]) -> type[BaseModel]:
    """One flat model for choosing among ``tools`` as JSON: ``tool`` (one of their names), then
    every argument of every tool. An argument every tool takes keeps its type; one only some
    tools take is optional, a string one empty by default (a small model that must write
    every key then writes "" rather than an invalid null). The schema's description lists the
    tools and what each is for. Built once per tool set (the local backend compiles a decoder
    per model class)."""
    names = tuple(tool.name for tool in tools)
    if len(set(names)) != len(names):
        raise ValueError(f"tool names must differ: {', '.join(names)}")
    fields: dict[str, Any] = {"tool": (cast(Any, Literal).__getitem__(names), Field(description="The tool to call: " + ", ".join(names)))}
    for name in dict.fromkeys(field for tool in tools for field in tool.parameters.model_fields):
        owners = [tool for tool in tools if name in tool.parameters.model_fields]
        info = owners[0].parameters.model_fields[name]
        shared = len(owners) == len(tools) and all(tool.parameters.model_fields[name].annotation == info.annotation for tool in owners)
        extra = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else None
        used_by = "" if shared else f" (for {', '.join(tool.name for tool in owners)})"
        description = f"{info.description or ''}{used_by}".strip()
        if shared:
            fields[name] = (info.annotation, Field(description=description, json_schema_extra=extra))
        elif info.annotation is str:
            fields[name] = (str, Field("", description=description, json_schema_extra=extra))
        else:
            fields[name] = (cast(Any, info.annotation) | None, Field(None, description=description, json_schema_extra=extra))
    doc = "Call exactly one tool. The tools:\n" + "\n".join(f"- {tool.name}: {tool.description}" for tool in tools)
    model = create_model("ToolChoice", __base__=_Choice, __doc__=doc, **fields)
    model.tools = tools
    return model


def read_choice(choice: BaseModel, tools: Sequence[Tool]) -> tuple[Tool, BaseModel]:
    """The tool a :func:`choice_model` object names and its arguments, validated; raises
    :class:`~paperpyramid.llm.structured.ReplyInvalid` when they do not fit the tool."""
    try:
        return _arguments_of(choice, tools)
    except ValueError as exc:
        raise ReplyInvalid(str(exc)) from exc


def read_tool_reply(reply: ToolReply, tools: Sequence[Tool]) -> tuple[Tool, BaseModel]:
    """The tool a native reply calls and its validated arguments: its first tool call, or, when
    it holds none, the JSON choice in its text. Raises
    :class:`~paperpyramid.llm.structured.ReplyInvalid` with what was wrong."""
    if not reply.calls:
        if not reply.text.strip():
            raise ReplyInvalid(f"the reply called no tool; call one of: {', '.join(tool.name for tool in tools)}")
        return read_choice(parse_reply(reply.text, choice_model(tuple(tools))), tools)
    _, name, arguments = reply.calls[0]
    tool = _tool_named(name, tools)
    try:
        return tool, parse_reply(arguments if arguments.strip() else "{}", tool.parameters)
    except ReplyInvalid as exc:
        raise ReplyInvalid(f"the arguments of {name} are not valid: {exc}") from exc


def tool_repair_messages(messages: Sequence[dict[str, Any]], reply: ToolReply, error: str) -> list[dict[str, Any]]:
    """The conversation with the bad reply as the assistant's turn and an answer that says what
    was wrong: a ``tool`` message for each tool call (the protocol wants one), or a user turn
    when the reply called none."""
    conversation = [dict(message) for message in messages]
    again = f"That call cannot be used: {error}. Call exactly one of the tools again, with valid arguments."
    if not reply.calls:
        return [*conversation, {"role": "assistant", "content": reply.text}, {"role": "user", "content": again}]
    calls = [
        {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}} for call_id, name, arguments in reply.calls
    ]
    answers = [{"role": "tool", "tool_call_id": call_id, "content": again} for call_id, _, _ in reply.calls]
    return [*conversation, {"role": "assistant", "content": reply.text or None, "tool_calls": calls}, *answers]


def call_with_repair(
    chat: Callable[[list[dict[str, Any]]], tuple[ToolReply, Usage]],
    messages: Sequence[Message],
    tools: Sequence[Tool],
    *,
    model: str = "the model",
) -> tuple[Tool, BaseModel, Usage, int]:
    """Ask through ``chat`` (conversation in, native reply and its usage out) and read the tool
    call; when it is unusable, ask once more with :func:`tool_repair_messages`.

    Returns the tool, its arguments, the usage of every attempt together and the number of
    attempts (1 or 2). Raises :class:`~paperpyramid.errors.LLMOutputError` (with the last
    reply and the summed usage) when the repaired call is unusable too. Errors from ``chat``
    itself pass through unchanged.
    """

    def fail(reply: ToolReply, usage: Usage, exc: ReplyInvalid) -> LLMOutputError:
        raw = json.dumps([{"name": name, "arguments": arguments} for _, name, arguments in reply.calls]) if reply.calls else reply.text
        return LLMOutputError(f"{model} did not call a tool validly after 2 attempts: {exc}", raw=raw, usage=usage)

    conversation: list[dict[str, Any]] = [dict(message) for message in messages]
    (tool, arguments), usage, attempts = ask_with_repair(
        chat, conversation, lambda reply: read_tool_reply(reply, tools), tool_repair_messages, fail
    )
    return tool, arguments, usage, attempts


def _tool_named(name: str, tools: Sequence[Tool]) -> Tool:
    tool = next((tool for tool in tools if tool.name == name), None)
    if tool is None:
        raise ReplyInvalid(f"there is no tool {name!r}; the tools are: {', '.join(tool.name for tool in tools)}")
    return tool


def _arguments_of(choice: BaseModel, tools: Sequence[Tool]) -> tuple[Tool, BaseModel]:
    """Raises ValueError (what pydantic's validators expect) when the arguments do not fit."""
    values = choice.model_dump()
    tool = _tool_named(str(values.pop("tool")), tools)
    arguments = {name: value for name, value in values.items() if name in tool.parameters.model_fields and value is not None}
    try:
        return tool, tool.parameters.model_validate(arguments)
    except ValidationError as exc:
        raise ValueError(f"the arguments of {tool.name} are not valid: {describe_errors(exc)}") from exc


__all__ = [
    "NativeTools",
    "Tool",
    "ToolCall",
    "ToolReply",
    "call_with_repair",
    "choice_model",
    "choose_tool",
    "read_choice",
    "read_tool_reply",
    "tool_repair_messages",
]
