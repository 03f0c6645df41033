"""all-MiniLM-L6-v2 in ONNX Runtime: the default embedder's fast path, with no torch.

The graph is written from the same package weights as the numpy model (:mod:`.graph`), so the
vectors are the numpy model's (float32: cosine 0.99999 or more, stored under the same name and
mixed freely with numpy-made ones). ONNX Runtime runs each text alone: with no padding there is
no attention mask to apply, which was faster than batches of 8 or 32 texts of one length, and it
keeps memory flat. The graph ONNX Runtime optimised is kept on disk and loaded by later processes
(:mod:`.cache`), which saves seconds at the start of every ingest worker.

``int8=True`` runs the weight-quantised graph: faster on a CPU, vectors close to but not equal
to float32's, stored under ``all-MiniLM-L6-v2-int8`` so the two never mix in one search.

Threads: ONNX Runtime keeps its own pool, which neither threadpoolctl nor ``OMP_NUM_THREADS``
reaches; it is sized from ``threads``, else the ``OMP_NUM_THREADS`` an ingest worker was given
(:func:`paperpyramid.ingestion.threads.limit_threads`), else this process's cores, and never spins
while idle, so a worker embedding never takes more than its share of the machine.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from paperpyramid.embeddings import Vectors, unit_vectors
from paperpyramid.embeddings.minilm import MiniLM, read_safetensors
from paperpyramid.embeddings.minilm_onnx.cache import default_cache_dir
from paperpyramid.errors import MissingExtra


def default_threads() -> int:
    """The threads ONNX Runtime gets when none are set: a worker's share, else the cores."""
    configured = os.environ.get("OMP_NUM_THREADS", "")
    if configured.isdigit() and int(configured) > 0:
        return int(configured)
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class MiniLMOnnx(MiniLM):
    """all-MiniLM-L6-v2 through ONNX Runtime (float32, or int8 weights with ``int8=True``)."""

    def __init__(
        self, model_dir: Path | None = None, *, int8: bool = False, threads: int | None = None, cache_dir: Path | None = None
    ) -> None:
        super().__init__(model_dir)
        self.int8 = int8
        self.name = "all-MiniLM-L6-v2-int8" if int8 else "all-MiniLM-L6-v2"
        self.threads = threads or default_threads()
        self.cache_dir = cache_dir or default_cache_dir()
        self._session: Any = None

    def __repr__(self) -> str:
        return f"MiniLMOnnx({self.model_dir}, int8={self.int8}, threads={self.threads})"

    @property
    def session(self) -> Any:
        if self._session is None:
            try:
                import onnxruntime
            except ImportError as exc:
                raise MissingExtra("onnxruntime", "onnx") from exc
            from paperpyramid.embeddings.minilm_onnx.cache import load_session

            options = onnxruntime.SessionOptions()
            options.intra_op_num_threads = self.threads
            options.inter_op_num_threads = 1
            options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
            options.add_session_config_entry("session.intra_op.allow_spinning", "0")
            options.log_severity_level = 3  # no warnings about the optimised graph on stderr
            weights = self.model_dir / "model.safetensors"
            self._session = load_session(options, self.serialised_graph, self.cache_dir, weights, int8=self.int8)
        return self._session

    def serialised_graph(self) -> bytes:
        """The graph written from the package's weights (:mod:`.graph`), not yet optimised."""
        from paperpyramid.embeddings.minilm_onnx.graph import build_model

        config = json.loads((self.model_dir / "config.json").read_text())
        model = build_model(
            read_safetensors(self.model_dir / "model.safetensors"), heads=int(config["num_attention_heads"]), layers=int(config["num_hidden_layers"]),
            eps=float(config["layer_norm_eps"]), int8=self.int8,
        )  # fmt: skip
        serialised: bytes = model.SerializeToString()
        return serialised

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        session = self.session
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, encoding in enumerate(self.tokenizer.encode_batch(list(texts))):
            out[row] = session.run(["pooled"], {"input_ids": np.asarray([encoding.ids], dtype=np.int64)})[0][0]
        return unit_vectors(out, f"the embedder {self.name}")
