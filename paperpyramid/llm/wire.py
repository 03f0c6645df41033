"""What comes back from an OpenAI-compatible chat endpoint: the body, read within a wall-clock
deadline and a byte bound, and the completion read from it.

The HTTP client's timeout is per read, so a server that trickles a byte at a time, or goes
silent half-way through a body, could hold a request for ever; and a reply is read whole, however
long. :func:`read_body` reads a streamed response against a deadline fixed when the request
started (between chunks, and with a watchdog that shuts the connection's socket when the
deadline passes, so a read already waiting ends on time too) and stops once the body passes
``max_bytes``. :func:`reply_byte_limit` is the bound a reply of ``max_tokens`` tokens can need.

:func:`read_completion` takes the answer's text, tool calls and reported usage from the body,
checking each type as it goes: a server's body is data, never trusted to have the right shape.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from paperpyramid.llm import Usage

#: Bytes a reply may take beyond its tokens: the envelope (id, model, usage, a server's timings).
REPLY_OVERHEAD_BYTES = 64 * 1024
#: Bytes one token may take on the wire, generously: the longest tokens of common vocabularies
#: are runs of about 128 characters (spaces, dashes, brackets), and JSON escaping can double them.
BYTES_PER_TOKEN = 256


class DeadlinePassed(Exception):
    """The whole response did not arrive by the request's deadline."""


class ReplyTooLong(Exception):
    """The body passed its byte bound: more than ``max_tokens`` can account for."""


class ReplyBroken(Exception):
    """The connection failed while the body was being read (a dropped connection)."""


class NotACompletion(ValueError):
    """The body is not an OpenAI chat completion."""


@dataclass(frozen=True, slots=True)
class Completion:
    """One chat completion as read: the message's text ("" when none), its tool calls as (id,
    name, arguments text), and the usage the server reported (None when it reported none)."""

    text: str
    tool_calls: tuple[tuple[str, str, str], ...]
    reported: Usage | None


def reply_byte_limit(max_tokens: int) -> int:
    """The most bytes a reply of at most ``max_tokens`` tokens can honestly take."""
    return REPLY_OVERHEAD_BYTES + max_tokens * BYTES_PER_TOKEN


def read_body(response: Any, *, deadline: float, max_bytes: int) -> bytes:
    """The body of ``response`` (an httpx response opened for streaming; the openai client's
    ``with_streaming_response`` gives one) by ``deadline`` (a :func:`time.monotonic` time).

    Raises :class:`DeadlinePassed` when the body is not complete by then, :class:`ReplyTooLong`
    once it passes ``max_bytes`` (reading stops there), :class:`ReplyBroken` when the
    connection fails on the way. The caller closes the response, which drops the connection."""
    chunks: Iterable[bytes] = response.iter_bytes()
    body = bytearray()
    with _Watchdog(_socket_of(response), deadline):
        try:
            for chunk in chunks:
                body += chunk
                if len(body) > max_bytes:
                    raise ReplyTooLong(f"more than {max_bytes:,} bytes")
                if time.monotonic() >= deadline:
                    raise DeadlinePassed
        except (DeadlinePassed, ReplyTooLong):
            raise
        except Exception as exc:  # the HTTP library's own errors (which library varies with the openai version)
            if time.monotonic() >= deadline:  # the watchdog shut the socket
                raise DeadlinePassed from exc
            raise ReplyBroken(f"{type(exc).__name__}: {exc}") from exc
    # A body that ends when the connection closes also ends when the watchdog shuts it.
    if time.monotonic() >= deadline:
        raise DeadlinePassed
    return bytes(body)


def read_completion(body: bytes) -> Completion:
    """The first choice's text and tool calls, and the reported usage, from a chat completion's
    JSON body. Raises :class:`NotACompletion` when the body is not one."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:  # RecursionError: nested too deeply to read
        raise NotACompletion(f"the body is not JSON ({type(exc).__name__}), it starts {body[:80]!r}") from exc
    if not isinstance(data, dict):
        raise NotACompletion(f"the body is a JSON {type(data).__name__}, not an object")
    choices = data.get("choices")
    if not isinstance(choices, list):
        raise NotACompletion("the body has no list of choices")
    message = choices[0].get("message") if choices and isinstance(choices[0], dict) else None
    if message is not None and not isinstance(message, dict):
        raise NotACompletion("the first choice's message is not an object")
    message = message or {}
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        raise NotACompletion("the message's content is not a string")
    return Completion(content or "", _tool_calls(message.get("tool_calls")), _reported_usage(data.get("usage")))


def _tool_calls(calls: object) -> tuple[tuple[str, str, str], ...]:
    """Function tool calls as (id, name, arguments text); other kinds of call are skipped."""
    if calls is None:
        return ()
    if not isinstance(calls, list):
        raise NotACompletion("the message's tool_calls is not a list")
    read: list[tuple[str, str, str]] = []
    for call in calls:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or (call.get("type") or "function") != "function":
            continue
        arguments = function.get("arguments")
        if arguments is not None and not isinstance(arguments, str):
            raise NotACompletion("a tool call's arguments are not a string")
        read.append((str(call.get("id") or ""), str(function.get("name") or ""), arguments or ""))
    return tuple(read)


def _reported_usage(usage: object) -> Usage | None:
    if not isinstance(usage, dict):
        return None
    prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
    return Usage(
        prompt if isinstance(prompt, int) and prompt > 0 else 0, completion if isinstance(completion, int) and completion > 0 else 0
    )


def _socket_of(response: Any) -> socket.socket | None:
    """The connection's socket, where the HTTP library says (httpcore's ``network_stream``)."""
    stream = getattr(response, "extensions", {}).get("network_stream")
    sock = stream.get_extra_info("socket") if stream is not None else None
    return sock if isinstance(sock, socket.socket) else None


class _Watchdog:
    """Shuts ``sock`` down at ``deadline`` unless left before: a read waiting on it then returns
    at once. Without a socket it does nothing (the checks between chunks remain)."""

    def __init__(self, sock: socket.socket | None, deadline: float) -> None:
        self._timer = threading.Timer(max(0.0, deadline - time.monotonic()), _shut, (sock,)) if sock is not None else None

    def __enter__(self) -> None:
        if self._timer is not None:
            self._timer.daemon = True
            self._timer.start()

    def __exit__(self, *exc_info: object) -> None:
        if self._timer is not None:
            self._timer.cancel()


def _shut(sock: socket.socket) -> None:
    # socket.socket's own shutdown: an SSLSocket's would drop its TLS state under a reading thread
    with contextlib.suppress(OSError):
        socket.socket.shutdown(sock, socket.SHUT_RDWR)


__all__ = [
    "Completion",
    "DeadlinePassed",
    "NotACompletion",
    "ReplyBroken",
    "ReplyTooLong",
    "read_body",
    "read_completion",
    "reply_byte_limit",
]
