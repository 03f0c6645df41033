"""An embedder of one's own, for the registry's plug-in test: words hashed into 64 buckets,
counted, scaled to unit length. ``HASHING`` is what ``EMBEDDERS.register(name,
"tests.hashing_embedder:HASHING")`` loads; ``BUILT`` records the settings of each build."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from paperpyramid.embeddings import EmbedderBackend, Vectors, unit_vectors
from paperpyramid.settings import EmbeddingSettings


class HashingEmbedder:
    name = "hashing-64"
    dimension = 64
    window = 512

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        counts = np.zeros((len(texts), self.dimension), np.float32)
        for row, text in enumerate(texts):
            for word in text.lower().split():
                counts[row, int(hashlib.sha256(word.encode()).hexdigest(), 16) % self.dimension] += 1
        return unit_vectors(counts, self.name)

    def embed_query(self, text: str) -> Vectors:
        return self.embed_passages([text])[0]

    def count_tokens(self, text: str) -> int:
        return len(text.split())


BUILT: list[EmbeddingSettings] = []


def build(settings: EmbeddingSettings) -> HashingEmbedder:
    BUILT.append(settings)
    return HashingEmbedder()


HASHING = EmbedderBackend(build, lambda settings: HashingEmbedder.name)
