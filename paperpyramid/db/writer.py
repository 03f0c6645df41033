"""The single writer: stores each parsed document as one article, in one transaction.

Workers parse; only the main process writes, through one :class:`CorpusWriter` and one
connection. ``add_document`` either stores everything about an article (its row, sections,
contexts, reading order, bibliography, tables, formulas, figures, MeSH headings) or, on any
failure, nothing; a document that is another version or source of a stored article (by PMID,
PMCID or DOI: :mod:`paperpyramid.db.merging`) updates that article under its id.
``delete_pmids`` removes articles; ``record`` keeps the ingest log, so a rerun knows what is
done and what failed. ``store`` stores one document with its log row in one transaction;
``store_many``, the bulk path ingest takes, a batch of them in one.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, TypeVar

import sqlite_utils

from paperpyramid.contexts import ContextDraft, split_section
from paperpyramid.db import batch_store, lexical_index, merging, references, removal
from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.article_rows import ArticleRows, Splitter, article_rows, new_id, normalize_doi, now
from paperpyramid.db.pyramid import delete_pyramid
from paperpyramid.db.schema import PYRAMID_LEVELS, migrate
from paperpyramid.document import Document
from paperpyramid.errors import ConfigurationError, NotACorpus, ServiceUnavailable
from paperpyramid.normalise import normalise_document
from paperpyramid.text_clean import clean_document
from paperpyramid.tokens import TokenCounter

log = logging.getLogger(__name__)

IngestStatus = Literal["done", "failed", "skipped"]
INGEST_STATUSES: tuple[IngestStatus, ...] = ("done", "failed", "skipped")

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class ArticleInput:
    """A document for :meth:`CorpusWriter.store_many`, with what its ``done`` log row says and
    what :meth:`CorpusWriter.add_document` takes with it (its ``contexts``, ``vectors``, and
    whether it is ``normalised`` already)."""

    doc: Document
    source_uri: str
    sha256: str
    etag: str | None = None
    seconds: float | None = None
    contexts: Sequence[Sequence[ContextDraft]] | None = None
    vectors: db_vectors.ContextVectors | None = None
    normalised: bool = False


class DuplicateArticle(ValueError):
    """A document with this sha256 is already stored; ``article_id`` names it."""

    def __init__(self, sha256: str, article_id: str) -> None:
        super().__init__(f"a document with sha256 {sha256} is already stored as article {article_id}")
        self.sha256 = sha256
        self.article_id = article_id


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


#: the writer's page cache (KiB; SQLite's default is 2,000): a vec0 table writes each vector into
#: a chunk (of 128 vectors, 1,024 in tables made before) that must stay cached, and the B-trees of a large corpus go on top. At 1,500
#: full-size articles storing one takes ~60% less time with it than with the default.
WRITER_CACHE_KIB = 131_072

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
    """Open (creating if need be) a corpus for writing: WAL, foreign keys on, migrated, its FTS5
    indexes buffering a batch's terms (:func:`~paperpyramid.db.lexical_index.set_pending_bytes`); a
    file that is not a corpus is refused (:func:`check_corpus_file`) before anything is written."""
    check_corpus_file(path)
    db = sqlite_utils.Database(db_sqlite.connect(path))
    try:
        db.enable_wal()
        db.execute("PRAGMA synchronous = NORMAL")  # safe under WAL; a power cut loses only the last commits
        db.execute(f"PRAGMA cache_size = -{WRITER_CACHE_KIB}")
        migrate(db)  # before foreign keys: a migration copies rows as they are, a merge's orphans too
        db.execute("PRAGMA foreign_keys = ON")
        with db.atomic():
            lexical_index.set_pending_bytes(db.conn, ("contexts", *PYRAMID_LEVELS))
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
        #: within :meth:`store_many`: the newest context rowid already in the FTS5 index
        self._fts_pending: int | None = None

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
        """The id of the article stored from a file with this sha256, or that took those bytes in
        (an older version it replaced, a PubMed record joined to it); else ``None``."""
        row = self.db.execute("SELECT id FROM articles WHERE sha256 = ?", [sha256]).fetchone()
        if row is None:
            row = self.db.execute("SELECT article_id FROM merged_sources WHERE sha256 = ?", [sha256]).fetchone()
        return None if row is None else str(row[0])

    def add_document(
        self,
        doc: Document,
        *,
        source_uri: str,
        sha256: str,
        contexts: Sequence[Sequence[ContextDraft]] | None = None,
        vectors: db_vectors.ContextVectors | None = None,
        normalised: bool = False,
    ) -> str:
        """Store ``doc`` and return its article's id: a new article, or one already stored that
        ``doc`` is another version or source of (:mod:`paperpyramid.db.merging`), under the same id.

        - A newer version (a PubMed record with the PMID of a stored record, a full text with the
          PMID or PMCID of a stored full text) and a full text whose PubMed record is stored
          replace the stored article's content: sections, contexts and their vectors, references,
          tables, formulas, figures, MeSH headings. Its pyramid stays when the contexts' text is
          the same, and is dropped (to be distilled again) when it changed. A full text keeps what
          only the record knew (:func:`~paperpyramid.db.merging.fill_from`). The stored sha256
          goes to ``merged_sources``, so those bytes are known (:meth:`has_sha256`) and skipped.
        - A PubMed record whose full text is stored only adds its indexing to it (MeSH,
          publication types, keywords, identifiers, language).

        Everything is written in one transaction: if any part fails the database is left as
        it was. Raises :class:`DuplicateArticle` when the sha256 is already stored and
        ``ValueError`` when the document's indices (section parents, the section of a
        table, formula or figure) do not point at an earlier section.

        ``contexts``, one list per section, are contexts already cut (say in a worker
        process, with the same kind of counter); by default the writer cuts them itself.
        ``vectors``, one per context in storage order, are stored in the same transaction.
        ``normalised``: ``doc`` came through :func:`~paperpyramid.normalise.normalise_document`
        (the parsers' output boundary, where ingest's workers clean every text) and ``contexts``
        were cut from it, so its text is not cleaned a second time here; by default it is, so
        that no control character nor a date in another form is stored whoever calls.
        """
        existing = self.has_sha256(sha256)
        if existing is not None:
            raise DuplicateArticle(sha256, existing)
        doc, contexts = _ready(doc, contexts, normalised=normalised)
        stored = merging.find_stored(self.db.conn, doc)
        if stored is not None and merging.is_record(doc.provenance) and not stored.record:
            with self.db.atomic():
                self._add_record_terms(stored, doc, source_uri=source_uri, sha256=sha256)
            return stored.id
        if stored is not None and not merging.is_record(doc.provenance):
            doc = merging.fill_from(doc, stored)
        rows = article_rows(doc, article_id=stored.id if stored else new_id(), source_uri=source_uri, sha256=sha256, counter=self.counter,
                            splitter=self._splitter, contexts=contexts)  # fmt: skip
        with self.db.atomic():
            kept = False
            if stored is None:
                self._insert("articles", [rows.article])
            else:
                kept = self._clear(stored, rows)
            self._insert("sections", rows.sections)
            self._insert("article_sections", rows.article_sections)
            if kept:
                self._rewrite_contexts(rows.contexts)
            else:
                self._insert("contexts", rows.contexts)
            self._insert("sections_contexts", rows.sections_contexts)
            if vectors is not None:
                self._insert_vectors(vectors, [row["id"] for row in rows.contexts], only_missing=kept)
            self._insert("bib_entries", rows.bib_entries)
            self._insert("citations", rows.citations)
            references.resolve_article(self.db.conn, rows.id)
            for table in ("tables", "formulas", "figures", "mesh_terms"):
                self._insert(table, getattr(rows, table))
        return rows.id

    def _clear(self, stored: merging.StoredArticle, rows: ArticleRows) -> bool:
        """Make way for ``rows``, the new version of ``stored`` (in the caller's transaction): the
        stored content goes, the article's row takes the new values, the stored sha256 is kept
        in ``merged_sources``. True when the contexts' text is unchanged: they, their vectors and
        the pyramid stay, under their ids (``rows`` takes them)."""
        conn = self.db.conn
        self._index_new_contexts()  # the delete and update triggers need every stored context indexed
        same = removal.article_context_texts(conn, stored.id) == [row["text"] for row in rows.contexts]
        if not same:
            delete_pyramid(conn, stored.id)
            conn.execute("DELETE FROM distillations WHERE article_id = ?", [stored.id])
        kept_ids = removal.delete_content(conn, stored.id, keep_contexts=same)
        if self._fts_pending is not None:  # every context left is indexed; new ones may take the removed ones' rowids
            self._fts_pending = self._newest_context()
        if same:
            rows.take_context_ids(kept_ids)
        values = {name: value for name, value in rows.article.items() if name not in ("id", "created_at")}
        conn.execute(f"UPDATE articles SET {', '.join(f'{name} = ?' for name in values)} WHERE id = ?", [*values.values(), stored.id])
        self._merged(stored.sha256, stored.id, stored.source_uri)
        return same

    def _rewrite_contexts(self, contexts: list[dict[str, Any]]) -> None:
        """Give kept contexts (same ids, same text) their new sections' titles, pages and kinds."""
        columns = ("section_title", "section_number", "num_tokens", "page_number", "stop_reason", "kind")
        titles = dict(self.db.execute("SELECT id, section_title FROM contexts WHERE id IN (SELECT value FROM json_each(?))",
                                      [json.dumps([row["id"] for row in contexts])]).fetchall())  # fmt: skip
        if any(titles.get(row["id"]) != row["section_title"] for row in contexts):
            lexical_index.invalidate(self.db.conn)  # the titles are indexed beside the text
        self.db.conn.executemany(
            f"UPDATE contexts SET {', '.join(f'{name} = ?' for name in columns)} WHERE id = ?",
            [[*(row[name] for name in columns), row["id"]] for row in contexts],
        )

    def _add_record_terms(self, stored: merging.StoredArticle, doc: Document, *, source_uri: str, sha256: str) -> None:
        """Add what the PubMed record ``doc`` knows to the full-text article ``stored``."""
        changes = merging.record_terms(doc, stored)
        mesh = changes.pop("mesh", None)
        if changes:
            self.db.conn.execute(f"UPDATE articles SET {', '.join(f'{name} = ?' for name in changes)} WHERE id = ?",
                                 [*changes.values(), stored.id])  # fmt: skip
        if mesh is not None:
            self.db.conn.execute("DELETE FROM mesh_terms WHERE article_id = ?", [stored.id])
            self._insert("mesh_terms", merging.mesh_rows(stored.id, mesh))
        if changes.get("doi"):
            references.resolve_article(self.db.conn, stored.id)
        self._merged(sha256, stored.id, source_uri)

    def _merged(self, sha256: str, article_id: str, source_uri: str | None) -> None:
        self.db.conn.execute("INSERT OR IGNORE INTO merged_sources (sha256, article_id, source_uri, merged_at) VALUES (?, ?, ?, ?)",
                             [sha256, article_id, source_uri, now()])  # fmt: skip

    def delete_pmids(self, pmids: Iterable[str]) -> int:
        """Remove the articles with these PMIDs (a ``<DeleteCitation>`` of a PubMed update file),
        with every row that is theirs: sections, contexts and their vectors and index entries,
        references, tables, MeSH headings, their pyramid (:func:`~paperpyramid.db.removal.delete_articles`),
        in one transaction; how many were removed. Unknown PMIDs are ignored. A locked corpus is
        waited for as :meth:`store` waits."""
        wanted = sorted({pmid for pmid in (merging.normalize_pmid(given) for given in pmids) if pmid})

        def delete() -> int:
            with self.db.atomic():
                ids = [str(row[0]) for row in self.db.execute("SELECT id FROM articles WHERE pmid IN (SELECT value FROM json_each(?))",
                                                              [json.dumps(wanted)])]  # fmt: skip
                return removal.delete_articles(self.db.conn, ids)

        return self._retrying(delete) if wanted else 0

    def _insert_vectors(self, vectors: db_vectors.ContextVectors, context_ids: list[str], *, only_missing: bool = False) -> None:
        """Store one vector per context; ``only_missing``: only for the contexts without one from
        this model (kept contexts, whose text did not change, keep theirs)."""
        embedder = db_vectors.ensure_embedder(self.db.conn, vectors.embedder, vectors.dimension, vectors.window, vectors.storage)
        matrix = vectors.vectors
        if only_missing:
            present = db_vectors.with_vectors(self.db.conn, embedder, context_ids)
            wanted = [index for index, context_id in enumerate(context_ids) if context_id not in present]
            context_ids, matrix = [context_ids[index] for index in wanted], matrix[wanted]
        db_vectors.insert_vectors(self.db.conn, embedder, context_ids, matrix)

    def add_vectors(self, vectors: db_vectors.ContextVectors, context_ids: Sequence[str]) -> None:
        """Store vectors for contexts already in the corpus, in one transaction."""
        with self.db.atomic():
            self._insert_vectors(vectors, list(context_ids))

    def _insert(self, table: str, rows: Sequence[dict[str, Any]]) -> None:
        """Insert rows built by :mod:`~paperpyramid.db.article_rows` (JSON already encoded) in
        one ``executemany``; a column a row lacks is NULL."""
        batch_store.insert_rows(self.db.conn, table, rows)

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
            self.db.execute(batch_store.LOG_OUTCOME, [source_uri, sha256, status, error, article_id, pages, seconds, now(), etag])

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
        normalised: bool = False,
    ) -> str:
        """Store ``doc`` (with its context vectors) and its ``done`` log row in ONE transaction: a crash at any moment
        leaves either both or neither, so a re-run neither loses nor repeats the article.
        ``normalised`` as for :meth:`add_document`.

        Another process writing to the corpus (``embed``, ``distill``) is waited for: a locked
        database is tried again with backoff, and raises :class:`ServiceUnavailable` (which a
        re-run retries) only when it stays locked for about a minute."""

        def store_one() -> str:
            with self.db.atomic():
                article_id = self.add_document(doc, source_uri=source_uri, sha256=sha256, contexts=contexts, vectors=vectors,
                                               normalised=normalised)  # fmt: skip
                self.record(source_uri, sha256, "done", article_id=article_id, pages=doc.pages, seconds=seconds, etag=etag)
            return article_id

        return self._retrying(store_one)

    def store_many(self, articles: Sequence[ArticleInput]) -> list[str | Exception]:
        """Store a batch of documents, each with its ``done`` log row, in ONE transaction; one
        outcome per document, in order: its article's id, or the exception that kept it out
        (:class:`DuplicateArticle` for bytes already stored, a bad document's ``ValueError``, ...),
        which left nothing of it behind and which the caller logs.

        Each document is stored as :meth:`store` would store it, in order, so a document sees
        the ones before it in the batch (a twin, a newer version) and one that fails takes
        nothing else with it; the new articles among them go in table by table
        (:meth:`_store_batch`). A crash at any moment leaves the whole batch stored and logged,
        or none of it: a re-run neither loses nor repeats an article. A corpus locked by another
        writer is waited for as :meth:`store` waits, for the batch."""

        def store_all() -> list[str | Exception]:
            with self.db.atomic(), self._contexts_indexed_per_batch():
                return self._store_batch(articles)

        return self._retrying(store_all) if articles else []

    @contextmanager
    def _contexts_indexed_per_batch(self) -> Iterator[None]:
        """Inside the caller's transaction: the contexts inserted in the block reach the FTS5
        index in one ``INSERT ... SELECT`` at its end (or before a stored context is removed or
        rewritten: :meth:`_index_new_contexts`), not one trigger call per row
        (:func:`~paperpyramid.db.lexical_index.insert_trigger_dropped`)."""
        if self._fts_pending is not None:
            yield
            return
        with lexical_index.insert_trigger_dropped(self.db.conn, "contexts") as dropped:
            if not dropped:
                yield
                return
            self._fts_pending = self._newest_context()
            try:
                yield
                self._index_new_contexts()
            finally:
                self._fts_pending = None

    def _index_new_contexts(self) -> None:
        """Index in FTS5 the contexts inserted since the last call (the insert trigger's work,
        deferred by :meth:`_contexts_indexed_per_batch`); nothing outside such a block."""
        if self._fts_pending is None:
            return
        self._fts_pending = lexical_index.index_added_rows(self.db.conn, "contexts", self._fts_pending)

    def _newest_context(self) -> int:
        return lexical_index.newest_rowid(self.db.conn, "contexts")

    def _store_batch(self, articles: Sequence[ArticleInput]) -> list[str | Exception]:
        """The batch's outcomes, in order (in the caller's transaction). A document whose bytes or
        identifiers the file or an earlier document of the batch has may be a twin or a version
        of a stored article: the new articles before it are stored (:meth:`_store_new`), then it,
        alone, in its savepoint (:meth:`_store_in_batch`). The others are new articles, checked
        and made into rows here, and stored together."""
        ready: list[tuple[Document, Sequence[Sequence[ContextDraft]] | None] | Exception] = []
        for article in articles:
            try:
                ready.append(_ready(article.doc, article.contexts, normalised=article.normalised))
            except Exception as exc:  # a bad document: what storing it alone raises, before it sees the file
                ready.append(exc)
        docs = [given[0] for given in ready if not isinstance(given, Exception)]
        known, stored_ids = batch_store.stored_keys(self.db.conn, [article.sha256 for article in articles], docs)
        outcomes: list[str | Exception] = []
        waiting: list[tuple[int, ArticleInput, batch_store.NewArticle]] = []
        for article, given in zip(articles, ready, strict=True):
            ids = [] if isinstance(given, Exception) else batch_store.identifiers(given[0])
            alone = article.sha256 in known or any(key in stored_ids for key in ids)
            known.add(article.sha256)
            stored_ids.update(ids)  # a later document with these may be a twin or a version of this one
            outcome = None if alone else given if isinstance(given, Exception) else self._new_article(article, *given)
            if isinstance(outcome, batch_store.NewArticle):
                waiting.append((len(outcomes), article, outcome))
                outcomes.append(outcome.rows.id)
            elif isinstance(outcome, Exception):
                outcomes.append(outcome)
            else:
                self._store_new(waiting, outcomes)
                outcomes.append(self._store_in_batch(article))
        self._store_new(waiting, outcomes)
        return outcomes

    def _new_article(
        self, article: ArticleInput, doc: Document, contexts: Sequence[Sequence[ContextDraft]] | None
    ) -> batch_store.NewArticle | Exception | None:
        """``doc``'s rows as a new article, or what kept them from being made; None when its
        vectors do not fit its contexts (storing it alone says why)."""
        try:
            rows = article_rows(doc, article_id=new_id(), source_uri=article.source_uri, sha256=article.sha256, counter=self.counter,
                                splitter=self._splitter, contexts=contexts)  # fmt: skip
        except Exception as exc:  # a bad document, as for ``_ready``
            return exc
        if article.vectors is not None and len(article.vectors.vectors) != len(rows.contexts):
            return None
        return batch_store.NewArticle(rows, article.vectors, article.source_uri, article.sha256, doc.pages, article.seconds, article.etag)

    def _store_new(self, waiting: list[tuple[int, ArticleInput, batch_store.NewArticle]], outcomes: list[str | Exception]) -> None:
        """Store the new articles waiting, table by table, with their references resolved and their
        log rows, in one savepoint, and set their outcomes. Should that fail (a cause no check
        before saw, which no one document is known to have), they are stored one at a time."""
        batch, waiting[:] = list(waiting), []
        if not batch:
            return
        new = [article for _, _, article in batch]
        try:
            with self.db.atomic():
                batch_store.insert_articles(self.db.conn, new)
                references.resolve_batch(self.db.conn, [article.rows.id for article in new])
                batch_store.log_done(self.db.conn, new)
        except Exception as exc:
            if not self.db.conn.in_transaction or (isinstance(exc, db_sqlite.OperationalError) and is_locked(exc)):
                raise  # as in _store_in_batch
            log.warning("storing %d new articles together failed (%s); storing them one at a time", len(batch), exc)
            for index, article, _ in batch:
                outcomes[index] = self._store_in_batch(article)
            return
        for index, _, stored in batch:
            outcomes[index] = stored.rows.id

    def _store_in_batch(self, article: ArticleInput) -> str | Exception:
        indexed = self._fts_pending  # a failure rolls the FTS5 index back to this too
        try:
            with self.db.atomic():
                article_id = self.add_document(article.doc, source_uri=article.source_uri, sha256=article.sha256, contexts=article.contexts,
                                               vectors=article.vectors, normalised=article.normalised)  # fmt: skip
                self.record(article.source_uri, article.sha256, "done", article_id=article_id, pages=article.doc.pages,
                            seconds=article.seconds, etag=article.etag)  # fmt: skip
        except Exception as exc:  # this document's failure, rolled back to its savepoint; the caller logs it
            if not self.db.conn.in_transaction or (isinstance(exc, db_sqlite.OperationalError) and is_locked(exc)):
                raise  # SQLite rolled the whole batch back (an I/O error), or the batch waits for a lock and is tried again
            self._fts_pending = indexed
            return exc
        return article_id

    def _retrying(self, work: Callable[[], T]) -> T:
        """``work()``, tried again with backoff while another writer holds the database's lock;
        :class:`ServiceUnavailable` when it stays locked for about a minute."""
        delay = 0.5
        for attempt in range(LOCK_RETRIES + 1):
            try:
                return work()
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


def _ready(
    doc: Document, contexts: Sequence[Sequence[ContextDraft]] | None, *, normalised: bool
) -> tuple[Document, Sequence[Sequence[ContextDraft]] | None]:
    """``doc`` and its ``contexts`` as they are stored: its indices checked, its text cleaned
    unless ``normalised``, its identifiers normalised; ``ValueError`` for a bad document."""
    _check_indices(doc)
    if not normalised:
        doc = normalise_document(doc)
        contexts = None if contexts is None else clean_document([list(drafts) for drafts in contexts])
    doc = _identified(doc)
    if contexts is not None and len(contexts) != len(doc.sections):
        raise ValueError(f"{len(contexts)} lists of contexts for {len(doc.sections)} sections")
    return doc, contexts


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


def _identified(doc: Document) -> Document:
    """``doc`` with its identifiers as they are stored and matched: a DOI without its resolver,
    a PMID as digits, a PMCID as ``PMC`` and digits."""
    doi = None if doc.doi is None else normalize_doi(doc.doi) or None
    pmid, pmcid = merging.normalize_pmid(doc.pmid), merging.normalize_pmcid(doc.pmcid)
    if (doi, pmid, pmcid) == (doc.doi, doc.pmid, doc.pmcid):
        return doc
    return replace(doc, doi=doi, pmid=pmid, pmcid=pmcid)


__all__ = [
    "INGEST_STATUSES",
    "ArticleInput",
    "CorpusWriter",
    "DuplicateArticle",
    "IngestStatus",
    "Splitter",
    "connect",
    "new_id",
    "normalize_doi",
    "writer_lock",
]
