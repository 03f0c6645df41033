"""What the write side returns: one typed report per operation, never an exception for one bad
document (a PDF that cannot be parsed, an article the model cannot distil is a line in the
report, with its reason). The ingest, embed and distill reports' ``ok`` says whether everything
asked for was done, so a script can write ``if not report.ok: ...``; the counts say what happened.

These are plain frozen dataclasses, cheap to import: :mod:`paperpyramid` exports them. The
functions at the end make them from what the stages return.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from paperpyramid.distill.pipeline import ArticleOutcome, DistillSummary
    from paperpyramid.ingestion.embed import EmbedSummary

#: what became of one input of an ingest, as the corpus's ingest log records it
DocumentStatus = Literal["done", "skipped", "failed"]


@dataclass(frozen=True, slots=True)
class DocumentResult:
    """What one input of :func:`paperpyramid.ingest` became.

    ``source`` is the input's URI (a file's absolute path, ``s3://bucket/key``, or an archive
    member's as ``<archive>#<member>``); ``status`` is ``done`` (parsed and stored now, as ``article_id``),
    ``skipped`` (already in the corpus: the same bytes were stored before, under this name or
    another; ``reason`` says which) or ``failed`` (``reason`` says why, in one line, e.g.
    ``"x.pdf: encrypted PDF needs a password"``). ``previous`` is True when nothing was done to
    it now: an earlier run logged this outcome for the same bytes (a failed input is tried again
    only with ``retry_failed``, or when it failed because a service was down)."""

    source: str
    status: DocumentStatus
    reason: str | None = None
    article_id: str | None = None
    pages: int = 0
    seconds: float = 0.0
    warnings: tuple[str, ...] = ()
    previous: bool = False


@dataclass(frozen=True, slots=True)
class IngestReport:
    """What :func:`paperpyramid.ingest` did to the corpus at ``db``.

    ``stored`` inputs were parsed and stored as articles by this run, ``skipped`` ones were
    already there, ``failed`` ones could not be stored; ``failures`` holds each failed input
    with its reason (always kept), ``documents`` every input's :class:`DocumentResult` in the
    order they finished (empty when the run was told not to keep them: a watch, or a dump of
    millions of files). ``pages`` counts the stored articles' pages; ``seconds`` the run's wall
    time; ``deleted`` the articles removed because a PubMed update file deletes their PMIDs."""

    db: Path
    stored: int
    skipped: int
    failed: int
    failures: tuple[DocumentResult, ...]
    documents: tuple[DocumentResult, ...]
    pages: int
    seconds: float
    deleted: int = 0

    @property
    def total(self) -> int:
        """Inputs found in the sources: stored + skipped + failed."""
        return self.stored + self.skipped + self.failed

    @property
    def ok(self) -> bool:
        """True when the sources held at least one input and none failed (an input that failed
        in an earlier run and was not tried again counts as failed: the corpus still lacks it).
        An ingest that found nothing is not ok: a mistyped folder would otherwise pass."""
        return self.total > 0 and self.failed == 0

    @property
    def pages_per_second(self) -> float:
        """Pages stored per second of the run."""
        return self.pages / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True, slots=True)
class EmbedReport:
    """What :meth:`paperpyramid.Corpus.embed` did: ``embedded`` contexts got a vector from
    ``embedder`` (the name the vectors are stored under, e.g. ``all-MiniLM-L6-v2`` for
    ``minilm``) in ``seconds``; ``total`` contexts are in the corpus. ``failed`` contexts got a
    vector the model could not give (null, wrong length, NaN, all zeros), refused and not stored;
    ``first_error`` says why the first was refused. ``stopped`` says why the run ended early (a
    batch with no usable vector: the model or endpoint is broken); a re-run embeds what is still
    missing. ``indexed``: the approximate vector index was brought up to date (large corpora)."""

    embedder: str
    embedded: int
    failed: int
    total: int
    seconds: float
    indexed: bool = False
    first_error: str | None = None
    stopped: str | None = None

    @property
    def ok(self) -> bool:
        """True when no vector was refused and the run was not stopped."""
        return self.failed == 0 and self.stopped is None

    @property
    def passages_per_second(self) -> float:
        """Contexts embedded per second of the run."""
        return self.embedded / self.seconds if self.seconds > 0 else 0.0


@dataclass(frozen=True, slots=True)
class ArticleDistilled:
    """One article a distill run tried: ``status`` ``done`` (its pyramid stored) or ``failed``
    (``error`` says why: the model's answer did not validate, the endpoint stopped answering,
    ...), with the tokens its calls cost this time (``cached_calls`` came from the response
    cache and cost none)."""

    article_id: str
    title: str | None
    status: Literal["done", "failed"]
    error: str | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached_calls: int = 0
    seconds: float = 0.0


@dataclass(frozen=True, slots=True)
class DistillReport:
    """What :meth:`paperpyramid.Corpus.distill` did with ``model`` (the LLM's name, e.g.
    ``local:SmolLM2-135M-Instruct-Q4_1``): each article it tried in ``articles``; ``skipped``
    articles were distilled already with this model and these prompts; ``stale`` ones were
    distilled with another model or other prompts and left alone (``redo=True`` distils them
    again). ``recollections`` were created or updated across articles. ``stopped`` says why the
    run ended early (the endpoint stopped answering, or refused the request): a re-run goes on
    where it stopped, and the response cache makes the calls already answered free."""

    model: str
    articles: tuple[ArticleDistilled, ...]
    skipped: int
    stale: int
    recollections: int
    seconds: float
    stopped: str | None = None

    @property
    def distilled(self) -> int:
        """Articles distilled and stored by this run."""
        return sum(1 for article in self.articles if article.status == "done")

    @property
    def failed(self) -> int:
        """Articles this run tried and could not distil (each with its ``error``)."""
        return sum(1 for article in self.articles if article.status == "failed")

    @property
    def prompt_tokens(self) -> int:
        """Prompt tokens this run spent (calls answered from the cache cost none)."""
        return sum(article.prompt_tokens for article in self.articles)

    @property
    def completion_tokens(self) -> int:
        """Completion tokens this run spent."""
        return sum(article.completion_tokens for article in self.articles)

    @property
    def tokens(self) -> int:
        """Prompt and completion tokens spent by this run (answers from the cache cost none)."""
        return self.prompt_tokens + self.completion_tokens

    @property
    def ok(self) -> bool:
        """True when no article failed and the run was not stopped."""
        return self.failed == 0 and self.stopped is None


@dataclass(frozen=True, slots=True)
class ExportReport:
    """What :meth:`paperpyramid.Corpus.export` wrote: the ``articles`` (ids, in corpus order)
    as ``format`` (``markdown`` or ``json``; ``by_page``: one markdown file per PDF page) into
    ``destination``, as ``files``. It has no ``ok``: an export fails as a whole, by raising."""

    destination: Path
    format: Literal["markdown", "json"]
    by_page: bool
    articles: tuple[str, ...]
    files: tuple[Path, ...]


def embed_report(summary: EmbedSummary) -> EmbedReport:
    """The report of an embedding run, from the stage's summary."""
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


def distill_report(model: str, summary: DistillSummary) -> DistillReport:
    """The report of a distillation run by ``model``, from the stage's summary."""
    # a live run defers nothing (only batch distillation's rounds do): every outcome is done or failed
    articles = tuple(article_distilled(outcome) for outcome in summary.outcomes if outcome.status != "deferred")
    return DistillReport(
        model=model,
        articles=articles,
        skipped=summary.skipped,
        stale=summary.stale,
        recollections=summary.recollections,
        seconds=summary.seconds,
        stopped=summary.stopped,
    )


def article_distilled(outcome: ArticleOutcome) -> ArticleDistilled:
    """What became of one article of a distillation run."""
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


__all__ = [
    "ArticleDistilled",
    "DistillReport",
    "DocumentResult",
    "DocumentStatus",
    "EmbedReport",
    "ExportReport",
    "IngestReport",
    "article_distilled",
    "distill_report",
    "embed_report",
]
