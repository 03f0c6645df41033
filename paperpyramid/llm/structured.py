"""Asking a model for one JSON object of a pydantic schema, whatever the backend.

Both backends put :func:`schema_instructions` into the system prompt
(:func:`with_schema_instructions`), read the reply with :func:`parse_reply`, and give the model
one chance to correct itself (:func:`complete_with_repair`): the bad reply goes back to it with
what was wrong, and a second bad reply is an :class:`~paperpyramid.errors.LLMOutputError`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from paperpyramid.errors import LLMOutputError
from paperpyramid.llm import Message, Usage

T = TypeVar("T", bound=BaseModel)
R = TypeVar("R")
V = TypeVar("V")

#: validation errors quoted in a message; more would drown the first one
MAX_ERRORS_SHOWN = 3
#: characters of a reply quoted in an error message
MAX_QUOTED = 200


class ReplyInvalid(ValueError):
    """A reply that holds no JSON object, or one that does not match the schema; ``str()`` is
    a short message meant for a person and for the model's repair turn alike."""


def schema_instructions(schema: type[BaseModel]) -> str:
    """The system-prompt text that asks for one JSON object matching ``schema``."""
    compact = json.dumps(schema.model_json_schema(), separators=(",", ":"), ensure_ascii=False)
    return (
        "Answer with exactly one JSON object that matches this JSON schema, and nothing else: "
        "no prose, no explanation, no markdown code fences.\n"
        f"JSON schema: {compact}"
    )


def with_schema_instructions(messages: Sequence[Message], schema: type[BaseModel]) -> list[Message]:
    """``messages`` with :func:`schema_instructions` appended to the leading system message, or
    in a new system message put first when there is none. The input is not changed."""
    instructions = schema_instructions(schema)
    result = [dict(message) for message in messages]
    if result and result[0].get("role") == "system":
        result[0]["content"] = f"{result[0].get('content', '').rstrip()}\n\n{instructions}".lstrip()
    else:
        result.insert(0, {"role": "system", "content": instructions})
    return result


def parse_reply(text: str, schema: type[T]) -> T:
    """The reply's JSON object, validated into ``schema``.

    Code fences and prose around the object are tolerated: the first balanced top-level
    ``{...}`` that is valid JSON is the answer. Raises :class:`ReplyInvalid` when there is none
    or it does not validate.
    """
    data = _first_json_object(text)
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        raise ReplyInvalid(f"the JSON does not match the schema {schema.__name__}: {describe_errors(exc)}") from exc


def repair_messages(messages: Sequence[Message], bad_reply: str, error: str) -> list[Message]:
    """The conversation with the bad reply as the assistant's turn and a user turn that says
    what was wrong and asks again for JSON only."""
    correction = (
        f"That reply cannot be used: {error}\n"
        "Answer again with exactly one JSON object that matches the JSON schema given above, and nothing else."
    )
    return [*(dict(message) for message in messages), {"role": "assistant", "content": bad_reply}, {"role": "user", "content": correction}]


def complete_with_repair(
    call: Callable[[list[Message]], tuple[str, Usage]],
    messages: Sequence[Message],
    schema: type[T],
    *,
    model: str = "the model",
) -> tuple[T, Usage, int]:
    """Ask through ``call`` (messages in, reply text and its usage out) and validate the reply;
    when it is invalid, ask once more with :func:`repair_messages`.

    Returns the value, the usage of every attempt together, and the number of attempts (1 or
    2). Raises :class:`~paperpyramid.errors.LLMOutputError` (with the last reply as ``raw`` and
    the summed usage) when the repaired reply is invalid too. ``model`` names the model in that
    message. Errors from ``call`` itself (an outage, a refused request) pass through unchanged.
    """

    def fail(text: str, usage: Usage, exc: ReplyInvalid) -> LLMOutputError:
        return LLMOutputError(f"{model} did not answer with a valid {schema.__name__} after 2 attempts: {exc}", raw=text, usage=usage)

    return ask_with_repair(call, list(messages), lambda text: parse_reply(text, schema), repair_messages, fail)


def ask_with_repair(
    call: Callable[[list[Any]], tuple[R, Usage]],
    messages: list[Any],
    read: Callable[[R], V],
    repair: Callable[[list[Any], R, str], list[Any]],
    fail: Callable[[R, Usage, ReplyInvalid], LLMOutputError],
) -> tuple[V, Usage, int]:
    """The one repair policy: ask through ``call``, ``read`` the reply; when it raises
    :class:`ReplyInvalid`, ask once more with the conversation ``repair`` makes of the bad reply
    and what was wrong; a second unreadable reply raises ``fail(reply, usage, error)``.
    Returns the value, the usage of every attempt together, and the attempts (1 or 2). An
    :class:`~paperpyramid.errors.LLMOutputError` from ``call`` itself (a reply cut off) passes
    through, with the first attempt's usage added when it came from the repair turn."""
    reply, usage = call(messages)
    try:
        return read(reply), usage, 1
    except ReplyInvalid as exc:
        first_error = str(exc)
    try:
        reply, more = call(repair(messages, reply, first_error))
    except LLMOutputError as exc:  # the repair turn was cut off: the first attempt was paid for too
        exc.usage = usage + exc.usage if isinstance(exc.usage, Usage) else usage
        raise
    usage = usage + more
    try:
        return read(reply), usage, 2
    except ReplyInvalid as exc:
        raise fail(reply, usage, exc) from exc


def _first_json_object(text: str) -> dict[str, Any]:
    if not text.strip():
        raise ReplyInvalid("the reply was empty; expected a JSON object")
    first_error: str | None = None
    for candidate in _balanced_objects(text):
        try:
            data = json.loads(candidate)
        except json.JSONDecodeError as exc:
            first_error = first_error or f"the reply's {{...}} is not valid JSON ({exc.msg} at character {exc.pos})"
            continue
        except RecursionError:  # the parser's recursion limit: any depth is a reply to repair, never a crash
            first_error = first_error or "the reply's JSON is nested too deeply to read; answer with a flat object as the schema asks"
            continue
        if isinstance(data, dict):
            return data
    if first_error is not None:
        raise ReplyInvalid(first_error)
    if "{" in text:
        raise ReplyInvalid(f"the reply's JSON object is not complete (cut off?): {_quote(text)}")
    raise ReplyInvalid(f"the reply holds no JSON object: {_quote(text)}")


def _balanced_objects(text: str) -> list[str]:
    """Every top-level ``{...}`` of ``text`` whose braces balance, strings and escapes respected."""
    objects: list[str] = []
    depth, start, in_string, escaped = 0, -1, False, False
    for index, char in enumerate(text):
        if depth == 0:
            if char == "{":
                depth, start, in_string, escaped = 1, index, False, False
            continue
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                objects.append(text[start : index + 1])
    return objects


def describe_errors(exc: ValidationError) -> str:
    """A validation error's first few problems, one line: ``field.path: message; ...``."""
    errors = exc.errors(include_url=False)
    shown = [f"{'.'.join(str(part) for part in error['loc']) or '(root)'}: {error['msg']}" for error in errors[:MAX_ERRORS_SHOWN]]
    more = len(errors) - len(shown)
    return "; ".join(shown) + (f" (and {more} more)" if more else "")


def _quote(text: str) -> str:
    flat = " ".join(text.split())
    return repr(flat[:MAX_QUOTED] + ("..." if len(flat) > MAX_QUOTED else ""))


__all__ = [
    "ReplyInvalid",
    "ask_with_repair",
    "complete_with_repair",
    "describe_errors",
    "parse_reply",
    "repair_messages",
    "schema_instructions",
    "with_schema_instructions",
]
