"""``paperpyramid ingest``: the Python write side's :func:`paperpyramid.ingest` with a progress bar,
a line per failure and a summary; exits 1 when an input failed, 2 when the sources hold none."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from pydantic import ValidationError
from rich.markup import escape
from rich.progress import TextColumn

from paperpyramid.cli.common import (
    EXIT_SOME_FAILED,
    DbOption,
    OcrChoice,
    _bar,
    _check_corpus_file,
    _complete_parser,
    _error,
    _interrupted,
    _invalid,
    _RateColumn,
    _usage,
    console,
)
from paperpyramid.errors import PaperPyramidError

if TYPE_CHECKING:
    from paperpyramid.api import IngestReport
    from paperpyramid.settings import Settings


Sources = Annotated[
    list[str],
    typer.Argument(
        help="PDF files, JATS XML files (.nxml, .xml), PubMed baseline and update files (pubmed*.xml.gz), folders (searched recursively for all of these), archives (PDF tars, PMC packages and PMC's bulk XML packages), LaTeX sources and s3://BUCKET/PREFIX locations."
    ),
]
Workers = Annotated[int | None, typer.Option(help="Parser processes (default: one per core; 0 parses in this process).")]
ParserName = Annotated[
    str,
    typer.Option(
        metavar="NAME",
        autocompletion=_complete_parser,
        help="Parser: embedded (offline), auto (the configured services that answer, merged over the embedded parse), grobid, unstructured, nougat, or package.module:function.",
    ),
]
Executor = Annotated[
    str | None, typer.Option(help="Where parsing runs: process (default), dask (a LocalCluster here) or dask://HOST:PORT.")
]
Password = Annotated[str | None, typer.Option(help="Password for encrypted PDFs.")]
MaxPages = Annotated[int, typer.Option(help="PDFs with more pages are recorded as failed.")]
TimeLimit = Annotated[float, typer.Option(help="Seconds one PDF may take to parse; a worker still parsing a little past it is stopped.")]
MaxWorkerMemory = Annotated[
    int | None,
    typer.Option(
        help="MiB of memory each parser process may use (default: half the machine's memory divided among the workers, at most 4096; 0: no ceiling)."
    ),
]
MaxAttempts = Annotated[
    int | None,
    typer.Option(
        help="Tries per document when its parser process dies under it; then it is failed with the reason (default: 3; PAPERPYRAMID_INGEST__MAX_ATTEMPTS)."
    ),
]
Ocr = Annotated[
    OcrChoice | None,
    typer.Option(
        help="Pages read by OCR (Tesseract): auto (scans without a text layer, and scans whose OCR layer fails the quality test), always, never (default: auto)."
    ),
]
RetryFailed = Annotated[bool, typer.Option("--retry-failed", help="Parse again inputs that failed before as bad input.")]
Latex = Annotated[
    bool | None,
    typer.Option(
        "--latex/--no-latex",
        help="Read LaTeX sources in folders and archives (a .tex declaring \\documentclass, arXiv's <id>.gz), each with the PDF of its name or arXiv id for the pages (parser latex+pdf). A .tex or .gz named on its own, and arXiv_src_*.tar dumps, are read as sources anyway (default: off; PAPERPYRAMID_INGEST__LATEX).",
    ),
]
Jats = Annotated[
    bool | None,
    typer.Option(
        "--jats/--no-jats",
        help="Read JATS XML in folders and archives (.nxml, and .xml whose root is a JATS article: PMC's bulk packages), each with the PDF of its name or PMCID for the pages when one is beside it, else without pages; --no-jats reads a folder's PDFs alone. A JATS file named on its own is read anyway (default: on; PAPERPYRAMID_INGEST__JATS).",
    ),
]
Licences = Annotated[
    Path | None,
    typer.Option(
        metavar="FILE",
        help="PubMed Central's oa_file_list.csv: every article whose PMCID it lists and whose source names no licence gets the licence it gives (cc-by, cc-by-nc, cc0, ... or PMC's words, e.g. NO-CC CODE) (PAPERPYRAMID_INGEST__LICENCES).",
    ),
]
Embed = Annotated[
    bool | None,
    typer.Option(
        "--embed/--no-embed",
        help="Embed the contexts in the workers and store the vectors with each article (default: on; PAPERPYRAMID_INGEST__EMBED).",
    ),
]
Watch = Annotated[bool, typer.Option("--watch", help="Keep listing the sources and ingest what arrives (Ctrl-C stops).")]
PollInterval = Annotated[
    float,
    typer.Option(help="With --watch: seconds between listings after one that found work; doubles while idle, up to --max-poll-interval."),
]
MaxPollInterval = Annotated[float, typer.Option(help="With --watch: the longest wait between listings.")]


def ingest(
    sources: Sources,
    db: DbOption = Path("paperpyramid.sqlite"),
    workers: Workers = None,
    parser: ParserName = "embedded",
    executor: Executor = None,
    password: Password = None,
    max_pages: MaxPages = 500,
    time_limit: TimeLimit = 120.0,
    max_worker_memory: MaxWorkerMemory = None,
    max_attempts: MaxAttempts = None,
    ocr: Ocr = None,
    retry_failed: RetryFailed = False,
    latex: Latex = None,
    jats: Jats = None,
    licences: Licences = None,
    embed: Embed = None,
    watch: Watch = False,
    poll_interval: PollInterval = 5.0,
    max_poll_interval: MaxPollInterval = 300.0,
) -> None:
    """Parse PDFs, JATS XML, LaTeX sources and PubMed records into the corpus. Inputs already stored (same
    bytes, or same ETag in a bucket) are skipped; failures are recorded with their reason and the run goes
    on; the PMIDs a PubMed update file deletes are removed. Exits 1 when any input failed in this run
    (re-run to try them again), 2 when the sources hold no input."""
    settings = _ingest_settings(
        {"parser": parser, "password": password, "max_pages": max_pages, "time_limit": time_limit},
        {"workers": workers, "embed": embed, "max_worker_memory": max_worker_memory, "max_attempts": max_attempts,
         "ocr": ocr.value if ocr is not None else None, "latex": latex, "jats": jats, "licences": licences},
    )  # fmt: skip
    _check_corpus_file(db)  # before the progress bar: a file that is not a corpus is one line
    if executor in (None, "", "process") and settings.ingest.workers > 0:
        from paperpyramid.ingestion.threads import describe_workers

        options = settings.ingest
        console.print(describe_workers(options.workers, options.max_worker_memory, options.worker_threads), highlight=False)
    report = _run_ingest(sources, db, settings, executor=executor, retry_failed=retry_failed, watch=watch,
                         poll_interval=poll_interval, max_poll_interval=max_poll_interval)  # fmt: skip
    _print_report(report, db, settings)


def _ingest_settings(given: dict[str, object], optional: dict[str, object]) -> Settings:
    """The settings with the command's options over the configured ones: every option ``given``,
    and those of ``optional`` that were set; one line when a value is invalid."""
    from paperpyramid.api.ingesting import ingest_settings
    from paperpyramid.settings import Settings, is_parser_name, unknown_parser

    parser = str(given["parser"])
    if not is_parser_name(parser):
        raise _usage(unknown_parser(parser))
    try:
        settings = Settings()
        overrides = given | {name: value for name, value in optional.items() if value is not None}
        return settings.model_copy(update={"ingest": ingest_settings(settings, overrides)})
    except ValidationError as exc:
        raise _invalid(exc) from exc


def _run_ingest(sources: list[str], db: Path, settings: Settings, **options: Any) -> IngestReport:
    """Ingest ``sources`` under this command's progress bar (the write side's would lack the rate),
    printing a line per new failure; ``options`` go to :func:`paperpyramid.ingest`."""
    from paperpyramid.api import DocumentResult
    from paperpyramid.api import ingest as ingest_sources

    counts = {"done": 0, "failed": 0, "skipped": 0}
    progress = _bar(
        "ingest",
        TextColumn("[green]{task.fields[done]} done[/] [red]{task.fields[failed]} failed[/] [dim]{task.fields[skipped]} skipped[/]"),
        _RateColumn(),
    )
    task = progress.add_task("ingest", total=None, done=0, failed=0, skipped=0)

    def on_result(result: DocumentResult) -> None:
        counts[result.status] += 1
        progress.update(task, advance=1, done=counts["done"], failed=counts["failed"], skipped=counts["skipped"])
        if result.status == "failed" and not result.previous:
            progress.console.print(f"[red]failed[/] {escape(result.reason or '')}", highlight=False)

    try:
        with progress:
            return ingest_sources(
                sources,
                db,
                settings=settings,
                on_result=on_result,
                on_total=lambda n: progress.update(task, total=n),
                keep_results=False,
                **options,
            )
    except FileNotFoundError as exc:
        raise _usage(str(exc)) from exc
    except PaperPyramidError as exc:
        raise _error(exc) from exc
    except KeyboardInterrupt:
        raise _interrupted("everything stored so far is kept, and a re-run goes on from there") from None


def _print_report(report: IngestReport, db: Path, settings: Settings) -> None:
    """The summary line and any note on missing vectors; exit 2 when there was no input, 1 when one failed."""
    deleted = f", {report.deleted} deleted" if report.deleted else ""
    console.print(
        f"{report.stored} ingested, {report.failed} failed, {report.skipped} skipped{deleted} "
        f"of {report.total} inputs in {report.seconds:.1f} s ({report.pages} pages, {report.pages_per_second:.1f} pages/s) -> {db}"
    )
    _warn_missing_vectors(db, settings)
    if report.total == 0 and not report.deleted:
        raise _usage("no inputs found in the sources given (PDFs, JATS XML, LaTeX sources, PubMed files, archives of them)")
    if report.failed:
        raise typer.Exit(EXIT_SOME_FAILED)


def _warn_missing_vectors(db: Path, settings: Settings) -> None:
    """Say so when contexts lack vectors of the configured model (ingested with --no-embed, or
    before a switch of model): hybrid search would not see them until ``embed`` runs."""
    from paperpyramid.db import vectors as db_vectors
    from paperpyramid.db.sqlite import connect
    from paperpyramid.embeddings import configured_name

    if not db.is_file():
        return
    name = configured_name(settings.embedding)
    conn = connect(db, read_only=True)
    try:
        if name is None or not db_vectors.embedders(conn):
            return  # a corpus searched by keywords alone
        missing, total = db_vectors.missing_vectors(conn, name)
    finally:
        conn.close()
    if missing:
        console.print(
            f"[yellow]note:[/] {missing} of {total} contexts have no {name} vector yet; run: paperpyramid embed --db {db}", highlight=False
        )
