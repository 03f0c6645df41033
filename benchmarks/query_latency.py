"""How long a search waits for its query's vector: ``embed_query`` of the default embedder's
runtimes, one question at a time, each in a fresh process.

    .venv/bin/python benchmarks/query_latency.py [--qa ../shared/qa/corpus-qa.jsonl] [--rounds 3] [--core 1]

Paths (``--paths``, comma-separated):

- ``onnx``: ONNX Runtime, float32 (``runtime=onnx``);
- ``numpy``: the numpy model, float32 (``runtime=numpy``; where ONNX Runtime is not installed);
- ``bf16``: torch, bfloat16, queries padded like passages to a multiple of 16 tokens (``runtime=torch-bf16``);
- ``bf16-buckets``: the same, queries padded to 16, 32, 64, 128 or 256 tokens, so that a few shapes are compiled;
- ``split``: passages in bfloat16, queries in ONNX Runtime float32, one embedder object, torch loaded
  only when passages are embedded;
- ``auto``: whatever ``runtime=auto`` builds here.

Each path runs in its own process pinned to ``--core``, every thread pool at one thread, the rounds
alternating between paths. A process embeds the first question (start-up: from the process's launch,
imports and model load included, to that first vector), then every question twice: the first pass is
what a search process meets (each query length new to it), the second a warm one. Reported: p50 / p95
milliseconds per query, wall clock and the process's CPU time (robust to other jobs on the machine; threads that spin count), the
start-up, peak RSS, whether torch was imported, and the cosine of each path's query vectors to ONNX
Runtime float32's (min / mean). Figures are medians over the rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PATHS = ("onnx", "numpy", "bf16", "bf16-buckets", "split", "auto")
#: the lengths ``bf16-buckets`` pads a query to
BUCKETS = (16, 32, 64, 128, 256)
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS", "RAYON_NUM_THREADS")


def build(path: str, threads: int | None) -> Any:
    """The embedder a path names with ``threads`` (None: the library's default), nothing loaded yet."""
    from paperpyramid.embeddings import get_embedder
    from paperpyramid.settings import EmbeddingSettings

    runtimes = {"onnx": "onnx", "numpy": "numpy", "bf16": "torch-bf16", "auto": "auto"}
    if path in runtimes:
        return get_embedder(EmbeddingSettings.model_validate({"runtime": runtimes[path], "threads": threads}))
    from paperpyramid.embeddings.minilm_torch import MiniLMBf16

    if path == "split":
        from paperpyramid.embeddings.minilm_onnx import MiniLMOnnx

        return MiniLMBf16(threads=threads, queries=MiniLMOnnx(threads=threads))

    class Bucketed(MiniLMBf16):
        def padded_length(self, longest: int) -> int:
            return next((bucket for bucket in BUCKETS if bucket >= longest), longest)

    return Bucketed(threads=threads)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def worker(path: str, questions: list[str], launched: float, vectors_out: Path, core: int, threads: int | None) -> dict[str, Any]:
    """In the child (pinned to ``core`` unless it is negative): the first vector (start-up), then
    two timed passes over the questions."""
    if core >= 0:
        os.sched_setaffinity(0, {core})
    sys.path.insert(0, str(ROOT))
    import numpy as np

    embedder = build(path, threads)
    embedder.embed_query(questions[0])
    startup = time.time() - launched
    figures: dict[str, Any] = {"startup_s": startup}
    vectors: list[Any] = []
    for label in ("first", "warm"):
        walls: list[float] = []
        cpus: list[float] = []
        vectors = []
        for question in questions:
            wall, cpu = time.perf_counter(), time.process_time()
            vectors.append(embedder.embed_query(question))
            cpus.append(time.process_time() - cpu)
            walls.append(time.perf_counter() - wall)
        for share in (0.5, 0.95):
            figures[f"{label}_wall_p{int(share * 100)}_ms"] = percentile(walls, share) * 1000
            figures[f"{label}_cpu_p{int(share * 100)}_ms"] = percentile(cpus, share) * 1000
    np.save(vectors_out, np.stack(vectors).astype(np.float32))
    figures["rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    figures["torch_imported"] = "torch" in sys.modules
    return figures


def token_lengths(questions: list[str]) -> list[int]:
    sys.path.insert(0, str(ROOT))
    from paperpyramid.embeddings.minilm import MiniLM

    model = MiniLM()
    return sorted(model.count_tokens(question) for question in questions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--qa", type=Path, default=ROOT.parent / "shared" / "qa" / "corpus-qa.jsonl")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--paths", default=",".join(PATHS))
    parser.add_argument("--core", type=int, default=0, help="The CPU core every path is pinned to (-1: none, as a search process runs).")
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="Threads per runtime (0: the library's default, this process's cores, as a search process runs).",
    )
    parser.add_argument("--json", type=Path)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--questions", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--launched", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        vectors_out = args.questions.with_suffix(f".{args.worker}.npy")
        questions = json.loads(args.questions.read_text())
        print(json.dumps(worker(args.worker, questions, args.launched, vectors_out, args.core, args.threads or None)))
        return
    questions = [json.loads(line)["question"] for line in args.qa.read_text().splitlines() if line.strip()]
    paths = [path for path in args.paths.split(",") if path]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(questions, handle)
    env = {**os.environ, **(dict.fromkeys(THREAD_VARIABLES, str(args.threads)) if args.threads else {}), "HF_HUB_OFFLINE": "1"}
    settings = ["--core", str(args.core), "--threads", str(args.threads)]
    runs: dict[str, list[dict[str, Any]]] = {path: [] for path in paths}
    for round_ in range(args.rounds):
        for path in paths[round_ % len(paths) :] + paths[: round_ % len(paths)]:
            command = [sys.executable, __file__, "--worker", path, "--questions", handle.name, *settings]
            result = subprocess.run([*command, "--launched", repr(time.time())], env=env, capture_output=True, text=True, timeout=1800)
            if result.returncode != 0:
                print(f"{path}: failed ({(result.stderr.strip().splitlines() or [str(result.returncode)])[-1]})", file=sys.stderr)
                continue
            runs[path].append(json.loads(result.stdout.strip().splitlines()[-1]))
    lengths = token_lengths(questions)
    print(
        f"{len(questions)} questions ({lengths[0]}-{lengths[-1]} tokens, median {lengths[len(lengths) // 2]}), "
        f"{f'core {args.core}' if args.core >= 0 else 'no pinning'}, {args.threads or 'default'} thread(s), median of {args.rounds} rounds, "
        f"load {os.getloadavg()[0]:.1f}\n"
    )
    print(
        "| path | first pass p50 / p95 ms (wall) | CPU ms | warm pass p50 / p95 ms (wall) | CPU ms | start-up s | peak RSS MiB "
        "| torch imported | cosine to onnx (min / mean) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    import numpy as np

    reference = Path(handle.name).with_suffix(".onnx.npy")
    summary: dict[str, Any] = {}
    for path, results in runs.items():
        if not results:
            continue

        def median(key: str, results: list[dict[str, Any]] = results) -> float:
            return float(statistics.median(run[key] for run in results))

        cosine = "-"
        vectors = Path(handle.name).with_suffix(f".{path}.npy")
        if reference.exists() and vectors.exists():
            agreement = (np.load(vectors) * np.load(reference)).sum(1)
            cosine = f"{agreement.min():.5f} / {agreement.mean():.5f}"
        cells = [
            f"{median(f'{label}_{kind}_p50_ms'):.1f} / {median(f'{label}_{kind}_p95_ms'):.1f}"
            for label in ("first", "warm")
            for kind in ("wall", "cpu")
        ]
        cells += [f"{median('startup_s'):.2f}", f"{max(run['rss_mib'] for run in results):.0f}"]
        cells += ["yes" if any(run["torch_imported"] for run in results) else "no", cosine]
        print(f"| {path} | {' | '.join(cells)} |")
        summary[path] = {"runs": results, "cosine_to_onnx": cosine}
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
