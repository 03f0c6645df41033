"""A corpus: a :class:`~paperpyramid.db.reader.CorpusReader` (articles, their sections in order,
contexts, neighbours) with citations, search and answers on top; and the write side that grows
it (embed, distill, snapshot, export). It sits above the stages: nothing under it imports it.

``Corpus.open(path)`` opens the file read-only, so any number of readers can run beside the
one writer (the corpus is in WAL mode). Whoever wrote the file, it is read as untrusted: it must
have the corpus schema (no view where a table should be, no trigger or virtual table a corpus
has not), and every statement's time inside SQLite is bounded. Rows come back as small frozen
dataclasses; an article's references, tables, formulas and figures as the document model's own
classes (:mod:`paperpyramid.document`, the ones parsers build) with their stored ids. Methods
that take an id raise ``KeyError`` naming the id when it is not in the corpus.

The write methods (``embed``, ``distill``) never write through that read-only connection: each
opens its own writer connection on the same file for the length of the call, as the commands do,
and the reading connection sees what they committed as soon as they return. They need the corpus
file itself: a corpus opened from a snapshot (a URL, or a ``.sqlite.gz``) is a verified, cached,
read-only copy, and they raise :class:`ReadOnlyCorpus` there. New articles come in through
:func:`paperpyramid.ingest`, which creates the file.

The navigation methods (``search``, ``next_section``, ``previous_section``,
``parent_contexts``) are also the tools an LLM is given to walk a paper; their docstrings
are written for it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Literal
from urllib.parse import urlparse
from urllib.request import url2pathname

from paperpyramid import citation_graph
from paperpyramid.api.progress import progress_bar
from paperpyramid.api.reports import (
    ArticleDistilled,
    DistillReport,
    EmbedReport,
    ExportReport,
    article_distilled,
    distill_report,
    embed_report,
)
from paperpyramid.citation_graph import CitationLink
from paperpyramid.db import sqlite as db_sqlite
from paperpyramid.db import vectors as db_vectors
from paperpyramid.db.corpus_rows import Article, ContextRow, IngestLogRow, SectionNode, SectionRow  # re-exported here
from paperpyramid.db.queries.corpus_file import schema_version
from paperpyramid.db.reader import CorpusReader
from paperpyramid.db.schema import SCHEMA_VERSION
from paperpyramid.db.snapshot_schema import schema_problem
from paperpyramid.errors import NotACorpus, PaperPyramidError
from paperpyramid.retrieval import SearchHit
from paperpyramid.retrieval.api import RetrievalOptions, retrieve
from paperpyramid.retrieval.filters import Filters
from paperpyramid.settings import DEFAULT_BUDGET_TOKENS, DEFAULT_K, LEVELS, LLM_STRATEGIES, SEARCH_MODES, STRATEGIES

if TYPE_CHECKING:
    from datetime import timedelta

    from paperpyramid.asking.answer import Answer
    from paperpyramid.asking.trace import Found, Limits, Step
    from paperpyramid.db.snapshot import Snapshot
    from paperpyramid.distill.pipeline import ArticleOutcome
    from paperpyramid.embeddings import Embedder
    from paperpyramid.llm import LLM
    from paperpyramid.settings import DistillSettings, EmbeddingSettings, Settings


#: Sources that ``Corpus.open`` fetches as snapshots (besides local ``.gz`` files).
_REMOTE_SCHEMES = ("http://", "https://", "s3://")
#: what :meth:`Corpus.export` writes
EXPORT_FORMATS: tuple[str, ...] = ("markdown", "json")


class ReadOnlyCorpus(PaperPyramidError):
    """A write (``embed``, ``distill``, ``snapshot``) asked of a corpus with no corpus file to
    write to: one opened from a snapshot (a verified, cached, read-only copy), or made from a
    bare connection. Open the corpus file itself with :meth:`Corpus.open` to write."""


class Corpus(CorpusReader):
    """A corpus opened for reading (the queries of :class:`~paperpyramid.db.reader.CorpusReader`
    and the search, answers and citations here), with write methods that open their own writer connection on
    the same file (see the module's docstring). Open one with :meth:`open`; use it in a ``with``
    block, or call :meth:`close`.

    ``path`` is the file read (for a snapshot, its cached copy); ``from_snapshot`` is True when
    the corpus was opened from a snapshot, whose copy the write methods refuse to touch."""

    def __init__(
        self,
        conn: db_sqlite.Connection,
        *,
        embedder: Embedder | None = None,
        settings: Settings | None = None,
        llm: LLM | None = None,
        path: Path | None = None,
        from_snapshot: bool = False,
    ) -> None:
        super().__init__(conn)
        self.path = path
        self.from_snapshot = from_snapshot
        self._embedder = embedder
        self._settings = settings
        self._llm = llm
        self._filter_model: LLM | None = None

    @classmethod
    def open(
        cls,
        source: str | Path,
        *,
        manifest_url: str | None = None,
        shards: Sequence[str | int | None] | None = None,
        cache_dir: str | Path | None = None,
        settings: Settings | None = None,
        embedder: Embedder | None = None,
        llm: LLM | None = None,
        query_time_limit: float = db_sqlite.QUERY_TIME_LIMIT,
        check_same_thread: bool = True,
        migrate: bool = False,
    ) -> Corpus:
        """Open a corpus read-only: a corpus file, or a snapshot made by ``take_snapshot``.

        A snapshot is an http(s) URL (such as the presigned URL a snapshot comes with), an
        ``s3://bucket/key`` URI (read with ``settings.s3``, by default the ``AWS_*`` variables)
        or a local ``.sqlite.zst`` or ``.sqlite.gz`` file (zstd or gzip, told by its first bytes).
        A sharded snapshot is its catalog's URL (``*.catalog.json``): ``shards`` picks the values
        to fetch (``[2019, 2020]`` of one sharded by year; all when None), and several shards are
        merged into one corpus in the cache, ids unchanged. It is downloaded once into ``cache_dir`` (else
        ``$PAPERPYRAMID_CORPUS__CACHE_DIR``, else ``~/.cache/paperpyramid/snapshots``), checked against
        the sha256 in its manifest, and reused from there while it still matches. The manifest
        is read from beside the snapshot, or from ``manifest_url`` (needed with a presigned URL,
        whose signature covers only the snapshot). A copy that does not match its manifest is
        refused with ``SnapshotCorrupt``, and one that does not have the corpus schema (a view
        where a table should be, a trigger or virtual table a corpus has not) or holds a value
        longer than ``settings.snapshot`` allows with ``SnapshotError``.

        A corpus file is checked the same way when it is opened (its schema only: no rows are
        read, so a file damaged past its schema opens, and fails when a query reaches the damage),
        and refused with ``NotACorpus``; so is a corpus of an older schema unless ``migrate``, which
        first brings it up to date (as the commands that add to a corpus do: the one write this
        opening makes, under the writer's lock, and nothing on a current corpus; for your own
        files, since the migration writes with the writer's trust). Every file is read as
        untrusted: a statement that spends more than ``query_time_limit`` seconds in SQLite is
        interrupted with an ``OperationalError``.

        ``embedder`` embeds queries for vector and hybrid search; by default the model named in
        ``settings.embedding`` (``PAPERPYRAMID_EMBEDDING__MODEL``, all-MiniLM-L6-v2 unless set),
        loaded on the first query that needs it. ``llm`` answers (:meth:`ask`, :meth:`find`) and
        distils (:meth:`distill`); by default the model ``settings.llm`` names, built on first use
        and kept for the corpus's life (see :attr:`llm`). ``settings`` default to the
        ``PAPERPYRAMID_*`` variables, read once. ``check_same_thread=False`` lets the corpus pass
        from one thread to another, as a web request's does between the thread that opens it and
        the one that answers; it must still never be used by two threads at once.

        The corpus file is opened read-only; the write methods open their own writer on it (see
        the module's docstring). A snapshot's copy is never written: they raise :class:`ReadOnlyCorpus`.
        """
        if isinstance(source, str) and source.startswith("file://"):
            source = Path(url2pathname(urlparse(source).path))
        if str(source).startswith(_REMOTE_SCHEMES) or str(source).endswith((".gz", ".zst", ".catalog.json")) or shards is not None:
            if migrate:
                raise ValueError("migrate is for a corpus file; a snapshot is a read-only copy, never migrated")
            fetched = _fetch_snapshot(source, shards=shards, manifest_url=manifest_url, cache_dir=cache_dir, settings=settings)
            # a verified snapshot never changes: immutable skips locking and change detection
            # (its schema was checked, virtual tables and sizes too, before it was cached)
            return cls._open_file(fetched, immutable=True, query_time_limit=query_time_limit, check_schema=False, embedder=embedder,
                                  settings=settings, llm=llm, check_same_thread=check_same_thread, from_snapshot=True)  # fmt: skip
        if manifest_url is not None:
            raise ValueError("manifest_url is for snapshots (.sqlite.gz files and URLs), not a corpus file")
        if migrate:
            _migrate_older(Path(source))
        return cls._open_file(Path(source), query_time_limit=query_time_limit, check_schema=True, embedder=embedder, settings=settings,
                              llm=llm, check_same_thread=check_same_thread)  # fmt: skip

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
        llm: LLM | None = None,
        check_same_thread: bool = True,
        from_snapshot: bool = False,
    ) -> Corpus:
        """``check_schema``: refuse a file without the corpus schema (a snapshot's was checked when fetched)."""
        if not path.is_file():
            raise FileNotFoundError(f"no corpus at {path}")
        conn = db_sqlite.connect(
            path,
            read_only=True,
            immutable=immutable,
            untrusted=True,
            query_time_limit=query_time_limit,
            check_same_thread=check_same_thread,
        )
        try:
            version = schema_version(conn)
            problem = schema_problem(conn, version, probe_virtual_tables=False) if check_schema and version == SCHEMA_VERSION else None
        except db_sqlite.DatabaseError as exc:
            conn.close()
            raise NotACorpus(f"{path} is not a paperpyramid corpus: {exc}") from exc
        if version != SCHEMA_VERSION:
            conn.close()
            if version == 0:
                problem = "is not a paperpyramid corpus (it has no schema version)"
            elif version < SCHEMA_VERSION:
                problem = (
                    f"is at corpus schema version {version}, older than this paperpyramid's {SCHEMA_VERSION}: "
                    "Corpus.open(path, migrate=True) brings it up to date, as paperpyramid ingest, embed, distill or snapshot on it does"
                )
            else:
                problem = f"is at corpus schema version {version}, newer than this paperpyramid's {SCHEMA_VERSION}: upgrade paperpyramid to read it"
            raise NotACorpus(f"{path} {problem}")
        if problem is not None:
            conn.close()
            raise NotACorpus(f"{path} is not a paperpyramid corpus: {problem}")
        return cls(conn, embedder=embedder, settings=settings, llm=llm, path=path, from_snapshot=from_snapshot)

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
        """Close the reading connection (a ``with`` block does it on leaving)."""
        self.conn.close()

    # citations

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

    # search

    @property
    def settings(self) -> Settings:
        """The settings given to :meth:`open`; by default the ``PAPERPYRAMID_*`` variables, read
        when first needed and kept."""
        if self._settings is None:
            from paperpyramid.settings import Settings

            self._settings = Settings()
        return self._settings

    @property
    def embedder(self) -> Embedder:
        """The model that embeds queries (loaded on first use), and by default the one
        :meth:`embed` and :meth:`distill` embed with."""
        if self._embedder is None:
            from paperpyramid.embeddings import get_embedder

            self._embedder = get_embedder(self._embedding_settings())
        return self._embedder

    @property
    def llm(self) -> LLM:
        """The model that answers (:meth:`ask`, :meth:`find`'s LLM-driven strategies) and distils
        (:meth:`distill`) when no ``llm`` is passed to them: the one given to :meth:`open`, else
        the one ``settings.llm`` names (``PAPERPYRAMID_LLM__*``; the local SmolLM2 unless set).
        Built on first use and kept for the corpus's life, so the local model loads its weights
        once, however many questions are asked."""
        if self._llm is None:
            from paperpyramid.llm import get_llm

            self._llm = get_llm(self.settings.llm)
        return self._llm

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
        return self.settings.embedding

    def search(self, query: str, k: int = DEFAULT_K, *, filters: Filters | None = None) -> list[SearchHit]:
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
        mode: str | None = None,
        k: int = DEFAULT_K,
        budget_tokens: int | None = None,
        filters: Filters | None = None,
        options: RetrievalOptions | None = None,
        level: str = "contexts",
    ) -> list[SearchHit]:
        """Passages for ``query``, best first, by a retrieval ``mode``: ``bm25`` (keywords),
        ``vector`` (meaning), ``hybrid`` (the two fused), ``parent`` (the 5 best hybrid hits,
        each with its neighbours, in reading order; ``k`` does not apply, ``options.parent_hits``
        sets the hits, and with ``budget_tokens`` the next best hits fill what the windows leave)
        or ``cross`` (contexts fused with the distilled insights that drill down to them). The
        default is :meth:`best_mode`: ``hybrid`` when the corpus has the query embedder's
        vectors, else ``bm25``. No LLM is used.

        At most ``k`` hits (10 by default), cut at ``budget_tokens`` when it is given. Unlike
        :meth:`ask` and :meth:`find`, which hand passages to a model and so cut them at 4000
        tokens unless told otherwise, ``retrieve`` is the search itself: its ``k`` hits come
        back whole by default (``parent``: its windows whole).

        ``level`` searches a level of the knowledge pyramid instead of the contexts
        (``insights``, ``concepts``, ``abstracts``, ``recollections``; modes bm25, vector and
        hybrid): each hit is a distilled item with its source contexts in ``hit.sources``.

        An unknown mode or level raises ``ValueError`` listing the known ones. The name of an
        LLM-driven strategy (``multiquery``, ``walk``, ``walkingrag``, ``pyramid``) is refused
        too, with a ``ValueError`` that points to :meth:`find`, which runs it. See
        :func:`paperpyramid.retrieval.api.retrieve`."""
        mode = self.best_mode() if mode is None else mode
        _check_mode(mode)
        _check_level(level)
        return retrieve(
            self.conn,
            query,
            mode=mode,
            k=k,
            budget_tokens=budget_tokens,
            filters=filters,
            embedder=self._query_embedder(mode),
            options=options,
            level=level,
        )

    def find(
        self,
        question: str,
        *,
        strategy: str = "parent",
        k: int = DEFAULT_K,
        budget_tokens: int | None = DEFAULT_BUDGET_TOKENS,
        filters: Filters | None = None,
        llm: LLM | None = None,
        on_step: Callable[[Step], None] | None = None,
        filter_llm: LLM | None = None,
        limits: Limits | None = None,
    ) -> Found:
        """The passages :meth:`ask` would hand to the answering model for ``question``, with the
        same ``strategy``, ``k`` and ``budget_tokens``, without asking for the answer; with the
        facts a strategy gathered and the steps it took (tokens per step).

        ``strategy`` is a retrieval mode or an LLM-driven strategy, the same names as
        :meth:`ask`'s and the same default, ``parent``: the best hybrid hits widened with their
        neighbours, cut to the budget (a retrieval mode uses no LLM; its one step is the
        retrieval). The other modes are ``hybrid``, ``cross``, ``bm25`` and ``vector`` (at most
        ``k`` hits; ``parent`` and the LLM-driven strategies choose how many); the LLM-driven strategies are ``multiquery`` (query variants and a
        relevance filter), ``walk`` (the model reads a paper section by section), ``walkingrag``
        (rounds of partial facts, each saying where to look next) and ``pyramid`` (the search
        agent over the knowledge pyramid). ``budget_tokens`` cuts the passages (None: uncut).

        ``limits`` bounds a strategy's steps and LLM tokens. ``llm`` defaults to :attr:`llm`;
        ``filter_llm``, multiquery's relevance judge, to ``settings.llm.filter_model``'s model
        (built once and kept), else the answering model. An unknown strategy raises
        ``ValueError`` listing the known ones. See :func:`paperpyramid.asking.strategies.find`."""
        from paperpyramid.asking.strategies import find
        from paperpyramid.asking.trace import Found, Step

        _check_strategy(strategy)
        if strategy in SEARCH_MODES:
            started = time.perf_counter()
            passages = self.retrieve(question, mode=strategy, k=k, budget_tokens=budget_tokens, filters=filters)
            step = Step(
                "retrieve",
                f"{strategy}: {len(passages)} passages, {sum(hit.num_tokens for hit in passages)} tokens",
                seconds=time.perf_counter() - started,
            )
            if on_step is not None:
                on_step(step)
            return Found(passages, steps=[step])
        return find(
            self.conn,
            strategy,
            question,
            llm or self.llm,
            budget_tokens=budget_tokens,
            embedder=self._query_embedder(strategy),
            filters=filters,
            limits=limits,
            on_step=on_step,
            filter_llm=filter_llm or self._filter_llm(strategy),
        )

    def ask(
        self,
        question: str,
        *,
        strategy: str = "parent",
        k: int = DEFAULT_K,
        budget_tokens: int = DEFAULT_BUDGET_TOKENS,
        filters: Filters | None = None,
        llm: LLM | None = None,
        on_step: Callable[[Step], None] | None = None,
        filter_llm: LLM | None = None,
        limits: Limits | None = None,
    ) -> Answer:
        """Answer ``question`` from the corpus: the passages of ``strategy`` cut to
        ``budget_tokens`` (4000 by default), and the model's claims, each cited
        ``[title, p. N]`` to a stored context; a claim the passages do not back is flagged.

        ``strategy`` is a retrieval mode — ``parent`` (the default: the best hybrid hits widened
        with their neighbours), or ``hybrid``, ``cross``, ``bm25``, ``vector`` (at most ``k``
        passages) — or an LLM-driven strategy: ``multiquery``, ``walk``, ``walkingrag``,
        ``pyramid`` (see :meth:`find`, which returns the same passages without the answer).
        ``limits`` bounds an LLM-driven strategy's steps and tokens. ``llm`` defaults to
        :attr:`llm`, built once per corpus; ``answer.steps`` and ``answer.usage`` say what it
        cost, ``answer.facts`` what a strategy noted on the way. An unknown strategy raises
        ``ValueError`` listing the known ones, before any model is loaded. See
        :func:`paperpyramid.asking.answer.ask`."""
        from paperpyramid.asking.answer import ask

        _check_strategy(strategy)
        return ask(
            self.conn,
            question,
            llm or self.llm,
            strategy=strategy,
            k=k,
            budget_tokens=budget_tokens,
            embedder=self._query_embedder(strategy),
            filters=filters,
            on_step=on_step,
            filter_llm=filter_llm or self._filter_llm(strategy),
            limits=limits,
        )

    def _filter_llm(self, strategy: str) -> LLM | None:
        """multiquery's relevance filter when ``settings.llm.filter_model`` names one (None: the
        answering model), built on first use and kept, as :attr:`llm` is."""
        if strategy != "multiquery":
            return None
        if self._filter_model is None:
            settings = self.settings.llm.for_filter()
            if settings is None:
                return None
            from paperpyramid.llm import get_llm

            self._filter_model = get_llm(settings)
        return self._filter_model

    def _query_embedder(self, mode: str) -> Embedder | None:
        """The embedder a mode or strategy needs for the query: none for bm25, and none for the
        modes and strategies that fall back to keywords on a corpus without vectors."""
        if mode == "bm25" or (mode != "vector" and mode != "hybrid" and not self.has_vectors()):
            return None
        return self.embedder

    def best_mode(self) -> str:
        """``hybrid`` when the corpus has vectors from the query embedder's model, else ``bm25``."""
        return "hybrid" if self.has_vectors() else "bm25"

    # writing

    def embed(
        self,
        *,
        embedding_model: str | None = None,
        embedder: Embedder | None = None,
        batch_size: int = 64,
        progress: bool = False,
        on_start: Callable[[int], None] | None = None,
        on_batch: Callable[[int, int], None] | None = None,
    ) -> EmbedReport:
        """Embed every context that has no vector from the embedding model yet and store the
        vectors in the corpus: what vector and hybrid search need (an ingest with ``embed=True``
        stores them as it goes; this embeds what it left, or a corpus ingested without).
        Incremental and resumable: each batch of ``batch_size`` contexts is committed on its
        own, so a stopped run keeps what it committed and a re-run embeds only what is missing.

        ``embedding_model`` names the model: ``minilm``, ``minilm-int8``, ``e5-small`` or
        ``openai`` (default: ``settings.embedding.model``, the model that also embeds this
        corpus's queries, :attr:`embedder`; another model's vectors are stored beside and
        searched by a corpus opened with that model). ``embedder`` passes a model object
        instead. A vector the model cannot give (null, wrong length, NaN, all zeros) is refused,
        never stored: ``report.failed`` counts them and ``report.ok`` is False. Nothing is
        printed unless ``progress``; ``on_start(missing)`` is called once before the first batch
        with how many contexts lack a vector, ``on_batch(done, missing)`` after each batch.

        Raises :class:`ReadOnlyCorpus` on a corpus opened from a snapshot, ``ValueError`` for
        an unknown model name (listing the known ones), ``ConfigurationError`` when the model
        cannot load (weights not installed, no endpoint)."""
        from paperpyramid.ingestion.embed import embed_corpus

        path = self._file("embed")
        chosen = self._embedder_named(embedding_model, embedder)
        missing = [0]
        done = [0]
        with progress_bar(progress, "embed") as bar:

            def start(count: int) -> None:
                missing[0] = count
                bar.total(count)
                if on_start is not None:
                    on_start(count)

            def batch(size: int) -> None:
                done[0] += size
                bar.advance(size)
                if on_batch is not None:
                    on_batch(done[0], missing[0])

            summary = embed_corpus(
                path, chosen, batch_size=batch_size, storage=self.settings.embedding.vector_storage, on_start=start, on_batch=batch
            )
        return embed_report(summary)

    def distill(
        self,
        *,
        max_pages: int | None = None,
        articles: Sequence[str] | None = None,
        redo: bool = False,
        llm: LLM | None = None,
        concurrency: int | None = None,
        recollections: bool | None = None,
        progress: bool = False,
        on_start: Callable[[int], None] | None = None,
        on_article: Callable[[ArticleDistilled, int], None] | None = None,
    ) -> DistillReport:
        """Distil articles into the knowledge pyramid: insights from two-page windows, concepts,
        one abstract per article, recollections across articles; each item embedded (with
        ``settings.distill.embed``) and searchable. Resumable and incremental: each article is
        stored in one transaction, and a re-run distils only what is missing or failed (the
        response cache makes calls answered before free). One distill runs on a corpus at a
        time; a second waits for the first.

        ``articles`` (ids or DOIs; default: every article) picks what to distil; an unknown one
        raises ``KeyError`` before anything runs. ``max_pages`` distils only each article's
        first pages (a quick look with a slow model); ``redo`` distils again articles distilled
        before (with this or another model or prompt). ``llm`` defaults to :attr:`llm`, built
        once per corpus. ``concurrency`` (articles at once; default 1 for the local model, 4 for
        an endpoint) and ``recollections`` (connect new articles to the others; default on)
        override ``settings.distill``. Nothing is printed unless ``progress``; ``on_start(todo)``
        is called once before the first article with how many this run sets out to distil, and
        ``on_article(article, todo)`` after each article.

        An article the model cannot distil is a failure in the report, with its reason; when the
        endpoint stops answering the run ends early, saying why in ``report.stopped``. Raises
        :class:`ReadOnlyCorpus` on a corpus opened from a snapshot."""
        path = self._file("distill")
        ids = self._article_ids(articles)
        overrides = {
            name: value
            for name, value in {"max_pages": max_pages, "concurrency": concurrency, "recollections": recollections}.items()
            if value is not None
        }
        settings = self.settings.distill.model_validate({**self.settings.distill.model_dump(), **overrides})
        embedder = self.embedder if settings.embed else None
        return _distill_file(path, llm or self.llm, settings, embedder, ids, redo, progress, on_start, on_article)

    def snapshot(
        self,
        destination: str | Path,
        *,
        expires: timedelta | None = None,
        licences: Sequence[str] | None = None,
        compression: str | None = None,
        shard_by: str | None = None,
    ) -> Snapshot:
        """Publish a consistent, compressed copy of the corpus (safe while an ingest writes to
        it) with its manifest (schema version, row counts, articles per licence, sha256) and
        Datasette metadata, to ``destination``: a folder (created if missing) or
        ``s3://BUCKET/PREFIX/`` (uploaded with ``settings.s3``; its URLs presigned for
        ``expires``, at most and by default 7 days). Returns the
        :class:`~paperpyramid.db.snapshot.Snapshot`: ``Corpus.open(snapshot.open_url)`` opens it
        anywhere.

        ``licences`` (``["cc-by", "cc0"]``: keys of :data:`paperpyramid.licences.KEYS`) publishes
        only the articles under those licences; the copy holds nothing of the others (rows,
        vectors, pyramid). ``snapshot.licence_warning`` is one line when the published articles
        include some whose licence is unknown or non-commercial.

        ``compression`` is ``zstd`` (multi-threaded; the default) or ``gzip``. ``shard_by``
        (``year``, ``source`` or an article column) publishes one snapshot per value and a
        catalog listing them; the returned snapshot names the catalog (see ``take_snapshot``).

        Raises ``ValueError`` for a licence that is not a key, :class:`ReadOnlyCorpus` on a corpus
        opened from a snapshot (copy its files instead), ``SnapshotError`` when the upload is
        refused, ``ServiceUnavailable`` when the object store cannot be reached."""
        from paperpyramid.db.snapshot import DEFAULT_COMPRESSION, MAX_EXPIRES, take_snapshot

        return take_snapshot(
            self._file("snapshot"),
            destination,
            self.settings,
            expires=expires if expires is not None else MAX_EXPIRES,
            licences=licences,
            compression=compression or DEFAULT_COMPRESSION,
            shard_by=shard_by,
        )

    def export(
        self,
        destination: str | Path,
        *,
        format: Literal["markdown", "json"] = "markdown",
        articles: Sequence[str] | None = None,
        by_page: bool = False,
        progress: bool = False,
        on_article: Callable[[int, int], None] | None = None,
    ) -> ExportReport:
        """Write articles into the folder ``destination`` (created if missing): ``markdown``
        (``<article id>.md``: title, authors, headings, text in reading order, tables, formulas
        as ``$$ … $$ (N)``, figure captions, references; with ``by_page``, one file per PDF page
        as ``<article id>/page-<N>.md``) or ``json`` (``<article id>.json``: the article, its
        section tree with contexts, tables, formulas, figures, references).

        ``articles`` (ids or DOIs; default: every article) picks what to write; an unknown one
        raises ``KeyError`` before anything is written, an unknown format ``ValueError`` listing
        the formats. Works on any corpus, a snapshot's too (it only reads). Nothing is printed
        unless ``progress``; ``on_article(done, total)`` is called after each article."""
        from paperpyramid.export import export_articles

        if format not in EXPORT_FORMATS:
            raise ValueError(f"unknown export format {format!r}; choose one of: {', '.join(EXPORT_FORMATS)}")
        ids = self._article_ids(articles)
        if ids is None:
            ids = [article.id for article in self.articles()]
        with progress_bar(progress, "export") as bar:
            bar.total(len(ids))

            def exported(done: int, total: int) -> None:
                bar.advance(1)
                if on_article is not None:
                    on_article(done, total)

            files = export_articles(self, destination, format=format, by_page=by_page, article_ids=ids, on_article=exported)
        return ExportReport(destination=Path(destination), format=format, by_page=by_page, articles=tuple(ids), files=tuple(files))

    def _file(self, doing: str) -> Path:
        """The corpus file to ``doing`` (embed, distill, snapshot), or why there is none."""
        if self.from_snapshot:
            raise ReadOnlyCorpus(
                f"cannot {doing}: this corpus was opened from a snapshot, a read-only copy; "
                "open the corpus file itself with Corpus.open(PATH) to write"
            )
        if self.path is None:
            raise ReadOnlyCorpus(f"cannot {doing}: this corpus was made from a connection, with no file; open it with Corpus.open(PATH)")
        return self.path

    def _article_ids(self, articles: Sequence[str] | None) -> list[str] | None:
        """The ids of ``articles`` (ids or DOIs), each once, in the order given (None: every
        article); an unknown one raises ``KeyError`` naming it."""
        if articles is None:
            return None
        if isinstance(articles, str):
            raise TypeError("articles is a list of ids or DOIs, not one string: write articles=[...]")
        return list(dict.fromkeys(self.article(name).id for name in articles))

    def _embedder_named(self, name: str | None, given: Embedder | None) -> Embedder:
        """The embedder :meth:`embed` uses: ``given``, else the query embedder when ``name`` is
        None or the configured model, else the model ``name`` names."""
        from paperpyramid.settings import EMBEDDER_NAMES

        if given is not None:
            if name is not None:
                raise ValueError("give embedding_model or embedder, not both")
            return given
        if name is None or name == self.settings.embedding.model:
            return self.embedder
        if name not in EMBEDDER_NAMES:
            raise ValueError(f"unknown embedding model {name!r}; choose one of: {', '.join(EMBEDDER_NAMES)}")
        from paperpyramid.embeddings import get_embedder

        return get_embedder(self.settings.embedding.model_copy(update={"model": name}))


def _fetch_snapshot(
    source: str | Path,
    *,
    shards: Sequence[str | int | None] | None,
    manifest_url: str | None,
    cache_dir: str | Path | None,
    settings: Settings | None,
) -> Path:
    """The local copy of the snapshot (or the chosen shards of a catalog) at ``source``, fetched
    and verified (:func:`paperpyramid.db.snapshot.fetch_published`)."""
    # imported here: the object-store client and settings load only when a snapshot is opened
    from paperpyramid.db.snapshot import fetch_published

    return fetch_published(source, shards=shards, manifest_url=manifest_url, cache_dir=cache_dir, settings=settings).path


def _migrate_older(path: Path) -> None:
    """Bring the corpus file at ``path`` to the current schema when it is at an older version,
    under the writer's lock so that two runs never apply the same migration; anything else (no
    file, not a database, version 0, current, newer) is left for the opening to refuse or read."""
    if not path.is_file():
        return
    try:
        conn = db_sqlite.connect(path, read_only=True)
        try:
            version = schema_version(conn)
        finally:
            conn.close()
    except db_sqlite.DatabaseError:
        return
    if 0 < version < SCHEMA_VERSION:
        from paperpyramid.db.writer import connect, writer_lock

        with writer_lock(path):
            connect(path).close()  # migrates (again nothing, if another run did it while this one waited)


def _check_mode(mode: str) -> None:
    if mode in LLM_STRATEGIES:
        raise ValueError(
            f"{mode!r} is an LLM-driven strategy, not a retrieval mode: call find(query, strategy={mode!r}) for its passages "
            f"(or ask() for an answer); the retrieval modes are: {', '.join(SEARCH_MODES)}"
        )
    if mode not in SEARCH_MODES:
        raise ValueError(f"unknown retrieval mode {mode!r}; choose one of: {', '.join(SEARCH_MODES)}")


def _check_strategy(strategy: str) -> None:
    if strategy not in STRATEGIES:
        raise ValueError(f"unknown strategy {strategy!r}; choose one of: {', '.join(STRATEGIES)}")


def _check_level(level: str) -> None:
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; choose one of: {', '.join(LEVELS)}")


def _distill_file(
    path: Path,
    llm: LLM,
    settings: DistillSettings,
    embedder: Embedder | None,
    article_ids: Sequence[str] | None,
    redo: bool,
    progress: bool,
    on_start: Callable[[int], None] | None,
    on_article: Callable[[ArticleDistilled, int], None] | None,
) -> DistillReport:
    """Distil the articles of the corpus at ``path`` that need it (see
    :func:`paperpyramid.distill.pipeline.distill_corpus`), with :meth:`Corpus.distill`'s progress."""
    from paperpyramid.distill.pipeline import distill_corpus

    todo = [0]
    with progress_bar(progress, "distil", "{task.fields[tokens]} tokens", tokens=0) as bar:
        spent = [0]

        def start(count: int) -> None:
            todo[0] = count
            bar.total(count)
            if on_start is not None:
                on_start(count)

        def finished(outcome: ArticleOutcome) -> None:
            spent[0] += outcome.prompt_tokens + outcome.completion_tokens
            bar.advance(1, tokens=spent[0])
            if on_article is not None:
                on_article(article_distilled(outcome), todo[0])

        summary = distill_corpus(
            path, llm, settings, embedder=embedder, article_ids=article_ids, redo=redo, on_start=start, on_article=finished
        )
    return distill_report(llm.name, summary)


__all__ = ["Article", "ContextRow", "Corpus", "IngestLogRow", "ReadOnlyCorpus", "SectionNode", "SectionRow"]
