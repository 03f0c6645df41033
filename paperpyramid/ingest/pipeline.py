"""The ingest conductor: find PDFs, skip what is stored, parse in worker processes,
store each article through the single writer, and log every input's outcome.

Workers only parse: they return a :class:`~paperpyramid.document.Document` or a failure
reason, never touch the database. A document that kills its worker is retried in a fresh
pool, up to ``max_attempts`` times, then recorded as failed.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Literal

from paperpyramid.db.writer import CorpusWriter
from paperpyramid.document import Document
from paperpyramid.errors import BadInput, ParseTimeout
from paperpyramid.ingest.sources import discover_pdfs, file_sha256
from paperpyramid.parsers import get_parser
from paperpyramid.settings import IngestSettings, Settings

log = logging.getLogger(__name__)

Status = Literal["done", "failed", "skipped"]


@dataclass(slots=True)
class IngestResult:
    """What happened to one input."""

    source_uri: str
    status: Status
    error: str | None = None
    article_id: str | None = None
    pages: int = 0
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)


@dataclass(slots=True)
class IngestSummary:
    results: list[IngestResult] = field(default_factory=list)
    seconds: float = 0.0

    def count(self, status: Status) -> int:
        return sum(1 for result in self.results if result.status == status)

    @property
    def pages(self) -> int:
        return sum(result.pages for result in self.results if result.status == "done")

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.seconds if self.seconds > 0 else 0.0


@dataclass(slots=True)
class _Parsed:
    document: Document | None
    error: str | None
    seconds: float


@dataclass(slots=True)
class _Job:
    path: Path
    sha256: str
    attempts: int = 0


def parse_one(path: Path, options: IngestSettings) -> _Parsed:
    """Parse one file in the current process; bad input becomes a reason, not an exception.

    The time limit is enforced twice: the parser checks it between pages, and an alarm
    interrupts a single page that runs away.
    """
    parser = get_parser(options.parser)
    started = time.monotonic()
    try:
        with _alarm(options.time_limit, path):
            document = parser(path, password=options.password, max_pages=options.max_pages, time_limit=options.time_limit)
    except BadInput as exc:
        return _Parsed(None, str(exc), time.monotonic() - started)
    except Exception as exc:  # a parser bug must cost one document, not the run
        log.exception("parser crashed on %s", path)
        return _Parsed(None, f"{path.name}: parser error: {type(exc).__name__}: {exc}", time.monotonic() - started)
    return _Parsed(document, None, time.monotonic() - started)


@contextmanager
def _alarm(seconds: float, path: Path) -> Iterator[None]:
    if multiprocessing.current_process().name == "MainProcess" and not _in_main_thread():
        yield  # signals only work in the main thread; the parser's own check still applies
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise ParseTimeout(f"{path.name}: parsing took longer than {seconds:g} s")

    # a little grace over the limit so that the parser's own, more precise check fires first
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds * 1.1 + 1)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _in_main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


ProgressCallback = Callable[[IngestResult], None]


def ingest(
    sources: Iterable[str | Path],
    db_path: Path,
    settings: Settings | None = None,
    *,
    executor: Executor | None = None,
    on_result: ProgressCallback | None = None,
    on_total: Callable[[int], None] | None = None,
) -> IngestSummary:
    """Ingest PDFs from files and folders into the corpus at ``db_path``.

    Inputs already stored (same SHA-256) are skipped; every input gets an ``ingest_log``
    row. ``executor`` may be any :class:`concurrent.futures.Executor`; by default a process
    pool of ``settings.ingest.workers`` (0: parse in this process).
    """
    settings = settings or Settings()
    options = settings.ingest
    started = time.monotonic()
    summary = IngestSummary()
    paths = list(discover_pdfs(sources))
    if on_total is not None:
        on_total(len(paths))

    def report(result: IngestResult) -> None:
        summary.results.append(result)
        if on_result is not None:
            on_result(result)

    with CorpusWriter(db_path) as writer:
        jobs: list[_Job] = []
        seen: dict[str, str] = {}
        twins: list[tuple[str, str, str]] = []  # (uri, sha256, uri of the first copy) within this run
        for path in paths:
            uri = str(path.resolve())
            sha = file_sha256(path)
            existing = writer.has_sha256(sha)
            if existing is not None or sha in seen:
                duplicate_of = seen.get(sha)
                if duplicate_of is None and not _logged_done(writer, uri):
                    writer.record(uri, sha, "skipped", error="same bytes as an article already stored", article_id=existing)
                elif duplicate_of is not None:
                    twins.append((uri, sha, duplicate_of))
                report(IngestResult(uri, "skipped", article_id=existing))
                continue
            seen[sha] = uri
            jobs.append(_Job(path, sha))
        for job, parsed in _run(jobs, options, executor):
            uri = str(job.path.resolve())
            report(_store(writer, uri, job, parsed))
        for uri, sha, first in twins:
            writer.record(uri, sha, "skipped", error=f"same bytes as {first}", article_id=writer.has_sha256(sha))
    summary.seconds = time.monotonic() - started
    return summary


def _logged_done(writer: CorpusWriter, uri: str) -> bool:
    row = writer.db.execute("SELECT status FROM ingest_log WHERE source_uri = ?", [uri]).fetchone()
    return row is not None and row[0] == "done"


def _store(writer: CorpusWriter, uri: str, job: _Job, parsed: _Parsed) -> IngestResult:
    if parsed.document is None:
        writer.record(uri, job.sha256, "failed", error=parsed.error, seconds=parsed.seconds)
        return IngestResult(uri, "failed", error=parsed.error, seconds=parsed.seconds)
    document = parsed.document
    try:
        article_id = writer.add_document(document, source_uri=uri, sha256=job.sha256)
    except Exception as exc:  # the article's transaction rolled back; log it and go on
        log.exception("storing %s failed", uri)
        reason = f"{job.path.name}: could not be stored: {type(exc).__name__}: {exc}"
        writer.record(uri, job.sha256, "failed", error=reason, seconds=parsed.seconds)
        return IngestResult(uri, "failed", error=reason, seconds=parsed.seconds)
    writer.record(uri, job.sha256, "done", article_id=article_id, pages=document.pages, seconds=parsed.seconds)
    return IngestResult(uri, "done", article_id=article_id, pages=document.pages, seconds=parsed.seconds, warnings=list(document.warnings))


def _run(jobs: list[_Job], options: IngestSettings, executor: Executor | None) -> Iterator[tuple[_Job, _Parsed]]:
    if not jobs:
        return
    if executor is None and options.workers == 0:
        for job in jobs:
            yield job, parse_one(job.path, options)
        return
    own = executor is None
    pool = executor or _new_pool(options)
    pending = list(reversed(jobs))
    in_flight: dict[Future[_Parsed], _Job] = {}
    window = max(2, 2 * max(options.workers, 1))
    try:
        while pending or in_flight:
            while pending and len(in_flight) < window:
                job = pending.pop()
                job.attempts += 1
                in_flight[pool.submit(parse_one, job.path, options)] = job
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            broken = False
            for future in done:
                job = in_flight.pop(future)
                try:
                    yield job, future.result()
                except BrokenProcessPool:
                    broken = True
                    if job.attempts >= options.max_attempts:
                        yield job, _Parsed(None, f"{job.path.name}: the parser process died {job.attempts} times on this document", 0.0)
                    else:
                        pending.append(job)
            if broken and own:
                # every document still in the dead pool is retried in a fresh one
                for future, job in in_flight.items():
                    future.cancel()
                    pending.append(job)
                in_flight.clear()
                pool.shutdown(wait=False, cancel_futures=True)
                pool = _new_pool(options)
    finally:
        if own:
            pool.shutdown(wait=True, cancel_futures=True)


def _new_pool(options: IngestSettings) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=max(options.workers, 1), mp_context=multiprocessing.get_context("spawn"))
