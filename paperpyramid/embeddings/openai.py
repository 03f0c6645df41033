"""Embeddings from any OpenAI-compatible ``/v1/embeddings`` endpoint, through the ``openai`` client.

Local servers speak this protocol too, so a bigger model than MiniLM needs no code here, only
settings. For example nomic-embed-text-v1.5 (768 dimensions, Matryoshka, a window of 8192
tokens), which wants a prefix that tells queries from passages:

* Ollama: ``ollama pull nomic-embed-text:v1.5``; the endpoint is ``http://localhost:11434/v1``.
* llama.cpp: ``llama-server -m nomic-embed-text-v1.5.Q8_0.gguf --embeddings --port 8080``;
  the endpoint is ``http://localhost:8080/v1``.
* vLLM: ``vllm serve nomic-ai/nomic-embed-text-v1.5 --task embed --trust-remote-code``;
  the endpoint is ``http://localhost:8000/v1``.
* text-embeddings-inference: ``text-embeddings-router --model-id nomic-ai/nomic-embed-text-v1.5``;
  the endpoint is ``http://localhost:8080/v1``.

Then (the model name is the one the server knows; Ollama's shown)::

    export PAPERPYRAMID_EMBEDDING__MODEL=openai
    export OPENAI_BASE_URL=http://localhost:11434/v1        # or PAPERPYRAMID_EMBEDDING__BASE_URL
    export PAPERPYRAMID_EMBEDDING__API_MODEL=nomic-embed-text:v1.5
    export PAPERPYRAMID_EMBEDDING__QUERY_PREFIX="search_query: "
    export PAPERPYRAMID_EMBEDDING__PASSAGE_PREFIX="search_document: "
    export PAPERPYRAMID_EMBEDDING__API_WINDOW=8192
    # optional: PAPERPYRAMID_EMBEDDING__DIMENSIONS=256 (a Matryoshka cut, where the server supports it)

No API key is needed for a local server (OPENAI_API_KEY is sent when set). Requests that fail
with 429, 5xx, a timeout or a dropped connection are retried with exponential backoff; the
client's own retries are turned off so that there is one retry policy, this one. Each request,
connect to last byte, ends within ``timeout`` seconds (:mod:`paperpyramid.http_deadline`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import openai
from openai.types import CreateEmbeddingResponse

from paperpyramid.embeddings import Vectors, unit_vectors
from paperpyramid.errors import ConfigurationError, ServiceUnavailable
from paperpyramid.http_deadline import deadline as whole_exchange_by
from paperpyramid.http_deadline import http_client
from paperpyramid.openai_compat import retry_after_seconds, server_message

if TYPE_CHECKING:
    from paperpyramid.settings import EmbeddingSettings
    from paperpyramid.tokens import TokenCounter

#: Sent when no key is configured: the client insists on one, local servers ignore it.
PLACEHOLDER_API_KEY = "not-needed"
#: The longest wait a server's Retry-After can ask of us; longer requests are cut to this.
MAX_RETRY_AFTER = 60.0


class OpenAIEmbedder:
    """An embedding model behind an OpenAI-compatible endpoint.

    ``name`` is the server's model name, with ``@{dimensions}`` when vectors are cut, so that
    vectors of one size never mix with another's. ``dimension`` comes from ``dimensions`` when
    set, else from the first response (reading it before any embedding sends one probe).
    ``backoff`` is the first wait before a retry in seconds, doubled on each further retry up
    to ``max_backoff``.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key: str | None = None,
        dimensions: int | None = None,
        window: int = 8192,
        query_prefix: str = "",
        passage_prefix: str = "",
        batch_size: int = 64,
        retries: int = 5,
        timeout: float = 60.0,
        backoff: float = 0.5,
        max_backoff: float = 8.0,
    ) -> None:
        self.base_url = base_url
        self.api_model = model
        self.name = f"{model}@{dimensions}" if dimensions else model
        self.window = window
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self.batch_size = max(1, batch_size)
        self.retries = max(0, retries)
        self.timeout = timeout
        self.backoff = backoff
        self.max_backoff = max_backoff
        self._dimensions = dimensions
        self._dimension = dimensions
        self._counter: TokenCounter | None = None
        # max_retries=0: the retry loop is ours (one policy, errors we can word, testable).
        self._client = openai.OpenAI(
            base_url=base_url, api_key=api_key or PLACEHOLDER_API_KEY, max_retries=0, timeout=timeout, http_client=http_client()
        )

    @classmethod
    def from_settings(cls, settings: EmbeddingSettings) -> OpenAIEmbedder:
        if not settings.base_url:
            raise ConfigurationError(
                "embedder 'openai' needs the endpoint's base URL: set PAPERPYRAMID_EMBEDDING__BASE_URL or OPENAI_BASE_URL "
                "(e.g. http://localhost:11434/v1)"
            )
        if not settings.api_model:
            raise ConfigurationError(
                "embedder 'openai' needs the model name the server knows: set PAPERPYRAMID_EMBEDDING__API_MODEL "
                "(e.g. nomic-embed-text:v1.5)"
            )
        return cls(
            settings.base_url,
            settings.api_model,
            api_key=settings.api_key,
            dimensions=settings.dimensions,
            window=settings.api_window,
            query_prefix=settings.query_prefix,
            passage_prefix=settings.passage_prefix,
            batch_size=settings.batch_size,
            retries=settings.retries,
            timeout=settings.timeout,
        )

    def __repr__(self) -> str:
        return f"OpenAIEmbedder({self.base_url!r}, {self.name!r})"

    @property
    def dimension(self) -> int:
        """The vectors' size; when neither configured nor seen yet, one probe request finds it."""
        if self._dimension is None:
            self.embed_passages(["dimension probe"])
        assert self._dimension is not None
        return self._dimension

    @dimension.setter
    def dimension(self, value: int) -> None:
        # The Embedder protocol declares a plain (settable) attribute; a read-only property
        # would not satisfy it.
        self._dimension = value

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        return self._embed([self.passage_prefix + text for text in texts])

    def embed_query(self, text: str) -> Vectors:
        vector: Vectors = self._embed([self.query_prefix + text])[0]
        return vector

    def count_tokens(self, text: str) -> int:
        """An *estimate*: the server offers no tokenizer, so this counts with the bundled
        all-MiniLM-L6-v2 WordPiece tokenizer, plus 2 for the special tokens around the text.
        Other models' tokenizers differ by some percent either way; keep a margin in the window."""
        if self._counter is None:
            from paperpyramid.tokens import TokenCounter

            self._counter = TokenCounter()
        return self._counter.count(text) + 2

    def _embed(self, texts: list[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self._dimension or 0), dtype=np.float32)
        batches = [self._embed_batch(texts[start : start + self.batch_size]) for start in range(0, len(texts), self.batch_size)]
        width = self._dimension or 0
        problems: dict[int, str] = {}
        offset = 0
        for matrix, found in batches:
            problems.update({offset + row: why for row, why in found.items()})
            offset += len(matrix)
        # a batch answered before any usable vector showed the size holds refused rows only
        matrices = [matrix if matrix.shape[1] == width else np.zeros((len(matrix), width), dtype=np.float32) for matrix, _ in batches]
        return unit_vectors(np.concatenate(matrices), f"embedding endpoint {self.base_url} (model {self.api_model!r})", problems)

    def _embed_batch(self, batch: list[str]) -> tuple[Vectors, dict[int, str]]:
        """The batch's vectors as answered (one row per text; an unusable one NaN) and, by row,
        why a vector cannot be used: null, not numbers, or another length than the others'."""
        response = self._request(batch)
        # Servers may answer out of order; each item says which input it belongs to.
        items = sorted(response.data or [], key=lambda item: item.index)
        if [item.index for item in items] != list(range(len(batch))):
            raise ServiceUnavailable(
                f"embedding endpoint {self.base_url} answered {len(items)} vectors for {len(batch)} texts (indices {[i.index for i in items][:10]})"
            )
        problems: dict[int, str] = {}
        rows: list[npt.NDArray[np.float32] | None] = []
        for row, item in enumerate(items):
            numbers, problem = _numbers(item.embedding)
            rows.append(numbers)
            if problem is not None:
                problems[row] = problem
        sizes = Counter(len(numbers) for numbers in rows if numbers is not None)
        if sizes:
            size = sizes.most_common(1)[0][0]
            if self._dimensions is not None and size != self._dimensions and len(sizes) == 1:
                # A server that ignores `dimensions` would store full-size vectors under a cut name.
                raise ConfigurationError(
                    f"asked {self.base_url} for {self._dimensions}-dimensional vectors from {self.api_model!r} but got {size}: "
                    "the server or model does not support `dimensions`; unset PAPERPYRAMID_EMBEDDING__DIMENSIONS"
                )
            if self._dimension is not None and size != self._dimension and len(sizes) == 1:
                raise ServiceUnavailable(f"embedding endpoint {self.base_url} changed its vector size from {self._dimension} to {size}")
            if self._dimension is None:
                self._dimension = size
        width = self._dimension or 0
        matrix = np.full((len(rows), width), np.nan, dtype=np.float32)
        for row, numbers in enumerate(rows):
            if numbers is None:
                continue
            if len(numbers) != width:
                problems[row] = f"{len(numbers)} numbers where the others have {width}"
            else:
                matrix[row] = numbers
        return matrix, problems

    def _request(self, batch: list[str]) -> CreateEmbeddingResponse:
        """One embeddings call with our retries: 429, 5xx, timeouts and dropped connections are
        retried; any other 4xx is a setting that cannot work (a wrong model name, a bad key)."""
        attempts = self.retries + 1
        # The last failure, reported once the retries are spent.
        cause = ""
        error: openai.APIError | None = None
        for attempt in range(attempts):
            retry_after: float | None = None
            try:
                # encoding_format="float": the client otherwise asks for base64, which not every
                # local server implements.
                # The whole exchange within ``timeout`` (the client's own timeout is per read).
                with whole_exchange_by(time.monotonic() + self.timeout):
                    if self._dimensions is None:
                        return self._client.embeddings.create(input=batch, model=self.api_model, encoding_format="float")
                    return self._client.embeddings.create(
                        input=batch, model=self.api_model, encoding_format="float", dimensions=self._dimensions
                    )
            except openai.APIStatusError as exc:
                status = exc.status_code
                if status != 429 and status < 500:
                    raise ConfigurationError(
                        f"embedding endpoint {self.base_url} rejected a request for model {self.api_model!r}: "
                        f"HTTP {status}: {server_message(exc)}"
                    ) from exc
                cause = f"HTTP {status}: {server_message(exc)}"
                retry_after, error = retry_after_seconds(exc), exc
            except openai.APITimeoutError as exc:
                cause, error = f"no answer in {self.timeout:g} s", exc
            except openai.APIConnectionError as exc:
                # The client's message is a bare "Connection error."; the cause says which.
                cause, error = f"unreachable ({exc.__cause__ or exc.message})", exc
            if attempt + 1 < attempts:
                delay = min(self.backoff * 2**attempt, self.max_backoff)
                time.sleep(max(delay, min(retry_after or 0.0, MAX_RETRY_AFTER)))
        raise ServiceUnavailable(
            f"embedding endpoint {self.base_url} failed after {attempts} attempt{'s' if attempts > 1 else ''}: {cause}"
        ) from error


def _numbers(embedding: Any) -> tuple[npt.NDArray[np.float32] | None, str | None]:
    """One answered embedding as float32 numbers, or None and why it is not a vector."""
    if embedding is None:
        return None, "null"
    if isinstance(embedding, str | bytes) or not isinstance(embedding, Sequence):
        return None, f"not a list of numbers ({type(embedding).__name__})"
    if not all(isinstance(number, int | float) and not isinstance(number, bool) for number in embedding):
        return None, "a list holding something other than numbers"
    if not embedding:
        return None, "an empty list"
    return np.asarray(embedding, dtype=np.float32), None


__all__ = ["OpenAIEmbedder"]
