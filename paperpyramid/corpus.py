"""Reading a corpus: articles, their sections in order, contexts, neighbours and search.

``Corpus.open(path)`` opens the file read-only, so any number of readers can run beside the
one writer (the corpus is in WAL mode). Whoever wrote the file, it is read as untrusted: it must
have the corpus schema (no view where a table should be, no trigger or virtual table a corpus
has not), and every statement's time inside SQLite is bounded. Rows come back as small frozen
dataclasses. Methods that take an id raise ``KeyError`` naming the id when it is not in the corpus.

The navigation methods (``search``, ``next_section``, ``previous_section``,
``parent_contexts``) are also the tools an LLM is given to walk a paper; their docstrings
are written for it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse
from urllib.request import url2pathname

from paperpyramid import citation_graph
from paperpyramid.article_parts import (
    Figure,
    Formula,
    Reference,
    SectionNode,
    Table,
    read_figures,
    read_formulas,
    read_references,
    read_tables,
    section_tree,
)
from paperpyramid.citation_graph import CitationLink
from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.schema import SCHEMA_VERSION
from paperpyramid.db.snapshot_schema import schema_problem
from paperpyramid.db.writer import normalize_doi
from paperpyramid.document import Author
from paperpyramid.errors import NotACorpus
from paperpyramid.retrieval import SearchHit
from paperpyramid.retrieval.api import RetrievalOptions, retrieve
from paperpyramid.retrieval.filters import Filters

if TYPE_CHECKING:
    from paperpyramid.embeddings import Embedder
    from paperpyramid.llm import LLM
    from paperpyramid.retrieval.answer import Answer
    from paperpyramid.retrieval.trace import Found, Limits, Step
    from paperpyramid.settings import EmbeddingSettings, Settings


@dataclass(frozen=True, slots=True)
class Article:
    """An article's metadata: ``title``, ``authors``, ``doi``, ``abstract``, ``date_published`` (as
    printed), ``journal``, ``pages``, ``num_tokens`` of its contexts, the ``parser`` that read it,
    where it came from (``source_uri``, ``sha256``), ``provenance`` (which backend produced each
    part), the parser's ``warnings`` and ``coverage``: the share of the PDF text layer's words the
    article holds (None where it was not measured), ``ocr_pages``: the pages read by OCR, and its
    ``arxiv_id`` where its source or name gave one."""

    id: str
    title: str | None
    authors: tuple[Author, ...]
    doi: str | None
    abstract: str | None
    date_published: str | None
    journal: str | None
    pages: int | None
    num_tokens: int
    parser: str | None
    source_uri: str | None
    sha256: str
    created_at: str
    provenance: dict[str, str]
    warnings: tuple[str, ...]
    coverage: float | None = None
    ocr_pages: tuple[int, ...] = ()
    arxiv_id: str | None = None


@dataclass(frozen=True, slots=True)
class SectionRow:
    """A section: ``number`` as printed ("2.1"; ``"ref"`` for the references), ``title``,
    ``level`` (1 for the top), ``parent_id`` (None at the top), ``position`` its place in the
    article's reading order (from 0), its pages and its tokens. ``Corpus.section_tree`` nests them."""

    id: str
    article_id: str
    position: int
    number: str | None
    title: str | None
    level: int
    parent_id: str | None
    num_tokens: int
    page_start: int | None
    page_end: int | None


@dataclass(frozen=True, slots=True)
class ContextRow:
    """A passage (context): ``text`` that fits the embedding model's window, ``position`` its
    place in its section (from 0), ``page_number`` where it starts, ``num_tokens``, ``stop_reason``
    (``Section``: it closes its section; ``Token limit``), ``kind`` (text, table, ...).
    ``section_number`` and ``section_title`` are its section's ``number`` and ``title`` (named for
    the section they belong to, as the stored columns are)."""

    id: str
    article_id: str
    section_id: str
    position: int
    text: str
    section_number: str | None
    section_title: str | None
    num_tokens: int
    page_number: int | None
    stop_reason: str
    kind: str


@dataclass(frozen=True, slots=True)
class IngestLogRow:
    """One input's latest outcome: ``status`` done / failed / skipped, ``error`` the reason."""

    source_uri: str
    sha256: str | None
    status: str
    error: str | None
    attempts: int
    article_id: str | None
    pages: int | None
    seconds: float | None
    updated_at: str


#: Sources that ``Corpus.open`` fetches as snapshots (besides local ``.gz`` files).
_REMOTE_SCHEMES = ("http://", "https://", "s3://")

_ARTICLE_COLUMNS = (
    "id, title, authors, doi, abstract, date_published, journal, pages, num_tokens, parser, "
    "source_uri, sha256, created_at, provenance, warnings, coverage, ocr_pages, arxiv_id"
)
_SECTION_SELECT = """
SELECT s.id, ars.article_id, ars.position, s.section_number, s.section_title, s.level,
       s.parent_id, s.num_tokens, s.page_start, s.page_end
FROM sections AS s JOIN article_sections AS ars ON ars.section_id = s.id
"""
_CONTEXT_SELECT = """
SELECT c.id, ars.article_id, sc.section_id, sc.position, c.text, c.section_number,
       c.section_title, c.num_tokens, c.page_number, c.stop_reason, c.kind
FROM contexts AS c
JOIN sections_contexts AS sc ON sc.context_id = c.id
JOIN article_sections AS ars ON ars.section_id = sc.section_id
"""


class Corpus:
    """A corpus file opened for reading."""

    def __init__(self, conn: db_sqlite.Connection, *, embedder: Embedder | None = None, settings: Settings | None = None) -> None:
        self.conn = conn
        self._embedder = embedder
        self._settings = settings

    @classmethod
    def open(
        cls,
        source: str | Path,
        *,
        manifest_url: str | None = None,
        cache_dir: str | Path | None = None,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        query_time_limit: float = db_sqlite.QUERY_TIME_LIMIT,
        check_same_thread: bool = True,
    ) -> Corpus:
        """Open a corpus read-only: a corpus file, or a snapshot made by ``take_snapshot``.

        A snapshot is an http(s) URL (such as the presigned URL a snapshot comes with), an
        ``s3://bucket/key`` URI (read with ``settings.s3``, by default the ``AWS_*`` variables)
        or a local ``.sqlite.gz`` file. It is downloaded once into ``cache_dir`` (else
        ``$PAPERPYRAMID_CACHE_DIR``, else ``~/.cache/paperpyramid/snapshots``), checked against
        the sha256 in its manifest, and reused from there while it still matches. The manifest
        is read from beside the snapshot, or from ``manifest_url`` (needed with a presigned URL,
        whose signature covers only the snapshot). A copy that does not match its manifest is
        refused with ``SnapshotCorrupt``, and one that does not have the corpus schema (a view
        where a table should be, a trigger or virtual table a corpus has not) or holds a value
        longer than ``settings.snapshot`` allows with ``SnapshotError``.

        A corpus file is checked the same way when it is opened (its schema only: no rows are
        read, so a file damaged past its schema opens, and fails when a query reaches the damage),
        and refused with ``NotACorpus``. Every file is read as untrusted: a statement that spends
        more than ``query_time_limit`` seconds in SQLite is interrupted with an ``OperationalError``.

        ``embedder`` embeds queries for vector and hybrid search; by default the model named in
        ``settings.embedding`` (``PAPERPYRAMID_EMBEDDING__MODEL``, all-MiniLM-L6-v2 unless set),
        loaded on the first query that needs it. ``check_same_thread=False`` lets the corpus pass
        from one thread to another, as a web request's does between the thread that opens it and
        the one that answers; it must still never be used by two threads at once.
        """
        if isinstance(source, str) and source.startswith("file://"):
            source = Path(url2pathname(urlparse(source).path))
        if str(source).startswith(_REMOTE_SCHEMES) or str(source).endswith(".gz"):
            # imported here: the object-store client and settings load only when a snapshot is opened
            from paperpyramid.db.snapshot import fetch_snapshot

            fetched = fetch_snapshot(source, manifest_url=manifest_url, cache_dir=cache_dir, settings=settings)
            # a verified snapshot never changes: immutable skips locking and change detection
            # (its schema was checked, virtual tables and sizes too, before it was cached)
            return cls._open_file(fetched.path, immutable=True, query_time_limit=query_time_limit, check_schema=False, embedder=embedder,
                                  settings=settings, check_same_thread=check_same_thread)
        if manifest_url is not None:
            raise ValueError("manifest_url is for snapshots (.sqlite.gz files and URLs), not a corpus file")
        return cls._open_file(Path(source), query_time_limit=query_time_limit, check_schema=True, embedder=embedder, settings=settings,
                              check_same_thread=check_same_thread)

    @classmethod
    def _open_file(
        cls,
        path: Path,
        *,
        immutable: bool = False,
        query_time_limit: float,
        check_schema: bool,
        embedder: Embedder | None = None,
        settings: Settings | None = None,
        check_same_thread: bool = True,
    ) -> Corpus:
        """``check_schema``: refuse a file without the corpus schema (a snapshot's was checked when fetched)."""
        if not path.is_file():
            raise FileNotFoundError(f"no corpus at {path}")
        conn = db_sqlite.connect(path, read_only=True, immutable=immutable, untrusted=True, query_time_limit=query_time_limit,
                                 check_same_thread=check_same_thread)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            problem = schema_problem(conn, version, probe_virtual_tables=False) if check_schema and version == SCHEMA_VERSION else None
        except db_sqlite.DatabaseError as exc:
            conn.close()
            raise NotACorpus(f"{path} is not a paperpyramid corpus: {exc}") from exc
        if version != SCHEMA_VERSION:
            conn.close()
            state = "is not a paperpyramid corpus" if version == 0 else f"is at schema version {version}"
            raise NotACorpus(
                f"{path} {state}; this paperpyramid reads version {SCHEMA_VERSION} "
                "(opening it with CorpusWriter migrates an older corpus)"
            )
        if problem is not None:
            conn.close()
            raise NotACorpus(f"{path} is not a paperpyramid corpus: {problem}")
        return cls(conn, embedder=embedder, settings=settings)

    def __enter__(self) -> Corpus:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        self.conn.close()

    # articles

    def articles(self) -> Iterator[Article]:
        """Every article, in the order they were stored."""
        for row in self.conn.execute(f"SELECT {_ARTICLE_COLUMNS} FROM articles ORDER BY created_at, rowid"):
            yield _article(row)

    def article(self, id_or_doi: str) -> Article:
        """The article with this id, or else with this DOI (any case, with or without a
        ``https://doi.org/`` or ``doi:`` prefix)."""
        row = self.conn.execute(f"SELECT {_ARTICLE_COLUMNS} FROM articles WHERE id = ?", [id_or_doi]).fetchone()
        if row is None:
            row = self.conn.execute(
                f"SELECT {_ARTICLE_COLUMNS} FROM articles WHERE doi = ? ORDER BY rowid LIMIT 1",
                [normalize_doi(id_or_doi)],
            ).fetchone()
        if row is None:
            raise KeyError(f"no article with id or DOI {id_or_doi!r}")
        return _article(row)

    # sections

    def sections(self, article_id: str) -> list[SectionRow]:
        """The article's sections in reading order (subsections follow their parent)."""
        self._require("articles", article_id)
        rows = self.conn.execute(f"{_SECTION_SELECT} WHERE ars.article_id = ? ORDER BY ars.position", [article_id])
        return [SectionRow(*row) for row in rows]

    def section(self, section_id: str) -> SectionRow:
        """One section by id."""
        row = self.conn.execute(f"{_SECTION_SELECT} WHERE s.id = ?", [section_id]).fetchone()
        if row is None:
            raise KeyError(f"no section with id {section_id!r}")
        return SectionRow(*row)

    def next_section(self, section_id: str) -> SectionRow | None:
        """The section that follows this one in the same paper, or None at the paper's end.

        Call it to keep reading when a section's text stops short of what you need; read
        its text with ``contexts(section.id)``.
        """
        return self._neighbour(section_id, ">", "ASC")

    def previous_section(self, section_id: str) -> SectionRow | None:
        """The section before this one in the same paper, or None at the paper's start.

        Call it when a passage refers back to something defined earlier.
        """
        return self._neighbour(section_id, "<", "DESC")

    def _neighbour(self, section_id: str, compare: str, order: str) -> SectionRow | None:
        here = self.section(section_id)
        row = self.conn.execute(
            f"{_SECTION_SELECT} WHERE ars.article_id = ? AND ars.position {compare} ? ORDER BY ars.position {order} LIMIT 1",
            [here.article_id, here.position],
        ).fetchone()
        return None if row is None else SectionRow(*row)

    def section_tree(self, article_id: str) -> list[SectionNode]:
        """The article's sections as a tree: the top-level sections in reading order, each with
        its subsections (``children``)."""
        return section_tree(self.sections(article_id))

    # what an article holds besides its text

    def references(self, article_id: str) -> list[Reference]:
        """The article's reference list, in the order printed."""
        self._require("articles", article_id)
        return read_references(self.conn, article_id)

    def cites(self, article_id: str, *, in_corpus: bool = False) -> list[CitationLink]:
        """The article's reference entries in printed order, each with the passages that cite it
        (their pages and sentences) and, where it names an article of this corpus, that article
        (``cited_article_id``); with ``in_corpus`` only those. Call it to follow a claim to what
        it rests on."""
        self._require("articles", article_id)
        return citation_graph.cites(self.conn, article_id, in_corpus=in_corpus)

    def cited_by(self, article_id: str) -> list[CitationLink]:
        """The entries of other articles of the corpus that name this one, each with the passages
        citing it: which papers build on it, and what they say of it."""
        self._require("articles", article_id)
        return citation_graph.cited_by(self.conn, article_id)

    def tables(self, article_id: str) -> list[Table]:
        """The article's tables, each as rows of cells and as Markdown, with its caption and page."""
        self._require("articles", article_id)
        return read_tables(self.conn, article_id)

    def formulas(self, article_id: str) -> list[Formula]:
        """The article's display formulas, as text (and LaTeX where a backend produced it)."""
        self._require("articles", article_id)
        return read_formulas(self.conn, article_id)

    def figures(self, article_id: str) -> list[Figure]:
        """The article's figure captions (images are not stored)."""
        self._require("articles", article_id)
        return read_figures(self.conn, article_id)

    # contexts

    def contexts(self, section_id: str) -> list[ContextRow]:
        """The section's contexts (its text, in passages) in reading order."""
        self._require("sections", section_id)
        rows = self.conn.execute(f"{_CONTEXT_SELECT} WHERE sc.section_id = ? ORDER BY sc.position", [section_id])
        return [ContextRow(*row) for row in rows]

    def context(self, context_id: str) -> ContextRow:
        """One context by id."""
        row = self.conn.execute(f"{_CONTEXT_SELECT} WHERE c.id = ?", [context_id]).fetchone()
        if row is None:
            raise KeyError(f"no context with id {context_id!r}")
        return ContextRow(*row)

    def parent_contexts(self, context_id: str, before: int = 2, after: int = 2) -> list[ContextRow]:
        """A passage with its neighbours: the ``before`` passages preceding it and the ``after``
        following it, the passage itself among them (the "parent document" a hit stands in).

        Neighbours are taken in the paper's reading order and may come from the previous or
        next section; fewer come back at the paper's start or end. Call it when a search hit
        is too short to answer from, to read around it.
        """
        if before < 0 or after < 0:
            raise ValueError("before and after must not be negative")
        here = self.context(context_id)
        rows = self.conn.execute(
            f"""
            WITH ordered AS (
                SELECT c.id AS id, ROW_NUMBER() OVER (ORDER BY ars.position, sc.position) AS n
                FROM contexts AS c
                JOIN sections_contexts AS sc ON sc.context_id = c.id
                JOIN article_sections AS ars ON ars.section_id = sc.section_id
                WHERE ars.article_id = :article
            ),
            target AS (SELECT n FROM ordered WHERE id = :context)
            {_CONTEXT_SELECT}
            JOIN ordered ON ordered.id = c.id
            WHERE ordered.n BETWEEN (SELECT n FROM target) - :before AND (SELECT n FROM target) + :after
            ORDER BY ordered.n
            """,
            {"article": here.article_id, "context": context_id, "before": before, "after": after},
        )
        return [ContextRow(*row) for row in rows]

    # search

    @property
    def embedder(self) -> Embedder:
        """The model that embeds queries (loaded on first use)."""
        if self._embedder is None:
            from paperpyramid.embeddings import get_embedder

            self._embedder = get_embedder(self._embedding_settings())
        return self._embedder

    def has_vectors(self) -> bool:
        """Whether this corpus holds vectors from the query embedder's model (known without
        loading the model)."""
        if self._embedder is not None:
            name: str | None = self._embedder.name
        else:
            from paperpyramid.embeddings import configured_name

            name = configured_name(self._embedding_settings())
        return name is not None and db_vectors.find_embedder(self.conn, name) is not None

    def _embedding_settings(self) -> EmbeddingSettings:
        from paperpyramid.settings import Settings

        return (self._settings or Settings()).embedding

    def search(self, query: str, k: int = 10, *, filters: Filters | None = None) -> list[SearchHit]:
        """Search every paper's text and return the ``k`` best passages.

        Uses hybrid search (keywords and meaning) when the corpus has vectors from the query
        embedder's model, else keywords alone (BM25). Each hit carries the passage text, a
        score (higher is better) and a citation: article title and id, section number and
        title, page. Any text is a valid query; quotes and operators are treated as plain
        words. The references section is left out unless ``filters`` asks for it. Call
        ``parent_contexts(hit.context_id)`` to read around a hit.
        """
        return self.retrieve(query, mode=self.best_mode(), k=k, filters=filters)

    def retrieve(
        self,
        query: str,
        *,
        mode: str = "hybrid",
        k: int = 10,
        budget_tokens: int | None = None,
        filters: Filters | None = None,
        options: RetrievalOptions | None = None,
        level: str = "contexts",
    ) -> list[SearchHit]:
        """Passages for ``query``: ``mode`` is ``bm25``, ``vector``, ``hybrid``, ``parent``
        (the 5 best hybrid hits with their neighbours, in reading order) or ``cross`` (contexts
        fused with the distilled insights that drill down to them); at most ``k`` hits
        (``parent``: k does not apply; ``options.parent_hits`` sets the hits), cut at ``budget_tokens``.
        ``level`` searches a level of the knowledge pyramid instead of the contexts
        (``insights``, ``concepts``, ``abstracts``, ``recollections``): each hit is a distilled
        item with its source contexts in ``hit.sources``. See :func:`paperpyramid.retrieval.api.retrieve`.

        ``mode`` may also name an LLM-driven strategy (``multiquery``, ``walk``, ``walkingrag``,
        ``pyramid``): the passages it would hand to the answering model, in order, with the
        configured LLM and its default limits (``k`` does not apply; :meth:`find` gives its
        steps, facts and token usage too)."""
        from paperpyramid.retrieval.strategies import STRATEGIES

        if mode in STRATEGIES:
            return self.find(query, strategy=mode, budget_tokens=budget_tokens, filters=filters).passages
        return retrieve(self.conn, query, mode=mode, k=k, budget_tokens=budget_tokens, filters=filters, embedder=self._query_embedder(mode), options=options, level=level)

    def find(self, question: str, *, strategy: str = "multiquery", budget_tokens: int | None = 4000, filters: Filters | None = None,
             llm: LLM | None = None, on_step: Callable[[Step], None] | None = None, filter_llm: LLM | None = None,
             limits: Limits | None = None) -> Found:
        """The passages an LLM-driven ``strategy`` would hand to the answering model, with the
        facts it gathered and the steps it took (tokens per step): ``multiquery``, ``walk``
        (section by section through a paper), ``walkingrag`` (rounds of partial facts) or
        ``pyramid`` (the search agent over the knowledge pyramid). ``limits`` bounds its steps
        and LLM tokens; ``llm`` defaults to the configured one. See
        :func:`paperpyramid.retrieval.strategies.find`."""
        from paperpyramid.retrieval.strategies import find

        return find(self.conn, strategy, question, llm or self._llm(), budget_tokens=budget_tokens, embedder=self._query_embedder(strategy),
                    filters=filters, limits=limits, on_step=on_step, filter_llm=filter_llm or self._filter_llm(strategy))

    def ask(self, question: str, *, strategy: str = "parent", budget_tokens: int = 4000, filters: Filters | None = None,
            llm: LLM | None = None, on_step: Callable[[Step], None] | None = None, filter_llm: LLM | None = None,
            limits: Limits | None = None) -> Answer:
        """Answer ``question`` from the corpus: the passages of ``strategy`` (a retrieval mode,
        ``parent`` by default, or an LLM-driven strategy: ``multiquery``, ``walk``,
        ``walkingrag``, ``pyramid``; see :meth:`find`) cut to ``budget_tokens``, and the model's
        claims, each cited ``[title, p. N]`` to a stored context; a claim the passages do not
        back is flagged. ``llm`` defaults to the configured one (``settings.llm``);
        ``answer.steps`` and ``answer.usage`` say what it cost, ``answer.facts`` what a
        strategy noted on the way. See :func:`paperpyramid.retrieval.answer.ask`."""
        from paperpyramid.retrieval.answer import ask

        return ask(self.conn, question, llm or self._llm(), strategy=strategy, budget_tokens=budget_tokens, embedder=self._query_embedder(strategy),
                   filters=filters, on_step=on_step, filter_llm=filter_llm or self._filter_llm(strategy), limits=limits)

    def _llm(self) -> LLM:
        from paperpyramid.llm import get_llm
        from paperpyramid.settings import Settings

        return get_llm((self._settings or Settings()).llm)

    def _filter_llm(self, strategy: str) -> LLM | None:
        """multiquery's relevance filter when ``settings.llm.filter_model`` names one (None: the answering model)."""
        from paperpyramid.llm import get_llm
        from paperpyramid.settings import Settings

        settings = (self._settings or Settings()).llm.for_filter() if strategy == "multiquery" else None
        return None if settings is None else get_llm(settings)

    def _query_embedder(self, mode: str) -> Embedder | None:
        """The embedder a mode or strategy needs for the query: none for bm25, and none for the
        modes and strategies that fall back to keywords on a corpus without vectors."""
        if mode == "bm25" or (mode != "vector" and mode != "hybrid" and not self.has_vectors()):
            return None
        return self.embedder

    def best_mode(self) -> str:
        """``hybrid`` when the corpus has vectors from the query embedder's model, else ``bm25``."""
        return "hybrid" if self.has_vectors() else "bm25"

    # ingest log

    def ingest_log(self) -> list[IngestLogRow]:
        """Every source the ingest has seen, with its latest status, oldest update first."""
        rows = self.conn.execute(
            "SELECT source_uri, sha256, status, error, attempts, article_id, pages, seconds, updated_at "
            "FROM ingest_log ORDER BY updated_at, rowid"
        )
        return [IngestLogRow(*row) for row in rows]

    def _require(self, table: str, id_: str) -> None:
        if self.conn.execute(f"SELECT 1 FROM {table} WHERE id = ?", [id_]).fetchone() is None:
            raise KeyError(f"no {table.rstrip('s')} with id {id_!r}")


def _article(row: tuple[Any, ...]) -> Article:
    (id_, title, authors, doi, abstract, date_published, journal, pages, num_tokens, parser,
     source_uri, sha256, created_at, provenance, warnings, coverage, ocr_pages, arxiv_id) = row  # fmt: skip
    return Article(
        id=id_,
        title=title,
        authors=tuple(Author(**author) for author in json.loads(authors)),
        doi=doi,
        abstract=abstract,
        date_published=date_published,
        journal=journal,
        pages=pages,
        num_tokens=num_tokens,
        parser=parser,
        source_uri=source_uri,
        sha256=sha256,
        created_at=created_at,
        provenance=json.loads(provenance),
        warnings=tuple(json.loads(warnings)),
        coverage=coverage,
        ocr_pages=tuple(json.loads(ocr_pages)) if ocr_pages else (),
        arxiv_id=arxiv_id,
    )
