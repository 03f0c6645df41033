"""Batch distillation in rounds: import results, distil what they answer, write the next round.

The windows of a paper are read in order, each seeing the insights the window before took, so
an article asks one request at a time: round 1 holds the first window of every article, and
each later round every article's next unanswered request (its next window, its concepts, its
abstract, or the repair turn after a reply that failed validation). A round is one batch file;
a paper of n pages takes n + 3 rounds (n + 1 windows, concepts, abstract), more where a repair
turn was needed, and all papers go through their rounds side by side.

Each round runs the ordinary distillation (:func:`~paperpyramid.distill.pipeline.distill_corpus`)
against :class:`~paperpyramid.distill.batch.answering.BatchLLM`: an article whose every call is
answered is stored through the single writer in one transaction, with the tokens its results
report, and is done for good (the plan skips it afterwards, so storage is exactly once whatever
is imported again); an article that fails (an error line, a second bad reply, no insights) is
recorded as failed with its reason and left out of later rounds, whose answers would be the same
(a live ``distill`` tries it again, as it does every failed article); the others wait, each on
one request. Recollections are not batched: each article must meet the corpus as it stood, one
after another, which would be a round per article; a live ``distill`` after the last round
writes them (the distilled articles are skipped, so it makes only those calls).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from paperpyramid.db import sqlite
from paperpyramid.db.queries import distill_articles
from paperpyramid.db.sqlite import Connection
from paperpyramid.distill.batch.answering import BatchLLM, request_line
from paperpyramid.distill.batch.results import read_output_file
from paperpyramid.distill.batch.store import BatchStore, ImportCount, PendingRequest
from paperpyramid.distill.pipeline import ArticleOutcome, DistillSummary, distill_corpus
from paperpyramid.embeddings import Embedder
from paperpyramid.settings import DistillSettings, LLMSettings


@dataclass(slots=True)
class BatchRound:
    """What one batch step did: the files imported, the distillation run on the results, and
    the requests the articles still wait on (one each)."""

    imported: list[tuple[Path, ImportCount]] = field(default_factory=list)
    summary: DistillSummary = field(default_factory=DistillSummary)
    pending: list[PendingRequest] = field(default_factory=list)
    written: Path | None = None  # the round file written, if one was asked for
    number: int | None = None  # its round number
    asked_before: int = 0  # pending requests that an earlier round's file held already


def import_results(store: BatchStore, files: Sequence[Path]) -> list[tuple[Path, ImportCount]]:
    """Store every result of each batch output file, a file at a time, each in one transaction."""
    return [(path, store.add_results(read_output_file(path), str(path))) for path in files]


def distil_from_results(
    db_path: str | Path,
    llm_settings: LLMSettings,
    settings: DistillSettings,
    store: BatchStore,
    *,
    embedder: Embedder | None = None,
    article_ids: Sequence[str] | None = None,
    redo: bool = False,
    on_article: Callable[[ArticleOutcome], None] | None = None,
) -> tuple[DistillSummary, list[PendingRequest]]:
    """Run the distillation on the imported results (see the module docstring); return its
    summary and the requests the waiting articles need next."""
    llm = BatchLLM(llm_settings, store)
    candidates = _candidates(db_path, article_ids, store.created_at)
    summary = distill_corpus(
        db_path,
        llm,
        settings.model_copy(update={"recollections": False}),
        embedder=embedder,
        article_ids=candidates,
        redo=redo,
        on_article=on_article,
    )
    pending = [
        PendingRequest(outcome.error, outcome.article_id, llm.asked[outcome.error])
        for outcome in summary.outcomes
        if outcome.status == "deferred" and outcome.error
    ]
    return summary, pending


def write_round(folder: Path, store: BatchStore, pending: Sequence[PendingRequest]) -> tuple[int, Path, int]:
    """Write ``pending`` as the next round's batch input file ``folder/round-NNN.jsonl`` and note
    it in the store; return (round number, path, how many an earlier round held already). The
    file appears whole or not at all (written aside, then renamed)."""
    folder.mkdir(parents=True, exist_ok=True)
    number = store.last_round() + 1
    path = folder / f"round-{number:03d}.jsonl"
    asked_before = sum(1 for item in pending if store.round_of(item.custom_id) is not None)
    partial = path.with_name(path.name + ".partial")
    with partial.open("w", encoding="utf-8") as handle:
        for item in pending:
            handle.write(json.dumps(request_line(item.custom_id, item.body), ensure_ascii=False) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(partial, path)
    store.record_round(number, path, pending)
    return number, path, asked_before


def batch_step(
    db_path: str | Path,
    llm_settings: LLMSettings,
    settings: DistillSettings,
    store: BatchStore,
    *,
    import_files: Sequence[Path] = (),
    export_to: Path | None = None,
    embedder: Embedder | None = None,
    article_ids: Sequence[str] | None = None,
    redo: bool = False,
    on_article: Callable[[ArticleOutcome], None] | None = None,
) -> BatchRound:
    """One step of the workflow: import ``import_files``, distil what the results answer, and
    write the next round into ``export_to`` when there is one to write."""
    step = BatchRound(imported=import_results(store, import_files))
    step.summary, step.pending = distil_from_results(
        db_path, llm_settings, settings, store, embedder=embedder, article_ids=article_ids, redo=redo, on_article=on_article
    )
    if export_to is not None and step.pending:
        step.number, step.written, step.asked_before = write_round(export_to, store, step.pending)
    return step


def _candidates(db_path: str | Path, article_ids: Sequence[str] | None, since: str) -> list[str]:
    """The articles a batch run may take: all (or those named), less those whose distillation
    failed since the batch began (their results would fail them again)."""
    conn: Connection = sqlite.connect(db_path, read_only=True)
    try:
        ids = distill_articles.article_ids(conn)
        failed = distill_articles.failed_since(conn, since)
    finally:
        conn.close()
    if article_ids is not None:
        missing = sorted(set(article_ids) - set(ids))
        if missing:
            raise KeyError(f"no article {missing[0]!r} in the corpus")
        ids = [article_id for article_id in ids if article_id in set(article_ids)]
    return [article_id for article_id in ids if article_id not in failed]


__all__ = ["BatchRound", "batch_step", "distil_from_results", "import_results", "write_round"]
