"""Search at scale: query latency of every retrieval mode on corpora of 10k, 100k and 1M contexts.

The corpora are built from a real one (``--real``, default ``/tmp/shared-minilm.sqlite``:
27 papers, 1,660 contexts with all-MiniLM-L6-v2 vectors) by replicating its articles:

- replica 0 is the real corpus; every further replica copies each article (new ids, its own
  sha256) with each context's text perturbed: ~5% of words dropped, ~6% swapped with their
  neighbour, ~3% turned into a new rare word (a suffix added), every digit redrawn. Section
  titles and reading order are kept, so BM25 statistics (document frequencies, lengths) grow
  the way a bigger corpus of the same kind would, with a growing vocabulary;
- vectors: a real context keeps its real vector; a copy gets its source's vector plus Gaussian
  noise, renormalised (cosine to the source drawn in ~[0.75, 0.95]).

The rows go in through the real schema (``paperpyramid.db.writer.connect`` runs the
migrations) in bulk: ``executemany``, one transaction per 50k contexts. The FTS5 triggers on
``contexts`` are dropped during the load and the index is rebuilt once at the end
(``--fts rebuild``, the default), or left in place (``--fts triggers``); both are timed.
Then the approximate vector index (:mod:`paperpyramid.db.vector_index`) is built.

Measuring: each (size, cores) pair runs in a fresh subprocess pinned with
``os.sched_setaffinity`` to core 0 (``1 core``) or cores 0-1 (``2 cores``), with BLAS/OpenMP
thread pools sized to match. It embeds every QA question with MiniLM (timed: ``embed``), runs
every query once unmeasured (warm OS page cache and SQLite's), then times each mode over all
questions (``time.perf_counter`` around the call; the query embedding is not inside the
per-mode figures except ``hybrid+embed``):

- ``bm25``: ``bm25.search`` k=10 as shipped (through the BM25 index of
  :mod:`paperpyramid.db.lexical_index`, built after the vector index); ``bm25@100``: the same at
  depth 100 (what hybrid asks for); ``bm25-fts5@100``: the same ranked by FTS5 (the baseline, the
  code before the index; on ``--exact-queries`` questions);
- ``vector-index@100``: ``vector_index.search`` then ``load_hits``; ``knn-exact``: exact
  sqlite-vec KNN (``vectors.nearest``) k=10, on ``--exact-queries`` questions;
- ``hybrid``: ``retrieve(mode="hybrid")`` as shipped (both indexes, weighted fusion);
  ``hybrid-fts5``: the same with BM25 from FTS5; ``hybrid+embed``: hybrid plus the query's
  embedding; ``parent``: ``retrieve(mode="parent")``; ``parent@4k``: the same with a 4,000-token
  budget (what ``ask`` asks for: the windows, then the next hits filling the budget).

On one core it also checks, on ``--exact-queries`` questions, that the BM25 index returns FTS5's top
100 (the same scores in the same order, the same contexts but for ties at the cut), and how many of
hybrid's top 10 the FTS5-based hybrid shares.

Recall@10 of the index against exact KNN (``vectors.nearest``) is computed on the questions'
embeddings (a subset of ``--recall-queries`` at every size) for several ``nprobe`` values.
Peak RSS is the measuring subprocess's own high-water mark (``VmHWM``; MiniLM included). A markdown table is
printed and everything is written to ``DIR/search_scale.json``.

    .venv/bin/python benchmarks/search_scale.py --sizes 10000,100000 --out /tmp/search-scale --keep
    .venv/bin/python benchmarks/search_scale.py --sizes 1000000 --out /tmp/search-scale --keep
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from paperpyramid.db import lexical_index, vector_index  # noqa: E402
from paperpyramid.db import sqlite as db_sqlite  # noqa: E402
from paperpyramid.db import vectors as db_vectors  # noqa: E402

EMBEDDER = "all-MiniLM-L6-v2"
QA = ROOT.parent / "shared" / "qa" / "corpus-qa.jsonl"
CHUNK = 50_000

# --------------------------------------------------------------------------- building


def _load_real(path: Path) -> dict[str, Any]:
    conn = db_sqlite.connect(path, read_only=True)
    conn.row_factory = None
    articles = [list(row) for row in conn.execute("SELECT * FROM articles ORDER BY rowid")]
    article_cols = [row[1] for row in conn.execute("PRAGMA table_info(articles)")]
    sections = {row[0]: list(row) for row in conn.execute("SELECT * FROM sections")}
    section_cols = [row[1] for row in conn.execute("PRAGMA table_info(sections)")]
    contexts = {row[0]: list(row) for row in conn.execute("SELECT * FROM contexts")}
    context_cols = [row[1] for row in conn.execute("PRAGMA table_info(contexts)")]
    art_secs: dict[str, list[tuple[str, int]]] = {}
    for article_id, section_id, position in conn.execute(
        "SELECT article_id, section_id, position FROM article_sections ORDER BY article_id, position"
    ):
        art_secs.setdefault(article_id, []).append((section_id, position))
    sec_ctx: dict[str, list[tuple[str, int]]] = {}
    for section_id, context_id, position in conn.execute(
        "SELECT section_id, context_id, position FROM sections_contexts ORDER BY section_id, position"
    ):
        sec_ctx.setdefault(section_id, []).append((context_id, position))
    row = db_vectors.find_embedder(conn, EMBEDDER)
    assert row is not None, f"{path} has no {EMBEDDER} vectors"
    vecs = {
        cid: db_vectors.decode([blob], row.dimension)[0] for cid, blob in conn.execute(f"SELECT context_id, embedding FROM {row.vec_table}")
    }
    conn.close()
    missing = [cid for cid in contexts if cid not in vecs]
    assert not missing, f"{len(missing)} contexts of {path} have no vector"
    return {
        "articles": articles, "article_cols": article_cols, "sections": sections, "section_cols": section_cols,
        "contexts": contexts, "context_cols": context_cols, "art_secs": art_secs, "sec_ctx": sec_ctx, "vecs": vecs,
    }  # fmt: skip


_DIGIT = re.compile(r"\d")
_SUFFIXES = [a + b for a in "aeiouklmnrst" for b in "aeiouxyzq"]


def perturb(text: str, rng: random.Random) -> str:
    """The text with some words dropped, swapped, made rare, and every digit redrawn."""
    words = text.split()
    out: list[str] = []
    i = 0
    n = len(words)
    while i < n:
        r = rng.random()
        word = words[i]
        if r < 0.05:
            i += 1
            continue
        if r < 0.11 and i + 1 < n:
            out.append(words[i + 1])
            out.append(word)
            i += 2
            continue
        if r < 0.14 and word.isalpha() and len(word) > 3:
            word = word + rng.choice(_SUFFIXES)
        out.append(word)
        i += 1
    joined = " ".join(out)
    return _DIGIT.sub(lambda _: str(rng.randrange(10)), joined)


def _noisy(vectors: npt.NDArray[np.float32], rng: np.random.Generator) -> npt.NDArray[np.float32]:
    dim = vectors.shape[1]
    scale = rng.uniform(0.33, 0.88, size=(len(vectors), 1)).astype(np.float32)  # cos to source ~0.95..0.75
    noise = rng.standard_normal(vectors.shape).astype(np.float32) / np.float32(math.sqrt(dim))
    out = vectors + scale * noise
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out.astype(np.float32)


def build_corpus(real: dict[str, Any], path: Path, size: int, fts: str, seed: int = 0) -> dict[str, float]:
    """Write a corpus of ``size`` contexts at ``path``; returns the timings of its phases."""
    from paperpyramid.db.writer import connect, new_id

    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    timings: dict[str, float] = {}
    started = time.perf_counter()
    db = connect(path)
    conn = db.conn
    conn.isolation_level = None  # explicit BEGIN/COMMIT only
    conn.execute("PRAGMA cache_size = -1000000")  # 1 GB page cache for the load
    triggers = [row[0] for row in conn.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'contexts'")]
    if fts == "rebuild":
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'contexts'").fetchall():
            conn.execute(f'DROP TRIGGER "{name}"')
    conn.execute("BEGIN")
    embedder = db_vectors.ensure_embedder(conn, EMBEDDER, 384, 256)
    conn.execute("COMMIT")
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    acols, scols, ccols = real["article_cols"], real["section_cols"], real["context_cols"]
    a_id, a_sha = acols.index("id"), acols.index("sha256")
    s_id, s_parent = scols.index("id"), scols.index("parent_id")
    c_id, c_text = ccols.index("id"), ccols.index("text")
    rows: dict[str, list[Any]] = {"articles": [], "sections": [], "contexts": [], "article_sections": [], "sections_contexts": []}
    vec_ids: list[str] = []
    vec_src: list[npt.NDArray[np.float32]] = []
    vec_real: list[bool] = []
    written = 0
    t_gen = t_sql = t_vec = 0.0

    def flush() -> None:
        nonlocal t_sql, t_vec, vec_ids, vec_src, vec_real
        t0 = time.perf_counter()
        conn.execute("BEGIN")
        for table, cols in (("articles", acols), ("sections", scols), ("contexts", ccols)):
            if rows[table]:
                conn.executemany(f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})", rows[table])
        conn.executemany("INSERT INTO article_sections (article_id, section_id, position) VALUES (?, ?, ?)", rows["article_sections"])
        conn.executemany("INSERT INTO sections_contexts (section_id, context_id, position) VALUES (?, ?, ?)", rows["sections_contexts"])
        t1 = time.perf_counter()
        if vec_ids:
            src = np.stack(vec_src)
            mask = ~np.array(vec_real)
            if mask.any():
                src[mask] = _noisy(src[mask], nrng)
            db_vectors.insert_vectors(conn, embedder, vec_ids, src)
        conn.execute("COMMIT")
        t2 = time.perf_counter()
        t_sql += t1 - t0
        t_vec += t2 - t1
        for value in rows.values():
            value.clear()
        vec_ids, vec_src, vec_real = [], [], []

    replica = 0
    done = False
    while not done:
        for article in real["articles"]:
            if done:
                break
            t0 = time.perf_counter()
            new_article = list(article)
            new_article_id = new_id() if replica else article[a_id]
            new_article[a_id] = new_article_id
            new_article[a_sha] = f"{article[a_sha]}-{replica}" if replica else article[a_sha]
            rows["articles"].append(new_article)
            section_map: dict[str, str] = {}
            for section_id, position in real["art_secs"].get(article[a_id], []):
                section = list(real["sections"][section_id])
                new_section_id = new_id() if replica else section_id
                section_map[section_id] = new_section_id
                section[s_id] = new_section_id
                if section[s_parent] is not None:
                    section[s_parent] = section_map.get(section[s_parent])
                rows["sections"].append(section)
                rows["article_sections"].append((new_article_id, new_section_id, position))
                for context_id, cposition in real["sec_ctx"].get(section_id, []):
                    if written >= size:
                        done = True
                        break
                    context = list(real["contexts"][context_id])
                    new_context_id = new_id() if replica else context_id
                    context[c_id] = new_context_id
                    if replica:
                        context[c_text] = perturb(context[c_text], rng)
                    rows["contexts"].append(context)
                    rows["sections_contexts"].append((new_section_id, new_context_id, cposition))
                    vec_ids.append(new_context_id)
                    vec_src.append(real["vecs"][context_id])
                    vec_real.append(replica == 0)
                    written += 1
                if done:
                    break
            t_gen += time.perf_counter() - t0
            if len(rows["contexts"]) >= CHUNK:
                flush()
        replica += 1
    flush()
    timings["generate_s"] = t_gen
    timings["insert_rows_s"] = t_sql
    timings["insert_vectors_s"] = t_vec
    t0 = time.perf_counter()
    if fts == "rebuild":
        conn.execute("BEGIN")
        conn.execute("INSERT INTO contexts_fts (contexts_fts) VALUES ('rebuild')")
        for sql in triggers:
            conn.execute(sql)
        conn.execute("COMMIT")
    conn.execute("INSERT INTO contexts_fts (contexts_fts) VALUES ('optimize')")
    timings["fts_rebuild_optimize_s"] = time.perf_counter() - t0
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    timings["corpus_total_s"] = time.perf_counter() - started
    db.close()
    return timings


def build_index(path: Path) -> dict[str, float]:
    conn = db_sqlite.connect(path)
    conn.isolation_level = None
    conn.execute("PRAGMA cache_size = -1000000")
    row = db_vectors.find_embedder(conn, EMBEDDER)
    assert row is not None
    t0 = time.perf_counter()
    vector_index.build_index(conn, row, on_progress=lambda done, total: print(f"    index {done}/{total}", file=sys.stderr, flush=True))
    seconds = time.perf_counter() - t0
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return {"index_build_s": seconds}


def build_lexical_index(path: Path) -> dict[str, float]:
    conn = db_sqlite.connect(path)
    conn.isolation_level = None
    conn.execute("PRAGMA cache_size = -1000000")
    t0 = time.perf_counter()
    lexical_index.update(conn, lexical_index.WEIGHTS, on_progress=lambda done: print(f"    BM25 index {done}", file=sys.stderr, flush=True))
    seconds = time.perf_counter() - t0
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    return {"lexical_index_build_s": seconds}


# --------------------------------------------------------------------------- measuring


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def measure(path: Path, cores: int, questions: list[str], args: argparse.Namespace) -> dict[str, Any]:
    """Runs inside the pinned subprocess."""
    from paperpyramid.embeddings.minilm import MiniLM
    from paperpyramid.retrieval import api, bm25, hybrid, vector
    from paperpyramid.retrieval.filters import Filters
    from paperpyramid.retrieval.passages import load_hits

    conn = db_sqlite.connect(path, read_only=True)
    row = db_vectors.find_embedder(conn, EMBEDDER)
    assert row is not None
    model = MiniLM()
    model.embed_query("warm up")
    embeds: list[float] = []
    qvecs: list[npt.NDArray[np.float32]] = []
    for question in questions:
        t0 = time.perf_counter()
        qvecs.append(model.embed_query(question))
        embeds.append(time.perf_counter() - t0)
    status = vector_index.index_status(conn, row)
    lexical_status = lexical_index.index_status(conn, lexical_index.WEIGHTS)
    nprobe = args.nprobe or None

    def vec_index_hits(c: Any, qv: npt.NDArray[np.float32], k: int) -> Any:
        found = vector_index.search(c, row, qv, k, nprobe=nprobe)
        return load_hits(c, [(cid, 1.0 - d) for cid, d in found])

    class _Fixed:  # an Embedder that returns the precomputed query vector (for retrieve())
        name = EMBEDDER
        dimension = 384
        window = 256

        def __init__(self, qv: npt.NDArray[np.float32]) -> None:
            self.qv = qv

        def embed_query(self, text: str) -> npt.NDArray[np.float32]:
            return self.qv

    options = api.RetrievalOptions()

    def hybrid_fts5(q: str, qv: npt.NDArray[np.float32], k: int = 10) -> Any:
        """retrieve()'s hybrid with BM25 ranked by FTS5: the code before the BM25 index."""
        lexical = bm25.search(conn, q, options.depth, Filters(), index=False)
        semantic = vector.search(conn, row, qv, options.depth, Filters())
        return hybrid.fuse([lexical, semantic], [options.bm25_weight, options.vector_weight], k, options.fusion)

    modes: dict[str, Callable[[str, npt.NDArray[np.float32]], Any]] = {
        "bm25": lambda q, qv: bm25.search(conn, q, 10),
        "bm25@100": lambda q, qv: bm25.search(conn, q, 100),
        "bm25-fts5@100": lambda q, qv: bm25.search(conn, q, 100, index=False),
        "vector-index@100": lambda q, qv: vec_index_hits(conn, qv, 100),
        "knn-exact": lambda q, qv: db_vectors.nearest(conn, row, qv, 10),
        "hybrid": lambda q, qv: api.retrieve(conn, q, mode="hybrid", k=10, embedder=_Fixed(qv)),  # type: ignore[arg-type]
        "hybrid-fts5": hybrid_fts5,
        "parent": lambda q, qv: api.retrieve(conn, q, mode="parent", embedder=_Fixed(qv)),  # type: ignore[arg-type]
        # what ``ask`` asks for: windows within 4,000 tokens, the next hits filling what they leave
        "parent@4k": lambda q, qv: api.retrieve(conn, q, mode="parent", budget_tokens=4000, embedder=_Fixed(qv)),  # type: ignore[arg-type]
    }
    slow = {"knn-exact", "bm25-fts5@100", "hybrid-fts5"}
    n_slow = len(questions) if args.exact_queries <= 0 else min(len(questions), args.exact_queries)
    results: dict[str, Any] = {}
    for name, fn in modes.items():
        if name in slow and cores > 1:
            continue  # single-threaded SQLite work: the 1-core figures stand for it (saves minutes at 1M)
        count = n_slow if name in slow else len(questions)
        for i in range(min(count, 3) if name in slow else count):  # warm-up pass (the slow modes: 3 queries)
            fn(questions[i], qvecs[i])
        times = []
        for i in range(count):
            t0 = time.perf_counter()
            fn(questions[i], qvecs[i])
            times.append(time.perf_counter() - t0)
        results[name] = {"p50_ms": 1000 * statistics.median(times), "p95_ms": 1000 * _pct(times, 0.95), "queries": count}
        if name == "hybrid":
            both = [t + e for t, e in zip(times, embeds, strict=True)]
            results["hybrid+embed"] = {"p50_ms": 1000 * statistics.median(both), "p95_ms": 1000 * _pct(both, 0.95), "queries": count}
    results["embed"] = {"p50_ms": 1000 * statistics.median(embeds), "p95_ms": 1000 * _pct(embeds, 0.95), "queries": len(embeds)}
    recall: dict[str, Any] = {}
    lexical: dict[str, float] = {}
    if cores == 1:
        n_check = min(len(questions), args.exact_queries or len(questions))
        same_bm25, same_hybrid = [], []
        for q, qv in zip(questions[:n_check], qvecs[:n_check], strict=True):
            by_index = [(h.context_id, h.score) for h in bm25.search(conn, q, 100)]
            by_fts5 = [(h.context_id, h.score) for h in bm25.search(conn, q, 100, index=False)]
            # the same scores in the same order, and the same contexts but for those tied at the
            # cut (copies of one context score alike, and either may be the 100th)
            cut = by_fts5[-1][1] if len(by_fts5) == 100 else None
            same_bm25.append(
                float(
                    [score for _, score in by_index] == [score for _, score in by_fts5]
                    and {h for h in by_index if h[1] != cut} == {h for h in by_fts5 if h[1] != cut}
                )
            )
            shipped = {h.context_id for h in api.retrieve(conn, q, mode="hybrid", k=10, embedder=_Fixed(qv))}  # type: ignore[arg-type]
            same_hybrid.append(len(shipped & {h.context_id for h in hybrid_fts5(q, qv)}) / max(1, len(shipped)))
        lexical = {
            "bm25_index_same_as_fts5@100": statistics.mean(same_bm25),
            "hybrid_overlap@10_with_fts5": statistics.mean(same_hybrid),
            "queries": n_check,
        }
        n_recall = min(len(qvecs), args.recall_queries)
        truth = [{cid for cid, _ in db_vectors.nearest(conn, row, qv, 10)} for qv in qvecs[:n_recall]]
        truth100 = [{cid for cid, _ in db_vectors.nearest(conn, row, qv, 100)} for qv in qvecs[:n_recall]]
        nlist = status.lists
        for probe in sorted({p for p in (4, 8, 16, 24, 32, 48, 64, vector_index.default_nprobe(nlist)) if p <= nlist}):
            got, got100, times = [], [], []
            for qv, want, want100 in zip(qvecs[:n_recall], truth, truth100, strict=True):
                t0 = time.perf_counter()
                found = vector_index.search(conn, row, qv, 10, nprobe=probe)
                times.append(time.perf_counter() - t0)
                got.append(len(want & {cid for cid, _ in found}) / max(1, len(want)))
                found100 = vector_index.search(conn, row, qv, 100, nprobe=probe)
                got100.append(len(want100 & {cid for cid, _ in found100}) / max(1, len(want100)))
            recall[str(probe)] = {
                "recall@10": statistics.mean(got),
                "recall@100": statistics.mean(got100),
                "p50_ms": 1000 * statistics.median(times),
                "queries": n_recall,
            }
    return {
        "size": int(conn.execute("SELECT count(*) FROM contexts").fetchone()[0]),
        "cores": cores,
        "modes": results,
        "recall": recall,
        "lexical": lexical,
        "index": {"lists": status.lists, "indexed": status.indexed, "nprobe": nprobe or vector_index.default_nprobe(status.lists)},
        "lexical_index": {"current": lexical_status.current, "rows": lexical_status.rows, "terms": lexical_status.terms},
        "peak_rss_mb": _peak_rss_mb(),
    }


def _peak_rss_mb() -> float:
    """This process's own peak RSS (``VmHWM``): ``ru_maxrss`` survives ``exec`` on Linux, so a
    measuring subprocess started by a process that had just built a 1M corpus would report the
    builder's peak."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _worker(args: argparse.Namespace) -> None:
    cores = args.worker_cores
    os.sched_setaffinity(0, set(range(cores)))
    questions = [json.loads(line)["question"] for line in Path(args.qa).read_text().splitlines() if line.strip()]
    if args.queries:
        questions = questions[: args.queries]
    result = measure(Path(args.worker), cores, questions, args)
    print("RESULT " + json.dumps(result), flush=True)


def _run_worker(path: Path, cores: int, args: argparse.Namespace) -> dict[str, Any]:
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"):
        env[var] = str(cores)
    env.setdefault("HF_HUB_OFFLINE", "1")
    cmd = [sys.executable, __file__, "--worker", str(path), "--worker-cores", str(cores), "--qa", str(args.qa),
           "--queries", str(args.queries), "--exact-queries", str(args.exact_queries), "--recall-queries", str(args.recall_queries),
           "--nprobe", str(args.nprobe)]  # fmt: skip
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            result: dict[str, Any] = json.loads(line[len("RESULT ") :])
            return result
    raise RuntimeError(f"worker failed ({proc.returncode}):\n{proc.stderr[-4000:]}")


# --------------------------------------------------------------------------- report


MODE_ORDER = [
    "embed",
    "bm25",
    "bm25@100",
    "bm25-fts5@100",
    "knn-exact",
    "vector-index@100",
    "hybrid",
    "hybrid-fts5",
    "hybrid+embed",
    "parent",
    "parent@4k",
]


def report(results: list[dict[str, Any]]) -> str:
    lines = ["| contexts | cores | " + " | ".join(MODE_ORDER) + " |", "|---:|---:|" + "---:|" * len(MODE_ORDER)]
    for result in results:
        for run in result["runs"]:
            cells = []
            for mode in MODE_ORDER:
                m = run["modes"].get(mode)
                cells.append("" if m is None else f"{m['p50_ms']:.1f} / {m['p95_ms']:.1f}")
            lines.append(f"| {result['size']:,} | {run['cores']} | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Cells: p50 / p95 ms over the QA questions (exact modes at 1M on a subset; see `queries` in the JSON).")
    lines.append("")
    lines.append(
        "| contexts | build s (corpus / FTS / vector index / BM25 index) | file MB | peak RSS MB (1 core / 2 cores) | index lists | nprobe: recall@10 (recall@100, p50 ms) |"
    )
    lines.append("|---:|---|---:|---|---:|---|")
    for result in results:
        b = result["build"]
        rss = " / ".join(f"{run['peak_rss_mb']:.0f}" for run in result["runs"])
        rec = result["runs"][0]["recall"]
        recs = "; ".join(f"{p}: {v['recall@10']:.3f} ({v['recall@100']:.3f}, {v['p50_ms']:.1f})" for p, v in rec.items())
        build = " / ".join(
            f"{b.get(key, float('nan')):.0f}"
            for key in ("corpus_total_s", "fts_rebuild_optimize_s", "index_build_s", "lexical_index_build_s")
        )
        lines.append(f"| {result['size']:,} | {build} | {result['file_mb']:.0f} | {rss} | {result['runs'][0]['index']['lists']} | {recs} |")
    lines.append("")
    lines.append("| contexts | BM25 index: top-100 identical to FTS5's (ids and scores) | hybrid top-10 overlap with hybrid over FTS5 |")
    lines.append("|---:|---:|---:|")
    for result in results:
        lex = result["runs"][0].get("lexical") or {}
        if "bm25_index_same_as_fts5@100" in lex:
            lines.append(f"| {result['size']:,} | {lex['bm25_index_same_as_fts5@100']:.3f} | {lex['hybrid_overlap@10_with_fts5']:.3f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--out", type=Path, default=Path("/tmp/search-scale"))
    parser.add_argument("--keep", action="store_true", help="keep the corpora, and reuse ones already built in --out")
    parser.add_argument(
        "--real",
        type=Path,
        default=Path("/tmp/shared-minilm.sqlite"),
        help="a real corpus with all-MiniLM-L6-v2 vectors: paperpyramid ingest ../shared/corpus --db X (it embeds)",
    )
    parser.add_argument("--qa", type=Path, default=QA)
    parser.add_argument("--fts", choices=["rebuild", "triggers"], default="rebuild")
    parser.add_argument("--cores", default="1,2")
    parser.add_argument("--queries", type=int, default=0, help="use only the first N questions (0: all)")
    parser.add_argument("--exact-queries", type=int, default=40, help="questions for the slow exact modes (0: all)")
    parser.add_argument("--recall-queries", type=int, default=100)
    parser.add_argument("--nprobe", type=int, default=0, help="lists probed by the index (0: its default)")
    parser.add_argument("--build-only", action="store_true")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--worker-cores", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        _worker(args)
        return
    args.out.mkdir(parents=True, exist_ok=True)
    real: dict[str, Any] | None = None
    results: list[dict[str, Any]] = []
    json_path = args.out / "search_scale.json"
    previous = {r["size"]: r for r in json.loads(json_path.read_text())} if json_path.exists() else {}
    for size in [int(s) for s in args.sizes.split(",") if s]:
        path = args.out / f"corpus-{size}.sqlite"
        marker = args.out / f"corpus-{size}.build.json"
        if args.keep and marker.exists() and path.exists():
            build = json.loads(marker.read_text())
            print(f"{size:,}: reusing {path}", file=sys.stderr)
        else:
            if real is None:
                real = _load_real(args.real)
            print(f"{size:,}: building {path} (fts={args.fts})", file=sys.stderr, flush=True)
            build = build_corpus(real, path, size, args.fts)
            marker.write_text(json.dumps(build))
        if "index_build_s" not in build:
            print(f"{size:,}: building the vector index", file=sys.stderr, flush=True)
            build.update(build_index(path))
            marker.write_text(json.dumps(build))
        if "lexical_index_build_s" not in build:
            print(f"{size:,}: building the BM25 index", file=sys.stderr, flush=True)
            build.update(build_lexical_index(path))
            marker.write_text(json.dumps(build))
        print(f"{size:,}: built {json.dumps(build)}", file=sys.stderr, flush=True)
        if args.build_only:
            continue
        runs = []
        for cores in [int(c) for c in args.cores.split(",")]:
            print(f"{size:,}: measuring on {cores} core(s)", file=sys.stderr, flush=True)
            runs.append(_run_worker(path, cores, args))
        result = {"size": size, "build": build, "file_mb": path.stat().st_size / 2**20, "runs": runs, "fts": args.fts}
        results.append(result)
        previous[size] = result
        json_path.write_text(json.dumps([previous[s] for s in sorted(previous)], indent=1))
        if not args.keep:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            marker.unlink(missing_ok=True)
    if results:
        print(report([previous[s] for s in sorted(previous)]))


if __name__ == "__main__":
    main()
