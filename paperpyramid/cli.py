"""The ``paperpyramid`` command: a thin layer over the Python API.

Errors that paperpyramid raises on purpose become one clear line, and the exit status says
what happened (:data:`EXIT_CODES`): 0 all done, 1 some inputs failed, 2 a usage error, 3 a
configuration error or an outage.
"""

from __future__ import annotations

import enum
import json
import typing
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias

import typer
from pydantic import ValidationError
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, Task, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.text import Text

from paperpyramid.errors import BadInput, PaperPyramidError
from paperpyramid.settings import (
    DEFAULT_BUDGET_TOKENS,
    DEFAULT_K,
    EMBEDDER_NAMES,
    LEVELS,
    LLM_BACKENDS,
    LLM_STRATEGIES,
    PARSER_NAMES,
    SEARCH_MODES,
    STRATEGIES,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from paperpyramid.citation_graph import CitationLink
    from paperpyramid.corpus import Article, Corpus
    from paperpyramid.llm import LLM
    from paperpyramid.retrieval.answer import Answer
    from paperpyramid.settings import LLMSettings, Settings

app = typer.Typer(
    help="Academic PDFs in, a searchable SQLite corpus out.", no_args_is_help=True, add_completion=False, rich_markup_mode=None
)
eval_app = typer.Typer(help="Score a corpus against gold files.", no_args_is_help=True, rich_markup_mode=None)
app.add_typer(eval_app, name="eval")
console = Console(stderr=True)
out = Console()

DbOption = Annotated[
    Path,
    typer.Option("--db", envvar="PAPERPYRAMID_CORPUS__DB", metavar="PATH", help="The corpus SQLite file (default: paperpyramid.sqlite)."),
]

#: what the exit status means, for every command
EXIT_OK, EXIT_SOME_FAILED, EXIT_USAGE, EXIT_CONFIGURATION = 0, 1, 2, 3
EXIT_CODES = {
    EXIT_OK: "all done",
    EXIT_SOME_FAILED: "some inputs failed (each is recorded with its reason; a re-run tries them again)",
    EXIT_USAGE: "a usage error: an unknown command, option or name, a missing argument",
    EXIT_CONFIGURATION: "a configuration error or an outage: settings that cannot work, a corpus that cannot be opened, "
                        "a service, bucket or model endpoint that does not answer",
}  # fmt: skip


def _choices(name: str, values: tuple[str, ...]) -> type[enum.StrEnum]:
    """An enum of ``values`` so that --help shows them and the shell completes them."""
    choices: type[enum.StrEnum] = enum.StrEnum(name, {value.replace("-", "_"): value for value in values})  # type: ignore[misc]
    return choices


if TYPE_CHECKING:  # built at run time from the settings' names; a checker sees string enums
    ModeChoice: TypeAlias = enum.StrEnum
    LevelChoice: TypeAlias = enum.StrEnum
    StrategyChoice: TypeAlias = enum.StrEnum
    EmbedderChoice: TypeAlias = enum.StrEnum
    LLMBackendChoice: TypeAlias = enum.StrEnum
else:
    ModeChoice = _choices("ModeChoice", SEARCH_MODES)
    LevelChoice = _choices("LevelChoice", LEVELS)
    StrategyChoice = _choices("StrategyChoice", STRATEGIES)
    EmbedderChoice = _choices("EmbedderChoice", EMBEDDER_NAMES)
    LLMBackendChoice = _choices("LLMBackendChoice", LLM_BACKENDS)
_CONTEXTS, _PARENT = LevelChoice("contexts"), StrategyChoice("parent")


def _complete_parser(incomplete: str) -> list[str]:
    return [name for name in PARSER_NAMES if name.startswith(incomplete)]


#: what eval retrieval --modes takes: a mode, a pyramid level (alone, LEVEL:bm25 or LEVEL:vector), an LLM strategy
EVAL_MODES = (*SEARCH_MODES, *(level for level in LEVELS if level != "contexts"),
              *(f"{level}:{mode}" for level in LEVELS if level != "contexts" for mode in ("bm25", "vector")), *LLM_STRATEGIES)  # fmt: skip


def _complete_list(incomplete: str, names: tuple[str, ...]) -> list[str]:
    """Completions of the last name of a comma-separated list."""
    done, _, last = incomplete.rpartition(",")
    return [f"{done}," * bool(done) + name for name in names if name.startswith(last)]


def _print_version(value: bool) -> None:
    if value:
        from paperpyramid import __version__

        typer.echo(f"paperpyramid {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit.")] = False,
) -> None:
    """Academic PDFs in, a searchable SQLite corpus out."""


def _fail(message: str, code: int = EXIT_CONFIGURATION) -> typer.Exit:
    """Print ``message`` as one error line; the exit to raise (default: configuration or outage)."""
    # literally (an install hint's [minilm] is not markup) and on one line, however narrow the terminal
    console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def _usage(message: str) -> typer.Exit:
    return _fail(message, EXIT_USAGE)


def _exit_code(exc: BaseException) -> int:
    """The exit status an error stands for: bad input 1, a wrong name or value 2, else 3."""
    if isinstance(exc, BadInput):
        return EXIT_SOME_FAILED
    if isinstance(exc, (ValueError, KeyError)) and not isinstance(exc, PaperPyramidError):
        return EXIT_USAGE
    return EXIT_CONFIGURATION


def _error(exc: BaseException) -> typer.Exit:
    return _fail(str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc), _exit_code(exc))


class _RateColumn(ProgressColumn):
    """Items per second since the start."""

    def __init__(self, unit: str = "PDFs") -> None:
        super().__init__()
        self.unit = unit

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed or 0.0
        rate = task.completed / elapsed if elapsed > 0 else 0.0
        return Text(f"{rate:.2f} {self.unit}/s", style="progress.data.speed")


class OcrChoice(enum.StrEnum):
    auto = "auto"
    always = "always"
    never = "never"


class ExportFormat(enum.StrEnum):
    markdown = "markdown"
    json = "json"


class CiteFormat(enum.StrEnum):
    text = "text"
    bibtex = "bibtex"
    csl_json = "csl-json"


@app.command()
def ingest(
    sources: Annotated[
        list[str],
        typer.Argument(
            help="PDF files, folders (searched recursively for *.pdf), archives, LaTeX sources and s3://BUCKET/PREFIX locations."
        ),
    ],
    db: DbOption = Path("paperpyramid.sqlite"),
    workers: Annotated[int | None, typer.Option(help="Parser processes (default: one per core; 0 parses in this process).")] = None,
    parser: Annotated[
        str,
        typer.Option(
            metavar="NAME",
            autocompletion=_complete_parser,
            help="Parser: embedded (offline), auto (the configured services that answer, merged over the embedded parse), grobid, unstructured, nougat, or package.module:function.",
        ),
    ] = "embedded",
    executor: Annotated[
        str | None, typer.Option(help="Where parsing runs: process (default), dask (a LocalCluster here) or dask://HOST:PORT.")
    ] = None,
    password: Annotated[str | None, typer.Option(help="Password for encrypted PDFs.")] = None,
    max_pages: Annotated[int, typer.Option(help="PDFs with more pages are recorded as failed.")] = 500,
    time_limit: Annotated[
        float, typer.Option(help="Seconds one PDF may take to parse; a worker still parsing a little past it is stopped.")
    ] = 120.0,
    max_worker_memory: Annotated[
        int | None,
        typer.Option(
            help="MiB of memory each parser process may use (default: half the machine's memory divided among the workers, at most 4096; 0: no ceiling)."
        ),
    ] = None,
    max_attempts: Annotated[
        int | None,
        typer.Option(
            help="Tries per document when its parser process dies under it; then it is failed with the reason (default: 3; PAPERPYRAMID_INGEST__MAX_ATTEMPTS)."
        ),
    ] = None,
    ocr: Annotated[
        OcrChoice | None,
        typer.Option(
            help="Pages read by OCR (Tesseract): auto (scans without a text layer, and scans whose OCR layer fails the quality test), always, never (default: auto)."
        ),
    ] = None,
    retry_failed: Annotated[bool, typer.Option("--retry-failed", help="Parse again inputs that failed before as bad input.")] = False,
    latex: Annotated[
        bool | None,
        typer.Option(
            "--latex/--no-latex",
            help="Read LaTeX sources in folders and archives (a .tex declaring \\documentclass, arXiv's <id>.gz), each with the PDF of its name or arXiv id for the pages (parser latex+pdf). A .tex or .gz named on its own, and arXiv_src_*.tar dumps, are read as sources anyway (default: off; PAPERPYRAMID_INGEST__LATEX).",
        ),
    ] = None,
    embed: Annotated[
        bool | None,
        typer.Option(
            "--embed/--no-embed",
            help="Embed the contexts in the workers and store the vectors with each article (default: on; PAPERPYRAMID_INGEST__EMBED).",
        ),
    ] = None,
    watch: Annotated[bool, typer.Option("--watch", help="Keep listing the sources and ingest what arrives (Ctrl-C stops).")] = False,
    poll_interval: Annotated[
        float,
        typer.Option(
            help="With --watch: seconds between listings after one that found work; doubles while idle, up to --max-poll-interval."
        ),
    ] = 5.0,
    max_poll_interval: Annotated[float, typer.Option(help="With --watch: the longest wait between listings.")] = 300.0,
) -> None:
    """Parse PDFs into the corpus. Inputs already stored (same bytes, or same ETag in a bucket)
    are skipped; failures are recorded with their reason and the run goes on. Exits 1 when any
    input failed in this run (re-run to try them again), 2 when the sources hold no input."""
    from paperpyramid.ingest import IngestResult
    from paperpyramid.ingest import ingest as run_ingest
    from paperpyramid.ingest.executors import open_executor
    from paperpyramid.settings import IngestSettings, Settings, is_parser_name, unknown_parser

    if not is_parser_name(parser):
        raise _usage(unknown_parser(parser))
    try:
        settings = Settings()
        overrides: dict[str, object] = {"parser": parser, "password": password, "max_pages": max_pages, "time_limit": time_limit}
        if workers is not None:
            overrides["workers"] = workers
        if embed is not None:
            overrides["embed"] = embed
        if max_worker_memory is not None:
            overrides["max_worker_memory"] = max_worker_memory
        if max_attempts is not None:
            overrides["max_attempts"] = max_attempts
        if ocr is not None:
            overrides["ocr"] = ocr.value
        if latex is not None:
            overrides["latex"] = latex
        ingest_settings = IngestSettings.model_validate({**settings.ingest.model_dump(), **overrides})
        settings = settings.model_copy(update={"ingest": ingest_settings})
    except ValidationError as exc:
        raise _invalid(exc) from exc

    _check_corpus_file(db)  # before the progress bar: a file that is not a corpus is one line
    if executor in (None, "", "process") and settings.ingest.workers > 0:
        from paperpyramid.ingest.threads import describe_workers

        options = settings.ingest
        console.print(describe_workers(options.workers, options.max_worker_memory, options.worker_threads), highlight=False)
    counts = {"done": 0, "failed": 0, "skipped": 0}
    progress = Progress(
        TextColumn("[bold]ingest"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("[green]{task.fields[done]} done[/] [red]{task.fields[failed]} failed[/] [dim]{task.fields[skipped]} skipped[/]"),
        _RateColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    )
    task = progress.add_task("ingest", total=None, done=0, failed=0, skipped=0)

    def on_result(result: IngestResult) -> None:
        counts[result.status] += 1
        progress.update(task, advance=1, done=counts["done"], failed=counts["failed"], skipped=counts["skipped"])
        if result.status == "failed" and not result.previous:
            progress.console.print(f"[red]failed[/] {escape(result.error or '')}", highlight=False)

    try:
        with progress, open_executor(executor, settings.ingest.workers) as pool:
            summary = run_ingest(
                sources,
                db,
                settings,
                executor=pool,
                on_result=on_result,
                on_total=lambda n: progress.update(task, total=n),
                retry_failed=retry_failed,
                watch=watch,
                poll_interval=poll_interval,
                max_poll_interval=max_poll_interval,
                keep_results=False,
            )
    except FileNotFoundError as exc:
        raise _usage(str(exc)) from exc
    except PaperPyramidError as exc:
        raise _error(exc) from exc
    except KeyboardInterrupt:
        console.print("stopped; everything stored so far is kept, and a re-run goes on from there")
        raise typer.Exit(130) from None
    total = summary.total
    console.print(
        f"{summary.count('done')} ingested, {summary.count('failed')} failed, {summary.count('skipped')} skipped "
        f"of {total} PDFs in {summary.seconds:.1f} s ({summary.pages} pages, {summary.pages_per_second:.1f} pages/s) -> {db}"
    )
    _warn_missing_vectors(db, settings)
    if total == 0:
        raise _usage("no PDFs found in the sources given")
    if summary.count("failed"):
        raise typer.Exit(EXIT_SOME_FAILED)


@app.command()
def search(
    query: Annotated[str, typer.Argument(help="What to look for: words or a question.")],
    db: DbOption = Path("paperpyramid.sqlite"),
    mode: Annotated[ModeChoice | None, typer.Option(help="How to search (default: hybrid when the corpus has vectors, else bm25).")] = None,
    level: Annotated[
        LevelChoice, typer.Option(help="What to search: contexts (the text), or a level of the knowledge pyramid.")
    ] = _CONTEXTS,
    k: Annotated[
        int, typer.Option("-k", "--k", min=1, help="Number of results (parent: always its 5 best hits, widened with their neighbours).")
    ] = DEFAULT_K,
    budget_tokens: Annotated[int, typer.Option(min=1, help="Cut the results at this many tokens.")] = DEFAULT_BUDGET_TOKENS,
    article: Annotated[list[str] | None, typer.Option("--article", help="Only this article (id); repeat for more.")] = None,
    year_from: Annotated[int | None, typer.Option(help="Only articles published in or after this year.")] = None,
    year_to: Annotated[int | None, typer.Option(help="Only articles published in or before this year.")] = None,
    journal: Annotated[str | None, typer.Option(help="Only articles of this journal.")] = None,
    references: Annotated[bool, typer.Option("--references", help="Search the references sections too.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per line instead of text.")] = False,
) -> None:
    """Search the corpus and print cited passages."""
    from paperpyramid.retrieval.filters import Filters

    filters = Filters(
        article_ids=tuple(article) if article else None,
        year_from=year_from,
        year_to=year_to,
        journal=journal,
        include_references=references,
    )
    with _reading(db) as corpus:
        try:
            hits = corpus.retrieve(
                query, mode=mode.value if mode else corpus.best_mode(), k=k, budget_tokens=budget_tokens, filters=filters, level=level.value
            )
        except (PaperPyramidError, ValueError) as exc:
            raise _error(exc) from exc
        if not hits:
            console.print("no results")
        dois: dict[str, str | None] = {}

        def doi_of(article_id: str) -> str | None:
            if article_id not in dois:
                dois[article_id] = corpus.article(article_id).doi
            return dois[article_id]

        for rank, hit in enumerate(hits, 1):
            if as_json:
                citation = hit.citation
                record = {
                    "rank": rank,
                    "score": hit.score,
                    "context_id": hit.context_id,
                    "article_id": citation.article_id,
                    "doi": doi_of(citation.article_id),
                    "title": citation.article_title,
                    "section_number": citation.section_number,
                    "section_title": citation.section_title,
                    "page": citation.page_number,
                    "num_tokens": hit.num_tokens,
                    "citation": hit.cite(),
                    "text": hit.text,
                }
                if hit.level != "contexts":
                    record |= {
                        "level": hit.level,
                        "item_id": hit.item_id,
                        "sources": [
                            {"context_id": source.context_id, "citation": source.cite(), "page": source.citation.page_number}
                            for source in hit.sources
                        ],
                    }
                typer.echo(json.dumps(record, ensure_ascii=False))
            else:
                out.print(f"[bold]{rank}.[/] [cyan]{escape(hit.cite())}[/]  (score {hit.score:.3g})")
                text = hit.text if len(hit.text) <= 400 else hit.text[:400] + "…"
                out.print(f"   {escape(text)}", highlight=False)
                for source in hit.sources[:3]:
                    out.print(f"   [dim]↳ from {escape(source.cite())}[/]", highlight=False)
                out.print("")


@app.command()
def embed(
    db: DbOption = Path("paperpyramid.sqlite"),
    embedding_model: Annotated[
        EmbedderChoice | None,
        typer.Option(
            help="Embedder: minilm (default), minilm-int8 (faster, its own vectors), e5-small or openai (see PAPERPYRAMID_EMBEDDING__*)."
        ),
    ] = None,
    batch_size: Annotated[int, typer.Option(help="Contexts embedded and committed together.")] = 64,
) -> None:
    """Embed every context that has no vector from the model yet (incremental and resumable:
    a stopped run keeps what it committed, and a re-run embeds only what is missing). A vector
    that is null, of the wrong length, NaN or all zeros is refused, never stored; the run then
    says how many failed and exits 1 (3 when the model gave no usable vector at all)."""
    from paperpyramid.db.sqlite import DatabaseError
    from paperpyramid.embeddings import get_embedder
    from paperpyramid.ingest.embed import embed_corpus
    from paperpyramid.settings import EmbeddingSettings, Settings

    if not db.is_file():
        raise _fail(f"no corpus at {db}")
    _check_corpus_file(db)
    try:
        settings = Settings().embedding
        if embedding_model is not None:
            settings = EmbeddingSettings.model_validate({**settings.model_dump(), "model": embedding_model.value})
        embedder = get_embedder(settings)
    except ValidationError as exc:
        raise _invalid(exc) from exc
    except PaperPyramidError as exc:
        raise _error(exc) from exc
    progress = Progress(
        TextColumn("[bold]embed"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn("passages"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
    )
    task = progress.add_task("embed", total=None)
    try:
        with progress:
            summary = embed_corpus(
                db,
                embedder,
                batch_size=batch_size,
                on_start=lambda missing: progress.update(task, total=missing),
                on_batch=lambda size: progress.update(task, advance=size),
            )
    except (PaperPyramidError, ValueError, DatabaseError) as exc:
        raise _error(exc) from exc
    except KeyboardInterrupt:
        console.print("stopped; the vectors committed so far are kept, and a re-run embeds the rest")
        raise typer.Exit(130) from None
    console.print(
        f"{summary.embedded} contexts embedded with {summary.embedder}"
        + (f", {summary.failed} failed (their vectors were refused)" if summary.failed else "")
        + f" in {summary.seconds:.1f} s ({summary.passages_per_second:.1f} passages/s); {summary.total} contexts in the corpus",
        highlight=False,
    )
    if summary.stopped is not None:
        raise _fail(f"stopped early: {summary.stopped}; run the same command again to go on")
    if summary.failed:
        console.print(f"[red]failed:[/] {escape(summary.first_error or '')}; a re-run tries them again", highlight=False, soft_wrap=True)
        raise typer.Exit(1)


@app.command()
def ask(
    question: Annotated[str, typer.Argument(help="The question, in words.")],
    db: DbOption = Path("paperpyramid.sqlite"),
    strategy: Annotated[
        StrategyChoice,
        typer.Option(
            help="How passages are found: a retrieval mode (parent, the default; hybrid, cross, bm25, vector) or an LLM-driven "
            "strategy: multiquery (query variants, a relevance filter), walk (the model reads a paper section by section), "
            "walkingrag (rounds of partial facts, each saying where to look next), pyramid (the search agent over the knowledge pyramid)."
        ),
    ] = _PARENT,
    filter_model: Annotated[
        str | None,
        typer.Option(
            help="With --strategy multiquery: a smaller model on the same endpoint for the relevance filter (default: PAPERPYRAMID_LLM__FILTER_MODEL, else the answering model)."
        ),
    ] = None,
    budget_tokens: Annotated[int, typer.Option(min=1, help="Tokens of passages handed to the model.")] = DEFAULT_BUDGET_TOKENS,
    max_steps: Annotated[int, typer.Option(min=1, help="LLM-driven strategies: at most this many moves or rounds.")] = 8,
    max_llm_tokens: Annotated[
        int, typer.Option(min=100, help="LLM-driven strategies: stop finding once this many LLM tokens are spent (the answer comes after).")
    ] = 30_000,
    llm_backend: Annotated[LLMBackendChoice | None, typer.Option(help="LLM backend: local (default) or openai (OPENAI_BASE_URL).")] = None,
    llm_model: Annotated[
        str | None, typer.Option(metavar="NAME", help="With --llm-backend openai: the model name the server knows.")
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Print one JSON object on one line: answer, claims, citations (context id, page, title), steps, usage."
        ),
    ] = False,
    format_: Annotated[
        CiteFormat,
        typer.Option(
            "--format",
            help='text: the answer; bibtex or csl-json: the answer, then the works its supported claims cite in that format (with --json: under "works").',
        ),
    ] = CiteFormat.text,
) -> None:
    """Answer a question from the corpus, every claim cited [title, p. N] to a stored passage;
    the steps (and the facts a strategy finds) print as they happen, with their token usage."""
    from paperpyramid.llm import get_llm
    from paperpyramid.retrieval.trace import Limits, Step
    from paperpyramid.settings import Settings

    try:
        settings = Settings()
        llm_settings = _llm_settings(settings.llm, llm_backend, llm_model)
        llm = get_llm(llm_settings)
        filter_settings = llm_settings.for_filter(filter_model)
        filter_llm = get_llm(filter_settings) if filter_settings is not None else None
    except ValidationError as exc:
        raise _invalid(exc) from exc
    except PaperPyramidError as exc:
        raise _error(exc) from exc

    def on_step(step: Step) -> None:
        tokens = f" ({step.prompt_tokens} + {step.completion_tokens} tokens)" if step.prompt_tokens or step.completion_tokens else ""
        console.print(f"[dim]{step.name}:[/] {escape(step.detail)}{tokens}", highlight=False)

    with _reading(db) as corpus:
        try:
            answer = corpus.ask(
                question,
                strategy=strategy.value,
                budget_tokens=budget_tokens,
                llm=llm,
                on_step=on_step,
                filter_llm=filter_llm,
                limits=Limits(max_steps, max_llm_tokens),
            )
        except (PaperPyramidError, ValueError) as exc:
            raise _error(exc) from exc
        works = _cited_works(corpus, answer, format_.value) if format_ is not CiteFormat.text else None
    if as_json:
        typer.echo(json.dumps(answer.to_json() | ({"works": works} if works is not None else {}), ensure_ascii=False))
        return
    out.print(escape(answer.text), highlight=False)
    if works:
        typer.echo("")
        typer.echo(works)
    usage = answer.usage
    console.print(
        f"{len(answer.passages)} passages; {usage.prompt_tokens} prompt + {usage.completion_tokens} completion tokens", highlight=False
    )


def _cited_works(corpus: Corpus, answer: Answer, format_: str) -> str:
    """The works the answer's supported claims cite, in ``format_`` ("" when none)."""
    from paperpyramid.export.cite import format_citations

    passages = [source.context_id for claim in answer.claims if claim.supported for source in claim.sources]
    return format_citations(corpus, list(dict.fromkeys(passages)), format_) if passages else ""


@app.command()
def cite(
    ids: Annotated[
        list[str], typer.Argument(help="Article ids, DOIs or passage (context) ids; a passage stands for its article at its page.")
    ],
    db: DbOption = Path("paperpyramid.sqlite"),
    format_: Annotated[
        CiteFormat,
        typer.Option("--format", help="bibtex (stable keys), csl-json (Zotero, Mendeley, pandoc) or text ([title, p. N] and a reference)."),
    ] = CiteFormat.bibtex,
) -> None:
    """Print the works the ids name as citations for a reference manager, from the stored
    metadata (authors, title, journal, year, DOI, arXiv id), each once, with the pages cited."""
    from paperpyramid.export.cite import format_citations

    with _reading(db) as corpus:
        try:
            typer.echo(format_citations(corpus, ids, format_.value))
        except KeyError as exc:
            raise _error(exc) from exc


@app.command()
def mcp(
    db: DbOption = Path("paperpyramid.sqlite"),
    http: Annotated[bool, typer.Option("--http", help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio.")] = False,
    host: Annotated[str, typer.Option(help="Address to bind with --http; 127.0.0.1 keeps it on this machine.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on with --http.")] = 8765,
) -> None:
    """Serve the corpus read-only over MCP (Model Context Protocol) for Claude Desktop, Cursor or
    VS Code: search, outline, sections, passages, pyramid, citations, cite. stdio by default;
    --http serves streamable HTTP, behind PAPERPYRAMID_SERVE__API_TOKEN when set."""
    from paperpyramid.services.mcp import run_mcp

    token = _api_token()
    if http and host not in ("127.0.0.1", "localhost", "::1") and not token:
        console.print(
            f"[yellow]note:[/] serving on {host} without PAPERPYRAMID_SERVE__API_TOKEN: anyone who can reach it can read the corpus"
        )
    try:
        run_mcp(str(db), http=http, host=host, port=port, token=token)
    except (FileNotFoundError, PaperPyramidError) as exc:
        raise _error(exc) from exc


def _api_token() -> str | None:
    from paperpyramid.settings import Settings

    try:
        return Settings().serve.api_token or None
    except ValidationError as exc:
        raise _invalid(exc) from exc


@app.command()
def serve(
    db: DbOption = Path("paperpyramid.sqlite"),
    host: Annotated[str, typer.Option(help="Address to bind; 127.0.0.1 keeps it on this machine.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
) -> None:
    """Serve the corpus read-only over HTTP: search, articles, outlines, sections, parent
    passages, ask (server-sent events) and a web page at /. Set PAPERPYRAMID_SERVE__API_TOKEN to require
    a bearer token on every request but /healthz (open the page as /#token=...). Limits:
    PAPERPYRAMID_SERVE__* (concurrent asks, step and token caps, allowed hosts, ...)."""
    try:
        import uvicorn  # noqa: F401  (the services extra)

        from paperpyramid.services.query import create_app, run
    except ImportError as exc:
        raise _fail("the query service needs FastAPI and uvicorn: pip install 'paperpyramid[services]'") from exc
    from paperpyramid.settings import Settings

    try:
        settings = Settings().serve
    except ValidationError as exc:
        raise _invalid(exc) from exc
    try:
        app_ = create_app(db, token=settings.api_token or None, settings=settings, served_on=host)
    except (FileNotFoundError, PaperPyramidError) as exc:
        raise _error(exc) from exc
    if host not in ("127.0.0.1", "localhost", "::1") and not settings.api_token:
        console.print(
            f"[yellow]note:[/] serving on {host} without PAPERPYRAMID_SERVE__API_TOKEN: anyone who can reach it can read the corpus"
        )
    run(app_, host=host, port=port)


@app.command()
def distill(
    db: DbOption = Path("paperpyramid.sqlite"),
    article: Annotated[list[str] | None, typer.Option("--article", help="Only this article (id); repeat for more.")] = None,
    concurrency: Annotated[
        int | None, typer.Option(help="Articles distilled at once (default: 4 for an endpoint, 1 for the local model).")
    ] = None,
    llm_backend: Annotated[
        LLMBackendChoice | None, typer.Option(help="LLM backend: local (default, SmolLM2-135M in-process) or openai (OPENAI_BASE_URL).")
    ] = None,
    llm_model: Annotated[
        str | None, typer.Option(metavar="NAME", help="With --llm-backend openai: the model name the server knows.")
    ] = None,
    redo: Annotated[
        bool, typer.Option("--redo", help="Distil again articles already distilled (with this or another model or prompt).")
    ] = False,
    max_pages: Annotated[
        int | None, typer.Option(help="Distil only the first N pages of each article (a quick look with a slow model).")
    ] = None,
    recollections: Annotated[
        bool, typer.Option("--recollections/--no-recollections", help="Connect new articles to the others in recollections.")
    ] = True,
    import_files: Annotated[
        list[Path] | None,
        typer.Option(
            "--import",
            metavar="FILE",
            help="Load a distillation JSON file (the format --export writes) instead of calling a model; repeat for more.",
        ),
    ] = None,
    export: Annotated[
        Path | None, typer.Option("--export", help="Write every distilled article's pyramid as JSON files into this folder.")
    ] = None,
    batch_export: Annotated[
        Path | None,
        typer.Option(
            "--batch-export",
            help="Batch distillation: write the next round's requests (OpenAI Batch API JSONL, which vLLM run_batch reads) "
            "as DIR/round-NNN.jsonl: round 1 the first window of every article, each later round every article's next unanswered request "
            "(next window, concepts, abstract, or the one repair turn after a reply that failed validation). Needs --llm-model.",
        ),
    ] = None,
    batch_import: Annotated[
        list[Path] | None,
        typer.Option(
            "--batch-import",
            help="Batch distillation: store a round's output file (OpenAI or vLLM run_batch; repeat for more), then store every "
            "article whose calls are all answered, validated and counted as live; with --batch-export, write the next round too.",
        ),
    ] = None,
    dry_run: Annotated[
        bool,
        typer.Option(
            "--dry-run", help="Print the requests, tokens and estimated cost of each article to distil, and send or write nothing."
        ),
    ] = False,
    price_input: Annotated[
        float | None, typer.Option(help="With --dry-run: price of a million prompt tokens (PAPERPYRAMID_DISTILL__PRICE_INPUT).")
    ] = None,
    price_output: Annotated[
        float | None, typer.Option(help="With --dry-run: price of a million completion tokens (PAPERPYRAMID_DISTILL__PRICE_OUTPUT).")
    ] = None,
) -> None:
    """Distil papers into the knowledge pyramid: insights from two-page windows, concepts, one
    abstract per article, recollections across articles; each level with FTS and vectors.
    Resumable and incremental: one transaction per article, and a re-run distils only what is
    missing or failed (the response cache makes answered calls free). One distill per corpus at
    a time (a second waits for the first). Exits 1 when an article it tried failed, 3 when
    the endpoint stopped answering. With --batch-export / --batch-import the same distillation
    runs in rounds of batch files instead of live calls (see the batch distillation guide); recollections
    are then written by a live distill after the last round."""
    from paperpyramid.settings import Settings

    if not db.is_file():
        raise _fail(f"no corpus at {db}")
    _check_corpus_file(db)
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
            estimates = batch.estimate_corpus(db, settings.llm, settings.distill, article, redo)
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
    if summary.stopped is not None:
        raise _fail(f"stopped early: {summary.stopped}")
    if summary.failed and not summary.done and not step.pending:
        raise typer.Exit(1)


def _llm_settings(base: LLMSettings, backend: str | None, model: str | None) -> LLMSettings:
    """``base`` with the command line's --llm-backend and --llm-model, validated like the rest."""
    overrides = {key: str(value) for key, value in {"backend": backend, "model": model}.items() if value is not None}
    return base.model_validate({**base.model_dump(), **overrides})


def _distill_embedder(settings: Settings):  # type: ignore[no-untyped-def]
    from paperpyramid.embeddings import get_embedder

    if not settings.distill.embed:
        return None
    try:
        return get_embedder(settings.embedding)
    except PaperPyramidError as exc:
        raise _error(exc) from exc


def _distill(db: Path, settings: Settings, embedder: Any, article: list[str] | None, redo: bool) -> None:
    from paperpyramid.distill.pipeline import ArticleOutcome, distill_corpus
    from paperpyramid.llm import get_llm

    try:
        llm = get_llm(settings.llm)
    except PaperPyramidError as exc:
        raise _error(exc) from exc
    progress = Progress(
        TextColumn("[bold]distil"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[tokens]} tokens spent, {task.fields[rate]} tokens/s"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
    )
    task = progress.add_task("distil", total=None, tokens=0, rate="0")
    spent = [0]

    def on_article(outcome: ArticleOutcome) -> None:
        spent[0] += outcome.prompt_tokens + outcome.completion_tokens
        elapsed = progress.tasks[0].elapsed or 0.0
        progress.update(task, advance=1, tokens=spent[0], rate=f"{spent[0] / elapsed:.0f}" if elapsed else "0")
        if outcome.status == "failed":
            progress.console.print(
                f"[red]failed[/] {escape(outcome.title or outcome.article_id)}: {escape(outcome.error or '')}", highlight=False
            )

    try:
        with progress:
            summary = distill_corpus(
                db,
                llm,
                settings.distill,
                embedder=embedder,
                article_ids=article,
                redo=redo,
                on_start=lambda n: progress.update(task, total=n),
                on_article=on_article,
            )
    except (KeyError, PaperPyramidError) as exc:
        raise _error(exc) from exc
    except KeyboardInterrupt:
        console.print("stopped; the articles stored so far are kept, and a re-run distils the rest")
        raise typer.Exit(130) from None
    console.print(
        f"{summary.done} articles distilled with {llm.name}, {summary.failed} failed, {summary.skipped} already done"
        + (f", {summary.stale} distilled with another model or prompt (--redo to distil again)" if summary.stale else "")
        + f"; {summary.tokens} tokens spent in {summary.seconds:.0f} s; {summary.recollections} recollections written",
        highlight=False,
    )
    _print_pyramid(db)
    if summary.stopped is not None:
        raise _fail(f"stopped early: {summary.stopped}; run the same command again to go on")
    if summary.failed and not summary.done:  # as ingest: non-zero when nothing this run tried was distilled
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
    from paperpyramid.db.sqlite import connect
    from paperpyramid.distill.exchange import export_distillation

    folder.mkdir(parents=True, exist_ok=True)
    conn = connect(db, read_only=True)
    try:
        ids = [row[0] for row in conn.execute("SELECT article_id FROM distillations WHERE status = 'done' ORDER BY rowid")]
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


@app.command(context_settings={"ignore_unknown_options": True})
def show(
    article_id: Annotated[str, typer.Argument(help="An article id or DOI (ids may begin with '-').")],
    db: DbOption = Path("paperpyramid.sqlite"),
    text: Annotated[bool, typer.Option("--text", help="Print every section's text, not only the outline.")] = False,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Print the article as one JSON object on one line: metadata and sections (with --text, their contexts)."
        ),
    ] = False,
) -> None:
    """Print an article's metadata and its section outline (with pages)."""
    with _reading(db) as corpus:
        try:
            article = corpus.article(article_id)
        except KeyError as exc:
            raise _error(exc) from exc
        if as_json:
            typer.echo(json.dumps(_article_json(corpus, article, text), ensure_ascii=False))
            return
        out.print(f"[bold]{escape(article.title or '(untitled)')}[/]", highlight=False)
        coverage = "-" if article.coverage is None else f"{article.coverage:.3f}"
        out.print(
            f"id {article.id}  doi {article.doi or '-'}  pages {article.pages}  parser {article.parser}  coverage {coverage}",
            highlight=False,
            markup=False,
        )
        if article.ocr_pages:
            out.print(f"read by OCR: pages {', '.join(str(number) for number in article.ocr_pages)}", highlight=False, markup=False)
        for warning in article.warnings:
            out.print(f"warning: {warning}", highlight=False, markup=False)
        if article.authors:
            out.print(", ".join(author.name for author in article.authors), highlight=False, markup=False)
        for section in corpus.sections(article.id):
            indent = "  " * max(section.level - 1, 0)
            number = f"{section.number} " if section.number else ""
            out.print(
                f"{indent}{escape(number + (section.title or ''))}  [dim](p. {section.page_start}–{section.page_end}, {section.num_tokens} tokens)[/]",
                highlight=False,
            )
            if text:
                for context in corpus.contexts(section.id):
                    out.print(f"{indent}  [dim]p. {context.page_number}[/] {escape(context.text)}\n", highlight=False)
        _print_links(corpus, article)


def _print_links(corpus: Corpus, article: Article) -> None:
    """What the article cites of the corpus and what in the corpus cites it, with the citing
    sentences and their pages."""
    cites = corpus.cites(article.id)
    linked = [link for link in cites if link.cited_article_id]
    cited_by = corpus.cited_by(article.id)
    cited_in = sum(1 for link in cites if link.passages)
    out.print(f"references {len(cites)}, {cited_in} cited in the text; {len(linked)} name articles of this corpus; cited by {len(cited_by)} "
              "entries of this corpus", highlight=False, markup=False)  # fmt: skip
    for arrow, link, other in [*(("cites", link, link.cited_article_id) for link in linked),
                               *(("cited by", link, link.citing_article_id) for link in cited_by)]:  # fmt: skip
        title = link.cited_title if arrow == "cites" else link.citing_title
        out.print(f"  {arrow} {other}  {title or '(untitled)'}", highlight=False, markup=False)
        for passage in link.passages[:3]:
            out.print(f"    p. {passage.page_number}: {passage.sentence[:200]}", highlight=False, markup=False)


def _article_json(corpus: Corpus, article: Article, text: bool) -> dict[str, Any]:
    sections = []
    for section in corpus.sections(article.id):
        row: dict[str, Any] = {
            "id": section.id,
            "number": section.number,
            "title": section.title,
            "level": section.level,
            "page_start": section.page_start,
            "page_end": section.page_end,
            "num_tokens": section.num_tokens,
        }
        if text:
            row["contexts"] = [
                {"id": context.id, "page": context.page_number, "text": context.text} for context in corpus.contexts(section.id)
            ]
        sections.append(row)
    return {
        "id": article.id,
        "title": article.title,
        "doi": article.doi,
        "date_published": article.date_published,
        "journal": article.journal,
        "pages": article.pages,
        "authors": [author.name for author in article.authors],
        "parser": article.parser,
        "coverage": article.coverage,
        "ocr_pages": list(article.ocr_pages),
        "warnings": article.warnings,
        "source": article.source_uri,
        "sections": sections,
        "cites": [_link_json(link, link.cited_article_id) for link in corpus.cites(article.id, in_corpus=True)],
        "cited_by": [_link_json(link, link.citing_article_id) for link in corpus.cited_by(article.id)],
    }


def _link_json(link: CitationLink, other: str | None) -> dict[str, Any]:
    return {
        "article": other,
        "entry": link.entry,
        "passages": [
            {"context": passage.context_id, "page": passage.page_number, "marker": passage.marker, "sentence": passage.sentence}
            for passage in link.passages
        ],
    }


@app.command()
def export(
    out_dir: Annotated[Path, typer.Option("--out", help="The folder to write into (created if missing).")],
    db: DbOption = Path("paperpyramid.sqlite"),
    article: Annotated[
        list[str] | None, typer.Option("--article", help="An article id or DOI; repeat for more (default: every article).")
    ] = None,
    format_: Annotated[
        ExportFormat,
        typer.Option(
            "--format",
            help="markdown (ID.md) or json (ID.json: the article, its section tree with contexts, tables, formulas, figures, references).",
        ),
    ] = ExportFormat.markdown,
    by_page: Annotated[bool, typer.Option("--by-page", help="Markdown one file per PDF page: OUT/ID/page-N.md.")] = False,
) -> None:
    """Write articles out as markdown (title, authors, headings, text in reading order, tables,
    formulas as $$ … $$ (N), figure captions, references) or as JSON."""
    from paperpyramid.export import export_articles

    progress = Progress(
        TextColumn("[bold]export"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )  # a bar that vanishes is only for a terminal
    task = progress.add_task("export", total=None)
    with _reading(db) as corpus:
        try:
            with progress:
                paths = export_articles(
                    corpus,
                    out_dir,
                    format=format_.value,
                    by_page=by_page,
                    article_ids=article,
                    on_article=lambda done, total: progress.update(task, completed=done, total=total),
                )
        except (KeyError, ValueError, OSError) as exc:
            raise _error(exc) from exc
    articles = int(progress.tasks[0].completed)
    console.print(
        f"{articles} article{'' if articles == 1 else 's'} exported as {format_.value}: {len(paths)} files in {out_dir}", highlight=False
    )


@app.command("list")
def list_articles(
    db: DbOption = Path("paperpyramid.sqlite"),
    year_from: Annotated[int | None, typer.Option(help="Only articles published in or after this year.")] = None,
    year_to: Annotated[int | None, typer.Option(help="Only articles published in or before this year.")] = None,
    journal: Annotated[str | None, typer.Option(help="Only articles of this journal.")] = None,
    title: Annotated[str | None, typer.Option(help="Only articles whose title holds this text (any case).")] = None,
    cites: Annotated[
        str | None, typer.Option("--cites", help="Only articles whose references name this article (an id or DOI) of the corpus.")
    ] = None,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print one JSON object per line: id, title, doi, year, journal, pages, authors, source, coverage."),
    ] = False,
) -> None:
    """List the articles in the corpus: id, year, DOI and title, in the order they were stored."""
    from paperpyramid.citation_graph import citing_articles
    from paperpyramid.retrieval.filters import Filters, allowed_articles, year_of

    with _reading(db) as corpus:
        allowed = allowed_articles(corpus.conn, Filters(year_from=year_from, year_to=year_to, journal=journal))
        wanted = None if allowed is None else set(allowed)
        if cites is not None:
            try:
                citing = set(citing_articles(corpus.conn, corpus.article(cites).id))
            except KeyError as exc:
                raise _error(exc) from exc
            wanted = citing if wanted is None else wanted & citing
        for article in corpus.articles():
            if (wanted is not None and article.id not in wanted) or (title and title.casefold() not in (article.title or "").casefold()):
                continue
            year = year_of(article.date_published)
            if as_json:
                typer.echo(json.dumps({"id": article.id, "title": article.title, "doi": article.doi, "year": year, "journal": article.journal,
                                       "pages": article.pages, "authors": [author.name for author in article.authors],
                                       "source": article.source_uri, "coverage": article.coverage}, ensure_ascii=False))  # fmt: skip
            else:
                typer.echo(
                    f"{article.id}  {year or '----'}  {article.doi or '-'}  {article.title or '(untitled)'}"
                )  # one line each, never wrapped


@app.command()
def status(
    db: DbOption = Path("paperpyramid.sqlite"),
    errors: Annotated[int, typer.Option(help="How many recent failures to list.")] = 10,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Print one JSON object on one line: counts by status and the recent failures, of ingest and distillation."
        ),
    ] = False,
) -> None:
    """Print the ingest log's counts and the most recent failures, and the same for distillation."""
    with _reading(db) as corpus:
        rows = corpus.ingest_log()
        counts: dict[str, int] = {}
        for row in rows:
            counts[row.status] = counts.get(row.status, 0) + 1
        failed = sorted((row for row in rows if row.status == "failed"), key=lambda row: row.updated_at or "", reverse=True)[:errors]
        distilled = dict(corpus.conn.execute("SELECT status, count(*) FROM distillations GROUP BY status").fetchall())
        not_distilled = corpus.conn.execute(
            "SELECT a.id, a.title, d.error FROM distillations AS d JOIN articles AS a ON a.id = d.article_id WHERE d.status = 'failed' "
            "ORDER BY d.updated_at DESC LIMIT ?",
            [errors],
        ).fetchall()
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "ingest": counts,
                    "failures": [{"source": row.source_uri, "error": row.error, "updated_at": row.updated_at} for row in failed],
                    "distilled": distilled,
                    "distill_failures": [{"article_id": aid, "title": title, "error": error} for aid, title, error in not_distilled],
                },
                ensure_ascii=False,
            )
        )
        return
    out.print("  ".join(f"{name}: {count}" for name, count in sorted(counts.items())) or "empty corpus")
    for row in failed:
        out.print(f"[red]failed[/] {escape(row.error or '')}", highlight=False)
    if distilled:
        out.print("distilled: " + "  ".join(f"{name}: {count}" for name, count in sorted(distilled.items())), highlight=False)
        for _, title, error in not_distilled:
            out.print(f"[red]not distilled[/] {escape(title or '')}: {escape(error or '')}", highlight=False)


@app.command()
def snapshot(
    db: DbOption = Path("paperpyramid.sqlite"),
    to: Annotated[str, typer.Option("--to", help="A local folder or s3://BUCKET/PREFIX/ to publish the snapshot to.")] = "snapshots",
    expires_hours: Annotated[int, typer.Option(help="How long the presigned download URL works (S3 allows at most 168).")] = 168,
) -> None:
    """Publish a consistent, compressed copy of the corpus (safe while ingestion writes) with a
    manifest (schema version, row counts, sha256) and Datasette metadata; print its download URL
    last. Open it anywhere with ``Corpus.open(URL)``: a presigned URL carries its manifest's URL."""
    from datetime import timedelta

    from paperpyramid.db.snapshot import take_snapshot
    from paperpyramid.settings import Settings

    if not db.is_file():
        raise _fail(f"no corpus at {db}")
    try:
        made = take_snapshot(db, to, Settings(), expires=timedelta(hours=min(max(expires_hours, 1), 168)))
    except PaperPyramidError as exc:
        raise _error(exc) from exc
    counts = made.manifest.get("row_counts", {})
    console.print(f"snapshot {made.uri}: {counts.get('articles', 0)} articles, {counts.get('contexts', 0)} contexts")
    console.print(f"manifest {made.manifest_url}", soft_wrap=True, highlight=False)
    typer.echo(made.open_url)  # the last line, all Corpus.open(URL) needs


@eval_app.command("parse")
def eval_parse(
    gold_dir: Annotated[Path, typer.Argument(help="A folder with MANIFEST.tsv and gold .nxml / .tei.xml / .tex files.")],
    db: DbOption = Path("paperpyramid.sqlite"),
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as one JSON object on one line on stdout (the text report goes to stderr).")
    ] = False,
    out_file: Annotated[Path | None, typer.Option("--out", metavar="FILE", help="Also write the full report as JSON to this file.")] = None,
    unseen_tables: Annotated[
        int,
        typer.Option(
            min=0,
            help="Generated papers per table style in the held-out unseen-table set, parsed here with the embedded "
            "parser and reported apart (nine styles: 10 is 90 papers, about 30 s); 0 skips it.",
        ),
    ] = 10,
    citations: Annotated[
        bool,
        typer.Option(
            "--citations/--no-citations",
            help="Also score in-text citation linking against the JATS gold: each gold PDF beside "
            "its .nxml is parsed here with the embedded parser (about 40 s for 20 papers).",
        ),
    ] = True,
) -> None:
    """Score parsed articles against gold files: soft section-title P/R/F1, title match,
    body-text word recall and reference-count ratio, per paper and overall; then tables the
    engine was not developed on (generated, held-out split), reported apart; then in-text
    citations linked to their entries, against each <xref ref-type="bibr"> of the JATS gold."""
    from paperpyramid.eval.parse import evaluate, render_report, report_to_json

    if not (gold_dir / "MANIFEST.tsv").is_file():
        raise _usage(f"{gold_dir} has no MANIFEST.tsv")
    if not db.is_file():
        raise _fail(f"no corpus at {db}")
    report = evaluate(gold_dir, db)
    typer.echo(render_report(report), err=as_json)
    payload = report_to_json(report)
    if unseen_tables:
        from paperpyramid.eval.synthetic.scoring import papers_of, render_results, results_to_json, run_split

        papers = papers_of("heldout", unseen_tables)
        bar = Progress(
            TextColumn("[bold]unseen tables"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console,
            transient=True,
            disable=not console.is_terminal,
        )
        task = bar.add_task("unseen tables", total=len(papers))
        with bar:
            results = run_split(papers, progress=lambda _result: bar.advance(task))
        typer.echo("", err=as_json)
        typer.echo("\n".join(render_results("heldout", results)), err=as_json)
        payload["unseen_tables"] = results_to_json("heldout", results)
    if citations:
        from paperpyramid.eval.citations import citations_to_json, evaluate_citations, render_citations

        scored = evaluate_citations(gold_dir)
        typer.echo("\n".join(render_citations(scored)), err=as_json)
        payload["citations"] = citations_to_json(scored)
    _report(payload, as_json, out_file)


@eval_app.command("retrieval")
def eval_retrieval(
    qa: Annotated[
        Path, typer.Argument(help="A QA .jsonl file: one question a line with id, question, kind, evidence (see the evaluation guide).")
    ],
    db: DbOption = Path("paperpyramid.sqlite"),
    modes: Annotated[
        str,
        typer.Option(
            metavar="NAMES",
            autocompletion=lambda incomplete: _complete_list(incomplete, EVAL_MODES),
            help="Comma-separated, scored side by side: a search mode, a pyramid level (hybrid, or LEVEL:bm25 / LEVEL:vector) or an "
            f"LLM-driven strategy (see --llm-backend); any of: {', '.join(EVAL_MODES)}.",
        ),
    ] = "bm25,vector,hybrid,parent",
    depth: Annotated[
        int,
        typer.Option(
            min=20,
            help="Passages retrieved per question, deep enough for the metric (MRR@10, R@20, evidence within 8k tokens); parent: its own hits, widened.",
        ),
    ] = 100,
    only_distilled: Annotated[
        bool,
        typer.Option(
            "--only-distilled", help="Only the questions about distilled papers, and search only those papers (every mode alike)."
        ),
    ] = False,
    limit: Annotated[
        int | None,
        typer.Option(min=1, help="Only the first N questions (after --only-distilled): a strategy with a slow model takes hours on all."),
    ] = None,
    budget_tokens: Annotated[
        int,
        typer.Option(
            min=1,
            help="Tokens of passages a strategy hands over (the modes return their --depth passages uncut); "
            "8000 by default here, the largest cut the metric scores.",
        ),
    ] = 8000,
    llm_backend: Annotated[
        LLMBackendChoice | None, typer.Option(help="The strategies' LLM backend: local (default) or openai (OPENAI_BASE_URL).")
    ] = None,
    llm_model: Annotated[
        str | None, typer.Option(metavar="NAME", help="With --llm-backend openai: the model name the server knows.")
    ] = None,
    filter_model: Annotated[
        str | None,
        typer.Option(
            help="With multiquery: a smaller model on the same endpoint for the relevance filter (default: PAPERPYRAMID_LLM__FILTER_MODEL, else the answering model)."
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as one JSON object on one line on stdout (the text report goes to stderr).")
    ] = False,
    out_file: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help="Also write the full report (per kind, per question ranks, LLM tokens and failures) to this file as JSON.",
        ),
    ] = None,
) -> None:
    """Score retrieval on a QA set: MRR@10, R@5, R@20,
    evidence within 2k/4k/8k tokens, all-evidence@20 for cross-* questions, latency, and the
    passages' tokens and the LLM tokens spent per question; every mode and strategy in one run,
    per question kind. A strategy is scored on the passages it hands to the answering model, in
    that order; a question on which its model's reply is unreadable counts as no passages and
    as "failed". A hit on a pyramid level counts when one of its source contexts matches (the
    drill-down); the report gives each level's compression ratio."""
    from paperpyramid.eval.retrieval import QuestionResult, evaluate, load_questions, render_report, report_to_json, retrievers
    from paperpyramid.retrieval.filters import Filters
    from paperpyramid.retrieval.strategies import STRATEGIES

    if not qa.is_file():
        raise _usage(f"no QA file at {qa}")
    questions = load_questions(qa)
    names = [name.strip() for name in modes.split(",") if name.strip()]
    strategies = [name for name in names if name in STRATEGIES]
    llm, llm_settings = _eval_llm(llm_backend, llm_model) if strategies else (None, None)
    filter_settings = llm_settings.for_filter(filter_model) if llm_settings is not None else None
    filter_llm = _eval_llm(None, None, filter_settings)[0] if strategies and filter_settings is not None else None
    with _reading(db) as corpus:
        filters = Filters()
        distilled: dict[str, str] = {}
        if only_distilled:
            distilled = {
                Path(uri or "").name: aid
                for aid, uri in corpus.conn.execute(
                    "SELECT a.id, a.source_uri FROM distillations AS d JOIN articles AS a ON a.id = d.article_id WHERE d.status = 'done'"
                )
            }
            if not distilled:
                raise _fail(f"no distilled articles in {db}: run paperpyramid distill first")
            questions = [q for q in questions if q.pdfs and all(pdf in distilled for pdf in q.pdfs)]
            filters = Filters(article_ids=tuple(distilled.values()))
            typer.echo(
                f"{len(questions)} questions about the {len(distilled)} distilled papers; every mode searches only those papers",
                err=as_json,
            )
        if limit is not None and limit < len(questions):
            typer.echo(f"the first {limit} of {len(questions)} questions (--limit {limit})", err=as_json)
            questions = questions[:limit]
        if llm is not None and llm_settings is not None:
            typer.echo(
                f"strategies {', '.join(strategies)} with {llm.name}"
                + (f" (filter: {filter_llm.name})" if filter_llm else "")
                + f", passages cut to {budget_tokens} tokens"
                + ("; replies from the response cache cost no tokens" if llm_settings.cache else ""),
                err=as_json,
            )
        try:
            chosen = retrievers(corpus, names, k=depth, filters=filters, llm=llm, filter_llm=filter_llm, budget_tokens=budget_tokens)
            for name in names:
                if name not in STRATEGIES:
                    chosen[name]("warm-up")  # loads the model and checks the mode before timing
            if strategies:
                corpus.retrieve("warm-up", mode=corpus.best_mode(), k=1)  # the query embedder, loaded before timing
        except (PaperPyramidError, ValueError) as exc:
            raise _error(exc) from exc
        spent = [0, 0]  # llm tokens, failures
        columns: list[ProgressColumn] = [TextColumn("[bold]eval"), BarColumn(), MofNCompleteColumn()]
        if strategies:
            columns.append(TextColumn("{task.fields[tokens]} llm tokens, {task.fields[failed]} failed"))
        progress = Progress(*columns, TimeElapsedColumn(), TimeRemainingColumn(), console=console, transient=True)
        task = progress.add_task("eval", total=len(questions) * len(names), tokens=0, failed=0)

        def on_question(mode: str, result: QuestionResult) -> None:
            spent[0] += result.llm_tokens
            spent[1] += result.failure is not None
            progress.update(task, advance=1, tokens=spent[0], failed=spent[1])

        try:
            with progress:
                reports = evaluate(questions, chosen, on_question=on_question)
        except PaperPyramidError as exc:
            raise _fail(f"stopped: {exc}") from exc
        ratios = _compression(corpus.conn, filters.article_ids)
    typer.echo(render_report(reports), err=as_json)
    if ratios:
        typer.echo(
            "compression (tokens of the level / tokens of the same papers' contexts): "
            + ", ".join(
                f"{level} {items} items {tokens} tokens = {ratio:.3f} ({1 / ratio:.1f}x smaller)" if ratio else f"{level} none"
                for level, (items, tokens, ratio) in ratios.items()
            )
        )
    data = report_to_json(reports)
    data["compression"] = {level: {"items": items, "tokens": tokens, "ratio": ratio} for level, (items, tokens, ratio) in ratios.items()}
    _report(data, as_json, out_file)


@eval_app.command("answers")
def eval_answers(
    qa: Annotated[
        Path,
        typer.Argument(help="A QA .jsonl file with reference answers: id, question, kind, answer, evidence (see the evaluation guide)."),
    ],
    db: DbOption = Path("paperpyramid.sqlite"),
    strategy: Annotated[
        str,
        typer.Option(
            metavar="NAMES",
            autocompletion=lambda incomplete: _complete_list(incomplete, STRATEGIES),
            help="Comma-separated strategies, graded side by side: any of ask's (parent, hybrid, cross, bm25, vector, multiquery, walk, walkingrag, pyramid).",
        ),
    ] = "parent",
    budget_tokens: Annotated[
        int, typer.Option(min=1, help="Tokens of passages handed to the answering model (as ask's --budget-tokens).")
    ] = DEFAULT_BUDGET_TOKENS,
    llm_backend: Annotated[
        LLMBackendChoice | None, typer.Option(help="The answering LLM's backend: local (default) or openai (OPENAI_BASE_URL).")
    ] = None,
    llm_model: Annotated[str | None, typer.Option(metavar="NAME", help="With --llm-backend openai: the answering model's name.")] = None,
    judge_backend: Annotated[
        LLMBackendChoice | None, typer.Option(help="The judge's LLM backend (default: the answering model's).")
    ] = None,
    judge_model: Annotated[str | None, typer.Option(metavar="NAME", help="The judge's model name (default: the answering model).")] = None,
    limit: Annotated[int | None, typer.Option(min=1, help="Only the first N questions (with a reference answer).")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as one JSON object on one line on stdout (the text report goes to stderr).")
    ] = False,
    out_file: Annotated[
        Path | None,
        typer.Option(
            "--out",
            metavar="FILE",
            help="Also write the figures and a row per question and strategy (answer, verdict, reason, citations checked, tokens) to this file as JSON.",
        ),
    ] = None,
) -> None:
    """Grade answers on a QA set: each question answered by each strategy as ask answers it,
    its supported claims graded against the reference answer by a judge model (correct /
    partial / wrong; score = correct + 0.5 x partial), every citation of a supported claim
    checked (it resolves to the stored context and page; it holds the question's gold
    evidence; it backs its claim), and the tokens spent per question, the judge's apart."""
    from paperpyramid.eval.answers import AnswerResult, evaluate_answers, render_report, report_to_json
    from paperpyramid.eval.retrieval import load_questions
    from paperpyramid.retrieval.api import MODES
    from paperpyramid.retrieval.strategies import STRATEGIES
    from paperpyramid.retrieval.trace import Step

    if not qa.is_file():
        raise _usage(f"no QA file at {qa}")
    names = [name.strip() for name in strategy.split(",") if name.strip()]
    unknown = [name for name in names if name not in (*MODES, *STRATEGIES)]
    if unknown or not names:
        raise _usage(f"unknown strategy {unknown[0] if unknown else strategy!r}; choose from: {', '.join((*MODES, *STRATEGIES))}")
    questions = [question for question in load_questions(qa) if question.answer]
    if limit is not None and limit < len(questions):
        typer.echo(f"the first {limit} of {len(questions)} questions (--limit {limit})", err=as_json)
        questions = questions[:limit]
    llm, llm_settings = _eval_llm(llm_backend, llm_model)
    judge = _eval_llm(judge_backend, judge_model, llm_settings)[0] if judge_backend or judge_model else llm
    typer.echo(
        f"answers by {llm.name} from {budget_tokens} tokens of passages, judged by {judge.name}"
        + ("; replies from the response cache cost no tokens" if llm_settings.cache else ""),
        err=as_json,
    )
    with _reading(db) as corpus:

        def ask(question: str, name: str, on_step: Callable[[Step], None]) -> Answer:
            answer: Answer = corpus.ask(question, strategy=name, budget_tokens=budget_tokens, llm=llm, on_step=on_step)
            return answer

        spent = [0, 0]  # the answers' tokens, the judge's
        progress = Progress(
            TextColumn("[bold]eval"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[answer]} answer + {task.fields[judge]} judge tokens"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        )
        task = progress.add_task("eval", total=len(questions) * len(names), answer=0, judge=0)

        def on_question(result: AnswerResult) -> None:
            spent[0] += result.answer_tokens
            spent[1] += result.judge_tokens
            progress.update(task, advance=1, answer=spent[0], judge=spent[1])

        try:
            with progress:
                reports = evaluate_answers(corpus.conn, questions, names, ask, judge, on_question=on_question)
        except (PaperPyramidError, ValueError) as exc:
            raise _fail(f"stopped: {exc}") from exc
    typer.echo(render_report(reports), err=as_json)
    _report(report_to_json(reports, answerer=llm.name, judge=judge.name), as_json, out_file)


def _report(payload: dict[str, Any], as_json: bool, out_file: Path | None) -> None:
    """An eval's report as JSON: one line on stdout with --json, a file with --out."""
    if out_file is not None:
        out_file.write_text(json.dumps(payload, indent=2, ensure_ascii=False), encoding="utf-8")
    if as_json:
        typer.echo(json.dumps(payload, ensure_ascii=False))


def _eval_llm(backend: str | None, model: str | None, base: LLMSettings | None = None) -> tuple[LLM, LLMSettings]:
    """The model that --llm-backend and --llm-model name over ``base`` (default: the configured LLM),
    or one clear line why there is none."""
    from paperpyramid.llm import get_llm
    from paperpyramid.settings import Settings

    try:
        settings = _llm_settings(base or Settings().llm, backend, model)
        return get_llm(settings), settings
    except ValidationError as exc:
        raise _invalid(exc) from exc
    except PaperPyramidError as exc:
        raise _error(exc) from exc


def _compression(conn: Any, article_ids: tuple[str, ...] | None) -> dict[str, tuple[int, int, float]]:
    """(items, tokens, tokens / contexts' tokens) per distilled level, over the distilled papers
    (or ``article_ids``)."""
    from paperpyramid.db.schema import PYRAMID_LEVELS

    ids = (
        list(article_ids)
        if article_ids is not None
        else [row[0] for row in conn.execute("SELECT article_id FROM distillations WHERE status = 'done'")]
    )
    if not ids:
        return {}
    where = "(SELECT value FROM json_each(?))"
    contexts = conn.execute(f"SELECT coalesce(sum(num_tokens), 0) FROM articles WHERE id IN {where}", [json.dumps(ids)]).fetchone()[0] or 1
    out = {}
    for level in PYRAMID_LEVELS:
        if level == "recollections":
            continue
        items, tokens = conn.execute(
            f"SELECT count(*), coalesce(sum(num_tokens), 0) FROM {level} WHERE article_id IN {where}", [json.dumps(ids)]
        ).fetchone()
        out[level] = (int(items), int(tokens), tokens / contexts)
    return out


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


def _check_corpus_file(db: Path) -> None:
    from paperpyramid.db.writer import check_corpus_file

    check_corpus_file(db)  # NotACorpus: main() prints it in one line


def _open(db: Path):  # type: ignore[no-untyped-def]
    from paperpyramid.corpus import Corpus

    if not db.is_file():
        raise _fail(f"no corpus at {db} (create one with: paperpyramid ingest PDFs --db {db})")
    return Corpus.open(db)


@contextmanager
def _reading(db: Path) -> Iterator[Corpus]:
    """The corpus at ``db``, open for the block. A file damaged past its header opens, and
    fails only when a query reaches a bad page: that too ends the command in one line."""
    from paperpyramid.db.sqlite import DatabaseError

    with _open(db) as corpus:
        try:
            yield corpus
        except DatabaseError as exc:
            raise _fail(f"cannot read {db}: {exc}") from exc


def _invalid(exc: ValidationError) -> typer.Exit:
    """Settings that do not validate (from the environment or an option): one line, exit 3."""
    return _fail(
        "; ".join(
            f"{'.'.join(str(part) for part in error['loc'])}: {error['msg']}" if error["loc"] else error["msg"] for error in exc.errors()
        )
    )


def _warn_deprecated_env() -> None:
    """One line per older variable still set; the command then reads it as its successor."""
    import os

    from paperpyramid.env import DEPRECATED_ENV

    for old, new in DEPRECATED_ENV.items():
        if old in os.environ and new not in os.environ:
            console.print(f"[yellow]warning:[/] {old} is deprecated: set {new} instead", highlight=False)
            os.environ[new] = os.environ[old]


_WORDS = {int: "INTEGER", float: "NUMBER", str: "TEXT", Path: "PATH"}


def _plain_metavars(command: Any) -> Any:
    """``command`` (and its subcommands) with every option's value shown as a plain word (TEXT,
    INTEGER, NUMBER, PATH, or the argument's name) instead of the Python type names typer
    writes (``<list[str]>``); choices are left to show their values."""
    for param in getattr(command, "params", []):
        descriptor = getattr(param, "type_descriptor", None)
        if param.metavar is not None or descriptor is None or descriptor.is_choice:
            continue
        if param.param_type_name == "argument":
            param.metavar = param.name.upper()
            param.display_type_rich = lambda ctx: None  # the name says it; typer would add <str>
            continue
        annotation = descriptor.annotation
        element = typing.get_args(annotation)[0] if descriptor.is_list and typing.get_args(annotation) else annotation
        if element is not bool:
            param.metavar = "PATH" if descriptor.is_path else _WORDS.get(element, "TEXT")
    for sub in getattr(command, "commands", {}).values():
        _plain_metavars(sub)
    return command


def get_command() -> Any:
    """The click command ``paperpyramid`` runs: the typer app with plain metavars."""
    return _plain_metavars(typer.main.get_command(app))


def main() -> None:
    """The ``paperpyramid`` command: the app, with any deliberate error a command did not report
    itself (a ``--db`` that is not a corpus, or in a folder that does not exist) printed in one
    line with the exit status it stands for (:data:`EXIT_CODES`), never as a traceback."""
    _warn_deprecated_env()
    try:
        get_command()(prog_name="paperpyramid")
    except PaperPyramidError as exc:
        console.print(f"[bold red]error:[/] {escape(str(exc))}", highlight=False, soft_wrap=True)
        raise SystemExit(_exit_code(exc)) from None


if __name__ == "__main__":
    main()
