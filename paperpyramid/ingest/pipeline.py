"""The ingest conductor: find PDFs, skip what is stored, parse in worker processes,
store each article through the single writer, and log every input's outcome.

Sources are local files and folders, or ``s3://BUCKET/PREFIX`` (listed page by page). Work
flows lazily: at most a small window of documents is in flight, so a bucket of millions of
keys is never held in memory. Workers only parse: a bucket object is downloaded by the
worker to a temporary file, hashed, parsed and deleted; the worker returns a
:class:`~paperpyramid.document.Document` or a reason, never touches the database. A document
that kills its worker is retried in a fresh pool, up to ``max_attempts`` times. Any
:class:`concurrent.futures.Executor` can stand in for the pool (a Dask cluster's, say): the
same limits hold there, each document parsed in a limited child of the executor's worker.

What a re-run skips, before any download: inputs logged ``done`` or ``skipped`` with the same
SHA-256 (files) or ETag (objects), and inputs that failed as bad input with the same bytes
(``retry_failed`` tries them again). Inputs that failed because a service was unavailable
are always tried again.
"""

from __future__ import annotations

import functools
import itertools
import logging
import re
import signal
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from types import FrameType
from typing import BinaryIO, Literal, cast

from minio import Minio

from paperpyramid.citations.markers import link_markers
from paperpyramid.contexts import ContextDraft, split_section
from paperpyramid.db import lexical_index
from paperpyramid.db.vectors import ContextVectors
from paperpyramid.db.writer import CorpusWriter, check_corpus_file, writer_lock
from paperpyramid.document import Document
from paperpyramid.embeddings import Embedder, get_embedder
from paperpyramid.errors import BadInput, ObjectGone, ParseTimeout, ServiceUnavailable
from paperpyramid.ingest.archives import is_archive, iter_tar_pdfs, read_pmc_package
from paperpyramid.ingest.executors import ClusterExecutor
from paperpyramid.ingest.jats_sources import find_jats, is_jats_name, looks_like_jats
from paperpyramid.ingest.latex_sources import arxiv_stem, find_sources, is_source_name
from paperpyramid.ingest.limited import Limits, run_limited
from paperpyramid.ingest.sources import discover_pdfs, file_sha256
from paperpyramid.ingest.threads import worker_memory
from paperpyramid.ingest.workers import Outcome, WorkerPool
from paperpyramid.normalise import normalise_document
from paperpyramid.parsers import SERVICES_OF, get_parser
from paperpyramid.parsers.coverage import coverage_of, document_texts, text_layer_words, words
from paperpyramid.parsers.embedded.ocr import using as ocr_program
from paperpyramid.parsers.jats import parse_jats
from paperpyramid.s3 import S3Location, S3Object, download, iter_objects, make_client, open_object, parse_s3_uri
from paperpyramid.settings import EmbeddingSettings, IngestSettings, S3Settings, Settings
from paperpyramid.tokens import TokenCounter

log = logging.getLogger(__name__)

Status = Literal["done", "failed", "skipped"]
UNAVAILABLE = "unavailable: "  # prefix of failures that a later run retries
ARCHIVE_SUFFIXES = (".tar", ".tar.gz", ".tgz")


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
    """What a run did: counts by status, pages ingested, and each :class:`IngestResult` in
    ``results`` unless the run was told not to keep them (a watch, or a dump of millions of
    documents, would otherwise grow without end)."""

    results: list[IngestResult] = field(default_factory=list)
    seconds: float = 0.0
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(("done", "failed", "skipped"), 0))
    pages: int = 0
    keep_results: bool = True

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


@dataclass(frozen=True, slots=True)
class WorkItem:
    """One input: a local file (hashed up front), a bucket object (hashed by the worker), a
    member of an archive (extracted to a temporary file), or one refused before parsing."""

    uri: str
    path: Path | None = None
    obj: S3Object | None = None
    sha256: str | None = None
    nxml: Path | None = None  # JATS XML (a PMC package's, a bulk package's, a file's): the structure source; ``path`` its PDF
    latex: Path | None = None  # a LaTeX source (a file, or a main .tex's folder): the structure source; ``path`` its PDF
    temporary: bool = False  # extracted here: delete once stored
    error: str | None = None  # refused before parsing (an unsafe archive member, say)

    @property
    def name(self) -> str:
        return self.uri.rsplit("/", 1)[-1]


@dataclass(slots=True)
class Parsed:
    document: Document | None
    error: str | None
    seconds: float
    sha256: str | None = None
    #: one list per section, cut in the worker so that the single writer only inserts
    contexts: list[list[ContextDraft]] | None = None
    #: one vector per context, in storage order, when the run embeds
    vectors: ContextVectors | None = None


PhaseCallback = Callable[[str], None]


def _no_phase(phase: str) -> None:
    return None


def parse_item(
    item: WorkItem,
    options: IngestSettings,
    s3: S3Settings | None = None,
    embedding: EmbeddingSettings | None = None,
    *,
    on_phase: PhaseCallback = _no_phase,
) -> Parsed:
    """Worker side: fetch (if in a bucket), hash, parse one input, cut its contexts and, with
    ``embedding``, embed them. Never raises for one bad document; an unreachable bucket or
    embedding endpoint becomes an ``unavailable:`` reason. ``on_phase("parse")`` is called
    when parsing starts and ``on_phase("cut")`` when it ends: the time limit covers what
    lies between (a download or an embedding endpoint has timeouts of its own)."""
    if item.obj is not None:
        return _with_contexts(_fetch_and_parse(item, item.obj, options, s3 or S3Settings(), on_phase), embedding)
    if item.nxml is not None:
        on_phase("parse")
        nxml = item.nxml

        def call() -> Document:  # a package's PDF under the same limits as any PDF
            with _alarm(options.time_limit, nxml):
                return parse_jats(
                    nxml, pdf_path=item.path, password=options.password, max_pages=options.max_pages, time_limit=options.time_limit
                )

        parsed = _guarded(call, item.name)
        if item.path is not None:
            _measure_coverage(parsed, item.path, options.password)
    elif item.latex is not None:
        on_phase("parse")
        parsed = _parse_latex(item, options)
    else:
        assert item.path is not None
        parsed = parse_one(item.path, options, name=item.name, on_phase=on_phase)
    parsed.sha256 = item.sha256
    on_phase("cut")
    return _with_contexts(parsed, embedding)


def _parse_latex(item: WorkItem, options: IngestSettings) -> Parsed:
    """A LaTeX source, its pages from its PDF when one came with it (``latex+pdf``)."""
    from paperpyramid.parsers.latex import parse_source

    source = item.latex
    assert source is not None

    def call() -> Document:
        with _alarm(options.time_limit, source):
            # the name as the dump gave it (an arXiv id, which the article keeps), not the extracted file's
            return parse_source(source, name=PurePosixPath(item.uri.rsplit("#", 1)[-1]).name, pdf=item.path, password=options.password, max_pages=options.max_pages,
                                time_limit=options.time_limit)  # fmt: skip

    parsed = _guarded(call, item.name)
    if parsed.document is None and item.path is not None and not (parsed.error or "").startswith(UNAVAILABLE):
        # a refused source still has its PDF: read that, saying why the source was not used
        refused = parsed.error
        parsed = parse_one(item.path, options, name=item.path.name)
        if parsed.document is not None:
            parsed.document.warnings.append(f"LaTeX source not used: {refused}; read from the PDF")
            return parsed
    if parsed.document is not None and parsed.document.arxiv_id is None:
        parsed.document.arxiv_id = arxiv_stem(PurePosixPath(item.uri.rsplit("#", 1)[-1]).name)  # "arxiv-1707.08043-….tex", "2101.00001.gz"
    if item.path is not None:
        _measure_coverage(parsed, item.path, options.password)
    return parsed


def _fetch_and_parse(item: WorkItem, obj: S3Object, options: IngestSettings, s3: S3Settings, on_phase: PhaseCallback = _no_phase) -> Parsed:
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="paperpyramid-") as folder:
        target = Path(folder) / _safe_name(item.name)
        try:
            download(_client(s3), obj, target, s3)
        except (ServiceUnavailable, BadInput) as exc:
            return Parsed(None, _refusal(exc), time.monotonic() - started)
        parsed = parse_one(target, options, name=item.name, on_phase=on_phase)
        parsed.sha256 = file_sha256(target)
        parsed.seconds = time.monotonic() - started
        return parsed


def _refusal(exc: ServiceUnavailable | BadInput) -> str:
    """Why one object could not be fetched, as logged: an outage, or an object deleted since
    the listing, is ``unavailable:`` (a later run that lists it tries again); a refusal of
    this object (its policy, its storage class) is final."""
    return f"{UNAVAILABLE}{exc}" if isinstance(exc, ServiceUnavailable | ObjectGone) else str(exc)


def _safe_name(name: str) -> str:
    # the key's last part, reduced to characters safe in any file system
    safe = re.sub(r"[^\w.\-]+", "_", name)[-120:].lstrip(".") or "document"
    return safe if safe.lower().endswith(".pdf") else safe + ".pdf"


_clients: dict[str, Minio] = {}


def _client(settings: S3Settings) -> Minio:
    # one client (and connection pool) per worker process and endpoint
    key = settings.model_dump_json()
    if key not in _clients:
        _clients[key] = make_client(settings)
    return _clients[key]


def _with_contexts(parsed: Parsed, embedding: EmbeddingSettings | None = None) -> Parsed:
    if parsed.document is None:
        return parsed
    parsed.document = normalise_document(parsed.document)  # every backend's text and date, before it is cut and embedded
    _link_citations(parsed.document)
    embedder = None if embedding is None else _embedder(embedding.model_dump_json())
    counter = _counter()
    if embedder is not None and embedder.window < counter.window:
        counter = _counter(embedder.window)  # contexts must fit the model that embeds them
    parsed.contexts = [split_section(section, counter) for section in parsed.document.sections]
    if embedder is not None:
        texts = [draft.text for drafts in parsed.contexts for draft in drafts]
        try:
            vectors = embedder.embed_passages(texts)
        except ServiceUnavailable as exc:  # an outage: the next run tries again
            return Parsed(None, f"{UNAVAILABLE}{exc}", parsed.seconds, parsed.sha256)
        except Exception as exc:  # one document's embedding must not end the run
            log.exception("embedding failed")
            return Parsed(None, f"embedding failed: {type(exc).__name__}: {exc}", parsed.seconds, parsed.sha256)
        parsed.vectors = ContextVectors(embedder.name, embedder.dimension, embedder.window, vectors)
    return parsed


def _link_citations(document: Document) -> None:
    """In-text citation markers linked to the reference list, where the parser linked none (a
    PDF's; JATS and TEI bring their own). A failure costs the links, never the document."""
    try:
        link_markers(document)
    except Exception:  # one document's links must not end the run
        log.exception("linking the citation markers of %s failed", document.title)


@functools.lru_cache(maxsize=4)
def _counter(window: int | None = None) -> TokenCounter:
    return TokenCounter(window=window)


@functools.lru_cache(maxsize=2)
def _embedder(settings_json: str) -> Embedder:
    # one model per worker process, loaded on its first document
    return get_embedder(EmbeddingSettings.model_validate_json(settings_json))


def parse_one(path: Path, options: IngestSettings, *, name: str | None = None, on_phase: PhaseCallback = _no_phase) -> Parsed:
    """Parse one file in the current process; bad input becomes a reason, not an exception.

    The time limit is enforced twice: the parser checks it between pages, and an alarm
    interrupts a single page that runs away (in a process's main thread only).
    """
    parser = get_parser(options.parser)
    # the service-backed parsers take the run's settings: which services answered, their URLs;
    # the embedded parser (theirs too) reads scans by OCR as the run says
    extra: dict[str, object] = (
        {"options": options} if options.parser in SERVICES_OF else {"ocr": options.ocr} if options.parser == "embedded" else {}
    )

    def call() -> Document:
        with _alarm(options.time_limit, path), ocr_program(options.tesseract):
            return parser(path, password=options.password, max_pages=options.max_pages, time_limit=options.time_limit, **extra)

    on_phase("parse")
    parsed = _guarded(call, name or path.name)
    if parsed.error and name and path.name != name:
        parsed.error = parsed.error.replace(path.name, name, 1)  # a temporary file's name means nothing to a reader
    _measure_coverage(parsed, path, options.password)
    on_phase("cut")
    return parsed


#: below this share of the text layer's words an article is stored with a warning
COVERAGE_WARNING = 0.95


def _measure_coverage(parsed: Parsed, pdf: Path, password: str | None) -> None:
    """Set the document's coverage of the PDF's text layer, with a warning naming the words most
    often missing when it is low: no text vanishes silently."""
    if parsed.document is None:
        return
    try:
        layer = text_layer_words(pdf, password=password, glyphs=parsed.document.glyph_map, ocr_text=parsed.document.ocr_text)
    except Exception as exc:  # the parse succeeded; a second read of the file must not undo it
        log.warning("coverage of %s not measured: %s", pdf.name, exc)
        return
    document = parsed.document
    document.coverage = coverage_of(layer, document_texts(document))
    if document.coverage is not None and document.coverage < COVERAGE_WARNING:
        found = words(" ".join(document_texts(document)))
        missing = [word for word, _ in (layer - found).most_common(8)]
        document.warnings.append(
            f"coverage {document.coverage:.2f}: {1 - document.coverage:.0%} of the PDF's words reach no text, table, "
            f"caption or reference (most often missing: {', '.join(missing)})"
        )


def _guarded(call: Callable[[], Document], name: str) -> Parsed:
    started = time.monotonic()
    try:
        document = call()
    except BadInput as exc:
        return Parsed(None, str(exc), time.monotonic() - started)
    except Exception as exc:  # a parser bug must cost one document, not the run
        log.exception("parser crashed on %s", name)
        return Parsed(None, f"{name}: parser error: {type(exc).__name__}: {exc}", time.monotonic() - started)
    return Parsed(document, None, time.monotonic() - started)


@contextmanager
def _alarm(seconds: float, path: Path) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield  # signals only reach the main thread; the parser's own check still applies
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


ProgressCallback = Callable[[IngestResult], None]


def iter_items(sources: Iterable[str | Path], s3: S3Settings, scratch: Path, options: IngestSettings | None = None) -> Iterator[WorkItem]:
    """Inputs named by ``sources``, lazily: local PDFs and JATS XML (with their SHA-256; an XML
    with the PDF beside it of its name or PMCID is one input), the PDFs under
    each ``s3://`` prefix (listed page by page), and the members of ``.tar``/``.tar.gz``
    archives among them, streamed into ``scratch`` one member at a time."""
    options = options or IngestSettings()
    for source in sources:
        text = str(source)
        if text.startswith("s3://"):
            location = parse_s3_uri(text)
            client = _client(s3)
            for obj in iter_objects(client, location, s3, suffixes=(".pdf", *ARCHIVE_SUFFIXES)):
                if is_archive(obj.key):
                    try:
                        response = open_object(client, obj, s3)
                    except BadInput as exc:  # deleted since the listing, or refused: this archive only
                        yield WorkItem(obj.uri, error=_refusal(exc))
                        continue
                    try:
                        # urllib3's response reads like a file: the archive streams, never lands whole
                        yield from _archive_items(cast(BinaryIO, response), obj.uri, scratch, options)
                    finally:
                        response.close()
                        response.release_conn()
                else:
                    yield WorkItem(obj.uri, obj=obj)
        else:
            named = Path(text).is_file()
            jats = options.jats or (named and is_jats_name(text))
            paths = list(discover_pdfs([source], archives=True, latex=options.latex or _names_a_source(text), jats=jats))
            latex_sources = find_sources(paths)  # not `sources`: that is the loop's iterable
            jats_sources = find_jats(paths, named=named) if jats else []
            paired = {found.pdf for found in latex_sources if found.pdf is not None} | {
                found.pdf for found in jats_sources if found.pdf is not None
            }
            by_main = {latex.main: latex for latex in latex_sources}
            by_xml = {found.xml: found for found in jats_sources}
            for path in paths:
                uri = str(path.resolve())
                if path in by_main:
                    latex = by_main[path]
                    yield WorkItem(uri, path=latex.pdf, latex=latex.bundle, sha256=file_sha256(path))
                elif path in by_xml:
                    yield WorkItem(uri, path=by_xml[path].pdf, nxml=path, sha256=file_sha256(path))
                elif path in paired or (
                    path.name.lower().endswith((".tex", ".ltx", ".gz", ".bbl", ".nxml", ".xml")) and not is_archive(path.name)
                ):
                    continue  # read with its source (or, a .gz that is no source or an XML that is no JATS, not an input)
                elif is_archive(path.name):
                    with path.open("rb") as handle:
                        yield from _archive_items(handle, uri, scratch, options)
                else:
                    yield WorkItem(uri, path=path, sha256=file_sha256(path))


def _names_a_source(source: str) -> bool:
    """A LaTeX source named on its own (a .tex, an arXiv .gz) is read as one whatever ``latex`` says."""
    return Path(source).is_file() and is_source_name(Path(source).name)


#: arXiv's bulk source tars (arXiv_src_2301_001.tar): their members are sources whatever ``latex`` says
_ARXIV_SOURCE_TAR = re.compile(r"arxiv_src_", re.I)


def _wanted(sources: bool, jats: bool) -> Callable[[str], bool]:
    """Which tar members are inputs: PDFs; with ``sources``, a paper's whole source (arXiv's
    ``<id>.gz``; a ``.tex`` member is part of a bundle, never a paper alone); with ``jats``,
    ``.nxml``/``.xml`` (kept only if JATS once extracted)."""

    def wanted(name: str) -> bool:
        base = PurePosixPath(name).name
        lower = base.lower()
        return (
            lower.endswith(".pdf")
            or (sources and is_source_name(base) and not lower.endswith((".tex", ".ltx")))
            or (jats and is_jats_name(base))
        )

    return wanted


_PMC_PACKAGE = re.compile(r"(^|/)PMC\d+[^/]*\.(tar\.gz|tgz)$", re.I)


def _archive_items(stream: BinaryIO, uri: str, scratch: Path, options: IngestSettings) -> Iterator[WorkItem]:
    """A PMC OA package (``PMC<digits>….tar.gz``) is one article, its JATS XML the structure
    source; any other archive is a bundle of PDFs (arXiv's ``arXiv_pdf_*.tar``) or of JATS XML
    (PMC's bulk ``oa_comm_xml.*.tar.gz``), one item each.
    A damaged archive yields what came before the damage and one failed item for the rest."""
    name = uri.rsplit("/", 1)[-1]
    folder = Path(tempfile.mkdtemp(prefix="archive-", dir=scratch))
    try:
        if _PMC_PACKAGE.search(uri):
            package = read_pmc_package(
                stream, folder, max_member_bytes=options.max_member_bytes, max_archive_bytes=options.max_archive_bytes, archive_name=name
            )
            main = package.pdf or package.nxml
            if main is None:
                yield WorkItem(uri, error=f"{name}: no .nxml or .pdf in the package ({'; '.join(package.errors) or 'empty'})")
            else:
                yield WorkItem(uri, path=package.pdf, nxml=package.nxml, sha256=file_sha256(main), temporary=True)
            return
        sources = options.latex or _ARXIV_SOURCE_TAR.search(name) is not None
        for member in iter_tar_pdfs(stream, folder, max_member_bytes=options.max_member_bytes, max_archive_bytes=options.max_archive_bytes,
                                    archive_name=name, wanted=_wanted(sources, options.jats)):  # fmt: skip
            member_uri = f"{uri}#{member.name}"
            if member.path is None:
                yield WorkItem(member_uri, error=f"{name}: {member.name}: {member.error}")
            elif member.name.lower().endswith(".pdf"):
                yield WorkItem(member_uri, path=member.path, sha256=file_sha256(member.path), temporary=True)
            elif is_jats_name(member.name):  # a bulk package's article: its XML alone, without pages
                if looks_like_jats(member.path):
                    yield WorkItem(member_uri, nxml=member.path, sha256=file_sha256(member.path), temporary=True)
                else:
                    member.path.unlink(missing_ok=True)  # some other XML (a manifest, say): not an input
            else:  # a paper's source, read alone: a tar streams, so the PDF of another tar cannot join it
                yield WorkItem(member_uri, latex=member.path, sha256=file_sha256(member.path), temporary=True)
    except BadInput as exc:
        yield WorkItem(f"{uri}#(rest)", error=str(exc))


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
    """Ingest PDFs from files, folders and ``s3://`` prefixes into the corpus at ``db_path``.

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
    if settings.ingest.parser in SERVICES_OF:
        from paperpyramid.parsers.services import resolve_services

        resolved, _ = resolve_services(settings.ingest)  # once per run; explicit services must answer
        settings = settings.model_copy(update={"ingest": resolved})
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
        # known up front only for local PDFs: a bucket is listed lazily, an archive's members are
        # counted as they stream
        local = not watch and all(not str(source).startswith("s3://") for source in sources)
        inputs = list(discover_pdfs(sources, archives=True, jats=True)) if local else []
        # an archive's members, and which XML is JATS or pairs with a PDF, are known only as they are read
        on_total(len(inputs) if local and not any(is_archive(path.name) or is_jats_name(path.name) for path in inputs) else None)
    stop = stop or threading.Event()
    wake = threading.Event()
    if watch:
        for source in sources:
            if str(source).startswith("s3://"):
                _listen_for_uploads(parse_s3_uri(str(source)), settings.s3, wake, stop)
    check_corpus_file(db_path)  # before the lock file is made beside it
    with writer_lock(db_path), CorpusWriter(db_path) as writer, _executor(executor, settings.ingest) as pool:
        interval = poll_interval
        while True:
            wake.clear()
            this_pass.update(new=False, done=False)
            _one_pass(sources, writer, settings, pool, report, retry_failed)
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
    get_embedder(settings).embed_query("paperpyramid start-up check")  # loads the model, or asks the endpoint


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


def _one_pass(
    sources: list[str | Path], writer: CorpusWriter, settings: Settings, pool: _Pool, report: ProgressCallback, retry_failed: bool
) -> None:
    def todo(scratch: Path) -> Iterator[WorkItem]:
        for item in iter_items(sources, settings.s3, scratch, settings.ingest):
            if item.error is not None:
                writer.record(item.uri, item.sha256, "failed", error=item.error)
                report(IngestResult(item.uri, "failed", error=item.error))
                continue
            skip = _skip(writer, item, retry_failed)
            if skip is None:
                yield item
            else:
                _discard(item)
                report(skip)

    with tempfile.TemporaryDirectory(prefix="paperpyramid-scratch-") as scratch:
        for item, parsed in _run(todo(Path(scratch)), settings, pool):
            report(_store(writer, item, parsed))
            _discard(item)


def _discard(item: WorkItem) -> None:
    # extracted archive members go as soon as they are stored: a dump never fills the disk
    if item.temporary:
        for path in (item.path, item.nxml, item.latex):
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
    document = parsed.document
    try:
        article_id = writer.store(
            document,
            source_uri=item.uri,
            sha256=parsed.sha256,
            etag=etag,
            seconds=parsed.seconds,
            contexts=parsed.contexts,
            vectors=parsed.vectors,
        )
    except Exception as exc:  # the article's transaction rolled back; log it and go on
        if isinstance(exc, ServiceUnavailable):  # the corpus stayed locked: the next run tries again
            reason = f"{UNAVAILABLE}{item.name}: could not be stored: {exc}"
        else:
            log.exception("storing %s failed", item.uri)
            reason = f"{item.name}: could not be stored: {type(exc).__name__}: {exc}"
        writer.record(item.uri, parsed.sha256, "failed", error=reason, seconds=parsed.seconds, etag=etag)
        return IngestResult(item.uri, "failed", error=reason, seconds=parsed.seconds)
    return IngestResult(
        item.uri, "done", article_id=article_id, pages=document.pages, seconds=parsed.seconds, warnings=list(document.warnings)
    )


@dataclass(slots=True)
class _Job:
    item: WorkItem
    deaths: int = 0  # worker deaths under this document
    started: float = field(default_factory=time.monotonic)


class _Pool:
    """Where parsing runs: the caller's executor (a Dask cluster's, say), our own worker
    processes with hard limits (:mod:`paperpyramid.ingest.workers`), or this process."""

    def __init__(self, given: Executor | None, options: IngestSettings) -> None:
        self.executor = given
        self.workers: WorkerPool | None = None
        if given is None and options.workers > 0:
            memory = worker_memory(options.max_worker_memory, options.workers)
            self.workers = WorkerPool(options.workers, memory_mib=memory, time_limit=options.time_limit, threads=options.worker_threads)

    def close(self) -> None:
        if self.workers is not None:
            self.workers.close()


@contextmanager
def _executor(given: Executor | None, options: IngestSettings) -> Iterator[_Pool]:
    pool = _Pool(given, options)
    try:
        yield pool
    finally:
        pool.close()


def _run(items: Iterator[WorkItem], settings: Settings, pool: _Pool) -> Iterator[tuple[WorkItem, Parsed]]:
    """Parse items on the pool, as many at a time as it has workers."""
    options = settings.ingest
    embedding = settings.embedding if options.embed else None
    if pool.workers is not None:
        yield from _run_on_workers(items, settings, pool.workers)
    elif pool.executor is not None:
        yield from _run_on_executor(items, settings, pool.executor)
    else:
        for item in items:
            yield item, parse_item(item, options, settings.s3, embedding)


def _run_on_workers(items: Iterator[WorkItem], settings: Settings, workers: WorkerPool) -> Iterator[tuple[WorkItem, Parsed]]:
    """Each document on a worker of its own: one that overruns the time limit is stopped and
    failed; one whose worker dies (a crash, the memory ceiling) is tried again in a fresh
    worker and failed after ``max_attempts`` deaths. Only that document is charged."""
    options = settings.ingest
    embedding = settings.embedding if options.embed else None
    jobs: dict[int, _Job] = {}
    again: deque[_Job] = deque()
    keys = itertools.count()
    upcoming = iter(items)
    exhausted = False

    def refill() -> None:
        nonlocal exhausted
        while workers.idle and (again or not exhausted):
            if again:
                job = again.popleft()
            else:
                item = next(upcoming, None)
                if item is None:
                    exhausted = True
                    continue
                job = _Job(item)
            key = next(keys)
            jobs[key] = job
            workers.submit(key, parse_item, job.item, options, settings.s3, embedding)

    while True:
        refill()
        if not jobs:
            return
        ready: list[tuple[WorkItem, Parsed]] = []
        for outcome in workers.wait(timeout=1.0):
            job = jobs.pop(outcome.key)
            parsed = _charge(job, outcome, options.max_attempts)
            if parsed is None:
                again.append(job)
            else:
                ready.append((job.item, parsed))
        refill()  # the workers parse on while the writer stores what came back
        yield from ready


def _charge(job: _Job, outcome: Outcome, max_attempts: int) -> Parsed | None:
    """The document's result from its worker's outcome, or None when it is to be tried again
    (its worker died under it fewer than ``max_attempts`` times). Only this document is
    charged; an error of the run (the bucket, the settings) is raised."""
    if outcome.raised is not None:
        raise outcome.raised  # the bucket or the settings, not this document: the run stops in one line
    if outcome.failure is None:
        return cast(Parsed, outcome.value)
    if outcome.died:
        job.deaths += 1
        if job.deaths < max_attempts:
            return None
        reason = f"the parser process died {job.deaths} time{'s' if job.deaths > 1 else ''} on this document (last: {outcome.failure})"
    else:
        reason = outcome.failure
    return Parsed(None, f"{job.item.name}: {reason}", time.monotonic() - job.started, job.item.sha256)


def _run_on_executor(items: Iterator[WorkItem], settings: Settings, executor: Executor) -> Iterator[tuple[WorkItem, Parsed]]:
    """A window of documents in flight on someone else's executor (a Dask cluster's), each
    parsed in a limited child of the worker that takes it (:mod:`.limited`), so the limits
    and ``max_attempts`` hold as on our own pool. A task the executor loses (its worker was
    killed, the scheduler went away) is logged ``unavailable:``: a re-run tries it again."""
    options = settings.ingest
    embedding = settings.embedding if options.embed else None
    limits = Limits.of(options)
    in_flight: dict[Future[Outcome], _Job] = {}
    again: deque[_Job] = deque()
    exhausted = False
    while True:
        window = max(2, 2 * (executor.slots() if isinstance(executor, ClusterExecutor) else max(options.workers, 1)))
        while (again or not exhausted) and len(in_flight) < window:
            job = again.popleft() if again else None
            if job is None:
                upcoming = next(items, None)
                if upcoming is None:
                    exhausted = True
                    continue
                job = _Job(upcoming)
            in_flight[executor.submit(run_limited, limits, parse_item, job.item, options, settings.s3, embedding)] = job
        if not in_flight:
            return
        done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
        for future in done:
            job = in_flight.pop(future)
            try:
                outcome = future.result()
            except Exception as exc:  # the executor lost the task: not this document's doing, as far as anyone knows
                reason = f"{UNAVAILABLE}{job.item.name}: the executor lost it: {type(exc).__name__}: {exc}"
                yield job.item, Parsed(None, reason, time.monotonic() - job.started, job.item.sha256)
                continue
            parsed = _charge(job, outcome, options.max_attempts)
            if parsed is None:
                again.append(job)
            else:
                yield job.item, parsed
