"""``distill_corpus``: every article that needs it distilled, resumable and incremental.

Articles are distilled ``concurrency`` at a time in threads (the model calls are the slow
part); the calling thread is the single writer and stores each finished article in one
transaction, or records why it failed. What is already distilled with the same model and
prompts is skipped; an article distilled with another model or other prompts is left alone
unless ``redo`` is asked. When the endpoint stops answering (:class:`ServiceUnavailable`), the
article in hand is recorded as failed, nothing new is started and the run ends saying so: a
re-run goes on where it stopped, and the response cache makes the calls already answered free.
A :class:`ConfigurationError` (a wrong key or model name, a request the server refuses) stops
the run the same way rather than fail every article for the same reason.

One run distils a corpus at a time, as one ingest writes to it at a time: a second run waits on
a lock file beside the corpus (``corpus.sqlite.distill.lock``, the kernel's ``flock``, which a
killed holder lets go), saying so, and then plans what is left, so no article is paid for twice.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import sqlite_utils

from paperpyramid.db import pyramid as db_pyramid
from paperpyramid.db.queries import distill_articles
from paperpyramid.db.sqlite import Connection
from paperpyramid.db.writer import check_corpus_file, connect, writer_lock
from paperpyramid.distill.article import PARTIAL, ArticleText, distil_article, read_article
from paperpyramid.distill.bounds import answer_tokens
from paperpyramid.distill.prompts import PROMPT_VERSION
from paperpyramid.distill.recollections import recollect
from paperpyramid.embeddings import Embedder
from paperpyramid.errors import ConfigurationError, LLMOutputError, PaperPyramidError, ServiceUnavailable
from paperpyramid.llm import LLM
from paperpyramid.settings import DistillSettings
from paperpyramid.tokens import TokenCounter

log = logging.getLogger(__name__)

#: pages are cut to this many tokens for the local model unless DistillSettings.page_tokens says otherwise
LOCAL_PAGE_TOKENS = 300
#: and its answers to this many (a 135M model writes nothing useful past it); endpoints get MAX_TOKENS
LOCAL_MAX_TOKENS = 400
MAX_TOKENS = 2048


class ArticleDeferred(Exception):
    """Raised by an LLM whose answer is not there yet (batch distillation, where answers arrive
    in rounds): the article is neither stored nor recorded as failed, and ``waiting_for`` names
    the request it waits on. Not a :class:`PaperPyramidError`, so nothing records it."""

    def __init__(self, waiting_for: str) -> None:
        super().__init__(f"waiting for the answer to {waiting_for}")
        self.waiting_for = waiting_for


@dataclass(slots=True)
class ArticleOutcome:
    article_id: str
    title: str | None
    status: str  # done | failed | deferred (then ``error`` is what it waits for: ArticleDeferred.waiting_for)
    error: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_calls: int = 0
    seconds: float = 0.0


@dataclass(slots=True)
class DistillSummary:
    outcomes: list[ArticleOutcome] = field(default_factory=list)
    skipped: int = 0  # distilled already with this model and these prompts
    stale: int = 0  # distilled with another model or other prompts (redo to re-distil)
    stopped: str | None = None  # why the run ended early (the endpoint stopped answering)
    recollections: int = 0  # recollections created or updated
    seconds: float = 0.0

    @property
    def done(self) -> int:
        return sum(1 for outcome in self.outcomes if outcome.status == "done")

    @property
    def failed(self) -> int:
        return sum(1 for outcome in self.outcomes if outcome.status == "failed")

    @property
    def deferred(self) -> int:
        return sum(1 for outcome in self.outcomes if outcome.status == "deferred")

    @property
    def tokens(self) -> int:
        return sum(outcome.prompt_tokens + outcome.completion_tokens for outcome in self.outcomes)


def plan(
    conn: Connection, model: str, article_ids: Sequence[str] | None, redo: bool, max_pages: int | None = None
) -> tuple[list[str], int, int]:
    """(articles to distil in storage order, already done, stale). An article distilled only in
    part (``max_pages``) is done again by a run that reads more pages."""
    states = db_pyramid.distill_states(conn)
    wanted = distill_articles.article_ids(conn)
    if article_ids is not None:
        known = set(wanted)
        missing = [article_id for article_id in article_ids if article_id not in known]
        if missing:
            raise KeyError(f"no article {missing[0]!r} in the corpus")
        wanted = [article_id for article_id in wanted if article_id in set(article_ids)]
    todo, done, stale = [], 0, 0
    partial_version = f"{PROMPT_VERSION}{PARTIAL}{max_pages}pages" if max_pages else None
    for article_id in wanted:
        state = states.get(article_id)
        if state is None or state.status == "failed" or redo:
            todo.append(article_id)
        elif state.model == model and state.prompt_version in (PROMPT_VERSION, partial_version):
            done += 1
        elif state.model == model and state.prompt_version.startswith(PROMPT_VERSION + PARTIAL):
            todo.append(article_id)  # distilled in part; this run reads more (or fewer) pages
        else:
            stale += 1
    return todo, done, stale


def distill_corpus(
    db_path: str | Path,
    llm: LLM,
    settings: DistillSettings,
    *,
    embedder: Embedder | None = None,
    article_ids: Sequence[str] | None = None,
    redo: bool = False,
    counter: TokenCounter | None = None,
    on_start: Callable[[int], None] | None = None,
    on_article: Callable[[ArticleOutcome], None] | None = None,
) -> DistillSummary:
    """Distil the corpus at ``db_path`` (see the module's docstring); never raises for one article."""
    started = time.monotonic()
    counter = counter or TokenCounter()
    page_tokens = (
        settings.page_tokens if settings.page_tokens is not None else (LOCAL_PAGE_TOKENS if llm.name.startswith("local:") else None)
    )
    local = llm.name.startswith("local:")
    concurrency = settings.concurrency or (1 if local else 4)
    max_tokens = answer_tokens(llm, settings.max_tokens or (LOCAL_MAX_TOKENS if local else MAX_TOKENS))
    summary = DistillSummary()
    with _corpus_alone(db_path) as db:
        conn = db.conn
        todo, summary.skipped, summary.stale = plan(conn, llm.name, article_ids, redo, settings.max_pages)
        if on_start is not None:
            on_start(len(todo))

        def work(article: ArticleText) -> db_pyramid.ArticlePyramid:
            return distil_article(
                article,
                llm,
                counter=counter,
                embedder=embedder if settings.embed else None,
                max_tokens=max_tokens,
                page_tokens=page_tokens,
                max_pages=settings.max_pages,
            )

        queue = list(reversed(todo))
        running: dict[Future[db_pyramid.ArticlePyramid], ArticleText] = {}
        with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="distill") as pool:
            while queue or running:
                while queue and len(running) < concurrency and summary.stopped is None:
                    article = read_article(conn, queue.pop())
                    running[pool.submit(work, article)] = article
                if not running:
                    break
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    article = running.pop(future)
                    outcome = _store(conn, future, article, llm.name)
                    if outcome.status == "failed" and isinstance(future.exception(), (ServiceUnavailable, ConfigurationError)):
                        summary.stopped = outcome.error
                    summary.outcomes.append(outcome)
                    if on_article is not None:
                        on_article(outcome)
        if settings.recollections and summary.stopped is None:
            try:
                summary.recollections = recollect(
                    conn, llm, settings, counter=counter, embedder=embedder if settings.embed else None, max_tokens=max_tokens
                )
            except (ServiceUnavailable, ConfigurationError) as exc:
                summary.stopped = f"recollections: {exc}"
    summary.seconds = time.monotonic() - started
    return summary


@contextmanager
def _corpus_alone(db_path: str | Path) -> Iterator[sqlite_utils.Database]:
    """The corpus open for writing, with this run the only distill on it."""
    check_corpus_file(db_path)  # before the lock file is made beside it
    with one_run_at_a_time(db_path):
        db = connect(db_path)
        try:
            yield db
        finally:
            db.close()


@contextmanager
def one_run_at_a_time(db_path: str | Path) -> Iterator[None]:
    """Hold the corpus's distill lock (``<corpus>.distill.lock``) for the block; a second run
    waits, saying so, until the first ends. Apart from the ingest lock: ingest and distill
    may run together (SQLite serialises their transactions)."""
    with writer_lock(db_path, suffix=".distill.lock", doing="distill (pid {pid}) is distilling"):
        yield


def _store(conn: Connection, future: Future[db_pyramid.ArticlePyramid], article: ArticleText, model: str) -> ArticleOutcome:
    error = future.exception()
    if isinstance(error, ArticleDeferred):  # its answers come in a later round: nothing to store or record yet
        return ArticleOutcome(article.article_id, article.title, "deferred", error.waiting_for)
    if error is None:
        pyramid = future.result()
        try:
            db_pyramid.store_pyramid(conn, pyramid)
        except Exception as exc:  # a locked file, a clash of vector sizes: this article fails, the run goes on
            log.error("storing the pyramid of %s failed", article.article_id, exc_info=exc)
            db_pyramid.roll_back(conn)
            reason = f"could not store the pyramid: {type(exc).__name__}: {exc}"
            db_pyramid.record_failure(conn, article.article_id, model, PROMPT_VERSION, reason, pyramid.calls, pyramid.seconds)
            return ArticleOutcome(article.article_id, article.title, "failed", reason)
        spent = [call for call in pyramid.calls if not call.cached]
        return ArticleOutcome(
            article.article_id,
            article.title,
            "done",
            None,
            sum(c.prompt_tokens for c in spent),
            sum(c.completion_tokens for c in spent),
            len(pyramid.calls) - len(spent),
            pyramid.seconds,
        )
    if not isinstance(error, PaperPyramidError):
        log.error("distilling %s failed with an unexpected error", article.article_id, exc_info=error)
    reason = str(error) if isinstance(error, PaperPyramidError) else f"{type(error).__name__}: {error}"
    calls = list(getattr(error, "calls", []))
    usage = getattr(error, "usage", None) if isinstance(error, LLMOutputError) else None
    if usage is not None:  # the failed call itself
        calls.append(
            db_pyramid.LLMCallRecord("failed call", model, getattr(usage, "prompt_tokens", 0), getattr(usage, "completion_tokens", 0))
        )
    db_pyramid.record_failure(conn, article.article_id, model, PROMPT_VERSION, reason, calls)
    return ArticleOutcome(article.article_id, article.title, "failed", reason)
