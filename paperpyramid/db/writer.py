"""The single writer: stores each parsed document as one article, in one transaction.

Workers parse; only the main process writes, through one :class:`CorpusWriter` and one
connection. ``add_document`` either stores everything about an article (its row, sections,
contexts, reading order, bibliography, tables, formulas, figures) or, on any failure,
nothing. ``record`` keeps the ingest log, so a rerun knows what is done and what failed.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Literal

import fastnanoid
import sqlite_utils

from paperpyramid import arxiv_ids
from paperpyramid.contexts import ContextDraft, split_section
from paperpyramid.db import citation_spans, references
from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.schema import migrate
from paperpyramid.document import Document, Section
from paperpyramid.errors import ConfigurationError, NotACorpus, ServiceUnavailable
from paperpyramid.normalise import normalise_document
from paperpyramid.text_clean import clean_document
from paperpyramid.tokens import TokenCounter

log = logging.getLogger(__name__)

IngestStatus = Literal["done", "failed", "skipped"]
INGEST_STATUSES: tuple[IngestStatus, ...] = ("done", "failed", "skipped")

#: Cuts one section into contexts; :func:`~paperpyramid.contexts.split_section` by default.
Splitter = Callable[[Section, TokenCounter], list[ContextDraft]]


class DuplicateArticle(ValueError):
    """A document with this sha256 is already stored; ``article_id`` names it."""

    def __init__(self, sha256: str, article_id: str) -> None:
        super().__init__(f"a document with sha256 {sha256} is already stored as article {article_id}")
        self.sha256 = sha256
        self.article_id = article_id


def new_id() -> str:
    """A fresh 21-character nanoid, the key of every corpus row."""
    return str(fastnanoid.generate())


def normalize_doi(doi: str) -> str:
    """A DOI without its resolver prefix: ``https://doi.org/10.1/x`` and ``doi:10.1/x`` -> ``10.1/x``."""
    doi = doi.strip()
    for prefix in ("https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi:"):
        if doi.lower().startswith(prefix):
            return doi[len(prefix) :].strip()
    return doi


def check_corpus_file(path: str | Path) -> None:
    """Raise :class:`NotACorpus` when ``path`` exists and is another SQLite database (tables, but
    no corpus schema version) or no database at all (read-only, so such a file is never
    touched), :class:`ConfigurationError` when its folder does not exist. A missing or empty
    file in an existing folder, or a corpus, passes."""
    if not Path(path).parent.is_dir():
        raise ConfigurationError(f"no corpus can be made at {path}: the folder {Path(path).parent} does not exist")
    if not Path(path).is_file() or Path(path).stat().st_size == 0:
        return
    conn = db_sqlite.connect(path, read_only=True)  # NotACorpus when it is no database
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        tables = [
            row[0]
            for row in conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' LIMIT 5")
        ]
    except db_sqlite.DatabaseError as exc:
        raise NotACorpus(f"{path} is not a paperpyramid corpus: {exc}") from exc
    finally:
        conn.close()
    if version == 0 and tables:
        raise NotACorpus(f"{path} is an SQLite database but not a paperpyramid corpus (it holds {', '.join(tables)}); "
                         "paperpyramid adds no tables to it: give another --db")  # fmt: skip


#: tries again of an article's transaction when another process holds the database's write
#: lock (each try itself waits up to the connection's 5 s busy timeout)
LOCK_RETRIES = 5


def is_locked(exc: BaseException) -> bool:
    """Whether an SQLite error is lock contention (transient), not damage or a bug."""
    text = str(exc).lower()
    return "database is locked" in text or "database is busy" in text or "database table is locked" in text


@contextmanager
def writer_lock(path: str | Path, *, suffix: str = ".lock", doing: str = "ingest (pid {pid}) is writing to") -> Iterator[None]:
    """Hold the corpus's writer lock (``<corpus>.lock`` beside it) for the block: one ingest
    writes to a corpus at a time, and a second one waits, saying so, until the first ends.
    Held before the corpus is opened, so two runs never race to create the same schema either.
    The lock is the kernel's (``flock``): a process that dies, even by ``kill -9``, lets go.
    ``suffix`` and ``doing`` name another run's lock (distill's ``.distill.lock``) and what the
    waiting run says of its holder."""
    try:
        import fcntl
    except ImportError:  # no flock (Windows): SQLite's own locking and retries remain
        yield
        return
    with open(f"{path}{suffix}", "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "?"
            log.warning("another %s %s; waiting for it to finish", doing.format(pid=holder), path)
            fcntl.flock(handle, fcntl.LOCK_EX)
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def connect(path: str | Path) -> sqlite_utils.Database:
    """Open (creating if need be) a corpus for writing: WAL, foreign keys on, migrated; a file
    that is not a corpus is refused (:func:`check_corpus_file`) before anything is written."""
    check_corpus_file(path)
    db = sqlite_utils.Database(db_sqlite.connect(path))
    try:
        db.enable_wal()
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA synchronous = NORMAL")  # safe under WAL; a power cut loses only the last commits
        migrate(db)
    except BaseException:
        db.close()
        raise
    return db


class CorpusWriter:
    """Writes articles and the ingest log into a corpus file; the one writer per corpus.

    ``counter`` counts tokens for the contexts (all-MiniLM-L6-v2 by default); ``splitter``
    cuts a section into contexts (``split_section`` at the counter's limit by default).
    """

    def __init__(
        self,
        path: str | Path,
        counter: TokenCounter | None = None,
        *,
        splitter: Splitter | None = None,
    ) -> None:
        self.path = Path(path)
        self.db = connect(self.path)
        self._counter = counter
        self._splitter: Splitter = splitter or split_section

    @property
    def counter(self) -> TokenCounter:
        if self._counter is None:
            self._counter = TokenCounter()
        return self._counter

    def __enter__(self) -> CorpusWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    def has_sha256(self, sha256: str) -> str | None:
        """The id of the article stored from a file with this sha256, or ``None``."""
        row = self.db.execute("SELECT id FROM articles WHERE sha256 = ?", [sha256]).fetchone()
        return None if row is None else str(row[0])

    def add_document(
        self,
        doc: Document,
        *,
        source_uri: str,
        sha256: str,
        contexts: Sequence[Sequence[ContextDraft]] | None = None,
        vectors: db_vectors.ContextVectors | None = None,
    ) -> str:
        """Store ``doc`` as a new article and return its id.

        Everything is written in one transaction: if any part fails the database is left as
        it was. Raises :class:`DuplicateArticle` when the sha256 is already stored and
        ``ValueError`` when the document's indices (section parents, the section of a
        table, formula or figure) do not point at an earlier section.

        ``contexts``, one list per section, are contexts already cut (say in a worker
        process, with the same kind of counter); by default the writer cuts them itself.
        ``vectors``, one per context in storage order, are stored in the same transaction.
        """
        existing = self.has_sha256(sha256)
        if existing is not None:
            raise DuplicateArticle(sha256, existing)
        _check_indices(doc)
        # no control character nor a date in another form is ever stored, whatever produced the
        # document (ingest normalises before cutting contexts; a caller of this method may not have)
        doc = normalise_document(doc)
        contexts = None if contexts is None else clean_document([list(drafts) for drafts in contexts])
        if contexts is not None and len(contexts) != len(doc.sections):
            raise ValueError(f"{len(contexts)} lists of contexts for {len(doc.sections)} sections")
        counter = self.counter
        article_id = new_id()
        section_ids = [new_id() for _ in doc.sections]

        section_rows: list[dict[str, Any]] = []
        context_rows: list[dict[str, Any]] = []
        section_contexts: list[dict[str, Any]] = []
        entry_ids = [new_id() for _ in doc.references]
        entry_by_key = {ref.key: entry_id for ref, entry_id in zip(doc.references, entry_ids, strict=True) if ref.key}
        citation_rows: list[dict[str, Any]] = []
        page = _page_of(doc)
        for index, section in enumerate(doc.sections):
            drafts = self._splitter(section, counter) if contexts is None else contexts[index]
            pages = [block.page for block in section.blocks]
            section_rows.append(
                {
                    "id": section_ids[index],
                    "section_number": section.number,
                    "section_title": section.title,
                    "level": section.level,
                    "parent_id": None if section.parent is None else section_ids[section.parent],
                    "num_tokens": sum(draft.num_tokens for draft in drafts),
                    "page_start": page(section.page_start if section.page_start is not None else min(pages, default=None)),
                    "page_end": page(section.page_end if section.page_end is not None else max(pages, default=None)),
                }
            )
            for position, draft in enumerate(drafts):
                context_id = new_id()
                context_rows.append(
                    {
                        "id": context_id,
                        "text": draft.text,
                        "section_title": section.title,
                        "section_number": section.number,
                        "num_tokens": draft.num_tokens,
                        "page_number": page(draft.page_number),
                        "stop_reason": draft.stop_reason,
                        "kind": draft.kind,
                    }
                )
                section_contexts.append({"section_id": section_ids[index], "context_id": context_id, "position": position})
            first = len(context_rows) - len(drafts)
            for span in citation_spans.locate(section, [draft.text for draft in drafts]):
                citation_rows += [
                    {
                        "context_id": context_rows[first + span.context]["id"],
                        "bib_entry_id": entry_by_key[key],
                        "char_start": span.start,
                        "char_end": span.end,
                    }
                    for key in dict.fromkeys(span.keys)
                    if key in entry_by_key
                ]

        provenance = {**doc.provenance, "contexts": f"{counter.name} window {counter.window}"}
        article = {
            "id": article_id,
            "title": doc.title,
            "authors": _json([asdict(author) for author in doc.authors]),
            "date_published": doc.date_published,
            "journal": doc.journal,
            "doi": None if doc.doi is None else normalize_doi(doc.doi),
            "arxiv_id": arxiv_ids.find(doc.arxiv_id),
            "title_key": references.title_key(doc.title),
            "abstract": doc.abstract,
            "num_tokens": sum(row["num_tokens"] for row in context_rows),
            "pages": doc.pages,
            "source_uri": source_uri,
            "sha256": sha256,
            "parser": doc.parser,
            "provenance": _json(provenance),
            "warnings": _json(doc.warnings),
            "coverage": doc.coverage,
            "ocr_pages": _json(doc.ocr_pages) if doc.ocr_pages else None,
            "created_at": _now(),
        }

        def section_id(index: int | None) -> str | None:
            return None if index is None else section_ids[index]

        def part_provenance(part: str) -> str:
            return doc.provenance.get(part, doc.parser)

        with self.db.atomic():
            self._insert("articles", [article])
            self._insert("sections", section_rows)
            self._insert(
                "article_sections",
                [{"article_id": article_id, "section_id": sid, "position": position} for position, sid in enumerate(section_ids)],
            )
            self._insert("contexts", context_rows)
            self._insert("sections_contexts", section_contexts)
            if vectors is not None:
                self._insert_vectors(vectors, [row["id"] for row in context_rows])
            self._insert(
                "bib_entries",
                [
                    {
                        "id": entry_ids[position],
                        "article_id": article_id,
                        "position": position,
                        "raw": ref.raw,
                        "title": ref.title,
                        "authors": _json(ref.authors),
                        "year": ref.year,
                        "doi": None if ref.doi is None else normalize_doi(ref.doi),
                        "venue": ref.venue,
                        "key": ref.key,
                        "arxiv_id": arxiv_ids.find(ref.arxiv_id) or references.arxiv_id(ref.raw),
                        "title_key": references.title_key(ref.title),
                    }
                    for position, ref in enumerate(doc.references)
                ],
            )
            self._insert("citations", citation_rows)
            references.resolve_article(self.db.conn, article_id)
            self._insert(
                "tables",
                [
                    {
                        "id": new_id(),
                        "article_id": article_id,
                        "section_id": section_id(table.section),
                        "label": table.label,
                        "caption": table.caption,
                        "cells": _json(table.cells),
                        "markdown": table.markdown,
                        "page": page(table.page),
                        "bbox": _bbox(table.bbox),
                        "provenance": table.provenance or part_provenance("tables"),
                    }
                    for table in doc.tables
                ],
            )
            self._insert(
                "formulas",
                [
                    {
                        "id": new_id(),
                        "article_id": article_id,
                        "section_id": section_id(formula.section),
                        "label": formula.label,
                        "text": formula.text,
                        "latex": formula.latex,
                        "page": page(formula.page),
                        "bbox": _bbox(formula.bbox),
                        "provenance": formula.provenance or part_provenance("formulas"),
                    }
                    for formula in doc.formulas
                ],
            )
            self._insert(
                "figures",
                [
                    {
                        "id": new_id(),
                        "article_id": article_id,
                        "section_id": section_id(figure.section),
                        "label": figure.label,
                        "caption": figure.caption,
                        "page": page(figure.page),
                        "bbox": _bbox(figure.bbox),
                        "provenance": figure.provenance or part_provenance("figures"),
                    }
                    for figure in doc.figures
                ],
            )
        return article_id

    def _insert_vectors(self, vectors: db_vectors.ContextVectors, context_ids: list[str]) -> None:
        embedder = db_vectors.ensure_embedder(self.db.conn, vectors.embedder, vectors.dimension, vectors.window)
        db_vectors.insert_vectors(self.db.conn, embedder, context_ids, vectors.vectors)

    def add_vectors(self, vectors: db_vectors.ContextVectors, context_ids: Sequence[str]) -> None:
        """Store vectors for contexts already in the corpus, in one transaction."""
        with self.db.atomic():
            self._insert_vectors(vectors, list(context_ids))

    def _insert(self, table: str, rows: Iterable[dict[str, Any]]) -> None:
        self.db.table(table).insert_all(rows)

    def record(
        self,
        source_uri: str,
        sha256: str | None,
        status: IngestStatus,
        error: str | None = None,
        article_id: str | None = None,
        pages: int | None = None,
        seconds: float | None = None,
        etag: str | None = None,
    ) -> None:
        """Log the outcome of one attempt at ``source_uri``, replacing its previous outcome,
        except that a ``done`` row is never replaced by ``skipped`` for the same bytes (a
        second run that finds the article stored must not hide that it was ingested).

        ``attempts`` counts every call for that source, whatever the status.
        """
        if status not in INGEST_STATUSES:
            raise ValueError(f"unknown ingest status {status!r}; expected one of {INGEST_STATUSES}")
        with self.db.atomic():
            self.db.execute(
                """
                INSERT INTO ingest_log
                    (source_uri, sha256, status, error, attempts, article_id, pages, seconds, updated_at, etag)
                VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?)
                ON CONFLICT (source_uri) DO UPDATE SET
                    sha256 = excluded.sha256,
                    status = excluded.status,
                    error = excluded.error,
                    attempts = ingest_log.attempts + 1,
                    article_id = excluded.article_id,
                    pages = excluded.pages,
                    seconds = excluded.seconds,
                    updated_at = excluded.updated_at,
                    etag = excluded.etag
                WHERE NOT (ingest_log.status = 'done' AND excluded.status = 'skipped' AND ingest_log.sha256 IS excluded.sha256)
                """,
                [source_uri, sha256, status, error, article_id, pages, seconds, _now(), etag],
            )

    def store(
        self,
        doc: Document,
        *,
        source_uri: str,
        sha256: str,
        etag: str | None = None,
        seconds: float | None = None,
        contexts: Sequence[Sequence[ContextDraft]] | None = None,
        vectors: db_vectors.ContextVectors | None = None,
    ) -> str:
        """Store ``doc`` (with its context vectors) and its ``done`` log row in ONE transaction: a crash at any moment
        leaves either both or neither, so a re-run neither loses nor repeats the article.

        Another process writing to the corpus (``embed``, ``distill``) is waited for: a locked
        database is tried again with backoff, and raises :class:`ServiceUnavailable` (which a
        re-run retries) only when it stays locked for about a minute."""
        delay = 0.5
        for attempt in range(LOCK_RETRIES + 1):
            try:
                with self.db.atomic():
                    article_id = self.add_document(doc, source_uri=source_uri, sha256=sha256, contexts=contexts, vectors=vectors)
                    self.record(source_uri, sha256, "done", article_id=article_id, pages=doc.pages, seconds=seconds, etag=etag)
                return article_id
            except db_sqlite.OperationalError as exc:
                if not is_locked(exc):
                    raise
                if attempt == LOCK_RETRIES:
                    raise ServiceUnavailable(f"the corpus {self.path} stayed locked by another writer: {exc}") from exc
                log.warning("the corpus is locked by another writer; trying again in %.1f s", delay)
                time.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")

    def source_of(self, article_id: str) -> str | None:
        """The input an article was stored from (its ``source_uri``), or None."""
        row = self.db.execute("SELECT source_uri FROM articles WHERE id = ?", [article_id]).fetchone()
        return None if row is None else row[0]

    def logged(self, source_uri: str) -> tuple[str, str | None, str | None, str | None] | None:
        """The last outcome logged for ``source_uri``: (status, sha256, etag, error), or None."""
        row = self.db.execute("SELECT status, sha256, etag, error FROM ingest_log WHERE source_uri = ?", [source_uri]).fetchone()
        return None if row is None else (row[0], row[1], row[2], row[3])

    def status_counts(self) -> dict[str, int]:
        """Sources in the ingest log by status, e.g. ``{"done": 10, "failed": 1, "skipped": 0}``."""
        counts: dict[str, int] = dict.fromkeys(INGEST_STATUSES, 0)
        for status, count in self.db.execute("SELECT status, count(*) FROM ingest_log GROUP BY status"):
            counts[status] = count
        return counts


def _check_indices(doc: Document) -> None:
    """Fail before writing anything if an index in ``doc`` points nowhere."""
    count = len(doc.sections)
    for index, section in enumerate(doc.sections):
        if section.parent is not None and not 0 <= section.parent < index:
            raise ValueError(f"section {index} ({section.title!r}) has parent {section.parent}; a parent must be an earlier section")
    parts: list[tuple[str, int | None]] = [
        *(("table", table.section) for table in doc.tables),
        *(("formula", formula.section) for formula in doc.formulas),
        *(("figure", figure.section) for figure in doc.figures),
    ]
    for kind, part_section in parts:
        if part_section is not None and not 0 <= part_section < count:
            raise ValueError(f"a {kind} points at section {part_section}, but the document has {count} sections")


def _page_of(doc: Document) -> Callable[[int | None], int | None]:
    """How a page number is stored: as given, or NULL for a document without pages
    (:attr:`Document.paged` false: JATS read without its PDF, whose parser puts every part on page 1)."""
    if doc.paged:
        return lambda page: page
    return lambda page: None


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _bbox(bbox: tuple[float, float, float, float] | None) -> str | None:
    return None if bbox is None else _json(list(bbox))


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


__all__ = [
    "INGEST_STATUSES",
    "CorpusWriter",
    "DuplicateArticle",
    "IngestStatus",
    "Splitter",
    "connect",
    "new_id",
    "normalize_doi",
    "writer_lock",
]
