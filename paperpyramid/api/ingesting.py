"""``paperpyramid.ingest``: papers into a corpus file, from Python, as ``paperpyramid ingest`` does.

It runs the same pipeline as the command (:func:`paperpyramid.ingestion.pipeline.ingest`): parse in
worker processes, store each article through the single writer, log every input's outcome, skip
what is already stored. The options are the fields of
:class:`~paperpyramid.settings.IngestSettings`, given by name over the settings (which default
to the ``PAPERPYRAMID_INGEST__*`` variables); an unknown name is refused before anything runs.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paperpyramid.api.progress import progress_bar
from paperpyramid.api.reports import DocumentResult, IngestReport

if TYPE_CHECKING:
    from paperpyramid.ingestion.pipeline import IngestResult
    from paperpyramid.settings import IngestSettings, Settings

#: the corpus file used when neither ``db`` nor ``PAPERPYRAMID_CORPUS__DB`` names one (as the CLI)
DEFAULT_DB = "paperpyramid.sqlite"


def ingest(
    sources: str | Path | Iterable[str | Path],
    db: str | Path | None = None,
    *,
    settings: Settings | None = None,
    executor: str | Executor | None = None,
    retry_failed: bool = False,
    watch: bool = False,
    poll_interval: float = 5.0,
    max_poll_interval: float = 300.0,
    stop: threading.Event | None = None,
    keep_results: bool | None = None,
    progress: bool = False,
    on_result: Callable[[DocumentResult], None] | None = None,
    on_total: Callable[[int | None], None] | None = None,
    **options: Any,
) -> IngestReport:
    """Parse papers into the corpus file ``db`` (created if missing) and report what became of each.

    ``sources`` is one source or a list of them: PDF files, JATS XML files, PubMed baseline and
    update files (``pubmed*.xml.gz``, one input per record; the PMIDs an update file deletes are
    removed, counted in ``report.deleted``), folders (searched recursively), archives (``.tar``,
    ``.tar.gz``: arXiv bulk tars, PMC packages, PMC's bulk XML packages), LaTeX sources, files of a
    kind registered with :func:`paperpyramid.parsers.register_kind`, and
    ``s3://BUCKET/PREFIX`` locations (read with ``settings.s3``: ``PAPERPYRAMID_S3__*`` or the
    ``AWS_*`` variables). ``db`` defaults to ``settings.corpus.db`` (``PAPERPYRAMID_CORPUS__DB``),
    else ``paperpyramid.sqlite`` in the current folder.

    ``options`` override fields of :class:`~paperpyramid.settings.IngestSettings` for this run:
    ``parser`` (``embedded``, ``auto``, ``grobid``, ``unstructured``, ``nougat`` or
    ``package.module:function``), ``workers`` (parser processes; 0 parses in this process),
    ``max_pages``, ``time_limit``, ``max_attempts``, ``max_worker_memory``, ``worker_threads``,
    ``password``, ``latex``, ``jats``, ``ocr``, ``embed`` (store each article's vectors as it is stored),
    ``tesseract``, ``kinds`` (kinds of source of one's own), ``licences`` (PMC's ``oa_file_list.csv``:
    the licence of each article it lists whose source names none), ``max_member_bytes``,
    ``max_archive_bytes``, ``services``. An unknown name
    raises ``TypeError`` listing the known ones; a bad value raises pydantic's
    ``ValidationError`` (a ``ValueError``) naming the field. Nothing has run when either is raised.

    ``executor`` is where parsing runs: None or ``"process"`` (the pipeline's own worker
    processes, with per-document time and memory limits), ``"dask"`` (a LocalCluster here),
    ``"dask://HOST:PORT"`` (a running scheduler), or any :class:`concurrent.futures.Executor`.
    ``retry_failed`` parses again inputs that failed before as bad input (those that failed
    because a service was down are always tried again). With ``watch`` the sources are listed
    again and again, ``poll_interval`` seconds after a pass that found work, doubling up to
    ``max_poll_interval`` while idle, until ``stop`` is set; ``keep_results`` (default: unless
    watching) keeps every input's :class:`DocumentResult` in ``report.documents``.

    Nothing is printed unless ``progress`` is True (a bar on stderr). ``on_result`` is called
    with each input's :class:`DocumentResult` as it finishes, ``on_total`` once with the number
    of inputs when it is known in advance (local files and folders; None otherwise).

    A document that cannot be parsed never raises: it is a failure in the report, with its
    reason, and in the corpus's ingest log. What raises: ``NotACorpus`` (``db`` is another
    file), ``FileNotFoundError`` (a source that does not exist), ``ConfigurationError`` (an
    unknown executor, an embedder that cannot load, a bucket that refuses the credentials),
    ``ServiceUnavailable`` (a parser service named by ``parser`` that does not answer).
    ``KeyboardInterrupt`` stops the run; what was stored is kept and a re-run goes on from there.
    """
    from paperpyramid.settings import Settings

    settings = settings or Settings()
    settings = settings.model_copy(update={"ingest": ingest_settings(settings, options)})
    path = Path(db if db is not None else (settings.corpus.db or DEFAULT_DB))
    listed = [sources] if isinstance(sources, (str, Path)) else list(sources)
    return _run(
        listed,
        path,
        settings,
        executor=executor,
        retry_failed=retry_failed,
        watch=watch,
        poll_interval=poll_interval,
        max_poll_interval=max_poll_interval,
        stop=stop,
        keep_results=not watch if keep_results is None else keep_results,
        progress=progress,
        on_result=on_result,
        on_total=on_total,
    )


def ingest_settings(settings: Settings, options: dict[str, Any]) -> IngestSettings:
    """``settings.ingest`` with ``options`` over it, validated; an unknown option raises
    ``TypeError`` naming the known ones."""
    from paperpyramid.settings import IngestSettings

    known = list(IngestSettings.model_fields)
    unknown = [name for name in options if name not in known]
    if unknown:
        raise TypeError(f"ingest() got an unknown option {unknown[0]!r}; the options are: {', '.join(known)}")
    return IngestSettings.model_validate({**settings.ingest.model_dump(), **options})


def _run(
    sources: list[str | Path],
    db: Path,
    settings: Settings,
    *,
    executor: str | Executor | None,
    retry_failed: bool,
    watch: bool,
    poll_interval: float,
    max_poll_interval: float,
    stop: threading.Event | None,
    keep_results: bool,
    progress: bool,
    on_result: Callable[[DocumentResult], None] | None,
    on_total: Callable[[int | None], None] | None,
) -> IngestReport:
    from paperpyramid.ingestion.executors import open_executor
    from paperpyramid.ingestion.pipeline import ingest as run_pipeline

    documents: list[DocumentResult] = []
    failures: list[DocumentResult] = []
    counts = {"done": 0, "skipped": 0, "failed": 0}
    pages = [0]
    text = "[green]{task.fields[done]} done[/] [red]{task.fields[failed]} failed[/] [dim]{task.fields[skipped]} skipped[/]"
    with progress_bar(progress, "ingest", text, done=0, failed=0, skipped=0) as bar:

        def finished(result: IngestResult) -> None:
            document = _document(result)
            counts[document.status] += 1
            pages[0] += document.pages if document.status == "done" else 0
            if keep_results:
                documents.append(document)
            if document.status == "failed":
                failures.append(document)
            bar.advance(1, **counts)
            if on_result is not None:
                on_result(document)

        def total(count: int | None) -> None:
            bar.total(count)
            if on_total is not None:
                on_total(count)

        pool_spec = executor if isinstance(executor, str) or executor is None else None
        with open_executor(pool_spec, settings.ingest.workers) as opened:
            summary = run_pipeline(
                sources,
                db,
                settings,
                executor=executor if isinstance(executor, Executor) else opened,
                on_result=finished,
                on_total=total,
                retry_failed=retry_failed,
                watch=watch,
                poll_interval=poll_interval,
                max_poll_interval=max_poll_interval,
                stop=stop,
                keep_results=False,
            )
    return IngestReport(
        db=db,
        stored=counts["done"],
        skipped=counts["skipped"],
        failed=counts["failed"],
        failures=tuple(failures),
        documents=tuple(documents),
        pages=pages[0],
        seconds=summary.seconds,
        deleted=summary.deleted,
    )


def _document(result: IngestResult) -> DocumentResult:
    return DocumentResult(
        source=result.source_uri,
        status=result.status,
        reason=result.error,
        article_id=result.article_id,
        pages=result.pages,
        seconds=result.seconds,
        warnings=tuple(result.warnings),
        previous=result.previous,
    )
