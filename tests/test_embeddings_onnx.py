"""MiniLM in ONNX Runtime: the float32 graph gives the numpy model's vectors (and so
sentence-transformers'), the int8 graph close ones under its own name, the settings pick the
runtime, and the runtime's threads stay within what a worker was given."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from paperpyramid.embeddings import configured_name, get_embedder
from paperpyramid.embeddings.minilm import MiniLM
from paperpyramid.settings import EmbeddingSettings
from tests.conftest import EMBEDDING_TEXTS as TEXTS

pytest.importorskip("onnxruntime", reason="onnxruntime not installed (pip install -e '.[onnx]')")
pytest.importorskip("onnx", reason="onnx not installed (pip install -e '.[onnx]')")

from paperpyramid.embeddings.minilm_onnx import MiniLMOnnx  # noqa: E402


@pytest.fixture(scope="module")
def numpy_vectors() -> np.ndarray:
    return MiniLM().embed_passages(TEXTS)


@pytest.fixture(scope="module")
def float32() -> MiniLMOnnx:
    return MiniLMOnnx(threads=1)


@pytest.mark.slow
def test_float32_graph_gives_the_numpy_models_vectors(float32: MiniLMOnnx, numpy_vectors: np.ndarray) -> None:
    ours = float32.embed_passages(TEXTS)
    assert ours.shape == (len(TEXTS), 384) and ours.dtype == np.float32
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    cosines = (ours * numpy_vectors).sum(1)
    assert cosines.min() > 0.99999, cosines
    assert float32.name == MiniLM.name, "the same vectors go under the same name, so corpora need no re-embedding"
    query = float32.embed_query(TEXTS[0])
    assert query.shape == (384,) and float(query @ numpy_vectors[0]) > 0.99999
    assert float32.count_tokens(TEXTS[6]) == float32.window


@pytest.mark.slow
def test_float32_graph_matches_sentence_transformers(float32: MiniLMOnnx) -> None:
    st = pytest.importorskip("sentence_transformers", reason="sentence-transformers (and torch) not installed: nothing to compare with")
    reference = st.SentenceTransformer(str(float32.model_dir), device="cpu").encode(TEXTS, normalize_embeddings=True)
    assert (float32.embed_passages(TEXTS) * reference).sum(1).min() > 0.9999


@pytest.mark.slow
def test_int8_vectors_are_close_but_stored_under_their_own_name(numpy_vectors: np.ndarray) -> None:
    int8 = get_embedder(EmbeddingSettings(model="minilm-int8", threads=1))
    assert int8.name == configured_name(EmbeddingSettings(model="minilm-int8")) == "all-MiniLM-L6-v2-int8" != MiniLM.name
    ours = int8.embed_passages(TEXTS)
    cosines = (ours * numpy_vectors).sum(1)
    # measured on 256 held-out contexts: min 0.974, mean 0.992; retrieval MRR@10 within 0.005
    assert cosines.min() > 0.95 and cosines.mean() > 0.98, cosines
    assert not np.allclose(ours, numpy_vectors, atol=1e-4), (
        "int8 weights change the vectors: a test that cannot tell them apart proves nothing"
    )
    frog, wheat, frog_again = int8.embed_passages([TEXTS[0], TEXTS[1], "A frog species whose females bear live tadpoles"])
    assert float(frog @ frog_again) > float(frog @ wheat) + 0.2


def test_settings_choose_the_runtime() -> None:
    from paperpyramid.embeddings.minilm_torch import bf16_unavailable

    assert isinstance(get_embedder(EmbeddingSettings()), MiniLMOnnx) == (bf16_unavailable() is not None), (
        "ONNX Runtime is installed: the default runs there unless torch and AMX run it in bfloat16"
    )
    assert type(get_embedder(EmbeddingSettings(runtime="numpy"))) is MiniLM
    chosen = get_embedder(EmbeddingSettings(runtime="onnx", threads=3))
    assert isinstance(chosen, MiniLMOnnx) and chosen.threads == 3 and not chosen.int8
    with pytest.raises(ValueError, match="runtime"):
        EmbeddingSettings(runtime="torch")


PROBE = """
import json, os
from paperpyramid.embeddings.minilm_onnx import MiniLMOnnx
embedder = MiniLMOnnx()
embedder.tokenizer.encode_batch(["the tokenizer's own pool starts first"] * 4)
before = len(os.listdir("/proc/self/task"))
embedder.embed_passages(["a sentence to embed"] * 4)
print(json.dumps({"threads": embedder.threads, "tasks_added": len(os.listdir("/proc/self/task")) - before}))
"""


def probe(share: int) -> dict[str, int]:
    env = {"OMP_NUM_THREADS": str(share), "RAYON_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120, check=True)
    answer: dict[str, int] = json.loads(result.stdout.strip().splitlines()[-1])
    return answer


@pytest.mark.slow
def test_a_workers_thread_share_sizes_the_runtimes_pool() -> None:
    """A worker given OMP_NUM_THREADS=n (limit_threads) gets an ONNX Runtime pool of n threads
    (n - 1 beside the caller); ONNX Runtime reads neither the variable nor threadpoolctl itself,
    so without this it would take every core in every worker."""
    one, four = probe(1), probe(4)
    assert (one["threads"], four["threads"]) == (1, 4)
    assert four["tasks_added"] - one["tasks_added"] == 3, (one, four)
    assert one["tasks_added"] <= 1, one
