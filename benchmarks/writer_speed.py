"""The writer's speed against another copy of the package, the same articles, in the same run.

    .venv/bin/python benchmarks/writer_speed.py --baseline-src OLD --articles 1024 [--real REAL.sqlite]
        [--batch 64] [--baseline-batch N] [--chunk 128] [--out DIR] [--profile-at 0,2048] [--json OUT]

The articles are ``corpus_scale.py``'s full-size copies of a real corpus (``--real``: every
context, ~67 an article, with its noisy float32 vector and its pyramid), made once here and handed,
pickled, to two measuring processes, each importing ``paperpyramid`` (and ``corpus_scale``) from
its own folder and writing into its own fresh file:

- **baseline** (``--baseline-src``, a folder holding ``paperpyramid/`` and ``benchmarks/``): that
  copy's ``corpus_scale.write_copy``, as its full-size run stored them: ``CorpusWriter.store`` one
  article a transaction, then ``store_pyramid``, with that copy's defaults (vector storage
  included);
  ``--baseline-batched`` writes the baseline as the current one (a variant of today's writer);
- **current** (this checkout): ``corpus_scale.write_batch``, the ingest's path:
  ``CorpusWriter.store_many`` with ``--batch`` articles a transaction (the ingest's
  ``write_batch``), then the batch's pyramids, with today's defaults.

Chunks of ``--chunk`` copies go to one process then the other, which goes first alternating, so
that the load of other jobs falls on both alike. Each process counts its own CPU seconds
(``time.process_time``) in ``store``/``store_many`` and in the whole write (store + pyramid), its
wall seconds, the bytes it read and wrote through system calls (``rchar``/``wchar`` of
``/proc/self/io``: SQLite's page cache misses and page writes, the kernel's cache or not) and the
size of the file and its WAL after each chunk. ``--profile-at`` runs cProfile over the current
writer's chunk that starts at each of these article counts (``DIR/profile-current-N.txt``).
Without ``--baseline-src`` only the current writer runs (its figures as the file grows).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pickle
import pstats
import shutil
import sqlite3
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from measuring import Measuring, WorkerDied  # beside this script, first on sys.path

HERE = Path(__file__).resolve()
REPO = HERE.parent.parent


# --------------------------------------------------------------------------- the measuring process


def _proc_io() -> dict[str, int]:
    try:
        lines = Path("/proc/self/io").read_text().splitlines()
    except OSError:
        return {}
    return {key: int(value) for key, value in (line.split(": ") for line in lines)}


class _OlderCopyUnpickler(pickle.Unpickler):
    """Loads copies pickled by this checkout into an older package (``--baseline-src``): a slotted
    dataclass of that package is given a subclass with an instance dict, where the attributes it
    does not declare (fields added since, which its writer never reads) land."""

    _roomy: dict[type, type] = {}

    def find_class(self, module: str, name: str) -> Any:
        found = super().find_class(module, name)
        if not (module.startswith("paperpyramid.") and isinstance(found, type) and "__slots__" in vars(found)):
            return found
        if found not in self._roomy:
            self._roomy[found] = type(found.__name__, (found,), {"__module__": found.__module__})
        return self._roomy[found]


class _TimedWriter:
    """The writer as ``corpus_scale``'s write functions use it, counting CPU seconds in ``store``
    and ``store_many``."""

    def __init__(self, writer: Any) -> None:
        self.inner = writer
        self.db = writer.db
        self.store_cpu = 0.0

    def store(self, *args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return self.inner.store(*args, **kwargs)
        finally:
            self.store_cpu += time.process_time() - start

    def store_many(self, *args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return self.inner.store_many(*args, **kwargs)
        finally:
            self.store_cpu += time.process_time() - start


def worker(kind: str, db: Path, batched: bool) -> None:
    """Answer one JSON line per chunk given on stdin (``{"chunk": PICKLE, "batch": N, "profile": PATH}``)."""
    sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != HERE.parent]
    sys.path.insert(0, str(Path.cwd() / "benchmarks"))  # the copy's own corpus_scale
    import corpus_scale

    import paperpyramid
    from paperpyramid.db.writer import CorpusWriter
    from paperpyramid.tokens import TokenCounter

    writer = _TimedWriter(CorpusWriter(db, TokenCounter()))
    written = 0
    print(json.dumps({"package": str(Path(paperpyramid.__file__).parent)}), flush=True)
    for line in sys.stdin:
        if line.strip() == "bye":
            break
        ask = json.loads(line)
        copies = _OlderCopyUnpickler(io.BytesIO(Path(ask["chunk"]).read_bytes())).load()
        profile = cProfile.Profile() if ask.get("profile") else None
        before_io, writer.store_cpu = _proc_io(), 0.0
        wall, cpu = time.perf_counter(), time.process_time()
        if profile:
            profile.enable()
        if not batched:
            for copy in copies:
                corpus_scale.write_copy(writer, copy)
        else:
            for start in range(0, len(copies), ask["batch"]):
                corpus_scale.write_batch(writer, copies[start : start + ask["batch"]])
        if profile:
            profile.disable()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        after_io = _proc_io()
        written += len(copies)
        if profile:
            text = io.StringIO()
            pstats.Stats(profile, stream=text).sort_stats("cumulative").print_stats(60)
            pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(40)
            Path(ask["profile"]).write_text(text.getvalue())
        wal = Path(f"{db}-wal")
        print(json.dumps({
            "articles": written, "copies": len(copies), "store_cpu": writer.store_cpu, "total_cpu": cpu, "wall": wall,
            "io": {key: after_io[key] - before_io.get(key, 0) for key in after_io},
            "file_bytes": db.stat().st_size, "wal_bytes": wal.stat().st_size if wal.exists() else 0,
        }), flush=True)  # fmt: skip
    writer.inner.db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    writer.inner.close()


class Worker:
    """This script in a fresh process, importing ``paperpyramid`` from ``source``."""

    def __init__(self, name: str, source: Path, db: Path, seed: Path | None = None, *, batched: bool = True) -> None:
        self.name = name
        for suffix in ("", "-wal", "-shm", ".lock"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        if seed:
            shutil.copyfile(seed, db)
        env = {**os.environ, "PYTHONPATH": str(source), "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1"}
        command = [sys.executable, str(HERE), "--worker", name, "--db", str(db), *([] if batched else ["--one-at-a-time"])]
        self.process = Measuring(name, command, env=env, cwd=source)
        self.package = self._answer(None)["package"]
        self.chunks: list[dict[str, Any]] = []

    def _answer(self, ask: dict[str, Any] | None) -> dict[str, Any]:
        try:
            return self.process.request(ask) if ask is not None else self.process.read()
        except WorkerDied as exc:
            raise SystemExit(f"writer_speed: {exc}") from exc

    def write(self, chunk: Path, batch: int, profile: Path | None) -> dict[str, Any]:
        result = self._answer({"chunk": str(chunk), "batch": batch, "profile": str(profile) if profile else None})
        result["load"] = os.getloadavg()[0]
        self.chunks.append(result)
        return result

    def close(self) -> None:
        self.process.stop("bye")


# --------------------------------------------------------------------------- the run


def summarise(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    articles = sum(c["copies"] for c in chunks)
    store, total, wall = (sum(c[key] for c in chunks) for key in ("store_cpu", "total_cpu", "wall"))
    return {
        "articles": articles, "store_cpu_ms": 1000 * store / articles, "total_cpu_ms": 1000 * total / articles,
        "wall_ms": 1000 * wall / articles, "store_per_s": articles / store, "with_pyramid_per_s": articles / total,
        "wall_per_s": articles / wall,
    }  # fmt: skip


def run(args: argparse.Namespace) -> dict[str, Any]:
    sys.path.insert(0, str(HERE.parent))
    import corpus_scale

    args.out.mkdir(parents=True, exist_ok=True)
    sources = corpus_scale.load_sources(args.real)
    workers = [Worker("current", REPO, args.out / "current.sqlite", args.seed_file)]
    if args.baseline_src:
        workers.insert(0, Worker("baseline", Path(args.baseline_src).resolve(), args.out / "baseline.sqlite", args.seed_file,
                                  batched=args.baseline_batched))  # fmt: skip
    first = 0
    if args.seed_file:  # the copies' numbers go on from the seed's, so that none is a twin of a stored one
        with sqlite3.connect(f"file:{args.seed_file}?mode=ro", uri=True) as conn:
            first = int(conn.execute("SELECT count(*) FROM articles").fetchone()[0])
    profile_at = {int(n) for n in args.profile_at.split(",") if n}
    chunk_file = args.out / "chunk.pickle"
    loads = [os.getloadavg()]
    written = 0
    while written < args.articles:
        numbers = range(written + 1, min(written + args.chunk, args.articles) + 1)
        chunk_file.write_bytes(pickle.dumps([corpus_scale.make_copy(sources[n % len(sources)], first + n) for n in numbers]))
        turn = (written // args.chunk) % len(workers)
        for w in workers[turn:] + workers[:turn]:
            profile = args.out / f"profile-{w.name}-{written}.txt" if w.name == "current" and written in profile_at else None
            w.write(chunk_file, args.baseline_batch or args.batch if w.name == "baseline" else args.batch, profile)
        written += len(numbers)
        loads.append(os.getloadavg())
        print(
            f"{written:,}: " + "; ".join(
                f"{w.name} store {1000 * w.chunks[-1]['store_cpu'] / len(numbers):.1f} ms, "
                f"+pyramid {1000 * w.chunks[-1]['total_cpu'] / len(numbers):.1f} ms CPU an article" for w in workers
            ) + f"; load {loads[-1][0]:.2f}",
            file=sys.stderr, flush=True,
        )  # fmt: skip
    for w in workers:
        w.close()
    chunk_file.unlink()
    result: dict[str, Any] = {
        "articles": written, "seed_articles": first, "batch": args.batch, "chunk": args.chunk, "real": str(args.real),
        "contexts_per_article": sum(len(s.vectors) for s in sources) / len(sources),
        "load_average_1min": {"min": min(x[0] for x in loads), "max": max(x[0] for x in loads),
                              "mean": statistics.mean(x[0] for x in loads)},
        "runs": {w.name: {"package": w.package, "chunks": w.chunks, "summary": summarise(w.chunks)} for w in workers},
    }  # fmt: skip
    if args.baseline_src:
        base, current = result["runs"]["baseline"]["summary"], result["runs"]["current"]["summary"]
        result["ratio"] = {key: current[key] / base[key] for key in ("store_per_s", "with_pyramid_per_s", "wall_per_s")}
    return result


def report(result: dict[str, Any]) -> str:
    lines = [
        f"writer_speed: {result['articles']:,} full-size copies each ({result['contexts_per_article']:.1f} contexts an article), "
        f"load average {result['load_average_1min']['min']:.2f}-{result['load_average_1min']['max']:.2f}",
        "",
        "| writer | store, CPU ms/article | store + pyramid, CPU ms | store, articles/s | store + pyramid, articles/s | wall, articles/s |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, data in result["runs"].items():
        s = data["summary"]
        lines.append(f"| {name} | {s['store_cpu_ms']:.1f} | {s['total_cpu_ms']:.1f} | {s['store_per_s']:.1f} | "
                     f"{s['with_pyramid_per_s']:.1f} | {s['wall_per_s']:.1f} |")  # fmt: skip
    if "ratio" in result:
        r = result["ratio"]
        lines.append(
            f"| **current / baseline** | | | **{r['store_per_s']:.2f}×** | **{r['with_pyramid_per_s']:.2f}×** | {r['wall_per_s']:.2f}× |"
        )
    if "ratio" in result:
        lines += ["", "| first N articles | baseline / current store CPU ms | ratio | baseline / current store + pyramid CPU ms | ratio | wall ratio |",
                  "| ---: | ---: | ---: | ---: | ---: | ---: |"]  # fmt: skip
        mark = 512
        while mark <= result["articles"]:
            b, c = (summarise([x for x in result["runs"][name]["chunks"] if x["articles"] <= mark]) for name in ("baseline", "current"))
            lines.append(f"| {mark:,} | {b['store_cpu_ms']:.1f} / {c['store_cpu_ms']:.1f} | {b['store_cpu_ms'] / c['store_cpu_ms']:.2f}× | "
                         f"{b['total_cpu_ms']:.1f} / {c['total_cpu_ms']:.1f} | {b['total_cpu_ms'] / c['total_cpu_ms']:.2f}× | "
                         f"{b['wall_ms'] / c['wall_ms']:.2f}× |")  # fmt: skip
            mark *= 2
    lines += ["", "by chunk (CPU ms an article, store / store + pyramid; syscall KiB read / written an article; WAL MiB after):"]
    for name, data in result["runs"].items():
        for c in data["chunks"]:
            n = c["copies"]
            lines.append(
                f"  {name:>8} to {c['articles']:>6,}: {1000 * c['store_cpu'] / n:6.1f} / {1000 * c['total_cpu'] / n:6.1f}; "
                f"read {c['io'].get('rchar', 0) / n / 1024:8.0f}, written {c['io'].get('wchar', 0) / n / 1024:6.0f}; "
                f"WAL {c['wal_bytes'] / 2**20:6.1f}, file {c['file_bytes'] / 2**20:7.1f} MiB; load {c['load']:.2f}"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline-src", help="a folder with another copy's paperpyramid/ and benchmarks/ (timed too)")
    parser.add_argument("--articles", type=int, default=1024)
    parser.add_argument("--real", type=Path, default=Path("/tmp/corpus_scale/real.sqlite"), help="the real corpus the copies come from")
    parser.add_argument("--batch", type=int, default=64, help="articles a transaction on the current path (the ingest's write_batch)")
    parser.add_argument("--baseline-batch", type=int, help="articles a transaction on the batched baseline's path (default: --batch)")
    parser.add_argument("--chunk", type=int, default=128, help="copies each process writes in turn")
    parser.add_argument("--out", type=Path, default=Path("/tmp/writer_speed"))
    parser.add_argument("--profile-at", default="", help="article counts at which the current writer's chunk is profiled")
    parser.add_argument("--seed-file", type=Path, help="a corpus (checkpointed) both files start as a copy of (the same schema for both)")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--baseline-batched", action="store_true",
                        help="the baseline writes as the current one does (write_batch), not one article a transaction (write_copy)")  # fmt: skip
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--one-at-a-time", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.db, batched=not args.one_at_a_time)
        return
    result = run(args)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1))
    print(report(result))


if __name__ == "__main__":
    main()
