"""MiniLM in torch with bfloat16 weights: float32's vectors within rounding, padding that changes
nothing, and the default that runs there only on a CPU with AMX, falling back to ONNX Runtime
(float32) elsewhere with a log line."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pytest

from paperpyramid.embeddings import configured_name, get_embedder, minilm_runtime, onnxruntime_available
from paperpyramid.embeddings.minilm import MiniLM
from paperpyramid.embeddings.minilm_torch import AMX_FLAGS, bf16_unavailable, cpu_flags
from paperpyramid.settings import EmbeddingSettings
from tests.conftest import EMBEDDING_TEXTS

TEXTS = [
    *EMBEDDING_TEXTS,
    "The residence time of water in the lake was estimated from tritium and helium-3 profiles measured in 2019.",
    "Mice lacking the receptor gained less weight on a high-fat diet (Fig. 2B), although food intake was unchanged.",
]


def float32_embedder() -> MiniLM:
    if onnxruntime_available():
        from paperpyramid.embeddings.minilm_onnx import MiniLMOnnx

        return MiniLMOnnx(threads=1)
    return MiniLM()


@pytest.fixture(scope="module")
def bf16() -> MiniLM:
    pytest.importorskip("torch", reason="torch not installed (pip install 'paperpyramid[embeddings]'): no bfloat16 runtime")
    from paperpyramid.embeddings.minilm_torch import MiniLMBf16

    return MiniLMBf16(threads=1)


@pytest.mark.slow
def test_bf16_vectors_are_float32s_within_rounding(bf16: MiniLM) -> None:
    reference = float32_embedder().embed_passages(TEXTS)
    ours = bf16.embed_passages(TEXTS)
    assert ours.shape == (len(TEXTS), 384) and ours.dtype == np.float32
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    cosines = (ours * reference).sum(1)
    # measured on 256 real contexts of the development corpus: min 0.99994, mean 0.99997
    assert cosines.min() >= 0.999, cosines
    assert not np.allclose(ours, reference, atol=1e-5), "bfloat16 rounds the vectors: a test that cannot tell them apart proves nothing"
    assert bf16.name == configured_name(EmbeddingSettings()) == MiniLM.name, "vectors this close are stored under the same name"
    query = bf16.embed_query(TEXTS[0])
    assert query.shape == (384,) and float(query @ reference[0]) >= 0.999
    assert bf16.embed_passages([]).shape == (0, 384)


@pytest.mark.slow
def test_padding_in_a_batch_changes_no_vector(bf16: MiniLM) -> None:
    """Texts of different lengths share a batch, padded to the longest: each comes out as it
    does alone, so the padding is masked out of attention and out of the mean."""
    together = bf16.embed_passages(TEXTS)
    alone = np.stack([bf16.embed_passages([text])[0] for text in TEXTS])
    assert (together * alone).sum(1).min() > 0.999


def test_auto_falls_back_to_float32_on_a_cpu_without_amx(caplog: pytest.LogCaptureFixture) -> None:
    without_amx = frozenset({"fpu", "sse2", "avx2", "avx512f", "avx512_vnni", "avx512_bf16"})
    with caplog.at_level(logging.INFO, logger="paperpyramid.embeddings"):
        chosen = minilm_runtime(EmbeddingSettings(), cpu_flags=without_amx)
    assert chosen == ("onnx" if onnxruntime_available() else "numpy")
    assert any("amx_bf16" in record.getMessage() and "float32" in record.getMessage() for record in caplog.records), caplog.text
    assert "no AMX" in (bf16_unavailable(without_amx) or "")
    # a runtime named in the settings is taken as named, whatever the CPU
    assert minilm_runtime(EmbeddingSettings(runtime="torch-bf16"), cpu_flags=without_amx) == "torch-bf16"
    assert minilm_runtime(EmbeddingSettings(runtime="numpy"), cpu_flags=without_amx | AMX_FLAGS) == "numpy"


def test_auto_runs_bf16_on_a_cpu_with_amx_when_torch_is_installed() -> None:
    pytest.importorskip("torch", reason="torch not installed: auto cannot choose bfloat16")
    assert minilm_runtime(EmbeddingSettings(), cpu_flags=frozenset({"avx512f"}) | AMX_FLAGS) == "torch-bf16"
    from paperpyramid.embeddings.minilm_torch import MiniLMBf16

    chosen = get_embedder(EmbeddingSettings(runtime="torch-bf16", threads=2))
    assert isinstance(chosen, MiniLMBf16) and chosen.threads == 2
    default = get_embedder(EmbeddingSettings())
    assert isinstance(default, MiniLMBf16) == (bf16_unavailable() is None), (default, bf16_unavailable())


def test_cpu_flags_are_read_from_cpuinfo(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(
        "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Platinum 8480C\nflags\t\t: fpu avx512f amx_bf16 amx_tile amx_int8\n\n"
    )
    assert cpu_flags(cpuinfo) >= AMX_FLAGS
    assert cpu_flags(tmp_path / "absent") == frozenset()
