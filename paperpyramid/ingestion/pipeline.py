"""The ingest conductor: find the inputs (:mod:`.items`), skip what is stored, parse each with
the parser of its source kind in worker processes (:mod:`.running`, :mod:`.parsing`), store each
article through the single writer, and log every input's outcome.

Sources are local files and folders, or ``s3://BUCKET/PREFIX`` (listed page by page): PDFs, JATS
XML, LaTeX sources, archives, PubMed baseline and update files, and any kind of source registered
with :func:`paperpyramid.parsers.registry.register_kind`. Work flows lazily: at most a small window
of documents is in flight, so a bucket of millions of keys is never held in memory. The pipeline
knows no parser: each input's source kind chooses its parser in the registry, called with the one
contract ``parse(source, options)``. Workers only parse: a bucket object is downloaded by the
worker to a temporary file, hashed, parsed and deleted; the worker returns a
:class:`~paperpyramid.document.Document` or a reason, never touches the database. A document
that kills its worker is retried in a fresh pool, up to ``max_attempts`` times. Any
:class:`concurrent.futures.Executor` can stand in for the pool (a Dask cluster's, say): the
same limits hold there, each document parsed in a limited child of the executor's worker.

What a re-run skips, before any download: inputs logged ``done`` or ``skipped`` with the same
SHA-256 (files) or ETag (objects), and inputs that failed as bad input with the same bytes
(``retry_failed`` tries them again). Inputs that failed because a service was unavailable
are always tried again. The PMIDs a PubMed update file deletes are removed in file order; with
``licences`` (PMC's ``oa_file_list.csv``), an article without a licence of its own gets the one
the list gives its PMCID before it is stored.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from paperpyramid.db import lexical_index
from paperpyramid.db.writer import ArticleInput, CorpusWriter, DuplicateArticle, check_corpus_file, writer_lock
from paperpyramid.embeddings import get_embedder
from paperpyramid.errors import ServiceUnavailable
from paperpyramid.ingestion.items import iter_items, known_total
from paperpyramid.ingestion.licences import LicenceList, read_licences
from paperpyramid.ingestion.parsing import Parsed, parse_item, parse_source
from paperpyramid.ingestion.running import Pool, open_pool, run
from paperpyramid.ingestion.scratch import scratch_folder
from paperpyramid.ingestion.work import UNAVAILABLE, WorkItem
from paperpyramid.parsers.registry import prepare
from paperpyramid.s3 import S3Location, make_client, parse_s3_uri
from paperpyramid.settings import EmbeddingSettings, S3Settings, Settings

log = logging.getLogger(__name__)

Status = Literal["done", "failed", "skipped"]

#: the start of the ingest's scratch folder's name (its pid follows, see :mod:`.scratch`)
SCRATCH_PREFIX = "paperpyramid-scratch-"


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
    #: the outcome an earlier run logged for the same bytes; nothing was done to it now
    previous: bool = False


@dataclass(slots=True)
class IngestSummary:
    """What a run did: counts by status, pages ingested, articles deleted (by PubMed update
    files), and each :class:`IngestResult` in ``results`` unless the run was told not to keep
    them (a watch, or a dump of millions of documents, would otherwise grow without end)."""

    results: list[IngestResult] = field(default_factory=list)
    seconds: float = 0.0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(("done", "failed", "skipped"), 0))
    pages: int = 0
    keep_results: bool = True
    deleted: int = 0

    def add(self, result: IngestResult) -> None:
        self.counts[result.status] += 1
        if result.status == "done":
            self.pages += result.pages
        if self.keep_results:
            self.results.append(result)

    def count(self, status: Status) -> int:
        return self.counts[status]

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def pages_per_second(self) -> float:
        return self.pages / self.seconds if self.seconds > 0 else 0.0


ProgressCallback = Callable[[IngestResult], None]


def ingest(
    sources: Iterable[str | Path],
    db_path: str | Path,
    settings: Settings | None = None,
    *,
    executor: Executor | None = None,
    on_result: ProgressCallback | None = None,
    on_total: Callable[[int | None], None] | None = None,
    retry_failed: bool = False,
    watch: bool = False,
    poll_interval: float = 5.0,
    max_poll_interval: float = 300.0,
    stop: threading.Event | None = None,
    keep_results: bool | None = None,
) -> IngestSummary:
    """Ingest the inputs of files, folders and ``s3://`` prefixes into the corpus at ``db_path``.

    Every input gets an ``ingest_log`` row. ``executor`` may be any
    :class:`concurrent.futures.Executor`; by default a process pool of
    ``settings.ingest.workers`` (0: parse in this process). With ``watch`` the sources are
    listed again and again, waiting ``poll_interval`` seconds after a pass that found work
    and doubling the wait (up to ``max_poll_interval``) after each pass that found none,
    until ``stop`` is set. ``keep_results`` (default: unless watching) keeps every input's
    result in the summary; without it the summary holds counts only, and ``on_result`` sees
    each result as it comes.
    """
    settings = settings or Settings()
    settings = settings.model_copy(update={"ingest": prepare(settings.ingest)})  # once per run; explicit services must answer
    licences = read_licences(settings.ingest.licences) if settings.ingest.licences is not None else None
    if settings.ingest.embed:
        check_embedder(settings.embedding)
    sources = list(sources)
    started = time.monotonic()
    summary = IngestSummary(keep_results=not watch if keep_results is None else keep_results)
    this_pass = {"new": False, "done": False}

    def report(result: IngestResult) -> None:
        summary.add(result)
        # outcomes replayed from the log are not new work: an old failure must not keep the
        # watch from backing off
        this_pass["new"] |= not result.previous and result.status != "skipped"
        this_pass["done"] |= result.status == "done"
        if on_result is not None:
            on_result(result)

    if on_total is not None:
        on_total(None if watch else known_total(sources, settings.ingest))
    stop = stop or threading.Event()
    wake = threading.Event()
    if watch:
        for source in sources:
            if str(source).startswith("s3://"):
                _listen_for_uploads(parse_s3_uri(str(source)), settings.s3, wake, stop)
    check_corpus_file(db_path)  # before the lock file is made beside it
    with writer_lock(db_path), CorpusWriter(db_path) as writer, open_pool(executor, settings.ingest) as pool:
        interval = poll_interval
        while True:
            wake.clear()
            this_pass.update(new=False, done=False)
            _one_pass(sources, _Pass(writer, settings, pool, report, retry_failed, licences, summary))
            found = this_pass["new"]
            if this_pass["done"]:
                _index_new_contexts(writer)
            if not watch or stop.is_set():
                break
            interval = poll_interval if found else min(interval * 2, max_poll_interval)
            log.info("watching: next listing in %.0f s (sooner if the bucket announces an upload)", interval)
            deadline = time.monotonic() + interval
            while not stop.is_set() and not wake.is_set() and time.monotonic() < deadline:
                wake.wait(min(0.2, max(deadline - time.monotonic(), 0)))
            if stop.is_set():
                break
    summary.seconds = time.monotonic() - started
    return summary


def _index_new_contexts(writer: CorpusWriter) -> None:
    """Keep a large corpus's BM25 index current (a segment for the new contexts), so that
    keyword search stays fast; until it is, search goes to FTS5 and misses nothing."""
    with writer.db.atomic():
        status = lexical_index.maintain(writer.db.conn, on_progress=lambda done: log.info("BM25 index: %s", done))
    if status is not None:
        log.info("BM25 index: %d contexts in %d segment(s)", status.rows, status.segments)


def check_embedder(settings: EmbeddingSettings) -> None:
    """Fail the run at its start, with one clear line, when the configured embedder cannot
    work (an unknown model, a missing package, an endpoint that does not answer)."""
    get_embedder(settings).embed_passages(["paperpyramid start-up check"])  # loads the passages' model, or asks the endpoint


def _listen_for_uploads(location: S3Location, settings: S3Settings, wake: threading.Event, stop: threading.Event) -> None:
    """Wake the watch loop when MinIO announces a new object (bucket notifications). Servers
    without notifications (SeaweedFS, most S3 clones) refuse at once: polling alone goes on."""

    def listen() -> None:
        try:
            client = make_client(settings)
            with client.listen_bucket_notification(location.bucket, prefix=location.prefix, events=("s3:ObjectCreated:*",)) as events:
                for _event in events:
                    wake.set()
                    if stop.is_set():
                        return
        except Exception as exc:  # no notifications here: the poll loop still runs
            log.info("bucket notifications unavailable for %s (%s); polling with backoff", location.uri(), exc)

    threading.Thread(target=listen, name=f"notify-{location.bucket}", daemon=True).start()


@dataclass(slots=True)
class _Pass:
    """What one pass over the sources works with."""

    writer: CorpusWriter
    settings: Settings
    pool: Pool
    report: ProgressCallback
    retry_failed: bool
    licences: LicenceList | None
    summary: IngestSummary


def _one_pass(sources: list[str | Path], this: _Pass) -> None:
    writer = this.writer

    def todo(scratch: Path) -> Iterator[WorkItem]:
        for item in iter_items(sources, this.settings.s3, scratch, this.settings.ingest):
            if item.error is not None:
                writer.record(item.uri, item.sha256, "failed", error=item.error)
                this.report(IngestResult(item.uri, "failed", error=item.error))
                continue
            skip = None if item.deletes else _skip(writer, item, this.retry_failed)
            if skip is None:
                yield item
            else:
                _discard(item)
                this.report(skip)

    batch = _Batch(writer, this.report, this.settings.ingest.write_batch, this.settings.ingest.write_batch_seconds)
    with scratch_folder(SCRATCH_PREFIX) as scratch:  # a run killed with -9 leaves it to the next run
        try:
            for item, parsed in run(todo(scratch), this.settings, this.pool):
                if item.deletes:
                    batch.store()  # what came before the update file is stored before its deletions
                    deleted = writer.delete_pmids(item.deletes)
                    this.summary.deleted += deleted
                    log.info("%s: %d of %d PMIDs deleted were in the corpus", item.uri, deleted, len(item.deletes))
                    continue
                if parsed.document is not None and this.licences is not None:
                    this.licences.apply(parsed.document)
                batch.add(item, parsed)
        finally:
            batch.store()


class _Batch:
    """Parsed documents on their way to the writer: stored ``size`` at a time in one transaction
    (:meth:`~paperpyramid.db.writer.CorpusWriter.store_many`), or when the oldest has waited
    ``seconds``; what is not a document to store (a failure, a skip) is logged at once."""

    def __init__(self, writer: CorpusWriter, report: ProgressCallback, size: int, seconds: float) -> None:
        self.writer, self.report, self.size, self.seconds = writer, report, size, seconds
        self.waiting: list[tuple[WorkItem, Parsed]] = []
        self.since = 0.0

    def add(self, item: WorkItem, parsed: Parsed) -> None:
        if parsed.document is None or parsed.sha256 is None or self.size == 1:  # nothing to batch: logged at once
            self.report(_store(self.writer, item, parsed))
            _discard(item)
            return
        if not self.waiting:
            self.since = time.monotonic()
        self.waiting.append((item, parsed))
        if len(self.waiting) >= self.size or time.monotonic() - self.since >= self.seconds:
            self.store()

    def store(self) -> None:
        """Store what is waiting, in one transaction, and report each outcome."""
        waiting, self.waiting = self.waiting, []
        if not waiting:
            return
        try:
            outcomes: list[str | Exception] = self.writer.store_many([_article_input(item, parsed) for item, parsed in waiting])
        except Exception:  # the batch as a whole (a corpus locked too long, an I/O error): each document on its own
            log.exception("storing a batch of %d documents failed; storing them one at a time", len(waiting))
            for item, parsed in waiting:
                self.report(_store(self.writer, item, parsed))
                _discard(item)
            return
        for (item, parsed), outcome in zip(waiting, outcomes, strict=True):
            self.report(_stored(self.writer, item, parsed, outcome))
            _discard(item)


def _article_input(item: WorkItem, parsed: Parsed) -> ArticleInput:
    assert parsed.document is not None and parsed.sha256 is not None
    return ArticleInput(parsed.document, item.uri, parsed.sha256, etag=item.obj.etag if item.obj is not None else None, seconds=parsed.seconds,
                        contexts=parsed.contexts, vectors=parsed.vectors, normalised=True)  # fmt: skip


def _discard(item: WorkItem) -> None:
    # extracted archive members go as soon as they are stored: a dump never fills the disk
    if item.temporary:
        for path in (item.path, item.pdf):
            if path is not None and not path.is_dir():
                path.unlink(missing_ok=True)


def _skip(writer: CorpusWriter, item: WorkItem, retry_failed: bool) -> IngestResult | None:
    """Why this input needs no work now, as its result; None when it must be parsed."""
    logged = writer.logged(item.uri)
    if logged is not None:
        status, sha, etag, error = logged
        same = (item.sha256 is not None and item.sha256 == sha) or (item.obj is not None and bool(item.obj.etag) and item.obj.etag == etag)
        if same and status in ("done", "skipped"):
            return IngestResult(item.uri, "skipped", error=error, previous=True)
        if same and status == "failed" and not retry_failed and not (error or "").startswith(UNAVAILABLE):
            return IngestResult(item.uri, "failed", error=error, previous=True)
    if item.sha256 is not None:
        existing = writer.has_sha256(item.sha256)
        if existing is not None:
            reason = "same bytes as an article already stored"
            writer.record(item.uri, item.sha256, "skipped", error=reason, article_id=existing)
            return IngestResult(item.uri, "skipped", error=reason, article_id=existing)
    return None


def _store(writer: CorpusWriter, item: WorkItem, parsed: Parsed) -> IngestResult:
    etag = item.obj.etag if item.obj is not None else None
    if parsed.skipped is not None:
        writer.record(item.uri, parsed.sha256, "skipped", error=parsed.skipped, seconds=parsed.seconds, etag=etag)
        return IngestResult(item.uri, "skipped", error=parsed.skipped, seconds=parsed.seconds)
    if parsed.document is None:
        writer.record(item.uri, parsed.sha256, "failed", error=parsed.error, seconds=parsed.seconds, etag=etag)
        return IngestResult(item.uri, "failed", error=parsed.error, seconds=parsed.seconds)
    assert parsed.sha256 is not None
    existing = writer.has_sha256(parsed.sha256)
    if existing is not None:
        # identical bytes under another name: one article, both names logged
        reason = f"same bytes as {writer.source_of(existing) or 'an article already stored'}"
        writer.record(item.uri, parsed.sha256, "skipped", error=reason, article_id=existing, etag=etag)
        return IngestResult(item.uri, "skipped", error=reason, article_id=existing)
    try:
        outcome: str | Exception = writer.store(
            parsed.document,
            source_uri=item.uri,
            sha256=parsed.sha256,
            etag=etag,
            seconds=parsed.seconds,
            contexts=parsed.contexts,
            vectors=parsed.vectors,
            normalised=True,
        )
    except Exception as exc:  # the article's transaction rolled back; log it and go on
        outcome = exc
    return _stored(writer, item, parsed, outcome)


def _stored(writer: CorpusWriter, item: WorkItem, parsed: Parsed, outcome: str | Exception) -> IngestResult:
    """The result of storing a parsed document, given the writer's outcome (its article's id,
    or what kept it out, which is logged here)."""
    etag = item.obj.etag if item.obj is not None else None
    document = parsed.document
    assert document is not None and parsed.sha256 is not None
    if isinstance(outcome, DuplicateArticle):  # the same bytes came earlier in its batch
        reason = f"same bytes as {writer.source_of(outcome.article_id) or 'an article already stored'}"
        writer.record(item.uri, parsed.sha256, "skipped", error=reason, article_id=outcome.article_id, etag=etag)
        return IngestResult(item.uri, "skipped", error=reason, article_id=outcome.article_id)
    if isinstance(outcome, Exception):
        if isinstance(outcome, ServiceUnavailable):  # the corpus stayed locked: the next run tries again
            reason = f"{UNAVAILABLE}{item.name}: could not be stored: {outcome}"
        else:
            log.error("storing %s failed", item.uri, exc_info=outcome)
            reason = f"{item.name}: could not be stored: {type(outcome).__name__}: {outcome}"
        writer.record(item.uri, parsed.sha256, "failed", error=reason, seconds=parsed.seconds, etag=etag)
        return IngestResult(item.uri, "failed", error=reason, seconds=parsed.seconds)
    return IngestResult(
        item.uri, "done", article_id=outcome, pages=document.pages, seconds=parsed.seconds, warnings=list(document.warnings)
    )


__all__ = ["IngestResult", "IngestSummary", "Parsed", "WorkItem", "check_embedder", "ingest", "parse_item", "parse_source"]
