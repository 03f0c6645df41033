#!/usr/bin/env python3
"""The parallel build against one writer, same articles, same machine, same run.

    python benchmarks/parallel_build.py [--articles 1024] [--parts 2] [--batch 64] [--real REAL.sqlite]

The articles are ``corpus_scale.py``'s full-size copies of a real corpus's articles (``--real``,
as there). Both builds end where an ingest ends, with the BM25 index and the vector index built:

- **one writer**: one process stores every copy through ``CorpusWriter.store_many`` (``--batch``
  a transaction, the bulk path ingest uses) and their pyramids, then builds the indexes;
- **parts**: ``--parts`` processes each store their share into a corpus file of their own and
  build its BM25 index, at the same time, then :func:`paperpyramid.db.parts.merge_parts` adds
  the parts to one corpus (duplicates, references across parts, the full-text indexes, the parts'
  BM25 segments carried over) and the vector index is built.

Each process makes its copies before the clock starts (making them is not writing). The figure
is wall time from the start of writing to a corpus with its indexes; beside it, the CPU seconds
of each build's critical path (the slowest writer, then the merge and the index builds), which is
what the wall time would be on cores of its own, so that a machine shared with other jobs still
gives a ratio. Then both corpora are
compared: row counts and, for ``--queries`` QA questions, the top 10 of bm25, vector and hybrid
search by text (ids differ between the builds).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import corpus_scale  # noqa: E402  (benchmarks/corpus_scale.py, beside this script)

MODES = ("bm25", "vector", "hybrid")


def _write(path: str, real: str, numbers: list[int], batch: int, start: Any, done: Any, index: bool) -> None:
    """A writer process: make its copies, wait for the start, store them (``index``: then build
    the BM25 index of its part), say when done and how many CPU seconds that took."""
    from threadpoolctl import threadpool_limits

    from paperpyramid.db import lexical_index
    from paperpyramid.db.writer import CorpusWriter
    from paperpyramid.tokens import TokenCounter

    threadpool_limits(1)
    sources = corpus_scale.load_sources(Path(real))
    copies = [corpus_scale.make_copy(sources[n % len(sources)], n) for n in numbers]
    with CorpusWriter(Path(path), TokenCounter()) as writer:
        start.wait()
        cpu = time.process_time()
        for first in range(0, len(copies), batch):
            corpus_scale.write_batch(writer, copies[first : first + batch])
        if index:
            with writer.db.atomic():
                lexical_index.update(writer.db.conn, lexical_index.WEIGHTS)
        writer.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    done.put((path, time.process_time() - cpu))


def build(out: Path, name: str, real: Path, articles: int, parts: int, batch: int) -> dict[str, Any]:
    """One build: ``parts`` writer processes (1: one writer, no merge); wall seconds by step, and
    the CPU seconds of its critical path (the slowest writer's, then the merge's and the index
    builds'), what the build would take on cores of its own."""
    files = [out / (f"{name}.sqlite" if parts == 1 else f"{name}-part-{k + 1}.sqlite") for k in range(parts)]
    target = out / f"{name}.sqlite"
    for path in [*files, target]:
        for suffix in ("", "-wal", "-shm", ".lock"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    context = multiprocessing.get_context("spawn")
    start, done = context.Event(), context.Queue()
    shares = [[n for n in range(1, articles + 1) if n % parts == k] for k in range(parts)]
    processes = [
        context.Process(target=_write, args=(str(path), str(real), share, batch, start, done, parts > 1))
        for path, share in zip(files, shares, strict=True)
    ]
    for process in processes:
        process.start()
    time.sleep(1.0)
    while any(process.is_alive() for process in processes) and not _all_waiting(files):
        time.sleep(0.5)
    t0 = time.perf_counter()
    start.set()
    writers_cpu = [float(done.get(timeout=24 * 3600)[1]) for _ in processes]
    for process in processes:
        process.join()
    t1 = time.perf_counter()
    cpu = time.process_time()
    merge = 0.0
    if parts > 1:
        from paperpyramid.db.parts import merge_parts

        report = merge_parts(files, target)
        assert report.articles == articles, report
        merge = time.perf_counter() - t1
    indexes = corpus_scale.maintain_indexes(target)
    total = time.perf_counter() - t0
    cpu_path = max(writers_cpu) + time.process_time() - cpu
    return {"write_s": t1 - t0, "merge_s": merge, "indexes_s": indexes, "total_s": total, "articles_per_s": articles / total,
            "writers_cpu_s": writers_cpu, "critical_cpu_s": cpu_path}  # fmt: skip


def _all_waiting(files: list[Path]) -> bool:
    """Every writer has opened its file (it made its copies first, then waits for the start)."""
    return all(path.exists() for path in files)


def compare(one: Path, merged: Path, questions: list[str], qvecs: Any) -> dict[str, Any]:
    """Row counts of both, and how many search results agree (by text)."""
    from paperpyramid.db import sqlite as db_sqlite
    from paperpyramid.retrieval import api

    counts = {}
    for label, path in (("one", one), ("parts", merged)):
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        counts[label] = {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                         for table in ("articles", "contexts", "insights", "concepts", "abstracts", "citations", "bib_entries")}  # fmt: skip
        counts[label]["resolved references"] = conn.execute(
            "SELECT count(*) FROM bib_entries WHERE cited_article_id IS NOT NULL"
        ).fetchone()[0]
        conn.close()

    class Fixed:
        name, dimension, window = corpus_scale.EMBEDDER, corpus_scale.DIM, corpus_scale.WINDOW

        def __init__(self, vector: Any) -> None:
            self.vector = vector

        def embed_query(self, text: str) -> Any:
            return self.vector

    same: dict[str, list[float]] = {mode: [] for mode in MODES}
    conns = [db_sqlite.connect(path, read_only=True) for path in (one, merged)]
    for question, vector in zip(questions, qvecs, strict=True):
        for mode in MODES:
            found = [[hit.text for hit in api.retrieve(conn, question, mode=mode, k=10, embedder=Fixed(vector))] for conn in conns]  # type: ignore[arg-type]
            same[mode].append(len(set(found[0]) & set(found[1])) / max(1, len(found[0])))
    for conn in conns:
        conn.close()
    return {"counts": counts, "top10_overlap": {mode: sum(values) / len(values) for mode, values in same.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--articles", type=int, default=1024)
    parser.add_argument("--parts", type=int, default=2)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--real", type=Path, default=Path("/tmp/corpus_scale/real.sqlite"))
    parser.add_argument("--out", type=Path, default=Path("/tmp/parallel_build"))
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--qa", type=Path, default=corpus_scale.QA)
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    args.out.mkdir(parents=True, exist_ok=True)
    load = [os.getloadavg()[0]]
    one = build(args.out, "one", args.real, args.articles, 1, args.batch)
    load.append(os.getloadavg()[0])
    parts = build(args.out, "merged", args.real, args.articles, args.parts, args.batch)
    load.append(os.getloadavg()[0])
    lines = [line for line in args.qa.read_text().splitlines() if line.strip()][: args.queries]
    questions = [json.loads(line)["question"] for line in lines]
    (args.out / "qa-vectors.npy").unlink(missing_ok=True)  # embedded afresh for these questions
    compared = compare(args.out / "one.sqlite", args.out / "merged.sqlite", questions, corpus_scale.query_vectors(args.out, questions))
    print(
        f"{args.articles:,} full-size articles, batches of {args.batch}, {os.cpu_count()} cores, load average {min(load):.1f}-{max(load):.1f}\n"
    )
    print("| build | writing s | merge s | indexes s (BM25 / vector) | total s | articles/s |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, result in (("one writer", one), (f"{args.parts} parts + merge", parts)):
        indexes = result["indexes_s"]
        print(f"| {label} | {result['write_s']:.1f} | {result['merge_s']:.1f} | {indexes['bm25_index_s']:.1f} / {indexes['vector_index_s']:.1f} | "
              f"{result['total_s']:.1f} | {result['articles_per_s']:.1f} |")  # fmt: skip
    print(f"| parts / one writer | | | | | **{parts['articles_per_s'] / one['articles_per_s']:.2f}x** |\n")
    print("CPU seconds on the critical path (slowest writer + merge + indexes; the wall time on cores of its own): "
          f"one writer {one['critical_cpu_s']:.1f}, parts {parts['critical_cpu_s']:.1f} (writers "
          f"{', '.join(f'{cpu:.1f}' for cpu in parts['writers_cpu_s'])}): **{one['critical_cpu_s'] / parts['critical_cpu_s']:.2f}x**\n")  # fmt: skip
    for label, counts in compared["counts"].items():
        print(f"{label}: " + ", ".join(f"{table} {count:,}" for table, count in counts.items()))
    print("top-10 agreement by text: " + ", ".join(f"{mode} {share:.3f}" for mode, share in compared["top10_overlap"].items()))


if __name__ == "__main__":
    main()
