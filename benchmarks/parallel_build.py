#!/usr/bin/env python3
"""The parallel build against one writer, same articles, same machine, same run.

    python benchmarks/parallel_build.py [--articles 1024] [--parts 2] [--batch 64] [--real REAL.sqlite]
        [--contexts-per-copy K] [--insights-per-copy K] [--chunk 2048]

The articles are ``corpus_scale.py``'s copies of a real corpus's articles (``--real``, as there;
``--contexts-per-copy`` and ``--insights-per-copy`` cut them down, as there). Each copy's
bibliography also names copies ``n - 1`` and ``n // 2`` by DOI, so that with parts most links
cross parts. Both builds end where an ingest ends, with the BM25 index and the vector index built:

- **one writer**: one process stores every copy through ``CorpusWriter.store_many`` (``--batch``
  a transaction, the bulk path ingest uses) and their pyramids, then builds the indexes;
- **parts**: ``--parts`` processes each store their share into a corpus file of their own and
  build its BM25 index, at the same time, then :func:`paperpyramid.db.parts.merge_parts` adds
  the parts to one corpus (duplicates, references across parts, the full-text indexes, the parts'
  BM25 segments carried over) and the vector index is built.

Making the copies is not writing, and 100,000 of them do not fit in memory: the writers make
``--chunk`` articles' copies (each its share), wait at a barrier until all have, write them, and
wait at the barrier again before making the next chunk's, so nobody makes copies while another
writes. The writing's wall time is the sum over chunks of the first start to the last end; the
figure is that plus the merge and the index builds. Beside it, the CPU seconds of each build's
critical path (the slowest writer's writing, then the merge and the index builds), which is what
the wall time would be on cores of its own, so that a machine shared with other jobs still gives a
ratio. Then both corpora are compared: row counts; resolved references (citing and cited article,
by sha256), the pyramid's insight-to-passage and concept-to-insight links and its texts, each as a
count and a digest; and, for ``--queries`` QA questions, the top 10 of bm25, vector and hybrid
search by text (ids differ between the builds). Everything goes to ``OUT/parallel_build.json``.
"""

from __future__ import annotations

import argparse
import hashlib
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

from paperpyramid.document import Reference  # noqa: E402

MODES = ("bm25", "vector", "hybrid")


def _write(path: str, real: str, numbers: list[int], settings: dict[str, int], gate: Any, done: Any) -> None:
    """A writer process: for each chunk, make its share of the copies, wait at the gate until
    every writer has made its own, store them, wait at the gate again (so that nobody makes
    copies while another writes); then (parts only) build the BM25 index of its part the same way.
    Says how many seconds each chunk's writing began and ended at and the CPU seconds of writing."""
    from threadpoolctl import threadpool_limits

    from paperpyramid.db import lexical_index
    from paperpyramid.db.writer import CorpusWriter
    from paperpyramid.tokens import TokenCounter

    threadpool_limits(1)
    sources = corpus_scale.load_sources(Path(real))
    chunk, parts, batch = settings["chunk"], settings["parts"], settings["batch"]
    spans: list[tuple[float, float]] = []
    cpu = 0.0
    with CorpusWriter(Path(path), TokenCounter()) as writer:
        for first in range(1, settings["articles"] + 1, chunk):
            mine = [n for n in numbers if first <= n < first + chunk]
            copies = [_copy(sources, n, settings) for n in mine]
            gate.wait()
            t, c = time.perf_counter(), time.process_time()
            for at in range(0, len(copies), batch):
                corpus_scale.write_batch(writer, copies[at : at + batch])
            spans.append((t, time.perf_counter()))
            cpu += time.process_time() - c
            del copies
            gate.wait()
        gate.wait()
        t, c = time.perf_counter(), time.process_time()
        if parts > 1:
            with writer.db.atomic():
                lexical_index.update(writer.db.conn, lexical_index.WEIGHTS)
        writer.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        spans.append((t, time.perf_counter()))
        cpu += time.process_time() - c
    done.put((path, spans, cpu))


def _copy(sources: list[Any], number: int, settings: dict[str, int]) -> Any:
    """Copy ``number``, whose bibliography also names copies ``number - 1`` and ``number // 2``
    by DOI: with parts written apart, these links cross parts and the merge has to make them."""
    copy = corpus_scale.make_copy(sources[number % len(sources)], number, settings["contexts_per_copy"], settings["insights_per_copy"])
    for cited in {number - 1, number // 2} - {0, number}:
        copy.doc.references.append(Reference(f"Copy {cited} of the corpus.", doi=_doi(sources, cited)))
    return copy


def _doi(sources: list[Any], number: int) -> str:
    """The DOI ``corpus_scale.make_copy`` gives copy ``number``."""
    row = sources[number % len(sources)].row
    return f"{row['doi']}.{number}" if row.get("doi") else f"10.5555/corpus-scale.{number}"


def build(out: Path, name: str, real: Path, parts: int, settings: dict[str, int]) -> dict[str, Any]:
    """One build: ``parts`` writer processes (1: one writer, no merge); wall seconds by step, and
    the CPU seconds of its critical path (the slowest writer's, then the merge's and the index
    builds'), what the build would take on cores of its own. The writing's wall time is the sum
    over chunks of first start to last end: making the copies, between chunks, is left out."""
    articles = settings["articles"]
    files = [out / (f"{name}.sqlite" if parts == 1 else f"{name}-part-{k + 1}.sqlite") for k in range(parts)]
    target = out / f"{name}.sqlite"
    for path in [*files, target]:
        for suffix in ("", "-wal", "-shm", ".lock"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    context = multiprocessing.get_context("spawn")
    gate, done = context.Barrier(parts), context.Queue()
    shares = [[n for n in range(1, articles + 1) if n % parts == k] for k in range(parts)]
    processes = [
        context.Process(target=_write, args=(str(path), str(real), share, {**settings, "parts": parts}, gate, done))
        for path, share in zip(files, shares, strict=True)
    ]
    for process in processes:
        process.start()
    reports = [done.get(timeout=24 * 3600) for _ in processes]
    for process in processes:
        process.join()
    spans = [report[1] for report in reports]
    write = sum(max(s[i][1] for s in spans) - min(s[i][0] for s in spans) for i in range(len(spans[0])))
    t1 = time.perf_counter()
    cpu = time.process_time()
    merge = 0.0
    if parts > 1:
        from paperpyramid.db.parts import merge_parts

        report = merge_parts(files, target)
        assert report.articles == articles, report
        merge = time.perf_counter() - t1
    indexes = corpus_scale.maintain_indexes(target)
    total = write + time.perf_counter() - t1
    writers_cpu = [float(report[2]) for report in reports]
    cpu_path = max(writers_cpu) + time.process_time() - cpu
    return {"write_s": write, "merge_s": merge, "indexes_s": indexes, "total_s": total, "articles_per_s": articles / total,
            "writers_cpu_s": writers_cpu, "critical_cpu_s": cpu_path}  # fmt: skip


#: Links compared by what they join, not by ids (ids differ between the builds): resolved
#: references (citing and cited article), the pyramid's insight-to-passage and concept-to-insight
#: links, and each article's insights and concepts in order.
LINKS = {
    "citations across articles": "SELECT a.sha256, c.sha256 FROM bib_entries b JOIN articles a ON a.id = b.article_id "
    "JOIN articles c ON c.id = b.cited_article_id ORDER BY 1, 2",
    "insights to passages": "SELECT a.sha256, i.position, x.text, ic.score FROM insights_contexts ic JOIN insights i ON i.id = ic.insight_id "
    "JOIN articles a ON a.id = i.article_id JOIN contexts x ON x.id = ic.context_id ORDER BY 1, 2, 3, 4",
    "concepts to insights": "SELECT a.sha256, c.position, i.position FROM concepts_insights ci JOIN concepts c ON c.id = ci.concept_id "
    "JOIN insights i ON i.id = ci.insight_id JOIN articles a ON a.id = c.article_id ORDER BY 1, 2, 3",
    "insight texts": "SELECT a.sha256, i.position, i.text FROM insights i JOIN articles a ON a.id = i.article_id ORDER BY 1, 2",
    "concept texts": "SELECT a.sha256, c.position, c.text FROM concepts c JOIN articles a ON a.id = c.article_id ORDER BY 1, 2",
    "abstract texts": "SELECT a.sha256, s.text FROM abstracts s JOIN articles a ON a.id = s.article_id ORDER BY 1",
}
TABLES = ("articles", "contexts", "insights", "concepts", "abstracts", "insights_contexts", "concepts_insights",
          "recollections", "citations", "bib_entries")  # fmt: skip


def fingerprints(path: Path) -> dict[str, Any]:
    """Row counts, and for each of :data:`LINKS` how many and a sha256 of them all, in order."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    found: dict[str, Any] = {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in TABLES}
    for name, query in LINKS.items():
        digest, count = hashlib.sha256(), 0
        for row in conn.execute(query):
            digest.update(repr(row).encode())
            count += 1
        found[name] = (count, digest.hexdigest()[:16])
    conn.close()
    return found


def compare(one: Path, merged: Path, questions: list[str], qvecs: Any) -> dict[str, Any]:
    """Row counts and links of both (:func:`fingerprints`), and how many search results agree (by text)."""
    from paperpyramid.db import sqlite as db_sqlite
    from paperpyramid.retrieval import api

    counts = {"one": fingerprints(one), "parts": fingerprints(merged)}
    differ = [name for name in counts["one"] if counts["one"][name] != counts["parts"][name]]

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
    return {"counts": counts, "differ": differ, "top10_overlap": {mode: sum(values) / len(values) for mode, values in same.items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--articles", type=int, default=1024)
    parser.add_argument("--parts", type=int, default=2)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--chunk", type=int, default=2048, help="articles whose copies are made at a time, before their writing")
    parser.add_argument("--contexts-per-copy", type=int, default=0, help="contexts kept per copy (0: all)")
    parser.add_argument("--insights-per-copy", type=int, default=0, help="insights kept per copy (0: all)")
    parser.add_argument("--real", type=Path, default=Path("/tmp/corpus_scale/real.sqlite"))
    parser.add_argument("--out", type=Path, default=Path("/tmp/parallel_build"))
    parser.add_argument("--queries", type=int, default=30)
    parser.add_argument("--qa", type=Path, default=corpus_scale.QA)
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    args.out.mkdir(parents=True, exist_ok=True)
    settings = {"articles": args.articles, "batch": args.batch, "chunk": args.chunk,
                "contexts_per_copy": args.contexts_per_copy, "insights_per_copy": args.insights_per_copy}  # fmt: skip
    load = [os.getloadavg()[0]]
    one = build(args.out, "one", args.real, 1, settings)
    load.append(os.getloadavg()[0])
    parts = build(args.out, "merged", args.real, args.parts, settings)
    load.append(os.getloadavg()[0])
    lines = [line for line in args.qa.read_text().splitlines() if line.strip()][: args.queries]
    questions = [json.loads(line)["question"] for line in lines]
    (args.out / "qa-vectors.npy").unlink(missing_ok=True)  # embedded afresh for these questions
    compared = compare(args.out / "one.sqlite", args.out / "merged.sqlite", questions, corpus_scale.query_vectors(args.out, questions))
    load.append(os.getloadavg()[0])
    results = {"settings": {**settings, "parts": args.parts}, "load": load, "one": one, "parts": parts, "compared": compared}
    (args.out / "parallel_build.json").write_text(json.dumps(results, indent=1))
    print(report(results))


def report(results: dict[str, Any]) -> str:
    """The markdown tables of a run."""
    settings, one, parts, compared, load = (results[key] for key in ("settings", "one", "parts", "compared", "load"))
    kept = f"{settings['contexts_per_copy'] or 'all'} contexts and {settings['insights_per_copy'] or 'all'} insights a copy"
    lines = [f"{settings['articles']:,} articles ({kept}), batches of {settings['batch']}, copies made {settings['chunk']:,} at a time "
             f"outside the clock, {os.cpu_count()} cores, load average {min(load):.1f}-{max(load):.1f}\n",
             "| build | writing s | merge s | indexes s (BM25 / vector) | total s | articles/s |", "|---|---:|---:|---:|---:|---:|"]  # fmt: skip
    for label, result in (("one writer", one), (f"{settings['parts']} parts + merge", parts)):
        indexes = result["indexes_s"]
        lines.append(f"| {label} | {result['write_s']:.1f} | {result['merge_s']:.1f} | {indexes['bm25_index_s']:.1f} / "
                     f"{indexes['vector_index_s']:.1f} | {result['total_s']:.1f} | {result['articles_per_s']:.1f} |")  # fmt: skip
    lines.append(f"| parts / one writer | | | | | **{parts['articles_per_s'] / one['articles_per_s']:.2f}x** |\n")
    lines.append("CPU seconds on the critical path (slowest writer + merge + indexes; the wall time on cores of its own): "
                 f"one writer {one['critical_cpu_s']:.1f}, parts {parts['critical_cpu_s']:.1f} (writers "
                 f"{', '.join(f'{cpu:.1f}' for cpu in parts['writers_cpu_s'])}): **{one['critical_cpu_s'] / parts['critical_cpu_s']:.2f}x**\n")  # fmt: skip
    for label, counts in compared["counts"].items():
        lines.append(f"{label}: " + ", ".join(f"{name} {value}" for name, value in counts.items()))
    lines.append(f"differ: {', '.join(compared['differ']) or 'nothing'}")
    lines.append("top-10 agreement by text: " + ", ".join(f"{mode} {share:.3f}" for mode, share in compared["top10_overlap"].items()))
    return "\n".join(lines)


if __name__ == "__main__":
    main()
