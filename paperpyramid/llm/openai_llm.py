"""A language model behind any OpenAI-compatible chat endpoint, through the ``openai`` client.

OpenAI itself, vLLM, Ollama and llama.cpp's server all speak this protocol; only settings
differ. For example Qwen2.5-7B-Instruct on Ollama::

    ollama pull qwen2.5:7b-instruct
    export OPENAI_BASE_URL=http://localhost:11434/v1
    export PAPERPYRAMID_LLM__BACKEND=openai
    export PAPERPYRAMID_LLM__MODEL=qwen2.5:7b-instruct

JSON is asked for with ``response_format``: ``json_schema`` (the server constrains decoding to
the schema) or ``json_object`` (JSON mode); either way the schema is in the system prompt too,
and the reply is validated here. ``structured_output=auto`` starts with ``json_schema`` and, the
first time a server refuses it with HTTP 400 (older llama.cpp servers), switches this client to
``json_object`` for good.

:meth:`OpenAILLM.call_tool` asks for a native tool call (``tools`` with ``tool_choice="required"``,
see :mod:`paperpyramid.llm.tools`); the first time a server refuses ``tools`` with HTTP 400, this
client says so (None) from then on, and callers choose their tool as JSON instead.

Each request has a wall-clock deadline, ``timeout`` seconds from connect to the reply's last
byte, status line, headers and error bodies included (:mod:`paperpyramid.http_deadline`; the HTTP
client's own timeout is per read, which a server trickling a byte at a time never trips), and its reply a byte bound that ``max_tokens`` sets (:mod:`paperpyramid.llm.wire`): a
longer reply is cut off, counted as ``max_tokens`` completion tokens, and an
:class:`~paperpyramid.errors.LLMOutputError`. Usage a server leaves out or reports as zero is
counted here (:meth:`OpenAILLM.count_tokens`), so that token budgets hold whatever it reports.

Requests that fail with 429, 5xx, a timeout or a dropped connection are retried with
exponential backoff (a ``Retry-After`` header wins), each retry logged as a warning as it
happens; the client's own retries are off so that there is one retry policy, this one. Any other
4xx is a setting that cannot work (a wrong model name, a bad key) and is not retried.
"""

from __future__ import annotations

import json
import logging
import math
import re
import threading
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import openai
from pydantic import BaseModel

from paperpyramid.cancel import raise_if_cancelled
from paperpyramid.errors import ConfigurationError, LLMOutputError, ServiceUnavailable
from paperpyramid.http_deadline import deadline as whole_exchange_by
from paperpyramid.http_deadline import http_client
from paperpyramid.llm import LLMReply, Message, Usage
from paperpyramid.llm.structured import complete_with_repair, with_schema_instructions
from paperpyramid.llm.tools import Tool, ToolCall, ToolReply, call_with_repair
from paperpyramid.llm.wire import (
    Completion,
    DeadlinePassed,
    NotACompletion,
    ReplyBroken,
    ReplyTooLong,
    read_body,
    read_completion,
    reply_byte_limit,
)
from paperpyramid.openai_compat import retry_after_seconds, server_message

if TYPE_CHECKING:
    from paperpyramid.settings import LLMSettings

T = TypeVar("T", bound=BaseModel)

log = logging.getLogger(__name__)

#: Sent when no key is configured: the client insists on one, local servers ignore it.
PLACEHOLDER_API_KEY = "not-needed"
#: The longest wait between retries, whatever the backoff or a Retry-After header asks.
MAX_BACKOFF = 60.0
#: Characters per token assumed by :meth:`OpenAILLM.count_tokens` (English prose runs ~4).
CHARS_PER_TOKEN = 3.5

JSON_OBJECT: dict[str, Any] = {"type": "json_object"}


class _Refused(Exception):
    """HTTP 400 to a request with an optional feature (json_schema in ``auto`` mode, tools): do
    without it."""


class OpenAILLM:
    """An OpenAI-compatible chat model that answers in JSON; see the module docstring.

    ``name`` is ``openai:{model}``. At most ``settings.concurrency`` requests are in flight at
    once, however many threads call :meth:`complete`.
    """

    def __init__(self, settings: LLMSettings) -> None:
        if not settings.base_url:
            raise ConfigurationError(
                "LLM backend 'openai' needs the endpoint's base URL: set OPENAI_BASE_URL or PAPERPYRAMID_LLM__BASE_URL "
                "(e.g. http://localhost:11434/v1)"
            )
        if not settings.model:
            raise ConfigurationError(
                "LLM backend 'openai' needs the model name the server knows: set PAPERPYRAMID_LLM__MODEL or pass --llm-model "
                "(e.g. qwen2.5:7b-instruct)"
            )
        self.settings = settings
        self.base_url: str = settings.base_url
        self.model: str = settings.model
        self._slots = threading.BoundedSemaphore(settings.concurrency)
        self._mode_lock = threading.Lock()
        self._refused: set[str] = set()  # optional features the server refused: "json_schema", "tools"
        # max_retries=0: the retry loop is ours (one policy, errors we can word, testable).
        self._client = openai.OpenAI(
            base_url=settings.base_url,
            api_key=settings.api_key or PLACEHOLDER_API_KEY,
            max_retries=0,
            timeout=settings.timeout,
            http_client=http_client(),
        )

    def __repr__(self) -> str:
        return f"OpenAILLM({self.base_url!r}, {self.model!r})"

    @property
    def name(self) -> str:
        return f"openai:{self.model}"

    @property
    def context_window(self) -> int:
        return self.settings.context_window

    @property
    def structured_output(self) -> str:
        """What this client sends now: ``json_schema`` or ``json_object`` (``auto`` resolved)."""
        mode = self.settings.structured_output
        if mode != "auto":
            return mode
        with self._mode_lock:
            return "json_object" if "json_schema" in self._refused else "json_schema"

    @property
    def tools_refused(self) -> bool:
        """Whether the server refused ``tools`` once (then :meth:`call_tool` answers None)."""
        with self._mode_lock:
            return "tools" in self._refused

    def count_tokens(self, text: str) -> int:
        """An *estimate*: the server offers no tokenizer (and tiktoken needs the network), so
        this counts one token per 3.5 characters, which errs high for English prose with the
        usual BPE vocabularies. Keep a margin below ``context_window`` all the same."""
        return estimate_tokens(text)

    def complete(self, messages: Sequence[Message], schema: type[T], *, max_tokens: int = 1024) -> LLMReply[T]:
        started = time.monotonic()
        prompt = with_schema_instructions(messages, schema)

        def call(conversation: list[Message]) -> tuple[str, Usage]:
            return self._chat(conversation, schema, max_tokens)

        value, usage, attempts = complete_with_repair(call, prompt, schema, model=self.name)
        return LLMReply(value, usage, model=self.name, attempts=attempts, seconds=time.monotonic() - started)

    def call_tool(self, messages: Sequence[Message], tools: Sequence[Tool], *, max_tokens: int = 1024) -> ToolCall | None:
        """The model's native tool call among ``tools``, its arguments validated (one repair
        turn), or None when the server does not take tools (it refused them now or before)."""
        if self.tools_refused:
            return None
        started = time.monotonic()
        options = {"tools": [tool.spec() for tool in tools], "tool_choice": "required"}

        def chat(conversation: list[dict[str, Any]]) -> tuple[ToolReply, Usage]:
            completion, usage = self._request(conversation, max_tokens, options, may_refuse=True)
            return ToolReply(completion.tool_calls, completion.text), usage

        try:
            tool, arguments, usage, attempts = call_with_repair(chat, messages, tools, model=self.name)
        except _Refused as refused:
            self._remember_refusal("tools", str(refused), "choosing tools as JSON")
            return None
        return ToolCall(tool.name, arguments, usage, native=True, attempts=attempts, seconds=time.monotonic() - started)

    def _chat(self, messages: list[Message], schema: type[BaseModel], max_tokens: int) -> tuple[str, Usage]:
        """One reply's text ("" when the server gave none) and usage, in the current mode."""
        if self.structured_output == "json_schema":
            try:
                completion, usage = self._request(
                    messages,
                    max_tokens,
                    {"response_format": response_format("json_schema", schema)},
                    may_refuse=self.settings.structured_output == "auto",
                )
            except _Refused as refused:
                completion, usage = self._request(messages, max_tokens, {"response_format": JSON_OBJECT})
                self._remember_refusal("json_schema", str(refused), "using json_object")
        else:
            completion, usage = self._request(messages, max_tokens, {"response_format": JSON_OBJECT})
        return completion.text, usage

    def _remember_refusal(self, feature: str, message: str, instead: str) -> None:
        """Do without ``feature`` from now on; said once, whatever threads refused it."""
        with self._mode_lock:
            if feature in self._refused:
                return
            self._refused.add(feature)
        log.warning("%s refused %s (%s); %s from now on", self.base_url, feature, message, instead)

    def _request(
        self, messages: Sequence[Mapping[str, Any]], max_tokens: int, options: dict[str, Any], *, may_refuse: bool = False
    ) -> tuple[Completion, Usage]:
        """One chat completion (``options``: ``response_format``, or ``tools`` and
        ``tool_choice``) and what it cost, with our retries: 429, 5xx, a passed deadline and
        dropped connections are retried, each retry logged as it happens; any other 4xx is a
        setting that cannot work. With ``may_refuse``, HTTP 400 is :class:`_Refused` instead. A
        reply longer than ``max_tokens`` allows is :class:`~paperpyramid.errors.LLMOutputError`."""
        attempts = self.settings.retries + 1
        sent = sent_text(messages, options)  # what usage is counted from when the server does not say
        started = time.monotonic()
        # The last failure, reported once the retries are spent.
        cause = ""
        error: Exception | None = None
        for attempt in range(attempts):
            raise_if_cancelled()  # a retry, a repair turn or a fallback: nobody may wait any more
            retry_after: float | None = None
            try:
                with self._slots:
                    completion = self._exchange(messages, max_tokens, options)
                return completion, self._counted(completion, sent)
            except openai.APIStatusError as exc:
                status = exc.status_code
                if status == 400 and may_refuse:
                    raise _Refused(server_message(exc)) from exc
                if status not in (408, 429) and status < 500:
                    raise ConfigurationError(
                        f"LLM endpoint {self.base_url} rejected a request for model {self.model!r}: HTTP {status}: {server_message(exc)}"
                    ) from exc
                cause = f"HTTP {status}: {server_message(exc)}"
                retry_after, error = retry_after_seconds(exc), exc
            except openai.APITimeoutError as exc:
                cause, error = f"no answer in {self.settings.timeout:g} s", exc
            except DeadlinePassed as exc:
                cause, error = f"no complete answer in {self.settings.timeout:g} s", exc
            except openai.APIConnectionError as exc:
                # The client's message is a bare "Connection error."; the cause says which.
                cause, error = f"unreachable ({exc.__cause__ or exc.message})", exc
            except ReplyBroken as exc:
                cause, error = f"the connection broke mid-reply ({exc})", exc
            except ReplyTooLong as exc:
                # Cut off: the server was asked for max_tokens at most, and is counted as having sent them.
                raise LLMOutputError(
                    f"{self.name} at {self.base_url} sent a reply longer than max_tokens={max_tokens} allows ({exc}); it was cut off",
                    usage=Usage(self.count_tokens(sent), max_tokens),
                ) from exc
            except (openai.APIResponseValidationError, NotACompletion) as exc:
                raise ConfigurationError(
                    f"LLM endpoint {self.base_url} answered something that is not an OpenAI chat completion: {exc}"
                ) from exc
            if attempt + 1 < attempts:
                delay = min(self.settings.backoff * 2**attempt, MAX_BACKOFF) if retry_after is None else min(retry_after, MAX_BACKOFF)
                log.warning(
                    "LLM endpoint %s: %s (attempt %d of %d); retrying in %.2g s", self.base_url, cause, attempt + 1, attempts, delay
                )
                time.sleep(delay)
        raise ServiceUnavailable(
            f"LLM endpoint {self.base_url} failed after {attempts} attempt{'s' if attempts > 1 else ''}: {cause} "
            f"({time.monotonic() - started:.0f} s in all)"
        ) from error

    def _exchange(self, messages: Sequence[Mapping[str, Any]], max_tokens: int, options: dict[str, Any]) -> Completion:
        """One request and its whole reply within ``timeout`` seconds of sending it."""
        deadline = time.monotonic() + self.settings.timeout
        request = chat_request(
            self.model, messages, max_tokens=max_tokens, temperature=self.settings.temperature, seed=self.settings.seed, options=options
        )
        with whole_exchange_by(deadline), self._client.chat.completions.with_streaming_response.create(**request) as response:
            body = read_body(response.http_response, deadline=deadline, max_bytes=reply_byte_limit(max_tokens))
        return read_completion(body)

    def _counted(self, completion: Completion, sent: str) -> Usage:
        """The usage the server reported; a count it left out or gave as zero is estimated from
        what was sent and said (:meth:`count_tokens`)."""
        return counted_usage(completion, sent)


def chat_request(
    model: str, messages: Sequence[Mapping[str, Any]], *, max_tokens: int, temperature: float, seed: int, options: Mapping[str, Any]
) -> dict[str, Any]:
    """The body of one chat completion request (``options``: ``response_format``, or ``tools``
    and ``tool_choice``): what this client sends, and what a batch file's line holds, so that the
    two cannot drift apart."""
    return {
        "model": model,
        "messages": [dict(message) for message in messages],
        "temperature": temperature,
        "seed": seed,
        "max_tokens": max_tokens,
        **options,
    }


def response_format(mode: str, schema: type[BaseModel]) -> dict[str, Any]:
    """The ``response_format`` that asks for ``schema`` in ``mode`` (``json_schema``: the server
    enforces the schema; anything else: JSON mode, the schema being in the prompt)."""
    if mode == "json_schema":
        return {"type": "json_schema", "json_schema": {"name": _schema_name(schema), "schema": schema.model_json_schema(), "strict": False}}
    return JSON_OBJECT


def sent_text(messages: Sequence[Mapping[str, Any]], options: Mapping[str, Any]) -> str:
    """What a request's prompt tokens are estimated from when the server does not say."""
    return json.dumps([list(messages), dict(options)], ensure_ascii=False)


def estimate_tokens(text: str) -> int:
    """One token per :data:`CHARS_PER_TOKEN` characters (see :meth:`OpenAILLM.count_tokens`)."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def counted_usage(completion: Completion, sent: str) -> Usage:
    """The usage the server reported; a count it left out or gave as zero is estimated from what
    was ``sent`` (:func:`sent_text`) and what the reply said (:func:`estimate_tokens`)."""
    reported = completion.reported or Usage()
    said = completion.text + "".join(name + arguments for _, name, arguments in completion.tool_calls)
    return Usage(reported.prompt_tokens or estimate_tokens(sent), reported.completion_tokens or estimate_tokens(said))


def _schema_name(schema: type[BaseModel]) -> str:
    """The schema's name as ``response_format`` allows it: [a-zA-Z0-9_-], at most 64 characters."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", schema.__name__)[:64] or "reply"


__all__ = ["OpenAILLM", "chat_request", "counted_usage", "estimate_tokens", "response_format", "sent_text"]
