"""The response cache: every validated reply, kept in an SQLite file, so that a re-run of the
same prompts on the same model costs no tokens.

A reply is keyed by the sha256 of everything that decides it: the endpoint that served it (for
an OpenAI-compatible server: its base URL), the model's name, the messages, the schema's JSON
schema, ``max_tokens``, the temperature and the seed. A change to any of them is a miss. A
native tool call (:meth:`CachedLLM.call_tool`) is kept the same way, keyed with the tools
offered instead of a schema. Each reply is committed as soon as it arrives, so a run that is
killed keeps what it paid for; failures are never stored. The file is in WAL mode, so several processes (parallel
distillation workers) can share it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import threading
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from paperpyramid.db import llm_cache as db_cache
from paperpyramid.db import sqlite
from paperpyramid.errors import ConfigurationError
from paperpyramid.llm import LLM, LLMReply, Message, Remote, Usage
from paperpyramid.llm.tools import NativeTools, Tool, ToolCall

T = TypeVar("T", bound=BaseModel)

log = logging.getLogger(__name__)


def default_cache_path() -> Path:
    """``$XDG_CACHE_HOME/paperpyramid/llm-cache.sqlite`` (``~/.cache`` when unset)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    # The XDG spec says a relative value is to be ignored.
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root / "paperpyramid" / "llm-cache.sqlite"


def cache_key(
    model: str, messages: Sequence[Message], schema: type[BaseModel], *, max_tokens: int, temperature: float, seed: int, endpoint: str = ""
) -> str:
    """The sha256 (hex) of the canonical JSON of everything that decides a reply; ``endpoint``
    is the server's base URL ("" for an in-process model)."""
    return _digest(
        {"schema": schema.model_json_schema()},
        model,
        messages,
        max_tokens=max_tokens,
        temperature=temperature,
        seed=seed,
        endpoint=endpoint,
    )


def tool_cache_key(
    model: str, messages: Sequence[Message], tools: Sequence[Tool], *, max_tokens: int, temperature: float, seed: int, endpoint: str = ""
) -> str:
    """The sha256 (hex) of everything that decides a native tool call: as :func:`cache_key`,
    with the tools offered instead of a schema."""
    offered = {"tools": [tool.spec() for tool in tools], "tool_choice": "required"}
    return _digest(offered, model, messages, max_tokens=max_tokens, temperature=temperature, seed=seed, endpoint=endpoint)


def endpoint_of(llm: LLM) -> str:
    """The base URL of the server that answers for ``llm`` (a trailing slash makes no other
    server), or "" for an in-process model."""
    return llm.base_url.rstrip("/") if isinstance(llm, Remote) else ""


def _digest(
    asked: dict[str, Any], model: str, messages: Sequence[Message], *, max_tokens: int, temperature: float, seed: int, endpoint: str
) -> str:
    # An in-process model has no endpoint: its key leaves the field out, so it matches keys made without one.
    served_by = {"endpoint": endpoint} if endpoint else {}
    request = {
        **served_by,
        "model": model,
        "messages": [dict(message) for message in messages],
        **asked,
        "max_tokens": max_tokens,
        "temperature": temperature,
        "seed": seed,
    }
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


class CachedLLM:
    """``llm`` behind the response cache at ``path`` (created with its folders when missing).

    ``temperature`` and ``seed`` are the sampling settings ``llm`` runs with; they are part of
    the key, and so is the server that answers for ``llm`` (:func:`endpoint_of`). A hit is an
    :class:`~paperpyramid.llm.LLMReply` with ``cached=True`` and the usage of the call that made
    it; a stored value that no longer validates (the schema's class
    changed without its JSON schema changing) is a miss, and is replaced. Safe to call from
    several threads: the inner model is called outside the lock, so requests overlap.
    """

    def __init__(self, llm: LLM, path: str | Path, *, temperature: float = 0.0, seed: int = 0) -> None:
        self.inner = llm
        self.path = Path(path)
        self.temperature = temperature
        self.seed = seed
        self.endpoint = endpoint_of(llm)
        self._lock = threading.Lock()
        self._conn = _open(self.path)

    def __repr__(self) -> str:
        return f"CachedLLM({self.inner!r}, {str(self.path)!r})"

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def context_window(self) -> int:
        return self.inner.context_window

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def complete(self, messages: Sequence[Message], schema: type[T], *, max_tokens: int = 1024) -> LLMReply[T]:
        started = time.monotonic()
        key = cache_key(
            self.inner.name, messages, schema, max_tokens=max_tokens, temperature=self.temperature, seed=self.seed, endpoint=self.endpoint
        )
        hit = self._lookup(key, schema)
        if hit is not None:
            value, usage, model = hit
            return LLMReply(value, usage, model=model, cached=True, seconds=time.monotonic() - started)
        reply = self.inner.complete(messages, schema, max_tokens=max_tokens)
        self._store(key, reply)
        return reply

    def call_tool(self, messages: Sequence[Message], tools: Sequence[Tool], *, max_tokens: int = 1024) -> ToolCall | None:
        """The inner model's native tool call, from the cache when it was made before; None
        when the inner model takes no tools (the caller then asks for JSON, cached by
        :meth:`complete`)."""
        if not isinstance(self.inner, NativeTools):
            return None
        started = time.monotonic()
        key = tool_cache_key(
            self.inner.name, messages, tools, max_tokens=max_tokens, temperature=self.temperature, seed=self.seed, endpoint=self.endpoint
        )
        hit = self._lookup_call(key, tools)
        if hit is not None:
            tool, arguments, usage = hit
            return ToolCall(tool.name, arguments, usage, native=True, cached=True, seconds=time.monotonic() - started)
        call = self.inner.call_tool(messages, tools, max_tokens=max_tokens)
        if call is not None:
            value = json.dumps({"tool": call.name, "arguments": call.arguments.model_dump(mode="json", by_alias=True)})
            self._store_row(key, self.inner.name, value, call.usage)
        return call

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> CachedLLM:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def _lookup(self, key: str, schema: type[T]) -> tuple[T, Usage, str] | None:
        with self._lock:
            row = db_cache.stored_reply(self._conn, key)
        if row is None:
            return None
        try:
            value = schema.model_validate_json(row.value_json)
        except ValidationError as exc:
            log.info("cached reply %s no longer validates as %s (%s); asking again", key[:12], schema.__name__, exc.error_count())
            return None
        return value, Usage(row.prompt_tokens, row.completion_tokens), row.model

    def _lookup_call(self, key: str, tools: Sequence[Tool]) -> tuple[Tool, BaseModel, Usage] | None:
        with self._lock:
            row = db_cache.stored_reply(self._conn, key)
        if row is None:
            return None
        stored = json.loads(row.value_json)
        tool = next((tool for tool in tools if tool.name == stored.get("tool")), None)
        try:
            if tool is None:
                raise ValueError(f"no tool {stored.get('tool')!r} is offered")
            arguments = tool.parameters.model_validate(stored.get("arguments"))
        except ValueError as exc:  # pydantic's ValidationError is one
            log.info("cached tool call %s no longer validates (%s); asking again", key[:12], exc)
            return None
        return tool, arguments, Usage(row.prompt_tokens, row.completion_tokens)

    def _store(self, key: str, reply: LLMReply[Any]) -> None:
        self._store_row(key, reply.model, reply.value.model_dump_json(by_alias=True), reply.usage)

    def _store_row(self, key: str, model: str, value_json: str, usage: Usage) -> None:
        row = db_cache.StoredReply(model, value_json, usage.prompt_tokens, usage.completion_tokens)
        try:
            with self._lock:
                db_cache.store_reply(self._conn, key, row, datetime.now(UTC).isoformat(timespec="seconds"))
        except sqlite.DatabaseError as exc:
            # The reply is good and paid for: hand it over, and say loudly that it was not kept.
            log.warning("could not store a reply in the LLM cache %s (%s); the next run will ask again", self.path, exc)


def _open(path: Path) -> sqlite.Connection:
    try:
        return db_cache.open_cache(path)
    except (OSError, sqlite.DatabaseError) as exc:
        raise ConfigurationError(
            f"cannot open the LLM response cache {path}: {exc}; set PAPERPYRAMID_LLM__CACHE_PATH elsewhere or PAPERPYRAMID_LLM__CACHE=false"
        ) from exc


__all__ = ["CachedLLM", "cache_key", "default_cache_path", "endpoint_of", "tool_cache_key"]
