"""One registry (:class:`paperpyramid.registry.Registry`) serves the four kinds of plug-in: parsers,
embedders, LLM backends and retrieval modes. The built-in names the settings accept (their
``Literal`` types, checked when settings load) are the names each registry holds, in the same
order (the order an unknown name's error lists them); each registered backend loads; an unknown
name is refused listing the known ones; and a backend of one's own, registered by
``package.module:attribute`` or named so in the settings, is what ``get_embedder`` or
``get_llm`` then builds."""

from __future__ import annotations

import re
from typing import Any, get_args

import numpy as np
import pytest
from pydantic import ValidationError

from paperpyramid.embeddings import EMBEDDERS, EmbedderBackend, configured_name, get_embedder
from paperpyramid.errors import ConfigurationError
from paperpyramid.llm import LLMS, get_llm
from paperpyramid.llm.local import LocalLLM
from paperpyramid.llm.openai_llm import OpenAILLM
from paperpyramid.parsers import PDF_BACKENDS
from paperpyramid.registry import Registry
from paperpyramid.retrieval.api import RETRIEVERS
from paperpyramid.settings import EmbedderName, EmbeddingSettings, LLMBackendName, LLMSettings, ParserName, SearchMode, Settings
from tests.hashing_embedder import BUILT, HashingEmbedder

#: (the settings' Literal, the names its registry holds)
KINDS = [
    ("embedder", EmbedderName, lambda: EMBEDDERS.names()),
    ("LLM backend", LLMBackendName, lambda: LLMS.names()),
    ("retrieval mode", SearchMode, lambda: RETRIEVERS.names()),
    ("PDF parser", ParserName, lambda: tuple(PDF_BACKENDS)),
]


@pytest.mark.parametrize(("kind", "literal", "registered"), KINDS, ids=[kind for kind, _, _ in KINDS])
def test_the_settings_accept_the_names_the_registry_holds(kind: str, literal: Any, registered: Any) -> None:
    assert get_args(literal) == registered(), f"the {kind} names in settings.py and in the registry differ"


@pytest.mark.parametrize("registry", [EMBEDDERS, LLMS, RETRIEVERS], ids=lambda registry: registry.what)
def test_every_registered_backend_loads(registry: Registry[Any]) -> None:
    for name in registry:
        backend = registry.get(name)
        assert isinstance(backend, EmbedderBackend) if registry is EMBEDDERS else callable(backend), name


def test_an_llm_backend_is_its_class_imported_when_chosen() -> None:
    assert LLMS.target("local") == "paperpyramid.llm.local:LocalLLM"
    assert LLMS.get("local") is LocalLLM and LLMS.get("openai") is OpenAILLM


def test_an_embedders_stored_name_is_known_without_loading_it() -> None:
    assert configured_name(EmbeddingSettings(model="minilm")) == "all-MiniLM-L6-v2"
    assert configured_name(EmbeddingSettings(model="e5-small")) == "multilingual-e5-small-q4"
    assert configured_name(EmbeddingSettings(model="openai", api_model="nomic", dimensions=256)) == "nomic@256"
    assert configured_name(EmbeddingSettings(model="openai", api_model=None)) is None


def test_unknown_names_are_refused_when_settings_load_and_by_the_registry() -> None:
    with pytest.raises(ValidationError):
        EmbeddingSettings(model="word2vec")
    with pytest.raises(ValidationError):
        LLMSettings(backend="gpt-j")
    # settings built without validation reach the registry, which says what exists
    with pytest.raises(
        ConfigurationError, match=re.escape("unknown embedder 'word2vec'; choose one of: minilm, minilm-int8, e5-small, openai")
    ):
        get_embedder(EmbeddingSettings.model_construct(model="word2vec"))
    with pytest.raises(ConfigurationError, match=re.escape("unknown LLM backend 'gpt-j'; choose one of: local, openai")):
        get_llm(LLMSettings.model_construct(backend="gpt-j", cache=False))
    with pytest.raises(ValueError, match="already registered"):
        EMBEDDERS.register("minilm", "tests.hashing_embedder:HASHING")


def test_an_embedder_of_ones_own_by_import_path() -> None:
    """Registered as ``tests.hashing_embedder:HASHING``, it is imported when first chosen; its
    stored name is known without building it; ``get_embedder`` builds it with the settings. (The
    settings' ``Literal`` refuses a name it does not list, so the settings here are built unchecked,
    as a program that registers its own embedder would build them.)"""
    EMBEDDERS.register("hashing", "tests.hashing_embedder:HASHING")
    try:
        settings = EmbeddingSettings.model_construct(**{**EmbeddingSettings().model_dump(), "model": "hashing"})
        BUILT.clear()
        assert configured_name(settings) == "hashing-64" and BUILT == []
        embedder = get_embedder(settings)
        assert isinstance(embedder, HashingEmbedder) and len(BUILT) == 1 and BUILT[0] is settings
        vectors = embedder.embed_passages(["frogs in cold ponds", "cold ponds hold frogs", "tax law of 1990"])
        assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
        query = embedder.embed_query("frogs ponds")
        assert float(vectors[0] @ query) > float(vectors[2] @ query)
    finally:
        EMBEDDERS.unregister("hashing")
    assert "hashing" not in EMBEDDERS


def test_the_settings_take_a_backend_of_ones_own_by_import_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """A user's embedder or LLM backend named by ``package.module:attribute`` in the settings (or
    their variables): checked when settings load, imported when first chosen; an import path that
    does not lead to an embedder backend is refused saying so."""
    monkeypatch.setenv("PAPERPYRAMID_EMBEDDING__MODEL", "tests.hashing_embedder:HASHING")
    settings = Settings().embedding
    assert settings.model == "tests.hashing_embedder:HASHING"
    BUILT.clear()
    assert configured_name(settings) == "hashing-64" and BUILT == []
    assert isinstance(get_embedder(settings), HashingEmbedder) and [settings] == BUILT
    with pytest.raises(ConfigurationError, match="must be an EmbedderBackend, not HashingEmbedder"):
        get_embedder(EmbeddingSettings(model="tests.hashing_embedder:HashingEmbedder"))
    with pytest.raises(ConfigurationError, match="cannot be imported"):
        get_embedder(EmbeddingSettings(model="tests.no_such_module:THING"))
    with pytest.raises(ValidationError, match=re.escape("or package.module:attribute")):
        EmbeddingSettings(model="hashing")
    llm = get_llm(LLMSettings(backend="tests.test_registries:EchoLLM", cache=False))
    # imported by its path: the class of that module, which pytest may have imported under another name
    assert type(llm).__qualname__ == "EchoLLM" and llm.settings.backend == "tests.test_registries:EchoLLM"  # type: ignore[attr-defined]
    with pytest.raises(ValidationError, match=re.escape("unknown LLM backend 'gpt-j'")):
        LLMSettings(backend="gpt-j")


class EchoLLM:
    """An LLM backend of one's own: a class made with the settings."""

    name = "echo"

    def __init__(self, settings: LLMSettings) -> None:
        self.settings = settings
