"""A llama-architecture decoder (SmolLM2) in numpy, with the weights of a GGUF file.

Per block: RMSNorm, grouped-query attention with rotary positions, RMSNorm, SwiGLU MLP; then a
final RMSNorm and the output head (tied to the token embedding when the file has no
``output.weight``). The weights are dequantised to float32 once (SmolLM2-135M: ~540 MB), the
linear layers transposed and fused (q|k|v, gate|up) so that each is one ``x @ W``.

llama.cpp's converter permutes the rows of ``attn_q``/``attn_k`` for its interleaved RoPE (pairs
``2i, 2i+1``); the rows are put back in Hugging Face's order here so that RoPE rotates the two
halves of each head, which is cheaper in numpy. ``tests/test_llm_local.py`` checks the logits
against transformers' own model loaded from the same file.

A :class:`KVCache` holds each layer's keys and values, so a prompt is run in chunks (a batched,
causally masked prefill) and each generated token then costs one step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from paperpyramid.llm.local.gguf_file import GGUFFile

Array = npt.NDArray[np.float32]
PREFILL_CHUNK = 256


@dataclass(frozen=True, slots=True)
class LlamaConfig:
    layers: int
    width: int
    heads: int
    kv_heads: int
    head_dim: int
    vocab: int
    context_length: int
    rope_theta: float
    eps: float

    @classmethod
    def from_metadata(cls, metadata: dict[str, Any]) -> LlamaConfig:
        arch = metadata["general.architecture"]
        if arch != "llama":
            raise ValueError(f"architecture {arch!r} is not supported (llama only)")
        width = int(metadata["llama.embedding_length"])
        heads = int(metadata["llama.attention.head_count"])
        return cls(
            layers=int(metadata["llama.block_count"]),
            width=width,
            heads=heads,
            kv_heads=int(metadata.get("llama.attention.head_count_kv", heads)),
            head_dim=int(metadata.get("llama.rope.dimension_count", width // heads)),
            vocab=len(metadata["tokenizer.ggml.tokens"]),
            context_length=int(metadata["llama.context_length"]),
            rope_theta=float(metadata.get("llama.rope.freq_base", 10000.0)),
            eps=float(metadata["llama.attention.layer_norm_rms_epsilon"]),
        )


@dataclass(slots=True)
class _Block:
    attn_norm: Array
    qkv: Array  # (width, (heads + 2 kv_heads) * head_dim)
    out: Array  # (width, width)
    ffn_norm: Array
    gate_up: Array  # (width, 2 * ffn)
    down: Array  # (ffn, width)


class KVCache:
    """Keys and values of the tokens seen so far, for every layer: ``(layers, kv_heads,
    capacity, head_dim)`` each, filled up to ``length``."""

    def __init__(self, config: LlamaConfig, capacity: int) -> None:
        shape = (config.layers, config.kv_heads, capacity, config.head_dim)
        self.keys = np.zeros(shape, dtype=np.float32)
        self.values = np.zeros(shape, dtype=np.float32)
        self.capacity = capacity
        self.length = 0


def _unpermute(weight: Array, heads: int) -> Array:
    """Undo llama.cpp's q/k row permutation: per head, rows (i, pair) back to (half, i)."""
    rows, cols = weight.shape
    dim = rows // heads
    return weight.reshape(heads, dim // 2, 2, cols).swapaxes(1, 2).reshape(rows, cols)


def _rms_norm(x: Array, weight: Array, eps: float) -> Array:
    scale = np.float32(1.0) / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + np.float32(eps))
    return (x * scale) * weight  # type: ignore[no-any-return]


class LlamaModel:
    """The forward pass. ``forward(tokens, cache)`` appends ``tokens`` to the cache and returns
    the logits of the last one (or of all of them with ``all_logits=True``)."""

    def __init__(self, gguf: GGUFFile) -> None:
        self.config = config = LlamaConfig.from_metadata(gguf.metadata)
        self.embedding = gguf.tensor("token_embd.weight")  # (vocab, width)
        self.head = gguf.tensor("output.weight") if "output.weight" in gguf.tensors else self.embedding
        self.final_norm = gguf.tensor("output_norm.weight")
        self.blocks: list[_Block] = []
        for layer in range(config.layers):

            def get(name: str, layer: int = layer) -> Array:
                return gguf.tensor(f"blk.{layer}.{name}.weight")

            q = _unpermute(get("attn_q"), config.heads)
            k = _unpermute(get("attn_k"), config.kv_heads)
            self.blocks.append(
                _Block(
                    attn_norm=get("attn_norm"),
                    qkv=np.ascontiguousarray(np.concatenate([q, k, get("attn_v")]).T),
                    out=np.ascontiguousarray(get("attn_output").T),
                    ffn_norm=get("ffn_norm"),
                    gate_up=np.ascontiguousarray(np.concatenate([get("ffn_gate"), get("ffn_up")]).T),
                    down=np.ascontiguousarray(get("ffn_down").T),
                )
            )
        self._cos = np.zeros((0, config.head_dim // 2), dtype=np.float32)
        self._sin = self._cos

    def new_cache(self, capacity: int) -> KVCache:
        return KVCache(self.config, min(capacity, self.config.context_length))

    def _rope_tables(self, length: int) -> tuple[Array, Array]:
        if self._cos.shape[0] < length:
            size = max(length, 2 * self._cos.shape[0], 512)
            half = self.config.head_dim // 2
            inverse = 1.0 / self.config.rope_theta ** (np.arange(half, dtype=np.float64) * 2 / self.config.head_dim)
            angles = np.outer(np.arange(size, dtype=np.float64), inverse)
            self._cos, self._sin = np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)
        return self._cos, self._sin

    def forward(self, tokens: Sequence[int], cache: KVCache, *, all_logits: bool = False) -> Array:
        if not tokens:
            raise ValueError("forward needs at least one token")
        if cache.length + len(tokens) > cache.capacity:
            raise ValueError(f"{cache.length + len(tokens)} tokens do not fit a cache of {cache.capacity}")
        ids = np.asarray(tokens, dtype=np.int64)
        outputs = []
        for start in range(0, len(ids), PREFILL_CHUNK):
            hidden = self._step(ids[start : start + PREFILL_CHUNK], cache)
            outputs.append(hidden if all_logits else hidden[-1:])
        x = _rms_norm(np.concatenate(outputs) if all_logits else outputs[-1], self.final_norm, self.config.eps)
        logits: Array = x @ self.head.T
        return logits if all_logits else logits[0]

    def _step(self, ids: npt.NDArray[np.int64], cache: KVCache) -> Array:
        """Run ``ids`` (one chunk) through every block, appending to the cache; the hidden states."""
        c = self.config
        count, start = len(ids), cache.length
        end = start + count
        group, half = c.heads // c.kv_heads, c.head_dim // 2
        cos_table, sin_table = self._rope_tables(end)
        cos, sin = cos_table[start:end, None, :], sin_table[start:end, None, :]
        # a chunk sees every cached key and, causally, its own: only its own block is masked
        # (one row per query, repeated for each query head of a group)
        mask: Array | None = None
        if count > 1:
            visible = np.arange(count)[None, :] <= np.arange(count)[:, None]
            mask = np.tile(np.where(visible, np.float32(0), np.float32(-np.inf)).astype(np.float32), (group, 1))
        scale = np.float32(1.0 / np.sqrt(c.head_dim))
        x: Array = self.embedding[ids]  # a copy: the residual stream is updated in place
        q_width, kv_width = c.heads * c.head_dim, c.kv_heads * c.head_dim
        for layer, block in enumerate(self.blocks):
            qkv = _rms_norm(x, block.attn_norm, c.eps) @ block.qkv
            q = qkv[:, :q_width].reshape(count, c.heads, c.head_dim)
            k = qkv[:, q_width : q_width + kv_width].reshape(count, c.kv_heads, c.head_dim)
            v = qkv[:, q_width + kv_width :].reshape(count, c.kv_heads, c.head_dim)
            q = np.concatenate([q[..., :half] * cos - q[..., half:] * sin, q[..., half:] * cos + q[..., :half] * sin], axis=-1)
            k = np.concatenate([k[..., :half] * cos - k[..., half:] * sin, k[..., half:] * cos + k[..., :half] * sin], axis=-1)
            cache.keys[layer, :, start:end] = k.transpose(1, 0, 2)
            cache.values[layer, :, start:end] = v.transpose(1, 0, 2)
            keys, values = cache.keys[layer, :, :end], cache.values[layer, :, :end]
            # grouped-query attention: the query heads sharing a kv head are stacked as rows
            queries = (
                (q * scale)
                .reshape(count, c.kv_heads, group, c.head_dim)
                .transpose(1, 2, 0, 3)
                .reshape(c.kv_heads, group * count, c.head_dim)
            )
            scores = queries @ keys.transpose(0, 2, 1)  # (kv_heads, group * count, end)
            if mask is not None:
                scores[:, :, start:] += mask
            scores -= scores.max(axis=-1, keepdims=True)
            np.exp(scores, out=scores)
            # softmax's division on the (rows, head_dim) output rather than the (rows, keys) weights
            weighted = (scores @ values) / scores.sum(axis=-1, keepdims=True)
            attended = weighted.reshape(c.kv_heads, group, count, c.head_dim).transpose(2, 0, 1, 3).reshape(count, q_width)
            x += attended @ block.out
            gate_up = _rms_norm(x, block.ffn_norm, c.eps) @ block.gate_up
            gate, up = gate_up[:, : gate_up.shape[1] // 2], gate_up[:, gate_up.shape[1] // 2 :]
            x += (gate / (np.float32(1.0) + np.exp(-gate)) * up) @ block.down
        cache.length = end
        return x
