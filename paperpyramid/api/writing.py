"""What :class:`paperpyramid.Corpus`'s write methods run (and through them the commands ``embed``,
``distill`` and ``export``): the pipeline's functions, with their summaries turned into the typed reports of
:mod:`paperpyramid.api.reports` and an optional progress bar. Embedding and distilling open their
own writer connection on the corpus file (the corpus's own connection only reads)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from paperpyramid.api.progress import progress_bar
from paperpyramid.api.reports import ArticleDistilled, DistillReport, EmbedReport, ExportReport

if TYPE_CHECKING:
    from paperpyramid.corpus import Corpus
    from paperpyramid.distill.pipeline import ArticleOutcome
    from paperpyramid.embeddings import Embedder
    from paperpyramid.llm import LLM
    from paperpyramid.settings import DistillSettings

#: what :meth:`paperpyramid.Corpus.export` writes
EXPORT_FORMATS: tuple[str, ...] = ("markdown", "json")


def embed_file(
    path: Path,
    embedder: Embedder,
    *,
    batch_size: int,
    progress: bool,
    on_start: Callable[[int], None] | None = None,
    on_batch: Callable[[int, int], None] | None,
) -> EmbedReport:
    """Embed the contexts of the corpus at ``path`` that lack ``embedder``'s vectors.
    ``on_start(missing)`` before the first batch: how many lack a vector; ``on_batch(done, missing)``
    after each batch: contexts handled so far, and how many lacked a vector at the start."""
    from paperpyramid.ingest.embed import embed_corpus

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

        summary = embed_corpus(path, embedder, batch_size=batch_size, on_start=start, on_batch=batch)
    return EmbedReport(
        embedder=summary.embedder,
        embedded=summary.embedded,
        failed=summary.failed,
        total=summary.total,
        seconds=summary.seconds,
        indexed=summary.indexed,
        first_error=summary.first_error,
        stopped=summary.stopped,
    )


def distill_file(
    path: Path,
    llm: LLM,
    settings: DistillSettings,
    *,
    embedder: Embedder | None,
    article_ids: Sequence[str] | None,
    redo: bool,
    progress: bool,
    on_start: Callable[[int], None] | None = None,
    on_article: Callable[[ArticleDistilled, int], None] | None,
) -> DistillReport:
    """Distil the articles of the corpus at ``path`` that need it (see
    :func:`paperpyramid.distill.pipeline.distill_corpus`). ``on_start(todo)`` before the first
    article: how many this run sets out to distil; ``on_article(article, todo)`` after each."""
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
                on_article(_distilled(outcome), todo[0])

        summary = distill_corpus(
            path, llm, settings, embedder=embedder, article_ids=article_ids, redo=redo, on_start=start, on_article=finished
        )
    # a live run defers nothing (only batch distillation's rounds do): every outcome is done or failed
    articles = tuple(_distilled(outcome) for outcome in summary.outcomes if outcome.status != "deferred")
    return DistillReport(
        model=llm.name,
        articles=articles,
        skipped=summary.skipped,
        stale=summary.stale,
        recollections=summary.recollections,
        seconds=summary.seconds,
        stopped=summary.stopped,
    )


def _distilled(outcome: ArticleOutcome) -> ArticleDistilled:
    status: Literal["done", "failed"] = "done" if outcome.status == "done" else "failed"
    return ArticleDistilled(
        article_id=outcome.article_id,
        title=outcome.title,
        status=status,
        error=outcome.error,
        prompt_tokens=outcome.prompt_tokens,
        completion_tokens=outcome.completion_tokens,
        cached_calls=outcome.cached_calls,
        seconds=outcome.seconds,
    )


def export_corpus(
    corpus: Corpus,
    destination: Path,
    *,
    format: Literal["markdown", "json"],
    by_page: bool,
    articles: Sequence[str] | None,
    progress: bool,
    on_article: Callable[[int, int], None] | None,
) -> ExportReport:
    """Write ``articles`` (ids or DOIs; None: every article) of ``corpus`` into ``destination``
    (see :func:`paperpyramid.export.export_articles`). ``on_article(done, total)`` after each."""
    from paperpyramid.export import export_articles

    if format not in EXPORT_FORMATS:
        raise ValueError(f"unknown export format {format!r}; choose one of: {', '.join(EXPORT_FORMATS)}")
    ids = article_ids(corpus, articles)
    if ids is None:
        ids = [article.id for article in corpus.articles()]
    with progress_bar(progress, "export") as bar:
        bar.total(len(ids))

        def exported(done: int, total: int) -> None:
            bar.advance(1)
            if on_article is not None:
                on_article(done, total)

        files = export_articles(corpus, destination, format=format, by_page=by_page, article_ids=ids, on_article=exported)
    return ExportReport(destination=destination, format=format, by_page=by_page, articles=tuple(ids), files=tuple(files))


def article_ids(corpus: Corpus, articles: Sequence[str] | None) -> list[str] | None:
    """The ids of ``articles`` (ids or DOIs), each once, in the order given (None: every
    article); an unknown one raises ``KeyError`` naming it."""
    if articles is None:
        return None
    if isinstance(articles, str):
        raise TypeError("articles is a list of ids or DOIs, not one string: write articles=[...]")
    return list(dict.fromkeys(corpus.article(name).id for name in articles))


def embedder_for(corpus: Corpus, name: str | None, given: Embedder | None) -> Embedder:
    """The embedder :meth:`~paperpyramid.Corpus.embed` uses: ``given``, else the corpus's query
    embedder when ``name`` is None or the configured model, else the model ``name`` names."""
    from paperpyramid.settings import EMBEDDER_NAMES

    if given is not None:
        if name is not None:
            raise ValueError("give embedding_model or embedder, not both")
        return given
    if name is None or name == corpus.settings.embedding.model:
        return corpus.embedder
    if name not in EMBEDDER_NAMES:
        raise ValueError(f"unknown embedding model {name!r}; choose one of: {', '.join(EMBEDDER_NAMES)}")
    from paperpyramid.embeddings import get_embedder

    return get_embedder(corpus.settings.embedding.model_copy(update={"model": name}))
