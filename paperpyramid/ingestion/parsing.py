"""The worker's side of ingest: fetch an input (from the bucket), parse it with the parser of its
source kind (:func:`paperpyramid.parsers.registry.choose`), cut its contexts and embed them. A
worker returns a :class:`Parsed` (a document, or the reason there is none) and never touches the
database; one bad document never raises.

The time limit is enforced twice: the parser checks it between pages, and an alarm interrupts a
single page that runs away (in a process's main thread only; the worker pool's parent kills a
worker that overruns even that).
"""

from __future__ import annotations

import functools
import logging
import re
import signal
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from paperpyramid.citations.markers import link_markers
from paperpyramid.contexts import ContextDraft, split_section
from paperpyramid.db.vectors import ContextVectors
from paperpyramid.document import Document
from paperpyramid.embeddings import Embedder, get_embedder
from paperpyramid.errors import BadInput, ConfigurationError, ParseTimeout, ServiceUnavailable
from paperpyramid.ingestion.sources import file_sha256
from paperpyramid.ingestion.work import UNAVAILABLE, WorkItem, refusal, s3_client
from paperpyramid.normalise import normalise_document
from paperpyramid.parsers.contract import PDF, Source
from paperpyramid.parsers.registry import accepts, choose, label_of, suffixes_of
from paperpyramid.s3 import S3Object, download
from paperpyramid.settings import EmbeddingSettings, IngestSettings, S3Settings
from paperpyramid.tokens import TokenCounter

log = logging.getLogger(__name__)


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
    #: why the input is not one (a bucket's ``.xml`` that is no JATS): logged skipped, not failed
    skipped: str | None = None


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
        parsed = _fetch_and_parse(item, item.obj, options, s3 or S3Settings(), on_phase)
    else:
        parsed = parse_source(item.source(), options, on_phase=on_phase)
        parsed.sha256 = item.sha256
    return _with_contexts(parsed, embedding)


def parse_source(source: Source, options: IngestSettings, *, on_phase: PhaseCallback = _no_phase) -> Parsed:
    """Parse one source in this process with the parser of its kind; bad input becomes a reason,
    not an exception. A source refused (not for an outage) that came with its PDF is read from
    the PDF, the reason kept in the document's warnings."""
    on_phase("parse")
    parsed = _parse(source, options)
    if parsed.document is None and source.pdf is not None and not (parsed.error or "").startswith(UNAVAILABLE):
        fallback = _parse(Source(PDF, source.pdf, name=source.pdf.name), options)
        if fallback.document is not None:
            fallback.document.warnings.append(f"{label_of(source.kind)} source not used: {parsed.error}; read from the PDF")
            fallback.seconds += parsed.seconds
            parsed = fallback
    on_phase("cut")
    return parsed


def _parse(source: Source, options: IngestSettings) -> Parsed:
    parser = choose(source.kind, options)  # an unknown kind is the run's error: it is raised

    def call() -> Document:
        with _alarm(options.time_limit, source.label):
            return parser(source, options)

    parsed = _guarded(call, source.label)
    shown = source.path.name if source.path is not None else None
    if parsed.error and shown and shown != source.label:
        parsed.error = parsed.error.replace(shown, source.label, 1)  # a temporary file's name means nothing to a reader
    return parsed


def _fetch_and_parse(item: WorkItem, obj: S3Object, options: IngestSettings, s3: S3Settings, on_phase: PhaseCallback = _no_phase) -> Parsed:
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="paperpyramid-") as folder:
        target = Path(folder) / _safe_name(item.name, item.kind)
        try:
            download(s3_client(s3), obj, target, s3)
        except (ServiceUnavailable, BadInput) as exc:
            return Parsed(None, refusal(exc), time.monotonic() - started)
        if not accepts(item.kind, target):  # found by its suffix alone: the listing could not look inside
            reason = f"{item.name}: not {label_of(item.kind)}, not an input"
            return Parsed(None, None, time.monotonic() - started, file_sha256(target), skipped=reason)
        parsed = parse_source(item.source(target), options, on_phase=on_phase)
        parsed.sha256 = file_sha256(target)
        parsed.seconds = time.monotonic() - started
        return parsed


def _safe_name(name: str, kind: str) -> str:
    """The key's last part, reduced to characters safe in any file system, ending with a suffix
    of its kind (a PDF's ``.pdf``)."""
    safe = re.sub(r"[^\w.\-]+", "_", name)[-120:].lstrip(".") or "document"
    suffixes = suffixes_of(kind)
    return safe if not suffixes or safe.lower().endswith(suffixes) else safe + suffixes[0]


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
    if embedder is not None and embedding is not None:
        texts = [draft.text for drafts in parsed.contexts for draft in drafts]
        try:
            vectors = embedder.embed_passages(texts)
        except ServiceUnavailable as exc:  # an outage: the next run tries again
            return Parsed(None, f"{UNAVAILABLE}{exc}", parsed.seconds, parsed.sha256)
        except Exception as exc:  # one document's embedding must not end the run
            log.exception("embedding failed")
            return Parsed(None, f"embedding failed: {type(exc).__name__}: {exc}", parsed.seconds, parsed.sha256)
        parsed.vectors = ContextVectors(embedder.name, embedder.dimension, embedder.window, vectors, embedding.vector_storage)
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


def _guarded(call: Callable[[], Document], name: str) -> Parsed:
    started = time.monotonic()
    try:
        document = call()
    except BadInput as exc:
        return Parsed(None, str(exc), time.monotonic() - started)
    except ConfigurationError:
        raise  # the run's settings (a parser that cannot be imported), not this document: the run stops in one line
    except Exception as exc:  # a parser bug must cost one document, not the run
        log.exception("parser crashed on %s", name)
        return Parsed(None, f"{name}: parser error: {type(exc).__name__}: {exc}", time.monotonic() - started)
    return Parsed(document, None, time.monotonic() - started)


@contextmanager
def _alarm(seconds: float, name: str) -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield  # signals only reach the main thread; the parser's own check still applies
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise ParseTimeout(f"{name}: parsing took longer than {seconds:g} s")

    # a little grace over the limit so that the parser's own, more precise check fires first
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds * 1.1 + 1)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


__all__ = ["Parsed", "PhaseCallback", "parse_item", "parse_source"]
