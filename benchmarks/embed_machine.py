"""Embedding speed of all-MiniLM-L6-v2 on another machine: per CPU core (numpy, ONNX Runtime
float32 and int8) and on a CUDA GPU (torch, float16), from a folder of model files and texts.

    python3 benchmarks/embed_machine.py MODEL_DIR TEXTS.json [--cpu-texts 256] [--rounds 3]

For machines where paperpyramid is not installed (a GPU box with numpy, tokenizers, onnx,
onnxruntime and torch): the package's modules are loaded from this checkout without its
``__init__`` (which needs the full install). MODEL_DIR holds the model's ``config.json``,
``sentence_bert_config.json``, ``tokenizer.json`` and ``model.safetensors`` (float16 is fine
for speed; the float32 graphs upcast it). TEXTS.json is a list of passages (contexts of a
corpus). CPU figures: one process pinned to one core, every pool at one thread, the embedders
alternating per round, median passages/s; cosines of each ONNX model's vectors to numpy's.
GPU: a transformers ``BertModel`` in float16, texts sorted by length in batches, mean pooling,
passages/s with and without tokenisation.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def load_package() -> None:
    """paperpyramid's subpackages importable without running ``paperpyramid/__init__.py``."""
    package = types.ModuleType("paperpyramid")
    package.__path__ = [str(ROOT / "paperpyramid")]
    sys.modules["paperpyramid"] = package


def cpu(model_dir: Path, texts: list[str], rounds: int) -> dict[str, Any]:
    import numpy as np

    from paperpyramid.embeddings.minilm import MiniLM
    from paperpyramid.embeddings.minilm_onnx import MiniLMOnnx

    embedders = {
        "numpy": MiniLM(model_dir),
        "onnx-float32": MiniLMOnnx(model_dir, threads=1),
        "onnx-int8": MiniLMOnnx(model_dir, int8=True, threads=1),
    }
    vectors = {name: embedder.embed_passages(texts[:2]) for name, embedder in embedders.items()}  # load and warm
    rates: dict[str, list[float]] = {name: [] for name in embedders}
    for _ in range(rounds):
        for name, embedder in embedders.items():
            started = time.perf_counter()
            vectors[name] = embedder.embed_passages(texts)
            rates[name].append(len(texts) / (time.perf_counter() - started))
    out: dict[str, Any] = {}
    for name, values in rates.items():
        cosine = (vectors[name] * vectors["numpy"]).sum(1)
        out[name] = {
            "passages_per_s": statistics.median(values),
            "runs": values,
            "cosine_min": float(cosine.min()),
            "cosine_mean": float(np.mean(cosine)),
        }
    return out


def gpu(model_dir: Path, texts: list[str], batch: int) -> dict[str, Any]:
    import torch
    from tokenizers import Tokenizer
    from transformers import BertConfig, BertModel

    from paperpyramid.embeddings.minilm import read_safetensors

    config = BertConfig.from_dict(json.loads((model_dir / "config.json").read_text()))
    model = BertModel(config, add_pooling_layer=False)
    tensors = read_safetensors(model_dir / "model.safetensors")
    state = {name: torch.from_numpy(tensor.astype("float32")) for name, tensor in tensors.items() if tensor.dtype.kind == "f"}
    missing = model.load_state_dict(state, strict=False).missing_keys
    assert not missing, f"weights missing from {model_dir}: {missing}"
    model = model.half().cuda().eval()
    tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(256)

    def run(encoded: list[list[int]]) -> None:
        order = sorted(range(len(encoded)), key=lambda index: len(encoded[index]))
        for start in range(0, len(order), batch):
            rows = [encoded[index] for index in order[start : start + batch]]
            length = max(len(row) for row in rows)
            ids = torch.zeros((len(rows), length), dtype=torch.long)
            mask = torch.zeros((len(rows), length), dtype=torch.long)
            for number, row in enumerate(rows):
                ids[number, : len(row)] = torch.tensor(row)
                mask[number, : len(row)] = 1
            ids, mask = ids.cuda(non_blocking=True), mask.cuda(non_blocking=True)
            with torch.inference_mode():
                hidden = model(input_ids=ids, attention_mask=mask).last_hidden_state
                pooled = (hidden * mask[..., None]).sum(1) / mask.sum(1, keepdim=True)
                torch.nn.functional.normalize(pooled.float(), dim=-1).cpu()

    encoded = [encoding.ids for encoding in tokenizer.encode_batch(texts)]
    run(encoded)  # warm
    torch.cuda.synchronize()
    model_only, end_to_end = [], []
    for _ in range(5):
        started = time.perf_counter()
        run(encoded)
        torch.cuda.synchronize()
        model_only.append(len(texts) / (time.perf_counter() - started))
        started = time.perf_counter()
        run([encoding.ids for encoding in tokenizer.encode_batch(texts)])
        torch.cuda.synchronize()
        end_to_end.append(len(texts) / (time.perf_counter() - started))
    return {"device": torch.cuda.get_device_name(), "batch": batch, "passages_per_s_model": statistics.median(model_only),
            "passages_per_s_with_tokenising": statistics.median(end_to_end), "texts": len(texts)}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model_dir", type=Path)
    parser.add_argument("texts", type=Path)
    parser.add_argument("--cpu-texts", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--gpu-batch", type=int, default=128)
    parser.add_argument("--gpu-copies", type=int, default=10, help="The texts repeated this many times for the GPU (a longer run to time).")
    parser.add_argument("--skip", default="", help="cpu or gpu, to leave one out")
    args = parser.parse_args()
    load_package()
    texts = json.loads(args.texts.read_text())
    report: dict[str, Any] = {}
    if "cpu" not in args.skip:
        pid = os.getpid()
        os.sched_setaffinity(pid, {sorted(os.sched_getaffinity(pid))[-1]})
        for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
            os.environ[variable] = "1"
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1):
            report["cpu_one_core"] = cpu(args.model_dir, texts[: args.cpu_texts], args.rounds)
        print(json.dumps(report["cpu_one_core"], indent=1), flush=True)
    if "gpu" not in args.skip:
        report["gpu"] = gpu(args.model_dir, texts * args.gpu_copies, args.gpu_batch)
        print(json.dumps(report["gpu"], indent=1), flush=True)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
