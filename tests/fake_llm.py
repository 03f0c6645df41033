"""A scripted OpenAI-compatible chat server for tests, served over real HTTP on 127.0.0.1.

Every ``POST /v1/chat/completions`` body is recorded in ``requests`` and handed to ``handler``,
which says what to answer with a :class:`FakeReply`: a message, tool calls, an error status (with
headers, such as ``Retry-After``), a dropped connection, no usage, or a body sent slowly (leading
spaces trickled one at a time, a silence half-way). The handler runs in a worker thread, so it
may sleep, and several requests are served at once::

    with FakeLLMServer(lambda body: FakeReply('{"insights": ["a"]}')) as server:
        llm = OpenAILLM(llm_settings(server.base_url))
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from paperpyramid.settings import LLMSettings
from tests.asgi_server import serve


@dataclass
class FakeReply:
    content: str | None = None  # the assistant message text
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    error: str | None = None  # error message body for status >= 400
    drop: bool = False  # close the connection without answering
    prompt_tokens: int | None = None  # default: a word-count estimate of the prompt
    completion_tokens: int | None = None
    # native tool calls, each {"name": ..., "arguments": {...} or a raw JSON string}; the reply's
    # finish_reason is then "tool_calls"
    tool_calls: list[dict[str, Any]] | None = None
    usage: bool = True  # False: the body has no usage at all, as some servers answer
    # a slow body: ``padding`` spaces (JSON allows them before the object) sent one every ``trickle``
    # seconds, then ``stall`` seconds of silence, then the answer
    padding: int = 0
    trickle: float = 0.0
    stall: float = 0.0


Handler = Callable[[dict[str, Any]], FakeReply]


class DroppedResponse(Response):
    """Starts an answer and stops mid-body: uvicorn closes the connection (logging one line,
    "ASGI callable returned without completing response") and the client sees it dropped."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": b'{"id": "chatcmpl-fake", "choi', "more_body": True})


class FakeLLMServer:
    """The fake server, started by ``with``; ``base_url`` ends in ``/v1`` as clients expect.
    ``handler`` may be replaced while it runs."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.base_url = ""
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._count = 0
        self._stack = contextlib.ExitStack()

    def __enter__(self) -> FakeLLMServer:
        url = self._stack.enter_context(serve(self._app()))
        self.base_url = f"{url}/v1"
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stack.close()

    def _app(self) -> FastAPI:
        app = FastAPI()

        @app.post("/v1/chat/completions")
        async def chat(request: Request) -> Response:
            body = await request.json()
            with self._lock:
                self.requests.append(body)
                self._count += 1
                number = self._count
            # the handler may block (sleep): run it in a worker thread, as a sync endpoint would
            reply = await run_in_threadpool(self.handler, body)
            return self._respond(body, reply, number)

        return app

    def _respond(self, body: dict[str, Any], reply: FakeReply, number: int) -> Response:
        if reply.drop:
            return DroppedResponse()
        if reply.status >= 400:
            error = {"error": {"message": reply.error or f"fake error {reply.status}", "type": "fake", "code": reply.status}}
            return JSONResponse(error, status_code=reply.status, headers=reply.headers)
        prompt_tokens = reply.prompt_tokens
        if prompt_tokens is None:
            prompt_tokens = sum(len(str(message.get("content") or "").split()) for message in body.get("messages", []))
        message: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.tool_calls is not None:
            message["tool_calls"] = [
                {
                    "id": f"call-{number}-{index}",
                    "type": "function",
                    "function": {
                        "name": call["name"],
                        "arguments": call["arguments"] if isinstance(call["arguments"], str) else json.dumps(call["arguments"]),
                    },
                }
                for index, call in enumerate(reply.tool_calls)
            ]
        completion_tokens = reply.completion_tokens
        if completion_tokens is None:
            said = [reply.content or "", *(call["function"]["arguments"] for call in message.get("tool_calls", []))]
            completion_tokens = sum(len(text.split()) for text in said)
        answer = {
            "id": f"chatcmpl-fake-{number}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", ""),
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if reply.tool_calls else "stop"}],
        }
        if reply.usage:
            answer["usage"] = {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            }
        if reply.padding or reply.stall:
            return StreamingResponse(_slowly(json.dumps(answer).encode(), reply), media_type="application/json", headers=reply.headers)
        return JSONResponse(answer, status_code=reply.status, headers=reply.headers)


async def _slowly(body: bytes, reply: FakeReply) -> Any:
    for _ in range(reply.padding):
        yield b" "
        await asyncio.sleep(reply.trickle)
    await asyncio.sleep(reply.stall)
    yield body


def llm_settings(base_url: str, **overrides: Any) -> LLMSettings:
    """Settings for ``OpenAILLM`` against the fake: model ``fake-model``, two quick retries,
    no cache (tests that want one pass ``cache=True, cache_path=tmp_path / ...``)."""
    options: dict[str, Any] = {
        "backend": "openai",
        "base_url": base_url,
        "api_key": None,
        "model": "fake-model",
        "retries": 2,
        "backoff": 0.01,
        "timeout": 5.0,
        "cache": False,
    }
    return LLMSettings(**(options | overrides))


__all__ = ["FakeLLMServer", "FakeReply", "Handler", "llm_settings"]
