"""The ``paperpyramid`` command: a thin layer over the Python API.

Errors that paperpyramid raises on purpose become one clear line, and the exit status says
what happened (:data:`EXIT_CODES`): 0 all done, 1 some inputs failed, 2 a usage error, 3 a
configuration error or an outage.

The commands live in one module per step of the journey (:mod:`.ingesting`, :mod:`.searching`,
:mod:`.distilling`, :mod:`.corpus`, :mod:`.serving`, :mod:`.evaluating`), each importing only
:mod:`.common`; this module registers them on the app, in the order ``--help`` lists them.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.markup import escape

from paperpyramid.cli.common import (
    EXIT_CODES,
    EXIT_CONFIGURATION,
    EXIT_OK,
    EXIT_SOME_FAILED,
    EXIT_USAGE,
    _exit_code,
    _plain_metavars,
    _warn_deprecated_env,
    console,
)
from paperpyramid.cli.corpus import embed, export, list_articles, show, snapshot, status
from paperpyramid.cli.distilling import distill
from paperpyramid.cli.evaluating import eval_answers, eval_parse, eval_retrieval
from paperpyramid.cli.ingesting import ingest
from paperpyramid.cli.merging import merge
from paperpyramid.cli.searching import ask, cite, search
from paperpyramid.cli.serving import mcp, serve
from paperpyramid.errors import PaperPyramidError

app = typer.Typer(
    help="Academic PDFs in, a searchable SQLite corpus out.", no_args_is_help=True, add_completion=False, rich_markup_mode=None
)
eval_app = typer.Typer(help="Score a corpus against gold files.", no_args_is_help=True, rich_markup_mode=None)
app.add_typer(eval_app, name="eval")


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


app.command()(ingest)
app.command()(search)
app.command()(embed)
app.command()(ask)
app.command()(cite)
app.command()(mcp)
app.command()(serve)
app.command()(distill)
app.command(context_settings={"ignore_unknown_options": True})(show)  # article ids may begin with "-"
app.command()(export)
app.command("list")(list_articles)
app.command()(status)
app.command()(snapshot)
app.command()(merge)
eval_app.command("parse")(eval_parse)
eval_app.command("retrieval")(eval_retrieval)
eval_app.command("answers")(eval_answers)


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


__all__ = [
    "EXIT_CODES", "EXIT_CONFIGURATION", "EXIT_OK", "EXIT_SOME_FAILED", "EXIT_USAGE", "app", "ask", "cite", "distill", "embed",
    "eval_answers", "eval_app", "eval_parse", "eval_retrieval", "export", "get_command", "ingest", "list_articles", "main", "mcp", "merge",
    "search", "serve", "show", "snapshot", "status",
]  # fmt: skip
