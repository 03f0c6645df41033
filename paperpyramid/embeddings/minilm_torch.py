"""all-MiniLM-L6-v2 in torch with bfloat16 weights: the default embedder on a CPU with AMX.

On a CPU with AMX (Intel Xeon since Sapphire Rapids: the ``amx_bf16`` and ``amx_tile`` flags),
oneDNN multiplies bfloat16 matrices in the AMX tiles: the whole model runs about twice as many
texts per CPU-second as float32 in ONNX Runtime. The forward pass is the numpy model's
(:mod:`paperpyramid.embeddings.minilm`): the linear layers, attention, GELU and the residual
stream in bfloat16, the statistics of each layer norm and the mean pooling in float32. The
vectors are within rounding of float32's (cosine 0.9999 or more on real contexts), so they are
stored under the same name and mix with the numpy and ONNX Runtime ones in one search: no corpus
needs a re-embed.

Texts are sorted by length and embedded in batches of :data:`BATCH_SIZE`, so that little padding
is computed; padded positions are masked out of attention and of the mean. On a CPU without AMX,
bfloat16 is emulated and slower than float32: :func:`bf16_unavailable` says why the default
falls back to ONNX Runtime there.

Queries go to ``queries`` when it is set (``runtime=auto`` sets MiniLM in float32: ONNX Runtime,
else numpy): a query is one short text a search waits for, where bfloat16 saves ~1 ms of CPU and
torch costs a second or more of import and load, twice the memory, and a thread pool that is slow
to wake on a busy machine. A search-only process then never imports torch.

torch is not a core dependency (``pip install 'paperpyramid[embeddings]'`` brings it); it is
imported when the model first loads, never at import. ``threads`` sizes torch's pool, which is
one per process: the worker's share (``OMP_NUM_THREADS``) by default, as ONNX Runtime's.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from paperpyramid.embeddings import Embedder, Vectors
from paperpyramid.embeddings.minilm import MiniLM, read_safetensors
from paperpyramid.errors import MissingExtra

if TYPE_CHECKING:
    import torch

#: texts per forward pass, sorted by length so that they pad little: on one core with AMX, 16 a
#: batch embedded 1.4x as many texts per CPU-second as 8, and 32 no more than 8
BATCH_SIZE = 16
#: batches are padded to a multiple of this many tokens, so that oneDNN meets a few matrix shapes
#: again and again and reuses the kernels it compiled for them (a new shape costs a compilation)
LENGTH_STEP = 16
#: the CPU flags oneDNN needs to multiply bfloat16 in AMX tiles
AMX_FLAGS = frozenset({"amx_bf16", "amx_tile"})


def cpu_flags(cpuinfo: Path = Path("/proc/cpuinfo")) -> frozenset[str]:
    """The flags the CPU reports (Linux's ``/proc/cpuinfo``; empty where there is none)."""
    try:
        text = cpuinfo.read_text()
    except OSError:
        return frozenset()
    for line in text.splitlines():
        if line.startswith("flags"):
            return frozenset(line.partition(":")[2].split())
    return frozenset()


def bf16_unavailable(flags: frozenset[str] | None = None) -> str | None:
    """Why MiniLM cannot run fast in bfloat16 here (torch missing, or a CPU without AMX, judged
    by ``flags``, default this CPU's), or None when it can."""
    missing = sorted(AMX_FLAGS - (cpu_flags() if flags is None else flags))
    if missing:
        return f"the CPU has no AMX ({', '.join(missing)} missing)"
    if importlib.util.find_spec("torch") is None:
        return "torch is not installed"
    return None


class MiniLMBf16(MiniLM):
    """all-MiniLM-L6-v2 in torch, bfloat16 weights: float32's vectors within rounding, under
    the same name. ``queries``: another embedder of the same model that embeds the queries
    (None: this one, in bfloat16)."""

    def __init__(
        self, model_dir: Path | None = None, *, threads: int | None = None, batch_size: int = BATCH_SIZE, queries: Embedder | None = None
    ) -> None:
        from paperpyramid.embeddings.minilm_onnx import default_threads

        super().__init__(model_dir, batch_size=batch_size)
        self.threads = threads or default_threads()
        self.queries = queries
        self._tensors: dict[str, torch.Tensor] | None = None

    def __repr__(self) -> str:
        queries = "" if self.queries is None else f", queries={self.queries!r}"
        return f"MiniLMBf16({self.model_dir}, threads={self.threads}{queries})"

    @property
    def tensors(self) -> dict[str, torch.Tensor]:
        """The weights as torch tensors: linear layers bfloat16 (query, key and value stacked
        into one), layer norms and the embedding tables float32."""
        if self._tensors is None:
            try:
                import torch
            except ImportError as exc:
                raise MissingExtra("torch", "embeddings") from exc
            torch.set_num_threads(self.threads)
            self._read_config()
            raw = read_safetensors(self.model_dir / "model.safetensors")
            tensors = {name: torch.from_numpy(np.array(value, dtype=np.float32)) for name, value in raw.items() if value.dtype != np.int64}
            for layer in range(self.layers):
                p = f"encoder.layer.{layer}.attention.self."
                for part in ("weight", "bias"):
                    tensors[f"{p}qkv.{part}"] = torch.cat([tensors.pop(f"{p}{name}.{part}") for name in ("query", "key", "value")])
            self._tensors = {
                name: tensor if name.startswith("embeddings.") or "LayerNorm" in name else tensor.to(torch.bfloat16).contiguous()
                for name, tensor in tensors.items()
            }
        return self._tensors

    def embed_query(self, text: str) -> Vectors:
        """The query's vector from :attr:`queries` when one is set (torch is then never
        imported for a query), else from this model in bfloat16."""
        if self.queries is not None:
            return self.queries.embed_query(text)
        return super().embed_query(text)

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        """The numpy model's batching (sorted by length, :attr:`batch_size` a pass), each pass
        in torch without autograd."""
        if not texts:
            return super().embed_passages(texts)
        import torch

        with torch.inference_mode():
            return super().embed_passages(texts)

    def _forward(self, batch: list[list[int]]) -> Any:
        return self._forward_bf16(self.tensors, batch).numpy()

    def padded_length(self, longest: int) -> int:
        """The tokens a batch whose longest text has ``longest`` is padded to: the next multiple
        of :data:`LENGTH_STEP`."""
        return -(-longest // LENGTH_STEP) * LENGTH_STEP

    def _forward_bf16(self, w: dict[str, torch.Tensor], batch: list[list[int]]) -> torch.Tensor:
        """The mean-pooled last layer (float32, not normalised) of texts' token ids."""
        import torch
        import torch.nn.functional as F

        size, length = len(batch), self.padded_length(max(len(ids) for ids in batch))
        tokens = torch.zeros((size, length), dtype=torch.long)
        mask = torch.zeros((size, length), dtype=torch.bool)
        for row, row_ids in enumerate(batch):
            tokens[row, : len(row_ids)] = torch.tensor(row_ids)
            mask[row, : len(row_ids)] = True
        # attention skips the padding; a batch of one length needs no mask at all
        blocked = None if bool(mask.all()) else mask[:, None, None, :]

        def norm(x: torch.Tensor, prefix: str) -> torch.Tensor:
            # float32 gain and bias, output in the input's type: torch normalises in float32 inside
            return F.layer_norm(x, (x.shape[-1],), w[prefix + ".weight"], w[prefix + ".bias"], self.eps)

        def linear(x: torch.Tensor, prefix: str) -> torch.Tensor:
            return F.linear(x, w[prefix + ".weight"], w[prefix + ".bias"])

        x = w["embeddings.word_embeddings.weight"][tokens] + w["embeddings.position_embeddings.weight"][:length]
        x = norm(x + w["embeddings.token_type_embeddings.weight"][0], "embeddings.LayerNorm").to(torch.bfloat16)
        head = x.shape[-1] // self.heads
        for layer in range(self.layers):
            p = f"encoder.layer.{layer}."
            q, k, v = linear(x, p + "attention.self.qkv").view(size, length, 3, self.heads, head).permute(2, 0, 3, 1, 4)
            attended = F.scaled_dot_product_attention(q, k, v, attn_mask=blocked).transpose(1, 2).reshape(size, length, -1)
            x = norm(x + linear(attended, p + "attention.output.dense"), p + "attention.output.LayerNorm")
            x = norm(x + linear(F.gelu(linear(x, p + "intermediate.dense")), p + "output.dense"), p + "output.LayerNorm")
        weights = mask.to(torch.float32)[:, :, None]
        return (x.float() * weights).sum(1) / weights.sum(1).clamp(min=1e-9)
