#!/usr/bin/env python3
"""The parallel build against one writer, same articles, same machine, same run; resumable.

    python benchmarks/parallel_build.py [--articles 1024] [--parts 2] [--batch 64] [--real REAL.sqlite]
        [--contexts-per-copy K] [--insights-per-copy K] [--chunk 2048] [--out OUT] [--fresh]

The articles are ``corpus_scale.py``'s copies of a real corpus's articles (``--real``, as there;
``--contexts-per-copy`` and ``--insights-per-copy`` cut them down, as there). Copy ``n`` is the
same in every run (its randomness is seeded by ``n``), and its bibliography also names copies
``n - 1`` and ``n // 2`` by DOI, so that with parts most links cross parts. Both builds end where
an ingest ends, with the BM25 index and the vector index built:

- **one writer**: one process stores every copy through ``CorpusWriter.store_many`` (``--batch``
  a transaction, the bulk path ingest uses) and their pyramids, then builds the indexes;
- **parts**: ``--parts`` processes each store their share into a corpus file of their own and
  build its BM25 index, at the same time, then :func:`paperpyramid.db.parts.merge_parts` adds
  the parts to one corpus (duplicates, references across parts, the full-text indexes, the parts'
  BM25 segments carried over) and the vector index is built.

Making the copies is not writing, and 100,000 of them do not fit in memory: for each ``--chunk``
articles, fresh writer processes make their share of the copies, wait at a barrier until all
have, and write them, so nobody makes copies while another writes. The writing's wall time is the
sum over chunks of the first start to the last end; the figure is that plus the merge and the
index builds. Beside it, the CPU seconds of each build's critical path (the slowest writer's
writing, then the merge and the index builds), which is what the wall time would be on cores of its
own, so that a machine shared with other jobs still gives a ratio. Then both corpora are compared:
row counts; resolved references (citing and cited article, by sha256), the pyramid's
insight-to-passage and concept-to-insight links and its texts, each as a count and a digest; and,
for ``--queries`` QA questions, the top 10 of bm25, vector and hybrid search by text (ids differ
between the builds). Everything goes to ``OUT/parallel_build.json``.

**Resuming.** The run is a list of steps (each chunk's writing for each build, the parts' BM25
indexes, the merge, each index build, the comparison), recorded in ``OUT/state.json`` (written
atomically) with their wall seconds, CPU seconds and the load average. Run again with the same
settings and ``--out``, it carries on where it stopped, however it stopped (``kill -9`` of the
script or of a writer included); other settings are refused unless ``--fresh`` starts over.
At its first start the script copies the package and the benchmarks into ``OUT/code`` and runs
from there, as do its writers: a run resumed in a later session, after the working tree has
changed, measures both builds on the code it began with (``--fresh`` takes the tree's code anew).
The part files are removed once merged (``--keep-parts`` keeps them).

- A chunk's writing is recorded batch by batch (each a transaction). A chunk stopped halfway is
  written again whole: the copies it stored are the same bytes, which the writer skips as
  duplicates (their pyramids are stored when they have none), so each article is stored once.
  Its time is the sum of each try's span up to its last recorded batch: a batch rolled back by
  the kill is counted once, when it is stored; a batch committed in the instant between its
  commit and its record (the script killed then) is stored but not timed.
- The BM25 index of a part and each index build of a corpus are one transaction: a try stopped
  halfway leaves nothing and is not counted. A merge stopped halfway is started again from
  nothing (its corpus removed), so its time is one whole merge's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import os
import queue
import shutil
import sqlite3
import sys
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import corpus_scale  # noqa: E402  (benchmarks/corpus_scale.py, beside this script)

from paperpyramid.document import Reference  # noqa: E402

MODES = ("bm25", "vector", "hybrid")
STATE = "state.json"
#: the run's own copy of the code (``OUT/code``), which every start of the run and its writers run
CODE = "code"


class Run:
    """The state of a run in ``OUT/state.json``: its settings, each start of the script (the
    restarts), and per step whether it is done, its tries and its figures."""

    def __init__(self, out: Path, settings: dict[str, Any], *, fresh: bool = False) -> None:
        self.path = out / STATE
        if self.path.exists() and not fresh:
            self.state: dict[str, Any] = json.loads(self.path.read_text())
            if self.state["settings"] != settings:
                differ = sorted(k for k in {*settings, *self.state["settings"]} if settings.get(k) != self.state["settings"].get(k))
                raise SystemExit(f"{out} holds a run of other settings ({', '.join(differ)}): use another --out, or --fresh to start over")
        else:
            self.state = {"settings": settings, "starts": [], "steps": {}}
        self.state["starts"].append({"at": datetime.now(UTC).isoformat(timespec="seconds"), "pid": os.getpid(), "load": os.getloadavg()[0]})
        self.save()

    @property
    def restarts(self) -> int:
        return len(self.state["starts"]) - 1

    def step(self, name: str) -> dict[str, Any]:
        """The step's record, made (not done, no tries) when there is none."""
        steps: dict[str, dict[str, Any]] = self.state["steps"]
        return steps.setdefault(name, {"done": False, "tries": []})

    def done(self, name: str) -> bool:
        return bool(self.state["steps"].get(name, {}).get("done"))

    def started(self, prefix: str) -> bool:
        """Whether any step whose name starts with ``prefix`` was begun."""
        return any(name.startswith(prefix) for name in self.state["steps"])

    def finish(self, name: str, **figures: Any) -> None:
        self.step(name).update(done=True, load=os.getloadavg()[0], **figures)
        self.save()

    def save(self) -> None:
        """Write the state atomically: a kill at any moment leaves the old file or the new."""
        tmp = self.path.with_name(f".{STATE}.{os.getpid()}")
        with open(tmp, "w") as handle:
            json.dump(self.state, handle, indent=1)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.path)


def _die_with(parent: int) -> None:
    """Exit at once when the process that started this one is gone (``kill -9`` of the script):
    an orphan writer would go on writing while the run is started again."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _write_chunk(path: str, real: str, numbers: list[int], settings: dict[str, int], writer: int, gate: Any, reports: Any) -> None:
    """A writer process for one chunk: make its share of the copies (``numbers``), wait at the
    gate until every writer has made its own, then store them ``batch`` at a time, saying after
    each batch when it began, when that batch ended, its CPU seconds so far and how many copies
    were stored or skipped as already stored; the writer's closing (its WAL checkpoint) ends it."""
    from threadpoolctl import threadpool_limits

    from paperpyramid.db.writer import CorpusWriter, writer_lock
    from paperpyramid.tokens import TokenCounter

    _die_with(settings["parent"])
    threadpool_limits(1)
    sources = corpus_scale.load_sources(Path(real))
    copies = [_copy(sources, n, settings) for n in numbers]
    with writer_lock(path), CorpusWriter(Path(path), TokenCounter()) as corpus:
        gate.wait()
        start, cpu = time.monotonic(), time.process_time()
        stored = skipped = 0
        for at in range(0, len(copies), settings["batch"]):
            new, old = store_batch(corpus, copies[at : at + settings["batch"]])
            stored, skipped = stored + new, skipped + old
            reports.put(("batch", writer, start, time.monotonic(), time.process_time() - cpu, stored, skipped))
    reports.put(("done", writer, start, time.monotonic(), time.process_time() - cpu, stored, skipped))


def store_batch(writer: Any, copies: list[Any]) -> tuple[int, int]:
    """``corpus_scale.write_batch``, for a batch some of whose copies may be stored already (a
    chunk written again after a kill): the writer skips those as duplicates, and their pyramids
    are stored when they have none (the kill fell between the articles' transaction and the
    pyramids'). Returns (copies stored, copies skipped as already stored)."""
    from paperpyramid.db import pyramid as db_pyramid
    from paperpyramid.db import vectors as db_vectors
    from paperpyramid.db.writer import ArticleInput, DuplicateArticle

    outcomes = writer.store_many([
        ArticleInput(copy.doc, copy.source_uri, copy.sha256, seconds=0.0, contexts=copy.drafts,
                     vectors=db_vectors.ContextVectors(corpus_scale.EMBEDDER, corpus_scale.DIM, corpus_scale.WINDOW, copy.vectors),
                     normalised=True)
        for copy in copies
    ])  # fmt: skip
    conn = writer.db.conn
    pending: list[tuple[str, Any]] = []
    skipped = 0
    for outcome, copy in zip(outcomes, copies, strict=True):
        if isinstance(outcome, DuplicateArticle):
            skipped += 1
            if conn.execute("SELECT 1 FROM distillations WHERE article_id = ? AND status = 'done'", [outcome.article_id]).fetchone():
                continue
            pending.append((outcome.article_id, copy))
        elif isinstance(outcome, Exception):
            raise outcome
        else:
            pending.append((str(outcome), copy))
    db_pyramid.store_pyramids(conn, [corpus_scale._pyramid_of(conn, article_id, copy.pyramid) for article_id, copy in pending])
    return len(copies) - skipped, skipped


def _finish_part(path: str, settings: dict[str, int], writer: int, gate: Any, reports: Any) -> None:
    """A writer process at the end of the writing: (parts only) the BM25 index of its part, in
    one transaction, and the WAL folded into the file."""
    from paperpyramid.db import lexical_index
    from paperpyramid.db.writer import CorpusWriter, writer_lock

    _die_with(settings["parent"])
    with writer_lock(path), CorpusWriter(Path(path)) as corpus:
        gate.wait()
        start, cpu = time.monotonic(), time.process_time()
        if settings["parts"] > 1:
            with corpus.db.atomic():
                lexical_index.update(corpus.db.conn, lexical_index.WEIGHTS)
        corpus.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    reports.put(("done", writer, start, time.monotonic(), time.process_time() - cpu, 0, 0))


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


def _in_writers(run: Run, name: str, target: Any, args_of: list[tuple[Any, ...]]) -> dict[str, Any]:
    """Run step ``name`` in one process per writer (``target(*args, writer, gate, reports)``),
    recording each writer's progress in the step's current try as it reports it. A writer that
    dies stops the others and the run (run again to resume). Returns the step's figures over its
    tries: wall seconds (each try's first start to last recorded end) and CPU seconds by writer."""
    context = multiprocessing.get_context("spawn")
    gate, reports = context.Barrier(len(args_of)), context.Queue()
    record = run.step(name)
    record["tries"].append({})
    current: dict[str, Any] = record["tries"][-1]
    processes = [context.Process(target=target, args=(*args, k, gate, reports)) for k, args in enumerate(args_of)]
    for process in processes:
        process.start()
    finished: set[int] = set()
    try:
        while len(finished) < len(processes):
            try:
                kind, writer, start, end, cpu, stored, skipped = reports.get(timeout=1.0)
            except queue.Empty:
                dead = [k for k, p in enumerate(processes) if k not in finished and p.exitcode not in (None, 0)]
                if dead:
                    raise RuntimeError(
                        f"{name}: writer {dead[0] + 1} died (exit code {processes[dead[0]].exitcode}); run again to resume"
                    ) from None
                continue
            current[str(writer)] = {
                "start": start,
                "end": end,
                "cpu_s": cpu,
                "stored": stored,
                "skipped": skipped,
                "pid": processes[writer].pid,
            }
            if kind == "done":
                finished.add(writer)
            run.save()
    finally:
        for process in processes:
            if process.exitcode is None and processes.index(process) not in finished:
                process.kill()
            process.join()
    return _figures(record["tries"], len(processes))


def _figures(tries: list[dict[str, Any]], writers: int) -> dict[str, Any]:
    """A step's wall seconds and each writer's CPU seconds, summed over its tries (what a try
    recorded before it was stopped, then the try that finished)."""
    wall = sum(max(w["end"] for w in t.values()) - min(w["start"] for w in t.values()) for t in tries if t)
    cpu = [sum(t[str(k)]["cpu_s"] for t in tries if str(k) in t) for k in range(writers)]
    return {"wall_s": wall, "writers_cpu_s": cpu, "try_count": len(tries)}


def _in_main(run: Run, name: str, work: Any) -> None:
    """Run step ``name`` here, timed: ``work()`` returns the step's other figures."""
    run.step(name)["tries"].append({"start_load": os.getloadavg()[0]})
    run.save()
    t, c = time.perf_counter(), time.process_time()
    extra = work() or {}
    run.finish(name, wall_s=time.perf_counter() - t, cpu_s=time.process_time() - c, **extra)


def build(run: Run, out: Path, name: str, real: Path, parts: int, settings: dict[str, Any], *, keep_parts: bool = False) -> dict[str, Any]:
    """One build's steps not done yet, then its figures from all its steps: wall seconds by
    step, and the CPU seconds of its critical path (the slowest writer's, then the merge's and
    the index builds'), what the build would take on cores of its own. The part files are
    removed once merged, unless ``keep_parts``."""
    articles, chunk = settings["articles"], settings["chunk"]
    files = [out / (f"{name}.sqlite" if parts == 1 else f"{name}-part-{k + 1}.sqlite") for k in range(parts)]
    target = out / f"{name}.sqlite"
    if not run.started(f"{name}/"):  # a build begun afresh: nothing left from an earlier run
        _remove([*files, target])
    given = {**settings, "parts": parts, "parent": os.getpid()}
    chunks = [f"{name}/write {first}-{min(first + chunk, articles + 1) - 1}" for first in range(1, articles + 1, chunk)]
    for first, step in zip(range(1, articles + 1, chunk), chunks, strict=True):
        if not run.done(step):
            numbers = range(first, min(first + chunk, articles + 1))
            shares = [[n for n in numbers if n % parts == k] for k in range(parts)]
            figures = _in_writers(run, step, _write_chunk, [(str(f), str(real), s, given) for f, s in zip(files, shares, strict=True)])
            run.finish(step, articles=len(numbers), **figures)
    if not run.done(f"{name}/finish"):
        run.finish(f"{name}/finish", **_in_writers(run, f"{name}/finish", _finish_part, [(str(f), given) for f in files]))
    if parts > 1 and not run.done(f"{name}/merge"):
        _in_main(run, f"{name}/merge", lambda: _merge(files, target, articles))
    if parts > 1 and not keep_parts:
        _remove(files)
    for index in ("bm25", "vector"):
        if not run.done(f"{name}/{index} index"):
            _in_main(run, f"{name}/{index} index", lambda index=index: _build_index(target, index))
    return build_figures(run.state["steps"], name, parts, articles)


def _remove(paths: list[Path]) -> None:
    for path in paths:
        for suffix in ("", "-wal", "-shm", ".lock"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)


def _merge(files: list[Path], target: Path, articles: int) -> dict[str, Any]:
    """The parts merged into ``target``, made anew (a merge stopped halfway is done again whole)."""
    from paperpyramid.db.parts import merge_parts

    _remove([target])
    report = merge_parts(files, target)
    assert report.articles == articles, report
    return {"references_across_parts": report.references}


def _build_index(target: Path, index: str) -> None:
    """What an ingest does at the end of a pass, in one transaction: the BM25 index's new
    segment, or the vector index."""
    from paperpyramid.db import lexical_index, vector_index
    from paperpyramid.db import vectors as db_vectors
    from paperpyramid.db.writer import connect

    db = connect(target)
    with db.atomic():
        if index == "bm25":
            lexical_index.maintain(db.conn)
        else:
            row = db_vectors.find_embedder(db.conn, corpus_scale.EMBEDDER)
            assert row is not None
            vector_index.build_index(db.conn, row)
    db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def build_figures(steps: dict[str, Any], name: str, parts: int, articles: int) -> dict[str, Any]:
    """A build's figures summed over its steps (and each step's tries)."""
    writing = [step for key, step in steps.items() if key.startswith(f"{name}/write ") or key == f"{name}/finish"]
    write = sum(step["wall_s"] for step in writing)
    writers_cpu = [sum(step["writers_cpu_s"][k] for step in writing) for k in range(parts)]
    merge = steps[f"{name}/merge"] if parts > 1 else {"wall_s": 0.0, "cpu_s": 0.0}
    bm25, vector = steps[f"{name}/bm25 index"], steps[f"{name}/vector index"]
    total = write + merge["wall_s"] + bm25["wall_s"] + vector["wall_s"]
    return {"write_s": write, "merge_s": merge["wall_s"], "indexes_s": {"bm25_index_s": bm25["wall_s"], "vector_index_s": vector["wall_s"]},
            "total_s": total, "articles_per_s": articles / total, "writers_cpu_s": writers_cpu,
            "critical_cpu_s": max(writers_cpu) + merge["cpu_s"] + bm25["cpu_s"] + vector["cpu_s"],
            "chunks": sum(1 for key in steps if key.startswith(f"{name}/write ")),
            "tries": sum(len(step["tries"]) for key, step in steps.items() if key.startswith(f"{name}/"))}  # fmt: skip


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
    tied: dict[str, list[bool]] = {mode: [] for mode in MODES}
    conns = [db_sqlite.connect(path, read_only=True) for path in (one, merged)]
    for question, vector in zip(questions, qvecs, strict=True):
        for mode in MODES:
            found = [
                [(round(hit.score, 5), hit.text) for hit in api.retrieve(conn, question, mode=mode, k=10, embedder=Fixed(vector))]  # type: ignore[arg-type]
                for conn in conns
            ]
            texts = [{text for _, text in hits} for hits in found]
            same[mode].append(len(texts[0] & texts[1]) / max(1, len(found[0])))
            tied[mode].append(_same_but_ties(found[0], found[1]))
    for conn in conns:
        conn.close()
    return {
        "counts": counts,
        "differ": differ,
        "top10_overlap": {mode: sum(values) / len(values) for mode, values in same.items() if values},
        "top10_same_but_ties": {mode: sum(values) / len(values) for mode, values in tied.items() if values},
    }


def _same_but_ties(a: list[tuple[float, str]], b: list[tuple[float, str]]) -> bool:
    """Whether two top-10 lists are the same but for the order of equal scores: the same scores,
    and the same texts above the last score (whose ties the cut may take differently). The copies
    of one source passage are the same bag of words, so BM25 gives them one score; the two builds
    order such ties by their own rowids."""
    if [score for score, _ in a] != [score for score, _ in b]:
        return False
    cut = a[-1][0] if a else 0.0
    return {text for score, text in a if score > cut} == {text for score, text in b if score > cut}


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
    parser.add_argument("--queries", type=int, default=30, help="QA questions whose search results are compared (0: none)")
    parser.add_argument("--qa", type=Path, default=corpus_scale.QA)
    parser.add_argument("--fresh", action="store_true", help="start over, even where --out holds a run of these settings")
    parser.add_argument("--keep-parts", action="store_true", help="keep the part files once merged (removed by default: disk)")
    args = parser.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    args.out.mkdir(parents=True, exist_ok=True)
    if Path(__file__).resolve().parents[1] != (args.out / CODE).resolve():
        script = _frozen_code(args.out, fresh=args.fresh)
        given = sys.argv[1:] if "--qa" in sys.argv else [*sys.argv[1:], "--qa", str(args.qa.resolve())]
        os.execv(sys.executable, [sys.executable, str(script), *given])
    settings = {"articles": args.articles, "batch": args.batch, "chunk": args.chunk,
                "contexts_per_copy": args.contexts_per_copy, "insights_per_copy": args.insights_per_copy}  # fmt: skip
    real = args.real.resolve()
    run = Run(args.out, {**settings, "parts": args.parts, "real": str(real), "queries": args.queries, "qa": str(args.qa)}, fresh=args.fresh)
    if run.restarts:
        print(
            f"resuming the run in {args.out} ({run.restarts} restart(s)); {sum(map(run.done, run.state['steps']))} steps done", flush=True
        )
    one = build(run, args.out, "one", real, 1, settings)
    parts = build(run, args.out, "merged", real, args.parts, settings, keep_parts=args.keep_parts)
    if not run.done("compare"):
        _in_main(run, "compare", lambda: {"compared": _compare(args)})
    steps = run.state["steps"]
    load = [start["load"] for start in run.state["starts"]] + [step["load"] for step in steps.values()]
    results = {"settings": run.state["settings"], "load": load, "restarts": run.restarts, "one": one, "parts": parts,
               "compared": steps["compare"]["compared"], "steps": steps}  # fmt: skip
    (args.out / "parallel_build.json").write_text(json.dumps(results, indent=1))
    print(report(results))


def _frozen_code(out: Path, *, fresh: bool) -> Path:
    """The script in the run's own copy of the code (the package and the benchmarks), made at
    its first start: every start of the run and every writer runs the same code, whatever the
    working tree becomes meanwhile (the writers are started afresh for each chunk)."""
    code, root = out / CODE, Path(__file__).resolve().parents[1]
    if fresh:
        shutil.rmtree(code, ignore_errors=True)
    if not code.exists():
        tmp = out / f".{CODE}.{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.copytree(root / "paperpyramid", tmp / "paperpyramid", ignore=shutil.ignore_patterns("__pycache__"))
        shutil.copytree(root / "benchmarks", tmp / "benchmarks", ignore=shutil.ignore_patterns("__pycache__"))
        os.replace(tmp, code)
    return code / "benchmarks" / Path(__file__).name


def _compare(args: argparse.Namespace) -> dict[str, Any]:
    lines = [line for line in args.qa.read_text().splitlines() if line.strip()][: args.queries] if args.queries else []
    questions = [json.loads(line)["question"] for line in lines]
    (args.out / "qa-vectors.npy").unlink(missing_ok=True)  # embedded afresh for these questions
    qvecs = corpus_scale.query_vectors(args.out, questions) if questions else []
    return compare(args.out / "one.sqlite", args.out / "merged.sqlite", questions, qvecs)


def report(results: dict[str, Any]) -> str:
    """The markdown tables of a run."""
    settings, one, parts, compared, load = (results[key] for key in ("settings", "one", "parts", "compared", "load"))
    kept = f"{settings['contexts_per_copy'] or 'all'} contexts and {settings['insights_per_copy'] or 'all'} insights a copy"
    restarts, steps = results.get("restarts", 0), results.get("steps", {})
    spanned = (
        f"; the run spanned {restarts} restart(s) ({sum(len(step['tries']) for step in steps.values())} tries of {len(steps)} steps)"
        if restarts
        else ""
    )
    lines = [f"{settings['articles']:,} articles ({kept}), batches of {settings['batch']}, copies made {settings['chunk']:,} at a time "
             f"outside the clock, {os.cpu_count()} cores, load average {min(load):.1f}-{max(load):.1f}{spanned}\n",
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
    if compared["top10_overlap"]:
        lines.append("top-10 agreement by text: " + ", ".join(f"{mode} {share:.3f}" for mode, share in compared["top10_overlap"].items()))
        if "top10_same_but_ties" in compared:
            lines.append("the same top 10 but for the order of equal scores: "
                         + ", ".join(f"{mode} {share:.3f}" for mode, share in compared["top10_same_but_ties"].items()))  # fmt: skip
    return "\n".join(lines)


if __name__ == "__main__":
    main()
