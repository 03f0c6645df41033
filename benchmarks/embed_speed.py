"""Embedding speed of the local embedders, on one core, side by side with sentence-transformers.

    .venv/bin/python benchmarks/embed_speed.py [--db CORPUS] [--passages 256] [--rounds 3]

Passages are real contexts: from ``--db`` (a corpus), else the bundled sample ingested into a
temporary corpus. Each embedder runs in its own process pinned to one core with every thread
pool at one thread; the rounds alternate between embedders so that machine noise hits all
alike. Reported: median passages/s, the ratio against sentence-transformers' all-MiniLM-L6-v2
(torch, the usual way to run the model; skipped when torch is not installed), model load
seconds and peak RSS.
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
EMBEDDERS = ("minilm", "e5-small", "sentence-transformers")
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS")


def passages(db: Path | None, count: int) -> list[str]:
    sys.path.insert(0, str(ROOT))
    from paperpyramid.db.sqlite import connect

    if db is None:
        from paperpyramid.ingest import ingest
        from paperpyramid.settings import IngestSettings, Settings

        db = Path(tempfile.mkdtemp()) / "sample.sqlite"
        ingest([ROOT / "tests" / "data" / "sample"], db, Settings(ingest=IngestSettings(workers=0, embed=False)))
    conn = connect(db, read_only=True)
    texts = [row[0] for row in conn.execute("SELECT text FROM contexts ORDER BY rowid LIMIT ?", [count])]
    conn.close()
    return texts


def worker(name: str, texts: list[str]) -> dict[str, float]:
    """Runs in the pinned child: load the model, warm it, time one pass over the texts."""
    os.sched_setaffinity(0, {0})
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

        embedder = get_embedder(EmbeddingSettings(model=name, threads=1))
        embed = embedder.embed_passages  # type: ignore[assignment]
    embed(texts[:4])
    loaded = time.perf_counter() - started
    started = time.perf_counter()
    embed(texts)
    seconds = time.perf_counter() - started
    return {"passages_per_s": len(texts) / seconds, "load_s": loaded, "rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path)
    parser.add_argument("--passages", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--embedders", default=",".join(EMBEDDERS))
    parser.add_argument("--json", type=Path)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--texts", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, json.loads(args.texts.read_text()))))
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
                [sys.executable, __file__, "--worker", name, "--texts", handle.name], env=env, capture_output=True, text=True, timeout=3600
            )
            if result.returncode != 0:
                print(f"{name}: failed ({result.stderr.strip().splitlines()[-1] if result.stderr.strip() else result.returncode})", file=sys.stderr)
                continue
            runs[name].append(json.loads(result.stdout.strip().splitlines()[-1]))
    tokens = sum(len(text.split()) for text in texts) / len(texts)
    print(f"{len(texts)} passages (mean {tokens:.0f} words), one core, median of {args.rounds} rounds\n")
    print("| embedder | passages/s | vs sentence-transformers | load s | peak RSS MiB |")
    print("| --- | --- | --- | --- | --- |")
    base = runs.get("sentence-transformers") or []
    base_rate = statistics.median(run["passages_per_s"] for run in base) if base else None
    summary = {}
    for name, results in runs.items():
        if not results:
            continue
        rate = statistics.median(run["passages_per_s"] for run in results)
        ratio = f"{rate / base_rate:.2f}x" if base_rate else "-"
        summary[name] = {"passages_per_s": rate, "runs": results}
        print(f"| {name} | {rate:.1f} | {ratio} | {statistics.median(run['load_s'] for run in results):.1f} | {max(run['rss_mib'] for run in results):.0f} |")
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
