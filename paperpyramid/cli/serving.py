"""The commands that serve the corpus read-only: ``serve`` (HTTP and a web page) and ``mcp``
(Model Context Protocol, for desktop assistants and editors)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError

from paperpyramid.cli.common import DbOption, _error, _fail, _invalid, console
from paperpyramid.errors import PaperPyramidError


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
