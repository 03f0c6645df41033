"""MiniLM's ONNX graph on real passages, and the optimised graph kept on disk: written once,
loaded by later embedders with the same vectors, written again when the weights change, and
built in memory when the folder cannot be written."""

from __future__ import annotations

import logging
import os
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

from paperpyramid.embeddings import get_embedder
from paperpyramid.embeddings.minilm import MiniLM
from paperpyramid.settings import EmbeddingSettings
from paperpyramid.tokens import default_model_dir

pytest.importorskip("onnxruntime", reason="onnxruntime not installed (pip install -e '.[onnx]')")
pytest.importorskip("onnx", reason="onnx not installed (pip install -e '.[onnx]')")

from paperpyramid.embeddings.minilm_onnx import MiniLMOnnx  # noqa: E402
from paperpyramid.embeddings.minilm_onnx.cache import cached_graph_path, load_session  # noqa: E402

GOLD = Path(__file__).parent / "data" / "gold"


@pytest.fixture(scope="module")
def passages() -> list[str]:
    """The paragraphs of the two gold JATS articles, as a corpus's contexts would read."""
    texts: list[str] = []
    for path in sorted(GOLD.glob("*.nxml")):
        texts += [" ".join("".join(p.itertext()).split()) for p in ET.parse(path).iter("p")]
    assert len(texts) > 40
    return texts


@pytest.fixture(scope="module")
def numpy_vectors(passages: list[str]) -> np.ndarray:
    return MiniLM().embed_passages(passages)


@pytest.mark.slow
def test_the_default_embedder_gives_the_numpy_models_vectors_on_real_passages(
    passages: list[str], numpy_vectors: np.ndarray, tmp_path: Path
) -> None:
    for runtime in ("auto", "onnx"):  # the default, and ONNX Runtime by name (the default without AMX)
        embedder = get_embedder(EmbeddingSettings(threads=1, graph_cache=tmp_path, runtime=runtime))
        assert embedder.name == MiniLM.name and (runtime == "auto" or (isinstance(embedder, MiniLMOnnx) and not embedder.int8))
        cosines = (embedder.embed_passages(passages) * numpy_vectors).sum(1)
        assert cosines.min() >= 0.9999, (runtime, cosines.min())


@pytest.mark.slow
def test_int8_on_real_passages_is_close_to_float32(passages: list[str], numpy_vectors: np.ndarray, tmp_path: Path) -> None:
    cosines = (MiniLMOnnx(int8=True, threads=1, cache_dir=tmp_path).embed_passages(passages) * numpy_vectors).sum(1)
    # measured on 256 contexts of the development corpus: min 0.978, mean 0.992
    assert cosines.min() > 0.95 and cosines.mean() > 0.985, (cosines.min(), cosines.mean())
    assert cosines.mean() < 0.9999, "int8 weights change the vectors: a test that cannot tell them apart proves nothing"


def copied_model(tmp_path: Path) -> Path:
    """The package's model files beside a copy of its weights, whose modification time a test may change."""
    model = tmp_path / "model"
    model.mkdir()
    for path in default_model_dir().iterdir():
        if path.name == "model.safetensors":
            shutil.copy2(path, model / path.name)
        else:
            (model / path.name).symlink_to(path)
    return model


@pytest.mark.slow
def test_the_optimised_graph_is_written_once_reused_and_rewritten_when_stale(passages: list[str], tmp_path: Path) -> None:
    model, cache = copied_model(tmp_path), tmp_path / "cache"
    weights = model / "model.safetensors"
    first = MiniLMOnnx(model, int8=True, threads=1, cache_dir=cache)
    builds: list[int] = []

    def build() -> bytes:
        builds.append(1)
        return first.serialised_graph()

    options = first.session.get_session_options()  # writes the graph
    saved = cached_graph_path(cache, weights, int8=True)
    assert [path.name for path in cache.iterdir()] == [saved.name]
    written = saved.stat().st_mtime_ns
    vectors = first.embed_passages(passages[:12])

    again = MiniLMOnnx(model, int8=True, threads=1, cache_dir=cache)
    again._session = load_session(options, build, cache, weights, int8=True)
    assert builds == [], "a saved graph is loaded, not written again"
    assert saved.stat().st_mtime_ns == written
    assert np.array_equal(again.embed_passages(passages[:12]), vectors)

    os.utime(weights, ns=(written + 10**9, written + 10**9))  # the weights changed
    stale = saved
    assert cached_graph_path(cache, weights, int8=True) != stale
    later = MiniLMOnnx(model, int8=True, threads=1, cache_dir=cache)
    later._session = load_session(options, build, cache, weights, int8=True)
    assert builds == [1], "changed weights write the graph again"
    assert [path.name for path in cache.iterdir()] == [cached_graph_path(cache, weights, int8=True).name], "the stale graph is removed"
    assert np.array_equal(later.embed_passages(passages[:12]), vectors)


@pytest.mark.slow
def test_a_graph_loaded_from_the_cache_gives_the_vectors_of_one_built_in_memory(
    passages: list[str], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    cached = MiniLMOnnx(threads=1, cache_dir=tmp_path / "cache")
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder")
    in_memory = MiniLMOnnx(threads=1, cache_dir=blocked / "cache")
    with caplog.at_level(logging.WARNING):
        unsaved = in_memory.embed_passages(passages[:8])
    assert "cannot keep the optimised ONNX graph" in caplog.text
    assert not (blocked / "cache").exists()
    assert np.allclose(cached.embed_passages(passages[:8]), unsaved, atol=1e-6)
    assert any((tmp_path / "cache").iterdir())
