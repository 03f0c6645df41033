"""``paperpyramid distill``: the knowledge pyramid, from live LLM calls, from batch files
(``--batch-export`` / ``--batch-import``, ``--dry-run``), or from distillation JSON files
(``--import``); ``--export`` writes the pyramids out."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from pydantic import ValidationError
from rich.markup import escape
from rich.progress import TextColumn

from paperpyramid.cli.common import (
    DbOption,
    LLMBackendChoice,
    _bar,
    _check_corpus_file,
    _compression,
    _error,
    _fail,
    _interrupted,
    _invalid,
    _llm_settings,
    _writing,
    console,
    out,
)
from paperpyramid.errors import PaperPyramidError

if TYPE_CHECKING:
    from paperpyramid.distill.batch import ArticleEstimate, BatchRound
    from paperpyramid.settings import Settings


Articles = Annotated[list[str] | None, typer.Option("--article", help="Only this article (id); repeat for more.")]
Concurrency = Annotated[int | None, typer.Option(help="Articles distilled at once (default: 4 for an endpoint, 1 for the local model).")]
Backend = Annotated[
    LLMBackendChoice | None, typer.Option(help="LLM backend: local (default, SmolLM2-135M in-process) or openai (OPENAI_BASE_URL).")
]
Model = Annotated[str | None, typer.Option(metavar="NAME", help="With --llm-backend openai: the model name the server knows.")]
Redo = Annotated[bool, typer.Option("--redo", help="Distil again articles already distilled (with this or another model or prompt).")]
MaxPages = Annotated[int | None, typer.Option(help="Distil only the first N pages of each article (a quick look with a slow model).")]
Recollections = Annotated[
    bool, typer.Option("--recollections/--no-recollections", help="Connect new articles to the others in recollections.")
]
ImportFiles = Annotated[
    list[Path] | None,
    typer.Option(
        "--import",
        metavar="FILE",
        help="Load a distillation JSON file (the format --export writes) instead of calling a model; repeat for more.",
    ),
]
Export = Annotated[Path | None, typer.Option("--export", help="Write every distilled article's pyramid as JSON files into this folder.")]
BatchExport = Annotated[
    Path | None,
    typer.Option(
        "--batch-export",
        help="Batch distillation: write the next round's requests (OpenAI Batch API JSONL, which vLLM run_batch reads) "
        "as DIR/round-NNN.jsonl: round 1 the first window of every article, each later round every article's next unanswered request "
        "(next window, concepts, abstract, or the one repair turn after a reply that failed validation). Needs --llm-model.",
    ),
]
BatchImport = Annotated[
    list[Path] | None,
    typer.Option(
        "--batch-import",
        help="Batch distillation: store a round's output file (OpenAI or vLLM run_batch; repeat for more), then store every "
        "article whose calls are all answered, validated and counted as live; with --batch-export, write the next round too.",
    ),
]
DryRun = Annotated[
    bool,
    typer.Option("--dry-run", help="Print the requests, tokens and estimated cost of each article to distil, and send or write nothing."),
]
PriceInput = Annotated[
    float | None, typer.Option(help="With --dry-run: price of a million prompt tokens (PAPERPYRAMID_DISTILL__PRICE_INPUT).")
]
PriceOutput = Annotated[
    float | None, typer.Option(help="With --dry-run: price of a million completion tokens (PAPERPYRAMID_DISTILL__PRICE_OUTPUT).")
]


def distill(
    db: DbOption = Path("paperpyramid.sqlite"),
    article: Articles = None,
    concurrency: Concurrency = None,
    llm_backend: Backend = None,
    llm_model: Model = None,
    redo: Redo = False,
    max_pages: MaxPages = None,
    recollections: Recollections = True,
    import_files: ImportFiles = None,
    export: Export = None,
    batch_export: BatchExport = None,
    batch_import: BatchImport = None,
    dry_run: DryRun = False,
    price_input: PriceInput = None,
    price_output: PriceOutput = None,
) -> None:
    """Distil papers into the knowledge pyramid: insights from two-page windows, concepts, one
    abstract per article, recollections across articles; each level with FTS and vectors.
    Resumable and incremental: one transaction per article, and a re-run distils only what is
    missing or failed (the response cache makes answered calls free). One distill per corpus at
    a time (a second waits for the first). Exits 1 when an article it tried failed, 3 when
    the endpoint stopped answering. With --batch-export / --batch-import the same distillation
    runs in rounds of batch files instead of live calls (see the batch distillation guide); recollections
    are then written by a live distill after the last round."""
    if not db.is_file():
        raise _fail(f"no corpus at {db} (create one with: paperpyramid ingest PDFs --db {db})")
    _check_corpus_file(db)
    settings = _distill_settings(llm_backend, llm_model, concurrency, recollections, max_pages)
    if export is not None:
        _export_pyramids(db, export)
        return
    if dry_run or batch_export is not None or batch_import:
        prices = (
            price_input if price_input is not None else settings.distill.price_input,
            price_output if price_output is not None else settings.distill.price_output,
        )
        _distill_batch(db, settings, article, redo, batch_import or [], batch_export, dry_run, prices)
        return
    embedder = _distill_embedder(settings)
    if import_files:
        _import_pyramids(db, import_files, embedder)
        return
    _distill(db, settings, embedder, article, redo)


def _distill_settings(
    llm_backend: LLMBackendChoice | None, llm_model: str | None, concurrency: int | None, recollections: bool, max_pages: int | None
) -> Settings:
    """The configured settings with the command's model and distillation options over them; one
    line when a value is invalid."""
    from paperpyramid.settings import Settings

    try:
        settings = Settings()
        settings = settings.model_copy(update={"llm": _llm_settings(settings.llm, llm_backend, llm_model)})
        if concurrency is not None or not recollections or max_pages is not None:
            settings = settings.model_copy(
                update={
                    "distill": settings.distill.model_validate(
                        {
                            **settings.distill.model_dump(),
                            "concurrency": concurrency or settings.distill.concurrency,
                            "recollections": recollections,
                            "max_pages": max_pages or settings.distill.max_pages,
                        }
                    )
                }
            )
    except ValidationError as exc:
        raise _invalid(exc) from exc
    return settings


def _distill_batch(
    db: Path,
    settings: Settings,
    article: list[str] | None,
    redo: bool,
    import_files: list[Path],
    export_to: Path | None,
    dry_run: bool,
    prices: tuple[float | None, float | None],
) -> None:
    """``distill --dry-run`` / ``--batch-import`` / ``--batch-export`` (see docs/guides/batch-distillation.md)."""
    from paperpyramid.distill import batch

    try:
        if dry_run:
            _print_estimates(batch.estimate_corpus(db, settings.llm, settings.distill, article, redo), prices)
            return
        with batch.BatchStore(batch.store_path(db)) as store:
            step = batch.batch_step(
                db,
                settings.llm,
                settings.distill,
                store,
                import_files=import_files,
                export_to=export_to,
                embedder=_distill_embedder(settings),
                article_ids=article,
                redo=redo,
            )
    except (KeyError, PaperPyramidError) as exc:
        raise _error(exc) from exc
    _print_batch_step(step)
    if step.summary.stopped is not None:
        raise _fail(f"stopped early: {step.summary.stopped}")
    if step.summary.failed and not step.summary.done and not step.pending:
        raise typer.Exit(1)


def _print_estimates(estimates: list[ArticleEstimate], prices: tuple[float | None, float | None]) -> None:
    """``--dry-run``: a line per article to distil, then the totals (with a cost where ``prices`` are known)."""
    from paperpyramid.distill import batch

    for item in estimates:
        cost = item.cost(*prices)
        out.print(
            f"{item.article_id}  {item.pages:>4} pages {item.requests:>4} requests  round 1: {item.first_round_tokens:>7} prompt tokens  "
            f"all: {item.prompt_tokens:>9} prompt + {item.completion_tokens:>8} completion tokens (estimated)"
            + (f"  {cost:.4f}" if cost is not None else "")
            + f"  {item.title or ''}",
            highlight=False,
            soft_wrap=True,
        )
    total = batch.ArticleEstimate(
        "",
        None,
        sum(e.pages for e in estimates),
        sum(e.requests for e in estimates),
        sum(e.first_round_tokens for e in estimates),
        sum(e.prompt_tokens for e in estimates),
        sum(e.completion_tokens for e in estimates),
    )
    cost = total.cost(*prices)
    out.print(
        f"{len(estimates)} articles, {total.requests} requests: round 1 {total.first_round_tokens} prompt tokens (counted); in all about "
        f"{total.prompt_tokens} prompt + {total.completion_tokens} completion tokens"
        + (f", estimated cost {cost:.2f}" if cost is not None else " (set --price-input/--price-output for a cost)"),
        highlight=False,
    )


def _print_batch_step(step: BatchRound) -> None:
    """What a batch step did: the files imported, the articles stored or failed, and the round
    written or what waits for one."""
    for path, count in step.imported:
        console.print(
            f"imported {path}: {count.new} results stored, {count.again} stored before"
            + (f", {count.unknown} for requests this corpus never wrote (ignored)" if count.unknown else ""),
            highlight=False,
        )
    summary = step.summary
    for outcome in summary.outcomes:
        if outcome.status == "failed":
            console.print(f"[red]failed[/] {escape(outcome.title or outcome.article_id)}: {escape(outcome.error or '')}", highlight=False)
    console.print(
        f"{summary.done} articles distilled from batch results, {summary.failed} failed, {summary.skipped} already done, "
        f"{summary.deferred} waiting; {summary.tokens} tokens accounted",
        highlight=False,
    )
    if step.written is not None:
        again = f" ({step.asked_before} of them written before: their results were not imported)" if step.asked_before else ""
        console.print(
            f"round {step.number}: {len(step.pending)} requests written to {step.written}{again}; run them as a batch, then "
            f"distill --batch-import OUTPUT --batch-export {step.written.parent}",
            highlight=False,
        )
    elif step.pending:
        console.print(f"{len(step.pending)} requests wait for the next round: write them with --batch-export DIR", highlight=False)
    else:
        console.print(
            "no request left: every article is distilled or failed; a live distill writes the recollections (and retries the failed)",
            highlight=False,
        )


def _distill_embedder(settings: Settings):  # type: ignore[no-untyped-def]
    from paperpyramid.embeddings import get_embedder

    if not settings.distill.embed:
        return None
    try:
        return get_embedder(settings.embedding)
    except PaperPyramidError as exc:
        raise _error(exc) from exc


def _distill(db: Path, settings: Settings, embedder: Any, article: list[str] | None, redo: bool) -> None:
    from paperpyramid.api.reports import ArticleDistilled
    from paperpyramid.llm import get_llm

    try:
        llm = get_llm(settings.llm)  # before the bar: a model that cannot load is one line
    except PaperPyramidError as exc:
        raise _error(exc) from exc
    progress = _bar("distil", TextColumn("{task.fields[tokens]} tokens spent, {task.fields[rate]} tokens/s"))
    task = progress.add_task("distil", total=None, tokens=0, rate="0")
    spent = [0]

    def on_article(outcome: ArticleDistilled, todo: int) -> None:
        spent[0] += outcome.prompt_tokens + outcome.completion_tokens
        elapsed = progress.tasks[0].elapsed or 0.0
        progress.update(task, advance=1, tokens=spent[0], rate=f"{spent[0] / elapsed:.0f}" if elapsed else "0")
        if outcome.status == "failed":
            progress.console.print(
                f"[red]failed[/] {escape(outcome.title or outcome.article_id)}: {escape(outcome.error or '')}", highlight=False
            )

    try:
        with _writing(db, settings, embedder=embedder, llm=llm) as corpus, progress:
            summary = corpus.distill(
                articles=article or None, redo=redo, on_start=lambda n: progress.update(task, total=n), on_article=on_article
            )
    except (KeyError, PaperPyramidError) as exc:
        raise _error(exc) from exc
    except KeyboardInterrupt:
        raise _interrupted("the articles stored so far are kept, and a re-run distils the rest") from None
    console.print(
        f"{summary.distilled} articles distilled with {summary.model}, {summary.failed} failed, {summary.skipped} already done"
        + (f", {summary.stale} distilled with another model or prompt (--redo to distil again)" if summary.stale else "")
        + f"; {summary.tokens} tokens spent in {summary.seconds:.0f} s; {summary.recollections} recollections written",
        highlight=False,
    )
    _print_pyramid(db)
    if summary.stopped is not None:
        raise _fail(f"stopped early: {summary.stopped}; run the same command again to go on")
    if summary.failed and not summary.distilled:  # as ingest: non-zero when nothing this run tried was distilled
        raise typer.Exit(1)


def _import_pyramids(db: Path, files: list[Path], embedder: Any) -> None:
    from paperpyramid.distill.exchange import import_distillations

    results = import_distillations(db, files, embedder=embedder)
    for path, article_id, error in results:
        if error is None:
            console.print(f"imported {path.name} as article {article_id}", highlight=False)
        else:
            console.print(f"[red]not imported[/] {escape(path.name)}: {escape(error)}", highlight=False)
    _print_pyramid(db)
    if any(error for _, _, error in results):
        raise typer.Exit(1)


def _export_pyramids(db: Path, folder: Path) -> None:
    from paperpyramid.db.queries.distilled import distilled_article_ids
    from paperpyramid.db.sqlite import connect
    from paperpyramid.distill.exchange import export_distillation

    folder.mkdir(parents=True, exist_ok=True)
    conn = connect(db, read_only=True)
    try:
        ids = distilled_article_ids(conn)
        for article_id in ids:
            data = export_distillation(conn, article_id)
            (folder / f"{Path(data['pdf'] or article_id).stem}.json").write_text(
                json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8"
            )
    finally:
        conn.close()
    console.print(f"{len(ids)} pyramids written to {folder}")


def _print_pyramid(db: Path) -> None:
    from paperpyramid.db.pyramid import level_counts
    from paperpyramid.db.sqlite import connect

    conn = connect(db, read_only=True)
    try:
        counts = level_counts(conn)
        ratios = _compression(conn, None)
    finally:
        conn.close()
    lines = [
        f"  {level:<14}{items:>7} items {tokens:>9} tokens"
        + (f"   {ratios[level][2]:.3f} of the distilled articles' text" if level in ratios else "")
        for level, (items, tokens) in counts.items()
    ]
    out.print("pyramid:\n" + "\n".join(lines), highlight=False)
