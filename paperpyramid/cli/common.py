"""What every command shares: the exit statuses, the one-line errors, the consoles, the choice
enums and completions, opening the corpus, the progress bar's rate column and the plain metavars
of ``--help``. The command modules import from here; this module imports none of them."""

from __future__ import annotations

import enum
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
from paperpyramid.settings import EMBEDDER_NAMES, LEVELS, LLM_BACKENDS, PARSER_NAMES, SEARCH_MODES, STRATEGIES

if TYPE_CHECKING:
    from collections.abc import Iterator

    from paperpyramid.corpus import Corpus
    from paperpyramid.db.sqlite import Connection
    from paperpyramid.settings import LLMSettings, Settings

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


def _complete_list(incomplete: str, names: tuple[str, ...]) -> list[str]:
    """Completions of the last name of a comma-separated list."""
    done, _, last = incomplete.rpartition(",")
    return [f"{done}," * bool(done) + name for name in names if name.startswith(last)]


def _fail(message: str, code: int = EXIT_CONFIGURATION) -> typer.Exit:
    """Print ``message`` as one error line; the exit to raise (default: configuration or outage)."""
    # literally (an install hint's [minilm] is not markup) and on one line, however narrow the terminal
    console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def _interrupted(kept: str) -> typer.Exit:
    """Ctrl-C in a command that writes: say what it kept (``kept``), and the exit to raise, 130
    (128 + SIGINT, as a shell reports it), the same for every command."""
    console.print(f"stopped; {kept}")
    return typer.Exit(130)


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


def _bar(label: str, *columns: ProgressColumn, remaining: bool = True, transient: bool = False, terminal_only: bool = False) -> Progress:
    """Every command's progress bar, on stderr: LABEL, the bar, done/total, ``columns``, the time
    elapsed and (``remaining``) the time left. A ``transient`` bar vanishes when done; a
    ``terminal_only`` one is not drawn at all where stderr is not a terminal."""
    return Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        *columns,
        TimeElapsedColumn(),
        *([TimeRemainingColumn()] if remaining else []),
        console=console,
        transient=transient,
        disable=terminal_only and not console.is_terminal,
    )


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


def _llm_settings(base: LLMSettings, backend: str | None, model: str | None) -> LLMSettings:
    """``base`` with the command line's --llm-backend and --llm-model, validated like the rest."""
    overrides = {key: str(value) for key, value in {"backend": backend, "model": model}.items() if value is not None}
    return base.model_validate({**base.model_dump(), **overrides})


def _compression(conn: Connection, article_ids: tuple[str, ...] | None) -> dict[str, tuple[int, int, float]]:
    """(items, tokens, tokens / contexts' tokens) per distilled level, over the distilled papers
    (or ``article_ids``)."""
    from paperpyramid.db.queries import distilled

    ids = list(article_ids) if article_ids is not None else distilled.distilled_article_ids(conn)
    if not ids:
        return {}
    contexts, sizes = distilled.level_sizes(conn, ids)
    return {level: (items, tokens, tokens / (contexts or 1)) for level, (items, tokens) in sizes.items()}


def _check_corpus_file(db: Path) -> None:
    from paperpyramid.db.writer import check_corpus_file

    check_corpus_file(db)  # NotACorpus: main() prints it in one line


@contextmanager
def _reading(db: Path, *, doing: str = "read", **options: Any) -> Iterator[Corpus]:
    """The corpus at ``db``, open for the block (``options`` go to :meth:`Corpus.open`). A
    missing file, or a database error while opening or reading it (a file damaged past its
    header opens, and fails only when a query reaches a bad page), ends the command in one line."""
    from paperpyramid.corpus import Corpus
    from paperpyramid.db.sqlite import DatabaseError

    if not db.is_file():
        raise _fail(f"no corpus at {db} (create one with: paperpyramid ingest PDFs --db {db})")
    try:
        with Corpus.open(db, **options) as corpus:
            yield corpus
    except DatabaseError as exc:
        raise _fail(f"cannot {doing} {db}: {exc}") from exc


@contextmanager
def _writing(db: Path, settings: Settings | None = None, **models: Any) -> Iterator[Corpus]:
    """:func:`_reading` for a command that adds to the corpus (embed, distill, snapshot), with
    ``settings`` (default: the environment's, one line when they do not validate) and ``models``
    (``embedder``, ``llm``): the corpus is brought up to the current schema first, as the writer
    does."""
    from paperpyramid.settings import Settings

    try:
        settings = settings or Settings()
    except ValidationError as exc:
        raise _invalid(exc) from exc
    with _reading(db, doing="write", settings=settings, migrate=True, **models) as corpus:
        yield corpus


def _invalid(exc: ValidationError) -> typer.Exit:
    """Settings that do not validate (from the environment or an option): one line, exit 3."""
    return _fail(
        "; ".join(
            f"{'.'.join(str(part) for part in error['loc'])}: {error['msg']}" if error["loc"] else error["msg"] for error in exc.errors()
        )
    )


def _warn_deprecated_env() -> None:
    """One line per older variable still set; the command then reads it as its successor."""
    from paperpyramid.env import adopt_deprecated

    for old, new in adopt_deprecated():
        console.print(f"[yellow]warning:[/] {old} is deprecated: set {new} instead", highlight=False)


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
