"""The model that batch distillation runs the ordinary distillation code against.

:class:`BatchLLM` is an :class:`~paperpyramid.llm.LLM` whose every call is answered from the
results imported into the batch store. It builds each request exactly as the live OpenAI client
does (:func:`~paperpyramid.llm.openai_llm.chat_request`, the same schema instructions, the same
``response_format``), names it by a hash of its body (:func:`custom_id`, stable: the same request
is the same id in every round and every run), and reads the answer with the live client's
validation, its one repair turn (:func:`~paperpyramid.llm.structured.complete_with_repair`), its
byte bound and its usage counting. So a distillation stored from batch results is the one a live
run stores from the same replies.

A call whose result is not imported yet raises
:class:`~paperpyramid.distill.pipeline.ArticleDeferred`: the article stops there for this round,
and the request is kept in :attr:`BatchLLM.asked` for the next round's file. A reply that fails
validation leads to the repair request (the conversation with the bad reply and what was wrong),
which goes into the next round the same way; a second bad reply is the live
:class:`~paperpyramid.errors.LLMOutputError`. A result that is an error line is
:class:`BatchRequestFailed`, which fails the article with the line's reason.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from paperpyramid.distill.batch.store import BatchStore
from paperpyramid.distill.pipeline import ArticleDeferred
from paperpyramid.errors import ConfigurationError, LLMOutputError, PaperPyramidError
from paperpyramid.llm import LLMReply, Message, Usage
from paperpyramid.llm.openai_llm import chat_request, counted_usage, estimate_tokens, response_format, sent_text
from paperpyramid.llm.structured import complete_with_repair, with_schema_instructions
from paperpyramid.llm.wire import read_completion, reply_byte_limit

if TYPE_CHECKING:
    from paperpyramid.settings import LLMSettings

T = TypeVar("T", bound=BaseModel)

#: every custom id starts so (a later change to how requests are named changes the prefix)
CUSTOM_ID_PREFIX = "pp1-"
#: the endpoint every batch line asks for
CHAT_URL = "/v1/chat/completions"


class BatchRequestFailed(PaperPyramidError):
    """The batch endpoint answered a request with an error (an error line): the article it
    belongs to fails with that reason, as it would on a refused live request."""


def custom_id(body: dict[str, Any]) -> str:
    """The request's stable id: a hash of its canonical JSON body (model, messages, schema,
    ``max_tokens``, temperature, seed), so the same request has the same id in every round."""
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return CUSTOM_ID_PREFIX + hashlib.sha256(canonical.encode()).hexdigest()[:40]


def request_line(key: str, body: dict[str, Any]) -> dict[str, Any]:
    """One line of a batch input file (the OpenAI Batch API's format, which vLLM's ``run_batch`` reads)."""
    return {"custom_id": key, "method": "POST", "url": CHAT_URL, "body": body}


class BatchLLM:
    """Answers from ``store`` (None: nothing is answered, every first call is asked for; the dry
    run uses that). ``name`` is ``openai:{model}``, as the live OpenAI client's, so a pyramid
    records the same model whichever way it was distilled."""

    def __init__(self, settings: LLMSettings, store: BatchStore | None) -> None:
        if not settings.model:
            raise ConfigurationError(
                "batch distillation needs the model name the batch endpoint knows: pass --llm-model or set PAPERPYRAMID_LLM__MODEL"
            )
        self.settings = settings
        self.model: str = settings.model
        self.store = store
        # what live json_schema/auto sends first; json_object where the settings ask for it
        self.mode = "json_object" if settings.structured_output == "json_object" else "json_schema"
        self._lock = threading.Lock()
        self.asked: dict[str, dict[str, Any]] = {}  # requests without a result, by custom id

    def __repr__(self) -> str:
        return f"BatchLLM({self.model!r})"

    @property
    def name(self) -> str:
        return f"openai:{self.model}"

    @property
    def context_window(self) -> int:
        return self.settings.context_window

    def count_tokens(self, text: str) -> int:
        return estimate_tokens(text)

    def complete(self, messages: Sequence[Message], schema: type[T], *, max_tokens: int = 1024) -> LLMReply[T]:
        options = {"response_format": response_format(self.mode, schema)}

        def call(conversation: list[Message]) -> tuple[str, Usage]:
            body = chat_request(
                self.model,
                conversation,
                max_tokens=max_tokens,
                temperature=self.settings.temperature,
                seed=self.settings.seed,
                options=options,
            )
            return self._answer(body, sent_text(conversation, options), max_tokens)

        value, usage, attempts = complete_with_repair(call, with_schema_instructions(messages, schema), schema, model=self.name)
        return LLMReply(value, usage, model=self.name, attempts=attempts)

    def _answer(self, body: dict[str, Any], sent: str, max_tokens: int) -> tuple[str, Usage]:
        key = custom_id(body)
        result = self.store.result(key) if self.store is not None else None
        if result is None:
            with self._lock:
                self.asked[key] = body
            raise ArticleDeferred(key)
        if result.completion is None:
            raise BatchRequestFailed(f"batch request {key} failed: {result.error}")
        raw = result.completion.encode()
        if len(raw) > reply_byte_limit(max_tokens):  # the live client's bound on a reply, read the same way
            raise LLMOutputError(
                f"{self.name} sent a reply longer than max_tokens={max_tokens} allows (batch request {key}); it was cut off",
                usage=Usage(estimate_tokens(sent), max_tokens),
            )
        completion = read_completion(raw)
        return completion.text, counted_usage(completion, sent)


__all__ = ["CHAT_URL", "CUSTOM_ID_PREFIX", "BatchLLM", "BatchRequestFailed", "custom_id", "request_line"]
