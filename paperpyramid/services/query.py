"""The query service: a thin, read-only FastAPI layer over a corpus (``paperpyramid serve``)::

    GET  /                                  the web page: ask, watch the steps, follow the citations
    GET  /healthz                           {"status": "ok", "articles": N}
    GET  /search?q=&mode=&level=&k=&budget_tokens=&article=   cited hits, as ``paperpyramid search --json``
    GET  /articles                          every article (id, title, date, journal, pages)
    GET  /articles/{id}/outline             its sections in reading order
    GET  /sections/{id}/contexts            a section's passages in order
    GET  /sections/{id}/next, /previous     the neighbouring section (404 at either end)
    GET  /contexts/{id}/parent?before=&after=   a passage with the ones around it
    GET  /ask?q=&strategy=&budget_tokens=&max_steps=&max_llm_tokens=
                                            server-sent events: ``step`` as each step ends (a partial
                                            fact is a step named ``fact``), then ``answer``

Every request opens the corpus read-only (the model and the embedder are loaded once, shared).
When ``token`` (``PAPERPYRAMID_API_TOKEN``) is set, every request but ``/healthz`` must carry
``Authorization: Bearer <token>``. OpenAPI docs at ``/docs``.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, StreamingResponse

from paperpyramid.corpus import Corpus
from paperpyramid.embeddings import Embedder
from paperpyramid.errors import PaperPyramidError
from paperpyramid.llm import LLM
from paperpyramid.retrieval import SearchHit
from paperpyramid.retrieval.filters import Filters
from paperpyramid.retrieval.trace import Limits, Step

PAGE = Path(__file__).with_name("query_page.html")


def hit_json(rank: int, hit: SearchHit) -> dict[str, Any]:
    citation = hit.citation
    record: dict[str, Any] = {
        "rank": rank, "score": hit.score, "context_id": hit.context_id, "article_id": citation.article_id, "title": citation.article_title,
        "section_id": citation.section_id, "section_number": citation.section_number, "section_title": citation.section_title,
        "page": citation.page_number, "num_tokens": hit.num_tokens, "citation": hit.cite(), "text": hit.text,
    }
    if hit.level != "contexts":
        record |= {"level": hit.level, "item_id": hit.item_id, "sources": [hit_json(0, source) for source in hit.sources]}
    return record


def create_app(db: str | Path, *, llm: LLM | None = None, embedder: Embedder | None = None, token: str | None = None,
               filter_llm: LLM | None = None) -> FastAPI:
    """The app over the corpus file ``db``; ``llm`` answers (default: the configured model, loaded
    on the first question), ``embedder`` embeds queries (default: the configured one)."""
    path = Path(db)
    if not path.is_file():
        raise FileNotFoundError(f"no corpus at {path}")
    app = FastAPI(title="paperpyramid", description="Search and ask a paperpyramid corpus (read-only).")
    app.state.path, app.state.token, app.state.lock = path, token, threading.Lock()
    app.state.llm, app.state.embedder = llm, embedder
    shared = app.state

    def corpus() -> Iterator[Corpus]:
        return _open(shared)

    @app.get("/healthz")
    def healthz() -> dict[str, Any]:
        with Corpus.open(path) as opened:
            return {"status": "ok", "articles": opened.conn.execute("SELECT count(*) FROM articles").fetchone()[0]}

    @app.get("/", response_class=HTMLResponse)
    def page(_: Authorised) -> str:
        return PAGE.read_text(encoding="utf-8")

    @app.get("/search")
    def search(_: Authorised, c: Opened, q: str, mode: str | None = None, level: str = "contexts", k: int = Query(5, ge=1, le=100),
               budget_tokens: int | None = Query(None, ge=1), article: Annotated[list[str] | None, Query()] = None) -> list[dict[str, Any]]:
        filters = Filters(article_ids=tuple(article) if article else None)
        try:
            hits = c.retrieve(q, mode=mode or c.best_mode(), k=k, budget_tokens=budget_tokens, filters=filters, level=level)
        except (PaperPyramidError, ValueError) as exc:
            raise HTTPException(400, str(exc)) from exc
        return [hit_json(rank, hit) for rank, hit in enumerate(hits, 1)]

    @app.get("/articles")
    def articles(_: Authorised, c: Opened) -> list[dict[str, Any]]:
        return [{"id": a.id, "title": a.title, "date_published": a.date_published, "journal": a.journal, "pages": a.pages} for a in c.articles()]

    @app.get("/articles/{article_id}/outline")
    def outline(_: Authorised, c: Opened, article_id: str) -> list[dict[str, Any]]:
        return [asdict(section) for section in _found(lambda: c.sections(c.article(article_id).id))]

    @app.get("/sections/{section_id}/contexts")
    def contexts(_: Authorised, c: Opened, section_id: str) -> dict[str, Any]:
        section = _found(lambda: c.section(section_id))
        return {"section": asdict(section), "contexts": [asdict(context) for context in c.contexts(section_id)]}

    @app.get("/sections/{section_id}/next")
    def next_section(_: Authorised, c: Opened, section_id: str) -> dict[str, Any]:
        return asdict(_found(lambda: c.next_section(section_id), "the last section"))

    @app.get("/sections/{section_id}/previous")
    def previous_section(_: Authorised, c: Opened, section_id: str) -> dict[str, Any]:
        return asdict(_found(lambda: c.previous_section(section_id), "the first section"))

    @app.get("/contexts/{context_id}/parent")
    def parent_contexts(_: Authorised, c: Opened, context_id: str, before: int = Query(2, ge=0, le=20), after: int = Query(2, ge=0, le=20)) -> list[dict[str, Any]]:
        return [asdict(context) for context in _found(lambda: c.parent_contexts(context_id, before, after))]

    @app.get("/ask")
    def ask(_: Authorised, q: str, strategy: str = "parent", budget_tokens: int = Query(4000, ge=100, le=100_000),
            max_steps: int = Query(8, ge=1, le=50), max_llm_tokens: int = Query(30_000, ge=100, le=1_000_000)) -> StreamingResponse:
        with shared.lock:
            if shared.llm is None:
                from paperpyramid.llm import get_llm
                from paperpyramid.settings import Settings

                shared.llm = get_llm(Settings().llm)
        events: queue.Queue[tuple[str, dict[str, Any]] | None] = queue.Queue()

        def run() -> None:
            try:
                for opened in corpus():
                    answer = opened.ask(q, strategy=strategy, budget_tokens=budget_tokens, llm=shared.llm, filter_llm=filter_llm,
                                        on_step=lambda step: events.put(("step", _step_json(step))), limits=Limits(max_steps, max_llm_tokens))
                    events.put(("answer", answer.to_json()))
            except (PaperPyramidError, ValueError) as exc:
                events.put(("error", {"error": str(exc)}))
            except Exception as exc:  # a bug: say so on the stream rather than leave the page waiting
                events.put(("error", {"error": f"{type(exc).__name__}: {exc}"}))
                raise
            finally:
                events.put(None)

        threading.Thread(target=run, name="ask", daemon=True).start()

        def stream() -> Iterator[str]:
            while (event := events.get()) is not None:
                name, data = event
                yield f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"

        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})

    return app


def _authorise(request: Request) -> None:
    token = request.app.state.token
    if token and request.headers.get("authorization") != f"Bearer {token}":
        raise HTTPException(401, "a bearer token is required (Authorization: Bearer ...)", headers={"WWW-Authenticate": "Bearer"})


def _open(state: Any) -> Iterator[Corpus]:
    """The corpus, read-only, for one request; the query embedder is loaded once and shared."""
    with state.lock:
        if state.embedder is None:
            with Corpus.open(state.path) as probe:
                state.embedder = probe.embedder if probe.has_vectors() else None
    # FastAPI runs this dependency and the route in worker threads that need not be the same one
    opened = Corpus.open(state.path, embedder=state.embedder, check_same_thread=False)
    try:
        yield opened
    finally:
        opened.close()


def _corpus(request: Request) -> Iterator[Corpus]:
    yield from _open(request.app.state)


Authorised = Annotated[None, Depends(_authorise)]
Opened = Annotated[Corpus, Depends(_corpus)]


def _step_json(step: Step) -> dict[str, Any]:
    return {"name": step.name, "detail": step.detail, "prompt_tokens": step.prompt_tokens, "completion_tokens": step.completion_tokens,
            "seconds": round(step.seconds, 3)}


def _found(get: Any, what: str = "") -> Any:
    try:
        value = get()
    except KeyError as exc:
        raise HTTPException(404, str(exc.args[0]) if exc.args else "not found") from exc
    if value is None:
        raise HTTPException(404, f"none: this is {what}")
    return value
