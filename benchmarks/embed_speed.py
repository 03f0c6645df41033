"""Embedding speed of the local embedders, on one core, side by side with sentence-transformers,
and what it does to an ingest that embeds.

    .venv/bin/python benchmarks/embed_speed.py [--db CORPUS] [--passages 256] [--rounds 3] [--core 0] [--ingest PDF_FOLDER]

The MiniLM runtimes are named apart: ``minilm-numpy``, ``minilm-onnx`` (ONNX Runtime, float32;
``minilm`` is the same), ``minilm-bf16`` (torch, bfloat16 weights: the default on a CPU with AMX)
and ``minilm-int8`` (ONNX Runtime, int8 weights, its own vectors).

Passages are real contexts: from ``--db`` (a corpus), else the bundled sample ingested into a
temporary corpus. Each embedder runs in its own process pinned to one core (``--core``) with
every thread pool at one thread; the rounds alternate between embedders so that machine noise
hits all alike. Rates are passages per second of the process's CPU time, so that other jobs on
a shared machine slow the wall clock more than the figures. Reported: median passages per
CPU-second, the ratio against sentence-transformers' all-MiniLM-L6-v2
(torch, the usual way to run the model; skipped when torch is not installed), against
``minilm-numpy`` (the numpy model) and against ``minilm-onnx`` (float32 in ONNX Runtime, the
default where there is no AMX), model load seconds (the
first round writes ONNX Runtime's optimised graph, later rounds load it: the median is a warm
start), peak RSS, and each vector set's cosine to the numpy model's (the same texts; 1.0 is the
same vectors).

``--ingest FOLDER`` also times ``paperpyramid ingest FOLDER`` with one worker, pinned to the
core, embedding with each MiniLM runtime (and without embedding), alternating per round:
median PDFs/s per core, the same corpus each time but for the vectors.
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

ROOT = Path(__file__).resolve().parents[1]
EMBEDDERS = ("minilm-numpy", "minilm-onnx", "minilm-bf16", "minilm-int8", "e5-small", "sentence-transformers")
#: the runtime each MiniLM name runs in
RUNTIMES = {"minilm-numpy": "numpy", "minilm": "onnx", "minilm-onnx": "onnx", "minilm-bf16": "torch-bf16"}
#: how each MiniLM runtime is asked for in an ingest's environment
INGEST_RUNS = {
    "no embedding": {"PAPERPYRAMID_INGEST__EMBED": "false"},
    "minilm-numpy": {"PAPERPYRAMID_EMBEDDING__RUNTIME": "numpy"},
    "minilm (onnx)": {"PAPERPYRAMID_EMBEDDING__RUNTIME": "onnx"},
    "minilm (bf16)": {"PAPERPYRAMID_EMBEDDING__RUNTIME": "torch-bf16"},
    "minilm-int8": {"PAPERPYRAMID_EMBEDDING__MODEL": "minilm-int8"},
}
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS")


def passages(db: Path | None, count: int) -> list[str]:
    sys.path.insert(0, str(ROOT))
    from paperpyramid.db.sqlite import connect

    if db is None:
        from paperpyramid.ingestion import ingest
        from paperpyramid.settings import IngestSettings, Settings

        db = Path(tempfile.mkdtemp()) / "sample.sqlite"
        ingest([ROOT / "tests" / "data" / "sample"], db, Settings(ingest=IngestSettings(workers=0, embed=False)))
    conn = connect(db, read_only=True)
    texts = [row[0] for row in conn.execute("SELECT text FROM contexts ORDER BY rowid LIMIT ?", [count])]
    conn.close()
    return texts


def worker(name: str, texts: list[str], vectors_out: Path, core: int, warm_all: bool = False) -> dict[str, float]:
    """Runs in the pinned child: load the model, warm it (on four texts, or with ``warm_all`` on
    one untimed pass over all of them: the steady state of a long ingest, every batch shape seen
    once), time one pass over the texts."""
    os.sched_setaffinity(0, {core})
    sys.path.insert(0, str(ROOT))
    started = time.perf_counter()
    if name == "sentence-transformers":
        import torch
        from sentence_transformers import SentenceTransformer

        from paperpyramid.tokens import default_model_dir

        torch.set_num_threads(1)
        model = SentenceTransformer(str(default_model_dir()), device="cpu")

        def embed(batch: list[str]) -> object:
            return model.encode(batch, batch_size=32, normalize_embeddings=True)
    else:
        from paperpyramid.embeddings import get_embedder
        from paperpyramid.settings import EmbeddingSettings

        if name in RUNTIMES:
            settings = EmbeddingSettings(model="minilm", runtime=RUNTIMES[name], threads=1)  # type: ignore[arg-type]
        else:
            settings = EmbeddingSettings(model=name, runtime="onnx", threads=1)
        embedder = get_embedder(settings)
        embed = embedder.embed_passages  # type: ignore[assignment]
    embed(texts[:4])
    loaded = time.perf_counter() - started
    if warm_all:
        embed(texts)
    started, cpu_started = time.perf_counter(), time.process_time()
    vectors = embed(texts)
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
    import numpy as np

    np.save(vectors_out, np.asarray(vectors, dtype=np.float32))
    return {
        "passages_per_cpu_s": len(texts) / cpu_seconds,
        "passages_per_s": len(texts) / seconds,
        "load_s": loaded,
        "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def ingest_once(folder: Path, environment: dict[str, str], core: int) -> tuple[float, int]:
    """Seconds and PDFs ingested of one ``paperpyramid ingest`` with one worker on ``core``."""
    db = Path(tempfile.mkdtemp()) / "corpus.sqlite"
    env = {**os.environ, **dict.fromkeys(THREAD_VARIABLES, "1"), "HF_HUB_OFFLINE": "1", **environment}
    command = [
        "taskset",
        "-c",
        str(core),
        sys.executable,
        "-m",
        "paperpyramid.cli",
        "ingest",
        str(folder),
        "--db",
        str(db),
        "--workers",
        "1",
    ]
    started = time.perf_counter()
    subprocess.run(command, env=env, check=True, capture_output=True, timeout=7200)
    seconds = time.perf_counter() - started
    sys.path.insert(0, str(ROOT))
    from paperpyramid.db.sqlite import connect

    conn = connect(db, read_only=True)
    done = conn.execute("SELECT count(*) FROM articles").fetchone()[0]
    conn.close()
    return seconds, int(done)


def ingest_table(folder: Path, rounds: int, core: int) -> None:
    runs: dict[str, list[float]] = {name: [] for name in INGEST_RUNS}
    articles = 0
    for round_ in range(rounds):
        names = list(INGEST_RUNS)
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            seconds, articles = ingest_once(folder, INGEST_RUNS[name], core)
            runs[name].append(seconds)
    print(f"\ningest of {folder} ({articles} PDFs stored), one worker on one core, median of {rounds} rounds\n")
    print("| ingest | seconds | PDFs/s per core | vs minilm-numpy |")
    print("| --- | --- | --- | --- |")
    base = statistics.median(runs["minilm-numpy"])
    for name, values in runs.items():
        median = statistics.median(values)
        print(f"| {name} | {median:.1f} | {articles / median:.3f} | {base / median:.2f}x |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path)
    parser.add_argument("--passages", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--embedders", default=",".join(EMBEDDERS))
    parser.add_argument("--json", type=Path)
    parser.add_argument("--core", type=int, default=0, help="The CPU core every embedder (and ingest) is pinned to.")
    parser.add_argument("--ingest", type=Path, help="Also time an ingest of this folder of PDFs with each MiniLM runtime.")
    parser.add_argument("--warm-all", action="store_true", help="Warm each embedder with one untimed pass over all the texts first.")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--texts", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        vectors_out = args.texts.with_suffix(f".{args.worker}.npy")
        print(json.dumps(worker(args.worker, json.loads(args.texts.read_text()), vectors_out, args.core, args.warm_all)))
        return
    texts = passages(args.db, args.passages)
    names = [name for name in args.embedders.split(",") if name]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(texts, handle)
    env = {**os.environ, **dict.fromkeys(THREAD_VARIABLES, "1")}
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in names}
    for round_ in range(args.rounds):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            result = subprocess.run(
                [sys.executable, __file__, "--worker", name, "--texts", handle.name, "--core", str(args.core)]
                + (["--warm-all"] if args.warm_all else []),
                env=env,
                capture_output=True,
                text=True,
                timeout=3600,
            )
            if result.returncode != 0:
                print(
                    f"{name}: failed ({result.stderr.strip().splitlines()[-1] if result.stderr.strip() else result.returncode})",
                    file=sys.stderr,
                )
                continue
            runs[name].append(json.loads(result.stdout.strip().splitlines()[-1]))
    tokens = sum(len(text.split()) for text in texts) / len(texts)
    print(
        f"{len(texts)} passages (mean {tokens:.0f} words), core {args.core}, median of {args.rounds} rounds, load {os.getloadavg()[0]:.1f}\n"
    )
    print(
        "| embedder | passages per CPU-s | vs sentence-transformers | vs minilm-numpy | vs minilm-onnx | cosine to numpy (min / mean) "
        "| load s | peak RSS MiB |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    rates = {name: statistics.median(run["passages_per_cpu_s"] for run in results) for name, results in runs.items() if results}
    numpy_vectors = Path(handle.name).with_suffix(".minilm-numpy.npy")
    summary = {}
    for name, results in runs.items():
        if not results:
            continue
        rate = rates[name]
        versus = {
            base: f"{rate / rates[base]:.2f}x" if base in rates else "-"
            for base in ("sentence-transformers", "minilm-numpy", "minilm-onnx")
        }
        cosine = "-"
        vectors = Path(handle.name).with_suffix(f".{name}.npy")
        if numpy_vectors.exists() and vectors.exists() and name != "e5-small":
            import numpy as np

            agreement = (np.load(vectors) * np.load(numpy_vectors)).sum(1)
            cosine = f"{agreement.min():.5f} / {agreement.mean():.5f}"
        summary[name] = {"passages_per_cpu_s": rate, "runs": results}
        print(f"| {name} | {rate:.1f} | {versus['sentence-transformers']} | {versus['minilm-numpy']} | {versus['minilm-onnx']} | {cosine} | "
              f"{statistics.median(run['load_s'] for run in results):.1f} | {max(run['rss_mib'] for run in results):.0f} |")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2))
    if args.ingest:
        ingest_table(args.ingest, args.rounds, args.core)


if __name__ == "__main__":
    main()
