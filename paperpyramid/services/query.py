"""The query service: a thin, read-only FastAPI layer over a corpus (``paperpyramid serve``)::

    GET  /                                  the web page: ask, watch the steps, follow the citations
    GET  /healthz                           {"status": "ok"} while the corpus opens (no table's rows are read)
    GET  /search?q=&mode=&level=&k=&budget_tokens=&article=&year_from=&year_to=&journal=&mesh=&publication_type=
                                            cited hits, as ``paperpyramid search --json``
    GET  /articles?offset=&limit=           articles (id, title, date, journal, pages), a page at a time
    GET  /articles/{id}/outline?offset=&limit=   its sections in reading order, a page at a time
    GET  /sections/{id}/contexts?offset=&limit=  a section's passages in order, a page at a time
    GET  /sections/{id}/next, /previous     the neighbouring section (404 at either end)
    GET  /contexts/{id}/parent?before=&after=   a passage with the ones around it
    GET  /ask?q=&strategy=&budget_tokens=&max_steps=&max_llm_tokens=&article=&year_from=&year_to=&journal=&mesh=&publication_type=
                                            server-sent events: ``step`` as each step ends (a partial
                                            fact is a step named ``fact``), then ``answer``
    GET  /docs, /redoc, /openapi.json       the API's documentation

Every request opens the corpus read-only and untrusted (its schema checked, each statement's
time bounded by ``settings.query_time_limit``); the model and the embedder are loaded once,
shared. A corpus that is missing or cannot be read answers 503 with one line. A page of a list
is at most ``settings.page_size`` rows, from an ``offset`` of at most :data:`MAX_OFFSET` (422
past it); a ``Link: <...>; rel="next"`` header (or ``next_offset``) says where the next begins.
A text longer than ``settings.max_text_chars`` is cut, ends with ``… [truncated: N more
characters]``, and its object says ``"truncated": true``.

Asks are bounded: at most ``settings.max_concurrent_asks`` at once (503 with Retry-After past
it), and ``max_steps``, ``max_llm_tokens`` and ``budget_tokens`` at most the settings' caps
(422). An ask whose client has gone starts no further model call (see :mod:`.query_asks`); a
strategy's note its passages do not back streams as an ``unverified`` step, never as a ``fact``.

The token, the Host header and the logs: see :mod:`.query_guard`.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from dataclasses import asdict
from itertools import islice
from pathlib import Path
from typing import Annotated, Any, TypeVar, cast

from fastapi import Depends, FastAPI, HTTPException, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse

from paperpyramid.asking.trace import Limits
from paperpyramid.corpus import Corpus
from paperpyramid.db.snapshot_schema import size_problem
from paperpyramid.db.sqlite import DatabaseError
from paperpyramid.embeddings import Embedder
from paperpyramid.errors import NotACorpus, PaperPyramidError, ServiceUnavailable
from paperpyramid.llm import LLM
from paperpyramid.retrieval import SearchHit
from paperpyramid.retrieval.filters import Filters
from paperpyramid.services.query_asks import Asks
from paperpyramid.services.query_guard import RedactTokens, RequestGuard, default_allowed_hosts, require_token
from paperpyramid.settings import DEFAULT_BUDGET_TOKENS, DEFAULT_K, ServeSettings

log = logging.getLogger(__name__)

PAGE = Path(__file__).with_name("query_page.html")
T = TypeVar("T")
#: seconds a client refused for too many asks is told to wait
RETRY_AFTER_SECONDS = 5
#: where a page may start at most: past any corpus's rows, and far inside the integers that
#: Python's slicing and SQLite take (a larger offset is a 422, not a traceback)
MAX_OFFSET = 1_000_000_000


def hit_json(rank: int, hit: SearchHit) -> dict[str, Any]:
    citation = hit.citation
    record: dict[str, Any] = {
        "rank": rank,
        "score": hit.score,
        "context_id": hit.context_id,
        "article_id": citation.article_id,
        "title": citation.article_title,
        "section_id": citation.section_id,
        "section_number": citation.section_number,
        "section_title": citation.section_title,
        "page": citation.page_number,
        "num_tokens": hit.num_tokens,
        "citation": hit.cite(),
        "text": hit.text,
    }
    if hit.level != "contexts":
        record |= {"level": hit.level, "item_id": hit.item_id, "sources": [hit_json(0, source) for source in hit.sources]}
    return record


def bounded(value: T, max_chars: int) -> T:
    """``value`` (JSON-ready) with every string longer than ``max_chars`` cut there and ending in a
    marker; an object that held one says ``"truncated": true``."""
    return cast(T, _bounded(value, max_chars))


def _bounded(value: Any, max_chars: int) -> Any:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if isinstance(item, str) and len(item) > max_chars:
                out[key] = f"{item[:max_chars]} … [truncated: {len(item) - max_chars:,} more characters]"
                out["truncated"] = True
            else:
                out[key] = _bounded(item, max_chars)
        return out
    if isinstance(value, list):
        return [_bounded(item, max_chars) for item in value]
    return value


class _Service:
    """What the requests share: the corpus file, the model and the embedder (loaded once), the
    asks running and the corpora open (interrupted when the server stops)."""

    def __init__(self, path: Path, settings: ServeSettings, llm: LLM | None, embedder: Embedder | None, filter_llm: LLM | None) -> None:
        self.path, self.settings = path, settings
        self.llm, self.embedder, self.filter_llm = llm, embedder, filter_llm
        self.asks = Asks(settings.max_concurrent_asks, self.bounded)
        self._open: set[Corpus] = set()
        self._lock = threading.Lock()

    def bounded(self, value: T) -> T:
        return bounded(value, self.settings.max_text_chars)

    @contextmanager
    def reading(self, *, embedder: bool = True) -> Iterator[Corpus]:
        """The corpus, read-only, for one request (``embedder``: with the query embedder, loaded on
        the first request that finds vectors); ServiceUnavailable when it cannot be opened."""
        try:
            # a request's dependency and its route may run in different worker threads
            corpus = Corpus.open(
                self.path, embedder=self.embedder, check_same_thread=False, query_time_limit=self.settings.query_time_limit
            )
        except (FileNotFoundError, NotACorpus) as exc:
            raise ServiceUnavailable(f"the corpus is unavailable: {self._shown(exc)}") from exc
        with self._lock:
            self._open.add(corpus)
        try:
            if embedder and self.embedder is None:
                with self._lock:
                    if self.embedder is None and corpus.has_vectors():
                        self.embedder = corpus.embedder
            yield corpus
        finally:
            with self._lock:
                self._open.discard(corpus)
            corpus.close()

    def answering_llm(self) -> LLM:
        with self._lock:
            if self.llm is None:
                from paperpyramid.llm import get_llm
                from paperpyramid.settings import Settings

                self.llm = get_llm(Settings().llm)
            return self.llm

    def stop(self) -> None:
        """The server is stopping: asks end now, statements still running are interrupted."""
        self.asks.stop_all("the service is stopping; ask again once it is back")
        with self._lock:
            for corpus in self._open:
                corpus.conn.interrupt()

    def _shown(self, exc: BaseException) -> str:
        # the file's name, not where it lives on the server
        return str(exc).replace(str(self.path), self.path.name)


def _refuse_unreadable(path: Path, settings: ServeSettings) -> None:
    """Refuse ``path`` now, in one line, rather than on every request: not a corpus, or (unless
    ``max_value_bytes`` is None) a value longer than one request should ever load."""
    with Corpus.open(path, query_time_limit=settings.query_time_limit) as corpus:
        if settings.max_value_bytes is None:
            return
        started = time.monotonic()
        try:
            problem = size_problem(corpus.conn, settings.max_value_bytes, settings.max_value_bytes * 16)
        except DatabaseError as exc:  # interrupted at the query time limit, or damage
            raise NotACorpus(f"{path}: its value sizes could not be checked ({exc})") from exc
        log.info("value sizes of %s checked in %.1f s", path, time.monotonic() - started)
    if problem is not None:
        raise NotACorpus(f"{path} is refused: {problem} (PAPERPYRAMID_SERVE__MAX_VALUE_BYTES sets the limit)")


def create_app(
    db: str | Path,
    *,
    llm: LLM | None = None,
    embedder: Embedder | None = None,
    token: str | None = None,
    filter_llm: LLM | None = None,
    settings: ServeSettings | None = None,
    served_on: str | None = None,
) -> FastAPI:
    """The app over the corpus file ``db``; ``llm`` answers (default: the configured model, loaded
    on the first question), ``embedder`` embeds queries (default: the configured one), ``token``
    is required on every route but ``/healthz`` and ``/`` when set, ``settings`` bound the work.

    The Host header is checked against ``settings.allowed_hosts``; when that is None, against the
    defaults for ``served_on`` (the address it will be bound to: the loopback names and it), and
    not at all when that is None too (an app mounted behind a server that checks it).

    Raises ``FileNotFoundError`` or ``NotACorpus`` when ``db`` is not a corpus it can read."""
    path = Path(db)
    settings = settings or ServeSettings()
    _refuse_unreadable(path, settings)
    service = _Service(path, settings, llm, embedder, filter_llm)
    app = FastAPI(
        title="paperpyramid",
        description="Search and ask a paperpyramid corpus (read-only).",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        lifespan=_stopping(service),
    )
    app.state.service, app.state.token = service, token
    app.add_middleware(RequestGuard, allowed_hosts=_allowed_hosts(settings, served_on))
    _add_error_handlers(app, service)
    _add_page_routes(app, service)
    _add_search_route(app, service)
    _add_browse_routes(app, service)
    _add_ask_route(app, service)
    return app


def _stopping(service: _Service) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's lifespan: when the server stops, so do the asks and the statements running."""

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        service.stop()

    return lifespan


def _allowed_hosts(settings: ServeSettings, served_on: str | None) -> list[str] | None:
    """The Host headers accepted: the settings', else the defaults for ``served_on``, else any (None)."""
    if settings.allowed_hosts is not None:
        return settings.allowed_hosts
    return default_allowed_hosts(served_on) if served_on is not None else None


def _add_page_routes(app: FastAPI, service: _Service) -> None:
    """``/healthz``, the web page, and the API's documentation (behind the token)."""

    @app.get("/healthz")
    def healthz() -> dict[str, str]:
        with service.reading(embedder=False):
            return {"status": "ok"}

    @app.get("/", response_class=HTMLResponse)
    def page() -> str:
        return PAGE.read_text(encoding="utf-8")  # no data in it: it asks for the token itself

    @app.get("/openapi.json", include_in_schema=False)
    def openapi(_: Authorised) -> dict[str, Any]:
        return app.openapi()

    @app.get("/docs", include_in_schema=False)
    def docs(_: Authorised) -> HTMLResponse:
        return get_swagger_ui_html(openapi_url="/openapi.json", title="paperpyramid")

    @app.get("/redoc", include_in_schema=False)
    def redoc(_: Authorised) -> HTMLResponse:
        return get_redoc_html(openapi_url="/openapi.json", title="paperpyramid")


def _add_search_route(app: FastAPI, service: _Service) -> None:
    """``/search``: cited hits, as ``paperpyramid search --json``."""

    @app.get("/search")
    def search(
        _: Authorised,
        c: Opened,
        filters: Filtered,
        q: str,
        mode: str | None = None,
        level: str = "contexts",
        k: int = Query(DEFAULT_K, ge=1, le=100),
        budget_tokens: int = Query(DEFAULT_BUDGET_TOKENS, ge=1),
    ) -> list[dict[str, Any]]:
        try:
            hits = c.retrieve(q, mode=mode or c.best_mode(), k=k, budget_tokens=budget_tokens, filters=filters, level=level)
        except (PaperPyramidError, ValueError) as exc:
            raise HTTPException(400, str(exc)) from exc
        return service.bounded([hit_json(rank, hit) for rank, hit in enumerate(hits, 1)])


def _add_browse_routes(app: FastAPI, service: _Service) -> None:
    """The routes that page through the corpus: articles, an article's outline, a section's
    passages, the neighbouring sections, and a passage with the ones around it."""

    @app.get("/articles")
    def articles(
        _: Authorised,
        c: Opened,
        request: Request,
        response: Response,
        offset: Offset = 0,
        limit: Limit = None,
    ) -> list[dict[str, Any]]:
        rows, _next = _page(c.articles(), offset, limit, service.settings.page_size, request, response)
        return service.bounded(
            [{"id": a.id, "title": a.title, "date_published": a.date_published, "journal": a.journal, "pages": a.pages} for a in rows]
        )

    @app.get("/articles/{article_id}/outline")
    def outline(
        _: Authorised,
        c: Opened,
        request: Request,
        response: Response,
        article_id: str,
        offset: Offset = 0,
        limit: Limit = None,
    ) -> list[dict[str, Any]]:
        sections, _next = _page(
            _found(lambda: c.sections(c.article(article_id).id)), offset, limit, service.settings.page_size, request, response
        )
        return service.bounded([asdict(section) for section in sections])

    @app.get("/sections/{section_id}/contexts")
    def contexts(
        _: Authorised,
        c: Opened,
        request: Request,
        response: Response,
        section_id: str,
        offset: Offset = 0,
        limit: Limit = None,
    ) -> dict[str, Any]:
        section = _found(lambda: c.section(section_id))
        rows, next_offset = _page(c.contexts(section_id), offset, limit, service.settings.page_size, request, response)
        return service.bounded({"section": asdict(section), "contexts": [asdict(context) for context in rows], "next_offset": next_offset})

    @app.get("/sections/{section_id}/next")
    def next_section(_: Authorised, c: Opened, section_id: str) -> dict[str, Any]:
        return service.bounded(asdict(_found(lambda: c.next_section(section_id), "the last section")))

    @app.get("/sections/{section_id}/previous")
    def previous_section(_: Authorised, c: Opened, section_id: str) -> dict[str, Any]:
        return service.bounded(asdict(_found(lambda: c.previous_section(section_id), "the first section")))

    @app.get("/contexts/{context_id}/parent")
    def parent_contexts(
        _: Authorised, c: Opened, context_id: str, before: int = Query(2, ge=0, le=20), after: int = Query(2, ge=0, le=20)
    ) -> list[dict[str, Any]]:
        return service.bounded([asdict(context) for context in _found(lambda: c.parent_contexts(context_id, before, after))])


def _add_ask_route(app: FastAPI, service: _Service) -> None:
    """``/ask``: an answer's steps as server-sent events, within the service's caps."""

    @app.get("/ask")
    async def ask(
        _: Authorised,
        filters: Filtered,
        q: str,
        strategy: str = "parent",
        budget_tokens: int | None = Query(None, ge=100),
        max_steps: int | None = Query(None, ge=1),
        max_llm_tokens: int | None = Query(None, ge=100),
    ) -> Response:
        budget = _capped("budget_tokens", budget_tokens, DEFAULT_BUDGET_TOKENS, service.settings.max_budget_tokens, "MAX_BUDGET_TOKENS")
        limits = Limits(
            _capped("max_steps", max_steps, 8, service.settings.max_steps, "MAX_STEPS"),
            _capped("max_llm_tokens", max_llm_tokens, 30_000, service.settings.max_llm_tokens, "MAX_LLM_TOKENS"),
        )
        llm = await run_in_threadpool(service.answering_llm)

        def work(on_step: Any) -> dict[str, Any]:
            with service.reading() as opened:
                answer = opened.ask(q, strategy=strategy, budget_tokens=budget, llm=llm, filter_llm=service.filter_llm, on_step=on_step,
                                    limits=limits, filters=filters)  # fmt: skip
            return service.bounded(answer.to_json())

        stream = service.asks.start(work)
        if stream is None:
            raise HTTPException(
                503,
                f"{service.asks.limit} questions are being answered already (PAPERPYRAMID_SERVE__MAX_CONCURRENT_ASKS); "
                f"ask again in a few seconds",
                headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
            )
        return stream


def run(app: FastAPI, *, host: str, port: int) -> None:
    """Serve ``app`` (from :func:`create_app`) with uvicorn until SIGTERM or Ctrl-C. At the signal
    every ask ends (each stops at its next step); open responses get ``shutdown_seconds`` to
    finish, then SQLite statements still running are interrupted. Tokens are redacted from the
    access log."""
    import uvicorn

    service: _Service = app.state.service

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            service.asks.stop_all("the service is stopping; ask again once it is back")
            super().handle_exit(sig, frame)

    config = uvicorn.Config(
        app, host=host, port=port, log_level="info", timeout_graceful_shutdown=math.ceil(service.settings.shutdown_seconds)
    )
    logging.getLogger("uvicorn.access").addFilter(RedactTokens())
    Server(config).run()


def _corpus(request: Request) -> Iterator[Corpus]:
    """The dependency that opens a request's corpus."""
    with request.app.state.service.reading() as opened:
        yield opened


def _filters(
    article: Annotated[list[str] | None, Query(description="Only these articles (ids); repeat the parameter for several.")] = None,
    year_from: int | None = None,
    year_to: int | None = None,
    journal: Annotated[str | None, Query(max_length=300, description="Only articles of this journal (any case).")] = None,
    mesh: Annotated[str | None, Query(max_length=300, description="Only articles indexed with this MeSH heading (any case).")] = None,
    publication_type: Annotated[
        str | None, Query(max_length=300, description="Only articles of this PubMed publication type, e.g. Review (any case).")
    ] = None,
) -> Filters:
    """The dependency that reads the search filters ``/search`` and ``/ask`` share."""
    if year_from is not None and year_to is not None and year_from > year_to:
        raise HTTPException(400, f"year_from {year_from} is after year_to {year_to}")
    return Filters(article_ids=tuple(article) if article else None, year_from=year_from, year_to=year_to, journal=journal, mesh=mesh,
                   publication_type=publication_type)  # fmt: skip


Authorised = Annotated[None, Depends(require_token)]
Opened = Annotated[Corpus, Depends(_corpus)]
Filtered = Annotated[Filters, Depends(_filters)]
#: where a list's page starts (a 422 past :data:`MAX_OFFSET`) and how many rows it holds at most
Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET)]
Limit = Annotated[int | None, Query(ge=1)]


def _add_error_handlers(app: FastAPI, service: _Service) -> None:
    """A corpus that cannot be read answers 503 with one line (and logs one), never a traceback."""

    @app.exception_handler(ServiceUnavailable)
    async def unavailable(_: Request, exc: ServiceUnavailable) -> JSONResponse:
        log.warning("%s", exc)
        return JSONResponse({"detail": str(exc)}, status_code=503)

    @app.exception_handler(DatabaseError)
    async def unreadable(_: Request, exc: Exception) -> JSONResponse:
        line = f"the corpus cannot be read: {service._shown(exc)}"
        log.warning("%s", line)
        return JSONResponse({"detail": line}, status_code=503)


def _capped(name: str, value: int | None, default: int, cap: int, setting: str) -> int:
    if value is None:
        return min(default, cap)
    if value > cap:
        raise HTTPException(422, f"{name} may be at most {cap:,} on this service (PAPERPYRAMID_SERVE__{setting})")
    return value


def _page(rows: Any, offset: int, limit: int | None, page_size: int, request: Request, response: Response) -> tuple[list[Any], int | None]:
    """Rows ``offset`` to ``offset + limit`` (``limit`` at most ``page_size``) and the next page's
    offset (None at the end), which a ``Link`` header also gives."""
    limit = min(limit or page_size, page_size)
    taken = list(islice(iter(rows), offset, offset + limit + 1))
    if len(taken) <= limit:
        return taken, None
    next_offset = offset + limit
    response.headers["Link"] = f'<{request.url.path}?offset={next_offset}&limit={limit}>; rel="next"'
    return taken[:limit], next_offset


def _found(get: Any, what: str = "") -> Any:
    try:
        value = get()
    except KeyError as exc:
        raise HTTPException(404, str(exc.args[0]) if exc.args else "not found") from exc
    if value is None:
        raise HTTPException(404, f"none: this is {what}")
    return value
